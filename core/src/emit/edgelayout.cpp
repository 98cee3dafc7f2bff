// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "emit/lowering_p.h"

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

namespace {

bool isIdentity(const std::vector<std::uint8_t>& order, std::size_t rank)
{
    if (order.size() != rank)
        return false;
    for (std::size_t k = 0; k < rank; ++k)
        if (order[k] != k)
            return false;
    return true;
}

std::string showSizes(const std::vector<std::int32_t>& sizes)
{
    std::string s = "[";
    for (std::size_t k = 0; k < sizes.size(); ++k)
        s += (k ? ", " : "") + std::to_string(sizes[k]);
    return s + "]";
}

std::string showOrder(const std::vector<std::uint8_t>& order)
{
    std::string s = "[";
    for (std::size_t k = 0; k < order.size(); ++k)
        s += (k ? ", " : "") + std::to_string(order[k]);
    return s + "]";
}

} // namespace

int dtypeCategory(ScalarType t)
{
    if (t == ScalarType::Bool)
        return 0;
    if (isIntegralType(t))
        return 1;
    return isFloatingType(t) ? 2 : -1;
}

std::vector<std::uint8_t> dimOrderOf(std::span<const std::int64_t> strides)
{
    std::vector<std::uint8_t> order(strides.size());
    std::iota(order.begin(), order.end(), std::uint8_t(0));
    if (std::is_sorted(strides.begin(), strides.end(), std::greater<>()))
        return order; // contiguous (the common case): no sort needed
    std::stable_sort(
        order.begin(), order.end(), [&](std::uint8_t a, std::uint8_t b) { return strides[a] > strides[b]; });
    return order;
}

std::vector<std::uint8_t> dimOrderFromStrides(const std::vector<std::int64_t>& strides) { return dimOrderOf(strides); }

LayoutRule layoutRule(const OpSchema& s)
{
    // Ops whose PyTorch meta function keeps the memory format of their input (TensorIterator pointwise ops, and
    // those that allocate with the input's suggested memory format). Everything else writes contiguous tensors;
    // in particular every *_copy of a view op is `view(...).clone(contiguous_format)`.
    static const std::unordered_set<std::string_view> kKeep = { "abs", "acos", "acosh", "add", "asin", "asinh", "atan",
        "atan2", "atanh", "bitwise_and", "bitwise_left_shift", "bitwise_not", "bitwise_or", "bitwise_right_shift",
        "bitwise_xor", "ceil", "clamp", "copy", "copy_", "cos", "cosh", "div", "elu", "eq", "erf", "exp", "expm1",
        "fill", "floor", "floor_divide", "fmod", "ge", "gelu", "gt", "hardtanh", "isinf", "isnan", "le", "leaky_relu",
        "lift_fresh_copy", "log", "log10", "log1p", "log2", "logical_and", "logical_not", "logical_or", "logical_xor",
        "logit", "lt", "masked_fill", "maximum", "minimum", "mul", "ne", "neg", "pow", "reciprocal", "relu",
        "remainder", "round", "rsqrt", "rsub", "sigmoid", "sign", "sin", "sinh", "sqrt", "sub", "tan", "tanh", "trunc",
        "where", "convolution", "_native_batch_norm_legit_no_training", "max_pool2d_with_indices", "avg_pool2d",
        "_adaptive_avg_pool2d", "native_dropout", "full_like", "constant_pad_nd", "upsample_nearest2d",
        "upsample_bilinear2d", "_to_copy", "scalar_tensor", "glu", "_conj_physical" };
    if (s.ns == "dim_order_ops")
        return LayoutRule::DimOrderArg;
    if (s.ns == "aten" && s.name == "clone")
        return LayoutRule::MemoryFormatArg;
    if (s.ns == "aten" && kKeep.count(s.name))
        return LayoutRule::KeepInput;
    return LayoutRule::Contiguous;
}

bool isPointwise(const OpSchema& s)
{
    static const std::unordered_set<std::string_view> kShaped = { "convolution", "_native_batch_norm_legit_no_training",
        "max_pool2d_with_indices", "avg_pool2d", "_adaptive_avg_pool2d", "constant_pad_nd", "upsample_nearest2d",
        "upsample_bilinear2d", "scalar_tensor", "glu", "copy_" };
    return layoutRule(s) == LayoutRule::KeepInput && !kShaped.count(s.name);
}

DtypeRule dtypeRule(const OpSchema& s)
{
    static const std::unordered_set<std::string_view> kBool = { "eq", "ne", "lt", "le", "gt", "ge", "logical_and",
        "logical_or", "logical_xor", "logical_not", "isinf", "isnan" };
    static const std::unordered_set<std::string_view> kPromote = { "add", "sub", "rsub", "mul", "maximum", "minimum",
        "where", "neg", "abs", "remainder", "fmod", "floor_divide" };
    static const std::unordered_set<std::string_view> kFloat = { "sin", "cos", "tan", "asin", "acos", "atan", "sinh",
        "cosh", "tanh", "asinh", "acosh", "atanh", "exp", "expm1", "log", "log10", "log1p", "log2", "sqrt", "rsqrt",
        "sigmoid", "erf", "reciprocal", "atan2" };
    if (s.ns != "aten")
        return DtypeRule::None;
    if (kBool.count(s.name))
        return DtypeRule::Bool;
    if (kPromote.count(s.name))
        return DtypeRule::Promote;
    if (kFloat.count(s.name) || (s.name == "div" && (s.overload == "out" || s.overload == "Scalar_out")))
        return DtypeRule::FloatOp;
    return DtypeRule::None;
}

void Lowering::info(const Node& n, const std::string& msg)
{
    // One note per node up to a limit, then one that counts the rest (a transformer has thousands of views).
    constexpr std::size_t kMaxNotes = 20;
    ++m_layoutNotes;
    if (m_layoutNotes > kMaxNotes + 1)
        return;
    Diagnostic d;
    d.severity = Severity::Info;
    d.code = ErrorCode::Unsupported;
    d.message = "method '" + m_method + "': "
        + (m_layoutNotes > kMaxNotes ? std::string("more nodes whose dump metadata ExecuTorch derives differently "
                                                   "(not listed one by one)")
                                     : this->where(n) + ": " + msg);
    d.fieldPath = m_layoutNotes > kMaxNotes ? std::string() : n.jsonPath;
    d.file = m_ep.source;
    d.location.method = m_method;
    if (m_layoutNotes <= kMaxNotes)
        d.location.node = n.name;
    m_out.warnings.push_back(std::move(d));
}

void Lowering::deriveLayouts(const LInstr& in, const Node& n)
{
    // Runs for every kernel call of big graphs: the rule is cached per schema, and an out tensor that already has
    // the derived order (nearly all) costs a comparison, no allocation.
    const OpSchema& s = *in.schema;
    auto cached = m_outputRules.find(&s);
    if (cached == m_outputRules.end())
        cached = m_outputRules
                     .emplace(&s,
                         OutputRule {
                             layoutRule(s), isPointwise(s), dtypeRule(s), { s.argIndex("self"), s.argIndex("other") } })
                     .first;
    const LayoutRule rule = cached->second.layout;
    // Pointwise ops: the out tensor has the broadcast shape of the (static) tensor inputs.
    std::optional<std::vector<std::int32_t>> shape;
    if (cached->second.pointwise) {
        for (std::size_t i = 0; i < s.args.size() && i < in.args.size(); ++i) {
            const auto& a = in.args[i];
            if (s.args[i].type.mutates || a.kind != LArg::Kind::Tensor)
                continue;
            const LValue& t = m_out.values[std::size_t(a.ref)];
            if (t.isSym || t.dynamism != ShapeDynamism::Static) {
                shape.reset();
                break;
            }
            shape = shape ? broadcastShapes(*shape, t.sizes) : t.sizes;
            if (!shape)
                break;
        }
    }
    // Pointwise ops whose result dtype torch's type promotion fixes: the out tensor gets it.
    std::optional<ScalarType> dtype;
    if (const DtypeRule dr = cached->second.dtype; dr == DtypeRule::Bool) {
        dtype = ScalarType::Bool;
    } else if (dr != DtypeRule::None) {
        // The operands (self, other): one tensor dtype, raised by a Python scalar of a higher category. Tensors of
        // different dtypes or categories this does not model leave the dump's dtype in place.
        std::optional<ScalarType> common;
        int scalarCategory = -1;
        bool certain = true;
        for (const int i : cached->second.operands) {
            if (i < 0 || std::size_t(i) >= in.args.size() || s.args[std::size_t(i)].type.mutates || !certain)
                continue;
            const auto& a = in.args[std::size_t(i)];
            if (a.kind == LArg::Kind::Tensor) {
                const ScalarType t = m_out.values[std::size_t(a.ref)].dtype;
                certain = dtypeCategory(t) >= 0 && (!common || *common == t);
                common = t;
            } else if (a.kind == LArg::Kind::Bool || a.kind == LArg::Kind::Int || a.kind == LArg::Kind::Double) {
                scalarCategory = std::max(scalarCategory,
                    a.kind == LArg::Kind::Bool      ? 0
                        : a.kind == LArg::Kind::Int ? 1
                                                    : 2);
            } else {
                certain = false; // a symbolic scalar, None...
            }
        }
        if (certain && common) {
            ScalarType t = *common;
            if (scalarCategory > dtypeCategory(t))
                t = scalarCategory == 2 ? ScalarType::Float : ScalarType::Long;
            if (dr == DtypeRule::FloatOp && dtypeCategory(t) < 2)
                t = ScalarType::Float;
            dtype = t;
        }
    }
    // The first tensor input (a tensor list's first tensor): the layout pointwise ops and the rest keep.
    int primary = -1;
    if (rule != LayoutRule::Contiguous) {
        for (std::size_t i = 0; i < s.args.size() && i < in.args.size() && primary < 0; ++i) {
            const auto& a = in.args[i];
            if (s.args[i].type.mutates || s.args[i].type.base != BaseType::Tensor)
                continue;
            if (a.kind == LArg::Kind::Tensor)
                primary = a.ref;
            else if ((a.kind == LArg::Kind::TensorList || a.kind == LArg::Kind::OptionalTensorList) && !a.refs.empty())
                primary = a.refs[0];
        }
    }
    std::optional<std::vector<std::uint8_t>> requested; // dim_order / memory_format arguments (empty: contiguous)
    if (rule == LayoutRule::DimOrderArg || rule == LayoutRule::MemoryFormatArg) {
        const int idx = s.argIndex(rule == LayoutRule::DimOrderArg ? "dim_order" : "memory_format");
        if (idx >= 0 && std::size_t(idx) < in.args.size()) {
            const LArg& a = in.args[std::size_t(idx)];
            if (a.kind == LArg::Kind::IntList) {
                std::vector<std::uint8_t> order;
                for (const auto& e : a.ints)
                    order.push_back(std::uint8_t(e.literal));
                requested = std::move(order);
            } else if (a.kind == LArg::Kind::Int && a.i == 0) {
                requested = std::vector<std::uint8_t> {};
            }
        }
    }
    auto derive = [&](int o) {
        if (o < 0 || m_out.values[std::size_t(o)].isSym)
            return;
        auto& v = m_out.values[std::size_t(o)];
        if (v.mutableBuffer || v.storage != LValue::Storage::Planned)
            return; // a graph input written in place keeps the layout it has
        if (shape && *shape != v.sizes && v.dynamism == ShapeDynamism::Static) {
            if (v.fromDump)
                info(n,
                    "the dump gives '" + v.name + "' the sizes " + showSizes(v.sizes) + ", but " + s.key()
                        + " broadcasts its inputs to " + showSizes(*shape)
                        + ": emitted with those, as ExecuTorch's "
                          "edge dialect derives them");
            v.sizes = *shape;
        }
        if (dtype && *dtype != v.dtype) {
            if (v.fromDump)
                info(n,
                    "the dump gives '" + v.name + "' the dtype " + scalarTypeShortName(v.dtype) + ", but " + s.key()
                        + " computes " + scalarTypeShortName(*dtype) + " from its operands: emitted with "
                        + scalarTypeShortName(*dtype) + " as ExecuTorch's edge dialect derives it");
            v.dtype = *dtype;
        }
        const std::size_t rank = v.sizes.size();
        const std::vector<std::uint8_t>* want = nullptr; // null: contiguous
        if (requested && requested->size() == rank)
            want = &*requested;
        else if (!requested && primary >= 0 && m_out.values[std::size_t(primary)].dimOrder.size() == rank)
            want = &m_out.values[std::size_t(primary)].dimOrder;
        if (want ? *want == v.dimOrder : isIdentity(v.dimOrder, rank))
            return;
        std::vector<std::uint8_t> order(rank);
        if (want)
            order = *want;
        else
            std::iota(order.begin(), order.end(), std::uint8_t(0));
        if (v.fromDump && v.aliasOf < 0 && !v.dimOrder.empty())
            info(n,
                "the dump gives '" + v.name + "' the dim order " + showOrder(v.dimOrder) + " (its strides), but "
                    + s.key()
                    + (rule == LayoutRule::Contiguous ? " writes a new contiguous tensor"
                                                      : " gives it the layout of its input or arguments")
                    + ": emitted with " + showOrder(order) + " as ExecuTorch's edge dialect derives it");
        v.dimOrder = std::move(order);
    };
    for (const auto i : in.outArgIndices) {
        const LArg& a = in.args[i];
        if (a.kind == LArg::Kind::Tensor)
            derive(a.ref);
        else if (a.kind == LArg::Kind::TensorList)
            for (const int r : a.refs)
                derive(r);
    }
}

Result<LArg> Lowering::memoryFormatDimOrder(const Node& n, std::size_t rank) const
{
    std::vector<std::int64_t> order(rank);
    std::iota(order.begin(), order.end(), 0);
    const NamedArgument* mf = n.input("memory_format");
    if (!mf || mf->arg.kind != ArgKind::MemoryFormat || mf->arg.ints.empty())
        return LArg::intList(order);
    const auto code = mf->arg.ints[0]; // torch serde: 1 contiguous, 2 channels_last, 3 channels_last_3d, 4 preserve
    if (code == 4)
        return LArg {};
    if ((code == 2 && rank == 4) || (code == 3 && rank == 5)) {
        order.erase(order.begin() + 1);
        order.push_back(1);
        return LArg::intList(order);
    }
    if (code != 1)
        return fail(nodeError(n, ErrorCode::Unsupported,
            "memory format code " + std::to_string(code) + " for a rank-" + std::to_string(rank) + " tensor"));
    return LArg::intList(order);
}

Result<void> Lowering::checkViewSize(const Node& n, int src, int out, const LArg& size)
{
    if (size.kind != LArg::Kind::IntList)
        return {};
    const LValue& in = m_out.values[std::size_t(src)];
    std::uint64_t inNumel = 1;
    for (const auto d : in.sizes)
        inNumel *= std::uint64_t(std::max<std::int32_t>(d, 0));
    std::uint64_t known = 1;
    bool inferred = false;
    bool dynamic = in.dynamism != ShapeDynamism::Static;
    for (const auto& e : size.ints) {
        std::int64_t v = e.literal;
        if (e.ref >= 0) {
            dynamic = true;
            const auto it = m_ep.graph.symIntValues.find(m_out.values[std::size_t(e.ref)].name);
            const auto bound =
                it == m_ep.graph.symIntValues.end() ? std::nullopt : symUpperBound(it->second, m_ep.rangeConstraints);
            if (!bound)
                return {}; // nothing to compare with
            v = *bound;
        }
        if (v == -1 && !inferred) {
            inferred = true;
            continue;
        }
        if (v < 0)
            return fail(nodeError(n, ErrorCode::InvalidInput, "view size " + std::to_string(v) + " is invalid"));
        known *= std::uint64_t(v);
    }
    const LValue& o = m_out.values[std::size_t(out)];
    std::uint64_t outNumel = 1;
    for (const auto d : o.sizes)
        outNumel *= std::uint64_t(std::max<std::int32_t>(d, 0));
    if (!dynamic) {
        const bool fits = inferred ? known != 0 && inNumel % known == 0 : known == inNumel;
        if (!fits)
            return fail(nodeError(n, ErrorCode::InvalidInput,
                "the view asks for " + std::to_string(known) + (inferred ? " x -1" : "") + " elements of a tensor of "
                    + std::to_string(inNumel) + " (torch refuses such a view: the dump is inconsistent)"));
        return {};
    }
    // Dynamic: the requested size at the upper bounds must fit the output as planned.
    if (!inferred && known > outNumel)
        return fail(nodeError(n, ErrorCode::InvalidInput,
            "the view's size reaches " + std::to_string(known)
                + " elements at the symbols' upper bounds, but its output '" + o.name + "' holds at most "
                + std::to_string(outNumel)
                + " (the dump's sizes disagree with the size argument; the runtime would refuse to resize it)"));
    return {};
}

} // namespace pte::emitcore
