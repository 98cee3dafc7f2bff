// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// ptelens-cli diff: exit codes like diff(1), the readable and JSON reports, dumps emitted before comparing.
#include "testutils.h"

#include <QFile>
#include <QFileInfo>
#include <QTest>

#include <nlohmann/json.hpp>

using namespace pte;

namespace {

QString tmp(const QString& name) { return test::tempDir() + QLatin1Char('/') + name; }

int cli(const QStringList& args, QByteArray* out = nullptr, QByteArray* err = nullptr)
{
    return test::runCli(args, out, err);
}

} // namespace

class TestCliDiff : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY2(QFileInfo(test::cliPath()).isExecutable(), "PTELENS_CLI does not name the ptelens-cli binary");
        auto synth = [](const QString& name, const char* instructions) {
            return cli({ QStringLiteral("synth"), tmp(name), QStringLiteral("--instructions"),
                QString::fromLatin1(instructions), QStringLiteral("--constant-bytes"), QStringLiteral("4K") });
        };
        QCOMPARE(synth(QStringLiteral("a.pte"), "40"), 0);
        QCOMPARE(synth(QStringLiteral("longer.pte"), "42"), 0);
        QCOMPARE(cli({ QStringLiteral("rewrite"), QStringLiteral("--segment-alignment"), QStringLiteral("4096"),
                     tmp(QStringLiteral("a.pte")), tmp(QStringLiteral("a-aligned.pte")) }),
            0);
        QFile garbage(tmp(QStringLiteral("garbage.pte")));
        QVERIFY(garbage.open(QIODevice::WriteOnly));
        garbage.write(QByteArray(64, 'x'));
        garbage.close();
        const QString dump = test::testDataDir() + QStringLiteral("/emit/add_mul.json");
        QCOMPARE(cli({ QStringLiteral("emit"), dump, QStringLiteral("-o"), tmp(QStringLiteral("add_mul.pte")) }), 0);
    }

    void exitCodes_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QString>("stdoutContains");
        QTest::addColumn<QString>("stderrContains");
        const QString a = tmp(QStringLiteral("a.pte"));
        const QString aligned = tmp(QStringLiteral("a-aligned.pte"));
        const QString longer = tmp(QStringLiteral("longer.pte"));
        const QString dump = test::testDataDir() + QStringLiteral("/emit/add_mul.json");
        const QString diff = QStringLiteral("diff");
        QTest::newRow("equal") << QStringList { diff, a, a } << 0 << "equal (semantic comparison)"
                               << "";
        QTest::newRow("layout only, semantic") << QStringList { diff, a, aligned } << 0 << "equal"
                                               << "";
        QTest::newRow("layout only, strict") << QStringList { diff, QStringLiteral("--strict"), a, aligned } << 1
                                             << "~ extended header segment_base_offset"
                                             << "";
        QTest::newRow("different") << QStringList { diff, a, longer } << 1
                                   << "+ instructions 40\u201341: aten::add.out("
                                   << "";
        QTest::newRow("a dump against its emission")
            << QStringList { diff, dump, tmp(QStringLiteral("add_mul.pte")) } << 0 << "equal"
            << "";
        QTest::newRow("one method") << QStringList { diff, QStringLiteral("--method"), QStringLiteral("forward"), a,
            longer } << 1 << "method forward: 40 -> 42 instructions"
                                    << "";
        QTest::newRow("a method one side lacks")
            << QStringList { diff, QStringLiteral("--method"), QStringLiteral("nope"), a, longer } << 2 << ""
            << "has no method 'nope'";
        QTest::newRow("missing file") << QStringList { diff, a, tmp(QStringLiteral("missing.pte")) } << 2 << ""
                                      << tmp(QStringLiteral("missing.pte"));
        // named .pte: the program reader's message, with the byte offset, not the graph-dump reader's
        QTest::newRow("not a program") << QStringList { diff, tmp(QStringLiteral("garbage.pte")), a } << 2 << ""
                                       << tmp(QStringLiteral("garbage.pte"))
                + QStringLiteral(" is not an ExecuTorch program (.pte): bytes 4..7 are");
        QTest::newRow("one argument") << QStringList { diff, a } << 2 << ""
                                      << "expected two programs, A and B";
        QTest::newRow("unknown option") << QStringList { diff, QStringLiteral("--frobnicate"), a, a } << 2 << ""
                                        << "frobnicate";
        QTest::newRow("an ETRecord that is not one")
            << QStringList { diff, QStringLiteral("--etrecord-a"), dump, a, a } << 2 << ""
            << "is not an ETRecord";
    }
    void exitCodes()
    {
        QFETCH(QStringList, args);
        QFETCH(int, exitCode);
        QFETCH(QString, stdoutContains);
        QFETCH(QString, stderrContains);
        QByteArray out;
        QByteArray err;
        QCOMPARE(cli(args, &out, &err), exitCode);
        QVERIFY2(out.contains(stdoutContains.toUtf8()), out.constData());
        QVERIFY2(err.contains(stderrContains.toUtf8()), err.constData());
    }

    void jsonReport()
    {
        QByteArray out;
        QCOMPARE(cli({ QStringLiteral("diff"), QStringLiteral("--json"), tmp(QStringLiteral("a.pte")),
                         tmp(QStringLiteral("longer.pte")) },
                     &out),
            1);
        const auto j = nlohmann::json::parse(out.toStdString(), nullptr, false);
        QVERIFY(!j.is_discarded());
        QCOMPARE(j["equal"].get<bool>(), false);
        QCOMPARE(j["mode"].get<std::string>(), std::string("semantic"));
        QCOMPARE(j["summary"]["differences"].get<int>(), 1);
        const auto& d = j["differences"][0];
        QCOMPARE(d["category"].get<std::string>(), std::string("instruction"));
        QCOMPARE(d["status"].get<std::string>(), std::string("added"));
        QCOMPARE(d["index_b"].get<int>(), 40);
        const auto& m = j["methods"][0];
        QCOMPARE(m["instructions"]["same"].get<int>(), 40);
        QCOMPARE(m["instructions"]["inserted"].get<int>(), 2);
        QCOMPARE(m["operators"]["aten::add.out"][0].get<int>(), 20);
        QCOMPARE(m["operators"]["aten::add.out"][1].get<int>(), 21);
        QCOMPARE(m["rows"].size(), std::size_t(2));
        QCOMPARE(j["constants"].size(), std::size_t(0)); // only differing constants are listed
        QCOMPARE(j["summary"]["constants"]["compared"].get<int>(), 2);
        // Equal programs: exit 0, "equal": true.
        QCOMPARE(cli({ QStringLiteral("diff"), QStringLiteral("--json"), tmp(QStringLiteral("a.pte")),
                         tmp(QStringLiteral("a-aligned.pte")) },
                     &out),
            0);
        QCOMPARE(nlohmann::json::parse(out.toStdString())["equal"].get<bool>(), true);
    }

    void helpAndListing()
    {
        QByteArray out;
        QCOMPARE(cli({ QStringLiteral("diff"), QStringLiteral("--help") }, &out), 0);
        QVERIFY(out.contains("--strict"));
        QVERIFY(out.contains("0 equal, 1 different, 2 usage error or unreadable input"));
        QCOMPARE(cli({ QStringLiteral("--help") }, &out), 0);
        QVERIFY(out.contains("diff"));
    }
};

QTEST_GUILESS_MAIN(TestCliDiff)
#include "tst_cli_diff.moc"
