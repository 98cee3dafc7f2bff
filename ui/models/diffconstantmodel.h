// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include "models/diffresultmodel.h"

namespace pte::ui {

/** Every constant (and initial state of a planned tensor) both programs hold, and how it compares by content. */
class DiffConstantModel : public DiffResultModel<pte::ConstantRow, &pte::ProgramDiff::constants>
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
    using DiffResultModel::DiffResultModel;

    [[nodiscard]] const pte::ConstantRow* constant(int row) const { return element(row); }

protected:
    int columns() const override { return ColumnCount; }
    using DiffResultModel::cell;
    QVariant cell(const pte::ConstantRow& c, int column, int role) const override;
    QVariant headerCell(int column, int role) const override;
};

} // namespace pte::ui
