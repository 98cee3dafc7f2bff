// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <QAbstractTableModel>

namespace pte::ui {

/**
 * Base of every ptelens table: flat, read-only, cells computed on demand. Subclasses implement
 * rows(), columns(), cell() and headerCell(); the Qt entry points are final.
 */
class TableModelBase : public QAbstractTableModel
{
    Q_OBJECT
public:
    using QAbstractTableModel::QAbstractTableModel;

    int rowCount(const QModelIndex& parent = {}) const final { return parent.isValid() ? 0 : rows(); }
    int columnCount(const QModelIndex& parent = {}) const final { return parent.isValid() ? 0 : columns(); }
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const final;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const final;

protected:
    virtual int rows() const = 0;
    virtual int columns() const = 0;
    virtual QVariant cell(int row, int column, int role) const = 0;
    virtual QVariant headerCell(int column, int role) const = 0;
};

} // namespace pte::ui
