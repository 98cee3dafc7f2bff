// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// ptelens-cli rewrite, synth and bench: exit codes, refusals, messages naming the file.
#include "pte/ptereader.h"
#include "pte/ptewriter.h"
#include "testutils.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTest>

#include <map>
#include <nlohmann/json.hpp>

using namespace pte;

namespace {

QString tmp(const QString& name) { return test::tempDir() + QLatin1Char('/') + name; }

QByteArray readAll(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

} // namespace

class TestCliWriter : public QObject
{
    Q_OBJECT

    /** `ptelens-cli bench --quick --json --dir <temp> NAME`: its exit code; its output, also parsed into `j`
     *  (discarded when it is not JSON). */
    static int runQuickBench(const char* name, nlohmann::json* j, QByteArray* out, QByteArray* err)
    {
        out->clear();
        const int code = test::runCli({ QStringLiteral("bench"), QStringLiteral("--quick"), QStringLiteral("--json"),
                                          QStringLiteral("--dir"), test::tempDir(), QString::fromLatin1(name) },
            out, err);
        *j = nlohmann::json::parse(out->toStdString(), nullptr, false);
        return code;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY2(QFileInfo(test::cliPath()).isExecutable(), "PTELENS_CLI does not name the ptelens-cli binary");
        QByteArray err;
        QCOMPARE(
            test::runCli({ QStringLiteral("synth"), tmp(QStringLiteral("in.pte")), QStringLiteral("--instructions"),
                             QStringLiteral("50"), QStringLiteral("--constant-bytes"), QStringLiteral("3000"),
                             QStringLiteral("--methods"), QStringLiteral("2") },
                nullptr, &err),
            0);
        QFile garbage(tmp(QStringLiteral("garbage.pte")));
        QVERIFY(garbage.open(QIODevice::WriteOnly));
        garbage.write(QByteArray(64, 'x'));
        garbage.close();
        QVERIFY(QFile::link(tmp(QStringLiteral("in.pte")), tmp(QStringLiteral("symlink.pte"))));
    }

    void synthWritesAValidProgram()
    {
        QByteArray out;
        const QString path = tmp(QStringLiteral("synth.pte"));
        QCOMPARE(test::runCli({ QStringLiteral("synth"), path, QStringLiteral("--instructions"), QStringLiteral("11"),
                                  QStringLiteral("--constant-bytes"), QStringLiteral("1K"), QStringLiteral("--json") },
                     &out),
            0);
        const auto j = nlohmann::json::parse(out.toStdString(), nullptr, false);
        QVERIFY(!j.is_discarded());
        QCOMPARE(j.dump(), nlohmann::json::parse(out.toStdString()).dump());
        std::vector<std::string> keys;
        for (auto it = j.begin(); it != j.end(); ++it)
            keys.push_back(it.key());
        std::sort(keys.begin(), keys.end());
        QCOMPARE(keys,
            (std::vector<std::string> { "constant_bytes", "file_size", "instructions", "methods", "output",
                "program_size", "segment_base_offset" }));
        QCOMPARE(j["instructions"].get<int>(), 11);
        QCOMPARE(j["constant_bytes"].get<int>(), 1024);
        QCOMPARE(j["file_size"].get<qint64>(), QFileInfo(path).size());
        QCOMPARE(j["segment_base_offset"].get<int>() % 128, 0);
        QCOMPARE(j["file_size"].get<qint64>(), j["segment_base_offset"].get<qint64>() + 64 + 1024);
        auto file = readPteFile(path.toStdString());
        QVERIFY_RESULT(file);
        QVERIFY((*file)->runtimeWouldAccept());
        const auto& plan = (*file)->program->executionPlan.at(0);
        QCOMPARE(plan.chains.at(0).instructions.size(), std::size_t(11));
        QCOMPARE(plan.operators.at(0).qualifiedName(), std::string("aten::add.out"));
        QCOMPARE(plan.operators.at(1).qualifiedName(), std::string("aten::mul.out"));
    }

    void rewritePreservesTheProgram()
    {
        const QString in = tmp(QStringLiteral("in.pte"));
        const QString out = tmp(QStringLiteral("rewritten.pte"));
        QByteArray stdoutText;
        QCOMPARE(test::runCli({ QStringLiteral("rewrite"), in, out, QStringLiteral("--json") }, &stdoutText), 0);
        const auto j = nlohmann::json::parse(stdoutText.toStdString(), nullptr, false);
        QVERIFY(!j.is_discarded());
        QCOMPARE(j["output"].get<std::string>(), out.toStdString());
        QCOMPARE(j["segments"].get<int>(), 1);
        QCOMPARE(j["verified"].get<bool>(), false);
        // Default options reproduce our own writer's bytes exactly.
        QVERIFY(readAll(in) == readAll(out));
        // Other alignments move the segments but keep the program.
        const QString aligned = tmp(QStringLiteral("aligned.pte"));
        QCOMPARE(test::runCli({ QStringLiteral("rewrite"), QStringLiteral("--segment-alignment"),
                     QStringLiteral("4096"), QStringLiteral("--delegate-alignment"), QStringLiteral("64"),
                     QStringLiteral("--verify"), in, aligned }),
            0);
        auto a = readPteFile(in.toStdString());
        auto b = readPteFile(aligned.toStdString());
        QVERIFY_RESULT(a);
        QVERIFY_RESULT(b);
        QCOMPARE((*b)->header->segmentBaseOffset % 4096, 0ull);
        const auto diff = programDifference(*(*a)->program, *(*b)->program, false);
        QVERIFY2(!diff, diff ? diff->c_str() : "");
        // --sync (wait for the disk) writes the same bytes, over an existing file too.
        QCOMPARE(test::runCli({ QStringLiteral("rewrite"), QStringLiteral("--sync"), in, aligned }), 0);
        QVERIFY(readAll(in) == readAll(aligned));
        QByteArray help;
        QCOMPARE(test::runCli({ QStringLiteral("rewrite"), QStringLiteral("--help") }, &help), 0);
        QVERIFY(help.contains("--sync"));
    }

    void exitCodesAndMessages_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QStringList>("stderrContains");
        const QString in = tmp(QStringLiteral("in.pte"));
        QTest::newRow("rewrite onto itself") << QStringList { QStringLiteral("rewrite"), in,
            in } << 2 << QStringList { QStringLiteral("refusing to overwrite the input file"), in };
        QTest::newRow("rewrite onto a link to itself")
            << QStringList { QStringLiteral("rewrite"), in, tmp(QStringLiteral("symlink.pte")) } << 2
            << QStringList { QStringLiteral("refusing to overwrite the input file") };
        QTest::newRow("rewrite of a missing file") << QStringList { QStringLiteral("rewrite"),
            tmp(QStringLiteral("missing.pte")), tmp(QStringLiteral("o1.pte")) }
                                                   << 1 << QStringList { tmp(QStringLiteral("missing.pte")) };
        QTest::newRow("rewrite of garbage") << QStringList {
            QStringLiteral("rewrite"), tmp(QStringLiteral("garbage.pte")), tmp(QStringLiteral("o2.pte"))
        } << 1 << QStringList { tmp(QStringLiteral("garbage.pte")), QStringLiteral("byte 4") };
        QTest::newRow("rewrite into a missing folder")
            << QStringList { QStringLiteral("rewrite"), in, tmp(QStringLiteral("no/such/dir/o3.pte")) } << 3
            << QStringList { tmp(QStringLiteral("no/such/dir/o3.pte")) };
        QTest::newRow("rewrite with a bad alignment") << QStringList { QStringLiteral("rewrite"),
            QStringLiteral("--segment-alignment"), QStringLiteral("100"), in, tmp(QStringLiteral("o4.pte")) }
                                                      << 2 << QStringList { QStringLiteral("power of two") };
        QTest::newRow("rewrite without OUT") << QStringList { QStringLiteral("rewrite"), in } << 2
                                             << QStringList { QStringLiteral("expected IN and OUT") };
        QTest::newRow("rewrite with an unknown option") << QStringList { QStringLiteral("rewrite"),
            QStringLiteral("--frobnicate"), in, tmp(QStringLiteral("o5.pte")) }
                                                        << 2 << QStringList { QStringLiteral("frobnicate") };
        QTest::newRow("synth without OUT") << QStringList { QStringLiteral("synth") } << 2
                                           << QStringList { QStringLiteral("expected exactly one output file") };
        QTest::newRow("synth with bad instructions") << QStringList { QStringLiteral("synth"),
            tmp(QStringLiteral("s1.pte")), QStringLiteral("--instructions"),
            QStringLiteral("many") } << 2 << QStringList { QStringLiteral("invalid --instructions 'many'") };
        QTest::newRow("synth with zero methods") << QStringList { QStringLiteral("synth"),
            tmp(QStringLiteral("s2.pte")), QStringLiteral("--methods"), QStringLiteral("0") }
                                                 << 2 << QStringList { QStringLiteral("invalid --methods '0'") };
        QTest::newRow("synth with fewer instructions than methods")
            << QStringList { QStringLiteral("synth"), tmp(QStringLiteral("s3.pte")), QStringLiteral("--instructions"),
                   QStringLiteral("1"), QStringLiteral("--methods"), QStringLiteral("2") }
            << 2 << QStringList { QStringLiteral("at least one instruction per method") };
        QTest::newRow("synth into a missing folder")
            << QStringList { QStringLiteral("synth"), tmp(QStringLiteral("no/such/s4.pte")) } << 3
            << QStringList { tmp(QStringLiteral("no/such/s4.pte")) };
        QTest::newRow("bench with an unknown name")
            << QStringList { QStringLiteral("bench"), QStringLiteral("--quick"), QStringLiteral("no-such-bench") } << 2
            << QStringList { QStringLiteral("unknown benchmark 'no-such-bench'") };
    }
    void exitCodesAndMessages()
    {
        QFETCH(QStringList, args);
        QFETCH(int, exitCode);
        QFETCH(QStringList, stderrContains);
        const QByteArray before = readAll(tmp(QStringLiteral("in.pte")));
        QByteArray out;
        QByteArray err;
        QCOMPARE(test::runCli(args, &out, &err), exitCode);
        for (const QString& s : stderrContains)
            QVERIFY2(err.contains(s.toUtf8()), err.constData());
        QVERIFY(readAll(tmp(QStringLiteral("in.pte"))) == before); // the input is never touched
        // Nothing but the files made on purpose is left in the folder (no temporary files).
        const QStringList left = QDir(test::tempDir()).entryList(QDir::Files | QDir::Hidden | QDir::System);
        for (const QString& name : left)
            QVERIFY2(!name.contains(QStringLiteral(".tmp-")), qPrintable(name));
    }

    void benchListsAndRunsQuickly()
    {
        QByteArray out;
        QCOMPARE(test::runCli({ QStringLiteral("bench"), QStringLiteral("--list") }, &out), 0);
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
        QVERIFY(QDir(test::tempDir()).entryList({ QStringLiteral("ptelens-bench-*") }, QDir::Dirs).isEmpty());
    }

    // The emit benchmark at smoke-test size: it emits, saves a new file and one over it, and reports each
    // ratio against cp from the times it measured.
    void benchEmitReportsSaveAgainstCp()
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
        QVERIFY(QDir(test::tempDir()).entryList({ QStringLiteral("ptelens-bench-*") }, QDir::Dirs).isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestCliWriter)
#include "tst_cli_writer.moc"
