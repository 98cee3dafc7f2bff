// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// Arm Ethos-U payloads (docs/delegate-payloads.md, Other backends): a stream of 16-byte-aligned blocks, each with a
// 32-byte header (name[16], u32 size, u8 external, 11 reserved). The I/O records become the payload's values; the
// command stream, weights and scratch are sized. The NPU command stream itself is not decoded.
#include "payloaddecoders.h"

#include <cstring>

namespace pte::delegate {

namespace {

constexpr std::uint64_t kBlockHeader = 32;

std::uint64_t padded16(std::uint64_t n) { return (n + 15) / 16 * 16; }

/** `inputs` / `outputs`: i32 count, then per tensor shape[6] (or shape[4] before Sep 2025), elem_size, offset, region.
 */
void readIoRecords(DelegatePayload& out, const DecodeContext& ctx, std::span<const std::uint8_t> data,
    std::uint64_t blockOffset, bool inputs)
{
    const auto count = readU32(data, 0);
    if (!count)
        return;
    const std::uint64_t n = *count;
    const std::uint64_t per = n ? (data.size() - 4) / n : 0;
    const std::uint64_t rank = per == 36 ? 6 : per == 28 ? 4 : 0;
    if (n > 0 && (rank == 0 || per * n + 4 != data.size())) {
        report(out, ctx, Severity::Warning, ErrorCode::InvalidInput,
            std::string("the Vela '") + (inputs ? "inputs" : "outputs") + "' block holds " + std::to_string(data.size())
                + " bytes, which is not 4 + " + std::to_string(n) + " records of 28 or 36 bytes",
            blockOffset);
        return;
    }
    for (std::uint64_t i = 0; i < n; ++i) {
        const std::uint64_t at = 4 + i * per;
        InnerValue v;
        v.id = std::uint32_t(out.values.size());
        v.kind = "tensor";
        for (std::uint64_t d = 0; d < rank; ++d)
            v.dims.push_back(*readU32(data, at + 4 * d));
        const std::uint32_t elemSize = *readU32(data, at + 4 * rank);
        v.dtype = std::to_string(elemSize) + "-byte elements";
        v.attributes.push_back({ "element size", std::to_string(elemSize) });
        v.attributes.push_back({ "arena offset", std::to_string(*readU32(data, at + 4 * rank + 4)) });
        v.attributes.push_back({ "region", std::to_string(*readU32(data, at + 4 * rank + 8)) });
        v.text = std::string(inputs ? "input " : "output ") + std::to_string(i);
        (inputs ? v.graphInput : v.graphOutput) = true;
        (inputs ? out.inputIds : out.outputIds).push_back(v.id);
        out.values.push_back(std::move(v));
    }
    addField(out, inputs ? "inputs" : "outputs", std::to_string(n) + " (" + std::to_string(rank) + "-D shape records)");
}

} // namespace

void summariseEthosU(DelegatePayload& out, const DecodeContext& ctx)
{
    out.format = "Ethos-U Vela block stream";
    const auto b = out.bytes.span();
    std::uint64_t at = 0;
    bool ended = false;
    std::size_t blocks = 0;
    while (at < b.size() && !ended) {
        if (!inBounds(at, kBlockHeader, b.size())) {
            report(out, ctx, Severity::Error, ErrorCode::Truncated,
                "the Vela stream ends inside a block header (" + std::to_string(b.size() - at) + " bytes left)", at);
            return;
        }
        const char* nameBytes = reinterpret_cast<const char*>(b.data() + at);
        const std::string name(nameBytes, strnlen(nameBytes, 16));
        const std::uint32_t size = *readU32(b, at + 16);
        const bool external = b[std::size_t(at + 20)] != 0;
        const std::uint64_t dataAt = at + kBlockHeader;
        if (!inBounds(dataAt, size, b.size())) {
            report(out, ctx, Severity::Error, ErrorCode::Truncated,
                "the Vela block '" + name + "' declares " + std::to_string(size) + " bytes but the payload ends first",
                at + 16);
            return;
        }
        ++blocks;
        out.regions.push_back({ "block " + name, at, kBlockHeader + size });
        const auto data = b.subspan(std::size_t(dataAt), size);
        if (external)
            addField(out, name + " (external)", "named data key " + std::string(data.begin(), data.end()));
        else if (name == "cmd_data")
            addField(out, "command stream",
                sizeText(size)
                    + (size >= 4 && std::memcmp(data.data(), "COP1", 4) == 0 ? " (driver header COP1)" : ""));
        else if (name == "weight_data")
            addField(out, "weights", sizeText(size));
        else if (name == "scratch_size" && size >= 4)
            addField(out, "scratch size", sizeText(*readU32(data, 0)));
        else if (name == "scratch_data")
            addField(out, "scratch size", sizeText(size) + " (zero-filled scratch_data block)");
        else if (name == "inputs" || name == "outputs")
            readIoRecords(out, ctx, data, at, name == "inputs");
        else if (name == "vela_end_stream")
            ended = true;
        else if (name != "vela_bin_stream")
            addField(out, "block " + name, sizeText(size));
        at = dataAt + padded16(size);
    }
    addField(out, "blocks", std::to_string(blocks));
    if (!ended)
        report(out, ctx, Severity::Warning, ErrorCode::Truncated, "the Vela stream has no vela_end_stream block",
            b.size());
    indexValues(out, ctx);
}

} // namespace pte::delegate
