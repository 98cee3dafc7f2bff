// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "emit/constantmethods.h"

#include "emit/makevalue.h"

#include <utility>

namespace pte::emitcore {

namespace {

const char* kLeafSpec = R"([1, {"type": null, "context": null, "children_spec": []}])";

ExecutionPlan getterPlan(const std::string& name, std::vector<EValue> values, std::string outSpec)
{
    ExecutionPlan p;
    p.name = name;
    p.containerMetaType = ContainerMetadata { "", std::move(outSpec) };
    for (std::size_t i = 0; i < values.size(); ++i)
        p.outputs.push_back(std::int32_t(i));
    p.values = std::move(values);
    p.chains.push_back(Chain {});
    p.nonConstBufferSizes = { 0 };
    return p;
}

std::string listSpec(std::size_t n)
{
    std::string s = R"([1, {"type": "builtins.list", "context": "null", "children_spec": [)";
    for (std::size_t i = 0; i < n; ++i)
        s += std::string(i ? ", " : "") + R"({"type": null, "context": null, "children_spec": []})";
    return s + "]}]";
}

} // namespace

Result<ExecutionPlan> primGetter(
    const std::string& name, const EValue& value, ProgramState& ps, const EmitOptions& options)
{
    std::vector<EValue> values;
    std::string spec = kLeafSpec;
    switch (value.kind()) {
    case ValueKind::Int:
    case ValueKind::Double:
    case ValueKind::Bool:
    case ValueKind::String:
        values.push_back(makeValue(value.val));
        break;
    case ValueKind::Tensor: {
        Tensor t = *value.tensor();
        const auto nbytes = t.nbytes();
        if (!nbytes)
            return fail(ErrorCode::InvalidInput, "prim getter '" + name + "': the tensor's size overflows");
        if (t.dimOrder.size() != t.sizes.size()) {
            t.dimOrder.resize(t.sizes.size());
            for (std::size_t i = 0; i < t.dimOrder.size(); ++i)
                t.dimOrder[i] = std::uint8_t(i);
        }
        Bytes data;
        const auto it = options.primGetterTensorData.find(name);
        if (it != options.primGetterTensorData.end()) {
            if (it->second.size() != *nbytes)
                return fail(ErrorCode::InvalidInput,
                    "prim getter '" + name + "': Tensor spec has buffer of size " + std::to_string(it->second.size())
                        + ", but expected nbytes of " + std::to_string(*nbytes));
            data = it->second;
        } else {
            data = Bytes::fromVector(std::vector<std::uint8_t>(*nbytes, 0));
        }
        t.allocationInfo.reset();
        t.extraTensorInfo.reset();
        t.storageOffset = 0;
        t.dataBufferIdx = ps.addConstant(data);
        values.push_back(makeValue(std::move(t)));
        break;
    }
    case ValueKind::DoubleList:
        for (const auto d : std::get<DoubleList>(value.val).items)
            values.push_back(makeValue(Double { d }));
        spec = listSpec(values.size());
        break;
    case ValueKind::BoolList:
        for (const bool b : std::get<BoolList>(value.val).items)
            values.push_back(makeValue(Bool { b }));
        spec = listSpec(values.size());
        break;
    case ValueKind::IntList:
        // Getter lists hold literal ints (there is no value table to index into).
        for (const auto v : std::get<IntList>(value.val).items)
            values.push_back(makeValue(Int { v }));
        spec = listSpec(values.size());
        break;
    default:
        return fail(ErrorCode::Unsupported,
            "Error emitting " + name + " which returns a value of type " + valueKindName(value.kind())
                + ". which is not a supported primitive");
    }
    return getterPlan(name, std::move(values), std::move(spec));
}

std::optional<ExecutionPlan> constantMethod(const std::string& name, const ExportedProgram& ep)
{
    if (!ep.graph.nodes.empty() || !ep.graph.inputs.empty() || ep.graph.outputs.empty())
        return std::nullopt;
    std::vector<EValue> values;
    for (const auto& o : ep.graph.outputs) {
        switch (o.kind) {
        case ArgKind::Int:
            values.push_back(makeValue(Int { o.ints.empty() ? 0 : o.ints[0] }));
            break;
        case ArgKind::Float:
            values.push_back(makeValue(Double { o.floats.empty() ? 0.0 : o.floats[0] }));
            break;
        case ArgKind::Bool:
            values.push_back(makeValue(Bool { !o.bools.empty() && o.bools[0] }));
            break;
        case ArgKind::String:
            values.push_back(makeValue(String { o.strings.empty() ? std::string() : o.strings[0] }));
            break;
        default:
            return std::nullopt;
        }
    }
    std::string spec = values.size() == 1 ? std::string(kLeafSpec) : listSpec(values.size());
    for (const auto& e : ep.moduleCallGraph)
        if (e.fqn.empty() && e.outSpec)
            spec = *e.outSpec;
    return getterPlan(name, std::move(values), std::move(spec));
}

void appendTrainingPlans(const std::string& name, const LoweredMethod& lm, std::vector<ExecutionPlan>& plans)
{
    if (lm.gradientsIndex >= 0)
        plans.push_back(
            getterPlan("__et_training_gradients_index_" + name, { makeValue(Int { lm.gradientsIndex }) }, kLeafSpec));
    std::vector<EValue> fqns;
    for (const auto& f : lm.gradientFqns)
        fqns.push_back(makeValue(String { f }));
    const auto n = fqns.size();
    plans.push_back(getterPlan("__et_training_fqn_" + name, std::move(fqns), listSpec(n)));
    if (lm.parametersIndex >= 0)
        plans.push_back(
            getterPlan("__et_training_parameters_index_" + name, { makeValue(Int { lm.parametersIndex }) }, kLeafSpec));
}

} // namespace pte::emitcore
