// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "pte/bytetext.h"

#include "base/littleendian.h"

#include <algorithm>
#include <array>
#include <optional>

namespace pte {

namespace {

/** The length of the UTF-8 sequence starting at `i`, or nullopt when it is not a valid, shortest-form sequence. */
std::optional<std::size_t> utf8SequenceLength(std::span<const std::uint8_t> b, std::size_t i) noexcept
{
    const std::uint8_t c = b[i];
    std::size_t n = 0;
    std::uint32_t min = 0;
    std::uint32_t cp = 0;
    if (c < 0x80)
        return 1;
    if ((c & 0xe0) == 0xc0) {
        n = 2;
        min = 0x80;
        cp = c & 0x1f;
    } else if ((c & 0xf0) == 0xe0) {
        n = 3;
        min = 0x800;
        cp = c & 0x0f;
    } else if ((c & 0xf8) == 0xf0) {
        n = 4;
        min = 0x10000;
        cp = c & 0x07;
    } else {
        return std::nullopt;
    }
    if (i + n > b.size())
        return std::nullopt;
    for (std::size_t k = 1; k < n; ++k) {
        if ((b[i + k] & 0xc0) != 0x80)
            return std::nullopt;
        cp = (cp << 6) | (b[i + k] & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
        return std::nullopt;
    return n;
}

enum class SpecType
{
    Int32,
    Int32List,
    Bool,
};

struct KnownSpec
{
    std::string_view key;
    SpecType type;
};

// Keys the backends' preprocess functions write with a fixed encoding (struct.pack("<i") / bytes([b])).
constexpr std::array kKnownSpecs {
    KnownSpec { "num_threads", SpecType::Int32 },
    KnownSpec { "storage_type_override", SpecType::Int32 },
    KnownSpec { "memory_layout_override", SpecType::Int32 },
    KnownSpec { "texture_limits", SpecType::Int32List },
    KnownSpec { "skip_tag_memory_metadata", SpecType::Bool },
    KnownSpec { "use_fp16", SpecType::Bool },
    KnownSpec { "use_bf16", SpecType::Bool },
    KnownSpec { "force_fp32", SpecType::Bool },
};

std::optional<std::string> knownSpecText(std::string_view key, std::span<const std::uint8_t> value)
{
    for (const auto& known : kKnownSpecs) {
        if (known.key != key)
            continue;
        switch (known.type) {
        case SpecType::Int32:
            if (value.size() == 4)
                return std::to_string(std::int32_t(base::loadU32(value.data())));
            break;
        case SpecType::Int32List:
            if (!value.empty() && value.size() % 4 == 0) {
                std::string s = "[";
                for (std::size_t i = 0; i < value.size(); i += 4)
                    s += (i ? ", " : "") + std::to_string(std::int32_t(base::loadU32(value.data() + i)));
                return s + "]";
            }
            break;
        case SpecType::Bool:
            if (value.size() == 1 && value[0] <= 1)
                return std::string(value[0] ? "true" : "false");
            break;
        }
    }
    return std::nullopt;
}

} // namespace

bool isPrintableText(std::span<const std::uint8_t> bytes) noexcept
{
    if (bytes.empty())
        return false;
    for (std::size_t i = 0; i < bytes.size();) {
        const std::uint8_t c = bytes[i];
        if ((c < 0x20 && c != '\t' && c != '\n' && c != '\r') || c == 0x7f)
            return false;
        const auto n = utf8SequenceLength(bytes, i);
        if (!n)
            return false;
        i += *n;
    }
    return true;
}

std::string printableOrHex(std::span<const std::uint8_t> bytes, std::size_t maxBytes)
{
    std::size_t shown = std::min(bytes.size(), maxBytes);
    std::string out;
    if (isPrintableText(bytes)) {
        while (shown < bytes.size() && shown > 0 && (bytes[shown] & 0xc0) == 0x80)
            --shown; // do not cut a character in two
        out.assign(reinterpret_cast<const char*>(bytes.data()), shown);
    } else {
        static constexpr char kHex[] = "0123456789abcdef";
        out.reserve(shown * 3);
        for (std::size_t i = 0; i < shown; ++i) {
            if (i)
                out += ' ';
            out += kHex[bytes[i] >> 4];
            out += kHex[bytes[i] & 15];
        }
    }
    if (bytes.size() > shown)
        out += " ... (" + std::to_string(bytes.size()) + " bytes)";
    return out;
}

std::string compileSpecText(std::string_view key, std::span<const std::uint8_t> value, std::size_t maxBytes)
{
    if (value.empty())
        return "(empty)";
    if (auto known = knownSpecText(key, value))
        return std::move(*known);
    return printableOrHex(value, maxBytes);
}

} // namespace pte
