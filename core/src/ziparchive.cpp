// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "ziparchive.h"

#include <algorithm>
#include <cstring>
#include <memory>
#include <minizip/unzip.h>
#include <zlib.h>

namespace pte {

namespace {

// minizip reads through these callbacks, so the archive is parsed straight from the mapping:
// only the central directory and local headers are touched, payload pages stay on disk.
struct MemStream
{
    const std::uint8_t* data = nullptr;
    std::uint64_t size = 0;
    std::uint64_t pos = 0;
};

voidpf ZCALLBACK memOpen(voidpf opaque, const void*, int) { return opaque; }

uLong ZCALLBACK memRead(voidpf, voidpf stream, void* buf, uLong size)
{
    auto* s = static_cast<MemStream*>(stream);
    if (s->pos >= s->size)
        return 0;
    const std::uint64_t n = std::min<std::uint64_t>(size, s->size - s->pos);
    std::memcpy(buf, s->data + s->pos, static_cast<std::size_t>(n));
    s->pos += n;
    return static_cast<uLong>(n);
}

uLong ZCALLBACK memWrite(voidpf, voidpf, const void*, uLong) { return 0; }
ZPOS64_T ZCALLBACK memTell(voidpf, voidpf stream) { return static_cast<MemStream*>(stream)->pos; }

long ZCALLBACK memSeek(voidpf, voidpf stream, ZPOS64_T offset, int origin)
{
    auto* s = static_cast<MemStream*>(stream);
    std::uint64_t base = 0;
    switch (origin) {
    case ZLIB_FILEFUNC_SEEK_SET:
        base = 0;
        break;
    case ZLIB_FILEFUNC_SEEK_CUR:
        base = s->pos;
        break;
    case ZLIB_FILEFUNC_SEEK_END:
        base = s->size;
        break;
    default:
        return -1;
    }
    if (offset > s->size || base > s->size - offset)
        return -1;
    s->pos = base + offset;
    return 0;
}

int ZCALLBACK memClose(voidpf, voidpf) { return 0; }
int ZCALLBACK memError(voidpf, voidpf) { return 0; }

zlib_filefunc64_def memFuncs(MemStream* stream)
{
    zlib_filefunc64_def funcs {};
    funcs.zopen64_file = memOpen;
    funcs.zread_file = memRead;
    funcs.zwrite_file = memWrite;
    funcs.ztell64_file = memTell;
    funcs.zseek64_file = memSeek;
    funcs.zclose_file = memClose;
    funcs.zerror_file = memError;
    funcs.opaque = stream;
    return funcs;
}

// CRC-32 as zip uses it, from zlib (which minizip is built on).
std::uint32_t crc32Of(const std::uint8_t* data, std::size_t size)
{
    uLong c = crc32(0L, Z_NULL, 0);
    constexpr std::size_t kChunk = std::size_t(1) << 30; // zlib's length argument is a uInt
    for (std::size_t pos = 0; pos < size; pos += kChunk)
        c = crc32(c, data + pos, static_cast<uInt>(std::min(kChunk, size - pos)));
    return static_cast<std::uint32_t>(c);
}

struct UnzCloser
{
    void operator()(void* f) const { unzClose(f); }
};

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

} // namespace

bool ZipArchive::looksLikeZip(std::span<const std::uint8_t> data) noexcept
{
    return data.size() >= 4 && data[0] == 'P' && data[1] == 'K'
        && ((data[2] == 3 && data[3] == 4) || (data[2] == 5 && data[3] == 6));
}

Result<ZipArchive> ZipArchive::open(Bytes data, std::string displayName, std::uint64_t maxEntrySize)
{
    MemStream stream { data.data(), data.size(), 0 };
    zlib_filefunc64_def funcs = memFuncs(&stream);
    std::unique_ptr<void, UnzCloser> uf(unzOpen2_64(displayName.c_str(), &funcs));
    if (!uf)
        return fail(ErrorCode::InvalidInput,
            displayName + " is not a readable zip archive (no valid end of central directory record)");

    ZipArchive archive;
    archive.m_data = data;
    archive.m_displayName = std::move(displayName);
    const std::string& label = archive.m_displayName;

    int rc = unzGoToFirstFile(uf.get());
    std::size_t index = 0;
    while (rc == UNZ_OK) {
        unz_file_info64 info {};
        char nameBuf[4096];
        if (unzGetCurrentFileInfo64(uf.get(), &info, nameBuf, sizeof nameBuf, nullptr, 0, nullptr, 0) != UNZ_OK)
            return fail(
                ErrorCode::InvalidInput, label + ": central directory entry " + std::to_string(index) + " is corrupt");
        ZipEntry e;
        e.name.assign(nameBuf, std::min<std::size_t>(info.size_filename, sizeof nameBuf - 1));
        e.compressedSize = info.compressed_size;
        e.uncompressedSize = info.uncompressed_size;
        e.method = static_cast<std::uint32_t>(info.compression_method);
        e.crc = static_cast<std::uint32_t>(info.crc);
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
        const bool isDir = !e.name.empty() && e.name.back() == '/';
        unz64_file_pos filePos {};
        unzGetFilePos64(uf.get(), &filePos);
        e.directoryOffset = filePos.pos_in_zip_directory;
        e.index = filePos.num_of_file;
        if (!isDir) {
            // Opening the entry validates the local header; the stream position is then the payload.
            if (unzOpenCurrentFile(uf.get()) != UNZ_OK)
                return fail(
                    ErrorCode::InvalidInput, label + ": local header of entry '" + e.name + "' is corrupt", {}, e.name);
            e.dataOffset = unzGetCurrentFileZStreamPos64(uf.get());
            unzCloseCurrentFile(uf.get());
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
                    label + ": stored entry '" + e.name + "' has different compressed and uncompressed sizes",
                    e.dataOffset, e.name);
            archive.m_entries.push_back(std::move(e));
        }
        ++index;
        rc = unzGoToNextFile(uf.get());
    }
    if (rc != UNZ_END_OF_LIST_OF_FILE)
        return fail(
            ErrorCode::InvalidInput, label + ": the central directory is corrupt after entry " + std::to_string(index));

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
    if (entry.method == 0) {
        if (checkCrc) {
            if (crc32Of(raw.data(), raw.size()) != entry.crc)
                return fail(ErrorCode::InvalidInput, entryLabel(entry) + ": CRC-32 mismatch (the archive is corrupt)",
                    entry.dataOffset, entry.name);
        }
        return raw;
    }
    if (entry.uncompressedSize == 0)
        return Bytes();
    // Deflated entries are rare in dumps (PyTorch and Python's zipfile store); inflate them with minizip on
    // a fresh handle so the archive object stays immutable and thread-safe.
    MemStream stream { m_data.data(), m_data.size(), 0 };
    zlib_filefunc64_def funcs = memFuncs(&stream);
    std::unique_ptr<void, UnzCloser> uf(unzOpen2_64(m_displayName.c_str(), &funcs));
    unz64_file_pos pos { entry.directoryOffset, entry.index };
    if (!uf || unzGoToFilePos64(uf.get(), &pos) != UNZ_OK || unzOpenCurrentFile(uf.get()) != UNZ_OK)
        return fail(
            ErrorCode::InvalidInput, entryLabel(entry) + ": cannot open the entry", entry.dataOffset, entry.name);
    std::vector<std::uint8_t> out(static_cast<std::size_t>(entry.uncompressedSize));
    std::size_t done = 0;
    while (done < out.size()) {
        const unsigned chunk = static_cast<unsigned>(std::min<std::size_t>(out.size() - done, std::size_t(1) << 30));
        const int n = unzReadCurrentFile(uf.get(), out.data() + done, chunk);
        if (n <= 0)
            break;
        done += static_cast<std::size_t>(n);
    }
    std::uint8_t extra = 0;
    const bool longer = done == out.size() && unzReadCurrentFile(uf.get(), &extra, 1) > 0;
    const int closeRc = unzCloseCurrentFile(uf.get()); // checks the CRC once the whole entry was read
    if (done != out.size() || longer)
        return fail(ErrorCode::InvalidInput,
            entryLabel(entry) + ": cannot inflate the entry (corrupt deflate stream or wrong declared size)",
            entry.dataOffset, entry.name);
    if (closeRc == UNZ_CRCERROR || crc32Of(out.data(), out.size()) != entry.crc)
        return fail(ErrorCode::InvalidInput, entryLabel(entry) + ": CRC-32 mismatch (the archive is corrupt)",
            entry.dataOffset, entry.name);
    return Bytes::fromVector(std::move(out));
}

} // namespace pte
