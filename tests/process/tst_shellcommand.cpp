// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// ShellCommand (process/shellcommand.h): a shell command in a process group of its own, its output as it comes, and
// a cancel that ends the whole group, a command that ignores SIGTERM included, without waiting on wall time.
#include "process/shellcommand.h"

#include <QDir>
#include <QSignalSpy>
#include <QTest>

#include <cerrno>
#include <csignal>
#include <sys/types.h>

using pte::process::ShellCommand;
using pte::process::ShellExit;

namespace {

/** Generous: the signals come long before; the tests never assert on time. */
constexpr int kWaitMs = 60000;

bool groupExists(qint64 pgid)
{
    errno = 0;
    return ::kill(-pid_t(pgid), 0) == 0 || errno != ESRCH;
}

} // namespace

class TestShellCommand : public QObject
{
    Q_OBJECT
private slots:
    void outputAndExitCode()
    {
        ShellCommand command;
        QByteArray out, err;
        connect(&command, &ShellCommand::output, this,
            [&](const QByteArray& bytes, bool isStderr) { (isStderr ? err : out) += bytes; });
        QSignalSpy finished(&command, &ShellCommand::finished);
        command.start(QStringLiteral("printf 'one\\n'; printf 'two\\n' >&2; pwd; exit 3"), QDir::tempPath());
        QVERIFY(command.isRunning());
        QVERIFY(finished.wait(kWaitMs));
        const auto exit = finished.at(0).at(0).value<ShellExit>();
        QCOMPARE(exit.kind, ShellExit::Kind::Exited);
        QCOMPARE(exit.code, 3);
        QVERIFY(!exit.succeeded());
        QCOMPARE(exit.describe(), QStringLiteral("exit code 3"));
        QCOMPARE(out, QByteArray("one\n") + QDir::tempPath().toUtf8() + "\n");
        QCOMPARE(err, QByteArray("two\n"));
        QVERIFY(!command.isRunning());
    }

    void killedBySignal()
    {
        ShellCommand command;
        QSignalSpy finished(&command, &ShellCommand::finished);
        command.start(QStringLiteral("kill -KILL $$"), QDir::tempPath());
        QVERIFY(finished.wait(kWaitMs));
        const auto exit = finished.at(0).at(0).value<ShellExit>();
        QCOMPARE(exit.kind, ShellExit::Kind::Signalled);
        QCOMPARE(exit.signal, SIGKILL);
    }

    void ownProcessGroup()
    {
        ShellCommand command;
        QByteArray out;
        connect(&command, &ShellCommand::output, this, [&](const QByteArray& bytes, bool) { out += bytes; });
        QSignalSpy started(&command, &ShellCommand::started);
        QSignalSpy finished(&command, &ShellCommand::finished);
        command.start(QStringLiteral("ps -o pgid= -p $$"), QDir::tempPath());
        QVERIFY(finished.wait(kWaitMs));
        QCOMPARE(started.size(), 1);
        const qint64 pgid = started.at(0).at(0).toLongLong();
        QVERIFY(pgid > 0);
        QVERIFY(pgid != qint64(::getpgrp()));
        QCOMPARE(out.trimmed().toLongLong(), pgid); // the shell leads its group
    }

    void cancelEndsTheWholeGroup_data()
    {
        QTest::addColumn<QString>("command");
        QTest::addColumn<int>("killGrace");
        // A command that never exits, with a child in the background and one in the foreground.
        QTest::newRow("SIGTERM") << QStringLiteral("sleep 1000 & echo ready; sh -c 'sleep 1000'") << 3000;
        // One that ignores SIGTERM (its children inherit that): only SIGKILL ends it.
        QTest::newRow("SIGKILL") << QStringLiteral(
            "trap '' TERM; sleep 1000 & echo ready; while :; do sleep 1000; done")
                                 << 100;
    }
    void cancelEndsTheWholeGroup()
    {
        QFETCH(QString, command);
        QFETCH(int, killGrace);
        ShellCommand shell;
        shell.setKillGrace(killGrace);
        QByteArray out;
        connect(&shell, &ShellCommand::output, this, [&](const QByteArray& bytes, bool) { out += bytes; });
        QSignalSpy finished(&shell, &ShellCommand::finished);
        shell.start(command, QDir::tempPath());
        QTRY_VERIFY_WITH_TIMEOUT(out.contains("ready"), kWaitMs);
        const qint64 pgid = shell.processGroup();
        QVERIFY(pgid > 0);
        QVERIFY(groupExists(pgid));
        shell.cancel();
        QVERIFY(finished.wait(kWaitMs));
        const auto exit = finished.at(0).at(0).value<ShellExit>();
        QCOMPARE(exit.kind, ShellExit::Kind::Cancelled);
        QVERIFY(exit.groupGone);
        QCOMPARE(exit.describe(), QStringLiteral("cancelled"));
        // No process of the group is left, not even a zombie.
        errno = 0;
        QCOMPARE(::kill(-pid_t(pgid), 0), -1);
        QCOMPARE(errno, ESRCH);
        QVERIFY(!shell.isRunning());
        QCOMPARE(finished.size(), 1);
        shell.cancel(); // nothing left to cancel: no second finished()
        QCOMPARE(finished.size(), 1);
    }

    void timeout()
    {
        ShellCommand shell;
        shell.setTimeout(50);
        QSignalSpy finished(&shell, &ShellCommand::finished);
        QSignalSpy started(&shell, &ShellCommand::started);
        shell.start(QStringLiteral("sleep 1000"), QDir::tempPath());
        QVERIFY(finished.wait(kWaitMs));
        const auto exit = finished.at(0).at(0).value<ShellExit>();
        QCOMPARE(exit.kind, ShellExit::Kind::TimedOut);
        QCOMPARE(started.size(), 1);
        errno = 0;
        QCOMPARE(::kill(-pid_t(started.at(0).at(0).toLongLong()), 0), -1);
        QCOMPARE(errno, ESRCH);
    }

    void destructorKillsTheGroup()
    {
        qint64 pgid = 0;
        {
            ShellCommand shell;
            QSignalSpy started(&shell, &ShellCommand::started);
            shell.start(QStringLiteral("sleep 1000"), QDir::tempPath());
            QVERIFY(started.wait(kWaitMs));
            pgid = shell.processGroup();
        }
        QTRY_VERIFY_WITH_TIMEOUT(!groupExists(pgid), kWaitMs);
    }
};

QTEST_GUILESS_MAIN(TestShellCommand)
#include "tst_shellcommand.moc"
