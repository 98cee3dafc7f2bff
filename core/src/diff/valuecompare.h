// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include "diff/matching.h"
#include "diff/methodview.h"
#include "pte/programdiff.h"

#include <cstdint>
#include <string>
#include <vector>

namespace pte::diff {

/** One field of a value that differs between the two sides. */
struct FieldDifference
{
    DiffCategory category = DiffCategory::Value;
    std::string field;
    std::string a;
    std::string b;
    bool strictOnly = false;
};

/**
 * The fields of matched values %x (A) and %y (B) that differ. Tensors: dtype, sizes, dim order, storage offset,
 * layout, shape dynamism, storage (constant, planned, external, none), memory id and offset (category MemoryPlan),
 * FQN and device; with `strict` also requires_grad, data_buffer_idx and mutable_data_segments_idx. Scalars and
 * literal lists by value; index lists item by item through `values` (or by content for Int items). Constant bytes are
 * not read here.
 */
void compareValueFields(const MethodView& a, std::int64_t x, const MethodView& b, std::int64_t y,
    const Matching& values, bool strict, std::vector<FieldDifference>& out);

/**
 * Whether %x (A) and %y (B) are interchangeable by content alone: None, Int, Bool, Double, String, DoubleList,
 * BoolList with equal contents, or IntLists whose items are equal Ints. Tensors never are (their identity matters).
 */
[[nodiscard]] bool sameLiteral(const MethodView& a, std::int64_t x, const MethodView& b, std::int64_t y);

/** "constant", "planned", "planned with initial state", "external", "none" */
[[nodiscard]] std::string storageKind(const Tensor& t);

} // namespace pte::diff
