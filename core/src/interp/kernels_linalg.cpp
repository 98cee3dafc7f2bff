// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// Matrix products: mm, addmm, bmm.
#include "interp/kernel.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace pte::interp {

namespace {

/** sum over q < n of a[a0 + q * as] * b[b0 + q * bs], accumulated in the element type as the portable kernels do
 *  (float sums in float, in order), so long sums round as they do on the runtime. */
double dotProduct(const TensorState& a, std::size_t a0, std::size_t as, const TensorState& b, std::size_t b0,
    std::size_t bs, std::size_t n)
{
    if (a.dtype == ScalarType::Float && b.dtype == ScalarType::Float) {
        float acc = 0;
        for (std::size_t q = 0; q < n; ++q)
            acc += float(a.get(a0 + q * as)) * float(b.get(b0 + q * bs));
        return acc;
    }
    double acc = 0;
    for (std::size_t q = 0; q < n; ++q)
        acc += a.get(a0 + q * as) * b.get(b0 + q * bs);
    return acc;
}

struct Linalg : Kernel
{
    using Kernel::Kernel;

    Result<void> mm()
    {
        // mm: [self, mat2, out, ret]; addmm: [self, mat1, mat2, beta, alpha, out, ret]
        const bool add = name == "addmm";
        PTE_CHECK(need(add ? 7 : 4));
        PTE_TRY(auto m1, tensor(arg(add ? 1 : 0)));
        PTE_TRY(auto m2, tensor(arg(add ? 2 : 1)));
        PTE_TRY(auto out, tensor(arg(add ? 5 : 2)));
        if (m1->dtype != m2->dtype || m1->dtype != out->dtype) // as the portable kernels (tensors_have_same_dtype)
            return fail(ErrorCode::InvalidInput, where() + ": " + op + ": the tensors do not have the same dtype");
        if (m1->sizes.size() != 2 || m2->sizes.size() != 2 || m1->sizes[1] != m2->sizes[0])
            return fail(ErrorCode::InvalidInput, where() + ": " + op + ": matrix shapes do not match");
        const auto n = std::size_t(m1->sizes[0]);
        const auto k = std::size_t(m1->sizes[1]);
        const auto m = std::size_t(m2->sizes[1]);
        std::vector<std::int64_t> shape { std::int64_t(n), std::int64_t(m) };
        double beta = 0;
        double alpha = 1;
        std::shared_ptr<TensorState> bias;
        if (add) {
            {
                PTE_TRY(bias, tensor(arg(0)));
            }
            {
                PTE_TRY(beta, scalar(arg(3)));
            }
            {
                PTE_TRY(alpha, scalar(arg(4)));
            }
        }
        PTE_CHECK(resize(*out, shape));
        std::vector<double> r(n * m);
        for (std::size_t i = 0; i < n; ++i)
            for (std::size_t j = 0; j < m; ++j) {
                const double acc = dotProduct(*m1, i * k, 1, *m2, j, m, k);
                r[i * m + j] =
                    alpha * acc + (bias ? beta * bias->get(broadcastIndex(shape, bias->sizes, i * m + j)) : 0);
            }
        store(*out, r);
        return {};
    }

    // [self, mat2, out, ret]
    Result<void> bmm()
    {
        PTE_CHECK(need(4));
        PTE_TRY(auto m1, tensor(arg(0)));
        PTE_TRY(auto m2, tensor(arg(1)));
        PTE_TRY(auto out, tensor(arg(2)));
        if (m1->dtype != m2->dtype || m1->dtype != out->dtype)
            return fail(ErrorCode::InvalidInput, where() + ": " + op + ": the tensors do not have the same dtype");
        if (m1->sizes.size() != 3 || m2->sizes.size() != 3 || m1->sizes[0] != m2->sizes[0]
            || m1->sizes[2] != m2->sizes[1])
            return fail(ErrorCode::InvalidInput, where() + ": bmm: batch matrix shapes do not match");
        const auto b = std::size_t(m1->sizes[0]);
        const auto n = std::size_t(m1->sizes[1]);
        const auto k = std::size_t(m1->sizes[2]);
        const auto m = std::size_t(m2->sizes[2]);
        PTE_CHECK(resize(*out, { m1->sizes[0], m1->sizes[1], m2->sizes[2] }));
        std::vector<double> r(b * n * m);
        for (std::size_t p = 0; p < b; ++p)
            for (std::size_t i = 0; i < n; ++i)
                for (std::size_t j = 0; j < m; ++j)
                    r[(p * n + i) * m + j] = dotProduct(*m1, (p * n + i) * k, 1, *m2, p * k * m + j, m, k);
        store(*out, r);
        return {};
    }
    /** The p-norm of the differences f(k) for k < n: p = 0 counts the nonzero ones, p = inf takes the largest. */
    static double pNorm(double p, std::size_t n, const std::function<double(std::size_t)>& f)
    {
        double acc = 0;
        for (std::size_t k = 0; k < n; ++k) {
            const double v = std::fabs(f(k));
            if (p == 0)
                acc += v != 0 ? 1.0 : 0.0;
            else if (std::isinf(p))
                acc = std::max(acc, v);
            else
                acc += std::pow(v, p);
        }
        return p == 0 || std::isinf(p) ? acc : std::pow(acc, 1.0 / p);
    }

    // [x1, x2, p, compute_mode?, out, ret]: x1 [..., P, M], x2 [..., R, M] -> [..., P, R], the p-norm distances of
    // their rows (the batch dimensions equal)
    Result<void> cdist()
    {
        PTE_CHECK(need(6));
        PTE_TRY(auto x1, tensorAt(0));
        PTE_TRY(auto x2, tensorAt(1));
        PTE_TRY(const double p, scalarAt(2));
        PTE_TRY(auto out, tensorAt(4));
        const std::size_t rank = x1->sizes.size();
        if (rank < 2 || x2->sizes.size() != rank || x1->sizes.back() != x2->sizes.back()
            || !std::equal(x1->sizes.begin(), x1->sizes.end() - 2, x2->sizes.begin()))
            return invalid("x1 and x2 do not match");
        const auto P = std::size_t(x1->sizes[rank - 2]);
        const auto R = std::size_t(x2->sizes[rank - 2]);
        const auto M = std::size_t(x1->sizes.back());
        std::vector<std::int64_t> shape = x1->sizes;
        shape.back() = std::int64_t(R);
        PTE_CHECK(resize(*out, shape));
        const std::size_t batches = x1->numel() / std::max<std::size_t>(P * M, 1);
        std::vector<double> r(batches * P * R);
        for (std::size_t b = 0; b < batches; ++b)
            for (std::size_t i = 0; i < P; ++i)
                for (std::size_t j = 0; j < R; ++j)
                    r[(b * P + i) * R + j] = pNorm(p, M,
                        [&](std::size_t k) { return x1->get((b * P + i) * M + k) - x2->get((b * R + j) * M + k); });
        store(*out, r);
        return {};
    }

    // [self, p, out, ret]: the p-norm distances of the pairs of rows i < j of self [N, M], in order
    Result<void> pdist()
    {
        PTE_CHECK(need(4));
        PTE_TRY(auto x, tensorAt(0));
        PTE_TRY(const double p, scalarAt(1));
        PTE_TRY(auto out, tensorAt(2));
        if (x->sizes.size() != 2)
            return invalid("needs a 2-D input");
        const auto N = std::size_t(x->sizes[0]);
        const auto M = std::size_t(x->sizes[1]);
        std::vector<double> r;
        for (std::size_t i = 0; i < N; ++i)
            for (std::size_t j = i + 1; j < N; ++j)
                r.push_back(pNorm(p, M, [&](std::size_t k) { return x->get(i * M + k) - x->get(j * M + k); }));
        PTE_CHECK(resize(*out, { std::int64_t(r.size()) }));
        store(*out, r);
        return {};
    }
};

} // namespace

void registerLinalgKernels(KernelRegistry& registry)
{
    using F = Linalg;
    registry.add("aten::mm.out", invoke<F, &F::mm>);
    registry.add("aten::addmm.out", invoke<F, &F::mm>);
    registry.add("aten::bmm.out", invoke<F, &F::bmm>);
    registry.add("aten::_cdist_forward.out", invoke<F, &F::cdist>);
    registry.add("aten::_pdist_forward.out", invoke<F, &F::pdist>);
}

} // namespace pte::interp
