// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include "pte/bytes.h"
#include "pte/diagnostic.h"
#include "pte/program.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

/**
 * @file
 * What is inside a delegate's processed blob: a Qt-free semantic model of the payloads ExecuTorch backends write
 * (docs/delegate-payloads.md). XNNPACK and Vulkan payloads decode to a graph of inner nodes and values; Core ML to its
 * file tree, metadata and the operations of its debug map; every other payload is identified by its bytes and
 * summarised (magic, header fields, regions, readable metadata).
 *
 * Decoding never fails: an unknown payload is summarised as such, a malformed one keeps what could be read and
 * carries Error-severity diagnostics naming the payload, the byte offset inside it and the field path. Flatbuffers
 * are run through the verifier before they are read, and every offset, size and id is bounds-checked. Constants
 * are views (Bytes) of the payload, of the program's named data or of a `.ptd`: nothing is copied.
 */

namespace pte {

struct ExternalData;

/** How a payload was recognised (docs/delegate-payloads.md, Identification). */
enum class PayloadKind : std::uint8_t
{
    Empty, ///< no bytes (a missing or empty blob)
    XnnpackGraph, ///< XNNGraph flatbuffer: bare (2023) or behind an XH00 header
    VulkanGraph, ///< VH00 header + VkGraph flatbuffer
    CoreMlFileTree, ///< Core ML flattened file tree with its byte-reversed JSON index at the end
    CoreMlReference, ///< Core ML "CMJR" reference to a shared named-data blob
    QnnContext, ///< QNN 256-byte header (magic 0x5678ABCD) + context binary
    EthosUVela, ///< Arm Ethos-U Vela block stream
    Vgf, ///< ML SDK VGF file (VGF1)
    OpenVino, ///< OpenVINO exported model (six u64 offsets/sizes)
    Mps, ///< Apple MPS: MP00 header + MPSGraph flatbuffer
    Neuropilot, ///< MediaTek Neuropilot: 13-byte header + compiled model
    Unknown, ///< bytes no rule recognises
};

/** Stable lower-case name of a kind ("xnnpack_graph", "unknown"), used in JSON. */
[[nodiscard]] const char* payloadKindName(PayloadKind kind) noexcept;

/**
 * Recognises a payload from its bytes; when no magic matches, from the backend id (an XnnpackBackend or
 * VulkanBackend payload is then decoded as such and its decoder reports what is wrong; OpenVINO and Neuropilot
 * payloads have no magic). Never reads outside `payload`.
 */
[[nodiscard]] PayloadKind identifyPayload(std::span<const std::uint8_t> payload, std::string_view backendId) noexcept;

/** One line of a payload's summary: "header length" = "30". */
struct PayloadField
{
    std::string name;
    std::string value;
};

/** A byte range of the payload: "XH00 header", "flatbuffer", "constant data", a Vela block, a VGF section. */
struct PayloadRegion
{
    std::string name;
    std::uint64_t offset = 0;
    std::uint64_t size = 0;
};

/** A file or folder of a Core ML payload's file tree. */
struct PayloadFile
{
    std::string path; ///< "lowered_module/model.mlpackage/Manifest.json"
    std::uint64_t offset = 0; ///< inside the payload (files only)
    std::uint64_t size = 0;
    bool directory = false;
};

/** XNNPACK quantization parameters of a value (XNNQuantParams). */
struct QuantParams
{
    /** Which XNNQuantParams union member the value's quantization is (Unknown for a tag this schema does not know). */
    enum class Kind : std::uint8_t
    {
        PerTensor,
        PerChannel,
        PerTokenDynamic,
        PerChannelGroup,
        Unknown, ///< a union tag this schema does not know (`rawTag`)
    };
    Kind kind = Kind::PerTensor;
    std::uint8_t rawTag = 0;
    float scale = 0; ///< PerTensor
    std::int32_t zeroPoint = 0; ///< PerTensor (per-channel types imply 0, or 8 for 4-bit ones)
    std::int32_t channelDim = 0; ///< PerChannel, PerChannelGroup
    std::int32_t groupSize = 0; ///< PerChannelGroup
    std::int32_t numNonbatchDims = 0; ///< PerTokenDynamic
    /** Inline scales, or those read from constant `scaleBufferIdx` (fp32 per channel, bf16 per group). */
    std::vector<float> scales;
    std::uint32_t scaleBufferIdx = 0; ///< 0 = inline
    std::uint32_t numScales = 0;
};

/** Where a constant's bytes live, as the runtime resolves them (docs/delegate-payloads.md: XNNPACK constants; Vulkan).
 */
enum class ConstantSource : std::uint8_t
{
    InlineBuffer, ///< bare XN00: XNNGraph.constant_buffer[i].storage
    PayloadSection, ///< the XH00 constant section or the VH00 bytes section
    NamedData, ///< the program's named data (a segment)
    ExternalData, ///< a `.ptd` file
    Missing, ///< the reference does not resolve (a diagnostic says why)
};
[[nodiscard]] const char* constantSourceName(ConstantSource s) noexcept; ///< "inline", "payload", "named_data"...

/**
 * The constant data of an inner value (InnerValue::constant, a weight or bias): the payload's constant index, where
 * the runtime would find the bytes, and the bytes.
 */
struct ConstantRef
{
    std::uint32_t index = 0; ///< constant_buffer_idx / constant_id
    ConstantSource source = ConstantSource::Missing;
    std::string key; ///< named key (SHA-256 hex), when named
    std::uint64_t offset = 0; ///< PayloadSection: offset inside the payload
    std::uint64_t size = 0; ///< as declared
    Bytes data; ///< the resolved bytes (a view); empty when Missing
};

/** One value of an inner graph. */
struct InnerValue
{
    std::uint32_t id = 0; ///< the id nodes refer to (XNNPACK id_out, Vulkan value index)
    std::string kind; ///< "tensor", "quantized tensor", "int", "int list", "null", ...
    std::string dtype; ///< "fp32", "qint8" (tensors)
    std::vector<std::uint32_t> dims;
    std::optional<QuantParams> quant;
    std::optional<ConstantRef> constant;
    std::optional<std::uint32_t> externalId; ///< XNNPACK: bound to DelegateCall.args[externalId]
    bool graphInput = false;
    bool graphOutput = false;
    std::uint32_t flags = 0;
    std::string text; ///< non-tensor values: "3", "[1, 2]", "true"
    std::vector<PayloadField> attributes; ///< backend-specific facts (Vulkan storage/layout, dq_datatype, ...)
};

/** An operand of an inner node. */
struct InnerOperand
{
    std::string role; ///< "input", "filter", "bias", "arg 2"
    std::uint32_t valueId = 0;
};

/** Debug handle XNNPACK gives nodes the backend inserted itself (DEFAULT_DEBUG_HANDLE). */
inline constexpr std::int64_t kBackendInsertedHandle = 65535;

/** One node (operator) of an inner graph. */
struct InnerNode
{
    std::uint32_t index = 0; ///< position in the payload (execution order)
    std::string kind; ///< "Conv2d", "FullyConnected", "aten.convolution.default", "conv"
    std::uint32_t rawKind = 0; ///< XNNPACK union tag; 0 elsewhere
    std::vector<InnerOperand> inputs;
    std::vector<InnerOperand> outputs;
    std::vector<PayloadField> params; ///< kernel, stride, padding, perm, flags, output min/max, ...
    std::vector<std::int64_t> debugHandles; ///< XNNPACK: its debug_handle; Core ML: the symbol's handles
    std::string delegateDebugId; ///< Vulkan node_id, Core ML debug symbol; empty for XNNPACK
    /** Whether every handle is 65535: a layout node the backend inserted (XNNPACK transposes). */
    [[nodiscard]] bool backendInserted() const noexcept;
};

/** A decoded (or summarised) delegate payload. Immutable once made; share as shared_ptr<const ...>. */
struct DelegatePayload
{
    std::string backendId; ///< BackendDelegate.id as written
    PayloadKind kind = PayloadKind::Unknown;
    std::string format; ///< "XH00 header + XN01 flatbuffer", "bare XN00 flatbuffer (2023)", ...
    Bytes bytes; ///< the whole payload (a view)
    /** Whether an inner graph (nodes, values) was decoded; false for summaries and malformed payloads. */
    bool graphDecoded = false;
    std::string version; ///< graph schema version string, when the payload has one
    std::vector<InnerNode> nodes;
    std::vector<InnerValue> values; ///< in payload order
    std::vector<std::uint32_t> inputIds; ///< value ids of the graph's inputs
    std::vector<std::uint32_t> outputIds;
    std::vector<PayloadRegion> regions;
    std::vector<PayloadFile> files; ///< Core ML file tree, depth first
    std::vector<PayloadField> summary; ///< header fields, sizes, readable metadata
    Diagnostics diagnostics;

    /** The value with this id, or nullptr (binary search: values are indexed by id when decoded). */
    [[nodiscard]] const InnerValue* value(std::uint32_t id) const noexcept;
    /** The summary field with this name, or nullptr. */
    [[nodiscard]] const PayloadField* field(std::string_view name) const noexcept;

    /** Sorted (id, position in `values`) pairs; filled by the decoder, used by value(). */
    std::vector<std::pair<std::uint32_t, std::uint32_t>> valueIndex;
};

/**
 * Where constants named by key are looked up: the program's named data (segments), then a `.ptd`. Either may be
 * null. `extraNamedData` serves programs not yet laid out (an emission's named data, key -> bytes).
 */
struct PayloadDataSources
{
    const Program* program = nullptr;
    const ExternalData* externalData = nullptr;
    const std::vector<std::pair<std::string, Bytes>>* extraNamedData = nullptr;
};

/**
 * Decodes one payload. `name` says where it came from in messages ("model.pte: execution_plan[0].delegates[1]");
 * `compileSpecs` are summarised for backends whose specs are readable (QNN options, Ethos-U and Core ML text).
 * Never fails; see the file comment.
 */
[[nodiscard]] DelegatePayload decodeDelegatePayload(std::string_view backendId, const Bytes& payload,
    std::span<const CompileSpec> compileSpecs, const PayloadDataSources& sources, const std::string& name);

/** One delegate of a program with its decoded payload. */
struct ProgramDelegate
{
    std::uint32_t methodIndex = 0;
    std::uint32_t delegateIndex = 0;
    std::string methodName;
    /** The DelegateCall instructions that invoke it (chain, instruction id); ETDump and ETRecord key on these. */
    std::vector<std::pair<std::uint32_t, std::uint32_t>> calls;
    /** Decoded once per distinct (location, index): delegates sharing a blob share this pointer. */
    std::shared_ptr<const DelegatePayload> payload;
};

/**
 * Decodes every delegate of every method, each distinct blob once (identical payloads are stored once).
 * `fileName` prefixes messages. Never fails: an out-of-range blob reference gives an Empty payload with an Error.
 */
[[nodiscard]] std::vector<ProgramDelegate> decodeProgramDelegates(
    const Program& program, const PayloadDataSources& sources, const std::string& fileName);

} // namespace pte
