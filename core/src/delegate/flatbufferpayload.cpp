// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// Locating and verifying the root flatbuffer of an XNNPACK or Vulkan payload (flatbufferpayload.h).
#include "flatbufferpayload.h"

#include "base/littleendian.h"

#include <algorithm>
#include <cstring>

namespace pte::delegate {

std::optional<FlatbufferLocation> locateFlatbuffer(
    DelegatePayload& out, const DecodeContext& ctx, const FlatbufferPayloadRules& rules)
{
    const auto b = out.bytes.span();
    FlatbufferLocation location;
    location.segments.flatbufferSize = b.size();
    if (b.size() >= 8 && std::memcmp(b.data() + 4, rules.header.magic, 4) == 0) {
        location.hasHeader = true;
        out.format = std::string(rules.header.magic) + " header";
        const auto h = readSegmentHeader(out, ctx, rules.header);
        if (!h)
            return std::nullopt;
        location.segments = *h;
    } else {
        if (rules.bareFormat)
            out.format = rules.bareFormat;
        out.regions.push_back({ "flatbuffer", 0, b.size() });
    }
    const std::uint64_t offset = location.segments.flatbufferOffset;
    const std::uint64_t size = location.segments.flatbufferSize;
    if (size < 8) {
        report(out, ctx, Severity::Error, ErrorCode::Truncated,
            std::string("the ") + rules.root + " flatbuffer is " + std::to_string(size)
                + " bytes, fewer than the 8 a flatbuffer needs",
            offset);
        return std::nullopt;
    }
    location.identifier.assign(reinterpret_cast<const char*>(b.data() + offset + 4), 4);
    if (std::find(rules.identifiers.begin(), rules.identifiers.end(), location.identifier) == rules.identifiers.end()) {
        if (!location.hasHeader)
            out.format = rules.notPayloadFormat;
        report(out, ctx, Severity::Error, ErrorCode::NotAPteFile,
            std::string("the ") + rules.root + " flatbuffer identifier (bytes " + std::to_string(offset + 4) + ".."
                + std::to_string(offset + 7) + ") is " + base::describeMagic(b.data() + offset + 4, 4) + ", not "
                + rules.expected,
            offset + 4);
        return std::nullopt;
    }
    return location;
}

bool checkFlatbuffer(DelegatePayload& out, const DecodeContext& ctx, const FlatbufferPayloadRules& rules,
    const FlatbufferLocation& location, Bytes& fb, bool (*verified)(const Bytes& fb))
{
    const std::uint64_t offset = location.segments.flatbufferOffset;
    const std::uint64_t size = location.segments.flatbufferSize;
    if (size >= FLATBUFFERS_MAX_BUFFER_SIZE) {
        report(out, ctx, Severity::Error, ErrorCode::Unsupported,
            std::string("the ") + rules.root + " flatbuffer is larger than 2 GiB", offset);
        return false;
    }
    fb = alignedSlice(out.bytes, offset, size);
    if (!verified(fb)) {
        report(out, ctx, Severity::Error, ErrorCode::VerificationFailed,
            std::string("the flatbuffers verifier rejected the ") + rules.root + " (bytes " + std::to_string(offset)
                + ".." + std::to_string(offset + size) + " of the payload); the payload is corrupt or truncated",
            offset);
        return false;
    }
    return true;
}

bool FlatbufferPayloadDecoder::locate()
{
    auto location = locateFlatbuffer(m_out, m_ctx, m_rules);
    if (!location)
        return false;
    m_location = std::move(*location);
    return true;
}

void FlatbufferPayloadDecoder::readVersion(const flatbuffers::String* version)
{
    if (version)
        m_out.version = version->str();
    addField(m_out, "graph version", m_out.version.empty() ? std::string("(none)") : m_out.version);
}

void FlatbufferPayloadDecoder::error(
    ErrorCode code, const std::string& message, std::optional<std::uint64_t> offset, std::string fieldPath)
{
    report(m_out, m_ctx, Severity::Error, code, message, offset, std::move(fieldPath));
}

void FlatbufferPayloadDecoder::warn(const std::string& message, std::string fieldPath)
{
    report(m_out, m_ctx, Severity::Warning, ErrorCode::InvalidProgram, message, std::nullopt, std::move(fieldPath));
}

} // namespace pte::delegate
