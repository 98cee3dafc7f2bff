// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

// Comparing ptelens' program JSON (`dump --json`, pte/jsondump.h) with flatc's decode of the same file.

#include <nlohmann/json.hpp>
#include <string>

namespace pte::test {

/** flatc prints non-finite doubles bare (inf, -inf, nan); turn those tokens (outside strings) into strings. */
[[nodiscard]] std::string quoteBareNonFinite(const std::string& text);

/**
 * Compares flatc's JSON (`ref`) with ours, value for value: doubles to flatc's 12 decimals, our {size, sha256}
 * summaries against flatc's byte arrays. Returns the first difference ("$.execution_plan[0]...: a != b"), or "".
 */
[[nodiscard]] std::string compareWithFlatc(
    const nlohmann::json& ref, const nlohmann::json& ours, const std::string& path);

} // namespace pte::test
