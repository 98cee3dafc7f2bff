// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include "pte/graph.h"
#include "pte/program.h"
#include "pte/result.h"

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

/**
 * @file
 * Comparing two programs (`ptelens-cli diff`, the GUI's Diff view): what differs between two `.pte` programs (or
 * graph dumps emitted first), method by method, with the instruction sequences aligned so that one inserted
 * instruction is one inserted row.
 *
 * Semantic mode (the default) ignores what does not change how the runtime executes the program: value, constant,
 * operator and delegate numbering, segment order and layout (offsets, alignment padding, inline or segment delegate
 * blobs, legacy constant buffers), the schema version, requires_grad, chain inputs/outputs and stack traces. A
 * program and its `ptelens-cli rewrite` compare equal. Strict mode reports those too. Not to be confused with
 * programDifference() (programequality.h), the writer's round-trip check that stops at the first differing field.
 */

namespace pte {

struct EmitterOutput;
struct PteFile;

/** One side of a comparison: a program and, when an ETRecord or an emission gives them, its debug maps. */
struct DiffSide
{
    std::string label; ///< a path or a name, used in reports
    std::shared_ptr<const Program> program;
    /** Debug handle and delegate maps (ETRecord layout), by method; nullptr when the side has none. */
    std::shared_ptr<const EtRecordMaps> debugMaps;
    /** The .pte the program was read from (its size and header are compared in strict mode); nullptr otherwise. */
    std::shared_ptr<const PteFile> file;
    /** The graph dumps the program was emitted from, and the emission (whose program moved, laid out, to
     *  `program`); nullptr for a .pte. */
    std::shared_ptr<const DumpSet> dumps;
    std::shared_ptr<const EmitterOutput> emitted;
    /** For an emitted side: each method and the dump program it was emitted from. */
    std::vector<std::pair<std::string, std::shared_ptr<const ExportedProgram>>> emittedFrom;
};

/** How openDiffSide opens one side: its ETRecord and external data. */
struct DiffSideOptions
{
    /** An ETRecord whose debug maps go with the side (a `.pte` has none of its own); empty = none. */
    std::string etrecordPath;
    /** A `.pte` side's external data (`.ptd`); empty = a `.ptd` next to the file, as readPteFile looks for. */
    std::string externalDataPath;
};

/**
 * Opens one side: a `.pte` (memory-mapped, as readPteFile), or a graph dump (PT2 archive, torch.export zip, ETRecord,
 * exported-program JSON) emitted first with the default emit options and laid out as `ptelens-cli emit` writes it,
 * whose debug maps then come from the emission. A program is recognised by its identifier at byte 4 (`ET..`, or a
 * bundled program's) or by its name (.pte, .bpte, .bp: a corrupt one gets the program reader's error).
 * @returns the reader's or the emitter's error (Io, NotAPteFile, InvalidInput, Unsupported...) naming the file; a
 *   .pte the runtime would refuse still opens (its diagnostics are not errors here).
 */
[[nodiscard]] Result<DiffSide> openDiffSide(const std::string& path, const DiffSideOptions& options = {});

/** What diffPrograms compares and reports, with progress and cancel. */
struct DiffOptions
{
    bool strict = false; ///< also report renumbering, order, layout and the fields the runtime does not read
    std::string method; ///< compare only this method (by name on both sides); empty = all
    std::size_t maxDifferingIndices = 8; ///< first differing element indices kept per constant
    std::size_t maxUsesPerValue = 16; ///< instruction uses listed per value difference (the count is always kept)
    /** Called now and then with (done, total); may be empty. */
    std::function<void(std::uint64_t, std::uint64_t)> progress;
    /** Set from another thread to stop; diffPrograms then fails with ErrorCode::Cancelled. */
    const std::atomic<bool>* cancel = nullptr;
};

/** One difference's kind: an item on both sides (same or changed), or on one side only. */
enum class DiffStatus : std::uint8_t
{
    Same,
    Changed,
    Added, ///< only in B
    Removed, ///< only in A
};
[[nodiscard]] const char* diffStatusName(DiffStatus s) noexcept; ///< "same", "changed", "added", "removed"

/** The part of a program a difference belongs to. */
enum class DiffCategory : std::uint8_t
{
    Program, ///< version, segments, constant storage
    Method, ///< methods added, removed, renamed; chains
    Signature, ///< method inputs and outputs, container meta
    Instruction, ///< inserted, removed or changed instructions, rewired arguments
    Value, ///< fields of values both instructions use
    MemoryPlan, ///< memory ids, offsets, non_const_buffer_sizes
    Constant, ///< constant tensor and initial-state bytes
    Operator, ///< the operator table (strict mode)
    Delegate, ///< backend id, compile specs, payload
    NamedData, ///< named data keys, sizes and bytes
    DebugInfo, ///< debug handles and delegate debug identifiers (when both sides have them)
};
[[nodiscard]] const char* diffCategoryName(DiffCategory c) noexcept; ///< "program", "instruction", ...

/**
 * Where a value is used: instruction index and argument position. A method input has instruction -1 and an output
 * instruction -2, with the position in the inputs or outputs as `argument`.
 */
struct DiffUse
{
    std::int32_t instruction = -1;
    std::int32_t argument = 0;
    friend bool operator==(const DiffUse&, const DiffUse&) = default;
};

/** One reported difference. */
struct Difference
{
    DiffCategory category = DiffCategory::Program;
    DiffStatus status = DiffStatus::Changed; ///< Added / Removed / Changed
    std::string methodA; ///< method on each side (empty for program-level differences)
    std::string methodB;
    /** What differs, e.g. "instruction 12", "value %5", "outputs", "delegate 0", "constant %3", "segments". */
    std::string subject;
    std::string field; ///< e.g. "scalar_type", "sizes", "operator", "arg 2"; empty when the subject itself differs
    std::string a; ///< the A side rendered ("f32"), empty when absent
    std::string b;
    std::string detail; ///< more about it, e.g. "max |a-b| 0.5, mean 0.01, 3 of 64 elements differ, first at [0, 2]"
    /** Index on each side of the subject (instruction, value, delegate, method, segment), -1 when absent. */
    std::int64_t indexA = -1;
    std::int64_t indexB = -1;
    /** For values: the instructions and argument positions that use it (first maxUsesPerValue) and their count. */
    std::vector<DiffUse> usesA;
    std::vector<DiffUse> usesB;
    std::size_t useCountA = 0;
    std::size_t useCountB = 0;
    bool strictOnly = false; ///< reported only because DiffOptions::strict is set

    /** One line: "forward: value %5 ↔ %7 scalar_type: f32 → f16 (used by instruction 3 arg 0)". */
    [[nodiscard]] std::string toString() const;
};

/** One row of the aligned instruction tables. */
struct InstructionRow
{
    std::int32_t a = -1; ///< instruction index in A (chains flattened in order), -1 for an inserted row
    std::int32_t b = -1; ///< instruction index in B, -1 for a removed row
    DiffStatus status = DiffStatus::Same;
};

/** The columns of a changed row that differ. */
struct InstructionChange
{
    std::uint32_t row = 0; ///< index into MethodDiff::rows
    bool kind = false;
    bool target = false; ///< operator or delegate backend
    bool argumentCount = false;
    bool debugHandles = false;
    std::vector<std::uint32_t> arguments; ///< argument positions whose value differs (fields or identity)
};

/** Element-wise difference of two constant tensors of the same dtype and shape. */
struct NumericDifference
{
    std::uint64_t elements = 0;
    std::uint64_t differing = 0;
    double maxAbs = 0; ///< over numeric dtypes; 0 for others
    double meanAbs = 0; ///< mean over all elements
    /** First differing elements, as multi-dimensional indices (in the tensor's logical dimension order). */
    std::vector<std::vector<std::int64_t>> firstIndices;
};

/** One constant tensor (or planned tensor with initial bytes) and how it compares. */
struct ConstantRow
{
    std::string methodA;
    std::string methodB;
    std::int32_t valueA = -1; ///< a value that holds it (the first), -1 when absent on that side
    std::int32_t valueB = -1;
    std::uint32_t bufferA = 0; ///< data_buffer_idx
    std::uint32_t bufferB = 0;
    std::string fqn; ///< fully qualified name when the program stores one
    std::string typeA; ///< "f32[64, 3, 3, 3]"
    std::string typeB;
    std::uint64_t bytesA = 0;
    std::uint64_t bytesB = 0;
    bool mutableInitialState = false; ///< initial bytes of a planned tensor, not a constant
    DiffStatus status = DiffStatus::Same;
    std::optional<NumericDifference> numeric; ///< when both have the same dtype and shape and the bytes differ
};

/** One delegate and how it compares. */
struct DelegateRow
{
    std::string methodA;
    std::string methodB;
    std::int32_t indexA = -1;
    std::int32_t indexB = -1;
    std::string backendA;
    std::string backendB;
    std::uint64_t payloadBytesA = 0;
    std::uint64_t payloadBytesB = 0;
    std::string payloadSha256A; ///< hex
    std::string payloadSha256B;
    std::size_t compileSpecsA = 0;
    std::size_t compileSpecsB = 0;
    bool compileSpecsDiffer = false;
    DiffStatus status = DiffStatus::Same;
};

/** Per-method comparison: the aligned instruction rows and the counts behind the summary. */
struct MethodDiff
{
    std::string nameA; ///< empty when the method is only in B
    std::string nameB; ///< empty when the method is only in A; differs from nameA for a method renamed by content
    DiffStatus status = DiffStatus::Same;
    std::vector<InstructionRow> rows; ///< every instruction of both sides, aligned
    std::vector<InstructionChange> changes; ///< per changed row, sorted by row
    /** A value index -> matched B value index (-1 = none), and back. */
    std::vector<std::int32_t> valueAtoB;
    std::vector<std::int32_t> valueBtoA;
    std::size_t instructionsA = 0;
    std::size_t instructionsB = 0;
    std::size_t same = 0;
    std::size_t changed = 0;
    std::size_t inserted = 0;
    std::size_t removed = 0;
    std::size_t valuesA = 0;
    std::size_t valuesB = 0;
    /** Kernel calls per operator ("aten::add.out") on each side: the operator multiset. */
    std::map<std::string, std::pair<std::size_t, std::size_t>> operatorCounts;
    bool alignedWithDebugHandles = false; ///< the alignment keys included debug handles (both sides had them)

    /** The change record of row `row`, or nullptr. */
    [[nodiscard]] const InstructionChange* change(std::size_t row) const noexcept;
};

/** The whole comparison. */
struct ProgramDiff
{
    std::string labelA;
    std::string labelB;
    bool strict = false;
    std::vector<MethodDiff> methods;
    std::vector<Difference> differences;
    std::vector<ConstantRow> constants;
    std::vector<DelegateRow> delegates;

    [[nodiscard]] bool equal() const noexcept { return differences.empty(); }
    /** Differences per category (indexed by DiffCategory). */
    [[nodiscard]] std::vector<std::size_t> countByCategory() const;
};

/**
 * Compares two programs. Methods are paired by name, then unpaired ones by content (renamed); per method the
 * instruction sequences are aligned on keys made of kind, operator (or delegate backend) and argument kinds, dtypes
 * and shapes (plus debug handles when both sides have them and they agree), values are matched through the aligned
 * instructions and the signature, whatever their numbering, and every matched pair is compared field by field.
 * Constants are compared by content, reading both sides in chunks (a mapped file's weights are read with pread, never
 * made resident); same-shaped constants that differ get a NumericDifference. Delegates: backend id, compile specs,
 * payload size and SHA-256.
 * @returns InvalidInput when DiffOptions::method names a method missing on either side; Io when a payload cannot be
 *   read; Cancelled when DiffOptions::cancel is set.
 */
[[nodiscard]] Result<ProgramDiff> diffPrograms(const DiffSide& a, const DiffSide& b, const DiffOptions& options = {});

/** The readable report: a summary, then each method's differences (what `ptelens-cli diff` prints). */
[[nodiscard]] std::string diffReportText(const ProgramDiff& diff);
/** The report as JSON (`ptelens-cli diff --json`): summary, differences, methods with their non-same rows, constants
 *  and delegates that differ. */
[[nodiscard]] std::string diffReportJson(const ProgramDiff& diff);

} // namespace pte
