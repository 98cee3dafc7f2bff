// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include "pte/delegatepayload.h"
#include "pte/graph.h"

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

/**
 * @file
 * Ties a delegate's inner nodes back to the source graph through debug handles (docs/delegate-payloads.md, XNNPACK
 * debug handles; Joining with ETRecord and ETDump): an inner node's handle names the edge-graph nodes that carry the
 * same `debug_handle` (an ETRecord's edge program, or the dump ptelens emitted from). Handles of the partition that no
 * inner node carries were fused away by the backend and are shown as absorbed into a neighbour; 65535 marks nodes the
 * backend inserted.
 */

namespace pte {

/** A source-graph node a debug handle resolves to. */
struct SourceNodeRef
{
    std::int64_t handle = 0;
    std::string graph; ///< "forward", or "forward/lowered_module_0" for a lowered module's original graph
    std::string name; ///< node name
    std::string target; ///< "aten::convolution.default"
    std::string stackTrace; ///< metadata stack_trace (may be empty)
    std::string moduleStack; ///< metadata nn_module_stack (may be empty)
    const Node* node = nullptr; ///< into the indexed graph; valid while the graph lives
};

/**
 * The nodes of one or more graphs by debug handle, descending into lowered modules' original graphs (the
 * pre-lowering subgraph of an executorch_call_delegate) and control-flow subgraphs. Keeps pointers into the graphs:
 * they must outlive the index (hold their shared_ptrs alongside).
 */
class SourceGraphIndex
{
public:
    /** Adds a graph under a display name ("forward"). */
    void add(const std::string& name, const ExportedProgram& program);
    /** Source nodes carrying `handle`, in graph order; empty for unknown handles and for 65535. */
    [[nodiscard]] std::span<const SourceNodeRef> find(std::int64_t handle) const noexcept;
    /** The producers of `node`'s tensor inputs (same graph), each with its handles. */
    [[nodiscard]] std::vector<const Node*> producers(const Node& node) const;
    /** The nodes consuming any output of `node` (same graph). */
    [[nodiscard]] std::vector<const Node*> consumers(const Node& node) const;
    [[nodiscard]] bool empty() const noexcept { return m_byHandle.empty(); }

private:
    void addGraph(const std::string& name, const Graph& graph, int depth);

    std::map<std::int64_t, std::vector<SourceNodeRef>> m_byHandle;
    /** Per graph: value name -> producing node, value name -> consuming nodes. */
    struct GraphEdges
    {
        std::map<std::string, const Node*> producer;
        std::map<std::string, std::vector<const Node*>> consumers;
    };
    std::vector<std::unique_ptr<GraphEdges>> m_graphs;
    std::map<const Node*, const GraphEdges*> m_graphOf;
};

/** A handle of the partition that no inner node carries: fused away by the backend. */
struct AbsorbedHandle
{
    std::int64_t handle = 0;
    std::vector<SourceNodeRef> sources;
    /** The inner node it was folded into, when one can be named. */
    std::optional<std::uint32_t> intoNode;
    /** How `intoNode` was found: "producer", "consumer" (in the source graph), or "handle order". */
    std::string how;
    /**
     * No partition list was given: the handle is a one-handle gap between handles inner nodes carry (handles are
     * numbered in graph order, so such a gap is most likely a fused activation, but it may also be a node that ran
     * outside the delegate). Longer gaps are not reported.
     */
    bool inferred = false;
};

/** Inner nodes to source nodes, for one delegate call. */
struct DelegateLinks
{
    std::vector<std::int64_t> partitionHandles; ///< debug_handle_map[method][instruction], sorted
    std::vector<std::vector<SourceNodeRef>> nodeSources; ///< per inner node
    std::vector<AbsorbedHandle> absorbed;
    /** Inner-node handles (not 65535) that are not in the partition list (when there is one). */
    std::vector<std::int64_t> unexpectedHandles;
    std::size_t backendInsertedNodes = 0;
};

/**
 * Links a payload's inner nodes for the delegate call whose partition handles are `partitionHandles` (the
 * debug-handle map entry of its DelegateCall instruction; may be empty when unknown). `delegateIdentifierMap` is the
 * ETRecord delegate map of that call (identifier -> handles: Vulkan node ids, Core ML symbols): inner nodes with a
 * delegateDebugId take their handles from it when their payload did not carry any. `index` may be null (handles
 * are then reported without source nodes, absorbed handles placed by handle order).
 */
[[nodiscard]] DelegateLinks linkDelegate(const DelegatePayload& payload, std::span<const std::int64_t> partitionHandles,
    const std::map<std::string, std::vector<std::int64_t>>* delegateIdentifierMap, const SourceGraphIndex* index);

/** ETRecord-shaped debug maps (method -> instruction id -> ...), from an ETRecord (EtRecordMaps) or an emission. */
struct DebugMapsView
{
    const std::map<std::string, std::map<std::int64_t, std::vector<std::int64_t>>>* debugHandleMap = nullptr;
    const std::map<std::string, std::map<std::int64_t, DelegateMapEntry>>* delegateMap = nullptr;
};

/** An ETRecord's debug maps as a DebugMapsView (pointers into `maps`, which must outlive it). */
[[nodiscard]] DebugMapsView debugMapsView(const EtRecordMaps& maps);
/** The index of the graphs of a dump set's methods (null programs skipped), by method name. */
void addMethodGraphs(SourceGraphIndex& index,
    const std::vector<std::pair<std::string, std::shared_ptr<const ExportedProgram>>>& methods);

/**
 * linkDelegate for a delegate of a program: its partition handles and identifier map are the maps' entries for its
 * first DelegateCall instruction (the key ETRecord uses) in its method.
 */
[[nodiscard]] DelegateLinks linkProgramDelegate(
    const ProgramDelegate& delegate, const DebugMapsView& maps, const SourceGraphIndex* index);

/** The handles of inner node `node`: its own, or those the identifier map gives its delegateDebugId. */
[[nodiscard]] std::vector<std::int64_t> innerNodeHandles(
    const InnerNode& node, const std::map<std::string, std::vector<std::int64_t>>* delegateIdentifierMap);

} // namespace pte
