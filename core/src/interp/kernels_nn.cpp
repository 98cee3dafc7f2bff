// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// Neural-network kernels: convolution, pooling, normalization, softmax and upsampling.
#include "interp/kernel.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace pte::interp {

namespace {

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

struct Nn : Kernel
{
    using Kernel::Kernel;

    // The input and window of max_pool2d / avg_pool2d: [self, kernel_size, stride, padding, ..., ceil_mode at
    // `ceilArg`].
    Result<std::pair<std::shared_ptr<TensorState>, std::optional<Pool2d>>> poolWindow(
        const std::vector<std::int64_t>& dilation, std::size_t ceilArg) const
    {
        PTE_TRY(auto in, tensor(arg(0)));
        PTE_TRY(const auto kernelSize, intList(arg(1)));
        PTE_TRY(const auto stride, intList(arg(2)));
        PTE_TRY(const auto padding, intList(arg(3)));
        PTE_TRY(const double ceilMode, scalar(arg(ceilArg)));
        auto g = Pool2d::make(*in, kernelSize, stride, padding, dilation, ceilMode != 0);
        if (!g)
            return fail(ErrorCode::InvalidInput, where() + ": " + op + " needs a 3-D or 4-D input");
        return std::pair { std::move(in), std::move(g) };
    }

    /**
     * The transposed convolution (the gradient of a convolution with respect to its input): weight [C, O / groups,
     * KH, KW]; input position (iy, ix) adds its value times the kernel to output positions iy * stride - padding +
     * ky * dilation; the output is (H - 1) * stride - 2 * padding + dilation * (KH - 1) + output_padding + 1 high.
     */
    Result<void> transposedConvolution(const TensorState& in, const TensorState& w, const TensorState* bias,
        const std::vector<std::int64_t>& stride, const std::vector<std::int64_t>& padding,
        const std::vector<std::int64_t>& dilation, const std::vector<std::int64_t>& outputPadding, std::int64_t G,
        bool oneD, TensorState& out) const
    {
        const auto N = in.sizes[0], C = in.sizes[1], H = oneD ? 1 : in.sizes[2], W = in.sizes.back();
        const auto Og = w.sizes[1], KH = oneD ? 1 : w.sizes[2], KW = w.sizes.back();
        if (G <= 0 || w.sizes[0] != C || C % G != 0)
            return fail(ErrorCode::InvalidInput, where() + ": convolution groups do not match the channels");
        const auto Cg = C / G;
        const auto O = Og * G;
        const auto OH = (H - 1) * stride[0] - 2 * padding[0] + dilation[0] * (KH - 1) + outputPadding[0] + 1;
        const auto OW = (W - 1) * stride[1] - 2 * padding[1] + dilation[1] * (KW - 1) + outputPadding[1] + 1;
        PTE_CHECK(
            resize(out, oneD ? std::vector<std::int64_t> { N, O, OW } : std::vector<std::int64_t> { N, O, OH, OW }));
        std::vector<double> r(out.numel(), 0.0);
        for (std::int64_t n = 0; n < N; ++n)
            for (std::int64_t o = 0; o < O; ++o)
                for (std::int64_t e = 0; e < OH * OW; ++e)
                    r[std::size_t((n * O + o) * OH * OW + e)] = bias ? bias->get(std::size_t(o)) : 0.0;
        for (std::int64_t n = 0; n < N; ++n)
            for (std::int64_t c = 0; c < C; ++c) {
                const std::int64_t g = c / Cg;
                for (std::int64_t iy = 0; iy < H; ++iy)
                    for (std::int64_t ix = 0; ix < W; ++ix) {
                        const double v = in.get(std::size_t(((n * C + c) * H + iy) * W + ix));
                        for (std::int64_t oc = 0; oc < Og; ++oc)
                            for (std::int64_t ky = 0; ky < KH; ++ky)
                                for (std::int64_t kx = 0; kx < KW; ++kx) {
                                    const auto y = iy * stride[0] - padding[0] + ky * dilation[0];
                                    const auto x = ix * stride[1] - padding[1] + kx * dilation[1];
                                    if (y < 0 || y >= OH || x < 0 || x >= OW)
                                        continue;
                                    r[std::size_t(((n * O + g * Og + oc) * OH + y) * OW + x)] +=
                                        v * w.get(std::size_t(((c * Og + oc) * KH + ky) * KW + kx));
                                }
                    }
            }
        store(out, r);
        return {};
    }

    Result<void> convolution()
    {
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
        PTE_TRY(auto outputPadding, intList(arg(7)));
        // A 1-D convolution is a 2-D one of height 1.
        const bool oneD = in->sizes.size() == 3 && w->sizes.size() == 3 && stride.size() == 1 && padding.size() == 1
            && dilation.size() == 1;
        if (oneD) {
            stride.insert(stride.begin(), 1);
            padding.insert(padding.begin(), 0);
            dilation.insert(dilation.begin(), 1);
            if (outputPadding.size() == 1)
                outputPadding.insert(outputPadding.begin(), 0);
        }
        if ((!oneD && (in->sizes.size() != 4 || w->sizes.size() != 4)) || stride.size() != 2 || padding.size() != 2
            || dilation.size() != 2 || (transposed != 0 && outputPadding.size() != 2))
            return fail(ErrorCode::Unsupported, where() + ": only 1-D and 2-D convolutions are supported");
        if (transposed != 0)
            return transposedConvolution(
                *in, *w, bias.get(), stride, padding, dilation, outputPadding, std::int64_t(groupsD), oneD, *out);
        const auto N = in->sizes[0], C = in->sizes[1], H = oneD ? 1 : in->sizes[2], W = in->sizes.back();
        const auto O = w->sizes[0], Cg = w->sizes[1], KH = oneD ? 1 : w->sizes[2], KW = w->sizes.back();
        const auto G = std::int64_t(groupsD);
        if (G <= 0 || Cg * G != C || O % G != 0)
            return fail(ErrorCode::InvalidInput, where() + ": convolution groups do not match the channels");
        const auto OH = (H + 2 * padding[0] - dilation[0] * (KH - 1) - 1) / stride[0] + 1;
        const auto OW = (W + 2 * padding[1] - dilation[1] * (KW - 1) - 1) / stride[1] + 1;
        PTE_CHECK(
            resize(*out, oneD ? std::vector<std::int64_t> { N, O, OW } : std::vector<std::int64_t> { N, O, OH, OW }));
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

    Result<void> nativeBatchNormLegitNoTraining()
    {
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

    Result<void> nativeLayerNorm()
    {
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

    // [self, dim, half_to_float, out, ret]
    Result<void> softmax()
    {
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

    Result<void> maxPool2dWithIndices()
    {
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

    // [self, output_size, out, ret]
    Result<void> adaptiveAvgPool2d()
    {
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

    Result<void> nativeBatchNormLegit()
    {
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
        return d.kernel("aten::_native_batch_norm_legit_no_training.out", b);
    }

    Result<void> avgPool2d()
    {
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

    Result<void> upsampleNearest2d()
    {
        // nearest: [input, output_size?, scale_factors?, out, ret]; bilinear: [input, output_size?, align_corners,
        // scale_factors?, out, ret]. As PyTorch: a given scale factor sets the source step (1 / factor), else in/out.
        const bool bilinear = name == "upsample_bilinear2d";
        PTE_CHECK(need(bilinear ? 6 : 5));
        PTE_TRY(auto x, tensorAt(0));
        PTE_TRY(auto o, tensorAt(bilinear ? 4 : 3));
        double alignCorners = 0;
        if (bilinear) {
            PTE_TRY(alignCorners, scalarAt(2));
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
        return {};
    }

    Result<void> nativeGroupNorm()
    {
        // [input, weight?, bias?, N, C, HxW, group, eps, out0, out1 (mean [N, G]), out2 (rstd [N, G]), ret]
        PTE_CHECK(need(12));
        PTE_TRY(auto x, tensorAt(0));
        PTE_TRY(auto weight, d.optionalTensor(arg(1)));
        PTE_TRY(auto bias, d.optionalTensor(arg(2)));
        PTE_TRY(const double nD, scalarAt(3));
        PTE_TRY(const double cD, scalarAt(4));
        PTE_TRY(const double hwD, scalarAt(5));
        PTE_TRY(const double gD, scalarAt(6));
        PTE_TRY(const double eps, scalarAt(7));
        PTE_TRY(auto out, tensorAt(8));
        PTE_TRY(auto meanOut, tensorAt(9));
        PTE_TRY(auto rstdOut, tensorAt(10));
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
        return {};
    }
    // [input, grid, interpolation_mode, padding_mode, align_corners, out, ret]: input [N, C, H, W] sampled at grid
    // [N, Ho, Wo, 2] (x, y in [-1, 1]); bilinear (0) or nearest (1, half to even), zeros (0) or border (1) padding
    Result<void> gridSampler2d()
    {
        PTE_CHECK(need(7));
        PTE_TRY(auto in, tensorAt(0));
        PTE_TRY(auto grid, tensorAt(1));
        PTE_TRY(const double mode, scalarAt(2));
        PTE_TRY(const double paddingMode, scalarAt(3));
        PTE_TRY(const double alignCorners, scalarAt(4));
        PTE_TRY(auto out, tensorAt(5));
        if (in->sizes.size() != 4 || grid->sizes.size() != 4 || grid->sizes[3] != 2 || grid->sizes[0] != in->sizes[0])
            return invalid("needs input [N, C, H, W] and grid [N, H, W, 2]");
        if ((mode != 0 && mode != 1) || (paddingMode != 0 && paddingMode != 1))
            return fail(ErrorCode::Unsupported,
                where() + ": " + op + ": only bilinear and nearest sampling with zeros or border padding");
        const auto N = in->sizes[0], C = in->sizes[1], H = in->sizes[2], W = in->sizes[3];
        const auto Ho = grid->sizes[1], Wo = grid->sizes[2];
        PTE_CHECK(resize(*out, { N, C, Ho, Wo }));
        auto source = [&](double g, std::int64_t size) {
            double v = alignCorners != 0 ? (g + 1) / 2 * double(size - 1) : ((g + 1) * double(size) - 1) / 2;
            if (paddingMode == 1)
                v = std::clamp(v, 0.0, double(size - 1));
            return v;
        };
        std::vector<double> r(out->numel());
        for (std::int64_t n = 0; n < N; ++n)
            for (std::int64_t y = 0; y < Ho; ++y)
                for (std::int64_t x = 0; x < Wo; ++x) {
                    const auto g = std::size_t(((n * Ho + y) * Wo + x) * 2);
                    const double ix = source(grid->get(g), W);
                    const double iy = source(grid->get(g + 1), H);
                    for (std::int64_t c = 0; c < C; ++c) {
                        auto at = [&](std::int64_t yy, std::int64_t xx) {
                            return yy < 0 || yy >= H || xx < 0 || xx >= W
                                ? 0.0
                                : in->get(std::size_t(((n * C + c) * H + yy) * W + xx));
                        };
                        double v = 0;
                        if (mode == 1) {
                            v = at(std::int64_t(std::nearbyint(iy)), std::int64_t(std::nearbyint(ix)));
                        } else {
                            const auto x0 = std::int64_t(std::floor(ix));
                            const auto y0 = std::int64_t(std::floor(iy));
                            const double lx = ix - double(x0);
                            const double ly = iy - double(y0);
                            v = (1 - ly) * ((1 - lx) * at(y0, x0) + lx * at(y0, x0 + 1))
                                + ly * ((1 - lx) * at(y0 + 1, x0) + lx * at(y0 + 1, x0 + 1));
                        }
                        r[std::size_t(((n * C + c) * Ho + y) * Wo + x)] = v;
                    }
                }
        store(*out, r);
        return {};
    }

    /**
     * The taps and normalised weights of output position `i` of an antialiased bilinear resize from `inSize` (scale
     * in / out): centre scale * (i + 0.5), support max(scale, 1), the triangle filter 1 - |(j - centre + 0.5) /
     * max(scale, 1)|.
     */
    static std::vector<std::pair<std::int64_t, double>> antialiasTaps(double scale, std::int64_t inSize, std::int64_t i)
    {
        const double support = scale >= 1 ? scale : 1.0;
        const double inv = scale >= 1 ? 1 / scale : 1.0;
        const double centre = scale * (double(i) + 0.5);
        const auto lo = std::max<std::int64_t>(std::int64_t(centre - support + 0.5), 0);
        const auto hi = std::min<std::int64_t>(std::int64_t(centre + support + 0.5), inSize);
        std::vector<std::pair<std::int64_t, double>> taps;
        double total = 0;
        for (std::int64_t j = lo; j < hi; ++j) {
            const double t = std::fabs((double(j) - centre + 0.5) * inv);
            const double w = t < 1 ? 1 - t : 0;
            taps.emplace_back(j, w);
            total += w;
        }
        for (auto& tap : taps)
            tap.second = total > 0 ? tap.second / total : 0.0;
        return taps;
    }

    // [self, output_size, align_corners, scales_h?, scales_w?, out, ret]: the antialiased bilinear resize of the last
    // two dimensions (the scale as PyTorch's area_pixel_compute_scale gives it)
    Result<void> upsampleBilinear2dAa()
    {
        PTE_CHECK(need(7));
        PTE_TRY(auto in, tensorAt(0));
        PTE_TRY(const auto size, intList(arg(1)));
        PTE_TRY(const double alignCorners, scalarAt(2));
        PTE_TRY(auto out, tensorAt(5));
        if (in->sizes.size() != 4 || size.size() != 2)
            return invalid("needs a 4-D input and two output sizes");
        const auto H = in->sizes[2], W = in->sizes[3];
        const auto OH = size[0], OW = size[1];
        auto scaleOf = [&](std::int64_t inSize, std::int64_t outSize, std::size_t scaleArg) -> Result<double> {
            if (alignCorners != 0)
                return outSize > 1 ? double(inSize - 1) / double(outSize - 1) : 0.0;
            if (!d.isNull(arg(scaleArg))) {
                PTE_TRY(const double s, scalarAt(scaleArg));
                if (s > 0)
                    return 1.0 / s;
            }
            return double(inSize) / double(outSize);
        };
        PTE_TRY(const double scaleH, scaleOf(H, OH, 3));
        PTE_TRY(const double scaleW, scaleOf(W, OW, 4));
        PTE_CHECK(resize(*out, { in->sizes[0], in->sizes[1], OH, OW }));
        const std::int64_t planes = in->sizes[0] * in->sizes[1];
        std::vector<double> r(out->numel());
        for (std::int64_t y = 0; y < OH; ++y) {
            const auto ty = antialiasTaps(scaleH, H, y);
            for (std::int64_t x = 0; x < OW; ++x) {
                const auto tx = antialiasTaps(scaleW, W, x);
                for (std::int64_t p = 0; p < planes; ++p) {
                    double acc = 0;
                    for (const auto& [jy, wy] : ty)
                        for (const auto& [jx, wx] : tx)
                            acc += wy * wx * in->get(std::size_t((p * H + jy) * W + jx));
                    r[std::size_t((p * OH + y) * OW + x)] = acc;
                }
            }
        }
        store(*out, r);
        return {};
    }

    // [grad_output, self, kernel_size, stride, padding, dilation, ceil_mode, indices, grad_input, ret]: each output
    // gradient added at the input position its index (within the plane) names; zero elsewhere
    Result<void> maxPool2dWithIndicesBackward()
    {
        PTE_CHECK(need(10));
        PTE_TRY(auto go, tensorAt(0));
        PTE_TRY(auto self, tensorAt(1));
        PTE_TRY(auto indices, tensorAt(7));
        PTE_TRY(auto out, tensorAt(8));
        const std::size_t rank = self->sizes.size();
        if ((rank != 3 && rank != 4) || go->numel() != indices->numel() || go->sizes.size() != rank)
            return invalid("needs a 3-D or 4-D input and matching gradient and indices");
        const auto plane = std::size_t(self->sizes[rank - 2] * self->sizes[rank - 1]);
        const auto outPlane = std::size_t(go->sizes[rank - 2] * go->sizes[rank - 1]);
        PTE_CHECK(resize(*out, self->sizes));
        std::vector<double> r(self->numel(), 0.0);
        for (std::size_t e = 0; e < go->numel(); ++e) {
            const auto index = std::int64_t(indices->get(e));
            if (index < 0 || std::size_t(index) >= plane)
                return invalid("index " + std::to_string(index) + " out of range");
            r[(e / std::max<std::size_t>(outPlane, 1)) * plane + std::size_t(index)] += go->get(e);
        }
        store(*out, r);
        return {};
    }

    // [grad_output, input, weight, bias_sizes?, stride, padding, dilation, transposed, output_padding, groups,
    // output_mask, grad_input, grad_weight, grad_bias, ret]: the gradients of a (not transposed) 1-D or 2-D
    // convolution by definition; an output that is None is skipped
    Result<void> convolutionBackward()
    {
        PTE_CHECK(need(15));
        PTE_TRY(auto go, tensorAt(0));
        PTE_TRY(auto in, tensorAt(1));
        PTE_TRY(auto w, tensorAt(2));
        PTE_TRY(auto stride, intList(arg(4)));
        PTE_TRY(auto padding, intList(arg(5)));
        PTE_TRY(auto dilation, intList(arg(6)));
        PTE_TRY(const double transposed, scalarAt(7));
        PTE_TRY(const double groupsD, scalarAt(9));
        PTE_TRY(auto gradInput, d.optionalTensor(arg(11)));
        PTE_TRY(auto gradWeight, d.optionalTensor(arg(12)));
        PTE_TRY(auto gradBias, d.optionalTensor(arg(13)));
        const bool oneD = in->sizes.size() == 3 && w->sizes.size() == 3 && go->sizes.size() == 3 && stride.size() == 1
            && padding.size() == 1 && dilation.size() == 1;
        if (oneD) {
            stride.insert(stride.begin(), 1);
            padding.insert(padding.begin(), 0);
            dilation.insert(dilation.begin(), 1);
        }
        if ((!oneD && (in->sizes.size() != 4 || w->sizes.size() != 4 || go->sizes.size() != 4)) || transposed != 0
            || stride.size() != 2 || padding.size() != 2 || dilation.size() != 2)
            return fail(
                ErrorCode::Unsupported, where() + ": " + op + ": only the gradients of plain 1-D and 2-D convolutions");
        const auto N = in->sizes[0], C = in->sizes[1], H = oneD ? 1 : in->sizes[2], W = in->sizes.back();
        const auto O = w->sizes[0], Cg = w->sizes[1], KH = oneD ? 1 : w->sizes[2], KW = w->sizes.back();
        const auto OH = oneD ? 1 : go->sizes[2], OW = go->sizes.back();
        const auto G = std::int64_t(groupsD);
        if (G <= 0 || Cg * G != C || O % G != 0 || go->sizes[0] != N || go->sizes[1] != O)
            return invalid("the gradient, input and weight do not match");
        std::vector<double> gi(in->numel(), 0.0), gw(w->numel(), 0.0), gb(std::size_t(O), 0.0);
        for (std::int64_t n = 0; n < N; ++n)
            for (std::int64_t o = 0; o < O; ++o) {
                const std::int64_t g = o / (O / G);
                for (std::int64_t y = 0; y < OH; ++y)
                    for (std::int64_t x = 0; x < OW; ++x) {
                        const double grad = go->get(std::size_t(((n * O + o) * OH + y) * OW + x));
                        gb[std::size_t(o)] += grad;
                        for (std::int64_t c = 0; c < Cg; ++c)
                            for (std::int64_t ky = 0; ky < KH; ++ky)
                                for (std::int64_t kx = 0; kx < KW; ++kx) {
                                    const auto iy = y * stride[0] - padding[0] + ky * dilation[0];
                                    const auto ix = x * stride[1] - padding[1] + kx * dilation[1];
                                    if (iy < 0 || iy >= H || ix < 0 || ix >= W)
                                        continue;
                                    const auto inAt = std::size_t(((n * C + g * Cg + c) * H + iy) * W + ix);
                                    const auto wAt = std::size_t(((o * Cg + c) * KH + ky) * KW + kx);
                                    gi[inAt] += grad * w->get(wAt);
                                    gw[wAt] += grad * in->get(inAt);
                                }
                    }
            }
        if (gradInput) {
            PTE_CHECK(resize(*gradInput, in->sizes));
            store(*gradInput, gi);
        }
        if (gradWeight) {
            PTE_CHECK(resize(*gradWeight, w->sizes));
            store(*gradWeight, gw);
        }
        if (gradBias) {
            PTE_CHECK(resize(*gradBias, { O }));
            store(*gradBias, gb);
        }
        return {};
    }
};

} // namespace

void registerNnKernels(KernelRegistry& registry)
{
    using F = Nn;
    registry.add("aten::convolution.out", invoke<F, &F::convolution>);
    registry.add("aten::_native_batch_norm_legit_no_training.out", invoke<F, &F::nativeBatchNormLegitNoTraining>);
    registry.add("aten::native_layer_norm.out", invoke<F, &F::nativeLayerNorm>);
    registry.add("aten::_softmax.out", invoke<F, &F::softmax>);
    registry.add("aten::_log_softmax.out", invoke<F, &F::softmax>);
    registry.add("aten::max_pool2d_with_indices.out", invoke<F, &F::maxPool2dWithIndices>);
    registry.add("aten::_adaptive_avg_pool2d.out", invoke<F, &F::adaptiveAvgPool2d>);
    registry.add("aten::_native_batch_norm_legit.out", invoke<F, &F::nativeBatchNormLegit>);
    registry.add("aten::_native_batch_norm_legit.no_stats_out", invoke<F, &F::nativeBatchNormLegit>);
    registry.add("aten::avg_pool2d.out", invoke<F, &F::avgPool2d>);
    registry.add("aten::upsample_nearest2d.vec_out", invoke<F, &F::upsampleNearest2d>);
    registry.add("aten::upsample_bilinear2d.vec_out", invoke<F, &F::upsampleNearest2d>);
    registry.add("aten::native_group_norm.out", invoke<F, &F::nativeGroupNorm>);
    registry.add("aten::grid_sampler_2d.out", invoke<F, &F::gridSampler2d>);
    registry.add("aten::_upsample_bilinear2d_aa.out", invoke<F, &F::upsampleBilinear2dAa>);
    registry.add("aten::max_pool2d_with_indices_backward.grad_input", invoke<F, &F::maxPool2dWithIndicesBackward>);
    registry.add("aten::convolution_backward.out", invoke<F, &F::convolutionBackward>);
}

} // namespace pte::interp
