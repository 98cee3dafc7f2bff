// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// RunnerJob (process/runnerjob.h): the run's temporary folder and placeholders, the template refused before anything
// runs, and the outcomes a run can have (ETDump left, none left, the command failed, cancelled), with stand-in
// commands instead of a real runner (tests/runtime and tests/ui run the real one).
#include "process/runnerjob.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <cerrno>
#include <csignal>

using pte::process::RunnerJob;
using pte::process::RunnerOutcome;

namespace {

constexpr int kWaitMs = 60000;

bool writeProgram(const RunnerJob& job, const QByteArray& bytes = QByteArray("program bytes"))
{
    QFile f(QString::fromStdString(job.paths().pte));
    return f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size();
}

RunnerOutcome run(RunnerJob& job)
{
    QSignalSpy finished(&job, &RunnerJob::finished);
    job.start();
    if (!finished.wait(kWaitMs))
        return {};
    return finished.at(0).at(0).value<RunnerOutcome>();
}

QByteArray contents(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

} // namespace

class TestRunnerJob : public QObject
{
    Q_OBJECT
private slots:
    void folderAndPlaceholders()
    {
        QString folder;
        {
            RunnerJob job;
            auto command = job.prepare(QStringLiteral("r --model {pte} --out {etdump} {debug_buffer} {inputs}"));
            QVERIFY2(command, command ? "" : command.error().message.c_str());
            folder = job.folder();
            QVERIFY(QFileInfo(folder).isDir());
            QVERIFY(QFileInfo(folder).fileName().startsWith(QStringLiteral("ptelens-run-")));
            const QDir dir(folder);
            QCOMPARE(QString::fromStdString(job.paths().pte), dir.filePath(QStringLiteral("program.pte")));
            QCOMPARE(*command,
                QStringLiteral("r --model %1 --out %2 %3 %4")
                    .arg(dir.filePath(QStringLiteral("program.pte")), dir.filePath(QStringLiteral("run.etdp")),
                        dir.filePath(QStringLiteral("debug.bin")), dir.filePath(QStringLiteral("inputs.json"))));
            QCOMPARE(job.command(), *command);
            // No inputs file given: "{}", the runner's default fill.
            QCOMPARE(contents(dir.filePath(QStringLiteral("inputs.json"))), QByteArray("{}\n"));
        }
        QVERIFY(!QFileInfo::exists(folder)); // the folder goes with the job
    }

    void inputsCopied()
    {
        QTemporaryDir dir;
        const QString inputs = dir.filePath(QStringLiteral("in.json"));
        QFile f(inputs);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(R"({"forward": [[1, 2, 3]]})");
        f.close();
        RunnerJob job;
        QVERIFY(job.prepare(QStringLiteral("r {pte} {inputs}"), inputs));
        QCOMPARE(contents(QString::fromStdString(job.paths().inputs)), QByteArray(R"({"forward": [[1, 2, 3]]})"));
        RunnerJob missing;
        auto failed = missing.prepare(QStringLiteral("r {pte}"), dir.filePath(QStringLiteral("nothing.json")));
        QVERIFY(!failed);
        QCOMPARE(failed.error().code, pte::ErrorCode::Io);
    }

    void badTemplate()
    {
        RunnerJob job;
        auto command = job.prepare(QStringLiteral("r {pte} {model}"));
        QVERIFY(!command);
        QCOMPARE(command.error().code, pte::ErrorCode::InvalidInput);
        QVERIFY(command.error().message.find("'{model}' at offset 8") != std::string::npos);
        RunnerJob noPte;
        QVERIFY(!noPte.prepare(QStringLiteral("r --etdump {etdump}")));
    }

    void etdumpLeft()
    {
        RunnerJob job;
        // A stand-in runner: "runs" the program by copying it where the ETDump goes, with a debug buffer.
        QVERIFY(job.prepare(QStringLiteral("echo running; cp {pte} {etdump} && printf x > {debug_buffer}")));
        QVERIFY(writeProgram(job));
        QString live;
        connect(&job, &RunnerJob::output, this, [&](const QString& text, bool) { live += text; });
        const auto out = run(job);
        QCOMPARE(out.result, RunnerOutcome::Result::Ok);
        QCOMPARE(out.etdumpPath, QString::fromStdString(job.paths().etdump));
        QCOMPARE(out.debugBufferPath, QString::fromStdString(job.paths().debugBuffer));
        QCOMPARE(contents(out.etdumpPath), QByteArray("program bytes"));
        QCOMPARE(live, QStringLiteral("running\n"));
        QCOMPARE(out.lastLines, QStringList { QStringLiteral("running") });
    }

    void noEtdump()
    {
        RunnerJob job;
        QVERIFY(job.prepare(QStringLiteral("test -f {pte} && echo 'ran, wrote nothing'")));
        QVERIFY(writeProgram(job));
        const auto out = run(job);
        QCOMPARE(out.result, RunnerOutcome::Result::NoEtdump);
        QVERIFY(out.etdumpPath.isEmpty());
        QVERIFY2(out.message.contains(QString::fromStdString(job.paths().etdump)), qPrintable(out.message));
        QVERIFY2(out.message.contains(QStringLiteral("which it does not name")), qPrintable(out.message));
    }

    void commandFails()
    {
        RunnerJob job;
        QVERIFY(job.prepare(QStringLiteral("for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14; do echo line $i; done; "
                                           "echo 'no such model' >&2; printf 'no newline'; exit 2 # {pte} {etdump}")));
        const auto out = run(job);
        QCOMPARE(out.result, RunnerOutcome::Result::CommandFailed);
        QCOMPARE(out.exit.code, 2);
        QCOMPARE(out.message, QStringLiteral("The command failed: exit code 2."));
        QCOMPARE(out.lastLines.size(), RunnerOutcome::kTailLines);
        QCOMPARE(out.lastLines.back(), QStringLiteral("no newline"));
        QVERIFY(out.lastLines.contains(QStringLiteral("no such model")));
        QCOMPARE(out.lastLines.front(), QStringLiteral("line 5")); // 16 lines, the last 12
    }

    void cancel()
    {
        RunnerJob job;
        QVERIFY(job.prepare(QStringLiteral("echo started {pte}; sh -c 'sleep 1000'")));
        QString live;
        connect(&job, &RunnerJob::output, this, [&](const QString& text, bool) { live += text; });
        QSignalSpy finished(&job, &RunnerJob::finished);
        job.start();
        QTRY_VERIFY_WITH_TIMEOUT(live.contains(QStringLiteral("started")), kWaitMs);
        const qint64 pgid = job.processGroup();
        QVERIFY(pgid > 0);
        job.cancel();
        QVERIFY(finished.wait(kWaitMs));
        const auto out = finished.at(0).at(0).value<RunnerOutcome>();
        QCOMPARE(out.result, RunnerOutcome::Result::Cancelled);
        errno = 0;
        QCOMPARE(::kill(-pid_t(pgid), 0), -1);
        QCOMPARE(errno, ESRCH);
    }
};

QTEST_GUILESS_MAIN(TestRunnerJob)
#include "tst_runnerjob.moc"
