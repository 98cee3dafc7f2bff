// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include "pte/delegatepayload.h"
#include "pte/delegateprofile.h"
#include "pte/etdump.h"

#include <cstdint>
#include <span>
#include <string>
#include <vector>

/**
 * @file
 * The delegated profile events of an ETDump (pte/etdump.h), grouped as alignXnnpackEvents (pte/delegateprofile.h)
 * takes them: per execution block and per (chain, instruction), in file order (docs/delegate-payloads.md, XNNPACK
 * events).
 */

namespace pte {

/** The delegated events one instruction recorded in one event block. */
struct EtdumpDelegateGroup
{
    std::uint32_t run = 0; ///< index in EtDump::runs
    DelegateEventGroup group;
    std::vector<std::uint32_t> events; ///< the EtDump::events index of each of group.events
};

/**
 * Every profile event that carries a delegate debug identifier (its label: the string identifier, or the int one
 * in decimal) and lies inside an instruction, grouped per block and (chain, instruction) in the order the groups
 * first appear; the events of a group keep file order. Blocks of every kind are included (the caller picks the
 * "Execute" ones through EtDump::runs). Never fails; an ETDump without delegated events gives an empty list.
 */
[[nodiscard]] std::vector<EtdumpDelegateGroup> etdumpDelegateGroups(const EtDump& dump);

struct EtdumpJoin;

/** One group of delegated events placed on the delegate its DelegateCall ran, and aligned with its inner nodes. */
struct EtdumpDelegateCall
{
    std::size_t group = 0; ///< index in EtdumpDelegateAlignment::groups
    std::size_t delegate = 0; ///< index in the `delegates` given to alignEtdumpDelegates
    EventAlignment alignment;
};

/** An ETDump's delegated events over a program's delegates: what was aligned, and what could not be. */
struct EtdumpDelegateAlignment
{
    std::vector<EtdumpDelegateGroup> groups; ///< etdumpDelegateGroups(dump)
    std::vector<EtdumpDelegateCall> calls; ///< the groups placed on a delegate, in group order
    std::size_t unjoinedGroups = 0; ///< groups of blocks the join refused (the ETDump is another program's)
    std::size_t strayGroups = 0; ///< groups on an instruction that is no DelegateCall of a delegate of the method
    /**
     * Why some delegated events were not aligned, in one sentence (empty when every group was placed): the join's
     * mismatch summary ("this ETDump was recorded from another program: ..."), or the first group that lies on no
     * delegate call.
     */
    std::string problem;
};

/**
 * Places every group of delegated events (per block and (chain, instruction)) on the delegate of `delegates` whose
 * method ran the block (the join's attribution; else the program's only method, or without a join the one method all
 * `delegates` belong to) and that the instruction calls, and aligns it with that delegate's inner nodes
 * (alignXnnpackEvents). Load blocks are passed over. Groups of a block the join did not join (a mismatch) are not
 * aligned: that would tie another program's events to these nodes.
 */
[[nodiscard]] EtdumpDelegateAlignment alignEtdumpDelegates(
    const EtDump& dump, const EtdumpJoin* join, std::span<const ProgramDelegate> delegates);

} // namespace pte
