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
