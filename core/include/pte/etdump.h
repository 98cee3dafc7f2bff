// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include "pte/bytes.h"
#include "pte/diagnostic.h"
#include "pte/program.h"
#include "pte/result.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

/**
 * @file
 * ETDump (`.etdp`, identifier ED00): what ExecuTorch's runtime recorded while it loaded and ran methods. Event
 * blocks ("Default" for a method load, "Execute" for an execution) hold profile events (named tick intervals,
 * per instruction and per delegate operator), debug events (logged values: intermediate and program outputs,
 * whose tensor bytes live in a separate debug buffer file) and allocation events.
 *
 * The model mirrors the file: one EtdumpRun per RunData, one EtdumpEvent per Event, in file order (which is
 * the order events *ended*: a kernel event comes before the OPERATOR_CALL that encloses it). Defaults the
 * writer omits are applied. Strings (event names, delegate identifiers) are interned: an event holds indices
 * into EtDump::strings, so a million events cost no allocations per event.
 */

namespace pte {

/** The event-block layouts ETDumps were written with (the version field stayed 0, so it cannot tell). */
enum class EtdumpLayout : std::uint8_t
{
    Auto, ///< decide from the file (read options only)
    Current, ///< v0.2.0 and later: RunData {name, bundled_input_index, allocators, events}
    V010, ///< v0.1.0: RunData {name, allocators, events}; debug events not decodable
};
[[nodiscard]] const char* etdumpLayoutName(EtdumpLayout layout) noexcept; ///< "auto", "current", "v0.1.0"

/** ValueType of a logged value (the `val` tag of the schema's Value table). */
enum class EtdumpValueType : std::int8_t
{
    Null = 0,
    Int = 1,
    Bool = 2,
    Float = 3,
    Double = 4,
    Tensor = 5,
    TensorList = 6,
    String = 7,
};
[[nodiscard]] const char* etdumpValueTypeName(EtdumpValueType type) noexcept; ///< "Tensor", "?" when unknown

/** A logged tensor: metadata in the ETDump, bytes in the debug buffer. */
struct EtdumpTensor
{
    ScalarType scalarType = ScalarType::Byte;
    std::vector<std::int64_t> sizes;
    std::vector<std::int64_t> strides;
    std::int64_t offset = -1; ///< byte offset in the debug buffer; -1 = no bytes (an empty tensor)

    /** prod(sizes) (1 for rank 0); nullopt for a negative size or on overflow. */
    [[nodiscard]] std::optional<std::uint64_t> numel() const noexcept;
    /** numel x element size: the bytes the runtime copied to the debug buffer; nullopt when unknown. */
    [[nodiscard]] std::optional<std::uint64_t> nbytes() const noexcept;
};

/** A logged value (Value table). Which members are meaningful depends on `type`. */
struct EtdumpValue
{
    EtdumpValueType type = EtdumpValueType::Null;
    std::vector<EtdumpTensor> tensors; ///< Tensor: one; TensorList: its tensors
    std::int64_t intValue = 0;
    double doubleValue = 0; ///< Double, and Float widened
    bool boolValue = false;
    std::string stringValue;
    bool output = false; ///< marked as a program output (logged after the last instruction)
};

/** Which member of an ETDump Event is set: a profile, debug or allocation event. */
enum class EtdumpEventKind : std::uint8_t
{
    Profile,
    Debug,
    Allocation,
    Empty, ///< none of the three members set (the schema requires exactly one)
};

/** "No string": an absent name or delegate identifier. */
inline constexpr std::uint32_t kEtdumpNoString = 0xffffffffu;

/**
 * One Event. Fields of the other kinds keep their defaults. Strings are indices into EtDump::strings
 * (kEtdumpNoString when absent).
 */
struct EtdumpEvent
{
    std::uint64_t startTime = 0; ///< Profile: ticks (nanoseconds on POSIX runtimes; cycles on some ports)
    std::uint64_t endTime = 0; ///< Profile
    /**
     * The chain. Profile events store an int32, debug events an uint64 in which -1 (outside any instruction)
     * reads 2^64-1; both are kept here as signed, so -1 means "not in an instruction" for either kind.
     */
    std::int64_t chainIndex = 0;
    std::int32_t instructionId = -1; ///< index in chains[chain].instructions (the runtime's "debug handle")
    std::int32_t delegateDebugIdInt = -1; ///< -1 = none
    std::uint32_t name = kEtdumpNoString; ///< Profile: scope name (absent on delegate events); Debug: name
    std::uint32_t delegateDebugIdStr = kEtdumpNoString; ///< an empty string reads as none, as in the Inspector
    std::uint32_t metadataOffset = 0; ///< Profile: delegate_debug_metadata bytes, as a file offset ...
    std::uint32_t metadataSize = 0; ///< ... and size (see EtDump::delegateMetadata)
    std::uint32_t payload = 0; ///< Debug: index in EtDump::values; Allocation: index in EtDump::allocations
    std::uint32_t fileOffset = 0; ///< byte offset of the Event table in the file
    EtdumpEventKind kind = EtdumpEventKind::Empty;
    bool hasMetadata = false; ///< Profile: delegate_debug_metadata present (always, maybe empty, on delegate events)

    /** A delegate event: it carries an int (>= 0 counts, 0 is valid) or a string delegate debug identifier. */
    [[nodiscard]] bool isDelegateEvent() const noexcept
    {
        return delegateDebugIdInt != -1 || delegateDebugIdStr != kEtdumpNoString;
    }
    /** Inside an instruction (chain >= 0); framework events (Method::execute, ...) have chain -1. */
    [[nodiscard]] bool inInstruction() const noexcept { return chainIndex >= 0 && instructionId >= 0; }
};

/** An allocation event (AllocationEvent): which of the run's allocators, and how many bytes. */
struct EtdumpAllocation
{
    std::int32_t allocatorId = 0; ///< 1-based: id k names the run's allocators[k-1]
    std::uint64_t size = 0;
};

/** One event block (RunData). Its events are EtDump::events[firstEvent, firstEvent + eventCount). */
struct EtdumpRun
{
    std::string name; ///< "Default" (a method load), "Execute" (an execution), or any block name
    std::int32_t bundledInputIndex = -1;
    std::vector<std::string> allocators;
    std::uint32_t firstEvent = 0;
    std::uint32_t eventCount = 0;
    bool hasEvents = false; ///< the events vector is present (absent for an empty block)
    std::uint32_t fileOffset = 0; ///< byte offset of the RunData table
};

/**
 * An ETDump opened read-only, with its debug buffer when one was given or found. Immutable; share as
 * shared_ptr<const EtDump>. The file and the debug buffer are memory-mapped: tensor bytes are views.
 */
struct EtDump
{
    std::string path;
    Bytes file; ///< the whole file
    bool sizePrefixed = true; ///< written by ETDumpGen (4-byte size prefix); false for Python-written buffers
    EtdumpLayout layout = EtdumpLayout::Current;
    std::uint32_t version = 0;
    std::vector<EtdumpRun> runs;
    std::vector<EtdumpEvent> events; ///< all runs' events, in file order
    std::vector<EtdumpValue> values; ///< debug events' values (EtdumpEvent::payload)
    std::vector<EtdumpAllocation> allocations; ///< allocation events (EtdumpEvent::payload)
    std::vector<std::string> strings; ///< interned names and delegate identifiers
    std::string debugBufferPath; ///< empty when there is none
    Bytes debugBuffer; ///< the mapped debug buffer (empty when none)
    Diagnostics diagnostics;

    /** An interned string ("" for kEtdumpNoString). */
    [[nodiscard]] std::string_view string(std::uint32_t id) const noexcept
    {
        return id < strings.size() ? std::string_view(strings[id]) : std::string_view();
    }
    [[nodiscard]] std::span<const EtdumpEvent> runEvents(const EtdumpRun& run) const noexcept
    {
        return std::span<const EtdumpEvent>(events).subspan(run.firstEvent, run.eventCount);
    }
    /** The profile event's scope name ("" for delegate events, which have none). */
    [[nodiscard]] std::string_view eventName(const EtdumpEvent& e) const noexcept { return string(e.name); }
    /** The delegate debug identifier as text: the int id in decimal, else the string id, else "". */
    [[nodiscard]] std::string delegateIdentifier(const EtdumpEvent& e) const;
    /** A profile event's delegate_debug_metadata (a view of the file; empty when absent). */
    [[nodiscard]] Bytes delegateMetadata(const EtdumpEvent& e) const;
    /** A debug event's value, or nullptr for other kinds. */
    [[nodiscard]] const EtdumpValue* value(const EtdumpEvent& e) const noexcept
    {
        return e.kind == EtdumpEventKind::Debug && e.payload < values.size() ? &values[e.payload] : nullptr;
    }
    /**
     * The bytes of a logged tensor in the debug buffer (a view, never a copy).
     * @returns OutOfRange when there is no debug buffer, the tensor has no bytes (offset -1) or its bytes run past
     *   the end of the buffer; Unsupported for a dtype without an element size.
     */
    [[nodiscard]] Result<Bytes> tensorData(const EtdumpTensor& t) const;
    /** Number of profile, debug and allocation events. */
    [[nodiscard]] std::size_t count(EtdumpEventKind kind) const noexcept;
};

/** How an ETDump is read (readEtdumpFile, readEtdumpBytes): its debug buffer, block layout and verifier limits. */
struct EtdumpReadOptions
{
    /** The debug buffer (FileDataSink / debug_output.bin); empty = look next to the file. */
    std::string debugBufferPath;
    /** Without debugBufferPath: try "<stem>.bin", "<stem>_debug.bin", "debug_output.bin", "debug.bin" beside the
     *  file, keeping the first one that holds every logged tensor. */
    bool findDebugBufferNextToFile = true;
    /** Auto decides between the current and the v0.1.0 block layout; the other values force one. */
    EtdumpLayout layout = EtdumpLayout::Auto;
    std::uint32_t maxDepth = 64;
    std::uint32_t maxTables = 1u << 28; ///< a 1M-event dump has ~2M tables
};

/**
 * Opens an ETDump (memory-mapped), size-prefixed (ED00 at byte 8, as the runtime writes) or not (ED00 at byte 4,
 * as Python tooling writes), of either block layout. The flatbuffers verifier runs first; when it refuses the
 * buffer, a structural walk names the first bad table, vector or string by byte offset and field path
 * ("run_data[1].events[7].profile_event.name").
 * @returns Io when the file cannot be read; NotAPteFile (wrong kind of file: a .pte, a bundled program, ...)
 *   naming what it is; Truncated when the size prefix or an offset runs past the end; VerificationFailed with
 *   offset and field path for a corrupt buffer; Unsupported above the flatbuffers 2 GiB limit.
 *   Non-fatal findings (trailing bytes, allocation events naming no allocator, tensors outside the debug buffer,
 *   no debug buffer for logged tensors, undecodable v0.1.0 debug events) are diagnostics.
 */
[[nodiscard]] Result<std::shared_ptr<const EtDump>> readEtdumpFile(
    const std::string& path, const EtdumpReadOptions& options = {});

/** Same from bytes in memory (`name` is used in messages); `debugBuffer` may be empty. No file-system lookups. */
[[nodiscard]] Result<std::shared_ptr<const EtDump>> readEtdumpBytes(
    Bytes bytes, const std::string& name, Bytes debugBuffer = {}, const EtdumpReadOptions& options = {});

/** True when the bytes look like an ETDump (ED00 at byte 8 with a size prefix, or at byte 4). */
[[nodiscard]] bool looksLikeEtdump(std::span<const std::uint8_t> head) noexcept;

} // namespace pte
