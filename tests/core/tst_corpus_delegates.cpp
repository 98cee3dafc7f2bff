// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// The delegate payloads of the real files in $PTELENS_CORPUS, checked against docs/delegate-payloads.md: its worked
// example (simple-torch-model), the files of "Checked against real files" (stress MLP, quantized linear, the 2023
// inline payload, Core ML, Ethos-U, QNN, OpenVINO), and the MobileNetV2 ETDump ("XNNPACK events"), whose 65
// XNNPACK events must align exactly with a graph built here from torchvision's MobileNetV2 definition.
#include "delegatetestutils.h"
#include "pte/delegateetdump.h"
#include "pte/delegatelink.h"
#include "pte/delegateprofile.h"
#include "pte/etdump.h"
#include "pte/ptereader.h"
#include "testutils.h"

#include <QDir>
#include <QFile>
#include <QTest>

#include <algorithm>
#include <map>
#include <set>

using namespace pte;
using namespace pte::test;

namespace {

struct Opened
{
    std::shared_ptr<const PteFile> file;
    std::vector<ProgramDelegate> delegates;
};

Opened open(const char* name)
{
    Opened o;
    const auto path = corpusPath(QStringLiteral("pte/") + QLatin1String(name)).toStdString();
    auto r = readPteFile(path);
    if (!r)
        return o;
    o.file = *r;
    const PayloadDataSources sources { o.file->program.get(), o.file->externalData ? &*o.file->externalData : nullptr,
        nullptr };
    o.delegates = decodeProgramDelegates(*o.file->program, sources, path);
    return o;
}

std::string field(const DelegatePayload& p, const char* name)
{
    const auto* f = p.field(name);
    return f ? f->value : "<absent>";
}

std::string param(const InnerNode& n, const char* name)
{
    for (const auto& p : n.params)
        if (p.name == name)
            return p.value;
    return "<absent>";
}

std::string diagnosticsText(const DelegatePayload& p)
{
    std::string s;
    for (const auto& d : p.diagnostics)
        s += d.toString() + "\n";
    return s;
}

std::vector<std::string> kinds(const DelegatePayload& p)
{
    std::vector<std::string> out;
    for (const auto& n : p.nodes)
        out.push_back(n.kind);
    return out;
}

std::vector<std::int64_t> handles(const DelegatePayload& p)
{
    std::vector<std::int64_t> out;
    for (const auto& n : p.nodes)
        out.insert(out.end(), n.debugHandles.begin(), n.debugHandles.end());
    return out;
}

/** Every named constant resolves to bytes of its declared size whose SHA-256 is its key (docs/delegate-payloads.md,
 * XNNPACK constants). */
void checkNamedConstants(const DelegatePayload& p, std::size_t expected)
{
    std::size_t named = 0;
    for (const auto& v : p.values) {
        if (!v.constant)
            continue;
        ++named;
        QCOMPARE(v.constant->source, ConstantSource::NamedData);
        QCOMPARE(std::uint64_t(v.constant->data.size()), v.constant->size);
        QCOMPARE(sha256Hex(v.constant->data.span()), v.constant->key);
    }
    QCOMPARE(named, expected);
}

/** The delegated events of the ETDump's Execute blocks (pte/delegateetdump.h), by instruction. */
std::map<std::int32_t, DelegateEventGroup> etdumpDelegateEvents(const QString& path, bool& ok)
{
    std::map<std::int32_t, DelegateEventGroup> groups;
    const auto dump = readEtdumpFile(path.toStdString());
    ok = bool(dump);
    if (!ok)
        return groups;
    for (auto& g : etdumpDelegateGroups(**dump))
        if ((*dump)->runs[g.run].name == "Execute")
            groups[g.group.instructionId] = std::move(g.group);
    return groups;
}

/**
 * torchvision's MobileNetV2 as XNNPACK's partitioner lowers it (docs/delegate-payloads.md, XNNPACK events): an
 * NCHW->NHWC transpose, the 3x3 stride-2 stem, the inverted residual blocks (t, c, n, s) = (1,16,1,1) (6,24,2,2)
 * (6,32,3,2) (6,64,4,2) (6,96,3,1) (6,160,3,2) (6,320,1,1) - each a 1x1 expansion (except t=1), a 3x3 depthwise conv
 * with stride s on the first repeat, a 1x1 projection, and a residual Add when the stride is 1 and the channels match -
 * then the 1x1 conv to 1280 channels, the global average pool and the transpose back. ReLU6 is fused into the
 * convolutions.
 */
DelegatePayload mobileNetV2()
{
    using T = XnnGraphBuilder::Tag;
    XnnGraphBuilder b;
    std::uint32_t hw = 224;
    std::uint32_t channels = 32;
    const std::pair relu6 { 0.0f, 6.0f };
    std::uint32_t handle = 1;
    const auto x = b.input({ 1, 3, 224, 224 });
    auto act = b.tensor({ 1, 224, 224, 3 });
    const std::vector<std::uint32_t> toNhwc { 0, 2, 3, 1 };
    b.node(T::XNNStaticTranspose, xf::CreateXNNStaticTransposeDirect(b.fbb(), 4, &toNhwc, x, act, 0).Union(), 65535);
    auto conv = [&](T tag, std::uint32_t in, std::uint32_t kernel, std::uint32_t stride, std::uint32_t inC,
                    std::uint32_t outC, bool relu) {
        hw = (hw + 2 * (kernel / 2) - kernel) / stride + 1;
        const bool dw = tag == T::XNNDepthwiseConv2d;
        const auto w = b.tensor({ dw ? 1 : outC, kernel, kernel, dw ? outC : inC });
        const auto out = b.tensor({ 1, hw, hw, outC });
        b.conv(tag, in, w, kNone, out, kernel, stride, dw ? inC : 1, dw ? 1 : inC, dw ? 1 : outC, handle,
            relu ? std::optional(relu6) : std::nullopt);
        handle += relu ? 2 : 1;
        return out;
    };
    act = conv(T::XNNConv2d, act, 3, 2, 3, 32, true);
    const std::uint32_t settings[7][4] = { { 1, 16, 1, 1 }, { 6, 24, 2, 2 }, { 6, 32, 3, 2 }, { 6, 64, 4, 2 },
        { 6, 96, 3, 1 }, { 6, 160, 3, 2 }, { 6, 320, 1, 1 } };
    for (const auto& [t, c, n, s] : settings) {
        for (std::uint32_t i = 0; i < n; ++i) {
            const std::uint32_t stride = i == 0 ? s : 1;
            const std::uint32_t hidden = channels * t;
            auto h = act;
            if (t != 1)
                h = conv(T::XNNConv2d, h, 1, 1, channels, hidden, true);
            h = conv(T::XNNDepthwiseConv2d, h, 3, stride, hidden, hidden, true);
            h = conv(T::XNNConv2d, h, 1, 1, hidden, c, false);
            if (stride == 1 && channels == c) {
                const auto sum = b.tensor({ 1, hw, hw, c });
                b.binary(T::XNNAdd, act, h, sum, handle++);
                h = sum;
            }
            act = h;
            channels = c;
        }
    }
    act = conv(T::XNNConv2d, act, 1, 1, 320, 1280, true);
    const auto pooled = b.tensor({ 1, 1, 1, 1280 });
    b.unary(T::XNNGlobalAvgPooling2d, act, pooled, handle++, 0x40);
    const auto y = b.output({ 1, 1280, 1, 1 });
    const std::vector<std::uint32_t> toNchw { 0, 3, 1, 2 };
    b.node(T::XNNStaticTranspose, xf::CreateXNNStaticTransposeDirect(b.fbb(), 4, &toNchw, pooled, y, 0).Union(), 65535);
    return decodeDelegatePayload("XnnpackBackend", toBytes(b.finish()), {}, {}, "mobilenet_v2");
}

} // namespace

class TestCorpusDelegates : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { PTE_REQUIRE_CORPUS(); }

    // docs/delegate-payloads.md, Worked example, table by table.
    void simpleTorchModel()
    {
        const auto o = open("corey-cole_simple-torch-model__model.pte");
        QVERIFY(o.file);
        QCOMPARE(o.delegates.size(), std::size_t(2));
        const auto& p = *o.delegates[0].payload;
        QVERIFY2(p.graphDecoded && p.diagnostics.empty(), diagnosticsText(p).c_str());
        QCOMPARE(o.delegates[0].calls, (std::vector<std::pair<std::uint32_t, std::uint32_t>> { { 0, 0 } }));
        QCOMPARE(o.delegates[1].calls, (std::vector<std::pair<std::uint32_t, std::uint32_t>> { { 0, 1 } }));
        QCOMPARE(p.bytes.size(), std::size_t(1760));
        QCOMPARE(p.format, std::string("XH00 header + XN01 flatbuffer"));
        QCOMPARE(field(p, "header length"), std::string("30"));
        QCOMPARE(field(p, "flatbuffer offset"), std::string("32"));
        QCOMPARE(field(p, "flatbuffer size"), std::string("1728"));
        QCOMPARE(field(p, "constant data offset"), std::string("1760"));
        QCOMPARE(field(p, "constant data size"), std::string("0"));
        QCOMPARE(p.version, std::string("0"));
        QCOMPARE(field(p, "num_externs"), std::string("2"));
        QCOMPARE(p.inputIds, std::vector<std::uint32_t> { 0 });
        QCOMPARE(p.outputIds, std::vector<std::uint32_t> { 9 });
        QCOMPARE(kinds(p),
            (std::vector<std::string> {
                "StaticTranspose", "DepthwiseConv2d", "Conv2d", "GlobalAvgPooling2d", "StaticTranspose" }));
        QCOMPARE(handles(p), (std::vector<std::int64_t> { 65535, 8, 10, 12, 65535 }));
        QVERIFY(p.nodes[0].backendInserted() && p.nodes[4].backendInserted() && !p.nodes[1].backendInserted());
        QCOMPARE(param(p.nodes[0], "perm"), std::string("[0, 2, 3, 1]"));
        QCOMPARE(param(p.nodes[4], "perm"), std::string("[0, 3, 1, 2]"));
        const auto& dw = p.nodes[1];
        QCOMPARE(dw.inputs.size(), std::size_t(3));
        QCOMPARE(dw.inputs[0].valueId, 1u);
        QCOMPARE(dw.inputs[1].valueId, 2u);
        QCOMPARE(dw.inputs[2].valueId, 4u);
        QCOMPARE(dw.outputs[0].valueId, 3u);
        QCOMPARE(param(dw, "kernel"), std::string("3x3"));
        QCOMPARE(param(dw, "stride"), std::string("1x1"));
        QCOMPARE(param(dw, "padding"), std::string("top 0, right 0, bottom 0, left 0"));
        QCOMPARE(param(dw, "group_input_channels"), std::string("1"));
        QCOMPARE(param(dw, "group_output_channels"), std::string("8"));
        QCOMPARE(param(dw, "output_min_max"), std::string("(0, +inf)"));
        QCOMPARE(param(p.nodes[2], "group_input_channels"), std::string("8"));
        QCOMPARE(param(p.nodes[2], "group_output_channels"), std::string("16"));
        QCOMPARE(p.nodes[2].outputs[0].valueId, 6u);
        QCOMPARE(param(p.nodes[3], "flags"), std::string("0x40"));
        QCOMPARE(p.values.size(), std::size_t(10));
        QCOMPARE(p.value(0)->dims, (std::vector<std::uint32_t> { 1, 1, 1024, 1024 }));
        QCOMPARE(p.value(0)->externalId, std::optional<std::uint32_t>(0));
        QCOMPARE(p.value(0)->flags, 1u);
        QCOMPARE(p.value(9)->dims, (std::vector<std::uint32_t> { 1, 16, 1, 1 }));
        QCOMPARE(p.value(9)->externalId, std::optional<std::uint32_t>(1));
        QCOMPARE(p.value(9)->flags, 2u);
        QCOMPARE(p.value(3)->dims, (std::vector<std::uint32_t> { 1, 1022, 1022, 8 }));
        QCOMPARE(p.value(6)->dims, (std::vector<std::uint32_t> { 1, 1020, 1020, 16 }));
        const std::pair<std::uint32_t, std::pair<std::uint64_t, const char*>> constants[] = { { 2,
                                                                                                  { 288, "e00360dd" } },
            { 4, { 32, "e9cfb6ed" } }, { 5, { 4608, "afa33580" } }, { 7, { 64, "626b37fb" } } };
        for (const auto& [id, c] : constants) {
            const auto& ref = p.value(id)->constant;
            QVERIFY(ref);
            QCOMPARE(ref->size, c.first);
            QVERIFY(ref->key.starts_with(c.second));
        }
        checkNamedConstants(p, 4);

        const auto& fc = *o.delegates[1].payload;
        QCOMPARE(fc.bytes.size(), std::size_t(720));
        QCOMPARE(kinds(fc), std::vector<std::string> { "FullyConnected" });
        QCOMPARE(handles(fc), std::vector<std::int64_t> { 14 });
        QCOMPARE(fc.value(0)->dims, (std::vector<std::uint32_t> { 1, 16 }));
        QCOMPARE(fc.value(1)->dims, (std::vector<std::uint32_t> { 10, 16 }));
        QCOMPARE(fc.value(1)->constant->size, std::uint64_t(640));
        QCOMPARE(fc.value(2)->constant->size, std::uint64_t(40));
        QCOMPARE(fc.value(3)->dims, (std::vector<std::uint32_t> { 1, 10 }));
        checkNamedConstants(fc, 2);

        // "9 and 11 are most likely the two ReLUs absorbed into the convolutions' output_min_max."
        const auto links = linkProgramDelegate(o.delegates[0], {}, nullptr);
        QCOMPARE(links.absorbed.size(), std::size_t(2));
        QCOMPARE(links.absorbed[0].handle, std::int64_t(9));
        QCOMPARE(links.absorbed[0].intoNode, std::optional<std::uint32_t>(1));
        QCOMPARE(links.absorbed[1].handle, std::int64_t(11));
        QCOMPARE(links.absorbed[1].intoNode, std::optional<std::uint32_t>(2));
        QCOMPARE(links.backendInsertedNodes, std::size_t(2));
    }

    // Section 8: stress_mlp has 2 delegates, one a 13-node FC stack with fused (0, +inf) clamps.
    void stressMlp()
    {
        const auto o = open("corey-cole_djl-executorch-engine__src__test__resources__models__stress__stress_mlp.pte");
        QVERIFY(o.file);
        QCOMPARE(o.delegates.size(), std::size_t(2));
        const auto& stack = *o.delegates[1].payload;
        QVERIFY2(stack.graphDecoded && stack.diagnostics.empty(), diagnosticsText(stack).c_str());
        QCOMPARE(stack.nodes.size(), std::size_t(13));
        std::size_t fcs = 0;
        for (const auto& n : stack.nodes)
            if (n.kind == "FullyConnected") {
                ++fcs;
                QCOMPARE(param(n, "output_min_max"), std::string("(0, +inf)"));
            }
        QCOMPARE(fcs, std::size_t(10));
        checkNamedConstants(stack, 20);
        const auto& first = *o.delegates[0].payload;
        QVERIFY(first.graphDecoded && first.diagnostics.empty());
        QCOMPARE(kinds(first), (std::vector<std::string> { "Multiply", "Multiply" }));
        QCOMPARE(first.field("constants")->value.substr(0, 1), std::string("0"));
    }

    // Section 8: Convert -> qint8 FC -> Convert; 2.6: the FC and the dequantizing Convert share handle 3.
    void quantizedLinear()
    {
        const auto o = open("corey-cole_executorch-numpy-runtime__tests__models__quantized.pte");
        QVERIFY(o.file);
        QCOMPARE(o.delegates.size(), std::size_t(1));
        const auto& p = *o.delegates[0].payload;
        QVERIFY2(p.graphDecoded && p.diagnostics.empty(), diagnosticsText(p).c_str());
        QCOMPARE(kinds(p), (std::vector<std::string> { "Convert", "FullyConnected", "Convert" }));
        QCOMPARE(handles(p)[1], std::int64_t(3));
        QCOMPARE(handles(p)[2], std::int64_t(3));
        const auto& fc = p.nodes[1];
        const auto* in = p.value(fc.inputs[0].valueId);
        const auto* w = p.value(fc.inputs[1].valueId);
        const auto* bias = p.value(fc.inputs[2].valueId);
        QCOMPARE(in->dtype, std::string("qint8"));
        QCOMPARE(w->dtype, std::string("qint8"));
        QCOMPARE(bias->dtype, std::string("qint32"));
        for (const auto* v : { in, w, bias }) {
            QVERIFY(v->quant);
            QCOMPARE(v->quant->kind, QuantParams::Kind::PerTensor);
            QVERIFY(v->quant->scale > 0);
        }
        checkNamedConstants(p, 2);
    }

    void dynamicShape()
    {
        const auto o = open("corey-cole_executorch-numpy-runtime__tests__models__dynamic.pte");
        QVERIFY(o.file);
        const auto& p = *o.delegates.at(0).payload;
        QVERIFY2(p.graphDecoded && p.diagnostics.empty(), diagnosticsText(p).c_str());
        QCOMPARE(p.nodes.size(), std::size_t(1));
        QCOMPARE(p.values.size(), std::size_t(3));
        QCOMPARE(p.inputIds.size(), std::size_t(2));
        // The dynamic dimension holds its upper bound; the method's planned tensor agrees with it.
        const auto& plan = o.file->program->executionPlan[0];
        const auto* t = plan.values[std::size_t(plan.inputs[0])].tensor();
        QVERIFY(t);
        QCOMPARE(p.value(p.inputIds[0])->dims, std::vector<std::uint32_t> { std::uint32_t(t->sizes[0]) });
    }

    // Section 8: the 2023 program - INLINE, bare XN00, one XNNAdd with handle 1, empty constant_buffer[0].
    void inline2023()
    {
        const auto o = open("pytorch_executorch__xnnpack_add.pte");
        QVERIFY(o.file);
        QCOMPARE(o.file->program->executionPlan[0].delegates[0].processed.location, DataLocation::Inline);
        const auto& p = *o.delegates.at(0).payload;
        QVERIFY2(p.graphDecoded && p.diagnostics.empty(), diagnosticsText(p).c_str());
        QCOMPARE(p.format, std::string("bare XN00 flatbuffer (no header, constants inline)"));
        QCOMPARE(kinds(p), std::vector<std::string> { "Add" });
        QCOMPARE(handles(p), std::vector<std::int64_t> { 1 });
        QCOMPARE(field(p, "constants"), std::string("0 (constant_data)"));
    }

    // Section 4: the style-transfer payload, its reversed index at 1,728,594, the tree and the debug map.
    void coreMl()
    {
        const auto o = open("software-mansion_react-native-executorch__examples__llama__assets__style_transfer__ios__"
                            "style_candy_640_coreml.pte");
        QVERIFY(o.file);
        const auto& p = *o.delegates.at(0).payload;
        QVERIFY2(p.diagnostics.empty(), diagnosticsText(p).c_str());
        QCOMPARE(p.kind, PayloadKind::CoreMlFileTree);
        QCOMPARE(p.bytes.size(), std::size_t(1729766));
        QCOMPARE(field(p, "file index offset"), std::string("1728594"));
        std::set<std::string> paths;
        for (const auto& f : p.files)
            paths.insert(f.path);
        for (const char* expected : { "lowered_module/metadata.json", "lowered_module/debug_info.json",
                 "lowered_module/model.mlpackage/Manifest.json",
                 "lowered_module/model.mlpackage/Data/com.apple.CoreML/model.mlmodel",
                 "lowered_module/model.mlpackage/Data/com.apple.CoreML/weights/weight.bin",
                 "lowered_module/model.mlpackage/executorch_debug_handle_mapping.json" })
            QVERIFY2(paths.count(expected), expected);
        QCOMPARE(field(p, "model"), std::string("model.mlpackage"));
        QCOMPARE(field(p, "compile spec compute_units"), std::string("all"));
        QCOMPARE(field(p, "compile spec min_deployment_target"), std::string("6"));
        QCOMPARE(field(p, "compile spec model_compute_precision"), std::string("float16"));
        QCOMPARE(field(p, "compile spec model_type"), std::string("model"));
        QVERIFY(!field(p, "identifier").empty() && field(p, "identifier") != "<absent>");
        // Each debug symbol "<output>:<operator>" is an operation carrying its edge handles ("cast_23:cast" is the
        // reference's example).
        QVERIFY(p.graphDecoded);
        const auto cast = std::find_if(
            p.nodes.begin(), p.nodes.end(), [](const InnerNode& n) { return n.delegateDebugId == "cast_23:cast"; });
        QVERIFY(cast != p.nodes.end());
        QCOMPARE(cast->kind, std::string("cast"));
        QVERIFY(!cast->debugHandles.empty());
    }

    // Section 5/8: the Vela block stream parsed to its exact end, with 6-D I/O records.
    void ethosU()
    {
        const auto o = open("Arm-Examples_CMSIS-Executorch__ai_layer__engine__model__ethos_u_minimal_example.pte");
        QVERIFY(o.file);
        const auto& p = *o.delegates.at(0).payload;
        QVERIFY2(p.diagnostics.empty(), diagnosticsText(p).c_str());
        QCOMPARE(p.kind, PayloadKind::EthosUVela);
        QCOMPARE(p.regions.back().name, std::string("block vela_end_stream"));
        QCOMPARE(p.regions.back().offset + p.regions.back().size, std::uint64_t(p.bytes.size()));
        QVERIFY(field(p, "inputs").find("6-D") != std::string::npos);
        QVERIFY(field(p, "command stream").find("COP1") != std::string::npos);
        QCOMPARE(field(p, "compile spec tosa_spec"), std::string("TOSA-1.0+INT+int16+u55"));
        QCOMPARE(field(p, "compile spec output_format"), std::string("vela"));
        for (const auto& v : p.values)
            QCOMPARE(v.dims.size(), std::size_t(6));
    }

    // Section 5/8: header size = payload - 256; the compile spec decoded; methods sharing one segment.
    void qnn()
    {
        const auto o = open(
            "pytorch_executorch__examples__qualcomm__oss_scripts__llama__artifacts__stories260k_hybrid_llama_qnn.pte");
        QVERIFY(o.file);
        QCOMPARE(o.delegates.size(), std::size_t(2));
        QCOMPARE(o.delegates[0].payload.get(), o.delegates[1].payload.get());
        const auto& p = *o.delegates[0].payload;
        QVERIFY2(p.diagnostics.empty(), diagnosticsText(p).c_str());
        QCOMPARE(p.regions.size(), std::size_t(2));
        QCOMPARE(p.regions[1].size, std::uint64_t(p.bytes.size() - 256));
        QCOMPARE(field(p, "SoC"), std::string("SM8650"));
        QCOMPARE(field(p, "HTP arch"), std::string("V75"));
        QCOMPARE(field(p, "VTCM"), std::string("8 MB"));
        QCOMPARE(field(p, "QNN backend"), std::string("kHtpBackend"));
        QCOMPARE(field(p, "performance mode"), std::string("kHtpBurst"));
        const std::string strings = field(p, "readable strings (first 24)");
        QVERIFY2(strings.find("forward") != std::string::npos, strings.c_str());
    }

    void openVino()
    {
        const auto o =
            open("corey-cole_djl-executorch-engine__src__test__resources__models__openvino__openvino_tiny.pte");
        QVERIFY(o.file);
        const auto& p = *o.delegates.at(0).payload;
        QVERIFY2(p.diagnostics.empty(), diagnosticsText(p).c_str());
        QCOMPARE(p.regions.size(), std::size_t(3));
        QCOMPARE(p.regions[2].offset + p.regions[2].size, std::uint64_t(p.bytes.size()));
        QVERIFY(field(p, "plugin metadata").find("<cnndata>") != std::string::npos);
        QCOMPARE(field(p, "compile spec device"), std::string("CPU"));
    }

    // Every real payload decodes or is summarised without an error.
    void wholeCorpus()
    {
        const QDir dir(corpusPath(QStringLiteral("pte")));
        std::size_t payloads = 0;
        for (const auto& name : dir.entryList({ QStringLiteral("*.pte") }, QDir::Files)) {
            auto r = readPteFile(dir.filePath(name).toStdString());
            if (!r)
                continue; // the deliberately corrupt file
            const auto& f = **r;
            const PayloadDataSources sources { f.program.get(), f.externalData ? &*f.externalData : nullptr, nullptr };
            for (const auto& d : decodeProgramDelegates(*f.program, sources, f.path)) {
                ++payloads;
                for (const auto& diag : d.payload->diagnostics)
                    QVERIFY2(diag.severity != Severity::Error, diag.toString().c_str());
            }
        }
        QVERIFY(payloads >= 12);
    }

    // Section 2.7/2.8: the 65 events of the real trace against torchvision's MobileNetV2 built here: exact.
    void mobileNetV2Alignment()
    {
        bool ok = false;
        const auto groups = etdumpDelegateEvents(
            corpusPath(QStringLiteral("pte/taemin6697_Executorch-Tutorials__Profiling__mobilenet__etdump.etdp")), ok);
        QVERIFY(ok);
        QCOMPARE(groups.size(), std::size_t(2));
        const auto& features = groups.at(0).events;
        QCOMPARE(features.size(), std::size_t(65));
        const auto payload = mobileNetV2();
        QVERIFY(payload.graphDecoded);
        QCOMPARE(payload.nodes.size(), std::size_t(65));
        const auto a = alignXnnpackEvents(payload, features);
        std::string notes;
        for (const auto& n : a.notes)
            notes += n + "\n";
        QVERIFY2(a.quality == AlignmentQuality::Exact, notes.c_str());
        std::map<std::string, int> byKind;
        for (std::size_t e = 0; e < features.size(); ++e) {
            QCOMPARE(a.eventNode[e], std::int32_t(e));
            const auto& node = payload.nodes[std::size_t(a.eventNode[e])];
            ++byKind[xnnpackLabelFamily(features[e].label) + " -> " + node.kind];
        }
        // 34 pointwise convolutions ran as GEMMs, 17 depthwise as DWConv, the stem as IGEMM.
        QCOMPARE(byKind["Fully Connected -> Conv2d"], 34);
        QCOMPARE(byKind["Convolution -> DepthwiseConv2d"], 17);
        QCOMPARE(byKind["Convolution -> Conv2d"], 1);
        QCOMPARE(byKind["Add -> Add"], 10);
        QCOMPARE(byKind["Mean -> GlobalAvgPooling2d"], 1);
        QCOMPARE(byKind["Transpose -> StaticTranspose"], 2);

        // The classifier partition at instruction 2: one FC, its own #1.
        XnnGraphBuilder b;
        const auto x = b.input({ 1, 1280 });
        const auto w = b.tensor({ 1000, 1280 });
        const auto y = b.output({ 1, 1000 });
        b.fullyConnected(x, w, kNone, y, 200);
        const auto classifier = decodeDelegatePayload("XnnpackBackend", toBytes(b.finish()), {}, {}, "classifier");
        const auto c = alignXnnpackEvents(classifier, groups.at(2).events);
        QCOMPARE(c.quality, AlignmentQuality::Exact);
        QCOMPARE(c.eventNode, std::vector<std::int32_t> { 0 });

        // Against the classifier's graph the trace cannot be placed.
        QCOMPARE(alignXnnpackEvents(classifier, features).quality, AlignmentQuality::Failed);
    }
};

QTEST_APPLESS_MAIN(TestCorpusDelegates)
#include "tst_corpus_delegates.moc"
