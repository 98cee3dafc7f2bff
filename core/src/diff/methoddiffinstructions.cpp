// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// The method comparison's instructions: aligned rows compared field by field, runs of inserted or removed ones.
#include "diff/methoddiffer_p.h"
#include "diff/valuecompare.h"

#include <array>

namespace pte::diff {

Result<void> MethodDiffer::compareRows()
{
    m_instrAtoB.assign(m_a.instructionCount(), -1);
    for (const auto& r : m_rows)
        if (r.a >= 0 && r.b >= 0)
            m_instrAtoB[std::size_t(r.a)] = r.b;
    m_status.assign(m_rows.size(), DiffStatus::Same);
    std::array<std::int32_t, 2> sa {};
    std::array<std::int32_t, 2> sb {};
    const bool handles = m_a.hasDebugHandles() && m_b.hasDebugHandles();
    const bool delegateMaps = m_a.hasDelegateMap() && m_b.hasDelegateMap();
    for (std::size_t r = 0; r < m_rows.size(); ++r) {
        if ((r & 0xfff) == 0 && m_ctx.cancelled())
            return fail(ErrorCode::Cancelled, "the comparison was cancelled");
        const AlignedPair row = m_rows[r];
        if (row.a < 0 || row.b < 0) {
            r = reportOneSidedRun(r) - 1;
            continue;
        }
        const auto i = std::size_t(row.a);
        const auto j = std::size_t(row.b);
        const std::string subject = instructionSubject(row.a, row.b);
        InstructionChange change;
        change.row = std::uint32_t(r);
        const Instruction& ia = m_a.instruction(i);
        const Instruction& ib = m_b.instruction(j);
        if (ia.kind() != ib.kind()) {
            change.kind = true;
            add(DiffCategory::Instruction, DiffStatus::Changed, subject, "kind", instructionKindName(ia.kind()),
                instructionKindName(ib.kind()), row.a, row.b);
        } else if (m_a.target(i) != m_b.target(j)) {
            change.target = true;
            add(DiffCategory::Instruction, DiffStatus::Changed, subject,
                ia.kind() == InstructionKind::DelegateCall ? "backend" : "operator", m_a.target(i), m_b.target(j),
                row.a, row.b);
        } else if (ia.kind() == InstructionKind::DelegateCall) {
            const std::int32_t da = m_a.delegateIndex(i);
            const std::int32_t db = m_b.delegateIndex(j);
            const bool same =
                da >= 0 && std::size_t(da) < m_delegates.aToB.size() && m_delegates.aToB[std::size_t(da)] == db;
            if (!same) {
                change.target = true;
                add(DiffCategory::Instruction, DiffStatus::Changed, subject, "delegate",
                    "delegate " + std::to_string(da), "delegate " + std::to_string(db), row.a, row.b);
            }
        }
        const auto argsA = m_a.arguments(i, sa);
        const auto argsB = m_b.arguments(j, sb);
        if (argsA.size() != argsB.size()) {
            change.argumentCount = true;
            add(DiffCategory::Instruction, DiffStatus::Changed, subject, "arguments",
                std::to_string(argsA.size()) + ": " + m_a.describeInstruction(i),
                std::to_string(argsB.size()) + ": " + m_b.describeInstruction(j), row.a, row.b);
        }
        for (std::size_t p = 0; p < argsA.size() && p < argsB.size(); ++p) {
            const std::int64_t x = argsA[p];
            const std::int64_t y = argsB[p];
            if (mapped(x, y)) {
                if (m_valueDiffersA[std::size_t(x)])
                    change.arguments.push_back(std::uint32_t(p));
                continue;
            }
            if (sameLiteral(m_a, x, m_b, y))
                continue;
            PTE_TRY(const bool sameConst, sameConstant(x, y));
            if (sameConst)
                continue;
            change.arguments.push_back(std::uint32_t(p));
            const std::size_t d = add(DiffCategory::Instruction, DiffStatus::Changed, subject,
                "arg " + std::to_string(p), m_a.describeValue(x), m_b.describeValue(y), row.a, row.b);
            m_diffs[d].detail = "the argument is not the same value on both sides";
            m_explainedA.insert({ std::int32_t(i), std::int32_t(p) });
            m_explainedB.insert({ std::int32_t(j), std::int32_t(p) });
        }
        if (const auto* ja = std::get_if<JumpFalseCall>(&ia.args)) {
            if (const auto* jb = std::get_if<JumpFalseCall>(&ib.args)) {
                const std::int64_t mappedDest =
                    ja->destinationInstruction >= 0 && std::size_t(ja->destinationInstruction) < m_instrAtoB.size()
                    ? m_instrAtoB[std::size_t(ja->destinationInstruction)]
                    : -1;
                if (mappedDest != jb->destinationInstruction) {
                    change.target = true;
                    add(DiffCategory::Instruction, DiffStatus::Changed, subject, "destination",
                        std::to_string(ja->destinationInstruction), std::to_string(jb->destinationInstruction), row.a,
                        row.b);
                }
            }
        }
        if (handles) {
            static const std::vector<std::int64_t> none;
            const auto* ha = m_a.debugHandles(i);
            const auto* hb = m_b.debugHandles(j);
            if ((ha ? *ha : none) != (hb ? *hb : none)) {
                change.debugHandles = true;
                add(DiffCategory::DebugInfo, DiffStatus::Changed, subject, "debug_handles", listText(ha ? *ha : none),
                    listText(hb ? *hb : none), row.a, row.b);
            }
        }
        if (delegateMaps && ia.kind() == InstructionKind::DelegateCall) {
            const DelegateMapEntry* ea = m_a.delegateMapEntry(i);
            const DelegateMapEntry* eb = m_b.delegateMapEntry(j);
            const bool same = (!ea && !eb) || (ea && eb && ea->name == eb->name && ea->delegateMap == eb->delegateMap);
            if (!same) {
                change.debugHandles = true;
                add(DiffCategory::DebugInfo, DiffStatus::Changed, subject, "delegate_debug_identifiers",
                    ea ? delegateMapText(*ea) : std::string("none"), eb ? delegateMapText(*eb) : std::string("none"),
                    row.a, row.b);
            }
        }
        const bool changed = change.kind || change.target || change.argumentCount || change.debugHandles
            || !change.arguments.empty() || m_keysA.primary[i] != m_keysB.primary[j];
        if (changed) {
            m_status[r] = DiffStatus::Changed;
            m_md.changes.push_back(std::move(change));
        }
    }
    return {};
}

std::string MethodDiffer::delegateMapText(const DelegateMapEntry& e)
{
    std::string s = e.name + " {";
    std::size_t n = 0;
    for (const auto& [id, handles] : e.delegateMap) {
        if (n++ == 8) {
            s += ", ... (" + std::to_string(e.delegateMap.size()) + " identifiers)";
            break;
        }
        s += (n > 1 ? ", " : "") + id + ": " + listText(handles);
    }
    return s + "}";
}

std::size_t MethodDiffer::reportOneSidedRun(std::size_t r)
{
    std::size_t end = r;
    while (end < m_rows.size() && (m_rows[end].a < 0 || m_rows[end].b < 0))
        ++end;
    for (const bool removed : { true, false }) {
        std::vector<std::int32_t> indices;
        for (std::size_t t = r; t < end; ++t) {
            const std::int32_t idx = removed ? m_rows[t].a : m_rows[t].b;
            if (idx >= 0) {
                indices.push_back(idx);
                m_status[t] = removed ? DiffStatus::Removed : DiffStatus::Added;
            }
        }
        // One difference per run of consecutive instructions.
        for (std::size_t s = 0; s < indices.size();) {
            std::size_t e = s + 1;
            while (e < indices.size() && indices[e] == indices[e - 1] + 1)
                ++e;
            const MethodView& view = removed ? m_a : m_b;
            std::string subject = e - s == 1
                ? "instruction " + std::to_string(indices[s])
                : "instructions " + std::to_string(indices[s]) + "\u2013" + std::to_string(indices[e - 1]);
            std::string text = view.describeInstruction(std::size_t(indices[s]));
            if (e - s > 1)
                text += " ..."; // the count is the difference's detail
            const std::size_t d = add(DiffCategory::Instruction, removed ? DiffStatus::Removed : DiffStatus::Added,
                std::move(subject), "", removed ? text : std::string(), removed ? std::string() : text,
                removed ? indices[s] : -1, removed ? -1 : indices[s]);
            if (e - s > 1)
                m_diffs[d].detail = std::to_string(e - s) + " instructions";
            s = e;
        }
    }
    return end;
}

} // namespace pte::diff
