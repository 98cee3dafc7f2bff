// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// OpenVINO payloads (docs/delegate-payloads.md, Other backends): `compiled_model.export_model()` output, whose layout
// depends on the OpenVINO version and plugin. The CPU plugin's form starts with three (u64 offset, u64 size) pairs:
// plugin metadata (XML), constants, model. Only sizes and the XML metadata are shown.
#include "payloaddecoders.h"

namespace pte::delegate {

void summariseOpenVino(DelegatePayload& out, const DecodeContext& ctx)
{
    out.format = "OpenVINO exported model";
    const auto b = out.bytes.span();
    static const char* names[3] = { "plugin metadata", "constants", "model" };
    bool tiled = b.size() >= 48;
    std::uint64_t end = 48;
    for (std::uint64_t i = 0; i < 3 && tiled; ++i) {
        const std::uint64_t offset = *readU64(b, 16 * i);
        const std::uint64_t size = *readU64(b, 16 * i + 8);
        tiled = offset == end && inBounds(offset, size, b.size());
        end = offset + size;
    }
    if (!tiled) {
        out.format = "OpenVINO exported model (layout not recognised)";
        report(out, ctx, Severity::Info, ErrorCode::Unsupported,
            "the OpenVINO payload does not start with the CPU plugin's three (offset, size) pairs; only its size is "
            "shown");
        addField(out, "first bytes", hexPrefix(b, 16));
        return;
    }
    for (std::uint64_t i = 0; i < 3; ++i) {
        const std::uint64_t offset = *readU64(b, 16 * i);
        const std::uint64_t size = *readU64(b, 16 * i + 8);
        out.regions.push_back({ names[i], offset, size });
        addField(out, std::string(names[i]) + " section", sizeText(size));
    }
    const auto meta = b.subspan(std::size_t(*readU64(b, 0)), std::size_t(*readU64(b, 8)));
    if (isPrintableText(meta))
        addField(out, "plugin metadata",
            std::string(meta.begin(), meta.begin() + std::ptrdiff_t(std::min<std::size_t>(meta.size(), 400))));
    if (end != b.size())
        addField(out, "trailing bytes", std::to_string(b.size() - end));
}

} // namespace pte::delegate
