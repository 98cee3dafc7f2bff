// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// libFuzzer target: the ETDump reader (envelope detection, both block layouts, verifier, the walk that locates what
// the verifier refused) and everything built on what it accepted: the join with a small fixed program, the
// Inspector table, its text, the summaries, timings and logged tensor values. The input's first byte says how many
// of its last bytes (x 16) are the debug buffer.

#include "pte/etdump.h"
#include "pte/etdumpjoin.h"
#include "pte/etdumptiming.h"
#include "pte/numericgap.h"
#include "pte/profiletable.h"

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace {

std::shared_ptr<const pte::EtdumpSources> fixedSources()
{
    auto program = std::make_shared<pte::Program>();
    pte::ExecutionPlan plan;
    plan.name = "forward";
    pte::EValue v;
    pte::Tensor t;
    t.scalarType = pte::ScalarType::Float;
    t.sizes = { 2 };
    t.dimOrder = { 0 };
    v.val = t;
    plan.values = { v, v, v };
    plan.inputs = { 0 };
    plan.outputs = { 2 };
    plan.operators = { pte::Operator { "aten::add", "out" } };
    plan.delegates = { pte::BackendDelegate { "XnnpackBackend", {}, {} } };
    pte::Chain chain;
    chain.instructions.push_back(pte::Instruction { pte::KernelCall { 0, { 0, 0, 1 } }, 1 });
    chain.instructions.push_back(pte::Instruction { pte::DelegateCall { 0, { 1, 2 } }, 2 });
    plan.chains.push_back(chain);
    program->executionPlan.push_back(plan);
    pte::EtRecordMaps maps;
    maps.debugHandleMap["forward"] = { { 0, { 1 } }, { 1, { 2, 3 } } };
    maps.delegateMap["forward"][1] = pte::DelegateMapEntry { "XnnpackBackend", { { "0", { 2 } }, { "a", { 3 } } } };
    auto graph = std::make_shared<pte::ExportedProgram>();
    for (std::int64_t h = 1; h <= 3; ++h) {
        pte::Node n;
        n.name = "n" + std::to_string(h);
        n.setTarget("torch.ops.aten.add.Tensor");
        n.debugHandles = { h };
        n.metadata["nn_module_stack"] = "L__self__,,M;L__self___b,b,B";
        graph->graph.nodes.push_back(n);
    }
    return pte::makeEtdumpSources(program, &maps, { { "forward", graph } });
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    static const auto sources = fixedSources();
    if (size == 0)
        return 0;
    const std::size_t bufferSize = std::min<std::size_t>(std::size_t(data[0]) * 16, size - 1);
    const std::size_t dumpSize = size - 1 - bufferSize;
    const auto dumpBytes = pte::Bytes::copyOf(std::string_view(reinterpret_cast<const char*>(data + 1), dumpSize));
    const auto buffer =
        pte::Bytes::copyOf(std::string_view(reinterpret_cast<const char*>(data + 1 + dumpSize), bufferSize));
    const auto dump = pte::readEtdumpBytes(dumpBytes, "fuzz.etdp", buffer);
    if (!dump)
        return 0;
    const auto& d = **dump;
    for (const auto& v : d.values)
        for (const auto& t : v.tensors)
            if (auto values = pte::loggedTensorValues(d, t, 1 << 16))
                (void)pte::tensorStats(*values);
    auto join = pte::joinEtdump(*dump, sources);
    const pte::EtdumpJoin* j = join ? join->get() : nullptr;
    if (j)
        for (const auto& t : pte::methodTimings(*j))
            (void)pte::nodeTimings(*j, t);
    auto table = pte::buildProfileTable(d, j);
    if (!table)
        return 0;
    (void)pte::profileTableText(d, *table, ',');
    (void)pte::summarizeProfile(d, *table, j);
    return 0;
}
