// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include "document/snapshot.h"
#include "models/tablemodelbase.h"

#include <QStringList>

#include <memory>
#include <vector>

namespace pte::ui {

/** Every operator of the program: use count, methods using it, and portable-kernel coverage. */
class OperatorModel : public TableModelBase
{
    Q_OBJECT
public:
    enum Column
    {
        NameColumn,
        UsesColumn,
        MethodsColumn,
        PortableColumn,
        ColumnCount
    };
    using TableModelBase::TableModelBase;

    void setSnapshot(std::shared_ptr<const Snapshot> snapshot);

protected:
    int rows() const override { return int(m_rows.size()); }
    int columns() const override { return ColumnCount; }
    QVariant cell(int row, int column, int role) const override;
    QVariant headerCell(int column, int role) const override;

private:
    struct Row
    {
        QString name;
        std::uint64_t uses = 0;
        QStringList methods;
        bool portable = false;
    };
    std::vector<Row> m_rows;
};

} // namespace pte::ui
