// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include "models/graphbuilder.h"
#include "widgets/graphlayouter.h"

#include <QColor>
#include <QGraphicsView>
#include <QImage>

#include <vector>

class QMenu;

namespace pte::ui {

class GraphNodeItem;
class GraphOverview;

/** The colour of a measured node: `fraction` 0 (cool, pale yellow) to 1 (hot, red). */
[[nodiscard]] QColor heatColor(double fraction);
/** The text colour that reads best on `fill` (a node's label, or its `secondary` line): dark, or white on dark fills.
 */
[[nodiscard]] QColor readableTextOn(const QColor& fill, bool secondary = false);

/**
 * The diagram: one light item per node, one path per edge, in a QGraphicsScene (BSP-indexed, so
 * tens of thousands of items stay responsive). Ctrl+wheel or +/- zooms, drag pans, F fits.
 * Text is skipped when zoomed far out. A new graph opens fitted when its labels stay legible that way, else
 * at a legible zoom at its top (the inputs); an overview in the corner then shows where the view is and moves
 * it by click or drag. Edges through shared memory are dashed.
 */
class GraphView : public QGraphicsView
{
    Q_OBJECT
public:
    explicit GraphView(QWidget* parent = nullptr);
    ~GraphView() override;

    void setGraph(const GraphData& graph, const GraphLayout& layout);
    /** The text shown while there is no graph (why there is none). */
    void setEmptyText(const QString& text);
    [[nodiscard]] const QString& emptyText() const { return m_emptyText; }
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

    /**
     * Colours nodes by measured time: one fraction (0..1) per node, negative for a node without a measurement
     * (drawn grey); empty to go back to the colours by kind.
     */
    void setHeat(const std::vector<double>& heat);

    void zoomBy(double factor);
    void fitAll();
    /** Fits when the labels stay legible, else shows the top of the graph at a legible zoom. */
    void showStart();
    /** The smallest zoom at which labels are drawn legibly. */
    static constexpr double kLegibleScale = 0.8;
    [[nodiscard]] double zoom() const { return transform().m11(); }
    /** The overview (shown while the graph does not fit the view). */
    [[nodiscard]] GraphOverview* overview() const { return m_overview; }

    /** The whole graph, or the part in view, as a picture (twice the scene's scale, at most 64 megapixels). */
    [[nodiscard]] QImage renderImage(bool visibleOnly) const;
    /** The whole graph, or the part in view, as SVG: nodes as boxes and text, edges as paths, as they are drawn. */
    [[nodiscard]] QByteArray renderSvg(bool visibleOnly) const;
    /** Writes renderSvg (a path ending in .svg) or renderImage as PNG (any other); false and *error on failure. */
    bool exportImage(const QString& path, bool visibleOnly, QString* error = nullptr) const;

Q_SIGNALS:
    /** The context menu's "Export … as Image": the whole graph, or the part in view. */
    void exportRequested(bool visibleOnly);
    /** The context menu is about to show for `node` (-1: none under the mouse): connect directly to add actions. */
    void contextMenuRequested(int node, QMenu* menu);
    void nodeSelectionChanged();
    /** Double-click on a node, or Enter with one node selected. */
    void nodeActivated(int node);

protected:
    void wheelEvent(QWheelEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    void paintEvent(QPaintEvent* event) override;
    void focusInEvent(QFocusEvent* event) override;
    void focusOutEvent(QFocusEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void scrollContentsBy(int dx, int dy) override;
    void contextMenuEvent(QContextMenuEvent* event) override;

private:
    [[nodiscard]] QRectF exportRect(bool visibleOnly) const;
    void updateRenderHints();
    void updateOverview();
    std::vector<GraphNodeItem*> m_items;
    GraphOverview* m_overview = nullptr;
    bool m_updatingSelection = false;
    QString m_emptyText;
};

/** The overview of a GraphView: every node as a dot, the visible part as a frame; click or drag to move there. */
class GraphOverview : public QWidget
{
    Q_OBJECT
public:
    explicit GraphOverview(GraphView* view);
    void setNodes(std::vector<QRectF> nodes, const QRectF& bounds);

protected:
    void paintEvent(QPaintEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;

private:
    [[nodiscard]] QTransform toWidget() const;
    void centerAt(const QPointF& pos);
    GraphView* m_view;
    std::vector<QRectF> m_nodes;
    QRectF m_bounds;
};

} // namespace pte::ui
