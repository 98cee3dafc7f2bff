// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "pte/referenceinterpreter.h"

#include "interp/interpreterimpl.h"
#include "pte/ptereader.h"

#include <algorithm>
#include <cstring>

namespace pte {

using interp::heldDtype;
using interp::Slot;
using interp::supportedDtype;
using interp::TensorState;

Result<void> ReferenceInterpreter::Impl::prepare()
{
    arenas.clear();
    for (const auto size : plan->nonConstBufferSizes)
        arenas.emplace_back(std::size_t(std::max<std::int64_t>(size, 0)), std::uint8_t(0xA5)); // garbage, not zeros
    initial.assign(plan->values.size(), {});
    for (std::size_t id = 0; id < plan->values.size(); ++id) {
        const EValue& v = plan->values[id];
        Slot& s = initial[id];
        s.kind = v.kind();
        std::visit(
            [&](const auto& x) {
                using T = std::decay_t<decltype(x)>;
                if constexpr (std::is_same_v<T, Int>)
                    s.i = x.intVal;
                else if constexpr (std::is_same_v<T, Double>)
                    s.d = x.doubleVal;
                else if constexpr (std::is_same_v<T, Bool>)
                    s.b = x.boolVal;
                else if constexpr (std::is_same_v<T, String>)
                    s.s = x.stringVal;
                else if constexpr (std::is_same_v<T, IntList>)
                    s.ids = x.items;
                else if constexpr (std::is_same_v<T, DoubleList>)
                    s.doubles = x.items;
                else if constexpr (std::is_same_v<T, BoolList>)
                    s.bools = x.items;
                else if constexpr (std::is_same_v<T, TensorList> || std::is_same_v<T, OptionalTensorList>)
                    s.ids.assign(x.items.begin(), x.items.end());
            },
            v.val);
        const Tensor* t = v.tensor();
        if (!t)
            continue;
        const std::string what = "method '" + plan->name + "', value " + std::to_string(id);
        if (!heldDtype(t->scalarType))
            return fail(ErrorCode::Unsupported,
                what + ": " + scalarTypeShortName(t->scalarType)
                    + " tensors are not supported by the reference "
                      "runtime");
        if (t->dimOrder.size() != t->sizes.size() || t->sizes.size() > 16)
            return fail(ErrorCode::InvalidInput, what + ": the dim order does not match the rank");
        auto st = std::make_shared<TensorState>();
        st->dtype = t->scalarType;
        st->sizes.assign(t->sizes.begin(), t->sizes.end());
        st->dimOrder = t->dimOrder;
        st->dynamism = t->shapeDynamism;
        const std::size_t nbytes = t->nbytes().value_or(0);
        // An EXTERNAL tensor's bytes come from the .ptd the runtime is given (its NamedDataMap), by fully qualified
        // name, whatever its data_buffer_idx says: planned, they initialise its place in the arena; unplanned, they
        // are a constant (docs/pte-format.md, "Where tensor data lives").
        const ExternalTensor* ext = nullptr;
        if (t->extraTensorInfo && t->extraTensorInfo->location == TensorDataLocation::External) {
            const auto& fqn = t->extraTensorInfo->fullyQualifiedName;
            if (external && fqn)
                if (const auto found = external->tensors.find(*fqn); found != external->tensors.end())
                    ext = &found->second;
            if (!ext)
                return fail(ErrorCode::InvalidInput,
                    what + ": external constant '" + fqn.value_or("") + "' is not in the named data given");
            if (auto loads = checkExternalTensor(*t, *fqn, *ext, external->path); !loads)
                return fail(ErrorCode::InvalidInput, what + ": " + loads.error().message);
        }
        if (t->allocationInfo) {
            const auto mem = t->allocationInfo->memoryId;
            const auto off = t->allocationInfo->offset();
            if (mem >= arenas.size() || off + nbytes > arenas[mem].size())
                return fail(ErrorCode::InvalidInput, what + ": planned outside memory " + std::to_string(mem));
            st->data = arenas[mem].data() + off;
            st->capacity = nbytes;
            if (ext) {
                std::memcpy(st->data, ext->data.data(), nbytes);
            } else if (t->dataBufferIdx > 0) { // initial state from the mutable data segment
                if (!program->mutableDataSegments || program->mutableDataSegments->empty())
                    return fail(ErrorCode::InvalidInput, what + ": initial state without mutable_data_segments");
                const Bytes bytes = mutableData(*program, t->dataBufferIdx, nbytes);
                if (bytes.size() != nbytes)
                    return fail(ErrorCode::InvalidInput, what + ": mutable data index or bytes out of range");
                std::memcpy(st->data, bytes.data(), nbytes);
            }
        } else if (ext) {
            constants.emplace_back(ext->data.data(), ext->data.data() + nbytes);
            st->data = constants.back().data();
            st->capacity = nbytes;
        } else if (t->dataBufferIdx > 0) {
            const Bytes bytes = constantData(*program, t->dataBufferIdx);
            if (bytes.size() < nbytes)
                return fail(ErrorCode::InvalidInput, what + ": constant data shorter than the tensor");
            constants.emplace_back(bytes.data(), bytes.data() + nbytes);
            st->data = constants.back().data();
            st->capacity = nbytes;
        }
        s.t = std::move(st);
    }
    return resolveKernels();
}

ReferenceInterpreter::ReferenceInterpreter(std::unique_ptr<Impl> impl)
    : m_impl(std::move(impl))
{ }

ReferenceInterpreter::~ReferenceInterpreter() = default;

Result<std::unique_ptr<ReferenceInterpreter>> ReferenceInterpreter::load(
    const Program& program, const std::string& method, const ExternalData* external)
{
    auto impl = std::make_unique<Impl>();
    impl->program = &program;
    impl->external = external;
    impl->plan = program.method(method);
    if (!impl->plan)
        return fail(ErrorCode::InvalidInput, "no method '" + method + "'");
    if (impl->plan->chains.size() != 1)
        return fail(ErrorCode::Unsupported, "method '" + method + "': only single-chain methods are supported");
    PTE_CHECK(impl->prepare());
    return std::unique_ptr<ReferenceInterpreter>(new ReferenceInterpreter(std::move(impl)));
}

Result<std::vector<HostTensor>> ReferenceInterpreter::run(const std::vector<HostTensor>& inputs)
{
    Impl& d = *m_impl;
    d.failed.reset();
    // Each run starts from the loaded values (aliases made by MoveCalls are undone); the arenas persist.
    d.slots = d.initial;
    for (auto& s : d.slots)
        if (s.t)
            s.t = std::make_shared<TensorState>(*s.t);
    if (inputs.size() != d.plan->inputs.size())
        return fail(ErrorCode::InvalidInput,
            "method '" + d.plan->name + "' takes " + std::to_string(d.plan->inputs.size()) + " inputs, got "
                + std::to_string(inputs.size()));
    for (std::size_t k = 0; k < inputs.size(); ++k) {
        Slot& s = d.slots.at(std::size_t(d.plan->inputs[k]));
        const HostTensor& in = inputs[k];
        if (s.kind == ValueKind::Int || s.kind == ValueKind::Double || s.kind == ValueKind::Bool) {
            if (in.values.size() != 1)
                return fail(ErrorCode::InvalidInput,
                    "method '" + d.plan->name + "', input " + std::to_string(k) + " is a scalar");
            s.i = std::int64_t(in.values[0]);
            s.d = in.values[0];
            s.b = in.values[0] != 0;
            continue;
        }
        if (s.kind != ValueKind::Tensor || !s.t->data)
            return fail(ErrorCode::InvalidInput,
                "method '" + d.plan->name + "', input " + std::to_string(k) + " is not a planned tensor");
        PTE_CHECK(d.resize(*s.t, in.sizes));
        if (in.values.size() != s.t->numel())
            return fail(ErrorCode::InvalidInput,
                "method '" + d.plan->name + "', input " + std::to_string(k) + " has the wrong number of elements");
        for (std::size_t e = 0; e < in.values.size(); ++e)
            s.t->set(e, in.values[e]);
    }
    PTE_CHECK(d.execute());
    std::vector<HostTensor> out;
    for (const auto id : d.plan->outputs) {
        PTE_TRY(auto h, value(id));
        out.push_back(std::move(h));
    }
    return out;
}

void ReferenceInterpreter::setKernelObserver(std::function<void(std::size_t instruction)> observer)
{
    m_impl->kernelObserver = std::move(observer);
}

void ReferenceInterpreter::setInterruptCheck(std::function<bool(std::size_t instruction)> check)
{
    m_impl->interruptCheck = std::move(check);
}

void ReferenceInterpreter::setInstructionObserver(std::function<void(std::size_t instruction, bool done)> observer)
{
    m_impl->instructionObserver = std::move(observer);
}

std::optional<std::size_t> ReferenceInterpreter::failedInstruction() const { return m_impl->failed; }

void ReferenceInterpreter::setDelegateHandler(DelegateHandler handler) { m_impl->delegateHandler = std::move(handler); }

Result<HostTensor> ReferenceInterpreter::value(std::int32_t id) const { return m_impl->hostValue(id); }

Result<HostTensor> ReferenceInterpreter::Impl::hostValue(std::int64_t id) const
{
    if (id < 0 || std::size_t(id) >= slots.size())
        return fail(ErrorCode::InvalidInput, "value " + std::to_string(id) + " out of range");
    const Slot& s = slots[std::size_t(id)];
    HostTensor h;
    if (s.kind == ValueKind::Tensor) {
        h.dtype = s.t->dtype;
        h.sizes = s.t->sizes;
        if (!s.t->data && s.t->numel() > 0)
            return fail(ErrorCode::InvalidInput, "output value " + std::to_string(id) + " has no memory");
        if (!supportedDtype(s.t->dtype))
            return fail(ErrorCode::Unsupported,
                "value " + std::to_string(id) + ": a " + scalarTypeShortName(s.t->dtype)
                    + " tensor has no real elements to give");
        for (std::size_t e = 0; e < s.t->numel(); ++e)
            h.values.push_back(s.t->get(e));
    } else if (s.kind == ValueKind::String) {
        h.text = s.s;
    } else if (s.kind != ValueKind::Null) {
        PTE_TRY(const double v, scalar(id));
        h.dtype = s.kind == ValueKind::Double ? ScalarType::Double : ScalarType::Long;
        h.values = { v };
    }
    return h;
}

Result<void> ReferenceInterpreter::Impl::delegate(const DelegateCall& call)
{
    if (!delegateHandler)
        return fail(ErrorCode::Unsupported, where() + ": delegate calls are not supported");
    std::vector<HostTensor> args;
    for (const auto id : call.args) {
        PTE_TRY(auto h, hostValue(id));
        args.push_back(std::move(h));
    }
    auto out = delegateHandler(std::size_t(std::max(call.delegateIndex, 0)), args);
    if (!out)
        return fail(out.error().code,
            where() + ": delegate " + std::to_string(call.delegateIndex) + ": " + out.error().message);
    if (out->size() > call.args.size())
        return fail(ErrorCode::InvalidInput,
            where() + ": the delegate returned " + std::to_string(out->size()) + " outputs for "
                + std::to_string(call.args.size()) + " arguments");
    const std::size_t first = call.args.size() - out->size();
    for (std::size_t k = 0; k < out->size(); ++k) {
        const auto id = call.args[first + k];
        const HostTensor& h = (*out)[k];
        Slot& s = slots.at(std::size_t(id));
        if (s.kind == ValueKind::Tensor) {
            PTE_CHECK(resize(*s.t, h.sizes));
            if (h.values.size() != s.t->numel())
                return fail(ErrorCode::InvalidInput,
                    where() + ": delegate output " + std::to_string(k) + " has the wrong number of elements");
            interp::store(*s.t, h.values);
        } else if (h.values.size() == 1) {
            s.i = std::int64_t(h.values[0]);
            s.d = h.values[0];
            s.b = h.values[0] != 0;
        } else {
            return fail(
                ErrorCode::InvalidInput, where() + ": delegate output " + std::to_string(k) + " is not a scalar");
        }
    }
    return {};
}

Result<std::vector<double>> ReferenceInterpreter::readPlanned(
    std::uint32_t memoryId, std::uint64_t offset, ScalarType dtype, std::size_t count) const
{
    if (memoryId >= m_impl->arenas.size() || offset + count * elementSize(dtype) > m_impl->arenas[memoryId].size())
        return fail(ErrorCode::InvalidInput, "planned range out of bounds");
    TensorState t;
    t.dtype = dtype;
    t.data = const_cast<std::uint8_t*>(m_impl->arenas[memoryId].data()) + offset;
    std::vector<double> out;
    for (std::size_t e = 0; e < count; ++e)
        out.push_back(t.get(e));
    return out;
}

std::size_t ReferenceInterpreter::executedInstructions() const { return m_impl->executed; }

Result<void> ReferenceInterpreter::Impl::execute()
{
    const auto& instructions = plan->chains[0].instructions;
    executed = 0;
    pc = 0;
    while (pc < instructions.size()) {
        if (++executed > 1000000)
            return fail(ErrorCode::InvalidInput,
                "method '" + plan->name + "': more than a million instructions executed: endless loop?");
        const std::size_t current = pc;
        if (interruptCheck && interruptCheck(current)) {
            failed = current;
            Error e = makeError(ErrorCode::Cancelled, "cancelled before instruction " + std::to_string(current));
            e.location.method = plan->name;
            e.location.chain = 0;
            e.location.instruction = std::int64_t(current);
            return e;
        }
        if (instructionObserver)
            instructionObserver(current, false);
        auto step = executeOne(instructions[current]);
        if (!step) {
            failed = current;
            Error e = std::move(step).error();
            if (e.location.empty()) {
                e.location.method = plan->name;
                e.location.chain = 0;
                e.location.instruction = std::int64_t(current);
            }
            return e;
        }
        if (instructionObserver)
            instructionObserver(current, true);
    }
    return {};
}

Result<void> ReferenceInterpreter::Impl::executeOne(const Instruction& ins)
{
    if (const auto* k = std::get_if<KernelCall>(&ins.args)) {
        if (k->opIndex < 0 || std::size_t(k->opIndex) >= plan->operators.size())
            return fail(ErrorCode::InvalidInput, where() + ": operator index out of range");
        const auto index = std::size_t(k->opIndex);
        PTE_CHECK(runKernel(kernels[index], plan->operators[index].qualifiedName(), k->args));
        if (kernelObserver)
            kernelObserver(pc);
        ++pc;
    } else if (const auto* m = std::get_if<MoveCall>(&ins.args)) {
        slots.at(std::size_t(m->moveTo)) = slots.at(std::size_t(m->moveFrom));
        ++pc;
    } else if (const auto* j = std::get_if<JumpFalseCall>(&ins.args)) {
        const Slot& c = slots.at(std::size_t(j->condValueIndex));
        bool value = false;
        if (c.kind == ValueKind::Bool) {
            value = c.b;
        } else if (c.kind == ValueKind::Tensor && c.t->dtype == ScalarType::Bool) {
            value = true;
            for (std::size_t e = 0; e < c.t->numel(); ++e)
                value = value && c.t->get(e) != 0;
        } else {
            return fail(ErrorCode::InvalidInput, where() + ": JumpFalseCall condition is not a Bool");
        }
        pc = value ? pc + 1 : std::size_t(j->destinationInstruction);
    } else if (const auto* f = std::get_if<FreeCall>(&ins.args)) {
        PTE_TRY(auto t, tensor(f->valueIndex));
        t->data = nullptr;
        ++pc;
    } else if (const auto* call = std::get_if<DelegateCall>(&ins.args)) {
        PTE_CHECK(delegate(*call));
        ++pc;
    } else {
        return fail(ErrorCode::InvalidInput, where() + ": an instruction without arguments");
    }
    return {};
}

} // namespace pte
