// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include "pte/graph.h"

#include <memory>

namespace pte::test {

/**
 * A generated dump graph for large-graph tests and benchmarks: x -> n0 -> n1 -> ... -> n(nodes-1) -> output, where
 * node i is aten.add.Tensor(n(i-1), x) with debug handle i + 1 and an nn_module_stack that puts it in
 * layers.(i / (nodes / blocks)).
 */
std::shared_ptr<ExportedProgram> makeChainDump(int nodes, int blocks);

} // namespace pte::test
