// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// The backward ops of training (joint) graphs that ptelens lowers: the activations' (gelu, silu, hardswish,
// hardsigmoid, hardtanh, leaky_relu, elu, glu), _softmax_backward_data, select_backward, slice_backward and
// embedding_dense_backward, each written as torch.export writes the node, emitted by ptelens and run on ExecuTorch's
// runtime. The expected values are the derivatives of the forward ops, worked out here in double (d/dx of each
// activation times the incoming gradient), never the decomposition's formulas.
#include "dumpbuilder.h"
#include "etrunner.h"
#include "runtimecase.h"
#include "tensorindex.h"
#include "testutils.h"

#include <QTest>

#include <algorithm>
#include <cmath>
#include <functional>
#include <string>
#include <vector>

using namespace pte;
using namespace pte::test;
using nlohmann::json;

namespace {

constexpr double kPi = 3.14159265358979323846;

json grad() { return arg("grad_output", T("g")); }
json self() { return arg("self", T("x")); }

/** x spread over [-4.5, 4.5] (both sides of every activation's kinks) and a gradient g, [3, 6] each. */
Case activationCase()
{
    Case c;
    Values x;
    for (int i = 0; i < 18; ++i)
        x.push_back(f32(-4.5 + 0.53 * i));
    c.in("x", { 3, 6 }, x).in("g", { 3, 6 }, values(18, 71, 2.0));
    return c;
}

Values elementwise(const Case& c, const std::function<double(double x, double g)>& f)
{
    Values out;
    for (std::size_t i = 0; i < c.inputs[0].values.size(); ++i)
        out.push_back(f(c.inputs[0].values[i], c.inputs[1].values[i]));
    return out;
}

double sigmoid(double v) { return 1.0 / (1.0 + std::exp(-v)); }

} // namespace

class TestLoweringBackward : public QObject
{
    Q_OBJECT

private slots:
    void activations()
    {
        Case c = activationCase();
        const Shape s { 3, 6 };
        // d/dx of x * Phi(x) = Phi(x) + x phi(x).
        c.op(
            "gelu", "gelu_backward.default", json::array({ grad(), self() }), s, elementwise(c, [](double x, double g) {
                return g * (0.5 * (1 + std::erf(x / std::sqrt(2.0))) + x * std::exp(-x * x / 2) / std::sqrt(2 * kPi));
            }));
        // d/dx of 0.5 x (1 + tanh(u)), u = sqrt(2/pi) (x + 0.044715 x^3).
        c.op("gelu_tanh", "gelu_backward.default", json::array({ grad(), self(), kwarg("approximate", S("tanh")) }), s,
            elementwise(c, [](double x, double g) {
                const double k = std::sqrt(2 / kPi);
                const double t = std::tanh(k * (x + 0.044715 * x * x * x));
                return g * (0.5 * (1 + t) + 0.5 * x * (1 - t * t) * k * (1 + 3 * 0.044715 * x * x));
            }));
        // d/dx of x sigmoid(x).
        c.op("silu", "silu_backward.default", json::array({ grad(), self() }), s,
            elementwise(c, [](double x, double g) { return g * (sigmoid(x) + x * sigmoid(x) * (1 - sigmoid(x))); }));
        // d/dx of x relu6(x + 3) / 6: 0 below -3, (2x + 3) / 6 up to 3, 1 above.
        c.op("hswish", "hardswish_backward.default", json::array({ grad(), self() }), s,
            elementwise(c, [](double x, double g) { return x < -3 ? 0.0
                                                        : x <= 3  ? g * (2 * x + 3) / 6
                                                                  : g; }));
        // d/dx of relu6(x + 3) / 6.
        c.op("hsigmoid", "hardsigmoid_backward.default", json::array({ grad(), self() }), s,
            elementwise(c, [](double x, double g) { return x > -3 && x < 3 ? g / 6 : 0.0; }));
        c.op("htanh", "hardtanh_backward.default",
            json::array({ grad(), self(), arg("min_val", F(-0.5)), arg("max_val", F(0.7)) }), s,
            elementwise(c, [](double x, double g) { return x > -0.5 && x < 0.7 ? g : 0.0; }));
        c.op("leaky", "leaky_relu_backward.default",
            json::array({ grad(), self(), arg("negative_slope", F(0.2)), arg("self_is_result", B(false)) }), s,
            elementwise(c, [](double x, double g) { return x > 0 ? g : 0.2 * g; }));
        // d/dx of elu(x) = alpha (exp(x) - 1) below 0, x above: alpha exp(x), 1.
        c.op("elu", "elu_backward.default",
            json::array({ grad(), arg("alpha", F(1.3)), arg("scale", I(1)), arg("input_scale", I(1)),
                arg("is_result", B(false)), arg("self_or_result", T("x")) }),
            s, elementwise(c, [](double x, double g) { return x <= 0 ? g * 1.3 * std::exp(x) : g; }));
        QVERIFY_RUNS_ON_RUNTIME(c, "backward activations");
    }

    void eluFromItsResult()
    {
        // The joint graph of nn.ELU(inplace=True) passes the result y: below 0 the derivative is y + alpha.
        Case c = activationCase();
        Values y;
        for (const double x : c.inputs[0].values)
            y.push_back(f32(x <= 0 ? 0.8 * (std::exp(x) - 1) : x));
        c.in("y", { 3, 6 }, y);
        Values want;
        for (std::size_t i = 0; i < y.size(); ++i)
            want.push_back(y[i] <= 0 ? c.inputs[1].values[i] * (y[i] + 0.8) : c.inputs[1].values[i]);
        c.op("elu", "elu_backward.default",
            json::array({ grad(), arg("alpha", F(0.8)), arg("scale", I(1)), arg("input_scale", I(1)),
                arg("is_result", B(true)), arg("self_or_result", T("y")) }),
            { 3, 6 }, want);
        QVERIFY_RUNS_ON_RUNTIME(c, "backward elu from the result");
    }

    void glu()
    {
        // glu(x) = a sigmoid(c) for the halves [a, c] of the last dimension: d/da = sigmoid(c) g,
        // d/dc = a sigmoid(c) (1 - sigmoid(c)) g.
        Case c;
        c.in("x", { 2, 6 }, values(12, 72, 2.0)).in("g", { 2, 3 }, values(6, 73));
        const auto x = c.inputs[0].values, g = c.inputs[1].values;
        Values want(12);
        for (int r = 0; r < 2; ++r)
            for (int j = 0; j < 3; ++j) {
                const double a = x[std::size_t(r * 6 + j)], h = x[std::size_t(r * 6 + 3 + j)];
                const double gg = g[std::size_t(r * 3 + j)];
                want[std::size_t(r * 6 + j)] = sigmoid(h) * gg;
                want[std::size_t(r * 6 + 3 + j)] = a * sigmoid(h) * (1 - sigmoid(h)) * gg;
            }
        c.op("glu", "glu_backward.default", json::array({ grad(), self(), arg("dim", I(-1)) }), { 2, 6 }, want);
        QVERIFY_RUNS_ON_RUNTIME(c, "backward glu");
    }

    void softmax()
    {
        // y = softmax(x) along dim 1; d/dx_i of sum_j g_j y_j = y_i (g_i - sum_j g_j y_j).
        Case c;
        const Values x = values(12, 74, 2.0);
        Values y(12);
        for (int r = 0; r < 3; ++r) {
            double z = 0;
            for (int j = 0; j < 4; ++j)
                z += std::exp(x[std::size_t(r * 4 + j)]);
            for (int j = 0; j < 4; ++j)
                y[std::size_t(r * 4 + j)] = f32(std::exp(x[std::size_t(r * 4 + j)]) / z);
        }
        c.in("y", { 3, 4 }, y).in("g", { 3, 4 }, values(12, 75));
        const auto g = c.inputs[1].values;
        Values want(12);
        for (int r = 0; r < 3; ++r) {
            double dot = 0;
            for (int j = 0; j < 4; ++j)
                dot += g[std::size_t(r * 4 + j)] * y[std::size_t(r * 4 + j)];
            for (int j = 0; j < 4; ++j)
                want[std::size_t(r * 4 + j)] = y[std::size_t(r * 4 + j)] * (g[std::size_t(r * 4 + j)] - dot);
        }
        c.op("sm", "_softmax_backward_data.default",
            json::array({ grad(), arg("output", T("y")), arg("dim", I(1)), arg("input_dtype", Dtype(kFloat)) }),
            { 3, 4 }, want);
        QVERIFY_RUNS_ON_RUNTIME(c, "backward softmax");
    }

    void selectAndSlice()
    {
        // The gradient of x[1] (select) and of x[:, 1:5:2] (slice) lands where they read, zeros elsewhere.
        Case c;
        c.in("g", { 3 }, { 1, 2, 3 }).in("h", { 2, 2 }, { 4, 5, 6, 7 });
        c.op("sel", "select_backward.default",
            json::array({ grad(), arg("input_sizes", Ints({ 2, 3 })), arg("dim", I(0)), arg("index", I(1)) }), { 2, 3 },
            { 0, 0, 0, 1, 2, 3 });
        c.op("sl", "slice_backward.default",
            json::array({ arg("grad_output", T("h")), arg("input_sizes", Ints({ 2, 5 })), arg("dim", I(1)),
                arg("start", I(1)), arg("end", I(5)), arg("step", I(2)) }),
            { 2, 5 }, { 0, 4, 0, 5, 0, 0, 6, 0, 7, 0 });
        QVERIFY_RUNS_ON_RUNTIME(c, "backward select and slice");
    }

    void embeddingDense_data()
    {
        QTest::addColumn<bool>("scaleByFrequency");
        QTest::newRow("padding_idx 2") << false;
        QTest::newRow("padding_idx 2, scale_grad_by_freq") << true;
    }

    void embeddingDense()
    {
        // The gradient of embedding(weight, indices): row r of the weight's gradient is the sum of the incoming rows
        // whose index is r (each divided by how often r occurs, with scale_grad_by_freq); padding_idx gets none.
        QFETCH(bool, scaleByFrequency);
        const Values idx { 1, 3, 2, 3, 0, 3 };
        Case c;
        c.in("g", { 2, 3, 4 }, values(24, 76)).in("indices", { 2, 3 }, idx, kLong);
        const auto g = c.inputs[0].values;
        Values want(20, 0.0);
        for (std::size_t i = 0; i < idx.size(); ++i) {
            const int r = int(idx[i]);
            if (r == 2)
                continue;
            const double n = scaleByFrequency ? double(std::count(idx.begin(), idx.end(), idx[i])) : 1.0;
            for (int k = 0; k < 4; ++k)
                want[std::size_t(r * 4 + k)] += g[i * 4 + std::size_t(k)] / n;
        }
        c.op("emb", "embedding_dense_backward.default",
            json::array({ grad(), arg("indices", T("indices")), arg("num_weights", I(5)), arg("padding_idx", I(2)),
                arg("scale_grad_by_freq", B(scaleByFrequency)) }),
            { 5, 4 }, want);
        QVERIFY_RUNS_ON_RUNTIME(c, "backward embedding_dense");
    }
};

QTEST_GUILESS_MAIN(TestLoweringBackward)
#include "tst_lowering_backward.moc"
