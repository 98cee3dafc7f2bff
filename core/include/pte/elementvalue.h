// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include "pte/program.h"

#include <cstdint>
#include <optional>

/**
 * @file
 * The one reading of a tensor element as a number: the bytes of one element of a dtype (little-endian, as .pte,
 * .pt2 and ETDump store them) to a double. Every place that reads tensor data as numbers uses it: graph-dump weights
 * and logged ETDump tensors (pte::tensorElements), the reference interpreter's tensors, the element-wise difference of
 * two constants in a program diff.
 */

namespace pte {

/** What elementValue makes of the dtypes whose bytes are not plainly the number they stand for. */
enum class ElementReading : std::uint8_t
{
    /** The number as stored: a Bool as its byte (0 or 1 in a well-formed tensor, any other byte as itself), a
     *  quantized element (QInt8, QUInt8, QInt32) as its integer, without scale or zero point. */
    Stored,
    /** The number the element stands for: a Bool as 0 or 1 (any non-zero byte is true); quantized dtypes, whose
     *  number needs a scale and a zero point the tensor does not carry, have none. */
    Meaning,
};

/**
 * The element of dtype `t` whose elementSize(t) bytes start at `p`, as a double: the integer dtypes exactly (UInt64
 * and Long beyond 2^53 rounded to the nearest double), Half and BFloat16 widened exactly (infinities and NaN kept),
 * Float and Double as they are; Bool and the quantized dtypes as `reading` says. nullopt for the dtypes without a
 * plain numeric reading: complex, float8, the bit-packed and sub-byte types, codes outside 0..29.
 */
[[nodiscard]] std::optional<double> elementValue(
    ScalarType t, const std::uint8_t* p, ElementReading reading = ElementReading::Stored) noexcept;

} // namespace pte
