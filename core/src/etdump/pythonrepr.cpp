// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// Python's repr() of floats, strings, lists, dicts and logged values, as the Inspector's dataframe cells show them.
#include "etdump/pythonrepr.h"

#include "pte/profiletable.h"
#include "pte/tensortext.h"

#include <algorithm>
#include <charconv>
#include <cmath>

namespace pte {

namespace etdump {

std::string pyString(std::string_view s)
{
    // Python's repr of str: single quotes unless the text has a single quote and no double quote.
    const bool useDouble = s.find('\'') != std::string_view::npos && s.find('"') == std::string_view::npos;
    const char q = useDouble ? '"' : '\'';
    std::string out(1, q);
    for (const char c : s) {
        switch (c) {
        case '\\':
            out += "\\\\";
            break;
        case '\n':
            out += "\\n";
            break;
        case '\t':
            out += "\\t";
            break;
        case '\r':
            out += "\\r";
            break;
        default:
            if (c == q)
                out += '\\';
            out += c;
        }
    }
    out += q;
    return out;
}

std::string pyStringList(const std::vector<std::string>& items)
{
    std::string out = "[";
    for (std::size_t i = 0; i < items.size(); ++i)
        out += (i ? ", " : "") + pyString(items[i]);
    return out + "]";
}

std::string pyDict(const std::vector<std::pair<std::string, std::string>>& items)
{
    std::string out = "{";
    for (std::size_t i = 0; i < items.size(); ++i)
        out += (i ? ", " : "") + pyString(items[i].first) + ": " + pyString(items[i].second);
    return out + "}";
}

std::string describeValue(const EtDump& dump, const EtdumpValue& v)
{
    auto tensor = [](const EtdumpTensor& t) { return "tensor(" + tensorTypeText(t.scalarType, t.sizes) + ")"; };
    (void)dump;
    switch (v.type) {
    case EtdumpValueType::Tensor:
        return v.tensors.empty() ? std::string("None") : tensor(v.tensors.front());
    case EtdumpValueType::TensorList: {
        std::string s = "[";
        for (std::size_t i = 0; i < v.tensors.size(); ++i)
            s += (i ? ", " : "") + tensor(v.tensors[i]);
        return s + "]";
    }
    case EtdumpValueType::Int:
        return std::to_string(v.intValue);
    case EtdumpValueType::Bool:
        return v.boolValue ? "True" : "False";
    case EtdumpValueType::Float:
    case EtdumpValueType::Double:
        return pythonFloatRepr(v.doubleValue);
    case EtdumpValueType::String:
        return pyString(v.stringValue);
    case EtdumpValueType::Null:
        break;
    }
    return "None";
}
} // namespace etdump

std::string pythonFloatRepr(double value)
{
    if (std::isnan(value))
        return "nan";
    if (std::isinf(value))
        return value > 0 ? "inf" : "-inf";
    if (value == 0)
        return std::signbit(value) ? "-0.0" : "0.0";
    // Shortest round-trip digits and the decimal exponent, then Python's layout rule.
    char buf[64];
    const auto r = std::to_chars(buf, buf + sizeof buf, value, std::chars_format::scientific);
    std::string sci(buf, r.ptr);
    std::string sign;
    if (sci.front() == '-') {
        sign = "-";
        sci.erase(0, 1);
    }
    const auto e = sci.find('e');
    std::string digits = sci.substr(0, e);
    digits.erase(std::remove(digits.begin(), digits.end(), '.'), digits.end());
    const int exp = std::stoi(sci.substr(e + 1));
    if (exp < -4 || exp >= 16) {
        std::string mant = digits.substr(0, 1);
        if (digits.size() > 1)
            mant += "." + digits.substr(1);
        const int ax = std::abs(exp);
        return sign + mant + "e" + (exp < 0 ? "-" : "+") + (ax < 10 ? "0" : "") + std::to_string(ax);
    }
    std::string out;
    if (exp < 0) {
        out = "0." + std::string(std::size_t(-exp - 1), '0') + digits;
    } else if (std::size_t(exp) + 1 >= digits.size()) {
        out = digits + std::string(std::size_t(exp) + 1 - digits.size(), '0') + ".0";
    } else {
        out = digits.substr(0, std::size_t(exp) + 1) + "." + digits.substr(std::size_t(exp) + 1);
    }
    return sign + out;
}
} // namespace pte
