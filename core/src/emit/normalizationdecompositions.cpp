// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// Normalization: group_norm, instance_norm, rms_norm, linalg_vector_norm, renorm and friends.
// Each decomposition follows the op's PyTorch definition (torch's core decomposition table or the op's composite
// implementation); docs/decompositions.md lists what each becomes.
#include "emit/decomposer_p.h"

#include <cmath>
#include <limits>

namespace pte::emitcore {

namespace {

/** The dtype torch computes a reduced-precision floating dtype in (opmath: Half and BFloat16 compute in Float). */
ScalarType opmathType(ScalarType t)
{
    return t == ScalarType::Half || t == ScalarType::BFloat16 ? ScalarType::Float : t;
}

/** An optional tensor argument as a kernel argument (None stays None). */
LArg optionalTensor(int v) { return v >= 0 ? LArg::tensor(v) : LArg {}; }

// group_norm(x, G, w, b, eps), ATen's composite: native_group_norm(x, w, b, N, C, HxW, G, eps)[0] with N = x.size(0),
// C = x.size(1) and HxW the product of the remaining sizes, runtime sizes when they are dynamic.
Result<bool> groupNorm(Decomposer& d)
{
    PTE_TRY(const auto a, d.args());
    auto& b = d.b;
    const int x = Decomposer::tensor(a, "input");
    const std::int64_t groups = Decomposer::integer(a, "num_groups");
    if (x < 0 || b.rank(x) < 2)
        return d.invalid("group_norm needs an input of shape (N, C, *)");
    if (groups <= 0)
        return d.invalid("group_norm with " + std::to_string(groups) + " groups");
    if (!b.isDynamic(x, 1) && b.size(x, 1) % groups != 0)
        return d.invalid("expected the number of channels (" + std::to_string(b.size(x, 1))
            + ") to be divisible by num_groups (" + std::to_string(groups) + ")");
    const IntElem n = b.dim(x, 0);
    const IntElem c = b.dim(x, 1);
    IntElem hxw = OpBuilder::lit(1);
    for (std::size_t k = 2; k < b.rank(x); ++k)
        hxw = b.mulInt(hxw, b.dim(x, std::int64_t(k)));
    const OutSpec stat =
        OpBuilder::spec(b.dtype(x), { b.size(x, 0), std::int32_t(groups) }, b.isDynamic(x, 0) ? 1u : 0u);
    const auto outs = b.call("native_group_norm", "out",
        { { "input", LArg::tensor(x) }, { "weight", optionalTensor(Decomposer::tensor(a, "weight")) },
            { "bias", optionalTensor(Decomposer::tensor(a, "bias")) }, { "N", OpBuilder::sizeArg(n) },
            { "C", OpBuilder::sizeArg(c) }, { "HxW", OpBuilder::sizeArg(hxw) }, { "group", OpBuilder::integer(groups) },
            { "eps", OpBuilder::num(Decomposer::number(a, "eps").value_or(1e-5)) } },
        { b.like(x), stat, stat });
    return d.finish({ outs[0] });
}

// instance_norm, ATen's composite: x (N, C, *) viewed as (1, N*C, *), weight, bias and running statistics repeated N
// times (here expand_copy + view_copy, the same values), batch norm of that view (batch statistics:
// _native_batch_norm_legit.no_stats; use_input_stats=False: _native_batch_norm_legit_no_training with the running
// statistics), viewed back. With use_input_stats=False torch also writes the mean over N of the repeated running
// statistics back into them: the same values, not written here.
Result<bool> instanceNorm(Decomposer& d)
{
    PTE_TRY(const auto a, d.args());
    auto& b = d.b;
    const int x = Decomposer::tensor(a, "input");
    const int rm = Decomposer::tensor(a, "running_mean");
    const int rv = Decomposer::tensor(a, "running_var");
    const bool useInputStats = Decomposer::flag(a, "use_input_stats", true);
    if (x < 0 || b.rank(x) < 2)
        return d.invalid("instance_norm needs an input of shape (N, C, *)");
    if (!useInputStats && (rm < 0 || rv < 0))
        return d.invalid("expected running_mean and running_var to be defined when use_input_stats is false");
    if (useInputStats && (rm >= 0 || rv >= 0))
        return d.refuse("instance_norm with use_input_stats=True and running statistics (nn.InstanceNorm with "
                        "track_running_stats=True in training mode) updates the running statistics in place; only "
                        "its eval form (running statistics) and batch statistics without running ones are lowered");
    const double eps = Decomposer::number(a, "eps").value_or(1e-5);
    const double momentum = Decomposer::number(a, "momentum").value_or(0.1);
    const IntElem n = b.dim(x, 0);
    const IntElem c = b.dim(x, 1);
    const IntElem nc = b.mulInt(n, c);
    Dims shape { OpBuilder::lit(1), nc };
    for (std::size_t k = 2; k < b.rank(x); ++k)
        shape.push_back(b.dim(x, std::int64_t(k)));
    const int xr = b.view(x, shape);
    auto repeated = [&](int p) {
        if (p < 0 || (n.ref < 0 && n.literal == 1))
            return p;
        return b.view(b.expand(b.view(p, Dims { OpBuilder::lit(1), c }), Dims { n, c }), Dims { nc });
    };
    const int w = repeated(Decomposer::tensor(a, "weight"));
    const int bias = repeated(Decomposer::tensor(a, "bias"));
    int y = -1;
    if (useInputStats) {
        const OutSpec stat = OpBuilder::spec(b.dtype(x), { b.size(xr, 1) }, b.isDynamic(xr, 1) ? 1u : 0u);
        y = b.call("_native_batch_norm_legit", "no_stats_out",
            { { "input", LArg::tensor(xr) }, { "weight", optionalTensor(w) }, { "bias", optionalTensor(bias) },
                { "training", OpBuilder::boolean(true) }, { "momentum", OpBuilder::num(momentum) },
                { "eps", OpBuilder::num(eps) } },
            { b.like(xr), stat, stat })[0];
    } else {
        // The portable kernel resizes its statistics outputs to [0] in inference.
        const OutSpec empty = OpBuilder::spec(b.dtype(x), { 0 });
        y = b.call("_native_batch_norm_legit_no_training", "out",
            { { "input", LArg::tensor(xr) }, { "weight", optionalTensor(w) }, { "bias", optionalTensor(bias) },
                { "running_mean", LArg::tensor(repeated(rm)) }, { "running_var", LArg::tensor(repeated(rv)) },
                { "momentum", OpBuilder::num(momentum) }, { "eps", OpBuilder::num(eps) } },
            { b.like(xr), empty, empty })[0];
    }
    return d.finish({ b.view(y, b.dims(x)) });
}

// rms_norm(x, normalized_shape, w, eps) and _fused_rms_norm (which also returns the rsqrt), ATen's composite
// (rms_norm_composite): reduced-precision x computes in float; rstd = rsqrt(mean(x^2 over the normalized dims,
// keepdim) + eps), eps None = the epsilon of that dtype (float: 1.1920929e-07); y = x * rstd [* w], cast back to x's
// dtype.
Result<bool> rmsNorm(Decomposer& d)
{
    PTE_TRY(const auto a, d.args());
    auto& b = d.b;
    const int x = Decomposer::tensor(a, "input");
    const int w = Decomposer::tensor(a, "weight");
    const Dims shape = Decomposer::sizes(a, "normalized_shape");
    if (x < 0)
        return d.invalid("rms_norm without an input");
    const auto r = b.rank(x);
    if (shape.empty() || shape.size() > r)
        return d.invalid("rms_norm: normalized_shape of " + std::to_string(shape.size())
            + " dimensions for an input of rank " + std::to_string(r));
    for (std::size_t k = 0; k < shape.size(); ++k) {
        const auto dim = std::int64_t(r - shape.size() + k);
        if (shape[k].ref < 0 && !b.isDynamic(x, dim) && shape[k].literal != b.size(x, dim))
            return d.invalid("rms_norm: normalized_shape does not match the trailing sizes of the input");
    }
    const ScalarType dt = b.dtype(x);
    if (!isFloatingType(dt))
        return d.invalid("rms_norm of a non-floating input");
    const ScalarType opmath = opmathType(dt);
    const double eps = Decomposer::number(a, "eps").value_or(opmath == ScalarType::Double
            ? std::numeric_limits<double>::epsilon()
            : double(std::numeric_limits<float>::epsilon()));
    std::vector<std::int64_t> dims;
    for (std::size_t k = 0; k < shape.size(); ++k)
        dims.push_back(-1 - std::int64_t(k));
    const int xu = b.cast(x, opmath);
    const int meanSquare = b.mean(b.binaryScalar("pow", xu, OpBuilder::integer(2)), dims, true);
    const int rstd = b.unary("rsqrt", b.add(meanSquare, eps));
    int y = b.mul(xu, rstd);
    if (w >= 0)
        y = b.mul(y, w);
    return d.finish({ b.cast(y, dt), rstd });
}

/**
 * linalg_vector_norm as torch's reference (torch._refs.linalg.vector_norm, the decomposition ExecuTorch adds to
 * to_edge's table): ord 0: sum(x != 0) in the result dtype; +-inf: amax/amin(|x|); otherwise, in the computation
 * dtype, |x| (skipped for an even ord of a floating x), pow(ord), sum, pow(1/ord); reduced dimensions all of size 1:
 * |x| itself. `dims` empty: all dimensions.
 */
int vectorNorm(
    OpBuilder& b, int x, double ord, std::vector<std::int64_t> dims, bool keepdim, std::optional<ScalarType> dtype)
{
    if (b.failed() || x < 0)
        return -1;
    if (!isFloatingType(b.dtype(x)))
        return b.error(ErrorCode::InvalidInput, "linalg.vector_norm expects a floating point input");
    const ScalarType result = dtype.value_or(b.dtype(x));
    const ScalarType computation = opmathType(result);
    const auto r = b.rank(x);
    for (auto& k : dims) {
        k = b.wrapDim(k, r);
        if (k < 0)
            return -1;
    }
    if (ord == 0.0)
        return b.sum(b.binaryScalar("ne", x, OpBuilder::num(0.0)), dims, keepdim, result);
    if (std::isinf(ord)) {
        const int m = ord > 0 ? b.amax(b.unary("abs", x), dims, keepdim) : b.amin(b.unary("abs", x), dims, keepdim);
        return b.cast(m, result);
    }
    int xc = b.cast(x, computation);
    bool allOne = r > 0 || dims.empty();
    if (dims.empty()) {
        for (std::size_t k = 0; k < r; ++k)
            allOne = allOne && b.size(x, std::int64_t(k)) == 1 && !b.isDynamic(x, std::int64_t(k));
    } else {
        for (const auto k : dims)
            allOne = allOne && b.size(x, k) == 1 && !b.isDynamic(x, k);
    }
    if (allOne) {
        // Every reduced dimension has one element: the norm is |x|.
        const int ax = b.unary("abs", xc);
        if (keepdim || r == 0)
            return b.cast(ax, result);
        Dims kept;
        for (std::size_t k = 0; k < r; ++k)
            if (!dims.empty() && std::find(dims.begin(), dims.end(), std::int64_t(k)) == dims.end())
                kept.push_back(b.dim(x, std::int64_t(k)));
        return b.cast(b.view(ax, kept), result);
    }
    const bool even = std::fmod(ord, 2.0) == 0.0;
    if (!(even && isFloatingType(computation)))
        xc = b.unary("abs", xc);
    const int total = b.sum(b.pow(xc, ord), dims, keepdim);
    return b.cast(b.pow(total, 1.0 / ord), result);
}

std::optional<ScalarType> dtypeArg(const ArgMap& a, std::string_view name)
{
    if (Decomposer::isNone(a, name))
        return std::nullopt;
    return ScalarType(Decomposer::integer(a, name));
}

Result<bool> linalgVectorNorm(Decomposer& d)
{
    PTE_TRY(const auto a, d.args());
    const int x = Decomposer::tensor(a, "self");
    const double ord = Decomposer::number(a, "ord").value_or(2.0);
    std::vector<std::int64_t> dims;
    if (!Decomposer::isNone(a, "dim")) {
        const auto v = Decomposer::intList(a, "dim");
        if (!v)
            return d.invalid("linalg_vector_norm with a symbolic dim");
        dims = *v;
    }
    return d.finish({ vectorNorm(d.b, x, ord, dims, Decomposer::flag(a, "keepdim"), dtypeArg(a, "dtype")) });
}

// norm.Scalar / ScalarOpt_dim / ScalarOpt_dtype / ScalarOpt_dim_dtype, as torch's decomposition of norm:
// linalg_vector_norm(x, p (None: 2), dim, keepdim, dtype).
Result<bool> norm(Decomposer& d)
{
    const auto& ovl = d.target().overload;
    if (ovl != "Scalar" && ovl != "ScalarOpt_dim" && ovl != "ScalarOpt_dtype" && ovl != "ScalarOpt_dim_dtype")
        return d.refuse("aten::norm." + ovl + " is not lowered (the Scalar and ScalarOpt overloads are)");
    PTE_TRY(const auto a, d.args());
    const int x = Decomposer::tensor(a, "self");
    const double p = Decomposer::number(a, "p").value_or(2.0);
    std::vector<std::int64_t> dims;
    if (a.count("dim")) {
        const auto v = Decomposer::intList(a, "dim");
        if (!v)
            return d.invalid("norm with a symbolic dim");
        dims = *v;
    }
    return d.finish({ vectorNorm(
        d.b, x, p, dims, Decomposer::flag(a, "keepdim"), a.count("dtype") ? dtypeArg(a, "dtype") : std::nullopt) });
}

// renorm(x, p, dim, maxnorm) as torch's reference: norm = linalg_vector_norm(x, p, every dimension but dim,
// keepdim) in the computation dtype (float for Half/BFloat16); factor = where(norm > maxnorm, maxnorm / (norm + 1e-7),
// 1), as x's dtype; x * factor.
Result<bool> renorm(Decomposer& d)
{
    PTE_TRY(const auto a, d.args());
    OpBuilder& b = d.b;
    const int x = Decomposer::tensor(a, "self");
    const double p = Decomposer::number(a, "p").value_or(2.0);
    const double maxnorm = Decomposer::number(a, "maxnorm").value_or(0.0);
    if (x < 0)
        return d.invalid("renorm needs a tensor");
    if (!(p > 0))
        return d.invalid("renorm: non-positive norm not supported");
    if (maxnorm < 0)
        return d.invalid("renorm: expected maxnorm to be >= 0");
    const auto r = b.rank(x);
    if (r < 2)
        return d.invalid("renorm: input needs at least 2 dimensions, got " + std::to_string(r) + " dimensions");
    const std::int64_t dim = b.wrapDim(Decomposer::integer(a, "dim"), r);
    if (dim < 0)
        return d.finish({ -1 });
    std::vector<std::int64_t> reduceDims;
    for (std::size_t k = 0; k < r; ++k)
        if (std::int64_t(k) != dim)
            reduceDims.push_back(std::int64_t(k));
    const ScalarType t = b.dtype(x);
    const ScalarType acc = isFloatingType(t) ? opmathType(t) : t;
    const int n = vectorNorm(b, x, p, reduceDims, true, acc != t ? std::optional<ScalarType>(acc) : std::nullopt);
    const int ratio = b.div(b.scalarConstant(maxnorm, acc), b.add(n, 1e-7));
    const int factor = b.whereScalar(b.binaryScalar("gt", n, OpBuilder::num(maxnorm)), ratio, 1.0);
    return d.finish({ b.mul(x, b.cast(factor, t)) });
}

const DecompositionRule kNormalizationRules[] = {
    { "_fused_rms_norm", &rmsNorm,
        "as rms_norm, with the rsqrt as second output (pow, mean, add, rsqrt, mul [, mul])" },
    { "group_norm", &groupNorm, "native_group_norm (N, C, HxW from the input, runtime sizes when dynamic)" },
    { "instance_norm", &instanceNorm,
        "input viewed as (1, N*C, *), parameters expand_copy'd N times; batch statistics: "
        "_native_batch_norm_legit.no_stats; running statistics (eval): _native_batch_norm_legit_no_training; "
        "view_copy back" },
    { "linalg_vector_norm", &linalgVectorNorm,
        "torch's reference: ord 0: ne, sum; +-inf: abs, amax/amin; else [abs,] pow(ord), sum, pow(1/ord)" },
    { "norm", &norm, "linalg_vector_norm (p None: 2), decomposed as torch's reference" },
    { "renorm", &renorm,
        "torch's reference: linalg_vector_norm over every dimension but dim (keepdim; Half/BFloat16 in float), "
        "where(norm > maxnorm, maxnorm / (norm + 1e-7), 1) (gt, add, div, where), mul" },
    { "rms_norm", &rmsNorm,
        "x * rsqrt(mean(x^2, normalized dims) + eps) [* weight] (pow, mean, add, rsqrt, mul); Half/BFloat16 in "
        "float and cast back" },
};

} // namespace

std::span<const DecompositionRule> normalizationRules() { return kNormalizationRules; }

} // namespace pte::emitcore
