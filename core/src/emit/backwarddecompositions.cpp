// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// Backward ops of training (joint) graphs, the ones torch's decomposition table writes as elementwise formulas or
// scatters: the activations' backward (gelu, silu, hardswish, hardsigmoid, hardtanh, leaky_relu, elu, glu),
// _softmax_backward_data, select_backward, slice_backward and embedding_dense_backward. ExecuTorch trains on device
// from such graphs; its portable library has no kernel for these. Each formula is torch's decomposition's
// (torch._decomp); docs/decompositions.md lists what each becomes. The normalization backward ops stay refused.
#include "emit/decomposer_p.h"

#include <cmath>
#include <string>

namespace pte::emitcore {

namespace {

using D = Decomposer;
using B = OpBuilder;

constexpr double kSqrt1_2 = 0.70710678118654752440; // 1 / sqrt(2)
constexpr double kTwoOverSqrtPi = 1.12837916709551257390; // 2 / sqrt(pi)

/** The grad_output and self (or output) operands every elementwise backward has. */
struct Operands
{
    int grad = -1;
    int x = -1;
};

Result<Operands> operands(D& d, const ArgMap& a, std::string_view second = "self")
{
    Operands o { D::tensor(a, "grad_output"), D::tensor(a, second) };
    if (o.grad < 0 || o.x < 0)
        return fail(
            ErrorCode::InvalidInput, std::string(d.target().op) + " needs grad_output and " + std::string(second));
    return o;
}

// gelu_backward(g, x, approximate): 'none': g * (cdf + x * pdf), cdf = 0.5 (1 + erf(x / sqrt 2)),
// pdf = exp(-x^2 / 2) / sqrt(2 pi); 'tanh': with u = sqrt(2/pi) (x + 0.044715 x^3), t = tanh(u):
// g * (0.5 (1 + t) + 0.5 x (1 - t^2) sqrt(2/pi) (1 + 3 * 0.044715 x^2)).
Result<bool> geluBackward(D& d)
{
    PTE_TRY(const auto a, d.args());
    PTE_TRY(const auto o, operands(d, a));
    B& b = d.b;
    const std::string approximate = D::string(a, "approximate").value_or("none");
    const int x = o.x;
    if (approximate == "tanh") {
        const double beta = kSqrt1_2 * kTwoOverSqrtPi; // sqrt(2 / pi)
        const double kappa = 0.044715;
        const int xSquared = b.mul(x, x);
        const int inner = b.mul(b.add(x, b.mul(b.mul(xSquared, x), kappa)), beta);
        const int t = b.unary("tanh", inner);
        const int left = b.mul(x, 0.5);
        const int leftDerivative = b.mul(b.add(t, 1.0), 0.5);
        const int tanhDerivative = b.rsub(b.mul(t, t), 1.0);
        const int innerDerivative = b.mul(b.add(b.mul(xSquared, 3.0 * kappa), 1.0), beta);
        const int rightDerivative = b.mul(b.mul(left, tanhDerivative), innerDerivative);
        return d.finish({ b.mul(o.grad, b.add(leftDerivative, rightDerivative)) });
    }
    if (approximate != "none")
        return d.invalid("gelu_backward: approximate must be 'none' or 'tanh', got '" + approximate + "'");
    const int cdf = b.mul(b.add(b.unary("erf", b.mul(x, kSqrt1_2)), 1.0), 0.5);
    const int pdf = b.mul(b.unary("exp", b.mul(b.mul(x, x), -0.5)), kTwoOverSqrtPi * kSqrt1_2 * 0.5);
    return d.finish({ b.mul(o.grad, b.add(cdf, b.mul(x, pdf))) });
}

// silu_backward(g, x) = g * s * (1 + x (1 - s)), s = 1 / (1 + exp(-x)).
Result<bool> siluBackward(D& d)
{
    PTE_TRY(const auto a, d.args());
    PTE_TRY(const auto o, operands(d, a));
    B& b = d.b;
    const int s = b.unary("reciprocal", b.add(b.unary("exp", b.mul(o.x, -1.0)), 1.0));
    return d.finish({ b.mul(b.mul(o.grad, s), b.add(b.mul(o.x, b.rsub(s, 1.0)), 1.0)) });
}

// hardswish_backward(g, x) = where(x < -3, 0, where(x <= 3, g (x / 3 + 0.5), g));
// hardsigmoid_backward(g, x) = where(-3 < x < 3, g / 6, 0).
Result<bool> hardBackward(D& d)
{
    PTE_TRY(const auto a, d.args());
    PTE_TRY(const auto o, operands(d, a));
    B& b = d.b;
    if (d.target().op == "hardswish_backward") {
        const int kept =
            b.where(b.binaryScalar("le", o.x, B::num(3.0)), b.mul(o.grad, b.add(b.div(o.x, 3.0), 0.5)), o.grad);
        return d.finish({ b.whereScalar(b.binaryScalar("lt", o.x, B::num(-3.0)), 0.0, kept) });
    }
    const int inside =
        b.binary("logical_and", b.binaryScalar("gt", o.x, B::num(-3.0)), b.binaryScalar("lt", o.x, B::num(3.0)));
    return d.finish({ b.whereScalar(inside, b.mul(o.grad, 1.0 / 6.0), 0.0) });
}

// hardtanh_backward(g, x, min, max) = where(x <= min or x >= max, 0, g).
Result<bool> hardtanhBackward(D& d)
{
    PTE_TRY(const auto a, d.args());
    PTE_TRY(const auto o, operands(d, a));
    B& b = d.b;
    const double lo = D::number(a, "min_val").value_or(-1.0);
    const double hi = D::number(a, "max_val").value_or(1.0);
    const int outside =
        b.binary("logical_or", b.binaryScalar("le", o.x, B::num(lo)), b.binaryScalar("ge", o.x, B::num(hi)));
    return d.finish({ b.whereScalar(outside, 0.0, o.grad) });
}

// leaky_relu_backward(g, x, slope, self_is_result) = where(x > 0, g, g * slope) (x or the result: same sign).
Result<bool> leakyReluBackward(D& d)
{
    PTE_TRY(const auto a, d.args());
    PTE_TRY(const auto o, operands(d, a));
    B& b = d.b;
    const double slope = D::number(a, "negative_slope").value_or(0.01);
    return d.finish({ b.where(b.binaryScalar("gt", o.x, B::num(0.0)), o.grad, b.mul(o.grad, slope)) });
}

// elu_backward(g, alpha, scale, input_scale, is_result, self_or_result): with the result y:
// where(y <= 0, g * input_scale * (y + alpha * scale), g * scale); with the input x:
// where(x <= 0, g * input_scale * alpha * scale * exp(x * input_scale), g * scale).
Result<bool> eluBackward(D& d)
{
    PTE_TRY(const auto a, d.args());
    PTE_TRY(const auto o, operands(d, a, "self_or_result"));
    B& b = d.b;
    const double alpha = D::number(a, "alpha").value_or(1.0);
    const double scale = D::number(a, "scale").value_or(1.0);
    const double inputScale = D::number(a, "input_scale").value_or(1.0);
    const int nonPositive = b.binaryScalar("le", o.x, B::num(0.0));
    const int negative = D::flag(a, "is_result")
        ? b.mul(b.mul(o.grad, inputScale), b.add(o.x, alpha * scale))
        : b.mul(b.mul(o.grad, inputScale * alpha * scale), b.unary("exp", b.mul(o.x, inputScale)));
    return d.finish({ b.where(nonPositive, negative, b.mul(o.grad, scale)) });
}

// glu_backward(g, x, dim): with x = [a, c] halves along dim and s = sigmoid(c): cat([g s, (1 - s) s a g], dim).
Result<bool> gluBackward(D& d)
{
    PTE_TRY(const auto a, d.args());
    PTE_TRY(const auto o, operands(d, a));
    B& b = d.b;
    const std::int64_t dim = b.wrapDim(D::integer(a, "dim", -1), b.rank(o.x));
    if (dim < 0)
        return d.finish({ -1 });
    if (b.isDynamic(o.x, dim) || b.size(o.x, dim) % 2 != 0)
        return d.invalid("glu_backward: halving dimension must be even and static");
    const std::int64_t half = b.size(o.x, dim) / 2;
    const auto halves = b.split(o.x, { half, half }, dim);
    if (b.failed())
        return d.finish({ -1 });
    const int s = b.unary("sigmoid", halves[1]);
    const int first = b.mul(s, o.grad);
    const int second = b.mul(b.mul(b.mul(b.rsub(s, 1.0), s), halves[0]), o.grad);
    return d.finish({ b.cat({ first, second }, dim) });
}

// _softmax_backward_data(g, y, dim, input_dtype) = g y - y * sum(g y, dim, keepdim), in input_dtype.
Result<bool> softmaxBackwardData(D& d)
{
    PTE_TRY(const auto a, d.args());
    PTE_TRY(const auto o, operands(d, a, "output"));
    B& b = d.b;
    const std::int64_t dim = b.wrapDim(D::integer(a, "dim", -1), b.rank(o.x));
    if (dim < 0)
        return d.finish({ -1 });
    const int gy = b.mul(o.grad, o.x);
    const int g = b.sub(gy, b.mul(o.x, b.sum(gy, { dim }, true)));
    const auto inputDtype = D::number(a, "input_dtype");
    return d.finish({ inputDtype ? b.cast(g, ScalarType(std::int64_t(*inputDtype))) : g });
}

// select_backward(g, input_sizes, dim, index) = select_scatter(zeros(input_sizes), g, dim, index);
// slice_backward(g, input_sizes, dim, start, end, step) = slice_scatter(zeros(input_sizes), g, dim, start, end, step).
Result<bool> scatterBackward(D& d)
{
    PTE_TRY(const auto a, d.args());
    B& b = d.b;
    const int grad = D::tensor(a, "grad_output");
    const Dims sizes = D::sizes(a, "input_sizes");
    if (grad < 0 || sizes.empty())
        return d.invalid(std::string(d.target().op) + " needs grad_output and input_sizes");
    const std::int64_t dim = D::integer(a, "dim");
    const int zeros = b.full(sizes, 0.0, b.dtype(grad));
    if (d.target().op == "select_backward") {
        const Dims index = D::sizes(a, "index");
        if (index.size() != 1)
            return d.invalid("select_backward needs one index");
        return d.finish({ b.selectScatter(zeros, grad, dim, index[0]) });
    }
    const Dims start = D::sizes(a, "start");
    const Dims end = D::sizes(a, "end");
    if (start.size() != 1 || end.size() != 1)
        return d.invalid("slice_backward needs a start and an end");
    return d.finish({ b.sliceScatter(zeros, grad, dim, start[0], end[0], D::integer(a, "step", 1)) });
}

// embedding_dense_backward(g, indices, num_weights, padding_idx, scale_grad_by_freq): the rows of g, zero where the
// index is padding_idx (divided by how often their index occurs with scale_grad_by_freq), scatter_add'ed into
// zeros (num_weights, D) at their index: what torch's decomposition writes with index_put(accumulate=True).
Result<bool> embeddingDenseBackward(D& d)
{
    PTE_TRY(const auto a, d.args());
    B& b = d.b;
    const int grad = D::tensor(a, "grad_output");
    const int indices = D::tensor(a, "indices");
    if (grad < 0 || indices < 0 || b.rank(grad) != b.rank(indices) + 1)
        return d.invalid("embedding_dense_backward needs grad_output of the indices' shape plus the embedding size");
    const std::int64_t weights = D::integer(a, "num_weights");
    const std::int64_t padding = D::integer(a, "padding_idx", -1);
    if (b.isDynamic(grad, -1) || weights <= 0)
        return d.refuse("embedding_dense_backward with a dynamic embedding size or no weights is not lowered");
    const std::int64_t dim = b.size(grad, -1);
    IntElem count = B::lit(1);
    for (std::size_t k = 0; k < b.rank(indices); ++k)
        count = b.mulInt(count, b.dim(indices, std::int64_t(k)));
    const int flat = b.view(indices, Dims { count });
    int rows = b.view(grad, Dims { count, B::lit(dim) });
    const ScalarType t = b.dtype(grad);
    if (D::flag(a, "scale_grad_by_freq")) {
        const int ones = b.fullLike(flat, 1.0, t);
        const int counts = b.call1("scatter_add", "out",
            { { "self", LArg::tensor(b.full(Dims { B::lit(weights) }, 0.0, t)) }, { "dim", B::integer(0) },
                { "index", LArg::tensor(flat) }, { "src", LArg::tensor(ones) } },
            B::spec(t, { std::int32_t(weights) }));
        rows = b.div(rows, b.unsqueeze(b.indexSelect(counts, 0, flat), 1));
    }
    if (padding >= 0)
        rows = b.whereScalar(b.unsqueeze(b.binaryScalar("eq", flat, B::integer(padding)), 1), 0.0, rows);
    const int table = b.full(Dims { B::lit(weights), B::lit(dim) }, 0.0, t);
    return d.finish({ b.call1("scatter_add", "out",
        { { "self", LArg::tensor(table) }, { "dim", B::integer(0) },
            { "index", LArg::tensor(b.expand(b.unsqueeze(flat, 1), Dims { count, B::lit(dim) })) },
            { "src", LArg::tensor(rows) } },
        b.like(table)) });
}

const DecompositionRule kBackwardRules[] = {
    { "_softmax_backward_data", &softmaxBackwardData, "g y - y * sum(g y, dim, keepdim) (mul, sum, sub) [cast]" },
    { "gelu_backward", &geluBackward,
        "none: g * (cdf + x pdf) (erf, exp, mul, add); tanh: the derivative of the tanh approximation (tanh, mul, add, "
        "rsub)" },
    { "silu_backward", &siluBackward, "g * s * (1 + x (1 - s)), s = 1 / (1 + exp(-x)) (exp, reciprocal, rsub, mul)" },
    { "hardswish_backward", &hardBackward, "where(x < -3, 0, where(x <= 3, g (x / 3 + 0.5), g))" },
    { "hardsigmoid_backward", &hardBackward, "where(-3 < x < 3, g / 6, 0) (gt, lt, logical_and, where)" },
    { "hardtanh_backward", &hardtanhBackward, "where(x <= min or x >= max, 0, g) (le, ge, logical_or, where)" },
    { "leaky_relu_backward", &leakyReluBackward, "where(x > 0, g, g * slope)" },
    { "elu_backward", &eluBackward,
        "where(v <= 0, g * input_scale * (y + alpha scale) or g * input_scale * alpha scale * exp(x input_scale), "
        "g * scale)" },
    { "glu_backward", &gluBackward, "split_copy into halves a, c; s = sigmoid(c); cat([g s, (1 - s) s a g])" },
    { "select_backward", &scatterBackward, "select_scatter of grad_output into full (zeros) of input_sizes" },
    { "slice_backward", &scatterBackward, "slice_scatter of grad_output into full (zeros) of input_sizes" },
    { "embedding_dense_backward", &embeddingDenseBackward,
        "view_copy, [scale_grad_by_freq: scatter_add counts, index_select, div], [padding: eq, where], scatter_add "
        "into full (zeros) (num_weights, D)" },
};

} // namespace

std::span<const DecompositionRule> backwardRules() { return kBackwardRules; }

} // namespace pte::emitcore
