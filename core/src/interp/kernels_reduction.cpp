// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// Reductions: sums and means, extrema and their indices, variance, products, cumulative sums, any, topk.
#include "interp/kernel.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace pte::interp {

namespace {

struct Reduction : Kernel
{
    using Kernel::Kernel;

    Result<void> sum()
    {
        // sum.IntList_out and mean.out: [self, dim?, keepdim, dtype?, out, ret]; mean.dtype_out: [self, dtype?,
        // out, ret] (over everything); amax: [self, dim, keepdim, out, ret]; argmax: [self, dim?, keepdim, out,
        // ret] (no dim: the flat index over everything)
        const bool sum = name == "sum";
        const bool mean = name == "mean";
        const bool meanAll = overload == "dtype_out";
        PTE_CHECK(need(meanAll ? 4 : mean || sum ? 6 : 5));
        PTE_TRY(auto self, tensor(arg(0)));
        double keep = 0;
        if (!meanAll) {
            PTE_TRY(keep, scalar(arg(2)));
        }
        PTE_TRY(auto out, tensor(arg(meanAll ? 2 : mean || sum ? 4 : 3)));
        std::vector<std::int64_t> dims;
        if (!meanAll && !isNull(arg(1))) {
            if (name == "argmax") {
                PTE_TRY(const double d, scalar(arg(1)));
                dims.push_back(std::int64_t(d));
            } else {
                PTE_TRY(dims, intList(arg(1)));
            }
        }
        const auto red = reduction(self->sizes, dims, keep != 0);
        if (!red)
            return fail(ErrorCode::InvalidInput, where() + ": " + op + ": dimension out of range");
        const std::vector<bool>& reduce = red->first;
        PTE_CHECK(resize(*out, red->second));
        std::vector<double> acc(out->numel(), mean || sum ? 0.0 : -INFINITY);
        std::vector<double> where_(out->numel(), -1);
        std::vector<std::size_t> count(out->numel(), 0);
        for (std::size_t e = 0; e < self->numel(); ++e) {
            const auto [index, coord] = reducedPosition(self->sizes, reduce, e);
            const std::size_t along = dims.empty() ? e : coord; // position along the reduced dimension (argmax)
            const double v = self->get(e);
            ++count[index];
            if (mean || sum) {
                acc[index] += v;
            } else if (v > acc[index] || std::isnan(v) || where_[index] < 0) { // first maximum wins
                acc[index] = v;
                where_[index] = double(along);
            }
        }
        for (std::size_t e = 0; e < acc.size(); ++e)
            out->set(e,
                mean                        ? acc[e] / double(std::max<std::size_t>(count[e], 1))
                    : sum || name == "amax" ? acc[e]
                                            : where_[e]);
        return {};
    }

    Result<void> var()
    {
        // var.correction_out: [self, dim?, correction?, keepdim, out, ret] (correction None = 1);
        // var.out: [self, dim?, unbiased, keepdim, out, ret]. Over every dimension when dim is None.
        PTE_CHECK(need(6));
        PTE_TRY(auto self, tensor(arg(0)));
        double correction = 1;
        if (!isNull(arg(2))) {
            PTE_TRY(correction, scalar(arg(2)));
        }
        PTE_TRY(const double keep, scalar(arg(3)));
        PTE_TRY(auto out, tensor(arg(4)));
        std::vector<std::int64_t> dims;
        if (!isNull(arg(1))) {
            PTE_TRY(dims, intList(arg(1)));
        }
        const auto red = reduction(self->sizes, dims, keep != 0);
        if (!red)
            return fail(ErrorCode::InvalidInput, where() + ": " + op + ": dimension out of range");
        const std::vector<bool>& reduce = red->first;
        PTE_CHECK(resize(*out, red->second));
        // index of each input element's output element
        std::vector<std::size_t> to(self->numel());
        for (std::size_t e = 0; e < to.size(); ++e)
            to[e] = reducedPosition(self->sizes, reduce, e).first;
        std::vector<double> mean(out->numel(), 0.0), sq(out->numel(), 0.0);
        std::vector<double> count(out->numel(), 0.0);
        for (std::size_t e = 0; e < to.size(); ++e) {
            mean[to[e]] += self->get(e);
            count[to[e]] += 1;
        }
        for (std::size_t k = 0; k < mean.size(); ++k)
            mean[k] /= std::max(count[k], 1.0);
        for (std::size_t e = 0; e < to.size(); ++e)
            sq[to[e]] += (self->get(e) - mean[to[e]]) * (self->get(e) - mean[to[e]]);
        std::vector<double> r(out->numel());
        for (std::size_t k = 0; k < r.size(); ++k)
            r[k] = sq[k] / std::max(count[k] - correction, 0.0);
        store(*out, r);
        return {};
    }

    // [self, dim, keepdim, out, ret]
    Result<void> amin()
    {
        PTE_CHECK(need(5));
        PTE_TRY(auto x, tensorAt(0));
        PTE_TRY(const auto dims, d.intList(arg(1)));
        PTE_TRY(const double keep, scalarAt(2));
        PTE_TRY(auto o, tensorAt(3));
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
        return {};
    }

    Result<void> any()
    {
        // any.out: [self, dim, keepdim, out, ret]; any.dims_out: [self, dim?, keepdim, out, ret]; all_out: [self, out,
        // ret]
        const bool all = overload == "all_out";
        PTE_CHECK(need(all ? 3 : 5));
        PTE_TRY(auto x, tensorAt(0));
        std::vector<std::int64_t> dims;
        double keep = 0;
        if (!all) {
            if (overload == "out") {
                PTE_TRY(const double dim, scalarAt(1));
                dims.push_back(std::int64_t(dim));
            } else if (!d.isNull(arg(1))) {
                PTE_TRY(dims, d.intList(arg(1)));
            }
            PTE_TRY(keep, scalarAt(2));
        }
        PTE_TRY(auto o, tensorAt(all ? 1 : 3));
        const auto red = reduction(x->sizes, dims, keep != 0);
        if (!red)
            return invalid("dimension out of range");
        PTE_CHECK(d.resize(*o, red->second));
        std::vector<double> r(o->numel(), 0.0);
        for (std::size_t e = 0; e < x->numel(); ++e)
            if (x->get(e) != 0)
                r[reducedPosition(x->sizes, red->first, e).first] = 1;
        store(*o, r);
        return {};
    }

    // [self, dim?, keepdim, out, ret]; no dim: the flat index over everything
    Result<void> argmin()
    {
        PTE_CHECK(need(5));
        PTE_TRY(auto x, tensorAt(0));
        PTE_TRY(const double keep, scalarAt(2));
        PTE_TRY(auto o, tensorAt(3));
        std::vector<std::int64_t> dims;
        if (!d.isNull(arg(1))) {
            PTE_TRY(const double dim, scalarAt(1));
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
        return {};
    }

    Result<void> max()
    {
        // [self, dim, keepdim, values, indices, ret]: the first extreme along dim and its index; NaN propagates
        PTE_CHECK(need(6));
        PTE_TRY(auto x, tensorAt(0));
        PTE_TRY(const auto dim, dimArg(1, x->sizes.size()));
        PTE_TRY(const double keep, scalarAt(2));
        PTE_TRY(auto values, tensorAt(3));
        PTE_TRY(auto indices, tensorAt(4));
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
        return {};
    }

    Result<void> prod()
    {
        // prod.int_out: [self, dim, keepdim, dtype?, out, ret]; prod.out: [self, dtype?, out, ret] (over everything)
        const bool all = overload == "out";
        PTE_CHECK(need(all ? 4 : 6));
        PTE_TRY(auto x, tensorAt(0));
        std::vector<std::int64_t> dims;
        double keep = 0;
        if (!all) {
            PTE_TRY(const double dim, scalarAt(1));
            dims.push_back(std::int64_t(dim));
            PTE_TRY(keep, scalarAt(2));
        }
        PTE_TRY(auto o, tensorAt(all ? 2 : 4));
        const auto red = reduction(x->sizes, dims, keep != 0);
        if (!red)
            return invalid("dimension out of range");
        PTE_CHECK(d.resize(*o, red->second));
        std::vector<double> r(o->numel(), 1.0);
        for (std::size_t e = 0; e < x->numel(); ++e)
            r[reducedPosition(x->sizes, red->first, e).first] *= x->get(e);
        store(*o, r);
        return {};
    }

    // [self, dim, dtype?, out, ret]
    Result<void> cumsum()
    {
        PTE_CHECK(need(5));
        PTE_TRY(auto x, tensorAt(0));
        PTE_TRY(const auto dim, dimArg(1, x->sizes.size()));
        PTE_TRY(auto o, tensorAt(3));
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
        return {};
    }

    Result<void> varMean()
    {
        // [self, dim?, correction?, keepdim, out0 (var), out1 (mean), ret]; correction None = 1
        PTE_CHECK(need(7));
        PTE_TRY(auto x, tensorAt(0));
        std::vector<std::int64_t> dims;
        if (!d.isNull(arg(1))) {
            PTE_TRY(dims, d.intList(arg(1)));
        }
        double correction = 1;
        if (!d.isNull(arg(2))) {
            PTE_TRY(correction, scalarAt(2));
        }
        PTE_TRY(const double keep, scalarAt(3));
        PTE_TRY(auto var, tensorAt(4));
        PTE_TRY(auto mean, tensorAt(5));
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
        return {};
    }

    // [self, k, dim, largest, sorted, values, indices, ret]
    Result<void> topk()
    {
        PTE_CHECK(need(8));
        PTE_TRY(auto x, tensorAt(0));
        PTE_TRY(const double kD, scalarAt(1));
        PTE_TRY(const auto dim, dimArg(2, x->sizes.size()));
        PTE_TRY(const double largest, scalarAt(3));
        PTE_TRY(auto values, tensorAt(5));
        PTE_TRY(auto indices, tensorAt(6));
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
        return {};
    }
    // max.unary_out / min.unary_out [self, out, ret]: the largest (smallest) element, NaN when any is NaN
    Result<void> extremeOfAll()
    {
        PTE_CHECK(need(3));
        PTE_TRY(auto x, tensorAt(0));
        PTE_TRY(auto out, tensorAt(1));
        if (x->numel() == 0)
            return invalid("of an empty tensor");
        const bool isMax = name == "max";
        double r = x->get(0);
        for (std::size_t e = 1; e < x->numel() && !std::isnan(r); ++e) {
            const double v = x->get(e);
            if (std::isnan(v) || (isMax ? v > r : v < r))
                r = v;
        }
        PTE_CHECK(resize(*out, {}));
        out->set(0, r);
        return {};
    }
};

} // namespace

void registerReductionKernels(KernelRegistry& registry)
{
    using F = Reduction;
    registry.add("aten::sum.IntList_out", invoke<F, &F::sum>);
    registry.add("aten::mean.out", invoke<F, &F::sum>);
    registry.add("aten::mean.dtype_out", invoke<F, &F::sum>);
    registry.add("aten::amax.out", invoke<F, &F::sum>);
    registry.add("aten::argmax.out", invoke<F, &F::sum>);
    registry.add("aten::var.correction_out", invoke<F, &F::var>);
    registry.add("aten::var.out", invoke<F, &F::var>);
    registry.add("aten::amin.out", invoke<F, &F::amin>);
    registry.add("aten::any.out", invoke<F, &F::any>);
    registry.add("aten::any.all_out", invoke<F, &F::any>);
    registry.add("aten::any.dims_out", invoke<F, &F::any>);
    registry.add("aten::argmin.out", invoke<F, &F::argmin>);
    registry.add("aten::max.dim_max", invoke<F, &F::max>);
    registry.add("aten::min.dim_min", invoke<F, &F::max>);
    registry.add("aten::prod.int_out", invoke<F, &F::prod>);
    registry.add("aten::prod.out", invoke<F, &F::prod>);
    registry.add("aten::cumsum.out", invoke<F, &F::cumsum>);
    registry.add("aten::var_mean.correction_out", invoke<F, &F::varMean>);
    registry.add("aten::topk.values", invoke<F, &F::topk>);
    registry.add("aten::max.unary_out", invoke<F, &F::extremeOfAll>);
    registry.add("aten::min.unary_out", invoke<F, &F::extremeOfAll>);
}

} // namespace pte::interp
