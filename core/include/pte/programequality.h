// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include "pte/program.h"

#include <optional>
#include <string>

/**
 * @file
 * Field-by-field equality of two programs: the writer's round-trip check (a written program must decode to what
 * was written) and the tests' comparison of programs. Not the semantic comparison of `ptelens-cli diff`
 * (programdiff.h), which matches values and instructions whatever their numbering and reports every difference.
 */

namespace pte {

/**
 * Compares two programs field by field (byte payloads by content). Returns the path and values of the
 * first difference ("execution_plan[0].values[3].val.sizes[1]: 4 != 5"), or nullopt when they are equal.
 * Segment offsets are compared only when `compareSegmentOffsets` (a re-layout may move them).
 * Never fails: a payload is compared through its Bytes, which are already in memory or mapped.
 */
[[nodiscard]] std::optional<std::string> programDifference(
    const Program& a, const Program& b, bool compareSegmentOffsets = true);

} // namespace pte
