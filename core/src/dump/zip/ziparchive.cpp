// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "dump/zip/ziparchive.h"

#include <algorithm>
#include <cstring>
#include <zlib.h>

namespace pte::dump {

// The archive is parsed straight from the mapping, following PKWARE's APPNOTE: the end of central directory
// record (and, for ZIP64, its locator and the ZIP64 end record), the central directory, and each entry's local
// header. Only those bytes are touched; payload pages stay on disk until an entry is read.
namespace {

constexpr std::uint32_t kLocalHeaderSig = 0x04034b50;
constexpr std::uint32_t kCentralHeaderSig = 0x02014b50;
constexpr std::uint32_t kEndSig = 0x06054b50;
constexpr std::uint32_t kZip64EndSig = 0x06064b50;
constexpr std::uint32_t kZip64LocatorSig = 0x07064b50;
constexpr std::uint16_t kZip64ExtraId = 0x0001;
constexpr std::uint64_t kEndSize = 22;
constexpr std::uint64_t kLocatorSize = 20;
constexpr std::uint64_t kZip64EndSize = 56;
constexpr std::uint64_t kCentralHeaderSize = 46;
constexpr std::uint64_t kLocalHeaderSize = 30;
constexpr std::uint32_t kSaturated32 = 0xffffffffu; ///< "the value is in the ZIP64 extra field"
constexpr std::uint16_t kSaturated16 = 0xffffu;

/** Little-endian reads at a position the caller has bounds-checked. */
std::uint16_t u16(const std::uint8_t* p) { return std::uint16_t(p[0] | (p[1] << 8)); }
std::uint32_t u32(const std::uint8_t* p) { return std::uint32_t(u16(p)) | (std::uint32_t(u16(p + 2)) << 16); }
std::uint64_t u64(const std::uint8_t* p) { return std::uint64_t(u32(p)) | (std::uint64_t(u32(p + 4)) << 32); }

// CRC-32 as zip uses it, from zlib.
std::uint32_t crc32Of(const std::uint8_t* data, std::size_t size)
{
    uLong c = crc32(0L, Z_NULL, 0);
    constexpr std::size_t kChunk = std::size_t(1) << 30; // zlib's length argument is a uInt
    for (std::size_t pos = 0; pos < size; pos += kChunk)
        c = crc32(c, data + pos, static_cast<uInt>(std::min(kChunk, size - pos)));
    return static_cast<std::uint32_t>(c);
}

bool isUnsafePath(const std::string& name)
{
    if (name.empty() || name.front() == '/' || name.front() == '\\')
        return true;
    if (name.size() >= 2 && name[1] == ':')
        return true; // drive letter
    std::size_t start = 0;
    while (start <= name.size()) {
        std::size_t end = name.find_first_of("/\\", start);
        if (end == std::string::npos)
            end = name.size();
        if (end - start == 2 && name.compare(start, 2, "..") == 0)
            return true;
        start = end + 1;
    }
    return false;
}

/** Where the central directory is, from the end records. */
struct Directory
{
    std::uint64_t offset = 0;
    std::uint64_t size = 0;
    std::uint64_t entries = 0;
    std::uint64_t end = 0; ///< where the records after the directory start (it must end there or before)
};

Result<Directory> findDirectory(const Bytes& data, const std::string& label)
{
    const std::uint8_t* d = data.data();
    const std::uint64_t size = data.size();
    auto notZip = [&](const std::string& why) {
        return fail(ErrorCode::InvalidInput, label + " is not a readable zip archive (" + why + ")");
    };
    if (size < kEndSize)
        return notZip("no valid end of central directory record");
    // The end record is the last 22 bytes plus a comment of up to 65535 bytes; take the last signature whose
    // comment length reaches the end of the file.
    std::uint64_t endPos = size;
    const std::uint64_t lowest = size - kEndSize > 0xffff ? size - kEndSize - 0xffff : 0;
    for (std::uint64_t p = size - kEndSize + 1; p-- > lowest;) {
        if (u32(d + p) == kEndSig && p + kEndSize + u16(d + p + 20) == size) {
            endPos = p;
            break;
        }
    }
    if (endPos == size)
        return notZip("no valid end of central directory record");
    const std::uint8_t* e = d + endPos;
    if (u16(e + 4) != 0 || u16(e + 6) != 0)
        return fail(ErrorCode::Unsupported, label + ": multi-disk (split) zip archives are not supported");
    Directory dir;
    dir.entries = u16(e + 10);
    dir.size = u32(e + 12);
    dir.offset = u32(e + 16);
    dir.end = endPos;
    // ZIP64: a locator right before the end record points at the ZIP64 end record, whose 8-byte fields replace
    // the saturated 16- and 32-bit ones.
    if (endPos >= kLocatorSize && u32(d + endPos - kLocatorSize) == kZip64LocatorSig) {
        const std::uint8_t* loc = d + endPos - kLocatorSize;
        const std::uint64_t z = u64(loc + 8);
        if (u32(loc + 4) != 0 || u32(loc + 16) > 1)
            return fail(ErrorCode::Unsupported, label + ": multi-disk (split) zip archives are not supported");
        if (z > endPos - kLocatorSize || endPos - kLocatorSize - z < kZip64EndSize || u32(d + z) != kZip64EndSig)
            return fail(ErrorCode::InvalidInput,
                label + ": the ZIP64 end of central directory locator points at " + std::to_string(z)
                    + ", where there is no ZIP64 end record",
                endPos - kLocatorSize);
        const std::uint8_t* z64 = d + z;
        dir.entries = u64(z64 + 32);
        dir.size = u64(z64 + 40);
        dir.offset = u64(z64 + 48);
        dir.end = z;
    } else if (dir.entries == kSaturated16 || dir.size == kSaturated32 || dir.offset == kSaturated32) {
        return notZip("the end record defers to a ZIP64 end record that is missing");
    }
    if (dir.offset > dir.end || dir.size > dir.end - dir.offset)
        return notZip("the central directory (" + std::to_string(dir.size) + " bytes at offset "
            + std::to_string(dir.offset) + ") lies outside the archive");
    if (dir.entries > dir.size / kCentralHeaderSize)
        return notZip("the central directory cannot hold the " + std::to_string(dir.entries) + " entries it announces");
    return dir;
}

} // namespace

bool ZipArchive::looksLikeZip(std::span<const std::uint8_t> data) noexcept
{
    return data.size() >= 4 && data[0] == 'P' && data[1] == 'K'
        && ((data[2] == 3 && data[3] == 4) || (data[2] == 5 && data[3] == 6));
}

Result<ZipArchive> ZipArchive::open(Bytes data, std::string displayName, std::uint64_t maxEntrySize)
{
    PTE_TRY(const Directory dir, findDirectory(data, displayName));
    ZipArchive archive;
    archive.m_data = data;
    archive.m_displayName = std::move(displayName);
    const std::string& label = archive.m_displayName;
    const std::uint8_t* d = data.data();
    const std::uint64_t cdEnd = dir.offset + dir.size;
    std::uint64_t p = dir.offset;
    for (std::uint64_t index = 0; index < dir.entries; ++index) {
        auto corrupt = [&](const std::string& why) {
            return fail(ErrorCode::InvalidInput,
                label + ": central directory entry " + std::to_string(index) + " is corrupt (" + why + ")", p);
        };
        if (cdEnd - p < kCentralHeaderSize || u32(d + p) != kCentralHeaderSig)
            return corrupt("no central file header signature");
        const std::uint8_t* h = d + p;
        const std::uint16_t flags = u16(h + 8);
        const std::uint64_t nameLen = u16(h + 28);
        const std::uint64_t extraLen = u16(h + 30);
        const std::uint64_t commentLen = u16(h + 32);
        if (cdEnd - p - kCentralHeaderSize < nameLen + extraLen + commentLen)
            return corrupt("its name, extra field and comment run past the central directory");
        ZipEntry e;
        e.index = index;
        e.method = u16(h + 10);
        e.crc = u32(h + 16);
        e.compressedSize = u32(h + 20);
        e.uncompressedSize = u32(h + 24);
        e.localHeaderOffset = u32(h + 42);
        const std::uint16_t diskStart = u16(h + 34);
        e.name.assign(reinterpret_cast<const char*>(h + kCentralHeaderSize), nameLen);
        // ZIP64 extended information: 8-byte values for exactly the fields saturated above, in this order.
        const std::uint8_t* x = h + kCentralHeaderSize + nameLen;
        const std::uint8_t* xEnd = x + extraLen;
        while (xEnd - x >= 4) {
            const std::uint16_t id = u16(x);
            const std::uint16_t len = u16(x + 2);
            if (std::uint64_t(xEnd - x - 4) < len)
                return corrupt("extra field of entry '" + e.name + "' runs past its end");
            if (id == kZip64ExtraId) {
                const std::uint8_t* v = x + 4;
                const std::uint8_t* vEnd = v + len;
                for (std::uint64_t* field : { &e.uncompressedSize, &e.compressedSize, &e.localHeaderOffset }) {
                    if (*field != kSaturated32)
                        continue;
                    if (vEnd - v < 8)
                        return corrupt("the ZIP64 extra field of entry '" + e.name + "' lacks a saturated value");
                    *field = u64(v);
                    v += 8;
                }
            }
            x += 4 + len;
        }
        if (diskStart != 0 && diskStart != kSaturated16)
            return fail(ErrorCode::Unsupported, label + ": entry '" + e.name + "' starts on another disk", p, e.name);
        p += kCentralHeaderSize + nameLen + extraLen + commentLen;

        if (isUnsafePath(e.name))
            return fail(ErrorCode::InvalidInput,
                label + ": refusing entry '" + e.name + "': absolute paths and '..' components are not allowed", {},
                e.name);
        if (e.uncompressedSize > maxEntrySize || e.compressedSize > maxEntrySize)
            return fail(ErrorCode::InvalidInput,
                label + ": entry '" + e.name + "' declares " + std::to_string(e.uncompressedSize)
                    + " bytes, more than the limit of " + std::to_string(maxEntrySize) + " bytes",
                {}, e.name);
        if (e.method != 0 && e.method != 8)
            return fail(ErrorCode::Unsupported,
                label + ": entry '" + e.name + "' uses compression method " + std::to_string(e.method)
                    + "; only stored and deflated entries are supported",
                {}, e.name);
        if (flags & 1)
            return fail(ErrorCode::Unsupported, label + ": entry '" + e.name + "' is encrypted", {}, e.name);
        if (!e.name.empty() && e.name.back() == '/')
            continue; // a folder
        // The local header: its own name and extra field lengths decide where the payload starts.
        const std::uint64_t lh = e.localHeaderOffset;
        if (lh > dir.offset || dir.offset - lh < kLocalHeaderSize || u32(d + lh) != kLocalHeaderSig
            || u16(d + lh + 26) != nameLen)
            return fail(ErrorCode::InvalidInput,
                label + ": local header of entry '" + e.name + "' is corrupt (expected at offset " + std::to_string(lh)
                    + ")",
                lh, e.name);
        e.dataOffset = lh + kLocalHeaderSize + nameLen + u16(d + lh + 28);
        if (e.dataOffset > data.size() || e.compressedSize > data.size() - e.dataOffset)
            return fail(ErrorCode::InvalidInput,
                label + ": entry '" + e.name + "' (" + std::to_string(e.compressedSize) + " bytes at offset "
                    + std::to_string(e.dataOffset) + ") extends past the end of the archive ("
                    + std::to_string(data.size()) + " bytes)",
                e.dataOffset, e.name);
        // Deflate cannot expand data more than ~1032:1; a larger declared size is corrupt or hostile and
        // would make read() allocate it up front.
        if (e.method == 8 && e.uncompressedSize / 1032 > e.compressedSize + 1)
            return fail(ErrorCode::InvalidInput,
                label + ": deflated entry '" + e.name + "' declares " + std::to_string(e.uncompressedSize)
                    + " bytes from " + std::to_string(e.compressedSize) + " compressed bytes, which is impossible",
                e.dataOffset, e.name);
        if (e.method == 0 && e.compressedSize != e.uncompressedSize)
            return fail(ErrorCode::InvalidInput,
                label + ": stored entry '" + e.name + "' has different compressed and uncompressed sizes", e.dataOffset,
                e.name);
        archive.m_entries.push_back(std::move(e));
    }

    // Root folder: the first path component when every entry shares it (PT2 archives, torch.save zips).
    if (!archive.m_entries.empty()) {
        const auto& first = archive.m_entries.front().name;
        const auto slash = first.find('/');
        if (slash != std::string::npos && slash > 0) {
            const std::string root = first.substr(0, slash + 1);
            const bool shared = std::all_of(archive.m_entries.begin(), archive.m_entries.end(),
                [&](const ZipEntry& e) { return e.name.compare(0, root.size(), root) == 0; });
            if (shared)
                archive.m_root = root.substr(0, slash);
        }
    }
    return archive;
}

const ZipEntry* ZipArchive::find(std::string_view name) const noexcept
{
    for (const auto& e : m_entries)
        if (e.name == name)
            return &e;
    return nullptr;
}

std::string ZipArchive::rootPath(std::string_view relative) const
{
    return m_root.empty() ? std::string(relative) : m_root + "/" + std::string(relative);
}

const ZipEntry* ZipArchive::findInRoot(std::string_view relative) const noexcept
{
    if (m_root.empty())
        return find(relative);
    for (const auto& e : m_entries)
        if (e.name.size() == m_root.size() + 1 + relative.size() && e.name.compare(0, m_root.size(), m_root) == 0
            && e.name[m_root.size()] == '/' && e.name.compare(m_root.size() + 1, relative.size(), relative) == 0)
            return &e;
    return nullptr;
}

Result<Bytes> ZipArchive::read(const ZipEntry& entry, bool checkCrc) const
{
    if (entry.dataOffset > m_data.size() || entry.compressedSize > m_data.size() - entry.dataOffset)
        return fail(ErrorCode::InvalidInput, entryLabel(entry) + " extends past the end of the archive",
            entry.dataOffset, entry.name);
    const Bytes raw = m_data.slice(entry.dataOffset, entry.compressedSize);
    auto crcMismatch = [&] {
        return fail(ErrorCode::InvalidInput, entryLabel(entry) + ": CRC-32 mismatch (the archive is corrupt)",
            entry.dataOffset, entry.name);
    };
    if (entry.method == 0) {
        if (checkCrc && crc32Of(raw.data(), raw.size()) != entry.crc)
            return crcMismatch();
        return raw;
    }
    if (entry.uncompressedSize == 0)
        return Bytes();
    // Deflated entries are rare in dumps (PyTorch and Python's zipfile store): a raw deflate stream, inflated
    // in chunks (zlib counts in uInt) into a buffer of the declared size, which must be exactly filled.
    std::vector<std::uint8_t> out(static_cast<std::size_t>(entry.uncompressedSize));
    z_stream zs {};
    if (inflateInit2(&zs, -MAX_WBITS) != Z_OK)
        return fail(ErrorCode::Internal, entryLabel(entry) + ": cannot start zlib", entry.dataOffset, entry.name);
    constexpr std::size_t kChunk = std::size_t(1) << 30;
    std::size_t inDone = 0;
    std::size_t outDone = 0;
    int rc = Z_OK;
    std::uint8_t spare = 0; // room to notice a stream that holds more than it declares
    while (rc == Z_OK) {
        if (zs.avail_in == 0 && inDone < raw.size()) {
            zs.next_in = const_cast<Bytef*>(raw.data() + inDone);
            zs.avail_in = static_cast<uInt>(std::min(kChunk, raw.size() - inDone));
            inDone += zs.avail_in;
        }
        const bool full = outDone == out.size();
        zs.next_out = full ? &spare : out.data() + outDone;
        zs.avail_out = full ? 1u : static_cast<uInt>(std::min(kChunk, out.size() - outDone));
        const uInt before = zs.avail_out;
        rc = inflate(&zs, Z_NO_FLUSH);
        const std::size_t produced = before - zs.avail_out;
        if (full && produced > 0) {
            rc = Z_DATA_ERROR; // longer than declared
            break;
        }
        outDone += produced;
        if (rc == Z_BUF_ERROR && zs.avail_in == 0 && inDone == raw.size())
            break; // input exhausted before the stream ended
        if (rc == Z_BUF_ERROR)
            rc = Z_OK;
    }
    inflateEnd(&zs);
    if (rc != Z_STREAM_END || outDone != out.size())
        return fail(ErrorCode::InvalidInput,
            entryLabel(entry) + ": cannot inflate the entry (corrupt deflate stream or wrong declared size)",
            entry.dataOffset, entry.name);
    if (crc32Of(out.data(), out.size()) != entry.crc)
        return crcMismatch();
    return Bytes::fromVector(std::move(out));
}

} // namespace pte::dump
