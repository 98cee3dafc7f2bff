// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include "pte/program.h"
#include "pte/result.h"

#include <cstdint>
#include <vector>

namespace pte {

/** Rounds `value` up to a multiple of `alignment` (> 0). */
[[nodiscard]] constexpr std::uint64_t roundUp(std::uint64_t value, std::uint64_t alignment) noexcept
{
    return (value + alignment - 1) / alignment * alignment;
}

namespace detail {

/**
 * Lays segments out back to back as EXIR does: segment i starts at round_up(end of segment i-1,
 * lcm(segmentAlignment, its own alignment)); sizes come from the data. Returns the segment data size
 * (end of the last segment, relative to the segment base). Fails when a declared size disagrees with
 * the data.
 */
[[nodiscard]] Result<std::uint64_t> layoutSegments(std::vector<DataSegment>& segments, std::uint64_t segmentAlignment);

} // namespace detail
} // namespace pte
