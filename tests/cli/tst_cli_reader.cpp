// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// ptelens-cli info / dump / verify on files written by the test and on corpus files: exit codes, JSON
// output, error messages naming the file.
#include "ptefbbuilder.h"
#include "testutils.h"

#include <QFile>
#include <QTest>

#include <nlohmann/json.hpp>

using namespace pte;
using namespace pte::readertest;
using Json = nlohmann::json;

namespace {

QString writeTemp(const QString& name, const std::vector<std::uint8_t>& bytes)
{
    const QString path = test::tempDir() + QLatin1Char('/') + name;
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate))
        qFatal("cannot write %s", qPrintable(path));
    f.write(reinterpret_cast<const char*>(bytes.data()), qint64(bytes.size()));
    return path;
}

/** The full test program (without its EXTERNAL tensor, so that no .ptd is needed). */
Program cliProgram()
{
    Program p = makeFullProgram();
    p.executionPlan[0].values[14] = ev(makeTensor({ 2, 2 }, AllocationDetails { 1, 0, 0 }));
    return p;
}

Json parseJson(const QByteArray& text) { return Json::parse(text.toStdString(), nullptr, false); }

} // namespace

class TestCliReader : public QObject
{
    Q_OBJECT

private:
    QString m_valid;
    QString m_invalid;

private Q_SLOTS:
    void initTestCase()
    {
        m_valid = writeTemp(QStringLiteral("valid.pte"), encodeFullFile(cliProgram()));
        Program bad = cliProgram();
        std::get<Tensor>(bad.executionPlan[0].values[0].val).storageOffset = 3;
        m_invalid = writeTemp(QStringLiteral("invalid.pte"), encodeFullFile(bad));
    }

    void infoJson()
    {
        QByteArray out, err;
        QCOMPARE(test::runCli({ QStringLiteral("info"), m_valid, QStringLiteral("--json") }, &out, &err), 0);
        const Json j = parseJson(out);
        QVERIFY2(!j.is_discarded(), out.constData());
        QCOMPARE(j["file"].get<std::string>(), m_valid.toStdString());
        QCOMPARE(j["header"]["extended_header"].get<bool>(), true);
        QCOMPARE(j["header"]["header_length"].get<int>(), 32);
        QCOMPARE(j["methods"].size(), std::size_t(2));
        const auto& m = j["methods"][0];
        QCOMPARE(m["name"].get<std::string>(), std::string("forward"));
        QCOMPARE(m["inputs"][0]["type"].get<std::string>(), std::string("f32[2, 3]"));
        QCOMPARE(m["outputs"].size(), std::size_t(1));
        QCOMPARE(m["values"].get<int>(), 15);
        QCOMPARE(m["instructions"]["total"].get<int>(), 6);
        QCOMPARE(m["instructions"]["KernelCall"].get<int>(), 1);
        QCOMPARE(m["instructions"]["DelegateCall"].get<int>(), 2);
        QCOMPARE(m["instructions"]["MoveCall"].get<int>(), 1);
        QCOMPARE(m["instructions"]["JumpFalseCall"].get<int>(), 1);
        QCOMPARE(m["instructions"]["FreeCall"].get<int>(), 1);
        QCOMPARE(m["operators"][0].get<std::string>(), std::string("aten::add.out"));
        QCOMPARE(m["delegates"][0]["id"].get<std::string>(), std::string("XnnpackBackend"));
        QCOMPARE(m["delegates"][0]["size"].get<int>(), 16);
        QCOMPARE(m["delegates"][1]["location"].get<std::string>(), std::string("SEGMENT"));
        QCOMPARE(m["delegates"][1]["size"].get<int>(), 100);
        QCOMPARE(j["segments"].size(), std::size_t(3));
        QCOMPARE(j["segments"][0]["role"].get<std::string>(), std::string("constant"));
        QCOMPARE(j["segments"][1]["role"].get<std::string>(), std::string("delegate+named_data"));
        QCOMPARE(j["segments"][2]["role"].get<std::string>(), std::string("mutable"));
        QCOMPARE(j["constants"]["tensors"].get<int>(), 1);
        QCOMPARE(j["constants"]["bytes"].get<int>(), 24);
        QCOMPARE(j["delegate_blobs"]["count"].get<int>(), 2);
        QCOMPARE(j["delegate_blobs"]["bytes"].get<int>(), 116);
        QCOMPARE(j["named_data"]["count"].get<int>(), 1);
        QCOMPARE(j["diagnostics"]["errors"].get<int>(), 0);
        QCOMPARE(j["runtime_would_accept"].get<bool>(), true);
    }

    void infoText()
    {
        QByteArray out;
        QCOMPARE(test::runCli({ QStringLiteral("info"), m_valid }, &out), 0);
        QVERIFY(out.contains("forward"));
        QVERIFY(out.contains("KernelCall 1"));
        QVERIFY(out.contains("aten::add.out"));
        QVERIFY(out.contains("QnnBackend (segment 1, 100 bytes)"));
    }

    void dumpJson()
    {
        QByteArray out;
        QCOMPARE(test::runCli({ QStringLiteral("dump"), m_valid, QStringLiteral("--json") }, &out), 0);
        const Json j = parseJson(out);
        QVERIFY(!j.is_discarded());
        QCOMPARE(j["execution_plan"][0]["values"][9]["val"]["items"][1].get<std::string>(), std::string("-inf"));
        QCOMPARE(j["execution_plan"][0]["chains"][0]["instructions"][4]["instr_args_type"].get<std::string>(),
            std::string("JumpFalseCall"));
        QCOMPARE(j["backend_delegate_data"][0]["data"]["size"].get<int>(), 16);
        QCOMPARE(j["backend_delegate_data"][0]["data"]["sha256"].get<std::string>().size(), std::size_t(64));
        QCOMPARE(j["segments"][1]["offset"].get<int>(), 128);
    }

    void usageErrors_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::newRow("dump-without-json") << QStringList { QStringLiteral("dump"), QStringLiteral("x.pte") };
        QTest::newRow("info-no-file") << QStringList { QStringLiteral("info") };
        QTest::newRow("verify-two-files")
            << QStringList { QStringLiteral("verify"), QStringLiteral("a"), QStringLiteral("b") };
        QTest::newRow("verify-bad-option") << QStringList { QStringLiteral("verify"), QStringLiteral("--bogus") };
    }

    void usageErrors()
    {
        QFETCH(QStringList, args);
        QByteArray err;
        QCOMPARE(test::runCli(args, nullptr, &err), 2);
        QVERIFY(!err.isEmpty());
    }

    void verifyValid()
    {
        QByteArray out;
        QCOMPARE(test::runCli({ QStringLiteral("verify"), m_valid }, &out), 0);
        QVERIFY(out.contains("OK"));
        QCOMPARE(test::runCli({ QStringLiteral("verify"), m_valid, QStringLiteral("--json") }, &out), 0);
        const Json j = parseJson(out);
        QCOMPARE(j["accepted"].get<bool>(), true);
        QCOMPARE(j["errors"].get<int>(), 0);
        QCOMPARE(j["diagnostics"].size(), std::size_t(0));
    }

    void verifyRuntimeViolation()
    {
        QByteArray out;
        QCOMPARE(test::runCli({ QStringLiteral("verify"), m_invalid }, &out), 1);
        const std::string text = out.toStdString();
        const std::string expect =
            m_invalid.toStdString() + ": error: storage_offset is 3; the runtime only supports 0 (at byte ";
        QVERIFY2(text.find(expect) != std::string::npos, text.c_str());
        QVERIFY(text.find(", execution_plan[0].values[0].val.storage_offset)") != std::string::npos);
        QCOMPARE(test::runCli({ QStringLiteral("verify"), m_invalid, QStringLiteral("--json") }, &out), 1);
        const Json j = parseJson(out);
        QCOMPARE(j["accepted"].get<bool>(), false);
        QCOMPARE(j["errors"].get<int>(), 1);
        QCOMPARE(j["diagnostics"][0]["code"].get<std::string>(), std::string("unsupported"));
        QCOMPARE(j["diagnostics"][0]["field_path"].get<std::string>(),
            std::string("execution_plan[0].values[0].val.storage_offset"));
        QVERIFY(j["diagnostics"][0]["offset"].is_number());
        // info still opens it (exit 0) and counts the error.
        QCOMPARE(test::runCli({ QStringLiteral("info"), m_invalid, QStringLiteral("--json") }, &out), 0);
        QCOMPARE(parseJson(out)["diagnostics"]["errors"].get<int>(), 1);
    }

    void badFiles_data()
    {
        QTest::addColumn<QString>("command");
        QTest::newRow("info") << "info";
        QTest::newRow("dump") << "dump";
        QTest::newRow("verify") << "verify";
    }

    void badFiles()
    {
        QFETCH(QString, command);
        const QString garbage =
            writeTemp(QStringLiteral("garbage.pte"), { 'N', 'O', 'T', '_', 'A', '_', 'P', 'T', 'E' });
        QByteArray out, err;
        QCOMPARE(test::runCli({ command, garbage, QStringLiteral("--json") }, &out, &err), 1);
        QVERIFY2(err.contains(garbage.toUtf8()), err.constData());
        QVERIFY(err.contains("not an ExecuTorch program"));
        const QString missing = test::tempDir() + QStringLiteral("/does-not-exist.pte");
        QCOMPARE(test::runCli({ command, missing, QStringLiteral("--json") }, &out, &err), 1);
        QVERIFY(err.contains("does-not-exist.pte"));
        const QString truncated = writeTemp(QStringLiteral("truncated.pte"), [] {
            auto b = encodeFullFile(cliProgram());
            b.resize(200);
            return b;
        }());
        QCOMPARE(test::runCli({ command, truncated, QStringLiteral("--json") }, &out, &err), 1);
        QVERIFY(err.contains("truncated.pte"));
        QVERIFY(err.contains("at byte 16"));
    }

    void corpusFiles()
    {
        PTE_REQUIRE_CORPUS();
        const QString add = test::corpusPath(QStringLiteral("pte/pytorch_executorch__add.pte"));
        QByteArray out, err;
        QCOMPARE(test::runCli({ QStringLiteral("info"), add, QStringLiteral("--json") }, &out), 0);
        Json j = parseJson(out);
        QCOMPARE(j["methods"][0]["name"].get<std::string>(), std::string("forward"));
        QCOMPARE(j["methods"][0]["operators"][0].get<std::string>(), std::string("aten::add.out"));
        QCOMPARE(j["methods"][0]["planned_arenas"][0].get<int>(), 48);
        QCOMPARE(j["flatbuffer_size"].get<int>(), 1072);
        QCOMPARE(test::runCli({ QStringLiteral("verify"), add }, &out), 0);
        QCOMPARE(test::runCli({ QStringLiteral("dump"), add, QStringLiteral("--json") }, &out), 0);
        j = parseJson(out);
        QCOMPARE(j["execution_plan"][0]["non_const_buffer_sizes"][1].get<int>(), 48);

        const QString stress = test::corpusPath(QStringLiteral(
            "pte/corey-cole_djl-executorch-engine__src__test__resources__models__stress__stress_mlp.pte"));
        QCOMPARE(test::runCli({ QStringLiteral("info"), stress, QStringLiteral("--json") }, &out), 0);
        j = parseJson(out);
        QCOMPARE(j["methods"][0]["instructions"]["DelegateCall"].get<int>(), 2);
        QCOMPARE(j["methods"][0]["delegates"][1]["size"].get<int>(), 4976);
        QCOMPARE(j["named_data"]["count"].get<int>(), 20);

        const QString bpte = test::corpusPath(
            QStringLiteral("pte/pytorch_executorch__extension__module__test__resources__bundled_program.bpte"));
        // A bundled program is checked as the program inside it (tst_cli_profile covers its test cases).
        QCOMPARE(test::runCli({ QStringLiteral("verify"), bpte, QStringLiteral("--json") }, &out, &err), 0);
        j = parseJson(out);
        QCOMPARE(j["accepted"].get<bool>(), true);
    }
};

QTEST_GUILESS_MAIN(TestCliReader)
#include "tst_cli_reader.moc"
