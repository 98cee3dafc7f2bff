// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// The Inspector table: identical runs merged into blocks, one row per event signature with the statistics of
// its durations, joined with the program and the ETRecord. Its parts: the signatures (profilegrouping.cpp), the
// numbers (profilestatistics.cpp), Python's repr (pythonrepr.cpp), text and CSV (profiletabletext.cpp), the
// summaries (profilesummary.cpp).
#include "pte/profiletable.h"

#include "etdump/profilegrouping.h"
#include "etdump/profilestatistics.h"
#include "pte/graphtext.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <unordered_map>

namespace pte {

namespace {

using etdump::Canonical;
using etdump::EventSignature;
using etdump::RunSignatures;
using etdump::signaturesOf;
using etdump::sortedPercentile;
using etdump::SubSignature;

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

} // namespace

std::string ProfileRow::delegateIdentifier() const
{
    if (delegateIdInt)
        return std::to_string(*delegateIdInt);
    return delegateIdStr.value_or(std::string());
}

Result<ProfileTable> buildProfileTable(const EtDump& dump, const EtdumpJoin* join, const ProfileOptions& options)
{
    if ((options.source == TimeScale::Cycles) != (options.target == TimeScale::Cycles))
        return fail(ErrorCode::InvalidInput,
            std::string("cannot convert between cycles and time units (") + timeScaleName(options.source) + " to "
                + timeScaleName(options.target) + ")");
    ProfileTable table;
    table.options = options;
    const Canonical canon(dump);

    // Merge runs with identical signatures into blocks, in first-appearance order.
    std::vector<RunSignatures> perRun;
    perRun.reserve(dump.runs.size());
    std::unordered_map<std::uint64_t, std::vector<std::uint32_t>> byHash; // hash -> block indices
    std::vector<std::uint32_t> blockFirstRun;
    std::vector<EventSignature> spare; // the signatures of a run that joined a block, reused for the next run
    for (std::uint32_t r = 0; r < dump.runs.size(); ++r) {
        const auto& run = dump.runs[r];
        if (!run.hasEvents) {
            perRun.emplace_back();
            continue;
        }
        perRun.push_back(signaturesOf(dump, run, canon, std::move(spare)));
        spare = {};
        auto& sig = perRun.back();
        std::int64_t found = -1;
        for (const auto b : byHash[sig.hash]) {
            const auto& first = dump.runs[blockFirstRun[b]];
            if (first.name == run.name && first.bundledInputIndex == run.bundledInputIndex
                && perRun[blockFirstRun[b]].signatures == sig.signatures) {
                found = b;
                break;
            }
        }
        if (found >= 0) {
            spare = std::move(sig.signatures); // compared; only the block's first run's are read again
            sig.signatures.clear();
        } else {
            found = std::int64_t(table.blocks.size());
            byHash[sig.hash].push_back(std::uint32_t(found));
            blockFirstRun.push_back(r);
            ProfileBlock block;
            block.name = run.name;
            block.bundledInputIndex = run.bundledInputIndex;
            block.outputEvents = sig.outputs;
            table.blocks.push_back(std::move(block));
        }
        table.blocks[std::size_t(found)].runs.push_back(r);
    }

    std::size_t rowCount = 0;
    for (const auto& block : table.blocks)
        rowCount += perRun[block.runs.front()].signatures.size();
    table.rows.reserve(rowCount);
    std::size_t badDurations = 0;
    std::uint32_t firstBad = 0;
    std::vector<double> sorted; // a row's durations, sorted (reused)
    for (std::uint32_t b = 0; b < table.blocks.size(); ++b) {
        auto& block = table.blocks[b];
        block.firstRow = std::uint32_t(table.rows.size());
        const auto& first = perRun[block.runs.front()];
        for (std::size_t s = 0; s < first.signatures.size(); ++s) {
            const auto& sig = first.signatures[s];
            ProfileRow row;
            row.block = b;
            // Identity from the profile part, then again from the debug part.
            auto identity = [&](const SubSignature& part, bool nameOnlyIfDelegated) {
                if (!part.present)
                    return;
                const bool hasInt = part.idInt != -1;
                const bool hasStr = part.idStr != kEtdumpNoString;
                std::optional<std::int32_t> idInt = hasInt ? std::optional<std::int32_t>(part.idInt) : std::nullopt;
                std::optional<std::string> idStr =
                    !hasInt && hasStr ? std::optional<std::string>(std::string(dump.string(part.idStr))) : std::nullopt;
                std::string name = hasInt ? std::to_string(part.idInt)
                    : hasStr              ? std::string(dump.string(part.idStr))
                                          : std::string(dump.string(part.name));
                if (!nameOnlyIfDelegated || !name.empty())
                    row.eventName = name;
                row.delegateIdInt = idInt;
                row.delegateIdStr = idStr;
                row.isDelegatedOp = hasInt || hasStr;
            };
            identity(sig.profile, false);
            identity(sig.debug, true);
            row.raw.reserve(block.runs.size());
            row.profileEvents.reserve(block.runs.size());
            row.startTimes.reserve(block.runs.size());
            for (const auto r : block.runs) {
                const auto& ev = perRun[r].events[s];
                if (ev.profile == kEtdumpNoString)
                    continue;
                const auto& e = dump.events[ev.profile];
                row.profileEvents.push_back(ev.profile);
                row.startTimes.push_back(e.startTime);
                const double d = eventDuration(e, options).value_or(kNaN);
                if (std::isnan(d) && !badDurations++)
                    firstBad = ev.profile;
                row.raw.push_back(d);
            }
            const auto firstDebug = first.debugOf(first.events[s]);
            row.debugEvents.assign(firstDebug.begin(), firstDebug.end());
            if (!row.raw.empty()) {
                // numpyPercentile and min/max of one sorted copy (NaN anywhere makes them all NaN, as there).
                sorted.assign(row.raw.begin(), row.raw.end());
                if (std::any_of(sorted.begin(), sorted.end(), [](double v) { return std::isnan(v); })) {
                    row.p10 = row.p50 = row.p90 = row.min = row.max = kNaN;
                } else {
                    std::sort(sorted.begin(), sorted.end());
                    row.p10 = sortedPercentile(sorted, 10);
                    row.p50 = sortedPercentile(sorted, 50);
                    row.p90 = sortedPercentile(sorted, 90);
                    row.min = sorted.front();
                    row.max = sorted.back();
                }
                row.avg = numpyMean(row.raw);
            } else {
                row.p10 = row.p50 = row.p90 = row.avg = row.min = row.max = kNaN;
            }
            // Where it ran: the first run's event (profile, else its first logged value).
            const std::uint32_t rep = first.events[s].profile != kEtdumpNoString ? first.events[s].profile
                : firstDebug.empty()                                             ? kEtdumpNoString
                                                                                 : firstDebug.front();
            if (rep != kEtdumpNoString) {
                const auto& e = dump.events[rep];
                if (e.inInstruction()) {
                    row.chain = std::int32_t(e.chainIndex);
                    row.instruction = e.instructionId;
                }
                if (join && rep < join->events.size()) {
                    const auto& j = join->events[rep];
                    row.method = j.method;
                    row.mapping = j.mapping;
                    const auto hs = join->handlesOf(j);
                    row.debugHandles.assign(hs.begin(), hs.end());
                    row.nodes = join->nodes(j.method, hs);
                    const auto& src = *join->sources;
                    if (j.method >= 0 && std::size_t(j.method) < src.methods.size()) {
                        const auto& m = src.methods[std::size_t(j.method)];
                        if (m.graph)
                            for (const auto n : row.nodes) {
                                const auto& node = m.graph->graph.nodes[n];
                                row.opTypes.push_back(nodeOpType(node));
                                if (const auto it = node.metadata.find("stack_trace"); it != node.metadata.end())
                                    row.stackTraces.emplace_back(node.name, it->second);
                                if (const auto it = node.metadata.find("nn_module_stack"); it != node.metadata.end())
                                    row.moduleHierarchy.emplace_back(node.name, it->second);
                            }
                        const bool delegateScope = row.eventName == "DELEGATE_CALL" || row.isDelegatedOp;
                        if (delegateScope && j.instruction >= 0) {
                            if (const auto it = m.delegateMap.find(j.instruction); it != m.delegateMap.end())
                                row.delegateBackendName = it->second.name;
                            else if (const auto* in = join->instruction(j))
                                if (const auto* dc = std::get_if<DelegateCall>(&in->args); dc && dc->delegateIndex >= 0
                                    && std::size_t(dc->delegateIndex) < m.plan->delegates.size())
                                    row.delegateBackendName = m.plan->delegates[std::size_t(dc->delegateIndex)].id;
                        }
                    }
                }
            }
            table.rows.push_back(std::move(row));
        }
        block.rowCount = std::uint32_t(table.rows.size()) - block.firstRow;
    }
    if (badDurations) {
        const auto& e = dump.events[firstBad];
        table.diagnostics.push_back(Diagnostic { Severity::Warning, ErrorCode::InvalidInput,
            std::to_string(badDurations) + " profile event(s) end before they start (start "
                + std::to_string(e.startTime) + ", end " + std::to_string(e.endTime)
                + ") and are not 32-bit counter wraps; their times are NaN",
            e.fileOffset, {}, dump.path });
    }
    return table;
}
} // namespace pte
