// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "pte/etdumptiming.h"

#include <algorithm>
#include <iterator>
#include <unordered_map>

namespace pte {

namespace {

bool isScope(std::string_view name)
{
    return name == "OPERATOR_CALL" || name == "DELEGATE_CALL" || name == "MOVE_CALL" || name == "JF_CALL"
        || name == "FREE_CALL";
}

using Key = std::pair<std::int32_t, std::int32_t>; ///< (chain, instruction)

/** What one run recorded for one instruction. */
struct RunInstruction
{
    double scope = 0;
    double kernel = 0;
    std::uint32_t scopes = 0;
    std::uint32_t kernels = 0;
    std::uint32_t delegateEvents = 0;
    double mappedDelegateTime = 0;
    std::vector<std::pair<std::uint32_t, double>> mappedEvents; ///< (event index, duration)
    [[nodiscard]] double time() const { return scopes ? scope : kernel; }
};

/** What one run recorded, per instruction: `keys` sorted and unique, `slots` parallel to them. */
struct RunTable
{
    std::vector<Key> keys;
    std::vector<RunInstruction> slots;
};

/** The runs of one method, each a table of its instructions (flat arrays: 50k instructions x 10 runs is common). */
std::vector<RunTable> collect(
    const EtdumpJoin& join, int method, const ProfileOptions& options, std::vector<double>* executeSamples)
{
    const EtDump& dump = *join.dump;
    std::vector<RunTable> runs;
    for (std::size_t r = 0; r < dump.runs.size(); ++r) {
        const auto& rj = join.runs[r];
        if (rj.method != method || !rj.joined || rj.kind == EtdumpRunKind::Load)
            continue;
        auto& table = runs.emplace_back();
        const auto events = dump.runEvents(dump.runs[r]);
        // The instructions with profile events: usually already in order.
        for (const auto& e : events)
            if (e.kind == EtdumpEventKind::Profile && e.inInstruction()) {
                const Key key { std::int32_t(e.chainIndex), e.instructionId };
                if (table.keys.empty() || table.keys.back() != key)
                    table.keys.push_back(key);
            }
        if (!std::is_sorted(table.keys.begin(), table.keys.end()))
            std::sort(table.keys.begin(), table.keys.end());
        table.keys.erase(std::unique(table.keys.begin(), table.keys.end()), table.keys.end());
        table.slots.resize(table.keys.size());
        std::size_t slot = 0;
        for (std::uint32_t k = 0; k < events.size(); ++k) {
            const auto& e = events[k];
            if (e.kind != EtdumpEventKind::Profile)
                continue;
            const auto d = eventDuration(e, options);
            const std::string_view name = dump.eventName(e);
            if (!e.inInstruction()) {
                if (name == "Method::execute" && d && executeSamples)
                    executeSamples->push_back(*d);
                continue;
            }
            const Key key { std::int32_t(e.chainIndex), e.instructionId };
            if (table.keys[slot] != key)
                slot = std::size_t(std::lower_bound(table.keys.begin(), table.keys.end(), key) - table.keys.begin());
            auto& ri = table.slots[slot];
            const std::uint32_t i = dump.runs[r].firstEvent + k;
            if (e.isDelegateEvent()) {
                ++ri.delegateEvents;
                if (d && join.events[i].mapping == DelegateMapping::Mapped) {
                    ri.mappedDelegateTime += *d;
                    ri.mappedEvents.emplace_back(i, *d);
                }
            } else if (isScope(name)) {
                ++ri.scopes;
                ri.scope += d.value_or(0);
            } else if (name.rfind("native_call_", 0) == 0) {
                ++ri.kernels;
                ri.kernel += d.value_or(0);
            }
        }
    }
    return runs;
}

double median(const std::vector<double>& v) { return v.empty() ? 0 : numpyPercentile(v, 50); }

} // namespace

const InstructionTiming* MethodTiming::find(std::int32_t chain, std::int32_t instruction) const noexcept
{
    const auto it = std::lower_bound(instructions.begin(), instructions.end(), Key { chain, instruction },
        [](const InstructionTiming& t, const Key& k) {
            return Key { t.chain, t.instruction } < k;
        });
    return it != instructions.end() && it->chain == chain && it->instruction == instruction ? &*it : nullptr;
}

std::vector<MethodTiming> methodTimings(const EtdumpJoin& join, const ProfileOptions& options)
{
    std::vector<MethodTiming> out;
    if (!join.sources)
        return out;
    for (std::size_t m = 0; m < join.sources->methods.size(); ++m) {
        MethodTiming t;
        t.method = std::int32_t(m);
        const auto runs = collect(join, int(m), options, &t.executeSamples);
        if (runs.empty())
            continue;
        t.runs = std::uint32_t(runs.size());
        t.executeMedian = median(t.executeSamples);
        // Every instruction any run recorded, in (chain, instruction) order.
        std::vector<Key> all = runs.front().keys;
        for (std::size_t r = 1; r < runs.size(); ++r)
            if (runs[r].keys != all) {
                std::vector<Key> merged;
                std::set_union(
                    all.begin(), all.end(), runs[r].keys.begin(), runs[r].keys.end(), std::back_inserter(merged));
                all = std::move(merged);
            }
        t.instructions.resize(all.size());
        for (std::size_t k = 0; k < all.size(); ++k) {
            t.instructions[k].chain = all[k].first;
            t.instructions[k].instruction = all[k].second;
            t.instructions[k].samples.assign(runs.size(), 0.0);
        }
        for (std::size_t r = 0; r < runs.size(); ++r) {
            std::size_t u = 0;
            for (std::size_t k = 0; k < runs[r].keys.size(); ++k) {
                while (all[u] != runs[r].keys[k])
                    ++u;
                const auto& ri = runs[r].slots[k];
                auto& it = t.instructions[u];
                it.samples[r] = ri.time();
                it.executions += ri.scopes ? ri.scopes : ri.kernels;
                it.delegateEvents += ri.delegateEvents;
            }
        }
        for (auto& it : t.instructions) {
            it.median = median(it.samples);
            it.p10 = numpyPercentile(it.samples, 10);
            it.p90 = numpyPercentile(it.samples, 90);
            it.share = t.executeMedian > 0 ? it.median / t.executeMedian : 0;
        }
        out.push_back(std::move(t));
    }
    return out;
}

std::vector<NodeTiming> nodeTimings(const EtdumpJoin& join, const MethodTiming& timing, const ProfileOptions& options)
{
    std::vector<NodeTiming> out;
    if (!join.sources || timing.method < 0 || std::size_t(timing.method) >= join.sources->methods.size())
        return out;
    const auto& m = join.sources->methods[std::size_t(timing.method)];
    if (!m.graph)
        return out;
    const auto runs = collect(join, timing.method, options, nullptr);
    std::unordered_map<std::uint32_t, std::vector<double>> perNode;
    std::unordered_map<std::uint32_t, bool> estimated;
    auto give = [&](const std::vector<std::uint32_t>& nodes, double time, std::size_t run, bool estimate) {
        if (nodes.empty() || time <= 0)
            return;
        const double each = time / double(nodes.size());
        for (const auto n : nodes) {
            auto& v = perNode[n];
            v.resize(runs.size(), 0.0);
            v[run] += each;
            estimated[n] = estimated[n] || estimate || nodes.size() > 1;
        }
    };
    for (std::size_t r = 0; r < runs.size(); ++r) {
        for (std::size_t k = 0; k < runs[r].keys.size(); ++k) {
            const Key& key = runs[r].keys[k];
            const RunInstruction& ri = runs[r].slots[k];
            const auto handles = m.debugHandles.find(key.second);
            const auto callNodes = handles == m.debugHandles.end() ? std::vector<std::uint32_t> {}
                                                                   : join.nodes(timing.method, handles->second);
            if (ri.mappedEvents.empty()) {
                give(callNodes, ri.time(), r, ri.delegateEvents > 0);
                continue;
            }
            for (const auto& [event, d] : ri.mappedEvents)
                give(join.nodes(timing.method, join.handlesOf(join.events[event])), d, r, false);
            give(callNodes, std::max(0.0, ri.time() - ri.mappedDelegateTime), r, true);
        }
    }
    for (auto& [node, samples] : perNode) {
        samples.resize(runs.size(), 0.0);
        NodeTiming nt;
        nt.node = node;
        nt.time = median(samples);
        nt.share = timing.executeMedian > 0 ? nt.time / timing.executeMedian : 0;
        nt.estimated = estimated[node];
        out.push_back(nt);
    }
    std::sort(out.begin(), out.end(), [](const NodeTiming& a, const NodeTiming& b) { return a.node < b.node; });
    return out;
}

} // namespace pte
