// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "emit/opschema.h"

#include "pte/operatorname.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstring>
#include <map>

namespace pte::emitcore {

namespace {

constexpr std::string_view kSchemaText =
#include "emit/opschemas.inc"
    ;

// The composites the lowering decomposes (their schemas bind a node's arguments by name, defaults included).
constexpr std::string_view kCompositeSchemaText =
#include "emit/compositeschemas.inc"
    ;

std::string_view trim(std::string_view s)
{
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\r'))
        s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r'))
        s.remove_suffix(1);
    return s;
}

// Splits on top-level commas (not inside (), [] or quotes).
std::vector<std::string_view> splitTopLevel(std::string_view s)
{
    std::vector<std::string_view> parts;
    int depth = 0;
    char quote = 0;
    std::size_t start = 0;
    for (std::size_t i = 0; i < s.size(); ++i) {
        const char c = s[i];
        if (quote) {
            if (c == quote)
                quote = 0;
            continue;
        }
        if (c == '"' || c == '\'')
            quote = c;
        else if (c == '(' || c == '[')
            ++depth;
        else if (c == ')' || c == ']')
            --depth;
        else if (c == ',' && depth == 0) {
            parts.push_back(trim(s.substr(start, i - start)));
            start = i + 1;
        }
    }
    const auto last = trim(s.substr(start));
    if (!last.empty())
        parts.push_back(last);
    return parts;
}

Result<ArgType> parseType(std::string_view t)
{
    ArgType type;
    type.text = std::string(t);
    if (!t.empty() && t.back() == '?') {
        type.optional = true;
        t.remove_suffix(1);
    }
    // Alias annotation: Tensor(a!) / Tensor(a) / Tensor(a -> *)
    std::string base;
    std::size_t i = 0;
    while (i < t.size() && (std::isalnum(static_cast<unsigned char>(t[i])) || t[i] == '_'))
        base += t[i++];
    if (i < t.size() && t[i] == '(') {
        const auto close = t.find(')', i);
        if (close == std::string_view::npos)
            return fail(ErrorCode::InvalidInput, "unbalanced alias annotation in type '" + type.text + "'");
        if (t.substr(i, close - i).find('!') != std::string_view::npos)
            type.mutates = true;
        i = close + 1;
    }
    if (i < t.size() && t[i] == '?') { // Tensor?[]
        type.elemOptional = true;
        ++i;
    }
    if (i < t.size() && t[i] == '[') {
        const auto close = t.find(']', i);
        if (close == std::string_view::npos)
            return fail(ErrorCode::InvalidInput, "unbalanced list type '" + type.text + "'");
        type.isList = true;
        const auto n = t.substr(i + 1, close - i - 1);
        if (!n.empty()) {
            const auto r = std::from_chars(n.data(), n.data() + n.size(), type.fixedSize);
            if (r.ec != std::errc() || r.ptr != n.data() + n.size())
                return fail(ErrorCode::InvalidInput, "bad list size in type '" + type.text + "'");
        }
        i = close + 1;
        if (i < t.size() && t[i] == '?') {
            type.optional = true;
            ++i;
        }
    }
    if (i != t.size())
        return fail(ErrorCode::InvalidInput, "cannot parse type '" + type.text + "'");
    static const std::map<std::string, BaseType, std::less<>> kBases = {
        { "Tensor", BaseType::Tensor },
        { "int", BaseType::Int },
        { "SymInt", BaseType::SymInt },
        { "float", BaseType::Float },
        { "bool", BaseType::Bool },
        { "str", BaseType::Str },
        { "Scalar", BaseType::Scalar },
        { "ScalarType", BaseType::ScalarType },
        { "Layout", BaseType::Layout },
        { "Device", BaseType::Device },
        { "MemoryFormat", BaseType::MemoryFormat },
    };
    const auto it = kBases.find(base);
    type.base = it == kBases.end() ? BaseType::Other : it->second;
    return type;
}

Result<SchemaArg> parseArg(std::string_view text, bool kwargOnly)
{
    SchemaArg arg;
    arg.kwargOnly = kwargOnly;
    std::string_view decl = text;
    const auto eq = text.find('=');
    if (eq != std::string_view::npos) {
        arg.defaultValue = std::string(trim(text.substr(eq + 1)));
        decl = trim(text.substr(0, eq));
    }
    // The type may contain spaces inside an alias annotation ("Tensor(a -> *)"): the name is the last word.
    const auto sp = decl.rfind(' ');
    std::string_view typeText = decl;
    if (sp != std::string_view::npos && decl.back() != ')') {
        typeText = trim(decl.substr(0, sp));
        arg.name = std::string(trim(decl.substr(sp + 1)));
    }
    PTE_TRY(arg.type, parseType(typeText));
    return arg;
}

} // namespace

bool OpSchema::isOutFn() const noexcept
{
    return std::any_of(args.begin(), args.end(), [](const SchemaArg& a) { return a.kwargOnly && a.type.mutates; });
}

std::vector<std::size_t> OpSchema::outArgs() const
{
    std::vector<std::size_t> out;
    for (std::size_t i = 0; i < args.size(); ++i)
        if (args[i].kwargOnly && args[i].type.mutates)
            out.push_back(i);
    return out;
}

bool OpSchema::isSymOp() const noexcept
{
    if (returns.size() != 1 || returns[0].type.isList)
        return false;
    const auto b = returns[0].type.base;
    if (b != BaseType::Int && b != BaseType::SymInt && b != BaseType::Float && b != BaseType::Bool
        && b != BaseType::Scalar)
        return false;
    if (ns == "executorch_prim")
        return true;
    return ns == "aten"
        && (name == "sym_size" || name == "sym_numel" || name == "sym_stride" || name == "_local_scalar_dense");
}

int OpSchema::argIndex(std::string_view argName) const noexcept
{
    for (std::size_t i = 0; i < args.size(); ++i)
        if (args[i].name == argName)
            return int(i);
    return -1;
}

Result<OpSchema> parseSchema(std::string_view text)
{
    text = trim(text);
    const auto open = text.find('(');
    const auto arrow = text.rfind("->");
    if (open == std::string_view::npos || arrow == std::string_view::npos || arrow < open)
        return fail(ErrorCode::InvalidInput, "not an operator schema: '" + std::string(text) + "'");
    const auto close = text.rfind(')', arrow);
    if (close == std::string_view::npos || close < open)
        return fail(ErrorCode::InvalidInput, "unbalanced parentheses in schema '" + std::string(text) + "'");
    OpSchema s;
    const auto fullName = trim(text.substr(0, open));
    if (fullName.find("::") == std::string_view::npos)
        return fail(ErrorCode::InvalidInput, "schema name has no namespace: '" + std::string(text) + "'");
    auto parts = splitOperatorName(fullName);
    s.ns = std::move(parts.ns);
    s.name = std::move(parts.name);
    if (!isDefaultOverload(parts.overload))
        s.overload = std::move(parts.overload);
    bool kwargOnly = false;
    for (const auto part : splitTopLevel(text.substr(open + 1, close - open - 1))) {
        if (part == "*") {
            kwargOnly = true;
            continue;
        }
        auto arg = parseArg(part, kwargOnly);
        if (!arg)
            return fail(ErrorCode::InvalidInput, arg.error().message + " in schema '" + std::string(text) + "'");
        s.args.push_back(std::move(*arg));
    }
    auto ret = trim(text.substr(arrow + 2));
    if (!ret.empty() && ret.front() == '(') {
        if (ret.back() != ')')
            return fail(ErrorCode::InvalidInput, "unbalanced returns in schema '" + std::string(text) + "'");
        ret = ret.substr(1, ret.size() - 2);
    }
    for (const auto part : splitTopLevel(ret)) {
        // A return is "Type" or "Type name".
        auto r = parseArg(part, false);
        if (!r)
            return fail(ErrorCode::InvalidInput, r.error().message + " in schema '" + std::string(text) + "'");
        if (r->type.base == BaseType::Other && !r->name.empty()) {
            // "Tensor" parsed as name of nothing: retry as a bare type.
            auto bare = parseType(part);
            if (bare) {
                r->type = *bare;
                r->name.clear();
            }
        }
        s.returns.push_back(std::move(*r));
    }
    return s;
}

SchemaRegistry::SchemaRegistry()
{
    for (std::string_view text : { kSchemaText, kCompositeSchemaText }) {
        while (!text.empty()) {
            const auto nl = text.find('\n');
            const auto line = trim(text.substr(0, nl));
            text = nl == std::string_view::npos ? std::string_view {} : text.substr(nl + 1);
            if (line.empty() || line.front() == '#')
                continue;
            // Two schemas run together on one line would parse as one with the other's text in its arguments.
            if (const auto first = line.find("::"); line.find("::", first + 2) != std::string_view::npos) {
                m_errors.push_back("more than one schema on the line '" + std::string(line) + "'");
                continue;
            }
            auto s = parseSchema(line);
            if (s)
                m_schemas.push_back(std::move(*s));
            else
                m_errors.push_back(s.error().message);
        }
    }
    for (std::size_t i = 0; i < m_schemas.size(); ++i)
        m_byKey.emplace(m_schemas[i].qualifiedName() + "." + m_schemas[i].overload, i);
    m_outVariant.reserve(m_schemas.size());
    for (const auto& s : m_schemas)
        m_outVariant.push_back(computeOutVariant(s));
}

const SchemaRegistry& SchemaRegistry::instance()
{
    static const SchemaRegistry registry;
    return registry;
}

const OpSchema* SchemaRegistry::find(std::string_view qualifiedName, std::string_view overload) const noexcept
{
    if (isDefaultOverload(overload))
        overload = {};
    // The key on the stack for the usual short names ("aten::add.Tensor" is past std::string's inline size).
    char buffer[128];
    std::string heap;
    std::string_view key;
    const std::size_t length = qualifiedName.size() + 1 + overload.size();
    if (length <= sizeof buffer) {
        std::memcpy(buffer, qualifiedName.data(), qualifiedName.size());
        buffer[qualifiedName.size()] = '.';
        if (!overload.empty()) // a cleared view's data() is null, which memcpy must not get even for 0 bytes
            std::memcpy(buffer + qualifiedName.size() + 1, overload.data(), overload.size());
        key = std::string_view(buffer, length);
    } else {
        heap.append(qualifiedName).append(".").append(overload);
        key = heap;
    }
    const auto it = m_byKey.find(key);
    return it == m_byKey.end() ? nullptr : &m_schemas[it->second];
}

std::vector<const OpSchema*> SchemaRegistry::overloads(std::string_view qualifiedName) const
{
    std::vector<const OpSchema*> out;
    for (const auto& s : m_schemas)
        if (s.qualifiedName() == qualifiedName)
            out.push_back(&s);
    return out;
}

namespace {
bool sameType(const ArgType& a, const ArgType& b)
{
    auto norm = [](BaseType t) { return t == BaseType::SymInt ? BaseType::Int : t; };
    return norm(a.base) == norm(b.base) && a.isList == b.isList && a.optional == b.optional
        && a.elemOptional == b.elemOptional;
}
} // namespace

const OpSchema* SchemaRegistry::outVariant(const OpSchema& functional) const noexcept
{
    if (&functional >= m_schemas.data() && &functional < m_schemas.data() + m_schemas.size())
        return m_outVariant[std::size_t(&functional - m_schemas.data())];
    return computeOutVariant(functional);
}

const OpSchema* SchemaRegistry::computeOutVariant(const OpSchema& functional) const noexcept
{
    if (functional.isOutFn())
        return &functional;
    // ExecuTorch's to_out_variant: the overload of the same operator whose non-out arguments match the
    // functional ones. Exact matches (names and types) win; otherwise an overload whose arguments are a
    // subset (factory functions drop dtype/layout/device in their out form).
    const OpSchema* subset = nullptr;
    for (const auto& s : m_schemas) {
        if (s.ns != functional.ns || s.name != functional.name || !s.isOutFn())
            continue;
        bool exact = true;
        bool isSubset = true;
        std::size_t nonOut = 0;
        for (const auto& a : s.args) {
            if (a.kwargOnly && a.type.mutates)
                continue;
            ++nonOut;
            const int fi = functional.argIndex(a.name);
            if (fi < 0 || !sameType(functional.args[std::size_t(fi)].type, a.type)) {
                exact = false;
                isSubset = false;
                break;
            }
        }
        if (exact && nonOut == functional.args.size())
            return &s;
        if (isSubset && !subset)
            subset = &s;
    }
    return subset;
}

} // namespace pte::emitcore
