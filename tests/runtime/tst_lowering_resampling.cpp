// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// Resampling as torch.export's training IR writes it: F.interpolate in every mode (the upsample_*.vec nodes),
// pixel_shuffle / pixel_unshuffle, channel_shuffle, grid_sample / affine_grid, and the 1-D and adaptive poolings,
// emitted by ptelens and run on ExecuTorch's runtime. Expected values come from ATen's definitions of each op (source
// indices computed in float32 as ATen computes them, sums in double), computed here.
#include "dumpbuilder.h"
#include "errorcheck.h"
#include "etrunner.h"
#include "executiontestutils.h"
#include "runtimecase.h"
#include "testutils.h"

#include <QTest>

#include <algorithm>
#include <array>
#include <cmath>
#include <functional>
#include <numeric>
#include <optional>

using namespace pte;
using namespace pte::test;
using nlohmann::json;

namespace {

using Shape = std::vector<std::int64_t>;
using Values = std::vector<double>;
using Scales = std::vector<double>;

std::int64_t numel(const Shape& s) { return std::accumulate(s.begin(), s.end(), std::int64_t(1), std::multiplies<>()); }

/** Row-major strides. */
Shape stridesOf(const Shape& s)
{
    Shape st(s.size(), 1);
    for (std::size_t d = s.size(); d-- > 1;)
        st[d - 1] = st[d] * s[d];
    return st;
}

/** The output size F.interpolate gives for a scale factor: in * s for an integral s, else floor(in * s). */
std::int64_t scaledSize(std::int64_t in, double s)
{
    return std::floor(s) == s ? in * std::int64_t(s) : std::int64_t(double(in) * s);
}

/** ATen's compute_scales_value / area_pixel_compute_scale (float). */
float atenScale(std::int64_t in, std::int64_t out, bool alignCorners, std::optional<double> s)
{
    if (alignCorners)
        return out > 1 ? float(in - 1) / float(out - 1) : 0.0f;
    return s && *s > 0 ? float(1.0 / *s) : float(in) / float(out);
}

/** ATen's nearest source index (UpSample.h nearest_idx / nearest_neighbor_exact_compute_source_index). */
std::int64_t nearestIndex(std::int64_t o, std::int64_t in, std::int64_t out, std::optional<double> s, bool exact)
{
    const float scale = atenScale(in, out, false, s);
    if (exact)
        return std::min<std::int64_t>(std::int64_t(std::floor((double(o) + 0.5) * scale)), in - 1);
    if (out == in)
        return o;
    if (out == 2 * in)
        return o >> 1;
    return std::min<std::int64_t>(std::int64_t(std::floor(float(o) * scale)), in - 1);
}

/** One dimension's source taps and weights (pairs of input index and weight) for output index o. */
using Taps = std::vector<std::pair<std::int64_t, double>>;

Taps linearTaps(std::int64_t o, std::int64_t in, std::int64_t out, bool align, std::optional<double> s)
{
    const float scale = atenScale(in, out, align, s);
    const float src = align ? scale * float(o) : std::max(scale * (float(o) + 0.5f) - 0.5f, 0.0f);
    const auto i0 = std::int64_t(src);
    const std::int64_t i1 = i0 + (i0 < in - 1 ? 1 : 0);
    const double l1 = double(src - float(i0));
    return { { i0, 1.0 - l1 }, { i1, l1 } };
}

double cubic1(double x, double a) { return ((a + 2) * x - (a + 3)) * x * x + 1; }
double cubic2(double x, double a) { return ((a * x - 5 * a) * x + 8 * a) * x - 4 * a; }

/** The four cubic-convolution weights (A = -0.75) of fraction t. */
std::array<double, 4> cubicWeights(double t)
{
    const double a = -0.75;
    return { cubic2(t + 1, a), cubic1(t, a), cubic1(1 - t, a), cubic2(2 - t, a) };
}

Taps cubicTaps(std::int64_t o, std::int64_t in, std::int64_t out, bool align, std::optional<double> s)
{
    const float scale = atenScale(in, out, align, s);
    const float src = align ? scale * float(o) : scale * (float(o) + 0.5f) - 0.5f;
    const float fl = std::floor(src);
    const auto w = cubicWeights(double(src - fl));
    Taps t;
    for (int k = 0; k < 4; ++k)
        t.push_back({ std::clamp<std::int64_t>(std::int64_t(fl) - 1 + k, 0, in - 1), w[std::size_t(k)] });
    return t;
}

/** A separable resampling of the last taps.size() dimensions of x: out[..., o...] = sum over the taps of each
 *  dimension of the product of their weights times x at their indices. */
Values resample(const Values& x, const Shape& xs, const std::vector<std::vector<Taps>>& taps, Shape& out)
{
    const std::size_t n = taps.size();
    const std::size_t lead = xs.size() - n;
    out = Shape(xs.begin(), xs.begin() + std::ptrdiff_t(lead));
    for (const auto& t : taps)
        out.push_back(std::int64_t(t.size()));
    const Shape xst = stridesOf(xs);
    Values y(std::size_t(numel(out)), 0.0);
    const std::int64_t outer = numel(Shape(xs.begin(), xs.begin() + std::ptrdiff_t(lead)));
    const std::int64_t inner = numel(Shape(out.begin() + std::ptrdiff_t(lead), out.end()));
    const std::int64_t plane = numel(Shape(xs.begin() + std::ptrdiff_t(lead), xs.end()));
    for (std::int64_t b = 0; b < outer; ++b)
        for (std::int64_t e = 0; e < inner; ++e) {
            Shape o(n);
            std::int64_t rem = e;
            for (std::size_t d = n; d-- > 0;) {
                o[d] = rem % out[lead + d];
                rem /= out[lead + d];
            }
            // Sum over every combination of taps.
            double acc = 0;
            std::vector<std::size_t> pick(n, 0);
            while (true) {
                double wgt = 1;
                std::int64_t flat = b * plane;
                for (std::size_t d = 0; d < n; ++d) {
                    const auto& tap = taps[d][std::size_t(o[d])][pick[d]];
                    wgt *= tap.second;
                    flat += tap.first * xst[lead + d];
                }
                acc += wgt * x[std::size_t(flat)];
                std::size_t d = n;
                while (d > 0 && ++pick[d - 1] == taps[d - 1][std::size_t(o[d - 1])].size())
                    pick[--d] = 0;
                if (d == 0)
                    break;
            }
            y[std::size_t(b * inner + e)] = acc;
        }
    return y;
}

/** The interpolate mode under test: the node's target and how one dimension's taps are computed. */
struct Mode
{
    std::string target;
    bool alignArg = false;
    std::function<Taps(std::int64_t, std::int64_t, std::int64_t, bool, std::optional<double>)> taps;
};

Mode modeOf(const QString& name)
{
    const auto nearest = [](bool exact) {
        return [exact](std::int64_t o, std::int64_t in, std::int64_t out, bool, std::optional<double> s) {
            return Taps { { nearestIndex(o, in, out, s, exact), 1.0 } };
        };
    };
    if (name == "nearest1d")
        return { "upsample_nearest1d.vec", false, nearest(false) };
    if (name == "nearest2d")
        return { "upsample_nearest2d.vec", false, nearest(false) };
    if (name == "nearest3d")
        return { "upsample_nearest3d.vec", false, nearest(false) };
    if (name == "nearest-exact1d")
        return { "_upsample_nearest_exact1d.vec", false, nearest(true) };
    if (name == "nearest-exact2d")
        return { "_upsample_nearest_exact2d.vec", false, nearest(true) };
    if (name == "nearest-exact3d")
        return { "_upsample_nearest_exact3d.vec", false, nearest(true) };
    if (name == "linear")
        return { "upsample_linear1d.vec", true, linearTaps };
    if (name == "bilinear")
        return { "upsample_bilinear2d.vec", true, linearTaps };
    if (name == "trilinear")
        return { "upsample_trilinear3d.vec", true, linearTaps };
    return { "upsample_bicubic2d.vec", true, cubicTaps };
}

double gridUnnormalize(double c, std::int64_t size, bool align)
{
    return align ? (c + 1) / 2 * double(size - 1) : ((c + 1) * double(size) - 1) / 2;
}

double reflectCoordinates(double in, std::int64_t twiceLow, std::int64_t twiceHigh)
{
    if (twiceLow == twiceHigh)
        return 0;
    const double lo = double(twiceLow) / 2;
    const double span = double(twiceHigh - twiceLow) / 2;
    in = std::fabs(in - lo);
    const double extra = std::fmod(in, span);
    const auto flips = std::int64_t(std::floor(in / span));
    return flips % 2 == 0 ? extra + lo : span - extra + lo;
}

/** ATen's grid sampler compute_coordinates: padding 0 zeros, 1 border, 2 reflection. */
double gridCoordinates(double c, std::int64_t size, int padding, bool align)
{
    if (padding == 1)
        return std::clamp(c, 0.0, double(size - 1));
    if (padding == 2) {
        c = align ? reflectCoordinates(c, 0, 2 * (size - 1)) : reflectCoordinates(c, -1, 2 * size - 1);
        return std::clamp(c, 0.0, double(size - 1));
    }
    return c;
}

/** grid_sampler_2d by ATen's definition (GridSampler.cpp), interpolation 0 bilinear, 1 nearest, 2 bicubic. */
Values gridSample(
    const Values& x, const Shape& xs, const Values& g, const Shape& gs, int interp, int padding, bool align)
{
    const std::int64_t N = xs[0], C = xs[1], H = xs[2], W = xs[3], OH = gs[1], OW = gs[2];
    Values y;
    auto at = [&](std::int64_t n, std::int64_t c, std::int64_t yy, std::int64_t xx) {
        return yy < 0 || yy >= H || xx < 0 || xx >= W ? 0.0 : x[std::size_t(((n * C + c) * H + yy) * W + xx)];
    };
    for (std::int64_t n = 0; n < N; ++n)
        for (std::int64_t c = 0; c < C; ++c)
            for (std::int64_t oy = 0; oy < OH; ++oy)
                for (std::int64_t ox = 0; ox < OW; ++ox) {
                    const double gx = g[std::size_t(((n * OH + oy) * OW + ox) * 2)];
                    const double gy = g[std::size_t(((n * OH + oy) * OW + ox) * 2 + 1)];
                    if (interp == 2) {
                        const double ix = gridUnnormalize(gx, W, align), iy = gridUnnormalize(gy, H, align);
                        const double fx = std::floor(ix), fy = std::floor(iy);
                        const auto wx = cubicWeights(ix - fx), wy = cubicWeights(iy - fy);
                        double acc = 0;
                        for (int j = 0; j < 4; ++j)
                            for (int i = 0; i < 4; ++i) {
                                const double cx = gridCoordinates(fx - 1 + i, W, padding, align);
                                const double cy = gridCoordinates(fy - 1 + j, H, padding, align);
                                acc += wy[std::size_t(j)] * wx[std::size_t(i)]
                                    * at(n, c, std::int64_t(cy), std::int64_t(cx));
                            }
                        y.push_back(acc);
                        continue;
                    }
                    const double ix = gridCoordinates(gridUnnormalize(gx, W, align), W, padding, align);
                    const double iy = gridCoordinates(gridUnnormalize(gy, H, align), H, padding, align);
                    if (interp == 1) {
                        y.push_back(at(n, c, std::int64_t(std::nearbyint(iy)), std::int64_t(std::nearbyint(ix))));
                        continue;
                    }
                    const auto x0 = std::int64_t(std::floor(ix)), y0 = std::int64_t(std::floor(iy));
                    const double lx = ix - double(x0), ly = iy - double(y0);
                    y.push_back((1 - ly) * ((1 - lx) * at(n, c, y0, x0) + lx * at(n, c, y0, x0 + 1))
                        + ly * ((1 - lx) * at(n, c, y0 + 1, x0) + lx * at(n, c, y0 + 1, x0 + 1)));
                }
    return y;
}

/** torch.linspace(-a, a, n) with a = (n - 1) / n, or 1 with align_corners (affine_grid's base grid). */
double baseCoordinate(std::int64_t i, std::int64_t n, bool align)
{
    if (n <= 1)
        return 0;
    const double a = align ? 1.0 : double(n - 1) / double(n);
    return -a + 2 * a * double(i) / double(n - 1);
}

} // namespace

Q_DECLARE_METATYPE(json)

class TestLoweringResampling : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void interpolate_data()
    {
        QTest::addColumn<QString>("mode");
        QTest::addColumn<Shape>("input");
        QTest::addColumn<Shape>("outputSize"); // empty: scale factors
        QTest::addColumn<Scales>("scaleFactors");
        QTest::addColumn<bool>("alignCorners");
        // F.interpolate(x, scale_factor=2, mode='bilinear', align_corners=False): the decoder upsampling of
        // segmentation models (kept as the runtime's upsample_bilinear2d kernel).
        QTest::newRow("bilinear scale 2") << "bilinear" << Shape { 1, 3, 4, 5 } << Shape {} << Scales { 2, 2 } << false;
        QTest::newRow("bilinear align_corners, size 7x9")
            << "bilinear" << Shape { 2, 2, 3, 4 } << Shape { 7, 9 } << Scales {} << true;
        QTest::newRow("bilinear scale 0.5 (downsample)")
            << "bilinear" << Shape { 1, 2, 6, 8 } << Shape {} << Scales { 0.5, 0.5 } << false;
        QTest::newRow("nearest2d scale 2")
            << "nearest2d" << Shape { 1, 2, 3, 4 } << Shape {} << Scales { 2, 2 } << false;
        QTest::newRow("nearest2d size 5x7")
            << "nearest2d" << Shape { 1, 2, 3, 4 } << Shape { 5, 7 } << Scales {} << false;
        QTest::newRow("nearest2d scale 1.5")
            << "nearest2d" << Shape { 1, 1, 4, 6 } << Shape {} << Scales { 1.5, 1.5 } << false;
        QTest::newRow("nearest1d scale 3") << "nearest1d" << Shape { 2, 3, 5 } << Shape {} << Scales { 3 } << false;
        QTest::newRow("nearest1d size 7") << "nearest1d" << Shape { 1, 2, 5 } << Shape { 7 } << Scales {} << false;
        QTest::newRow("nearest1d scale 0.6")
            << "nearest1d" << Shape { 1, 2, 10 } << Shape {} << Scales { 0.6 } << false;
        QTest::newRow("nearest3d scale 2")
            << "nearest3d" << Shape { 1, 2, 2, 3, 2 } << Shape {} << Scales { 2, 2, 2 } << false;
        QTest::newRow("nearest3d size (3, 5, 4)")
            << "nearest3d" << Shape { 1, 1, 2, 3, 3 } << Shape { 3, 5, 4 } << Scales {} << false;
        QTest::newRow("nearest-exact1d size 7")
            << "nearest-exact1d" << Shape { 1, 2, 5 } << Shape { 7 } << Scales {} << false;
        QTest::newRow("nearest-exact1d scale 0.5")
            << "nearest-exact1d" << Shape { 1, 2, 8 } << Shape {} << Scales { 0.5 } << false;
        QTest::newRow("nearest-exact2d scale 2")
            << "nearest-exact2d" << Shape { 1, 2, 3, 4 } << Shape {} << Scales { 2, 2 } << false;
        QTest::newRow("nearest-exact2d size 4x3 (downsample)")
            << "nearest-exact2d" << Shape { 1, 2, 6, 5 } << Shape { 4, 3 } << Scales {} << false;
        QTest::newRow("nearest-exact3d scale 1.5")
            << "nearest-exact3d" << Shape { 1, 1, 2, 4, 2 } << Shape {} << Scales { 1.5, 1.5, 1.5 } << false;
        QTest::newRow("linear scale 2") << "linear" << Shape { 2, 3, 5 } << Shape {} << Scales { 2 } << false;
        QTest::newRow("linear align_corners size 9")
            << "linear" << Shape { 1, 2, 4 } << Shape { 9 } << Scales {} << true;
        QTest::newRow("linear size 3 (downsample)")
            << "linear" << Shape { 1, 2, 7 } << Shape { 3 } << Scales {} << false;
        QTest::newRow("linear scale 1.7") << "linear" << Shape { 1, 1, 6 } << Shape {} << Scales { 1.7 } << false;
        QTest::newRow("trilinear scale 2")
            << "trilinear" << Shape { 1, 2, 2, 3, 3 } << Shape {} << Scales { 2, 2, 2 } << false;
        QTest::newRow("trilinear align_corners size (3, 4, 5)")
            << "trilinear" << Shape { 1, 2, 2, 3, 2 } << Shape { 3, 4, 5 } << Scales {} << true;
        QTest::newRow("bicubic scale 2") << "bicubic" << Shape { 1, 2, 4, 5 } << Shape {} << Scales { 2, 2 } << false;
        QTest::newRow("bicubic align_corners size 7x6")
            << "bicubic" << Shape { 2, 1, 4, 4 } << Shape { 7, 6 } << Scales {} << true;
        QTest::newRow("bicubic size 3x5 (downsample)")
            << "bicubic" << Shape { 1, 2, 6, 8 } << Shape { 3, 5 } << Scales {} << false;
        QTest::newRow("bicubic align_corners scale 1.5")
            << "bicubic" << Shape { 1, 1, 4, 6 } << Shape {} << Scales { 1.5, 1.5 } << true;
    }

    void interpolate()
    {
        // F.interpolate(x, size | scale_factor, mode[, align_corners]) as the .vec node torch.export writes:
        // (input, output_size, [align_corners,] scale_factors), exactly one of output_size and scale_factors set.
        QFETCH(QString, mode);
        QFETCH(Shape, input);
        QFETCH(Shape, outputSize);
        QFETCH(Scales, scaleFactors);
        QFETCH(bool, alignCorners);
        const Mode m = modeOf(mode);
        const std::size_t n = outputSize.empty() ? scaleFactors.size() : outputSize.size();
        Case c;
        c.in("x", input, values(std::size_t(numel(input)), 11, 2.0));
        json args =
            json::array({ arg("input", T("x")), arg("output_size", outputSize.empty() ? None() : Ints(outputSize)) });
        if (m.alignArg)
            args.push_back(arg("align_corners", B(alignCorners)));
        args.push_back(arg("scale_factors", scaleFactors.empty() ? None() : Floats(scaleFactors)));
        std::vector<std::vector<Taps>> taps;
        for (std::size_t k = 0; k < n; ++k) {
            const std::int64_t in = input[input.size() - n + k];
            const std::int64_t out = outputSize.empty() ? scaledSize(in, scaleFactors[k]) : outputSize[k];
            const auto s = scaleFactors.empty() ? std::nullopt : std::optional<double>(scaleFactors[k]);
            std::vector<Taps> dim;
            for (std::int64_t o = 0; o < out; ++o)
                dim.push_back(m.taps(o, in, out, alignCorners, s));
            taps.push_back(dim);
        }
        Shape out;
        const auto y = resample(c.inputs[0].values, input, taps, out);
        c.op("upsample", m.target, args, out, y);
        QVERIFY_RUNS_ON_RUNTIME(c, "interpolate_" + mode.toStdString());
    }

    void interpolateDefaultOverloads()
    {
        // The non-vec overloads (output size and per-dimension scales), as graphs that went through torch's own
        // decompositions name them: upsample_linear1d(x, [9], True) and _upsample_nearest_exact2d(x, [6, 4]).
        Case c;
        c.in("x", { 1, 2, 4 }, values(8, 12, 2.0));
        c.in("z", { 1, 1, 3, 2 }, values(6, 13, 2.0));
        std::vector<std::vector<Taps>> lin(1), ne(2);
        for (std::int64_t o = 0; o < 9; ++o)
            lin[0].push_back(linearTaps(o, 4, 9, true, std::nullopt));
        for (std::int64_t o = 0; o < 6; ++o)
            ne[0].push_back({ { nearestIndex(o, 3, 6, std::nullopt, true), 1.0 } });
        for (std::int64_t o = 0; o < 4; ++o)
            ne[1].push_back({ { nearestIndex(o, 2, 4, std::nullopt, true), 1.0 } });
        Shape s1, s2;
        const auto y1 = resample(c.inputs[0].values, { 1, 2, 4 }, lin, s1);
        const auto y2 = resample(c.inputs[1].values, { 1, 1, 3, 2 }, ne, s2);
        c.op("lin", "upsample_linear1d.default",
            json::array({ arg("self", T("x")), arg("output_size", Ints({ 9 })), arg("align_corners", B(true)) }), s1,
            y1);
        c.op("ne", "_upsample_nearest_exact2d.default",
            json::array({ arg("self", T("z")), arg("output_size", Ints({ 6, 4 })) }), s2, y2);
        QVERIFY_RUNS_ON_RUNTIME(c, "interpolate_default_overloads");
    }

    void antialiasedBilinear()
    {
        // F.interpolate(x, size=(2, 3), mode='bilinear', antialias=True): _upsample_bilinear2d_aa.vec, the runtime's
        // kernel. PyTorch's antialiased weights: for output i, centre = scale (i + 0.5), support = scale when
        // downscaling, taps j in [centre - support + 0.5, centre + support + 0.5) weighted by the triangle
        // 1 - |(j - centre + 0.5) / scale|, normalised.
        Case c;
        c.in("x", { 1, 2, 5, 9 }, values(90, 14, 2.0));
        auto weights = [](std::int64_t outSize, std::int64_t inSize, std::int64_t i) {
            const double scale = double(inSize) / double(outSize);
            const double support = scale >= 1 ? scale : 1.0;
            const double inv = scale >= 1 ? 1 / scale : 1.0;
            const double centre = scale * (double(i) + 0.5);
            const auto lo = std::max<std::int64_t>(std::int64_t(centre - support + 0.5), 0);
            const auto hi = std::min<std::int64_t>(std::int64_t(centre + support + 0.5), inSize);
            Taps w;
            double total = 0;
            for (std::int64_t j = lo; j < hi; ++j) {
                const double t = std::fabs((double(j) - centre + 0.5) * inv);
                w.emplace_back(j, t < 1 ? 1 - t : 0);
                total += w.back().second;
            }
            for (auto& e : w)
                e.second /= total;
            return w;
        };
        std::vector<std::vector<Taps>> taps(2);
        for (std::int64_t o = 0; o < 2; ++o)
            taps[0].push_back(weights(2, 5, o));
        for (std::int64_t o = 0; o < 3; ++o)
            taps[1].push_back(weights(3, 9, o));
        Shape out;
        const auto y = resample(c.inputs[0].values, { 1, 2, 5, 9 }, taps, out);
        c.op("aa", "_upsample_bilinear2d_aa.vec",
            json::array({ arg("input", T("x")), arg("output_size", Ints({ 2, 3 })), arg("align_corners", B(false)),
                arg("scale_factors", None()) }),
            out, y);
        QVERIFY_RUNS_ON_RUNTIME(c, "interpolate_antialias");
    }

    void area()
    {
        // F.interpolate(mode='area') is adaptive average pooling: 1-D (adaptive_avg_pool1d, 10 -> 4, windows of
        // different sizes) and 2-D (adaptive_avg_pool2d, 6x6 -> 3x3).
        Case c;
        c.in("x", { 2, 3, 10 }, values(60, 15, 2.0));
        c.in("z", { 1, 2, 6, 6 }, values(72, 16, 2.0));
        Values y1;
        for (std::size_t r = 0; r < 6; ++r)
            for (std::int64_t o = 0; o < 4; ++o) {
                const std::int64_t lo = (o * 10) / 4, hi = ((o + 1) * 10 + 3) / 4;
                double acc = 0;
                for (std::int64_t i = lo; i < hi; ++i)
                    acc += c.inputs[0].values[r * 10 + std::size_t(i)];
                y1.push_back(acc / double(hi - lo));
            }
        Values y2;
        for (std::size_t ch = 0; ch < 2; ++ch)
            for (std::size_t oy = 0; oy < 3; ++oy)
                for (std::size_t ox = 0; ox < 3; ++ox) {
                    double acc = 0;
                    for (std::size_t dy = 0; dy < 2; ++dy)
                        for (std::size_t dx = 0; dx < 2; ++dx)
                            acc += c.inputs[1].values[(ch * 6 + oy * 2 + dy) * 6 + ox * 2 + dx];
                    y2.push_back(acc / 4);
                }
        c.op("a1", "adaptive_avg_pool1d.default", json::array({ arg("self", T("x")), arg("output_size", Ints({ 4 })) }),
            { 2, 3, 4 }, y1);
        c.op("a2", "adaptive_avg_pool2d.default",
            json::array({ arg("self", T("z")), arg("output_size", Ints({ 3, 3 })) }), { 1, 2, 3, 3 }, y2);
        QVERIFY_RUNS_ON_RUNTIME(c, "interpolate_area");
    }

    void dynamicBatch()
    {
        // Upsampling a dynamic batch (s0 <= 3) at the upper bound: nearest-exact (decomposed, index.Tensor keeps
        // the leading dimensions) and bilinear (the kernel); and a channel shuffle of it.
        Case c;
        const Shape xs { 3, 2, 3, 4 };
        c.in("x", xs, values(std::size_t(numel(xs)), 17, 2.0));
        c.in("z", { 3, 6, 2 }, values(36, 27, 2.0));
        std::vector<std::vector<Taps>> ne(2), bl(2);
        for (std::int64_t o = 0; o < 6; ++o)
            ne[0].push_back({ { nearestIndex(o, 3, 6, 2.0, true), 1.0 } });
        for (std::int64_t o = 0; o < 8; ++o)
            ne[1].push_back({ { nearestIndex(o, 4, 8, 2.0, true), 1.0 } });
        for (std::int64_t o = 0; o < 6; ++o)
            bl[0].push_back(linearTaps(o, 3, 6, false, 2.0));
        for (std::int64_t o = 0; o < 8; ++o)
            bl[1].push_back(linearTaps(o, 4, 8, false, 2.0));
        Shape s1, s2;
        const auto y1 = resample(c.inputs[0].values, xs, ne, s1);
        const auto y2 = resample(c.inputs[0].values, xs, bl, s2);
        c.op("ne", "_upsample_nearest_exact2d.vec",
            json::array({ arg("input", T("x")), arg("output_size", None()), arg("scale_factors", Floats({ 2, 2 })) }),
            s1, y1);
        c.op("bl", "upsample_bilinear2d.vec",
            json::array({ arg("input", T("x")), arg("output_size", None()), arg("align_corners", B(false)),
                arg("scale_factors", Floats({ 2, 2 })) }),
            s2, y2);
        // nn.ChannelShuffle(3) of a (s0, 6, 2) input: the view to (N, g, C / g, -1) takes N at run time.
        Values shuffled(36);
        for (std::size_t n = 0; n < 3; ++n)
            for (std::size_t g = 0; g < 3; ++g)
                for (std::size_t k = 0; k < 2; ++k)
                    for (std::size_t r = 0; r < 2; ++r)
                        shuffled[(n * 6 + k * 3 + g) * 2 + r] = c.inputs[1].values[(n * 6 + g * 2 + k) * 2 + r];
        c.op("shuffle", "channel_shuffle.default", json::array({ arg("self", T("z")), arg("groups", I(3)) }),
            { 3, 6, 2 }, shuffled);
        for (const char* name : { "x", "z", "ne", "bl", "shuffle" })
            c.dump.dynamic(name, 0, "s0", 3);
        QVERIFY_RUNS_ON_RUNTIME(c, "interpolate_dynamic_batch");
    }

    void reflectPadPixelShuffle()
    {
        // A super-resolution tail (ESPCN / EDSR style): F.pad(x, (1, 1, 1, 1), 'reflect') -> Conv2d(3, 12, 3) ->
        // PixelShuffle(2), and PixelUnshuffle(2) of the result (back to 12 channels).
        Case c;
        const Shape xs { 1, 3, 4, 5 }, ws { 12, 3, 3, 3 };
        c.in("x", xs, values(std::size_t(numel(xs)), 18, 2.0));
        const auto w = values(std::size_t(numel(ws)), 19, 0.5);
        const auto b = values(12, 20, 0.5);
        c.dump.weight("p_conv_weight", "conv.weight", ws, w);
        c.dump.weight("p_conv_bias", "conv.bias", { 12 }, b);
        c.dump.node("pad", "pad.default",
            json::array({ arg("self", T("x")), arg("pad", Ints({ 1, 1, 1, 1 })), arg("mode", S("reflect")) }),
            { 1, 3, 6, 7 });
        c.dump.node("conv2d", "conv2d.default",
            json::array({ arg("input", T("pad")), arg("weight", T("p_conv_weight")), arg("bias", T("p_conv_bias")) }),
            { 1, 12, 4, 5 });
        c.dump.node("pixel_shuffle", "pixel_shuffle.default",
            json::array({ arg("self", T("conv2d")), arg("upscale_factor", I(2)) }), { 1, 3, 8, 10 });
        c.dump.node("pixel_unshuffle", "pixel_unshuffle.default",
            json::array({ arg("self", T("pixel_shuffle")), arg("downscale_factor", I(2)) }), { 1, 12, 4, 5 });
        c.dump.output("pixel_shuffle");
        c.dump.output("pixel_unshuffle");
        // Reflect pad by index, then the convolution by its definition.
        const auto& x = c.inputs[0].values;
        auto reflect = [](std::int64_t i, std::int64_t n) { return i < 0 ? -i : i >= n ? 2 * (n - 1) - i : i; };
        Values conv(12 * 4 * 5);
        for (std::int64_t o = 0; o < 12; ++o)
            for (std::int64_t oy = 0; oy < 4; ++oy)
                for (std::int64_t ox = 0; ox < 5; ++ox) {
                    double acc = b[std::size_t(o)];
                    for (std::int64_t ch = 0; ch < 3; ++ch)
                        for (std::int64_t ky = 0; ky < 3; ++ky)
                            for (std::int64_t kx = 0; kx < 3; ++kx)
                                acc += x[std::size_t((ch * 4 + reflect(oy + ky - 1, 4)) * 5 + reflect(ox + kx - 1, 5))]
                                    * w[std::size_t(((o * 3 + ch) * 3 + ky) * 3 + kx)];
                    conv[std::size_t((o * 4 + oy) * 5 + ox)] = acc;
                }
        // pixel_shuffle: out[c][h * r + i][w * r + j] = in[c * r * r + i * r + j][h][w].
        Values shuffled(3 * 8 * 10);
        for (std::int64_t ch = 0; ch < 3; ++ch)
            for (std::int64_t h = 0; h < 4; ++h)
                for (std::int64_t ww = 0; ww < 5; ++ww)
                    for (std::int64_t i = 0; i < 2; ++i)
                        for (std::int64_t j = 0; j < 2; ++j)
                            shuffled[std::size_t((ch * 8 + h * 2 + i) * 10 + ww * 2 + j)] =
                                conv[std::size_t(((ch * 4 + i * 2 + j) * 4 + h) * 5 + ww)];
        c.expect({ 1, 3, 8, 10 }, shuffled).expect({ 1, 12, 4, 5 }, conv);
        QVERIFY_RUNS_ON_RUNTIME(c, "pixel_shuffle");
    }

    void channelShuffle_data()
    {
        QTest::addColumn<QString>("target");
        QTest::addColumn<Shape>("input");
        QTest::addColumn<int>("groups");
        QTest::newRow("channel_shuffle (ShuffleNet, 2 groups)")
            << "channel_shuffle.default" << Shape { 2, 6, 3, 2 } << 2;
        QTest::newRow("native_channel_shuffle 3 groups")
            << "native_channel_shuffle.default" << Shape { 1, 12, 2, 2 } << 3;
        QTest::newRow("channel_shuffle 3-D input") << "channel_shuffle.default" << Shape { 2, 8, 5 } << 4;
    }

    void channelShuffle()
    {
        // nn.ChannelShuffle(g): out channel o * g + k... = in channel k * (C / g) + o: (N, g, C/g, *) transposed.
        QFETCH(QString, target);
        QFETCH(Shape, input);
        QFETCH(int, groups);
        Case c;
        c.in("x", input, values(std::size_t(numel(input)), 21, 2.0));
        const std::int64_t C = input[1], per = C / groups;
        const std::int64_t rest = numel(input) / (input[0] * C);
        Values y(std::size_t(numel(input)));
        for (std::int64_t n = 0; n < input[0]; ++n)
            for (std::int64_t g = 0; g < groups; ++g)
                for (std::int64_t k = 0; k < per; ++k)
                    for (std::int64_t r = 0; r < rest; ++r)
                        y[std::size_t((n * C + k * groups + g) * rest + r)] =
                            c.inputs[0].values[std::size_t((n * C + g * per + k) * rest + r)];
        c.op("shuffle", target.toStdString(), json::array({ arg("self", T("x")), arg("groups", I(groups)) }), input, y);
        QVERIFY_RUNS_ON_RUNTIME(c, "channel_shuffle");
    }

    void gridSampler_data()
    {
        QTest::addColumn<QString>("target");
        QTest::addColumn<int>("interpolation");
        QTest::addColumn<int>("padding");
        QTest::addColumn<bool>("alignCorners");
        for (const char* target : { "grid_sampler_2d.default", "grid_sampler.default" })
            for (int interp = 0; interp < 3; ++interp)
                for (int pad = 0; pad < 3; ++pad)
                    for (const bool align : { false, true }) {
                        static const char* const kInterp[] = { "bilinear", "nearest", "bicubic" };
                        static const char* const kPad[] = { "zeros", "border", "reflection" };
                        const std::string row = std::string(target) + " " + kInterp[interp] + " " + kPad[pad]
                            + (align ? " align_corners" : "");
                        QTest::newRow(row.c_str()) << target << interp << pad << align;
                    }
    }

    void gridSampler()
    {
        // F.grid_sample(x, grid, mode, padding_mode, align_corners) writes grid_sampler(input, grid, mode,
        // padding_mode, align_corners) (modes as ints: bilinear 0, nearest 1, bicubic 2; zeros 0, border 1,
        // reflection 2); the runtime's grid_sampler_2d kernel computes it. Grid points include ones outside
        // [-1, 1] and, for nearest, none on a tie.
        QFETCH(QString, target);
        QFETCH(int, interpolation);
        QFETCH(int, padding);
        QFETCH(bool, alignCorners);
        Case c;
        const Shape xs { 2, 2, 4, 5 }, gs { 2, 3, 3, 2 };
        c.in("x", xs, values(std::size_t(numel(xs)), 22, 2.0));
        Values g = values(std::size_t(numel(gs)), 23, 1.3);
        c.in("grid", gs, g);
        const auto y = gridSample(c.inputs[0].values, xs, c.inputs[1].values, gs, interpolation, padding, alignCorners);
        c.op("sampled", target.toStdString(),
            json::array({ arg("input", T("x")), arg("grid", T("grid")), arg("interpolation_mode", I(interpolation)),
                arg("padding_mode", I(padding)), arg("align_corners", B(alignCorners)) }),
            { 2, 2, 3, 3 }, y);
        QVERIFY_RUNS_ON_RUNTIME(c, "grid_sampler");
    }

    void spatialTransformer_data()
    {
        QTest::addColumn<bool>("alignCorners");
        QTest::newRow("align_corners=False") << false;
        QTest::newRow("align_corners=True") << true;
    }

    void spatialTransformer()
    {
        // A spatial transformer: grid = F.affine_grid(theta, (2, 3, 4, 5), align_corners), then
        // F.grid_sample(x, grid, align_corners=align_corners) (bilinear, zeros). Both outputs are checked.
        QFETCH(bool, alignCorners);
        Case c;
        const Shape xs { 2, 3, 4, 5 };
        c.in("x", xs, values(std::size_t(numel(xs)), 24, 2.0));
        c.in("theta", { 2, 2, 3 }, { 0.9, -0.2, 0.1, 0.15, 1.1, -0.05, 1.2, 0.3, -0.2, -0.25, 0.8, 0.3 });
        const auto& th = c.inputs[1].values;
        Values grid;
        for (std::int64_t n = 0; n < 2; ++n)
            for (std::int64_t i = 0; i < 4; ++i)
                for (std::int64_t j = 0; j < 5; ++j) {
                    const double bx = baseCoordinate(j, 5, alignCorners), by = baseCoordinate(i, 4, alignCorners);
                    for (std::int64_t k = 0; k < 2; ++k)
                        grid.push_back(th[std::size_t(n * 6 + k * 3)] * bx + th[std::size_t(n * 6 + k * 3 + 1)] * by
                            + th[std::size_t(n * 6 + k * 3 + 2)]);
                }
        c.dump.node("affine_grid_generator", "affine_grid_generator.default",
            json::array(
                { arg("theta", T("theta")), arg("size", Ints({ 2, 3, 4, 5 })), arg("align_corners", B(alignCorners)) }),
            { 2, 4, 5, 2 });
        c.dump.node("grid_sampler", "grid_sampler.default",
            json::array({ arg("input", T("x")), arg("grid", T("affine_grid_generator")),
                arg("interpolation_mode", I(0)), arg("padding_mode", I(0)), arg("align_corners", B(alignCorners)) }),
            { 2, 3, 4, 5 });
        c.dump.output("affine_grid_generator");
        c.dump.output("grid_sampler");
        Values roundedGrid = grid;
        for (auto& v : roundedGrid)
            v = f32(v);
        c.expect({ 2, 4, 5, 2 }, grid)
            .expect(
                { 2, 3, 4, 5 }, gridSample(c.inputs[0].values, xs, roundedGrid, { 2, 4, 5, 2 }, 0, 0, alignCorners));
        QVERIFY_RUNS_ON_RUNTIME(c, "spatial_transformer");
    }

    void volumetricAffineGrid()
    {
        // F.affine_grid(theta, (1, 1, 2, 3, 4)) for a 3-D transform: (1, 2, 3, 4, 3) points.
        Case c;
        c.in("theta", { 1, 3, 4 }, { 1.0, 0.1, -0.2, 0.05, -0.1, 0.9, 0.2, 0.0, 0.3, 0.1, 1.1, -0.1 });
        const auto& th = c.inputs[0].values;
        Values grid;
        for (std::int64_t d = 0; d < 2; ++d)
            for (std::int64_t i = 0; i < 3; ++i)
                for (std::int64_t j = 0; j < 4; ++j) {
                    const double b[4] = { baseCoordinate(j, 4, false), baseCoordinate(i, 3, false),
                        baseCoordinate(d, 2, false), 1.0 };
                    for (std::size_t k = 0; k < 3; ++k)
                        grid.push_back(th[k * 4] * b[0] + th[k * 4 + 1] * b[1] + th[k * 4 + 2] * b[2] + th[k * 4 + 3]);
                }
        c.op("grid", "affine_grid_generator.default",
            json::array(
                { arg("theta", T("theta")), arg("size", Ints({ 1, 1, 2, 3, 4 })), arg("align_corners", B(false)) }),
            { 1, 2, 3, 4, 3 }, grid);
        QVERIFY_RUNS_ON_RUNTIME(c, "affine_grid_3d");
    }

    void pooling1d_data()
    {
        QTest::addColumn<QString>("target");
        QTest::addColumn<json>("options");
        QTest::addColumn<int>("kernel");
        QTest::addColumn<int>("stride");
        QTest::addColumn<int>("padding");
        QTest::addColumn<int>("dilation");
        QTest::addColumn<bool>("ceil");
        QTest::addColumn<bool>("countPad");
        QTest::newRow("avg_pool1d k 3 (stride = kernel)")
            << "avg_pool1d.default" << json::array() << 3 << 3 << 0 << 1 << false << true;
        QTest::newRow("avg_pool1d k 4 stride 2 padding 1")
            << "avg_pool1d.default" << json::array({ arg("stride", Ints({ 2 })), arg("padding", Ints({ 1 })) }) << 4
            << 2 << 1 << 1 << false << true;
        QTest::newRow("avg_pool1d ceil_mode, count_include_pad=False")
            << "avg_pool1d.default"
            << json::array({ arg("stride", Ints({ 2 })), arg("padding", Ints({ 1 })), arg("ceil_mode", B(true)),
                   arg("count_include_pad", B(false)) })
            << 3 << 2 << 1 << 1 << true << false;
        QTest::newRow("max_pool1d k 2") << "max_pool1d.default" << json::array() << 2 << 2 << 0 << 1 << false << true;
        QTest::newRow("max_pool1d k 3 stride 2 padding 1 dilation 2 ceil_mode")
            << "max_pool1d.default"
            << json::array({ arg("stride", Ints({ 2 })), arg("padding", Ints({ 1 })), arg("dilation", Ints({ 2 })),
                   arg("ceil_mode", B(true)) })
            << 3 << 2 << 1 << 2 << true << true;
        QTest::newRow("max_pool1d_with_indices k 3 stride 1")
            << "max_pool1d_with_indices.default" << json::array({ arg("stride", Ints({ 1 })) }) << 3 << 1 << 0 << 1
            << false << true;
    }

    void pooling1d()
    {
        // F.avg_pool1d / F.max_pool1d (return_indices for max_pool1d_with_indices) on (N, C, L) = (2, 3, 11).
        QFETCH(QString, target);
        QFETCH(json, options);
        QFETCH(int, kernel);
        QFETCH(int, stride);
        QFETCH(int, padding);
        QFETCH(int, dilation);
        QFETCH(bool, ceil);
        QFETCH(bool, countPad);
        const std::int64_t L = 11;
        const bool avg = target.startsWith("avg");
        const bool indices = target.endsWith("indices.default");
        std::int64_t out = (L + 2 * padding - dilation * (kernel - 1) - 1 + (ceil ? stride - 1 : 0)) / stride + 1;
        if (ceil && (out - 1) * stride >= L + padding)
            --out;
        Case c;
        c.in("x", { 2, 3, L }, values(66, 25, 2.0));
        Values y, idx;
        for (std::size_t r = 0; r < 6; ++r)
            for (std::int64_t o = 0; o < out; ++o) {
                const std::int64_t start = o * stride - padding;
                if (avg) {
                    const std::int64_t end = std::min(start + kernel, L + padding);
                    const std::int64_t count =
                        countPad ? end - start : std::min(end, L) - std::max<std::int64_t>(start, 0);
                    double acc = 0;
                    for (std::int64_t i = std::max<std::int64_t>(start, 0); i < std::min(end, L); ++i)
                        acc += c.inputs[0].values[r * std::size_t(L) + std::size_t(i)];
                    y.push_back(acc / double(count));
                    continue;
                }
                double best = -INFINITY;
                std::int64_t at = -1;
                for (std::int64_t k = 0; k < kernel; ++k) {
                    const std::int64_t i = start + k * dilation;
                    if (i < 0 || i >= L)
                        continue;
                    const double v = c.inputs[0].values[r * std::size_t(L) + std::size_t(i)];
                    if (v > best) {
                        best = v;
                        at = i;
                    }
                }
                y.push_back(best);
                idx.push_back(double(at));
            }
        json args = json::array({ arg("self", T("x")), arg("kernel_size", Ints({ kernel })) });
        for (const auto& o : options)
            args.push_back(o);
        if (indices) {
            c.dump.tupleNode("pool", target.toStdString(), args,
                { { "getitem", { 2, 3, out } }, { "getitem_1", { 2, 3, out } } }, kFloat, { kFloat, kLong });
            c.dump.output("getitem");
            c.dump.output("getitem_1");
            c.expect({ 2, 3, out }, y).expect({ 2, 3, out }, idx, kLong);
        } else {
            c.op("pool", target.toStdString(), args, { 2, 3, out }, y);
        }
        QVERIFY_RUNS_ON_RUNTIME(c, "pool1d");
    }

    void adaptiveMaxPool()
    {
        // nn.AdaptiveMaxPool2d((2, 3), return_indices=True) on 4x6 (windows of 2x2): the values and the flat
        // indices into each 4x6 plane.
        Case c;
        c.in("x", { 1, 2, 4, 6 }, values(48, 26, 2.0));
        Values y, idx;
        for (std::size_t ch = 0; ch < 2; ++ch)
            for (std::size_t oy = 0; oy < 2; ++oy)
                for (std::size_t ox = 0; ox < 3; ++ox) {
                    double best = -INFINITY;
                    std::size_t at = 0;
                    for (std::size_t dy = 0; dy < 2; ++dy)
                        for (std::size_t dx = 0; dx < 2; ++dx) {
                            const std::size_t flat = (oy * 2 + dy) * 6 + ox * 2 + dx;
                            if (c.inputs[0].values[ch * 24 + flat] > best) {
                                best = c.inputs[0].values[ch * 24 + flat];
                                at = flat;
                            }
                        }
                    y.push_back(best);
                    idx.push_back(double(at));
                }
        c.dump.tupleNode("pool", "adaptive_max_pool2d.default",
            json::array({ arg("self", T("x")), arg("output_size", Ints({ 2, 3 })) }),
            { { "getitem", { 1, 2, 2, 3 } }, { "getitem_1", { 1, 2, 2, 3 } } }, kFloat, { kFloat, kLong });
        c.dump.output("getitem");
        c.dump.output("getitem_1");
        c.expect({ 1, 2, 2, 3 }, y).expect({ 1, 2, 2, 3 }, idx, kLong);
        QVERIFY_RUNS_ON_RUNTIME(c, "adaptive_max_pool2d");
    }

    void refusals_data()
    {
        QTest::addColumn<QString>("target");
        QTest::addColumn<json>("args");
        QTest::addColumn<Shape>("input");
        QTest::addColumn<Shape>("out");
        QTest::addColumn<bool>("dynamicSpatial");
        QTest::addColumn<int>("code");
        QTest::addColumn<QStringList>("phrases");
        const json x = arg("input", T("x"));
        QTest::newRow("grid_sampler of a 5-D input")
            << "grid_sampler.default"
            << json::array({ x, arg("grid", T("x")), arg("interpolation_mode", I(0)), arg("padding_mode", I(0)),
                   arg("align_corners", B(false)) })
            << Shape { 1, 1, 2, 2, 3 } << Shape { 1, 1, 1, 2, 2 } << false << int(ErrorCode::Unsupported)
            << QStringList { "grid_sampler", "grid_sampler_3d" };
        QTest::newRow("adaptive_max_pool2d to a size that does not divide")
            << "adaptive_max_pool2d.default" << json::array({ arg("self", T("x")), arg("output_size", Ints({ 3, 3 })) })
            << Shape { 1, 1, 5, 6 } << Shape { 1, 1, 3, 3 } << false << int(ErrorCode::Unsupported)
            << QStringList { "adaptive_max_pool2d", "only output sizes that divide the input" };
        QTest::newRow("nearest-exact of a dynamic spatial dimension")
            << "_upsample_nearest_exact1d.vec"
            << json::array({ x, arg("output_size", None()), arg("scale_factors", Floats({ 2.0 })) })
            << Shape { 1, 2, 6 } << Shape { 1, 2, 12 } << true << int(ErrorCode::Unsupported)
            << QStringList { "_upsample_nearest_exact1d", "dynamic spatial dimension" };
        QTest::newRow("both output_size and scale_factors")
            << "upsample_linear1d.vec"
            << json::array({ x, arg("output_size", Ints({ 8 })), arg("align_corners", B(false)),
                   arg("scale_factors", Floats({ 2.0 })) })
            << Shape { 1, 2, 4 } << Shape { 1, 2, 8 } << false << int(ErrorCode::InvalidInput)
            << QStringList { "upsample_linear1d", "exactly one of output_size and scale_factors" };
    }

    void refusals()
    {
        // What the runtime cannot run is refused at emission, naming the node and why.
        QFETCH(QString, target);
        QFETCH(json, args);
        QFETCH(Shape, input);
        QFETCH(Shape, out);
        QFETCH(bool, dynamicSpatial);
        QFETCH(int, code);
        QFETCH(QStringList, phrases);
        Dump dump;
        dump.input("x", input);
        dump.node("y", target.toStdString(), args, out);
        dump.output("y");
        if (dynamicSpatial) {
            dump.dynamic("x", input.size() - 1, "s0", input.back());
        }
        auto ep = dump.build("refusal");
        QVERIFY_RESULT(ep);
        auto emitted = emitProgram({ { "forward", std::shared_ptr<const ExportedProgram>(std::move(*ep)) } });
        std::vector<std::string> needles { "'y'" };
        for (const auto& p : phrases)
            needles.push_back(p.toStdString());
        QVERIFY_ERROR(emitted, ErrorCode(code), needles);
    }
};

QTEST_GUILESS_MAIN(TestLoweringResampling)
#include "tst_lowering_resampling.moc"
