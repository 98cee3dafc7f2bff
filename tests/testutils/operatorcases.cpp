// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "operatorcases.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

namespace pte::test {

using nlohmann::json;

ScalarType scalarTypeOfSerde(int code)
{
    switch (code) {
    case kByte:
        return ScalarType::Byte;
    case kChar:
        return ScalarType::Char;
    case kShort:
        return ScalarType::Short;
    case kInt:
        return ScalarType::Int;
    case kLong:
        return ScalarType::Long;
    case kHalf:
        return ScalarType::Half;
    case kDouble:
        return ScalarType::Double;
    case kBool:
        return ScalarType::Bool;
    case kBFloat16:
        return ScalarType::BFloat16;
    default:
        return ScalarType::Float;
    }
}

namespace {

std::size_t numel(const std::vector<std::int64_t>& shape)
{
    return std::size_t(std::accumulate(shape.begin(), shape.end(), std::int64_t(1), std::multiplies<>()));
}

/** Values as a tensor of serde dtype `dtype` holds them. */
std::vector<double> roundTo(std::vector<double> v, int dtype)
{
    for (auto& x : v) {
        if (dtype == kFloat)
            x = f32(x);
        else if (dtype == kBool)
            x = x != 0 ? 1 : 0;
        else if (dtype != kDouble && dtype != kHalf && dtype != kBFloat16 && std::isfinite(x))
            x = std::trunc(x);
    }
    return v;
}

} // namespace

Case& Case::in(const std::string& name, std::vector<std::int64_t> shape, std::vector<double> v, int dtype)
{
    dump.input(name, shape, dtype);
    inputs.push_back({ scalarTypeOfSerde(dtype), std::move(shape), roundTo(std::move(v), dtype) });
    return *this;
}

Case& Case::expect(std::vector<std::int64_t> shape, std::vector<double> v, int dtype)
{
    expected.push_back({ scalarTypeOfSerde(dtype), std::move(shape), roundTo(std::move(v), dtype) });
    return *this;
}

Case& Case::op(const std::string& name, const std::string& target, json args, std::vector<std::int64_t> shape,
    std::vector<double> v, int dtype)
{
    dump.node(name, target, std::move(args), shape, dtype);
    dump.output(name);
    return expect(std::move(shape), std::move(v), dtype);
}

namespace {

std::uint32_t seedOf(const std::string& s)
{
    std::uint32_t h = 2166136261u;
    for (const char c : s) {
        h ^= std::uint8_t(c);
        h *= 16777619u;
    }
    return h;
}

/** n values in [lo, hi] with three decimals, float-representable. */
std::vector<double> vals(std::size_t n, std::uint32_t seed, double lo, double hi)
{
    std::vector<double> v(n);
    for (auto& x : v) {
        seed = seed * 1664525u + 1013904223u;
        const double u = double((seed >> 8) % 10001) / 10000.0;
        x = f32(std::round((lo + (hi - lo) * u) * 1000.0) / 1000.0);
    }
    return v;
}

/** n integers in [lo, hi]. */
std::vector<double> ints(std::size_t n, std::uint32_t seed, std::int64_t lo, std::int64_t hi)
{
    std::vector<double> v(n);
    for (auto& x : v) {
        seed = seed * 1664525u + 1013904223u;
        x = double(lo + std::int64_t((seed >> 8) % std::uint32_t(hi - lo + 1)));
    }
    return v;
}

using Shape = std::vector<std::int64_t>;
using Fn1 = std::function<double(double)>;
using Fn2 = std::function<double(double, double)>;

/** Row-major strides of `shape`. */
std::vector<std::size_t> stridesOf(const Shape& shape)
{
    std::vector<std::size_t> st(shape.size(), 1);
    for (std::size_t k = shape.size(); k-- > 1;)
        st[k - 1] = st[k] * std::size_t(shape[k]);
    return st;
}

/** Coordinates of row-major index `i` in `shape`. */
std::vector<std::int64_t> coordsOf(std::size_t i, const Shape& shape)
{
    std::vector<std::int64_t> c(shape.size());
    for (std::size_t k = shape.size(); k-- > 0;) {
        c[k] = std::int64_t(i % std::size_t(shape[k]));
        i /= std::size_t(shape[k]);
    }
    return c;
}

std::size_t indexOf(const std::vector<std::int64_t>& c, const Shape& shape)
{
    std::size_t i = 0;
    for (std::size_t k = 0; k < shape.size(); ++k)
        i = i * std::size_t(shape[k]) + std::size_t(c[k]);
    return i;
}

/** Numpy broadcasting of a (shape sa) and b (shape sb) through f. */
std::vector<double> broadcast(const std::vector<double>& a, const Shape& sa, const std::vector<double>& b,
    const Shape& sb, const Shape& out, const Fn2& f)
{
    std::vector<double> r(numel(out));
    for (std::size_t i = 0; i < r.size(); ++i) {
        const auto c = coordsOf(i, out);
        auto at = [&](const std::vector<double>& v, const Shape& s) {
            std::vector<std::int64_t> cc(s.size());
            for (std::size_t k = 0; k < s.size(); ++k)
                cc[k] = s[k] == 1 ? 0 : c[k + out.size() - s.size()];
            return v[indexOf(cc, s)];
        };
        r[i] = f(at(a, sa), at(b, sb));
    }
    return r;
}

/** The elements grouped by output position of a reduction over `dims` (and their position along the last reduced
 *  dimension). */
struct Groups
{
    Shape shape; ///< output shape
    std::vector<std::vector<double>> values;
    std::vector<std::vector<std::int64_t>> along;
};

Groups reduce(const std::vector<double>& x, const Shape& shape, std::vector<std::int64_t> dims, bool keepdim)
{
    const auto rank = std::int64_t(shape.size());
    std::vector<bool> red(shape.size(), dims.empty());
    for (auto& d : dims)
        red[std::size_t((d + rank) % rank)] = true;
    Groups g;
    for (std::size_t k = 0; k < shape.size(); ++k)
        if (!red[k])
            g.shape.push_back(shape[k]);
        else if (keepdim)
            g.shape.push_back(1);
    Shape kept;
    for (std::size_t k = 0; k < shape.size(); ++k)
        if (!red[k])
            kept.push_back(shape[k]);
    g.values.resize(numel(kept));
    g.along.resize(numel(kept));
    for (std::size_t i = 0; i < x.size(); ++i) {
        const auto c = coordsOf(i, shape);
        std::vector<std::int64_t> kc;
        std::int64_t pos = 0;
        for (std::size_t k = 0; k < shape.size(); ++k) {
            if (!red[k])
                kc.push_back(c[k]);
            else
                pos = c[k];
        }
        const auto o = indexOf(kc, kept);
        g.values[o].push_back(x[i]);
        g.along[o].push_back(pos);
    }
    return g;
}

std::vector<double> reduceWith(const Groups& g, const std::function<double(const std::vector<double>&)>& f)
{
    std::vector<double> r;
    for (const auto& v : g.values)
        r.push_back(f(v));
    return r;
}

double sigmoid(double x) { return 1.0 / (1.0 + std::exp(-x)); }

double floorDiv(double a, double b) { return std::floor(a / b); }

/** Python's remainder: the sign of the divisor. */
double pyMod(double a, double b)
{
    const double m = std::fmod(a, b);
    return m != 0 && ((m < 0) != (b < 0)) ? m + b : m;
}

// ---- case makers

json self(const char* name = "x") { return arg("self", T(name)); }

/** y = target(x, extra...) elementwise on a [2, 3] input of `inDtype` with values in [lo, hi]. */
OpCase unary(std::string kernel, std::string target, Fn1 f, double lo, double hi, int inDtype = kFloat,
    int outDtype = kFloat, json extra = json::array(), std::vector<double> given = {})
{
    const std::string aten = "aten." + target;
    return { kernel, aten, [=] {
                Case c;
                const bool integral = inDtype != kFloat && inDtype != kDouble;
                auto x = !given.empty() ? given
                    : integral          ? ints(6, seedOf(kernel), std::int64_t(lo), std::int64_t(hi))
                                        : vals(6, seedOf(kernel), lo, hi);
                c.in("x", { 2, 3 }, x, inDtype);
                json args = json::array({ self() });
                for (const auto& e : extra)
                    args.push_back(e);
                std::vector<double> y;
                for (const double v : c.inputs[0].values)
                    y.push_back(f(v));
                c.op("y", target, args, { 2, 3 }, y, outDtype);
                return c;
            } };
}

/** y = target(a, b) on a [2, 3] and b [3] (broadcast). */
OpCase binary(std::string kernel, std::string target, Fn2 f, int da = kFloat, int db = kFloat, int dout = kFloat,
    std::pair<double, double> ra = { -2, 2 }, std::pair<double, double> rb = { -2, 2 }, const char* a = "self",
    const char* b = "other", std::string variant = {})
{
    const std::string aten = "aten." + target;
    return { kernel, aten,
        [=] {
            Case c;
            auto gen = [&](int dt, std::pair<double, double> r, std::size_t n, std::uint32_t seed) {
                if (dt == kBool)
                    return ints(n, seed, 0, 1);
                return dt == kFloat || dt == kDouble ? vals(n, seed, r.first, r.second)
                                                     : ints(n, seed, std::int64_t(r.first), std::int64_t(r.second));
            };
            c.in("a", { 2, 3 }, gen(da, ra, 6, seedOf(kernel + variant)), da);
            c.in("b", { 3 }, gen(db, rb, 3, seedOf(kernel + variant) + 7), db);
            c.op("y", target, json::array({ arg(a, T("a")), arg(b, T("b")) }), { 2, 3 },
                broadcast(c.inputs[0].values, { 2, 3 }, c.inputs[1].values, { 3 }, { 2, 3 }, f), dout);
            return c;
        },
        variant };
}

/** y = target(x, scalar) on a [2, 3] x. */
OpCase withScalar(std::string kernel, std::string target, Fn2 f, json scalar, double s, int dx = kFloat,
    int dout = kFloat, std::pair<double, double> r = { -2, 2 }, const char* name = "other", std::string variant = {})
{
    const std::string aten = "aten." + target + " (a Python scalar)";
    return { kernel, aten,
        [=] {
            Case c;
            const bool integral = dx != kFloat && dx != kDouble;
            c.in("x", { 2, 3 },
                integral ? ints(6, seedOf(kernel), std::int64_t(r.first), std::int64_t(r.second))
                         : vals(6, seedOf(kernel), r.first, r.second),
                dx);
            std::vector<double> y;
            for (const double v : c.inputs[0].values)
                y.push_back(f(v, s));
            c.op("y", target, json::array({ self(), arg(name, scalar) }), { 2, 3 }, y, dout);
            return c;
        },
        variant };
}

// ---------------------------------------------------------------------------------------------------------------
// The cases
// ---------------------------------------------------------------------------------------------------------------

void elementwise(std::vector<OpCase>& v)
{
    const double inf = std::numeric_limits<double>::infinity();
    const double nan = std::numeric_limits<double>::quiet_NaN();
    v.push_back(unary("aten::abs.out", "abs.default", [](double x) { return std::fabs(x); }, -2, 2));
    v.push_back(unary("aten::acos.out", "acos.default", [](double x) { return std::acos(x); }, -0.9, 0.9));
    v.push_back(unary("aten::acosh.out", "acosh.default", [](double x) { return std::acosh(x); }, 1.1, 3));
    v.push_back(unary("aten::asin.out", "asin.default", [](double x) { return std::asin(x); }, -0.9, 0.9));
    v.push_back(unary("aten::asinh.out", "asinh.default", [](double x) { return std::asinh(x); }, -2, 2));
    v.push_back(unary("aten::atan.out", "atan.default", [](double x) { return std::atan(x); }, -2, 2));
    v.push_back(unary("aten::atanh.out", "atanh.default", [](double x) { return std::atanh(x); }, -0.9, 0.9));
    v.push_back(unary("aten::ceil.out", "ceil.default", [](double x) { return std::ceil(x); }, -2, 2));
    v.push_back(unary("aten::cos.out", "cos.default", [](double x) { return std::cos(x); }, -3, 3));
    v.push_back(unary("aten::cosh.out", "cosh.default", [](double x) { return std::cosh(x); }, -2, 2));
    v.push_back(unary("aten::erf.out", "erf.default", [](double x) { return std::erf(x); }, -2, 2));
    v.push_back(unary("aten::exp.out", "exp.default", [](double x) { return std::exp(x); }, -2, 2));
    v.push_back(unary("aten::expm1.out", "expm1.default", [](double x) { return std::expm1(x); }, -2, 2));
    v.push_back(unary("aten::floor.out", "floor.default", [](double x) { return std::floor(x); }, -2, 2));
    v.push_back(unary("aten::log.out", "log.default", [](double x) { return std::log(x); }, 0.1, 3));
    v.push_back(unary("aten::log10.out", "log10.default", [](double x) { return std::log10(x); }, 0.1, 3));
    v.push_back(unary("aten::log1p.out", "log1p.default", [](double x) { return std::log1p(x); }, -0.9, 3));
    v.push_back(unary("aten::log2.out", "log2.default", [](double x) { return std::log2(x); }, 0.1, 3));
    v.push_back(unary("aten::neg.out", "neg.default", [](double x) { return -x; }, -2, 2));
    v.push_back(unary("aten::reciprocal.out", "reciprocal.default", [](double x) { return 1.0 / x; }, 0.5, 2));
    v.push_back(unary("aten::relu.out", "relu.default", [](double x) { return x > 0 ? x : 0.0; }, -2, 2));
    // round: half to even, as torch.round.
    v.push_back(unary("aten::round.out", "round.default", [](double x) { return std::nearbyint(x); }, 0, 0, kFloat,
        kFloat, json::array(), { 0.5, 1.5, 2.5, -0.5, -1.7, 0.2 }));
    v.push_back(unary("aten::rsqrt.out", "rsqrt.default", [](double x) { return 1.0 / std::sqrt(x); }, 0.1, 3));
    v.push_back(unary("aten::sigmoid.out", "sigmoid.default", sigmoid, -3, 3));
    v.push_back(unary("aten::sign.out", "sign.default", [](double x) { return double((x > 0) - (x < 0)); }, 0, 0,
        kFloat, kFloat, json::array(), { -1.5, 0, 2, 0.25, -0.125, 0 }));
    v.push_back(unary("aten::sin.out", "sin.default", [](double x) { return std::sin(x); }, -3, 3));
    v.push_back(unary("aten::sinh.out", "sinh.default", [](double x) { return std::sinh(x); }, -2, 2));
    v.push_back(unary("aten::sqrt.out", "sqrt.default", [](double x) { return std::sqrt(x); }, 0, 3));
    v.push_back(unary("aten::tan.out", "tan.default", [](double x) { return std::tan(x); }, -1.2, 1.2));
    v.push_back(unary("aten::tanh.out", "tanh.default", [](double x) { return std::tanh(x); }, -2, 2));
    v.push_back(unary("aten::trunc.out", "trunc.default", [](double x) { return std::trunc(x); }, -2, 2));
    v.push_back(unary("aten::logit.out", "logit.default", [](double x) { return std::log(x / (1 - x)); }, 0.05, 0.95));
    v.push_back(unary("aten::isinf.out", "isinf.default", [](double x) { return double(std::isinf(x)); }, 0, 0, kFloat,
        kBool, json::array(), { 1, inf, -inf, nan, 0, -2 }));
    v.push_back(unary("aten::isnan.out", "isnan.default", [](double x) { return double(std::isnan(x)); }, 0, 0, kFloat,
        kBool, json::array(), { 1, inf, -inf, nan, 0, -2 }));
    v.push_back(unary("aten::bitwise_not.out", "bitwise_not.default",
        [](double x) { return double(~std::int64_t(x)); }, -5, 5, kLong, kLong));
    v.push_back(unary("aten::logical_not.out", "logical_not.default", [](double x) { return double(x == 0); }, 0, 0,
        kFloat, kBool, json::array(), { 0, 1.5, -2, 0, 0.25, 3 }));
    v.push_back(unary("aten::clamp.out", "clamp.default", [](double x) { return std::clamp(x, -0.5, 0.75); }, -2, 2,
        kFloat, kFloat, json::array({ arg("min", F(-0.5)), arg("max", F(0.75)) })));
    v.push_back(unary("aten::hardtanh.out", "hardtanh.default", [](double x) { return std::clamp(x, -1.0, 1.0); }, -2,
        2)); // min_val and max_val at their defaults (-1, 1)
    v.push_back(unary("aten::leaky_relu.out", "leaky_relu.default", [](double x) { return x > 0 ? x : 0.2 * x; }, -2,
        2, kFloat, kFloat, json::array({ arg("negative_slope", F(0.2)) })));
    v.push_back(unary("aten::elu.out", "elu.default", [](double x) { return x > 0 ? x : std::expm1(x); }, -2, 2));
    v.push_back(unary("aten::gelu.out", "gelu.default",
        [](double x) { return 0.5 * x * (1 + std::erf(x / std::sqrt(2.0))); }, -3, 3));
    {
        auto tanhGelu = unary("aten::gelu.out", "gelu.default",
            [](double x) { return 0.5 * x * (1 + std::tanh(std::sqrt(2 / M_PI) * (x + 0.044715 * x * x * x))); }, -3, 3,
            kFloat, kFloat, json::array({ kwarg("approximate", S("tanh")) }));
        tanhGelu.variant = "approximate=tanh";
        v.push_back(tanhGelu);
    }
    v.push_back(unary("aten::pow.Tensor_Scalar_out", "pow.Tensor_Scalar",
        [](double x) { return std::pow(x, 3.0); }, -2, 2, kFloat, kFloat, json::array({ arg("exponent", I(3)) })));
    v.push_back({ "aten::pow.Scalar_out", "aten.pow.Scalar (scalar base)", [] {
                     Case c;
                     c.in("x", { 2, 3 }, vals(6, 11, -2, 2));
                     std::vector<double> y;
                     for (const double e : c.inputs[0].values)
                         y.push_back(std::pow(2.0, e));
                     c.op("y", "pow.Scalar", json::array({ arg("self", F(2.0)), arg("exponent", T("x")) }), { 2, 3 }, y);
                     return c;
                 } });
    v.push_back(binary("aten::pow.Tensor_Tensor_out", "pow.Tensor_Tensor", [](double a, double b) { return std::pow(a, b); },
        kFloat, kFloat, kFloat, { 0.5, 2 }, { -2, 2 }, "self", "exponent"));
    v.push_back({ "aten::clamp.Tensor_out", "aten.clamp.Tensor", [] {
                     Case c;
                     c.in("x", { 2, 3 }, vals(6, 12, -2, 2));
                     c.in("lo", { 3 }, { -1, -0.5, 0 });
                     c.in("hi", { 3 }, { 1, 0.5, 1.5 });
                     c.op("y", "clamp.Tensor", json::array({ self(), arg("min", T("lo")), arg("max", T("hi")) }), { 2, 3 },
                         broadcast(broadcast(c.inputs[0].values, { 2, 3 }, c.inputs[1].values, { 3 }, { 2, 3 },
                                       [](double x, double l) { return std::max(x, l); }),
                             { 2, 3 }, c.inputs[2].values, { 3 }, { 2, 3 }, [](double x, double h) { return std::min(x, h); }));
                     return c;
                 } });
    v.push_back({ "aten::glu.out", "aten.glu (dim=-1)", [] {
                     Case c;
                     c.in("x", { 2, 4 }, vals(8, 13, -2, 2));
                     const auto& x = c.inputs[0].values;
                     std::vector<double> y;
                     for (int r = 0; r < 2; ++r)
                         for (int k = 0; k < 2; ++k)
                             y.push_back(x[std::size_t(r * 4 + k)] * sigmoid(x[std::size_t(r * 4 + k + 2)]));
                     c.op("y", "glu.default", json::array({ self() }), { 2, 2 }, y);
                     return c;
                 } });

    // Binary, with broadcasting.
    auto add = [](double a, double b) { return a + b; };
    v.push_back(binary("aten::add.out", "add.Tensor", add));
    v.push_back(binary("aten::sub.out", "sub.Tensor", [](double a, double b) { return a - b; }));
    v.push_back(binary("aten::mul.out", "mul.Tensor", [](double a, double b) { return a * b; }));
    v.push_back(binary("aten::div.out", "div.Tensor", [](double a, double b) { return a / b; }, kFloat, kFloat, kFloat,
        { -2, 2 }, { 0.5, 2 }));
    v.push_back(binary("aten::atan2.out", "atan2.default", [](double a, double b) { return std::atan2(a, b); }));
    v.push_back(binary("aten::maximum.out", "maximum.default", [](double a, double b) { return std::max(a, b); }));
    v.push_back(binary("aten::minimum.out", "minimum.default", [](double a, double b) { return std::min(a, b); }));
    v.push_back(binary("aten::floor_divide.out", "floor_divide.default", floorDiv, kLong, kLong, kLong, { -9, 9 },
        { 1, 4 }));
    v.push_back(binary("aten::remainder.Tensor_out", "remainder.Tensor", pyMod, kFloat, kFloat, kFloat, { -3, 3 },
        { 0.5, 2 }));
    v.push_back(binary("aten::fmod.Tensor_out", "fmod.Tensor", [](double a, double b) { return std::fmod(a, b); },
        kFloat, kFloat, kFloat, { -3, 3 }, { 0.5, 2 }));
    for (const auto& [name, f] : std::vector<std::pair<std::string, Fn2>> {
             { "bitwise_and", [](double a, double b) { return double(std::int64_t(a) & std::int64_t(b)); } },
             { "bitwise_or", [](double a, double b) { return double(std::int64_t(a) | std::int64_t(b)); } },
             { "bitwise_xor", [](double a, double b) { return double(std::int64_t(a) ^ std::int64_t(b)); } } }) {
        v.push_back(binary("aten::" + name + ".Tensor_out", name + ".Tensor", f, kLong, kLong, kLong, { 0, 15 }, { 0, 15 }));
        v.push_back(withScalar("aten::" + name + ".Scalar_out", name + ".Scalar", f, I(6), 6, kLong, kLong, { 0, 15 }));
    }
    v.push_back(binary("aten::bitwise_left_shift.Tensor_out", "bitwise_left_shift.Tensor",
        [](double a, double b) { return double(std::int64_t(a) << std::int64_t(b)); }, kLong, kLong, kLong, { -8, 8 },
        { 0, 3 }));
    v.push_back(binary("aten::bitwise_right_shift.Tensor_out", "bitwise_right_shift.Tensor",
        [](double a, double b) { return double(std::int64_t(a) >> std::int64_t(b)); }, kLong, kLong, kLong, { -64, 64 },
        { 0, 3 }));
    v.push_back(withScalar("aten::bitwise_left_shift.Tensor_Scalar_out", "bitwise_left_shift.Tensor_Scalar",
        [](double a, double b) { return double(std::int64_t(a) << std::int64_t(b)); }, I(2), 2, kLong, kLong, { -8, 8 }));
    v.push_back(withScalar("aten::bitwise_right_shift.Tensor_Scalar_out", "bitwise_right_shift.Tensor_Scalar",
        [](double a, double b) { return double(std::int64_t(a) >> std::int64_t(b)); }, I(2), 2, kLong, kLong,
        { -64, 64 }));
    for (const auto& [name, f] : std::vector<std::pair<std::string, Fn2>> {
             { "logical_and", [](double a, double b) { return double(a != 0 && b != 0); } },
             { "logical_or", [](double a, double b) { return double(a != 0 || b != 0); } },
             { "logical_xor", [](double a, double b) { return double((a != 0) != (b != 0)); } } })
        v.push_back(binary("aten::" + name + ".out", name + ".default", f, kBool, kBool, kBool));
    for (const auto& [name, f] : std::vector<std::pair<std::string, Fn2>> {
             { "eq", [](double a, double b) { return double(a == b); } },
             { "ne", [](double a, double b) { return double(a != b); } },
             { "lt", [](double a, double b) { return double(a < b); } },
             { "le", [](double a, double b) { return double(a <= b); } },
             { "gt", [](double a, double b) { return double(a > b); } },
             { "ge", [](double a, double b) { return double(a >= b); } } }) {
        // Integers, so that equal elements occur.
        v.push_back(binary("aten::" + name + ".Tensor_out", name + ".Tensor", f, kLong, kLong, kBool, { 0, 3 }, { 0, 3 }));
        v.push_back(withScalar("aten::" + name + ".Scalar_out", name + ".Scalar", f, I(1), 1, kLong, kBool, { 0, 3 }));
    }
    // Python scalars for Tensor parameters: the Scalar overloads, as the edge dialect picks them.
    v.push_back(withScalar("aten::add.Scalar_out", "add.Tensor", add, F(1.5), 1.5));
    v.push_back(withScalar("aten::sub.Scalar_out", "sub.Tensor", [](double a, double b) { return a - b; }, F(0.75), 0.75));
    v.push_back(withScalar("aten::mul.Scalar_out", "mul.Tensor", [](double a, double b) { return a * b; }, F(-2.5), -2.5));
    v.push_back(withScalar("aten::div.Scalar_out", "div.Tensor", [](double a, double b) { return a / b; }, F(4), 4));
    v.push_back(withScalar("aten::rsub.Scalar_out", "rsub.Scalar", [](double a, double b) { return b - a; }, F(1), 1));
    v.push_back(withScalar("aten::remainder.Scalar_out", "remainder.Scalar", pyMod, F(0.75), 0.75, kFloat, kFloat,
        { -3, 3 }));
    v.push_back(withScalar("aten::fmod.Scalar_out", "fmod.Scalar", [](double a, double b) { return std::fmod(a, b); },
        F(0.75), 0.75, kFloat, kFloat, { -3, 3 }));
    v.push_back({ "aten::div.out_mode", "aten.div.Tensor_mode (rounding_mode='floor')", [] {
                     Case c;
                     c.in("a", { 2, 3 }, vals(6, 21, -5, 5));
                     c.in("b", { 3 }, { 2, -1.5, 0.75 });
                     c.op("y", "div.Tensor_mode",
                         json::array({ arg("self", T("a")), arg("other", T("b")), kwarg("rounding_mode", S("floor")) }),
                         { 2, 3 }, broadcast(c.inputs[0].values, { 2, 3 }, c.inputs[1].values, { 3 }, { 2, 3 }, floorDiv));
                     return c;
                 } });
    v.push_back({ "aten::div.Scalar_mode_out", "aten.div.Tensor_mode (a Python scalar, rounding_mode='trunc')", [] {
                     Case c;
                     c.in("a", { 2, 3 }, vals(6, 22, -5, 5));
                     std::vector<double> y;
                     for (const double x : c.inputs[0].values)
                         y.push_back(std::trunc(x / 1.5));
                     c.op("y", "div.Tensor_mode",
                         json::array({ arg("self", T("a")), arg("other", F(1.5)), kwarg("rounding_mode", S("trunc")) }),
                         { 2, 3 }, y);
                     return c;
                 } });
    v.push_back({ "aten::where.self_out", "aten.where.self", [] {
                     Case c;
                     c.in("cond", { 2, 3 }, { 1, 0, 0, 1, 1, 0 }, kBool);
                     c.in("a", { 2, 3 }, vals(6, 23, -2, 2));
                     c.in("b", { 3 }, vals(3, 24, -2, 2));
                     std::vector<double> y(6);
                     for (std::size_t i = 0; i < 6; ++i)
                         y[i] = c.inputs[0].values[i] != 0 ? c.inputs[1].values[i] : c.inputs[2].values[i % 3];
                     c.op("y", "where.self",
                         json::array({ arg("condition", T("cond")), arg("self", T("a")), arg("other", T("b")) }), { 2, 3 },
                         y);
                     return c;
                 } });
    v.push_back({ "aten::masked_fill.Scalar_out", "aten.masked_fill.Scalar", [] {
                     Case c;
                     c.in("x", { 2, 3 }, vals(6, 25, -2, 2));
                     c.in("m", { 3 }, { 0, 1, 0 }, kBool);
                     std::vector<double> y = c.inputs[0].values;
                     y[1] = y[4] = -7.5;
                     c.op("y", "masked_fill.Scalar", json::array({ self(), arg("mask", T("m")), arg("value", F(-7.5)) }),
                         { 2, 3 }, y);
                     return c;
                 } });
}

} // namespace

const std::vector<OpCase>& operatorCases()
{
    static const std::vector<OpCase> cases = [] {
        std::vector<OpCase> v;
        elementwise(v);
        return v;
    }();
    return cases;
}

const std::map<std::string, std::string>& unreachableKernels()
{
    static const std::map<std::string, std::string> reasons {};
    return reasons;
}

} // namespace pte::test
