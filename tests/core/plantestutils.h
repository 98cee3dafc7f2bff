// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

// Hand-built ExecutionPlans for the tests of what core computes over a method's instructions (lifetimes, data flow).

#include "pte/program.h"

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

namespace pte::test {

/** A float tensor of `sizes`; planned at (memoryId, offset) when `at` is given, else unplanned (an input or
 *  output the caller provides), or constant when `constant` names its buffer. */
inline EValue plannedTensor(std::vector<std::int32_t> sizes, std::optional<std::pair<std::uint32_t, std::uint64_t>> at,
    std::uint32_t constant = 0)
{
    Tensor t;
    t.scalarType = ScalarType::Float;
    t.sizes = std::move(sizes);
    for (std::size_t i = 0; i < t.sizes.size(); ++i)
        t.dimOrder.push_back(std::uint8_t(i));
    t.dataBufferIdx = constant;
    if (at)
        t.allocationInfo = AllocationDetails { at->first, std::uint32_t(at->second), std::uint32_t(at->second >> 32) };
    EValue v;
    v.val = std::move(t);
    v.rawType = std::uint8_t(ValueKind::Tensor);
    return v;
}

inline EValue intEValue(std::int64_t i)
{
    EValue v;
    v.val = Int { i };
    v.rawType = std::uint8_t(ValueKind::Int);
    return v;
}

inline EValue tensorListEValue(std::vector<std::int32_t> items)
{
    EValue v;
    v.val = TensorList { std::move(items) };
    v.rawType = std::uint8_t(ValueKind::TensorList);
    return v;
}

inline Instruction instruction(InstructionArgs args)
{
    Instruction i;
    i.rawType = std::uint8_t(args.index());
    i.args = std::move(args);
    return i;
}

inline Instruction kernelCall(std::int32_t op, std::vector<std::int32_t> args)
{
    return instruction(KernelCall { op, std::move(args) });
}

inline Instruction delegateCall(std::int32_t delegate, std::vector<std::int32_t> args)
{
    return instruction(DelegateCall { delegate, std::move(args) });
}

} // namespace pte::test
