// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// Benchmark "delegate-decode": a synthetic XNNPACK payload of 10k xnodes (--quick: 1k) with constants in its
// header's section is decoded in this process (median of 7 runs; target < 100 ms), then written inline into a
// one-delegate .pte and `ptelens-cli delegates FILE --json` is measured as a whole (read, decode, link, print).
#include "bench.h"
#include "pte/delegatepayload.h"
#include "pte/delegatesynth.h"
#include "pte/ptewriter.h"

#include <chrono>
#include <cstdio>

namespace pte::bench {

namespace {

std::vector<BenchMeasurement> runDelegateDecode(const BenchContext& ctx)
{
    const std::uint32_t nodes = ctx.quick ? 1000 : 10000;
    const pte::Bytes payload = pte::makeSyntheticXnnpackPayload(nodes);
    std::vector<double> times;
    std::size_t decodedNodes = 0;
    bool clean = true;
    for (int run = 0; run < 7; ++run) {
        const auto start = std::chrono::steady_clock::now();
        const auto p = pte::decodeDelegatePayload("XnnpackBackend", payload, {}, {}, "bench");
        const auto end = std::chrono::steady_clock::now();
        times.push_back(std::chrono::duration<double, std::milli>(end - start).count());
        decodedNodes = p.graphDecoded ? p.nodes.size() : 0;
        clean = clean && p.diagnostics.empty();
    }
    const double decodeMs = median(times);
    const std::string path = ctx.workDir + "/delegate.pte";
    const auto written = pte::writePte(pte::makeSingleDelegateProgram(payload), path);
    if (!written) {
        std::fprintf(stderr, "delegate-decode: %s\n", written.error().toString().c_str());
        return { { "delegate.setup_failed", 1, "", "0", false } };
    }
    const ProcessMeasurement cli = runMeasured({ ctx.cliPath, "delegates", path, "--json" });
    const bool ok = decodedNodes == nodes && clean;
    char target[32];
    std::snprintf(target, sizeof target, "%u", nodes);
    std::vector<BenchMeasurement> out;
    out.push_back({ "delegate.payload_mb", double(payload.size()) / (1024.0 * 1024.0), "MB", "", true });
    out.push_back({ "delegate.decoded_nodes", double(decodedNodes), "", target, ok });
    out.push_back({ "delegate.decode_ms", decodeMs, "ms", "< 100 ms", ok && decodeMs < 100 });
    out.push_back({ "delegate.cli_json_wall_ms", cli.wallMs, "ms", "", cli.exitCode == 0 });
    out.push_back({ "delegate.cli_json_peak_rss_mb", cli.peakRssMb, "MB", "", cli.exitCode == 0 });
    return out;
}

} // namespace

PTELENS_REGISTER_BENCHMARK(delegatedecode, "delegate-decode",
    "Decode a 10k-node XNNPACK payload (in process), and `delegates --json` on a program holding it",
    runDelegateDecode);

} // namespace pte::bench
