// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "widgets/graphview.h"

#include <QGraphicsItem>
#include <QGraphicsScene>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QScrollBar>
#include <QStyleOptionGraphicsItem>
#include <QWheelEvent>

#include <cmath>

namespace pte::ui {

namespace {
QColor fillFor(GraphNode::Kind kind)
{
    switch (kind) {
    case GraphNode::Kind::Operator:
    case GraphNode::Kind::Instruction:
        return QColor(0xe8, 0xf0, 0xfb);
    case GraphNode::Kind::Input:
        return QColor(0xe3, 0xf4, 0xe1);
    case GraphNode::Kind::Constant:
        return QColor(0xf1, 0xee, 0xe6);
    case GraphNode::Kind::Output:
        return QColor(0xfd, 0xe9, 0xd9);
    case GraphNode::Kind::Delegate:
        return QColor(0xfc, 0xe4, 0xec);
    case GraphNode::Kind::Cluster:
        return QColor(0xee, 0xe8, 0xf6);
    }
    return Qt::white;
}
} // namespace

/** A diagram node: rounded box, operator on the first line, name on the second. */
class GraphNodeItem : public QGraphicsItem
{
public:
    GraphNodeItem(int index, const GraphNode& node, const QRectF& rect)
        : m_index(index)
        , m_rect(rect)
        , m_label(node.label)
        , m_subtitle(node.subtitle)
        , m_kind(node.kind)
    {
        setFlag(ItemIsSelectable);
        setToolTip(node.subtitle.isEmpty() ? node.label : node.label + QLatin1Char('\n') + node.subtitle);
    }
    int index() const { return m_index; }
    /** Overrides the kind's fill (an invalid colour restores it). */
    void setFill(const QColor& fill)
    {
        m_fill = fill;
        update();
    }
    const QColor& fill() const { return m_fill; }
    QRectF boundingRect() const override { return m_rect.adjusted(-2, -2, 2, 2); }
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget*) override
    {
        const double lod = option->levelOfDetailFromTransform(painter->worldTransform());
        const bool selected = isSelected();
        painter->setPen(QPen(selected ? QColor(0xe6, 0x7e, 0x00) : QColor(0x60, 0x70, 0x85), selected ? 3.0 : 1.0));
        const QColor fill = m_fill.isValid() ? m_fill : fillFor(m_kind);
        painter->setBrush(selected ? fill.darker(112) : fill);
        if (lod < 0.25) {
            painter->drawRect(m_rect);
            return;
        }
        const double radius = std::min(m_rect.height() / 4, 6.0);
        painter->drawRoundedRect(m_rect, radius, radius);
        if (lod < 0.45)
            return;
        painter->setPen(QColor(0x20, 0x20, 0x20));
        const QRectF inner = m_rect.adjusted(4, 2, -4, -2);
        if (m_subtitle.isEmpty()) {
            painter->drawText(inner, Qt::AlignCenter, m_label);
            return;
        }
        const QRectF top(inner.left(), inner.top(), inner.width(), inner.height() / 2);
        const QRectF bottom(inner.left(), inner.center().y(), inner.width(), inner.height() / 2);
        QFont bold = painter->font();
        bold.setBold(true);
        painter->setFont(bold);
        const QFontMetricsF fm(bold);
        painter->drawText(
            top, Qt::AlignHCenter | Qt::AlignVCenter, fm.elidedText(m_label, Qt::ElideMiddle, top.width()));
        QFont normal = bold;
        normal.setBold(false);
        painter->setFont(normal);
        painter->setPen(QColor(0x55, 0x55, 0x55));
        painter->drawText(bottom, Qt::AlignHCenter | Qt::AlignVCenter,
            QFontMetricsF(normal).elidedText(m_subtitle, Qt::ElideMiddle, bottom.width()));
    }

private:
    int m_index;
    QRectF m_rect;
    QString m_label;
    QString m_subtitle;
    GraphNode::Kind m_kind;
    QColor m_fill;
};

GraphView::GraphView(QWidget* parent)
    : QGraphicsView(parent)
{
    setScene(new QGraphicsScene(this));
    setRenderHints(QPainter::Antialiasing | QPainter::TextAntialiasing);
    setDragMode(QGraphicsView::ScrollHandDrag);
    setTransformationAnchor(QGraphicsView::AnchorUnderMouse);
    setViewportUpdateMode(QGraphicsView::SmartViewportUpdate);
    setBackgroundBrush(QColor(0xfa, 0xfa, 0xfa));
    setFocusPolicy(Qt::StrongFocus);
    connect(scene(), &QGraphicsScene::selectionChanged, this, [this] {
        if (!m_updatingSelection)
            Q_EMIT nodeSelectionChanged();
    });
    m_overview = new GraphOverview(this);
    m_overview->setObjectName(QStringLiteral("graphOverview"));
    m_overview->hide();
}

GraphView::~GraphView()
{
    // Deleting selected items emits selectionChanged; nobody must hear it during destruction.
    m_updatingSelection = true;
    scene()->blockSignals(true);
}

void GraphView::clearGraph()
{
    m_updatingSelection = true;
    scene()->clear();
    m_items.clear();
    m_updatingSelection = false;
    if (m_overview) {
        m_overview->setNodes({}, {});
        m_overview->hide();
    }
}

void GraphView::setGraph(const GraphData& graph, const GraphLayout& layout)
{
    clearGraph();
    QGraphicsScene* s = scene();
    const QPen edgePen(QColor(0x7a, 0x86, 0x99), 1.2);
    const QBrush arrowBrush(QColor(0x7a, 0x86, 0x99));
    // Data that flows through memory another value shares: dashed, in another colour.
    QPen memoryPen(QColor(0x9c, 0x5a, 0xb8), 1.2, Qt::DashLine);
    const QBrush memoryBrush(QColor(0x9c, 0x5a, 0xb8));
    // Edges go into the scene in batches of neighbouring edges (one path item each): tens of thousands of
    // single items make every paint of a large graph walk and draw them one by one.
    constexpr std::size_t kBatch = 128;
    std::vector<const GraphLayout::Edge*> plain;
    std::vector<const GraphLayout::Edge*> throughMemory;
    for (const auto& e : layout.edges)
        (e.throughMemory ? throughMemory : plain).push_back(&e);
    for (const auto* group : { &plain, &throughMemory }) {
        const bool memory = group == &throughMemory;
        for (std::size_t first = 0; first < group->size(); first += kBatch) {
            QPainterPath lines;
            QPainterPath heads;
            for (std::size_t k = first; k < std::min(group->size(), first + kBatch); ++k) {
                const auto& e = *(*group)[k];
                lines.addPath(e.path);
                const QLineF line(e.arrowTo, e.arrowFrom);
                if (line.length() > 0.01) {
                    const double angle = std::atan2(line.dy(), line.dx());
                    const double size = 7.0;
                    QPolygonF head;
                    head << e.arrowTo << e.arrowTo + QPointF(std::cos(angle + 0.4) * size, std::sin(angle + 0.4) * size)
                         << e.arrowTo + QPointF(std::cos(angle - 0.4) * size, std::sin(angle - 0.4) * size);
                    heads.addPolygon(head);
                    heads.closeSubpath();
                }
            }
            auto* path = s->addPath(lines, memory ? memoryPen : edgePen);
            path->setZValue(0);
            if (memory)
                path->setToolTip(QStringLiteral("Data through shared memory: the value read occupies memory another "
                                                "value wrote (an elided view, or memory the plan shares)"));
            if (!heads.isEmpty())
                s->addPath(heads, Qt::NoPen, memory ? memoryBrush : arrowBrush)->setZValue(0);
        }
    }
    m_items.reserve(graph.nodes.size());
    for (std::size_t i = 0; i < graph.nodes.size() && i < layout.nodes.size(); ++i) {
        auto* item = new GraphNodeItem(int(i), graph.nodes[i], layout.nodes[i]);
        item->setZValue(1);
        s->addItem(item);
        m_items.push_back(item);
    }
    s->setSceneRect(layout.bounds.adjusted(-40, -40, 40, 40));
    m_overview->setNodes(layout.nodes, s->sceneRect());
    showStart();
}

void GraphView::showStart()
{
    if (scene()->items().isEmpty())
        return;
    const QRectF bounds = scene()->sceneRect();
    const QSizeF room = viewport()->size();
    const double fit = std::min(room.width() / bounds.width(), room.height() / bounds.height());
    if (fit >= kLegibleScale) {
        fitAll();
        return;
    }
    // Too big to fit legibly: start legible at the top (the inputs), centred on the first row's nodes.
    setTransform(QTransform::fromScale(kLegibleScale, kLegibleScale));
    double top = bounds.bottom();
    for (const auto* item : m_items)
        top = std::min(top, item->sceneBoundingRect().top());
    double left = bounds.right();
    double right = bounds.left();
    for (const auto* item : m_items)
        if (item->sceneBoundingRect().top() <= top + 1) {
            left = std::min(left, item->sceneBoundingRect().left());
            right = std::max(right, item->sceneBoundingRect().right());
        }
    const double halfHeight = room.height() / kLegibleScale / 2;
    centerOn(QPointF(left <= right ? (left + right) / 2 : bounds.center().x(), top - 20 + halfHeight));
    updateRenderHints();
    updateOverview();
}

void GraphView::selectNodes(const std::vector<int>& nodes)
{
    m_updatingSelection = true;
    scene()->clearSelection();
    for (const int n : nodes)
        if (n >= 0 && n < int(m_items.size()))
            m_items[std::size_t(n)]->setSelected(true);
    m_updatingSelection = false;
    if (!nodes.empty() && nodes.front() >= 0 && nodes.front() < int(m_items.size())) {
        const QRectF r = m_items[std::size_t(nodes.front())]->sceneBoundingRect();
        if (transform().m11() < kLegibleScale)
            setTransform(QTransform::fromScale(kLegibleScale, kLegibleScale));
        updateRenderHints();
        centerOn(r.center());
        updateOverview();
    }
}

void GraphView::setNodeFills(const std::vector<QColor>& fills)
{
    for (std::size_t i = 0; i < m_items.size(); ++i)
        m_items[i]->setFill(i < fills.size() ? fills[i] : QColor());
}

QColor GraphView::nodeFill(int node) const
{
    return node >= 0 && std::size_t(node) < m_items.size() ? m_items[std::size_t(node)]->fill() : QColor();
}

std::vector<int> GraphView::selectedNodes() const
{
    std::vector<int> out;
    for (auto* item : scene()->selectedItems())
        if (auto* node = dynamic_cast<GraphNodeItem*>(item))
            out.push_back(node->index());
    std::sort(out.begin(), out.end());
    return out;
}

void GraphView::zoomBy(double factor)
{
    const double current = transform().m11();
    const double target = std::clamp(current * factor, 0.02, 8.0);
    scale(target / current, target / current);
    updateRenderHints();
    updateOverview();
}

void GraphView::updateRenderHints()
{
    // Zoomed far out (thousands of nodes on screen) antialiasing costs most of the paint time and shows nothing.
    const bool fine = transform().m11() >= 0.3;
    setRenderHint(QPainter::Antialiasing, fine);
    setRenderHint(QPainter::TextAntialiasing, fine);
}

void GraphView::fitAll()
{
    if (scene()->items().isEmpty())
        return;
    fitInView(scene()->sceneRect(), Qt::KeepAspectRatio);
    // Small graphs: do not blow them up beyond 1:1.
    if (transform().m11() > 1.0)
        setTransform(QTransform());
    updateRenderHints();
    updateOverview();
}

void GraphView::updateOverview()
{
    if (!m_overview)
        return;
    const QRectF visible = mapToScene(viewport()->rect()).boundingRect();
    const QRectF bounds = scene()->sceneRect();
    // Shown when a good part of the graph is out of view (a graph that nearly fits needs no map over its nodes).
    const QRectF shown = visible.intersected(bounds);
    const double area = bounds.width() * bounds.height();
    const bool needed = !m_items.empty() && area > 0 && shown.width() * shown.height() < 0.6 * area;
    if (needed) {
        // A corner of the viewport: at most a fifth of its width and a third of its height, and 180 x 140 pixels.
        const QSizeF room(std::min(viewport()->width() / 5.0, 180.0), std::min(viewport()->height() / 3.0, 140.0));
        const double s = std::min(room.width() / bounds.width(), room.height() / bounds.height());
        const QSize size(std::max(40, int(bounds.width() * s)), std::max(40, int(bounds.height() * s)));
        m_overview->setGeometry(
            QRect(viewport()->geometry().bottomRight() - QPoint(size.width() + 8, size.height() + 8), size));
        m_overview->raise();
        m_overview->update();
    }
    m_overview->setVisible(needed);
}

void GraphView::resizeEvent(QResizeEvent* event)
{
    QGraphicsView::resizeEvent(event);
    updateOverview();
}

void GraphView::scrollContentsBy(int dx, int dy)
{
    QGraphicsView::scrollContentsBy(dx, dy);
    if (m_overview && m_overview->isVisible())
        m_overview->update();
}

GraphOverview::GraphOverview(GraphView* view)
    : QWidget(view)
    , m_view(view)
{
    setCursor(Qt::PointingHandCursor);
    setToolTip(QStringLiteral("Overview: click or drag to move the view"));
}

void GraphOverview::setNodes(std::vector<QRectF> nodes, const QRectF& bounds)
{
    m_nodes = std::move(nodes);
    m_bounds = bounds;
    update();
}

QTransform GraphOverview::toWidget() const
{
    if (m_bounds.isEmpty())
        return {};
    const double s = std::min(width() / m_bounds.width(), height() / m_bounds.height());
    QTransform t;
    t.translate((width() - m_bounds.width() * s) / 2, (height() - m_bounds.height() * s) / 2);
    t.scale(s, s);
    t.translate(-m_bounds.left(), -m_bounds.top());
    return t;
}

void GraphOverview::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    p.fillRect(rect(), QColor(255, 255, 255, 225));
    p.setPen(QColor(0x90, 0x98, 0xa8));
    p.drawRect(rect().adjusted(0, 0, -1, -1));
    const QTransform t = toWidget();
    p.setPen(Qt::NoPen);
    p.setBrush(QColor(0x5b, 0x7d, 0xb1));
    for (const auto& r : m_nodes) {
        const QRectF w = t.mapRect(r);
        p.drawRect(QRectF(w.topLeft(), QSizeF(std::max(1.5, w.width()), std::max(1.5, w.height()))));
    }
    const QRectF visible = t.mapRect(m_view->mapToScene(m_view->viewport()->rect()).boundingRect());
    p.setBrush(Qt::NoBrush);
    p.setPen(QPen(QColor(0xe6, 0x7e, 0x00), 1.5));
    p.drawRect(visible.intersected(QRectF(rect()).adjusted(1, 1, -1, -1)));
}

void GraphOverview::centerAt(const QPointF& pos)
{
    bool invertible = false;
    const QTransform back = toWidget().inverted(&invertible);
    if (invertible)
        m_view->centerOn(back.map(pos));
    update();
}

void GraphOverview::mousePressEvent(QMouseEvent* event)
{
    centerAt(event->position());
    event->accept();
}

void GraphOverview::mouseMoveEvent(QMouseEvent* event)
{
    if (event->buttons() & Qt::LeftButton)
        centerAt(event->position());
    event->accept();
}

void GraphView::wheelEvent(QWheelEvent* event)
{
    if (event->modifiers() & Qt::ControlModifier) {
        zoomBy(std::pow(1.0015, event->angleDelta().y()));
        event->accept();
        return;
    }
    QGraphicsView::wheelEvent(event);
}

void GraphView::mouseDoubleClickEvent(QMouseEvent* event)
{
    if (auto* node = dynamic_cast<GraphNodeItem*>(itemAt(event->position().toPoint()))) {
        Q_EMIT nodeActivated(node->index());
        event->accept();
        return;
    }
    QGraphicsView::mouseDoubleClickEvent(event);
}

void GraphView::paintEvent(QPaintEvent* event)
{
    QGraphicsView::paintEvent(event);
    if (!hasFocus())
        return;
    // Keyboard focus is visible: a frame in the highlight colour inside the viewport.
    QPainter p(viewport());
    p.setPen(QPen(palette().color(QPalette::Highlight), 2));
    p.setBrush(Qt::NoBrush);
    p.drawRect(QRectF(viewport()->rect()).adjusted(1, 1, -1, -1));
}

void GraphView::focusInEvent(QFocusEvent* event)
{
    QGraphicsView::focusInEvent(event);
    viewport()->update();
}

void GraphView::focusOutEvent(QFocusEvent* event)
{
    QGraphicsView::focusOutEvent(event);
    viewport()->update();
}

void GraphView::keyPressEvent(QKeyEvent* event)
{
    switch (event->key()) {
    case Qt::Key_Plus:
    case Qt::Key_Equal:
        zoomBy(1.25);
        return;
    case Qt::Key_Minus:
        zoomBy(0.8);
        return;
    case Qt::Key_F:
        if (event->modifiers() == Qt::NoModifier) {
            fitAll();
            return;
        }
        break;
    case Qt::Key_Return:
    case Qt::Key_Enter:
        if (const auto nodes = selectedNodes(); nodes.size() == 1) {
            Q_EMIT nodeActivated(nodes.front());
            return;
        }
        break;
    default:
        break;
    }
    QGraphicsView::keyPressEvent(event);
}

} // namespace pte::ui
