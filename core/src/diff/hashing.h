// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <cstdint>
#include <string_view>

namespace pte::diff {

/** Mixes a value into a running 64-bit hash (not cryptographic: for keys and hash tables). */
[[nodiscard]] std::uint64_t hashCombine(std::uint64_t seed, std::uint64_t value) noexcept;
/** 64-bit hash of a string. */
[[nodiscard]] std::uint64_t hashString(std::string_view s) noexcept;

} // namespace pte::diff
