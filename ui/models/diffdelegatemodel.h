// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include "models/diffresultmodel.h"

namespace pte::ui {

/** Every delegate of both programs: backend, payload size and SHA-256, compile specs, and how it compares. */
class DiffDelegateModel : public DiffResultModel<pte::DelegateRow, &pte::ProgramDiff::delegates>
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
    using DiffResultModel::DiffResultModel;

protected:
    int columns() const override { return ColumnCount; }
    using DiffResultModel::cell;
    QVariant cell(const pte::DelegateRow& d, int column, int role) const override;
    QVariant headerCell(int column, int role) const override;
};

} // namespace pte::ui
