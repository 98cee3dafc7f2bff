// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

// Hand-built snapshots for the UI model tests: plain structs, no file readers involved.

#include "document/document.h"
#include "document/snapshot.h"
#include "pte/emitter.h"
#include "pte/graph.h"
#include "pte/program.h"

#include <QAbstractItemModel>
#include <QAbstractItemModelTester>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QTest>
#include <QTimer>

#include <functional>
#include <memory>
#include <string>

namespace pte::ui::fixtures {

/** A cell's text (or other role) for exact comparisons. */
inline QString cell(const QAbstractItemModel& m, int row, int column, int role = Qt::DisplayRole)
{
    return m.index(row, column).data(role).toString();
}

/** The first pte::Error a Document failure signal (loadFailed, emitFailed, saveFailed) carried, as text; empty when
 *  the signal was not emitted. */
inline QString failureText(const QSignalSpy& spy)
{
    return spy.isEmpty() ? QString() : QString::fromStdString(spy.first().first().value<pte::Error>().toString());
}

/** Attaches QAbstractItemModelTester (failures reported through QtTest) for the model's lifetime. */
inline void attachModelTester(QAbstractItemModel* model)
{
    new QAbstractItemModelTester(model, QAbstractItemModelTester::FailureReportingMode::QtTest, model);
}

/** Any Qt warning fails the current test function, except the offscreen platform's note about size hints.
 *  Call it from init(): Qt 6.4 forgets failOnWarning patterns after each test function. */
inline void failOnQtWarnings()
{
    QTest::failOnWarning(
        QRegularExpression(QStringLiteral("^(?!This plugin does not support propagateSizeHints\\(\\)$)")));
}

/** Processes events until `done` holds; whether it does (the timeout only ends a wait that would never end). */
inline bool waitFor(const std::function<bool()>& done, int timeoutMs = 60000)
{
    return QTest::qWaitFor(done, timeoutMs);
}

/** Runs everything queued for the GUI thread so far (posted events, zero timers such as a view's deferred fit):
 *  a marker queued after them runs last, and the wait ends when it has. */
inline void runQueuedEvents()
{
    bool ran = false;
    QTimer::singleShot(0, [&ran] { ran = true; });
    QVERIFY(QTest::qWaitFor([&ran] { return ran; }, 60000));
}

/** Processes events until one of the spies fired or `timeoutMs` passed; whether one did. */
inline bool waitEither(QSignalSpy& a, QSignalSpy& b, int timeoutMs = 60000)
{
    return waitFor([&] { return !a.isEmpty() || !b.isEmpty(); }, timeoutMs);
}

/** Calls `start` (a Document operation that ends in the `finished` or the `failed` signal) and waits for either;
 *  empty when it finished, else why not: the failure's text, or that it timed out. */
template <typename Finished, typename Failed>
QString finishes(
    Document& doc, Finished finished, Failed failed, const std::function<void()>& start, int timeoutMs = 60000)
{
    QSignalSpy done(&doc, finished);
    QSignalSpy failures(&doc, failed);
    start();
    if (!waitEither(done, failures, timeoutMs))
        return QStringLiteral("timed out after %1 ms").arg(timeoutMs);
    return failureText(failures);
}
/** Opens `paths` in `doc` and waits (finishes): empty when they loaded. */
inline QString openAndWait(Document& doc, const QStringList& paths)
{
    return finishes(doc, &Document::loadFinished, &Document::loadFailed, [&] { doc.open(paths); });
}
/** Emits with `settings` and waits (finishes): empty when it emitted. */
inline QString emitAndWait(Document& doc, const EmitSettings& settings, int timeoutMs = 60000)
{
    return finishes(
        doc, &Document::emitFinished, &Document::emitFailed, [&] { doc.emitProgram(settings); }, timeoutMs);
}
/** Saves to `path` and waits (finishes): empty when it saved. */
inline QString saveAndWait(Document& doc, const QString& path)
{
    return finishes(doc, &Document::saveFinished, &Document::saveFailed, [&] { doc.save(path); });
}

inline pte::EValue tensorValue(pte::ScalarType dtype, std::vector<std::int32_t> sizes, std::uint32_t constant = 0,
    std::optional<std::pair<std::uint32_t, std::uint32_t>> alloc = std::nullopt)
{
    pte::Tensor t;
    t.scalarType = dtype;
    t.sizes = std::move(sizes);
    for (std::size_t i = 0; i < t.sizes.size(); ++i)
        t.dimOrder.push_back(std::uint8_t(i));
    t.dataBufferIdx = constant;
    if (alloc)
        t.allocationInfo = pte::AllocationDetails { alloc->first, alloc->second, 0 };
    pte::EValue v;
    v.val = t;
    v.rawType = 5;
    return v;
}

inline pte::EValue intValue(std::int64_t i)
{
    pte::EValue v;
    v.val = pte::Int { i };
    v.rawType = 2;
    return v;
}

inline pte::Instruction kernel(std::int32_t op, std::vector<std::int32_t> args)
{
    pte::Instruction ins;
    ins.args = pte::KernelCall { op, std::move(args) };
    ins.rawType = 1;
    return ins;
}

inline pte::Instruction delegateCall(std::int32_t index, std::vector<std::int32_t> args)
{
    pte::Instruction ins;
    ins.args = pte::DelegateCall { index, std::move(args) };
    ins.rawType = 2;
    return ins;
}

/**
 * "forward": values %0 x (input), %1 weight (constant 1), %2 y = add(x, w), %3 alpha, %4 z = delegate(y),
 * %5 out = mul(z, z); instructions: 0 aten::add.out, 1 XnnpackBackend delegate, 2 aten::mul.out, 3 free.
 * Plus "get_answer" (constant method) and "__et_training_fqn_forward" (training metadata).
 */
inline std::shared_ptr<pte::Program> makeProgram()
{
    auto p = std::make_shared<pte::Program>();
    pte::ExecutionPlan f;
    f.name = "forward";
    f.values = { tensorValue(pte::ScalarType::Float, { 2, 3 }, 0, std::pair(1u, 0u)),
        tensorValue(pte::ScalarType::Float, { 2, 3 }, 1),
        tensorValue(pte::ScalarType::Float, { 2, 3 }, 0, std::pair(1u, 32u)), intValue(1),
        tensorValue(pte::ScalarType::Float, { 2, 3 }, 0, std::pair(1u, 64u)),
        tensorValue(pte::ScalarType::Float, { 2, 3 }, 0, std::pair(1u, 0u)) };
    f.inputs = { 0 };
    f.outputs = { 5 };
    pte::Chain chain;
    chain.inputs = f.inputs;
    chain.outputs = f.outputs;
    chain.instructions = { kernel(0, { 0, 1, 3, 2, 2 }), delegateCall(0, { 2, 4 }), kernel(1, { 4, 4, 5, 5 }) };
    pte::Instruction freeIns;
    freeIns.args = pte::FreeCall { 2 };
    freeIns.rawType = 5;
    chain.instructions.push_back(freeIns);
    f.chains.push_back(chain);
    f.operators = { pte::Operator { "aten::add", "out" }, pte::Operator { "aten::mul", "out" } };
    pte::BackendDelegate d;
    d.id = "XnnpackBackend";
    d.processed = pte::BackendDelegateDataReference { pte::DataLocation::Inline, 0 };
    d.compileSpecs = { pte::CompileSpec { "mode", pte::Bytes::copyOf("fast") },
        pte::CompileSpec { "blob", pte::Bytes::fromVector({ 0x00, 0x01, 0xff }) } };
    f.delegates.push_back(d);
    f.nonConstBufferSizes = { 0, 96 };
    p->executionPlan.push_back(f);

    pte::ExecutionPlan c;
    c.name = "get_answer";
    c.values = { intValue(42) };
    c.outputs = { 0 };
    c.chains.push_back(pte::Chain {});
    p->executionPlan.push_back(c);
    pte::ExecutionPlan t = c;
    t.name = "__et_training_fqn_forward";
    p->executionPlan.push_back(t);

    p->backendDelegateData.push_back(pte::Buffer { pte::Bytes::fromVector(std::vector<std::uint8_t>(100, 7)) });
    p->constantBuffer.push_back(pte::Buffer {});
    p->constantBuffer.push_back(pte::Buffer { pte::Bytes::fromVector(std::vector<std::uint8_t>(24, 1)) });
    return p;
}

inline pte::Node node(const std::string& name, const std::string& op, std::vector<std::string> inputs,
    std::vector<std::int64_t> handles, const std::string& moduleStack = {})
{
    pte::Node n;
    n.name = name;
    n.setTarget("torch.ops.aten." + op + ".Tensor");
    for (const auto& i : inputs)
        n.inputs.push_back(pte::NamedArgument { "self", pte::Argument::tensor(i), 1 });
    n.outputs.push_back(pte::Argument::tensor(name));
    n.debugHandles = handles;
    if (!handles.empty())
        n.metadata["debug_handle"] = std::to_string(handles.front());
    if (!moduleStack.empty())
        n.metadata["nn_module_stack"] = moduleStack;
    n.metadata["stack_trace"] = "File \"model.py\", line 3, in forward";
    return n;
}

/** The dump of "forward": x, w (parameter), buf (buffer) -> add -> mul; outputs: mutated buf, user output. */
inline std::shared_ptr<pte::ExportedProgram> makeExportedProgram()
{
    auto ep = std::make_shared<pte::ExportedProgram>();
    ep->source = "model.pt2:models/model.json";
    auto& g = ep->graph;
    g.inputs = { pte::Argument::tensor("w"), pte::Argument::tensor("buf"), pte::Argument::tensor("x") };
    g.nodes = { node("add", "add", { "x", "w" }, { 1 }, "L__self__,,M;L__self__lin,lin,torch.nn.Linear"),
        node("mul", "mul", { "add", "add" }, { 2 }, "L__self__,,M;L__self__act,act,torch.nn.ReLU"),
        node("copy", "copy", { "buf", "mul" }, { 3 }) };
    g.outputs = { pte::Argument::tensor("copy"), pte::Argument::tensor("mul") };
    pte::TensorMeta meta;
    meta.dtype = pte::ScalarType::Float;
    meta.sizes = { pte::SymInt { 2, {}, {} }, pte::SymInt { 3, {}, {} } };
    for (const char* n : { "x", "w", "buf", "add", "mul", "copy" })
        g.tensorValues[n] = meta;
    pte::InputSpec w { pte::InputKind::Parameter, pte::Argument::tensor("w"), "lin.weight", {}, {} };
    pte::InputSpec b { pte::InputKind::Buffer, pte::Argument::tensor("buf"), "running", true, {} };
    pte::InputSpec x { pte::InputKind::UserInput, pte::Argument::tensor("x"), "", {}, {} };
    ep->signature.inputSpecs = { w, b, x };
    ep->signature.outputSpecs = { pte::OutputSpec {
                                      pte::OutputKind::BufferMutation, pte::Argument::tensor("copy"), "running" },
        pte::OutputSpec { pte::OutputKind::UserOutput, pte::Argument::tensor("mul"), "" } };
    return ep;
}

/** A snapshot as after an emission: program, dumps, debug maps, memory plan. */
inline std::shared_ptr<Snapshot> makeSnapshot()
{
    auto snap = std::make_shared<Snapshot>();
    auto out = std::make_shared<pte::EmitterOutput>();
    out->program = *makeProgram();
    out->debugHandleMap["forward"] = { { 0, { 1 } }, { 1, { 2, 3 } }, { 2, { 2 } } };
    pte::DelegateMapEntry entry;
    entry.name = "XnnpackBackend";
    entry.delegateMap = { { "fused_mul_0", { 2 } }, { "copy_1", { 3 } } };
    out->methodToDelegateDebugIdMap["forward"] = { { 1, entry } };
    pte::MethodEmitInfo info;
    info.instructionNodes = { { 0, { "add" } }, { 1, { "mul", "copy" } }, { 2, { "mul" } } };
    info.valueNames = { { 0, "x" }, { 2, "add" }, { 5, "mul" } };
    info.memoryPlan = { pte::PlannedTensor { 0, "x", 1, 0, 24, 0, 0 }, pte::PlannedTensor { 2, "add", 1, 32, 24, 0, 1 },
        pte::PlannedTensor { 4, "z", 1, 64, 24, 1, 2 } };
    out->methods["forward"] = info;
    pte::Diagnostic warn;
    warn.severity = pte::Severity::Warning;
    warn.message = "something odd";
    warn.offset = 128;
    warn.fieldPath = "execution_plan[0].values[3]";
    warn.file = "emitter";
    out->warnings.push_back(warn);
    snap->emitted = out;
    snap->program = std::shared_ptr<const pte::Program>(out, &out->program);
    snap->dumpMethods.push_back(DumpMethod { "forward", "forward", "model.pt2", makeExportedProgram() });
    snap->diagnostics = out->warnings;
    pte::Diagnostic err = warn;
    err.severity = pte::Severity::Error;
    err.message = "bad thing";
    err.offset.reset();
    snap->diagnostics.push_back(err);
    snap->finalize();
    return snap;
}

/** A "forward" with n instructions cycling through 4 operators and a delegate every 10th; debug handle = id. */
inline std::shared_ptr<Snapshot> makeLargeSnapshot(int n)
{
    auto out = std::make_shared<pte::EmitterOutput>();
    pte::ExecutionPlan f;
    f.name = "forward";
    f.values = { tensorValue(pte::ScalarType::Float, { 4 }, 0, std::pair(1u, 0u)),
        tensorValue(pte::ScalarType::Float, { 4 }, 0, std::pair(1u, 16u)) };
    f.inputs = { 0 };
    f.outputs = { 1 };
    f.operators = { { "aten::add", "out" }, { "aten::mul", "out" }, { "aten::sub", "out" }, { "aten::relu", "out" } };
    pte::BackendDelegate d;
    d.id = "XnnpackBackend";
    f.delegates.push_back(d);
    pte::Chain chain;
    chain.instructions.reserve(std::size_t(n));
    auto& handles = out->debugHandleMap["forward"];
    for (int i = 0; i < n; ++i) {
        chain.instructions.push_back(i % 10 == 9 ? delegateCall(0, { 0, 1 }) : kernel(i % 4, { 0, 0, 1, 1 }));
        handles[i] = { i };
    }
    f.chains.push_back(std::move(chain));
    out->program.executionPlan.push_back(std::move(f));
    auto snap = std::make_shared<Snapshot>();
    snap->emitted = out;
    snap->program = std::shared_ptr<const pte::Program>(out, &out->program);
    snap->finalize();
    return snap;
}

} // namespace pte::ui::fixtures
