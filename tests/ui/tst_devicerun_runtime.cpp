// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// Program > Run on Device with ExecuTorch's own runtime as the run target ($PTELENS_ET_RUNNER, etrt_runner, with its
// real flags): the emitted program runs, the ETDump and debug buffer it writes open over the program, every operator
// call joins its instruction, and the reference interpreter's values beside the runtime's agree (the Profile view's
// reference-gap columns). Labels ui and runtime; skipped, with the reason, when the runner is absent.
#include "document/devicerun.h"
#include "document/profiledata.h"
#include "etrunner.h"
#include "mainwindow.h"
#include "pte/etdumpjoin.h"
#include "testutils.h"
#include "uifixtures.h"
#include "widgets/devicerundialog.h"

#include <QSignalSpy>
#include <QStandardPaths>
#include <QTest>

using namespace pte::ui;
using pte::process::RunnerOutcome;

class TestDeviceRunRuntime : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
    void init() { fixtures::failOnQtWarnings(); }
    void cleanup() { DeviceRun::setSavedTemplate(QString()); }

    void runsOnExecuTorch()
    {
        PTE_REQUIRE_ET_RUNNER();
        MainWindow w;
        w.show();
        QSignalSpy loaded(w.document(), &Document::loadFinished);
        w.openFiles({ pte::test::testDataDir() + QStringLiteral("/emit/add_mul.json") });
        QTRY_VERIFY_WITH_TIMEOUT(!loaded.isEmpty(), 60000);
        QSignalSpy emitted(w.document(), &Document::emitFinished);
        w.emitWith({});
        QTRY_VERIFY_WITH_TIMEOUT(!emitted.isEmpty(), 60000);
        const auto program = w.document()->snapshot()->program;
        DeviceRun::setSavedTemplate(
            QStringLiteral("\"$PTELENS_ET_RUNNER\" --etdump {etdump} --debug-buffer "
                           "{debug_buffer} --debug-level intermediates --inputs {inputs} {pte}"));
        QSignalSpy finished(w.deviceRun(), &DeviceRun::finished);
        loaded.clear();
        QVERIFY(w.runOnDevice());
        QVERIFY(finished.wait(60000));
        const auto outcome = finished.last().at(0).value<RunnerOutcome>();
        QVERIFY2(outcome.result == RunnerOutcome::Result::Ok, qPrintable(outcome.message));
        QVERIFY2(w.deviceRunDialog()->outputText().contains(QStringLiteral("result: ok")),
            qPrintable(w.deviceRunDialog()->outputText()));
        QVERIFY(!outcome.debugBufferPath.isEmpty());
        QTRY_VERIFY_WITH_TIMEOUT(!loaded.isEmpty(), 60000);

        const auto snap = w.document()->snapshot();
        QVERIFY(snap->program == program);
        QVERIFY(snap->profile && snap->profile->join);
        QVERIFY(snap->profile->matches());
        // Every operator call sits on an instruction.
        int calls = 0;
        for (const auto& row : snap->profile->table.rows) {
            if (row.eventName != "OPERATOR_CALL")
                continue;
            ++calls;
            QVERIFY(row.instruction >= 0);
        }
        QCOMPARE(calls, 2);
        // The reference gap beside each logged value: none (the interpreter runs add and mul exactly as the runtime).
        const auto values = snap->profile->loggedValues.find("forward");
        QVERIFY(values != snap->profile->loggedValues.end());
        int compared = 0;
        for (const auto& [id, v] : values->second) {
            QVERIFY2(v.gap.has_value(), (v.gapReason + v.problem).c_str());
            QVERIFY2(v.gap->mse < 1e-12, std::to_string(v.gap->mse).c_str());
            ++compared;
        }
        QVERIFY(compared >= 2);
    }
};

QTEST_MAIN(TestDeviceRunRuntime)
#include "tst_devicerun_runtime.moc"
