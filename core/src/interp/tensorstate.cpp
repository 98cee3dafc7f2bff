// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "interp/tensorstate.h"

#include <cmath>

namespace pte::interp {

namespace {

float floatFromBits(std::uint32_t bits)
{
    float f;
    std::memcpy(&f, &bits, 4);
    return f;
}

std::uint32_t bitsOf(float f)
{
    std::uint32_t x;
    std::memcpy(&x, &f, 4);
    return x;
}

template <typename T> double loadAs(const std::uint8_t* p)
{
    T v;
    std::memcpy(&v, p, sizeof v);
    return double(v);
}

template <typename T> void storeAs(std::uint8_t* p, T v) { std::memcpy(p, &v, sizeof v); }

} // namespace

/** IEEE half <-> float (round to nearest even), as c10::Half converts. */
float halfToFloat(std::uint16_t h)
{
    const std::uint32_t sign = std::uint32_t(h & 0x8000u) << 16;
    std::uint32_t exp = (h >> 10) & 0x1fu;
    std::uint32_t mant = h & 0x3ffu;
    std::uint32_t bits = 0;
    if (exp == 0x1f) {
        bits = sign | 0x7f800000u | (mant << 13);
    } else if (exp == 0) {
        if (mant == 0) {
            bits = sign;
        } else { // subnormal: normalise
            exp = 127 - 15 + 1;
            while (!(mant & 0x400u)) {
                mant <<= 1;
                --exp;
            }
            bits = sign | (exp << 23) | ((mant & 0x3ffu) << 13);
        }
    } else {
        bits = sign | ((exp + 127 - 15) << 23) | (mant << 13);
    }
    return floatFromBits(bits);
}

std::uint16_t floatToHalf(float f)
{
    const std::uint32_t x = bitsOf(f);
    const std::uint16_t sign = std::uint16_t((x >> 16) & 0x8000u);
    const std::uint32_t absx = x & 0x7fffffffu;
    if (absx >= 0x7f800000u) // inf or nan
        return std::uint16_t(sign | 0x7c00u | (absx > 0x7f800000u ? 0x200u : 0));
    if (absx >= 0x477ff000u) // rounds to >= 65520: infinity
        return std::uint16_t(sign | 0x7c00u);
    if (absx < 0x38800000u) { // subnormal or zero in half
        const float scaled = std::fabs(f) * 16777216.0f; // 2^24: one half subnormal step is 2^-24
        return std::uint16_t(sign | std::uint16_t(std::nearbyint(scaled)));
    }
    const std::uint32_t mant = absx & 0x7fffffu;
    std::uint32_t h = ((absx >> 23) - 127 + 15) << 10 | (mant >> 13);
    const std::uint32_t rest = mant & 0x1fffu;
    if (rest > 0x1000u || (rest == 0x1000u && (h & 1u)))
        ++h;
    return std::uint16_t(sign | h);
}

float bfloat16ToFloat(std::uint16_t b) { return floatFromBits(std::uint32_t(b) << 16); }

std::uint16_t floatToBFloat16(float f)
{
    const std::uint32_t x = bitsOf(f);
    if ((x & 0x7fffffffu) > 0x7f800000u)
        return std::uint16_t((x >> 16) | 0x40u); // quiet NaN
    const std::uint32_t rounding = 0x7fffu + ((x >> 16) & 1u);
    return std::uint16_t((x + rounding) >> 16);
}

double TensorState::get(std::size_t i) const
{
    const std::uint8_t* p = data + physical(i) * elementSize(dtype);
    switch (dtype) {
    case ScalarType::Float:
        return loadAs<float>(p);
    case ScalarType::Double:
        return loadAs<double>(p);
    case ScalarType::Long:
        return loadAs<std::int64_t>(p);
    case ScalarType::Int:
        return loadAs<std::int32_t>(p);
    case ScalarType::Bool:
    case ScalarType::Byte:
        return loadAs<std::uint8_t>(p);
    case ScalarType::Char:
        return loadAs<std::int8_t>(p);
    case ScalarType::Short:
        return loadAs<std::int16_t>(p);
    case ScalarType::Half:
        return halfToFloat(std::uint16_t(loadAs<std::uint16_t>(p)));
    case ScalarType::BFloat16:
        return bfloat16ToFloat(std::uint16_t(loadAs<std::uint16_t>(p)));
    default:
        return std::nan("");
    }
}

void TensorState::set(std::size_t i, double v)
{
    std::uint8_t* p = data + physical(i) * elementSize(dtype);
    switch (dtype) {
    case ScalarType::Float:
        storeAs(p, float(v));
        break;
    case ScalarType::Double:
        storeAs(p, v);
        break;
    case ScalarType::Long:
        storeAs(p, std::int64_t(v));
        break;
    case ScalarType::Int:
        storeAs(p, std::int32_t(v));
        break;
    case ScalarType::Bool:
        storeAs(p, std::uint8_t(v != 0 ? 1 : 0));
        break;
    case ScalarType::Byte:
        storeAs(p, std::uint8_t(v));
        break;
    case ScalarType::Char:
        storeAs(p, std::int8_t(v));
        break;
    case ScalarType::Short:
        storeAs(p, std::int16_t(v));
        break;
    case ScalarType::Half:
        storeAs(p, floatToHalf(float(v)));
        break;
    case ScalarType::BFloat16:
        storeAs(p, floatToBFloat16(float(v)));
        break;
    default:
        break;
    }
}

bool supportedDtype(ScalarType t)
{
    switch (t) {
    case ScalarType::Float:
    case ScalarType::Double:
    case ScalarType::Long:
    case ScalarType::Int:
    case ScalarType::Bool:
    case ScalarType::Byte:
    case ScalarType::Char:
    case ScalarType::Short:
    case ScalarType::Half:
    case ScalarType::BFloat16:
        return true;
    default:
        return false;
    }
}

} // namespace pte::interp
