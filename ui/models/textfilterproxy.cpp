// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "models/textfilterproxy.h"

#include "models/roles.h"

namespace pte::ui {

TextFilterProxy::TextFilterProxy(QObject* parent)
    : QSortFilterProxyModel(parent)
{
    setSortRole(SortRole);
}

void TextFilterProxy::setFilterText(const QString& text)
{
    // A reset instead of invalidateFilter(): see InstructionFilterProxy::refresh().
    beginResetModel();
    m_text = text.trimmed();
    endResetModel();
}

bool TextFilterProxy::filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const
{
    if (m_text.isEmpty())
        return true;
    const auto* model = sourceModel();
    for (int c = 0; c < model->columnCount(sourceParent); ++c)
        if (model->index(sourceRow, c, sourceParent).data().toString().contains(m_text, Qt::CaseInsensitive))
            return true;
    return false;
}

} // namespace pte::ui
