// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// The real graph dumps in $PTELENS_CORPUS/dumps (written by torch and ExecuTorch), with facts read
// from the files themselves.
#include "pte/dumpreader.h"
#include "testutils.h"

#include <QTest>

#include <algorithm>
#include <cstring>

using namespace pte;
using namespace pte::test;

namespace {

std::shared_ptr<const DumpSet> load(const char* name)
{
    auto r = readDump(corpusPath(QStringLiteral("dumps/") + QLatin1String(name)).toStdString());
    if (!r) {
        qWarning("%s", r.error().toString().c_str());
        return nullptr;
    }
    return std::move(r).value();
}

float floatAt(const WeightTensor& w, std::size_t index)
{
    float f = 0;
    std::memcpy(&f, w.data.data() + index * 4, 4);
    return f;
}

std::vector<std::int64_t> concreteSizes(const TensorMeta& m)
{
    std::vector<std::int64_t> out;
    for (const auto& s : m.sizes)
        out.push_back(s.value.value_or(-1));
    return out;
}

} // namespace

class TestCorpusDumps : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { PTE_REQUIRE_CORPUS(); }

    void readsPt2ArchiveWithRawWeights()
    {
        const auto set = load("et_pt2_archive_linear.pt2");
        QVERIFY(set);
        QCOMPARE(set->container, DumpSet::Container::Pt2Archive);
        QCOMPARE(set->methods.size(), std::size_t(1));
        QCOMPARE(set->methods[0].first, std::string("model"));
        const ExportedProgram& ep = *set->methods[0].second;
        QCOMPARE(ep.schemaMajor, 8);
        QCOMPARE(ep.schemaMinor, 12);
        QCOMPARE(ep.verifiers, std::vector<std::string> { "TRAINING" });
        QCOMPARE(ep.torchVersion, std::string("2.9.0a0+fb"));
        QVERIFY(ep.source.find("et_pt2_archive_linear.pt2:linear_3/models/model.json") != std::string::npos);
        QCOMPARE(ep.graph.nodes.size(), std::size_t(1));
        const Node& linear = ep.graph.nodes[0];
        QCOMPARE(linear.target, std::string("torch.ops.aten.linear.default"));
        QCOMPARE(linear.qualifiedOp(), std::string("aten::linear.default"));
        QCOMPARE(linear.inputs.size(), std::size_t(3));
        QCOMPARE(linear.input("weight")->arg.names[0], std::string("p_linear_weight"));
        QCOMPARE(linear.input("bias")->kind, 1);
        QCOMPARE(linear.metadata.at("torch_fn"), std::string("linear_1;builtin_function_or_method.linear"));
        QVERIFY(!linear.isHopSingleTensorReturn.has_value());

        const auto& in = ep.signature.inputSpecs;
        QCOMPARE(in.size(), std::size_t(3));
        QCOMPARE(in[0].kind, InputKind::Parameter);
        QCOMPARE(in[0].target, std::string("linear.weight"));
        QCOMPARE(in[0].arg.names[0], std::string("p_linear_weight"));
        QCOMPARE(in[1].kind, InputKind::Parameter);
        QCOMPARE(in[1].target, std::string("linear.bias"));
        QCOMPARE(in[2].kind, InputKind::UserInput);
        QCOMPARE(in[2].arg.names[0], std::string("x"));
        QCOMPARE(ep.signature.outputSpecs.size(), std::size_t(1));
        QCOMPARE(ep.signature.outputSpecs[0].kind, OutputKind::UserOutput);
        QCOMPARE(ep.signature.outputSpecs[0].arg.names[0], std::string("linear"));
        QCOMPARE(ep.moduleCallGraph.size(), std::size_t(2));
        QCOMPARE(ep.moduleCallGraph[1].fqn, std::string("linear"));

        QVERIFY(ep.missingWeights.empty());
        QCOMPARE(ep.weights.size(), std::size_t(2));
        const WeightTensor& w = ep.weights.at("linear.weight");
        QCOMPARE(w.meta.dtype, ScalarType::Float);
        QCOMPARE(concreteSizes(w.meta), (std::vector<std::int64_t> { 3, 3 }));
        QVERIFY(w.isParameter);
        QCOMPARE(w.data.size(), std::size_t(36));
        QCOMPARE(floatAt(w, 0), -0.5438879f);
        QCOMPARE(floatAt(w, 8), 0.20069402f);
        QVERIFY(w.source.find("linear_3/data/weights/weight_0") != std::string::npos);
        const WeightTensor& b = ep.weights.at("linear.bias");
        QCOMPARE(concreteSizes(b.meta), std::vector<std::int64_t> { 3 });
        QCOMPARE(floatAt(b, 0), -0.19461095f);
        QCOMPARE(floatAt(b, 1), 0.32759783f);
        QCOMPARE(floatAt(b, 2), 0.072819114f);
        // Raw weights are views of the mapped archive: same owner.
        QCOMPARE(w.data.owner(), b.data.owner());
        // Payloads are 64-byte aligned in the archive.
        QCOMPARE(reinterpret_cast<std::uintptr_t>(w.data.data()) % 64, std::uintptr_t(0));

        // data/sample_inputs/model.pt: torch.save of ((x,), {}) with x = f32[3].
        QVERIFY(ep.sampleInputs);
        const SampleInputs& samples = *ep.sampleInputs;
        QVERIFY(
            samples.source.find("et_pt2_archive_linear.pt2:linear_3/data/sample_inputs/model.pt") != std::string::npos);
        QCOMPARE(samples.leaves.size(), std::size_t(1));
        const SampleInput& x = samples.leaves[0];
        QCOMPARE(x.path, std::string("args[0]"));
        QCOMPARE(x.kind, SampleInput::Kind::Tensor);
        QCOMPARE(x.tensor.meta.dtype, ScalarType::Float);
        QCOMPARE(concreteSizes(x.tensor.meta), std::vector<std::int64_t> { 3 });
        QCOMPARE(*x.tensor.meta.strides[0].value, std::int64_t(1));
        QVERIFY(!x.tensor.isParameter);
        QVERIFY(!x.tensor.fake);
        QCOMPARE(x.tensor.data.size(), std::size_t(12));
        QCOMPARE(floatAt(x.tensor, 0), 0.23096681f);
        QCOMPARE(floatAt(x.tensor, 1), 0.6930773f);
        QCOMPARE(floatAt(x.tensor, 2), -0.26686057f);
        QVERIFY(x.tensor.source.find("sample_inputs/model.pt:archive/data/0") != std::string::npos);
        // A view of the mapped archive (the nested zip is stored), not a copy.
        QCOMPARE(x.tensor.data.owner(), w.data.owner());
        QVERIFY(set->diagnostics.empty());
    }

    void readsEtRecord2023()
    {
        const auto set = load("et_sample_etrecord_2023.bin");
        QVERIFY(set);
        QCOMPARE(set->container, DumpSet::Container::EtRecord);
        QCOMPARE(set->methods.size(), std::size_t(1));
        QCOMPARE(set->methods[0].first, std::string("forward"));
        QCOMPARE(set->otherPrograms.size(), std::size_t(1));
        QCOMPARE(set->otherPrograms[0].first, std::string("aten_dialect_output/forward"));
        const ExportedProgram& edge = *set->methods[0].second;
        QCOMPARE(edge.schemaMajor, 1);
        QCOMPARE(edge.graph.nodes.size(), std::size_t(1));
        const Node& mul = edge.graph.nodes[0];
        QCOMPARE(mul.target, std::string("executorch.exir.dialects.edge.ops.aten.mul.Tensor"));
        QCOMPARE(mul.qualifiedOp(), std::string("aten::mul.Tensor"));
        QCOMPARE(mul.debugHandles, std::vector<std::int64_t> { 2 });
        QCOMPARE(mul.metadata.at("source_fn_stack"), std::string("mul,_operator.mul"));
        QCOMPARE(mul.name, std::string("aten_mul_tensor"));
        QCOMPARE(edge.signature.inputSpecs.size(), std::size_t(2));
        QCOMPARE(edge.signature.inputSpecs[0].kind, InputKind::UserInput);
        QCOMPARE(edge.signature.inputSpecs[1].arg.names[0], std::string("arg1_1"));
        QCOMPARE(edge.signature.outputSpecs[0].kind, OutputKind::UserOutput);
        QCOMPARE(edge.signature.outputSpecs[0].arg.names[0], std::string("aten_mul_tensor"));
        QCOMPARE(concreteSizes(edge.graph.tensorValues.at("arg0_1")), (std::vector<std::int64_t> { 3, 2 }));
        QCOMPARE(edge.graph.tensorValues.at("arg0_1").dtype, ScalarType::Float);
        QVERIFY(edge.weights.empty());
        QVERIFY(edge.missingWeights.empty());
        const ExportedProgram& aten = *set->otherPrograms[0].second;
        QCOMPARE(aten.graph.nodes[0].target, std::string("torch.ops.aten.mul.Tensor"));
        QVERIFY(set->etrecordMaps);
        QVERIFY(set->etrecordMaps->debugHandleMap.empty());
        QVERIFY(set->etrecordMaps->delegateMap.empty());
        QVERIFY(set->etrecordMaps->instructionIdToNumOutsMap.empty());
        // 2023 ETRecords predate the _example_inputs entries.
        QVERIFY(!edge.sampleInputs);
    }

    void readsLegacyZipWithPickledStateDict()
    {
        const auto set = load("hades-pid_exported_program.pt2");
        QVERIFY(set);
        QCOMPARE(set->container, DumpSet::Container::LegacyZip);
        QCOMPARE(set->methods[0].first, std::string("forward"));
        const ExportedProgram& ep = *set->methods[0].second;
        QCOMPARE(ep.schemaMajor, 2);
        QCOMPARE(ep.verifiers, std::vector<std::string> { "ATEN" });
        QCOMPARE(ep.graph.nodes.size(), std::size_t(34));
        QCOMPARE(ep.graph.nodes[0].qualifiedOp(), std::string("aten::t.default"));
        QCOMPARE(ep.graph.nodes[1].qualifiedOp(), std::string("aten::addmm.default"));
        QCOMPARE(ep.graph.nodes[33].qualifiedOp(), std::string("aten::squeeze.default"));
        const auto bnCount = std::count_if(ep.graph.nodes.begin(), ep.graph.nodes.end(),
            [](const Node& n) { return n.qualifiedOp() == "aten::_native_batch_norm_legit_functional.default"; });
        QCOMPARE(bnCount, 2);
        const Node& bn = ep.graph.nodes[15];
        QCOMPARE(bn.op, std::string("_native_batch_norm_legit_functional"));
        QCOMPARE(bn.outputs.size(), std::size_t(5));
        QCOMPARE(bn.outputs[1].names[0], std::string("_native_batch_norm_legit_functional_unused_1"));
        QCOMPARE(bn.outputs[3].names[0], std::string("getitem_3"));
        QCOMPARE(bn.input("momentum")->arg.floats[0], 0.1);
        QCOMPARE(bn.input("training")->arg.bools[0], true);

        const auto& in = ep.signature.inputSpecs;
        QCOMPARE(in.size(), std::size_t(31));
        QCOMPARE(
            std::count_if(in.begin(), in.end(), [](const InputSpec& s) { return s.kind == InputKind::Parameter; }), 24);
        QCOMPARE(
            std::count_if(in.begin(), in.end(), [](const InputSpec& s) { return s.kind == InputKind::Buffer; }), 6);
        QCOMPARE(in[24].target, std::string("class_classifier.1.running_mean"));
        QVERIFY(!in[24].persistent.has_value());
        QCOMPARE(in[30].kind, InputKind::UserInput);
        QCOMPARE(in[30].arg.names[0], std::string("l_input_data_"));
        const auto& out = ep.signature.outputSpecs;
        QCOMPARE(out.size(), std::size_t(8));
        for (int i = 0; i < 6; ++i)
            QCOMPARE(out[std::size_t(i)].kind, OutputKind::BufferMutation);
        QCOMPARE(out[2].target, std::string("class_classifier.1.num_batches_tracked"));
        QCOMPARE(out[2].arg.names[0], std::string("add"));
        QCOMPARE(out[6].kind, OutputKind::UserOutput);
        QCOMPARE(out[7].arg.names[0], std::string("squeeze"));

        QCOMPARE(ep.weights.size(), std::size_t(30));
        QVERIFY(ep.missingWeights.empty());
        const WeightTensor& w = ep.weights.at("feature.0.weight");
        QCOMPARE(w.meta.dtype, ScalarType::Float);
        QCOMPARE(concreteSizes(w.meta), (std::vector<std::int64_t> { 256, 10 }));
        QVERIFY(w.isParameter);
        QCOMPARE(w.data.size(), std::size_t(10240));
        QCOMPARE(floatAt(w, 0), -0.06557805f);
        QCOMPARE(floatAt(w, 1), 0.06742589f);
        QCOMPARE(floatAt(w, 2), -0.3029862f);
        QVERIFY(w.source.find("serialized_state_dict.json:archive/data/0") != std::string::npos);
        QCOMPARE(floatAt(ep.weights.at("feature.0.bias"), 0), 0.28401622f);
        const WeightTensor& var = ep.weights.at("class_classifier.1.running_var");
        QCOMPARE(concreteSizes(var.meta), std::vector<std::int64_t> { 128 });
        QVERIFY(!var.isParameter);
        QCOMPARE(floatAt(var, 0), 1.0f);
        const WeightTensor& nbt = ep.weights.at("class_classifier.1.num_batches_tracked");
        QCOMPARE(nbt.meta.dtype, ScalarType::Long);
        QVERIFY(nbt.meta.sizes.empty());
        std::int64_t n = -1;
        std::memcpy(&n, nbt.data.data(), 8);
        QCOMPARE(n, std::int64_t(0));
        // torch 2.2 wrote no serialized_example_inputs entry.
        QVERIFY(!ep.sampleInputs);
    }

    void readsLegacyZipWithSingleKeyUnions()
    {
        const auto set = load("tensorrt_trt_v7.3.ep");
        QVERIFY(set);
        QCOMPARE(set->container, DumpSet::Container::LegacyZip);
        const ExportedProgram& ep = *set->methods[0].second;
        QCOMPARE(ep.schemaMajor, 7);
        QCOMPARE(ep.schemaMinor, 3);
        QCOMPARE(ep.torchVersion, std::string("2.6.0.dev20241001+cu124"));
        QCOMPARE(ep.verifiers, std::vector<std::string> { "ATEN" });
        QCOMPARE(ep.graph.nodes.size(), std::size_t(1));
        const Node& add = ep.graph.nodes[0];
        QCOMPARE(add.qualifiedOp(), std::string("aten::add.Tensor"));
        QCOMPARE(add.inputs[0].kind, 0); // no "kind" before 8.x
        QCOMPARE(add.metadata.at("source_fn_stack"), std::string("add,torch.add"));
        const TensorMeta& a = ep.graph.tensorValues.at("a");
        QCOMPARE(a.deviceType, std::string("cuda"));
        QCOMPARE(a.deviceIndex, std::optional<std::int64_t>(0));
        QCOMPARE(concreteSizes(a), (std::vector<std::int64_t> { 2, 3 }));
        QCOMPARE(*a.strides[0].value, std::int64_t(3));
        QCOMPARE(ep.signature.inputSpecs.size(), std::size_t(2));
        QCOMPARE(ep.signature.inputSpecs[1].arg.names[0], std::string("b"));
        QCOMPARE(ep.signature.outputSpecs[0].arg.names[0], std::string("add"));
        QVERIFY(ep.weights.empty());
        QVERIFY(ep.missingWeights.empty());
        // serialized_example_inputs.pt is 0 bytes: no sample inputs, and no diagnostic about it.
        QVERIFY(!ep.sampleInputs);
        QVERIFY(set->diagnostics.empty());
    }
};

QTEST_GUILESS_MAIN(TestCorpusDumps)
#include "tst_corpus_dumps.moc"
