// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include "pte/bytes.h"
#include "pte/program.h"
#include "pte/programdiff.h"
#include "pte/result.h"

#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

namespace pte::diff {

/**
 * Whether two views hold the same bytes. Both are read in chunks with ChunkReader (a mapped file is read with pread,
 * its pages never become resident). @returns Io when a file cannot be read, Cancelled when `cancel` is set.
 */
[[nodiscard]] Result<bool> sameBytes(const Bytes& a, const Bytes& b, const std::atomic<bool>* cancel = nullptr);

/** Lower-case hex SHA-256 of the bytes, read in chunks as sameBytes does. */
[[nodiscard]] Result<std::string> sha256OfBytes(const Bytes& bytes, const std::atomic<bool>* cancel = nullptr);

/**
 * Element-wise comparison of two tensors with the same dtype, sizes and dim order whose bytes are `a` and `b` (both
 * `numel * elementSize` long). Integer, floating (f16, bf16, f32, f64) and bool elements are compared as numbers
 * (maxAbs, meanAbs; NaN against a number counts as an infinite difference); other dtypes element by element as bytes.
 * The first `maxIndices` differing elements are given in logical dimension order (storage follows `dimOrder`).
 * @returns InvalidInput when the byte counts do not match the shape; Io or Cancelled as sameBytes.
 */
[[nodiscard]] Result<NumericDifference> compareElements(const Bytes& a, const Bytes& b, ScalarType type,
    const std::vector<std::int32_t>& sizes, const std::vector<std::uint8_t>& dimOrder, std::size_t maxIndices,
    const std::atomic<bool>* cancel = nullptr);

} // namespace pte::diff
