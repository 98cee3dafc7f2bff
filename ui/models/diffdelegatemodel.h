// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include "document/comparison.h"
#include "models/tablemodelbase.h"

#include <memory>

namespace pte::ui {

/** Every delegate of both programs: backend, payload size and SHA-256, compile specs, and how it compares. */
class DiffDelegateModel : public TableModelBase
{
    Q_OBJECT
public:
    enum Column
    {
        StatusColumn,
        MethodColumn,
        IndexColumn,
        BackendColumn,
        PayloadAColumn,
        PayloadBColumn,
        HashAColumn,
        HashBColumn,
        CompileSpecsColumn,
        ColumnCount
    };
    using TableModelBase::TableModelBase;

    void setResult(std::shared_ptr<const ComparisonResult> result);

protected:
    int rows() const override;
    int columns() const override { return ColumnCount; }
    QVariant cell(int row, int column, int role) const override;
    QVariant headerCell(int column, int role) const override;

private:
    std::shared_ptr<const ComparisonResult> m_result;
};

} // namespace pte::ui
