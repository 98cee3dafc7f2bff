// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include "document/snapshot.h"
#include "models/graphbuilder.h"

#include <optional>

namespace pte::ui {

struct DelegateInspection;

/**
 * The diagram of one delegate's inner graph (the Graph view's drill-down): the payload's graph inputs and constant
 * tensors as input/constant nodes, each inner node as an operator node (kind, index and handles; members = the
 * source-graph node names its handles resolve to, so a selection made elsewhere finds it), the graph outputs, and
 * edges through value ids. Backend-inserted nodes and nodes with absorbed handles say so in their subtitle and
 * details. Payloads without a graph (summaries) give an empty diagram. `delegate` indexes inspection.delegates.
 */
[[nodiscard]] GraphData buildDelegateGraph(const DelegateInspection& inspection, int delegate);

/**
 * The delegate a diagram node stands for, as an index into snapshot.delegates->delegates: a delegate-call
 * instruction (instruction graphs), or the executorch_call_delegate node of a dump that an emitted DelegateCall
 * came from (matched by the names of its lowered module's nodes, or by its own name without an original program).
 * nullopt when the node is no delegate call or its delegate is unknown.
 */
[[nodiscard]] std::optional<int> delegateOfNode(const Snapshot& snapshot, const QString& method, const GraphNode& node);

} // namespace pte::ui
