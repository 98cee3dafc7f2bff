// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// The reference interpreter's XNNPACK graphs against ExecuTorch's XNNPACK backend: every corpus program with XNNPACK
// delegates runs on etrt_runner_xnnpack and on pte::runMethod (which interprets the delegates' inner graphs) from the
// same inputs (test::sampleInputs, given to the runner with --inputs), and every output must agree within the
// tolerance of the operator families the program's graphs use (kTolerances below). A program that still holds a node
// the interpreter cannot run must be listed in kExpectedUnsupported with the node kind and why; one listed there
// that runs fails too, so the list cannot go stale. Also: `ptelens-cli run` goes through the delegates.
// Skipped without the corpus or the runner; fails in CI (CI=true) instead.
#include "../core/delegatetestutils.h"
#include "../core/dumptestutils.h"
#include "etrunner.h"
#include "executiontestutils.h"
#include "pte/delegatepayload.h"
#include "pte/dumpreader.h"
#include "pte/interpreterrun.h"
#include "pte/ptereader.h"
#include "pte/runvalues.h"
#include "testutils.h"

#include <QFile>
#include <QTest>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <numeric>
#include <set>

using namespace pte;
using Json = nlohmann::json;

namespace {

using namespace pte::test;
using namespace pte::test::xnnpackfixtures;

/**
 * Tolerances per operator family, from what the program's XNNPACK graphs hold (graphFacts): an element passes when
 * |runtime - reference| <= rtol * |reference| + atol, with eps = 2^-24 (fp32's unit roundoff) and
 *
 *   rtol = 8 eps (1 + D)                      D: the reduction nodes (convolutions, fully connected, averages)
 *   atol = 16 sqrt(D) sqrt(K) eps max|output| + step
 *                                             K: the longest reduction (kernel h x kernel w x group input channels,
 *                                                input channels, pooled elements); step: a qint8 quantization step
 *
 * Why: the reference computes each float operator exactly (in double) and rounds its output to fp32 once.
 * Elementwise operators (add, multiply, copy, transpose, concatenate, max pooling, quantize/dequantize) are one
 * rounding of the same exact value in XNNPACK too, so graphs of those only agree bit for bit (D = 0: rtol 8 eps,
 * atol 0; its sigmoid is a polynomial within a few ulp: the 8 eps per node). Reductions are where XNNPACK differs:
 * its GEMM/IGEMM/DWCONV and pooling microkernels sum K terms in fp32, in blocked order and with FMA, an error of
 * about sqrt(K) eps times the terms' magnitude in practice (K eps at worst), relative to the output's scale since
 * terms cancel (an output near 0 gets the floor, not a relative bound). Errors of D reductions in sequence add up
 * like a random walk (sqrt(D)), and the 16 covers terms larger than the result and the steepness of sigmoid and
 * products in between (YOLOX: D = 113, K = 512, observed 2.7e-4 at max|output| 3.45, a third of the tolerance). A real
 * bug (an index, padding, stride or parameter wrong) moves outputs by 1e-2 relative or more, far above these. Static
 * qint8 graphs round to an integer grid: where XNNPACK's fp32 requantization and the reference's land on the two
 * sides of a rounding boundary the output differs by one quantization step of the dequantized output.
 */
struct GraphFacts
{
    std::size_t reductions = 0; ///< D
    std::size_t longest = 0; ///< K
    double step = 0; ///< the largest quantization step of a value dequantized into a graph output
    std::set<std::string> kinds;
};

std::string number(double v)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.9g", v);
    return buf;
}

/** The unsigned integers of a node parameter's text ("3x3" -> 3, 3). */
std::vector<std::size_t> integers(const InnerNode& n, const std::string& name)
{
    std::vector<std::size_t> out;
    for (const auto& p : n.params) {
        if (p.name != name)
            continue;
        std::size_t v = 0;
        bool in = false;
        for (const char c : p.value + " ") {
            if (c >= '0' && c <= '9') {
                v = v * 10 + std::size_t(c - '0');
                in = true;
            } else if (in) {
                out.push_back(v);
                v = 0;
                in = false;
            }
        }
    }
    return out;
}

std::size_t product(const std::vector<std::uint32_t>& dims)
{
    std::size_t n = 1;
    for (const auto d : dims)
        n *= d;
    return n;
}

GraphFacts graphFacts(const PteFile& file)
{
    GraphFacts f;
    const PayloadDataSources sources { file.program.get(), file.externalData ? &*file.externalData : nullptr, nullptr };
    for (const auto& d : decodeProgramDelegates(*file.program, sources, "")) {
        const DelegatePayload& p = *d.payload;
        for (const auto& n : p.nodes) {
            f.kinds.insert(n.kind);
            const InnerValue* out = n.outputs.empty() ? nullptr : p.value(n.outputs.front().valueId);
            const InnerValue* in = n.inputs.empty() ? nullptr : p.value(n.inputs.front().valueId);
            std::size_t k = 0;
            if (n.kind == "Conv2d" || n.kind == "DepthwiseConv2d") {
                const auto kernel = integers(n, "kernel");
                const auto gic = integers(n, "group_input_channels");
                if (kernel.size() == 2 && gic.size() == 1)
                    k = kernel[0] * kernel[1] * gic[0];
            } else if (n.kind == "FullyConnected" && n.inputs.size() >= 2 && out && !out->dims.empty()) {
                if (const InnerValue* w = p.value(n.inputs[1].valueId))
                    k = product(w->dims) / std::max<std::size_t>(out->dims.back(), 1);
            } else if ((n.kind == "GlobalAvgPooling2d" || n.kind == "Softmax") && in && in->dims.size() >= 2) {
                k = n.kind == "Softmax"
                    ? in->dims.back()
                    : product(in->dims) / std::max<std::size_t>(in->dims.front() * in->dims.back(), 1);
            } else if (n.kind == "AvgPooling2d") {
                const auto pooling = integers(n, "pooling");
                if (pooling.size() == 2)
                    k = pooling[0] * pooling[1];
            }
            if (k) {
                ++f.reductions;
                f.longest = std::max(f.longest, k);
            }
            if (n.kind == "Convert" && in && in->quant && out && out->graphOutput)
                f.step = std::max(f.step, double(in->quant->scale));
        }
    }
    return f;
}

struct Fixture
{
    const QString* program;
    const char* name;
};

const QString kQuantized = QStringLiteral("pte/corey-cole_executorch-numpy-runtime__tests__models__quantized.pte");
const QString kDynamic = QStringLiteral("pte/corey-cole_executorch-numpy-runtime__tests__models__dynamic.pte");
const QString kAdd2023 = QStringLiteral("pte/pytorch_executorch__xnnpack_add.pte");

/** Every corpus program with XNNPACK delegates. */
const Fixture kFixtures[] = {
    { &kYolox, "yolox_nano_xnnpack" },
    { &kStressMlp, "stress_mlp" },
    { &kSimpleConv, "xnnpack_simpleconv" },
    { &kSimpleModel, "simple-torch-model" },
    { &kQuantized, "quantized" },
    { &kDynamic, "dynamic" },
    { &kAdd2023, "xnnpack_add (2023)" },
};

/** Programs with a node the interpreter cannot run yet: fixture name -> node kind and why. Empty: all run. */
const std::map<std::string, std::string> kExpectedUnsupported = {};

using T = XnnGraphBuilder::Tag;

/** A graph built node by node over delegate_edge.json's two float32 [2, 2] inputs x and y, to one [2, 2] output. */
using GraphBuilder = std::function<void(XnnGraphBuilder& b, std::uint32_t x, std::uint32_t y, std::uint32_t out)>;

/** out = kind(x), or kind(|x|) for the kinds defined on non-negative numbers only. */
GraphBuilder unaryOf(T kind, bool nonNegative = false)
{
    return [kind, nonNegative](XnnGraphBuilder& b, std::uint32_t x, std::uint32_t, std::uint32_t out) {
        std::uint32_t in = x;
        if (nonNegative) {
            in = b.tensor({ 2, 2 });
            b.unary(T::XNNAbs, x, in, 1);
        }
        b.unary(kind, in, out, 2);
    };
}

GraphBuilder binaryOf(T kind)
{
    return [kind](XnnGraphBuilder& b, std::uint32_t x, std::uint32_t y, std::uint32_t out) {
        b.binary(kind, x, y, out, 1);
    };
}

/** x as [1, 2, 2, 1] (NHWC, one channel). */
std::uint32_t asImage(XnnGraphBuilder& b, std::uint32_t x)
{
    const std::vector<std::uint32_t> shape { 1, 2, 2, 1 };
    const auto r = b.tensor(shape);
    b.node(T::XNNStaticReshape, xf::CreateXNNStaticReshapeDirect(b.fbb(), 4, &shape, x, r, 0).Union(), 1);
    return r;
}
/** A [1, 2, 2, 1] image back to [2, 2] into `out`. */
void fromImage(XnnGraphBuilder& b, std::uint32_t image, std::uint32_t out)
{
    const std::vector<std::uint32_t> shape { 2, 2 };
    b.node(T::XNNStaticReshape, xf::CreateXNNStaticReshapeDirect(b.fbb(), 2, &shape, image, out, 0).Union(), 9);
}
void pooling(XnnGraphBuilder& b, T kind, std::uint32_t in, std::uint32_t out, std::uint32_t window, std::uint32_t pad)
{
    b.node(
        kind, xf::Create_XNNPooling2D(b.fbb(), pad, pad, pad, pad, window, window, 1, 1, 1, 1, in, out, 0).Union(), 3);
}

/** A graph over x and y, with the float weights its constant "weights_0" holds (none: no constant). */
struct BuiltGraph
{
    const char* name;
    GraphBuilder build;
    std::vector<float> weights;
    std::vector<std::int8_t> int8Weights; ///< or these, for quantized filters
    /** A quantized graph's output step (1/32): XNNPACK's requantization may round the other way at a tie. */
    double step = 0;
};

/** x quantized to qint8 per tensor (scale 1/64, zero point -3), through a Convert. */
std::uint32_t quantized(XnnGraphBuilder& b, std::uint32_t x, std::vector<std::uint32_t> dims)
{
    const auto q = b.quantTensor(std::move(dims), xf::XNNDatatype::qint8, xf::XNNQuantParams::PerTensorQuant,
        xf::CreatePerTensorQuant(b.fbb(), 1.f / 64, -3).Union());
    b.unary(T::XNNConvert, x, q, 1);
    return q;
}
/** A qint8 per-tensor value (scale 1/32, zero point 5) for a quantized node's output. */
std::uint32_t quantizedOutput(XnnGraphBuilder& b, std::vector<std::uint32_t> dims)
{
    return b.quantTensor(std::move(dims), xf::XNNDatatype::qint8, xf::XNNQuantParams::PerTensorQuant,
        xf::CreatePerTensorQuant(b.fbb(), 1.f / 32, 5).Union());
}
/** A qcint8 filter in weights_0 with one scale per output channel (dim 0). */
std::uint32_t perChannelFilter(XnnGraphBuilder& b, std::vector<std::uint32_t> dims, std::vector<float> scales)
{
    const std::uint32_t n = std::accumulate(dims.begin(), dims.end(), 1u, std::multiplies<>());
    return b.quantTensor(std::move(dims), xf::XNNDatatype::qcint8, xf::XNNQuantParams::PerChannelQuant,
        xf::CreatePerChannelQuantDirect(b.fbb(), &scales, 0, 0, 0).Union(), b.namedConstant("weights_0", n));
}

/** The graphs of builtGraphsMatchRuntime: the node kinds the corpus does not use, each as XNNPACK runs it. */
const std::vector<BuiltGraph>& builtGraphs()
{
    static const std::vector<BuiltGraph> graphs = {
        { "Hardswish", unaryOf(T::XNNHardswish) },
        { "Sigmoid", unaryOf(T::XNNSigmoid) },
        { "Tanh", unaryOf(T::XNNTanh) },
        { "Exp", unaryOf(T::XNNExp) },
        { "Log", unaryOf(T::XNNLog, true) },
        { "SquareRoot", unaryOf(T::XNNSquareRoot, true) },
        { "ReciprocalSquareRoot", unaryOf(T::XNNReciprocalSquareRoot, true) },
        { "Abs", unaryOf(T::XNNAbs) },
        { "Negate", unaryOf(T::XNNNegate) },
        { "Square", unaryOf(T::XNNSquare) },
        { "Floor", unaryOf(T::XNNFloor) },
        { "Ceiling", unaryOf(T::XNNCeiling) },
        { "Gelu", unaryOf(T::XNNGelu) },
        { "Sin", unaryOf(T::XNNSin) },
        { "Cos", unaryOf(T::XNNCos) },
        { "Copy", unaryOf(T::XNNCopy) },
        { "Softmax", unaryOf(T::XNNSoftmax) },
        { "Subtract", binaryOf(T::XNNSubtract) },
        { "Div", binaryOf(T::XNNDiv) },
        { "Minimum", binaryOf(T::XNNMinimum) },
        { "Maximum", binaryOf(T::XNNMaximum) },
        { "Clamp",
            [](XnnGraphBuilder& b, std::uint32_t x, std::uint32_t, std::uint32_t out) {
                b.node(T::XNNClamp, xf::Create_XNNNode1x1(b.fbb(), x, out, 0).Union(), 1, std::pair { -0.5f, 0.75f });
            } },
        { "LeakyReLU",
            [](XnnGraphBuilder& b, std::uint32_t x, std::uint32_t, std::uint32_t out) {
                b.node(T::XNNLeakyReLU, xf::CreateXNNLeakyReLU(b.fbb(), 0.125f, x, out, 0).Union(), 1);
            } },
        { "ELU",
            [](XnnGraphBuilder& b, std::uint32_t x, std::uint32_t, std::uint32_t out) {
                b.node(T::XNNELU, xf::CreateXNNELU(b.fbb(), 0.5f, x, out, 0).Union(), 1);
            } },
        { "Concatenate2 + StaticSlice",
            [](XnnGraphBuilder& b, std::uint32_t x, std::uint32_t y, std::uint32_t out) {
                const auto c = b.tensor({ 2, 4 });
                b.node(T::XNNConcatenate2, xf::Create_XNNCat(b.fbb(), 1, x, y, 0, 0, c, 0, 0).Union(), 1);
                const std::vector<std::uint32_t> offsets { 0, 1 }, sizes { 2, 2 };
                b.node(T::XNNStaticSlice,
                    xf::CreateXNNStaticSliceDirect(b.fbb(), 2, &offsets, &sizes, c, out, 0).Union(), 2);
            } },
        { "StaticTranspose",
            [](XnnGraphBuilder& b, std::uint32_t x, std::uint32_t, std::uint32_t out) {
                const std::vector<std::uint32_t> perm { 1, 0 };
                b.node(
                    T::XNNStaticTranspose, xf::CreateXNNStaticTransposeDirect(b.fbb(), 2, &perm, x, out, 0).Union(), 1);
            } },
        { "StaticConstantPad + AvgPooling2d",
            [](XnnGraphBuilder& b, std::uint32_t x, std::uint32_t, std::uint32_t out) {
                const auto image = asImage(b, x);
                const std::vector<std::uint32_t> pre { 0, 1, 1, 0 }, post { 0, 1, 1, 0 };
                const auto padded = b.tensor({ 1, 4, 4, 1 });
                b.node(T::XNNStaticConstantPad,
                    xf::CreateXNNStaticConstantPadDirect(b.fbb(), &pre, &post, 0.5f, image, padded, 0).Union(), 2);
                const auto pooled = b.tensor({ 1, 2, 2, 1 });
                pooling(b, T::XNNAvgPooling2d, padded, pooled, 3, 0);
                fromImage(b, pooled, out);
            } },
        { "MaxPooling2d (padded)",
            [](XnnGraphBuilder& b, std::uint32_t x, std::uint32_t, std::uint32_t out) {
                const auto pooled = b.tensor({ 1, 2, 2, 1 });
                pooling(b, T::XNNMaxPooling2d, asImage(b, x), pooled, 3, 1);
                fromImage(b, pooled, out);
            } },
        { "StaticResizeBilinear2D",
            [](XnnGraphBuilder& b, std::uint32_t x, std::uint32_t, std::uint32_t out) {
                const auto big = b.tensor({ 1, 5, 3, 1 });
                b.node(T::XNNStaticResizeBilinear2D,
                    xf::CreateXNNStaticResizeBilinear2D(b.fbb(), 5, 3, asImage(b, x), big, 0).Union(), 2);
                const auto pooled = b.tensor({ 1, 2, 2, 1 });
                b.node(T::XNNMaxPooling2d,
                    xf::Create_XNNPooling2D(b.fbb(), 0, 0, 0, 0, 2, 2, 3, 1, 1, 1, big, pooled, 0).Union(), 3);
                fromImage(b, pooled, out);
            } },
        { "StaticResizeBilinear2D (align corners)",
            [](XnnGraphBuilder& b, std::uint32_t x, std::uint32_t, std::uint32_t out) {
                const auto big = b.tensor({ 1, 5, 3, 1 });
                b.node(T::XNNStaticResizeBilinear2D,
                    xf::CreateXNNStaticResizeBilinear2D(b.fbb(), 5, 3, asImage(b, x), big, 0x8).Union(), 2);
                const auto pooled = b.tensor({ 1, 2, 2, 1 });
                b.node(T::XNNMaxPooling2d,
                    xf::Create_XNNPooling2D(b.fbb(), 0, 0, 0, 0, 2, 2, 3, 1, 1, 1, big, pooled, 0).Union(), 3);
                fromImage(b, pooled, out);
            } },
        { "GlobalAvgPooling2d + broadcast Multiply",
            [](XnnGraphBuilder& b, std::uint32_t x, std::uint32_t y, std::uint32_t out) {
                const auto g = b.tensor({ 1, 1, 1, 1 });
                b.unary(T::XNNGlobalAvgPooling2d, asImage(b, x), g, 2, 0x40);
                const std::vector<std::uint32_t> shape { 1, 1 };
                const auto g2 = b.tensor({ 1, 1 });
                b.node(T::XNNStaticReshape, xf::CreateXNNStaticReshapeDirect(b.fbb(), 2, &shape, g, g2, 0).Union(), 3);
                b.binary(T::XNNMultiply, y, g2, out, 4);
            } },
        { "FullyConnected (transposed weights)",
            [](XnnGraphBuilder& b, std::uint32_t x, std::uint32_t, std::uint32_t out) {
                const auto w = b.tensor({ 2, 2 }, xf::XNNDatatype::fp32, b.namedConstant("weights_0", 16));
                b.node(T::XNNFullyConnected, xf::CreateXNNFullyConnected(b.fbb(), x, w, kNone, out, 0x1).Union(), 1,
                    std::pair { -2.f, 2.f });
            },
            { 1.5f, -2, 0.25f, 3 } },
        { "Conv2d (padded, 2 channels out of 1)",
            [](XnnGraphBuilder& b, std::uint32_t x, std::uint32_t, std::uint32_t out) {
                const auto filter = b.tensor({ 2, 3, 3, 1 }, xf::XNNDatatype::fp32, b.namedConstant("weights_0", 72));
                const auto conv = b.tensor({ 1, 2, 2, 2 });
                b.conv(T::XNNConv2d, asImage(b, x), filter, kNone, conv, 3, 1, 1, 1, 2, 2);
                // out = channel 0 + channel 1.
                const std::vector<std::uint32_t> o0 { 0, 0, 0, 0 }, o1 { 0, 0, 0, 1 }, sz { 1, 2, 2, 1 };
                const auto c0 = b.tensor({ 1, 2, 2, 1 });
                const auto c1 = b.tensor({ 1, 2, 2, 1 });
                b.node(T::XNNStaticSlice, xf::CreateXNNStaticSliceDirect(b.fbb(), 4, &o0, &sz, conv, c0, 0).Union(), 3);
                b.node(T::XNNStaticSlice, xf::CreateXNNStaticSliceDirect(b.fbb(), 4, &o1, &sz, conv, c1, 0).Union(), 4);
                const auto sum = b.tensor({ 1, 2, 2, 1 });
                b.binary(T::XNNAdd, c0, c1, sum, 5);
                fromImage(b, sum, out);
            },
            { 0.5f, -0.75f, 0.25f, 1, -1.25f, 0.125f, 2, -0.5f, 0.75f, -1, 1.5f, 0.375f, -0.25f, 0.625f, -2, 1.25f,
                0.875f, -0.375f } },
        { "quantized FullyConnected (qint8, per-channel qcint8 filter)",
            [](XnnGraphBuilder& b, std::uint32_t x, std::uint32_t, std::uint32_t out) {
                const auto q = quantized(b, x, { 2, 2 });
                const auto w = perChannelFilter(b, { 2, 2 }, { 0.02f, 0.035f });
                const auto qo = quantizedOutput(b, { 2, 2 });
                b.node(T::XNNFullyConnected, xf::CreateXNNFullyConnected(b.fbb(), q, w, kNone, qo, 0).Union(), 2);
                b.unary(T::XNNConvert, qo, out, 3);
            },
            {}, { 100, -57, 23, 127 }, 1.0 / 32 },
        { "quantized Conv2d (qint8, per-channel qcint8 filter, ReLU)",
            [](XnnGraphBuilder& b, std::uint32_t x, std::uint32_t, std::uint32_t out) {
                const auto q = quantized(b, asImage(b, x), { 1, 2, 2, 1 });
                const auto w = perChannelFilter(b, { 1, 3, 3, 1 }, { 0.01f });
                const auto qo = quantizedOutput(b, { 1, 2, 2, 1 });
                b.conv(T::XNNConv2d, q, w, kNone, qo, 3, 1, 1, 1, 1, 2, std::pair { 0.f, 100.f });
                const auto f = b.tensor({ 1, 2, 2, 1 });
                b.unary(T::XNNConvert, qo, f, 3);
                fromImage(b, f, out);
            },
            {}, { 90, -120, 33, 7, 127, -64, 50, -1, 77 }, 1.0 / 32 },
    };
    return graphs;
}

/** Graphs with a node the interpreter does not run: it must stop naming that node (kind and index). */
const std::vector<BuiltGraph>& unsupportedGraphs()
{
    static const std::vector<BuiltGraph> graphs = {
        { "PReLU", binaryOf(T::XNNPReLU) },
    };
    return graphs;
}

/** delegate_edge.json with the graph as its payload and its weights as the named data "weights_0" (in place of the
 *  dump's 4 bytes 1, 2, 3, 4), emitted: out = delegate(x, y) * y. */
Result<test::Emitted> emitBuilt(const BuiltGraph& graph)
{
    const char* name = graph.name;
    const GraphBuilder& build = graph.build;
    XnnGraphBuilder b;
    const auto x = b.input({ 2, 2 });
    const auto y = b.input({ 2, 2 });
    const auto out = b.output({ 2, 2 });
    build(b, x, y, out);
    QByteArray json = withPayload(readDumpData(QStringLiteral("delegate_edge.json")), b.finish());
    if (json.isEmpty() || json.count("AQIDBA==") != 1)
        return fail(ErrorCode::Internal, "delegate_edge.json does not carry the stock payload and weights_0");
    if (!graph.weights.empty())
        json.replace("AQIDBA==",
            QByteArray(reinterpret_cast<const char*>(graph.weights.data()), qsizetype(4 * graph.weights.size()))
                .toBase64());
    else if (!graph.int8Weights.empty())
        json.replace("AQIDBA==",
            QByteArray(reinterpret_cast<const char*>(graph.int8Weights.data()), qsizetype(graph.int8Weights.size()))
                .toBase64());
    const QString path =
        test::tempDir() + QStringLiteral("/built_") + QString::number(qHash(QByteArray(name))) + ".json";
    if (!writeFile(path, json))
        return fail(ErrorCode::Io, "cannot write " + path.toStdString());
    PTE_TRY(auto dump, readDump(path.toStdString()));
    EmitOptions options;
    options.zeroFillMissingWeights = true;
    return test::emitAndReload(dump->methods, std::string("built_") + name, options);
}

void requireXnnpackRunner()
{
    if (test::etRunnerXnnpackPath().isEmpty()) {
        if (test::inCi())
            QFAIL("ExecuTorch's runtime with XNNPACK (etrt_runner_xnnpack) not found: PTELENS_ET_RUNNER_XNNPACK");
        QSKIP("ExecuTorch's runtime with XNNPACK (etrt_runner_xnnpack) not found: set PTELENS_ET_RUNNER_XNNPACK "
              "(default ../shared/tools/etrt_runner_xnnpack beside the repository)");
    }
}

} // namespace

class TestXnnpackInterpreter : public QObject
{
    Q_OBJECT

private slots:
    void matchesRuntime_data()
    {
        QTest::addColumn<int>("fixture");
        if (!test::corpusRowsAvailable())
            return;
        for (int i = 0; i < int(std::size(kFixtures)); ++i)
            QTest::newRow(("corpus " + std::string(kFixtures[i].name)).c_str()) << i;
    }

    void matchesRuntime()
    {
        PTE_REQUIRE_CORPUS_ROW();
        requireXnnpackRunner();
        QFETCH(int, fixture);
        const Fixture& f = kFixtures[fixture];
        const QString path = test::corpusPath(*f.program);
        auto file = readPteFile(path.toStdString());
        QVERIFY2(file, file ? "" : file.error().toString().c_str());
        const Program& program = *(*file)->program;
        const auto unsupported = kExpectedUnsupported.find(f.name);
        const GraphFacts facts = graphFacts(**file);
        constexpr double eps = 1.0 / (1 << 24);
        const double D = double(facts.reductions);
        const double rtol = 8 * eps * (1 + D);
        const double floor = 16 * std::sqrt(D) * std::sqrt(double(facts.longest)) * eps;
        std::string kinds;
        for (const auto& k : facts.kinds)
            kinds += (kinds.empty() ? "" : ", ") + k;
        qInfo("%s: %zu reductions (D), longest K = %zu, quantization step %g; node kinds: %s", f.name, facts.reductions,
            facts.longest, facts.step, kinds.c_str());

        for (const auto& plan : program.executionPlan) {
            const std::string where = std::string(f.name) + " method " + plan.name;
            const auto inputs = test::sampleInputs(plan);
            test::RunnerOptions options;
            options.xnnpack = true;
            options.methods = std::vector<std::string> { plan.name };
            options.inputs[plan.name] = test::runnerInputs(plan, inputs);
            auto runtime = test::runEtRunner(path.toStdString(), options);
            QVERIFY2(runtime, runtime ? "" : runtime.error().message.c_str());
            const auto rm = runtime->methods.find(plan.name);
            QVERIFY2(runtime->exitCode == 0 && rm != runtime->methods.end() && rm->second.execute == "Ok",
                (where + ": the runtime does not run it: " + runtime->message()).c_str());

            RunOptions runOptions;
            runOptions.external = (*file)->externalData ? &*(*file)->externalData : nullptr;
            const MethodRun run = runMethod(program, plan.name, inputs, runOptions);
            if (unsupported != kExpectedUnsupported.end()) {
                QVERIFY2(
                    !run.ok(), (where + ": listed as unsupported (" + unsupported->second + ") but it runs").c_str());
                const auto& e = run.executions.back();
                const std::string message = e.error ? e.error->message : std::string();
                QVERIFY2(e.stop == RunStop::Unsupported && message.find("XNNPACK node") != std::string::npos,
                    (where + ": expected to stop at an unsupported XNNPACK node, got: " + message).c_str());
                qInfo("%s: unsupported as expected: %s", where.c_str(), message.c_str());
                continue;
            }
            QVERIFY2(run.ok(),
                (where + ": the reference interpreter stops: "
                    + (run.loadError ? run.loadError->message
                                     : (run.executions.back().error ? run.executions.back().error->message : "?")))
                    .c_str());
            const auto& reference = run.executions.back().outputs;
            const auto& outputs = rm->second.outputs;
            QCOMPARE(reference.size(), outputs.size());
            for (std::size_t k = 0; k < outputs.size(); ++k) {
                const auto& r = outputs[k];
                const auto& h = reference[k];
                const std::string what = where + " output " + std::to_string(k);
                QVERIFY2(r.sizes == h.sizes, (what + ": sizes differ").c_str());
                QCOMPARE(r.values.size(), h.values.size());
                double scale = 0;
                for (const double v : h.values)
                    if (std::isfinite(v))
                        scale = std::max(scale, std::fabs(v));
                const double atol = floor * scale + facts.step;
                double maxError = 0, maxShare = 0; // the largest error, the largest error / allowed
                for (std::size_t e = 0; e < r.values.size(); ++e) {
                    // The runner prints floats with 9 significant digits, which round-trip through fp32.
                    const double a = double(float(r.values[e]));
                    const double b = double(float(h.values[e]));
                    if ((std::isnan(a) && std::isnan(b)) || a == b)
                        continue;
                    const double error = std::fabs(a - b);
                    const double allowed = rtol * std::fabs(b) + atol;
                    maxError = std::max(maxError, error);
                    maxShare = std::max(maxShare, allowed > 0 ? error / allowed : 1.0);
                    if (!(error <= allowed * (1 + 1e-12)))
                        QFAIL((what + " element " + std::to_string(e) + ": runtime " + number(a) + ", reference "
                            + number(b) + ", error " + number(error) + " above " + number(allowed))
                                  .c_str());
                }
                qInfo("%s: %zu elements, max |error| %.3g (max|value| %.3g), at most %.2f of the tolerance",
                    what.c_str(), r.values.size(), maxError, scale, maxShare);
            }
        }
    }

    void builtGraphsMatchRuntime_data()
    {
        QTest::addColumn<int>("graph");
        for (int i = 0; i < int(builtGraphs().size()); ++i)
            QTest::newRow(builtGraphs()[std::size_t(i)].name) << i;
    }

    /** The node kinds the corpus does not use, in small graphs built node by node, against XNNPACK. Tolerance: a
     *  node or two and the portable multiply by y after them: 16 eps relative, plus 16 eps of the largest magnitude
     *  squared among inputs and outputs as the floor (XNNPACK's transcendental functions are polynomials within a few
     *  ulp; its pooling and convolution sums round relative to their terms, which are inputs; the reference rounds
     *  the exact value once; the multiply by y scales both by up to the inputs' magnitude). */
    void builtGraphsMatchRuntime()
    {
        requireXnnpackRunner();
        QFETCH(int, graph);
        const BuiltGraph& built = builtGraphs()[std::size_t(graph)];
        const char* name = built.name;
        auto emitted = emitBuilt(built);
        QVERIFY2(emitted, emitted ? "" : emitted.error().toString().c_str());
        const PteFile& file = *emitted->file;
        const ExecutionPlan& plan = *file.program->method("forward");
        const auto inputs = test::sampleInputs(plan);
        test::RunnerOptions options;
        options.xnnpack = true;
        options.methods = std::vector<std::string> { "forward" };
        options.inputs["forward"] = test::runnerInputs(plan, inputs);
        auto runtime = test::runEtRunner(file.path, options);
        QVERIFY2(runtime, runtime ? "" : runtime.error().message.c_str());
        QVERIFY2(runtime->exitCode == 0 && runtime->methods["forward"].execute == "Ok", runtime->message().c_str());
        const MethodRun run = runMethod(*file.program, "forward", inputs);
        QVERIFY2(run.ok(), run.executions.back().error ? run.executions.back().error->message.c_str() : "not ok");
        const auto& r = runtime->methods["forward"].outputs.at(0).values;
        const auto& h = run.executions.back().outputs.at(0).values;
        QCOMPARE(r.size(), h.size());
        constexpr double eps = 1.0 / (1 << 24);
        // A reduction's rounding is relative to its terms, not its result: the inputs' magnitudes count too.
        double scale = 0;
        for (const double v : h)
            scale = std::max(scale, std::fabs(v));
        for (const auto& in : inputs)
            for (const double v : in.values)
                scale = std::max(scale, std::fabs(v));
        double maxError = 0;
        for (std::size_t e = 0; e < r.size(); ++e) {
            const double a = double(float(r[e])), b = double(float(h[e]));
            if (!std::isnan(a) || !std::isnan(b))
                maxError = std::max(maxError, std::fabs(a - b));
            QVERIFY2((std::isnan(a) && std::isnan(b))
                    || std::fabs(a - b) <= 16 * eps * (std::fabs(b) + scale * scale) + built.step * scale,
                (std::string(name) + " element " + std::to_string(e) + ": runtime " + number(a) + ", reference "
                    + number(b))
                    .c_str());
        }
        qInfo("%s: max |error| %.3g", name, maxError);
    }

    void unsupportedNodeStopsTheRun()
    {
        for (const auto& built : unsupportedGraphs()) {
            const std::string name = built.name;
            auto emitted = emitBuilt(built);
            QVERIFY2(emitted, emitted ? "" : emitted.error().toString().c_str());
            const PteFile& file = *emitted->file;
            const auto inputs = test::sampleInputs(*file.program->method("forward"));
            const MethodRun run = runMethod(*file.program, "forward", inputs);
            QVERIFY(!run.ok());
            const RunExecution& x = run.executions.back();
            QCOMPARE(x.stop, RunStop::Unsupported);
            QCOMPARE(x.stoppedAt, std::optional<std::uint32_t>(0));
            QCOMPARE(x.stoppedOperator, std::string("DelegateCall XnnpackBackend"));
            const std::string message = x.error ? x.error->message : std::string();
            QVERIFY2(message.find("XNNPACK node 0 (" + name + ")") != std::string::npos, message.c_str());
        }
    }

    /** A payload is untrusted: parameters that do not fit fail the run (InvalidInput), naming the node; nothing is
     *  read out of bounds or allocated past reason. */
    void malformedGraphsFailCleanly()
    {
        const std::vector<BuiltGraph> graphs = {
            { "StaticTranspose",
                [](XnnGraphBuilder& b, std::uint32_t x, std::uint32_t, std::uint32_t out) {
                    const std::vector<std::uint32_t> perm { 0, 0 };
                    b.node(T::XNNStaticTranspose,
                        xf::CreateXNNStaticTransposeDirect(b.fbb(), 2, &perm, x, out, 0).Union(), 1);
                },
                {} },
            { "StaticConstantPad",
                [](XnnGraphBuilder& b, std::uint32_t x, std::uint32_t, std::uint32_t out) {
                    const std::vector<std::uint32_t> pre { 0x7fffffff, 0x7fffffff }, post { 0, 0 };
                    b.node(T::XNNStaticConstantPad,
                        xf::CreateXNNStaticConstantPadDirect(b.fbb(), &pre, &post, 0.f, x, out, 0).Union(), 1);
                },
                {} },
            { "Add",
                [](XnnGraphBuilder& b, std::uint32_t x, std::uint32_t, std::uint32_t out) {
                    // A constant whose dims claim far more than the 4 bytes of weights_0.
                    const auto c =
                        b.tensor({ 65536, 65536, 65536 }, xf::XNNDatatype::fp32, b.namedConstant("weights_0", 4));
                    b.binary(T::XNNAdd, x, c, out, 1);
                },
                {} },
        };
        for (const auto& built : graphs) {
            auto emitted = emitBuilt(built);
            QVERIFY2(emitted, emitted ? "" : emitted.error().toString().c_str());
            const Program& program = *emitted->file->program;
            const MethodRun run = runMethod(program, "forward", test::sampleInputs(*program.method("forward")));
            QVERIFY(!run.ok());
            const RunExecution& x = run.executions.back();
            QCOMPARE(x.stop, RunStop::Failed);
            const std::string message = x.error ? x.error->message : std::string();
            QVERIFY2(
                message.find(built.name) != std::string::npos || message.find("constant value") != std::string::npos,
                message.c_str());
            qInfo("%s: %s", built.name, message.c_str());
        }
    }

    /** With intermediates (the GUI's Run), the DelegateCall's record holds the values the delegate wrote. */
    void delegateOutputsAreRecorded()
    {
        auto emitted = emitBuilt({ "record", binaryOf(T::XNNSubtract), {} });
        QVERIFY2(emitted, emitted ? "" : emitted.error().toString().c_str());
        const Program& program = *emitted->file->program;
        const ExecutionPlan& plan = *program.method("forward");
        const auto inputs = test::sampleInputs(plan);
        RunOptions options;
        options.intermediates = true;
        const MethodRun run = runMethod(program, "forward", inputs, options);
        QVERIFY(run.ok());
        const auto& ins = plan.chains.front().instructions;
        const auto& first = run.executions.back().instructions.at(0);
        const auto* call = std::get_if<DelegateCall>(&ins.at(first.instruction).args);
        QVERIFY(call);
        QCOMPARE(first.outputs.size(), std::size_t(1));
        QCOMPARE(first.outputs[0].value, call->args.back());
        const auto& values = first.outputs[0].tensors.at(0).values;
        QCOMPARE(values.size(), std::size_t(4));
        for (std::size_t e = 0; e < 4; ++e)
            QCOMPARE(values[e], double(float(inputs[0].values[e]) - float(inputs[1].values[e])));
    }

    /** With delegateNodes, every inner node of every XNNPACK call has its expected value: as many records as the
     *  payload has nodes, in order, the last one (a graph output here) being what the call wrote. */
    void innerNodesAreRecorded()
    {
        PTE_REQUIRE_CORPUS();
        auto file = readPteFile(test::corpusPath(kSimpleModel).toStdString());
        QVERIFY2(file, file ? "" : file.error().toString().c_str());
        const Program& program = *(*file)->program;
        const ExecutionPlan& plan = *program.method("forward");
        const PayloadDataSources sources { &program, nullptr, nullptr };
        std::map<std::int32_t, std::size_t> nodesOf; // delegate index -> inner nodes
        for (const auto& d : decodeProgramDelegates(program, sources, ""))
            nodesOf[std::int32_t(d.delegateIndex)] = d.payload->nodes.size();
        RunOptions options;
        options.intermediates = true;
        options.delegateNodes = true;
        const MethodRun run = runMethod(program, "forward", test::sampleInputs(plan), options);
        QVERIFY(run.ok());
        std::size_t calls = 0;
        for (const auto& ri : run.executions.back().instructions) {
            const auto* call = std::get_if<DelegateCall>(&plan.chains.front().instructions.at(ri.instruction).args);
            if (!call) {
                QVERIFY(ri.innerNodes.empty());
                continue;
            }
            ++calls;
            QCOMPARE(ri.innerNodes.size(), nodesOf.at(call->delegateIndex));
            for (std::size_t k = 0; k < ri.innerNodes.size(); ++k)
                QCOMPARE(ri.innerNodes[k].node, std::uint32_t(k));
            QCOMPARE(ri.outputs.size(), std::size_t(1));
            QCOMPARE(ri.innerNodes.back().value.values, ri.outputs[0].tensors.at(0).values);
            for (const auto& n : ri.innerNodes) {
                QCOMPARE(n.stats.count, n.value.values.size());
                QCOMPARE(n.stats.max, tensorStats(n.value.values).max);
            }
        }
        QCOMPARE(calls, nodesOf.size());
        // Statistics only (what the GUI asks for): the values are dropped, shape and statistics kept; the run's
        // summary has them per DelegateCall and node.
        RunOptions statsOnly = options;
        statsOnly.maxInnerNodeElements = 0;
        const MethodRun light = runMethod(program, "forward", test::sampleInputs(plan), statsOnly);
        QVERIFY(light.ok());
        const RunSummary summary = summarizeRun(plan, light);
        QCOMPARE(summary.innerNodes.size(), nodesOf.size());
        for (std::size_t i = 0; i < light.executions.back().instructions.size(); ++i) {
            const auto& ri = light.executions.back().instructions[i];
            const auto& full = run.executions.back().instructions.at(i);
            for (std::size_t k = 0; k < ri.innerNodes.size(); ++k) {
                QVERIFY(ri.innerNodes[k].value.values.empty());
                QCOMPARE(ri.innerNodes[k].value.sizes, full.innerNodes[k].value.sizes);
                QCOMPARE(ri.innerNodes[k].stats.mean, full.innerNodes[k].stats.mean);
                const auto& facts = summary.innerNodes.at(ri.instruction).at(std::uint32_t(k));
                QCOMPARE(facts.sizes, full.innerNodes[k].value.sizes);
                QCOMPARE(facts.stats.min, tensorStats(full.innerNodes[k].value.values).min);
            }
        }
        // Off by default.
        options.delegateNodes = false;
        const MethodRun plain = runMethod(program, "forward", test::sampleInputs(plan), options);
        for (const auto& ri : plain.executions.back().instructions)
            QVERIFY(ri.innerNodes.empty());
    }

    /** `ptelens-cli run` no longer stops at an XNNPACK DelegateCall: it reports the outputs. */
    void cliRunsThroughDelegates()
    {
        PTE_REQUIRE_CORPUS();
        QByteArray out, err;
        const QString json = test::tempDir() + QStringLiteral("/xnnpack_simpleconv_run.json");
        const int code = test::runCli(
            { QStringLiteral("run"), test::corpusPath(kSimpleConv), QStringLiteral("--json"), json }, &out, &err);
        QVERIFY2(code == 0, ("exit " + std::to_string(code) + ": " + (out + err).toStdString()).c_str());
        QFile file(json);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const Json j = Json::parse(file.readAll().toStdString());
        const Json& m = j.at("methods").at("forward");
        QCOMPARE(m.value("execute", std::string()), std::string("Ok"));
        QVERIFY(!m.at("outputs").empty());
    }
};

QTEST_GUILESS_MAIN(TestXnnpackInterpreter)
#include "tst_xnnpack_interpreter.moc"
