// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

// A structural walk over a flatbuffer described by a small table of field kinds, used after the flatbuffers
// verifier refused a buffer: the verifier only says "no", the walk says where (byte offset and field path).

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace pte::etdump {

struct WalkTable;

enum class WalkFieldKind : std::uint8_t
{
    Scalar, ///< `size` bytes inline
    String,
    Table, ///< `table`
    ScalarVector, ///< elements of `size` bytes
    TableVector, ///< elements are `table`
    StringVector,
};

struct WalkField
{
    const char* name;
    WalkFieldKind kind;
    std::uint8_t size = 0; ///< scalar or element size
    const WalkTable* table = nullptr;
};

struct WalkTable
{
    const char* name;
    std::vector<WalkField> fields; ///< index = slot
};

/** The first structural problem found: where and what. */
struct WalkProblem
{
    std::uint64_t offset = 0;
    std::string fieldPath;
    std::string what;
};

/**
 * Walks the buffer from the root table at `rootOffset` (an absolute offset of the uoffset that points to the
 * root, i.e. 0 for a plain buffer, 4 for a size-prefixed one). Checks every vtable, field, vector and string
 * lies inside `buffer`, strings end in NUL, nesting stays under `maxDepth`, and scalars of 2, 4 and 8 bytes
 * are aligned. @returns the first problem, or nullopt when the walk found none.
 */
[[nodiscard]] std::optional<WalkProblem> walkFlatbuffer(
    std::span<const std::uint8_t> buffer, std::size_t rootOffset, const WalkTable& root, std::uint32_t maxDepth);

} // namespace pte::etdump
