// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// Shape arithmetic the interpreter's kernels share: broadcasting, dimensions, strides and reductions (contiguous
// strides and broadcast shapes are pte/tensorshape.h's, the rules the lowering uses too).
#pragma once

#include "pte/tensorshape.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

namespace pte::interp {

/** The broadcast shape of `a` and `b` (pte::broadcastShapes); empty when they do not broadcast, as the kernels test
 *  it (together with "not both scalars"). */
inline std::vector<std::int64_t> broadcastShape(const std::vector<std::int64_t>& a, const std::vector<std::int64_t>& b)
{
    return broadcastShapes(a, b).value_or(std::vector<std::int64_t>());
}

/** The linear index into a tensor of `in` sizes that broadcasts to output position `linear` of `out` sizes. */
inline std::size_t broadcastIndex(
    const std::vector<std::int64_t>& out, const std::vector<std::int64_t>& in, std::size_t linear)
{
    std::size_t index = 0;
    std::size_t stride = 1;
    for (std::size_t k = out.size(); k-- > 0;) {
        const std::size_t coord = linear % std::size_t(out[k]);
        linear /= std::size_t(out[k]);
        const std::size_t inDim = k + in.size() >= out.size() ? k + in.size() - out.size() : SIZE_MAX;
        if (inDim == SIZE_MAX)
            continue;
        const auto size = std::size_t(in[inDim]);
        index += (size == 1 ? 0 : coord) * stride;
        stride *= size;
    }
    return index;
}

/** `d` as a dimension of a tensor of rank `rank` (negative counts back); nullopt when out of range or rank is 0. */
inline std::optional<std::size_t> dimIndex(double d, std::int64_t rank)
{
    if (rank == 0 || d < double(-rank) || d >= double(rank))
        return std::nullopt;
    return std::size_t((std::int64_t(d) + rank) % rank);
}

/** The product of `sizes[from..]`: the elements of one step of dimension `from - 1` (1 when `from` is the rank). */
inline std::size_t numelFrom(const std::vector<std::int64_t>& sizes, std::size_t from)
{
    std::size_t n = 1;
    for (std::size_t k = from; k < sizes.size(); ++k)
        n *= std::size_t(sizes[k]);
    return n;
}

/**
 * Where input element `e` (row-major over `sizes`) lands in a reduction over the dimensions marked in `reduce`: its
 * position in the output (the kept dimensions, row-major), and its coordinate along the outermost reduced dimension.
 */
inline std::pair<std::size_t, std::size_t> reducedPosition(
    const std::vector<std::int64_t>& sizes, const std::vector<bool>& reduce, std::size_t e)
{
    std::size_t index = 0;
    std::size_t stride = 1;
    std::size_t along = 0;
    for (std::size_t k = sizes.size(); k-- > 0;) {
        const std::size_t coord = e % std::size_t(sizes[k]);
        e /= std::size_t(sizes[k]);
        if (reduce[k]) {
            along = coord;
            continue;
        }
        index += coord * stride;
        stride *= std::size_t(sizes[k]);
    }
    return { index, along };
}

/** A reduction over `dims` (every dimension when empty): which dimensions it removes and its output shape (kept
 *  as 1 with `keep`); nullopt when a dimension is out of range. */
inline std::optional<std::pair<std::vector<bool>, std::vector<std::int64_t>>> reduction(
    const std::vector<std::int64_t>& sizes, const std::vector<std::int64_t>& dims, bool keep)
{
    const auto rank = std::int64_t(sizes.size());
    std::vector<bool> reduce(sizes.size(), dims.empty());
    for (const auto d : dims) {
        if (d < -rank || d >= rank)
            return std::nullopt;
        reduce[std::size_t((d + rank) % rank)] = true;
    }
    std::vector<std::int64_t> shape;
    for (std::size_t k = 0; k < sizes.size(); ++k)
        if (!reduce[k])
            shape.push_back(sizes[k]);
        else if (keep)
            shape.push_back(1);
    return std::pair { std::move(reduce), std::move(shape) };
}

} // namespace pte::interp
