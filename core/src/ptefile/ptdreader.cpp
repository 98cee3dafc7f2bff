// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// Reader for ExecuTorch's external tensor data files (.ptd, FlatTensor, identifier FT01).
#include "pte/mappedfile.h"
#include "pte/schema/flat_tensor_generated.h"
#include "ptefile/ptereader_p.h"

#include <cstring>

namespace pte {

namespace ft = flat_tensor_flatbuffer;

namespace ptefile {

Result<ExternalData> readPtdBytes(const Bytes& bytes, const std::string& name)
{
    const std::uint8_t* d = bytes.data();
    const std::size_t n = bytes.size();
    if (n < 8)
        return fail(
            ErrorCode::Truncated, name + " is too short to be a .ptd file (" + std::to_string(n) + " bytes)", n);
    if (std::memcmp(d + 4, "FT01", 4) != 0)
        return fail(ErrorCode::NotAPteFile,
            name + " is not a .ptd external data file: bytes 4..7 are " + base::describeMagic(d + 4, 4)
                + " instead of the identifier 'FT01'",
            4);
    std::uint64_t fbEnd = n;
    std::uint64_t segmentBase = 0;
    bool hasHeader = false;
    if (n >= 12 && std::memcmp(d + 8, "FH01", 4) == 0) {
        if (n < 48)
            return fail(ErrorCode::Truncated, name + ": the file ends inside the FH01 header", n);
        const std::uint32_t length = base::loadU32(d + 12);
        if (length < 40)
            return fail(ErrorCode::BadExtendedHeader,
                name + ": the FH01 header length is " + std::to_string(length) + ", smaller than 40", 12);
        const std::uint64_t fbOffset = base::loadU64(d + 16);
        const std::uint64_t fbSize = base::loadU64(d + 24);
        segmentBase = base::loadU64(d + 32);
        const std::uint64_t segmentSize = base::loadU64(d + 40);
        if (fbOffset > n || fbSize > n - fbOffset)
            return fail(ErrorCode::Truncated,
                name + ": the FH01 header places the flatbuffer at [" + std::to_string(fbOffset) + ", +"
                    + std::to_string(fbSize) + ") beyond the end of the file (" + std::to_string(n) + " bytes)",
                16);
        if (segmentBase > n || segmentSize > n - segmentBase)
            return fail(ErrorCode::Truncated,
                name + ": the FH01 header places the segments at [" + std::to_string(segmentBase) + ", +"
                    + std::to_string(segmentSize) + ") beyond the end of the file (" + std::to_string(n) + " bytes)",
                32);
        fbEnd = fbOffset + fbSize;
        hasHeader = true;
    }
    if (fbEnd >= FLATBUFFERS_MAX_BUFFER_SIZE)
        return fail(ErrorCode::Unsupported, name + ": the flatbuffer is larger than 2 GiB", 24);

    Bytes fbBytes = bytes.slice(0, std::size_t(fbEnd));
    if (reinterpret_cast<std::uintptr_t>(d) % alignof(std::max_align_t) != 0) {
        auto owner = std::make_shared<std::vector<std::max_align_t>>(
            (std::size_t(fbEnd) + sizeof(std::max_align_t) - 1) / sizeof(std::max_align_t));
        std::memcpy(owner->data(), d, std::size_t(fbEnd));
        fbBytes = Bytes(owner,
            std::span<const std::uint8_t>(reinterpret_cast<const std::uint8_t*>(owner->data()), std::size_t(fbEnd)));
    }
    flatbuffers::Verifier verifier(fbBytes.data(), fbBytes.size());
    if (!verifier.VerifyBuffer<ft::FlatTensor>("FT01"))
        return fail(ErrorCode::VerificationFailed,
            name + ": the flatbuffers verifier rejected the FlatTensor data (bytes 0.." + std::to_string(fbEnd)
                + "); the file is corrupt or truncated",
            0);
    const auto* root = flatbuffers::GetRoot<ft::FlatTensor>(fbBytes.data());

    std::vector<Bytes> segments;
    if (const auto* segs = root->segments()) {
        for (flatbuffers::uoffset_t i = 0; i < segs->size(); ++i) {
            const auto* s = segs->Get(i);
            const std::uint64_t off = s->offset();
            const std::uint64_t size = s->size();
            if (!hasHeader && size > 0)
                return fail(ErrorCode::BadExtendedHeader,
                    name + ": segment " + std::to_string(i) + " has data but the file has no FH01 header", 8,
                    "segments[" + std::to_string(i) + "]");
            if (off > n || segmentBase > n - off || size > n - segmentBase - off)
                return fail(ErrorCode::Truncated,
                    name + ": segment " + std::to_string(i) + " (offset " + std::to_string(off) + ", size "
                        + std::to_string(size) + ") runs past the end of the file (" + std::to_string(n) + " bytes)",
                    std::nullopt, "segments[" + std::to_string(i) + "]");
            segments.push_back(bytes.slice(std::size_t(segmentBase + off), std::size_t(size)));
        }
    }

    ExternalData out;
    out.path = name;
    if (const auto* named = root->named_data()) {
        for (flatbuffers::uoffset_t i = 0; i < named->size(); ++i) {
            const auto* nd = named->Get(i);
            const std::string path = "named_data[" + std::to_string(i) + "]";
            if (!nd->key())
                return fail(ErrorCode::InvalidInput, name + ": a named_data entry has no key", std::nullopt, path);
            if (nd->segment_index() >= segments.size())
                return fail(ErrorCode::OutOfRange,
                    name + ": named data '" + nd->key()->str() + "' refers to segment "
                        + std::to_string(nd->segment_index()) + " but the file has " + std::to_string(segments.size()),
                    std::nullopt, path + ".segment_index");
            ExternalTensor t;
            t.key = nd->key()->str();
            if (const auto* layout = nd->tensor_layout()) {
                t.scalarType = static_cast<ScalarType>(static_cast<std::int8_t>(layout->scalar_type()));
                if (const auto* sizes = layout->sizes())
                    t.sizes.assign(sizes->begin(), sizes->end());
                if (const auto* dims = layout->dim_order())
                    t.dimOrder.assign(dims->begin(), dims->end());
            }
            t.data = segments[nd->segment_index()];
            out.tensors.insert_or_assign(t.key, std::move(t));
        }
    }
    return out;
}

} // namespace ptefile

Result<ExternalData> readPtdFile(const std::string& path)
{
    PTE_TRY(Bytes bytes, mapFile(path));
    return ptefile::readPtdBytes(bytes, path);
}

} // namespace pte
