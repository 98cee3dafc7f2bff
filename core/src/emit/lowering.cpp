// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "emit/lowering_p.h"
#include "pte/kernelcoverage.h"
#include "pte/operatorname.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <cstring>
#include <functional>
#include <limits>
#include <numeric>
#include <set>
#include <span>
#include <unordered_map>
#include <unordered_set>
#include <utility>

namespace pte::emitcore {

std::uint64_t LValue::nbytes() const noexcept
{
    std::uint64_t n = elementSize(dtype);
    for (const auto s : sizes)
        n *= std::uint64_t(std::max<std::int32_t>(s, 0));
    return n;
}

// ---------------------------------------------------------------------------------------------------------
// Small helpers: targets, symbolic bounds, dim orders
// ---------------------------------------------------------------------------------------------------------

std::optional<TargetName> parseTarget(const std::string& target)
{
    std::string_view t = target;
    if (t.find("::") != std::string_view::npos) {
        auto parts = splitOperatorName(t);
        TargetName n;
        n.ns = std::move(parts.ns);
        n.op = std::move(parts.name);
        if (!isDefaultOverload(parts.overload))
            n.overload = std::move(parts.overload);
        return n;
    }
    for (const std::string_view prefix :
        { "executorch.exir.dialects.edge.ops.", "executorch.exir.dialects.backend.ops.", "torch.ops.", "ops." }) {
        if (t.substr(0, prefix.size()) == prefix) {
            t.remove_prefix(prefix.size());
            break;
        }
    }
    const auto first = t.find('.');
    const auto last = t.rfind('.');
    if (first == std::string_view::npos)
        return std::nullopt;
    TargetName n;
    n.ns = std::string(t.substr(0, first));
    if (first == last) {
        n.op = std::string(t.substr(first + 1));
    } else {
        n.op = std::string(t.substr(first + 1, last - first - 1));
        n.overload = std::string(t.substr(last + 1));
    }
    if (isDefaultOverload(n.overload))
        n.overload.clear();
    return n;
}

std::optional<std::pair<std::string, std::string>> viewCopyOf(std::string_view qualifiedName)
{
    static const std::unordered_map<std::string_view, std::pair<std::string, std::string>> kViews = {
        { "aten::permute", { "aten::permute_copy", "" } },
        { "aten::expand", { "aten::expand_copy", "" } },
        { "aten::unsqueeze", { "aten::unsqueeze_copy", "" } },
        { "aten::select", { "aten::select_copy", "int" } },
        { "aten::slice", { "aten::slice_copy", "Tensor" } },
        { "aten::alias", { "aten::alias_copy", "" } },
        { "aten::detach", { "aten::detach_copy", "" } },
        { "aten::split", { "aten::split_copy", "Tensor" } },
        { "aten::split_with_sizes", { "aten::split_with_sizes_copy", "" } },
        { "aten::unbind", { "aten::unbind_copy", "int" } },
        { "aten::transpose", { "aten::transpose_copy", "int" } },
        { "aten::as_strided", { "aten::as_strided_copy", "" } },
        { "aten::diagonal", { "aten::diagonal_copy", "" } },
        { "aten::unfold", { "aten::unfold_copy", "" } },
        { "aten::view_as_real", { "aten::view_as_real_copy", "" } },
    };
    const auto v = kViews.find(qualifiedName);
    if (v == kViews.end())
        return std::nullopt;
    return v->second;
}

Result<int> Lowering::newTensor(const std::string& name, const TensorMeta& meta, const Where& where)
{
    if (meta.deviceType != "cpu") {
        return fail(ErrorCode::Unsupported,
            "method '" + m_method + "': tensor '" + name + "' (" + where + ") is on device " + meta.deviceType
                + (meta.deviceIndex ? ":" + std::to_string(*meta.deviceIndex) : std::string())
                + "; ptelens emits programs for ExecuTorch's CPU runtime only");
    }
    if (meta.layout != 7) {
        return fail(ErrorCode::Unsupported,
            "method '" + m_method + "': tensor '" + name + "' (" + where + ") has layout code "
                + std::to_string(meta.layout) + "; only strided tensors can be emitted");
    }
    if (!isValidScalarType(static_cast<std::int8_t>(meta.dtype)) || elementSize(meta.dtype) == 0)
        return fail(ErrorCode::Unsupported,
            "method '" + m_method + "': tensor '" + name + "' has a dtype ExecuTorch does not support (code "
                + std::to_string(meta.rawDtype) + ")");
    if (meta.sizes.size() > 16)
        return fail(ErrorCode::Unsupported,
            "method '" + m_method + "': tensor '" + name + "' has rank " + std::to_string(meta.sizes.size())
                + " (ExecuTorch allows at most 16)");
    // Built in place (a failure below abandons the whole lowering, so a half-built value is never used).
    const int id = int(m_out.values.size());
    LValue& v = m_out.values.emplace_back();
    v.name = name;
    v.dtype = meta.dtype;
    v.requiresGrad = meta.requiresGrad;
    v.fromDump = true;
    v.sizes.reserve(meta.sizes.size());
    for (std::size_t d = 0; d < meta.sizes.size(); ++d) {
        const auto& s = meta.sizes[d];
        if (!s.isConcrete()) {
            v.dynamism = ShapeDynamism::DynamicBound;
            if (d < 32)
                v.dynamicDims |= 1u << d;
        }
        const auto ub = symUpperBound(s, m_ep.rangeConstraints);
        if (!ub) {
            return fail(ErrorCode::Unsupported,
                "method '" + m_method + "': dimension " + std::to_string(d) + " of tensor '" + name + "' is '" + s.expr
                    + "', which has no upper bound in range_constraints; ExecuTorch plans dynamic tensors at "
                      "their upper bound");
        }
        if (*ub < 0 || *ub > std::numeric_limits<std::int32_t>::max())
            return fail(ErrorCode::InvalidInput,
                "method '" + m_method + "': dimension " + std::to_string(d) + " of tensor '" + name + "' is "
                    + std::to_string(*ub) + ", outside what a .pte can hold");
        v.sizes.push_back(std::int32_t(*ub));
    }
    {
        // nbytes must fit comfortably in 64 bits (the planner adds offsets to it).
        std::uint64_t bytes = elementSize(v.dtype);
        for (const auto sz : v.sizes) {
            if (sz != 0 && bytes > (std::uint64_t(1) << 62) / std::uint64_t(sz))
                return fail(ErrorCode::InvalidInput,
                    "method '" + m_method + "': tensor '" + name + "' (" + where + ") is too large to plan");
            bytes *= std::uint64_t(sz);
        }
    }
    std::array<std::int64_t, 16> strides {}; // rank <= 16 (checked above)
    bool stridesOk = meta.strides.size() == meta.sizes.size();
    for (std::size_t d = 0; stridesOk && d < meta.strides.size(); ++d) {
        auto st = meta.strides[d].value ? meta.strides[d].value : meta.strides[d].hint;
        if (!st)
            st = symUpperBound(meta.strides[d], m_ep.rangeConstraints);
        if (!st)
            stridesOk = false;
        else
            strides[d] = *st;
    }
    v.dimOrder = stridesOk ? dimOrderOf(std::span<const std::int64_t>(strides.data(), meta.strides.size()))
                           : dimOrderFromStrides(contiguousStrides(v.sizes));
    return id;
}

const TensorMeta* Lowering::findMeta(const std::string& name) const
{
    if (m_graphs.size() == 1) {
        const TopSlot* slot = m_top.find(name);
        return slot ? slot->meta : nullptr;
    }
    for (auto g = m_graphs.rbegin(); g != m_graphs.rend(); ++g) {
        const auto it = (*g)->tensorValues.find(name);
        if (it != (*g)->tensorValues.end())
            return &it->second;
    }
    return nullptr;
}

Result<int> Lowering::newTensorFromName(const std::string& name, const Where& where)
{
    // At the top level one slot gives the metadata and takes the value.
    TopSlot* slot = m_graphs.size() == 1 && m_scopes.size() == 1 ? m_top.find(name) : nullptr;
    const TensorMeta* meta = slot ? slot->meta : findMeta(name);
    if (!meta)
        return fail(ErrorCode::InvalidInput,
            "method '" + m_method + "': " + where + ": tensor '" + name + "' has no entry in tensor_values");
    PTE_TRY(const int id, newTensor(name, *meta, where));
    if (slot)
        slot->ref = id;
    else
        define(name, id);
    return id;
}

int Lowering::newTemp(
    const std::string& name, ScalarType dtype, std::vector<std::int32_t> sizes, std::vector<std::uint8_t> dimOrder)
{
    LValue v;
    v.name = name + "_tmp" + std::to_string(m_temps++);
    v.dtype = dtype;
    if (dimOrder.empty()) {
        dimOrder.resize(sizes.size());
        std::iota(dimOrder.begin(), dimOrder.end(), std::uint8_t(0));
    }
    v.sizes = std::move(sizes);
    v.dimOrder = std::move(dimOrder);
    m_out.values.push_back(std::move(v));
    return int(m_out.values.size() - 1);
}

int Lowering::newSym(const std::string& name)
{
    LValue v;
    v.isSym = true;
    v.name = name;
    v.storage = LValue::Storage::Unplanned;
    m_out.values.push_back(std::move(v));
    const int id = int(m_out.values.size() - 1);
    define(name, id);
    return id;
}

Result<int> Lowering::lookup(const std::string& name, const Where& where) const
{
    for (auto s = m_scopes.rbegin(); s != m_scopes.rend(); ++s) {
        if (s + 1 == m_scopes.rend()) {
            const TopSlot* slot = m_top.find(name);
            if (slot && slot->ref >= 0)
                return slot->ref;
        }
        const auto it = s->find(name);
        if (it != s->end())
            return it->second;
    }
    if (const auto u = m_uncomputed.find(name); u != m_uncomputed.end())
        return fail(ErrorCode::Unsupported,
            "method '" + m_method + "': " + where + " uses '" + name + "', " + u->second
                + ", which ptelens' lowering does not compute (docs/decompositions.md)");
    return fail(ErrorCode::InvalidInput,
        "method '" + m_method + "': " + where + " uses '" + name + "', which no earlier node or input defines");
}

Result<std::vector<int>> Lowering::nodeOutputs(const Node& n)
{
    std::vector<int> outs;
    const Where where = this->where(n);
    for (const auto& o : n.outputs) {
        if (o.kind == ArgKind::Tensor || o.kind == ArgKind::Tensors || o.kind == ArgKind::OptionalTensors) {
            for (const auto& nm : o.names) {
                PTE_TRY(const int id, newTensorFromName(nm, where));
                outs.push_back(id);
            }
        } else if (o.kind == ArgKind::SymInt || o.kind == ArgKind::SymBool || o.kind == ArgKind::SymFloat) {
            std::string nm = !o.names.empty() ? o.names[0] : (!o.syms.empty() ? o.syms[0].expr : std::string());
            outs.push_back(newSym(nm));
        } else if (o.kind == ArgKind::None) {
            continue;
        } else {
            return fail(nodeError(
                n, ErrorCode::Unsupported, std::string("output of kind ") + argKindName(o.kind) + " is not supported"));
        }
    }
    return outs;
}

Result<void> Lowering::emitKernel(
    const OpSchema& s, ArgMap given, const std::vector<int>& outs, const Node& n, const std::string& origin)
{
    if (s.ns == "aten")
        PTE_CHECK(checkKernel(s.key(), n));
    // Built in place: on failure the caller abandons the whole lowering.
    LInstr& in = m_out.instrs.emplace_back();
    in.kind = LInstr::Kind::Kernel;
    in.schema = &s;
    in.node = &n;
    in.origin = origin.empty() ? n.name : origin;
    in.recordDebug = m_recordDebug;
    if (m_recordDebug) {
        in.debugHandle = firstDebugHandle(n);
        in.debugHandleRead = true;
    }
    in.args.reserve(s.args.size());
    std::size_t nextOut = 0;
    for (std::size_t i = 0; i < s.args.size(); ++i) {
        const auto& a = s.args[i];
        if (a.kwargOnly && a.type.mutates) { // an out argument (OpSchema::outArgs)
            auto it = given.find(a.name);
            if (it != given.end() && it->second.kind != LArg::Kind::Null) {
                in.args.push_back(std::move(it->second));
            } else if (a.type.isList) {
                LArg l;
                l.kind = LArg::Kind::TensorList;
                for (; nextOut < outs.size(); ++nextOut) {
                    l.refs.push_back(outs[nextOut]);
                    in.allocs.push_back(outs[nextOut]);
                }
                in.args.push_back(std::move(l));
            } else {
                if (nextOut >= outs.size())
                    return fail(nodeError(n, ErrorCode::InvalidInput,
                        "the node has fewer outputs than " + s.key() + " has out arguments"));
                in.allocs.push_back(outs[nextOut]);
                in.args.push_back(LArg::tensor(outs[nextOut++]));
            }
            in.outArgIndices.push_back(i);
            continue;
        }
        auto it = given.find(a.name);
        if (it != given.end()) {
            in.args.push_back(std::move(it->second));
        } else {
            auto d = defaultArg(a, this->where(n));
            if (!d)
                return fail(withPath(n, d.error()));
            in.args.push_back(std::move(*d));
        }
    }
    if (s.isOutFn()) {
        in.ret = LInstr::Ret::OutArgs;
        deriveLayouts(in, n);
    } else if (s.isSymOp()) {
        if (outs.size() != 1)
            return fail(nodeError(n, ErrorCode::InvalidInput, "a symbolic op must have exactly one output"));
        LArg r;
        r.kind = LArg::Kind::SymResult;
        r.ref = outs[0];
        in.retSlots.push_back(r);
    } else {
        // The node's own result(s); a list-typed result is wrapped in a TensorList.
        const bool listRet = s.returns.size() == 1 && s.returns[0].type.isList;
        if (listRet) {
            LArg l;
            l.kind = LArg::Kind::TensorList;
            l.refs = outs;
            in.retSlots.push_back(std::move(l));
        } else {
            for (const int o : outs)
                in.retSlots.push_back(
                    m_out.values[std::size_t(o)].isSym ? LArg { LArg::Kind::SymResult, o } : LArg::tensor(o));
        }
    }
    return {};
}

void Lowering::alias(const Node& n, int ref)
{
    for (const auto& o : n.outputs)
        for (const auto& nm : o.names)
            define(nm, ref);
}

Result<void> Lowering::checkKernel(const std::string& key, const Node& n)
{
    auto it = m_kernelChecked.find(key);
    if (it == m_kernelChecked.end())
        it = m_kernelChecked.emplace(key, portableKernelImplements(key)).first;
    if (it->second)
        return {};
    return fail(nodeError(n, ErrorCode::Unsupported,
        key
            + " has no kernel in ExecuTorch's runtime (portable, quantized and prim kernels); the runtime would "
              "refuse the program (OperatorMissing). docs/decompositions.md lists what is lowered"));
}

Result<void> Lowering::emitFunctionalAsIs(const OpSchema& s, const Node& n)
{
    PTE_TRY(auto given, bindArgs(s, n));
    PTE_TRY(const auto outs, nodeOutputs(n));
    return emitKernel(s, std::move(given), outs, n);
}

Result<void> Lowering::emitUnknown(const TargetName& t, const Node& n)
{
    if (t.ns == "aten")
        return fail(nodeError(n, ErrorCode::Unsupported,
            "aten::" + t.op + (t.overload.empty() ? "" : "." + t.overload)
                + " is neither a core ATen operator with a kernel in ExecuTorch's runtime nor one ptelens decomposes "
                  "(to_edge refuses such an operator: \"not in Core ATen opset\"); docs/decompositions.md lists "
                  "what is lowered"));
    warn(this->where(n) + ": operator " + t.ns + "::" + t.op + (t.overload.empty() ? "" : "." + t.overload)
            + " is not in ptelens' schema registry; emitted with the arguments present (no defaults, no out "
              "variant): the runtime needs a kernel registered as "
            + t.ns + "::" + t.op + (t.overload.empty() ? "" : "." + t.overload)
            + " (a custom-op library linked into it)",
        n.jsonPath, n.name);
    LInstr in;
    in.kind = LInstr::Kind::Kernel;
    in.name = LInstr::OperatorName { t.ns + "::" + t.op, t.overload };
    in.node = &n;
    in.origin = n.name;
    in.recordDebug = m_recordDebug;
    for (const auto& a : n.inputs) {
        auto arg = convertUntyped(a.arg, this->where(n));
        if (!arg)
            return fail(withPath(n, arg.error()));
        in.args.push_back(std::move(*arg));
    }
    PTE_TRY(const auto outs, nodeOutputs(n));
    for (const int o : outs)
        in.retSlots.push_back(m_out.values[std::size_t(o)].isSym ? LArg { LArg::Kind::SymResult, o } : LArg::tensor(o));
    m_out.instrs.push_back(std::move(in));
    return {};
}

// memory.view (ExecuTorch's ReplaceViewCopyWithViewPass): the result shares the base's storage. A static view
// of planned or constant storage is elided (a value, no instruction); otherwise et_view sets it at run time.
Result<void> Lowering::lowerMemoryView(const Node& n)
{
    if (n.inputs.size() != 2 || n.inputs[0].arg.names.empty())
        return fail(nodeError(n, ErrorCode::InvalidInput, "memory.view expects (base, size)"));
    PTE_TRY(const auto bases, tensorRefs(n, n.inputs[0].arg));
    PTE_TRY(const auto outs, nodeOutputs(n));
    if (bases.size() != 1 || outs.size() != 1 || m_out.values[std::size_t(outs[0])].isSym)
        return fail(nodeError(n, ErrorCode::InvalidInput, "memory.view needs one tensor input and one tensor output"));
    const int base = bases[0];
    int root = base;
    while (m_out.values[std::size_t(root)].aliasOf >= 0)
        root = m_out.values[std::size_t(root)].aliasOf;
    const auto& b = m_out.values[std::size_t(root)];
    auto& v = m_out.values[std::size_t(outs[0])];
    if (b.storage == LValue::Storage::Unplanned)
        return fail(nodeError(n, ErrorCode::InvalidInput, "the base of memory.view has no storage"));
    if (elementSize(v.dtype) != elementSize(b.dtype) || v.nbytes() > b.nbytes())
        return fail(nodeError(n, ErrorCode::InvalidInput,
            "memory.view result (" + std::to_string(v.nbytes()) + " bytes) does not fit its base ("
                + std::to_string(b.nbytes()) + " bytes)"));
    v.aliasOf = root;
    v.storage = b.storage;
    v.data = b.data;
    v.initialised = b.initialised;
    if (v.dynamism == ShapeDynamism::Static) {
        LInstr a;
        a.kind = LInstr::Kind::Alloc;
        a.allocs = outs;
        m_out.instrs.push_back(std::move(a));
        return {};
    }
    auto size = convertArg(n.inputs[1].arg, ArgType { BaseType::SymInt, false, true }, this->where(n));
    if (!size)
        return fail(withPath(n, size.error()));
    pushSynthetic(
        n, "executorch_prim::et_view", "default", { LArg::tensor(base), std::move(*size), LArg::tensor(outs[0]) });
    return {};
}

Result<void> Lowering::lowerNode(const Node& n)
{
    if (m_options.cancel && m_options.cancel->load(std::memory_order_relaxed))
        return fail(ErrorCode::Cancelled, "emission cancelled");
    const std::string& target = n.target;
    // torch.ops.* and edge/backend-dialect ops (most nodes) match none of the targets checked by name below.
    const bool opOverload = n.targetKind == TargetKind::OpOverload;
    if (!opOverload && (n.targetKind == TargetKind::HigherOrder || target.find("higher_order") != std::string::npos)) {
        const std::string op = n.op.empty() ? target.substr(target.rfind('.') + 1) : n.op;
        if (op == "cond")
            return lowerCond(n);
        if (op == "executorch_call_delegate")
            return lowerDelegate(n);
        if (op == "while_loop")
            return fail(nodeError(n, ErrorCode::Unsupported,
                "Unsupported control flow operator: ExecuTorch's emitter cannot emit while_loop"));
        if (op == "map_impl" || op == "map")
            return lowerMap(n);
        if (op == "scan")
            return lowerScan(n);
        if (op == "with_effects")
            return lowerWithEffects(n);
        return fail(nodeError(n, ErrorCode::Unsupported, "higher-order operator '" + op + "' cannot be emitted"));
    }
    if (!opOverload && (n.targetKind == TargetKind::MemoryAlloc || target == "memory.alloc")) {
        PTE_TRY(const auto outs, nodeOutputs(n));
        LInstr a;
        a.kind = LInstr::Kind::Alloc;
        a.allocs = outs;
        m_out.instrs.push_back(std::move(a));
        return {};
    }
    if (!opOverload
        && (n.targetKind == TargetKind::MemoryView || target == "executorch.exir.memory.view"
            || target == "memory.view"))
        return lowerMemoryView(n);
    if (!opOverload && target == "_operator.getitem") {
        if (n.inputs.size() < 2 || n.outputs.empty())
            return fail(nodeError(n, ErrorCode::InvalidInput, "malformed getitem"));
        const auto& src = n.inputs[0].arg;
        const auto idx = n.inputs[1].arg.ints.empty() ? 0 : n.inputs[1].arg.ints[0];
        if (idx < 0 || std::size_t(idx) >= src.names.size())
            return fail(nodeError(n, ErrorCode::InvalidInput, "getitem index out of range"));
        PTE_TRY(const int r, lookup(src.names[std::size_t(idx)], this->where(n)));
        alias(n, r);
        return {};
    }
    if (!opOverload
        && (n.targetKind == TargetKind::SymOp
            || (target.rfind("_operator.", 0) == 0 || target.rfind("math.", 0) == 0
                || target.rfind("torch.sym_", 0) == 0)))
        return lowerSymOp(n);
    const ResolvedTarget* r = resolve(n);
    if (!r)
        return fail(nodeError(n, ErrorCode::InvalidInput, "invalid target for call_function"));
    return lowerOp(*r, n);
}

const Lowering::ResolvedTarget* Lowering::resolve(const Node& n)
{
    // Most nodes call one of a few dozen operators: resolved once per (target, namespace, op, overload).
    const bool fromParts = !n.ns.empty() && !n.op.empty();
    const std::string_view overload = isDefaultOverload(n.overload) ? std::string_view() : std::string_view(n.overload);
    const auto it = m_resolved.find(n.target);
    if (it != m_resolved.end() && it->second.fromParts == fromParts
        && (!fromParts || (it->second.t.ns == n.ns && it->second.t.op == n.op && it->second.t.overload == overload)))
        return &it->second;
    ResolvedTarget r;
    r.fromParts = fromParts;
    if (fromParts) {
        r.t = TargetName { n.ns, n.op, std::string(overload) };
    } else {
        auto t = parseTarget(n.target);
        if (!t)
            return nullptr;
        r.t = std::move(*t);
    }
    r.q = r.t.ns + "::" + r.t.op;
    r.schema = m_reg.find(r.q, r.t.overload);
    // Views become their *_copy forms (edge dialect).
    if (const auto v = viewCopyOf(r.q)) {
        r.isView = true;
        r.viewSchema = m_reg.find(v->first, v->second);
    }
    if (it != m_resolved.end())
        return &(it->second = std::move(r));
    return &m_resolved.emplace(n.target, std::move(r)).first->second;
}

Result<void> Lowering::lowerOp(const ResolvedTarget& r, const Node& n)
{
    const TargetName& t = r.t;
    if (isInPlace(t))
        return lowerInPlace(t, n);
    PTE_TRY(const bool done, decompose(t, n));
    if (done)
        return {};
    const std::string& q = r.q;
    const OpSchema* s = nullptr;
    const OpSchema* bindSchema = r.schema;
    // A Python scalar passed for a Tensor parameter (add.Tensor(x, 1)): use the Scalar overload, as the
    // edge dialect does.
    if (bindSchema && !bindSchema->isOutFn()) {
        for (const auto& in : n.inputs) {
            if (in.arg.kind != ArgKind::Int && in.arg.kind != ArgKind::Float && in.arg.kind != ArgKind::Bool)
                continue;
            const int idx = bindSchema->argIndex(in.name);
            if (idx < 0 || bindSchema->args[std::size_t(idx)].type.base != BaseType::Tensor
                || bindSchema->args[std::size_t(idx)].type.isList)
                continue;
            for (const OpSchema* cand : m_reg.overloads(q)) {
                const int ci = cand->argIndex(in.name);
                if (cand->isOutFn() || ci < 0 || cand->args[std::size_t(ci)].type.base != BaseType::Scalar
                    || cand->args.size() != bindSchema->args.size())
                    continue;
                bindSchema = cand;
                break;
            }
            break;
        }
    }
    s = r.isView && bindSchema ? r.viewSchema : bindSchema;
    if (!s)
        return emitUnknown(t, n);
    if (s->isOutFn() || s->isSymOp())
        return emitFunctionalAsIs(*s, n);
    const OpSchema* out = m_reg.outVariant(*s);
    if (!out) {
        const bool inPlace =
            std::any_of(s->args.begin(), s->args.end(), [](const SchemaArg& a) { return a.type.mutates; });
        if (!inPlace && !s->returns.empty())
            warn(this->where(n) + ": no out variant of " + s->key() + " is known; emitted in functional form",
                n.jsonPath, n.name);
        return emitFunctionalAsIs(*s, n);
    }
    PTE_TRY(auto given, bindArgs(*bindSchema, n));
    PTE_TRY(const auto outs, nodeOutputs(n));
    // Arguments the out form does not take (dtype/layout/device of factory functions) are dropped.
    for (auto it = given.begin(); it != given.end();)
        it = out->argIndex(it->first) < 0 ? given.erase(it) : std::next(it);
    return emitKernel(*out, std::move(given), outs, n);
}

Result<LoweredMethod> Lowering::run()
{
    m_scopes.emplace_back();
    const auto nodeCount = m_ep.graph.nodes.size();
    m_scopes.back().reserve(64); // symbols and other non-tensor names; tensors are in m_top
    m_out.values.reserve(2 * nodeCount + m_ep.graph.inputs.size() + 16);
    m_out.instrs.reserve(nodeCount + m_ep.signature.outputSpecs.size() + 16);
    m_graphs.push_back(&m_ep.graph);
    m_top.reserve(m_ep.graph.tensorValues.size());
    for (const auto& [name, meta] : m_ep.graph.tensorValues)
        m_top.insert(name, TopSlot { &meta, -1 });
    scanMutations();
    PTE_CHECK(placeholders());
    for (m_nodeIndex = 0; m_nodeIndex < nodeCount; ++m_nodeIndex)
        PTE_CHECK(lowerNode(m_ep.graph.nodes[m_nodeIndex]));
    PTE_CHECK(writeBackInPlaceMutations());
    PTE_CHECK(writeBacksAndOutputs());
    computeLifetimes();
    // Container metadata: the pytree specs of the top-level module call.
    for (const auto& e : m_ep.moduleCallGraph) {
        if (e.fqn.empty() && (e.inSpec || e.outSpec)) {
            m_out.containerMeta = ContainerMetadata { e.inSpec.value_or(""), e.outSpec.value_or("") };
            break;
        }
    }
    if (!m_out.containerMeta) {
        const std::string leaf = R"({"type": null, "context": null, "children_spec": []})";
        std::string inputs;
        std::size_t nUser = 0;
        for (const auto& p : m_out.placeholders)
            if (p.userInput)
                inputs += (nUser++ ? ", " : "") + leaf;
        std::string outs;
        for (std::size_t i = 0; i < m_out.outputs.size(); ++i)
            outs += (i ? ", " : "") + leaf;
        m_out.containerMeta = ContainerMetadata {
            R"([1, {"type": "builtins.tuple", "context": "null", "children_spec": [{"type": "builtins.tuple", "context": "null", "children_spec": [)"
                + inputs + R"(]}, {"type": "builtins.dict", "context": "[]", "children_spec": []}]}])",
            m_out.outputs.size() == 1
                ? "[1, " + leaf + "]"
                : R"([1, {"type": "builtins.tuple", "context": "null", "children_spec": [)" + outs + "]}]",
        };
    }
    return std::move(m_out);
}

Result<LoweredMethod> lowerMethod(
    const ExportedProgram& ep, const std::string& methodName, const LoweringOptions& options)
{
    Lowering l(ep, methodName, options);
    return l.run();
}

} // namespace pte::emitcore
