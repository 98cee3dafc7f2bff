// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// Resampling: interpolate in every mode, pixel_unshuffle, channel_shuffle, grid_sample, affine_grid, 1-D pooling.
// Each decomposition follows the op's PyTorch definition (torch's core decomposition table or the op's composite
// implementation); docs/decompositions.md lists what each becomes.
#include "emit/decomposer_p.h"

#include <algorithm>
#include <cmath>

namespace pte::emitcore {

namespace {

using Ints = std::vector<std::int64_t>;

/** The builder's error as the decomposition's result (after a helper recorded it). */
Result<bool> builderError(Decomposer& d)
{
    PTE_CHECK(d.b.status());
    return fail(ErrorCode::Internal, "a decomposition helper failed without an error");
}

/** A float-list argument (float[]?): nullopt when absent or None. */
std::optional<std::vector<double>> doubleList(const ArgMap& a, std::string_view name)
{
    const auto it = a.find(name);
    if (it == a.end())
        return std::nullopt;
    const LArg& v = it->second;
    if (v.kind == LArg::Kind::DoubleList)
        return v.rare ? v.rare->ds : std::vector<double>();
    if (v.kind == LArg::Kind::IntList) {
        std::vector<double> r;
        for (const auto& e : v.ints)
            r.push_back(double(e.literal));
        return r;
    }
    return std::nullopt;
}

/** The spatial resampling an upsample node asks for: input and output sizes of each spatial dimension (the last n),
 *  and the scale factors given (torch uses 1 / scale instead of in / out for the source indices when given). */
struct Resize
{
    int x = -1;
    std::size_t n = 0;
    Ints in;
    Ints out;
    std::vector<std::optional<double>> scales;
    bool alignCorners = false;
};

/**
 * Reads an upsample node: the .vec overloads (output_size or scale_factors, as F.interpolate calls them) and the
 * default ones (output_size and per-dimension scales). Output sizes from scale factors are torch's
 * upsample_compute_output_size: in * s for an integral s, else floor(in * s). The spatial sizes must be static
 * (the source indices are computed here); batch and channels may be dynamic. On failure the builder has the error.
 */
std::optional<Resize> readResize(Decomposer& d, const ArgMap& a, std::size_t n)
{
    OpBuilder& b = d.b;
    Resize r;
    r.n = n;
    const bool vec = d.target().overload == "vec";
    r.x = Decomposer::tensor(a, vec ? "input" : "self");
    r.alignCorners = Decomposer::flag(a, "align_corners");
    if (r.x < 0) {
        b.error(ErrorCode::InvalidInput, "an upsample node without an input tensor");
        return std::nullopt;
    }
    if (b.rank(r.x) != n + 2) {
        b.error(ErrorCode::InvalidInput,
            "expected a " + std::to_string(n + 2) + "-D input (batch, channels and " + std::to_string(n)
                + " spatial dimensions), got a " + std::to_string(b.rank(r.x)) + "-D one");
        return std::nullopt;
    }
    for (std::size_t k = 0; k < n; ++k) {
        if (b.isDynamic(r.x, std::int64_t(k + 2))) {
            b.error(ErrorCode::Unsupported,
                "resampling a dynamic spatial dimension (" + std::to_string(k + 2)
                    + ") is not lowered: the source indices are computed at emission");
            return std::nullopt;
        }
        r.in.push_back(b.size(r.x, std::int64_t(k + 2)));
    }
    const auto outputSize = Decomposer::intList(a, "output_size");
    const auto it = a.find("output_size");
    const bool hasOutputSize = it != a.end() && it->second.kind != LArg::Kind::Null;
    if (hasOutputSize && !outputSize) {
        b.error(ErrorCode::Unsupported, "a symbolic output_size is not lowered");
        return std::nullopt;
    }
    std::optional<std::vector<double>> factors;
    if (vec) {
        factors = doubleList(a, "scale_factors");
    } else {
        static const char* const kNames[3][3] = { { "scales", "", "" }, { "scales_h", "scales_w", "" },
            { "scales_d", "scales_h", "scales_w" } };
        for (std::size_t k = 0; k < n; ++k)
            r.scales.push_back(Decomposer::number(a, kNames[n - 1][k]));
    }
    if (vec && hasOutputSize == factors.has_value()) {
        b.error(ErrorCode::InvalidInput, "Must specify exactly one of output_size and scale_factors");
        return std::nullopt;
    }
    if (hasOutputSize) {
        if (outputSize->size() != n) {
            b.error(ErrorCode::InvalidInput,
                "output_size has " + std::to_string(outputSize->size()) + " values for " + std::to_string(n)
                    + " spatial dimensions");
            return std::nullopt;
        }
        r.out = *outputSize;
        if (vec)
            r.scales.assign(n, std::nullopt);
    } else {
        if (factors->size() != n) {
            b.error(ErrorCode::InvalidInput,
                "scale_factors has " + std::to_string(factors->size()) + " values for " + std::to_string(n)
                    + " spatial dimensions");
            return std::nullopt;
        }
        for (std::size_t k = 0; k < n; ++k) {
            const double s = (*factors)[k];
            r.out.push_back(std::floor(s) == s ? r.in[k] * std::int64_t(s) : std::int64_t(double(r.in[k]) * s));
            r.scales.push_back(s);
        }
    }
    for (std::size_t k = 0; k < n; ++k) {
        if (r.out[k] <= 0 || r.in[k] <= 0) {
            b.error(ErrorCode::InvalidInput,
                "Input and output sizes should be greater than 0, but got input size " + std::to_string(r.in[k])
                    + " and output size " + std::to_string(r.out[k]));
            return std::nullopt;
        }
    }
    return r;
}

/** The shape [size, 1, ...] (`ones` trailing ones) of a per-dimension constant that broadcasts along the dimensions
 *  after it. */
std::vector<std::int32_t> columnShape(std::int64_t size, std::size_t ones)
{
    std::vector<std::int32_t> s { std::int32_t(size) };
    s.insert(s.end(), ones, 1);
    return s;
}

/** _compute_scale of torch's upsample decompositions (a Python float). */
double computeScale(std::int64_t in, std::int64_t out, bool alignCorners, std::optional<double> scale)
{
    if (alignCorners)
        return out > 1 ? double(in - 1) / double(out - 1) : 0.0;
    return scale && *scale > 0 ? 1.0 / *scale : double(in) / double(out);
}

// upsample_nearest{1,3}d and _upsample_nearest_exact{1,2,3}d (.vec and default overloads), as torch's
// _upsample_nearest decomposition: for each spatial dimension, scale = in / out (in / (in * s) with a scale factor),
// index = int64((float32(o) + offset) * float32(scale)), offset 0.5 for nearest-exact, 0 for nearest; one
// index.Tensor gathers them all ([None, None, idx_0 (out_0, 1, ...), ..., idx_last (out_last)]). The indices are
// computed here in float32 as torch computes them, and stored as constants.
Result<bool> decomposeNearest(Decomposer& d)
{
    const std::string& op = d.target().op;
    const bool exact = op.starts_with("_upsample_nearest_exact");
    const auto n = std::size_t(op[op.size() - 2] - '0');
    if (!(d.target().overload.empty() || d.target().overload == "vec"))
        return d.refuse("aten::" + op + "." + d.target().overload + " is not lowered");
    PTE_TRY(const auto a, d.args());
    auto r = readResize(d, a, n);
    if (!r)
        return builderError(d);
    OpBuilder& b = d.b;
    const float offset = exact ? 0.5f : 0.0f;
    std::vector<int> indices { -1, -1 };
    for (std::size_t k = 0; k < n; ++k) {
        const double scale =
            r->scales[k] ? double(r->in[k]) / (double(r->in[k]) * *r->scales[k]) : double(r->in[k]) / double(r->out[k]);
        std::vector<double> idx;
        for (std::int64_t o = 0; o < r->out[k]; ++o)
            idx.push_back(double(std::int64_t((float(o) + offset) * float(scale))));
        indices.push_back(b.constant(idx, columnShape(r->out[k], n - 1 - k), ScalarType::Long));
    }
    return d.finish({ b.index(r->x, indices) });
}

/** The source positions of a linear resampling of one dimension, as torch's _upsample_linear computes them in
 *  float32: x = clamp(scale * (o + 0.5) - 0.5, min=0) (align_corners: scale * o); x0 = int64(x),
 *  x1 = min(x0 + 1, in - 1), weight = clamp(x - x0, 0, 1). */
struct LinearTaps
{
    std::vector<double> x0;
    std::vector<double> x1;
    std::vector<double> weight;
};

LinearTaps linearTaps(std::int64_t in, std::int64_t out, bool alignCorners, std::optional<double> scaleFactor)
{
    const auto scale = float(computeScale(in, out, alignCorners, scaleFactor));
    LinearTaps t;
    for (std::int64_t o = 0; o < out; ++o) {
        const auto i = float(o);
        float x = alignCorners ? scale * i : scale * (i + 0.5f) - 0.5f;
        x = std::max(x, 0.0f);
        const auto x0 = std::int64_t(x);
        t.x0.push_back(double(x0));
        t.x1.push_back(double(std::min<std::int64_t>(x0 + 1, in - 1)));
        t.weight.push_back(double(std::clamp(x - float(x0), 0.0f, 1.0f)));
    }
    return t;
}

// upsample_linear1d and upsample_trilinear3d (.vec and default overloads), as torch's _upsample_linear
// decomposition: every corner of the 2^n neighbours is gathered with one index.Tensor (the indices x0 / x1 of each
// dimension as constants), then the corners are blended a dimension at a time, the last first, as
// v0 + (v1 - v0) * weight (sub, mul, add). Half and bfloat16 inputs are computed in float32 (torch's
// pw_cast_for_opmath) and converted back.
Result<bool> decomposeLinear(Decomposer& d)
{
    const std::string& op = d.target().op;
    const auto n = std::size_t(op[op.size() - 2] - '0');
    if (!(d.target().overload.empty() || d.target().overload == "vec"))
        return d.refuse("aten::" + op + "." + d.target().overload + " is not lowered");
    PTE_TRY(const auto a, d.args());
    auto r = readResize(d, a, n);
    if (!r)
        return builderError(d);
    OpBuilder& b = d.b;
    if (!isFloatingType(b.dtype(r->x)))
        return d.refuse(op + " of a " + std::string(scalarTypeShortName(b.dtype(r->x))) + " tensor is not lowered");
    const int x = b.cast(r->x, b.dtype(r->x) == ScalarType::Double ? ScalarType::Double : ScalarType::Float);
    const ScalarType t = b.dtype(x);
    std::vector<int> lo;
    std::vector<int> hi;
    std::vector<int> weights;
    for (std::size_t k = 0; k < n; ++k) {
        const auto taps = linearTaps(r->in[k], r->out[k], r->alignCorners, r->scales[k]);
        const auto shape = columnShape(r->out[k], n - 1 - k);
        lo.push_back(b.constant(taps.x0, shape, ScalarType::Long));
        hi.push_back(b.constant(taps.x1, shape, ScalarType::Long));
        weights.push_back(b.constant(taps.weight, shape, t));
    }
    // The corners in torch's order (itertools.product: the first dimension varies slowest).
    std::vector<int> corners;
    for (std::size_t c = 0; c < (std::size_t(1) << n); ++c) {
        std::vector<int> idx { -1, -1 };
        for (std::size_t k = 0; k < n; ++k)
            idx.push_back((c >> (n - 1 - k)) & 1u ? hi[k] : lo[k]);
        corners.push_back(b.index(x, idx));
    }
    for (std::size_t k = n; k-- > 0;) {
        std::vector<int> next;
        for (std::size_t j = 0; j + 1 < corners.size(); j += 2)
            next.push_back(b.add(corners[j], b.mul(b.sub(corners[j + 1], corners[j]), weights[k])));
        corners = std::move(next);
    }
    return d.finish({ corners.at(0) });
}

/** The four taps and weights of a bicubic resampling of one dimension, as torch's upsample_bicubic2d decomposition
 *  computes them in float32: x = scale * (o + 0.5) - 0.5 (align_corners: scale * o, no clamp), i = floor(x),
 *  t = x - i; taps i - 1 .. i + 2 clamped to [0, in - 1]; weights of the A = -0.75 cubic convolution
 *  (cc2(t + 1), cc1(t), cc1(1 - t), cc2(2 - t)). */
struct CubicTaps
{
    std::vector<double> index[4];
    std::vector<double> weight[4];
};

CubicTaps cubicTaps(std::int64_t in, std::int64_t out, bool alignCorners, std::optional<double> scaleFactor)
{
    const auto scale = float(computeScale(in, out, alignCorners, scaleFactor));
    constexpr float A = -0.75f;
    // ((A + 2) * x - (A + 3)) * x * x + 1 and ((A * x - 5A) * x + 8A) * x - 4A, each step rounded to float32.
    auto cc1 = [](float x) {
        float v = (A + 2.0f) * x;
        v = v - (A + 3.0f);
        v = v * x;
        v = v * x;
        return v + 1.0f;
    };
    auto cc2 = [](float x) {
        float v = A * x;
        v = v - 5.0f * A;
        v = v * x;
        v = v + 8.0f * A;
        v = v * x;
        return v - 4.0f * A;
    };
    CubicTaps t;
    for (std::int64_t o = 0; o < out; ++o) {
        const auto i = float(o);
        const float x = alignCorners ? scale * i : scale * (i + 0.5f) - 0.5f;
        const float fl = std::floor(x);
        const float f = x - fl;
        const auto base = std::int64_t(fl);
        for (int k = 0; k < 4; ++k)
            t.index[k].push_back(double(std::clamp<std::int64_t>(base - 1 + k, 0, in - 1)));
        t.weight[0].push_back(double(cc2(f + 1.0f)));
        t.weight[1].push_back(double(cc1(f)));
        t.weight[2].push_back(double(cc1(1.0f - f)));
        t.weight[3].push_back(double(cc2(2.0f - f)));
    }
    return t;
}

// upsample_bicubic2d (.vec and default overloads), as torch's upsample_bicubic2d decomposition: the A = -0.75 cubic
// convolution over 4 x 4 taps with clamped indices. torch gathers the 16 taps and sums along x for each of the four
// rows, then along y; the row sums depend on the row only, so they are computed once per input row: four
// index_select along W, each times its weight (mul), summed in torch's order ((p0 + p1) + p2) + p3; then the same
// along H. Taps and weights are computed here in float32 and stored as constants.
Result<bool> decomposeBicubic(Decomposer& d)
{
    if (!(d.target().overload.empty() || d.target().overload == "vec"))
        return d.refuse("aten::upsample_bicubic2d." + d.target().overload + " is not lowered");
    PTE_TRY(const auto a, d.args());
    auto r = readResize(d, a, 2);
    if (!r)
        return builderError(d);
    OpBuilder& b = d.b;
    if (!isFloatingType(b.dtype(r->x)))
        return d.refuse(
            "upsample_bicubic2d of a " + std::string(scalarTypeShortName(b.dtype(r->x))) + " tensor is not lowered");
    const int x = b.cast(r->x, b.dtype(r->x) == ScalarType::Double ? ScalarType::Double : ScalarType::Float);
    const ScalarType t = b.dtype(x);
    auto interpolate = [&](int src, std::int64_t dim, const CubicTaps& taps, std::vector<std::int32_t> weightShape) {
        int sum = -1;
        for (int k = 0; k < 4; ++k) {
            const int idx = b.constant(taps.index[k], { std::int32_t(taps.index[k].size()) }, ScalarType::Long);
            const int term = b.mul(b.indexSelect(src, dim, idx), b.constant(taps.weight[k], weightShape, t));
            sum = sum < 0 ? term : b.add(sum, term);
        }
        return sum;
    };
    const auto tw = cubicTaps(r->in[1], r->out[1], r->alignCorners, r->scales[1]);
    const auto th = cubicTaps(r->in[0], r->out[0], r->alignCorners, r->scales[0]);
    const int rows = interpolate(x, 3, tw, { std::int32_t(r->out[1]) });
    return d.finish({ interpolate(rows, 2, th, columnShape(r->out[0], 1)) });
}

// _upsample_bilinear2d_aa.vec: the output size and scales from the .vec arguments (torch's
// upsample_bilinear2d_aa_vec), then the runtime's _upsample_bilinear2d_aa kernel.
Result<bool> decomposeBilinearAa(Decomposer& d)
{
    if (d.target().overload != "vec")
        return false;
    PTE_TRY(const auto a, d.args());
    auto r = readResize(d, a, 2);
    if (!r)
        return builderError(d);
    OpBuilder& b = d.b;
    OutSpec s = b.like(r->x);
    s.sizes[2] = std::int32_t(r->out[0]);
    s.sizes[3] = std::int32_t(r->out[1]);
    auto scale = [](const std::optional<double>& v) { return v ? OpBuilder::num(*v) : OpBuilder::none(); };
    return d.finish({ b.call1("_upsample_bilinear2d_aa", "out",
        { { "self", LArg::tensor(r->x) }, { "output_size", OpBuilder::ints(r->out) },
            { "align_corners", OpBuilder::boolean(r->alignCorners) }, { "scales_h", scale(r->scales[0]) },
            { "scales_w", scale(r->scales[1]) } },
        s) });
}

// channel_shuffle / native_channel_shuffle(self, groups): ATen's math_channel_shuffle, a view to
// (n, groups, c / groups, -1), a permute of the two channel dimensions and a copy back to the input's shape
// (view_copy, permute_copy, view_copy).
Result<bool> decomposeChannelShuffle(Decomposer& d)
{
    PTE_TRY(const auto a, d.args());
    OpBuilder& b = d.b;
    const int x = Decomposer::tensor(a, "self");
    const std::int64_t groups = Decomposer::integer(a, "groups", 0);
    if (x < 0 || b.rank(x) < 3)
        return d.invalid("channel_shuffle expects an input of rank 3 or more (batch, channels, ...)");
    if (groups <= 0)
        return d.invalid(
            "Number of groups to divide channels in must be positive. Value of groups:" + std::to_string(groups));
    if (b.isDynamic(x, 1))
        return d.refuse("channel_shuffle of a dynamic channel dimension is not lowered");
    const std::int64_t c = b.size(x, 1);
    if (c % groups != 0)
        return d.invalid("Number of channels must be divisible by groups. Got " + std::to_string(c) + " channels and "
            + std::to_string(groups) + " groups.");
    const Dims shape = b.dims(x);
    IntElem rest = OpBuilder::lit(1);
    for (std::size_t k = 2; k < shape.size(); ++k)
        rest = b.mulInt(rest, shape[k]);
    const int grouped = b.view(x, Dims { shape[0], OpBuilder::lit(groups), OpBuilder::lit(c / groups), rest });
    const int swapped = b.permute(grouped, { 0, 2, 1, 3 });
    return d.finish({ b.view(swapped, shape) });
}

// grid_sampler: grid_sampler_2d for a 4-D input (ATen's grid_sampler, cuDNN aside); 5-D (grid_sampler_3d) has no
// kernel in the runtime.
Result<bool> decomposeGridSampler(Decomposer& d)
{
    PTE_TRY(const auto a, d.args());
    OpBuilder& b = d.b;
    const int x = Decomposer::tensor(a, "input");
    const int grid = Decomposer::tensor(a, "grid");
    if (x < 0 || grid < 0)
        return d.invalid("grid_sampler needs an input and a grid");
    if (b.rank(x) == 5)
        return d.refuse("grid_sampler of a 5-D input is grid_sampler_3d, which ExecuTorch's runtime has no kernel for");
    if (b.rank(x) != 4 || b.rank(grid) != 4)
        return d.invalid("grid_sampler(): expected a 4-D or 5-D input and a grid of the same rank");
    OutSpec s = b.like(x);
    s.sizes[2] = b.size(grid, 1);
    s.sizes[3] = b.size(grid, 2);
    s.dynamicDims = (b.val(x).dynamicDims & 3u) | (b.isDynamic(grid, 1) ? 4u : 0u) | (b.isDynamic(grid, 2) ? 8u : 0u);
    return d.finish({ b.call1("grid_sampler_2d", "out",
        { { "input", LArg::tensor(x) }, { "grid", LArg::tensor(grid) },
            { "interpolation_mode", OpBuilder::integer(Decomposer::integer(a, "interpolation_mode")) },
            { "padding_mode", OpBuilder::integer(Decomposer::integer(a, "padding_mode")) },
            { "align_corners", OpBuilder::boolean(Decomposer::flag(a, "align_corners")) } },
        s) });
}

/** torch's _linspace_from_neg_one(n, align_corners) in float32, as the CPU linspace kernel computes it:
 *  a = (n - 1) / n (1 with align_corners); start + step * i for the first half, end - step * (n - 1 - i) after. */
std::vector<double> linspaceFromNegOne(std::int64_t n, bool alignCorners)
{
    if (n <= 1)
        return { 0.0 };
    const double a = alignCorners ? 1.0 : double(n - 1) / double(n);
    const auto start = float(-a);
    const auto end = float(a);
    const float step = (end - start) / float(n - 1);
    std::vector<double> v;
    for (std::int64_t i = 0; i < n; ++i)
        v.push_back(double(i < n / 2 ? start + step * float(i) : end - step * float(n - 1 - i)));
    return v;
}

// affine_grid_generator(theta, size, align_corners), as torch's decomposition: the base grid (x, y, 1) (4-D size) or
// (x, y, z, 1) (5-D) of linspaces from -1 to 1 is a constant; grid = sum over j of base[p, j] * theta[n, k, j]
// (permute_copy + unsqueeze_copy of theta, mul, sum over the taps), viewed to (n, h, w, 2) / (n, d, h, w, 3).
Result<bool> decomposeAffineGrid(Decomposer& d)
{
    PTE_TRY(const auto a, d.args());
    OpBuilder& b = d.b;
    const int theta = Decomposer::tensor(a, "theta");
    const auto size = Decomposer::intList(a, "size");
    const bool align = Decomposer::flag(a, "align_corners");
    if (theta < 0 || !size)
        return d.refuse("affine_grid_generator with a symbolic size is not lowered");
    if (size->size() != 4 && size->size() != 5)
        return d.invalid("affine_grid_generator needs 4d (spatial) or 5d (volumetric) inputs.");
    if (!isFloatingType(b.dtype(theta)))
        return d.invalid("affine_grid_generator needs a floating-point theta");
    const std::size_t nd = size->size() - 2; // 2 or 3 spatial dimensions
    const std::int64_t batch = (*size)[0];
    Ints spatial(size->begin() + 2, size->end()); // (h, w) or (d, h, w)
    if (b.rank(theta) != 3 || b.size(theta, 1) != std::int32_t(nd) || b.size(theta, 2) != std::int32_t(nd + 1))
        return d.invalid("theta must have shape (N, " + std::to_string(nd) + ", " + std::to_string(nd + 1) + ")");
    // The base grid, points in row-major order over the spatial dimensions, each (x, y[, z], 1).
    std::vector<std::vector<double>> axes;
    for (std::size_t k = 0; k < nd; ++k)
        axes.push_back(linspaceFromNegOne(spatial[k], align));
    std::int64_t points = 1;
    for (const auto s : spatial)
        points *= s;
    std::vector<double> base;
    for (std::int64_t p = 0; p < points; ++p) {
        std::vector<std::int64_t> coord(nd);
        std::int64_t rem = p;
        for (std::size_t k = nd; k-- > 0;) {
            coord[k] = rem % spatial[k];
            rem /= spatial[k];
        }
        // x varies along the last dimension, then y, then z.
        for (std::size_t k = nd; k-- > 0;)
            base.push_back(axes[k][std::size_t(coord[k])]);
        base.push_back(1.0);
    }
    const int grid = b.constant(base, { std::int32_t(points), std::int32_t(nd + 1), 1 }, b.dtype(theta));
    const int thetaT = b.unsqueeze(b.permute(theta, { 0, 2, 1 }), 1); // (n, 1, nd + 1, nd)
    const int summed = b.sum(b.mul(grid, thetaT), { -2 }, false); // (n, points, nd)
    Ints out { batch };
    out.insert(out.end(), spatial.begin(), spatial.end());
    out.push_back(std::int64_t(nd));
    return d.finish({ b.view(summed, out) });
}

/** The output size of a 1-D pooling window over `in` (torch's pooling_output_shape). */
std::int64_t poolOut(std::int64_t in, std::int64_t k, std::int64_t s, std::int64_t p, std::int64_t dil, bool ceil)
{
    const std::int64_t num = in + 2 * p - dil * (k - 1) - 1 + (ceil ? s - 1 : 0);
    std::int64_t out = (num >= 0 ? num / s : -((-num + s - 1) / s)) + 1;
    if (ceil && (out - 1) * s >= in + p)
        --out;
    return out;
}

/** The kernel_size / stride / padding / dilation of a 1-D pooling node (an empty stride is the kernel size). */
struct Pool1d
{
    int x = -1;
    std::int64_t kernel = 1;
    std::int64_t stride = 1;
    std::int64_t padding = 0;
    std::int64_t dilation = 1;
    bool ceil = false;
};

std::optional<Pool1d> readPool1d(Decomposer& d, const ArgMap& a)
{
    OpBuilder& b = d.b;
    Pool1d p;
    p.x = Decomposer::tensor(a, "self");
    auto one = [&](std::string_view name, std::int64_t fallback) -> std::optional<std::int64_t> {
        const auto v = Decomposer::intList(a, name);
        if (!v)
            return a.count(name) ? std::nullopt : std::optional<std::int64_t>(fallback);
        if (v->empty())
            return fallback;
        if (v->size() != 1)
            return std::nullopt;
        return (*v)[0];
    };
    const auto k = one("kernel_size", 0);
    if (!k || *k <= 0) {
        b.error(ErrorCode::InvalidInput, "a 1-D pooling needs a single positive kernel size");
        return std::nullopt;
    }
    const auto s = one("stride", *k);
    const auto pad = one("padding", 0);
    const auto dil = one("dilation", 1);
    if (!s || !pad || !dil || *s <= 0 || *dil <= 0) {
        b.error(ErrorCode::InvalidInput, "stride, padding and dilation of a 1-D pooling must be single values");
        return std::nullopt;
    }
    p.kernel = *k;
    p.stride = *s;
    p.padding = *pad;
    p.dilation = *dil;
    p.ceil = Decomposer::flag(a, "ceil_mode");
    if (p.x < 0 || (b.rank(p.x) != 2 && b.rank(p.x) != 3)) {
        b.error(ErrorCode::InvalidInput, "a 1-D pooling expects a 2-D or 3-D input");
        return std::nullopt;
    }
    if (b.isDynamic(p.x, -1)) {
        b.error(ErrorCode::Unsupported, "1-D pooling over a dynamic length is not lowered");
        return std::nullopt;
    }
    if (p.padding < 0 || 2 * p.padding > p.dilation * (p.kernel - 1) + 1) {
        b.error(ErrorCode::InvalidInput, "pad should be at most half of effective kernel size");
        return std::nullopt;
    }
    if (2 * p.padding > p.kernel) {
        // torch allows up to half the dilated kernel; the portable pooling kernels check the undilated one.
        b.error(ErrorCode::Unsupported,
            "padding " + std::to_string(p.padding) + " is more than half the kernel size " + std::to_string(p.kernel)
                + ", which ExecuTorch's pooling kernels refuse");
        return std::nullopt;
    }
    return p;
}

// avg_pool1d(self, kernel_size, stride, padding, ceil_mode, count_include_pad), as ATen's avg_pool1d: avg_pool2d of
// the input unsqueezed at -2 with kernel (1, k), stride (1, s), padding (0, p), squeezed back.
Result<bool> decomposeAvgPool1d(Decomposer& d)
{
    PTE_TRY(const auto a, d.args());
    auto p = readPool1d(d, a);
    if (!p)
        return builderError(d);
    OpBuilder& b = d.b;
    const int x2 = b.unsqueeze(p->x, -2);
    OutSpec s = b.like(x2);
    s.sizes.back() = std::int32_t(poolOut(b.size(p->x, -1), p->kernel, p->stride, p->padding, 1, p->ceil));
    const int y = b.call1("avg_pool2d", "out",
        { { "self", LArg::tensor(x2) }, { "kernel_size", OpBuilder::ints({ 1, p->kernel }) },
            { "stride", OpBuilder::ints({ 1, p->stride }) }, { "padding", OpBuilder::ints({ 0, p->padding }) },
            { "ceil_mode", OpBuilder::boolean(p->ceil) },
            { "count_include_pad", OpBuilder::boolean(Decomposer::flag(a, "count_include_pad", true)) },
            { "divisor_override", OpBuilder::none() } },
        s);
    return d.finish({ b.squeeze(y, { -2 }) });
}

// max_pool1d / max_pool1d_with_indices, as ATen's max_pool1d_with_indices: max_pool2d_with_indices of the input
// unsqueezed at -2 with kernel (1, k), stride (1, s), padding (0, p), dilation (1, d), squeezed back (the flat
// indices over a 1 x L plane are the 1-D indices).
Result<bool> decomposeMaxPool1d(Decomposer& d)
{
    PTE_TRY(const auto a, d.args());
    auto p = readPool1d(d, a);
    if (!p)
        return builderError(d);
    OpBuilder& b = d.b;
    const int x2 = b.unsqueeze(p->x, -2);
    OutSpec s = b.like(x2);
    s.sizes.back() = std::int32_t(poolOut(b.size(p->x, -1), p->kernel, p->stride, p->padding, p->dilation, p->ceil));
    if (s.sizes.back() <= 0)
        return d.invalid("max_pool1d() Invalid computed output size: " + std::to_string(s.sizes.back()));
    OutSpec si = s;
    si.dtype = ScalarType::Long;
    const auto ys = b.call("max_pool2d_with_indices", "out",
        { { "self", LArg::tensor(x2) }, { "kernel_size", OpBuilder::ints({ 1, p->kernel }) },
            { "stride", OpBuilder::ints({ 1, p->stride }) }, { "padding", OpBuilder::ints({ 0, p->padding }) },
            { "dilation", OpBuilder::ints({ 1, p->dilation }) }, { "ceil_mode", OpBuilder::boolean(p->ceil) } },
        { s, si });
    const int values = b.squeeze(ys[0], { -2 });
    if (d.target().op == "max_pool1d")
        return d.finish({ values });
    return d.finish({ values, b.squeeze(ys[1], { -2 }) });
}

// adaptive_avg_pool1d(self, output_size), as ATen's: adaptive_avg_pool2d of the input unsqueezed at -2 with output
// (1, L), squeezed back; the 2-D pooling is the runtime's _adaptive_avg_pool2d kernel (what to_edge leaves).
Result<bool> decomposeAdaptiveAvgPool1d(Decomposer& d)
{
    PTE_TRY(const auto a, d.args());
    OpBuilder& b = d.b;
    const int x = Decomposer::tensor(a, "self");
    const auto size = Decomposer::intList(a, "output_size");
    if (x < 0 || (b.rank(x) != 2 && b.rank(x) != 3))
        return d.invalid("adaptive_avg_pool1d expects a 2-D or 3-D input");
    if (!size || size->size() != 1 || (*size)[0] <= 0)
        return d.invalid("adaptive_avg_pool1d needs one positive output size");
    const int x2 = b.unsqueeze(x, -2);
    OutSpec s = b.like(x2);
    s.sizes.back() = std::int32_t((*size)[0]);
    s.dynamicDims &= ~(1u << (s.sizes.size() - 1));
    const int y = b.call1("_adaptive_avg_pool2d", "out",
        { { "self", LArg::tensor(x2) }, { "output_size", OpBuilder::ints({ 1, (*size)[0] }) } }, s);
    return d.finish({ b.squeeze(y, { -2 }) });
}

// adaptive_max_pool2d(self, output_size) -> (values, indices): when the output size divides the (static) input
// size every window is the same (H / oh, W / ow) block, which is max_pool2d_with_indices with kernel = stride and
// the same flat indices. Other sizes have windows of different sizes: not lowered. adaptive_max_pool1d, as ATen's:
// the same of the input unsqueezed at -2 with output (1, L), both results squeezed back.
Result<bool> decomposeAdaptiveMaxPool2d(Decomposer& d)
{
    PTE_TRY(const auto a, d.args());
    OpBuilder& b = d.b;
    int x = Decomposer::tensor(a, "self");
    auto size = Decomposer::intList(a, "output_size");
    const bool oneD = d.target().op == "adaptive_max_pool1d";
    if (oneD) {
        if (x < 0 || (b.rank(x) != 2 && b.rank(x) != 3))
            return d.invalid("adaptive_max_pool1d expects a 2-D or 3-D input");
        if (!size || size->size() != 1 || (*size)[0] <= 0)
            return d.invalid("adaptive_max_pool1d needs one positive output size");
        x = b.unsqueeze(x, -2);
        size = Ints { 1, (*size)[0] };
    }
    if (x < 0 || (b.rank(x) != 3 && b.rank(x) != 4))
        return d.invalid("adaptive_max_pool2d expects a 3-D or 4-D input");
    if (!size || size->size() != 2 || (*size)[0] <= 0 || (*size)[1] <= 0)
        return d.invalid("adaptive_max_pool2d needs two positive output sizes");
    if (b.isDynamic(x, -1) || b.isDynamic(x, -2))
        return d.refuse("adaptive_max_pool2d over dynamic spatial dimensions is not lowered");
    const std::int64_t h = b.size(x, -2);
    const std::int64_t w = b.size(x, -1);
    if (h % (*size)[0] != 0 || w % (*size)[1] != 0)
        return d.refuse("adaptive_max_pool2d to " + std::to_string((*size)[0]) + "x" + std::to_string((*size)[1])
            + " from " + std::to_string(h) + "x" + std::to_string(w)
            + ": only output sizes that divide the input are lowered (as max_pool2d_with_indices); the runtime has no "
              "adaptive_max_pool2d kernel");
    const Ints kernel { h / (*size)[0], w / (*size)[1] };
    OutSpec s = b.like(x);
    s.sizes[s.sizes.size() - 2] = std::int32_t((*size)[0]);
    s.sizes.back() = std::int32_t((*size)[1]);
    OutSpec si = s;
    si.dtype = ScalarType::Long;
    const auto ys = b.call("max_pool2d_with_indices", "out",
        { { "self", LArg::tensor(x) }, { "kernel_size", OpBuilder::ints(kernel) },
            { "stride", OpBuilder::ints(kernel) }, { "padding", OpBuilder::ints({ 0, 0 }) },
            { "dilation", OpBuilder::ints({ 1, 1 }) }, { "ceil_mode", OpBuilder::boolean(false) } },
        { s, si });
    if (oneD)
        return d.finish({ b.squeeze(ys[0], { -2 }), b.squeeze(ys[1], { -2 }) });
    return d.finish({ ys[0], ys[1] });
}

const DecompositionRule kResamplingRules[] = {
    { "upsample_nearest1d", &decomposeNearest,
        "index.Tensor with int64((o) * in/out) source indices computed in float32 (constants)" },
    { "upsample_nearest3d", &decomposeNearest,
        "index.Tensor with int64((o) * in/out) source indices per dimension computed in float32 (constants)" },
    { "_upsample_nearest_exact1d", &decomposeNearest,
        "index.Tensor with int64((o + 0.5) * in/out) source indices computed in float32 (constants)" },
    { "_upsample_nearest_exact2d", &decomposeNearest,
        "index.Tensor with int64((o + 0.5) * in/out) source indices computed in float32 (constants)" },
    { "_upsample_nearest_exact3d", &decomposeNearest,
        "index.Tensor with int64((o + 0.5) * in/out) source indices computed in float32 (constants)" },
    { "upsample_linear1d", &decomposeLinear,
        "index.Tensor of the two neighbours (constant indices), then v0 + (v1 - v0) * w (sub, mul, add)" },
    { "upsample_trilinear3d", &decomposeLinear,
        "index.Tensor of the 8 neighbours (constant indices), then v0 + (v1 - v0) * w along W, H, D (sub, mul, add)" },
    { "upsample_bicubic2d", &decomposeBicubic,
        "A = -0.75 cubic convolution: index_select of 4 clamped taps along W and H, mul by constant weights, add" },
    { "_upsample_bilinear2d_aa", &decomposeBilinearAa, "_upsample_bilinear2d_aa.out (the .vec arguments resolved)" },
    { "channel_shuffle", &decomposeChannelShuffle, "view_copy (n, g, c/g, -1), permute_copy, view_copy" },
    { "native_channel_shuffle", &decomposeChannelShuffle, "view_copy (n, g, c/g, -1), permute_copy, view_copy" },
    { "grid_sampler", &decomposeGridSampler, "grid_sampler_2d (4-D input); 5-D refused (no grid_sampler_3d kernel)" },
    { "affine_grid_generator", &decomposeAffineGrid,
        "constant base grid, permute_copy + unsqueeze_copy of theta, mul, sum, view_copy" },
    { "avg_pool1d", &decomposeAvgPool1d, "unsqueeze_copy, avg_pool2d (kernel (1, k)), squeeze_copy" },
    { "max_pool1d", &decomposeMaxPool1d, "unsqueeze_copy, max_pool2d_with_indices (kernel (1, k)), squeeze_copy" },
    { "max_pool1d_with_indices", &decomposeMaxPool1d,
        "unsqueeze_copy, max_pool2d_with_indices (kernel (1, k)), squeeze_copy of both" },
    { "adaptive_avg_pool1d", &decomposeAdaptiveAvgPool1d,
        "unsqueeze_copy, _adaptive_avg_pool2d (output (1, L)), squeeze_copy" },
    { "adaptive_max_pool1d", &decomposeAdaptiveMaxPool2d,
        "unsqueeze_copy, max_pool2d_with_indices (kernel = stride = L / output) when the output divides the input, "
        "squeeze_copy of both; else refused" },
    { "adaptive_max_pool2d", &decomposeAdaptiveMaxPool2d,
        "max_pool2d_with_indices (kernel = stride = input / output) when the output divides the input; else refused" },
};

} // namespace

std::span<const DecompositionRule> resamplingRules() { return kResamplingRules; }

} // namespace pte::emitcore
