// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// MethodView: one side of a method comparison, and how values and instructions read in a report.
#include "diff/methodview.h"

#include "pte/tensortext.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace pte::diff {

MethodView::MethodView(const Program& program, const ExecutionPlan& plan, const EtRecordMaps* maps)
    : m_program(&program)
    , m_plan(&plan)
{
    std::size_t total = 0;
    for (const auto& c : plan.chains)
        total += c.instructions.size();
    m_instructions.reserve(total);
    for (const auto& c : plan.chains)
        for (const auto& in : c.instructions)
            m_instructions.push_back(&in);
    if (maps) {
        if (const auto it = maps->debugHandleMap.find(plan.name); it != maps->debugHandleMap.end())
            m_handles = &it->second;
        if (const auto it = maps->delegateMap.find(plan.name); it != maps->delegateMap.end())
            m_delegateMap = &it->second;
    }
}

const EValue* MethodView::value(std::int64_t index) const noexcept
{
    return index >= 0 && std::uint64_t(index) < m_plan->values.size() ? &m_plan->values[std::size_t(index)] : nullptr;
}

const std::vector<std::int64_t>* MethodView::debugHandles(std::size_t i) const
{
    if (!m_handles)
        return nullptr;
    const auto it = m_handles->find(std::int64_t(i));
    return it == m_handles->end() ? nullptr : &it->second;
}

const DelegateMapEntry* MethodView::delegateMapEntry(std::size_t i) const
{
    if (!m_delegateMap)
        return nullptr;
    const auto it = m_delegateMap->find(std::int64_t(i));
    return it == m_delegateMap->end() ? nullptr : &it->second;
}

std::span<const std::int32_t> MethodView::arguments(std::size_t i, std::array<std::int32_t, 2>& scratch) const
{
    const Instruction& in = *m_instructions[i];
    if (const auto* k = std::get_if<KernelCall>(&in.args))
        return k->args;
    if (const auto* d = std::get_if<DelegateCall>(&in.args))
        return d->args;
    if (const auto* m = std::get_if<MoveCall>(&in.args)) {
        scratch = { m->moveFrom, m->moveTo };
        return { scratch.data(), 2 };
    }
    if (const auto* j = std::get_if<JumpFalseCall>(&in.args)) {
        scratch[0] = j->condValueIndex;
        return { scratch.data(), 1 };
    }
    if (const auto* f = std::get_if<FreeCall>(&in.args)) {
        scratch[0] = f->valueIndex;
        return { scratch.data(), 1 };
    }
    return {};
}

std::string MethodView::target(std::size_t i) const
{
    const Instruction& in = *m_instructions[i];
    if (const auto* k = std::get_if<KernelCall>(&in.args))
        return k->opIndex >= 0 && std::size_t(k->opIndex) < m_plan->operators.size()
            ? m_plan->operators[std::size_t(k->opIndex)].qualifiedName()
            : std::string("?");
    if (const auto* d = std::get_if<DelegateCall>(&in.args))
        return d->delegateIndex >= 0 && std::size_t(d->delegateIndex) < m_plan->delegates.size()
            ? m_plan->delegates[std::size_t(d->delegateIndex)].id
            : std::string("?");
    return {};
}

std::int32_t MethodView::delegateIndex(std::size_t i) const
{
    const auto* d = std::get_if<DelegateCall>(&m_instructions[i]->args);
    return d ? d->delegateIndex : -1;
}

std::string numberText(double v)
{
    if (std::isnan(v))
        return "nan";
    if (std::isinf(v))
        return v > 0 ? "inf" : "-inf";
    char buf[40];
    for (int precision = 6; precision <= 17; ++precision) {
        std::snprintf(buf, sizeof buf, "%.*g", precision, v);
        if (std::strtod(buf, nullptr) == v)
            break;
    }
    return buf;
}

std::string tensorType(const Tensor& t) { return tensorTypeText(t.scalarType, t.sizes); }

std::string MethodView::describeValue(std::int64_t index) const
{
    const std::string ref = "%" + std::to_string(index);
    const EValue* v = value(index);
    if (!v)
        return ref + " (out of range)";
    switch (v->kind()) {
    case ValueKind::Tensor: {
        const Tensor& t = *v->tensor();
        std::string s = ref + " " + tensorType(t);
        if (t.extraTensorInfo && t.extraTensorInfo->location == TensorDataLocation::External)
            s += " external";
        else if (t.dataBufferIdx != 0 && !t.allocationInfo)
            s += " constant";
        if (t.allocationInfo)
            s += " planned " + std::to_string(t.allocationInfo->memoryId) + "@"
                + std::to_string(t.allocationInfo->offset());
        return s;
    }
    case ValueKind::Int:
        return ref + " Int " + std::to_string(std::get<Int>(v->val).intVal);
    case ValueKind::Bool:
        return ref + (std::get<Bool>(v->val).boolVal ? " Bool true" : " Bool false");
    case ValueKind::Double:
        return ref + " Double " + numberText(std::get<Double>(v->val).doubleVal);
    case ValueKind::String:
        return ref + " String '" + std::get<String>(v->val).stringVal + "'";
    case ValueKind::IntList: {
        // Items are value indices of Int values: show the integers.
        std::vector<std::int64_t> ints;
        for (const auto item : std::get<IntList>(v->val).items) {
            const EValue* iv = value(item);
            ints.push_back(iv && iv->kind() == ValueKind::Int ? std::get<Int>(iv->val).intVal : -999999);
        }
        return ref + " IntList " + listText(ints);
    }
    case ValueKind::DoubleList:
        return ref + " DoubleList " + listText(std::get<DoubleList>(v->val).items);
    case ValueKind::BoolList:
        return ref + " BoolList " + listText(std::get<BoolList>(v->val).items);
    case ValueKind::TensorList:
        return ref + " TensorList " + listText(std::get<TensorList>(v->val).items);
    case ValueKind::OptionalTensorList:
        return ref + " OptionalTensorList " + listText(std::get<OptionalTensorList>(v->val).items);
    case ValueKind::Null:
        return ref + " None";
    case ValueKind::None:
        break;
    }
    return ref + " (no value)";
}

std::string MethodView::describeInstruction(std::size_t i) const
{
    const Instruction& in = *m_instructions[i];
    std::string s;
    switch (in.kind()) {
    case InstructionKind::KernelCall:
    case InstructionKind::DelegateCall:
        s = target(i);
        break;
    case InstructionKind::MoveCall:
        s = "move";
        break;
    case InstructionKind::JumpFalseCall:
        s = "jump_false -> " + std::to_string(std::get<JumpFalseCall>(in.args).destinationInstruction);
        break;
    case InstructionKind::FreeCall:
        s = "free";
        break;
    case InstructionKind::None:
        return "(no instruction)";
    }
    std::array<std::int32_t, 2> scratch {};
    const auto args = arguments(i, scratch);
    s += "(";
    for (std::size_t p = 0; p < args.size(); ++p) {
        if (p)
            s += ", ";
        if (p == 12) {
            s += "... " + std::to_string(args.size()) + " arguments";
            break;
        }
        const EValue* v = value(args[p]);
        s += "%" + std::to_string(args[p]);
        if (v && v->tensor())
            s += " " + tensorType(*v->tensor());
    }
    return s + ")";
}

} // namespace pte::diff
