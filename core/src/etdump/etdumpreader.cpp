// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "base/fieldpath.h"
#include "base/littleendian.h"
#include "etdump/etdumpdecoder.h"
#include "etdump/flatbufferwalk.h"
#include "pte/etdump.h"
#include "pte/mappedfile.h"
#include "pte/schema/etdump_generated.h"
#include "pte/schema/etdump_v010_generated.h"

#include <cstring>
#include <filesystem>
#include <limits>

namespace pte {

namespace {

namespace fbe = ::etdump;
namespace fbv = ::etdump_v010;

constexpr const char* kIdentifier = "ED00";

bool magicAt(std::span<const std::uint8_t> d, std::size_t at, const char* m)
{
    return d.size() >= at + 4 && std::memcmp(d.data() + at, m, 4) == 0;
}

/** The field kinds of the ETDump schema, for locating what the verifier refused (etdump::walkFlatbuffer). */
struct EtdumpWalkSchema
{
    using K = etdump::WalkFieldKind;
    etdump::WalkTable tensor { "Tensor",
        { { "scalar_type", K::Scalar, 1 }, { "sizes", K::ScalarVector, 8 }, { "strides", K::ScalarVector, 8 },
            { "offset", K::Scalar, 8 } } };
    etdump::WalkTable intT { "Int", { { "int_val", K::Scalar, 8 } } };
    etdump::WalkTable boolT { "Bool", { { "bool_val", K::Scalar, 1 } } };
    etdump::WalkTable floatT { "Float", { { "float_val", K::Scalar, 4 } } };
    etdump::WalkTable doubleT { "Double", { { "double_val", K::Scalar, 8 } } };
    etdump::WalkTable tensorList { "TensorList", { { "tensors", K::TableVector, 0, &tensor } } };
    etdump::WalkTable value { "Value",
        { { "val", K::Scalar, 1 }, { "tensor", K::Table, 0, &tensor }, { "tensor_list", K::Table, 0, &tensorList },
            { "int_value", K::Table, 0, &intT }, { "float_value", K::Table, 0, &floatT },
            { "double_value", K::Table, 0, &doubleT }, { "bool_value", K::Table, 0, &boolT },
            { "output", K::Table, 0, &boolT } } };
    etdump::WalkTable debugEvent { "DebugEvent",
        { { "chain_index", K::Scalar, 8 }, { "instruction_id", K::Scalar, 4 }, { "debug_entry", K::Table, 0, &value },
            { "delegate_debug_id_int", K::Scalar, 4 }, { "delegate_debug_id_str", K::String },
            { "name", K::String } } };
    etdump::WalkTable allocationEvent { "AllocationEvent",
        { { "allocator_id", K::Scalar, 4 }, { "allocation_size", K::Scalar, 8 } } };
    etdump::WalkTable profileEvent { "ProfileEvent",
        { { "name", K::String }, { "chain_index", K::Scalar, 4 }, { "instruction_id", K::Scalar, 4 },
            { "delegate_debug_id_int", K::Scalar, 4 }, { "delegate_debug_id_str", K::String },
            { "delegate_debug_metadata", K::ScalarVector, 1 }, { "start_time", K::Scalar, 8 },
            { "end_time", K::Scalar, 8 } } };
    etdump::WalkTable event { "Event",
        { { "profile_event", K::Table, 0, &profileEvent }, { "allocation_event", K::Table, 0, &allocationEvent },
            { "debug_event", K::Table, 0, &debugEvent } } };
    etdump::WalkTable allocator { "Allocator", { { "name", K::String } } };
    etdump::WalkTable runData { "RunData",
        { { "name", K::String }, { "bundled_input_index", K::Scalar, 4 },
            { "allocators", K::TableVector, 0, &allocator }, { "events", K::TableVector, 0, &event } } };
    etdump::WalkTable root { "ETDump", { { "version", K::Scalar, 4 }, { "run_data", K::TableVector, 0, &runData } } };
};

Error notAnEtdump(const std::string& name, const std::string& what, std::uint64_t offset)
{
    return makeError(ErrorCode::NotAPteFile, name + " is not an ETDump (.etdp): " + what, offset);
}

/** Says what a file without the ED00 identifier is. */
Error identifyForeign(std::span<const std::uint8_t> d, const std::string& name)
{
    if (magicAt(d, 0, "PK\x03\x04"))
        return notAnEtdump(name, "it is a ZIP archive (a .pt2 dump or an ETRecord)", 0);
    if (magicAt(d, 4, "ET12"))
        return notAnEtdump(name, "it is an ExecuTorch program (.pte, identifier ET12 at byte 4)", 4);
    if (magicAt(d, 4, "BP08"))
        return notAnEtdump(name, "it is a bundled program (.bpte, identifier BP08 at byte 4)", 4);
    if (magicAt(d, 4, "FT01"))
        return notAnEtdump(name, "it is a .ptd external data file (identifier FT01 at byte 4)", 4);
    if (d.size() >= 12 && d[8] == 'E' && d[9] == 'D')
        return makeError(ErrorCode::UnsupportedVersion,
            name + " has the ETDump-like identifier " + base::describeMagic(d.data() + 8, 4)
                + " at byte 8, but only ED00 is known",
            8);
    return notAnEtdump(name,
        "neither bytes 8..11 (" + (d.size() >= 12 ? base::describeMagic(d.data() + 8, 4) : std::string("missing"))
            + ", after a size prefix) nor bytes 4..7 (" + base::describeMagic(d.data() + 4, 4)
            + ") are the identifier 'ED00'",
        d.size() >= 12 ? 8 : 4);
}

/**
 * The v0.1.0 block layout, when both schemas verify: no RunData uses a fourth slot, and some RunData has
 * exactly three with the third (events then, allocators now) set.
 */
template <typename Root> bool looksLikeV010(const Root* root, const std::uint8_t* base, std::size_t size)
{
    const auto* runs = root->run_data();
    if (!runs)
        return false;
    bool threeSlotsWithEvents = false;
    for (flatbuffers::uoffset_t i = 0; i < runs->size(); ++i) {
        const auto* table = reinterpret_cast<const std::uint8_t*>(runs->Get(i));
        const std::int32_t soffset = std::int32_t(base::loadU32(table));
        const std::uint8_t* vt = table - soffset;
        if (vt < base || vt + 4 > base + size)
            return false;
        const std::uint16_t vtSize = std::uint16_t(vt[0] | (vt[1] << 8));
        const std::size_t slots = vtSize >= 4 ? (vtSize - 4) / 2 : 0;
        if (slots > 3)
            return false;
        if (slots == 3 && (vt[8] | vt[9]) != 0)
            threeSlotsWithEvents = true;
    }
    return threeSlotsWithEvents;
}

/** Which debug-buffer files to try next to an ETDump. */
std::vector<std::filesystem::path> debugBufferCandidates(const std::string& path)
{
    const std::filesystem::path p(path);
    const auto dir = p.parent_path();
    const auto stem = p.stem().string();
    return { dir / (stem + ".bin"), dir / (stem + "_debug.bin"), dir / (stem + ".debug.bin"), dir / "debug_output.bin",
        dir / "debug.bin" };
}

/** The largest end offset of any logged tensor's bytes (0 when none), and how many tensors have bytes. */
std::pair<std::uint64_t, std::size_t> tensorExtent(const EtDump& dump)
{
    std::uint64_t end = 0;
    std::size_t count = 0;
    for (const auto& v : dump.values)
        for (const auto& t : v.tensors) {
            const auto n = t.nbytes();
            if (t.offset < 0 || !n || *n == 0)
                continue;
            ++count;
            const std::uint64_t e =
                std::uint64_t(t.offset) > UINT64_MAX - *n ? UINT64_MAX : std::uint64_t(t.offset) + *n;
            end = std::max(end, e);
        }
    return { end, count };
}

void checkDebugBuffer(EtDump& dump)
{
    const auto [extent, count] = tensorExtent(dump);
    if (count == 0)
        return;
    auto diag = [&](Severity s, ErrorCode c, std::string msg, std::optional<std::uint64_t> off = {},
                    std::string path = {}) {
        dump.diagnostics.push_back(Diagnostic { s, c, std::move(msg), off, std::move(path), dump.path });
    };
    if (dump.debugBuffer.empty() && dump.debugBufferPath.empty()) {
        diag(Severity::Info, ErrorCode::OutOfRange,
            std::to_string(count)
                + " logged tensor(s) keep their bytes in a debug buffer that was not given (the runtime's "
                  "--debug-buffer / debug_output.bin); their shapes are known, their values are not");
        return;
    }
    if (extent <= dump.debugBuffer.size())
        return;
    // Name the first tensor outside the buffer by event.
    for (std::size_t r = 0; r < dump.runs.size(); ++r) {
        const auto& run = dump.runs[r];
        for (std::uint32_t i = 0; i < run.eventCount; ++i) {
            const auto& e = dump.events[run.firstEvent + i];
            const auto* v = dump.value(e);
            if (!v)
                continue;
            for (const auto& t : v->tensors) {
                const auto n = t.nbytes();
                if (t.offset < 0 || !n || *n == 0 || std::uint64_t(t.offset) + *n <= dump.debugBuffer.size())
                    continue;
                diag(Severity::Warning, ErrorCode::OutOfRange,
                    "a logged tensor's bytes [" + std::to_string(t.offset) + ", "
                        + std::to_string(std::uint64_t(t.offset) + *n) + ") run past the end of the debug buffer "
                        + dump.debugBufferPath + " (" + std::to_string(dump.debugBuffer.size())
                        + " bytes); is it the buffer of this run?",
                    e.fileOffset,
                    base::indexPath("run_data", r) + base::indexPath(".events", i) + ".debug_event.debug_entry");
                return;
            }
        }
    }
}

Result<std::shared_ptr<const EtDump>> readImpl(
    Bytes bytes, const std::string& name, Bytes debugBuffer, std::string debugBufferPath, const EtdumpReadOptions& o)
{
    const auto d = bytes.span();
    if (d.size() < 8)
        return fail(ErrorCode::Truncated,
            name + " is too short to be an ETDump: " + std::to_string(d.size())
                + " bytes (an empty file is what the runtime leaves when nothing was recorded)",
            d.size());
    auto dump = std::make_shared<EtDump>();
    dump->path = name;
    dump->file = bytes;
    auto diag = [&](Severity s, ErrorCode c, std::string msg, std::optional<std::uint64_t> off = {},
                    std::string path = {}) {
        dump->diagnostics.push_back(Diagnostic { s, c, std::move(msg), off, std::move(path), name });
    };

    std::size_t length = d.size();
    if (magicAt(d, 8, kIdentifier)) {
        const std::uint64_t declared = base::loadU32(d.data());
        if (declared + 4 > d.size())
            return fail(ErrorCode::Truncated,
                name + ": the size prefix says " + std::to_string(declared) + " bytes follow, but the file has "
                    + std::to_string(d.size() - 4) + "; the ETDump is truncated",
                0);
        if (declared + 4 < d.size())
            diag(Severity::Warning, ErrorCode::InvalidInput,
                std::to_string(d.size() - 4 - declared) + " byte(s) follow the ETDump (the size prefix covers bytes 4.."
                    + std::to_string(declared + 4) + "); they are ignored",
                declared + 4);
        length = std::size_t(declared + 4);
        dump->sizePrefixed = true;
    } else if (magicAt(d, 4, kIdentifier)) {
        dump->sizePrefixed = false;
    } else {
        return fail(identifyForeign(d, name));
    }
    if (length >= FLATBUFFERS_MAX_BUFFER_SIZE)
        return fail(ErrorCode::Unsupported,
            name + ": the ETDump is " + std::to_string(length) + " bytes, above the flatbuffers limit of 2 GiB", 0);

    // The accessors need the buffer aligned; a mapping is. Only an unaligned in-memory buffer is copied.
    Bytes fb = bytes.slice(0, length);
    if (reinterpret_cast<std::uintptr_t>(fb.data()) % alignof(std::max_align_t) != 0) {
        auto owner = std::make_shared<std::vector<std::max_align_t>>(
            (length + sizeof(std::max_align_t) - 1) / sizeof(std::max_align_t));
        std::memcpy(owner->data(), fb.data(), length);
        fb = Bytes(owner, std::span<const std::uint8_t>(reinterpret_cast<const std::uint8_t*>(owner->data()), length));
        dump->file = fb;
    }
    const std::size_t rootAt = dump->sizePrefixed ? 4 : 0;

    flatbuffers::Verifier::Options vo;
    vo.max_depth = o.maxDepth;
    vo.max_tables = o.maxTables;
    vo.check_alignment = true;
    auto verifies = [&](auto tag) {
        using Root = typename decltype(tag)::type;
        flatbuffers::Verifier v(fb.data(), fb.size(), vo);
        return dump->sizePrefixed ? v.VerifySizePrefixedBuffer<Root>(kIdentifier) : v.VerifyBuffer<Root>(kIdentifier);
    };
    struct CurrentTag
    {
        using type = fbe::ETDump;
    };
    struct V010Tag
    {
        using type = fbv::ETDump;
    };
    const bool current = o.layout != EtdumpLayout::V010 && verifies(CurrentTag {});
    const auto* base = fb.data() + rootAt;
    const auto* currentRoot = flatbuffers::GetRoot<fbe::ETDump>(base);
    // Auto: the v0.1.0 reading needs the blocks to look like v0.1.0 ones (a corrupt current-layout buffer can verify
    // as v0.1.0 when the damage sits in a slot that layout does not read). The vtables are read only once a verifier
    // has accepted the buffer.
    bool v010 = false;
    if (o.layout == EtdumpLayout::V010)
        v010 = verifies(V010Tag {});
    else if (o.layout == EtdumpLayout::Auto && current)
        v010 = looksLikeV010(currentRoot, fb.data(), fb.size()) && verifies(V010Tag {});
    else if (o.layout == EtdumpLayout::Auto)
        v010 = verifies(V010Tag {}) && looksLikeV010(currentRoot, fb.data(), fb.size());
    if (current && v010)
        dump->layout = EtdumpLayout::V010;
    else if (current)
        dump->layout = EtdumpLayout::Current;
    else if (v010)
        dump->layout = EtdumpLayout::V010;
    else {
        const EtdumpWalkSchema schema;
        const auto problem = etdump::walkFlatbuffer(fb.span(), rootAt, schema.root, o.maxDepth);
        std::string layouts = o.layout == EtdumpLayout::Auto
            ? "either ETDump layout (v0.2.0+ or v0.1.0)"
            : std::string("the ") + etdumpLayoutName(o.layout) + " ETDump layout";
        if (problem)
            return fail(ErrorCode::VerificationFailed,
                name + ": the flatbuffers verifier rejected the ETDump as " + layouts + ": " + problem->what
                    + "; the file is corrupt or truncated",
                problem->offset, problem->fieldPath);
        return fail(ErrorCode::VerificationFailed,
            name + ": the flatbuffers verifier rejected the ETDump as " + layouts + " (bytes 0.."
                + std::to_string(length) + "): tables nest deeper than " + std::to_string(o.maxDepth)
                + " or number more than " + std::to_string(o.maxTables) + ", or a field does not fit the schema",
            0);
    }
    if (dump->layout == EtdumpLayout::V010)
        diag(Severity::Info, ErrorCode::UnsupportedVersion,
            "read with the ExecuTorch v0.1.0 block layout (event blocks without bundled_input_index)");

    etdump::decodeEtdump(*dump, fb.data(), base);

    dump->debugBuffer = std::move(debugBuffer);
    dump->debugBufferPath = std::move(debugBufferPath);
    return std::shared_ptr<const EtDump>(std::move(dump));
}

} // namespace

const char* etdumpLayoutName(EtdumpLayout layout) noexcept
{
    switch (layout) {
    case EtdumpLayout::Auto:
        return "auto";
    case EtdumpLayout::Current:
        return "current";
    case EtdumpLayout::V010:
        return "v0.1.0";
    }
    return "?";
}

const char* etdumpValueTypeName(EtdumpValueType type) noexcept
{
    switch (type) {
    case EtdumpValueType::Null:
        return "Null";
    case EtdumpValueType::Int:
        return "Int";
    case EtdumpValueType::Bool:
        return "Bool";
    case EtdumpValueType::Float:
        return "Float";
    case EtdumpValueType::Double:
        return "Double";
    case EtdumpValueType::Tensor:
        return "Tensor";
    case EtdumpValueType::TensorList:
        return "TensorList";
    case EtdumpValueType::String:
        return "String";
    }
    return "?";
}

std::optional<std::uint64_t> EtdumpTensor::numel() const noexcept
{
    std::uint64_t n = 1;
    for (const auto s : sizes) {
        if (s < 0)
            return std::nullopt;
        if (s != 0 && n > std::numeric_limits<std::uint64_t>::max() / std::uint64_t(s))
            return std::nullopt;
        n *= std::uint64_t(s);
    }
    return n;
}

std::optional<std::uint64_t> EtdumpTensor::nbytes() const noexcept
{
    const auto n = numel();
    const std::size_t es = elementSize(scalarType);
    if (!n || es == 0 || *n > std::numeric_limits<std::uint64_t>::max() / es)
        return std::nullopt;
    return *n * es;
}

std::string EtDump::delegateIdentifier(const EtdumpEvent& e) const
{
    if (e.delegateDebugIdInt != -1)
        return std::to_string(e.delegateDebugIdInt);
    return std::string(string(e.delegateDebugIdStr));
}

Bytes EtDump::delegateMetadata(const EtdumpEvent& e) const
{
    if (!e.hasMetadata || std::uint64_t(e.metadataOffset) + e.metadataSize > file.size())
        return {};
    return file.slice(e.metadataOffset, e.metadataSize);
}

Result<Bytes> EtDump::tensorData(const EtdumpTensor& t) const
{
    const auto n = t.nbytes();
    if (!n)
        return fail(ErrorCode::Unsupported,
            std::string("a logged tensor of dtype ") + scalarTypeShortName(t.scalarType)
                + " has no known size in bytes");
    if (*n == 0)
        return Bytes(debugBuffer.owner(), {});
    if (t.offset < 0)
        return fail(ErrorCode::OutOfRange, "the logged tensor has no bytes (offset -1)");
    if (debugBuffer.empty() && debugBufferPath.empty())
        return fail(ErrorCode::OutOfRange, path + ": no debug buffer was given, so logged tensor values are unknown");
    if (std::uint64_t(t.offset) > debugBuffer.size() || *n > debugBuffer.size() - std::uint64_t(t.offset))
        return fail(ErrorCode::OutOfRange,
            "the logged tensor's bytes [" + std::to_string(t.offset) + ", "
                + std::to_string(std::uint64_t(t.offset) + *n) + ") run past the end of the debug buffer "
                + debugBufferPath + " (" + std::to_string(debugBuffer.size()) + " bytes)",
            std::uint64_t(t.offset));
    return debugBuffer.slice(std::size_t(t.offset), std::size_t(*n));
}

std::size_t EtDump::count(EtdumpEventKind kind) const noexcept
{
    std::size_t n = 0;
    for (const auto& e : events)
        n += e.kind == kind;
    return n;
}

bool looksLikeEtdump(std::span<const std::uint8_t> head) noexcept
{
    return magicAt(head, 8, kIdentifier) || magicAt(head, 4, kIdentifier);
}

Result<std::shared_ptr<const EtDump>> readEtdumpFile(const std::string& path, const EtdumpReadOptions& options)
{
    PTE_TRY(Bytes bytes, mapFile(path));
    Bytes buffer;
    std::string bufferPath;
    if (!options.debugBufferPath.empty()) {
        auto mapped = mapFile(options.debugBufferPath);
        if (!mapped)
            return fail(ErrorCode::Io,
                "cannot read the debug buffer " + options.debugBufferPath + ": " + mapped.error().message);
        buffer = std::move(mapped).value();
        bufferPath = options.debugBufferPath;
    }
    PTE_TRY(auto dump, readImpl(std::move(bytes), path, buffer, bufferPath, options));
    auto mutableDump = std::const_pointer_cast<EtDump>(dump);
    if (bufferPath.empty() && options.findDebugBufferNextToFile) {
        const auto [extent, count] = tensorExtent(*dump);
        if (count > 0) {
            std::string tooSmall;
            for (const auto& candidate : debugBufferCandidates(path)) {
                std::error_code ec;
                if (!std::filesystem::is_regular_file(candidate, ec))
                    continue;
                auto mapped = mapFile(candidate.string());
                if (!mapped)
                    continue;
                if (mapped->size() < extent) {
                    if (tooSmall.empty())
                        tooSmall = candidate.string();
                    continue;
                }
                mutableDump->debugBuffer = std::move(mapped).value();
                mutableDump->debugBufferPath = candidate.string();
                mutableDump->diagnostics.push_back(Diagnostic { Severity::Info, ErrorCode::Io,
                    "using the debug buffer found next to the ETDump: " + candidate.string(), std::nullopt, {}, path });
                break;
            }
            if (mutableDump->debugBufferPath.empty() && !tooSmall.empty())
                mutableDump->diagnostics.push_back(Diagnostic { Severity::Warning, ErrorCode::OutOfRange,
                    tooSmall + " is next to the ETDump but is too small for its logged tensors (they need "
                        + std::to_string(extent) + " bytes); it was not used",
                    std::nullopt, {}, path });
        }
    }
    checkDebugBuffer(*mutableDump);
    return dump;
}

Result<std::shared_ptr<const EtDump>> readEtdumpBytes(
    Bytes bytes, const std::string& name, Bytes debugBuffer, const EtdumpReadOptions& options)
{
    const bool haveBuffer = !debugBuffer.empty();
    PTE_TRY(
        auto dump, readImpl(std::move(bytes), name, debugBuffer, haveBuffer ? name + ":debug-buffer" : "", options));
    checkDebugBuffer(*std::const_pointer_cast<EtDump>(dump));
    return dump;
}

} // namespace pte
