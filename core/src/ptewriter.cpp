// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// STUB: replaced by the .pte writer implementation.
#include "pte/ptewriter.h"

namespace pte {
Result<Program> layoutForSerialization(
    Program, const std::vector<Bytes>&, const std::vector<std::pair<std::string, Bytes>>&, const SerializeOptions&)
{
    return fail(ErrorCode::Unsupported, "serialization is not implemented yet");
}
Result<SerializedPte> serializePte(const Program&, const WriteOptions&)
{
    return fail(ErrorCode::Unsupported, "serialization is not implemented yet");
}
Result<void> writePte(const Program&, const std::string& path, const WriteOptions&)
{
    return fail(ErrorCode::Unsupported, "writing " + path + " is not implemented yet");
}
} // namespace pte
