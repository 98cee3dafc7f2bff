// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// What `cmake --install` and `make package` ship: the build is installed into a scratch root (DESTDIR), and the
// Debian package is built and unpacked into another; the installed ptelens-cli runs from there.
#include "testutils.h"

#include <QDir>
#include <QFileInfo>
#include <QProcess>
#include <QRegularExpression>
#include <QTest>

using namespace pte::test;

namespace {

QString buildDir() { return qEnvironmentVariable("PTELENS_BUILD_DIR"); }

bool guiBuilt() { return QFileInfo::exists(buildDir() + QStringLiteral("/bin/ptelens")); }

/** Runs a program; returns its exit code (-1 when it did not run) and fills stdout/stderr. */
int run(const QString& program, const QStringList& args, QByteArray* out = nullptr, QByteArray* err = nullptr,
    const QProcessEnvironment& env = QProcessEnvironment::systemEnvironment(), int timeoutMs = 240000)
{
    QProcess p;
    p.setProcessEnvironment(env);
    p.start(program, args);
    if (!p.waitForFinished(timeoutMs) || p.exitStatus() != QProcess::NormalExit)
        return -1;
    if (out)
        *out = p.readAllStandardOutput();
    if (err)
        *err = p.readAllStandardError();
    return p.exitCode();
}

/** The command names `ptelens-cli --help` lists. */
QStringList cliCommands(const QString& cli)
{
    QByteArray out;
    if (run(cli, { QStringLiteral("--help") }, &out) != 0)
        return {};
    QStringList names;
    static const QRegularExpression line(QStringLiteral("^  ([a-z][a-z0-9-]*) "), QRegularExpression::MultilineOption);
    auto it = line.globalMatch(QString::fromUtf8(out));
    while (it.hasNext())
        names << it.next().captured(1);
    return names;
}

/** Checks the installed ptelens-cli under `root`: --version, `info` on a program its own writer made, man page. */
void checkInstalledTree(const QString& root)
{
    const QString cli = root + QStringLiteral("/usr/bin/ptelens-cli");
    QVERIFY2(QFileInfo(cli).isExecutable(), qPrintable(cli));
    QByteArray out;
    QByteArray err;
    QCOMPARE(run(cli, { QStringLiteral("--version") }, &out, &err), 0);
    QVERIFY2(out.startsWith("ptelens-cli "), out.constData());
    const QString program = root + QStringLiteral("/synth.pte");
    QCOMPARE(run(cli, { QStringLiteral("synth"), program, QStringLiteral("--instructions"), QStringLiteral("40") },
                 &out, &err),
        0);
    QCOMPARE(run(cli, { QStringLiteral("info"), program }, &out, &err), 0);
    QVERIFY2(out.contains("aten::add.out"), out.constData());
    QVERIFY2(err.isEmpty(), err.constData());

    // The man page (gzip, roff) documents every command the installed binary lists.
    const QString man = root + QStringLiteral("/usr/share/man/man1/ptelens-cli.1.gz");
    QVERIFY2(QFileInfo::exists(man), qPrintable(man));
    QByteArray page;
    QCOMPARE(run(QStringLiteral("gzip"), { QStringLiteral("-dc"), man }, &page), 0);
    QVERIFY(page.startsWith(".TH PTELENS-CLI 1 "));
    const QStringList commands = cliCommands(cli);
    QVERIFY(commands.contains(QStringLiteral("info")) && commands.contains(QStringLiteral("emit")));
    for (const QString& c : commands)
        QVERIFY2(page.contains(".SS " + c.toUtf8() + "\n"), qPrintable(c));
    QVERIFY(page.contains("--instructions")); // synth's options, from `synth --help`

    if (guiBuilt()) {
        QVERIFY(QFileInfo(root + QStringLiteral("/usr/bin/ptelens")).isExecutable());
        QVERIFY(QFileInfo::exists(root + QStringLiteral("/usr/share/applications/ptelens.desktop")));
        QVERIFY(QFileInfo::exists(root + QStringLiteral("/usr/share/icons/hicolor/scalable/apps/ptelens.svg")));
        QVERIFY(QFileInfo::exists(root + QStringLiteral("/usr/share/icons/hicolor/256x256/apps/ptelens.png")));
    }
}

} // namespace

class TestCliInstall : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        if (buildDir().isEmpty())
            QSKIP("PTELENS_BUILD_DIR is not set (run through ctest)");
    }

    void installsIntoScratchRoot()
    {
        const QString root = tempDir() + QStringLiteral("/destdir");
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("DESTDIR"), root);
        QByteArray out;
        QByteArray err;
        QCOMPARE(run(QStringLiteral("cmake"),
                     { QStringLiteral("--install"), buildDir(), QStringLiteral("--prefix"), QStringLiteral("/usr") },
                     &out, &err, env),
            0);
        checkInstalledTree(root);
    }

    void packageInstallsAndRuns()
    {
        const QString out = tempDir() + QStringLiteral("/package");
        QByteArray stdOut;
        QByteArray stdErr;
        QCOMPARE(run(QStringLiteral("cpack"),
                     { QStringLiteral("--config"), buildDir() + QStringLiteral("/CPackConfig.cmake"),
                         QStringLiteral("-G"), QStringLiteral("DEB"), QStringLiteral("-B"), out },
                     &stdOut, &stdErr),
            0);
        const QStringList debs = QDir(out).entryList({ QStringLiteral("ptelens_*.deb") }, QDir::Files);
        QCOMPARE(debs.size(), 1);
        const QString deb = out + QLatin1Char('/') + debs.front();
        // Its dependencies are the Debian packages of the libraries the binaries link (not minizip: only
        // ptelens-bench, which is not installed, writes zip archives).
        QByteArray depends;
        QCOMPARE(
            run(QStringLiteral("dpkg-deb"), { QStringLiteral("-f"), deb, QStringLiteral("Depends") }, &depends), 0);
        for (const char* pkg : { "libqt6core6", "libssl3", "zlib1g", "libstdc++6", "libc6" })
            QVERIFY2(depends.contains(pkg), depends.constData());
        if (guiBuilt())
            for (const char* pkg : { "libqt6widgets6", "libgvc6" })
                QVERIFY2(depends.contains(pkg), depends.constData());
        const QString root = tempDir() + QStringLiteral("/unpacked");
        QCOMPARE(run(QStringLiteral("dpkg-deb"), { QStringLiteral("-x"), deb, root }), 0);
        checkInstalledTree(root);
    }
};

QTEST_GUILESS_MAIN(TestCliInstall)
#include "tst_cli_install.moc"
