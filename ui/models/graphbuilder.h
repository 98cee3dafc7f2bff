// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include "document/snapshot.h"

#include <QSet>
#include <QString>
#include <QStringList>

#include <atomic>
#include <cstdint>
#include <vector>

namespace pte::ui {

/** A node of the diagram: a graph node, an instruction, a graph input/output, or a collapsed group. */
struct GraphNode
{
    enum class Kind
    {
        Operator,
        Input,
        Constant,
        Output,
        Delegate,
        Instruction,
        Cluster,
    };
    Kind kind = Kind::Operator;
    QString label; ///< first line (operator)
    QString subtitle; ///< second line (node name, "#id", "12 nodes")
    QStringList members; ///< graph node names this diagram node stands for
    std::vector<std::int64_t> debugHandles;
    int instruction = -1; ///< instruction id (instruction graphs)
    int firstInstruction = -1, lastInstruction = -1; ///< collapsed instruction ranges
    int innerNode = -1; ///< the payload's inner node (a delegate's inner graph, models/delegategraph.h)
    QString modulePath;
    QString details; ///< plain text for the details panel
    /** Delegate calls: the lowered module's name (its original program opens in the Graph view), else empty. */
    QString loweredModule;
    /** Delegate calls: the nodes the backend absorbed ("lowered_module_0/aten_mul_tensor"), which Find finds. */
    QStringList absorbed;
};

struct GraphEdge
{
    int from = 0;
    int to = 0;
    /**
     * Instruction graphs: the value read is not the one written but shares its planned memory (an elided view, or
     * a MoveCall's destination), so the data flows through memory rather than through a value id.
     */
    bool throughMemory = false;
};

/** A diagram before layout. Built off the GUI thread; plain data. */
struct GraphData
{
    QString method;
    QString loweredModule; ///< set when this is a lowered module's original program (drill-down from its call)
    std::vector<GraphNode> nodes;
    std::vector<GraphEdge> edges;
    bool instructionGraph = false;
    bool collapsed = false;
    int originalNodeCount = 0;
};

/**
 * The diagram for one method: the graph dump when there is one (nodes, placeholders, output), else the
 * instruction graph of the program (instructions as nodes; an edge from the instruction that last wrote a value,
 * or the planned memory the value occupies, to each instruction reading it: which arguments a kernel writes comes
 * from its operator schema, else the first instruction to reference a value is taken as its writer).
 * With `loweredModule`, the original program of that lowered module of the method's dump (the nodes its
 * delegate call stands for). In a dump graph of an emitted method, each node shows the debug handles and
 * instructions emission gave it.
 * Above `collapseThreshold` nodes, nodes are grouped by module path (nn_module_stack), or instruction
 * ranges for instruction graphs; the groups named in `expanded` (the groups' labels: module paths, or
 * "instructions 0–266") show their nodes instead. With `groupByModule`, a dump graph of any size is grouped by its
 * module hierarchy instead: each node in its outermost module that `expanded` does not name (an expanded module shows
 * its submodules as groups, and its own nodes), parameters and buffers in one group; groups of one node are not made.
 * Returns an empty graph when `cancel` becomes true.
 */
[[nodiscard]] GraphData buildGraph(const Snapshot& snapshot, const QString& method, int collapseThreshold = 1500,
    const std::atomic<bool>* cancel = nullptr, const QSet<QString>& expanded = {}, const QString& loweredModule = {},
    bool groupByModule = false);

/** pte::nnModulePaths() as a QStringList: the module paths of an nn_module_stack value, outermost first. */
[[nodiscard]] QStringList modulePaths(const std::string& nnModuleStack);

} // namespace pte::ui
