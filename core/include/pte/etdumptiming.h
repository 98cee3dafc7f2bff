// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include "pte/etdumpjoin.h"
#include "pte/profiletable.h"

#include <cstdint>
#include <vector>

/**
 * @file
 * Measured time per instruction and per graph node, from a joined ETDump: what the Instructions view's time columns
 * and the Graph view's colouring show. Only execution blocks that were joined count; each run is one sample.
 */

namespace pte {

/** One instruction's time over the runs. */
struct InstructionTiming
{
    std::int32_t chain = 0;
    std::int32_t instruction = 0;
    /**
     * Per run: the instruction's scope event (OPERATOR_CALL, DELEGATE_CALL, MOVE_CALL, JF_CALL, FREE_CALL; its kernel
     * event when the scope was not recorded), summed when the instruction ran several times in the run (loops).
     */
    std::vector<double> samples;
    double median = 0, p10 = 0, p90 = 0;
    double share = 0; ///< median / the method's median execution time (0..1; 0 when unknown)
    std::uint32_t executions = 0; ///< scope events over all runs
    std::uint32_t delegateEvents = 0; ///< delegate events inside it, over all runs
};

/** One method's timings. */
struct MethodTiming
{
    std::int32_t method = -1; ///< index in EtdumpSources::methods
    std::uint32_t runs = 0; ///< joined execution blocks
    std::vector<double> executeSamples; ///< Method::execute per run
    double executeMedian = 0;
    std::vector<InstructionTiming> instructions; ///< instructions that were measured, by (chain, instruction)

    [[nodiscard]] const InstructionTiming* find(std::int32_t chain, std::int32_t instruction) const noexcept;
};

/** Timings of every method with at least one joined execution block; durations as in the Inspector (ms default). */
[[nodiscard]] std::vector<MethodTiming> methodTimings(const EtdumpJoin& join, const ProfileOptions& options = {});

/** A graph node's measured time (median over runs). */
struct NodeTiming
{
    std::uint32_t node = 0; ///< index in the method's graph nodes
    double time = 0;
    double share = 0; ///< of the method's median execution time
    /**
     * The time of an instruction or delegate event that maps to several nodes is split evenly among them; a
     * DelegateCall's time not covered by mapped delegate events is split over its nodes. Such times are estimates.
     */
    bool estimated = false;
};

/**
 * Time per graph node of `method` (its EtdumpSources graph): kernel instructions give their time to their nodes,
 * delegate events to the nodes their identifiers map to, the rest of a DelegateCall to the call's nodes.
 */
[[nodiscard]] std::vector<NodeTiming> nodeTimings(
    const EtdumpJoin& join, const MethodTiming& timing, const ProfileOptions& options = {});

} // namespace pte
