// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// Logged values against the reference interpreter's run of the same method on the same inputs.
#include "pte/referencegap.h"

#include "pte/delegateinterpreter.h"
#include "pte/referenceinterpreter.h"

#include <map>
#include <tuple>

namespace pte {

namespace {

/** The first joined execution block of method `index`, or nullopt. */
std::optional<std::uint32_t> firstExecution(const EtdumpJoin& join, int index)
{
    for (std::size_t r = 0; r < join.runs.size(); ++r) {
        const auto& rj = join.runs[r];
        if (rj.joined && rj.kind != EtdumpRunKind::Load && rj.method == index)
            return std::uint32_t(r);
    }
    return std::nullopt;
}

/** The logged value's numbers: a tensor's elements or a scalar; an error saying why there are none. */
Result<std::vector<double>> loggedNumbers(const EtDump& dump, const EtdumpValue& v, std::size_t maxElements)
{
    switch (v.type) {
    case EtdumpValueType::Tensor:
        if (v.tensors.empty())
            return fail(ErrorCode::InvalidInput, "a Tensor value without its tensor");
        return loggedTensorValues(dump, v.tensors.front(), maxElements);
    case EtdumpValueType::Int:
        return std::vector<double> { double(v.intValue) };
    case EtdumpValueType::Bool:
        return std::vector<double> { v.boolValue ? 1.0 : 0.0 };
    case EtdumpValueType::Float:
    case EtdumpValueType::Double:
        return std::vector<double> { v.doubleValue };
    default:
        return fail(ErrorCode::Unsupported, std::string("a ") + etdumpValueTypeName(v.type) + " is not compared");
    }
}

/** (instruction, occurrence, value) -> the interpreter's elements after that KernelCall or DelegateCall. */
using Recorded = std::map<std::tuple<std::int32_t, std::uint32_t, std::int32_t>, std::vector<double>>;

} // namespace

Result<ReferenceGap> referenceGap(const EtdumpJoin& join, const std::string& method, const ReferenceInputs& inputs,
    const ReferenceGapOptions& options)
{
    if (!join.dump || !join.sources || !join.sources->program)
        return fail(ErrorCode::InvalidInput, "the ETDump is joined with no program");
    const EtDump& dump = *join.dump;
    const Program& program = *join.sources->program;
    const int methodIndex = join.sources->methodIndex(method);
    const ExecutionPlan* plan = program.method(method);
    const auto run = methodIndex < 0 || !plan ? std::nullopt : firstExecution(join, methodIndex);
    if (!run)
        return fail(ErrorCode::InvalidInput, dump.path + ": no execution of method '" + method + "' was joined");
    ReferenceGap out;
    out.method = method;
    out.run = *run;
    out.inputSource = inputs.source;
    out.inputsAssumed = inputs.assumed;

    // The rows, and what the interpreter must record for them: the n-th logging of an instruction's value is its
    // n-th execution.
    std::map<std::pair<std::int32_t, std::int32_t>, std::uint32_t> seen;
    std::map<std::int32_t, std::uint32_t> wantedOccurrences; // instruction -> how many executions to observe
    std::map<std::int32_t, std::vector<std::int32_t>> wantedValues; // instruction -> the values it logged
    std::vector<std::uint32_t> occurrence;
    const auto& block = dump.runs[*run];
    for (std::uint32_t i = block.firstEvent; i < block.firstEvent + block.eventCount && i < dump.events.size(); ++i) {
        const auto& e = dump.events[i];
        if (e.kind != EtdumpEventKind::Debug)
            continue;
        const auto& j = join.events[i];
        ReferenceGapRow row;
        row.event = i;
        row.value = j.value;
        row.outputIndex = j.outputIndex;
        std::uint32_t n = 0;
        if (j.outputIndex < 0) {
            row.instruction = j.instruction;
            const Instruction* ins = join.instruction(j);
            const auto* k = ins ? std::get_if<KernelCall>(&ins->args) : nullptr;
            const auto* d = ins ? std::get_if<DelegateCall>(&ins->args) : nullptr;
            if (k || d) {
                // A DelegateCall's logged values are its outputs: the interpreter has them when it runs the delegate
                // (XNNPACK graphs, pte/delegateinterpreter.h); otherwise the run stops there, and says so.
                if (k && k->opIndex >= 0 && std::size_t(k->opIndex) < plan->operators.size())
                    row.op = plan->operators[std::size_t(k->opIndex)].qualifiedName();
                if (d && d->delegateIndex >= 0 && std::size_t(d->delegateIndex) < plan->delegates.size())
                    row.op = "delegate " + plan->delegates[std::size_t(d->delegateIndex)].id;
                if (j.value >= 0 && j.chain == 0) {
                    n = seen[{ j.instruction, j.value }]++;
                    auto& want = wantedOccurrences[j.instruction];
                    want = std::max(want, n + 1);
                    if (n == 0)
                        wantedValues[j.instruction].push_back(j.value);
                }
            } else if (j.chain > 0) {
                row.reason = "chain " + std::to_string(j.chain) + " (the reference interpreter runs chain 0 only)";
            } else {
                row.reason = "not logged by a KernelCall";
            }
        }
        if (row.reason.empty() && j.value < 0)
            row.reason = "not tied to a program value";
        occurrence.push_back(n);
        out.rows.push_back(std::move(row));
    }

    // The reference run, observing the KernelCalls and DelegateCalls that logged something.
    Recorded recorded;
    std::vector<HostTensor> outputs;
    bool finished = false;
    auto interpreter = ReferenceInterpreter::load(program, method, options.external);
    if (!interpreter) {
        out.interpreterProblem = interpreter.error().message;
    } else {
        auto* rt = interpreter->get();
        rt->setDelegateHandler(referenceDelegateHandler(program, method, options.external));
        std::map<std::int32_t, std::uint32_t> executions;
        rt->setInstructionObserver([&](std::size_t pc, bool done) {
            const auto instruction = std::int32_t(pc);
            if (!done)
                return;
            const auto want = wantedOccurrences.find(instruction);
            if (want == wantedOccurrences.end())
                return;
            const std::uint32_t n = executions[instruction]++;
            if (n >= want->second)
                return;
            for (const auto id : wantedValues[instruction])
                if (auto v = rt->value(id); v && v->values.size() <= options.maxElements)
                    recorded[{ instruction, n, id }] = std::move(v->values);
        });
        auto result = rt->run(inputs.values);
        if (result) {
            outputs = std::move(result).value();
            finished = true;
        } else {
            out.interpreterProblem = result.error().message;
        }
    }
    const std::string stopped = out.interpreterProblem.empty() ? std::string()
        : interpreter ? "the reference interpreter stopped: " + out.interpreterProblem
                      : "the reference interpreter cannot run the method: " + out.interpreterProblem;

    for (std::size_t r = 0; r < out.rows.size(); ++r) {
        auto& row = out.rows[r];
        if (!row.reason.empty())
            continue;
        const std::vector<double>* want = nullptr;
        if (row.outputIndex >= 0) {
            if (finished && std::size_t(row.outputIndex) < outputs.size())
                want = &outputs[std::size_t(row.outputIndex)].values;
        } else if (const auto it = recorded.find({ row.instruction, occurrence[r], row.value }); it != recorded.end()) {
            want = &it->second;
        }
        if (!want) {
            row.reason = !stopped.empty() ? stopped
                : row.outputIndex >= 0    ? "the reference run has no output " + std::to_string(row.outputIndex)
                                          : "the reference run did not log value " + std::to_string(row.value)
                    + " at instruction " + std::to_string(row.instruction);
            continue;
        }
        const auto* logged = dump.value(dump.events[row.event]);
        auto actual = logged ? loggedNumbers(dump, *logged, options.maxElements)
                             : Result<std::vector<double>>(fail(ErrorCode::InvalidInput, "no value"));
        if (!actual) {
            row.reason = actual.error().message;
            continue;
        }
        auto gap = numericGap(*want, *actual);
        if (!gap) {
            row.reason = "the reference has " + std::to_string(want->size()) + " elements, the run logged "
                + std::to_string(actual->size());
            continue;
        }
        row.gap = *gap;
        row.expected = *want;
    }
    return out;
}

} // namespace pte
