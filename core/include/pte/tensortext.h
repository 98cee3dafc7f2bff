// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include "pte/program.h"

#include <cstdint>
#include <span>
#include <string>

/**
 * @file
 * The one text of a tensor's sizes and type, used by every view, report and CLI output: sizes as "[2, 3]" (a comma
 * and a space between sizes, "[]" for a scalar), a type as the dtype's short name followed by its sizes, "f32[2, 3]".
 * Symbolic sizes (graph dumps) use the same separators through pte::shapeText (graphtext.h).
 */

namespace pte {

/** "[2, 3]"; "[]" for no sizes. */
[[nodiscard]] std::string sizesText(std::span<const std::int32_t> sizes);
[[nodiscard]] std::string sizesText(std::span<const std::int64_t> sizes);

/** "f32[2, 3]": scalarTypeShortName then sizesText. */
[[nodiscard]] std::string tensorTypeText(ScalarType dtype, std::span<const std::int32_t> sizes);
[[nodiscard]] std::string tensorTypeText(ScalarType dtype, std::span<const std::int64_t> sizes);

} // namespace pte
