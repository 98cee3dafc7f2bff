// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// Recurrent layers of the training IR: aten.lstm.input, aten.gru.input, aten.rnn_tanh.input and aten.rnn_relu.input
// as torch.export writes nn.LSTM / nn.GRU / nn.RNN (the flat weight list per layer and direction, h_0/c_0 given by
// the caller or zeros made in the graph, unbatched input unsqueezed around the op), unrolled by ptelens and run on
// ExecuTorch's runtime. The expected values come from a reference written here from the equations of the nn.LSTM,
// nn.GRU and nn.RNN documentation (loops over indices, sums in double, the states rounded to float each step), not
// from the decomposition; and the forms that cannot run are refused with the reason.
#include "dumpbuilder.h"
#include "errorcheck.h"
#include "etrunner.h"
#include "pte/emitter.h"
#include "runtimecase.h"
#include "testutils.h"

#include <QTest>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

using namespace pte;
using namespace pte::test;
using nlohmann::json;

namespace {

/** One nn.LSTM / nn.GRU / nn.RNN configuration and the sizes of the call. */
struct Rnn
{
    std::string mode = "lstm"; ///< lstm, gru, rnn_tanh, rnn_relu
    int layers = 1;
    bool bidirectional = false;
    bool bias = true;
    bool batchFirst = false;
    int proj = 0; ///< LSTM proj_size
    bool givenState = false; ///< h_0 (and c_0) passed by the caller; else zeros made in the graph
    int steps = 4; ///< sequence length
    int batch = 2;
    int inputSize = 3;
    int hidden = 5;
    std::uint32_t seed = 1;

    [[nodiscard]] bool lstm() const { return mode == "lstm"; }
    [[nodiscard]] int gates() const { return mode == "lstm" ? 4 : mode == "gru" ? 3 : 1; }
    [[nodiscard]] int dirs() const { return bidirectional ? 2 : 1; }
    [[nodiscard]] int outFeatures() const { return proj > 0 ? proj : hidden; }
    [[nodiscard]] std::string module() const { return mode == "lstm" ? "lstm" : mode == "gru" ? "gru" : "rnn"; }
};

/** The parameters of one layer and direction, as nn.LSTM/GRU/RNN name them. */
struct LayerWeights
{
    std::string suffix; ///< "l0", "l1_reverse"...
    int in = 0;
    std::vector<double> wih, whh, bih, bhh, whr;
};

std::vector<LayerWeights> makeWeights(const Rnn& r)
{
    std::vector<LayerWeights> all;
    std::uint32_t seed = r.seed * 100;
    const double scale = 1.0 / std::sqrt(double(r.hidden)); // nn.RNNBase's init range
    for (int l = 0; l < r.layers; ++l) {
        for (int d = 0; d < r.dirs(); ++d) {
            LayerWeights w;
            w.suffix = "l" + std::to_string(l) + (d ? "_reverse" : "");
            w.in = l == 0 ? r.inputSize : r.outFeatures() * r.dirs();
            const auto rows = std::size_t(r.gates() * r.hidden);
            w.wih = values(rows * std::size_t(w.in), ++seed, scale);
            w.whh = values(rows * std::size_t(r.outFeatures()), ++seed, scale);
            if (r.bias) {
                w.bih = values(rows, ++seed, scale);
                w.bhh = values(rows, ++seed, scale);
            }
            if (r.proj > 0)
                w.whr = values(std::size_t(r.proj * r.hidden), ++seed, scale);
            all.push_back(std::move(w));
        }
    }
    return all;
}

double sigmoid(double v) { return 1.0 / (1.0 + std::exp(-v)); }

/** row `row` of the [rows, cols] matrix w times vector v (v has cols elements). */
double dot(const std::vector<double>& w, int row, int cols, const double* v)
{
    double s = 0;
    for (int k = 0; k < cols; ++k)
        s += w[std::size_t(row * cols + k)] * v[k];
    return s;
}

struct Reference
{
    std::vector<double> output; ///< as the op returns it ((seq, batch) or (batch, seq) first)
    std::vector<double> hn, cn; ///< [layers * dirs, batch, features]
};

/**
 * The documented equations (W x + b_i + W h + b_h per gate):
 *   LSTM: i, f, o = sigmoid(.), g = tanh(.); c' = f * c + i * g; h' = o * tanh(c'); h' = W_hr h' with proj_size;
 *   GRU:  r, z = sigmoid(.); n = tanh(W_in x + b_in + r * (W_hn h + b_hn)); h' = (1 - z) * n + z * h;
 *   RNN:  h' = tanh or relu(W_ih x + b_ih + W_hh h + b_hh);
 * layer l > 0 reads the outputs of layer l - 1 (both directions concatenated), the reverse direction reads the
 * sequence from its end. x is given as the op takes it; h0/c0 are [layers * dirs, batch, features].
 */
Reference reference(const Rnn& r, const std::vector<LayerWeights>& weights, const std::vector<double>& x,
    const std::vector<double>& h0, const std::vector<double>& c0)
{
    const int T = r.steps, N = r.batch, H = r.hidden, O = r.outFeatures(), D = r.dirs();
    // Time-major copy of the input: seq[t][n][k].
    int features = r.inputSize;
    std::vector<double> seq(std::size_t(T * N * features));
    for (int t = 0; t < T; ++t)
        for (int n = 0; n < N; ++n)
            for (int k = 0; k < features; ++k)
                seq[std::size_t((t * N + n) * features + k)] =
                    x[std::size_t(((r.batchFirst ? n * T + t : t * N + n)) * features + k)];
    Reference out;
    out.hn.assign(std::size_t(r.layers * D * N * O), 0.0);
    out.cn.assign(std::size_t(r.layers * D * N * H), 0.0);
    for (int l = 0; l < r.layers; ++l) {
        std::vector<double> next(std::size_t(T * N * D * O));
        for (int d = 0; d < D; ++d) {
            const int idx = l * D + d;
            const LayerWeights& w = weights[std::size_t(idx)];
            std::vector<double> h(h0.begin() + idx * N * O, h0.begin() + (idx + 1) * N * O);
            std::vector<double> c;
            if (r.lstm())
                c.assign(c0.begin() + idx * N * H, c0.begin() + (idx + 1) * N * H);
            auto bias = [&](const std::vector<double>& b, int row) { return b.empty() ? 0.0 : b[std::size_t(row)]; };
            for (int s = 0; s < T; ++s) {
                const int t = d == 0 ? s : T - 1 - s;
                std::vector<double> hNew(std::size_t(N * O));
                std::vector<double> cNew(c.size());
                for (int n = 0; n < N; ++n) {
                    const double* xt = &seq[std::size_t((t * N + n) * features)];
                    const double* hp = &h[std::size_t(n * O)];
                    // The input and hidden parts of gate block g, row j.
                    auto xi = [&](int g, int j) {
                        const int row = g * H + j;
                        return dot(w.wih, row, w.in, xt) + bias(w.bih, row);
                    };
                    auto hi = [&](int g, int j) {
                        const int row = g * H + j;
                        return dot(w.whh, row, O, hp) + bias(w.bhh, row);
                    };
                    if (r.mode == "lstm") {
                        std::vector<double> hc(std::size_t(H), 0.0);
                        for (int j = 0; j < H; ++j) {
                            const double i = sigmoid(xi(0, j) + hi(0, j));
                            const double f = sigmoid(xi(1, j) + hi(1, j));
                            const double g = std::tanh(xi(2, j) + hi(2, j));
                            const double o = sigmoid(xi(3, j) + hi(3, j));
                            const double cj = f * c[std::size_t(n * H + j)] + i * g;
                            cNew[std::size_t(n * H + j)] = f32(cj);
                            hc[std::size_t(j)] = o * std::tanh(f32(cj));
                        }
                        for (int j = 0; j < O; ++j)
                            hNew[std::size_t(n * O + j)] =
                                f32(r.proj > 0 ? dot(w.whr, j, H, hc.data()) : hc[std::size_t(j)]);
                    } else if (r.mode == "gru") {
                        for (int j = 0; j < H; ++j) {
                            const double rg = sigmoid(xi(0, j) + hi(0, j));
                            const double z = sigmoid(xi(1, j) + hi(1, j));
                            const double ng = std::tanh(xi(2, j) + rg * hi(2, j));
                            hNew[std::size_t(n * O + j)] = f32((1 - z) * ng + z * hp[j]);
                        }
                    } else {
                        for (int j = 0; j < H; ++j) {
                            const double a = xi(0, j) + hi(0, j);
                            hNew[std::size_t(n * O + j)] = f32(r.mode == "rnn_tanh" ? std::tanh(a) : std::max(a, 0.0));
                        }
                    }
                }
                h = hNew;
                c = cNew;
                for (int n = 0; n < N; ++n)
                    for (int j = 0; j < O; ++j)
                        next[std::size_t((t * N + n) * D * O + d * O + j)] = h[std::size_t(n * O + j)];
            }
            std::copy(h.begin(), h.end(), out.hn.begin() + idx * N * O);
            if (r.lstm())
                std::copy(c.begin(), c.end(), out.cn.begin() + idx * N * H);
        }
        seq = std::move(next);
        features = D * O;
    }
    out.output.resize(seq.size());
    for (int t = 0; t < T; ++t)
        for (int n = 0; n < N; ++n)
            for (int k = 0; k < features; ++k)
                out.output[std::size_t(((r.batchFirst ? n * T + t : t * N + n)) * features + k)] =
                    seq[std::size_t((t * N + n) * features + k)];
    if (!r.lstm())
        out.cn.clear();
    return out;
}

json Device() { return { { "as_device", { { "type", "cpu" }, { "index", nullptr } } } }; }

/** zeros(size, dtype=float32, device=cpu, pin_memory=False) as nn.RNNBase makes a missing h_0/c_0. */
void zerosNode(Dump& dump, const std::string& name, std::vector<std::int64_t> size, json sizeArg = nullptr)
{
    dump.node(name, "zeros.default",
        json::array({ arg("size", sizeArg.is_null() ? Ints(size) : std::move(sizeArg)), kwarg("dtype", Dtype(kFloat)),
            kwarg("device", Device()), kwarg("pin_memory", B(false)) }),
        size);
}

/** The parameter placeholders of `r` (p_<module>_weight_ih_l0...), in the order of the flat weight list. */
std::vector<std::string> addWeights(Dump& dump, const Rnn& r, const std::vector<LayerWeights>& weights)
{
    std::vector<std::string> names;
    const auto rows = std::int64_t(r.gates() * r.hidden);
    auto add = [&](const std::string& what, const LayerWeights& w, std::vector<std::int64_t> shape,
                   const std::vector<double>& v) {
        const std::string fqn = r.module() + "." + what + "_" + w.suffix;
        const std::string placeholder = "p_" + r.module() + "_" + what + "_" + w.suffix;
        dump.weight(placeholder, fqn, std::move(shape), v);
        names.push_back(placeholder);
    };
    for (const auto& w : weights) {
        add("weight_ih", w, { rows, w.in }, w.wih);
        add("weight_hh", w, { rows, r.outFeatures() }, w.whh);
        if (r.bias) {
            add("bias_ih", w, { rows }, w.bih);
            add("bias_hh", w, { rows }, w.bhh);
        }
        if (r.proj > 0)
            add("weight_hr", w, { r.proj, r.hidden }, w.whr);
    }
    return names;
}

/** The recurrent node as torch.export writes it: every argument positional (the schema has no defaults). */
json rnnArgs(const Rnn& r, const std::string& input, const std::vector<std::string>& hx,
    const std::vector<std::string>& params, bool train = false, double dropout = 0.0)
{
    return json::array(
        { arg("input", T(input)), arg("hx", r.lstm() ? Tensors(hx) : T(hx[0])), arg("params", Tensors(params)),
            arg("has_biases", B(r.bias)), arg("num_layers", I(r.layers)), arg("dropout", F(dropout)),
            arg("train", B(train)), arg("bidirectional", B(r.bidirectional)), arg("batch_first", B(r.batchFirst)) });
}

std::string target(const Rnn& r) { return r.mode + ".input"; }

struct Built
{
    Case c;
    Reference want;
};

/** nn.LSTM/GRU/RNN called on x (and h_0, c_0 when given): the node, its three or two outputs returned. */
Built build(const Rnn& r)
{
    Built b;
    Case& c = b.c;
    const auto weights = makeWeights(r);
    const auto params = addWeights(c.dump, r, weights);
    const std::int64_t T = r.steps, N = r.batch, L = r.layers * r.dirs();
    const std::vector<std::int64_t> xShape = r.batchFirst ? std::vector<std::int64_t> { N, T, r.inputSize }
                                                          : std::vector<std::int64_t> { T, N, r.inputSize };
    const auto x = values(std::size_t(T * N * r.inputSize), r.seed, 1.5);
    c.in("x", xShape, x);
    std::vector<double> h0(std::size_t(L * N * r.outFeatures()), 0.0);
    std::vector<double> c0(r.lstm() ? std::size_t(L * N * r.hidden) : 0, 0.0);
    std::vector<std::string> hx;
    if (r.givenState) {
        h0 = values(h0.size(), r.seed + 7, 0.8);
        c.in("h0", { L, N, r.outFeatures() }, h0);
        hx.push_back("h0");
        if (r.lstm()) {
            c0 = values(c0.size(), r.seed + 8, 0.8);
            c.in("c0", { L, N, r.hidden }, c0);
            hx.push_back("c0");
        }
    } else {
        zerosNode(c.dump, "zeros", { L, N, r.outFeatures() });
        hx.push_back("zeros");
        if (r.lstm()) {
            zerosNode(c.dump, "zeros_1", { L, N, r.hidden });
            hx.push_back("zeros_1");
        }
    }
    const std::int64_t F = r.dirs() * r.outFeatures();
    const std::vector<std::int64_t> outShape =
        r.batchFirst ? std::vector<std::int64_t> { N, T, F } : std::vector<std::int64_t> { T, N, F };
    std::vector<std::pair<std::string, std::vector<std::int64_t>>> outs { { "getitem", outShape },
        { "getitem_1", { L, N, r.outFeatures() } } };
    if (r.lstm())
        outs.push_back({ "getitem_2", { L, N, r.hidden } });
    c.dump.tupleNode(r.module(), target(r), rnnArgs(r, "x", hx, params), outs);
    b.want = reference(r, weights, x, h0, c0);
    for (const auto& o : outs)
        c.dump.output(o.first);
    c.expect(outShape, b.want.output).expect({ L, N, r.outFeatures() }, b.want.hn);
    if (r.lstm())
        c.expect({ L, N, r.hidden }, b.want.cn);
    return b;
}

std::vector<std::pair<const char*, Rnn>> configurations()
{
    std::vector<std::pair<const char*, Rnn>> v;
    auto add = [&](const char* name, Rnn r) {
        r.seed = std::uint32_t(v.size() + 1);
        v.emplace_back(name, std::move(r));
    };
    Rnn r;
    add("lstm, 1 layer, zero state", r);
    r.givenState = true;
    add("lstm, 1 layer, given state", r);
    r = {};
    r.layers = 2;
    r.givenState = true;
    add("lstm, 2 layers, given state", r);
    r = {};
    r.bidirectional = true;
    add("lstm, bidirectional", r);
    r.layers = 2;
    r.batchFirst = true;
    r.givenState = true;
    add("lstm, 2 layers, bidirectional, batch_first, given state", r);
    r = {};
    r.bias = false;
    r.layers = 2;
    add("lstm, 2 layers, no bias", r);
    r = {};
    r.proj = 3;
    add("lstm, proj_size, zero state", r);
    r.layers = 2;
    r.bidirectional = true;
    r.givenState = true;
    add("lstm, proj_size, 2 layers, bidirectional, given state", r);
    r = {};
    r.proj = 2;
    r.bias = false;
    r.batchFirst = true;
    add("lstm, proj_size, no bias, batch_first", r);
    r = {};
    r.steps = 1;
    r.batch = 1;
    add("lstm, sequence length 1, batch 1", r);
    r = {};
    r.steps = 9;
    r.batch = 1;
    r.givenState = true;
    add("lstm, 9 steps, batch 1, given state", r);
    r = {};
    r.mode = "gru";
    add("gru, 1 layer, zero state", r);
    r.layers = 2;
    r.bidirectional = true;
    r.batchFirst = true;
    r.givenState = true;
    add("gru, 2 layers, bidirectional, batch_first, given state", r);
    r = {};
    r.mode = "gru";
    r.bias = false;
    r.steps = 1;
    add("gru, no bias, sequence length 1", r);
    r = {};
    r.mode = "rnn_tanh";
    r.layers = 2;
    add("rnn_tanh, 2 layers", r);
    r = {};
    r.mode = "rnn_tanh";
    r.bidirectional = true;
    r.givenState = true;
    r.batch = 1;
    add("rnn_tanh, bidirectional, given state, batch 1", r);
    r = {};
    r.mode = "rnn_relu";
    r.bias = false;
    r.batchFirst = true;
    add("rnn_relu, no bias, batch_first", r);
    r = {};
    r.mode = "rnn_relu";
    r.layers = 2;
    r.bidirectional = true;
    r.givenState = true;
    add("rnn_relu, 2 layers, bidirectional, given state", r);
    return v;
}

/** An mkldnn_rnn_layer node of oneDNN cell `mode` without biases over a 3-step input, returning `output`. */
Result<std::shared_ptr<ExportedProgram>> mkldnnLayerDump(int mode, const std::string& output)
{
    const int S = 3, N = 2, In = 3, H = 4;
    Dump dump;
    dump.weight("w_ih", "lstm.weight_ih_l0", { 4 * H, In }, values(4 * H * In, 1));
    dump.weight("w_hh", "lstm.weight_hh_l0", { 4 * H, H }, values(4 * H * H, 2));
    dump.input("x", { S, N, In });
    dump.input("h0", { 1, N, H });
    dump.input("c0", { 1, N, H });
    dump.tupleNode("mkldnn_rnn_layer", "mkldnn_rnn_layer.default",
        json::array({ arg("input", T("x")), arg("weight0", T("w_ih")), arg("weight1", T("w_hh")),
            arg("weight2", T("w_ih")), arg("weight3", T("w_hh")), arg("hx_", T("h0")), arg("cx_", T("c0")),
            arg("reverse", B(false)), arg("batch_sizes", Ints({})), arg("mode", I(mode)), arg("hidden_size", I(H)),
            arg("num_layers", I(1)), arg("has_biases", B(false)), arg("bidirectional", B(false)),
            arg("batch_first", B(false)), arg("train", B(false)) }),
        { { "getitem", { S, N, H } }, { "getitem_1", { 1, N, H } }, { "getitem_2", { 1, N, H } },
            { "getitem_3", { 0 } } });
    dump.output(output);
    return dump.build("recurrent mkldnn");
}

} // namespace

class TestLoweringRecurrent : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void layersRunAsTorchComputesThem_data()
    {
        QTest::addColumn<int>("index");
        const auto all = configurations();
        for (std::size_t k = 0; k < all.size(); ++k)
            QTest::newRow(all[k].first) << int(k);
    }

    void layersRunAsTorchComputesThem()
    {
        QFETCH(int, index);
        const auto all = configurations();
        const auto& [name, r] = all[std::size_t(index)];
        const Built b = build(r);
        QVERIFY_RUNS_ON_RUNTIME(b.c, std::string("recurrent ") + name);
    }

    void unbatchedInputIsUnsqueezedAroundTheOp()
    {
        // nn.LSTM on a 2-D (seq, feature) input: unsqueeze(x, 1), zeros of batch 1, the op, then squeeze(1) of the
        // output and of both states.
        Rnn r;
        r.batch = 1;
        r.layers = 2;
        r.steps = 5;
        r.seed = 40;
        Case c;
        const auto weights = makeWeights(r);
        const auto params = addWeights(c.dump, r, weights);
        const auto x = values(std::size_t(r.steps * r.inputSize), r.seed, 1.5);
        c.in("x", { r.steps, r.inputSize }, x);
        c.dump.node("unsqueeze", "unsqueeze.default", json::array({ arg("self", T("x")), arg("dim", I(1)) }),
            { r.steps, 1, r.inputSize });
        zerosNode(c.dump, "zeros", { 2, 1, r.hidden });
        zerosNode(c.dump, "zeros_1", { 2, 1, r.hidden });
        c.dump.tupleNode("lstm", "lstm.input", rnnArgs(r, "unsqueeze", { "zeros", "zeros_1" }, params),
            { { "getitem", { r.steps, 1, r.hidden } }, { "getitem_1", { 2, 1, r.hidden } },
                { "getitem_2", { 2, 1, r.hidden } } });
        int k = 0;
        for (const char* out : { "getitem", "getitem_1", "getitem_2" }) {
            const std::string sq = "squeeze" + std::string(k ? "_" + std::to_string(k) : "");
            c.dump.node(sq, "squeeze.dim", json::array({ arg("self", T(out)), arg("dim", I(1)) }),
                { k == 0 ? r.steps : 2, r.hidden });
            c.dump.output(sq);
            ++k;
        }
        const std::vector<double> zeros(std::size_t(2 * r.hidden), 0.0);
        const Reference want = reference(r, weights, x, zeros, zeros);
        c.expect({ r.steps, r.hidden }, want.output).expect({ 2, r.hidden }, want.hn).expect({ 2, r.hidden }, want.cn);
        QVERIFY_RUNS_ON_RUNTIME(c, "recurrent unbatched");
    }

    void lstmTagger()
    {
        // The LSTM tagger of PyTorch's sequence-models tutorial: embedding -> view(len, 1, -1) -> lstm (zero state)
        // -> view(len, -1) -> linear -> log_softmax(dim=1).
        const int vocab = 10, embed = 6, tags = 4, steps = 7;
        Rnn r;
        r.inputSize = embed;
        r.hidden = 5;
        r.batch = 1;
        r.steps = steps;
        r.seed = 50;
        Case c;
        const auto table = values(std::size_t(vocab * embed), 51, 1.0);
        c.dump.weight("p_word_embeddings_weight", "word_embeddings.weight", { vocab, embed }, table);
        const auto weights = makeWeights(r);
        const auto params = addWeights(c.dump, r, weights);
        const auto w2 = values(std::size_t(tags * r.hidden), 52, 0.5);
        const auto b2 = values(std::size_t(tags), 53, 0.5);
        c.dump.weight("p_hidden2tag_weight", "hidden2tag.weight", { tags, r.hidden }, w2);
        c.dump.weight("p_hidden2tag_bias", "hidden2tag.bias", { tags }, b2);
        const std::vector<double> sentence { 3, 1, 4, 1, 5, 9, 2 };
        c.in("sentence", { steps }, sentence, kLong);
        c.dump.node("embedding", "embedding.default",
            json::array({ arg("weight", T("p_word_embeddings_weight")), arg("indices", T("sentence")) }),
            { steps, embed });
        c.dump.node("view", "view.default",
            json::array({ arg("self", T("embedding")), arg("size", Ints({ steps, 1, -1 })) }), { steps, 1, embed });
        zerosNode(c.dump, "zeros", { 1, 1, r.hidden });
        zerosNode(c.dump, "zeros_1", { 1, 1, r.hidden });
        c.dump.tupleNode("lstm", "lstm.input", rnnArgs(r, "view", { "zeros", "zeros_1" }, params),
            { { "getitem", { steps, 1, r.hidden } }, { "getitem_1", { 1, 1, r.hidden } },
                { "getitem_2", { 1, 1, r.hidden } } });
        c.dump.node("view_1", "view.default",
            json::array({ arg("self", T("getitem")), arg("size", Ints({ steps, -1 })) }), { steps, r.hidden });
        c.dump.node("linear", "linear.default",
            json::array({ arg("input", T("view_1")), arg("weight", T("p_hidden2tag_weight")),
                arg("bias", T("p_hidden2tag_bias")) }),
            { steps, tags });
        c.dump.node("log_softmax", "log_softmax.int", json::array({ arg("self", T("linear")), arg("dim", I(1)) }),
            { steps, tags });
        c.dump.output("log_softmax");

        std::vector<double> x;
        for (const double word : sentence)
            for (int k = 0; k < embed; ++k)
                x.push_back(table[std::size_t(int(word) * embed + k)]);
        const std::vector<double> zeros(std::size_t(r.hidden), 0.0);
        const Reference lstm = reference(r, weights, x, zeros, zeros);
        std::vector<double> want;
        for (int t = 0; t < steps; ++t) {
            std::vector<double> logits(std::size_t(tags), 0.0);
            for (int j = 0; j < tags; ++j)
                logits[std::size_t(j)] =
                    f32(dot(w2, j, r.hidden, &lstm.output[std::size_t(t * r.hidden)]) + b2[std::size_t(j)]);
            const double top = *std::max_element(logits.begin(), logits.end());
            double total = 0;
            for (const double v : logits)
                total += std::exp(v - top);
            for (const double v : logits)
                want.push_back(f32(v - top - std::log(total)));
        }
        c.expect({ steps, tags }, want);
        QVERIFY_RUNS_ON_RUNTIME(c, "recurrent lstm tagger");
    }

    void dynamicBatch()
    {
        // x: [seq, s0, feature] with s0 <= 4, the zero states sized by sym_size(x, 1) as nn.LSTM makes them; the
        // program is planned for s0 = 4 and run at that bound (the runner takes inputs of the planned sizes).
        const int bound = 4;
        Rnn r;
        r.batch = bound;
        r.bidirectional = true;
        r.seed = 60;
        Case c;
        const auto weights = makeWeights(r);
        const auto params = addWeights(c.dump, r, weights);
        const auto x = values(std::size_t(r.steps * r.batch * r.inputSize), r.seed, 1.5);
        c.in("x", { r.steps, r.batch, r.inputSize }, x);
        c.dump.dynamic("x", 1, "s0", bound);
        c.dump.symNode(
            "sym_size_int", "sym_size.int", json::array({ arg("self", T("x")), arg("dim", I(1)) }), "s0", bound);
        const json size = { { "as_sym_ints",
            json::array({ { { "as_int", 2 } }, { { "as_name", "sym_size_int" } }, { { "as_int", r.hidden } } }) } };
        zerosNode(c.dump, "zeros", { 2, bound, r.hidden }, size);
        zerosNode(c.dump, "zeros_1", { 2, bound, r.hidden }, size);
        c.dump.dynamic("zeros", 1, "s0", bound);
        c.dump.dynamic("zeros_1", 1, "s0", bound);
        c.dump.tupleNode("lstm", "lstm.input", rnnArgs(r, "x", { "zeros", "zeros_1" }, params),
            { { "getitem", { r.steps, bound, 2 * r.hidden } }, { "getitem_1", { 2, bound, r.hidden } },
                { "getitem_2", { 2, bound, r.hidden } } });
        for (const char* out : { "getitem", "getitem_1", "getitem_2" }) {
            c.dump.dynamic(out, 1, "s0", bound);
            c.dump.output(out);
        }
        const std::vector<double> zeros(std::size_t(2 * r.batch * r.hidden), 0.0);
        const Reference want = reference(r, weights, x, zeros, zeros);
        c.expect({ r.steps, r.batch, 2 * r.hidden }, want.output)
            .expect({ 2, r.batch, r.hidden }, want.hn)
            .expect({ 2, r.batch, r.hidden }, want.cn);
        QVERIFY_RUNS_ON_RUNTIME(c, "recurrent dynamic batch");
        // The views of the input projection take the batch size at run time.
        auto ep = c.dump.build("recurrent dynamic batch");
        QVERIFY_RESULT(ep);
        const auto emitted = emitProgram({ { "forward", *ep } });
        QVERIFY_RESULT(emitted);
        const auto& ops = emitted->program.executionPlan[0].operators;
        QVERIFY(std::any_of(ops.begin(), ops.end(), [](const Operator& o) { return o.name == "aten::sym_size"; }));
    }

    void dynamicSequenceLengthIsRefused()
    {
        Rnn r;
        r.mode = "gru";
        r.givenState = true;
        Built b = build(r);
        b.c.dump.dynamic("x", 0, "s0", 8);
        b.c.dump.dynamic("getitem", 0, "s0", 8);
        auto ep = b.c.dump.build("recurrent dynamic sequence");
        QVERIFY_RESULT(ep);
        QVERIFY_ERROR(emitProgram({ { "forward", *ep } }), ErrorCode::Unsupported, "node 'gru'", "sequence length",
            "dynamic", "static sequence length");
    }

    void trainingDropoutIsRefused()
    {
        Rnn r;
        r.layers = 2;
        Case c;
        const auto weights = makeWeights(r);
        const auto params = addWeights(c.dump, r, weights);
        c.in("x", { r.steps, r.batch, r.inputSize }, values(std::size_t(r.steps * r.batch * r.inputSize), 1));
        zerosNode(c.dump, "zeros", { 2, r.batch, r.hidden });
        zerosNode(c.dump, "zeros_1", { 2, r.batch, r.hidden });
        c.dump.tupleNode("lstm", "lstm.input", rnnArgs(r, "x", { "zeros", "zeros_1" }, params, true, 0.25),
            { { "getitem", { r.steps, r.batch, r.hidden } }, { "getitem_1", { 2, r.batch, r.hidden } },
                { "getitem_2", { 2, r.batch, r.hidden } } });
        c.dump.output("getitem");
        auto ep = c.dump.build("recurrent training dropout");
        QVERIFY_RESULT(ep);
        QVERIFY_ERROR(
            emitProgram({ { "forward", *ep } }), ErrorCode::Unsupported, "node 'lstm'", "dropout", "model.eval()");
    }

    void mkldnnRnnLayerRunsAsAnLstmLayer_data()
    {
        QTest::addColumn<bool>("reverse");
        QTest::addColumn<bool>("bias");
        QTest::newRow("forward, biases") << false << true;
        QTest::newRow("reverse, no biases") << true << false;
    }

    void mkldnnRnnLayerRunsAsAnLstmLayer()
    {
        // What torch's lstm decomposition writes for one layer and direction when oneDNN takes it
        // (mkldnn_one_layer_lstm): the layer's weights, hx and cx of shape (1, batch, hidden), reverse for the
        // backward direction; without biases, weight2 and weight3 are zeros the op does not read. The layer is an
        // LSTM layer: a reverse layer is the forward layer over the time-reversed sequence, its outputs reversed.
        QFETCH(bool, reverse);
        QFETCH(bool, bias);
        Rnn r;
        r.bias = bias;
        r.givenState = true;
        r.seed = reverse ? 41 : 42;
        const int S = r.steps, N = r.batch, In = r.inputSize, H = r.hidden;
        const auto weights = makeWeights(r);
        Case c;
        const auto params = addWeights(c.dump, r, weights);
        const auto x = values(std::size_t(S * N * In), r.seed, 1.5);
        const auto h0 = values(std::size_t(N * H), r.seed + 7, 0.8);
        const auto c0 = values(std::size_t(N * H), r.seed + 8, 0.8);
        c.in("x", { S, N, In }, x);
        c.in("hx", { 1, N, H }, h0);
        c.in("cx", { 1, N, H }, c0);
        std::string w2 = bias ? params[2] : "zeros";
        std::string w3 = bias ? params[3] : "zeros_1";
        if (!bias) {
            zerosNode(c.dump, "zeros", { 4 * H, In });
            zerosNode(c.dump, "zeros_1", { 4 * H, H });
        }
        c.dump.tupleNode("mkldnn_rnn_layer", "mkldnn_rnn_layer.default",
            json::array({ arg("input", T("x")), arg("weight0", T(params[0])), arg("weight1", T(params[1])),
                arg("weight2", T(w2)), arg("weight3", T(w3)), arg("hx_", T("hx")), arg("cx_", T("cx")),
                arg("reverse", B(reverse)), arg("batch_sizes", Ints({})), arg("mode", I(2)), arg("hidden_size", I(H)),
                arg("num_layers", I(1)), arg("has_biases", B(bias)), arg("bidirectional", B(false)),
                arg("batch_first", B(false)), arg("train", B(false)) }),
            { { "getitem", { S, N, H } }, { "getitem_1", { 1, N, H } }, { "getitem_2", { 1, N, H } },
                { "getitem_3", { 0 } } });
        for (const char* o : { "getitem", "getitem_1", "getitem_2" })
            c.dump.output(o);

        auto timeReversed = [&](const std::vector<double>& v, int features) {
            std::vector<double> out(v.size());
            for (int t = 0; t < S; ++t)
                std::copy_n(v.begin() + std::ptrdiff_t((S - 1 - t) * N * features), N * features,
                    out.begin() + std::ptrdiff_t(t * N * features));
            return out;
        };
        Reference want = reference(r, weights, reverse ? timeReversed(x, In) : x, h0, c0);
        if (reverse)
            want.output = timeReversed(want.output, H);
        c.expect({ S, N, H }, want.output).expect({ 1, N, H }, want.hn).expect({ 1, N, H }, want.cn);
        QVERIFY_RUNS_ON_RUNTIME(c, reverse ? "recurrent mkldnn_rnn_layer reverse" : "recurrent mkldnn_rnn_layer");
    }

    void mkldnnRnnLayerOfAnotherCellIsRefused()
    {
        auto ep = mkldnnLayerDump(1, "getitem");
        QVERIFY_RESULT(ep);
        QVERIFY_ERROR(emitProgram({ { "forward", *ep } }), ErrorCode::Unsupported, "node 'mkldnn_rnn_layer'", "mode 1",
            "oneDNN's LSTM");
    }

    void mkldnnWorkspaceIsRefusedWhereRead()
    {
        // The fourth output (oneDNN's workspace) is not computed: a graph that returns it is refused by name.
        auto ep = mkldnnLayerDump(2, "getitem_3");
        QVERIFY_RESULT(ep);
        QVERIFY_ERROR(emitProgram({ { "forward", *ep } }), ErrorCode::Unsupported, "getitem_3",
            "output 3 of node 'mkldnn_rnn_layer' (mkldnn_rnn_layer)", "does not compute");
    }
};

QTEST_GUILESS_MAIN(TestLoweringRecurrent)
#include "tst_lowering_recurrent.moc"
