// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include "diff/methodview.h"
#include "diff/sequencealignment.h"

#include <cstdint>
#include <span>
#include <vector>

namespace pte::diff {

/** A one-to-one correspondence between the elements of two tables (-1 = unmatched). */
struct Matching
{
    std::vector<std::int32_t> aToB;
    std::vector<std::int32_t> bToA;
};

/**
 * Matches the values of two methods whatever their numbering. Every two-sided row whose instructions are similar
 * (same kind and operator) votes for its arguments position by position (weight 2), and the method inputs and
 * outputs position by position (weight 1), so that the instructions' evidence wins over a reordered signature; list
 * values pass their votes on to their items. Pairs are taken by decreasing weight, each value at most once. Values
 * left over are paired when their content is identical (kind, dtype, shape, dim order, memory placement, literal
 * contents), in index order: unreferenced values and those of inserted or removed rows that did not change.
 */
[[nodiscard]] Matching matchValues(const MethodView& a, const MethodView& b, std::span<const AlignedPair> rows,
    std::span<const std::uint64_t> similarA, std::span<const std::uint64_t> similarB);

/**
 * Matches the delegates of two methods: delegate calls on two-sided rows vote for their delegates; those left over
 * are paired by backend id in order.
 */
[[nodiscard]] Matching matchDelegates(const MethodView& a, const MethodView& b, std::span<const AlignedPair> rows);

} // namespace pte::diff
