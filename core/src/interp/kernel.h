// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// The interpreter's kernel registry (full operator name -> kernel) and the base of the kernel families
// (kernels_*.cpp): one call's arguments and the readers and helpers the kernels share.
#pragma once

#include "interp/interpreterimpl.h"
#include "interp/kernelutil.h"
#include "pte/operatorname.h"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace pte::interp {

struct KernelEntry;

/** One kernel call: the machine, the registered operator and the call's argument value ids. */
struct KernelCallArgs
{
    ReferenceInterpreter::Impl& machine;
    const KernelEntry& entry;
    const std::vector<std::int32_t>& args;
};

using KernelFunction = Result<void> (*)(const KernelCallArgs&);

struct KernelEntry
{
    std::string op; ///< "aten::add.out"
    OperatorName name;
    KernelFunction run = nullptr;
    bool complex = false; ///< reads complex64 tensors itself (their bytes); other kernels refuse them
};

/** Every kernel of the interpreter by full operator name, filled once by the families' register functions. */
class KernelRegistry
{
public:
    static const KernelRegistry& instance();
    /** The kernel of `op`; nullptr when the interpreter has none. */
    const KernelEntry* find(const std::string& op) const;
    /** Registers `run` for `op` (a name registered twice keeps its first kernel); `complex`: KernelEntry::complex. */
    void add(const std::string& op, KernelFunction run, bool complex = false);

private:
    std::unordered_map<std::string, KernelEntry> m_kernels;
};

void registerPointwiseKernels(KernelRegistry& registry);
void registerShapeKernels(KernelRegistry& registry);
void registerCreationKernels(KernelRegistry& registry);
void registerLinalgKernels(KernelRegistry& registry);
void registerNnKernels(KernelRegistry& registry);
void registerReductionKernels(KernelRegistry& registry);
void registerIndexKernels(KernelRegistry& registry);
void registerPrimKernels(KernelRegistry& registry);
void registerQuantizedKernels(KernelRegistry& registry);

/** The binary ops the aten arithmetic/comparison kernels and executorch_prim's scalar ops share ("add" -> x + y). */
const std::map<std::string, std::function<double(double, double)>, std::less<>>& basicBinaryOps();

inline std::int64_t asInt(double v) { return std::int64_t(v); }

/**
 * The base of a family's kernels: a family is a struct deriving from Kernel whose member functions are kernels,
 * constructed for one call (registered with `invoke<Family, &Family::kernel>`). Argument readers come in two
 * spellings: by value id (tensor(arg(0))) and by argument position (tensorAt(0)).
 */
class Kernel
{
public:
    explicit Kernel(const KernelCallArgs& call)
        : d(call.machine)
        , slots(call.machine.slots)
        , op(call.entry.op)
        , ns(call.entry.name.ns)
        , name(call.entry.name.name)
        , overload(call.entry.name.overload)
        , a(call.args)
    { }

protected:
    using Unary = std::function<double(double)>;
    using Binary = std::function<double(double, double)>;

    std::int64_t arg(std::size_t k) const { return k < a.size() ? a[k] : -1; }
    Result<void> need(std::size_t n) const
    {
        if (a.size() != n)
            return fail(ErrorCode::InvalidInput,
                where() + ": " + op + " takes " + std::to_string(n) + " arguments, got " + std::to_string(a.size()));
        return {};
    }
    std::string where() const { return d.where(); }
    Unexpected invalid(const std::string& what) const
    {
        return fail(ErrorCode::InvalidInput, d.where() + ": " + op + ": " + what);
    }

    // Readers by value id.
    Result<std::shared_ptr<TensorState>> tensor(std::int64_t id) const { return d.tensor(id); }
    Result<std::shared_ptr<TensorState>> optionalTensor(std::int64_t id) const { return d.optionalTensor(id); }
    Result<double> scalar(std::int64_t id) const { return d.scalar(id); }
    bool isNull(std::int64_t id) const { return d.isNull(id); }
    Result<std::vector<std::int64_t>> intList(std::int64_t id) const { return d.intList(id); }
    Result<std::vector<std::shared_ptr<TensorState>>> tensorList(std::int64_t id) const { return d.tensorList(id); }
    Result<void> resize(TensorState& out, const std::vector<std::int64_t>& sizes) const { return d.resize(out, sizes); }
    Result<void> sliceDim(const TensorState& src, TensorState& dst, std::size_t dim, std::int64_t start,
        std::int64_t step, std::int64_t len, bool keepDim) const
    {
        return d.sliceDim(src, dst, dim, start, step, len, keepDim);
    }

    // Readers by argument position.
    Result<std::shared_ptr<TensorState>> tensorAt(std::size_t k) const { return d.tensor(arg(k)); }
    Result<double> scalarAt(std::size_t k) const { return d.scalar(arg(k)); }
    /** A `dim` argument normalised against `rank` (a 0-D tensor takes 0 and -1). */
    Result<std::size_t> dimArg(std::size_t k, std::size_t rank) const
    {
        PTE_TRY(const double v, scalarAt(k));
        const auto r = std::int64_t(std::max<std::size_t>(rank, 1));
        const auto dim = dimIndex(v, r);
        if (!dim)
            return invalid("dimension " + std::to_string(std::int64_t(v)) + " out of range");
        return *dim;
    }

    /** out[i] = f(x[i]): value ids. */
    Result<void> unary(std::int64_t x, std::int64_t out, const Unary& f) const
    {
        PTE_TRY(auto tx, tensor(x));
        PTE_TRY(auto to, tensor(out));
        PTE_CHECK(resize(*to, tx->sizes));
        std::vector<double> result(tx->numel());
        for (std::size_t e = 0; e < result.size(); ++e)
            result[e] = f(tx->get(e));
        store(*to, result);
        return {};
    }
    /** out = f(x, y) with broadcasting, `y` a scalar when `yScalar`: value ids. */
    Result<void> binary(std::int64_t x, std::int64_t y, bool yScalar, std::int64_t out, const Binary& f) const
    {
        PTE_TRY(auto tx, tensor(x));
        PTE_TRY(auto to, tensor(out));
        std::shared_ptr<TensorState> ty;
        double sy = 0;
        std::vector<std::int64_t> shape = tx->sizes;
        if (yScalar) {
            PTE_TRY(sy, scalar(y));
        } else {
            PTE_TRY(ty, tensor(y));
            shape = broadcastShape(tx->sizes, ty->sizes);
            if (shape.empty() && !(tx->sizes.empty() && ty->sizes.empty()))
                return fail(ErrorCode::InvalidInput, where() + ": " + op + ": shapes do not broadcast");
        }
        PTE_CHECK(resize(*to, shape));
        std::vector<double> result(to->numel());
        for (std::size_t e = 0; e < result.size(); ++e)
            result[e] =
                f(tx->get(broadcastIndex(shape, tx->sizes, e)), ty ? ty->get(broadcastIndex(shape, ty->sizes, e)) : sy);
        store(*to, result);
        return {};
    }
    /** unary() and binary() by argument position. */
    Result<void> unaryAt(std::size_t in, std::size_t out, const Unary& f) const { return unary(arg(in), arg(out), f); }
    Result<void> binaryAt(std::size_t x, std::size_t y, bool scalarY, std::size_t out, const Binary& f) const
    {
        return binary(arg(x), arg(y), scalarY, arg(out), f);
    }
    /** Sets scalar value `id`, keeping its kind. */
    void setScalar(std::int64_t id, double v) const
    {
        Slot& s = slots.at(std::size_t(id));
        if (s.kind == ValueKind::Bool)
            s.b = v != 0;
        else if (s.kind == ValueKind::Double)
            s.d = v;
        else
            s.i = std::int64_t(v);
    }
    /** Copies with the element order given by an index map (permute, view, select...). */
    Result<void> gather(const TensorState& src, TensorState& dst, const std::vector<std::int64_t>& sizes,
        const std::function<std::size_t(std::size_t)>& from) const
    {
        PTE_CHECK(resize(dst, sizes));
        std::vector<double> result(dst.numel());
        for (std::size_t e = 0; e < result.size(); ++e)
            result[e] = src.get(from(e));
        store(dst, result);
        return {};
    }

    /** Calls f(outIndex, values along `dim`) for every position of the other dimensions of `x`. */
    static void alongDim(const TensorState& x, std::size_t dim,
        const std::function<void(std::size_t outer, std::size_t inner, const std::vector<double>&)>& f)
    {
        const std::size_t len = x.sizes.empty() ? 1 : std::size_t(x.sizes[dim]);
        const std::size_t inner = x.sizes.empty() ? 1 : numelFrom(x.sizes, dim + 1);
        const std::size_t outer = x.numel() / std::max<std::size_t>(len * inner, 1);
        std::vector<double> values(len);
        for (std::size_t o = 0; o < outer; ++o)
            for (std::size_t i = 0; i < inner; ++i) {
                for (std::size_t k = 0; k < len; ++k)
                    values[k] = x.get((o * len + k) * inner + i);
                f(o, i, values);
            }
    }
    /** `sizes` without dimension `dim` (kept as 1 with `keep`). */
    static std::vector<std::int64_t> reducedShape(std::vector<std::int64_t> sizes, std::size_t dim, bool keep)
    {
        if (sizes.empty())
            return sizes;
        if (keep)
            sizes[dim] = 1;
        else
            sizes.erase(sizes.begin() + std::ptrdiff_t(dim));
        return sizes;
    }

    ReferenceInterpreter::Impl& d;
    std::vector<Slot>& slots;
    const std::string& op; ///< "aten::add.out"
    const std::string& ns; ///< "aten"
    const std::string& name; ///< "add"
    const std::string& overload; ///< "out"
    const std::vector<std::int32_t>& a; ///< the argument value ids
};

/** The KernelFunction running `Method` of a fresh `Family` for one call. */
template <class Family, Result<void> (Family::*Method)()> Result<void> invoke(const KernelCallArgs& call)
{
    Family family(call);
    return (family.*Method)();
}

} // namespace pte::interp
