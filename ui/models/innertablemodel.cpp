// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "models/innertablemodel.h"

#include "document/delegateinspection.h"

namespace pte::ui {

void InnerTableModel::setDelegate(std::shared_ptr<const Snapshot> snapshot, int delegate)
{
    beginResetModel();
    m_snapshot = std::move(snapshot);
    m_inspection = m_snapshot ? m_snapshot->delegates.get() : nullptr;
    m_delegate =
        m_inspection && delegate >= 0 && std::size_t(delegate) < m_inspection->delegates.size() ? delegate : -1;
    m_payload = m_delegate >= 0 ? m_inspection->delegates[std::size_t(m_delegate)].payload.get() : nullptr;
    delegateChanged();
    endResetModel();
}

} // namespace pte::ui
