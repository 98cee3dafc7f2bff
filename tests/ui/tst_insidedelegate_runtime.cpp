// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// One inner node, two XNNPACK operators: the bundled example's delegate is one Multiply of x by itself with the output
// range (0, +inf), which ExecuTorch's runtime (etrt_runner_xnnpack, three runs, --etdump) runs as a Square and a
// Clamp. Opened in the window with that ETDump, Inside Delegate ties both events to the node, exactly, names it by
// both ("Square (NC) #1 + Clamp (NC) #1") and times it by their sum per call. Skipped when the runner is missing.
#include "document/delegateinspection.h"
#include "document/document.h"
#include "document/profiledata.h"
#include "etrunner.h"
#include "mainwindow.h"
#include "models/innernodemodel.h"
#include "testutils.h"
#include "uifixtures.h"
#include "views/delegatepayloadview.h"
#include "views/graphpanel.h"
#include "widgets/tableview.h"

#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace pte::ui;
using pte::ui::fixtures::cell;

class TestInsideDelegateRuntime : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
    void init() { fixtures::failOnQtWarnings(); }

    void oneNodeTwoOperators()
    {
        PTE_REQUIRE_ET_RUNNER_XNNPACK();
        constexpr int kRuns = 3;
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString program = dir.filePath(QStringLiteral("example.pte"));
        const QString etdump = dir.filePath(QStringLiteral("example.etdp"));
        const QString example =
            qEnvironmentVariable("PTELENS_BUILD_DIR") + QStringLiteral("/examples/example.etrecord");
        QCOMPARE(pte::test::runCli({ QStringLiteral("emit"), example, QStringLiteral("-o"), program }), 0);
        const auto problem = pte::test::runXnnpackWithEtdump(program, etdump, kRuns);
        QVERIFY2(!problem, problem ? problem->c_str() : "");

        MainWindow w;
        w.resize(1400, 900);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QSignalSpy loaded(w.document(), &Document::loadFinished);
        QSignalSpy failed(w.document(), &Document::loadFailed);
        w.openFiles({ program, etdump });
        QVERIFY2(fixtures::waitEither(loaded, failed, 120000) && failed.isEmpty(),
            qPrintable(fixtures::failureText(failed)));
        const auto snap = w.document()->snapshot();
        QVERIFY(snap->profile && snap->delegates);
        const auto* timing = snap->profile->delegateTimes.of(snap->delegates.get(), 0);
        QVERIFY(timing);
        QCOMPARE(timing->calls, std::uint32_t(kRuns));
        QCOMPARE(timing->quality, pte::AlignmentQuality::Exact);
        QCOMPARE(timing->nodes.size(), std::size_t(1));
        const auto& node = timing->nodes[0];
        QCOMPARE(node.events.size(), std::size_t(2 * kRuns)); // a Square and a Clamp per call
        QCOMPARE(node.durations.size(), std::size_t(kRuns)); // one sample per call: their sum
        QCOMPARE(node.label, std::string("Square (NC) #1 + Clamp (NC) #1"));
        const auto& dump = *snap->profile->dump;
        const auto& options = snap->profile->table.options;
        for (int call = 0; call < kRuns; ++call) {
            const double sum = *pte::eventDuration(dump.events[node.events[std::size_t(2 * call)]], options)
                + *pte::eventDuration(dump.events[node.events[std::size_t(2 * call + 1)]], options);
            QVERIFY(std::abs(node.durations[std::size_t(call)] - sum) < 1e-12);
        }

        auto* inside = w.findChild<DelegatePayloadView*>();
        QVERIFY(inside);
        inside->showDelegate(0);
        const auto* model = inside->nodesTable()->model();
        QVERIFY(!inside->nodesTable()->isColumnHidden(InnerNodeModel::EventColumn));
        QCOMPARE(cell(*model, 0, InnerNodeModel::EventColumn), QStringLiteral("Square (NC) #1 + Clamp (NC) #1"));
        QCOMPARE(cell(*model, 0, InnerNodeModel::AlignmentColumn), QStringLiteral("exact"));
        QCOMPARE(cell(*model, 0, InnerNodeModel::TimeColumn), QString::number(node.p50, 'f', 6));
    }
};

QTEST_MAIN(TestInsideDelegateRuntime)
#include "tst_insidedelegate_runtime.moc"
