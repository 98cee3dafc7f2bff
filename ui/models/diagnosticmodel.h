// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include "document/snapshot.h"
#include "models/tablemodelbase.h"

#include <memory>

namespace pte::ui {

/** Diagnostics of the document (readers, emitter, load errors): severity, message, file, offset, path. */
class DiagnosticModel : public TableModelBase
{
    Q_OBJECT
public:
    enum Column
    {
        SeverityColumn,
        MessageColumn,
        FileColumn,
        OffsetColumn,
        FieldPathColumn,
        ColumnCount
    };
    using TableModelBase::TableModelBase;

    void setDiagnostics(pte::Diagnostics diagnostics);
    /** Adds one (e.g. a failed load or emission). */
    void append(pte::Diagnostic diagnostic);
    [[nodiscard]] const pte::Diagnostics& diagnostics() const { return m_diagnostics; }

protected:
    int rows() const override { return int(m_diagnostics.size()); }
    int columns() const override { return ColumnCount; }
    QVariant cell(int row, int column, int role) const override;
    QVariant headerCell(int column, int role) const override;

private:
    pte::Diagnostics m_diagnostics;
};

/** Each severity counted apart, most severe first: "1 error, 2 warnings, 10 info"; empty when there are none. */
[[nodiscard]] QString severityCounts(const pte::Diagnostics& diagnostics);

} // namespace pte::ui
