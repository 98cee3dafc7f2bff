// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// Activations as torch.export's training IR writes them: composite ops kept as single nodes (relu6, selu, celu,
// softplus, mish, hardshrink, softshrink, log_sigmoid, prelu, threshold, rrelu, softmax with a dtype), ops with a
// kernel of ExecuTorch's runtime (hardtanh, elu, gelu, glu, leaky_relu, logit, sigmoid, tanh), in-place forms, and
// the pieces Python functions are made of (softsign, tanhshrink, softmin). Each is emitted by ptelens, run on
// ExecuTorch's runtime and compared with the activation's documented formula, computed here in double and rounded to
// float32.
#include "dumpbuilder.h"
#include "errorcheck.h"
#include "etrunner.h"
#include "executiontestutils.h"
#include "runtimecase.h"
#include "testutils.h"

#include <QTest>

#include <algorithm>
#include <cmath>
#include <functional>
#include <numeric>

using namespace pte;
using namespace pte::test;
using nlohmann::json;

namespace {

constexpr double kPi = 3.14159265358979323846;

double sigmoid(double v) { return 1.0 / (1.0 + std::exp(-v)); }
double softplus(double v, double beta, double threshold)
{
    return v * beta > threshold ? v : std::log1p(std::exp(v * beta)) / beta;
}

std::int64_t numel(const std::vector<std::int64_t>& s)
{
    return std::accumulate(s.begin(), s.end(), std::int64_t(1), std::multiplies<>());
}

/** One node `y` = target(x, extra args...) on x of `shape` (values in [-scale, scale]) returning f(x). */
Case unary(const std::string& target, const json& extra, const std::vector<std::int64_t>& shape, double scale,
    const std::function<double(double)>& f, std::uint32_t seed = 7)
{
    const auto x = values(std::size_t(numel(shape)), seed, scale);
    Case c;
    c.in("x", shape, x);
    json args = json::array({ arg("self", T("x")) });
    for (const auto& a : extra)
        args.push_back(a);
    c.op("y", target, args, shape, map(x, f));
    return c;
}

} // namespace

class TestLoweringActivation : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void pointwise_data()
    {
        // target, extra arguments (JSON), input scale, the formula (by row name below)
        QTest::addColumn<std::string>("target");
        QTest::addColumn<std::string>("extra");
        QTest::addColumn<double>("scale");
        QTest::newRow("relu6") << std::string("relu6.default") << std::string("[]") << 8.0;
        QTest::newRow("hardtanh(-2, 3)") << std::string("hardtanh.default")
                                         << json::array({ arg("min_val", F(-2.0)), arg("max_val", F(3.0)) }).dump()
                                         << 5.0;
        QTest::newRow("softplus") << std::string("softplus.default") << std::string("[]") << 30.0;
        QTest::newRow("softplus(beta=2, threshold=5)")
            << std::string("softplus.default") << json::array({ arg("beta", F(2.0)), arg("threshold", F(5.0)) }).dump()
            << 6.0;
        QTest::newRow("mish") << std::string("mish.default") << std::string("[]") << 25.0;
        QTest::newRow("elu") << std::string("elu.default") << std::string("[]") << 4.0;
        QTest::newRow("elu(alpha=0.5, scale=2, input_scale=1.5)")
            << std::string("elu.default")
            << json::array({ arg("alpha", F(0.5)), arg("scale", F(2.0)), arg("input_scale", F(1.5)) }).dump() << 4.0;
        QTest::newRow("selu") << std::string("selu.default") << std::string("[]") << 4.0;
        QTest::newRow("celu") << std::string("celu.default") << std::string("[]") << 4.0;
        QTest::newRow("celu(alpha=2)") << std::string("celu.default") << json::array({ arg("alpha", F(2.0)) }).dump()
                                       << 4.0;
        QTest::newRow("hardshrink") << std::string("hardshrink.default") << std::string("[]") << 2.0;
        QTest::newRow("hardshrink(0.7777)")
            << std::string("hardshrink.default") << json::array({ arg("lambd", F(0.7777)) }).dump() << 2.0;
        QTest::newRow("softshrink") << std::string("softshrink.default") << std::string("[]") << 2.0;
        QTest::newRow("softshrink(1.2345)")
            << std::string("softshrink.default") << json::array({ arg("lambd", F(1.2345)) }).dump() << 2.0;
        QTest::newRow("logsigmoid") << std::string("log_sigmoid.default") << std::string("[]") << 10.0;
        QTest::newRow("threshold(0.1005, 20)")
            << std::string("threshold.default")
            << json::array({ arg("threshold", F(0.1005)), arg("value", F(20.0)) }).dump() << 2.0;
        QTest::newRow("rrelu eval (defaults)") << std::string("rrelu.default") << std::string("[]") << 3.0;
        QTest::newRow("rrelu eval (0.1, 0.3)")
            << std::string("rrelu.default") << json::array({ arg("lower", F(0.1)), arg("upper", F(0.3)) }).dump()
            << 3.0;
        QTest::newRow("gelu") << std::string("gelu.default") << std::string("[]") << 4.0;
        QTest::newRow("gelu(approximate='tanh')")
            << std::string("gelu.default") << json::array({ kwarg("approximate", S("tanh")) }).dump() << 4.0;
        QTest::newRow("leaky_relu") << std::string("leaky_relu.default") << std::string("[]") << 3.0;
        QTest::newRow("leaky_relu(0.2)") << std::string("leaky_relu.default")
                                         << json::array({ arg("negative_slope", F(0.2)) }).dump() << 3.0;
        QTest::newRow("sigmoid") << std::string("sigmoid.default") << std::string("[]") << 6.0;
        QTest::newRow("tanh") << std::string("tanh.default") << std::string("[]") << 3.0;
        QTest::newRow("silu") << std::string("silu.default") << std::string("[]") << 6.0;
        QTest::newRow("hardswish") << std::string("hardswish.default") << std::string("[]") << 5.0;
        QTest::newRow("hardsigmoid") << std::string("hardsigmoid.default") << std::string("[]") << 5.0;
    }

    void pointwise()
    {
        QFETCH(std::string, target);
        QFETCH(std::string, extra);
        QFETCH(double, scale);
        const std::string row = QTest::currentDataTag();
        const double selAlpha = 1.6732632423543772848170429916717;
        const double selScale = 1.0507009873554804934193349852946;
        std::function<double(double)> f;
        if (row == "relu6")
            f = [](double v) { return std::clamp(v, 0.0, 6.0); };
        else if (row == "hardtanh(-2, 3)")
            f = [](double v) { return std::clamp(v, -2.0, 3.0); };
        else if (row == "softplus")
            f = [](double v) { return softplus(v, 1.0, 20.0); };
        else if (row == "softplus(beta=2, threshold=5)")
            f = [](double v) { return softplus(v, 2.0, 5.0); };
        else if (row == "mish")
            f = [](double v) { return v * std::tanh(softplus(v, 1.0, 20.0)); };
        else if (row == "elu")
            f = [](double v) { return v > 0 ? v : std::expm1(v); };
        else if (row == "elu(alpha=0.5, scale=2, input_scale=1.5)")
            f = [](double v) { return v > 0 ? 2.0 * v : 0.5 * 2.0 * std::expm1(v * 1.5); };
        else if (row == "selu")
            f = [&](double v) { return v > 0 ? selScale * v : selScale * selAlpha * std::expm1(v); };
        else if (row == "celu")
            f = [](double v) { return v > 0 ? v : std::expm1(v); };
        else if (row == "celu(alpha=2)")
            f = [](double v) { return v > 0 ? v : 2.0 * std::expm1(v / 2.0); };
        else if (row == "hardshrink")
            f = [](double v) { return std::fabs(v) <= 0.5 ? 0.0 : v; };
        else if (row == "hardshrink(0.7777)")
            f = [](double v) { return std::fabs(v) <= 0.7777 ? 0.0 : v; };
        else if (row == "softshrink")
            f = [](double v) { return v > 0.5 ? v - 0.5 : v < -0.5 ? v + 0.5 : 0.0; };
        else if (row == "softshrink(1.2345)")
            f = [](double v) { return v > 1.2345 ? v - 1.2345 : v < -1.2345 ? v + 1.2345 : 0.0; };
        else if (row == "logsigmoid")
            f = [](double v) { return std::log(sigmoid(v)); };
        else if (row == "threshold(0.1005, 20)")
            f = [](double v) { return v <= 0.1005 ? 20.0 : v; };
        else if (row == "rrelu eval (defaults)")
            f = [](double v) { return v >= 0 ? v : v * (0.125 + 1.0 / 3.0) / 2; };
        else if (row == "rrelu eval (0.1, 0.3)")
            f = [](double v) { return v >= 0 ? v : v * 0.2; };
        else if (row == "gelu")
            f = [](double v) { return 0.5 * v * (1 + std::erf(v / std::sqrt(2.0))); };
        else if (row == "gelu(approximate='tanh')")
            f = [](double v) { return 0.5 * v * (1 + std::tanh(std::sqrt(2 / kPi) * (v + 0.044715 * v * v * v))); };
        else if (row == "leaky_relu")
            f = [](double v) { return v >= 0 ? v : 0.01 * v; };
        else if (row == "leaky_relu(0.2)")
            f = [](double v) { return v >= 0 ? v : 0.2 * v; };
        else if (row == "sigmoid")
            f = [](double v) { return sigmoid(v); };
        else if (row == "tanh")
            f = [](double v) { return std::tanh(v); };
        else if (row == "silu")
            f = [](double v) { return v * sigmoid(v); };
        else if (row == "hardswish")
            f = [](double v) { return v * std::clamp(v + 3, 0.0, 6.0) / 6; };
        else if (row == "hardsigmoid")
            f = [](double v) { return std::clamp(v + 3, 0.0, 6.0) / 6; };
        QVERIFY2(f, row.c_str());
        Case c = unary(target, json::parse(extra), { 2, 8, 4, 4 }, scale, f);
        QVERIFY_RUNS_ON_RUNTIME(c, "activation_" + row);
    }

    void glu_data()
    {
        QTest::addColumn<std::vector<std::int64_t>>("shape");
        QTest::addColumn<std::int64_t>("dim"); // 99: omitted (-1)
        QTest::newRow("glu [4, 10], dim omitted") << std::vector<std::int64_t> { 4, 10 } << std::int64_t(99);
        QTest::newRow("glu [2, 8, 5], dim 1") << std::vector<std::int64_t> { 2, 8, 5 } << std::int64_t(1);
    }

    void glu()
    {
        // nn.GLU: a * sigmoid(b), the two halves of `dim` (portable glu.out).
        QFETCH(std::vector<std::int64_t>, shape);
        QFETCH(std::int64_t, dim);
        const std::size_t d = dim == 99 ? shape.size() - 1 : std::size_t(dim);
        const auto x = values(std::size_t(numel(shape)), 201, 3.0);
        std::vector<std::int64_t> out = shape;
        out[d] /= 2;
        const std::int64_t inner = numel(std::vector<std::int64_t>(shape.begin() + std::ptrdiff_t(d) + 1, shape.end()));
        const std::int64_t outer = numel(std::vector<std::int64_t>(shape.begin(), shape.begin() + std::ptrdiff_t(d)));
        const std::int64_t half = out[d];
        std::vector<double> want;
        for (std::int64_t o = 0; o < outer; ++o)
            for (std::int64_t h = 0; h < half; ++h)
                for (std::int64_t i = 0; i < inner; ++i) {
                    const double a = x[std::size_t((o * shape[d] + h) * inner + i)];
                    const double b = x[std::size_t((o * shape[d] + h + half) * inner + i)];
                    want.push_back(f32(a * sigmoid(b)));
                }
        Case c;
        c.in("x", shape, x);
        json args = json::array({ arg("self", T("x")) });
        if (dim != 99)
            args.push_back(arg("dim", I(dim)));
        c.op("glu", "glu.default", args, out, want);
        QVERIFY_RUNS_ON_RUNTIME(c, "glu");
    }

    void logSigmoidForwardReturnsItsBuffer()
    {
        const auto x = values(24, 211, 8.0);
        Case c;
        c.in("x", { 4, 6 }, x);
        c.dump.tupleNode("log_sigmoid_forward", "log_sigmoid_forward.default", json::array({ arg("self", T("x")) }),
            { { "ls_out", { 4, 6 } }, { "ls_buffer", { 4, 6 } } });
        c.dump.output("ls_out");
        c.dump.output("ls_buffer");
        c.expect({ 4, 6 }, map(x, [](double v) { return std::log(sigmoid(v)); })).expect({ 4, 6 }, map(x, [](double v) {
            return std::exp(-std::fabs(v));
        }));
        QVERIFY_RUNS_ON_RUNTIME(c, "log_sigmoid_forward");
    }

    void logit_data()
    {
        QTest::addColumn<double>("eps"); // negative: omitted (None)
        QTest::newRow("logit") << -1.0;
        QTest::newRow("logit(eps=0.01)") << 0.01;
    }

    void logit()
    {
        QFETCH(double, eps);
        std::vector<double> x;
        for (int k = 1; k < 20; ++k)
            x.push_back(f32(k * 0.05));
        if (eps >= 0) {
            x.push_back(0.0);
            x.push_back(1.0);
            x.push_back(0.005);
        }
        const auto n = std::int64_t(x.size());
        Case c;
        c.in("x", { n }, x);
        json args = json::array({ arg("self", T("x")) });
        if (eps >= 0)
            args.push_back(arg("eps", F(eps)));
        c.op("logit", "logit.default", args, { n }, map(x, [eps](double v) {
            if (eps >= 0)
                v = std::clamp(v, f32(eps), f32(1 - eps));
            return std::log(v / (1 - v));
        }));
        QVERIFY_RUNS_ON_RUNTIME(c, "logit");
    }

    void prelu_data()
    {
        QTest::addColumn<std::vector<std::int64_t>>("shape");
        QTest::addColumn<std::int64_t>("parameters");
        QTest::newRow("nn.PReLU() on [2, 3, 4, 4]") << std::vector<std::int64_t> { 2, 3, 4, 4 } << std::int64_t(1);
        QTest::newRow("nn.PReLU(3) on [2, 3, 4, 4]") << std::vector<std::int64_t> { 2, 3, 4, 4 } << std::int64_t(3);
        QTest::newRow("nn.PReLU(16) on [4, 16]") << std::vector<std::int64_t> { 4, 16 } << std::int64_t(16);
        QTest::newRow("nn.PReLU() on [7]") << std::vector<std::int64_t> { 7 } << std::int64_t(1);
    }

    void prelu()
    {
        // prelu(x, weight): one parameter, or one per channel (dim 1).
        QFETCH(std::vector<std::int64_t>, shape);
        QFETCH(std::int64_t, parameters);
        const auto x = values(std::size_t(numel(shape)), 221, 3.0);
        const auto w = values(std::size_t(parameters), 222, 0.5);
        const std::int64_t inner = shape.size() > 2 ? numel(shape) / (shape[0] * shape[1]) : 1;
        std::vector<double> want(x.size());
        for (std::size_t k = 0; k < x.size(); ++k) {
            const double a = parameters == 1 ? w[0] : w[std::size_t((std::int64_t(k) / inner) % parameters)];
            want[k] = x[k] > 0 ? x[k] : f32(a * x[k]);
        }
        Case c;
        c.dump.weight("p_weight", "act.weight", { parameters }, w);
        c.in("x", shape, x);
        c.op("prelu", "prelu.default", json::array({ arg("self", T("x")), arg("weight", T("p_weight")) }), shape, want);
        QVERIFY_RUNS_ON_RUNTIME(c, "prelu");
    }

    void preluKernel()
    {
        // _prelu_kernel with the weight already broadcastable: where(x > 0, x, w * x).
        const auto x = values(24, 231, 3.0);
        const auto w = values(3, 232, 0.5);
        Case c;
        c.in("x", { 2, 3, 4 }, x).in("w", { 3, 1 }, w);
        std::vector<double> want(24);
        for (std::size_t k = 0; k < 24; ++k)
            want[k] = x[k] > 0 ? x[k] : f32(w[(k / 4) % 3] * x[k]);
        c.op("y", "_prelu_kernel.default", json::array({ arg("self", T("x")), arg("weight", T("w")) }), { 2, 3, 4 },
            want);
        QVERIFY_RUNS_ON_RUNTIME(c, "prelu_kernel");
    }

    void dynamicBatch()
    {
        // PReLU(3) then softplus then mish on [s0, 3, 5], s0 <= 4, run at the upper bound.
        const auto x = values(60, 241, 6.0);
        const auto w = values(3, 242, 0.5);
        Case c;
        c.dump.weight("p_weight", "act.weight", { 3 }, w);
        c.in("x", { 4, 3, 5 }, x);
        c.dump.dynamic("x", 0, "s0", 4);
        c.dump.node(
            "prelu", "prelu.default", json::array({ arg("self", T("x")), arg("weight", T("p_weight")) }), { 4, 3, 5 });
        c.dump.node("softplus", "softplus.default", json::array({ arg("self", T("prelu")) }), { 4, 3, 5 });
        c.dump.node("mish", "mish.default", json::array({ arg("self", T("softplus")) }), { 4, 3, 5 });
        c.dump.output("mish");
        for (const char* name : { "prelu", "softplus", "mish" })
            c.dump.dynamic(name, 0, "s0", 4);
        std::vector<double> want(60);
        for (std::size_t k = 0; k < 60; ++k) {
            const double p = x[k] > 0 ? x[k] : f32(w[(k / 5) % 3] * x[k]);
            const double s = f32(softplus(p, 1.0, 20.0));
            want[k] = f32(s * std::tanh(softplus(s, 1.0, 20.0)));
        }
        c.expect({ 4, 3, 5 }, want);
        QVERIFY_RUNS_ON_RUNTIME(c, "activation_dynamic");
    }

    void inPlaceForms()
    {
        // nn.ReLU6(inplace=True), nn.ELU(inplace=True), nn.LeakyReLU(0.1, inplace=True) on intermediate results, as
        // the training IR writes them: relu6_, elu_, leaky_relu_ (functionalized: every later use reads the result).
        const auto x = values(64, 251, 8.0);
        Case c;
        c.in("x", { 4, 16 }, x);
        c.dump.node("mul", "mul.Tensor", json::array({ arg("self", T("x")), arg("other", F(0.5)) }), { 4, 16 });
        c.dump.node("relu6_", "relu6_.default", json::array({ arg("self", T("mul")) }), { 4, 16 });
        c.dump.node("add", "add.Tensor", json::array({ arg("self", T("mul")), arg("other", F(-3.0)) }), { 4, 16 });
        c.dump.node("elu_", "elu_.default", json::array({ arg("self", T("add")) }), { 4, 16 });
        c.dump.node("neg", "neg.default", json::array({ arg("self", T("x")) }), { 4, 16 });
        c.dump.node("leaky_relu_", "leaky_relu_.default",
            json::array({ arg("self", T("neg")), arg("negative_slope", F(0.1)) }), { 4, 16 });
        c.dump.output("elu_");
        c.dump.output("leaky_relu_");
        std::vector<double> e(64), l(64);
        for (std::size_t k = 0; k < 64; ++k) {
            const double r = std::clamp(f32(x[k] * 0.5), 0.0, 6.0);
            const double a = f32(r - 3.0);
            e[k] = f32(a > 0 ? a : std::expm1(a));
            l[k] = -x[k] >= 0 ? -x[k] : f32(0.1 * -x[k]);
        }
        c.expect({ 4, 16 }, e).expect({ 4, 16 }, l);
        QVERIFY_RUNS_ON_RUNTIME(c, "activation_inplace");
    }

    void functionalPieces()
    {
        // F.softsign: x / (|x| + 1); F.tanhshrink: x - tanh(x); F.softmin(x, dim=1): softmax(-x, 1).
        const auto x = values(40, 261, 4.0);
        Case c;
        c.in("x", { 4, 10 }, x);
        c.dump.node("abs", "abs.default", json::array({ arg("self", T("x")) }), { 4, 10 });
        c.dump.node("add", "add.Tensor", json::array({ arg("self", T("abs")), arg("other", I(1)) }), { 4, 10 });
        c.dump.node("tanh", "tanh.default", json::array({ arg("self", T("x")) }), { 4, 10 });
        c.dump.node("neg", "neg.default", json::array({ arg("self", T("x")) }), { 4, 10 });
        std::vector<double> softsign(40), tanhshrink(40), softmin(40);
        for (std::size_t k = 0; k < 40; ++k) {
            softsign[k] = f32(x[k] / f32(std::fabs(x[k]) + 1));
            tanhshrink[k] = f32(x[k] - f32(std::tanh(x[k])));
        }
        for (std::size_t row = 0; row < 4; ++row) {
            double total = 0;
            for (std::size_t k = 0; k < 10; ++k)
                total += std::exp(-x[row * 10 + k]);
            for (std::size_t k = 0; k < 10; ++k)
                softmin[row * 10 + k] = f32(std::exp(-x[row * 10 + k]) / total);
        }
        c.op("div", "div.Tensor", json::array({ arg("self", T("x")), arg("other", T("add")) }), { 4, 10 }, softsign);
        c.op("sub", "sub.Tensor", json::array({ arg("self", T("x")), arg("other", T("tanh")) }), { 4, 10 }, tanhshrink);
        c.op("softmax", "softmax.int", json::array({ arg("self", T("neg")), arg("dim", I(1)) }), { 4, 10 }, softmin);
        QVERIFY_RUNS_ON_RUNTIME(c, "activation_pieces");
    }

    void softmaxWithDtype()
    {
        // F.softmax(x, dim=-1, dtype=torch.float64) and F.log_softmax(x, dim=1, dtype=torch.float64): x converted
        // first, the result in double; F.log_softmax(x, 0) without one.
        const auto x = values(24, 271, 5.0);
        Case c;
        c.in("x", { 4, 6 }, x);
        std::vector<double> sm(24), lsm(24), lsm0(24);
        for (std::size_t row = 0; row < 4; ++row) {
            double total = 0;
            for (std::size_t k = 0; k < 6; ++k)
                total += std::exp(x[row * 6 + k]);
            for (std::size_t k = 0; k < 6; ++k) {
                sm[row * 6 + k] = std::exp(x[row * 6 + k]) / total;
                lsm[row * 6 + k] = x[row * 6 + k] - std::log(total);
            }
        }
        for (std::size_t col = 0; col < 6; ++col) {
            double total = 0;
            for (std::size_t r = 0; r < 4; ++r)
                total += std::exp(x[r * 6 + col]);
            for (std::size_t r = 0; r < 4; ++r)
                lsm0[r * 6 + col] = f32(x[r * 6 + col] - std::log(total));
        }
        c.op("softmax", "softmax.int",
            json::array({ arg("self", T("x")), arg("dim", I(-1)), arg("dtype", Dtype(kDouble)) }), { 4, 6 }, sm,
            kDouble);
        c.op("log_softmax", "log_softmax.int",
            json::array({ arg("self", T("x")), arg("dim", I(1)), arg("dtype", Dtype(kDouble)) }), { 4, 6 }, lsm,
            kDouble);
        c.op(
            "log_softmax_1", "log_softmax.int", json::array({ arg("self", T("x")), arg("dim", I(0)) }), { 4, 6 }, lsm0);
        QVERIFY_RUNS_ON_RUNTIME(c, "softmax_dtype");
    }

    void rreluInTrainingIsRefused()
    {
        Case c = unary(
            "rrelu.default", json::array({ arg("training", B(true)) }), { 4, 4 }, 1.0, [](double v) { return v; });
        QVERIFY_ERROR(
            emitOnly(c, "rrelu_training"), ErrorCode::Unsupported, "rrelu", "training mode", "random negative slope");
    }

    void preluRefusesAMismatchedWeight()
    {
        Case c;
        c.dump.weight("p_weight", "act.weight", { 4 }, { 0.25, 0.25, 0.25, 0.25 });
        c.in("x", { 2, 3, 5 }, values(30, 281));
        c.op("prelu", "prelu.default", json::array({ arg("self", T("x")), arg("weight", T("p_weight")) }), { 2, 3, 5 },
            std::vector<double>(30, 0.0));
        QVERIFY_ERROR(emitOnly(c, "prelu_mismatch"), ErrorCode::InvalidInput, "prelu",
            "parameter numbers = 4 and channel size = 3");
    }
};

QTEST_GUILESS_MAIN(TestLoweringActivation)
#include "tst_lowering_activation.moc"
