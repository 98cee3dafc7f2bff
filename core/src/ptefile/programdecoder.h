// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

// Private to the .pte reader: the verified flatbuffer program -> the Program model.

#include "pte/bytes.h"
#include "pte/diagnostic.h"
#include "pte/program.h"
#include "ptefile/ptereader_p.h"

namespace pte::ptefile {

/**
 * Decodes the verified flatbuffer program in `fbBytes` into the model: structural problems become diagnostics in
 * `diags`, the file offsets of the decoded tables go to `facts`.
 */
[[nodiscard]] Program decodeProgramFlatbuffer(const Bytes& fbBytes, Diagnostics& diags, FileFacts& facts);

} // namespace pte::ptefile
