// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include "document/snapshot.h"
#include "models/tablemodelbase.h"

#include <QStringList>

#include <memory>
#include <vector>

namespace pte::ui {

struct DelegateInspection;

/**
 * The inner nodes of one delegate's payload (document/delegateinspection.h): kind, debug handles, whether the
 * backend inserted the node (handle 65535) or folded other nodes into it (absorbed handles), operands, parameters,
 * and the source-graph nodes its handles resolve to. DebugHandlesRole gives the node's handles (plus its absorbed
 * ones), NodeNamesRole the source node names, ValueIdsRole its operand value ids.
 */
class InnerNodeModel : public TableModelBase
{
    Q_OBJECT
public:
    enum Column
    {
        IndexColumn,
        KindColumn,
        HandlesColumn,
        MarkColumn,
        InputsColumn,
        OutputsColumn,
        ParamsColumn,
        SourcesColumn,
        ColumnCount
    };
    using TableModelBase::TableModelBase;

    /** Shows delegate `delegate` (an index into snapshot->delegates->delegates), or nothing for -1. */
    void setDelegate(std::shared_ptr<const Snapshot> snapshot, int delegate);
    /** The row of the inner node with this index, or -1. */
    [[nodiscard]] int rowOfNode(std::uint32_t node) const;

protected:
    int rows() const override;
    int columns() const override { return ColumnCount; }
    QVariant cell(int row, int column, int role) const override;
    QVariant headerCell(int column, int role) const override;

private:
    std::shared_ptr<const Snapshot> m_snapshot;
    const DelegateInspection* m_inspection = nullptr;
    int m_delegate = -1;
    /** Per node: the absorbed handles folded into it, as indices into links.absorbed. */
    std::vector<std::vector<std::size_t>> m_absorbed;
};

} // namespace pte::ui
