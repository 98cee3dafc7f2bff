// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

// Helpers shared by the graph-dump tests: build zip archives at run time with minizip's writer,
// hand-assemble torch.save pickles, and read the hand-written JSON dumps in tests/data/dumps.

#include "testutils.h"

#include <QByteArray>
#include <QFile>
#include <QString>

#include <cstdint>
#include <cstring>
#include <minizip/zip.h>
#include <string>
#include <vector>
#include <zlib.h>

namespace pte::test {

struct ZipItem
{
    std::string name;
    QByteArray data;
    bool deflate = false;
};

/** Writes a zip archive; `zip64` forces ZIP64 extra fields on every entry. */
inline bool writeZip(const QString& path, const std::vector<ZipItem>& items, bool zip64 = false)
{
    zipFile zf = zipOpen64(path.toLocal8Bit().constData(), APPEND_STATUS_CREATE);
    if (!zf)
        return false;
    bool ok = true;
    for (const auto& item : items) {
        zip_fileinfo info {};
        const int method = item.deflate ? Z_DEFLATED : 0;
        const int level = item.deflate ? Z_DEFAULT_COMPRESSION : 0;
        ok = ok
            && zipOpenNewFileInZip64(
                   zf, item.name.c_str(), &info, nullptr, 0, nullptr, 0, nullptr, method, level, zip64 ? 1 : 0)
                == ZIP_OK;
        ok = ok && zipWriteInFileInZip(zf, item.data.constData(), static_cast<unsigned>(item.data.size())) == ZIP_OK;
        ok = ok && zipCloseFileInZip(zf) == ZIP_OK;
    }
    return zipClose(zf, nullptr) == ZIP_OK && ok;
}

/** Writes a zip archive in memory (through a temporary file). */
inline QByteArray makeZip(const std::vector<ZipItem>& items, bool zip64 = false)
{
    static int counter = 0;
    const QString path = tempDir() + QStringLiteral("/mem-%1.zip").arg(++counter);
    if (!writeZip(path, items, zip64))
        return {};
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return f.readAll();
}

/** An entry of writeSparseZip: `data`, followed by `hole` zero bytes left as a hole of the (sparse) file. */
struct SparseZipItem
{
    std::string name;
    QByteArray data;
    std::uint64_t hole = 0;
    bool deflate = false;
    bool zip64 = false; ///< carry both sizes in ZIP64 extra fields even when they are small
};

namespace detail {
inline void put16(QByteArray& b, std::uint32_t v)
{
    b.append(char(v & 0xff));
    b.append(char((v >> 8) & 0xff));
}
inline void put32(QByteArray& b, std::uint32_t v)
{
    put16(b, v & 0xffff);
    put16(b, v >> 16);
}
inline void put64(QByteArray& b, std::uint64_t v)
{
    put32(b, std::uint32_t(v));
    put32(b, std::uint32_t(v >> 32));
}
/** CRC-32 of `n` zero bytes, continuing `crc`. */
inline std::uint32_t crcZeros(std::uint32_t crc, std::uint64_t n)
{
    static const std::vector<Bytef> zeros(1 << 20, 0);
    const uLong block = crc32(0L, zeros.data(), uInt(zeros.size()));
    uLong c = crc;
    for (; n >= zeros.size(); n -= zeros.size())
        c = crc32_combine(c, block, z_off_t(zeros.size()));
    return std::uint32_t(crc32(c, zeros.data(), uInt(n)));
}
/** Raw deflate (no zlib header), as zip stores it. */
inline QByteArray rawDeflate(const QByteArray& in)
{
    z_stream zs {};
    deflateInit2(&zs, Z_DEFAULT_COMPRESSION, Z_DEFLATED, -MAX_WBITS, 8, Z_DEFAULT_STRATEGY);
    QByteArray out(int(deflateBound(&zs, uLong(in.size()))), Qt::Uninitialized);
    zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.constData()));
    zs.avail_in = uInt(in.size());
    zs.next_out = reinterpret_cast<Bytef*>(out.data());
    zs.avail_out = uInt(out.size());
    deflate(&zs, Z_FINISH);
    out.resize(qsizetype(zs.total_out));
    deflateEnd(&zs);
    return out;
}
} // namespace detail

/**
 * Writes a zip archive the way Python's zipfile does (PKWARE's APPNOTE): sizes and offsets over 2^31 - 1 move to
 * ZIP64 extra fields (local header: both sizes; central directory: the sizes and the local header offset that do
 * not fit), with a ZIP64 end record and locator when the directory itself lies past that limit. Holes are
 * skipped with seek, so a 4 GiB archive costs a few kilobytes of disk.
 */
inline bool writeSparseZip(const QString& path, const std::vector<SparseZipItem>& items)
{
    using namespace detail;
    constexpr std::uint64_t kLimit = (std::uint64_t(1) << 31) - 1;
    constexpr std::uint32_t kFull = 0xffffffffu;
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate))
        return false;
    QByteArray directory;
    std::uint64_t pos = 0;
    for (const auto& item : items) {
        const QByteArray payload = item.deflate ? rawDeflate(item.data) : item.data;
        const std::uint64_t size = std::uint64_t(item.data.size()) + item.hole;
        const std::uint64_t csize = std::uint64_t(payload.size()) + (item.deflate ? 0 : item.hole);
        std::uint32_t crc = std::uint32_t(
            crc32(crc32(0L, Z_NULL, 0), reinterpret_cast<const Bytef*>(item.data.constData()), uInt(item.data.size())));
        crc = crcZeros(crc, item.hole);
        const bool bigSizes = item.zip64 || size > kLimit || csize > kLimit;
        const bool bigOffset = pos > kLimit;
        const std::uint32_t method = item.deflate ? 8 : 0;
        // The fields local header and directory entry share, from "version needed" to "extra field length".
        auto shared = [&](QByteArray& out, std::uint32_t versionNeeded, std::uint32_t extraLength) {
            put16(out, versionNeeded);
            put16(out, 0);
            put16(out, method);
            put16(out, 0);
            put16(out, 0x21);
            put32(out, crc);
            put32(out, bigSizes ? kFull : std::uint32_t(csize));
            put32(out, bigSizes ? kFull : std::uint32_t(size));
            put16(out, std::uint32_t(item.name.size()));
            put16(out, extraLength);
        };
        QByteArray local;
        put32(local, 0x04034b50);
        shared(local, bigSizes ? 45 : 20, bigSizes ? 20 : 0);
        local.append(item.name.data(), qsizetype(item.name.size()));
        if (bigSizes) {
            put16(local, 1);
            put16(local, 16);
            put64(local, size);
            put64(local, csize);
        }
        if (!f.seek(qint64(pos)) || f.write(local) != local.size() || f.write(payload) != payload.size())
            return false;
        QByteArray extra;
        if (bigSizes) {
            put64(extra, size);
            put64(extra, csize);
        }
        if (bigOffset)
            put64(extra, pos);
        put32(directory, 0x02014b50);
        put16(directory, 45);
        shared(directory, bigSizes || bigOffset ? 45 : 20, extra.isEmpty() ? 0 : std::uint32_t(extra.size() + 4));
        put16(directory, 0);
        put16(directory, 0);
        put16(directory, 0);
        put32(directory, 0);
        put32(directory, bigOffset ? kFull : std::uint32_t(pos));
        directory.append(item.name.data(), qsizetype(item.name.size()));
        if (!extra.isEmpty()) {
            put16(directory, 1);
            put16(directory, std::uint32_t(extra.size()));
            directory.append(extra);
        }
        pos += std::uint64_t(local.size()) + csize;
    }
    const std::uint64_t count = items.size();
    const std::uint64_t cdSize = std::uint64_t(directory.size());
    QByteArray tail = directory;
    const bool zip64End = count > 0xffff || pos > kLimit || cdSize > kLimit;
    if (zip64End) {
        const std::uint64_t recordAt = pos + cdSize;
        put32(tail, 0x06064b50);
        put64(tail, 44);
        put16(tail, 45);
        put16(tail, 45);
        put32(tail, 0);
        put32(tail, 0);
        put64(tail, count);
        put64(tail, count);
        put64(tail, cdSize);
        put64(tail, pos);
        put32(tail, 0x07064b50);
        put32(tail, 0);
        put64(tail, recordAt);
        put32(tail, 1);
    }
    put32(tail, 0x06054b50);
    put16(tail, 0);
    put16(tail, 0);
    put16(tail, std::uint32_t(std::min<std::uint64_t>(count, 0xffff)));
    put16(tail, std::uint32_t(std::min<std::uint64_t>(count, 0xffff)));
    put32(tail, zip64End ? kFull : std::uint32_t(cdSize));
    put32(tail, zip64End ? kFull : std::uint32_t(pos));
    put16(tail, 0);
    return f.seek(qint64(pos)) && f.write(tail) == tail.size();
}

/** model_weights_config.json of a PT2 archive (2.9+ PayloadConfig): "weight" (f32 [4], a parameter, in weight_0,
 *  pickled when `pickledWeight`) and "steps" (an i64 scalar buffer, raw bytes in weight_1). */
inline QByteArray pt2WeightsConfig(bool pickledWeight)
{
    return QByteArray(R"({"config": {
            "weight": {"path_name": "weight_0", "is_param": true, "use_pickle": )")
        + (pickledWeight ? "true" : "false") + R"(, "tensor_meta": {"dtype": 7,
              "sizes": [{"as_int": 4}], "requires_grad": true, "device": {"type": "cpu", "index": null},
              "strides": [{"as_int": 1}], "storage_offset": {"as_int": 0}, "layout": 7}},
            "steps": {"path_name": "weight_1", "is_param": false, "use_pickle": false, "tensor_meta": {"dtype": 5,
              "sizes": [], "requires_grad": false, "device": {"type": "cpu", "index": null},
              "strides": [], "storage_offset": {"as_int": 0}, "layout": 7}}}})";
}

inline QByteArray readDumpData(const QString& name)
{
    QFile f(testDataDir() + QStringLiteral("/dumps/") + name);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return f.readAll();
}

inline bool writeFile(const QString& path, const QByteArray& data)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly | QIODevice::Truncate) && f.write(data) == data.size();
}

/** Pickle opcodes (protocol 2) for assembling test pickles by hand. */
namespace pk {
inline std::string u32(std::uint32_t v)
{
    std::string s(4, '\0');
    for (int i = 0; i < 4; ++i)
        s[static_cast<std::size_t>(i)] = static_cast<char>((v >> (8 * i)) & 0xff);
    return s;
}
inline std::string str(const std::string& s) { return "X" + u32(static_cast<std::uint32_t>(s.size())) + s; }
inline std::string integer(std::int32_t v) { return "J" + u32(static_cast<std::uint32_t>(v)); }
inline std::string ints(const std::vector<std::int32_t>& v)
{
    std::string s = "(";
    for (auto i : v)
        s += integer(i);
    return s + "t";
}
inline std::string global(const std::string& module, const std::string& name)
{
    return "c" + module + "\n" + name + "\n";
}
/** A bytes object the way protocol 2 writes it: _codecs.encode(<latin-1 text as UTF-8>, 'latin1'). */
inline std::string bytesObject(const std::string& raw)
{
    std::string utf8;
    for (const char c : raw) {
        const auto u = static_cast<unsigned char>(c);
        if (u < 0x80) {
            utf8.push_back(c);
        } else {
            utf8.push_back(static_cast<char>(0xc0 | (u >> 6)));
            utf8.push_back(static_cast<char>(0x80 | (u & 0x3f)));
        }
    }
    return global("_codecs", "encode") + str(utf8) + str("latin1") + "\x86R";
}
/** BINFLOAT (big-endian double). */
inline std::string binfloat(double d)
{
    std::uint64_t bits = 0;
    static_assert(sizeof bits == sizeof d);
    std::memcpy(&bits, &d, 8);
    std::string s = "G";
    for (int i = 7; i >= 0; --i)
        s.push_back(static_cast<char>((bits >> (8 * i)) & 0xff));
    return s;
}
/** torch.export's FakeTensor reducer: _reconstruct_fake_tensor(<TensorMeta JSON bytes>, is_param). */
inline std::string fakeTensor(const std::string& tensorMetaJson, bool parameter)
{
    return global("torch._export.serde.serialize", "_reconstruct_fake_tensor") + bytesObject(tensorMetaJson)
        + (parameter ? "\x88" : "\x89") + "\x86R";
}
} // namespace pk

struct PickledTensor
{
    std::string name;
    std::string storageClass = "FloatStorage";
    std::string key;
    std::int32_t numel = 0;
    std::vector<std::int32_t> sizes;
    std::vector<std::int32_t> strides;
    std::int32_t offset = 0;
    bool parameter = false;
};

/** The pickle opcodes that rebuild one tensor (or parameter), leaving it on the stack. */
inline std::string tensorPickle(const PickledTensor& t)
{
    using namespace pk;
    std::string p;
    if (t.parameter)
        p += global("torch._utils", "_rebuild_parameter") + "(";
    p += global("torch._utils", "_rebuild_tensor_v2") + "(";
    p += "(" + str("storage") + global("torch", t.storageClass) + str(t.key) + str("cpu") + integer(t.numel) + "tQ";
    p += integer(t.offset) + ints(t.sizes) + ints(t.strides) + "\x89" + global("collections", "OrderedDict") + ")RtR";
    if (t.parameter)
        p += "\x88" + global("collections", "OrderedDict") + ")RtR";
    return p;
}

/** The data.pkl of a torch.save'd dict of tensors, written the way torch does (protocol 2). */
inline std::string stateDictPickle(const std::vector<PickledTensor>& tensors)
{
    using namespace pk;
    std::string p = "\x80\x02";
    p += global("collections", "OrderedDict") + ")R(";
    for (const auto& t : tensors)
        p += str(t.name) + tensorPickle(t);
    p += "u.";
    return p;
}

/** A torch.save zip: <root>/data.pkl, <root>/byteorder and <root>/data/<key> storages. */
inline QByteArray torchSaveZip(const std::string& pickle,
    const std::vector<std::pair<std::string, QByteArray>>& storages, const std::string& root = "archive")
{
    std::vector<ZipItem> items;
    items.push_back({ root + "/data.pkl", QByteArray(pickle.data(), static_cast<qsizetype>(pickle.size())) });
    items.push_back({ root + "/byteorder", QByteArray("little") });
    for (const auto& [key, bytes] : storages)
        items.push_back({ root + "/data/" + key, bytes });
    items.push_back({ root + "/version", QByteArray("3\n") });
    return makeZip(items);
}

inline QByteArray floatBytes(const std::vector<float>& v)
{
    return QByteArray(reinterpret_cast<const char*>(v.data()), static_cast<qsizetype>(v.size() * sizeof(float)));
}

} // namespace pte::test
