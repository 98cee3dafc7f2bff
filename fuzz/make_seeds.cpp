// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// Writes the fuzzers' seed corpora (build time only; nothing here ships):
//   <out>/pte     small synthetic programs (the `ptelens-cli synth` generator)
//   <out>/json    tests/data/dumps/*.json and tests/data/emit/*.json
//   <out>/dump    the same JSON documents plus PT2, legacy and ETRecord zips built around them
//   <out>/pickle  hand-assembled torch.save pickles (protocol 2) and torch.save zips
//   <out>/etdump  synthetic ETDumps of those programs (first byte: debug-buffer length / 16, see fuzz_etdump.cpp)
//   <out>/delegate  delegate payloads (a backend-selector byte, then the payload): synthetic XNNPACK graphs,
//                 a program holding one, and the magic bytes of every backend the identification table knows
// Usage: ptelens_fuzz_seeds <out> <source dir>

#include "pte/delegatesynth.h"
#include "pte/ptewriter.h"
#include "pte/syntheticetdump.h"
#include "pte/syntheticprogram.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <minizip/zip.h>
#include <string>
#include <utility>
#include <vector>
#include <zlib.h>

namespace fs = std::filesystem;

namespace {

bool writeFile(const fs::path& path, const std::string& data)
{
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(data.data(), static_cast<std::streamsize>(data.size()));
    return static_cast<bool>(out);
}

std::string readFile(const fs::path& path)
{
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

struct Entry
{
    std::string name;
    std::string data;
    bool deflate = false;
};

/** A zip archive written with minizip (into `scratch`), returned as bytes. */
std::string makeZip(const fs::path& scratch, const std::vector<Entry>& entries)
{
    zipFile zf = zipOpen(scratch.c_str(), APPEND_STATUS_CREATE);
    if (!zf)
        return {};
    for (const auto& e : entries) {
        zip_fileinfo info {};
        const int method = e.deflate ? Z_DEFLATED : 0;
        const int level = e.deflate ? Z_DEFAULT_COMPRESSION : 0;
        if (zipOpenNewFileInZip(zf, e.name.c_str(), &info, nullptr, 0, nullptr, 0, nullptr, method, level) != ZIP_OK
            || zipWriteInFileInZip(zf, e.data.data(), static_cast<unsigned>(e.data.size())) != ZIP_OK
            || zipCloseFileInZip(zf) != ZIP_OK) {
            zipClose(zf, nullptr);
            return {};
        }
    }
    zipClose(zf, nullptr);
    std::string bytes = readFile(scratch);
    fs::remove(scratch);
    return bytes;
}

// --- protocol-2 pickle pieces ---------------------------------------------------------------------------

std::string le32(std::uint32_t v)
{
    std::string s;
    for (int i = 0; i < 4; ++i)
        s.push_back(static_cast<char>((v >> (8 * i)) & 0xffu));
    return s;
}
std::string pkString(const std::string& s) { return "X" + le32(static_cast<std::uint32_t>(s.size())) + s; }
std::string pkInt(std::int32_t v) { return "J" + le32(static_cast<std::uint32_t>(v)); }
std::string pkGlobal(const std::string& module, const std::string& name) { return "c" + module + "\n" + name + "\n"; }
std::string pkIntTuple(const std::vector<std::int32_t>& values)
{
    std::string s = "(";
    for (const auto v : values)
        s += pkInt(v);
    return s + "t";
}

struct SeedTensor
{
    std::string name;
    std::string storageClass;
    std::string key;
    std::int32_t numel = 0;
    std::vector<std::int32_t> sizes;
    std::vector<std::int32_t> strides;
    bool parameter = false;
};

std::string tensorOps(const SeedTensor& t)
{
    std::string p;
    if (t.parameter)
        p += pkGlobal("torch._utils", "_rebuild_parameter") + "(";
    p += pkGlobal("torch._utils", "_rebuild_tensor_v2") + "(";
    // persistent id: ('storage', <class>, key, location, numel), then BINPERSID
    p += "(" + pkString("storage") + pkGlobal("torch", t.storageClass) + pkString(t.key) + pkString("cpu")
        + pkInt(t.numel) + "tQ";
    p += pkInt(0) + pkIntTuple(t.sizes) + pkIntTuple(t.strides) + "\x89" + pkGlobal("collections", "OrderedDict")
        + ")RtR";
    if (t.parameter)
        p += "\x88" + pkGlobal("collections", "OrderedDict") + ")RtR";
    return p;
}

std::string stateDict(const std::vector<SeedTensor>& tensors)
{
    std::string p = "\x80\x02";
    p += pkGlobal("collections", "OrderedDict") + ")R(";
    for (const auto& t : tensors)
        p += pkString(t.name) + tensorOps(t);
    return p + "u.";
}

std::string tupleOfTensors(const std::vector<SeedTensor>& tensors)
{
    std::string p = "\x80\x02(";
    for (const auto& t : tensors)
        p += tensorOps(t);
    return p + "t.";
}

/** Sample inputs as torch.export saves them: an (args, kwargs) pair. */
std::string sampleInputs(const SeedTensor& t) { return "\x80\x02((" + tensorOps(t) + "t}t."; }

std::string fakeTensorDict()
{
    const std::string meta = R"({"dtype": 7, "sizes": [{"as_int": 2}], "requires_grad": false, )"
                             R"("device": {"type": "cpu"}, "strides": [{"as_int": 1}], )"
                             R"("storage_offset": {"as_int": 0}, "layout": 5})";
    std::string p = "\x80\x02}(" + pkString("w");
    p += pkGlobal("torch._export.serde.serialize", "_reconstruct_fake_tensor");
    p += pkGlobal("_codecs", "encode") + pkString(meta) + pkString("latin1") + "\x86R";
    p += "\x89\x86R";
    return p + "u.";
}

std::string floats(std::size_t n)
{
    std::string s;
    for (std::size_t i = 0; i < n; ++i) {
        const float f = 0.5f * static_cast<float>(i);
        char raw[4];
        std::memcpy(raw, &f, 4);
        s.append(raw, 4);
    }
    return s;
}

std::string torchSaveZip(const fs::path& scratch, const std::string& pickle,
    const std::vector<std::pair<std::string, std::string>>& storages, bool deflate = false)
{
    std::vector<Entry> entries { { "archive/data.pkl", pickle, deflate }, { "archive/byteorder", "little" } };
    for (const auto& [key, data] : storages)
        entries.push_back({ "archive/data/" + key, data, deflate });
    entries.push_back({ "archive/version", "3\n" });
    return makeZip(scratch, entries);
}

} // namespace

int main(int argc, char** argv)
{
    if (argc != 3) {
        std::cerr << "usage: " << argv[0] << " <out dir> <source dir>\n";
        return 2;
    }
    const fs::path out = argv[1];
    const fs::path source = argv[2];
    for (const char* sub : { "pte", "json", "dump", "pickle", "etdump", "delegate" })
        fs::create_directories(out / sub);
    const fs::path scratch = out / "scratch.zip";
    int failures = 0;

    // .pte: small synthetic programs of a few shapes.
    const pte::SyntheticOptions shapes[] = {
        { 2, 0, 1, 4 },
        { 6, 64, 2, 8 },
        { 12, 300, 1, 16 },
        { 3, 16, 3, 1 },
    };
    int index = 0;
    for (const auto& shape : shapes) {
        const std::string path = (out / "pte" / ("synth" + std::to_string(index++) + ".pte")).string();
        auto program = pte::makeSyntheticProgram(shape);
        if (!program || !pte::writePte(program.value(), path)) {
            std::cerr << "ptelens_fuzz_seeds: cannot write " << path << "\n";
            ++failures;
            continue;
        }
        for (const bool prefixed : { true, false }) {
            const auto name = "synth" + std::to_string(index - 1) + (prefixed ? ".etdp" : "_unprefixed.etdp");
            auto trace = pte::makeSyntheticEtdump(program.value(), pte::SyntheticEtdumpOptions { {}, 2, prefixed, 10 });
            if (!trace) {
                ++failures;
                continue;
            }
            auto bytes = pte::serializeEtdump(trace.value(), prefixed);
            if (!bytes) {
                ++failures;
                continue;
            }
            // First byte 0: no debug buffer (fuzz_etdump.cpp).
            failures += !writeFile(
                out / "etdump" / name, std::string(1, '\0') + std::string(bytes.value().begin(), bytes.value().end()));
        }
    }

    // Delegate payloads: byte 0 selects the backend id in fuzz_delegate (0 = XnnpackBackend, 2 = CoreMLBackend, ...).
    {
        const auto xnnpack = pte::makeSyntheticXnnpackPayload(13);
        failures +=
            !writeFile(out / "delegate" / "xnnpack13", std::string(1, '\0') + std::string(xnnpack.asStringView()));
        const std::string magics[][2] = { { "\x01", std::string("\0\0\0\0VH00\x1e\0", 10) },
            { "\x02", "CMJR{\"key\": \"k\"}" }, { "\x02", "}][ :\"sedon\"{" },
            { "\x03", std::string("\xcd\xab\x78\x56", 4) + std::string(260, '\0') },
            { "\x04", std::string("vela_bin_stream\0", 16) + std::string(16, '\0') },
            { "\x05", "VGF1" + std::string(92, '\0') }, { "\x06", std::string(48, '\0') },
            { "\x07", std::string(13, '\x01') } };
        int m = 0;
        for (const auto& [selector, bytes] : magics)
            failures += !writeFile(out / "delegate" / ("magic" + std::to_string(m++)), selector + bytes);
        const std::string path = (out / "pte" / "delegate.pte").string();
        if (!pte::writePte(pte::makeSingleDelegateProgram(xnnpack), path)) {
            std::cerr << "ptelens_fuzz_seeds: cannot write " << path << "\n";
            ++failures;
        }
    }

    // JSON documents (committed test data).
    std::vector<std::pair<std::string, std::string>> documents;
    for (const char* dir : { "tests/data/dumps", "tests/data/emit" }) {
        std::vector<fs::path> files;
        for (const auto& e : fs::directory_iterator(source / dir))
            if (e.path().extension() == ".json")
                files.push_back(e.path());
        std::sort(files.begin(), files.end());
        for (const auto& f : files)
            documents.emplace_back(fs::path(dir).filename().string() + "_" + f.filename().string(), readFile(f));
    }
    for (const auto& [name, text] : documents) {
        failures += !writeFile(out / "json" / name, text);
        failures += !writeFile(out / "dump" / name, text);
    }

    // Pickles and torch.save zips.
    const std::vector<SeedTensor> tensors {
        { "weight", "FloatStorage", "0", 6, { 2, 3 }, { 3, 1 }, true },
        { "bias", "FloatStorage", "1", 2, { 2 }, { 1 }, true },
        { "scale", "FloatStorage", "0", 6, { 3 }, { 2 }, false },
    };
    const std::vector<std::pair<std::string, std::string>> storages { { "0", floats(6) }, { "1", floats(2) } };
    const std::string dict = stateDict(tensors);
    failures += !writeFile(out / "pickle" / "state_dict.pkl", dict);
    failures += !writeFile(out / "pickle" / "tuple.pkl", tupleOfTensors(tensors));
    failures += !writeFile(out / "pickle" / "fake.pkl", fakeTensorDict());
    const std::string saved = torchSaveZip(scratch, dict, storages);
    failures += !writeFile(out / "pickle" / "state_dict.pt", saved);
    failures += !writeFile(out / "pickle" / "state_dict_deflated.pt", torchSaveZip(scratch, dict, storages, true));
    const std::string sample = torchSaveZip(scratch, sampleInputs(tensors[1]), { storages[1] });

    // Dump containers around the first dump document (the linear-ish test dumps all parse on their own).
    const std::string& program = documents.front().second;
    failures += !writeFile(out / "dump" / "pt2.pt2",
        makeZip(scratch,
            { { "model/archive_format", "pt2" }, { "model/models/model.json", program, true },
                { "model/data/weights/model.pt", saved }, { "model/data/sample_inputs/model.pt", sample } }));
    failures += !writeFile(out / "dump" / "legacy.pt2",
        makeZip(scratch,
            { { "ep/serialized_exported_program.json", program }, { "ep/serialized_state_dict.pt", saved },
                { "ep/serialized_example_inputs.pt", sample } }));
    failures += !writeFile(out / "dump" / "etrecord.bin",
        makeZip(scratch,
            { { "ETRECORD_V0", "" }, { "edge_dialect_exported_program", program, true },
                { "edge_dialect_exported_program_state_dict", saved } }));
    failures += !writeFile(out / "dump" / "torch_save.pt", saved);

    std::cout << "ptelens_fuzz_seeds: corpora in " << out.string() << (failures ? " (with failures)" : "") << "\n";
    return failures ? 1 : 0;
}
