// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include "document/snapshot.h"
#include "models/tablemodelbase.h"

#include <QColor>

#include <memory>
#include <vector>

namespace pte::ui {

/**
 * What makes the file big: the flatbuffer, each constant, delegate blobs, mutable data, named data,
 * external (.ptd) tensors, padding; plus one summary row per method (constants and delegate blobs it
 * uses; these overlap the other rows and are not counted in the total).
 */
class SizeModel : public TableModelBase
{
    Q_OBJECT
public:
    enum class Category
    {
        Program,
        Constant,
        DelegateBlob,
        MutableData,
        NamedData,
        External,
        Padding,
        Method,
    };
    struct Entry
    {
        Category category = Category::Program;
        QString name;
        std::uint64_t size = 0;
        QString details;
    };
    enum Column
    {
        CategoryColumn,
        NameColumn,
        SizeColumn,
        ShareColumn,
        DetailsColumn,
        ColumnCount
    };
    using TableModelBase::TableModelBase;

    void setSnapshot(std::shared_ptr<const Snapshot> snapshot);
    [[nodiscard]] const std::vector<Entry>& entries() const { return m_entries; }
    /** File size (or the sum of the parts for an unsaved emission). */
    [[nodiscard]] std::uint64_t total() const { return m_total; }

    [[nodiscard]] static QString categoryName(Category c);
    [[nodiscard]] static QColor categoryColor(Category c);

protected:
    int rows() const override { return int(m_entries.size()); }
    int columns() const override { return ColumnCount; }
    QVariant cell(int row, int column, int role) const override;
    QVariant headerCell(int column, int role) const override;

private:
    std::shared_ptr<const Snapshot> m_snapshot;
    std::vector<Entry> m_entries;
    std::uint64_t m_total = 0;
};

} // namespace pte::ui
