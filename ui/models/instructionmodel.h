// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include "document/snapshot.h"
#include "models/handlenodes.h"
#include "models/tablemodelbase.h"
#include "pte/kernelarguments.h"

#include <QStringList>

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

namespace pte::ui {

/**
 * The instructions of one method (all chains, in order), joined with the debug maps: id, kind,
 * operator, arguments (schema names, value ids, dtypes, shapes), debug handles, delegate backend and delegate
 * debug identifiers. Per-row facts used by the filter are precomputed in one pass (RowInfo); display text
 * is built per visible cell only.
 */
class InstructionModel : public TableModelBase
{
    Q_OBJECT
public:
    enum Column
    {
        IdColumn,
        KindColumn,
        OperatorColumn,
        ArgumentsColumn,
        DebugHandlesColumn,
        BackendColumn,
        DelegateIdsColumn,
        NodesColumn,
        ColumnCount
    };

    /** What the filter looks at, per row. */
    struct RowInfo
    {
        std::uint32_t chain = 0;
        std::uint32_t index = 0; ///< instruction id within its chain
        pte::InstructionKind kind = pte::InstructionKind::None;
        std::int32_t op = -1; ///< operator index (KernelCall)
        std::int32_t delegate = -1; ///< delegate index (DelegateCall)
        const std::vector<std::int64_t>* handles = nullptr; ///< debug handles, or nullptr
        const pte::DelegateMapEntry* delegateEntry = nullptr;
    };

    using TableModelBase::TableModelBase;

    void setMethod(std::shared_ptr<const Snapshot> snapshot, const QString& method);
    [[nodiscard]] const RowInfo& rowInfo(int row) const { return m_rows[std::size_t(row)]; }
    [[nodiscard]] const pte::ExecutionPlan* plan() const { return m_plan; }
    [[nodiscard]] const MethodEntry* methodEntry() const { return m_entry; }
    [[nodiscard]] const pte::Instruction& instruction(int row) const;
    /** Value ids an instruction references (arguments; move/free/jump operands). */
    [[nodiscard]] std::vector<std::int32_t> valueIds(int row) const;
    /** Graph node names an instruction came from (EmitterOutput.instructionNodes), possibly empty. */
    [[nodiscard]] QStringList nodeNames(int row) const;
    /** Rows whose node names or debug handles match (for node -> instruction selection). */
    [[nodiscard]] std::vector<int> rowsFor(const QStringList& nodeNames, std::span<const std::int64_t> handles) const;
    /** Row of instruction `id` of chain 0, or -1. */
    [[nodiscard]] int rowOfInstruction(int id) const;
    /** Row of instruction `index` of chain `chain`, or -1. */
    [[nodiscard]] int rowOf(int chain, int index) const;
    /** Per delegate debug identifier of a delegate call: "id → handles [..] → nodes ..." lines (empty otherwise). */
    [[nodiscard]] QStringList delegateIdDetails(int row) const;
    /** Graph nodes (edge program, then lowered modules) carrying the handles. */
    [[nodiscard]] const HandleNodeIndex& handleNodes() const { return m_handleNodes; }

    /** Distinct backend ids of the method's delegates. */
    [[nodiscard]] QStringList backends() const;
    /** Operator names (qualified) by operator index. */
    [[nodiscard]] const QStringList& operatorNames() const { return m_operatorNames; }

protected:
    int rows() const override { return int(m_rows.size()); }
    int columns() const override { return ColumnCount; }
    QVariant cell(int row, int column, int role) const override;
    QVariant headerCell(int column, int role) const override;

private:
    /** One line per argument ("name: value"), or the arguments on one line; names from the operator's schema. */
    QString argumentsText(const pte::Instruction& ins, bool multiline = false) const;
    QString valueText(std::int32_t id) const;

    std::shared_ptr<const Snapshot> m_snapshot;
    const MethodEntry* m_entry = nullptr;
    const pte::ExecutionPlan* m_plan = nullptr;
    std::vector<RowInfo> m_rows;
    QStringList m_operatorNames;
    std::vector<std::vector<pte::KernelArgumentInfo>> m_operatorArgs; ///< by operator index; empty when unknown
    HandleNodeIndex m_handleNodes;
};

} // namespace pte::ui
