// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "document/profiledata.h"

#include "document/delegateinspection.h"
#include "document/snapshot.h"
#include "pte/alignedsources.h"
#include "pte/bundledgap.h"
#include "pte/bundledprogram.h"
#include "pte/referencegap.h"
#include "pte/tensortext.h"

#include <set>
#include <unordered_map>
#include <utility>

namespace pte::ui {

const pte::MethodTiming* ProfileData::timing(const std::string& method) const
{
    const auto it = timings.find(method);
    return it == timings.end() ? nullptr : &it->second;
}

const LoggedValue* ProfileData::logged(const std::string& method, std::int32_t value) const
{
    const auto m = loggedValues.find(method);
    if (m == loggedValues.end())
        return nullptr;
    const auto v = m->second.find(value);
    return v == m->second.end() ? nullptr : &v->second;
}

namespace {

std::string describe(const pte::EtdumpValue& v)
{
    auto tensor = [](const pte::EtdumpTensor& t) { return pte::tensorTypeText(t.scalarType, t.sizes); };
    switch (v.type) {
    case pte::EtdumpValueType::Tensor:
        return v.tensors.empty() ? std::string("Tensor") : tensor(v.tensors.front());
    case pte::EtdumpValueType::TensorList:
        return "TensorList of " + std::to_string(v.tensors.size());
    case pte::EtdumpValueType::Int:
        return "Int " + std::to_string(v.intValue);
    case pte::EtdumpValueType::Bool:
        return v.boolValue ? "Bool true" : "Bool false";
    case pte::EtdumpValueType::Double:
    case pte::EtdumpValueType::Float:
        return "Double " + pte::pythonFloatRepr(v.doubleValue);
    default:
        return pte::etdumpValueTypeName(v.type);
    }
}

/** What each value of each method logged in its first joined execution, with numbers and gaps. */
void collectLoggedValues(ProfileData& out, const Snapshot& snapshot)
{
    const auto& dump = *out.dump;
    const auto& join = *out.join;
    const pte::BundledProgram* bundled = snapshot.pteFile ? snapshot.pteFile->bundled.get() : nullptr;
    // The logged outputs against the bundled program's expected outputs, by debug event.
    std::unordered_map<std::uint32_t, std::pair<pte::GapMetrics, std::size_t>> bundledGaps;
    if (bundled)
        for (const auto& g : pte::bundledOutputGaps(join, *bundled))
            for (const auto& row : g.rows)
                if (row.gap)
                    bundledGaps.emplace(row.event, std::pair(*row.gap, g.testCase));
    std::set<int> seen;
    for (std::size_t r = 0; r < dump.runs.size(); ++r) {
        const auto& rj = join.runs[r];
        if (!rj.joined || rj.kind == pte::EtdumpRunKind::Load || !seen.insert(rj.method).second)
            continue;
        const std::string method = out.methodName(rj.method);
        auto& values = out.loggedValues[method];
        const auto& run = dump.runs[r];
        for (std::uint32_t i = run.firstEvent; i < run.firstEvent + run.eventCount; ++i) {
            const auto& j = join.events[i];
            const auto* v = dump.value(dump.events[i]);
            if (!v || j.value < 0 || values.count(j.value))
                continue;
            LoggedValue lv;
            lv.event = i;
            lv.description = describe(*v);
            lv.output = j.outputIndex >= 0;
            lv.instruction = lv.output ? -1 : j.instruction;
            if (v->type == pte::EtdumpValueType::Tensor && !v->tensors.empty()) {
                auto numbers = pte::loggedTensorValues(dump, v->tensors.front(), std::size_t(1) << 24);
                if (numbers) {
                    lv.stats = pte::tensorStats(*numbers);
                    if (const auto it = bundledGaps.find(i); it != bundledGaps.end()) {
                        lv.gap = it->second.first;
                        lv.expectedFrom = "bundled test case " + std::to_string(it->second.second);
                    }
                } else {
                    lv.problem = numbers.error().message;
                }
            }
            values.emplace(j.value, std::move(lv));
        }
    }
}

/** Gives the logged values without an expected output the reference interpreter's value as expected. */
void addReferenceGaps(ProfileData& out, const Snapshot& snapshot)
{
    const pte::Program& program = *out.join->sources->program;
    const pte::BundledProgram* bundled = snapshot.pteFile ? snapshot.pteFile->bundled.get() : nullptr;
    pte::ReferenceGapOptions options;
    if (snapshot.pteFile && snapshot.pteFile->externalData && snapshot.pteFile->program.get() == &program)
        options.external = &*snapshot.pteFile->externalData;
    for (auto& [method, values] : out.loggedValues) {
        std::string reason;
        std::optional<pte::ReferenceGap> gap;
        auto inputs = pte::resolveReferenceInputs(out.reference, program, bundled, method);
        if (!inputs) {
            reason = inputs.error().message;
        } else {
            const std::string source = inputs->source + (inputs->assumed ? " (assumed)" : "");
            if (out.referenceSource.empty())
                out.referenceSource = source;
            if (auto g = pte::referenceGap(*out.join, method, *inputs, options))
                gap = std::move(g).value();
            else
                reason = g.error().message;
            if (gap)
                for (const auto& row : gap->rows) {
                    const auto it = values.find(row.value);
                    if (it == values.end() || it->second.event != row.event)
                        continue;
                    auto& lv = it->second;
                    lv.op = row.op;
                    if (lv.gap)
                        continue; // a bundled expected output outranks the interpreter
                    if (row.gap) {
                        lv.gap = row.gap;
                        lv.expectedFrom = "reference interpreter on " + source;
                    } else {
                        lv.gapReason = row.reason;
                    }
                }
        }
        if (out.referenceProblem.empty() && !inputs)
            out.referenceProblem = reason;
        for (auto& [id, lv] : values)
            if (!lv.gap && lv.gapReason.empty())
                lv.gapReason = reason;
    }
}

} // namespace

pte::ReferenceInputSpec defaultReferenceInputs(const Snapshot& snapshot)
{
    pte::ReferenceInputSpec spec;
    const auto* bundled = snapshot.pteFile ? snapshot.pteFile->bundled.get() : nullptr;
    if (bundled && !bundled->testSuites.empty())
        spec.kind = pte::ReferenceInputSpec::Kind::Bundled;
    return spec;
}

std::string ProfileData::methodName(int index) const
{
    if (!join || index < 0 || std::size_t(index) >= join->sources->methods.size())
        return {};
    return join->sources->methods[std::size_t(index)].name;
}

std::shared_ptr<const ProfileData> buildProfileData(std::shared_ptr<const pte::EtDump> dump, const Snapshot& snapshot,
    const std::optional<pte::ReferenceInputSpec>& reference)
{
    auto out = std::make_shared<ProfileData>();
    out->dump = dump;
    out->reference = reference.value_or(defaultReferenceInputs(snapshot));
    out->diagnostics = dump->diagnostics;
    std::vector<std::pair<std::string, std::shared_ptr<const pte::ExportedProgram>>> graphs;
    for (const auto& m : snapshot.dumpMethods)
        graphs.emplace_back(m.name, m.program);
    std::shared_ptr<const pte::EtdumpSources> sources;
    if (snapshot.program && snapshot.emitted)
        sources = pte::makeEtdumpSources(snapshot.program, *snapshot.emitted, graphs);
    else if (snapshot.program || snapshot.etrecordMaps)
        sources = pte::makeEtdumpSources(snapshot.program, snapshot.etrecordMaps.get(), graphs);
    if (sources) {
        if (auto j = pte::joinEtdump(dump, sources)) {
            out->join = *j;
            out->diagnostics.insert(
                out->diagnostics.end(), out->join->diagnostics.begin(), out->join->diagnostics.end());
        }
    }
    if (auto t = pte::buildProfileTable(*dump, out->join.get()))
        out->table = std::move(t).value();
    out->diagnostics.insert(out->diagnostics.end(), out->table.diagnostics.begin(), out->table.diagnostics.end());
    if (snapshot.delegates) {
        // Delegate events aligned with inner nodes once: their times per node, and the rows' source nodes.
        const auto& inspection = *snapshot.delegates;
        const auto placed = pte::alignEtdumpDelegates(*dump, out->join.get(), inspection.delegates);
        pte::attachAlignedSources(out->table, placed, inspection.delegates, inspection.links);
        out->delegateTimes = delegateTimes(*dump, placed, out->table, snapshot.delegates);
    }
    out->summary = pte::summarizeProfile(*dump, out->table, out->join.get());
    if (out->join) {
        collectLoggedValues(*out, snapshot);
        if (out->join->sources->program)
            addReferenceGaps(*out, snapshot);
        for (auto& t : pte::methodTimings(*out->join)) {
            const std::string name = out->methodName(t.method);
            const auto& graph = out->join->sources->methods[std::size_t(t.method)].graph;
            auto& byName = out->nodeTimings[name];
            for (const auto& n : pte::nodeTimings(*out->join, t))
                if (graph && n.node < graph->graph.nodes.size())
                    byName.emplace(graph->graph.nodes[n.node].name, n);
            out->timings.emplace(name, std::move(t));
        }
    }
    for (auto& d : out->diagnostics)
        if (d.file.empty())
            d.file = dump->path;
    return out;
}

} // namespace pte::ui
