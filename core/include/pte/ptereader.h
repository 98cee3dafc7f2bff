// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include "pte/bytes.h"
#include "pte/diagnostic.h"
#include "pte/program.h"
#include "pte/result.h"

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>

namespace pte {

struct BundledProgram;

/** How readPteFile reads: verification, the verifier's limits, external data. */
struct ReadOptions
{
    /**
     * Run the flatbuffers verifier before decoding (the runtime's InternalConsistency). Only turn it off for
     * trusted input: decoding unverified bytes may read out of bounds.
     */
    bool verify = true;
    std::uint32_t maxDepth = 64;
    std::uint32_t maxTables = 1000000;
    /** `.ptd` file to resolve EXTERNAL tensors; empty = look for *.ptd next to the .pte. */
    std::string externalDataPath;
    bool findExternalDataNextToFile = true;
};

/** A tensor in a `.ptd` (FlatTensor, identifier FT01) file. */
struct ExternalTensor
{
    std::string key;
    ScalarType scalarType = ScalarType::Byte;
    std::vector<std::int32_t> sizes;
    std::vector<std::uint8_t> dimOrder;
    Bytes data;
};

/** A `.ptd` (FlatTensor) file's named tensors, the constants a program stores outside itself. */
struct ExternalData
{
    std::string path;
    std::map<std::string, ExternalTensor> tensors;
};

/**
 * A `.pte` file opened read-only: the program snapshot, the header facts, the file's bytes (mapped),
 * and every check of docs/runtime-rules.md as diagnostics. Immutable; share as shared_ptr<const PteFile>.
 */
struct PteFile
{
    std::string path;
    Bytes file; ///< the whole mapped file
    std::uint64_t flatbufferSize = 0; ///< program_size, or the file size without a header
    std::optional<ExtendedHeader> header;
    std::shared_ptr<const Program> program;
    std::optional<ExternalData> externalData;
    Diagnostics diagnostics; ///< Severity::Error = the runtime would refuse the file
    /**
     * Set when the file is a bundled program (.bpte, pte/bundledprogram.h): its test cases. `file`, the header
     * facts and the offsets of the program's diagnostics (whose `file` is "<path>:program") then describe the
     * program inside, which starts at bundled->programOffset.
     */
    std::shared_ptr<const BundledProgram> bundled;

    [[nodiscard]] bool runtimeWouldAccept() const noexcept { return !hasErrors(diagnostics); }
};

/**
 * Opens and decodes a `.pte` (memory-mapped; segment, constant and delegate payloads are views of the
 * mapping, nothing proportional to the weights is read). Fatal errors (not ET12, truncated or bad eh00
 * header, verifier failure) are a failed Result whose message names the path and whose offset says where;
 * runtime-check violations are diagnostics (Severity::Error = the runtime would refuse the file) with a
 * byte offset and/or a field path such as "execution_plan[0].values[12].val.sizes". EXTERNAL tensors are
 * resolved through ReadOptions::externalDataPath or a *.ptd next to the file. A bundled program (.bpte, BP08)
 * opens as the program inside plus PteFile::bundled; its test cases are checked against the program (warnings).
 */
[[nodiscard]] Result<std::shared_ptr<const PteFile>> readPteFile(
    const std::string& path, const ReadOptions& options = {});
/** Same from bytes already in memory (`name` is used in messages). */
[[nodiscard]] Result<std::shared_ptr<const PteFile>> readPteBytes(
    Bytes bytes, const std::string& name, const ReadOptions& options = {});

/** Reads a `.ptd` FlatTensor file. */
[[nodiscard]] Result<ExternalData> readPtdFile(const std::string& path);

/**
 * Whether the runtime loads EXTERNAL tensor `t` from `stored`, the tensor of that name in `source` (a .ptd's path):
 * the stored layout (dtype, sizes, dim order) must be the one the program declares (InvalidProgram otherwise) and its
 * bytes must cover the tensor (Truncated). The error names the tensor by `fqn` and both layouts.
 */
[[nodiscard]] Result<void> checkExternalTensor(
    const Tensor& t, const std::string& fqn, const ExternalTensor& stored, const std::string& source);

/** Runs every check of docs/runtime-rules.md over a program (already decoded) and returns the findings. */
[[nodiscard]] Diagnostics checkProgram(const Program& program, const std::optional<ExternalData>& external = {});

} // namespace pte
