// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "chaindump.h"

#include <string>

namespace pte::test {

std::shared_ptr<ExportedProgram> makeChainDump(int nodes, int blocks)
{
    auto ep = std::make_shared<ExportedProgram>();
    ep->source = "large.pt2:models/model.json";
    auto& g = ep->graph;
    g.inputs = { Argument::tensor("x") };
    g.nodes.reserve(std::size_t(nodes));
    const int perBlock = std::max(1, nodes / std::max(1, blocks));
    for (int i = 0; i < nodes; ++i) {
        Node n;
        n.name = "n" + std::to_string(i);
        n.setTarget("torch.ops.aten.add.Tensor");
        n.inputs.push_back(NamedArgument { "self", Argument::tensor(i ? "n" + std::to_string(i - 1) : "x"), 1 });
        n.inputs.push_back(NamedArgument { "other", Argument::tensor("x"), 1 });
        n.outputs.push_back(Argument::tensor(n.name));
        n.debugHandles = { i + 1 };
        const int block = i / perBlock;
        n.metadata["nn_module_stack"] =
            "L__self__,,Net;L__self__layers_" + std::to_string(block) + ",layers." + std::to_string(block) + ",Block";
        n.jsonPath = "graph_module.graph.nodes[" + std::to_string(i) + "]";
        g.nodes.push_back(std::move(n));
    }
    const std::string last = "n" + std::to_string(nodes - 1);
    g.outputs = { Argument::tensor(last) };
    ep->signature.inputSpecs = { InputSpec { InputKind::UserInput, Argument::tensor("x"), "", {}, {} } };
    ep->signature.outputSpecs = { OutputSpec { OutputKind::UserOutput, Argument::tensor(last), "" } };
    return ep;
}

} // namespace pte::test
