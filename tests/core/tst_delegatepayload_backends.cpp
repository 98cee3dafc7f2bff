// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// Payloads of the other backends, built by the test: the identification table, Vulkan graphs, Core ML file trees
// and references, and the summaries of QNN, Ethos-U, VGF, OpenVINO, MPS, Neuropilot and unknown payloads; and the
// program-wide pass (each blob decoded once, its DelegateCall instructions found).
#include "delegatetestutils.h"
#include "pte/delegatepayload.h"
#include "pte/ptereader.h"
#include "pte/schema/qnn_options_generated.h"
#include "testutils.h"

#include <QTest>

using namespace pte;
using namespace pte::test;

namespace {

DelegatePayload decodeAs(const char* backend, const std::vector<std::uint8_t>& bytes,
    const PayloadDataSources& sources = {}, std::span<const CompileSpec> specs = {})
{
    return decodeDelegatePayload(backend, toBytes(bytes), specs, sources, "test.pte: delegate");
}

std::vector<std::uint8_t> text(std::string_view s) { return { s.begin(), s.end() }; }

std::string field(const DelegatePayload& p, const char* name)
{
    const auto* f = p.field(name);
    return f ? f->value : "<absent>";
}

std::string diagnosticsText(const DelegatePayload& p)
{
    std::string s;
    for (const auto& d : p.diagnostics)
        s += d.toString() + "\n";
    return s;
}

bool hasSeverity(const DelegatePayload& p, Severity s)
{
    for (const auto& d : p.diagnostics)
        if (d.severity == s)
            return true;
    return false;
}

/** One Vela block: 32-byte header (name, size, external flag) and the data padded to 16. */
void velaBlock(std::vector<std::uint8_t>& out, const char* name, const std::vector<std::uint8_t>& data)
{
    const std::size_t at = out.size();
    out.resize(at + 32, 0);
    std::memcpy(out.data() + at, name, std::strlen(name));
    putU32(out, at + 16, std::uint32_t(data.size()));
    out.insert(out.end(), data.begin(), data.end());
    out.resize((out.size() + 15) / 16 * 16, 0);
}

std::vector<std::uint8_t> i32s(std::initializer_list<std::int32_t> v)
{
    std::vector<std::uint8_t> out(v.size() * 4);
    std::size_t i = 0;
    for (const auto x : v)
        putU32(out, 4 * i++, std::uint32_t(x));
    return out;
}

/** A Core ML file tree: files' bytes from 0, then the JSON index written backwards. */
std::vector<std::uint8_t> coreMlTree(const std::vector<std::pair<std::string, std::string>>& files,
    const std::string& extraNodes = "", const std::string& rootChildren = "")
{
    std::vector<std::uint8_t> out;
    std::string nodes;
    std::string children;
    for (std::size_t i = 0; i < files.size(); ++i) {
        nodes += R"({"name": ")" + files[i].first + R"(", "kind": 0, "dataRegion": {"offset": )"
            + std::to_string(out.size()) + R"(, "size": )" + std::to_string(files[i].second.size())
            + R"(}, "children": {}}, )";
        children += (children.empty() ? "" : ", ") + ("\"" + files[i].first + "\": " + std::to_string(i));
        out.insert(out.end(), files[i].second.begin(), files[i].second.end());
    }
    nodes += extraNodes;
    if (!rootChildren.empty())
        children += ", " + rootChildren;
    const std::string json = R"({"nodes": [)" + nodes
        + R"({"name": "lowered_module", "kind": 1, "dataRegion": {"offset": 0, "size": 0}, "children": {)" + children
        + "}}]}";
    out.insert(out.end(), json.rbegin(), json.rend());
    return out;
}

} // namespace

class TestDelegatePayloadBackends : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    // docs/delegate-payloads.md, Identification: the bytes decide; the id only where the bytes carry no magic.
    void identification_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("backend");
        QTest::addColumn<int>("kind");
        auto b = [](const char* s, std::size_t n) { return QByteArray(s, qsizetype(n)); };
        QTest::addRow("empty") << QByteArray() << "XnnpackBackend" << int(PayloadKind::Empty);
        QTest::addRow("xh00") << b("\0\0\0\0XH00\x1e\0", 10) << "XnnpackBackend" << int(PayloadKind::XnnpackGraph);
        QTest::addRow("bare-xn00") << b("\x1c\0\0\0XN00", 8) << "XnnpackBackend" << int(PayloadKind::XnnpackGraph);
        QTest::addRow("bare-xn01") << b("\x1c\0\0\0XN01", 8) << "XnnpackBackend" << int(PayloadKind::XnnpackGraph);
        QTest::addRow("vh00") << b("\0\0\0\0VH00", 8) << "VulkanBackend" << int(PayloadKind::VulkanGraph);
        QTest::addRow("mp00") << b("\0\0\0\0MP00", 8) << "MPSBackend" << int(PayloadKind::Mps);
        QTest::addRow("cmjr") << b("CMJR{}", 6) << "CoreMLBackend" << int(PayloadKind::CoreMlReference);
        QTest::addRow("coreml-tree") << b("data}]\"{", 8) << "CoreMLBackend" << int(PayloadKind::CoreMlFileTree);
        QTest::addRow("qnn") << b("\xcd\xab\x78\x56", 4) << "QnnBackend" << int(PayloadKind::QnnContext);
        QTest::addRow("qnn-without-header") << b("DLC!", 4) << "QnnBackend" << int(PayloadKind::QnnContext);
        QTest::addRow("vela") << b("vela_bin_stream\0", 16) << "EthosUBackend" << int(PayloadKind::EthosUVela);
        QTest::addRow("vgf") << b("VGF1", 4) << "VgfBackend" << int(PayloadKind::Vgf);
        QTest::addRow("openvino") << b("0\0\0\0", 4) << "OpenvinoBackend" << int(PayloadKind::OpenVino);
        QTest::addRow("neuropilot") << b("\x01", 1) << "NeuropilotBackend" << int(PayloadKind::Neuropilot);
        QTest::addRow("unknown") << b("\x01\x02\x03\x04\x05", 5) << "EnnBackend" << int(PayloadKind::Unknown);
        // The bytes win over the id: an XNNPACK graph under another name is still an XNNPACK graph.
        QTest::addRow("xh00-under-other-id") << b("\0\0\0\0XH00", 8) << "MyBackend" << int(PayloadKind::XnnpackGraph);
    }

    void identification()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(QString, backend);
        QFETCH(int, kind);
        const std::span<const std::uint8_t> span(
            reinterpret_cast<const std::uint8_t*>(bytes.constData()), bytes.size());
        QCOMPARE(int(identifyPayload(span, backend.toStdString())), kind);
        // Decoding any of these short payloads gives findings, never a crash.
        const auto p = decodeAs(backend.toLatin1().constData(), { bytes.begin(), bytes.end() });
        QCOMPARE(int(p.kind), kind);
        QVERIFY(!p.graphDecoded);
    }

    void mismatchedIdIsAWarning()
    {
        const auto p = decodeAs("MyBackend", text(std::string("\0\0\0\0XH00", 8)));
        QVERIFY(hasSeverity(p, Severity::Warning));
        QVERIFY(diagnosticsText(p).find("looks like a XnnpackBackend payload") != std::string::npos);
    }

    void vulkanGraph()
    {
        flatbuffers::FlatBufferBuilder f;
        std::vector<flatbuffers::Offset<vkf::VkValue>> values;
        auto add = [&](vkf::GraphTypes t, flatbuffers::Offset<void> v) {
            values.push_back(vkf::CreateVkValue(f, t, v));
            return std::int32_t(values.size() - 1);
        };
        const std::vector<std::uint32_t> dims { 1, 3, 8, 8 };
        const std::vector<std::uint32_t> wdims { 4, 3, 3, 3 };
        const auto x = add(vkf::GraphTypes::VkTensor,
            vkf::CreateVkTensorDirect(f, vkf::VkDataType::FLOAT32, &dims, -1, 0, vkf::VkStorageType::TEXTURE_3D,
                vkf::VkMemoryLayout::TENSOR_CHANNELS_PACKED)
                .Union());
        const auto w = add(vkf::GraphTypes::VkTensor,
            vkf::CreateVkTensorDirect(f, vkf::VkDataType::FLOAT16, &wdims, 0, -1, vkf::VkStorageType::BUFFER,
                vkf::VkMemoryLayout::TENSOR_WIDTH_PACKED, vkf::VkDataType::FLOAT32)
                .Union());
        const auto bias = add(
            vkf::GraphTypes::VkTensor, vkf::CreateVkTensorDirect(f, vkf::VkDataType::FLOAT32, &dims, 1, -1).Union());
        const std::vector<std::int64_t> ints { 1, 1 };
        const auto stride = add(vkf::GraphTypes::IntList, vkf::CreateIntListDirect(f, &ints).Union());
        const auto none = add(vkf::GraphTypes::Null, vkf::CreateNull(f).Union());
        const auto flag = add(vkf::GraphTypes::Bool, vkf::CreateBool(f, true).Union());
        const auto scale = add(vkf::GraphTypes::Double, vkf::CreateDouble(f, 0.5).Union());
        const auto name = add(vkf::GraphTypes::String, vkf::CreateStringDirect(f, "same").Union());
        const auto sym = add(vkf::GraphTypes::SymInt, vkf::CreateSymInt(f, 7).Union());
        const auto y = add(
            vkf::GraphTypes::VkTensor, vkf::CreateVkTensorDirect(f, vkf::VkDataType::FLOAT32, &dims, -1, 1).Union());
        const std::vector<std::int32_t> listItems { x, y };
        const auto list = add(vkf::GraphTypes::ValueList, vkf::CreateValueListDirect(f, &listItems).Union());
        std::vector<flatbuffers::Offset<vkf::OperatorCall>> chain;
        const std::vector<std::int32_t> convArgs { x, w, bias, stride, none, flag, scale, name, sym, y };
        chain.push_back(vkf::CreateOperatorCallDirect(f, 0, "aten.convolution.default", &convArgs));
        const std::vector<std::int32_t> cloneArgs { y, list };
        chain.push_back(vkf::CreateOperatorCallDirect(f, 1, "aten.clone.default", &cloneArgs));
        const std::vector<std::uint32_t> inputs { std::uint32_t(x) };
        const std::vector<std::uint32_t> outputs { std::uint32_t(y) };
        std::vector<flatbuffers::Offset<vkf::VkBytes>> constants;
        constants.push_back(vkf::CreateVkBytesDirect(f, 16, 8, nullptr)); // in the bytes section
        constants.push_back(vkf::CreateVkBytesDirect(f, std::numeric_limits<std::uint64_t>::max(), 16, "bias-key"));
        const auto g = vkf::CreateVkGraphDirect(
            f, "0", &chain, &values, &inputs, &outputs, &constants, nullptr, vkf::VkStorageType::TEXTURE_3D);
        f.Finish(g, "VK00");
        std::vector<std::uint8_t> section(32, 0);
        for (int i = 0; i < 8; ++i)
            section[std::size_t(16 + i)] = std::uint8_t(0xB0 + i);
        const auto bytes = withHeader("VH00", f.GetBufferPointer(), f.GetSize(), section);
        Program program;
        program.segments.push_back({});
        program.segments.back().data = Bytes::fromVector(std::vector<std::uint8_t>(16, 0x11));
        program.namedData = std::vector<NamedData> { { "bias-key", 0 } };
        const auto p = decodeAs("VulkanBackend", bytes, { &program, nullptr, nullptr });
        QVERIFY2(p.graphDecoded && p.diagnostics.empty(), diagnosticsText(p).c_str());
        QCOMPARE(p.format, std::string("VH00 header + VK00 flatbuffer"));
        QCOMPARE(field(p, "storage type override"), std::string("texture_3d"));
        QCOMPARE(p.nodes.size(), std::size_t(2));
        const auto& conv = p.nodes[0];
        QCOMPARE(conv.kind, std::string("aten.convolution.default"));
        QCOMPARE(conv.delegateDebugId, std::string("0"));
        QCOMPARE(conv.inputs.size(), std::size_t(9));
        QCOMPARE(conv.outputs.size(), std::size_t(1));
        QCOMPARE(conv.outputs[0].valueId, std::uint32_t(y));
        QCOMPARE(p.nodes[1].outputs[0].valueId, std::uint32_t(list));
        QVERIFY(p.value(x)->graphInput);
        QVERIFY(p.value(y)->graphOutput);
        QCOMPARE(p.value(x)->attributes[0].value, std::string("texture_3d"));
        QCOMPARE(p.value(x)->attributes[1].value, std::string("channels_packed"));
        QCOMPARE(p.value(x)->attributes[2].name, std::string("mem_obj_id"));
        const auto& wv = *p.value(std::uint32_t(w));
        QCOMPARE(wv.dtype, std::string("fp16"));
        QCOMPARE(wv.attributes.back().value, std::string("fp32")); // staging datatype
        QCOMPARE(wv.constant->source, ConstantSource::PayloadSection);
        QCOMPARE(wv.constant->data.size(), std::size_t(8));
        QCOMPARE(wv.constant->data.data()[0], std::uint8_t(0xB0));
        QCOMPARE(p.value(std::uint32_t(bias))->constant->source, ConstantSource::NamedData);
        QCOMPARE(p.value(std::uint32_t(stride))->text, std::string("[1, 1]"));
        QCOMPARE(p.value(std::uint32_t(none))->kind, std::string("null"));
        QCOMPARE(p.value(std::uint32_t(flag))->text, std::string("true"));
        QCOMPARE(p.value(std::uint32_t(scale))->text, std::string("0.5"));
        QCOMPARE(p.value(std::uint32_t(name))->text, std::string("same"));
        QCOMPARE(p.value(std::uint32_t(sym))->kind, std::string("symint"));
        QCOMPARE(p.value(std::uint32_t(list))->text, std::string("[0, 9]"));

        // Truncations never crash and never decode.
        for (std::size_t n = 8; n < bytes.size(); n += 7) {
            const auto cut = decodeAs("VulkanBackend", { bytes.begin(), bytes.begin() + std::ptrdiff_t(n) });
            QVERIFY(!cut.graphDecoded);
            QVERIFY(hasSeverity(cut, Severity::Error));
        }
    }

    void coreMlFileTree()
    {
        const std::string metadata = R"({"inputNames": ["x"], "outputNames": ["y"], "identifier": "abc"})";
        const std::string debugInfo =
            R"({"versionInfo": "7.2", "debugSymbolToOperationPath": {"conv_0:conv": [{"Type": "Program"}, {"Type": "Function", "Name": "main"}, {"Type": "Block"}, {"Type": "Operation", "Operator": "conv", "Output": "conv_0"}], "relu_0:relu": [{"Type": "Program"}, {"Type": "Function", "Name": "main"}]}, "debugSymbolToHandles": {"conv_0:conv": [3], "relu_0:relu": [4, 5]}})";
        const auto bytes = coreMlTree({ { "metadata.json", metadata }, { "debug_info.json", debugInfo } },
            R"({"name": "model.mlpackage", "kind": 1, "dataRegion": {"offset": 0, "size": 0}, "children": {}}, )",
            R"("model.mlpackage": 2)");
        const CompileSpec spec { "compute_units", Bytes::copyOf("all") };
        const auto p = decodeAs("CoreMLBackend", bytes, {}, std::span(&spec, 1));
        QVERIFY2(p.diagnostics.empty(), diagnosticsText(p).c_str());
        QCOMPARE(p.kind, PayloadKind::CoreMlFileTree);
        QCOMPARE(p.files.size(), std::size_t(4));
        QCOMPARE(p.files[0].path, std::string("lowered_module"));
        QVERIFY(p.files[0].directory);
        QCOMPARE(p.files[1].path, std::string("lowered_module/metadata.json"));
        QCOMPARE(p.files[1].size, std::uint64_t(metadata.size()));
        QCOMPARE(p.files[2].offset, std::uint64_t(metadata.size()));
        QCOMPARE(field(p, "input names"), std::string("x"));
        QCOMPARE(field(p, "identifier"), std::string("abc"));
        QCOMPARE(field(p, "model"), std::string("model.mlpackage"));
        QCOMPARE(field(p, "compile spec compute_units"), std::string("all"));
        QCOMPARE(field(p, "file index offset"), std::to_string(metadata.size() + debugInfo.size()));
        QVERIFY(p.graphDecoded);
        QCOMPARE(p.nodes.size(), std::size_t(2));
        QCOMPARE(p.nodes[0].kind, std::string("conv"));
        QCOMPARE(p.nodes[0].delegateDebugId, std::string("conv_0:conv"));
        QCOMPARE(p.nodes[0].debugHandles, std::vector<std::int64_t> { 3 });
        QCOMPARE(p.nodes[1].debugHandles, (std::vector<std::int64_t> { 4, 5 }));
        QCOMPARE(p.nodes[0].params[1].value, std::string("main"));

        // Form B: a CMJR reference whose blob is in named data.
        Program program;
        program.segments.push_back({});
        program.segments.back().data = Bytes::fromVector(bytes);
        program.namedData = std::vector<NamedData> { { "coreml_abc", 0 } };
        const auto ref =
            decodeAs("CoreMLBackend", text(R"(CMJR{"version": 1, "key": "coreml_abc", "functionName": "forward"})"),
                { &program, nullptr, nullptr });
        QVERIFY2(ref.diagnostics.empty(), diagnosticsText(ref).c_str());
        QCOMPARE(ref.kind, PayloadKind::CoreMlReference);
        QCOMPARE(field(ref, "function name"), std::string("forward"));
        QCOMPARE(ref.nodes.size(), std::size_t(2));
        const auto dangling = decodeAs("CoreMLBackend", text(R"(CMJR{"key": "coreml_missing"})"));
        QVERIFY(hasSeverity(dangling, Severity::Warning));

        // A file outside the data, an index that never closes: errors, no crash.
        auto broken = coreMlTree({ { "metadata.json", metadata } });
        broken.erase(broken.begin(), broken.begin() + 10); // the file's region now runs past the data
        QVERIFY(hasSeverity(decodeAs("CoreMLBackend", broken), Severity::Error));
        QVERIFY(hasSeverity(decodeAs("CoreMLBackend", text("}}\"{")), Severity::Error));
        QVERIFY(hasSeverity(decodeAs("CoreMLBackend", text("xx\"{")), Severity::Error));
    }

    void ethosUStream()
    {
        std::vector<std::uint8_t> s;
        velaBlock(s, "vela_bin_stream", {});
        velaBlock(s, "cmd_data", { 'C', 'O', 'P', '1', 1, 0, 16, 0 });
        velaBlock(s, "weight_data", std::vector<std::uint8_t>(40, 7));
        velaBlock(s, "scratch_size", i32s({ 4096 }));
        velaBlock(s, "inputs", i32s({ 2, 1, 1, 1, 1, 4, 8, 1, 0, 1, 1, 1, 1, 1, 1, 16, 1, 64, 1 })); // 6-D records
        velaBlock(s, "outputs", i32s({ 1, 1, 2, 2, 3, 4, 128, 2 })); // a 4-D record (before Sep 2025)
        velaBlock(s, "vela_end_stream", {});
        const auto p = decodeAs("EthosUBackend", s);
        QVERIFY2(p.diagnostics.empty(), diagnosticsText(p).c_str());
        QCOMPARE(field(p, "blocks"), std::string("7"));
        QCOMPARE(field(p, "command stream"), std::string("8 B (driver header COP1)"));
        QCOMPARE(field(p, "weights"), std::string("40 B"));
        QCOMPARE(field(p, "scratch size"), std::string("4.0 KiB (4096 bytes)"));
        QCOMPARE(field(p, "inputs"), std::string("2 (6-D shape records)"));
        QCOMPARE(field(p, "outputs"), std::string("1 (4-D shape records)"));
        QCOMPARE(p.values.size(), std::size_t(3));
        QCOMPARE(p.values[0].dims, (std::vector<std::uint32_t> { 1, 1, 1, 1, 4, 8 }));
        QCOMPARE(p.values[1].dims, (std::vector<std::uint32_t> { 1, 1, 1, 1, 1, 16 }));
        QCOMPARE(p.values[1].attributes[1].value, std::string("64")); // arena offset
        QCOMPARE(p.values[2].dims, (std::vector<std::uint32_t> { 1, 2, 2, 3 }));
        QVERIFY(p.values[2].graphOutput);
        QCOMPARE(p.outputIds, std::vector<std::uint32_t> { 2 });
        // Cut anywhere: an error or a missing end marker, never a crash.
        for (std::size_t n = 1; n < s.size(); n += 5) {
            const auto cut = decodeAs("EthosUBackend", { s.begin(), s.begin() + std::ptrdiff_t(n) });
            QVERIFY(!cut.diagnostics.empty());
        }
    }

    void qnnHeaderAndOptions()
    {
        std::vector<std::uint8_t> payload(256 + 64, 0);
        std::memcpy(payload.data(), "\xcd\xab\x78\x56", 4);
        putU64(payload, 4, 1234567);
        putU64(payload, 12, 64);
        std::memcpy(payload.data() + 256, "prefill_forward\0input_0_x@1\0", 28);
        flatbuffers::FlatBufferBuilder f;
        const auto htp = ptelens_qnn::CreateHtpInfo(f, 75, 8);
        const auto soc = ptelens_qnn::CreateSocInfo(f, 57, htp);
        const auto htpOptions = ptelens_qnn::CreateHtpBackendOptions(f, 0, 2, 0);
        const auto backend = ptelens_qnn::CreateBackendOptions(f, 2, htpOptions);
        f.Finish(ptelens_qnn::CreateQnnExecuTorchOptions(f, soc, backend));
        const CompileSpec spec { "qnn_compile_spec",
            Bytes::fromVector({ f.GetBufferPointer(), f.GetBufferPointer() + f.GetSize() }) };
        const auto p = decodeAs("QnnBackend", payload, {}, std::span(&spec, 1));
        QVERIFY2(p.diagnostics.empty(), diagnosticsText(p).c_str());
        QCOMPARE(field(p, "context binary size"), std::string("64 B"));
        QCOMPARE(field(p, "SoC"), std::string("SM8650"));
        QCOMPARE(field(p, "HTP arch"), std::string("V75"));
        QCOMPARE(field(p, "VTCM"), std::string("8 MB"));
        QCOMPARE(field(p, "QNN backend"), std::string("kHtpBackend"));
        QCOMPARE(field(p, "performance mode"), std::string("kHtpBurst"));
        QVERIFY(field(p, "readable strings (first 24)").find("prefill_forward") != std::string::npos);
        QCOMPARE(field(p, "compile spec qnn_compile_spec"), std::string("<absent>"));
        // A header declaring more than there is.
        putU64(payload, 12, 1 << 20);
        QVERIFY(hasSeverity(decodeAs("QnnBackend", payload), Severity::Error));
    }

    void otherSummaries()
    {
        // VGF: four sections tiling the payload.
        std::vector<std::uint8_t> vgf(80 + 40, 0);
        std::memcpy(vgf.data(), "VGF1", 4);
        const std::uint64_t sections[4][2] = { { 80, 10 }, { 90, 10 }, { 100, 4 }, { 104, 16 } };
        for (int i = 0; i < 4; ++i) {
            putU64(vgf, std::size_t(16 + 16 * i), sections[i][0]);
            putU64(vgf, std::size_t(24 + 16 * i), sections[i][1]);
        }
        std::memcpy(vgf.data() + 104, "TOSA.001000.1", 13);
        const auto v = decodeAs("VgfBackend", vgf);
        QVERIFY2(v.diagnostics.empty(), diagnosticsText(v).c_str());
        QCOMPARE(v.regions.size(), std::size_t(4));
        QCOMPARE(field(v, "TOSA version"), std::string("TOSA.001000.1"));

        // OpenVINO (CPU plugin): three (offset, size) pairs from byte 0.
        std::vector<std::uint8_t> ov(48, 0);
        const std::string xml = "<?xml version=\"1.0\"?><cnndata/>";
        const std::uint64_t pairs[3][2] = { { 48, xml.size() }, { 48 + xml.size(), 8 }, { 56 + xml.size(), 5 } };
        for (int i = 0; i < 3; ++i) {
            putU64(ov, std::size_t(16 * i), pairs[i][0]);
            putU64(ov, std::size_t(16 * i + 8), pairs[i][1]);
        }
        ov.insert(ov.end(), xml.begin(), xml.end());
        ov.resize(ov.size() + 13, 0);
        const CompileSpec device { "device", Bytes::copyOf("CPU") };
        const auto o = decodeAs("OpenvinoBackend", ov, {}, std::span(&device, 1));
        QVERIFY2(o.diagnostics.empty(), diagnosticsText(o).c_str());
        QCOMPARE(field(o, "plugin metadata"), xml);
        QCOMPARE(field(o, "model section"), std::string("5 B"));
        QCOMPARE(field(o, "compile spec device"), std::string("CPU"));
        // Another layout: an Info finding, not an error.
        const auto odd = decodeAs("OpenvinoBackend", text("not an export at all"));
        QVERIFY(!hasSeverity(odd, Severity::Error) && hasSeverity(odd, Severity::Info));

        // MPS: header + flatbuffer, and the old headerless form.
        std::vector<std::uint8_t> mps(40, 0);
        std::memcpy(mps.data() + 4, "MP00", 4);
        putU64(mps, 8, 32);
        putU64(mps, 16, 8);
        std::memcpy(mps.data() + 28, "MP00", 4);
        const auto m = decodeAs("MPSBackend", mps);
        QVERIFY2(m.diagnostics.empty(), diagnosticsText(m).c_str());
        QCOMPARE(field(m, "constant segment size"), std::string("8 B"));
        mps[0] = 0x18;
        QCOMPARE(decodeAs("MPSBackend", mps).diagnostics.front().code, ErrorCode::UnsupportedVersion);

        // Neuropilot: 13-byte header.
        std::vector<std::uint8_t> np(13 + 6, 0);
        np[0] = 1;
        putU32(np, 1, 2);
        putU32(np, 5, 1);
        putU32(np, 9, 6);
        const auto n = decodeAs("NeuropilotBackend", np);
        QVERIFY2(n.diagnostics.empty(), diagnosticsText(n).c_str());
        QCOMPARE(field(n, "inputs"), std::string("2"));

        // Unknown: summarised with an Info finding.
        const auto u = decodeAs("EnnBackend", text("ENN\x01 some context binary name_of_graph"));
        QCOMPARE(u.kind, PayloadKind::Unknown);
        QVERIFY(!hasSeverity(u, Severity::Error));
        QVERIFY(field(u, "readable strings").find("name_of_graph") != std::string::npos);
    }

    // decodeProgramDelegates: shared blobs decoded once, DelegateCall instructions found, bad references reported.
    void programDelegates()
    {
        XnnGraphBuilder b;
        const auto x = b.input({ 2 });
        const auto y = b.output({ 2 });
        b.unary(XnnGraphBuilder::Tag::XNNAbs, x, y, 1);
        const auto blob = Bytes::fromVector(b.finish());
        Program program;
        program.segments.push_back({});
        program.segments.back().data = blob;
        program.segments.back().size = blob.size();
        for (const char* name : { "forward", "other" }) {
            ExecutionPlan plan;
            plan.name = name;
            BackendDelegate d;
            d.id = "XnnpackBackend";
            d.processed = { DataLocation::Segment, 0 };
            plan.delegates.push_back(d);
            Chain chain;
            Instruction kernel;
            kernel.args = KernelCall { 0, {} };
            chain.instructions.push_back(kernel);
            Instruction call;
            call.args = DelegateCall { 0, { 0, 1 } };
            chain.instructions.push_back(call);
            plan.chains.push_back(chain);
            program.executionPlan.push_back(plan);
        }
        BackendDelegate bad;
        bad.id = "XnnpackBackend";
        bad.processed = { DataLocation::Inline, 3 };
        program.executionPlan[1].delegates.push_back(bad);
        const auto delegates = decodeProgramDelegates(program, { &program, nullptr, nullptr }, "prog.pte");
        QCOMPARE(delegates.size(), std::size_t(3));
        QCOMPARE(delegates[0].payload.get(), delegates[1].payload.get());
        QCOMPARE(delegates[1].methodName, std::string("other"));
        QCOMPARE(delegates[0].calls.size(), std::size_t(1));
        QCOMPARE(delegates[0].calls[0], (std::pair<std::uint32_t, std::uint32_t>(0, 1)));
        QVERIFY(delegates[0].payload->graphDecoded);
        QVERIFY(delegates[2].calls.empty());
        QCOMPARE(delegates[2].payload->kind, PayloadKind::Empty);
        QCOMPARE(delegates[2].payload->diagnostics.front().code, ErrorCode::OutOfRange);
        QCOMPARE(delegates[2].payload->diagnostics.front().fieldPath,
            std::string("execution_plan[1].delegates[1].processed.index"));
    }
};

QTEST_APPLESS_MAIN(TestDelegatePayloadBackends)
#include "tst_delegatepayload_backends.moc"
