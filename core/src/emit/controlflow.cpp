// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "emit/lowering_p.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <cstring>
#include <functional>
#include <limits>
#include <numeric>
#include <set>
#include <span>
#include <unordered_map>
#include <unordered_set>
#include <utility>

namespace pte::emitcore {

Result<std::vector<int>> Lowering::lowerSubgraph(
    const Graph& g, const std::vector<int>& operands, const std::vector<int>* bindings, const Where& where)
{
    if (g.inputs.size() != operands.size())
        return fail(ErrorCode::InvalidInput,
            "method '" + m_method + "': " + where + ": the sub-graph takes " + std::to_string(g.inputs.size())
                + " inputs but " + std::to_string(operands.size()) + " are passed");
    m_scopes.emplace_back();
    m_graphs.push_back(&g);
    const bool savedRecord = m_recordDebug;
    m_recordDebug = false;
    for (std::size_t i = 0; i < g.inputs.size(); ++i)
        for (const auto& nm : g.inputs[i].names)
            define(nm, operands[i]);
    for (const auto& node : g.nodes)
        PTE_CHECK(lowerNode(node));
    std::vector<int> outs;
    for (const auto& o : g.outputs)
        for (const auto& nm : o.names) {
            PTE_TRY(const int r, lookup(nm, where + " sub-graph output"));
            outs.push_back(r);
        }
    if (bindings) {
        if (outs.size() != bindings->size())
            return fail(ErrorCode::InvalidInput,
                "method '" + m_method + "': " + where
                    + ": number of binding output values should match (sub-graph returns " + std::to_string(outs.size())
                    + ", the node has " + std::to_string(bindings->size()) + ")");
        for (std::size_t i = 0; i < outs.size(); ++i) {
            if (outs[i] == (*bindings)[i])
                continue;
            LInstr mv;
            mv.kind = LInstr::Kind::Move;
            mv.moveFrom = outs[i];
            mv.moveTo = (*bindings)[i];
            mv.origin = where.str();
            mv.recordDebug = false;
            m_out.instrs.push_back(std::move(mv));
        }
    }
    m_recordDebug = savedRecord;
    m_graphs.pop_back();
    m_scopes.pop_back();
    return outs;
}

Result<std::vector<int>> Lowering::tensorRefs(const Node& n, const Argument& a)
{
    std::vector<int> refs;
    if (a.kind == ArgKind::None)
        return refs;
    if (a.kind != ArgKind::Tensor && a.kind != ArgKind::Tensors)
        return fail(nodeError(
            n, ErrorCode::InvalidInput, std::string("expected a list of tensors, found ") + argKindName(a.kind)));
    for (const auto& nm : a.names) {
        auto r = lookup(nm, this->where(n));
        if (!r)
            return fail(withPath(n, r.error()));
        if (m_out.values[std::size_t(*r)].isSym)
            return fail(nodeError(n, ErrorCode::InvalidInput, "'" + nm + "' is not a tensor"));
        refs.push_back(*r);
    }
    return refs;
}

int Lowering::newCounter(const std::string& name, bool isBool)
{
    LValue v;
    v.isSym = true;
    v.symCounter = true;
    v.symBool = isBool;
    v.name = name;
    v.storage = LValue::Storage::Unplanned;
    m_out.values.push_back(std::move(v));
    return int(m_out.values.size() - 1);
}

Result<int> Lowering::newPlaceholderTensor(const Graph& g, std::size_t input, const Node& n)
{
    if (input >= g.inputs.size() || g.inputs[input].kind != ArgKind::Tensor || g.inputs[input].names.empty())
        return fail(nodeError(
            n, ErrorCode::InvalidInput, "sub-graph input " + std::to_string(input) + " is not a tensor placeholder"));
    const std::string& name = g.inputs[input].names[0];
    const auto it = g.tensorValues.find(name);
    if (it == g.tensorValues.end())
        return fail(nodeError(n, ErrorCode::InvalidInput,
            "sub-graph placeholder '" + name + "' has no entry in the sub-graph's tensor_values"));
    return newTensor(name, it->second, this->where(n));
}

void Lowering::pushSynthetic(const Node& n, const char* op, const char* overload, std::vector<LArg> args)
{
    LInstr in;
    in.kind = LInstr::Kind::Kernel;
    in.name = LInstr::OperatorName { op, overload };
    in.args = std::move(args);
    in.node = &n;
    in.origin = n.name;
    in.recordDebug = false;
    m_out.instrs.push_back(std::move(in));
}

// map_impl(f, [x], extra) as ExecuTorch's emitter lays it out (docs/emission.md, Control flow): a loop over dim 0 of x
// built from jumps and executorch_prim scalar ops; the body's result is stacked into the binding output by
// et_copy_index.
Result<void> Lowering::lowerMap(const Node& n)
{
    if (n.inputs.size() < 2 || n.inputs[0].arg.kind != ArgKind::Graph || !n.inputs[0].arg.graph)
        return fail(nodeError(n, ErrorCode::InvalidInput, "map_impl expects (body_graph, mapped_args, operands)"));
    // torch >= 2.2: (f, [mapped...], [operands...]); torch 2.1: (f, num_mapped, *mapped, *operands).
    const bool legacy = n.inputs[1].arg.kind == ArgKind::Int;
    if (!legacy && n.inputs.size() > 3)
        return fail(nodeError(n, ErrorCode::InvalidInput, "map_impl expects (body_graph, mapped_args, operands)"));
    const Graph& body = *n.inputs[0].arg.graph;
    // Binding outputs first (before any loop value), forced to DYNAMIC_BOUND like ExecuTorch.
    PTE_TRY(const auto bindings, nodeOutputs(n));
    for (const int b : bindings)
        m_out.values[std::size_t(b)].dynamism = ShapeDynamism::DynamicBound;
    if (bindings.size() != 1)
        return fail(nodeError(n, ErrorCode::Unsupported,
            "Multiple outputs are not supported. Got " + std::to_string(bindings.size()) + "."));
    if (!lookup(n.name, {}))
        define(n.name, bindings[0]);
    std::vector<int> mapped;
    std::vector<int> extra;
    if (legacy) {
        const auto numMapped = n.inputs[1].arg.ints.empty() ? 0 : n.inputs[1].arg.ints[0];
        for (std::size_t i = 2; i < n.inputs.size(); ++i) {
            PTE_TRY(const auto refs, tensorRefs(n, n.inputs[i].arg));
            for (const int r : refs)
                (std::int64_t(mapped.size()) < numMapped ? mapped : extra).push_back(r);
        }
    } else {
        PTE_TRY(mapped, tensorRefs(n, n.inputs[1].arg));
        if (n.inputs.size() > 2) {
            PTE_TRY(extra, tensorRefs(n, n.inputs[2].arg));
        }
    }
    if (mapped.size() != 1)
        return fail(nodeError(n, ErrorCode::Unsupported,
            "Emitting map with more than one mapped args is not supported. Got " + std::to_string(mapped.size())
                + "."));
    std::size_t bodyOutputs = 0;
    for (const auto& o : body.outputs)
        bodyOutputs += o.kind == ArgKind::None ? 0 : std::max<std::size_t>(o.names.size(), 1);
    if (bodyOutputs != 1)
        return fail(nodeError(n, ErrorCode::Unsupported,
            "Map should return only one element (the body returns " + std::to_string(bodyOutputs) + ")"));
    const int x = mapped[0];
    const int accum = bindings[0];
    const int iter = newCounter(n.name + "_iter");
    const int count = newCounter(n.name + "_n");
    LInstr alloc;
    alloc.kind = LInstr::Kind::Alloc;
    alloc.allocs = { accum, iter, count };
    m_out.instrs.push_back(std::move(alloc));
    pushSynthetic(n, "aten::sym_size", "int", { LArg::tensor(x), LArg::integer(0), ref(count) });
    const int loop = m_labels++;
    LInstr head;
    head.kind = LInstr::Kind::Label;
    head.label = loop;
    m_out.instrs.push_back(head);
    // The slice is the body's first placeholder: a value of its own (ExecuTorch's -1 binding).
    PTE_TRY(const int slice, newPlaceholderTensor(body, 0, n));
    pushSynthetic(n, "aten::select_copy", "int_out",
        { LArg::tensor(x), LArg::integer(0), ref(iter), LArg::tensor(slice), LArg::tensor(slice) });
    std::vector<int> operands { slice };
    operands.insert(operands.end(), extra.begin(), extra.end());
    PTE_TRY(const auto outs, lowerSubgraph(body, operands, &bindings, this->where(n) + " body"));
    // ExecuTorch drops the body's last instruction, the MoveCall into the binding: et_copy_index stacks instead.
    if (!m_out.instrs.empty() && m_out.instrs.back().kind == LInstr::Kind::Move && m_out.instrs.back().moveTo == accum)
        m_out.instrs.pop_back();
    pushSynthetic(n, "executorch_prim::et_copy_index", "tensor", { LArg::tensor(accum), ref(outs[0]), ref(iter) });
    closeLoop(n, iter, count, loop);
    return {};
}

// The end of a map/scan iteration (docs/emission.md, Control flow): iter += 1; done = iter == n; jump back to the loop
// head while not done; then iter -= n, so the next run of the method starts from 0 again.
void Lowering::closeLoop(const Node& n, int iter, int count, int loop)
{
    pushSynthetic(n, "executorch_prim::add", "Scalar", { ref(iter), LArg::integer(1), ref(iter) });
    const int done = newCounter(n.name + "_done", true);
    pushSynthetic(n, "executorch_prim::eq", "Scalar", { ref(iter), ref(count), ref(done) });
    LInstr back;
    back.kind = LInstr::Kind::JumpFalse;
    back.cond = ref(done);
    back.label = loop;
    back.origin = n.name;
    back.recordDebug = false;
    m_out.instrs.push_back(std::move(back));
    pushSynthetic(n, "executorch_prim::sub", "Scalar", { ref(iter), ref(count), ref(iter) });
}

// scan(combine_fn, init, xs, additional): the map loop with carries. Each carry output is initialised from its
// init before the loop, read by the body (its carry placeholders are bound to the carry outputs) and
// overwritten with the body's new carry at the end of each iteration; the y outputs are stacked.
// with_effects(token, op, *args) -> (token, *results): torch.export threads an effect token through an operator with
// side effects. ExecuTorch strips the tokens before emission (docs/dump-formats.md, Effect tokens): the token inputs
// and outputs go (placeholders() skips token inputs, token outputs are dropped) and the node becomes the plain call
// op(*args).
Result<void> Lowering::lowerWithEffects(const Node& n)
{
    if (n.inputs.size() < 2 || n.inputs[1].arg.kind != ArgKind::Operator || n.inputs[1].arg.strings.empty()
        || n.outputs.empty())
        return fail(
            nodeError(n, ErrorCode::InvalidInput, "with_effects expects (token, operator, *args) -> (token, ...)"));
    auto call = std::make_shared<Node>();
    call->name = n.name;
    call->setTarget(n.inputs[1].arg.strings[0]);
    if (call->targetKind != TargetKind::OpOverload)
        return fail(nodeError(n, ErrorCode::InvalidInput,
            "with_effects calls '" + n.inputs[1].arg.strings[0] + "', which is not an operator"));
    call->inputs.assign(n.inputs.begin() + 2, n.inputs.end());
    call->outputs.assign(n.outputs.begin() + 1, n.outputs.end());
    call->metadata = n.metadata;
    call->debugHandles = n.debugHandles;
    call->jsonPath = n.jsonPath;
    // Kept alive with the lowered method: instructions point at the node they came from.
    m_out.madeNodes.push_back(call);
    return lowerNode(*call);
}

Result<void> Lowering::lowerScan(const Node& n)
{
    if (n.inputs.size() != 4 || n.inputs[0].arg.kind != ArgKind::Graph || !n.inputs[0].arg.graph)
        return fail(nodeError(n, ErrorCode::InvalidInput, "scan expects (combine_graph, init, xs, additional_inputs)"));
    const Graph& body = *n.inputs[0].arg.graph;
    PTE_TRY(const auto bindings, nodeOutputs(n));
    PTE_TRY(const auto init, tensorRefs(n, n.inputs[1].arg));
    PTE_TRY(const auto xs, tensorRefs(n, n.inputs[2].arg));
    PTE_TRY(const auto additional, tensorRefs(n, n.inputs[3].arg));
    if (xs.empty())
        return fail(nodeError(n, ErrorCode::Unsupported, "Scan requires at least one xs tensor"));
    const std::size_t nCarry = init.size();
    if (bindings.size() < nCarry)
        return fail(nodeError(n, ErrorCode::InvalidInput,
            "the node has " + std::to_string(bindings.size()) + " outputs but " + std::to_string(nCarry) + " carries"));
    // The stacked outputs are forced to DYNAMIC_BOUND, the carries keep their spec.
    for (std::size_t i = nCarry; i < bindings.size(); ++i)
        m_out.values[std::size_t(bindings[i])].dynamism = ShapeDynamism::DynamicBound;
    std::size_t bodyOutputs = 0;
    for (const auto& o : body.outputs)
        bodyOutputs += o.kind == ArgKind::None ? 0 : std::max<std::size_t>(o.names.size(), 1);
    if (bodyOutputs != bindings.size())
        return fail(nodeError(n, ErrorCode::Unsupported,
            "Scan combine_fn should output " + std::to_string(bindings.size()) + " carry/y values ("
                + std::to_string(nCarry) + " carry, " + std::to_string(bindings.size() - nCarry)
                + " y), but it returns " + std::to_string(bodyOutputs)));
    const int iter = newCounter(n.name + "_iter");
    const int count = newCounter(n.name + "_n");
    LInstr alloc;
    alloc.kind = LInstr::Kind::Alloc;
    alloc.allocs = bindings;
    alloc.allocs.push_back(iter);
    alloc.allocs.push_back(count);
    m_out.instrs.push_back(std::move(alloc));
    pushSynthetic(n, "aten::sym_size", "int", { LArg::tensor(xs[0]), LArg::integer(0), ref(count) });
    for (std::size_t c = 0; c < nCarry; ++c)
        pushSynthetic(n, "aten::copy_", "",
            { LArg::tensor(bindings[c]), LArg::tensor(init[c]), LArg::boolean(false), LArg::tensor(bindings[c]) });
    const int loop = m_labels++;
    LInstr head;
    head.kind = LInstr::Kind::Label;
    head.label = loop;
    m_out.instrs.push_back(head);
    std::vector<int> operands(bindings.begin(), bindings.begin() + std::ptrdiff_t(nCarry));
    for (std::size_t i = 0; i < xs.size(); ++i) {
        PTE_TRY(const int slice, newPlaceholderTensor(body, nCarry + i, n));
        pushSynthetic(n, "aten::select_copy", "int_out",
            { LArg::tensor(xs[i]), LArg::integer(0), ref(iter), LArg::tensor(slice), LArg::tensor(slice) });
        operands.push_back(slice);
    }
    operands.insert(operands.end(), additional.begin(), additional.end());
    PTE_TRY(const auto outs, lowerSubgraph(body, operands, nullptr, this->where(n) + " combine_fn"));
    for (std::size_t c = 0; c < nCarry; ++c)
        pushSynthetic(n, "aten::copy_", "",
            { LArg::tensor(bindings[c]), ref(outs[c]), LArg::boolean(false), LArg::tensor(bindings[c]) });
    for (std::size_t y = nCarry; y < bindings.size(); ++y)
        pushSynthetic(
            n, "executorch_prim::et_copy_index", "tensor", { LArg::tensor(bindings[y]), ref(outs[y]), ref(iter) });
    closeLoop(n, iter, count, loop);
    return {};
}

Result<void> Lowering::lowerCond(const Node& n)
{
    if (n.inputs.size() != 4 || n.inputs[1].arg.kind != ArgKind::Graph || n.inputs[2].arg.kind != ArgKind::Graph
        || !n.inputs[1].arg.graph || !n.inputs[2].arg.graph)
        return fail(nodeError(n, ErrorCode::InvalidInput, "cond expects (pred, true_graph, false_graph, operands)"));
    auto pred = convertUntyped(n.inputs[0].arg, this->where(n));
    if (!pred)
        return fail(withPath(n, pred.error()));
    std::vector<int> operands;
    for (const auto& nm : n.inputs[3].arg.names) {
        auto r = lookup(nm, this->where(n));
        if (!r)
            return fail(withPath(n, r.error()));
        operands.push_back(*r);
    }
    // Binding outputs first (values before the jump), like ExecuTorch.
    PTE_TRY(const auto bindings, nodeOutputs(n));
    // Some dumps refer to a one-element result by the node's own name.
    if (bindings.size() == 1 && !n.name.empty() && !lookup(n.name, {}))
        define(n.name, bindings[0]);
    LInstr alloc;
    alloc.kind = LInstr::Kind::Alloc;
    alloc.allocs = bindings;
    m_out.instrs.push_back(alloc);
    const int falseLabel = m_labels++;
    const int endLabel = m_labels++;
    LInstr j;
    j.kind = LInstr::Kind::JumpFalse;
    j.cond = std::move(*pred);
    j.label = falseLabel;
    j.origin = n.name;
    j.recordDebug = false;
    m_out.instrs.push_back(std::move(j));
    PTE_CHECK(lowerSubgraph(*n.inputs[1].arg.graph, operands, &bindings, this->where(n) + " true branch"));
    LInstr skip;
    skip.kind = LInstr::Kind::JumpFalse;
    skip.unconditional = true;
    skip.label = endLabel;
    skip.origin = n.name;
    skip.recordDebug = false;
    m_out.instrs.push_back(std::move(skip));
    LInstr lf;
    lf.kind = LInstr::Kind::Label;
    lf.label = falseLabel;
    m_out.instrs.push_back(lf);
    PTE_CHECK(lowerSubgraph(*n.inputs[2].arg.graph, operands, &bindings, this->where(n) + " false branch"));
    LInstr cf;
    cf.kind = LInstr::Kind::CondFalse;
    m_out.instrs.push_back(cf);
    LInstr le;
    le.kind = LInstr::Kind::Label;
    le.label = endLabel;
    m_out.instrs.push_back(le);
    return {};
}

} // namespace pte::emitcore
