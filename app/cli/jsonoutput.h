// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// The JSON side of the commands' output: how a document is printed and how a diagnostic reads in it, in one place
// so every `--json` looks the same.

#include "pte/diagnostic.h"

#include <nlohmann/json.hpp>

namespace ptelens::cli {

/** {"severity", "code", "message", "offset" (null when unknown), "field_path"}, in that order. */
nlohmann::ordered_json diagnosticJson(const pte::Diagnostic& d);

/** Prints `j` to stdout (printOut) indented by 2, invalid UTF-8 in strings replaced by U+FFFD, and a newline. */
void printJson(const nlohmann::ordered_json& j);

} // namespace ptelens::cli
