// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// The Inspector table's summaries: time by operator, by backend and by module.
#include "pte/graphtext.h"
#include "pte/profiletable.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace pte {

namespace {

/** "Convolution (NHWC, F32) IGEMM #3" -> "Convolution (NHWC, F32) IGEMM". */
std::string withoutOrdinal(const std::string& name)
{
    const auto hash = name.rfind(" #");
    if (hash == std::string::npos || hash + 2 >= name.size())
        return name;
    for (std::size_t i = hash + 2; i < name.size(); ++i)
        if (name[i] < '0' || name[i] > '9')
            return name;
    return name.substr(0, hash);
}

void addTo(std::vector<ProfileSummaryEntry>& entries, std::map<std::string, std::size_t>& index, const std::string& key,
    double value)
{
    auto [it, inserted] = index.try_emplace(key, entries.size());
    if (inserted)
        entries.push_back(ProfileSummaryEntry { key, 0, 0, 0 });
    auto& e = entries[it->second];
    ++e.count;
    if (!std::isnan(value))
        e.total += value;
}
} // namespace

ProfileSummary summarizeProfile(const EtDump& dump, const ProfileTable& table, const EtdumpJoin* join)
{
    ProfileSummary out;
    std::map<std::string, std::size_t> ops;
    std::map<std::string, std::size_t> backends;
    std::map<std::string, std::size_t> modules;
    const EtdumpSources* src = join ? join->sources.get() : nullptr;
    static const std::string kKernels = "kernels (not delegated)";
    for (const auto& block : table.blocks) {
        const auto rows = std::span<const ProfileRow>(table.rows).subspan(block.firstRow, block.rowCount);
        // Kernel event names by instruction, for operators without a program (gathered when first needed).
        std::map<std::pair<std::int32_t, std::int32_t>, std::string> kernelNames;
        bool haveKernelNames = false;
        auto kernelName = [&](std::int32_t chain, std::int32_t instruction) -> std::string {
            if (!haveKernelNames) {
                for (const auto& row : rows)
                    if (row.eventName.rfind("native_call_", 0) == 0)
                        kernelNames[{ row.chain, row.instruction }] = row.eventName.substr(12);
                haveKernelNames = true;
            }
            const auto it = kernelNames.find({ chain, instruction });
            return it == kernelNames.end() ? std::string() : it->second;
        };
        for (const auto& row : rows) {
            if (!row.hasTimes())
                continue;
            if (row.eventName == "Method::execute") {
                out.executeTotal += row.p50;
                continue;
            }
            const EtdumpMethodSource* m = src && row.method >= 0 && std::size_t(row.method) < src->methods.size()
                ? &src->methods[std::size_t(row.method)]
                : nullptr;
            const bool isOperator = row.eventName == "OPERATOR_CALL";
            const bool isDelegateCall = row.eventName == "DELEGATE_CALL";
            if (row.isDelegatedOp) {
                const std::string backend = row.delegateBackendName.empty() ? "delegate" : row.delegateBackendName;
                addTo(out.byOperator, ops, backend + ": " + withoutOrdinal(row.eventName), row.p50);
                continue;
            }
            if (!isOperator && !isDelegateCall)
                continue;
            if (isOperator) {
                std::string op;
                if (m && m->plan && row.chain >= 0 && std::size_t(row.chain) < m->plan->chains.size()
                    && std::size_t(row.instruction) < m->plan->chains[std::size_t(row.chain)].instructions.size()) {
                    const auto& in = m->plan->chains[std::size_t(row.chain)].instructions[std::size_t(row.instruction)];
                    if (const auto* k = std::get_if<KernelCall>(&in.args);
                        k && k->opIndex >= 0 && std::size_t(k->opIndex) < m->plan->operators.size())
                        op = m->plan->operators[std::size_t(k->opIndex)].qualifiedName();
                }
                if (op.empty())
                    op = kernelName(row.chain, row.instruction);
                addTo(out.byOperator, ops, op.empty() ? std::string("(kernel without a name)") : op, row.p50);
                addTo(out.byBackend, backends, kKernels, row.p50);
            } else {
                addTo(out.byBackend, backends, row.delegateBackendName.empty() ? "delegate" : row.delegateBackendName,
                    row.p50);
            }
            std::string module;
            for (const auto& [node, stack] : row.moduleHierarchy) {
                if (auto paths = nnModulePaths(stack); !paths.empty()) {
                    module = std::move(paths.front()); // the outermost module
                    break;
                }
            }
            if (!row.moduleHierarchy.empty())
                addTo(out.byModule, modules, module.empty() ? std::string("(top level)") : module, row.p50);
        }
    }
    (void)dump;
    for (auto* list : { &out.byOperator, &out.byBackend, &out.byModule }) {
        for (auto& e : *list)
            e.share = out.executeTotal > 0 ? e.total / out.executeTotal : 0;
        std::stable_sort(list->begin(), list->end(),
            [](const ProfileSummaryEntry& a, const ProfileSummaryEntry& b) { return a.total > b.total; });
    }
    return out;
}

} // namespace pte
