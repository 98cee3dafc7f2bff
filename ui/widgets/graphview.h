// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include "models/graphbuilder.h"
#include "widgets/graphlayouter.h"

#include <QGraphicsView>

#include <vector>

namespace pte::ui {

class GraphNodeItem;

/** The colour of a measured node: `fraction` 0 (cool, pale yellow) to 1 (hot, red). */
[[nodiscard]] QColor heatColor(double fraction);

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
    [[nodiscard]] int nodeCount() const { return int(m_items.size()); }

    /**
     * Colours nodes by measured time: one fraction (0..1) per node, negative for a node without a measurement
     * (drawn grey); empty to go back to the colours by kind.
     */
    void setHeat(const std::vector<double>& heat);

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
