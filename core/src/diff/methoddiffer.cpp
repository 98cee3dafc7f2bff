// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// Comparing one method with another: the shared context, the comparison's steps in order and its results, and
// the methods present on one side only. The steps are defined by concern in methoddiff*.cpp.
#include "diff/methoddiffer.h"

#include "diff/contentcompare.h"
#include "diff/hashing.h"
#include "diff/methoddiffer_p.h"

#include <algorithm>

namespace pte::diff {

Result<bool> DiffContext::sameBytes(const Bytes& a, const Bytes& b)
{
    const auto key =
        std::make_tuple(static_cast<const void*>(a.data()), a.size(), static_cast<const void*>(b.data()), b.size());
    if (const auto it = m_same.find(key); it != m_same.end())
        return it->second;
    PTE_TRY(const bool same, diff::sameBytes(a, b, options.cancel));
    m_same.emplace(key, same);
    return same;
}

Result<std::string> DiffContext::sha256(const Bytes& bytes)
{
    const auto key = std::make_pair(static_cast<const void*>(bytes.data()), bytes.size());
    if (const auto it = m_sha.find(key); it != m_sha.end())
        return it->second;
    PTE_TRY(std::string hex, sha256OfBytes(bytes, options.cancel));
    m_sha.emplace(key, hex);
    return hex;
}

Difference makeDifference(DiffCategory category, DiffStatus status, std::string methodA, std::string methodB,
    std::string subject, std::string field, std::string a, std::string b, std::int64_t indexA, std::int64_t indexB,
    bool strictOnly)
{
    Difference d;
    d.category = category;
    d.status = status;
    d.methodA = std::move(methodA);
    d.methodB = std::move(methodB);
    d.subject = std::move(subject);
    d.field = std::move(field);
    d.a = std::move(a);
    d.b = std::move(b);
    d.indexA = indexA;
    d.indexB = indexB;
    d.strictOnly = strictOnly;
    return d;
}

std::uint64_t methodFingerprint(const MethodView& view)
{
    const InstructionKeys keys = instructionKeys(view);
    std::uint64_t h = hashCombine(0xf1, keys.primary.size());
    for (const auto k : keys.primary)
        h = hashCombine(h, k);
    for (const auto* list : { &view.plan().inputs, &view.plan().outputs }) {
        h = hashCombine(h, list->size());
        for (const auto v : *list) {
            const EValue* ev = view.value(v);
            h = hashCombine(h, ev ? std::uint64_t(ev->kind()) : 99);
            if (const Tensor* t = ev ? ev->tensor() : nullptr)
                h = hashCombine(h, hashString(tensorType(*t)));
        }
    }
    return h;
}

Result<void> MethodDiffer::run()
{
    align();
    m_values = matchValues(m_a, m_b, m_rows, m_keysA.similar, m_keysB.similar);
    m_delegates = matchDelegates(m_a, m_b, m_rows);
    PTE_CHECK(compareValues());
    PTE_CHECK(compareRows());
    compareSignature();
    reportUnmatchedValues();
    compareMemoryPlan();
    PTE_CHECK(compareDelegates());
    compareMethodMeta();
    if (m_strict)
        strictChecks();
    attachUses();
    finish();
    return {};
}

std::size_t MethodDiffer::add(DiffCategory category, DiffStatus status, std::string subject, std::string field,
    std::string a, std::string b, std::int64_t ia, std::int64_t ib, bool strictOnly)
{
    m_diffs.push_back(makeDifference(category, status, m_a.plan().name, m_b.plan().name, std::move(subject),
        std::move(field), std::move(a), std::move(b), ia, ib, strictOnly));
    return m_diffs.size() - 1;
}

bool MethodDiffer::mapped(std::int64_t x, std::int64_t y) const
{
    return x >= 0 && std::size_t(x) < m_values.aToB.size() && m_values.aToB[std::size_t(x)] == y;
}

void MethodDiffer::finish()
{
    std::stable_sort(m_diffs.begin(), m_diffs.end(),
        [](const Difference& x, const Difference& y) { return int(x.category) < int(y.category); });
    m_md.nameA = m_a.plan().name;
    m_md.nameB = m_b.plan().name;
    m_md.status = m_diffs.empty() ? DiffStatus::Same : DiffStatus::Changed;
    m_md.instructionsA = m_a.instructionCount();
    m_md.instructionsB = m_b.instructionCount();
    m_md.valuesA = m_a.valueCount();
    m_md.valuesB = m_b.valueCount();
    m_md.rows.resize(m_rows.size());
    for (std::size_t r = 0; r < m_rows.size(); ++r) {
        m_md.rows[r] = InstructionRow { m_rows[r].a, m_rows[r].b, m_status[r] };
        switch (m_status[r]) {
        case DiffStatus::Same:
            ++m_md.same;
            break;
        case DiffStatus::Changed:
            ++m_md.changed;
            break;
        case DiffStatus::Added:
            ++m_md.inserted;
            break;
        case DiffStatus::Removed:
            ++m_md.removed;
            break;
        }
    }
    m_md.valueAtoB = std::move(m_values.aToB);
    m_md.valueBtoA = std::move(m_values.bToA);
    countOperators(m_a, true);
    countOperators(m_b, false);
    for (auto& d : m_diffs)
        m_ctx.out.differences.push_back(std::move(d));
}

void MethodDiffer::countOperators(const MethodView& view, bool sideA)
{
    const auto& ops = view.plan().operators;
    std::vector<std::size_t> counts(ops.size() + 1, 0);
    for (std::size_t i = 0; i < view.instructionCount(); ++i)
        if (const auto* k = std::get_if<KernelCall>(&view.instruction(i).args))
            ++counts[k->opIndex >= 0 && std::size_t(k->opIndex) < ops.size() ? std::size_t(k->opIndex) : ops.size()];
    for (std::size_t o = 0; o <= ops.size(); ++o) {
        if (counts[o] == 0)
            continue;
        auto& entry = m_md.operatorCounts[o < ops.size() ? ops[o].qualifiedName() : std::string("?")];
        (sideA ? entry.first : entry.second) += counts[o];
    }
}

namespace {

/** A method on one side only: every instruction inserted or removed, one difference for the method. */
void oneSidedMethod(const MethodView& view, bool sideA, DiffContext& ctx, MethodDiff& md)
{
    Difference d;
    d.category = DiffCategory::Method;
    d.status = sideA ? DiffStatus::Removed : DiffStatus::Added;
    (sideA ? d.methodA : d.methodB) = view.plan().name;
    d.subject = "method '" + view.plan().name + "'";
    (sideA ? d.a : d.b) =
        std::to_string(view.instructionCount()) + " instructions, " + std::to_string(view.valueCount()) + " values";
    ctx.out.differences.push_back(std::move(d));
    (sideA ? md.nameA : md.nameB) = view.plan().name;
    md.status = sideA ? DiffStatus::Removed : DiffStatus::Added;
    (sideA ? md.instructionsA : md.instructionsB) = view.instructionCount();
    (sideA ? md.valuesA : md.valuesB) = view.valueCount();
    md.rows.reserve(view.instructionCount());
    for (std::size_t i = 0; i < view.instructionCount(); ++i)
        md.rows.push_back(InstructionRow { sideA ? std::int32_t(i) : -1, sideA ? -1 : std::int32_t(i), md.status });
    (sideA ? md.removed : md.inserted) = view.instructionCount();
    (sideA ? md.valueAtoB : md.valueBtoA).assign(view.valueCount(), -1);
    for (std::size_t i = 0; i < view.instructionCount(); ++i)
        if (std::holds_alternative<KernelCall>(view.instruction(i).args)) {
            auto& entry = md.operatorCounts[view.target(i)];
            ++(sideA ? entry.first : entry.second);
        }
}

} // namespace

Result<void> diffMethod(const MethodView* a, const MethodView* b, DiffContext& context, MethodDiff& result)
{
    if (a && b)
        return MethodDiffer(*a, *b, context, result).run();
    if (a || b)
        oneSidedMethod(a ? *a : *b, a != nullptr, context, result);
    return {};
}

} // namespace pte::diff
