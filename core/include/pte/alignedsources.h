// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include "pte/delegateetdump.h"
#include "pte/delegatelink.h"
#include "pte/profiletable.h"

#include <span>

/**
 * @file
 * Source nodes for the delegate events ExecuTorch's Inspector cannot resolve (docs/delegate-payloads.md, Joining with
 * ETRecord and ETDump). XNNPACK names its operator events by label ("Convolution (NHWC, F32) IGEMM #3"), which no
 * delegate map holds, so the Inspector leaves their op types, stack traces and module hierarchy empty. Once the events
 * are aligned with the inner nodes (alignEtdumpDelegates), each placed event takes its node's debug handles and the
 * source nodes they link to (linkProgramDelegate), plus the handles the backend fused into that node.
 */

namespace pte {

/**
 * Fills the delegated-operator rows of `table` that their delegate map did not resolve (mapping other than Mapped)
 * and whose first run's event `alignment` placed on an inner node: debugHandles (the node's own, then those absorbed
 * into it; backend-inserted 65535 left out), opTypes, stackTraces and moduleHierarchy of the linked source nodes, and
 * mapping = Aligned. `delegates` and `links` are parallel and are the delegates the alignment was made over (links may
 * be empty: handles only). Rows with nothing to add are left as they are; `nodes` (method-graph nodes) is unchanged,
 * the source nodes live in the lowered modules' graphs.
 * @returns how many rows were filled.
 */
std::size_t attachAlignedSources(ProfileTable& table, const EtdumpDelegateAlignment& alignment,
    std::span<const ProgramDelegate> delegates, std::span<const DelegateLinks> links);

} // namespace pte
