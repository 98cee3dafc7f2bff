// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <vector>

/**
 * @file
 * The shape rules every stage shares: the strides of a contiguous tensor, numpy broadcasting and the channels-last
 * dim orders. The lowering derives
 * out tensors' dim orders and broadcast shapes from them (int32 sizes, as .pte stores them), the reference
 * interpreter's kernels index and size their tensors with them (int64 sizes), pte::tensorElements walks weights
 * with them. Templates on the size type, so that each caller keeps its own.
 */

namespace pte {

/**
 * Row-major strides of a contiguous tensor of `sizes`, in elements: the last dimension's is 1, each other the product
 * of the sizes after it, where a size 0 counts as 1 (as torch computes contiguous strides, so an empty tensor keeps
 * the dim order of a non-empty one).
 */
template <typename Stride = std::int64_t, typename Size>
[[nodiscard]] std::vector<Stride> contiguousStrides(const std::vector<Size>& sizes)
{
    std::vector<Stride> strides(sizes.size());
    Stride stride = 1;
    for (std::size_t k = sizes.size(); k-- > 0;) {
        strides[k] = stride;
        stride *= Stride(std::max<Size>(sizes[k], 1));
    }
    return strides;
}

/**
 * Numpy broadcasting of two shapes: aligned at the last dimension, the missing leading ones counting as 1; two sizes
 * match when equal or when one is 1 (the other is the result's). nullopt when they do not broadcast.
 */
template <typename Size>
[[nodiscard]] std::optional<std::vector<Size>> broadcastShapes(const std::vector<Size>& a, const std::vector<Size>& b)
{
    const std::size_t n = std::max(a.size(), b.size());
    std::vector<Size> out(n, 1);
    for (std::size_t k = 0; k < n; ++k) {
        const Size x = k + a.size() < n ? 1 : a[k + a.size() - n];
        const Size y = k + b.size() < n ? 1 : b[k + b.size() - n];
        if (x != y && x != 1 && y != 1)
            return std::nullopt;
        out[k] = x == 1 ? y : x;
    }
    return out;
}

/**
 * Whether a dim order is torch's channels_last (rank 4: [0, 2, 3, 1]) or channels_last_3d (rank 5: [0, 2, 3, 4, 1]):
 * the batch first, the channels last, the spatial dimensions in order between them.
 */
template <typename Dim> [[nodiscard]] bool isChannelsLastDimOrder(const std::vector<Dim>& order)
{
    if (order.size() != 4 && order.size() != 5)
        return false;
    if (order.front() != 0 || order.back() != 1)
        return false;
    for (std::size_t k = 1; k + 1 < order.size(); ++k)
        if (std::size_t(order[k]) != k + 1)
            return false;
    return true;
}

} // namespace pte
