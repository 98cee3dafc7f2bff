// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include "models/innertablemodel.h"

namespace pte::ui {

/**
 * The values of one delegate's payload: id, kind, dtype, shape, quantization, where a constant's bytes live (the
 * payload's own section, named data, a .ptd, or missing), the external id binding it to the DelegateCall's
 * arguments, and backend-specific attributes (Vulkan storage and layout, dq_datatype).
 */
class InnerValueModel : public InnerTableModel
{
    Q_OBJECT
public:
    enum Column
    {
        IdColumn,
        KindColumn,
        DTypeColumn,
        ShapeColumn,
        RoleColumn,
        QuantColumn,
        ConstantColumn,
        AttributesColumn,
        ColumnCount
    };
    using InnerTableModel::InnerTableModel;

    /** The row of the value with this id, or -1. */
    [[nodiscard]] int rowOfValue(std::uint32_t id) const;

protected:
    int rows() const override;
    int columns() const override { return ColumnCount; }
    QVariant cell(int row, int column, int role) const override;
    QVariant headerCell(int column, int role) const override;
};

/** Text of a value's quantization parameters ("per tensor: scale 0.5, zero point 3"); empty when none. */
[[nodiscard]] QString quantText(const pte::InnerValue& value);
/** "[1, 16, 1, 1]". */
[[nodiscard]] QString dimsText(const std::vector<std::uint32_t>& dims);

} // namespace pte::ui
