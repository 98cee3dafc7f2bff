// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// STUB: replaced by the dump reader implementation.
#include "pte/dumpreader.h"

namespace pte {
Result<std::shared_ptr<const DumpSet>> readDump(const std::string& path, const DumpReadOptions&)
{
    return fail(ErrorCode::Unsupported, "reading " + path + " is not implemented yet");
}
Result<std::shared_ptr<ExportedProgram>> parseExportedProgramJson(std::string_view, const std::string& sourceName)
{
    return fail(ErrorCode::Unsupported, "parsing " + sourceName + " is not implemented yet");
}
} // namespace pte
