// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// Reductions and math: einsum, logsumexp, std/var, cumprod, clamp_min/max, cosine_similarity, cdist, baddbmm, addcmul,
// masks and factories. Each decomposition follows the op's PyTorch definition (torch's core decomposition table or the
// op's composite implementation); docs/decompositions.md lists what each becomes.
#include "emit/decomposer_p.h"
#include "emit/edgelayout.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

namespace pte::emitcore {

namespace {

using D = Decomposer;
using B = OpBuilder;

double numberOr(const ArgMap& a, std::string_view name, double fallback)
{
    return D::number(a, name).value_or(fallback);
}

/** The argument `name` as it was given (a Scalar keeps its int/float/bool kind); `fallback` when absent. */
LArg scalarArg(const ArgMap& a, std::string_view name, LArg fallback)
{
    const auto it = a.find(name);
    if (it == a.end() || it->second.kind == LArg::Kind::Null)
        return fallback;
    return it->second;
}

double scalarValue(const LArg& s)
{
    return s.kind == LArg::Kind::Double ? s.d : s.kind == LArg::Kind::Bool ? (s.b ? 1.0 : 0.0) : double(s.i);
}

/** Reduction dims: an absent or None list (or an empty one, which torch reduces like None) is every dimension. */
std::vector<std::int64_t> reductionDims(const ArgMap& a, std::string_view name)
{
    return D::intList(a, name).value_or(std::vector<std::int64_t> {});
}

/** x as float when it is an integer or bool tensor (torch's INT_TO_FLOAT promotion). */
int toFloat(B& b, int x) { return x < 0 || isFloatingType(b.dtype(x)) ? x : b.cast(x, ScalarType::Float); }

// ---------------------------------------------------------------------------------------------------------
// masks and factories
// ---------------------------------------------------------------------------------------------------------

// triu(diagonal) as torch's reference: mask = arange(w)[None, :] - arange(h)[:, None] >= diagonal, where(mask, x, 0).
// Dynamic rows and columns: aranges of their run-time sizes.
Result<bool> triu(D& d)
{
    PTE_TRY(const auto a, d.args());
    const int x = D::tensor(a, "self");
    if (d.b.rank(x) < 2)
        return d.invalid("triu: input tensor must have at least 2 dimensions");
    const double diagonal = numberOr(a, "diagonal", 0);
    const int cols = d.b.unsqueeze(d.b.arangeTo(d.b.dim(x, -1), ScalarType::Long), -2);
    const int rows = d.b.unsqueeze(d.b.arangeTo(d.b.dim(x, -2), ScalarType::Long), -1);
    const int mask = d.b.binaryScalar("ge", d.b.sub(cols, rows), B::integer(std::int64_t(diagonal)));
    if (d.b.dtype(x) == ScalarType::Bool)
        return d.finish({ d.b.binary("logical_and", mask, x) });
    return d.finish({ d.b.whereScalar(mask, x, 0.0) });
}

// masked_fill(mask, value: 0-d Tensor) = where(mask, value as self's dtype, self) (torch's reference); the Scalar
// overload is the masked_fill.Scalar_out kernel.
Result<bool> maskedFill(D& d)
{
    if (d.target().overload != "Tensor")
        return false;
    PTE_TRY(const auto a, d.args());
    const int x = D::tensor(a, "self");
    const int v = D::tensor(a, "value");
    if (d.b.rank(v) != 0)
        return d.invalid("masked_fill_ only supports a 0-dimensional value tensor, but got tensor with "
            + std::to_string(d.b.rank(v)) + " dimension(s)");
    return d.finish({ d.b.where(D::tensor(a, "mask"), d.b.cast(v, d.b.dtype(x)), x) });
}

// where with Python scalars: each scalar becomes a 0-d constant of the result dtype (the tensor's, or float / long
// when the scalar is of a higher category), then where.self_out.
Result<bool> whereScalars(D& d)
{
    const auto& ovl = d.target().overload;
    if (ovl == "self")
        return false;
    if (ovl.empty())
        return d.refuse("where(condition) with one argument (nonzero: its output size depends on the values)");
    PTE_TRY(const auto a, d.args());
    const int cond = D::tensor(a, "condition");
    const LArg s = scalarArg(a, "self", B::integer(0));
    const LArg o = scalarArg(a, "other", B::integer(0));
    auto kindType = [](const LArg& v) {
        return v.kind == LArg::Kind::Double ? ScalarType::Float
            : v.kind == LArg::Kind::Bool    ? ScalarType::Bool
                                            : ScalarType::Long;
    };
    if (ovl == "Scalar") {
        const ScalarType t =
            d.b.nodeOutput(0) ? d.b.nodeOutput(0)->dtype : promoteTypes(kindType(s), true, kindType(o), true);
        return d.finish(
            { d.b.where(cond, d.b.scalarConstant(scalarValue(s), t), d.b.scalarConstant(scalarValue(o), t)) });
    }
    const bool selfScalar = ovl == "ScalarSelf";
    const int tensor = D::tensor(a, selfScalar ? "other" : "self");
    const LArg& scalar = selfScalar ? s : o;
    const ScalarType t = d.b.scalarResult(tensor, scalar);
    const int tt = d.b.cast(tensor, t);
    const int c = d.b.scalarConstant(scalarValue(scalar), t);
    return d.finish({ selfScalar ? d.b.where(cond, c, tt) : d.b.where(cond, tt, c) });
}

// arange(end), arange(start, end), arange(start, end, step): arange.out / arange.start_out of the dtype and length the
// dump records (bounds that are symbolic sizes are passed as they are; the kernel sizes its output).
Result<bool> arange(D& d)
{
    PTE_TRY(const auto a, d.args());
    const auto out = d.b.nodeOutput(0);
    if (!out || out->sizes.size() != 1)
        return d.invalid("arange without a 1-D output in the dump");
    auto s = *out;
    if (d.target().overload.empty())
        return d.finish({ d.b.call1("arange", "out", { { "end", a.find("end")->second } }, s) });
    ArgMap args { { "start", a.find("start")->second }, { "end", a.find("end")->second } };
    args["step"] = scalarArg(a, "step", B::integer(1));
    return d.finish({ d.b.call1("arange", "start_out", std::move(args), s) });
}

/** The dtype argument of a factory, or `fallback`. */
ScalarType dtypeArg(const ArgMap& a, ScalarType fallback)
{
    const auto it = a.find("dtype");
    return it != a.end() && it->second.kind == LArg::Kind::Int ? ScalarType(it->second.i) : fallback;
}

// new_ones / new_zeros / new_full(size, v) = full(size, v, dtype = dtype or self's); new_empty = _empty_dim_order;
// empty_like = _empty_dim_order of self's shape.
Result<bool> newTensor(D& d)
{
    PTE_TRY(const auto a, d.args());
    const auto& op = d.target().op;
    const int x = D::tensor(a, "self");
    const ScalarType t = dtypeArg(a, d.b.dtype(x));
    const Dims size = op == "empty_like" ? d.b.dims(x) : D::sizes(a, "size");
    if (op == "empty_like" || op == "new_empty") {
        OutSpec s { t, {}, 0 };
        for (std::size_t k = 0; k < size.size(); ++k) {
            s.sizes.push_back(std::int32_t(d.b.upper(size[k])));
            if (size[k].ref >= 0)
                s.dynamicDims |= 1u << k;
        }
        std::vector<std::int64_t> order(size.size());
        std::iota(order.begin(), order.end(), 0);
        return d.finish({ d.b.call1("dim_order_ops::_empty_dim_order", "out",
            { { "size", B::sizeList(size) }, { "dim_order", B::ints(order) } }, s) });
    }
    const double v = op == "new_ones" ? 1.0 : op == "new_zeros" ? 0.0 : numberOr(a, "fill_value", 0);
    return d.finish({ d.b.full(size, v, t) });
}

// one_hot(x, C) = eq(x.unsqueeze(-1), arange(C)) as int64 (torch's composite for traced tensors); C = -1 would need
// max(x), a value of the data: refused.
Result<bool> oneHot(D& d)
{
    PTE_TRY(const auto a, d.args());
    const int x = D::tensor(a, "self");
    const std::int64_t classes = D::integer(a, "num_classes", -1);
    if (classes < 0)
        return d.refuse("one_hot with num_classes=-1 (the class count would be max(x) + 1, a value of the data, which "
                        "torch.export cannot trace); pass num_classes");
    if (d.b.dtype(x) != ScalarType::Long)
        return d.invalid("one_hot is only applicable to index tensor of type LongTensor");
    const int idx = d.b.arange(0, double(classes), 1, ScalarType::Long);
    return d.finish({ d.b.cast(d.b.binary("eq", d.b.unsqueeze(x, -1), idx), ScalarType::Long) });
}

// eye(n, m) = where(arange(n)[:, None] == arange(m), 1, 0) of the dtype (bool: the comparison itself).
Result<bool> eye(D& d)
{
    PTE_TRY(const auto a, d.args());
    const Dims n = D::sizes(a, "n");
    const Dims m = d.target().overload == "m" ? D::sizes(a, "m") : n;
    if (n.size() != 1 || m.size() != 1)
        return d.invalid("eye needs its sizes");
    const ScalarType t = dtypeArg(a, ScalarType::Float);
    const int rn = d.b.unsqueeze(d.b.arangeTo(n[0], ScalarType::Long), -1);
    const int rm = d.b.arangeTo(m[0], ScalarType::Long);
    const int cond = d.b.binary("eq", rn, rm);
    if (t == ScalarType::Bool)
        return d.finish({ cond });
    return d.finish({ d.b.where(cond, d.b.scalarConstant(1, t), d.b.scalarConstant(0, t)) });
}

// linspace(start, end, steps) as torch's reference: rg = arange(steps); step = (end - start) / (steps - 1);
// where(rg < steps / 2, start + step * rg, end - step * (steps - 1 - rg)), computed in the dtype (int64 for integer
// dtypes) and converted to it.
Result<bool> linspace(D& d)
{
    PTE_TRY(const auto a, d.args());
    const auto stepsList = D::intList(a, "steps");
    if (!stepsList || stepsList->size() != 1 || (*stepsList)[0] < 0)
        return d.invalid("linspace: number of steps must be non-negative");
    const std::int64_t steps = (*stepsList)[0];
    const auto sa = D::number(a, "start");
    const auto ea = D::number(a, "end");
    if (!sa || !ea)
        return d.refuse("linspace with symbolic bounds");
    const double start = *sa;
    const double end = *ea;
    const ScalarType t = dtypeArg(a, ScalarType::Float);
    if (steps == 0)
        return d.finish({ d.b.full(Dims { B::lit(0) }, 0, t) });
    if (steps == 1)
        return d.finish({ d.b.full(Dims { B::lit(1) }, start, t) });
    if (start == end)
        return d.finish({ d.b.full(Dims { B::lit(steps) }, start, t) });
    const ScalarType ct = isFloatingType(t) ? t : ScalarType::Long;
    const int rg = d.b.arange(0, double(steps), 1, ct);
    const double step = (end - start) / double(steps - 1);
    const int lo = d.b.add(d.b.mul(rg, step), start);
    const int hi = d.b.rsub(d.b.mul(d.b.rsub(rg, double(steps - 1)), step), end);
    const int mask = d.b.binaryScalar("lt", rg, B::num(double(steps) / 2));
    return d.finish({ d.b.cast(d.b.where(mask, lo, hi), t) });
}

// ---------------------------------------------------------------------------------------------------------
// reductions
// ---------------------------------------------------------------------------------------------------------

// logsumexp(dims, keepdim) as torch's reference: m = amax(x, dims, keepdim=True); m = where(|m| == inf, 0, m);
// log(sum(exp(x - m), dims, keepdim)) + m (squeezed unless keepdim). Integer inputs as float.
Result<bool> logsumexp(D& d)
{
    PTE_TRY(const auto a, d.args());
    const int x = toFloat(d.b, D::tensor(a, "self"));
    auto dims = reductionDims(a, "dim");
    if (dims.empty()) {
        dims.resize(d.b.rank(x));
        std::iota(dims.begin(), dims.end(), 0);
    }
    const bool keepdim = D::flag(a, "keepdim");
    int m = d.b.amax(x, dims, true);
    m = d.b.where(d.b.binaryScalar("eq", d.b.unary("abs", m), B::num(std::numeric_limits<double>::infinity())),
        d.b.scalarConstant(0, d.b.dtype(x)), m);
    const int ms = keepdim ? m : d.b.squeeze(m, dims);
    const int s = d.b.sum(d.b.unary("exp", d.b.sub(x, m)), dims, keepdim);
    return d.finish({ d.b.add(d.b.unary("log", s), ms) });
}

/** The correction of std/var/std_mean/var_mean overloads: `correction` (None: 1) or unbiased (True: 1). */
double correctionOf(const D& d, const ArgMap& a)
{
    if (d.target().overload == "correction")
        return numberOr(a, "correction", 1.0);
    return D::flag(a, "unbiased", true) ? 1.0 : 0.0;
}

// std = sqrt(var.correction) (torch's reference); var() / var(unbiased) -> var.correction_out.
Result<bool> stdVar(D& d)
{
    const bool isStd = d.target().op == "std";
    if (!isStd && !d.target().overload.empty())
        return false; // var.correction / var.dim: the kernels
    PTE_TRY(const auto a, d.args());
    const int x = D::tensor(a, "self");
    const auto dims = reductionDims(a, "dim");
    const int v = d.b.var(x, dims, correctionOf(d, a), D::flag(a, "keepdim"));
    return d.finish({ isStd ? d.b.unary("sqrt", v) : v });
}

// var_mean -> var_mean.correction_out (the runtime has the kernel); std_mean = (sqrt(var), mean) of it.
Result<bool> stdVarMean(D& d)
{
    const bool isStd = d.target().op == "std_mean";
    if (!isStd && d.target().overload == "correction")
        return false;
    PTE_TRY(const auto a, d.args());
    const int x = D::tensor(a, "self");
    std::vector<std::int64_t> dims;
    for (const auto k : reductionDims(a, "dim"))
        dims.push_back(d.b.wrapDim(k, d.b.rank(x)));
    const bool keepdim = D::flag(a, "keepdim");
    const auto s = d.b.reduced(x, dims, keepdim, d.b.dtype(x));
    ArgMap args { { "self", LArg::tensor(x) }, { "dim", dims.empty() ? B::none() : B::ints(dims) },
        { "correction", B::num(correctionOf(d, a)) }, { "keepdim", B::boolean(keepdim) } };
    const auto vm = d.b.call("var_mean", "correction_out", std::move(args), { s, s });
    return d.finish({ isStd ? d.b.unary("sqrt", vm[0]) : vm[0], vm[1] });
}

// sum / mean over an empty dim list reduce every dimension, as torch does: the kernels get None.
Result<bool> sumOrMean(D& d)
{
    if (d.target().op == "sum" && d.target().overload.empty())
        return d.sum();
    if (d.target().overload != "dim_IntList" && d.target().overload != "dim")
        return false;
    PTE_TRY(auto a, d.args());
    const auto dims = D::intList(a, "dim");
    if (!dims || !dims->empty())
        return false;
    const int x = D::tensor(a, "self");
    const bool keepdim = D::flag(a, "keepdim");
    const auto out = d.b.nodeOutput(0);
    const ScalarType t = dtypeArg(a, out ? out->dtype : d.b.dtype(x));
    ArgMap args { { "self", LArg::tensor(x) }, { "dim", B::none() }, { "keepdim", B::boolean(keepdim) } };
    if (const auto it = a.find("dtype"); it != a.end() && it->second.kind == LArg::Kind::Int)
        args["dtype"] = it->second;
    return d.finish({ d.b.call1(d.target().op == "sum" ? "sum" : "mean", d.target().op == "sum" ? "IntList_out" : "out",
        std::move(args), d.b.reduced(x, {}, keepdim, t)) });
}

// cumprod(dim, dtype): the runtime has no kernel. An inclusive scan of products along dim in log2(n) steps
// (y[i] *= y[i - s] for s = 1, 2, 4...: slice_copy, mul, cat), in double for floating types as torch's CPU kernel
// accumulates, then converted to the result dtype; integer types as int64, exactly.
Result<bool> cumprod(D& d)
{
    PTE_TRY(const auto a, d.args());
    int x = D::tensor(a, "self");
    const ScalarType t = dtypeArg(a, isFloatingType(d.b.dtype(x)) ? d.b.dtype(x) : ScalarType::Long);
    const std::int64_t dim = d.b.wrapDim(D::integer(a, "dim"), d.b.rank(x));
    if (dim < 0)
        return d.finish({ -1 });
    if (d.b.rank(x) == 0)
        return d.finish({ d.b.clone(d.b.cast(x, t)) });
    if (d.b.isDynamic(x, dim))
        return d.refuse("cumprod along a dynamic dimension (no cumprod kernel in ExecuTorch's runtime; the scan "
                        "that replaces it needs the length)");
    const std::int64_t n = d.b.size(x, dim);
    int y = d.b.cast(x, isFloatingType(t) ? ScalarType::Double : t);
    if (y == x)
        y = d.b.clone(x);
    for (std::int64_t s = 1; s < n; s *= 2) {
        const int head = d.b.slice(y, dim, 0, s);
        const int tail = d.b.mul(d.b.slice(y, dim, s, n), d.b.slice(y, dim, 0, n - s));
        y = d.b.cat({ head, tail }, dim);
    }
    return d.finish({ d.b.cast(y, t) });
}

// clamp_min(v) = clamp(min=v), clamp_max(v) = clamp(max=v); the Tensor overloads -> clamp.Tensor_out.
Result<bool> clampMinMax(D& d)
{
    PTE_TRY(const auto a, d.args());
    const int x = D::tensor(a, "self");
    const bool isMin = d.target().op == "clamp_min";
    const char* name = isMin ? "min" : "max";
    if (d.target().overload == "Tensor") {
        const int bound = D::tensor(a, name);
        const ScalarType t = promoteTypes(d.b.dtype(x), d.b.rank(x) == 0, d.b.dtype(bound), d.b.rank(bound) == 0);
        const auto s = d.b.broadcast(x, bound, t);
        if (!s)
            return d.finish({ -1 });
        ArgMap args { { "self", LArg::tensor(x) }, { "min", B::none() }, { "max", B::none() } };
        args[name] = LArg::tensor(bound);
        return d.finish({ d.b.call1("clamp", "Tensor_out", std::move(args), *s) });
    }
    const LArg v = scalarArg(a, name, B::none());
    ArgMap args { { "self", LArg::tensor(x) }, { "min", B::none() }, { "max", B::none() } };
    args[name] = v;
    return d.finish({ d.b.call1("clamp", "out", std::move(args), d.b.like(x, d.b.scalarResult(x, v))) });
}

/** linalg_vector_norm(x, p, dims, keepdim) for a finite p != 0, as torch's reference: pow(sum(pow(|x|, p)), 1 / p)
 *  (no abs for an even p of a float tensor). */
int vectorNorm(B& b, int x, double p, const std::vector<std::int64_t>& dims, bool keepdim)
{
    const bool even = std::fmod(p, 2.0) == 0.0;
    const int base = even ? x : b.unary("abs", x);
    return b.pow(b.sum(b.pow(base, p), dims, keepdim), 1.0 / p);
}

// cosine_similarity(x1, x2, dim, eps) as ATen's composite: both broadcast, n_i = clamp_min(||x_i||_2 over dim,
// keepdim), eps); sum((x1 / n1) * (x2 / n2), dim).
Result<bool> cosineSimilarity(D& d)
{
    PTE_TRY(const auto a, d.args());
    int x1 = toFloat(d.b, D::tensor(a, "x1"));
    int x2 = toFloat(d.b, D::tensor(a, "x2"));
    const auto s = d.b.broadcast(x1, x2, d.b.dtype(x1));
    if (!s)
        return d.finish({ -1 });
    // The broadcast shape: each dimension from the operand that has it other than 1 (a dynamic one at run time).
    const std::size_t r = s->sizes.size();
    Dims shape;
    for (std::size_t k = 0; k < r; ++k) {
        IntElem e = B::lit(1);
        for (const int v : { x1, x2 }) {
            const std::size_t rv = d.b.rank(v);
            if (k + rv < r)
                continue;
            const auto i = std::int64_t(k + rv - r);
            if (d.b.isDynamic(v, i) || d.b.size(v, i) != 1) {
                e = d.b.dim(v, i);
                break;
            }
        }
        shape.push_back(e);
    }
    x1 = d.b.expand(x1, shape);
    x2 = d.b.expand(x2, shape);
    const std::int64_t dim = d.b.wrapDim(D::integer(a, "dim", 1), s->sizes.size());
    const double eps = numberOr(a, "eps", 1e-8);
    const int n1 = d.b.clamp(vectorNorm(d.b, x1, 2, { dim }, true), eps, std::nullopt);
    const int n2 = d.b.clamp(vectorNorm(d.b, x2, 2, { dim }, true), eps, std::nullopt);
    return d.finish({ d.b.sum(d.b.mul(d.b.div(x1, n1), d.b.div(x2, n2)), { dim }, false) });
}

// pairwise_distance(x1, x2, p, eps, keepdim) = norm(x1 - x2 + eps, p, last dim, keepdim) (ATen's composite; norm is
// linalg_vector_norm's reference for a finite p != 0).
Result<bool> pairwiseDistance(D& d)
{
    PTE_TRY(const auto a, d.args());
    const int x1 = D::tensor(a, "x1");
    const int x2 = D::tensor(a, "x2");
    const double p = numberOr(a, "p", 2);
    if (p == 0 || std::isinf(p))
        return d.refuse("pairwise_distance with p = " + std::to_string(p) + " (only finite, non-zero p are lowered)");
    const auto r = std::int64_t(std::max(d.b.rank(x1), d.b.rank(x2)));
    const int diff = d.b.add(d.b.sub(x1, x2), numberOr(a, "eps", 1e-6));
    return d.finish({ vectorNorm(d.b, toFloat(d.b, diff), p, { r - 1 }, D::flag(a, "keepdim")) });
}

/** torch's _euclidean_dist decomposition: x1n = sum(x1^2, -1, keepdim), x2n likewise;
 *  matmul(cat([-2 x1, x1n, 1]), cat([x2, 1, x2n]).mT), clamp_min(0), sqrt. */
int euclideanDist(B& b, int x1, int x2)
{
    const int x1n = b.sum(b.pow(x1, 2), { -1 }, true);
    const int x2n = b.sum(b.pow(x2, 2), { -1 }, true);
    const int x1p = b.fullLike(x1n, 1);
    const int x2p = b.fullLike(x2n, 1);
    const int l = b.cat({ b.mul(x1, -2.0), x1n, x1p }, -1);
    const int r = b.cat({ x2, x2p, x2n }, -1);
    return b.unary("sqrt", b.clamp(b.matmul(l, b.transpose(r, -2, -1)), 0.0, std::nullopt));
}

Result<bool> euclidean(D& d)
{
    PTE_TRY(const auto a, d.args());
    return d.finish({ euclideanDist(d.b, D::tensor(a, "x1"), D::tensor(a, "x2")) });
}

// cdist(x1, x2, p, compute_mode) as ATen's composite decides: p = 2 with mode 1, or with the default mode when either
// side has more than 25 rows: _euclidean_dist (its decomposition, above) of the batch-broadcast operands, viewed to the
// output shape; otherwise _cdist_forward.out.
Result<bool> cdist(D& d)
{
    PTE_TRY(const auto a, d.args());
    const int x1 = D::tensor(a, "x1");
    const int x2 = D::tensor(a, "x2");
    if (d.b.rank(x1) < 2 || d.b.rank(x2) < 2)
        return d.invalid("cdist only supports at least 2D tensors");
    if (!d.b.isStatic(x1) || !d.b.isStatic(x2))
        return d.refuse("cdist of dynamic tensors (the branch ATen takes depends on the row counts)");
    const double p = numberOr(a, "p", 2);
    const auto modeArg = a.find("compute_mode");
    const std::int64_t mode = modeArg != a.end() && modeArg->second.kind == LArg::Kind::Int ? modeArg->second.i : 0;
    const std::int64_t r1 = d.b.size(x1, -2);
    const std::int64_t r2 = d.b.size(x2, -2);
    if (!(p == 2 && (mode == 1 || (mode == 0 && (r1 > 25 || r2 > 25))))) {
        ArgMap args { { "x1", LArg::tensor(x1) }, { "x2", LArg::tensor(x2) }, { "p", B::num(p) },
            { "compute_mode", modeArg != a.end() ? modeArg->second : B::none() } };
        const auto out = d.b.nodeOutput(0);
        if (!out)
            return d.invalid("cdist without an output in the dump");
        return d.finish({ d.b.call1("_cdist_forward", "out", std::move(args), *out) });
    }
    // Batch dimensions broadcast.
    const auto b1 = d.b.sizes(x1);
    const auto b2 = d.b.sizes(x2);
    std::vector<std::int32_t> batch;
    const std::size_t nb = std::max(b1.size(), b2.size()) - 2;
    for (std::size_t k = 0; k < nb; ++k) {
        const std::size_t o1 = nb - (b1.size() - 2);
        const std::size_t o2 = nb - (b2.size() - 2);
        const std::int32_t s1 = k >= o1 ? b1[k - o1] : 1;
        const std::int32_t s2 = k >= o2 ? b2[k - o2] : 1;
        if (s1 != s2 && s1 != 1 && s2 != 1)
            return d.invalid("cdist: batch dimensions do not broadcast");
        batch.push_back(std::max(s1, s2));
    }
    std::int64_t product = 1;
    for (const auto s : batch)
        product *= s;
    std::vector<std::int64_t> outShape(batch.begin(), batch.end());
    outShape.push_back(r1);
    outShape.push_back(r2);
    int dist = -1;
    if (product == 1) {
        dist = euclideanDist(d.b, x1, x2);
    } else {
        auto expandTo = [&](int x, std::int64_t rows) {
            std::vector<std::int64_t> s(batch.begin(), batch.end());
            s.push_back(rows);
            s.push_back(d.b.size(x, -1));
            return d.b.expand(x, B::lits(s));
        };
        dist = euclideanDist(d.b, expandTo(x1, r1), expandTo(x2, r2));
    }
    return d.finish({ d.b.view(dist, outShape) });
}

// ---------------------------------------------------------------------------------------------------------
// pointwise and linear algebra
// ---------------------------------------------------------------------------------------------------------

// addcmul = self + value * t1 * t2; addcdiv = self + value * (t1 / t2) (torch's decompositions; value as an int for
// integer tensors).
Result<bool> addcOp(D& d)
{
    PTE_TRY(const auto a, d.args());
    const int x = D::tensor(a, "self");
    const int t1 = D::tensor(a, "tensor1");
    const int t2 = D::tensor(a, "tensor2");
    LArg value = scalarArg(a, "value", B::integer(1));
    if (!isFloatingType(d.b.dtype(x)) && value.kind == LArg::Kind::Double)
        value = B::integer(std::int64_t(value.d));
    if (d.target().op == "addcmul")
        return d.finish({ d.b.add(x, d.b.mul(d.b.binaryScalar("mul", t1, value), t2)) });
    return d.finish({ d.b.add(x, d.b.binaryScalar("mul", d.b.div(t1, t2), value)) });
}

/** beta * self + alpha * prod, as the addmv/addr decompositions combine them (beta = 0: self ignored; factors of 1
 *  are exact and not emitted). */
int scaledSum(B& b, int self, int prod, const LArg& beta, const LArg& alpha)
{
    const int p = scalarValue(alpha) == 1.0 ? prod : b.binaryScalar("mul", prod, alpha);
    if (scalarValue(beta) == 0.0)
        return p;
    const int s = scalarValue(beta) == 1.0 ? self : b.binaryScalar("mul", self, beta);
    return b.add(p, s);
}

// mv(m, v) = sum(m * v, 1); dot / vdot(a, b) = sum(a * b) (torch's decompositions, real tensors); outer / ger(a, b)
// = a.view(n, 1) * b; addmv = beta * self + alpha * mv; addr = beta * self + alpha * outer.
Result<bool> linalg(D& d)
{
    PTE_TRY(const auto a, d.args());
    const auto& op = d.target().op;
    if (op == "mv" || op == "addmv") {
        const int m = D::tensor(a, op == "mv" ? "self" : "mat");
        const int v = D::tensor(a, "vec");
        if (d.b.rank(m) != 2 || d.b.rank(v) != 1)
            return d.invalid("vector + matrix @ vector expected, got " + std::to_string(d.b.rank(m)) + ", "
                + std::to_string(d.b.rank(v)));
        const int prod = d.b.sum(d.b.mul(m, v), { 1 }, false, d.b.dtype(m));
        if (op == "mv")
            return d.finish({ prod });
        return d.finish({ scaledSum(d.b, D::tensor(a, "self"), prod, scalarArg(a, "beta", B::integer(1)),
            scalarArg(a, "alpha", B::integer(1))) });
    }
    if (op == "dot" || op == "vdot") {
        const int x = D::tensor(a, "self");
        const int y = D::tensor(a, op == "dot" ? "tensor" : "other");
        if (d.b.rank(x) != 1 || d.b.rank(y) != 1)
            return d.invalid("1D tensors expected, but got " + std::to_string(d.b.rank(x)) + "D and "
                + std::to_string(d.b.rank(y)) + "D tensors");
        return d.finish({ d.b.sum(d.b.mul(x, y), { 0 }, false, d.b.dtype(x)) });
    }
    const int v1 = D::tensor(a, op == "addr" ? "vec1" : "self");
    const int v2 = D::tensor(a, op == "addr" ? "vec2" : "vec2");
    if (d.b.rank(v1) != 1 || d.b.rank(v2) != 1)
        return d.invalid(op + ": expected 1-D vectors");
    const int outer = d.b.mul(d.b.view(v1, Dims { d.b.dim(v1, 0), B::lit(1) }), v2);
    if (op != "addr")
        return d.finish({ outer });
    return d.finish({ scaledSum(
        d.b, D::tensor(a, "self"), outer, scalarArg(a, "beta", B::integer(1)), scalarArg(a, "alpha", B::integer(1))) });
}

// lerp(start, end, weight) as torch's decomposition: mask = |w| >= 0.5; where(mask, w - 1, w) * (end - start) +
// where(mask, end, start). A scalar weight is a 0-d tensor of start's dtype.
Result<bool> lerp(D& d)
{
    PTE_TRY(const auto a, d.args());
    const int start = D::tensor(a, "self");
    const int end = D::tensor(a, "end");
    int w = D::tensor(a, "weight");
    if (w < 0)
        w = d.b.scalarConstant(numberOr(a, "weight", 0), d.b.dtype(start));
    const int mask = d.b.binaryScalar("ge", d.b.unary("abs", w), B::num(0.5));
    const int coeff = d.b.where(mask, d.b.sub(w, 1.0), w);
    const int base = d.b.where(mask, end, start);
    return d.finish({ d.b.add(d.b.mul(coeff, d.b.sub(end, start)), base) });
}

// logaddexp(a, b) as torch's reference: where(isinf(a) & a == b, a, max + log1p(exp(min - max))).
Result<bool> logaddexp(D& d)
{
    PTE_TRY(const auto a, d.args());
    const int x = toFloat(d.b, D::tensor(a, "self"));
    const int y = toFloat(d.b, D::tensor(a, "other"));
    const int mask = d.b.binary("ge", x, y);
    const int mx = d.b.where(mask, x, y);
    const int mn = d.b.where(mask, y, x);
    const int infMask = d.b.binary("logical_and", d.b.unary("isinf", x), d.b.binary("eq", x, y));
    return d.finish({ d.b.where(infMask, x, d.b.add(mx, d.b.unary("log1p", d.b.unary("exp", d.b.sub(mn, mx))))) });
}

// xlogy(a, b) as torch's reference: where(isnan(b), nan, where(a == 0, 0, a * log(b))), scalars as 0-d tensors of
// the other's dtype, integers as float.
Result<bool> xlogy(D& d)
{
    PTE_TRY(const auto a, d.args());
    int x = D::tensor(a, "self");
    int y = D::tensor(a, "other");
    if (x < 0)
        x = d.b.scalarConstant(numberOr(a, "self", 0), d.b.dtype(y));
    if (y < 0)
        y = d.b.scalarConstant(numberOr(a, "other", 0), d.b.dtype(x));
    x = toFloat(d.b, x);
    y = toFloat(d.b, y);
    const int rhs = d.b.where(
        d.b.binaryScalar("eq", x, B::integer(0)), d.b.scalarConstant(0, d.b.dtype(x)), d.b.mul(x, d.b.unary("log", y)));
    return d.finish({ d.b.where(
        d.b.unary("isnan", y), d.b.scalarConstant(std::numeric_limits<double>::quiet_NaN(), d.b.dtype(rhs)), rhs) });
}

// Small pointwise composites: square = pow(x, 2); rsub.Tensor(a, b, alpha) = b - alpha * a (sub.out with alpha);
// floor_divide.Scalar = div(rounding_mode='floor'); true_divide = div; sgn = sign; frac = x - trunc(x);
// deg2rad / rad2deg = x * (pi / 180) / x * (180 / pi) (as float).
Result<bool> pointwise(D& d)
{
    const auto& op = d.target().op;
    const auto& ovl = d.target().overload;
    if ((op == "rsub" && ovl != "Tensor") || (op == "floor_divide" && ovl != "Scalar"))
        return false;
    PTE_TRY(const auto a, d.args());
    const int x = D::tensor(a, "self");
    if (op == "square")
        return d.finish({ d.b.binaryScalar("pow", x, B::integer(2)) });
    if (op == "rsub") {
        const int o = D::tensor(a, "other");
        const ScalarType t = promoteTypes(d.b.dtype(x), d.b.rank(x) == 0, d.b.dtype(o), d.b.rank(o) == 0);
        const auto s = d.b.broadcast(o, x, t);
        if (!s)
            return d.finish({ -1 });
        return d.finish({ d.b.call1("sub", "out",
            { { "self", LArg::tensor(o) }, { "other", LArg::tensor(x) },
                { "alpha", scalarArg(a, "alpha", B::integer(1)) } },
            *s) });
    }
    if (op == "floor_divide") {
        const LArg other = scalarArg(a, "other", B::integer(1));
        return d.finish({ d.b.call1("div", "Scalar_mode_out",
            { { "self", LArg::tensor(x) }, { "other", other }, { "rounding_mode", B::str("floor") } },
            d.b.like(x, d.b.scalarResult(x, other))) });
    }
    if (op == "true_divide") {
        if (ovl == "Scalar")
            return d.finish({ d.b.binaryScalar("div", x, scalarArg(a, "other", B::integer(1))) });
        return d.finish({ d.b.div(x, D::tensor(a, "other")) });
    }
    if (op == "sgn")
        return d.finish({ d.b.unary("sign", x) });
    if (op == "frac")
        return d.finish({ d.b.sub(x, d.b.unary("trunc", x)) });
    if (op == "deg2rad")
        return d.finish({ d.b.mul(toFloat(d.b, x), 0.017453292519943295) });
    return d.finish({ d.b.mul(toFloat(d.b, x), 57.295779513082320876798154814105170332405472466564) });
}

// nan_to_num(nan, posinf, neginf) as torch's reference: where(isnan, nan, x), then -inf and +inf replaced (defaults:
// 0, the dtype's largest and lowest finite values); integer and bool tensors are copied.
Result<bool> nanToNum(D& d)
{
    PTE_TRY(const auto a, d.args());
    const int x = D::tensor(a, "self");
    const ScalarType t = d.b.dtype(x);
    if (!isFloatingType(t))
        return d.finish({ d.b.clone(x) });
    double big = std::numeric_limits<float>::max();
    if (t == ScalarType::Double)
        big = std::numeric_limits<double>::max();
    else if (t == ScalarType::Half)
        big = 65504.0;
    else if (t == ScalarType::BFloat16)
        big = 3.3895313892515355e38;
    const double nan = numberOr(a, "nan", 0.0);
    const double pos = numberOr(a, "posinf", big);
    const double neg = numberOr(a, "neginf", -big);
    const int inf = d.b.unary("isinf", x);
    int r = d.b.where(d.b.unary("isnan", x), d.b.scalarConstant(nan, t), x);
    r = d.b.where(
        d.b.binary("logical_and", inf, d.b.binaryScalar("lt", x, B::integer(0))), d.b.scalarConstant(neg, t), r);
    r = d.b.where(
        d.b.binary("logical_and", inf, d.b.binaryScalar("gt", x, B::integer(0))), d.b.scalarConstant(pos, t), r);
    return d.finish({ r });
}

// all(x, dims, keepdim) = logical_not(any(logical_not(x), dims, keepdim)) (torch's decomposition).
Result<bool> all(D& d)
{
    PTE_TRY(const auto a, d.args());
    const int x = D::tensor(a, "self");
    std::vector<std::int64_t> dims;
    if (d.target().overload == "dim")
        dims = { D::integer(a, "dim") };
    else if (d.target().overload == "dims")
        dims = reductionDims(a, "dim");
    return d.finish({ d.b.all(x, dims, D::flag(a, "keepdim")) });
}

// A stable sort along the last dimension of x (..., n), by ranks: element i goes to position
// #{j : x_j comes before x_i} + #{j < i : x_j ties x_i}. "Before" is < ascending, > descending, with NaN as the
// largest value (torch's order: last ascending, first descending); ties are equal values or two NaNs. The element
// at position k is the i whose rank is k (a sum of i * (rank_i == k)), its value gathered. Exact for every input,
// at the cost of (..., n, n) comparisons. Returns {values, indices}.
std::vector<int> stableSortLast(OpBuilder& b, int x, bool descending)
{
    const std::int64_t n = b.size(x, -1);
    const int xi = b.unsqueeze(x, -1); // (..., n, 1): element i
    const int xj = b.unsqueeze(x, -2); // (..., 1, n): element j
    int before = b.binary(descending ? "gt" : "lt", xj, xi);
    int ties = b.binary("eq", xj, xi);
    if (isFloatingType(b.dtype(x))) {
        const int nanI = b.binary("ne", xi, xi);
        const int nanJ = b.binary("ne", xj, xj);
        const int nanFirst = descending ? b.binary("logical_and", nanJ, b.binary("eq", xi, xi))
                                        : b.binary("logical_and", nanI, b.binary("eq", xj, xj));
        before = b.binary("logical_or", before, nanFirst);
        ties = b.binary("logical_or", ties, b.binary("logical_and", nanI, nanJ));
    }
    std::vector<double> lower(std::size_t(n * n), 0.0);
    for (std::int64_t i = 0; i < n; ++i)
        for (std::int64_t j = 0; j < i; ++j)
            lower[std::size_t(i * n + j)] = 1.0;
    const int earlier = b.constant(lower, { std::int32_t(n), std::int32_t(n) }, ScalarType::Bool); // [i][j]: j < i
    const int precedes = b.binary("logical_or", before, b.binary("logical_and", ties, earlier));
    const int rank = b.sum(precedes, { -1 }, false, ScalarType::Long); // (..., n)
    const int position = b.arange(0, double(n), 1, ScalarType::Long); // (n)
    const int atPosition = b.binary("eq", b.unsqueeze(rank, -2), b.unsqueeze(position, -1)); // (..., k, i)
    const int indices = b.sum(b.mul(b.cast(atPosition, ScalarType::Long), position), { -1 }, false, ScalarType::Long);
    const int values = b.call1("gather", "out",
        { { "self", LArg::tensor(x) }, { "dim", B::integer(std::int64_t(b.rank(x)) - 1) },
            { "index", LArg::tensor(indices) }, { "sparse_grad", B::boolean(false) } },
        b.like(x));
    return { values, indices };
}

// sort / argsort: topk.values with k = the dimension's length, largest = descending, sorted; torch leaves the order
// of equal elements unspecified, and so does topk. stable=True: stableSortLast over the dimension moved last.
Result<bool> sort(D& d)
{
    PTE_TRY(const auto a, d.args());
    const int x = D::tensor(a, "self");
    const bool descending = D::flag(a, "descending");
    const auto r = d.b.rank(x);
    const std::int64_t dim = d.b.wrapDim(D::integer(a, "dim", -1), r);
    if (dim < 0)
        return d.finish({ -1 });
    if (d.b.isDynamic(x, dim))
        return d.refuse("sort along a dynamic dimension");
    std::vector<int> vi;
    if (D::flag(a, "stable") && r > 0) {
        const std::int64_t last = std::int64_t(r) - 1;
        const int moved = dim == last ? x : d.b.transpose(x, dim, last);
        vi = stableSortLast(d.b, moved, descending);
        if (dim != last)
            vi = { d.b.transpose(vi[0], dim, last), d.b.transpose(vi[1], dim, last) };
    } else {
        const std::int64_t k = r == 0 ? 1 : d.b.size(x, dim);
        vi = d.b.call("topk", "values",
            { { "self", LArg::tensor(x) }, { "k", B::integer(k) }, { "dim", B::integer(dim) },
                { "largest", B::boolean(descending) }, { "sorted", B::boolean(true) } },
            { d.b.like(x), d.b.like(x, ScalarType::Long) });
    }
    if (d.target().op == "argsort")
        return d.finish({ vi[1] });
    return d.finish(vi);
}

// count_nonzero(dims) = sum(x != 0, dims) (int64; no dims: every dimension).
Result<bool> countNonzero(D& d)
{
    PTE_TRY(const auto a, d.args());
    const int x = D::tensor(a, "self");
    std::vector<std::int64_t> dims = reductionDims(a, "dim");
    const int nz = d.b.binaryScalar("ne", x, B::integer(0));
    return d.finish({ d.b.sum(nz, dims, false, ScalarType::Long) });
}

// ---------------------------------------------------------------------------------------------------------
// pointwise references, losses and distances the other rules leave out
// ---------------------------------------------------------------------------------------------------------

// logspace(start, end, steps, base) = base ** linspace(start, end, steps) (torch's reference), in float.
Result<bool> logspace(D& d)
{
    PTE_TRY(const auto a, d.args());
    const double start = numberOr(a, "start", 0);
    const double end = numberOr(a, "end", 0);
    const std::int64_t steps = D::integer(a, "steps");
    const double base = numberOr(a, "base", 10.0);
    if (steps < 0)
        return d.invalid("logspace with a negative number of steps");
    const auto out = d.b.nodeOutput(0);
    const ScalarType t = out ? out->dtype : ScalarType::Float;
    std::vector<double> linear(static_cast<std::size_t>(steps));
    // torch's linspace: start + i * step for the first half, end - (steps - 1 - i) * step for the rest.
    const double step = steps > 1 ? (end - start) / double(steps - 1) : 0.0;
    for (std::int64_t i = 0; i < steps; ++i)
        linear[std::size_t(i)] = i < steps / 2 ? start + double(i) * step : end - double(steps - 1 - i) * step;
    const int e = d.b.constant(linear, { std::int32_t(steps) }, ScalarType::Float);
    const int powered =
        d.b.call1("pow", "Scalar_out", { { "self", B::num(base) }, { "exponent", LArg::tensor(e) } }, d.b.like(e));
    return d.finish({ d.b.cast(powered, t) });
}

// nansum(x, dims, keepdim) = sum(where(isnan(x), 0, x), dims, keepdim).
Result<bool> nansum(D& d)
{
    PTE_TRY(const auto a, d.args());
    const int x = D::tensor(a, "self");
    const int clean = isFloatingType(d.b.dtype(x)) ? d.b.whereScalar(d.b.unary("isnan", x), 0.0, x) : x;
    return d.finish({ d.b.sum(clean, reductionDims(a, "dim"), D::flag(a, "keepdim")) });
}

// logaddexp2(a, b) as torch's reference: where(isinf(a) & a == b, a, max + log1p(2 ** (min - max)) / ln 2).
Result<bool> logaddexp2(D& d)
{
    PTE_TRY(const auto a, d.args());
    const int x = toFloat(d.b, D::tensor(a, "self"));
    const int y = toFloat(d.b, D::tensor(a, "other"));
    const int hi = d.b.binary("maximum", x, y);
    const int lo = d.b.binary("minimum", x, y);
    const int diff = d.b.sub(lo, hi);
    const int pow2 =
        d.b.call1("pow", "Scalar_out", { { "self", B::num(2.0) }, { "exponent", LArg::tensor(diff) } }, d.b.like(diff));
    const int result = d.b.add(hi, d.b.mul(d.b.unary("log1p", pow2), 1.0 / std::log(2.0)));
    const int same = d.b.binary("logical_and", d.b.unary("isinf", x), d.b.binary("eq", x, y));
    return d.finish({ d.b.where(same, x, result) });
}

// heaviside(x, values) as torch's reference: where(x == 0, values, where(x < 0 or isnan(x), 0, 1)).
Result<bool> heaviside(D& d)
{
    PTE_TRY(const auto a, d.args());
    const int x = D::tensor(a, "self");
    const int values = D::tensor(a, "values");
    const int negative = d.b.binary("logical_or", d.b.binaryScalar("lt", x, B::integer(0)), d.b.unary("isnan", x));
    const int steps = d.b.where(negative, d.b.scalarConstant(0, d.b.dtype(x)), d.b.scalarConstant(1, d.b.dtype(x)));
    return d.finish({ d.b.where(d.b.binaryScalar("eq", x, B::integer(0)), values, steps) });
}

// sinc(x) as torch's reference: a = pi * x; where(a == 0, 1, sin(a) / a).
Result<bool> sinc(D& d)
{
    PTE_TRY(const auto a, d.args());
    const int x = toFloat(d.b, D::tensor(a, "self"));
    const int px = d.b.mul(x, 3.14159265358979323846);
    const int ratio = d.b.div(d.b.unary("sin", px), px);
    return d.finish({ d.b.whereScalar(d.b.binaryScalar("eq", px, B::integer(0)), 1.0, ratio) });
}

// isin(elements, test, invert) = any(elements[..., None] == test.flatten(), -1), negated with invert.
Result<bool> isin(D& d)
{
    PTE_TRY(const auto a, d.args());
    const auto& ovl = d.target().overload;
    int elements = D::tensor(a, "elements");
    int test = D::tensor(a, "test_elements");
    if (ovl == "Tensor_Scalar" || elements < 0 || test < 0) {
        const LArg scalar = scalarArg(a, elements < 0 ? "element" : "test_element", B::integer(0));
        const int other = elements < 0 ? test : elements;
        if (other < 0)
            return d.invalid("isin needs a tensor");
        const int eq = d.b.binaryScalar("eq", other, scalar);
        if (elements < 0) // Scalar_Tensor: is the scalar among the test elements (a 0-d bool)
            return d.finish(
                { D::flag(a, "invert") ? d.b.unary("logical_not", d.b.any(eq, {}, false)) : d.b.any(eq, {}, false) });
        return d.finish({ D::flag(a, "invert") ? d.b.unary("logical_not", eq) : eq });
    }
    const int flat = d.b.view(test, std::vector<std::int64_t> { -1 });
    const int found = d.b.any(d.b.binary("eq", d.b.unsqueeze(elements, -1), flat), { -1 }, false);
    return d.finish({ D::flag(a, "invert") ? d.b.unary("logical_not", found) : found });
}

// isposinf(x) = isinf(x) & x > 0; isneginf(x) = isinf(x) & x < 0.
Result<bool> isSignedInf(D& d)
{
    PTE_TRY(const auto a, d.args());
    const int x = D::tensor(a, "self");
    const bool positive = d.target().op == "isposinf";
    if (!isFloatingType(d.b.dtype(x)))
        return d.finish({ d.b.fullLike(x, 0, ScalarType::Bool) });
    return d.finish({ d.b.binary(
        "logical_and", d.b.unary("isinf", x), d.b.binaryScalar(positive ? "gt" : "lt", x, B::integer(0))) });
}

// zero(x): a tensor of zeros like x (the functional form of zero_).
Result<bool> zero(D& d)
{
    PTE_TRY(const auto a, d.args());
    return d.finish({ d.b.fullLike(D::tensor(a, "self"), 0) });
}

/** The reduction of a pointwise loss: 0 none, 1 mean, 2 sum (at::Reduction). */
Result<bool> reduceLoss(D& d, const ArgMap& a, int loss)
{
    switch (D::integer(a, "reduction", 1)) {
    case 0:
        return d.finish({ loss });
    case 1:
        return d.finish({ d.b.mean(loss, {}, false) });
    case 2:
        return d.finish({ d.b.sum(loss, {}, false) });
    default:
        return d.invalid("unknown reduction " + std::to_string(D::integer(a, "reduction", 1)));
    }
}

// l1_loss = |x - y|; smooth_l1_loss(beta) = where(z < beta, 0.5 z^2 / beta, z - 0.5 beta) (z when beta is 0);
// huber_loss(delta) = where(z < delta, 0.5 z^2, delta (z - 0.5 delta)); then the reduction (torch's references).
Result<bool> pointwiseLoss(D& d)
{
    PTE_TRY(const auto a, d.args());
    const int z = d.b.unary("abs", d.b.sub(D::tensor(a, "self"), D::tensor(a, "target")));
    const std::string& op = d.target().op;
    if (op == "l1_loss")
        return reduceLoss(d, a, z);
    const double limit = numberOr(a, op == "huber_loss" ? "delta" : "beta", 1.0);
    if (op == "smooth_l1_loss" && limit == 0)
        return reduceLoss(d, a, z);
    const int square = d.b.mul(d.b.mul(z, z), op == "huber_loss" ? 0.5 : 0.5 / limit);
    const int linear = op == "huber_loss" ? d.b.mul(d.b.sub(z, 0.5 * limit), limit) : d.b.sub(z, 0.5 * limit);
    return reduceLoss(d, a, d.b.where(d.b.binaryScalar("lt", z, B::num(limit)), square, linear));
}

// binary_cross_entropy as torch's decomposition: (t - 1) * max(log1p(-x), -100) - t * max(log(x), -100)
// [* weight], then the reduction.
Result<bool> binaryCrossEntropy(D& d)
{
    PTE_TRY(const auto a, d.args());
    const int x = D::tensor(a, "self");
    const int t = D::tensor(a, "target");
    const int weight = D::tensor(a, "weight");
    if (x < 0 || t < 0)
        return d.invalid("binary_cross_entropy needs self and target");
    const int floor = d.b.scalarConstant(-100.0, d.b.dtype(x));
    const int logOne = d.b.binary("maximum", d.b.unary("log1p", d.b.unary("neg", x)), floor);
    const int logX = d.b.binary("maximum", d.b.unary("log", x), floor);
    int loss = d.b.sub(d.b.mul(d.b.sub(t, 1.0), logOne), d.b.mul(t, logX));
    if (weight >= 0)
        loss = d.b.mul(loss, weight);
    return reduceLoss(d, a, loss);
}

// binary_cross_entropy_with_logits as torch's decomposition, -logsigmoid(x) written as max(-x, 0) +
// log1p(exp(-|x|)): (1 - t) * x + lw * (max(-x, 0) + log1p(exp(-|x|))), lw = (pos_weight - 1) * t + 1 (1 without
// pos_weight), [* weight], then the reduction.
Result<bool> binaryCrossEntropyWithLogits(D& d)
{
    PTE_TRY(const auto a, d.args());
    const int x = D::tensor(a, "self");
    const int t = D::tensor(a, "target");
    const int weight = D::tensor(a, "weight");
    const int posWeight = D::tensor(a, "pos_weight");
    if (x < 0 || t < 0)
        return d.invalid("binary_cross_entropy_with_logits needs self and target");
    const int negLogSigmoid = d.b.add(d.b.clamp(d.b.unary("neg", x), 0.0, std::nullopt),
        d.b.unary("log1p", d.b.unary("exp", d.b.unary("neg", d.b.unary("abs", x)))));
    const int linear = d.b.mul(d.b.rsub(t, 1.0), x);
    int loss = posWeight >= 0
        ? d.b.add(linear, d.b.mul(d.b.add(d.b.mul(d.b.sub(posWeight, 1.0), t), 1.0), negLogSigmoid))
        : d.b.add(linear, negLogSigmoid);
    if (weight >= 0)
        loss = d.b.mul(loss, weight);
    return reduceLoss(d, a, loss);
}

// soft_margin_loss = log1p(exp(-x * t)), then the reduction (torch's reference).
Result<bool> softMarginLoss(D& d)
{
    PTE_TRY(const auto a, d.args());
    const int x = D::tensor(a, "self");
    const int t = D::tensor(a, "target");
    return reduceLoss(d, a, d.b.unary("log1p", d.b.unary("exp", d.b.unary("neg", d.b.mul(x, t)))));
}

/** A loss per sample (N) reduced: none (a 1-D input's sample alone: a 0-D loss), mean or sum. */
int reducePerSample(OpBuilder& b, int perSample, std::int64_t reduction, bool unbatched)
{
    switch (reduction) {
    case 0:
        return unbatched ? b.view(perSample, Dims {}) : perSample;
    case 1:
        return b.mean(perSample, {}, false);
    case 2:
        return b.sum(perSample, {}, false);
    default:
        return b.error(ErrorCode::InvalidInput, "unknown reduction " + std::to_string(reduction));
    }
}

// multi_margin_loss(x, y, p, margin, weight) for x [N, C] (or [C]) and class indices y, as ATen's kernel defines
// it: per sample, the mean over the classes j != y of max(0, margin - x[y] + x[j])^p (p 1 or 2) [* weight[y]]:
// gather, sub, clamp, [mul], [index_select, mul], ne against arange(C), where, mean; then the reduction.
Result<bool> multiMarginLoss(D& d)
{
    PTE_TRY(const auto a, d.args());
    B& b = d.b;
    int x = D::tensor(a, "self");
    int y = D::tensor(a, "target");
    const int weight = D::tensor(a, "weight");
    if (x < 0 || y < 0 || b.rank(x) < 1 || b.rank(x) > 2 || b.rank(y) + 1 != b.rank(x))
        return d.invalid("multi_margin_loss expects x of [N, C] (or [C]) and class indices of [N] (or [])");
    const std::int64_t p = D::integer(a, "p", 1);
    if (p != 1 && p != 2)
        return d.invalid("multi_margin_loss: only p == 1 and p == 2 supported");
    if (b.isDynamic(x, -1))
        return d.refuse("multi_margin_loss over a dynamic number of classes is not lowered");
    const bool unbatched = b.rank(x) == 1;
    if (unbatched) {
        x = b.unsqueeze(x, 0);
        y = b.unsqueeze(y, 0);
    }
    const std::int64_t classes = b.size(x, 1);
    const double margin = D::number(a, "margin").value_or(1.0);
    const int yColumn = b.unsqueeze(y, 1); // [N, 1]
    const int xy = b.call1("gather", "out",
        { { "self", LArg::tensor(x) }, { "dim", B::integer(1) }, { "index", LArg::tensor(yColumn) },
            { "sparse_grad", B::boolean(false) } },
        b.like(yColumn, b.dtype(x)));
    int z = b.clamp(b.add(b.sub(x, xy), margin), 0.0, std::nullopt);
    if (p == 2)
        z = b.mul(z, z);
    if (weight >= 0)
        z = b.mul(z, b.unsqueeze(b.indexSelect(weight, 0, y), 1));
    const int others = b.binary("ne", b.arange(0, double(classes), 1, ScalarType::Long), yColumn);
    const int perSample = b.mean(b.whereScalar(others, z, 0.0), { 1 }, false);
    return d.finish({ reducePerSample(b, perSample, D::integer(a, "reduction", 1), unbatched) });
}

// multilabel_margin_loss_forward(x, y) -> (loss, is_target) for x [N, C] (or [C]) and y the target classes of each
// sample, ended by the first negative entry, as ATen's kernel defines it: is_target[i] = i is one of the targets;
// per sample, sum over targets k and non-targets i of max(0, 1 - x[y_k] + x[i]), divided by C; then the reduction.
// The targets before the first negative: cumsum(y < 0) == 0; is_target: any over k of (y_k == i); the pairs: a
// [N, C, C] clamp masked by both.
Result<bool> multilabelMarginLoss(D& d)
{
    PTE_TRY(const auto a, d.args());
    B& b = d.b;
    int x = D::tensor(a, "self");
    int y = D::tensor(a, "target");
    if (x < 0 || y < 0 || b.rank(x) < 1 || b.rank(x) > 2 || b.rank(y) != b.rank(x))
        return d.invalid("multilabel_margin_loss expects x and target of [N, C] (or [C])");
    if (b.isDynamic(x, -1))
        return d.refuse("multilabel_margin_loss over a dynamic number of classes is not lowered");
    const bool unbatched = b.rank(x) == 1;
    if (unbatched) {
        x = b.unsqueeze(x, 0);
        y = b.unsqueeze(y, 0);
    }
    const std::int64_t classes = b.size(x, 1);
    const ScalarType t = b.dtype(x);
    const int valid = b.binaryScalar(
        "eq", b.cumsum(b.cast(b.binaryScalar("lt", y, B::integer(0)), ScalarType::Long), 1), B::integer(0)); // [N, K]
    const int classIds = b.arange(0, double(classes), 1, ScalarType::Long); // [C]
    const int hits = b.binary("logical_and", b.binary("eq", b.unsqueeze(y, -1), classIds), b.unsqueeze(valid, -1));
    const int isTarget = b.any(hits, { 1 }, false); // [N, C]
    const int safe = b.whereScalar(b.binaryScalar("lt", y, B::integer(0)), 0.0, y); // an index gather can read
    const int xy = b.call1("gather", "out",
        { { "self", LArg::tensor(x) }, { "dim", B::integer(1) }, { "index", LArg::tensor(safe) },
            { "sparse_grad", B::boolean(false) } },
        b.like(safe, t)); // [N, K]
    const int pairs = b.clamp(b.rsub(b.sub(b.unsqueeze(xy, -1), b.unsqueeze(x, 1)), 1.0), 0.0, std::nullopt);
    const int counted = b.binary(
        "logical_and", b.unsqueeze(valid, -1), b.unsqueeze(b.binaryScalar("eq", isTarget, B::boolean(false)), 1));
    const int perSample = b.div(b.sum(b.whereScalar(counted, pairs, 0.0), { 1, 2 }, false), double(classes));
    const int isTargetOut = b.cast(isTarget, t);
    return d.finish({ reducePerSample(b, perSample, D::integer(a, "reduction", 1), unbatched),
        unbatched ? b.view(isTargetOut, Dims { B::lit(classes) }) : isTargetOut });
}

// nll_loss_forward as torch's decomposition, for a [C] or [N, C] input (class dimension c = rank - 1):
// x *= weight (viewed along c); keep = target != ignore_index; safe = where(keep, target, 0);
// loss = where(keep, -gather(x, c, safe.unsqueeze(c)).squeeze(c), 0); total_weight = the sum of the gathered weights
// where kept (without weight: the count of kept targets, as x's dtype; reduction none of an [N, C] input: 0); then
// none, sum, or sum / total_weight (mean). nll_loss and nll_loss_nd: its output alone.
Result<bool> nllLoss(D& d)
{
    PTE_TRY(const auto a, d.args());
    int x = D::tensor(a, "self");
    const int target = D::tensor(a, "target");
    const int weight = D::tensor(a, "weight");
    const std::int64_t reduction = D::integer(a, "reduction", 1);
    const std::int64_t ignoreIndex = D::integer(a, "ignore_index", -100);
    if (x < 0 || target < 0)
        return d.invalid("nll_loss needs self and target");
    const auto r = d.b.rank(x);
    if (r < 1 || r > 2)
        return d.refuse("nll_loss of a " + std::to_string(r) + "-D input (1-D and 2-D inputs are lowered)");
    if (d.b.rank(target) != r - 1)
        return d.invalid("nll_loss expects a target of rank " + std::to_string(r - 1));
    if (reduction < 0 || reduction > 2)
        return d.invalid("unknown reduction " + std::to_string(reduction));
    const std::int64_t c = std::int64_t(r) - 1;
    int w = -1;
    if (weight >= 0) {
        w = r == 1 ? weight : d.b.view(weight, Dims { B::lit(1), d.b.dim(weight, 0) });
        x = d.b.mul(x, w);
    }
    const int keep = d.b.binaryScalar("ne", target, B::integer(ignoreIndex));
    const int safe = d.b.unsqueeze(d.b.whereScalar(keep, target, 0.0), c);
    auto gather = [&](int s) {
        const int g = d.b.call1("gather", "out",
            { { "self", LArg::tensor(s) }, { "dim", B::integer(c) }, { "index", LArg::tensor(safe) } },
            d.b.like(safe, d.b.dtype(s)));
        return d.b.squeeze(g, { c });
    };
    int result = d.b.whereScalar(keep, d.b.unary("neg", gather(x)), 0.0);
    const bool single = d.target().op != "nll_loss_forward";
    int totalWeight = -1;
    if (single && reduction != 1) {
        // nll_loss's total weight is only the divisor of the mean.
    } else if (reduction == 0 && r > 1) {
        totalWeight = d.b.full({}, 0.0, d.b.dtype(x));
    } else if (w >= 0) {
        totalWeight = d.b.sum(d.b.whereScalar(keep, gather(d.b.expand(w, d.b.dims(x))), 0.0), {}, false);
    } else {
        totalWeight = d.b.cast(d.b.sum(keep, {}, false, ScalarType::Long), d.b.dtype(x));
    }
    if (reduction == 2)
        result = d.b.sum(result, {}, false);
    else if (reduction == 1)
        result = d.b.div(d.b.sum(result, {}, false), totalWeight);
    if (single)
        return d.finish({ result });
    return d.finish({ result, totalWeight });
}

// pdist(x, p): the upper-triangle distances between the rows (_pdist_forward, which the runtime has).
Result<bool> pdist(D& d)
{
    PTE_TRY(const auto a, d.args());
    const int x = D::tensor(a, "self");
    if (d.b.rank(x) != 2)
        return d.invalid("pdist needs a 2-D input");
    const std::int64_t n = d.b.size(x, 0);
    return d.finish(
        { d.b.call1("_pdist_forward", "out", { { "self", LArg::tensor(x) }, { "p", B::num(numberOr(a, "p", 2.0)) } },
            B::spec(d.b.dtype(x), { std::int32_t(n * (n - 1) / 2) })) });
}

const DecompositionRule kMathRules[] = {
    { "heaviside", &heaviside,
        "where(x == 0, values, where(x < 0 or isnan(x), 0, 1)) (eq, lt, isnan, logical_or, where)" },
    { "huber_loss", &pointwiseLoss, "where(|x-y| < delta, 0.5 z^2, delta (z - 0.5 delta)), then mean or sum" },
    { "binary_cross_entropy", &binaryCrossEntropy,
        "(t - 1) max(log1p(-x), -100) - t max(log(x), -100) [* weight], then mean or sum (torch's decomposition)" },
    { "binary_cross_entropy_with_logits", &binaryCrossEntropyWithLogits,
        "(1 - t) x + [(pos_weight - 1) t + 1] (clamp(-x, 0) + log1p(exp(-|x|))) [* weight], then mean or sum" },
    { "nll_loss", &nllLoss, "as nll_loss_forward, its output (1-D and 2-D inputs)" },
    { "nll_loss_forward", &nllLoss,
        "[mul (weight),] ne, where, unsqueeze_copy, gather, squeeze_copy, neg, where, sum (total weight), sum / div "
        "(torch's decomposition; 1-D and 2-D inputs)" },
    { "nll_loss_nd", &nllLoss, "as nll_loss_forward, its output (1-D and 2-D inputs)" },
    { "soft_margin_loss", &softMarginLoss, "log1p(exp(-x t)), then mean or sum" },
    { "multi_margin_loss", &multiMarginLoss,
        "gather x[y], max(0, margin - x[y] + x)^p (sub, add, clamp[, mul]) [* index_select(weight, y)], where over "
        "j != y (ne against arange), mean over classes; then the reduction" },
    { "multilabel_margin_loss_forward", &multilabelMarginLoss,
        "targets before the first negative (lt, cumsum, eq); is_target = any(y_k == i); sum over (target, "
        "non-target) pairs of max(0, 1 - x[y_k] + x[i]) / C (gather, rsub, clamp, where, sum, div); then the "
        "reduction" },
    { "isin", &isin, "eq against the flattened test elements, any over them (logical_not for invert)" },
    { "isneginf", &isSignedInf, "isinf and lt 0 (logical_and)" },
    { "isposinf", &isSignedInf, "isinf and gt 0 (logical_and)" },
    { "l1_loss", &pointwiseLoss, "abs(x - y), then mean or sum" },
    { "logaddexp2", &logaddexp2,
        "maximum + log1p(2 ** (minimum - maximum)) / ln 2, infinities kept (pow.Scalar, log1p, where)" },
    { "logspace", &logspace, "base ** linspace: pow.Scalar_out of a constant exponent vector" },
    { "nansum", &nansum, "where(isnan(x), 0, x), sum" },
    { "pdist", &pdist, "_pdist_forward" },
    { "sinc", &sinc, "where(pi x == 0, 1, sin(pi x) / (pi x))" },
    { "smooth_l1_loss", &pointwiseLoss, "where(|x-y| < beta, 0.5 z^2 / beta, z - 0.5 beta), then mean or sum" },
    { "zero", &zero, "full_like(0)" },
    // masks and factories
    { "triu", &triu, "arange (rows, columns), unsqueeze_copy, sub, ge, where (torch's reference)" },
    { "masked_fill", &maskedFill,
        "Scalar value: masked_fill.Scalar_out; 0-d Tensor value: where(mask, value as self's dtype, self)" },
    { "where", &whereScalars,
        "scalar branches as 0-d constants of the result dtype + where.self_out; where(condition) is refused" },
    { "arange", &arange,
        "arange.out / arange.start_out (dtype and length as the dump records; symbolic bounds passed "
        "as run-time values)" },
    { "empty_like", &newTensor, "dim_order_ops::_empty_dim_order" },
    { "new_empty", &newTensor, "dim_order_ops::_empty_dim_order" },
    { "new_ones", &newTensor, "full (1, self's dtype unless dtype)" },
    { "new_zeros", &newTensor, "full (0, self's dtype unless dtype)" },
    { "new_full", &newTensor, "full (self's dtype unless dtype)" },
    { "one_hot", &oneHot, "arange, unsqueeze_copy, eq, _to_dim_order_copy (int64); num_classes=-1 refused" },
    { "eye", &eye, "arange (2), unsqueeze_copy, eq, where (1, 0)" },
    { "linspace", &linspace, "arange, mul, add, rsub, lt, where (torch's reference), _to_dim_order_copy" },
    // reductions
    { "logsumexp", &logsumexp, "amax, abs, eq, where, squeeze_copy, sub, exp, sum, log, add (torch's reference)" },
    { "std", &stdVar, "var.correction_out + sqrt" },
    { "var", &stdVar, "var() / var(unbiased): var.correction_out (var.correction, var.dim: their kernels)" },
    { "std_mean", &stdVarMean, "var_mean.correction_out + sqrt" },
    { "var_mean", &stdVarMean, "var_mean.correction_out" },
    { "sum", &sumOrMean, "sum.IntList_out (no dims or an empty dim list: every dimension)" },
    { "mean", &sumOrMean, "mean.out (an empty dim list: every dimension)" },
    { "cumprod", &cumprod,
        "log2(n) steps of slice_copy, mul, cat (in double for floating types), _to_dim_order_copy; a dynamic "
        "dimension is refused" },
    { "clamp_min", &clampMinMax, "clamp.out (min) / clamp.Tensor_out" },
    { "clamp_max", &clampMinMax, "clamp.out (max) / clamp.Tensor_out" },
    { "cosine_similarity", &cosineSimilarity,
        "expand_copy, pow, sum, pow (norms), clamp (eps), div, mul, sum (ATen's composite)" },
    { "pairwise_distance", &pairwiseDistance, "sub, add (eps), abs, pow, sum, pow (norm over the last dimension)" },
    { "cdist", &cdist,
        "p = 2 and more than 25 rows (or compute_mode 1): _euclidean_dist's decomposition (pow, sum, full_like, "
        "mul, cat, matmul, clamp, sqrt); otherwise _cdist_forward.out" },
    { "_euclidean_dist", &euclidean, "pow, sum, full_like, mul, cat, permute_copy, matmul, clamp, sqrt" },
    { "addcmul", &addcOp, "mul (value), mul, add" },
    { "addcdiv", &addcOp, "div, mul (value), add" },
    { "addmv", &linalg, "mul, sum (mv), mul (alpha, beta), add" },
    { "addr", &linalg, "view_copy, mul (outer), mul (alpha, beta), add" },
    { "mv", &linalg, "mul, sum over dim 1" },
    { "dot", &linalg, "mul, sum" },
    { "vdot", &linalg, "mul, sum (real tensors)" },
    { "outer", &linalg, "view_copy to [n, 1], mul" },
    { "ger", &linalg, "view_copy to [n, 1], mul" },
    { "lerp", &lerp, "abs, ge, sub, where (2), sub, mul, add (torch's decomposition)" },
    { "logaddexp", &logaddexp, "ge, where (2), isinf, eq, logical_and, sub, exp, log1p, add, where" },
    { "xlogy", &xlogy, "eq, log, mul, where, isnan, where" },
    { "square", &pointwise, "pow.Tensor_Scalar_out (2)" },
    { "rsub", &pointwise, "Tensor: sub.out (other - alpha * self); Scalar: rsub.Scalar_out" },
    { "floor_divide", &pointwise, "Scalar: div.Scalar_mode_out (floor); Tensor: floor_divide.out" },
    { "true_divide", &pointwise, "div" },
    { "sgn", &pointwise, "sign" },
    { "frac", &pointwise, "trunc, sub" },
    { "deg2rad", &pointwise, "mul (pi / 180)" },
    { "rad2deg", &pointwise, "mul (180 / pi)" },
    { "nan_to_num", &nanToNum, "isnan, isinf, lt, gt, logical_and, where (3); integer tensors: _clone_dim_order" },
    { "all", &all, "logical_not, any.dims_out, logical_not" },
    { "sort", &sort,
        "topk.values (k = length, sorted); stable=True: ranks from (n, n) comparisons (lt/gt, eq, NaN last), then "
        "eq, mul, sum for the indices and gather for the values" },
    { "argsort", &sort, "as sort, its indices" },
    { "count_nonzero", &countNonzero, "ne, sum (int64)" },
};

} // namespace

std::span<const DecompositionRule> mathRules() { return kMathRules; }

} // namespace pte::emitcore
