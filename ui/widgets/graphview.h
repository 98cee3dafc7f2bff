// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include "models/graphbuilder.h"
#include "widgets/graphlayouter.h"

#include <QColor>
#include <QGraphicsView>

#include <vector>

namespace pte::ui {

class GraphNodeItem;

/**
 * The diagram: one light item per node, one path per edge, in a QGraphicsScene (BSP-indexed, so
 * tens of thousands of items stay responsive). Ctrl+wheel or +/- zooms, drag pans, F fits.
 * Text is skipped when zoomed far out.
 */
class GraphView : public QGraphicsView
{
    Q_OBJECT
public:
    explicit GraphView(QWidget* parent = nullptr);
    ~GraphView() override;

    void setGraph(const GraphData& graph, const GraphLayout& layout);
    void clearGraph();
    /** Selects these nodes (replacing the selection) and centres the first; emits nothing. */
    void selectNodes(const std::vector<int>& nodes);
    [[nodiscard]] std::vector<int> selectedNodes() const;
    /** Fills node i with fills[i] instead of its kind's colour (invalid or missing entries: the kind's); the Diff
     *  window colours nodes by change. */
    void setNodeFills(const std::vector<QColor>& fills);
    /** The fill set by setNodeFills for node i (invalid when it has its kind's colour). */
    [[nodiscard]] QColor nodeFill(int node) const;
    [[nodiscard]] int nodeCount() const { return int(m_items.size()); }

    void zoomBy(double factor);
    void fitAll();

Q_SIGNALS:
    void nodeSelectionChanged();
    /** Double-click on a node, or Enter with one node selected. */
    void nodeActivated(int node);

protected:
    void wheelEvent(QWheelEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;

private:
    void updateRenderHints();
    std::vector<GraphNodeItem*> m_items;
    bool m_updatingSelection = false;
};

} // namespace pte::ui
