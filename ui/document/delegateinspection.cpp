// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "document/delegateinspection.h"

#include "document/snapshot.h"

namespace pte::ui {

int DelegateInspection::find(std::string_view method, std::uint32_t delegateIndex) const noexcept
{
    for (std::size_t i = 0; i < delegates.size(); ++i)
        if (delegates[i].methodName == method && delegates[i].delegateIndex == delegateIndex)
            return int(i);
    return -1;
}

std::vector<int> DelegateInspection::ofMethod(std::string_view method) const
{
    std::vector<int> out;
    for (std::size_t i = 0; i < delegates.size(); ++i)
        if (delegates[i].methodName == method)
            out.push_back(int(i));
    return out;
}

DelegateInputs delegateInputsOf(const Snapshot& snapshot)
{
    DelegateInputs in;
    in.program = snapshot.program;
    in.pteFile = snapshot.pteFile;
    in.emitted = snapshot.emitted;
    in.etrecordMaps = snapshot.etrecordMaps;
    for (const auto& m : snapshot.dumpMethods)
        if (m.program)
            in.graphs.emplace_back(m.name, m.program);
    return in;
}

std::shared_ptr<const DelegateInspection> inspectDelegates(DelegateInputs inputs)
{
    if (!inputs.program)
        return nullptr;
    auto out = std::make_shared<DelegateInspection>();
    out->inputs = std::move(inputs);
    const auto& in = out->inputs;
    const pte::ExternalData* external = in.pteFile && in.pteFile->externalData ? &*in.pteFile->externalData : nullptr;
    const pte::PayloadDataSources sources { in.program.get(), external, in.emitted ? &in.emitted->namedData : nullptr };
    const std::string name = in.pteFile ? in.pteFile->path : std::string("emitted program");
    out->delegates = pte::decodeProgramDelegates(*in.program, sources, name);
    for (const auto& [graphName, program] : in.graphs)
        out->index.add(graphName, *program);
    pte::DebugMapsView maps;
    if (in.emitted) {
        maps.debugHandleMap = &in.emitted->debugHandleMap;
        maps.delegateMap = &in.emitted->methodToDelegateDebugIdMap;
    } else if (in.etrecordMaps) {
        maps.debugHandleMap = &in.etrecordMaps->debugHandleMap;
        maps.delegateMap = &in.etrecordMaps->delegateMap;
    }
    out->haveDebugMaps = maps.debugHandleMap != nullptr;
    const pte::SourceGraphIndex* index = out->index.empty() ? nullptr : &out->index;
    out->links.reserve(out->delegates.size());
    for (const auto& d : out->delegates)
        out->links.push_back(pte::linkProgramDelegate(d, maps, index));
    return out;
}

} // namespace pte::ui
