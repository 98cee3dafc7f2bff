// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "models/compilespec.h"

#include "models/text.h"

#include <QStringList>

#include <array>
#include <cstdint>

namespace pte::ui {

namespace {
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
constexpr std::array kKnown {
    KnownSpec { "num_threads", SpecType::Int32 },
    KnownSpec { "storage_type_override", SpecType::Int32 },
    KnownSpec { "memory_layout_override", SpecType::Int32 },
    KnownSpec { "texture_limits", SpecType::Int32List },
    KnownSpec { "skip_tag_memory_metadata", SpecType::Bool },
    KnownSpec { "use_fp16", SpecType::Bool },
    KnownSpec { "use_bf16", SpecType::Bool },
    KnownSpec { "force_fp32", SpecType::Bool },
};

std::int32_t int32At(std::string_view bytes, std::size_t offset)
{
    std::uint32_t v = 0;
    for (std::size_t i = 0; i < 4; ++i)
        v |= std::uint32_t(static_cast<unsigned char>(bytes[offset + i])) << (8 * i);
    return std::int32_t(v);
}
} // namespace

QString compileSpecText(std::string_view key, std::string_view value, std::size_t maxBytes)
{
    for (const auto& known : kKnown) {
        if (known.key != key)
            continue;
        switch (known.type) {
        case SpecType::Int32:
            if (value.size() == 4)
                return QString::number(int32At(value, 0));
            break;
        case SpecType::Int32List:
            if (!value.empty() && value.size() % 4 == 0) {
                QStringList parts;
                for (std::size_t i = 0; i < value.size(); i += 4)
                    parts << QString::number(int32At(value, i));
                return QLatin1Char('[') + parts.join(QStringLiteral(", ")) + QLatin1Char(']');
            }
            break;
        case SpecType::Bool:
            if (value.size() == 1 && static_cast<unsigned char>(value[0]) <= 1)
                return value[0] ? QStringLiteral("true") : QStringLiteral("false");
            break;
        }
    }
    return printableOrHex(value, maxBytes);
}

} // namespace pte::ui
