// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include "document/comparison.h"
#include "models/tablemodelbase.h"

#include <memory>

namespace pte::ui {

/** Every difference of a comparison: category, status, method, subject, field, both sides, detail and uses. */
class DifferenceModel : public TableModelBase
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
    using TableModelBase::TableModelBase;

    void setResult(std::shared_ptr<const ComparisonResult> result);
    [[nodiscard]] const pte::Difference* difference(int row) const;

protected:
    int rows() const override;
    int columns() const override { return ColumnCount; }
    QVariant cell(int row, int column, int role) const override;
    QVariant headerCell(int column, int role) const override;

private:
    std::shared_ptr<const ComparisonResult> m_result;
};

} // namespace pte::ui
