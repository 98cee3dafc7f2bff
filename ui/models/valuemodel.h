// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include "document/snapshot.h"
#include "models/tablemodelbase.h"

#include <memory>

namespace pte::ui {

/**
 * Every EValue of a method: index, name, type, dtype, shape, dim order, memory id/offset, constant index; with an
 * ETDump open, what the run logged for it (intermediate or output: dtype and shape, statistics, first elements)
 * and the numeric gap against the expected value when one is known (ProfileData::loggedValues); after Program > Run…,
 * what the run left in each value (RunSummary: shape, statistics, first elements, gap to a bundled case's output).
 */
class ValueModel : public TableModelBase
{
    Q_OBJECT
public:
    enum Column
    {
        IndexColumn,
        NameColumn,
        TypeColumn,
        DTypeColumn,
        ShapeColumn,
        DimOrderColumn,
        MemoryIdColumn,
        OffsetColumn,
        ConstantColumn,
        SizeColumn,
        DetailsColumn,
        LoggedColumn, ///< dtype[shape] the runtime logged (ETDump), "(output)" for program outputs
        StatsColumn, ///< min, max, mean of the logged tensor
        FirstColumn, ///< its first elements
        GapColumn, ///< MSE / L1 / SNR against the expected value
        ExpectedColumn, ///< where the expected value comes from, or why there is none
        RunShapeColumn, ///< Program > Run…: dtype[shape] the run left, and which instruction wrote it
        RunStatsColumn, ///< min, max, mean of the run's value
        RunFirstColumn, ///< its first elements
        RunGapColumn, ///< a bundled case's output: gap to the expected output and the verdict
        ColumnCount
    };
    using TableModelBase::TableModelBase;

    void setMethod(std::shared_ptr<const Snapshot> snapshot, const QString& method);
    [[nodiscard]] const pte::ExecutionPlan* plan() const { return m_plan; }
    /** Whether an ETDump logged values of this method (the logged columns are filled). */
    [[nodiscard]] bool hasLoggedValues() const { return m_logged != nullptr; }
    /** Whether a current run of this method fills the run columns. */
    [[nodiscard]] bool hasRun() const { return m_run != nullptr; }
    /** What the run left in value `row`, or nullptr. */
    [[nodiscard]] const pte::RunValueFacts* runValue(int row) const;
    /** What was logged for value `row`, or nullptr. */
    [[nodiscard]] const LoggedValue* logged(int row) const;

protected:
    int rows() const override;
    int columns() const override { return ColumnCount; }
    QVariant cell(int row, int column, int role) const override;
    QVariant headerCell(int column, int role) const override;

private:
    QVariant loggedCell(int row, int column, int role) const;
    QVariant runCell(int row, int column, int role) const;

    std::shared_ptr<const Snapshot> m_snapshot;
    const MethodEntry* m_entry = nullptr;
    const pte::ExecutionPlan* m_plan = nullptr;
    const std::map<std::int32_t, LoggedValue>* m_logged = nullptr;
    const pte::RunSummary* m_run = nullptr;
};

} // namespace pte::ui
