// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// The Diff window: two programs written with ptelens' writer, compared in the background; aligned tables that scroll
// and select together, graphs coloured by change, differences that navigate, strict mode; File > Compare with….
#include "mainwindow.h"
#include "models/differencemodel.h"
#include "models/diffinstructionmodel.h"
#include "models/diffstatus.h"
#include "pte/ptewriter.h"
#include "pte/syntheticprogram.h"
#include "testutils.h"
#include "uifixtures.h"
#include "views/diffwindow.h"
#include "views/graphpanel.h"
#include "widgets/graphview.h"

#include <QAction>
#include <QCheckBox>
#include <QLabel>
#include <QScrollBar>
#include <QSignalSpy>
#include <QTableView>
#include <QTest>

using namespace pte::ui;

namespace {

QString tmp(const QString& name) { return pte::test::tempDir() + QLatin1Char('/') + name; }

/** fixtures::makeProgram() with an add inserted at 1 and %4 made f16 (used by the delegate call and the mul). */
pte::Program editedProgram()
{
    pte::Program p = *fixtures::makeProgram();
    auto& forward = p.executionPlan.front();
    auto& ins = forward.chains.front().instructions;
    ins.insert(ins.begin() + 1, fixtures::kernel(0, { 0, 1, 3, 2, 2 }));
    std::get<pte::Tensor>(forward.values[4].val).scalarType = pte::ScalarType::Half;
    return p;
}

/** Processes events until pred() holds (the timeout only ends a wait that would never end). */
template <typename Pred> bool waitUntil(Pred pred, int timeoutMs = 60000) { return QTest::qWaitFor(pred, timeoutMs); }

bool waitShown(DiffWindow& w)
{
    return waitUntil([&] { return w.comparison()->result() && w.isIdle(); });
}

} // namespace

class TestDiffWindow : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY_RESULT(pte::writePte(*fixtures::makeProgram(), tmp(QStringLiteral("a.pte")).toStdString()));
        QVERIFY_RESULT(pte::writePte(editedProgram(), tmp(QStringLiteral("b.pte")).toStdString()));
    }
    void init() { fixtures::failOnQtWarnings(); }

    /** 10,000 instructions inserted are 10,000 instructions in the summary (one entry of the diff); the "#" column has
     *  room for the last rows' ids, which the column sizing (the first rows) does not see. */
    void countsInstructionsAndShowsLongIds()
    {
        pte::SyntheticOptions small;
        small.instructions = 20;
        pte::SyntheticOptions large;
        large.instructions = 10020;
        auto a = pte::makeSyntheticProgram(small);
        auto b = pte::makeSyntheticProgram(large);
        QVERIFY_RESULT(a);
        QVERIFY_RESULT(b);
        QVERIFY_RESULT(pte::writePte(*a, tmp(QStringLiteral("small.pte")).toStdString()));
        QVERIFY_RESULT(pte::writePte(*b, tmp(QStringLiteral("large.pte")).toStdString()));
        DiffWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.compareFiles(tmp(QStringLiteral("small.pte")), tmp(QStringLiteral("large.pte")));
        QVERIFY(waitShown(w));
        const QString summary = w.summaryText();
        QVERIFY2(summary.startsWith(QStringLiteral("Different (semantic comparison): 100")), qPrintable(summary));
        QVERIFY2(
            summary.section(QLatin1Char('\n'), 0, 0).contains(QStringLiteral(" instructions")), qPrintable(summary));
        QTableView* table = w.tableB();
        const int rows = table->model()->rowCount();
        QVERIFY(rows >= 10020);
        const QString lastId = table->model()->index(rows - 1, DiffInstructionModel::IdColumn).data().toString();
        QVERIFY(lastId.size() >= 5);
        QVERIFY2(table->columnWidth(DiffInstructionModel::IdColumn) > table->fontMetrics().horizontalAdvance(lastId),
            qPrintable(lastId));
    }

    void comparesTwoFiles()
    {
        DiffWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QSignalSpy shown(&w, &DiffWindow::comparisonShown);
        w.compareFiles(tmp(QStringLiteral("a.pte")), tmp(QStringLiteral("b.pte")));
        QVERIFY(waitShown(w));
        QCOMPARE(shown.count(), 1);
        // Counted as a user counts them: the instructions that differ one by one (2 changed, 1 inserted), not the
        // diff's entries.
        QVERIFY2(w.summaryText().startsWith(QStringLiteral("Different (semantic comparison): 3 instructions, 1 value")),
            qPrintable(w.summaryText()));
        QVERIFY(w.summaryText().contains(
            QStringLiteral("forward: 4 \u2192 5 instructions, 2 same, 2 changed, 1 inserted")));
        QCOMPARE(w.tableA()->model()->rowCount(), 5);
        QCOMPARE(w.tableB()->model()->rowCount(), 5);
        QCOMPARE(w.findChild<QLabel*>(QStringLiteral("diffLabelA"))->text(), QStringLiteral("<b>A</b> a.pte"));
        // The window opens on the first row that differs: the inserted one, selected on both sides.
        QCOMPARE(w.tableA()->selectionModel()->selectedRows().size(), 1);
        QCOMPARE(w.tableA()->selectionModel()->selectedRows().front().row(), 1);
        QCOMPARE(w.tableB()->selectionModel()->selectedRows().front().row(), 1);
    }

    void statusColumnStaysInView()
    {
        // In a narrow window the Arguments column gives way (down to 24 characters) so that Status is visible.
        DiffWindow w;
        w.resize(900, 700);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.compareFiles(tmp(QStringLiteral("a.pte")), tmp(QStringLiteral("b.pte")));
        QVERIFY(waitShown(w));
        for (QTableView* t : { w.tableA(), w.tableB() }) {
            const int least = t->fontMetrics().averageCharWidth() * 24;
            const int arguments = t->columnWidth(DiffInstructionModel::ArgumentsColumn);
            const int statusLeft = t->columnViewportPosition(DiffInstructionModel::StatusColumn);
            QVERIFY2(arguments == least
                    || statusLeft + t->fontMetrics().horizontalAdvance(QStringLiteral("changed"))
                        <= t->viewport()->width(),
                qPrintable(QStringLiteral("arguments %1, status at %2 of %3")
                               .arg(arguments)
                               .arg(statusLeft)
                               .arg(t->viewport()->width())));
        }
    }

    void selectionAndGraphsFollow()
    {
        DiffWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.compareFiles(tmp(QStringLiteral("a.pte")), tmp(QStringLiteral("b.pte")));
        QVERIFY(waitShown(w));
        // Selecting row 3 in B selects row 3 in A, and instruction 2 (A) / 3 (B) in the graphs.
        w.tableB()->selectRow(3);
        QCOMPARE(w.tableA()->selectionModel()->selectedRows().front().row(), 3);
        auto nodeOf = [](GraphPanel* g, int instruction) {
            for (std::size_t i = 0; i < g->graph().nodes.size(); ++i)
                if (g->graph().nodes[i].instruction == instruction)
                    return int(i);
            return -1;
        };
        QVERIFY(waitUntil([&] { return !w.graphA()->isBusy() && !w.graphB()->isBusy(); }));
        const int nodeA = nodeOf(w.graphA(), 2);
        const int nodeB = nodeOf(w.graphB(), 3);
        QVERIFY(nodeA >= 0 && nodeB >= 0);
        QCOMPARE(w.graphA()->selectedNodes(), std::vector<int> { nodeA });
        QCOMPARE(w.graphB()->selectedNodes(), std::vector<int> { nodeB });
        // Graphs are coloured by change: the mul changed on both sides, the inserted add green in B, the first add
        // (same) keeps its colour.
        QCOMPARE(w.graphA()->view()->nodeFill(nodeA), diffStatusColor(pte::DiffStatus::Changed));
        QCOMPARE(w.graphB()->view()->nodeFill(nodeOf(w.graphB(), 1)), diffStatusColor(pte::DiffStatus::Added));
        QVERIFY(!w.graphA()->view()->nodeFill(nodeOf(w.graphA(), 0)).isValid());
        // Selecting a node selects its row.
        w.graphA()->view()->selectNodes({ nodeOf(w.graphA(), 0) });
        Q_EMIT w.graphA()->nodesSelected();
        QCOMPARE(w.tableA()->selectionModel()->selectedRows().front().row(), 0);
        QCOMPARE(w.tableB()->selectionModel()->selectedRows().front().row(), 0);
        // The tables scroll together.
        w.tableA()->verticalScrollBar()->setValue(w.tableA()->verticalScrollBar()->maximum());
        QCOMPARE(w.tableB()->verticalScrollBar()->value(), w.tableA()->verticalScrollBar()->value());
    }

    void differencesNavigate()
    {
        DiffWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.compareFiles(tmp(QStringLiteral("a.pte")), tmp(QStringLiteral("b.pte")));
        QVERIFY(waitShown(w));
        auto* model = w.differenceModel();
        QCOMPARE(model->rowCount(), 2);
        // The value difference goes to the first instruction that uses the value (the delegate call, row 2).
        QCOMPARE(model->difference(1)->field, std::string("scalar_type"));
        QVERIFY(w.activateDifference(1));
        QCOMPARE(w.tableA()->selectionModel()->selectedRows().front().row(), 2);
        QVERIFY(w.activateDifference(0));
        QCOMPARE(w.tableB()->selectionModel()->selectedRows().front().row(), 1);
        QVERIFY(!w.activateDifference(7));
    }

    void strictModeRecompares()
    {
        DiffWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.compareFiles(tmp(QStringLiteral("a.pte")), tmp(QStringLiteral("a.pte")));
        QVERIFY(waitShown(w));
        QVERIFY(w.summaryText().startsWith(QStringLiteral("Equal (semantic comparison)")));
        QSignalSpy shown(&w, &DiffWindow::comparisonShown);
        w.findChild<QCheckBox*>(QStringLiteral("diffStrict"))->setChecked(true);
        QVERIFY(waitUntil([&] { return shown.count() == 1 && w.isIdle(); }));
        QVERIFY(w.summaryText().startsWith(QStringLiteral("Equal (strict comparison)")));
    }

    void aFileThatCannotBeReadIsReported()
    {
        DiffWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QSignalSpy failed(w.comparison(), &Comparison::failed);
        w.compareFiles(tmp(QStringLiteral("a.pte")), tmp(QStringLiteral("missing.pte")));
        QVERIFY(waitUntil([&] { return !failed.isEmpty(); }));
        QVERIFY(failed.front().front().toString().contains(tmp(QStringLiteral("missing.pte"))));
        QVERIFY(w.summaryText().contains(QStringLiteral("The comparison failed")));
    }

    void mainWindowComparesTheOpenProgram()
    {
        MainWindow main;
        main.resize(1200, 800);
        main.show();
        QVERIFY(QTest::qWaitForWindowExposed(&main));
        auto* action = main.findChild<QAction*>(QStringLiteral("compareAction"));
        QVERIFY(action);
        QVERIFY(!action->isEnabled()); // nothing open yet
        QSignalSpy loaded(main.document(), &Document::loadFinished);
        main.openFiles({ tmp(QStringLiteral("a.pte")) });
        QVERIFY(waitUntil([&] { return !loaded.isEmpty() && !main.document()->isBusy(); }));
        QVERIFY(action->isEnabled());
        DiffWindow* w = main.compareWith(tmp(QStringLiteral("b.pte")));
        QVERIFY(w);
        QCOMPARE(main.diffWindow(), w);
        QVERIFY(waitShown(*w));
        QCOMPARE(w->comparison()->result()->diff->differences.size(), std::size_t(2));
        // A second comparison reuses the window.
        QCOMPARE(main.compareWith(tmp(QStringLiteral("a.pte"))), w);
        QVERIFY(waitUntil([&] { return w->isIdle() && w->comparison()->result()->diff->equal(); }));
    }
};

QTEST_MAIN(TestDiffWindow)
#include "tst_diffwindow.moc"
