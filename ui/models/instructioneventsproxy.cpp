// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "models/instructioneventsproxy.h"

#include "models/profilemodel.h"

namespace pte::ui {

InstructionEventsProxy::InstructionEventsProxy(QObject* parent)
    : ProfileProxy(parent)
{ }

void InstructionEventsProxy::setInstruction(const QString& method, int chain, int instruction)
{
    const ProfileModel* model = profileModel();
    m_method = model && model->profile() && model->profile()->join
        ? model->profile()->join->sources->methodIndex(method.toStdString())
        : -1;
    m_chain = chain;
    m_instruction = instruction;
    invalidateRowsFilter();
}

bool InstructionEventsProxy::filterAcceptsRow(int sourceRow, const QModelIndex&) const
{
    const ProfileModel* model = profileModel();
    if (!model || !model->profile() || m_instruction < 0 || m_method < 0)
        return false;
    const auto& row = model->row(sourceRow);
    return row.isDelegatedOp && row.instruction == m_instruction && row.chain == m_chain && row.method == m_method;
}

} // namespace pte::ui
