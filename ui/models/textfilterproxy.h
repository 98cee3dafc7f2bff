// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <QSortFilterProxyModel>

namespace pte::ui {

/** Sorts on SortRole and keeps rows whose display text in any column contains the filter text. */
class TextFilterProxy : public QSortFilterProxyModel
{
    Q_OBJECT
public:
    explicit TextFilterProxy(QObject* parent = nullptr);
    void setFilterText(const QString& text);

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const override;

private:
    QString m_text;
};

} // namespace pte::ui
