// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// QNN payloads (docs/delegate-payloads.md, Other backends): the 256-byte custom-protocol header (magic 0x5678ABCD,
// signature, context-binary size) and the proprietary context binary, summarised by its readable strings; the compile
// spec `qnn_compile_spec` (QnnExecuTorchOptions flatbuffer) decoded field by field.
#include "payloaddecoders.h"
#include "pte/schema/qnn_options_generated.h"

#include <cstring>

namespace pte::delegate {

namespace {

namespace qf = ptelens_qnn;

constexpr std::uint64_t kHeaderSize = 256;

std::string chipsetName(int soc)
{
    switch (soc) {
    case 36:
        return "SM8450";
    case 39:
        return "SA8295";
    case 42:
        return "SM8475";
    case 43:
        return "SM8550";
    case 45:
        return "SXR1230P";
    case 46:
        return "SSG2115P";
    case 53:
        return "SXR2230P";
    case 57:
        return "SM8650";
    case 58:
        return "SSG2125P";
    case 69:
        return "SM8750";
    case 75:
        return "SXR2330P";
    case 77:
        return "QCS9100";
    default:
        return "chipset " + std::to_string(soc);
    }
}

std::string enumName(int v, std::initializer_list<const char*> names)
{
    if (v >= 0 && std::size_t(v) < names.size())
        return names.begin()[v];
    return std::to_string(v);
}

void decodeOptions(DelegatePayload& out, const DecodeContext& ctx, const CompileSpec& spec)
{
    const Bytes fb = alignedSlice(spec.value, 0, spec.value.size());
    flatbuffers::Verifier verifier(fb.data(), fb.size(), 32, 100000);
    if (fb.size() < 8 || fb.size() >= FLATBUFFERS_MAX_BUFFER_SIZE
        || !verifier.VerifyBuffer<qf::QnnExecuTorchOptions>(nullptr)) {
        report(out, ctx, Severity::Warning, ErrorCode::VerificationFailed,
            "the compile spec qnn_compile_spec is not a QnnExecuTorchOptions flatbuffer in the layout ptelens reads "
            "(an "
            "older or newer QNN version?); it is not decoded",
            std::nullopt, "compile_specs[qnn_compile_spec]");
        return;
    }
    const auto* o = flatbuffers::GetRoot<qf::QnnExecuTorchOptions>(fb.data());
    if (const auto* soc = o->soc_info()) {
        addField(out, "SoC", chipsetName(soc->soc_model()));
        if (const auto* htp = soc->htp_info()) {
            addField(out, "HTP arch", htp->htp_arch() ? "V" + std::to_string(htp->htp_arch()) : std::string("none"));
            addField(out, "VTCM", std::to_string(htp->vtcm_size_in_mb()) + " MB");
        }
    }
    if (const auto* be = o->backend_options()) {
        addField(out, "QNN backend",
            enumName(be->backend_type(), { "kUndefinedBackend", "kGpuBackend", "kHtpBackend", "kDspBackend" }));
        if (const auto* htp = be->htp_options()) {
            addField(out, "performance mode",
                enumName(htp->performance_mode(),
                    { "kHtpDefault", "kHtpSustainedHighPerformance", "kHtpBurst", "kHtpHighPerformance",
                        "kHtpPowerSaver", "kHtpLowPowerSaver", "kHtpHighPowerSaver", "kHtpLowBalanced",
                        "kHtpBalanced" }));
            addField(out, "precision", enumName(htp->precision(), { "kHtpQuantized", "kHtpFp16" }));
        }
    }
    if (o->library_path() && o->library_path()->size())
        addField(out, "library path", o->library_path()->str());
    addField(out, "log level",
        enumName(o->log_level(),
            { "kLogOff", "kLogLevelError", "kLogLevelWarn", "kLogLevelInfo", "kLogLevelVerbose", "kLogLevelDebug" }));
    addField(out, "profile level",
        enumName(o->profile_level(), { "kProfileOff", "kProfileBasic", "kProfileDetailed", "kProfileOptrace" }));
    addField(out, "online prepare", o->online_prepare() ? "true" : "false");
    addField(out, "dump intermediate outputs", o->dump_intermediate_outputs() ? "true" : "false");
    addField(out, "from context binary", o->is_from_context_binary() ? "true" : "false");
    addField(out, "shared buffer", o->shared_buffer() ? "true" : "false");
    if (o->saver_output_dir() && o->saver_output_dir()->size())
        addField(out, "saver output dir", o->saver_output_dir()->str());
}

} // namespace

void summariseQnn(DelegatePayload& out, const DecodeContext& ctx)
{
    const auto b = out.bytes.span();
    std::uint64_t binaryOffset = 0;
    std::uint64_t binarySize = b.size();
    if (b.size() >= 4 && std::memcmp(b.data(), "\xCD\xAB\x78\x56", 4) == 0) {
        out.format = "QNN custom-protocol header + context binary";
        if (b.size() < kHeaderSize) {
            report(out, ctx, Severity::Error, ErrorCode::Truncated,
                "the payload ends inside the 256-byte QNN header (" + std::to_string(b.size()) + " bytes)", 0);
            return;
        }
        const std::uint64_t signature = *readU64(b, 4);
        binarySize = *readU64(b, 12);
        binaryOffset = kHeaderSize;
        addField(out, "signature", std::to_string(std::int64_t(signature)));
        addField(out, "context binary size", sizeText(binarySize));
        out.regions.push_back({ "QNN header", 0, kHeaderSize });
        if (!inBounds(binaryOffset, binarySize, b.size())) {
            report(out, ctx, Severity::Error, ErrorCode::Truncated,
                "the QNN header declares a " + std::to_string(binarySize) + "-byte context binary but only "
                    + std::to_string(b.size() - kHeaderSize) + " bytes follow the header",
                12, "context_binary_size");
            binarySize = b.size() - kHeaderSize;
        }
        out.regions.push_back({ "context binary", binaryOffset, binarySize });
    } else {
        out.format = "QNN DLC or context binary (no custom-protocol header)";
        out.regions.push_back({ "context binary", 0, b.size() });
    }
    const auto strings = printableStrings(b.subspan(std::size_t(binaryOffset), std::size_t(binarySize)), 8, 24);
    std::string sample;
    for (const auto& s : strings)
        sample += (sample.empty() ? "" : ", ") + s;
    addField(out, "readable strings (first 24)", sample.empty() ? std::string("(none)") : sample);
    for (const auto& spec : ctx.compileSpecs)
        if (spec.key == "qnn_compile_spec")
            decodeOptions(out, ctx, spec);
}

} // namespace pte::delegate
