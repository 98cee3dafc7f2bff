// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// Benchmark "diff": two synthetic programs of 200k instructions (--quick: 20k) with 512 MiB of constants each
// (--quick: 1 MiB), the second with 1% of its instructions edited (a third changed, a third inserted, a third
// removed; makeSyntheticVariant), are written to the work folder; `ptelens-cli diff A B --json` is measured (median of
// three runs after a warm-up, peak RSS of the largest). The in-process comparison must find exactly the edits.
#include "bench.h"
#include "pte/programdiff.h"
#include "pte/ptewriter.h"

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <string>
#include <vector>

namespace ptelens::cli {

namespace {

double cpuTimeMs()
{
    timespec t {};
    ::clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return double(t.tv_sec) * 1000.0 + double(t.tv_nsec) / 1e6;
}

std::vector<BenchMeasurement> runDiffBench(const BenchContext& ctx)
{
    pte::SyntheticOptions options;
    options.instructions = ctx.quick ? 20000 : 200000;
    options.constantBytes = ctx.quick ? (std::uint64_t(1) << 20) : (std::uint64_t(512) << 20);
    const std::uint64_t every = 100; // 1% of the instructions edited
    const std::string pathA = ctx.workDir + "/diff-a.pte";
    const std::string pathB = ctx.workDir + "/diff-b.pte";
    auto setupFailed = [](const pte::Error& e) -> std::vector<BenchMeasurement> {
        std::fprintf(stderr, "diff: %s\n", e.toString().c_str());
        return { { "diff.setup_failed", 1, "", "0", false } };
    };
    auto base = pte::makeSyntheticProgram(options);
    if (!base)
        return setupFailed(base.error());
    auto variant = pte::makeSyntheticVariant(*base, every);
    if (!variant)
        return setupFailed(variant.error());
    auto serializedA = pte::serializePte(*base);
    auto serializedB = serializedA ? pte::serializePte(variant->program) : serializedA;
    if (!serializedA || !serializedB)
        return setupFailed(serializedA ? serializedB.error() : serializedA.error());
    if (auto w = pte::writeSerializedPte(*serializedA, pathA); !w)
        return setupFailed(w.error());
    if (auto w = pte::writeSerializedPte(*serializedB, pathB); !w)
        return setupFailed(w.error());
    const double flatbufferMb = double(serializedA->programSize + serializedB->programSize) / (1024.0 * 1024.0);
    const std::uint64_t edits = variant->changed + variant->inserted + variant->removed;
    base = pte::Result<pte::Program>(pte::Program {});
    variant = pte::Result<pte::SyntheticVariant>(pte::SyntheticVariant {});
    settleDisk(ctx);

    // The comparison finds exactly the edits; in this process its CPU time is measured too (the wall time of a
    // child process depends on how busy the machine is).
    bool found = false;
    double cpuMs = 0;
    {
        const double cpuStart = cpuTimeMs();
        auto a = pte::openDiffSide(pathA);
        auto b = pte::openDiffSide(pathB);
        if (!a || !b)
            return setupFailed(a ? b.error() : a.error());
        auto diff = pte::diffPrograms(*a, *b);
        if (!diff)
            return setupFailed(diff.error());
        const std::string json = pte::diffReportJson(*diff);
        cpuMs = cpuTimeMs() - cpuStart;
        std::size_t changed = 0;
        std::size_t inserted = 0;
        std::size_t removed = 0;
        for (const auto& m : diff->methods) {
            changed += m.changed;
            inserted += m.inserted;
            removed += m.removed;
        }
        found = changed + inserted + removed == edits && changed == std::size_t(edits / 3 + (edits % 3 > 0))
            && inserted == std::size_t(edits / 3 + (edits % 3 > 1)) && removed == std::size_t(edits / 3)
            && diff->constants.size() > 0
            && std::all_of(diff->constants.begin(), diff->constants.end(),
                [](const pte::ConstantRow& c) { return c.status == pte::DiffStatus::Same; });
        if (!found)
            std::fprintf(stderr, "diff: expected %llu edits, found %zu changed, %zu inserted, %zu removed\n",
                static_cast<unsigned long long>(edits), changed, inserted, removed);
    }

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
    const double rssLimit = 64.0 + 8.0 * flatbufferMb;
    char rssTarget[64];
    std::snprintf(rssTarget, sizeof rssTarget, "< %.0f MB", rssLimit);
    std::vector<BenchMeasurement> out;
    out.push_back({ "diff.instructions", double(options.instructions), "", "", true });
    out.push_back({ "diff.edits", double(edits), "", "", true });
    out.push_back({ "diff.constants_mb_per_side", double(options.constantBytes) / (1024.0 * 1024.0), "MB", "", true });
    out.push_back({ "diff.flatbuffers_mb", flatbufferMb, "MB", "", true });
    out.push_back({ "diff.found_exactly_the_edits", found ? 1.0 : 0.0, "", "1", found });
    out.push_back({ "diff.exit_code_1", exitOk ? 1.0 : 0.0, "", "1", exitOk });
    out.push_back({ "diff.wall_ms", wall, "ms", "< 1000 ms", exitOk && wall < 1000 });
    out.push_back({ "diff.in_process_cpu_ms", cpuMs, "ms", "", true });
    out.push_back({ "diff.wall_ms_min", *std::min_element(walls.begin(), walls.end()), "ms", "", true });
    out.push_back({ "diff.wall_ms_max", *std::max_element(walls.begin(), walls.end()), "ms", "", true });
    out.push_back({ "diff.peak_rss_mb", peak, "MB", rssTarget, exitOk && peak < rssLimit });
    return out;
}

} // namespace

PTELENS_REGISTER_BENCHMARK(diff, "diff",
    "Compare two 200k-instruction programs (512 MiB of constants each) with 1% of the instructions edited",
    runDiffBench);

} // namespace ptelens::cli
