// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "models/memoryplan.h"

#include "pte/valuelifetimes.h"

#include <algorithm>

namespace pte::ui {

std::vector<pte::PlannedTensor> memoryPlanFor(const MethodEntry& method)
{
    if (method.emitInfo && !method.emitInfo->memoryPlan.empty())
        return method.emitInfo->memoryPlan;
    std::vector<pte::PlannedTensor> out;
    if (!method.plan)
        return out;
    const auto& plan = *method.plan;
    const auto lifetimes = pte::valueLifetimes(plan);
    for (std::size_t v = 0; v < plan.values.size(); ++v) {
        const auto* t = plan.values[v].tensor();
        if (!t || !t->allocationInfo)
            continue;
        pte::PlannedTensor p;
        p.valueIndex = std::int32_t(v);
        if (method.emitInfo) {
            const auto it = method.emitInfo->valueNames.find(std::int32_t(v));
            if (it != method.emitInfo->valueNames.end())
                p.name = it->second;
        }
        p.memoryId = t->allocationInfo->memoryId;
        p.offset = t->allocationInfo->offset();
        p.size = t->nbytes().value_or(0);
        p.firstInstruction = std::max(lifetimes[v].first, 0);
        p.lastInstruction = std::max(lifetimes[v].last, p.firstInstruction);
        out.push_back(std::move(p));
    }
    return out;
}

} // namespace pte::ui
