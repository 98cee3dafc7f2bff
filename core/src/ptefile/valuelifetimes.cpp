// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "pte/valuelifetimes.h"

#include <algorithm>
#include <type_traits>
#include <variant>

namespace pte {

std::vector<ValueLifetime> valueLifetimes(const ExecutionPlan& plan)
{
    const std::size_t n = plan.values.size();
    std::vector<ValueLifetime> out(n);
    auto touchOne = [&](std::int32_t v, std::int32_t at) {
        auto& l = out[std::size_t(v)];
        if (l.first < 0)
            l.first = at;
        l.last = std::max(l.last, at);
    };
    auto touch = [&](std::int32_t v, std::int32_t at) {
        if (v < 0 || std::size_t(v) >= n)
            return;
        touchOne(v, at);
        if (const auto* tl = std::get_if<TensorList>(&plan.values[std::size_t(v)].val))
            for (const auto item : tl->items)
                if (item >= 0 && std::size_t(item) < n)
                    touchOne(item, at);
    };
    std::int32_t count = 0;
    if (!plan.chains.empty()) {
        const auto& ins = plan.chains[0].instructions;
        count = std::int32_t(ins.size());
        for (std::size_t i = 0; i < ins.size(); ++i) {
            const auto at = std::int32_t(i);
            std::visit(
                [&](const auto& a) {
                    using T = std::decay_t<decltype(a)>;
                    if constexpr (std::is_same_v<T, KernelCall> || std::is_same_v<T, DelegateCall>) {
                        for (const auto v : a.args)
                            touch(v, at);
                    } else if constexpr (std::is_same_v<T, MoveCall>) {
                        touch(a.moveFrom, at);
                        touch(a.moveTo, at);
                    } else if constexpr (std::is_same_v<T, JumpFalseCall>) {
                        touch(a.condValueIndex, at);
                    } else if constexpr (std::is_same_v<T, FreeCall>) {
                        touch(a.valueIndex, at);
                    }
                },
                ins[i].args);
        }
    }
    for (const auto v : plan.inputs)
        if (v >= 0 && std::size_t(v) < n) {
            out[std::size_t(v)].first = 0;
            out[std::size_t(v)].last = std::max(out[std::size_t(v)].last, 0);
        }
    for (const auto v : plan.outputs)
        if (v >= 0 && std::size_t(v) < n) {
            if (out[std::size_t(v)].first < 0)
                out[std::size_t(v)].first = 0;
            out[std::size_t(v)].last = std::max(count - 1, 0);
        }
    return out;
}

} // namespace pte
