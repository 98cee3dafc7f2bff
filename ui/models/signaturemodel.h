// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include "document/snapshot.h"
#include "models/tablemodelbase.h"

#include <memory>
#include <string>

namespace pte::ui {

/**
 * The input or output specs of one method: from the graph signature when a dump is known, else from
 * the program's inputs/outputs. Outputs that emission drops (pte::emissionDropReason) are marked (DroppedRole,
 * colour, tooltip, Reason column); the kept ones show the emitted plan's output values in order, followed by the
 * outputs emission adds (a joint graph's trained parameters, kind "trained_parameter").
 */
class SignatureModel : public TableModelBase
{
    Q_OBJECT
public:
    enum class Side
    {
        Inputs,
        Outputs
    };
    enum Column
    {
        IndexColumn,
        KindColumn,
        NameColumn,
        TargetColumn,
        DTypeColumn,
        ShapeColumn,
        ValueColumn,
        ReasonColumn,
        ColumnCount
    };
    explicit SignatureModel(Side side, QObject* parent = nullptr);

    void setMethod(std::shared_ptr<const Snapshot> snapshot, const QString& method);
    [[nodiscard]] Side side() const { return m_side; }
    /**
     * Another method's side shown beside this one ("Compare with"), or nullptr: the kind, dtype and shape cells that
     * differ from its row of the same index (or that it has no row for) are marked (Qt::BackgroundRole).
     */
    void setCounterpart(const SignatureModel* other);
    /** Whether this cell is marked as differing from the counterpart. */
    [[nodiscard]] bool differsFromCounterpart(int row, int column) const;

protected:
    int rows() const override;
    int columns() const override { return ColumnCount; }
    QVariant cell(int row, int column, int role) const override;
    QVariant headerCell(int column, int role) const override;

private:
    struct Row
    {
        QString kind;
        QString name;
        QString target;
        QString dtype;
        QString shape;
        int value = -1; ///< EValue index in the plan, -1 when unknown
        QString contents; ///< a non-tensor value's contents ("Int 1"), shown in the Value column
        QString dropReason; ///< non-empty when emission drops this output
    };
    Side m_side;
    std::shared_ptr<const Snapshot> m_snapshot;
    std::vector<Row> m_rows; ///< a handful per method (signature size), built when the method changes
    const SignatureModel* m_counterpart = nullptr;
    bool m_emitted = false; ///< the method has a program (emitted or loaded): drops happened, not only planned
};

/** pte::emissionDropReason(kind), the core's one decision of what emission drops; empty when the output is kept. */
[[nodiscard]] QString dropReasonText(pte::OutputKind kind);

} // namespace pte::ui
