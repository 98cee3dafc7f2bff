// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include "pte/delegateprofile.h"
#include "pte/etdump.h"

#include <cstdint>
#include <vector>

/**
 * @file
 * The delegated profile events of an ETDump (pte/etdump.h), grouped as alignXnnpackEvents (pte/delegateprofile.h)
 * takes them: per execution block and per (chain, instruction), in file order (delegate-payloads.md 2.7).
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

} // namespace pte
