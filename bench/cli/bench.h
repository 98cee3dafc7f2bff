// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace pte::bench {

/** One measured number of a benchmark, with its target when the issue sets one. */
struct BenchMeasurement
{
    std::string name; ///< "info.wall_ms", "info.peak_rss_mb", "rewrite.vs_cp_ratio"
    double value = 0;
    std::string unit; ///< "ms", "MB", "x"
    std::string target; ///< human-readable target, e.g. "< 100 ms"; empty when none
    bool met = true; ///< whether the target is met
};

struct BenchContext
{
    std::string workDir; ///< scratch folder (removed afterwards)
    std::string cliPath; ///< the ptelens-cli binary beside ptelens-bench, to measure child processes
    bool quick = false; ///< --quick: small sizes, for smoke tests
};

/** A benchmark case `ptelens-bench` runs; registers itself with PTELENS_REGISTER_BENCHMARK. */
struct Benchmark
{
    const char* name;
    const char* summary;
    std::function<std::vector<BenchMeasurement>(const BenchContext&)> run;
};

std::vector<Benchmark>& benchmarkRegistry();

struct BenchmarkRegistrar
{
    explicit BenchmarkRegistrar(Benchmark b) { benchmarkRegistry().push_back(std::move(b)); }
};

#define PTELENS_REGISTER_BENCHMARK(ident, name, summary, fn)                                                           \
    static const ::pte::bench::BenchmarkRegistrar s_bench_##ident                                                      \
    {                                                                                                                  \
        ::pte::bench::Benchmark { name, summary, fn }                                                                  \
    }

/** Result of running a child process: wall time and peak resident memory (from wait4's rusage). */
struct ProcessMeasurement
{
    int exitCode = -1;
    double wallMs = 0;
    double peakRssMb = 0;
};

/** Runs argv[0] with arguments (no shell), stdout/stderr discarded, and measures it. */
ProcessMeasurement runMeasured(const std::vector<std::string>& argv);

/**
 * Flushes every dirty page (sync) and waits two seconds (not with --quick), so the next measured command starts on a
 * settled disk: on a virtual disk the host goes on writing after sync returns, and a command started at once is
 * throttled by it.
 */
void settleDisk(const BenchContext& ctx);

/** The ptelens source folder, from the CMakeCache.txt above the CLI binary (for schema/program.fbs); empty when
 *  not found. */
std::string sourceDir(const std::string& cliPath);

/** The median of `v` (0 when empty). */
double median(std::vector<double> v);

} // namespace pte::bench
