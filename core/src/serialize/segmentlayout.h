// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include "base/alignment.h"
#include "pte/program.h"
#include "pte/result.h"

#include <cstdint>
#include <vector>

namespace pte {

namespace serialize {

/**
 * Lays segments out back to back as EXIR does: segment i starts at round_up(end of segment i-1,
 * lcm(segmentAlignment, its own alignment)); sizes come from the data. Returns the segment data size
 * (end of the last segment, relative to the segment base). Fails when a declared size disagrees with
 * the data.
 */
[[nodiscard]] Result<std::uint64_t> layoutSegments(std::vector<DataSegment>& segments, std::uint64_t segmentAlignment);

} // namespace serialize
} // namespace pte
