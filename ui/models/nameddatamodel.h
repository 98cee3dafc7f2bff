// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include "document/snapshot.h"
#include "models/tablemodelbase.h"

#include <memory>
#include <vector>

namespace pte::ui {

/**
 * The named data of a method's lowered delegate modules (from its graph dump): per module, the entries
 * stored in the .pte (`pte_data`), then those of each external .ptd file (`external_data`), with key,
 * size, buffer index and alignment. Without a dump, the program's own named data (Program.named_data: the
 * backends' constants, program-wide, one segment per key) and the tensors of a loaded .ptd.
 */
class NamedDataModel : public TableModelBase
{
    Q_OBJECT
public:
    enum Column
    {
        ModuleColumn,
        BackendColumn,
        StoreColumn,
        KeyColumn,
        SizeColumn,
        BufferColumn,
        AlignmentColumn,
        ColumnCount
    };
    using TableModelBase::TableModelBase;

    void setMethod(std::shared_ptr<const Snapshot> snapshot, const QString& method);

protected:
    int rows() const override { return int(m_rows.size()); }
    int columns() const override { return ColumnCount; }
    QVariant cell(int row, int column, int role) const override;
    QVariant headerCell(int column, int role) const override;

private:
    struct Row
    {
        const pte::LoweredModule* module = nullptr; ///< nullptr for the program's named data and .ptd tensors
        const std::string* file = nullptr; ///< nullptr for pte_data
        const std::string* key = nullptr;
        std::uint64_t size = 0;
        std::optional<std::int64_t> bufferIndex; ///< unknown for entries only given as bytes
        std::uint32_t alignment = 0;
        bool segment = false; ///< bufferIndex is a segment index of the program
    };
    std::shared_ptr<const Snapshot> m_snapshot;
    std::vector<Row> m_rows;
};

} // namespace pte::ui
