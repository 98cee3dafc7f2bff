// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "pte/bundledgap.h"

#include <set>
#include <unordered_set>

namespace pte {

std::vector<BundledOutputGap> bundledOutputGaps(
    const EtdumpJoin& join, const BundledProgram& bundled, const BundledGapOptions& options)
{
    std::vector<BundledOutputGap> out;
    if (!join.dump || !join.sources)
        return out;
    const EtDump& dump = *join.dump;
    std::set<int> seen;
    for (std::size_t r = 0; r < dump.runs.size() && r < join.runs.size(); ++r) {
        const auto& rj = join.runs[r];
        if (!rj.joined || rj.kind == EtdumpRunKind::Load || rj.method < 0 || !seen.insert(rj.method).second)
            continue;
        if (std::size_t(rj.method) >= join.sources->methods.size())
            continue;
        const std::string& method = join.sources->methods[std::size_t(rj.method)].name;
        const auto* suite = bundled.suite(method);
        if (!suite || suite->testCases.empty())
            continue;
        const auto& run = dump.runs[r];
        BundledOutputGap g;
        g.method = method;
        g.run = std::uint32_t(r);
        const int idx = run.bundledInputIndex;
        g.fromBlock = idx >= 0 && std::size_t(idx) < suite->testCases.size();
        g.testCase = g.fromBlock ? std::size_t(idx) : suite->testCases.size() - 1;
        const auto& expected = suite->testCases[g.testCase];
        std::unordered_set<std::int32_t> values;
        for (std::uint32_t i = run.firstEvent; i < run.firstEvent + run.eventCount && i < join.events.size(); ++i) {
            const auto& j = join.events[i];
            const auto* v = dump.value(dump.events[i]);
            if (!v || j.value < 0 || !values.insert(j.value).second || j.outputIndex < 0)
                continue;
            BundledOutputGapRow row;
            row.event = i;
            row.value = j.value;
            row.outputIndex = j.outputIndex;
            if (std::size_t(j.outputIndex) >= expected.expectedOutputs.size()) {
                row.reason = "the test case has " + std::to_string(expected.expectedOutputs.size())
                    + " expected output(s), no output " + std::to_string(j.outputIndex);
            } else if (v->type != EtdumpValueType::Tensor || v->tensors.empty()) {
                row.reason = std::string("a logged ") + etdumpValueTypeName(v->type) + ", not a tensor";
            } else if (auto numbers = loggedTensorValues(dump, v->tensors.front(), options.maxElements); !numbers) {
                row.reason = numbers.error().message;
            } else if (auto want = bundledTensorValues(
                           expected.expectedOutputs[std::size_t(j.outputIndex)], options.maxElements);
                       !want) {
                row.reason = "expected output: " + want.error().message;
            } else if (auto gap = numericGap(*want, *numbers); !gap) {
                row.reason = gap.error().message;
            } else {
                row.gap = *gap;
            }
            g.rows.push_back(std::move(row));
        }
        out.push_back(std::move(g));
    }
    return out;
}

} // namespace pte
