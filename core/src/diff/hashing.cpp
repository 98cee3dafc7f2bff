// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "diff/hashing.h"

namespace pte::diff {

std::uint64_t hashCombine(std::uint64_t seed, std::uint64_t value) noexcept
{
    std::uint64_t h = seed ^ (value + 0x9e3779b97f4a7c15ULL + (seed << 6) + (seed >> 2));
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdULL;
    h ^= h >> 33;
    h *= 0xc4ceb9fe1a85ec53ULL;
    h ^= h >> 33;
    return h;
}

std::uint64_t hashString(std::string_view s) noexcept
{
    std::uint64_t h = 0xcbf29ce484222325ULL; // FNV-1a, then mixed
    for (const char c : s) {
        h ^= std::uint8_t(c);
        h *= 0x100000001b3ULL;
    }
    return hashCombine(h, s.size());
}

} // namespace pte::diff
