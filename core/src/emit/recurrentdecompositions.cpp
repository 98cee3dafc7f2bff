// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// Recurrent layers: lstm, gru, rnn_tanh, rnn_relu unrolled as torch's decompositions do.
// Each decomposition follows the op's PyTorch definition (torch's core decomposition table or the op's composite
// implementation); docs/decompositions.md lists what each becomes.
#include "emit/decomposer_p.h"

#include <string>
#include <vector>

namespace pte::emitcore {

namespace {

enum class Cell
{
    Lstm,
    Gru,
    RnnTanh,
    RnnRelu
};

/** Gates per cell: the rows of w_ih and w_hh are that many blocks of hidden_size. */
std::int64_t gateCount(Cell cell) { return cell == Cell::Lstm ? 4 : cell == Cell::Gru ? 3 : 1; }

std::string show(const std::vector<std::int32_t>& s)
{
    std::string r = "[";
    for (std::size_t k = 0; k < s.size(); ++k)
        r += (k ? ", " : "") + std::to_string(s[k]);
    return r + "]";
}

/** The weights of one layer and direction, as the flat `params` list gives them: w_ih, w_hh, [b_ih, b_hh], [w_hr]. */
struct Weights
{
    int wih = -1;
    int whh = -1;
    int bih = -1;
    int bhh = -1;
    int whr = -1;
};

/** One time step of a cell (torch's lstm_cell, gru_cell, rnn_tanh_cell, rnn_relu_cell definitions), from the input
 *  gates xt (x W_ih^T + b_ih) and the hidden gates hh (h W_hh^T + b_hh): updates h (and c for an LSTM).
 *    LSTM (gates i, f, g, o): c = sigmoid(f) * c + sigmoid(i) * tanh(g), h = sigmoid(o) * tanh(c);
 *    GRU (gates r, z, n): r = sigmoid(hh_r + x_r), z = sigmoid(hh_z + x_z), n = tanh(x_n + hh_n * r),
 *         h = (h - n) * z + n;
 *    RNN: h = tanh or relu(hh + xt). */
void cellStep(OpBuilder& b, Cell cell, int xt, int hh, std::int32_t hidden, int& h, int& c)
{
    switch (cell) {
    case Cell::Lstm: {
        const auto g = b.split(b.add(hh, xt), { hidden, hidden, hidden, hidden }, 1);
        const int in = b.unary("sigmoid", g[0]);
        const int forget = b.unary("sigmoid", g[1]);
        const int cellGate = b.unary("tanh", g[2]);
        const int out = b.unary("sigmoid", g[3]);
        c = b.add(b.mul(forget, c), b.mul(in, cellGate));
        h = b.mul(out, b.unary("tanh", c));
        break;
    }
    case Cell::Gru: {
        const auto gi = b.split(xt, { hidden, hidden, hidden }, 1);
        const auto gh = b.split(hh, { hidden, hidden, hidden }, 1);
        const int reset = b.unary("sigmoid", b.add(gh[0], gi[0]));
        const int update = b.unary("sigmoid", b.add(gh[1], gi[1]));
        const int fresh = b.unary("tanh", b.add(gi[2], b.mul(gh[2], reset)));
        h = b.add(b.mul(b.sub(h, fresh), update), fresh);
        break;
    }
    case Cell::RnnTanh:
    case Cell::RnnRelu:
        h = b.unary(cell == Cell::RnnTanh ? "tanh" : "relu", b.add(hh, xt));
        break;
    }
}

/** What one layer in one direction computes: the step outputs stacked along time, and the final states. */
struct Direction
{
    int outputs = -1;
    int h = -1;
    int c = -1;
};

/** One layer in one direction over a whole sequence (torch's one_layer_lstm / one_layer_rnn): the input projection
 *  of every time step at once, then one step per time slice, walking backwards when reverse is set; the step outputs
 *  are stacked in time order either way. */
Direction unrollDirection(OpBuilder& b, Cell cell, int input, const Weights& w, int h0, int c0, std::int64_t timeDim,
    std::int32_t steps, std::int32_t hidden, bool reverse)
{
    const int projected = b.linear(input, w.wih, w.bih);
    const std::vector<int> inputGates = b.unbind(projected, timeDim);
    const int whhT = b.permute(w.whh, { 1, 0 });
    const int whrT = w.whr >= 0 ? b.permute(w.whr, { 1, 0 }) : -1;
    int h = h0;
    int c = c0;
    std::vector<int> outputs(std::size_t(steps), -1);
    for (std::int32_t s = 0; s < steps && !b.failed(); ++s) {
        const std::size_t t = std::size_t(reverse ? steps - 1 - s : s);
        const int xt = inputGates[t];
        const int hh = w.bhh >= 0 ? b.addmm(w.bhh, h, whhT) : b.mm(h, whhT);
        cellStep(b, cell, xt, hh, hidden, h, c);
        if (cell == Cell::Lstm && whrT >= 0)
            h = b.mm(h, whrT);
        outputs[t] = h;
    }
    if (b.failed())
        return {};
    return { b.stack(outputs, timeDim), h, c };
}

// torch's decompositions of aten.lstm.input, aten.gru.input, aten.rnn_tanh.input and aten.rnn_relu.input
// (torch/_decomp/decompositions.py: _rnn_helper, one_layer_lstm / one_layer_rnn, lstm_cell, gru_cell, rnn_cell):
//   batch_first: the input is transposed to (seq, batch, feature) and the output back;
//   per layer and direction: P = linear(x, w_ih, b_ih) over the whole sequence at once; the reverse direction
//   walks P backwards; per time step t, with hh = linear(h, w_hh, b_hh):
//     LSTM (gates i, f, g, o = chunk(hh + P[t], 4)): c = sigmoid(f) * c + sigmoid(i) * tanh(g),
//          h = sigmoid(o) * tanh(c), and h = linear(h, w_hr) with a projection;
//     GRU (gates r, z, n): r = sigmoid(hh_r + P_r), z = sigmoid(hh_z + P_z), n = tanh(P_n + hh_n * r),
//          h = (h - n) * z + n;
//     RNN: h = tanh or relu(hh + P[t]);
//   the step outputs concatenated along time (in time order for both directions), the directions concatenated on
//   the feature dimension and fed to the next layer; h_n (and c_n) the final states stacked layer-major, forward
//   before reverse. Inter-layer dropout only applies in training.
// Here the states stay 2-D (batch, hidden) instead of torch's (1, batch, hidden) views, P is unbound along time in
// one unbind_copy, w_hh is transposed once per layer instead of once per step, and with batch_first the time steps
// are read and written along dimension 1 instead of transposing: all data movement, the arithmetic is torch's
// (addmm/mm, add, sigmoid, tanh, relu, mul, sub in the same order), so the numbers are the same.
Result<bool> decomposeRecurrent(Decomposer& d, Cell cell)
{
    const std::string& overload = d.target().overload;
    const std::string op = d.target().op;
    if (overload == "data")
        return d.refuse("aten::" + op + ".data (a PackedSequence input) is not lowered: only padded sequences (" + op
            + ".input) are unrolled");
    if (overload != "input")
        return false;
    PTE_TRY(const auto a, d.args());
    OpBuilder& b = d.b;
    const int x = Decomposer::tensor(a, "input");
    const std::vector<int> params = Decomposer::tensorList(a, "params");
    const bool hasBiases = Decomposer::flag(a, "has_biases");
    const std::int64_t layers = Decomposer::integer(a, "num_layers");
    const double dropout = Decomposer::number(a, "dropout").value_or(0.0);
    const bool train = Decomposer::flag(a, "train");
    const bool bidirectional = Decomposer::flag(a, "bidirectional");
    const bool batchFirst = Decomposer::flag(a, "batch_first");
    int h0 = -1;
    int c0 = -1;
    if (cell == Cell::Lstm) {
        const auto hx = Decomposer::tensorList(a, "hx");
        if (hx.size() != 2)
            return d.invalid("lstm expects two hidden states (h_0, c_0), got " + std::to_string(hx.size()));
        h0 = hx[0];
        c0 = hx[1];
    } else {
        h0 = Decomposer::tensor(a, "hx");
    }
    if (x < 0 || h0 < 0 || (cell == Cell::Lstm && c0 < 0))
        return d.invalid("the input and the initial hidden state must be tensors");
    if (b.rank(x) != 3)
        return d.invalid("expects a 3-D input ("
            + std::string(batchFirst ? "batch, seq, feature" : "seq, batch, feature") + "), got shape "
            + show(b.sizes(x)) + " (nn."
            + (cell == Cell::Lstm       ? "LSTM"
                    : cell == Cell::Gru ? "GRU"
                                        : "RNN")
            + " unsqueezes an unbatched input before calling the op)");
    if (layers < 1)
        return d.invalid("num_layers is " + std::to_string(layers));
    if (train && dropout > 0 && layers > 1)
        return d.refuse("training-mode dropout between the layers (dropout=" + std::to_string(dropout)
            + ", train=True) is random and is not lowered: export the model in eval mode (model.eval()) or with "
              "dropout=0");
    const std::int64_t timeDim = batchFirst ? 1 : 0;
    const std::int64_t batchDim = 1 - timeDim;
    if (b.isDynamic(x, timeDim))
        return d.refuse("the sequence length (dimension " + std::to_string(timeDim)
            + " of the input) is dynamic: the recurrence is unrolled over a fixed number of time steps, as torch's "
              "decomposition does; export with a static sequence length (a dynamic batch size is supported)");
    const std::int32_t steps = b.size(x, timeDim);
    if (steps < 1)
        return d.invalid("an empty sequence");

    const std::int64_t dirs = bidirectional ? 2 : 1;
    const std::int64_t gates = gateCount(cell);
    // LSTM with proj_size > 0: h has proj_size features, c has hidden_size.
    const std::int32_t hidden = cell == Cell::Lstm ? b.size(c0, -1) : b.size(h0, -1);
    const std::int32_t outFeatures = b.size(h0, -1);
    const bool projections = cell == Cell::Lstm && outFeatures != hidden;
    const std::size_t group = 2 + (hasBiases ? 2 : 0) + (projections ? 1 : 0);
    if (params.size() != group * std::size_t(layers * dirs))
        return d.invalid("expects " + std::to_string(group * std::size_t(layers * dirs)) + " weights in params ("
            + std::to_string(layers) + " layer(s) x " + std::to_string(dirs) + " direction(s) x "
            + std::to_string(group) + "), got " + std::to_string(params.size()));
    for (const int p : params)
        if (p < 0)
            return d.invalid("params must all be tensors");
    auto checkState = [&](int s, const char* what, std::int32_t features) -> std::string {
        const auto sz = b.sizes(s);
        if (sz.size() != 3 || sz[0] != layers * dirs || sz[2] != features
            || (!b.isDynamic(s, 1) && !b.isDynamic(x, batchDim) && sz[1] != b.size(x, batchDim)))
            return std::string(what) + " has shape " + show(sz) + ", expected [" + std::to_string(layers * dirs) + ", "
                + std::to_string(b.size(x, batchDim)) + ", " + std::to_string(features) + "]";
        return {};
    };
    if (auto why = checkState(h0, cell == Cell::Lstm ? "h_0" : "hx", outFeatures); !why.empty())
        return d.invalid(why);
    if (cell == Cell::Lstm)
        if (auto why = checkState(c0, "c_0", hidden); !why.empty())
            return d.invalid(why);

    int layerInput = x;
    std::vector<int> finalH;
    std::vector<int> finalC;
    for (std::int64_t layer = 0; layer < layers; ++layer) {
        std::vector<int> directionOutputs;
        for (std::int64_t dir = 0; dir < dirs; ++dir) {
            const std::int64_t index = layer * dirs + dir;
            const std::size_t first = std::size_t(index) * group;
            Weights w;
            w.wih = params[first];
            w.whh = params[first + 1];
            if (hasBiases) {
                w.bih = params[first + 2];
                w.bhh = params[first + 3];
            }
            if (projections)
                w.whr = params[first + group - 1];
            const std::string which = "layer " + std::to_string(layer) + (dir ? " (reverse)" : "");
            const std::int32_t inFeatures = b.size(layerInput, -1);
            auto expectShape = [&](int v, const char* name, std::vector<std::int32_t> shape) -> std::string {
                if (b.sizes(v) == shape)
                    return {};
                return std::string(name) + " of " + which + " has shape " + show(b.sizes(v)) + ", expected "
                    + show(shape);
            };
            const std::int32_t rows = std::int32_t(gates) * hidden;
            for (const auto& why :
                { expectShape(w.wih, "w_ih", { rows, inFeatures }), expectShape(w.whh, "w_hh", { rows, outFeatures }),
                    w.bih >= 0 ? expectShape(w.bih, "b_ih", { rows }) : std::string(),
                    w.bhh >= 0 ? expectShape(w.bhh, "b_hh", { rows }) : std::string(),
                    w.whr >= 0 ? expectShape(w.whr, "w_hr", { outFeatures, hidden }) : std::string() })
                if (!why.empty())
                    return d.invalid(why);

            const Direction run = unrollDirection(b, cell, layerInput, w, b.select(h0, 0, index),
                cell == Cell::Lstm ? b.select(c0, 0, index) : -1, timeDim, steps, hidden, dir != 0);
            const int h = run.h;
            const int c = run.c;
            finalH.push_back(h);
            finalC.push_back(c);
            directionOutputs.push_back(run.outputs);
            PTE_CHECK(b.status());
        }
        layerInput = directionOutputs.size() == 1 ? directionOutputs[0] : b.cat(directionOutputs, 2);
    }
    const int hn = b.stack(finalH, 0);
    if (cell != Cell::Lstm)
        return d.finish({ layerInput, hn });
    return d.finish({ layerInput, hn, b.stack(finalC, 0) });
}

// nn.LSTMCell, nn.GRUCell, nn.RNNCell: aten.lstm_cell(input, hx = [h, c], w_ih, w_hh, b_ih, b_hh) -> (h', c'),
// aten.gru_cell / rnn_tanh_cell / rnn_relu_cell(input, hx, w_ih, w_hh, b_ih, b_hh) -> h': one step of the cell
// (ATen's composite: the hidden gates linear(h, w_hh, b_hh) plus the input gates linear(x, w_ih, b_ih)).
Result<bool> decomposeCell(Decomposer& d, Cell cell)
{
    PTE_TRY(const auto a, d.args());
    OpBuilder& b = d.b;
    const int x = Decomposer::tensor(a, "input");
    const int wih = Decomposer::tensor(a, "w_ih");
    const int whh = Decomposer::tensor(a, "w_hh");
    int h = -1;
    int c = -1;
    if (cell == Cell::Lstm) {
        const auto hx = Decomposer::tensorList(a, "hx");
        if (hx.size() != 2)
            return d.invalid("lstm_cell expects two states (h, c), got " + std::to_string(hx.size()));
        h = hx[0];
        c = hx[1];
    } else {
        h = Decomposer::tensor(a, "hx");
    }
    if (x < 0 || wih < 0 || whh < 0 || h < 0 || (cell == Cell::Lstm && c < 0))
        return d.invalid("expects an input, its state and the two weights as tensors");
    if (b.rank(x) != 2 || b.rank(h) != 2)
        return d.invalid("expects a 2-D input and state (batch, features): nn."
            + std::string(cell == Cell::Lstm ? "LSTMCell"
                    : cell == Cell::Gru      ? "GRUCell"
                                             : "RNNCell")
            + " unsqueezes an unbatched input before calling the op");
    const std::int32_t hidden = b.size(cell == Cell::Lstm ? c : h, -1);
    const int xt = b.linear(x, wih, Decomposer::tensor(a, "b_ih"));
    const int hh = b.linear(h, whh, Decomposer::tensor(a, "b_hh"));
    cellStep(b, cell, xt, hh, hidden, h, c);
    if (cell == Cell::Lstm)
        return d.finish({ h, c });
    return d.finish({ h });
}

// aten.mkldnn_rnn_layer: what torch's lstm decomposition writes for one LSTM layer and direction when oneDNN takes
// it (mkldnn_one_layer_lstm, chosen on CPU for float inference without projections). Arguments: the (seq, batch,
// feature) input, weight0..3 = w_ih, w_hh, b_ih, b_hh (the biases are placeholders when has_biases is false),
// hx_ and cx_ of shape (1, batch, hidden), reverse; _rnn_helper has already handled layers, directions and
// batch_first, so the op always gets num_layers 1, bidirectional and batch_first false, and mode 2 (oneDNN's LSTM).
// It computes the same LSTM layer as one_layer_lstm (gates i, f, g, o): unrolled the same way here.
// Outputs: y (seq, batch, hidden), hy and cy (1, batch, hidden), and oneDNN's workspace, which is not computed.
Result<bool> decomposeMkldnnRnnLayer(Decomposer& d)
{
    PTE_TRY(const auto a, d.args());
    OpBuilder& b = d.b;
    const int x = Decomposer::tensor(a, "input");
    Weights w;
    w.wih = Decomposer::tensor(a, "weight0");
    w.whh = Decomposer::tensor(a, "weight1");
    const bool hasBiases = Decomposer::flag(a, "has_biases");
    if (hasBiases) {
        w.bih = Decomposer::tensor(a, "weight2");
        w.bhh = Decomposer::tensor(a, "weight3");
    }
    const int hx = Decomposer::tensor(a, "hx_");
    const int cx = Decomposer::tensor(a, "cx_");
    if (x < 0 || w.wih < 0 || w.whh < 0 || hx < 0 || cx < 0 || (hasBiases && (w.bih < 0 || w.bhh < 0)))
        return d.invalid("expects the input, the weights and the two states as tensors");
    const std::int64_t mode = Decomposer::integer(a, "mode");
    if (mode != 2)
        return d.refuse("mode " + std::to_string(mode) + " is not oneDNN's LSTM (mode 2), the only cell torch "
            + "decomposes into this op");
    if (Decomposer::integer(a, "num_layers") != 1 || Decomposer::flag(a, "bidirectional")
        || Decomposer::flag(a, "batch_first"))
        return d.invalid("expects one layer in one direction with a (seq, batch, feature) input (num_layers 1, "
                         "bidirectional and batch_first false), as torch's decomposition writes it");
    if (const auto batchSizes = Decomposer::intList(a, "batch_sizes"); !batchSizes || !batchSizes->empty())
        return d.refuse("batch_sizes is set (a packed sequence): only padded sequences are unrolled");
    if (b.rank(x) != 3 || b.rank(hx) != 3 || b.rank(cx) != 3)
        return d.invalid("expects a 3-D input and 3-D states (1, batch, hidden), got shapes " + show(b.sizes(x)) + ", "
            + show(b.sizes(hx)) + " and " + show(b.sizes(cx)));
    if (b.isDynamic(x, 0))
        return d.refuse("the sequence length (dimension 0 of the input) is dynamic: the recurrence is unrolled over "
                        "a fixed number of time steps, as torch's decomposition does; export with a static sequence "
                        "length (a dynamic batch size is supported)");
    const std::int32_t steps = b.size(x, 0);
    const std::int32_t hidden = b.size(cx, -1);
    if (steps < 1)
        return d.invalid("an empty sequence");
    const std::int32_t rows = 4 * hidden;
    if (b.sizes(w.wih) != std::vector<std::int32_t> { rows, b.size(x, -1) }
        || b.sizes(w.whh) != std::vector<std::int32_t> { rows, b.size(hx, -1) }
        || (hasBiases
            && (b.sizes(w.bih) != std::vector<std::int32_t> { rows }
                || b.sizes(w.bhh) != std::vector<std::int32_t> { rows })))
        return d.invalid("the weights do not fit an LSTM of hidden size " + std::to_string(hidden) + ": w_ih "
            + show(b.sizes(w.wih)) + ", w_hh " + show(b.sizes(w.whh)) + " (expected [" + std::to_string(rows)
            + ", input] and [" + std::to_string(rows) + ", hidden])");
    const bool reverse = Decomposer::flag(a, "reverse");
    const Direction run =
        unrollDirection(b, Cell::Lstm, x, w, b.select(hx, 0, 0), b.select(cx, 0, 0), 0, steps, hidden, reverse);
    PTE_CHECK(b.status());
    return d.finish({ run.outputs, b.unsqueeze(run.h, 0), b.unsqueeze(run.c, 0), -1 });
}

const DecompositionRule kRecurrentRules[] = {
    { "gru_cell", [](Decomposer& d) { return decomposeCell(d, Cell::Gru); },
        "one GRU step: addmm (input and hidden gates), split_with_sizes_copy, add, sigmoid, mul, tanh, sub" },
    { "lstm_cell", [](Decomposer& d) { return decomposeCell(d, Cell::Lstm); },
        "one LSTM step: addmm (input and hidden gates), add, split_with_sizes_copy, sigmoid, tanh, mul" },
    { "rnn_relu_cell", [](Decomposer& d) { return decomposeCell(d, Cell::RnnRelu); },
        "one RNN step: addmm (input and hidden gates), add, relu" },
    { "rnn_tanh_cell", [](Decomposer& d) { return decomposeCell(d, Cell::RnnTanh); },
        "one RNN step: addmm (input and hidden gates), add, tanh" },
    { "gru", [](Decomposer& d) { return decomposeRecurrent(d, Cell::Gru); },
        "unrolled per layer, direction and time step: input projection addmm + view_copy, unbind_copy; per step "
        "addmm (mm without bias), split_with_sizes_copy, add, sigmoid, mul, tanh, sub; stack, cat (bidirectional)" },
    { "lstm", [](Decomposer& d) { return decomposeRecurrent(d, Cell::Lstm); },
        "unrolled per layer, direction and time step: input projection addmm + view_copy, unbind_copy; per step "
        "addmm (mm without bias), add, split_with_sizes_copy, sigmoid, tanh, mul, mm (proj_size); stack, cat "
        "(bidirectional)" },
    { "mkldnn_rnn_layer", &decomposeMkldnnRnnLayer,
        "one LSTM layer (oneDNN's op as torch's lstm decomposition writes it): input projection addmm + view_copy, "
        "unbind_copy; per step addmm (mm without bias), add, split_with_sizes_copy, sigmoid, tanh, mul; stack, "
        "unsqueeze_copy of the final states; the workspace output is not computed" },
    { "rnn_relu", [](Decomposer& d) { return decomposeRecurrent(d, Cell::RnnRelu); },
        "unrolled per layer, direction and time step: input projection addmm + view_copy, unbind_copy; per step "
        "addmm (mm without bias), add, relu; stack, cat (bidirectional)" },
    { "rnn_tanh", [](Decomposer& d) { return decomposeRecurrent(d, Cell::RnnTanh); },
        "unrolled per layer, direction and time step: input projection addmm + view_copy, unbind_copy; per step "
        "addmm (mm without bias), add, tanh; stack, cat (bidirectional)" },
};

} // namespace

std::span<const DecompositionRule> recurrentRules() { return kRecurrentRules; }

} // namespace pte::emitcore
