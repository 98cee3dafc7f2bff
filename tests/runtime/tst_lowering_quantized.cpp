// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// PT2E-quantized graphs as convert_pt2e writes them (quantized_decomposed quantize/dequantize per tensor around float
// ops, int8 weights dequantized per channel, their scales and zero points lifted constants), emitted without a
// delegate: the (de)quantizations run on ExecuTorch's quantized kernels, the float ops between them on the portable
// ones, as to_executorch emits them. Expected values follow quantized_decomposed's definitions:
// q = clamp(round_half_even(x * (1 / scale)) + zero_point, qmin, qmax), x' = (q - zero_point) * scale.
#include "dumpbuilder.h"
#include "etrunner.h"
#include "runtimecase.h"
#include "testutils.h"

#include <QTest>

#include <cmath>

using namespace pte;
using namespace pte::test;
using nlohmann::json;

namespace {

double quantize(double x, double scale, std::int64_t zp, std::int64_t qmin, std::int64_t qmax)
{
    const float inv = float(1.0 / scale);
    const double q = std::nearbyint(double(float(float(x) * inv))) + double(zp);
    return std::clamp(q, double(qmin), double(qmax));
}

double dequantize(double q, double scale, std::int64_t zp) { return f32(double(float(q - double(zp)) * float(scale))); }

/** quantize then dequantize, per tensor. */
std::vector<double> fakeQuant(const std::vector<double>& x, double scale, std::int64_t zp)
{
    std::vector<double> r(x.size());
    for (std::size_t k = 0; k < x.size(); ++k)
        r[k] = dequantize(quantize(x[k], scale, zp, -128, 127), scale, zp);
    return r;
}

json qdqArgs(const std::string& input, double scale, std::int64_t zp)
{
    return json::array({ arg("input", T(input)), arg("scale", F(scale)), arg("zero_point", I(zp)),
        arg("quant_min", I(-128)), arg("quant_max", I(127)), arg("dtype", Dtype(kChar)) });
}

} // namespace

class TestLoweringQuantized : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void quantizedConvAndLinearRunOnTheQuantizedKernels()
    {
        // x -> q/dq -> conv2d(dq_per_channel(w_int8), b) -> relu -> q/dq -> flatten -> linear(dq(w2_int8), b2) ->
        // q/dq: a convert_pt2e'd conv + linear head (XNNPACKQuantizer's symmetric per-channel weights).
        const double sx = 0.02, sa = 0.05, so = 0.04;
        const std::int64_t zx = 3, za = -128, zo = 5;
        const std::vector<double> wScales { 0.011, 0.013, 0.009, 0.015 };
        std::vector<double> wq(4 * 2 * 3 * 3);
        for (std::size_t k = 0; k < wq.size(); ++k)
            wq[k] = double(std::int64_t((k * 37 + 11) % 255) - 127);
        const auto bias = values(4, 41, 0.2);
        std::vector<double> w2q(3 * 4 * 2 * 2);
        for (std::size_t k = 0; k < w2q.size(); ++k)
            w2q[k] = double(std::int64_t((k * 53 + 7) % 201) - 100);
        const double s2 = 0.012;
        const auto bias2 = values(3, 42, 0.1);
        const auto x = values(1 * 2 * 4 * 4, 43, 2.0);

        Case c;
        c.dump.constant("_frozen_param0", "_frozen_param0", { 4, 2, 3, 3 }, wq, kChar);
        c.dump.constant("_scale_0", "_scale_0", { 4 }, wScales);
        c.dump.constant("_zero_point_0", "_zero_point_0", { 4 }, { 0, 0, 0, 0 }, kLong);
        c.dump.weight("p_conv_bias", "conv.bias", { 4 }, bias);
        c.dump.constant("_frozen_param1", "_frozen_param1", { 3, 16 }, w2q, kChar);
        c.dump.weight("p_fc_bias", "fc.bias", { 3 }, bias2);
        c.in("x", { 1, 2, 4, 4 }, x);
        const std::string q = "torch.ops.quantized_decomposed.quantize_per_tensor.default";
        const std::string dq = "torch.ops.quantized_decomposed.dequantize_per_tensor.default";
        c.dump.node("quantize_per_tensor_default", q, qdqArgs("x", sx, zx), { 1, 2, 4, 4 }, kChar);
        c.dump.node(
            "dequantize_per_tensor_default", dq, qdqArgs("quantize_per_tensor_default", sx, zx), { 1, 2, 4, 4 });
        c.dump.node("dequantize_per_channel_default", "torch.ops.quantized_decomposed.dequantize_per_channel.default",
            json::array({ arg("input", T("_frozen_param0")), arg("scales", T("_scale_0")),
                arg("zero_points", T("_zero_point_0")), arg("axis", I(0)), arg("quant_min", I(-127)),
                arg("quant_max", I(127)), arg("dtype", Dtype(kChar)) }),
            { 4, 2, 3, 3 });
        c.dump.node("conv2d", "conv2d.default",
            json::array(
                { arg("input", T("dequantize_per_tensor_default")), arg("weight", T("dequantize_per_channel_default")),
                    arg("bias", T("p_conv_bias")), arg("padding", Ints({ 1, 1 })), arg("stride", Ints({ 2, 2 })) }),
            { 1, 4, 2, 2 });
        c.dump.node("relu", "relu.default", json::array({ arg("self", T("conv2d")) }), { 1, 4, 2, 2 });
        c.dump.node("quantize_per_tensor_default_1", q, qdqArgs("relu", sa, za), { 1, 4, 2, 2 }, kChar);
        c.dump.node(
            "dequantize_per_tensor_default_1", dq, qdqArgs("quantize_per_tensor_default_1", sa, za), { 1, 4, 2, 2 });
        c.dump.node("flatten", "flatten.using_ints",
            json::array({ arg("self", T("dequantize_per_tensor_default_1")), arg("start_dim", I(1)) }), { 1, 16 });
        c.dump.node("dequantize_per_tensor_default_2", dq,
            json::array({ arg("input", T("_frozen_param1")), arg("scale", F(s2)), arg("zero_point", I(0)),
                arg("quant_min", I(-127)), arg("quant_max", I(127)), arg("dtype", Dtype(kChar)) }),
            { 3, 16 });
        c.dump.node("linear", "linear.default",
            json::array({ arg("input", T("flatten")), arg("weight", T("dequantize_per_tensor_default_2")),
                arg("bias", T("p_fc_bias")) }),
            { 1, 3 });
        c.dump.node("quantize_per_tensor_default_2", q, qdqArgs("linear", so, zo), { 1, 3 }, kChar);
        c.dump.node("dequantize_per_tensor_default_3", dq, qdqArgs("quantize_per_tensor_default_2", so, zo), { 1, 3 });
        c.dump.output("dequantize_per_tensor_default_3");

        // Reference: the same graph on the float values the quantized ops produce.
        const auto xq = fakeQuant(x, sx, zx);
        std::vector<double> conv(4 * 2 * 2);
        for (int oc = 0; oc < 4; ++oc)
            for (int oy = 0; oy < 2; ++oy)
                for (int ox = 0; ox < 2; ++ox) {
                    double acc = bias[std::size_t(oc)];
                    for (int ic = 0; ic < 2; ++ic)
                        for (int ky = 0; ky < 3; ++ky)
                            for (int kx = 0; kx < 3; ++kx) {
                                const int iy = oy * 2 - 1 + ky, ix = ox * 2 - 1 + kx;
                                if (iy < 0 || iy >= 4 || ix < 0 || ix >= 4)
                                    continue;
                                const auto wi = std::size_t(((oc * 2 + ic) * 3 + ky) * 3 + kx);
                                acc += xq[std::size_t((ic * 4 + iy) * 4 + ix)]
                                    * dequantize(wq[wi], wScales[std::size_t(oc)], 0);
                            }
                    conv[std::size_t((oc * 2 + oy) * 2 + ox)] = f32(std::max(acc, 0.0));
                }
        const auto act = fakeQuant(conv, sa, za);
        std::vector<double> lin(3);
        for (std::size_t o = 0; o < 3; ++o) {
            double acc = bias2[o];
            for (std::size_t k = 0; k < 16; ++k)
                acc += act[k] * dequantize(w2q[o * 16 + k], s2, 0);
            lin[o] = f32(acc);
        }
        const auto want = fakeQuant(lin, so, zo);
        // The float sums run in another order on the runtime: a result on a rounding boundary may requantize one
        // step (one output scale) away. Anything more is wrong.
        c.check = [want, so](const std::vector<RunnerValue>& out) -> std::optional<std::string> {
            if (out.size() != 1 || out[0].values.size() != want.size())
                return std::string("expected one output of 3 values");
            for (std::size_t k = 0; k < want.size(); ++k)
                if (std::abs(out[0].values[k] - want[k]) > so * 1.001)
                    return "element " + std::to_string(k) + ": runtime " + std::to_string(out[0].values[k])
                        + ", quantized_decomposed definition " + std::to_string(want[k]);
            return std::nullopt;
        };
        QVERIFY_RUNS_ON_RUNTIME(c, "quantized_conv_linear");
    }

    void quantizeOutputsIntegers()
    {
        // A quantized output (int8) is returned as is: every element exactly.
        const auto x = values(8, 44, 3.0);
        Case c;
        c.in("x", { 8 }, x);
        c.dump.node("quantize_per_tensor_default", "torch.ops.quantized_decomposed.quantize_per_tensor.default",
            qdqArgs("x", 0.025, -7), { 8 }, kChar);
        c.dump.output("quantize_per_tensor_default");
        std::vector<double> want(8);
        for (std::size_t k = 0; k < 8; ++k)
            want[k] = quantize(x[k], 0.025, -7, -128, 127);
        c.expect({ 8 }, want, kChar);
        QVERIFY_RUNS_ON_RUNTIME(c, "quantize_int8");
    }
};

QTEST_GUILESS_MAIN(TestLoweringQuantized)
#include "tst_lowering_quantized.moc"
