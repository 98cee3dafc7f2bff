// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "pt2writer.h"

#include <cstdint>
#include <cstdio>
#include <minizip/zip.h>
#include <nlohmann/json.hpp>
#include <vector>
#include <zlib.h>

namespace pte::test {

using nlohmann::json;

namespace {

struct Entry
{
    std::string name;
    std::string data;
};

std::string bytesOf(const std::vector<double>& values, int dtype)
{
    const auto b = encode(values, dtype);
    return { b.begin(), b.end() };
}

/** 40 decimal digits derived from the entries' names and CRCs (torch hashes the record names and CRCs too). */
std::string serializationId(const std::vector<Entry>& entries)
{
    std::uint64_t a = 1469598103934665603ull;
    std::uint64_t b = 0;
    for (const auto& e : entries) {
        const auto crc = crc32(0L, reinterpret_cast<const Bytef*>(e.data.data()), uInt(e.data.size()));
        for (const char ch : e.name + std::to_string(crc)) {
            a = (a ^ std::uint8_t(ch)) * 1099511628211ull;
            b = b * 31 + std::uint8_t(ch);
        }
    }
    char digits[48];
    std::snprintf(digits, sizeof digits, "%020llu%020llu", static_cast<unsigned long long>(a),
        static_cast<unsigned long long>(b));
    return std::string(digits, 40);
}

} // namespace

Result<void> writePt2(const Dump& dump, const std::string& path, const Pt2Options& options)
{
    std::string root = options.root;
    if (root.empty()) {
        root = path.substr(path.find_last_of('/') + 1);
        root = root.substr(0, root.find_last_of('.'));
    }
    const json doc = dump.document();
    const json& tv = doc["graph_module"]["graph"]["tensor_values"];
    const std::string& model = options.model;

    // The state dict (parameters, persistent buffers) and the constants (tensor constants, non-persistent buffers),
    // one raw storage each.
    std::vector<Entry> weights;
    std::vector<Entry> constants;
    json weightsConfig = json::object();
    json constantsConfig = json::object();
    for (const auto& w : dump.weights()) {
        const bool inStateDict = !w.constant && w.persistent;
        auto& files = inStateDict ? weights : constants;
        const std::string file = (inStateDict ? "weight_" : "tensor_") + std::to_string(files.size());
        files.push_back(
            { "data/" + std::string(inStateDict ? "weights/" : "constants/") + file, bytesOf(w.data, w.dtype) });
        (inStateDict ? weightsConfig : constantsConfig)[w.fqn] = { { "path_name", file }, { "is_param", w.parameter },
            { "use_pickle", false }, { "tensor_meta", tv.at(w.placeholder) } };
    }
    std::vector<Entry> entries = weights;
    entries.push_back(
        { "data/weights/" + model + "_weights_config.json", json { { "config", weightsConfig } }.dump() });
    entries.insert(entries.end(), constants.begin(), constants.end());
    entries.push_back(
        { "data/constants/" + model + "_constants_config.json", json { { "config", constantsConfig } }.dump() });
    entries.push_back({ "models/" + model + ".json", doc.dump() });
    entries.push_back({ "archive_format", "pt2" });
    entries.push_back({ "archive_version", "0" });
    entries.push_back({ ".data/version", "6\n" });
    entries.push_back({ "byteorder", "little" });
    entries.push_back({ ".data/serialization_id", serializationId(entries) });

    zipFile zf = zipOpen64(path.c_str(), APPEND_STATUS_CREATE);
    if (!zf)
        return fail(ErrorCode::Io, path + ": cannot create the archive");
    bool ok = true;
    std::uint64_t offset = 0; // of the next local header: minizip writes no data descriptor on a seekable file
    for (const auto& e : entries) {
        const std::string name = root + "/" + e.name;
        // Local header (30 bytes) + name + extra field; the extra field "FB" + its length + 'Z' padding puts the
        // payload on a 64-byte boundary.
        const std::uint64_t start = offset + 30 + name.size() + 4;
        const std::size_t pad = std::size_t((64 - start % 64) % 64);
        std::string extra = "FB";
        extra += char(pad & 0xff);
        extra += char(pad >> 8);
        extra.append(pad, 'Z');
        zip_fileinfo info {};
        ok = ok
            && zipOpenNewFileInZip64(
                   zf, name.c_str(), &info, extra.data(), uInt(extra.size()), nullptr, 0, nullptr, 0, 0, 0)
                == ZIP_OK;
        ok = ok && zipWriteInFileInZip(zf, e.data.data(), unsigned(e.data.size())) == ZIP_OK;
        ok = ok && zipCloseFileInZip(zf) == ZIP_OK;
        offset += 30 + name.size() + extra.size() + e.data.size();
    }
    ok = zipClose(zf, nullptr) == ZIP_OK && ok;
    if (!ok)
        return fail(ErrorCode::Io, path + ": writing the archive failed");
    return {};
}

} // namespace pte::test
