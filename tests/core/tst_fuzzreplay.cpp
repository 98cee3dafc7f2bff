// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// The fuzz targets (fuzz/), built with the normal compiler as plain programs (fuzz_<name>_replay), each run on its
// generated seed corpus: the targets compile in every build with tests, and every seed goes through the code each
// one fuzzes without a crash (under `make test-asan`, without a sanitizer report).
#include "testutils.h"

#include <QDir>
#include <QProcess>
#include <QTest>

class TestFuzzReplay : public QObject
{
    Q_OBJECT
private:
    static QString binary(const QString& name)
    {
        return qEnvironmentVariable("PTELENS_BUILD_DIR") + QStringLiteral("/bin/") + name;
    }
    static QString seedDir() { return pte::test::tempDir() + QStringLiteral("/seeds"); }

private Q_SLOTS:
    void initTestCase()
    {
        // The source tree holds tests/data, from which the generator builds the dump and JSON seeds.
        const QString source = QDir(pte::test::testDataDir() + QStringLiteral("/../..")).absolutePath();
        // The generator is a tool, not what is tested: in the ASan build its leaks are not this test's concern (as
        // in `make fuzz`); the replay programs below keep leak detection.
        QProcess seeds;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("ASAN_OPTIONS"),
            env.value(QStringLiteral("ASAN_OPTIONS")) + QStringLiteral(":detect_leaks=0"));
        seeds.setProcessEnvironment(env);
        seeds.start(binary(QStringLiteral("ptelens_fuzz_seeds")), { seedDir(), source });
        QVERIFY(seeds.waitForStarted());
        QVERIFY(seeds.waitForFinished(120000));
        QVERIFY2(seeds.exitStatus() == QProcess::NormalExit && seeds.exitCode() == 0,
            seeds.readAllStandardError().constData());
    }

    void replaysSeeds_data()
    {
        QTest::addColumn<QString>("target");
        QTest::addColumn<QString>("seeds");
        QTest::newRow("pte") << QStringLiteral("fuzz_pte_replay") << QStringLiteral("pte");
        QTest::newRow("exported_program") << QStringLiteral("fuzz_exported_program_replay") << QStringLiteral("json");
        QTest::newRow("dump") << QStringLiteral("fuzz_dump_replay") << QStringLiteral("dump");
        QTest::newRow("unpickler") << QStringLiteral("fuzz_unpickler_replay") << QStringLiteral("pickle");
        QTest::newRow("etdump") << QStringLiteral("fuzz_etdump_replay") << QStringLiteral("etdump");
        QTest::newRow("delegate") << QStringLiteral("fuzz_delegate_replay") << QStringLiteral("delegate");
    }

    void replaysSeeds()
    {
        QFETCH(QString, target);
        QFETCH(QString, seeds);
        const QString dir = seedDir() + QLatin1Char('/') + seeds;
        const int count = int(QDir(dir).entryList(QDir::Files).size());
        QVERIFY2(count > 0, qPrintable(QStringLiteral("no seeds in %1").arg(dir)));
        QByteArray out, err;
        const int rc = pte::test::runProgram(binary(target), { dir }, &out, &err);
        QVERIFY2(
            rc == 0, qPrintable(QStringLiteral("%1 exited %2: %3").arg(target).arg(rc).arg(QString::fromUtf8(err))));
        QCOMPARE(out.trimmed(), QStringLiteral("ran %1 inputs").arg(count).toUtf8());
    }

    /** Without an argument a replay program reads one input from stdin (how a crashing input is reproduced). */
    void replaysStdin()
    {
        QProcess p;
        p.start(binary(QStringLiteral("fuzz_exported_program_replay")), {});
        QVERIFY(p.waitForStarted());
        p.write("{\"graph_module\": {}}");
        p.closeWriteChannel();
        QVERIFY(p.waitForFinished());
        QCOMPARE(p.exitStatus(), QProcess::NormalExit);
        QCOMPARE(p.exitCode(), 0);
        QCOMPARE(p.readAllStandardOutput().trimmed(), QByteArray("ran 1 input (stdin)"));
    }
};

QTEST_GUILESS_MAIN(TestFuzzReplay)
#include "tst_fuzzreplay.moc"
