// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "pte/delegateetdump.h"

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

} // namespace pte
