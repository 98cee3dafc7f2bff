// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include "pte/bytes.h"
#include "pte/result.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace pte::dump {

/** One file of a zip archive, as listed by the central directory. */
struct ZipEntry
{
    std::string name; ///< full path inside the archive, as written
    std::uint64_t compressedSize = 0;
    std::uint64_t uncompressedSize = 0;
    std::uint32_t method = 0; ///< 0 stored, 8 deflated
    std::uint32_t crc = 0;
    std::uint64_t localHeaderOffset = 0; ///< byte offset of the entry's local header
    std::uint64_t dataOffset = 0; ///< byte offset of the (compressed) payload in the archive
    std::uint64_t index = 0; ///< position in the central directory
};

/**
 * A read-only zip archive over bytes in memory (usually a mapped file), read as PKWARE's APPNOTE describes it:
 * the end of central directory record, the central directory (local headers of PyTorch's writer carry zero
 * sizes) and each entry's local header for where its payload starts. ZIP64 archives (over 4 GiB or 65535 entries)
 * are read through the ZIP64 end record and the ZIP64 extra fields that carry the sizes and offsets.
 * STORED entries are returned as Bytes slices of the archive (never copied); deflated entries are
 * inflated into an owned buffer. Entry paths with ".." components or absolute paths, and entries
 * whose declared size exceeds the cap, make open() fail with ErrorCode::InvalidInput naming the entry;
 * split archives, encrypted entries and compression methods other than stored/deflate are Unsupported.
 * Immutable after open(); thread-safe to read.
 */
class ZipArchive
{
public:
    /**
     * @param data the whole archive; kept alive by the returned archive and by every entry slice.
     * @param displayName the file name used in messages ("model.pt2", "outer.pt2:inner.pt").
     * @returns InvalidInput when the bytes are not a readable zip archive.
     */
    [[nodiscard]] static Result<ZipArchive> open(
        Bytes data, std::string displayName, std::uint64_t maxEntrySize = std::uint64_t(64) << 30);

    /** True when the bytes start like a zip archive (local header or empty-archive end record). */
    [[nodiscard]] static bool looksLikeZip(std::span<const std::uint8_t> data) noexcept;

    [[nodiscard]] const std::vector<ZipEntry>& entries() const noexcept { return m_entries; }
    [[nodiscard]] const std::string& displayName() const noexcept { return m_displayName; }
    /** The common top folder of all entries ("linear_3" for PT2 archives), or empty when there is none. */
    [[nodiscard]] const std::string& rootFolder() const noexcept { return m_root; }

    /** The entry named exactly `name`, or nullptr. */
    [[nodiscard]] const ZipEntry* find(std::string_view name) const noexcept;
    /** The entry `rootFolder()/relative` (or `relative` when there is no root folder), or nullptr. */
    [[nodiscard]] const ZipEntry* findInRoot(std::string_view relative) const noexcept;
    /** Path of a root-relative name, with the root folder prepended when there is one. */
    [[nodiscard]] std::string rootPath(std::string_view relative) const;

    /**
     * The uncompressed bytes of an entry. @returns InvalidInput naming the entry when the payload
     * lies outside the archive, the method is unsupported or inflating/CRC checking fails.
     * @param checkCrc verify the CRC-32 of stored entries. Weight payloads pass false so that their pages
     *        stay untouched (deflated entries are always checked).
     */
    [[nodiscard]] Result<Bytes> read(const ZipEntry& entry, bool checkCrc = true) const;
    /** "<displayName>:<entry name>" for messages. */
    [[nodiscard]] std::string entryLabel(const ZipEntry& entry) const { return m_displayName + ":" + entry.name; }

private:
    Bytes m_data;
    std::string m_displayName;
    std::string m_root;
    std::vector<ZipEntry> m_entries;
};

} // namespace pte::dump
