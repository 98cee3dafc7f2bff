// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "flatcjson.h"

#include "pte/bytes.h"

#include <cmath>
#include <cstring>

namespace pte::test {

using Json = nlohmann::json;

std::string quoteBareNonFinite(const std::string& text)
{
    std::string out;
    out.reserve(text.size());
    bool inString = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (inString) {
            out.push_back(c);
            if (c == '\\' && i + 1 < text.size())
                out.push_back(text[++i]);
            else if (c == '"')
                inString = false;
            continue;
        }
        if (c == '"') {
            inString = true;
            out.push_back(c);
            continue;
        }
        bool replaced = false;
        for (const char* tok : { "-inf", "+inf", "inf", "-nan", "nan" }) {
            const std::size_t n = std::strlen(tok);
            if (text.compare(i, n, tok) == 0) {
                const std::string t = tok[0] == '+' ? std::string(tok + 1) : std::string(tok);
                out += "\"" + (t == "-nan" ? std::string("nan") : t) + "\"";
                i += n - 1;
                replaced = true;
                break;
            }
        }
        if (!replaced)
            out.push_back(c);
    }
    return out;
}

namespace {
std::string sha256OfArray(const Json& arr)
{
    std::vector<std::uint8_t> bytes;
    bytes.reserve(arr.size());
    for (const auto& b : arr)
        bytes.push_back(std::uint8_t(b.get<int>()));
    return sha256Hex(bytes);
}
} // namespace

std::string compareWithFlatc(const Json& ref, const Json& ours, const std::string& path)
{
    if (ref.is_object()) {
        if (!ours.is_object())
            return path + ": expected an object";
        for (auto it = ref.begin(); it != ref.end(); ++it)
            if (!ours.contains(it.key()))
                return path + "." + it.key() + ": missing";
        for (auto it = ours.begin(); it != ours.end(); ++it)
            if (!ref.contains(it.key()))
                return path + "." + it.key() + ": not in flatc's output";
        for (auto it = ref.begin(); it != ref.end(); ++it) {
            const std::string d = compareWithFlatc(it.value(), ours[it.key()], path + "." + it.key());
            if (!d.empty())
                return d;
        }
        return {};
    }
    if (ref.is_array()) {
        // Summarized byte payloads: {"size", "sha256"} stands for the reference byte array.
        if (ours.is_object() && ours.contains("sha256")) {
            if (ours["size"].get<std::size_t>() != ref.size())
                return path + ": size " + ours["size"].dump() + " != " + std::to_string(ref.size());
            if (ours["sha256"].get<std::string>() != sha256OfArray(ref))
                return path + ": sha256 differs";
            return {};
        }
        if (!ours.is_array() || ours.size() != ref.size())
            return path + ": array length differs";
        for (std::size_t i = 0; i < ref.size(); ++i) {
            const std::string d = compareWithFlatc(ref[i], ours[i], path + "[" + std::to_string(i) + "]");
            if (!d.empty())
                return d;
        }
        return {};
    }
    if (ref.is_number_float() || ours.is_number_float()) {
        if (!ours.is_number())
            return path + ": expected a number";
        // flatc prints doubles rounded to 12 decimals.
        const double a = ref.get<double>();
        const double b = ours.get<double>();
        if (std::fabs(a - b) > 1e-11 + 1e-11 * std::fabs(a))
            return path + ": " + ref.dump() + " != " + ours.dump();
        return {};
    }
    if (ref.is_number() && ours.is_number()) {
        const bool equal = ref.is_number_unsigned() || ours.is_number_unsigned()
            ? (ref.get<std::int64_t>() >= 0 && ref.get<std::uint64_t>() == ours.get<std::uint64_t>())
            : ref.get<std::int64_t>() == ours.get<std::int64_t>();
        return equal ? std::string() : path + ": " + ref.dump() + " != " + ours.dump();
    }
    return ref == ours ? std::string() : path + ": " + ref.dump() + " != " + ours.dump();
}

} // namespace pte::test
