// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "torchreference.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <numbers>
#include <numeric>
#include <stdexcept>

namespace pte::test::torchref {

namespace {

double f32(double v) { return double(float(v)); }

std::int64_t product(const Shape& s)
{
    return std::accumulate(s.begin(), s.end(), std::int64_t(1), std::multiplies<>());
}

std::int64_t wrapDim(std::int64_t dim, std::int64_t rank) { return dim < 0 ? dim + rank : dim; }

void require(bool ok, const char* what)
{
    if (!ok)
        throw std::invalid_argument(std::string("torchref: ") + what);
}

/** Row-major strides of `s`. */
Shape stridesOf(const Shape& s)
{
    Shape st(s.size(), 1);
    for (std::size_t i = s.size(); i-- > 1;)
        st[i - 1] = st[i] * s[i];
    return st;
}

/** The multi-index of flat position `k` in `shape`. */
Shape unravel(std::int64_t k, const Shape& shape)
{
    Shape idx(shape.size());
    for (std::size_t i = shape.size(); i-- > 0;) {
        idx[i] = k % shape[i];
        k /= shape[i];
    }
    return idx;
}

/** Flat position in a tensor of `shape` broadcast to the (right-aligned) output index `idx`. */
std::int64_t broadcastOffset(const Shape& idx, const Shape& shape)
{
    std::int64_t off = 0;
    const std::size_t lead = idx.size() - shape.size();
    const Shape st = stridesOf(shape);
    for (std::size_t i = 0; i < shape.size(); ++i)
        off += (shape[i] == 1 ? 0 : idx[lead + i]) * st[i];
    return off;
}

Shape broadcastShape(const Shape& a, const Shape& b)
{
    Shape out(std::max(a.size(), b.size()), 1);
    for (std::size_t i = 0; i < out.size(); ++i) {
        const std::int64_t x = i < out.size() - a.size() ? 1 : a[i - (out.size() - a.size())];
        const std::int64_t y = i < out.size() - b.size() ? 1 : b[i - (out.size() - b.size())];
        require(x == y || x == 1 || y == 1, "shapes do not broadcast");
        out[i] = std::max(x, y);
    }
    return out;
}

Tensor binary(const Tensor& a, const Tensor& b, const std::function<double(double, double)>& f)
{
    Tensor r { broadcastShape(a.shape, b.shape), {} };
    r.v.resize(std::size_t(product(r.shape)));
    for (std::int64_t k = 0; k < r.numel(); ++k) {
        const Shape idx = unravel(k, r.shape);
        r.v[std::size_t(k)] =
            f32(f(a.v[std::size_t(broadcastOffset(idx, a.shape))], b.v[std::size_t(broadcastOffset(idx, b.shape))]));
    }
    return r;
}

Tensor unary(const Tensor& x, const std::function<double(double)>& f)
{
    Tensor r = x;
    for (auto& e : r.v)
        e = f32(f(e));
    return r;
}

double sigmoidOf(double v) { return 1.0 / (1.0 + std::exp(-v)); }

/** (outer, size, inner) of `dim`: element (o, i, n) is at (o * size + i) * inner + n. */
struct Split
{
    std::int64_t outer, size, inner;
};
Split splitAt(const Shape& s, std::int64_t dim)
{
    Split p { 1, s[std::size_t(dim)], 1 };
    for (std::int64_t i = 0; i < dim; ++i)
        p.outer *= s[std::size_t(i)];
    for (std::size_t i = std::size_t(dim) + 1; i < s.size(); ++i)
        p.inner *= s[i];
    return p;
}

} // namespace

std::int64_t Tensor::numel() const { return product(shape); }
std::int64_t Tensor::size(std::int64_t d) const { return shape.at(std::size_t(wrapDim(d, dim()))); }

Tensor tensor(Shape shape, std::vector<double> values)
{
    require(product(shape) == std::int64_t(values.size()), "value count does not match the shape");
    return { std::move(shape), std::move(values) };
}

Tensor zeros(Shape shape)
{
    const auto n = std::size_t(product(shape));
    return { std::move(shape), std::vector<double>(n, 0.0) };
}

Tensor reshape(const Tensor& x, Shape shape)
{
    const auto minus = std::find(shape.begin(), shape.end(), -1);
    if (minus != shape.end()) {
        *minus = 1;
        *minus = x.numel() / product(shape);
    }
    require(product(shape) == x.numel(), "reshape to another number of elements");
    return { std::move(shape), x.v };
}

Tensor permute(const Tensor& x, const std::vector<std::int64_t>& dims)
{
    Shape out(dims.size());
    for (std::size_t i = 0; i < dims.size(); ++i)
        out[i] = x.shape[std::size_t(wrapDim(dims[i], x.dim()))];
    Tensor r { out, std::vector<double>(x.v.size()) };
    const Shape st = stridesOf(x.shape);
    for (std::int64_t k = 0; k < r.numel(); ++k) {
        const Shape idx = unravel(k, out);
        std::int64_t off = 0;
        for (std::size_t i = 0; i < dims.size(); ++i)
            off += idx[i] * st[std::size_t(wrapDim(dims[i], x.dim()))];
        r.v[std::size_t(k)] = x.v[std::size_t(off)];
    }
    return r;
}

Tensor transpose(const Tensor& x, std::int64_t dim0, std::int64_t dim1)
{
    std::vector<std::int64_t> dims(x.shape.size());
    std::iota(dims.begin(), dims.end(), 0);
    std::swap(dims[std::size_t(wrapDim(dim0, x.dim()))], dims[std::size_t(wrapDim(dim1, x.dim()))]);
    return permute(x, dims);
}

Tensor unsqueeze(const Tensor& x, std::int64_t dim)
{
    Shape s = x.shape;
    s.insert(s.begin() + wrapDim(dim, x.dim() + 1), 1);
    return { s, x.v };
}

Tensor cat(const std::vector<Tensor>& xs, std::int64_t dim)
{
    dim = wrapDim(dim, xs.at(0).dim());
    Shape out = xs[0].shape;
    out[std::size_t(dim)] = 0;
    for (const auto& x : xs)
        out[std::size_t(dim)] += x.shape[std::size_t(dim)];
    const Split o = splitAt(out, dim);
    Tensor r { out, std::vector<double>(std::size_t(product(out))) };
    std::int64_t at = 0;
    for (const auto& x : xs) {
        const Split p = splitAt(x.shape, dim);
        for (std::int64_t a = 0; a < p.outer; ++a)
            for (std::int64_t i = 0; i < p.size; ++i)
                for (std::int64_t n = 0; n < p.inner; ++n)
                    r.v[std::size_t((a * o.size + at + i) * o.inner + n)] =
                        x.v[std::size_t((a * p.size + i) * p.inner + n)];
        at += p.size;
    }
    return r;
}

Tensor narrow(const Tensor& x, std::int64_t dim, std::int64_t start, std::int64_t length)
{
    dim = wrapDim(dim, x.dim());
    Shape out = x.shape;
    out[std::size_t(dim)] = length;
    const Split p = splitAt(x.shape, dim);
    Tensor r { out, {} };
    for (std::int64_t a = 0; a < p.outer; ++a)
        for (std::int64_t i = start; i < start + length; ++i)
            for (std::int64_t n = 0; n < p.inner; ++n)
                r.v.push_back(x.v[std::size_t((a * p.size + i) * p.inner + n)]);
    return r;
}

Tensor constantPad(const Tensor& x, const std::vector<std::int64_t>& pad, double value)
{
    Shape out = x.shape;
    for (std::size_t k = 0; k < pad.size() / 2; ++k)
        out[out.size() - 1 - k] += pad[2 * k] + pad[2 * k + 1];
    Tensor r { out, std::vector<double>(std::size_t(product(out)), f32(value)) };
    for (std::int64_t k = 0; k < x.numel(); ++k) {
        Shape idx = unravel(k, x.shape);
        for (std::size_t d = 0; d < pad.size() / 2; ++d)
            idx[idx.size() - 1 - d] += pad[2 * d];
        bool inside = true;
        for (std::size_t i = 0; i < idx.size(); ++i)
            inside = inside && idx[i] >= 0 && idx[i] < out[i];
        if (inside)
            r.v[std::size_t(broadcastOffset(idx, out))] = x.v[std::size_t(k)];
    }
    return r;
}

Tensor add(const Tensor& a, const Tensor& b)
{
    return binary(a, b, [](double x, double y) { return x + y; });
}
Tensor mul(const Tensor& a, const Tensor& b)
{
    return binary(a, b, [](double x, double y) { return x * y; });
}
Tensor scale(const Tensor& a, double s)
{
    return unary(a, [s](double x) { return x * s; });
}
Tensor relu(const Tensor& x)
{
    return unary(x, [](double v) { return std::max(v, 0.0); });
}
Tensor gelu(const Tensor& x, bool tanhApproximation)
{
    if (tanhApproximation)
        return unary(x, [](double v) {
            const double k = std::sqrt(2.0 / std::numbers::pi);
            return 0.5 * v * (1.0 + std::tanh(k * (v + 0.044715 * v * v * v)));
        });
    return unary(x, [](double v) { return 0.5 * v * (1.0 + std::erf(v / std::sqrt(2.0))); });
}
Tensor silu(const Tensor& x)
{
    return unary(x, [](double v) { return v * sigmoidOf(v); });
}
Tensor sigmoid(const Tensor& x) { return unary(x, sigmoidOf); }
Tensor tanh(const Tensor& x)
{
    return unary(x, [](double v) { return std::tanh(v); });
}
Tensor hardswish(const Tensor& x)
{
    return unary(x, [](double v) { return v * std::min(std::max(v + 3.0, 0.0), 6.0) / 6.0; });
}
Tensor hardsigmoid(const Tensor& x)
{
    return unary(x, [](double v) { return std::min(std::max(v + 3.0, 0.0), 6.0) / 6.0; });
}

Tensor glu(const Tensor& x, std::int64_t dim)
{
    dim = wrapDim(dim, x.dim());
    const std::int64_t half = x.size(dim) / 2;
    const Tensor a = narrow(x, dim, 0, half);
    const Tensor b = narrow(x, dim, half, half);
    Tensor r = a;
    for (std::size_t k = 0; k < r.v.size(); ++k)
        r.v[k] = f32(a.v[k] * f32(sigmoidOf(b.v[k])));
    return r;
}

namespace {
Tensor softmaxImpl(const Tensor& x, std::int64_t dim, bool log)
{
    dim = wrapDim(dim, x.dim());
    const Split p = splitAt(x.shape, dim);
    Tensor r = x;
    for (std::int64_t a = 0; a < p.outer; ++a)
        for (std::int64_t n = 0; n < p.inner; ++n) {
            auto at = [&](std::int64_t i) { return std::size_t((a * p.size + i) * p.inner + n); };
            double m = -std::numeric_limits<double>::infinity();
            for (std::int64_t i = 0; i < p.size; ++i)
                m = std::max(m, x.v[at(i)]);
            double sum = 0;
            for (std::int64_t i = 0; i < p.size; ++i)
                sum += std::exp(x.v[at(i)] - m);
            for (std::int64_t i = 0; i < p.size; ++i)
                r.v[at(i)] = f32(log ? x.v[at(i)] - m - std::log(sum) : std::exp(x.v[at(i)] - m) / sum);
        }
    return r;
}
} // namespace

Tensor softmax(const Tensor& x, std::int64_t dim) { return softmaxImpl(x, dim, false); }
Tensor logSoftmax(const Tensor& x, std::int64_t dim) { return softmaxImpl(x, dim, true); }

Tensor linear(const Tensor& x, const Tensor& w, const std::optional<Tensor>& b)
{
    const std::int64_t in = w.shape.at(1);
    const std::int64_t out = w.shape.at(0);
    require(x.size(-1) == in, "linear: input features differ from the weight's");
    Shape s = x.shape;
    s.back() = out;
    Tensor r { s, std::vector<double>(std::size_t(product(s))) };
    const std::int64_t rows = x.numel() / in;
    for (std::int64_t row = 0; row < rows; ++row)
        for (std::int64_t o = 0; o < out; ++o) {
            double acc = b ? b->v[std::size_t(o)] : 0.0;
            for (std::int64_t i = 0; i < in; ++i)
                acc += x.v[std::size_t(row * in + i)] * w.v[std::size_t(o * in + i)];
            r.v[std::size_t(row * out + o)] = f32(acc);
        }
    return r;
}

Tensor embedding(const Tensor& weight, const Tensor& indices)
{
    const std::int64_t d = weight.shape.at(1);
    Shape s = indices.shape;
    s.push_back(d);
    Tensor r { s, {} };
    for (const double i : indices.v)
        for (std::int64_t k = 0; k < d; ++k)
            r.v.push_back(weight.v[std::size_t(std::int64_t(i) * d + k)]);
    return r;
}

Tensor conv1d(const Tensor& x, const Tensor& w, const std::optional<Tensor>& b, std::int64_t stride,
    std::int64_t padding, std::int64_t dilation, std::int64_t groups)
{
    const Tensor y =
        conv2d(unsqueeze(x, 2), unsqueeze(w, 2), b, { 1, stride }, { 0, padding }, { 1, dilation }, groups);
    return reshape(y, { y.shape[0], y.shape[1], y.shape[3] });
}

Tensor conv2d(const Tensor& x, const Tensor& w, const std::optional<Tensor>& b, Shape stride, Shape padding,
    Shape dilation, std::int64_t groups)
{
    const std::int64_t n = x.shape.at(0), c = x.shape.at(1), h = x.shape.at(2), wd = x.shape.at(3);
    const std::int64_t o = w.shape.at(0), cg = w.shape.at(1), kh = w.shape.at(2), kw = w.shape.at(3);
    require(cg * groups == c && o % groups == 0, "conv2d: channels do not match the groups");
    const std::int64_t oh = (h + 2 * padding[0] - dilation[0] * (kh - 1) - 1) / stride[0] + 1;
    const std::int64_t ow = (wd + 2 * padding[1] - dilation[1] * (kw - 1) - 1) / stride[1] + 1;
    const std::int64_t og = o / groups;
    Tensor r { { n, o, oh, ow }, std::vector<double>(std::size_t(n * o * oh * ow)) };
    for (std::int64_t b0 = 0; b0 < n; ++b0)
        for (std::int64_t oc = 0; oc < o; ++oc) {
            const std::int64_t g = oc / og;
            for (std::int64_t y = 0; y < oh; ++y)
                for (std::int64_t xx = 0; xx < ow; ++xx) {
                    double acc = b ? b->v[std::size_t(oc)] : 0.0;
                    for (std::int64_t ic = 0; ic < cg; ++ic)
                        for (std::int64_t ky = 0; ky < kh; ++ky) {
                            const std::int64_t iy = y * stride[0] - padding[0] + ky * dilation[0];
                            if (iy < 0 || iy >= h)
                                continue;
                            for (std::int64_t kx = 0; kx < kw; ++kx) {
                                const std::int64_t ix = xx * stride[1] - padding[1] + kx * dilation[1];
                                if (ix < 0 || ix >= wd)
                                    continue;
                                acc += x.v[std::size_t(((b0 * c + g * cg + ic) * h + iy) * wd + ix)]
                                    * w.v[std::size_t(((oc * cg + ic) * kh + ky) * kw + kx)];
                            }
                        }
                    r.v[std::size_t(((b0 * o + oc) * oh + y) * ow + xx)] = f32(acc);
                }
        }
    return r;
}

Tensor convTranspose2d(const Tensor& x, const Tensor& w, const std::optional<Tensor>& b, Shape stride, Shape padding,
    Shape outputPadding, std::int64_t groups, Shape dilation)
{
    // The adjoint of conv2d: input pixel (iy, ix) of channel ic adds x * w[ic, oc, ky, kx] to output pixel
    // (iy * stride - padding + ky * dilation, ...).
    const std::int64_t n = x.shape.at(0), c = x.shape.at(1), h = x.shape.at(2), wd = x.shape.at(3);
    const std::int64_t og = w.shape.at(1), kh = w.shape.at(2), kw = w.shape.at(3);
    const std::int64_t cg = c / groups, o = og * groups;
    const std::int64_t oh = (h - 1) * stride[0] - 2 * padding[0] + dilation[0] * (kh - 1) + outputPadding[0] + 1;
    const std::int64_t ow = (wd - 1) * stride[1] - 2 * padding[1] + dilation[1] * (kw - 1) + outputPadding[1] + 1;
    std::vector<double> acc(std::size_t(n * o * oh * ow), 0.0);
    for (std::int64_t b0 = 0; b0 < n; ++b0)
        for (std::int64_t ic = 0; ic < c; ++ic) {
            const std::int64_t g = ic / cg;
            for (std::int64_t iy = 0; iy < h; ++iy)
                for (std::int64_t ix = 0; ix < wd; ++ix) {
                    const double xv = x.v[std::size_t(((b0 * c + ic) * h + iy) * wd + ix)];
                    for (std::int64_t j = 0; j < og; ++j)
                        for (std::int64_t ky = 0; ky < kh; ++ky)
                            for (std::int64_t kx = 0; kx < kw; ++kx) {
                                const std::int64_t y = iy * stride[0] - padding[0] + ky * dilation[0];
                                const std::int64_t xx = ix * stride[1] - padding[1] + kx * dilation[1];
                                if (y < 0 || y >= oh || xx < 0 || xx >= ow)
                                    continue;
                                const std::int64_t oc = g * og + j;
                                acc[std::size_t(((b0 * o + oc) * oh + y) * ow + xx)] +=
                                    xv * w.v[std::size_t(((ic * og + j) * kh + ky) * kw + kx)];
                            }
                }
        }
    Tensor r { { n, o, oh, ow }, std::move(acc) };
    for (std::int64_t k = 0; k < r.numel(); ++k)
        r.v[std::size_t(k)] = f32(r.v[std::size_t(k)] + (b ? b->v[std::size_t((k / (oh * ow)) % o)] : 0.0));
    return r;
}

Tensor maxPool2d(const Tensor& x, Shape kernel, Shape stride, Shape padding)
{
    const std::int64_t n = x.shape.at(0), c = x.shape.at(1), h = x.shape.at(2), wd = x.shape.at(3);
    const std::int64_t oh = (h + 2 * padding[0] - kernel[0]) / stride[0] + 1;
    const std::int64_t ow = (wd + 2 * padding[1] - kernel[1]) / stride[1] + 1;
    Tensor r { { n, c, oh, ow }, {} };
    for (std::int64_t p = 0; p < n * c; ++p)
        for (std::int64_t y = 0; y < oh; ++y)
            for (std::int64_t xx = 0; xx < ow; ++xx) {
                double m = -std::numeric_limits<double>::infinity();
                for (std::int64_t ky = 0; ky < kernel[0]; ++ky)
                    for (std::int64_t kx = 0; kx < kernel[1]; ++kx) {
                        const std::int64_t iy = y * stride[0] - padding[0] + ky;
                        const std::int64_t ix = xx * stride[1] - padding[1] + kx;
                        if (iy >= 0 && iy < h && ix >= 0 && ix < wd)
                            m = std::max(m, x.v[std::size_t((p * h + iy) * wd + ix)]);
                    }
                r.v.push_back(m);
            }
    return r;
}

Tensor adaptiveAvgPool2d(const Tensor& x, std::int64_t outH, std::int64_t outW)
{
    const std::int64_t n = x.shape.at(0), c = x.shape.at(1), h = x.shape.at(2), wd = x.shape.at(3);
    Tensor r { { n, c, outH, outW }, {} };
    for (std::int64_t p = 0; p < n * c; ++p)
        for (std::int64_t i = 0; i < outH; ++i)
            for (std::int64_t j = 0; j < outW; ++j) {
                const std::int64_t y0 = i * h / outH, y1 = ((i + 1) * h + outH - 1) / outH;
                const std::int64_t x0 = j * wd / outW, x1 = ((j + 1) * wd + outW - 1) / outW;
                double sum = 0;
                for (std::int64_t y = y0; y < y1; ++y)
                    for (std::int64_t xx = x0; xx < x1; ++xx)
                        sum += x.v[std::size_t((p * h + y) * wd + xx)];
                r.v.push_back(f32(sum / double((y1 - y0) * (x1 - x0))));
            }
    return r;
}

Tensor batchNormEval(const Tensor& x, const Tensor& runningMean, const Tensor& runningVar,
    const std::optional<Tensor>& weight, const std::optional<Tensor>& bias, double eps)
{
    const Split p = splitAt(x.shape, 1);
    Tensor r = x;
    for (std::int64_t a = 0; a < p.outer; ++a)
        for (std::int64_t ch = 0; ch < p.size; ++ch) {
            const auto c = std::size_t(ch);
            const double inv = 1.0 / std::sqrt(runningVar.v[c] + eps);
            for (std::int64_t n = 0; n < p.inner; ++n) {
                auto& e = r.v[std::size_t((a * p.size + ch) * p.inner + n)];
                e = f32((e - runningMean.v[c]) * inv * (weight ? weight->v[c] : 1.0) + (bias ? bias->v[c] : 0.0));
            }
        }
    return r;
}

Tensor groupNorm(const Tensor& x, std::int64_t groups, const std::optional<Tensor>& weight,
    const std::optional<Tensor>& bias, double eps)
{
    const std::int64_t n = x.shape.at(0), c = x.shape.at(1);
    const std::int64_t inner = x.numel() / (n * c);
    const std::int64_t per = c / groups * inner; // elements of one group
    Tensor r = x;
    for (std::int64_t g = 0; g < n * groups; ++g) {
        double mean = 0, var = 0;
        for (std::int64_t k = 0; k < per; ++k)
            mean += x.v[std::size_t(g * per + k)];
        mean /= double(per);
        for (std::int64_t k = 0; k < per; ++k)
            var += (x.v[std::size_t(g * per + k)] - mean) * (x.v[std::size_t(g * per + k)] - mean);
        var /= double(per);
        const double inv = 1.0 / std::sqrt(var + eps);
        for (std::int64_t k = 0; k < per; ++k) {
            const auto ch = std::size_t(((g * per + k) / inner) % c);
            auto& e = r.v[std::size_t(g * per + k)];
            e = f32((e - mean) * inv * (weight ? weight->v[ch] : 1.0) + (bias ? bias->v[ch] : 0.0));
        }
    }
    return r;
}

Tensor layerNorm(const Tensor& x, std::int64_t normalizedDims, const std::optional<Tensor>& weight,
    const std::optional<Tensor>& bias, double eps)
{
    std::int64_t width = 1;
    for (std::int64_t d = x.dim() - normalizedDims; d < x.dim(); ++d)
        width *= x.shape[std::size_t(d)];
    Tensor r = x;
    for (std::int64_t row = 0; row < x.numel() / width; ++row) {
        double mean = 0, var = 0;
        for (std::int64_t k = 0; k < width; ++k)
            mean += x.v[std::size_t(row * width + k)];
        mean /= double(width);
        for (std::int64_t k = 0; k < width; ++k) {
            const double d = x.v[std::size_t(row * width + k)] - mean;
            var += d * d;
        }
        var /= double(width);
        const double inv = 1.0 / std::sqrt(var + eps);
        for (std::int64_t k = 0; k < width; ++k) {
            auto& e = r.v[std::size_t(row * width + k)];
            const auto i = std::size_t(k);
            e = f32((e - mean) * inv * (weight ? weight->v[i] : 1.0) + (bias ? bias->v[i] : 0.0));
        }
    }
    return r;
}

Tensor scaledDotProductAttention(const Tensor& q, const Tensor& k, const Tensor& v, const std::optional<Tensor>& mask,
    bool isBoolMask, bool isCausal, std::optional<double> scale)
{
    const std::int64_t l = q.size(-2), e = q.size(-1), s = k.size(-2), ev = v.size(-1);
    const std::int64_t batch = q.numel() / (l * e);
    require(k.numel() / (s * e) == batch && v.numel() / (s * ev) == batch, "attention: batch sizes differ");
    const double factor = scale ? *scale : 1.0 / std::sqrt(double(e));
    Shape scoreShape(q.shape.begin(), q.shape.end() - 2);
    scoreShape.push_back(l);
    scoreShape.push_back(s);
    Shape outShape = q.shape;
    outShape.back() = ev;
    Tensor out { outShape, std::vector<double>(std::size_t(batch * l * ev)) };
    const double minusInf = -std::numeric_limits<double>::infinity();
    for (std::int64_t bh = 0; bh < batch; ++bh)
        for (std::int64_t i = 0; i < l; ++i) {
            std::vector<double> w(static_cast<std::size_t>(s));
            for (std::int64_t j = 0; j < s; ++j) {
                double dot = 0;
                for (std::int64_t d = 0; d < e; ++d)
                    dot += q.v[std::size_t((bh * l + i) * e + d)] * k.v[std::size_t((bh * s + j) * e + d)];
                double bias = isCausal && j > i ? minusInf : 0.0;
                if (mask) {
                    const double m =
                        mask->v[std::size_t(broadcastOffset(unravel((bh * l + i) * s + j, scoreShape), mask->shape))];
                    if (isBoolMask)
                        bias = m != 0 ? bias : minusInf;
                    else
                        bias += m;
                }
                w[std::size_t(j)] = f32(f32(dot * factor) + bias);
            }
            const Tensor p = softmax(tensor({ s }, w), 0);
            for (std::int64_t d = 0; d < ev; ++d) {
                double acc = 0;
                for (std::int64_t j = 0; j < s; ++j)
                    acc += p.v[std::size_t(j)] * v.v[std::size_t((bh * s + j) * ev + d)];
                out.v[std::size_t((bh * l + i) * ev + d)] = f32(acc);
            }
        }
    return out;
}

namespace {
/** x_t @ w^T + b for one time step: [B, I] -> [B, G]. */
Tensor affine(const Tensor& x, const Tensor& w, const std::optional<Tensor>& b) { return linear(x, w, b); }
} // namespace

LstmResult lstm(const Tensor& x, const Tensor& h0, const Tensor& c0, const Tensor& wIh, const Tensor& wHh,
    const std::optional<Tensor>& bIh, const std::optional<Tensor>& bHh)
{
    const std::int64_t steps = x.shape.at(0), batch = x.shape.at(1), hidden = h0.shape.at(1);
    Tensor h = h0, c = c0;
    std::vector<double> outs;
    for (std::int64_t t = 0; t < steps; ++t) {
        const Tensor xt = reshape(narrow(x, 0, t, 1), { batch, x.shape.at(2) });
        const Tensor gates = add(affine(xt, wIh, bIh), affine(h, wHh, bHh)); // [B, 4H]: i, f, g, o
        Tensor hn = h, cn = c;
        for (std::int64_t b = 0; b < batch; ++b)
            for (std::int64_t j = 0; j < hidden; ++j) {
                auto gate = [&](std::int64_t q) { return gates.v[std::size_t(b * 4 * hidden + q * hidden + j)]; };
                const double i = f32(sigmoidOf(gate(0))), f = f32(sigmoidOf(gate(1)));
                const double g = f32(std::tanh(gate(2))), o = f32(sigmoidOf(gate(3)));
                const auto at = std::size_t(b * hidden + j);
                cn.v[at] = f32(f32(f * c.v[at]) + f32(i * g));
                hn.v[at] = f32(o * f32(std::tanh(cn.v[at])));
            }
        h = hn;
        c = cn;
        outs.insert(outs.end(), h.v.begin(), h.v.end());
    }
    return { tensor({ steps, batch, hidden }, outs), h, c };
}

GruResult gru(const Tensor& x, const Tensor& h0, const Tensor& wIh, const Tensor& wHh, const std::optional<Tensor>& bIh,
    const std::optional<Tensor>& bHh)
{
    const std::int64_t steps = x.shape.at(0), batch = x.shape.at(1), hidden = h0.shape.at(1);
    Tensor h = h0;
    std::vector<double> outs;
    for (std::int64_t t = 0; t < steps; ++t) {
        const Tensor xt = reshape(narrow(x, 0, t, 1), { batch, x.shape.at(2) });
        const Tensor gi = affine(xt, wIh, bIh); // [B, 3H]: r, z, n
        const Tensor gh = affine(h, wHh, bHh);
        Tensor hn = h;
        for (std::int64_t b = 0; b < batch; ++b)
            for (std::int64_t j = 0; j < hidden; ++j) {
                auto at = [&](const Tensor& g, std::int64_t q) {
                    return g.v[std::size_t(b * 3 * hidden + q * hidden + j)];
                };
                const double r = f32(sigmoidOf(f32(at(gi, 0) + at(gh, 0))));
                const double z = f32(sigmoidOf(f32(at(gi, 1) + at(gh, 1))));
                const double n = f32(std::tanh(f32(at(gi, 2) + f32(r * at(gh, 2)))));
                const auto k = std::size_t(b * hidden + j);
                hn.v[k] = f32(f32((1.0 - z) * n) + f32(z * h.v[k]));
            }
        h = hn;
        outs.insert(outs.end(), h.v.begin(), h.v.end());
    }
    return { tensor({ steps, batch, hidden }, outs), h };
}

} // namespace pte::test::torchref
