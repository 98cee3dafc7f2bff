// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// `ptelens-cli device PROGRAM --runner TEMPLATE`: usage errors, each exit code, and the join it prints, with stand-in
// runners (shell commands that copy an ETDump built here where {etdump} says); tests/runtime/tst_device_runtime runs
// ExecuTorch's runner.
#include "addmulrun.h"
#include "etdumptestutils.h"
#include "executiontestutils.h"
#include "pte/dumpreader.h"
#include "pte/etdumpjoin.h"
#include "pte/runnertemplate.h"
#include "testutils.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>
#include <QTest>

#include <cmath>
#include <nlohmann/json.hpp>

using namespace pte;
using Json = nlohmann::json;

namespace {

/** A stand-in runner: checks the files ptelens wrote are there, then "runs" by copying the prepared ETDump. */
QString standIn(const test::AddMulRun& run)
{
    return QStringLiteral("test -s {pte} && test -f {inputs} && echo running {pte} && cp %1 {etdump} && cp %2 "
                          "{debug_buffer}")
        .arg(QString::fromStdString(shellQuote(run.etdump.toStdString())),
            QString::fromStdString(shellQuote(run.buffer.toStdString())));
}

} // namespace

class TestCliDevice : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void usageErrors_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<int>("code");
        QTest::addColumn<QString>("needle");
        const QString program = test::testDataDir() + QStringLiteral("/emit/add_mul.json");
        QTest::newRow("nothing") << QStringList {} << 2 << "expected exactly one program";
        QTest::newRow("no runner") << QStringList { program } << 2 << "--runner TEMPLATE";
        QTest::newRow("unknown placeholder")
            << QStringList { program, QStringLiteral("--runner"), QStringLiteral("r {pte} --out {etdmp}") } << 2
            << "unknown placeholder '{etdmp}' at offset 14";
        QTest::newRow("no {pte}") << QStringList { program, QStringLiteral("--runner"), QStringLiteral("r {etdump}") }
                                  << 2 << "does not name {pte}";
        QTest::newRow("bad timeout") << QStringList { program, QStringLiteral("--runner"), QStringLiteral("r {pte}"),
            QStringLiteral("--timeout"), QStringLiteral("soon") }
                                     << 2 << "--timeout";
        QTest::newRow("missing program") << QStringList { QStringLiteral("/nonexistent/x.pte"),
            QStringLiteral("--runner"), QStringLiteral("r {pte}") }
                                         << 1 << "/nonexistent/x.pte";
    }
    void usageErrors()
    {
        QFETCH(QStringList, args);
        QFETCH(int, code);
        QFETCH(QString, needle);
        QByteArray out, err;
        QCOMPARE(test::runCli(QStringList { QStringLiteral("device") } + args, &out, &err), code);
        QVERIFY2(err.contains(needle.toUtf8()), err.constData());
    }

    void joinedWithTheReference()
    {
        const auto run = test::writeAddMulRun(QStringLiteral("device_run"), true);
        QVERIFY(!run.etdump.isEmpty());
        QByteArray out, err;
        QCOMPARE(test::runCli({ QStringLiteral("device"), run.program, QStringLiteral("--runner"), standIn(run),
                                  QStringLiteral("--json") },
                     &out, &err),
            0);
        // The command's output went to stderr, as it came; stdout is the profile's JSON.
        QVERIFY2(err.contains("running /"), err.constData());
        const Json j = Json::parse(out.toStdString(), nullptr, false);
        QVERIFY2(j.is_object(), out.constData());
        QCOMPARE(j["program"].get<std::string>(), run.program.toStdString());
        QVERIFY(j["etdump"].get<std::string>().ends_with("/run.etdp"));
        QVERIFY(j["debug_buffer"].get<std::string>().ends_with("/debug.bin"));
        QCOMPARE(j["join"]["joined"].get<bool>(), true);
        QCOMPARE(j["join"]["mismatch"].get<bool>(), false);
        int mapped = 0;
        for (const auto& row : j["rows"])
            mapped += row["instruction"].get<int>() >= 0 ? 1 : 0;
        QVERIFY(mapped >= 2);
        // The interpreter's values beside the device's: add is off where the device was, mul is not.
        const Json& values = j["reference"][0]["values"];
        QCOMPARE(values[0]["operator"].get<std::string>(), std::string("aten::add.out"));
        QVERIFY(std::abs(values[0]["l1"].get<double>() - 0.5) < 1e-6);
        QCOMPARE(values[1]["mse"].get<double>(), 0.0);
    }

    // Without --inputs, {inputs} holds the reference inputs, so that the runner runs on what the interpreter is given:
    // "{}" (the runner's default) for the pattern fill, the values themselves otherwise (add_mul: two f32[2, 3]).
    void inputsFileCarriesTheReferenceInputs_data()
    {
        QTest::addColumn<QString>("reference");
        QTest::addColumn<QString>("expected");
        QTest::newRow("pattern") << QStringLiteral("pattern") << QStringLiteral("{}");
        QTest::newRow("ones") << QStringLiteral("ones")
                              << QStringLiteral("{\"forward\":[[1.0,1.0,1.0,1.0,1.0,1.0],[1.0,1.0,1.0,1.0,1.0,1.0]]}");
        QTest::newRow("zeros") << QStringLiteral("zeros")
                               << QStringLiteral("{\"forward\":[[0.0,0.0,0.0,0.0,0.0,0.0],[0.0,0.0,0.0,0.0,0.0,0.0]]}");
    }
    void inputsFileCarriesTheReferenceInputs()
    {
        QFETCH(QString, reference);
        QFETCH(QString, expected);
        const auto run = test::writeAddMulRun(QStringLiteral("device_run"), true);
        const QString seen = test::tempDir() + QStringLiteral("/seen_inputs_") + reference + QStringLiteral(".json");
        QFile::remove(seen);
        const QString runner =
            QStringLiteral("cp {inputs} %1 && ").arg(QString::fromStdString(shellQuote(seen.toStdString())))
            + standIn(run);
        QByteArray out, err;
        QCOMPARE(test::runCli({ QStringLiteral("device"), run.program, QStringLiteral("--runner"), runner,
                                  QStringLiteral("--reference-inputs"), reference },
                     &out, &err),
            0);
        QFile f(seen);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(QString::fromUtf8(f.readAll()).trimmed(), expected);
    }

    void graphDumpEmittedFirst()
    {
        const auto run = test::writeAddMulRun(QStringLiteral("device_run"), true);
        QByteArray out, err;
        QCOMPARE(test::runCli({ QStringLiteral("device"), test::testDataDir() + QStringLiteral("/emit/add_mul.json"),
                                  QStringLiteral("--runner"), standIn(run) },
                     &out, &err),
            0);
        QVERIFY2(err.contains("is a graph dump: emitted"), err.constData());
        QVERIFY2(out.contains("Reference gap of 'forward'"), out.constData());
        QVERIFY(out.contains("Program:     /")); // the emitted copy the command ran
    }

    void commandFails()
    {
        QByteArray out, err;
        QCOMPARE(test::runCli({ QStringLiteral("device"), test::testDataDir() + QStringLiteral("/emit/add_mul.json"),
                                  QStringLiteral("--runner"), QStringLiteral("echo 'cannot load {pte}' >&2; exit 7") },
                     &out, &err),
            5);
        QVERIFY2(err.contains("The command failed: exit code 7."), err.constData());
        QVERIFY2(err.contains("its last output lines:\n  cannot load /"), err.constData());
        QVERIFY(out.isEmpty());
    }

    void noEtdump()
    {
        QByteArray out, err;
        QCOMPARE(test::runCli({ QStringLiteral("device"), test::testDataDir() + QStringLiteral("/emit/add_mul.json"),
                                  QStringLiteral("--runner"), QStringLiteral("true {pte} {etdump}") },
                     &out, &err),
            6);
        QVERIFY2(QRegularExpression(QStringLiteral("exited 0 but wrote no ETDump at /\\S+/run\\.etdp"))
                     .match(QString::fromUtf8(err))
                     .hasMatch(),
            err.constData());
    }

    void timeoutEndsTheCommand()
    {
        QByteArray out, err;
        QCOMPARE(test::runCli({ QStringLiteral("device"), test::testDataDir() + QStringLiteral("/emit/add_mul.json"),
                                  QStringLiteral("--runner"), QStringLiteral("sh -c 'sleep 1000' {pte}"),
                                  QStringLiteral("--timeout"), QStringLiteral("0.1") },
                     &out, &err),
            5);
        QVERIFY2(err.contains("longer than the timeout"), err.constData());
    }

    void keepFolder()
    {
        const auto run = test::writeAddMulRun(QStringLiteral("device_run"), true);
        QByteArray out, err;
        QCOMPARE(test::runCli({ QStringLiteral("device"), run.program, QStringLiteral("--runner"), standIn(run),
                                  QStringLiteral("--keep"), QStringLiteral("--tsv") },
                     &out, &err),
            0);
        const auto m = QRegularExpression(QStringLiteral("kept (\\S+)")).match(QString::fromUtf8(err));
        QVERIFY2(m.hasMatch(), err.constData());
        QDir kept(m.captured(1));
        QVERIFY(kept.exists(QStringLiteral("program.pte")));
        QVERIFY(kept.exists(QStringLiteral("run.etdp")));
        QVERIFY(kept.exists(QStringLiteral("inputs.json")));
        QVERIFY(kept.removeRecursively());
    }
};

QTEST_GUILESS_MAIN(TestCliDevice)
#include "tst_cli_device.moc"
