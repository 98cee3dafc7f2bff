// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include "document/snapshot.h"
#include "models/tablemodelbase.h"

#include <memory>
#include <vector>

namespace pte::ui {

/**
 * The test cases a bundled program (.bpte) holds for a method: one row per input and expected output of each case,
 * with its type and first values.
 */
class BundledCaseModel : public TableModelBase
{
    Q_OBJECT
public:
    enum Column
    {
        CaseColumn,
        RoleColumn, ///< "input 0", "expected output 0"
        TypeColumn,
        ValuesColumn,
        ColumnCount
    };
    using TableModelBase::TableModelBase;

    void setMethod(std::shared_ptr<const Snapshot> snapshot, const QString& method);
    /** Test cases of the method (0 when the file is not a bundled program or has none for it). */
    [[nodiscard]] int caseCount() const;

protected:
    int rows() const override { return int(m_rows.size()); }
    int columns() const override { return ColumnCount; }
    QVariant cell(int row, int column, int role) const override;
    QVariant headerCell(int column, int role) const override;

private:
    struct Row
    {
        int testCase = 0;
        bool expected = false;
        int position = 0;
        const pte::BundledValue* value = nullptr;
        QString values; ///< first elements, formatted once
    };
    std::shared_ptr<const Snapshot> m_snapshot;
    const pte::BundledTestSuite* m_suite = nullptr;
    std::vector<Row> m_rows;
};

} // namespace pte::ui
