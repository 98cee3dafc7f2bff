// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// Normalization layers as torch.export's training IR writes them (group_norm, instance_norm, layer_norm, rms_norm,
// batch_norm kept as single nodes; F.local_response_norm and F.normalize as the pieces their Python functions call:
// avg_pool3d, linalg_vector_norm, clamp_min...), emitted by ptelens and run on ExecuTorch's runtime. The expected
// outputs come from the layers' documented formulas, computed here in double and rounded to float32.
#include "dumpbuilder.h"
#include "errorcheck.h"
#include "etrunner.h"
#include "executiontestutils.h"
#include "runtimecase.h"
#include "testutils.h"

#include <QTest>

#include <algorithm>
#include <array>
#include <cmath>
#include <functional>
#include <limits>
#include <numeric>
#include <optional>

using namespace pte;
using namespace pte::test;
using nlohmann::json;

namespace {

std::int64_t numel(const std::vector<std::int64_t>& s)
{
    return std::accumulate(s.begin(), s.end(), std::int64_t(1), std::multiplies<>());
}

/** Normalizes x (N, C, S) over groups of C/G channels and S: (x - mean) / sqrt(var + eps) [* w[c] + b[c]], the
 *  biased variance (nn.GroupNorm; G = C is instance norm). */
std::vector<double> groupNormRef(const std::vector<double>& x, std::int64_t n, std::int64_t c, std::int64_t s,
    std::int64_t groups, const std::vector<double>& w, const std::vector<double>& b, double eps)
{
    std::vector<double> y(x.size());
    const std::int64_t per = c / groups;
    for (std::int64_t i = 0; i < n; ++i)
        for (std::int64_t g = 0; g < groups; ++g) {
            const std::int64_t base = (i * c + g * per) * s;
            const std::int64_t count = per * s;
            double mean = 0;
            for (std::int64_t k = 0; k < count; ++k)
                mean += x[std::size_t(base + k)];
            mean /= double(count);
            double var = 0;
            for (std::int64_t k = 0; k < count; ++k)
                var += (x[std::size_t(base + k)] - mean) * (x[std::size_t(base + k)] - mean);
            var /= double(count);
            const double rstd = 1.0 / std::sqrt(var + eps);
            for (std::int64_t k = 0; k < count; ++k) {
                const std::size_t ch = std::size_t(g * per + k / s);
                double v = (x[std::size_t(base + k)] - mean) * rstd;
                if (!w.empty())
                    v *= w[ch];
                if (!b.empty())
                    v += b[ch];
                y[std::size_t(base + k)] = f32(v);
            }
        }
    return y;
}

/** Batch norm with given statistics per channel of x (N, C, S): (x - m[c]) / sqrt(v[c] + eps) [* w[c] + b[c]]. */
std::vector<double> runningStatsRef(const std::vector<double>& x, std::int64_t c, std::int64_t s,
    const std::vector<double>& m, const std::vector<double>& v, const std::vector<double>& w,
    const std::vector<double>& b, double eps)
{
    std::vector<double> y(x.size());
    for (std::size_t k = 0; k < x.size(); ++k) {
        const std::size_t ch = std::size_t((std::int64_t(k) / s) % c);
        double r = (x[k] - m[ch]) / std::sqrt(v[ch] + eps);
        if (!w.empty())
            r *= w[ch];
        if (!b.empty())
            r += b[ch];
        y[k] = f32(r);
    }
    return y;
}

/** x * rsqrt(mean(x^2 over the last `width` values) + eps) [* w]. */
std::vector<double> rmsNormRef(
    const std::vector<double>& x, std::size_t width, const std::vector<double>& w, double eps)
{
    std::vector<double> y(x.size());
    for (std::size_t row = 0; row < x.size() / width; ++row) {
        double ms = 0;
        for (std::size_t k = 0; k < width; ++k)
            ms += x[row * width + k] * x[row * width + k];
        const double rstd = 1.0 / std::sqrt(ms / double(width) + eps);
        for (std::size_t k = 0; k < width; ++k)
            y[row * width + k] = f32(x[row * width + k] * rstd * (w.empty() ? 1.0 : w[k]));
    }
    return y;
}

/** nn.LocalResponseNorm over dim 1 of x (N, C, S): x / (k + alpha / size * sum of x^2 over the channels
 *  [c - size/2, c + (size-1)/2])^beta, the sum divided by size also at the edges (zero padding is counted). */
std::vector<double> lrnRef(const std::vector<double>& x, std::int64_t n, std::int64_t c, std::int64_t s,
    std::int64_t size, double alpha, double beta, double k)
{
    std::vector<double> y(x.size());
    for (std::int64_t i = 0; i < n; ++i)
        for (std::int64_t ch = 0; ch < c; ++ch)
            for (std::int64_t e = 0; e < s; ++e) {
                double sum = 0;
                for (std::int64_t q = ch - size / 2; q <= ch + (size - 1) / 2; ++q)
                    if (q >= 0 && q < c) {
                        const double v = x[std::size_t((i * c + q) * s + e)];
                        sum += v * v;
                    }
                const std::size_t at = std::size_t((i * c + ch) * s + e);
                y[at] = f32(x[at] / std::pow(k + alpha * sum / double(size), beta));
            }
    return y;
}

/** avg_pool3d over the last three dimensions of x (B, D, H, W), as ATen's kernel defines its windows and divisors. */
std::vector<double> avgPool3dRef(const std::vector<double>& x, std::int64_t batch, std::array<std::int64_t, 3> in,
    std::array<std::int64_t, 3> k, std::array<std::int64_t, 3> s, std::array<std::int64_t, 3> p, bool ceil,
    bool countIncludePad, std::optional<std::int64_t> divisor, std::array<std::int64_t, 3>& out)
{
    for (std::size_t d = 0; d < 3; ++d) {
        const std::int64_t span = in[d] + 2 * p[d] - k[d] + (ceil ? s[d] - 1 : 0);
        out[d] = span / s[d] + 1;
        if (ceil && (out[d] - 1) * s[d] >= in[d] + p[d])
            --out[d];
    }
    std::vector<double> y;
    for (std::int64_t bi = 0; bi < batch; ++bi)
        for (std::int64_t od = 0; od < out[0]; ++od)
            for (std::int64_t oh = 0; oh < out[1]; ++oh)
                for (std::int64_t ow = 0; ow < out[2]; ++ow) {
                    std::array<std::int64_t, 3> start { od * s[0] - p[0], oh * s[1] - p[1], ow * s[2] - p[2] };
                    std::array<std::int64_t, 3> end {};
                    std::int64_t poolSize = 1;
                    for (std::size_t d = 0; d < 3; ++d) {
                        end[d] = std::min(start[d] + k[d], in[d] + p[d]);
                        poolSize *= end[d] - start[d];
                        start[d] = std::max<std::int64_t>(start[d], 0);
                        end[d] = std::min(end[d], in[d]);
                    }
                    double sum = 0;
                    for (std::int64_t a = start[0]; a < end[0]; ++a)
                        for (std::int64_t b = start[1]; b < end[1]; ++b)
                            for (std::int64_t c = start[2]; c < end[2]; ++c)
                                sum += x[std::size_t(((bi * in[0] + a) * in[1] + b) * in[2] + c)];
                    const std::int64_t inside = (end[0] - start[0]) * (end[1] - start[1]) * (end[2] - start[2]);
                    const double div = divisor ? double(*divisor) : countIncludePad ? double(poolSize) : double(inside);
                    y.push_back(f32(sum / div));
                }
    return y;
}

/** The vector norm of x (shape `shape`) over `dims` (empty: all), as torch.linalg.vector_norm defines it. */
std::vector<double> vectorNormRef(
    const std::vector<double>& x, const std::vector<std::int64_t>& shape, std::vector<std::int64_t> dims, double ord)
{
    if (dims.empty()) {
        dims.resize(shape.size());
        std::iota(dims.begin(), dims.end(), 0);
    }
    std::vector<std::int64_t> outShape = shape;
    for (const auto d : dims)
        outShape[std::size_t(d)] = 1;
    std::vector<std::vector<double>> groups(std::size_t(numel(outShape)));
    for (std::int64_t flat = 0; flat < numel(shape); ++flat) {
        std::int64_t rest = flat;
        std::int64_t outFlat = 0;
        std::int64_t stride = 1;
        std::vector<std::int64_t> idx(shape.size());
        for (std::size_t d = shape.size(); d-- > 0;) {
            idx[d] = rest % shape[d];
            rest /= shape[d];
        }
        for (std::size_t d = shape.size(); d-- > 0;) {
            outFlat += (outShape[d] == 1 ? 0 : idx[d]) * stride;
            stride *= outShape[d];
        }
        groups[std::size_t(outFlat)].push_back(x[std::size_t(flat)]);
    }
    std::vector<double> r;
    for (const auto& g : groups) {
        double v = 0;
        if (ord == 0) {
            for (const double e : g)
                v += e != 0 ? 1 : 0;
        } else if (std::isinf(ord)) {
            v = ord > 0 ? 0 : std::numeric_limits<double>::infinity();
            for (const double e : g)
                v = ord > 0 ? std::max(v, std::fabs(e)) : std::min(v, std::fabs(e));
        } else {
            for (const double e : g)
                v += std::pow(std::fabs(e), ord);
            v = std::pow(v, 1.0 / ord);
        }
        r.push_back(f32(v));
    }
    return r;
}

/** v rounded to the nearest float16 (ties to even; subnormals below 2^-14). */
double f16(double v)
{
    if (v == 0 || !std::isfinite(v))
        return v;
    int e = 0;
    std::frexp(v, &e);
    const double step = std::ldexp(1.0, std::max(e - 11, -24));
    return std::nearbyint(v / step) * step;
}

json FInf(bool negative) { return { { "as_float", negative ? "-Infinity" : "Infinity" } }; }

} // namespace

class TestLoweringNormalization : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void groupNormThenSiLU()
    {
        // nn.GroupNorm(8, 32) then nn.SiLU, as in a diffusion UNet's ResNet block: [2, 32, 16, 16].
        const auto x = values(2 * 32 * 256, 11, 3.0);
        const auto w = values(32, 12, 1.5);
        const auto bias = values(32, 13, 0.5);
        Case c;
        c.dump.weight("p_norm_weight", "norm.weight", { 32 }, w);
        c.dump.weight("p_norm_bias", "norm.bias", { 32 }, bias);
        c.in("x", { 2, 32, 16, 16 }, x);
        c.dump.node("group_norm", "group_norm.default",
            json::array({ arg("input", T("x")), arg("num_groups", I(8)), arg("weight", T("p_norm_weight")),
                arg("bias", T("p_norm_bias")) }),
            { 2, 32, 16, 16 });
        c.dump.node("silu", "silu.default", json::array({ arg("self", T("group_norm")) }), { 2, 32, 16, 16 });
        c.dump.output("silu");
        auto y = groupNormRef(x, 2, 32, 256, 8, w, bias, 1e-5);
        for (auto& v : y)
            v = f32(v / (1.0 + std::exp(-v)));
        c.expect({ 2, 32, 16, 16 }, y);
        QVERIFY_RUNS_ON_RUNTIME(c, "group_norm_silu");
    }

    void groupNormWithoutAffineOn1d()
    {
        // nn.GroupNorm(4, 12, eps=1e-3, affine=False) on a sequence: [3, 12, 5].
        const auto x = values(3 * 12 * 5, 21, 2.0);
        Case c;
        c.in("x", { 3, 12, 5 }, x);
        c.op("group_norm", "group_norm.default",
            json::array({ arg("input", T("x")), arg("num_groups", I(4)), arg("weight", None()), arg("bias", None()),
                arg("eps", F(1e-3)) }),
            { 3, 12, 5 }, groupNormRef(x, 3, 12, 5, 4, {}, {}, 1e-3));
        QVERIFY_RUNS_ON_RUNTIME(c, "group_norm_no_affine");
    }

    void groupNormDynamicBatch()
    {
        // GroupNorm(8, 32) with a dynamic batch (s0 <= 4): N is a runtime size, run at the upper bound.
        const auto x = values(4 * 32 * 64, 31, 2.0);
        const auto w = values(32, 32, 1.5);
        const auto bias = values(32, 33, 0.5);
        Case c;
        c.dump.weight("p_weight", "norm.weight", { 32 }, w);
        c.dump.weight("p_bias", "norm.bias", { 32 }, bias);
        c.in("x", { 4, 32, 8, 8 }, x);
        c.dump.dynamic("x", 0, "s0", 4);
        c.op("group_norm", "group_norm.default",
            json::array({ arg("input", T("x")), arg("num_groups", I(8)), arg("weight", T("p_weight")),
                arg("bias", T("p_bias")) }),
            { 4, 32, 8, 8 }, groupNormRef(x, 4, 32, 64, 8, w, bias, 1e-5));
        c.dump.dynamic("group_norm", 0, "s0", 4);
        QVERIFY_RUNS_ON_RUNTIME(c, "group_norm_dynamic");
    }

    void groupNormRefusesIndivisibleChannels()
    {
        Case c;
        c.in("x", { 2, 10, 4 }, values(80, 41));
        c.op("group_norm", "group_norm.default", json::array({ arg("input", T("x")), arg("num_groups", I(4)) }),
            { 2, 10, 4 }, std::vector<double>(80, 0.0));
        QVERIFY_ERROR(emitOnly(c, "group_norm_indivisible"), ErrorCode::InvalidInput, "group_norm",
            "divisible by num_groups (4)");
    }

    void instanceNorm_data()
    {
        QTest::addColumn<std::vector<std::int64_t>>("shape");
        QTest::addColumn<bool>("affine");
        QTest::newRow("InstanceNorm2d(3) [2,3,8,8]") << std::vector<std::int64_t> { 2, 3, 8, 8 } << false;
        QTest::newRow("InstanceNorm1d(4, affine) [2,4,10]") << std::vector<std::int64_t> { 2, 4, 10 } << true;
        QTest::newRow("InstanceNorm3d(2, affine) [2,2,3,4,4]") << std::vector<std::int64_t> { 2, 2, 3, 4, 4 } << true;
    }

    void instanceNorm()
    {
        // nn.InstanceNorm{1,2,3}d with track_running_stats=False (the default): batch statistics per sample and
        // channel. F.instance_norm passes every argument.
        QFETCH(std::vector<std::int64_t>, shape);
        QFETCH(bool, affine);
        const std::int64_t n = shape[0];
        const std::int64_t ch = shape[1];
        const std::int64_t s = numel(shape) / (n * ch);
        const auto x = values(std::size_t(numel(shape)), 51, 2.0);
        const auto w = affine ? values(std::size_t(ch), 52, 1.5) : std::vector<double> {};
        const auto bias = affine ? values(std::size_t(ch), 53, 0.5) : std::vector<double> {};
        Case c;
        if (affine) {
            c.dump.weight("p_weight", "norm.weight", { ch }, w);
            c.dump.weight("p_bias", "norm.bias", { ch }, bias);
        }
        c.in("x", shape, x);
        c.op("instance_norm", "instance_norm.default",
            json::array({ arg("input", T("x")), arg("weight", affine ? T("p_weight") : None()),
                arg("bias", affine ? T("p_bias") : None()), arg("running_mean", None()), arg("running_var", None()),
                arg("use_input_stats", B(true)), arg("momentum", F(0.1)), arg("eps", F(1e-5)),
                arg("cudnn_enabled", B(true)) }),
            shape, groupNormRef(x, n, ch, s, ch, w, bias, 1e-5));
        QVERIFY_RUNS_ON_RUNTIME(c, "instance_norm");
    }

    void instanceNormEvalWithRunningStats()
    {
        // nn.InstanceNorm2d(3, affine=True, track_running_stats=True).eval(): the running statistics.
        const auto x = values(2 * 3 * 64, 61, 2.0);
        const auto w = values(3, 62, 1.5);
        const auto bias = values(3, 63, 0.5);
        const std::vector<double> mean { 0.25, -0.5, 0.125 };
        const std::vector<double> var { 0.5, 2.0, 1.25 };
        Case c;
        c.dump.weight("p_weight", "norm.weight", { 3 }, w);
        c.dump.weight("p_bias", "norm.bias", { 3 }, bias);
        c.dump.weight("b_running_mean", "norm.running_mean", { 3 }, mean, false);
        c.dump.weight("b_running_var", "norm.running_var", { 3 }, var, false);
        c.in("x", { 2, 3, 8, 8 }, x);
        c.op("instance_norm", "instance_norm.default",
            json::array({ arg("input", T("x")), arg("weight", T("p_weight")), arg("bias", T("p_bias")),
                arg("running_mean", T("b_running_mean")), arg("running_var", T("b_running_var")),
                arg("use_input_stats", B(false)), arg("momentum", F(0.1)), arg("eps", F(1e-5)),
                arg("cudnn_enabled", B(true)) }),
            { 2, 3, 8, 8 }, runningStatsRef(x, 3, 64, mean, var, w, bias, 1e-5));
        QVERIFY_RUNS_ON_RUNTIME(c, "instance_norm_eval");
    }

    void instanceNormDynamicBatch()
    {
        // InstanceNorm2d(3, affine=True) with a dynamic batch: the (1, N*C, H, W) view takes N at run time.
        const auto x = values(3 * 3 * 36, 71, 2.0);
        const auto w = values(3, 72, 1.5);
        const auto bias = values(3, 73, 0.5);
        Case c;
        c.dump.weight("p_weight", "norm.weight", { 3 }, w);
        c.dump.weight("p_bias", "norm.bias", { 3 }, bias);
        c.in("x", { 3, 3, 6, 6 }, x);
        c.dump.dynamic("x", 0, "s0", 3);
        c.op("instance_norm", "instance_norm.default",
            json::array({ arg("input", T("x")), arg("weight", T("p_weight")), arg("bias", T("p_bias")),
                arg("running_mean", None()), arg("running_var", None()), arg("use_input_stats", B(true)),
                arg("momentum", F(0.1)), arg("eps", F(1e-5)), arg("cudnn_enabled", B(true)) }),
            { 3, 3, 6, 6 }, groupNormRef(x, 3, 3, 36, 3, w, bias, 1e-5));
        c.dump.dynamic("instance_norm", 0, "s0", 3);
        QVERIFY_RUNS_ON_RUNTIME(c, "instance_norm_dynamic");
    }

    void instanceNormTrainingWithRunningStatsIsRefused()
    {
        Case c;
        c.dump.weight("b_running_mean", "norm.running_mean", { 3 }, { 0, 0, 0 }, false);
        c.dump.weight("b_running_var", "norm.running_var", { 3 }, { 1, 1, 1 }, false);
        c.in("x", { 2, 3, 4, 4 }, values(96, 81));
        c.op("instance_norm", "instance_norm.default",
            json::array({ arg("input", T("x")), arg("weight", None()), arg("bias", None()),
                arg("running_mean", T("b_running_mean")), arg("running_var", T("b_running_var")),
                arg("use_input_stats", B(true)), arg("momentum", F(0.1)), arg("eps", F(1e-5)),
                arg("cudnn_enabled", B(true)) }),
            { 2, 3, 4, 4 }, std::vector<double>(96, 0.0));
        QVERIFY_ERROR(emitOnly(c, "instance_norm_training"), ErrorCode::Unsupported, "instance_norm",
            "track_running_stats=True in training mode");
    }

    void layerNorm_data()
    {
        QTest::addColumn<bool>("affine");
        QTest::addColumn<bool>("twoDims");
        QTest::addColumn<bool>("dynamic");
        QTest::newRow("LayerNorm(64) without weight and bias") << false << false << false;
        QTest::newRow("LayerNorm([10, 64]) with weight and bias") << true << true << false;
        QTest::newRow("LayerNorm(64), dynamic batch") << true << false << true;
    }

    void layerNorm()
    {
        QFETCH(bool, affine);
        QFETCH(bool, twoDims);
        QFETCH(bool, dynamic);
        const std::vector<std::int64_t> shape { 2, 10, 64 };
        const std::vector<std::int64_t> normalized =
            twoDims ? std::vector<std::int64_t> { 10, 64 } : std::vector<std::int64_t> { 64 };
        const auto width = std::size_t(numel(normalized));
        const auto x = values(1280, 91, 3.0);
        const auto w = affine ? values(width, 92, 1.5) : std::vector<double> {};
        const auto bias = affine ? values(width, 93, 0.5) : std::vector<double> {};
        Case c;
        json args = json::array({ arg("input", T("x")), arg("normalized_shape", Ints(normalized)) });
        if (affine) {
            c.dump.weight("p_weight", "ln.weight", normalized, w);
            c.dump.weight("p_bias", "ln.bias", normalized, bias);
            args.push_back(arg("weight", T("p_weight")));
            args.push_back(arg("bias", T("p_bias")));
        }
        c.in("x", shape, x);
        if (dynamic)
            c.dump.dynamic("x", 0, "s0", 2);
        c.op("layer_norm", "layer_norm.default", args, shape, layerNormRows(x, width, w, bias));
        if (dynamic)
            c.dump.dynamic("layer_norm", 0, "s0", 2);
        QVERIFY_RUNS_ON_RUNTIME(c, "layer_norm");
    }

    void nativeLayerNormKeepsItsStatistics()
    {
        // native_layer_norm (a core op, kept): out, mean and rstd of shape [2, 10, 1].
        const auto x = values(1280, 101, 3.0);
        const auto w = values(64, 102, 1.5);
        Case c;
        c.dump.weight("p_weight", "ln.weight", { 64 }, w);
        c.in("x", { 2, 10, 64 }, x);
        c.dump.tupleNode("native_layer_norm", "native_layer_norm.default",
            json::array({ arg("input", T("x")), arg("normalized_shape", Ints({ 64 })), arg("weight", T("p_weight")),
                arg("bias", None()), arg("eps", F(1e-5)) }),
            { { "ln_out", { 2, 10, 64 } }, { "ln_mean", { 2, 10, 1 } }, { "ln_rstd", { 2, 10, 1 } } });
        c.dump.output("ln_out");
        c.dump.output("ln_mean");
        c.dump.output("ln_rstd");
        std::vector<double> mean;
        std::vector<double> rstd;
        for (std::size_t row = 0; row < 20; ++row) {
            double m = 0;
            for (std::size_t k = 0; k < 64; ++k)
                m += x[row * 64 + k];
            m /= 64;
            double v = 0;
            for (std::size_t k = 0; k < 64; ++k)
                v += (x[row * 64 + k] - m) * (x[row * 64 + k] - m);
            mean.push_back(m);
            rstd.push_back(1.0 / std::sqrt(v / 64 + 1e-5));
        }
        c.expect({ 2, 10, 64 }, layerNormRows(x, 64, w, std::vector<double>(64, 0.0)))
            .expect({ 2, 10, 1 }, mean)
            .expect({ 2, 10, 1 }, rstd);
        QVERIFY_RUNS_ON_RUNTIME(c, "native_layer_norm");
    }

    void rmsNorm_data()
    {
        QTest::addColumn<bool>("weighted");
        QTest::addColumn<bool>("twoDims");
        QTest::addColumn<double>("eps"); // negative: None (torch.finfo(float32).eps)
        QTest::addColumn<bool>("dynamic");
        QTest::newRow("RMSNorm([64]) eps None") << true << false << -1.0 << false;
        QTest::newRow("RMSNorm([64], eps=1e-6)") << true << false << 1e-6 << false;
        QTest::newRow("RMSNorm([10, 64], elementwise_affine=False)") << false << true << -1.0 << false;
        QTest::newRow("RMSNorm([64]), dynamic sequence") << true << false << 1e-5 << true;
    }

    void rmsNorm()
    {
        QFETCH(bool, weighted);
        QFETCH(bool, twoDims);
        QFETCH(double, eps);
        QFETCH(bool, dynamic);
        const std::vector<std::int64_t> shape { 2, 10, 64 };
        const std::vector<std::int64_t> normalized =
            twoDims ? std::vector<std::int64_t> { 10, 64 } : std::vector<std::int64_t> { 64 };
        const auto width = std::size_t(numel(normalized));
        const auto x = values(1280, 111, 2.0);
        const auto w = weighted ? values(width, 112, 1.5) : std::vector<double> {};
        Case c;
        json args = json::array({ arg("input", T("x")), arg("normalized_shape", Ints(normalized)) });
        if (weighted) {
            c.dump.weight("p_weight", "norm.weight", normalized, w);
            args.push_back(arg("weight", T("p_weight")));
        }
        if (eps >= 0)
            args.push_back(arg("eps", F(eps)));
        c.in("x", shape, x);
        if (dynamic)
            c.dump.dynamic("x", 1, "s0", 10);
        c.op("rms_norm", "rms_norm.default", args, shape,
            rmsNormRef(x, width, w, eps >= 0 ? eps : double(std::numeric_limits<float>::epsilon())));
        if (dynamic)
            c.dump.dynamic("rms_norm", 1, "s0", 10);
        QVERIFY_RUNS_ON_RUNTIME(c, "rms_norm");
    }

    void rmsNormInHalf()
    {
        // RMSNorm([32]).half() with eps None: computed in float, eps = torch.finfo(float32).eps (the computation
        // dtype's, not float16's 9.8e-4: small inputs tell them apart), the result cast back to float16.
        std::vector<double> w(32);
        for (std::size_t k = 0; k < 32; ++k)
            w[k] = double(int(k % 9) - 4) / 16.0; // exact in float16
        auto x = values(256, 125, 0.05);
        for (auto& v : x)
            v = f16(v);
        auto want = rmsNormRef(x, 32, w, double(std::numeric_limits<float>::epsilon()));
        for (auto& v : want)
            v = f16(v);
        Case c;
        // The weight comes in as an input: the test dump writer stores parameters as float32 bytes only.
        c.in("x", { 2, 4, 32 }, x, kHalf).in("w", { 32 }, w, kHalf);
        c.op("rms_norm", "rms_norm.default",
            json::array({ arg("input", T("x")), arg("normalized_shape", Ints({ 32 })), arg("weight", T("w")) }),
            { 2, 4, 32 }, want, kHalf);
        QVERIFY_RUNS_ON_RUNTIME(c, "rms_norm_half");
    }

    void fusedRmsNormReturnsTheRsqrt()
    {
        // _fused_rms_norm (newer exports): the normalized tensor and rsqrt(mean(x^2) + eps), keepdim.
        const auto x = values(2 * 4 * 32, 121, 2.0);
        const auto w = values(32, 122, 1.5);
        Case c;
        c.dump.weight("p_weight", "norm.weight", { 32 }, w);
        c.in("x", { 2, 4, 32 }, x);
        c.dump.tupleNode("_fused_rms_norm", "_fused_rms_norm.default",
            json::array({ arg("input", T("x")), arg("normalized_shape", Ints({ 32 })), arg("weight", T("p_weight")),
                arg("eps", F(1e-6)) }),
            { { "rms_out", { 2, 4, 32 } }, { "rms_rstd", { 2, 4, 1 } } });
        c.dump.output("rms_out");
        c.dump.output("rms_rstd");
        std::vector<double> rstd;
        for (std::size_t row = 0; row < 8; ++row) {
            double ms = 0;
            for (std::size_t k = 0; k < 32; ++k)
                ms += x[row * 32 + k] * x[row * 32 + k];
            rstd.push_back(1.0 / std::sqrt(ms / 32 + 1e-6));
        }
        c.expect({ 2, 4, 32 }, rmsNormRef(x, 32, w, 1e-6)).expect({ 2, 4, 1 }, rstd);
        QVERIFY_RUNS_ON_RUNTIME(c, "fused_rms_norm");
    }

    void batchNormWithoutAffine()
    {
        // nn.BatchNorm2d(4, affine=False).eval(): batch_norm with no weight and bias, and the core op the newer
        // exports hold (_native_batch_norm_legit_no_training), both on [2, 4, 5, 5].
        const auto x = values(200, 131, 2.0);
        const std::vector<double> mean { 0.5, -0.25, 0.0, 1.0 };
        const std::vector<double> var { 1.5, 0.75, 2.0, 0.25 };
        Case c;
        c.dump.weight("b_running_mean", "bn.running_mean", { 4 }, mean, false);
        c.dump.weight("b_running_var", "bn.running_var", { 4 }, var, false);
        c.in("x", { 2, 4, 5, 5 }, x);
        c.op("batch_norm", "batch_norm.default",
            json::array({ arg("input", T("x")), arg("weight", None()), arg("bias", None()),
                arg("running_mean", T("b_running_mean")), arg("running_var", T("b_running_var")),
                arg("training", B(false)), arg("momentum", F(0.1)), arg("eps", F(1e-5)),
                arg("cudnn_enabled", B(true)) }),
            { 2, 4, 5, 5 }, runningStatsRef(x, 4, 25, mean, var, {}, {}, 1e-5));
        c.dump.tupleNode("bn_legit", "_native_batch_norm_legit_no_training.default",
            json::array({ arg("input", T("x")), arg("weight", None()), arg("bias", None()),
                arg("running_mean", T("b_running_mean")), arg("running_var", T("b_running_var")),
                arg("momentum", F(0.1)), arg("eps", F(1e-3)) }),
            { { "bn_out", { 2, 4, 5, 5 } }, { "bn_mean", { 0 } }, { "bn_rstd", { 0 } } });
        c.dump.output("bn_out");
        c.expect({ 2, 4, 5, 5 }, runningStatsRef(x, 4, 25, mean, var, {}, {}, 1e-3));
        QVERIFY_RUNS_ON_RUNTIME(c, "batch_norm_no_affine");
    }

    void localResponseNorm_data()
    {
        QTest::addColumn<std::vector<std::int64_t>>("shape");
        QTest::addColumn<std::int64_t>("size");
        QTest::newRow("LRN(5) on [2, 16, 8, 8] (avg_pool3d)")
            << std::vector<std::int64_t> { 2, 16, 8, 8 } << std::int64_t(5);
        QTest::newRow("LRN(4) on [2, 6, 3, 4, 2] (avg_pool3d)")
            << std::vector<std::int64_t> { 2, 6, 3, 4, 2 } << std::int64_t(4);
        QTest::newRow("LRN(3) on [2, 16, 20] (avg_pool2d)")
            << std::vector<std::int64_t> { 2, 16, 20 } << std::int64_t(3);
    }

    void localResponseNorm()
    {
        // F.local_response_norm(x, size, alpha=1e-4, beta=0.75, k=1.0) as torch.export records its Python body:
        // 3-D: mul, unsqueeze, constant_pad_nd, avg_pool2d, squeeze; 4-D and more: mul, view to 5-D,
        // constant_pad_nd, avg_pool3d, squeeze, view; then mul, add, pow, div.
        QFETCH(std::vector<std::int64_t>, shape);
        QFETCH(std::int64_t, size);
        const std::int64_t n = shape[0];
        const std::int64_t ch = shape[1];
        const std::int64_t s = numel(shape) / (n * ch);
        const auto x = values(std::size_t(numel(shape)), 141, 4.0);
        const std::int64_t before = size / 2;
        const std::int64_t after = (size - 1) / 2;
        Case c;
        c.in("x", shape, x);
        c.dump.node("mul", "mul.Tensor", json::array({ arg("self", T("x")), arg("other", T("x")) }), shape);
        if (shape.size() == 3) {
            const std::vector<std::int64_t> u { n, 1, ch, shape[2] };
            const std::vector<std::int64_t> padded { n, 1, ch + size - 1, shape[2] };
            c.dump.node("unsqueeze", "unsqueeze.default", json::array({ arg("self", T("mul")), arg("dim", I(1)) }), u);
            c.dump.node("constant_pad_nd", "constant_pad_nd.default",
                json::array({ arg("self", T("unsqueeze")), arg("pad", Ints({ 0, 0, before, after })) }), padded);
            c.dump.node("avg_pool2d", "avg_pool2d.default",
                json::array(
                    { arg("self", T("constant_pad_nd")), arg("kernel_size", Ints({ size, 1 })), arg("stride", I(1)) }),
                u);
            c.dump.node(
                "squeeze", "squeeze.dim", json::array({ arg("self", T("avg_pool2d")), arg("dim", I(1)) }), shape);
        } else {
            const std::vector<std::int64_t> v { n, 1, ch, shape[2], s / shape[2] };
            const std::vector<std::int64_t> padded { n, 1, ch + size - 1, shape[2], s / shape[2] };
            c.dump.node("view", "view.default",
                json::array({ arg("self", T("mul")), arg("size", Ints({ n, 1, ch, shape[2], -1 })) }), v);
            c.dump.node("constant_pad_nd", "constant_pad_nd.default",
                json::array({ arg("self", T("view")), arg("pad", Ints({ 0, 0, 0, 0, before, after })) }), padded);
            c.dump.node("avg_pool3d", "avg_pool3d.default",
                json::array({ arg("self", T("constant_pad_nd")), arg("kernel_size", Ints({ size, 1, 1 })),
                    arg("stride", I(1)) }),
                v);
            c.dump.node("squeeze_1", "squeeze.dim", json::array({ arg("self", T("avg_pool3d")), arg("dim", I(1)) }),
                { n, ch, shape[2], s / shape[2] });
            c.dump.node("squeeze", "view.default",
                json::array({ arg("self", T("squeeze_1")), arg("size", Ints(shape)) }), shape);
        }
        c.dump.node("mul_1", "mul.Tensor", json::array({ arg("self", T("squeeze")), arg("other", F(1e-4)) }), shape);
        c.dump.node("add", "add.Tensor", json::array({ arg("self", T("mul_1")), arg("other", F(1.0)) }), shape);
        c.dump.node(
            "pow_1", "pow.Tensor_Scalar", json::array({ arg("self", T("add")), arg("exponent", F(0.75)) }), shape);
        c.op("div", "div.Tensor", json::array({ arg("self", T("x")), arg("other", T("pow_1")) }), shape,
            lrnRef(x, n, ch, s, size, 1e-4, 0.75, 1.0));
        QVERIFY_RUNS_ON_RUNTIME(c, "local_response_norm");
    }

    void avgPool3d_data()
    {
        QTest::addColumn<std::vector<std::int64_t>>("shape");
        QTest::addColumn<std::vector<std::int64_t>>("kernel");
        QTest::addColumn<std::vector<std::int64_t>>("stride"); // empty: omitted (= kernel)
        QTest::addColumn<std::vector<std::int64_t>>("padding"); // empty: omitted
        QTest::addColumn<bool>("ceil");
        QTest::addColumn<bool>("countIncludePad");
        QTest::addColumn<std::int64_t>("divisor"); // 0: None
        using V = std::vector<std::int64_t>;
        QTest::newRow("AvgPool3d(2) [1,2,4,6,6]")
            << V { 1, 2, 4, 6, 6 } << V { 2 } << V {} << V {} << false << true << std::int64_t(0);
        QTest::newRow("AvgPool3d(3, 2, 1, ceil, exclude pad) [2,3,5,7,7]")
            << V { 2, 3, 5, 7, 7 } << V { 3 } << V { 2 } << V { 1 } << true << false << std::int64_t(0);
        QTest::newRow("AvgPool3d((3,2,3), (1,2,2), (1,0,1), include pad) [3,6,5,7]")
            << V { 3, 6, 5, 7 } << V { 3, 2, 3 } << V { 1, 2, 2 } << V { 1, 0, 1 } << false << true << std::int64_t(0);
        QTest::newRow("AvgPool3d(2, divisor_override=3) [1,2,4,4,4]")
            << V { 1, 2, 4, 4, 4 } << V { 2 } << V {} << V {} << false << true << std::int64_t(3);
        QTest::newRow("AvgPool3d((1,3,3), 1, (0,1,1)) [1,2,3,5,5]")
            << V { 1, 2, 3, 5, 5 } << V { 1, 3, 3 } << V { 1 } << V { 0, 1, 1 } << false << false << std::int64_t(0);
    }

    void avgPool3d()
    {
        QFETCH(std::vector<std::int64_t>, shape);
        QFETCH(std::vector<std::int64_t>, kernel);
        QFETCH(std::vector<std::int64_t>, stride);
        QFETCH(std::vector<std::int64_t>, padding);
        QFETCH(bool, ceil);
        QFETCH(bool, countIncludePad);
        QFETCH(std::int64_t, divisor);
        auto three = [](const std::vector<std::int64_t>& v, std::array<std::int64_t, 3> fallback) {
            if (v.empty())
                return fallback;
            return v.size() == 1 ? std::array<std::int64_t, 3> { v[0], v[0], v[0] }
                                 : std::array<std::int64_t, 3> { v[0], v[1], v[2] };
        };
        const auto k = three(kernel, {});
        const auto s = three(stride, k);
        const auto p = three(padding, { 0, 0, 0 });
        const auto r = shape.size();
        const std::array<std::int64_t, 3> in { shape[r - 3], shape[r - 2], shape[r - 1] };
        const std::int64_t batch = numel(shape) / (in[0] * in[1] * in[2]);
        const auto x = values(std::size_t(numel(shape)), 151, 3.0);
        std::array<std::int64_t, 3> out {};
        const auto want = avgPool3dRef(x, batch, in, k, s, p, ceil, countIncludePad,
            divisor ? std::optional<std::int64_t>(divisor) : std::nullopt, out);
        std::vector<std::int64_t> outShape(shape.begin(), shape.end() - 3);
        outShape.insert(outShape.end(), out.begin(), out.end());
        json args = json::array({ arg("self", T("x")), arg("kernel_size", Ints(kernel)) });
        if (!stride.empty() || !padding.empty() || ceil || !countIncludePad || divisor)
            args.push_back(arg("stride", Ints(stride)));
        if (!padding.empty() || ceil || !countIncludePad || divisor)
            args.push_back(arg("padding", padding.empty() ? Ints({ 0 }) : Ints(padding)));
        if (ceil || !countIncludePad || divisor)
            args.push_back(arg("ceil_mode", B(ceil)));
        if (!countIncludePad || divisor)
            args.push_back(arg("count_include_pad", B(countIncludePad)));
        if (divisor)
            args.push_back(arg("divisor_override", I(divisor)));
        Case c;
        c.in("x", shape, x);
        c.op("avg_pool3d", "avg_pool3d.default", args, outShape, want);
        QVERIFY_RUNS_ON_RUNTIME(c, "avg_pool3d");
    }

    void normalize_data()
    {
        QTest::addColumn<double>("p"); // 2: omitted, as F.normalize's default p=2.0 equals the schema's
        QTest::addColumn<bool>("dynamic");
        QTest::newRow("F.normalize(x, dim=1) [4, 128]") << 2.0 << false;
        QTest::newRow("F.normalize(x, p=1, dim=1) [4, 128]") << 1.0 << false;
        QTest::newRow("F.normalize(x, dim=1), dynamic batch") << 2.0 << true;
    }

    void normalize()
    {
        // F.normalize: x / expand_as(clamp_min(linalg_vector_norm(x, p, [1], keepdim=True), eps)).
        QFETCH(double, p);
        QFETCH(bool, dynamic);
        const auto x = values(512, 161, 2.0);
        Case c;
        c.in("x", { 4, 128 }, x);
        json expandSize = Ints({ 4, 128 });
        if (dynamic) {
            c.dump.dynamic("x", 0, "s0", 4);
            c.dump.symNode(
                "sym_size_int", "sym_size.int", json::array({ arg("self", T("x")), arg("dim", I(0)) }), "s0", 4);
            expandSize = { { "as_sym_ints",
                json::array({ { { "as_name", "sym_size_int" } }, { { "as_int", 128 } } }) } };
        }
        json normArgs = json::array({ arg("self", T("x")) });
        if (p != 2.0)
            normArgs.push_back(arg("ord", F(p)));
        normArgs.push_back(arg("dim", Ints({ 1 })));
        normArgs.push_back(arg("keepdim", B(true)));
        c.dump.node("linalg_vector_norm", "linalg_vector_norm.default", normArgs, { 4, 1 });
        c.dump.node("clamp_min", "clamp_min.default",
            json::array({ arg("self", T("linalg_vector_norm")), arg("min", F(1e-12)) }), { 4, 1 });
        c.dump.node("expand", "expand.default", json::array({ arg("self", T("clamp_min")), arg("size", expandSize) }),
            { 4, 128 });
        const auto norms = vectorNormRef(x, { 4, 128 }, { 1 }, p);
        std::vector<double> want(512);
        for (std::size_t k = 0; k < 512; ++k)
            want[k] = f32(x[k] / std::max(norms[k / 128], 1e-12));
        c.op("div", "div.Tensor", json::array({ arg("self", T("x")), arg("other", T("expand")) }), { 4, 128 }, want);
        if (dynamic) {
            for (const char* name : { "linalg_vector_norm", "clamp_min", "expand", "div" })
                c.dump.dynamic(name, 0, "s0", 4);
        }
        QVERIFY_RUNS_ON_RUNTIME(c, "normalize");
    }

    void vectorNorm_data()
    {
        QTest::addColumn<std::string>("ord"); // the argument as JSON; "": omitted (2)
        QTest::addColumn<double>("ordValue");
        QTest::addColumn<std::vector<std::int64_t>>("dims"); // empty: None
        QTest::addColumn<bool>("keepdim");
        QTest::addColumn<int>("dtype"); // 0: None
        using V = std::vector<std::int64_t>;
        QTest::newRow("ord 2 (omitted), dim [1]") << std::string() << 2.0 << V { 1 } << false << 0;
        QTest::newRow("ord 1, dim [-1], keepdim") << F(1.0).dump() << 1.0 << V { -1 } << true << 0;
        QTest::newRow("ord inf, dim [0, 2]") << FInf(false).dump() << HUGE_VAL << V { 0, 2 } << false << 0;
        QTest::newRow("ord -inf, dim [1]") << FInf(true).dump() << -HUGE_VAL << V { 1 } << false << 0;
        QTest::newRow("ord 0, all dims") << F(0.0).dump() << 0.0 << V {} << false << 0;
        QTest::newRow("ord 3 (int), dim [2]") << I(3).dump() << 3.0 << V { 2 } << true << 0;
        QTest::newRow("ord 0.5, all dims, keepdim") << F(0.5).dump() << 0.5 << V {} << true << 0;
        QTest::newRow("ord 2, dim [1], dtype float64") << std::string() << 2.0 << V { 1 } << false << kDouble;
        QTest::newRow("ord 2, dim [3] of size 1 (|x|)") << std::string() << 2.0 << V { 3 } << false << 0;
    }

    void vectorNorm()
    {
        QFETCH(std::string, ord);
        QFETCH(double, ordValue);
        QFETCH(std::vector<std::int64_t>, dims);
        QFETCH(bool, keepdim);
        QFETCH(int, dtype);
        const std::vector<std::int64_t> shape { 3, 5, 4, 1 };
        auto x = values(60, 171, 3.0);
        x[7] = 0.0;
        x[20] = 0.0;
        json args = json::array({ arg("self", T("x")) });
        if (!ord.empty())
            args.push_back(arg("ord", json::parse(ord)));
        if (!dims.empty())
            args.push_back(arg("dim", Ints(dims)));
        if (keepdim)
            args.push_back(arg("keepdim", B(true)));
        if (dtype)
            args.push_back(kwarg("dtype", Dtype(dtype)));
        std::vector<std::int64_t> wrapped;
        for (const auto d : dims)
            wrapped.push_back(d < 0 ? d + 4 : d);
        std::vector<std::int64_t> outShape;
        for (std::size_t d = 0; d < shape.size(); ++d) {
            const bool reduced = wrapped.empty() || std::count(wrapped.begin(), wrapped.end(), std::int64_t(d));
            if (!reduced)
                outShape.push_back(shape[d]);
            else if (keepdim)
                outShape.push_back(1);
        }
        Case c;
        c.in("x", shape, x);
        c.op("linalg_vector_norm", "linalg_vector_norm.default", args, outShape,
            vectorNormRef(x, shape, wrapped, ordValue), dtype ? dtype : kFloat);
        QVERIFY_RUNS_ON_RUNTIME(c, "linalg_vector_norm");
    }

    void norm()
    {
        // aten::norm overloads, decomposed as torch does: linalg_vector_norm.
        const auto x = values(24, 181, 2.0);
        Case c;
        c.in("x", { 2, 3, 4 }, x);
        c.op("norm", "norm.ScalarOpt_dim",
            json::array({ arg("self", T("x")), arg("p", F(2.0)), arg("dim", Ints({ 2 })) }), { 2, 3 },
            vectorNormRef(x, { 2, 3, 4 }, { 2 }, 2.0));
        c.op("norm_1", "norm.Scalar", json::array({ arg("self", T("x")), arg("p", I(1)) }), {},
            vectorNormRef(x, { 2, 3, 4 }, {}, 1.0));
        c.op("norm_2", "norm.ScalarOpt_dim_dtype",
            json::array({ arg("self", T("x")), arg("p", None()), arg("dim", Ints({ 0, 1 })), arg("keepdim", B(true)),
                kwarg("dtype", Dtype(kDouble)) }),
            { 1, 1, 4 }, vectorNormRef(x, { 2, 3, 4 }, { 0, 1 }, 2.0), kDouble);
        QVERIFY_RUNS_ON_RUNTIME(c, "norm");
    }

    void clampMinAndMax()
    {
        const auto x = values(12, 191, 2.0);
        const auto lo = values(4, 192, 1.0);
        Case c;
        c.in("x", { 3, 4 }, x).in("lo", { 4 }, lo);
        std::vector<double> a(12), b(12), t(12);
        for (std::size_t k = 0; k < 12; ++k) {
            a[k] = std::max(x[k], f32(0.25));
            b[k] = std::min(x[k], -0.5);
            t[k] = std::max(x[k], lo[k % 4]);
        }
        c.op("clamp_min", "clamp_min.default", json::array({ arg("self", T("x")), arg("min", F(0.25)) }), { 3, 4 }, a);
        c.op("clamp_max", "clamp_max.default", json::array({ arg("self", T("x")), arg("max", F(-0.5)) }), { 3, 4 }, b);
        c.op("clamp_min_1", "clamp_min.Tensor", json::array({ arg("self", T("x")), arg("min", T("lo")) }), { 3, 4 }, t);
        // An int64 tensor with a float bound: a float result (torch's type promotion), clamped in float.
        c.in("i", { 5 }, { -3, -1, 0, 2, 7 }, kLong);
        c.op("clamp_max_1", "clamp_max.default", json::array({ arg("self", T("i")), arg("max", F(1.5)) }), { 5 },
            { -3, -1, 0, 1.5, 1.5 });
        c.op("clamp_max_2", "clamp_max.Tensor", json::array({ arg("self", T("x")), arg("max", T("lo")) }), { 3, 4 },
            [&] {
                std::vector<double> m(12);
                for (std::size_t k = 0; k < 12; ++k)
                    m[k] = std::min(x[k], lo[k % 4]);
                return m;
            }());
        QVERIFY_RUNS_ON_RUNTIME(c, "clamp_min_max");
    }
};

QTEST_GUILESS_MAIN(TestLoweringNormalization)
#include "tst_lowering_normalization.moc"
