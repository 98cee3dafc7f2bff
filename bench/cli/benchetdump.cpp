// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// Benchmark "etdump": a synthetic ETDump of 1M events (10 executions of a 50k-instruction program, a kernel event and
// an OPERATOR_CALL per instruction; --quick: 2k instructions, 2 executions) is written to the work folder with its
// program, then opened (mapped, verified, decoded) and joined with the program in this process, median of three;
// the Inspector table is built on top, and `ptelens-cli profile --program --tsv` is timed as a whole.
#include "bench.h"
#include "pte/etdump.h"
#include "pte/etdumpjoin.h"
#include "pte/mappedfile.h"
#include "pte/profiletable.h"
#include "pte/ptereader.h"
#include "pte/ptewriter.h"
#include "pte/syntheticetdump.h"
#include "pte/syntheticprogram.h"

#include <chrono>
#include <cstdio>

namespace pte::bench {

namespace {

double msSince(std::chrono::steady_clock::time_point start)
{
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

std::vector<BenchMeasurement> runEtdump(const BenchContext& ctx)
{
    const std::uint64_t instructions = ctx.quick ? 2000 : 50000;
    const std::uint32_t runs = ctx.quick ? 2 : 10;
    const std::string programPath = ctx.workDir + "/bench-etdump.pte";
    const std::string dumpPath = ctx.workDir + "/bench.etdp";
    pte::SyntheticOptions shape;
    shape.instructions = instructions;
    auto program = pte::makeSyntheticProgram(shape);
    auto trace = program ? pte::makeSyntheticEtdump(*program, pte::SyntheticEtdumpOptions { {}, runs, true, 1000 })
                         : pte::Result<pte::EtDump>(program.error());
    auto bytes = trace ? pte::serializeEtdump(*trace) : pte::Result<std::vector<std::uint8_t>>(trace.error());
    if (!bytes || !pte::writePte(*program, programPath) || !pte::writeFileAtomically(dumpPath, *bytes)) {
        std::fprintf(stderr, "etdump: cannot write the synthetic program and ETDump to %s\n", ctx.workDir.c_str());
        return { { "etdump.setup_failed", 1, "", "0", false } };
    }
    auto pte = pte::readPteFile(programPath);
    if (!pte) {
        std::fprintf(stderr, "etdump: %s\n", pte.error().toString().c_str());
        return { { "etdump.setup_failed", 1, "", "0", false } };
    }
    const auto sources = pte::makeEtdumpSources((*pte)->program);

    std::vector<double> open;
    std::vector<double> join;
    std::vector<double> total;
    std::vector<double> table;
    std::size_t events = 0;
    std::size_t rows = 0;
    bool ok = true;
    for (int i = 0; i < 3 && ok; ++i) {
        settleDisk(ctx);
        const auto t0 = std::chrono::steady_clock::now();
        auto dump = pte::readEtdumpFile(dumpPath);
        const double openMs = msSince(t0);
        const auto t1 = std::chrono::steady_clock::now();
        auto joined =
            dump ? pte::joinEtdump(*dump, sources) : pte::Result<std::shared_ptr<const pte::EtdumpJoin>>(dump.error());
        const double joinMs = msSince(t1);
        ok = joined && !(*joined)->hasMismatch();
        if (!ok)
            break;
        open.push_back(openMs);
        join.push_back(joinMs);
        total.push_back(openMs + joinMs);
        events = (*dump)->events.size();
        const auto t2 = std::chrono::steady_clock::now();
        auto t = pte::buildProfileTable(**dump, joined->get());
        table.push_back(msSince(t2));
        rows = t ? t->rows.size() : 0;
    }
    if (!ok)
        return { { "etdump.join_failed", 1, "", "0", false } };
    const ProcessMeasurement cli = runMeasured({ ctx.cliPath, "profile", dumpPath, "--program", programPath, "--tsv" });
    const double openJoin = median(total);
    std::vector<BenchMeasurement> out;
    out.push_back({ "etdump.events", double(events), "", "", true });
    out.push_back({ "etdump.file_mb", double(bytes->size()) / (1024.0 * 1024.0), "MB", "", true });
    out.push_back({ "etdump.open_ms", median(open), "ms", "", true });
    out.push_back({ "etdump.join_ms", median(join), "ms", "", true });
    out.push_back({ "etdump.open_join_ms", openJoin, "ms", "< 1000 ms", openJoin < 1000 });
    out.push_back({ "etdump.table_ms", median(table), "ms", "", true });
    out.push_back({ "etdump.table_rows", double(rows), "", "", true });
    out.push_back({ "etdump.profile_tsv_wall_ms", cli.wallMs, "ms", "", cli.exitCode == 0 });
    out.push_back({ "etdump.profile_tsv_peak_rss_mb", cli.peakRssMb, "MB", "", cli.exitCode == 0 });
    return out;
}

} // namespace

PTELENS_REGISTER_BENCHMARK(etdump, "etdump",
    "Open and join a synthetic 1M-event ETDump (10 runs of 50k instructions) with its program; build the Inspector "
    "table; time `profile --tsv`",
    runEtdump);

} // namespace pte::bench
