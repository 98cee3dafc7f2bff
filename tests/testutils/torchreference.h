// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// PyTorch's definitions of the functional ops whole-model tests need, written from PyTorch's documentation
// (torch.nn.functional and the torch.nn module pages: the formulas, the weight layouts, the gate orders) on a plain
// host tensor, with straightforward loops and no code of ptelens: the expected values of the model-zoo tests
// come from here, never from what ptelens emits. Sums run in double and every op's result is rounded to float32, as
// float32 torch rounds each op's output (its sums run in float, in another order: compare with a stated rtol).

#include <cstdint>
#include <optional>
#include <vector>

namespace pte::test::torchref {

using Shape = std::vector<std::int64_t>;

/** A contiguous row-major tensor: its sizes and its element values. */
struct Tensor
{
    Shape shape;
    std::vector<double> v;

    [[nodiscard]] std::int64_t numel() const;
    [[nodiscard]] std::int64_t size(std::int64_t dim) const; ///< negative dims count from the end
    [[nodiscard]] std::int64_t dim() const { return std::int64_t(shape.size()); }
};

/** `values` with this shape (their count must match). */
Tensor tensor(Shape shape, std::vector<double> values);
Tensor zeros(Shape shape);

// Shapes (views and copies: the values do not change).
Tensor reshape(const Tensor& x, Shape shape); ///< one -1 allowed
Tensor permute(const Tensor& x, const std::vector<std::int64_t>& dims);
Tensor transpose(const Tensor& x, std::int64_t dim0, std::int64_t dim1);
Tensor unsqueeze(const Tensor& x, std::int64_t dim);
Tensor cat(const std::vector<Tensor>& xs, std::int64_t dim);
/** x[..., start:end, ...] along `dim`. */
Tensor narrow(const Tensor& x, std::int64_t dim, std::int64_t start, std::int64_t length);
/** F.pad in constant mode: `pad` lists (left, right) pairs from the last dimension backwards. */
Tensor constantPad(const Tensor& x, const std::vector<std::int64_t>& pad, double value = 0.0);

// Element-wise (broadcasting like torch).
Tensor add(const Tensor& a, const Tensor& b);
Tensor mul(const Tensor& a, const Tensor& b);
Tensor scale(const Tensor& a, double s);
Tensor relu(const Tensor& x);
/** F.gelu: approximate "none" (x * Phi(x) with erf) or "tanh". */
Tensor gelu(const Tensor& x, bool tanhApproximation = false);
Tensor silu(const Tensor& x);
Tensor sigmoid(const Tensor& x);
Tensor tanh(const Tensor& x);
Tensor hardswish(const Tensor& x);
Tensor hardsigmoid(const Tensor& x);
/** F.glu: first half times sigmoid of the second half along `dim`. */
Tensor glu(const Tensor& x, std::int64_t dim);

Tensor softmax(const Tensor& x, std::int64_t dim);
Tensor logSoftmax(const Tensor& x, std::int64_t dim);

/** F.linear: x @ w^T + b, over the last dimension. */
Tensor linear(const Tensor& x, const Tensor& w, const std::optional<Tensor>& b);
/** F.embedding: rows of `weight` picked by integer `indices` (any shape). */
Tensor embedding(const Tensor& weight, const Tensor& indices);

/** F.conv1d on [N, C, L] with weight [O, C / groups, K]. */
Tensor conv1d(const Tensor& x, const Tensor& w, const std::optional<Tensor>& b, std::int64_t stride = 1,
    std::int64_t padding = 0, std::int64_t dilation = 1, std::int64_t groups = 1);
/** F.conv2d on [N, C, H, W] with weight [O, C / groups, kH, kW]; stride, padding and dilation are (h, w). */
Tensor conv2d(const Tensor& x, const Tensor& w, const std::optional<Tensor>& b, Shape stride = { 1, 1 },
    Shape padding = { 0, 0 }, Shape dilation = { 1, 1 }, std::int64_t groups = 1);
/** F.conv_transpose2d on [N, C, H, W] with weight [C, O / groups, kH, kW]. */
Tensor convTranspose2d(const Tensor& x, const Tensor& w, const std::optional<Tensor>& b, Shape stride = { 1, 1 },
    Shape padding = { 0, 0 }, Shape outputPadding = { 0, 0 }, std::int64_t groups = 1, Shape dilation = { 1, 1 });
/** F.max_pool2d (padding with -inf). */
Tensor maxPool2d(const Tensor& x, Shape kernel, Shape stride, Shape padding = { 0, 0 });
/** F.adaptive_avg_pool2d: output cell (i, j) averages rows floor(i*H/oH) .. ceil((i+1)*H/oH) - 1 (same for
 *  columns). */
Tensor adaptiveAvgPool2d(const Tensor& x, std::int64_t outH, std::int64_t outW);

/** F.batch_norm in eval mode: (x - running_mean) / sqrt(running_var + eps) * weight + bias, over dim 1. */
Tensor batchNormEval(const Tensor& x, const Tensor& runningMean, const Tensor& runningVar,
    const std::optional<Tensor>& weight, const std::optional<Tensor>& bias, double eps = 1e-5);
/** F.group_norm on [N, C, *]: mean and biased variance over each group of C / groups channels. */
Tensor groupNorm(const Tensor& x, std::int64_t groups, const std::optional<Tensor>& weight,
    const std::optional<Tensor>& bias, double eps = 1e-5);
/** F.layer_norm over the last `normalizedDims` dimensions (biased variance). */
Tensor layerNorm(const Tensor& x, std::int64_t normalizedDims, const std::optional<Tensor>& weight,
    const std::optional<Tensor>& bias, double eps = 1e-5);

/**
 * F.scaled_dot_product_attention as its documentation defines it: softmax(q @ k^T * scale + bias) @ v with
 * scale 1/sqrt(E) unless given; `mask` broadcasts to [..., L, S]: a bool mask (isBoolMask) keeps the True
 * positions (the others get -inf), a float mask is added; isCausal masks j > i. q [..., L, E], k [..., S, E],
 * v [..., S, Ev] with the same leading sizes.
 */
Tensor scaledDotProductAttention(const Tensor& q, const Tensor& k, const Tensor& v, const std::optional<Tensor>& mask,
    bool isBoolMask, bool isCausal, std::optional<double> scale = std::nullopt);

/** One layer, one direction of nn.LSTM (its documented equations, gates i, f, g, o in the weights' rows):
 *  x [T, B, I] (time first), h0/c0 [B, H]; returns the outputs [T, B, H], then h_T and c_T. */
struct LstmResult
{
    Tensor output, h, c;
};
LstmResult lstm(const Tensor& x, const Tensor& h0, const Tensor& c0, const Tensor& wIh, const Tensor& wHh,
    const std::optional<Tensor>& bIh, const std::optional<Tensor>& bHh);
/** One layer, one direction of nn.GRU (gates r, z, n): x [T, B, I], h0 [B, H]; the outputs [T, B, H] and h_T. */
struct GruResult
{
    Tensor output, h;
};
GruResult gru(const Tensor& x, const Tensor& h0, const Tensor& wIh, const Tensor& wHh, const std::optional<Tensor>& bIh,
    const std::optional<Tensor>& bHh);

} // namespace pte::test::torchref
