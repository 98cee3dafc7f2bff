// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// Real XNNPACK profiles in the workbench: a corpus program with XNNPACK delegates runs on ExecuTorch's runtime with
// its XNNPACK backend (etrt_runner_xnnpack, three runs, --etdump) and the window opens the program with that ETDump.
// Every partition's events align exactly (three calls, every inner node timed three times), Inside Delegate shows
// each inner node's median, p10, p90, event name and "exact" for the real events, and the inner graph is coloured by
// those medians. An ETDump of another program is not aligned: no inner node gets a time, and Inside Delegate says
// why in the words the CLI uses. Skipped when the corpus or the runner is missing.
#include "document/delegateinspection.h"
#include "document/document.h"
#include "etrunner.h"
#include "mainwindow.h"
#include "models/innernodemodel.h"
#include "models/roles.h"
#include "testutils.h"
#include "uifixtures.h"
#include "views/delegatepayloadview.h"
#include "views/graphpanel.h"
#include "widgets/tableview.h"

#include <QFileInfo>
#include <QLabel>
#include <QProcess>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <map>
#include <numeric>

using namespace pte::ui;
using pte::ui::fixtures::cell;
using pte::ui::fixtures::waitFor;

Q_DECLARE_METATYPE(std::vector<std::size_t>)

namespace {

using namespace pte::test::xnnpackfixtures;

constexpr int kRuns = 3;

QString ms(double v) { return QString::number(v, 'f', 6); }

} // namespace

class TestXnnpackInsideDelegate : public QObject
{
    Q_OBJECT

    pte::test::CorpusXnnpackEtdumps m_etdumps { kRuns };

    QString etdumpOf(const QString& relative) { return m_etdumps.of(relative); }

    /** Opens `program` and `etdump` in `w` and waits until they are loaded and the graph is drawn. */
    static bool openInWindow(MainWindow& w, const QString& program, const QString& etdump)
    {
        QSignalSpy loaded(w.document(), &Document::loadFinished);
        QSignalSpy failed(w.document(), &Document::loadFailed);
        w.openFiles({ program, etdump });
        if (!fixtures::waitEither(loaded, failed, 120000) || !failed.isEmpty()) {
            qWarning("not loaded: %s", qPrintable(fixtures::failureText(failed)));
            return false;
        }
        auto* graph = w.findChild<GraphPanel*>(QStringLiteral("graphPanel"));
        return graph && waitFor([graph] { return !graph->isBusy(); }, 120000);
    }

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        qRegisterMetaType<std::vector<std::size_t>>();
    }
    void init() { fixtures::failOnQtWarnings(); }

    // Each partition of the program: three exact calls, Inside Delegate's time columns filled from the real events,
    // and the inner graph coloured by the inner nodes' medians (the slowest node at 1).
    void realEventsTimeEveryInnerNode_data()
    {
        QTest::addColumn<QString>("program");
        QTest::addColumn<std::vector<std::size_t>>("nodes");
        if (!pte::test::corpusRowsAvailable())
            return;
        QTest::newRow("corpus yolox_nano_xnnpack") << kYolox << std::vector<std::size_t> { 168, 29, 177, 2 };
        QTest::newRow("corpus stress_mlp") << kStressMlp << std::vector<std::size_t> { 2, 13 };
        QTest::newRow("corpus xnnpack_simpleconv") << kSimpleConv << std::vector<std::size_t> { 7 };
    }
    void realEventsTimeEveryInnerNode()
    {
        PTE_REQUIRE_CORPUS_ROW();
        PTE_REQUIRE_ET_RUNNER_XNNPACK();
        QFETCH(QString, program);
        QFETCH(std::vector<std::size_t>, nodes);
        const QString etdump = etdumpOf(program);
        QVERIFY(!etdump.isEmpty());

        MainWindow w;
        w.resize(1500, 950);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(openInWindow(w, pte::test::corpusPath(program), etdump));
        const auto snap = w.document()->snapshot();
        QVERIFY(snap && snap->profile && snap->delegates);
        QVERIFY(snap->profile->matches());
        const auto& times = snap->profile->delegateTimes;
        QVERIFY2(times.problem.empty(), times.problem.c_str());
        QCOMPARE(snap->delegates->delegates.size(), nodes.size());
        QCOMPARE(times.eventNode.size(), kRuns * std::accumulate(nodes.begin(), nodes.end(), std::size_t(0)));

        auto* inside = w.findChild<DelegatePayloadView*>();
        auto* graph = w.findChild<GraphPanel*>(QStringLiteral("graphPanel"));
        auto* format = w.findChild<QLabel*>(QStringLiteral("delegateFormat"));
        QVERIFY(inside && graph && format);
        for (int d = 0; d < int(nodes.size()); ++d) {
            const DelegateTiming* t = times.of(snap->delegates.get(), d);
            QVERIFY(t);
            QCOMPARE(t->calls, std::uint32_t(kRuns));
            QCOMPARE(t->quality, pte::AlignmentQuality::Exact);
            QVERIFY(t->notes.empty());
            QCOMPARE(t->unplacedEvents, 0u);
            QCOMPARE(t->runtimeEvents, 0u);
            QCOMPARE(t->nodes.size(), nodes[std::size_t(d)]);
            for (const auto& n : t->nodes) {
                QCOMPARE(n.durations.size(), std::size_t(kRuns)); // one event per run
                QCOMPARE(n.quality, std::optional(pte::AlignmentQuality::Exact));
                QVERIFY(!n.label.empty());
                QCOMPARE(n.rows.size(), std::size_t(1)); // its Profile row
            }

            // Inside Delegate: every inner node's times, event and alignment.
            inside->showDelegate(d);
            QCOMPARE(inside->currentDelegate(), d);
            QVERIFY2(format->text().contains(QStringLiteral("profile: 3 calls, alignment exact")),
                qPrintable(format->text()));
            const auto* table = inside->nodesTable();
            for (const int c : { InnerNodeModel::TimeColumn, InnerNodeModel::P10Column, InnerNodeModel::P90Column,
                     InnerNodeModel::EventColumn, InnerNodeModel::AlignmentColumn })
                QVERIFY(!table->isColumnHidden(c));
            const auto& model = *table->model();
            QCOMPARE(model.rowCount(), int(nodes[std::size_t(d)]));
            for (int r = 0; r < model.rowCount(); ++r) {
                const auto& n = t->nodes[std::size_t(r)];
                QCOMPARE(cell(model, r, InnerNodeModel::TimeColumn), ms(n.p50));
                QCOMPARE(cell(model, r, InnerNodeModel::P10Column), ms(n.p10));
                QCOMPARE(cell(model, r, InnerNodeModel::P90Column), ms(n.p90));
                QCOMPARE(cell(model, r, InnerNodeModel::EventColumn), QString::fromStdString(n.label));
                QCOMPARE(cell(model, r, InnerNodeModel::AlignmentColumn), QStringLiteral("exact"));
            }

            // The inner graph: every inner node measured, coloured by its median relative to the slowest.
            graph->openDelegate(d);
            QVERIFY(waitFor([graph, d] { return !graph->isBusy() && graph->openedDelegate() == d; }));
            QCOMPARE(graph->colouring(), GraphPanel::Colouring::Time);
            const auto& heat = graph->heat();
            QCOMPARE(heat.size(), graph->graph().nodes.size());
            double hottest = 0;
            for (const auto& n : t->nodes)
                hottest = std::max(hottest, n.p50);
            std::size_t measured = 0;
            for (std::size_t i = 0; i < heat.size(); ++i) {
                const int inner = graph->graph().nodes[i].innerNode;
                if (inner < 0) {
                    QCOMPARE(heat[i], -1.0); // inputs, constants, outputs: not measured
                    continue;
                }
                ++measured;
                const double expected = hottest > 0 ? t->nodes[std::size_t(inner)].p50 / hottest : 0.0;
                QVERIFY2(std::abs(heat[i] - expected) < 1e-12,
                    qPrintable(
                        QStringLiteral("inner node %1: heat %2, expected %3").arg(inner).arg(heat[i]).arg(expected)));
            }
            QCOMPARE(measured, nodes[std::size_t(d)]);
            QVERIFY(std::find(heat.begin(), heat.end(), 1.0) != heat.end() || hottest == 0);
            graph->closeDelegate();
            QVERIFY(waitFor([graph] { return !graph->isBusy() && graph->openedDelegate() < 0; }));
        }
    }

    // Another program's ETDump: the join refuses its blocks, no inner node gets a time (before, Inside Delegate showed
    // simple-torch-model's times on simpleconv's nodes as "failed"), and the dock says why in the CLI's sentence.
    void anotherProgramsEtdumpIsNotAligned_data()
    {
        QTest::addColumn<QString>("recorded");
        QTest::addColumn<QString>("program");
        QTest::addColumn<QString>("reason");
        if (!pte::test::corpusRowsAvailable())
            return;
        QTest::newRow("corpus simple-torch-model's over simpleconv")
            << kSimpleModel << kSimpleConv
            << "this ETDump was recorded from another program: 1 instructions expected, 2 found";
        QTest::newRow("corpus simpleconv's over stress_mlp")
            << kSimpleConv << kStressMlp
            << "this ETDump was recorded from another program: delegate event 'Transpose (ND, X32) #1' at instruction "
               "0, which is a KernelCall dim_order_ops::_to_dim_order_copy.out in method 'forward'";
    }
    void anotherProgramsEtdumpIsNotAligned()
    {
        PTE_REQUIRE_CORPUS_ROW();
        PTE_REQUIRE_ET_RUNNER_XNNPACK();
        QFETCH(QString, recorded);
        QFETCH(QString, program);
        QFETCH(QString, reason);
        const QString etdump = etdumpOf(recorded);
        QVERIFY(!etdump.isEmpty());

        MainWindow w;
        w.resize(1500, 950);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(openInWindow(w, pte::test::corpusPath(program), etdump));
        const auto snap = w.document()->snapshot();
        QVERIFY(snap && snap->profile && snap->delegates);
        QVERIFY(!snap->profile->matches());
        const auto& times = snap->profile->delegateTimes;
        QCOMPARE(QString::fromStdString(times.problem), reason);
        QVERIFY(times.eventNode.empty());
        auto* inside = w.findChild<DelegatePayloadView*>();
        auto* format = w.findChild<QLabel*>(QStringLiteral("delegateFormat"));
        auto* graph = w.findChild<GraphPanel*>(QStringLiteral("graphPanel"));
        QVERIFY(inside && format && graph);
        for (int d = 0; d < int(snap->delegates->delegates.size()); ++d) {
            QVERIFY(!times.of(snap->delegates.get(), d));
            inside->showDelegate(d);
            QVERIFY2(format->text().endsWith(QStringLiteral(" · profile not aligned: ") + reason),
                qPrintable(format->text()));
            QVERIFY(format->toolTip().contains(reason));
            QVERIFY(inside->nodesTable()->isColumnHidden(InnerNodeModel::TimeColumn));
            QVERIFY(inside->nodesTable()->isColumnHidden(InnerNodeModel::AlignmentColumn));
            QVERIFY(cell(*inside->nodesTable()->model(), 0, InnerNodeModel::TimeColumn).isEmpty());
            graph->openDelegate(d);
            QVERIFY(waitFor([graph, d] { return !graph->isBusy() && graph->openedDelegate() == d; }));
            const auto& heat = graph->heat();
            QVERIFY(std::all_of(heat.begin(), heat.end(), [](double h) { return h < 0; }));
            graph->closeDelegate();
            QVERIFY(waitFor([graph] { return !graph->isBusy() && graph->openedDelegate() < 0; }));
        }
    }
};

QTEST_MAIN(TestXnnpackInsideDelegate)
#include "tst_corpus_xnnpack_insidedelegate.moc"
