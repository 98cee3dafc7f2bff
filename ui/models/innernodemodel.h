// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include "models/innertablemodel.h"
#include "pte/runvalues.h"

#include <map>
#include <vector>

namespace pte::ui {

struct DelegateTiming;

/**
 * The inner nodes of one delegate's payload (document/delegateinspection.h): kind, debug handles, whether the
 * backend inserted the node (handle 65535) or folded other nodes into it (absorbed handles), operands, parameters,
 * and the source-graph nodes its handles resolve to. With a profile whose delegate events were aligned to the nodes
 * (document/delegatetimes.h): the median, p10 and p90 of its events over the runs, the event's name and the
 * alignment's quality, its tooltip saying why. After a Run that went through the delegate (document/runresult.h): each
 * node's output as the reference interpreter computed it, shape and statistics. DebugHandlesRole gives the node's
 * handles (plus its absorbed ones), NodeNamesRole the source node names, ValueIdsRole its operand value ids.
 */
class InnerNodeModel : public InnerTableModel
{
    Q_OBJECT
public:
    enum Column
    {
        IndexColumn,
        KindColumn,
        TimeColumn, ///< median of the node's events (the Profile table's unit); empty without a profile
        P10Column,
        P90Column,
        EventColumn, ///< the aligned event's name
        AlignmentColumn, ///< exact, approximate or failed (tooltip: why)
        RunValueColumn, ///< after a Run: the node's output as the reference interpreter computed it (its statistics)
        HandlesColumn,
        MarkColumn,
        InputsColumn,
        OutputsColumn,
        ParamsColumn,
        SourcesColumn,
        ColumnCount
    };
    using InnerTableModel::InnerTableModel;

    /** The row of the inner node with this index, or -1. */
    [[nodiscard]] int rowOfNode(std::uint32_t node) const;
    /** The profile of the shown delegate's inner nodes, or null (no profile, or no event of this delegate). */
    [[nodiscard]] const DelegateTiming* timing() const { return m_timing; }
    /** The current run's values of the shown delegate's inner nodes (by node index), or null (no run reached it). */
    [[nodiscard]] const std::map<std::uint32_t, pte::RunInnerNodeFacts>* runValues() const { return m_runValues; }

protected:
    int rows() const override;
    int columns() const override { return ColumnCount; }
    QVariant cell(int row, int column, int role) const override;
    QVariant headerCell(int column, int role) const override;
    void delegateChanged() override;

private:
    QVariant timeCell(int row, int column, int role) const;
    /** Why no node of the delegate can name its source nodes (no source graph, no debug map), else empty. */
    [[nodiscard]] QString missingSources() const;

    QVariant runValueCell(int row, int role) const;

    const DelegateTiming* m_timing = nullptr;
    const std::map<std::uint32_t, pte::RunInnerNodeFacts>* m_runValues = nullptr;
    /** Per node: the absorbed handles folded into it, as indices into links.absorbed. */
    std::vector<std::vector<std::size_t>> m_absorbed;
};

} // namespace pte::ui
