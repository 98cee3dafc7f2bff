// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// ptelens-cli rewrite and synth: exit codes, refusals, messages naming the file.
#include "pte/programequality.h"
#include "pte/ptereader.h"
#include "testutils.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTest>

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
};

QTEST_GUILESS_MAIN(TestCliWriter)
#include "tst_cli_writer.moc"
