// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// pte::bundledOutputGaps: the program outputs a run logged against a bundled program's expected outputs (which test
// case, which events, MSE/L1/SNR, and the reason when there are no numbers).
#include "etdumptestutils.h"
#include "plantestutils.h"
#include "pte/bundledgap.h"

#include <QTest>

#include <cmath>

using namespace pte;
using pte::test::EtdumpBuilder;

namespace {

/** forward(x): add.out(x, c, out=%2); mul.out(%2, %2, out=%3). Outputs %3 and %2. */
std::shared_ptr<const Program> program()
{
    auto p = std::make_shared<Program>();
    ExecutionPlan f;
    f.name = "forward";
    for (int i = 0; i < 4; ++i)
        f.values.push_back(test::plannedTensor({ 2, 3 }, std::nullopt));
    f.inputs = { 0 };
    f.outputs = { 3, 2 };
    f.operators = { Operator { "aten::add", "out" }, Operator { "aten::mul", "out" } };
    Chain c;
    c.instructions = { test::kernelCall(0, { 0, 1, 2 }), test::kernelCall(1, { 2, 2, 3 }) };
    f.chains.push_back(c);
    p->executionPlan.push_back(f);
    return p;
}

BundledValue floats(const std::vector<float>& values)
{
    BundledValue v;
    v.kind = BundledValue::Kind::Tensor;
    v.scalarType = ScalarType::Float;
    v.sizes = { 2, 3 };
    v.dimOrder = { 0, 1 };
    v.data = Bytes::fromVector(test::floatBuffer(values));
    return v;
}

/** Test case 0 expects both outputs exactly as logged; test case 1 only the first, one element off by 0.1. */
BundledProgram bundled()
{
    BundledProgram b;
    b.version = 2;
    BundledTestSuite s;
    s.methodName = "forward";
    const BundledValue in = floats({ 1, 1, 1, 1, 1, 1 });
    s.testCases.push_back(BundledTestCase { { in }, { floats({ 4, 4, 4, 4, 4, 4 }), floats({ 2, 2, 2, 2, 2, 2 }) } });
    s.testCases.push_back(BundledTestCase { { in }, { floats({ 4, 4, 4, 4, 4, 4.1f }) } });
    b.testSuites.push_back(s);
    return b;
}

/** Two executions (block bundled input index `index`), each logging add's output, then both program outputs. */
std::shared_ptr<const EtdumpJoin> join(std::int32_t index, bool withBuffer = true, bool intermediateFirst = false)
{
    EtdumpBuilder b;
    b.loadBlock();
    for (int run = 0; run < 2; ++run) {
        b.block("Execute", index);
        if (intermediateFirst)
            b.debugTensor(0, 0, ScalarType::Float, { 2, 3 }, 24);
        b.profile("OPERATOR_CALL", 0, 0, 0, 10);
        b.profile("OPERATOR_CALL", 0, 1, 10, 20);
        b.debugTensor(-1, 0, ScalarType::Float, { 2, 3 }, 0, true);
        b.debugTensor(-1, 0, ScalarType::Float, { 2, 3 }, 24, true);
    }
    const auto buffer = test::floatBuffer({ 4, 4, 4, 4, 4, 4, 2, 2, 2, 2, 2, 2 });
    auto dump = b.read(withBuffer ? Bytes::fromVector(buffer) : Bytes {});
    if (!dump)
        return nullptr;
    auto j = joinEtdump(*dump, makeEtdumpSources(program()));
    return j ? *j : nullptr;
}

} // namespace

class TestBundledGap : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void theLastTestCaseWhenTheBlockNamesNone()
    {
        const auto j = join(-1);
        QVERIFY(j && !j->hasMismatch());
        const auto gaps = bundledOutputGaps(*j, bundled());
        QCOMPARE(gaps.size(), std::size_t(1)); // the first execution only
        const auto& g = gaps[0];
        QCOMPARE(g.method, std::string("forward"));
        QCOMPARE(g.run, 1u);
        QCOMPARE(g.testCase, std::size_t(1));
        QVERIFY(!g.fromBlock);
        QCOMPARE(g.rows.size(), std::size_t(2));
        QCOMPARE(g.rows[0].outputIndex, 0);
        QCOMPARE(g.rows[0].value, 3);
        QVERIFY(g.rows[0].gap);
        QVERIFY(g.rows[0].reason.empty());
        QVERIFY(std::abs(g.rows[0].gap->l1 - 0.1) < 1e-5);
        QVERIFY(std::abs(g.rows[0].gap->mse - 0.01 / 6) < 1e-6);
        QCOMPARE(g.rows[0].gap->count, std::size_t(6));
        // The test case has no second expected output: a reason, no numbers.
        QCOMPARE(g.rows[1].outputIndex, 1);
        QVERIFY(!g.rows[1].gap);
        QCOMPARE(g.rows[1].reason, std::string("the test case has 1 expected output(s), no output 1"));
    }

    void theBlocksTestCase()
    {
        const auto j = join(0);
        QVERIFY(j);
        const auto gaps = bundledOutputGaps(*j, bundled());
        QCOMPARE(gaps.size(), std::size_t(1));
        QCOMPARE(gaps[0].testCase, std::size_t(0));
        QVERIFY(gaps[0].fromBlock);
        QCOMPARE(gaps[0].rows.size(), std::size_t(2));
        for (const auto& row : gaps[0].rows) {
            QVERIFY(row.gap);
            QCOMPARE(row.gap->mse, 0.0);
            QVERIFY(std::isinf(row.gap->snr));
        }
        // An index past the suite falls back on the last test case.
        const auto past = bundledOutputGaps(*join(7), bundled());
        QCOMPARE(past[0].testCase, std::size_t(1));
        QVERIFY(!past[0].fromBlock);
    }

    void reasonsInsteadOfNumbers()
    {
        const auto j = join(0, false);
        QVERIFY(j);
        const auto gaps = bundledOutputGaps(*j, bundled());
        QCOMPARE(gaps[0].rows.size(), std::size_t(2));
        QVERIFY(!gaps[0].rows[0].gap);
        QVERIFY(!gaps[0].rows[0].reason.empty()); // no debug buffer
        // A suite of another method, or none with test cases: nothing to compare.
        BundledProgram other = bundled();
        other.testSuites[0].methodName = "other";
        QVERIFY(bundledOutputGaps(*j, other).empty());
        BundledProgram empty = bundled();
        empty.testSuites[0].testCases.clear();
        QVERIFY(bundledOutputGaps(*j, empty).empty());
    }

    void aValueIsTakenAtItsFirstLoggedEvent()
    {
        // %2 logged as add's output first: its later logging as output 1 is not a row (as the GUI shows it).
        const auto j = join(0, true, true);
        QVERIFY(j && !j->hasMismatch());
        const auto gaps = bundledOutputGaps(*j, bundled());
        QCOMPARE(gaps[0].rows.size(), std::size_t(1));
        QCOMPARE(gaps[0].rows[0].outputIndex, 0);
    }
};

QTEST_MAIN(TestBundledGap)
#include "tst_bundledgap.moc"
