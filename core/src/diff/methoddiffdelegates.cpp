// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// The method comparison's delegates: backend, payload and compile specs of matched delegates, one-sided ones.
#include "diff/methoddiffer_p.h"
#include "pte/bytetext.h"

namespace pte::diff {

namespace {

std::string specsText(const std::vector<CompileSpec>& specs)
{
    std::string s;
    for (const auto& c : specs)
        s += (s.empty() ? "" : ", ") + c.key;
    return "[" + s + "]";
}

} // namespace

bool MethodDiffer::delegateCallsOneSided(
    const MethodView& view, const std::vector<std::int32_t>& rowOf, std::int32_t index) const
{
    for (std::size_t i = 0; i < view.instructionCount(); ++i)
        if (view.delegateIndex(i) == index) {
            const std::int32_t r = rowOf[i];
            if (r < 0 || m_status[std::size_t(r)] == DiffStatus::Same
                || m_status[std::size_t(r)] == DiffStatus::Changed)
                return false;
        }
    return true;
}

Result<void> MethodDiffer::compareDelegates()
{
    const auto& da = m_a.plan().delegates;
    const auto& db = m_b.plan().delegates;
    auto rowFor = [&](std::int32_t x, std::int32_t y) -> Result<DelegateRow> {
        DelegateRow row;
        row.methodA = x >= 0 ? m_a.plan().name : std::string();
        row.methodB = y >= 0 ? m_b.plan().name : std::string();
        row.indexA = x;
        row.indexB = y;
        if (x >= 0) {
            const auto& d = da[std::size_t(x)];
            const Bytes payload = delegateData(m_a.program(), d);
            row.backendA = d.id;
            row.payloadBytesA = payload.size();
            PTE_TRY(row.payloadSha256A, m_ctx.sha256(payload));
            row.compileSpecsA = d.compileSpecs.size();
        }
        if (y >= 0) {
            const auto& d = db[std::size_t(y)];
            const Bytes payload = delegateData(m_b.program(), d);
            row.backendB = d.id;
            row.payloadBytesB = payload.size();
            PTE_TRY(row.payloadSha256B, m_ctx.sha256(payload));
            row.compileSpecsB = d.compileSpecs.size();
        }
        return row;
    };
    for (std::size_t x = 0; x < da.size(); ++x) {
        const std::int32_t y = m_delegates.aToB[x];
        PTE_TRY(DelegateRow row, rowFor(std::int32_t(x), y));
        const std::string subject = pairSubject("delegate", "", std::int64_t(x), y) + " (" + da[x].id + ")";
        if (y < 0) {
            row.status = DiffStatus::Removed;
            if (!delegateCallsOneSided(m_a, m_rowOfA, std::int32_t(x)))
                add(DiffCategory::Delegate, DiffStatus::Removed, subject, "", da[x].id, "", std::int64_t(x), -1);
            m_ctx.out.delegates.push_back(std::move(row));
            continue;
        }
        const std::size_t before = m_diffs.size();
        const auto& a = da[x];
        const auto& b = db[std::size_t(y)];
        if (a.id != b.id)
            add(DiffCategory::Delegate, DiffStatus::Changed, subject, "id", a.id, b.id, std::int64_t(x), y);
        compareCompileSpecs(a, b, subject, std::int64_t(x), y, row);
        if (row.payloadBytesA != row.payloadBytesB || row.payloadSha256A != row.payloadSha256B)
            add(DiffCategory::Delegate, DiffStatus::Changed, subject, "payload",
                bytesCount(row.payloadBytesA) + " sha256 " + row.payloadSha256A.substr(0, 16),
                bytesCount(row.payloadBytesB) + " sha256 " + row.payloadSha256B.substr(0, 16), std::int64_t(x), y);
        const bool semanticChange = m_diffs.size() != before;
        if (m_strict) {
            if (std::int64_t(x) != y)
                add(DiffCategory::Delegate, DiffStatus::Changed, subject, "index", std::to_string(x), std::to_string(y),
                    std::int64_t(x), y, true);
            if (a.processed.location != b.processed.location || a.processed.index != b.processed.index) {
                auto where = [](const BackendDelegateDataReference& r) {
                    return std::string(r.location == DataLocation::Inline ? "inline " : "segment ")
                        + std::to_string(r.index);
                };
                add(DiffCategory::Delegate, DiffStatus::Changed, subject, "processed", where(a.processed),
                    where(b.processed), std::int64_t(x), y, true);
            }
        }
        row.status = m_diffs.size() != before || semanticChange ? DiffStatus::Changed : DiffStatus::Same;
        m_ctx.out.delegates.push_back(std::move(row));
    }
    for (std::size_t y = 0; y < db.size(); ++y) {
        if (m_delegates.bToA[y] >= 0)
            continue;
        PTE_TRY(DelegateRow row, rowFor(-1, std::int32_t(y)));
        row.status = DiffStatus::Added;
        if (!delegateCallsOneSided(m_b, m_rowOfB, std::int32_t(y)))
            add(DiffCategory::Delegate, DiffStatus::Added, "delegate " + std::to_string(y) + " (" + db[y].id + ")", "",
                "", db[y].id, -1, std::int64_t(y));
        m_ctx.out.delegates.push_back(std::move(row));
    }
    return {};
}

void MethodDiffer::compareCompileSpecs(const BackendDelegate& a, const BackendDelegate& b, const std::string& subject,
    std::int64_t x, std::int64_t y, DelegateRow& row)
{
    const std::size_t before = m_diffs.size();
    // By key, in A's order, then keys only B has; a key given twice is compared occurrence by occurrence.
    std::vector<bool> usedB(b.compileSpecs.size(), false);
    for (const auto& ca : a.compileSpecs) {
        std::size_t k = 0;
        while (k < b.compileSpecs.size() && (usedB[k] || b.compileSpecs[k].key != ca.key))
            ++k;
        const std::string field = "compile_spec '" + ca.key + "'";
        if (k == b.compileSpecs.size()) {
            add(DiffCategory::Delegate, DiffStatus::Removed, subject, field, compileSpecText(ca.key, ca.value.span()),
                "", x, y);
            continue;
        }
        usedB[k] = true;
        if (!ca.value.contentEquals(b.compileSpecs[k].value))
            add(DiffCategory::Delegate, DiffStatus::Changed, subject, field, compileSpecText(ca.key, ca.value.span()),
                compileSpecText(b.compileSpecs[k].key, b.compileSpecs[k].value.span()), x, y);
    }
    for (std::size_t k = 0; k < b.compileSpecs.size(); ++k)
        if (!usedB[k])
            add(DiffCategory::Delegate, DiffStatus::Added, subject, "compile_spec '" + b.compileSpecs[k].key + "'", "",
                compileSpecText(b.compileSpecs[k].key, b.compileSpecs[k].value.span()), x, y);
    if (m_diffs.size() == before && m_strict) {
        std::vector<std::string> ka;
        std::vector<std::string> kb;
        for (const auto& c : a.compileSpecs)
            ka.push_back(c.key);
        for (const auto& c : b.compileSpecs)
            kb.push_back(c.key);
        if (ka != kb)
            add(DiffCategory::Delegate, DiffStatus::Changed, subject, "compile_spec order", specsText(a.compileSpecs),
                specsText(b.compileSpecs), x, y, true);
    }
    row.compileSpecsDiffer = m_diffs.size() != before;
}

} // namespace pte::diff
