// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// Activations: relu6, softplus, mish, glu, elu family, hardshrink, logsigmoid, prelu... and in-place forms.
// Each decomposition follows the op's PyTorch definition (torch's core decomposition table or the op's composite
// implementation); docs/decompositions.md lists what each becomes.
#include "emit/decomposer_p.h"

namespace pte::emitcore {

namespace {

/** A Scalar argument as the node gives it (an int stays an int), `fallback` when absent. */
LArg scalarArg(const ArgMap& a, std::string_view name, double fallback)
{
    const auto it = a.find(name);
    if (it == a.end()
        || (it->second.kind != LArg::Kind::Int && it->second.kind != LArg::Kind::Double
            && it->second.kind != LArg::Kind::Bool))
        return OpBuilder::num(fallback);
    return it->second;
}

double scalarValue(const LArg& s)
{
    return s.kind == LArg::Kind::Double ? s.d : s.kind == LArg::Kind::Bool ? (s.b ? 1.0 : 0.0) : double(s.i);
}

Result<bool> noInput(Decomposer& d) { return d.invalid(d.target().op + " without an input tensor"); }

// relu6(x) = hardtanh(x, 0, 6) (ATen's composite).
Result<bool> relu6(Decomposer& d)
{
    PTE_TRY(const auto a, d.args());
    const int x = Decomposer::tensor(a, "self");
    if (x < 0)
        return noInput(d);
    return d.finish({ d.b.call1("hardtanh", "out",
        { { "self", LArg::tensor(x) }, { "min_val", OpBuilder::integer(0) }, { "max_val", OpBuilder::integer(6) } },
        d.b.like(x)) });
}

// selu(x) = elu(x, alpha = 1.6732632423543772848170429916717, scale = 1.0507009873554804934193349852946) (ATen's
// composite, its constants).
Result<bool> selu(Decomposer& d)
{
    PTE_TRY(const auto a, d.args());
    const int x = Decomposer::tensor(a, "self");
    if (x < 0)
        return noInput(d);
    return d.finish({ d.b.call1("elu", "out",
        { { "self", LArg::tensor(x) }, { "alpha", OpBuilder::num(1.6732632423543772848170429916717) },
            { "scale", OpBuilder::num(1.0507009873554804934193349852946) }, { "input_scale", OpBuilder::integer(1) } },
        d.b.like(x)) });
}

// celu(x, alpha) = where(x > 0, x, alpha * expm1(x / alpha)) (torch's reference).
Result<bool> celu(Decomposer& d)
{
    PTE_TRY(const auto a, d.args());
    const int x = Decomposer::tensor(a, "self");
    if (x < 0)
        return noInput(d);
    auto& b = d.b;
    const LArg alpha = scalarArg(a, "alpha", 1.0);
    if (scalarValue(alpha) == 0)
        return d.invalid("ZeroDivisionError: alpha cannot be 0 for CELU");
    const int rhs = b.binaryScalar("mul", b.unary("expm1", b.binaryScalar("div", x, alpha)), alpha);
    return d.finish({ b.where(b.binaryScalar("gt", x, OpBuilder::integer(0)), x, rhs) });
}

// softplus(x, beta, threshold) = where(x * beta > threshold, x, log1p(exp(x * beta)) / beta) (torch's reference; aten
// always passes beta, so the mul and div by beta are there for beta = 1 too).
Result<bool> softplus(Decomposer& d)
{
    PTE_TRY(const auto a, d.args());
    const int x = Decomposer::tensor(a, "self");
    if (x < 0)
        return noInput(d);
    auto& b = d.b;
    const LArg beta = scalarArg(a, "beta", 1.0);
    const int scaled = b.binaryScalar("mul", x, beta);
    const int rhs = b.binaryScalar("div", b.unary("log1p", b.unary("exp", scaled)), beta);
    return d.finish({ b.where(b.binaryScalar("gt", scaled, scalarArg(a, "threshold", 20.0)), x, rhs) });
}

// mish(x) = x * tanh(softplus(x)), softplus without beta: where(x > 20, x, log1p(exp(x))) (torch's reference).
Result<bool> mish(Decomposer& d)
{
    PTE_TRY(const auto a, d.args());
    const int x = Decomposer::tensor(a, "self");
    if (x < 0)
        return noInput(d);
    auto& b = d.b;
    const int sp = b.where(b.binaryScalar("gt", x, OpBuilder::integer(20)), x, b.unary("log1p", b.unary("exp", x)));
    return d.finish({ b.mul(x, b.unary("tanh", sp)) });
}

// hardshrink(x, l) = where(|x| <= l, 0, x) (torch's reference).
Result<bool> hardshrink(Decomposer& d)
{
    PTE_TRY(const auto a, d.args());
    const int x = Decomposer::tensor(a, "self");
    if (x < 0)
        return noInput(d);
    auto& b = d.b;
    const int mask = b.binaryScalar("le", b.unary("abs", x), scalarArg(a, "lambd", 0.5));
    return d.finish({ b.whereScalar(mask, 0.0, x) });
}

// softshrink(x, l) = where(|x| > l, x - sign(x) * l, x * 0) (torch's reference; x * 0 keeps NaN).
Result<bool> softshrink(Decomposer& d)
{
    PTE_TRY(const auto a, d.args());
    const int x = Decomposer::tensor(a, "self");
    if (x < 0)
        return noInput(d);
    auto& b = d.b;
    const LArg lambd = scalarArg(a, "lambd", 0.5);
    if (scalarValue(lambd) < 0)
        return d.invalid(
            "softshrink: lambda must be greater or equal to 0, but found to be " + std::to_string(scalarValue(lambd)));
    const int mask = b.binaryScalar("gt", b.unary("abs", x), lambd);
    const int shrunk = b.sub(x, b.binaryScalar("mul", b.unary("sign", x), lambd));
    return d.finish({ b.where(mask, shrunk, b.binaryScalar("mul", x, OpBuilder::integer(0))) });
}

// log_sigmoid(x) = log_sigmoid_forward(x)[0]; log_sigmoid_forward (torch's decomposition):
// z = exp(-|x|), output = minimum(0, x) - log1p(z), buffer = z.
Result<bool> logSigmoid(Decomposer& d)
{
    PTE_TRY(const auto a, d.args());
    const int x = Decomposer::tensor(a, "self");
    if (x < 0)
        return noInput(d);
    auto& b = d.b;
    const int lower = b.binary("minimum", b.scalarConstant(0.0, b.dtype(x)), x);
    const int z = b.unary("exp", b.unary("neg", b.unary("abs", x)));
    return d.finish({ b.sub(lower, b.unary("log1p", z)), z });
}

/** _prelu_kernel(x, w) = where(x > 0, x, w * x) (torch's decomposition). */
int preluKernel(OpBuilder& b, int x, int w)
{
    return b.where(b.binaryScalar("gt", x, OpBuilder::integer(0)), x, b.mul(w, x));
}

// prelu(x, w), ATen's composite: w (1 or C = x.size(1) values) viewed as [1, C, 1, ...] to broadcast along dim 1,
// then _prelu_kernel.
Result<bool> prelu(Decomposer& d)
{
    PTE_TRY(const auto a, d.args());
    const int x = Decomposer::tensor(a, "self");
    if (x < 0)
        return noInput(d);
    auto& b = d.b;
    const int w = Decomposer::tensor(a, "weight");
    if (w < 0)
        return d.invalid("prelu without a weight");
    if (d.target().op == "_prelu_kernel")
        return d.finish({ preluKernel(b, x, w) });
    const auto rank = b.rank(x);
    if (b.rank(w) > 1)
        return d.invalid(
            "prelu: expected `weight` to be a scalar or 1D tensor, but got: ndim = " + std::to_string(b.rank(w)));
    const std::int64_t count = b.rank(w) == 0 ? 1 : b.size(w, 0);
    const std::int64_t channels = rank >= 2 ? b.size(x, 1) : 1;
    if (count != 1 && (count != channels || b.isDynamic(x, 1)))
        return d.invalid("mismatch of parameter numbers and input channel size: found parameter numbers = "
            + std::to_string(count) + " and channel size = " + std::to_string(channels));
    int wv = w;
    if (b.rank(w) != rank) {
        std::vector<std::int64_t> shape(rank, 1);
        if (rank > 1)
            shape[1] = count;
        wv = b.view(w, shape);
    }
    return d.finish({ preluKernel(b, x, wv) });
}

// threshold(x, t, v) = where(x <= t, v, x) (torch's reference).
Result<bool> threshold(Decomposer& d)
{
    PTE_TRY(const auto a, d.args());
    const int x = Decomposer::tensor(a, "self");
    if (x < 0)
        return noInput(d);
    auto& b = d.b;
    const int mask = b.binaryScalar("le", x, scalarArg(a, "threshold", 0.0));
    return d.finish({ b.whereScalar(mask, scalarValue(scalarArg(a, "value", 0.0)), x) });
}

// rrelu(x, lower, upper, training): in eval, leaky_relu(x, (lower + upper) / 2) (torch's decomposition of
// rrelu_with_noise); in training the slope is random per element.
Result<bool> rrelu(Decomposer& d)
{
    PTE_TRY(const auto a, d.args());
    const int x = Decomposer::tensor(a, "self");
    if (x < 0)
        return noInput(d);
    if (Decomposer::flag(a, "training"))
        return d.refuse("rrelu in training mode draws a random negative slope for every element; only its eval "
                        "form (leaky_relu with the mean slope) is lowered: export the model in eval mode");
    const double slope =
        (scalarValue(scalarArg(a, "lower", 0.125)) + scalarValue(scalarArg(a, "upper", 1.0 / 3.0))) / 2;
    return d.finish({ d.b.call1("leaky_relu", "out",
        { { "self", LArg::tensor(x) }, { "negative_slope", OpBuilder::num(slope) } }, d.b.like(x)) });
}

// softmax.int / log_softmax.int with a dtype, ATen's composite: x converted to dtype first, then
// _softmax / _log_softmax(x, dim, half_to_float=False).
Result<bool> softmax(Decomposer& d)
{
    if (d.target().overload != "int")
        return false;
    PTE_TRY(const auto a, d.args());
    const int x = Decomposer::tensor(a, "self");
    if (x < 0)
        return noInput(d);
    auto& b = d.b;
    int converted = x;
    if (const auto it = a.find("dtype"); it != a.end() && it->second.kind == LArg::Kind::Int)
        converted = b.cast(x, ScalarType(it->second.i));
    const std::int64_t dim = Decomposer::integer(a, "dim");
    return d.finish({ d.target().op == "softmax" ? b.softmax(converted, dim) : b.logSoftmax(converted, dim) });
}

const DecompositionRule kActivationRules[] = {
    { "_prelu_kernel", &prelu, "where(x > 0, x, w * x) (gt, mul, where)" },
    { "celu", &celu, "where(x > 0, x, alpha * expm1(x / alpha)) (div, expm1, mul, gt, where)" },
    { "hardshrink", &hardshrink, "where(|x| <= lambd, 0, x) (abs, le, where)" },
    { "log_sigmoid", &logSigmoid, "minimum(0, x) - log1p(exp(-|x|)) (minimum, abs, neg, exp, log1p, sub)" },
    { "log_sigmoid_forward", &logSigmoid, "as log_sigmoid, with exp(-|x|) as buffer" },
    { "log_softmax", &softmax, "_log_softmax (of x converted to dtype first, when given)" },
    { "mish", &mish, "x * tanh(where(x > 20, x, log1p(exp(x)))) (exp, log1p, gt, where, tanh, mul)" },
    { "prelu", &prelu, "weight viewed as [1, C, 1, ...], then where(x > 0, x, w * x) (view_copy, gt, mul, where)" },
    { "relu6", &relu6, "hardtanh(x, 0, 6)" },
    { "rrelu", &rrelu, "eval: leaky_relu(x, (lower + upper) / 2); training: refused (random slopes)" },
    { "selu", &selu, "elu(x, alpha=1.6732632423543772, scale=1.0507009873554805)" },
    { "softmax", &softmax, "_softmax (of x converted to dtype first, when given)" },
    { "softplus", &softplus,
        "where(x * beta > threshold, x, log1p(exp(x * beta)) / beta) (mul, exp, log1p, div, gt, where)" },
    { "softshrink", &softshrink, "where(|x| > lambd, x - sign(x) * lambd, x * 0) (abs, gt, sign, mul, sub, where)" },
    { "threshold", &threshold, "where(x <= threshold, value, x) (le, where)" },
};

} // namespace

std::span<const DecompositionRule> activationRules() { return kActivationRules; }

} // namespace pte::emitcore
