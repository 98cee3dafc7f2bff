// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include "pte/bytes.h"
#include "pte/result.h"

#include <cstdint>
#include <span>
#include <vector>

namespace pte {

/**
 * Reads a Bytes view front to back in chunks without making a mapped file's pages resident in this process: a view
 * of a file opened with mapFile() (mappedfile.h) is read with pread into a buffer of `chunkSize` bytes (the page cache
 * serves it; the process's resident set does not grow with the data); any other view, or one no larger than a chunk,
 * is handed out in place. For comparing and hashing weights and payloads. Keeps `bytes` alive; one reader per thread.
 */
class ChunkReader
{
public:
    explicit ChunkReader(Bytes bytes, std::size_t chunkSize = std::size_t(4) << 20);
    /**
     * The next chunk: `chunkSize` bytes, fewer only at the end, empty after it. Valid until the next call.
     * @returns ErrorCode::Io, with the file offset, when the file cannot be read.
     */
    [[nodiscard]] Result<std::span<const std::uint8_t>> next();
    [[nodiscard]] std::uint64_t position() const noexcept { return m_position; }

private:
    Bytes m_bytes;
    std::size_t m_chunkSize;
    std::uint64_t m_position = 0;
    int m_fd = -1; ///< the mapped file's descriptor (owned by the mapping that m_bytes keeps alive), or -1
    std::int64_t m_fileOffset = 0;
    std::vector<std::uint8_t> m_buffer;
};

} // namespace pte
