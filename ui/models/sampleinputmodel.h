// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include "document/snapshot.h"
#include "models/tablemodelbase.h"

#include <memory>
#include <vector>

namespace pte::ui {

/**
 * The sample inputs a method's graph dump kept (torch.export's example `(args, kwargs)`), one row per
 * user input: the i-th `args` leaf goes to the i-th user input, a `kwargs['name']` leaf to the user input
 * of that name. Leaves no user input takes are listed after them with an empty Input column. note()
 * says why the table is empty (no dump, or a dump without sample inputs) or where the values come from.
 */
class SampleInputModel : public TableModelBase
{
    Q_OBJECT
public:
    enum Column
    {
        InputColumn,
        PathColumn,
        KindColumn,
        DTypeColumn,
        ShapeColumn,
        ValuesColumn,
        ColumnCount
    };
    /** Values shown per tensor; longer tensors show the first ones and "…". */
    static constexpr std::size_t kMaxShownElements = 8;

    using TableModelBase::TableModelBase;

    void setMethod(std::shared_ptr<const Snapshot> snapshot, const QString& method);
    /** One line for above the table. */
    [[nodiscard]] QString note() const { return m_note; }

Q_SIGNALS:
    void noteChanged(const QString& note);

protected:
    int rows() const override { return int(m_rows.size()); }
    int columns() const override { return ColumnCount; }
    QVariant cell(int row, int column, int role) const override;
    QVariant headerCell(int column, int role) const override;

private:
    struct Row
    {
        QString input; ///< the user input's placeholder name; empty for an unmatched leaf
        QString path; ///< empty when no leaf matched the input
        QString kind;
        QString dtype;
        QString shape;
        QString values;
        QString tooltip;
    };
    std::shared_ptr<const Snapshot> m_snapshot;
    std::vector<Row> m_rows;
    QString m_note;
};

/** "0.23096681, 0.6930773, -0.26686057": the first `maxShown` elements of a tensor ("…" when there are more). */
[[nodiscard]] QString formatTensorValues(const pte::WeightTensor& tensor, std::size_t maxShown);

} // namespace pte::ui
