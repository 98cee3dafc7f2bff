// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "models/instructioneventsproxy.h"

#include "models/profilemodel.h"
#include "models/roles.h"

namespace pte::ui {

InstructionEventsProxy::InstructionEventsProxy(QObject* parent)
    : QSortFilterProxyModel(parent)
{
    setSortRole(SortRole);
}

void InstructionEventsProxy::setProfileModel(ProfileModel* model)
{
    m_model = model;
    setSourceModel(model);
}

void InstructionEventsProxy::setInstruction(const QString& method, int chain, int instruction)
{
    m_method = m_model && m_model->profile() && m_model->profile()->join
        ? m_model->profile()->join->sources->methodIndex(method.toStdString())
        : -1;
    m_chain = chain;
    m_instruction = instruction;
    invalidateRowsFilter();
}

bool InstructionEventsProxy::filterAcceptsRow(int sourceRow, const QModelIndex&) const
{
    if (!m_model || !m_model->profile() || m_instruction < 0 || m_method < 0)
        return false;
    const auto& row = m_model->row(sourceRow);
    return row.isDelegatedOp && row.instruction == m_instruction && row.chain == m_chain && row.method == m_method;
}

} // namespace pte::ui
