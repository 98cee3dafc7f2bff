// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

// The small builders of hand-made pte::Program pieces the tests share (header-only, pte/program.h alone): a float
// tensor, an EValue and an Instruction of any kind, each with the raw type byte the reader would have read.
// ptefbbuilder.h (the .pte encoder of the reader's tests) and plantestutils.h (execution plans) build on them.

#include "pte/program.h"

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

namespace pte::test {

/** A float tensor of `sizes` in the default dim order: planned at `alloc` when given, its data in constant buffer
 *  (or mutable entry) `dataBufferIdx` when that is not 0. */
inline Tensor makeTensor(
    std::vector<std::int32_t> sizes, std::optional<AllocationDetails> alloc = {}, std::uint32_t dataBufferIdx = 0)
{
    Tensor t;
    t.scalarType = ScalarType::Float;
    t.dimOrder.resize(sizes.size());
    for (std::size_t i = 0; i < sizes.size(); ++i)
        t.dimOrder[i] = std::uint8_t(i);
    t.sizes = std::move(sizes);
    t.allocationInfo = alloc;
    t.dataBufferIdx = dataBufferIdx;
    return t;
}

/** An EValue holding `v`, its raw type the kind of `v`. */
inline EValue ev(KernelValue v)
{
    EValue e;
    e.rawType = std::uint8_t(v.index());
    e.val = std::move(v);
    return e;
}

/** An Instruction with arguments `a`, its raw type the kind of `a`. */
inline Instruction instr(InstructionArgs a)
{
    Instruction i;
    i.rawType = std::uint8_t(a.index());
    i.args = std::move(a);
    return i;
}

} // namespace pte::test
