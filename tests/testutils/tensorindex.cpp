// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "tensorindex.h"

namespace pte::test {

std::size_t numel(const Shape& shape)
{
    std::size_t n = 1;
    for (const auto s : shape)
        n *= std::size_t(s);
    return n;
}

std::size_t rowMajorOffset(const Shape& shape, const Shape& idx)
{
    std::size_t o = 0;
    for (std::size_t d = 0; d < shape.size(); ++d)
        o = o * std::size_t(shape[d]) + std::size_t(idx[d]);
    return o;
}

Values tabulate(const Shape& shape, const std::function<double(const Shape&)>& f)
{
    Values out;
    const std::size_t n = numel(shape);
    out.reserve(n);
    Shape idx(shape.size(), 0);
    for (std::size_t k = 0; k < n; ++k) {
        out.push_back(f(idx));
        for (std::size_t d = shape.size(); d-- > 0;) {
            if (++idx[d] < shape[d])
                break;
            idx[d] = 0;
        }
    }
    return out;
}

} // namespace pte::test
