// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

// Private to the Inspector table: statistics over a row's durations as numpy computes them.

#include <vector>

namespace pte::etdump {

/** numpy.percentile with linear interpolation of samples already sorted, without NaN. */
[[nodiscard]] double sortedPercentile(const std::vector<double>& samples, double q);

} // namespace pte::etdump
