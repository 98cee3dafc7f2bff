// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include "pte/delegateetdump.h"
#include "pte/delegateprofile.h"
#include "pte/etdump.h"
#include "pte/etdumpjoin.h"
#include "pte/profiletable.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace pte::ui {

struct DelegateInspection;

/** One inner node's profile: the delegate events aligned to it, over every run and call of its delegate. */
struct InnerNodeTiming
{
    std::vector<std::uint32_t> events; ///< EtDump::events indices, in file order
    std::vector<double>
        durations; ///< per delegate call (its events summed), in the Profile table's unit (pte::eventDuration)
    double p10 = 0, p50 = 0, p90 = 0; ///< numpy percentiles of `durations`; NaN without events
    /** The first call's event names ("Fully Connected (NC, F32) GEMM #2"; "Square (NC) #1 + Clamp (NC) #1" for a node
     *  XNNPACK ran as two operators). */
    std::string label;
    /** The worst alignment quality of the calls this node took part in (got an event, skipped or left unmatched). */
    std::optional<pte::AlignmentQuality> quality;
    std::uint32_t skippedCalls = 0; ///< calls that passed over it without an event (fused away, as far as told)
    std::uint32_t unmatchedCalls = 0; ///< calls that left it without an event although it cannot be fused
    std::vector<std::uint32_t> rows; ///< Profile table rows holding its events

    [[nodiscard]] bool hasTimes() const noexcept { return !durations.empty(); }
};

/** One delegate's events aligned with its inner nodes, over all its calls (one per run and DelegateCall). */
struct DelegateTiming
{
    std::uint32_t calls = 0; ///< aligned event groups; 0 when the ETDump has no event of this delegate
    pte::AlignmentQuality quality = pte::AlignmentQuality::Exact; ///< the worst over the calls
    std::vector<std::string> notes; ///< the alignments' notes, each once, in first-seen order
    std::vector<InnerNodeTiming> nodes; ///< per inner node (payload->nodes)
    std::uint32_t runtimeEvents = 0; ///< events paired with a Convert the runtime adds itself
    std::uint32_t unplacedEvents = 0;
};

/**
 * The delegated profile events of an ETDump aligned with the inner nodes of the program's XNNPACK delegates
 * (pte/delegateprofile.h, grouped by pte/delegateetdump.h), computed once with the rest of ProfileData. Indices are
 * those of `inspection`, which is kept; views check it is the snapshot's before using them.
 */
struct DelegateTimes
{
    std::shared_ptr<const DelegateInspection> inspection;
    std::vector<DelegateTiming> delegates; ///< parallel to inspection->delegates (empty without an inspection)
    /** A delegated event (EtDump::events index) -> (delegate, inner node). */
    std::unordered_map<std::uint32_t, std::pair<int, std::uint32_t>> eventNode;
    /** Why some delegated events were not aligned, in one sentence (pte::EtdumpDelegateAlignment::problem): the
     *  ETDump was recorded from another program, or its events lie on no delegate call. Empty otherwise. */
    std::string problem;

    /** The timing of `delegate` when this alignment belongs to `current` and the delegate has events; else null. */
    [[nodiscard]] const DelegateTiming* of(const DelegateInspection* current, int delegate) const;
    /** The (delegate, inner node) a Profile table row's events were aligned to; nullopt for any other row. */
    [[nodiscard]] std::optional<std::pair<int, std::uint32_t>> nodeOfRow(const pte::ProfileRow& row) const;
};

/**
 * Per inner node, the times of `placed` (pte::alignEtdumpDelegates over `inspection`'s delegates: every group of
 * delegated events of the blocks the join attributes to a method and joined, aligned with the inner nodes of the
 * delegate its call ran; a block the join refused, another program's, is not aligned and `problem` says why).
 * Durations are the Profile table's (its time unit); `table` gives each node its rows. Empty when `inspection` is
 * null.
 */
[[nodiscard]] DelegateTimes delegateTimes(const pte::EtDump& dump, const pte::EtdumpDelegateAlignment& placed,
    const pte::ProfileTable& table, std::shared_ptr<const DelegateInspection> inspection);

} // namespace pte::ui
