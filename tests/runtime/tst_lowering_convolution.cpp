// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// Convolutions and padding as torch.export's training IR writes them (conv1d/2d/3d with int or 'same'/'valid'
// padding, conv_transpose1d/2d, pad in every mode, constant_pad_nd with negative pads, the reflection / replication
// pad nodes), emitted by ptelens and run on ExecuTorch's runtime. Expected values come from the definitions
// (convolution sums over the kernel window, padding by index arithmetic), computed here.
#include "dumpbuilder.h"
#include "errorcheck.h"
#include "etrunner.h"
#include "executiontestutils.h"
#include "runtimecase.h"
#include "testutils.h"

#include <QTest>

#include <algorithm>
#include <cmath>
#include <functional>
#include <numeric>

using namespace pte;
using namespace pte::test;
using nlohmann::json;

namespace {

using Shape = std::vector<std::int64_t>;
using Values = std::vector<double>;

std::int64_t numel(const Shape& s) { return std::accumulate(s.begin(), s.end(), std::int64_t(1), std::multiplies<>()); }

/** Convolution options; the spatial lists have one value per spatial dimension. */
struct Conv
{
    Shape stride;
    Shape padding;
    Shape dilation;
    std::int64_t groups = 1;
    bool transposed = false;
    Shape outputPadding;
};

/**
 * N-D convolution (1 to 3 spatial dimensions) of a batched input by its definition:
 * out[n][o][p] = bias[o] + sum over c in o's group, k of x[n][c][p * stride - padding + k * dilation] * w[o][c][k];
 * transposed: every input element scatters x[n][c][i] * w[c][o][k] to out[n][g * O/g + o][i * stride - padding +
 * k * dilation]. Sums in double.
 */
Values convolve(
    const Values& x, const Shape& xs, const Values& w, const Shape& ws, const Values& bias, const Conv& p, Shape& out)
{
    const std::size_t n = xs.size() - 2;
    // Pad the problem to 3 spatial dimensions of size 1.
    auto at3 = [&](const Shape& s, std::int64_t fill) {
        Shape r(3 - n, fill);
        r.insert(r.end(), s.begin(), s.end());
        return r;
    };
    const Shape in3 = at3(Shape(xs.begin() + 2, xs.end()), 1);
    const Shape k3 = at3(Shape(ws.begin() + 2, ws.end()), 1);
    const Shape st = at3(p.stride, 1), pd = at3(p.padding, 0), dl = at3(p.dilation, 1);
    const Shape op = at3(p.outputPadding.empty() ? Shape(n, 0) : p.outputPadding, 0);
    const std::int64_t N = xs[0], C = xs[1];
    const std::int64_t O = p.transposed ? ws[1] * p.groups : ws[0];
    Shape o3(3);
    for (int d = 0; d < 3; ++d)
        o3[std::size_t(d)] = p.transposed
            ? (in3[std::size_t(d)] - 1) * st[std::size_t(d)] - 2 * pd[std::size_t(d)]
                + dl[std::size_t(d)] * (k3[std::size_t(d)] - 1) + op[std::size_t(d)] + 1
            : (in3[std::size_t(d)] + 2 * pd[std::size_t(d)] - dl[std::size_t(d)] * (k3[std::size_t(d)] - 1) - 1)
                    / st[std::size_t(d)]
                + 1;
    out = { N, O };
    out.insert(out.end(), o3.begin() + std::ptrdiff_t(3 - n), o3.end());
    Values y(std::size_t(numel(out)), 0.0);
    auto xAt = [&](std::int64_t b, std::int64_t c, std::int64_t i0, std::int64_t i1, std::int64_t i2) {
        return x[std::size_t((((b * C + c) * in3[0] + i0) * in3[1] + i1) * in3[2] + i2)];
    };
    auto wAt = [&](std::int64_t a, std::int64_t c, std::int64_t i0, std::int64_t i1, std::int64_t i2) {
        return w[std::size_t((((a * ws[1] + c) * k3[0] + i0) * k3[1] + i1) * k3[2] + i2)];
    };
    auto yAt = [&](std::int64_t b, std::int64_t o, std::int64_t i0, std::int64_t i1, std::int64_t i2) -> double& {
        return y[std::size_t((((b * O + o) * o3[0] + i0) * o3[1] + i1) * o3[2] + i2)];
    };
    for (std::int64_t b = 0; b < N; ++b)
        for (std::int64_t o = 0; o < O; ++o)
            for (std::int64_t a0 = 0; a0 < o3[0]; ++a0)
                for (std::int64_t a1 = 0; a1 < o3[1]; ++a1)
                    for (std::int64_t a2 = 0; a2 < o3[2]; ++a2)
                        yAt(b, o, a0, a1, a2) = bias.empty() ? 0.0 : bias[std::size_t(o)];
    if (!p.transposed) {
        const std::int64_t cg = ws[1];
        const std::int64_t og = O / p.groups;
        for (std::int64_t b = 0; b < N; ++b)
            for (std::int64_t o = 0; o < O; ++o)
                for (std::int64_t a0 = 0; a0 < o3[0]; ++a0)
                    for (std::int64_t a1 = 0; a1 < o3[1]; ++a1)
                        for (std::int64_t a2 = 0; a2 < o3[2]; ++a2) {
                            double acc = 0;
                            for (std::int64_t c = 0; c < cg; ++c)
                                for (std::int64_t k0 = 0; k0 < k3[0]; ++k0)
                                    for (std::int64_t k1 = 0; k1 < k3[1]; ++k1)
                                        for (std::int64_t k2 = 0; k2 < k3[2]; ++k2) {
                                            const std::int64_t i0 = a0 * st[0] - pd[0] + k0 * dl[0];
                                            const std::int64_t i1 = a1 * st[1] - pd[1] + k1 * dl[1];
                                            const std::int64_t i2 = a2 * st[2] - pd[2] + k2 * dl[2];
                                            if (i0 < 0 || i0 >= in3[0] || i1 < 0 || i1 >= in3[1] || i2 < 0
                                                || i2 >= in3[2])
                                                continue;
                                            acc += xAt(b, (o / og) * cg + c, i0, i1, i2) * wAt(o, c, k0, k1, k2);
                                        }
                            yAt(b, o, a0, a1, a2) += acc;
                        }
        return y;
    }
    const std::int64_t cg = C / p.groups; // input channels per group
    const std::int64_t og = ws[1]; // output channels per group
    for (std::int64_t b = 0; b < N; ++b)
        for (std::int64_t c = 0; c < C; ++c)
            for (std::int64_t i0 = 0; i0 < in3[0]; ++i0)
                for (std::int64_t i1 = 0; i1 < in3[1]; ++i1)
                    for (std::int64_t i2 = 0; i2 < in3[2]; ++i2)
                        for (std::int64_t o = 0; o < og; ++o)
                            for (std::int64_t k0 = 0; k0 < k3[0]; ++k0)
                                for (std::int64_t k1 = 0; k1 < k3[1]; ++k1)
                                    for (std::int64_t k2 = 0; k2 < k3[2]; ++k2) {
                                        const std::int64_t a0 = i0 * st[0] - pd[0] + k0 * dl[0];
                                        const std::int64_t a1 = i1 * st[1] - pd[1] + k1 * dl[1];
                                        const std::int64_t a2 = i2 * st[2] - pd[2] + k2 * dl[2];
                                        if (a0 < 0 || a0 >= o3[0] || a1 < 0 || a1 >= o3[1] || a2 < 0 || a2 >= o3[2])
                                            continue;
                                        yAt(b, (c / cg) * og + o, a0, a1, a2) +=
                                            xAt(b, c, i0, i1, i2) * wAt(c, o, k0, k1, k2);
                                    }
    return y;
}

/** x padded along its last pad.size() / 2 dimensions (pairs from the last dimension): each output element reads the
 *  input at the index `source(i, size, lo, hi)` returns (-1: the constant `fill`). Negative pads crop. */
using Source = std::int64_t (*)(std::int64_t, std::int64_t, std::int64_t, std::int64_t);
Values padBy(const Values& x, const Shape& xs, const Shape& pad, Shape& out, Source source, double fill = 0.0)
{
    const std::size_t r = xs.size();
    out = xs;
    for (std::size_t k = 0; k < pad.size() / 2; ++k)
        out[r - 1 - k] += pad[2 * k] + pad[2 * k + 1];
    Values y(std::size_t(numel(out)));
    Shape idx(r, 0);
    for (std::int64_t e = 0; e < numel(out); ++e) {
        std::int64_t rem = e;
        for (std::size_t d = r; d-- > 0;) {
            idx[d] = rem % out[d];
            rem /= out[d];
        }
        std::int64_t flat = 0;
        bool inside = true;
        for (std::size_t d = 0; d < r; ++d) {
            std::int64_t i = idx[d];
            const std::size_t k = r - 1 - d;
            if (k < pad.size() / 2) {
                i = source(i, xs[d], pad[2 * k], pad[2 * k + 1]);
                if (i < 0)
                    inside = false;
            }
            flat = flat * xs[d] + std::max<std::int64_t>(i, 0);
        }
        y[std::size_t(e)] = inside ? x[std::size_t(flat)] : fill;
    }
    return y;
}

std::int64_t constantSource(std::int64_t i, std::int64_t size, std::int64_t lo, std::int64_t)
{
    const std::int64_t s = i - lo;
    return s >= 0 && s < size ? s : -1;
}
std::int64_t reflectSource(std::int64_t i, std::int64_t size, std::int64_t lo, std::int64_t)
{
    std::int64_t s = i - lo;
    if (s < 0)
        s = -s;
    if (s >= size)
        s = 2 * (size - 1) - s;
    return s;
}
std::int64_t replicateSource(std::int64_t i, std::int64_t size, std::int64_t lo, std::int64_t)
{
    return std::clamp<std::int64_t>(i - lo, 0, size - 1);
}
/** Circular padding as ATen's _pad_circular: the input cropped by the negative pads, then wrapped around. */
std::int64_t circularSource(std::int64_t i, std::int64_t size, std::int64_t lo, std::int64_t hi)
{
    const std::int64_t len = size + std::min<std::int64_t>(lo, 0) + std::min<std::int64_t>(hi, 0);
    return (((i - std::max<std::int64_t>(lo, 0)) % len) + len) % len + std::max<std::int64_t>(-lo, 0);
}

double gelu(double v) { return 0.5 * v * (1.0 + std::erf(v / std::sqrt(2.0))); }

/** The node arguments of a convolution's int lists, omitted when at their default (as torch.export writes them). */
void listArg(json& args, const char* name, const Shape& v, std::int64_t dflt)
{
    if (std::any_of(v.begin(), v.end(), [&](std::int64_t e) { return e != dflt; }))
        args.push_back(arg(name, Ints(v)));
}

} // namespace

Q_DECLARE_METATYPE(json)

class TestLoweringConvolution : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void convolutions_data()
    {
        QTest::addColumn<QString>("target");
        QTest::addColumn<Shape>("input");
        QTest::addColumn<Shape>("weight");
        QTest::addColumn<Shape>("stride");
        QTest::addColumn<Shape>("padding");
        QTest::addColumn<Shape>("dilation");
        QTest::addColumn<int>("groups");
        QTest::addColumn<bool>("bias");
        // target, input, weight, stride, padding, dilation, groups, bias
        QTest::newRow("conv1d stride 2 padding 1 bias") << "conv1d.default" << Shape { 2, 4, 11 } << Shape { 6, 4, 3 }
                                                        << Shape { 2 } << Shape { 1 } << Shape { 1 } << 1 << true;
        QTest::newRow("conv1d dilation 2 groups 2 no bias")
            << "conv1d.default" << Shape { 1, 4, 12 } << Shape { 6, 2, 3 } << Shape { 1 } << Shape { 0 } << Shape { 2 }
            << 2 << false;
        QTest::newRow("conv1d depthwise (groups = channels)")
            << "conv1d.default" << Shape { 1, 8, 10 } << Shape { 8, 1, 5 } << Shape { 1 } << Shape { 2 } << Shape { 1 }
            << 8 << true;
        QTest::newRow("conv1d unbatched") << "conv1d.default" << Shape { 3, 9 } << Shape { 5, 3, 3 } << Shape { 1 }
                                          << Shape { 1 } << Shape { 1 } << 1 << true;
        QTest::newRow("conv2d stride 2 padding 1 groups 2 bias")
            << "conv2d.default" << Shape { 1, 4, 7, 6 } << Shape { 6, 2, 3, 3 } << Shape { 2, 2 } << Shape { 1, 1 }
            << Shape { 1, 1 } << 2 << true;
        QTest::newRow("conv2d dilation 2, stride (1, 2), no bias")
            << "conv2d.default" << Shape { 2, 3, 9, 9 } << Shape { 4, 3, 3, 3 } << Shape { 1, 2 } << Shape { 2, 0 }
            << Shape { 2, 2 } << 1 << false;
        QTest::newRow("conv2d depthwise 3x3 (MobileNet block)")
            << "conv2d.default" << Shape { 1, 6, 8, 8 } << Shape { 6, 1, 3, 3 } << Shape { 1, 1 } << Shape { 1, 1 }
            << Shape { 1, 1 } << 6 << true;
        QTest::newRow("conv2d pointwise 1x1, all defaults")
            << "conv2d.default" << Shape { 1, 8, 4, 4 } << Shape { 4, 8, 1, 1 } << Shape { 1, 1 } << Shape { 0, 0 }
            << Shape { 1, 1 } << 1 << false;
        QTest::newRow("conv2d unbatched") << "conv2d.default" << Shape { 3, 6, 5 } << Shape { 2, 3, 3, 3 }
                                          << Shape { 1, 1 } << Shape { 1, 1 } << Shape { 1, 1 } << 1 << true;
        QTest::newRow("conv3d stride 2 padding 1 bias")
            << "conv3d.default" << Shape { 1, 2, 5, 6, 6 } << Shape { 4, 2, 3, 3, 3 } << Shape { 2, 2, 2 }
            << Shape { 1, 1, 1 } << Shape { 1, 1, 1 } << 1 << true;
        QTest::newRow("conv3d groups 2 dilation (1, 2, 1) no bias")
            << "conv3d.default" << Shape { 1, 4, 4, 7, 5 } << Shape { 2, 2, 2, 3, 3 } << Shape { 1, 1, 1 }
            << Shape { 0, 1, 1 } << Shape { 1, 2, 1 } << 2 << false;
    }

    void convolutions()
    {
        QFETCH(QString, target);
        QFETCH(Shape, input);
        QFETCH(Shape, weight);
        QFETCH(Shape, stride);
        QFETCH(Shape, padding);
        QFETCH(Shape, dilation);
        QFETCH(int, groups);
        QFETCH(bool, bias);
        const bool unbatched = input.size() + 1 == weight.size();
        Case c;
        c.in("x", input, values(std::size_t(numel(input)), 11, 2.0));
        const auto w = values(std::size_t(numel(weight)), 12);
        const auto b = bias ? values(std::size_t(weight[0]), 13) : Values {};
        c.dump.weight("p_weight", "conv.weight", weight, w);
        json args = json::array({ arg("input", T("x")), arg("weight", T("p_weight")) });
        if (bias) {
            c.dump.weight("p_bias", "conv.bias", { weight[0] }, b);
            args.push_back(arg("bias", T("p_bias")));
        }
        listArg(args, "stride", stride, 1);
        listArg(args, "padding", padding, 0);
        listArg(args, "dilation", dilation, 1);
        if (groups != 1)
            args.push_back(arg("groups", I(groups)));
        Shape xs = input;
        if (unbatched)
            xs.insert(xs.begin(), 1);
        Shape out;
        auto y = convolve(c.inputs[0].values, xs, w, weight, b, { stride, padding, dilation, groups }, out);
        if (unbatched)
            out.erase(out.begin());
        c.op("conv", target.toStdString(), args, out, y);
        QVERIFY_RUNS_ON_RUNTIME(c, "conv_" + target.toStdString());
    }

    void paddingStrings_data()
    {
        QTest::addColumn<QString>("target");
        QTest::addColumn<QString>("mode");
        QTest::addColumn<Shape>("input");
        QTest::addColumn<Shape>("weight");
        QTest::addColumn<Shape>("dilation");
        // 'same': total padding d (k - 1) per dimension; odd totals put the extra element on the right.
        QTest::newRow("conv1d same, k 3 (symmetric)")
            << "conv1d.padding"
            << "same" << Shape { 1, 2, 9 } << Shape { 3, 2, 3 } << Shape { 1 };
        QTest::newRow("conv1d same, k 4 (odd total)")
            << "conv1d.padding"
            << "same" << Shape { 2, 2, 9 } << Shape { 3, 2, 4 } << Shape { 1 };
        QTest::newRow("conv1d same, k 4 dilation 2 (even total)")
            << "conv1d.padding"
            << "same" << Shape { 1, 2, 10 } << Shape { 2, 2, 4 } << Shape { 2 };
        QTest::newRow("conv2d same, k (2, 3) dilation (1, 2)")
            << "conv2d.padding"
            << "same" << Shape { 1, 3, 6, 7 } << Shape { 4, 3, 2, 3 } << Shape { 1, 2 };
        QTest::newRow("conv2d same, unbatched k (4, 4)")
            << "conv2d.padding"
            << "same" << Shape { 2, 5, 5 } << Shape { 2, 2, 4, 4 } << Shape { 1, 1 };
        QTest::newRow("conv2d valid") << "conv2d.padding"
                                      << "valid" << Shape { 1, 2, 6, 5 } << Shape { 3, 2, 3, 2 } << Shape { 1, 1 };
        QTest::newRow("conv3d same, k (2, 3, 2)")
            << "conv3d.padding"
            << "same" << Shape { 1, 2, 4, 5, 4 } << Shape { 2, 2, 2, 3, 2 } << Shape { 1, 1, 1 };
    }

    void paddingStrings()
    {
        // Conv2d(padding='same') as torch.export writes it: conv2d.padding(x, w, b, padding='same'); 'valid' is the
        // schema's default and is omitted.
        QFETCH(QString, target);
        QFETCH(QString, mode);
        QFETCH(Shape, input);
        QFETCH(Shape, weight);
        QFETCH(Shape, dilation);
        const std::size_t n = weight.size() - 2;
        const bool unbatched = input.size() == n + 1;
        Case c;
        c.in("x", input, values(std::size_t(numel(input)), 21, 2.0));
        const auto w = values(std::size_t(numel(weight)), 22);
        const auto b = values(std::size_t(weight[0]), 23);
        c.dump.weight("p_weight", "conv.weight", weight, w);
        c.dump.weight("p_bias", "conv.bias", { weight[0] }, b);
        json args = json::array({ arg("input", T("x")), arg("weight", T("p_weight")), arg("bias", T("p_bias")) });
        if (mode == "same")
            args.push_back(arg("padding", S("same")));
        listArg(args, "dilation", dilation, 1);
        Shape xs = input;
        if (unbatched)
            xs.insert(xs.begin(), 1);
        // 'same' by its definition: zero-pad the input by (total / 2, total - total / 2), then a valid convolution.
        Values x = c.inputs[0].values;
        if (mode == "same") {
            Shape pad;
            for (std::size_t k = 0; k < n; ++k) {
                const std::int64_t total = dilation[n - 1 - k] * (weight[weight.size() - 1 - k] - 1);
                pad.push_back(total / 2);
                pad.push_back(total - total / 2);
            }
            Shape padded;
            x = padBy(x, xs, pad, padded, constantSource);
            xs = padded;
        }
        Shape out;
        auto y = convolve(x, xs, w, weight, b, { Shape(n, 1), Shape(n, 0), dilation, 1 }, out);
        if (unbatched)
            out.erase(out.begin());
        if (mode == "same")
            for (std::size_t k = 0; k < n; ++k)
                QCOMPARE(out[out.size() - 1 - k], input[input.size() - 1 - k]);
        c.op("conv", target.toStdString(), args, out, y);
        QVERIFY_RUNS_ON_RUNTIME(c, "conv_padding_" + mode.toStdString());
    }

    void transposedConvolutions_data()
    {
        QTest::addColumn<QString>("target");
        QTest::addColumn<Shape>("input");
        QTest::addColumn<Shape>("weight");
        QTest::addColumn<Shape>("stride");
        QTest::addColumn<Shape>("padding");
        QTest::addColumn<Shape>("outputPadding");
        QTest::addColumn<Shape>("dilation");
        QTest::addColumn<int>("groups");
        QTest::addColumn<bool>("bias");
        // U-Net up block: ConvTranspose2d(16, 8, kernel_size=2, stride=2).
        QTest::newRow("conv_transpose2d U-Net up block (16 -> 8, k 2, stride 2)")
            << "conv_transpose2d.input" << Shape { 1, 16, 4, 5 } << Shape { 16, 8, 2, 2 } << Shape { 2, 2 }
            << Shape { 0, 0 } << Shape { 0, 0 } << Shape { 1, 1 } << 1 << true;
        QTest::newRow("conv_transpose2d stride 2 padding 1 output_padding 1")
            << "conv_transpose2d.input" << Shape { 2, 3, 3, 4 } << Shape { 3, 2, 3, 3 } << Shape { 2, 2 }
            << Shape { 1, 1 } << Shape { 1, 1 } << Shape { 1, 1 } << 1 << false;
        QTest::newRow("conv_transpose2d groups 2 dilation 2 output_padding (1, 0)")
            << "conv_transpose2d.input" << Shape { 1, 4, 3, 3 } << Shape { 4, 3, 3, 2 } << Shape { 2, 3 }
            << Shape { 1, 0 } << Shape { 1, 0 } << Shape { 2, 2 } << 2 << true;
        QTest::newRow("conv_transpose1d stride 2 output_padding 1")
            << "conv_transpose1d.default" << Shape { 2, 4, 6 } << Shape { 4, 3, 4 } << Shape { 2 } << Shape { 1 }
            << Shape { 1 } << Shape { 1 } << 1 << true;
        QTest::newRow("conv_transpose1d groups 2 dilation 3 stride 3")
            << "conv_transpose1d.default" << Shape { 1, 4, 5 } << Shape { 4, 2, 3 } << Shape { 3 } << Shape { 2 }
            << Shape { 2 } << Shape { 3 } << 2 << false;
        QTest::newRow("conv_transpose1d unbatched")
            << "conv_transpose1d.default" << Shape { 3, 5 } << Shape { 3, 2, 3 } << Shape { 2 } << Shape { 0 }
            << Shape { 0 } << Shape { 1 } << 1 << true;
        // ConvTranspose3d (3-D U-Net decoders): a sum over depth taps of transposed 2-D convolutions.
        QTest::newRow("conv_transpose3d stride 2 (3-D U-Net up block)")
            << "conv_transpose3d.input" << Shape { 1, 4, 2, 3, 3 } << Shape { 4, 2, 2, 2, 2 } << Shape { 2, 2, 2 }
            << Shape { 0, 0, 0 } << Shape { 0, 0, 0 } << Shape { 1, 1, 1 } << 1 << true;
        QTest::newRow("conv_transpose3d stride 2 padding 1 output_padding 1 groups 2 dilation (2, 1, 1)")
            << "conv_transpose3d.input" << Shape { 2, 4, 3, 2, 3 } << Shape { 4, 3, 3, 3, 2 } << Shape { 2, 2, 1 }
            << Shape { 1, 1, 0 } << Shape { 1, 1, 0 } << Shape { 2, 1, 1 } << 2 << true;
        QTest::newRow("conv_transpose3d output_padding beyond padding")
            << "conv_transpose3d.input" << Shape { 1, 2, 2, 2, 2 } << Shape { 2, 2, 3, 1, 1 } << Shape { 3, 1, 1 }
            << Shape { 0, 0, 0 } << Shape { 2, 0, 0 } << Shape { 1, 1, 1 } << 1 << false;
    }

    void transposedConvolutions()
    {
        // F.conv_transpose2d(input, weight, bias, stride, padding, output_padding, groups, dilation): note the
        // argument order (output_padding and groups before dilation).
        QFETCH(QString, target);
        QFETCH(Shape, input);
        QFETCH(Shape, weight);
        QFETCH(Shape, stride);
        QFETCH(Shape, padding);
        QFETCH(Shape, outputPadding);
        QFETCH(Shape, dilation);
        QFETCH(int, groups);
        QFETCH(bool, bias);
        const bool unbatched = input.size() + 1 == weight.size();
        Case c;
        c.in("x", input, values(std::size_t(numel(input)), 31, 2.0));
        const auto w = values(std::size_t(numel(weight)), 32);
        const std::int64_t outChannels = weight[1] * groups;
        const auto b = bias ? values(std::size_t(outChannels), 33) : Values {};
        c.dump.weight("p_weight", "up.weight", weight, w);
        json args = json::array({ arg("input", T("x")), arg("weight", T("p_weight")) });
        if (bias) {
            c.dump.weight("p_bias", "up.bias", { outChannels }, b);
            args.push_back(arg("bias", T("p_bias")));
        }
        listArg(args, "stride", stride, 1);
        listArg(args, "padding", padding, 0);
        listArg(args, "output_padding", outputPadding, 0);
        if (groups != 1)
            args.push_back(arg("groups", I(groups)));
        listArg(args, "dilation", dilation, 1);
        Shape xs = input;
        if (unbatched)
            xs.insert(xs.begin(), 1);
        Shape out;
        auto y = convolve(
            c.inputs[0].values, xs, w, weight, b, { stride, padding, dilation, groups, true, outputPadding }, out);
        if (unbatched)
            out.erase(out.begin());
        c.op("up", target.toStdString(), args, out, y);
        QVERIFY_RUNS_ON_RUNTIME(c, "conv_transpose");
    }

    void convolutionNodes_data()
    {
        QTest::addColumn<bool>("transposed");
        QTest::addColumn<bool>("underscore");
        QTest::newRow("convolution 5-D") << false << false;
        QTest::newRow("convolution 5-D transposed") << true << false;
        QTest::newRow("_convolution 5-D") << false << true;
        QTest::newRow("_convolution 5-D transposed") << true << true;
    }

    void convolutionNodes()
    {
        // aten.convolution / aten._convolution nodes of a 5-D input (graphs already decomposed by torch): the
        // runtime's kernel has no 3-D convolution, so they are lowered as conv3d / conv_transpose3d are.
        QFETCH(bool, transposed);
        QFETCH(bool, underscore);
        const Shape xs { 1, 2, 3, 4, 3 };
        const Shape ws = transposed ? Shape { 2, 3, 2, 3, 2 } : Shape { 3, 2, 2, 3, 2 };
        const Shape stride { 2, 1, 2 }, padding { 1, 1, 0 }, dilation { 1, 1, 1 };
        const Shape outputPadding = transposed ? Shape { 1, 0, 1 } : Shape { 0, 0, 0 };
        Case c;
        c.in("x", xs, values(std::size_t(numel(xs)), 91, 2.0));
        const auto w = values(std::size_t(numel(ws)), 92);
        const auto b = values(3, 93);
        c.dump.weight("p_weight", "conv.weight", ws, w);
        c.dump.weight("p_bias", "conv.bias", { 3 }, b);
        json args = json::array({ arg("input", T("x")), arg("weight", T("p_weight")), arg("bias", T("p_bias")),
            arg("stride", Ints(stride)), arg("padding", Ints(padding)), arg("dilation", Ints(dilation)),
            arg("transposed", B(transposed)), arg("output_padding", Ints(outputPadding)), arg("groups", I(1)) });
        if (underscore)
            for (const char* hint : { "benchmark", "deterministic", "cudnn_enabled", "allow_tf32" })
                args.push_back(arg(hint, B(false)));
        Shape out;
        const auto y = convolve(
            c.inputs[0].values, xs, w, ws, b, { stride, padding, dilation, 1, transposed, outputPadding }, out);
        c.op("conv", underscore ? "_convolution.default" : "convolution.default", args, out, y);
        QVERIFY_RUNS_ON_RUNTIME(c, "convolution_node_5d");
    }

    void audioFeatureExtractor()
    {
        // A wav2vec2-style feature extractor: Conv1d(1, 16, 10, stride 5, bias=False) -> GroupNorm(16, 16) -> GELU
        // -> Conv1d(16, 16, 3, stride 2, bias=False) -> GELU on 400 samples of two clips. GroupNorm is written as
        // the native_group_norm it becomes (group_norm belongs to the normalization family's lowering).
        Case c;
        const Shape xs { 2, 1, 400 };
        c.in("input_values", xs, values(400 * 2, 41, 1.0));
        const Shape w0s { 16, 1, 10 }, w1s { 16, 16, 3 };
        const auto w0 = values(160, 42, 0.5);
        const auto w1 = values(768, 43, 0.25);
        Values gamma(16), beta(16);
        for (std::size_t k = 0; k < 16; ++k) {
            gamma[k] = f32(1.0 + 0.05 * double(k));
            beta[k] = f32(0.02 * double(k) - 0.1);
        }
        c.dump.weight("p_conv0_weight", "conv_layers.0.conv.weight", w0s, w0);
        c.dump.weight("p_norm_weight", "conv_layers.0.layer_norm.weight", { 16 }, gamma);
        c.dump.weight("p_norm_bias", "conv_layers.0.layer_norm.bias", { 16 }, beta);
        c.dump.weight("p_conv1_weight", "conv_layers.1.conv.weight", w1s, w1);
        c.dump.node("conv1d", "conv1d.default",
            json::array(
                { arg("input", T("input_values")), arg("weight", T("p_conv0_weight")), arg("stride", Ints({ 5 })) }),
            { 2, 16, 79 });
        c.dump.tupleNode("native_group_norm", "native_group_norm.default",
            json::array({ arg("input", T("conv1d")), arg("weight", T("p_norm_weight")), arg("bias", T("p_norm_bias")),
                arg("N", I(2)), arg("C", I(16)), arg("HxW", I(79)), arg("group", I(16)), arg("eps", F(1e-5)) }),
            { { "getitem", { 2, 16, 79 } }, { "getitem_1", { 2, 16 } }, { "getitem_2", { 2, 16 } } });
        c.dump.node("gelu", "gelu.default", json::array({ arg("self", T("getitem")) }), { 2, 16, 79 });
        c.dump.node("conv1d_1", "conv1d.default",
            json::array({ arg("input", T("gelu")), arg("weight", T("p_conv1_weight")), arg("stride", Ints({ 2 })) }),
            { 2, 16, 39 });
        c.dump.node("gelu_1", "gelu.default", json::array({ arg("self", T("conv1d_1")) }), { 2, 16, 39 });
        c.dump.output("gelu_1");
        Shape s0, s1;
        auto h = convolve(c.inputs[0].values, xs, w0, w0s, {}, { { 5 }, { 0 }, { 1 } }, s0);
        QCOMPARE(s0, (Shape { 2, 16, 79 }));
        for (std::size_t n = 0; n < 2; ++n)
            for (std::size_t ch = 0; ch < 16; ++ch) {
                double mean = 0, var = 0;
                for (std::size_t t = 0; t < 79; ++t)
                    mean += h[(n * 16 + ch) * 79 + t];
                mean /= 79;
                for (std::size_t t = 0; t < 79; ++t)
                    var += std::pow(h[(n * 16 + ch) * 79 + t] - mean, 2);
                var /= 79;
                for (std::size_t t = 0; t < 79; ++t) {
                    double& v = h[(n * 16 + ch) * 79 + t];
                    v = gelu((v - mean) / std::sqrt(var + 1e-5) * gamma[ch] + beta[ch]);
                }
            }
        auto y = convolve(h, s0, w1, w1s, {}, { { 2 }, { 0 }, { 1 } }, s1);
        QCOMPARE(s1, (Shape { 2, 16, 39 }));
        for (auto& v : y)
            v = gelu(v);
        c.expect(s1, y);
        QVERIFY_RUNS_ON_RUNTIME(c, "conv_audio_stack");
    }

    void dynamicBatch()
    {
        // A dynamic batch (s0 <= 3) through reflect padding, a strided conv2d and a conv_transpose2d, run at the
        // upper bound: the kernels resize their outputs within the planned bound.
        Case c;
        const Shape xs { 3, 2, 6, 6 };
        c.in("x", xs, values(std::size_t(numel(xs)), 51, 2.0));
        const Shape ws { 4, 2, 3, 3 }, ts { 4, 4, 2, 2 };
        const auto w = values(std::size_t(numel(ws)), 52);
        const auto t = values(std::size_t(numel(ts)), 53);
        const auto b = values(4, 54);
        c.dump.weight("p_conv_weight", "conv.weight", ws, w);
        c.dump.weight("p_conv_bias", "conv.bias", { 4 }, b);
        c.dump.weight("p_up_weight", "up.weight", ts, t);
        c.dump.node("pad", "pad.default",
            json::array({ arg("self", T("x")), arg("pad", Ints({ 1, 1, 1, 1 })), arg("mode", S("reflect")) }),
            { 3, 2, 8, 8 });
        c.dump.node("conv2d", "conv2d.default",
            json::array({ arg("input", T("pad")), arg("weight", T("p_conv_weight")), arg("bias", T("p_conv_bias")),
                arg("stride", Ints({ 2, 2 })) }),
            { 3, 4, 3, 3 });
        c.dump.node("conv_transpose2d", "conv_transpose2d.input",
            json::array({ arg("input", T("conv2d")), arg("weight", T("p_up_weight")), arg("stride", Ints({ 2, 2 })) }),
            { 3, 4, 6, 6 });
        c.dump.output("conv_transpose2d");
        for (const char* name : { "x", "pad", "conv2d", "conv_transpose2d" })
            c.dump.dynamic(name, 0, "s0", 3);
        Shape ps, s1, s2;
        const auto padded = padBy(c.inputs[0].values, xs, { 1, 1, 1, 1 }, ps, reflectSource);
        const auto h = convolve(padded, ps, w, ws, b, { { 2, 2 }, { 0, 0 }, { 1, 1 } }, s1);
        const auto y = convolve(h, s1, t, ts, {}, { { 2, 2 }, { 0, 0 }, { 1, 1 }, 1, true, { 0, 0 } }, s2);
        c.expect(s2, y);
        QVERIFY_RUNS_ON_RUNTIME(c, "conv_dynamic_batch");
    }

    void dynamicBatchVolumetric()
    {
        // Conv3d(2, 3, 3, padding=1) -> ConvTranspose3d(3, 2, 2, stride=2) on a dynamic batch (s0 <= 3), run at the
        // upper bound: the depth folded into the batch takes s0 * D at run time (executorch_prim::mul).
        Case c;
        const Shape xs { 3, 2, 2, 3, 3 }, ws { 3, 2, 3, 3, 3 }, ts { 3, 2, 2, 2, 2 };
        c.in("x", xs, values(std::size_t(numel(xs)), 55, 2.0));
        const auto w = values(std::size_t(numel(ws)), 56);
        const auto b = values(3, 57);
        const auto t = values(std::size_t(numel(ts)), 58);
        const auto tb = values(2, 59);
        c.dump.weight("p_conv_weight", "conv.weight", ws, w);
        c.dump.weight("p_conv_bias", "conv.bias", { 3 }, b);
        c.dump.weight("p_up_weight", "up.weight", ts, t);
        c.dump.weight("p_up_bias", "up.bias", { 2 }, tb);
        c.dump.node("conv3d", "conv3d.default",
            json::array({ arg("input", T("x")), arg("weight", T("p_conv_weight")), arg("bias", T("p_conv_bias")),
                arg("padding", Ints({ 1, 1, 1 })) }),
            { 3, 3, 2, 3, 3 });
        c.dump.node("conv_transpose3d", "conv_transpose3d.input",
            json::array({ arg("input", T("conv3d")), arg("weight", T("p_up_weight")), arg("bias", T("p_up_bias")),
                arg("stride", Ints({ 2, 2, 2 })) }),
            { 3, 2, 4, 6, 6 });
        c.dump.output("conv_transpose3d");
        for (const char* name : { "x", "conv3d", "conv_transpose3d" })
            c.dump.dynamic(name, 0, "s0", 3);
        Shape s1, s2;
        const auto h = convolve(c.inputs[0].values, xs, w, ws, b, { { 1, 1, 1 }, { 1, 1, 1 }, { 1, 1, 1 } }, s1);
        const auto y = convolve(h, s1, t, ts, tb, { { 2, 2, 2 }, { 0, 0, 0 }, { 1, 1, 1 }, 1, true, { 0, 0, 0 } }, s2);
        c.expect(s2, y);
        QVERIFY_RUNS_ON_RUNTIME(c, "conv3d_dynamic_batch");
    }

    void padModes_data()
    {
        QTest::addColumn<QString>("mode");
        QTest::addColumn<Shape>("input");
        QTest::addColumn<Shape>("pad");
        QTest::addColumn<double>("value");
        QTest::addColumn<bool>("withValue");
        QTest::newRow("constant 2-D value 0.5")
            << "constant" << Shape { 1, 2, 3, 4 } << Shape { 1, 2, 0, 1 } << 0.5 << true;
        QTest::newRow("constant default value, 3 dims")
            << "constant" << Shape { 2, 3, 2, 3 } << Shape { 1, 0, 2, 1, 1, 1 } << 0.0 << false;
        QTest::newRow("constant negative pads crop")
            << "constant" << Shape { 1, 2, 5, 6 } << Shape { -1, 2, 1, -2 } << -1.5 << true;
        QTest::newRow("constant all negative (only cropping)")
            << "constant" << Shape { 2, 7 } << Shape { -2, -1 } << 0.0 << false;
        QTest::newRow("ZeroPad2d (value 0.0 given)")
            << "constant" << Shape { 1, 3, 4, 4 } << Shape { 1, 1, 2, 0 } << 0.0 << true;
        QTest::newRow("reflect 1-D (batched)") << "reflect" << Shape { 2, 3, 6 } << Shape { 3, 2 } << 0.0 << false;
        QTest::newRow("reflect 1-D (unbatched)") << "reflect" << Shape { 3, 5 } << Shape { 2, 4 } << 0.0 << false;
        QTest::newRow("reflect 2-D") << "reflect" << Shape { 1, 2, 4, 5 } << Shape { 2, 1, 3, 1 } << 0.0 << false;
        QTest::newRow("reflect 2-D negative left pad")
            << "reflect" << Shape { 1, 2, 4, 5 } << Shape { -1, 3, 1, -2 } << 0.0 << false;
        QTest::newRow("reflect 3-D") << "reflect" << Shape { 1, 2, 3, 4, 4 } << Shape { 1, 2, 2, 1, 1, 1 } << 0.0
                                     << false;
        QTest::newRow("replicate 1-D") << "replicate" << Shape { 2, 2, 4 } << Shape { 3, 1 } << 0.0 << false;
        QTest::newRow("replicate 2-D") << "replicate" << Shape { 1, 2, 3, 4 } << Shape { 2, 2, 1, 3 } << 0.0 << false;
        QTest::newRow("replicate 3-D (unbatched)")
            << "replicate" << Shape { 2, 3, 3, 2 } << Shape { 1, 1, 0, 2, 2, 1 } << 0.0 << false;
        QTest::newRow("circular 1-D") << "circular" << Shape { 1, 2, 5 } << Shape { 2, 3 } << 0.0 << false;
        QTest::newRow("circular 2-D") << "circular" << Shape { 1, 2, 4, 5 } << Shape { 1, 2, 3, 1 } << 0.0 << false;
        QTest::newRow("circular 2-D negative pads")
            << "circular" << Shape { 2, 1, 5, 6 } << Shape { -1, 2, 2, -2 } << 0.0 << false;
        QTest::newRow("circular 3-D") << "circular" << Shape { 1, 1, 3, 3, 4 } << Shape { 1, 1, 1, 0, 0, 2 } << 0.0
                                      << false;
    }

    void padModes()
    {
        // F.pad(x, pad, mode, value) as aten.pad: mode 'constant' and value None are the schema's defaults
        // (omitted); nn.ZeroPad2d passes value=0.0 explicitly.
        QFETCH(QString, mode);
        QFETCH(Shape, input);
        QFETCH(Shape, pad);
        QFETCH(double, value);
        QFETCH(bool, withValue);
        Case c;
        c.in("x", input, values(std::size_t(numel(input)), 61, 3.0));
        json args = json::array({ arg("self", T("x")), arg("pad", Ints(pad)) });
        if (mode != "constant")
            args.push_back(arg("mode", S(mode.toStdString())));
        if (withValue)
            args.push_back(arg("value", F(value)));
        const auto source = mode == "constant" ? constantSource
            : mode == "reflect"                ? reflectSource
            : mode == "replicate"              ? replicateSource
                                               : circularSource;
        Shape out;
        const auto y = padBy(c.inputs[0].values, input, pad, out, source, value);
        c.op("pad", "pad.default", args, out, y);
        QVERIFY_RUNS_ON_RUNTIME(c, "pad_" + mode.toStdString());
    }

    void padIntegerTensor()
    {
        // F.pad(input_ids, (0, 3), value=pad_token_id) on int64 token ids (pad to a fixed length) and a crop of the
        // first id (negative pad): the fill value reaches the kernel as an int.
        Case c;
        const Shape xs { 2, 5 };
        Values ids;
        for (std::int64_t k = 0; k < 10; ++k)
            ids.push_back(double(100 + 7 * k));
        c.in("input_ids", xs, ids, kLong);
        Shape out;
        const auto y = padBy(ids, xs, { -1, 3 }, out, constantSource, 1.0);
        c.op("pad", "pad.default",
            json::array({ arg("self", T("input_ids")), arg("pad", Ints({ -1, 3 })), arg("value", F(1.0)) }), out, y,
            kLong);
        QVERIFY_RUNS_ON_RUNTIME(c, "pad_int64");
    }

    void padNodes_data()
    {
        QTest::addColumn<QString>("target");
        QTest::addColumn<Shape>("input");
        QTest::addColumn<Shape>("pad");
        QTest::newRow("constant_pad_nd with negative pads")
            << "constant_pad_nd.default" << Shape { 2, 3, 6 } << Shape { -2, 1, 1, -1 };
        QTest::newRow("constant_pad_nd") << "constant_pad_nd.default" << Shape { 2, 3, 4 } << Shape { 0, 2, 1, 1 };
        QTest::newRow("reflection_pad1d") << "reflection_pad1d.default" << Shape { 1, 2, 5 } << Shape { 2, 3 };
        QTest::newRow("reflection_pad2d") << "reflection_pad2d.default" << Shape { 2, 3, 4 } << Shape { 1, 2, 2, 0 };
        QTest::newRow("reflection_pad3d")
            << "reflection_pad3d.default" << Shape { 1, 1, 3, 3, 3 } << Shape { 1, 1, 2, 0, 1, 2 };
        QTest::newRow("replication_pad1d") << "replication_pad1d.default" << Shape { 2, 4 } << Shape { 3, 1 };
        QTest::newRow("replication_pad2d")
            << "replication_pad2d.default" << Shape { 1, 2, 3, 3 } << Shape { 2, 0, 1, 2 };
        QTest::newRow("replication_pad3d")
            << "replication_pad3d.default" << Shape { 1, 2, 2, 3, 2 } << Shape { 1, 1, 1, 1, 1, 1 };
    }

    void padNodes()
    {
        // The pad kernels written as nodes directly (an exported program that already went through to_edge, or
        // F.pad's own lowering in older exports).
        QFETCH(QString, target);
        QFETCH(Shape, input);
        QFETCH(Shape, pad);
        const bool constant = target.startsWith("constant");
        Case c;
        c.in("x", input, values(std::size_t(numel(input)), 71, 3.0));
        json args = json::array({ arg("self", T("x")), arg(constant ? "pad" : "padding", Ints(pad)) });
        if (constant)
            args.push_back(arg("value", F(0.25)));
        const auto source = constant          ? constantSource
            : target.startsWith("reflection") ? reflectSource
                                              : replicateSource;
        Shape out;
        const auto y = padBy(c.inputs[0].values, input, pad, out, source, 0.25);
        c.op("pad", target.toStdString(), args, out, y);
        QVERIFY_RUNS_ON_RUNTIME(c, "pad_node");
    }

    void convolutionPaddingModes_data()
    {
        QTest::addColumn<QString>("mode");
        QTest::newRow("reflect") << "reflect";
        QTest::newRow("replicate") << "replicate";
        QTest::newRow("circular") << "circular";
    }

    void convolutionPaddingModes()
    {
        // nn.Conv2d(4, 4, 3, padding=1, padding_mode=mode): the module pads with F.pad(mode) and convolves with
        // padding 0, so the graph holds pad then conv2d.
        QFETCH(QString, mode);
        Case c;
        const Shape xs { 1, 4, 5, 6 }, ws { 4, 4, 3, 3 };
        c.in("x", xs, values(std::size_t(numel(xs)), 81, 2.0));
        const auto w = values(std::size_t(numel(ws)), 82);
        const auto b = values(4, 83);
        c.dump.weight("p_weight", "conv.weight", ws, w);
        c.dump.weight("p_bias", "conv.bias", { 4 }, b);
        c.dump.node("pad", "pad.default",
            json::array({ arg("self", T("x")), arg("pad", Ints({ 1, 1, 1, 1 })), arg("mode", S(mode.toStdString())) }),
            { 1, 4, 7, 8 });
        c.dump.node("conv2d", "conv2d.default",
            json::array({ arg("input", T("pad")), arg("weight", T("p_weight")), arg("bias", T("p_bias")) }),
            { 1, 4, 5, 6 });
        c.dump.output("conv2d");
        const auto source = mode == "reflect" ? reflectSource : mode == "replicate" ? replicateSource : circularSource;
        Shape ps, out;
        const auto padded = padBy(c.inputs[0].values, xs, { 1, 1, 1, 1 }, ps, source);
        c.expect(xs, convolve(padded, ps, w, ws, b, { { 1, 1 }, { 0, 0 }, { 1, 1 } }, out));
        QVERIFY_RUNS_ON_RUNTIME(c, "conv_padding_mode");
    }

    void refusals_data()
    {
        QTest::addColumn<QString>("target");
        QTest::addColumn<json>("args");
        QTest::addColumn<Shape>("input");
        QTest::addColumn<Shape>("out");
        QTest::addColumn<int>("code");
        QTest::addColumn<QStringList>("phrases");
        const json x = arg("input", T("x"));
        const json w = arg("weight", T("p_weight"));
        QTest::newRow("padding='same' with stride 2")
            << "conv2d.padding" << json::array({ x, w, arg("stride", Ints({ 2, 2 })), arg("padding", S("same")) })
            << Shape { 1, 2, 6, 6 } << Shape { 1, 2, 3, 3 } << int(ErrorCode::InvalidInput)
            << QStringList { "conv2d", "padding='same' is not supported for strided convolutions" };
        QTest::newRow("reflect pad as large as the input")
            << "pad.default"
            << json::array({ arg("self", T("x")), arg("pad", Ints({ 3, 0 })), arg("mode", S("reflect")) })
            << Shape { 1, 2, 3 } << Shape { 1, 2, 6 } << int(ErrorCode::InvalidInput)
            << QStringList { "pad", "Padding size should be less than the corresponding input dimension" };
        QTest::newRow("circular pad wrapping twice")
            << "pad.default"
            << json::array({ arg("self", T("x")), arg("pad", Ints({ 4, 0 })), arg("mode", S("circular")) })
            << Shape { 1, 2, 3 } << Shape { 1, 2, 7 } << int(ErrorCode::InvalidInput)
            << QStringList { "pad", "wrapping around more than once" };
        QTest::newRow("replicate pad of 4 dimensions")
            << "pad.default"
            << json::array(
                   { arg("self", T("x")), arg("pad", Ints({ 1, 1, 1, 1, 1, 1, 1, 1 })), arg("mode", S("replicate")) })
            << Shape { 1, 2, 3, 3, 3 } << Shape { 1, 4, 5, 5, 5 } << int(ErrorCode::Unsupported)
            << QStringList { "pad", "Only 2D, 3D, 4D, 5D padding with non-constant padding" };
        QTest::newRow("reflect pad with a value")
            << "pad.default"
            << json::array(
                   { arg("self", T("x")), arg("pad", Ints({ 1, 1 })), arg("mode", S("reflect")), arg("value", F(1.0)) })
            << Shape { 1, 2, 3 } << Shape { 1, 2, 5 } << int(ErrorCode::InvalidInput)
            << QStringList { "pad", "doesn't take in value argument" };
    }

    void refusals()
    {
        // What the runtime cannot run (or torch itself rejects) is refused at emission, naming the node and why.
        QFETCH(QString, target);
        QFETCH(json, args);
        QFETCH(Shape, input);
        QFETCH(Shape, out);
        QFETCH(int, code);
        QFETCH(QStringList, phrases);
        Dump dump;
        dump.input("x", input);
        if (target.startsWith("conv")) {
            const Shape ws = input.size() == 5 ? Shape { 2, 2, 3, 3, 3 } : Shape { 2, 2, 3, 3 };
            dump.weight("p_weight", "conv.weight", ws, Values(std::size_t(numel(ws)), 0.5));
        }
        dump.node("y", target.toStdString(), args, out);
        dump.output("y");
        auto ep = dump.build("refusal");
        QVERIFY_RESULT(ep);
        auto emitted = emitProgram({ { "forward", std::shared_ptr<const ExportedProgram>(std::move(*ep)) } });
        std::vector<std::string> needles { "'y'" };
        for (const auto& p : phrases)
            needles.push_back(p.toStdString());
        QVERIFY_ERROR(emitted, ErrorCode(code), needles);
    }
};

QTEST_GUILESS_MAIN(TestLoweringConvolution)
#include "tst_lowering_convolution.moc"
