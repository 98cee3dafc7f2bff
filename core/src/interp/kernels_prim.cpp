// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// The scalar prim ops (executorch_prim, sym_size) and dim_order_ops.
#include "interp/kernel.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace pte::interp {

namespace {

struct Prim : Kernel
{
    using Kernel::Kernel;

    // [self, dim, ret]
    Result<void> symSize()
    {
        PTE_CHECK(need(3));
        PTE_TRY(auto self, tensor(arg(0)));
        PTE_TRY(const double dim, scalar(arg(1)));
        const auto rank = std::int64_t(self->sizes.size());
        const auto d = (std::int64_t(dim) + rank) % std::max<std::int64_t>(rank, 1);
        setScalar(arg(2), double(self->sizes.at(std::size_t(d))));
        return {};
    }

    Result<void> toDimOrderCopy()
    {
        // [self, non_blocking, dim_order?, out, ret]
        PTE_CHECK(need(5));
        PTE_TRY(auto self, tensor(arg(0)));
        PTE_TRY(auto out, tensor(arg(3)));
        if (!isNull(arg(2))) {
            // The given dim order must be the out tensor's.
            PTE_TRY(const auto order, intList(arg(2)));
            std::vector<std::uint8_t> expected = out->dimOrder;
            if (expected.empty())
                for (std::size_t k = 0; k < out->sizes.size(); ++k)
                    expected.push_back(std::uint8_t(k));
            if (order != std::vector<std::int64_t>(expected.begin(), expected.end()))
                return fail(ErrorCode::InvalidInput, where() + ": the dim_order argument is not the out tensor's");
        }
        // The element type changes to the out tensor's; float to integer truncates toward zero.
        return gather(*self, *out, self->sizes, [](std::size_t e) { return e; });
    }

    Result<void> toCopy()
    {
        // aten::_to_copy.out [self, non_blocking, memory_format?, out, ret]: a copy converted to the out tensor's
        // dtype. The portable kernel accepts no memory format but the default (None, or contiguous_format = 0).
        PTE_CHECK(need(5));
        PTE_TRY(auto self, tensor(arg(0)));
        PTE_TRY(auto out, tensor(arg(3)));
        if (!isNull(arg(2))) {
            PTE_TRY(const double format, scalar(arg(2)));
            if (format != 0)
                return fail(ErrorCode::Unsupported, where() + ": _to_copy with a memory format other than contiguous");
        }
        return gather(*self, *out, self->sizes, [](std::size_t e) { return e; });
    }

    // The unary prim ops [a, ret] (as PyTorch defines them: -a, float(a), not a) and sym_ite [cond, a, b, ret].
    Result<void> unaryScalar()
    {
        PTE_CHECK(need(2));
        PTE_TRY(const double x, scalar(arg(0)));
        // The result's type is the op's (float(a) a Double, not a a Bool), whatever the slot held before, as
        // the runtime replaces the EValue.
        Slot& out = slots.at(std::size_t(arg(1)));
        if (name == "sym_float")
            out.kind = ValueKind::Double;
        else if (name == "sym_not")
            out.kind = ValueKind::Bool;
        setScalar(arg(1), name == "neg" ? -x : name == "sym_not" ? double(x == 0) : x);
        return {};
    }

    // Float to int [a, ret], as Python defines them on a SymFloat: math.ceil, math.trunc, int() (toward zero),
    // round() (half to even); the result is an Int whatever the slot held before.
    Result<void> floatToInt()
    {
        PTE_CHECK(need(2));
        PTE_TRY(const double x, scalar(arg(0)));
        double r = std::trunc(x);
        if (name == "ceil")
            r = std::ceil(x);
        else if (name == "round")
            r = x - std::floor(x) == 0.5 ? 2.0 * std::round(x / 2.0) : std::round(x);
        slots.at(std::size_t(arg(1))).kind = ValueKind::Int;
        setScalar(arg(1), r);
        return {};
    }

    Result<void> symIte()
    {
        PTE_CHECK(need(4));
        PTE_TRY(const double cond, scalar(arg(0)));
        PTE_TRY(const double x, scalar(arg(1)));
        PTE_TRY(const double y, scalar(arg(2)));
        setScalar(arg(3), cond != 0 ? x : y);
        return {};
    }

    // [a, b, ret]
    Result<void> binaryScalar()
    {
        PTE_CHECK(need(3));
        PTE_TRY(const double x, scalar(arg(0)));
        PTE_TRY(const double y, scalar(arg(1)));
        if (name == "floordiv") {
            setScalar(arg(2), std::floor(x / y));
            return {};
        }
        if (name == "truediv") { // a / b as a Double, whatever the operands and the slot held before
            slots.at(std::size_t(arg(2))).kind = ValueKind::Double;
            setScalar(arg(2), x / y);
            return {};
        }
        if (name == "mod") { // Python's a % b: the sign of b
            if (y == 0)
                return invalid("modulo by zero");
            setScalar(arg(2), x - std::floor(x / y) * y);
            return {};
        }
        if (name == "sym_max" || name == "sym_min") {
            setScalar(arg(2), name == "sym_max" ? std::max(x, y) : std::min(x, y));
            return {};
        }
        if (const auto it = basicBinaryOps().find(name); it != basicBinaryOps().end()) {
            setScalar(arg(2), it->second(x, y));
            return {};
        }
        return invalid("not a binary scalar op");
    }

    // [copy_to, copy_from, index]
    Result<void> etCopyIndex()
    {
        PTE_CHECK(need(3));
        PTE_TRY(auto to, tensor(arg(0)));
        PTE_TRY(auto from, tensor(arg(1)));
        PTE_TRY(const double indexD, scalar(arg(2)));
        const auto index = std::size_t(indexD);
        std::vector<std::int64_t> shape = from->sizes;
        shape.insert(shape.begin(), std::int64_t(index + 1));
        if (to->sizes.empty() || std::size_t(to->sizes[0]) < index + 1)
            PTE_CHECK(resize(*to, shape));
        const std::size_t n = from->numel();
        if ((index + 1) * n * elementSize(to->dtype) > to->capacity)
            return fail(ErrorCode::InvalidInput, where() + ": et_copy_index beyond the tensor's capacity");
        for (std::size_t e = 0; e < n; ++e)
            to->set(index * n + e, from->get(e));
        return {};
    }

    // [self, size, out]
    Result<void> etView()
    {
        PTE_CHECK(need(3));
        PTE_TRY(auto self, tensor(arg(0)));
        PTE_TRY(auto size, intList(arg(1)));
        PTE_TRY(auto out, tensor(arg(2)));
        out->data = self->data;
        out->capacity = self->capacity;
        out->sizes = size;
        return {};
    }
    // [self, ret]: the number of elements, an Int
    Result<void> symNumel()
    {
        PTE_CHECK(need(2));
        PTE_TRY(auto x, tensor(arg(0)));
        slots.at(std::size_t(arg(1))).kind = ValueKind::Int;
        setScalar(arg(1), double(x->numel()));
        return {};
    }

    // [self, ret]: the one element of self as a scalar of its kind (Bool, Int or Double)
    Result<void> localScalarDense()
    {
        PTE_CHECK(need(2));
        PTE_TRY(auto x, tensor(arg(0)));
        if (x->numel() != 1)
            return invalid("of a tensor of " + std::to_string(x->numel()) + " elements");
        Slot& out = slots.at(std::size_t(arg(1)));
        out.kind = x->dtype == ScalarType::Bool ? ValueKind::Bool
            : x->dtype == ScalarType::Float || x->dtype == ScalarType::Double || x->dtype == ScalarType::Half
                || x->dtype == ScalarType::BFloat16
            ? ValueKind::Double
            : ValueKind::Int;
        setScalar(arg(1), x->get(0));
        return {};
    }
};

} // namespace

void registerPrimKernels(KernelRegistry& registry)
{
    using F = Prim;
    registry.add("aten::sym_size.int", invoke<F, &F::symSize>);
    registry.add("dim_order_ops::_to_dim_order_copy.out", invoke<F, &F::toDimOrderCopy>);
    registry.add("dim_order_ops::_clone_dim_order.out", invoke<F, &F::toDimOrderCopy>);
    registry.add("aten::_to_copy.out", invoke<F, &F::toCopy>);
    for (const char* op : { "neg", "sym_float", "sym_not" })
        registry.add(std::string("executorch_prim::") + op + ".Scalar", invoke<F, &F::unaryScalar>);
    for (const char* op : { "ceil", "trunc", "sym_int", "round" })
        registry.add(std::string("executorch_prim::") + op + ".Scalar", invoke<F, &F::floatToInt>);
    registry.add("executorch_prim::sym_ite.Scalar", invoke<F, &F::symIte>);
    for (const char* op : { "floordiv", "truediv" })
        registry.add(std::string("executorch_prim::") + op + ".Scalar", invoke<F, &F::binaryScalar>);
    for (const auto& entry : basicBinaryOps())
        registry.add("executorch_prim::" + entry.first + ".Scalar", invoke<F, &F::binaryScalar>);
    registry.add("executorch_prim::et_copy_index.tensor", invoke<F, &F::etCopyIndex>);
    registry.add("executorch_prim::et_view", invoke<F, &F::etView>);
    registry.add("executorch_prim::et_view.default", invoke<F, &F::etView>);
    registry.add("aten::sym_numel", invoke<F, &F::symNumel>);
    registry.add("aten::_local_scalar_dense", invoke<F, &F::localScalarDense>);
    for (const char* op : { "mod", "sym_max", "sym_min" })
        registry.add(std::string("executorch_prim::") + op + ".Scalar", invoke<F, &F::binaryScalar>);
}

} // namespace pte::interp
