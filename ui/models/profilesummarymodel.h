// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include "document/snapshot.h"
#include "models/tablemodelbase.h"

#include <memory>

namespace pte::ui {

/** Where the time went (ProfileData::summary): by operator, by backend or by module, largest first. */
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

protected:
    int rows() const override;
    int columns() const override { return ColumnCount; }
    QVariant cell(int row, int column, int role) const override;
    QVariant headerCell(int column, int role) const override;

private:
    [[nodiscard]] const std::vector<pte::ProfileSummaryEntry>* entries() const;

    std::shared_ptr<const ProfileData> m_profile;
    Grouping m_grouping = Grouping::Operator;
};

} // namespace pte::ui
