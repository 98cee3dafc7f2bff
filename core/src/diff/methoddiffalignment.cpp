// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// The method comparison's instruction alignment: by instruction keys, then with debug handles when they do no
// worse.
#include "diff/methoddiffer_p.h"

#include <algorithm>

namespace pte::diff {

void MethodDiffer::align()
{
    m_keysA = instructionKeys(m_a);
    m_keysB = instructionKeys(m_b);
    m_rows = alignSequences(m_keysA.primary, m_keysB.primary);
    refineHunks(m_rows, m_keysA.primary, m_keysB.primary, m_keysA.similar, m_keysB.similar);
    if (!m_keysA.withHandles.empty() && !m_keysB.withHandles.empty()) {
        // Handles tell repeated instructions apart; but when one side's handles are shifted (a node inserted
        // upstream renumbers the rest) they break the alignment: keep them only when they do no worse.
        auto withHandles = alignSequences(m_keysA.withHandles, m_keysB.withHandles);
        refineHunks(withHandles, m_keysA.withHandles, m_keysB.withHandles, m_keysA.similar, m_keysB.similar);
        if (oneSided(withHandles) <= oneSided(m_rows)) {
            m_rows = std::move(withHandles);
            m_md.alignedWithDebugHandles = true;
        }
    }
    m_rowOfA.assign(m_a.instructionCount(), -1);
    m_rowOfB.assign(m_b.instructionCount(), -1);
    for (std::size_t r = 0; r < m_rows.size(); ++r) {
        if (m_rows[r].a >= 0)
            m_rowOfA[std::size_t(m_rows[r].a)] = std::int32_t(r);
        if (m_rows[r].b >= 0)
            m_rowOfB[std::size_t(m_rows[r].b)] = std::int32_t(r);
    }
}

std::size_t MethodDiffer::oneSided(const std::vector<AlignedPair>& rows)
{
    return std::size_t(
        std::count_if(rows.begin(), rows.end(), [](const AlignedPair& r) { return r.a < 0 || r.b < 0; }));
}

} // namespace pte::diff
