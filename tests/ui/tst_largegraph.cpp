// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// A generated 10k-node dump graph: laid out in the background (the event loop keeps running), collapsed by
// module path into groups that expand on request, and still usable uncollapsed.
#include "chaindump.h"
#include "document/snapshot.h"
#include "uifixtures.h"
#include "views/graphpanel.h"
#include "widgets/graphview.h"

#include <QCheckBox>
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

/** Runs the event loop until the panel is idle (the background layout delivered); whether it is. */
bool waitIdle(GraphPanel& panel)
{
    return QTest::qWaitFor([&] { return !panel.isBusy(); }, 120000);
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
        panel.setMethod(snap, QStringLiteral("forward"));
        // The layout runs in the background: setMethod returned before it was done, and the event loop delivers
        // it. How long the GUI thread may block is a speed target, measured by bench_workbench (LargeGraph*), not
        // asserted here.
        QVERIFY(panel.isBusy());
        QVERIFY(waitIdle(panel));

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
        QVERIFY(waitIdle(panel));
        QCOMPARE(int(panel.graph().nodes.size()), kBlocks + 2 - 1 + kNodes / kBlocks);
        QVERIFY(panel.graph().collapsed);
        panel.selectFor(-1, { QStringLiteral("n650") }, {});
        maybeSave(panel, "largegraph-expanded");
        const auto selected = panel.selectedNodes();
        QCOMPARE(selected.size(), std::size_t(1));
        QCOMPARE(panel.graph().nodes[std::size_t(selected.front())].members, QStringList { QStringLiteral("n650") });
        panel.collapseAllGroups();
        QVERIFY(waitIdle(panel));
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
        QVERIFY(waitIdle(panel));
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
        QVERIFY(waitIdle(panel));
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
        QVERIFY(waitIdle(panel));
        QCOMPARE(panel.expandedGroups().size(), 2);
        QCOMPARE(int(panel.graph().nodes.size()), collapsed - 2 + 22);
        panel.collapseAllGroups();
        QVERIFY(waitIdle(panel));
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
        panel.setMethod(snap, QStringLiteral("forward"));
        QVERIFY(panel.isBusy());
        QVERIFY(waitIdle(panel));
        QCOMPARE(panel.view()->nodeCount(), kNodes + 2);
        QVERIFY(!panel.graph().collapsed);
        // Select finds the node; the whole graph zoomed to fit paints (timings: bench_workbench LargeGraph*).
        panel.selectFor(-1, { QStringLiteral("n9000") }, {});
        QCOMPARE(panel.selectedNodes().size(), std::size_t(1));
        panel.view()->fitAll();
        panel.view()->viewport()->repaint();
        maybeSave(panel, "largegraph-uncollapsed");
    }
};

QTEST_MAIN(TestLargeGraph)
#include "tst_largegraph.moc"
