// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// Inner nodes to source nodes through debug handles: with a partition list (ETRecord debug_handle_map or ptelens'
// emission), without one (gaps), through a delegate identifier map (Vulkan), and end to end from a dump whose
// lowered module carries an XNNPACK payload built here, emitted by ptelens.
#include "delegatetestutils.h"
#include "dumptestutils.h"
#include "pte/delegatelink.h"
#include "pte/dumpreader.h"
#include "pte/emitter.h"
#include "testutils.h"

#include <QTest>

#include <algorithm>

using namespace pte;
using namespace pte::test;

namespace {

Node op(const std::string& name, const std::string& target, std::vector<std::string> inputs, std::int64_t handle)
{
    Node n;
    n.name = name;
    n.setTarget("torch.ops.aten." + target);
    for (std::size_t i = 0; i < inputs.size(); ++i)
        n.inputs.push_back({ i == 0 ? "input" : "arg" + std::to_string(i), Argument::tensor(inputs[i]), 1 });
    n.outputs.push_back(Argument::tensor(name));
    n.debugHandles = { handle };
    n.metadata["stack_trace"] = "File \"model.py\", line " + std::to_string(handle) + ", in forward";
    return n;
}

/**
 * The source graph of corey-cole/simple-torch-model's first delegate as the worked example of
 * docs/delegate-payloads.md reads it: a pad (handle 7, ours, to exercise consumers), depthwise conv 8 -> relu 9 ->
 * conv 10 -> relu 11 -> mean 12.
 */
std::shared_ptr<ExportedProgram> sourceProgram()
{
    auto ep = std::make_shared<ExportedProgram>();
    auto& nodes = ep->graph.nodes;
    nodes.push_back(op("pad", "constant_pad_nd.default", { "x" }, 7));
    nodes.push_back(op("conv1", "convolution.default", { "pad", "w1", "b1" }, 8));
    nodes.push_back(op("relu1", "relu.default", { "conv1" }, 9));
    nodes.push_back(op("conv2", "convolution.default", { "relu1", "w2", "b2" }, 10));
    nodes.push_back(op("relu2", "relu.default", { "conv2" }, 11));
    nodes.push_back(op("mean", "mean.dim", { "relu2" }, 12));
    return ep;
}

/** The payload of that delegate: transpose (65535), dw conv 8, conv 10, global pool 12, transpose (65535). */
DelegatePayload payload()
{
    XnnGraphBuilder b;
    addWorkedExample(b, std::pair { 0.0f, std::numeric_limits<float>::infinity() }); // ReLU fused into the convs
    return decodeDelegatePayload("XnnpackBackend", toBytes(b.finish()), {}, {}, "test");
}

std::vector<std::string> names(const std::vector<SourceNodeRef>& refs)
{
    std::vector<std::string> out;
    for (const auto& r : refs)
        out.push_back(r.name);
    return out;
}

} // namespace

class TestDelegatePayloadLink : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void withPartitionList()
    {
        const auto ep = sourceProgram();
        SourceGraphIndex index;
        index.add("forward", *ep);
        const auto p = payload();
        QVERIFY(p.graphDecoded);
        const std::vector<std::int64_t> partition { 12, 7, 8, 9, 10, 11 };
        const auto links = linkDelegate(p, partition, nullptr, &index);
        QCOMPARE(links.partitionHandles, (std::vector<std::int64_t> { 7, 8, 9, 10, 11, 12 }));
        QCOMPARE(links.backendInsertedNodes, std::size_t(2));
        QVERIFY(links.nodeSources[0].empty()); // 65535 resolves to nothing
        QCOMPARE(names(links.nodeSources[1]), std::vector<std::string> { "conv1" });
        QCOMPARE(links.nodeSources[1][0].target, std::string("aten::convolution.default"));
        QCOMPARE(links.nodeSources[1][0].graph, std::string("forward"));
        QVERIFY(links.nodeSources[1][0].stackTrace.find("line 8") != std::string::npos);
        QCOMPARE(names(links.nodeSources[3]), std::vector<std::string> { "mean" });
        QVERIFY(links.unexpectedHandles.empty());
        // 7 (pad) folded into the conv consuming it; 9 and 11 (relus) into the convs producing their input.
        QCOMPARE(links.absorbed.size(), std::size_t(3));
        QCOMPARE(links.absorbed[0].handle, std::int64_t(7));
        QCOMPARE(links.absorbed[0].intoNode, std::optional<std::uint32_t>(1));
        QCOMPARE(links.absorbed[0].how, std::string("consumer"));
        QCOMPARE(links.absorbed[1].handle, std::int64_t(9));
        QCOMPARE(links.absorbed[1].intoNode, std::optional<std::uint32_t>(1));
        QCOMPARE(links.absorbed[1].how, std::string("producer"));
        QCOMPARE(names(links.absorbed[1].sources), std::vector<std::string> { "relu1" });
        QCOMPARE(links.absorbed[2].intoNode, std::optional<std::uint32_t>(2));
        QVERIFY(!links.absorbed[2].inferred);
    }

    void withoutSourceGraph()
    {
        const auto p = payload();
        // A handle of the list the source graph would not know, and an inner handle the list lacks.
        const std::vector<std::int64_t> partition { 8, 9, 10, 11 };
        const auto links = linkDelegate(p, partition, nullptr, nullptr);
        QCOMPARE(links.unexpectedHandles, std::vector<std::int64_t> { 12 });
        QCOMPARE(links.absorbed.size(), std::size_t(2));
        QCOMPARE(links.absorbed[0].how, std::string("handle order"));
        QCOMPARE(links.absorbed[0].intoNode, std::optional<std::uint32_t>(1));
        QVERIFY(links.absorbed[0].sources.empty());
    }

    // No partition list (a .pte alone): the gaps between carried handles, marked as inferred.
    void gapsWithoutPartitionList()
    {
        const auto p = payload();
        const auto links = linkDelegate(p, {}, nullptr, nullptr);
        QCOMPARE(links.absorbed.size(), std::size_t(2));
        QCOMPARE(links.absorbed[0].handle, std::int64_t(9));
        QCOMPARE(links.absorbed[1].handle, std::int64_t(11));
        QVERIFY(links.absorbed[0].inferred && links.absorbed[1].inferred);
        QCOMPARE(links.absorbed[1].intoNode, std::optional<std::uint32_t>(2));

        // A longer run of missing handles (2-4) is more likely nodes outside the delegate: not reported.
        XnnGraphBuilder b;
        const auto x = b.input({ 4 });
        const auto m1 = b.tensor({ 4 });
        const auto m2 = b.tensor({ 4 });
        const auto y = b.output({ 4 });
        b.unary(XnnGraphBuilder::Tag::XNNAbs, x, m1, 1);
        b.unary(XnnGraphBuilder::Tag::XNNNegate, m1, m2, 5);
        b.unary(XnnGraphBuilder::Tag::XNNFloor, m2, y, 7);
        const auto run = decodeDelegatePayload("XnnpackBackend", toBytes(b.finish()), {}, {}, "run");
        const auto runLinks = linkDelegate(run, {}, nullptr, nullptr);
        QCOMPARE(runLinks.absorbed.size(), std::size_t(1));
        QCOMPARE(runLinks.absorbed[0].handle, std::int64_t(6));
    }

    // Vulkan: nodes carry a delegate debug id; the ETRecord delegate map gives their handles.
    void identifierMap()
    {
        flatbuffers::FlatBufferBuilder f;
        const std::vector<std::uint32_t> dims { 4 };
        std::vector<flatbuffers::Offset<vkf::VkValue>> values;
        for (int i = 0; i < 3; ++i)
            values.push_back(vkf::CreateVkValue(f, vkf::GraphTypes::VkTensor,
                vkf::CreateVkTensorDirect(f, vkf::VkDataType::FLOAT32, &dims, -1, -1).Union()));
        const std::vector<std::int32_t> a0 { 0, 1 };
        const std::vector<std::int32_t> a1 { 1, 2 };
        std::vector<flatbuffers::Offset<vkf::OperatorCall>> chain { vkf::CreateOperatorCallDirect(
                                                                        f, 0, "aten.relu.default", &a0),
            vkf::CreateOperatorCallDirect(f, 1, "aten.mean.dim", &a1) };
        f.Finish(vkf::CreateVkGraphDirect(f, "0", &chain, &values), "VK00");
        const auto bytes = withHeader("VH00", f.GetBufferPointer(), f.GetSize(), {});
        const auto p = decodeDelegatePayload("VulkanBackend", toBytes(bytes), {}, {}, "vk");
        QVERIFY(p.graphDecoded);
        const auto ep = sourceProgram();
        SourceGraphIndex index;
        index.add("forward", *ep);
        const std::map<std::string, std::vector<std::int64_t>> ids { { "0", { 9 } }, { "1", { 12 } } };
        QCOMPARE(innerNodeHandles(p.nodes[1], &ids), std::vector<std::int64_t> { 12 });
        const auto links = linkDelegate(p, std::vector<std::int64_t> { 9, 12 }, &ids, &index);
        QCOMPARE(names(links.nodeSources[0]), std::vector<std::string> { "relu1" });
        QCOMPARE(names(links.nodeSources[1]), std::vector<std::string> { "mean" });
        QVERIFY(links.absorbed.empty());
    }

    // The delegate dumps of tests/data carry the payload `make test-data` writes (tests/tools/gentestpayloads.cpp).
    void delegateDumpsCarryTheGeneratedPayload_data()
    {
        QTest::addColumn<QString>("name");
        QTest::newRow("delegate_edge.json") << QStringLiteral("delegate_edge.json");
        QTest::newRow("delegate_named_data.json") << QStringLiteral("delegate_named_data.json");
    }

    void delegateDumpsCarryTheGeneratedPayload()
    {
        QFETCH(QString, name);
        const auto dump = readDump((testDataDir() + QStringLiteral("/dumps/") + name).toStdString());
        QVERIFY_RESULT(dump);
        const auto& lowered = (*dump)->methods.at(0).second->loweredModules;
        QCOMPARE(lowered.size(), std::size_t(1));
        const Bytes& bytes = lowered.begin()->second->processedBytes;
        const auto payload = delegateEdgePayload();
        QVERIFY2(bytes.size() == payload.size() && std::equal(payload.begin(), payload.end(), bytes.data()),
            "the dump's payload is not delegateEdgePayload(): run make test-data");
    }

    // End to end through ptelens' emission: delegate_edge.json's lowered module carries a real XNNPACK payload (one
    // Add, handle 1, as its original module's add node); the emitted program's maps tie it to that node.
    void throughEmission()
    {
        const std::string path = (testDataDir() + QStringLiteral("/dumps/delegate_edge.json")).toStdString();
        const auto dump = readDump(path);
        QVERIFY_RESULT(dump);
        const auto emitted = emitProgram((*dump)->methods);
        QVERIFY_RESULT(emitted);
        const auto& out = *emitted;
        const PayloadDataSources sources { &out.program, nullptr, &out.namedData };
        const auto delegates = decodeProgramDelegates(out.program, sources, "emitted");
        QCOMPARE(delegates.size(), std::size_t(1));
        QVERIFY(delegates[0].payload->graphDecoded);
        QCOMPARE(delegates[0].payload->nodes[0].kind, std::string("Add"));
        SourceGraphIndex index;
        for (const auto& [name, program] : (*dump)->methods)
            index.add(name, *program);
        const DebugMapsView maps { &out.debugHandleMap, &out.methodToDelegateDebugIdMap };
        const auto links = linkProgramDelegate(delegates[0], maps, &index);
        QCOMPARE(links.partitionHandles, std::vector<std::int64_t> { 1 });
        // The delegate call node itself also carries handle 1; only the delegated node is a source.
        QCOMPARE(names(links.nodeSources[0]), std::vector<std::string> { "aten_add_tensor" });
        QCOMPARE(links.nodeSources[0][0].graph, std::string("forward/lowered_module_0"));
        QVERIFY(links.absorbed.empty());
    }
};

QTEST_APPLESS_MAIN(TestDelegatePayloadLink)
#include "tst_delegatepayload_link.moc"
