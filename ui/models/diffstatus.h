// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

// How the Diff window marks what changed: one colour per status, in one place for tables and graphs.

#include "pte/programdiff.h"

#include <QColor>
#include <QString>

namespace pte::ui {

/** Background of a row (or graph node) with this status; invalid for Same (the default look). */
[[nodiscard]] QColor diffStatusColor(pte::DiffStatus status);
/** Background of the cells of a changed row that differ (stronger than the row's). */
[[nodiscard]] QColor diffChangedCellColor();
/** Background of a row that has no element on this side (the other side inserted or removed one). */
[[nodiscard]] QColor diffGapColor();
/** "same", "changed", "inserted", "removed" (instruction rows say inserted, not added). */
[[nodiscard]] QString diffStatusLabel(pte::DiffStatus status);

} // namespace pte::ui
