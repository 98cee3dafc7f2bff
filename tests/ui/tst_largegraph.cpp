// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// A generated 10k-node dump graph: laid out in the background (the event loop keeps running), collapsed by
// module path into groups that expand on request, and still usable uncollapsed.
#include "chaindump.h"
#include "document/snapshot.h"
#include "tickgapmeter.h"
#include "uifixtures.h"
#include "views/graphpanel.h"
#include "widgets/graphview.h"

#include <QCheckBox>
#include <QElapsedTimer>
#include <QLabel>
#include <QRegularExpression>
#include <QTest>

using namespace pte::ui;

namespace {
constexpr int kNodes = 10000;
constexpr int kBlocks = 50; ///< layers.0 .. layers.49, 200 nodes each

std::shared_ptr<Snapshot> makeLargeDump()
{
    auto snap = std::make_shared<Snapshot>();
    snap->dumpMethods.push_back(
        DumpMethod { "forward", "forward", "large.pt2", pte::test::makeChainDump(kNodes, kBlocks), {} });
    snap->finalize();
    return snap;
}

/** Saves the panel to $PTELENS_TEST_SCREENSHOTS/name.png when that is set (for looking at it). */
void maybeSave(QWidget& w, const char* name)
{
    const QString dir = qEnvironmentVariable("PTELENS_TEST_SCREENSHOTS");
    if (!dir.isEmpty())
        w.grab().save(dir + QLatin1Char('/') + QLatin1String(name) + QStringLiteral(".png"));
}

/** Runs the event loop until the panel is idle; returns the longest gap between 5 ms timer ticks. */
qint64 waitIdle(GraphPanel& panel, int* ticks)
{
    const pte::test::TickGapMeter meter;
    while (panel.isBusy() && meter.clock().elapsed() < 120000)
        QTest::qWait(5);
    *ticks = meter.ticks();
    return meter.longestGapMs();
}
} // namespace

class TestLargeGraph : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    // Every Qt warning fails the test (in init(): Qt 6.4 forgets the patterns after each test function), except
    // the offscreen platform's note that it cannot propagate size hints.
    void init() { fixtures::failOnQtWarnings(); }

    void laysOutInBackgroundAndCollapses()
    {
        const auto snap = makeLargeDump();
        GraphPanel panel;
        panel.resize(1200, 800);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        QElapsedTimer t;
        t.start();
        panel.setMethod(snap, QStringLiteral("forward"));
        QVERIFY(panel.isBusy());
        const qint64 setMethodMs = t.elapsed();
        int ticks = 0;
        const qint64 gap = waitIdle(panel, &ticks);
        qInfo("collapsed: setMethod returned after %lld ms, idle after %lld ms, %d ticks, longest gap %lld ms",
            setMethodMs, t.elapsed(), ticks, gap);
        QVERIFY(!panel.isBusy());
        // The layout ran in the background: the event loop kept turning while it was computed. How long the GUI
        // thread may block is a speed target, measured by bench_workbench (LargeGraph*), not asserted here.
        QVERIFY(ticks > 1);

        // Collapsed by module path: one group per block, plus the input and the output.
        const GraphData& g = panel.graph();
        QVERIFY(g.collapsed);
        QCOMPARE(g.originalNodeCount, kNodes + 2);
        QCOMPARE(int(g.nodes.size()), kBlocks + 2);
        QCOMPARE(panel.view()->nodeCount(), kBlocks + 2);
        int cluster = -1;
        for (std::size_t i = 0; i < g.nodes.size(); ++i)
            if (g.nodes[i].kind == GraphNode::Kind::Cluster && g.nodes[i].label == QStringLiteral("layers.3"))
                cluster = int(i);
        QVERIFY(cluster >= 0);
        QCOMPARE(g.nodes[std::size_t(cluster)].members.size(), kNodes / kBlocks);
        QCOMPARE(g.nodes[std::size_t(cluster)].members.front(), QStringLiteral("n600"));
        QVERIFY(panel.findChild<QLabel*>(QStringLiteral("graphStatus"))
                    ->text()
                    .contains(QStringLiteral("collapsed from 10002")));

        maybeSave(panel, "largegraph-collapsed");
        // Selecting a node inside a group selects the group.
        panel.selectFor(-1, { QStringLiteral("n650") }, {});
        QCOMPARE(panel.selectedNodes(), std::vector<int> { cluster });

        // Enter on the selected group expands it: its 200 nodes show; the rest stays collapsed.
        QTest::keyClick(panel.view(), Qt::Key_Return);
        QCOMPARE(panel.expandedGroups(), QSet<QString> { QStringLiteral("layers.3") });
        QVERIFY(panel.isBusy());
        waitIdle(panel, &ticks);
        QCOMPARE(int(panel.graph().nodes.size()), kBlocks + 2 - 1 + kNodes / kBlocks);
        QVERIFY(panel.graph().collapsed);
        panel.selectFor(-1, { QStringLiteral("n650") }, {});
        maybeSave(panel, "largegraph-expanded");
        const auto selected = panel.selectedNodes();
        QCOMPARE(selected.size(), std::size_t(1));
        QCOMPARE(panel.graph().nodes[std::size_t(selected.front())].members, QStringList { QStringLiteral("n650") });
        panel.collapseAllGroups();
        waitIdle(panel, &ticks);
        QCOMPARE(int(panel.graph().nodes.size()), kBlocks + 2);
    }

    void instructionGroupsExpand()
    {
        // A .pte without its dump: 3000 instructions collapse into ranges of 11 (the panel collapses above 600
        // nodes into at most 300 groups): 273 groups, the input value node and the output.
        const auto snap = pte::ui::fixtures::makeLargeSnapshot(3000);
        GraphPanel panel;
        panel.resize(1200, 800);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        panel.setMethod(snap, QStringLiteral("forward"));
        int ticks = 0;
        waitIdle(panel, &ticks);
        QVERIFY(panel.graph().instructionGraph);
        QVERIFY(panel.graph().collapsed);
        const int collapsed = int(panel.graph().nodes.size());
        QCOMPARE(collapsed, 275);
        panel.selectFor(12, {}, {});
        const auto group = panel.selectedNodes();
        QCOMPARE(group.size(), std::size_t(1));
        const GraphNode& g = panel.graph().nodes[std::size_t(group.front())];
        QCOMPARE(g.label, QStringLiteral("instructions 11–21"));
        QCOMPARE(g.members.size(), 11);

        // Enter expands the range: its eleven instructions replace the group.
        QTest::keyClick(panel.view(), Qt::Key_Return);
        QCOMPARE(panel.expandedGroups(), QSet<QString> { QStringLiteral("instructions 11–21") });
        waitIdle(panel, &ticks);
        QCOMPARE(int(panel.graph().nodes.size()), collapsed - 1 + 11);
        panel.selectFor(12, {}, {});
        const auto selected = panel.selectedNodes();
        QCOMPARE(selected.size(), std::size_t(1));
        QCOMPARE(panel.graph().nodes[std::size_t(selected.front())].instruction, 12);
        QCOMPARE(panel.graph().nodes[std::size_t(selected.front())].kind, GraphNode::Kind::Instruction);

        // Double-click (nodeActivated) on another group expands it too.
        int other = -1;
        for (std::size_t i = 0; i < panel.graph().nodes.size(); ++i)
            if (panel.graph().nodes[i].label == QStringLiteral("instructions 22–32"))
                other = int(i);
        QVERIFY(other >= 0);
        Q_EMIT panel.view()->nodeActivated(other);
        waitIdle(panel, &ticks);
        QCOMPARE(panel.expandedGroups().size(), 2);
        QCOMPARE(int(panel.graph().nodes.size()), collapsed - 2 + 22);
        panel.collapseAllGroups();
        waitIdle(panel, &ticks);
        QCOMPARE(int(panel.graph().nodes.size()), collapsed);
    }

    void staysResponsiveUncollapsed()
    {
        const auto snap = makeLargeDump();
        GraphPanel panel;
        panel.resize(1200, 800);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        panel.findChild<QCheckBox*>(QStringLiteral("graphCollapse"))->setChecked(false);
        QElapsedTimer t;
        t.start();
        panel.setMethod(snap, QStringLiteral("forward"));
        int ticks = 0;
        const qint64 gap = waitIdle(panel, &ticks);
        qInfo("uncollapsed: idle after %lld ms, %d ticks, longest gap %lld ms", t.elapsed(), ticks, gap);
        QCOMPARE(panel.view()->nodeCount(), kNodes + 2);
        QVERIFY(!panel.graph().collapsed);
        QVERIFY(ticks > 1);
        // Select finds the node; the whole graph zoomed to fit paints (timings: bench_workbench LargeGraph*).
        QElapsedTimer s;
        s.start();
        panel.selectFor(-1, { QStringLiteral("n9000") }, {});
        QCOMPARE(panel.selectedNodes().size(), std::size_t(1));
        const qint64 selectMs = s.elapsed();
        panel.view()->fitAll();
        s.restart();
        panel.view()->viewport()->repaint();
        const qint64 paintMs = s.elapsed();
        qInfo("select %lld ms, paint of the fitted graph %lld ms", selectMs, paintMs);
        maybeSave(panel, "largegraph-uncollapsed");
    }
};

QTEST_MAIN(TestLargeGraph)
#include "tst_largegraph.moc"
