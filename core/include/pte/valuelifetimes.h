// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include "pte/program.h"

#include <cstdint>
#include <vector>

/**
 * @file
 * The lifetime of each value of a serialized method (an ExecutionPlan, as read from a .pte): the span of
 * instructions of its first chain that reference it. This is what the program itself shows; the emitter's lifetimes
 * (core/src/emit/lifetimes.cpp) are a different computation on the lowered graph before serialization (labels, views
 * sharing their base, loops, mutable buffers), which the serialized plan no longer holds.
 */

namespace pte {

/** The instructions (ids in chain 0) between which a value is in use. */
struct ValueLifetime
{
    std::int32_t first = -1; ///< the first instruction referencing the value (0 for a method input); -1: none
    std::int32_t last = -1; ///< the last one (the last instruction for a method output); -1: none
    /** Whether any instruction, input or output references the value. */
    [[nodiscard]] bool used() const noexcept { return first >= 0; }
};

/**
 * The lifetime of every value of `plan`, indexed by value index (one entry per `plan.values`). An instruction
 * references the values it names: a KernelCall's or DelegateCall's arguments, a MoveCall's source and destination, a
 * JumpFalseCall's condition, a FreeCall's value; an argument that is a TensorList references its items too. Method
 * inputs live from instruction 0, method outputs to the last instruction (0 when the chain is empty). Only the first
 * chain is read (the runtime runs one); out-of-range value indices are ignored.
 */
[[nodiscard]] std::vector<ValueLifetime> valueLifetimes(const ExecutionPlan& plan);

} // namespace pte
