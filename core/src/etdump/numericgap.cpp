// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "pte/numericgap.h"

#include "pte/graph.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace pte {

namespace {

/** Pairwise sum (accurate for long tensors without sorting). */
double sum(const double* a, std::size_t n)
{
    if (n <= 64) {
        double s = 0;
        for (std::size_t i = 0; i < n; ++i)
            s += a[i];
        return s;
    }
    const std::size_t h = n / 2;
    return sum(a, h) + sum(a + h, n - h);
}

Result<std::vector<double>> elements(ScalarType dtype, const std::vector<std::int64_t>& sizes,
    const std::vector<std::int64_t>& strides, Bytes data, std::size_t maxElements, const std::string& what)
{
    WeightTensor t;
    t.meta.dtype = dtype;
    for (const auto s : sizes)
        t.meta.sizes.push_back(SymInt { s, {}, {} });
    for (const auto s : strides)
        t.meta.strides.push_back(SymInt { s, {}, {} });
    t.data = std::move(data);
    auto values = tensorElements(t, maxElements);
    if (!values)
        return fail(ErrorCode::Unsupported,
            what + " (" + scalarTypeShortName(dtype) + ") cannot be read as numbers: more than "
                + std::to_string(maxElements)
                + " elements, a dtype without a plain numeric reading, negative strides, "
                  "or fewer bytes than its strides need");
    return std::move(*values);
}

} // namespace

TensorStats tensorStats(std::span<const double> values, std::size_t firstCount)
{
    TensorStats s;
    s.count = values.size();
    s.first.assign(values.begin(), values.begin() + std::ptrdiff_t(std::min(firstCount, values.size())));
    std::vector<double> finite;
    finite.reserve(values.size());
    for (const double v : values) {
        if (std::isnan(v))
            ++s.nanCount;
        else if (std::isinf(v))
            ++s.infCount;
        else
            finite.push_back(v);
    }
    if (!finite.empty()) {
        const auto [mn, mx] = std::minmax_element(finite.begin(), finite.end());
        s.min = *mn;
        s.max = *mx;
        s.mean = sum(finite.data(), finite.size()) / double(finite.size());
    }
    return s;
}

Result<GapMetrics> numericGap(std::span<const double> expected, std::span<const double> actual)
{
    if (expected.size() != actual.size())
        return fail(ErrorCode::InvalidInput,
            "cannot compare " + std::to_string(actual.size()) + " values with " + std::to_string(expected.size())
                + " expected values");
    GapMetrics g;
    g.count = expected.size();
    if (expected.empty())
        return g;
    std::vector<double> sq(expected.size());
    std::vector<double> ab(expected.size());
    std::vector<double> ref(expected.size());
    for (std::size_t i = 0; i < expected.size(); ++i) {
        const double a = std::isnan(expected[i]) ? 0.0 : expected[i];
        const double b = std::isnan(actual[i]) ? 0.0 : actual[i];
        const double d = a - b;
        sq[i] = d * d;
        ab[i] = std::abs(d);
        ref[i] = a * a;
    }
    const double n = double(expected.size());
    g.mse = sum(sq.data(), sq.size()) / n;
    g.l1 = sum(ab.data(), ab.size());
    const double signal = sum(ref.data(), ref.size()) / n;
    g.snr = g.mse == 0 ? std::numeric_limits<double>::infinity() : 10.0 * std::log10(signal / g.mse);
    return g;
}

Result<std::vector<double>> loggedTensorValues(const EtDump& dump, const EtdumpTensor& tensor, std::size_t maxElements)
{
    PTE_TRY(Bytes data, dump.tensorData(tensor));
    auto strides = tensor.strides;
    if (strides.size() != tensor.sizes.size())
        strides.clear(); // contiguous
    return elements(tensor.scalarType, tensor.sizes, strides, std::move(data), maxElements, "the logged tensor");
}

Result<std::vector<double>> bundledTensorValues(const BundledValue& value, std::size_t maxElements)
{
    if (value.kind != BundledValue::Kind::Tensor)
        return fail(ErrorCode::InvalidInput,
            std::string("the bundled value is a ") + bundledValueKindName(value.kind) + ", not a Tensor");
    const std::size_t rank = value.sizes.size();
    std::vector<std::int64_t> sizes(value.sizes.begin(), value.sizes.end());
    // Strides from the dim order: the last dimension in dim order varies fastest in memory.
    std::vector<std::int64_t> strides(rank, 1);
    if (value.dimOrder.size() == rank) {
        std::vector<bool> seen(rank, false);
        for (const auto d : value.dimOrder) {
            if (d >= rank || seen[d])
                return fail(ErrorCode::InvalidInput, "the bundled tensor's dim_order is not a permutation");
            seen[d] = true;
        }
        std::int64_t stride = 1;
        for (std::size_t i = rank; i-- > 0;) {
            strides[value.dimOrder[i]] = stride;
            stride *= std::max<std::int64_t>(sizes[value.dimOrder[i]], 1);
        }
    } else {
        strides.clear();
    }
    return elements(value.scalarType, sizes, strides, value.data, maxElements, "the bundled tensor");
}

} // namespace pte
