// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include "pte/bytes.h"
#include "pte/mappedfile.h"
#include "pte/program.h"
#include "pte/result.h"

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace pte {

/** Alignments of the serialized file; defaults are ExecuTorch's. */
struct WriteOptions
{
    std::uint64_t segmentAlignment = 128;
    std::uint32_t constantTensorAlignment = 16;
    std::uint32_t delegateAlignment = 16; ///< force_align of inline delegate blobs and Buffer.storage
    SyncPolicy sync = SyncPolicy::WhenReplacing; ///< when writePte waits for the disk
};

/**
 * Options of ExecuTorch's serialize step (serialize_pte_binary), which turns an emitted program
 * (constants in constant_buffer, delegate blobs inline) into the file layout.
 */
struct SerializeOptions
{
    WriteOptions write;
    bool extractDelegateSegments = true;
};

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

/**
 * Compares two programs field by field (byte payloads by content). Returns the path and values of the
 * first difference ("execution_plan[0].values[3].val.sizes[1]: 4 != 5"), or nullopt when they are equal.
 * Segment offsets are compared only when `compareSegmentOffsets` (a re-layout may move them).
 */
[[nodiscard]] std::optional<std::string> programDifference(
    const Program& a, const Program& b, bool compareSegmentOffsets = true);

/** Shape of a synthetic program (`ptelens-cli synth`, benchmarks). */
struct SyntheticOptions
{
    std::uint64_t instructions = 1000; ///< KernelCalls in total, spread over the methods
    std::uint64_t constantBytes = 0; ///< bytes of constant tensor data in the constant segment
    std::uint32_t methods = 1;
    std::uint32_t activationElements = 16; ///< f32 elements of each planned activation
};

/**
 * A valid synthetic program: per method a chain of alternating aten::add.out / aten::mul.out
 * KernelCalls over planned f32 activations and one constant weight, plus u8 constant tensors holding
 * `constantBytes` in total (at most 256 MiB each), all in constant segment 0. The constant data is
 * backed by an anonymous read-only-after-fill mapping whose untouched pages are the shared zero page,
 * so a 2 GB program costs almost no memory. The result is laid out and ready for serializePte.
 */
[[nodiscard]] Result<Program> makeSyntheticProgram(const SyntheticOptions& options);

} // namespace pte
