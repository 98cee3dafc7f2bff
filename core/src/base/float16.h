// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

// The 16-bit floating-point element types (ScalarType::Half, ScalarType::BFloat16) to and from float: the one
// conversion core uses wherever it reads or writes such elements (private to core).

#include <cstdint>

namespace pte::base {

/** IEEE binary16 to float, exact: subnormals normalised, infinities kept, NaN stays NaN (as c10::Half converts). */
[[nodiscard]] float halfToFloat(std::uint16_t h) noexcept;
/** float to IEEE binary16, rounding to nearest even; beyond the largest half, infinity; NaN stays a quiet NaN. */
[[nodiscard]] std::uint16_t floatToHalf(float f) noexcept;
/** bfloat16 to float, exact (bfloat16 is the upper half of a float). */
[[nodiscard]] float bfloat16ToFloat(std::uint16_t b) noexcept;
/** float to bfloat16, rounding to nearest even; NaN stays a quiet NaN. */
[[nodiscard]] std::uint16_t floatToBFloat16(float f) noexcept;

} // namespace pte::base
