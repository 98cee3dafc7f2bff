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

/**
 * What the XNNPACK and Vulkan decoders share: the payload they fill and its context, the located flatbuffer and the
 * verified bytes its root points into, and their diagnostics about the graph.
 */
class FlatbufferPayloadDecoder
{
protected:
    FlatbufferPayloadDecoder(DelegatePayload& out, const DecodeContext& ctx, const FlatbufferPayloadRules& rules)
        : m_out(out)
        , m_ctx(ctx)
        , m_rules(rules)
    { }

    /** locateFlatbuffer(); false after its error. */
    [[nodiscard]] bool locate();
    /** The verified root of the located flatbuffer (verifiedRoot()); nullptr after an error. */
    template <typename Root> [[nodiscard]] const Root* verifiedGraph()
    {
        return verifiedRoot<Root>(m_out, m_ctx, m_rules, m_location, m_fb);
    }
    /** Sets `version` from the graph's version string and adds the "graph version" field ("(none)" without one). */
    void readVersion(const flatbuffers::String* version);

    void error(ErrorCode code, const std::string& message, std::optional<std::uint64_t> offset = {},
        std::string fieldPath = {});
    /** A Warning (InvalidProgram) about the graph at `fieldPath`. */
    void warn(const std::string& message, std::string fieldPath);

    [[nodiscard]] bool hasHeader() const noexcept { return m_location.hasHeader; }
    [[nodiscard]] const std::string& identifier() const noexcept { return m_location.identifier; }
    [[nodiscard]] std::uint64_t flatbufferOffset() const noexcept { return m_location.segments.flatbufferOffset; }
    /** The header's data segment (XNNPACK's constant data, Vulkan's bytes); empty without a header. */
    [[nodiscard]] std::uint64_t dataOffset() const noexcept { return m_location.segments.dataOffset; }
    [[nodiscard]] std::uint64_t dataSize() const noexcept { return m_location.segments.dataSize; }

    DelegatePayload& m_out;
    const DecodeContext& m_ctx;
    Bytes m_fb; ///< the flatbuffer bytes, once verified

private:
    const FlatbufferPayloadRules& m_rules;
    FlatbufferLocation m_location;
};

} // namespace pte::delegate
