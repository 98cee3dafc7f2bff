// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// `ptelens-cli device` with ExecuTorch's own runtime as the user's runner ($PTELENS_ET_RUNNER, etrt_runner): the
// program written to the run's folder runs there, the ETDump it writes (with every intermediate value in its debug
// buffer) joins the program with every operator call on its instruction, and the reference interpreter's values
// beside the runtime's agree. Skipped, with the reason, when the runner is absent.
#include "etrunner.h"
#include "testutils.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>

#include <nlohmann/json.hpp>

using namespace pte;
using Json = nlohmann::json;

namespace {

/** The runner's real flags: the ETDump, the debug buffer with every intermediate output, the inputs file. */
const QString kTemplate = QStringLiteral("\"$PTELENS_ET_RUNNER\" --etdump {etdump} --debug-buffer {debug_buffer} "
                                         "--debug-level intermediates --inputs {inputs} --runs 2 {pte}");

} // namespace

class TestDeviceRuntime : public QObject
{
    Q_OBJECT
private slots:
    void runsAndJoins_data()
    {
        QTest::addColumn<QString>("program");
        QTest::addColumn<QStringList>("extra");
        QTest::addColumn<int>("kernels");
        QTest::addColumn<double>("l1Max"); // float sums in another order (convolutions) differ in the last bits
        QTest::newRow("add_mul (graph dump, emitted first)")
            << test::testDataDir() + QStringLiteral("/emit/add_mul.json") << QStringList {} << 2 << 1e-6;
        QTest::newRow("view (graph dump, emitted first)")
            << test::testDataDir() + QStringLiteral("/emit/view.json") << QStringList {} << 1 << 1e-6;
        // Reference inputs other than the runner's default fill reach the runner through {inputs}.
        QTest::newRow("add_mul on ones") << test::testDataDir() + QStringLiteral("/emit/add_mul.json")
                                         << QStringList { QStringLiteral("--reference-inputs"), QStringLiteral("ones") }
                                         << 2 << 1e-6;
        // A bundled program: the runner gets the program inside and the test case's inputs.
        if (test::corpusRowsAvailable())
            QTest::newRow("corpus tutorial bundled program, case 0")
                << test::corpusPath(
                       QStringLiteral("pte/pytorch_executorch__docs__source__tutorials_source__bundled_program.bp"))
                << QStringList { QStringLiteral("--reference-inputs"), QStringLiteral("bundled:0") } << 10 << 1e-3;
    }
    void runsAndJoins()
    {
        PTE_REQUIRE_ET_RUNNER();
        PTE_REQUIRE_CORPUS_ROW();
        QFETCH(QString, program);
        QFETCH(QStringList, extra);
        QFETCH(int, kernels);
        QFETCH(double, l1Max);
        QByteArray out, err;
        const int code = test::runCli(QStringList { QStringLiteral("device"), program, QStringLiteral("--runner"),
                                          kTemplate, QStringLiteral("--json") }
                + extra,
            &out, &err);
        QVERIFY2(code == 0, err.constData());
        QVERIFY2(err.contains("result: ok"), err.constData()); // the runner's own report, passed on
        const Json j = Json::parse(out.toStdString(), nullptr, false);
        QVERIFY2(j.is_object(), out.constData());
        QCOMPARE(j["join"]["joined"].get<bool>(), true);
        QCOMPARE(j["join"]["mismatch"].get<bool>(), false);
        QVERIFY(!j["debug_buffer"].is_null());
        // Every operator call is on an instruction; --runs 2 merged into one Execute block row per event.
        int calls = 0;
        for (const auto& row : j["rows"]) {
            if (row["event_name"] != "OPERATOR_CALL")
                continue;
            ++calls;
            QVERIFY2(row["instruction"].get<int>() >= 0, row.dump().c_str());
            QCOMPARE(row["raw"].size(), std::size_t(2));
        }
        QVERIFY2(calls >= kernels, out.constData());
        // The reference interpreter's values beside the runtime's: the same (it runs each of these operators).
        QCOMPARE(j["reference"].size(), std::size_t(1));
        const Json& values = j["reference"][0]["values"];
        QVERIFY(values.size() >= std::size_t(kernels));
        for (const auto& v : values) {
            QVERIFY2(v["reason"].is_null(), v.dump().c_str());
            QVERIFY2(v["mse"].get<double>() < 1e-12, v.dump().c_str());
            QVERIFY2(v["l1"].get<double>() < l1Max, v.dump().c_str());
        }
    }

    // The adb sequence of docs/run-on-device.md (push, shell, pull), with a stand-in `adb` first on PATH whose "phone"
    // is a folder: push and pull copy in and out of it, shell runs the command with /data/local/tmp in that folder.
    // ExecuTorch's runner is the binary on the "phone"; the ETDump it writes there comes back and joins the program.
    void adbSequence()
    {
        PTE_REQUIRE_ET_RUNNER();
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString phone = dir.filePath(QStringLiteral("phone"));
        QVERIFY(QDir().mkpath(phone + QStringLiteral("/data/local/tmp")));
        QVERIFY(QFile::copy(test::etRunnerPath(), phone + QStringLiteral("/data/local/tmp/executor_runner")));
        QFile adb(dir.filePath(QStringLiteral("adb")));
        QVERIFY(adb.open(QIODevice::WriteOnly));
        adb.write(QStringLiteral(
            "#!/bin/sh\n"
            "# a stand-in for adb: the phone is the folder %1\n"
            "root='%1'\n"
            "case \"$1\" in\n"
            "push) cp \"$2\" \"$root$3\" && echo \"$2: 1 file pushed\" ;;\n"
            "pull) cp \"$root$2\" \"$3\" && echo \"$2: 1 file pulled\" ;;\n"
            "shell) shift; cmd=$(printf '%s ' \"$@\" | sed \"s#/data/local/tmp#$root/data/local/tmp#g\"); "
            "sh -c \"$cmd\" ;;\n"
            "*) echo \"adb: unknown command $1\" >&2; exit 1 ;;\n"
            "esac\n")
                      .arg(phone)
                      .toUtf8());
        adb.close();
        QVERIFY(adb.setPermissions(adb.permissions() | QFileDevice::ExeOwner));
        const QString templ = QStringLiteral(
            "PATH='%1':$PATH; adb push {pte} /data/local/tmp/m.pte && "
            "adb shell /data/local/tmp/executor_runner --etdump /data/local/tmp/m.etdp /data/local/tmp/m.pte && "
            "adb pull /data/local/tmp/m.etdp {etdump}")
                                  .arg(dir.path());
        QByteArray out, err;
        const int code =
            test::runCli({ QStringLiteral("device"), test::testDataDir() + QStringLiteral("/emit/add_mul.json"),
                             QStringLiteral("--runner"), templ, QStringLiteral("--json") },
                &out, &err);
        QVERIFY2(code == 0, err.constData());
        QVERIFY2(err.contains("1 file pushed") && err.contains("result: ok") && err.contains("1 file pulled"),
            err.constData());
        QVERIFY(QFileInfo::exists(phone + QStringLiteral("/data/local/tmp/m.etdp")));
        const Json j = Json::parse(out.toStdString(), nullptr, false);
        QVERIFY2(j.is_object(), out.constData());
        QCOMPARE(j["join"]["joined"].get<bool>(), true);
        QCOMPARE(j["join"]["mismatch"].get<bool>(), false);
        int calls = 0;
        for (const auto& row : j["rows"])
            calls += row["event_name"] == "OPERATOR_CALL" && row["instruction"].get<int>() >= 0 ? 1 : 0;
        QCOMPARE(calls, 2); // add and mul, one run
    }
};

QTEST_GUILESS_MAIN(TestDeviceRuntime)
#include "tst_device_runtime.moc"
