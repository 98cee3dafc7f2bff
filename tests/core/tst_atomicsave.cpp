// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// A save that is killed half-way leaves the old target intact and nothing else in its folder (the unnamed
// temporary), or a named temporary that the next save of that target removes (the fallback).
//
// The kill lands in the middle of the write without any timing: the writing process runs under a file-size limit
// (RLIMIT_FSIZE), so the kernel stops its write at a known size with SIGXFSZ. This executable, started again with
// --child-save, stops itself there (SIGSTOP) for the test to look at the folder and SIGKILL it; ptelens-cli, whose
// SIGXFSZ keeps its default action, dies of the signal itself.
#include "base/mappedfile_p.h"
#include "errorcheck.h"
#include "pte/bytes.h"
#include "pte/mappedfile.h"
#include "testutils.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QProcess>
#include <QTest>

#include <csignal>
#include <cstring>
#include <string>
#include <sys/file.h>
#include <sys/resource.h>
#include <unistd.h>
#include <vector>

using namespace pte;

namespace {

/** Where a child save stops: the temporary file has this many bytes. */
constexpr rlim_t kStopAt = rlim_t(1) << 20;
/** What a child save writes: more than kStopAt. */
constexpr std::size_t kChildBytes = std::size_t(8) << 20;

extern "C" void stopHere(int) { ::raise(SIGSTOP); }

/** Child mode: saves kChildBytes to `target` with the given temporary file, stopped by the kernel at kStopAt. */
int childSave(const char* temporary, const char* target)
{
    const rlimit noCore { 0, 0 };
    ::setrlimit(RLIMIT_CORE, &noCore);
    struct sigaction action
    { };
    action.sa_handler = stopHere;
    ::sigaction(SIGXFSZ, &action, nullptr);
    const rlimit size { kStopAt, kStopAt };
    if (::setrlimit(RLIMIT_FSIZE, &size) != 0)
        return 10;
    const std::vector<std::uint8_t> data(kChildBytes, 0x5a);
    const std::span<const std::uint8_t> parts[] = { data };
    const auto kind = std::strcmp(temporary, "named") == 0 ? base::TemporaryFile::Named : base::TemporaryFile::Unnamed;
    // Returns only if the limit did not stop it.
    return base::writeFileAtomically(target, parts, SyncPolicy::WhenReplacing, kind) ? 11 : 12;
}

/** The state letter of /proc/<pid>/stat ('T' stopped), or 0 when it cannot be read. */
char processState(qint64 pid)
{
    QFile stat(QStringLiteral("/proc/%1/stat").arg(pid));
    if (!stat.open(QIODevice::ReadOnly))
        return 0;
    const QByteArray line = stat.readAll();
    const auto close = line.lastIndexOf(')'); // the command name may hold spaces and parentheses
    return close >= 0 && close + 2 < line.size() ? line.at(close + 2) : char(0);
}

/** Sizes of the files the process has open under `dir`, unnamed (deleted) ones included. */
QList<qint64> openFileSizesUnder(qint64 pid, const QString& dir)
{
    QList<qint64> sizes;
    const QDir fds(QStringLiteral("/proc/%1/fd").arg(pid));
    for (const auto& fd : fds.entryList(QDir::AllEntries | QDir::System | QDir::NoDotAndDotDot)) {
        const QString link = QFile::symLinkTarget(fds.filePath(fd));
        if (link.startsWith(dir + QLatin1Char('/')))
            sizes << QFileInfo(fds.filePath(fd)).size(); // follows the link to the file, named or not
    }
    return sizes;
}

QStringList folder(const QString& dir)
{
    return QDir(dir).entryList(QDir::Files | QDir::Hidden | QDir::System, QDir::Name);
}

QByteArray contents(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

} // namespace

class TestAtomicSave : public QObject
{
    Q_OBJECT
private:
    /** A fresh folder holding `target.pte` with `old` in it. */
    static QString folderWithTarget(const QString& name, const QByteArray& old)
    {
        const QString dir = test::tempDir() + QLatin1Char('/') + name;
        QDir(dir).removeRecursively();
        if (!QDir().mkpath(dir))
            return {};
        QFile f(dir + QStringLiteral("/target.pte"));
        if (!f.open(QIODevice::WriteOnly) || f.write(old) != old.size())
            return {};
        return dir;
    }

private Q_SLOTS:
    void killedSaveLeavesOldTarget_data()
    {
        QTest::addColumn<QString>("temporary");
        QTest::newRow("unnamed (O_TMPFILE)") << QStringLiteral("unnamed");
        QTest::newRow("named (fallback)") << QStringLiteral("named");
    }

    void killedSaveLeavesOldTarget()
    {
        QFETCH(QString, temporary);
        const QByteArray old("the old target");
        const QString dir = folderWithTarget(temporary, old);
        QVERIFY(!dir.isEmpty());
        const QString target = dir + QStringLiteral("/target.pte");

        QProcess child;
        child.setProcessChannelMode(QProcess::ForwardedChannels);
        child.start(QCoreApplication::applicationFilePath(), { QStringLiteral("--child-save"), temporary, target });
        QVERIFY(child.waitForStarted());
        const qint64 pid = child.processId();
        // Stopped by the size limit in the middle of its write (or gone, which fails below).
        QTRY_VERIFY_WITH_TIMEOUT(processState(pid) == 'T' || child.state() == QProcess::NotRunning, 120000);
        QCOMPARE(child.state(), QProcess::Running);
        // Half-way: the temporary holds exactly what the limit let through.
        QCOMPARE(openFileSizesUnder(pid, dir), QList<qint64> { qint64(kStopAt) });
        const QStringList during = folder(dir);

        QCOMPARE(::kill(pid, SIGKILL), 0);
        QVERIFY(child.waitForFinished());
        QCOMPARE(child.exitStatus(), QProcess::CrashExit);
        QCOMPARE(contents(target), old);
        const QString prefix = QString::fromStdString(base::temporaryPrefix(target.toStdString()));
        if (temporary == QLatin1String("unnamed")) {
            // Nothing but the target, during the save and after the kill.
            QCOMPARE(during, QStringList { QStringLiteral("target.pte") });
            QCOMPARE(folder(dir), QStringList { QStringLiteral("target.pte") });
        } else {
            // The fallback leaves its temporary...
            QCOMPARE(during.size(), 2);
            QVERIFY2(during.at(0).startsWith(prefix), qPrintable(during.join(QLatin1Char(' '))));
            QCOMPARE(folder(dir), during);
        }

        // ... which the next save of that target removes, whichever temporary it uses.
        const auto next = Bytes::copyOf("the new target");
        QVERIFY_RESULT(writeFileAtomically(target.toStdString(), next.span()));
        QCOMPARE(folder(dir), QStringList { QStringLiteral("target.pte") });
        QCOMPARE(contents(target), QByteArray("the new target"));
    }

    /** ptelens-cli rewrite killed in the middle of writing its output (by the kernel, at a file-size limit). */
    void killedRewriteLeavesOldTarget()
    {
        const QString dir = folderWithTarget(QStringLiteral("cli"), QByteArray("the old target"));
        QVERIFY(!dir.isEmpty());
        const QString big = dir + QStringLiteral("/big.pte");
        const QString target = dir + QStringLiteral("/target.pte");
        QByteArray out, err;
        QCOMPARE(test::runCli({ QStringLiteral("synth"), big, QStringLiteral("--instructions"), QStringLiteral("1000"),
                                  QStringLiteral("--constant-bytes"), QString::number(4 * kStopAt) },
                     &out, &err),
            0);
        QVERIFY2(QFileInfo(big).size() > qint64(2 * kStopAt), err.constData());
        const QByteArray old = contents(target);

        QProcess cli;
        cli.setChildProcessModifier([] {
            const rlimit noCore { 0, 0 };
            ::setrlimit(RLIMIT_CORE, &noCore);
            const rlimit size { kStopAt, kStopAt };
            ::setrlimit(RLIMIT_FSIZE, &size);
        });
        cli.start(test::cliPath(), { QStringLiteral("rewrite"), big, target });
        QVERIFY(cli.waitForStarted());
        QVERIFY(cli.waitForFinished(120000));
        // Killed by SIGXFSZ in the middle of the write: no message, no cleanup of its own.
        QCOMPARE(cli.exitStatus(), QProcess::CrashExit);
        QCOMPARE(folder(dir), (QStringList { QStringLiteral("big.pte"), QStringLiteral("target.pte") }));
        QCOMPARE(contents(target), old);

        // Without the limit the same rewrite replaces it.
        QCOMPARE(test::runCli({ QStringLiteral("rewrite"), big, target }, &out, &err), 0);
        QCOMPARE(folder(dir), (QStringList { QStringLiteral("big.pte"), QStringLiteral("target.pte") }));
        QVERIFY(contents(target) != old);
    }

    /** A temporary that a running save holds (locked) is not debris: a save of the same target leaves it. Names
     *  that only look alike (another target's, not ours) stay too. */
    void keepsTemporariesOfRunningSaves()
    {
        const QString dir = folderWithTarget(QStringLiteral("running"), QByteArray("old"));
        QVERIFY(!dir.isEmpty());
        const std::string target = (dir + QStringLiteral("/target.pte")).toStdString();
        const QString prefix = QString::fromStdString(base::temporaryPrefix(target));
        QCOMPARE(prefix, QStringLiteral(".target.pte.tmp-"));
        const QString running = dir + QLatin1Char('/') + prefix + QStringLiteral("123");
        const QString stale = dir + QLatin1Char('/') + prefix + QStringLiteral("456");
        const QStringList others = { QStringLiteral(".other.pte.tmp-789"), prefix + QStringLiteral("12x"),
            QStringLiteral("target.pte.tmp-1") };
        for (const auto& name : others + QStringList { QFileInfo(running).fileName(), QFileInfo(stale).fileName() }) {
            QFile f(dir + QLatin1Char('/') + name);
            QVERIFY(f.open(QIODevice::WriteOnly));
        }
        QFile held(running);
        QVERIFY(held.open(QIODevice::ReadWrite));
        QCOMPARE(::flock(held.handle(), LOCK_EX | LOCK_NB), 0); // as a save in progress holds it

        const auto data = Bytes::copyOf("new");
        QVERIFY_RESULT(writeFileAtomically(target, data.span()));
        QStringList expected = others + QStringList { QFileInfo(running).fileName(), QStringLiteral("target.pte") };
        expected.sort();
        QCOMPARE(folder(dir), expected);

        held.close(); // the save ended without cleaning up: now it is debris
        QCOMPARE(base::removeStaleTemporaries(target), std::size_t(1));
        expected.removeOne(QFileInfo(running).fileName());
        QCOMPARE(folder(dir), expected);
    }

    /** The fallback writes, replaces and fsyncs like the unnamed file, and leaves only the target. */
    void namedFallbackSaves()
    {
        const QString dir = folderWithTarget(QStringLiteral("fallback"), QByteArray("old"));
        QVERIFY(!dir.isEmpty());
        const std::string target = (dir + QStringLiteral("/target.pte")).toStdString();
        for (const auto policy : { SyncPolicy::WhenReplacing, SyncPolicy::Always }) {
            const QByteArray text = policy == SyncPolicy::Always ? "always" : "when replacing";
            const auto data = Bytes::copyOf(text.toStdString());
            const std::span<const std::uint8_t> parts[] = { data.span() };
            QVERIFY_RESULT(base::writeFileAtomically(target, parts, policy, base::TemporaryFile::Named));
            QCOMPARE(contents(QString::fromStdString(target)), text);
            QCOMPARE(folder(dir), QStringList { QStringLiteral("target.pte") });
        }
    }
};

int main(int argc, char** argv)
{
    if (argc == 4 && std::strcmp(argv[1], "--child-save") == 0)
        return childSave(argv[2], argv[3]);
    QCoreApplication app(argc, argv);
    TestAtomicSave test;
    QTEST_SET_MAIN_SOURCE_PATH
    return QTest::qExec(&test, argc, argv);
}

#include "tst_atomicsave.moc"
