// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// The JSON side of the commands' output: how a document is printed and how a diagnostic reads in it, in one place
// so every `--json` looks the same.

#include "pte/diagnostic.h"

#include <nlohmann/json.hpp>

namespace pte::cli {

/** {"severity", "code", "message", "offset" (null when unknown), "field_path"}, in that order. */
nlohmann::ordered_json diagnosticJson(const pte::Diagnostic& d);

/** Prints `j` to stdout (printOut) indented by 2, invalid UTF-8 in strings replaced by U+FFFD, and a newline. */
void printJson(const nlohmann::ordered_json& j);

/**
 * `j` as ExecuTorch's etrt_runner writes its `--json` result, so that one script reads both (`ptelens-cli run
 * --json`): compact, with ", " and ": " separators, the top-level "methods" object one method per line; integers
 * exact; floating numbers with %.9g (which round-trips a float), or %.17g inside an object whose "dtype" or "tag" is
 * "Double". NaN and infinities must already be the strings "nan", "inf", "-inf". Invalid UTF-8 in strings becomes
 * U+FFFD. Ends with a newline.
 */
std::string runnerJsonText(const nlohmann::ordered_json& j);

} // namespace pte::cli
