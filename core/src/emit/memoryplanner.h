// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <cstdint>
#include <vector>

namespace pte::emitcore {

/** One tensor to place: its size in bytes and its lifetime (inclusive, in steps). */
struct PlanRequest
{
    std::uint64_t size = 0;
    std::int64_t first = 0;
    std::int64_t last = 0;
};

struct PlanResult
{
    std::vector<std::uint64_t> offsets; ///< per request
    std::uint64_t totalSize = 0;
};

/**
 * The greedy planner of ExecuTorch's default MemoryPlanningPass: requests sorted by aligned size, largest
 * first (ties: later requests first); each goes into the first shared object whose lifetime does not
 * overlap (offset 0), or above the overlapping allocations of a shared object it still fits in, or into a
 * new shared object. Shared objects are laid out back to back. Sizes are rounded up to `alignment`.
 */
[[nodiscard]] PlanResult planGreedy(const std::vector<PlanRequest>& requests, std::uint64_t alignment = 16);

struct LoweredMethod;

/**
 * The memory-planning pass between lowering and emission: every planned tensor with a lifetime (not symbolic, not
 * constant, not a view) is placed by planGreedy in value order; views take their base's offset. Sets LValue::offset
 * and LValue::planned. @returns the size of the planned memory (memory id 1) in bytes. No errors.
 */
std::uint64_t planMethodMemory(LoweredMethod& method, std::uint64_t alignment);

} // namespace pte::emitcore
