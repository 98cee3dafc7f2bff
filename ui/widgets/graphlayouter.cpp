// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "widgets/graphlayouter.h"

#include <QByteArray>

#include <algorithm>
#include <cstdlib>
#include <limits>
#include <mutex>
#include <set>
#include <utility>

#ifdef PTELENS_HAVE_GRAPHVIZ
#include <graphviz/cgraph.h>
#include <graphviz/gvc.h>
#endif

namespace pte::ui {

QSizeF nodeSize(const GraphNode& node, const LayoutMetrics& m)
{
    const qsizetype chars = std::max<qsizetype>({ node.label.size(), node.subtitle.size(), 6 });
    const double width =
        std::min<double>(double(std::min<qsizetype>(chars, 48)) * m.charWidth + 4 * m.charWidth, 60 * m.charWidth);
    const double height = (node.subtitle.isEmpty() ? 1.0 : 2.0) * m.lineHeight + m.lineHeight * 0.6;
    return { width, height };
}

namespace {

constexpr std::uint64_t kMaxDotVirtualNodes = 4000;

/** Longest-path layering, nodes ordered by index within a layer; straight edges. */
GraphLayout layeredLayout(const GraphData& g, const LayoutMetrics& m)
{
    GraphLayout out;
    out.engine = QStringLiteral("layered");
    const std::size_t n = g.nodes.size();
    std::vector<int> layer(n, 0);
    // Edges mostly go forward in index order (topological by construction); ignore back edges.
    std::vector<std::vector<int>> preds(n);
    for (const auto& e : g.edges)
        if (e.from < e.to)
            preds[std::size_t(e.to)].push_back(e.from);
    for (std::size_t i = 0; i < n; ++i)
        for (const int p : preds[i])
            layer[i] = std::max(layer[i], layer[std::size_t(p)] + 1);
    int layers = 0;
    for (const int l : layer)
        layers = std::max(layers, l + 1);
    std::vector<double> x(std::size_t(layers), 0.0);
    std::vector<double> layerHeight(std::size_t(layers), 0.0);
    out.nodes.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
        const QSizeF s = nodeSize(g.nodes[i], m);
        const auto l = std::size_t(layer[i]);
        out.nodes[i] = QRectF(QPointF(x[l], 0), s);
        x[l] += s.width() + 2 * m.charWidth;
        layerHeight[l] = std::max(layerHeight[l], s.height());
    }
    double maxWidth = 0;
    for (const double w : x)
        maxWidth = std::max(maxWidth, w);
    std::vector<double> y(std::size_t(layers), 0.0);
    for (std::size_t l = 1; l < std::size_t(layers); ++l)
        y[l] = y[l - 1] + layerHeight[l - 1] + 3 * m.lineHeight;
    for (std::size_t i = 0; i < n; ++i) {
        const auto l = std::size_t(layer[i]);
        out.nodes[i].translate((maxWidth - x[l]) / 2, y[l]);
    }
    for (const auto& e : g.edges) {
        const QRectF& a = out.nodes[std::size_t(e.from)];
        const QRectF& b = out.nodes[std::size_t(e.to)];
        GraphLayout::Edge edge;
        const QPointF p0(a.center().x(), a.bottom());
        const QPointF p1(b.center().x(), b.top());
        edge.path.moveTo(p0);
        const double dy = (p1.y() - p0.y()) / 2;
        edge.path.cubicTo(p0 + QPointF(0, dy), p1 - QPointF(0, dy), p1);
        edge.arrowFrom = p1 - QPointF(0, 1);
        edge.arrowTo = p1;
        edge.throughMemory = e.throughMemory;
        out.edges.push_back(std::move(edge));
    }
    out.bounds = QRectF(0, 0, maxWidth, layers ? y.back() + layerHeight.back() : 0);
    return out;
}

/**
 * Roughly how many virtual nodes dot would add for edges spanning several ranks: longest-path ranks, with
 * sources pulled down next to their first consumer (as dot's network simplex does). A long chain whose
 * nodes all read one input makes thousands of them, and dot then takes minutes.
 */
std::uint64_t dotVirtualNodes(const GraphData& g)
{
    const std::size_t n = g.nodes.size();
    std::vector<int> rank(n, 0);
    std::vector<std::vector<int>> preds(n);
    std::vector<char> hasPred(n, 0);
    for (const auto& e : g.edges)
        if (e.from < e.to) {
            preds[std::size_t(e.to)].push_back(e.from);
            hasPred[std::size_t(e.to)] = 1;
        }
    for (std::size_t i = 0; i < n; ++i)
        for (const int p : preds[i])
            rank[i] = std::max(rank[i], rank[std::size_t(p)] + 1);
    std::vector<int> firstConsumer(n, std::numeric_limits<int>::max());
    for (const auto& e : g.edges)
        if (e.from < e.to)
            firstConsumer[std::size_t(e.from)] = std::min(firstConsumer[std::size_t(e.from)], rank[std::size_t(e.to)]);
    for (std::size_t i = 0; i < n; ++i)
        if (!hasPred[i] && firstConsumer[i] != std::numeric_limits<int>::max())
            rank[i] = firstConsumer[i] - 1;
    std::uint64_t total = 0;
    for (const auto& e : g.edges)
        if (e.from < e.to)
            total += std::uint64_t(std::max(0, rank[std::size_t(e.to)] - rank[std::size_t(e.from)] - 1));
    return total;
}

#ifdef PTELENS_HAVE_GRAPHVIZ
std::mutex& graphvizMutex()
{
    static std::mutex m;
    return m;
}

bool dotLayout(const GraphData& g, const LayoutMetrics& m, GraphLayout& out, const std::atomic<bool>* cancel)
{
    QByteArray dot;
    dot.reserve(qsizetype(g.nodes.size() * 48 + g.edges.size() * 16));
    dot += "digraph G {\n";
    dot += "graph [rankdir=TB, nodesep=0.3, ranksep=0.45";
    if (g.nodes.size() > 400)
        dot += ", mclimit=0.3, nslimit=2, nslimit1=2, splines=true";
    dot += "];\nnode [shape=box, fixedsize=true, label=\"\"];\n";
    for (std::size_t i = 0; i < g.nodes.size(); ++i) {
        const QSizeF s = nodeSize(g.nodes[i], m);
        dot += 'n' + QByteArray::number(qulonglong(i)) + " [width=" + QByteArray::number(s.width() / 72.0, 'f', 3)
            + ", height=" + QByteArray::number(s.height() / 72.0, 'f', 3) + "];\n";
    }
    for (const auto& e : g.edges)
        dot += 'n' + QByteArray::number(e.from) + " -> n" + QByteArray::number(e.to) + ";\n";
    dot += "}\n";

    std::lock_guard lock(graphvizMutex());
    if (cancel && cancel->load())
        return false;
    agseterr(AGERR);
    GVC_t* gvc = gvContext();
    if (!gvc)
        return false;
    Agraph_t* graph = agmemread(dot.constData());
    if (!graph) {
        gvFreeContext(gvc);
        return false;
    }
    if (gvLayout(gvc, graph, "dot") != 0) {
        agclose(graph);
        gvFreeContext(gvc);
        return false;
    }
    const boxf bb = GD_bb(graph);
    const double top = bb.UR.y;
    auto toScene = [top](pointf p) { return QPointF(p.x, top - p.y); };
    out.nodes.assign(g.nodes.size(), QRectF());
    std::set<std::pair<int, int>> throughMemory;
    for (const auto& e : g.edges)
        if (e.throughMemory)
            throughMemory.insert({ e.from, e.to });
    for (Agnode_t* n = agfstnode(graph); n; n = agnxtnode(graph, n)) {
        const char* name = agnameof(n);
        const std::size_t index = std::size_t(std::strtoull(name + 1, nullptr, 10));
        if (index >= out.nodes.size())
            continue;
        const double w = ND_width(n) * 72.0;
        const double h = ND_height(n) * 72.0;
        const QPointF c = toScene(ND_coord(n));
        out.nodes[index] = QRectF(c.x() - w / 2, c.y() - h / 2, w, h);
        for (Agedge_t* e = agfstout(graph, n); e; e = agnxtout(graph, e)) {
            const splines* spl = ED_spl(e);
            if (!spl || spl->size < 1)
                continue;
            const bezier& bz = spl->list[0];
            if (bz.size < 1)
                continue;
            GraphLayout::Edge edge;
            edge.throughMemory =
                !throughMemory.empty() && throughMemory.count({ int(index), std::atoi(agnameof(aghead(e)) + 1) }) > 0;
            edge.path.moveTo(toScene(bz.list[0]));
            for (int i = 1; i + 2 < bz.size; i += 3)
                edge.path.cubicTo(toScene(bz.list[i]), toScene(bz.list[i + 1]), toScene(bz.list[i + 2]));
            const QPointF last = toScene(bz.list[bz.size - 1]);
            if (bz.eflag) {
                edge.arrowFrom = last;
                edge.arrowTo = toScene(bz.ep);
                edge.path.lineTo(edge.arrowTo);
            } else {
                edge.arrowFrom = bz.size > 1 ? toScene(bz.list[bz.size - 2]) : last;
                edge.arrowTo = last;
            }
            out.edges.push_back(std::move(edge));
        }
    }
    out.bounds = QRectF(bb.LL.x, 0, bb.UR.x - bb.LL.x, bb.UR.y - bb.LL.y);
    out.engine = QStringLiteral("dot");
    gvFreeLayout(gvc, graph);
    agclose(graph);
    gvFreeContext(gvc);
    return true;
}
#endif

} // namespace

GraphLayout layoutGraph(
    const GraphData& graph, const LayoutMetrics& metrics, int maxDotNodes, const std::atomic<bool>* cancel)
{
#ifdef PTELENS_HAVE_GRAPHVIZ
    // Graphviz cannot be interrupted: above the budget the layered layout answers in milliseconds instead.
    if (int(graph.nodes.size()) <= maxDotNodes && dotVirtualNodes(graph) <= kMaxDotVirtualNodes) {
        GraphLayout out;
        if (dotLayout(graph, metrics, out, cancel))
            return out;
    }
#else
    Q_UNUSED(maxDotNodes)
    Q_UNUSED(cancel)
#endif
    return layeredLayout(graph, metrics);
}

} // namespace pte::ui
