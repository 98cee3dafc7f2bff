// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

// Private to the atomic save (mappedfile.cpp): the choice of temporary file, which the tests force to reach the
// fallback that file systems without O_TMPFILE take, and the removal of temporaries a killed save left behind.

#include "pte/mappedfile.h"

#include <cstdint>
#include <span>
#include <string>

namespace pte::base {

/** The temporary file a save writes before it puts the file in place. */
enum class TemporaryFile : std::uint8_t
{
    /** An unnamed file (O_TMPFILE) in the target's folder, linked into place only once complete: a save that is
     *  killed leaves nothing. Where the file system or kernel lacks O_TMPFILE, a named one is used instead. */
    Unnamed,
    /** A named file ".<target name>.tmp-<number>" beside the target, renamed into place once complete. A save
     *  that is killed leaves it; the next save of the same target removes it. */
    Named,
};

/** writeFileAtomically with the temporary file chosen (the public one asks for TemporaryFile::Unnamed). */
[[nodiscard]] Result<void> writeFileAtomically(const std::string& path,
    std::span<const std::span<const std::uint8_t>> parts, SyncPolicy sync, TemporaryFile temporary);

/** The prefix of the name of every named temporary a save of `path` creates: ".<file name>.tmp-". */
[[nodiscard]] std::string temporaryPrefix(const std::string& path);

/**
 * Removes the named temporaries of `path` (temporaryPrefix, then digits) that no save holds any more: each save
 * holds an exclusive flock() on its temporary for as long as it runs, and the kernel drops it when the process
 * dies. Temporaries of saves still running, in this process or another, stay. Every save calls it first.
 * @returns how many were removed.
 */
std::size_t removeStaleTemporaries(const std::string& path);

} // namespace pte::base
