// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// MediaTek Neuropilot payloads (docs/delegate-payloads.md, Other backends): a 13-byte header (u8 version, u32 inputs,
// u32 outputs, u32 model size), then the compiled model (or nothing when the model is shared through named data).
#include "payloaddecoders.h"

namespace pte::delegate {

void summariseNeuropilot(DelegatePayload& out, const DecodeContext& ctx)
{
    out.format = "Neuropilot header + compiled model";
    const auto b = out.bytes.span();
    if (b.size() < 13) {
        report(out, ctx, Severity::Error, ErrorCode::Truncated,
            "the payload ends inside the 13-byte Neuropilot header (" + std::to_string(b.size()) + " bytes)", 0);
        return;
    }
    const std::uint32_t modelSize = *readU32(b, 9);
    addField(out, "header version", std::to_string(b[0]));
    addField(out, "inputs", std::to_string(*readU32(b, 1)));
    addField(out, "outputs", std::to_string(*readU32(b, 5)));
    addField(out, "model size", sizeText(modelSize));
    out.regions.push_back({ "Neuropilot header", 0, 13 });
    out.regions.push_back({ "compiled model", 13, b.size() - 13 });
    if (modelSize != b.size() - 13)
        report(out, ctx, Severity::Info, ErrorCode::InvalidInput,
            "the header's model size (" + std::to_string(modelSize) + ") differs from the bytes after the header ("
                + std::to_string(b.size() - 13) + "); the model may live in named data",
            9);
}

} // namespace pte::delegate
