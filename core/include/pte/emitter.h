// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include "pte/diagnostic.h"
#include "pte/graph.h"
#include "pte/idmap.h"
#include "pte/program.h"
#include "pte/result.h"
#include "pte/serializeoptions.h"

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

/**
 * How emitProgram emits: stack traces, debug handles, prim getters, missing weights and mutable buffers, memory
 * planning and serialization options, with progress and cancel.
 */
struct EmitOptions
{
    bool emitStacktrace = false;
    /**
     * When a method's graph carries no debug handles (plain torch.export dumps), number its operator nodes
     * 1, 2, ... in graph order as ExecuTorch's to_edge does, so the debug-handle map is never empty.
     */
    bool generateDebugHandles = true;
    SerializeOptions serialize;
    /** Extra constant methods (prim getters): name -> value (Int, Double, Bool, String or Tensor EValue). */
    std::map<std::string, EValue> primGetters;
    /** Called with (done, total) now and then; may be empty. */
    std::function<void(std::uint64_t, std::uint64_t)> progress;
    /** Set to true from another thread to stop; emitProgram then fails with ErrorCode::Cancelled. */
    const std::atomic<bool>* cancel = nullptr;
    /**
     * Bytes of Tensor prim getters (primGetters entries holding a Tensor EValue), by getter name. The Tensor's
     * scalarType/sizes/dimOrder describe them; a missing entry means zero-filled bytes.
     */
    std::map<std::string, Bytes> primGetterTensorData;
    /**
     * ETRecord delegate maps (EtRecordMaps::delegateMap) of the input, by method then delegate-call instruction
     * id. Used for a delegate call whose lowered module carries no debug-identifier map of its own.
     */
    std::map<std::string, std::map<std::int64_t, DelegateMapEntry>> etrecordDelegateMap;
    /** Weights the dump lacks (bare JSON) become zero-filled constants with a warning instead of an error. */
    bool zeroFillMissingWeights = false;
    /**
     * Mutable buffers (buffer mutations) keep the dump's bytes as their initial state: still memory planned, with
     * the bytes in the program's mutable data segment, which the runtime copies into planned memory at load
     * (ExecuTorch's InitializedMutableBufferPass / `et_init_buffer`). Off by default, as in ExecuTorch: planned
     * buffers then start with whatever the planned memory holds. A buffer the dump has no bytes for stays
     * uninitialised, with a warning (unless zeroFillMissingWeights, which initialises it with zeros).
     */
    bool initialiseMutableBuffers = false;
    /** Alignment of planned tensors (ExecuTorch's MemoryPlanningPass default). */
    std::uint64_t memoryAlignment = 16;
    /**
     * Equal scalar arguments (Int, Double, Bool, None) of kernel calls share one value instead of one each, as the
     * format allows (kernels never write them): fewer flatbuffer tables. Off by default, as ExecuTorch emits; turned
     * on by emitProgram when a program would exceed the tables ExecuTorch's program verifier accepts
     * (kMaxVerifierTables, see flatbufferTableCount).
     */
    bool shareScalarValues = false;
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
    /** An elided memory.view: shares the memory of another planned tensor (its base) on purpose. */
    bool view = false;
};

/**
 * What emitProgram knows about one method beyond the program: its memory plan, which graph nodes and values each
 * instruction and value index came from, dropped outputs and kernel coverage (the GUI's views).
 */
struct MethodEmitInfo
{
    std::vector<PlannedTensor> memoryPlan;
    /** Instruction id -> graph node names it came from (delegate calls: the delegated nodes). */
    IdMap<std::vector<std::string>> instructionNodes;
    /** Value index -> graph value name. */
    IdMap<std::string> valueNames;
    /** Outputs removed before emission (buffer mutations, ...) with the reason. */
    std::vector<std::pair<std::string, std::string>> droppedOutputs;
    /** Operators of the plan (runtime keys such as "aten::add.out") and whether the portable library has them. */
    std::vector<std::pair<std::string, bool>> kernelCoverage;
    /** For a joint (training) graph: the __et_training_* values; -1 when not a joint graph. */
    std::int64_t trainingGradientsIndex = -1;
    std::int64_t trainingParametersIndex = -1;
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
    /** EmitOptions::serialize of the emission: how layoutEmitted lays the program out (then writePte with its
     *  `write` options). */
    SerializeOptions serialize;
    /**
     * Not part of what ExecuTorch's EmitterOutput holds: emitProgram frees its intermediate tables (one lowered
     * instruction list per method, a few allocations per instruction) on another thread while the caller goes on,
     * typically to save the program. That thread is joined when the last copy of this output is destroyed.
     */
    std::shared_ptr<void> pendingRelease;
};

/**
 * Emits methods in sorted name order, each from fresh per-method state; constants (deduplicated by content),
 * delegate blobs and mutable data are program-wide. Before emission each method is lowered as
 * EdgeProgramManager.to_executorch() would: training-IR composites decomposed (linear, convNd, batch norms,
 * layer_norm, dropout, matmul, flatten, view/reshape, t/transpose...), views to *_copy ops, functional ops to
 * their out variants with planned out tensors, buffer mutations written back with aten::copy_, `cond` inlined
 * as JumpFalse/Move, `map_impl` and `scan` as loops (sym_size, select_copy, the inlined body, et_copy_index,
 * executorch_prim add/eq/sub and a backward JumpFalse), ExecuTorch `memory.view` nodes elided into values sharing
 * their base's storage (or et_view when dynamic), delegate calls, and greedy memory planning (memory_id 1,
 * 16-byte alignment) in which values live on entry to a loop stay allocated until its backward jump.
 * Joint (training) graphs add the __et_training_{gradients_index,fqn,parameters_index}_<m> plans; then
 * `options.primGetters` follow (in name order). Outputs ExecuTorch drops (buffer mutations, effect tokens)
 * are listed in MethodEmitInfo::droppedOutputs; non-fatal findings (unknown operators, ...) in `warnings`.
 * @returns InvalidInput (like ExecuTorch's INVALID_INPUT_TYPE) for an empty map or missing, unnamed or duplicated
 * methods, and for malformed graphs (undefined values, missing weights, bad arguments); Unsupported for what
 * ExecuTorch (or ptelens) refuses: while_loop, map over several mapped args or with several outputs, scan
 * without xs, custom objects, non-CPU devices, unbounded dynamic dimensions; Cancelled when `options.cancel` is set.
 * Node errors name the method, node and target. The emitted program leaves `constantSegment` unset:
 * layoutForSerialization builds it from constant_buffer.
 */
[[nodiscard]] Result<EmitterOutput> emitProgram(
    const std::vector<std::pair<std::string, std::shared_ptr<const ExportedProgram>>>& methods,
    const EmitOptions& options = {});

} // namespace pte

namespace pte {
/** Why emission drops an output of this kind (e.g. "buffer mutation: written back, not returned"), or nullptr when
 * kept. */
[[nodiscard]] const char* emissionDropReason(OutputKind kind) noexcept;
} // namespace pte
