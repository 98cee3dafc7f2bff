// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "emit/decompositions.h"

#include "emit/decomposer_p.h"
#include "pte/kernelcoverage.h"

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

// linear and matmul, dynamic shapes included: the builder's (OpBuilder::linear, OpBuilder::matmul).
Result<bool> decomposeLinear(Decomposer& d)
{
    PTE_TRY(const auto a, d.args("aten::linear", ""));
    return d.finish(
        { d.b.linear(Decomposer::tensor(a, "input"), Decomposer::tensor(a, "weight"), Decomposer::tensor(a, "bias")) });
}

Result<bool> decomposeMatmul(Decomposer& d)
{
    PTE_TRY(const auto a, d.args("aten::matmul", ""));
    return d.finish({ d.b.matmul(Decomposer::tensor(a, "self"), Decomposer::tensor(a, "other")) });
}

// torch.export's runtime checks: _assert_tensor_metadata (a .to() that changed nothing), _assert_scalar and
// sym_constrain_range(_for_size) (shape and value ranges), _assert_async. ExecuTorch removes them before emission
// (RemoveNonCoreAtenOpGraphAssertsPass in to_edge, RemoveGraphAssertsPass in to_executorch): the runtime checks what
// it needs itself (input shapes against their upper bounds). Nothing is emitted; the symbolic values only an
// assertion read are left unused.
Result<bool> dropAssertion(Decomposer& d) { return d.finish({}); }

const DecompositionRule kCoreRules[] = {
    { "_assert_async", &dropAssertion, "removed (ExecuTorch's RemoveGraphAssertsPass)" },
    { "_assert_scalar", &dropAssertion, "removed (ExecuTorch's RemoveGraphAssertsPass)" },
    { "_assert_tensor_metadata", &dropAssertion, "removed (ExecuTorch's RemoveNonCoreAtenOpGraphAssertsPass)" },
    { "sym_constrain_range", &dropAssertion, "removed (ExecuTorch's RemoveGraphAssertsPass)" },
    { "sym_constrain_range_for_size", &dropAssertion, "removed (ExecuTorch's RemoveGraphAssertsPass)" },
    { "_log_softmax_backward_data", [](Decomposer& d) { return d.logSoftmaxBackwardData(); },
        "g - exp(y) * sum(g, dim, keepdim) (sub, exp, mul, sum)" },
    { "_native_batch_norm_legit", [](Decomposer& d) { return d.batchNorm(); },
        "inference: kept (_native_batch_norm_legit.out); training: var, mean, rsqrt, sub, mul, add, squeeze_copy, "
        "copy_ of the running statistics" },
    { "_native_batch_norm_legit_functional", [](Decomposer& d) { return d.batchNorm(); },
        "inference: _native_batch_norm_legit_no_training; training: var/mean/rsqrt arithmetic, the updated running "
        "statistics returned" },
    { "_to_copy", [](Decomposer& d) { return d.to(); },
        "dim_order_ops::_to_dim_order_copy (ExecuTorch's MemoryFormatOpsPass)" },
    { "_unsafe_view", [](Decomposer& d) { return d.reshape(); }, "view_copy" },
    { "adaptive_avg_pool2d", [](Decomposer& d) { return d.adaptiveAvgPool2d(); },
        "mean over H and W for 1x1; avg_pool2d when the output divides the input; else _adaptive_avg_pool2d" },
    { "alpha_dropout", [](Decomposer& d) { return d.dropout(); }, "eval: nothing (identity); training: refused" },
    { "batch_norm", [](Decomposer& d) { return d.batchNorm(); },
        "eval: _native_batch_norm_legit_no_training; training: var/mean/rsqrt arithmetic" },
    { "clone", [](Decomposer& d) { return d.cloneOrEmpty(); }, "dim_order_ops::_clone_dim_order" },
    { "contiguous", [](Decomposer& d) { return d.transpose(); }, "dim_order_ops::_clone_dim_order (contiguous)" },
    { "dropout", [](Decomposer& d) { return d.dropout(); },
        "eval: nothing (identity); training: rand, gt, mul (torch's native_dropout decomposition)" },
    { "empty", [](Decomposer& d) { return d.cloneOrEmpty(); },
        "dim_order_ops::_empty_dim_order (memory_format overload)" },
    { "feature_alpha_dropout", [](Decomposer& d) { return d.dropout(); },
        "eval: nothing (identity); training: refused" },
    { "feature_dropout", [](Decomposer& d) { return d.dropout(); }, "eval: nothing (identity); training: refused" },
    { "hardsigmoid", [](Decomposer& d) { return d.hardswishOrHardsigmoid(); },
        "clamp(x + 3, 0, 6) / 6 (add, clamp, div)" },
    { "hardswish", [](Decomposer& d) { return d.hardswishOrHardsigmoid(); },
        "x * clamp(x + 3, 0, 6) / 6 (add, clamp, mul, div)" },
    { "layer_norm", [](Decomposer& d) { return d.layerNorm(); }, "native_layer_norm" },
    { "max_pool2d", [](Decomposer& d) { return d.maxPool2d(); }, "max_pool2d_with_indices (indices unused)" },
    { "max_pool2d_with_indices_backward", [](Decomposer& d) { return d.maxPool2dWithIndicesBackward(); },
        "full (zeros) then max_pool2d_with_indices_backward" },
    { "mse_loss", [](Decomposer& d) { return d.mseLoss(); }, "(x - y)^2 then mean or sum (sub, pow, mean/sum)" },
    { "native_batch_norm", [](Decomposer& d) { return d.batchNorm(); }, "as batch_norm" },
    { "native_dropout", [](Decomposer& d) { return d.dropout(); }, "eval: full_like + mul; training: rand, gt, mul" },
    { "ones", [](Decomposer& d) { return d.fill(); }, "ones.out" },
    { "ones_like", [](Decomposer& d) { return d.fill(); }, "full_like(1)" },
    { "reshape", [](Decomposer& d) { return d.reshape(); }, "view_copy" },
    { "sigmoid_backward", [](Decomposer& d) { return d.activationBackward(); }, "g * (y * (1 - y)) (rsub, mul)" },
    { "silu", [](Decomposer& d) { return d.silu(); }, "x * sigmoid(x) (sigmoid, mul)" },
    { "squeeze", [](Decomposer& d) { return d.squeeze(); }, "squeeze_copy.dims / squeeze_copy.dim" },
    { "t", [](Decomposer& d) { return d.transpose(); }, "permute_copy" },
    { "tanh_backward", [](Decomposer& d) { return d.activationBackward(); }, "g * (1 - y * y) (mul, rsub)" },
    { "threshold_backward", [](Decomposer& d) { return d.thresholdBackward(); },
        "where(x <= t, 0, g) (le, masked_fill)" },
    { "to", [](Decomposer& d) { return d.to(); }, "dim_order_ops::_to_dim_order_copy (dtype overload)" },
    { "transpose", [](Decomposer& d) { return d.transpose(); }, "permute_copy" },
    { "view", [](Decomposer& d) { return d.reshape(); }, "view_copy" },
    { "view_copy", [](Decomposer& d) { return d.reshape(); }, "view_copy" },
    { "zeros", [](Decomposer& d) { return d.fill(); }, "zeros.out" },
    { "zeros_like", [](Decomposer& d) { return d.fill(); }, "full_like(0)" },
    { "linear", &decomposeLinear, "permute_copy + addmm (with bias) or mm, leading dimensions folded with view_copy" },
    { "matmul", &decomposeMatmul,
        "mm, bmm (batch dimensions expand_copy'd and folded with view_copy), or mul + sum for 1-D x 1-D" },
};

} // namespace

std::span<const DecompositionRule> coreRules() { return kCoreRules; }

const std::unordered_map<std::string_view, const DecompositionRule*>& Decomposer::table()
{
    static const auto kTable = [] {
        std::unordered_map<std::string_view, const DecompositionRule*> t;
        for (const auto family : { coreRules(), attentionRules(), recurrentRules(), normalizationRules(), shapeRules(),
                 activationRules(), mathRules(), convolutionRules(), resamplingRules(), poolingRules(),
                 embeddingBagRules(), backwardRules() })
            for (const auto& rule : family)
                t[rule.op] = &rule; // a family's rule replaces an earlier one of the same op
        return t;
    }();
    return kTable;
}

std::vector<std::string_view> decomposedOperators()
{
    std::vector<std::string_view> ops;
    for (const auto& entry : Decomposer::table())
        ops.push_back(entry.first);
    std::sort(ops.begin(), ops.end());
    return ops;
}

std::vector<DecompositionInfo> decompositionTable()
{
    std::vector<DecompositionInfo> rows;
    for (const auto& [op, rule] : Decomposer::table())
        rows.push_back({ std::string(op), std::string(rule->becomes) });
    std::sort(rows.begin(), rows.end(), [](const auto& x, const auto& y) { return x.op < y.op; });
    return rows;
}

OperatorLowering operatorLowering(std::string_view op)
{
    OperatorLowering r;
    const auto& table = Decomposer::table();
    if (const auto it = table.find(op); it != table.end()) {
        r.kind = it->second->becomes.starts_with("refused") ? OperatorLowering::Kind::None
                                                            : OperatorLowering::Kind::Decomposed;
        r.becomes = std::string(it->second->becomes);
        return r;
    }
    const auto& reg = SchemaRegistry::instance();
    for (const OpSchema* s : reg.overloads("aten::" + std::string(op))) {
        const OpSchema* out = s->isOutFn() ? s : reg.outVariant(*s);
        if (!out || !portableKernelImplements(out->key()) || r.becomes.find(out->key()) != std::string::npos)
            continue;
        r.kind = OperatorLowering::Kind::Kernel;
        r.becomes += (r.becomes.empty() ? "" : ", ") + out->key();
    }
    if (r.kind == OperatorLowering::Kind::None) {
        if (const auto copy = viewCopyOf("aten::" + std::string(op))) {
            const std::string key = copy->first + "." + (copy->second.empty() ? "out" : copy->second + "_out");
            if (portableKernelImplements(key)) {
                r.kind = OperatorLowering::Kind::Kernel;
                r.becomes = key + " (the view's copy, as the edge dialect makes it)";
            }
        }
    }
    if (r.kind == OperatorLowering::Kind::None && op.size() > 1 && op.back() == '_') {
        const auto base = operatorLowering(op.substr(0, op.size() - 1));
        if (base.kind != OperatorLowering::Kind::None) {
            r.kind = OperatorLowering::Kind::Functionalized;
            r.becomes = std::string(op.substr(0, op.size() - 1));
        }
    }
    return r;
}

bool Lowering::decomposes(std::string_view op) { return Decomposer::table().count(op) > 0; }

Result<bool> Lowering::decompose(const TargetName& t, const Node& n)
{
    if (t.ns != "aten")
        return false;
    const auto& table = Decomposer::table();
    const auto it = table.find(t.op);
    if (it == table.end())
        return false;
    Decomposer d(*this, t, n);
    return it->second->fn(d);
}

Decomposer::Decomposer(Lowering& lowering, const TargetName& target, const Node& node)
    : b(lowering, node)
    , m_l(lowering)
    , m_firstValue(int(lowering.m_out.values.size()))
    , m_out(lowering.m_out)
    , m_reg(lowering.m_reg)
    , m_recordDebug(lowering.m_recordDebug)
    , t(target)
    , n(node)
    , q(target.ns + "::" + target.op)
    , where(Lowering::where(node))
{ }

Result<ArgMap> Decomposer::args() { return bound(q.c_str(), t.overload.c_str()); }

Result<ArgMap> Decomposer::args(const char* name, const char* overload) { return bound(name, overload); }

int Decomposer::tensor(const ArgMap& a, std::string_view name) { return tensorRef(a, std::string(name).c_str()); }

std::vector<int> Decomposer::tensorList(const ArgMap& a, std::string_view name)
{
    const auto it = a.find(name);
    if (it == a.end())
        return {};
    if (it->second.kind == LArg::Kind::Tensor)
        return { it->second.ref };
    return it->second.refs;
}

std::optional<double> Decomposer::number(const ArgMap& a, std::string_view name)
{
    const auto it = a.find(name);
    if (it == a.end())
        return std::nullopt;
    switch (it->second.kind) {
    case LArg::Kind::Double:
        return it->second.d;
    case LArg::Kind::Int:
        return double(it->second.i);
    case LArg::Kind::Bool:
        return it->second.b ? 1.0 : 0.0;
    default:
        return std::nullopt;
    }
}

std::int64_t Decomposer::integer(const ArgMap& a, std::string_view name, std::int64_t fallback)
{
    const auto v = number(a, name);
    return v ? std::int64_t(*v) : fallback;
}

bool Decomposer::flag(const ArgMap& a, std::string_view name, bool fallback)
{
    const auto v = number(a, name);
    return v ? *v != 0 : fallback;
}

std::optional<std::vector<std::int64_t>> Decomposer::intList(const ArgMap& a, std::string_view name)
{
    const auto it = a.find(name);
    if (it == a.end() || (it->second.kind != LArg::Kind::IntList && it->second.kind != LArg::Kind::Int))
        return std::nullopt;
    if (it->second.kind == LArg::Kind::Int)
        return std::vector<std::int64_t> { it->second.i };
    std::vector<std::int64_t> v;
    for (const auto& e : it->second.ints) {
        if (e.ref >= 0)
            return std::nullopt;
        v.push_back(e.literal);
    }
    return v;
}

Dims Decomposer::sizes(const ArgMap& a, std::string_view name)
{
    const auto it = a.find(name);
    if (it == a.end())
        return {};
    if (it->second.kind == LArg::Kind::Int)
        return { IntElem { it->second.i, -1 } };
    if (it->second.kind == LArg::Kind::ValueRef)
        return { IntElem { 0, it->second.ref } };
    return it->second.ints;
}

bool Decomposer::isNone(const ArgMap& a, std::string_view name)
{
    const auto it = a.find(name);
    return it == a.end() || it->second.kind == LArg::Kind::Null;
}

std::optional<std::string> Decomposer::string(const ArgMap& a, std::string_view name)
{
    const auto it = a.find(name);
    if (it == a.end() || it->second.kind != LArg::Kind::String || !it->second.rare)
        return std::nullopt;
    return it->second.rare->s;
}

Result<bool> Decomposer::refuse(const std::string& why) { return fail(nodeError(n, ErrorCode::Unsupported, why)); }

Result<bool> Decomposer::invalid(const std::string& why) { return fail(nodeError(n, ErrorCode::InvalidInput, why)); }

Result<bool> Decomposer::finish(const std::vector<int>& values)
{
    PTE_CHECK(b.status());
    std::vector<const std::string*> names;
    for (const auto& o : n.outputs) {
        if (o.kind == ArgKind::Tensor || o.kind == ArgKind::Tensors || o.kind == ArgKind::OptionalTensors)
            for (const auto& nm : o.names)
                names.push_back(&nm);
        else if (o.kind != ArgKind::None)
            return invalid(std::string("an output of kind ") + argKindName(o.kind) + " of a decomposed op");
    }
    if (values.size() < names.size())
        return fail(nodeError(n, ErrorCode::Internal,
            "the decomposition computes " + std::to_string(values.size()) + " outputs, the node has "
                + std::to_string(names.size())));
    for (std::size_t k = 0; k < names.size(); ++k) {
        int v = values[k];
        const std::string& name = *names[k];
        if (v < 0 && !name.empty())
            m_l.markUncomputed(
                name, "output " + std::to_string(k) + " of node '" + n.name + "' (" + std::string(t.op) + ")");
        if (v < 0 || name.empty())
            continue;
        const TensorMeta* meta = m_l.findMeta(name);
        if (meta && meta->dtype != m_out.values[std::size_t(v)].dtype && !m_out.values[std::size_t(v)].isSym) {
            // torch recorded another dtype (its type promotion or an explicit dtype): converted to it.
            v = b.cast(v, meta->dtype);
            PTE_CHECK(b.status());
        }
        LValue& lv = m_out.values[std::size_t(v)];
        if (meta && meta->sizes.size() != lv.sizes.size())
            return fail(nodeError(n, ErrorCode::InvalidInput,
                "the decomposition computes a rank-" + std::to_string(lv.sizes.size()) + " result for '" + name
                    + "', the dump's metadata says rank " + std::to_string(meta->sizes.size())));
        if (meta) {
            for (std::size_t d = 0; d < lv.sizes.size(); ++d) {
                const auto& s = meta->sizes[d];
                const bool dynamic = (lv.dynamicDims >> d) & 1u;
                if (s.isConcrete() && !dynamic && *s.value != lv.sizes[d])
                    return fail(nodeError(n, ErrorCode::InvalidInput,
                        "the decomposition computes size " + std::to_string(lv.sizes[d]) + " in dimension "
                            + std::to_string(d) + " of '" + name + "', the dump's metadata says "
                            + std::to_string(*s.value)));
                if (!s.isConcrete()) {
                    // Planned at the larger of the two upper bounds; sized at run time.
                    if (const auto ub = symUpperBound(s, m_l.m_ep.rangeConstraints))
                        lv.sizes[d] = std::max<std::int32_t>(lv.sizes[d], std::int32_t(*ub));
                    lv.dynamicDims |= 1u << d;
                    lv.dynamism = ShapeDynamism::DynamicBound;
                }
            }
        }
        if (v >= m_firstValue && !lv.fromDump && lv.storage == LValue::Storage::Planned && lv.aliasOf < 0) {
            lv.name = name; // the value the node's output names
            lv.fromDump = true;
        }
        m_l.define(name, v);
    }
    return true;
}

// conv1d/2d/3d -> convolution
Result<bool> Decomposer::convolution()
{
    const bool underscore = q == "aten::_convolution";
    if (!t.overload.empty())
        return fail(nodeError(n, ErrorCode::Unsupported,
            underscore ? q + "." + t.overload + " (only the default overload is lowered)"
                       : std::string("convolution with padding='same'/'valid' strings")));
    PTE_TRY(auto a, bound(q.c_str(), ""));
    if (underscore) {
        // aten::_convolution is convolution plus backend hints the out variant has no slot for.
        for (const char* hint : { "benchmark", "deterministic", "cudnn_enabled", "allow_tf32" })
            a.erase(hint);
    } else {
        const std::int64_t dims = q == "aten::conv1d" ? 1 : q == "aten::conv2d" ? 2 : 3;
        a["transposed"] = LArg::boolean(false);
        a["output_padding"] = LArg::intList(std::vector<std::int64_t>(std::size_t(dims), 0));
    }
    PTE_TRY(const auto outs, nodeOutputs(n));
    PTE_TRY(const OpSchema* conv, need("aten::convolution", "out"));
    PTE_CHECK(emitKernel(*conv, std::move(a), outs, n));
    return true;
}

// batch norm family
Result<bool> Decomposer::batchNorm()
{
    if (q == "aten::_native_batch_norm_legit" && !(t.overload.empty() || t.overload == "no_stats"))
        return false;
    PTE_TRY(auto a, bound(q.c_str(), t.overload.c_str()));
    bool training = false;
    if (const auto it = a.find("training"); it != a.end())
        training = it->second.b;
    PTE_TRY(const auto outs, nodeOutputs(n));
    if (outs.empty())
        return fail(nodeError(n, ErrorCode::InvalidInput, "batch norm without outputs"));
    const int x = tensorRef(a, "input");
    if (x < 0 || val(x).sizes.size() < 2)
        return fail(nodeError(n, ErrorCode::InvalidInput, "batch norm needs an input with a channel dimension"));
    const auto dt = val(outs[0]).dtype;
    const int rm = tensorRef(a, "running_mean");
    const int rv = tensorRef(a, "running_var");
    const bool functional = q == "aten::_native_batch_norm_legit_functional";
    // The functional form returns the running statistics (unchanged in inference, updated in training).
    auto defineStats = [&](int mean, int var) {
        if (functional && n.outputs.size() >= 5) {
            if (!n.outputs[3].names.empty() && mean >= 0)
                define(n.outputs[3].names[0], mean);
            if (!n.outputs[4].names.empty() && var >= 0)
                define(n.outputs[4].names[0], var);
        }
    };
    if (!training) {
        if (rm < 0 || rv < 0)
            return fail(nodeError(n, ErrorCode::InvalidInput, "inference batch norm needs running statistics"));
        // The portable kernel resizes its two statistics outputs to [0]: empty tensors (torch's CPU kernel
        // returns empty ones in inference too).
        auto empty = [&](std::size_t k) {
            return outs.size() > k && val(outs[k]).sizes == std::vector<std::int32_t> { 0 }
                ? outs[k]
                : newTemp(n.name, dt, { 0 });
        };
        std::vector<int> o { outs[0], empty(1), empty(2) };
        a.erase("cudnn_enabled");
        if (q == "aten::_native_batch_norm_legit" && t.overload.empty()) {
            // A core ATen op: the edge dialect keeps it, and its portable kernel runs inference.
            PTE_TRY(const OpSchema* bn, need("aten::_native_batch_norm_legit", "out"));
            PTE_CHECK(emitKernel(*bn, std::move(a), o, n));
            return true;
        }
        a.erase("training");
        PTE_TRY(const OpSchema* bn, need("aten::_native_batch_norm_legit_no_training", "out"));
        PTE_CHECK(emitKernel(*bn, std::move(a), o, n));
        defineStats(rm, rv);
        return true;
    }
    // Training mode: the portable kernels compute batch norm for inference only ("Portable kernels only support
    // inference mode"), so it is decomposed as torch's core decomposition (native_batch_norm_helper) does:
    //   var, mean = var_mean(x, dims = [0, 2, ...], correction = 0, keepdim = True)
    //   rstd = rsqrt(var + eps);  out = (x - mean) * rstd  [* weight + bias, as [1, C, 1, ...]]
    //   save_mean = squeeze(mean, dims);  save_rstd = squeeze(rstd, dims)
    //   running_mean' = momentum * save_mean + (1 - momentum) * running_mean
    //   running_var'  = momentum * squeeze(var, dims) * n / (n - 1) + (1 - momentum) * running_var,
    // n = numel / C. The in-place forms copy the new statistics into the running ones (copy_); the functional
    // form returns them.
    if (!isStatic(x))
        return fail(nodeError(n, ErrorCode::Unsupported, "training-mode batch norm of a dynamic input"));
    const auto xs = val(x).sizes; // copies: newTemp may reallocate the values
    const auto xOrder = val(x).dimOrder;
    const std::size_t rank = xs.size();
    const std::int32_t channels = xs[1];
    std::vector<std::int64_t> dims { 0 };
    std::vector<std::int32_t> statShape(rank, 1);
    statShape[1] = channels;
    for (std::size_t d = 2; d < rank; ++d)
        dims.push_back(std::int64_t(d));
    const double eps = a["eps"].kind == LArg::Kind::Double ? a["eps"].d : double(a["eps"].i);
    const double momentum = a["momentum"].kind == LArg::Kind::Double ? a["momentum"].d : double(a["momentum"].i);
    const int weight = tensorRef(a, "weight");
    const int bias = tensorRef(a, "bias");
    PTE_TRY(const OpSchema* varOut, need("aten::var", "correction_out"));
    PTE_TRY(const OpSchema* meanOut, need("aten::mean", "out"));
    PTE_TRY(const OpSchema* addS, need("aten::add", "Scalar_out"));
    PTE_TRY(const OpSchema* rsqrt, need("aten::rsqrt", "out"));
    PTE_TRY(const OpSchema* sub, need("aten::sub", "out"));
    PTE_TRY(const OpSchema* mul, need("aten::mul", "out"));
    PTE_TRY(const OpSchema* mulS, need("aten::mul", "Scalar_out"));
    PTE_TRY(const OpSchema* add, need("aten::add", "out"));
    PTE_TRY(const OpSchema* squeeze, need("aten::squeeze_copy", "dims_out"));
    auto temp = [&](const std::vector<std::int32_t>& shape) { return newTemp(n.name, dt, shape); };
    auto reduceArgs = [&](int src) -> ArgMap {
        return { { "self", LArg::tensor(src) }, { "dim", LArg::intList(dims) }, { "keepdim", LArg::boolean(true) } };
    };
    const int var = temp(statShape);
    ArgMap va = reduceArgs(x);
    va["correction"] = LArg::integer(0);
    PTE_CHECK(emitKernel(*varOut, std::move(va), { var }, n));
    const int mean = temp(statShape);
    PTE_CHECK(emitKernel(*meanOut, reduceArgs(x), { mean }, n));
    const int varEps = temp(statShape);
    LArg epsArg;
    epsArg.kind = LArg::Kind::Double;
    epsArg.d = eps;
    PTE_CHECK(emitKernel(*addS, { { "self", LArg::tensor(var) }, { "other", epsArg } }, { varEps }, n));
    const int rstd = temp(statShape);
    PTE_CHECK(emitKernel(*rsqrt, { { "self", LArg::tensor(varEps) } }, { rstd }, n));
    const int centered = newTemp(n.name, dt, xs, xOrder);
    PTE_CHECK(emitKernel(*sub, { { "self", LArg::tensor(x) }, { "other", LArg::tensor(mean) } }, { centered }, n));
    const bool affine = weight >= 0 || bias >= 0;
    int cur = affine ? newTemp(n.name, dt, xs, xOrder) : outs[0];
    PTE_CHECK(emitKernel(*mul, { { "self", LArg::tensor(centered) }, { "other", LArg::tensor(rstd) } }, { cur }, n));
    // weight and bias broadcast over the channel dimension: viewed as [1, C, 1, ...].
    auto perChannel = [&](int p) -> Result<int> {
        if (rank == 2)
            return p; // [C] broadcasts against [N, C] as it is
        return viewTo(p, statShape);
    };
    if (weight >= 0) {
        PTE_TRY(const int w, perChannel(weight));
        const int next = bias >= 0 ? newTemp(n.name, dt, xs, xOrder) : outs[0];
        PTE_CHECK(emitKernel(*mul, { { "self", LArg::tensor(cur) }, { "other", LArg::tensor(w) } }, { next }, n));
        cur = next;
    }
    if (bias >= 0) {
        PTE_TRY(const int b, perChannel(bias));
        PTE_CHECK(emitKernel(*add, { { "self", LArg::tensor(cur) }, { "other", LArg::tensor(b) } }, { outs[0] }, n));
    }
    // save_mean and save_rstd (outputs 1 and 2), when the node has them with the squeezed shape.
    auto squeezed = [&](int src, std::size_t k) -> Result<int> {
        const bool given = outs.size() > k && val(outs[k]).sizes == std::vector<std::int32_t> { channels };
        const int dst = given ? outs[k] : temp({ channels });
        PTE_CHECK(emitKernel(*squeeze, { { "self", LArg::tensor(src) }, { "dim", LArg::intList(dims) } }, { dst }, n));
        return dst;
    };
    PTE_TRY(const int saveMean, squeezed(mean, 1));
    if (outs.size() > 2) {
        PTE_TRY(const int saveRstd, squeezed(rstd, 2));
        (void)saveRstd;
    }
    if (rm < 0 || rv < 0)
        return true;
    auto scaled = [&](int src, double factor, int dst) -> Result<void> {
        LArg f;
        f.kind = LArg::Kind::Double;
        f.d = factor;
        return emitKernel(*mulS, { { "self", LArg::tensor(src) }, { "other", f } }, { dst }, n);
    };
    std::int64_t count = 1; // elements per channel
    for (std::size_t d = 0; d < rank; ++d)
        count *= d == 1 ? 1 : xs[d];
    auto update = [&](int stat, int running) -> Result<int> {
        const int a1 = temp({ channels });
        PTE_CHECK(scaled(stat, momentum, a1));
        const int a2 = temp({ channels });
        PTE_CHECK(scaled(running, 1.0 - momentum, a2));
        const int updated = temp({ channels });
        PTE_CHECK(emitKernel(*add, { { "self", LArg::tensor(a1) }, { "other", LArg::tensor(a2) } }, { updated }, n));
        return updated;
    };
    PTE_TRY(const int newMean, update(saveMean, rm));
    const int varSqueezed = temp({ channels });
    PTE_CHECK(
        emitKernel(*squeeze, { { "self", LArg::tensor(var) }, { "dim", LArg::intList(dims) } }, { varSqueezed }, n));
    const int unbiased = temp({ channels });
    PTE_CHECK(scaled(varSqueezed, double(count) / double(std::max<std::int64_t>(count - 1, 1)), unbiased));
    PTE_TRY(const int newVar, update(unbiased, rv));
    if (functional) {
        defineStats(newMean, newVar);
        return true;
    }
    // In-place forms: the running statistics are updated (copy_). Statistics the signature does not list as
    // buffer mutations would be constants, which the runtime may map read-only and which would not keep their
    // state: they become mutable buffers, memory planned with the dump's bytes as initial state.
    const OpSchema* copy = m_reg.find("aten::copy_", "");
    for (const auto& [running, updated] : { std::pair { rm, newMean }, std::pair { rv, newVar } }) {
        if (val(running).storage == LValue::Storage::Constant) {
            auto& v = m_out.values[std::size_t(running)];
            v.storage = LValue::Storage::Planned;
            v.mutableBuffer = true;
            v.initialised = true;
            warn(where + ": running statistic '" + v.fqn.value_or(v.name)
                    + "' is updated in place but not listed as a buffer mutation: memory planned with its initial "
                      "state from the dump",
                n.jsonPath, n.name);
        }
        LInstr in;
        in.kind = LInstr::Kind::Kernel;
        in.schema = copy;
        if (!copy)
            in.name = LInstr::OperatorName { "aten::copy_", "" };
        in.args = { LArg::tensor(running), LArg::tensor(updated), LArg::boolean(false) };
        in.retSlots = { LArg::tensor(running) };
        in.node = &n;
        in.origin = n.name;
        in.recordDebug = m_recordDebug;
        m_out.instrs.push_back(std::move(in));
    }
    return true;
}

Result<bool> Decomposer::layerNorm()
{
    PTE_TRY(auto a, bound("aten::layer_norm", ""));
    const int x = tensorRef(a, "input");
    PTE_TRY(const auto outs, nodeOutputs(n));
    if (x < 0 || outs.empty())
        return fail(nodeError(n, ErrorCode::InvalidInput, "layer_norm needs an input and an output"));
    const auto& ns = a["normalized_shape"].ints;
    const auto rank = val(x).sizes.size();
    if (ns.size() > rank)
        return fail(nodeError(n, ErrorCode::InvalidInput, "normalized_shape is longer than the input rank"));
    std::vector<std::int32_t> stat(val(x).sizes.begin(), val(x).sizes.end() - std::ptrdiff_t(ns.size()));
    stat.resize(rank, 1);
    a.erase("cudnn_enable");
    const int mean = newTemp(n.name, val(x).dtype, stat);
    const int rstd = newTemp(n.name, val(x).dtype, stat);
    PTE_TRY(const OpSchema* ln, need("aten::native_layer_norm", "out"));
    PTE_CHECK(emitKernel(*ln, std::move(a), { outs[0], mean, rstd }, n));
    return true;
}

// dropout and native_dropout, as torch's decomposition of native_dropout defines them: in training,
// mask = rand_like(x) > p and out = mask * x * (1 / (1 - p)) (p = 1: zeros); otherwise out = x and an all-true
// mask. The portable native_dropout.out keeps elements without the 1 / (1 - p) scaling (measured on
// ExecuTorch's runtime), so it is not used.
Result<bool> Decomposer::dropout()
{
    const bool native = q == "aten::native_dropout";
    PTE_TRY(auto a, bound(native ? "aten::native_dropout" : "aten::dropout", ""));
    const int x = tensorRef(a, "input");
    if (x < 0)
        return fail(nodeError(n, ErrorCode::InvalidInput, "dropout without an input tensor"));
    const LArg& trainArg = a["train"];
    const bool train = trainArg.kind == LArg::Kind::Null || trainArg.b; // native_dropout's train=None: training
    const double p = a["p"].kind == LArg::Kind::Double ? a["p"].d : double(a["p"].i);
    if (!train && !native) {
        alias(n, x); // identity in eval mode
        return true;
    }
    if (p > 0 && (q == "aten::feature_dropout" || q == "aten::alpha_dropout" || q == "aten::feature_alpha_dropout"))
        return fail(nodeError(n, ErrorCode::Unsupported,
            q + " in training mode (it drops whole channels or keeps the self-normalising mean, not plain dropout)"));
    PTE_TRY(const auto outs, nodeOutputs(n));
    if (outs.empty() || (native && outs.size() != 2))
        return fail(nodeError(n, ErrorCode::InvalidInput, "dropout without its outputs"));
    if (!isStatic(x))
        return fail(nodeError(n, ErrorCode::Unsupported, "dropout of a dynamic tensor"));
    const auto sizes = val(x).sizes;
    const auto dt = val(x).dtype;
    const int mask = native ? outs[1] : newTemp(n.name, ScalarType::Bool, sizes);
    PTE_TRY(const OpSchema* fullLike, need("aten::full_like", "out"));
    PTE_TRY(const OpSchema* mulS, need("aten::mul", "Scalar_out"));
    auto scalar = [](double v) {
        LArg s;
        s.kind = LArg::Kind::Double;
        s.d = v;
        return s;
    };
    if (!train || p >= 1) {
        // eval (native_dropout): out = x * 1, mask all true; p = 1: out zeros, mask all false
        PTE_CHECK(emitKernel(*fullLike,
            { { "self", LArg::tensor(x) }, { "fill_value", LArg::boolean(!train ? true : false) } }, { mask }, n));
        PTE_CHECK(
            emitKernel(*mulS, { { "self", LArg::tensor(x) }, { "other", scalar(train ? 0.0 : 1.0) } }, { outs[0] }, n));
        return true;
    }
    PTE_TRY(const OpSchema* rand, need("aten::rand", "out"));
    PTE_TRY(const OpSchema* gtS, need("aten::gt", "Scalar_out"));
    PTE_TRY(const OpSchema* mul, need("aten::mul", "out"));
    const int r = newTemp(n.name, dt, sizes);
    PTE_CHECK(emitKernel(
        *rand, { { "size", LArg::intList(std::vector<std::int64_t>(sizes.begin(), sizes.end())) } }, { r }, n));
    PTE_CHECK(emitKernel(*gtS, { { "self", LArg::tensor(r) }, { "other", scalar(p) } }, { mask }, n));
    const int kept = newTemp(n.name, dt, sizes);
    PTE_CHECK(emitKernel(*mul, { { "self", LArg::tensor(mask) }, { "other", LArg::tensor(x) } }, { kept }, n));
    PTE_CHECK(
        emitKernel(*mulS, { { "self", LArg::tensor(kept) }, { "other", scalar(1.0 / (1.0 - p)) } }, { outs[0] }, n));
    return true;
}

// The portable max_pool2d_with_indices_backward writes only the positions of the maxima and leaves the rest of
// grad_input as planned memory holds it (measured on ExecuTorch's runtime); PyTorch's grad_input is zero there.
// A full.out of zeros into grad_input comes first.
Result<bool> Decomposer::maxPool2dWithIndicesBackward()
{
    PTE_TRY(auto a, bound("aten::max_pool2d_with_indices_backward", ""));
    PTE_TRY(const auto outs, nodeOutputs(n));
    if (outs.size() != 1 || !isStatic(outs[0]))
        return fail(nodeError(n, ErrorCode::InvalidInput, "max_pool2d_with_indices_backward needs one static output"));
    PTE_TRY(const OpSchema* full, need("aten::full", "out"));
    PTE_TRY(const OpSchema* bw, need("aten::max_pool2d_with_indices_backward", "grad_input"));
    const auto& sizes = val(outs[0]).sizes;
    PTE_CHECK(emitKernel(*full,
        { { "size", LArg::intList(std::vector<std::int64_t>(sizes.begin(), sizes.end())) },
            { "fill_value", LArg::integer(0) } },
        outs, n));
    PTE_CHECK(emitKernel(*bw, std::move(a), outs, n));
    return true;
}

Result<bool> Decomposer::reshape()
{
    PTE_TRY(const auto outs, nodeOutputs(n));
    if (n.inputs.empty() || outs.size() != 1)
        return fail(nodeError(n, ErrorCode::InvalidInput, "view needs one input and one output"));
    auto src = lookup(n.inputs[0].arg.names.empty() ? std::string() : n.inputs[0].arg.names[0], where);
    if (!src)
        return fail(withPath(n, src.error()));
    PTE_TRY(const OpSchema* vc, need("aten::view_copy", "out"));
    LArg size;
    if (q == "aten::flatten") {
        if (!isStatic(outs[0]))
            return fail(nodeError(n, ErrorCode::Unsupported, "flatten of a dynamic tensor"));
        const auto& s = val(outs[0]).sizes;
        size = LArg::intList(std::vector<std::int64_t>(s.begin(), s.end()));
    } else {
        if (n.inputs.size() < 2)
            return fail(nodeError(n, ErrorCode::InvalidInput, "view without a size"));
        auto sz = convertArg(n.inputs[1].arg, ArgType { BaseType::SymInt, false, true }, where);
        if (!sz)
            return fail(withPath(n, sz.error()));
        size = std::move(*sz);
        PTE_CHECK(checkViewSize(n, *src, outs[0], size));
    }
    PTE_CHECK(emitKernel(*vc, { { "self", LArg::tensor(*src) }, { "size", std::move(size) } }, outs, n));
    return true;
}

Result<bool> Decomposer::transpose()
{
    PTE_TRY(const auto outs, nodeOutputs(n));
    if (n.inputs.empty() || outs.size() != 1)
        return fail(nodeError(n, ErrorCode::InvalidInput, "expects one input and one output"));
    auto src = lookup(n.inputs[0].arg.names.empty() ? std::string() : n.inputs[0].arg.names[0], where);
    if (!src)
        return fail(withPath(n, src.error()));
    const auto rank = std::int64_t(val(*src).sizes.size());
    std::vector<std::int64_t> perm(static_cast<std::size_t>(rank), 0);
    std::iota(perm.begin(), perm.end(), 0);
    if (q == "aten::contiguous") { // clone(memory_format=contiguous_format), which the edge dialect makes
        std::vector<std::int64_t> order(std::size_t(rank), 0);
        std::iota(order.begin(), order.end(), 0);
        PTE_TRY(const OpSchema* cl, need("dim_order_ops::_clone_dim_order", "out"));
        PTE_CHECK(emitKernel(*cl, { { "self", LArg::tensor(*src) }, { "dim_order", LArg::intList(order) } }, outs, n));
        return true;
    }
    if (q == "aten::t") {
        if (rank == 2)
            std::swap(perm[0], perm[1]);
    } else {
        std::int64_t d0 = n.inputs.size() > 1 && !n.inputs[1].arg.ints.empty() ? n.inputs[1].arg.ints[0] : 0;
        std::int64_t d1 = n.inputs.size() > 2 && !n.inputs[2].arg.ints.empty() ? n.inputs[2].arg.ints[0] : 0;
        if (d0 < 0)
            d0 += rank;
        if (d1 < 0)
            d1 += rank;
        if (d0 < 0 || d1 < 0 || d0 >= std::max<std::int64_t>(rank, 1) || d1 >= std::max<std::int64_t>(rank, 1))
            return fail(nodeError(n, ErrorCode::InvalidInput, "transpose dimension out of range"));
        if (rank > 0)
            std::swap(perm[std::size_t(d0)], perm[std::size_t(d1)]);
    }
    PTE_TRY(const OpSchema* pc, need("aten::permute_copy", "out"));
    PTE_CHECK(emitKernel(*pc, { { "self", LArg::tensor(*src) }, { "dims", LArg::intList(perm) } }, outs, n));
    return true;
}

Result<bool> Decomposer::squeeze()
{
    if (t.overload.empty()) {
        PTE_TRY(const auto outs, nodeOutputs(n));
        auto src =
            lookup(n.inputs.empty() || n.inputs[0].arg.names.empty() ? std::string() : n.inputs[0].arg.names[0], where);
        if (!src || outs.size() != 1)
            return fail(nodeError(n, ErrorCode::InvalidInput, "squeeze expects one input and one output"));
        std::vector<std::int64_t> dims;
        for (std::size_t d = 0; d < val(*src).sizes.size(); ++d)
            if (val(*src).sizes[d] == 1)
                dims.push_back(std::int64_t(d));
        PTE_TRY(const OpSchema* sq, need("aten::squeeze_copy", "dims_out"));
        PTE_CHECK(emitKernel(*sq, { { "self", LArg::tensor(*src) }, { "dim", LArg::intList(dims) } }, outs, n));
        return true;
    }
    PTE_TRY(auto a, bound("aten::squeeze", t.overload.c_str()));
    PTE_TRY(const auto outs, nodeOutputs(n));
    PTE_TRY(const OpSchema* sq, need("aten::squeeze_copy", t.overload == "dim" ? "dim_out" : "dims_out"));
    PTE_CHECK(emitKernel(*sq, std::move(a), outs, n));
    return true;
}

Result<bool> Decomposer::to()
{
    if (q == "aten::to" && t.overload != "dtype")
        return fail(nodeError(n, ErrorCode::Unsupported, "aten::to." + t.overload + " is not lowered"));
    PTE_TRY(const auto outs, nodeOutputs(n));
    auto src =
        lookup(n.inputs.empty() || n.inputs[0].arg.names.empty() ? std::string() : n.inputs[0].arg.names[0], where);
    if (!src || outs.size() != 1)
        return fail(nodeError(n, ErrorCode::InvalidInput, "expects one input tensor and one output"));
    PTE_TRY(auto dimOrder, memoryFormatDimOrder(n, val(*src).sizes.size()));
    PTE_TRY(const OpSchema* td, need("dim_order_ops::_to_dim_order_copy", "out"));
    PTE_CHECK(emitKernel(*td, { { "self", LArg::tensor(*src) }, { "dim_order", std::move(dimOrder) } }, outs, n));
    return true;
}

// clone and empty take a memory format, which ExecuTorch's MemoryFormatOpsPass turns into a dim order:
// dim_order_ops::_clone_dim_order / _empty_dim_order (absent or contiguous_format: contiguous; preserve_format:
// None, the input's layout; channels_last: [0, 2, 3, 1]).
Result<bool> Decomposer::cloneOrEmpty()
{
    if (q == "aten::empty" && t.overload != "memory_format")
        return false;
    PTE_TRY(const auto outs, nodeOutputs(n));
    if (outs.size() != 1)
        return fail(nodeError(n, ErrorCode::InvalidInput, "expects one output"));
    PTE_TRY(auto dimOrder, memoryFormatDimOrder(n, val(outs[0]).sizes.size()));
    ArgMap a;
    if (q == "aten::clone") {
        auto src =
            lookup(n.inputs.empty() || n.inputs[0].arg.names.empty() ? std::string() : n.inputs[0].arg.names[0], where);
        if (!src)
            return fail(withPath(n, src.error()));
        a["self"] = LArg::tensor(*src);
    } else {
        const NamedArgument* size = n.input("size");
        if (!size)
            return fail(nodeError(n, ErrorCode::InvalidInput, "empty without a size"));
        auto sz = convertArg(size->arg, ArgType { BaseType::SymInt, false, true }, where);
        if (!sz)
            return fail(withPath(n, sz.error()));
        a["size"] = std::move(*sz);
    }
    a["dim_order"] = std::move(dimOrder);
    PTE_TRY(const OpSchema* op,
        need(q == "aten::clone" ? "dim_order_ops::_clone_dim_order" : "dim_order_ops::_empty_dim_order", "out"));
    PTE_CHECK(emitKernel(*op, std::move(a), outs, n));
    return true;
}

Result<bool> Decomposer::sum()
{
    if (!t.overload.empty())
        return false;
    PTE_TRY(auto a, bound("aten::sum", ""));
    PTE_TRY(const auto outs, nodeOutputs(n));
    PTE_TRY(const OpSchema* s, need("aten::sum", "IntList_out"));
    PTE_CHECK(emitKernel(*s, std::move(a), outs, n));
    return true;
}

Result<bool> Decomposer::fill()
{
    PTE_TRY(auto a, bound(q.c_str(), ""));
    PTE_TRY(const auto outs, nodeOutputs(n));
    const bool like = q.find("_like") != std::string::npos;
    ArgMap g;
    if (!like) { // zeros.out / ones.out (the portable kernels have both)
        g["size"] = a["size"];
        PTE_TRY(const OpSchema* f, need(q.c_str(), "out"));
        PTE_CHECK(emitKernel(*f, std::move(g), outs, n));
        return true;
    }
    g["self"] = a["self"];
    g["fill_value"] = LArg::integer(q.find("ones") != std::string::npos ? 1 : 0);
    PTE_TRY(const OpSchema* f, need("aten::full_like", "out"));
    PTE_CHECK(emitKernel(*f, std::move(g), outs, n));
    return true;
}

Result<bool> Decomposer::maxPool2d()
{
    PTE_TRY(auto a, bound("aten::max_pool2d", ""));
    PTE_TRY(const auto outs, nodeOutputs(n));
    if (outs.size() != 1)
        return fail(nodeError(n, ErrorCode::InvalidInput, "max_pool2d must have one output"));
    const int idx = newTemp(n.name, ScalarType::Long, val(outs[0]).sizes, val(outs[0]).dimOrder);
    PTE_TRY(const OpSchema* mp, need("aten::max_pool2d_with_indices", "out"));
    PTE_CHECK(emitKernel(*mp, std::move(a), { outs[0], idx }, n));
    return true;
}

Result<bool> Decomposer::adaptiveAvgPool2d()
{
    PTE_TRY(auto a, bound("aten::adaptive_avg_pool2d", ""));
    PTE_TRY(const auto outs, nodeOutputs(n));
    const auto& size = a["output_size"].ints;
    if (size.size() == 2 && size[0].ref < 0 && size[1].ref < 0 && size[0].literal == 1 && size[1].literal == 1) {
        // ATen's composite: global pooling is the mean over the last two dimensions (keepdim).
        PTE_TRY(const OpSchema* mean, need("aten::mean", "out"));
        PTE_CHECK(emitKernel(*mean,
            { { "self", a["self"] }, { "dim", LArg::intList({ -1, -2 }) }, { "keepdim", LArg::boolean(true) } }, outs,
            n));
        return true;
    }
    // Output sizes that divide the (static) input's height and width: every window is the same
    // (H/oh, W/ow) block, which is avg_pool2d with kernel = stride and no padding.
    const int x = tensorRef(a, "self");
    const auto rank = x >= 0 ? val(x).sizes.size() : 0;
    if (size.size() == 2 && size[0].ref < 0 && size[1].ref < 0 && size[0].literal > 0 && size[1].literal > 0
        && (rank == 3 || rank == 4) && isStatic(x)) {
        const std::int64_t h = val(x).sizes[rank - 2];
        const std::int64_t w = val(x).sizes[rank - 1];
        if (h > 0 && w > 0 && h % size[0].literal == 0 && w % size[1].literal == 0) {
            const std::vector<std::int64_t> kernel { h / size[0].literal, w / size[1].literal };
            PTE_TRY(const OpSchema* avg, need("aten::avg_pool2d", "out"));
            PTE_CHECK(emitKernel(*avg,
                { { "self", a["self"] }, { "kernel_size", LArg::intList(kernel) }, { "stride", LArg::intList(kernel) },
                    { "padding", LArg::intList({ 0, 0 }) } },
                outs, n));
            return true;
        }
    }
    // Other sizes: ATen's _adaptive_avg_pool2d, which the portable kernels implement.
    PTE_TRY(const OpSchema* ap, need("aten::_adaptive_avg_pool2d", "out"));
    PTE_CHECK(emitKernel(*ap, std::move(a), outs, n));
    return true;
}

// mse_loss(x, y, reduction) = (x - y) ** 2, then mean, sum or nothing, as PyTorch's decomposition defines it
// (the portable kernels have no mse_loss.out). Broadcasting operands stay mse_loss.out.
Result<bool> Decomposer::mseLoss()
{
    PTE_TRY(auto a, bound("aten::mse_loss", ""));
    PTE_TRY(const auto outs, nodeOutputs(n));
    const int x = tensorRef(a, "self");
    const int y = tensorRef(a, "target");
    if (x < 0 || y < 0 || outs.size() != 1)
        return fail(nodeError(n, ErrorCode::InvalidInput, "mse_loss needs two input tensors and one output"));
    const auto& r = a["reduction"];
    const std::int64_t reduction = r.kind == LArg::Kind::Int ? r.i : -1;
    if (reduction < 0 || reduction > 2 || val(x).sizes != val(y).sizes || val(x).dtype != val(y).dtype) {
        PTE_TRY(const OpSchema* mse, need("aten::mse_loss", "out"));
        PTE_CHECK(emitKernel(*mse, std::move(a), outs, n));
        return true;
    }
    PTE_TRY(const OpSchema* sub, need("aten::sub", "out"));
    PTE_TRY(const OpSchema* pow, need("aten::pow", "Tensor_Scalar_out"));
    const int diff = tempLike(x);
    PTE_CHECK(emitKernel(*sub, { { "self", LArg::tensor(x) }, { "other", LArg::tensor(y) } }, { diff }, n));
    const int squared = reduction == 0 ? outs[0] : tempLike(x);
    PTE_CHECK(emitKernel(*pow, { { "self", LArg::tensor(diff) }, { "exponent", LArg::integer(2) } }, { squared }, n));
    if (reduction == 1) {
        PTE_TRY(const OpSchema* mean, need("aten::mean", "dtype_out"));
        PTE_CHECK(emitKernel(*mean, { { "self", LArg::tensor(squared) } }, outs, n));
    } else if (reduction == 2) {
        PTE_TRY(const OpSchema* sum, need("aten::sum", "IntList_out"));
        PTE_CHECK(emitKernel(*sum, { { "self", LArg::tensor(squared) }, { "dim", LArg {} } }, outs, n));
    }
    return true;
}

// Backward ops of training graphs, as PyTorch's decompositions define them (no portable kernels):
// sigmoid_backward(g, y) = g * (y * (1 - y)), tanh_backward(g, y) = g * (1 - y * y),
// threshold_backward(g, x, t) = where(x <= t, 0, g) (a masked_fill), and
// _log_softmax_backward_data(g, y, dim) = g - exp(y) * sum(g, dim, keepdim).
Result<bool> Decomposer::activationBackward()
{
    PTE_TRY(auto a, bound(q.c_str(), ""));
    PTE_TRY(const auto outs, nodeOutputs(n));
    const int g = tensorRef(a, "grad_output");
    const int y = tensorRef(a, "output");
    if (g < 0 || y < 0 || outs.size() != 1)
        return fail(nodeError(n, ErrorCode::InvalidInput, t.op + " needs two input tensors and one output"));
    PTE_TRY(const OpSchema* rsub, need("aten::rsub", "Scalar_out"));
    PTE_TRY(const OpSchema* mul, need("aten::mul", "out"));
    auto oneMinus = [&](int v) -> Result<int> {
        const int r = tempLike(y);
        PTE_CHECK(emitKernel(*rsub, { { "self", LArg::tensor(v) }, { "other", LArg::integer(1) } }, { r }, n));
        return r;
    };
    auto times = [&](int l, int r, int dst) -> Result<void> {
        return emitKernel(*mul, { { "self", LArg::tensor(l) }, { "other", LArg::tensor(r) } }, { dst }, n);
    };
    int factor = -1;
    if (q == "aten::sigmoid_backward") {
        PTE_TRY(const int c, oneMinus(y));
        factor = tempLike(y);
        PTE_CHECK(times(y, c, factor));
    } else {
        const int sq = tempLike(y);
        PTE_CHECK(times(y, y, sq));
        PTE_TRY(factor, oneMinus(sq));
    }
    PTE_CHECK(times(g, factor, outs[0]));
    return true;
}

Result<bool> Decomposer::thresholdBackward()
{
    PTE_TRY(auto a, bound("aten::threshold_backward", ""));
    PTE_TRY(const auto outs, nodeOutputs(n));
    const int g = tensorRef(a, "grad_output");
    const int x = tensorRef(a, "self");
    if (g < 0 || x < 0 || outs.size() != 1)
        return fail(nodeError(n, ErrorCode::InvalidInput, "threshold_backward needs two tensors and one output"));
    if (val(g).sizes != val(x).sizes) {
        PTE_TRY(const OpSchema* tb, need("aten::threshold_backward", "grad_input"));
        PTE_CHECK(emitKernel(*tb, std::move(a), outs, n));
        return true;
    }
    PTE_TRY(const OpSchema* le, need("aten::le", "Scalar_out"));
    PTE_TRY(const OpSchema* fill, need("aten::masked_fill", "Scalar_out"));
    const int mask = tempLike(x);
    m_out.values[std::size_t(mask)].dtype = ScalarType::Bool;
    PTE_CHECK(emitKernel(*le, { { "self", LArg::tensor(x) }, { "other", a["threshold"] } }, { mask }, n));
    PTE_CHECK(emitKernel(*fill,
        { { "self", LArg::tensor(g) }, { "mask", LArg::tensor(mask) }, { "value", LArg::integer(0) } }, outs, n));
    return true;
}

Result<bool> Decomposer::logSoftmaxBackwardData()
{
    PTE_TRY(auto a, bound("aten::_log_softmax_backward_data", ""));
    PTE_TRY(const auto outs, nodeOutputs(n));
    const int g = tensorRef(a, "grad_output");
    const int y = tensorRef(a, "output");
    if (g < 0 || y < 0 || outs.size() != 1)
        return fail(nodeError(n, ErrorCode::InvalidInput, "_log_softmax_backward_data needs two tensors"));
    const auto rank = std::int64_t(val(g).sizes.size());
    std::int64_t dim = a["dim"].i;
    if (dim < 0)
        dim += rank;
    const auto& dt = a["input_dtype"];
    if (dim < 0 || dim >= std::max<std::int64_t>(rank, 1)
        || (dt.kind == LArg::Kind::Int && dt.i != std::int64_t(val(g).dtype))) {
        // A cast back to another input dtype is not decomposed.
        PTE_TRY(const OpSchema* lsb, need("aten::_log_softmax_backward_data", "out"));
        PTE_CHECK(emitKernel(*lsb, std::move(a), outs, n));
        return true;
    }
    PTE_TRY(const OpSchema* sum, need("aten::sum", "IntList_out"));
    PTE_TRY(const OpSchema* exp, need("aten::exp", "out"));
    PTE_TRY(const OpSchema* mul, need("aten::mul", "out"));
    PTE_TRY(const OpSchema* sub, need("aten::sub", "out"));
    const int total = tempLike(g);
    if (rank > 0)
        m_out.values[std::size_t(total)].sizes[std::size_t(dim)] = 1;
    PTE_CHECK(emitKernel(*sum,
        { { "self", LArg::tensor(g) }, { "dim", LArg::intList({ dim }) }, { "keepdim", LArg::boolean(true) } },
        { total }, n));
    const int e = tempLike(y);
    PTE_CHECK(emitKernel(*exp, { { "self", LArg::tensor(y) } }, { e }, n));
    const int scaled = tempLike(y);
    PTE_CHECK(emitKernel(*mul, { { "self", LArg::tensor(e) }, { "other", LArg::tensor(total) } }, { scaled }, n));
    PTE_CHECK(emitKernel(*sub, { { "self", LArg::tensor(g) }, { "other", LArg::tensor(scaled) } }, outs, n));
    return true;
}

// silu(x) = x * sigmoid(x), as torch's decomposition defines it: the portable kernels have no silu.out.
Result<bool> Decomposer::silu()
{
    PTE_TRY(auto a, bound("aten::silu", ""));
    PTE_TRY(const auto outs, nodeOutputs(n));
    const int x = tensorRef(a, "self");
    if (x < 0 || outs.size() != 1)
        return fail(nodeError(n, ErrorCode::InvalidInput, "silu needs one input tensor and one output"));
    PTE_TRY(const OpSchema* sigmoid, need("aten::sigmoid", "out"));
    PTE_TRY(const OpSchema* mul, need("aten::mul", "out"));
    const int s = tempLike(outs[0]);
    PTE_CHECK(emitKernel(*sigmoid, { { "self", LArg::tensor(x) } }, { s }, n));
    PTE_CHECK(emitKernel(*mul, { { "self", LArg::tensor(x) }, { "other", LArg::tensor(s) } }, outs, n));
    return true;
}

// hardswish(x) = x * clamp(x + 3, 0, 6) / 6 and hardsigmoid(x) = clamp(x + 3, 0, 6) / 6, as PyTorch's
// decompositions define them: the portable kernels have neither hardswish.out nor hardsigmoid.out.
Result<bool> Decomposer::hardswishOrHardsigmoid()
{
    PTE_TRY(auto a, bound(q.c_str(), ""));
    PTE_TRY(const auto outs, nodeOutputs(n));
    const int x = tensorRef(a, "self");
    if (x < 0 || outs.size() != 1)
        return fail(nodeError(n, ErrorCode::InvalidInput, t.op + " needs one input tensor and one output"));
    PTE_TRY(const OpSchema* addS, need("aten::add", "Scalar_out"));
    PTE_TRY(const OpSchema* clamp, need("aten::clamp", "out"));
    PTE_TRY(const OpSchema* mul, need("aten::mul", "out"));
    PTE_TRY(const OpSchema* divS, need("aten::div", "Scalar_out"));
    const int shifted = tempLike(outs[0]);
    PTE_CHECK(emitKernel(*addS, { { "self", LArg::tensor(x) }, { "other", LArg::integer(3) } }, { shifted }, n));
    const int clamped = tempLike(outs[0]);
    PTE_CHECK(emitKernel(*clamp,
        { { "self", LArg::tensor(shifted) }, { "min", LArg::integer(0) }, { "max", LArg::integer(6) } }, { clamped },
        n));
    int numerator = clamped;
    if (q == "aten::hardswish") {
        numerator = tempLike(outs[0]);
        PTE_CHECK(
            emitKernel(*mul, { { "self", LArg::tensor(x) }, { "other", LArg::tensor(clamped) } }, { numerator }, n));
    }
    PTE_CHECK(emitKernel(*divS, { { "self", LArg::tensor(numerator) }, { "other", LArg::integer(6) } }, outs, n));
    return true;
}

} // namespace pte::emitcore
