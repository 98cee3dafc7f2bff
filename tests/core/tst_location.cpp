// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// Errors and diagnostics say what they are about in fields (pte::Location), set where the problem is found: the
// runtime checks (method, chain, instruction, value), the emitter (method, node or placeholder) and the dump reader
// (method, node). Tools navigate with these fields, never by reading the message.
#include "dumptestutils.h"
#include "errorcheck.h"
#include "pte/dumpreader.h"
#include "pte/emitter.h"
#include "pte/ptereader.h"
#include "pte/syntheticprogram.h"
#include "testutils.h"

#include <QTest>

using namespace pte;
using namespace pte::test;

namespace {

/** The diagnostic whose message contains `needle`, or nullptr. */
const Diagnostic* find(const Diagnostics& diags, const std::string& needle)
{
    for (const auto& d : diags)
        if (d.message.find(needle) != std::string::npos)
            return &d;
    return nullptr;
}

/** JSON text without the white space between tokens (key order kept), so edits need not know the indentation. */
std::string compactJson(const QByteArray& text)
{
    std::string out;
    out.reserve(static_cast<std::size_t>(text.size()));
    bool inString = false;
    bool escaped = false;
    for (const char c : text) {
        if (inString) {
            out += c;
            if (escaped)
                escaped = false;
            else if (c == '\\')
                escaped = true;
            else if (c == '"')
                inString = false;
        } else if (c == '"') {
            inString = true;
            out += c;
        } else if (c != ' ' && c != '\n' && c != '\r' && c != '\t') {
            out += c;
        }
    }
    return out;
}

/** add_mul.json, compacted (compactJson), with `from` replaced by `to`. Empty when `from` does not occur. */
std::string editedAddMulText(const std::string& from, const std::string& to)
{
    QFile f(testDataDir() + QStringLiteral("/emit/add_mul.json"));
    if (!f.open(QIODevice::ReadOnly))
        return {};
    std::string text = compactJson(f.readAll());
    const auto at = text.find(from);
    if (at == std::string::npos)
        return {};
    text.replace(at, from.size(), to);
    return text;
}

/** add_mul.json with `from` replaced by `to` (both compact JSON), as a parsed program. */
std::shared_ptr<const ExportedProgram> editedAddMul(const std::string& from, const std::string& to)
{
    const std::string text = editedAddMulText(from, to);
    if (text.empty())
        return nullptr;
    auto ep = parseExportedProgramJson(text, "add_mul.json");
    return ep ? std::shared_ptr<const ExportedProgram>(std::move(ep).value()) : nullptr;
}

} // namespace

class TestLocation : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void runtimeChecksNameThePlace_data()
    {
        QTest::addColumn<int>("damage");
        QTest::addColumn<QString>("needle");
        QTest::addColumn<qint64>("chain");
        QTest::addColumn<qint64>("instruction");
        QTest::addColumn<qint64>("value");
        QTest::addRow("instruction") << 0 << "op_index 99 is out of range" << qint64(0) << qint64(1) << qint64(-1);
        QTest::addRow("value") << 1 << "dim_order has" << qint64(-1) << qint64(-1) << qint64(1);
        QTest::addRow("output") << 2 << "output value index 4000" << qint64(-1) << qint64(-1) << qint64(4000);
    }
    void runtimeChecksNameThePlace()
    {
        QFETCH(int, damage);
        QFETCH(QString, needle);
        QFETCH(qint64, chain);
        QFETCH(qint64, instruction);
        QFETCH(qint64, value);
        SyntheticOptions options;
        options.instructions = 6;
        options.methods = 2;
        auto program = makeSyntheticProgram(options);
        QVERIFY_RESULT(program);
        ExecutionPlan& plan = program->executionPlan.at(1);
        switch (damage) {
        case 0:
            std::get<KernelCall>(plan.chains.at(0).instructions.at(1).args).opIndex = 99;
            break;
        case 1:
            std::get<Tensor>(plan.values.at(1).val).dimOrder.push_back(7);
            break;
        case 2:
            plan.outputs.at(0) = 4000;
            break;
        }
        const Diagnostics diags = checkProgram(*program);
        const Diagnostic* d = find(diags, needle.toStdString());
        QVERIFY2(d, needle.toLatin1().constData());
        QCOMPARE(d->location.method, plan.name);
        QCOMPARE(d->location.chain, chain);
        QCOMPARE(d->location.instruction, instruction);
        QCOMPARE(d->location.value, value);
        QVERIFY(d->location.node.empty());
    }

    void emitterNamesMethodAndNode()
    {
        // An operator the registry does not know: a warning about node "mul" of method "run".
        auto custom = editedAddMul("torch.ops.aten.mul.Scalar", "torch.ops.mylib.custom.default");
        QVERIFY(custom);
        auto out = emitProgram({ { "run", custom } });
        QVERIFY_RESULT(out);
        const Diagnostic* w = find(out->warnings, "mylib::custom");
        QVERIFY(w);
        QCOMPARE(w->location.method, std::string("run"));
        QCOMPARE(w->location.node, std::string("mul"));

        // A required argument missing: an error about node "mul".
        auto missing = editedAddMul(R"(,{"name":"other","arg":{"as_float":0.5},"kind":1})", "");
        QVERIFY(missing);
        auto failed = emitProgram({ { "run", missing } });
        QVERIFY(!failed);
        QCOMPARE(failed.error().location.method, std::string("run"));
        QCOMPARE(failed.error().location.node, std::string("mul"));
    }

    void emitterNamesThePlaceholderOfAMissingWeight()
    {
        auto set = readDump((testDataDir() + QStringLiteral("/dumps/counter_single_key.json")).toStdString());
        QVERIFY_RESULT(set);
        auto failed = emitProgram((*set)->methods);
        QVERIFY_ERROR(failed, ErrorCode::InvalidInput, "'weight'");
        QCOMPARE(failed.error().location.method, std::string("forward"));
        QCOMPARE(failed.error().location.node, std::string("p_weight"));
    }

    void dumpReaderNamesMethodAndNode()
    {
        const std::string text = editedAddMulText(R"({"as_float":0.5})", R"({"as_scalar_type":99})");
        QVERIFY(!text.empty());
        const QString path = tempDir() + QStringLiteral("/scalar-type.json");
        QVERIFY(writeFile(path, QByteArray::fromStdString(text)));
        auto set = readDump(path.toStdString());
        QVERIFY_RESULT(set);
        const Diagnostic* d = find((*set)->diagnostics, "unknown scalar type code 99");
        QVERIFY(d);
        QCOMPARE(d->location.method, std::string("forward"));
        QCOMPARE(d->location.node, std::string("mul"));
    }

    void errorsBecomeDiagnosticsWithTheirLocation()
    {
        Error e = makeError(ErrorCode::InvalidInput, "bad", 12, "graph_module.graph.nodes[1]");
        e.location.method = "run";
        e.location.node = "mul";
        const Diagnostic d = diagnosticOf(e, "in.json");
        QCOMPARE(d.severity, Severity::Error);
        QCOMPARE(d.code, ErrorCode::InvalidInput);
        QCOMPARE(d.offset, std::optional<std::uint64_t>(12));
        QCOMPARE(d.file, std::string("in.json"));
        QCOMPARE(d.location.method, std::string("run"));
        QCOMPARE(d.location.node, std::string("mul"));
    }
};

QTEST_GUILESS_MAIN(TestLocation)
#include "tst_location.moc"
