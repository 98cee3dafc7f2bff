// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// The inputs of a reference run: etrt_runner's fill rule (its README, "Default input values"), its --inputs JSON
// file, a bundled test case, and the spec text that names one. The expected values here are computed from the
// README's rule, not from the code under test.
#include "pte/referenceinputs.h"
#include "testutils.h"

#include <QFile>
#include <QTest>

#include <cmath>
#include <cstring>

using namespace pte;

namespace {

EValue tensorInput(ScalarType dtype, std::vector<std::int32_t> sizes, std::vector<std::uint8_t> dimOrder = {})
{
    Tensor t;
    t.scalarType = dtype;
    t.sizes = std::move(sizes);
    t.dimOrder = std::move(dimOrder);
    if (t.dimOrder.empty())
        for (std::size_t i = 0; i < t.sizes.size(); ++i)
            t.dimOrder.push_back(std::uint8_t(i));
    t.allocationInfo = AllocationDetails { 1, 0, 0 };
    EValue v;
    v.val = t;
    return v;
}

EValue scalarInput(double d)
{
    EValue v;
    v.val = Double { d };
    return v;
}

/** forward(x: f32[2, 3], n: i64[4], b: bool[3], s: Double 2.5, h: f16[2]) */
std::shared_ptr<Program> program()
{
    auto p = std::make_shared<Program>();
    ExecutionPlan f;
    f.name = "forward";
    f.values = { tensorInput(ScalarType::Float, { 2, 3 }), tensorInput(ScalarType::Long, { 4 }),
        tensorInput(ScalarType::Bool, { 3 }), scalarInput(2.5), tensorInput(ScalarType::Half, { 2 }) };
    f.inputs = { 0, 1, 2, 3, 4 };
    p->executionPlan.push_back(f);
    ExecutionPlan g = f;
    g.name = "other";
    g.inputs = { 0 };
    p->executionPlan.push_back(g);
    return p;
}

/** The runner's floating pattern value for memory position i of input k, as a float. */
double floatPattern(std::size_t i, std::size_t k) { return double(float(0.1 * double((i + k) % 7) + 0.5)); }

} // namespace

class TestReferenceInputs : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void specParses_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<int>("kind");
        QTest::addColumn<int>("fill");
        QTest::addColumn<int>("testCase"); // -1: none
        QTest::addColumn<QString>("path");
        using K = ReferenceInputSpec::Kind;
        QTest::newRow("pattern") << "pattern" << int(K::Fill) << int(RunnerFill::Pattern) << -1 << "";
        QTest::newRow("ones") << "ones" << int(K::Fill) << int(RunnerFill::Ones) << -1 << "";
        QTest::newRow("zeros") << "zeros" << int(K::Fill) << int(RunnerFill::Zeros) << -1 << "";
        QTest::newRow("bundled") << "bundled" << int(K::Bundled) << int(RunnerFill::Pattern) << -1 << "";
        QTest::newRow("bundled:2") << "bundled:2" << int(K::Bundled) << int(RunnerFill::Pattern) << 2 << "";
        QTest::newRow("file") << "in/inputs.json" << int(K::JsonFile) << int(RunnerFill::Pattern) << -1
                              << "in/inputs.json";
    }

    void specParses()
    {
        QFETCH(QString, text);
        QFETCH(int, kind);
        QFETCH(int, fill);
        QFETCH(int, testCase);
        QFETCH(QString, path);
        auto spec = ReferenceInputSpec::parse(text.toStdString());
        QVERIFY_RESULT(spec);
        QCOMPARE(int(spec->kind), kind);
        QCOMPARE(int(spec->fill), fill);
        QCOMPARE(spec->testCase ? int(*spec->testCase) : -1, testCase);
        QCOMPARE(QString::fromStdString(spec->path), path);
    }

    void specRefusesABadCaseNumber()
    {
        for (const char* bad : { "bundled:x", "bundled:1x", "bundled:-1" }) {
            auto spec = ReferenceInputSpec::parse(bad);
            QVERIFY2(!spec, bad);
            QCOMPARE(spec.error().code, ErrorCode::InvalidInput);
        }
    }

    void patternFillFollowsTheRunnersRule()
    {
        const auto p = program();
        const auto in = runnerFillInputs(p->executionPlan[0], RunnerFill::Pattern);
        QCOMPARE(in.values.size(), std::size_t(5));
        QVERIFY(in.assumed);
        QCOMPARE(in.source, std::string("runner pattern fill"));
        // Input 0, Float: 0.1 * ((i + 0) % 7) + 0.5, rounded to float.
        QCOMPARE(in.values[0].sizes, (std::vector<std::int64_t> { 2, 3 }));
        for (std::size_t i = 0; i < 6; ++i)
            QCOMPARE(in.values[0].values[i], floatPattern(i, 0));
        // Input 1, Long: (i + 1) % 5 -> 1, 2, 3, 4.
        QCOMPARE(in.values[1].values, (std::vector<double> { 1, 2, 3, 4 }));
        // Input 2, Bool: (i + 2) % 2 -> 0, 1, 0.
        QCOMPARE(in.values[2].values, (std::vector<double> { 0, 1, 0 }));
        // Input 3, a Double: the program's value.
        QCOMPARE(in.values[3].values, (std::vector<double> { 2.5 }));
        QCOMPARE(in.values[3].dtype, ScalarType::Double);
        // Input 4, Half: 0.1 * 4 + 0.5 = 0.9 and 0.1 * 5 + 0.5 = 1.0 in half precision: 0.9 is 0x3B33 =
        // 0.89990234375 (the nearest half), 1.0 is exact.
        QCOMPARE(in.values[4].values, (std::vector<double> { 0.89990234375, 1.0 }));
    }

    void patternCountsInMemoryOrder()
    {
        // A channels-last f32[1, 2, 2, 2] (dim order 0, 2, 3, 1): logical (n, c, h, w) lives at memory position
        // ((n * H + h) * W + w) * C + c, and the pattern counts memory positions.
        Program p;
        ExecutionPlan f;
        f.name = "forward";
        f.values = { tensorInput(ScalarType::Float, { 1, 2, 2, 2 }, { 0, 2, 3, 1 }) };
        f.inputs = { 0 };
        p.executionPlan.push_back(f);
        const auto in = runnerFillInputs(p.executionPlan[0], RunnerFill::Pattern);
        std::vector<double> want;
        for (std::size_t c = 0; c < 2; ++c)
            for (std::size_t h = 0; h < 2; ++h)
                for (std::size_t w = 0; w < 2; ++w)
                    want.push_back(floatPattern((h * 2 + w) * 2 + c, 0));
        QCOMPARE(in.values[0].values, want);
    }

    void onesAndZeros()
    {
        const auto p = program();
        const auto ones = runnerFillInputs(p->executionPlan[0], RunnerFill::Ones);
        const auto zeros = runnerFillInputs(p->executionPlan[0], RunnerFill::Zeros);
        QCOMPARE(ones.source, std::string("runner ones fill"));
        for (const std::size_t k : { 0, 1, 2, 4 }) {
            for (const double v : ones.values[k].values)
                QCOMPARE(v, 1.0);
            for (const double v : zeros.values[k].values)
                QCOMPARE(v, 0.0);
        }
        QCOMPARE(ones.values[3].values, (std::vector<double> { 2.5 })); // scalars keep the program's value
    }

    void jsonInputs()
    {
        const auto p = program();
        // Nested lists flatten; null keeps the fill; the scalar within ExecuTorch's tolerance is accepted.
        const std::string json = R"({"forward": [[[1, 2, 3], [4, "nan", "-inf"]], null, [true, 0, 1], 2.50001],
                                     "other": [[0, 0, 0, 0, 0, 0]]})";
        auto in = runnerJsonInputs(*p, "forward", json, "dir/in.json");
        QVERIFY_RESULT(in);
        QCOMPARE(in->source, std::string("in.json"));
        QVERIFY(!in->assumed);
        QCOMPARE(in->values[0].values[3], 4.0);
        QVERIFY(std::isnan(in->values[0].values[4]));
        QCOMPARE(in->values[0].values[5], -INFINITY);
        QCOMPARE(in->values[1].values, (std::vector<double> { 1, 2, 3, 4 })); // null: the pattern fill
        QCOMPARE(in->values[2].values, (std::vector<double> { 1, 0, 1 }));
        QCOMPARE(in->values[3].values, (std::vector<double> { 2.5 })); // the runtime keeps the stored value
        QCOMPARE(in->values[4].values, (std::vector<double> { 0.89990234375, 1.0 })); // not given: filled
        // A short list: the rest keep the fill.
        auto shorter = runnerJsonInputs(*p, "forward", R"({"forward": [[0.1, 0, 0, 0, 0, 0]]})", "s.json");
        QVERIFY_RESULT(shorter);
        QCOMPARE(shorter->values[0].values[0], double(0.1f)); // rounded to float
        QCOMPARE(shorter->values[1].values, (std::vector<double> { 1, 2, 3, 4 }));
        // A method the file does not name keeps the fill entirely.
        auto other = runnerJsonInputs(*p, "other", R"({"forward": []})", "o.json");
        QVERIFY_RESULT(other);
        QCOMPARE(other->values[0].values[1], floatPattern(1, 0));
    }

    void jsonInputErrors_data()
    {
        QTest::addColumn<QString>("json");
        QTest::addColumn<QString>("message");
        QTest::newRow("not json") << "{"
                                  << "in.json: not valid JSON";
        QTest::newRow("not an object") << "[1]"
                                       << "in.json: $: expected an object";
        QTest::newRow("unknown method") << R"({"nope": []})"
                                        << "in.json: nope: the program has no method 'nope'";
        QTest::newRow("too many") << R"({"forward": [null, null, null, null, null, null]})"
                                  << "in.json: forward: 6 entries for 5 inputs";
        QTest::newRow("count") << R"({"forward": [[1, 2]]})"
                               << "in.json: forward[0]: 2 values, not 6 values";
        QTest::newRow("fraction") << R"({"forward": [null, [1, 2, 2.5, 4]]})"
                                  << "in.json: forward[1][2]: an integer dtype (i64) takes integers";
        QTest::newRow("bool") << R"({"forward": [null, null, [0, 2, 1]]})"
                              << "in.json: forward[2][1]: a Bool is true, false, 0 or 1";
        QTest::newRow("string") << R"({"forward": [[1, 2, 3, 4, 5, "six"]]})"
                                << "in.json: forward[0][5]: \"six\" is not a number";
        QTest::newRow("scalar") << R"({"forward": [null, null, null, [3.5]]})"
                                << "in.json: forward[3]: the runtime accepts only the value the program stores (2.5)";
    }

    void jsonInputErrors()
    {
        QFETCH(QString, json);
        QFETCH(QString, message);
        auto in = runnerJsonInputs(*program(), "forward", json.toStdString(), "in.json");
        QVERIFY(!in);
        QCOMPARE(in.error().code, ErrorCode::InvalidInput);
        QVERIFY2(in.error().message.find(message.toStdString()) == 0, in.error().message.c_str());
    }

    void jsonFileThroughTheSpec()
    {
        const QString path = test::tempDir() + QStringLiteral("/spec.json");
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(R"({"other": [[6, 5, 4, 3, 2, 1]]})");
        f.close();
        auto spec = ReferenceInputSpec::parse(path.toStdString());
        QVERIFY_RESULT(spec);
        const auto p = program();
        auto in = resolveReferenceInputs(*spec, *p, nullptr, "other");
        QVERIFY_RESULT(in);
        QCOMPARE(in->values[0].values, (std::vector<double> { 6, 5, 4, 3, 2, 1 }));
        QCOMPARE(in->source, std::string("spec.json"));
        spec->path = path.toStdString() + ".missing";
        QCOMPARE(resolveReferenceInputs(*spec, *p, nullptr, "other").error().code, ErrorCode::Io);
        ReferenceInputSpec bundled;
        bundled.kind = ReferenceInputSpec::Kind::Bundled;
        QCOMPARE(resolveReferenceInputs(bundled, *p, nullptr, "other").error().code, ErrorCode::InvalidInput);
    }

    void bundledTestCases()
    {
        const auto p = program();
        BundledProgram b;
        BundledTestSuite suite;
        suite.methodName = "other";
        for (const float first : { 7.0f, 8.0f }) {
            BundledValue v;
            v.kind = BundledValue::Kind::Tensor;
            v.scalarType = ScalarType::Float;
            v.sizes = { 2, 3 };
            v.dimOrder = { 0, 1 };
            std::vector<std::uint8_t> bytes(24);
            const float values[6] = { first, 1, 2, 3, 4, 5 };
            std::memcpy(bytes.data(), values, 24);
            v.data = Bytes::fromVector(std::move(bytes));
            suite.testCases.push_back(BundledTestCase { { v }, {} });
        }
        b.testSuites.push_back(suite);
        const auto& plan = p->executionPlan[1];
        auto last = bundledInputs(b, plan, std::nullopt); // the last case, as the Inspector picks
        QVERIFY_RESULT(last);
        QCOMPARE(last->source, std::string("bundled test case 1"));
        QCOMPARE(last->values[0].values, (std::vector<double> { 8, 1, 2, 3, 4, 5 }));
        auto first = bundledInputs(b, plan, 0);
        QVERIFY_RESULT(first);
        QCOMPARE(first->values[0].values[0], 7.0);
        QCOMPARE(bundledInputs(b, plan, 2).error().code, ErrorCode::InvalidInput);
        QCOMPARE(bundledInputs(b, p->executionPlan[0], 0).error().code, ErrorCode::InvalidInput); // no suite

        // Written for the runner (--inputs): only "other" has test cases, "forward" keeps the runner's fill.
        ReferenceInputSpec spec;
        spec.kind = ReferenceInputSpec::Kind::Bundled;
        spec.testCase = 0;
        QCOMPARE(
            runnerInputsJson(spec, *p, &b), std::optional<std::string>("{\"other\":[[7.0,1.0,2.0,3.0,4.0,5.0]]}\n"));
    }

    // The runner's --inputs JSON of a fill: integers as integers, bools as true/false, the Double input null (it keeps
    // the program's value), a half rounded like the interpreter's; "{}" for the pattern, the runner's default; nothing
    // for a JSON file (it is copied as it is).
    void runnerInputsJsonOfAFill()
    {
        const auto p = program();
        ReferenceInputSpec ones;
        ones.fill = RunnerFill::Ones;
        QCOMPARE(runnerInputsJson(ones, *p, nullptr),
            std::optional<std::string>(
                "{\"forward\":[[1.0,1.0,1.0,1.0,1.0,1.0],[1,1,1,1],[true,true,true],null,[1.0,1.0]],"
                "\"other\":[[1.0,1.0,1.0,1.0,1.0,1.0]]}\n"));
        QCOMPARE(runnerInputsJson(ReferenceInputSpec {}, *p, nullptr), std::optional<std::string>("{}\n"));
        ReferenceInputSpec file;
        file.kind = ReferenceInputSpec::Kind::JsonFile;
        file.path = "inputs.json";
        QCOMPARE(runnerInputsJson(file, *p, nullptr), std::nullopt);
    }
};

QTEST_GUILESS_MAIN(TestReferenceInputs)
#include "tst_referenceinputs.moc"
