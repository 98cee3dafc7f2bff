// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// Program > Run on Device with stand-in runners (shell commands): the preferences (the template checked as it is
// typed, saved with QSettings), the Run window (output as it comes, Cancel ending the command's whole process group,
// a failure's exit code and last lines, a missing ETDump named), and the ETDump the command left opened over the
// program. tst_devicerun_runtime runs ExecuTorch's runner.
#include "document/devicerun.h"
#include "document/profiledata.h"
#include "mainwindow.h"
#include "pte/etdumpwriter.h"
#include "pte/mappedfile.h"
#include "pte/runnertemplate.h"
#include "pte/syntheticetdump.h"
#include "testutils.h"
#include "uifixtures.h"
#include "widgets/devicerundialog.h"
#include "widgets/preferencesdialog.h"

#include <QDialogButtonBox>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTest>

#include <cerrno>
#include <csignal>

using namespace pte::ui;
using pte::process::RunnerOutcome;

namespace {

constexpr int kWaitMs = 60000;

/** A window with add_mul.json emitted: the program Run on Device writes. */
bool openEmitted(MainWindow& w)
{
    QSignalSpy loaded(w.document(), &Document::loadFinished);
    QSignalSpy loadFailed(w.document(), &Document::loadFailed);
    w.openFiles({ pte::test::testDataDir() + QStringLiteral("/emit/add_mul.json") });
    if (!QTest::qWaitFor([&] { return !loaded.isEmpty() || !loadFailed.isEmpty(); }, kWaitMs) || loaded.isEmpty()) {
        qWarning("not loaded: %s", qPrintable(fixtures::failureText(loadFailed)));
        return false;
    }
    QSignalSpy emitted(w.document(), &Document::emitFinished);
    QSignalSpy failed(w.document(), &Document::emitFailed);
    w.emitWith({});
    const bool ok = QTest::qWaitFor([&] { return !emitted.isEmpty() || !failed.isEmpty(); }, kWaitMs);
    if (!failed.isEmpty())
        qWarning("emit failed: %s", qPrintable(fixtures::failureText(failed)));
    return ok && !emitted.isEmpty();
}

/** An ETDump of the window's program as the runtime would write it (three runs), for a stand-in runner to copy. */
QString writeEtdumpFor(const pte::Program& program)
{
    auto trace = pte::makeSyntheticEtdump(program, pte::SyntheticEtdumpOptions { {}, 3, true, 1000 });
    if (!trace)
        return {};
    auto bytes = pte::serializeEtdump(*trace);
    if (!bytes)
        return {};
    const QString path = pte::test::tempDir() + QStringLiteral("/device.etdp");
    return pte::writeFileAtomically(path.toStdString(), *bytes) ? path : QString();
}

RunnerOutcome lastOutcome(const QSignalSpy& spy) { return spy.last().at(0).value<RunnerOutcome>(); }

} // namespace

class TestDeviceRun : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
    void init() { fixtures::failOnQtWarnings(); }
    void cleanup() { DeviceRun::setSavedTemplate(QString()); }

    void preferencesCheckTheTemplate()
    {
        PreferencesDialog dialog;
        auto* field = dialog.findChild<QPlainTextEdit*>(QStringLiteral("runnerTemplate"));
        auto* check = dialog.findChild<QLabel*>(QStringLiteral("runnerTemplateCheck"));
        auto* ok = dialog.findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok);
        QVERIFY(field && check && ok);
        // Every placeholder is listed with its meaning.
        const QString list = dialog.findChild<QLabel*>(QStringLiteral("runnerPlaceholders"))->text();
        for (const auto& p : pte::runnerPlaceholders())
            QVERIFY2(list.contains(QStringLiteral("{%1}").arg(QLatin1String(p.name))), qPrintable(list));
        field->setPlainText(QStringLiteral("runner {pte} --out {etdmp}"));
        QVERIFY(!dialog.isValid());
        QVERIFY(!ok->isEnabled());
        QVERIFY2(check->text().contains(QStringLiteral("at offset 19")), qPrintable(check->text()));
        field->setPlainText(QStringLiteral("runner --etdump {etdump}"));
        QVERIFY(!ok->isEnabled());
        QVERIFY(check->text().contains(QStringLiteral("{pte}")));
        field->setPlainText(QStringLiteral("runner {pte} --out {etdump}"));
        QVERIFY(ok->isEnabled());
        QVERIFY2(check->text().contains(QStringLiteral("program.pte")), qPrintable(check->text()));
        dialog.accept();
        QCOMPARE(DeviceRun::savedTemplate(), QStringLiteral("runner {pte} --out {etdump}"));
        PreferencesDialog again;
        QCOMPARE(again.runnerTemplate(), QStringLiteral("runner {pte} --out {etdump}"));
    }

    void runOpensTheEtdumpOverTheProgram()
    {
        MainWindow w;
        w.show();
        QVERIFY(openEmitted(w));
        const auto program = w.document()->snapshot()->program;
        const QString etdump = writeEtdumpFor(*program);
        QVERIFY(!etdump.isEmpty());
        DeviceRun::setSavedTemplate(
            QStringLiteral("test -s {pte} && echo written {pte}; echo to stderr >&2; cp %1 {etdump}")
                .arg(QString::fromStdString(pte::shellQuote(etdump.toStdString()))));
        QSignalSpy finished(w.deviceRun(), &DeviceRun::finished);
        QSignalSpy loaded(w.document(), &Document::loadFinished);
        QVERIFY(w.runOnDevice());
        QVERIFY(w.deviceRunDialog() && w.deviceRunDialog()->isVisible());
        QVERIFY(finished.wait(kWaitMs));
        QCOMPARE(lastOutcome(finished).result, RunnerOutcome::Result::Ok);
        QVERIFY2(w.deviceRunDialog()->outputText().contains(QStringLiteral("written /")),
            qPrintable(w.deviceRunDialog()->outputText()));
        QVERIFY(w.deviceRunDialog()->outputText().contains(QStringLiteral("to stderr")));
        QVERIFY(w.deviceRunDialog()->statusText().contains(QStringLiteral("wrote the ETDump")));
        // Opened as File > Open ETDump opens one: over the program, which stays.
        QVERIFY(loaded.wait(kWaitMs));
        const auto snap = w.document()->snapshot();
        QVERIFY(snap->program == program);
        QVERIFY(snap->profile && snap->profile->matches());
        QVERIFY(snap->profile->join);
        QVERIFY(snap->profile->dump->path.ends_with("/run.etdp"));
        QVERIFY(!w.hasUnsavedProgram() || w.document()->savedPath().isEmpty()); // the run's copy is no save
    }

    void cancelEndsTheProcessGroup()
    {
        MainWindow w;
        w.show();
        QVERIFY(openEmitted(w));
        DeviceRun::setSavedTemplate(QStringLiteral("echo started {pte}; sleep 1000 & sh -c 'sleep 1000'"));
        QSignalSpy finished(w.deviceRun(), &DeviceRun::finished);
        QVERIFY(w.runOnDevice());
        DeviceRunDialog* dialog = w.deviceRunDialog();
        QTRY_VERIFY_WITH_TIMEOUT(dialog->outputText().contains(QStringLiteral("started")), kWaitMs);
        const qint64 pgid = w.deviceRun()->processGroup();
        QVERIFY(pgid > 0);
        auto* cancel = dialog->findChild<QPushButton*>(QStringLiteral("runCancel"));
        QVERIFY(cancel->isEnabled());
        QTest::mouseClick(cancel, Qt::LeftButton);
        QVERIFY(finished.wait(kWaitMs));
        QCOMPARE(lastOutcome(finished).result, RunnerOutcome::Result::Cancelled);
        // Nothing of the group is left.
        errno = 0;
        QCOMPARE(::kill(-pid_t(pgid), 0), -1);
        QCOMPARE(errno, ESRCH);
        QVERIFY(!cancel->isEnabled());
        QVERIFY(dialog->statusText().contains(QStringLiteral("cancelled")));
        QVERIFY(w.findChild<QAction*>(QStringLiteral("runOnDeviceAction"))->isEnabled());
        QVERIFY(!w.document()->snapshot()->profile); // nothing opened
    }

    void failureShowsExitCodeAndLastLines()
    {
        MainWindow w;
        w.show();
        QVERIFY(openEmitted(w));
        DeviceRun::setSavedTemplate(QStringLiteral("echo loading {pte}; echo 'Error: no such kernel' >&2; exit 3"));
        QSignalSpy finished(w.deviceRun(), &DeviceRun::finished);
        QVERIFY(w.runOnDevice());
        QVERIFY(finished.wait(kWaitMs));
        QCOMPARE(lastOutcome(finished).result, RunnerOutcome::Result::CommandFailed);
        QVERIFY2(w.deviceRunDialog()->statusText().contains(QStringLiteral("exit code 3")),
            qPrintable(w.deviceRunDialog()->statusText()));
        auto* tail = w.deviceRunDialog()->findChild<QLabel*>(QStringLiteral("runTail"));
        QVERIFY(tail->isVisible());
        QVERIFY(tail->text().contains(QStringLiteral("Error: no such kernel")));
        QVERIFY(w.messageText().contains(QStringLiteral("exit code 3")));
    }

    void exitZeroWithoutEtdump()
    {
        MainWindow w;
        w.show();
        QVERIFY(openEmitted(w));
        DeviceRun::setSavedTemplate(QStringLiteral("true {pte} {etdump}"));
        QSignalSpy finished(w.deviceRun(), &DeviceRun::finished);
        QVERIFY(w.runOnDevice());
        QVERIFY(finished.wait(kWaitMs));
        QCOMPARE(lastOutcome(finished).result, RunnerOutcome::Result::NoEtdump);
        const QString expected = w.deviceRun()->folder() + QStringLiteral("/run.etdp");
        QVERIFY2(w.deviceRunDialog()->statusText().contains(expected), qPrintable(w.deviceRunDialog()->statusText()));
    }

    void refusedTemplateAndNoProgram()
    {
        MainWindow w;
        w.show();
        DeviceRun::setSavedTemplate(QStringLiteral("r {pte}"));
        QVERIFY(!w.runOnDevice()); // nothing open
        QVERIFY(w.messageText().contains(QStringLiteral("needs a program")));
        QVERIFY(!w.findChild<QAction*>(QStringLiteral("runOnDeviceAction"))->isEnabled());
        QVERIFY(openEmitted(w));
        QVERIFY(w.findChild<QAction*>(QStringLiteral("runOnDeviceAction"))->isEnabled());
        DeviceRun::setSavedTemplate(QStringLiteral("r {pte} {model}"));
        QVERIFY(!w.runOnDevice());
        QVERIFY2(w.messageText().contains(QStringLiteral("'{model}' at offset 8")), qPrintable(w.messageText()));
    }
};

QTEST_MAIN(TestDeviceRun)
#include "tst_devicerun.moc"
