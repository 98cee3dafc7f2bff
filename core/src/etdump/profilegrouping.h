// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

// Private to the Inspector table: the signatures of a run's events (profile and debug events grouped by
// instruction and delegate identifiers, as the Inspector groups them), by which identical runs are merged.

#include "pte/etdump.h"

#include <cstdint>
#include <span>
#include <vector>

namespace pte::etdump {

/** (name or "", instruction or none, int id or none, str id or none), strings canonical (absent == ""). */
struct SubSignature
{
    bool present = false;
    std::uint32_t name = kEtdumpNoString;
    std::int32_t instruction = -1;
    std::int32_t idInt = -1;
    std::uint32_t idStr = kEtdumpNoString;
    bool operator==(const SubSignature&) const = default;
};

struct EventSignature
{
    std::int32_t instruction = -1;
    SubSignature profile;
    SubSignature debug;
    bool operator==(const EventSignature&) const = default;
};
/** One signature's events in one run: its profile event and the InstructionEvent group holding its debug events. */
struct SignatureEvents
{
    std::uint32_t profile = kEtdumpNoString; ///< event index, or none
    std::uint32_t group = 0; ///< index into RunSignatures::debugStart
};

struct RunSignatures
{
    /** Kept for the first run of each block only (the others are compared with it, then give theirs back). */
    std::vector<EventSignature> signatures;
    std::vector<SignatureEvents> events;
    std::vector<std::uint32_t> debugStart; ///< per group, then one past the last: its debug events in `debug`
    std::vector<std::uint32_t> debug; ///< every group's debug events, grouped, in order
    std::vector<std::uint32_t> outputs;
    std::uint64_t hash = 0;

    [[nodiscard]] std::span<const std::uint32_t> debugOf(const SignatureEvents& e) const
    {
        return std::span<const std::uint32_t>(debug).subspan(
            debugStart[e.group], debugStart[e.group + 1] - debugStart[e.group]);
    }
};

class Canonical
{
public:
    explicit Canonical(const EtDump& dump)
        : m_dump(dump)
    { }
    /** The id of a string, with "" and absent as the same value. */
    [[nodiscard]] std::uint32_t id(std::uint32_t s) const { return m_dump.string(s).empty() ? kEtdumpNoString : s; }
    /** Equal strings interned twice (not done by the reader) would still compare by id, which is fine. */

    [[nodiscard]] SubSignature of(const EtdumpEvent& e) const
    {
        SubSignature s;
        s.present = true;
        s.name = id(e.name);
        s.instruction = e.instructionId;
        s.idInt = e.delegateDebugIdInt;
        s.idStr = id(e.delegateDebugIdStr);
        return s;
    }

private:
    const EtDump& m_dump;
};

/** The run's signatures and their events; `spare` is storage to reuse for the signatures (a previous run's). */
[[nodiscard]] RunSignatures signaturesOf(
    const EtDump& dump, const EtdumpRun& run, const Canonical& canon, std::vector<EventSignature>&& spare);

} // namespace pte::etdump
