// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// `ptelens-cli profile` (the Inspector table, joined with a program) and the bundled-program side of `info`, `dump` and
// `rewrite`: outputs, exit codes and messages, on ETDumps built here and on the corpus.
#include "addmulrun.h"
#include "etdumptestutils.h"
#include "executiontestutils.h"
#include "pte/bundledprogram.h"
#include "pte/dumpreader.h"
#include "pte/etdumpjoin.h"
#include "pte/ptereader.h"
#include "testutils.h"

#include <QFile>
#include <QTest>

#include <cmath>
#include <cstring>
#include <nlohmann/json.hpp>

using namespace pte;
using Json = nlohmann::json;

namespace {

Json parseJson(const QByteArray& out) { return Json::parse(out.toStdString(), nullptr, false); }

QString writeTemp(const QString& name, const std::vector<std::uint8_t>& data)
{
    const QString path = test::tempDir() + QLatin1Char('/') + name;
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly))
        return {};
    f.write(reinterpret_cast<const char*>(data.data()), qsizetype(data.size()));
    return path;
}

/** Two identical runs of one kernel logging its output, with a debug buffer. */
QString writeDumpWithBuffer()
{
    test::EtdumpBuilder b;
    b.loadBlock();
    for (int run = 0; run < 2; ++run) {
        b.block("Execute");
        b.debugTensor(0, 0, ScalarType::Float, { 3 }, run * 12);
        b.profile("native_call_relu.out", 0, 0, 1000, 2000 + run * 1000);
        b.profile("OPERATOR_CALL", 0, 0, 900, 2100 + run * 1000);
        b.profile("Method::execute", -1, 0, 800, 2200 + run * 1000);
    }
    writeTemp(QStringLiteral("relu.bin"), test::floatBuffer({ 0, 1.5f, 2, 0, 1.5f, 2 }));
    return writeTemp(QStringLiteral("relu.etdp"), b.bytes());
}

} // namespace

class TestCliProfile : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void usageErrors_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<int>("code");
        QTest::addColumn<QString>("needle");
        QTest::newRow("nothing") << QStringList {} << 2 << "expected exactly one ETDump";
        QTest::newRow("two formats") << QStringList { QStringLiteral("x.etdp"), QStringLiteral("--json"),
            QStringLiteral("--tsv") } << 2
                                     << "exclude each other";
        QTest::newRow("time scale") << QStringList { QStringLiteral("x.etdp"), QStringLiteral("--target-time-scale"),
            QStringLiteral("hours") }
                                    << 2 << "unknown time scale 'hours'";
        QTest::newRow("missing") << QStringList { QStringLiteral("/nonexistent/x.etdp") } << 1 << "/nonexistent/x.etdp";
        QTest::newRow("reference without program")
            << QStringList { QStringLiteral("x.etdp"), QStringLiteral("--reference-inputs"), QStringLiteral("pattern") }
            << 2 << "--reference-inputs needs --program";
        QTest::newRow("reference case") << QStringList { QStringLiteral("x.etdp"), QStringLiteral("--program"),
            QStringLiteral("x.pte"), QStringLiteral("--reference-inputs"), QStringLiteral("bundled:x") }
                                        << 2 << "'bundled:' takes a test case number";
    }

    void usageErrors()
    {
        QFETCH(QStringList, args);
        QFETCH(int, code);
        QFETCH(QString, needle);
        QByteArray out;
        QByteArray err;
        QCOMPARE(test::runCli(QStringList { QStringLiteral("profile") } + args, &out, &err), code);
        QVERIFY2(err.contains(needle.toUtf8()), err.constData());
    }

    void jsonRowsAggregateRunsAndShowLoggedValues()
    {
        const QString path = writeDumpWithBuffer();
        QVERIFY(!path.isEmpty());
        QByteArray out;
        QCOMPARE(test::runCli({ QStringLiteral("profile"), path, QStringLiteral("--json") }, &out), 0);
        const Json j = parseJson(out);
        QVERIFY(!j.is_discarded());
        QCOMPARE(j["debug_buffer"].get<std::string>(), (test::tempDir() + QStringLiteral("/relu.bin")).toStdString());
        QCOMPARE(j["blocks"].size(), std::size_t(2));
        QVERIFY(j["blocks"][1]["runs"] == Json::parse("[1, 2]"));
        QCOMPARE(j["rows"].size(), std::size_t(2 + 3));
        const Json& op = j["rows"][3];
        QCOMPARE(op["event_name"].get<std::string>(), std::string("OPERATOR_CALL"));
        QVERIFY(op["raw"] == Json::parse("[0.0012, 0.0022]"));
        QVERIFY(std::abs(op["p50 (ms)"].get<double>() - 0.0017) < 1e-15); // midway between the two runs
        QCOMPARE(op["instruction"].get<int>(), 0);
        const Json& logged = op["debug_data"][0]["tensors"][0];
        QVERIFY(logged["sizes"] == Json::parse("[3]"));
        QVERIFY(logged["first"] == Json::parse("[0.0, 1.5, 2.0]"));
        QCOMPARE(logged["max"].get<double>(), 2.0);
        QVERIFY(std::abs(j["summary"]["execute_total"].get<double>() - 0.0019) < 1e-15);
    }

    void referenceInputsGiveEachLoggedValueItsGap()
    {
        const auto run = test::writeAddMulRun(QStringLiteral("add_mul_run"), false);
        const QString& program = run.program;
        const QString& etdump = run.etdump;
        QVERIFY(!etdump.isEmpty());
        QByteArray out;
        QByteArray err;
        const QStringList args { QStringLiteral("profile"), etdump, QStringLiteral("--program"), program,
            QStringLiteral("--reference-inputs"), QStringLiteral("pattern") };
        QCOMPARE(test::runCli(args + QStringList { QStringLiteral("--json") }, &out, &err), 0);
        const Json j = parseJson(out);
        QVERIFY2(!j.is_discarded(), err.constData());
        QCOMPARE(j["reference"].size(), std::size_t(1));
        const Json& m = j["reference"][0];
        QCOMPARE(m["method"].get<std::string>(), std::string("forward"));
        QCOMPARE(m["inputs"].get<std::string>(), std::string("runner pattern fill"));
        QVERIFY(m["inputs_assumed"].get<bool>());
        QCOMPARE(m["values"].size(), std::size_t(2));
        const Json& add = m["values"][0];
        QCOMPARE(add["instruction"].get<int>(), 0);
        QCOMPARE(add["operator"].get<std::string>(), std::string("aten::add.out"));
        QVERIFY(std::abs(add["mse"].get<double>() - 0.25 / 6) < 1e-6); // one element off by 0.5
        QVERIFY(std::abs(add["l1"].get<double>() - 0.5) < 1e-6);
        QVERIFY(add["snr"].is_number());
        QVERIFY(add["reason"].is_null());
        const Json& mul = m["values"][1];
        QCOMPARE(mul["instruction"].get<int>(), 1);
        QCOMPARE(mul["mse"].get<double>(), 0.0);
        QCOMPARE(mul["snr"].get<std::string>(), std::string("inf"));
        // Other inputs than the run's: the gap shows everywhere. A file the spec names that is not there: exit 1.
        QCOMPARE(
            test::runCli({ QStringLiteral("profile"), etdump, QStringLiteral("--program"), program,
                             QStringLiteral("--reference-inputs"), QStringLiteral("ones"), QStringLiteral("--json") },
                &out),
            0);
        QVERIFY(parseJson(out)["reference"][0]["values"][1]["mse"].get<double>() > 0);
        QCOMPARE(test::runCli({ QStringLiteral("profile"), etdump, QStringLiteral("--program"), program,
                                  QStringLiteral("--reference-inputs"), QStringLiteral("/nonexistent/in.json") },
                     &out, &err),
            1);
        QVERIFY2(err.contains("/nonexistent/in.json"), err.constData());
        // The table output says where the expected values come from and lists each value.
        QCOMPARE(test::runCli(args, &out), 0);
        QVERIFY2(out.contains("Reference gap of 'forward' (inputs: runner pattern fill, assumed):"), out.constData());
        QVERIFY(out.contains("aten::add.out"));
    }

    void textAndTables()
    {
        const QString path = writeDumpWithBuffer();
        QByteArray out;
        QCOMPARE(test::runCli({ QStringLiteral("profile"), path }, &out), 0);
        QVERIFY(out.contains("By operator:"));
        QVERIFY(out.contains("relu.out"));
        QCOMPARE(test::runCli({ QStringLiteral("profile"), path, QStringLiteral("--tsv") }, &out), 0);
        const auto lines = out.split('\n');
        QCOMPARE(lines.size(), 1 + 5 + 1); // header, rows, final newline
        QCOMPARE(lines[0].split('\t').size(), 17);
        QVERIFY(lines[0].startsWith("event_block_name\tevent_name\traw\tp10 (ms)"));
        QCOMPARE(test::runCli({ QStringLiteral("profile"), path, QStringLiteral("--csv"),
                                  QStringLiteral("--target-time-scale"), QStringLiteral("us") },
                     &out),
            0);
        QVERIFY(out.contains("p50 (us)"));
        const auto csv = out.split('\n');
        const auto op =
            std::find_if(csv.begin(), csv.end(), [](const QByteArray& l) { return l.contains("OPERATOR_CALL"); });
        QVERIFY(op != csv.end());
        QVERIFY2(op->startsWith("Execute,OPERATOR_CALL,\"[1.2, 2.2]\","), op->constData());
        QVERIFY2(op->endsWith(",False,,[tensor(f32[3])],\"[900, 900]\""), op->constData());
    }

    void corpusMobilenet()
    {
        PTE_REQUIRE_CORPUS();
        const QString path =
            test::corpusPath(QStringLiteral("pte/taemin6697_Executorch-Tutorials__Profiling__mobilenet__etdump.etdp"));
        QByteArray out;
        QCOMPARE(test::runCli({ QStringLiteral("profile"), path, QStringLiteral("--csv") }, &out), 0);
        const auto lines = out.trimmed().split('\n');
        QCOMPARE(lines.size(), 74);
        QCOMPARE(lines[3],
            QByteArray("Execute,\"Transpose (ND, X32) #1\",[0.272000000000002],0.272000000000002,0.272000000000002,"
                       "0.272000000000002,0.272000000000002,0.272000000000002,0.272000000000002,[],"
                       "\"Transpose (ND, X32) #1\",{},{},True,,,[17504192]"));
        QCOMPARE(test::runCli({ QStringLiteral("profile"), path, QStringLiteral("--json") }, &out), 0);
        const Json j = parseJson(out);
        QCOMPARE(j["rows"].size(), std::size_t(73));
        QCOMPARE(j["events"]["profile"].get<int>(), 73);
        QCOMPARE(j["rows"][72]["event_name"].get<std::string>(), std::string("Method::execute"));
        QCOMPARE(j["rows"][72]["p50 (ms)"].get<double>(), 12.917418);
        QVERIFY(j["rows"][67]["delegate_debug_identifier"].is_null());
    }

    void corpusTutorialWithItsProgram()
    {
        PTE_REQUIRE_CORPUS();
        const QString dump =
            test::corpusPath(QStringLiteral("pte/pytorch_executorch__docs__source__tutorials_source__etdump.etdp"));
        const QString program = test::corpusPath(
            QStringLiteral("pte/pytorch_executorch__docs__source__tutorials_source__bundled_program.bp"));
        QByteArray out;
        QByteArray err;
        QCOMPARE(test::runCli({ QStringLiteral("profile"), dump, QStringLiteral("--program"), program,
                                  QStringLiteral("--json") },
                     &out, &err),
            0);
        const Json j = parseJson(out);
        QCOMPARE(j["rows"].size(), std::size_t(31));
        QCOMPARE(j["runs"][1]["method"].get<std::string>(), std::string("forward"));
        QCOMPARE(j["rows"][2]["method"].get<std::string>(), std::string("forward"));
        QCOMPARE(j["summary"]["by_operator"][0]["key"].get<std::string>(), std::string("aten::convolution.out"));
        QCOMPARE(j["summary"]["by_backend"][0]["rows"].get<int>(), 14);
        QVERIFY(!j["join"]["mismatch"].get<bool>());
        // The MobileNet ETDump does not come from that program: said clearly, exit 1, rows still printed.
        const QString mobilenet =
            test::corpusPath(QStringLiteral("pte/taemin6697_Executorch-Tutorials__Profiling__mobilenet__etdump.etdp"));
        QCOMPARE(
            test::runCli({ QStringLiteral("profile"), mobilenet, QStringLiteral("--program"), program }, &out, &err),
            1);
        QVERIFY2(err.contains("does not match the program"), err.constData());
        QVERIFY(out.contains("Method::execute"));
        QCOMPARE(test::runCli({ QStringLiteral("profile"), mobilenet, QStringLiteral("--program"), program,
                                  QStringLiteral("--method"), QStringLiteral("nope") },
                     &out, &err),
            2);
        QVERIFY(err.contains("no method 'nope'"));
    }

    void bundledProgramInInfoDumpAndRewrite()
    {
        PTE_REQUIRE_CORPUS();
        const QString bpte = test::corpusPath(
            QStringLiteral("pte/pytorch_executorch__extension__module__test__resources__bundled_program.bpte"));
        QByteArray out;
        QCOMPARE(test::runCli({ QStringLiteral("info"), bpte, QStringLiteral("--json") }, &out), 0);
        Json j = parseJson(out);
        QCOMPARE(j["file_size"].get<int>(), 4608);
        QCOMPARE(j["bundled_program"]["program_offset"].get<int>(), 64);
        QCOMPARE(j["bundled_program"]["test_suites"][0]["method"].get<std::string>(), std::string("forward"));
        QCOMPARE(j["bundled_program"]["test_suites"][0]["test_cases"].size(), std::size_t(10));
        QVERIFY(j["bundled_program"]["test_suites"][0]["test_cases"][0]["inputs"]
            == Json::parse(R"(["i32[2, 2]", "i32[2, 2]"])"));
        QCOMPARE(j["methods"][0]["instructions"]["total"].get<int>(), 3);
        QCOMPARE(test::runCli({ QStringLiteral("info"), bpte }, &out), 0);
        QVERIFY(out.contains("test suite forward: 10 test case(s)"));
        QCOMPARE(test::runCli({ QStringLiteral("dump"), bpte, QStringLiteral("--json") }, &out), 0);
        j = parseJson(out);
        QCOMPARE(j["version"].get<int>(), 2);
        QCOMPARE(j["method_test_suites"][0]["test_cases"].size(), std::size_t(10));
        QCOMPARE(j["method_test_suites"][0]["test_cases"][0]["inputs"][0]["val"]["data"]["size"].get<int>(), 16);
        QCOMPARE(j["program"]["execution_plan"][0]["name"].get<std::string>(), std::string("forward"));
        const QString rewritten = test::tempDir() + QStringLiteral("/rewritten.bpte");
        QCOMPARE(test::runCli({ QStringLiteral("rewrite"), bpte, rewritten, QStringLiteral("--verify"),
                                  QStringLiteral("--json") },
                     &out),
            0);
        QCOMPARE(parseJson(out)["bundled_test_suites"].get<int>(), 1);
        QCOMPARE(test::runCli({ QStringLiteral("dump"), rewritten, QStringLiteral("--json") }, &out), 0);
        const Json again = parseJson(out);
        QVERIFY(again["method_test_suites"] == j["method_test_suites"]);
    }

    void bundledProgramOutputsAgainstTheirTestCase()
    {
        PTE_REQUIRE_CORPUS();
        const QString bpte = test::corpusPath(
            QStringLiteral("pte/pytorch_executorch__extension__module__test__resources__bundled_program.bpte"));
        // One execution of test case 3 of the corpus program (3 KernelCalls, output %7, i32[2, 2]) logging its output:
        // the expected output with element 2 off by 2.
        const auto file = pte::readPteFile(bpte.toStdString());
        QVERIFY(file && (*file)->bundled);
        const auto& want = (*file)->bundled->testSuites[0].testCases[3].expectedOutputs[0].data;
        QCOMPARE(want.size(), std::size_t(16));
        std::vector<std::uint8_t> logged(want.data(), want.data() + want.size());
        std::int32_t element = 0;
        std::memcpy(&element, logged.data() + 8, 4);
        element += 2;
        std::memcpy(logged.data() + 8, &element, 4);
        test::EtdumpBuilder b;
        b.loadBlock();
        b.block("Execute", 3);
        for (int i = 0; i < 3; ++i)
            b.profile("OPERATOR_CALL", 0, i, 100 * i, 100 * i + 50);
        b.profile("Method::execute", -1, 0, 0, 400);
        b.debugTensor(-1, 0, ScalarType::Int, { 2, 2 }, 0, true);
        writeTemp(QStringLiteral("bundled_case3.bin"), logged);
        const QString etdump = writeTemp(QStringLiteral("bundled_case3.etdp"), b.bytes());
        QVERIFY(!etdump.isEmpty());
        QByteArray out;
        QByteArray err;
        const QStringList args { QStringLiteral("profile"), etdump, QStringLiteral("--program"), bpte };
        QCOMPARE(test::runCli(args + QStringList { QStringLiteral("--json") }, &out, &err), 0);
        const Json j = parseJson(out);
        QVERIFY2(!j.is_discarded(), err.constData());
        QVERIFY(!j["join"]["mismatch"].get<bool>());
        QCOMPARE(j["bundled"].size(), std::size_t(1));
        const Json& m = j["bundled"][0];
        QCOMPARE(m["method"].get<std::string>(), std::string("forward"));
        QCOMPARE(m["run"].get<int>(), 1);
        QCOMPARE(m["test_case"].get<int>(), 3);
        QVERIFY(m["test_case_from_block"].get<bool>());
        QCOMPARE(m["outputs"].size(), std::size_t(1));
        const Json& o = m["outputs"][0];
        QCOMPARE(o["output"].get<int>(), 0);
        QCOMPARE(o["value"].get<int>(), 7);
        QCOMPARE(o["mse"].get<double>(), 1.0); // (2^2) / 4 elements
        QCOMPARE(o["l1"].get<double>(), 2.0);
        QVERIFY(o["snr"].is_number());
        QVERIFY(o["reason"].is_null());
        // The text says which test case and lists the output.
        QCOMPARE(test::runCli(args, &out, &err), 0);
        QVERIFY2(out.contains("Bundled expected outputs of 'forward' (block 1 against test case 3, the block's bundled "
                              "input):"),
            out.constData());
        QVERIFY2(out.contains("\nout0    7      1.000000000   2.000000      "), out.constData());
        // Without a bundled program there is no such section or field.
        QCOMPARE(test::runCli({ QStringLiteral("profile"), etdump, QStringLiteral("--json") }, &out), 0);
        QVERIFY(!parseJson(out).contains("bundled"));
        // The tutorial's ETDump logged no outputs: the section says so.
        const QString tutorial =
            test::corpusPath(QStringLiteral("pte/pytorch_executorch__docs__source__tutorials_source__etdump.etdp"));
        const QString tutorialProgram = test::corpusPath(
            QStringLiteral("pte/pytorch_executorch__docs__source__tutorials_source__bundled_program.bp"));
        QCOMPARE(test::runCli(
                     { QStringLiteral("profile"), tutorial, QStringLiteral("--program"), tutorialProgram }, &out, &err),
            0);
        QVERIFY2(out.contains("Bundled expected outputs of 'forward' (block 1 against test case 1, the last):\n  no "
                              "program output logged"),
            out.constData());
    }
};

QTEST_GUILESS_MAIN(TestCliProfile)
#include "tst_cli_profile.moc"
