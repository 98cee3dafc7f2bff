// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// A recorded run, value by value: what the GUI's Run shows (docs/gui-run.md).
#include "pte/runvalues.h"

#include "pte/referenceinputs.h"

#include <algorithm>

namespace pte {

namespace {

/** The facts of value `id` holding `tensors` (a TensorList's items, else one). */
RunValueFacts factsOf(const ExecutionPlan& plan, std::int32_t id, const std::vector<HostTensor>& tensors)
{
    RunValueFacts f;
    f.value = id;
    if (id >= 0 && std::size_t(id) < plan.values.size())
        f.kind = plan.values[std::size_t(id)].kind();
    f.tensors = tensors.size();
    if (tensors.empty()) {
        f.problem = "not recorded (too many elements, or a dtype the interpreter cannot read)";
        return f;
    }
    f.dtype = tensors.front().dtype;
    f.sizes = tensors.front().sizes;
    std::vector<double> all;
    for (const auto& t : tensors)
        all.insert(all.end(), t.values.begin(), t.values.end());
    if (tensors.size() == 1 && !tensors.front().text.empty() && all.empty())
        f.problem = "a String";
    else
        f.stats = tensorStats(all);
    return f;
}

/** A value with no recorded contents: why (a constant, a scalar the program stores, not written yet). */
RunValueFacts unrecorded(const ExecutionPlan& plan, std::int32_t id)
{
    RunValueFacts f;
    f.value = id;
    if (id < 0 || std::size_t(id) >= plan.values.size()) {
        f.problem = "no such value";
        return f;
    }
    const EValue& v = plan.values[std::size_t(id)];
    f.kind = v.kind();
    if (const auto* t = v.tensor()) {
        f.dtype = t->scalarType;
        f.sizes.assign(t->sizes.begin(), t->sizes.end());
        f.problem = !t->allocationInfo && (t->dataBufferIdx > 0 || t->extraTensorInfo) ? "a constant (not recorded)"
                                                                                       : "not written by the run";
        return f;
    }
    // Scalars the program stores are read as they are.
    const HostTensor h = storedScalar(v);
    if (h.values.empty()) {
        f.problem = std::string("a ") + valueKindName(v.kind()) + " (no numbers)";
        return f;
    }
    f = factsOf(plan, id, { h });
    f.problem.clear();
    return f;
}

const RunExecution* lastExecution(const MethodRun& run)
{
    return run.executions.empty() ? nullptr : &run.executions.back();
}

std::int32_t indexIn(const std::vector<std::int32_t>& ids, std::int32_t id)
{
    const auto it = std::find(ids.begin(), ids.end(), id);
    return it == ids.end() ? -1 : std::int32_t(it - ids.begin());
}

/** The arguments instruction `ins` reads and the values it writes (a KernelCall's logged values). */
void argumentsOf(const ExecutionPlan& plan, const Instruction& ins, std::vector<std::int32_t>& reads,
    std::vector<std::int32_t>& writes)
{
    if (const auto* k = std::get_if<KernelCall>(&ins.args)) {
        writes = kernelLoggedValues(plan, *k);
        for (const auto a : k->args)
            if (indexIn(writes, a) < 0)
                reads.push_back(a);
    } else if (const auto* d = std::get_if<DelegateCall>(&ins.args)) {
        reads = d->args;
    } else if (const auto* m = std::get_if<MoveCall>(&ins.args)) {
        reads = { m->moveFrom };
        writes = { m->moveTo };
    } else if (const auto* j = std::get_if<JumpFalseCall>(&ins.args)) {
        reads = { j->condValueIndex };
    } else if (const auto* f = std::get_if<FreeCall>(&ins.args)) {
        reads = { f->valueIndex };
    }
}

} // namespace

RunSummary summarizeRun(
    const ExecutionPlan& plan, const MethodRun& run, const BundledProgram* bundled, double rtol, double atol)
{
    RunSummary s;
    s.stop = run.stop();
    if (run.loadError) {
        s.stopReason = run.loadError->message;
        return s;
    }
    for (std::size_t k = 0; k < run.inputs.size() && k < plan.inputs.size(); ++k) {
        auto f = factsOf(plan, plan.inputs[k], { run.inputs[k] });
        f.input = std::int32_t(k);
        s.values[f.value] = std::move(f);
    }
    const RunExecution* x = lastExecution(run);
    if (!x)
        return s;
    s.instructionsRun = x->instructions.size();
    for (const auto& ri : x->instructions) {
        for (const auto& v : ri.outputs) {
            auto f = factsOf(plan, v.value, v.tensors);
            f.instruction = std::int32_t(ri.instruction);
            f.input = indexIn(plan.inputs, v.value);
            s.values[v.value] = std::move(f);
        }
        if (ri.innerNodes.empty())
            continue;
        auto& nodes = s.innerNodes[ri.instruction];
        nodes.clear();
        for (const auto& n : ri.innerNodes) {
            RunInnerNodeFacts f;
            f.node = n.node;
            f.sizes = n.value.sizes;
            f.stats = n.stats;
            nodes[n.node] = std::move(f);
        }
    }
    if (!x->ok()) {
        s.stoppedAt = x->stoppedAt;
        s.stoppedOperator = x->stoppedOperator;
        s.stopReason = x->error ? x->error->message : std::string(runStopName(x->stop));
        return s;
    }
    const BundledTestCase* expected = nullptr;
    if (bundled && run.bundledCase >= 0) {
        const auto* suite = bundled->suite(plan.name);
        if (suite && std::size_t(run.bundledCase) < suite->testCases.size())
            expected = &suite->testCases[std::size_t(run.bundledCase)];
        if (auto c = checkBundledCase(*bundled, plan, std::size_t(run.bundledCase), x->outputs, rtol, atol))
            s.check = std::move(c).value();
    }
    for (std::size_t k = 0; k < x->outputs.size() && k < plan.outputs.size(); ++k) {
        const std::int32_t id = plan.outputs[k];
        auto& f = s.values[id];
        const std::int32_t writer = f.value == id ? f.instruction : -1;
        f = factsOf(plan, id, { x->outputs[k] });
        f.instruction = writer;
        f.input = indexIn(plan.inputs, id);
        f.output = std::int32_t(k);
        if (expected && k < expected->expectedOutputs.size() && f.stats) {
            if (auto want = bundledTensorValues(expected->expectedOutputs[k]))
                if (auto gap = numericGap(*want, x->outputs[k].values)) {
                    f.gap = *gap;
                    f.expectedFrom = "bundled test case " + std::to_string(run.bundledCase);
                }
        }
        if (s.check)
            for (const auto& o : s.check->outputs)
                if (o.output == k)
                    f.check = o;
    }
    return s;
}

std::optional<StepValues> stepValues(const ExecutionPlan& plan, const MethodRun& run, std::uint32_t instruction)
{
    const RunExecution* x = lastExecution(run);
    if (!x || plan.chains.empty() || instruction >= plan.chains.front().instructions.size())
        return std::nullopt;
    StepValues out;
    out.instruction = instruction;
    std::optional<std::size_t> step;
    for (std::size_t i = x->instructions.size(); i-- > 0;)
        if (x->instructions[i].instruction == instruction) {
            step = i;
            break;
        }
    if (!step) {
        if (x->stoppedAt != instruction)
            return std::nullopt;
        out.stopped = true;
        step = x->instructions.size(); // after every recorded one
    }
    out.step = *step;
    std::vector<std::int32_t> reads, writes;
    argumentsOf(plan, plan.chains.front().instructions[instruction], reads, writes);
    if (!out.stopped && std::holds_alternative<DelegateCall>(plan.chains.front().instructions[instruction].args))
        for (const auto& v : x->instructions[*step].outputs) { // the delegate's outputs: written, not read
            writes.push_back(v.value);
            reads.erase(std::remove(reads.begin(), reads.end(), v.value), reads.end());
        }
    for (const auto id : reads) {
        // The last write before this step, else the method input, else what the program stores.
        std::optional<RunValueFacts> f;
        for (std::size_t i = *step; i-- > 0 && !f;)
            for (const auto& v : x->instructions[i].outputs)
                if (v.value == id) {
                    f = factsOf(plan, id, v.tensors);
                    f->instruction = std::int32_t(x->instructions[i].instruction);
                }
        if (!f) {
            const auto k = indexIn(plan.inputs, id);
            if (k >= 0 && std::size_t(k) < run.inputs.size()) {
                f = factsOf(plan, id, { run.inputs[std::size_t(k)] });
                f->input = k;
            } else {
                f = unrecorded(plan, id);
            }
        }
        out.reads.push_back(std::move(*f));
    }
    if (!out.stopped) {
        const auto& ri = x->instructions[*step];
        for (const auto id : writes) {
            const auto it =
                std::find_if(ri.outputs.begin(), ri.outputs.end(), [id](const auto& v) { return v.value == id; });
            RunValueFacts f = it != ri.outputs.end() ? factsOf(plan, id, it->tensors) : unrecorded(plan, id);
            if (it == ri.outputs.end() && f.problem.empty())
                f.problem = "not recorded";
            f.instruction = std::int32_t(instruction);
            out.writes.push_back(std::move(f));
        }
    }
    return out;
}

} // namespace pte
