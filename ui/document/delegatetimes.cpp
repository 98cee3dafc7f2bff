// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "document/delegatetimes.h"

#include "document/delegateinspection.h"
#include "pte/delegateetdump.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

namespace pte::ui {

namespace {

pte::AlignmentQuality worse(pte::AlignmentQuality a, pte::AlignmentQuality b) { return std::max(a, b); }

void takePart(InnerNodeTiming& node, pte::AlignmentQuality quality)
{
    node.quality = node.quality ? worse(*node.quality, quality) : quality;
}

} // namespace

const DelegateTiming* DelegateTimes::of(const DelegateInspection* current, int delegate) const
{
    if (!current || current != inspection.get() || delegate < 0 || std::size_t(delegate) >= delegates.size())
        return nullptr;
    const auto& t = delegates[std::size_t(delegate)];
    return t.calls ? &t : nullptr;
}

std::optional<std::pair<int, std::uint32_t>> DelegateTimes::nodeOfRow(const pte::ProfileRow& row) const
{
    if (!row.isDelegatedOp)
        return std::nullopt;
    for (const auto e : row.profileEvents)
        if (const auto it = eventNode.find(e); it != eventNode.end())
            return it->second;
    return std::nullopt;
}

DelegateTimes delegateTimes(const pte::EtDump& dump, const pte::EtdumpDelegateAlignment& placed,
    const pte::ProfileTable& table, std::shared_ptr<const DelegateInspection> inspection)
{
    DelegateTimes out;
    out.inspection = std::move(inspection);
    if (!out.inspection)
        return out;
    const auto& all = out.inspection->delegates;
    out.delegates.resize(all.size());
    out.problem = placed.problem;
    for (const auto& call : placed.calls) {
        const auto& g = placed.groups[call.group];
        const int delegate = int(call.delegate);
        const auto& payload = *all[std::size_t(delegate)].payload;
        auto& timing = out.delegates[std::size_t(delegate)];
        timing.nodes.resize(payload.nodes.size());
        const auto& alignment = call.alignment;
        timing.quality = timing.calls ? worse(timing.quality, alignment.quality) : alignment.quality;
        ++timing.calls;
        for (const auto& note : alignment.notes)
            if (std::find(timing.notes.begin(), timing.notes.end(), note) == timing.notes.end())
                timing.notes.push_back(note);
        // A node may run as several XNNPACK operators (a Square and the Clamp of its output range): its time in
        // this call is their sum.
        std::map<std::int32_t, std::size_t> callSample;
        for (std::size_t k = 0; k < g.events.size(); ++k) {
            const std::int32_t n = k < alignment.eventNode.size() ? alignment.eventNode[k] : pte::kUnplacedEvent;
            if (n == pte::kRuntimeInsertedNode) {
                ++timing.runtimeEvents;
                continue;
            }
            if (n < 0 || std::size_t(n) >= timing.nodes.size()) {
                ++timing.unplacedEvents;
                continue;
            }
            auto& node = timing.nodes[std::size_t(n)];
            const std::uint32_t event = g.events[k];
            node.events.push_back(event);
            const double duration = pte::eventDuration(dump.events[event], table.options)
                                        .value_or(std::numeric_limits<double>::quiet_NaN());
            const auto [it, first] = callSample.try_emplace(n, node.durations.size());
            const bool added = !first; // a further event of this node in this call
            if (first)
                node.durations.push_back(duration);
            else
                node.durations[it->second] += duration;
            // The first call's events name the node: "Square (NC) #1 + Clamp (NC) #1" when it ran as two operators.
            if (node.label.empty() || (timing.calls == 1 && added))
                node.label += (node.label.empty() ? "" : " + ") + g.group.events[k].label;
            takePart(node, alignment.quality);
            out.eventNode.emplace(event, std::make_pair(delegate, std::uint32_t(n)));
        }
        for (const auto n : alignment.skippedNodes)
            if (n < timing.nodes.size()) {
                ++timing.nodes[n].skippedCalls;
                takePart(timing.nodes[n], alignment.quality);
            }
        for (const auto n : alignment.unmatchedNodes)
            if (n < timing.nodes.size()) {
                ++timing.nodes[n].unmatchedCalls;
                takePart(timing.nodes[n], pte::AlignmentQuality::Failed);
            }
    }
    for (auto& timing : out.delegates)
        for (auto& node : timing.nodes) {
            node.p10 = pte::numpyPercentile(node.durations, 10);
            node.p50 = pte::numpyPercentile(node.durations, 50);
            node.p90 = pte::numpyPercentile(node.durations, 90);
        }
    if (out.eventNode.empty())
        return out;
    for (std::uint32_t r = 0; r < table.rows.size(); ++r) {
        const auto& row = table.rows[r];
        if (!row.isDelegatedOp)
            continue;
        for (const auto e : row.profileEvents)
            if (const auto it = out.eventNode.find(e); it != out.eventNode.end()) {
                auto& rows = out.delegates[std::size_t(it->second.first)].nodes[it->second.second].rows;
                if (rows.empty() || rows.back() != r)
                    rows.push_back(r);
            }
    }
    return out;
}

} // namespace pte::ui
