// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// The composites lowered last (docs/decompositions.md): the recurrent cells (lstm_cell, gru_cell, rnn_tanh_cell,
// rnn_relu_cell), rot90, take, _unsafe_index, logspace, nansum, logaddexp2, heaviside, sinc, isin, isposinf/isneginf,
// zero, the l1 / smooth_l1 / huber, binary cross entropy (with logits), soft margin, multi-margin, multilabel margin
// and nll losses, bilinear, tensordot, pdist, feature_alpha_dropout, _pad_circular, rrelu_with_noise and
// adaptive_max_pool1d, each written as torch.export writes the node, emitted by ptelens and run on ExecuTorch's
// runtime. The expected values are computed here from each op's documented definition (loops over indices, in
// double), never from the decomposition.
#include "dumpbuilder.h"
#include "etrunner.h"
#include "runtimecase.h"
#include "tensorindex.h"
#include "testutils.h"

#include <QTest>

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <numeric>
#include <string>
#include <vector>

using namespace pte;
using namespace pte::test;
using nlohmann::json;

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kPi = 3.14159265358979323846;

double sigmoid(double v) { return 1.0 / (1.0 + std::exp(-v)); }

// ---- recurrent cells

/** One nn.LSTMCell / nn.GRUCell / nn.RNNCell step and its sizes. */
struct CellCase
{
    std::string op; ///< lstm_cell, gru_cell, rnn_tanh_cell, rnn_relu_cell
    bool bias = true;
    int batch = 2;
    int inputSize = 3;
    int hidden = 4;
    std::uint32_t seed = 1;

    [[nodiscard]] int gates() const { return op == "lstm_cell" ? 4 : op == "gru_cell" ? 3 : 1; }
};

/**
 * The documented equations, with W x + b_i and W h + b_h per gate block (rows g * hidden + j):
 *   LSTM (i, f, g, o): c' = sigmoid(f) * c + sigmoid(i) * tanh(g), h' = sigmoid(o) * tanh(c');
 *   GRU (r, z, n): r, z = sigmoid(.), n = tanh(W_in x + b_in + r * (W_hn h + b_hn)), h' = (1 - z) * n + z * h;
 *   RNN: h' = tanh or relu(W_ih x + b_ih + W_hh h + b_hh).
 * Returns h' (and c' after it for the LSTM), [batch, hidden] each.
 */
std::vector<Values> cellReference(const CellCase& k, const Values& x, const Values& h, const Values& c,
    const Values& wih, const Values& whh, const Values& bih, const Values& bhh)
{
    const int N = k.batch, I = k.inputSize, H = k.hidden;
    auto inputGate = [&](int n, int g, int j) {
        const int row = g * H + j;
        double s = bih.empty() ? 0.0 : bih[std::size_t(row)];
        for (int q = 0; q < I; ++q)
            s += wih[std::size_t(row * I + q)] * x[std::size_t(n * I + q)];
        return s;
    };
    auto hiddenGate = [&](int n, int g, int j) {
        const int row = g * H + j;
        double s = bhh.empty() ? 0.0 : bhh[std::size_t(row)];
        for (int q = 0; q < H; ++q)
            s += whh[std::size_t(row * H + q)] * h[std::size_t(n * H + q)];
        return s;
    };
    Values hNew, cNew;
    for (int n = 0; n < N; ++n) {
        for (int j = 0; j < H; ++j) {
            const double hp = h[std::size_t(n * H + j)];
            if (k.op == "lstm_cell") {
                const double i = sigmoid(inputGate(n, 0, j) + hiddenGate(n, 0, j));
                const double f = sigmoid(inputGate(n, 1, j) + hiddenGate(n, 1, j));
                const double g = std::tanh(inputGate(n, 2, j) + hiddenGate(n, 2, j));
                const double o = sigmoid(inputGate(n, 3, j) + hiddenGate(n, 3, j));
                const double cj = f * c[std::size_t(n * H + j)] + i * g;
                cNew.push_back(cj);
                hNew.push_back(o * std::tanh(cj));
            } else if (k.op == "gru_cell") {
                const double r = sigmoid(inputGate(n, 0, j) + hiddenGate(n, 0, j));
                const double z = sigmoid(inputGate(n, 1, j) + hiddenGate(n, 1, j));
                const double ng = std::tanh(inputGate(n, 2, j) + r * hiddenGate(n, 2, j));
                hNew.push_back((1 - z) * ng + z * hp);
            } else {
                const double a = inputGate(n, 0, j) + hiddenGate(n, 0, j);
                hNew.push_back(k.op == "rnn_tanh_cell" ? std::tanh(a) : std::max(a, 0.0));
            }
        }
    }
    if (k.op == "lstm_cell")
        return { hNew, cNew };
    return { hNew };
}

// ---- rot90

/** One quarter turn in the plane (d0, d1), from d0 towards d1: y[.., i @ d0, .., j @ d1] = x[.., j, .., n - 1 - i]
 *  with n = x.size(d1) (torch.rot90's documented direction: rot90([[1, 2], [3, 4]]) = [[2, 4], [1, 3]]). */
Values quarterTurn(const Values& x, Shape& shape, std::size_t d0, std::size_t d1)
{
    Shape out = shape;
    std::swap(out[d0], out[d1]);
    const Values y = tabulate(out, [&](const Shape& o) {
        Shape i = o;
        i[d0] = o[d1];
        i[d1] = shape[d1] - 1 - o[d0];
        return x[rowMajorOffset(shape, i)];
    });
    shape = out;
    return y;
}

// ---- circular padding

/** x padded circularly by `pad` (torch's order: last dimension first, (left, right) pairs): negative pads crop the
 *  input first, then out[i] = cropped[(i - max(left, 0)) mod cropped length] along each padded dimension. */
Values circularPad(const Values& x, const Shape& shape, const std::vector<std::int64_t>& pad, Shape& outShape)
{
    const std::size_t r = shape.size();
    outShape = shape;
    std::vector<std::int64_t> from(r, 0), len(shape.begin(), shape.end()), left(r, 0);
    for (std::size_t k = 0; k < pad.size() / 2; ++k) {
        const std::size_t d = r - 1 - k;
        const std::int64_t lo = pad[2 * k], hi = pad[2 * k + 1];
        from[d] = std::max<std::int64_t>(-lo, 0);
        len[d] = shape[d] - from[d] - std::max<std::int64_t>(-hi, 0);
        left[d] = std::max<std::int64_t>(lo, 0);
        outShape[d] = shape[d] + lo + hi;
    }
    return tabulate(outShape, [&](const Shape& o) {
        Shape i = o;
        for (std::size_t d = 0; d < r; ++d)
            i[d] = from[d] + (((o[d] - left[d]) % len[d]) + len[d]) % len[d];
        return x[rowMajorOffset(shape, i)];
    });
}

/** tensordot(a, b, da, db): out[free a..., free b...] = sum over the contracted index tuples of a[...] b[...], the
 *  contracted dimensions paired in order; a dimension of size 1 against a larger one is broadcast (index 0). */
Values tensordotReference(const Values& a, const Shape& sa, const Values& b, const Shape& sb,
    const std::vector<std::int64_t>& da, const std::vector<std::int64_t>& db, Shape& outShape)
{
    auto wrap = [](std::int64_t d, std::size_t r) { return std::size_t(d < 0 ? d + std::int64_t(r) : d); };
    std::vector<std::size_t> ca, cb, fa, fb;
    Shape csizes;
    for (std::size_t k = 0; k < da.size(); ++k) {
        ca.push_back(wrap(da[k], sa.size()));
        cb.push_back(wrap(db[k], sb.size()));
        csizes.push_back(std::max(sa[ca.back()], sb[cb.back()]));
    }
    outShape.clear();
    for (std::size_t k = 0; k < sa.size(); ++k)
        if (std::find(ca.begin(), ca.end(), k) == ca.end()) {
            fa.push_back(k);
            outShape.push_back(sa[k]);
        }
    for (std::size_t k = 0; k < sb.size(); ++k)
        if (std::find(cb.begin(), cb.end(), k) == cb.end()) {
            fb.push_back(k);
            outShape.push_back(sb[k]);
        }
    const std::int64_t contracted = std::accumulate(csizes.begin(), csizes.end(), std::int64_t(1), std::multiplies<>());
    return tabulate(outShape, [&](const Shape& o) {
        Shape ia(sa.size(), 0), ib(sb.size(), 0);
        for (std::size_t k = 0; k < fa.size(); ++k)
            ia[fa[k]] = o[k];
        for (std::size_t k = 0; k < fb.size(); ++k)
            ib[fb[k]] = o[fa.size() + k];
        double sum = 0;
        for (std::int64_t flat = 0; flat < contracted; ++flat) {
            std::int64_t rest = flat;
            for (std::size_t k = csizes.size(); k-- > 0;) {
                const std::int64_t i = rest % csizes[k];
                rest /= csizes[k];
                ia[ca[k]] = sa[ca[k]] == 1 ? 0 : i;
                ib[cb[k]] = sb[cb[k]] == 1 ? 0 : i;
            }
            sum += a[rowMajorOffset(sa, ia)] * b[rowMajorOffset(sb, ib)];
        }
        return sum;
    });
}

json self() { return arg("self", T("x")); }

json cpu() { return { { "as_device", { { "type", "cpu" }, { "index", nullptr } } } }; }

} // namespace

class TestLoweringCompleteness : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // ---- recurrent cells

    void recurrentCell_data()
    {
        QTest::addColumn<QString>("target");
        QTest::addColumn<bool>("bias");
        for (const char* target :
            { "lstm_cell.default", "gru_cell.default", "rnn_tanh_cell.default", "rnn_relu_cell.default" })
            for (const bool bias : { true, false })
                QTest::newRow(qPrintable(QString(target).section('.', 0, 0) + (bias ? "" : ", no bias")))
                    << QString(target) << bias;
    }

    void recurrentCell()
    {
        // nn.LSTMCell / nn.GRUCell / nn.RNNCell(nonlinearity) called on a batched input with a given state: the
        // weights are parameters; without bias, b_ih and b_hh are left at their default (None).
        QFETCH(QString, target);
        QFETCH(bool, bias);
        CellCase k;
        k.op = target.section('.', 0, 0).toStdString();
        k.bias = bias;
        k.seed = std::uint32_t(k.gates() * 10 + (bias ? 1 : 2));
        const int N = k.batch, I = k.inputSize, H = k.hidden, G = k.gates();
        const double scale = 1.0 / std::sqrt(double(H)); // nn.RNNCellBase's init range
        const Values x = values(std::size_t(N * I), k.seed, 1.5);
        const Values h = values(std::size_t(N * H), k.seed + 1, 0.8);
        const Values c0 = values(std::size_t(N * H), k.seed + 2, 0.8);
        const Values wih = values(std::size_t(G * H * I), k.seed + 3, scale);
        const Values whh = values(std::size_t(G * H * H), k.seed + 4, scale);
        const Values bih = bias ? values(std::size_t(G * H), k.seed + 5, scale) : Values {};
        const Values bhh = bias ? values(std::size_t(G * H), k.seed + 6, scale) : Values {};
        const bool lstm = k.op == "lstm_cell";

        Case c;
        c.dump.weight("p_cell_weight_ih", "cell.weight_ih", { G * H, I }, wih);
        c.dump.weight("p_cell_weight_hh", "cell.weight_hh", { G * H, H }, whh);
        if (bias) {
            c.dump.weight("p_cell_bias_ih", "cell.bias_ih", { G * H }, bih);
            c.dump.weight("p_cell_bias_hh", "cell.bias_hh", { G * H }, bhh);
        }
        c.in("x", { N, I }, x).in("h", { N, H }, h);
        if (lstm)
            c.in("c", { N, H }, c0);
        json args = json::array({ arg("input", T("x")), arg("hx", lstm ? Tensors({ "h", "c" }) : T("h")),
            arg("w_ih", T("p_cell_weight_ih")), arg("w_hh", T("p_cell_weight_hh")) });
        if (bias) {
            args.push_back(arg("b_ih", T("p_cell_bias_ih")));
            args.push_back(arg("b_hh", T("p_cell_bias_hh")));
        }
        const auto want = cellReference(k, x, h, c0, wih, whh, bih, bhh);
        if (lstm) {
            c.dump.tupleNode(
                "lstm_cell", "lstm_cell.default", args, { { "getitem", { N, H } }, { "getitem_1", { N, H } } });
            c.dump.output("getitem");
            c.dump.output("getitem_1");
            c.expect({ N, H }, want[0]).expect({ N, H }, want[1]);
        } else {
            c.op(k.op, target.toStdString(), args, { N, H }, want[0]);
        }
        QVERIFY_RUNS_ON_RUNTIME(c, "completeness " + k.op);
    }

    // ---- shape

    void rot90_data()
    {
        QTest::addColumn<int>("k");
        QTest::addColumn<int>("d0");
        QTest::addColumn<int>("d1");
        for (const int k : { 1, 2, 3, -1 })
            for (const int d0 : { 0, 1 })
                QTest::newRow(qPrintable(QString("k=%1, dims=[%2,%3]").arg(k).arg(d0).arg(d0 + 1)))
                    << k << d0 << d0 + 1;
    }

    void rot90()
    {
        QFETCH(int, k);
        QFETCH(int, d0);
        QFETCH(int, d1);
        const Shape s { 2, 3, 4 };
        Case c;
        c.in("x", s, values(numel(s), 11));
        Values want = c.inputs[0].values;
        Shape shape = s;
        for (int turn = 0; turn < ((k % 4) + 4) % 4; ++turn)
            want = quarterTurn(want, shape, std::size_t(d0), std::size_t(d1));
        json args = json::array({ self() });
        if (k != 1)
            args.push_back(arg("k", I(k)));
        if (d0 != 0)
            args.push_back(arg("dims", Ints({ d0, d1 })));
        c.op("rot90", "rot90.default", args, shape, want);
        QVERIFY_RUNS_ON_RUNTIME(c, "completeness rot90");
    }

    void take()
    {
        // x.flatten()[index], negative indices counting from the end.
        Case c;
        c.in("x", { 3, 4 }, values(12, 12)).in("i", { 2, 3 }, { 0, 11, 5, -1, 7, -12 }, kLong);
        const auto x = c.inputs[0].values;
        Values want;
        for (const double i : { 0, 11, 5, -1, 7, -12 })
            want.push_back(x[std::size_t(i < 0 ? i + 12 : i)]);
        c.op("take", "take.default", json::array({ self(), arg("index", T("i")) }), { 2, 3 }, want);
        QVERIFY_RUNS_ON_RUNTIME(c, "completeness take");
    }

    void unsafeIndex()
    {
        // x[:, j] (a None before the index) and x[i, j] with i [2, 1] and j [3] broadcast to [2, 3].
        const Shape s { 3, 4, 5 };
        Case c;
        c.in("x", s, values(numel(s), 13));
        c.in("j", { 3 }, { 3, 0, 2 }, kLong).in("i", { 2, 1 }, { 2, 0 }, kLong);
        const auto x = c.inputs[0].values;
        const std::vector<std::int64_t> j { 3, 0, 2 }, i { 2, 0 };
        c.op("a", "_unsafe_index.Tensor", json::array({ self(), arg("indices", OptionalTensors({ "", "j" })) }),
            { 3, 3, 5 }, tabulate({ 3, 3, 5 }, [&](const Shape& o) {
                return x[rowMajorOffset(s, { o[0], j[std::size_t(o[1])], o[2] })];
            }));
        c.op("b", "_unsafe_index.Tensor", json::array({ self(), arg("indices", OptionalTensors({ "i", "j" })) }),
            { 2, 3, 5 }, tabulate({ 2, 3, 5 }, [&](const Shape& o) {
                return x[rowMajorOffset(s, { i[std::size_t(o[0])], j[std::size_t(o[1])], o[2] })];
            }));
        QVERIFY_RUNS_ON_RUNTIME(c, "completeness _unsafe_index");
    }

    // ---- factories, reductions and pointwise math

    void logspace()
    {
        // base ** (start + i * (end - start) / (steps - 1)), i = 0 .. steps - 1.
        auto expected = [](double start, double end, int steps, double base) {
            Values v;
            for (int i = 0; i < steps; ++i)
                v.push_back(std::pow(base, start + double(i) * (end - start) / double(steps - 1)));
            return v;
        };
        Case c;
        c.in("x", { 1 }, { 0 });
        c.op("ten", "logspace.default",
            json::array({ arg("start", I(-1)), arg("end", I(2)), arg("steps", I(5)), kwarg("device", cpu()),
                kwarg("pin_memory", B(false)) }),
            { 5 }, expected(-1, 2, 5, 10));
        c.op("two", "logspace.default",
            json::array({ arg("start", F(0.0)), arg("end", F(3.5)), arg("steps", I(6)), arg("base", F(2.0)),
                kwarg("device", cpu()), kwarg("pin_memory", B(false)) }),
            { 6 }, expected(0, 3.5, 6, 2));
        QVERIFY_RUNS_ON_RUNTIME(c, "completeness logspace");
    }

    void nansum()
    {
        // The sum with NaN counted as 0: over dim 1 (keepdim), over dim 0, and over every element.
        const Shape s { 3, 4 };
        Case c;
        Values x = values(12, 14, 2.0);
        x[1] = kNaN;
        x[6] = kNaN;
        x[7] = kNaN;
        c.in("x", s, x);
        auto clean = [](double v) { return std::isnan(v) ? 0.0 : v; };
        Values rows, cols(4, 0.0);
        double all = 0;
        for (int r = 0; r < 3; ++r) {
            double t = 0;
            for (int q = 0; q < 4; ++q) {
                t += clean(x[std::size_t(r * 4 + q)]);
                cols[std::size_t(q)] += clean(x[std::size_t(r * 4 + q)]);
            }
            rows.push_back(t);
            all += t;
        }
        c.op("rows", "nansum.default", json::array({ self(), arg("dim", Ints({ 1 })), arg("keepdim", B(true)) }),
            { 3, 1 }, rows);
        c.op("cols", "nansum.default", json::array({ self(), arg("dim", Ints({ 0 })) }), { 4 }, cols);
        c.op("all", "nansum.default", json::array({ self() }), {}, { all });
        QVERIFY_RUNS_ON_RUNTIME(c, "completeness nansum");
    }

    void logaddexp2()
    {
        // log2(2^a + 2^b), infinities included: (inf, inf) -> inf, (-inf, -inf) -> -inf, (-inf, b) -> b.
        const Values a { 0.5, -3, 2.25, kInf, -kInf, -kInf, 10, -1.5 };
        const Values b { 0.5, 1.75, -2, kInf, -kInf, 3, -10, 4 };
        Case c;
        c.in("x", { 8 }, a).in("y", { 8 }, b);
        Values want;
        for (std::size_t k = 0; k < a.size(); ++k)
            want.push_back(std::log2(std::exp2(a[k]) + std::exp2(b[k])));
        c.op("l", "logaddexp2.default", json::array({ self(), arg("other", T("y")) }), { 8 }, want);
        QVERIFY_RUNS_ON_RUNTIME(c, "completeness logaddexp2");
    }

    void heaviside()
    {
        // 0 for x < 0, values for x == 0, 1 for x > 0; values [3] broadcast over x [2, 3].
        const Values x { -1.5, 0, 2, 0, -0.0, 0.25 };
        const Values v { 0.5, -7, 3 };
        Case c;
        c.in("x", { 2, 3 }, x).in("v", { 3 }, v);
        Values want;
        for (std::size_t k = 0; k < x.size(); ++k)
            want.push_back(x[k] == 0 ? v[k % 3] : x[k] > 0 ? 1.0 : 0.0);
        c.op("h", "heaviside.default", json::array({ self(), arg("values", T("v")) }), { 2, 3 }, want);
        QVERIFY_RUNS_ON_RUNTIME(c, "completeness heaviside");
    }

    void sinc()
    {
        // sin(pi x) / (pi x), 1 at x = 0.
        const Values x { 0, 0.5, -0.25, 1, 1.5, -2.75, 3.125, 0.0625 };
        Case c;
        c.in("x", { 8 }, x);
        Values want;
        for (const double v : x)
            want.push_back(v == 0 ? 1.0 : std::sin(kPi * v) / (kPi * v));
        c.op("s", "sinc.default", json::array({ self() }), { 8 }, want);
        QVERIFY_RUNS_ON_RUNTIME(c, "completeness sinc");
    }

    void isin()
    {
        // Each element tested for membership of test_elements (any shape); invert negates.
        const Values e { 1, 4, 7, 2, 9, 4 };
        const Values t { 4, 2, 8, 1 };
        Case c;
        c.in("e", { 2, 3 }, e, kLong).in("t", { 2, 2 }, t, kLong).in("f", { 5 }, { 1.5, 2, -2, 2, 0 });
        auto member = [&](double v) { return std::find(t.begin(), t.end(), v) != t.end() ? 1.0 : 0.0; };
        Values in, out;
        for (const double v : e) {
            in.push_back(member(v));
            out.push_back(1.0 - member(v));
        }
        c.op("tt", "isin.Tensor_Tensor", json::array({ arg("elements", T("e")), arg("test_elements", T("t")) }),
            { 2, 3 }, in, kBool);
        c.op("tti", "isin.Tensor_Tensor",
            json::array({ arg("elements", T("e")), arg("test_elements", T("t")), kwarg("invert", B(true)) }), { 2, 3 },
            out, kBool);
        c.op("ts", "isin.Tensor_Scalar", json::array({ arg("elements", T("f")), arg("test_element", F(2.0)) }), { 5 },
            { 0, 1, 0, 1, 0 }, kBool);
        c.op("tsi", "isin.Tensor_Scalar",
            json::array({ arg("elements", T("f")), arg("test_element", F(2.0)), kwarg("invert", B(true)) }), { 5 },
            { 1, 0, 1, 0, 1 }, kBool);
        c.op("st", "isin.Scalar_Tensor", json::array({ arg("element", I(8)), arg("test_elements", T("t")) }), {}, { 1 },
            kBool);
        c.op("st2", "isin.Scalar_Tensor", json::array({ arg("element", I(3)), arg("test_elements", T("t")) }), {},
            { 0 }, kBool);
        c.op("sti", "isin.Scalar_Tensor",
            json::array({ arg("element", I(8)), arg("test_elements", T("t")), kwarg("invert", B(true)) }), {}, { 0 },
            kBool);
        c.op("sti2", "isin.Scalar_Tensor",
            json::array({ arg("element", I(3)), arg("test_elements", T("t")), kwarg("invert", B(true)) }), {}, { 1 },
            kBool);
        QVERIFY_RUNS_ON_RUNTIME(c, "completeness isin");
    }

    void isposinfAndIsneginf()
    {
        const Values x { kInf, -kInf, 0, kNaN, 1e30, -1e30 };
        Case c;
        c.in("x", { 6 }, x);
        Values pos, neg;
        for (const double v : x) {
            pos.push_back(std::isinf(v) && v > 0 ? 1.0 : 0.0);
            neg.push_back(std::isinf(v) && v < 0 ? 1.0 : 0.0);
        }
        c.op("p", "isposinf.default", json::array({ self() }), { 6 }, pos, kBool);
        c.op("n", "isneginf.default", json::array({ self() }), { 6 }, neg, kBool);
        QVERIFY_RUNS_ON_RUNTIME(c, "completeness isposinf isneginf");
    }

    void zero()
    {
        // The functional form of x.zero_(): zeros of x's shape and dtype.
        Case c;
        c.in("x", { 2, 3 }, values(6, 15)).in("i", { 4 }, { 1, -2, 3, 4 }, kLong);
        c.op("z", "zero.default", json::array({ self() }), { 2, 3 }, Values(6, 0.0));
        c.op("zi", "zero.default", json::array({ arg("self", T("i")) }), { 4 }, Values(4, 0.0), kLong);
        QVERIFY_RUNS_ON_RUNTIME(c, "completeness zero");
    }

    // ---- losses and distances

    void pointwiseLoss_data()
    {
        QTest::addColumn<QString>("target");
        QTest::addColumn<double>("limit"); ///< beta / delta; 1 is the default (left out)
        QTest::addColumn<int>("reduction");
        for (const int r : { 0, 1, 2 }) {
            QTest::newRow(qPrintable(QString("l1_loss, reduction %1").arg(r))) << "l1_loss.default" << 1.0 << r;
            for (const double limit : { 1.0, 0.5 }) {
                QTest::newRow(qPrintable(QString("smooth_l1_loss, beta %1, reduction %2").arg(limit).arg(r)))
                    << "smooth_l1_loss.default" << limit << r;
                QTest::newRow(qPrintable(QString("huber_loss, delta %1, reduction %2").arg(limit * 1.5).arg(r)))
                    << "huber_loss.default" << limit * 1.5 << r;
            }
        }
    }

    void pointwiseLoss()
    {
        QFETCH(QString, target);
        QFETCH(double, limit);
        QFETCH(int, reduction);
        // l1: |x - y|; smooth_l1: 0.5 z^2 / beta if z < beta else z - 0.5 beta; huber: 0.5 z^2 if z < delta else
        // delta (z - 0.5 delta); then none (0), mean (1) or sum (2).
        const std::string name = target.section('.', 0, 0).toStdString();
        Case c;
        c.in("x", { 2, 4 }, values(8, 16, 2.0)).in("y", { 2, 4 }, values(8, 17, 2.0));
        const auto x = c.inputs[0].values;
        const auto y = c.inputs[1].values;
        Values loss;
        for (std::size_t k = 0; k < x.size(); ++k) {
            const double z = std::fabs(x[k] - y[k]);
            if (name == "l1_loss")
                loss.push_back(z);
            else if (name == "smooth_l1_loss")
                loss.push_back(z < limit ? 0.5 * z * z / limit : z - 0.5 * limit);
            else
                loss.push_back(z < limit ? 0.5 * z * z : limit * (z - 0.5 * limit));
        }
        // Arguments at their default (reduction 1, beta / delta 1) left out, those before a given one written.
        json args = json::array({ self(), arg("target", T("y")) });
        if (reduction != 1 || limit != 1.0)
            args.push_back(arg("reduction", I(reduction)));
        if (limit != 1.0)
            args.push_back(arg(name == "huber_loss" ? "delta" : "beta", F(limit)));
        const double total = std::accumulate(loss.begin(), loss.end(), 0.0);
        if (reduction == 0)
            c.op("loss", target.toStdString(), args, { 2, 4 }, loss);
        else
            c.op("loss", target.toStdString(), args, {}, { reduction == 1 ? total / double(loss.size()) : total });
        QVERIFY_RUNS_ON_RUNTIME(c, "completeness " + name);
    }

    void binaryCrossEntropy_data()
    {
        QTest::addColumn<QString>("target");
        QTest::addColumn<int>("reduction");
        QTest::addColumn<bool>("weight");
        QTest::addColumn<bool>("posWeight");
        for (const int r : { 0, 1, 2 })
            for (const bool w : { false, true }) {
                QTest::newRow(
                    qPrintable(QString("binary_cross_entropy, reduction %1%2").arg(r).arg(w ? ", weight" : "")))
                    << "binary_cross_entropy.default" << r << w << false;
                for (const bool pw : { false, true })
                    QTest::newRow(qPrintable(QString("binary_cross_entropy_with_logits, reduction %1%2%3")
                                                 .arg(r)
                                                 .arg(w ? ", weight" : "")
                                                 .arg(pw ? ", pos_weight" : "")))
                        << "binary_cross_entropy_with_logits.default" << r << w << pw;
            }
    }

    void binaryCrossEntropy()
    {
        // binary_cross_entropy: -(t max(log x, -100) + (1 - t) max(log(1 - x), -100)) [* weight], probabilities 0
        // and 1 included (the -100 clamp); with logits: (1 - t) x + (1 + (pos_weight - 1) t) log(1 + exp(-x))
        // [* weight]; then none (0), mean (1) or sum (2). weight [4] and pos_weight [4] broadcast over [3, 4].
        QFETCH(QString, target);
        QFETCH(int, reduction);
        QFETCH(bool, weight);
        QFETCH(bool, posWeight);
        const bool logits = target.startsWith("binary_cross_entropy_with_logits");
        const Shape s { 3, 4 };
        Case c;
        Values x = logits ? values(12, 31, 6.0) : map(values(12, 31), [](double v) { return 0.5 + 0.45 * v; });
        if (!logits) {
            x[2] = 0.0;
            x[9] = 1.0;
        }
        Values t = map(values(12, 32), [](double v) { return 0.5 + 0.5 * v; });
        t[2] = 1.0;
        t[9] = 0.0;
        const Values w = values(4, 33, 2.0);
        const Values pw = map(values(4, 34), [](double v) { return 1.5 + v; });
        c.in("x", s, x).in("t", s, t).in("w", { 4 }, w).in("pw", { 4 }, pw);
        Values loss;
        for (std::size_t k = 0; k < x.size(); ++k) {
            double l;
            if (logits) {
                const double lw = posWeight ? 1.0 + (pw[k % 4] - 1.0) * t[k] : 1.0;
                l = (1.0 - t[k]) * x[k] + lw * std::log1p(std::exp(-x[k]));
            } else {
                l = -(t[k] * std::max(std::log(x[k]), -100.0) + (1.0 - t[k]) * std::max(std::log1p(-x[k]), -100.0));
            }
            loss.push_back(weight ? l * w[k % 4] : l);
        }
        // Arguments at their default left out, those before a given one written (None).
        json args = json::array({ self(), arg("target", T("t")) });
        const bool more = logits ? (posWeight || reduction != 1) : reduction != 1;
        if (weight || more)
            args.push_back(arg("weight", weight ? T("w") : None()));
        if (logits && (posWeight || reduction != 1))
            args.push_back(arg("pos_weight", posWeight ? T("pw") : None()));
        if (reduction != 1)
            args.push_back(arg("reduction", I(reduction)));
        const double total = std::accumulate(loss.begin(), loss.end(), 0.0);
        if (reduction == 0)
            c.op("loss", target.toStdString(), args, s, loss);
        else
            c.op("loss", target.toStdString(), args, {}, { reduction == 1 ? total / double(loss.size()) : total });
        QVERIFY_RUNS_ON_RUNTIME(c, "completeness " + target.section('.', 0, 0).toStdString());
    }

    void softMarginLoss()
    {
        // log(1 + exp(-t x)) with targets +-1, then none (0), mean (1) or sum (2).
        const Shape s { 2, 5 };
        Case c;
        const Values x = values(10, 35, 3.0);
        Values t;
        for (const double v : values(10, 36))
            t.push_back(v < 0 ? -1.0 : 1.0);
        c.in("x", s, x).in("t", s, t);
        Values loss;
        for (std::size_t k = 0; k < x.size(); ++k)
            loss.push_back(std::log1p(std::exp(-t[k] * x[k])));
        const double total = std::accumulate(loss.begin(), loss.end(), 0.0);
        c.op("none", "soft_margin_loss.default", json::array({ self(), arg("target", T("t")), arg("reduction", I(0)) }),
            s, loss);
        c.op("mean", "soft_margin_loss.default", json::array({ self(), arg("target", T("t")) }), {}, { total / 10.0 });
        c.op("sum", "soft_margin_loss.default", json::array({ self(), arg("target", T("t")), arg("reduction", I(2)) }),
            {}, { total });
        QVERIFY_RUNS_ON_RUNTIME(c, "completeness soft_margin_loss");
    }

    void nllLoss_data()
    {
        QTest::addColumn<QString>("target");
        QTest::addColumn<int>("rank");
        QTest::addColumn<int>("reduction");
        QTest::addColumn<bool>("weight");
        QTest::addColumn<int>("ignoreIndex");
        for (const char* target : { "nll_loss_forward.default", "nll_loss.default", "nll_loss_nd.default" })
            for (const int rank : { 2, 1 })
                for (const int r : { 0, 1, 2 })
                    for (const bool w : { false, true })
                        for (const int ii : { -100, 2 }) {
                            if (QString(target) != "nll_loss_forward.default" && (rank == 1 || ii != -100))
                                continue; // nll_loss and nll_loss_nd are the same rule: their 2-D cases suffice
                            QTest::newRow(qPrintable(QString("%1, %2-D, reduction %3%4, ignore_index %5")
                                                         .arg(QString(target).section('.', 0, 0))
                                                         .arg(rank)
                                                         .arg(r)
                                                         .arg(w ? ", weight" : "")
                                                         .arg(ii)))
                                << QString(target) << rank << r << w << ii;
                        }
    }

    void nllLoss()
    {
        // -w[t_n] x[n, t_n] per sample (0 where t_n == ignore_index); total weight = the sum of w[t_n] over the kept
        // samples (their count without weight); none (0) (total weight 0 for a 2-D input), sum (2), or the sum over
        // the total weight (mean, 1). nll_loss_forward returns (output, total_weight); nll_loss / nll_loss_nd the
        // output. A 1-D input is one sample with a 0-d target.
        QFETCH(QString, target);
        QFETCH(int, rank);
        QFETCH(int, reduction);
        QFETCH(bool, weight);
        QFETCH(int, ignoreIndex);
        const int N = rank == 2 ? 5 : 1, C = 4;
        const std::vector<double> targets2 { 3, ignoreIndex == -100 ? -100.0 : 2.0, 0, 2, 1 };
        const Values t = rank == 2 ? targets2 : Values { 3 };
        const Values x = values(std::size_t(N * C), 37, 3.0);
        const Values w = map(values(4, 38), [](double v) { return 1.0 + 0.5 * v; });
        Case c;
        c.in("x", rank == 2 ? Shape { N, C } : Shape { C }, x)
            .in("t", rank == 2 ? Shape { N } : Shape {}, t, kLong)
            .in("w", { C }, w);
        Values out;
        double total = 0, totalWeight = 0;
        for (int n = 0; n < N; ++n) {
            const auto cls = std::int64_t(t[std::size_t(n)]);
            if (cls == ignoreIndex) {
                out.push_back(0.0);
                continue;
            }
            const double wn = weight ? w[std::size_t(cls)] : 1.0;
            out.push_back(-wn * x[std::size_t(n * C + cls)]);
            total += out.back();
            totalWeight += wn;
        }
        const Shape outShape = reduction == 0 && rank == 2 ? Shape { N } : Shape {};
        const Values result = reduction == 0 ? out : Values { reduction == 1 ? total / totalWeight : total };
        const bool forward = target == "nll_loss_forward.default";
        json args = json::array({ self(), arg("target", T("t")) });
        if (forward) {
            args.push_back(arg("weight", weight ? T("w") : None()));
            args.push_back(arg("reduction", I(reduction)));
            args.push_back(arg("ignore_index", I(ignoreIndex)));
            c.dump.tupleNode("nll", "nll_loss_forward.default", args, { { "getitem", outShape }, { "getitem_1", {} } });
            c.dump.output("getitem");
            c.dump.output("getitem_1");
            c.expect(outShape, result).expect({}, { reduction == 0 && rank == 2 ? 0.0 : totalWeight });
        } else {
            if (weight || reduction != 1)
                args.push_back(arg("weight", weight ? T("w") : None()));
            if (reduction != 1)
                args.push_back(arg("reduction", I(reduction)));
            c.op("nll", target.toStdString(), args, outShape, result);
        }
        QVERIFY_RUNS_ON_RUNTIME(c, "completeness " + target.section('.', 0, 0).toStdString());
    }

    void bilinear()
    {
        // nn.Bilinear: y[..., o] = sum_ij x1[..., i] W[o, i, j] x2[..., j] + b[o]: [2, 3, 4] x [2, 3, 5] with bias,
        // [3, 4] x [3, 5] without, and 1-D inputs.
        const int O = 3, I1 = 4, I2 = 5;
        const Values w = values(std::size_t(O * I1 * I2), 41, 0.5);
        const Values bias = values(std::size_t(O), 42);
        Case c;
        c.dump.weight("p_bl_weight", "bl.weight", { O, I1, I2 }, w);
        c.dump.weight("p_bl_bias", "bl.bias", { O }, bias);
        c.in("a", { 2, 3, I1 }, values(std::size_t(6 * I1), 43)).in("b", { 2, 3, I2 }, values(std::size_t(6 * I2), 44));
        auto reference = [&](const Values& x1, const Values& x2, std::int64_t rows, bool withBias) {
            Values y;
            for (std::int64_t n = 0; n < rows; ++n)
                for (int o = 0; o < O; ++o) {
                    double s = withBias ? bias[std::size_t(o)] : 0.0;
                    for (int i = 0; i < I1; ++i)
                        for (int j = 0; j < I2; ++j)
                            s += x1[std::size_t(n * I1 + i)] * w[std::size_t((o * I1 + i) * I2 + j)]
                                * x2[std::size_t(n * I2 + j)];
                    y.push_back(s);
                }
            return y;
        };
        const Values a = c.inputs[0].values, b = c.inputs[1].values;
        const Values a2(a.begin(), a.begin() + 3 * I1), b2(b.begin(), b.begin() + 3 * I2);
        const Values a1(a.begin(), a.begin() + I1), b1(b.begin(), b.begin() + I2);
        c.in("a2", { 3, I1 }, a2).in("b2", { 3, I2 }, b2).in("a1", { I1 }, a1).in("b1", { I2 }, b1);
        c.op("y3", "bilinear.default",
            json::array({ arg("input1", T("a")), arg("input2", T("b")), arg("weight", T("p_bl_weight")),
                arg("bias", T("p_bl_bias")) }),
            { 2, 3, O }, reference(a, b, 6, true));
        c.op("y2", "bilinear.default",
            json::array({ arg("input1", T("a2")), arg("input2", T("b2")), arg("weight", T("p_bl_weight")) }), { 3, O },
            reference(a2, b2, 3, false));
        c.op("y1", "bilinear.default",
            json::array({ arg("input1", T("a1")), arg("input2", T("b1")), arg("weight", T("p_bl_weight")),
                arg("bias", T("p_bl_bias")) }),
            { O }, reference(a1, b1, 1, true));
        QVERIFY_RUNS_ON_RUNTIME(c, "completeness bilinear");
    }

    void tensordot_data()
    {
        QTest::addColumn<QList<qint64>>("shapeA");
        QTest::addColumn<QList<qint64>>("shapeB");
        QTest::addColumn<QList<qint64>>("dimsA");
        QTest::addColumn<QList<qint64>>("dimsB");
        QTest::newRow("two dims, reordered") << QList<qint64> { 2, 3, 4 } << QList<qint64> { 4, 3, 5 }
                                             << QList<qint64> { 1, 2 } << QList<qint64> { 1, 0 };
        QTest::newRow("no dims (outer product)")
            << QList<qint64> { 2, 3 } << QList<qint64> { 4 } << QList<qint64> {} << QList<qint64> {};
        QTest::newRow("negative dims (mm)")
            << QList<qint64> { 3, 4 } << QList<qint64> { 4, 2 } << QList<qint64> { -1 } << QList<qint64> { 0 };
        QTest::newRow("size 1 against 3") << QList<qint64> { 2, 1, 4 } << QList<qint64> { 3, 4, 5 }
                                          << QList<qint64> { 1, 2 } << QList<qint64> { 0, 1 };
        QTest::newRow("3 against size 1") << QList<qint64> { 2, 3, 4 } << QList<qint64> { 4, 1, 2 }
                                          << QList<qint64> { 2, 1 } << QList<qint64> { 0, 1 };
    }

    void tensordot()
    {
        QFETCH(QList<qint64>, shapeA);
        QFETCH(QList<qint64>, shapeB);
        QFETCH(QList<qint64>, dimsA);
        QFETCH(QList<qint64>, dimsB);
        const Shape sa(shapeA.begin(), shapeA.end()), sb(shapeB.begin(), shapeB.end());
        const std::vector<std::int64_t> da(dimsA.begin(), dimsA.end()), db(dimsB.begin(), dimsB.end());
        Case c;
        c.in("x", sa, values(numel(sa), 45)).in("y", sb, values(numel(sb), 46));
        Shape outShape;
        const Values want = tensordotReference(c.inputs[0].values, sa, c.inputs[1].values, sb, da, db, outShape);
        c.op("td", "tensordot.default",
            json::array({ self(), arg("other", T("y")), arg("dims_self", Ints(da)), arg("dims_other", Ints(db)) }),
            outShape, want);
        QVERIFY_RUNS_ON_RUNTIME(c, "completeness tensordot");
    }

    void renorm_data()
    {
        QTest::addColumn<int>("dim");
        QTest::addColumn<double>("p");
        QTest::addColumn<double>("maxnorm");
        QTest::newRow("dim 0, p 2") << 0 << 2.0 << 1.6;
        QTest::newRow("dim 1, p 1") << 1 << 1.0 << 2.5;
        QTest::newRow("dim -1, p 3") << -1 << 3.0 << 1.2;
        QTest::newRow("dim 2, p inf") << 2 << kInf << 0.9;
    }

    void renorm()
    {
        // Each slice x.select(dim, i) with p-norm above maxnorm scaled by maxnorm / (norm + 1e-7), the others kept.
        QFETCH(int, dim);
        QFETCH(double, p);
        QFETCH(double, maxnorm);
        const Shape s { 3, 4, 2 };
        const auto d = std::size_t(dim < 0 ? dim + 3 : dim);
        Case c;
        c.in("x", s, values(numel(s), 47));
        const auto x = c.inputs[0].values;
        Values norms(std::size_t(s[d]), 0.0);
        tabulate(s, [&](const Shape& i) {
            const double v = std::fabs(x[rowMajorOffset(s, i)]);
            double& n = norms[std::size_t(i[d])];
            n = std::isinf(p) ? std::max(n, v) : n + std::pow(v, p);
            return 0.0;
        });
        int scaled = 0;
        for (double& n : norms) {
            n = std::isinf(p) ? n : std::pow(n, 1.0 / p);
            scaled += n > maxnorm ? 1 : 0;
        }
        QVERIFY2(scaled > 0 && scaled < int(norms.size()), "maxnorm should scale some slices and keep others");
        const Values want = tabulate(s, [&](const Shape& i) {
            const double n = norms[std::size_t(i[d])];
            return x[rowMajorOffset(s, i)] * (n > maxnorm ? maxnorm / (n + 1e-7) : 1.0);
        });
        c.op("r", "renorm.default",
            json::array({ self(), arg("p", std::isinf(p) ? json { { "as_float", "Infinity" } } : F(p)),
                arg("dim", I(dim)), arg("maxnorm", F(maxnorm)) }),
            s, want);
        QVERIFY_RUNS_ON_RUNTIME(c, "completeness renorm");
    }

    void multiMarginLoss()
    {
        // nn.MultiMarginLoss: per sample, the mean over the classes j != y of max(0, margin - x[y] + x[j])^p, times
        // weight[y]; then the reduction.
        auto reference = [](const Values& x, const Values& y, std::int64_t n, std::int64_t classes, int p,
                             double margin, const Values& weight) {
            Values perSample;
            for (std::int64_t i = 0; i < n; ++i) {
                const auto target = std::int64_t(y[std::size_t(i)]);
                const double xy = x[std::size_t(i * classes + target)];
                double sum = 0;
                for (std::int64_t j = 0; j < classes; ++j) {
                    if (j == target)
                        continue;
                    const double z = std::max(0.0, margin - xy + x[std::size_t(i * classes + j)]);
                    sum += (p == 2 ? z * z : z) * (weight.empty() ? 1.0 : weight[std::size_t(target)]);
                }
                perSample.push_back(sum / double(classes));
            }
            return perSample;
        };
        Case c;
        c.in("x", { 3, 4 }, values(12, 81, 1.5)).in("y", { 3 }, { 2, 0, 3 }, kLong);
        c.in("w", { 4 }, { 0.5, 1.5, 2.0, 0.25 }).in("u", { 5 }, values(5, 82)).in("t", {}, { 4 }, kLong);
        const auto x = c.inputs[0].values, y = c.inputs[1].values, w = c.inputs[2].values;
        const Values plain = reference(x, y, 3, 4, 1, 1.0, {});
        c.op("mean", "multi_margin_loss.default", json::array({ self(), arg("target", T("y")) }), {},
            { (plain[0] + plain[1] + plain[2]) / 3 });
        const Values squared = reference(x, y, 3, 4, 2, 0.5, w);
        c.op("sum", "multi_margin_loss.default",
            json::array({ self(), arg("target", T("y")), arg("p", I(2)), arg("margin", F(0.5)), arg("weight", T("w")),
                arg("reduction", I(2)) }),
            {}, { squared[0] + squared[1] + squared[2] });
        c.op("each", "multi_margin_loss.default",
            json::array({ self(), arg("target", T("y")), arg("reduction", I(0)) }), { 3 }, plain);
        c.op("one", "multi_margin_loss.default",
            json::array({ arg("self", T("u")), arg("target", T("t")), arg("reduction", I(0)) }), {},
            reference(c.inputs[3].values, { 4 }, 1, 5, 1, 1.0, {}));
        QVERIFY_RUNS_ON_RUNTIME(c, "completeness multi_margin_loss");
    }

    void multilabelMarginLoss()
    {
        // nn.MultiLabelMarginLoss: the targets of a sample are its y entries before the first negative one; the
        // loss sums max(0, 1 - x[target] + x[i]) over (target, non-target i) pairs, divided by C; is_target marks
        // the targets.
        const std::int64_t n = 2, classes = 4;
        Case c;
        c.in("x", { n, classes }, values(8, 83, 1.5)).in("y", { n, classes }, { 3, 0, -1, 1, 1, -1, 2, 2 }, kLong);
        const auto x = c.inputs[0].values, y = c.inputs[1].values;
        Values perSample, isTarget(std::size_t(n * classes), 0.0);
        for (std::int64_t i = 0; i < n; ++i) {
            std::vector<std::int64_t> targets;
            for (std::int64_t k = 0; k < classes && y[std::size_t(i * classes + k)] >= 0; ++k)
                targets.push_back(std::int64_t(y[std::size_t(i * classes + k)]));
            for (const auto t : targets)
                isTarget[std::size_t(i * classes + t)] = 1;
            double sum = 0;
            for (const auto t : targets)
                for (std::int64_t j = 0; j < classes; ++j)
                    if (isTarget[std::size_t(i * classes + j)] == 0)
                        sum += std::max(0.0, 1 - x[std::size_t(i * classes + t)] + x[std::size_t(i * classes + j)]);
            perSample.push_back(sum / double(classes));
        }
        c.dump.tupleNode("each", "multilabel_margin_loss_forward.default",
            json::array({ self(), arg("target", T("y")), arg("reduction", I(0)) }),
            { { "getitem", { n } }, { "getitem_1", { n, classes } } });
        c.dump.tupleNode("mean", "multilabel_margin_loss_forward.default",
            json::array({ self(), arg("target", T("y")), arg("reduction", I(1)) }),
            { { "getitem_2", {} }, { "getitem_3", { n, classes } } });
        for (const char* o : { "getitem", "getitem_1", "getitem_2" })
            c.dump.output(o);
        c.expect({ n }, perSample).expect({ n, classes }, isTarget).expect({}, { (perSample[0] + perSample[1]) / 2 });
        QVERIFY_RUNS_ON_RUNTIME(c, "completeness multilabel_margin_loss");
    }

    void pdist()
    {
        // The p-norm distance of every pair of rows i < j, in the order (0, 1), (0, 2), ..., (n - 2, n - 1).
        const int n = 4, m = 3;
        Case c;
        c.in("x", { n, m }, values(n * m, 18, 2.0));
        const auto x = c.inputs[0].values;
        auto distances = [&](double p) {
            Values v;
            for (int i = 0; i < n; ++i)
                for (int j = i + 1; j < n; ++j) {
                    double s = 0;
                    for (int q = 0; q < m; ++q)
                        s += std::pow(std::fabs(x[std::size_t(i * m + q)] - x[std::size_t(j * m + q)]), p);
                    v.push_back(std::pow(s, 1.0 / p));
                }
            return v;
        };
        c.op("two", "pdist.default", json::array({ self() }), { 6 }, distances(2));
        c.op("one", "pdist.default", json::array({ self(), arg("p", F(1.0)) }), { 6 }, distances(1));
        QVERIFY_RUNS_ON_RUNTIME(c, "completeness pdist");
    }

    // ---- dropout, padding, activation and pooling

    void featureAlphaDropoutInEval()
    {
        // nn.FeatureAlphaDropout in eval mode: the identity.
        Case c;
        c.in("x", { 2, 3, 4 }, values(24, 19));
        c.op("d", "feature_alpha_dropout.default",
            json::array({ arg("input", T("x")), arg("p", F(0.5)), arg("train", B(false)) }), { 2, 3, 4 },
            c.inputs[0].values);
        QVERIFY_RUNS_ON_RUNTIME(c, "completeness feature_alpha_dropout");
    }

    void padCircular_data()
    {
        QTest::addColumn<QList<qint64>>("shape");
        QTest::addColumn<QList<qint64>>("pad");
        QTest::newRow("1-D") << QList<qint64> { 1, 2, 5 } << QList<qint64> { 2, 1 };
        QTest::newRow("1-D, negative left") << QList<qint64> { 2, 5 } << QList<qint64> { -1, 2 };
        QTest::newRow("2-D") << QList<qint64> { 1, 2, 3, 4 } << QList<qint64> { 1, 2, 2, 1 };
        QTest::newRow("2-D, negative right") << QList<qint64> { 2, 3, 5 } << QList<qint64> { 2, -2, 0, 1 };
    }

    void padCircular()
    {
        QFETCH(QList<qint64>, shape);
        QFETCH(QList<qint64>, pad);
        const Shape s(shape.begin(), shape.end());
        const std::vector<std::int64_t> p(pad.begin(), pad.end());
        Case c;
        c.in("x", s, values(numel(s), 20));
        Shape outShape;
        const Values want = circularPad(c.inputs[0].values, s, p, outShape);
        c.op("pad", "_pad_circular.default", json::array({ self(), arg("pad", Ints(p)) }), outShape, want);
        QVERIFY_RUNS_ON_RUNTIME(c, "completeness _pad_circular");
    }

    void rreluWithNoiseInEval()
    {
        // nn.RReLU in eval mode: rrelu_with_noise(x, empty_like(x), lower, upper, training=False) is leaky_relu with
        // the slope (lower + upper) / 2.
        Case c;
        c.in("x", { 2, 5 }, values(10, 21, 2.0));
        const auto x = c.inputs[0].values;
        auto leaky = [&](double slope) {
            Values v;
            for (const double e : x)
                v.push_back(e >= 0 ? e : e * slope);
            return v;
        };
        c.dump.node(
            "empty_like", "empty_like.default", json::array({ self(), kwarg("pin_memory", B(false)) }), { 2, 5 });
        c.op("r", "rrelu_with_noise.default", json::array({ self(), arg("noise", T("empty_like")) }), { 2, 5 },
            leaky((0.125 + 1.0 / 3.0) / 2));
        c.op("r2", "rrelu_with_noise.default",
            json::array({ self(), arg("noise", T("empty_like")), arg("lower", F(0.1)), arg("upper", F(0.3)) }),
            { 2, 5 }, leaky(0.2));
        QVERIFY_RUNS_ON_RUNTIME(c, "completeness rrelu_with_noise");
    }

    void adaptiveMaxPool1d()
    {
        // Output size o dividing the length L: windows [i L / o, (i + 1) L / o), the maximum and its index in L.
        auto pool = [](const Values& x, std::int64_t rows, std::int64_t L, std::int64_t o, Values& idx) {
            Values v;
            const std::int64_t w = L / o;
            for (std::int64_t r = 0; r < rows; ++r)
                for (std::int64_t i = 0; i < o; ++i) {
                    std::int64_t best = i * w;
                    for (std::int64_t q = i * w; q < (i + 1) * w; ++q)
                        if (x[std::size_t(r * L + q)] > x[std::size_t(r * L + best)])
                            best = q;
                    v.push_back(x[std::size_t(r * L + best)]);
                    idx.push_back(double(best));
                }
            return v;
        };
        Case c;
        c.in("x", { 2, 3, 8 }, values(48, 22)).in("u", { 3, 6 }, values(18, 23));
        Values i3, i2;
        const Values v3 = pool(c.inputs[0].values, 6, 8, 4, i3);
        const Values v2 = pool(c.inputs[1].values, 3, 6, 2, i2);
        c.dump.tupleNode("pool", "adaptive_max_pool1d.default",
            json::array({ self(), arg("output_size", Ints({ 4 })) }),
            { { "getitem", { 2, 3, 4 } }, { "getitem_1", { 2, 3, 4 } } }, kFloat, { kFloat, kLong });
        c.dump.tupleNode("pool2", "adaptive_max_pool1d.default",
            json::array({ arg("self", T("u")), arg("output_size", Ints({ 2 })) }),
            { { "getitem_2", { 3, 2 } }, { "getitem_3", { 3, 2 } } }, kFloat, { kFloat, kLong });
        for (const char* o : { "getitem", "getitem_1", "getitem_2", "getitem_3" })
            c.dump.output(o);
        c.expect({ 2, 3, 4 }, v3).expect({ 2, 3, 4 }, i3, kLong).expect({ 3, 2 }, v2).expect({ 3, 2 }, i2, kLong);
        QVERIFY_RUNS_ON_RUNTIME(c, "completeness adaptive_max_pool1d");
    }
};

QTEST_GUILESS_MAIN(TestLoweringCompleteness)
#include "tst_lowering_completeness.moc"
