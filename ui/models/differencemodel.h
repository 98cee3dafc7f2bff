// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include "models/diffresultmodel.h"

namespace pte::ui {

/** Every difference of a comparison: category, status, method, subject, field, both sides, detail and uses. */
class DifferenceModel : public DiffResultModel<pte::Difference, &pte::ProgramDiff::differences>
{
    Q_OBJECT
public:
    enum Column
    {
        CategoryColumn,
        StatusColumn,
        MethodColumn,
        SubjectColumn,
        FieldColumn,
        AColumn,
        BColumn,
        DetailColumn,
        UsesColumn,
        ColumnCount
    };
    using DiffResultModel::DiffResultModel;

    [[nodiscard]] const pte::Difference* difference(int row) const { return element(row); }

protected:
    int columns() const override { return ColumnCount; }
    using DiffResultModel::cell;
    QVariant cell(const pte::Difference& d, int column, int role) const override;
    QVariant headerCell(int column, int role) const override;
};

} // namespace pte::ui
