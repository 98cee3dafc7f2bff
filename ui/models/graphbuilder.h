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
};

struct GraphEdge
{
    int from = 0;
    int to = 0;
};

/** A diagram before layout. Built off the GUI thread; plain data. */
struct GraphData
{
    QString method;
    std::vector<GraphNode> nodes;
    std::vector<GraphEdge> edges;
    bool instructionGraph = false;
    bool collapsed = false;
    int originalNodeCount = 0;
};

/**
 * The diagram for one method: the graph dump when there is one (nodes, placeholders, output), else the
 * instruction graph of the program (instructions as nodes, edges through value ids: an instruction
 * consumes a value another instruction produced when that one was the first to reference it).
 * Above `collapseThreshold` nodes, nodes are grouped by module path (nn_module_stack), or instruction
 * ranges for instruction graphs; the groups named in `expanded` (the groups' labels: module paths, or
 * "instructions 0–266") show their nodes instead. Returns an empty graph when `cancel` becomes true.
 */
[[nodiscard]] GraphData buildGraph(const Snapshot& snapshot, const QString& method, int collapseThreshold = 1500,
    const std::atomic<bool>* cancel = nullptr, const QSet<QString>& expanded = {});

/** Module hierarchy from an nn_module_stack value ("key,path,type;..."): the paths, outermost first. */
[[nodiscard]] QStringList modulePaths(const std::string& nnModuleStack);

} // namespace pte::ui
