// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include "pte/diagnostic.h"
#include "pte/emitter.h"
#include "pte/etdump.h"
#include "pte/graph.h"
#include "pte/program.h"
#include "pte/result.h"

#include <cstdint>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

/**
 * @file
 * Ties an ETDump to the program that produced it: each event block to a method, each event to its (chain,
 * instruction), delegate events to their DelegateCall and, through the delegate debug-identifier map, to AOT
 * debug handles and graph nodes, debug events to the program values they logged.
 *
 * Blocks name no method, so a block is attributed by checking its events against each method's instructions
 * (instruction ranges, OPERATOR_CALL on a KernelCall, native_call_<op> on a kernel of that operator,
 * DELEGATE_CALL and delegate events on a DelegateCall, ...). A block no method agrees with is reported
 * (EtdumpJoin::diagnostics, Severity::Error) and left unjoined rather than joined wrongly.
 *
 * Deliberate differences from ExecuTorch's Inspector: delegate identifiers match the map's keys exactly (the
 * Inspector also accepts keys that are substrings of the identifier); framework events (chain -1: Method::execute,
 * Method::init, Program::load_method) are joined to no instruction (the Inspector gives them instruction 0's
 * handles); every method's maps are used, not only those of "forward".
 */

namespace pte {

/** What the join knows about one method of the program. */
struct EtdumpMethodSource
{
    std::string name;
    /** Points into EtdumpSources::program; null when only ETRecord maps are known (then no block is checked). */
    const ExecutionPlan* plan = nullptr;
    /** AOT debug handles per instruction id (ETRecord debug_handle_map, or ptelens' emission). */
    std::map<std::int64_t, std::vector<std::int64_t>> debugHandles;
    /** Per DelegateCall instruction id: backend and delegate debug identifier -> debug handles. */
    std::map<std::int64_t, DelegateMapEntry> delegateMap;
    /** Graph whose nodes carry the debug handles (the ETRecord's edge program, or the emitted dump); may be null. */
    std::shared_ptr<const ExportedProgram> graph;
    /**
     * Per instruction id, the graph nodes it was emitted from (ptelens' emission: MethodEmitInfo::instructionNodes).
     * Ties the handles the emitter numbered for a dump without debug handles to their nodes.
     */
    std::map<std::int64_t, std::vector<std::string>> instructionNodes;
};

/** The program side of a join. Immutable; shared. */
struct EtdumpSources
{
    std::shared_ptr<const Program> program;
    std::vector<EtdumpMethodSource> methods; ///< in program order

    [[nodiscard]] int methodIndex(std::string_view name) const noexcept;
};

/**
 * Sources for `program` alone, or with an ETRecord's maps and programs (`graphs`: method name -> edge program, as
 * DumpSet::methods), or with ptelens' own emission (EmitterOutput's maps; `graphs` = the emitted dumps).
 */
[[nodiscard]] std::shared_ptr<const EtdumpSources> makeEtdumpSources(std::shared_ptr<const Program> program,
    const EtRecordMaps* maps = nullptr,
    const std::vector<std::pair<std::string, std::shared_ptr<const ExportedProgram>>>& graphs = {});
[[nodiscard]] std::shared_ptr<const EtdumpSources> makeEtdumpSources(std::shared_ptr<const Program> program,
    const EmitterOutput& emitted,
    const std::vector<std::pair<std::string, std::shared_ptr<const ExportedProgram>>>& graphs);

/** What an ETDump event block is, from its name. */
enum class EtdumpRunKind : std::uint8_t
{
    Load, ///< "Default": Program::load_method
    Execute, ///< "Execute": Method::execute
    Other, ///< a user-named block
};

/** How a delegate event's identifier was resolved. */
enum class DelegateMapping : std::uint8_t
{
    NotDelegate, ///< not a delegate event
    Mapped, ///< the identifier is a key of the call's delegate map
    Unmapped, ///< the call has a delegate map, without this identifier (XNNPACK's maps are empty)
    NoMap, ///< no delegate map for the call (no ETRecord or emission maps)
    /** Not resolved through a map: the event was aligned with an inner node, whose handles it takes (XNNPACK's
     *  labels; pte/alignedsources.h). */
    Aligned,
};

/**
 * The join of one event block (parallel to EtDump::runs): its kind, the method it was attributed to, and when it could
 * not be joined, why.
 */
struct EtdumpRunJoin
{
    EtdumpRunKind kind = EtdumpRunKind::Other;
    std::int32_t method = -1; ///< index in EtdumpSources::methods; -1 = not attributed
    bool joined = false; ///< its events were joined to the method's instructions
    std::string problem; ///< why it was not joined (a mismatch), empty otherwise
    /** A block not joined: its first event that disagrees, with the instruction it disagrees with. */
    std::string disagreement;
    std::int32_t checkedMethod = -1; ///< a block not joined: the method it disagrees with least
    std::size_t instructionsReached = 0; ///< a block not joined: chain 0's instructions its events reach
    std::size_t instructionsExpected = 0; ///< a block not joined: chain 0's instructions of checkedMethod
};

/** The join of one event (parallel to EtDump::events). */
struct EtdumpEventJoin
{
    std::int32_t method = -1;
    std::int32_t chain = -1;
    std::int32_t instruction = -1; ///< -1: not tied to an instruction (framework event, unjoined block)
    std::int32_t value = -1; ///< Debug: the program value it logged (-1 unknown)
    std::int32_t outputIndex = -1; ///< Debug: which method output it is (-1: not an output)
    std::uint32_t handlesBegin = 0; ///< debug handles in EtdumpJoin::handles
    std::uint32_t handlesCount = 0;
    DelegateMapping mapping = DelegateMapping::NotDelegate;
    bool valueMismatch = false; ///< Debug: dtype or static shape differ from the program value
};

/** Options of joinEtdump. */
struct EtdumpJoinOptions
{
    /** Attribute every execution block to this method (empty: decide per block from its events). */
    std::string method;
};

/**
 * The joined ETDump. `nodes(method, handles)` gives the graph nodes of debug handles. Findings (mismatched
 * blocks, ambiguous attributions, logged values that disagree with the program) are in `diagnostics`.
 */
struct EtdumpJoin
{
    std::shared_ptr<const EtDump> dump;
    std::shared_ptr<const EtdumpSources> sources;
    std::vector<EtdumpRunJoin> runs;
    std::vector<EtdumpEventJoin> events;
    std::vector<std::int64_t> handles;
    Diagnostics diagnostics;

    [[nodiscard]] std::span<const std::int64_t> handlesOf(const EtdumpEventJoin& e) const noexcept
    {
        return std::span<const std::int64_t>(handles).subspan(e.handlesBegin, e.handlesCount);
    }
    /** Indices into the method's graph nodes carrying any of `handles`, in handle order, each once. */
    [[nodiscard]] std::vector<std::uint32_t> nodes(int method, std::span<const std::int64_t> handles) const;
    /** Whether any block could not be joined (the program does not match the ETDump). */
    [[nodiscard]] bool hasMismatch() const noexcept;
    /**
     * The mismatch in one sentence, about the ETDump (not the program): "this ETDump was recorded from another
     * program: 14 instructions expected, 36 found" when its events reach past the method's instructions, else its
     * first event that disagrees. Empty without a mismatch.
     */
    [[nodiscard]] std::string mismatchSummary() const;
    /** The instruction an event ran in, or nullptr. */
    [[nodiscard]] const Instruction* instruction(const EtdumpEventJoin& e) const noexcept;

    /** Per method: debug handle -> graph node indices (filled by joinEtdump). */
    std::vector<std::unordered_map<std::int64_t, std::vector<std::uint32_t>>> handleNodes;
};

/**
 * Joins `dump` with `sources` (which may have no methods: then only the blocks' kinds are set). Never fails on a
 * mismatch: it is reported in the result. @returns InvalidInput when options.method names no method.
 */
[[nodiscard]] Result<std::shared_ptr<const EtdumpJoin>> joinEtdump(std::shared_ptr<const EtDump> dump,
    std::shared_ptr<const EtdumpSources> sources, const EtdumpJoinOptions& options = {});

/**
 * The name of the kernel event the runtime's generated wrapper opens for an operator: "native_call_" + the name
 * without namespace + "." + overload (aten::convolution.out -> native_call_convolution.out).
 */
[[nodiscard]] std::string kernelEventName(const Operator& op);

/** Inspector's op-type name of a graph node: "aten.convolution.default" (namespace.op.overload). */
[[nodiscard]] std::string nodeOpType(const Node& node);

} // namespace pte
