// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// A recorded run value by value (pte/runvalues.h), its cancel (RunOptions::progress) and the sample inputs of a dump
// (pte/referenceinputs.h), on an emitted (x + y) * 0.5 with inputs chosen here: every expected number is worked out
// by hand from the two ops' definitions.
#include "executiontestutils.h"
#include "pte/dumpreader.h"
#include "pte/referenceinputs.h"
#include "pte/runvalues.h"
#include "testutils.h"

#include <QTest>

#include <cstring>

using namespace pte;

namespace {

Result<test::Emitted> addMul()
{
    PTE_TRY(auto dump, readDump((test::testDataDir() + QStringLiteral("/emit/add_mul.json")).toStdString()));
    return test::emitAndReload(dump->methods, "add_mul_run");
}

/** x = 1..6, y = 10..60: add = 11, 22, ..., 66; mul = 5.5, 11, ..., 33 (min 5.5, max 33, mean 19.25). */
std::vector<HostTensor> inputs()
{
    return { HostTensor::floats({ 2, 3 }, { 1, 2, 3, 4, 5, 6 }),
        HostTensor::floats({ 2, 3 }, { 10, 20, 30, 40, 50, 60 }) };
}

const std::vector<double> kAdd { 11, 22, 33, 44, 55, 66 };
const std::vector<double> kMul { 5.5, 11, 16.5, 22, 27.5, 33 };

std::int32_t addValue(const ExecutionPlan& plan)
{
    return kernelLoggedValues(plan, std::get<KernelCall>(plan.chains[0].instructions[0].args)).front();
}

BundledValue floatTensor(const std::vector<float>& values)
{
    BundledValue v;
    v.kind = BundledValue::Kind::Tensor;
    v.scalarType = ScalarType::Float;
    v.sizes = { 2, 3 };
    v.dimOrder = { 0, 1 };
    std::vector<std::uint8_t> bytes(values.size() * 4);
    std::memcpy(bytes.data(), values.data(), bytes.size());
    v.data = Bytes::fromVector(std::move(bytes));
    return v;
}

WeightTensor weight(const std::vector<float>& values)
{
    WeightTensor w;
    w.meta.dtype = ScalarType::Float;
    w.meta.sizes = { SymInt { 2, {}, {} }, SymInt { 3, {}, {} } };
    w.meta.strides = { SymInt { 3, {}, {} }, SymInt { 1, {}, {} } };
    w.meta.storageOffset = SymInt { 0, {}, {} };
    std::vector<std::uint8_t> bytes(values.size() * 4);
    std::memcpy(bytes.data(), values.data(), bytes.size());
    w.data = Bytes::fromVector(std::move(bytes));
    w.source = "test";
    return w;
}

} // namespace

class TestRunValues : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void summaryOfAFinishedRun()
    {
        auto e = addMul();
        QVERIFY_RESULT(e);
        const Program& program = *e->file->program;
        const ExecutionPlan& plan = program.executionPlan[0];
        RunOptions options;
        options.intermediates = true;
        const auto run = runMethod(program, plan.name, inputs(), options);
        QVERIFY(run.ok());
        const auto s = summarizeRun(plan, run);
        QCOMPARE(s.stop, RunStop::None);
        QCOMPARE(s.instructionsRun, std::size_t(2));
        // Inputs, the add written by instruction 0, the output written by instruction 1.
        const auto& x = s.values.at(plan.inputs[0]);
        QCOMPARE(x.input, 0);
        QCOMPARE(x.stats->min, 1.0);
        QCOMPARE(x.stats->max, 6.0);
        QCOMPARE(x.stats->mean, 3.5);
        const auto& add = s.values.at(addValue(plan));
        QCOMPARE(add.instruction, 0);
        QCOMPARE(add.sizes, (std::vector<std::int64_t> { 2, 3 }));
        QCOMPARE(add.stats->first, kAdd);
        QCOMPARE(add.stats->mean, 38.5);
        const auto& out = s.values.at(plan.outputs[0]);
        QCOMPARE(out.output, 0);
        QCOMPARE(out.instruction, 1);
        QCOMPARE(out.stats->first, kMul);
        QCOMPARE(out.stats->min, 5.5);
        QCOMPARE(out.stats->max, 33.0);
        QCOMPARE(out.stats->mean, 19.25);
        QVERIFY(!out.gap); // no bundled case
    }

    void bundledCaseGap()
    {
        auto e = addMul();
        QVERIFY_RESULT(e);
        const Program& program = *e->file->program;
        const ExecutionPlan& plan = program.executionPlan[0];
        BundledProgram bundled;
        BundledTestSuite suite;
        suite.methodName = plan.name;
        const auto in = inputs();
        std::vector<float> xf(in[0].values.begin(), in[0].values.end()), yf(in[1].values.begin(), in[1].values.end());
        // Case 0 expects the right output; case 1 expects 34 instead of 33 in the last element.
        suite.testCases.push_back(
            { { floatTensor(xf), floatTensor(yf) }, { floatTensor({ 5.5, 11, 16.5, 22, 27.5, 33 }) } });
        suite.testCases.push_back(
            { { floatTensor(xf), floatTensor(yf) }, { floatTensor({ 5.5, 11, 16.5, 22, 27.5, 34 }) } });
        bundled.testSuites.push_back(suite);
        RunOptions options;
        options.intermediates = true;
        for (const int c : { 0, 1 }) {
            auto caseInputs = bundledInputs(bundled, plan, std::size_t(c));
            QVERIFY_RESULT(caseInputs);
            auto run = runMethod(program, plan.name, caseInputs->values, options);
            run.bundledCase = c;
            const auto s = summarizeRun(plan, run, &bundled);
            QVERIFY(s.check);
            const auto& out = s.values.at(plan.outputs[0]);
            QVERIFY(out.gap);
            QVERIFY(out.check);
            QCOMPARE(out.expectedFrom, "bundled test case " + std::to_string(c));
            if (c == 0) {
                QVERIFY(s.check->ok);
                QCOMPARE(out.gap->mse, 0.0);
                QCOMPARE(out.gap->l1, 0.0);
            } else {
                QVERIFY(!s.check->ok);
                QCOMPARE(out.check->mismatched, std::size_t(1));
                QCOMPARE(out.gap->l1, 1.0); // |34 - 33|
                QCOMPARE(out.gap->mse, 1.0 / 6);
            }
        }
    }

    void stepValuesReadAndWrite()
    {
        auto e = addMul();
        QVERIFY_RESULT(e);
        const Program& program = *e->file->program;
        const ExecutionPlan& plan = program.executionPlan[0];
        RunOptions options;
        options.intermediates = true;
        const auto run = runMethod(program, plan.name, inputs(), options);
        auto find = [](const std::vector<RunValueFacts>& v, std::int32_t id) -> const RunValueFacts* {
            for (const auto& f : v)
                if (f.value == id)
                    return &f;
            return nullptr;
        };
        const auto add = stepValues(plan, run, 0);
        QVERIFY(add);
        QVERIFY(!add->stopped);
        const auto* x = find(add->reads, plan.inputs[0]);
        const auto* y = find(add->reads, plan.inputs[1]);
        QVERIFY(x && y);
        QCOMPARE(x->input, 0);
        QCOMPARE(y->stats->first, (std::vector<double> { 10, 20, 30, 40, 50, 60 }));
        QCOMPARE(add->writes.size(), std::size_t(1));
        QCOMPARE(add->writes[0].stats->first, kAdd);

        const auto mul = stepValues(plan, run, 1);
        QVERIFY(mul);
        const auto* read = find(mul->reads, addValue(plan));
        QVERIFY(read);
        QCOMPARE(read->instruction, 0); // as instruction 0 left it
        QCOMPARE(read->stats->first, kAdd);
        bool half = false; // the Scalar 0.5, stored in the program
        for (const auto& r : mul->reads)
            half = half || (r.kind == ValueKind::Double && r.stats && r.stats->first == std::vector<double> { 0.5 });
        QVERIFY(half);
        QCOMPARE(mul->writes.size(), std::size_t(1));
        QCOMPARE(mul->writes[0].value, plan.outputs[0]);
        QCOMPARE(mul->writes[0].stats->first, kMul);
        QVERIFY(!stepValues(plan, run, 7)); // no such instruction
    }

    void progressAndCancel()
    {
        auto e = addMul();
        QVERIFY_RESULT(e);
        const Program& program = *e->file->program;
        const ExecutionPlan& plan = program.executionPlan[0];
        std::vector<std::pair<std::uint64_t, std::uint64_t>> calls;
        RunOptions options;
        options.intermediates = true;
        options.runs = 2;
        // Cancel before the 4th instruction: the second execution's mul.
        options.progress = [&calls](std::uint64_t done, std::uint64_t total) {
            calls.emplace_back(done, total);
            return done < 3;
        };
        const auto run = runMethod(program, plan.name, inputs(), options);
        QCOMPARE(calls.size(), std::size_t(4));
        for (std::size_t i = 0; i < calls.size(); ++i)
            QCOMPARE(calls[i], std::make_pair(std::uint64_t(i), std::uint64_t(4)));
        QVERIFY(!run.ok());
        QCOMPARE(run.stop(), RunStop::Cancelled);
        QCOMPARE(run.executions.size(), std::size_t(2));
        QVERIFY(run.executions[0].ok());
        const auto& x = run.executions[1];
        QCOMPARE(x.stop, RunStop::Cancelled);
        QCOMPARE(x.stoppedAt, std::optional<std::uint32_t>(1));
        const auto& mulCall = std::get<KernelCall>(plan.chains[0].instructions[1].args);
        QCOMPARE(x.stoppedOperator, plan.operators[std::size_t(mulCall.opIndex)].qualifiedName());
        QVERIFY(x.error);
        QCOMPARE(x.error->code, ErrorCode::Cancelled);
        QCOMPARE(x.error->message, std::string("cancelled before instruction 1"));
        QCOMPARE(std::string(runStopName(x.stop)), std::string("cancelled"));
        // What the run computed before the cancel stays.
        const auto s = summarizeRun(plan, run);
        QCOMPARE(s.stop, RunStop::Cancelled);
        QCOMPARE(s.stoppedAt, std::optional<std::uint32_t>(1));
        QCOMPARE(s.values.at(addValue(plan)).stats->first, kAdd);
        QVERIFY(!s.values.count(plan.outputs[0]));
        const auto stopped = stepValues(plan, run, 1);
        QVERIFY(stopped && stopped->stopped);
        QVERIFY(stopped->writes.empty());
    }

    void sampleInputsOfADump()
    {
        auto e = addMul();
        QVERIFY_RESULT(e);
        auto dump = readDump((test::testDataDir() + QStringLiteral("/emit/add_mul.json")).toStdString());
        QVERIFY_RESULT(dump);
        ExportedProgram exported = *(*dump)->methods.front().second;
        const ExecutionPlan& plan = e->file->program->executionPlan[0];
        QVERIFY(!sampleReferenceInputs(exported, plan));
        // y by keyword before x by position: each input takes its own leaf.
        SampleInputs sample;
        sample.source = "model.pt2:sample";
        sample.leaves.push_back({ "kwargs['y']", SampleInput::Kind::Tensor, weight({ 10, 20, 30, 40, 50, 60 }) });
        sample.leaves.push_back({ "args[0]", SampleInput::Kind::Tensor, weight({ 1, 2, 3, 4, 5, 6 }) });
        exported.sampleInputs = sample;
        const auto leaves = sampleInputLeaves(exported);
        QCOMPARE(leaves, (std::vector<std::optional<std::size_t>> { 1, 0 }));
        auto in = sampleReferenceInputs(exported, plan);
        QVERIFY_RESULT(in);
        QCOMPARE(in->source, std::string("sample inputs of model.pt2:sample"));
        QCOMPARE(in->values.size(), std::size_t(2));
        QCOMPARE(in->values[0].values, (std::vector<double> { 1, 2, 3, 4, 5, 6 }));
        QCOMPARE(in->values[1].values, (std::vector<double> { 10, 20, 30, 40, 50, 60 }));
        QCOMPARE(in->values[1].sizes, (std::vector<std::int64_t> { 2, 3 }));
    }
};

QTEST_GUILESS_MAIN(TestRunValues)
#include "tst_runvalues.moc"
