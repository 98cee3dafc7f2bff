// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// Alignment keys of instructions: what an instruction does, without the numbering of values, operators, delegates.
#include "diff/instructionkeys.h"

#include "diff/hashing.h"

namespace pte::diff {

namespace {

/** Kind, dtype and sizes of a value (list lengths for lists); 1 for an out-of-range index. */
std::uint64_t valueDescriptor(const EValue* v)
{
    if (!v)
        return 1;
    std::uint64_t h = hashCombine(0x51, std::uint64_t(v->kind()));
    switch (v->kind()) {
    case ValueKind::Tensor: {
        const Tensor& t = *v->tensor();
        h = hashCombine(h, std::uint64_t(std::uint8_t(t.scalarType)));
        h = hashCombine(h, t.sizes.size());
        for (const auto s : t.sizes)
            h = hashCombine(h, std::uint64_t(std::int64_t(s)));
        break;
    }
    case ValueKind::IntList:
        h = hashCombine(h, std::get<IntList>(v->val).items.size());
        break;
    case ValueKind::DoubleList:
        h = hashCombine(h, std::get<DoubleList>(v->val).items.size());
        break;
    case ValueKind::BoolList:
        h = hashCombine(h, std::get<BoolList>(v->val).items.size());
        break;
    case ValueKind::TensorList:
        h = hashCombine(h, std::get<TensorList>(v->val).items.size());
        break;
    case ValueKind::OptionalTensorList:
        h = hashCombine(h, std::get<OptionalTensorList>(v->val).items.size());
        break;
    default:
        break;
    }
    return h;
}

} // namespace

InstructionKeys instructionKeys(const MethodView& view)
{
    const ExecutionPlan& plan = view.plan();
    std::vector<std::uint64_t> descriptors(plan.values.size());
    for (std::size_t v = 0; v < plan.values.size(); ++v)
        descriptors[v] = valueDescriptor(&plan.values[v]);
    std::vector<std::uint64_t> operatorHashes(plan.operators.size());
    for (std::size_t o = 0; o < plan.operators.size(); ++o)
        operatorHashes[o] = hashString(plan.operators[o].qualifiedName());
    std::vector<std::uint64_t> delegateHashes(plan.delegates.size());
    for (std::size_t d = 0; d < plan.delegates.size(); ++d)
        delegateHashes[d] = hashCombine(hashString(plan.delegates[d].id), 0xde1e);

    InstructionKeys keys;
    const std::size_t n = view.instructionCount();
    keys.primary.resize(n);
    keys.similar.resize(n);
    if (view.hasDebugHandles())
        keys.withHandles.resize(n);
    std::array<std::int32_t, 2> scratch {};
    for (std::size_t i = 0; i < n; ++i) {
        const Instruction& in = view.instruction(i);
        std::uint64_t target = 0;
        if (const auto* k = std::get_if<KernelCall>(&in.args))
            target = k->opIndex >= 0 && std::size_t(k->opIndex) < operatorHashes.size()
                ? operatorHashes[std::size_t(k->opIndex)]
                : 2;
        else if (const auto* d = std::get_if<DelegateCall>(&in.args))
            target = d->delegateIndex >= 0 && std::size_t(d->delegateIndex) < delegateHashes.size()
                ? delegateHashes[std::size_t(d->delegateIndex)]
                : 3;
        const std::uint64_t similar = hashCombine(hashCombine(0x1, std::uint64_t(in.kind())), target);
        std::uint64_t primary = similar;
        const auto args = view.arguments(i, scratch);
        primary = hashCombine(primary, args.size());
        for (const auto a : args)
            primary =
                hashCombine(primary, a >= 0 && std::size_t(a) < descriptors.size() ? descriptors[std::size_t(a)] : 1);
        keys.similar[i] = similar;
        keys.primary[i] = primary;
        if (!keys.withHandles.empty()) {
            std::uint64_t h = hashCombine(primary, 0x4a);
            if (const auto* handles = view.debugHandles(i))
                for (const auto handle : *handles)
                    h = hashCombine(h, std::uint64_t(handle));
            keys.withHandles[i] = h;
        }
    }
    return keys;
}

} // namespace pte::diff
