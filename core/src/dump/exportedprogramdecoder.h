// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

// Private to the graph-dump reader: torch.export's ExportedProgram JSON -> the graph model (graph.h). The decoder
// is shared with the weight and sample-input readers, which decode TensorMeta JSON with it. Its members are defined
// by concern: the document and streaming (exportedprogramdecoder.cpp), scalars, unions and TensorMetas
// (serdevalues.cpp), arguments (serdearguments.cpp), nodes and graphs (serdegraph.cpp), signatures
// (serdesignature.cpp), lowered modules (loweredmodule.cpp); the dtype tables are dtypetable.*, base64 base64.*.

#include "base/fieldpath.h"
#include "dump/dtypetable.h"
#include "dump/jsontext.h"
#include "dump/pickle/unpickler.h"
#include "pte/dumpreader.h"
#include "pte/graph.h"

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace pte::dump {

using base::indexPath;
using base::joinPath;

/**
 * Decodes torch.export's ExportedProgram JSON (torch's serde and ExecuTorch's exir serde, every schema version) into
 * the graph model, and TensorMeta JSON for the weight and sample-input readers. Every member that reads JSON checks
 * its types first: errors are InvalidInput naming the source and the JSON path; non-fatal findings go to the
 * Diagnostics given to the constructor. One decoder decodes one program (it gathers the program's lowered modules).
 */
class ExportedProgramDecoder
{
public:
    ExportedProgramDecoder(const std::string& source, Diagnostics& diags)
        : m_source(source)
        , m_diags(diags)
    { }

    bool executorchSerde = false;
    DtypeTable table = DtypeTable::Torch8Current;
    /** Streaming: nodes and tensor values are decoded before the (trailing) schema version is seen. */
    bool deferDtypes = false;
    std::vector<Node> streamedNodes;
    std::map<std::string, TensorMeta> streamedTensorValues;
    std::optional<Error> streamError; ///< first error while decoding streamed items

    /** Streaming callbacks (parseJsonStreamed): decode one node or tensor value; the first error is kept. */
    void onStreamedNode(json&& item, std::size_t index);
    void onStreamedTensorValue(json&& item, const std::string& key);

    /** fixDtypes for one argument (scalar types, nested graphs, children). */
    Result<void> fixArgument(Argument& a, const std::string& path);
    /** Converts the raw dtype codes kept while streaming, now that the writer and version are known. */
    Result<void> fixDtypes(Graph& g, const std::string& path);
    std::int64_t maxEntrySize = std::int64_t(64) << 30; ///< bound on the payloads decoded (e.g. base64 blobs)

    /** The error for a bad value at `path` ("SOURCE: WHAT at PATH"). */
    Unexpected bad(const std::string& path, const std::string& what, ErrorCode code = ErrorCode::InvalidInput) const;
    /** Records a finding at `path`. */
    void warn(const std::string& path, const std::string& what, Severity sev = Severity::Warning);

    /** Scalars and unions as the serde writes them (unions in both of their JSON forms). */
    Result<std::int64_t> toInt(const json& j, const std::string& path) const;
    Result<double> toFloat(const json& j, const std::string& path) const;
    Result<std::string> toString(const json& j, const std::string& path) const;
    Result<bool> toBool(const json& j, const std::string& path) const;
    Result<std::pair<std::string, const json*>> unionAlt(const json& j, const std::string& path) const;

    /** A SymInt: an integer or a symbolic expression (with its hint when there is one). */
    Result<SymInt> symInt(const json& j, const std::string& path) const;

    /** A dtype code in this decoder's table; `raw` receives the code (kept while streaming). */
    Result<ScalarType> dtype(const json& j, const std::string& path, std::int32_t* raw) const;

    /** A TensorMeta (dtype, sizes, strides, storage offset, requires_grad, device, layout). */
    Result<TensorMeta> tensorMeta(const json& jIn, const std::string& pathIn) const;

    /**
     * The TensorMeta embedded in a pickled FakeTensor, decoded with this decoder's dtype table (set from the
     * program's version). Adds a warning naming the FQN (no data), or one saying why the meta is unreadable.
     */
    Result<TensorMeta> fakeTensorMeta(const SavedTensor& s, const std::string& where, const char* what);
    /** The sizes as "2, 3" (symbolic ones by their expression), for messages. */

    /** The name of a tensor argument. */
    Result<std::string> tensorName(const json& j, const std::string& path) const;

    /** One node argument (every Argument union alternative); `depth` bounds nesting. */
    Result<Argument> argument(const json& j, const std::string& path, int depth);

    /** The debug handles in a metadata string ("1, 2" or "[1,2]"). */
    static std::vector<std::int64_t> parseHandles(const std::string& s);

    /** One graph node: target, inputs, outputs and metadata. */
    Result<Node> node(const json& j, const std::string& path, int depth);

    /** A graph (inputs, outputs, nodes, tensor values, symbolic values); `depth` bounds nested subgraphs. */
    Result<Graph> graph(const json& j, const std::string& path, int depth);

    /** A TensorArgument. */
    Result<Argument> tensorArg(const json& j, const std::string& path) const;

    /** The graph signature (input and output specs); legacy (torch 2.1) signatures are rebuilt against `g`. */
    Result<GraphSignature> signature(const json& j, const std::string& path, const Graph& g);

    /** torch 2.1: dicts and lists instead of specs; rebuilt in graph order for display. */
    Result<GraphSignature> legacySignature(const json& j, const std::string& path, const Graph& g);

    /** A lowered module (delegate) from its JSON text: backend, payload, compile specs, original program. */
    Result<std::shared_ptr<const LoweredModule>> loweredModule(
        const std::string& text, const std::string& name, const std::string& path, int depth);

    /** Reads the schema version and the writer into `ep` and picks the dtype table. */
    Result<void> version(const json& j, ExportedProgram& ep);

    /** The whole program (after streaming: the rest of the document). */
    Result<std::shared_ptr<ExportedProgram>> program(const json& j, int depth = 0);

private:
    std::string m_source;
    Diagnostics& m_diags;
    std::map<std::string, std::shared_ptr<const LoweredModule>> m_lowered;
};

/**
 * Decodes an exported program's JSON text (streaming its nodes and tensor values). Findings go to `diags` and to
 * the program's own diagnostics; `maxEntrySize` bounds the payloads it decodes.
 */
Result<std::shared_ptr<ExportedProgram>> decodeProgram(
    std::string_view text, const std::string& source, Diagnostics& diags, std::uint64_t maxEntrySize);

/** A decoder for TensorMeta JSON embedded in `ep`'s pickles (fake tensors), with the program's dtype table. */
ExportedProgramDecoder metaDecoder(const ExportedProgram& ep, const std::string& label, Diagnostics& diags);

} // namespace pte::dump
