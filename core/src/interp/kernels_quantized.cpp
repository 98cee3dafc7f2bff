// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// quantized_decomposed's kernels, as PyTorch defines the ops (torch.ao.quantization.fx._decomposed): quantize
// q = clamp(round(x * (1 / scale)) + zero_point, quant_min, quant_max) (round half to even, in float), dequantize
// x = (q - zero_point) * scale, per tensor, channel or token; choosing the qparams; embeddings of int8 or packed
// 4-/2-bit tables; and matrix products with an int8 weight dequantized per row.
#include "interp/kernel.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace pte::interp {

namespace {

/** round(x * inv) + zeroPoint clamped to [lo, hi]; the product in float, as a float tensor times a Python float. */
double quantizeValue(double x, double inv, double zeroPoint, double lo, double hi)
{
    const float product = float(x) * float(inv);
    return std::clamp(double(std::nearbyint(product)) + zeroPoint, lo, hi);
}

struct Quantized : Kernel
{
    using Kernel::Kernel;

    /** A scale or zero point given as a Python number or (the .tensor overloads) a one-element tensor. */
    Result<double> scalarOrTensor(std::size_t k) const
    {
        if (overload != "Tensor_out")
            return scalarAt(k);
        PTE_TRY(auto t, tensorAt(k));
        if (t->numel() != 1)
            return invalid("a scale or zero point tensor of " + std::to_string(t->numel()) + " elements");
        return t->get(0);
    }

    // [input, scale, zero_point, quant_min, quant_max, dtype, out, ret]
    Result<void> quantizePerTensor()
    {
        PTE_CHECK(need(8));
        PTE_TRY(const double scale, scalarOrTensor(1));
        PTE_TRY(const double zeroPoint, scalarOrTensor(2));
        PTE_TRY(const double lo, scalarAt(3));
        PTE_TRY(const double hi, scalarAt(4));
        return unaryAt(0, 6, [&](double x) { return quantizeValue(x, 1.0 / scale, zeroPoint, lo, hi); });
    }

    // [input, scale, zero_point, quant_min, quant_max, dtype, out_dtype?, out, ret]
    Result<void> dequantizePerTensor()
    {
        PTE_CHECK(need(9));
        PTE_TRY(const double scale, scalarOrTensor(1));
        PTE_TRY(const double zeroPoint, scalarOrTensor(2));
        return unaryAt(0, 7, [&](double q) { return (q - zeroPoint) * scale; });
    }

    /** For each element of `x` (row-major), its index along `axis`. */
    static std::vector<std::size_t> channelOf(const TensorState& x, std::size_t axis)
    {
        const std::size_t inner = numelFrom(x.sizes, axis + 1);
        const auto len = std::size_t(x.sizes[axis]);
        std::vector<std::size_t> c(x.numel());
        for (std::size_t e = 0; e < c.size(); ++e)
            c[e] = (e / inner) % len;
        return c;
    }

    /** (De)quantization with a scale and zero point per position along `axis` (zeroPoints may be None: 0). */
    Result<void> perChannel(bool quantize, std::size_t axisArg, std::size_t outArg)
    {
        PTE_TRY(auto x, tensorAt(0));
        PTE_TRY(auto scales, tensorAt(1));
        PTE_TRY(auto zeroPoints, d.optionalTensor(arg(2)));
        PTE_TRY(const std::size_t axis, dimArg(axisArg, x->sizes.size()));
        PTE_TRY(const double lo, scalarAt(axisArg + 1));
        PTE_TRY(const double hi, scalarAt(axisArg + 2));
        PTE_TRY(auto out, tensorAt(outArg));
        if (x->sizes.empty() || scales->numel() != std::size_t(x->sizes[axis])
            || (zeroPoints && zeroPoints->numel() != scales->numel()))
            return invalid("scales and zero points do not match the channels");
        PTE_CHECK(resize(*out, x->sizes));
        const auto channel = channelOf(*x, axis);
        std::vector<double> r(x->numel());
        for (std::size_t e = 0; e < r.size(); ++e) {
            const double scale = scales->get(channel[e]);
            const double zeroPoint = zeroPoints ? zeroPoints->get(channel[e]) : 0.0;
            r[e] =
                quantize ? quantizeValue(x->get(e), 1.0 / scale, zeroPoint, lo, hi) : (x->get(e) - zeroPoint) * scale;
        }
        store(*out, r);
        return {};
    }

    // [input, scales, zero_points, axis, quant_min, quant_max, dtype, out, ret]
    Result<void> quantizePerChannel()
    {
        PTE_CHECK(need(9));
        return perChannel(true, 3, 7);
    }

    // [input, scales, zero_points?, axis, quant_min, quant_max, dtype, out_dtype?, out, ret]
    Result<void> dequantizePerChannel()
    {
        PTE_CHECK(need(10));
        return perChannel(false, 3, 8);
    }

    /** (De)quantization with a scale and zero point per token: per position of all dimensions but the last. */
    Result<void> perToken(bool quantize, std::size_t outArg)
    {
        PTE_TRY(auto x, tensorAt(0));
        PTE_TRY(auto scales, tensorAt(1));
        PTE_TRY(auto zeroPoints, tensorAt(2));
        PTE_TRY(const double lo, scalarAt(3));
        PTE_TRY(const double hi, scalarAt(4));
        PTE_TRY(auto out, tensorAt(outArg));
        const std::size_t len = x->sizes.empty() ? 1 : std::size_t(x->sizes.back());
        const std::size_t tokens = x->numel() / std::max<std::size_t>(len, 1);
        if (scales->numel() != tokens || zeroPoints->numel() != tokens)
            return invalid("scales and zero points do not match the tokens");
        PTE_CHECK(resize(*out, x->sizes));
        std::vector<double> r(x->numel());
        for (std::size_t e = 0; e < r.size(); ++e) {
            const double scale = scales->get(e / len);
            const double zeroPoint = zeroPoints->get(e / len);
            // x * (1 / scales) + zero_points, then rounded (the zero point added before rounding).
            r[e] = quantize
                ? std::clamp(std::nearbyint(double(float(x->get(e)) * float(1.0 / scale)) + zeroPoint), lo, hi)
                : (x->get(e) - zeroPoint) * scale;
        }
        store(*out, r);
        return {};
    }

    // [input, scales, zero_points, quant_min, quant_max, dtype, out, ret]
    Result<void> quantizePerToken()
    {
        PTE_CHECK(need(8));
        return perToken(true, 6);
    }

    // [input, scales, zero_points, quant_min, quant_max, dtype, output_dtype, out, ret]
    Result<void> dequantizePerToken()
    {
        PTE_CHECK(need(9));
        return perToken(false, 7);
    }

    // [input, quant_min, quant_max, eps, dtype, scale_out, zero_point_out, ret]: determine_qparams' affine case:
    // scale = max((max(x, 0) - min(x, 0)) / (quant_max - quant_min), eps) in float, zero_point =
    // clamp(quant_min - round(min(x, 0) / scale), quant_min, quant_max).
    Result<void> chooseQparams()
    {
        PTE_CHECK(need(8));
        PTE_TRY(auto x, tensorAt(0));
        PTE_TRY(const double qmin, scalarAt(1));
        PTE_TRY(const double qmax, scalarAt(2));
        PTE_TRY(const double eps, scalarAt(3));
        PTE_TRY(auto scaleOut, tensorAt(5));
        PTE_TRY(auto zeroOut, tensorAt(6));
        double lo = 0;
        double hi = 0;
        for (std::size_t e = 0; e < x->numel(); ++e) {
            lo = std::min(lo, x->get(e));
            hi = std::max(hi, x->get(e));
        }
        const double scale = std::max(double(float(hi - lo) / float(qmax - qmin)), double(float(eps)));
        const double zero = std::clamp(qmin - std::nearbyint(lo / scale), qmin, qmax);
        PTE_CHECK(resize(*scaleOut, { 1 }));
        PTE_CHECK(resize(*zeroOut, { 1 }));
        scaleOut->set(0, scale);
        zeroOut->set(0, zero);
        return {};
    }

    // [input, dtype, scale_out, zero_point_out, ret]: per token (all dimensions but the last), an int8 range:
    // scale = max((max(x, 0) - min(x, 0)) / 255, float32 eps), and the zero point from whichever end has the smaller
    // error, rounded and clamped to [-128, 127].
    Result<void> chooseQparamsPerTokenAsymmetric()
    {
        PTE_CHECK(need(5));
        PTE_TRY(auto x, tensorAt(0));
        PTE_TRY(auto scaleOut, tensorAt(2));
        PTE_TRY(auto zeroOut, tensorAt(3));
        const double qmin = -128;
        const double qmax = 127;
        const std::size_t len = x->sizes.empty() ? 1 : std::size_t(x->sizes.back());
        const std::size_t tokens = x->numel() / std::max<std::size_t>(len, 1);
        std::vector<std::int64_t> shape = x->sizes;
        if (!shape.empty())
            shape.back() = 1;
        PTE_CHECK(resize(*scaleOut, shape));
        PTE_CHECK(resize(*zeroOut, shape));
        for (std::size_t t = 0; t < tokens; ++t) {
            double lo = 0;
            double hi = 0;
            for (std::size_t k = 0; k < len; ++k) {
                lo = std::min(lo, x->get(t * len + k));
                hi = std::max(hi, x->get(t * len + k));
            }
            const double scale = std::max((hi - lo) / (qmax - qmin), double(std::numeric_limits<float>::epsilon()));
            const double descaledMin = lo / scale;
            const double descaledMax = hi / scale;
            const double zero =
                (qmin + descaledMin) + (qmax + descaledMax) > 0 ? qmin - descaledMin : qmax - descaledMax;
            scaleOut->set(t, scale);
            zeroOut->set(t, std::nearbyint(std::clamp(zero, qmin, qmax)));
        }
        return {};
    }

    /**
     * embedding_byte / _4bit / _2bit (.out: [weight, scales, zero_points?, quant_min, quant_max, indices, out, ret];
     * .dtype_out with dtype? before out): rows of the table dequantized ((w - zero_point) * scale, the scales per row
     * or per group of a row) and gathered. 4-bit values are stored + 8, two a byte, the first in the high nibble;
     * 2-bit values + 2, four a byte, the first in the lowest bits.
     */
    Result<void> embedding()
    {
        const bool withDtype = overload == "dtype_out";
        PTE_CHECK(need(withDtype ? 9 : 8));
        const int bits = name == "embedding_4bit" ? 4 : name == "embedding_2bit" ? 2 : 8;
        PTE_TRY(auto weight, tensorAt(0));
        PTE_TRY(auto scales, tensorAt(1));
        PTE_TRY(auto zeroPoints, d.optionalTensor(arg(2)));
        PTE_TRY(auto indices, tensorAt(5));
        PTE_TRY(auto out, tensorAt(withDtype ? 7 : 6));
        if (weight->sizes.size() != 2)
            return invalid("the weight is not 2-D");
        const auto rows = std::size_t(weight->sizes[0]);
        const auto stored = std::size_t(weight->sizes[1]);
        const std::size_t perByte = std::size_t(8 / bits);
        const std::size_t dim = stored * perByte;
        const std::size_t groups = scales->sizes.size() == 2 ? std::size_t(scales->sizes[1]) : 1;
        if (scales->numel() != rows * groups || groups == 0 || dim % groups != 0)
            return invalid("the scales do not match the weight's rows");
        const std::size_t groupSize = dim / groups;
        auto value = [&](std::size_t row, std::size_t k) -> double {
            if (bits == 8)
                return weight->get(row * stored + k);
            const auto byte = std::int64_t(weight->get(row * stored + k / perByte)) & 0xFF;
            if (bits == 4)
                return double(((k % 2 == 0 ? byte >> 4 : byte) & 0xF) - 8);
            return double(((byte >> (2 * (k % 4))) & 3) - 2);
        };
        std::vector<std::int64_t> shape = indices->sizes;
        shape.push_back(std::int64_t(dim));
        PTE_CHECK(resize(*out, shape));
        std::vector<double> r(indices->numel() * dim);
        for (std::size_t i = 0; i < indices->numel(); ++i) {
            const auto row = std::int64_t(indices->get(i));
            if (row < 0 || std::size_t(row) >= rows)
                return invalid("index " + std::to_string(row) + " out of range");
            for (std::size_t k = 0; k < dim; ++k) {
                const std::size_t q = std::size_t(row) * groups + k / groupSize;
                r[i * dim + k] =
                    (value(std::size_t(row), k) - (zeroPoints ? zeroPoints->get(q) : 0.0)) * scales->get(q);
            }
        }
        store(*out, r);
        return {};
    }

    /**
     * mixed_linear ([input, weight, scales, zero_points?, dtype?, out, ret]: input @ W^T, weight [out, in]) and
     * mixed_mm ([input, weight, scales, zero_points?, out, ret]: input @ W, weight [in, out]), W the weight
     * dequantized per row ((w - zero_point) * scale; the scales per row or per group of a row).
     */
    Result<void> mixed()
    {
        const bool linear = name == "mixed_linear";
        PTE_CHECK(need(linear ? 7 : 6));
        PTE_TRY(auto x, tensorAt(0));
        PTE_TRY(auto weight, tensorAt(1));
        PTE_TRY(auto scales, tensorAt(2));
        PTE_TRY(auto zeroPoints, d.optionalTensor(arg(3)));
        PTE_TRY(auto out, tensorAt(linear ? 5 : 4));
        if (x->sizes.empty() || weight->sizes.size() != 2)
            return invalid("needs a 2-D weight");
        const auto wRows = std::size_t(weight->sizes[0]);
        const auto wCols = std::size_t(weight->sizes[1]);
        const std::size_t groups = scales->sizes.size() == 2 ? std::size_t(scales->sizes[1]) : 1;
        if (scales->numel() != wRows * groups || groups == 0 || wCols % groups != 0)
            return invalid("the scales do not match the weight's rows");
        const std::size_t inner = linear ? wCols : wRows;
        const std::size_t n = linear ? wRows : wCols;
        if (std::size_t(x->sizes.back()) != inner)
            return invalid("the input does not match the weight");
        auto w = [&](std::size_t row, std::size_t col) {
            const std::size_t q = row * groups + col / (wCols / groups);
            return (weight->get(row * wCols + col) - (zeroPoints ? zeroPoints->get(q) : 0.0)) * scales->get(q);
        };
        std::vector<std::int64_t> shape = x->sizes;
        shape.back() = std::int64_t(n);
        PTE_CHECK(resize(*out, shape));
        const std::size_t m = x->numel() / std::max<std::size_t>(inner, 1);
        std::vector<double> r(m * n);
        for (std::size_t i = 0; i < m; ++i)
            for (std::size_t o = 0; o < n; ++o) {
                double acc = 0;
                for (std::size_t k = 0; k < inner; ++k)
                    acc += x->get(i * inner + k) * (linear ? w(o, k) : w(k, o));
                r[i * n + o] = acc;
            }
        store(*out, r);
        return {};
    }
};

} // namespace

void registerQuantizedKernels(KernelRegistry& registry)
{
    using F = Quantized;
    const std::string q = "quantized_decomposed::";
    registry.add(q + "quantize_per_tensor.out", invoke<F, &F::quantizePerTensor>);
    registry.add(q + "quantize_per_tensor.Tensor_out", invoke<F, &F::quantizePerTensor>);
    registry.add(q + "dequantize_per_tensor.out", invoke<F, &F::dequantizePerTensor>);
    registry.add(q + "dequantize_per_tensor.Tensor_out", invoke<F, &F::dequantizePerTensor>);
    registry.add(q + "quantize_per_channel.out", invoke<F, &F::quantizePerChannel>);
    registry.add(q + "dequantize_per_channel.out", invoke<F, &F::dequantizePerChannel>);
    registry.add(q + "quantize_per_token.out", invoke<F, &F::quantizePerToken>);
    registry.add(q + "dequantize_per_token.out", invoke<F, &F::dequantizePerToken>);
    registry.add(q + "choose_qparams.Tensor_out", invoke<F, &F::chooseQparams>);
    registry.add(q + "choose_qparams_per_token_asymmetric.out", invoke<F, &F::chooseQparamsPerTokenAsymmetric>);
    for (const char* table : { "embedding_byte", "embedding_4bit", "embedding_2bit" })
        for (const char* overload : { ".out", ".dtype_out" })
            registry.add(q + table + overload, invoke<F, &F::embedding>);
    registry.add(q + "mixed_linear.out", invoke<F, &F::mixed>);
    registry.add(q + "mixed_mm.out", invoke<F, &F::mixed>);
}

} // namespace pte::interp
