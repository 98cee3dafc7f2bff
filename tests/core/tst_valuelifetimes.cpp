// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// pte::valueLifetimes: the span of instructions that reference each value of a serialized ExecutionPlan.
#include "plantestutils.h"
#include "pte/valuelifetimes.h"

#include <QTest>

using namespace pte;
using namespace pte::test;

namespace {

/** %0 input, %1 constant, %2 planned, %3 an Int, %4 planned, %5 output (aliasing %0's memory), %6 never used. */
ExecutionPlan addMulPlan()
{
    ExecutionPlan p;
    p.name = "forward";
    p.values = { plannedTensor({ 2, 3 }, std::pair(1u, 0ull)), plannedTensor({ 2, 3 }, std::nullopt, 1),
        plannedTensor({ 2, 3 }, std::pair(1u, 32ull)), ev(Int { 1 }), plannedTensor({ 2, 3 }, std::pair(1u, 64ull)),
        plannedTensor({ 2, 3 }, std::pair(1u, 0ull)), ev(Int { 7 }) };
    p.inputs = { 0 };
    p.outputs = { 5 };
    Chain c;
    c.instructions = { kernelCall(0, { 0, 1, 3, 2, 2 }), delegateCall(0, { 2, 4 }), kernelCall(1, { 4, 4, 5, 5 }),
        instr(FreeCall { 2 }) };
    p.chains.push_back(c);
    return p;
}

} // namespace

class TestValueLifetimes : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void firstToLastReference()
    {
        const auto l = valueLifetimes(addMulPlan());
        QCOMPARE(l.size(), std::size_t(7));
        QCOMPARE(l[0].first, 0); // an input, read by instruction 0 only
        QCOMPARE(l[0].last, 0);
        QCOMPARE(l[1].first, 0);
        QCOMPARE(l[2].first, 0); // written by 0, read by the delegate, freed by 3
        QCOMPARE(l[2].last, 3);
        QCOMPARE(l[4].first, 1);
        QCOMPARE(l[4].last, 2);
        QCOMPARE(l[5].first, 2); // an output lives to the last instruction
        QCOMPARE(l[5].last, 3);
        QVERIFY(!l[6].used());
        QCOMPARE(l[6].last, -1);
    }

    void inputsStartAtZeroOutputsEndAtTheEnd()
    {
        ExecutionPlan p;
        p.values = { plannedTensor({ 1 }, std::nullopt), plannedTensor({ 1 }, std::nullopt),
            plannedTensor({ 1 }, std::nullopt) };
        p.inputs = { 1 };
        p.outputs = { 2, 2 };
        Chain c;
        c.instructions = { instr(MoveCall { 0, 0 }), instr(MoveCall { 0, 1 }), instr(JumpFalseCall { 0, 0 }) };
        p.chains.push_back(c);
        const auto l = valueLifetimes(p);
        QCOMPARE(l[0].first, 0);
        QCOMPARE(l[0].last, 2); // a JumpFalseCall's condition is a use
        QCOMPARE(l[1].first, 0); // an input used first by instruction 1 still lives from 0
        QCOMPARE(l[1].last, 1);
        QCOMPARE(l[2].first, 0); // an output no instruction names: the whole method
        QCOMPARE(l[2].last, 2);
    }

    void tensorListsReferenceTheirItems()
    {
        ExecutionPlan p;
        p.values = { plannedTensor({ 1 }, std::pair(0u, 0ull)), plannedTensor({ 1 }, std::pair(0u, 16ull)),
            ev(TensorList { { 0, 1, 9 } }), plannedTensor({ 2 }, std::pair(0u, 32ull)) };
        Chain c;
        c.instructions = { kernelCall(0, { 0, 0 }), kernelCall(0, { 1, 1 }), kernelCall(1, { 2, 3 }) };
        p.chains.push_back(c);
        const auto l = valueLifetimes(p);
        QCOMPARE(l[0].last, 2); // named by the list at instruction 2
        QCOMPARE(l[1].first, 1);
        QCOMPARE(l[1].last, 2);
        QCOMPARE(l[2].first, 2);
    }

    void emptyAndInvalidPlans()
    {
        ExecutionPlan p;
        QVERIFY(valueLifetimes(p).empty());
        p.values = { ev(Int { 42 }) };
        p.outputs = { 0, 5, -1 }; // out-of-range indices are ignored
        p.inputs = { 3 };
        const auto noChain = valueLifetimes(p);
        QCOMPARE(noChain.size(), std::size_t(1));
        QCOMPARE(noChain[0].first, 0);
        QCOMPARE(noChain[0].last, 0);
        Chain c;
        c.instructions = { kernelCall(0, { -1, 17 }), instr(std::monostate {}) };
        p.chains.push_back(c);
        const auto l = valueLifetimes(p);
        QCOMPARE(l[0].last, 1);
    }
};

QTEST_MAIN(TestValueLifetimes)
#include "tst_valuelifetimes.moc"
