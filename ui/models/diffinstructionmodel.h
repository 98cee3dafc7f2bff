// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include "document/comparison.h"
#include "models/tablemodelbase.h"

#include <QStringList>

#include <memory>
#include <unordered_map>
#include <vector>

namespace pte::ui {

/**
 * One side's column of the aligned instruction tables: a row per aligned row of a method comparison (the same row
 * count on both sides, so the two tables line up), showing that side's instruction, or an empty grey row where the
 * other side inserted or removed one. Rows are coloured by status; the cells of a changed row that differ are marked.
 * The tooltip lists the differences that name the row's instruction (its own, and those of the values it uses).
 */
class DiffInstructionModel : public TableModelBase
{
    Q_OBJECT
public:
    enum class Side
    {
        A,
        B
    };
    enum Column
    {
        IdColumn,
        KindColumn,
        OperatorColumn,
        ArgumentsColumn,
        DebugHandlesColumn,
        StatusColumn,
        ColumnCount
    };

    explicit DiffInstructionModel(Side side, QObject* parent = nullptr);

    /** Shows method comparison `method` (index into the result's ProgramDiff::methods); -1 or no result: empty. */
    void setMethod(std::shared_ptr<const ComparisonResult> result, int method);
    [[nodiscard]] const pte::MethodDiff* methodDiff() const { return m_method; }
    /** This side's instruction at a row, or -1 for a gap. */
    [[nodiscard]] int instructionAt(int row) const;
    /** The row showing this side's instruction, or -1. */
    [[nodiscard]] int rowOfInstruction(int instruction) const;
    /** The differences naming a row's instruction (one line each). */
    [[nodiscard]] QStringList rowDifferences(int row) const;

protected:
    int rows() const override { return m_method ? int(m_method->rows.size()) : 0; }
    int columns() const override { return ColumnCount; }
    QVariant cell(int row, int column, int role) const override;
    QVariant headerCell(int column, int role) const override;

private:
    QString text(int row, int column) const;
    bool cellChanged(int row, int column) const;

    Side m_side;
    std::shared_ptr<const ComparisonResult> m_result;
    const pte::MethodDiff* m_method = nullptr;
    const pte::ExecutionPlan* m_plan = nullptr;
    const std::map<std::int64_t, std::vector<std::int64_t>>* m_handles = nullptr;
    std::vector<const pte::Instruction*> m_instructions;
    std::vector<std::int32_t> m_rowOfInstruction;
    std::unordered_map<int, QStringList> m_rowDifferences;
};

} // namespace pte::ui
