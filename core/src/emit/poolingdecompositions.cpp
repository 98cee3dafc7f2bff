// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// Pooling over three dimensions and sliding windows: avg_pool3d, max_pool3d (with indices), adaptive 3-D pooling,
// im2col (nn.Unfold) and col2im (nn.Fold). ExecuTorch's portable library has 2-D pooling kernels only; a pool over
// a (D, H, W) box is separable (each dimension's windows, padding and divisor depend on that dimension alone), so
// each becomes a 2-D pool over (H, W) followed by one over D. docs/lowering.md ("Pooling in three dimensions")
// explains the argument; docs/decompositions.md lists what each op becomes.
#include "emit/decomposer_p.h"

#include <optional>
#include <string>
#include <vector>

namespace pte::emitcore {

namespace {

using Ints = std::vector<std::int64_t>;

/** A list argument of int[N] (one value repeats N times; an empty list is `fallback`). */
std::optional<Ints> intsOfLength(const ArgMap& a, std::string_view name, std::size_t n, const Ints& fallback)
{
    auto v = Decomposer::intList(a, name);
    if (!v)
        return Decomposer::isNone(a, name) ? std::optional(fallback) : std::nullopt;
    if (v->empty())
        return fallback;
    if (v->size() == 1)
        v->assign(n, (*v)[0]);
    if (v->size() != n)
        return std::nullopt;
    return v;
}

/** The output size of one pooled dimension, as ATen's pooling_output_shape. */
std::int64_t pooledSize(
    std::int64_t in, std::int64_t k, std::int64_t s, std::int64_t p, bool ceil, std::int64_t dil = 1)
{
    const std::int64_t span = in + 2 * p - dil * (k - 1) - 1 + (ceil ? s - 1 : 0);
    std::int64_t out = (span >= 0 ? span / s : -((-span + s - 1) / s)) + 1;
    if (ceil && (out - 1) * s >= in + p) // the last window must start inside the input or its left padding
        --out;
    return out;
}

/** avg_pool2d.out over the last two dimensions of a 3-D or 4-D x (static height and width). */
int avgPool2d(OpBuilder& b, int x, const Ints& k, const Ints& s, const Ints& p, bool ceil, bool countIncludePad,
    std::optional<std::int64_t> divisor)
{
    if (b.failed() || x < 0)
        return -1;
    OutSpec o = b.like(x);
    const auto r = o.sizes.size();
    for (std::size_t d = 0; d < 2; ++d) {
        const auto n = pooledSize(o.sizes[r - 2 + d], k[d], s[d], p[d], ceil);
        if (n <= 0)
            return b.error(ErrorCode::InvalidInput, "the pooled output would be empty");
        o.sizes[r - 2 + d] = std::int32_t(n);
    }
    return b.call1("avg_pool2d", "out",
        { { "self", LArg::tensor(x) }, { "kernel_size", OpBuilder::ints(k) }, { "stride", OpBuilder::ints(s) },
            { "padding", OpBuilder::ints(p) }, { "ceil_mode", OpBuilder::boolean(ceil) },
            { "count_include_pad", OpBuilder::boolean(countIncludePad) },
            { "divisor_override", divisor ? OpBuilder::integer(*divisor) : OpBuilder::none() } },
        o);
}

/** max_pool2d_with_indices.out over the last two dimensions of a 4-D x: {values, indices}. */
std::vector<int> maxPool2d(OpBuilder& b, int x, const Ints& k, const Ints& s, const Ints& p, const Ints& dil, bool ceil)
{
    if (b.failed() || x < 0)
        return { -1, -1 };
    OutSpec o = b.like(x);
    const auto r = o.sizes.size();
    for (std::size_t d = 0; d < 2; ++d) {
        const auto n = pooledSize(o.sizes[r - 2 + d], k[d], s[d], p[d], ceil, dil[d]);
        if (n <= 0) {
            b.error(ErrorCode::InvalidInput, "the pooled output would be empty");
            return { -1, -1 };
        }
        o.sizes[r - 2 + d] = std::int32_t(n);
    }
    OutSpec oi = o;
    oi.dtype = ScalarType::Long;
    return b.call("max_pool2d_with_indices", "out",
        { { "self", LArg::tensor(x) }, { "kernel_size", OpBuilder::ints(k) }, { "stride", OpBuilder::ints(s) },
            { "padding", OpBuilder::ints(p) }, { "dilation", OpBuilder::ints(dil) },
            { "ceil_mode", OpBuilder::boolean(ceil) } },
        { o, oi });
}

/** The leading dimensions of a (..., D, H, W) input and their product. */
struct Lead
{
    Dims dims;
    IntElem batch = OpBuilder::lit(1);
};

Lead leadOf(OpBuilder& b, int x, std::size_t spatial)
{
    Lead l;
    for (std::size_t i = 0; i + spatial < b.rank(x); ++i) {
        l.dims.push_back(b.dim(x, std::int64_t(i)));
        l.batch = b.mulInt(l.batch, l.dims.back());
    }
    return l;
}

/** `lead` followed by `tail`. */
Dims withTail(Dims lead, const Ints& tail)
{
    for (const auto t : tail)
        lead.push_back(OpBuilder::lit(t));
    return lead;
}

/** A 4-D or 5-D input with static depth, height and width: nullopt; otherwise the node's error (invalid for another
 *  rank, refused for a dynamic spatial size). */
std::optional<Result<bool>> spatial3dProblem(Decomposer& d, int x, const std::string& op)
{
    OpBuilder& b = d.b;
    if (x < 0 || (b.rank(x) != 4 && b.rank(x) != 5))
        return d.invalid(op + " needs a 4-D or 5-D input");
    for (std::int64_t k = -3; k < 0; ++k)
        if (b.isDynamic(x, k))
            return d.refuse(op + " over a dynamic depth, height or width is not lowered");
    return std::nullopt;
}

/** The window of a 3-D pool: kernel, stride, padding, dilation per (D, H, W) and ceil_mode. */
struct Window3d
{
    Ints k, s, p, dil { 1, 1, 1 };
    bool ceil = false;
};

/**
 * max_pool3d_with_indices over the last three dimensions of x: max_pool2d_with_indices over (H, W) of x viewed as
 * (B, D, H, W), then over (D, 1) of the result viewed as (B, 1, D, H'*W'). The maximum of a box is the maximum over
 * its depth of the plane maxima, and the first maximum in (d, h, w) order is the plane's first maximum in the first
 * depth that holds it, as ATen's scan finds it. Its index in D*H*W: the second pass's index d*H'W' + j addresses the
 * first pass's indices viewed flat (gather gives h*W + w), and d*H*W comes from a constant table indexed by it.
 * Returns {values, indices or -1}.
 */
std::vector<int> maxPool3d(OpBuilder& b, int x, const Window3d& w, bool wantIndices)
{
    const Lead lead = leadOf(b, x, 3);
    const std::int64_t depth = b.size(x, -3), height = b.size(x, -2), width = b.size(x, -1);
    const int planes =
        b.view(x, Dims { lead.batch, OpBuilder::lit(depth), OpBuilder::lit(height), OpBuilder::lit(width) });
    const auto first = maxPool2d(
        b, planes, { w.k[1], w.k[2] }, { w.s[1], w.s[2] }, { w.p[1], w.p[2] }, { w.dil[1], w.dil[2] }, w.ceil);
    if (b.failed())
        return { -1, -1 };
    const std::int64_t oh = b.size(first[0], -2), ow = b.size(first[0], -1);
    const int columns =
        b.view(first[0], Dims { lead.batch, OpBuilder::lit(1), OpBuilder::lit(depth), OpBuilder::lit(oh * ow) });
    const auto second = maxPool2d(b, columns, { w.k[0], 1 }, { w.s[0], 1 }, { w.p[0], 0 }, { w.dil[0], 1 }, w.ceil);
    if (b.failed())
        return { -1, -1 };
    const std::int64_t od = b.size(second[0], -2);
    const int values = b.view(second[0], withTail(lead.dims, { od, oh, ow }));
    if (!wantIndices)
        return { values, -1 };
    const int secondFlat = b.view(second[1], Dims { lead.batch, OpBuilder::lit(1), OpBuilder::lit(od * oh * ow) });
    const int firstFlat = b.view(first[1], Dims { lead.batch, OpBuilder::lit(1), OpBuilder::lit(depth * oh * ow) });
    const int inPlane = b.call1("gather", "out",
        { { "self", LArg::tensor(firstFlat) }, { "dim", OpBuilder::integer(2) }, { "index", LArg::tensor(secondFlat) },
            { "sparse_grad", OpBuilder::boolean(false) } },
        b.like(secondFlat));
    std::vector<double> depthOffset(std::size_t(depth * oh * ow));
    for (std::size_t i = 0; i < depthOffset.size(); ++i)
        depthOffset[i] = double((std::int64_t(i) / (oh * ow)) * height * width);
    const int table = b.constant(depthOffset, { std::int32_t(depthOffset.size()) }, ScalarType::Long);
    const int offsets =
        b.indexSelect(table, 0, b.view(second[1], Dims { b.mulInt(lead.batch, OpBuilder::lit(od * oh * ow)) }));
    const int indices =
        b.add(b.view(offsets, Dims { lead.batch, OpBuilder::lit(1), OpBuilder::lit(od * oh * ow) }), inPlane);
    return { values, b.view(indices, withTail(lead.dims, { od, oh, ow })) };
}

// max_pool3d / max_pool3d_with_indices(self, kernel_size, stride=[], padding=0, dilation=1, ceil_mode=False), with
// ATen's checks (pool3d_shape_check): positive kernel, stride and dilation, padding at most half the kernel.
Result<bool> decomposeMaxPool3d(Decomposer& d)
{
    PTE_TRY(const auto a, d.args());
    OpBuilder& b = d.b;
    const std::string op(d.target().op);
    const int x = Decomposer::tensor(a, "self");
    if (auto problem = spatial3dProblem(d, x, op))
        return std::move(*problem);
    Window3d w;
    const auto kernel = intsOfLength(a, "kernel_size", 3, {});
    if (!kernel || kernel->empty())
        return d.invalid(op + ": kernel_size must be one int or three");
    const auto stride = intsOfLength(a, "stride", 3, *kernel);
    const auto padding = intsOfLength(a, "padding", 3, { 0, 0, 0 });
    const auto dilation = intsOfLength(a, "dilation", 3, { 1, 1, 1 });
    if (!stride || !padding || !dilation)
        return d.invalid(op + ": stride, padding and dilation must be one int or three");
    w.k = *kernel;
    w.s = *stride;
    w.p = *padding;
    w.dil = *dilation;
    w.ceil = Decomposer::flag(a, "ceil_mode");
    for (std::size_t i = 0; i < 3; ++i) {
        if (w.k[i] <= 0 || w.s[i] <= 0 || w.dil[i] <= 0 || w.p[i] < 0)
            return d.invalid(op + ": kernel, stride and dilation must be positive, padding non-negative");
        if (w.p[i] > w.k[i] / 2)
            return d.invalid(op + ": pad should be smaller than or equal to half of kernel size");
    }
    const bool withIndices = op == "max_pool3d_with_indices";
    const auto outs = maxPool3d(b, x, w, withIndices);
    if (withIndices)
        return d.finish({ outs[0], outs[1] });
    return d.finish({ outs[0] });
}

// avg_pool3d: avg_pool2d over (H, W) of the input viewed as (B, D, H, W), then avg_pool2d with kernel (kD, 1) over
// (D, H'*W') of (B, 1, D, H'*W'): the same windows and divisors (padded or clipped count, with ceil_mode), each
// dimension's share depending on that dimension alone. divisor_override: the first pass sums (divisor 1), the second
// divides. (local_response_norm of 4-D and larger inputs pools with it.)
Result<bool> decomposeAvgPool3d(Decomposer& d)
{
    PTE_TRY(const auto a, d.args());
    auto& b = d.b;
    const int x = Decomposer::tensor(a, "self");
    if (auto problem = spatial3dProblem(d, x, "avg_pool3d"))
        return std::move(*problem);
    const auto kernel = intsOfLength(a, "kernel_size", 3, {});
    if (!kernel || kernel->empty())
        return d.invalid("avg_pool3d: kernel_size must be one int or three");
    const auto stride = intsOfLength(a, "stride", 3, *kernel);
    const auto padding = intsOfLength(a, "padding", 3, { 0, 0, 0 });
    if (!stride || !padding)
        return d.invalid("avg_pool3d: stride and padding must be one int or three");
    const auto& k = *kernel;
    const auto& s = *stride;
    const auto& p = *padding;
    for (std::size_t i = 0; i < 3; ++i) {
        if (k[i] <= 0 || s[i] <= 0 || p[i] < 0)
            return d.invalid("avg_pool3d: kernel and stride must be positive, padding non-negative");
        if (p[i] > k[i] / 2)
            return d.invalid("avg_pool3d: pad should be at most half of the effective kernel size");
    }
    const bool ceil = Decomposer::flag(a, "ceil_mode");
    const bool countIncludePad = Decomposer::flag(a, "count_include_pad", true);
    std::optional<std::int64_t> divisor;
    if (!Decomposer::isNone(a, "divisor_override")) {
        divisor = Decomposer::integer(a, "divisor_override");
        if (*divisor == 0)
            return d.invalid("avg_pool3d: divisor must be not zero");
    }
    const Lead lead = leadOf(b, x, 3);
    std::int64_t depth = b.size(x, -3);
    std::int64_t height = b.size(x, -2);
    std::int64_t width = b.size(x, -1);
    const bool planePass = !(k[1] == 1 && k[2] == 1 && s[1] == 1 && s[2] == 1 && p[1] == 0 && p[2] == 0);
    const bool depthPass = !planePass || !(k[0] == 1 && s[0] == 1 && p[0] == 0);
    int cur = x;
    if (planePass) {
        cur = b.view(cur, Dims { lead.batch, OpBuilder::lit(depth), OpBuilder::lit(height), OpBuilder::lit(width) });
        cur = avgPool2d(b, cur, { k[1], k[2] }, { s[1], s[2] }, { p[1], p[2] }, ceil, countIncludePad,
            depthPass && divisor ? std::optional<std::int64_t>(1) : divisor);
        height = b.size(cur, -2);
        width = b.size(cur, -1);
    }
    if (depthPass) {
        cur =
            b.view(cur, Dims { lead.batch, OpBuilder::lit(1), OpBuilder::lit(depth), OpBuilder::lit(height * width) });
        cur = avgPool2d(b, cur, { k[0], 1 }, { s[0], 1 }, { p[0], 0 }, ceil, countIncludePad, divisor);
        depth = b.size(cur, -2);
    }
    return d.finish({ b.view(cur, withTail(lead.dims, { depth, height, width })) });
}

/** A positive output size of three (one value repeats). */
std::optional<Ints> outputSize3d(const ArgMap& a)
{
    auto size = intsOfLength(a, "output_size", 3, {});
    if (!size || size->size() != 3)
        return std::nullopt;
    for (const auto v : *size)
        if (v <= 0)
            return std::nullopt;
    return size;
}

// adaptive_avg_pool3d / _adaptive_avg_pool3d(self, output_size): adaptive windows [floor(i*In/Out),
// ceil((i+1)*In/Out)) per dimension, each dimension's alone, so _adaptive_avg_pool2d to (oh, ow) over (H, W) of
// (B, D, H, W), then _adaptive_avg_pool2d to (od, oh*ow) over (D, oh*ow) (the second size unchanged: windows of
// one). adaptive_avg_pool3d to (1, 1, 1) is ATen's mean over the three dimensions (keepdim), as its composite does.
Result<bool> decomposeAdaptiveAvgPool3d(Decomposer& d)
{
    PTE_TRY(const auto a, d.args());
    OpBuilder& b = d.b;
    const std::string op(d.target().op);
    const int x = Decomposer::tensor(a, "self");
    if (auto problem = spatial3dProblem(d, x, op))
        return std::move(*problem);
    const auto size = outputSize3d(a);
    if (!size)
        return d.invalid(op + " needs three positive output sizes");
    const Ints& o = *size;
    if (op == "adaptive_avg_pool3d" && o == Ints { 1, 1, 1 })
        return d.finish({ b.mean(x, { -3, -2, -1 }, true) });
    const Lead lead = leadOf(b, x, 3);
    const std::int64_t depth = b.size(x, -3), height = b.size(x, -2), width = b.size(x, -1);
    auto adaptive2d = [&](int in, std::int64_t rows, std::int64_t cols) {
        OutSpec s = b.like(in);
        if (b.failed())
            return -1;
        s.sizes[s.sizes.size() - 2] = std::int32_t(rows);
        s.sizes.back() = std::int32_t(cols);
        return b.call1("_adaptive_avg_pool2d", "out",
            { { "self", LArg::tensor(in) }, { "output_size", OpBuilder::ints({ rows, cols }) } }, s);
    };
    const int planes =
        adaptive2d(b.view(x, Dims { lead.batch, OpBuilder::lit(depth), OpBuilder::lit(height), OpBuilder::lit(width) }),
            o[1], o[2]);
    const int columns = adaptive2d(
        b.view(planes, Dims { lead.batch, OpBuilder::lit(1), OpBuilder::lit(depth), OpBuilder::lit(o[1] * o[2]) }),
        o[0], o[1] * o[2]);
    return d.finish({ b.view(columns, withTail(lead.dims, o)) });
}

// adaptive_max_pool3d(self, output_size) -> (values, indices): when the output size divides the (static) input size
// every window is the same block, which is max_pool3d_with_indices with kernel = stride = input / output (lowered as
// above). Other sizes have windows of different sizes: refused, as for adaptive_max_pool2d.
Result<bool> decomposeAdaptiveMaxPool3d(Decomposer& d)
{
    PTE_TRY(const auto a, d.args());
    OpBuilder& b = d.b;
    const int x = Decomposer::tensor(a, "self");
    if (auto problem = spatial3dProblem(d, x, "adaptive_max_pool3d"))
        return std::move(*problem);
    const auto size = outputSize3d(a);
    if (!size)
        return d.invalid("adaptive_max_pool3d needs three positive output sizes");
    Window3d w;
    for (std::size_t i = 0; i < 3; ++i) {
        const std::int64_t in = b.size(x, std::int64_t(i) - 3);
        if (in % (*size)[i] != 0)
            return d.refuse("adaptive_max_pool3d to " + std::to_string((*size)[0]) + "x" + std::to_string((*size)[1])
                + "x" + std::to_string((*size)[2])
                + ": only output sizes that divide the input are lowered (as max_pool3d_with_indices); the runtime has "
                  "no adaptive_max_pool3d kernel");
        w.k.push_back(in / (*size)[i]);
    }
    w.s = w.k;
    w.p = { 0, 0, 0 };
    const auto outs = maxPool3d(b, x, w, true);
    return d.finish({ outs[0], outs[1] });
}

/** The sliding windows of im2col / col2im over a static (H, W) image. */
struct Sliding
{
    Ints k, dil, p, s;
    std::int64_t height = 0, width = 0; ///< the image, unpadded
    std::int64_t rows = 0, cols = 0; ///< windows along H and W

    [[nodiscard]] std::int64_t paddedWidth() const { return width + 2 * p[1]; }
    /** Each window element's position in the padded image, flattened: (ki, kj) outer, then the windows row-major,
     *  the order of im2col's columns (channel c*kh*kw + ki*kw + kj, column r*cols + c). */
    [[nodiscard]] std::vector<double> positions() const
    {
        std::vector<double> v;
        v.reserve(std::size_t(k[0] * k[1] * rows * cols));
        for (std::int64_t ki = 0; ki < k[0]; ++ki)
            for (std::int64_t kj = 0; kj < k[1]; ++kj)
                for (std::int64_t r = 0; r < rows; ++r)
                    for (std::int64_t c = 0; c < cols; ++c)
                        v.push_back(double((ki * dil[0] + r * s[0]) * paddedWidth() + kj * dil[1] + c * s[1]));
        return v;
    }
};

/** Reads kernel_size, dilation, padding and stride (int[2] each) with im2col's checks; the image size is set after. */
std::optional<std::string> readSliding(const ArgMap& a, const std::string& op, Sliding& w)
{
    const auto k = intsOfLength(a, "kernel_size", 2, {});
    const auto dil = intsOfLength(a, "dilation", 2, {});
    const auto p = intsOfLength(a, "padding", 2, {});
    const auto s = intsOfLength(a, "stride", 2, {});
    if (!k || !dil || !p || !s || k->size() != 2 || dil->size() != 2 || p->size() != 2 || s->size() != 2)
        return op + ": kernel_size, dilation, padding and stride must be two ints each";
    w.k = *k;
    w.dil = *dil;
    w.p = *p;
    w.s = *s;
    for (std::size_t i = 0; i < 2; ++i) {
        if (w.k[i] <= 0 || w.dil[i] <= 0 || w.s[i] <= 0 || w.p[i] < 0)
            return op + ": kernel size, dilation and stride must be greater than zero, padding non-negative";
    }
    return std::nullopt;
}

/** Sets the image size and the window counts; an error when no window fits. */
std::optional<std::string> sizeSliding(Sliding& w, std::int64_t height, std::int64_t width, const std::string& op)
{
    w.height = height;
    w.width = width;
    w.rows = (height + 2 * w.p[0] - w.dil[0] * (w.k[0] - 1) - 1) / w.s[0] + 1;
    w.cols = (width + 2 * w.p[1] - w.dil[1] * (w.k[1] - 1) - 1) / w.s[1] + 1;
    if (w.rows < 1 || w.cols < 1 || height + 2 * w.p[0] - w.dil[0] * (w.k[0] - 1) - 1 < 0
        || width + 2 * w.p[1] - w.dil[1] * (w.k[1] - 1) - 1 < 0)
        return op + ": given an image of " + std::to_string(height) + "x" + std::to_string(width)
            + " the calculated number of sliding blocks is not positive";
    return std::nullopt;
}

// im2col(self, kernel_size, dilation, padding, stride) -> (N, C*kh*kw, L) of an (N, C, H, W) or (C, H, W) image:
// constant_pad_nd, the padded image viewed as (N, C, Hp*Wp), index_select of every window element's position (a
// constant), view_copy to (N, C*kh*kw, L). Exact: it only moves values.
Result<bool> decomposeIm2col(Decomposer& d)
{
    PTE_TRY(const auto a, d.args());
    OpBuilder& b = d.b;
    const int x = Decomposer::tensor(a, "self");
    if (x < 0 || (b.rank(x) != 3 && b.rank(x) != 4))
        return d.invalid("im2col expects a 3-D or 4-D input");
    if (b.isDynamic(x, -1) || b.isDynamic(x, -2) || b.isDynamic(x, -3))
        return d.refuse("im2col over a dynamic channel count, height or width is not lowered");
    Sliding w;
    if (auto problem = readSliding(a, "im2col", w))
        return d.invalid(*problem);
    if (auto problem = sizeSliding(w, b.size(x, -2), b.size(x, -1), "im2col"))
        return d.invalid(*problem);
    const Lead lead = leadOf(b, x, 3);
    const std::int64_t channels = b.size(x, -3);
    int padded = x;
    if (w.p[0] || w.p[1])
        padded = b.constantPad(x, { w.p[1], w.p[1], w.p[0], w.p[0] }, 0.0);
    const std::int64_t plane = (w.height + 2 * w.p[0]) * w.paddedWidth();
    const auto positions = w.positions();
    const int index = b.constant(positions, { std::int32_t(positions.size()) }, ScalarType::Long);
    const int flat = b.view(padded, withTail(lead.dims, { channels, plane }));
    const int picked = b.indexSelect(flat, -1, index);
    return d.finish({ b.view(picked, withTail(lead.dims, { channels * w.k[0] * w.k[1], w.rows * w.cols })) });
}

// col2im(self, output_size, kernel_size, dilation, padding, stride) -> (N, C, H, W) of (N, C*kh*kw, L) columns: the
// columns viewed as (N, C, kh*kw*L) are scatter_add'ed into zeros of the padded image (N, C, Hp*Wp) at the same
// positions im2col reads, in that order (kernel offset outer, as ATen's col2im adds them), then the padding is
// sliced off.
Result<bool> decomposeCol2im(Decomposer& d)
{
    PTE_TRY(const auto a, d.args());
    OpBuilder& b = d.b;
    const int x = Decomposer::tensor(a, "self");
    if (x < 0 || (b.rank(x) != 2 && b.rank(x) != 3))
        return d.invalid("col2im expects a 2-D or 3-D input");
    if (b.isDynamic(x, -1) || b.isDynamic(x, -2))
        return d.refuse("col2im of a dynamic number of columns or rows is not lowered");
    const auto size = intsOfLength(a, "output_size", 2, {});
    if (!size || size->size() != 2 || (*size)[0] <= 0 || (*size)[1] <= 0)
        return d.invalid("col2im needs two positive output sizes");
    Sliding w;
    if (auto problem = readSliding(a, "col2im", w))
        return d.invalid(*problem);
    if (auto problem = sizeSliding(w, (*size)[0], (*size)[1], "col2im"))
        return d.invalid(*problem);
    const std::int64_t kernel = w.k[0] * w.k[1];
    const std::int64_t rowsIn = b.size(x, -2), columns = b.size(x, -1);
    if (rowsIn % kernel != 0)
        return d.invalid("col2im: expected size of input's dimension 1 (" + std::to_string(rowsIn)
            + ") to be divisible by the product of kernel_size (" + std::to_string(kernel) + ")");
    if (columns != w.rows * w.cols)
        return d.invalid("col2im: given output_size, kernel_size, dilation, padding and stride, expected "
            + std::to_string(w.rows * w.cols) + " blocks in the input's last dimension, got "
            + std::to_string(columns));
    const Lead lead = leadOf(b, x, 2);
    const std::int64_t channels = rowsIn / kernel;
    const std::int64_t paddedHeight = w.height + 2 * w.p[0];
    const auto positions = w.positions();
    const int src = b.view(x, withTail(lead.dims, { channels, kernel * columns }));
    const int table = b.constant(positions, { 1, std::int32_t(positions.size()) }, ScalarType::Long);
    Dims indexShape = withTail(lead.dims, { channels, kernel * columns });
    const int index = b.expand(lead.dims.empty() ? table : b.unsqueeze(table, 0), indexShape);
    const int zeros = b.full(withTail(lead.dims, { channels, paddedHeight * w.paddedWidth() }), 0.0, b.dtype(x));
    const int summed = b.call1("scatter_add", "out",
        { { "self", LArg::tensor(zeros) }, { "dim", OpBuilder::integer(-1) }, { "index", LArg::tensor(index) },
            { "src", LArg::tensor(src) } },
        b.like(zeros));
    int image = b.view(summed, withTail(lead.dims, { channels, paddedHeight, w.paddedWidth() }));
    if (w.p[0])
        image = b.slice(image, -2, w.p[0], w.p[0] + w.height);
    if (w.p[1])
        image = b.slice(image, -1, w.p[1], w.p[1] + w.width);
    return d.finish({ image });
}

const DecompositionRule kPoolingRules[] = {
    { "avg_pool3d", &decomposeAvgPool3d,
        "avg_pool2d over (H, W) of the input viewed as (B, D, H, W), then avg_pool2d with kernel (kD, 1) over "
        "(D, H'*W'), view_copy back (separable windows and divisors)" },
    { "max_pool3d", &decomposeMaxPool3d,
        "max_pool2d_with_indices over (H, W) of the input viewed as (B, D, H, W), then with kernel (kD, 1) over "
        "(D, H'*W'), view_copy back (separable windows)" },
    { "max_pool3d_with_indices", &decomposeMaxPool3d,
        "as max_pool3d; indices: gather of the first pass's indices at the second's, plus d*H*W from a constant "
        "table (index_select, add)" },
    { "adaptive_avg_pool3d", &decomposeAdaptiveAvgPool3d,
        "mean over D, H, W for (1, 1, 1); else _adaptive_avg_pool2d over (H, W), then over (D, oh*ow), view_copy "
        "back" },
    { "_adaptive_avg_pool3d", &decomposeAdaptiveAvgPool3d,
        "_adaptive_avg_pool2d over (H, W) of the input viewed as (B, D, H, W), then over (D, oh*ow), view_copy back" },
    { "adaptive_max_pool3d", &decomposeAdaptiveMaxPool3d,
        "max_pool3d_with_indices (kernel = stride = input / output, lowered as above) when the output divides the "
        "input; else refused" },
    { "im2col", &decomposeIm2col,
        "constant_pad_nd, view_copy (N, C, Hp*Wp), index_select of every window element (constant positions), "
        "view_copy (N, C*kh*kw, L)" },
    { "col2im", &decomposeCol2im,
        "view_copy (N, C, kh*kw*L), scatter_add into full (zeros) of (N, C, Hp*Wp) at im2col's positions (expand_copy "
        "of a constant), view_copy, slice_copy of the padding" },
};

} // namespace

std::span<const DecompositionRule> poolingRules() { return kPoolingRules; }

} // namespace pte::emitcore
