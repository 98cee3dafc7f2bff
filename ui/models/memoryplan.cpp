// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "models/memoryplan.h"

namespace pte::ui {

std::vector<pte::PlannedTensor> memoryPlanFor(const MethodEntry& method)
{
    if (method.emitInfo && !method.emitInfo->memoryPlan.empty())
        return method.emitInfo->memoryPlan;
    std::vector<pte::PlannedTensor> out;
    if (!method.plan)
        return out;
    const auto& plan = *method.plan;
    const std::size_t n = plan.values.size();
    std::vector<std::int32_t> first(n, -1), last(n, -1);
    std::int32_t count = 0;
    auto touch = [&](std::int32_t v, std::int32_t at) {
        if (v < 0 || std::size_t(v) >= n)
            return;
        if (first[std::size_t(v)] < 0)
            first[std::size_t(v)] = at;
        last[std::size_t(v)] = std::max(last[std::size_t(v)], at);
        if (const auto* tl = std::get_if<pte::TensorList>(&plan.values[std::size_t(v)].val))
            for (const auto item : tl->items)
                if (item >= 0 && std::size_t(item) < n) {
                    if (first[std::size_t(item)] < 0)
                        first[std::size_t(item)] = at;
                    last[std::size_t(item)] = std::max(last[std::size_t(item)], at);
                }
    };
    if (!plan.chains.empty()) {
        const auto& ins = plan.chains[0].instructions;
        count = std::int32_t(ins.size());
        for (std::size_t i = 0; i < ins.size(); ++i) {
            const auto at = std::int32_t(i);
            std::visit(
                [&](const auto& a) {
                    using T = std::decay_t<decltype(a)>;
                    if constexpr (std::is_same_v<T, pte::KernelCall> || std::is_same_v<T, pte::DelegateCall>) {
                        for (const auto v : a.args)
                            touch(v, at);
                    } else if constexpr (std::is_same_v<T, pte::MoveCall>) {
                        touch(a.moveFrom, at);
                        touch(a.moveTo, at);
                    } else if constexpr (std::is_same_v<T, pte::JumpFalseCall>) {
                        touch(a.condValueIndex, at);
                    } else if constexpr (std::is_same_v<T, pte::FreeCall>) {
                        touch(a.valueIndex, at);
                    }
                },
                ins[i].args);
        }
    }
    for (const auto v : plan.inputs)
        if (v >= 0 && std::size_t(v) < n) {
            first[std::size_t(v)] = 0;
            last[std::size_t(v)] = std::max(last[std::size_t(v)], 0);
        }
    for (const auto v : plan.outputs)
        if (v >= 0 && std::size_t(v) < n) {
            if (first[std::size_t(v)] < 0)
                first[std::size_t(v)] = 0;
            last[std::size_t(v)] = std::max(count - 1, 0);
        }
    for (std::size_t v = 0; v < n; ++v) {
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
        p.firstInstruction = std::max(first[v], 0);
        p.lastInstruction = std::max(last[v], p.firstInstruction);
        out.push_back(std::move(p));
    }
    return out;
}

} // namespace pte::ui
