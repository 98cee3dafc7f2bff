// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// Convolutions: conv1d/2d/3d (padding='same'/'valid' included), conv_transpose1d/2d/3d, padding modes, pad.
// Each decomposition follows the op's PyTorch definition (torch's core decomposition table or the op's composite
// implementation); docs/decompositions.md lists what each becomes.
#include "emit/decomposer_p.h"

#include <algorithm>
#include <limits>

namespace pte::emitcore {

namespace {

using Ints = std::vector<std::int64_t>;

std::string showInts(const Ints& v)
{
    std::string r = "[";
    for (std::size_t k = 0; k < v.size(); ++k)
        r += (k ? ", " : "") + std::to_string(v[k]);
    return r + "]";
}

/** An int-list argument with `n` values (one value stands for all, as torch expands `int` to `int[n]`). */
std::optional<Ints> spatialList(const ArgMap& a, std::string_view name, std::size_t n)
{
    auto v = Decomposer::intList(a, name);
    if (!v)
        return std::nullopt;
    if (v->size() == 1 && n > 1)
        v->assign(n, (*v)[0]);
    if (v->size() != n)
        return std::nullopt;
    return v;
}

struct ConvParams
{
    Ints stride;
    Ints padding;
    Ints dilation;
    bool transposed = false;
    Ints outputPadding;
    std::int64_t groups = 1;
};

/**
 * aten::convolution.out of a batched input (N, C, *spatial), its output shape derived as torch's meta function does:
 * (in + 2p - d(k - 1) - 1) / s + 1, transposed (in - 1)s - 2p + d(k - 1) + output_padding + 1. A dynamic spatial
 * size gives a dynamic output size (the formula is increasing, so its value at the upper bound is the bound).
 */
int convolution(OpBuilder& b, int x, int w, int bias, const ConvParams& p)
{
    if (b.failed() || x < 0 || w < 0)
        return -1;
    const auto r = b.rank(x);
    const std::size_t n = r - 2;
    if (b.rank(w) != r || p.stride.size() != n || p.padding.size() != n || p.dilation.size() != n
        || (p.transposed && p.outputPadding.size() != n))
        return b.error(
            ErrorCode::InvalidInput, "convolution arguments do not match a " + std::to_string(n) + "-D input");
    if (p.groups <= 0)
        return b.error(ErrorCode::InvalidInput, "convolution with groups " + std::to_string(p.groups));
    OutSpec s = b.like(x);
    s.dynamicDims &= 1u; // the batch dimension stays as it is; channels are the weight's
    s.sizes[1] = p.transposed ? std::int32_t(p.groups * b.size(w, 1)) : b.size(w, 0);
    for (std::size_t d = 0; d < n; ++d) {
        const std::int64_t in = b.size(x, std::int64_t(d + 2));
        const std::int64_t k = b.size(w, std::int64_t(d + 2));
        const std::int64_t out = p.transposed
            ? (in - 1) * p.stride[d] - 2 * p.padding[d] + p.dilation[d] * (k - 1) + p.outputPadding[d] + 1
            : (in + 2 * p.padding[d] - p.dilation[d] * (k - 1) - 1) / std::max<std::int64_t>(p.stride[d], 1) + 1;
        if (out <= 0 && !b.isDynamic(x, std::int64_t(d + 2)))
            return b.error(ErrorCode::InvalidInput,
                "the convolution's output would have size " + std::to_string(out) + " in spatial dimension "
                    + std::to_string(d) + " (input size " + std::to_string(in) + ", kernel size " + std::to_string(k)
                    + "): the kernel is larger than the padded input");
        s.sizes[d + 2] = std::int32_t(std::max<std::int64_t>(out, 0));
        if (b.isDynamic(x, std::int64_t(d + 2)))
            s.dynamicDims |= 1u << (d + 2);
    }
    return b.call1("convolution", "out",
        { { "input", LArg::tensor(x) }, { "weight", LArg::tensor(w) },
            { "bias", bias >= 0 ? LArg::tensor(bias) : OpBuilder::none() }, { "stride", OpBuilder::ints(p.stride) },
            { "padding", OpBuilder::ints(p.padding) }, { "dilation", OpBuilder::ints(p.dilation) },
            { "transposed", OpBuilder::boolean(p.transposed) },
            { "output_padding", OpBuilder::ints(p.transposed ? p.outputPadding : Ints(n, 0)) },
            { "groups", OpBuilder::integer(p.groups) } },
        s);
}

/**
 * A 3-D convolution (5-D input, not transposed), which ExecuTorch's portable convolution kernel refuses ("Expect input
 * tensor to be 3-D or 4-D"), as a sum over the kernel's depth taps of 2-D convolutions: the input zero-padded in depth
 * (constant_pad_nd), for tap kd the depth slices kd * dilation + od * stride (slice_copy with step) folded into the
 * batch (permute_copy + view_copy to (N * oD, C, H, W)), convolved with weight[:, :, kd] (select_copy) by the 2-D
 * convolution with the remaining stride / padding / dilation / groups (the bias in the first tap's), summed (add), and
 * the batch unfolded again (view_copy + permute_copy).
 */
int convolution3d(OpBuilder& b, int x, int w, int bias, const ConvParams& p)
{
    if (b.failed() || x < 0 || w < 0)
        return -1;
    if (b.isDynamic(x, 2))
        return b.error(ErrorCode::Unsupported, "a 3-D convolution over a dynamic depth is not lowered");
    const std::int64_t kd = b.size(w, 2);
    int padded = x;
    if (p.padding[0] > 0)
        padded = b.constantPad(x, { 0, 0, 0, 0, p.padding[0], p.padding[0] }, 0.0);
    const std::int64_t depth = b.size(padded, 2);
    const std::int64_t od = (depth - p.dilation[0] * (kd - 1) - 1) / p.stride[0] + 1;
    if (od <= 0)
        return b.error(ErrorCode::InvalidInput, "the 3-D convolution's output would have depth " + std::to_string(od));
    const ConvParams p2 { { p.stride[1], p.stride[2] }, { p.padding[1], p.padding[2] },
        { p.dilation[1], p.dilation[2] }, false, {}, p.groups };
    const IntElem batch = b.dim(x, 0);
    const IntElem folded = b.mulInt(batch, OpBuilder::lit(od));
    int sum = -1;
    for (std::int64_t k = 0; k < kd; ++k) {
        const std::int64_t start = k * p.dilation[0];
        const int taps = b.slice(padded, 2, start, start + (od - 1) * p.stride[0] + 1, p.stride[0]);
        const int moved = b.permute(taps, { 0, 2, 1, 3, 4 }); // (N, oD, C, H, W)
        const int flat = b.view(moved, Dims { folded, b.dim(x, 1), b.dim(x, 3), b.dim(x, 4) });
        const int y = convolution(b, flat, b.select(w, 2, k), k == 0 ? bias : -1, p2);
        sum = sum < 0 ? y : b.add(sum, y);
    }
    const int unfolded = b.view(sum, Dims { batch, OpBuilder::lit(od), b.dim(sum, 1), b.dim(sum, 2), b.dim(sum, 3) });
    return b.permute(unfolded, { 0, 2, 1, 3, 4 });
}

/**
 * A transposed 3-D convolution, which the portable convolution kernel refuses as well, as a sum over the kernel's
 * depth taps of transposed 2-D convolutions: the input's depth folded into the batch (permute_copy + view_copy to
 * (N * D, C, H, W)), for tap kd the transposed 2-D convolution with weight[:, :, kd] (select_copy) and the remaining
 * stride / padding / output_padding / groups / dilation, unfolded to (N, C_out, D, oH, oW) and added at depths
 * d * stride + kd * dilation of a zero-filled accumulator (full, slice_copy, add, slice_scatter with step); the
 * output is the accumulator's depths [padding, padding + oD) (slice_copy), plus the bias (view_copy, add).
 */
int convolutionTranspose3d(OpBuilder& b, int x, int w, int bias, const ConvParams& p)
{
    if (b.failed() || x < 0 || w < 0)
        return -1;
    if (b.isDynamic(x, 2))
        return b.error(ErrorCode::Unsupported, "a transposed 3-D convolution over a dynamic depth is not lowered");
    const std::int64_t depth = b.size(x, 2);
    const std::int64_t kd = b.size(w, 2);
    const std::int64_t od =
        (depth - 1) * p.stride[0] - 2 * p.padding[0] + p.dilation[0] * (kd - 1) + p.outputPadding[0] + 1;
    if (od <= 0)
        return b.error(
            ErrorCode::InvalidInput, "the transposed 3-D convolution's output would have depth " + std::to_string(od));
    const std::int64_t span = (depth - 1) * p.stride[0] + 1; // depths one tap writes, from its first
    const std::int64_t full = std::max(span + p.dilation[0] * (kd - 1), p.padding[0] + od);
    const ConvParams p2 { { p.stride[1], p.stride[2] }, { p.padding[1], p.padding[2] },
        { p.dilation[1], p.dilation[2] }, true, { p.outputPadding[1], p.outputPadding[2] }, p.groups };
    const IntElem batch = b.dim(x, 0);
    const int flat = b.view(b.permute(x, { 0, 2, 1, 3, 4 }),
        Dims { b.mulInt(batch, OpBuilder::lit(depth)), b.dim(x, 1), b.dim(x, 3), b.dim(x, 4) });
    int acc = -1;
    for (std::int64_t k = 0; k < kd; ++k) {
        const int y = convolution(b, flat, b.select(w, 2, k), -1, p2); // (N * D, C_out, oH, oW)
        if (b.failed())
            return -1;
        const int y5 = b.permute(
            b.view(y, Dims { batch, OpBuilder::lit(depth), b.dim(y, 1), b.dim(y, 2), b.dim(y, 3) }), { 0, 2, 1, 3, 4 });
        if (acc < 0)
            acc = b.full(Dims { batch, b.dim(y, 1), OpBuilder::lit(full), b.dim(y, 2), b.dim(y, 3) }, 0.0, b.dtype(y));
        const std::int64_t start = k * p.dilation[0];
        const int cur = b.slice(acc, 2, start, start + span, p.stride[0]);
        acc = b.sliceScatter(acc, b.add(cur, y5), 2, OpBuilder::lit(start), OpBuilder::lit(start + span), p.stride[0]);
    }
    int out = b.slice(acc, 2, p.padding[0], p.padding[0] + od);
    if (bias >= 0)
        out = b.add(out,
            b.view(bias,
                Dims { OpBuilder::lit(1), OpBuilder::lit(b.size(bias, 0)), OpBuilder::lit(1), OpBuilder::lit(1),
                    OpBuilder::lit(1) }));
    return out;
}

/** constant_pad_nd with torch's meaning of negative pads (cropping): the portable kernel takes non-negative pads
 *  only, so the negative ones become slices (as ATen's constant_pad_nd narrows the input first). */
int constantPadNd(OpBuilder& b, int x, const Ints& pad, double value)
{
    if (b.failed() || x < 0)
        return -1;
    const auto r = std::int64_t(b.rank(x));
    if (pad.size() % 2 != 0 || std::int64_t(pad.size() / 2) > r)
        return b.error(ErrorCode::InvalidInput,
            "padding " + showInts(pad) + " for a rank-" + std::to_string(r)
                + " tensor (the length must be even and at most twice the rank)");
    int cur = x;
    Ints positive(pad.size(), 0);
    bool grows = false;
    for (std::size_t k = 0; k < pad.size() / 2; ++k) {
        const std::int64_t d = r - 1 - std::int64_t(k);
        const std::int64_t lo = pad[2 * k];
        const std::int64_t hi = pad[2 * k + 1];
        if (!b.isDynamic(x, d) && b.size(x, d) + lo + hi < 0)
            return b.error(ErrorCode::InvalidInput,
                "the input size " + std::to_string(b.size(x, d)) + ", plus negative padding " + std::to_string(lo)
                    + " and " + std::to_string(hi) + " resulted in a negative output size");
        if (lo < 0 || hi < 0)
            cur =
                b.slice(cur, d, std::max<std::int64_t>(-lo, 0), hi < 0 ? hi : std::numeric_limits<std::int64_t>::max());
        positive[2 * k] = std::max<std::int64_t>(lo, 0);
        positive[2 * k + 1] = std::max<std::int64_t>(hi, 0);
        grows = grows || lo > 0 || hi > 0;
    }
    if (!grows)
        return cur == x ? b.clone(x) : cur;
    const ScalarType t = b.dtype(cur);
    if (isFloatingType(t))
        return b.constantPad(cur, positive, value);
    // An integer or bool tensor takes its fill value as an int / bool Scalar (the kernel extracts the scalar into
    // the tensor's element type).
    OutSpec s = b.like(cur);
    for (std::size_t k = 0; k < positive.size() / 2; ++k)
        s.sizes[std::size_t(r - 1 - std::int64_t(k))] += std::int32_t(positive[2 * k] + positive[2 * k + 1]);
    const LArg fill = t == ScalarType::Bool ? OpBuilder::boolean(value != 0) : OpBuilder::integer(std::int64_t(value));
    return b.call1("constant_pad_nd", "out",
        { { "self", LArg::tensor(cur) }, { "pad", OpBuilder::ints(positive) }, { "value", fill } }, s);
}

// conv1d/2d/3d (both overloads) and conv_transpose1d/2d/3d: aten::convolution, as their CompositeImplicitAutograd
// definitions in ATen's Convolution.cpp say. An unbatched input (C, *spatial) is unsqueezed to a batch of one and the
// result squeezed back (torch's batchify). padding='valid' is padding 0; padding='same' (stride 1 only) is
// d(k - 1) in total per dimension, half of it on each side, and when the total is odd the input is first padded
// with zeros by the extra element on the right (constant_pad_nd), as ATen's _convolution_mode does.
Result<bool> decomposeConv(Decomposer& d)
{
    const std::string& op = d.target().op;
    const bool transposed = op.starts_with("conv_transpose");
    const std::size_t n = op.back() == 'd' ? std::size_t(op[op.size() - 2] - '0') : 0;
    if (n < 1 || n > 3)
        return false;
    const std::string& overload = d.target().overload;
    const bool paddingString = !transposed && overload == "padding";
    if (!(overload.empty() || (transposed && overload == "input") || paddingString))
        return d.refuse("aten::" + op + "." + overload + " is not lowered");
    PTE_TRY(const auto a, d.args());
    OpBuilder& b = d.b;
    int x = Decomposer::tensor(a, "input");
    const int w = Decomposer::tensor(a, "weight");
    const int bias = Decomposer::tensor(a, "bias");
    if (x < 0 || w < 0)
        return d.invalid("a convolution needs an input and a weight tensor");
    const auto rank = b.rank(x);
    if (rank != n + 1 && rank != n + 2)
        return d.invalid("expected a " + std::to_string(n + 1) + "-D (unbatched) or " + std::to_string(n + 2)
            + "-D (batched) input to " + op + ", got a " + std::to_string(rank) + "-D one");
    if (b.rank(w) != n + 2)
        return d.invalid("expected a " + std::to_string(n + 2) + "-D weight for " + op + ", got a "
            + std::to_string(b.rank(w)) + "-D one");
    ConvParams p;
    p.transposed = transposed;
    p.groups = Decomposer::integer(a, "groups", 1);
    const auto stride = spatialList(a, "stride", n);
    const auto dilation = spatialList(a, "dilation", n);
    if (!stride || !dilation)
        return d.refuse("symbolic or malformed stride/dilation (" + std::to_string(n) + " literal values expected)");
    p.stride = *stride;
    p.dilation = *dilation;
    if (transposed) {
        const auto padding = spatialList(a, "padding", n);
        const auto outputPadding = spatialList(a, "output_padding", n);
        if (!padding || !outputPadding)
            return d.refuse("symbolic or malformed padding/output_padding");
        p.padding = *padding;
        p.outputPadding = *outputPadding;
    } else if (paddingString) {
        const auto mode = Decomposer::string(a, "padding").value_or("valid");
        p.padding.assign(n, 0);
        if (mode == "same") {
            if (std::any_of(p.stride.begin(), p.stride.end(), [](std::int64_t s) { return s != 1; }))
                return d.invalid("padding='same' is not supported for strided convolutions");
            Ints extra(2 * n, 0); // constant_pad_nd order: last dimension first
            bool symmetric = true;
            for (std::size_t i = 0; i < n; ++i) {
                const std::int64_t total = p.dilation[i] * (b.size(w, std::int64_t(i + 2)) - 1);
                p.padding[i] = total / 2;
                const std::int64_t delta = (total - total / 2) - total / 2;
                if (delta > 0) {
                    symmetric = false;
                    extra[2 * (n - 1 - i) + 1] = delta;
                }
            }
            if (!symmetric)
                x = constantPadNd(b, x, extra, 0.0);
        } else if (mode != "valid") {
            return d.invalid("invalid padding string '" + mode + "', expected 'valid' or 'same'");
        }
    } else {
        const auto padding = spatialList(a, "padding", n);
        if (!padding)
            return d.refuse("symbolic or malformed padding");
        p.padding = *padding;
    }
    const bool unbatched = rank == n + 1;
    if (unbatched)
        x = b.unsqueeze(x, 0);
    int y = n != 3   ? convolution(b, x, w, bias, p)
        : transposed ? convolutionTranspose3d(b, x, w, bias, p)
                     : convolution3d(b, x, w, bias, p);
    if (unbatched)
        y = b.squeeze(y, { 0 });
    return d.finish({ y });
}

// convolution / _convolution nodes of a 5-D input (graphs that already went through torch's decompositions): the
// sums of 2-D convolutions above, as the portable kernel has no 3-D convolution. Other ranks are kept
// (convolution.out; _convolution as the core rule lowers it, its backend hints dropped).
Result<bool> decomposeConvolutionNode(Decomposer& d)
{
    const bool underscore = d.target().op == "_convolution";
    if (!d.target().overload.empty())
        return underscore ? d.convolution() : false;
    PTE_TRY(const auto a, d.args());
    OpBuilder& b = d.b;
    const int x = Decomposer::tensor(a, "input");
    const int w = Decomposer::tensor(a, "weight");
    if (x < 0 || w < 0 || b.rank(x) != 5)
        return underscore ? d.convolution() : false;
    ConvParams p;
    p.transposed = Decomposer::flag(a, "transposed");
    p.groups = Decomposer::integer(a, "groups", 1);
    const auto stride = spatialList(a, "stride", 3);
    const auto padding = spatialList(a, "padding", 3);
    const auto dilation = spatialList(a, "dilation", 3);
    const auto outputPadding = spatialList(a, "output_padding", 3);
    if (!stride || !padding || !dilation || !outputPadding)
        return d.refuse("symbolic or malformed convolution arguments (3 literal values each expected)");
    p.stride = *stride;
    p.padding = *padding;
    p.dilation = *dilation;
    p.outputPadding = *outputPadding;
    const int bias = Decomposer::tensor(a, "bias");
    return d.finish({ p.transposed ? convolutionTranspose3d(b, x, w, bias, p) : convolution3d(b, x, w, bias, p) });
}

// ATen's _pad_circular: one padded dimension at a time (the last first), the input cropped by the negative pads,
// then the last pad_l elements put in front and the first pad_r at the end (slice_copy + cat).
Result<bool> finishCircularPad(Decomposer& d, int x, const std::vector<std::int64_t>& pad)
{
    OpBuilder& b = d.b;
    const auto r = std::int64_t(b.rank(x));
    const auto np = std::int64_t(pad.size() / 2);
    int cur = x;
    for (std::int64_t k = 0; k < np; ++k) {
        const std::int64_t dim = r - 1 - k;
        if (b.isDynamic(x, dim))
            return d.refuse("circular padding of a dynamic dimension (" + std::to_string(dim) + ") is not lowered");
        const std::int64_t lo = pad[std::size_t(2 * k)];
        const std::int64_t hi = pad[std::size_t(2 * k + 1)];
        const std::int64_t size = b.size(cur, dim);
        if (lo > size || hi > size)
            return d.invalid("Padding value causes wrapping around more than once.");
        if (size + lo + hi < 0)
            return d.invalid("Negative padding value is resulting in an empty dimension");
        const std::int64_t from = std::max<std::int64_t>(-lo, 0);
        const std::int64_t to = size - std::max<std::int64_t>(-hi, 0);
        const std::int64_t len = to - from;
        if ((lo > 0 && lo > len) || (hi > 0 && hi > len))
            return d.refuse("circular padding larger than the cropped dimension (" + std::to_string(len)
                + ") wraps around the other side's negative padding; not lowered");
        const int center = from == 0 && to == size ? cur : b.slice(cur, dim, from, to);
        std::vector<int> parts;
        if (lo > 0)
            parts.push_back(b.slice(center, dim, len - lo, len));
        parts.push_back(center);
        if (hi > 0)
            parts.push_back(b.slice(center, dim, 0, hi));
        cur = parts.size() == 1 ? center : b.cat(parts, dim);
    }
    return d.finish({ cur == x ? b.clone(x) : cur });
}

// aten::pad(self, pad, mode, value), as ATen's PadNd.cpp dispatches it: 'constant' -> constant_pad_nd (negative
// pads crop: slices); 'reflect' / 'replicate' -> reflection_pad{1,2,3}d / replication_pad{1,2,3}d by the number of
// padded dimensions (kernels of the runtime); 'circular' -> ATen's _pad_circular as slices and cat, one padded
// dimension at a time (the last first): the input is cropped by the negative pads, then the last pad_l elements are
// put in front and the first pad_r at the end.
Result<bool> decomposePad(Decomposer& d)
{
    if (!d.target().overload.empty())
        return d.refuse("aten::pad." + d.target().overload + " is not lowered");
    PTE_TRY(const auto a, d.args());
    OpBuilder& b = d.b;
    const int x = Decomposer::tensor(a, "self");
    if (x < 0)
        return d.invalid("pad needs an input tensor");
    const auto pad = Decomposer::intList(a, "pad");
    if (!pad)
        return d.refuse("symbolic pad sizes are not lowered (only literal pads)");
    const std::string mode = Decomposer::string(a, "mode").value_or("constant");
    const auto value = Decomposer::number(a, "value");
    const auto r = std::int64_t(b.rank(x));
    if (pad->size() % 2 != 0)
        return d.invalid("Padding length must be divisible by 2");
    if (std::int64_t(pad->size()) > 2 * r)
        return d.invalid("Padding length too large");
    if (mode == "constant")
        return d.finish({ constantPadNd(b, x, *pad, value.value_or(0.0)) });
    if (mode != "reflect" && mode != "replicate" && mode != "circular")
        return d.invalid("Unrecognised padding mode " + mode);
    if (value && *value != 0)
        return d.invalid("Padding mode \"" + mode + "\" doesn't take in value argument");
    const auto np = std::int64_t(pad->size() / 2);
    if (np < 1 || np > 3 || (r != np + 1 && r != np + 2))
        return d.refuse("Only 2D, 3D, 4D, 5D padding with non-constant padding are supported for now (mode '" + mode
            + "', " + std::to_string(pad->size()) + " pads for a rank-" + std::to_string(r) + " input)");
    if (mode == "circular")
        return finishCircularPad(d, x, *pad);
    OutSpec s = b.like(x);
    for (std::int64_t k = 0; k < np; ++k) {
        const std::int64_t dim = r - 1 - k;
        const std::int64_t lo = (*pad)[std::size_t(2 * k)];
        const std::int64_t hi = (*pad)[std::size_t(2 * k + 1)];
        const std::int64_t size = b.size(x, dim);
        s.sizes[std::size_t(dim)] = std::int32_t(std::max<std::int64_t>(size + lo + hi, 0));
        if (b.isDynamic(x, dim))
            continue; // sized at run time; the kernel checks the pads against the actual size
        if (mode == "reflect" && (lo >= size || hi >= size))
            return d.invalid(
                "Argument #4: Padding size should be less than the corresponding input dimension, but got: "
                "padding ("
                + std::to_string(lo) + ", " + std::to_string(hi) + ") at dimension " + std::to_string(dim)
                + " of input " + std::to_string(r) + "-D");
        if (size + lo + hi <= 0)
            return d.invalid("input size " + std::to_string(size) + " with padding (" + std::to_string(lo) + ", "
                + std::to_string(hi) + ") gives an empty output in dimension " + std::to_string(dim));
    }
    const std::string kernel = (mode == "reflect" ? "reflection_pad" : "replication_pad") + std::to_string(np) + "d";
    return d.finish(
        { b.call1(kernel, "out", { { "self", LArg::tensor(x) }, { "padding", OpBuilder::ints(*pad) } }, s) });
}

// aten::_pad_circular(self, pad): what pad(mode='circular') calls; 1 to 3 padded dimensions of a batched or
// unbatched input, as pad checks them.
Result<bool> decomposePadCircular(Decomposer& d)
{
    PTE_TRY(const auto a, d.args());
    const int x = Decomposer::tensor(a, "self");
    if (x < 0)
        return d.invalid("_pad_circular needs an input tensor");
    const auto pad = Decomposer::intList(a, "pad");
    if (!pad)
        return d.refuse("symbolic pad sizes are not lowered (only literal pads)");
    const auto r = std::int64_t(d.b.rank(x));
    const auto np = std::int64_t(pad->size() / 2);
    if (pad->size() % 2 != 0 || np < 1 || np > 3 || (r != np + 1 && r != np + 2))
        return d.invalid("_pad_circular: " + std::to_string(pad->size()) + " pads for a rank-" + std::to_string(r)
            + " input (1 to 3 padded dimensions of an input with one or two more)");
    return finishCircularPad(d, x, *pad);
}

// constant_pad_nd with negative pads (cropping, which torch allows): the runtime's kernel takes non-negative pads
// only, so the negative ones become slice_copy, as ATen's constant_pad_nd narrows its input before padding.
// Non-negative pads: the kernel as it is.
Result<bool> decomposeConstantPadNd(Decomposer& d)
{
    if (!d.target().overload.empty())
        return false;
    PTE_TRY(const auto a, d.args());
    const auto pad = Decomposer::intList(a, "pad");
    if (!pad || std::all_of(pad->begin(), pad->end(), [](std::int64_t v) { return v >= 0; }))
        return false;
    const int x = Decomposer::tensor(a, "self");
    if (x < 0)
        return d.invalid("constant_pad_nd needs an input tensor");
    return d.finish({ constantPadNd(d.b, x, *pad, Decomposer::number(a, "value").value_or(0.0)) });
}

const DecompositionRule kConvolutionRules[] = {
    { "conv1d", &decomposeConv,
        "convolution (transposed=False); padding='same' with an odd total: constant_pad_nd (extra on the right) then "
        "convolution; unbatched input: unsqueeze_copy / squeeze_copy" },
    { "conv2d", &decomposeConv,
        "convolution (transposed=False); padding='same' with an odd total: constant_pad_nd (extra on the right) then "
        "convolution; unbatched input: unsqueeze_copy / squeeze_copy" },
    { "conv3d", &decomposeConv,
        "sum over the depth taps of 2-D convolutions (constant_pad_nd in depth, slice_copy with step, permute_copy, "
        "view_copy, select_copy of the weight, convolution, add), as the portable convolution kernel has no 3-D "
        "convolution; padding='same' as conv2d" },
    { "conv_transpose1d", &decomposeConv,
        "convolution (transposed=True); unbatched input: unsqueeze_copy / squeeze_copy" },
    { "conv_transpose2d", &decomposeConv,
        "convolution (transposed=True); unbatched input: unsqueeze_copy / squeeze_copy" },
    { "conv_transpose3d", &decomposeConv,
        "sum over the depth taps of transposed 2-D convolutions added into a zero-filled accumulator (permute_copy, "
        "view_copy, select_copy, convolution transposed=True, full, slice_copy, add, slice_scatter), then the bias "
        "(add)" },
    { "convolution", &decomposeConvolutionNode,
        "kept (convolution.out); a 5-D input as conv3d / conv_transpose3d (sums of 2-D convolutions)" },
    { "_convolution", &decomposeConvolutionNode,
        "convolution.out without the backend hints (benchmark, deterministic, cudnn_enabled, allow_tf32); a 5-D input "
        "as conv3d / conv_transpose3d (sums of 2-D convolutions)" },
    { "pad", &decomposePad,
        "constant: constant_pad_nd (negative pads: slice_copy); reflect: reflection_pad1d/2d/3d; replicate: "
        "replication_pad1d/2d/3d; circular: slice_copy + cat per padded dimension" },
    { "_pad_circular", &decomposePadCircular, "slice_copy + cat per padded dimension, as pad(mode='circular')" },
    { "constant_pad_nd", &decomposeConstantPadNd,
        "kept (constant_pad_nd.out); negative pads crop first with slice_copy" },
};

} // namespace

std::span<const DecompositionRule> convolutionRules() { return kConvolutionRules; }

} // namespace pte::emitcore
