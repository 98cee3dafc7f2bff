// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// `ptelens-cli delegates FILE [--etrecord E] [--etdump D] [--json] [--ptd DATA]`: each delegate of a program (a .pte,
// or a graph dump - .pt2, exported-program JSON, ETRecord - emitted first with the default options) with its
// decoded payload (XNNPACK and Vulkan graphs, Core ML file tree and operations, a summary for every other backend),
// its inner nodes with their debug handles, and, with an ETRecord (or the emission's maps for a dump), the
// source-graph nodes each handle maps to and the handles the backend fused away. With an ETDump of a run of FILE,
// each delegate call's XNNPACK operator events are aligned to the inner nodes (exact, approximate or failed).
// Exit 0 when the files were read (payload findings are diagnostics), 1 when one could not be read.
#include "command.h"
#include "jsonoutput.h"
#include "pte/delegateetdump.h"
#include "pte/delegatelink.h"
#include "pte/dumpreader.h"
#include "pte/etdump.h"
#include "pte/etdumpjoin.h"
#include "pte/programdiff.h"
#include "pte/ptereader.h"

#include <QCommandLineParser>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <set>

namespace pte::cli {

namespace {

using Json = nlohmann::ordered_json;

Json fieldsJson(const std::vector<pte::PayloadField>& fields)
{
    Json j = Json::object();
    for (const auto& f : fields)
        j[f.name] = f.value;
    return j;
}

Json sourceJson(const pte::SourceNodeRef& s)
{
    Json j;
    j["handle"] = s.handle;
    j["graph"] = s.graph;
    j["name"] = s.name;
    j["target"] = s.target;
    j["stack_trace"] = s.stackTrace;
    j["module_stack"] = s.moduleStack;
    return j;
}

Json operandsJson(const std::vector<pte::InnerOperand>& ops)
{
    Json list = Json::array();
    for (const auto& o : ops)
        list.push_back({ { "role", o.role }, { "value", o.valueId } });
    return list;
}

Json valueJson(const pte::InnerValue& v)
{
    Json j;
    j["id"] = v.id;
    j["kind"] = v.kind;
    if (!v.dtype.empty())
        j["dtype"] = v.dtype;
    if (v.kind.find("tensor") != std::string::npos)
        j["dims"] = v.dims;
    if (!v.text.empty())
        j["text"] = v.text;
    if (v.externalId)
        j["external_id"] = *v.externalId;
    j["input"] = v.graphInput;
    j["output"] = v.graphOutput;
    if (v.quant) {
        const auto& q = *v.quant;
        Json qj;
        static const char* kinds[] = { "per_tensor", "per_channel", "per_token_dynamic", "per_channel_group",
            "unknown" };
        qj["kind"] = kinds[int(q.kind)];
        switch (q.kind) {
        case pte::QuantParams::Kind::PerTensor:
            qj["scale"] = q.scale;
            qj["zero_point"] = q.zeroPoint;
            break;
        case pte::QuantParams::Kind::PerChannel:
        case pte::QuantParams::Kind::PerChannelGroup:
            qj["channel_dim"] = q.channelDim;
            if (q.kind == pte::QuantParams::Kind::PerChannelGroup)
                qj["group_size"] = q.groupSize;
            qj["scales"] = q.scales;
            qj["scale_buffer_idx"] = q.scaleBufferIdx;
            qj["zero_point"] = q.zeroPoint;
            break;
        case pte::QuantParams::Kind::PerTokenDynamic:
            qj["num_nonbatch_dims"] = q.numNonbatchDims;
            break;
        case pte::QuantParams::Kind::Unknown:
            qj["tag"] = q.rawTag;
            break;
        }
        j["quant"] = std::move(qj);
    }
    if (v.constant) {
        const auto& c = *v.constant;
        Json cj;
        cj["index"] = c.index;
        cj["source"] = pte::constantSourceName(c.source);
        if (!c.key.empty())
            cj["key"] = c.key;
        if (c.source == pte::ConstantSource::PayloadSection || c.source == pte::ConstantSource::InlineBuffer)
            cj["offset"] = c.offset;
        cj["size"] = c.size;
        cj["resolved_bytes"] = c.data.size();
        j["constant"] = std::move(cj);
    }
    if (!v.attributes.empty())
        j["attributes"] = fieldsJson(v.attributes);
    return j;
}

Json diagnosticsJson(const pte::Diagnostics& diags)
{
    Json list = Json::array();
    for (const auto& d : diags)
        list.push_back(diagnosticJson(d));
    return list;
}

Json delegateJson(const pte::ProgramDelegate& d, const pte::DelegateLinks& links, bool firstUse)
{
    const auto& p = *d.payload;
    Json j;
    j["method"] = d.methodName;
    j["delegate_index"] = d.delegateIndex;
    j["backend"] = p.backendId;
    Json calls = Json::array();
    for (const auto& [chain, instr] : d.calls)
        calls.push_back({ { "chain", chain }, { "instruction", instr } });
    j["calls"] = std::move(calls);
    j["kind"] = pte::payloadKindName(p.kind);
    j["format"] = p.format;
    j["size"] = p.bytes.size();
    j["shared"] = !firstUse;
    j["graph_decoded"] = p.graphDecoded;
    j["summary"] = fieldsJson(p.summary);
    Json regions = Json::array();
    for (const auto& r : p.regions)
        regions.push_back({ { "name", r.name }, { "offset", r.offset }, { "size", r.size } });
    j["regions"] = std::move(regions);
    if (!p.files.empty()) {
        Json files = Json::array();
        for (const auto& f : p.files)
            files.push_back(
                { { "path", f.path }, { "directory", f.directory }, { "offset", f.offset }, { "size", f.size } });
        j["files"] = std::move(files);
    }
    j["version"] = p.version;
    j["inputs"] = p.inputIds;
    j["outputs"] = p.outputIds;
    Json nodes = Json::array();
    for (std::size_t i = 0; i < p.nodes.size(); ++i) {
        const auto& n = p.nodes[i];
        Json nj;
        nj["index"] = n.index;
        nj["kind"] = n.kind;
        nj["debug_handles"] = n.debugHandles;
        nj["backend_inserted"] = n.backendInserted();
        if (!n.delegateDebugId.empty())
            nj["delegate_debug_id"] = n.delegateDebugId;
        nj["inputs"] = operandsJson(n.inputs);
        nj["outputs"] = operandsJson(n.outputs);
        nj["params"] = fieldsJson(n.params);
        Json sources = Json::array();
        if (i < links.nodeSources.size())
            for (const auto& s : links.nodeSources[i])
                sources.push_back(sourceJson(s));
        nj["sources"] = std::move(sources);
        nodes.push_back(std::move(nj));
    }
    j["nodes"] = std::move(nodes);
    Json values = Json::array();
    for (const auto& v : p.values)
        values.push_back(valueJson(v));
    j["values"] = std::move(values);
    j["partition_handles"] = links.partitionHandles;
    Json absorbed = Json::array();
    for (const auto& a : links.absorbed) {
        Json aj;
        aj["handle"] = a.handle;
        aj["into_node"] = a.intoNode ? Json(*a.intoNode) : Json(nullptr);
        aj["how"] = a.how;
        aj["inferred"] = a.inferred;
        Json sources = Json::array();
        for (const auto& s : a.sources)
            sources.push_back(sourceJson(s));
        aj["sources"] = std::move(sources);
        absorbed.push_back(std::move(aj));
    }
    j["absorbed"] = std::move(absorbed);
    j["unexpected_handles"] = links.unexpectedHandles;
    j["diagnostics"] = diagnosticsJson(p.diagnostics);
    return j;
}

std::string handlesText(const std::vector<std::int64_t>& handles)
{
    std::string s;
    for (const auto h : handles)
        s += (s.empty() ? "" : ",") + std::to_string(h);
    return s.empty() ? "-" : s;
}

std::string delegateText(const pte::ProgramDelegate& d, const pte::DelegateLinks& links, bool firstUse)
{
    const auto& p = *d.payload;
    std::string s = d.methodName + ": delegate " + std::to_string(d.delegateIndex) + " " + p.backendId;
    for (const auto& [chain, instr] : d.calls)
        s += ", instruction " + std::to_string(instr) + (chain ? " (chain " + std::to_string(chain) + ")" : "");
    s += "\n  payload: " + p.format + ", " + std::to_string(p.bytes.size()) + " bytes";
    if (!firstUse) {
        s += " (the same blob as an earlier delegate)\n";
        return s;
    }
    s += "\n";
    for (const auto& f : p.summary)
        s += "  " + f.name + ": " + f.value + "\n";
    for (const auto& f : p.files)
        if (!f.directory)
            s += "  file " + f.path + " (" + std::to_string(f.size) + " bytes)\n";
    for (std::size_t i = 0; i < p.nodes.size(); ++i) {
        const auto& n = p.nodes[i];
        s += "  node " + std::to_string(n.index) + " " + n.kind + " handle " + handlesText(n.debugHandles);
        if (n.backendInserted())
            s += " (inserted by the backend)";
        if (!n.delegateDebugId.empty())
            s += " id " + n.delegateDebugId;
        std::string ins;
        for (const auto& o : n.inputs)
            ins += (ins.empty() ? "" : " ") + std::to_string(o.valueId);
        std::string outs;
        for (const auto& o : n.outputs)
            outs += (outs.empty() ? "" : " ") + std::to_string(o.valueId);
        if (!n.inputs.empty() || !n.outputs.empty())
            s += ": " + ins + " -> " + outs;
        for (const auto& prm : n.params)
            s += "; " + prm.name + " " + prm.value;
        if (i < links.nodeSources.size())
            for (const auto& src : links.nodeSources[i])
                s += "\n      <- " + src.graph + ":" + src.name + " " + src.target;
        s += "\n";
    }
    for (const auto& v : p.values) {
        if (v.kind.find("tensor") == std::string::npos)
            continue;
        if (!v.graphInput && !v.graphOutput && !v.constant && !v.quant)
            continue;
        s += "  value " + std::to_string(v.id) + " " + v.dtype + " " + std::string("[");
        for (std::size_t k = 0; k < v.dims.size(); ++k)
            s += (k ? "," : "") + std::to_string(v.dims[k]);
        s += "]";
        if (v.graphInput)
            s += " input";
        if (v.graphOutput)
            s += " output";
        if (v.externalId)
            s += " external " + std::to_string(*v.externalId);
        if (v.constant)
            s += std::string(" constant ") + pte::constantSourceName(v.constant->source) + " "
                + std::to_string(v.constant->size) + " bytes";
        if (v.quant && v.quant->kind == pte::QuantParams::Kind::PerTensor)
            s += " scale " + std::to_string(v.quant->scale) + " zero point " + std::to_string(v.quant->zeroPoint);
        s += "\n";
    }
    if (!links.partitionHandles.empty())
        s += "  partition handles: " + handlesText(links.partitionHandles) + "\n";
    for (const auto& a : links.absorbed) {
        s += "  handle " + std::to_string(a.handle) + (a.inferred ? " (a gap, likely)" : "") + " absorbed";
        if (a.intoNode)
            s += " into node " + std::to_string(*a.intoNode) + " (by " + a.how + ")";
        for (const auto& src : a.sources)
            s += "\n      <- " + src.graph + ":" + src.name + " " + src.target;
        s += "\n";
    }
    for (const auto& diag : p.diagnostics)
        s += "  " + std::string(pte::severityName(diag.severity)) + ": " + diag.message + "\n";
    return s;
}

/** An ETDump of a run of the program, its delegated events placed on the delegates and aligned. */
struct ProfileInput
{
    std::shared_ptr<const pte::EtDump> dump;
    pte::EtdumpDelegateAlignment alignment;
};

/** The aligned calls of delegate `d` (index in the decoded delegates). */
std::vector<const pte::EtdumpDelegateCall*> profilesOf(std::size_t d, const ProfileInput& in)
{
    std::vector<const pte::EtdumpDelegateCall*> out;
    for (const auto& call : in.alignment.calls)
        if (call.delegate == d)
            out.push_back(&call);
    return out;
}

std::string eventNodeText(const pte::DelegatePayload& p, std::int32_t node)
{
    if (node == pte::kRuntimeInsertedNode)
        return "a Convert the runtime adds";
    if (node < 0 || std::size_t(node) >= p.nodes.size())
        return "unplaced";
    const auto& n = p.nodes[std::size_t(node)];
    return "node " + std::to_string(n.index) + " " + n.kind + " handle " + handlesText(n.debugHandles);
}

Json profilesJson(
    const pte::ProgramDelegate& d, const std::vector<const pte::EtdumpDelegateCall*>& profiles, const ProfileInput& in)
{
    const pte::EtDump& dump = *in.dump;
    Json list = Json::array();
    for (const auto* call : profiles) {
        const auto& cp = *call;
        const auto& g = in.alignment.groups[cp.group];
        Json j;
        j["block"] = g.run;
        j["block_name"] = dump.runs[g.run].name;
        j["chain"] = g.group.chainIndex;
        j["instruction"] = g.group.instructionId;
        j["quality"] = pte::alignmentQualityName(cp.alignment.quality);
        Json events = Json::array();
        for (std::size_t k = 0; k < g.group.events.size(); ++k) {
            const auto& e = g.group.events[k];
            const std::int32_t node =
                k < cp.alignment.eventNode.size() ? cp.alignment.eventNode[k] : pte::kUnplacedEvent;
            Json ej;
            ej["label"] = e.label;
            ej["start"] = e.startTime;
            ej["end"] = e.endTime;
            ej["duration"] = e.endTime >= e.startTime ? Json(e.endTime - e.startTime) : Json(nullptr);
            ej["node"] = node >= 0 ? Json(node) : Json(nullptr);
            ej["runtime_inserted"] = node == pte::kRuntimeInsertedNode;
            if (node >= 0 && std::size_t(node) < d.payload->nodes.size())
                ej["debug_handles"] = d.payload->nodes[std::size_t(node)].debugHandles;
            events.push_back(std::move(ej));
        }
        j["events"] = std::move(events);
        j["skipped_nodes"] = cp.alignment.skippedNodes;
        j["unmatched_nodes"] = cp.alignment.unmatchedNodes;
        j["notes"] = cp.alignment.notes;
        list.push_back(std::move(j));
    }
    return list;
}

std::string profilesText(
    const pte::ProgramDelegate& d, const std::vector<const pte::EtdumpDelegateCall*>& profiles, const ProfileInput& in)
{
    const pte::EtDump& dump = *in.dump;
    std::string s;
    for (const auto* call : profiles) {
        const auto& cp = *call;
        const auto& g = in.alignment.groups[cp.group];
        s += "  profile: block " + std::to_string(g.run) + " (" + dump.runs[g.run].name + "), instruction "
            + std::to_string(g.group.instructionId) + ": " + std::to_string(g.group.events.size())
            + " event(s), alignment " + pte::alignmentQualityName(cp.alignment.quality) + "\n";
        for (std::size_t k = 0; k < g.group.events.size(); ++k) {
            const auto& e = g.group.events[k];
            const std::int32_t node =
                k < cp.alignment.eventNode.size() ? cp.alignment.eventNode[k] : pte::kUnplacedEvent;
            s += "    \"" + e.label + "\" "
                + (e.endTime >= e.startTime ? std::to_string(e.endTime - e.startTime) + " ticks" : "?") + " -> "
                + eventNodeText(*d.payload, node) + "\n";
        }
        if (!cp.alignment.skippedNodes.empty()) {
            s += "    skipped (fused away):";
            for (const auto n : cp.alignment.skippedNodes)
                s += " " + std::to_string(n);
            s += "\n";
        }
        for (const auto& note : cp.alignment.notes)
            s += "    note: " + note + "\n";
    }
    return s;
}

int runDelegates(const QStringList& args)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Decodes each delegate's payload: inner nodes and values, debug handles, and the source nodes they map to."));
    parser.addHelpOption();
    parser.addPositionalArgument(
        QStringLiteral("FILE"), QStringLiteral("The .pte, or a graph dump (.pt2, JSON, ETRecord) emitted first."));
    const QCommandLineOption jsonOpt(QStringLiteral("json"), QStringLiteral("Print the result as JSON."));
    const QCommandLineOption etrecordOpt(QStringLiteral("etrecord"),
        QStringLiteral("ETRecord whose edge program and debug maps link handles to source nodes."),
        QStringLiteral("E"));
    const QCommandLineOption ptdOpt(QStringLiteral("ptd"),
        QStringLiteral("External data (.ptd) for named constants (default: a .ptd next to FILE)."),
        QStringLiteral("DATA"));
    const QCommandLineOption etdumpOpt(QStringLiteral("etdump"),
        QStringLiteral("ETDump of a run of FILE: XNNPACK's operator events aligned to the inner nodes."),
        QStringLiteral("D"));
    parser.addOptions({ jsonOpt, etrecordOpt, etdumpOpt, ptdOpt });
    if (const auto done = parseArguments(parser, args, "delegates", 1, "exactly one file"))
        return *done;
    const std::string path = parser.positionalArguments().front().toStdString();
    // A .pte as read, or a graph dump emitted first (as `diff` opens its sides).
    pte::DiffSideOptions sideOptions;
    if (parser.isSet(ptdOpt))
        sideOptions.externalDataPath = parser.value(ptdOpt).toStdString();
    auto opened = pte::openDiffSide(path, sideOptions);
    if (!opened) {
        printError(opened.error());
        return opened.error().code == pte::ErrorCode::Internal ? ExitInternal : ExitInvalidInput;
    }
    const pte::DiffSide& side = *opened;

    // Source graphs and debug maps: an ETRecord's when one is given, else the emission's (a dump).
    std::shared_ptr<const pte::DumpSet> etrecord;
    pte::SourceGraphIndex index;
    pte::DebugMapsView maps;
    if (parser.isSet(etrecordOpt)) {
        auto dump = pte::readDump(parser.value(etrecordOpt).toStdString());
        if (!dump) {
            printError(dump.error());
            return ExitInvalidInput;
        }
        etrecord = *dump;
        pte::addMethodGraphs(index, etrecord->methods);
        if (etrecord->etrecordMaps)
            maps = pte::debugMapsView(*etrecord->etrecordMaps);
    } else if (side.emitted) {
        for (const auto& [name, program] : side.emittedFrom)
            if (program)
                index.add(name, *program);
        maps.debugHandleMap = &side.emitted->debugHandleMap;
        maps.delegateMap = &side.emitted->methodToDelegateDebugIdMap;
    }

    ProfileInput profile;
    if (parser.isSet(etdumpOpt)) {
        auto dump = pte::readEtdumpFile(parser.value(etdumpOpt).toStdString());
        if (!dump) {
            printError(dump.error());
            return ExitInvalidInput;
        }
        profile.dump = *dump;
    }

    const pte::PayloadDataSources sources { side.program.get(),
        side.file && side.file->externalData ? &*side.file->externalData : nullptr,
        side.emitted ? &side.emitted->namedData : nullptr };
    const auto delegates = pte::decodeProgramDelegates(*side.program, sources, path);
    const pte::SourceGraphIndex* indexPtr = index.empty() ? nullptr : &index;
    if (profile.dump) {
        // Each block joined to the method it ran (a block of another program is refused and its events not aligned).
        const auto join = pte::joinEtdump(profile.dump, pte::makeEtdumpSources(side.program));
        profile.alignment = pte::alignEtdumpDelegates(*profile.dump, join ? join->get() : nullptr, delegates);
    }
    // Events that could not be placed on this program's delegates: said, and exit 1 (as `profile` on a mismatch).
    const std::string& problem = profile.alignment.problem;
    const int exitCode = problem.empty() ? ExitOk : ExitInvalidInput;
    std::set<const pte::DelegatePayload*> seen;
    if (parser.isSet(jsonOpt)) {
        Json j;
        j["file"] = path;
        j["emitted"] = side.emitted != nullptr;
        j["etrecord"] = etrecord ? Json(etrecord->path) : Json(nullptr);
        j["etdump"] = profile.dump ? Json(profile.dump->path) : Json(nullptr);
        if (profile.dump)
            j["etdump_problem"] = problem.empty() ? Json(nullptr) : Json(problem);
        Json list = Json::array();
        for (std::size_t k = 0; k < delegates.size(); ++k) {
            const auto& d = delegates[k];
            const auto links = pte::linkProgramDelegate(d, maps, indexPtr);
            Json dj = delegateJson(d, links, seen.insert(d.payload.get()).second);
            if (profile.dump)
                dj["profile"] = profilesJson(d, profilesOf(k, profile), profile);
            list.push_back(std::move(dj));
        }
        j["delegates"] = std::move(list);
        printJson(j);
        return exitCode;
    }
    std::string text =
        path + (side.emitted ? " (emitted)" : "") + ": " + std::to_string(delegates.size()) + " delegate(s)\n";
    if (!problem.empty())
        text += "ETDump " + profile.dump->path + ": not aligned: " + problem + "\n";
    for (std::size_t k = 0; k < delegates.size(); ++k) {
        const auto& d = delegates[k];
        const auto links = pte::linkProgramDelegate(d, maps, indexPtr);
        text += delegateText(d, links, seen.insert(d.payload.get()).second);
        if (profile.dump)
            text += profilesText(d, profilesOf(k, profile), profile);
    }
    printOut(text);
    return exitCode;
}

} // namespace

PTELENS_REGISTER_COMMAND(
    delegates, "delegates", "decode delegate payloads: inner nodes, handles, source nodes", runDelegates);

} // namespace pte::cli
