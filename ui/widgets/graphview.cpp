// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "widgets/graphview.h"

#include <QContextMenuEvent>
#include <QFontInfo>
#include <QFontMetricsF>
#include <QGraphicsItem>
#include <QGraphicsScene>
#include <QKeyEvent>
#include <QMenu>
#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>
#include <QSaveFile>
#include <QScrollBar>
#include <QStyleOptionGraphicsItem>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

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

QColor heatColor(double fraction)
{
    const double f = std::clamp(fraction, 0.0, 1.0);
    // Pale yellow -> orange -> red, by hue and saturation.
    return QColor::fromHsvF(float((1.0 - f) * 55.0 / 360.0), float(0.15 + 0.8 * f), float(1.0 - 0.1 * f));
}

QColor readableTextOn(const QColor& fill, bool secondary)
{
    // WCAG relative luminance: dark text on light fills, white on dark ones (the hottest red), whichever contrasts
    // more.
    auto channel = [](double c) { return c <= 0.03928 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4); };
    const QColor rgb = fill.toRgb();
    const double l = 0.2126 * channel(rgb.redF()) + 0.7152 * channel(rgb.greenF()) + 0.0722 * channel(rgb.blueF());
    const double dark = (l + 0.05) / (0.0144 + 0.05); // against #202020
    const double light = (1.0 + 0.05) / (l + 0.05);
    if (light > dark)
        return secondary ? QColor(0xf0, 0xf0, 0xf0) : Qt::white;
    return secondary ? QColor(0x55, 0x55, 0x55) : QColor(0x20, 0x20, 0x20);
}

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
    void setHeat(std::optional<double> heat)
    {
        m_heat = heat;
        update();
    }
    /** Overrides the kind's fill (an invalid colour restores it). */
    void setFill(const QColor& fill)
    {
        m_fill = fill;
        update();
    }
    const QColor& fill() const { return m_fill; }
    QRectF boundingRect() const override { return m_rect.adjusted(-2, -2, 2, 2); }
    /** The fill the node is drawn with: measured time, else a fill set by the Diff window, else its kind's. */
    QColor shownFill() const
    {
        return m_heat          ? (*m_heat < 0 ? QColor(0xee, 0xee, 0xee) : heatColor(*m_heat))
            : m_fill.isValid() ? m_fill
                               : fillFor(m_kind);
    }
    /** The node as SVG elements (a rounded box and its one or two lines), as paint() draws it. */
    void writeSvg(QString& out, const QFont& font) const
    {
        const bool selected = isSelected();
        const QColor fill = selected ? shownFill().darker(112) : shownFill();
        const double radius = std::min(m_rect.height() / 4, 6.0);
        out += QStringLiteral("<rect x=\"%1\" y=\"%2\" width=\"%3\" height=\"%4\" rx=\"%5\" fill=\"%6\" stroke=\"%7\" "
                              "stroke-width=\"%8\"/>\n")
                   .arg(m_rect.x())
                   .arg(m_rect.y())
                   .arg(m_rect.width())
                   .arg(m_rect.height())
                   .arg(radius)
                   .arg(fill.name(), selected ? QStringLiteral("#e67e00") : QStringLiteral("#607085"))
                   .arg(selected ? 3.0 : 1.0);
        const QRectF inner = m_rect.adjusted(4, 2, -4, -2);
        auto text = [&](const QString& t, double y, bool bold, bool secondary) {
            QFont f = font;
            f.setBold(bold);
            const QString shown = QFontMetricsF(f).elidedText(t, Qt::ElideMiddle, inner.width());
            out += QStringLiteral("<text x=\"%1\" y=\"%2\" text-anchor=\"middle\" dominant-baseline=\"central\" "
                                  "fill=\"%3\"%4>%5</text>\n")
                       .arg(inner.center().x())
                       .arg(y)
                       .arg(readableTextOn(fill, secondary).name(),
                           bold ? QStringLiteral(" font-weight=\"bold\"") : QString(), shown.toHtmlEscaped());
        };
        if (m_subtitle.isEmpty()) {
            text(m_label, inner.center().y(), false, false);
            return;
        }
        text(m_label, inner.top() + inner.height() / 4, true, false);
        text(m_subtitle, inner.top() + inner.height() * 3 / 4, false, true);
    }
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget*) override
    {
        const double lod = option->levelOfDetailFromTransform(painter->worldTransform());
        const bool selected = isSelected();
        painter->setPen(QPen(selected ? QColor(0xe6, 0x7e, 0x00) : QColor(0x60, 0x70, 0x85), selected ? 3.0 : 1.0));
        // Measured time (the Profile colouring) over a fill set by the Diff window over the kind's colour.
        const QColor fill = shownFill();
        painter->setBrush(selected ? fill.darker(112) : fill);
        if (lod < 0.25) {
            painter->drawRect(m_rect);
            return;
        }
        const double radius = std::min(m_rect.height() / 4, 6.0);
        painter->drawRoundedRect(m_rect, radius, radius);
        if (lod < 0.45)
            return;
        const QColor shown = selected ? fill.darker(112) : fill;
        painter->setPen(readableTextOn(shown, false));
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
        painter->setPen(readableTextOn(shown, true));
        painter->drawText(bottom, Qt::AlignHCenter | Qt::AlignVCenter,
            QFontMetricsF(normal).elidedText(m_subtitle, Qt::ElideMiddle, bottom.width()));
    }

private:
    int m_index;
    QRectF m_rect;
    QString m_label;
    QString m_subtitle;
    GraphNode::Kind m_kind;
    std::optional<double> m_heat; ///< unset: colour by kind; negative: not measured
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

void GraphView::setHeat(const std::vector<double>& heat)
{
    for (std::size_t i = 0; i < m_items.size(); ++i)
        m_items[i]->setHeat(heat.empty() ? std::nullopt : std::optional<double>(i < heat.size() ? heat[i] : -1.0));
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
    // Too big to fit legibly: start legible at the top (the inputs), on the first row's node nearest the row's middle.
    // (Not on the middle itself: a wide first row, such as a delegate's inputs and weights, can have nothing there.)
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
    const double middle = left <= right ? (left + right) / 2 : bounds.center().x();
    double x = middle;
    double nearest = std::numeric_limits<double>::max();
    for (const auto* item : m_items) {
        const QRectF r = item->sceneBoundingRect();
        if (r.top() <= top + 1 && std::abs(r.center().x() - middle) < nearest) {
            nearest = std::abs(r.center().x() - middle);
            x = r.center().x();
        }
    }
    const double halfHeight = room.height() / kLegibleScale / 2;
    centerOn(QPointF(x, top - 20 + halfHeight));
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

QRectF GraphView::exportRect(bool visibleOnly) const
{
    const QRectF all = scene()->sceneRect();
    return visibleOnly ? mapToScene(viewport()->rect()).boundingRect().intersected(all) : all;
}

QImage GraphView::renderImage(bool visibleOnly) const
{
    const QRectF source = exportRect(visibleOnly);
    if (m_items.empty() || source.isEmpty())
        return {};
    // Twice the scene's scale for sharp labels, as long as the picture stays under 64 megapixels (a huge graph
    // becomes a small picture: its SVG keeps every label).
    const double area = source.width() * source.height();
    const double scale = std::min(2.0, std::sqrt(64e6 / area));
    QImage image(QSize(std::max(1, int(source.width() * scale)), std::max(1, int(source.height() * scale))),
        QImage::Format_ARGB32_Premultiplied);
    image.fill(backgroundBrush().color());
    QPainter painter(&image);
    painter.setRenderHints(QPainter::Antialiasing | QPainter::TextAntialiasing);
    painter.setFont(font());
    scene()->render(&painter, QRectF(QPointF(0, 0), QSizeF(image.size())), source);
    return image;
}

QByteArray GraphView::renderSvg(bool visibleOnly) const
{
    const QRectF box = exportRect(visibleOnly);
    if (m_items.empty() || box.isEmpty())
        return {};
    QString out;
    out += QStringLiteral("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                          "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"%1 %2 %3 %4\" width=\"%3\" "
                          "height=\"%4\" font-family=\"%5\" font-size=\"%6px\">\n")
               .arg(box.x())
               .arg(box.y())
               .arg(box.width())
               .arg(box.height())
               .arg(font().family().toHtmlEscaped())
               .arg(QFontInfo(font()).pixelSize());
    out += QStringLiteral("<rect x=\"%1\" y=\"%2\" width=\"%3\" height=\"%4\" fill=\"%5\"/>\n")
               .arg(box.x())
               .arg(box.y())
               .arg(box.width())
               .arg(box.height())
               .arg(backgroundBrush().color().name());
    // Edges (and their arrow heads) under the nodes, as drawn.
    for (const QGraphicsItem* item : scene()->items(box, Qt::IntersectsItemBoundingRect, Qt::AscendingOrder)) {
        const auto* path = dynamic_cast<const QGraphicsPathItem*>(item);
        if (!path)
            continue;
        QString d;
        const QPainterPath& p = path->path();
        for (int i = 0; i < p.elementCount(); ++i) {
            const auto e = p.elementAt(i);
            if (e.type == QPainterPath::MoveToElement)
                d += QStringLiteral("M%1 %2 ").arg(e.x).arg(e.y);
            else if (e.type == QPainterPath::LineToElement)
                d += QStringLiteral("L%1 %2 ").arg(e.x).arg(e.y);
            else if (e.type == QPainterPath::CurveToElement && i + 2 < p.elementCount()) {
                const auto c2 = p.elementAt(i + 1);
                const auto to = p.elementAt(i + 2);
                d += QStringLiteral("C%1 %2 %3 %4 %5 %6 ").arg(e.x).arg(e.y).arg(c2.x).arg(c2.y).arg(to.x).arg(to.y);
                i += 2;
            }
        }
        const QPen pen = path->pen();
        const bool filled = path->brush().style() != Qt::NoBrush;
        out += QStringLiteral("<path d=\"%1\" fill=\"%2\" stroke=\"%3\" stroke-width=\"%4\"%5/>\n")
                   .arg(d.trimmed(), filled ? path->brush().color().name() : QStringLiteral("none"),
                       pen.style() == Qt::NoPen ? QStringLiteral("none") : pen.color().name())
                   .arg(pen.widthF())
                   .arg(pen.style() == Qt::DashLine ? QStringLiteral(" stroke-dasharray=\"5 3\"") : QString());
    }
    for (const auto* node : m_items)
        if (node->sceneBoundingRect().intersects(box))
            node->writeSvg(out, font());
    out += QStringLiteral("</svg>\n");
    return out.toUtf8();
}

bool GraphView::exportImage(const QString& path, bool visibleOnly, QString* error) const
{
    auto fail = [error](const QString& why) {
        if (error)
            *error = why;
        return false;
    };
    if (m_items.empty())
        return fail(QStringLiteral("There is no graph to export."));
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return fail(QStringLiteral("Cannot write %1: %2").arg(path, file.errorString()));
    if (path.endsWith(QLatin1String(".svg"), Qt::CaseInsensitive)) {
        file.write(renderSvg(visibleOnly));
    } else {
        const QImage image = renderImage(visibleOnly);
        if (image.isNull() || !image.save(&file, "PNG"))
            return fail(QStringLiteral("Cannot write %1 as PNG").arg(path));
    }
    if (!file.commit())
        return fail(QStringLiteral("Cannot write %1: %2").arg(path, file.errorString()));
    return true;
}

void GraphView::contextMenuEvent(QContextMenuEvent* event)
{
    if (m_items.empty())
        return;
    QMenu menu(this);
    int node = -1;
    for (auto* item : items(event->pos()))
        if (auto* n = dynamic_cast<GraphNodeItem*>(item)) {
            node = n->index();
            break;
        }
    Q_EMIT contextMenuRequested(node, &menu);
    menu.addAction(QStringLiteral("Export Graph as Image…"), this, [this] { Q_EMIT exportRequested(false); });
    menu.addAction(QStringLiteral("Export Visible Part as Image…"), this, [this] { Q_EMIT exportRequested(true); });
    menu.addSeparator();
    menu.addAction(QStringLiteral("Fit (F)"), this, &GraphView::fitAll);
    menu.exec(event->globalPos());
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

void GraphView::setEmptyText(const QString& text)
{
    m_emptyText = text;
    viewport()->update();
}

void GraphView::paintEvent(QPaintEvent* event)
{
    QGraphicsView::paintEvent(event);
    if (m_items.empty() && !m_emptyText.isEmpty()) {
        // No graph: say why, as the empty tables do.
        QPainter p(viewport());
        p.setPen(palette().color(QPalette::PlaceholderText));
        p.drawText(
            QRectF(viewport()->rect()).adjusted(24, 24, -24, -24), Qt::AlignCenter | Qt::TextWordWrap, m_emptyText);
    }
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
