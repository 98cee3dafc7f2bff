// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "models/graphbuilder.h"
#include "testutils.h"
#include "uifixtures.h"
#include "views/graphpanel.h"
#include "widgets/graphlayouter.h"
#include "widgets/graphview.h"

#include <QRegularExpression>
#include <QSignalSpy>
#include <QTest>

#include <algorithm>

using namespace pte::ui;

class TestGraphBuilder : public QObject
{
    Q_OBJECT
private:
    static int find(const GraphData& g, const QString& label)
    {
        for (std::size_t i = 0; i < g.nodes.size(); ++i)
            if (g.nodes[i].label == label || g.nodes[i].members.contains(label))
                return int(i);
        return -1;
    }
    static bool hasEdge(const GraphData& g, int from, int to)
    {
        for (const auto& e : g.edges)
            if (e.from == from && e.to == to)
                return true;
        return false;
    }

private Q_SLOTS:
    void init() { fixtures::failOnQtWarnings(); }

    void parsesModuleStacks()
    {
        QCOMPARE(modulePaths("L__self__,,M;L__self__lin,lin,torch.nn.Linear"), QStringList { QStringLiteral("lin") });
        QCOMPARE(modulePaths("a,layers.0,T;b,layers.0.f(x, y),U"),
            (QStringList { QStringLiteral("layers.0"), QStringLiteral("layers.0.f(x, y)") }));
        QVERIFY(modulePaths("").isEmpty());
    }

    void buildsDumpGraph()
    {
        const auto snap = fixtures::makeSnapshot();
        const GraphData g = buildGraph(*snap, QStringLiteral("forward"));
        QVERIFY(!g.instructionGraph);
        QVERIFY(!g.collapsed);
        const int x = find(g, QStringLiteral("x"));
        const int w = find(g, QStringLiteral("w"));
        const int add = find(g, QStringLiteral("add"));
        const int mul = find(g, QStringLiteral("mul"));
        const int out = find(g, QStringLiteral("output"));
        QVERIFY(x >= 0 && w >= 0 && add >= 0 && mul >= 0 && out >= 0);
        QCOMPARE(g.nodes[std::size_t(x)].kind, GraphNode::Kind::Input);
        QCOMPARE(g.nodes[std::size_t(w)].kind, GraphNode::Kind::Constant);
        QVERIFY(hasEdge(g, x, add));
        QVERIFY(hasEdge(g, w, add));
        QVERIFY(hasEdge(g, add, mul));
        QVERIFY(hasEdge(g, mul, out));
        const GraphNode& a = g.nodes[std::size_t(add)];
        QCOMPARE(a.debugHandles, (std::vector<std::int64_t> { 1 }));
        QCOMPARE(a.modulePath, QStringLiteral("lin"));
        QVERIFY(a.details.contains(QStringLiteral("aten::add.Tensor")));
        QVERIFY(a.details.contains(QStringLiteral("model.py")));
        QVERIFY(a.details.contains(QStringLiteral("Debug handle: 1")));
        QVERIFY(a.details.contains(QStringLiteral("add: f32[2, 3]")));
    }

    void buildsInstructionGraph()
    {
        auto snap = std::make_shared<Snapshot>();
        snap->program = fixtures::makeProgram();
        snap->finalize();
        const GraphData g = buildGraph(*snap, QStringLiteral("forward"));
        QVERIFY(g.instructionGraph);
        // input, 4 instructions, output
        QCOMPARE(g.nodes.size(), std::size_t(6));
        int add = -1, del = -1, mul = -1, input = -1, output = -1;
        for (std::size_t i = 0; i < g.nodes.size(); ++i) {
            if (g.nodes[i].instruction == 0)
                add = int(i);
            if (g.nodes[i].instruction == 1)
                del = int(i);
            if (g.nodes[i].instruction == 2)
                mul = int(i);
            if (g.nodes[i].kind == GraphNode::Kind::Input)
                input = int(i);
            if (g.nodes[i].kind == GraphNode::Kind::Output)
                output = int(i);
        }
        QCOMPARE(g.nodes[std::size_t(del)].label, QStringLiteral("XnnpackBackend"));
        QVERIFY(hasEdge(g, input, add));
        QVERIFY(hasEdge(g, add, del));
        QVERIFY(hasEdge(g, del, mul));
        QVERIFY(hasEdge(g, mul, output));
    }

    /**
     * A value read through memory another value wrote (an elided view: same planned bytes, never written under its
     * own id) gets its edge from that writer, marked as through memory (issue #16: stress_mlp's clamp -> index_select).
     */
    void instructionGraphFollowsSharedMemory()
    {
        using fixtures::tensorValue;
        auto p = std::make_shared<pte::Program>();
        pte::ExecutionPlan f;
        f.name = "forward";
        f.values = { tensorValue(pte::ScalarType::Float, { 2, 3 }, 0, std::pair(1u, 0u)),
            tensorValue(pte::ScalarType::Float, { 2, 3 }, 0, std::pair(1u, 32u)),
            tensorValue(pte::ScalarType::Float, { 6 }, 0, std::pair(1u, 32u)), // a view of %1
            tensorValue(pte::ScalarType::Float, { 6 }, 0, std::pair(1u, 64u)) };
        f.inputs = { 0 };
        f.outputs = { 3 };
        pte::Chain chain;
        chain.instructions = { fixtures::kernel(0, { 0, 1, 1 }), fixtures::kernel(0, { 2, 3, 3 }) };
        f.chains.push_back(chain);
        f.operators = { pte::Operator { "aten::relu", "out" } };
        p->executionPlan.push_back(f);
        auto snap = std::make_shared<Snapshot>();
        snap->program = p;
        snap->finalize();
        const GraphData g = buildGraph(*snap, QStringLiteral("forward"));
        int first = -1, second = -1, input = -1, output = -1;
        for (std::size_t i = 0; i < g.nodes.size(); ++i) {
            if (g.nodes[i].instruction == 0)
                first = int(i);
            if (g.nodes[i].instruction == 1)
                second = int(i);
            if (g.nodes[i].kind == GraphNode::Kind::Input)
                input = int(i);
            if (g.nodes[i].kind == GraphNode::Kind::Output)
                output = int(i);
        }
        auto edge = [&](int from, int to) -> const GraphEdge* {
            for (const auto& e : g.edges)
                if (e.from == from && e.to == to)
                    return &e;
            return nullptr;
        };
        QVERIFY(edge(input, first) && !edge(input, first)->throughMemory);
        QVERIFY2(edge(first, second), "no edge through the shared memory");
        QVERIFY(edge(first, second)->throughMemory);
        QVERIFY(edge(second, output) && !edge(second, output)->throughMemory);
        // Names from the schema in the details.
        QVERIFY(g.nodes[std::size_t(second)].details.contains(QStringLiteral("self: %2")));
        // The layout keeps the mark for the view to draw.
        const GraphLayout layout = layoutGraph(g, LayoutMetrics {});
        QCOMPARE(std::count_if(layout.edges.begin(), layout.edges.end(),
                     [](const GraphLayout::Edge& e) { return e.throughMemory; }),
            1);
    }

    /** A dump without debug handles: a node's details show the handle and the instruction emission gave it. */
    void dumpNodesShowEmittedHandles()
    {
        auto snap = fixtures::makeSnapshot();
        auto ep = std::make_shared<pte::ExportedProgram>(*snap->dumpMethods.front().program);
        for (auto& n : ep->graph.nodes) {
            n.debugHandles.clear();
            n.metadata.erase("debug_handle");
        }
        snap->dumpMethods.front().program = ep;
        snap->finalize();
        const GraphData g = buildGraph(*snap, QStringLiteral("forward"));
        const GraphNode& add = g.nodes[std::size_t(find(g, QStringLiteral("add")))];
        QCOMPARE(add.debugHandles, (std::vector<std::int64_t> { 1 }));
        QVERIFY2(
            add.details.contains(QStringLiteral("Debug handle: 1 (numbered by emission")), qPrintable(add.details));
        QVERIFY2(add.details.contains(QStringLiteral("Instructions: 0\n")), qPrintable(add.details));
    }

    void collapsesLargeGraphs()
    {
        const auto snap = fixtures::makeLargeSnapshot(5000);
        const GraphData g = buildGraph(*snap, QStringLiteral("forward"), 200);
        QVERIFY(g.collapsed);
        QVERIFY(g.nodes.size() <= 200);
        QCOMPARE(g.originalNodeCount, 5002);
        bool cluster = false;
        for (const auto& n : g.nodes)
            if (n.kind == GraphNode::Kind::Cluster) {
                cluster = true;
                QVERIFY(n.firstInstruction >= 0 && n.lastInstruction >= n.firstInstruction);
            }
        QVERIFY(cluster);
        // Dump graphs collapse by module path.
        const auto small = fixtures::makeSnapshot();
        const GraphData d = buildGraph(*small, QStringLiteral("forward"), 5);
        QVERIFY(d.collapsed);
        QVERIFY(find(d, QStringLiteral("lin")) >= 0);
    }

    void laysOutWithGraphviz()
    {
        const auto snap = fixtures::makeSnapshot();
        const GraphData g = buildGraph(*snap, QStringLiteral("forward"));
        const GraphLayout layout = layoutGraph(g, LayoutMetrics {});
        QCOMPARE(layout.nodes.size(), g.nodes.size());
        QCOMPARE(layout.edges.size(), g.edges.size());
        for (const auto& r : layout.nodes)
            QVERIFY(r.isValid());
        QVERIFY(layout.bounds.contains(layout.nodes.front().center()));
        // Edges flow downwards (rankdir TB): x is above add.
        const int x = find(g, QStringLiteral("x"));
        const int add = find(g, QStringLiteral("add"));
        QVERIFY(layout.nodes[std::size_t(x)].center().y() < layout.nodes[std::size_t(add)].center().y());
        // The fallback layered layout too.
        const GraphLayout layered = layoutGraph(g, LayoutMetrics {}, 0);
        QCOMPARE(layered.engine, QStringLiteral("layered"));
        QCOMPARE(layered.nodes.size(), g.nodes.size());
    }

    void panelLaysOutInBackgroundAndSelects()
    {
        GraphPanel panel;
        QSignalSpy done(&panel, &GraphPanel::layoutFinished);
        const auto snap = fixtures::makeSnapshot();
        panel.setMethod(snap, QStringLiteral("forward"));
        panel.setMethod(snap, QStringLiteral("forward")); // supersedes the first request
        QVERIFY(done.wait(20000));
        QTRY_VERIFY(!panel.isBusy());
        QCOMPARE(done.count(), 1);
        QCOMPARE(panel.view()->nodeCount(), int(panel.graph().nodes.size()));
        panel.selectFor(1, { QStringLiteral("mul") }, {});
        const auto selected = panel.selectedNodes();
        QCOMPARE(selected.size(), std::size_t(1));
        QCOMPARE(panel.graph().nodes[std::size_t(selected.front())].subtitle, QStringLiteral("mul"));
        auto* details = panel.findChild<QWidget*>(QStringLiteral("nodeDetails"));
        QVERIFY(details);
    }
};

QTEST_MAIN(TestGraphBuilder)
#include "tst_graphbuilder.moc"
