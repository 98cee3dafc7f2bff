// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "pte/graphtext.h"

#include <charconv>
#include <cmath>
#include <cstdio>

namespace pte {

namespace {

std::string significant(double v, int digits)
{
    char buf[64];
    const int n = std::snprintf(buf, sizeof buf, "%.*g", digits, v);
    return std::string(buf, std::size_t(n > 0 ? n : 0));
}

template <typename T, typename Fn> std::string listText(const std::vector<T>& items, Fn&& text)
{
    std::string s = "[";
    for (std::size_t i = 0; i < items.size(); ++i) {
        if (i)
            s += ", ";
        s += text(items[i]);
    }
    return s + "]";
}

std::string boolText(bool b) { return b ? "True" : "False"; }

std::string valueName(const std::string& n) { return n.empty() ? std::string("None") : n; }

} // namespace

std::string symIntText(const SymInt& s) { return s.value ? std::to_string(*s.value) : s.expr; }

std::string shapeText(const std::vector<SymInt>& sizes) { return listText(sizes, symIntText); }

std::string tensorMetaText(const TensorMeta& meta)
{
    std::string s = scalarTypeShortName(meta.dtype) + shapeText(meta.sizes);
    if (meta.deviceType != "cpu")
        s += "@" + meta.deviceType + (meta.deviceIndex ? ":" + std::to_string(*meta.deviceIndex) : std::string());
    return s;
}

std::string elementText(double value, ScalarType dtype)
{
    if (dtype == ScalarType::Bool)
        return boolText(value != 0);
    if (isIntegralType(dtype) && std::isfinite(value))
        return std::to_string(static_cast<long long>(value));
    if (std::isnan(value))
        return "nan";
    if (std::isinf(value))
        return value < 0 ? "-inf" : "inf";
    if (dtype == ScalarType::Half)
        return significant(value, 4);
    if (dtype == ScalarType::BFloat16)
        return significant(value, 3);
    char buf[64];
    const auto res = dtype == ScalarType::Float ? std::to_chars(buf, buf + sizeof buf, static_cast<float>(value))
                                                : std::to_chars(buf, buf + sizeof buf, value);
    return std::string(buf, res.ptr);
}

std::string elementsText(std::span<const double> values, ScalarType dtype, std::size_t maxShown)
{
    std::string s;
    const std::size_t shown = std::min(maxShown, values.size());
    for (std::size_t i = 0; i < shown; ++i) {
        if (i)
            s += ", ";
        s += elementText(values[i], dtype);
    }
    if (values.size() > shown)
        s += shown ? ", …" : "…";
    return s;
}

std::string argumentText(const Argument& a)
{
    auto real = [](double d) { return elementText(d, ScalarType::Double); };
    switch (a.kind) {
    case ArgKind::None:
        return "None";
    case ArgKind::Tensor:
    case ArgKind::OptionalTensor:
        return a.names.empty() ? "None" : valueName(a.names[0]);
    case ArgKind::Tensors:
    case ArgKind::OptionalTensors:
    case ArgKind::NestedTensors:
        return listText(a.names, valueName);
    case ArgKind::Int:
    case ArgKind::MemoryFormat:
    case ArgKind::Layout:
        return a.ints.empty() ? "?" : std::to_string(a.ints[0]);
    case ArgKind::ScalarType:
        if (a.scalarType)
            return scalarTypeShortName(*a.scalarType);
        return "dtype(" + (a.ints.empty() ? std::string("?") : std::to_string(a.ints[0])) + ")";
    case ArgKind::Ints:
    case ArgKind::IntLists:
        return listText(a.ints, [](std::int64_t v) { return std::to_string(v); });
    case ArgKind::Float:
        return a.floats.empty() ? "?" : real(a.floats[0]);
    case ArgKind::Floats:
    case ArgKind::FloatLists:
    case ArgKind::Complex:
        return listText(a.floats, real);
    case ArgKind::String:
    case ArgKind::Operator: {
        const std::string s = a.strings.empty() ? std::string() : a.strings[0];
        return s.size() > 48 ? "\"" + s.substr(0, 45) + "...\"" : "\"" + s + "\"";
    }
    case ArgKind::Strings:
        return listText(a.strings, [](const std::string& s) { return "\"" + s + "\""; });
    case ArgKind::Bool:
        return a.bools.empty() ? "?" : boolText(a.bools[0]);
    case ArgKind::Bools:
        return listText(a.bools, [](bool b) { return boolText(b); });
    case ArgKind::SymInt:
    case ArgKind::SymBool:
    case ArgKind::SymFloat:
        return a.syms.empty() ? "?" : symIntText(a.syms[0]);
    case ArgKind::SymInts:
    case ArgKind::SymBools:
    case ArgKind::SymFloats:
        return shapeText(a.syms);
    case ArgKind::Device:
        return (a.strings.empty() ? std::string("?") : a.strings[0])
            + (a.ints.empty() ? std::string() : ":" + std::to_string(a.ints[0]));
    case ArgKind::Graph:
        return "graph(" + (a.strings.empty() ? std::string() : a.strings[0]) + ", "
            + std::to_string(a.graph ? a.graph->nodes.size() : 0) + " nodes)";
    case ArgKind::CustomObj:
        return a.names.empty() ? "obj" : a.names[0];
    case ArgKind::StringToArgument: {
        std::string s = "{";
        for (std::size_t i = 0; i < a.strings.size() && i < a.children.size(); ++i)
            s += (i ? ", " : "") + a.strings[i] + ": " + argumentText(a.children[i]);
        return s + "}";
    }
    }
    return "?";
}

namespace {

/** `s` split at `sep` where no bracket is open; an empty last piece is dropped. */
std::vector<std::string_view> splitTopLevel(std::string_view s, char sep)
{
    std::vector<std::string_view> out;
    int depth = 0;
    std::size_t start = 0;
    for (std::size_t i = 0; i < s.size(); ++i) {
        const char c = s[i];
        if (c == '(' || c == '[' || c == '{')
            ++depth;
        else if ((c == ')' || c == ']' || c == '}') && depth > 0)
            --depth;
        else if (c == sep && depth == 0) {
            out.push_back(s.substr(start, i - start));
            start = i + 1;
        }
    }
    if (start < s.size())
        out.push_back(s.substr(start));
    return out;
}

} // namespace

std::vector<std::string> nnModulePaths(std::string_view nnModuleStack)
{
    std::vector<std::string> out;
    for (const auto entry : splitTopLevel(nnModuleStack, ';')) {
        const auto fields = splitTopLevel(entry, ',');
        if (fields.size() >= 2 && !fields[1].empty())
            out.emplace_back(fields[1]);
    }
    return out;
}

} // namespace pte
