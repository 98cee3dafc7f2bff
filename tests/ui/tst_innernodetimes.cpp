// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// An ETDump over a program with an XNNPACK delegate: its operator events aligned to the inner nodes once, with the
// rest of the profile (document/delegatetimes.h), shown as time and alignment columns of the inner-node table, as
// colours of the drill-down graph, and as selections between the Profile view and the Inside Delegate dock. The
// program is the synthetic 7-node payload (FC, Add, Clamp, Conv2d, StaticTranspose, Convert, FC) and the ETDumps are
// written here: every node has its event (exact), the Clamp fused away (approximate), an operator the graph lacks
// (failed). Three runs; event k of run r lasts (k + 1) * (r + 1) ms, so node k's median is 2 (k + 1) ms, its p10
// 1.2 (k + 1) and its p90 2.8 (k + 1) (numpy's linear interpolation over 1, 2, 3 times k + 1).
#include "document/delegateinspection.h"
#include "document/document.h"
#include "etdumptestutils.h"
#include "mainwindow.h"
#include "models/innernodemodel.h"
#include "models/profilemodel.h"
#include "models/roles.h"
#include "pte/delegatesynth.h"
#include "pte/etdumpwriter.h"
#include "pte/mappedfile.h"
#include "pte/ptewriter.h"
#include "testutils.h"
#include "uifixtures.h"
#include "views/delegatepayloadview.h"
#include "views/graphpanel.h"
#include "views/profileview.h"
#include "widgets/graphview.h"
#include "widgets/tableview.h"

#include <QLabel>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTest>

using namespace pte::ui;
using pte::ui::fixtures::cell;
using pte::ui::fixtures::waitFor;

namespace {

const QStringList kAllLabels { "Fully Connected (NC, F32) GEMM #1", "Add (ND) #1", "Clamp (NC, F32) #1",
    "Convolution (NHWC, F32) IGEMM #1", "Transpose (ND, X32) #1", "Convert (NC, F32, QS8) #1",
    "Fully Connected (NC, F32) GEMM #2" };

/** An ETDump of `runs` executions of the synthetic program's delegate call, one event per label. */
pte::Result<std::shared_ptr<const pte::EtDump>> writeEtdump(const QStringList& labels, const QString& path)
{
    pte::test::EtdumpBuilder dump;
    for (std::uint32_t r = 0; r < 3; ++r) {
        dump.block("Execute");
        std::uint64_t tick = 1000000000;
        for (int k = 0; k < labels.size(); ++k) {
            const std::uint64_t end = tick + std::uint64_t(k + 1) * (r + 1) * 1000000; // ns: (k + 1) * (r + 1) ms
            dump.delegateStr(labels[k].toStdString(), 0, 0, tick, end);
            tick = end;
        }
        dump.profile("DELEGATE_CALL", 0, 0, 1000000000, tick); // the delegate call's own event: not a delegate event
    }
    PTE_TRY(const auto bytes, pte::serializeEtdump(dump.model()));
    PTE_CHECK(pte::writeFileAtomically(path.toStdString(), bytes));
    return pte::readEtdumpFile(path.toStdString());
}

/** The cases: labels, the alignment quality, and per event of a run its node (-1: unplaced, not checked after). */
void addCases()
{
    QTest::addColumn<QStringList>("labels");
    QTest::addColumn<QString>("quality");
    QTest::addColumn<std::vector<int>>("nodes");
    QTest::addRow("exact") << kAllLabels << "exact" << std::vector<int> { 0, 1, 2, 3, 4, 5, 6 };
    QStringList fused = kAllLabels;
    fused.removeAt(2);
    QTest::addRow("approximate") << fused << "approximate" << std::vector<int> { 0, 1, 3, 4, 5, 6 };
    QStringList foreign = kAllLabels;
    foreign[3] = "Softmax (NC, F32) #1";
    QTest::addRow("failed") << foreign << "failed" << std::vector<int> { 0, 1, 2, -1 };
}

QString ms(double v) { return QString::number(v, 'f', 6); }

/** The Profile table row of the event named `label`, or -1. */
int rowNamed(const pte::ProfileTable& table, const QString& label)
{
    for (std::size_t r = 0; r < table.rows.size(); ++r)
        if (table.rows[r].eventName == label.toStdString())
            return int(r);
    return -1;
}

} // namespace

class TestInnerNodeTimes : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
    void init() { fixtures::failOnQtWarnings(); }

    void alignedOnceWithTheProfile_data() { addCases(); }
    void alignedOnceWithTheProfile()
    {
        QFETCH(QStringList, labels);
        QFETCH(QString, quality);
        QFETCH(std::vector<int>, nodes);
        auto snap = std::make_shared<Snapshot>();
        snap->program =
            std::make_shared<pte::Program>(pte::makeSingleDelegateProgram(pte::makeSyntheticXnnpackPayload(7)));
        snap->finalize();
        snap->delegates = inspectDelegates(delegateInputsOf(*snap));
        auto dump =
            writeEtdump(labels, pte::test::tempDir() + QStringLiteral("/model-%1.etdp").arg(QTest::currentDataTag()));
        QVERIFY_RESULT(dump);
        snap->profile = buildProfileData(*dump, *snap);
        const auto& times = snap->profile->delegateTimes;
        QVERIFY(times.inspection == snap->delegates);
        const DelegateTiming* t = times.of(snap->delegates.get(), 0);
        QVERIFY(t);
        QCOMPARE(t->calls, 3u);
        QCOMPARE(QLatin1String(pte::alignmentQualityName(t->quality)), quality);
        QVERIFY(!times.of(nullptr, 0));
        QVERIFY(!times.of(snap->delegates.get(), 1));

        InnerNodeModel model;
        fixtures::attachModelTester(&model);
        model.setDelegate(snap, 0);
        QCOMPARE(model.timing(), t);
        QCOMPARE(
            model.headerData(InnerNodeModel::TimeColumn, Qt::Horizontal).toString(), QStringLiteral("Median (ms)"));
        for (std::size_t k = 0; k < nodes.size(); ++k) {
            const int node = nodes[k];
            if (node < 0)
                break; // after a failure the pairing of the rest is not fixed
            const double scale = double(k + 1); // event k lasts (k + 1), 2 (k + 1), 3 (k + 1) ms
            QCOMPARE(cell(model, node, InnerNodeModel::TimeColumn), ms(2 * scale));
            QCOMPARE(cell(model, node, InnerNodeModel::P10Column), ms(1.2 * scale));
            QCOMPARE(cell(model, node, InnerNodeModel::P90Column), ms(2.8 * scale));
            QCOMPARE(cell(model, node, InnerNodeModel::EventColumn), labels[qsizetype(k)]);
            QCOMPARE(cell(model, node, InnerNodeModel::AlignmentColumn), quality);
            QCOMPARE(model.index(node, InnerNodeModel::TimeColumn).data(SortRole).toDouble(), 2 * scale);
            // The event's Profile row leads to the node and back.
            const int row = rowNamed(snap->profile->table, labels[qsizetype(k)]);
            QVERIFY(row >= 0);
            QCOMPARE(times.nodeOfRow(snap->profile->table.rows[std::size_t(row)]),
                std::optional(std::make_pair(0, std::uint32_t(node))));
            QCOMPARE(t->nodes[std::size_t(node)].rows, std::vector<std::uint32_t> { std::uint32_t(row) });
        }
        const QString tip = cell(model, 0, InnerNodeModel::AlignmentColumn, Qt::ToolTipRole);
        if (quality == QLatin1String("exact")) {
            QVERIFY2(tip.startsWith(QStringLiteral("Exact: one event per inner node")), qPrintable(tip));
        } else if (quality == QLatin1String("approximate")) {
            // The Clamp got no event: no time, and the tooltip says it was fused away.
            QVERIFY(cell(model, 2, InnerNodeModel::TimeColumn).isEmpty());
            QCOMPARE(cell(model, 2, InnerNodeModel::AlignmentColumn), quality);
            QVERIFY2(cell(model, 2, InnerNodeModel::AlignmentColumn, Qt::ToolTipRole)
                         .contains(QStringLiteral("No event in 3 calls: fused away")),
                qPrintable(cell(model, 2, InnerNodeModel::AlignmentColumn, Qt::ToolTipRole)));
        } else {
            QVERIFY2(tip.contains(QStringLiteral("'Softmax (NC, F32) #1' matches no")), qPrintable(tip));
            QCOMPARE(times.nodeOfRow(snap->profile->table.rows[std::size_t(
                         rowNamed(snap->profile->table, QStringLiteral("Softmax (NC, F32) #1")))]),
                std::nullopt);
        }
        // Not a delegate event: no node.
        const int call = rowNamed(snap->profile->table, QStringLiteral("DELEGATE_CALL"));
        QVERIFY(call >= 0);
        QCOMPARE(times.nodeOfRow(snap->profile->table.rows[std::size_t(call)]), std::nullopt);
        // Without a profile the time cells are empty.
        auto plain = std::make_shared<Snapshot>(*snap);
        plain->profile.reset();
        model.setDelegate(plain, 0);
        QVERIFY(!model.timing());
        QVERIFY(cell(model, 0, InnerNodeModel::TimeColumn).isEmpty());
        QVERIFY(cell(model, 0, InnerNodeModel::AlignmentColumn).isEmpty());
    }

    // The window with the program and its ETDump: the time columns show, the drill-down graph is coloured by the
    // inner nodes' times, and selections go from a Profile event to its inner node and back.
    void windowSelectsBetweenEventsAndInnerNodes_data() { addCases(); }
    void windowSelectsBetweenEventsAndInnerNodes()
    {
        QFETCH(QStringList, labels);
        QFETCH(QString, quality);
        QFETCH(std::vector<int>, nodes);
        const QString tag = QString::fromLatin1(QTest::currentDataTag());
        const QString program = pte::test::tempDir() + QStringLiteral("/window-%1.pte").arg(tag);
        QVERIFY_RESULT(
            pte::writePte(pte::makeSingleDelegateProgram(pte::makeSyntheticXnnpackPayload(7)), program.toStdString()));
        const QString etdump = pte::test::tempDir() + QStringLiteral("/window-%1.etdp").arg(tag);
        QVERIFY_RESULT(writeEtdump(labels, etdump));

        MainWindow w;
        w.resize(1500, 950);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QSignalSpy loaded(w.document(), &Document::loadFinished);
        w.openFiles({ program, etdump });
        QTRY_VERIFY_WITH_TIMEOUT(!loaded.isEmpty(), 60000);
        auto* graph = w.findChild<GraphPanel*>(QStringLiteral("graphPanel"));
        QVERIFY(waitFor([graph] { return !graph->isBusy(); }));
        auto* inside = w.findChild<DelegatePayloadView*>();
        auto* profile = w.findChild<ProfileView*>();
        QVERIFY(inside && profile);
        QCOMPARE(inside->currentDelegate(), 0);
        QVERIFY(!inside->nodesTable()->isColumnHidden(InnerNodeModel::TimeColumn));
        QVERIFY(!inside->nodesTable()->isColumnHidden(InnerNodeModel::AlignmentColumn));
        QVERIFY2(w.findChild<QLabel*>(QStringLiteral("delegateFormat"))
                     ->text()
                     .contains(QStringLiteral("profile: 3 calls, alignment %1").arg(quality)),
            qPrintable(w.findChild<QLabel*>(QStringLiteral("delegateFormat"))->text()));
        const auto& model = *inside->nodesTable()->model();
        QCOMPARE(model.index(1, InnerNodeModel::AlignmentColumn).data().toString(), quality);

        // Profile event -> its inner node.
        const auto& table = w.document()->snapshot()->profile->table;
        const int addRow = rowNamed(table, labels[1]);
        QVERIFY(addRow >= 0);
        profile->selectSourceRows({ addRow });
        Q_EMIT profile->selectionChanged();
        auto selectedInner = [inside] {
            std::vector<int> rows;
            for (const auto& r : inside->nodesTable()->selectionModel()->selectedRows())
                rows.push_back(r.row());
            return rows;
        };
        QCOMPARE(selectedInner(), std::vector<int> { nodes[1] });
        // Inner node -> its event in the Profile view.
        inside->nodesTable()->selectRow(nodes[0]);
        QCOMPARE(profile->selectedSourceRows(), std::vector<int> { rowNamed(table, labels[0]) });

        // The drill-down graph coloured by the inner nodes' medians: the last placed event is the hottest (after a
        // failure the rest may still be placed somewhere, so only measured or not is checked).
        graph->openDelegate(0);
        QVERIFY(waitFor([graph] { return !graph->isBusy() && graph->openedDelegate() == 0; }));
        QCOMPARE(graph->colouring(), GraphPanel::Colouring::Time);
        const auto& heat = graph->heat();
        QCOMPARE(heat.size(), graph->graph().nodes.size());
        int hottest = -1;
        for (std::size_t k = 0; k < nodes.size() && nodes[k] >= 0; ++k)
            hottest = nodes[k];
        for (std::size_t i = 0; i < heat.size(); ++i) {
            const int inner = graph->graph().nodes[i].innerNode;
            if (inner < 0)
                QCOMPARE(heat[i], -1.0); // inputs, constants, outputs: not measured
            else if (inner == hottest && quality != QLatin1String("failed"))
                QCOMPARE(heat[i], 1.0);
            else if (inner == nodes[0])
                QVERIFY(heat[i] > 0 && heat[i] < 1);
        }
        // With the inner graph open, a Profile event selects its diagram node.
        profile->selectSourceRows({ rowNamed(table, labels[0]) });
        Q_EMIT profile->selectionChanged();
        const auto selected = graph->selectedNodes();
        QCOMPARE(selected.size(), std::size_t(1));
        QCOMPARE(graph->graph().nodes[std::size_t(selected.front())].innerNode, nodes[0]);
        QCOMPARE(selectedInner(), std::vector<int> { nodes[0] });
    }
};

QTEST_MAIN(TestInnerNodeTimes)
#include "tst_innernodetimes.moc"
