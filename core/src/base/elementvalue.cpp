// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "pte/elementvalue.h"

#include "base/float16.h"

#include <cstring>

namespace pte {

namespace {

template <typename T> double load(const std::uint8_t* p) noexcept
{
    T v;
    std::memcpy(&v, p, sizeof v);
    return double(v);
}

std::uint16_t load16(const std::uint8_t* p) noexcept
{
    std::uint16_t v;
    std::memcpy(&v, p, sizeof v);
    return v;
}

} // namespace

std::optional<double> elementValue(ScalarType t, const std::uint8_t* p, ElementReading reading) noexcept
{
    const bool stored = reading == ElementReading::Stored;
    switch (t) {
    case ScalarType::Byte:
        return load<std::uint8_t>(p);
    case ScalarType::Char:
        return load<std::int8_t>(p);
    case ScalarType::Short:
        return load<std::int16_t>(p);
    case ScalarType::Int:
        return load<std::int32_t>(p);
    case ScalarType::Long:
        return load<std::int64_t>(p);
    case ScalarType::UInt16:
        return load<std::uint16_t>(p);
    case ScalarType::UInt32:
        return load<std::uint32_t>(p);
    case ScalarType::UInt64:
        return load<std::uint64_t>(p);
    case ScalarType::Half:
        return double(base::halfToFloat(load16(p)));
    case ScalarType::BFloat16:
        return double(base::bfloat16ToFloat(load16(p)));
    case ScalarType::Float:
        return load<float>(p);
    case ScalarType::Double:
        return load<double>(p);
    case ScalarType::Bool:
        return stored ? load<std::uint8_t>(p) : (*p ? 1.0 : 0.0);
    case ScalarType::QUInt8:
        return stored ? std::optional(load<std::uint8_t>(p)) : std::nullopt;
    case ScalarType::QInt8:
        return stored ? std::optional(load<std::int8_t>(p)) : std::nullopt;
    case ScalarType::QInt32:
        return stored ? std::optional(load<std::int32_t>(p)) : std::nullopt;
    default:
        return std::nullopt;
    }
}

} // namespace pte
