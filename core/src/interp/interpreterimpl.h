// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// The interpreter's machine state (ReferenceInterpreter::Impl): value slots, arenas, program counter, and the
// argument readers the kernels use.
#pragma once

#include "interp/tensorstate.h"
#include "pte/referenceinterpreter.h"

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace pte {

namespace interp {

struct Slot
{
    ValueKind kind = ValueKind::None;
    std::int64_t i = 0;
    double d = 0;
    bool b = false;
    std::string s;
    std::shared_ptr<TensorState> t;
    std::vector<std::int64_t> ids; ///< IntList / TensorList / OptionalTensorList value ids (-1 = None)
    std::vector<double> doubles;
    std::vector<bool> bools;
};

struct KernelEntry;

/** Writes computed element values into a tensor (after all inputs were read, so outputs may alias inputs). */
void store(TensorState& out, const std::vector<double>& values);

} // namespace interp

class ReferenceInterpreter::Impl
{
public:
    using Slot = interp::Slot;
    using TensorState = interp::TensorState;
    const Program* program = nullptr;
    const ExecutionPlan* plan = nullptr;
    const ExternalData* external = nullptr;
    std::vector<std::vector<std::uint8_t>> arenas;
    std::vector<std::vector<std::uint8_t>> constants; // owned copies, one per constant tensor value
    std::vector<Slot> initial;
    std::vector<Slot> slots;
    std::size_t executed = 0;
    std::size_t pc = 0;
    std::function<void(std::size_t)> kernelObserver;
    std::function<void(std::size_t, bool)> instructionObserver;
    std::function<bool(std::size_t)> interruptCheck;
    std::optional<std::size_t> failed; ///< the instruction the last run stopped at
    DelegateHandler delegateHandler;

    Result<void> prepare();
    Result<void> execute();
    /** Executes the instruction at `pc` and moves `pc` on. */
    Result<void> executeOne(const Instruction& ins);
    /** The kernel of each of the plan's operators (nullptr: the interpreter has none), looked up once at load. */
    std::vector<const interp::KernelEntry*> kernels;
    /** Fills `kernels` from the kernel registry (kernel.h). */
    Result<void> resolveKernels();
    /** Runs `entry` (the kernel of `op`; nullptr when there is none: an error naming `op`) on the arguments `a`. */
    Result<void> runKernel(const interp::KernelEntry* entry, const std::string& op, const std::vector<std::int32_t>& a);
    /** Runs the kernel of `op`, looked up by name. */
    Result<void> kernel(const std::string& op, const std::vector<std::int32_t>& a);
    /** A DelegateCall through `delegateHandler`. */
    Result<void> delegate(const DelegateCall& call);
    /** Value `id` as ReferenceInterpreter::value() returns it. */
    Result<HostTensor> hostValue(std::int64_t id) const;
    /** The dim-order check every portable kernel makes (tensors_have_same_dim_order). */
    Result<void> checkDimOrders(const std::string& op, const std::vector<std::int32_t>& a) const;

    /** Where an error happened: "method 'forward', instruction 3". */
    std::string where() const { return "method '" + plan->name + "', instruction " + std::to_string(pc); }
    Result<std::shared_ptr<TensorState>> tensor(std::int64_t id) const
    {
        if (id < 0 || std::size_t(id) >= slots.size() || slots[std::size_t(id)].kind != ValueKind::Tensor)
            return fail(ErrorCode::InvalidInput, where() + ": value " + std::to_string(id) + " is not a tensor");
        return slots[std::size_t(id)].t;
    }
    /** A `Tensor?` argument: nullptr for None. */
    Result<std::shared_ptr<TensorState>> optionalTensor(std::int64_t id) const
    {
        if (isNull(id))
            return std::shared_ptr<TensorState>();
        return tensor(id);
    }
    Result<double> scalar(std::int64_t id) const
    {
        if (id < 0 || std::size_t(id) >= slots.size())
            return fail(ErrorCode::InvalidInput, where() + ": value " + std::to_string(id) + " out of range");
        const Slot& s = slots[std::size_t(id)];
        switch (s.kind) {
        case ValueKind::Int:
            return double(s.i);
        case ValueKind::Double:
            return s.d;
        case ValueKind::Bool:
            return s.b ? 1.0 : 0.0;
        default:
            return fail(ErrorCode::InvalidInput, where() + ": value " + std::to_string(id) + " is not a scalar");
        }
    }
    bool isNull(std::int64_t id) const
    {
        return id >= 0 && std::size_t(id) < slots.size() && slots[std::size_t(id)].kind == ValueKind::Null;
    }
    Result<std::vector<std::int64_t>> intList(std::int64_t id) const
    {
        if (id < 0 || std::size_t(id) >= slots.size() || slots[std::size_t(id)].kind != ValueKind::IntList)
            return fail(ErrorCode::InvalidInput, where() + ": value " + std::to_string(id) + " is not an IntList");
        std::vector<std::int64_t> out;
        for (const auto item : slots[std::size_t(id)].ids) {
            PTE_TRY(const double v, scalar(item));
            out.push_back(std::int64_t(v));
        }
        return out;
    }
    /** The tensors of TensorList value `id`. */
    Result<std::vector<std::shared_ptr<TensorState>>> tensorList(std::int64_t id) const
    {
        if (id < 0 || std::size_t(id) >= slots.size() || slots[std::size_t(id)].kind != ValueKind::TensorList)
            return fail(ErrorCode::InvalidInput, where() + ": value " + std::to_string(id) + " is not a TensorList");
        std::vector<std::shared_ptr<TensorState>> out;
        for (const auto item : slots[std::size_t(id)].ids) {
            PTE_TRY(auto t, tensor(item));
            out.push_back(std::move(t));
        }
        return out;
    }
    /** Copies the `len` positions start, start + step, ... of dimension `dim` of `src` into `dst`; without
     *  `keepDim` the dimension is dropped (select, unbind). */
    Result<void> sliceDim(const TensorState& src, TensorState& dst, std::size_t dim, std::int64_t start,
        std::int64_t step, std::int64_t len, bool keepDim) const
    {
        if (dim >= src.sizes.size() || start < 0 || (len > 0 && start + (len - 1) * step >= src.sizes[dim]))
            return fail(ErrorCode::InvalidInput, where() + ": slice out of range");
        std::vector<std::int64_t> shape = src.sizes;
        if (keepDim)
            shape[dim] = len;
        else
            shape.erase(shape.begin() + std::ptrdiff_t(dim));
        PTE_CHECK(resize(dst, shape));
        std::size_t inner = 1;
        for (std::size_t k = dim + 1; k < src.sizes.size(); ++k)
            inner *= std::size_t(src.sizes[k]);
        const auto srcLen = std::size_t(src.sizes[dim]);
        const auto n = std::size_t(len);
        std::vector<double> r(dst.numel());
        for (std::size_t e = 0; e < r.size(); ++e) {
            const std::size_t o = e / (n * inner);
            const std::size_t k = (e / inner) % n;
            r[e] = src.get((o * srcLen + std::size_t(start) + k * std::size_t(step)) * inner + e % inner);
        }
        store(dst, r);
        return {};
    }
    /** Sets `out`'s sizes as the runtime's resize does: a static tensor must already have them. */
    Result<void> resize(TensorState& out, const std::vector<std::int64_t>& sizes) const
    {
        if (out.sizes == sizes)
            return {};
        if (out.dynamism == ShapeDynamism::Static)
            return fail(ErrorCode::InvalidInput, where() + ": cannot resize a static tensor");
        std::size_t numel = 1;
        for (const auto s : sizes)
            numel *= std::size_t(s);
        if (numel * elementSize(out.dtype) > out.capacity)
            return fail(ErrorCode::InvalidInput, where() + ": resize beyond the tensor's planned capacity");
        out.sizes = sizes;
        return {};
    }
};

} // namespace pte
