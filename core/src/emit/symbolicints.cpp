// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "emit/lowering_p.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <cstring>
#include <functional>
#include <limits>
#include <numeric>
#include <set>
#include <span>
#include <unordered_map>
#include <unordered_set>
#include <utility>

// Symbolic sizes: upper bounds from range constraints, and the sym ops of a graph as executorch_prim calls.

namespace pte::emitcore {

namespace {

// A tiny evaluator for sympy text: infix ("2*s0 + 1") and srepr ("Mul(Integer(2), Symbol('s0', ...))").
// Symbols take their upper bound; only +, - (by constants) and * are accepted, which are monotone for sizes.
class SymEval
{
public:
    SymEval(std::string_view text, const std::map<std::string, RangeConstraint>& ranges)
        : m_s(text)
        , m_ranges(ranges)
    { }
    std::optional<std::int64_t> run()
    {
        auto v = expr();
        skip();
        if (!v || m_p != m_s.size())
            return std::nullopt;
        return v;
    }

private:
    void skip()
    {
        while (m_p < m_s.size() && std::isspace(static_cast<unsigned char>(m_s[m_p])))
            ++m_p;
    }
    bool eat(char c)
    {
        skip();
        if (m_p < m_s.size() && m_s[m_p] == c) {
            ++m_p;
            return true;
        }
        return false;
    }
    std::optional<std::int64_t> expr()
    {
        auto v = term();
        while (v) {
            if (eat('+')) {
                auto r = term();
                if (!r)
                    return std::nullopt;
                *v += *r;
            } else if (eat('-')) {
                auto r = term();
                if (!r)
                    return std::nullopt;
                *v -= *r;
            } else
                break;
        }
        return v;
    }
    std::optional<std::int64_t> term()
    {
        auto v = factor();
        while (v) {
            skip();
            if (m_s.substr(m_p, 2) == "//") {
                m_p += 2;
                auto r = factor();
                if (!r || *r == 0)
                    return std::nullopt;
                *v /= *r;
            } else if (eat('*')) {
                auto r = factor();
                if (!r)
                    return std::nullopt;
                *v *= *r;
            } else
                break;
        }
        return v;
    }
    std::optional<std::int64_t> factor()
    {
        skip();
        if (eat('(')) {
            auto v = expr();
            if (!eat(')'))
                return std::nullopt;
            return v;
        }
        if (m_p < m_s.size() && std::isdigit(static_cast<unsigned char>(m_s[m_p]))) {
            std::int64_t v = 0;
            const auto r = std::from_chars(m_s.data() + m_p, m_s.data() + m_s.size(), v);
            m_p = std::size_t(r.ptr - m_s.data());
            return v;
        }
        std::string ident;
        while (m_p < m_s.size() && (std::isalnum(static_cast<unsigned char>(m_s[m_p])) || m_s[m_p] == '_'))
            ident += m_s[m_p++];
        if (ident.empty())
            return std::nullopt;
        skip();
        if (m_p < m_s.size() && m_s[m_p] == '(') {
            // srepr call
            ++m_p;
            if (ident == "Symbol") {
                skip();
                if (m_p >= m_s.size() || (m_s[m_p] != '\'' && m_s[m_p] != '"'))
                    return std::nullopt;
                const char q = m_s[m_p++];
                const auto end = m_s.find(q, m_p);
                if (end == std::string_view::npos)
                    return std::nullopt;
                const std::string name(m_s.substr(m_p, end - m_p));
                m_p = end + 1;
                int depth = 1; // skip assumptions
                while (m_p < m_s.size() && depth > 0) {
                    if (m_s[m_p] == '(')
                        ++depth;
                    else if (m_s[m_p] == ')')
                        --depth;
                    ++m_p;
                }
                return symbol(name);
            }
            if (ident == "Integer") {
                auto v = expr();
                if (!eat(')'))
                    return std::nullopt;
                return v;
            }
            if (ident == "Add" || ident == "Mul") {
                std::optional<std::int64_t> acc = ident == "Add" ? 0 : 1;
                do {
                    auto v = expr();
                    if (!v)
                        return std::nullopt;
                    acc = ident == "Add" ? *acc + *v : *acc * *v;
                } while (eat(','));
                if (!eat(')'))
                    return std::nullopt;
                return acc;
            }
            return std::nullopt;
        }
        return symbol(ident);
    }
    std::optional<std::int64_t> symbol(const std::string& name)
    {
        const auto it = m_ranges.find(name);
        if (it == m_ranges.end() || !it->second.maxVal)
            return std::nullopt;
        return *it->second.maxVal;
    }

    std::string_view m_s;
    std::size_t m_p = 0;
    const std::map<std::string, RangeConstraint>& m_ranges;
};

} // namespace

std::optional<std::int64_t> symUpperBound(const SymInt& s, const std::map<std::string, RangeConstraint>& ranges)
{
    if (s.value)
        return s.value;
    if (s.expr.empty())
        return std::nullopt;
    return SymEval(s.expr, ranges).run();
}

Result<void> Lowering::lowerSymOp(const Node& n)
{
    // Python operator targets on SymInts -> executorch_prim scalar ops (EdgeToBackendOpsPass).
    static const std::map<std::string, std::string, std::less<>> kMap = {
        { "add", "add" },
        { "sub", "sub" },
        { "mul", "mul" },
        { "floordiv", "floordiv" },
        { "truediv", "truediv" },
        { "mod", "mod" },
        { "eq", "eq" },
        { "gt", "gt" },
        { "lt", "lt" },
        { "ge", "ge" },
        { "le", "le" },
        { "neg", "neg" },
        { "sym_max", "sym_max" },
        { "sym_min", "sym_min" },
        { "sym_float", "sym_float" },
        { "sym_int", "sym_int" },
        { "sym_not", "sym_not" },
        { "sym_ite", "sym_ite" },
        { "ceil", "ceil" },
        { "round", "round" },
        { "trunc", "trunc" },
    };
    std::string_view t = n.target;
    const auto dot = t.rfind('.');
    const auto fn = dot == std::string_view::npos ? t : t.substr(dot + 1);
    const auto it = kMap.find(fn);
    const OpSchema* s = it == kMap.end() ? nullptr : m_reg.find("executorch_prim::" + it->second, "Scalar");
    if (!s) {
        // Python's and_/or_/pow... on symbols mostly feed torch.export's runtime assertions, which are removed
        // (dropAssertion): the result is left uncomputed, and only a node that reads it is refused (naming this one).
        for (const auto& o : n.outputs) {
            const std::string name = !o.names.empty() ? o.names[0] : !o.syms.empty() ? o.syms[0].expr : std::string();
            if (!name.empty())
                markUncomputed(name,
                    "the result of node '" + n.name + "' (" + std::string(fn)
                        + " on symbols, which ExecuTorch's prim ops do not have)");
        }
        return {};
    }
    ArgMap given;
    for (std::size_t i = 0; i < n.inputs.size() && i < s->args.size(); ++i) {
        auto arg = convertUntyped(n.inputs[i].arg, this->where(n));
        if (!arg)
            return fail(withPath(n, arg.error()));
        given[s->args[i].name] = std::move(*arg);
    }
    PTE_TRY(const auto outs, nodeOutputs(n));
    return emitKernel(*s, std::move(given), outs, n);
}

} // namespace pte::emitcore
