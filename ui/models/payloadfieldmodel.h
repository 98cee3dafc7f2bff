// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include "document/snapshot.h"
#include "models/tablemodelbase.h"

#include <memory>
#include <vector>

namespace pte::ui {

/**
 * What one delegate's payload is, as rows of (section, name, value): its format and summary fields (header,
 * sizes, readable metadata, compile specs), its byte regions, its file tree (Core ML), the partition's debug
 * handles and the findings of the decoder. SeverityRole is set on finding rows.
 */
class PayloadFieldModel : public TableModelBase
{
    Q_OBJECT
public:
    enum Column
    {
        SectionColumn,
        NameColumn,
        ValueColumn,
        ColumnCount
    };
    using TableModelBase::TableModelBase;

    /** Shows delegate `delegate` (index into snapshot->delegates->delegates), or nothing for -1. */
    void setDelegate(std::shared_ptr<const Snapshot> snapshot, int delegate);

protected:
    int rows() const override { return int(m_rows.size()); }
    int columns() const override { return ColumnCount; }
    QVariant cell(int row, int column, int role) const override;
    QVariant headerCell(int column, int role) const override;

private:
    struct Row
    {
        QString section;
        QString name;
        QString value;
        int severity = -1; ///< pte::Severity for findings
    };
    std::shared_ptr<const Snapshot> m_snapshot;
    std::vector<Row> m_rows;
};

} // namespace pte::ui
