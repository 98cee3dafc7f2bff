// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "pte/methoddataflow.h"

#include "pte/kernelarguments.h"

#include <algorithm>
#include <iterator>
#include <map>
#include <optional>
#include <set>
#include <tuple>

namespace pte {

namespace {

/**
 * The last writer of each byte of planned memory, per memory id: disjoint [begin, end) segments, each with the
 * node that wrote it and the value it wrote. A value read after another value was written to (part of) its bytes
 * reads what that one wrote: an elided view, or memory the plan shares.
 */
class PlannedMemoryWrites
{
public:
    struct Writer
    {
        std::int32_t node = -1;
        std::int32_t value = -1;
    };
    void write(std::uint32_t memoryId, std::uint64_t begin, std::uint64_t end, Writer writer)
    {
        if (begin >= end)
            return;
        auto& segs = m_memory[memoryId];
        auto it = segs.lower_bound(begin);
        if (it != segs.begin()) {
            auto prev = std::prev(it);
            if (prev->second.end > begin) {
                if (prev->second.end > end)
                    segs.emplace(end, prev->second); // the part after the new write keeps its writer
                prev->second.end = begin;
            }
        }
        it = segs.lower_bound(begin);
        while (it != segs.end() && it->first < end) {
            if (it->second.end > end) {
                const Segment rest = it->second;
                segs.erase(it);
                segs.emplace(end, rest);
                break;
            }
            it = segs.erase(it);
        }
        segs[begin] = Segment { end, writer };
    }
    /** The latest writer of any byte in [begin, end), or node -1. */
    [[nodiscard]] Writer latest(std::uint32_t memoryId, std::uint64_t begin, std::uint64_t end) const
    {
        Writer best;
        const auto m = m_memory.find(memoryId);
        if (m == m_memory.end() || begin >= end)
            return best;
        auto it = m->second.upper_bound(begin);
        if (it != m->second.begin())
            --it;
        for (; it != m->second.end() && it->first < end; ++it)
            if (it->second.end > begin && it->second.writer.node > best.node)
                best = it->second.writer;
        return best;
    }

private:
    struct Segment
    {
        std::uint64_t end = 0;
        Writer writer;
    };
    std::map<std::uint32_t, std::map<std::uint64_t, Segment>> m_memory;
};

/** Builds the flow of one plan; see methodDataFlow. */
class FlowBuilder
{
public:
    explicit FlowBuilder(const ExecutionPlan& plan)
        : m_plan(plan)
        , m_producer(plan.values.size(), -1)
    { }

    /** A tensor that is not a constant (the values that take part). */
    [[nodiscard]] bool valid(std::int32_t v) const
    {
        if (v < 0 || std::size_t(v) >= m_plan.values.size())
            return false;
        const auto* t = m_plan.values[std::size_t(v)].tensor();
        return t && !(t->dataBufferIdx > 0 && !t->allocationInfo);
    }
    [[nodiscard]] std::int32_t producer(std::int32_t v) const { return m_producer[std::size_t(v)]; }

    void write(std::int32_t v, std::int32_t node)
    {
        if (!valid(v))
            return;
        m_producer[std::size_t(v)] = node;
        auto& writes = m_flow.nodes[std::size_t(node)].writes;
        if (std::find(writes.begin(), writes.end(), v) == writes.end())
            writes.push_back(v);
        if (const auto r = region(v))
            m_memory.write(std::get<0>(*r), std::get<1>(*r), std::get<2>(*r), { node, v });
    }
    /** From the last writer of the value, or from a later write to its planned bytes by another value. */
    void read(std::int32_t v, std::int32_t node)
    {
        if (!valid(v))
            return;
        DataFlowRead r { v, m_producer[std::size_t(v)], v };
        if (const auto bytes = region(v)) {
            const auto w = m_memory.latest(std::get<0>(*bytes), std::get<1>(*bytes), std::get<2>(*bytes));
            if (w.node > r.from && w.value != v) {
                r.from = w.node;
                r.writtenValue = w.value;
            }
        }
        m_flow.nodes[std::size_t(node)].reads.push_back(r);
        if (r.from >= 0 && r.from != node && m_seen.insert({ r.from, node }).second)
            m_flow.edges.push_back(DataFlowEdge { r.from, node, r.throughMemory(), v, r.writtenValue });
    }
    /** `f` on a value and, for a TensorList, on its items. */
    template <typename F> void withItems(std::int32_t v, F&& f)
    {
        f(v);
        if (v >= 0 && std::size_t(v) < m_plan.values.size())
            if (const auto* tl = std::get_if<TensorList>(&m_plan.values[std::size_t(v)].val))
                for (const auto item : tl->items)
                    f(item);
    }

    MethodDataFlow m_flow;

private:
    [[nodiscard]] std::optional<std::tuple<std::uint32_t, std::uint64_t, std::uint64_t>> region(std::int32_t v) const
    {
        const auto* t = m_plan.values[std::size_t(v)].tensor();
        if (!t || !t->allocationInfo)
            return std::nullopt;
        const std::uint64_t begin = t->allocationInfo->offset();
        return std::tuple(t->allocationInfo->memoryId, begin, begin + t->nbytes().value_or(0));
    }

    const ExecutionPlan& m_plan;
    std::vector<std::int32_t> m_producer; ///< value id -> node that last wrote it
    PlannedMemoryWrites m_memory;
    std::set<std::pair<std::int32_t, std::int32_t>> m_seen;
};

} // namespace

std::vector<MemoryAlias> MethodDataFlow::aliases() const
{
    std::vector<MemoryAlias> out;
    std::set<std::pair<std::int32_t, std::int32_t>> seen;
    for (const auto& n : nodes)
        for (const auto& r : n.reads)
            if (r.throughMemory() && seen.insert({ r.value, r.writtenValue }).second)
                out.push_back(MemoryAlias { r.value, r.writtenValue });
    return out;
}

Result<MethodDataFlow> methodDataFlow(const ExecutionPlan& plan, const std::atomic<bool>* cancel)
{
    FlowBuilder b(plan);
    auto& flow = b.m_flow;
    const auto& instructions = plan.chains.empty() ? std::vector<Instruction> {} : plan.chains[0].instructions;
    flow.inputCount = std::int32_t(plan.inputs.size());
    flow.nodes.reserve(plan.inputs.size() + instructions.size() + 1);
    for (std::size_t k = 0; k < plan.inputs.size(); ++k) {
        flow.nodes.push_back(DataFlowNode { DataFlowNode::Kind::Input, std::int32_t(k), {}, {} });
        b.write(plan.inputs[k], std::int32_t(k));
    }
    std::vector<std::vector<KernelArgumentInfo>> opArgs;
    opArgs.reserve(plan.operators.size());
    for (const auto& op : plan.operators)
        opArgs.push_back(kernelArguments(op.name, op.overload));
    for (std::size_t i = 0; i < instructions.size(); ++i) {
        if (cancel && (i & 4095) == 0 && cancel->load())
            return fail(ErrorCode::Cancelled, "data flow cancelled");
        const auto& ins = instructions[i];
        const std::int32_t node = flow.instructionNode(std::int32_t(i));
        flow.nodes.push_back(DataFlowNode { DataFlowNode::Kind::Instruction, std::int32_t(i), {}, {} });
        std::vector<std::int32_t> args;
        const std::vector<KernelArgumentInfo>* schema = nullptr; ///< which arguments the kernel writes
        if (const auto* k = std::get_if<KernelCall>(&ins.args)) {
            args = k->args;
            if (k->opIndex >= 0 && std::size_t(k->opIndex) < opArgs.size()
                && opArgs[std::size_t(k->opIndex)].size() == args.size())
                schema = &opArgs[std::size_t(k->opIndex)];
        } else if (const auto* d = std::get_if<DelegateCall>(&ins.args)) {
            args = d->args;
        } else if (const auto* j = std::get_if<JumpFalseCall>(&ins.args)) {
            args = { j->condValueIndex };
        } else if (const auto* f = std::get_if<FreeCall>(&ins.args)) {
            args = { f->valueIndex };
        }
        if (schema) {
            // Reads first, then writes; an argument written in place (Tensor(a!) self) is read too.
            for (std::size_t k = 0; k < args.size(); ++k)
                if (!(*schema)[k].written || (!(*schema)[k].isReturn && b.valid(args[k]) && b.producer(args[k]) >= 0))
                    b.withItems(args[k], [&](std::int32_t v) { b.read(v, node); });
            for (std::size_t k = 0; k < args.size(); ++k)
                if ((*schema)[k].written)
                    b.withItems(args[k], [&](std::int32_t v) { b.write(v, node); });
        } else if (const auto* m = std::get_if<MoveCall>(&ins.args)) {
            b.read(m->moveFrom, node);
            b.write(m->moveTo, node);
        } else {
            // No schema (delegates, custom ops): the first instruction to reference a value is taken as its writer
            // (out-variant kernels and delegate calls write their trailing arguments).
            for (const auto a : args)
                b.withItems(a, [&](std::int32_t v) {
                    if (!b.valid(v))
                        return;
                    if (b.producer(v) < 0)
                        b.write(v, node);
                    else
                        b.read(v, node);
                });
        }
    }
    const auto outNode = std::int32_t(flow.nodes.size());
    flow.nodes.push_back(DataFlowNode { DataFlowNode::Kind::Output, 0, {}, {} });
    for (const auto v : plan.outputs)
        if (v >= 0 && std::size_t(v) < plan.values.size())
            b.read(v, outNode);
    return std::move(flow);
}

} // namespace pte
