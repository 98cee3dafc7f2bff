// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "models/profilefilterproxy.h"

#include "models/profilemodel.h"
#include "models/text.h"

namespace pte::ui {

ProfileFilterProxy::ProfileFilterProxy(QObject* parent)
    : ProfileProxy(parent)
{ }

void ProfileFilterProxy::setText(const QString& text)
{
    const QStringList words = text.toLower().split(QLatin1Char(' '), Qt::SkipEmptyParts);
    if (words == m_words)
        return;
    // A reset, not invalidating the filter: removing 75k scattered rows range by range is quadratic in the view
    // (see InstructionFilterProxy::refresh()).
    beginResetModel();
    m_words = words;
    endResetModel();
}

void ProfileFilterProxy::setBlock(const QString& block)
{
    if (block == m_block)
        return;
    beginResetModel();
    m_block = block;
    endResetModel();
}

void ProfileFilterProxy::setDelegatedOnly(bool on)
{
    if (on == m_delegatedOnly)
        return;
    beginResetModel();
    m_delegatedOnly = on;
    endResetModel();
}

bool ProfileFilterProxy::filterAcceptsRow(int sourceRow, const QModelIndex&) const
{
    const ProfileModel* model = profileModel();
    if (!model || !model->profile())
        return true;
    const auto& row = model->row(sourceRow);
    if (m_delegatedOnly && !row.isDelegatedOp)
        return false;
    if (!m_block.isEmpty() && toQString(model->profile()->table.blocks[row.block].name) != m_block)
        return false;
    const QString& text = model->searchText(sourceRow);
    for (const auto& w : m_words)
        if (!text.contains(w))
            return false;
    return true;
}

} // namespace pte::ui
