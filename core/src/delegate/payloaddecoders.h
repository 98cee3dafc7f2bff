// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

// Private to the delegate payload decoders (core/src/delegate): one decoder per backend, sharing the bounded
// readers and the diagnostics helpers below. Each decoder fills a DelegatePayload whose backendId, kind and bytes
// are already set; it never throws and never reads outside the payload.

#include "pte/delegatepayload.h"

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace pte::delegate {

struct DecodeContext
{
    const PayloadDataSources& sources;
    std::span<const CompileSpec> compileSpecs;
    std::string name; ///< "model.pte: execution_plan[0].delegates[1]"
};

void decodeXnnpack(DelegatePayload& out, const DecodeContext& ctx);
void decodeVulkan(DelegatePayload& out, const DecodeContext& ctx);
void decodeCoreMlTree(DelegatePayload& out, const DecodeContext& ctx);
void decodeCoreMlReference(DelegatePayload& out, const DecodeContext& ctx);
void summariseQnn(DelegatePayload& out, const DecodeContext& ctx);
void summariseEthosU(DelegatePayload& out, const DecodeContext& ctx);
void summariseVgf(DelegatePayload& out, const DecodeContext& ctx);
void summariseOpenVino(DelegatePayload& out, const DecodeContext& ctx);
void summariseMps(DelegatePayload& out, const DecodeContext& ctx);
void summariseNeuropilot(DelegatePayload& out, const DecodeContext& ctx);
void summariseUnknown(DelegatePayload& out, const DecodeContext& ctx);

/** Little-endian reads that return nullopt when [offset, offset + size) is not inside `b`. */
[[nodiscard]] std::optional<std::uint16_t> readU16(std::span<const std::uint8_t> b, std::uint64_t offset) noexcept;
[[nodiscard]] std::optional<std::uint32_t> readU32(std::span<const std::uint8_t> b, std::uint64_t offset) noexcept;
[[nodiscard]] std::optional<std::uint64_t> readU64(std::span<const std::uint8_t> b, std::uint64_t offset) noexcept;
/** Whether [offset, offset + size) lies inside a buffer of `total` bytes (overflow-safe). */
[[nodiscard]] bool inBounds(std::uint64_t offset, std::uint64_t size, std::uint64_t total) noexcept;

/** Adds a diagnostic naming the payload (`ctx.name`), with the byte offset inside the payload. */
void report(DelegatePayload& out, const DecodeContext& ctx, Severity severity, ErrorCode code,
    const std::string& message, std::optional<std::uint64_t> offset = {}, std::string fieldPath = {});
void addField(DelegatePayload& out, std::string name, std::string value);

/**
 * The per-backend rules of the 30-byte header XNNPACK (XH00) and Vulkan (VH00) payloads share: magic at 4, then u16
 * header length (8), u32 flatbuffer offset (10) and size (14), u32 data offset (18), u64 data size (22).
 */
struct SegmentHeaderRules
{
    const char* magic; ///< "XH00", "VH00": names the header in regions and messages
    const char* lengthPath; ///< field path of the header length ("header_length", "header_size")
    const char* dataName; ///< the data segment in messages and regions ("constant data", "constant bytes")
    const char* dataField; ///< its name in the field list ("constant data" -> "constant data offset")
    const char* dataPath; ///< field path of its offset ("constant_data_offset", "bytes_offset")
    bool zeroSizeMeansRest = false; ///< a data size of 0 means "to the end of the payload" (Vulkan)
    bool dataAfterFlatbuffer = false; ///< the runtime refuses data that starts inside the flatbuffer (XNNPACK)
};

struct SegmentHeader
{
    std::uint64_t flatbufferOffset = 0;
    std::uint64_t flatbufferSize = 0;
    std::uint64_t dataOffset = 0;
    std::uint64_t dataSize = 0;
};

/**
 * Reads that header at the start of `out.bytes`: adds its fields and its regions (header, flatbuffer, data), and
 * reports (Severity::Error, with the byte offset and field path) a payload too short for it, a header length under
 * 30, or a segment outside the payload. @returns the header, or nullopt after such an error.
 */
[[nodiscard]] std::optional<SegmentHeader> readSegmentHeader(
    DelegatePayload& out, const DecodeContext& ctx, const SegmentHeaderRules& rules);

/**
 * The flatbuffer bytes [offset, offset + size) of `payload`, copied into an 8-aligned buffer when they are not
 * aligned in memory (flatbuffers reads scalars in place). The caller has checked the bounds.
 */
[[nodiscard]] Bytes alignedSlice(const Bytes& payload, std::uint64_t offset, std::uint64_t size);

/** Looks `key` up in the program's named data, the extra named data, then the `.ptd`; sets `source`. */
[[nodiscard]] std::optional<Bytes> findNamedData(
    const PayloadDataSources& sources, std::string_view key, ConstantSource& source);

/** Sorts `out.valueIndex`; warns once about duplicate ids. */
void indexValues(DelegatePayload& out, const DecodeContext& ctx);

/** "0.5", "+inf", "-inf", "nan": shortest round-trip text of a float. */
[[nodiscard]] std::string formatFloat(double v);
/** "[1, 2, 3]". */
template <typename Range> [[nodiscard]] std::string formatList(const Range& r)
{
    std::string s = "[";
    bool first = true;
    for (const auto& v : r) {
        if (!first)
            s += ", ";
        first = false;
        if constexpr (std::is_floating_point_v<std::decay_t<decltype(v)>>)
            s += formatFloat(double(v));
        else
            s += std::to_string(v);
    }
    return s + "]";
}
/** Whether every byte is printable ASCII or common whitespace (and there is at least one). */
[[nodiscard]] bool isPrintableText(std::span<const std::uint8_t> b) noexcept;
/** Up to `max` distinct printable ASCII runs of at least `minLength` bytes, in file order. */
[[nodiscard]] std::vector<std::string> printableStrings(
    std::span<const std::uint8_t> b, std::size_t minLength, std::size_t max);
/** The bytes as lowercase hex, at most `max` bytes (then "..."). */
[[nodiscard]] std::string hexPrefix(std::span<const std::uint8_t> b, std::size_t max);
/** "1.65 MiB (1729766 bytes)" style size text. */
[[nodiscard]] std::string sizeText(std::uint64_t bytes);

} // namespace pte::delegate
