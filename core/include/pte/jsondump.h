// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include "pte/program.h"

#include <functional>
#include <string>
#include <string_view>

namespace pte {

/** Formatting of programToJson. */
struct JsonDumpOptions
{
    int indent = 2;
};

/**
 * The program as JSON in the shape `flatc --json --strict-json --defaults-json` prints with ExecuTorch's
 * schema (schema/program.fbs): schema field names in schema order, unions as `X_type` + `X`, enums by
 * name (values the schema does not name, e.g. ScalarType 8, as numbers, like flatc), default scalars
 * written, absent optional tables/vectors omitted. Deliberate differences from flatc:
 *  - byte payloads `Buffer.storage` and `BackendDelegateInlineData.data` are summarized as
 *    {"size": n, "sha256": "<hex>"} instead of byte arrays; `DataSegment` stays {offset, size} (no hash);
 *    `CompileSpec.value` is printed as a byte array, as flatc does;
 *  - doubles that are not finite are the strings "inf", "-inf", "nan" (flatc prints them bare, which is
 *    not JSON); finite doubles are printed with full round-trip precision (flatc rounds to 12 decimals);
 *  - vectors the model always holds (e.g. Chain.inputs, ExecutionPlan.delegates) are written even when
 *    the file omitted them (the reader reports such omissions as diagnostics).
 * Strings that are not valid UTF-8 have the bad bytes replaced by U+FFFD. Ends with a newline.
 */
[[nodiscard]] std::string programToJson(const Program& program, const JsonDumpOptions& options = {});

/**
 * The same text, handed to `sink` in chunks of about 64 KiB as it is written: no JSON tree and no copy of the
 * whole text are built, so memory stays that of the Program (what `ptelens-cli dump --json` streams to stdout).
 */
void writeProgramJson(
    const Program& program, const std::function<void(std::string_view)>& sink, const JsonDumpOptions& options = {});

} // namespace pte
