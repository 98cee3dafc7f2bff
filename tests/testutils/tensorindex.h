// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Row-major indexing for the expected values the lowering tests compute from PyTorch's definitions: a tensor is its
// shape and its elements in row-major order.

#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

namespace pte::test {

using Shape = std::vector<std::int64_t>;
using Values = std::vector<double>;

/** The number of elements of a tensor of `shape` (1 for a 0-d tensor). */
std::size_t numel(const Shape& shape);

/** The row-major offset of index `idx` in a tensor of `shape`. */
std::size_t rowMajorOffset(const Shape& shape, const Shape& idx);

/** f of every index of `shape`, in row-major order. */
Values tabulate(const Shape& shape, const std::function<double(const Shape&)>& f);

} // namespace pte::test
