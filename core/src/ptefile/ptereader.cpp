// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "pte/ptereader.h"

#include "base/fieldpath.h"
#include "pte/bundledprogram.h"
#include "pte/mappedfile.h"
#include "pte/schema/program_generated.h"
#include "ptefile/programdecoder.h"
#include "ptefile/ptereader_p.h"

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <set>
#include <system_error>

namespace pte {

namespace fb = executorch_flatbuffer;

namespace {

constexpr std::uint64_t kSegmentAlignment = 128;
constexpr std::size_t kRuntimeHeadBytes = 64;

using base::indexPath;

bool magicIs(const std::uint8_t* p, const char* m) { return std::memcmp(p, m, 4) == 0; }

bool isDigit(std::uint8_t c) { return c >= '0' && c <= '9'; }

Error notAPte(const std::string& name, const std::string& what, std::uint64_t offset = 4)
{
    return makeError(ErrorCode::NotAPteFile, name + " is not an ExecuTorch program (.pte): " + what, offset);
}

/** Explains what a file that is not ET12 looks like. */
Error identifyForeign(const std::uint8_t* d, std::size_t n, const std::string& name)
{
    const std::uint8_t* id = d + 4;
    if (n >= 4 && magicIs(d, "PK\x03\x04"))
        return notAPte(name,
            "it is a ZIP archive (for example a torch.export .pt2 or an ETRecord; open it with 'ptelens-cli graph')",
            0);
    if (n >= 4
        && magicIs(d,
            "\x7f"
            "ELF"))
        return notAPte(name, "it is an ELF executable or shared library", 0);
    if (n >= 12 && id[4] == 'E' && id[5] == 'D' && isDigit(id[6]) && isDigit(id[7]))
        return notAPte(name,
            "it looks like an ETDump profiling/debug trace (size-prefixed flatbuffer with identifier "
                + base::describeMagic(id + 4, 4) + " at byte 8)",
            8);
    if (id[0] == 'E' && id[1] == 'D' && isDigit(id[2]) && isDigit(id[3]))
        return notAPte(name, "it looks like an ETDump (identifier " + base::describeMagic(id, 4) + ")");
    if (magicIs(id, "BP08") || (id[0] == 'B' && id[1] == 'P' && isDigit(id[2]) && isDigit(id[3])))
        return notAPte(name,
            "it is a BundledProgram (.bpte, identifier " + base::describeMagic(id, 4)
                + "), which wraps a program together with test inputs and expected outputs");
    if (magicIs(id, "FT01"))
        return notAPte(name, "it is a .ptd external tensor data file (FlatTensor, identifier FT01)");
    if (id[0] == 'E' && id[1] == 'T')
        return makeError(ErrorCode::UnsupportedVersion,
            name + " is an ExecuTorch program with identifier " + base::describeMagic(id, 4)
                + ", but only ET12 programs are supported (the runtime refuses other versions)",
            4);
    const auto first = std::find_if(d, d + n, [](std::uint8_t c) { return c != ' ' && c != '\n' && c != '\t'; });
    if (first != d + n && (*first == '{' || *first == '['))
        return notAPte(name, "it looks like a JSON text file", 0);
    return notAPte(name,
        "bytes 4..7 are " + base::describeMagic(id, 4)
            + " instead of the file identifier 'ET12' (the file is not a flatbuffer program, or it is corrupt)");
}

std::set<std::string> externalNames(const Program& program)
{
    std::set<std::string> names;
    for (const auto& plan : program.executionPlan)
        for (const auto& v : plan.values)
            if (const auto* t = v.tensor())
                if (t->extraTensorInfo && t->extraTensorInfo->location == TensorDataLocation::External
                    && t->extraTensorInfo->fullyQualifiedName)
                    names.insert(*t->extraTensorInfo->fullyQualifiedName);
    return names;
}

void resolveExternal(PteFile& file, const ReadOptions& options, bool fromDisk)
{
    const auto names = externalNames(*file.program);
    auto diag = [&](Severity s, ErrorCode c, std::string msg) {
        file.diagnostics.push_back(Diagnostic { s, c, std::move(msg), std::nullopt, {}, file.path });
    };
    if (!options.externalDataPath.empty()) {
        auto ext = readPtdFile(options.externalDataPath);
        if (ext)
            file.externalData = std::move(ext).value();
        else
            diag(Severity::Error, ext.error().code, "cannot read the external data file: " + ext.error().toString());
        return;
    }
    if (names.empty() || !fromDisk || !options.findExternalDataNextToFile)
        return;
    std::error_code ec;
    const auto dir = std::filesystem::path(file.path).parent_path();
    std::vector<std::filesystem::path> candidates;
    for (std::filesystem::directory_iterator it(dir.empty() ? std::filesystem::path(".") : dir, ec), end;
         !ec && it != end; it.increment(ec)) {
        if (it->path().extension() == ".ptd")
            candidates.push_back(dir.empty() ? it->path().filename() : it->path());
    }
    std::sort(candidates.begin(), candidates.end());
    std::optional<ExternalData> best;
    std::size_t bestCovered = 0;
    for (const auto& c : candidates) {
        auto ext = readPtdFile(c.string());
        if (!ext)
            continue;
        std::size_t covered = 0;
        for (const auto& n : names)
            covered += ext->tensors.count(n);
        // A .ptd that provides none of the program's names belongs to another program in the same folder.
        if (covered > bestCovered) {
            bestCovered = covered;
            best = std::move(ext).value();
        }
        if (covered == names.size())
            break;
    }
    if (best)
        file.externalData = std::move(best);
    else
        diag(Severity::Warning, ErrorCode::OutOfRange,
            "the program has " + std::to_string(names.size())
                + " EXTERNAL tensor(s) but no .ptd file next to it provides them; the runtime needs the data "
                  "map at load time");
}

Result<std::shared_ptr<const PteFile>> readBundled(
    Bytes bytes, const std::string& name, const ReadOptions& options, bool fromDisk);

Result<std::shared_ptr<const PteFile>> readImpl(
    Bytes bytes, const std::string& name, const ReadOptions& options, bool fromDisk)
{
    const std::uint8_t* d = bytes.data();
    const std::size_t n = bytes.size();
    if (n < 8)
        return fail(ErrorCode::Truncated,
            name + " is too short to be a .pte: " + std::to_string(n)
                + " bytes, but a program starts with an 8-byte flatbuffer prefix (root offset + identifier ET12)",
            n);
    if (isBundledProgram(bytes.span()))
        return readBundled(std::move(bytes), name, options, fromDisk);
    if (!magicIs(d + 4, "ET12"))
        return fail(identifyForeign(d, n, name));

    auto file = std::make_shared<PteFile>();
    file->path = name;
    file->file = bytes;
    ptefile::FileFacts facts;
    facts.name = name;
    auto diag = [&](Severity s, ErrorCode c, std::string msg, std::optional<std::uint64_t> off, std::string path = {}) {
        file->diagnostics.push_back(Diagnostic { s, c, std::move(msg), off, std::move(path), name });
    };
    if (n < kRuntimeHeadBytes)
        diag(Severity::Error, ErrorCode::Truncated,
            "the file is " + std::to_string(n)
                + " bytes; the runtime reads the first 64 bytes and refuses shorter files",
            n);

    std::uint64_t programSize = n;
    if (n >= 12 && magicIs(d + 8, "eh00")) {
        if (n < 16)
            return fail(ErrorCode::Truncated, name + ": the file ends inside the eh00 extended header", n);
        ExtendedHeader h;
        h.length = base::loadU32(d + 12);
        if (h.length < 24)
            return fail(ErrorCode::BadExtendedHeader,
                name + ": the eh00 extended header length is " + std::to_string(h.length)
                    + ", smaller than the minimum 24 (the runtime refuses the file)",
                12);
        const std::size_t needed = 8 + std::min<std::uint32_t>(h.length, 32);
        if (n < needed)
            return fail(ErrorCode::Truncated,
                name + ": the file (" + std::to_string(n) + " bytes) ends inside the eh00 extended header, which needs "
                    + std::to_string(needed) + " bytes",
                n);
        h.programSize = base::loadU64(d + 16);
        h.segmentBaseOffset = base::loadU64(d + 24);
        h.segmentDataSize = h.length >= 32 ? base::loadU64(d + 32) : 0;
        if (h.programSize > n)
            return fail(ErrorCode::Truncated,
                name + ": the extended header's program_size " + std::to_string(h.programSize)
                    + " is larger than the file (" + std::to_string(n) + " bytes); the file is truncated",
                16);
        if (h.programSize < needed)
            return fail(ErrorCode::BadExtendedHeader,
                name + ": the extended header's program_size " + std::to_string(h.programSize)
                    + " is smaller than the header itself",
                16);
        if (h.length != 24 && h.length != 32)
            diag(Severity::Warning, ErrorCode::BadExtendedHeader,
                "unusual eh00 header length " + std::to_string(h.length) + " (ExecuTorch writes 32, pre-1.0 files 24)",
                12);
        if (h.length == 24)
            diag(Severity::Info, ErrorCode::BadExtendedHeader,
                "pre-1.0 24-byte extended header (no segment_data_size field)", 12);
        // The runtime's file-size check.
        if ((h.segmentDataSize == 0 && h.segmentBaseOffset == 0) || h.segmentDataSize > 0) {
            const bool overflow = h.segmentBaseOffset > UINT64_MAX - h.segmentDataSize;
            const std::uint64_t expected =
                h.segmentBaseOffset == 0 ? h.programSize : h.segmentBaseOffset + h.segmentDataSize;
            if (overflow || expected > n)
                diag(Severity::Error, ErrorCode::Truncated,
                    "the extended header says the file has at least "
                        + (overflow ? std::string("2^64") : std::to_string(expected)) + " bytes (segment_base_offset "
                        + std::to_string(h.segmentBaseOffset) + " + segment_data_size "
                        + std::to_string(h.segmentDataSize) + ") but it has " + std::to_string(n)
                        + "; the runtime refuses truncated files",
                    24);
            else if (h.segmentDataSize > 0 && expected != n)
                diag(Severity::Warning, ErrorCode::BadExtendedHeader,
                    std::to_string(n - expected) + " bytes follow the last segment (EXIR writes none)", expected);
        }
        if (h.segmentBaseOffset != 0 && h.segmentBaseOffset < h.programSize)
            diag(Severity::Warning, ErrorCode::BadExtendedHeader,
                "segment_base_offset " + std::to_string(h.segmentBaseOffset) + " lies inside the program (program_size "
                    + std::to_string(h.programSize) + ")",
                24);
        if (h.segmentBaseOffset % kSegmentAlignment != 0)
            diag(Severity::Warning, ErrorCode::Misaligned,
                "segment_base_offset " + std::to_string(h.segmentBaseOffset) + " is not a multiple of 128", 24);
        programSize = h.programSize;
        file->header = h;
        // The runtime treats segment_base_offset 0 as "no segments".
        facts.hasHeader = h.segmentBaseOffset != 0;
        facts.segmentBaseOffset = h.segmentBaseOffset;
    }
    file->flatbufferSize = programSize;

    const std::uint32_t root = base::loadU32(d);
    if (root < 8 || std::uint64_t(root) + 4 > programSize)
        return fail(ErrorCode::VerificationFailed,
            name + ": the flatbuffer root offset " + std::to_string(root) + " lies outside the program bytes [8, "
                + std::to_string(programSize) + "); the file is corrupt",
            0);
    if (programSize >= FLATBUFFERS_MAX_BUFFER_SIZE)
        return fail(ErrorCode::Unsupported,
            name + ": the program flatbuffer is " + std::to_string(programSize)
                + " bytes, above the flatbuffers limit of 2 GiB",
            16);

    // The program bytes must be aligned for the flatbuffer accessors; a mapping always is. Only an
    // unaligned in-memory buffer is copied (the flatbuffer part only, never the segments).
    Bytes fbBytes = bytes.slice(0, std::size_t(programSize));
    if (reinterpret_cast<std::uintptr_t>(d) % alignof(std::max_align_t) != 0) {
        auto owner = std::make_shared<std::vector<std::max_align_t>>(
            (std::size_t(programSize) + sizeof(std::max_align_t) - 1) / sizeof(std::max_align_t));
        std::memcpy(owner->data(), d, std::size_t(programSize));
        fbBytes = Bytes(owner,
            std::span<const std::uint8_t>(
                reinterpret_cast<const std::uint8_t*>(owner->data()), std::size_t(programSize)));
    }

    if (options.verify) {
        flatbuffers::Verifier::Options vo;
        vo.max_depth = options.maxDepth;
        vo.max_tables = options.maxTables;
        vo.check_alignment = true;
        flatbuffers::Verifier verifier(fbBytes.data(), fbBytes.size(), vo);
        if (!verifier.VerifyBuffer<fb::Program>("ET12"))
            return fail(ErrorCode::VerificationFailed,
                name + ": the flatbuffers verifier rejected the program (bytes 0.." + std::to_string(programSize)
                    + "): an offset, vector or string points outside the program, a string is not NUL-terminated, "
                      "a scalar is misaligned, or tables nest deeper than "
                    + std::to_string(options.maxDepth) + " / number more than " + std::to_string(options.maxTables)
                    + ". The file is corrupt or truncated; the runtime would refuse it.",
                0);
    }

    Program program = ptefile::decodeProgramFlatbuffer(fbBytes, file->diagnostics, facts);

    // Segment payloads: slices of the file (zero copy).
    std::uint64_t prevOffset = 0;
    for (std::size_t i = 0; i < program.segments.size(); ++i) {
        auto& seg = program.segments[i];
        const std::string path = indexPath("segments", i);
        if (i > 0 && seg.offset < prevOffset)
            diag(Severity::Warning, ErrorCode::InvalidProgram,
                "segments are not sorted by offset (" + std::to_string(seg.offset) + " after "
                    + std::to_string(prevOffset) + ")",
                std::nullopt, path);
        prevOffset = seg.offset;
        if (seg.offset % kSegmentAlignment != 0)
            diag(Severity::Warning, ErrorCode::Misaligned,
                "segment offset " + std::to_string(seg.offset) + " is not a multiple of 128", std::nullopt,
                path + ".offset");
        if (seg.size == 0)
            continue;
        if (!facts.hasHeader) {
            diag(Severity::Warning, ErrorCode::BadExtendedHeader,
                "segment " + std::to_string(i) + " has " + std::to_string(seg.size)
                    + " bytes but the file has no extended header (or its segment_base_offset is 0), so its data "
                      "cannot be located",
                std::nullopt, path);
            continue;
        }
        const std::uint64_t base = facts.segmentBaseOffset;
        const bool overflow = seg.offset > UINT64_MAX - base || base + seg.offset > UINT64_MAX - seg.size;
        if (overflow || base + seg.offset + seg.size > n) {
            diag(Severity::Error, ErrorCode::Truncated,
                "segment " + std::to_string(i) + " (offset " + std::to_string(seg.offset) + ", size "
                    + std::to_string(seg.size) + ", at file offset "
                    + (overflow ? std::string("beyond 2^64") : std::to_string(base + seg.offset))
                    + ") runs past the end of the file (" + std::to_string(n) + " bytes)",
                overflow ? std::nullopt : std::optional<std::uint64_t>(base + seg.offset), path);
            continue;
        }
        seg.data = bytes.slice(std::size_t(base + seg.offset), std::size_t(seg.size));
        if (base + seg.offset < programSize)
            diag(Severity::Warning, ErrorCode::InvalidProgram,
                "segment " + std::to_string(i) + " overlaps the program flatbuffer", base + seg.offset, path);
    }

    // Layout invariant: the padding before the first segment and the gaps between segments are zeros.
    if (facts.hasHeader && facts.segmentBaseOffset <= n) {
        std::vector<std::pair<std::uint64_t, std::uint64_t>> ranges; // [begin, end) of data in the file
        for (const auto& seg : program.segments)
            if (!seg.data.empty())
                ranges.emplace_back(
                    facts.segmentBaseOffset + seg.offset, facts.segmentBaseOffset + seg.offset + seg.size);
        std::sort(ranges.begin(), ranges.end());
        std::uint64_t pos = programSize;
        auto checkGap = [&](std::uint64_t begin, std::uint64_t end) {
            constexpr std::uint64_t kMaxScan = 1 << 20;
            if (begin >= end || end - begin > kMaxScan)
                return;
            for (std::uint64_t i = begin; i < end; ++i)
                if (d[i] != 0) {
                    diag(Severity::Warning, ErrorCode::InvalidProgram,
                        "non-zero byte in the padding between the program and segment data (EXIR writes zeros)", i);
                    return;
                }
        };
        for (const auto& [b, e] : ranges) {
            checkGap(pos, std::min<std::uint64_t>(b, n));
            pos = std::max(pos, e);
        }
    }

    file->program = std::make_shared<const Program>(std::move(program));
    resolveExternal(*file, options, fromDisk);
    auto checks = ptefile::checkProgramImpl(*file->program, file->externalData, &facts);
    for (auto& c : checks)
        file->diagnostics.push_back(std::move(c));
    return std::shared_ptr<const PteFile>(std::move(file));
}

/** A .bpte: the program inside, read as a .pte, plus the test cases (bundledprogram.h). */
Result<std::shared_ptr<const PteFile>> readBundled(
    Bytes bytes, const std::string& name, const ReadOptions& options, bool fromDisk)
{
    PTE_TRY(auto bundled, readBundledProgram(std::move(bytes), name));
    const std::string where = "the program inside the bundled program (bytes " + std::to_string(bundled.programOffset)
        + ".." + std::to_string(bundled.programOffset + bundled.programSize) + ")";
    if (isBundledProgram(bundled.program().span()))
        return fail(
            ErrorCode::InvalidInput, name + ": " + where + " is another bundled program", bundled.programOffset);
    auto inner = readImpl(bundled.program(), name, options, fromDisk);
    if (!inner) {
        auto e = std::move(inner).error();
        e.message = name + ": " + where + ": " + e.message;
        return e;
    }
    auto file = std::make_shared<PteFile>(**inner);
    for (auto& diag : file->diagnostics)
        if (diag.file == name)
            diag.file = name + ":program";
    file->diagnostics.push_back(Diagnostic { Severity::Info, ErrorCode::InvalidInput,
        "a bundled program (BP08, version " + std::to_string(bundled.version) + ") with "
            + std::to_string(bundled.testSuites.size()) + " test suite(s); the program is bytes "
            + std::to_string(bundled.programOffset) + ".." + std::to_string(bundled.programOffset + bundled.programSize)
            + " of the file, and its diagnostics count offsets from byte " + std::to_string(bundled.programOffset),
        bundled.programOffset, "program", name });
    for (auto& diag : checkBundledProgram(bundled, *file->program, name))
        file->diagnostics.push_back(std::move(diag));
    file->bundled = std::make_shared<const BundledProgram>(std::move(bundled));
    return std::shared_ptr<const PteFile>(std::move(file));
}

} // namespace

Result<std::shared_ptr<const PteFile>> readPteFile(const std::string& path, const ReadOptions& options)
{
    PTE_TRY(Bytes bytes, mapFile(path));
    return readImpl(std::move(bytes), path, options, true);
}

Result<std::shared_ptr<const PteFile>> readPteBytes(Bytes bytes, const std::string& name, const ReadOptions& options)
{
    return readImpl(std::move(bytes), name, options, false);
}

Diagnostics checkProgram(const Program& program, const std::optional<ExternalData>& external)
{
    return ptefile::checkProgramImpl(program, external, nullptr);
}

} // namespace pte
