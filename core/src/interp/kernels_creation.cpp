// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// Kernels that create tensors: full, zeros/ones, arange, scalar_tensor, and the fixed pseudo-random rand and dropout.
#include "interp/kernel.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace pte::interp {

namespace {

/** The fixed pseudo-random sequence of rand and dropout: xorshift32 from a fixed seed, as doubles in [0, 1). */
class UniformSequence
{
public:
    double next()
    {
        m_state ^= m_state << 13;
        m_state ^= m_state >> 17;
        m_state ^= m_state << 5;
        return double(m_state) / 4294967296.0;
    }

private:
    std::uint32_t m_state = 2463534242u;
};

struct Creation : Kernel
{
    using Kernel::Kernel;

    // [size, fill_value, out, ret]
    Result<void> full()
    {
        PTE_CHECK(need(4));
        PTE_TRY(const auto size, intList(arg(0)));
        PTE_TRY(const double fill, scalar(arg(1)));
        PTE_TRY(auto out, tensor(arg(2)));
        PTE_CHECK(resize(*out, size));
        for (std::size_t e = 0; e < out->numel(); ++e)
            out->set(e, fill);
        return {};
    }

    // [size, out, ret]
    Result<void> zeros()
    {
        PTE_CHECK(need(3));
        PTE_TRY(const auto size, intList(arg(0)));
        PTE_TRY(auto out, tensor(arg(1)));
        PTE_CHECK(resize(*out, size));
        for (std::size_t e = 0; e < out->numel(); ++e)
            out->set(e, name == "ones" ? 1.0 : 0.0);
        return {};
    }

    // [self, fill_value, memory_format?, out, ret]
    Result<void> fullLike()
    {
        PTE_CHECK(need(5));
        PTE_TRY(auto self, tensor(arg(0)));
        PTE_TRY(const double fill, scalar(arg(1)));
        PTE_TRY(auto out, tensor(arg(3)));
        PTE_CHECK(resize(*out, self->sizes));
        for (std::size_t e = 0; e < out->numel(); ++e)
            out->set(e, fill);
        return {};
    }

    Result<void> arange()
    {
        // arange.out: [end, out, ret]; arange.start_out: [start, end, step, out, ret]
        const bool start = overload == "start_out";
        PTE_CHECK(need(start ? 5 : 3));
        double from = 0;
        double step = 1;
        PTE_TRY(const double end, scalar(arg(start ? 1 : 0)));
        if (start) {
            {
                PTE_TRY(from, scalar(arg(0)));
            }
            {
                PTE_TRY(step, scalar(arg(2)));
            }
        }
        PTE_TRY(auto out, tensor(arg(start ? 3 : 1)));
        if (step == 0)
            return fail(ErrorCode::InvalidInput, where() + ": arange step is zero");
        const auto n = std::int64_t(std::max(0.0, std::ceil((end - from) / step)));
        PTE_CHECK(resize(*out, { n }));
        for (std::int64_t e = 0; e < n; ++e)
            out->set(std::size_t(e), from + double(e) * step);
        return {};
    }

    // [input, p, train?, out0, out1, ret]
    Result<void> nativeDropout()
    {
        // Elements are kept with probability 1 - p (a fixed pseudo-random sequence) and scaled by 1 / (1 - p);
        // out1 is the Bool keep mask. Not training: the identity with an all-true mask.
        PTE_CHECK(need(6));
        PTE_TRY(auto in, tensor(arg(0)));
        PTE_TRY(const double p, scalar(arg(1)));
        bool train = true;
        if (!isNull(arg(2))) {
            PTE_TRY(const double t, scalar(arg(2)));
            train = t != 0;
        }
        PTE_TRY(auto out, tensor(arg(3)));
        PTE_TRY(auto mask, tensor(arg(4)));
        if (p < 0 || p > 1)
            return fail(ErrorCode::InvalidInput, where() + ": dropout probability outside [0, 1]");
        PTE_CHECK(resize(*out, in->sizes));
        PTE_CHECK(resize(*mask, in->sizes));
        UniformSequence uniform;
        for (std::size_t e = 0; e < in->numel(); ++e) {
            const double u = uniform.next();
            const bool keep = !train || u >= p;
            out->set(e, keep ? (train ? in->get(e) / (1 - p) : in->get(e)) : 0.0);
            mask->set(e, keep ? 1 : 0);
        }
        return {};
    }

    // [size, out, ret]: uniform in [0, 1) from a fixed xorshift sequence
    Result<void> rand()
    {
        PTE_CHECK(need(3));
        PTE_TRY(const auto size, intList(arg(0)));
        PTE_TRY(auto out, tensor(arg(1)));
        PTE_CHECK(resize(*out, size));
        UniformSequence uniform;
        for (std::size_t e = 0; e < out->numel(); ++e)
            out->set(e, uniform.next());
        return {};
    }

    // [s, out, ret]
    Result<void> scalarTensor()
    {
        PTE_CHECK(need(3));
        PTE_TRY(const double v, scalarAt(0));
        PTE_TRY(auto o, tensorAt(1));
        PTE_CHECK(d.resize(*o, {}));
        o->set(0, v);
        return {};
    }
    // [size, out, ret]: standard normal samples, by the Box-Muller transform of the fixed uniform sequence
    Result<void> randn()
    {
        PTE_CHECK(need(3));
        PTE_TRY(const auto size, intList(arg(0)));
        PTE_TRY(auto out, tensor(arg(1)));
        PTE_CHECK(resize(*out, size));
        UniformSequence uniform;
        for (std::size_t e = 0; e < out->numel(); e += 2) {
            const double u1 = 1.0 - uniform.next(); // in (0, 1]
            const double u2 = uniform.next();
            const double radius = std::sqrt(-2.0 * std::log(u1));
            out->set(e, radius * std::cos(2 * M_PI * u2));
            if (e + 1 < out->numel())
                out->set(e + 1, radius * std::sin(2 * M_PI * u2));
        }
        return {};
    }

    // [size, dim_order?, out, ret]: a tensor of the size (its elements left as zeros)
    Result<void> emptyDimOrder()
    {
        PTE_CHECK(need(4));
        PTE_TRY(const auto size, intList(arg(0)));
        PTE_TRY(auto out, tensor(arg(2)));
        PTE_CHECK(resize(*out, size));
        store(*out, std::vector<double>(out->numel(), 0.0));
        return {};
    }
};

} // namespace

void registerCreationKernels(KernelRegistry& registry)
{
    using F = Creation;
    registry.add("aten::full.out", invoke<F, &F::full>);
    registry.add("aten::zeros.out", invoke<F, &F::zeros>);
    registry.add("aten::ones.out", invoke<F, &F::zeros>);
    registry.add("aten::full_like.out", invoke<F, &F::fullLike>);
    registry.add("aten::arange.out", invoke<F, &F::arange>);
    registry.add("aten::arange.start_out", invoke<F, &F::arange>);
    registry.add("aten::native_dropout.out", invoke<F, &F::nativeDropout>);
    registry.add("aten::rand.out", invoke<F, &F::rand>);
    registry.add("aten::scalar_tensor.out", invoke<F, &F::scalarTensor>);
    registry.add("aten::randn.out", invoke<F, &F::randn>);
    registry.add("dim_order_ops::_empty_dim_order.out", invoke<F, &F::emptyDimOrder>);
}

} // namespace pte::interp
