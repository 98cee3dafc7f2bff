// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "document/snapshot.h"

namespace pte::ui {

bool isTrainingMetadataMethod(std::string_view name) noexcept { return name.starts_with("__et_training_"); }

bool isConstantMethod(const pte::ExecutionPlan& plan) noexcept
{
    std::size_t instructions = 0;
    for (const auto& chain : plan.chains)
        instructions += chain.instructions.size();
    return instructions == 0 && plan.inputs.empty() && !plan.outputs.empty();
}

void Snapshot::finalize()
{
    methods.clear();
    const auto* debugMaps =
        emitted ? &emitted->debugHandleMap : (etrecordMaps ? &etrecordMaps->debugHandleMap : nullptr);
    const auto* delegateMaps =
        emitted ? &emitted->methodToDelegateDebugIdMap : (etrecordMaps ? &etrecordMaps->delegateMap : nullptr);
    auto attachMaps = [&](MethodEntry& entry) {
        if (debugMaps) {
            const auto it = debugMaps->find(entry.name);
            if (it != debugMaps->end())
                entry.debugHandles = &it->second;
        }
        if (delegateMaps) {
            const auto it = delegateMaps->find(entry.name);
            if (it != delegateMaps->end())
                entry.delegateMap = &it->second;
        }
        if (emitted) {
            const auto it = emitted->methods.find(entry.name);
            if (it != emitted->methods.end())
                entry.emitInfo = &it->second;
        }
        entry.isTrainingMetadata = isTrainingMetadataMethod(entry.name);
        entry.isConstant = entry.plan && isConstantMethod(*entry.plan);
    };
    if (program) {
        for (const auto& plan : program->executionPlan) {
            MethodEntry entry;
            entry.name = plan.name;
            entry.plan = &plan;
            for (const auto& dm : dumpMethods)
                if (dm.name == plan.name)
                    entry.exported = dm.program;
            attachMaps(entry);
            methods.push_back(std::move(entry));
        }
    }
    for (const auto& dm : dumpMethods) {
        if (method(dm.name))
            continue;
        MethodEntry entry;
        entry.name = dm.name;
        entry.exported = dm.program;
        attachMaps(entry);
        methods.push_back(std::move(entry));
    }
}

const MethodEntry* Snapshot::method(std::string_view name) const noexcept
{
    for (const auto& m : methods)
        if (m.name == name)
            return &m;
    return nullptr;
}

int Snapshot::methodIndex(std::string_view name) const noexcept
{
    for (std::size_t i = 0; i < methods.size(); ++i)
        if (methods[i].name == name)
            return int(i);
    return -1;
}

} // namespace pte::ui
