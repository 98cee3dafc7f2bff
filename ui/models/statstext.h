// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include "pte/numericgap.h"

#include <QString>

namespace pte::ui {

/** "min … max, mean m" of a tensor's statistics, 5 significant digits: the Run statistics columns. */
[[nodiscard]] QString statsRangeText(const TensorStats& s);
/** "[a, b, c, …]": the first elements kept by the statistics, with an ellipsis when there are more. */
[[nodiscard]] QString firstElementsText(const TensorStats& s);

} // namespace pte::ui
