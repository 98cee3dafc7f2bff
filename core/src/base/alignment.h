// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

// Alignment arithmetic of the file layouts (the writer's segments, the synthetic programs' planned memory; private
// to core).

#include <cstdint>

namespace pte::base {

/** Rounds `value` up to a multiple of `alignment` (> 0). */
[[nodiscard]] constexpr std::uint64_t roundUp(std::uint64_t value, std::uint64_t alignment) noexcept
{
    return (value + alignment - 1) / alignment * alignment;
}

} // namespace pte::base
