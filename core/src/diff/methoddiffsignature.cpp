// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// The method comparison's signature: the inputs and outputs, reordered or changed.
#include "diff/methoddiffer_p.h"
#include "diff/valuecompare.h"

#include <algorithm>

namespace pte::diff {

void MethodDiffer::compareSignature()
{
    compareIoList(m_a.plan().inputs, m_b.plan().inputs, "inputs");
    compareIoList(m_a.plan().outputs, m_b.plan().outputs, "outputs");
}

void MethodDiffer::compareIoList(
    const std::vector<std::int32_t>& la, const std::vector<std::int32_t>& lb, const char* what)
{
    auto same = [&](std::int64_t x, std::int64_t y) { return mapped(x, y) || sameLiteral(m_a, x, m_b, y); };
    const std::size_t n = std::min(la.size(), lb.size());
    std::vector<std::size_t> mismatched;
    for (std::size_t i = 0; i < n; ++i)
        if (!same(la[i], lb[i]))
            mismatched.push_back(i);
    const std::string name = what;
    if (la.size() != lb.size()) {
        add(DiffCategory::Signature, DiffStatus::Changed, name, "count", std::to_string(la.size()),
            std::to_string(lb.size()), -1, -1);
        for (std::size_t i = n; i < la.size(); ++i) {
            add(DiffCategory::Signature, DiffStatus::Removed, name + "[" + std::to_string(i) + "]", "",
                m_a.describeValue(la[i]), "", la[i], -1);
            m_signatureExplainedA.insert(la[i]);
        }
        for (std::size_t i = n; i < lb.size(); ++i) {
            add(DiffCategory::Signature, DiffStatus::Added, name + "[" + std::to_string(i) + "]", "", "",
                m_b.describeValue(lb[i]), -1, lb[i]);
            m_signatureExplainedB.insert(lb[i]);
        }
    }
    if (mismatched.empty())
        return;
    // The same values in another order?
    std::vector<std::int64_t> positionInB;
    for (const std::size_t i : mismatched) {
        std::int64_t found = -1;
        for (const std::size_t k : mismatched)
            if (same(la[i], lb[k])
                && std::find(positionInB.begin(), positionInB.end(), std::int64_t(k)) == positionInB.end()) {
                found = std::int64_t(k);
                break;
            }
        if (found < 0)
            break;
        positionInB.push_back(found);
    }
    if (positionInB.size() == mismatched.size()) {
        std::vector<std::int32_t> orderA;
        std::vector<std::int32_t> orderB;
        for (const auto v : la)
            orderA.push_back(v);
        for (const auto v : lb)
            orderB.push_back(v);
        std::string detail;
        for (std::size_t t = 0; t < mismatched.size(); ++t)
            detail += (t ? ", " : "") + name + "[" + std::to_string(mismatched[t]) + "] is now " + name + "["
                + std::to_string(positionInB[t]) + "]";
        const std::size_t d = add(DiffCategory::Signature, DiffStatus::Changed, name, "order", "%" + listText(orderA),
            "%" + listText(orderB), -1, -1);
        m_diffs[d].detail = "reordered: " + detail;
        for (const std::size_t i : mismatched) {
            m_signatureExplainedA.insert(la[i]);
            m_signatureExplainedB.insert(lb[i]);
        }
        return;
    }
    for (const std::size_t i : mismatched) {
        add(DiffCategory::Signature, DiffStatus::Changed, name + "[" + std::to_string(i) + "]", "",
            m_a.describeValue(la[i]), m_b.describeValue(lb[i]), la[i], lb[i]);
        m_signatureExplainedA.insert(la[i]);
        m_signatureExplainedB.insert(lb[i]);
    }
}

} // namespace pte::diff
