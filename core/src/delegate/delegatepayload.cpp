// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// The delegate payload model: names, the dispatch to one decoder per backend, and the program-wide pass that
// decodes each distinct blob once.
#include "payloaddecoders.h"
#include "pte/bytetext.h"

#include <algorithm>
#include <cstring>
#include <map>

namespace pte {

const char* payloadKindName(PayloadKind kind) noexcept
{
    switch (kind) {
    case PayloadKind::Empty:
        return "empty";
    case PayloadKind::XnnpackGraph:
        return "xnnpack_graph";
    case PayloadKind::VulkanGraph:
        return "vulkan_graph";
    case PayloadKind::CoreMlFileTree:
        return "coreml_file_tree";
    case PayloadKind::CoreMlReference:
        return "coreml_reference";
    case PayloadKind::QnnContext:
        return "qnn_context";
    case PayloadKind::EthosUVela:
        return "ethosu_vela";
    case PayloadKind::Vgf:
        return "vgf";
    case PayloadKind::OpenVino:
        return "openvino";
    case PayloadKind::Mps:
        return "mps";
    case PayloadKind::Neuropilot:
        return "neuropilot";
    case PayloadKind::Unknown:
        break;
    }
    return "unknown";
}

const char* constantSourceName(ConstantSource s) noexcept
{
    switch (s) {
    case ConstantSource::InlineBuffer:
        return "inline";
    case ConstantSource::PayloadSection:
        return "payload";
    case ConstantSource::NamedData:
        return "named_data";
    case ConstantSource::ExternalData:
        return "external_data";
    case ConstantSource::Missing:
        break;
    }
    return "missing";
}

bool InnerNode::backendInserted() const noexcept
{
    return !debugHandles.empty() && std::all_of(debugHandles.begin(), debugHandles.end(), [](std::int64_t h) {
        return h == kBackendInsertedHandle;
    });
}

const InnerValue* DelegatePayload::value(std::uint32_t id) const noexcept
{
    const auto it =
        std::lower_bound(valueIndex.begin(), valueIndex.end(), std::pair<std::uint32_t, std::uint32_t>(id, 0));
    if (it == valueIndex.end() || it->first != id || it->second >= values.size())
        return nullptr;
    return &values[it->second];
}

const PayloadField* DelegatePayload::field(std::string_view name) const noexcept
{
    for (const auto& f : summary)
        if (f.name == name)
            return &f;
    return nullptr;
}

namespace {

bool bytesAt(std::span<const std::uint8_t> b, std::size_t offset, std::string_view text) noexcept
{
    return b.size() >= offset + text.size() && std::memcmp(b.data() + offset, text.data(), text.size()) == 0;
}

/** The backend a kind belongs to, to warn when the id and the bytes disagree; nullptr when any id may carry it. */
const char* expectedBackend(PayloadKind kind) noexcept
{
    switch (kind) {
    case PayloadKind::XnnpackGraph:
        return "XnnpackBackend";
    case PayloadKind::VulkanGraph:
        return "VulkanBackend";
    case PayloadKind::CoreMlFileTree:
    case PayloadKind::CoreMlReference:
        return "CoreMLBackend";
    case PayloadKind::QnnContext:
        return "QnnBackend";
    case PayloadKind::EthosUVela:
        return "EthosUBackend";
    case PayloadKind::Vgf:
        return "VgfBackend";
    case PayloadKind::Mps:
        return "MPSBackend";
    default:
        return nullptr;
    }
}

/** Compile specs as compileSpecText() reads them (the Delegates view and the diff read them the same way). */
void summariseCompileSpecs(DelegatePayload& out, std::span<const CompileSpec> specs)
{
    for (const auto& spec : specs) {
        if (out.kind == PayloadKind::QnnContext && spec.key == "qnn_compile_spec")
            continue; // decoded field by field by the QNN summariser
        delegate::addField(out, "compile spec " + spec.key, compileSpecText(spec.key, spec.value.span()));
    }
}

} // namespace

PayloadKind identifyPayload(std::span<const std::uint8_t> b, std::string_view backendId) noexcept
{
    if (b.empty())
        return PayloadKind::Empty;
    if (bytesAt(b, 4, "XH00") || bytesAt(b, 4, "XN00") || bytesAt(b, 4, "XN01"))
        return PayloadKind::XnnpackGraph;
    if (bytesAt(b, 4, "VH00") || bytesAt(b, 4, "VK00"))
        return PayloadKind::VulkanGraph;
    if (bytesAt(b, 4, "MP00"))
        return PayloadKind::Mps;
    if (bytesAt(b, 0, "CMJR"))
        return PayloadKind::CoreMlReference;
    if (bytesAt(b, 0, "\xCD\xAB\x78\x56"))
        return PayloadKind::QnnContext;
    if (bytesAt(b, 0, std::string_view("vela_bin_stream\0", 16)))
        return PayloadKind::EthosUVela;
    if (bytesAt(b, 0, "VGF1"))
        return PayloadKind::Vgf;
    // Core ML's index is JSON written byte-reversed at the very end: the payload ends with `{"`.
    if (b.size() >= 2 && b[b.size() - 1] == '{' && b[b.size() - 2] == '"')
        return PayloadKind::CoreMlFileTree;
    // No magic matched: the backend id decides, and the decoder reports what does not fit (as the runtime would).
    if (backendId == "XnnpackBackend")
        return PayloadKind::XnnpackGraph;
    if (backendId == "VulkanBackend")
        return PayloadKind::VulkanGraph;
    if (backendId == "OpenvinoBackend")
        return PayloadKind::OpenVino;
    if (backendId == "NeuropilotBackend")
        return PayloadKind::Neuropilot;
    if (backendId == "QnnBackend")
        return PayloadKind::QnnContext; // a DLC or context binary without the custom-protocol header
    return PayloadKind::Unknown;
}

DelegatePayload decodeDelegatePayload(std::string_view backendId, const Bytes& payload,
    std::span<const CompileSpec> compileSpecs, const PayloadDataSources& sources, const std::string& name)
{
    DelegatePayload out;
    out.backendId = std::string(backendId);
    out.bytes = payload;
    out.kind = identifyPayload(payload.span(), backendId);
    const delegate::DecodeContext ctx { sources, compileSpecs, name };
    if (const char* expected = expectedBackend(out.kind); expected && backendId != expected)
        delegate::report(out, ctx, Severity::Warning, ErrorCode::InvalidProgram,
            "the delegate's backend id is '" + out.backendId + "' but its payload looks like a " + expected
                + " payload (" + payloadKindName(out.kind) + ")");
    delegate::addField(out, "payload size", delegate::sizeText(payload.size()));
    switch (out.kind) {
    case PayloadKind::Empty:
        out.format = "empty";
        delegate::report(out, ctx, Severity::Warning, ErrorCode::Truncated, "the delegate's payload is empty");
        break;
    case PayloadKind::XnnpackGraph:
        delegate::decodeXnnpack(out, ctx);
        break;
    case PayloadKind::VulkanGraph:
        delegate::decodeVulkan(out, ctx);
        break;
    case PayloadKind::CoreMlFileTree:
        delegate::decodeCoreMlTree(out, ctx);
        break;
    case PayloadKind::CoreMlReference:
        delegate::decodeCoreMlReference(out, ctx);
        break;
    case PayloadKind::QnnContext:
        delegate::summariseQnn(out, ctx);
        break;
    case PayloadKind::EthosUVela:
        delegate::summariseEthosU(out, ctx);
        break;
    case PayloadKind::Vgf:
        delegate::summariseVgf(out, ctx);
        break;
    case PayloadKind::OpenVino:
        delegate::summariseOpenVino(out, ctx);
        break;
    case PayloadKind::Mps:
        delegate::summariseMps(out, ctx);
        break;
    case PayloadKind::Neuropilot:
        delegate::summariseNeuropilot(out, ctx);
        break;
    case PayloadKind::Unknown:
        delegate::summariseUnknown(out, ctx);
        break;
    }
    summariseCompileSpecs(out, compileSpecs);
    return out;
}

std::vector<ProgramDelegate> decodeProgramDelegates(
    const Program& program, const PayloadDataSources& sources, const std::string& fileName)
{
    std::vector<ProgramDelegate> out;
    std::map<std::pair<int, std::uint32_t>, std::shared_ptr<const DelegatePayload>> decoded;
    for (std::size_t m = 0; m < program.executionPlan.size(); ++m) {
        const auto& plan = program.executionPlan[m];
        for (std::size_t d = 0; d < plan.delegates.size(); ++d) {
            const auto& del = plan.delegates[d];
            ProgramDelegate pd;
            pd.methodIndex = std::uint32_t(m);
            pd.delegateIndex = std::uint32_t(d);
            pd.methodName = plan.name;
            for (std::size_t c = 0; c < plan.chains.size(); ++c)
                for (std::size_t i = 0; i < plan.chains[c].instructions.size(); ++i)
                    if (const auto* call = std::get_if<DelegateCall>(&plan.chains[c].instructions[i].args);
                        call && call->delegateIndex == std::int32_t(d))
                        pd.calls.emplace_back(std::uint32_t(c), std::uint32_t(i));
            const std::pair<int, std::uint32_t> key { int(del.processed.location), del.processed.index };
            auto& shared = decoded[key];
            if (!shared) {
                const std::string where =
                    fileName + ": execution_plan[" + std::to_string(m) + "].delegates[" + std::to_string(d) + "]";
                const Bytes blob = delegateData(program, del);
                const std::uint64_t count = del.processed.location == DataLocation::Inline
                    ? program.backendDelegateData.size()
                    : program.segments.size();
                auto payload = std::make_shared<DelegatePayload>(
                    decodeDelegatePayload(del.id, blob, del.compileSpecs, sources, where));
                if (del.processed.index >= count) {
                    Diagnostic diag;
                    diag.severity = Severity::Error;
                    diag.code = ErrorCode::OutOfRange;
                    diag.message = where + ": the payload reference ("
                        + std::string(del.processed.location == DataLocation::Inline ? "inline" : "segment") + " "
                        + std::to_string(del.processed.index) + ") is out of range (" + std::to_string(count) + ")";
                    diag.fieldPath = "execution_plan[" + std::to_string(m) + "].delegates[" + std::to_string(d)
                        + "].processed.index";
                    diag.file = fileName;
                    payload->diagnostics.insert(payload->diagnostics.begin(), std::move(diag));
                }
                shared = std::move(payload);
            }
            pd.payload = shared;
            out.push_back(std::move(pd));
        }
    }
    return out;
}

} // namespace pte
