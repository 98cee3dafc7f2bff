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
    return tensorValues(tensor.scalarType, tensor.sizes, strides, std::move(data), maxElements, "the logged tensor");
}

} // namespace pte
