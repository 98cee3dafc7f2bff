// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include "pte/bytes.h"
#include "pte/result.h"

#include <string>

namespace pte {

/**
 * Maps a whole file read-only (mmap + madvise), falling back to reading it when mapping fails
 * (e.g. on special files). The returned Bytes keeps the mapping, and the file descriptor behind it, alive.
 * @returns ErrorCode::Io naming the path when the file cannot be opened or read.
 */
[[nodiscard]] Result<Bytes> mapFile(const std::string& path);

/**
 * Writes `parts` (concatenated) to `path` atomically: a temporary file in the same folder, flushed
 * with fsync, then renamed over the target. On any failure the temporary file is removed and the
 * target is untouched. Large parts that view a file opened with mapFile() are copied by the kernel
 * (copy_file_range) from that file rather than through memory. @returns ErrorCode::Io naming the path.
 */
[[nodiscard]] Result<void> writeFileAtomically(
    const std::string& path, std::span<const std::span<const std::uint8_t>> parts);

/** Convenience overload for a single buffer. */
[[nodiscard]] Result<void> writeFileAtomically(const std::string& path, std::span<const std::uint8_t> data);

} // namespace pte
