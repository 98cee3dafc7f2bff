// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// Profile rows of aligned delegate events, tied to source nodes (docs/delegate-payloads.md, Joining with ETRecord and
// ETDump).
#include "pte/alignedsources.h"

#include "pte/etdumpjoin.h"

#include <algorithm>
#include <unordered_map>
#include <utility>

namespace pte {

namespace {

/** Where an event was placed: the delegate (index in the alignment's delegates) and its inner node. */
struct Placement
{
    std::size_t delegate = 0;
    std::uint32_t node = 0;
};

std::unordered_map<std::uint32_t, Placement> placements(const EtdumpDelegateAlignment& alignment)
{
    std::unordered_map<std::uint32_t, Placement> out;
    for (const auto& call : alignment.calls) {
        const auto& events = alignment.groups[call.group].events;
        const auto& nodes = call.alignment.eventNode;
        for (std::size_t k = 0; k < events.size() && k < nodes.size(); ++k)
            if (nodes[k] >= 0)
                out.emplace(events[k], Placement { call.delegate, std::uint32_t(nodes[k]) });
    }
    return out;
}

void addUnique(std::vector<std::int64_t>& list, std::int64_t h)
{
    if (h != kBackendInsertedHandle && std::find(list.begin(), list.end(), h) == list.end())
        list.push_back(h);
}

/** The source nodes of inner node `n`: its own, then those of the handles fused into it; each node once. */
std::vector<const SourceNodeRef*> sourcesOf(const DelegateLinks& link, std::uint32_t n)
{
    std::vector<const SourceNodeRef*> out;
    auto add = [&](const SourceNodeRef& ref) {
        if (std::none_of(out.begin(), out.end(),
                [&](const SourceNodeRef* r) { return r->graph == ref.graph && r->name == ref.name; }))
            out.push_back(&ref);
    };
    if (n < link.nodeSources.size())
        for (const auto& ref : link.nodeSources[n])
            add(ref);
    for (const auto& a : link.absorbed)
        if (a.intoNode == n)
            for (const auto& ref : a.sources)
                add(ref);
    return out;
}

} // namespace

std::size_t attachAlignedSources(ProfileTable& table, const EtdumpDelegateAlignment& alignment,
    std::span<const ProgramDelegate> delegates, std::span<const DelegateLinks> links)
{
    const auto placed = placements(alignment);
    if (placed.empty())
        return 0;
    std::size_t filled = 0;
    for (auto& row : table.rows) {
        if (!row.isDelegatedOp || row.mapping == DelegateMapping::Mapped || row.profileEvents.empty())
            continue;
        const auto it = placed.find(row.profileEvents.front());
        if (it == placed.end() || it->second.delegate >= delegates.size())
            continue;
        const auto [d, n] = it->second;
        const auto& payload = delegates[d].payload;
        if (!payload || n >= payload->nodes.size())
            continue;
        const DelegateLinks* link = d < links.size() ? &links[d] : nullptr;
        std::vector<std::int64_t> handles;
        for (const auto h : payload->nodes[n].debugHandles)
            addUnique(handles, h);
        const auto sources = link ? sourcesOf(*link, n) : std::vector<const SourceNodeRef*> {};
        for (const auto* ref : sources)
            addUnique(handles, ref->handle);
        if (link)
            for (const auto& a : link->absorbed)
                if (a.intoNode == n)
                    addUnique(handles, a.handle);
        if (handles.empty())
            continue;
        row.debugHandles = std::move(handles);
        row.opTypes.clear();
        row.stackTraces.clear();
        row.moduleHierarchy.clear();
        for (const auto* ref : sources) {
            if (ref->node)
                row.opTypes.push_back(nodeOpType(*ref->node));
            if (!ref->stackTrace.empty())
                row.stackTraces.emplace_back(ref->name, ref->stackTrace);
            if (!ref->moduleStack.empty())
                row.moduleHierarchy.emplace_back(ref->name, ref->moduleStack);
        }
        row.mapping = DelegateMapping::Aligned;
        ++filled;
    }
    return filled;
}

} // namespace pte
