// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// Benchmark "diff": two programs of 200k instructions (--quick: 20k) with 512 MiB of constants each (--quick: 1 MiB),
// the second with 1% of its instructions edited (a third changed, a third inserted, a third removed;
// makeSyntheticVariant), are written to the work folder and `ptelens-cli diff A B --json` is measured (median of three
// runs after a warm-up, peak RSS of the largest); the in-process comparison (CPU time, which the machine's load does
// not inflate) must find exactly the edits. The main pair repeats a 24-instruction layer (makeSyntheticLayers, like a
// transformer's stack); the same edits on `ptelens-cli synth`'s program, whose instructions alternate between two
// identical-looking kernels (period 2), are reported too.
#include "bench.h"
#include "pte/programdiff.h"
#include "pte/ptewriter.h"
#include "pte/syntheticprogram.h"
#include "pte/syntheticvariant.h"

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <string>
#include <vector>

namespace pte::bench {

namespace {

double cpuTimeMs()
{
    timespec t {};
    ::clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return double(t.tv_sec) * 1000.0 + double(t.tv_nsec) / 1e6;
}

struct PairResult
{
    bool ok = false;
    double flatbufferMb = 0;
    std::uint64_t edits = 0;
    bool found = false;
    double cpuMs = 0;
};

/** Writes base and its variant, then compares them in this process. */
PairResult comparePair(const pte::Program& base, const std::string& pathA, const std::string& pathB)
{
    PairResult r;
    auto report = [](const pte::Error& e) { std::fprintf(stderr, "diff: %s\n", e.toString().c_str()); };
    {
        auto variant = pte::makeSyntheticVariant(base, 100); // 1% of the instructions edited
        if (!variant) {
            report(variant.error());
            return r;
        }
        auto serializedA = pte::serializePte(base);
        auto serializedB = pte::serializePte(variant->program);
        if (!serializedA || !serializedB) {
            report(serializedA ? serializedB.error() : serializedA.error());
            return r;
        }
        if (auto w = pte::writeSerializedPte(*serializedA, pathA); !w) {
            report(w.error());
            return r;
        }
        if (auto w = pte::writeSerializedPte(*serializedB, pathB); !w) {
            report(w.error());
            return r;
        }
        r.flatbufferMb = double(serializedA->programSize + serializedB->programSize) / (1024.0 * 1024.0);
        r.edits = variant->changed + variant->inserted + variant->removed;
    }
    const double start = cpuTimeMs();
    auto a = pte::openDiffSide(pathA);
    auto b = pte::openDiffSide(pathB);
    if (!a || !b) {
        report(a ? b.error() : a.error());
        return r;
    }
    auto diff = pte::diffPrograms(*a, *b);
    if (!diff) {
        report(diff.error());
        return r;
    }
    const std::string json = pte::diffReportJson(*diff);
    r.cpuMs = cpuTimeMs() - start;
    std::size_t changed = 0;
    std::size_t inserted = 0;
    std::size_t removed = 0;
    for (const auto& m : diff->methods) {
        changed += m.changed;
        inserted += m.inserted;
        removed += m.removed;
    }
    const std::uint64_t e = r.edits;
    r.found = changed == e / 3 + (e % 3 > 0) && inserted == e / 3 + (e % 3 > 1) && removed == e / 3
        && !diff->constants.empty()
        && std::all_of(diff->constants.begin(), diff->constants.end(),
            [](const pte::ConstantRow& c) { return c.status == pte::DiffStatus::Same; });
    if (!r.found)
        std::fprintf(stderr, "diff: %s: expected %llu edits, found %zu changed, %zu inserted, %zu removed\n",
            pathB.c_str(), static_cast<unsigned long long>(e), changed, inserted, removed);
    r.ok = true;
    return r;
}

std::vector<BenchMeasurement> runDiffBench(const BenchContext& ctx)
{
    const std::uint64_t instructions = ctx.quick ? 20000 : 200000;
    const std::uint64_t constantBytes = ctx.quick ? (std::uint64_t(1) << 20) : (std::uint64_t(512) << 20);
    const std::string pathA = ctx.workDir + "/diff-a.pte";
    const std::string pathB = ctx.workDir + "/diff-b.pte";
    const std::vector<BenchMeasurement> failed = { { "diff.setup_failed", 1, "", "0", false } };

    // The secondary pair first (its files are overwritten by the main pair's).
    PairResult alternating;
    {
        pte::SyntheticOptions options;
        options.instructions = instructions;
        auto base = pte::makeSyntheticProgram(options);
        if (!base)
            return failed;
        alternating = comparePair(*base, pathA, pathB);
        if (!alternating.ok)
            return failed;
    }
    PairResult layered;
    {
        auto base = pte::makeSyntheticLayers(instructions, 24, constantBytes);
        if (!base)
            return failed;
        layered = comparePair(*base, pathA, pathB);
        if (!layered.ok)
            return failed;
    }
    settleDisk(ctx);
    const std::vector<std::string> argv = { ctx.cliPath, "diff", pathA, pathB, "--json" };
    (void)runMeasured(argv); // warm-up: both files in the page cache
    std::vector<double> walls;
    double peak = 0;
    bool exitOk = true;
    for (int run = 0; run < 3; ++run) {
        const ProcessMeasurement m = runMeasured(argv);
        exitOk = exitOk && m.exitCode == 1; // 1 = different
        walls.push_back(m.wallMs);
        peak = std::max(peak, m.peakRssMb);
    }
    const double wall = median(walls);
    const double rssLimit = 64.0 + 8.0 * layered.flatbufferMb;
    char rssTarget[64];
    std::snprintf(rssTarget, sizeof rssTarget, "< %.0f MB", rssLimit);
    std::vector<BenchMeasurement> out;
    out.push_back({ "diff.instructions", double(instructions), "", "", true });
    out.push_back({ "diff.edits", double(layered.edits), "", "", true });
    out.push_back({ "diff.constants_mb_per_side", double(constantBytes) / (1024.0 * 1024.0), "MB", "", true });
    out.push_back({ "diff.flatbuffers_mb", layered.flatbufferMb, "MB", "", true });
    out.push_back({ "diff.found_exactly_the_edits", layered.found ? 1.0 : 0.0, "", "1", layered.found });
    out.push_back({ "diff.exit_code_1", exitOk ? 1.0 : 0.0, "", "1", exitOk });
    out.push_back({ "diff.wall_ms", wall, "ms", "< 1000 ms", exitOk && wall < 1000 });
    out.push_back({ "diff.wall_ms_min", *std::min_element(walls.begin(), walls.end()), "ms", "", true });
    out.push_back({ "diff.wall_ms_max", *std::max_element(walls.begin(), walls.end()), "ms", "", true });
    out.push_back({ "diff.in_process_cpu_ms", layered.cpuMs, "ms", "", true });
    out.push_back({ "diff.peak_rss_mb", peak, "MB", rssTarget, exitOk && peak < rssLimit });
    out.push_back({ "diff.alternating.found_exactly_the_edits", alternating.found ? 1.0 : 0.0, "", "", true });
    out.push_back({ "diff.alternating.in_process_cpu_ms", alternating.cpuMs, "ms", "", true });
    return out;
}

} // namespace

PTELENS_REGISTER_BENCHMARK(diff, "diff",
    "Compare two 200k-instruction programs (512 MiB of constants each) with 1% of the instructions edited",
    runDiffBench);

} // namespace pte::bench
