// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include "models/graphbuilder.h"

#include <QPainterPath>
#include <QPointF>
#include <QRectF>
#include <QString>

#include <atomic>
#include <vector>

namespace pte::ui {

/** Font-derived sizes the layout needs (measured on the GUI thread, passed to the worker). */
struct LayoutMetrics
{
    double charWidth = 7.0; ///< average character width, scene units
    double lineHeight = 16.0; ///< line spacing, scene units
};

/** A laid-out diagram: node rectangles and edge paths in scene coordinates (y grows down). */
struct GraphLayout
{
    QRectF bounds;
    std::vector<QRectF> nodes;
    struct Edge
    {
        QPainterPath path;
        QPointF arrowFrom;
        QPointF arrowTo;
        bool throughMemory = false; ///< GraphEdge::throughMemory of the edge drawn
    };
    std::vector<Edge> edges;
    QString engine; ///< "dot" or "layered"
};

/** Node size for a diagram node under these metrics. */
[[nodiscard]] QSizeF nodeSize(const GraphNode& node, const LayoutMetrics& metrics);

/**
 * Lays a diagram out: Graphviz dot through libgvc when available (serialized: Graphviz is not
 * re-entrant), else — or above `maxDotNodes` — a simple layered layout. Thread-safe; meant for workers.
 */
[[nodiscard]] GraphLayout layoutGraph(const GraphData& graph, const LayoutMetrics& metrics, int maxDotNodes = 2500,
    const std::atomic<bool>* cancel = nullptr);

} // namespace pte::ui
