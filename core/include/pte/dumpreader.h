// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include "pte/graph.h"
#include "pte/result.h"

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

namespace pte {

struct DumpReadOptions
{
    /** Largest archive entry we accept (declared size); larger entries are refused with InvalidInput. */
    std::uint64_t maxEntrySize = std::uint64_t(64) << 30;
};

/**
 * Reads a graph dump: a PT2 archive (torch >= 2.8), a legacy torch.export zip (2.2-2.7, exir.save),
 * an ETRecord, or a bare exported-program JSON file. Dispatches on the container's shape.
 * Errors name the file, the archive entry and the JSON path; never throws.
 */
[[nodiscard]] Result<std::shared_ptr<const DumpSet>> readDump(
    const std::string& path, const DumpReadOptions& options = {});

/**
 * Parses one serialized ExportedProgram JSON document. `sourceName` appears in messages
 * ("file.pt2:models/model.json"). Weights are not attached (the caller resolves them).
 */
[[nodiscard]] Result<std::shared_ptr<ExportedProgram>> parseExportedProgramJson(
    std::string_view json, const std::string& sourceName);

} // namespace pte
