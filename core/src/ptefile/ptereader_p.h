// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

// Private to the .pte reader: shared between ptereader.cpp (header, verifier, decoding),
// runtimecheck.cpp (checks of docs/runtime-rules.md) and ptdreader.cpp (.ptd FlatTensor files).

#include "base/littleendian.h"
#include "pte/ptereader.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace pte::ptefile {

/** What the reader knows about the file around the program; absent when checking a bare Program. */
struct FileFacts
{
    std::string name; ///< path or name used in diagnostics
    bool hasHeader = false; ///< an eh00 extended header with a non-zero segment_base_offset is present
    std::uint64_t segmentBaseOffset = 0;
    /** File offsets of one method's decoded tables, by index. */
    struct PlanOffsets
    {
        std::uint64_t plan = 0;
        std::vector<std::uint64_t> values;
        std::vector<std::uint64_t> chains;
        std::vector<std::vector<std::uint64_t>> instructions; ///< per chain
        std::vector<std::uint64_t> operators;
        std::vector<std::uint64_t> delegates;
    };
    std::vector<PlanOffsets> plans;
    /** File offsets of program-level tables by field path ("segments[2]", "constant_segment"). */
    std::map<std::string, std::uint64_t> offsets;
};

/** Runs every model-level check; with facts, the file-dependent ones too, and the byte offset of each finding. */
Diagnostics checkProgramImpl(
    const Program& program, const std::optional<ExternalData>& external, const FileFacts* facts);

/** Decodes a .ptd from bytes (`name` is used in messages). */
Result<ExternalData> readPtdBytes(const Bytes& bytes, const std::string& name);

} // namespace pte::ptefile
