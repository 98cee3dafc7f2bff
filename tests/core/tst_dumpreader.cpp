// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "dumptestutils.h"
#include "errorcheck.h"
#include "pte/dumpreader.h"
#include "pte/emitter.h"
#include "testutils.h"

#include <QTest>

#include <cmath>
#include <cstring>
#include <limits>
#include <nlohmann/json.hpp>

using namespace pte;
using namespace pte::test;

namespace {

std::shared_ptr<ExportedProgram> parseData(const QString& name)
{
    const QByteArray text = readDumpData(name);
    auto r = parseExportedProgramJson(std::string_view(text.constData(), std::size_t(text.size())), name.toStdString());
    if (!r) {
        qWarning("%s", r.error().toString().c_str());
        return nullptr;
    }
    return std::move(r).value();
}

std::string inputKinds(const ExportedProgram& ep)
{
    std::string s;
    for (const auto& i : ep.signature.inputSpecs)
        s += (s.empty() ? "" : ",") + std::string(inputKindName(i.kind)) + (i.target.empty() ? "" : ":" + i.target);
    return s;
}

std::string outputKinds(const ExportedProgram& ep)
{
    std::string s;
    for (const auto& o : ep.signature.outputSpecs)
        s += (s.empty() ? "" : ",") + std::string(outputKindName(o.kind)) + (o.target.empty() ? "" : ":" + o.target)
            + "=" + (o.arg.names.empty() ? std::string("?") : o.arg.names[0]);
    return s;
}

/** A one-tensor program with a chosen schema version / writer and dtype code. */
std::string dtypeProgram(const std::string& version, bool executorch, int code)
{
    return std::string(R"({"graph_module": {"graph": {"inputs": [{"as_tensor": {"name": "x"}}], "outputs": [],
        "nodes": [], "tensor_values": {"x": {"dtype": )")
        + std::to_string(code) + R"(, "sizes": [{"as_int": 2}], "requires_grad": false,
        "device": {"type": "cpu", "index": null}, "strides": [{"as_int": 1}], "storage_offset": {"as_int": 0},
        "layout": 7}}}, "signature": {"input_specs": [{"user_input": {"arg": {"as_tensor": {"name": "x"}}}}],
        "output_specs": []}, "module_call_graph": []}, "schema_version": )"
        + version + (executorch ? R"(, "dialect": "", "verifiers": ["EDGE"]})" : R"(, "verifiers": ["ATEN"]})");
}

/** The counter program's weights as a torch.save zip stored under `root`. */
QByteArray counterStateDict(const std::string& root = "model")
{
    const std::int64_t steps = 5;
    return torchSaveZip(stateDictPickle({ { "weight", "FloatStorage", "0", 4, { 4 }, { 1 }, 0, true },
                            { "steps", "LongStorage", "1", 1, {}, {}, 0, false } }),
        { { "0", floatBytes({ 1.f, 2.f, 3.f, 4.f }) }, { "1", QByteArray(reinterpret_cast<const char*>(&steps), 8) } },
        root);
}

/**
 * The sample inputs used below, as torch.save writes (args, kwargs):
 * ((f32[2, 3] tensor, (1, 2.5), None, True, "mode", torch.device("cpu")),
 *  {"mask": bool[3] tensor, "scale": 0.5, "n": [7, -3], "shape_only": <fake f32[2, 2]>})
 */
QByteArray samplePickleZip()
{
    using namespace pk;
    std::string p = "\x80\x02(";
    p += tensorPickle({ "", "FloatStorage", "0", 6, { 2, 3 }, { 3, 1 }, 0, false });
    p += "(K\x01" + binfloat(2.5) + "t";
    p += "N\x88" + str("mode") + global("torch", "device") + str("cpu") + "\x85R";
    p += "t}(";
    p += str("mask") + tensorPickle({ "", "BoolStorage", "1", 3, { 3 }, { 1 }, 0, false });
    p += str("scale") + binfloat(0.5);
    p += str("n") + "](K\x07" + integer(-3) + "e";
    p += str("shape_only")
        + fakeTensor(R"({"dtype": 7, "sizes": [{"as_int": 2}, {"as_int": 2}], "requires_grad": false, )"
                     R"("device": {"type": "cpu", "index": null}, "strides": [{"as_int": 2}, {"as_int": 1}], )"
                     R"("storage_offset": {"as_int": 0}, "layout": 7})",
            false);
    p += "u\x86.";
    return torchSaveZip(
        p, { { "0", floatBytes({ 1.f, 2.f, 3.f, 4.f, 5.f, 6.f }) }, { "1", QByteArray("\x01\x00\x01", 3) } }, "sample");
}

std::string leafPaths(const SampleInputs& in)
{
    std::string s;
    for (const auto& l : in.leaves)
        s += (s.empty() ? "" : ",") + l.path;
    return s;
}

const Diagnostic* findDiagnostic(const Diagnostics& diags, const std::string& needle)
{
    for (const auto& d : diags)
        if (d.message.find(needle) != std::string::npos)
            return &d;
    return nullptr;
}

} // namespace

class TestDumpReader : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    // Node::setTarget is how every reader (and every hand-built node) classifies a target.
    void classifiesTargets()
    {
        struct Case
        {
            const char* target;
            TargetKind kind;
            const char* ns;
            const char* op;
            const char* overload;
        };
        const Case cases[] = {
            { "torch.ops.aten.add.Tensor", TargetKind::OpOverload, "aten", "add", "Tensor" },
            { "torch.ops.aten.relu.default", TargetKind::OpOverload, "aten", "relu", "default" },
            { "executorch.exir.dialects.edge.ops.aten.mul.Tensor", TargetKind::OpOverload, "aten", "mul", "Tensor" },
            { "executorch.exir.dialects.backend.ops.quantized_decomposed.dequantize_per_tensor.default",
                TargetKind::OpOverload, "quantized_decomposed", "dequantize_per_tensor", "default" },
            { "torch.ops.higher_order.cond", TargetKind::HigherOrder, "higher_order", "cond", "" },
            { "executorch.exir.memory.alloc", TargetKind::MemoryAlloc, "", "", "" },
            { "memory.view", TargetKind::MemoryView, "", "", "" },
            { "_operator.getitem", TargetKind::SymOp, "", "", "" },
            { "torch.sym_max", TargetKind::SymOp, "", "", "" },
            { "my_module.helper", TargetKind::Other, "", "", "" },
        };
        Node n;
        for (const auto& c : cases) { // one node reused: every call replaces what the previous one set
            n.setTarget(c.target);
            QCOMPARE(n.target, std::string(c.target));
            QCOMPARE(n.targetKind, c.kind);
            QCOMPARE(n.ns, std::string(c.ns));
            QCOMPARE(n.op, std::string(c.op));
            QCOMPARE(n.overload, std::string(c.overload));
        }
        const Argument a = Argument::tensor("x");
        QCOMPARE(a.kind, ArgKind::Tensor);
        QCOMPARE(a.names, std::vector<std::string> { "x" });
    }

    void decodesUnionEncodings_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<int>("nodes");
        QTest::addColumn<QString>("firstOp");
        QTest::addColumn<QString>("inputs");
        QTest::addColumn<QString>("outputs");
        QTest::addColumn<int>("major");
        QTest::addRow("single-key") << "counter_single_key.json" << 2 << "aten::add.Tensor"
                                    << "parameter:weight,buffer:steps,user_input"
                                    << "buffer_mutation:steps=add,user_output=mul" << 8;
        QTest::addRow("all-alternatives") << "all_alternatives.json" << 2 << "aten::clamp.default"
                                          << "parameter:scale,user_input"
                                          << "user_output=clamp" << 2;
        QTest::addRow("dollar-type") << "dollar_type.json" << 1 << "aten::relu.default"
                                     << "user_input"
                                     << "user_output=relu" << 4;
    }

    void decodesUnionEncodings()
    {
        QFETCH(QString, file);
        QFETCH(int, nodes);
        QFETCH(QString, firstOp);
        QFETCH(QString, inputs);
        QFETCH(QString, outputs);
        QFETCH(int, major);
        const auto ep = parseData(file);
        QVERIFY(ep);
        QCOMPARE(int(ep->graph.nodes.size()), nodes);
        QCOMPARE(ep->graph.nodes[0].qualifiedOp(), firstOp.toStdString());
        QCOMPARE(inputKinds(*ep), inputs.toStdString());
        QCOMPARE(outputKinds(*ep), outputs.toStdString());
        QCOMPARE(ep->schemaMajor, major);
        QVERIFY(!ep->executorchSerde);
        QCOMPARE(ep->source, file.toStdString());
    }

    void decodesSingleKeyDetails()
    {
        const auto ep = parseData("counter_single_key.json");
        QVERIFY(ep);
        QCOMPARE(ep->schemaMinor, 12);
        QCOMPARE(ep->torchVersion, std::string("2.9.0"));
        QCOMPARE(ep->verifiers, std::vector<std::string> { "ATEN" });
        const Node& add = ep->graph.nodes[0];
        QCOMPARE(add.targetKind, TargetKind::OpOverload);
        QCOMPARE(add.ns, std::string("aten"));
        QCOMPARE(add.op, std::string("add"));
        QCOMPARE(add.overload, std::string("Tensor"));
        QCOMPARE(add.name, std::string("add"));
        QCOMPARE(add.jsonPath, std::string("graph_module.graph.nodes[0]"));
        QVERIFY(add.input("other"));
        QCOMPARE(add.input("other")->arg.kind, ArgKind::Int);
        QCOMPARE(add.input("other")->arg.ints[0], std::int64_t(1));
        QCOMPARE(add.input("other")->kind, 1);
        QVERIFY(!add.input("alpha"));
        QCOMPARE(add.metadata.at("nn_module_stack"), std::string("L__self__,,demo.Counter"));
        const auto& w = ep->graph.tensorValues.at("p_weight");
        QCOMPARE(w.dtype, ScalarType::Float);
        QCOMPARE(w.rawDtype, 7);
        QCOMPARE(*w.sizes[0].value, std::int64_t(4));
        QVERIFY(w.requiresGrad);
        QCOMPARE(ep->graph.tensorValues.at("b_steps").dtype, ScalarType::Long);
        QCOMPARE(ep->signature.inputSpecs[1].persistent, std::optional<bool>(true));
        QCOMPARE(ep->moduleCallGraph.size(), std::size_t(1));
        QCOMPARE(ep->moduleCallGraph[0].forwardArgNames, std::vector<std::string> { "x" });
        QCOMPARE(ep->opsetVersion.at("aten"), std::int64_t(10));
        QCOMPARE(ep->missingWeights, (std::vector<std::string> { "weight", "steps" }));
    }

    void keepsOldEncodingQuirks()
    {
        const auto ep = parseData("all_alternatives.json");
        QVERIFY(ep);
        QCOMPARE(ep->verifiers, std::vector<std::string> { "ATEN" }); // from "dialect"
        const Node& clamp = ep->graph.nodes[0];
        QCOMPARE(clamp.input("min")->arg.kind, ArgKind::Float);
        QCOMPARE(clamp.input("min")->arg.floats[0], 0.0);
        QCOMPARE(clamp.input("max")->arg.kind, ArgKind::None);
        const Node& slice = ep->graph.nodes[1];
        QCOMPARE(slice.input("end")->arg.ints[0], std::numeric_limits<std::int64_t>::max()); // exact int64
        QCOMPARE(slice.input("end")->kind, 0);
        // {"meta": TensorMeta} wrapper, bare-int storage_offset
        QCOMPARE(*ep->graph.tensorValues.at("clamp").storageOffset.value, std::int64_t(0));
        QCOMPARE(*ep->graph.tensorValues.at("clamp").sizes[0].value, std::int64_t(2));
        QVERIFY(!ep->signature.inputSpecs[0].persistent.has_value());
        const auto bf = parseData("dollar_type.json");
        QVERIFY(bf);
        QCOMPARE(bf->graph.tensorValues.at("x").dtype, ScalarType::BFloat16); // code 13 -> 15, not 12
    }

    void decodesEverySpecKind()
    {
        // spec_kinds.json emits and runs (every committed dump does); a custom object input, which ExecuTorch cannot
        // emit, is added to it here: a TorchBind object before the user inputs, as torch.export lifts it.
        auto doc = nlohmann::json::parse(readDumpData("spec_kinds.json").toStdString(), nullptr, false);
        QVERIFY(!doc.is_discarded());
        const nlohmann::json obj = { { "name", "obj_0" }, { "class_fqn", "__torch__.torch.classes.demo.Foo" } };
        auto& gm = doc["graph_module"];
        auto& graphInputs = gm["graph"]["inputs"];
        graphInputs.insert(graphInputs.begin() + 4, nlohmann::json { { "as_custom_obj", obj } });
        auto& specs = gm["signature"]["input_specs"];
        specs.insert(
            specs.begin() + 4, nlohmann::json { { "custom_obj", { { "arg", obj }, { "custom_obj_name", "foo" } } } });
        const std::string text = doc.dump();
        auto parsed = parseExportedProgramJson(text, "spec_kinds.json + custom_obj");
        QVERIFY_RESULT(parsed);
        const std::shared_ptr<ExportedProgram> ep = std::move(parsed).value();
        QCOMPARE(inputKinds(*ep),
            std::string("token,parameter:w,buffer:nb,tensor_constant:lifted_tensor_0,custom_obj:foo,user_input,"
                        "user_input,constant_input:scale"));
        QCOMPARE(outputKinds(*ep),
            std::string(
                "token=token_out,buffer_mutation:nb=add_b,user_input_mutation:x=copy_x,parameter_mutation:w=p_w,"
                "user_output=mul"));
        const auto& in = ep->signature.inputSpecs;
        QCOMPARE(in[2].persistent, std::optional<bool>(false));
        QCOMPARE(in[4].arg.kind, ArgKind::CustomObj);
        QCOMPARE(in[4].arg.names[0], std::string("obj_0"));
        QCOMPARE(in[4].arg.strings[0], std::string("__torch__.torch.classes.demo.Foo"));
        QCOMPARE(in[7].constantValue.kind, ArgKind::Float);
        QCOMPARE(in[7].constantValue.floats[0], 2.5);
        QCOMPARE(ep->graph.inputs[4].kind, ArgKind::CustomObj);
        const Node& effects = ep->graph.nodes[0];
        QCOMPARE(effects.targetKind, TargetKind::HigherOrder);
        QCOMPARE(effects.op, std::string("with_effects"));
        QCOMPARE(effects.qualifiedOp(), std::string("torch.ops.higher_order.with_effects"));
        QCOMPARE(effects.inputs[1].arg.kind, ArgKind::Operator);
        QCOMPARE(effects.outputs[1].kind, ArgKind::None); // as_none: true (newer payload)
        const Node& mul = ep->graph.nodes[3];
        QVERIFY(std::isinf(mul.input("alpha")->arg.floats[0])); // "Infinity" string form
        QCOMPARE(mul.input("alpha")->kind, 2);
        QCOMPARE(ep->missingWeights, (std::vector<std::string> { "w", "nb", "lifted_tensor_0" }));
    }

    void decodesTrainingGraph()
    {
        const auto ep = parseData("training.json");
        QVERIFY(ep);
        QCOMPARE(ep->verifiers, std::vector<std::string> { "TRAINING" });
        QCOMPARE(outputKinds(*ep),
            std::string("loss_output=loss,gradient_to_parameter:w=grad_w,gradient_to_user_input:x=grad_x"));
        QCOMPARE(ep->graph.nodes[2].input("other")->arg.floats[0], -2.0);
    }

    void decodesCondSubgraphs()
    {
        const auto ep = parseData("cond.json");
        QVERIFY(ep);
        const Node& cond = ep->graph.nodes[0];
        QCOMPARE(cond.name, std::string("cond"));
        QCOMPARE(cond.targetKind, TargetKind::HigherOrder);
        QCOMPARE(cond.op, std::string("cond"));
        QCOMPARE(cond.isHopSingleTensorReturn, std::optional<bool>(false));
        QCOMPARE(cond.inputs.size(), std::size_t(4));
        QCOMPARE(cond.inputs[0].name, std::string());
        const Argument& t = cond.inputs[1].arg;
        QCOMPARE(t.kind, ArgKind::Graph);
        QCOMPARE(t.strings[0], std::string("true_graph_0"));
        QVERIFY(t.graph);
        QVERIFY(t.graph->isSingleTensorReturn);
        QCOMPARE(t.graph->nodes.size(), std::size_t(1));
        QCOMPARE(t.graph->nodes[0].qualifiedOp(), std::string("aten::add.Tensor"));
        QCOMPARE(t.graph->nodes[0].jsonPath,
            std::string("graph_module.graph.nodes[0].inputs[1].arg.as_graph.graph.nodes[0]"));
        QCOMPARE(cond.inputs[2].arg.graph->nodes[0].qualifiedOp(), std::string("aten::sub.Tensor"));
        QCOMPARE(cond.inputs[3].arg.kind, ArgKind::Tensors);
        QCOMPARE(cond.outputs[0].names, std::vector<std::string> { "getitem" });
        QCOMPARE(ep->graph.tensorValues.at("pred").dtype, ScalarType::Bool);
    }

    void decodesDynamicShapes()
    {
        const auto ep = parseData("dynamic.json");
        QVERIFY(ep);
        const auto& x = ep->graph.tensorValues.at("x");
        QVERIFY(!x.sizes[0].isConcrete());
        QCOMPARE(x.sizes[0].expr, std::string("Mul(Integer(2), Symbol('s0', integer=True, positive=True))"));
        QCOMPARE(x.sizes[0].hint, std::optional<std::int64_t>(8));
        QCOMPARE(ep->graph.tensorValues.at("view").sizes[0].expr, std::string("4*s0"));
        QCOMPARE(ep->graph.symIntValues.at("mul").hint, std::optional<std::int64_t>(16));
        QCOMPARE(ep->rangeConstraints.at("s0").minVal, std::optional<std::int64_t>(2));
        QCOMPARE(ep->rangeConstraints.at("s0").maxVal, std::optional<std::int64_t>(64));
        QVERIFY(!ep->rangeConstraints.at("s1").maxVal.has_value());
        QCOMPARE(ep->graph.nodes[1].targetKind, TargetKind::SymOp);
        QCOMPARE(ep->graph.nodes[1].name, std::string("mul"));
        const Argument& size = ep->graph.nodes[2].input("size")->arg;
        QCOMPARE(size.kind, ArgKind::SymInts);
        QCOMPARE(size.syms[0].expr, std::string("mul"));
        QCOMPARE(*size.syms[1].value, std::int64_t(3));
        QCOMPARE(ep->signature.outputSpecs[1].arg.kind, ArgKind::SymInt);
        // Unknown minor (8.21): a warning, not an error.
        QCOMPARE(ep->diagnostics.size(), std::size_t(1));
        QCOMPARE(ep->diagnostics[0].severity, Severity::Warning);
        QVERIFY(ep->diagnostics[0].message.find("8.21") != std::string::npos);
    }

    void decodesExecuTorchDelegate()
    {
        const auto ep = parseData("delegate_edge.json");
        QVERIFY(ep);
        QVERIFY(ep->executorchSerde);
        QCOMPARE(ep->schemaMajor, 5);
        QCOMPARE(ep->schemaMinor, 3);
        QCOMPARE(ep->verifiers, std::vector<std::string> { "EDGE" });
        QVERIFY(!ep->rangeConstraints.at("s0").maxVal.has_value()); // bare Infinity
        const Node& call = ep->graph.nodes[0];
        QCOMPARE(call.op, std::string("executorch_call_delegate"));
        QCOMPARE(call.debugHandles, std::vector<std::int64_t> { 1 });
        QCOMPARE(call.inputs[0].name, std::string("lowered_module_0"));
        QCOMPARE(call.inputs[2].name, std::string("delegate_arg_1"));
        QCOMPARE(ep->loweredModules.size(), std::size_t(1));
        const LoweredModule& lm = *ep->loweredModules.at("lowered_module_0");
        QCOMPARE(lm.name, std::string("lowered_module_0"));
        QCOMPARE(lm.backendId, std::string("XnnpackBackend"));
        // A real XNNPACK payload, XH00 header + XN01 flatbuffer (tst_delegatepayload_link checks it is the one
        // `make test-data` writes).
        QVERIFY(lm.processedBytes.size() > 32);
        QCOMPARE(std::memcmp(lm.processedBytes.data() + 4, "XH00", 4), 0);
        QCOMPARE(lm.compileSpecs.size(), std::size_t(1));
        QCOMPARE(lm.compileSpecs[0].key, std::string("threads"));
        QCOMPARE(lm.compileSpecs[0].value.size(), std::size_t(4));
        QCOMPARE(lm.compileSpecs[0].value.data()[0], std::uint8_t(4));
        QVERIFY(lm.originalModule);
        QVERIFY(lm.originalModule->executorchSerde);
        QCOMPARE(lm.originalModule->graph.nodes.size(), std::size_t(1));
        QCOMPARE(lm.originalModule->graph.nodes[0].qualifiedOp(), std::string("aten::add.Tensor"));
        QCOMPARE(lm.originalModule->graph.nodes[0].debugHandles, std::vector<std::int64_t> { 1 });
        QCOMPARE(lm.namedData.size(), std::size_t(1));
        QCOMPARE(lm.namedData.at("weights_0").size(), std::size_t(4));
        const Node& alloc = ep->graph.nodes[1];
        QCOMPARE(alloc.targetKind, TargetKind::MemoryAlloc);
        QCOMPARE(alloc.input("alloc_arg")->arg.strings[0], std::string("(2, 2);7"));
        const Node& mul = ep->graph.nodes[2];
        QCOMPARE(mul.qualifiedOp(), std::string("aten::mul.Tensor"));
        QCOMPARE(mul.targetKind, TargetKind::OpOverload);
        QCOMPARE(mul.debugHandles, std::vector<std::int64_t> { 2 });
        // ExecuTorch serde dtype table: 14 is uint16 (torch 8.x would say something else).
        QCOMPARE(ep->graph.tensorValues.at("aten_mul_tensor").dtype, ScalarType::UInt16);
    }

    void decodesNamedDataStore()
    {
        const auto ep = parseData("delegate_named_data.json");
        QVERIFY(ep);
        const LoweredModule& lm = *ep->loweredModules.at("lowered_module_0");
        // pte_data: as before, plus the alignment.
        QCOMPARE(lm.namedData.size(), std::size_t(1));
        QCOMPARE(lm.pteDataEntries.size(), std::size_t(1));
        const auto& pte = lm.pteDataEntries.at("weights_0");
        QCOMPARE(pte.alignment, std::uint32_t(16));
        QCOMPARE(pte.bufferIndex, std::int64_t(0));
        QCOMPARE(std::memcmp(pte.data.data(), "\x01\x02\x03\x04", 4), 0);
        QCOMPARE(lm.namedData.at("weights_0").data(), pte.data.data());
        // external_data: file -> key -> entry.
        QCOMPARE(lm.externalData.size(), std::size_t(2));
        const auto& model = lm.externalData.at("model.ptd");
        QCOMPARE(model.size(), std::size_t(2));
        const auto& fcw = model.at("fc.weight");
        QCOMPARE(fcw.alignment, std::uint32_t(64));
        QCOMPARE(fcw.bufferIndex, std::int64_t(1));
        QCOMPARE(fcw.data.size(), std::size_t(8));
        float f = 0;
        std::memcpy(&f, fcw.data.data() + 4, 4);
        QCOMPARE(f, 2.0f);
        QCOMPARE(model.at("fc.bias").data.asStringView(), std::string_view("ext"));
        // A buffer named twice is decoded once: both entries view the same bytes.
        const auto& shared = lm.externalData.at("shared.ptd").at("weights_0_copy");
        QCOMPARE(shared.alignment, std::uint32_t(32));
        QCOMPARE(shared.data.data(), pte.data.data());

        // An out-of-range buffer index in external_data names the JSON path.
        QByteArray text = readDumpData("delegate_named_data.json");
        text.replace(R"(\\\"buffer_index\\\": 2)", R"(\\\"buffer_index\\\": 7)");
        const auto bad =
            parseExportedProgramJson(std::string_view(text.constData(), std::size_t(text.size())), "x.json");
        QVERIFY_ERROR(bad, ErrorCode::InvalidInput, "buffer_index 7 is out of range");
        QVERIFY2(bad.error().fieldPath.find("named_data_store.external_data.model.ptd.fc.bias") != std::string::npos,
            bad.error().fieldPath.c_str());
    }

    void convertsLegacyDictSignature()
    {
        const auto ep = parseData("signature_v21.json");
        QVERIFY(ep);
        QCOMPARE(ep->schemaMajor, 1);
        QCOMPARE(inputKinds(*ep), std::string("parameter:w,buffer:n,user_input"));
        QCOMPARE(outputKinds(*ep), std::string("buffer_mutation:n=add_1,user_output=mul"));
        QCOMPARE(ep->moduleCallGraph[0].inSpec, std::optional<std::string>("spec-in"));
        QCOMPARE(ep->diagnostics[0].severity, Severity::Info);
    }

    void mapsDtypesPerWriterAndVersion_data()
    {
        QTest::addColumn<QString>("version");
        QTest::addColumn<bool>("executorch");
        QTest::addColumn<int>("code");
        QTest::addColumn<int>("expected"); // ScalarType, or -1 for an error
        const auto st = [](ScalarType t) { return int(t); };
        QTest::addRow("torch8.12-float") << "{\"major\": 8, \"minor\": 12}" << false << 7 << st(ScalarType::Float);
        QTest::addRow("torch8.12-bf16") << "{\"major\": 8, \"minor\": 12}" << false << 13 << st(ScalarType::BFloat16);
        QTest::addRow("torch8.12-uint16") << "{\"major\": 8, \"minor\": 12}" << false << 28 << st(ScalarType::UInt16);
        QTest::addRow("torch8.12-e4m3fn")
            << "{\"major\": 8, \"minor\": 12}" << false << 29 << st(ScalarType::Float8e4m3fn);
        QTest::addRow("torch8.12-e5m2") << "{\"major\": 8, \"minor\": 12}" << false << 30 << st(ScalarType::Float8e5m2);
        QTest::addRow("torch8.20-uint64") << "{\"major\": 8, \"minor\": 20}" << false << 35 << st(ScalarType::UInt64);
        QTest::addRow("torch8.20-e8m0-unsupported") << "{\"major\": 8, \"minor\": 20}" << false << 33 << -1;
        QTest::addRow("torch8.12-14-unknown") << "{\"major\": 8, \"minor\": 12}" << false << 14 << -1;
        QTest::addRow("torch8.1-e4m3fn") << "{\"major\": 8, \"minor\": 1}" << false << 14
                                         << st(ScalarType::Float8e4m3fn);
        QTest::addRow("torch8.1-e5m2") << "{\"major\": 8, \"minor\": 1}" << false << 15 << st(ScalarType::Float8e5m2);
        QTest::addRow("torch7.3-e5m2") << "{\"major\": 7, \"minor\": 3}" << false << 23 << st(ScalarType::Float8e5m2);
        QTest::addRow("torch7.3-e4m3fnuz")
            << "{\"major\": 7, \"minor\": 3}" << false << 26 << st(ScalarType::Float8e4m3fnuz);
        QTest::addRow("torch2-bool") << "2" << false << 12 << st(ScalarType::Bool);
        QTest::addRow("et5.3-uint16") << "{\"major\": 5, \"minor\": 3}" << true << 14 << st(ScalarType::UInt16);
        QTest::addRow("et5.3-e5m2") << "{\"major\": 5, \"minor\": 3}" << true << 15 << st(ScalarType::Float8e5m2);
        QTest::addRow("et5.4-e4m3fn") << "{\"major\": 5, \"minor\": 4}" << true << 16 << st(ScalarType::Float8e4m3fn);
        QTest::addRow("et5.3-bf16") << "{\"major\": 5, \"minor\": 3}" << true << 13 << st(ScalarType::BFloat16);
        QTest::addRow("et5.3-29-unknown") << "{\"major\": 5, \"minor\": 3}" << true << 29 << -1;
    }

    void mapsDtypesPerWriterAndVersion()
    {
        QFETCH(QString, version);
        QFETCH(bool, executorch);
        QFETCH(int, code);
        QFETCH(int, expected);
        const std::string text = dtypeProgram(version.toStdString(), executorch, code);
        const auto r = parseExportedProgramJson(text, "d.json");
        if (expected < 0) {
            QVERIFY_ERROR(r, ErrorCode::InvalidInput, "dtype code " + std::to_string(code));
            QCOMPARE(r.error().fieldPath, std::string("graph_module.graph.tensor_values.x.dtype"));
            return;
        }
        QVERIFY_RESULT(r);
        QCOMPARE(int((*r)->graph.tensorValues.at("x").dtype), expected);
        QCOMPARE((*r)->graph.tensorValues.at("x").rawDtype, code);
    }

    void acceptsNonFiniteTokens()
    {
        const std::string text = R"({"graph_module": {"graph": {"inputs": [], "outputs": [], "nodes": [
            {"target": "torch.ops.aten.clamp.default", "inputs": [
              {"name": "min", "arg": {"as_float": -Infinity}}, {"name": "max", "arg": {"as_float": Infinity}},
              {"name": "v", "arg": {"as_floats": [NaN, 1.5, -0.0]}}],
             "outputs": [{"as_tensor": {"name": "c"}}], "metadata": {"note": "Infinity and NaN stay text"}}]},
            "signature": {"input_specs": [], "output_specs": []}},
          "range_constraints": {"s0": {"min_val": 2, "max_val": Infinity}},
          "schema_version": {"major": 7, "minor": 4}})";
        const auto r = parseExportedProgramJson(text, "inf.json");
        QVERIFY_RESULT(r);
        const Node& n = (*r)->graph.nodes[0];
        QCOMPARE(n.input("min")->arg.floats[0], -std::numeric_limits<double>::infinity());
        QCOMPARE(n.input("max")->arg.floats[0], std::numeric_limits<double>::infinity());
        QVERIFY(std::isnan(n.input("v")->arg.floats[0]));
        QCOMPARE(n.input("v")->arg.floats[1], 1.5);
        QCOMPARE(n.metadata.at("note"), std::string("Infinity and NaN stay text"));
        QVERIFY(!(*r)->rangeConstraints.at("s0").maxVal.has_value());
    }

    void rejectsBadDocuments_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<int>("code");
        QTest::addColumn<QString>("needle");
        QTest::addColumn<QString>("path");
        const QByteArray counter = readDumpData("counter_single_key.json");
        QByteArray major9 = counter;
        major9.replace("\"major\": 8", "\"major\": 9");
        QTest::addRow("unknown-major") << major9 << int(ErrorCode::UnsupportedVersion) << "major version 9"
                                       << "schema_version";
        QTest::addRow("unknown-et-major")
            << QByteArray(dtypeProgram("{\"major\": 6, \"minor\": 0}", true, 7).c_str())
            << int(ErrorCode::UnsupportedVersion) << "ExecuTorch serde schema major version 6"
            << "schema_version";
        QTest::addRow("truncated") << counter.left(counter.size() / 2) << int(ErrorCode::Truncated) << "ends early"
                                   << "";
        QTest::addRow("not-json") << QByteArray("{\"graph_module\": [1, 2,, 3]}") << int(ErrorCode::InvalidInput)
                                  << "invalid JSON at byte 23"
                                  << "";
        QByteArray badInt = counter;
        badInt.replace("\"as_int\": 1\n", "\"as_int\": \"one\"\n");
        QTest::addRow("wrong-type") << badInt << int(ErrorCode::InvalidInput) << "expected an integer, found a string"
                                    << "graph_module.graph.nodes[0].inputs[1].arg.as_int";
        QByteArray badKind = counter;
        badKind.replace("\"as_int\": 1", "\"as_wormhole\": 1");
        QTest::addRow("unknown-argument-kind")
            << badKind << int(ErrorCode::InvalidInput) << "unknown argument kind 'as_wormhole'"
            << "graph_module.graph.nodes[0].inputs[1].arg";
        QByteArray badSpec = counter;
        badSpec.replace("\"user_output\"", "\"mystery_output\"");
        QTest::addRow("unknown-output-spec") << badSpec << int(ErrorCode::InvalidInput) << "'mystery_output'"
                                             << "graph_module.signature.output_specs[1]";
        QTest::addRow("int-overflow") << QByteArray(R"({"graph_module": {"graph": {"nodes": [{"target": "t",
            "inputs": [{"name": "a", "arg": {"as_int": 18446744073709551615}}]}]}, "signature": {}},
            "schema_version": {"major": 8, "minor": 1}})")
                                      << int(ErrorCode::InvalidInput) << "does not fit in 64 bits"
                                      << "graph_module.graph.nodes[0].inputs[0].arg.as_int";
        QByteArray deep = counter;
        deep.replace("\"L__self__,,demo.Counter\"", QByteArray(5000, '[') + QByteArray(5000, ']'));
        QTest::addRow("too-deep") << deep << int(ErrorCode::InvalidInput) << "nests deeper than 512 levels"
                                  << "";
        QByteArray deepArg = counter;
        deepArg.replace("\"as_int\": 1\n", "\"as_int\": " + QByteArray(2000, '[') + QByteArray(2000, ']') + "\n");
        QTest::addRow("too-deep-in-node") << deepArg << int(ErrorCode::InvalidInput) << "nests deeper than 512 levels"
                                          << "";
        QTest::addRow("no-graph-module") << QByteArray(R"({"foo": 1})") << int(ErrorCode::InvalidInput)
                                         << "not a serialized ExportedProgram"
                                         << "graph_module";
        QTest::addRow("two-alternatives") << QByteArray(R"({"graph_module": {"graph": {"inputs": [
            {"as_tensor": {"name": "x"}, "as_int": 3}], "nodes": []}, "signature": {}}, "schema_version": 2})")
                                          << int(ErrorCode::InvalidInput) << "several non-null alternatives"
                                          << "graph_module.graph.inputs[0]";
    }

    void rejectsBadDocuments()
    {
        QFETCH(QByteArray, json);
        QFETCH(int, code);
        QFETCH(QString, needle);
        QFETCH(QString, path);
        const auto r =
            parseExportedProgramJson(std::string_view(json.constData(), std::size_t(json.size())), "bad.json");
        QVERIFY_ERROR(r, ErrorCode(code), needle.toStdString(), "bad.json");
        QCOMPARE(r.error().fieldPath, path.toStdString());
    }

    // ---- containers, built at run time ----

    void readsMultiMethodPt2Archive()
    {
        const std::vector<float> weight { 0.5f, -1.25f, 2.0f, 3.5f };
        const std::int64_t steps = 41;
        const QByteArray config = pt2WeightsConfig(false);
        const QString path = tempDir() + QStringLiteral("/multi.pt2");
        QVERIFY(writeZip(path,
            { { "multi/archive_format", "pt2" }, { "multi/archive_version", "0" }, { "multi/byteorder", "little" },
                { "multi/models/forward.json", readDumpData("counter_single_key.json") },
                { "multi/models/branch.json", readDumpData("cond.json"), true },
                { "multi/data/weights/forward_weights_config.json", config },
                { "multi/data/weights/weight_0", floatBytes(weight) },
                { "multi/data/weights/weight_1", QByteArray(reinterpret_cast<const char*>(&steps), 8) },
                { "multi/data/constants/forward_constants_config.json", "{\"config\": {}}" } }));
        const auto r = readDump(path.toStdString());
        QVERIFY_RESULT(r);
        const DumpSet& set = **r;
        QCOMPARE(set.container, DumpSet::Container::Pt2Archive);
        QCOMPARE(set.methods.size(), std::size_t(2));
        QCOMPARE(set.methods[0].first, std::string("forward"));
        QCOMPARE(set.methods[1].first, std::string("branch"));
        const ExportedProgram& fwd = *set.methods[0].second;
        QCOMPARE(fwd.source, path.toStdString() + ":multi/models/forward.json");
        QVERIFY(fwd.missingWeights.empty());
        const WeightTensor& w = fwd.weights.at("weight");
        QVERIFY(w.isParameter);
        QCOMPARE(w.data.size(), std::size_t(16));
        float f = 0;
        std::memcpy(&f, w.data.data() + 4, 4);
        QCOMPARE(f, -1.25f);
        QCOMPARE(w.source, path.toStdString() + ":multi/data/weights/weight_0");
        const WeightTensor& s = fwd.weights.at("steps");
        QCOMPARE(s.meta.dtype, ScalarType::Long);
        std::int64_t sv = 0;
        std::memcpy(&sv, s.data.data(), 8);
        QCOMPARE(sv, std::int64_t(41));
        // Both are views of the same mapped archive.
        QCOMPARE(w.data.owner(), s.data.owner());
        QCOMPARE(set.methods[1].second->graph.nodes[0].op, std::string("cond"));
        QVERIFY(set.methods[1].second->weights.empty());
    }

    void readsPickledPt2WeightsAndLegacyZip_data()
    {
        QTest::addColumn<QString>("layout");
        QTest::addRow("pt2-2.8-pickled") << "pt2";
        QTest::addRow("legacy-zip") << "legacy";
    }

    void readsPickledPt2WeightsAndLegacyZip()
    {
        QFETCH(QString, layout);
        const std::int64_t steps = 5;
        const QByteArray sd =
            torchSaveZip(stateDictPickle({ { "weight", "FloatStorage", "0", 4, { 4 }, { 1 }, 0, true },
                             { "steps", "LongStorage", "1", 1, {}, {}, 0, false } }),
                { { "0", floatBytes({ 1.f, 2.f, 3.f, 4.f }) },
                    { "1", QByteArray(reinterpret_cast<const char*>(&steps), 8) } },
                "model");
        const QByteArray emptyConstants = torchSaveZip("\x80\x02}.", {});
        const QString path = tempDir() + QStringLiteral("/pickled-%1.pt2").arg(layout);
        std::vector<ZipItem> items;
        if (layout == QLatin1String("pt2")) {
            items = { { "archive/archive_format", "pt2" },
                { "archive/models/model.json", readDumpData("counter_single_key.json") },
                { "archive/data/weights/model.pt", sd }, { "archive/data/constants/model.pt", emptyConstants },
                { "archive/data/sample_inputs/model.pt", "" } };
        } else {
            items = { { "serialized_exported_program.json", readDumpData("counter_single_key.json") },
                { "serialized_state_dict.pt", sd }, { "serialized_constants.pt", emptyConstants },
                { "serialized_example_inputs.pt", "" }, { "version", "8.12" } };
        }
        QVERIFY(writeZip(path, items));
        const auto r = readDump(path.toStdString());
        QVERIFY_RESULT(r);
        const ExportedProgram& ep = *(*r)->methods[0].second;
        QCOMPARE((*r)->methods[0].first, std::string(layout == QLatin1String("pt2") ? "model" : "forward"));
        QCOMPARE((*r)->container,
            layout == QLatin1String("pt2") ? DumpSet::Container::Pt2Archive : DumpSet::Container::LegacyZip);
        QVERIFY(ep.missingWeights.empty());
        QCOMPARE(ep.weights.size(), std::size_t(2));
        float f = 0;
        std::memcpy(&f, ep.weights.at("weight").data.data() + 12, 4);
        QCOMPARE(f, 4.f);
        QVERIFY(ep.weights.at("weight").isParameter);
        QCOMPARE(ep.weights.at("steps").meta.dtype, ScalarType::Long);
        QVERIFY(!ep.sampleInputs); // 0-byte sample inputs: none, without a diagnostic
        QVERIFY((*r)->diagnostics.empty());
    }

    void readsSampleInputs_data()
    {
        QTest::addColumn<QString>("layout");
        QTest::addColumn<QString>("entry");
        QTest::addRow("legacy-zip") << "legacy"
                                    << "serialized_example_inputs.pt";
        QTest::addRow("pt2-archive") << "pt2"
                                     << "archive/data/sample_inputs/model.pt";
        QTest::addRow("etrecord") << "etrecord"
                                  << "edge_dialect_exported_program_example_inputs";
    }

    void readsSampleInputs()
    {
        QFETCH(QString, layout);
        QFETCH(QString, entry);
        const QByteArray program = readDumpData("counter_single_key.json");
        const QByteArray samples = samplePickleZip();
        QVERIFY(!samples.isEmpty());
        std::vector<ZipItem> items;
        if (layout == QLatin1String("legacy"))
            items = { { "serialized_exported_program.json", program },
                { "serialized_state_dict.pt", counterStateDict() }, { "serialized_example_inputs.pt", samples },
                { "version", "8.12" } };
        else if (layout == QLatin1String("pt2"))
            items = { { "archive/archive_format", "pt2" }, { "archive/models/model.json", program },
                { "archive/data/weights/model.pt", counterStateDict() },
                { "archive/data/sample_inputs/model.pt", samples } };
        else
            items = { { "ETRECORD_V0", "" }, { "edge_dialect_exported_program", program },
                { "edge_dialect_exported_program_state_dict", counterStateDict() },
                { "edge_dialect_exported_program_example_inputs", samples } };
        const QString path = tempDir() + QStringLiteral("/samples-%1.zip").arg(layout);
        QVERIFY(writeZip(path, items));
        const auto r = readDump(path.toStdString());
        QVERIFY_RESULT(r);
        const DumpSet& set = **r;
        const ExportedProgram& ep = *set.methods[0].second;
        QVERIFY(ep.sampleInputs);
        const SampleInputs& in = *ep.sampleInputs;
        QCOMPARE(in.source, path.toStdString() + ":" + entry.toStdString());
        QCOMPARE(leafPaths(in),
            std::string("args[0],args[1][0],args[1][1],args[2],args[3],args[4],args[5],kwargs['mask'],"
                        "kwargs['scale'],kwargs['n'][0],kwargs['n'][1],kwargs['shape_only']"));
        const auto& l = in.leaves;
        QCOMPARE(l[0].kind, SampleInput::Kind::Tensor);
        QCOMPARE(l[0].tensor.meta.dtype, ScalarType::Float);
        QCOMPARE(l[0].tensor.meta.sizes.size(), std::size_t(2));
        QCOMPARE(*l[0].tensor.meta.sizes[1].value, std::int64_t(3));
        QCOMPARE(*l[0].tensor.meta.strides[0].value, std::int64_t(3));
        QCOMPARE(l[0].tensor.data.size(), std::size_t(24));
        QCOMPARE(*tensorElements(l[0].tensor, 8), (std::vector<double> { 1, 2, 3, 4, 5, 6 }));
        QCOMPARE(l[0].tensor.source, path.toStdString() + ":" + entry.toStdString() + ":sample/data/0");
        // A view into the mapped dump, like the weights: not a copy.
        QCOMPARE(l[0].tensor.data.owner(), ep.weights.at("weight").data.owner());
        QCOMPARE(l[1].kind, SampleInput::Kind::Int);
        QCOMPARE(l[1].intValue, std::int64_t(1));
        QCOMPARE(l[2].kind, SampleInput::Kind::Float);
        QCOMPARE(l[2].floatValue, 2.5);
        QCOMPARE(l[3].kind, SampleInput::Kind::None);
        QCOMPARE(l[4].kind, SampleInput::Kind::Bool);
        QVERIFY(l[4].boolValue);
        QCOMPARE(l[5].kind, SampleInput::Kind::String);
        QCOMPARE(l[5].text, std::string("mode"));
        QCOMPARE(l[6].kind, SampleInput::Kind::Unsupported);
        QCOMPARE(l[6].text, std::string("a torch.device object"));
        QCOMPARE(l[7].tensor.meta.dtype, ScalarType::Bool);
        QCOMPARE(*tensorElements(l[7].tensor, 8), (std::vector<double> { 1, 0, 1 }));
        QCOMPARE(l[8].floatValue, 0.5);
        QCOMPARE(l[9].intValue, std::int64_t(7));
        QCOMPARE(l[10].intValue, std::int64_t(-3));
        QCOMPARE(l[11].kind, SampleInput::Kind::Tensor);
        QVERIFY(l[11].tensor.fake);
        QVERIFY(l[11].tensor.data.empty());
        QCOMPARE(*l[11].tensor.meta.sizes[0].value, std::int64_t(2));
        QVERIFY(!tensorElements(l[11].tensor, 8));
        // The unsupported leaf and the fake tensor are warnings naming the entry and the leaf; nothing else.
        QCOMPARE(set.diagnostics.size(), std::size_t(2));
        const Diagnostic* dev = findDiagnostic(set.diagnostics, "sample input args[5] is a torch.device object");
        QVERIFY(dev);
        QCOMPARE(dev->severity, Severity::Warning);
        QCOMPARE(dev->file, path.toStdString() + ":" + entry.toStdString());
        QCOMPARE(dev->fieldPath, std::string("args[5]"));
        const Diagnostic* fake =
            findDiagnostic(set.diagnostics, "sample input 'kwargs['shape_only']' is a fake tensor");
        QVERIFY(fake);
        QCOMPARE(fake->severity, Severity::Warning);
    }

    void sampleInputProblemsAreWarnings()
    {
        // 0 bytes: none, silently. Not a torch.save zip, or not (args, kwargs): a warning; the dump still loads.
        const QByteArray program = readDumpData("counter_single_key.json");
        // A memoized tuple shared twice per level for 21 levels: 2^21 leaves, cut off at 65536 values.
        std::string dag("\x80\x02NN\x86q\x00", 7);
        for (int i = 1; i <= 20; ++i)
            dag += "h" + std::string(1, char(i - 1)) + "h" + std::string(1, char(i - 1)) + "\x86q"
                + std::string(1, char(i));
        dag += "\x85}\x86.";
        const std::vector<std::pair<QByteArray, std::string>> cases = {
            { QByteArray(), std::string() },
            { QByteArray("not a zip"), "the sample inputs cannot be read" },
            { torchSaveZip("\x80\x02K\x05.", {}), "sample input inputs is a int instead of an (args, kwargs) pair" },
            // ([L], {}) where L = [L]
            { torchSaveZip(std::string("\x80\x02]q\x00h\x00"
                                       "a\x85}\x86.",
                               12),
                  {}),
                "sample input args[0][0] is a reference to a container that encloses it" },
            { torchSaveZip(dag, {}), "is past the first 65536 values" },
        };
        int n = 0;
        for (const auto& [blob, needle] : cases) {
            const QString path = tempDir() + QStringLiteral("/bad-samples-%1.zip").arg(++n);
            QVERIFY(writeZip(
                path, { { "serialized_exported_program.json", program }, { "serialized_example_inputs.pt", blob } }));
            const auto r = readDump(path.toStdString());
            QVERIFY_RESULT(r);
            const ExportedProgram& ep = *(*r)->methods[0].second;
            if (needle.empty()) {
                QVERIFY(!ep.sampleInputs);
                QVERIFY((*r)->diagnostics.empty());
                continue;
            }
            QCOMPARE((*r)->diagnostics.size(), std::size_t(1));
            const auto& d = (*r)->diagnostics[0];
            QVERIFY2(d.message.find(needle) != std::string::npos, d.message.c_str());
            QCOMPARE(d.severity, Severity::Warning);
            QVERIFY2(d.file.find(".zip:serialized_example_inputs.pt") != std::string::npos, d.file.c_str());
        }
    }

    void readsFakeTensorWeights()
    {
        // Older legacy zips pickle FakeTensors: _reconstruct_fake_tensor(<TensorMeta JSON>, is_param).
        using namespace pk;
        const std::int64_t steps = 5;
        std::string pickle = "\x80\x02" + global("collections", "OrderedDict") + ")R(";
        pickle += str("weight")
            + fakeTensor(R"({"dtype": 7, "sizes": [{"as_int": 4}], "requires_grad": true, "device": {"type": "cpu", )"
                         R"("index": null}, "strides": [{"as_int": 1}], "storage_offset": {"as_int": 0}, "layout": 7})",
                true);
        pickle += str("steps") + tensorPickle({ "", "LongStorage", "1", 1, {}, {}, 0, false }) + "u.";
        const QByteArray sd = torchSaveZip(pickle, { { "1", QByteArray(reinterpret_cast<const char*>(&steps), 8) } });
        const QString path = tempDir() + QStringLiteral("/fake.pt2");
        QVERIFY(writeZip(path,
            { { "serialized_exported_program.json", readDumpData("counter_single_key.json") },
                { "serialized_state_dict.pt", sd } }));
        const auto r = readDump(path.toStdString());
        QVERIFY_RESULT(r);
        const auto& ep = (*r)->methods[0].second;
        QVERIFY(ep->missingWeights.empty());
        const WeightTensor& w = ep->weights.at("weight");
        QVERIFY(w.fake);
        QVERIFY(w.isParameter);
        QVERIFY(w.data.empty());
        QCOMPARE(w.meta.dtype, ScalarType::Float);
        QCOMPARE(*w.meta.sizes[0].value, std::int64_t(4));
        QVERIFY(w.meta.requiresGrad);
        QCOMPARE(w.source, path.toStdString() + ":serialized_state_dict.pt (fake tensor: no data)");
        QVERIFY(!ep->weights.at("steps").fake);
        QCOMPARE((*r)->diagnostics.size(), std::size_t(1));
        const auto& d = (*r)->diagnostics[0];
        QCOMPARE(d.severity, Severity::Warning);
        QCOMPARE(d.file, path.toStdString() + ":serialized_state_dict.pt");
        QVERIFY2(d.message.find("weight 'weight' is a fake tensor (f32[4]): the dump has its metadata but no data")
                != std::string::npos,
            d.message.c_str());
        // Emitting it is an error naming the FQN, never a zero-filled constant.
        EmitOptions zeroFill;
        zeroFill.zeroFillMissingWeights = true;
        for (const EmitOptions& options : { EmitOptions {}, zeroFill }) {
            const auto emitted = emitProgram({ { "forward", ep } }, options);
            QVERIFY_ERROR(emitted, ErrorCode::InvalidInput, "weight 'weight'", "fake tensor: no data");
        }

        // An embedded TensorMeta that cannot be decoded: a warning, and the weight is missing.
        std::string broken = "\x80\x02" + global("collections", "OrderedDict") + ")R(" + str("weight")
            + fakeTensor(R"({"dtype": 99, "sizes": []})", true) + "u.";
        const QString p2 = tempDir() + QStringLiteral("/fake-broken.pt2");
        QVERIFY(writeZip(p2,
            { { "serialized_exported_program.json", readDumpData("counter_single_key.json") },
                { "serialized_state_dict.pt", torchSaveZip(broken, {}) } }));
        const auto r2 = readDump(p2.toStdString());
        QVERIFY_RESULT(r2);
        QCOMPARE((*r2)->methods[0].second->missingWeights, (std::vector<std::string> { "weight", "steps" }));
        QVERIFY(findDiagnostic((*r2)->diagnostics,
            "weight 'weight' is a fake tensor whose embedded TensorMeta cannot "
            "be read"));
    }

    void readsUsePicklePt2Weights()
    {
        // 2.9+ PayloadConfig with use_pickle: a torch.save of one tensor (here a parameter) per weight.
        const QByteArray config = pt2WeightsConfig(true);
        const std::int64_t steps = 9;
        // The parameter views elements 1..4 of a 5-element storage.
        const QByteArray param =
            torchSaveZip("\x80\x02" + tensorPickle({ "", "FloatStorage", "0", 5, { 4 }, { 1 }, 1, true }) + ".",
                { { "0", floatBytes({ 9.f, 0.5f, 1.5f, 2.5f, 3.5f }) } }, "weight_0");
        const QString path = tempDir() + QStringLiteral("/use-pickle.pt2");
        QVERIFY(writeZip(path,
            { { "m/archive_format", "pt2" }, { "m/models/model.json", readDumpData("counter_single_key.json") },
                { "m/data/weights/model_weights_config.json", config }, { "m/data/weights/weight_0", param },
                { "m/data/weights/weight_1", QByteArray(reinterpret_cast<const char*>(&steps), 8) } }));
        const auto r = readDump(path.toStdString());
        QVERIFY_RESULT(r);
        QVERIFY((*r)->diagnostics.empty());
        const ExportedProgram& ep = *(*r)->methods[0].second;
        QVERIFY(ep.missingWeights.empty());
        const WeightTensor& w = ep.weights.at("weight");
        QVERIFY(w.isParameter);
        QCOMPARE(*tensorElements(w, 8), (std::vector<double> { 0.5, 1.5, 2.5, 3.5 }));
        QCOMPARE(w.source, path.toStdString() + ":m/data/weights/weight_0:weight_0/data/0");

        // A tensor subclass pickles other globals: refused with an error naming the entry and the global; the
        // dump still loads and the weight is missing.
        using namespace pk;
        const std::string subclass = "\x80\x02" + global("torchao.dtypes", "AffineQuantizedTensor") + ")\x81.";
        const QString p2 = tempDir() + QStringLiteral("/subclass.pt2");
        QVERIFY(writeZip(p2,
            { { "m/archive_format", "pt2" }, { "m/models/model.json", readDumpData("counter_single_key.json") },
                { "m/data/weights/model_weights_config.json", config },
                { "m/data/weights/weight_0", torchSaveZip(subclass, {}) },
                { "m/data/weights/weight_1", QByteArray(reinterpret_cast<const char*>(&steps), 8) } }));
        const auto r2 = readDump(p2.toStdString());
        QVERIFY_RESULT(r2);
        QCOMPARE((*r2)->methods[0].second->missingWeights, std::vector<std::string> { "weight" });
        QCOMPARE((*r2)->diagnostics.size(), std::size_t(1));
        const auto& d = (*r2)->diagnostics[0];
        QCOMPARE(d.severity, Severity::Error);
        QCOMPARE(d.code, ErrorCode::Unsupported);
        QCOMPARE(d.file, p2.toStdString() + ":m/data/weights/weight_0");
        QCOMPARE(d.fieldPath, std::string("config.weight"));
        QVERIFY2(d.message.find("weight 'weight' (use_pickle) cannot be read") != std::string::npos, d.message.c_str());
        QVERIFY2(d.message.find("'torchao.dtypes.AffineQuantizedTensor'") != std::string::npos, d.message.c_str());

        // A pickled tensor whose dtype contradicts the config is refused the same way.
        const QByteArray longs =
            torchSaveZip("\x80\x02" + tensorPickle({ "", "LongStorage", "0", 4, { 4 }, { 1 } }) + ".",
                { { "0", QByteArray(32, '\0') } });
        const QString p3 = tempDir() + QStringLiteral("/dtype-mismatch.pt2");
        QVERIFY(writeZip(p3,
            { { "m/archive_format", "pt2" }, { "m/models/model.json", readDumpData("counter_single_key.json") },
                { "m/data/weights/model_weights_config.json", config }, { "m/data/weights/weight_0", longs },
                { "m/data/weights/weight_1", QByteArray(reinterpret_cast<const char*>(&steps), 8) } }));
        const auto r3 = readDump(p3.toStdString());
        QVERIFY_RESULT(r3);
        QVERIFY(findDiagnostic((*r3)->diagnostics, "the pickled tensor is i64 but the config says f32"));
    }

    void refusesUnsafePickledWeights()
    {
        const std::string evil = "\x80\x02" + pk::global("os", "system") + pk::str("rm -rf /") + "\x85R.";
        const QByteArray sd = torchSaveZip(evil, {});
        const QString path = tempDir() + QStringLiteral("/evil.pt2");
        QVERIFY(writeZip(path,
            { { "serialized_exported_program.json", readDumpData("counter_single_key.json") },
                { "serialized_state_dict.pt", sd } }));
        const auto r = readDump(path.toStdString());
        QVERIFY_ERROR(r, ErrorCode::Unsupported, "'os.system'", "evil.pt2:serialized_state_dict.pt:archive/data.pkl");
    }

    void reportsMissingAndBrokenWeights()
    {
        // Config that points at an absent blob, and one whose blob is too small.
        const QByteArray missingBlob = R"({"config": {"weight": {"path_name": "weight_9", "is_param": true,
            "use_pickle": false, "tensor_meta": {"dtype": 7, "sizes": [{"as_int": 4}], "requires_grad": true,
            "device": {"type": "cpu", "index": null}, "strides": [{"as_int": 1}], "storage_offset": {"as_int": 0},
            "layout": 7}}}})";
        const QString p1 = tempDir() + QStringLiteral("/missing-blob.pt2");
        QVERIFY(writeZip(p1,
            { { "m/archive_format", "pt2" }, { "m/models/model.json", readDumpData("counter_single_key.json") },
                { "m/data/weights/model_weights_config.json", missingBlob } }));
        auto r1 = readDump(p1.toStdString());
        QVERIFY_ERROR(r1, ErrorCode::InvalidInput, "m/data/weights/weight_9");
        QCOMPARE(r1.error().fieldPath, std::string("config.weight.path_name"));

        QByteArray small = missingBlob;
        small.replace("weight_9", "weight_0");
        const QString p2 = tempDir() + QStringLiteral("/small-blob.pt2");
        QVERIFY(writeZip(p2,
            { { "m/archive_format", "pt2" }, { "m/models/model.json", readDumpData("counter_single_key.json") },
                { "m/data/weights/model_weights_config.json", small },
                { "m/data/weights/weight_0", floatBytes({ 1.f }) } }));
        auto r2 = readDump(p2.toStdString());
        QVERIFY_ERROR(r2, ErrorCode::Truncated, "small-blob.pt2:m/data/weights/weight_0");

        // No weights at all: loads, and lists what emitting needs.
        const QString p3 = tempDir() + QStringLiteral("/no-weights.pt2");
        QVERIFY(writeZip(
            p3, { { "m/archive_format", "pt2" }, { "m/models/model.json", readDumpData("counter_single_key.json") } }));
        auto r3 = readDump(p3.toStdString());
        QVERIFY_RESULT(r3);
        QCOMPARE((*r3)->methods[0].second->missingWeights, (std::vector<std::string> { "weight", "steps" }));

        // A truncated model JSON names the archive entry.
        QByteArray cut = readDumpData("counter_single_key.json");
        cut.truncate(300);
        const QString p4 = tempDir() + QStringLiteral("/cut.pt2");
        QVERIFY(writeZip(p4, { { "m/archive_format", "pt2" }, { "m/models/model.json", cut } }));
        auto r4 = readDump(p4.toStdString());
        QVERIFY_ERROR(r4, ErrorCode::Truncated, "cut.pt2:m/models/model.json");
    }

    void readsEtRecord()
    {
        const QString path = tempDir() + QStringLiteral("/rec.etrecord");
        QVERIFY(writeZip(path,
            { { "ETRECORD_V0", "" }, { "edge_dialect_exported_program/forward", readDumpData("delegate_edge.json") },
                { "edge_dialect_exported_program/step", readDumpData("counter_single_key.json") },
                { "exported_program", readDumpData("training.json") },
                { "debug_handle_map", R"({"forward": {"0": [1], "1": 2}, "step": {}})" },
                { "delegate_map", R"({"forward": {"0": {"name": "XnnpackBackend", "delegate_map": {"0": [1]}}}})" },
                { "instruction_id_to_num_outs_map", R"({"forward": {"0": 1, "1": 1}})" },
                { "export_graph_id", "140234" } }));
        const auto r = readDump(path.toStdString());
        QVERIFY_RESULT(r);
        const DumpSet& set = **r;
        QCOMPARE(set.container, DumpSet::Container::EtRecord);
        QCOMPARE(set.methods.size(), std::size_t(2));
        QCOMPARE(set.methods[0].first, std::string("forward"));
        QCOMPARE(set.methods[1].first, std::string("step"));
        QCOMPARE(set.otherPrograms.size(), std::size_t(1));
        QCOMPARE(set.otherPrograms[0].first, std::string("exported_program"));
        QVERIFY(set.etrecordMaps);
        const auto& maps = *set.etrecordMaps;
        QCOMPARE(maps.debugHandleMap.at("forward").at(0), std::vector<std::int64_t> { 1 });
        QCOMPARE(maps.debugHandleMap.at("forward").at(1), std::vector<std::int64_t> { 2 });
        QVERIFY(maps.debugHandleMap.at("step").empty());
        QCOMPARE(maps.delegateMap.at("forward").at(0).name, std::string("XnnpackBackend"));
        QCOMPARE(maps.delegateMap.at("forward").at(0).delegateMap.at("0"), std::vector<std::int64_t> { 1 });
        QCOMPARE(maps.instructionIdToNumOutsMap.at("forward").at(1), std::int64_t(1));
        QCOMPARE(
            set.methods[0].second->loweredModules.at("lowered_module_0")->backendId, std::string("XnnpackBackend"));

        // A malformed map names the entry and the key.
        const QString bad = tempDir() + QStringLiteral("/bad.etrecord");
        QVERIFY(writeZip(bad,
            { { "ETRECORD_V0", "" }, { "edge_dialect_exported_program", readDumpData("delegate_edge.json") },
                { "debug_handle_map", R"({"forward": {"zero": 1}})" } }));
        const auto b = readDump(bad.toStdString());
        QVERIFY_ERROR(b, ErrorCode::InvalidInput, "bad.etrecord:debug_handle_map");
        QCOMPARE(b.error().fieldPath, std::string("forward.zero"));
    }

    void readsBareJson()
    {
        const QString path = testDataDir() + QStringLiteral("/dumps/counter_single_key.json");
        const auto r = readDump(path.toStdString());
        QVERIFY_RESULT(r);
        QCOMPARE((*r)->container, DumpSet::Container::BareJson);
        QCOMPARE((*r)->methods[0].first, std::string("forward"));
        QCOMPARE((*r)->methods[0].second->missingWeights, (std::vector<std::string> { "weight", "steps" }));
        QCOMPARE((*r)->diagnostics.size(), std::size_t(1));
        QCOMPARE((*r)->diagnostics[0].severity, Severity::Info);
        const QString junk = tempDir() + QStringLiteral("/junk.bin");
        QVERIFY(writeFile(junk, "\x01\x02garbage"));
        const auto j = readDump(junk.toStdString());
        QVERIFY_ERROR(j, ErrorCode::InvalidInput, "junk.bin is not a graph dump");
        const auto missing = readDump((tempDir() + QStringLiteral("/nope.pt2")).toStdString());
        QVERIFY(!missing);
        QCOMPARE(missing.error().code, ErrorCode::Io);
    }
};

QTEST_GUILESS_MAIN(TestDumpReader)
#include "tst_dumpreader.moc"
