// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include "document/snapshot.h"
#include "models/tablemodelbase.h"

#include <memory>

namespace pte::ui {

/** Methods of the document: name, input/output counts, instructions, kind (training metadata, constant). */
class MethodModel : public TableModelBase
{
    Q_OBJECT
public:
    enum Column
    {
        NameColumn,
        InputsColumn,
        OutputsColumn,
        InstructionsColumn,
        ValuesColumn,
        KindColumn,
        SourceColumn,
        ColumnCount
    };
    using TableModelBase::TableModelBase;

    void setSnapshot(std::shared_ptr<const Snapshot> snapshot);
    [[nodiscard]] QString methodName(int row) const;
    [[nodiscard]] int rowOf(const QString& name) const;

protected:
    int rows() const override;
    int columns() const override { return ColumnCount; }
    QVariant cell(int row, int column, int role) const override;
    QVariant headerCell(int column, int role) const override;

private:
    std::shared_ptr<const Snapshot> m_snapshot;
};

/**
 * The values a caller passes to the method: the program's inputs, or a dump's user inputs (parameters, buffers
 * and constants are stored in the program). -1 when unknown.
 */
[[nodiscard]] int callerInputCount(const MethodEntry& entry);
/**
 * The values the method returns: the program's outputs, or the dump's outputs that emission keeps (buffer and
 * parameter mutations are written back, not returned; see pte::emissionDropReason). -1 when unknown.
 */
[[nodiscard]] int returnedOutputCount(const MethodEntry& entry);

/** "training metadata" / "constant" / "" for a method. */
[[nodiscard]] QString methodKindText(const MethodEntry& entry);

} // namespace pte::ui
