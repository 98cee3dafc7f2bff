// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace pte::diff {

/** One row of an alignment: positions in the two sequences, -1 where the row has no element on that side. */
struct AlignedPair
{
    std::int32_t a = -1;
    std::int32_t b = -1;
    friend bool operator==(const AlignedPair&, const AlignedPair&) = default;
};

struct AlignmentOptions
{
    /** Largest edit cost an exact (Myers) middle search may reach before the local search takes over; 0 = local only.
     */
    std::size_t maxExactCost = 16384;
    /** Work of all exact searches together, in steps per element of A and B (plus a constant 4M). */
    std::size_t exactWorkPerElement = 64;
    /** Matching elements in a row that end a run of edits: the alignment resumes there (the end of both counts). */
    std::size_t resyncRun = 4;
    /** Largest edit cost searched element by element after a mismatch; beyond it, K-gram anchors are looked up. */
    std::size_t maxLocalCost = 256;
};

/**
 * Aligns two sequences of keys (equal keys = the same element) so that a few inserted, removed or changed elements
 * show as that many rows, not as every later row changed. The alignment has the least number of one-sided rows
 * (Myers' O(ND) algorithm in linear space: common prefix and suffix trimmed, then split where a least-cost path
 * crosses the middle) as long as each middle search costs at most `maxExactCost` edits and the work stays within
 * 64 x (N + M) steps. Beyond that, a subproblem is aligned locally: walking both sequences, at each mismatch a bounded
 * Myers search runs until a path reaches `resyncRun` equal elements in a row (or the end of both), costing at most
 * `maxLocalCost`; failing that, the nearest `resyncRun`-gram present in both tails is looked up by hashing (windows
 * growing 4x) and the gap before it aligned the same way. Time is near-linear when the differences are local.
 *
 * @returns the rows in order: every element of `a` and of `b` exactly once; rows with both sides have equal keys.
 */
[[nodiscard]] std::vector<AlignedPair> alignSequences(
    std::span<const std::uint64_t> a, std::span<const std::uint64_t> b, const AlignmentOptions& options = {});

/**
 * Turns the one-sided rows of an alignment into "changed" rows where an element of A and one of B are the same
 * instruction, edited. A hunk is a maximal run of one-sided rows; a run of fewer than `absorbBelow` two-sided rows
 * between two one-sided runs joins the hunk (an isolated match inside an edited stretch is often the wrong one). In
 * each hunk the pairs are chosen to maximise a score (3 for equal `primary` keys, 2 for equal `similar` keys) as a
 * common subsequence; the elements left between two pairs are paired by position as far as both sides have some.
 * Order is kept. Hunks larger than 1024 x 1024 are not joined and are paired in order by `similar` keys.
 */
void refineHunks(std::vector<AlignedPair>& rows, std::span<const std::uint64_t> primaryA,
    std::span<const std::uint64_t> primaryB, std::span<const std::uint64_t> similarA,
    std::span<const std::uint64_t> similarB, std::size_t absorbBelow = 4);

} // namespace pte::diff
