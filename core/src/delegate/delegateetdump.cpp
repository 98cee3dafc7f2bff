// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "pte/delegateetdump.h"

#include "pte/etdumpjoin.h"

#include <algorithm>
#include <map>
#include <utility>

namespace pte {

std::vector<EtdumpDelegateGroup> etdumpDelegateGroups(const EtDump& dump)
{
    std::vector<EtdumpDelegateGroup> out;
    for (std::uint32_t r = 0; r < dump.runs.size(); ++r) {
        std::map<std::pair<std::int64_t, std::int32_t>, std::size_t> groupOf; // (chain, instruction) -> out index
        const auto events = dump.runEvents(dump.runs[r]);
        for (std::uint32_t k = 0; k < events.size(); ++k) {
            const EtdumpEvent& e = events[k];
            if (e.kind != EtdumpEventKind::Profile || !e.isDelegateEvent() || !e.inInstruction())
                continue;
            const auto key = std::make_pair(e.chainIndex, e.instructionId);
            auto it = groupOf.find(key);
            if (it == groupOf.end()) {
                EtdumpDelegateGroup g;
                g.run = r;
                g.group.chainIndex = std::int32_t(e.chainIndex);
                g.group.instructionId = e.instructionId;
                it = groupOf.emplace(key, out.size()).first;
                out.push_back(std::move(g));
            }
            out[it->second].group.events.push_back({ dump.delegateIdentifier(e), e.startTime, e.endTime });
            out[it->second].events.push_back(dump.runs[r].firstEvent + k);
        }
    }
    return out;
}

namespace {

/** The method block `run` ran: the join's attribution, else the only method; "" when unknown or a load block. */
std::string methodOfRun(const EtdumpJoin* join, std::span<const ProgramDelegate> delegates, std::uint32_t run)
{
    if (!join || !join->sources) {
        if (delegates.empty())
            return {};
        const auto& first = delegates.front().methodName;
        return std::all_of(delegates.begin(), delegates.end(),
                   [&first](const ProgramDelegate& d) { return d.methodName == first; })
            ? first
            : std::string();
    }
    const auto& methods = join->sources->methods;
    if (run < join->runs.size()) {
        const auto& r = join->runs[run];
        if (r.kind == EtdumpRunKind::Load)
            return {};
        if (r.method >= 0 && std::size_t(r.method) < methods.size())
            return methods[std::size_t(r.method)].name;
    }
    return methods.size() == 1 ? methods.front().name : std::string();
}

} // namespace

EtdumpDelegateAlignment alignEtdumpDelegates(
    const EtDump& dump, const EtdumpJoin* join, std::span<const ProgramDelegate> delegates)
{
    EtdumpDelegateAlignment out;
    out.groups = etdumpDelegateGroups(dump);
    std::string stray;
    for (std::size_t k = 0; k < out.groups.size(); ++k) {
        const auto& g = out.groups[k];
        if (join && g.run < join->runs.size() && !join->runs[g.run].problem.empty()) {
            ++out.unjoinedGroups;
            continue;
        }
        if (join && g.run < join->runs.size() && join->runs[g.run].kind == EtdumpRunKind::Load)
            continue;
        const std::string method = methodOfRun(join, delegates, g.run);
        std::size_t delegate = delegates.size();
        for (std::size_t d = 0; d < delegates.size() && delegate == delegates.size(); ++d)
            if (delegates[d].methodName == method && delegates[d].payload)
                for (const auto& [chain, instruction] : delegates[d].calls)
                    if (std::int64_t(chain) == g.group.chainIndex && std::int64_t(instruction) == g.group.instructionId)
                        delegate = d;
        if (delegate == delegates.size()) {
            if (!out.strayGroups++)
                stray = "block " + std::to_string(g.run) + " ('" + dump.runs[g.run].name + "') has "
                    + std::to_string(g.group.events.size()) + " delegate event(s) at instruction "
                    + std::to_string(g.group.instructionId) + " of chain " + std::to_string(g.group.chainIndex)
                    + (method.empty() ? std::string(", a block no method was attributed")
                                      : ", which calls no delegate of method '" + method + "'");
            continue;
        }
        out.calls.push_back({ k, delegate, alignXnnpackEvents(*delegates[delegate].payload, g.group.events) });
    }
    if (out.unjoinedGroups && join)
        out.problem = join->mismatchSummary();
    else if (out.strayGroups)
        out.problem = "these delegate events belong to no delegate of the program: " + stray
            + (out.strayGroups > 1 ? " (and " + std::to_string(out.strayGroups - 1) + " more group(s))" : "");
    return out;
}

} // namespace pte
