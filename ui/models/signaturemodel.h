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
 * the program's inputs/outputs. Outputs that emission drops are marked (DroppedRole, colour, tooltip,
 * Reason column).
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
};

/** emissionDropReason(kind) from the core, or our own text while the core has none. Empty when kept. */
[[nodiscard]] QString dropReasonText(pte::OutputKind kind);

} // namespace pte::ui
