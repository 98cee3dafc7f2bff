// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "operatorcases.h"

#include "pte/dumpreader.h"
#include "testutils.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <set>

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
    v.push_back(unary(
        "aten::abs.out", "abs.default", [](double x) { return std::fabs(x); }, -2, 2));
    v.push_back(unary(
        "aten::acos.out", "acos.default", [](double x) { return std::acos(x); }, -0.9, 0.9));
    v.push_back(unary(
        "aten::acosh.out", "acosh.default", [](double x) { return std::acosh(x); }, 1.1, 3));
    v.push_back(unary(
        "aten::asin.out", "asin.default", [](double x) { return std::asin(x); }, -0.9, 0.9));
    v.push_back(unary(
        "aten::asinh.out", "asinh.default", [](double x) { return std::asinh(x); }, -2, 2));
    v.push_back(unary(
        "aten::atan.out", "atan.default", [](double x) { return std::atan(x); }, -2, 2));
    v.push_back(unary(
        "aten::atanh.out", "atanh.default", [](double x) { return std::atanh(x); }, -0.9, 0.9));
    v.push_back(unary(
        "aten::ceil.out", "ceil.default", [](double x) { return std::ceil(x); }, -2, 2));
    v.push_back(unary(
        "aten::cos.out", "cos.default", [](double x) { return std::cos(x); }, -3, 3));
    v.push_back(unary(
        "aten::cosh.out", "cosh.default", [](double x) { return std::cosh(x); }, -2, 2));
    v.push_back(unary(
        "aten::erf.out", "erf.default", [](double x) { return std::erf(x); }, -2, 2));
    v.push_back(unary(
        "aten::exp.out", "exp.default", [](double x) { return std::exp(x); }, -2, 2));
    v.push_back(unary(
        "aten::expm1.out", "expm1.default", [](double x) { return std::expm1(x); }, -2, 2));
    v.push_back(unary(
        "aten::floor.out", "floor.default", [](double x) { return std::floor(x); }, -2, 2));
    v.push_back(unary(
        "aten::log.out", "log.default", [](double x) { return std::log(x); }, 0.1, 3));
    v.push_back(unary(
        "aten::log10.out", "log10.default", [](double x) { return std::log10(x); }, 0.1, 3));
    v.push_back(unary(
        "aten::log1p.out", "log1p.default", [](double x) { return std::log1p(x); }, -0.9, 3));
    v.push_back(unary(
        "aten::log2.out", "log2.default", [](double x) { return std::log2(x); }, 0.1, 3));
    v.push_back(unary(
        "aten::neg.out", "neg.default", [](double x) { return -x; }, -2, 2));
    v.push_back(unary(
        "aten::reciprocal.out", "reciprocal.default", [](double x) { return 1.0 / x; }, 0.5, 2));
    v.push_back(unary(
        "aten::relu.out", "relu.default", [](double x) { return x > 0 ? x : 0.0; }, -2, 2));
    // round: half to even, as torch.round.
    v.push_back(unary("aten::round.out", "round.default", [](double x) { return std::nearbyint(x); }, 0, 0, kFloat,
        kFloat, json::array(), { 0.5, 1.5, 2.5, -0.5, -1.7, 0.2 }));
    v.push_back(unary(
        "aten::rsqrt.out", "rsqrt.default", [](double x) { return 1.0 / std::sqrt(x); }, 0.1, 3));
    v.push_back(unary("aten::sigmoid.out", "sigmoid.default", sigmoid, -3, 3));
    v.push_back(unary("aten::sign.out", "sign.default", [](double x) { return double((x > 0) - (x < 0)); }, 0, 0,
        kFloat, kFloat, json::array(), { -1.5, 0, 2, 0.25, -0.125, 0 }));
    v.push_back(unary(
        "aten::sin.out", "sin.default", [](double x) { return std::sin(x); }, -3, 3));
    v.push_back(unary(
        "aten::sinh.out", "sinh.default", [](double x) { return std::sinh(x); }, -2, 2));
    v.push_back(unary(
        "aten::sqrt.out", "sqrt.default", [](double x) { return std::sqrt(x); }, 0, 3));
    v.push_back(unary(
        "aten::tan.out", "tan.default", [](double x) { return std::tan(x); }, -1.2, 1.2));
    v.push_back(unary(
        "aten::tanh.out", "tanh.default", [](double x) { return std::tanh(x); }, -2, 2));
    v.push_back(unary(
        "aten::trunc.out", "trunc.default", [](double x) { return std::trunc(x); }, -2, 2));
    v.push_back(unary(
        "aten::logit.out", "logit.default", [](double x) { return std::log(x / (1 - x)); }, 0.05, 0.95));
    v.push_back(unary("aten::isinf.out", "isinf.default", [](double x) { return double(std::isinf(x)); }, 0, 0, kFloat,
        kBool, json::array(), { 1, inf, -inf, nan, 0, -2 }));
    v.push_back(unary("aten::isnan.out", "isnan.default", [](double x) { return double(std::isnan(x)); }, 0, 0, kFloat,
        kBool, json::array(), { 1, inf, -inf, nan, 0, -2 }));
    v.push_back(unary(
        "aten::bitwise_not.out", "bitwise_not.default", [](double x) { return double(~std::int64_t(x)); }, -5, 5, kLong,
        kLong));
    v.push_back(unary("aten::logical_not.out", "logical_not.default", [](double x) { return double(x == 0); }, 0, 0,
        kFloat, kBool, json::array(), { 0, 1.5, -2, 0, 0.25, 3 }));
    v.push_back(unary(
        "aten::clamp.out", "clamp.default", [](double x) { return std::clamp(x, -0.5, 0.75); }, -2, 2, kFloat, kFloat,
        json::array({ arg("min", F(-0.5)), arg("max", F(0.75)) })));
    v.push_back(unary(
        "aten::hardtanh.out", "hardtanh.default", [](double x) { return std::clamp(x, -1.0, 1.0); }, -2,
        2)); // min_val and max_val at their defaults (-1, 1)
    v.push_back(unary(
        "aten::leaky_relu.out", "leaky_relu.default", [](double x) { return x > 0 ? x : 0.2 * x; }, -2, 2, kFloat,
        kFloat, json::array({ arg("negative_slope", F(0.2)) })));
    v.push_back(unary(
        "aten::elu.out", "elu.default", [](double x) { return x > 0 ? x : std::expm1(x); }, -2, 2));
    v.push_back(unary(
        "aten::gelu.out", "gelu.default", [](double x) { return 0.5 * x * (1 + std::erf(x / std::sqrt(2.0))); }, -3,
        3));
    {
        auto tanhGelu = unary(
            "aten::gelu.out", "gelu.default",
            [](double x) { return 0.5 * x * (1 + std::tanh(std::sqrt(2 / M_PI) * (x + 0.044715 * x * x * x))); }, -3, 3,
            kFloat, kFloat, json::array({ kwarg("approximate", S("tanh")) }));
        tanhGelu.variant = "approximate=tanh";
        v.push_back(tanhGelu);
    }
    v.push_back(unary(
        "aten::pow.Tensor_Scalar_out", "pow.Tensor_Scalar", [](double x) { return std::pow(x, 3.0); }, -2, 2, kFloat,
        kFloat, json::array({ arg("exponent", I(3)) })));
    v.push_back(
        { "aten::pow.Scalar_out", "aten.pow.Scalar (scalar base)", [] {
             Case c;
             c.in("x", { 2, 3 }, vals(6, 11, -2, 2));
             std::vector<double> y;
             for (const double e : c.inputs[0].values)
                 y.push_back(std::pow(2.0, e));
             c.op("y", "pow.Scalar", json::array({ arg("self", F(2.0)), arg("exponent", T("x")) }), { 2, 3 }, y);
             return c;
         } });
    v.push_back(binary(
        "aten::pow.Tensor_Tensor_out", "pow.Tensor_Tensor", [](double a, double b) { return std::pow(a, b); }, kFloat,
        kFloat, kFloat, { 0.5, 2 }, { -2, 2 }, "self", "exponent"));
    v.push_back(
        { "aten::clamp.Tensor_out", "aten.clamp.Tensor", [] {
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
    v.push_back(
        binary("aten::floor_divide.out", "floor_divide.default", floorDiv, kLong, kLong, kLong, { -9, 9 }, { 1, 4 }));
    v.push_back(
        binary("aten::remainder.Tensor_out", "remainder.Tensor", pyMod, kFloat, kFloat, kFloat, { -3, 3 }, { 0.5, 2 }));
    v.push_back(binary("aten::fmod.Tensor_out", "fmod.Tensor", [](double a, double b) { return std::fmod(a, b); },
        kFloat, kFloat, kFloat, { -3, 3 }, { 0.5, 2 }));
    for (const auto& [name, f] : std::vector<std::pair<std::string, Fn2>> {
             { "bitwise_and", [](double a, double b) { return double(std::int64_t(a) & std::int64_t(b)); } },
             { "bitwise_or", [](double a, double b) { return double(std::int64_t(a) | std::int64_t(b)); } },
             { "bitwise_xor", [](double a, double b) { return double(std::int64_t(a) ^ std::int64_t(b)); } } }) {
        v.push_back(
            binary("aten::" + name + ".Tensor_out", name + ".Tensor", f, kLong, kLong, kLong, { 0, 15 }, { 0, 15 }));
        v.push_back(withScalar("aten::" + name + ".Scalar_out", name + ".Scalar", f, I(6), 6, kLong, kLong, { 0, 15 }));
    }
    v.push_back(binary("aten::bitwise_left_shift.Tensor_out", "bitwise_left_shift.Tensor",
        [](double a, double b) { return double(std::int64_t(a) << std::int64_t(b)); }, kLong, kLong, kLong, { -8, 8 },
        { 0, 3 }));
    v.push_back(binary("aten::bitwise_right_shift.Tensor_out", "bitwise_right_shift.Tensor",
        [](double a, double b) { return double(std::int64_t(a) >> std::int64_t(b)); }, kLong, kLong, kLong, { -64, 64 },
        { 0, 3 }));
    v.push_back(withScalar("aten::bitwise_left_shift.Tensor_Scalar_out", "bitwise_left_shift.Tensor_Scalar",
        [](double a, double b) { return double(std::int64_t(a) << std::int64_t(b)); }, I(2), 2, kLong, kLong,
        { -8, 8 }));
    v.push_back(withScalar("aten::bitwise_right_shift.Tensor_Scalar_out", "bitwise_right_shift.Tensor_Scalar",
        [](double a, double b) { return double(std::int64_t(a) >> std::int64_t(b)); }, I(2), 2, kLong, kLong,
        { -64, 64 }));
    for (const auto& [name, f] : std::vector<std::pair<std::string, Fn2>> {
             { "logical_and", [](double a, double b) { return double(a != 0 && b != 0); } },
             { "logical_or", [](double a, double b) { return double(a != 0 || b != 0); } },
             { "logical_xor", [](double a, double b) { return double((a != 0) != (b != 0)); } } })
        v.push_back(binary("aten::" + name + ".out", name + ".default", f, kBool, kBool, kBool));
    for (const auto& [name, f] :
        std::vector<std::pair<std::string, Fn2>> { { "eq", [](double a, double b) { return double(a == b); } },
            { "ne", [](double a, double b) { return double(a != b); } },
            { "lt", [](double a, double b) { return double(a < b); } },
            { "le", [](double a, double b) { return double(a <= b); } },
            { "gt", [](double a, double b) { return double(a > b); } },
            { "ge", [](double a, double b) { return double(a >= b); } } }) {
        // Integers, so that equal elements occur.
        v.push_back(
            binary("aten::" + name + ".Tensor_out", name + ".Tensor", f, kLong, kLong, kBool, { 0, 3 }, { 0, 3 }));
        v.push_back(withScalar("aten::" + name + ".Scalar_out", name + ".Scalar", f, I(1), 1, kLong, kBool, { 0, 3 }));
    }
    // Python scalars for Tensor parameters: the Scalar overloads, as the edge dialect picks them.
    v.push_back(withScalar("aten::add.Scalar_out", "add.Tensor", add, F(1.5), 1.5));
    v.push_back(withScalar(
        "aten::sub.Scalar_out", "sub.Tensor", [](double a, double b) { return a - b; }, F(0.75), 0.75));
    v.push_back(withScalar(
        "aten::mul.Scalar_out", "mul.Tensor", [](double a, double b) { return a * b; }, F(-2.5), -2.5));
    v.push_back(withScalar(
        "aten::div.Scalar_out", "div.Tensor", [](double a, double b) { return a / b; }, F(4), 4));
    v.push_back(withScalar(
        "aten::rsub.Scalar_out", "rsub.Scalar", [](double a, double b) { return b - a; }, F(1), 1));
    v.push_back(
        withScalar("aten::remainder.Scalar_out", "remainder.Scalar", pyMod, F(0.75), 0.75, kFloat, kFloat, { -3, 3 }));
    v.push_back(withScalar("aten::fmod.Scalar_out", "fmod.Scalar", [](double a, double b) { return std::fmod(a, b); },
        F(0.75), 0.75, kFloat, kFloat, { -3, 3 }));
    v.push_back({ "aten::div.out_mode", "aten.div.Tensor_mode (rounding_mode='floor')", [] {
                     Case c;
                     c.in("a", { 2, 3 }, vals(6, 21, -5, 5));
                     c.in("b", { 3 }, { 2, -1.5, 0.75 });
                     c.op("y", "div.Tensor_mode",
                         json::array({ arg("self", T("a")), arg("other", T("b")), kwarg("rounding_mode", S("floor")) }),
                         { 2, 3 },
                         broadcast(c.inputs[0].values, { 2, 3 }, c.inputs[1].values, { 3 }, { 2, 3 }, floorDiv));
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
                         json::array({ arg("condition", T("cond")), arg("self", T("a")), arg("other", T("b")) }),
                         { 2, 3 }, y);
                     return c;
                 } });
    v.push_back({ "aten::masked_fill.Scalar_out", "aten.masked_fill.Scalar", [] {
                     Case c;
                     c.in("x", { 2, 3 }, vals(6, 25, -2, 2));
                     c.in("m", { 3 }, { 0, 1, 0 }, kBool);
                     std::vector<double> y = c.inputs[0].values;
                     y[1] = y[4] = -7.5;
                     c.op("y", "masked_fill.Scalar",
                         json::array({ self(), arg("mask", T("m")), arg("value", F(-7.5)) }), { 2, 3 }, y);
                     return c;
                 } });
}

/** One case: `make` fills a Case; the kernel, the ATen description, an optional variant and note. */
OpCase make(
    std::string kernel, std::string aten, std::function<Case()> f, std::string variant = {}, std::string note = {})
{
    return { std::move(kernel), std::move(aten), std::move(f), std::move(variant), std::move(note) };
}

void reductions(std::vector<OpCase>& v)
{
    const Shape s { 2, 3, 4 };
    auto x24 = [](std::uint32_t seed) { return vals(24, seed, -2, 2); };
    auto maxOf = [](const std::vector<double>& g) { return *std::max_element(g.begin(), g.end()); };
    auto minOf = [](const std::vector<double>& g) { return *std::min_element(g.begin(), g.end()); };
    auto sumOf = [](const std::vector<double>& g) { return std::accumulate(g.begin(), g.end(), 0.0); };
    auto meanOf = [=](const std::vector<double>& g) { return sumOf(g) / double(g.size()); };
    auto varOf = [=](const std::vector<double>& g, double correction) {
        const double m = meanOf(g);
        double acc = 0;
        for (const double e : g)
            acc += (e - m) * (e - m);
        return acc / (double(g.size()) - correction);
    };
    auto argOf = [](const Groups& g, bool largest) {
        std::vector<double> r;
        for (std::size_t k = 0; k < g.values.size(); ++k) {
            std::size_t best = 0;
            for (std::size_t i = 1; i < g.values[k].size(); ++i)
                if (largest ? g.values[k][i] > g.values[k][best] : g.values[k][i] < g.values[k][best])
                    best = i;
            r.push_back(double(g.along[k][best]));
        }
        return r;
    };
    for (const bool largest : { true, false }) {
        const std::string a = largest ? "amax" : "amin";
        v.push_back(make("aten::" + a + ".out", "aten." + a + " (dim=[1])", [=] {
            Case c;
            c.in("x", s, x24(31));
            const auto g = reduce(c.inputs[0].values, s, { 1 }, false);
            c.op("y", a + ".default", json::array({ self(), arg("dim", Ints({ 1 })) }), g.shape,
                reduceWith(g, largest ? std::function<double(const std::vector<double>&)>(maxOf) : minOf));
            return c;
        }));
        const std::string am = largest ? "argmax" : "argmin";
        v.push_back(make("aten::" + am + ".out", "aten." + am + " (dim=1)", [=] {
            Case c;
            c.in("x", s, x24(32));
            const auto g = reduce(c.inputs[0].values, s, { 1 }, false);
            c.op("y", am + ".default", json::array({ self(), arg("dim", I(1)) }), g.shape, argOf(g, largest), kLong);
            return c;
        }));
        const std::string mm = largest ? "max" : "min";
        v.push_back(make("aten::" + mm + (largest ? ".dim_max" : ".dim_min"), "aten." + mm + ".dim (dim=2)", [=] {
            Case c;
            c.in("x", s, x24(33));
            const auto g = reduce(c.inputs[0].values, s, { 2 }, false);
            c.dump.tupleNode("r", mm + ".dim", json::array({ self(), arg("dim", I(2)) }),
                { { "values", g.shape }, { "indices", g.shape } }, kFloat, { kFloat, kLong });
            c.dump.output("values");
            c.dump.output("indices");
            c.expect(
                g.shape, reduceWith(g, largest ? std::function<double(const std::vector<double>&)>(maxOf) : minOf));
            c.expect(g.shape, argOf(g, largest), kLong);
            return c;
        }));
        v.push_back(make("aten::" + mm + ".unary_out", "aten." + mm + " (all elements)", [=] {
            Case c;
            c.in("x", s, x24(34));
            const auto& x = c.inputs[0].values;
            c.op("y", mm + ".default", json::array({ self() }), {},
                { largest ? *std::max_element(x.begin(), x.end()) : *std::min_element(x.begin(), x.end()) });
            return c;
        }));
    }
    v.push_back(make("aten::mean.out", "aten.mean.dim (dim=[-1], keepdim=True)", [=] {
        Case c;
        c.in("x", s, x24(35));
        const auto g = reduce(c.inputs[0].values, s, { -1 }, true);
        c.op("y", "mean.dim", json::array({ self(), arg("dim", Ints({ -1 })), arg("keepdim", B(true)) }), g.shape,
            reduceWith(g, meanOf));
        return c;
    }));
    v.push_back(make("aten::mean.dtype_out", "aten.mean (all elements)", [=] {
        Case c;
        c.in("x", s, x24(36));
        c.op("y", "mean.default", json::array({ self() }), {}, { meanOf(c.inputs[0].values) });
        return c;
    }));
    v.push_back(make("aten::sum.IntList_out", "aten.sum.dim_IntList (dim=[0, 2])", [=] {
        Case c;
        c.in("x", s, x24(37));
        const auto g = reduce(c.inputs[0].values, s, { 0, 2 }, false);
        c.op(
            "y", "sum.dim_IntList", json::array({ self(), arg("dim", Ints({ 0, 2 })) }), g.shape, reduceWith(g, sumOf));
        return c;
    }));
    v.push_back(make("aten::prod.out", "aten.prod (all elements)", [=] {
        Case c;
        c.in("x", { 2, 3 }, vals(6, 38, 0.5, 1.5));
        double p = 1;
        for (const double e : c.inputs[0].values)
            p *= e;
        c.op("y", "prod.default", json::array({ self() }), {}, { p });
        return c;
    }));
    v.push_back(make("aten::prod.int_out", "aten.prod.dim_int (dim=1)", [=] {
        Case c;
        c.in("x", s, vals(24, 39, 0.5, 1.5));
        const auto g = reduce(c.inputs[0].values, s, { 1 }, false);
        c.op("y", "prod.dim_int", json::array({ self(), arg("dim", I(1)) }), g.shape,
            reduceWith(g, [](const std::vector<double>& e) {
                return std::accumulate(e.begin(), e.end(), 1.0, std::multiplies<>());
            }));
        return c;
    }));
    v.push_back(make("aten::var.correction_out", "aten.var.correction (dim=[1], correction omitted = 1)", [=] {
        Case c;
        c.in("x", s, x24(40));
        const auto g = reduce(c.inputs[0].values, s, { 1 }, false);
        c.op("y", "var.correction", json::array({ self(), arg("dim", Ints({ 1 })) }), g.shape,
            reduceWith(g, [=](const std::vector<double>& e) { return varOf(e, 1); }));
        return c;
    }));
    v.push_back(make("aten::var.out", "aten.var.dim (unbiased=False, keepdim=True)", [=] {
        Case c;
        c.in("x", s, x24(41));
        const auto g = reduce(c.inputs[0].values, s, { 1 }, true);
        c.op("y", "var.dim",
            json::array({ self(), arg("dim", Ints({ 1 })), arg("unbiased", B(false)), arg("keepdim", B(true)) }),
            g.shape, reduceWith(g, [=](const std::vector<double>& e) { return varOf(e, 0); }));
        return c;
    }));
    v.push_back(make(
        "aten::var.correction_out",
        "aten._native_batch_norm_legit_functional (training=True), decomposed as torch's core decomposition",
        [] {
            // Training-mode BatchNorm as torch.export writes it: normalised with the batch's biased variance; the new
            // running statistics are written back into the buffers.
            Case c;
            const std::vector<double> gamma { 1, 0.5, -1 }, beta { 0, 0.25, 0.5 };
            const std::vector<double> rm0 { 0.25, -0.5, 0.125 }, rv0 { 1.5, 0.75, 2 };
            c.dump.weight("p_w", "bn.weight", { 3 }, gamma);
            c.dump.weight("p_b", "bn.bias", { 3 }, beta);
            c.dump.weight("b_rm", "bn.running_mean", { 3 }, rm0, false);
            c.dump.weight("b_rv", "bn.running_var", { 3 }, rv0, false);
            c.in("x", { 2, 3, 2 }, vals(12, 47, -2, 2));
            c.dump.tupleNode("bn", "_native_batch_norm_legit_functional.default",
                json::array({ arg("input", T("x")), arg("weight", T("p_w")), arg("bias", T("p_b")),
                    arg("running_mean", T("b_rm")), arg("running_var", T("b_rv")), arg("training", B(true)),
                    arg("momentum", F(0.1)), arg("eps", F(1e-5)) }),
                { { "y", { 2, 3, 2 } }, { "save_mean", { 3 } }, { "save_rstd", { 3 } }, { "rm", { 3 } },
                    { "rv", { 3 } } });
            c.dump.mutation("rm", "bn.running_mean");
            c.dump.mutation("rv", "bn.running_var");
            c.dump.output("y");
            // The module also returns its buffers after the update (the graph outputs the same nodes again).
            c.dump.output("rm");
            c.dump.output("rv");
            const auto& x = c.inputs[0].values;
            std::vector<double> y(12), rm(3), rv(3);
            for (std::size_t ch = 0; ch < 3; ++ch) {
                double m = 0, var = 0;
                for (std::size_t i = 0; i < 12; ++i)
                    if ((i / 2) % 3 == ch)
                        m += x[i] / 4;
                for (std::size_t i = 0; i < 12; ++i)
                    if ((i / 2) % 3 == ch)
                        var += (x[i] - m) * (x[i] - m) / 4;
                for (std::size_t i = 0; i < 12; ++i)
                    if ((i / 2) % 3 == ch)
                        y[i] = (x[i] - m) / std::sqrt(var + 1e-5) * gamma[ch] + beta[ch];
                // Running statistics (torch's native_batch_norm with momentum 0.1): the mean of the batch, and the
                // variance unbiased, n / (n - 1) with n = 4 elements per channel.
                rm[ch] = 0.9 * rm0[ch] + 0.1 * m;
                rv[ch] = 0.9 * rv0[ch] + 0.1 * var * 4.0 / 3.0;
            }
            c.expect({ 2, 3, 2 }, y);
            c.expect({ 3 }, rm);
            c.expect({ 3 }, rv);
            return c;
        },
        "training batch norm"));
    v.push_back(make("aten::var_mean.correction_out", "aten.var_mean.correction (dim=[2], correction=0)", [=] {
        Case c;
        c.in("x", s, x24(42));
        const auto g = reduce(c.inputs[0].values, s, { 2 }, false);
        c.dump.tupleNode("r", "var_mean.correction",
            json::array({ self(), arg("dim", Ints({ 2 })), kwarg("correction", I(0)) }),
            { { "var", g.shape }, { "mean", g.shape } });
        c.dump.output("var");
        c.dump.output("mean");
        c.expect(g.shape, reduceWith(g, [=](const std::vector<double>& e) { return varOf(e, 0); }));
        c.expect(g.shape, reduceWith(g, meanOf));
        return c;
    }));
    const std::vector<double> bools { 0, 0, 1, 0, 0, 0 };
    v.push_back(make("aten::any.all_out", "aten.any (all elements)", [=] {
        Case c;
        c.in("b", { 2, 3 }, bools, kBool);
        c.op("y", "any.default", json::array({ arg("self", T("b")) }), {}, { 1 }, kBool);
        return c;
    }));
    v.push_back(make("aten::any.out", "aten.any.dim (dim=1)", [=] {
        Case c;
        c.in("b", { 2, 3 }, bools, kBool);
        c.op("y", "any.dim", json::array({ arg("self", T("b")), arg("dim", I(1)) }), { 2 }, { 1, 0 }, kBool);
        return c;
    }));
    v.push_back(make("aten::any.dims_out", "aten.any.dims (dim=[0])", [=] {
        Case c;
        c.in("b", { 2, 3 }, bools, kBool);
        c.op("y", "any.dims", json::array({ arg("self", T("b")), arg("dim", Ints({ 0 })) }), { 3 }, { 0, 0, 1 }, kBool);
        return c;
    }));
    v.push_back(make("aten::cumsum.out", "aten.cumsum (dim=1)", [=] {
        Case c;
        c.in("x", s, x24(43));
        std::vector<double> y(24);
        const auto& x = c.inputs[0].values;
        for (std::size_t i = 0; i < 24; ++i) {
            const auto co = coordsOf(i, s);
            double acc = 0;
            for (std::int64_t k = 0; k <= co[1]; ++k)
                acc += x[indexOf({ co[0], k, co[2] }, s)];
            y[i] = acc;
        }
        c.op("y", "cumsum.default", json::array({ self(), arg("dim", I(1)) }), s, y);
        return c;
    }));
    for (const bool log : { false, true })
        v.push_back(make(log ? "aten::_log_softmax.out" : "aten::_softmax.out",
            std::string("aten.") + (log ? "log_softmax" : "softmax") + ".int (dim=1)", [=] {
                Case c;
                c.in("x", s, x24(log ? 44 : 45));
                const auto& x = c.inputs[0].values;
                std::vector<double> y(24);
                for (std::size_t i = 0; i < 24; ++i) {
                    const auto co = coordsOf(i, s);
                    double m = -1e300, sum = 0;
                    for (std::int64_t k = 0; k < 3; ++k)
                        m = std::max(m, x[indexOf({ co[0], k, co[2] }, s)]);
                    for (std::int64_t k = 0; k < 3; ++k)
                        sum += std::exp(x[indexOf({ co[0], k, co[2] }, s)] - m);
                    y[i] = log ? x[i] - m - std::log(sum) : std::exp(x[i] - m) / sum;
                }
                c.op("y", log ? "log_softmax.int" : "softmax.int", json::array({ self(), arg("dim", I(1)) }), s, y);
                return c;
            }));
    v.push_back(make("aten::topk.values", "aten.topk (k=2)", [=] {
        Case c;
        c.in("x", { 2, 5 }, vals(10, 46, -2, 2));
        std::vector<double> val, idx;
        for (int r = 0; r < 2; ++r) {
            std::vector<std::pair<double, int>> row;
            for (int k = 0; k < 5; ++k)
                row.emplace_back(c.inputs[0].values[std::size_t(r * 5 + k)], k);
            std::sort(row.begin(), row.end(), [](auto a, auto b) { return a.first > b.first; });
            for (int k = 0; k < 2; ++k) {
                val.push_back(row[std::size_t(k)].first);
                idx.push_back(row[std::size_t(k)].second);
            }
        }
        c.dump.tupleNode("r", "topk.default", json::array({ self(), arg("k", I(2)) }),
            { { "values", { 2, 2 } }, { "indices", { 2, 2 } } }, kFloat, { kFloat, kLong });
        c.dump.output("values");
        c.dump.output("indices");
        c.expect({ 2, 2 }, val);
        c.expect({ 2, 2 }, idx, kLong);
        return c;
    }));
}

/** y = the elements of x (shape `in`) at positions `from(out index)`, for copies of views and other gathers. */
std::vector<double> gathered(
    const std::vector<double>& x, const Shape& out, const std::function<std::size_t(std::vector<std::int64_t>)>& from)
{
    std::vector<double> y(numel(out));
    for (std::size_t i = 0; i < y.size(); ++i)
        y[i] = x[from(coordsOf(i, out))];
    return y;
}

void shapes(std::vector<OpCase>& v)
{
    auto copyCase = [](std::string kernel, std::string target, Shape in, json extra, Shape out,
                        std::function<std::size_t(std::vector<std::int64_t>)> from, std::string aten = {}) {
        return make(kernel, aten.empty() ? "aten." + target : aten, [=] {
            Case c;
            c.in("x", in, vals(numel(in), seedOf(kernel), -2, 2));
            json args = json::array({ self() });
            for (const auto& e : extra)
                args.push_back(e);
            c.op("y", target, args, out, gathered(c.inputs[0].values, out, from));
            return c;
        });
    };
    auto same = [](Shape s) { return [s](std::vector<std::int64_t> c) { return indexOf(c, s); }; };
    v.push_back(copyCase("aten::alias_copy.out", "alias.default", { 2, 3 }, json::array(), { 2, 3 }, same({ 2, 3 })));
    v.push_back(copyCase("aten::detach_copy.out", "detach.default", { 2, 3 }, json::array(), { 2, 3 }, same({ 2, 3 })));
    v.push_back(copyCase("aten::as_strided_copy.out", "as_strided.default", { 2, 3 },
        json::array({ arg("size", Ints({ 3, 2 })), arg("stride", Ints({ 1, 3 })) }), { 3, 2 },
        [](std::vector<std::int64_t> c) { return std::size_t(c[0] + 3 * c[1]); }));
    v.push_back(copyCase("aten::diagonal_copy.out", "diagonal.default", { 3, 4 }, json::array(), { 3 },
        [](std::vector<std::int64_t> c) { return std::size_t(c[0] * 4 + c[0]); }));
    v.push_back(
        copyCase("aten::expand_copy.out", "expand.default", { 3, 1 }, json::array({ arg("size", Ints({ 3, 4 })) }),
            { 3, 4 }, [](std::vector<std::int64_t> c) { return std::size_t(c[0]); }));
    v.push_back(copyCase("aten::narrow_copy.out", "narrow_copy.default", { 3, 4 },
        json::array({ arg("dim", I(1)), arg("start", I(1)), arg("length", I(2)) }), { 3, 2 },
        [](std::vector<std::int64_t> c) { return std::size_t(c[0] * 4 + c[1] + 1); }));
    v.push_back(copyCase(
        "aten::permute_copy.out", "permute.default", { 2, 3, 4 }, json::array({ arg("dims", Ints({ 2, 0, 1 })) }),
        { 4, 2, 3 },
        [](std::vector<std::int64_t> c) {
            return indexOf({ c[1], c[2], c[0] }, { 2, 3, 4 });
        },
        "aten.permute; aten.t; aten.transpose.int"));
    v.push_back(copyCase("aten::select_copy.int_out", "select.int", { 3, 4 },
        json::array({ arg("dim", I(1)), arg("index", I(-1)) }), { 3 },
        [](std::vector<std::int64_t> c) { return std::size_t(c[0] * 4 + 3); }));
    v.push_back(copyCase("aten::slice_copy.Tensor_out", "slice.Tensor", { 4, 3 },
        json::array({ arg("dim", I(0)), arg("start", I(1)), arg("end", I(3)) }), { 2, 3 },
        [](std::vector<std::int64_t> c) { return std::size_t((c[0] + 1) * 3 + c[1]); }));
    v.push_back(copyCase("aten::squeeze_copy.dim_out", "squeeze.dim", { 2, 1, 3 }, json::array({ arg("dim", I(1)) }),
        { 2, 3 }, same({ 2, 3 })));
    v.push_back(copyCase("aten::squeeze_copy.dims_out", "squeeze.dims", { 2, 1, 3, 1 },
        json::array({ arg("dim", Ints({ 1, 3 })) }), { 2, 3 }, same({ 2, 3 })));
    v.push_back(copyCase("aten::t_copy.out", "t_copy.default", { 2, 3 }, json::array(), { 3, 2 },
        [](std::vector<std::int64_t> c) { return std::size_t(c[1] * 3 + c[0]); }));
    v.push_back(copyCase("aten::transpose_copy.int_out", "transpose_copy.int", { 2, 3, 4 },
        json::array({ arg("dim0", I(0)), arg("dim1", I(2)) }), { 4, 3, 2 }, [](std::vector<std::int64_t> c) {
            return indexOf({ c[2], c[1], c[0] }, { 2, 3, 4 });
        }));
    v.push_back(copyCase("aten::unsqueeze_copy.out", "unsqueeze.default", { 2, 3 }, json::array({ arg("dim", I(1)) }),
        { 2, 1, 3 }, [](std::vector<std::int64_t> c) { return std::size_t(c[0] * 3 + c[2]); }));
    v.push_back(copyCase("aten::view_copy.out", "view.default", { 2, 3 }, json::array({ arg("size", Ints({ 3, 2 })) }),
        { 3, 2 }, same({ 3, 2 }), "aten.view; aten.reshape; aten.flatten; aten._unsafe_view"));
    v.push_back(copyCase("aten::unfold_copy.out", "unfold.default", { 2, 5 },
        json::array({ arg("dimension", I(1)), arg("size", I(2)), arg("step", I(2)) }), { 2, 2, 2 },
        [](std::vector<std::int64_t> c) { return std::size_t(c[0] * 5 + c[1] * 2 + c[2]); }));
    v.push_back(copyCase("aten::flip.out", "flip.default", { 2, 3 }, json::array({ arg("dims", Ints({ 1 })) }),
        { 2, 3 }, [](std::vector<std::int64_t> c) { return std::size_t(c[0] * 3 + 2 - c[1]); }));
    v.push_back(copyCase("aten::roll.out", "roll.default", { 2, 3 },
        json::array({ arg("shifts", Ints({ 1 })), arg("dims", Ints({ 1 })) }), { 2, 3 },
        [](std::vector<std::int64_t> c) { return std::size_t(c[0] * 3 + (c[1] + 2) % 3); }));
    v.push_back(
        copyCase("aten::repeat.out", "repeat.default", { 2, 3 }, json::array({ arg("repeats", Ints({ 2, 1 })) }),
            { 4, 3 }, [](std::vector<std::int64_t> c) { return std::size_t((c[0] % 2) * 3 + c[1]); }));
    v.push_back(copyCase("aten::pixel_shuffle.out", "pixel_shuffle.default", { 1, 4, 2, 2 },
        json::array({ arg("upscale_factor", I(2)) }), { 1, 1, 4, 4 }, [](std::vector<std::int64_t> c) {
            return indexOf({ 0, (c[2] % 2) * 2 + c[3] % 2, c[2] / 2, c[3] / 2 }, { 1, 4, 2, 2 });
        }));
    v.push_back(copyCase("aten::pixel_unshuffle.out", "pixel_unshuffle.default", { 1, 1, 4, 4 },
        json::array({ arg("downscale_factor", I(2)) }), { 1, 4, 2, 2 }, [](std::vector<std::int64_t> c) {
            return indexOf({ 0, 0, c[2] * 2 + c[1] / 2, c[3] * 2 + c[1] % 2 }, { 1, 1, 4, 4 });
        }));
    auto reflect = [](std::int64_t i, std::int64_t n) { return i < 0 ? -i : i >= n ? 2 * (n - 1) - i : i; };
    auto replicate = [](std::int64_t i, std::int64_t n) { return std::clamp<std::int64_t>(i, 0, n - 1); };
    for (const bool refl : { true, false }) {
        const std::string kind = refl ? "reflection_pad" : "replication_pad";
        auto at = [=](std::int64_t i, std::int64_t n) { return refl ? reflect(i, n) : replicate(i, n); };
        v.push_back(copyCase("aten::" + kind + "1d.out", kind + "1d.default", { 1, 2, 4 },
            json::array({ arg("padding", Ints({ 2, 1 })) }), { 1, 2, 7 },
            [=](std::vector<std::int64_t> c) { return std::size_t(c[1] * 4 + at(c[2] - 2, 4)); }));
        v.push_back(copyCase("aten::" + kind + "2d.out", kind + "2d.default", { 1, 1, 3, 3 },
            json::array({ arg("padding", Ints({ 1, 2, 2, 1 })) }), { 1, 1, 6, 6 },
            [=](std::vector<std::int64_t> c) { return std::size_t(at(c[2] - 2, 3) * 3 + at(c[3] - 1, 3)); }));
        v.push_back(copyCase("aten::" + kind + "3d.out", kind + "3d.default", { 1, 1, 2, 3, 3 },
            json::array({ arg("padding", Ints({ 1, 1, 1, 1, 1, 0 })) }), { 1, 1, 3, 5, 5 },
            [=](std::vector<std::int64_t> c) {
                return std::size_t((at(c[2] - 1, 2) * 3 + at(c[3] - 1, 3)) * 3 + at(c[4] - 1, 3));
            }));
    }
    v.push_back(make("aten::constant_pad_nd.out", "aten.constant_pad_nd", [] {
        Case c;
        c.in("x", { 2, 3 }, vals(6, 51, -2, 2));
        std::vector<double> y;
        for (int r = 0; r < 2; ++r)
            for (int k = 0; k < 6; ++k)
                y.push_back(k >= 1 && k < 4 ? c.inputs[0].values[std::size_t(r * 3 + k - 1)] : 0.5);
        c.op("y", "constant_pad_nd.default", json::array({ self(), arg("pad", Ints({ 1, 2 })), arg("value", F(0.5)) }),
            { 2, 6 }, y);
        return c;
    }));
    v.push_back(make("aten::tril.out", "aten.tril", [] {
        Case c;
        c.in("x", { 3, 3 }, vals(9, 52, -2, 2));
        std::vector<double> y = c.inputs[0].values;
        for (int r = 0; r < 3; ++r)
            for (int k = r + 1; k < 3; ++k)
                y[std::size_t(r * 3 + k)] = 0;
        c.op("y", "tril.default", json::array({ self() }), { 3, 3 }, y);
        return c;
    }));
    v.push_back(make("aten::cat.out", "aten.cat (dim omitted: 0)", [] {
        Case c;
        c.in("a", { 2, 3 }, vals(6, 53, -2, 2));
        c.in("b", { 1, 3 }, vals(3, 54, -2, 2));
        std::vector<double> y = c.inputs[0].values;
        y.insert(y.end(), c.inputs[1].values.begin(), c.inputs[1].values.end());
        c.op("y", "cat.default", json::array({ arg("tensors", Tensors({ "a", "b" })) }), { 3, 3 }, y);
        return c;
    }));
    v.push_back(make("aten::stack.out", "aten.stack (dim=1)", [] {
        Case c;
        c.in("a", { 3 }, vals(3, 55, -2, 2));
        c.in("b", { 3 }, vals(3, 56, -2, 2));
        std::vector<double> y;
        for (int k = 0; k < 3; ++k) {
            y.push_back(c.inputs[0].values[std::size_t(k)]);
            y.push_back(c.inputs[1].values[std::size_t(k)]);
        }
        c.op("y", "stack.default", json::array({ arg("tensors", Tensors({ "a", "b" })), arg("dim", I(1)) }), { 3, 2 },
            y);
        return c;
    }));
    v.push_back(make("aten::split_copy.Tensor_out", "aten.split.Tensor (split_size=2)", [] {
        Case c;
        c.in("x", { 5, 3 }, vals(15, 57, -2, 2));
        const auto& x = c.inputs[0].values;
        c.dump.listNode("s", "split.Tensor", json::array({ self(), arg("split_size", I(2)) }),
            { { "p0", { 2, 3 } }, { "p1", { 2, 3 } }, { "p2", { 1, 3 } } });
        for (const char* o : { "p0", "p1", "p2" })
            c.dump.output(o);
        c.expect({ 2, 3 }, { x.begin(), x.begin() + 6 });
        c.expect({ 2, 3 }, { x.begin() + 6, x.begin() + 12 });
        c.expect({ 1, 3 }, { x.begin() + 12, x.end() });
        return c;
    }));
    v.push_back(make("aten::split_with_sizes_copy.out", "aten.split_with_sizes ([1, 2], dim=1)", [] {
        Case c;
        c.in("x", { 2, 3 }, vals(6, 58, -2, 2));
        const auto& x = c.inputs[0].values;
        c.dump.listNode("s", "split_with_sizes.default",
            json::array({ self(), arg("split_sizes", Ints({ 1, 2 })), arg("dim", I(1)) }),
            { { "p0", { 2, 1 } }, { "p1", { 2, 2 } } });
        c.dump.output("p0");
        c.dump.output("p1");
        c.expect({ 2, 1 }, { x[0], x[3] });
        c.expect({ 2, 2 }, { x[1], x[2], x[4], x[5] });
        return c;
    }));
    v.push_back(make("aten::unbind_copy.int_out", "aten.unbind.int", [] {
        Case c;
        c.in("x", { 3, 2 }, vals(6, 59, -2, 2));
        const auto& x = c.inputs[0].values;
        c.dump.listNode(
            "s", "unbind.int", json::array({ self() }), { { "u0", { 2 } }, { "u1", { 2 } }, { "u2", { 2 } } });
        for (int k = 0; k < 3; ++k) {
            c.dump.output("u" + std::to_string(k));
            c.expect({ 2 }, { x[std::size_t(2 * k)], x[std::size_t(2 * k + 1)] });
        }
        return c;
    }));
    v.push_back(make("aten::copy.out", "aten.copy (functional x.copy_(src))", [] {
        Case c;
        c.in("x", { 2, 3 }, vals(6, 60, -2, 2));
        c.in("src", { 3 }, vals(3, 61, -2, 2));
        const auto& src = c.inputs[1].values;
        c.op("y", "copy.default", json::array({ self(), arg("src", T("src")) }), { 2, 3 },
            { src[0], src[1], src[2], src[0], src[1], src[2] });
        return c;
    }));
    v.push_back(make("aten::copy_", "buffer mutation (write-back of a mutated buffer)", [] {
        // b += x, returned; the new value is written back into the buffer (copy_): after two runs it is b0 + 2x.
        Case c;
        const std::vector<double> b0 { 0.5, -1, 2 };
        c.dump.weight("b_acc", "acc", { 3 }, b0, false);
        c.in("x", { 3 }, vals(3, 62, -2, 2));
        c.dump.node("add", "add.Tensor", json::array({ arg("self", T("b_acc")), arg("other", T("x")) }), { 3 });
        c.dump.mutation("add", "acc");
        c.dump.output("add");
        std::vector<double> y;
        for (int k = 0; k < 3; ++k)
            y.push_back(b0[std::size_t(k)] + 2 * c.inputs[0].values[std::size_t(k)]);
        c.expect({ 3 }, y);
        c.runs = 2;
        return c;
    }));
    v.push_back(make("aten::lift_fresh_copy.out", "aten.lift_fresh_copy (a torch.tensor constant)", [] {
        Case c;
        c.dump.constant("c_lifted_tensor_0", "lifted_tensor_0", { 3 }, { 1.5, -2, 0.25 });
        c.in("x", { 3 }, vals(3, 63, -2, 2));
        c.dump.node("lift", "lift_fresh_copy.default", json::array({ arg("self", T("c_lifted_tensor_0")) }), { 3 });
        std::vector<double> y { 1.5, -2, 0.25 };
        for (int k = 0; k < 3; ++k)
            y[std::size_t(k)] += c.inputs[0].values[std::size_t(k)];
        c.op("y", "add.Tensor", json::array({ arg("self", T("x")), arg("other", T("lift")) }), { 3 }, y);
        return c;
    }));
}

void creation(std::vector<OpCase>& v)
{
    v.push_back(make("aten::arange.out", "aten.arange (end=5)", [] {
        Case c;
        c.op("y", "arange.default", json::array({ arg("end", I(5)) }), { 5 }, { 0, 1, 2, 3, 4 }, kLong);
        return c;
    }));
    v.push_back(make("aten::arange.start_out", "aten.arange.start_step (1, 8, 2)", [] {
        Case c;
        c.op("y", "arange.start_step", json::array({ arg("start", I(1)), arg("end", I(8)), arg("step", I(2)) }), { 4 },
            { 1, 3, 5, 7 }, kLong);
        return c;
    }));
    for (const bool ones : { false, true })
        v.push_back(make(ones ? "aten::ones.out" : "aten::zeros.out", ones ? "aten.ones" : "aten.zeros", [ones] {
            Case c;
            c.op("y", ones ? "ones.default" : "zeros.default", json::array({ arg("size", Ints({ 2, 3 })) }), { 2, 3 },
                std::vector<double>(6, ones ? 1.0 : 0.0));
            return c;
        }));
    v.push_back(make("aten::full.out", "aten.full", [] {
        Case c;
        c.op("y", "full.default", json::array({ arg("size", Ints({ 2, 3 })), arg("fill_value", F(1.5)) }), { 2, 3 },
            std::vector<double>(6, 1.5));
        return c;
    }));
    v.push_back(make("aten::full_like.out", "aten.full_like; aten.zeros_like; aten.ones_like", [] {
        Case c;
        c.in("x", { 2, 3 }, vals(6, 71, -2, 2));
        c.op("y", "full_like.default", json::array({ self(), arg("fill_value", F(-2.5)) }), { 2, 3 },
            std::vector<double>(6, -2.5));
        return c;
    }));
    v.push_back(make("aten::scalar_tensor.out", "aten.scalar_tensor", [] {
        Case c;
        c.op("y", "scalar_tensor.default", json::array({ arg("s", F(2.5)) }), {}, { 2.5 });
        return c;
    }));
    // torch.empty(2, 3).fill_(1.5), functionalized: empty.memory_format, then fill.Scalar.
    auto emptyFilled = [] {
        Case c;
        c.dump.node("e", "empty.memory_format", json::array({ arg("size", Ints({ 2, 3 })) }), { 2, 3 });
        c.op("y", "fill.Scalar", json::array({ arg("self", T("e")), arg("value", F(1.5)) }), { 2, 3 },
            std::vector<double>(6, 1.5));
        return c;
    };
    v.push_back(make("dim_order_ops::_empty_dim_order.out", "aten.empty.memory_format", emptyFilled));
    v.push_back(make("aten::fill.Scalar_out", "aten.fill.Scalar", emptyFilled));
    v.push_back(make("aten::fill.Tensor_out", "aten.fill.Tensor", [] {
        Case c;
        c.in("x", { 2, 3 }, vals(6, 72, -2, 2));
        c.in("v", {}, { 0.75 });
        c.op("y", "fill.Tensor", json::array({ self(), arg("value", T("v")) }), { 2, 3 }, std::vector<double>(6, 0.75));
        return c;
    }));
    v.push_back(make("dim_order_ops::_to_dim_order_copy.out", "aten._to_copy (dtype=torch.int64); aten.to.dtype", [] {
        Case c;
        c.in("x", { 2, 3 }, vals(6, 73, -5, 5));
        std::vector<double> y;
        for (const double e : c.inputs[0].values)
            y.push_back(std::trunc(e));
        c.op("y", "_to_copy.default", json::array({ self(), kwarg("dtype", Dtype(kLong)) }), { 2, 3 }, y, kLong);
        return c;
    }));
    v.push_back(make("dim_order_ops::_clone_dim_order.out", "aten.clone; aten.contiguous", [] {
        Case c;
        c.in("x", { 2, 3 }, vals(6, 74, -2, 2));
        c.op("y", "clone.default", json::array({ self() }), { 2, 3 }, c.inputs[0].values);
        return c;
    }));
    for (const bool normal : { false, true }) {
        v.push_back(make(
            normal ? "aten::randn.out" : "aten::rand.out", normal ? "aten.randn" : "aten.rand",
            [=] {
                Case c;
                c.op("y", normal ? "randn.default" : "rand.default", json::array({ arg("size", Ints({ 64 })) }), { 64 },
                    {});
                c.check = [=](const std::vector<RunnerValue>& out) -> std::optional<std::string> {
                    if (out.size() != 1 || out[0].sizes != Shape { 64 } || out[0].values.size() != 64)
                        return std::string("expected one [64] output");
                    double sum = 0;
                    std::set<double> distinct;
                    for (const double e : out[0].values) {
                        if (!std::isfinite(e) || (!normal && (e < 0 || e >= 1)))
                            return "value " + std::to_string(e) + " outside the distribution's range";
                        sum += e;
                        distinct.insert(e);
                    }
                    const double mean = sum / 64;
                    if (distinct.size() < 60 || (normal ? std::fabs(mean) > 0.5 : std::fabs(mean - 0.5) > 0.2))
                        return "the values do not look like samples of the distribution (mean " + std::to_string(mean)
                            + ")";
                    return std::nullopt;
                };
                return c;
            },
            {}, "Random: values checked for range, mean and distinctness."));
    }
}

/** 2-D convolution by definition (groups, stride, padding, dilation), NCHW. */
std::vector<double> conv2d(const std::vector<double>& x, Shape xs, const std::vector<double>& w, Shape ws,
    const std::vector<double>& b, std::int64_t stride, std::int64_t pad, std::int64_t dil, std::int64_t groups,
    Shape& out)
{
    const auto N = xs[0], C = xs[1], H = xs[2], W = xs[3], O = ws[0], Cg = ws[1], KH = ws[2], KW = ws[3];
    const auto OH = (H + 2 * pad - dil * (KH - 1) - 1) / stride + 1;
    const auto OW = (W + 2 * pad - dil * (KW - 1) - 1) / stride + 1;
    out = { N, O, OH, OW };
    std::vector<double> y(numel(out));
    for (std::int64_t n = 0; n < N; ++n)
        for (std::int64_t o = 0; o < O; ++o)
            for (std::int64_t oy = 0; oy < OH; ++oy)
                for (std::int64_t ox = 0; ox < OW; ++ox) {
                    double acc = b.empty() ? 0 : b[std::size_t(o)];
                    const auto g = o / (O / groups);
                    for (std::int64_t c = 0; c < Cg; ++c)
                        for (std::int64_t ky = 0; ky < KH; ++ky)
                            for (std::int64_t kx = 0; kx < KW; ++kx) {
                                const auto iy = oy * stride - pad + ky * dil, ix = ox * stride - pad + kx * dil;
                                if (iy >= 0 && iy < H && ix >= 0 && ix < W)
                                    acc += x[indexOf({ n, g * Cg + c, iy, ix }, xs)] * w[indexOf({ o, c, ky, kx }, ws)];
                            }
                    y[indexOf({ n, o, oy, ox }, out)] = acc;
                }
    (void)C;
    return y;
}

void nn(std::vector<OpCase>& v)
{
    v.push_back(make("aten::mm.out", "aten.mm; aten.matmul (2-D)", [] {
        Case c;
        c.in("a", { 2, 4 }, vals(8, 81, -2, 2));
        c.in("b", { 4, 3 }, vals(12, 82, -2, 2));
        std::vector<double> y(6, 0);
        for (int i = 0; i < 2; ++i)
            for (int j = 0; j < 3; ++j)
                for (int k = 0; k < 4; ++k)
                    y[std::size_t(i * 3 + j)] +=
                        c.inputs[0].values[std::size_t(i * 4 + k)] * c.inputs[1].values[std::size_t(k * 3 + j)];
        c.op("y", "mm.default", json::array({ arg("self", T("a")), arg("mat2", T("b")) }), { 2, 3 }, y);
        return c;
    }));
    v.push_back(make("aten::addmm.out", "aten.addmm; aten.linear (with bias)", [] {
        Case c;
        c.in("bias", { 3 }, vals(3, 83, -2, 2));
        c.in("a", { 2, 4 }, vals(8, 84, -2, 2));
        c.in("b", { 4, 3 }, vals(12, 85, -2, 2));
        std::vector<double> y(6, 0);
        for (int i = 0; i < 2; ++i)
            for (int j = 0; j < 3; ++j) {
                y[std::size_t(i * 3 + j)] = c.inputs[0].values[std::size_t(j)];
                for (int k = 0; k < 4; ++k)
                    y[std::size_t(i * 3 + j)] +=
                        c.inputs[1].values[std::size_t(i * 4 + k)] * c.inputs[2].values[std::size_t(k * 3 + j)];
            }
        c.op("y", "addmm.default", json::array({ arg("self", T("bias")), arg("mat1", T("a")), arg("mat2", T("b")) }),
            { 2, 3 }, y);
        return c;
    }));
    v.push_back(make("aten::bmm.out", "aten.bmm; aten.matmul (batched)", [] {
        Case c;
        c.in("a", { 2, 2, 3 }, vals(12, 86, -2, 2));
        c.in("b", { 2, 3, 2 }, vals(12, 87, -2, 2));
        std::vector<double> y(8, 0);
        for (int p = 0; p < 2; ++p)
            for (int i = 0; i < 2; ++i)
                for (int j = 0; j < 2; ++j)
                    for (int k = 0; k < 3; ++k)
                        y[std::size_t(p * 4 + i * 2 + j)] += c.inputs[0].values[std::size_t(p * 6 + i * 3 + k)]
                            * c.inputs[1].values[std::size_t(p * 6 + k * 2 + j)];
        c.op("y", "bmm.default", json::array({ arg("self", T("a")), arg("mat2", T("b")) }), { 2, 2, 2 }, y);
        return c;
    }));
    v.push_back(make("aten::convolution.out", "aten.conv2d; aten.convolution (groups=2, stride 2, padding 1)", [] {
        Case c;
        c.in("x", { 1, 2, 5, 5 }, vals(50, 88, -2, 2));
        const auto w = vals(36, 89, -1, 1);
        const std::vector<double> b { 0.5, -0.25, 0.125, 1 };
        c.dump.weight("p_w", "conv.weight", { 4, 1, 3, 3 }, w);
        c.dump.weight("p_b", "conv.bias", { 4 }, b);
        Shape out;
        const auto y =
            conv2d(c.inputs[0].values, { 1, 2, 5, 5 }, roundTo(w, kFloat), { 4, 1, 3, 3 }, b, 2, 1, 1, 2, out);
        c.op("y", "conv2d.default",
            json::array({ arg("input", T("x")), arg("weight", T("p_w")), arg("bias", T("p_b")),
                arg("stride", Ints({ 2, 2 })), arg("padding", Ints({ 1, 1 })), arg("groups", I(2)) }),
            out, y);
        return c;
    }));
    // conv_transpose2d(x [1, 2, 3, 3], w [2, 3, 3, 3], stride 2, padding 1, output_padding 1) -> [1, 3, 6, 6], as
    // aten.convolution and as aten._convolution (the same with four backend hints the out variant drops).
    auto transposed = [](bool underscore) {
        return [underscore] {
            // out[o][iy*2 - 1 + ky][ix*2 - 1 + kx] += x[c][iy][ix] * w[c][o][ky][kx].
            Case c;
            c.in("x", { 1, 2, 3, 3 }, vals(18, 90, -2, 2));
            const auto w = roundTo(vals(54, 91, -1, 1), kFloat);
            c.dump.weight("p_w", "deconv.weight", { 2, 3, 3, 3 }, w);
            std::vector<double> y(108, 0);
            for (int ch = 0; ch < 2; ++ch)
                for (int iy = 0; iy < 3; ++iy)
                    for (int ix = 0; ix < 3; ++ix)
                        for (int o = 0; o < 3; ++o)
                            for (int ky = 0; ky < 3; ++ky)
                                for (int kx = 0; kx < 3; ++kx) {
                                    const int oy = iy * 2 - 1 + ky, ox = ix * 2 - 1 + kx;
                                    if (oy >= 0 && oy < 6 && ox >= 0 && ox < 6)
                                        y[std::size_t((o * 6 + oy) * 6 + ox)] +=
                                            c.inputs[0].values[std::size_t((ch * 3 + iy) * 3 + ix)]
                                            * w[std::size_t(((ch * 3 + o) * 3 + ky) * 3 + kx)];
                                }
            auto args = json::array({ arg("input", T("x")), arg("weight", T("p_w")), arg("bias", None()),
                arg("stride", Ints({ 2, 2 })), arg("padding", Ints({ 1, 1 })), arg("dilation", Ints({ 1, 1 })),
                arg("transposed", B(true)), arg("output_padding", Ints({ 1, 1 })), arg("groups", I(1)) });
            if (underscore)
                for (const char* hint : { "benchmark", "deterministic", "cudnn_enabled", "allow_tf32" })
                    args.push_back(arg(hint, B(false)));
            c.op("y", underscore ? "_convolution.default" : "convolution.default", args, { 1, 3, 6, 6 }, y);
            return c;
        };
    };
    v.push_back(make("aten::convolution.out", "aten.convolution (transposed)", transposed(false), "transposed"));
    v.push_back(make("aten::convolution.out", "aten._convolution (transposed, backend hints dropped)", transposed(true),
        "_convolution"));
    v.push_back(make("aten::convolution_backward.out", "aten.convolution_backward (joint graphs)", [] {
        // Gradients of y = conv2d(x [1, 2, 4, 4], w [3, 2, 3, 3], stride 1, padding 1) by definition.
        Case c;
        c.in("go", { 1, 3, 4, 4 }, vals(48, 92, -1, 1));
        c.in("x", { 1, 2, 4, 4 }, vals(32, 93, -2, 2));
        c.in("w", { 3, 2, 3, 3 }, vals(54, 94, -1, 1));
        const auto& go = c.inputs[0].values;
        const auto& x = c.inputs[1].values;
        const auto& w = c.inputs[2].values;
        std::vector<double> gi(32, 0), gw(54, 0), gb(3, 0);
        for (int o = 0; o < 3; ++o)
            for (int oy = 0; oy < 4; ++oy)
                for (int ox = 0; ox < 4; ++ox) {
                    const double g = go[std::size_t((o * 4 + oy) * 4 + ox)];
                    gb[std::size_t(o)] += g;
                    for (int ch = 0; ch < 2; ++ch)
                        for (int ky = 0; ky < 3; ++ky)
                            for (int kx = 0; kx < 3; ++kx) {
                                const int iy = oy - 1 + ky, ix = ox - 1 + kx;
                                if (iy < 0 || iy >= 4 || ix < 0 || ix >= 4)
                                    continue;
                                gi[std::size_t((ch * 4 + iy) * 4 + ix)] +=
                                    g * w[std::size_t(((o * 2 + ch) * 3 + ky) * 3 + kx)];
                                gw[std::size_t(((o * 2 + ch) * 3 + ky) * 3 + kx)] +=
                                    g * x[std::size_t((ch * 4 + iy) * 4 + ix)];
                            }
                }
        c.dump.tupleNode("r", "convolution_backward.default",
            json::array({ arg("grad_output", T("go")), arg("input", T("x")), arg("weight", T("w")),
                arg("bias_sizes", Ints({ 3 })), arg("stride", Ints({ 1, 1 })), arg("padding", Ints({ 1, 1 })),
                arg("dilation", Ints({ 1, 1 })), arg("transposed", B(false)), arg("output_padding", Ints({ 0, 0 })),
                arg("groups", I(1)), arg("output_mask", Bools({ true, true, true })) }),
            { { "gi", { 1, 2, 4, 4 } }, { "gw", { 3, 2, 3, 3 } }, { "gb", { 3 } } });
        for (const char* o : { "gi", "gw", "gb" })
            c.dump.output(o);
        c.expect({ 1, 2, 4, 4 }, gi);
        c.expect({ 3, 2, 3, 3 }, gw);
        c.expect({ 3 }, gb);
        return c;
    }));
    const Shape ps { 1, 1, 4, 4 };
    v.push_back(make("aten::max_pool2d_with_indices.out", "aten.max_pool2d; aten.max_pool2d_with_indices", [=] {
        Case c;
        c.in("x", ps, vals(16, 95, -2, 2));
        std::vector<double> y, idx;
        for (int oy = 0; oy < 2; ++oy)
            for (int ox = 0; ox < 2; ++ox) {
                int best = -1;
                for (int ky = 0; ky < 2; ++ky)
                    for (int kx = 0; kx < 2; ++kx) {
                        const int i = (oy * 2 + ky) * 4 + ox * 2 + kx;
                        if (best < 0 || c.inputs[0].values[std::size_t(i)] > c.inputs[0].values[std::size_t(best)])
                            best = i;
                    }
                y.push_back(c.inputs[0].values[std::size_t(best)]);
                idx.push_back(best);
            }
        c.dump.tupleNode("r", "max_pool2d_with_indices.default",
            json::array({ self(), arg("kernel_size", Ints({ 2, 2 })) }),
            { { "values", { 1, 1, 2, 2 } }, { "indices", { 1, 1, 2, 2 } } }, kFloat, { kFloat, kLong });
        c.dump.output("values");
        c.dump.output("indices");
        c.expect({ 1, 1, 2, 2 }, y);
        c.expect({ 1, 1, 2, 2 }, idx, kLong);
        return c;
    }));
    v.push_back(make("aten::max_pool2d_with_indices_backward.grad_input",
        "aten.max_pool2d_with_indices_backward (joint graphs)", [=] {
            Case c;
            c.in("go", { 1, 1, 2, 2 }, { 1, -2, 0.5, 3 });
            c.in("x", ps, vals(16, 96, -2, 2));
            c.in("idx", { 1, 1, 2, 2 }, { 5, 2, 8, 15 }, kLong);
            std::vector<double> gi(16, 0);
            gi[5] = 1;
            gi[2] = -2;
            gi[8] = 0.5;
            gi[15] = 3;
            c.op("y", "max_pool2d_with_indices_backward.default",
                json::array({ arg("grad_output", T("go")), arg("self", T("x")), arg("kernel_size", Ints({ 2, 2 })),
                    arg("stride", Ints({ 2, 2 })), arg("padding", Ints({ 0, 0 })), arg("dilation", Ints({ 1, 1 })),
                    arg("ceil_mode", B(false)), arg("indices", T("idx")) }),
                ps, gi);
            return c;
        }));
    v.push_back(make("aten::avg_pool2d.out", "aten.avg_pool2d", [=] {
        Case c;
        c.in("x", ps, vals(16, 97, -2, 2));
        std::vector<double> y;
        for (int oy = 0; oy < 2; ++oy)
            for (int ox = 0; ox < 2; ++ox) {
                double acc = 0;
                for (int ky = 0; ky < 2; ++ky)
                    for (int kx = 0; kx < 2; ++kx)
                        acc += c.inputs[0].values[std::size_t((oy * 2 + ky) * 4 + ox * 2 + kx)];
                y.push_back(acc / 4);
            }
        c.op("y", "avg_pool2d.default", json::array({ self(), arg("kernel_size", Ints({ 2, 2 })) }), { 1, 1, 2, 2 }, y);
        return c;
    }));
    v.push_back(
        make("aten::_adaptive_avg_pool2d.out", "aten.adaptive_avg_pool2d (output size not dividing the input)", [] {
            Case c;
            c.in("x", { 1, 1, 5, 7 }, vals(35, 98, -2, 2));
            std::vector<double> y;
            for (int i = 0; i < 3; ++i)
                for (int j = 0; j < 3; ++j) {
                    const int y0 = i * 5 / 3, y1 = ((i + 1) * 5 + 2) / 3, x0 = j * 7 / 3, x1 = ((j + 1) * 7 + 2) / 3;
                    double acc = 0;
                    for (int a = y0; a < y1; ++a)
                        for (int b = x0; b < x1; ++b)
                            acc += c.inputs[0].values[std::size_t(a * 7 + b)];
                    y.push_back(acc / double((y1 - y0) * (x1 - x0)));
                }
            c.op("y", "adaptive_avg_pool2d.default", json::array({ self(), arg("output_size", Ints({ 3, 3 })) }),
                { 1, 1, 3, 3 }, y);
            return c;
        }));
    v.push_back(make("aten::upsample_nearest2d.vec_out", "aten.upsample_nearest2d.vec", [] {
        Case c;
        c.in("x", { 1, 1, 2, 3 }, vals(6, 99, -2, 2));
        std::vector<double> y;
        for (int oy = 0; oy < 4; ++oy)
            for (int ox = 0; ox < 6; ++ox)
                y.push_back(c.inputs[0].values[std::size_t((oy / 2) * 3 + ox / 2)]);
        c.op("y", "upsample_nearest2d.vec",
            json::array({ arg("input", T("x")), arg("output_size", Ints({ 4, 6 })), arg("scale_factors", None()) }),
            { 1, 1, 4, 6 }, y);
        return c;
    }));
    v.push_back(make("aten::upsample_bilinear2d.vec_out", "aten.upsample_bilinear2d.vec (align_corners=False)", [] {
        Case c;
        c.in("x", { 1, 1, 2, 2 }, vals(4, 100, -2, 2));
        const auto& x = c.inputs[0].values;
        auto src = [](int d) { return std::max((d + 0.5) * 0.5 - 0.5, 0.0); };
        std::vector<double> y;
        for (int oy = 0; oy < 4; ++oy)
            for (int ox = 0; ox < 4; ++ox) {
                const double sy = src(oy), sx = src(ox);
                const int y0 = int(sy), x0 = int(sx), y1 = std::min(y0 + 1, 1), x1 = std::min(x0 + 1, 1);
                const double ly = sy - y0, lx = sx - x0;
                y.push_back((1 - ly) * ((1 - lx) * x[std::size_t(y0 * 2 + x0)] + lx * x[std::size_t(y0 * 2 + x1)])
                    + ly * ((1 - lx) * x[std::size_t(y1 * 2 + x0)] + lx * x[std::size_t(y1 * 2 + x1)]));
            }
        c.op("y", "upsample_bilinear2d.vec",
            json::array({ arg("input", T("x")), arg("output_size", Ints({ 4, 4 })), arg("align_corners", B(false)),
                arg("scale_factors", None()) }),
            { 1, 1, 4, 4 }, y);
        return c;
    }));
    v.push_back(make(
        "aten::_upsample_bilinear2d_aa.out", "aten._upsample_bilinear2d_aa (antialiased downscale 4x6 -> 2x2)", [] {
            // PyTorch's antialiased interpolation: for output i, centre = scale * (i + 0.5), support = scale (bilinear,
            // downscaling), taps j in [centre - support + 0.5, centre + support + 0.5) weighted by the triangle filter
            // 1 - |(j - centre + 0.5) / scale|, normalised.
            Case c;
            c.in("x", { 1, 1, 4, 6 }, vals(24, 101, -2, 2));
            auto weights = [](int outSize, int inSize, int i) {
                const double scale = double(inSize) / outSize;
                const double support = scale >= 1 ? scale : 1.0;
                const double inv = scale >= 1 ? 1 / scale : 1.0;
                const double centre = scale * (i + 0.5);
                const int lo = std::max(int(centre - support + 0.5), 0);
                const int hi = std::min(int(centre + support + 0.5), inSize);
                std::vector<std::pair<int, double>> w;
                double total = 0;
                for (int j = lo; j < hi; ++j) {
                    const double t = std::fabs((j - centre + 0.5) * inv);
                    const double f = t < 1 ? 1 - t : 0;
                    w.emplace_back(j, f);
                    total += f;
                }
                for (auto& e : w)
                    e.second /= total;
                return w;
            };
            std::vector<double> y;
            for (int oy = 0; oy < 2; ++oy)
                for (int ox = 0; ox < 2; ++ox) {
                    double acc = 0;
                    for (const auto& [jy, wy] : weights(2, 4, oy))
                        for (const auto& [jx, wx] : weights(2, 6, ox))
                            acc += wy * wx * c.inputs[0].values[std::size_t(jy * 6 + jx)];
                    y.push_back(acc);
                }
            c.op("y", "_upsample_bilinear2d_aa.default",
                json::array({ self(), arg("output_size", Ints({ 2, 2 })), arg("align_corners", B(false)) }),
                { 1, 1, 2, 2 }, y);
            return c;
        }));
    v.push_back(make("aten::grid_sampler_2d.out", "aten.grid_sampler_2d (bilinear, zeros, align_corners=False)", [] {
        Case c;
        c.in("x", { 1, 1, 3, 4 }, vals(12, 102, -2, 2));
        c.in("g", { 1, 2, 2, 2 }, { -0.9, -0.8, 0.3, 0.1, 0.95, 0.7, -1.2, 0.4 });
        const auto& x = c.inputs[0].values;
        std::vector<double> y;
        for (int k = 0; k < 4; ++k) {
            const double gx = c.inputs[1].values[std::size_t(2 * k)], gy = c.inputs[1].values[std::size_t(2 * k + 1)];
            const double ix = ((gx + 1) * 4 - 1) / 2, iy = ((gy + 1) * 3 - 1) / 2;
            const int x0 = int(std::floor(ix)), y0 = int(std::floor(iy));
            auto at = [&](int yy, int xx) {
                return yy < 0 || yy >= 3 || xx < 0 || xx >= 4 ? 0.0 : x[std::size_t(yy * 4 + xx)];
            };
            const double lx = ix - x0, ly = iy - y0;
            y.push_back((1 - ly) * ((1 - lx) * at(y0, x0) + lx * at(y0, x0 + 1))
                + ly * ((1 - lx) * at(y0 + 1, x0) + lx * at(y0 + 1, x0 + 1)));
        }
        c.op("y", "grid_sampler_2d.default",
            json::array({ arg("input", T("x")), arg("grid", T("g")), arg("interpolation_mode", I(0)),
                arg("padding_mode", I(0)), arg("align_corners", B(false)) }),
            { 1, 1, 2, 2 }, y);
        return c;
    }));
    v.push_back(make("aten::native_layer_norm.out", "aten.layer_norm; aten.native_layer_norm", [] {
        Case c;
        c.in("x", { 2, 4 }, vals(8, 103, -2, 2));
        const std::vector<double> w { 1, 0.5, -1, 2 }, b { 0, 0.25, 0.5, -1 };
        c.dump.weight("p_w", "ln.weight", { 4 }, w);
        c.dump.weight("p_b", "ln.bias", { 4 }, b);
        std::vector<double> y;
        for (int r = 0; r < 2; ++r) {
            double m = 0, var = 0;
            for (int k = 0; k < 4; ++k)
                m += c.inputs[0].values[std::size_t(r * 4 + k)] / 4;
            for (int k = 0; k < 4; ++k)
                var += std::pow(c.inputs[0].values[std::size_t(r * 4 + k)] - m, 2) / 4;
            for (int k = 0; k < 4; ++k)
                y.push_back((c.inputs[0].values[std::size_t(r * 4 + k)] - m) / std::sqrt(var + 1e-5) * w[std::size_t(k)]
                    + b[std::size_t(k)]);
        }
        c.op("y", "layer_norm.default",
            json::array({ arg("input", T("x")), arg("normalized_shape", Ints({ 4 })), arg("weight", T("p_w")),
                arg("bias", T("p_b")) }),
            { 2, 4 }, y);
        return c;
    }));
    v.push_back(make("aten::native_group_norm.out", "aten.native_group_norm (aten.group_norm decomposed)", [] {
        Case c;
        c.in("x", { 2, 4, 3 }, vals(24, 104, -2, 2));
        const std::vector<double> w { 1, 0.5, -1, 2 }, b { 0, 0.25, 0.5, -1 };
        c.dump.weight("p_w", "gn.weight", { 4 }, w);
        c.dump.weight("p_b", "gn.bias", { 4 }, b);
        std::vector<double> y(24), mean, rstd;
        for (int n = 0; n < 2; ++n)
            for (int g = 0; g < 2; ++g) {
                double m = 0, var = 0;
                for (int k = 0; k < 6; ++k)
                    m += c.inputs[0].values[std::size_t(n * 12 + g * 6 + k)] / 6;
                for (int k = 0; k < 6; ++k)
                    var += std::pow(c.inputs[0].values[std::size_t(n * 12 + g * 6 + k)] - m, 2) / 6;
                mean.push_back(m);
                rstd.push_back(1 / std::sqrt(var + 1e-5));
                for (int k = 0; k < 6; ++k) {
                    const std::size_t i = std::size_t(n * 12 + g * 6 + k);
                    const std::size_t ch = std::size_t(g * 2 + k / 3);
                    y[i] = (c.inputs[0].values[i] - m) * rstd.back() * w[ch] + b[ch];
                }
            }
        c.dump.tupleNode("r", "native_group_norm.default",
            json::array({ arg("input", T("x")), arg("weight", T("p_w")), arg("bias", T("p_b")), arg("N", I(2)),
                arg("C", I(4)), arg("HxW", I(3)), arg("group", I(2)), arg("eps", F(1e-5)) }),
            { { "out", { 2, 4, 3 } }, { "mean", { 2, 2 } }, { "rstd", { 2, 2 } } });
        for (const char* o : { "out", "mean", "rstd" })
            c.dump.output(o);
        c.expect({ 2, 4, 3 }, y);
        c.expect({ 2, 2 }, mean);
        c.expect({ 2, 2 }, rstd);
        return c;
    }));
    auto bnEval = [](bool legit) {
        return [legit] {
            Case c;
            c.in("x", { 2, 3, 2 }, vals(12, legit ? 105 : 106, -2, 2));
            const std::vector<double> w { 1, 0.5, -1 }, b { 0, 0.25, 0.5 }, rm { 0.5, -0.25, 0 }, rv { 2, 0.5, 1 };
            c.dump.weight("p_w", "bn.weight", { 3 }, w);
            c.dump.weight("p_b", "bn.bias", { 3 }, b);
            c.dump.weight("b_rm", "bn.running_mean", { 3 }, rm, false);
            c.dump.weight("b_rv", "bn.running_var", { 3 }, rv, false);
            std::vector<double> y;
            for (std::size_t i = 0; i < 12; ++i) {
                const std::size_t ch = (i / 2) % 3;
                y.push_back((c.inputs[0].values[i] - rm[ch]) / std::sqrt(rv[ch] + 1e-5) * w[ch] + b[ch]);
            }
            json args = json::array({ arg("input", T("x")), arg("weight", T("p_w")), arg("bias", T("p_b")),
                arg("running_mean", T("b_rm")), arg("running_var", T("b_rv")) });
            if (legit)
                args.push_back(arg("training", B(false)));
            args.push_back(arg("momentum", F(0.1)));
            args.push_back(arg("eps", F(1e-5)));
            c.dump.tupleNode("bn",
                legit ? "_native_batch_norm_legit.default" : "_native_batch_norm_legit_no_training.default", args,
                { { "out", { 2, 3, 2 } }, { "save_mean", { 0 } }, { "save_rstd", { 0 } } });
            c.dump.output("out");
            c.expect({ 2, 3, 2 }, y);
            return c;
        };
    };
    v.push_back(make("aten::_native_batch_norm_legit_no_training.out",
        "aten._native_batch_norm_legit_no_training; aten.batch_norm (eval)", bnEval(false)));
    v.push_back(
        make("aten::_native_batch_norm_legit.out", "aten._native_batch_norm_legit (training=False)", bnEval(true)));
    v.push_back(make(
        "aten::rand.out", "aten.dropout (train=True), decomposed as torch decomposes native_dropout",
        [] {
            Case c;
            c.in("x", { 64 }, vals(64, 107, 0.5, 2));
            c.op("y", "dropout.default", json::array({ arg("input", T("x")), arg("p", F(0.5)), arg("train", B(true)) }),
                { 64 }, {});
            const auto x = c.inputs[0].values;
            c.check = [x](const std::vector<RunnerValue>& out) -> std::optional<std::string> {
                if (out.size() != 1 || out[0].values.size() != 64)
                    return std::string("expected one [64] output");
                std::size_t kept = 0;
                for (std::size_t i = 0; i < 64; ++i) {
                    const double e = out[0].values[i];
                    if (e == 0)
                        continue;
                    if (std::fabs(e - f32(x[i] * 2)) > 1e-5 * std::fabs(e))
                        return "element " + std::to_string(i) + " is " + std::to_string(e) + ", neither dropped nor "
                            + std::to_string(x[i]) + " scaled by 1 / (1 - p)";
                    ++kept;
                }
                if (kept < 12 || kept > 52)
                    return "kept " + std::to_string(kept) + " of 64 elements with p = 0.5";
                return std::nullopt;
            };
            return c;
        },
        "dropout", "Random: each element dropped or scaled by 1 / (1 - p), about half kept."));
    v.push_back(make("aten::_cdist_forward.out", "aten._cdist_forward (p=2)", [] {
        Case c;
        c.in("a", { 3, 2 }, vals(6, 108, -2, 2));
        c.in("b", { 2, 2 }, vals(4, 109, -2, 2));
        std::vector<double> y;
        for (int i = 0; i < 3; ++i)
            for (int j = 0; j < 2; ++j)
                y.push_back(std::hypot(c.inputs[0].values[std::size_t(2 * i)] - c.inputs[1].values[std::size_t(2 * j)],
                    c.inputs[0].values[std::size_t(2 * i + 1)] - c.inputs[1].values[std::size_t(2 * j + 1)]));
        c.op("y", "_cdist_forward.default",
            json::array({ arg("x1", T("a")), arg("x2", T("b")), arg("p", F(2)), arg("compute_mode", None()) }),
            { 3, 2 }, y);
        return c;
    }));
    v.push_back(make("aten::_pdist_forward.out", "aten._pdist_forward (p=2)", [] {
        Case c;
        c.in("x", { 4, 3 }, vals(12, 110, -2, 2));
        std::vector<double> y;
        for (int i = 0; i < 4; ++i)
            for (int j = i + 1; j < 4; ++j) {
                double acc = 0;
                for (int k = 0; k < 3; ++k)
                    acc += std::pow(
                        c.inputs[0].values[std::size_t(i * 3 + k)] - c.inputs[0].values[std::size_t(j * 3 + k)], 2);
                y.push_back(std::sqrt(acc));
            }
        c.op("y", "_pdist_forward.default", json::array({ self() }), { 6 }, y);
        return c;
    }));
    v.push_back(make("aten::embedding.out", "aten.embedding", [] {
        Case c;
        const auto w = roundTo(vals(15, 111, -2, 2), kFloat);
        c.dump.weight("p_w", "emb.weight", { 5, 3 }, w);
        c.in("idx", { 4 }, { 4, 0, 2, 4 }, kLong);
        std::vector<double> y;
        for (const int r : { 4, 0, 2, 4 })
            for (int k = 0; k < 3; ++k)
                y.push_back(w[std::size_t(r * 3 + k)]);
        c.op("y", "embedding.default", json::array({ arg("weight", T("p_w")), arg("indices", T("idx")) }), { 4, 3 }, y);
        return c;
    }));
}

void indexing(std::vector<OpCase>& v)
{
    v.push_back(make("aten::index.Tensor_out", "aten.index.Tensor", [] {
        Case c;
        c.in("x", { 4, 3 }, vals(12, 121, -2, 2));
        c.in("i", { 2 }, { 3, 1 }, kLong);
        const auto& x = c.inputs[0].values;
        c.op("y", "index.Tensor", json::array({ self(), arg("indices", OptionalTensors({ "i" })) }), { 2, 3 },
            { x[9], x[10], x[11], x[3], x[4], x[5] });
        return c;
    }));
    v.push_back(make("aten::index_put.out", "aten.index_put (x[i] = v, functional)", [] {
        Case c;
        c.in("x", { 4, 3 }, vals(12, 122, -2, 2));
        c.in("i", { 2 }, { 3, 0 }, kLong);
        c.in("val", { 2, 3 }, vals(6, 123, -2, 2));
        auto y = c.inputs[0].values;
        for (int k = 0; k < 3; ++k) {
            y[std::size_t(9 + k)] = c.inputs[2].values[std::size_t(k)];
            y[std::size_t(k)] = c.inputs[2].values[std::size_t(3 + k)];
        }
        c.op("y", "index_put.default",
            json::array({ self(), arg("indices", OptionalTensors({ "i" })), arg("values", T("val")) }), { 4, 3 }, y);
        return c;
    }));
    v.push_back(make("aten::index_select.out", "aten.index_select (dim=1)", [] {
        Case c;
        c.in("x", { 2, 4 }, vals(8, 124, -2, 2));
        c.in("i", { 3 }, { 3, 0, 3 }, kLong);
        const auto& x = c.inputs[0].values;
        c.op("y", "index_select.default", json::array({ self(), arg("dim", I(1)), arg("index", T("i")) }), { 2, 3 },
            { x[3], x[0], x[3], x[7], x[4], x[7] });
        return c;
    }));
    v.push_back(make("aten::gather.out", "aten.gather (dim=1)", [] {
        Case c;
        c.in("x", { 2, 4 }, vals(8, 125, -2, 2));
        c.in("i", { 2, 2 }, { 3, 1, 0, 0 }, kLong);
        const auto& x = c.inputs[0].values;
        c.op("y", "gather.default", json::array({ self(), arg("dim", I(1)), arg("index", T("i")) }), { 2, 2 },
            { x[3], x[1], x[4], x[4] });
        return c;
    }));
    const std::vector<double> sidx { 2, 0, 3, 1 }; // [2, 2], distinct per row
    v.push_back(make("aten::scatter.src_out", "aten.scatter.src (dim=1)", [=] {
        Case c;
        c.in("x", { 2, 4 }, vals(8, 126, -2, 2));
        c.in("i", { 2, 2 }, sidx, kLong);
        c.in("s", { 2, 2 }, { 10, 20, 30, 40 });
        auto y = c.inputs[0].values;
        y[2] = 10;
        y[0] = 20;
        y[7] = 30;
        y[5] = 40;
        c.op("y", "scatter.src", json::array({ self(), arg("dim", I(1)), arg("index", T("i")), arg("src", T("s")) }),
            { 2, 4 }, y);
        return c;
    }));
    v.push_back(make("aten::scatter.value_out", "aten.scatter.value (dim=1)", [=] {
        Case c;
        c.in("x", { 2, 4 }, vals(8, 127, -2, 2));
        c.in("i", { 2, 2 }, sidx, kLong);
        auto y = c.inputs[0].values;
        y[2] = y[0] = y[7] = y[5] = 2.5;
        c.op("y", "scatter.value",
            json::array({ self(), arg("dim", I(1)), arg("index", T("i")), arg("value", F(2.5)) }), { 2, 4 }, y);
        return c;
    }));
    v.push_back(make("aten::scatter_add.out", "aten.scatter_add (dim=1, repeated indices)", [] {
        Case c;
        c.in("x", { 2, 4 }, vals(8, 128, -2, 2));
        c.in("i", { 2, 2 }, { 1, 1, 3, 0 }, kLong);
        c.in("s", { 2, 2 }, { 1, 2, 3, 4 });
        auto y = c.inputs[0].values;
        y[1] += 3;
        y[7] += 3;
        y[4] += 4;
        c.op("y", "scatter_add.default",
            json::array({ self(), arg("dim", I(1)), arg("index", T("i")), arg("src", T("s")) }), { 2, 4 }, y);
        return c;
    }));
    v.push_back(make("aten::select_scatter.out", "aten.select_scatter (dim=0, index=1)", [] {
        Case c;
        c.in("x", { 3, 4 }, vals(12, 129, -2, 2));
        c.in("s", { 4 }, { 1, 2, 3, 4 });
        auto y = c.inputs[0].values;
        for (int k = 0; k < 4; ++k)
            y[std::size_t(4 + k)] = k + 1;
        c.op("y", "select_scatter.default",
            json::array({ self(), arg("src", T("s")), arg("dim", I(0)), arg("index", I(1)) }), { 3, 4 }, y);
        return c;
    }));
    v.push_back(make("aten::slice_scatter.out", "aten.slice_scatter (dim=1, start=1, end=3)", [] {
        Case c;
        c.in("x", { 2, 4 }, vals(8, 130, -2, 2));
        c.in("s", { 2, 2 }, { 1, 2, 3, 4 });
        auto y = c.inputs[0].values;
        y[1] = 1;
        y[2] = 2;
        y[5] = 3;
        y[6] = 4;
        c.op("y", "slice_scatter.default",
            json::array({ self(), arg("src", T("s")), arg("dim", I(1)), arg("start", I(1)), arg("end", I(3)) }),
            { 2, 4 }, y);
        return c;
    }));
    v.push_back(make("aten::masked_scatter.out", "aten.masked_scatter", [] {
        Case c;
        c.in("x", { 2, 3 }, vals(6, 131, -2, 2));
        c.in("m", { 2, 3 }, { 0, 1, 1, 0, 0, 1 }, kBool);
        c.in("s", { 6 }, { 10, 20, 30, 40, 50, 60 });
        auto y = c.inputs[0].values;
        y[1] = 10;
        y[2] = 20;
        y[5] = 30;
        c.op("y", "masked_scatter.default", json::array({ self(), arg("mask", T("m")), arg("source", T("s")) }),
            { 2, 3 }, y);
        return c;
    }));
    // Data-dependent sizes: the output's length is an unbacked symbol bounded by the input's size; planned at
    // that bound, resized by the kernel.
    v.push_back(make("aten::masked_select.out", "aten.masked_select (data-dependent size)", [] {
        Case c;
        c.in("x", { 2, 3 }, vals(6, 132, -2, 2));
        c.in("m", { 2, 3 }, { 1, 0, 1, 0, 0, 1 }, kBool);
        const auto& x = c.inputs[0].values;
        c.op("y", "masked_select.default", json::array({ self(), arg("mask", T("m")) }), { 6 }, {});
        c.dump.dynamic("y", 0, "u0", 6);
        c.expected[0] = { ScalarType::Float, { 3 }, roundTo({ x[0], x[2], x[5] }, kFloat) };
        return c;
    }));
    v.push_back(make("aten::nonzero.out", "aten.nonzero (data-dependent size)", [] {
        Case c;
        c.in("x", { 2, 3 }, { 0, 1.5, 0, -2, 0, 0 });
        c.op("y", "nonzero.default", json::array({ self() }), { 6, 2 }, {}, kLong);
        c.dump.dynamic("y", 0, "u0", 6);
        c.expected[0] = { ScalarType::Long, { 2, 2 }, { 0, 1, 1, 0 } };
        return c;
    }));
    v.push_back(make("aten::repeat_interleave.Tensor_out", "aten.repeat_interleave.Tensor (data-dependent size)", [] {
        Case c;
        c.in("r", { 3 }, { 2, 0, 3 }, kLong);
        c.op("y", "repeat_interleave.Tensor", json::array({ arg("repeats", T("r")) }), { 15 }, {}, kLong);
        c.dump.dynamic("y", 0, "u0", 15);
        c.expected[0] = { ScalarType::Long, { 5 }, { 0, 0, 2, 2, 2 } };
        return c;
    }));
}

const std::string kQ = "torch.ops.quantized_decomposed.";

/** torch.round: half to even. */
double roundEven(double v) { return std::nearbyint(v); }

void complexViews(std::vector<OpCase>& v)
{
    // A complex64 weight z (interleaved real and imaginary parts), viewed as real pairs.
    const std::vector<double> z { 1.5, -0.5, 0.25, 2, -3, 0.125 };
    v.push_back(make("aten::view_as_real_copy.out", "aten.view_as_real (complex64 weight)", [=] {
        Case c;
        c.dump.weight("p_z", "z", { 3 }, z, true, kComplexFloat);
        c.op("y", "view_as_real.default", json::array({ arg("self", T("p_z")) }), { 3, 2 }, z);
        return c;
    }));
    v.push_back(make("aten::_conj_physical.out", "aten._conj_physical (complex64 weight), then view_as_real", [=] {
        Case c;
        c.dump.weight("p_z", "z", { 3 }, z, true, kComplexFloat);
        c.dump.node("cj", "_conj_physical.default", json::array({ arg("self", T("p_z")) }), { 3 }, kComplexFloat);
        std::vector<double> y = z;
        for (std::size_t k = 1; k < y.size(); k += 2)
            y[k] = -y[k];
        c.op("y", "view_as_real.default", json::array({ arg("self", T("cj")) }), { 3, 2 }, y);
        return c;
    }));
}

void quantized(std::vector<OpCase>& v)
{
    // quantized_decomposed's definitions (torch.ao.quantization.fx._decomposed): q = clamp(round(x * (1 / scale))
    // + zero_point, quant_min, quant_max); x' = (q - zero_point) * scale.
    const double scale = 0.05;
    const std::int64_t zp = 3;
    auto quant = [](double x, double s, double z, double lo, double hi) {
        return std::clamp(roundEven(f32(x * f32(1.0 / s))) + z, lo, hi);
    };
    const std::vector<double> qx { -1.013, 0.5, 2.71, -0.037, 9.99, -8.2 }; // clamps at both ends
    for (const bool tensorArgs : { false, true }) {
        v.push_back(make(tensorArgs ? "quantized_decomposed::quantize_per_tensor.Tensor_out"
                                    : "quantized_decomposed::quantize_per_tensor.out",
            tensorArgs ? "quantized_decomposed.quantize_per_tensor.tensor (PT2E)"
                       : "quantized_decomposed.quantize_per_tensor (PT2E)",
            [=] {
                Case c;
                json args;
                if (tensorArgs) {
                    c.dump.constant("c_scale", "scale", { 1 }, { scale }, kDouble);
                    c.dump.constant("c_zp", "zp", { 1 }, { double(zp) }, kLong);
                }
                c.in("x", { 2, 3 }, qx);
                std::vector<double> q;
                for (const double e : c.inputs[0].values)
                    q.push_back(quant(e, scale, double(zp), -128, 127));
                c.op("y", kQ + (tensorArgs ? "quantize_per_tensor.tensor" : "quantize_per_tensor.default"),
                    json::array({ arg("input", T("x")), arg("scale", tensorArgs ? T("c_scale") : F(scale)),
                        arg("zero_point", tensorArgs ? T("c_zp") : I(zp)), arg("quant_min", I(-128)),
                        arg("quant_max", I(127)), arg("dtype", Dtype(kChar)) }),
                    { 2, 3 }, q, kChar);
                return c;
            }));
        v.push_back(make(tensorArgs ? "quantized_decomposed::dequantize_per_tensor.Tensor_out"
                                    : "quantized_decomposed::dequantize_per_tensor.out",
            tensorArgs ? "quantized_decomposed.dequantize_per_tensor.tensor (PT2E)"
                       : "quantized_decomposed.dequantize_per_tensor (PT2E)",
            [=] {
                Case c;
                if (tensorArgs) {
                    c.dump.constant("c_scale", "scale", { 1 }, { scale }, kDouble);
                    c.dump.constant("c_zp", "zp", { 1 }, { double(zp) }, kLong);
                }
                c.in("q", { 2, 3 }, { -128, -5, 0, 3, 42, 127 }, kChar);
                std::vector<double> x;
                for (const double e : c.inputs[0].values)
                    x.push_back((e - double(zp)) * scale);
                c.op("y", kQ + (tensorArgs ? "dequantize_per_tensor.tensor" : "dequantize_per_tensor.default"),
                    json::array({ arg("input", T("q")), arg("scale", tensorArgs ? T("c_scale") : F(scale)),
                        arg("zero_point", tensorArgs ? T("c_zp") : I(zp)), arg("quant_min", I(-128)),
                        arg("quant_max", I(127)), arg("dtype", Dtype(kChar)) }),
                    { 2, 3 }, x);
                return c;
            }));
    }
    const std::vector<double> scales { 0.05, 0.1, 0.02 };
    const std::vector<double> zps { 0, -4, 10 };
    v.push_back(make(
        "quantized_decomposed::quantize_per_channel.out", "quantized_decomposed.quantize_per_channel (axis=1)", [=] {
            Case c;
            c.dump.constant("c_scales", "scales", { 3 }, scales, kDouble);
            c.dump.constant("c_zps", "zps", { 3 }, zps, kLong);
            c.in("x", { 2, 3 }, qx);
            std::vector<double> q;
            for (std::size_t i = 0; i < 6; ++i)
                q.push_back(quant(c.inputs[0].values[i], scales[i % 3], zps[i % 3], -128, 127));
            c.op("y", kQ + "quantize_per_channel.default",
                json::array({ arg("input", T("x")), arg("scales", T("c_scales")), arg("zero_points", T("c_zps")),
                    arg("axis", I(1)), arg("quant_min", I(-128)), arg("quant_max", I(127)),
                    arg("dtype", Dtype(kChar)) }),
                { 2, 3 }, q, kChar);
            return c;
        }));
    v.push_back(make("quantized_decomposed::dequantize_per_channel.out",
        "quantized_decomposed.dequantize_per_channel (axis=1)", [=] {
            Case c;
            c.dump.constant("c_scales", "scales", { 3 }, scales, kDouble);
            c.dump.constant("c_zps", "zps", { 3 }, zps, kLong);
            c.in("q", { 2, 3 }, { -128, -5, 0, 3, 42, 127 }, kChar);
            std::vector<double> x;
            for (std::size_t i = 0; i < 6; ++i)
                x.push_back((c.inputs[0].values[i] - zps[i % 3]) * scales[i % 3]);
            c.op("y", kQ + "dequantize_per_channel.default",
                json::array({ arg("input", T("q")), arg("scales", T("c_scales")), arg("zero_points", T("c_zps")),
                    arg("axis", I(1)), arg("quant_min", I(-128)), arg("quant_max", I(127)),
                    arg("dtype", Dtype(kChar)) }),
                { 2, 3 }, x);
            return c;
        }));
    v.push_back(
        make("quantized_decomposed::choose_qparams.Tensor_out", "quantized_decomposed.choose_qparams.tensor", [=] {
            // determine_qparams: scale = max((max(x, 0) - min(x, 0)) / (quant_max - quant_min), eps), zero_point =
            // clamp(quant_min - round(min(x, 0) / scale), quant_min, quant_max).
            Case c;
            c.in("x", { 2, 3 }, { -1.5, 0.25, 2.0, 0.75, -0.5, 1.0 });
            const double sc = f32(3.5 / 255.0);
            const double zero = std::clamp(-128 - roundEven(-1.5 / sc), -128.0, 127.0);
            c.dump.tupleNode("r", kQ + "choose_qparams.tensor",
                json::array({ arg("input", T("x")), arg("quant_min", I(-128)), arg("quant_max", I(127)),
                    arg("eps", F(1.1920928955078125e-07)), arg("dtype", Dtype(kChar)) }),
                { { "scale", { 1 } }, { "zero_point", { 1 } } }, kFloat, { kDouble, kLong });
            c.dump.output("scale");
            c.dump.output("zero_point");
            c.expect({ 1 }, { sc }, kDouble);
            c.expect({ 1 }, { zero }, kLong);
            c.rtol = 1e-6;
            return c;
        }));
    v.push_back(make("quantized_decomposed::choose_qparams_per_token_asymmetric.out",
        "quantized_decomposed.choose_qparams_per_token_asymmetric", [=] {
            Case c;
            c.in("x", { 2, 3 }, { -1.5, 0.25, 2.0, 0.75, 0.5, 1.0 });
            std::vector<double> sc, zero;
            for (int r = 0; r < 2; ++r) {
                double lo = 0, hi = 0;
                for (int k = 0; k < 3; ++k) {
                    lo = std::min(lo, c.inputs[0].values[std::size_t(r * 3 + k)]);
                    hi = std::max(hi, c.inputs[0].values[std::size_t(r * 3 + k)]);
                }
                const double s = std::max((hi - lo) / 255.0, 1.1920928955078125e-07);
                const double dmin = lo / s, dmax = hi / s;
                const double z = (-128 + dmin) + (127 + dmax) > 0 ? -128 - dmin : 127 - dmax;
                sc.push_back(s);
                zero.push_back(roundEven(std::clamp(z, -128.0, 127.0)));
            }
            // ExecuTorch's kernel writes the scales as double (its check_quantize_per_tensor_args).
            c.dump.tupleNode("r", kQ + "choose_qparams_per_token_asymmetric.default",
                json::array({ arg("input", T("x")), arg("dtype", Dtype(kChar)) }),
                { { "scale", { 2, 1 } }, { "zero_point", { 2, 1 } } }, kFloat, { kDouble, kLong });
            c.dump.output("scale");
            c.dump.output("zero_point");
            c.expect({ 2, 1 }, sc, kDouble);
            c.rtol = 1e-6;
            c.expect({ 2, 1 }, zero, kLong);
            return c;
        }));
    const std::vector<double> tscales { 0.05, 0.02 };
    const std::vector<double> tzps { 2, -3 };
    v.push_back(make("quantized_decomposed::quantize_per_token.out", "quantized_decomposed.quantize_per_token", [=] {
        Case c;
        c.dump.constant("c_scales", "scales", { 2, 1 }, tscales, kDouble); // the kernel requires double scales
        c.dump.constant("c_zps", "zps", { 2, 1 }, tzps, kLong);
        c.in("x", { 2, 3 }, qx);
        std::vector<double> q;
        for (std::size_t i = 0; i < 6; ++i)
            q.push_back(std::clamp(
                roundEven(f32(c.inputs[0].values[i] * f32(1.0 / tscales[i / 3])) + tzps[i / 3]), -128.0, 127.0));
        c.op("y", kQ + "quantize_per_token.default",
            json::array({ arg("input", T("x")), arg("scales", T("c_scales")), arg("zero_points", T("c_zps")),
                arg("quant_min", I(-128)), arg("quant_max", I(127)), arg("dtype", Dtype(kChar)) }),
            { 2, 3 }, q, kChar);
        return c;
    }));
    v.push_back(
        make("quantized_decomposed::dequantize_per_token.out", "quantized_decomposed.dequantize_per_token", [=] {
            Case c;
            c.dump.constant("c_scales", "scales", { 2, 1 }, tscales);
            c.dump.constant("c_zps", "zps", { 2, 1 }, tzps, kLong);
            c.in("q", { 2, 3 }, { -128, -5, 0, 3, 42, 127 }, kChar);
            std::vector<double> x;
            for (std::size_t i = 0; i < 6; ++i)
                x.push_back((c.inputs[0].values[i] - tzps[i / 3]) * tscales[i / 3]);
            c.op("y", kQ + "dequantize_per_token.default",
                json::array({ arg("input", T("q")), arg("scales", T("c_scales")), arg("zero_points", T("c_zps")),
                    arg("quant_min", I(-128)), arg("quant_max", I(127)), arg("dtype", Dtype(kChar)),
                    arg("output_dtype", Dtype(kFloat)) }),
                { 2, 3 }, x);
            return c;
        }));
    // Quantized embeddings: rows of an int8 (or packed 4-/2-bit) table dequantized per row, then gathered.
    const std::vector<double> rowScales { 0.5, 0.25, 0.125, 1.0 };
    const std::vector<double> rowZps { 0, 1, -2, 3 };
    struct Packing
    {
        const char* op;
        int bits;
    };
    for (const Packing pk :
        { Packing { "embedding_byte", 8 }, Packing { "embedding_4bit", 4 }, Packing { "embedding_2bit", 2 } })
        for (const bool withDtype : { false, true }) {
            const std::string kernel =
                std::string("quantized_decomposed::") + pk.op + (withDtype ? ".dtype_out" : ".out");
            v.push_back(make(kernel, std::string("quantized_decomposed.") + pk.op + (withDtype ? ".dtype" : ""), [=] {
                Case c;
                const int dim = 4;
                const int per = 8 / pk.bits; // values per byte
                // Unpacked int values of the table [4, dim]: int8 for bytes, [-8, 7] and [-2, 1] for the packed ones.
                const std::int64_t lo = pk.bits == 8 ? -20 : -(1 << (pk.bits - 1));
                const std::int64_t hi = pk.bits == 8 ? 20 : (1 << (pk.bits - 1)) - 1;
                const auto table = ints(std::size_t(4 * dim), seedOf(kernel), lo, hi);
                std::vector<double> stored;
                if (pk.bits == 8) {
                    stored = table;
                } else {
                    // torch's packing: 4-bit values as (v + 8), the first in the high nibble; 2-bit values as (v + 2),
                    // the first in the lowest bits.
                    for (int r = 0; r < 4; ++r)
                        for (int b = 0; b < dim / per; ++b) {
                            int byte = 0;
                            for (int k = 0; k < per; ++k) {
                                const int u = int(table[std::size_t(r * dim + b * per + k)] - lo);
                                byte |= pk.bits == 4 ? u << (k == 0 ? 4 : 0) : u << (2 * k);
                            }
                            stored.push_back(byte);
                        }
                }
                c.dump.weight("p_w", "emb.weight", { 4, dim / per }, stored, true, pk.bits == 8 ? kChar : kByte);
                c.dump.constant("c_scales", "scales", { 4 }, rowScales);
                c.dump.constant("c_zps", "zps", { 4 }, rowZps);
                c.in("idx", { 3 }, { 2, 0, 3 }, kLong);
                std::vector<double> y;
                for (const int r : { 2, 0, 3 })
                    for (int k = 0; k < dim; ++k)
                        y.push_back(
                            (table[std::size_t(r * dim + k)] - rowZps[std::size_t(r)]) * rowScales[std::size_t(r)]);
                json args = json::array({ arg("weight", T("p_w")), arg("weight_scales", T("c_scales")),
                    arg("weight_zero_points", T("c_zps")), arg("weight_quant_min", I(lo)),
                    arg("weight_quant_max", I(hi)), arg("indices", T("idx")) });
                if (withDtype)
                    args.push_back(kwarg("dtype", Dtype(kFloat)));
                c.op("y", kQ + pk.op + (withDtype ? ".dtype" : ".default"), args, { 3, dim }, y);
                return c;
            }));
        }
    v.push_back(make("quantized_decomposed::mixed_linear.out", "quantized_decomposed.mixed_linear", [=] {
        // linear(x, (w - 0) * scales per output row)
        Case c;
        const auto w = ints(12, 141, -20, 20); // [4, 3]
        c.dump.weight("p_w", "w", { 4, 3 }, w, true, kChar);
        c.dump.constant("c_scales", "scales", { 4 }, rowScales);
        c.in("x", { 2, 3 }, vals(6, 142, -2, 2));
        std::vector<double> y;
        for (int i = 0; i < 2; ++i)
            for (int o = 0; o < 4; ++o) {
                double acc = 0;
                for (int k = 0; k < 3; ++k)
                    acc += c.inputs[0].values[std::size_t(i * 3 + k)] * w[std::size_t(o * 3 + k)]
                        * rowScales[std::size_t(o)];
                y.push_back(acc);
            }
        c.op("y", kQ + "mixed_linear.default",
            json::array({ arg("input", T("x")), arg("weight", T("p_w")), arg("weight_scales", T("c_scales")),
                arg("weight_zero_points", None()) }),
            { 2, 4 }, y);
        return c;
    }));
    v.push_back(make("quantized_decomposed::mixed_mm.out", "quantized_decomposed.mixed_mm", [=] {
        // mm(x, (w - 0) * scales per row of w)
        Case c;
        const auto w = ints(12, 143, -20, 20); // [3, 4]
        c.dump.weight("p_w", "w", { 3, 4 }, w, true, kChar);
        c.dump.constant("c_scales", "scales", { 3 }, { 0.5, 0.25, 0.125 });
        c.in("x", { 2, 3 }, vals(6, 144, -2, 2));
        const std::vector<double> sc { 0.5, 0.25, 0.125 };
        std::vector<double> y;
        for (int i = 0; i < 2; ++i)
            for (int o = 0; o < 4; ++o) {
                double acc = 0;
                for (int k = 0; k < 3; ++k)
                    acc += c.inputs[0].values[std::size_t(i * 3 + k)] * w[std::size_t(k * 4 + o)] * sc[std::size_t(k)];
                y.push_back(acc);
            }
        c.op("y", kQ + "mixed_mm.default",
            json::array({ arg("input", T("x")), arg("weight", T("p_w")), arg("weight_scales", T("c_scales")),
                arg("weight_zero_points", None()) }),
            { 2, 4 }, y);
        return c;
    }));
}

/** x: a user input of dynamic shape [s0, 3], s0 <= 4 (the runner feeds its upper bound); s = sym_size(x, 0). */
Case dynamicInput()
{
    Case c;
    c.in("x", { 4, 3 }, vals(12, 151, -2, 2));
    c.dump.dynamic("x", 0, "s0", 4);
    c.dump.symNode("s", "sym_size.int", json::array({ arg("self", T("x")), arg("dim", I(0)) }), "s0", 4);
    return c;
}

void prims(std::vector<OpCase>& v)
{
    v.push_back(make("aten::sym_size.int", "aten.sym_size.int (a dynamic dimension)", [] {
        Case c = dynamicInput();
        c.dump.symOutput("s");
        c.expect({}, { 4 }, kLong);
        return c;
    }));
    v.push_back(make("aten::sym_numel", "aten.sym_numel", [] {
        Case c = dynamicInput();
        c.dump.symNode("n", "sym_numel.default", json::array({ arg("self", T("x")) }), "3*s0", 12);
        c.dump.symOutput("n");
        c.expect({}, { 12 }, kLong);
        return c;
    }));
    v.push_back(make("aten::_local_scalar_dense", "aten._local_scalar_dense (x.item())", [] {
        Case c;
        c.in("x", { 1 }, { 7 }, kLong);
        c.dump.symNode("item", "_local_scalar_dense.default", json::array({ arg("self", T("x")) }), "u0", 7);
        c.dump.symOutput("item");
        c.expect({}, { 7 }, kLong);
        return c;
    }));
    struct Prim
    {
        const char* kernel;
        const char* target;
        std::vector<json> args; ///< after the sym size s (4)
        const char* kind; ///< result kind
        double expected;
    };
    const std::vector<Prim> prims {
        { "add", "_operator.add", { I(3) }, "int", 7 },
        { "sub", "_operator.sub", { I(6) }, "int", -2 },
        { "mul", "_operator.mul", { I(3) }, "int", 12 },
        { "floordiv", "_operator.floordiv", { I(3) }, "int", 1 },
        { "truediv", "_operator.truediv", { I(8) }, "float", 0.5 },
        { "mod", "_operator.mod", { I(3) }, "int", 1 },
        { "eq", "_operator.eq", { I(4) }, "bool", 1 },
        { "gt", "_operator.gt", { I(4) }, "bool", 0 },
        { "ge", "_operator.ge", { I(4) }, "bool", 1 },
        { "lt", "_operator.lt", { I(5) }, "bool", 1 },
        { "le", "_operator.le", { I(3) }, "bool", 0 },
        { "neg", "_operator.neg", {}, "int", -4 },
        { "sym_max", "torch.sym_max", { I(9) }, "int", 9 },
        { "sym_min", "torch.sym_min", { I(9) }, "int", 4 },
        { "sym_float", "torch.sym_float", {}, "float", 4 },
    };
    for (const auto& p : prims)
        v.push_back(
            make(std::string("executorch_prim::") + p.kernel + ".Scalar", std::string(p.target) + " on a SymInt", [p] {
                Case c = dynamicInput();
                json args = json::array({ arg("", SymArg("s")) });
                for (const auto& a : p.args)
                    args.push_back(arg("", a));
                c.dump.symNode("r", p.target, args, "r", 0, p.kind);
                c.dump.symOutput("r", p.kind);
                c.expect({}, { p.expected },
                    std::string(p.kind) == "float"      ? kDouble
                        : std::string(p.kind) == "bool" ? kBool
                                                        : kLong);
                return c;
            }));
    // Operators on a SymFloat: t = s / 8 (0.5), then ceil / round / trunc / sym_int; sym_not and sym_ite of s == 4.
    const std::vector<std::tuple<const char*, const char*, double>> floats { { "ceil", "math.ceil", 1 },
        { "round", "builtins.round", 0 }, { "trunc", "math.trunc", 0 }, { "sym_int", "torch.sym_int", 0 } };
    for (const auto& [kernel, target, expected] : floats)
        v.push_back(make(std::string("executorch_prim::") + kernel + ".Scalar", std::string(target) + " on a SymFloat",
            [kernel = std::string(kernel), target = std::string(target), expected = expected] {
                Case c = dynamicInput();
                c.dump.symNode(
                    "t", "_operator.truediv", json::array({ arg("", SymArg("s")), arg("", I(8)) }), "t", 0, "float");
                c.dump.symNode("r", target, json::array({ arg("", { { "as_sym_float", { { "as_name", "t" } } } }) }),
                    "r", 0, "int");
                c.dump.symOutput("r");
                c.expect({}, { expected }, kLong);
                return c;
            }));
    v.push_back(make("executorch_prim::sym_not.Scalar", "torch.sym_not on a SymBool", [] {
        Case c = dynamicInput();
        c.dump.symNode("b", "_operator.eq", json::array({ arg("", SymArg("s")), arg("", I(4)) }), "b", 0, "bool");
        c.dump.symNode("r", "torch.sym_not", json::array({ arg("", { { "as_sym_bool", { { "as_name", "b" } } } }) }),
            "r", 0, "bool");
        c.dump.symOutput("r", "bool");
        c.expect({}, { 0 }, kBool);
        return c;
    }));
    v.push_back(make("executorch_prim::sym_ite.Scalar", "torch.sym_ite", [] {
        Case c = dynamicInput();
        c.dump.symNode("b", "_operator.eq", json::array({ arg("", SymArg("s")), arg("", I(4)) }), "b", 0, "bool");
        c.dump.symNode("r", "torch.sym_ite",
            json::array({ arg("", { { "as_sym_bool", { { "as_name", "b" } } } }), arg("", I(10)), arg("", I(20)) }),
            "r", 0, "int");
        c.dump.symOutput("r");
        c.expect({}, { 10 }, kLong);
        return c;
    }));
    v.push_back(
        make("executorch_prim::et_copy_index.tensor", "torch.ops.higher_order.map_impl (tests/data/emit/map.json)", [] {
            Case c;
            c.program = []() -> Result<std::shared_ptr<const ExportedProgram>> {
                PTE_TRY(const auto dump, readDump(testDataDir().toStdString() + "/emit/map.json"));
                return dump->methods.at(0).second;
            };
            const auto x = vals(6, 152, -2, 2);
            const auto y = vals(2, 153, -2, 2);
            c.inputs = { HostTensor::floats({ 3, 2 }, roundTo(x, kFloat)),
                HostTensor::floats({ 2 }, roundTo(y, kFloat)) };
            std::vector<double> out;
            for (int r = 0; r < 3; ++r)
                for (int k = 0; k < 2; ++k) {
                    const double row = -f32(x[std::size_t(r * 2 + k)]);
                    out.push_back(-(row * f32(y[std::size_t(k)]) + row));
                }
            c.expect({ 3, 2 }, out);
            return c;
        }));
    v.push_back(make("executorch_prim::et_view.default", "executorch.exir.memory.view of a dynamic tensor", [] {
        Case c = dynamicInput();
        c.dump.symNode("n", "_operator.mul", json::array({ arg("", SymArg("s")), arg("", I(3)) }), "3*s0", 12);
        c.op("y", "executorch.exir.memory.view", json::array({ arg("", T("x")), arg("", SymInts({ "n" })) }), { 12 },
            c.inputs[0].values);
        c.dump.dynamic("y", 0, "3*s0", 12);
        return c;
    }));
}

} // namespace

const std::vector<OpCase>& operatorCases()
{
    static const std::vector<OpCase> cases = [] {
        std::vector<OpCase> v;
        elementwise(v);
        reductions(v);
        shapes(v);
        creation(v);
        nn(v);
        indexing(v);
        complexViews(v);
        quantized(v);
        prims(v);
        return v;
    }();
    return cases;
}

const std::map<std::string, std::string>& unreachableKernels()
{
    static const std::map<std::string, std::string> reasons {
        { "aten::allclose.Tensor",
            "ExecuTorch's test-only custom op (custom_ops.yaml): torch.allclose returns a Python bool, which "
            "torch.export cannot capture as a graph node." },
        { "aten::allclose.out", "As allclose.Tensor: a test-only custom op no exported graph contains." },
        { "aten::_to_copy.out",
            "The edge dialect turns _to_copy into dim_order_ops::_to_dim_order_copy (ExecuTorch's "
            "MemoryFormatOpsPass), "
            "and so does ptelens." },
        { "aten::clone.out",
            "The edge dialect turns clone into dim_order_ops::_clone_dim_order, and so does ptelens." },
        { "aten::empty.out",
            "The edge dialect turns empty into dim_order_ops::_empty_dim_order, and so does ptelens." },
        { "aten::index_put_",
            "The in-place form comes only from ExecuTorch's reinplace pass (to_executorch with run_reinplace_pass); "
            "exported graphs are functional and reach index_put.out." },
        { "aten::_native_batch_norm_legit.no_stats_out",
            "Batch norm without running statistics is training mode (in inference PyTorch requires the statistics), "
            "which the portable kernels do not compute ('Portable kernels only support inference mode'): ptelens "
            "decomposes it into var/mean/rsqrt/... as torch's core decomposition does." },
        { "aten::native_dropout.out",
            "Measured on the runtime: the portable kernel keeps elements without scaling them by 1 / (1 - p), unlike "
            "PyTorch. ptelens decomposes training-mode dropout as torch's decomposition of native_dropout does "
            "(rand > p, times the input, times 1 / (1 - p)); see rand.out." },
        { "et_copy::_h2d_copy.out",
            "A device copy inserted by ExecuTorch's device propagation for non-CPU memory; ptelens emits CPU programs "
            "only." },
        { "et_copy::_d2h_copy.out", "As _h2d_copy: device copies for non-CPU memory." },
        { "executorch_prim::floordiv.int",
            "The int overload: ExecuTorch's EdgeToBackendOpsPass maps Python's operator.floordiv to floordiv.Scalar." },
        { "executorch_prim::mod.int",
            "The int overload: ExecuTorch's EdgeToBackendOpsPass maps Python's operator.mod to mod.Scalar." },
        { "quantized_decomposed::add.out",
            "Produced by ExecuTorch's QuantFusionPass from dequantize/add/quantize patterns during to_executorch, not "
            "present in exported graphs." },
    };
    return reasons;
}

} // namespace pte::test
