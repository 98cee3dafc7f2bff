// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <Qt>

namespace pte::ui {

/** Custom item roles shared by every ptelens model. */
enum Role
{
    SortRole = Qt::UserRole + 1, ///< a number (or lower-case text) to sort on
    RawValueRole, ///< the typed value behind a cell (index, size, ...)
    SeverityRole, ///< pte::Severity as int (diagnostics)
    OffsetRole, ///< byte offset (qulonglong) or invalid
    FieldPathRole, ///< field path / JSON path
    DebugHandlesRole, ///< QList<qlonglong> of debug handles
    ValueIdsRole, ///< QList<int> of value indices a row references
    NodeNamesRole, ///< QStringList of graph node names a row maps to
    DroppedRole, ///< bool: an output that emission drops
    JsonRole, ///< QString: the row as a JSON object (for Copy as JSON)
};

} // namespace pte::ui
