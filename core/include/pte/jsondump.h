// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include "pte/program.h"

#include <string>

namespace pte {

struct JsonDumpOptions
{
    int indent = 2;
};

/**
 * The program as JSON in the shape `flatc --json --strict-json --defaults-json` prints with ExecuTorch's
 * schema: schema field names, unions as `X_type` + `X`, enums by name, defaults written. Byte payloads
 * (segments, inline blobs, constant buffers) are summarized as {"offset", "size", "sha256"} instead of
 * printed (compile spec values are printed as flatc does, as byte arrays).
 */
[[nodiscard]] std::string programToJson(const Program& program, const JsonDumpOptions& options = {});

} // namespace pte
