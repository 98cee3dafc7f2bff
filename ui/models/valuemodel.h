// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include "document/snapshot.h"
#include "models/tablemodelbase.h"

#include <memory>

namespace pte::ui {

/** Every EValue of a method: index, name, type, dtype, shape, dim order, memory id/offset, constant index. */
class ValueModel : public TableModelBase
{
    Q_OBJECT
public:
    enum Column
    {
        IndexColumn,
        NameColumn,
        TypeColumn,
        DTypeColumn,
        ShapeColumn,
        DimOrderColumn,
        MemoryIdColumn,
        OffsetColumn,
        ConstantColumn,
        SizeColumn,
        DetailsColumn,
        ColumnCount
    };
    using TableModelBase::TableModelBase;

    void setMethod(std::shared_ptr<const Snapshot> snapshot, const QString& method);
    [[nodiscard]] const pte::ExecutionPlan* plan() const { return m_plan; }

protected:
    int rows() const override;
    int columns() const override { return ColumnCount; }
    QVariant cell(int row, int column, int role) const override;
    QVariant headerCell(int column, int role) const override;

private:
    std::shared_ptr<const Snapshot> m_snapshot;
    const MethodEntry* m_entry = nullptr;
    const pte::ExecutionPlan* m_plan = nullptr;
};

} // namespace pte::ui
