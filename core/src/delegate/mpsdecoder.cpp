// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// Apple MPS payloads (docs/delegate-payloads.md, Other backends): a 24-byte header (4 zero bytes, `MP00`, u64
// constant-segment offset and size) and the MPSGraph flatbuffer from byte 24. Payloads from before Aug 2024 are a bare
// flatbuffer, which current runtimes refuse. The MPSGraph is identified and sized, not decoded.
#include "payloaddecoders.h"

namespace pte::delegate {

void summariseMps(DelegatePayload& out, const DecodeContext& ctx)
{
    const auto b = out.bytes.span();
    const bool headerless = *readU32(b, 0) != 0;
    if (headerless) {
        out.format = "bare MP00 flatbuffer (before the MPS header; current runtimes refuse it)";
        out.regions.push_back({ "flatbuffer", 0, b.size() });
        report(out, ctx, Severity::Info, ErrorCode::UnsupportedVersion,
            "the MPS payload has no header: written before Aug 2024, current runtimes refuse it", 0);
        return;
    }
    out.format = "MP00 header + MPSGraph flatbuffer";
    if (b.size() < 24 + 8) {
        report(out, ctx, Severity::Error, ErrorCode::Truncated,
            "the payload ends inside the MPS header (" + std::to_string(b.size()) + " bytes)", 0);
        return;
    }
    const std::uint64_t constantOffset = *readU64(b, 8);
    const std::uint64_t constantSize = *readU64(b, 16);
    out.regions.push_back({ "MPS header", 0, 24 });
    out.regions.push_back({ "flatbuffer", 24, b.size() - 24 });
    addField(out, "constant segment offset", std::to_string(constantOffset));
    addField(out, "constant segment size", sizeText(constantSize));
    addField(out, "flatbuffer identifier", std::string(reinterpret_cast<const char*>(b.data() + 28), 4));
    if (constantSize && !inBounds(constantOffset, constantSize, b.size()))
        report(out, ctx, Severity::Warning, ErrorCode::Truncated,
            "the MPS constant segment [" + std::to_string(constantOffset) + ", +" + std::to_string(constantSize)
                + ") is not inside the payload",
            8);
}

} // namespace pte::delegate
