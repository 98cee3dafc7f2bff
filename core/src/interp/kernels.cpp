// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// The portable kernels the reference interpreter runs, on float/int/bool elements.
#include "interp/interpreterimpl.h"
#include "interp/kernelutil.h"
#include "pte/operatorname.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <functional>
#include <map>
#include <numeric>
#include <optional>

namespace pte {

namespace interp {

void store(TensorState& out, const std::vector<double>& values)
{
    for (std::size_t e = 0; e < values.size(); ++e)
        out.set(e, values[e]);
}

} // namespace interp

using namespace interp;

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

/**
 * The window geometry max_pool2d and avg_pool2d share: parameters given once or per spatial dimension, an empty
 * stride meaning the kernel size, and PyTorch's output-size rule (with ceil_mode, the last window must start inside
 * the input or its left padding). nullopt for an input that is not 3-D or 4-D.
 */
struct Pool2d
{
    std::vector<std::int64_t> kernel, stride, padding, dilation;
    std::int64_t H = 0, W = 0, planes = 0, OH = 0, OW = 0;
    std::vector<std::int64_t> outShape;

    static std::int64_t at(const std::vector<std::int64_t>& v, std::size_t k) { return v.size() == 1 ? v[0] : v.at(k); }

    static std::optional<Pool2d> make(const TensorState& in, std::vector<std::int64_t> kernel,
        std::vector<std::int64_t> stride, std::vector<std::int64_t> padding, std::vector<std::int64_t> dilation,
        bool ceilMode)
    {
        const std::size_t rank = in.sizes.size();
        if ((rank != 3 && rank != 4) || kernel.empty() || padding.empty() || dilation.empty())
            return std::nullopt;
        Pool2d g;
        g.stride = stride.empty() ? kernel : std::move(stride);
        g.kernel = std::move(kernel);
        g.padding = std::move(padding);
        g.dilation = std::move(dilation);
        g.H = in.sizes[rank - 2];
        g.W = in.sizes[rank - 1];
        g.planes = std::int64_t(in.numel()) / std::max<std::int64_t>(g.H * g.W, 1);
        auto outSize = [&](std::int64_t size, std::size_t k) {
            const auto span = size + 2 * at(g.padding, k) - at(g.dilation, k) * (at(g.kernel, k) - 1) - 1;
            const auto st = at(g.stride, k);
            auto o = (ceilMode ? (span + st - 1) / st : span / st) + 1;
            if (ceilMode && (o - 1) * st >= size + at(g.padding, k))
                --o;
            return o;
        };
        g.OH = outSize(g.H, 0);
        g.OW = outSize(g.W, 1);
        g.outShape = in.sizes;
        g.outShape[rank - 2] = g.OH;
        g.outShape[rank - 1] = g.OW;
        return g;
    }
};

} // namespace

namespace {

bool isChannelsLast(const std::vector<std::uint8_t>& order)
{
    if (order.size() != 4 && order.size() != 5)
        return false;
    if (order[0] != 0 || order.back() != 1)
        return false;
    for (std::size_t k = 1; k + 1 < order.size(); ++k)
        if (order[k] != k + 1)
            return false;
    return true;
}

} // namespace

Result<void> ReferenceInterpreter::Impl::checkDimOrders(const std::string& op, const std::vector<std::int32_t>& a) const
{
    // ExecuTorch's portable kernels accept their tensors only when all are in the contiguous dim order or all in the
    // channels-last one ("N input tensors have different dim orders"); tensors of other ranks count too. A
    // convolution checks its input against its output only (its weight and bias may differ).
    std::vector<const TensorState*> tensors;
    auto add = [&](std::int64_t id) {
        if (id < 0 || std::size_t(id) >= slots.size())
            return;
        const Slot& s = slots[std::size_t(id)];
        if (s.kind == ValueKind::Tensor && s.t) {
            tensors.push_back(s.t.get());
        } else if (s.kind == ValueKind::TensorList || s.kind == ValueKind::OptionalTensorList) {
            for (const auto item : s.ids)
                if (item >= 0 && std::size_t(item) < slots.size() && slots[std::size_t(item)].t)
                    tensors.push_back(slots[std::size_t(item)].t.get());
        }
    };
    if (op == "aten::convolution.out") {
        if (a.size() > 9) {
            add(a[0]);
            add(a[9]);
        }
    } else {
        for (const auto id : a)
            add(id);
    }
    bool allContiguous = true;
    bool allChannelsLast = true;
    for (const auto* t : tensors) {
        allContiguous = allContiguous && t->contiguous();
        allChannelsLast = allChannelsLast && isChannelsLast(t->dimOrder);
    }
    if (tensors.size() >= 2 && !allContiguous && !allChannelsLast)
        return fail(ErrorCode::InvalidInput,
            where() + ": " + op + ": " + std::to_string(tensors.size())
                + " input tensors have different dim orders (ExecuTorch's kernels need all contiguous or all "
                  "channels-last)");
    return {};
}

Result<void> ReferenceInterpreter::Impl::kernel(const std::string& op, const std::vector<std::int32_t>& a)
{
    auto arg = [&](std::size_t k) -> std::int64_t { return k < a.size() ? a[k] : -1; };
    auto need = [&](std::size_t n) -> Result<void> {
        if (a.size() != n)
            return fail(ErrorCode::InvalidInput,
                where() + ": " + op + " takes " + std::to_string(n) + " arguments, got " + std::to_string(a.size()));
        return {};
    };
    // out[i] = f(x[bcast], y[bcast])
    auto binary = [&](std::int64_t x, std::int64_t y, bool yScalar, std::int64_t out,
                      const std::function<double(double, double)>& f) -> Result<void> {
        PTE_TRY(auto tx, tensor(x));
        PTE_TRY(auto to, tensor(out));
        std::shared_ptr<TensorState> ty;
        double sy = 0;
        std::vector<std::int64_t> shape = tx->sizes;
        if (yScalar) {
            {
                PTE_TRY(sy, scalar(y));
            }
        } else {
            {
                PTE_TRY(ty, tensor(y));
            }
            shape = broadcastShape(tx->sizes, ty->sizes);
            if (shape.empty() && !(tx->sizes.empty() && ty->sizes.empty()))
                return fail(ErrorCode::InvalidInput, where() + ": " + op + ": shapes do not broadcast");
        }
        PTE_CHECK(resize(*to, shape));
        std::vector<double> result(to->numel());
        for (std::size_t e = 0; e < result.size(); ++e)
            result[e] =
                f(tx->get(broadcastIndex(shape, tx->sizes, e)), ty ? ty->get(broadcastIndex(shape, ty->sizes, e)) : sy);
        store(*to, result);
        return {};
    };
    // [tensors, dim, out, ret] of cat and stack: the tensors, the dimension normalised against the output's rank (the
    // tensors' rank + `extraRank`), the output.
    struct ListArgs
    {
        std::vector<std::shared_ptr<TensorState>> parts;
        std::size_t dim = 0;
        std::shared_ptr<TensorState> out;
    };
    auto listArgs = [&](std::int64_t extraRank) -> Result<ListArgs> {
        PTE_CHECK(need(4));
        PTE_TRY(auto parts, tensorList(arg(0)));
        PTE_TRY(const double dimD, scalar(arg(1)));
        PTE_TRY(auto out, tensor(arg(2)));
        if (parts.empty())
            return fail(ErrorCode::InvalidInput, where() + ": " + op + " of no tensors");
        const auto dim = dimIndex(dimD, std::int64_t(parts[0]->sizes.size()) + extraRank);
        if (!dim)
            return fail(ErrorCode::InvalidInput, where() + ": " + op + " dimension out of range");
        return ListArgs { std::move(parts), *dim, std::move(out) };
    };
    // The input and window of max_pool2d / avg_pool2d: [self, kernel_size, stride, padding, ..., ceil_mode at
    // `ceilArg`].
    auto poolWindow =
        [&](const std::vector<std::int64_t>& dilation,
            std::size_t ceilArg) -> Result<std::pair<std::shared_ptr<TensorState>, std::optional<Pool2d>>> {
        PTE_TRY(auto in, tensor(arg(0)));
        PTE_TRY(const auto kernelSize, intList(arg(1)));
        PTE_TRY(const auto stride, intList(arg(2)));
        PTE_TRY(const auto padding, intList(arg(3)));
        PTE_TRY(const double ceilMode, scalar(arg(ceilArg)));
        auto g = Pool2d::make(*in, kernelSize, stride, padding, dilation, ceilMode != 0);
        if (!g)
            return fail(ErrorCode::InvalidInput, where() + ": " + op + " needs a 3-D or 4-D input");
        return std::pair { std::move(in), std::move(g) };
    };
    auto unary = [&](std::int64_t x, std::int64_t out, const std::function<double(double)>& f) -> Result<void> {
        PTE_TRY(auto tx, tensor(x));
        PTE_TRY(auto to, tensor(out));
        PTE_CHECK(resize(*to, tx->sizes));
        std::vector<double> result(tx->numel());
        for (std::size_t e = 0; e < result.size(); ++e)
            result[e] = f(tx->get(e));
        store(*to, result);
        return {};
    };
    auto setScalar = [&](std::int64_t id, double v) {
        Slot& s = slots.at(std::size_t(id));
        if (s.kind == ValueKind::Bool)
            s.b = v != 0;
        else if (s.kind == ValueKind::Double)
            s.d = v;
        else
            s.i = std::int64_t(v);
    };
    // Copies with the element order given by an index map (permute, view, select...).
    auto gather = [&](const TensorState& src, TensorState& dst, const std::vector<std::int64_t>& sizes,
                      const std::function<std::size_t(std::size_t)>& from) -> Result<void> {
        PTE_CHECK(resize(dst, sizes));
        std::vector<double> result(dst.numel());
        for (std::size_t e = 0; e < result.size(); ++e)
            result[e] = src.get(from(e));
        store(dst, result);
        return {};
    };

    static const std::map<std::string, std::function<double(double, double)>, std::less<>> kBinary = {
        { "add", [](double x, double y) { return x + y; } },
        { "sub", [](double x, double y) { return x - y; } },
        { "mul", [](double x, double y) { return x * y; } },
        { "div", [](double x, double y) { return x / y; } },
        { "gt", [](double x, double y) { return double(x > y); } },
        { "lt", [](double x, double y) { return double(x < y); } },
        { "ge", [](double x, double y) { return double(x >= y); } },
        { "le", [](double x, double y) { return double(x <= y); } },
        { "eq", [](double x, double y) { return double(x == y); } },
        { "ne", [](double x, double y) { return double(x != y); } },
        { "maximum", [](double x, double y) { return std::max(x, y); } },
        { "minimum", [](double x, double y) { return std::min(x, y); } },
    };
    static const std::map<std::string, std::function<double(double)>, std::less<>> kUnary = {
        { "neg", [](double x) { return -x; } },
        { "relu", [](double x) { return x > 0 ? x : 0.0; } },
        { "abs", [](double x) { return std::fabs(x); } },
        { "exp", [](double x) { return std::exp(x); } },
        { "sqrt", [](double x) { return std::sqrt(x); } },
        { "tanh", [](double x) { return std::tanh(x); } },
        { "sigmoid", [](double x) { return 1.0 / (1.0 + std::exp(-x)); } },
        { "silu", [](double x) { return x / (1.0 + std::exp(-x)); } },
        { "rsqrt", [](double x) { return 1.0 / std::sqrt(x); } },
    };

    const OperatorName opName = splitOperatorName(op);
    const std::string& ns = opName.ns;
    const std::string& name = opName.name;
    const std::string& overload = opName.overload;

    if (ns == "aten") {
        PTE_CHECK(checkDimOrders(op, a));
        if (const auto it = kBinary.find(name);
            it != kBinary.end() && (overload == "out" || overload == "Scalar_out" || overload == "Tensor_out")) {
            // add/sub .out: [self, other, alpha, out, ret]; .Scalar_out likewise with a scalar other;
            // mul/div/compare .out and .Scalar_out / .Tensor_out: [self, other, out, ret] (other overloads, such as
            // div.out_mode, are in morekernels.cpp).
            const bool hasAlpha = name == "add" || name == "sub";
            const bool scalarOther = overload == "Scalar_out";
            PTE_CHECK(need(hasAlpha ? 5 : 4));
            double alpha = 1;
            if (hasAlpha) {
                PTE_TRY(alpha, scalar(arg(2)));
            }
            const auto f = it->second;
            return binary(arg(0), arg(1), scalarOther, arg(hasAlpha ? 3 : 2),
                [&](double x, double y) { return f(x, alpha * y); });
        }
        if (const auto it = kUnary.find(name); it != kUnary.end() && overload == "out") {
            PTE_CHECK(need(3));
            return unary(arg(0), arg(1), it->second);
        }
        if (op == "aten::clamp.out") { // [self, min?, max?, out, ret]
            PTE_CHECK(need(5));
            double lo = -INFINITY;
            double hi = INFINITY;
            if (!isNull(arg(1))) {
                PTE_TRY(lo, scalar(arg(1)));
            }
            if (!isNull(arg(2))) {
                PTE_TRY(hi, scalar(arg(2)));
            }
            return unary(arg(0), arg(3), [&](double x) { return std::min(std::max(x, lo), hi); });
        }
        if (op == "aten::rsub.Scalar_out") { // [self, other, alpha, out, ret]: other - alpha * self
            PTE_CHECK(need(5));
            PTE_TRY(const double other, scalar(arg(1)));
            PTE_TRY(const double alpha, scalar(arg(2)));
            return unary(arg(0), arg(3), [&](double x) { return other - alpha * x; });
        }
        if (op == "aten::masked_fill.Scalar_out") { // [self, mask, value, out, ret]; the mask broadcasts
            PTE_CHECK(need(5));
            PTE_TRY(const double value, scalar(arg(2)));
            return binary(arg(0), arg(1), false, arg(3), [&](double x, double m) { return m != 0 ? value : x; });
        }
        if (op == "aten::clone.out") { // [self, memory_format?, out, ret]
            PTE_CHECK(need(4));
            return unary(arg(0), arg(2), [](double x) { return x; });
        }
        if (op == "aten::alias_copy.out" || op == "aten::detach_copy.out" || op == "aten::lift_fresh_copy.out") {
            PTE_CHECK(need(3)); // [self, out, ret]: a copy
            return unary(arg(0), arg(1), [](double x) { return x; });
        }
        if (op == "aten::copy_") { // [self, src, non_blocking, ret]
            PTE_CHECK(need(4));
            PTE_TRY(auto self, tensor(arg(0)));
            PTE_TRY(auto src, tensor(arg(1)));
            if (broadcastShape(self->sizes, src->sizes) != self->sizes && !self->sizes.empty())
                return fail(ErrorCode::InvalidInput, where() + ": copy_ source does not broadcast to self");
            std::vector<double> values(self->numel());
            for (std::size_t e = 0; e < values.size(); ++e)
                values[e] = src->get(broadcastIndex(self->sizes, src->sizes, e));
            store(*self, values);
            return {};
        }
        if (op == "aten::mm.out" || op == "aten::addmm.out") {
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
        if (op == "aten::permute_copy.out") { // [self, dims, out, ret]
            PTE_CHECK(need(4));
            PTE_TRY(auto self, tensor(arg(0)));
            PTE_TRY(auto dims, intList(arg(1)));
            PTE_TRY(auto out, tensor(arg(2)));
            const std::size_t rank = self->sizes.size();
            if (dims.size() != rank)
                return fail(ErrorCode::InvalidInput, where() + ": permute dims do not match the rank");
            std::vector<std::int64_t> shape(rank);
            const std::vector<std::size_t> inStride = contiguousStrides(self->sizes);
            for (std::size_t k = 0; k < rank; ++k)
                shape[k] = self->sizes[std::size_t((dims[k] + std::int64_t(rank)) % std::int64_t(rank))];
            return gather(*self, *out, shape, [&](std::size_t e) {
                std::size_t index = 0;
                for (std::size_t k = rank; k-- > 0;) {
                    const std::size_t coord = e % std::size_t(shape[k]);
                    e /= std::size_t(shape[k]);
                    index += coord * inStride[std::size_t((dims[k] + std::int64_t(rank)) % std::int64_t(rank))];
                }
                return index;
            });
        }
        if (op == "aten::view_copy.out") { // [self, size, out, ret]
            PTE_CHECK(need(4));
            PTE_TRY(auto self, tensor(arg(0)));
            PTE_TRY(auto size, intList(arg(1)));
            PTE_TRY(auto out, tensor(arg(2)));
            std::int64_t known = 1;
            std::size_t inferred = SIZE_MAX;
            for (std::size_t k = 0; k < size.size(); ++k) {
                if (size[k] == -1)
                    inferred = k;
                else
                    known *= size[k];
            }
            if (inferred != SIZE_MAX)
                size[inferred] = std::int64_t(self->numel()) / std::max<std::int64_t>(known, 1);
            return gather(*self, *out, size, [](std::size_t e) { return e; });
        }
        if (op == "aten::select_copy.int_out") { // [self, dim, index, out, ret]; negative dim and index count back
            PTE_CHECK(need(5));
            PTE_TRY(auto self, tensor(arg(0)));
            PTE_TRY(const double dimD, scalar(arg(1)));
            PTE_TRY(const double indexD, scalar(arg(2)));
            PTE_TRY(auto out, tensor(arg(3)));
            const auto dimOrNone = dimIndex(dimD, std::int64_t(self->sizes.size()));
            if (!dimOrNone)
                return fail(ErrorCode::InvalidInput, where() + ": select_copy dimension out of range");
            const std::size_t dim = *dimOrNone;
            const auto len = self->sizes[dim];
            const auto index = std::int64_t(indexD) < 0 ? std::int64_t(indexD) + len : std::int64_t(indexD);
            if (index < 0 || index >= len)
                return fail(ErrorCode::InvalidInput, where() + ": select_copy index out of range");
            return sliceDim(*self, *out, dim, index, 1, 1, false);
        }
        if (op == "aten::convolution.out") {
            // [input, weight, bias?, stride, padding, dilation, transposed, output_padding, groups, out, ret]
            PTE_CHECK(need(11));
            PTE_TRY(auto in, tensor(arg(0)));
            PTE_TRY(auto w, tensor(arg(1)));
            std::shared_ptr<TensorState> bias;
            PTE_TRY(bias, optionalTensor(arg(2)));
            PTE_TRY(auto stride, intList(arg(3)));
            PTE_TRY(auto padding, intList(arg(4)));
            PTE_TRY(auto dilation, intList(arg(5)));
            PTE_TRY(const double transposed, scalar(arg(6)));
            PTE_TRY(const double groupsD, scalar(arg(8)));
            PTE_TRY(auto out, tensor(arg(9)));
            // A 1-D convolution is a 2-D one of height 1.
            const bool oneD = in->sizes.size() == 3 && w->sizes.size() == 3 && stride.size() == 1 && padding.size() == 1
                && dilation.size() == 1;
            if (oneD) {
                stride.insert(stride.begin(), 1);
                padding.insert(padding.begin(), 0);
                dilation.insert(dilation.begin(), 1);
            }
            if ((!oneD && (in->sizes.size() != 4 || w->sizes.size() != 4)) || transposed != 0 || stride.size() != 2
                || padding.size() != 2 || dilation.size() != 2)
                return fail(ErrorCode::Unsupported, where() + ": only plain 1-D and 2-D convolutions are supported");
            const auto N = in->sizes[0], C = in->sizes[1], H = oneD ? 1 : in->sizes[2], W = in->sizes.back();
            const auto O = w->sizes[0], Cg = w->sizes[1], KH = oneD ? 1 : w->sizes[2], KW = w->sizes.back();
            const auto G = std::int64_t(groupsD);
            if (G <= 0 || Cg * G != C || O % G != 0)
                return fail(ErrorCode::InvalidInput, where() + ": convolution groups do not match the channels");
            const auto OH = (H + 2 * padding[0] - dilation[0] * (KH - 1) - 1) / stride[0] + 1;
            const auto OW = (W + 2 * padding[1] - dilation[1] * (KW - 1) - 1) / stride[1] + 1;
            PTE_CHECK(resize(
                *out, oneD ? std::vector<std::int64_t> { N, O, OW } : std::vector<std::int64_t> { N, O, OH, OW }));
            std::vector<double> r(out->numel());
            for (std::int64_t n = 0; n < N; ++n)
                for (std::int64_t o = 0; o < O; ++o) {
                    const std::int64_t g = o / (O / G);
                    for (std::int64_t y = 0; y < OH; ++y)
                        for (std::int64_t x = 0; x < OW; ++x) {
                            double acc = bias ? bias->get(std::size_t(o)) : 0.0;
                            for (std::int64_t c = 0; c < Cg; ++c)
                                for (std::int64_t ky = 0; ky < KH; ++ky)
                                    for (std::int64_t kx = 0; kx < KW; ++kx) {
                                        const auto iy = y * stride[0] - padding[0] + ky * dilation[0];
                                        const auto ix = x * stride[1] - padding[1] + kx * dilation[1];
                                        if (iy < 0 || iy >= H || ix < 0 || ix >= W)
                                            continue;
                                        acc += in->get(std::size_t(((n * C + g * Cg + c) * H + iy) * W + ix))
                                            * w->get(std::size_t(((o * Cg + c) * KH + ky) * KW + kx));
                                    }
                            r[std::size_t(((n * O + o) * OH + y) * OW + x)] = acc;
                        }
                }
            store(*out, r);
            return {};
        }
        if (op == "aten::_native_batch_norm_legit_no_training.out") {
            // [input, weight?, bias?, running_mean, running_var, momentum, eps, out0, out1, out2, ret]
            PTE_CHECK(need(11));
            PTE_TRY(auto in, tensor(arg(0)));
            PTE_TRY(auto mean, tensor(arg(3)));
            PTE_TRY(auto var, tensor(arg(4)));
            PTE_TRY(const double eps, scalar(arg(6)));
            PTE_TRY(auto out, tensor(arg(7)));
            std::shared_ptr<TensorState> weight;
            std::shared_ptr<TensorState> bias;
            PTE_TRY(weight, optionalTensor(arg(1)));
            PTE_TRY(bias, optionalTensor(arg(2)));
            if (in->sizes.size() < 2)
                return fail(ErrorCode::InvalidInput, where() + ": batch norm input needs a channel dimension");
            // As the portable kernel: the two statistics outputs are resized to [0] (they stay empty), and the
            // input must be in the contiguous dim order.
            PTE_TRY(auto saveMean, tensor(arg(8)));
            PTE_TRY(auto saveInvstd, tensor(arg(9)));
            PTE_CHECK(resize(*saveMean, { 0 }));
            PTE_CHECK(resize(*saveInvstd, { 0 }));
            if (!in->contiguous())
                return fail(
                    ErrorCode::InvalidInput, where() + ": " + op + ": the input is not in the contiguous dim order");
            const auto C = std::size_t(in->sizes[1]);
            const std::size_t inner = numelFrom(in->sizes, 2);
            return unary(arg(0), arg(7), [&, i = std::size_t(0)](double v) mutable {
                const std::size_t c = (i++ / inner) % C;
                const double norm = (v - mean->get(c)) / std::sqrt(var->get(c) + eps);
                return norm * (weight ? weight->get(c) : 1.0) + (bias ? bias->get(c) : 0.0);
            });
        }
        if (op == "aten::native_layer_norm.out") {
            // [input, normalized_shape, weight?, bias?, eps, out0, out1, out2, ret]
            PTE_CHECK(need(9));
            PTE_TRY(auto in, tensor(arg(0)));
            PTE_TRY(const auto shape, intList(arg(1)));
            PTE_TRY(const double eps, scalar(arg(4)));
            PTE_TRY(auto out, tensor(arg(5)));
            std::shared_ptr<TensorState> weight;
            std::shared_ptr<TensorState> bias;
            PTE_TRY(weight, optionalTensor(arg(2)));
            PTE_TRY(bias, optionalTensor(arg(3)));
            const std::size_t inner = numelFrom(shape, 0);
            PTE_CHECK(resize(*out, in->sizes));
            const std::size_t rows = in->numel() / std::max<std::size_t>(inner, 1);
            // out1 and out2 are the mean and 1 / sqrt(var + eps) of each row: the input's shape with the normalized
            // dimensions kept as 1.
            PTE_TRY(auto meanOut, tensor(arg(6)));
            PTE_TRY(auto rstdOut, tensor(arg(7)));
            std::vector<std::int64_t> statShape = in->sizes;
            for (std::size_t k = 0; k < shape.size() && k < statShape.size(); ++k)
                statShape[statShape.size() - 1 - k] = 1;
            PTE_CHECK(resize(*meanOut, statShape));
            PTE_CHECK(resize(*rstdOut, statShape));
            std::vector<double> r(in->numel()), means(rows), rstds(rows);
            for (std::size_t row = 0; row < rows; ++row) {
                double mean = 0;
                for (std::size_t e = 0; e < inner; ++e)
                    mean += in->get(row * inner + e);
                mean /= double(inner);
                double var = 0;
                for (std::size_t e = 0; e < inner; ++e)
                    var += (in->get(row * inner + e) - mean) * (in->get(row * inner + e) - mean);
                var /= double(inner);
                means[row] = mean;
                rstds[row] = 1.0 / std::sqrt(var + eps);
                for (std::size_t e = 0; e < inner; ++e)
                    r[row * inner + e] =
                        (in->get(row * inner + e) - mean) / std::sqrt(var + eps) * (weight ? weight->get(e) : 1.0)
                        + (bias ? bias->get(e) : 0.0);
            }
            store(*out, r);
            if (meanOut->numel() == rows && rstdOut->numel() == rows) {
                store(*meanOut, means);
                store(*rstdOut, rstds);
            }
            return {};
        }
        if (op == "aten::_softmax.out" || op == "aten::_log_softmax.out") { // [self, dim, half_to_float, out, ret]
            PTE_CHECK(need(5));
            PTE_TRY(auto in, tensor(arg(0)));
            PTE_TRY(const double dimD, scalar(arg(1)));
            PTE_TRY(auto out, tensor(arg(3)));
            const auto rank = std::int64_t(in->sizes.size());
            const auto dim = std::size_t((std::int64_t(dimD) + rank) % std::max<std::int64_t>(rank, 1));
            PTE_CHECK(resize(*out, in->sizes));
            const std::size_t inner = numelFrom(in->sizes, dim + 1);
            const auto len = in->sizes.empty() ? std::size_t(1) : std::size_t(in->sizes[dim]);
            const std::size_t outer = in->numel() / std::max<std::size_t>(len * inner, 1);
            std::vector<double> r(in->numel());
            for (std::size_t o = 0; o < outer; ++o)
                for (std::size_t i = 0; i < inner; ++i) {
                    double mx = -INFINITY;
                    for (std::size_t k = 0; k < len; ++k)
                        mx = std::max(mx, in->get((o * len + k) * inner + i));
                    double sum = 0;
                    for (std::size_t k = 0; k < len; ++k)
                        sum += std::exp(in->get((o * len + k) * inner + i) - mx);
                    for (std::size_t k = 0; k < len; ++k) {
                        const double v = in->get((o * len + k) * inner + i) - mx;
                        r[(o * len + k) * inner + i] = name == "_softmax" ? std::exp(v) / sum : v - std::log(sum);
                    }
                }
            store(*out, r);
            return {};
        }
        if (op == "aten::bmm.out") { // [self, mat2, out, ret]
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
        if (op == "aten::squeeze_copy.dims_out" || op == "aten::squeeze_copy.dim_out") { // [self, dim(s), out, ret]
            PTE_CHECK(need(4));
            PTE_TRY(auto self, tensor(arg(0)));
            PTE_TRY(auto out, tensor(arg(2)));
            std::vector<std::int64_t> dims;
            if (overload == "dims_out") {
                PTE_TRY(dims, intList(arg(1)));
            } else {
                PTE_TRY(const double d, scalar(arg(1)));
                dims.push_back(std::int64_t(d));
            }
            const auto rank = std::int64_t(self->sizes.size());
            std::vector<bool> drop(self->sizes.size(), false);
            for (auto d : dims) {
                if (rank == 0)
                    continue;
                if (d < -rank || d >= rank)
                    return fail(ErrorCode::InvalidInput, where() + ": squeeze dimension out of range");
                d = (d + rank) % rank;
                drop[std::size_t(d)] = self->sizes[std::size_t(d)] == 1;
            }
            std::vector<std::int64_t> shape;
            for (std::size_t k = 0; k < self->sizes.size(); ++k)
                if (!drop[k])
                    shape.push_back(self->sizes[k]);
            return gather(*self, *out, shape, [](std::size_t e) { return e; });
        }
        if (op == "aten::unsqueeze_copy.out") { // [self, dim, out, ret]
            PTE_CHECK(need(4));
            PTE_TRY(auto self, tensor(arg(0)));
            PTE_TRY(const double dimD, scalar(arg(1)));
            PTE_TRY(auto out, tensor(arg(2)));
            const auto rank = std::int64_t(self->sizes.size()) + 1;
            auto dim = std::int64_t(dimD);
            if (dim < -rank || dim >= rank)
                return fail(ErrorCode::InvalidInput, where() + ": unsqueeze dimension out of range");
            dim = (dim + rank) % rank;
            std::vector<std::int64_t> shape = self->sizes;
            shape.insert(shape.begin() + std::ptrdiff_t(dim), 1);
            return gather(*self, *out, shape, [](std::size_t e) { return e; });
        }
        if (op == "aten::full.out") { // [size, fill_value, out, ret]
            PTE_CHECK(need(4));
            PTE_TRY(const auto size, intList(arg(0)));
            PTE_TRY(const double fill, scalar(arg(1)));
            PTE_TRY(auto out, tensor(arg(2)));
            PTE_CHECK(resize(*out, size));
            for (std::size_t e = 0; e < out->numel(); ++e)
                out->set(e, fill);
            return {};
        }
        if (op == "aten::zeros.out" || op == "aten::ones.out") { // [size, out, ret]
            PTE_CHECK(need(3));
            PTE_TRY(const auto size, intList(arg(0)));
            PTE_TRY(auto out, tensor(arg(1)));
            PTE_CHECK(resize(*out, size));
            for (std::size_t e = 0; e < out->numel(); ++e)
                out->set(e, name == "ones" ? 1.0 : 0.0);
            return {};
        }
        if (op == "aten::full_like.out") { // [self, fill_value, memory_format?, out, ret]
            PTE_CHECK(need(5));
            PTE_TRY(auto self, tensor(arg(0)));
            PTE_TRY(const double fill, scalar(arg(1)));
            PTE_TRY(auto out, tensor(arg(3)));
            PTE_CHECK(resize(*out, self->sizes));
            for (std::size_t e = 0; e < out->numel(); ++e)
                out->set(e, fill);
            return {};
        }
        if (op == "aten::max_pool2d_with_indices.out") {
            // [self, kernel_size, stride, padding, dilation, ceil_mode, out, indices, ret]
            PTE_CHECK(need(9));
            PTE_TRY(const auto dilation, intList(arg(4)));
            PTE_TRY(const auto window, poolWindow(dilation, 5));
            const auto& [in, g] = window;
            PTE_TRY(auto out, tensor(arg(6)));
            PTE_TRY(auto indices, tensor(arg(7)));
            PTE_CHECK(resize(*out, g->outShape));
            PTE_CHECK(resize(*indices, g->outShape));
            const auto at = &Pool2d::at;
            for (std::int64_t p = 0; p < g->planes; ++p)
                for (std::int64_t y = 0; y < g->OH; ++y)
                    for (std::int64_t x = 0; x < g->OW; ++x) {
                        double best = -INFINITY;
                        std::int64_t where_ = -1;
                        for (std::int64_t ky = 0; ky < at(g->kernel, 0); ++ky)
                            for (std::int64_t kx = 0; kx < at(g->kernel, 1); ++kx) {
                                const auto iy = y * at(g->stride, 0) - at(g->padding, 0) + ky * at(g->dilation, 0);
                                const auto ix = x * at(g->stride, 1) - at(g->padding, 1) + kx * at(g->dilation, 1);
                                if (iy < 0 || iy >= g->H || ix < 0 || ix >= g->W)
                                    continue;
                                const double v = in->get(std::size_t((p * g->H + iy) * g->W + ix));
                                if (v > best || std::isnan(v) || where_ < 0) {
                                    best = v;
                                    where_ = iy * g->W + ix;
                                }
                            }
                        const auto o = std::size_t((p * g->OH + y) * g->OW + x);
                        out->set(o, best);
                        indices->set(o, double(where_));
                    }
            return {};
        }
        if (op == "aten::_adaptive_avg_pool2d.out") { // [self, output_size, out, ret]
            PTE_CHECK(need(4));
            PTE_TRY(auto in, tensor(arg(0)));
            PTE_TRY(const auto size, intList(arg(1)));
            PTE_TRY(auto out, tensor(arg(2)));
            const std::size_t rank = in->sizes.size();
            if ((rank != 3 && rank != 4) || size.size() != 2 || size[0] <= 0 || size[1] <= 0)
                return fail(ErrorCode::InvalidInput, where() + ": adaptive_avg_pool2d needs a 3-D or 4-D input");
            const auto H = in->sizes[rank - 2];
            const auto W = in->sizes[rank - 1];
            const auto OH = size[0];
            const auto OW = size[1];
            const std::int64_t planes = std::int64_t(in->numel()) / std::max<std::int64_t>(H * W, 1);
            std::vector<std::int64_t> shape = in->sizes;
            shape[rank - 2] = OH;
            shape[rank - 1] = OW;
            PTE_CHECK(resize(*out, shape));
            std::vector<double> r(out->numel());
            for (std::int64_t p = 0; p < planes; ++p)
                for (std::int64_t y = 0; y < OH; ++y)
                    for (std::int64_t x = 0; x < OW; ++x) {
                        // window [floor(o * in / out), ceil((o + 1) * in / out))
                        const auto y0 = y * H / OH;
                        const auto y1 = ((y + 1) * H + OH - 1) / OH;
                        const auto x0 = x * W / OW;
                        const auto x1 = ((x + 1) * W + OW - 1) / OW;
                        double acc = 0;
                        for (auto iy = y0; iy < y1; ++iy)
                            for (auto ix = x0; ix < x1; ++ix)
                                acc += in->get(std::size_t((p * H + iy) * W + ix));
                        r[std::size_t((p * OH + y) * OW + x)] = acc / double((y1 - y0) * (x1 - x0));
                    }
            store(*out, r);
            return {};
        }
        if (op == "aten::_native_batch_norm_legit.out" || op == "aten::_native_batch_norm_legit.no_stats_out") {
            // out:          [input, weight?, bias?, running_mean, running_var, training, momentum, eps,
            //                out, save_mean, save_invstd, ret]
            // no_stats_out: [input, weight?, bias?, training, momentum, eps, out, save_mean, save_invstd, ret]
            // The portable kernels compute batch norm for inference only, from the running statistics (training-mode
            // batch norm is decomposed into primitive ops before emission, as torch's core decomposition does).
            const bool stats = overload == "out";
            PTE_CHECK(need(stats ? 12 : 10));
            PTE_TRY(const double training, scalar(arg(stats ? 5 : 3)));
            if (training != 0)
                return fail(
                    ErrorCode::InvalidInput, where() + ": " + op + ": Portable kernels only support inference mode!");
            if (!stats)
                return fail(ErrorCode::InvalidInput,
                    where() + ": " + op + ": running_mean & running_var must be provided during inference!");
            std::vector<std::int32_t> b = a;
            b.erase(b.begin() + 5); // the no_training kernel takes the same arguments without `training`
            return kernel("aten::_native_batch_norm_legit_no_training.out", b);
        }
        if (op == "aten::split_copy.Tensor_out" || op == "aten::split_with_sizes_copy.out"
            || op == "aten::unbind_copy.int_out") {
            // split_copy: [self, split_size, dim, out(TensorList), ret]; split_with_sizes_copy: [self, split_sizes,
            // dim, out, ret]; unbind_copy: [self, dim, out, ret]
            const bool unbind = name == "unbind_copy";
            PTE_CHECK(need(unbind ? 4 : 5));
            PTE_TRY(auto self, tensor(arg(0)));
            PTE_TRY(const double dimD, scalar(arg(unbind ? 1 : 2)));
            PTE_TRY(const auto outs, tensorList(arg(unbind ? 2 : 3)));
            const auto dimOrNone = dimIndex(dimD, std::int64_t(self->sizes.size()));
            if (!dimOrNone)
                return fail(ErrorCode::InvalidInput, where() + ": " + op + ": dimension out of range");
            const std::size_t dim = *dimOrNone;
            const std::int64_t len = self->sizes[dim];
            std::vector<std::int64_t> pieces;
            if (unbind) {
                pieces.assign(std::size_t(len), 1);
            } else if (name == "split_copy") {
                PTE_TRY(const double chunk, scalar(arg(1)));
                for (std::int64_t s = 0; s < len; s += std::int64_t(chunk))
                    pieces.push_back(std::min(std::int64_t(chunk), len - s));
            } else {
                PTE_TRY(pieces, intList(arg(1)));
            }
            if (pieces.size() != outs.size())
                return fail(ErrorCode::InvalidInput,
                    where() + ": " + op + ": " + std::to_string(outs.size()) + " outputs for "
                        + std::to_string(pieces.size()) + " pieces");
            std::int64_t start = 0;
            for (std::size_t p = 0; p < pieces.size(); ++p) {
                PTE_CHECK(sliceDim(*self, *outs[p], dim, start, 1, pieces[p], !unbind));
                start += pieces[p];
            }
            if (start != len)
                return fail(ErrorCode::InvalidInput, where() + ": " + op + ": the pieces do not cover the dimension");
            return {};
        }
        if (op == "aten::slice_copy.Tensor_out") { // [self, dim, start?, end?, step, out, ret]
            PTE_CHECK(need(7));
            PTE_TRY(auto self, tensor(arg(0)));
            PTE_TRY(const double dimD, scalar(arg(1)));
            PTE_TRY(const double stepD, scalar(arg(4)));
            PTE_TRY(auto out, tensor(arg(5)));
            const auto dimOrNone = dimIndex(dimD, std::int64_t(self->sizes.size()));
            if (!dimOrNone || stepD < 1)
                return fail(ErrorCode::InvalidInput, where() + ": slice_copy: bad dimension or step");
            const std::size_t dim = *dimOrNone;
            const std::int64_t len = self->sizes[dim];
            auto clampIndex = [&](std::int64_t id, std::int64_t fallback) -> Result<std::int64_t> {
                if (isNull(id))
                    return fallback;
                PTE_TRY(const double v, scalar(id));
                if (v >= double(len))
                    return len; // torch.export writes x[a:] with end = INT64_MAX
                auto x = std::int64_t(v);
                if (x < 0)
                    x += len;
                return std::clamp<std::int64_t>(x, 0, len);
            };
            PTE_TRY(const auto start, clampIndex(arg(2), 0));
            PTE_TRY(auto end, clampIndex(arg(3), len));
            end = std::max(end, start);
            const auto step = std::int64_t(stepD);
            return sliceDim(*self, *out, dim, start, step, (end - start + step - 1) / step, true);
        }
        if (op == "aten::expand_copy.out") { // [self, size, implicit, out, ret]
            PTE_CHECK(need(5));
            PTE_TRY(auto self, tensor(arg(0)));
            PTE_TRY(auto size, intList(arg(1)));
            PTE_TRY(auto out, tensor(arg(3)));
            if (size.size() < self->sizes.size())
                return fail(ErrorCode::InvalidInput, where() + ": expand_copy to fewer dimensions");
            const std::size_t lead = size.size() - self->sizes.size();
            for (std::size_t k = 0; k < self->sizes.size(); ++k) {
                if (size[lead + k] == -1)
                    size[lead + k] = self->sizes[k];
                if (self->sizes[k] != 1 && self->sizes[k] != size[lead + k])
                    return fail(ErrorCode::InvalidInput, where() + ": expand_copy: size does not broadcast");
            }
            return gather(*self, *out, size, [&](std::size_t e) { return broadcastIndex(size, self->sizes, e); });
        }
        if (op == "aten::transpose_copy.int_out") { // [self, dim0, dim1, out, ret]
            PTE_CHECK(need(5));
            PTE_TRY(auto self, tensor(arg(0)));
            PTE_TRY(const double d0D, scalar(arg(1)));
            PTE_TRY(const double d1D, scalar(arg(2)));
            PTE_TRY(auto out, tensor(arg(3)));
            const auto rank = std::int64_t(self->sizes.size());
            const auto d0 = std::size_t((std::int64_t(d0D) + rank) % std::max<std::int64_t>(rank, 1));
            const auto d1 = std::size_t((std::int64_t(d1D) + rank) % std::max<std::int64_t>(rank, 1));
            std::vector<std::int64_t> shape = self->sizes;
            std::swap(shape[d0], shape[d1]);
            std::vector<std::size_t> inStride = contiguousStrides(self->sizes);
            std::swap(inStride[d0], inStride[d1]);
            return gather(*self, *out, shape, [&](std::size_t e) {
                std::size_t index = 0;
                for (std::size_t k = shape.size(); k-- > 0;) {
                    index += (e % std::size_t(shape[k])) * inStride[k];
                    e /= std::size_t(shape[k]);
                }
                return index;
            });
        }
        if (op == "aten::gelu.out") { // [self, approximate, out, ret]
            PTE_CHECK(need(4));
            if (arg(1) < 0 || std::size_t(arg(1)) >= slots.size()
                || slots[std::size_t(arg(1))].kind != ValueKind::String)
                return fail(ErrorCode::InvalidInput, where() + ": gelu's approximate is not a String");
            const std::string approximate = slots[std::size_t(arg(1))].s;
            if (approximate != "none" && approximate != "tanh")
                return fail(ErrorCode::InvalidInput, where() + ": gelu approximate '" + approximate + "'");
            return unary(arg(0), arg(2), [&](double x) {
                if (approximate == "tanh")
                    return 0.5 * x * (1 + std::tanh(std::sqrt(2 / M_PI) * (x + 0.044715 * x * x * x)));
                return 0.5 * x * (1 + std::erf(x / std::sqrt(2.0)));
            });
        }
        if (op == "aten::hardtanh.out") { // [self, min_val, max_val, out, ret]
            PTE_CHECK(need(5));
            PTE_TRY(const double lo, scalar(arg(1)));
            PTE_TRY(const double hi, scalar(arg(2)));
            return unary(arg(0), arg(3), [&](double x) { return std::min(std::max(x, lo), hi); });
        }
        if (op == "aten::pow.Tensor_Scalar_out" || op == "aten::pow.Tensor_Tensor_out") { // [self, exponent, out, ret]
            PTE_CHECK(need(4));
            return binary(arg(0), arg(1), overload == "Tensor_Scalar_out", arg(2),
                [](double x, double y) { return std::pow(x, y); });
        }
        if (op == "aten::where.self_out") { // [condition, self, other, out, ret]
            PTE_CHECK(need(5));
            PTE_TRY(auto cond, tensor(arg(0)));
            PTE_TRY(auto self, tensor(arg(1)));
            PTE_TRY(auto b, tensor(arg(2)));
            PTE_TRY(auto out, tensor(arg(3)));
            const auto shape = broadcastShape(broadcastShape(cond->sizes, self->sizes), b->sizes);
            PTE_CHECK(resize(*out, shape));
            std::vector<double> r(out->numel());
            for (std::size_t e = 0; e < r.size(); ++e)
                r[e] = cond->get(broadcastIndex(shape, cond->sizes, e)) != 0
                    ? self->get(broadcastIndex(shape, self->sizes, e))
                    : b->get(broadcastIndex(shape, b->sizes, e));
            store(*out, r);
            return {};
        }
        if (op == "aten::cat.out") { // [tensors, dim, out, ret]
            PTE_TRY(const auto joined, listArgs(0));
            const auto& [parts, dim, out] = joined;
            std::vector<std::int64_t> shape = parts[0]->sizes;
            shape[dim] = 0;
            for (const auto& p : parts) {
                if (p->sizes.size() != shape.size())
                    return fail(ErrorCode::InvalidInput, where() + ": cat of tensors of different ranks");
                shape[dim] += p->sizes[dim];
            }
            PTE_CHECK(resize(*out, shape));
            const std::size_t inner = numelFrom(shape, dim + 1);
            const std::size_t outer = out->numel() / std::max<std::size_t>(std::size_t(shape[dim]) * inner, 1);
            std::size_t e = 0;
            for (std::size_t o = 0; o < outer; ++o)
                for (const auto& p : parts)
                    for (std::size_t k = 0; k < std::size_t(p->sizes[dim]) * inner; ++k)
                        out->set(e++, p->get(o * std::size_t(p->sizes[dim]) * inner + k));
            return {};
        }
        if (op == "aten::leaky_relu.out") { // [self, negative_slope, out, ret]
            PTE_CHECK(need(4));
            PTE_TRY(const double slope, scalar(arg(1)));
            return unary(arg(0), arg(2), [&](double x) { return x > 0 ? x : x * slope; });
        }
        if (op == "aten::avg_pool2d.out") {
            // [self, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override?, out, ret]
            PTE_CHECK(need(9));
            PTE_TRY(const auto window, poolWindow({ 1 }, 4));
            const auto& [in, g] = window;
            PTE_TRY(const double includePad, scalar(arg(5)));
            double divisor = 0;
            if (!isNull(arg(6))) {
                PTE_TRY(divisor, scalar(arg(6)));
            }
            PTE_TRY(auto out, tensor(arg(7)));
            PTE_CHECK(resize(*out, g->outShape));
            const auto at = &Pool2d::at;
            const auto H = g->H;
            const auto W = g->W;
            for (std::int64_t p = 0; p < g->planes; ++p)
                for (std::int64_t y = 0; y < g->OH; ++y)
                    for (std::int64_t x = 0; x < g->OW; ++x) {
                        auto y0 = y * at(g->stride, 0) - at(g->padding, 0);
                        auto x0 = x * at(g->stride, 1) - at(g->padding, 1);
                        auto y1 = std::min(y0 + at(g->kernel, 0), H + at(g->padding, 0));
                        auto x1 = std::min(x0 + at(g->kernel, 1), W + at(g->padding, 1));
                        const auto padded = (y1 - y0) * (x1 - x0);
                        y0 = std::max<std::int64_t>(y0, 0);
                        x0 = std::max<std::int64_t>(x0, 0);
                        y1 = std::min(y1, H);
                        x1 = std::min(x1, W);
                        double acc = 0;
                        for (auto iy = y0; iy < y1; ++iy)
                            for (auto ix = x0; ix < x1; ++ix)
                                acc += in->get(std::size_t((p * H + iy) * W + ix));
                        const double d = divisor != 0 ? divisor
                            : includePad != 0         ? double(padded)
                                                      : double((y1 - y0) * (x1 - x0));
                        out->set(std::size_t((p * g->OH + y) * g->OW + x), acc / d);
                    }
            return {};
        }
        if (op == "aten::sum.IntList_out" || op == "aten::mean.out" || op == "aten::mean.dtype_out"
            || op == "aten::amax.out" || op == "aten::argmax.out") {
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
        if (op == "aten::var.correction_out" || op == "aten::var.out") {
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
        if (op == "aten::constant_pad_nd.out") { // [self, pad, value, out, ret]; pad pairs from the last dimension
            PTE_CHECK(need(5));
            PTE_TRY(auto self, tensor(arg(0)));
            PTE_TRY(const auto pad, intList(arg(1)));
            PTE_TRY(const double value, scalar(arg(2)));
            PTE_TRY(auto out, tensor(arg(3)));
            const std::size_t rank = self->sizes.size();
            if (pad.size() % 2 != 0 || pad.size() / 2 > rank)
                return fail(ErrorCode::InvalidInput, where() + ": constant_pad_nd: bad pad length");
            std::vector<std::int64_t> before(rank, 0);
            std::vector<std::int64_t> shape = self->sizes;
            for (std::size_t k = 0; k < pad.size() / 2; ++k) {
                const std::size_t d = rank - 1 - k;
                before[d] = pad[2 * k];
                shape[d] += pad[2 * k] + pad[2 * k + 1];
            }
            PTE_CHECK(resize(*out, shape));
            std::vector<double> r(out->numel());
            for (std::size_t e = 0; e < r.size(); ++e) {
                std::size_t rest = e;
                std::size_t index = 0;
                std::size_t stride = 1;
                bool inside = true;
                for (std::size_t k = rank; k-- > 0;) {
                    const auto coord = std::int64_t(rest % std::size_t(shape[k])) - before[k];
                    rest /= std::size_t(shape[k]);
                    inside = inside && coord >= 0 && coord < self->sizes[k];
                    index += std::size_t(std::max<std::int64_t>(coord, 0)) * stride;
                    stride *= std::size_t(self->sizes[k]);
                }
                r[e] = inside ? self->get(index) : value;
            }
            store(*out, r);
            return {};
        }
        if (op == "aten::arange.out" || op == "aten::arange.start_out") {
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
        if (op == "aten::stack.out") { // [tensors, dim, out, ret]
            PTE_TRY(const auto stacked, listArgs(1));
            const auto& [parts, dim, out] = stacked;
            std::vector<std::int64_t> shape = parts[0]->sizes;
            for (const auto& p : parts)
                if (p->sizes != shape)
                    return fail(ErrorCode::InvalidInput, where() + ": stack of tensors of different shapes");
            const std::size_t inner = numelFrom(shape, dim);
            shape.insert(shape.begin() + std::ptrdiff_t(dim), std::int64_t(parts.size()));
            PTE_CHECK(resize(*out, shape));
            const std::size_t outer = parts[0]->numel() / std::max<std::size_t>(inner, 1);
            std::size_t e = 0;
            for (std::size_t o = 0; o < outer; ++o)
                for (const auto& p : parts)
                    for (std::size_t k = 0; k < inner; ++k)
                        out->set(e++, p->get(o * inner + k));
            return {};
        }
        if (op == "aten::native_dropout.out") { // [input, p, train?, out0, out1, ret]
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
        if (op == "aten::rand.out") { // [size, out, ret]: uniform in [0, 1) from a fixed xorshift sequence
            PTE_CHECK(need(3));
            PTE_TRY(const auto size, intList(arg(0)));
            PTE_TRY(auto out, tensor(arg(1)));
            PTE_CHECK(resize(*out, size));
            UniformSequence uniform;
            for (std::size_t e = 0; e < out->numel(); ++e)
                out->set(e, uniform.next());
            return {};
        }
        if (op == "aten::sym_size.int") { // [self, dim, ret]
            PTE_CHECK(need(3));
            PTE_TRY(auto self, tensor(arg(0)));
            PTE_TRY(const double dim, scalar(arg(1)));
            const auto rank = std::int64_t(self->sizes.size());
            const auto d = (std::int64_t(dim) + rank) % std::max<std::int64_t>(rank, 1);
            setScalar(arg(2), double(self->sizes.at(std::size_t(d))));
            return {};
        }
    } else if (ns == "dim_order_ops") {
        if (op == "dim_order_ops::_to_dim_order_copy.out" || op == "dim_order_ops::_clone_dim_order.out") {
            // [self, non_blocking, dim_order?, out, ret]
            PTE_CHECK(need(5));
            PTE_TRY(auto self, tensor(arg(0)));
            PTE_TRY(auto out, tensor(arg(3)));
            if (!isNull(arg(2))) {
                // The given dim order must be the out tensor's.
                PTE_TRY(const auto order, intList(arg(2)));
                std::vector<std::uint8_t> expected = out->dimOrder;
                if (expected.empty())
                    for (std::size_t k = 0; k < out->sizes.size(); ++k)
                        expected.push_back(std::uint8_t(k));
                if (order != std::vector<std::int64_t>(expected.begin(), expected.end()))
                    return fail(ErrorCode::InvalidInput, where() + ": the dim_order argument is not the out tensor's");
            }
            // The element type changes to the out tensor's; float to integer truncates toward zero.
            return gather(*self, *out, self->sizes, [](std::size_t e) { return e; });
        }
    } else if (ns == "executorch_prim") {
        // The unary prim ops [a, ret] (as PyTorch defines them: -a, float(a), not a) and sym_ite [cond, a, b, ret].
        if (overload == "Scalar" && (name == "neg" || name == "sym_float" || name == "sym_not")) {
            PTE_CHECK(need(2));
            PTE_TRY(const double x, scalar(arg(0)));
            // The result's type is the op's (float(a) a Double, not a a Bool), whatever the slot held before, as
            // the runtime replaces the EValue.
            Slot& out = slots.at(std::size_t(arg(1)));
            if (name == "sym_float")
                out.kind = ValueKind::Double;
            else if (name == "sym_not")
                out.kind = ValueKind::Bool;
            setScalar(arg(1), name == "neg" ? -x : name == "sym_not" ? double(x == 0) : x);
            return {};
        }
        // Float to int [a, ret], as Python defines them on a SymFloat: math.ceil, math.trunc, int() (toward zero),
        // round() (half to even); the result is an Int whatever the slot held before.
        if (overload == "Scalar" && (name == "ceil" || name == "trunc" || name == "sym_int" || name == "round")) {
            PTE_CHECK(need(2));
            PTE_TRY(const double x, scalar(arg(0)));
            double r = std::trunc(x);
            if (name == "ceil")
                r = std::ceil(x);
            else if (name == "round")
                r = x - std::floor(x) == 0.5 ? 2.0 * std::round(x / 2.0) : std::round(x);
            slots.at(std::size_t(arg(1))).kind = ValueKind::Int;
            setScalar(arg(1), r);
            return {};
        }
        if (op == "executorch_prim::sym_ite.Scalar") {
            PTE_CHECK(need(4));
            PTE_TRY(const double cond, scalar(arg(0)));
            PTE_TRY(const double x, scalar(arg(1)));
            PTE_TRY(const double y, scalar(arg(2)));
            setScalar(arg(3), cond != 0 ? x : y);
            return {};
        }
        if (overload == "Scalar") { // [a, b, ret]
            PTE_CHECK(need(3));
            PTE_TRY(const double x, scalar(arg(0)));
            PTE_TRY(const double y, scalar(arg(1)));
            if (name == "floordiv") {
                setScalar(arg(2), std::floor(x / y));
                return {};
            }
            if (name == "truediv") { // a / b as a Double, whatever the operands and the slot held before
                slots.at(std::size_t(arg(2))).kind = ValueKind::Double;
                setScalar(arg(2), x / y);
                return {};
            }
            if (const auto it = kBinary.find(name); it != kBinary.end()) {
                setScalar(arg(2), it->second(x, y));
                return {};
            }
        }
        if (op == "executorch_prim::et_copy_index.tensor") { // [copy_to, copy_from, index]
            PTE_CHECK(need(3));
            PTE_TRY(auto to, tensor(arg(0)));
            PTE_TRY(auto from, tensor(arg(1)));
            PTE_TRY(const double indexD, scalar(arg(2)));
            const auto index = std::size_t(indexD);
            std::vector<std::int64_t> shape = from->sizes;
            shape.insert(shape.begin(), std::int64_t(index + 1));
            if (to->sizes.empty() || std::size_t(to->sizes[0]) < index + 1)
                PTE_CHECK(resize(*to, shape));
            const std::size_t n = from->numel();
            if ((index + 1) * n * elementSize(to->dtype) > to->capacity)
                return fail(ErrorCode::InvalidInput, where() + ": et_copy_index beyond the tensor's capacity");
            for (std::size_t e = 0; e < n; ++e)
                to->set(index * n + e, from->get(e));
            return {};
        }
        if (op == "executorch_prim::et_view" || op == "executorch_prim::et_view.default") { // [self, size, out]
            PTE_CHECK(need(3));
            PTE_TRY(auto self, tensor(arg(0)));
            PTE_TRY(auto size, intList(arg(1)));
            PTE_TRY(auto out, tensor(arg(2)));
            out->data = self->data;
            out->capacity = self->capacity;
            out->sizes = size;
            return {};
        }
    }
    PTE_TRY(const bool handled, moreKernel(op, a));
    if (handled)
        return {};
    return fail(ErrorCode::Unsupported, where() + ": no reference kernel for " + op);
}

} // namespace pte
