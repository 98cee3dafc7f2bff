// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// `ptelens-cli graph FILE [--method NAME] [--json]`: what a graph dump (PT2 archive, legacy torch.export
// zip, ETRecord, bare exported-program JSON) holds: methods, input and output specs (marking the outputs
// emission does not return), nodes with targets and tensor metadata, weights, lowered delegates with their
// named data, and the sample inputs kept with the program. For a program (.pte, .bpte), the instruction graph the
// GUI draws: per method its inputs, instructions and outputs, the values each reads and writes, the edges between
// them and the reads that go through planned memory another value wrote (pte/methoddataflow.h), and the planned
// values with their lifetimes (pte/valuelifetimes.h).
#include "command.h"
#include "jsonoutput.h"
#include "pte/dumpreader.h"
#include "pte/emittedoutput.h"
#include "pte/emitter.h"
#include "pte/graphtext.h"
#include "pte/methoddataflow.h"
#include "pte/ptereader.h"
#include "pte/valuelifetimes.h"

#include <QCommandLineParser>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>

namespace pte::cli {

namespace {

using Json = nlohmann::ordered_json;

/** The diagnostics as every command writes them (jsonoutput.h), with the file each came from. */
Json diagnosticsJson(const std::vector<pte::Diagnostic>& diagnostics)
{
    Json list = Json::array();
    for (const auto& d : diagnostics) {
        Json j = diagnosticJson(d);
        j["file"] = d.file;
        list.push_back(std::move(j));
    }
    return list;
}

const char* containerName(pte::DumpSet::Container c)
{
    switch (c) {
    case pte::DumpSet::Container::Pt2Archive:
        return "pt2-archive";
    case pte::DumpSet::Container::LegacyZip:
        return "legacy-zip";
    case pte::DumpSet::Container::BareJson:
        return "bare-json";
    case pte::DumpSet::Container::EtRecord:
        return "etrecord";
    }
    return "unknown";
}

Json metaJson(const pte::TensorMeta& m)
{
    Json j;
    j["dtype"] = pte::scalarTypeShortName(m.dtype);
    j["raw_dtype"] = m.rawDtype;
    Json sizes = Json::array();
    for (const auto& s : m.sizes) {
        if (s.value)
            sizes.push_back(*s.value);
        else
            sizes.push_back(s.expr);
    }
    j["sizes"] = std::move(sizes);
    j["requires_grad"] = m.requiresGrad;
    j["device"] = m.deviceType + (m.deviceIndex ? ":" + std::to_string(*m.deviceIndex) : std::string());
    return j;
}

/** Sample-input tensors with at most this many elements show their values. */
constexpr std::size_t kSampleValueLimit = 8;

const char* sampleKindName(pte::SampleInput::Kind k)
{
    switch (k) {
    case pte::SampleInput::Kind::Tensor:
        return "tensor";
    case pte::SampleInput::Kind::None:
        return "none";
    case pte::SampleInput::Kind::Bool:
        return "bool";
    case pte::SampleInput::Kind::Int:
        return "int";
    case pte::SampleInput::Kind::Float:
        return "float";
    case pte::SampleInput::Kind::String:
        return "str";
    case pte::SampleInput::Kind::Unsupported:
        return "unsupported";
    }
    return "?";
}

/** "f32[3] = [0.2, 0.6, -0.1]", "i64 = 3", "None", ... */
std::string sampleText(const pte::SampleInput& in)
{
    using K = pte::SampleInput::Kind;
    switch (in.kind) {
    case K::Tensor: {
        std::string s = pte::tensorMetaText(in.tensor.meta);
        if (in.tensor.fake)
            return s + "  (fake: no data)";
        if (const auto v = pte::tensorElements(in.tensor, kSampleValueLimit))
            s += " = [" + pte::elementsText(*v, in.tensor.meta.dtype, kSampleValueLimit) + "]";
        return s;
    }
    case K::None:
        return "None";
    case K::Bool:
        return pte::elementText(in.boolValue, pte::ScalarType::Bool);
    case K::Int:
        return std::to_string(in.intValue);
    case K::Float:
        return pte::elementText(in.floatValue, pte::ScalarType::Double);
    case K::String:
        return "\"" + in.text + "\"";
    case K::Unsupported:
        return "<" + in.text + ">";
    }
    return "?";
}

Json sampleJson(const pte::SampleInput& in)
{
    using K = pte::SampleInput::Kind;
    Json j;
    j["path"] = in.path;
    j["kind"] = sampleKindName(in.kind);
    switch (in.kind) {
    case K::Tensor: {
        const auto& m = in.tensor.meta;
        j["dtype"] = pte::scalarTypeShortName(m.dtype);
        Json shape = Json::array();
        for (const auto& s : m.sizes)
            shape.push_back(s.value ? Json(*s.value) : Json(s.expr));
        j["shape"] = std::move(shape);
        Json strides = Json::array();
        for (const auto& s : m.strides)
            strides.push_back(s.value ? Json(*s.value) : Json(s.expr));
        j["strides"] = std::move(strides);
        j["device"] = m.deviceType + (m.deviceIndex ? ":" + std::to_string(*m.deviceIndex) : std::string());
        j["bytes"] = in.tensor.data.size();
        j["fake"] = in.tensor.fake;
        if (const auto v = pte::tensorElements(in.tensor, kSampleValueLimit)) {
            Json values = Json::array();
            for (const double d : *v) {
                if (m.dtype == pte::ScalarType::Bool)
                    values.push_back(d != 0);
                else if (pte::isIntegralType(m.dtype))
                    values.push_back(static_cast<std::int64_t>(d));
                else if (std::isfinite(d))
                    values.push_back(d);
                else
                    values.push_back(pte::elementText(d, pte::ScalarType::Double));
            }
            j["values"] = std::move(values);
        }
        break;
    }
    case K::None:
        j["value"] = nullptr;
        break;
    case K::Bool:
        j["value"] = in.boolValue;
        break;
    case K::Int:
        j["value"] = in.intValue;
        break;
    case K::Float:
        j["value"] = std::isfinite(in.floatValue) ? Json(in.floatValue)
                                                  : Json(pte::elementText(in.floatValue, pte::ScalarType::Double));
        break;
    case K::String:
        j["value"] = in.text;
        break;
    case K::Unsupported:
        j["what"] = in.text;
        break;
    }
    return j;
}

Json namedDataJson(const std::string& file, const std::string& key, const pte::LoweredModule::NamedDataEntry& e)
{
    Json j;
    j["key"] = key;
    if (!file.empty())
        j["file"] = file;
    j["bytes"] = e.data.size();
    j["alignment"] = e.alignment;
    j["buffer_index"] = e.bufferIndex;
    return j;
}

/** The argument as shown; the lowered-module JSON of a delegate call is summarized (it can be megabytes). */
std::string inputText(const pte::ExportedProgram& ep, const pte::Node& n, std::size_t i)
{
    const auto& in = n.inputs[i];
    if (i == 0 && n.op == "executorch_call_delegate" && in.arg.kind == pte::ArgKind::String) {
        const auto it = ep.loweredModules.find(in.name);
        return "lowered module " + in.name + (it != ep.loweredModules.end() ? " (" + it->second->backendId + ")" : "");
    }
    return pte::argumentText(in.arg);
}

std::string argName(const pte::Argument& a) { return a.names.empty() ? pte::argumentText(a) : a.names[0]; }

std::string valueMeta(const pte::Graph& g, const std::string& name)
{
    const auto it = g.tensorValues.find(name);
    return it == g.tensorValues.end() ? std::string() : pte::tensorMetaText(it->second);
}

Json methodJson(const std::string& name, const pte::ExportedProgram& ep, bool withNodes)
{
    Json m;
    m["name"] = name;
    m["source"] = ep.source;
    m["schema_version"] = std::to_string(ep.schemaMajor) + "." + std::to_string(ep.schemaMinor);
    m["executorch_serde"] = ep.executorchSerde;
    m["verifiers"] = ep.verifiers;
    m["torch_version"] = ep.torchVersion;
    Json ins = Json::array();
    for (const auto& s : ep.signature.inputSpecs) {
        Json j;
        j["kind"] = pte::inputKindName(s.kind);
        j["name"] = s.kind == pte::InputKind::ConstantInput ? s.target : argName(s.arg);
        j["target"] = s.target;
        if (s.persistent)
            j["persistent"] = *s.persistent;
        if (s.kind == pte::InputKind::ConstantInput)
            j["value"] = pte::argumentText(s.constantValue);
        const auto tv = ep.graph.tensorValues.find(s.arg.names.empty() ? std::string() : s.arg.names[0]);
        if (tv != ep.graph.tensorValues.end())
            j["meta"] = metaJson(tv->second);
        ins.push_back(std::move(j));
    }
    m["input_specs"] = std::move(ins);
    Json outs = Json::array();
    for (const auto& s : ep.signature.outputSpecs) {
        Json j;
        j["kind"] = pte::outputKindName(s.kind);
        j["name"] = argName(s.arg);
        j["target"] = s.target;
        const char* reason = pte::emissionDropReason(s.kind);
        j["returned"] = reason == nullptr;
        if (reason)
            j["dropped_reason"] = reason;
        const auto tv = ep.graph.tensorValues.find(s.arg.names.empty() ? std::string() : s.arg.names[0]);
        if (tv != ep.graph.tensorValues.end())
            j["meta"] = metaJson(tv->second);
        outs.push_back(std::move(j));
    }
    m["output_specs"] = std::move(outs);
    m["node_count"] = ep.graph.nodes.size();
    if (withNodes) {
        Json nodes = Json::array();
        for (const auto& n : ep.graph.nodes) {
            Json j;
            j["name"] = n.name;
            j["target"] = n.target;
            j["op"] = n.qualifiedOp();
            Json args = Json::array();
            for (std::size_t i = 0; i < n.inputs.size(); ++i) {
                const auto& in = n.inputs[i];
                Json a;
                a["name"] = in.name;
                a["kind"] = pte::argKindName(in.arg.kind);
                a["value"] = inputText(ep, n, i);
                args.push_back(std::move(a));
            }
            j["inputs"] = std::move(args);
            Json outputs = Json::array();
            for (const auto& o : n.outputs) {
                for (const auto& on : o.names) {
                    Json oj;
                    oj["name"] = on;
                    const auto tv = ep.graph.tensorValues.find(on);
                    if (tv != ep.graph.tensorValues.end())
                        oj["meta"] = metaJson(tv->second);
                    outputs.push_back(std::move(oj));
                }
                if (o.names.empty()) {
                    Json oj;
                    oj["name"] = pte::argumentText(o);
                    outputs.push_back(std::move(oj));
                }
            }
            j["outputs"] = std::move(outputs);
            if (!n.debugHandles.empty())
                j["debug_handles"] = n.debugHandles;
            nodes.push_back(std::move(j));
        }
        m["nodes"] = std::move(nodes);
    }
    Json weights = Json::array();
    for (const auto& [fqn, w] : ep.weights) {
        Json j;
        j["fqn"] = fqn;
        j["meta"] = metaJson(w.meta);
        j["bytes"] = w.data.size();
        j["parameter"] = w.isParameter;
        j["source"] = w.source;
        if (w.fake)
            j["fake"] = true;
        weights.push_back(std::move(j));
    }
    m["weights"] = std::move(weights);
    m["missing_weights"] = ep.missingWeights;
    Json lowered = Json::array();
    for (const auto& [lname, lm] : ep.loweredModules) {
        Json j;
        j["name"] = lname;
        j["backend_id"] = lm->backendId;
        j["processed_bytes"] = lm->processedBytes.size();
        Json specs = Json::array();
        for (const auto& cs : lm->compileSpecs) {
            Json c;
            c["key"] = cs.key;
            c["value_bytes"] = cs.value.size();
            specs.push_back(std::move(c));
        }
        j["compile_specs"] = std::move(specs);
        j["original_nodes"] = lm->originalModule ? lm->originalModule->graph.nodes.size() : 0;
        j["named_data"] = lm->namedData.size();
        Json pte = Json::array();
        for (const auto& [key, e] : lm->pteDataEntries)
            pte.push_back(namedDataJson({}, key, e));
        j["pte_data"] = std::move(pte);
        Json external = Json::array();
        for (const auto& [file, entries] : lm->externalData)
            for (const auto& [key, e] : entries)
                external.push_back(namedDataJson(file, key, e));
        j["external_data"] = std::move(external);
        lowered.push_back(std::move(j));
    }
    m["lowered_modules"] = std::move(lowered);
    Json samples = Json::array();
    if (ep.sampleInputs)
        for (const auto& in : ep.sampleInputs->leaves)
            samples.push_back(sampleJson(in));
    m["sample_inputs"] = std::move(samples);
    m["sample_inputs_source"] = ep.sampleInputs ? Json(ep.sampleInputs->source) : Json(nullptr);
    Json ranges = Json::object();
    for (const auto& [sym, r] : ep.rangeConstraints) {
        Json j;
        j["min"] = r.minVal ? Json(*r.minVal) : Json(nullptr);
        j["max"] = r.maxVal ? Json(*r.maxVal) : Json(nullptr);
        ranges[sym] = std::move(j);
    }
    m["range_constraints"] = std::move(ranges);
    return m;
}

void printMethodText(std::string& out, const std::string& name, const pte::ExportedProgram& ep)
{
    const auto& g = ep.graph;
    out += "method " + name + " (schema " + std::to_string(ep.schemaMajor) + "." + std::to_string(ep.schemaMinor)
        + (ep.executorchSerde ? ", ExecuTorch serde" : "");
    for (const auto& v : ep.verifiers)
        out += ", " + v;
    if (!ep.torchVersion.empty())
        out += ", torch " + ep.torchVersion;
    out += ")\n  source: " + ep.source + "\n";
    out += "  inputs (" + std::to_string(ep.signature.inputSpecs.size()) + "):\n";
    for (const auto& s : ep.signature.inputSpecs) {
        const std::string n = s.kind == pte::InputKind::ConstantInput ? s.target : argName(s.arg);
        out += "    " + std::string(pte::inputKindName(s.kind)) + " " + n;
        if (!s.target.empty() && s.kind != pte::InputKind::ConstantInput)
            out += " <- " + s.target;
        if (s.kind == pte::InputKind::ConstantInput)
            out += " = " + pte::argumentText(s.constantValue);
        const std::string meta = valueMeta(g, n);
        if (!meta.empty())
            out += "  " + meta;
        out += "\n";
    }
    out += "  outputs (" + std::to_string(ep.signature.outputSpecs.size()) + "):\n";
    for (const auto& s : ep.signature.outputSpecs) {
        const std::string n = argName(s.arg);
        out += "    " + std::string(pte::outputKindName(s.kind)) + " " + n;
        if (!s.target.empty())
            out += " -> " + s.target;
        const std::string meta = valueMeta(g, n);
        if (!meta.empty())
            out += "  " + meta;
        if (const char* reason = pte::emissionDropReason(s.kind))
            out += "  [not returned: " + std::string(reason) + "]";
        out += "\n";
    }
    out += "  nodes (" + std::to_string(g.nodes.size()) + "):\n";
    for (const auto& n : g.nodes) {
        std::string outs;
        for (const auto& o : n.outputs) {
            const std::string t =
                o.names.empty() ? pte::argumentText(o) : (o.names.size() == 1 ? o.names[0] : pte::argumentText(o));
            outs += (outs.empty() ? "" : ", ") + t;
        }
        out += "    " + (outs.empty() ? n.name : outs) + " = " + n.qualifiedOp() + "(";
        for (std::size_t i = 0; i < n.inputs.size(); ++i) {
            const auto& in = n.inputs[i];
            out += (i ? ", " : "") + (in.name.empty() ? std::string() : in.name + "=") + inputText(ep, n, i);
        }
        out += ")";
        std::string metas;
        for (const auto& o : n.outputs)
            for (const auto& on : o.names) {
                const std::string mt = valueMeta(g, on);
                if (!mt.empty())
                    metas += (metas.empty() ? "" : ", ") + mt;
            }
        if (!metas.empty())
            out += " : " + metas;
        if (!n.debugHandles.empty()) {
            out += "  #";
            for (std::size_t i = 0; i < n.debugHandles.size(); ++i)
                out += (i ? "," : "") + std::to_string(n.debugHandles[i]);
        }
        out += "\n";
    }
    out += "  weights: " + std::to_string(ep.weights.size()) + " loaded";
    if (!ep.missingWeights.empty()) {
        out += ", missing:";
        for (const auto& w : ep.missingWeights)
            out += " " + w;
    }
    out += "\n";
    for (const auto& [fqn, w] : ep.weights)
        out += "    " + fqn + "  " + pte::tensorMetaText(w.meta) + "  "
            + (w.fake ? std::string("(fake: no data)") : std::to_string(w.data.size()) + " bytes") + "\n";
    for (const auto& [lname, lm] : ep.loweredModules) {
        out += "  delegate " + lname + ": " + lm->backendId + ", " + std::to_string(lm->processedBytes.size())
            + " processed bytes, " + std::to_string(lm->compileSpecs.size()) + " compile spec(s)";
        if (lm->originalModule)
            out += ", original graph " + std::to_string(lm->originalModule->graph.nodes.size()) + " nodes";
        out += "\n";
        for (const auto& [key, e] : lm->pteDataEntries)
            out += "    named data (pte) " + key + ": " + std::to_string(e.data.size()) + " bytes"
                + (e.alignment ? ", align " + std::to_string(e.alignment) : std::string()) + "\n";
        for (const auto& [file, entries] : lm->externalData)
            for (const auto& [key, e] : entries)
                out += "    named data (external " + file + ") " + key + ": " + std::to_string(e.data.size()) + " bytes"
                    + (e.alignment ? ", align " + std::to_string(e.alignment) : std::string()) + "\n";
    }
    if (ep.sampleInputs) {
        out += "  sample inputs (" + std::to_string(ep.sampleInputs->leaves.size()) + "): " + ep.sampleInputs->source
            + "\n";
        for (const auto& in : ep.sampleInputs->leaves)
            out += "    " + in.path + "  " + sampleText(in) + "\n";
    }
    for (const auto& [sym, r] : ep.rangeConstraints)
        out += "  range " + sym + ": [" + (r.minVal ? std::to_string(*r.minVal) : "-inf") + ", "
            + (r.maxVal ? std::to_string(*r.maxVal) : "inf") + "]\n";
}

/** A data-flow node as the GUI names it: "input 0", "#3", "output". */
std::string flowNodeName(const pte::MethodDataFlow& flow, std::int32_t node)
{
    const auto& n = flow.nodes[std::size_t(node)];
    switch (n.kind) {
    case pte::DataFlowNode::Kind::Input:
        return "input " + std::to_string(n.index);
    case pte::DataFlowNode::Kind::Instruction:
        return "#" + std::to_string(n.index);
    case pte::DataFlowNode::Kind::Output:
        return "output";
    }
    return "?";
}

const char* flowNodeKind(pte::DataFlowNode::Kind k)
{
    switch (k) {
    case pte::DataFlowNode::Kind::Input:
        return "input";
    case pte::DataFlowNode::Kind::Instruction:
        return "instruction";
    case pte::DataFlowNode::Kind::Output:
        return "output";
    }
    return "?";
}

/** What an instruction is, as the GUI labels its node: the operator, the delegate's backend, "move", ... */
std::string instructionLabel(const pte::ExecutionPlan& plan, const pte::Instruction& ins)
{
    if (const auto* k = std::get_if<pte::KernelCall>(&ins.args))
        return k->opIndex >= 0 && std::size_t(k->opIndex) < plan.operators.size()
            ? plan.operators[std::size_t(k->opIndex)].qualifiedName()
            : "?";
    if (const auto* d = std::get_if<pte::DelegateCall>(&ins.args))
        return d->delegateIndex >= 0 && std::size_t(d->delegateIndex) < plan.delegates.size()
            ? plan.delegates[std::size_t(d->delegateIndex)].id
            : "delegate";
    if (std::holds_alternative<pte::MoveCall>(ins.args))
        return "move";
    if (const auto* j = std::get_if<pte::JumpFalseCall>(&ins.args))
        return "jump_false -> " + std::to_string(j->destinationInstruction);
    if (std::holds_alternative<pte::FreeCall>(ins.args))
        return "free";
    return "NONE";
}

std::string flowNodeLabel(const pte::ExecutionPlan& plan, const pte::DataFlowNode& n)
{
    if (n.kind == pte::DataFlowNode::Kind::Input)
        return "%" + std::to_string(plan.inputs[std::size_t(n.index)]);
    if (n.kind == pte::DataFlowNode::Kind::Instruction)
        return instructionLabel(plan, plan.chains[0].instructions[std::size_t(n.index)]);
    return "output";
}

Json methodFlowJson(const pte::ExecutionPlan& plan, const pte::MethodDataFlow& flow)
{
    Json m;
    m["name"] = plan.name;
    Json nodes = Json::array();
    for (std::size_t i = 0; i < flow.nodes.size(); ++i) {
        const auto& n = flow.nodes[i];
        Json reads = Json::array();
        for (const auto& r : n.reads)
            reads.push_back(Json { { "value", r.value }, { "from", r.from >= 0 ? Json(r.from) : Json(nullptr) },
                { "written_value", r.from >= 0 ? Json(r.writtenValue) : Json(nullptr) },
                { "through_memory", r.throughMemory() } });
        nodes.push_back(Json { { "node", i }, { "kind", flowNodeKind(n.kind) }, { "index", n.index },
            { "label", flowNodeLabel(plan, n) }, { "reads", std::move(reads) }, { "writes", n.writes } });
    }
    m["nodes"] = std::move(nodes);
    Json edges = Json::array();
    for (const auto& e : flow.edges)
        edges.push_back(Json { { "from", e.from }, { "to", e.to }, { "value", e.value },
            { "written_value", e.writtenValue }, { "through_memory", e.throughMemory } });
    m["edges"] = std::move(edges);
    Json aliases = Json::array();
    for (const auto& a : flow.aliases())
        aliases.push_back(Json { { "value", a.value }, { "written_value", a.writtenValue } });
    m["memory_aliases"] = std::move(aliases);
    // The planned tensors with their lifetimes (instruction ids; null when nothing references the value), as the
    // Values view's memory plan shows a loaded program.
    const auto lifetimes = pte::valueLifetimes(plan);
    Json planned = Json::array();
    for (std::size_t v = 0; v < plan.values.size(); ++v) {
        const auto* t = plan.values[v].tensor();
        if (!t || !t->allocationInfo)
            continue;
        const auto& l = lifetimes[v];
        planned.push_back(Json { { "value", v }, { "memory_id", t->allocationInfo->memoryId },
            { "offset", t->allocationInfo->offset() }, { "nbytes", t->nbytes().value_or(0) },
            { "first", l.used() ? Json(l.first) : Json(nullptr) },
            { "last", l.used() ? Json(l.last) : Json(nullptr) } });
    }
    m["planned_values"] = std::move(planned);
    return m;
}

void printMethodFlowText(std::string& out, const pte::ExecutionPlan& plan, const pte::MethodDataFlow& flow)
{
    const auto through =
        std::count_if(flow.edges.begin(), flow.edges.end(), [](const pte::DataFlowEdge& e) { return e.throughMemory; });
    out += "method " + plan.name + ": " + std::to_string(flow.inputCount) + " input(s), "
        + std::to_string(flow.nodes.size() - std::size_t(flow.inputCount) - 1) + " instruction(s), "
        + std::to_string(plan.outputs.size()) + " output(s); " + std::to_string(flow.edges.size()) + " edge(s), "
        + std::to_string(through) + " through planned memory\n";
    for (std::size_t i = 0; i < flow.nodes.size(); ++i) {
        const auto& n = flow.nodes[i];
        std::string line = "  " + flowNodeName(flow, std::int32_t(i));
        if (n.kind != pte::DataFlowNode::Kind::Output)
            line += " " + flowNodeLabel(plan, n);
        std::string reads;
        for (const auto& r : n.reads) {
            reads += (reads.empty() ? "" : ", ") + ("%" + std::to_string(r.value));
            if (r.from >= 0)
                reads += " <- " + flowNodeName(flow, r.from);
            if (r.throughMemory())
                reads += " (through %" + std::to_string(r.writtenValue) + "'s planned memory)";
        }
        std::string writes;
        for (const auto v : n.writes)
            writes += (writes.empty() ? "%" : ", %") + std::to_string(v);
        if (!reads.empty())
            line += "; reads " + reads;
        if (!writes.empty())
            line += "; writes " + writes;
        out += line + "\n";
    }
    const auto lifetimes = pte::valueLifetimes(plan);
    for (std::size_t v = 0; v < plan.values.size(); ++v) {
        const auto* t = plan.values[v].tensor();
        if (!t || !t->allocationInfo)
            continue;
        const auto& l = lifetimes[v];
        const std::uint64_t begin = t->allocationInfo->offset();
        out += "  planned %" + std::to_string(v) + ": memory " + std::to_string(t->allocationInfo->memoryId) + " ["
            + std::to_string(begin) + ", " + std::to_string(begin + t->nbytes().value_or(0)) + "), "
            + (l.used() ? "used #" + std::to_string(l.first) + "..#" + std::to_string(l.last) : std::string("unused"))
            + "\n";
    }
}

/** `graph` on a program (.pte, .bpte): each method's data flow. */
int runProgramGraph(const pte::PteFile& file, const std::string& wanted, bool json)
{
    const pte::Program& program = *file.program;
    if (!wanted.empty()
        && std::none_of(program.executionPlan.begin(), program.executionPlan.end(),
            [&](const pte::ExecutionPlan& p) { return p.name == wanted; })) {
        std::string names;
        for (const auto& p : program.executionPlan)
            names += (names.empty() ? "" : ", ") + p.name;
        std::fprintf(stderr, "ptelens-cli graph: %s has no method '%s' (methods: %s)\n", file.path.c_str(),
            wanted.c_str(), names.c_str());
        return ExitUsage;
    }
    Json methods = Json::array();
    std::string text = file.path + ": program, " + std::to_string(program.executionPlan.size()) + " method(s)\n";
    for (const auto& plan : program.executionPlan) {
        if (!wanted.empty() && plan.name != wanted)
            continue;
        auto flow = pte::methodDataFlow(plan);
        if (!flow) {
            printError(flow.error());
            return ExitInternal;
        }
        if (json)
            methods.push_back(methodFlowJson(plan, *flow));
        else
            printMethodFlowText(text, plan, *flow);
    }
    if (!json) {
        printOut(text);
        return ExitOk;
    }
    Json root;
    root["file"] = file.path;
    root["container"] = file.bundled ? "bundled-program" : "program";
    root["methods"] = std::move(methods);
    root["diagnostics"] = diagnosticsJson(file.diagnostics);
    printJson(root);
    return ExitOk;
}

int runGraph(const QStringList& args)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Show a graph dump (PT2 archive, legacy torch.export zip, ETRecord or exported-program JSON), or "
        "a program's (.pte, .bpte) instruction graph: per method its inputs, instructions and outputs, "
        "the values each reads and writes, the edges between them, and the reads that go through "
        "planned memory another value wrote; and the planned values with their lifetimes."));
    parser.addHelpOption();
    parser.addPositionalArgument(QStringLiteral("file"), QStringLiteral("The graph dump or program to read."));
    const QCommandLineOption methodOpt(
        QStringLiteral("method"), QStringLiteral("Show only this method."), QStringLiteral("name"));
    const QCommandLineOption jsonOpt(QStringLiteral("json"), QStringLiteral("Print JSON."));
    QCommandLineOption loadOnlyOpt(QStringLiteral("load-only"), QStringLiteral("Load and print counts (benchmarks)."));
    loadOnlyOpt.setFlags(QCommandLineOption::HiddenFromHelp);
    parser.addOption(methodOpt);
    parser.addOption(jsonOpt);
    parser.addOption(loadOnlyOpt);
    if (const auto done = parseArguments(parser, args, "graph", 1, "exactly one FILE"))
        return *done;
    const QStringList pos = parser.positionalArguments();
    const std::string path = pos[0].toStdString();
    auto loaded = pte::readDump(path);
    if (!loaded && loaded.error().code != pte::ErrorCode::Internal && !parser.isSet(loadOnlyOpt)) {
        // Not a graph dump: a program shows its instruction graph; anything else keeps the dump reader's error.
        if (auto file = pte::readPteFile(path)) {
            for (const auto& d : (*file)->diagnostics)
                if (d.severity != pte::Severity::Info)
                    printDiagnostic(d);
            return runProgramGraph(**file, parser.value(methodOpt).toStdString(), parser.isSet(jsonOpt));
        }
    }
    if (!loaded) {
        printError(loaded.error());
        return loaded.error().code == pte::ErrorCode::Internal ? ExitInternal : ExitInvalidInput;
    }
    const pte::DumpSet& set = **loaded;
    for (const auto& d : set.diagnostics)
        printDiagnostic(d);
    if (parser.isSet(loadOnlyOpt)) {
        std::size_t nodes = 0;
        for (const auto& [n, ep] : set.methods)
            nodes += ep->graph.nodes.size();
        printOut(std::to_string(set.methods.size()) + " methods, " + std::to_string(nodes) + " nodes\n");
        return ExitOk;
    }
    const std::string wanted = parser.value(methodOpt).toStdString();
    if (parser.isSet(methodOpt)) {
        bool found = false;
        std::string names;
        for (const auto& [n, ep] : set.methods) {
            found = found || n == wanted;
            names += (names.empty() ? "" : ", ") + n;
        }
        if (!found) {
            std::fprintf(stderr, "ptelens-cli graph: %s has no method '%s' (methods: %s)\n", path.c_str(),
                wanted.c_str(), names.c_str());
            return ExitUsage;
        }
    }
    if (parser.isSet(jsonOpt)) {
        Json root;
        root["file"] = path;
        root["container"] = containerName(set.container);
        Json methods = Json::array();
        for (const auto& [n, ep] : set.methods)
            if (wanted.empty() || n == wanted)
                methods.push_back(methodJson(n, *ep, true));
        root["methods"] = std::move(methods);
        Json others = Json::array();
        for (const auto& [n, ep] : set.otherPrograms)
            if (wanted.empty())
                others.push_back(methodJson(n, *ep, false));
        root["other_programs"] = std::move(others);
        if (set.etrecordMaps) // the ETRecord layout, as `emit --debug-maps` writes it
            root["etrecord"] = Json::parse(pte::debugMapsJson(*set.etrecordMaps), nullptr, false);
        root["diagnostics"] = diagnosticsJson(set.diagnostics);
        printJson(root);
        return ExitOk;
    }
    std::string out =
        path + ": " + containerName(set.container) + ", " + std::to_string(set.methods.size()) + " method(s)\n";
    for (const auto& [n, ep] : set.methods)
        if (wanted.empty() || n == wanted)
            printMethodText(out, n, *ep);
    if (wanted.empty()) {
        for (const auto& [n, ep] : set.otherPrograms)
            out += "other program " + n + ": " + std::to_string(ep->graph.nodes.size()) + " nodes\n";
        if (set.etrecordMaps) {
            std::size_t dh = 0;
            std::size_t dm = 0;
            for (const auto& [m, e] : set.etrecordMaps->debugHandleMap)
                dh += e.size();
            for (const auto& [m, e] : set.etrecordMaps->delegateMap)
                dm += e.size();
            out += "etrecord maps: " + std::to_string(dh) + " debug-handle entries, " + std::to_string(dm)
                + " delegate entries\n";
        }
    }
    printOut(out);
    return ExitOk;
}

} // namespace

PTELENS_REGISTER_COMMAND(graph, "graph", "Show a graph dump: methods, specs, nodes, weights", runGraph);

} // namespace pte::cli
