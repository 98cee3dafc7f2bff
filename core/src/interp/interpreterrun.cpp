// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// A recorded run on the reference interpreter, its ETDump, and the check of a bundled test case.
#include "pte/interpreterrun.h"

#include "interp/tensorstate.h"
#include "pte/delegateinterpreter.h"
#include "pte/etdumpjoin.h"
#include "pte/etdumpwriter.h"
#include "pte/kernelarguments.h"
#include "pte/tensorshape.h"

#include <cmath>
#include <map>
#include <unordered_map>

namespace pte {

namespace {

std::uint64_t nanosecondsSince(std::chrono::steady_clock::time_point origin)
{
    const auto d = std::chrono::steady_clock::now() - origin;
    return std::uint64_t(std::max<std::int64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(d).count(), 0));
}

/** The value `id` as a RunValue (empty tensors when it cannot be read or is too big to record). */
RunValue readValue(
    const ReferenceInterpreter& interpreter, const ExecutionPlan& plan, std::int32_t id, std::size_t maxElements)
{
    RunValue v;
    v.value = id;
    if (id < 0 || std::size_t(id) >= plan.values.size())
        return v;
    v.kind = plan.values[std::size_t(id)].kind();
    auto add = [&](std::int32_t item) {
        auto h = interpreter.value(item);
        if (h && h->values.size() <= maxElements)
            v.tensors.push_back(std::move(h).value());
    };
    if (const auto* list = std::get_if<TensorList>(&plan.values[std::size_t(id)].val)) {
        for (const auto item : list->items)
            add(item);
    } else {
        add(id);
        if (!v.tensors.empty() && v.kind == ValueKind::Bool)
            v.tensors.front().dtype = ScalarType::Bool;
    }
    return v;
}

RunStop classify(const Error& e, const Instruction* failed)
{
    if (e.code == ErrorCode::Cancelled)
        return RunStop::Cancelled;
    if (e.code != ErrorCode::Unsupported)
        return RunStop::Failed;
    return failed && std::holds_alternative<KernelCall>(failed->args) ? RunStop::MissingOperator : RunStop::Unsupported;
}

} // namespace

const char* runtimeScalarTypeName(ScalarType t) noexcept
{
    static const char* const kNames[] = { "Byte", "Char", "Short", "Int", "Long", "Half", "Float", "Double",
        "ComplexHalf", "ComplexFloat", "ComplexDouble", "Bool", "QInt8", "QUInt8", "QInt32", "BFloat16", "QUInt4x2",
        "QUInt2x4", "Bits1x8", "Bits2x4", "Bits4x2", "Bits8", "Bits16", "Float8_e5m2", "Float8_e4m3fn",
        "Float8_e5m2fnuz", "Float8_e4m3fnuz", "UInt16", "UInt32", "UInt64" };
    const auto i = std::size_t(static_cast<std::int8_t>(t));
    return i < std::size(kNames) ? kNames[i] : "Unknown";
}

const char* runStopName(RunStop stop) noexcept
{
    switch (stop) {
    case RunStop::None:
        return "none";
    case RunStop::MissingOperator:
        return "missing_operator";
    case RunStop::Unsupported:
        return "unsupported";
    case RunStop::Failed:
        return "failed";
    case RunStop::Cancelled:
        return "cancelled";
    }
    return "?";
}

bool MethodRun::ok() const noexcept { return !loadError && !executions.empty() && executions.back().ok(); }

RunStop MethodRun::stop() const noexcept
{
    if (loadError)
        return loadStop;
    for (const auto& e : executions)
        if (!e.ok())
            return e.stop;
    return RunStop::None;
}

bool isPrimOperator(const Operator& op)
{
    return op.name.starts_with("executorch_prim::") || op.name == "aten::sym_size" || op.name == "aten::sym_numel"
        || op.name == "aten::_local_scalar_dense";
}

std::vector<std::int32_t> kernelLoggedValues(const ExecutionPlan& plan, const KernelCall& call)
{
    if (call.opIndex < 0 || std::size_t(call.opIndex) >= plan.operators.size() || call.args.empty())
        return {};
    const Operator& op = plan.operators[std::size_t(call.opIndex)];
    if (isPrimOperator(op))
        return {};
    const auto slots = kernelArguments(op.name, op.overload);
    if (slots.size() != call.args.size())
        return { call.args.back() };
    std::vector<std::int32_t> outs;
    for (std::size_t i = 0; i < slots.size(); ++i)
        if (slots[i].written && !slots[i].isReturn)
            outs.push_back(call.args[i]);
    if (outs.empty())
        for (std::size_t i = 0; i < slots.size(); ++i)
            if (slots[i].isReturn)
                outs.push_back(call.args[i]);
    return outs;
}

MethodRun runMethod(
    const Program& program, const std::string& method, const std::vector<HostTensor>& inputs, const RunOptions& options)
{
    MethodRun r;
    r.method = method;
    r.inputs = inputs;
    r.loadStart = nanosecondsSince(options.origin);
    auto loaded = ReferenceInterpreter::load(program, method, options.external);
    r.loadEnd = nanosecondsSince(options.origin);
    if (!loaded) {
        r.loadError = loaded.error();
        r.loadStop = loaded.error().code == ErrorCode::Unsupported ? RunStop::Unsupported : RunStop::Failed;
        return r;
    }
    ReferenceInterpreter& interpreter = **loaded;
    const ExecutionPlan& plan = *program.method(method);
    const auto& instructions = plan.chains.front().instructions;
    std::map<std::uint32_t, std::vector<std::int32_t>> logged; // per KernelCall, computed once
    RunExecution* current = nullptr;
    bool record = false;
    bool open = false; // an instruction started and has not finished
    // The delegate's outputs are the call's last arguments: how many, its handler says by what it returns.
    std::size_t delegateOutputs = 0;
    InnerNodeObserver innerNodes;
    if (options.intermediates && options.delegateNodes)
        innerNodes = [&](std::size_t, std::uint32_t node, const HostTensor& value) {
            if (!record || !open)
                return;
            RunInnerNode n;
            n.node = node;
            n.stats = tensorStats(value.values);
            if (value.values.size() <= options.maxInnerNodeElements) {
                n.value = value;
            } else {
                n.value.dtype = value.dtype;
                n.value.sizes = value.sizes;
            }
            current->instructions.back().innerNodes.push_back(std::move(n));
        };
    if (auto handler = referenceDelegateHandler(program, method, options.external, std::move(innerNodes)))
        interpreter.setDelegateHandler(
            [&delegateOutputs, handler = std::move(handler)](std::size_t index, const std::vector<HostTensor>& args) {
                auto out = handler(index, args);
                delegateOutputs = out ? out->size() : 0;
                return out;
            });
    interpreter.setInstructionObserver([&](std::size_t index, bool done) {
        if (!record)
            return;
        const auto now = nanosecondsSince(options.origin);
        if (!done) {
            RunInstruction ins;
            ins.instruction = std::uint32_t(index);
            ins.start = now;
            current->instructions.push_back(std::move(ins));
            open = true;
            return;
        }
        open = false;
        RunInstruction& ins = current->instructions.back();
        ins.end = now;
        if (const auto* d = std::get_if<DelegateCall>(&instructions[index].args)) {
            // The values the delegate wrote (its outputs, the call's last arguments), as a kernel's are recorded.
            if (options.intermediates)
                for (std::size_t a = d->args.size() - std::min(delegateOutputs, d->args.size()); a < d->args.size();
                     ++a)
                    ins.outputs.push_back(
                        readValue(interpreter, plan, std::int32_t(d->args[a]), options.maxRecordedElements));
            return;
        }
        const auto* k = std::get_if<KernelCall>(&instructions[index].args);
        if (!options.intermediates || !k)
            return;
        auto [it, inserted] = logged.try_emplace(std::uint32_t(index));
        if (inserted)
            it->second = kernelLoggedValues(plan, *k);
        for (const auto id : it->second)
            ins.outputs.push_back(readValue(interpreter, plan, id, options.maxRecordedElements));
        // The value's time is not the kernel's: the reads happen after `end`.
    });
    const std::uint32_t runs = std::max<std::uint32_t>(options.runs, 1);
    if (options.progress) {
        const std::uint64_t total = std::uint64_t(runs) * instructions.size();
        interpreter.setInterruptCheck([&options, total, done = std::uint64_t(0)](
                                          std::size_t) mutable { return !options.progress(done++, total); });
    }
    for (std::uint32_t run = 0; run < runs; ++run) {
        r.executions.emplace_back();
        current = &r.executions.back();
        record = options.recordEveryExecution || run + 1 == runs;
        current->start = nanosecondsSince(options.origin);
        auto outputs = interpreter.run(inputs);
        current->end = nanosecondsSince(options.origin);
        if (record && open)
            current->instructions.pop_back(); // the instruction that failed wrote nothing
        open = false;
        if (outputs) {
            current->outputs = std::move(outputs).value();
            // A Bool output reads back as a 0-D Long: give it its kind's dtype.
            for (std::size_t k = 0; k < current->outputs.size() && k < plan.outputs.size(); ++k) {
                const auto id = plan.outputs[k];
                if (id >= 0 && std::size_t(id) < plan.values.size()
                    && plan.values[std::size_t(id)].kind() == ValueKind::Bool)
                    current->outputs[k].dtype = ScalarType::Bool;
            }
            continue;
        }
        const auto at = interpreter.failedInstruction();
        const Instruction* failed = at && *at < instructions.size() ? &instructions[*at] : nullptr;
        current->error = outputs.error();
        current->stop = classify(outputs.error(), failed);
        if (at) {
            current->stoppedAt = std::uint32_t(*at);
            if (const auto* k = failed ? std::get_if<KernelCall>(&failed->args) : nullptr) {
                if (k->opIndex >= 0 && std::size_t(k->opIndex) < plan.operators.size())
                    current->stoppedOperator = plan.operators[std::size_t(k->opIndex)].qualifiedName();
            } else if (const auto* c = failed ? std::get_if<DelegateCall>(&failed->args) : nullptr) {
                const auto i = std::size_t(std::max(c->delegateIndex, 0));
                current->stoppedOperator = "DelegateCall " + (i < plan.delegates.size() ? plan.delegates[i].id : "?");
            }
        }
        break;
    }
    interpreter.setInstructionObserver({});
    interpreter.setInterruptCheck({});
    return r;
}

namespace {

/** Builds the EtDump model of recorded runs and the debug buffer beside it. */
class EtdumpBuilder
{
public:
    EtdumpBuilder(const Program& program, RunDebugLevel level)
        : m_program(program)
        , m_level(level)
    { }

    Result<void> add(const MethodRun& run)
    {
        const ExecutionPlan* plan = m_program.method(run.method);
        if (!plan)
            return fail(ErrorCode::InvalidInput, "the program has no method '" + run.method + "'");
        block("Default", -1);
        const auto loadLength = run.loadEnd - run.loadStart;
        profile("Method::init", -1, 0, run.loadStart + loadLength / 8, run.loadEnd - loadLength / 8);
        profile("Program::load_method", -1, 0, run.loadStart, run.loadEnd);
        close();
        if (run.loadError)
            return {};
        std::vector<std::string> kernelNames;
        for (const auto& op : plan->operators)
            kernelNames.push_back(isPrimOperator(op) ? std::string() : kernelEventName(op));
        const auto& instructions = plan->chains.front().instructions;
        for (const auto& ex : run.executions) {
            block("Execute", run.bundledCase);
            for (const auto& ri : ex.instructions) {
                if (ri.instruction >= instructions.size())
                    continue;
                const auto& ins = instructions[ri.instruction];
                const auto at = std::int32_t(ri.instruction);
                // A kernel's scope opens a little after OPERATOR_CALL's and closes before it (it is enclosed).
                const auto inner = (ri.end - ri.start) / 8;
                switch (ins.kind()) {
                case InstructionKind::KernelCall: {
                    const auto& k = std::get<KernelCall>(ins.args);
                    const bool known = k.opIndex >= 0 && std::size_t(k.opIndex) < kernelNames.size();
                    if (m_level == RunDebugLevel::Intermediates)
                        for (const auto& v : ri.outputs)
                            PTE_CHECK(debug(0, at, v, false));
                    if (known && !kernelNames[std::size_t(k.opIndex)].empty())
                        profile(kernelNames[std::size_t(k.opIndex)], 0, at, ri.start + inner, ri.end - inner);
                    profile("OPERATOR_CALL", 0, at, ri.start, ri.end);
                    break;
                }
                case InstructionKind::DelegateCall:
                    profile("DELEGATE_CALL", 0, at, ri.start, ri.end);
                    break;
                case InstructionKind::MoveCall:
                    profile("MOVE_CALL", 0, at, ri.start, ri.end);
                    break;
                case InstructionKind::JumpFalseCall:
                    profile("JF_CALL", 0, at, ri.start, ri.end);
                    break;
                case InstructionKind::FreeCall:
                    profile("FREE_CALL", 0, at, ri.start, ri.end);
                    break;
                case InstructionKind::None:
                    break;
                }
            }
            if (ex.ok()) {
                profile("Method::execute", -1, 0, ex.start, ex.end);
                if (m_level != RunDebugLevel::None)
                    for (std::size_t k = 0; k < ex.outputs.size() && k < plan->outputs.size(); ++k) {
                        RunValue v;
                        v.value = plan->outputs[k];
                        v.kind = v.value >= 0 && std::size_t(v.value) < plan->values.size()
                            ? plan->values[std::size_t(v.value)].kind()
                            : ValueKind::None;
                        v.tensors.push_back(ex.outputs[k]);
                        PTE_CHECK(debug(-1, 0, v, v.kind == ValueKind::Tensor));
                    }
            }
            close();
        }
        return {};
    }

    Result<RunEtdump> finish()
    {
        PTE_TRY(auto bytes, serializeEtdump(m_dump, true));
        RunEtdump out;
        out.etdump = std::move(bytes);
        out.debugBuffer = std::move(m_buffer);
        out.loggedValues = m_dump.values.size();
        return out;
    }

private:
    std::uint32_t intern(const std::string& s)
    {
        const auto [it, inserted] = m_ids.try_emplace(s, std::uint32_t(m_dump.strings.size()));
        if (inserted)
            m_dump.strings.push_back(s);
        return it->second;
    }

    void block(const std::string& name, std::int32_t bundledCase)
    {
        EtdumpRun run;
        run.name = name;
        run.bundledInputIndex = bundledCase;
        run.hasEvents = true;
        run.firstEvent = std::uint32_t(m_dump.events.size());
        m_dump.runs.push_back(std::move(run));
    }

    void close()
    {
        m_dump.runs.back().eventCount = std::uint32_t(m_dump.events.size()) - m_dump.runs.back().firstEvent;
    }

    void profile(
        const std::string& name, std::int64_t chain, std::int32_t instruction, std::uint64_t start, std::uint64_t end)
    {
        EtdumpEvent e;
        e.kind = EtdumpEventKind::Profile;
        e.name = intern(name);
        e.chainIndex = chain;
        e.instructionId = instruction;
        e.startTime = start;
        e.endTime = std::max(start, end);
        m_dump.events.push_back(e);
    }

    /** A tensor's bytes appended to the debug buffer (row-major), as its EtdumpTensor. */
    Result<EtdumpTensor> tensor(const HostTensor& h)
    {
        EtdumpTensor t;
        t.scalarType = h.dtype;
        t.sizes = h.sizes;
        t.strides = contiguousStrides(h.sizes);
        const std::size_t size = elementSize(h.dtype);
        if (!interp::supportedDtype(h.dtype) || size == 0)
            return fail(ErrorCode::Unsupported,
                std::string("a ") + runtimeScalarTypeName(h.dtype) + " tensor cannot be logged");
        if (h.values.empty())
            return t; // no bytes: offset -1
        t.offset = std::int64_t(m_buffer.size());
        m_buffer.resize(m_buffer.size() + h.values.size() * size);
        interp::TensorState state;
        state.dtype = h.dtype;
        state.sizes = { std::int64_t(h.values.size()) };
        state.data = m_buffer.data() + t.offset;
        state.capacity = h.values.size() * size;
        for (std::size_t e = 0; e < h.values.size(); ++e)
            state.set(e, h.values[e]);
        return t;
    }

    /** One debug event for `v` (skipped when it holds nothing that can be logged). */
    Result<void> debug(std::int64_t chain, std::int32_t instruction, const RunValue& v, bool output)
    {
        EtdumpValue value;
        switch (v.kind) {
        case ValueKind::Tensor:
        case ValueKind::TensorList:
            value.type = v.kind == ValueKind::Tensor ? EtdumpValueType::Tensor : EtdumpValueType::TensorList;
            if (v.kind == ValueKind::Tensor && v.tensors.size() != 1)
                return {};
            for (const auto& h : v.tensors) {
                auto t = tensor(h);
                if (!t)
                    return {};
                value.tensors.push_back(std::move(t).value());
            }
            break;
        case ValueKind::Int:
            if (v.tensors.empty() || v.tensors.front().values.empty())
                return {};
            value.type = EtdumpValueType::Int;
            value.intValue = std::int64_t(v.tensors.front().values.front());
            break;
        case ValueKind::Double:
            if (v.tensors.empty() || v.tensors.front().values.empty())
                return {};
            value.type = EtdumpValueType::Double;
            value.doubleValue = v.tensors.front().values.front();
            break;
        case ValueKind::Bool:
            if (v.tensors.empty() || v.tensors.front().values.empty())
                return {};
            value.type = EtdumpValueType::Bool;
            value.boolValue = v.tensors.front().values.front() != 0;
            break;
        default:
            return {}; // String, None, lists of scalars: the runtime's writer logs none of them
        }
        value.output = output;
        EtdumpEvent e;
        e.kind = EtdumpEventKind::Debug;
        e.chainIndex = chain;
        e.instructionId = instruction;
        e.payload = std::uint32_t(m_dump.values.size());
        m_dump.values.push_back(std::move(value));
        m_dump.events.push_back(e);
        return {};
    }

    const Program& m_program;
    RunDebugLevel m_level;
    EtDump m_dump;
    std::vector<std::uint8_t> m_buffer;
    std::unordered_map<std::string, std::uint32_t> m_ids;
};

} // namespace

Result<RunEtdump> runEtdump(const Program& program, std::span<const MethodRun> runs, RunDebugLevel level)
{
    EtdumpBuilder builder(program, level);
    for (const auto& run : runs)
        PTE_CHECK(builder.add(run));
    return builder.finish();
}

namespace {

/** Row-major coordinates of element `e` of a tensor of `sizes`. */
std::vector<std::int64_t> coordinates(const std::vector<std::int64_t>& sizes, std::size_t e)
{
    std::vector<std::int64_t> out(sizes.size(), 0);
    for (std::size_t k = sizes.size(); k-- > 0;) {
        const auto n = std::size_t(std::max<std::int64_t>(sizes[k], 1));
        out[k] = std::int64_t(e % n);
        e /= n;
    }
    return out;
}

OutputCheck checkTensor(
    std::size_t index, const BundledValue& expected, const HostTensor& actual, double rtol, double atol)
{
    OutputCheck c;
    c.output = index;
    if (expected.scalarType != actual.dtype) {
        c.problem = std::string("dtype ") + runtimeScalarTypeName(actual.dtype) + ", expected "
            + runtimeScalarTypeName(expected.scalarType);
        return c;
    }
    const std::vector<std::int64_t> sizes(expected.sizes.begin(), expected.sizes.end());
    if (sizes != actual.sizes) {
        auto text = [](const std::vector<std::int64_t>& v) {
            std::string s = "[";
            for (std::size_t i = 0; i < v.size(); ++i)
                s += (i ? ", " : "") + std::to_string(v[i]);
            return s + "]";
        };
        c.problem = "sizes " + text(actual.sizes) + ", expected " + text(sizes);
        return c;
    }
    auto values = bundledTensorValues(expected);
    if (!values) {
        c.problem = values.error().message;
        return c;
    }
    if (values->size() != actual.values.size()) {
        c.problem = std::to_string(actual.values.size()) + " elements, expected " + std::to_string(values->size());
        return c;
    }
    const ScalarType t = actual.dtype;
    const bool floating = t == ScalarType::Float || t == ScalarType::Double || t == ScalarType::Half;
    c.elements = values->size();
    double worstExcess = -INFINITY;
    for (std::size_t e = 0; e < values->size(); ++e) {
        const double a = (*values)[e]; // ExecuTorch's `a`: the bundled (expected) element
        const double b = actual.values[e]; // `b`: the method's output
        double error = 0;
        double allowed = 0;
        bool close = true;
        if (!floating) {
            close = a == b || (std::isnan(a) && std::isnan(b)); // compared as bytes by ExecuTorch
            error = std::fabs(a - b);
        } else if (std::isnan(a) && std::isnan(b)) {
        } else if (!std::isfinite(a) && !std::isfinite(b) && (a > 0) == (b > 0)) {
        } else if (rtol == 0 && atol == 0) {
            close = a == b;
            error = std::fabs(a - b);
        } else {
            allowed = atol + std::fabs(rtol * b);
            // Float elements subtract in float, as elem_is_close<float> does.
            error = t == ScalarType::Float ? double(std::fabs(float(a) - float(b))) : std::fabs(a - b);
            close = std::isfinite(error) && error <= allowed;
        }
        if (!close)
            ++c.mismatched;
        if (std::isfinite(error))
            c.maxAbsError = std::max(c.maxAbsError, error);
        // The worst: the largest excess over the allowed error (an infinite or NaN error first).
        const double excess = !close && !std::isfinite(error) ? INFINITY : error - allowed;
        if (!c.worst || excess > worstExcess) {
            worstExcess = excess;
            c.worst = e;
            c.worstExpected = a;
            c.worstActual = b;
            c.worstError = error;
            c.worstAllowed = allowed;
        }
    }
    if (c.worst)
        c.worstIndex = coordinates(actual.sizes, *c.worst);
    c.ok = c.mismatched == 0;
    return c;
}

OutputCheck checkScalar(
    std::size_t index, const BundledValue& expected, const HostTensor& actual, double rtol, double atol)
{
    OutputCheck c;
    c.output = index;
    if (actual.values.size() != 1 || !actual.sizes.empty()) {
        c.problem = std::string("a tensor, expected ") + bundledValueKindName(expected.kind);
        return c;
    }
    const double b = actual.values.front();
    double a = 0;
    double allowed = 0;
    switch (expected.kind) {
    case BundledValue::Kind::Int:
        a = double(expected.intValue);
        break;
    case BundledValue::Kind::Bool:
        a = expected.boolValue ? 1 : 0;
        break;
    case BundledValue::Kind::Double:
        a = expected.doubleValue;
        allowed = atol + std::fabs(rtol * b);
        break;
    default:
        c.problem = std::string("expected ") + bundledValueKindName(expected.kind) + ", which cannot be compared";
        return c;
    }
    c.elements = 1;
    c.worst = 0;
    c.worstExpected = a;
    c.worstActual = b;
    c.worstError = std::fabs(a - b);
    c.worstAllowed = allowed;
    c.maxAbsError = std::isfinite(c.worstError) ? c.worstError : 0;
    c.ok = a == b || (std::isnan(a) && std::isnan(b)) || c.worstError <= allowed;
    c.mismatched = c.ok ? 0 : 1;
    return c;
}

} // namespace

Result<CaseCheck> checkBundledCase(const BundledProgram& bundled, const ExecutionPlan& plan, std::size_t testCase,
    std::span<const HostTensor> outputs, double rtol, double atol)
{
    const auto* suite = bundled.suite(plan.name);
    if (!suite)
        return fail(ErrorCode::InvalidInput, "the bundled program has no test suite for method '" + plan.name + "'");
    if (testCase >= suite->testCases.size())
        return fail(ErrorCode::InvalidInput,
            "method '" + plan.name + "' has " + std::to_string(suite->testCases.size())
                + " bundled test cases; there is no case " + std::to_string(testCase));
    const auto& expected = suite->testCases[testCase].expectedOutputs;
    CaseCheck c;
    c.testCase = testCase;
    if (expected.empty()) {
        c.problem = "the test case has no expected outputs";
        return c;
    }
    if (expected.size() != outputs.size()) {
        c.problem = "the test case expects " + std::to_string(expected.size()) + " outputs; the method returned "
            + std::to_string(outputs.size());
        return c;
    }
    c.ok = true;
    for (std::size_t k = 0; k < expected.size(); ++k) {
        const auto& x = expected[k];
        auto check = x.kind == BundledValue::Kind::Tensor ? checkTensor(k, x, outputs[k], rtol, atol)
                                                          : checkScalar(k, x, outputs[k], rtol, atol);
        c.ok = c.ok && check.ok;
        c.outputs.push_back(std::move(check));
    }
    return c;
}

} // namespace pte
