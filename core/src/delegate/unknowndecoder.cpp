// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// Payloads no rule recognises: never an error, just what the bytes show (size, leading bytes, a magic at 4..8 when
// it is printable, and readable strings).
#include "payloaddecoders.h"

namespace pte::delegate {

void summariseUnknown(DelegatePayload& out, const DecodeContext& ctx)
{
    out.format = "not recognised";
    const auto b = out.bytes.span();
    report(out, ctx, Severity::Info, ErrorCode::Unsupported,
        "ptelens does not know the payload format of backend '" + out.backendId + "'; it is summarised, not decoded");
    addField(out, "first bytes", hexPrefix(b, 16));
    if (b.size() >= 8 && isPrintableText(b.subspan(4, 4)))
        addField(out, "bytes 4..7", std::string(b.begin() + 4, b.begin() + 8));
    std::string sample;
    for (const auto& s : printableStrings(b, 8, 12))
        sample += (sample.empty() ? "" : ", ") + s;
    if (!sample.empty())
        addField(out, "readable strings", sample);
}

} // namespace pte::delegate
