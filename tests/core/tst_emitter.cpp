// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// Emission from exported programs built in C++ (no dump reader needed). Every expected table below was
// derived by hand from docs/emission.md (value order, argument order/defaults, greedy planning).
#include "errorcheck.h"
#include "pte/dumpreader.h"
#include "pte/emittedoutput.h"
#include "pte/emitter.h"
#include "pte/kernelcoverage.h"
#include "pte/programequality.h"
#include "pte/ptereader.h"
#include "pte/ptewriter.h"
#include "pte/referenceinterpreter.h"
#include "testutils.h"

#include <QTest>

#include <cstring>

using namespace pte;

namespace {

TensorMeta meta(ScalarType dt, std::vector<std::int64_t> sizes, bool requiresGrad = false)
{
    TensorMeta m;
    m.dtype = dt;
    m.requiresGrad = requiresGrad;
    std::int64_t st = 1;
    std::vector<SymInt> strides(sizes.size());
    for (std::size_t i = sizes.size(); i-- > 0;) {
        strides[i].value = st;
        st *= std::max<std::int64_t>(sizes[i], 1);
    }
    for (const auto s : sizes)
        m.sizes.push_back(SymInt { s, {}, {} });
    m.strides = strides;
    m.storageOffset.value = 0;
    return m;
}

Argument tensorsArg(std::vector<std::string> names)
{
    Argument a;
    a.kind = ArgKind::Tensors;
    a.names = std::move(names);
    return a;
}
Argument intArg(std::int64_t v)
{
    Argument a;
    a.kind = ArgKind::Int;
    a.ints = { v };
    return a;
}
Argument floatArg(double v)
{
    Argument a;
    a.kind = ArgKind::Float;
    a.floats = { v };
    return a;
}

Node op(const std::string& name, const std::string& ns, const std::string& opName, const std::string& overload,
    std::vector<NamedArgument> inputs, std::vector<std::string> outputs, std::optional<std::int64_t> debugHandle = {})
{
    Node n;
    n.name = name;
    n.setTarget("torch.ops." + ns + "." + opName + "." + (overload.empty() ? "default" : overload));
    n.inputs = std::move(inputs);
    for (auto& o : outputs)
        n.outputs.push_back(Argument::tensor(o));
    if (debugHandle) {
        n.debugHandles = { *debugHandle };
        n.metadata["debug_handle"] = std::to_string(*debugHandle);
    }
    n.jsonPath = "graph_module.graph.nodes[" + name + "]";
    return n;
}

struct Builder
{
    std::shared_ptr<ExportedProgram> ep = std::make_shared<ExportedProgram>();

    Builder& input(const std::string& name, TensorMeta m)
    {
        ep->graph.inputs.push_back(Argument::tensor(name));
        ep->graph.tensorValues[name] = std::move(m);
        InputSpec s;
        s.kind = InputKind::UserInput;
        s.arg = Argument::tensor(name);
        ep->signature.inputSpecs.push_back(std::move(s));
        return *this;
    }
    Builder& lifted(InputKind kind, const std::string& name, const std::string& fqn, TensorMeta m,
        std::vector<std::uint8_t> bytes, bool withData = true)
    {
        ep->graph.inputs.push_back(Argument::tensor(name));
        ep->graph.tensorValues[name] = m;
        InputSpec s;
        s.kind = kind;
        s.arg = Argument::tensor(name);
        s.target = fqn;
        ep->signature.inputSpecs.push_back(std::move(s));
        if (withData) {
            WeightTensor w;
            w.meta = std::move(m);
            w.data = Bytes::fromVector(std::move(bytes));
            w.source = "test:" + fqn;
            w.isParameter = kind == InputKind::Parameter;
            ep->weights[fqn] = std::move(w);
        }
        return *this;
    }
    Builder& node(Node n, std::vector<std::pair<std::string, TensorMeta>> outs = {})
    {
        for (auto& [name, m] : outs)
            ep->graph.tensorValues[name] = std::move(m);
        ep->graph.nodes.push_back(std::move(n));
        return *this;
    }
    Builder& output(OutputKind kind, const std::string& name, const std::string& target = {})
    {
        ep->graph.outputs.push_back(Argument::tensor(name));
        OutputSpec s;
        s.kind = kind;
        s.arg = Argument::tensor(name);
        s.target = target;
        ep->signature.outputSpecs.push_back(std::move(s));
        return *this;
    }
    std::shared_ptr<const ExportedProgram> done() const { return ep; }
};

std::vector<std::uint8_t> floats(std::vector<float> v)
{
    std::vector<std::uint8_t> b(v.size() * 4);
    std::memcpy(b.data(), v.data(), b.size());
    return b;
}

NamedArgument na(const std::string& name, Argument a) { return NamedArgument { name, std::move(a), 1 }; }

// Compact descriptions of values and instructions for exact comparisons.
std::string describe(const EValue& v)
{
    switch (v.kind()) {
    case ValueKind::Null:
        return "Null";
    case ValueKind::Int:
        return "Int " + std::to_string(std::get<Int>(v.val).intVal);
    case ValueKind::Bool:
        return std::string("Bool ") + (std::get<Bool>(v.val).boolVal ? "true" : "false");
    case ValueKind::Double: {
        char buf[32];
        std::snprintf(buf, sizeof buf, "Double %g", std::get<Double>(v.val).doubleVal);
        return buf;
    }
    case ValueKind::String:
        return "String " + std::get<String>(v.val).stringVal;
    case ValueKind::IntList:
    case ValueKind::TensorList:
    case ValueKind::OptionalTensorList: {
        std::string s = v.kind() == ValueKind::IntList ? "IntList ["
            : v.kind() == ValueKind::TensorList        ? "TensorList ["
                                                       : "OptTensorList [";
        std::vector<std::int64_t> items;
        if (v.kind() == ValueKind::IntList)
            items = std::get<IntList>(v.val).items;
        else if (v.kind() == ValueKind::TensorList)
            items.assign(std::get<TensorList>(v.val).items.begin(), std::get<TensorList>(v.val).items.end());
        else
            items.assign(
                std::get<OptionalTensorList>(v.val).items.begin(), std::get<OptionalTensorList>(v.val).items.end());
        for (std::size_t i = 0; i < items.size(); ++i)
            s += (i ? "," : "") + std::to_string(items[i]);
        return s + "]";
    }
    case ValueKind::Tensor: {
        const auto& t = *v.tensor();
        std::string s = std::string("Tensor ") + scalarTypeShortName(t.scalarType) + " [";
        for (std::size_t i = 0; i < t.sizes.size(); ++i)
            s += (i ? "," : "") + std::to_string(t.sizes[i]);
        s += "]";
        if (t.allocationInfo)
            s += " @" + std::to_string(t.allocationInfo->offset());
        if (t.dataBufferIdx)
            s += " data " + std::to_string(t.dataBufferIdx);
        if (t.requiresGrad)
            s += " grad";
        if (t.shapeDynamism != ShapeDynamism::Static)
            s += " dyn";
        return s;
    }
    default:
        return "?";
    }
}

std::vector<std::string> describeValues(const ExecutionPlan& p)
{
    std::vector<std::string> out;
    for (const auto& v : p.values)
        out.push_back(describe(v));
    return out;
}

std::vector<std::string> describeInstructions(const ExecutionPlan& p)
{
    std::vector<std::string> out;
    for (const auto& i : p.chains.at(0).instructions) {
        std::string s;
        auto list = [](const std::vector<std::int32_t>& a) {
            std::string r = "[";
            for (std::size_t k = 0; k < a.size(); ++k)
                r += (k ? "," : "") + std::to_string(a[k]);
            return r + "]";
        };
        if (const auto* k = std::get_if<KernelCall>(&i.args))
            s = p.operators.at(std::size_t(k->opIndex)).qualifiedName() + " " + list(k->args);
        else if (const auto* d = std::get_if<DelegateCall>(&i.args))
            s = "delegate " + std::to_string(d->delegateIndex) + " " + list(d->args);
        else if (const auto* j = std::get_if<JumpFalseCall>(&i.args))
            s = "jumpfalse " + std::to_string(j->condValueIndex) + " -> " + std::to_string(j->destinationInstruction);
        else if (const auto* m = std::get_if<MoveCall>(&i.args))
            s = "move " + std::to_string(m->moveFrom) + " -> " + std::to_string(m->moveTo);
        out.push_back(s);
    }
    return out;
}

using Strings = std::vector<std::string>;

} // namespace

namespace QTest {
template <> inline char* toString(const Strings& v)
{
    std::string s;
    for (const auto& x : v)
        s += "\n    " + x;
    return qstrdup(s.c_str());
}
} // namespace QTest

class TestEmitter : public QObject
{
    Q_OBJECT
private:
    static std::shared_ptr<const ExportedProgram> addProgram()
    {
        return Builder()
            .input("x", meta(ScalarType::Float, { 1 }))
            .input("y", meta(ScalarType::Float, { 1 }))
            .node(op("add", "aten", "add", "Tensor",
                      { na("self", Argument::tensor("x")), na("other", Argument::tensor("y")) }, { "add" }, 1),
                { { "add", meta(ScalarType::Float, { 1 }) } })
            .output(OutputKind::UserOutput, "add")
            .done();
    }

    /** Writes the program, reads it back, checks the reader's runtime checks and the round trip. */
    static void checkRoundTrip(const EmitterOutput& out, const QString& name)
    {
        auto laid = layoutForSerialization(out.program, out.mutableData, out.namedData);
        QVERIFY_RESULT(laid);
        const std::string path = (test::tempDir() + "/" + name + ".pte").toStdString();
        auto written = writePte(*laid, path);
        QVERIFY_RESULT(written);
        auto read = readPteFile(path);
        QVERIFY_RESULT(read);
        for (const auto& d : (*read)->diagnostics)
            if (d.severity == Severity::Error)
                QFAIL(("runtime check failed: " + d.toString()).c_str());
        const auto diff = programDifference(*laid, *(*read)->program, false);
        if (diff)
            QFAIL(("read back differs: " + *diff).c_str());
    }

    /** The one method of a hand-written dump in tests/data/emit. */
    static std::shared_ptr<const ExportedProgram> loadDump(const char* name)
    {
        const auto path = (test::testDataDir() + QStringLiteral("/emit/") + QLatin1String(name)).toStdString();
        auto d = readDump(path);
        if (!d || (*d)->methods.size() != 1)
            return nullptr;
        return (*d)->methods[0].second;
    }

    /** No two planned tensors alive at the same instruction share a byte. */
    static void checkPlanDisjoint(const MethodEmitInfo& info)
    {
        const auto& p = info.memoryPlan;
        for (std::size_t a = 0; a < p.size(); ++a)
            for (std::size_t b = a + 1; b < p.size(); ++b) {
                if (p[a].view || p[b].view)
                    continue; // a view shares its base's memory on purpose
                const bool live =
                    p[a].firstInstruction <= p[b].lastInstruction && p[b].firstInstruction <= p[a].lastInstruction;
                const bool bytes = p[a].offset < p[b].offset + p[b].size && p[b].offset < p[a].offset + p[a].size;
                if (live && bytes)
                    QFAIL(("'" + p[a].name + "' and '" + p[b].name + "' share memory while both are alive").c_str());
            }
    }

    static const PlannedTensor& planned(const MethodEmitInfo& info, const std::string& name)
    {
        for (const auto& t : info.memoryPlan)
            if (t.name == name)
                return t;
        static const PlannedTensor none;
        return none;
    }

    static Node viewNode(const std::string& base, Argument size, const std::string& out)
    {
        Node v;
        v.name = out;
        v.setTarget("executorch.exir.memory.view");
        v.inputs = { na("", Argument::tensor(base)), na("", std::move(size)) };
        v.outputs = { Argument::tensor(out) };
        return v;
    }

    struct RunResult
    {
        std::vector<HostTensor> outputs;
        std::size_t executed = 0;
    };
    /** Writes the program, reads it back and runs "forward" `runs` times on the reference runtime. */
    static Result<RunResult> runForward(
        const EmitterOutput& out, const std::string& name, const std::vector<HostTensor>& inputs, int runs = 1)
    {
        PTE_TRY(auto laid, layoutForSerialization(out.program, out.mutableData, out.namedData));
        const std::string path = (test::tempDir() + "/" + QString::fromStdString(name) + "_run.pte").toStdString();
        PTE_CHECK(writePte(laid, path));
        PTE_TRY(auto file, readPteFile(path));
        PTE_TRY(auto rt, ReferenceInterpreter::load(*file->program, "forward"));
        RunResult r;
        for (int i = 0; i < runs; ++i) {
            PTE_TRY(r.outputs, rt->run(inputs));
        }
        r.executed = rt->executedInstructions();
        return r;
    }

private Q_SLOTS:
    void emitsAdd()
    {
        auto r = emitProgram({ { "forward", addProgram() } });
        QVERIFY_RESULT(r);
        const auto& p = r->program;
        QCOMPARE(p.executionPlan.size(), std::size_t(1));
        const auto& m = p.executionPlan[0];
        QCOMPARE(m.name, std::string("forward"));
        // docs/emission.md, Worked example / add.pte: inputs at 32 and 16, the out at 0, alpha Int 1.
        QCOMPARE(
            describeValues(m), Strings({ "Tensor f32 [1] @32", "Tensor f32 [1] @16", "Tensor f32 [1] @0", "Int 1" }));
        QCOMPARE(m.inputs, std::vector<std::int32_t>({ 0, 1 }));
        QCOMPARE(m.outputs, std::vector<std::int32_t>({ 2 }));
        QCOMPARE(describeInstructions(m), Strings({ "aten::add.out [0,1,3,2,2]" }));
        QCOMPARE(m.nonConstBufferSizes, std::vector<std::int64_t>({ 0, 48 }));
        QCOMPARE(m.delegates.size(), std::size_t(0));
        QCOMPARE(p.constantBuffer.size(), std::size_t(1));
        QVERIFY(p.constantBuffer[0].storage.empty());
        QVERIFY(m.chains[0].inputs.empty() && m.chains[0].outputs.empty());
        QVERIFY(!m.chains[0].stacktrace);
        QVERIFY(m.containerMetaType);
        QCOMPARE(m.containerMetaType->encodedOutStr,
            std::string(R"([1, {"type": null, "context": null, "children_spec": []}])"));
        QCOMPARE(r->debugHandleMap.at("forward").at(0), std::vector<std::int64_t>({ 1 }));
        QVERIFY(r->mutableData.empty());
        const auto& info = r->methods.at("forward");
        QCOMPARE(info.memoryPlan.size(), std::size_t(3));
        QCOMPARE(info.memoryPlan[0].name, std::string("x"));
        QCOMPARE(info.memoryPlan[0].offset, std::uint64_t(32));
        QCOMPARE(info.memoryPlan[2].name, std::string("add"));
        QCOMPARE(info.valueNames.at(2), std::string("add"));
        QCOMPARE(info.kernelCoverage, (std::vector<std::pair<std::string, bool>> { { "aten::add.out", true } }));
        QCOMPARE(debugMapsJson(*r),
            std::string("{\n  \"debug_handle_map\": {\n    \"forward\": {\n      \"0\": 1\n    }\n  },\n"
                        "  \"delegate_map\": {\n    \"forward\": {}\n  },\n"
                        "  \"instruction_id_to_num_outs_map\": {\n    \"forward\": {}\n  }\n}"));
        checkRoundTrip(*r, "add");
    }

    void emitsLinearDecomposed()
    {
        auto ep = Builder()
                      .lifted(InputKind::Parameter, "p_weight", "linear.weight", meta(ScalarType::Float, { 4, 3 }),
                          floats({ 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12 }))
                      .lifted(InputKind::Parameter, "p_bias", "linear.bias", meta(ScalarType::Float, { 4 }),
                          floats({ 1, 2, 3, 4 }))
                      .input("x", meta(ScalarType::Float, { 2, 3 }))
                      .node(op("linear", "aten", "linear", "",
                                { na("input", Argument::tensor("x")), na("weight", Argument::tensor("p_weight")),
                                    na("bias", Argument::tensor("p_bias")) },
                                { "linear" }, 1),
                          { { "linear", meta(ScalarType::Float, { 2, 4 }) } })
                      .output(OutputKind::UserOutput, "linear")
                      .done();
        auto r = emitProgram({ { "forward", ep } });
        QVERIFY_RESULT(r);
        const auto& m = r->program.executionPlan.at(0);
        QCOMPARE(describeValues(m),
            Strings({ "Tensor f32 [4,3] data 1", "Tensor f32 [4] data 2", "Tensor f32 [2,3] @80", "Tensor f32 [3,4] @0",
                "Int 1", "Int 0", "IntList [4,5]", "Tensor f32 [2,4] @48", "Int 1", "Int 1" }));
        QCOMPARE(describeInstructions(m),
            Strings({ "aten::permute_copy.out [0,6,3,3]", "aten::addmm.out [1,2,3,8,9,7,7]" }));
        QCOMPARE(m.inputs, std::vector<std::int32_t>({ 2 }));
        QCOMPARE(m.outputs, std::vector<std::int32_t>({ 7 }));
        QCOMPARE(m.nonConstBufferSizes, std::vector<std::int64_t>({ 0, 112 }));
        QCOMPARE(r->program.constantBuffer.size(), std::size_t(3));
        QCOMPARE(r->program.constantBuffer[1].storage.size(), std::size_t(48));
        QCOMPARE(r->program.constantBuffer[2].storage.size(), std::size_t(16));
        // Both instructions carry the linear node's handle.
        QCOMPARE(r->debugHandleMap.at("forward").size(), std::size_t(2));
        QCOMPARE(r->debugHandleMap.at("forward").at(1), std::vector<std::int64_t>({ 1 }));
        checkRoundTrip(*r, "linear");
    }

    void emitsBufferMutationWithWriteBack()
    {
        auto ep =
            Builder()
                .lifted(InputKind::Buffer, "b_count", "count", meta(ScalarType::Float, { 1 }), floats({ 5 }))
                .input("x", meta(ScalarType::Float, { 1 }))
                .node(op("add", "aten", "add", "Tensor",
                          { na("self", Argument::tensor("b_count")), na("other", Argument::tensor("x")) }, { "add" }),
                    { { "add", meta(ScalarType::Float, { 1 }) } })
                .node(op("mul", "aten", "mul", "Scalar",
                          { na("self", Argument::tensor("x")), na("other", floatArg(2.0)) }, { "mul" }),
                    { { "mul", meta(ScalarType::Float, { 1 }) } })
                .output(OutputKind::BufferMutation, "add", "count")
                .output(OutputKind::UserOutput, "mul")
                .done();
        auto r = emitProgram({ { "forward", ep } });
        QVERIFY_RESULT(r);
        const auto& m = r->program.executionPlan.at(0);
        QCOMPARE(describeValues(m),
            Strings({ "Tensor f32 [1] @48", "Tensor f32 [1] @32", "Tensor f32 [1] @16", "Int 1", "Tensor f32 [1] @0",
                "Double 2", "Bool false" }));
        QCOMPARE(describeInstructions(m),
            Strings({ "aten::add.out [0,1,3,2,2]", "aten::mul.Scalar_out [1,5,4,4]", "aten::copy_ [0,2,6,0]" }));
        QCOMPARE(m.operators.at(2).overload, std::string(""));
        QCOMPARE(m.inputs, std::vector<std::int32_t>({ 1 }));
        QCOMPARE(m.outputs, std::vector<std::int32_t>({ 4 }));
        QCOMPARE(m.nonConstBufferSizes, std::vector<std::int64_t>({ 0, 64 }));
        const auto& info = r->methods.at("forward");
        QCOMPARE(info.droppedOutputs.size(), std::size_t(1));
        QCOMPARE(info.droppedOutputs[0].first, std::string("add"));
        QCOMPARE(
            std::string(info.droppedOutputs[0].second), std::string(emissionDropReason(OutputKind::BufferMutation)));
        QVERIFY(emissionDropReason(OutputKind::UserOutput) == nullptr);
        // The buffer lives for the whole method: planned from 0 to the last instruction.
        QCOMPARE(info.memoryPlan[0].name, std::string("b_count"));
        QCOMPARE(info.memoryPlan[0].firstInstruction, 0);
        QCOMPARE(info.memoryPlan[0].lastInstruction, 2);
        QCOMPARE(r->program.constantBuffer.size(), std::size_t(1)); // the buffer is not a constant
        QCOMPARE(r->warnings.size(), std::size_t(1)); // initial state not kept
        // The dump has no debug handles: its operator nodes are numbered 1, 2 as to_edge would number them;
        // the write-back copy comes from no node and gets none.
        const auto& dbg = r->debugHandleMap.at("forward");
        QCOMPARE(dbg.size(), std::size_t(2));
        QCOMPARE(dbg.at(0), std::vector<std::int64_t>({ 1 }));
        QCOMPARE(dbg.at(1), std::vector<std::int64_t>({ 2 }));
        EmitOptions keepAsIs;
        keepAsIs.generateDebugHandles = false;
        const auto plain = emitProgram({ { "forward", ep } }, keepAsIs);
        QVERIFY_RESULT(plain);
        QVERIFY(plain->debugHandleMap.at("forward").empty());
        checkRoundTrip(*r, "buffer");
    }

    void emitsTrainingMetadata()
    {
        auto ep = Builder()
                      .lifted(InputKind::Parameter, "p_w", "w", meta(ScalarType::Float, { 2 }, true), floats({ 3, 4 }))
                      .input("x", meta(ScalarType::Float, { 2 }))
                      .node(op("mul", "aten", "mul", "Tensor",
                                { na("self", Argument::tensor("x")), na("other", Argument::tensor("p_w")) }, { "mul" }),
                          { { "mul", meta(ScalarType::Float, { 2 }, true) } })
                      .node(op("sum", "aten", "sum", "", { na("self", Argument::tensor("mul")) }, { "loss" }),
                          { { "loss", meta(ScalarType::Float, {}, true) } })
                      .node(op("clone", "aten", "clone", "", { na("self", Argument::tensor("x")) }, { "grad_w" }),
                          { { "grad_w", meta(ScalarType::Float, { 2 }) } })
                      .output(OutputKind::LossOutput, "loss")
                      .output(OutputKind::GradientToParameter, "grad_w", "w")
                      .done();
        auto r = emitProgram({ { "forward", ep } });
        QVERIFY_RESULT(r);
        const auto& p = r->program;
        QCOMPARE(p.executionPlan.size(), std::size_t(4));
        const auto& m = p.executionPlan[0];
        QCOMPARE(describeValues(m),
            Strings({ "Tensor f32 [2] @48 data 1 grad", "Tensor f32 [2] @32", "Tensor f32 [2] @0 grad",
                "Tensor f32 [] @16 grad", "Null", "Bool false", "Null", "Tensor f32 [2] @0", "Bool false", "Int 0",
                "IntList [9]" }));
        // clone -> dim_order_ops::_clone_dim_order(self, non_blocking, dim_order [0]), as the edge dialect has it
        QCOMPARE(describeInstructions(m),
            Strings({ "aten::mul.out [1,0,2,2]", "aten::sum.IntList_out [2,4,5,6,3,3]",
                "dim_order_ops::_clone_dim_order.out [1,8,10,7,7]" }));
        QCOMPARE(m.outputs, std::vector<std::int32_t>({ 3, 7, 0 }));
        QCOMPARE(p.executionPlan[1].name, std::string("__et_training_gradients_index_forward"));
        QCOMPARE(describeValues(p.executionPlan[1]), Strings({ "Int 1" }));
        QCOMPARE(p.executionPlan[2].name, std::string("__et_training_fqn_forward"));
        QCOMPARE(describeValues(p.executionPlan[2]), Strings({ "String w" }));
        QCOMPARE(p.executionPlan[2].containerMetaType->encodedOutStr,
            std::string(
                R"([1, {"type": "builtins.list", "context": "null", "children_spec": [{"type": null, "context": null, "children_spec": []}]}])"));
        QCOMPARE(p.executionPlan[3].name, std::string("__et_training_parameters_index_forward"));
        QCOMPARE(describeValues(p.executionPlan[3]), Strings({ "Int 2" }));
        QCOMPARE(p.executionPlan[3].nonConstBufferSizes, std::vector<std::int64_t>({ 0 }));
        QCOMPARE(p.executionPlan[3].containerMetaType->encodedInpStr, std::string());
        QCOMPARE(r->mutableData.size(), std::size_t(2));
        QCOMPARE(r->mutableData[1].size(), std::size_t(8));
        QCOMPARE(r->methods.at("forward").trainingGradientsIndex, std::int64_t(1));
        checkRoundTrip(*r, "training");
    }

    void emitsPrimGetters()
    {
        EmitOptions o;
        o.primGetters["get_scale"] = EValue { Double { 2.5 }, 4 };
        Tensor t;
        t.scalarType = ScalarType::Long;
        t.sizes = { 3 };
        o.primGetters["get_tensor"] = EValue { t, 5 };
        std::vector<std::uint8_t> bytes(24, 0);
        bytes[0] = 7;
        o.primGetterTensorData["get_tensor"] = Bytes::fromVector(bytes);
        o.primGetters["get_name"] = EValue { String { "tiny" }, 6 };
        auto r = emitProgram({ { "forward", addProgram() } }, o);
        QVERIFY_RESULT(r);
        const auto& p = r->program;
        QCOMPARE(p.executionPlan.size(), std::size_t(4));
        QCOMPARE(p.executionPlan[1].name, std::string("get_name"));
        QCOMPARE(describeValues(p.executionPlan[1]), Strings({ "String tiny" }));
        QCOMPARE(p.executionPlan[2].name, std::string("get_scale"));
        QCOMPARE(describeValues(p.executionPlan[2]), Strings({ "Double 2.5" }));
        QCOMPARE(p.executionPlan[3].name, std::string("get_tensor"));
        QCOMPARE(describeValues(p.executionPlan[3]), Strings({ "Tensor i64 [3] data 1" }));
        QCOMPARE(p.executionPlan[3].outputs, std::vector<std::int32_t>({ 0 }));
        QVERIFY(p.executionPlan[3].inputs.empty());
        QCOMPARE(p.executionPlan[3].chains.size(), std::size_t(1));
        QVERIFY(p.constantBuffer.at(1).storage.contentEquals(Bytes::fromVector(bytes)));
        checkRoundTrip(*r, "getters");

        EmitOptions bad;
        bad.primGetters["get_list"] = EValue { TensorList {}, 10 };
        auto e = emitProgram({ { "forward", addProgram() } }, bad);
        QVERIFY_ERROR(e, ErrorCode::Unsupported, "get_list");
    }

    void emitsConstantMethodAsGetter()
    {
        auto ep = std::make_shared<ExportedProgram>();
        Argument v;
        v.kind = ArgKind::Int;
        v.ints = { 128 };
        ep->graph.outputs = { v };
        OutputSpec os;
        os.arg = v;
        ep->signature.outputSpecs = { os };
        auto r = emitProgram({ { "forward", addProgram() }, { "get_scalar", ep } });
        QVERIFY_RESULT(r);
        const auto& p = r->program.executionPlan;
        QCOMPARE(p.size(), std::size_t(2));
        QCOMPARE(p[1].name, std::string("get_scalar"));
        QCOMPARE(describeValues(p[1]), Strings({ "Int 128" }));
        QCOMPARE(p[1].outputs, std::vector<std::int32_t>({ 0 }));
        QVERIFY(p[1].inputs.empty());
        QCOMPARE(p[1].nonConstBufferSizes, std::vector<std::int64_t>({ 0 }));
        QCOMPARE(p[1].containerMetaType->encodedInpStr, std::string());
        checkRoundTrip(*r, "constmethod");
    }

    void emitsTwoMethodsSortedWithSharedConstants()
    {
        auto withConst = [](const std::string& fqn) {
            return Builder()
                .lifted(InputKind::TensorConstant, "c", fqn, meta(ScalarType::Float, {}), floats({ 1 }))
                .input("x", meta(ScalarType::Float, { 3 }))
                .node(op("add", "aten", "add", "Tensor",
                          { na("self", Argument::tensor("x")), na("other", Argument::tensor("c")) }, { "add" }),
                    { { "add", meta(ScalarType::Float, { 3 }) } })
                .output(OutputKind::UserOutput, "add")
                .done();
        };
        auto r = emitProgram({ { "forward", withConst("c0") }, { "add_one", withConst("c1") } });
        QVERIFY_RESULT(r);
        const auto& p = r->program;
        QCOMPARE(p.executionPlan.size(), std::size_t(2));
        QCOMPARE(p.executionPlan[0].name, std::string("add_one"));
        QCOMPARE(p.executionPlan[1].name, std::string("forward"));
        // docs/emission.md, Worked example (Arduino AddModel): constant first, input at 16, out at 0.
        for (const auto& m : p.executionPlan) {
            QCOMPARE(describeValues(m),
                Strings({ "Tensor f32 [] data 1", "Tensor f32 [3] @16", "Tensor f32 [3] @0", "Int 1" }));
            QCOMPARE(describeInstructions(m), Strings({ "aten::add.out [1,0,3,2,2]" }));
        }
        QCOMPARE(p.constantBuffer.size(), std::size_t(2)); // deduplicated by content across methods
        checkRoundTrip(*r, "twomethods");
    }

    void rejectsBadMethodMaps()
    {
        auto r = emitProgram({});
        QVERIFY(!r);
        QCOMPARE(r.error().code, ErrorCode::InvalidInput);
        r = emitProgram({ { "forward", addProgram() }, { "other", nullptr }, { "forward", addProgram() } });
        QVERIFY_ERROR(r, ErrorCode::InvalidInput, "other", "forward");
    }

    void emitsDelegateWithMaps()
    {
        auto original = Builder()
                            .input("a", meta(ScalarType::Float, { 2 }))
                            .node(op("relu", "aten", "relu", "", { na("self", Argument::tensor("a")) }, { "r" }, 1),
                                { { "r", meta(ScalarType::Float, { 2 }) } })
                            .node(op("neg", "aten", "neg", "", { na("self", Argument::tensor("r")) }, { "n" }, 2),
                                { { "n", meta(ScalarType::Float, { 2 }) } })
                            .output(OutputKind::UserOutput, "n")
                            .done();
        auto lowered = std::make_shared<LoweredModule>();
        lowered->name = "lowered_module_0";
        // A made-up backend: the bytes are no payload any real backend accepts, and emission does not look inside.
        lowered->backendId = "ExampleBackend";
        lowered->processedBytes = Bytes::copyOf("delegate-blob");
        lowered->compileSpecs = { CompileSpec { "key", Bytes::copyOf("v") } };
        lowered->originalModule = original;
        lowered->delegateDebugIdentifierMap = std::map<std::string, std::vector<std::int64_t>> { { "0", { 1, 2 } } };
        Builder b;
        b.input("x", meta(ScalarType::Float, { 2 }));
        Node call;
        call.name = "executorch_call_delegate";
        call.setTarget("torch.ops.higher_order.executorch_call_delegate");
        Argument s;
        s.kind = ArgKind::String;
        s.strings = { "{}" };
        call.inputs = { na("lowered_module_0", s), na("delegate_arg_0", Argument::tensor("x")) };
        call.outputs = { Argument::tensor("d") };
        b.node(call, { { "d", meta(ScalarType::Float, { 2 }) } });
        b.node(op("add", "aten", "add", "Tensor",
                   { na("self", Argument::tensor("d")), na("other", Argument::tensor("d")) }, { "add" }, 3),
            { { "add", meta(ScalarType::Float, { 2 }) } });
        b.output(OutputKind::UserOutput, "add");
        b.ep->loweredModules["lowered_module_0"] = lowered;
        auto r = emitProgram({ { "forward", b.done() }, { "second", b.done() } });
        QVERIFY_RESULT(r);
        const auto& m = r->program.executionPlan.at(0);
        // x dies at the delegate call, so the add's out reuses its memory.
        QCOMPARE(
            describeValues(m), Strings({ "Tensor f32 [2] @0", "Tensor f32 [2] @16", "Tensor f32 [2] @0", "Int 1" }));
        QCOMPARE(m.nonConstBufferSizes, std::vector<std::int64_t>({ 0, 32 }));
        QCOMPARE(describeInstructions(m), Strings({ "delegate 0 [0,1]", "aten::add.out [1,1,3,2,2]" }));
        QCOMPARE(m.delegates.size(), std::size_t(1));
        QCOMPARE(m.delegates[0].id, std::string("ExampleBackend"));
        QCOMPARE(m.delegates[0].processed.location, DataLocation::Inline);
        QCOMPARE(m.delegates[0].processed.index, std::uint32_t(0));
        QCOMPARE(m.delegates[0].compileSpecs.at(0).key, std::string("key"));
        QCOMPARE(r->program.backendDelegateData.size(), std::size_t(1)); // both methods share the blob
        QCOMPARE(r->debugHandleMap.at("forward").at(0), std::vector<std::int64_t>({ 1, 2 }));
        QCOMPARE(r->debugHandleMap.at("forward").at(1), std::vector<std::int64_t>({ 3 }));
        QCOMPARE(r->instructionIdToNumOutsMap.at("forward").at(0), std::int64_t(1));
        QCOMPARE(r->methodToDelegateDebugIdMap.at("forward").at(0).name, std::string("ExampleBackend"));
        QCOMPARE(
            r->methodToDelegateDebugIdMap.at("forward").at(0).delegateMap.at("0"), std::vector<std::int64_t>({ 1, 2 }));
        QCOMPARE(r->methods.at("forward").instructionNodes.at(0), Strings({ "relu", "neg" }));
        const auto json = debugMapsJson(*r);
        QVERIFY(json.find("\"0\": [\n        1,\n        2\n      ],\n      \"1\": 3") != std::string::npos);
        QVERIFY(json.find("\"name\": \"ExampleBackend\"") != std::string::npos);
        checkRoundTrip(*r, "delegate");

        // Without an identifier map of its own, the ETRecord's entry is carried over.
        lowered->delegateDebugIdentifierMap.reset();
        EmitOptions o;
        o.etrecordDelegateMap["forward"][0] = DelegateMapEntry { "ExampleBackend", { { "7", { 1 } } } };
        r = emitProgram({ { "forward", b.done() } }, o);
        QVERIFY_RESULT(r);
        QCOMPARE(
            r->methodToDelegateDebugIdMap.at("forward").at(0).delegateMap.at("7"), std::vector<std::int64_t>({ 1 }));

        // Entries pair with delegate calls by order even when the recorded instruction ids differ...
        EmitOptions shifted;
        shifted.etrecordDelegateMap["forward"][5] = DelegateMapEntry { "ExampleBackend", { { "9", { 2 } } } };
        r = emitProgram({ { "forward", b.done() } }, shifted);
        QVERIFY_RESULT(r);
        QCOMPARE(
            r->methodToDelegateDebugIdMap.at("forward").at(0).delegateMap.at("9"), std::vector<std::int64_t>({ 2 }));
        // ...but never across backends.
        EmitOptions other;
        other.etrecordDelegateMap["forward"][0] = DelegateMapEntry { "QnnBackend", { { "9", { 2 } } } };
        r = emitProgram({ { "forward", b.done() } }, other);
        QVERIFY_RESULT(r);
        QVERIFY(r->methodToDelegateDebugIdMap.at("forward").at(0).delegateMap.empty());
    }

    void emitsCond()
    {
        auto branch = [](const char* opName, const char* overload) {
            auto g = std::make_shared<Graph>();
            g->inputs = { Argument::tensor("bx") };
            Node n = op(std::string(opName) + "_b", "aten", opName, overload,
                { na("self", Argument::tensor("bx")), na("other", Argument::tensor("bx")) },
                { std::string(opName) + "_r" }, 9);
            g->nodes.push_back(n);
            g->tensorValues[std::string(opName) + "_r"] = meta(ScalarType::Float, { 2 });
            g->outputs = { Argument::tensor(std::string(opName) + "_r") };
            return g;
        };
        Builder b;
        b.input("p", meta(ScalarType::Bool, { 1 }));
        b.input("x", meta(ScalarType::Float, { 2 }));
        Node c;
        c.name = "cond";
        c.setTarget("torch.ops.higher_order.cond");
        Argument tg;
        tg.kind = ArgKind::Graph;
        tg.strings = { "true_graph_0" };
        tg.graph = branch("add", "Tensor");
        Argument fg = tg;
        fg.strings = { "false_graph_0" };
        fg.graph = branch("mul", "Tensor");
        c.inputs = { na("", Argument::tensor("p")), na("", tg), na("", fg), na("", tensorsArg({ "x" })) };
        c.outputs = { Argument::tensor("out") };
        b.node(c, { { "out", meta(ScalarType::Float, { 2 }) } });
        b.output(OutputKind::UserOutput, "out");
        auto r = emitProgram({ { "forward", b.done() } });
        QVERIFY_RESULT(r);
        const auto& m = r->program.executionPlan.at(0);
        QCOMPARE(describeInstructions(m),
            Strings({ "jumpfalse 0 -> 4", "aten::add.out [1,1,4,3,3]", "move 3 -> 2", "jumpfalse 6 -> 6",
                "aten::mul.out [1,1,5,5]", "move 5 -> 2" }));
        QCOMPARE(describeValues(m),
            Strings({ "Tensor bool [1] @0", "Tensor f32 [2] @32", "Tensor f32 [2] @16", "Tensor f32 [2] @0", "Int 1",
                "Tensor f32 [2] @0", "Bool false" }));
        QCOMPARE(m.outputs, std::vector<std::int32_t>({ 2 }));
        QCOMPARE(m.nonConstBufferSizes, std::vector<std::int64_t>({ 0, 48 }));
        QVERIFY(r->debugHandleMap.at("forward").empty()); // sub-emitter maps are dropped, like ExecuTorch
        checkRoundTrip(*r, "cond");
    }

    void emitsMapAsLoop()
    {
        // map.json: xn = -x; map(row -> row * y + row, xn); -result. x [3,2], y [2].
        const auto ep = loadDump("map.json");
        QVERIFY(ep);
        auto r = emitProgram({ { "forward", ep } });
        QVERIFY_RESULT(r);
        const auto& m = r->program.executionPlan.at(0);
        // docs/emission.md, Control flow: iter and n before sym_size's dim; the slice is created with select_copy (the
        // body's first placeholder); the body's MoveCall into the binding is dropped; done = Bool(False) before eq.
        QCOMPARE(describeInstructions(m),
            Strings({ "aten::neg.out [0,2,2]", "aten::sym_size.int [2,6,5]", "aten::select_copy.int_out [2,7,4,8,8]",
                "aten::mul.out [8,1,9,9]", "aten::add.out [9,8,11,10,10]",
                "executorch_prim::et_copy_index.tensor [3,10,4]", "executorch_prim::add.Scalar [4,12,4]",
                "executorch_prim::eq.Scalar [4,5,13]", "jumpfalse 13 -> 2", "executorch_prim::sub.Scalar [4,5,4]",
                "aten::neg.out [3,14,14]" }));
        // The binding output is DYNAMIC_BOUND at its upper bound [3,2]; the mapped xn and the operand y stay
        // allocated until the backward jump (8), so no body tensor shares their memory.
        QCOMPARE(describeValues(m),
            Strings({ "Tensor f32 [3,2] @32", "Tensor f32 [2] @112", "Tensor f32 [3,2] @0", "Tensor f32 [3,2] @32 dyn",
                "Int 0", "Int 0", "Int 0", "Int 0", "Tensor f32 [2] @96", "Tensor f32 [2] @80", "Tensor f32 [2] @64",
                "Int 1", "Int 1", "Bool false", "Tensor f32 [3,2] @0" }));
        QCOMPARE(m.inputs, std::vector<std::int32_t>({ 0, 1 }));
        QCOMPARE(m.outputs, std::vector<std::int32_t>({ 14 }));
        QCOMPARE(m.nonConstBufferSizes, std::vector<std::int64_t>({ 0, 128 }));
        QCOMPARE(m.operators.at(5).name, std::string("executorch_prim::et_copy_index"));
        QCOMPARE(m.operators.at(5).overload, std::string("tensor"));
        const auto& info = r->methods.at("forward");
        QCOMPARE(planned(info, "neg").firstInstruction, 0);
        QCOMPARE(planned(info, "neg").lastInstruction, 8);
        QCOMPARE(planned(info, "y").lastInstruction, 8);
        QCOMPARE(planned(info, "getitem").firstInstruction, 1);
        QCOMPARE(planned(info, "getitem").lastInstruction, 10);
        QCOMPARE(planned(info, "xs_1").firstInstruction, 2); // the slice lives within one iteration
        QCOMPARE(planned(info, "xs_1").lastInstruction, 4);
        checkPlanDisjoint(info);
        QCOMPARE(info.valueNames.at(4), std::string("map_impl_iter"));
        for (const auto& [key, portable] : info.kernelCoverage)
            QVERIFY2(portable, key.c_str());
        QCOMPARE(info.kernelCoverage.size(), std::size_t(9));
        // Handles of the top-level operator nodes (generated 1..3: neg, map_impl, neg_1); the loop plumbing
        // and the body (sub-emitter) instructions get none.
        const auto& dbg = r->debugHandleMap.at("forward");
        QCOMPARE(dbg.size(), std::size_t(2));
        QCOMPARE(dbg.at(0), std::vector<std::int64_t>({ 1 }));
        QCOMPARE(dbg.at(10), std::vector<std::int64_t>({ 3 }));
        checkRoundTrip(*r, "map");
        // The torch 2.1 form map_impl(f, num_mapped, *mapped, *operands) emits the same program.
        auto legacy = std::make_shared<ExportedProgram>(*ep);
        auto& node = legacy->graph.nodes[1];
        node.inputs = { node.inputs[0], na("", intArg(1)), na("", Argument::tensor("neg")),
            na("", Argument::tensor("y")) };
        auto l = emitProgram({ { "forward", legacy } });
        QVERIFY_RESULT(l);
        QCOMPARE(describeInstructions(l->program.executionPlan.at(0)), describeInstructions(m));
        QCOMPARE(describeValues(l->program.executionPlan.at(0)), describeValues(m));
    }

    void emitsNestedMaps()
    {
        // map(map(neg)) over x [2,2,2]: the inner loop sits inside the outer body; jumps are absolute.
        auto mapNode = [](const std::string& name, std::shared_ptr<Graph> body, const std::string& mapped,
                           const std::string& out) {
            Node m;
            m.name = name;
            m.setTarget("torch.ops.higher_order.map_impl");
            Argument g;
            g.kind = ArgKind::Graph;
            g.strings = { name + "_body" };
            g.graph = std::move(body);
            m.inputs = { na("", g), na("", tensorsArg({ mapped })), na("", tensorsArg({})) };
            m.outputs = { tensorsArg({ out }) };
            return m;
        };
        auto inner = std::make_shared<Graph>();
        inner->inputs = { Argument::tensor("xi") };
        inner->nodes = { op("neg", "aten", "neg", "", { na("self", Argument::tensor("xi")) }, { "ni" }) };
        inner->tensorValues = { { "xi", meta(ScalarType::Float, { 2 }) }, { "ni", meta(ScalarType::Float, { 2 }) } };
        inner->outputs = { Argument::tensor("ni") };
        auto outer = std::make_shared<Graph>();
        outer->inputs = { Argument::tensor("xo") };
        outer->nodes = { mapNode("map_i", inner, "xo", "io") };
        outer->tensorValues = { { "xo", meta(ScalarType::Float, { 2, 2 }) },
            { "io", meta(ScalarType::Float, { 2, 2 }) } };
        outer->outputs = { Argument::tensor("io") };
        Builder b;
        b.input("x", meta(ScalarType::Float, { 2, 2, 2 }));
        b.node(mapNode("map_o", outer, "x", "out"), { { "out", meta(ScalarType::Float, { 2, 2, 2 }) } });
        b.output(OutputKind::UserOutput, "out");
        auto r = emitProgram({ { "forward", b.done() } });
        QVERIFY_RESULT(r);
        const auto& m = r->program.executionPlan.at(0);
        QCOMPARE(describeInstructions(m),
            Strings({ "aten::sym_size.int [0,4,3]", "aten::select_copy.int_out [0,5,2,6,6]",
                "aten::sym_size.int [6,10,9]", "aten::select_copy.int_out [6,11,8,12,12]", "aten::neg.out [12,13,13]",
                "executorch_prim::et_copy_index.tensor [7,13,8]", "executorch_prim::add.Scalar [8,14,8]",
                "executorch_prim::eq.Scalar [8,9,15]", "jumpfalse 15 -> 3", "executorch_prim::sub.Scalar [8,9,8]",
                "executorch_prim::et_copy_index.tensor [1,7,2]", "executorch_prim::add.Scalar [2,16,2]",
                "executorch_prim::eq.Scalar [2,3,17]", "jumpfalse 17 -> 1", "executorch_prim::sub.Scalar [2,3,2]" }));
        QCOMPARE(describeValues(m),
            Strings({ "Tensor f32 [2,2,2] @32", "Tensor f32 [2,2,2] @0 dyn", "Int 0", "Int 0", "Int 0", "Int 0",
                "Tensor f32 [2,2] @112", "Tensor f32 [2,2] @96 dyn", "Int 0", "Int 0", "Int 0", "Int 0",
                "Tensor f32 [2] @80", "Tensor f32 [2] @64", "Int 1", "Bool false", "Int 1", "Bool false" }));
        QCOMPARE(m.nonConstBufferSizes, std::vector<std::int64_t>({ 0, 128 }));
        const auto& info = r->methods.at("forward");
        // The outer slice is read at every inner loop head: alive until the inner backward jump (8).
        QCOMPARE(planned(info, "xo").firstInstruction, 1);
        QCOMPARE(planned(info, "xo").lastInstruction, 8);
        QCOMPARE(planned(info, "x").lastInstruction, 13);
        checkPlanDisjoint(info);
        QVERIFY(r->debugHandleMap.at("forward").empty());
        checkRoundTrip(*r, "nestedmap");
        auto run = runForward(*r, "nestedmap", { HostTensor::floats({ 2, 2, 2 }, { 1, 2, 3, 4, 5, 6, 7, 8 }) });
        QVERIFY_RESULT(run);
        QCOMPARE(run->outputs.at(0).sizes, (std::vector<std::int64_t> { 2, 2, 2 }));
        QCOMPARE(run->outputs.at(0).values, (std::vector<double> { -1, -2, -3, -4, -5, -6, -7, -8 }));
        // 0, then per outer row: 1, 2, 2 x [3..8], 9..13; then 14.
        QCOMPARE(run->executed, std::size_t(1 + 2 * (2 + 2 * 6 + 5) + 1));
    }

    void runsMapScanAndViewsOnTheReferenceInterpreter()
    {
        // map.json: -(row * y + row) of -x, row by row. Run twice: the counter is reset by the trailing sub.
        auto map = emitProgram({ { "forward", loadDump("map.json") } });
        QVERIFY_RESULT(map);
        auto r = runForward(*map, "map",
            { HostTensor::floats({ 3, 2 }, { 1, 2, 3, 4, 5, 6 }), HostTensor::floats({ 2 }, { 10, 100 }) }, 2);
        QVERIFY_RESULT(r);
        QCOMPARE(r->outputs.size(), std::size_t(1));
        QCOMPARE(r->outputs[0].sizes, (std::vector<std::int64_t> { 3, 2 }));
        QCOMPARE(r->outputs[0].values, (std::vector<double> { 11, 202, 33, 404, 55, 606 }));
        QCOMPARE(r->executed, std::size_t(2 + 3 * 7 + 2)); // neg, sym_size, 3 x [select_copy..jump], sub, neg
        // scan.json: running sums of the rows of xs from init.
        auto scan = emitProgram({ { "forward", loadDump("scan.json") } });
        QVERIFY_RESULT(scan);
        r = runForward(*scan, "scan",
            { HostTensor::floats({ 2 }, { 1, 2 }), HostTensor::floats({ 4, 2 }, { 1, 2, 3, 4, 5, 6, 7, 8 }) }, 2);
        QVERIFY_RESULT(r);
        QCOMPARE(r->outputs.size(), std::size_t(2));
        QCOMPARE(r->outputs[0].values, (std::vector<double> { 17, 22 }));
        QCOMPARE(r->outputs[1].sizes, (std::vector<std::int64_t> { 4, 2 }));
        QCOMPARE(r->outputs[1].values, (std::vector<double> { 2, 4, 5, 8, 10, 14, 17, 22 }));
        QCOMPARE(r->executed, std::size_t(2 + 4 * 8 + 1));

        // view.json: -(x * x) through an elided memory.view.
        auto view = emitProgram({ { "forward", loadDump("view.json") } });
        QVERIFY_RESULT(view);
        r = runForward(*view, "view", { HostTensor::floats({ 2, 3 }, { 1, 2, 3, 4, 5, 6 }) });
        QVERIFY_RESULT(r);
        QCOMPARE(r->outputs[0].sizes, (std::vector<std::int64_t> { 6 }));
        QCOMPARE(r->outputs[0].values, (std::vector<double> { -1, -4, -9, -16, -25, -36 }));
    }

    void refusesBadLoops_data()
    {
        // Each row: a sound loop dump, damaged the way an exporter could get it wrong, and the phrases of
        // ExecuTorch's refusal the error must carry (the last names the node).
        QTest::addColumn<QString>("dump");
        QTest::addColumn<QString>("damage");
        QTest::addColumn<QStringList>("needles");
        QTest::addRow("map with two outputs")
            << "map.json"
            << "second output" << QStringList { "Multiple outputs are not supported. Got 2" };
        QTest::addRow("map with two mapped args")
            << "map.json"
            << "second mapped arg"
            << QStringList { "Emitting map with more than one mapped args is not supported. Got 2",
                   "'map_impl' (torch.ops.higher_order.map_impl)" };
        QTest::addRow("map body returning two")
            << "map.json"
            << "body returns two"
            << QStringList { "Map should return only one element", "torch.ops.higher_order.map_impl" };
        QTest::addRow("scan without xs") << "scan.json"
                                         << "no xs"
                                         << QStringList { "Scan requires at least one xs tensor",
                                                "'scan' (torch.ops.higher_order.scan)" };
        QTest::addRow("scan body returning one")
            << "scan.json"
            << "body returns one" << QStringList { "Scan combine_fn should output 2 carry/y values" };
    }

    void refusesBadLoops()
    {
        QFETCH(QString, dump);
        QFETCH(QString, damage);
        QFETCH(QStringList, needles);
        const auto loaded = loadDump(dump.toLatin1().constData());
        QVERIFY(loaded);
        auto ep = std::make_shared<ExportedProgram>(*loaded);
        // The loop node: map.json's second node (after a neg), scan.json's first.
        Node& loop = ep->graph.nodes[dump == QLatin1String("map.json") ? 1 : 0];
        auto body = std::make_shared<Graph>(*loop.inputs[0].arg.graph);
        if (damage == QLatin1String("second output")) {
            loop.outputs[0].names.push_back("getitem_1");
            ep->graph.tensorValues["getitem_1"] = ep->graph.tensorValues.at("getitem");
        } else if (damage == QLatin1String("second mapped arg")) {
            loop.inputs[1].arg.names.push_back("x");
        } else if (damage == QLatin1String("body returns two")) {
            body->outputs.push_back(body->outputs[0]);
        } else if (damage == QLatin1String("no xs")) {
            loop.inputs[2].arg.names.clear();
        } else if (damage == QLatin1String("body returns one")) {
            body->outputs.pop_back();
        } else {
            QFAIL("unknown damage");
        }
        loop.inputs[0].arg.graph = body;
        std::vector<std::string> phrases;
        for (const QString& n : needles)
            phrases.push_back(n.toStdString());
        QVERIFY_ERROR(emitProgram({ { "forward", ep } }), ErrorCode::Unsupported, phrases);
    }

    void emitsScanAsLoop()
    {
        // scan.json: carry = init; for each row of xs: carry = carry + row, y = clone(carry). init [2], xs [4,2].
        const auto ep = loadDump("scan.json");
        QVERIFY(ep);
        auto r = emitProgram({ { "forward", ep } });
        QVERIFY_RESULT(r);
        const auto& m = r->program.executionPlan.at(0);
        QCOMPARE(describeInstructions(m),
            Strings({ "aten::sym_size.int [1,6,5]", "aten::copy_ [2,0,7,2]", "aten::select_copy.int_out [1,8,4,9,9]",
                "aten::add.out [2,9,11,10,10]", "dim_order_ops::_clone_dim_order.out [10,13,15,12,12]",
                "aten::copy_ [2,10,16,2]", "executorch_prim::et_copy_index.tensor [3,12,4]",
                "executorch_prim::add.Scalar [4,17,4]", "executorch_prim::eq.Scalar [4,5,18]", "jumpfalse 18 -> 2",
                "executorch_prim::sub.Scalar [4,5,4]" }));
        // The carry keeps its static spec; the stacked ys is DYNAMIC_BOUND.
        QCOMPARE(describeValues(m),
            Strings({ "Tensor f32 [2] @64", "Tensor f32 [4,2] @32", "Tensor f32 [2] @96", "Tensor f32 [4,2] @0 dyn",
                "Int 0", "Int 0", "Int 0", "Bool false", "Int 0", "Tensor f32 [2] @64", "Tensor f32 [2] @80", "Int 1",
                "Tensor f32 [2] @64", "Bool false", "Int 0", "IntList [14]", "Bool false", "Int 1", "Bool false" }));
        QCOMPARE(m.inputs, std::vector<std::int32_t>({ 0, 1 }));
        QCOMPARE(m.outputs, std::vector<std::int32_t>({ 2, 3 }));
        QCOMPARE(m.nonConstBufferSizes, std::vector<std::int64_t>({ 0, 112 }));
        const auto& info = r->methods.at("forward");
        QCOMPARE(planned(info, "xs").lastInstruction, 9); // read at every loop head
        QCOMPARE(planned(info, "getitem").firstInstruction, 0);
        QCOMPARE(planned(info, "getitem").lastInstruction, 10);
        QCOMPARE(planned(info, "init").lastInstruction, 1);
        checkPlanDisjoint(info);
        for (const auto& [key, portable] : info.kernelCoverage)
            QVERIFY2(portable, key.c_str());
        QVERIFY(r->debugHandleMap.at("forward").empty());
        checkRoundTrip(*r, "scan");
    }

    void elidesStaticMemoryView()
    {
        // view.json: mul = x * x; view = memory.view(mul, [6]); neg(view). The view is a value sharing mul's
        // memory, without an instruction; mul stays allocated while the view is read (instruction 1), so neg's
        // out cannot reuse it.
        const auto ep = loadDump("view.json");
        QVERIFY(ep);
        QCOMPARE(ep->graph.nodes.at(1).targetKind, TargetKind::MemoryView);
        auto r = emitProgram({ { "forward", ep } });
        QVERIFY_RESULT(r);
        const auto& m = r->program.executionPlan.at(0);
        QCOMPARE(describeInstructions(m), Strings({ "aten::mul.out [0,0,1,1]", "aten::neg.out [2,3,3]" }));
        QCOMPARE(describeValues(m),
            Strings({ "Tensor f32 [2,3] @0", "Tensor f32 [2,3] @32", "Tensor f32 [6] @32", "Tensor f32 [6] @0" }));
        QCOMPARE(m.values[2].tensor()->dimOrder, std::vector<std::uint8_t>({ 0 }));
        QCOMPARE(m.nonConstBufferSizes, std::vector<std::int64_t>({ 0, 64 }));
        const auto& info = r->methods.at("forward");
        QCOMPARE(planned(info, "mul").lastInstruction, 1);
        QCOMPARE(planned(info, "view").offset, std::uint64_t(32));
        QVERIFY(planned(info, "view").view);
        QVERIFY(!planned(info, "mul").view);
        checkPlanDisjoint(info);
        QCOMPARE(r->debugHandleMap.at("forward").size(), std::size_t(2));
        checkRoundTrip(*r, "view");
    }

    void elidesConstantMemoryView()
    {
        Builder b;
        b.lifted(InputKind::TensorConstant, "c", "c", meta(ScalarType::Float, { 2, 3 }), floats({ 1, 2, 3, 4, 5, 6 }));
        b.input("x", meta(ScalarType::Float, { 6 }));
        Argument size;
        size.kind = ArgKind::Ints;
        size.ints = { 6 };
        b.node(viewNode("c", size, "cv"), { { "cv", meta(ScalarType::Float, { 6 }) } });
        b.node(op("add", "aten", "add", "Tensor",
                   { na("self", Argument::tensor("x")), na("other", Argument::tensor("cv")) }, { "add" }),
            { { "add", meta(ScalarType::Float, { 6 }) } });
        b.output(OutputKind::UserOutput, "add");
        auto r = emitProgram({ { "forward", b.done() } });
        QVERIFY_RESULT(r);
        const auto& m = r->program.executionPlan.at(0);
        // The view carries the constant's data_buffer_idx (same bytes) with its own sizes.
        QCOMPARE(describeValues(m),
            Strings({ "Tensor f32 [2,3] data 1", "Tensor f32 [6] @32", "Tensor f32 [6] data 1", "Tensor f32 [6] @0",
                "Int 1" }));
        QCOMPARE(describeInstructions(m), Strings({ "aten::add.out [1,2,4,3,3]" }));
        QCOMPARE(r->program.constantBuffer.size(), std::size_t(2));
        checkRoundTrip(*r, "constview");
        auto run = runForward(*r, "constview", { HostTensor::floats({ 6 }, { 10, 20, 30, 40, 50, 60 }) });
        QVERIFY_RESULT(run);
        QCOMPARE(run->outputs.at(0).values, (std::vector<double> { 11, 22, 33, 44, 55, 66 }));
    }

    void emitsEtViewForDynamicView()
    {
        auto xm = meta(ScalarType::Float, { 4, 3 });
        xm.sizes[0] = SymInt { std::nullopt, "s0", std::nullopt };
        Builder b;
        b.input("x", xm);
        b.ep->rangeConstraints["s0"] = RangeConstraint { 1, 4 };
        Node sz =
            op("sym_size", "aten", "sym_size", "int", { na("self", Argument::tensor("x")), na("dim", intArg(0)) }, {});
        Argument so;
        so.kind = ArgKind::SymInt;
        so.names = { "sym_size" };
        sz.outputs = { so };
        b.node(sz);
        b.node(op("mul", "aten", "mul", "Tensor",
                   { na("self", Argument::tensor("x")), na("other", Argument::tensor("x")) }, { "mul" }),
            { { "mul", xm } });
        Argument size;
        size.kind = ArgKind::SymInts;
        size.syms = { SymInt { std::nullopt, "sym_size", std::nullopt }, SymInt { 3, {}, {} } };
        b.node(viewNode("mul", size, "view"), { { "view", xm } });
        b.output(OutputKind::UserOutput, "view");
        auto r = emitProgram({ { "forward", b.done() } });
        QVERIFY_RESULT(r);
        const auto& m = r->program.executionPlan.at(0);
        // docs/emission.md, Views, allocation, free: a dynamic view is not elided: et_view [self, size, out]; out still
        // shares mul's memory.
        QCOMPARE(describeInstructions(m),
            Strings({ "aten::sym_size.int [0,1,2]", "aten::mul.out [0,0,3,3]",
                "executorch_prim::et_view.default [3,5,6]" }));
        QCOMPARE(describeValues(m),
            Strings({ "Tensor f32 [4,3] @48 dyn", "Int 0", "Int 0", "Tensor f32 [4,3] @0 dyn", "Int 3", "IntList [2,4]",
                "Tensor f32 [4,3] @0 dyn" }));
        QCOMPARE(m.operators.at(2).name, std::string("executorch_prim::et_view"));
        QCOMPARE(m.operators.at(2).overload, std::string("default"));
        QCOMPARE(m.nonConstBufferSizes, std::vector<std::int64_t>({ 0, 96 }));
        const auto& info = r->methods.at("forward");
        QCOMPARE(
            info.kernelCoverage.at(2), (std::pair<std::string, bool> { "executorch_prim::et_view.default", true }));
        QCOMPARE(planned(info, "mul").lastInstruction, 2);
        QVERIFY(planned(info, "view").view);
        checkPlanDisjoint(info);
        const auto& dbg = r->debugHandleMap.at("forward");
        QCOMPARE(dbg.size(), std::size_t(2)); // et_view gets no debug handle
        QVERIFY(!dbg.count(2));
        checkRoundTrip(*r, "etview");

        // A view larger than its base is refused.
        auto big = meta(ScalarType::Float, { 8, 3 });
        b.ep->graph.tensorValues["view"] = big;
        auto e = emitProgram({ { "forward", b.done() } });
        QVERIFY_ERROR(e, ErrorCode::InvalidInput, "does not fit its base");
    }

    void refusesWhileLoop()
    {
        Builder b;
        b.input("x", meta(ScalarType::Float, { 2 }));
        Node w;
        w.name = "while_loop";
        w.setTarget("torch.ops.higher_order.while_loop");
        w.outputs = { Argument::tensor("y") };
        b.node(w, { { "y", meta(ScalarType::Float, { 2 }) } });
        b.output(OutputKind::UserOutput, "y");
        auto r = emitProgram({ { "forward", b.done() } });
        QVERIFY_ERROR(r, ErrorCode::Unsupported, "while_loop", "torch.ops.higher_order.while_loop");
    }

    void refusesCustomClassInput()
    {
        // A TorchBind object lifted as an input: ExecuTorch's emitter refuses it, and so does ptelens.
        Builder b;
        b.input("x", meta(ScalarType::Float, { 2 }));
        Argument obj;
        obj.kind = ArgKind::CustomObj;
        obj.names = { "obj_0" };
        obj.strings = { "__torch__.torch.classes.demo.Foo" };
        b.ep->graph.inputs.insert(b.ep->graph.inputs.begin(), obj);
        InputSpec spec;
        spec.kind = InputKind::CustomObj;
        spec.arg = obj;
        spec.target = "foo";
        b.ep->signature.inputSpecs.insert(b.ep->signature.inputSpecs.begin(), spec);
        b.node(op("neg", "aten", "neg", "", { na("self", Argument::tensor("x")) }, { "neg" }),
             { { "neg", meta(ScalarType::Float, { 2 }) } })
            .output(OutputKind::UserOutput, "neg");
        auto r = emitProgram({ { "forward", b.done() } });
        QVERIFY_ERROR(r, ErrorCode::Unsupported, "Custom class 'foo' is not supported in EXIR");
    }

    void stripsEffectTokens()
    {
        // with_effects(token, aten.mul.Tensor, x, x) -> (token_out, y): the tokens go, the call stays (ExecuTorch
        // removes effect tokens before emission).
        Builder b;
        b.ep->graph.inputs.push_back(Argument::tensor("token"));
        b.ep->graph.tensorValues["token"] = meta(ScalarType::Float, { 0 });
        InputSpec token;
        token.kind = InputKind::Token;
        token.arg = Argument::tensor("token");
        b.ep->signature.inputSpecs.push_back(token);
        b.input("x", meta(ScalarType::Float, { 3 }));
        Node w;
        w.name = "with_effects";
        w.setTarget("torch.ops.higher_order.with_effects");
        Argument mulOp;
        mulOp.kind = ArgKind::Operator;
        mulOp.strings = { "torch.ops.aten.mul.Tensor" };
        w.inputs = { na("", Argument::tensor("token")), na("", mulOp), na("", Argument::tensor("x")),
            na("", Argument::tensor("x")) };
        w.outputs = { Argument::tensor("token_out"), Argument::tensor("y") };
        b.node(w, { { "token_out", meta(ScalarType::Float, { 0 }) }, { "y", meta(ScalarType::Float, { 3 }) } });
        b.output(OutputKind::Token, "token_out").output(OutputKind::UserOutput, "y");
        auto r = emitProgram({ { "forward", b.done() } });
        QVERIFY_RESULT(r);
        const auto& m = r->program.executionPlan.at(0);
        QCOMPARE(m.operators.size(), std::size_t(1));
        QCOMPARE(m.operators.at(0).qualifiedName(), std::string("aten::mul.out"));
        QCOMPARE(m.inputs.size(), std::size_t(1)); // x only: the token input is gone
        QCOMPARE(m.outputs.size(), std::size_t(1)); // y only: the token output is dropped
        QCOMPARE(m.chains.at(0).instructions.size(), std::size_t(1));
        checkRoundTrip(*r, "effects");
    }

    void warnsOnUnknownOperator()
    {
        auto ep = Builder()
                      .input("x", meta(ScalarType::Float, { 2 }))
                      .node(op("frob", "mylib", "frobnicate", "",
                                { na("self", Argument::tensor("x")), na("times", intArg(3)) }, { "frob" }),
                          { { "frob", meta(ScalarType::Float, { 2 }) } })
                      .output(OutputKind::UserOutput, "frob")
                      .done();
        auto r = emitProgram({ { "forward", ep } });
        QVERIFY_RESULT(r);
        const auto& m = r->program.executionPlan.at(0);
        QCOMPARE(describeInstructions(m), Strings({ "mylib::frobnicate [0,1,2]" }));
        QCOMPARE(describeValues(m), Strings({ "Tensor f32 [2] @16", "Int 3", "Tensor f32 [2] @0" }));
        QCOMPARE(r->warnings.size(), std::size_t(1));
        QVERIFY(r->warnings[0].message.find("frob") != std::string::npos);
        QVERIFY(r->warnings[0].message.find("mylib::frobnicate") != std::string::npos);
        QCOMPARE(r->methods.at("forward").kernelCoverage,
            (std::vector<std::pair<std::string, bool>> { { "mylib::frobnicate", false } }));
    }

    void reportsErrorsWithNodeAndTarget()
    {
        // A node using an undefined value.
        auto ep =
            Builder()
                .input("x", meta(ScalarType::Float, { 2 }))
                .node(op("add", "aten", "add", "Tensor",
                          { na("self", Argument::tensor("x")), na("other", Argument::tensor("ghost")) }, { "add" }),
                    { { "add", meta(ScalarType::Float, { 2 }) } })
                .output(OutputKind::UserOutput, "add")
                .done();
        auto r = emitProgram({ { "forward", ep } });
        QVERIFY_ERROR(r, ErrorCode::InvalidInput, "'add'", "torch.ops.aten.add.Tensor", "ghost");
        // A missing weight.
        auto ep2 =
            Builder()
                .lifted(InputKind::Parameter, "p_w", "fc.weight", meta(ScalarType::Float, { 2 }), {}, false)
                .input("x", meta(ScalarType::Float, { 2 }))
                .node(op("mul", "aten", "mul", "Tensor",
                          { na("self", Argument::tensor("x")), na("other", Argument::tensor("p_w")) }, { "mul" }),
                    { { "mul", meta(ScalarType::Float, { 2 }) } })
                .output(OutputKind::UserOutput, "mul")
                .done();
        r = emitProgram({ { "forward", ep2 } });
        QVERIFY_ERROR(r, ErrorCode::InvalidInput, "fc.weight");
        EmitOptions zero;
        zero.zeroFillMissingWeights = true;
        r = emitProgram({ { "forward", ep2 } }, zero);
        QVERIFY_RESULT(r);
        QCOMPARE(r->program.constantBuffer.at(1).storage.size(), std::size_t(8));
        // CUDA tensors are refused.
        auto m = meta(ScalarType::Float, { 2 });
        m.deviceType = "cuda";
        m.deviceIndex = 0;
        auto ep3 = Builder().input("x", m).output(OutputKind::UserOutput, "x").done();
        r = emitProgram({ { "forward", ep3 } });
        QVERIFY_ERROR(r, ErrorCode::Unsupported, "cuda:0");
    }

    void emitsStackTraces()
    {
        auto ep = std::const_pointer_cast<ExportedProgram>(addProgram());
        ep->graph.nodes[0].metadata["stack_trace"] =
            "  File \"/src/model.py\", line 12, in forward\n    return x + y\n";
        EmitOptions o;
        o.emitStacktrace = true;
        auto r = emitProgram({ { "forward", ep } }, o);
        QVERIFY_RESULT(r);
        const auto& chain = r->program.executionPlan[0].chains[0];
        QVERIFY(chain.stacktrace);
        QCOMPARE(chain.stacktrace->size(), std::size_t(1));
        const auto& f = chain.stacktrace->at(0).items.at(0);
        QCOMPARE(*f.filename, std::string("/src/model.py"));
        QCOMPARE(f.lineno, 12);
        QCOMPARE(*f.name, std::string("forward"));
        QCOMPARE(*f.context, std::string("return x + y"));
    }

    void emitsDynamicShapesWithSymSize()
    {
        auto xm = meta(ScalarType::Float, { 8, 3 });
        xm.sizes[0] = SymInt { std::nullopt, "s0", std::nullopt };
        xm.strides[1].value = 1;
        xm.strides[0] = SymInt { 3, {}, {} };
        auto vm = meta(ScalarType::Float, { 24 });
        vm.sizes[0] = SymInt { std::nullopt, "3*s0", std::nullopt };
        Builder b;
        b.input("x", xm);
        b.ep->rangeConstraints["s0"] = RangeConstraint { 2, 8 };
        Node sz =
            op("sym_size", "aten", "sym_size", "int", { na("self", Argument::tensor("x")), na("dim", intArg(0)) }, {});
        Argument so;
        so.kind = ArgKind::SymInt;
        so.names = { "sym_size" };
        sz.outputs = { so };
        b.node(sz);
        Argument size;
        size.kind = ArgKind::SymInts;
        size.syms = { SymInt { std::nullopt, "sym_size", std::nullopt }, SymInt { 3, {}, {} } };
        Node mul = op("mul", "aten", "mul", "Tensor",
            { na("self", Argument::tensor("x")), na("other", Argument::tensor("x")) }, { "mul" });
        b.node(mul, { { "mul", xm } });
        b.node(op("view", "aten", "view", "", { na("self", Argument::tensor("mul")), na("size", size) }, { "view" }),
            { { "view", vm } });
        b.output(OutputKind::UserOutput, "view");
        auto r = emitProgram({ { "forward", b.done() } });
        QVERIFY_RESULT(r);
        const auto& m = r->program.executionPlan.at(0);
        QCOMPARE(describeInstructions(m),
            Strings({ "aten::sym_size.int [0,1,2]", "aten::mul.out [0,0,3,3]", "aten::view_copy.out [3,6,4,4]" }));
        QCOMPARE(describeValues(m),
            Strings({ "Tensor f32 [8,3] @0 dyn", "Int 0", "Int 0", "Tensor f32 [8,3] @96 dyn", "Tensor f32 [24] @0 dyn",
                "Int 3", "IntList [2,5]" }));
        // x [0,1] and view [2,3] share memory; the plan uses the upper bound s0 <= 8.
        QCOMPARE(m.nonConstBufferSizes, std::vector<std::int64_t>({ 0, 192 }));
        checkRoundTrip(*r, "dynamic");
        // An unbounded dimension cannot be planned.
        b.ep->rangeConstraints["s0"] = RangeConstraint { 2, std::nullopt };
        auto e = emitProgram({ { "forward", b.done() } });
        QVERIFY_ERROR(e, ErrorCode::Unsupported, "upper bound");
    }

    void cancels()
    {
        std::atomic<bool> cancel { true };
        EmitOptions o;
        o.cancel = &cancel;
        auto r = emitProgram({ { "forward", addProgram() } }, o);
        QVERIFY(!r);
        QCOMPARE(r.error().code, ErrorCode::Cancelled);
    }
};

QTEST_GUILESS_MAIN(TestEmitter)
#include "tst_emitter.moc"
