// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include "pte/bundledprogram.h"
#include "pte/etdump.h"
#include "pte/result.h"

#include <cstddef>
#include <span>
#include <vector>

/**
 * @file
 * The numbers of logged tensors and how far they are from expected values: statistics for display, and the gap
 * metrics ExecuTorch's Inspector reports (calculate_numeric_gap), computed in float64 after NaN -> 0:
 *  - MSE = mean((a - b)^2)
 *  - L1 = sum(|a - b|) (a sum, not a mean)
 *  - SNR = 10 * log10(mean(a^2) / mean((a - b)^2)) in dB, +inf when the values are identical
 * where a is the expected (reference) value and b the runtime's.
 */

namespace pte {

/** Summary of a tensor's elements. */
struct TensorStats
{
    std::size_t count = 0;
    std::size_t nanCount = 0;
    std::size_t infCount = 0;
    double min = 0; ///< over finite elements (0 when none)
    double max = 0;
    double mean = 0; ///< over finite elements
    std::vector<double> first; ///< the first elements in logical order
};

/** How far logged values are from expected ones, as ExecuTorch's Inspector measures it (numericGap). */
struct GapMetrics
{
    double mse = 0;
    double l1 = 0;
    double snr = 0; ///< dB; +inf for identical values
    std::size_t count = 0;
};

/** Statistics of `values`, keeping the first `firstCount` of them. */
[[nodiscard]] TensorStats tensorStats(std::span<const double> values, std::size_t firstCount = 8);

/** @returns InvalidInput when the two have different element counts. */
[[nodiscard]] Result<GapMetrics> numericGap(std::span<const double> expected, std::span<const double> actual);

/**
 * A logged tensor's elements in logical (row-major) order, following its strides, from the debug buffer.
 * @returns OutOfRange without a debug buffer or when the bytes lie outside it; Unsupported for dtypes without a
 *   plain numeric reading, or more than `maxElements` elements.
 */
[[nodiscard]] Result<std::vector<double>> loggedTensorValues(
    const EtDump& dump, const EtdumpTensor& tensor, std::size_t maxElements = std::size_t(1) << 26);

} // namespace pte
