// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// Bounded readers, diagnostics and text helpers shared by the delegate payload decoders.
#include "payloaddecoders.h"
#include "pte/bytes.h"
#include "pte/ptereader.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstring>
#include <set>

namespace pte::delegate {

bool inBounds(std::uint64_t offset, std::uint64_t size, std::uint64_t total) noexcept
{
    return offset <= total && size <= total - offset;
}

std::optional<std::uint16_t> readU16(std::span<const std::uint8_t> b, std::uint64_t offset) noexcept
{
    if (!inBounds(offset, 2, b.size()))
        return std::nullopt;
    return std::uint16_t(b[offset] | (b[offset + 1] << 8));
}

std::optional<std::uint32_t> readU32(std::span<const std::uint8_t> b, std::uint64_t offset) noexcept
{
    if (!inBounds(offset, 4, b.size()))
        return std::nullopt;
    std::uint32_t v = 0;
    for (int i = 3; i >= 0; --i)
        v = (v << 8) | b[offset + std::uint64_t(i)];
    return v;
}

std::optional<std::uint64_t> readU64(std::span<const std::uint8_t> b, std::uint64_t offset) noexcept
{
    const auto lo = readU32(b, offset);
    const auto hi = readU32(b, offset + 4);
    if (!lo || !hi)
        return std::nullopt;
    return std::uint64_t(*lo) | (std::uint64_t(*hi) << 32);
}

void report(DelegatePayload& out, const DecodeContext& ctx, Severity severity, ErrorCode code,
    const std::string& message, std::optional<std::uint64_t> offset, std::string fieldPath)
{
    Diagnostic d;
    d.severity = severity;
    d.code = code;
    d.message = ctx.name + ": " + message;
    d.offset = offset;
    d.fieldPath = std::move(fieldPath);
    d.file = ctx.name;
    out.diagnostics.push_back(std::move(d));
}

void addField(DelegatePayload& out, std::string name, std::string value)
{
    out.summary.push_back({ std::move(name), std::move(value) });
}

std::optional<SegmentHeader> readSegmentHeader(
    DelegatePayload& out, const DecodeContext& ctx, const SegmentHeaderRules& rules)
{
    const auto b = out.bytes.span();
    const std::string magic = rules.magic;
    const auto fail = [&](ErrorCode code, const std::string& message, std::uint64_t offset, std::string path = {}) {
        report(out, ctx, Severity::Error, code, message, offset, std::move(path));
        return std::nullopt;
    };
    if (b.size() < 30)
        return fail(ErrorCode::Truncated,
            "the payload ends inside the " + magic + " header (" + std::to_string(b.size()) + " bytes, 30 needed)", 0);
    const std::uint16_t headerLength = *readU16(b, 8);
    SegmentHeader h;
    h.flatbufferOffset = *readU32(b, 10);
    h.flatbufferSize = *readU32(b, 14);
    h.dataOffset = *readU32(b, 18);
    h.dataSize = *readU64(b, 22);
    const std::string dataField = rules.dataField;
    addField(out, "header length", std::to_string(headerLength));
    addField(out, "flatbuffer offset", std::to_string(h.flatbufferOffset));
    addField(out, "flatbuffer size", std::to_string(h.flatbufferSize));
    addField(out, dataField + " offset", std::to_string(h.dataOffset));
    addField(out, dataField + " size", std::to_string(h.dataSize));
    out.regions.push_back({ magic + " header", 0, headerLength });
    if (headerLength < 30)
        return fail(ErrorCode::BadExtendedHeader,
            "the " + magic + " header length is " + std::to_string(headerLength) + ", smaller than 30", 8,
            rules.lengthPath);
    const auto beyond = [&](const char* what, std::uint64_t offset, std::uint64_t size) {
        return "the " + magic + " header places the " + what + " at [" + std::to_string(offset) + ", +"
            + std::to_string(size) + ") beyond the end of the payload (" + std::to_string(b.size()) + " bytes)";
    };
    if (!inBounds(h.flatbufferOffset, h.flatbufferSize, b.size()))
        return fail(
            ErrorCode::Truncated, beyond("flatbuffer", h.flatbufferOffset, h.flatbufferSize), 10, "flatbuffer_offset");
    out.regions.push_back({ "flatbuffer", h.flatbufferOffset, h.flatbufferSize });
    // A zero data size with data after the offset means "the rest of the payload" (as the Vulkan runtime reads it).
    if (rules.zeroSizeMeansRest && h.dataSize == 0 && h.dataOffset < b.size())
        h.dataSize = b.size() - h.dataOffset;
    if (!inBounds(h.dataOffset, h.dataSize, b.size()))
        return fail(ErrorCode::Truncated, beyond(rules.dataName, h.dataOffset, h.dataSize), 18, rules.dataPath);
    if (rules.dataAfterFlatbuffer && h.dataOffset < h.flatbufferOffset + h.flatbufferSize)
        return fail(ErrorCode::InvalidProgram,
            "the " + magic + " " + rules.dataName + " (offset " + std::to_string(h.dataOffset)
                + ") starts before the end of the flatbuffer (" + std::to_string(h.flatbufferOffset + h.flatbufferSize)
                + "); the runtime refuses it",
            18, rules.dataPath);
    out.regions.push_back({ rules.dataName, h.dataOffset, h.dataSize });
    return h;
}

Bytes alignedSlice(const Bytes& payload, std::uint64_t offset, std::uint64_t size)
{
    const std::uint8_t* start = payload.data() + offset;
    if (reinterpret_cast<std::uintptr_t>(start) % 8 == 0)
        return payload.slice(std::size_t(offset), std::size_t(size));
    auto owner = std::make_shared<std::vector<std::uint64_t>>((std::size_t(size) + 7) / 8);
    std::memcpy(owner->data(), start, std::size_t(size));
    return Bytes(
        owner, std::span<const std::uint8_t>(reinterpret_cast<const std::uint8_t*>(owner->data()), std::size_t(size)));
}

std::optional<Bytes> findNamedData(const PayloadDataSources& sources, std::string_view key, ConstantSource& source)
{
    if (sources.program && sources.program->namedData) {
        for (const auto& nd : *sources.program->namedData) {
            if (nd.key != key)
                continue;
            if (nd.segmentIndex >= sources.program->segments.size())
                break;
            const auto& seg = sources.program->segments[nd.segmentIndex];
            source = ConstantSource::NamedData;
            if (!seg.pieces.empty())
                return seg.range(0, seg.contentSize());
            return seg.data;
        }
    }
    if (sources.extraNamedData)
        for (const auto& [k, bytes] : *sources.extraNamedData)
            if (k == key) {
                source = ConstantSource::NamedData;
                return bytes;
            }
    if (sources.externalData) {
        const auto it = sources.externalData->tensors.find(std::string(key));
        if (it != sources.externalData->tensors.end()) {
            source = ConstantSource::ExternalData;
            return it->second.data;
        }
    }
    source = ConstantSource::Missing;
    return std::nullopt;
}

void indexValues(DelegatePayload& out, const DecodeContext& ctx)
{
    out.valueIndex.clear();
    out.valueIndex.reserve(out.values.size());
    for (std::size_t i = 0; i < out.values.size(); ++i)
        out.valueIndex.emplace_back(out.values[i].id, std::uint32_t(i));
    std::sort(out.valueIndex.begin(), out.valueIndex.end());
    const auto dup = std::adjacent_find(
        out.valueIndex.begin(), out.valueIndex.end(), [](const auto& a, const auto& b) { return a.first == b.first; });
    if (dup != out.valueIndex.end())
        report(out, ctx, Severity::Error, ErrorCode::InvalidProgram,
            "two values have the id " + std::to_string(dup->first) + " (values " + std::to_string(dup->second) + " and "
                + std::to_string((dup + 1)->second) + "); nodes naming it are ambiguous",
            std::nullopt, "values[" + std::to_string((dup + 1)->second) + "]");
}

std::string formatFloat(double v)
{
    if (std::isnan(v))
        return "nan";
    if (std::isinf(v))
        return v > 0 ? "+inf" : "-inf";
    char buf[32];
    const auto r = std::to_chars(buf, buf + sizeof buf, float(v));
    return std::string(buf, r.ptr);
}

bool isPrintableText(std::span<const std::uint8_t> b) noexcept
{
    if (b.empty())
        return false;
    return std::all_of(b.begin(), b.end(),
        [](std::uint8_t c) { return (c >= 0x20 && c < 0x7f) || c == '\n' || c == '\t' || c == '\r'; });
}

std::vector<std::string> printableStrings(std::span<const std::uint8_t> b, std::size_t minLength, std::size_t max)
{
    std::vector<std::string> out;
    std::set<std::string> seen;
    std::size_t start = 0;
    auto flush = [&](std::size_t end) {
        if (end - start >= minLength && out.size() < max) {
            std::string s(reinterpret_cast<const char*>(b.data() + start), end - start);
            if (seen.insert(s).second)
                out.push_back(std::move(s));
        }
    };
    for (std::size_t i = 0; i < b.size() && out.size() < max; ++i) {
        const std::uint8_t c = b[i];
        if (c >= 0x20 && c < 0x7f)
            continue;
        flush(i);
        start = i + 1;
    }
    if (out.size() < max)
        flush(b.size());
    return out;
}

std::string hexPrefix(std::span<const std::uint8_t> b, std::size_t max)
{
    std::string s = hexOf(b.first(std::min(b.size(), max)));
    if (b.size() > max)
        s += "...";
    return s;
}

std::string sizeText(std::uint64_t bytes)
{
    if (bytes < 1024)
        return std::to_string(bytes) + " B";
    char buf[64];
    const double kib = double(bytes) / 1024.0;
    if (kib < 1024)
        std::snprintf(buf, sizeof buf, "%.1f KiB (%llu bytes)", kib, static_cast<unsigned long long>(bytes));
    else
        std::snprintf(buf, sizeof buf, "%.2f MiB (%llu bytes)", kib / 1024.0, static_cast<unsigned long long>(bytes));
    return buf;
}

} // namespace pte::delegate
