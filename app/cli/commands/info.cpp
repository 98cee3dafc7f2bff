// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// `ptelens-cli info FILE [--json] [--ptd DATA]`: a summary of a .pte: header facts, methods (inputs and
// outputs with types, instruction counts by kind, operators, delegates), segments and sizes, diagnostics.
#include "command.h"
#include "jsonoutput.h"
#include "printederror.h"
#include "pte/bundledprogram.h"
#include "pte/ptereader.h"
#include "pte/tensortext.h"

#include <QCommandLineParser>

#include <array>
#include <cstdio>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

namespace pte::cli {

namespace {

using Json = nlohmann::ordered_json;

std::string describeValue(const pte::ExecutionPlan& plan, std::int32_t index)
{
    if (index < 0 || std::size_t(index) >= plan.values.size())
        return "<out of range>";
    const auto& v = plan.values[std::size_t(index)];
    if (const auto* t = v.tensor())
        return pte::tensorTypeText(t->scalarType, t->sizes);
    return pte::valueKindName(v.kind());
}

Json ioJson(const pte::ExecutionPlan& plan, const std::vector<std::int32_t>& indices)
{
    Json list = Json::array();
    for (const auto i : indices) {
        Json j;
        j["value"] = i;
        const bool inRange = i >= 0 && std::size_t(i) < plan.values.size();
        const auto* v = inRange ? &plan.values[std::size_t(i)] : nullptr;
        j["kind"] = v ? pte::valueKindName(v->kind()) : "NONE";
        if (const auto* t = v ? v->tensor() : nullptr) {
            j["dtype"] = pte::scalarTypeShortName(t->scalarType);
            j["sizes"] = t->sizes;
        }
        j["type"] = describeValue(plan, i);
        list.push_back(std::move(j));
    }
    return list;
}

/** Instructions per kind (index = InstructionKind). */
std::array<std::size_t, 6> countKinds(const pte::ExecutionPlan& plan)
{
    std::array<std::size_t, 6> counts {};
    for (const auto& c : plan.chains)
        for (const auto& in : c.instructions)
            ++counts[std::size_t(in.kind())];
    return counts;
}

std::string describeBundled(const pte::BundledValue& v)
{
    if (v.kind != pte::BundledValue::Kind::Tensor)
        return pte::bundledValueKindName(v.kind);
    return pte::tensorTypeText(v.scalarType, v.sizes);
}

std::string describeBundled(const std::vector<pte::BundledValue>& values)
{
    std::string s;
    for (std::size_t i = 0; i < values.size(); ++i)
        s += (i ? ", " : "") + describeBundled(values[i]);
    return s;
}

/** The test cases of a bundled program (pte/bundledprogram.h). */
Json bundledJson(const pte::BundledProgram& b)
{
    Json j;
    j["identifier"] = "BP08";
    j["version"] = b.version;
    j["file_size"] = b.file.size();
    j["program_offset"] = b.programOffset;
    j["program_size"] = b.programSize;
    Json suites = Json::array();
    for (const auto& s : b.testSuites) {
        Json sj;
        sj["method"] = s.methodName;
        Json cases = Json::array();
        for (const auto& c : s.testCases) {
            Json cj;
            cj["inputs"] = Json::array();
            for (const auto& v : c.inputs)
                cj["inputs"].push_back(describeBundled(v));
            cj["expected_outputs"] = Json::array();
            for (const auto& v : c.expectedOutputs)
                cj["expected_outputs"].push_back(describeBundled(v));
            cases.push_back(std::move(cj));
        }
        sj["test_cases"] = std::move(cases);
        suites.push_back(std::move(sj));
    }
    j["test_suites"] = std::move(suites);
    return j;
}

std::string bundledText(const pte::BundledProgram& b)
{
    std::string t = "Bundled:     BP08 version " + std::to_string(b.version) + "; the program is bytes "
        + std::to_string(b.programOffset) + ".." + std::to_string(b.programOffset + b.programSize) + " of the file\n";
    for (const auto& s : b.testSuites) {
        t += "  test suite " + s.methodName + ": " + std::to_string(s.testCases.size()) + " test case(s)\n";
        for (std::size_t c = 0; c < s.testCases.size(); ++c)
            t += "    [" + std::to_string(c) + "] inputs (" + describeBundled(s.testCases[c].inputs) + ") -> expected ("
                + describeBundled(s.testCases[c].expectedOutputs) + ")\n";
    }
    return t;
}

struct Summary
{
    std::map<std::size_t, std::string> segmentRoles;
    std::uint64_t constantTensors = 0;
    std::uint64_t constantBytes = 0;
    std::string constantStorage = "none";
    std::uint64_t delegateBlobs = 0;
    std::uint64_t delegateBytes = 0;
    std::uint64_t namedDataCount = 0;
    std::uint64_t namedDataBytes = 0;
};

Summary summarize(const pte::Program& p)
{
    Summary s;
    auto role = [&](std::size_t idx, const std::string& r) {
        if (idx >= p.segments.size())
            return;
        auto& cur = s.segmentRoles[idx];
        if (cur.empty())
            cur = r;
        else if (cur.find(r) == std::string::npos)
            cur += "+" + r;
    };
    if (p.constantSegment) {
        role(p.constantSegment->segmentIndex, "constant");
        if (p.constantSegment->offsets.size() > 1) {
            s.constantStorage = "constant_segment";
            s.constantTensors = p.constantSegment->offsets.size() - 1;
            if (p.constantSegment->segmentIndex < p.segments.size())
                s.constantBytes = p.segments[p.constantSegment->segmentIndex].size;
        }
    }
    if (s.constantStorage == "none" && p.constantBuffer.size() > 1) {
        s.constantStorage = "constant_buffer";
        s.constantTensors = p.constantBuffer.size() - 1;
        for (const auto& b : p.constantBuffer)
            s.constantBytes += b.storage.size();
    }
    if (p.mutableDataSegments)
        for (const auto& m : *p.mutableDataSegments)
            role(m.segmentIndex, "mutable");
    std::set<std::pair<int, std::uint32_t>> blobs;
    for (const auto& plan : p.executionPlan)
        for (const auto& d : plan.delegates) {
            if (d.processed.location == pte::DataLocation::Segment)
                role(d.processed.index, "delegate");
            if (blobs.insert({ int(d.processed.location), d.processed.index }).second) {
                ++s.delegateBlobs;
                s.delegateBytes += pte::delegateData(p, d).size();
            }
        }
    if (p.namedData) {
        std::set<std::uint32_t> segs;
        for (const auto& n : *p.namedData) {
            ++s.namedDataCount;
            role(n.segmentIndex, "named_data");
            if (n.segmentIndex < p.segments.size() && segs.insert(n.segmentIndex).second)
                s.namedDataBytes += p.segments[n.segmentIndex].size;
        }
    }
    return s;
}

int runInfo(const QStringList& args)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Summarizes a .pte: header, methods, segments, diagnostics."));
    parser.addHelpOption();
    parser.addPositionalArgument(QStringLiteral("FILE"), QStringLiteral("The .pte file."));
    const QCommandLineOption jsonOpt(QStringLiteral("json"), QStringLiteral("Print the summary as JSON."));
    const QCommandLineOption ptdOpt(QStringLiteral("ptd"),
        QStringLiteral("External data (.ptd) for EXTERNAL tensors (default: a .ptd next to FILE)."),
        QStringLiteral("DATA"));
    parser.addOptions({ jsonOpt, ptdOpt });
    if (const auto done = parseArguments(parser, args, "info", 1, "exactly one file"))
        return *done;
    const QStringList pos = parser.positionalArguments();
    const std::string path = pos.front().toStdString();
    pte::ReadOptions options;
    if (parser.isSet(ptdOpt))
        options.externalDataPath = parser.value(ptdOpt).toStdString();
    auto opened = pte::readPteFile(path, options);
    if (printedError(opened))
        return ExitInvalidInput;
    const auto& f = **opened;
    const auto& p = *f.program;
    const Summary s = summarize(p);
    std::size_t counts[3] = { 0, 0, 0 };
    for (const auto& d : f.diagnostics)
        ++counts[static_cast<int>(d.severity)];

    Json j;
    j["file"] = path;
    j["file_size"] = f.bundled ? f.bundled->file.size() : f.file.size();
    Json h;
    h["identifier"] = "ET12";
    h["extended_header"] = f.header.has_value();
    if (f.header) {
        h["header_length"] = f.header->length;
        h["program_size"] = f.header->programSize;
        h["segment_base_offset"] = f.header->segmentBaseOffset;
        h["segment_data_size"] = f.header->segmentDataSize;
    }
    j["header"] = std::move(h);
    j["flatbuffer_size"] = f.flatbufferSize;
    j["version"] = p.version;
    Json methods = Json::array();
    for (const auto& plan : p.executionPlan) {
        Json m;
        m["name"] = plan.name;
        m["inputs"] = ioJson(plan, plan.inputs);
        m["outputs"] = ioJson(plan, plan.outputs);
        m["values"] = plan.values.size();
        Json instr;
        const auto kindCounts = countKinds(plan);
        std::size_t total = 0;
        for (const auto n : kindCounts)
            total += n;
        instr["total"] = total;
        for (const std::size_t k : { 1, 2, 3, 4, 5, 0 })
            if (kindCounts[k])
                instr[pte::instructionKindName(pte::InstructionKind(k))] = kindCounts[k];
        m["instructions"] = std::move(instr);
        Json ops = Json::array();
        for (const auto& op : plan.operators)
            ops.push_back(op.qualifiedName());
        m["operators"] = std::move(ops);
        Json dels = Json::array();
        for (const auto& d : plan.delegates) {
            Json dj;
            dj["id"] = d.id;
            dj["location"] = d.processed.location == pte::DataLocation::Inline ? "INLINE" : "SEGMENT";
            dj["index"] = d.processed.index;
            dj["size"] = pte::delegateData(p, d).size();
            dj["compile_specs"] = d.compileSpecs.size();
            dels.push_back(std::move(dj));
        }
        m["delegates"] = std::move(dels);
        Json arenas = Json::array();
        for (std::size_t i = 1; i < plan.nonConstBufferSizes.size(); ++i)
            arenas.push_back(plan.nonConstBufferSizes[i]);
        m["planned_arenas"] = std::move(arenas);
        methods.push_back(std::move(m));
    }
    j["methods"] = std::move(methods);
    Json segs = Json::array();
    for (std::size_t i = 0; i < p.segments.size(); ++i) {
        Json sj;
        sj["index"] = i;
        sj["offset"] = p.segments[i].offset;
        sj["size"] = p.segments[i].size;
        const auto it = s.segmentRoles.find(i);
        sj["role"] = it == s.segmentRoles.end() ? "unused" : it->second;
        segs.push_back(std::move(sj));
    }
    j["segments"] = std::move(segs);
    Json consts;
    consts["storage"] = s.constantStorage;
    consts["tensors"] = s.constantTensors;
    consts["bytes"] = s.constantBytes;
    j["constants"] = std::move(consts);
    Json db;
    db["count"] = s.delegateBlobs;
    db["bytes"] = s.delegateBytes;
    j["delegate_blobs"] = std::move(db);
    Json nd;
    nd["count"] = s.namedDataCount;
    nd["bytes"] = s.namedDataBytes;
    j["named_data"] = std::move(nd);
    if (f.externalData) {
        Json e;
        e["path"] = f.externalData->path;
        Json keys = Json::array();
        std::uint64_t bytes = 0;
        for (const auto& [k, t] : f.externalData->tensors) {
            keys.push_back(k);
            bytes += t.data.size();
        }
        e["keys"] = std::move(keys);
        e["bytes"] = bytes;
        j["external_data"] = std::move(e);
    }
    if (f.bundled)
        j["bundled_program"] = bundledJson(*f.bundled);
    Json dj;
    dj["errors"] = counts[2];
    dj["warnings"] = counts[1];
    dj["infos"] = counts[0];
    j["diagnostics"] = std::move(dj);
    j["runtime_would_accept"] = f.runtimeWouldAccept();

    if (parser.isSet(jsonOpt)) {
        printJson(j);
        return ExitOk;
    }

    std::string t;
    t += "File:        " + path + " (" + std::to_string(f.bundled ? f.bundled->file.size() : f.file.size())
        + " bytes)\n";
    if (f.bundled)
        t += bundledText(*f.bundled);
    t += "Format:      ET12, ";
    if (f.header)
        t += "eh00 header (length " + std::to_string(f.header->length) + ", program_size "
            + std::to_string(f.header->programSize) + ", segment_base_offset "
            + std::to_string(f.header->segmentBaseOffset) + ", segment_data_size "
            + std::to_string(f.header->segmentDataSize) + ")\n";
    else
        t += "no extended header\n";
    t += "Flatbuffer:  " + std::to_string(f.flatbufferSize) + " bytes\n";
    t += "Methods:     " + std::to_string(p.executionPlan.size()) + "\n";
    for (const auto& plan : p.executionPlan) {
        t += "  " + plan.name + "\n";
        auto io = [&](const char* label, const std::vector<std::int32_t>& v) {
            std::string line = std::string("    ") + label + std::to_string(v.size()) + (v.empty() ? "" : "  ");
            for (std::size_t i = 0; i < v.size(); ++i)
                line += (i ? ", " : "") + describeValue(plan, v[i]);
            t += line + "\n";
        };
        io("inputs:       ", plan.inputs);
        io("outputs:      ", plan.outputs);
        t += "    values:       " + std::to_string(plan.values.size()) + "\n";
        const auto kindCounts = countKinds(plan);
        std::size_t total = 0;
        std::string kinds;
        for (const std::size_t k : { 1, 2, 3, 4, 5, 0 }) {
            total += kindCounts[k];
            if (kindCounts[k])
                kinds += (kinds.empty() ? "" : ", ") + std::string(pte::instructionKindName(pte::InstructionKind(k)))
                    + " " + std::to_string(kindCounts[k]);
        }
        t += "    instructions: " + std::to_string(total) + (kinds.empty() ? "" : " (" + kinds + ")") + "\n";
        std::string ops;
        for (const auto& op : plan.operators)
            ops += (ops.empty() ? "" : ", ") + op.qualifiedName();
        t += "    operators:    " + (ops.empty() ? std::string("none") : ops) + "\n";
        std::string dels;
        for (const auto& d : plan.delegates)
            dels += (dels.empty() ? "" : ", ") + d.id + " ("
                + (d.processed.location == pte::DataLocation::Inline ? "inline " : "segment ")
                + std::to_string(d.processed.index) + ", " + std::to_string(pte::delegateData(p, d).size()) + " bytes)";
        t += "    delegates:    " + (dels.empty() ? std::string("none") : dels) + "\n";
    }
    t += "Segments:    " + std::to_string(p.segments.size()) + "\n";
    for (std::size_t i = 0; i < p.segments.size(); ++i) {
        const auto it = s.segmentRoles.find(i);
        t += "  [" + std::to_string(i) + "] offset " + std::to_string(p.segments[i].offset) + ", "
            + std::to_string(p.segments[i].size) + " bytes, " + (it == s.segmentRoles.end() ? "unused" : it->second)
            + "\n";
    }
    t += "Constants:   " + std::to_string(s.constantTensors) + " tensors, " + std::to_string(s.constantBytes)
        + " bytes (" + s.constantStorage + ")\n";
    t += "Delegate blobs: " + std::to_string(s.delegateBlobs) + ", " + std::to_string(s.delegateBytes) + " bytes\n";
    t += "Named data:  " + std::to_string(s.namedDataCount) + " keys, " + std::to_string(s.namedDataBytes) + " bytes\n";
    if (f.externalData)
        t += "External data: " + f.externalData->path + " (" + std::to_string(f.externalData->tensors.size())
            + " tensors)\n";
    t += "Diagnostics: " + std::to_string(counts[2]) + " errors, " + std::to_string(counts[1]) + " warnings, "
        + std::to_string(counts[0]) + " info" + (f.runtimeWouldAccept() ? "" : " (the runtime would refuse this file)")
        + "\n";
    printOut(t);
    return ExitOk;
}

} // namespace

PTELENS_REGISTER_COMMAND(info, "info", "Summarize a .pte (methods, operators, delegates, segments)", runInfo);

} // namespace pte::cli
