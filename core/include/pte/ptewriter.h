// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include "pte/bytes.h"
#include "pte/mappedfile.h"
#include "pte/program.h"
#include "pte/result.h"
#include "pte/serializeoptions.h"
#include "pte/tablecount.h"

#include <cstdint>
#include <span>
#include <string>
#include <vector>

/**
 * @file
 * The serialize step and the file writer: an emitted program laid out as ExecuTorch lays it out
 * (layoutForSerialization), serialized to byte ranges (serializePte) and saved atomically (writePte). Its options
 * are in serializeoptions.h; the round-trip check is programDifference (programequality.h).
 */

namespace pte {

/**
 * EXIR's serialize step as a pure function: constant_buffer -> constant segment 0 (16-byte packing,
 * offsets[0] placeholder); mutable data -> segment 1; non-empty inline delegate blobs -> own segments
 * (deduplicated by content); named data -> segments. The result is ready for writePte/serializePte.
 * `mutableData` entry 0 must be the empty placeholder; pass {} when there is none.
 */
[[nodiscard]] Result<Program> layoutForSerialization(Program emitted, const std::vector<Bytes>& mutableData,
    const std::vector<std::pair<std::string, Bytes>>& namedData, const SerializeOptions& options = {});

/**
 * The serialized file as a list of byte ranges to concatenate: the flatbuffer (with its eh00 header when there
 * are segment bytes), padding, then the segments as views of their Bytes (not copied). `Program.segments`
 * offsets are recomputed; the program itself is written as is (no re-layout).
 */
struct SerializedPte
{
    std::vector<Bytes> parts;
    std::uint64_t totalSize = 0;
    std::uint64_t programSize = 0;
    std::uint64_t segmentBaseOffset = 0;
};
[[nodiscard]] Result<SerializedPte> serializePte(const Program& program, const WriteOptions& options = {});

/** serializePte, then an atomic write (temporary file, fsync, rename). Never touches `path` on failure. */
[[nodiscard]] Result<void> writePte(const Program& program, const std::string& path, const WriteOptions& options = {});

/** Writes an already serialized program atomically (as writePte does). */
[[nodiscard]] Result<void> writeSerializedPte(
    const SerializedPte& serialized, const std::string& path, SyncPolicy sync = SyncPolicy::WhenReplacing);

/** Copies the parts of a serialized program into one contiguous buffer (for small programs and tests). */
[[nodiscard]] std::vector<std::uint8_t> concatenate(const SerializedPte& serialized);

} // namespace pte
