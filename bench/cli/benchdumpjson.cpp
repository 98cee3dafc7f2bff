// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// Benchmark "dump-json": `ptelens-cli dump --json` against `flatc --json --strict-json --defaults-json` on the same
// synthetic program (200k instructions, no constant data; --quick: 2k), both writing their JSON to a file in the
// work folder. Runs alternate; medians of five (two with --quick) wall times, and the peak RSS of each. Ours is also
// measured on a program ten times smaller, to show how its memory grows with the program (the JSON is streamed;
// what grows is the decoded program, as for `info`).
#include "bench.h"
#include "pte/ptewriter.h"
#include "pte/syntheticprogram.h"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

namespace pte::bench {

namespace {

bool writeSynthetic(const std::string& path, std::uint64_t instructions)
{
    pte::SyntheticOptions options;
    options.instructions = instructions;
    auto program = pte::makeSyntheticProgram(options);
    return program && pte::writePte(*program, path);
}

struct Runs
{
    std::vector<double> wallMs;
    double peakRssMb = 0;
    bool ok = true;
};

void record(Runs& runs, const ProcessMeasurement& m)
{
    runs.ok = runs.ok && m.exitCode == 0;
    runs.wallMs.push_back(m.wallMs);
    runs.peakRssMb = std::max(runs.peakRssMb, m.peakRssMb);
}

/** `ptelens-cli dump --json FILE > OUT`, through `sh -c 'exec ...'` so the measured process is ptelens-cli. */
ProcessMeasurement runDump(const BenchContext& ctx, const std::string& pte, const std::string& out)
{
    return runMeasured({ "/bin/sh", "-c", "exec \"$0\" dump --json \"$1\" > \"$2\"", ctx.cliPath, pte, out });
}

std::vector<BenchMeasurement> runDumpJsonBench(const BenchContext& ctx)
{
    const std::uint64_t instructions = ctx.quick ? 2000 : 200000;
    const int repeats = ctx.quick ? 2 : 5;
    const std::string big = ctx.workDir + "/program.pte";
    const std::string small = ctx.workDir + "/program-tenth.pte";
    if (!writeSynthetic(big, instructions) || !writeSynthetic(small, instructions / 10)) {
        std::fprintf(stderr, "dump-json: cannot write the synthetic programs\n");
        return { { "dump_json.setup_failed", 1, "", "0", false } };
    }
    const std::string src = sourceDir(ctx.cliPath);
    const std::string schema = src + "/schema/program.fbs";
    const bool haveFlatc = !src.empty() && std::ifstream(schema) && std::ifstream("/usr/bin/flatc");
    if (!haveFlatc)
        std::fprintf(stderr, "dump-json: flatc comparison skipped (schema/program.fbs or /usr/bin/flatc not found)\n");

    Runs ours;
    Runs flatc;
    Runs oursSmall;
    for (int r = 0; r < repeats; ++r) {
        record(ours, runDump(ctx, big, ctx.workDir + "/ours.json"));
        if (haveFlatc)
            record(flatc,
                runMeasured({ "/usr/bin/flatc", "--json", "--strict-json", "--defaults-json", "-o",
                    ctx.workDir + "/flatc", schema, "--", big }));
        record(oursSmall, runDump(ctx, small, ctx.workDir + "/ours-tenth.json"));
    }
    const double oursMs = median(ours.wallMs);
    std::vector<BenchMeasurement> out;
    out.push_back({ "dump_json.instructions", double(instructions), "", "", true });
    out.push_back({ "dump_json.ours_wall_ms", oursMs, "ms", "", ours.ok });
    out.push_back({ "dump_json.ours_peak_rss_mb", ours.peakRssMb, "MB", "", ours.ok });
    out.push_back({ "dump_json.ours_tenth_size_peak_rss_mb", oursSmall.peakRssMb, "MB", "", oursSmall.ok });
    if (haveFlatc) {
        const double flatcMs = median(flatc.wallMs);
        out.push_back({ "dump_json.flatc_wall_ms", flatcMs, "ms", "", flatc.ok });
        out.push_back({ "dump_json.flatc_peak_rss_mb", flatc.peakRssMb, "MB", "", flatc.ok });
        // The targets are for the full size; at --quick both are start-up costs (ours loads Qt).
        const double ratio = flatcMs > 0 ? oursMs / flatcMs : 0;
        out.push_back({ "dump_json.vs_flatc_ratio", ratio, "x", ctx.quick ? "" : "< 1 (faster than flatc)",
            ours.ok && flatc.ok && (ctx.quick || (ratio > 0 && ratio < 1)) });
        const double rssRatio = flatc.peakRssMb > 0 ? ours.peakRssMb / flatc.peakRssMb : 0;
        out.push_back({ "dump_json.rss_vs_flatc_ratio", rssRatio, "x", ctx.quick ? "" : "< 1",
            ours.ok && flatc.ok && (ctx.quick || rssRatio < 1) });
    }
    return out;
}

} // namespace

PTELENS_REGISTER_BENCHMARK(dumpjson, "dump-json",
    "dump --json of a 200k-instruction program against flatc --json on the same file", runDumpJsonBench);

} // namespace pte::bench
