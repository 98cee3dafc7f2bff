// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// The method comparison's strict-only checks: value renumbering, the operator table's order, chain details.
#include "diff/methoddiffer_p.h"

namespace pte::diff {

void MethodDiffer::strictChecks()
{
    // Values renumbered, in runs of equal shift.
    const auto& aToB = m_values.aToB;
    for (std::size_t x = 0; x < aToB.size();) {
        if (aToB[x] < 0 || aToB[x] == std::int32_t(x)) {
            ++x;
            continue;
        }
        const std::int64_t shift = std::int64_t(aToB[x]) - std::int64_t(x);
        std::size_t e = x + 1;
        while (e < aToB.size() && aToB[e] >= 0 && std::int64_t(aToB[e]) - std::int64_t(e) == shift)
            ++e;
        const bool one = e - x == 1;
        const std::string ra =
            one ? "%" + std::to_string(x) : "%" + std::to_string(x) + "\u2013%" + std::to_string(e - 1);
        const std::string rb = one ? "%" + std::to_string(aToB[x])
                                   : "%" + std::to_string(aToB[x]) + "\u2013%" + std::to_string(aToB[e - 1]);
        const std::size_t d = add(DiffCategory::Value, DiffStatus::Changed, one ? "value" : "values", "index", ra, rb,
            std::int64_t(x), aToB[x], true);
        if (!one)
            m_diffs[d].detail = std::to_string(e - x) + " values renumbered";
        x = e;
    }
    std::vector<std::string> opsA;
    std::vector<std::string> opsB;
    for (const auto& o : m_a.plan().operators)
        opsA.push_back(o.qualifiedName());
    for (const auto& o : m_b.plan().operators)
        opsB.push_back(o.qualifiedName());
    if (opsA != opsB) {
        auto text = [](const std::vector<std::string>& v) {
            std::string s;
            for (std::size_t i = 0; i < v.size(); ++i)
                s += (i ? ", " : "") + std::to_string(i) + ":" + v[i];
            return "[" + s + "]";
        };
        add(DiffCategory::Operator, DiffStatus::Changed, "operators", "table", text(opsA), text(opsB), -1, -1, true);
    }
    const auto& ca = m_a.plan().chains;
    const auto& cb = m_b.plan().chains;
    for (std::size_t c = 0; c < ca.size() && c < cb.size(); ++c) {
        const std::string subject = "chain " + std::to_string(c);
        if (ca[c].inputs != cb[c].inputs)
            add(DiffCategory::Method, DiffStatus::Changed, subject, "inputs", listText(ca[c].inputs),
                listText(cb[c].inputs), -1, -1, true);
        if (ca[c].outputs != cb[c].outputs)
            add(DiffCategory::Method, DiffStatus::Changed, subject, "outputs", listText(ca[c].outputs),
                listText(cb[c].outputs), -1, -1, true);
        if (ca[c].stacktrace.has_value() != cb[c].stacktrace.has_value())
            add(DiffCategory::Method, DiffStatus::Changed, subject, "stacktrace",
                ca[c].stacktrace ? "present" : "absent", cb[c].stacktrace ? "present" : "absent", -1, -1, true);
    }
}

} // namespace pte::diff
