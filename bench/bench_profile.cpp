// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// The Profile view on a large ETDump (issue #12 "Speed"): a synthetic program of 50k instructions and an ETDump of
// 10 executions of it (1M profile events: a kernel event and an OPERATOR_CALL per instruction) are written to a
// temporary directory once, then
//   ProfileOpenAndJoin    readEtdumpFile + buildProfileData (join, Inspector table, summaries, timings) off the GUI
//                         thread, as Document does;
//   ProfileFilter/*       a filter change on the Profile view's proxy until it has its rows and the view repainted.
// Target: filtering < 100 ms. Sizes: PTELENS_BENCH_PROFILE_INSTRUCTIONS, PTELENS_BENCH_PROFILE_RUNS.
#include "document/profiledata.h"
#include "document/snapshot.h"
#include "models/profilefilterproxy.h"
#include "models/profilemodel.h"
#include "offscreenbench.h"
#include "pte/mappedfile.h"
#include "pte/ptereader.h"
#include "pte/ptewriter.h"
#include "pte/syntheticetdump.h"
#include "pte/syntheticprogram.h"

#include <QApplication>
#include <QHeaderView>
#include <QTableView>
#include <QTemporaryDir>

#include <benchmark/benchmark.h>
#include <cstdio>
#include <cstdlib>

using namespace pte::ui;

namespace {

struct Globals
{
    std::uint64_t instructions = 50000;
    std::uint32_t runs = 10;
    std::string dumpPath;
    std::shared_ptr<Snapshot> snapshot;
    ProfileModel* model = nullptr;
    ProfileFilterProxy* proxy = nullptr;
    QTableView* view = nullptr;
    std::size_t events = 0;
};
Globals* g = nullptr;

std::uint64_t envNumber(const char* name, std::uint64_t fallback)
{
    const char* v = std::getenv(name);
    return v && *v ? std::strtoull(v, nullptr, 10) : fallback;
}

void ProfileOpenAndJoin(benchmark::State& state)
{
    for (auto _ : state) {
        auto dump = pte::readEtdumpFile(g->dumpPath);
        if (!dump) {
            state.SkipWithError(dump.error().message.c_str());
            return;
        }
        auto data = buildProfileData(*dump, *g->snapshot);
        benchmark::DoNotOptimize(data->table.rows.size());
    }
    state.counters["events"] = double(g->events);
}

void reset()
{
    g->proxy->setText({});
    g->proxy->setBlock({});
    g->proxy->setDelegatedOnly(false);
    benchmark::DoNotOptimize(g->proxy->rowCount());
    QCoreApplication::processEvents();
}

bool prepare(const QTemporaryDir& dir)
{
    pte::SyntheticOptions options;
    options.instructions = g->instructions;
    auto program = pte::makeSyntheticProgram(options);
    const std::string programPath = dir.filePath(QStringLiteral("profile.pte")).toStdString();
    g->dumpPath = dir.filePath(QStringLiteral("profile.etdp")).toStdString();
    if (!program || !pte::writePte(*program, programPath))
        return false;
    auto trace = pte::makeSyntheticEtdump(*program, pte::SyntheticEtdumpOptions { {}, g->runs, true, 1000 });
    if (!trace)
        return false;
    g->events = trace->events.size();
    auto bytes = pte::serializeEtdump(*trace);
    if (!bytes || !pte::writeFileAtomically(g->dumpPath, *bytes))
        return false;
    auto file = pte::readPteFile(programPath);
    if (!file)
        return false;
    g->snapshot = std::make_shared<Snapshot>();
    g->snapshot->pteFile = *file;
    g->snapshot->program = (*file)->program;
    auto dump = pte::readEtdumpFile(g->dumpPath);
    if (!dump)
        return false;
    g->snapshot->profile = buildProfileData(*dump, *g->snapshot);
    g->snapshot->finalize();
    g->model = new ProfileModel(qApp);
    g->proxy = new ProfileFilterProxy(qApp);
    g->proxy->setProfileModel(g->model);
    g->view = pte::bench::showTableView(g->proxy);
    g->model->setSnapshot(g->snapshot);
    QCoreApplication::processEvents();
    std::fprintf(stderr, "bench_profile: %zu events, %d rows\n", g->events, g->model->rowCount());
    return g->model->rowCount() > 0;
}

} // namespace

BENCHMARK(ProfileOpenAndJoin)->Unit(benchmark::kMillisecond)->Iterations(3);

int main(int argc, char** argv)
{
    pte::bench::OffscreenBench bench(argc, argv, "bench_profile");
    Globals globals;
    g = &globals;
    g->instructions = envNumber("PTELENS_BENCH_PROFILE_INSTRUCTIONS", g->instructions);
    g->runs = std::uint32_t(envNumber("PTELENS_BENCH_PROFILE_RUNS", g->runs));
    if (!bench.argumentsOk())
        return 1;
    QTemporaryDir dir;
    if (!dir.isValid() || !prepare(dir)) {
        std::fprintf(stderr, "bench_profile: cannot prepare the synthetic program and ETDump\n");
        return 1;
    }
    pte::bench::registerFilterBenchmarks(
        {
            { "ProfileFilterText", [] { g->proxy->setText(QStringLiteral("mul.out")); } },
            { "ProfileFilterWords", [] { g->proxy->setText(QStringLiteral("operator_call forward")); } },
            { "ProfileFilterNoMatch", [] { g->proxy->setText(QStringLiteral("convolution")); } },
            { "ProfileFilterBlock", [] { g->proxy->setBlock(QStringLiteral("Default")); } },
        },
        reset, [] { return g->proxy; }, [] { return g->view; });
    const int code = bench.run();
    delete g->view;
    return code;
}
