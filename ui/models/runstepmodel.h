// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include "document/snapshot.h"
#include "models/tablemodelbase.h"

#include <memory>
#include <optional>

namespace pte::ui {

/**
 * The values one instruction read and wrote in the snapshot's current run (pte::stepValues): one row per argument
 * read, as the instructions before it left it, then one per value it wrote, right after it ran. Empty without a
 * current run of the method, or for an instruction the run did not reach. note() says which.
 */
class RunStepModel : public TableModelBase
{
    Q_OBJECT
public:
    enum Column
    {
        AccessColumn, ///< "read" / "wrote"
        ValueColumn, ///< %id
        ShapeColumn, ///< dtype[shape]
        StatsColumn, ///< min … max, mean
        FirstColumn, ///< the first elements
        FromColumn, ///< where its contents came from: "input 0", "instruction 3", or why there are none
        ColumnCount
    };
    using TableModelBase::TableModelBase;

    /** Shows `instruction` of `method` (chain 0; -1: none). */
    void setStep(std::shared_ptr<const Snapshot> snapshot, const QString& method, int instruction);
    [[nodiscard]] QString note() const { return m_note; }
    [[nodiscard]] bool hasRun() const { return m_hasRun; }
    /** The facts shown in `row`. */
    [[nodiscard]] const pte::RunValueFacts* facts(int row) const;

protected:
    int rows() const override;
    int columns() const override { return ColumnCount; }
    QVariant cell(int row, int column, int role) const override;
    QVariant headerCell(int column, int role) const override;

private:
    std::shared_ptr<const Snapshot> m_snapshot;
    std::optional<pte::StepValues> m_step;
    QString m_note;
    bool m_hasRun = false;
};

} // namespace pte::ui
