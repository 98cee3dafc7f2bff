// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include "pte/bytes.h"
#include "pte/result.h"

#include <cstdint>
#include <string>

namespace pte {

/** When a save waits for the disk (fsync) before it renames the temporary file into place. */
enum class SyncPolicy : std::uint8_t
{
    /**
     * Only when it replaces an existing file: then a crash leaves either the old or the new file, never a torn
     * one. A new file is renamed into place without waiting (readers still never see it half-written), as cp
     * and ExecuTorch's own save do; there is no earlier file to lose.
     */
    WhenReplacing,
    /** Always: the new file is on disk when the call returns. */
    Always,
};

/**
 * Maps a whole file read-only (mmap + madvise), falling back to reading it when mapping fails
 * (e.g. on special files). The returned Bytes keeps the mapping, and the file descriptor behind it, alive.
 * @returns ErrorCode::Io naming the path when the file cannot be opened or read.
 */
[[nodiscard]] Result<Bytes> mapFile(const std::string& path);

/**
 * Writes `parts` (concatenated) to `path` atomically: a temporary file in the same folder, flushed to disk
 * (fsync) as `sync` says, then put in place (a new file linked, an existing one replaced by a rename). On any
 * failure the temporary file is removed and the target is untouched. The temporary file has no name until it is
 * complete (O_TMPFILE), so a save that is killed leaves nothing behind; where the file system lacks O_TMPFILE it is
 * a named ".<name>.tmp-<number>", and the next save of the same target removes those a killed save left. Large
 * parts that view a file opened with mapFile() are copied by the kernel (copy_file_range) from that file rather
 * than through memory. @returns ErrorCode::Io naming the path.
 */
[[nodiscard]] Result<void> writeFileAtomically(const std::string& path,
    std::span<const std::span<const std::uint8_t>> parts, SyncPolicy sync = SyncPolicy::WhenReplacing);

/** Convenience overload for a single buffer. */
[[nodiscard]] Result<void> writeFileAtomically(
    const std::string& path, std::span<const std::uint8_t> data, SyncPolicy sync = SyncPolicy::WhenReplacing);

} // namespace pte
