// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// Arm VGF payloads (docs/delegate-payloads.md, Other backends): `VGF1` and version bytes, then four (u64 offset, u64
// size) section entries from byte 16 (module, model sequence, model resources, constants). The SPIR-V graph is not
// decoded; its readable strings (partition, tensor and extension names, the TOSA version) are listed.
#include "payloaddecoders.h"

namespace pte::delegate {

void summariseVgf(DelegatePayload& out, const DecodeContext& ctx)
{
    out.format = "ML SDK VGF file";
    const auto b = out.bytes.span();
    if (b.size() < 16 + 4 * 16) {
        report(out, ctx, Severity::Error, ErrorCode::Truncated,
            "the VGF payload ends inside its section table (" + std::to_string(b.size()) + " bytes)", 0);
        return;
    }
    addField(out, "version bytes", hexPrefix(b.subspan(4, 12), 12));
    static const char* names[4] = { "module", "model sequence", "model resources", "constants" };
    for (std::uint64_t i = 0; i < 4; ++i) {
        const std::uint64_t offset = *readU64(b, 16 + 16 * i);
        const std::uint64_t size = *readU64(b, 24 + 16 * i);
        if (!inBounds(offset, size, b.size())) {
            report(out, ctx, Severity::Error, ErrorCode::Truncated,
                std::string("the VGF ") + names[i] + " section at [" + std::to_string(offset) + ", +"
                    + std::to_string(size) + ") runs past the payload (" + std::to_string(b.size()) + " bytes)",
                16 + 16 * i);
            continue;
        }
        out.regions.push_back({ names[i], offset, size });
        addField(out, std::string(names[i]) + " section", sizeText(size));
    }
    std::string tosa;
    std::string sample;
    for (const auto& s : printableStrings(b, 6, 64)) {
        if (tosa.empty() && s.starts_with("TOSA."))
            tosa = s;
        if (sample.size() < 400)
            sample += (sample.empty() ? "" : ", ") + s;
    }
    if (!tosa.empty())
        addField(out, "TOSA version", tosa);
    addField(out, "readable strings", sample.empty() ? std::string("(none)") : sample);
}

} // namespace pte::delegate
