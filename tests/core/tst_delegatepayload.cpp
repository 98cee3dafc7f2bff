// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// XNNPACK payloads built by the test (delegatetestutils.h): every node kind, every way a constant is stored, the
// quantization parameters, and malformed payloads, which must give diagnostics and never a crash.
#include "delegatetestutils.h"
#include "pte/delegatepayload.h"
#include "pte/ptereader.h"
#include "testutils.h"

#include <QTest>

using namespace pte;
using namespace pte::test;

namespace {

DelegatePayload decode(const std::vector<std::uint8_t>& bytes, const PayloadDataSources& sources = {})
{
    return decodeDelegatePayload("XnnpackBackend", toBytes(bytes), {}, sources, "test.pte: delegate");
}

std::string param(const InnerNode& n, const std::string& name)
{
    for (const auto& p : n.params)
        if (p.name == name)
            return p.value;
    return "<absent>";
}

std::string roles(const std::vector<InnerOperand>& ops)
{
    std::string s;
    for (const auto& o : ops)
        s += (s.empty() ? "" : ",") + o.role;
    return s;
}

bool hasError(const DelegatePayload& p, ErrorCode code)
{
    for (const auto& d : p.diagnostics)
        if (d.severity == Severity::Error && d.code == code)
            return true;
    return false;
}

std::string diagnosticsText(const DelegatePayload& p)
{
    std::string s;
    for (const auto& d : p.diagnostics)
        s += d.toString() + "\n";
    return s;
}

/** A small valid payload: input -> Add(input, input) -> output, handle 7. */
std::vector<std::uint8_t> addPayload(bool header = true)
{
    XnnGraphBuilder b;
    const auto x = b.input({ 2, 3 });
    const auto y = b.output({ 2, 3 });
    b.binary(XnnGraphBuilder::Tag::XNNAdd, x, x, y, 7);
    return b.finish(header, header ? "XN01" : "XN00");
}

} // namespace

class TestDelegatePayload : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    // One node of every XNodeUnion member (docs/delegate-payloads.md, XNNPACK graph schema): its kind name and its
    // operands by layout.
    void everyNodeKind_data()
    {
        QTest::addColumn<int>("tag");
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QString>("inputs"); // operand roles
        QTest::addColumn<QString>("param"); // one parameter the layout carries ("" when none)
        const char* unary = "input";
        const char* binary = "input1,input2";
        struct Row
        {
            int tag;
            const char* kind;
            const char* inputs;
            const char* param;
        };
        const Row rows[] = {
            { 1, "Add", binary, "" },
            { 2, "FullyConnected", "input,filter,bias", "" },
            { 3, "Softmax", unary, "" },
            { 4, "Sigmoid", unary, "" },
            { 5, "StaticTranspose", unary, "perm=[0, 2, 3, 1]" },
            { 6, "Clamp", unary, "" },
            { 7, "Conv2d", "input,filter,bias", "kernel=3x3" },
            { 8, "Div", binary, "" },
            { 9, "StaticResizeBilinear2D", unary, "new_size=8x6" },
            { 10, "StaticConstantPad", unary, "pre_paddings=[0, 1]" },
            { 11, "AvgPooling2d", unary, "pooling=2x2" },
            { 12, "Minimum", binary, "" },
            { 13, "DepthwiseConv2d", "input,filter,bias", "kernel=3x3" },
            { 14, "MaxPooling2d", unary, "pooling=2x2" },
            { 15, "Multiply", binary, "" },
            { 16, "Subtract", binary, "" },
            { 17, "Floor", unary, "" },
            { 18, "Convert", unary, "" },
            { 19, "GlobalAvgPooling2d", unary, "" },
            { 20, "StaticReshape", unary, "new_shape=[6, 4]" },
            { 21, "ArgMaxPooling2d", unary, "pooling=2x2" },
            { 22, "SquareRoot", unary, "" },
            { 23, "Ceiling", unary, "" },
            { 24, "Hardswish", unary, "" },
            { 25, "LeakyReLU", unary, "negative_slope=0.25" },
            { 26, "Maximum", binary, "" },
            { 27, "Negate", unary, "" },
            { 28, "Square", unary, "" },
            { 29, "ELU", unary, "alpha=1.5" },
            { 30, "Abs", unary, "" },
            { 31, "PReLU", binary, "" },
            { 32, "Concatenate2", "input1,input2", "axis=1" },
            { 33, "Concatenate3", "input1,input2,input3", "axis=1" },
            { 34, "Concatenate4", "input1,input2,input3,input4", "axis=1" },
            { 35, "StaticSlice", unary, "offsets=[0, 1]" },
            { 36, "ScaledDotProductAttention", "query,key,value,scale,mask", "" },
            { 37, "BatchMatrixMultiply", binary, "" },
            { 38, "Concatenate5", "input1,input2,input3,input4,input5", "axis=1" },
            { 39, "ConvTranspose2d", "input,filter,bias", "adjustment=1x1" },
            { 40, "ReciprocalSquareRoot", unary, "" },
            { 41, "Log", unary, "" },
            { 42, "Gelu", unary, "" },
            { 43, "Tanh", unary, "" },
            { 44, "Exp", unary, "" },
            { 45, "Sin", unary, "" },
            { 46, "Copy", unary, "" },
            { 47, "Cos", unary, "" },
        };
        for (const auto& r : rows)
            QTest::addRow("%d-%s", r.tag, r.kind) << r.tag << r.kind << r.inputs << r.param;
    }

    void everyNodeKind()
    {
        QFETCH(int, tag);
        QFETCH(QString, kind);
        QFETCH(QString, inputs);
        QFETCH(QString, param);
        XnnGraphBuilder b;
        auto& f = b.fbb();
        std::vector<std::uint32_t> in;
        for (int i = 0; i < 5; ++i)
            in.push_back(b.tensor({ 1, 4, 4, 2 }));
        const auto out = b.tensor({ 1, 4, 4, 2 });
        const auto out2 = b.tensor({ 1, 4, 4, 2 });
        using T = XnnGraphBuilder::Tag;
        const auto t = T(tag);
        flatbuffers::Offset<void> table;
        const std::vector<std::uint32_t> perm { 0, 2, 3, 1 };
        const std::vector<std::uint32_t> pads { 0, 1 };
        const std::vector<std::uint32_t> shape { 6, 4 };
        switch (t) {
        case T::XNNFullyConnected:
            table = xf::CreateXNNFullyConnected(f, in[0], in[1], in[2], out, 0).Union();
            break;
        case T::XNNStaticTranspose:
            table = xf::CreateXNNStaticTransposeDirect(f, 4, &perm, in[0], out, 0).Union();
            break;
        case T::XNNConv2d:
        case T::XNNDepthwiseConv2d:
        case T::XNNConvTranspose2d:
            table = xf::Create_XNNNodeConv(f, 1, 1, 1, 1, 3, 3, 1, 1, 1, 1, 2, 2, 1, t == T::XNNConvTranspose2d ? 1 : 0,
                t == T::XNNConvTranspose2d ? 1 : 0, in[0], in[1], in[2], out, 0)
                        .Union();
            break;
        case T::XNNStaticResizeBilinear2D:
            table = xf::CreateXNNStaticResizeBilinear2D(f, 8, 6, in[0], out, 0).Union();
            break;
        case T::XNNStaticConstantPad:
            table = xf::CreateXNNStaticConstantPadDirect(f, &pads, &pads, 0.0f, in[0], out, 0).Union();
            break;
        case T::XNNAvgPooling2d:
        case T::XNNMaxPooling2d:
            table = xf::Create_XNNPooling2D(f, 0, 0, 0, 0, 2, 2, 2, 2, 1, 1, in[0], out, 0).Union();
            break;
        case T::XNNStaticReshape:
            table = xf::CreateXNNStaticReshapeDirect(f, 2, &shape, in[0], out, 0).Union();
            break;
        case T::XNNArgMaxPooling2d:
            table = xf::CreateXNNArgMaxPooling2d(f, 0, 0, 0, 0, 2, 2, in[0], out, out2, 0).Union();
            break;
        case T::XNNLeakyReLU:
            table = xf::CreateXNNLeakyReLU(f, 0.25f, in[0], out, 0).Union();
            break;
        case T::XNNELU:
            table = xf::CreateXNNELU(f, 1.5f, in[0], out, 0).Union();
            break;
        case T::XNNConcatenate2:
        case T::XNNConcatenate3:
        case T::XNNConcatenate4:
        case T::XNNConcatenate5: {
            const int n = t == T::XNNConcatenate2 ? 2 : t == T::XNNConcatenate3 ? 3 : t == T::XNNConcatenate4 ? 4 : 5;
            auto id = [&](int i) { return i < n ? in[std::size_t(i)] : kNone; };
            table = xf::Create_XNNCat(f, 1, id(0), id(1), id(2), id(3), out, 0, id(4)).Union();
            break;
        }
        case T::XNNStaticSlice:
            table = xf::CreateXNNStaticSliceDirect(f, 2, &pads, &shape, in[0], out, 0).Union();
            break;
        case T::XNNScaledDotProductAttention:
            table = xf::CreateXNNScaledDotProductAttention(f, in[0], in[1], in[2], in[3], in[4], out, 0).Union();
            break;
        case T::XNNAdd:
        case T::XNNDiv:
        case T::XNNMinimum:
        case T::XNNMaximum:
        case T::XNNMultiply:
        case T::XNNSubtract:
        case T::XNNPReLU:
        case T::XNNBatchMatrixMultiply:
            table = xf::Create_XNNNode2x1(f, in[0], in[1], out, 0).Union();
            break;
        default:
            table = xf::Create_XNNNode1x1(f, in[0], out, 0).Union();
            break;
        }
        b.node(t, table, 42);
        const auto p = decode(b.finish());
        QVERIFY2(p.graphDecoded, diagnosticsText(p).c_str());
        QVERIFY2(p.diagnostics.empty(), diagnosticsText(p).c_str());
        QCOMPARE(p.nodes.size(), std::size_t(1));
        const auto& n = p.nodes[0];
        QCOMPARE(n.kind, kind.toStdString());
        QCOMPARE(n.rawKind, std::uint32_t(tag));
        QCOMPARE(roles(n.inputs), inputs.toStdString());
        QCOMPARE(n.debugHandles, std::vector<std::int64_t> { 42 });
        QVERIFY(!n.backendInserted());
        if (t == T::XNNArgMaxPooling2d)
            QCOMPARE(roles(n.outputs), std::string("output value,output index"));
        else
            QCOMPARE(roles(n.outputs), std::string("output"));
        if (!param.isEmpty()) {
            const auto kv = param.split('=');
            QCOMPARE(::param(n, kv[0].toStdString()), kv[1].toStdString());
        }
    }

    // A constant section that is not empty (generation 2): constants are offsets into it, resolved to views.
    void headerConstantSection()
    {
        XnnGraphBuilder b;
        const auto filterBytes = floatBytes({ 1, 2, 3, 4, 5, 6 });
        const auto biasBytes = floatBytes({ 0.5f, -0.5f });
        const auto x = b.input({ 1, 3 });
        const auto w = b.tensor({ 2, 3 }, xf::XNNDatatype::fp32, b.sectionConstant(filterBytes));
        const auto bias = b.tensor({ 2 }, xf::XNNDatatype::fp32, b.sectionConstant(biasBytes));
        const auto y = b.output({ 1, 2 });
        b.fullyConnected(x, w, bias, y, 3, std::pair { 0.0f, std::numeric_limits<float>::infinity() });
        const auto bytes = b.finish();
        const auto p = decode(bytes);
        QVERIFY2(p.graphDecoded && p.diagnostics.empty(), diagnosticsText(p).c_str());
        QCOMPARE(p.format, std::string("XH00 header + XN01 flatbuffer"));
        QCOMPARE(p.field("header length")->value, std::string("30"));
        QCOMPARE(p.field("flatbuffer offset")->value, std::string("32"));
        // Two 16-aligned constants: 24 bytes padded to 32, then 8 padded to 16.
        QCOMPARE(p.field("constant data size")->value, std::string("48"));
        const std::uint64_t sectionAt = std::stoull(p.field("constant data offset")->value);
        QCOMPARE(sectionAt + 48, std::uint64_t(bytes.size()));
        const auto* filter = p.value(w);
        QVERIFY(filter && filter->constant);
        QCOMPARE(filter->constant->source, ConstantSource::PayloadSection);
        QCOMPARE(filter->constant->index, std::uint32_t(1));
        QCOMPARE(filter->constant->offset, sectionAt);
        QCOMPARE(filter->constant->data.size(), filterBytes.size());
        QVERIFY(std::memcmp(filter->constant->data.data(), filterBytes.data(), filterBytes.size()) == 0);
        const auto* b2 = p.value(bias);
        QVERIFY(b2 && b2->constant);
        QCOMPARE(b2->constant->offset, sectionAt + 32);
        QVERIFY(std::memcmp(b2->constant->data.data(), biasBytes.data(), biasBytes.size()) == 0);
        // The view points into the payload: no copy of the weights.
        QCOMPARE(filter->constant->data.data(), p.bytes.data() + sectionAt);
        QCOMPARE(::param(p.nodes[0], "output_min_max"), std::string("(0, +inf)"));
        QCOMPARE(p.inputIds, std::vector<std::uint32_t> { x });
        QCOMPARE(p.outputIds, std::vector<std::uint32_t> { y });
        QVERIFY(p.value(x)->graphInput && p.value(x)->externalId == 0u);
        QVERIFY(p.value(y)->graphOutput && p.value(y)->externalId == 1u);
        QCOMPARE(p.regions.size(), std::size_t(3));
        QCOMPARE(p.regions[2].name, std::string("constant data"));
    }

    // The 2023 layout: a bare XN00 flatbuffer, constants inline in constant_buffer.
    void bareInlineConstants()
    {
        XnnGraphBuilder b;
        const auto data = floatBytes({ 7, 8, 9 });
        const auto x = b.input({ 3 });
        const auto c = b.tensor({ 3 }, xf::XNNDatatype::fp32, b.inlineConstant(data));
        const auto y = b.output({ 3 });
        b.binary(XnnGraphBuilder::Tag::XNNMultiply, x, c, y, 1);
        const auto p = decode(b.finish(false, "XN00"));
        QVERIFY2(p.graphDecoded && p.diagnostics.empty(), diagnosticsText(p).c_str());
        QCOMPARE(p.format, std::string("bare XN00 flatbuffer (no header, constants inline)"));
        const auto* v = p.value(c);
        QVERIFY(v && v->constant);
        QCOMPARE(v->constant->source, ConstantSource::InlineBuffer);
        QCOMPARE(v->constant->data.size(), data.size());
        QVERIFY(std::memcmp(v->constant->data.data(), data.data(), data.size()) == 0);
        // force_align 16 on Buffer.storage: the runtime relies on it.
        QCOMPARE(v->constant->offset % 16, std::uint64_t(0));
    }

    // Named constants: the program's named data first, then the .ptd; a key in neither is a warning.
    void namedConstants()
    {
        XnnGraphBuilder b;
        const auto x = b.input({ 2 });
        const auto inPte = b.tensor({ 2 }, xf::XNNDatatype::fp32, b.namedConstant("k-pte", 8));
        const auto inPtd = b.tensor({ 2 }, xf::XNNDatatype::fp32, b.namedConstant("k-ptd", 8));
        const auto missing = b.tensor({ 2 }, xf::XNNDatatype::fp32, b.namedConstant("k-none", 8));
        const auto s1 = b.tensor({ 2 });
        const auto s2 = b.tensor({ 2 });
        const auto y = b.output({ 2 });
        b.binary(XnnGraphBuilder::Tag::XNNAdd, x, inPte, s1, 1);
        b.binary(XnnGraphBuilder::Tag::XNNAdd, s1, inPtd, s2, 2);
        b.binary(XnnGraphBuilder::Tag::XNNAdd, s2, missing, y, 3);
        const auto bytes = b.finish();

        Program program;
        program.segments.push_back({});
        program.segments.back().data = Bytes::fromVector(floatBytes({ 1, 2 }));
        program.segments.back().size = 8;
        program.namedData = std::vector<NamedData> { { "k-pte", 0 } };
        ExternalData ptd;
        ExternalTensor t;
        t.key = "k-ptd";
        t.data = Bytes::fromVector(floatBytes({ 3, 4 }));
        ptd.tensors.emplace(t.key, t);
        const auto p = decode(bytes, { &program, &ptd, nullptr });
        QVERIFY(p.graphDecoded);
        QCOMPARE(p.value(inPte)->constant->source, ConstantSource::NamedData);
        QCOMPARE(p.value(inPte)->constant->data.data(), program.segments[0].data.data());
        QCOMPARE(p.value(inPtd)->constant->source, ConstantSource::ExternalData);
        QCOMPARE(p.value(inPtd)->constant->data.data(), ptd.tensors.at("k-ptd").data.data());
        QCOMPARE(p.value(missing)->constant->source, ConstantSource::Missing);
        QCOMPARE(p.value(missing)->constant->key, std::string("k-none"));
        QCOMPARE(p.diagnostics.size(), std::size_t(1));
        QCOMPARE(p.diagnostics[0].severity, Severity::Warning);
        QVERIFY(p.diagnostics[0].message.find("'k-none'") != std::string::npos);
        QCOMPARE(p.diagnostics[0].fieldPath, std::string("xvalues[3].constant_buffer_idx"));
        QVERIFY(p.field("constants")->value.find("3 named") != std::string::npos);
    }

    void quantizationParameters()
    {
        XnnGraphBuilder b;
        auto& f = b.fbb();
        const std::vector<float> inlineScales { 0.5f, 0.25f };
        // per-channel scales as a constant (fp32), per-group scales as a constant (bf16 of 1.0, 2.0, -0.5)
        const auto fp32Scales = b.sectionConstant(floatBytes({ 0.125f, 4.0f, 8.0f }));
        const auto bf16Scales = b.sectionConstant({ 0x80, 0x3f, 0x00, 0x40, 0x00, 0xbf });
        const auto perTensor = b.quantTensor({ 2, 8 }, xf::XNNDatatype::qint8, xf::XNNQuantParams::PerTensorQuant,
            xf::CreatePerTensorQuant(f, 0.0079f, -27).Union());
        const auto perChannel = b.quantTensor({ 2, 8 }, xf::XNNDatatype::qcint8, xf::XNNQuantParams::PerChannelQuant,
            xf::CreatePerChannelQuantDirect(f, &inlineScales, 0, 0, 0).Union());
        const auto perChannelBuf = b.quantTensor({ 3, 8 }, xf::XNNDatatype::qcint4, xf::XNNQuantParams::PerChannelQuant,
            xf::CreatePerChannelQuantDirect(f, nullptr, 0, fp32Scales, 3).Union());
        const auto perGroup =
            b.quantTensor({ 1, 64 }, xf::XNNDatatype::qbint4, xf::XNNQuantParams::PerChannelGroupQuant,
                xf::CreatePerChannelGroupQuantDirect(f, nullptr, 0, 32, nullptr, bf16Scales, 3).Union());
        const auto perToken = b.quantTensor({ 4, 8 }, xf::XNNDatatype::qdint8, xf::XNNQuantParams::PerTokenDynamicQuant,
            xf::CreatePerTokenDynamicQuant(f, 1).Union());
        const auto dq = b.tensor({ 4, 8 }, xf::XNNDatatype::fp32, 0, kNone, 0, xf::XNNDatatype::qdint8);
        const auto p = decode(b.finish());
        QVERIFY2(p.graphDecoded && p.diagnostics.empty(), diagnosticsText(p).c_str());
        const auto& t = *p.value(perTensor);
        QCOMPARE(t.kind, std::string("quantized tensor"));
        QCOMPARE(t.dtype, std::string("qint8"));
        QCOMPARE(t.quant->kind, QuantParams::Kind::PerTensor);
        QCOMPARE(t.quant->scale, 0.0079f);
        QCOMPARE(t.quant->zeroPoint, -27);
        const auto& c = *p.value(perChannel);
        QCOMPARE(c.quant->kind, QuantParams::Kind::PerChannel);
        QCOMPARE(c.quant->scales, inlineScales);
        QCOMPARE(c.quant->zeroPoint, 0);
        const auto& cb = *p.value(perChannelBuf);
        QCOMPARE(cb.quant->scaleBufferIdx, fp32Scales);
        QCOMPARE(cb.quant->scales, (std::vector<float> { 0.125f, 4.0f, 8.0f }));
        QCOMPARE(cb.quant->zeroPoint, 8); // 4-bit per channel implies 8
        const auto& g = *p.value(perGroup);
        QCOMPARE(g.quant->kind, QuantParams::Kind::PerChannelGroup);
        QCOMPARE(g.quant->groupSize, 32);
        QCOMPARE(g.quant->scales, (std::vector<float> { 1.0f, 2.0f, -0.5f }));
        const auto& k = *p.value(perToken);
        QCOMPARE(k.quant->kind, QuantParams::Kind::PerTokenDynamic);
        QCOMPARE(k.quant->numNonbatchDims, 1);
        const auto& d = *p.value(dq);
        QCOMPARE(d.attributes.size(), std::size_t(1));
        QCOMPARE(d.attributes[0].name, std::string("dq_datatype"));
        QCOMPARE(d.attributes[0].value, std::string("qdint8"));
    }

    // Broken headers and flatbuffers: an Error diagnostic with the payload offset, no graph, no crash.
    void malformed_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<int>("code");
        QTest::addColumn<qint64>("offset");
        auto asBytes = [](const std::vector<std::uint8_t>& v) {
            return QByteArray(reinterpret_cast<const char*>(v.data()), qsizetype(v.size()));
        };
        const auto good = addPayload();
        auto patched = [&](std::size_t at, std::uint32_t value, int width) {
            auto v = good;
            if (width == 2)
                putU16(v, at, std::uint16_t(value));
            else
                putU32(v, at, value);
            return asBytes(v);
        };
        QTest::addRow("header-truncated")
            << asBytes({ 0, 0, 0, 0, 'X', 'H', '0', '0', 30, 0 }) << int(ErrorCode::Truncated) << qint64(0);
        QTest::addRow("header-length-short") << patched(8, 20, 2) << int(ErrorCode::BadExtendedHeader) << qint64(8);
        QTest::addRow("flatbuffer-past-end") << patched(14, 1u << 20, 4) << int(ErrorCode::Truncated) << qint64(10);
        QTest::addRow("constants-before-flatbuffer-end")
            << patched(18, 40, 4) << int(ErrorCode::InvalidProgram) << qint64(18);
        QTest::addRow("constants-past-end") << patched(18, 1u << 20, 4) << int(ErrorCode::Truncated) << qint64(18);
        QTest::addRow("flatbuffer-too-small") << patched(14, 4, 4) << int(ErrorCode::Truncated) << qint64(32);
        auto wrongId = good;
        std::memcpy(wrongId.data() + 36, "XN99", 4);
        QTest::addRow("identifier") << asBytes(wrongId) << int(ErrorCode::NotAPteFile) << qint64(36);
        auto garbage = good;
        for (std::size_t i = 40; i < garbage.size(); ++i)
            garbage[i] = std::uint8_t(0xA5 ^ i);
        QTest::addRow("garbage-flatbuffer") << asBytes(garbage) << int(ErrorCode::VerificationFailed) << qint64(32);
        QTest::addRow("bare-garbage") << QByteArray("\0\0\0\0XN01\x01\x02\x03\x04", 12)
                                      << int(ErrorCode::VerificationFailed) << qint64(0);
    }

    void malformed()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(int, code);
        QFETCH(qint64, offset);
        const std::vector<std::uint8_t> v(bytes.begin(), bytes.end());
        const auto p = decode(v);
        QCOMPARE(p.kind, PayloadKind::XnnpackGraph);
        QVERIFY(!p.graphDecoded);
        QVERIFY(p.nodes.empty());
        QVERIFY2(hasError(p, ErrorCode(code)), diagnosticsText(p).c_str());
        QCOMPARE(p.diagnostics.front().offset, std::optional<std::uint64_t>(std::uint64_t(offset)));
        QVERIFY(p.diagnostics.front().message.starts_with("test.pte: delegate: "));
    }

    // Every truncation of a valid payload is either refused with a finding or (when only trailing padding of a bare
    // flatbuffer was cut) decodes to the same graph: never a crash, never a different graph.
    void everyTruncation()
    {
        for (const bool header : { true, false }) {
            const auto good = addPayload(header);
            const auto full = decode(good);
            QVERIFY(full.graphDecoded);
            for (std::size_t n = 0; n < good.size(); ++n) {
                const std::vector<std::uint8_t> cut(good.begin(), good.begin() + std::ptrdiff_t(n));
                const auto p = decode(cut);
                if (p.graphDecoded) {
                    QVERIFY2(!header && n + 8 > good.size(), std::to_string(n).c_str());
                    QCOMPARE(p.nodes.size(), full.nodes.size());
                    QCOMPARE(p.values.size(), full.values.size());
                    QCOMPARE(p.nodes[0].kind, full.nodes[0].kind);
                } else {
                    QVERIFY2(!p.diagnostics.empty(), std::to_string(n).c_str());
                }
            }
        }
    }

    // References inside a valid flatbuffer that do not resolve: findings, the rest still decoded.
    void danglingReferences()
    {
        XnnGraphBuilder b;
        const auto x = b.input({ 2 });
        const auto y = b.output({ 2 });
        b.binary(XnnGraphBuilder::Tag::XNNAdd, x, 99, y, 1); // value 99 does not exist
        b.node(xf::XNodeUnion(60), xf::Create_XNNNode1x1(b.fbb(), x, y, 0).Union(), 2); // a tag from the future
        const auto c = b.tensor({ 2 }, xf::XNNDatatype::fp32, 7); // constant 7 does not exist
        const auto p = decode(b.finish());
        QVERIFY(p.graphDecoded);
        QCOMPARE(p.nodes.size(), std::size_t(2));
        QCOMPARE(p.nodes[0].kind, std::string("Add"));
        QCOMPARE(p.nodes[1].kind, std::string("node kind 60"));
        QVERIFY(hasError(p, ErrorCode::Unsupported));
        QCOMPARE(p.value(c)->constant->source, ConstantSource::Missing);
        const std::string text = diagnosticsText(p);
        QVERIFY2(text.find("names value 99") != std::string::npos, text.c_str());
        QVERIFY2(text.find("constant 7 is out of range") != std::string::npos, text.c_str());
    }

    // A payload's own bytes, unaligned in memory, still decode (the flatbuffer is copied to an aligned buffer).
    void unalignedPayload()
    {
        const auto good = addPayload();
        std::vector<std::uint8_t> shifted(good.size() + 3);
        std::copy(good.begin(), good.end(), shifted.begin() + 3);
        const auto owner = Bytes::fromVector(shifted);
        const auto view = owner.slice(3, good.size());
        const auto p = decodeDelegatePayload("XnnpackBackend", view, {}, {}, "unaligned");
        QVERIFY2(p.graphDecoded, diagnosticsText(p).c_str());
        QCOMPARE(p.nodes.size(), std::size_t(1));
    }
};

QTEST_APPLESS_MAIN(TestDelegatePayload)
#include "tst_delegatepayload.moc"
