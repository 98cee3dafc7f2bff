// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include "pte/program.h"
#include "pte/result.h"

#include <cstdint>

/**
 * @file
 * Synthetic program pairs for the diff benchmark and tests (pte_synth): a layered program and an edited variant of
 * a makeSyntheticProgram() program (pte/syntheticprogram.h).
 */

namespace pte {

/**
 * A synthetic program shaped like a stack of identical layers (the `diff` benchmark's first program): the constant
 * data of makeSyntheticProgram and `instructions` kernel calls in layers of `layerLength` (>= 4); the
 * instruction at position p of a layer is aten::add/mul/sub/div.out (p % 4) over f32[16 + p] tensors, so the sequence
 * repeats with period `layerLength` as a transformer's does. Planned memory only; not meant to be executed.
 * @returns InvalidInput for fewer than 1 instruction, a layer shorter than 4 or longer than 4096.
 */
[[nodiscard]] Result<Program> makeSyntheticLayers(
    std::uint64_t instructions, std::uint32_t layerLength, std::uint64_t constantBytes);

/** A synthetic program with deliberate edits, and how many of each (the `diff` benchmark's second program). */
struct SyntheticVariant
{
    Program program;
    std::uint64_t changed = 0; ///< instructions whose alpha argument now reads a new Int value 2
    std::uint64_t inserted = 0; ///< copies of an instruction inserted after it
    std::uint64_t removed = 0; ///< instructions removed
};

/**
 * A copy of a program made by makeSyntheticProgram (same segments, not copied) in which one
 * aten::add.out in every `every` instructions of each method is edited, in turn: its alpha changed, a copy inserted
 * after it, or removed.
 * @returns InvalidInput when `every` < 4 or a method is not shaped like a synthetic one.
 */
[[nodiscard]] Result<SyntheticVariant> makeSyntheticVariant(const Program& base, std::uint64_t every);

} // namespace pte
