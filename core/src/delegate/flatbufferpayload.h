// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

// Private to the delegate payload decoders: the steps XNNPACK and Vulkan payloads share before their graph is read.
// Both are a root flatbuffer, behind an optional 30-byte header (SegmentHeaderRules) or bare; the flatbuffer is found,
// its identifier checked, then it is verified and its root returned. Every refusal is an error diagnostic naming the
// payload, with the byte offset inside it.

#include "payloaddecoders.h"

#include <cstdint>
#include <flatbuffers/flatbuffers.h>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace pte::delegate {

struct FlatbufferPayloadRules
{
    SegmentHeaderRules header; ///< the optional header in front of the flatbuffer
    const char* root; ///< the root table in messages ("XNNGraph", "VkGraph")
    std::span<const std::string_view> identifiers; ///< the file identifiers (bytes 4..7) the runtime accepts
    const char* expected; ///< what a refused identifier is "not" ("VK00", "XN00 or XN01 (the runtime refuses it)")
    const char* bareFormat; ///< `format` of a payload without the header, before its identifier is read (or nullptr)
    const char* notPayloadFormat; ///< `format` of a payload without the header whose identifier is refused
};

struct FlatbufferLocation
{
    SegmentHeader segments; ///< the header's fields; without a header, the flatbuffer is the whole payload
    bool hasHeader = false;
    std::string identifier; ///< one of the rules' identifiers
};

/**
 * Finds the flatbuffer of `out.bytes`: behind the header when its magic is at byte 4 (`format` becomes "<magic>
 * header", readSegmentHeader() adds its fields and regions), else the whole payload (one region). Then checks that
 * the flatbuffer has the 8 bytes of root offset and identifier, and an accepted identifier.
 * @returns the location, or nullopt after an error diagnostic (Truncated, NotAPteFile, or readSegmentHeader()'s).
 */
[[nodiscard]] std::optional<FlatbufferLocation> locateFlatbuffer(
    DelegatePayload& out, const DecodeContext& ctx, const FlatbufferPayloadRules& rules);

/**
 * Whether the located flatbuffer is under flatbuffers' 2 GiB limit and `verified` (the verifier's answer, called only
 * then) accepts its bytes; reports Unsupported or VerificationFailed otherwise. Use verifiedRoot().
 */
[[nodiscard]] bool checkFlatbuffer(DelegatePayload& out, const DecodeContext& ctx, const FlatbufferPayloadRules& rules,
    const FlatbufferLocation& location, Bytes& fb, bool (*verified)(const Bytes& fb));

/**
 * The verified root table of the located flatbuffer. `fb` receives the flatbuffer bytes (8-aligned, see
 * alignedSlice()), which the root points into. @returns nullptr after an error diagnostic (checkFlatbuffer()).
 */
template <typename Root>
[[nodiscard]] const Root* verifiedRoot(DelegatePayload& out, const DecodeContext& ctx,
    const FlatbufferPayloadRules& rules, const FlatbufferLocation& location, Bytes& fb)
{
    const auto verify = [](const Bytes& bytes) {
        flatbuffers::Verifier verifier(bytes.data(), bytes.size(), 64, 1000000);
        return verifier.VerifyBuffer<Root>(nullptr);
    };
    if (!checkFlatbuffer(out, ctx, rules, location, fb, verify))
        return nullptr;
    return flatbuffers::GetRoot<Root>(fb.data());
}

} // namespace pte::delegate
