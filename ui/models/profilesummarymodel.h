// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include "document/snapshot.h"
#include "models/tablemodelbase.h"

#include <memory>
#include <optional>

namespace pte::ui {

/**
 * Where the time went (ProfileData::summary): by operator, by backend or by module, largest first, then the rest of
 * the execution time no row accounts for (delegate-call overhead outside the backend's events, the framework between
 * instructions), so the shares add up to 100%.
 */
class ProfileSummaryModel : public TableModelBase
{
    Q_OBJECT
public:
    enum class Grouping
    {
        Operator,
        Backend,
        Module,
    };
    enum Column
    {
        KeyColumn,
        TotalColumn,
        ShareColumn,
        RowsColumn,
        ColumnCount
    };
    using TableModelBase::TableModelBase;

    void setSnapshot(std::shared_ptr<const Snapshot> snapshot);
    void setGrouping(Grouping grouping);
    [[nodiscard]] Grouping grouping() const { return m_grouping; }
    /** The row of the time no entry accounts for, or -1 when there is none. */
    [[nodiscard]] int restRow() const { return m_rest ? rows() - 1 : -1; }

protected:
    int rows() const override;
    int columns() const override { return ColumnCount; }
    QVariant cell(int row, int column, int role) const override;
    QVariant headerCell(int column, int role) const override;

private:
    [[nodiscard]] const std::vector<pte::ProfileSummaryEntry>* entries() const;
    void updateRest();

    std::shared_ptr<const ProfileData> m_profile;
    std::optional<pte::ProfileSummaryEntry> m_rest;
    Grouping m_grouping = Grouping::Operator;
};

} // namespace pte::ui
