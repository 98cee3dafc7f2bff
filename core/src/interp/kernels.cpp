// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// The interpreter's kernel registry and the dispatch of a KernelCall to a kernel; the kernels are in kernels_*.cpp,
// one file per family.
#include "interp/kernel.h"
#include "pte/tensorshape.h"

#include <cstdint>
#include <string>
#include <vector>

namespace pte {

namespace interp {

void store(TensorState& out, const std::vector<double>& values)
{
    for (std::size_t e = 0; e < values.size(); ++e)
        out.set(e, values[e]);
}

const KernelRegistry& KernelRegistry::instance()
{
    static const KernelRegistry registry = [] {
        KernelRegistry r;
        registerPointwiseKernels(r);
        registerShapeKernels(r);
        registerCreationKernels(r);
        registerLinalgKernels(r);
        registerNnKernels(r);
        registerReductionKernels(r);
        registerIndexKernels(r);
        registerPrimKernels(r);
        registerQuantizedKernels(r);
        return r;
    }();
    return registry;
}

const KernelEntry* KernelRegistry::find(const std::string& op) const
{
    const auto it = m_kernels.find(op);
    return it == m_kernels.end() ? nullptr : &it->second;
}

void KernelRegistry::add(const std::string& op, KernelFunction run, bool complex)
{
    m_kernels.try_emplace(op, KernelEntry { op, splitOperatorName(op), run, complex });
}

} // namespace interp

using namespace interp;

Result<void> ReferenceInterpreter::Impl::checkDimOrders(const std::string& op, const std::vector<std::int32_t>& a) const
{
    // ExecuTorch's portable kernels accept their tensors only when all are in the contiguous dim order or all in the
    // channels-last one ("N input tensors have different dim orders"); tensors of other ranks count too. A
    // convolution checks its input against its output only (its weight and bias may differ).
    std::vector<const TensorState*> tensors;
    auto add = [&](std::int64_t id) {
        if (id < 0 || std::size_t(id) >= slots.size())
            return;
        const Slot& s = slots[std::size_t(id)];
        if (s.kind == ValueKind::Tensor && s.t) {
            tensors.push_back(s.t.get());
        } else if (s.kind == ValueKind::TensorList || s.kind == ValueKind::OptionalTensorList) {
            for (const auto item : s.ids)
                if (item >= 0 && std::size_t(item) < slots.size() && slots[std::size_t(item)].t)
                    tensors.push_back(slots[std::size_t(item)].t.get());
        }
    };
    if (op == "aten::convolution.out") {
        if (a.size() > 9) {
            add(a[0]);
            add(a[9]);
        }
    } else {
        for (const auto id : a)
            add(id);
    }
    bool allContiguous = true;
    bool allChannelsLast = true;
    for (const auto* t : tensors) {
        allContiguous = allContiguous && t->contiguous();
        allChannelsLast = allChannelsLast && isChannelsLastDimOrder(t->dimOrder);
    }
    if (tensors.size() >= 2 && !allContiguous && !allChannelsLast)
        return fail(ErrorCode::InvalidInput,
            where() + ": " + op + ": " + std::to_string(tensors.size())
                + " input tensors have different dim orders (ExecuTorch's kernels need all contiguous or all "
                  "channels-last)");
    return {};
}

Result<void> ReferenceInterpreter::Impl::resolveKernels()
{
    kernels.assign(plan->operators.size(), nullptr);
    for (std::size_t k = 0; k < plan->operators.size(); ++k)
        kernels[k] = KernelRegistry::instance().find(plan->operators[k].qualifiedName());
    return {};
}

Result<void> ReferenceInterpreter::Impl::runKernel(
    const KernelEntry* entry, const std::string& op, const std::vector<std::int32_t>& a)
{
    // Every aten kernel of the portable library checks its tensors' dim orders first (the check comes before the
    // missing kernel too, as it always did).
    if (entry ? entry->name.ns == "aten" : splitOperatorName(op).ns == "aten")
        PTE_CHECK(checkDimOrders(op, a));
    if (!entry)
        return fail(ErrorCode::Unsupported, where() + ": no reference kernel for " + op);
    if (!entry->complex)
        for (const auto id : a)
            if (id >= 0 && std::size_t(id) < slots.size())
                if (const Slot& s = slots[std::size_t(id)];
                    s.kind == ValueKind::Tensor && s.t && !supportedDtype(s.t->dtype))
                    return fail(ErrorCode::Unsupported,
                        where() + ": " + op + ": the reference kernel computes no " + scalarTypeShortName(s.t->dtype)
                            + " tensors (value " + std::to_string(id) + ")");
    return entry->run(KernelCallArgs { *this, *entry, a });
}

Result<void> ReferenceInterpreter::Impl::kernel(const std::string& op, const std::vector<std::int32_t>& a)
{
    return runKernel(KernelRegistry::instance().find(op), op, a);
}

} // namespace pte
