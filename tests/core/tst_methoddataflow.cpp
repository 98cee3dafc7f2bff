// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// pte::methodDataFlow: which node (method input, instruction, outputs) writes and reads which value of a serialized
// method, and reads through planned memory another value wrote (elided views, memory the plan shares).
#include "plantestutils.h"
#include "pte/methoddataflow.h"

#include <QTest>

using namespace pte;
using namespace pte::test;

namespace {

const DataFlowEdge* edge(const MethodDataFlow& f, std::int32_t from, std::int32_t to)
{
    for (const auto& e : f.edges)
        if (e.from == from && e.to == to)
            return &e;
    return nullptr;
}

std::vector<std::int32_t> readValues(const DataFlowNode& n)
{
    std::vector<std::int32_t> out;
    for (const auto& r : n.reads)
        out.push_back(r.value);
    return out;
}

/** relu.out(%0, out=%1); relu.out(%2, out=%3) where %2 is a view of %1 (same planned bytes, never written itself). */
ExecutionPlan sharedMemoryPlan()
{
    ExecutionPlan f;
    f.name = "forward";
    f.values = { plannedTensor({ 2, 3 }, std::pair(1u, 0ull)), plannedTensor({ 2, 3 }, std::pair(1u, 32ull)),
        plannedTensor({ 6 }, std::pair(1u, 32ull)), plannedTensor({ 6 }, std::pair(1u, 64ull)) };
    f.inputs = { 0 };
    f.outputs = { 3 };
    Chain c;
    c.instructions = { kernelCall(0, { 0, 1, 1 }), kernelCall(0, { 2, 3, 3 }) };
    f.chains.push_back(c);
    f.operators = { Operator { "aten::relu", "out" } };
    return f;
}

} // namespace

class TestMethodDataFlow : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void nodesAreInputsInstructionsAndOutputs()
    {
        const auto f = methodDataFlow(sharedMemoryPlan());
        QVERIFY(f);
        QCOMPARE(f->nodes.size(), std::size_t(1 + 2 + 1));
        QCOMPARE(f->inputCount, 1);
        QCOMPARE(f->nodes[0].kind, DataFlowNode::Kind::Input);
        QCOMPARE(f->nodes[0].writes, std::vector<std::int32_t> { 0 });
        QCOMPARE(f->instructionNode(1), 2);
        QCOMPARE(f->nodes[2].kind, DataFlowNode::Kind::Instruction);
        QCOMPARE(f->nodes[2].index, 1);
        QCOMPARE(f->nodes[3].kind, DataFlowNode::Kind::Output);
        // The schema says relu.out reads self and writes out (and its return slot, the same value).
        QCOMPARE(readValues(f->nodes[1]), std::vector<std::int32_t> { 0 });
        QCOMPARE(f->nodes[1].writes, std::vector<std::int32_t> { 1 }); // each value once
        QCOMPARE(readValues(f->nodes[3]), std::vector<std::int32_t> { 3 });
    }

    void readsThroughSharedMemory()
    {
        const auto f = methodDataFlow(sharedMemoryPlan());
        QVERIFY(f);
        QCOMPARE(f->edges.size(), std::size_t(3));
        QVERIFY(edge(*f, 0, 1) && !edge(*f, 0, 1)->throughMemory);
        const auto* view = edge(*f, 1, 2);
        QVERIFY2(view, "no edge through the shared memory");
        QVERIFY(view->throughMemory);
        QCOMPARE(view->value, 2);
        QCOMPARE(view->writtenValue, 1);
        QVERIFY(edge(*f, 2, 3) && !edge(*f, 2, 3)->throughMemory);
        const auto& read = f->nodes[2].reads.front();
        QCOMPARE(read.from, 1);
        QVERIFY(read.throughMemory());
        QCOMPARE(f->aliases(), (std::vector<MemoryAlias> { MemoryAlias { 2, 1 } }));
    }

    void movesDelegatesAndConstants()
    {
        // %0 input, %1 constant, %2 and %3 planned, %4 a list of %2 and %3, %5 output, %6 an Int.
        ExecutionPlan f;
        f.values = { plannedTensor({ 4 }, std::nullopt), plannedTensor({ 4 }, std::nullopt, 1),
            plannedTensor({ 4 }, std::pair(0u, 0ull)), plannedTensor({ 4 }, std::pair(0u, 16ull)),
            ev(TensorList { { 2, 3 } }), plannedTensor({ 4 }, std::pair(0u, 32ull)), ev(Int { 3 }) };
        f.inputs = { 0 };
        f.outputs = { 5 };
        BackendDelegate d;
        d.id = "XnnpackBackend";
        f.delegates.push_back(d);
        Chain c;
        // No schema: the first reference writes (the delegate writes %2 and %3 through the list), later ones read.
        c.instructions = { delegateCall(0, { 0, 1, 6, 4 }), kernelCall(0, { 4, 2, 5 }), instr(MoveCall { 5, 3 }),
            instr(FreeCall { 2 }) };
        f.chains.push_back(c);
        f.operators = { Operator { "custom::thing", "out" } };
        const auto flow = methodDataFlow(f);
        QVERIFY(flow);
        const auto& del = flow->nodes[1];
        QCOMPARE(readValues(del), std::vector<std::int32_t> { 0 }); // the constant and the Int take no part
        QCOMPARE(del.writes, (std::vector<std::int32_t> { 2, 3 }));
        const auto& custom = flow->nodes[2];
        QCOMPARE(readValues(custom), (std::vector<std::int32_t> { 2, 3, 2 }));
        QCOMPARE(custom.writes, std::vector<std::int32_t> { 5 });
        const auto& move = flow->nodes[3];
        QCOMPARE(readValues(move), std::vector<std::int32_t> { 5 });
        QCOMPARE(move.writes, std::vector<std::int32_t> { 3 });
        QCOMPARE(readValues(flow->nodes[4]), std::vector<std::int32_t> { 2 }); // free reads
        // Each pair once, in the order first read.
        QCOMPARE(flow->edges.size(), std::size_t(5));
        QVERIFY(edge(*flow, 0, 1) && edge(*flow, 1, 2) && edge(*flow, 2, 3) && edge(*flow, 1, 4));
        QVERIFY(edge(*flow, 3, 5) == nullptr); // the output %5 was last written by the custom op
        QVERIFY(edge(*flow, 2, 5));
        QVERIFY(flow->aliases().empty());
    }

    void outOfRangeAndCancel()
    {
        ExecutionPlan f = sharedMemoryPlan();
        f.inputs.push_back(42);
        f.outputs.push_back(-1);
        f.chains[0].instructions.push_back(kernelCall(7, { 99, -1 }));
        const auto flow = methodDataFlow(f);
        QVERIFY(flow);
        QCOMPARE(flow->nodes.size(), std::size_t(2 + 3 + 1));
        QVERIFY(flow->nodes[1].writes.empty());
        std::atomic<bool> cancel { true };
        const auto cancelled = methodDataFlow(f, &cancel);
        QVERIFY(!cancelled);
        QCOMPARE(cancelled.error().code, ErrorCode::Cancelled);
        QVERIFY(methodDataFlow(ExecutionPlan {}));
    }
};

QTEST_MAIN(TestMethodDataFlow)
#include "tst_methoddataflow.moc"
