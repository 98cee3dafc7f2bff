// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include "pte/delegatepayload.h"

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

/**
 * @file
 * Aligning a delegate's profiling events with its inner nodes. XNNPACK events carry no node index or handle, only
 * XNNPACK's operator label ("Convolution (NHWC, F32) IGEMM #3"), so the association is rebuilt by order
 * (docs/delegate-payloads.md, XNNPACK events; Matching events to nodes): the events of one delegate call follow the
 * runtime operators, which follow the xnodes, minus the nodes XNNPACK fused away.
 *
 * The input is deliberately small (a list of labels and times per delegate call) so that any ETDump reader can
 * feed it: group a run's ProfileEvents by (chain_index, instruction_id), keep the delegated ones
 * (`delegate_debug_id_str` set) in file order.
 */

namespace pte {

/** One delegated profiling event. */
struct DelegateProfileEvent
{
    std::string label; ///< delegate_debug_id_str, e.g. "Fully Connected (NC, F32) GEMM #2"
    std::uint64_t startTime = 0;
    std::uint64_t endTime = 0;
};

/** The delegated events of one execution of one DelegateCall instruction, in order. */
struct DelegateEventGroup
{
    std::int32_t chainIndex = 0;
    std::int32_t instructionId = -1;
    std::vector<DelegateProfileEvent> events;
};

/** How well a delegate call's events were paired with its inner nodes (docs/delegate-payloads.md). */
enum class AlignmentQuality : std::uint8_t
{
    Exact, ///< one event per node, every pair compatible, no node skipped
    Approximate, ///< every event placed, but nodes XNNPACK may fuse were skipped (or label counters were irregular)
    Failed, ///< an event could not be placed, or a node that cannot be fused got no event
};
[[nodiscard]] const char* alignmentQualityName(AlignmentQuality q) noexcept; ///< "exact", "approximate", "failed"

/** Marks an event paired with an operator the runtime adds itself (a Convert around dq / bf16 nodes). */
inline constexpr std::int32_t kRuntimeInsertedNode = -2;
/** Marks an event that could not be placed. */
inline constexpr std::int32_t kUnplacedEvent = -1;

/** The pairing of one delegate call's events with its inner nodes (alignXnnpackEvents), and why it is what it is. */
struct EventAlignment
{
    AlignmentQuality quality = AlignmentQuality::Failed;
    /** Per event: the inner node index, kRuntimeInsertedNode, or kUnplacedEvent. */
    std::vector<std::int32_t> eventNode;
    /** Inner nodes passed over without an event (fused away by XNNPACK, as far as the labels tell). */
    std::vector<std::uint32_t> skippedNodes;
    /** Inner nodes left without an event that XNNPACK cannot fuse away (each makes the alignment fail). */
    std::vector<std::uint32_t> unmatchedNodes;
    /** Why the quality is what it is, one finding per line. */
    std::vector<std::string> notes;
};

/** The label's family: the text before " (" with the " #k" counter removed ("Fully Connected"). */
[[nodiscard]] std::string xnnpackLabelFamily(std::string_view label);

/**
 * Aligns XNNPACK operator events with the payload's xnodes in order: each event is paired with the next compatible
 * node, skipping only nodes XNNPACK can fuse away (clamps, copies and reshapes, constant pads, converts). The
 * runtime's own Converts (before node 0 for each dq_datatype value, after each bf16 FullyConnected) are expected
 * too. A payload that is not a decoded XNNPACK graph gives Failed with a note.
 */
[[nodiscard]] EventAlignment alignXnnpackEvents(
    const DelegatePayload& payload, std::span<const DelegateProfileEvent> events);

} // namespace pte
