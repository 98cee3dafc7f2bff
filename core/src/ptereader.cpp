// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// STUB: replaced by the .pte reader implementation.
#include "pte/ptereader.h"

namespace pte {
Result<std::shared_ptr<const PteFile>> readPteFile(const std::string& path, const ReadOptions&)
{
    return fail(ErrorCode::Unsupported, "reading " + path + " is not implemented yet");
}
Result<std::shared_ptr<const PteFile>> readPteBytes(Bytes, const std::string& name, const ReadOptions&)
{
    return fail(ErrorCode::Unsupported, "reading " + name + " is not implemented yet");
}
Result<ExternalData> readPtdFile(const std::string& path)
{
    return fail(ErrorCode::Unsupported, "reading " + path + " is not implemented yet");
}
Diagnostics checkProgram(const Program&, const std::optional<ExternalData>&) { return {}; }
} // namespace pte
