// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include "document/snapshot.h"
#include "models/handlenodes.h"
#include "models/tablemodelbase.h"

#include <QStringList>

#include <map>
#include <memory>
#include <vector>

namespace pte::ui {

/**
 * The delegates of a method: backend id, where the blob lives (and which other methods share it), its size,
 * compile specs (decoded where the backend fixes their encoding).
 */
class DelegateModel : public TableModelBase
{
    Q_OBJECT
public:
    enum Column
    {
        IndexColumn,
        BackendColumn,
        LocationColumn,
        SizeColumn,
        CallsColumn,
        CompileSpecsColumn,
        ColumnCount
    };
    using TableModelBase::TableModelBase;

    void setMethod(std::shared_ptr<const Snapshot> snapshot, const QString& method);

protected:
    int rows() const override;
    int columns() const override { return ColumnCount; }
    QVariant cell(int row, int column, int role) const override;
    QVariant headerCell(int column, int role) const override;

private:
    std::shared_ptr<const Snapshot> m_snapshot;
    const pte::ExecutionPlan* m_plan = nullptr;
    std::vector<int> m_calls; ///< delegate index -> number of DelegateCall instructions
    std::vector<QStringList> m_users; ///< delegate index -> methods whose delegates use the same blob
};

/**
 * The delegate debug-identifier map of a method (from the emitter or the ETRecord): instruction,
 * backend, identifier, debug handles, and the graph nodes carrying those handles: nodes of the edge
 * program, then nodes of the lowered modules' original programs ("lowered_module_0/aten_mul_tensor").
 * NodeNamesRole gives those names as a QStringList, DebugHandlesRole the handles.
 */
class DelegateDebugIdModel : public TableModelBase
{
    Q_OBJECT
public:
    enum Column
    {
        InstructionColumn,
        BackendColumn,
        IdentifierColumn,
        HandlesColumn,
        NodesColumn,
        ColumnCount
    };
    using TableModelBase::TableModelBase;

    void setMethod(std::shared_ptr<const Snapshot> snapshot, const QString& method);
    /** Instruction id of a row. */
    [[nodiscard]] std::int64_t instructionOf(int row) const { return m_rows[std::size_t(row)].instruction; }
    /** Debug handles of a row. */
    [[nodiscard]] std::vector<std::int64_t> handlesOf(int row) const;
    /** Edge-program nodes of a row (those the Graph view draws). */
    [[nodiscard]] QStringList edgeNodesOf(int row) const;
    /** Every node of a row: edge program, then lowered modules' original programs. */
    [[nodiscard]] QStringList nodesOf(int row) const;

protected:
    int rows() const override { return int(m_rows.size()); }
    int columns() const override { return ColumnCount; }
    QVariant cell(int row, int column, int role) const override;
    QVariant headerCell(int column, int role) const override;

private:
    struct Row
    {
        std::int64_t instruction = 0;
        const pte::DelegateMapEntry* entry = nullptr;
        const std::string* identifier = nullptr;
        const std::vector<std::int64_t>* handles = nullptr;
    };
    std::shared_ptr<const Snapshot> m_snapshot;
    std::vector<Row> m_rows;
    HandleNodeIndex m_nodes;
};

} // namespace pte::ui
