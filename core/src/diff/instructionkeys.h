// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include "diff/methodview.h"

#include <cstdint>
#include <vector>

namespace pte::diff {

/** The alignment keys of every instruction of a method, independent of value, operator and delegate numbering. */
struct InstructionKeys
{
    /** Kind, operator (or delegate backend), argument count, and per argument its kind, dtype and sizes. */
    std::vector<std::uint64_t> primary;
    /** Kind and operator (or backend) only: what makes two rows "the same instruction, changed". */
    std::vector<std::uint64_t> similar;
    /** primary plus the instruction's debug handles; empty when the side has no debug handle map. */
    std::vector<std::uint64_t> withHandles;
};

/** Computes the keys (one pass over the instructions; value descriptors are computed once per value). */
[[nodiscard]] InstructionKeys instructionKeys(const MethodView& view);

} // namespace pte::diff
