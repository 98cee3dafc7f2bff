// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// The exported-program decoder's document: the schema version and writer, the program's parts in order, the
// streamed nodes and tensor values (their dtypes converted once the version is known), and the entry points.
#include "dump/exportedprogramdecoder.h"

#include "dump/dumpreader_p.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <exception>

namespace pte {

namespace dump {

void ExportedProgramDecoder::onStreamedNode(json&& item, std::size_t index)
{
    if (streamError)
        return;
    auto n = node(item, "graph_module.graph.nodes[" + std::to_string(index) + "]", 0);
    if (!n)
        streamError = std::move(n).error();
    else
        streamedNodes.push_back(std::move(n).value());
}

void ExportedProgramDecoder::onStreamedTensorValue(json&& item, const std::string& key)
{
    if (streamError)
        return;
    auto m = tensorMeta(item, "graph_module.graph.tensor_values." + key);
    if (!m)
        streamError = std::move(m).error();
    else
        streamedTensorValues.insert_or_assign(key, std::move(m).value());
}

Result<void> ExportedProgramDecoder::fixArgument(Argument& a, const std::string& path)
{
    if (a.kind == ArgKind::ScalarType && !a.ints.empty()) {
        a.scalarType = convertDtype(table, a.ints[0]);
        if (!a.scalarType)
            warn(joinPath(path, "as_scalar_type"), "unknown scalar type code " + std::to_string(a.ints[0]));
    }
    if (a.kind == ArgKind::Graph && a.graph)
        PTE_CHECK(fixDtypes(const_cast<Graph&>(*a.graph), joinPath(path, "as_graph.graph"))); // owned by us
    for (std::size_t i = 0; i < a.children.size(); ++i)
        PTE_CHECK(fixArgument(a.children[i], joinPath(path, "as_string_to_argument." + a.strings[i])));
    return {};
}

Result<void> ExportedProgramDecoder::fixDtypes(Graph& g, const std::string& path)
{
    for (auto& [name, m] : g.tensorValues) {
        const auto t = convertDtype(table, m.rawDtype);
        if (!t)
            return bad(joinPath(joinPath(joinPath(path, "tensor_values"), name), "dtype"),
                "unknown or unsupported dtype code " + std::to_string(m.rawDtype) + " for this writer ("
                    + (executorchSerde ? "ExecuTorch serde" : "torch serde") + ")");
        m.dtype = *t;
    }
    const auto needsFix = [](const Argument& a) {
        return a.kind == ArgKind::ScalarType || a.kind == ArgKind::Graph || !a.children.empty();
    };
    for (auto& n : g.nodes) {
        for (std::size_t i = 0; i < n.inputs.size(); ++i)
            if (needsFix(n.inputs[i].arg))
                PTE_CHECK(fixArgument(n.inputs[i].arg, indexPath(joinPath(n.jsonPath, "inputs"), i) + ".arg"));
        for (std::size_t i = 0; i < n.outputs.size(); ++i)
            if (needsFix(n.outputs[i]))
                PTE_CHECK(fixArgument(n.outputs[i], indexPath(joinPath(n.jsonPath, "outputs"), i)));
    }
    return {};
}
Result<void> ExportedProgramDecoder::version(const json& j, ExportedProgram& ep)
{
    const json& sv = field(j, "schema_version");
    if (sv.is_number_integer()) {
        PTE_TRY(const auto v, toInt(sv, "schema_version"));
        ep.schemaMajor = static_cast<std::int32_t>(v);
    } else if (sv.is_object()) {
        PTE_TRY(const auto ma, toInt(field(sv, "major"), "schema_version.major"));
        PTE_TRY(const auto mi, toInt(field(sv, "minor"), "schema_version.minor"));
        ep.schemaMajor = static_cast<std::int32_t>(ma);
        ep.schemaMinor = static_cast<std::int32_t>(mi);
    } else if (sv.is_null()) {
        warn("schema_version", "no schema_version; assuming the current torch schema");
        ep.schemaMajor = 8;
    } else {
        return bad("schema_version", "expected an integer or {major, minor}, found " + describe(sv));
    }
    // Verifiers: a list, or the older "dialect" string.
    const json& verifiers = field(j, "verifiers");
    if (verifiers.is_array()) {
        for (const auto& v : verifiers)
            if (v.is_string())
                ep.verifiers.push_back(v.get<std::string>());
    }
    const json& dialect = field(j, "dialect");
    if (ep.verifiers.empty() && dialect.is_string() && !dialect.get_ref<const std::string&>().empty())
        ep.verifiers.push_back(dialect.get<std::string>());
    if (field(j, "torch_version").is_string())
        ep.torchVersion = j["torch_version"].get<std::string>();

    // ExecuTorch's serde fork: EDGE verifier, or both "dialect" and "verifiers" present.
    const bool edge = std::find(ep.verifiers.begin(), ep.verifiers.end(), "EDGE") != ep.verifiers.end();
    if (edge || (j.contains("dialect") && j.contains("verifiers") && ep.schemaMajor == 5))
        executorchSerde = true;
    ep.executorchSerde = executorchSerde;

    const int major = ep.schemaMajor;
    const int minor = ep.schemaMinor;
    if (executorchSerde) {
        table = DtypeTable::ExecuTorch;
        if (major != 5 && major != 1)
            return bad("schema_version",
                "unsupported ExecuTorch serde schema major version " + std::to_string(major) + " (supported: 1, 5.x)",
                ErrorCode::UnsupportedVersion);
        if (major == 5 && minor > 4)
            warn("schema_version",
                "ExecuTorch serde schema 5." + std::to_string(minor) + " is newer than 5.4; reading it anyway");
        return {};
    }
    if (major < 1 || major > 8)
        return bad("schema_version",
            "unsupported export schema major version " + std::to_string(major) + " (supported: 1 to 8)",
            ErrorCode::UnsupportedVersion);
    if (major == 8 && minor > 20)
        warn("schema_version", "export schema 8." + std::to_string(minor) + " is newer than 8.20; reading it anyway");
    table = major <= 7 ? DtypeTable::TorchUpTo7 : minor < 7 ? DtypeTable::Torch8Early : DtypeTable::Torch8Current;
    return {};
}

Result<std::shared_ptr<ExportedProgram>> ExportedProgramDecoder::program(const json& j, int depth)
{
    if (!j.is_object())
        return bad("", "expected an ExportedProgram object, found " + describe(j));
    const json& gm = field(j, "graph_module");
    if (!gm.is_object())
        return bad("graph_module", "missing or not an object (this is not a serialized ExportedProgram)");
    auto ep = std::make_shared<ExportedProgram>();
    ep->source = m_source;
    PTE_CHECK(version(j, *ep));
    const bool streamed = deferDtypes;
    if (streamed) {
        if (streamError)
            return *streamError;
        deferDtypes = false;
    }
    PTE_TRY(ep->graph, graph(field(gm, "graph"), "graph_module.graph", depth));
    if (streamed) {
        ep->graph.nodes = std::move(streamedNodes);
        ep->graph.tensorValues = std::move(streamedTensorValues);
        PTE_CHECK(fixDtypes(ep->graph, "graph_module.graph"));
    }
    PTE_TRY(ep->signature, signature(field(gm, "signature"), "graph_module.signature", ep->graph));
    const json& mcg = field(gm, "module_call_graph");
    for (std::size_t i = 0; mcg.is_array() && i < mcg.size(); ++i) {
        const json& e = mcg[i];
        ModuleCallEntry entry;
        if (field(e, "fqn").is_string())
            entry.fqn = e["fqn"].get<std::string>();
        const json& sig = field(e, "signature");
        if (sig.is_object()) {
            if (field(sig, "in_spec").is_string())
                entry.inSpec = sig["in_spec"].get<std::string>();
            if (field(sig, "out_spec").is_string())
                entry.outSpec = sig["out_spec"].get<std::string>();
            const json& fan = field(sig, "forward_arg_names");
            for (std::size_t k = 0; fan.is_array() && k < fan.size(); ++k)
                if (fan[k].is_string())
                    entry.forwardArgNames.push_back(fan[k].get<std::string>());
        }
        ep->moduleCallGraph.push_back(std::move(entry));
    }
    const json& callSpec = field(gm, "call_spec"); // 2.1
    if (callSpec.is_object() && ep->moduleCallGraph.empty()) {
        ModuleCallEntry entry;
        if (field(callSpec, "in_spec").is_string())
            entry.inSpec = callSpec["in_spec"].get<std::string>();
        if (field(callSpec, "out_spec").is_string())
            entry.outSpec = callSpec["out_spec"].get<std::string>();
        ep->moduleCallGraph.push_back(std::move(entry));
    }
    const json& md = field(gm, "metadata");
    if (md.is_object())
        for (auto it = md.begin(); it != md.end(); ++it)
            ep->graphModuleMetadata.emplace(it.key(), it->is_string() ? it->get<std::string>() : it->dump());
    const json& ov = field(j, "opset_version");
    if (ov.is_object())
        for (auto it = ov.begin(); it != ov.end(); ++it) {
            PTE_TRY(const auto v, toInt(it.value(), joinPath("opset_version", it.key())));
            ep->opsetVersion.emplace(it.key(), v);
        }
    const json& rc = field(j, "range_constraints");
    if (rc.is_object())
        for (auto it = rc.begin(); it != rc.end(); ++it) {
            const std::string rp = joinPath("range_constraints", it.key());
            RangeConstraint r;
            auto bound = [&](const char* key, std::optional<std::int64_t>& into) -> Result<void> {
                const json& b = field(it.value(), key);
                if (b.is_null())
                    return {};
                if (b.is_number_unsigned() && b.get<std::uint64_t>() > std::uint64_t(INT64_MAX))
                    return {}; // beyond int64: unbounded
                if (b.is_number_integer()) {
                    PTE_TRY(into, toInt(b, joinPath(rp, key)));
                    return {};
                }
                PTE_TRY(const double d, toFloat(b, joinPath(rp, key)));
                if (std::isfinite(d))
                    into = static_cast<std::int64_t>(d);
                return {};
            };
            PTE_CHECK(bound("min_val", r.minVal));
            PTE_CHECK(bound("max_val", r.maxVal));
            ep->rangeConstraints.emplace(it.key(), r);
        }
    ep->loweredModules = std::move(m_lowered);
    m_lowered.clear();
    return ep;
}

namespace {

/** The node whose JSON path is the longest prefix of `path` (ending at a '.' or '[' boundary), or nullptr. */
const Node* nodeAtPath(const Graph& graph, std::string_view path)
{
    const Node* best = nullptr;
    for (const auto& n : graph.nodes) {
        if (n.jsonPath.empty() || !path.starts_with(n.jsonPath))
            continue;
        if (path.size() > n.jsonPath.size() && path[n.jsonPath.size()] != '.' && path[n.jsonPath.size()] != '[')
            continue;
        if (!best || n.jsonPath.size() > best->jsonPath.size())
            best = &n;
    }
    return best;
}

} // namespace

Result<std::shared_ptr<ExportedProgram>> decodeProgram(
    std::string_view text, const std::string& source, Diagnostics& diags, std::uint64_t maxEntrySize)
{
    Diagnostics local;
    ExportedProgramDecoder d(source, local);
    d.maxEntrySize = static_cast<std::int64_t>(std::min<std::uint64_t>(maxEntrySize, INT64_MAX));
    d.deferDtypes = true;
    std::shared_ptr<ExportedProgram> ep;
    try {
        json root;
        PTE_CHECK(parseJsonStreamed(
            text, source, root,
            [&](json&& item, std::size_t index, const std::string&) { d.onStreamedNode(std::move(item), index); },
            [&](json&& item, std::size_t, const std::string& key) { d.onStreamedTensorValue(std::move(item), key); }));
        auto r = d.program(root);
        if (!r)
            return std::move(r).error();
        ep = std::move(r).value();
    } catch (const std::exception& e) {
        // The decoder checks types before every access; this is a safety net at the library boundary.
        return fail(ErrorCode::InvalidInput, source + ": malformed exported program: " + e.what());
    }
    // Findings inside a node say which node (Diagnostic::location), for tools that navigate to it.
    for (auto& diag : local)
        if (diag.location.node.empty() && !diag.fieldPath.empty())
            if (const Node* at = nodeAtPath(ep->graph, diag.fieldPath))
                diag.location.node = at->name;
    // The program keeps its own findings; the caller collects them for the whole dump.
    ep->diagnostics = local;
    diags.insert(diags.end(), local.begin(), local.end());
    return ep;
}

/** A decoder for TensorMeta JSON embedded in `ep`'s pickles (fake tensors), with the program's dtype table. */
ExportedProgramDecoder metaDecoder(const ExportedProgram& ep, const std::string& label, Diagnostics& diags)
{
    ExportedProgramDecoder dec(label, diags);
    dec.table = dtypeTableFor(ep);
    dec.executorchSerde = ep.executorchSerde;
    return dec;
}

} // namespace dump

Result<std::shared_ptr<ExportedProgram>> parseExportedProgramJson(std::string_view json, const std::string& sourceName)
{
    Diagnostics diags;
    PTE_TRY(auto ep, dump::decodeProgram(json, sourceName, diags, std::uint64_t(64) << 30));
    dump::computeMissingWeights(*ep);
    return ep;
}

} // namespace pte
