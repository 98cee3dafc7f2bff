// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// libFuzzer target: one serialized ExportedProgram JSON document (parseExportedProgramJson).

#include "pte/dumpreader.h"

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string_view json(reinterpret_cast<const char*>(data), size);
    const auto program = pte::parseExportedProgramJson(json, "fuzz.json");
    (void)program;
    return 0;
}
