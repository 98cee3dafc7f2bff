// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "base/float16.h"

#include <cmath>
#include <cstring>

namespace pte::base {

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

} // namespace

float halfToFloat(std::uint16_t h) noexcept
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

std::uint16_t floatToHalf(float f) noexcept
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

float bfloat16ToFloat(std::uint16_t b) noexcept { return floatFromBits(std::uint32_t(b) << 16); }

std::uint16_t floatToBFloat16(float f) noexcept
{
    const std::uint32_t x = bitsOf(f);
    if ((x & 0x7fffffffu) > 0x7f800000u)
        return std::uint16_t((x >> 16) | 0x40u); // quiet NaN
    const std::uint32_t rounding = 0x7fffu + ((x >> 16) & 1u);
    return std::uint16_t((x + rounding) >> 16);
}

} // namespace pte::base
