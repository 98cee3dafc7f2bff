// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// An ETDump joined with its program (pte/etdumpjoin.h, pte/etdumptiming.h): blocks attributed to methods, events to
// instructions, delegate identifiers through the delegate map to debug handles and graph nodes (exact matches
// only), logged values to program values, mismatching dumps reported instead of joined, several runs aggregated.
// Programs are built here or emitted by ptelens from a committed dump; ETDumps are built event by event.
#include "etdumptestutils.h"
#include "executiontestutils.h"
#include "pte/dumpreader.h"
#include "pte/etdumpjoin.h"
#include "pte/etdumptiming.h"
#include "pte/profiletable.h"
#include "pte/syntheticetdump.h"
#include "testutils.h"

#include <QTest>

using namespace pte;
using pte::test::EtdumpBuilder;

namespace {

EValue tensorValue(std::vector<std::int32_t> sizes, ScalarType dtype = ScalarType::Float)
{
    Tensor t;
    t.scalarType = dtype;
    t.sizes = std::move(sizes);
    for (std::size_t i = 0; i < t.sizes.size(); ++i)
        t.dimOrder.push_back(std::uint8_t(i));
    EValue v;
    v.val = std::move(t);
    v.rawType = std::uint8_t(ValueKind::Tensor);
    return v;
}

Instruction kernel(std::int32_t op, std::vector<std::int32_t> args)
{
    Instruction in;
    in.args = KernelCall { op, std::move(args) };
    in.rawType = std::uint8_t(InstructionKind::KernelCall);
    return in;
}

Instruction delegateCall(std::int32_t index, std::vector<std::int32_t> args)
{
    Instruction in;
    in.args = DelegateCall { index, std::move(args) };
    in.rawType = std::uint8_t(InstructionKind::DelegateCall);
    return in;
}

/**
 * forward(x): add.out(x, c, out=v2); DelegateCall XnnpackBackend(v2, out=v3); relu.out(v3, out=v4); move v4 -> v5.
 * Instructions 0..3. Output v4.
 */
ExecutionPlan forwardPlan()
{
    ExecutionPlan p;
    p.name = "forward";
    for (int i = 0; i < 6; ++i)
        p.values.push_back(tensorValue({ 2, 3 }));
    p.inputs = { 0 };
    p.outputs = { 4 };
    p.operators = { Operator { "aten::add", "out" }, Operator { "aten::relu", "out" } };
    BackendDelegate d;
    d.id = "XnnpackBackend";
    p.delegates.push_back(d);
    Chain c;
    c.instructions.push_back(kernel(0, { 0, 1, 2 }));
    c.instructions.push_back(delegateCall(0, { 2, 3 }));
    c.instructions.push_back(kernel(1, { 3, 4 }));
    Instruction move;
    move.args = MoveCall { 4, 5 };
    move.rawType = std::uint8_t(InstructionKind::MoveCall);
    c.instructions.push_back(move);
    p.chains.push_back(std::move(c));
    p.nonConstBufferSizes = { 0, 128 };
    return p;
}

/** The graph behind forward: add (handle 1), conv (2), batch norm (3) in the delegate, relu (4). */
std::shared_ptr<const ExportedProgram> forwardGraph()
{
    auto ep = std::make_shared<ExportedProgram>();
    auto node = [&](const char* name, const char* target, std::int64_t handle, const char* module) {
        Node n;
        n.name = name;
        n.setTarget(target);
        n.debugHandles = { handle };
        n.metadata["stack_trace"] = std::string("model.py:") + std::to_string(handle);
        n.metadata["nn_module_stack"] = std::string("L__self__,,Net;L__self___") + module + "," + module + ",Block";
        ep->graph.nodes.push_back(std::move(n));
    };
    node("aten_add_tensor", "torch.ops.aten.add.Tensor", 1, "stem");
    node("aten_convolution_default", "torch.ops.aten.convolution.default", 2, "body");
    node("aten_batch_norm", "torch.ops.aten._native_batch_norm_legit_no_training.default", 3, "body");
    node("aten_relu_default", "torch.ops.aten.relu.default", 4, "head");
    return ep;
}

EtRecordMaps forwardMaps()
{
    EtRecordMaps maps;
    maps.debugHandleMap["forward"] = { { 0, { 1 } }, { 1, { 2, 3 } }, { 2, { 4 } } };
    DelegateMapEntry entry;
    entry.name = "XnnpackBackend";
    entry.delegateMap = { { "0", { 2 } }, { "1", { 3 } }, { "conv+bn", { 2, 3 } } };
    maps.delegateMap["forward"] = { { 1, entry } };
    return maps;
}

std::shared_ptr<const EtdumpSources> forwardSources(bool withMaps = true)
{
    auto program = std::make_shared<Program>();
    program->executionPlan.push_back(forwardPlan());
    const auto maps = forwardMaps();
    return makeEtdumpSources(program, withMaps ? &maps : nullptr, { { "forward", forwardGraph() } });
}

/** One execution of forward, as the runtime records it. `scale` stretches every duration. */
void forwardRun(EtdumpBuilder& b, std::uint64_t t, std::uint64_t scale = 1)
{
    b.block("Execute");
    b.profile("native_call_add.out", 0, 0, t + 1, t + 99 * scale);
    b.profile("OPERATOR_CALL", 0, 0, t, t + 100 * scale);
    t += 100 * scale;
    b.delegateInt(0, 0, 1, t + 10, t + 10 + 300 * scale);
    b.delegateInt(1, 0, 1, t + 10 + 300 * scale, t + 10 + 400 * scale);
    b.delegateStr("GEMM #1", 0, 1, t + 10 + 400 * scale, t + 10 + 450 * scale);
    b.profile("DELEGATE_CALL", 0, 1, t, t + 500 * scale);
    t += 500 * scale;
    b.profile("native_call_relu.out", 0, 2, t + 1, t + 49 * scale);
    b.profile("OPERATOR_CALL", 0, 2, t, t + 50 * scale);
    t += 50 * scale;
    b.profile("MOVE_CALL", 0, 3, t, t + 10);
    b.profile("Method::execute", -1, 0, t - 650 * scale - 5, t + 20);
}

std::shared_ptr<const EtdumpJoin> joined(
    const EtdumpBuilder& b, std::shared_ptr<const EtdumpSources> sources, const EtdumpJoinOptions& options = {})
{
    auto dump = b.read();
    if (!dump)
        return nullptr;
    auto j = joinEtdump(*dump, std::move(sources), options);
    return j ? *j : nullptr;
}

} // namespace

class TestEtdumpJoin : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void joinsEveryEventToItsInstruction()
    {
        EtdumpBuilder b;
        b.loadBlock();
        forwardRun(b, 10000);
        const auto j = joined(b, forwardSources());
        QVERIFY(j);
        QVERIFY(!j->hasMismatch());
        QCOMPARE(j->runs[0].kind, EtdumpRunKind::Load);
        QCOMPARE(j->runs[0].method, 0);
        QCOMPARE(j->runs[1].kind, EtdumpRunKind::Execute);
        QVERIFY(j->runs[1].joined);
        const auto& d = *j->dump;
        for (std::uint32_t i = d.runs[1].firstEvent; i < d.runs[1].firstEvent + d.runs[1].eventCount; ++i) {
            const auto& e = d.events[i];
            const auto& je = j->events[i];
            QCOMPARE(je.method, 0);
            if (e.inInstruction()) {
                QCOMPARE(je.instruction, e.instructionId);
                QCOMPARE(je.chain, 0);
                QVERIFY(j->instruction(je));
            } else {
                QCOMPARE(je.instruction, -1); // Method::execute: not instruction 0
            }
        }
        // Load-block framework events are not instruction 0 either.
        QCOMPARE(j->events[0].instruction, -1);
        QCOMPARE(j->handlesOf(j->events[0]).size(), std::size_t(0));
    }

    void delegateIdentifiersMatchExactly()
    {
        EtdumpBuilder b;
        forwardRun(b, 0);
        const auto j = joined(b, forwardSources());
        QVERIFY(j);
        const auto& g = *j->sources->methods[0].graph;
        // Events 2, 3, 4: int 0, int 1, "GEMM #1".
        QCOMPARE(j->events[2].mapping, DelegateMapping::Mapped);
        QCOMPARE(std::vector<std::int64_t>(j->handlesOf(j->events[2]).begin(), j->handlesOf(j->events[2]).end()),
            std::vector<std::int64_t> { 2 });
        const auto nodes = j->nodes(0, j->handlesOf(j->events[3]));
        QCOMPARE(nodes.size(), std::size_t(1));
        QCOMPARE(g.graph.nodes[nodes[0]].name, std::string("aten_batch_norm"));
        // The Inspector would take key "1" for "GEMM #1" (a substring); ptelens does not.
        QCOMPARE(j->events[4].mapping, DelegateMapping::Unmapped);
        QCOMPARE(j->events[4].handlesCount, 0u);
        // The DelegateCall itself carries all the delegated handles.
        const auto call = j->handlesOf(j->events[5]);
        QCOMPARE(std::vector<std::int64_t>(call.begin(), call.end()), (std::vector<std::int64_t> { 2, 3 }));
        // Without maps: nothing is mapped, and the reason says so.
        const auto bare = joined(b, forwardSources(false));
        QVERIFY(bare);
        QCOMPARE(bare->events[2].mapping, DelegateMapping::NoMap);
    }

    void rowsCarryOpTypesBackendsAndModules()
    {
        EtdumpBuilder b;
        b.loadBlock();
        forwardRun(b, 0);
        const auto j = joined(b, forwardSources());
        QVERIFY(j);
        auto t = buildProfileTable(*j->dump, j.get());
        QVERIFY_RESULT(t);
        const auto row = [&](const std::string& name, int nth = 0) -> const ProfileRow* {
            for (const auto& r : t->rows)
                if (r.eventName == name && nth-- == 0)
                    return &r;
            return nullptr;
        };
        const auto* add = row("OPERATOR_CALL");
        QVERIFY(add);
        QCOMPARE(add->opTypes, std::vector<std::string> { "aten.add.Tensor" });
        QCOMPARE(add->debugHandles, std::vector<std::int64_t> { 1 });
        QCOMPARE(add->stackTraces.size(), std::size_t(1));
        QCOMPARE(add->stackTraces[0].second, std::string("model.py:1"));
        const auto* call = row("DELEGATE_CALL");
        QCOMPARE(call->opTypes,
            (std::vector<std::string> {
                "aten.convolution.default", "aten._native_batch_norm_legit_no_training.default" }));
        QCOMPARE(call->delegateBackendName, std::string("XnnpackBackend"));
        const auto* conv = row("0");
        QVERIFY(conv->isDelegatedOp);
        QCOMPARE(conv->opTypes, std::vector<std::string> { "aten.convolution.default" });
        QCOMPARE(conv->delegateBackendName, std::string("XnnpackBackend"));
        const auto* gemm = row("GEMM #1");
        QVERIFY(gemm->opTypes.empty());
        QCOMPARE(gemm->mapping, DelegateMapping::Unmapped);
        QVERIFY(row("Method::execute")->opTypes.empty());
        const auto s = summarizeProfile(*j->dump, *t, j.get());
        QCOMPARE(s.byBackend.size(), std::size_t(2));
        QCOMPARE(s.byBackend[0].key, std::string("XnnpackBackend"));
        QCOMPARE(s.byBackend[0].total, 500 / 1e6);
        QCOMPARE(s.byOperator.front().key, std::string("XnnpackBackend: 0")); // 300 ns, the largest
        std::vector<std::string> modules;
        for (const auto& e : s.byModule)
            modules.push_back(e.key);
        QCOMPARE(modules, (std::vector<std::string> { "body", "stem", "head" }));
    }

    void mismatchingDumpsAreReportedNotJoined_data()
    {
        QTest::addColumn<QString>("event");
        QTest::addColumn<int>("chain");
        QTest::addColumn<int>("instruction");
        QTest::addColumn<QString>("needle");
        QTest::newRow("instruction count")
            << "OPERATOR_CALL" << 0 << 9 << "at instruction 9, but method 'forward' has 4";
        QTest::newRow("operator name") << "native_call_mul.out" << 0 << 0 << "KernelCall aten::add.out";
        QTest::newRow("kind") << "OPERATOR_CALL" << 0 << 1 << "DelegateCall XnnpackBackend";
        QTest::newRow("delegate event on a kernel") << "#delegate" << 0 << 2 << "delegate event";
        QTest::newRow("chain") << "OPERATOR_CALL" << 1 << 0 << "chain 1";
    }

    void mismatchingDumpsAreReportedNotJoined()
    {
        QFETCH(QString, event);
        QFETCH(int, chain);
        QFETCH(int, instruction);
        QFETCH(QString, needle);
        EtdumpBuilder b;
        b.loadBlock();
        forwardRun(b, 0);
        b.block("Execute");
        b.profile("OPERATOR_CALL", 0, 0, 0, 100);
        if (event == QStringLiteral("#delegate"))
            b.delegateInt(7, chain, instruction, 0, 10);
        else
            b.profile(event.toStdString(), chain, instruction, 0, 10);
        const auto j = joined(b, forwardSources());
        QVERIFY(j);
        QVERIFY(j->hasMismatch());
        QVERIFY(j->runs[1].joined); // the good block is still joined
        QVERIFY(!j->runs[2].joined);
        QVERIFY2(j->runs[2].problem.find(needle.toStdString()) != std::string::npos, j->runs[2].problem.c_str());
        const auto& d = *j->dump;
        for (std::uint32_t i = d.runs[2].firstEvent; i < d.runs[2].firstEvent + d.runs[2].eventCount; ++i)
            QCOMPARE(j->events[i].instruction, -1);
        const auto it = std::find_if(j->diagnostics.begin(), j->diagnostics.end(),
            [](const Diagnostic& x) { return x.severity == Severity::Error; });
        QVERIFY(it != j->diagnostics.end());
        QCOMPARE(it->fieldPath, std::string("run_data[2]"));
        QCOMPARE(it->offset, std::optional<std::uint64_t>(d.runs[2].fileOffset));
        QVERIFY(it->message.find("does not match the program") != std::string::npos);
    }

    /** The mismatch said about the ETDump in one sentence: the instruction counts when its events reach past the
     *  method's, else the first event that disagrees. */
    void mismatchSummaryTalksAboutTheEtdump()
    {
        EtdumpBuilder b;
        b.loadBlock();
        b.block("Execute");
        b.profile("OPERATOR_CALL", 0, 0, 0, 100);
        b.profile("OPERATOR_CALL", 0, 8, 0, 10);
        const auto counts = joined(b, forwardSources());
        QVERIFY(counts && counts->hasMismatch());
        QCOMPARE(counts->mismatchSummary(),
            std::string("this ETDump was recorded from another program: 4 instructions expected, 9 found"));

        EtdumpBuilder other;
        other.loadBlock();
        other.block("Execute");
        other.profile("native_call_mul.out", 0, 0, 0, 10);
        const auto op = joined(other, forwardSources());
        QVERIFY(op && op->hasMismatch());
        const auto summary = op->mismatchSummary();
        QVERIFY2(summary.starts_with("this ETDump was recorded from another program: event 'native_call_mul.out' at "
                                     "instruction 0, which is a KernelCall aten::add.out"),
            summary.c_str());

        EtdumpBuilder good;
        good.loadBlock();
        forwardRun(good, 0);
        const auto matching = joined(good, forwardSources());
        QVERIFY(matching && !matching->hasMismatch());
        QVERIFY(matching->mismatchSummary().empty());
    }

    void loggedValuesMapToProgramValues()
    {
        EtdumpBuilder b;
        b.block("Execute");
        b.debugTensor(0, 0, ScalarType::Float, { 2, 3 }, 0).profile("OPERATOR_CALL", 0, 0, 0, 10);
        // A delegate logs all its arguments, inputs included.
        b.debugTensor(0, 1, ScalarType::Float, { 2, 3 }, 24).debugTensor(0, 1, ScalarType::Float, { 2, 3 }, 48);
        b.profile("DELEGATE_CALL", 0, 1, 10, 20);
        b.debugTensor(0, 2, ScalarType::Long, { 2, 3 }, 72).profile("OPERATOR_CALL", 0, 2, 20, 30); // wrong dtype
        b.profile("Method::execute", -1, 0, 0, 40);
        b.debugTensor(-1, 0, ScalarType::Float, { 2, 3 }, 120, true);
        const auto j = joined(b, forwardSources());
        QVERIFY(j);
        QCOMPARE(j->events[0].value, 2); // add.out's out argument
        QCOMPARE(j->events[2].value, 2);
        QCOMPARE(j->events[3].value, 3);
        QCOMPARE(j->events[5].value, 4);
        QVERIFY(j->events[5].valueMismatch);
        QVERIFY(!j->events[0].valueMismatch);
        QCOMPARE(j->events[8].outputIndex, 0);
        QCOMPARE(j->events[8].value, 4);
        QVERIFY(std::any_of(j->diagnostics.begin(), j->diagnostics.end(), [](const Diagnostic& d) {
            return d.severity == Severity::Warning && d.message.find("1 logged value(s) differ") != std::string::npos;
        }));
    }

    void severalRunsAggregate()
    {
        EtdumpBuilder b;
        b.loadBlock();
        forwardRun(b, 1000000, 1);
        forwardRun(b, 2000000, 3);
        forwardRun(b, 3000000, 2);
        const auto j = joined(b, forwardSources());
        QVERIFY(j);
        ProfileOptions ns;
        ns.target = TimeScale::Ns;
        const auto timings = methodTimings(*j, ns);
        QCOMPARE(timings.size(), std::size_t(1));
        const auto& t = timings[0];
        QCOMPARE(t.runs, 3u);
        QCOMPARE(t.executeSamples.size(), std::size_t(3));
        const auto* add = t.find(0, 0);
        QVERIFY(add);
        QCOMPARE(add->samples, (std::vector<double> { 100, 300, 200 }));
        QCOMPARE(add->median, 200.0);
        QCOMPARE(add->p10, 100 + 100 * 0.2);
        QCOMPARE(add->executions, 3u);
        QCOMPARE(add->share, 200.0 / t.executeMedian);
        const auto* call = t.find(0, 1);
        QCOMPARE(call->median, 1000.0);
        QCOMPARE(call->delegateEvents, 9u);
        QCOMPARE(t.find(0, 3)->median, 10.0);
        QVERIFY(!t.find(0, 4));
        // Per node: conv and batch norm get their mapped delegate events; the rest of the call (500 - 400 mapped,
        // "GEMM #1" unmapped) is split over the call's nodes; add and relu get their instructions.
        const auto nodes = nodeTimings(*j, t, ns);
        QCOMPARE(nodes.size(), std::size_t(4));
        QCOMPARE(nodes[0].time, 200.0);
        QVERIFY(!nodes[0].estimated);
        QCOMPARE(nodes[1].time, 2 * (300.0 + 50.0));
        QVERIFY(nodes[1].estimated);
        QCOMPARE(nodes[2].time, 2 * (100.0 + 50.0));
        QCOMPARE(nodes[3].time, 100.0);
    }

    void blocksAreAttributedToMethodsByTheirEvents()
    {
        auto program = std::make_shared<Program>();
        program->executionPlan.push_back(forwardPlan());
        ExecutionPlan twice = forwardPlan();
        twice.name = "twice";
        twice.chains[0].instructions = { kernel(1, { 0, 2 }), kernel(1, { 2, 4 }) };
        program->executionPlan.push_back(twice);
        const auto sources = makeEtdumpSources(program);
        EtdumpBuilder b;
        b.loadBlock();
        b.block("Execute").profile("native_call_relu.out", 0, 0, 1, 2).profile("native_call_relu.out", 0, 1, 3, 4);
        b.loadBlock();
        forwardRun(b, 100);
        const auto j = joined(b, sources);
        QVERIFY(j);
        QVERIFY(!j->hasMismatch());
        QCOMPARE(j->runs[1].method, 1);
        QCOMPARE(j->runs[3].method, 0);
        QCOMPARE(j->runs[0].method, 1); // a load block belongs to the executions after it
        QCOMPARE(j->runs[2].method, 0);
        // Forced to one method, the other block does not match.
        EtdumpJoinOptions forced;
        forced.method = "forward";
        const auto f = joined(b, sources, forced);
        QVERIFY(f);
        QVERIFY(!f->runs[1].joined);
        QVERIFY(f->runs[3].joined);
        forced.method = "nope";
        auto dump = b.read();
        QVERIFY_RESULT(dump);
        QVERIFY(!joinEtdump(*dump, sources, forced));
    }

    void ambiguousBlocksFollowTheLoadOrder()
    {
        auto program = std::make_shared<Program>();
        program->executionPlan.push_back(forwardPlan());
        ExecutionPlan copy = forwardPlan();
        copy.name = "copy";
        program->executionPlan.push_back(copy);
        EtdumpBuilder b;
        b.loadBlock();
        forwardRun(b, 0);
        forwardRun(b, 5000);
        b.loadBlock();
        forwardRun(b, 9000);
        const auto j = joined(b, makeEtdumpSources(program));
        QVERIFY(j);
        QCOMPARE(j->runs[1].method, 0);
        QCOMPARE(j->runs[2].method, 0);
        QCOMPARE(j->runs[4].method, 1);
        QVERIFY(std::any_of(j->diagnostics.begin(), j->diagnostics.end(), [](const Diagnostic& d) {
            return d.severity == Severity::Info
                && d.message.find("agrees with methods 'forward', 'copy'") != std::string::npos;
        }));
    }

    void etrecordMapsAloneJoinLikeTheInspector()
    {
        // No program: methods come from the maps, every block goes to forward, nothing is checked.
        const auto maps = forwardMaps();
        const auto sources = makeEtdumpSources(nullptr, &maps, { { "forward", forwardGraph() } });
        QCOMPARE(sources->methods.size(), std::size_t(1));
        EtdumpBuilder b;
        forwardRun(b, 0);
        const auto j = joined(b, sources);
        QVERIFY(j);
        auto t = buildProfileTable(*j->dump, j.get());
        QVERIFY_RESULT(t);
        QCOMPARE(t->rows[1].opTypes, std::vector<std::string> { "aten.add.Tensor" });
        QCOMPARE(t->rows[5].eventName, std::string("DELEGATE_CALL"));
        QCOMPARE(t->rows[5].delegateBackendName, std::string("XnnpackBackend"));
    }

    void emittedProgramJoinsItsOwnDebugMaps()
    {
        // A program ptelens emits, with the trace the runtime would record for it: every kernel row names the graph
        // nodes the emitter recorded for its instruction.
        auto dump = readDump((test::testDataDir() + QStringLiteral("/emit/add_mul.json")).toStdString());
        QVERIFY_RESULT(dump);
        auto e = test::emitAndReload((*dump)->methods, "add_mul");
        QVERIFY_RESULT(e);
        const auto& program = e->file->program;
        auto trace = makeSyntheticEtdump(*program, SyntheticEtdumpOptions { {}, 2, true, 1000 });
        QVERIFY_RESULT(trace);
        auto bytes = serializeEtdump(*trace);
        QVERIFY_RESULT(bytes);
        auto read = readEtdumpBytes(Bytes::fromVector(std::move(bytes).value()), "add_mul.etdp");
        QVERIFY_RESULT(read);
        const auto sources = makeEtdumpSources(program, e->output, (*dump)->methods);
        auto j = joinEtdump(*read, sources);
        QVERIFY_RESULT(j);
        QVERIFY(!(*j)->hasMismatch());
        auto t = buildProfileTable(**read, j->get());
        QVERIFY_RESULT(t);
        const auto& info = e->output.methods.at("forward");
        const auto& graph = *sources->methods[0].graph;
        std::size_t checked = 0;
        for (const auto& row : t->rows) {
            if (row.eventName != "OPERATOR_CALL")
                continue;
            QCOMPARE(row.raw.size(), std::size_t(2)); // two runs merged
            QVERIFY(info.instructionNodes.contains(row.instruction));
            const auto& expected = info.instructionNodes.at(row.instruction);
            std::vector<std::string> names;
            for (const auto n : row.nodes)
                names.push_back(graph.graph.nodes[n].name);
            QCOMPARE(names, expected);
            ++checked;
        }
        QCOMPARE(checked, program->executionPlan[0].chains[0].instructions.size());
        QVERIFY(checked >= 2);
    }
};

QTEST_GUILESS_MAIN(TestEtdumpJoin)
#include "tst_etdumpjoin.moc"
