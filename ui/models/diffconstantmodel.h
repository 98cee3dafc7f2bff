// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include "document/comparison.h"
#include "models/tablemodelbase.h"

#include <memory>

namespace pte::ui {

/** Every constant (and initial state of a planned tensor) both programs hold, and how it compares by content. */
class DiffConstantModel : public TableModelBase
{
    Q_OBJECT
public:
    enum Column
    {
        StatusColumn,
        MethodColumn,
        ValueColumn,
        NameColumn,
        TypeAColumn,
        TypeBColumn,
        BytesAColumn,
        BytesBColumn,
        MaxAbsColumn,
        MeanAbsColumn,
        DifferingColumn,
        FirstIndicesColumn,
        ColumnCount
    };
    using TableModelBase::TableModelBase;

    void setResult(std::shared_ptr<const ComparisonResult> result);
    [[nodiscard]] const pte::ConstantRow* constant(int row) const;

protected:
    int rows() const override;
    int columns() const override { return ColumnCount; }
    QVariant cell(int row, int column, int role) const override;
    QVariant headerCell(int column, int role) const override;

private:
    std::shared_ptr<const ComparisonResult> m_result;
};

} // namespace pte::ui
