// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// The interpreter's tensor: dtype, sizes, dim order and a data pointer, with element reads and writes.
#pragma once

#include "pte/program.h"

#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <numeric>
#include <vector>

namespace pte::interp {

struct TensorState
{
    ScalarType dtype = ScalarType::Float;
    std::vector<std::int64_t> sizes;
    /** The order of the dimensions in memory, outermost first (ExecuTorch's dim order); empty = contiguous. */
    std::vector<std::uint8_t> dimOrder;
    ShapeDynamism dynamism = ShapeDynamism::Static;
    std::uint8_t* data = nullptr;
    std::size_t capacity = 0; ///< bytes available at data

    [[nodiscard]] std::size_t numel() const
    {
        return std::size_t(std::accumulate(sizes.begin(), sizes.end(), std::int64_t(1), std::multiplies<>()));
    }
    [[nodiscard]] bool contiguous() const
    {
        for (std::size_t k = 0; k < dimOrder.size(); ++k)
            if (dimOrder[k] != k)
                return false;
        return true;
    }
    /** Where element `i` (row-major over the sizes, as kernels index) lives in memory under the dim order. */
    [[nodiscard]] std::size_t physical(std::size_t i) const
    {
        if (contiguous() || dimOrder.size() != sizes.size())
            return i;
        std::array<std::size_t, 16> stride {};
        std::size_t st = 1;
        for (std::size_t k = dimOrder.size(); k-- > 0;) {
            stride[dimOrder[k]] = st;
            st *= std::size_t(sizes[dimOrder[k]]);
        }
        std::size_t index = 0;
        for (std::size_t k = sizes.size(); k-- > 0;) {
            index += (i % std::size_t(sizes[k])) * stride[k];
            i /= std::size_t(sizes[k]);
        }
        return index;
    }
    /** Element `i` (row-major) as a double; NaN for a dtype the interpreter does not hold. */
    [[nodiscard]] double get(std::size_t i) const;
    /** Stores `v` converted to the dtype (C++ conversion; Half and BFloat16 round to nearest even). */
    void set(std::size_t i, double v);
};

/** The element types the interpreter reads and writes (get/set). */
bool supportedDtype(ScalarType t);
/**
 * The element types a loaded method may hold: supportedDtype, and complex64 (ComplexFloat), whose bytes only the
 * kernels registered for it read (KernelEntry::complex); any other kernel refuses such a tensor by operator name.
 */
bool heldDtype(ScalarType t);

} // namespace pte::interp
