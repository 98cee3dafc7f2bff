// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// ptelens-bench (bench/cli): listing, selection, JSON output and its exit codes, on smoke-test sizes.
#include "testutils.h"

#include <QDir>
#include <QFileInfo>
#include <QTest>

#include <map>
#include <nlohmann/json.hpp>

class TestBench : public QObject
{
    Q_OBJECT

    /** `ptelens-bench --quick --json --dir <temp> NAME`: its exit code; its output, also parsed into `j`
     *  (discarded when it is not JSON). */
    static int runQuickBench(const char* name, nlohmann::json* j, QByteArray* out, QByteArray* err)
    {
        out->clear();
        const int code =
            pte::test::runBench({ QStringLiteral("--quick"), QStringLiteral("--json"), QStringLiteral("--dir"),
                                    pte::test::tempDir(), QString::fromLatin1(name) },
                out, err);
        *j = nlohmann::json::parse(out->toStdString(), nullptr, false);
        return code;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY2(
            QFileInfo(pte::test::benchPath()).isExecutable(), "PTELENS_BENCH does not name the ptelens-bench binary");
    }

    void usageErrors_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("stderrContains");
        QTest::newRow("unknown name") << QStringList { QStringLiteral("--quick"), QStringLiteral("no-such-bench") }
                                      << QStringLiteral("ptelens-bench: unknown benchmark 'no-such-bench'");
        QTest::newRow("unknown option") << QStringList { QStringLiteral("--no-such-option") }
                                        << QStringLiteral("ptelens-bench: Unknown option 'no-such-option'");
    }
    void usageErrors()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, stderrContains);
        QByteArray out;
        QByteArray err;
        QCOMPARE(pte::test::runBench(args, &out, &err), 2);
        QVERIFY2(err.contains(stderrContains.toUtf8()), err.constData());
        QVERIFY(out.isEmpty());
    }

    // The product CLI no longer carries the benchmarks.
    void cliHasNoBenchCommand()
    {
        QByteArray out;
        QByteArray err;
        QCOMPARE(pte::test::runCli({ QStringLiteral("--help") }, &out, &err), 0);
        QVERIFY(out.contains("Commands:"));
        QVERIFY2(!out.contains("\n  bench "), out.constData());
        QCOMPARE(pte::test::runCli({ QStringLiteral("bench"), QStringLiteral("--list") }, &out, &err), 2);
        QVERIFY2(err.contains("unknown command 'bench'"), err.constData());
    }

    void helpNamesTheProgram()
    {
        QByteArray out;
        QCOMPARE(pte::test::runBench({ QStringLiteral("--help") }, &out), 0);
        QVERIFY2(out.startsWith("Usage: ptelens-bench [options] [NAME...]"), out.constData());
    }

    void benchListsAndRunsQuickly()
    {
        QByteArray out;
        QCOMPARE(pte::test::runBench({ QStringLiteral("--list") }, &out), 0);
        QVERIFY(out.contains("info\t"));
        QVERIFY(out.contains("rewrite\t"));
        nlohmann::json j;
        QByteArray err;
        QCOMPARE(runQuickBench("info", &j, &out, &err), 0);
        QVERIFY2(!j.is_discarded(), out.constData());
        QCOMPARE(j["quick"].get<bool>(), true);
        QCOMPARE(j["benchmarks"].size(), std::size_t(1));
        const auto& b = j["benchmarks"][0];
        QCOMPARE(b["name"].get<std::string>(), std::string("info"));
        std::vector<std::string> names;
        for (const auto& m : b["measurements"]) {
            names.push_back(m["name"].get<std::string>());
            QVERIFY(m["value"].is_number());
            QVERIFY(m["met"].is_boolean());
        }
        QCOMPARE(names,
            (std::vector<std::string> {
                "info.synth_wall_ms", "info.flatbuffer_mb", "info.wall_ms", "info.peak_rss_mb" }));
        // The scratch folder is removed afterwards.
        QVERIFY(QDir(pte::test::tempDir()).entryList({ QStringLiteral("ptelens-bench-*") }, QDir::Dirs).isEmpty());
    }

    // The emit benchmark at smoke-test size: it emits, saves a new file and one over it, and reports each
    // ratio against cp from the times it measured.
    void emitReportsSaveAgainstCp()
    {
        QByteArray out;
        nlohmann::json j;
        QByteArray err;
        QCOMPARE(runQuickBench("emit", &j, &out, &err), 0);
        QVERIFY2(!j.is_discarded(), out.constData());
        std::map<std::string, double> m;
        for (const auto& x : j["benchmarks"][0]["measurements"])
            m[x["name"].get<std::string>()] = x["value"].get<double>();
        QVERIFY2(!m.count("emit.failed") && !m.count("emit.write_failed"), err.constData());
        QCOMPARE(m["emit.nodes"], 2000.0);
        QVERIFY(m["emit.emission_ms"] > 0);
        QVERIFY(m["emit.first_emission_ms"] > 0);
        QVERIFY(m["emit.save_ms"] >= m["emit.write_ms"]);
        QVERIFY(m["emit.cp_weights_ms"] > 0);
        QCOMPARE(m["emit.save_vs_cp_ratio"], m["emit.save_ms"] / m["emit.cp_weights_ms"]);
        QCOMPARE(m["emit.replace_save_vs_cp_sync_ratio"], m["emit.replace_save_ms"] / m["emit.cp_sync_weights_ms"]);
        QVERIFY(m["emit.emit_and_save_ms"] >= m["emit.save_ms"]);
        QCOMPARE(m["emit.first_emit_and_save_ms"], m["emit.first_emission_ms"] + m["emit.save_ms"]);
        QVERIFY(QDir(pte::test::tempDir()).entryList({ QStringLiteral("ptelens-bench-*") }, QDir::Dirs).isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestBench)
#include "tst_bench.moc"
