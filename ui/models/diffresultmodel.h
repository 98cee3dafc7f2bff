// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include "document/comparison.h"
#include "models/tablemodelbase.h"

#include <memory>
#include <vector>

namespace pte::ui {

/**
 * Base of the Diff window's program-wide tables: one row per element of a list of the comparison (differences,
 * constants, delegates), chosen by `list`. Cells come from cell(const Row&, column, role).
 */
template <typename Row, std::vector<Row> pte::ProgramDiff::*list> class DiffResultModel : public TableModelBase
{
public:
    using TableModelBase::TableModelBase;

    void setResult(std::shared_ptr<const ComparisonResult> result)
    {
        beginResetModel();
        m_result = std::move(result);
        endResetModel();
    }
    /** The element behind a row, or nullptr. */
    [[nodiscard]] const Row* element(int row) const
    {
        return row >= 0 && row < rows() ? &((*m_result->diff).*list)[std::size_t(row)] : nullptr;
    }

protected:
    int rows() const override { return m_result && m_result->diff ? int(((*m_result->diff).*list).size()) : 0; }
    QVariant cell(int row, int column, int role) const override { return cell(*element(row), column, role); }
    virtual QVariant cell(const Row& element, int column, int role) const = 0;

private:
    std::shared_ptr<const ComparisonResult> m_result;
};

} // namespace pte::ui
