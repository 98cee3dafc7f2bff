// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// The Inspector table's numbers: time scales, event durations, and numpy's percentile and mean.
#include "etdump/profilestatistics.h"

#include "pte/profiletable.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace pte {

namespace etdump {

double sortedPercentile(const std::vector<double>& samples, double q)
{
    const double virtualIndex = double(samples.size() - 1) * (q / 100.0);
    const double lower = std::floor(virtualIndex);
    const auto lo = std::min(std::size_t(lower), samples.size() - 1);
    const auto hi = std::min(lo + 1, samples.size() - 1);
    const double t = virtualIndex - lower;
    const double a = samples[lo];
    const double b = samples[hi];
    const double diff = b - a;
    return t >= 0.5 ? b - diff * (1 - t) : a + diff * t;
}

} // namespace etdump

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

double units(TimeScale s)
{
    switch (s) {
    case TimeScale::Ns:
        return 1e9;
    case TimeScale::Us:
        return 1e6;
    case TimeScale::Ms:
        return 1e3;
    case TimeScale::S:
    case TimeScale::Cycles:
        return 1;
    }
    return 1;
}

/** The Inspector's elapsed time: end - start, or a wrapped 32-bit counter; nullopt when it cannot be. */
template <typename T> std::optional<T> elapsed(T start, T end)
{
    if (start <= end)
        return end - start;
    constexpr T limit = T(4294967295ull);
    if (start <= limit && end <= limit)
        return (limit - start) + end;
    return std::nullopt;
}

/** The numpy pairwise sum of a contiguous float64 run. */
double pairwiseSum(const double* a, std::size_t n)
{
    if (n < 8) {
        double res = 0.;
        for (std::size_t i = 0; i < n; ++i)
            res += a[i];
        return res;
    }
    if (n <= 128) {
        double r[8];
        for (std::size_t j = 0; j < 8; ++j)
            r[j] = a[j];
        std::size_t i = 8;
        for (; i < n - (n % 8); i += 8)
            for (std::size_t j = 0; j < 8; ++j)
                r[j] += a[i + j];
        double res = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
        for (; i < n; ++i)
            res += a[i];
        return res;
    }
    std::size_t n2 = n / 2;
    n2 -= n2 % 8;
    return pairwiseSum(a, n2) + pairwiseSum(a + n2, n - n2);
}
} // namespace

const char* timeScaleName(TimeScale scale) noexcept
{
    switch (scale) {
    case TimeScale::Ns:
        return "ns";
    case TimeScale::Us:
        return "us";
    case TimeScale::Ms:
        return "ms";
    case TimeScale::S:
        return "s";
    case TimeScale::Cycles:
        return "cycles";
    }
    return "?";
}

std::optional<TimeScale> parseTimeScale(std::string_view text) noexcept
{
    for (const auto s : { TimeScale::Ns, TimeScale::Us, TimeScale::Ms, TimeScale::S, TimeScale::Cycles })
        if (text == timeScaleName(s))
            return s;
    return std::nullopt;
}

std::optional<double> eventDuration(const EtdumpEvent& e, const ProfileOptions& options)
{
    if (e.kind != EtdumpEventKind::Profile)
        return std::nullopt;
    const double factor = units(options.source) / units(options.target);
    if (e.isDelegateEvent())
        return elapsed(double(e.startTime) / factor, double(e.endTime) / factor);
    const auto t = elapsed(e.startTime, e.endTime);
    if (!t)
        return std::nullopt;
    return double(*t) / factor;
}

double numpyPercentile(std::vector<double> samples, double q)
{
    if (samples.empty())
        return kNaN;
    for (const double s : samples)
        if (std::isnan(s))
            return kNaN;
    std::sort(samples.begin(), samples.end());
    return etdump::sortedPercentile(samples, q);
}

double numpyMean(const std::vector<double>& samples)
{
    if (samples.empty())
        return kNaN;
    return pairwiseSum(samples.data(), samples.size()) / double(samples.size());
}
} // namespace pte
