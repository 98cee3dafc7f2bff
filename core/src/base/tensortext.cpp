// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "pte/tensortext.h"

namespace pte {

namespace {

template <typename T> std::string sizesOf(std::span<const T> sizes)
{
    std::string s = "[";
    for (std::size_t i = 0; i < sizes.size(); ++i) {
        if (i)
            s += ", ";
        s += std::to_string(sizes[i]);
    }
    return s + "]";
}

} // namespace

std::string sizesText(std::span<const std::int32_t> sizes) { return sizesOf(sizes); }

std::string sizesText(std::span<const std::int64_t> sizes) { return sizesOf(sizes); }

std::string tensorTypeText(ScalarType dtype, std::span<const std::int32_t> sizes)
{
    return scalarTypeShortName(dtype) + sizesText(sizes);
}

std::string tensorTypeText(ScalarType dtype, std::span<const std::int64_t> sizes)
{
    return scalarTypeShortName(dtype) + sizesText(sizes);
}

} // namespace pte
