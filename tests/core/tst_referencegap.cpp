// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// Logged values against the reference interpreter (pte/referencegap.h), on an emitted (x + y) * 0.5 with ETDumps built
// here: the logged numbers are computed by hand from the runner's fill rule, then perturbed.
#include "etdumptestutils.h"
#include "executiontestutils.h"
#include "pte/dumpreader.h"
#include "pte/referencegap.h"
#include "testutils.h"

#include <QTest>

#include <cmath>
#include <optional>

using namespace pte;

namespace {

Result<test::Emitted> addMul()
{
    PTE_TRY(auto dump, readDump((test::testDataDir() + QStringLiteral("/emit/add_mul.json")).toStdString()));
    return test::emitAndReload(dump->methods, "add_mul_gap");
}

/** (x + y) * 0.5 on the runner's pattern fill: x[i] = 0.1 * (i % 7) + 0.5, y[i] = 0.1 * ((i + 1) % 7) + 0.5. */
struct HandValues
{
    std::vector<float> add, mul;
};
HandValues byHand()
{
    HandValues h;
    for (std::size_t i = 0; i < 6; ++i) {
        const auto x = float(0.1 * double(i % 7) + 0.5);
        const auto y = float(0.1 * double((i + 1) % 7) + 0.5);
        h.add.push_back(x + y);
        h.mul.push_back((x + y) * 0.5f);
    }
    return h;
}

/** One execution as the runtime logs it: add (instruction 0), mul (instruction 1), then the output. */
Result<std::shared_ptr<const EtDump>> etdump(const ExecutionPlan& plan, const std::vector<float>& add,
    const std::vector<float>& mul, const std::vector<float>& output)
{
    test::EtdumpBuilder b;
    b.loadBlock();
    b.block("Execute");
    std::uint64_t t = 1000;
    for (std::int32_t ins = 0; ins < 2; ++ins) {
        const auto& k = std::get<KernelCall>(plan.chains[0].instructions[std::size_t(ins)].args);
        b.debugTensor(0, ins, ScalarType::Float, { 2, 3 }, 24 * ins);
        b.profile(kernelEventName(plan.operators[std::size_t(k.opIndex)]), 0, ins, t + 1, t + 9);
        b.profile("OPERATOR_CALL", 0, ins, t, t + 10);
        t += 100;
    }
    b.profile("Method::execute", -1, 0, 900, t);
    b.debugTensor(-1, 0, ScalarType::Float, { 2, 3 }, 48, true);
    std::vector<float> all = add;
    all.insert(all.end(), mul.begin(), mul.end());
    all.insert(all.end(), output.begin(), output.end());
    return b.read(Bytes::fromVector(test::floatBuffer(all)));
}

Result<ReferenceGap> gapOf(const test::Emitted& e, std::shared_ptr<const EtDump> dump, const ReferenceInputs& inputs)
{
    PTE_TRY(auto join, joinEtdump(std::move(dump), makeEtdumpSources(e.file->program)));
    if (join->hasMismatch())
        return fail(ErrorCode::InvalidInput, "the ETDump does not match: " + join->diagnostics.front().message);
    return referenceGap(*join, "forward", inputs);
}

/** The gap of a run of add_mul that logged these values, against the reference run on `fill` (or `inputs`). */
Result<ReferenceGap> gapOfRun(const std::vector<float>& add, const std::vector<float>& mul,
    const std::vector<float>& output, std::optional<RunnerFill> fill, const ReferenceInputs& inputs = {})
{
    PTE_TRY(auto e, addMul());
    const auto& plan = *e.file->program->method("forward");
    PTE_TRY(auto dump, etdump(plan, add, mul, output));
    return gapOf(e, dump, fill ? runnerFillInputs(plan, *fill) : inputs);
}

} // namespace

class TestReferenceGap : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void identicalValuesHaveNoGap()
    {
        const auto hand = byHand();
        auto gap = gapOfRun(hand.add, hand.mul, hand.mul, RunnerFill::Pattern);
        QVERIFY_RESULT(gap);
        QCOMPARE(gap->inputSource, std::string("runner pattern fill"));
        QVERIFY(gap->inputsAssumed);
        QVERIFY(gap->interpreterProblem.empty());
        QCOMPARE(gap->rows.size(), std::size_t(3));
        QCOMPARE(gap->rows[0].instruction, 0);
        QCOMPARE(gap->rows[0].op, std::string("aten::add.out"));
        QCOMPARE(gap->rows[1].instruction, 1);
        QCOMPARE(gap->rows[2].outputIndex, 0);
        for (const auto& row : gap->rows) {
            QVERIFY2(row.gap, row.reason.c_str());
            QCOMPARE(row.gap->mse, 0.0);
            QCOMPARE(row.gap->l1, 0.0);
            QVERIFY(std::isinf(row.gap->snr) && row.gap->snr > 0);
            QCOMPARE(row.gap->count, std::size_t(6));
        }
        QCOMPARE(gap->rows[1].expected, std::vector<double>(hand.mul.begin(), hand.mul.end()));
    }

    void aWrongValueShowsOnItsInstructionOnly()
    {
        const auto hand = byHand();
        auto wrongMul = hand.mul;
        wrongMul[2] += 1.0f; // a kernel that computes one element wrong; the output is right again
        auto gap = gapOfRun(hand.add, wrongMul, hand.mul, RunnerFill::Pattern);
        QVERIFY_RESULT(gap);
        QCOMPARE(gap->rows[0].gap->mse, 0.0);
        QVERIFY(std::abs(gap->rows[1].gap->mse - 1.0 / 6) < 1e-6); // mean of one squared difference of 1
        QVERIFY(std::abs(gap->rows[1].gap->l1 - 1.0) < 1e-6);
        QVERIFY(std::isfinite(gap->rows[1].gap->snr));
        QCOMPARE(gap->rows[2].gap->mse, 0.0);
    }

    void otherInputsGiveAGapEverywhere()
    {
        const auto hand = byHand();
        auto gap = gapOfRun(hand.add, hand.mul, hand.mul, RunnerFill::Ones); // expected: 2 and 1
        QVERIFY_RESULT(gap);
        QCOMPARE(gap->inputSource, std::string("runner ones fill"));
        for (const auto& row : gap->rows)
            QVERIFY(row.gap && row.gap->mse > 0);
        QCOMPARE(gap->rows[0].expected, (std::vector<double>(6, 2.0)));
    }

    void anInterpreterFailureIsAReasonOnEveryRow()
    {
        const auto hand = byHand();
        ReferenceInputs none; // no inputs: the interpreter refuses to run
        none.source = "nothing";
        auto gap = gapOfRun(hand.add, hand.mul, hand.mul, std::nullopt, none);
        QVERIFY_RESULT(gap);
        QVERIFY(gap->interpreterProblem.find("method 'forward' takes 2 inputs, got 0") != std::string::npos);
        for (const auto& row : gap->rows) {
            QVERIFY(!row.gap);
            QVERIFY2(row.reason.find("takes 2 inputs") != std::string::npos, row.reason.c_str());
        }
    }

    void noDebugBufferIsAReason()
    {
        auto e = addMul();
        QVERIFY_RESULT(e);
        const auto& plan = *e->file->program->method("forward");
        test::EtdumpBuilder b;
        b.loadBlock();
        b.block("Execute");
        b.debugTensor(0, 0, ScalarType::Float, { 2, 3 }, 0);
        b.profile("native_call_add.out", 0, 0, 11, 19).profile("OPERATOR_CALL", 0, 0, 10, 20);
        auto dump = b.read(); // no debug buffer
        QVERIFY_RESULT(dump);
        auto gap = gapOf(*e, *dump, runnerFillInputs(plan, RunnerFill::Pattern));
        QVERIFY_RESULT(gap);
        QCOMPARE(gap->rows.size(), std::size_t(1));
        QVERIFY(!gap->rows[0].gap);
        QVERIFY(!gap->rows[0].reason.empty());
        QVERIFY(gap->interpreterProblem.empty());
    }

    void aMethodWithoutExecutionIsAnError()
    {
        auto e = addMul();
        QVERIFY_RESULT(e);
        test::EtdumpBuilder b;
        b.loadBlock();
        auto dump = b.read();
        QVERIFY_RESULT(dump);
        auto join = joinEtdump(*dump, makeEtdumpSources(e->file->program));
        QVERIFY_RESULT(join);
        auto gap = referenceGap(**join, "forward", ReferenceInputs {});
        QVERIFY(!gap);
        QCOMPARE(gap.error().code, ErrorCode::InvalidInput);
    }
};

QTEST_GUILESS_MAIN(TestReferenceGap)
#include "tst_referencegap.moc"
