// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include "pte/diagnostic.h"
#include "pte/graph.h"
#include "pte/program.h"
#include "pte/ptewriter.h"
#include "pte/result.h"

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

/**
 * @file
 * ptelens' port of ExecuTorch's emit_program: from exported programs (one per method) to an ExecuTorch
 * Program plus the debug maps ExecuTorch's EmitterOutput carries. Lowering a dump needs first
 * (decompositions, out variants, memory planning, write-back) runs inside emitProgram.
 */

namespace pte {

struct EmitOptions
{
    bool emitStacktrace = false;
    SerializeOptions serialize;
    /** Extra constant methods (prim getters): name -> value (Int, Double, Bool, String or Tensor EValue). */
    std::map<std::string, EValue> primGetters;
    /** Called with (done, total) now and then; may be empty. */
    std::function<void(std::uint64_t, std::uint64_t)> progress;
    /** Set to true from another thread to stop; emitProgram then fails with ErrorCode::Cancelled. */
    const std::atomic<bool>* cancel = nullptr;
};

/** One planned tensor of a method's memory plan (for the GUI's memory view). */
struct PlannedTensor
{
    std::int32_t valueIndex = -1;
    std::string name; ///< graph value name
    std::uint32_t memoryId = 0;
    std::uint64_t offset = 0;
    std::uint64_t size = 0;
    std::int32_t firstInstruction = 0; ///< lifetime, in instruction ids
    std::int32_t lastInstruction = 0;
};

struct MethodEmitInfo
{
    std::vector<PlannedTensor> memoryPlan;
    /** Instruction id -> graph node names it came from (delegate calls: the delegated nodes). */
    std::map<std::int32_t, std::vector<std::string>> instructionNodes;
    /** Value index -> graph value name. */
    std::map<std::int32_t, std::string> valueNames;
    /** Outputs removed before emission (buffer mutations, ...) with the reason. */
    std::vector<std::pair<std::string, std::string>> droppedOutputs;
};

/** What ExecuTorch's EmitterOutput holds, plus what the GUI shows. */
struct EmitterOutput
{
    Program program; ///< emitted form: constants in constant_buffer, delegate blobs inline (see layoutForSerialization)
    std::map<std::string, std::map<std::int64_t, std::vector<std::int64_t>>> debugHandleMap;
    std::map<std::string, std::map<std::int64_t, DelegateMapEntry>> methodToDelegateDebugIdMap;
    std::map<std::string, std::map<std::int64_t, std::int64_t>> instructionIdToNumOutsMap;
    std::vector<Bytes> mutableData; ///< entry 0 is the empty placeholder
    std::vector<std::pair<std::string, Bytes>> namedData;
    std::map<std::string, MethodEmitInfo> methods;
    Diagnostics warnings;
};

/**
 * Emits methods in sorted name order. A single program becomes `forward`.
 * @returns InvalidInput (like ExecuTorch's invalid-input error) for an empty or malformed method map;
 * Unsupported for constructs ExecuTorch refuses (while_loop); errors name the node and target.
 */
[[nodiscard]] Result<EmitterOutput> emitProgram(
    const std::vector<std::pair<std::string, std::shared_ptr<const ExportedProgram>>>& methods,
    const EmitOptions& options = {});

/** The ETRecord-layout JSON of the three maps ({"debug_handle_map": {method: {"0": ...}}, ...}). */
[[nodiscard]] std::string debugMapsJson(const EmitterOutput& output);

} // namespace pte

namespace pte {
/** Why emission drops an output of this kind (e.g. "buffer mutation: written back, not returned"), or nullptr when
 * kept. */
[[nodiscard]] const char* emissionDropReason(OutputKind kind) noexcept;
} // namespace pte
