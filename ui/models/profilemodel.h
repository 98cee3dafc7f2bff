// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include "document/snapshot.h"
#include "models/tablemodelbase.h"

#include <QString>

#include <memory>
#include <vector>

namespace pte::ui {

/**
 * The Inspector's table of the open ETDump (ProfileData::table): one row per event of each event block, with the
 * p10/p50/p90/avg/min/max of its durations over the merged runs, op types, delegate identifier, backend, stack trace
 * and module hierarchy, and where it ran (method, instruction, graph nodes). Each row's searchable text is built
 * once, lower-cased, so filtering a million rows touches no display text.
 */
class ProfileModel : public TableModelBase
{
    Q_OBJECT
public:
    enum Column
    {
        BlockColumn,
        EventColumn,
        RunsColumn,
        P50Column,
        P10Column,
        P90Column,
        AvgColumn,
        MinColumn,
        MaxColumn,
        OpTypesColumn,
        DelegateIdColumn,
        DelegatedColumn,
        BackendColumn,
        InstructionColumn,
        NodesColumn,
        StackTraceColumn,
        ModuleColumn,
        MethodColumn,
        ColumnCount
    };
    using TableModelBase::TableModelBase;

    void setSnapshot(std::shared_ptr<const Snapshot> snapshot);
    [[nodiscard]] const ProfileData* profile() const { return m_profile.get(); }
    [[nodiscard]] const pte::ProfileRow& row(int row) const { return m_profile->table.rows[std::size_t(row)]; }
    /** Lower-case text of the row's name, block, op types, identifier, backend, method and nodes. */
    [[nodiscard]] const QString& searchText(int row) const { return m_search[std::size_t(row)]; }
    /** Graph node names of a row. */
    [[nodiscard]] QStringList nodeNames(int row) const;
    /** Rows of these instructions of `method` (chain 0). */
    [[nodiscard]] std::vector<int> rowsFor(const QString& method, const std::vector<int>& instructions) const;
    /** Distinct block names, in order. */
    [[nodiscard]] QStringList blockNames() const;
    /** The unit of the time columns ("ms"). */
    [[nodiscard]] QString unit() const;

protected:
    int rows() const override;
    int columns() const override { return ColumnCount; }
    QVariant cell(int row, int column, int role) const override;
    QVariant headerCell(int column, int role) const override;

private:
    std::shared_ptr<const Snapshot> m_snapshot;
    std::shared_ptr<const ProfileData> m_profile;
    std::vector<QString> m_search;
};

} // namespace pte::ui
