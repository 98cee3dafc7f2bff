// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// More of the portable kernels, written from PyTorch's definitions of the ops and checked against the outputs PyTorch
// recorded for ExecuTorch's all-ops programs (tests/cli/tst_corpus_run): math functions, bitwise and logical ops,
// remainders, reductions with indices, indexing and scattering, flips and repeats, group norm and upsampling.
#include "interp/interpreterimpl.h"
#include "interp/kernelutil.h"
#include "pte/operatorname.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <numeric>

namespace pte {

using namespace interp;

namespace {

using Unary = std::function<double(double)>;
using Binary = std::function<double(double, double)>;

std::int64_t asInt(double v) { return std::int64_t(v); }

/** Python's remainder (the sign of the divisor), as the portable kernels compute it for every dtype. */
double remainderOf(double a, double b)
{
    double r = std::fmod(a, b);
    if (r != 0 && (r < 0) != (b < 0))
        r += b;
    return r;
}

const std::map<std::string, Unary, std::less<>>& unaryOps()
{
    static const std::map<std::string, Unary, std::less<>> ops = {
        { "acos", [](double x) { return std::acos(x); } },
        { "acosh", [](double x) { return std::acosh(x); } },
        { "asin", [](double x) { return std::asin(x); } },
        { "asinh", [](double x) { return std::asinh(x); } },
        { "atan", [](double x) { return std::atan(x); } },
        { "atanh", [](double x) { return std::atanh(x); } },
        { "cos", [](double x) { return std::cos(x); } },
        { "cosh", [](double x) { return std::cosh(x); } },
        { "sin", [](double x) { return std::sin(x); } },
        { "sinh", [](double x) { return std::sinh(x); } },
        { "tan", [](double x) { return std::tan(x); } },
        { "erf", [](double x) { return std::erf(x); } },
        { "expm1", [](double x) { return std::expm1(x); } },
        { "log", [](double x) { return std::log(x); } },
        { "log10", [](double x) { return std::log10(x); } },
        { "log1p", [](double x) { return std::log1p(x); } },
        { "log2", [](double x) { return std::log2(x); } },
        { "reciprocal", [](double x) { return 1.0 / x; } },
        { "ceil", [](double x) { return std::ceil(x); } },
        { "floor", [](double x) { return std::floor(x); } },
        { "round", [](double x) { return std::nearbyint(x); } }, // half to even, as torch.round
        { "trunc", [](double x) { return std::trunc(x); } },
        { "sign", [](double x) { return std::isnan(x) ? x : double((x > 0) - (x < 0)); } },
        { "isnan", [](double x) { return double(std::isnan(x)); } },
        { "isinf", [](double x) { return double(std::isinf(x)); } },
        { "logical_not", [](double x) { return double(x == 0); } },
    };
    return ops;
}

const std::map<std::string, Binary, std::less<>>& binaryOps()
{
    static const std::map<std::string, Binary, std::less<>> ops = {
        { "atan2", [](double x, double y) { return std::atan2(x, y); } },
        { "fmod", [](double x, double y) { return std::fmod(x, y); } },
        { "remainder", remainderOf },
        { "logical_and", [](double x, double y) { return double(x != 0 && y != 0); } },
        { "logical_or", [](double x, double y) { return double(x != 0 || y != 0); } },
        { "logical_xor", [](double x, double y) { return double((x != 0) != (y != 0)); } },
        { "bitwise_and", [](double x, double y) { return double(asInt(x) & asInt(y)); } },
        { "bitwise_or", [](double x, double y) { return double(asInt(x) | asInt(y)); } },
        { "bitwise_xor", [](double x, double y) { return double(asInt(x) ^ asInt(y)); } },
        { "bitwise_left_shift",
            [](double x, double y) {
                return y < 0 || y >= 64 ? 0.0 : double(std::int64_t(std::uint64_t(asInt(x)) << asInt(y)));
            } },
        { "bitwise_right_shift",
            [](double x, double y) { return y < 0 || y >= 64 ? (x < 0 ? -1.0 : 0.0) : double(asInt(x) >> asInt(y)); } },
    };
    return ops;
}

/** The kernels of this file, with the machine state and the call's arguments. */
class More
{
public:
    More(ReferenceInterpreter::Impl& d, const std::string& op, const std::vector<std::int32_t>& a)
        : d(d)
        , op(op)
        , a(a)
    {
        auto parts = splitOperatorName(op);
        ns = std::move(parts.ns);
        name = std::move(parts.name);
        overload = std::move(parts.overload);
    }

    /** Runs the kernel; false when this file has none for the operator. */
    Result<bool> run();

private:
    std::int64_t arg(std::size_t k) const { return k < a.size() ? a[k] : -1; }
    Result<void> need(std::size_t n) const
    {
        if (a.size() != n)
            return fail(ErrorCode::InvalidInput,
                d.where() + ": " + op + " takes " + std::to_string(n) + " arguments, got " + std::to_string(a.size()));
        return {};
    }
    Unexpected invalid(const std::string& what) const
    {
        return fail(ErrorCode::InvalidInput, d.where() + ": " + op + ": " + what);
    }
    Result<std::shared_ptr<TensorState>> tensor(std::size_t k) const { return d.tensor(arg(k)); }
    Result<double> scalar(std::size_t k) const { return d.scalar(arg(k)); }
    /** A `dim` argument normalised against `rank` (a 0-D tensor takes 0 and -1). */
    Result<std::size_t> dimArg(std::size_t k, std::size_t rank) const
    {
        PTE_TRY(const double v, scalar(k));
        const auto r = std::int64_t(std::max<std::size_t>(rank, 1));
        const auto dim = dimIndex(v, r);
        if (!dim)
            return invalid("dimension " + std::to_string(std::int64_t(v)) + " out of range");
        return *dim;
    }

    Result<void> unary(std::size_t in, std::size_t out, const Unary& f)
    {
        PTE_TRY(auto x, tensor(in));
        PTE_TRY(auto o, tensor(out));
        PTE_CHECK(d.resize(*o, x->sizes));
        std::vector<double> r(x->numel());
        for (std::size_t e = 0; e < r.size(); ++e)
            r[e] = f(x->get(e));
        store(*o, r);
        return {};
    }

    /** out = f(x, y) with broadcasting; `y` a scalar argument when `scalarY`. */
    Result<void> binary(std::size_t x, std::size_t y, bool scalarY, std::size_t out, const Binary& f)
    {
        PTE_TRY(auto tx, tensor(x));
        PTE_TRY(auto o, tensor(out));
        std::shared_ptr<TensorState> ty;
        double sy = 0;
        std::vector<std::int64_t> shape = tx->sizes;
        if (scalarY) {
            PTE_TRY(sy, scalar(y));
        } else {
            PTE_TRY(ty, tensor(y));
            shape = broadcastShape(tx->sizes, ty->sizes);
            if (shape.empty() && !(tx->sizes.empty() && ty->sizes.empty()))
                return invalid("shapes do not broadcast");
        }
        PTE_CHECK(d.resize(*o, shape));
        std::vector<double> r(o->numel());
        for (std::size_t e = 0; e < r.size(); ++e)
            r[e] =
                f(tx->get(broadcastIndex(shape, tx->sizes, e)), ty ? ty->get(broadcastIndex(shape, ty->sizes, e)) : sy);
        store(*o, r);
        return {};
    }

    /** Calls f(outIndex, values along `dim`) for every position of the other dimensions of `x`. */
    static void alongDim(const TensorState& x, std::size_t dim,
        const std::function<void(std::size_t outer, std::size_t inner, const std::vector<double>&)>& f)
    {
        const std::size_t len = x.sizes.empty() ? 1 : std::size_t(x.sizes[dim]);
        const std::size_t inner = x.sizes.empty() ? 1 : numelFrom(x.sizes, dim + 1);
        const std::size_t outer = x.numel() / std::max<std::size_t>(len * inner, 1);
        std::vector<double> values(len);
        for (std::size_t o = 0; o < outer; ++o)
            for (std::size_t i = 0; i < inner; ++i) {
                for (std::size_t k = 0; k < len; ++k)
                    values[k] = x.get((o * len + k) * inner + i);
                f(o, i, values);
            }
    }

    /** `sizes` without dimension `dim` (kept as 1 with `keep`). */
    static std::vector<std::int64_t> reducedShape(std::vector<std::int64_t> sizes, std::size_t dim, bool keep)
    {
        if (sizes.empty())
            return sizes;
        if (keep)
            sizes[dim] = 1;
        else
            sizes.erase(sizes.begin() + std::ptrdiff_t(dim));
        return sizes;
    }

    Result<bool> elementwise();
    Result<bool> reductions();
    Result<bool> indexing();
    Result<bool> layout();
    Result<bool> normalization();

    ReferenceInterpreter::Impl& d;
    const std::string& op;
    const std::vector<std::int32_t>& a;
    std::string ns, name, overload;
};

Result<bool> More::elementwise()
{
    if (const auto it = unaryOps().find(name); it != unaryOps().end() && overload == "out") {
        PTE_CHECK(need(3));
        PTE_CHECK(unary(0, 1, it->second));
        return true;
    }
    if (op == "aten::bitwise_not.out") { // [self, out, ret]
        PTE_CHECK(need(3));
        PTE_TRY(auto x, tensor(0));
        const bool isBool = x->dtype == ScalarType::Bool;
        PTE_CHECK(unary(0, 1, [&](double v) { return isBool ? double(v == 0) : double(~asInt(v)); }));
        return true;
    }
    if (const auto it = binaryOps().find(name); it != binaryOps().end()) {
        // .out / .Tensor_out: [self, other, out, ret]; .Scalar_out: [self, other (a scalar), out, ret]
        if (overload != "out" && overload != "Tensor_out" && overload != "Scalar_out")
            return false;
        PTE_CHECK(need(4));
        PTE_CHECK(binary(0, 1, overload == "Scalar_out", 2, it->second));
        return true;
    }
    if (op == "aten::div.out_mode" || op == "aten::div.Scalar_mode_out") {
        // [self, other, rounding_mode?, out, ret]: "trunc" or "floor" rounds the true quotient; None keeps it.
        PTE_CHECK(need(5));
        std::string mode;
        if (!d.isNull(arg(2))) {
            const auto id = std::size_t(arg(2));
            if (arg(2) < 0 || id >= d.slots.size() || d.slots[id].kind != ValueKind::String)
                return invalid("rounding_mode is not a string");
            mode = d.slots[id].s;
            if (mode != "trunc" && mode != "floor")
                return invalid("rounding_mode '" + mode + "' (trunc, floor or None)");
        }
        PTE_TRY(auto o, tensor(3));
        const bool integral = o->dtype != ScalarType::Float && o->dtype != ScalarType::Double
            && o->dtype != ScalarType::Half && o->dtype != ScalarType::BFloat16;
        PTE_CHECK(binary(0, 1, overload == "Scalar_mode_out", 3, [&](double x, double y) -> double {
            if (integral && y == 0)
                return 0; // the portable kernel refuses integer division by zero; nothing is stored then
            const double q = x / y;
            if (mode == "trunc")
                return std::trunc(q);
            if (mode == "floor")
                return std::floor(q);
            return q;
        }));
        return true;
    }
    if (op == "aten::elu.out") { // [self, alpha, scale, input_scale, out, ret]
        PTE_CHECK(need(6));
        PTE_TRY(const double alpha, scalar(1));
        PTE_TRY(const double scale, scalar(2));
        PTE_TRY(const double inputScale, scalar(3));
        PTE_CHECK(
            unary(0, 4, [&](double x) { return x > 0 ? x * scale : alpha * scale * std::expm1(x * inputScale); }));
        return true;
    }
    if (op == "aten::scalar_tensor.out") { // [s, out, ret]
        PTE_CHECK(need(3));
        PTE_TRY(const double v, scalar(0));
        PTE_TRY(auto o, tensor(1));
        PTE_CHECK(d.resize(*o, {}));
        o->set(0, v);
        return true;
    }
    if (op == "aten::copy.out") { // [self, src, non_blocking, out, ret]: src broadcast to self's shape
        PTE_CHECK(need(5));
        PTE_TRY(auto self, tensor(0));
        PTE_TRY(auto src, tensor(1));
        PTE_TRY(auto o, tensor(3));
        if (broadcastShape(self->sizes, src->sizes) != self->sizes && !self->sizes.empty())
            return invalid("src does not broadcast to self");
        PTE_CHECK(d.resize(*o, self->sizes));
        std::vector<double> r(o->numel());
        for (std::size_t e = 0; e < r.size(); ++e)
            r[e] = src->get(broadcastIndex(self->sizes, src->sizes, e));
        store(*o, r);
        return true;
    }
    return false;
}

Result<bool> More::reductions()
{
    if (op == "aten::amin.out") { // [self, dim, keepdim, out, ret]
        PTE_CHECK(need(5));
        PTE_TRY(auto x, tensor(0));
        PTE_TRY(const auto dims, d.intList(arg(1)));
        PTE_TRY(const double keep, scalar(2));
        PTE_TRY(auto o, tensor(3));
        const auto red = reduction(x->sizes, dims, keep != 0);
        if (!red)
            return invalid("dimension out of range");
        PTE_CHECK(d.resize(*o, red->second));
        std::vector<double> r(o->numel(), INFINITY);
        for (std::size_t e = 0; e < x->numel(); ++e) {
            const auto index = reducedPosition(x->sizes, red->first, e).first;
            const double v = x->get(e);
            if (std::isnan(v) || v < r[index])
                r[index] = std::isnan(r[index]) ? r[index] : v; // NaN propagates
        }
        store(*o, r);
        return true;
    }
    if (op == "aten::any.out" || op == "aten::any.all_out" || op == "aten::any.dims_out") {
        // any.out: [self, dim, keepdim, out, ret]; any.dims_out: [self, dim?, keepdim, out, ret]; all_out: [self, out,
        // ret]
        const bool all = overload == "all_out";
        PTE_CHECK(need(all ? 3 : 5));
        PTE_TRY(auto x, tensor(0));
        std::vector<std::int64_t> dims;
        double keep = 0;
        if (!all) {
            if (overload == "out") {
                PTE_TRY(const double dim, scalar(1));
                dims.push_back(std::int64_t(dim));
            } else if (!d.isNull(arg(1))) {
                PTE_TRY(dims, d.intList(arg(1)));
            }
            PTE_TRY(keep, scalar(2));
        }
        PTE_TRY(auto o, tensor(all ? 1 : 3));
        const auto red = reduction(x->sizes, dims, keep != 0);
        if (!red)
            return invalid("dimension out of range");
        PTE_CHECK(d.resize(*o, red->second));
        std::vector<double> r(o->numel(), 0.0);
        for (std::size_t e = 0; e < x->numel(); ++e)
            if (x->get(e) != 0)
                r[reducedPosition(x->sizes, red->first, e).first] = 1;
        store(*o, r);
        return true;
    }
    if (op == "aten::argmin.out") { // [self, dim?, keepdim, out, ret]; no dim: the flat index over everything
        PTE_CHECK(need(5));
        PTE_TRY(auto x, tensor(0));
        PTE_TRY(const double keep, scalar(2));
        PTE_TRY(auto o, tensor(3));
        std::vector<std::int64_t> dims;
        if (!d.isNull(arg(1))) {
            PTE_TRY(const double dim, scalar(1));
            dims.push_back(std::int64_t(dim));
        }
        const auto red = reduction(x->sizes, dims, keep != 0);
        if (!red)
            return invalid("dimension out of range");
        PTE_CHECK(d.resize(*o, red->second));
        std::vector<double> best(o->numel(), INFINITY);
        std::vector<double> at(o->numel(), -1);
        for (std::size_t e = 0; e < x->numel(); ++e) {
            const auto [index, coord] = reducedPosition(x->sizes, red->first, e);
            const double v = x->get(e);
            if (at[index] >= 0 && std::isnan(best[index]))
                continue; // the first NaN wins
            if (at[index] < 0 || std::isnan(v) || v < best[index]) { // the first minimum wins
                best[index] = v;
                at[index] = double(dims.empty() ? e : coord);
            }
        }
        store(*o, at);
        return true;
    }
    if (op == "aten::max.dim_max" || op == "aten::min.dim_min") {
        // [self, dim, keepdim, values, indices, ret]: the first extreme along dim and its index; NaN propagates
        PTE_CHECK(need(6));
        PTE_TRY(auto x, tensor(0));
        PTE_TRY(const auto dim, dimArg(1, x->sizes.size()));
        PTE_TRY(const double keep, scalar(2));
        PTE_TRY(auto values, tensor(3));
        PTE_TRY(auto indices, tensor(4));
        const auto shape = reducedShape(x->sizes, dim, keep != 0);
        PTE_CHECK(d.resize(*values, shape));
        PTE_CHECK(d.resize(*indices, shape));
        const bool isMax = name == "max";
        std::vector<double> v(values->numel()), idx(values->numel());
        const std::size_t inner = x->sizes.empty() ? 1 : numelFrom(x->sizes, dim + 1);
        alongDim(*x, dim, [&](std::size_t o, std::size_t i, const std::vector<double>& line) {
            std::size_t best = 0;
            for (std::size_t k = 1; k < line.size() && !std::isnan(line[best]); ++k)
                if (std::isnan(line[k]) || (isMax ? line[k] > line[best] : line[k] < line[best]))
                    best = k;
            v[o * inner + i] = line.empty() ? 0 : line[best];
            idx[o * inner + i] = double(best);
        });
        store(*values, v);
        store(*indices, idx);
        return true;
    }
    if (op == "aten::prod.int_out" || op == "aten::prod.out") {
        // prod.int_out: [self, dim, keepdim, dtype?, out, ret]; prod.out: [self, dtype?, out, ret] (over everything)
        const bool all = overload == "out";
        PTE_CHECK(need(all ? 4 : 6));
        PTE_TRY(auto x, tensor(0));
        std::vector<std::int64_t> dims;
        double keep = 0;
        if (!all) {
            PTE_TRY(const double dim, scalar(1));
            dims.push_back(std::int64_t(dim));
            PTE_TRY(keep, scalar(2));
        }
        PTE_TRY(auto o, tensor(all ? 2 : 4));
        const auto red = reduction(x->sizes, dims, keep != 0);
        if (!red)
            return invalid("dimension out of range");
        PTE_CHECK(d.resize(*o, red->second));
        std::vector<double> r(o->numel(), 1.0);
        for (std::size_t e = 0; e < x->numel(); ++e)
            r[reducedPosition(x->sizes, red->first, e).first] *= x->get(e);
        store(*o, r);
        return true;
    }
    if (op == "aten::cumsum.out") { // [self, dim, dtype?, out, ret]
        PTE_CHECK(need(5));
        PTE_TRY(auto x, tensor(0));
        PTE_TRY(const auto dim, dimArg(1, x->sizes.size()));
        PTE_TRY(auto o, tensor(3));
        PTE_CHECK(d.resize(*o, x->sizes));
        std::vector<double> r(x->numel());
        const std::size_t len = x->sizes.empty() ? 1 : std::size_t(x->sizes[dim]);
        const std::size_t inner = x->sizes.empty() ? 1 : numelFrom(x->sizes, dim + 1);
        alongDim(*x, dim, [&](std::size_t outer, std::size_t i, const std::vector<double>& line) {
            double acc = 0;
            for (std::size_t k = 0; k < line.size(); ++k) {
                acc += line[k];
                r[(outer * len + k) * inner + i] = acc;
            }
        });
        store(*o, r);
        return true;
    }
    if (op == "aten::var_mean.correction_out") {
        // [self, dim?, correction?, keepdim, out0 (var), out1 (mean), ret]; correction None = 1
        PTE_CHECK(need(7));
        PTE_TRY(auto x, tensor(0));
        std::vector<std::int64_t> dims;
        if (!d.isNull(arg(1))) {
            PTE_TRY(dims, d.intList(arg(1)));
        }
        double correction = 1;
        if (!d.isNull(arg(2))) {
            PTE_TRY(correction, scalar(2));
        }
        PTE_TRY(const double keep, scalar(3));
        PTE_TRY(auto var, tensor(4));
        PTE_TRY(auto mean, tensor(5));
        const auto red = reduction(x->sizes, dims, keep != 0);
        if (!red)
            return invalid("dimension out of range");
        PTE_CHECK(d.resize(*var, red->second));
        PTE_CHECK(d.resize(*mean, red->second));
        std::vector<double> sum(var->numel(), 0.0), count(var->numel(), 0.0);
        for (std::size_t e = 0; e < x->numel(); ++e) {
            const auto index = reducedPosition(x->sizes, red->first, e).first;
            sum[index] += x->get(e);
            count[index] += 1;
        }
        std::vector<double> m(sum.size()), sq(sum.size(), 0.0);
        for (std::size_t i = 0; i < m.size(); ++i)
            m[i] = sum[i] / std::max(count[i], 1.0);
        for (std::size_t e = 0; e < x->numel(); ++e) {
            const auto index = reducedPosition(x->sizes, red->first, e).first;
            sq[index] += (x->get(e) - m[index]) * (x->get(e) - m[index]);
        }
        std::vector<double> v(sq.size());
        for (std::size_t i = 0; i < v.size(); ++i)
            v[i] = sq[i] / std::max(count[i] - correction, 0.0);
        store(*var, v);
        store(*mean, m);
        return true;
    }
    if (op == "aten::topk.values") { // [self, k, dim, largest, sorted, values, indices, ret]
        PTE_CHECK(need(8));
        PTE_TRY(auto x, tensor(0));
        PTE_TRY(const double kD, scalar(1));
        PTE_TRY(const auto dim, dimArg(2, x->sizes.size()));
        PTE_TRY(const double largest, scalar(3));
        PTE_TRY(auto values, tensor(5));
        PTE_TRY(auto indices, tensor(6));
        const auto k = std::size_t(kD);
        const std::size_t len = x->sizes.empty() ? 1 : std::size_t(x->sizes[dim]);
        if (kD < 0 || k > len)
            return invalid("k out of range");
        std::vector<std::int64_t> shape = x->sizes;
        if (!shape.empty())
            shape[dim] = std::int64_t(k);
        PTE_CHECK(d.resize(*values, shape));
        PTE_CHECK(d.resize(*indices, shape));
        std::vector<double> v(values->numel()), idx(values->numel());
        const std::size_t inner = x->sizes.empty() ? 1 : numelFrom(x->sizes, dim + 1);
        alongDim(*x, dim, [&](std::size_t outer, std::size_t i, const std::vector<double>& line) {
            std::vector<std::size_t> order(line.size());
            std::iota(order.begin(), order.end(), std::size_t(0));
            // NaN counts as the largest value, as in torch.topk.
            auto greater = [&](std::size_t p, std::size_t q) {
                const double x1 = line[p], x2 = line[q];
                if (std::isnan(x1) || std::isnan(x2))
                    return std::isnan(x1) && !std::isnan(x2);
                return x1 > x2;
            };
            std::stable_sort(order.begin(), order.end(),
                [&](std::size_t p, std::size_t q) { return largest != 0 ? greater(p, q) : greater(q, p); });
            for (std::size_t j = 0; j < k; ++j) {
                v[(outer * k + j) * inner + i] = line[order[j]];
                idx[(outer * k + j) * inner + i] = double(order[j]);
            }
        });
        store(*values, v);
        store(*indices, idx);
        return true;
    }
    return false;
}

Result<bool> More::indexing()
{
    if (op == "aten::index_select.out") { // [self, dim, index, out, ret]
        PTE_CHECK(need(5));
        PTE_TRY(auto x, tensor(0));
        PTE_TRY(const auto dim, dimArg(1, x->sizes.size()));
        PTE_TRY(auto index, tensor(2));
        PTE_TRY(auto o, tensor(3));
        std::vector<std::int64_t> shape = x->sizes;
        const std::size_t len = shape.empty() ? 1 : std::size_t(shape[dim]);
        if (!shape.empty())
            shape[dim] = std::int64_t(index->numel());
        PTE_CHECK(d.resize(*o, shape));
        const std::size_t n = index->numel();
        const std::size_t inner = x->sizes.empty() ? 1 : numelFrom(x->sizes, dim + 1);
        std::vector<double> r(o->numel());
        for (std::size_t e = 0; e < r.size(); ++e) {
            const std::size_t outer = e / (n * inner);
            const std::size_t j = (e / inner) % n;
            auto at = asInt(index->get(j));
            at = at < 0 ? at + std::int64_t(len) : at;
            if (at < 0 || std::size_t(at) >= len)
                return invalid("index " + std::to_string(asInt(index->get(j))) + " out of range");
            r[e] = x->get((outer * len + std::size_t(at)) * inner + e % inner);
        }
        store(*o, r);
        return true;
    }
    if (op == "aten::gather.out" || op == "aten::scatter.src_out" || op == "aten::scatter_add.out"
        || op == "aten::scatter.value_out") {
        // gather: [self, dim, index, sparse_grad, out, ret]: out[..i..] = self[..index[..i..]..] along dim;
        // scatter.src_out / scatter_add: [self, dim, index, src, out, ret]: out = self, out[..index..] (+)= src;
        // scatter.value_out: [self, dim, index, value, out, ret]
        const bool isGather = name == "gather";
        PTE_CHECK(need(6));
        PTE_TRY(auto x, tensor(0));
        PTE_TRY(const auto dim, dimArg(1, x->sizes.size()));
        PTE_TRY(auto index, tensor(2));
        PTE_TRY(auto o, tensor(4));
        if (index->sizes.size() != x->sizes.size() && !(index->sizes.empty() || x->sizes.empty()))
            return invalid("index and self have different ranks");
        const std::vector<std::size_t> xs = contiguousStrides(x->sizes);
        auto position = [&](std::size_t e) -> Result<std::size_t> { // index element e -> its place in self
            std::size_t rest = e;
            std::size_t at = 0;
            for (std::size_t k = index->sizes.size(); k-- > 0;) {
                const auto coord = rest % std::size_t(index->sizes[k]);
                rest /= std::size_t(index->sizes[k]);
                std::int64_t c = std::int64_t(coord);
                if (k == dim) {
                    c = asInt(index->get(e));
                    c = c < 0 ? c + x->sizes[k] : c;
                }
                if (c < 0 || c >= x->sizes[k])
                    return invalid("index " + std::to_string(asInt(index->get(e))) + " out of range");
                at += std::size_t(c) * xs[k];
            }
            return at;
        };
        if (isGather) {
            PTE_CHECK(d.resize(*o, index->sizes));
            std::vector<double> r(index->numel());
            for (std::size_t e = 0; e < r.size(); ++e) {
                PTE_TRY(const auto at, position(e));
                r[e] = x->get(at);
            }
            store(*o, r);
            return true;
        }
        std::shared_ptr<TensorState> src;
        double value = 0;
        if (overload == "value_out") {
            PTE_TRY(value, scalar(3));
        } else {
            PTE_TRY(src, tensor(3));
        }
        PTE_CHECK(d.resize(*o, x->sizes));
        std::vector<double> r(x->numel());
        for (std::size_t e = 0; e < r.size(); ++e)
            r[e] = x->get(e);
        const std::vector<std::size_t> ss = src ? contiguousStrides(src->sizes) : std::vector<std::size_t>();
        const std::vector<std::size_t> is = contiguousStrides(index->sizes);
        for (std::size_t e = 0; e < index->numel(); ++e) {
            PTE_TRY(const auto at, position(e));
            double v = value;
            if (src) { // the same coordinates in src (src may be larger than index)
                std::size_t s = 0;
                for (std::size_t k = 0; k < index->sizes.size(); ++k)
                    s += (e / is[k] % std::size_t(index->sizes[k])) * ss[k];
                v = src->get(s);
            }
            r[at] = name == "scatter_add" ? r[at] + v : v;
        }
        store(*o, r);
        return true;
    }
    if (op == "aten::embedding.out") { // [weight, indices, padding_idx, scale_grad_by_freq, sparse, out, ret]
        PTE_CHECK(need(7));
        PTE_TRY(auto w, tensor(0));
        PTE_TRY(auto indices, tensor(1));
        PTE_TRY(auto o, tensor(5));
        if (w->sizes.size() != 2)
            return invalid("the weight is not 2-D");
        const auto rows = w->sizes[0];
        const auto cols = std::size_t(w->sizes[1]);
        std::vector<std::int64_t> shape = indices->sizes;
        shape.push_back(std::int64_t(cols));
        PTE_CHECK(d.resize(*o, shape));
        std::vector<double> r(o->numel());
        for (std::size_t i = 0; i < indices->numel(); ++i) {
            const auto row = asInt(indices->get(i));
            if (row < 0 || row >= rows)
                return invalid("index " + std::to_string(row) + " out of range");
            for (std::size_t c = 0; c < cols; ++c)
                r[i * cols + c] = w->get(std::size_t(row) * cols + c);
        }
        store(*o, r);
        return true;
    }
    if (op == "aten::index.Tensor_out" || op == "aten::index_put.out") {
        // index: [self, indices (Tensor?[]), out, ret]; index_put: [self, indices, values, accumulate, out, ret].
        // Advanced indexing: Long index tensors broadcast together, Bool masks stand for their nonzero positions; the
        // indexed dimensions become the broadcast shape, in place when the index tensors are adjacent, else in front.
        const bool put = name == "index_put";
        PTE_CHECK(need(put ? 6 : 4));
        PTE_TRY(auto x, tensor(0));
        const auto listId = arg(1);
        if (listId < 0 || std::size_t(listId) >= d.slots.size()
            || (d.slots[std::size_t(listId)].kind != ValueKind::OptionalTensorList
                && d.slots[std::size_t(listId)].kind != ValueKind::TensorList))
            return invalid("indices is not a tensor list");
        // Per dimension of self: its index tensor (after expanding masks), or none.
        std::vector<std::vector<std::int64_t>> idxValues; // per indexed dimension: the positions
        std::vector<std::vector<std::int64_t>> idxShapes;
        std::vector<std::size_t> idxDims;
        std::size_t dimCursor = 0;
        for (const auto item : d.slots[std::size_t(listId)].ids) {
            if (item < 0 || d.isNull(item)) {
                ++dimCursor;
                continue;
            }
            PTE_TRY(auto t, d.tensor(item));
            if (t->dtype == ScalarType::Bool || t->dtype == ScalarType::Byte) {
                // A mask over the next t->rank dimensions: one index tensor per dimension, of its nonzero count.
                const std::size_t rank = t->sizes.size();
                std::vector<std::vector<std::int64_t>> coords(rank);
                const auto strides = contiguousStrides(t->sizes);
                for (std::size_t e = 0; e < t->numel(); ++e)
                    if (t->get(e) != 0)
                        for (std::size_t k = 0; k < rank; ++k)
                            coords[k].push_back(std::int64_t(e / strides[k] % std::size_t(t->sizes[k])));
                for (std::size_t k = 0; k < rank; ++k) {
                    const auto count = std::int64_t(coords[k].size());
                    idxValues.push_back(std::move(coords[k]));
                    idxShapes.push_back({ count });
                    idxDims.push_back(dimCursor++);
                }
                continue;
            }
            std::vector<std::int64_t> values(t->numel());
            for (std::size_t e = 0; e < values.size(); ++e)
                values[e] = asInt(t->get(e));
            idxValues.push_back(std::move(values));
            idxShapes.push_back(t->sizes);
            idxDims.push_back(dimCursor++);
        }
        if (idxDims.empty() || idxDims.back() >= std::max<std::size_t>(x->sizes.size(), 1))
            return invalid("too many indices for a " + std::to_string(x->sizes.size()) + "-D tensor");
        std::vector<std::int64_t> bshape = idxShapes.front();
        for (const auto& s : idxShapes) {
            auto b = broadcastShape(bshape, s);
            if (b.empty() && !(bshape.empty() && s.empty()))
                return invalid("the index tensors do not broadcast");
            bshape = std::move(b);
        }
        bool adjacent = true;
        for (std::size_t k = 1; k < idxDims.size(); ++k)
            adjacent = adjacent && idxDims[k] == idxDims[k - 1] + 1;
        // The result shape: self's dimensions, the indexed ones replaced by bshape.
        std::vector<std::int64_t> before, after;
        for (std::size_t k = 0; k < x->sizes.size(); ++k) {
            if (std::find(idxDims.begin(), idxDims.end(), k) != idxDims.end())
                continue;
            (adjacent && k < idxDims.front() ? before : after).push_back(x->sizes[k]);
        }
        std::vector<std::int64_t> shape = before;
        shape.insert(shape.end(), bshape.begin(), bshape.end());
        shape.insert(shape.end(), after.begin(), after.end());
        const std::size_t bnumel = numelFrom(bshape, 0);
        const std::size_t afterNumel = numelFrom(after, 0);
        const auto xs = contiguousStrides(x->sizes);
        std::vector<std::size_t> rest; // the dimensions of self not indexed, in order
        for (std::size_t k = 0; k < x->sizes.size(); ++k)
            if (std::find(idxDims.begin(), idxDims.end(), k) == idxDims.end())
                rest.push_back(k);
        const std::size_t resultNumel = numelFrom(shape, 0);
        std::vector<std::size_t> places(resultNumel);
        for (std::size_t e = 0; e < resultNumel; ++e) {
            const std::size_t a0 = e % afterNumel;
            const std::size_t b = e / afterNumel % bnumel;
            const std::size_t p = e / (afterNumel * bnumel);
            // Unflatten the non-indexed coordinates: `before` (p) then `after` (a0), in self's order.
            std::vector<std::int64_t> coord(x->sizes.size(), 0);
            std::size_t pb = p, pa = a0;
            const std::size_t nBefore = before.size();
            for (std::size_t r = rest.size(); r-- > 0;) {
                const std::size_t k = rest[r];
                auto& src = r < nBefore ? pb : pa;
                coord[k] = std::int64_t(src % std::size_t(x->sizes[k]));
                src /= std::size_t(x->sizes[k]);
            }
            for (std::size_t j = 0; j < idxDims.size(); ++j) {
                auto v = idxValues[j][broadcastIndex(bshape, idxShapes[j], b)];
                const auto size = x->sizes[idxDims[j]];
                v = v < 0 ? v + size : v;
                if (v < 0 || v >= size)
                    return invalid("index " + std::to_string(idxValues[j][broadcastIndex(bshape, idxShapes[j], b)])
                        + " out of range for dimension " + std::to_string(idxDims[j]) + " of size "
                        + std::to_string(size));
                coord[idxDims[j]] = v;
            }
            std::size_t at = 0;
            for (std::size_t k = 0; k < coord.size(); ++k)
                at += std::size_t(coord[k]) * xs[k];
            places[e] = at;
        }
        if (!put) {
            PTE_TRY(auto o, tensor(2));
            PTE_CHECK(d.resize(*o, shape));
            std::vector<double> r(resultNumel);
            for (std::size_t e = 0; e < r.size(); ++e)
                r[e] = x->get(places[e]);
            store(*o, r);
            return true;
        }
        PTE_TRY(auto values, tensor(2));
        PTE_TRY(const double accumulate, scalar(3));
        PTE_TRY(auto o, tensor(4));
        if (broadcastShape(shape, values->sizes) != shape && !(shape.empty() && values->sizes.empty()))
            return invalid("values do not broadcast to the indexed shape");
        PTE_CHECK(d.resize(*o, x->sizes));
        std::vector<double> r(x->numel());
        for (std::size_t e = 0; e < r.size(); ++e)
            r[e] = x->get(e);
        for (std::size_t e = 0; e < resultNumel; ++e) {
            const double v = values->get(broadcastIndex(shape, values->sizes, e));
            r[places[e]] = accumulate != 0 ? r[places[e]] + v : v;
        }
        store(*o, r);
        return true;
    }
    if (op == "aten::masked_scatter.out") { // [self, mask, source, out, ret]: masked places take source in order
        PTE_CHECK(need(5));
        PTE_TRY(auto x, tensor(0));
        PTE_TRY(auto mask, tensor(1));
        PTE_TRY(auto source, tensor(2));
        PTE_TRY(auto o, tensor(3));
        const auto shape = broadcastShape(x->sizes, mask->sizes);
        if (shape.empty() && !(x->sizes.empty() && mask->sizes.empty()))
            return invalid("the mask does not broadcast");
        PTE_CHECK(d.resize(*o, shape));
        std::vector<double> r(o->numel());
        std::size_t next = 0;
        for (std::size_t e = 0; e < r.size(); ++e) {
            r[e] = x->get(broadcastIndex(shape, x->sizes, e));
            if (mask->get(broadcastIndex(shape, mask->sizes, e)) != 0) {
                if (next >= source->numel())
                    return invalid("source has fewer elements than the mask selects");
                r[e] = source->get(next++);
            }
        }
        store(*o, r);
        return true;
    }
    if (op == "aten::slice_scatter.out") { // [self, src, dim, start?, end?, step, out, ret]
        PTE_CHECK(need(8));
        PTE_TRY(auto x, tensor(0));
        PTE_TRY(auto src, tensor(1));
        PTE_TRY(const auto dim, dimArg(2, x->sizes.size()));
        PTE_TRY(const double stepD, scalar(5));
        PTE_TRY(auto o, tensor(6));
        const std::int64_t len = x->sizes.empty() ? 1 : x->sizes[dim];
        std::int64_t start = 0, end = len;
        if (!d.isNull(arg(3))) {
            PTE_TRY(const double v, scalar(3));
            start = std::int64_t(v);
        }
        if (!d.isNull(arg(4))) {
            PTE_TRY(const double v, scalar(4));
            end = std::int64_t(v);
        }
        const auto step = std::int64_t(stepD);
        if (step <= 0)
            return invalid("step must be positive");
        start = std::clamp(start < 0 ? start + len : start, std::int64_t(0), len);
        end = std::clamp(end < 0 ? end + len : end, start, len);
        const std::int64_t count = (end - start + step - 1) / step;
        std::vector<std::int64_t> srcShape = x->sizes;
        if (!srcShape.empty())
            srcShape[dim] = count;
        if (src->sizes != srcShape)
            return invalid("src does not have the slice's shape");
        PTE_CHECK(d.resize(*o, x->sizes));
        std::vector<double> r(x->numel());
        for (std::size_t e = 0; e < r.size(); ++e)
            r[e] = x->get(e);
        const std::size_t inner = x->sizes.empty() ? 1 : numelFrom(x->sizes, dim + 1);
        for (std::size_t e = 0; e < src->numel(); ++e) {
            const std::size_t outer = e / (std::size_t(count) * inner);
            const std::size_t k = e / inner % std::size_t(count);
            r[(outer * std::size_t(len) + std::size_t(start) + k * std::size_t(step)) * inner + e % inner] =
                src->get(e);
        }
        store(*o, r);
        return true;
    }
    return false;
}

Result<bool> More::layout()
{
    if (op == "aten::flip.out") { // [self, dims, out, ret]
        PTE_CHECK(need(4));
        PTE_TRY(auto x, tensor(0));
        PTE_TRY(const auto dims, d.intList(arg(1)));
        PTE_TRY(auto o, tensor(2));
        std::vector<bool> flip(x->sizes.size(), false);
        for (const auto dim : dims) {
            const auto k = dimIndex(double(dim), std::int64_t(x->sizes.size()));
            if (!k)
                return invalid("dimension out of range");
            flip[*k] = true;
        }
        PTE_CHECK(d.resize(*o, x->sizes));
        std::vector<double> r(x->numel());
        const auto strides = contiguousStrides(x->sizes);
        for (std::size_t e = 0; e < r.size(); ++e) {
            std::size_t at = 0;
            for (std::size_t k = 0; k < x->sizes.size(); ++k) {
                auto c = e / strides[k] % std::size_t(x->sizes[k]);
                if (flip[k])
                    c = std::size_t(x->sizes[k]) - 1 - c;
                at += c * strides[k];
            }
            r[e] = x->get(at);
        }
        store(*o, r);
        return true;
    }
    if (op == "aten::repeat.out") { // [self, repeats, out, ret]: tiles; repeats may add leading dimensions
        PTE_CHECK(need(4));
        PTE_TRY(auto x, tensor(0));
        PTE_TRY(const auto repeats, d.intList(arg(1)));
        PTE_TRY(auto o, tensor(2));
        if (repeats.size() < x->sizes.size())
            return invalid("fewer repeats than dimensions");
        const std::size_t lead = repeats.size() - x->sizes.size();
        std::vector<std::int64_t> in(lead, 1);
        in.insert(in.end(), x->sizes.begin(), x->sizes.end());
        std::vector<std::int64_t> shape(repeats.size());
        for (std::size_t k = 0; k < shape.size(); ++k)
            shape[k] = in[k] * repeats[k];
        PTE_CHECK(d.resize(*o, shape));
        const auto os = contiguousStrides(shape);
        const auto is = contiguousStrides(in);
        std::vector<double> r(o->numel());
        for (std::size_t e = 0; e < r.size(); ++e) {
            std::size_t at = 0;
            for (std::size_t k = 0; k < shape.size(); ++k)
                at += (e / os[k] % std::size_t(shape[k])) % std::size_t(std::max<std::int64_t>(in[k], 1)) * is[k];
            r[e] = x->get(at);
        }
        store(*o, r);
        return true;
    }
    if (op == "aten::diagonal_copy.out") { // [self, offset, dim1, dim2, out, ret]
        PTE_CHECK(need(6));
        PTE_TRY(auto x, tensor(0));
        PTE_TRY(const double offsetD, scalar(1));
        PTE_TRY(const auto d1, dimArg(2, x->sizes.size()));
        PTE_TRY(const auto d2, dimArg(3, x->sizes.size()));
        PTE_TRY(auto o, tensor(4));
        if (d1 == d2)
            return invalid("dim1 and dim2 are the same");
        const auto offset = std::int64_t(offsetD);
        const std::int64_t n = std::max<std::int64_t>(
            offset >= 0 ? std::min(x->sizes[d1], x->sizes[d2] - offset) : std::min(x->sizes[d1] + offset, x->sizes[d2]),
            0);
        std::vector<std::int64_t> shape;
        std::vector<std::size_t> keep;
        for (std::size_t k = 0; k < x->sizes.size(); ++k)
            if (k != d1 && k != d2) {
                shape.push_back(x->sizes[k]);
                keep.push_back(k);
            }
        shape.push_back(n);
        PTE_CHECK(d.resize(*o, shape));
        const auto xs = contiguousStrides(x->sizes);
        const auto os = contiguousStrides(shape);
        std::vector<double> r(o->numel());
        for (std::size_t e = 0; e < r.size(); ++e) {
            std::size_t at = 0;
            for (std::size_t j = 0; j < keep.size(); ++j)
                at += (e / os[j] % std::size_t(shape[j])) * xs[keep[j]];
            const auto i = std::int64_t(e % std::size_t(std::max<std::int64_t>(n, 1)));
            at += std::size_t(i + (offset < 0 ? -offset : 0)) * xs[d1]
                + std::size_t(i + (offset > 0 ? offset : 0)) * xs[d2];
            r[e] = x->get(at);
        }
        store(*o, r);
        return true;
    }
    if (op == "aten::unfold_copy.out") { // [self, dimension, size, step, out, ret]
        PTE_CHECK(need(6));
        PTE_TRY(auto x, tensor(0));
        PTE_TRY(const auto dim, dimArg(1, x->sizes.size()));
        PTE_TRY(const double sizeD, scalar(2));
        PTE_TRY(const double stepD, scalar(3));
        PTE_TRY(auto o, tensor(4));
        const auto size = std::int64_t(sizeD);
        const auto step = std::int64_t(stepD);
        const std::int64_t len = x->sizes.empty() ? 1 : x->sizes[dim];
        if (size < 0 || size > len || step <= 0)
            return invalid("size or step out of range");
        const std::int64_t windows = (len - size) / step + 1;
        std::vector<std::int64_t> shape = x->sizes;
        if (!shape.empty())
            shape[dim] = windows;
        shape.push_back(size);
        PTE_CHECK(d.resize(*o, shape));
        const auto xs = contiguousStrides(x->sizes);
        const auto os = contiguousStrides(shape);
        std::vector<double> r(o->numel());
        for (std::size_t e = 0; e < r.size(); ++e) {
            std::size_t at = 0;
            for (std::size_t k = 0; k < x->sizes.size(); ++k) {
                auto c = e / os[k] % std::size_t(shape[k]);
                if (k == dim)
                    c = c * std::size_t(step) + e % std::size_t(std::max<std::int64_t>(size, 1));
                at += c * xs[k];
            }
            r[e] = x->get(at);
        }
        store(*o, r);
        return true;
    }
    if (op == "aten::as_strided_copy.out") { // [self, size, stride, storage_offset?, out, ret] over self's elements
        PTE_CHECK(need(6));
        PTE_TRY(auto x, tensor(0));
        PTE_TRY(const auto size, d.intList(arg(1)));
        PTE_TRY(const auto stride, d.intList(arg(2)));
        PTE_TRY(auto o, tensor(4));
        std::int64_t offset = 0;
        if (!d.isNull(arg(3))) {
            PTE_TRY(const double v, scalar(3));
            offset = std::int64_t(v);
        }
        if (size.size() != stride.size())
            return invalid("size and stride differ in length");
        PTE_CHECK(d.resize(*o, size));
        const auto os = contiguousStrides(size);
        std::vector<double> r(o->numel());
        for (std::size_t e = 0; e < r.size(); ++e) {
            std::int64_t at = offset;
            for (std::size_t k = 0; k < size.size(); ++k)
                at += std::int64_t(e / os[k] % std::size_t(size[k])) * stride[k];
            if (at < 0 || std::size_t(at) >= x->numel())
                return invalid("the strides reach outside self");
            r[e] = x->get(std::size_t(at));
        }
        store(*o, r);
        return true;
    }
    if (op == "aten::upsample_nearest2d.vec_out" || op == "aten::upsample_bilinear2d.vec_out") {
        // nearest: [input, output_size?, scale_factors?, out, ret]; bilinear: [input, output_size?, align_corners,
        // scale_factors?, out, ret]. As PyTorch: a given scale factor sets the source step (1 / factor), else in/out.
        const bool bilinear = name == "upsample_bilinear2d";
        PTE_CHECK(need(bilinear ? 6 : 5));
        PTE_TRY(auto x, tensor(0));
        PTE_TRY(auto o, tensor(bilinear ? 4 : 3));
        double alignCorners = 0;
        if (bilinear) {
            PTE_TRY(alignCorners, scalar(2));
        }
        if (x->sizes.size() != 4)
            return invalid("the input is not 4-D");
        const auto H = x->sizes[2], W = x->sizes[3];
        std::int64_t OH = 0, OW = 0;
        std::vector<double> factors;
        const auto factorsId = arg(bilinear ? 3 : 2);
        if (!d.isNull(factorsId) && factorsId >= 0 && std::size_t(factorsId) < d.slots.size())
            factors = d.slots[std::size_t(factorsId)].doubles;
        if (!d.isNull(arg(1))) {
            PTE_TRY(const auto size, d.intList(arg(1)));
            if (size.size() != 2)
                return invalid("output_size is not two sizes");
            OH = size[0];
            OW = size[1];
        } else if (factors.size() == 2) {
            OH = std::int64_t(std::floor(double(H) * factors[0]));
            OW = std::int64_t(std::floor(double(W) * factors[1]));
        } else {
            return invalid("neither output_size nor two scale factors");
        }
        PTE_CHECK(d.resize(*o, { x->sizes[0], x->sizes[1], OH, OW }));
        auto scale = [&](std::int64_t in, std::int64_t out, std::size_t k) {
            if (bilinear && alignCorners != 0)
                return out > 1 ? double(in - 1) / double(out - 1) : 0.0;
            return factors.size() == 2 && factors[k] > 0 ? 1.0 / factors[k] : double(in) / double(out);
        };
        const double sh = scale(H, OH, 0), sw = scale(W, OW, 1);
        const std::size_t planes = std::size_t(x->sizes[0] * x->sizes[1]);
        std::vector<double> r(o->numel());
        for (std::size_t p = 0; p < planes; ++p)
            for (std::int64_t y = 0; y < OH; ++y)
                for (std::int64_t xo = 0; xo < OW; ++xo) {
                    const std::size_t dst = (p * std::size_t(OH) + std::size_t(y)) * std::size_t(OW) + std::size_t(xo);
                    auto at = [&](std::int64_t iy, std::int64_t ix) {
                        return x->get((p * std::size_t(H) + std::size_t(iy)) * std::size_t(W) + std::size_t(ix));
                    };
                    if (!bilinear) {
                        const auto iy = std::min(std::int64_t(std::floor(double(y) * sh)), H - 1);
                        const auto ix = std::min(std::int64_t(std::floor(double(xo) * sw)), W - 1);
                        r[dst] = at(iy, ix);
                        continue;
                    }
                    auto source = [&](std::int64_t i, double s) {
                        return alignCorners != 0 ? double(i) * s : std::max((double(i) + 0.5) * s - 0.5, 0.0);
                    };
                    const double fy = source(y, sh), fx = source(xo, sw);
                    const auto y0 = std::min(std::int64_t(fy), H - 1), x0 = std::min(std::int64_t(fx), W - 1);
                    const auto y1 = std::min(y0 + 1, H - 1), x1 = std::min(x0 + 1, W - 1);
                    const double ly = fy - double(y0), lx = fx - double(x0);
                    r[dst] = (1 - ly) * ((1 - lx) * at(y0, x0) + lx * at(y0, x1))
                        + ly * ((1 - lx) * at(y1, x0) + lx * at(y1, x1));
                }
        store(*o, r);
        return true;
    }
    return false;
}

Result<bool> More::normalization()
{
    if (op == "aten::native_group_norm.out") {
        // [input, weight?, bias?, N, C, HxW, group, eps, out0, out1 (mean [N, G]), out2 (rstd [N, G]), ret]
        PTE_CHECK(need(12));
        PTE_TRY(auto x, tensor(0));
        PTE_TRY(auto weight, d.optionalTensor(arg(1)));
        PTE_TRY(auto bias, d.optionalTensor(arg(2)));
        PTE_TRY(const double nD, scalar(3));
        PTE_TRY(const double cD, scalar(4));
        PTE_TRY(const double hwD, scalar(5));
        PTE_TRY(const double gD, scalar(6));
        PTE_TRY(const double eps, scalar(7));
        PTE_TRY(auto out, tensor(8));
        PTE_TRY(auto meanOut, tensor(9));
        PTE_TRY(auto rstdOut, tensor(10));
        const auto N = std::size_t(nD), C = std::size_t(cD), HW = std::size_t(hwD), G = std::size_t(gD);
        if (G == 0 || C % G != 0 || N * C * HW != x->numel())
            return invalid("N, C, HxW and group do not match the input");
        PTE_CHECK(d.resize(*out, x->sizes));
        PTE_CHECK(d.resize(*meanOut, { std::int64_t(N), std::int64_t(G) }));
        PTE_CHECK(d.resize(*rstdOut, { std::int64_t(N), std::int64_t(G) }));
        const std::size_t per = C / G * HW;
        std::vector<double> r(x->numel()), means(N * G), rstds(N * G);
        for (std::size_t n = 0; n < N; ++n)
            for (std::size_t g = 0; g < G; ++g) {
                const std::size_t base = (n * G + g) * per;
                double mean = 0;
                for (std::size_t e = 0; e < per; ++e)
                    mean += x->get(base + e);
                mean /= double(std::max<std::size_t>(per, 1));
                double var = 0;
                for (std::size_t e = 0; e < per; ++e)
                    var += (x->get(base + e) - mean) * (x->get(base + e) - mean);
                var /= double(std::max<std::size_t>(per, 1));
                const double rstd = 1.0 / std::sqrt(var + eps);
                means[n * G + g] = mean;
                rstds[n * G + g] = rstd;
                for (std::size_t e = 0; e < per; ++e) {
                    const std::size_t c = g * (C / G) + e / HW;
                    r[base + e] = (x->get(base + e) - mean) * rstd * (weight ? weight->get(c) : 1.0)
                        + (bias ? bias->get(c) : 0.0);
                }
            }
        store(*out, r);
        store(*meanOut, means);
        store(*rstdOut, rstds);
        return true;
    }
    return false;
}

Result<bool> More::run()
{
    if (ns != "aten")
        return false;
    for (auto group : { &More::elementwise, &More::reductions, &More::indexing, &More::layout, &More::normalization }) {
        PTE_TRY(const bool done, (this->*group)());
        if (done)
            return true;
    }
    return false;
}

} // namespace

Result<bool> ReferenceInterpreter::Impl::moreKernel(const std::string& op, const std::vector<std::int32_t>& a)
{
    return More(*this, op, a).run();
}

} // namespace pte
