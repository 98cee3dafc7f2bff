// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// The method comparison's unmatched values and the uses attached to value differences.
#include "diff/methoddiffer_p.h"

#include <algorithm>
#include <array>
#include <unordered_map>

namespace pte::diff {

template <typename F> void MethodDiffer::forEachUse(const MethodView& view, F&& f)
{
    std::array<std::int32_t, 2> scratch {};
    for (std::size_t i = 0; i < view.instructionCount(); ++i) {
        const auto args = view.arguments(i, scratch);
        for (std::size_t p = 0; p < args.size(); ++p) {
            const DiffUse use { std::int32_t(i), std::int32_t(p) };
            f(std::int64_t(args[p]), use, false);
            const EValue* v = view.value(args[p]);
            if (!v)
                continue;
            if (const auto* l = std::get_if<IntList>(&v->val))
                for (const auto item : l->items)
                    f(item, use, true);
            else if (const auto* tl = std::get_if<TensorList>(&v->val))
                for (const auto item : tl->items)
                    f(std::int64_t(item), use, true);
            else if (const auto* ol = std::get_if<OptionalTensorList>(&v->val))
                for (const auto item : ol->items)
                    if (item >= 0)
                        f(std::int64_t(item), use, true);
        }
    }
    const auto& plan = view.plan();
    for (std::size_t i = 0; i < plan.inputs.size(); ++i)
        f(std::int64_t(plan.inputs[i]), DiffUse { -1, std::int32_t(i) }, false);
    for (std::size_t i = 0; i < plan.outputs.size(); ++i)
        f(std::int64_t(plan.outputs[i]), DiffUse { -2, std::int32_t(i) }, false);
}

void MethodDiffer::reportUnmatchedValues()
{
    for (const bool sideA : { true, false }) {
        const MethodView& view = sideA ? m_a : m_b;
        const auto& match = sideA ? m_values.aToB : m_values.bToA;
        const auto& rowOf = sideA ? m_rowOfA : m_rowOfB;
        const auto& explained = sideA ? m_explainedA : m_explainedB;
        const auto& signatureExplained = sideA ? m_signatureExplainedA : m_signatureExplainedB;
        const DiffStatus oneSided = sideA ? DiffStatus::Removed : DiffStatus::Added;
        // 0 = unused, 1 = used only where a reported difference covers it, 2 = used elsewhere
        std::vector<std::uint8_t> state(view.valueCount(), 0);
        forEachUse(view, [&](std::int64_t v, const DiffUse& use, bool /*item*/) {
            if (v < 0 || std::size_t(v) >= state.size() || match[std::size_t(v)] >= 0)
                return;
            bool covered = false;
            if (use.instruction >= 0) {
                const std::int32_t r = rowOf[std::size_t(use.instruction)];
                covered = (r >= 0 && m_status[std::size_t(r)] == oneSided)
                    || explained.count({ use.instruction, use.argument }) > 0;
                if (!covered && r >= 0 && m_status[std::size_t(r)] == DiffStatus::Changed) {
                    // A list argument whose items differ is reported as the list's difference.
                    std::array<std::int32_t, 2> scratch {};
                    const auto args = view.arguments(std::size_t(use.instruction), scratch);
                    const std::int64_t list = args[std::size_t(use.argument)];
                    if (list != v) {
                        const std::int64_t listA = sideA ? list : (list >= 0 ? m_values.bToA[std::size_t(list)] : -1);
                        covered = listA >= 0 && m_valueDiffersA[std::size_t(listA)];
                    }
                }
            } else {
                covered = signatureExplained.count(v) > 0;
            }
            std::uint8_t& s = state[std::size_t(v)];
            s = std::max<std::uint8_t>(s, covered ? 1 : 2);
        });
        for (std::size_t v = 0; v < view.valueCount(); ++v) {
            if (match[v] >= 0 || state[v] == 1)
                continue;
            const std::int64_t x = sideA ? std::int64_t(v) : -1;
            const std::int64_t y = sideA ? -1 : std::int64_t(v);
            const std::size_t d = add(DiffCategory::Value, oneSided, valueSubject(x, y), "",
                sideA ? view.describeValue(std::int64_t(v)) : std::string(),
                sideA ? std::string() : view.describeValue(std::int64_t(v)), x, y);
            if (state[v] == 0)
                m_diffs[d].detail = "not used by any instruction";
            m_useTargets.emplace_back(d, x, y);
        }
    }
}

void MethodDiffer::attachUses()
{
    if (m_useTargets.empty())
        return;
    const std::size_t maxUses = m_ctx.options.maxUsesPerValue;
    for (const bool sideA : { true, false }) {
        const MethodView& view = sideA ? m_a : m_b;
        std::unordered_map<std::int64_t, std::pair<std::vector<DiffUse>, std::size_t>> uses;
        for (const auto& [d, x, y] : m_useTargets)
            if ((sideA ? x : y) >= 0)
                uses[sideA ? x : y];
        forEachUse(view, [&](std::int64_t v, const DiffUse& use, bool) {
            const auto it = uses.find(v);
            if (it == uses.end())
                return;
            auto& [list, count] = it->second;
            if (!list.empty() && list.back() == use)
                return; // a list holding the value twice
            ++count;
            if (list.size() < maxUses)
                list.push_back(use);
        });
        for (const auto& [d, x, y] : m_useTargets) {
            const std::int64_t v = sideA ? x : y;
            if (v < 0)
                continue;
            const auto& [list, count] = uses[v];
            (sideA ? m_diffs[d].usesA : m_diffs[d].usesB) = list;
            (sideA ? m_diffs[d].useCountA : m_diffs[d].useCountB) = count;
        }
    }
}

} // namespace pte::diff
