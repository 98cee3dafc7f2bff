// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "testutils.h"

#include <QDir>
#include <QFileInfo>
#include <QProcess>
#include <QTemporaryDir>

namespace pte::test {

QString corpusDir()
{
    const QString dir = qEnvironmentVariable("PTELENS_CORPUS");
    if (dir.isEmpty() || !QFileInfo(dir).isDir())
        return {};
    return QDir(dir).absolutePath();
}

QString corpusPath(const QString& relative) { return corpusDir() + QLatin1Char('/') + relative; }

bool inCi()
{
    const QByteArray ci = qgetenv("CI").trimmed().toLower();
    return !ci.isEmpty() && ci != "0" && ci != "false";
}

bool corpusRowsAvailable()
{
    if (!corpusDir().isEmpty())
        return true;
    QTest::newRow("corpus (PTELENS_CORPUS is not set)");
    return false;
}

QString testDataDir() { return qEnvironmentVariable("PTELENS_TEST_DATA"); }

QString cliPath() { return qEnvironmentVariable("PTELENS_CLI"); }

QString benchPath() { return qEnvironmentVariable("PTELENS_BENCH"); }

QString tempDir()
{
    static QTemporaryDir dir;
    return dir.path();
}

int runProgram(const QString& program, const QStringList& args, QByteArray* out, QByteArray* err, int timeoutMs)
{
    QProcess p;
    p.start(program, args);
    if (!p.waitForStarted(10000))
        return -1;
    p.closeWriteChannel();
    if (!p.waitForFinished(timeoutMs)) {
        p.kill();
        p.waitForFinished();
        return -2;
    }
    if (out)
        *out = p.readAllStandardOutput();
    if (err)
        *err = p.readAllStandardError();
    return p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -3;
}

int runCli(const QStringList& args, QByteArray* out, QByteArray* err, int timeoutMs)
{
    return runProgram(cliPath(), args, out, err, timeoutMs);
}

int runBench(const QStringList& args, QByteArray* out, QByteArray* err, int timeoutMs)
{
    return runProgram(benchPath(), args, out, err, timeoutMs);
}

} // namespace pte::test
