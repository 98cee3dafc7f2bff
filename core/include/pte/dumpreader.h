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

/** Limits readDump applies to untrusted archives. */
struct DumpReadOptions
{
    /** Largest archive entry we accept (declared size); larger entries are refused with InvalidInput. */
    std::uint64_t maxEntrySize = std::uint64_t(64) << 30;
};

/**
 * Reads a graph dump: a PT2 archive (torch >= 2.8), a legacy torch.export zip (2.2-2.7, exir.save),
 * an ETRecord, or a bare exported-program JSON file. Dispatches on the container's shape.
 * Errors name the file, the archive entry and the JSON path; never throws.
 *
 * Methods: PT2 archives give one method per models/<name>.json (named <name>); legacy zips and bare JSON
 * give "forward"; ETRecords give edge_dialect_exported_program ("forward") and
 * edge_dialect_exported_program/<method>, the other recorded programs going to DumpSet::otherPrograms.
 * Weights are Bytes views into the mapped file whenever the archive stores them uncompressed.
 *
 * Pickled weights (legacy state dicts, 2.8 data/weights/<model>.pt, ETRecord <entry>_state_dict, 2.9+ use_pickle
 * payloads) go through the restricted unpickler. A pickled FakeTensor becomes a WeightTensor with `fake` set and
 * no data, with a warning naming the entry and FQN. A 2.9+ use_pickle payload that is not a plain tensor (a tensor
 * subclass) is an Error-severity diagnostic naming the entry and the refused global; the weight is then missing.
 *
 * Sample inputs (legacy serialized_example_inputs.pt, PT2 data/sample_inputs/<model>.pt, ETRecord
 * <entry>_example_inputs) fill ExportedProgram::sampleInputs. A 0-byte entry means none; an unreadable entry
 * or leaf is a warning, never an error.
 *
 * @returns Io when the file cannot be read; InvalidInput for a malformed archive, pickle or JSON document
 *   (unsafe entry paths, entries over DumpReadOptions::maxEntrySize, CRC mismatches, wrong JSON types);
 *   Truncated when JSON or a weight payload ends early; UnsupportedVersion for an unknown schema major;
 *   Unsupported for refused pickle globals/opcodes and non-export archives (torch.save, TorchScript, AOTI).
 *   An unknown schema minor, a 0-byte weight or a bare JSON without weights are diagnostics, not errors.
 */
[[nodiscard]] Result<std::shared_ptr<const DumpSet>> readDump(
    const std::string& path, const DumpReadOptions& options = {});

/**
 * Parses one serialized ExportedProgram JSON document. `sourceName` appears in messages
 * ("file.pt2:models/model.json"). Weights are not attached (the caller resolves them); `missingWeights`
 * lists every parameter/buffer/constant FQN. Accepts all three union encodings, schema 1..8.x and
 * ExecuTorch serde 1/5.x, and bare Infinity/-Infinity/NaN tokens. Non-fatal findings go to `diagnostics`.
 */
[[nodiscard]] Result<std::shared_ptr<ExportedProgram>> parseExportedProgramJson(
    std::string_view json, const std::string& sourceName);

} // namespace pte
