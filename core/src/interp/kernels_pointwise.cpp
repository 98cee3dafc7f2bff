// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// Elementwise kernels: arithmetic and comparisons, math functions, activations, bitwise and logical ops, clamps and
// selects.
#include "interp/kernel.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <numeric>
#include <optional>

namespace pte::interp {

namespace {

using Unary = std::function<double(double)>;
using Binary = std::function<double(double, double)>;

/** Python's remainder (the sign of the divisor), as the portable kernels compute it for every dtype. */
double remainderOf(double a, double b)
{
    double r = std::fmod(a, b);
    if (r != 0 && (r < 0) != (b < 0))
        r += b;
    return r;
}

const std::map<std::string, Unary, std::less<>>& unaryOps()
{
    static const std::map<std::string, Unary, std::less<>> ops = {
        { "acos", [](double x) { return std::acos(x); } },
        { "acosh", [](double x) { return std::acosh(x); } },
        { "asin", [](double x) { return std::asin(x); } },
        { "asinh", [](double x) { return std::asinh(x); } },
        { "atan", [](double x) { return std::atan(x); } },
        { "atanh", [](double x) { return std::atanh(x); } },
        { "cos", [](double x) { return std::cos(x); } },
        { "cosh", [](double x) { return std::cosh(x); } },
        { "sin", [](double x) { return std::sin(x); } },
        { "sinh", [](double x) { return std::sinh(x); } },
        { "tan", [](double x) { return std::tan(x); } },
        { "erf", [](double x) { return std::erf(x); } },
        { "expm1", [](double x) { return std::expm1(x); } },
        { "log", [](double x) { return std::log(x); } },
        { "log10", [](double x) { return std::log10(x); } },
        { "log1p", [](double x) { return std::log1p(x); } },
        { "log2", [](double x) { return std::log2(x); } },
        { "reciprocal", [](double x) { return 1.0 / x; } },
        { "ceil", [](double x) { return std::ceil(x); } },
        { "floor", [](double x) { return std::floor(x); } },
        { "round", [](double x) { return std::nearbyint(x); } }, // half to even, as torch.round
        { "trunc", [](double x) { return std::trunc(x); } },
        { "sign", [](double x) { return std::isnan(x) ? x : double((x > 0) - (x < 0)); } },
        { "isnan", [](double x) { return double(std::isnan(x)); } },
        { "isinf", [](double x) { return double(std::isinf(x)); } },
        { "logical_not", [](double x) { return double(x == 0); } },
    };
    return ops;
}

const std::map<std::string, Binary, std::less<>>& binaryOps()
{
    static const std::map<std::string, Binary, std::less<>> ops = {
        { "atan2", [](double x, double y) { return std::atan2(x, y); } },
        { "fmod", [](double x, double y) { return std::fmod(x, y); } },
        { "remainder", remainderOf },
        { "logical_and", [](double x, double y) { return double(x != 0 && y != 0); } },
        { "logical_or", [](double x, double y) { return double(x != 0 || y != 0); } },
        { "logical_xor", [](double x, double y) { return double((x != 0) != (y != 0)); } },
        { "bitwise_and", [](double x, double y) { return double(asInt(x) & asInt(y)); } },
        { "bitwise_or", [](double x, double y) { return double(asInt(x) | asInt(y)); } },
        { "bitwise_xor", [](double x, double y) { return double(asInt(x) ^ asInt(y)); } },
        { "bitwise_left_shift",
            [](double x, double y) {
                return y < 0 || y >= 64 ? 0.0 : double(std::int64_t(std::uint64_t(asInt(x)) << asInt(y)));
            } },
        { "bitwise_right_shift",
            [](double x, double y) { return y < 0 || y >= 64 ? (x < 0 ? -1.0 : 0.0) : double(asInt(x) >> asInt(y)); } },
    };
    return ops;
}

const std::map<std::string, std::function<double(double)>, std::less<>>& basicUnaryOps()
{
    static const std::map<std::string, std::function<double(double)>, std::less<>> ops = {
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

    return ops;
}

struct Pointwise : Kernel
{
    using Kernel::Kernel;

    Result<void> arithmetic()
    {
        const auto it = basicBinaryOps().find(name);
        // add/sub .out: [self, other, alpha, out, ret]; .Scalar_out likewise with a scalar other;
        // mul/div/compare .out and .Scalar_out / .Tensor_out: [self, other, out, ret] (other overloads, such as
        // div.out_mode, are registered apart).
        const bool hasAlpha = name == "add" || name == "sub";
        const bool scalarOther = overload == "Scalar_out";
        PTE_CHECK(need(hasAlpha ? 5 : 4));
        double alpha = 1;
        if (hasAlpha) {
            PTE_TRY(alpha, scalar(arg(2)));
        }
        const auto f = it->second;
        return binary(
            arg(0), arg(1), scalarOther, arg(hasAlpha ? 3 : 2), [&](double x, double y) { return f(x, alpha * y); });
    }

    Result<void> basicUnary()
    {
        const auto it = basicUnaryOps().find(name);
        PTE_CHECK(need(3));
        return unary(arg(0), arg(1), it->second);
    }

    // [self, out, ret]: the complex conjugate (the imaginary parts negated); a real tensor is copied.
    Result<void> conjPhysical()
    {
        PTE_CHECK(need(3));
        PTE_TRY(auto self, tensor(arg(0)));
        PTE_TRY(auto out, tensor(arg(1)));
        if (self->dtype != ScalarType::ComplexFloat)
            return unary(arg(0), arg(1), [](double x) { return x; });
        if (out->dtype != ScalarType::ComplexFloat)
            return fail(ErrorCode::InvalidInput, where() + ": " + op + " of a complex64 tensor into another dtype");
        PTE_CHECK(resize(*out, self->sizes));
        for (std::size_t e = 0; e < self->numel(); ++e) {
            float parts[2];
            std::memcpy(parts, self->data + self->physical(e) * sizeof parts, sizeof parts);
            parts[1] = -parts[1];
            std::memcpy(out->data + out->physical(e) * sizeof parts, parts, sizeof parts);
        }
        return {};
    }

    // [self, min?, max?, out, ret]
    Result<void> clamp()
    {
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

    // [self, other, alpha, out, ret]: other - alpha * self
    Result<void> rsub()
    {
        PTE_CHECK(need(5));
        PTE_TRY(const double other, scalar(arg(1)));
        PTE_TRY(const double alpha, scalar(arg(2)));
        return unary(arg(0), arg(3), [&](double x) { return other - alpha * x; });
    }

    // [self, mask, value, out, ret]; the mask broadcasts
    Result<void> maskedFill()
    {
        PTE_CHECK(need(5));
        PTE_TRY(const double value, scalar(arg(2)));
        return binary(arg(0), arg(1), false, arg(3), [&](double x, double m) { return m != 0 ? value : x; });
    }

    // [self, approximate, out, ret]
    Result<void> gelu()
    {
        PTE_CHECK(need(4));
        if (arg(1) < 0 || std::size_t(arg(1)) >= slots.size() || slots[std::size_t(arg(1))].kind != ValueKind::String)
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

    // [self, min_val, max_val, out, ret]
    Result<void> hardtanh()
    {
        PTE_CHECK(need(5));
        PTE_TRY(const double lo, scalar(arg(1)));
        PTE_TRY(const double hi, scalar(arg(2)));
        return unary(arg(0), arg(3), [&](double x) { return std::min(std::max(x, lo), hi); });
    }

    // [self, exponent, out, ret]
    Result<void> pow()
    {
        PTE_CHECK(need(4));
        return binary(
            arg(0), arg(1), overload == "Tensor_Scalar_out", arg(2), [](double x, double y) { return std::pow(x, y); });
    }

    // [condition, self, other, out, ret]
    Result<void> whereSelf()
    {
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

    // [self, negative_slope, out, ret]
    Result<void> leakyRelu()
    {
        PTE_CHECK(need(4));
        PTE_TRY(const double slope, scalar(arg(1)));
        return unary(arg(0), arg(2), [&](double x) { return x > 0 ? x : x * slope; });
    }

    Result<void> mathUnary()
    {
        const auto it = unaryOps().find(name);
        PTE_CHECK(need(3));
        PTE_CHECK(unaryAt(0, 1, it->second));
        return {};
    }

    // [self, out, ret]
    Result<void> bitwiseNot()
    {
        PTE_CHECK(need(3));
        PTE_TRY(auto x, tensorAt(0));
        const bool isBool = x->dtype == ScalarType::Bool;
        PTE_CHECK(unaryAt(0, 1, [&](double v) { return isBool ? double(v == 0) : double(~asInt(v)); }));
        return {};
    }

    Result<void> mathBinary()
    {
        const auto it = binaryOps().find(name);
        // .out / .Tensor_out: [self, other, out, ret]; .Scalar_out and .Tensor_Scalar_out: [self, other (a scalar),
        // out, ret]
        PTE_CHECK(need(4));
        PTE_CHECK(binaryAt(0, 1, overload == "Scalar_out" || overload == "Tensor_Scalar_out", 2, it->second));
        return {};
    }

    Result<void> div()
    {
        // [self, other, rounding_mode?, out, ret]: "trunc" or "floor" rounds the true quotient; None keeps it.
        PTE_CHECK(need(5));
        std::string mode;
        if (!d.isNull(arg(2))) {
            const auto id = std::size_t(arg(2));
            if (arg(2) < 0 || id >= d.slots.size() || d.slots[id].kind != ValueKind::String)
                return invalid("rounding_mode is not a string");
            mode = d.slots[id].s;
            if (mode != "trunc" && mode != "floor")
                return invalid("rounding_mode '" + mode + "' (trunc, floor or None)");
        }
        PTE_TRY(auto o, tensorAt(3));
        const bool integral = o->dtype != ScalarType::Float && o->dtype != ScalarType::Double
            && o->dtype != ScalarType::Half && o->dtype != ScalarType::BFloat16;
        PTE_CHECK(binaryAt(0, 1, overload == "Scalar_mode_out", 3, [&](double x, double y) -> double {
            if (integral && y == 0)
                return 0; // the portable kernel refuses integer division by zero; nothing is stored then
            const double q = x / y;
            if (mode == "trunc")
                return std::trunc(q);
            if (mode == "floor")
                return std::floor(q);
            return q;
        }));
        return {};
    }

    // [self, alpha, scale, input_scale, out, ret]
    Result<void> elu()
    {
        PTE_CHECK(need(6));
        PTE_TRY(const double alpha, scalarAt(1));
        PTE_TRY(const double scale, scalarAt(2));
        PTE_TRY(const double inputScale, scalarAt(3));
        PTE_CHECK(
            unaryAt(0, 4, [&](double x) { return x > 0 ? x * scale : alpha * scale * std::expm1(x * inputScale); }));
        return {};
    }
    // [self, min?, max?, out, ret]: min and max tensors broadcast with self (max wins where min > max)
    Result<void> clampTensor()
    {
        PTE_CHECK(need(5));
        PTE_TRY(auto x, tensorAt(0));
        PTE_TRY(auto lo, d.optionalTensor(arg(1)));
        PTE_TRY(auto hi, d.optionalTensor(arg(2)));
        PTE_TRY(auto out, tensorAt(3));
        std::vector<std::int64_t> shape = x->sizes;
        for (const auto* bound : { lo.get(), hi.get() })
            if (bound) {
                const auto s = broadcastShape(shape, bound->sizes);
                if (s.empty() && !(shape.empty() && bound->sizes.empty()))
                    return invalid("shapes do not broadcast");
                shape = s;
            }
        PTE_CHECK(resize(*out, shape));
        std::vector<double> r(out->numel());
        for (std::size_t e = 0; e < r.size(); ++e) {
            double v = x->get(broadcastIndex(shape, x->sizes, e));
            if (lo)
                v = std::max(v, lo->get(broadcastIndex(shape, lo->sizes, e)));
            if (hi)
                v = std::min(v, hi->get(broadcastIndex(shape, hi->sizes, e)));
            r[e] = v;
        }
        store(*out, r);
        return {};
    }

    // fill.Scalar_out [self, value, out, ret]; fill.Tensor_out with a 0-D tensor value: self's shape, every element
    // the value
    Result<void> fill()
    {
        PTE_CHECK(need(4));
        double value = 0;
        if (overload == "Tensor_out") {
            PTE_TRY(auto v, tensorAt(1));
            if (v->numel() != 1)
                return invalid("the value is not a one-element tensor");
            value = v->get(0);
        } else {
            PTE_TRY(value, scalarAt(1));
        }
        return unaryAt(0, 2, [&](double) { return value; });
    }

    // [self, other, out, ret]: the quotient rounded toward negative infinity (Python's //)
    Result<void> floorDivide()
    {
        PTE_CHECK(need(4));
        PTE_TRY(auto x, tensorAt(0));
        const bool integral = x->dtype != ScalarType::Float && x->dtype != ScalarType::Double;
        return binaryAt(0, 1, false, 2, [&](double a, double b) {
            if (integral && b != 0)
                return double(asInt(a) / asInt(b) - ((asInt(a) % asInt(b) != 0) && ((a < 0) != (b < 0)) ? 1 : 0));
            return std::floor(a / b);
        });
    }

    // [self (a scalar base), exponent, out, ret]
    Result<void> powScalar()
    {
        PTE_CHECK(need(4));
        PTE_TRY(const double base, scalarAt(0));
        return unaryAt(1, 2, [&](double e) { return std::pow(base, e); });
    }

    // [self, eps?, out, ret]: log(x / (1 - x)), x clamped to [eps, 1 - eps] when eps is given
    Result<void> logit()
    {
        PTE_CHECK(need(4));
        std::optional<double> eps;
        if (!d.isNull(arg(1))) {
            PTE_TRY(eps, scalarAt(1));
        }
        return unaryAt(0, 2, [&](double x) {
            if (eps)
                x = std::clamp(x, *eps, 1 - *eps);
            return std::log(x / (1 - x));
        });
    }

    // [self, dim, out, ret]: a * sigmoid(b), a and b the halves of self along dim
    Result<void> glu()
    {
        PTE_CHECK(need(4));
        PTE_TRY(auto x, tensorAt(0));
        PTE_TRY(const std::size_t dim, dimArg(1, x->sizes.size()));
        PTE_TRY(auto out, tensorAt(2));
        if (x->sizes.empty() || x->sizes[dim] % 2 != 0)
            return invalid("the dimension's size is not even");
        std::vector<std::int64_t> shape = x->sizes;
        shape[dim] /= 2;
        PTE_CHECK(resize(*out, shape));
        const std::size_t inner = numelFrom(shape, dim + 1);
        const auto half = std::size_t(shape[dim]);
        std::vector<double> r(out->numel());
        for (std::size_t e = 0; e < r.size(); ++e) {
            const std::size_t o = e / (half * inner);
            const std::size_t k = (e / inner) % half;
            const std::size_t base = o * 2 * half * inner + e % inner;
            const double a = x->get(base + k * inner);
            const double b = x->get(base + (k + half) * inner);
            r[e] = a / (1.0 + std::exp(-b));
        }
        store(*out, r);
        return {};
    }
};

} // namespace

const std::map<std::string, std::function<double(double, double)>, std::less<>>& basicBinaryOps()
{
    static const std::map<std::string, std::function<double(double, double)>, std::less<>> ops = {
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
    return ops;
}

void registerPointwiseKernels(KernelRegistry& registry)
{
    using F = Pointwise;
    for (const auto& entry : basicBinaryOps())
        for (const char* overload : { "out", "Scalar_out", "Tensor_out" })
            registry.add("aten::" + entry.first + "." + overload, invoke<F, &F::arithmetic>);
    for (const auto& entry : basicUnaryOps())
        registry.add("aten::" + entry.first + ".out", invoke<F, &F::basicUnary>);
    registry.add("aten::clamp.out", invoke<F, &F::clamp>);
    registry.add("aten::_conj_physical.out", invoke<F, &F::conjPhysical>, true);
    registry.add("aten::rsub.Scalar_out", invoke<F, &F::rsub>);
    registry.add("aten::masked_fill.Scalar_out", invoke<F, &F::maskedFill>);
    registry.add("aten::gelu.out", invoke<F, &F::gelu>);
    registry.add("aten::hardtanh.out", invoke<F, &F::hardtanh>);
    registry.add("aten::pow.Tensor_Scalar_out", invoke<F, &F::pow>);
    registry.add("aten::pow.Tensor_Tensor_out", invoke<F, &F::pow>);
    registry.add("aten::where.self_out", invoke<F, &F::whereSelf>);
    registry.add("aten::leaky_relu.out", invoke<F, &F::leakyRelu>);
    for (const auto& entry : unaryOps())
        registry.add("aten::" + entry.first + ".out", invoke<F, &F::mathUnary>);
    registry.add("aten::bitwise_not.out", invoke<F, &F::bitwiseNot>);
    for (const auto& entry : binaryOps())
        for (const char* overload : { "out", "Tensor_out", "Scalar_out" })
            registry.add("aten::" + entry.first + "." + overload, invoke<F, &F::mathBinary>);
    registry.add("aten::div.out_mode", invoke<F, &F::div>);
    registry.add("aten::div.Scalar_mode_out", invoke<F, &F::div>);
    registry.add("aten::elu.out", invoke<F, &F::elu>);
    registry.add("aten::clamp.Tensor_out", invoke<F, &F::clampTensor>);
    registry.add("aten::fill.Scalar_out", invoke<F, &F::fill>);
    registry.add("aten::fill.Tensor_out", invoke<F, &F::fill>);
    registry.add("aten::floor_divide.out", invoke<F, &F::floorDivide>);
    registry.add("aten::pow.Scalar_out", invoke<F, &F::powScalar>);
    registry.add("aten::logit.out", invoke<F, &F::logit>);
    registry.add("aten::glu.out", invoke<F, &F::glu>);
    registry.add("aten::bitwise_left_shift.Tensor_Scalar_out", invoke<F, &F::mathBinary>);
    registry.add("aten::bitwise_right_shift.Tensor_Scalar_out", invoke<F, &F::mathBinary>);
}

} // namespace pte::interp
