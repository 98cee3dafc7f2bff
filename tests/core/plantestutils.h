// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

// Hand-built ExecutionPlans for the tests of what core computes over a method's instructions (lifetimes, data flow),
// on the shared builders of programbuilders.h (ev, instr, makeTensor).

#include "programbuilders.h"
#include "pte/program.h"

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

namespace pte::test {

/** A float tensor of `sizes` (makeTensor); planned at (memoryId, offset) when `at` is given, else unplanned (an
 *  input or output the caller provides), or constant when `constant` names its buffer. */
inline EValue plannedTensor(std::vector<std::int32_t> sizes, std::optional<std::pair<std::uint32_t, std::uint64_t>> at,
    std::uint32_t constant = 0)
{
    std::optional<AllocationDetails> alloc;
    if (at)
        alloc = AllocationDetails { at->first, std::uint32_t(at->second), std::uint32_t(at->second >> 32) };
    return ev(makeTensor(std::move(sizes), alloc, constant));
}

inline Instruction kernelCall(std::int32_t op, std::vector<std::int32_t> args)
{
    return instr(KernelCall { op, std::move(args) });
}

inline Instruction delegateCall(std::int32_t delegate, std::vector<std::int32_t> args)
{
    return instr(DelegateCall { delegate, std::move(args) });
}

} // namespace pte::test
