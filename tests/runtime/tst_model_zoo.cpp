// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// Whole blocks of real models, each written node by node as torch 2.9's `torch.export.export(module, args)`
// writes its training IR (composite ops kept, in-place ops as they are, arguments at their default omitted,
// parameters and buffers lifted as inputs, node metadata, module_call_graph), saved as a .pt2 archive with its
// weights (pt2writer.h), read back through readDump, emitted, run twice on ExecuTorch's runtime and compared with
// the values PyTorch's definitions give (torchreference.h, computed as the graph is written: never from what
// ptelens emits). Shapes are those of the real models, scaled down (channels 8-32, spatial 8-16, sequences 4-16).
//
// PTELENS_WRITE_ZOO=<dir> also writes the models/model.json of the blocks kept in tests/data/zoo (inTestsData) to
// <dir>/<block>.json (scripts/zoo-dumps.sh regenerates tests/data/zoo with it); PTELENS_ZOO_ARCHIVES=<dir> keeps the
// .pt2 archives there (to open them in ptelens) instead of in a temporary folder.
#include "dumpbuilder.h"
#include "etrunner.h"
#include "pt2writer.h"
#include "pte/dumpreader.h"
#include "runtimecase.h"
#include "testutils.h"
#include "torchreference.h"

#include <QDir>
#include <QFile>
#include <QTest>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <variant>

using namespace pte;
using namespace pte::test;
namespace tr = pte::test::torchref;
using nlohmann::json;
using Shape = std::vector<std::int64_t>;

namespace {

/** The end of a Python slice `:` as the indexing code passes it to aten.slice (INT64_MAX). */
constexpr std::int64_t kSliceEnd = std::numeric_limits<std::int64_t>::max();

Shape contiguousStrides(const Shape& shape)
{
    Shape st(shape.size(), 1);
    for (std::size_t i = shape.size(); i-- > 1;)
        st[i - 1] = st[i] * shape[i];
    return st;
}

/** The strides `view` gives a tensor of `shape`/`strides` viewed as `target`: dimensions are grouped into chunks that
 *  are contiguous in memory, each chunk re-split into the target's sizes (PyTorch's rule for views). */
std::optional<Shape> viewStrides(const Shape& shape, const Shape& strides, const Shape& target)
{
    Shape out(target.size(), 1);
    std::int64_t t = std::int64_t(target.size()) - 1;
    std::int64_t chunkStride = strides.empty() ? 1 : strides.back();
    std::int64_t chunkNumel = 1, viewNumel = 1;
    for (std::int64_t d = std::int64_t(shape.size()) - 1; d >= 0; --d) {
        chunkNumel *= shape[std::size_t(d)];
        const bool chunkEnds =
            d == 0 || (shape[std::size_t(d - 1)] != 1 && strides[std::size_t(d - 1)] != chunkNumel * chunkStride);
        if (!chunkEnds)
            continue;
        while (t >= 0 && (viewNumel < chunkNumel || target[std::size_t(t)] == 1)) {
            out[std::size_t(t)] = viewNumel * chunkStride;
            viewNumel *= target[std::size_t(t)];
            --t;
        }
        if (viewNumel != chunkNumel)
            return std::nullopt;
        if (d > 0) {
            chunkStride = strides[std::size_t(d - 1)];
            chunkNumel = viewNumel = 1;
        }
    }
    if (t != -1)
        return std::nullopt;
    return out;
}

std::int64_t wrap(std::int64_t dim, std::size_t rank) { return dim < 0 ? dim + std::int64_t(rank) : dim; }

/** A schema argument of a node: torch.export drops the trailing positional ones left at their default (the
 *  dispatcher hands them to the tracer without them) and keyword-only ones at their default. */
struct A
{
    const char* name;
    json value;
    bool isDefault = false;
    bool kwargOnly = false;
};

json argsOf(const std::vector<A>& list)
{
    std::size_t end = 0; // positional arguments kept: up to the last one not at its default
    for (std::size_t k = 0; k < list.size(); ++k)
        if (!list[k].kwargOnly && !list[k].isDefault)
            end = k + 1;
    json out = json::array();
    for (std::size_t k = 0; k < list.size(); ++k) {
        if (list[k].kwargOnly) {
            if (!list[k].isDefault)
                out.push_back(kwarg(list[k].name, list[k].value));
        } else if (k < end) {
            out.push_back(arg(list[k].name, list[k].value));
        }
    }
    return out;
}

bool all(const Shape& s, std::int64_t v)
{
    return std::all_of(s.begin(), s.end(), [v](std::int64_t x) { return x == v; });
}

json optTensor(const std::string& name) { return name.empty() ? None() : T(name); }

/**
 * One exported block: its Case (the dump, written node by node as torch.export writes the module's training IR;
 * the inputs; the expected outputs) and the value PyTorch's definitions give each tensor, computed as the nodes are
 * written (torchreference.h).
 */
class Export
{
public:
    explicit Export(const std::string& rootType)
    {
        c.dump.trainingIr();
        c.dump.module("", rootType);
    }

    Case c;
    std::map<std::string, tr::Tensor> val;

    void module(const std::string& path, const std::string& type) { c.dump.module(path, type); }
    void at(const std::string& path, const std::string& fn, const std::string& code) { c.dump.at(path, fn, code); }

    // ---- placeholders (torch.export lifts parameters, then buffers, then the user inputs)

    /** Parameter `fqn` (placeholder p_<fqn>) uniform in +-bound, PyTorch's default init bound 1/sqrt(fan_in). */
    std::string param(const std::string& fqn, Shape shape, double bound, std::uint32_t seed)
    {
        const auto n = std::size_t(tr::zeros(shape).numel());
        return paramValues(fqn, std::move(shape), values(n, seed, bound));
    }
    std::string paramValues(const std::string& fqn, Shape shape, std::vector<double> v)
    {
        const std::string p = placeholder("p_", fqn);
        c.dump.weight(p, fqn, shape, v);
        val[p] = tr::tensor(std::move(shape), std::move(v));
        return p;
    }
    std::string buffer(
        const std::string& fqn, Shape shape, std::vector<double> v, int dtype = kFloat, bool persistent = true)
    {
        const std::string p = placeholder("b_", fqn);
        c.dump.buffer(p, fqn, shape, v, dtype, persistent);
        val[p] = tr::tensor(std::move(shape), std::move(v));
        return p;
    }
    /** The affine parameters of a BatchNorm at `path` (weight near 1, a small bias), as a trained model has. */
    void batchNormParams(const std::string& path, std::int64_t channels, std::uint32_t seed)
    {
        const auto n = std::size_t(channels);
        paramValues(path + ".weight", { channels }, map(values(n, seed), [](double u) { return 1.0 + 0.25 * u; }));
        paramValues(path + ".bias", { channels }, values(n, seed + 1, 0.2));
    }
    /** Its buffers: running statistics of a trained model and num_batches_tracked (int64, persistent). */
    void batchNormBuffers(const std::string& path, std::int64_t channels, std::uint32_t seed)
    {
        const auto n = std::size_t(channels);
        buffer(path + ".running_mean", { channels }, values(n, seed, 0.3));
        buffer(path + ".running_var", { channels }, map(values(n, seed + 1), [](double u) { return 0.6 + 0.4 * u; }));
        buffer(path + ".num_batches_tracked", {}, { 1200 }, kLong);
    }
    std::string input(const std::string& name, Shape shape, std::vector<double> v, int dtype = kFloat)
    {
        c.in(name, shape, v, dtype);
        val[name] = tr::tensor(std::move(shape), c.inputs.back().values);
        return name;
    }
    void output(const std::string& name)
    {
        c.dump.output(name);
        c.expect(val.at(name).shape, val.at(name).v);
    }

    // ---- nodes

    /** Node `name` = target(args) with one tensor output whose value is `v` (contiguous). */
    std::string node(const std::string& name, const std::string& target, const std::vector<A>& args, tr::Tensor v,
        int dtype = kFloat)
    {
        c.dump.node(name, target, argsOf(args), v.shape, dtype);
        val[name] = std::move(v);
        return name;
    }
    /** A view of `base`: the output keeps the storage, with the strides PyTorch gives the view. */
    std::string view(const std::string& name, const std::string& target, const std::vector<A>& args, tr::Tensor v,
        const Shape& strides, int dtype = kFloat)
    {
        node(name, target, args, std::move(v), dtype);
        if (strides != contiguousStrides(val[name].shape))
            c.dump.strides(name, strides);
        return name;
    }

    std::string conv2d(const std::string& name, const std::string& x, const std::string& w, const std::string& b,
        Shape stride = { 1, 1 }, Shape padding = { 0, 0 }, Shape dilation = { 1, 1 }, std::int64_t groups = 1)
    {
        auto v = tr::conv2d(val.at(x), val.at(w), bias(b), stride, padding, dilation, groups);
        return node(name, "conv2d.default", convArgs(x, w, b, stride, padding, dilation, groups), std::move(v));
    }
    std::string conv1d(const std::string& name, const std::string& x, const std::string& w, const std::string& b,
        std::int64_t stride = 1, std::int64_t padding = 0, std::int64_t dilation = 1, std::int64_t groups = 1)
    {
        auto v = tr::conv1d(val.at(x), val.at(w), bias(b), stride, padding, dilation, groups);
        return node(
            name, "conv1d.default", convArgs(x, w, b, { stride }, { padding }, { dilation }, groups), std::move(v));
    }
    std::string convTranspose2d(const std::string& name, const std::string& x, const std::string& w,
        const std::string& b, Shape stride, Shape padding = { 0, 0 }, Shape outputPadding = { 0, 0 },
        std::int64_t groups = 1, Shape dilation = { 1, 1 })
    {
        auto v = tr::convTranspose2d(val.at(x), val.at(w), bias(b), stride, padding, outputPadding, groups, dilation);
        return node(name, "conv_transpose2d.input",
            { { "input", T(x) }, { "weight", T(w) }, { "bias", optTensor(b), b.empty() },
                { "stride", Ints(stride), all(stride, 1) }, { "padding", Ints(padding), all(padding, 0) },
                { "output_padding", Ints(outputPadding), all(outputPadding, 0) }, { "groups", I(groups), groups == 1 },
                { "dilation", Ints(dilation), all(dilation, 1) } },
            std::move(v));
    }
    /** F.batch_norm of a module in eval mode (training=False), its parameters and buffers at `path`. */
    std::string batchNorm(const std::string& name, const std::string& x, const std::string& path, double momentum = 0.1,
        double eps = 1e-5)
    {
        const std::string p = placeholder("p_", path), b = placeholder("b_", path);
        auto v = tr::batchNormEval(val.at(x), val.at(b + "_running_mean"), val.at(b + "_running_var"),
            val.at(p + "_weight"), val.at(p + "_bias"), eps);
        return node(name, "batch_norm.default",
            { { "input", T(x) }, { "weight", T(p + "_weight") }, { "bias", T(p + "_bias") },
                { "running_mean", T(b + "_running_mean") }, { "running_var", T(b + "_running_var") },
                { "training", B(false) }, { "momentum", F(momentum) }, { "eps", F(eps) },
                { "cudnn_enabled", B(true) } },
            std::move(v));
    }
    std::string groupNorm(const std::string& name, const std::string& x, std::int64_t groups, const std::string& w,
        const std::string& b, double eps = 1e-5)
    {
        auto v = tr::groupNorm(val.at(x), groups, bias(w), bias(b), eps);
        return node(name, "group_norm.default",
            { { "input", T(x) }, { "num_groups", I(groups) }, { "weight", optTensor(w), w.empty() },
                { "bias", optTensor(b), b.empty() }, { "eps", F(eps), eps == 1e-5 },
                { "cudnn_enabled", B(true), true } },
            std::move(v));
    }
    std::string layerNorm(
        const std::string& name, const std::string& x, const std::string& w, const std::string& b, double eps = 1e-5)
    {
        const std::int64_t d = val.at(x).shape.back();
        auto v = tr::layerNorm(val.at(x), 1, bias(w), bias(b), eps);
        return node(name, "layer_norm.default",
            { { "input", T(x) }, { "normalized_shape", Ints({ d }) }, { "weight", optTensor(w), w.empty() },
                { "bias", optTensor(b), b.empty() }, { "eps", F(eps), eps == 1e-5 },
                { "cudnn_enable", B(true), true } },
            std::move(v));
    }
    std::string linear(const std::string& name, const std::string& x, const std::string& w, const std::string& b)
    {
        auto v = tr::linear(val.at(x), val.at(w), bias(b));
        return node(name, "linear.default",
            { { "input", T(x) }, { "weight", T(w) }, { "bias", optTensor(b), b.empty() } }, std::move(v));
    }
    std::string embedding(const std::string& name, const std::string& w, const std::string& indices)
    {
        auto v = tr::embedding(val.at(w), val.at(indices));
        return node(name, "embedding.default",
            { { "weight", T(w) }, { "indices", T(indices) }, { "padding_idx", I(-1), true },
                { "scale_grad_by_freq", B(false), true }, { "sparse", B(false), true } },
            std::move(v));
    }
    /** An activation with only `self` (relu, hardsigmoid, silu...; "relu_" and the like update x in place). */
    std::string unary(
        const std::string& name, const std::string& target, const std::string& x, tr::Tensor (*f)(const tr::Tensor&))
    {
        node(name, target, { { "self", T(x) } }, f(val.at(x)));
        if (target.find("_.") != std::string::npos)
            val[x] = val[name];
        return name;
    }
    std::string gelu(const std::string& name, const std::string& x, bool tanh = false)
    {
        return node(name, "gelu.default",
            { { "self", T(x) }, { "approximate", S(tanh ? "tanh" : "none"), !tanh, true } }, tr::gelu(val.at(x), tanh));
    }
    std::string glu(const std::string& name, const std::string& x, std::int64_t dim)
    {
        return node(name, "glu.default", { { "self", T(x) }, { "dim", I(dim), dim == -1 } }, tr::glu(val.at(x), dim));
    }
    /** nn.Dropout in eval mode: train=False, the values pass. */
    std::string dropout(const std::string& name, const std::string& x, double p)
    {
        return node(name, "dropout.default", { { "input", T(x) }, { "p", F(p) }, { "train", B(false) } }, val.at(x));
    }
    std::string add(const std::string& name, const std::string& a, const std::string& b, bool inPlace = false)
    {
        node(name, inPlace ? "add_.Tensor" : "add.Tensor", { { "self", T(a) }, { "other", T(b) } },
            tr::add(val.at(a), val.at(b)));
        if (inPlace)
            val[a] = val[name];
        return name;
    }
    std::string mul(const std::string& name, const std::string& a, const std::string& b)
    {
        return node(name, "mul.Tensor", { { "self", T(a) }, { "other", T(b) } }, tr::mul(val.at(a), val.at(b)));
    }
    std::string adaptiveAvgPool2d(const std::string& name, const std::string& x, Shape out)
    {
        return node(name, "adaptive_avg_pool2d.default", { { "self", T(x) }, { "output_size", Ints(out) } },
            tr::adaptiveAvgPool2d(val.at(x), out[0], out[1]));
    }
    /** F.max_pool2d(x, k) as nn.MaxPool2d(k) calls it: stride = kernel, no padding. */
    std::string maxPool2d(const std::string& name, const std::string& x, Shape kernel)
    {
        return node(name, "max_pool2d.default",
            { { "self", T(x) }, { "kernel_size", Ints(kernel) }, { "stride", Ints(kernel) },
                { "padding", Ints({ 0, 0 }), true }, { "dilation", Ints({ 1, 1 }), true },
                { "ceil_mode", B(false), true } },
            tr::maxPool2d(val.at(x), kernel, kernel));
    }
    /** F.pad in constant mode (mode and value at their default). */
    std::string pad(const std::string& name, const std::string& x, const Shape& pads)
    {
        return node(name, "pad.default",
            { { "self", T(x) }, { "pad", Ints(pads) }, { "mode", S("constant"), true }, { "value", None(), true } },
            tr::constantPad(val.at(x), pads));
    }
    std::string cat(const std::string& name, const std::vector<std::string>& xs, std::int64_t dim)
    {
        std::vector<tr::Tensor> vs;
        for (const auto& x : xs)
            vs.push_back(val.at(x));
        return node(name, "cat.default", { { "tensors", Tensors(xs) }, { "dim", I(dim), dim == 0 } }, tr::cat(vs, dim));
    }
    std::string logSoftmax(const std::string& name, const std::string& x, std::int64_t dim)
    {
        return node(name, "log_softmax.int", { { "self", T(x) }, { "dim", I(dim) }, { "dtype", None(), true } },
            tr::logSoftmax(val.at(x), dim));
    }
    /** F.scaled_dot_product_attention(q, k, v, attn_mask) (dropout 0, not causal, default scale). */
    std::string sdpa(const std::string& name, const std::string& q, const std::string& k, const std::string& v,
        const std::string& mask = "", bool boolMask = true)
    {
        std::optional<tr::Tensor> m;
        if (!mask.empty())
            m = val.at(mask);
        return node(name, "scaled_dot_product_attention.default",
            { { "query", T(q) }, { "key", T(k) }, { "value", T(v) }, { "attn_mask", optTensor(mask), mask.empty() },
                { "dropout_p", F(0.0), true }, { "is_causal", B(false), true }, { "scale", None(), true, true },
                { "enable_gqa", B(false), true, true } },
            tr::scaledDotProductAttention(val.at(q), val.at(k), val.at(v), m, boolMask, false));
    }

    // ---- views: the output aliases its input, with the strides PyTorch computes for it

    std::string viewAs(const std::string& name, const std::string& x, Shape shape, json sizeArg = nullptr)
    {
        auto v = tr::reshape(val.at(x), shape);
        const auto st = viewStrides(val.at(x).shape, c.dump.strides(x), v.shape);
        if (!st)
            throw std::logic_error("test bug: " + name + " is not a view of " + x);
        return view(name, "view.default", { { "self", T(x) }, { "size", sizeArg.is_null() ? Ints(shape) : sizeArg } },
            std::move(v), *st);
    }
    std::string transpose(const std::string& name, const std::string& x, std::int64_t d0, std::int64_t d1)
    {
        auto st = c.dump.strides(x);
        std::swap(st[std::size_t(wrap(d0, st.size()))], st[std::size_t(wrap(d1, st.size()))]);
        return view(name, "transpose.int", { { "self", T(x) }, { "dim0", I(d0) }, { "dim1", I(d1) } },
            tr::transpose(val.at(x), d0, d1), st);
    }
    std::string permute(const std::string& name, const std::string& x, const Shape& dims)
    {
        const auto in = c.dump.strides(x);
        Shape st;
        for (const auto d : dims)
            st.push_back(in[std::size_t(d)]);
        return view(
            name, "permute.default", { { "self", T(x) }, { "dims", Ints(dims) } }, tr::permute(val.at(x), dims), st);
    }
    std::string unsqueeze(const std::string& name, const std::string& x, std::int64_t dim)
    {
        const auto& shape = val.at(x).shape;
        auto st = c.dump.strides(x);
        const auto d = std::size_t(wrap(dim, shape.size() + 1));
        st.insert(st.begin() + std::ptrdiff_t(d), d < shape.size() ? shape[d] * st[d] : 1);
        return view(
            name, "unsqueeze.default", { { "self", T(x) }, { "dim", I(dim) } }, tr::unsqueeze(val.at(x), dim), st);
    }
    std::string squeeze(const std::string& name, const std::string& x, std::int64_t dim)
    {
        auto shape = val.at(x).shape;
        auto st = c.dump.strides(x);
        const auto d = std::size_t(wrap(dim, shape.size()));
        shape.erase(shape.begin() + std::ptrdiff_t(d));
        st.erase(st.begin() + std::ptrdiff_t(d));
        return view(name, "squeeze.dim", { { "self", T(x) }, { "dim", I(dim) } }, tr::reshape(val.at(x), shape), st);
    }
    std::string select(const std::string& name, const std::string& x, std::int64_t dim, std::int64_t index)
    {
        const auto& in = val.at(x);
        auto st = c.dump.strides(x);
        st.erase(st.begin() + std::ptrdiff_t(dim));
        auto v = tr::narrow(in, dim, index, 1);
        Shape shape = in.shape;
        shape.erase(shape.begin() + std::ptrdiff_t(dim));
        return view(name, "select.int", { { "self", T(x) }, { "dim", I(dim) }, { "index", I(index) } },
            tr::reshape(v, shape), st);
    }
    /** x[:] along `dim` as Python indexing writes it: slice.Tensor(x, dim, 0, INT64_MAX). */
    std::string fullSlice(const std::string& name, const std::string& x, std::int64_t dim)
    {
        return view(name, "slice.Tensor",
            { { "self", T(x) }, { "dim", I(dim), dim == 0 }, { "start", I(0) }, { "end", I(kSliceEnd) },
                { "step", I(1), true } },
            val.at(x), c.dump.strides(x));
    }
    std::string unflatten(const std::string& name, const std::string& x, std::int64_t dim, const Shape& sizes)
    {
        Shape shape = val.at(x).shape;
        const auto d = std::size_t(wrap(dim, shape.size()));
        shape.erase(shape.begin() + std::ptrdiff_t(d));
        shape.insert(shape.begin() + std::ptrdiff_t(d), sizes.begin(), sizes.end());
        const auto st = viewStrides(val.at(x).shape, c.dump.strides(x), shape);
        return view(name, "unflatten.int", { { "self", T(x) }, { "dim", I(dim) }, { "sizes", Ints(sizes) } },
            tr::reshape(val.at(x), shape), *st);
    }
    /** x.contiguous() on a tensor that is not: aten.contiguous (memory_format at its default). */
    std::string contiguous(const std::string& name, const std::string& x)
    {
        return node(name, "contiguous.default", { { "self", T(x) } }, val.at(x));
    }

private:
    static std::string placeholder(const std::string& prefix, const std::string& fqn)
    {
        std::string p = prefix + fqn;
        std::replace(p.begin(), p.end(), '.', '_');
        return p;
    }
    std::optional<tr::Tensor> bias(const std::string& name) const
    {
        return name.empty() ? std::nullopt : std::optional<tr::Tensor>(val.at(name));
    }
    static std::vector<A> convArgs(const std::string& x, const std::string& w, const std::string& b,
        const Shape& stride, const Shape& padding, const Shape& dilation, std::int64_t groups)
    {
        return { { "input", T(x) }, { "weight", T(w) }, { "bias", optTensor(b), b.empty() },
            { "stride", Ints(stride), all(stride, 1) }, { "padding", Ints(padding), all(padding, 0) },
            { "dilation", Ints(dilation), all(dilation, 1) }, { "groups", I(groups), groups == 1 } };
    }
};

/** Integer token ids in [0, vocab). */
std::vector<double> tokens(std::size_t n, std::uint32_t seed, std::int64_t vocab)
{
    std::vector<double> t;
    for (const double u : values(n, seed))
        t.push_back(double(std::min<std::int64_t>(vocab - 1, std::int64_t((u + 1.0) / 2.0 * double(vocab)))));
    return t;
}

double bound(std::int64_t fanIn) { return 1.0 / std::sqrt(double(fanIn)); }

const char* const kConv2d = "torch.nn.modules.conv.Conv2d";
const char* const kConv1d = "torch.nn.modules.conv.Conv1d";
const char* const kBatchNorm2d = "torch.nn.modules.batchnorm.BatchNorm2d";
const char* const kLinear = "torch.nn.modules.linear.Linear";
const char* const kLayerNorm = "torch.nn.modules.normalization.LayerNorm";
const char* const kReLU = "torch.nn.modules.activation.ReLU";
const char* const kGELU = "torch.nn.modules.activation.GELU";
const char* const kDropout = "torch.nn.modules.dropout.Dropout";
const char* const kSequential = "torch.nn.modules.container.Sequential";
const char* const kFnConv2d = "builtin_function_or_method.conv2d";
const char* const kFnConv1d = "builtin_function_or_method.conv1d";
const char* const kFnLinear = "builtin_function_or_method.linear";
const char* const kFnBatchNorm = "function.batch_norm";
const char* const kFnLayerNorm = "function.layer_norm";
const char* const kFnRelu = "function.relu";
const char* const kFnGelu = "builtin_function_or_method.gelu";
const char* const kFnDropout = "function.dropout";

} // namespace

namespace {

/**
 * torchvision.models.resnet.BasicBlock(inplanes=8, planes=16, stride=2, downsample=Sequential(conv1x1(8, 16, 2),
 * BatchNorm2d(16))) in eval mode on [1, 8, 16, 16]: conv3x3 (no bias), BN, ReLU(inplace=True) -> relu_, conv3x3,
 * BN, the downsampled identity, `out += identity` -> add_, relu_.
 */
Export resnetBasicBlock()
{
    Export e("torchvision.models.resnet.BasicBlock");
    e.module("conv1", kConv2d);
    e.module("bn1", kBatchNorm2d);
    e.module("relu", kReLU);
    e.module("conv2", kConv2d);
    e.module("bn2", kBatchNorm2d);
    e.module("downsample", kSequential);
    e.module("downsample.0", kConv2d);
    e.module("downsample.1", kBatchNorm2d);
    e.param("conv1.weight", { 16, 8, 3, 3 }, bound(8 * 9), 11);
    e.batchNormParams("bn1", 16, 12);
    e.param("conv2.weight", { 16, 16, 3, 3 }, bound(16 * 9), 13);
    e.batchNormParams("bn2", 16, 14);
    e.param("downsample.0.weight", { 16, 8, 1, 1 }, bound(8), 15);
    e.batchNormParams("downsample.1", 16, 16);
    e.batchNormBuffers("bn1", 16, 17);
    e.batchNormBuffers("bn2", 16, 18);
    e.batchNormBuffers("downsample.1", 16, 19);
    e.input("x", { 1, 8, 16, 16 }, values(8 * 16 * 16, 20));

    e.at("conv1", kFnConv2d, "out = self.conv1(x)");
    e.conv2d("conv2d", "x", "p_conv1_weight", "", { 2, 2 }, { 1, 1 });
    e.at("bn1", kFnBatchNorm, "out = self.bn1(out)");
    e.batchNorm("batch_norm", "conv2d", "bn1");
    e.at("relu", kFnRelu, "out = self.relu(out)");
    e.unary("relu_", "relu_.default", "batch_norm", tr::relu);
    e.at("conv2", kFnConv2d, "out = self.conv2(out)");
    e.conv2d("conv2d_1", "relu_", "p_conv2_weight", "", { 1, 1 }, { 1, 1 });
    e.at("bn2", kFnBatchNorm, "out = self.bn2(out)");
    e.batchNorm("batch_norm_1", "conv2d_1", "bn2");
    e.at("downsample.0", kFnConv2d, "identity = self.downsample(x)");
    e.conv2d("conv2d_2", "x", "p_downsample_0_weight", "", { 2, 2 });
    e.at("downsample.1", kFnBatchNorm, "identity = self.downsample(x)");
    e.batchNorm("batch_norm_2", "conv2d_2", "downsample.1");
    e.at("", "", "out += identity");
    e.add("add_", "batch_norm_1", "batch_norm_2", true);
    e.at("relu", kFnRelu, "out = self.relu(out)");
    e.unary("relu__1", "relu_.default", "add_", tr::relu);
    e.output("relu__1");
    return e;
}

/**
 * torchvision.models.mobilenetv3.InvertedResidual(InvertedResidualConfig(16, 3, 32, 16, use_se=True, "HS", 1, 1))
 * in eval mode on [1, 16, 8, 8]: 1x1 expansion, depthwise 3x3, squeeze-excitation (adaptive_avg_pool2d, fc1, ReLU,
 * fc2, Hardsigmoid, scale * input), 1x1 projection; BatchNorm2d(eps=0.001, momentum=0.01), Hardswish(inplace=True)
 * -> hardswish_, `result += input` -> add_.
 */
Export mobileNetV3InvertedResidual()
{
    Export e("torchvision.models.mobilenetv3.InvertedResidual");
    const char* cna = "torchvision.ops.misc.Conv2dNormActivation";
    const char* hs = "torch.nn.modules.activation.Hardswish";
    e.module("block", kSequential);
    e.module("block.0", cna);
    e.module("block.0.0", kConv2d);
    e.module("block.0.1", kBatchNorm2d);
    e.module("block.0.2", hs);
    e.module("block.1", cna);
    e.module("block.1.0", kConv2d);
    e.module("block.1.1", kBatchNorm2d);
    e.module("block.1.2", hs);
    e.module("block.2", "torchvision.ops.misc.SqueezeExcitation");
    e.module("block.2.avgpool", "torch.nn.modules.pooling.AdaptiveAvgPool2d");
    e.module("block.2.fc1", kConv2d);
    e.module("block.2.fc2", kConv2d);
    e.module("block.2.activation", kReLU);
    e.module("block.2.scale_activation", "torch.nn.modules.activation.Hardsigmoid");
    e.module("block.3", cna);
    e.module("block.3.0", kConv2d);
    e.module("block.3.1", kBatchNorm2d);
    e.param("block.0.0.weight", { 32, 16, 1, 1 }, bound(16), 31);
    e.batchNormParams("block.0.1", 32, 32);
    e.param("block.1.0.weight", { 32, 1, 3, 3 }, bound(9), 33);
    e.batchNormParams("block.1.1", 32, 34);
    e.param("block.2.fc1.weight", { 8, 32, 1, 1 }, bound(32), 35);
    e.param("block.2.fc1.bias", { 8 }, bound(32), 36);
    e.param("block.2.fc2.weight", { 32, 8, 1, 1 }, bound(8), 37);
    e.param("block.2.fc2.bias", { 32 }, bound(8), 38);
    e.param("block.3.0.weight", { 16, 32, 1, 1 }, bound(32), 39);
    e.batchNormParams("block.3.1", 16, 40);
    e.batchNormBuffers("block.0.1", 32, 41);
    e.batchNormBuffers("block.1.1", 32, 42);
    e.batchNormBuffers("block.3.1", 16, 43);
    e.input("input", { 1, 16, 8, 8 }, values(16 * 8 * 8, 44, 2.0));

    e.at("block.0.0", kFnConv2d, "result = self.block(input)");
    e.conv2d("conv2d", "input", "p_block_0_0_weight", "");
    e.at("block.0.1", kFnBatchNorm, "result = self.block(input)");
    e.batchNorm("batch_norm", "conv2d", "block.0.1", 0.01, 0.001);
    e.at("block.0.2", "function.hardswish", "result = self.block(input)");
    e.unary("hardswish_", "hardswish_.default", "batch_norm", tr::hardswish);
    e.at("block.1.0", kFnConv2d, "result = self.block(input)");
    e.conv2d("conv2d_1", "hardswish_", "p_block_1_0_weight", "", { 1, 1 }, { 1, 1 }, { 1, 1 }, 32);
    e.at("block.1.1", kFnBatchNorm, "result = self.block(input)");
    e.batchNorm("batch_norm_1", "conv2d_1", "block.1.1", 0.01, 0.001);
    e.at("block.1.2", "function.hardswish", "result = self.block(input)");
    e.unary("hardswish__1", "hardswish_.default", "batch_norm_1", tr::hardswish);
    e.at("block.2.avgpool", "function.adaptive_avg_pool2d", "scale = self.avgpool(input)");
    e.adaptiveAvgPool2d("adaptive_avg_pool2d", "hardswish__1", { 1, 1 });
    e.at("block.2.fc1", kFnConv2d, "scale = self.fc1(scale)");
    e.conv2d("conv2d_2", "adaptive_avg_pool2d", "p_block_2_fc1_weight", "p_block_2_fc1_bias");
    e.at("block.2.activation", kFnRelu, "scale = self.activation(scale)");
    e.unary("relu", "relu.default", "conv2d_2", tr::relu);
    e.at("block.2.fc2", kFnConv2d, "scale = self.fc2(scale)");
    e.conv2d("conv2d_3", "relu", "p_block_2_fc2_weight", "p_block_2_fc2_bias");
    e.at("block.2.scale_activation", "function.hardsigmoid", "return self.scale_activation(scale)");
    e.unary("hardsigmoid", "hardsigmoid.default", "conv2d_3", tr::hardsigmoid);
    e.at("block.2", "", "return scale * input");
    e.mul("mul", "hardsigmoid", "hardswish__1");
    e.at("block.3.0", kFnConv2d, "result = self.block(input)");
    e.conv2d("conv2d_4", "mul", "p_block_3_0_weight", "");
    e.at("block.3.1", kFnBatchNorm, "result = self.block(input)");
    e.batchNorm("batch_norm_2", "conv2d_4", "block.3.1", 0.01, 0.001);
    e.at("", "", "result += input");
    e.add("add_", "batch_norm_2", "input", true);
    e.output("add_");
    return e;
}

/**
 * torchvision.models.vision_transformer.EncoderBlock(num_heads=4, hidden_dim=32, mlp_dim=64, dropout=0.0,
 * attention_dropout=0.0) in eval mode on [2, 8, 32]: LayerNorm(eps=1e-6), nn.MultiheadAttention(batch_first=True)
 * called with need_weights=False as F.multi_head_attention_forward traces it (packed in-projection: linear,
 * unflatten, unsqueeze, transpose, squeeze, contiguous, select; heads: view, transpose, view; SDPA; permute,
 * contiguous, view, out-projection linear, view; transposes for batch_first), dropout, residual, LayerNorm, MLP
 * (linear, GELU, dropout, linear, dropout), residual.
 */
Export vitEncoderBlock(bool dynamic)
{
    const std::int64_t B = dynamic ? 3 : 2;
    constexpr std::int64_t N = 8, D = 32, H = 4, Hd = D / H, M = 64;
    Export e("torchvision.models.vision_transformer.EncoderBlock");
    e.module("ln_1", kLayerNorm);
    e.module("self_attention", "torch.nn.modules.activation.MultiheadAttention");
    e.module("dropout", kDropout);
    e.module("ln_2", kLayerNorm);
    e.module("mlp", "torchvision.models.vision_transformer.MLPBlock");
    e.module("mlp.0", kLinear);
    e.module("mlp.1", kGELU);
    e.module("mlp.2", kDropout);
    e.module("mlp.3", kLinear);
    e.module("mlp.4", kDropout);
    e.paramValues("ln_1.weight", { D }, map(values(D, 51), [](double u) { return 1.0 + 0.2 * u; }));
    e.param("ln_1.bias", { D }, 0.1, 52);
    e.param("self_attention.in_proj_weight", { 3 * D, D }, std::sqrt(6.0 / (4 * D)), 53); // xavier_uniform
    e.param("self_attention.in_proj_bias", { 3 * D }, 0.05, 54);
    e.param("self_attention.out_proj.weight", { D, D }, bound(D), 55);
    e.param("self_attention.out_proj.bias", { D }, 0.05, 56);
    e.paramValues("ln_2.weight", { D }, map(values(D, 57), [](double u) { return 1.0 + 0.2 * u; }));
    e.param("ln_2.bias", { D }, 0.1, 58);
    e.param("mlp.0.weight", { M, D }, bound(D), 59);
    e.param("mlp.0.bias", { M }, bound(D), 60);
    e.param("mlp.3.weight", { D, M }, bound(M), 61);
    e.param("mlp.3.bias", { D }, bound(M), 62);
    e.input("input", { B, N, D }, values(B * N * D, 63, 2.0));

    const std::string mha = "self_attention";
    const std::string mhaCall = "x, _ = self.self_attention(x, x, x, need_weights=False)";
    e.at("ln_1", kFnLayerNorm, "x = self.ln_1(input)");
    e.layerNorm("layer_norm", "input", "p_ln_1_weight", "p_ln_1_bias", 1e-6);
    e.at(mha, "", mhaCall);
    e.transpose("transpose", "layer_norm", 1, 0); // [N, B, D]
    e.at(mha, kFnLinear, mhaCall);
    e.linear("linear", "transpose", "p_self_attention_in_proj_weight", "p_self_attention_in_proj_bias");
    e.at(mha, "", mhaCall);
    e.unflatten("unflatten", "linear", -1, { 3, D });
    e.unsqueeze("unsqueeze", "unflatten", 0);
    e.transpose("transpose_1", "unsqueeze", 0, -2);
    e.squeeze("squeeze", "transpose_1", -2);
    e.contiguous("contiguous", "squeeze"); // [3, N, B, D]
    e.select("select", "contiguous", 0, 0);
    e.select("select_1", "contiguous", 0, 1);
    e.select("select_2", "contiguous", 0, 2);
    // With a dynamic batch, bsz * num_heads and bsz * tgt_len are SymInt products: one _operator.mul node each
    // time the Python code multiplies.
    auto sizes = [&](std::vector<std::variant<std::int64_t, std::string>> dims) -> json {
        if (!dynamic)
            return nullptr;
        return SymSizes(dims);
    };
    auto product = [&](const std::string& name, std::int64_t k) {
        if (dynamic)
            e.c.dump.symNode(name, "_operator.mul", json::array({ arg("", SymArg("sym_size_int")), arg("", I(k)) }),
                std::to_string(k) + "*s0", k * B);
        return name;
    };
    if (dynamic)
        e.c.dump.symNode(
            "sym_size_int", "sym_size.int", json::array({ arg("self", T("input")), arg("dim", I(0)) }), "s0", B);
    e.viewAs("view", "select", { N, B * H, Hd }, sizes({ N, product("mul", H), Hd }));
    e.transpose("transpose_2", "view", 0, 1);
    e.viewAs("view_1", "select_1", { N, B * H, Hd }, sizes({ N, product("mul_1", H), Hd }));
    e.transpose("transpose_3", "view_1", 0, 1);
    e.viewAs("view_2", "select_2", { N, B * H, Hd }, sizes({ N, product("mul_2", H), Hd }));
    e.transpose("transpose_4", "view_2", 0, 1);
    e.viewAs("view_3", "transpose_2", { B, H, N, Hd }, sizes({ std::string("sym_size_int"), H, N, Hd }));
    e.viewAs("view_4", "transpose_3", { B, H, N, Hd }, sizes({ std::string("sym_size_int"), H, N, Hd }));
    e.viewAs("view_5", "transpose_4", { B, H, N, Hd }, sizes({ std::string("sym_size_int"), H, N, Hd }));
    e.at(mha, "builtin_function_or_method.scaled_dot_product_attention", mhaCall);
    e.sdpa("scaled_dot_product_attention", "view_3", "view_4", "view_5");
    e.at(mha, "", mhaCall);
    e.permute("permute", "scaled_dot_product_attention", { 2, 0, 1, 3 });
    e.contiguous("contiguous_1", "permute");
    e.viewAs("view_6", "contiguous_1", { B * N, D }, sizes({ product("mul_3", N), D }));
    e.at(mha, kFnLinear, mhaCall);
    e.linear("linear_1", "view_6", "p_self_attention_out_proj_weight", "p_self_attention_out_proj_bias");
    e.at(mha, "", mhaCall);
    e.viewAs("view_7", "linear_1", { N, B, D }, sizes({ N, std::string("sym_size_int"), D }));
    e.transpose("transpose_5", "view_7", 1, 0);
    e.at("dropout", kFnDropout, "x = self.dropout(x)");
    e.dropout("dropout", "transpose_5", 0.0);
    e.at("", "", "x = x + input");
    e.add("add", "dropout", "input");
    e.at("ln_2", kFnLayerNorm, "y = self.ln_2(x)");
    e.layerNorm("layer_norm_1", "add", "p_ln_2_weight", "p_ln_2_bias", 1e-6);
    e.at("mlp.0", kFnLinear, "y = self.mlp(y)");
    e.linear("linear_2", "layer_norm_1", "p_mlp_0_weight", "p_mlp_0_bias");
    e.at("mlp.1", kFnGelu, "y = self.mlp(y)");
    e.gelu("gelu", "linear_2");
    e.at("mlp.2", kFnDropout, "y = self.mlp(y)");
    e.dropout("dropout_1", "gelu", 0.0);
    e.at("mlp.3", kFnLinear, "y = self.mlp(y)");
    e.linear("linear_3", "dropout_1", "p_mlp_3_weight", "p_mlp_3_bias");
    e.at("mlp.4", kFnDropout, "y = self.mlp(y)");
    e.dropout("dropout_2", "linear_3", 0.0);
    e.at("", "", "return x + y");
    e.add("add_1", "add", "dropout_2");
    e.output("add_1");

    if (dynamic) {
        // The batch is s0 wherever it appears: where it leads, where MultiheadAttention moved it to dimension 1 (or
        // 2), and where it is folded with the heads (4*s0) or the tokens (8*s0).
        for (const char* n :
            { "input", "layer_norm", "scaled_dot_product_attention", "view_3", "view_4", "view_5", "transpose_5",
                "dropout", "add", "layer_norm_1", "linear_2", "gelu", "dropout_1", "linear_3", "dropout_2", "add_1" })
            e.c.dump.dynamic(n, 0, "s0", B);
        for (const char* n : { "transpose", "linear", "unflatten", "select", "select_1", "select_2", "permute",
                 "contiguous_1", "view_7" })
            e.c.dump.dynamic(n, 1, "s0", B);
        for (const char* n : { "unsqueeze", "transpose_1", "squeeze", "contiguous" })
            e.c.dump.dynamic(n, 2, "s0", B);
        for (const char* n : { "view", "view_1", "view_2" })
            e.c.dump.dynamic(n, 1, "s0", B, H);
        for (const char* n : { "transpose_2", "transpose_3", "transpose_4" })
            e.c.dump.dynamic(n, 0, "s0", B, H);
        e.c.dump.dynamic("view_6", 0, "s0", B, N);
        e.c.dump.dynamic("linear_1", 0, "s0", B, N);
    }
    return e;
}

} // namespace

namespace {

/**
 * A GPT-2 block (nanoGPT's Block: ln_1, causal self-attention, ln_2, MLP with GELU(approximate="tanh")) with a
 * KV cache, in eval mode: x [1, T, 32], input_pos [T] (int64, the tokens' positions), 4 heads. The attention keeps
 * `k_cache`/`v_cache` [1, 4, 8, 8] and a causal `mask` [8, 8] (bool, tril) as non-persistent buffers; it writes
 * the new keys and values with `self.k_cache[:, :, input_pos] = k` (two full slices, then index_put_ into the
 * slice view) and attends over the whole cache with `attn_mask=self.mask[input_pos]`. Positions 0-2 of the caches
 * hold earlier tokens; the block is fed positions 3-6 (a prefill after a prompt of 3), twice (the second run
 * writes the same positions: same outputs).
 *
 * With `dynamic`, T is the symbol s27 in [2, 4] (torch.export.export(..., dynamic_shapes={"x": {1: seq},
 * "input_pos": {0: seq}})): the shapes carry it, `sym_size.int(x, 1)` feeds the views, and the runtime runs the
 * upper bound T = 4.
 */
Export gpt2BlockWithKvCache(bool dynamic)
{
    constexpr std::int64_t L = 4, C = 32, H = 4, Hd = C / H, S = 8, P = 3;
    Export e("zoo.gpt2.Block");
    e.module("ln_1", kLayerNorm);
    e.module("attn", "zoo.gpt2.CausalSelfAttention");
    e.module("attn.c_attn", kLinear);
    e.module("attn.c_proj", kLinear);
    e.module("ln_2", kLayerNorm);
    e.module("mlp", "zoo.gpt2.MLP");
    e.module("mlp.c_fc", kLinear);
    e.module("mlp.gelu", kGELU);
    e.module("mlp.c_proj", kLinear);
    e.paramValues("ln_1.weight", { C }, map(values(C, 71), [](double u) { return 1.0 + 0.2 * u; }));
    e.param("ln_1.bias", { C }, 0.1, 72);
    e.param("attn.c_attn.weight", { 3 * C, C }, bound(C), 73);
    e.param("attn.c_attn.bias", { 3 * C }, bound(C), 74);
    e.param("attn.c_proj.weight", { C, C }, bound(C), 75);
    e.param("attn.c_proj.bias", { C }, bound(C), 76);
    e.paramValues("ln_2.weight", { C }, map(values(C, 77), [](double u) { return 1.0 + 0.2 * u; }));
    e.param("ln_2.bias", { C }, 0.1, 78);
    e.param("mlp.c_fc.weight", { 4 * C, C }, bound(C), 79);
    e.param("mlp.c_fc.bias", { 4 * C }, bound(C), 80);
    e.param("mlp.c_proj.weight", { C, 4 * C }, bound(4 * C), 81);
    e.param("mlp.c_proj.bias", { C }, bound(4 * C), 82);
    // The caches hold the keys and values of the first P tokens; later positions are zero.
    std::vector<double> kCache(H * S * Hd, 0.0), vCache(H * S * Hd, 0.0);
    const auto kPrev = values(H * P * Hd, 83, 1.5), vPrev = values(H * P * Hd, 84, 1.5);
    for (std::int64_t h = 0; h < H; ++h)
        for (std::int64_t p = 0; p < P; ++p)
            for (std::int64_t d = 0; d < Hd; ++d) {
                kCache[std::size_t((h * S + p) * Hd + d)] = kPrev[std::size_t((h * P + p) * Hd + d)];
                vCache[std::size_t((h * S + p) * Hd + d)] = vPrev[std::size_t((h * P + p) * Hd + d)];
            }
    std::vector<double> mask(S * S);
    for (std::int64_t i = 0; i < S; ++i)
        for (std::int64_t j = 0; j < S; ++j)
            mask[std::size_t(i * S + j)] = j <= i ? 1 : 0;
    e.buffer("attn.k_cache", { 1, H, S, Hd }, kCache, kFloat, false);
    e.buffer("attn.v_cache", { 1, H, S, Hd }, vCache, kFloat, false);
    e.buffer("attn.mask", { S, S }, mask, kBool, false);
    e.input("x", { 1, L, C }, values(L * C, 85, 2.0));
    e.input("input_pos", { L }, { 3, 4, 5, 6 }, kLong);

    const std::string code = "q, k, v = self.c_attn(x).split(self.n_embd, dim=2)";
    e.at("ln_1", kFnLayerNorm, "x = x + self.attn(self.ln_1(x), input_pos)");
    e.layerNorm("layer_norm", "x", "p_ln_1_weight", "p_ln_1_bias");
    e.at("attn.c_attn", kFnLinear, code);
    e.linear("linear", "layer_norm", "p_attn_c_attn_weight", "p_attn_c_attn_bias");
    e.at("attn", "", code);
    {
        // split returns Tensor[]: one node, its outputs named by their getitem users.
        const auto& qkv = e.val.at("linear");
        std::vector<std::pair<std::string, Shape>> outs;
        for (int k = 0; k < 3; ++k) {
            const std::string n = k == 0 ? "getitem" : "getitem_" + std::to_string(k);
            e.val[n] = tr::narrow(qkv, 2, k * C, C);
            outs.emplace_back(n, Shape { 1, L, C });
        }
        e.c.dump.listNode("split", "split.Tensor",
            argsOf({ { "self", T("linear") }, { "split_size", I(C) }, { "dim", I(2) } }), outs);
        for (const auto& [n, shape] : outs)
            e.c.dump.strides(n, { L * 3 * C, 3 * C, 1 });
    }
    json viewSize = nullptr, outSize = nullptr;
    if (dynamic) {
        // B, T, C = x.size(): T is the input's symbolic size, read where a view first needs it.
        e.at("attn", "", "q = q.view(B, T, self.n_head, C // self.n_head).transpose(1, 2)");
        e.c.dump.symNode(
            "sym_size_int_1", "sym_size.int", json::array({ arg("self", T("x")), arg("dim", I(1)) }), "s27", L);
        viewSize = SymSizes({ std::int64_t(1), std::string("sym_size_int_1"), H, Hd });
        outSize = SymSizes({ std::int64_t(1), std::string("sym_size_int_1"), C });
    }
    e.at("attn", "", "q = q.view(B, T, self.n_head, C // self.n_head).transpose(1, 2)");
    e.viewAs("view", "getitem", { 1, L, H, Hd }, viewSize);
    e.transpose("transpose", "view", 1, 2); // q
    e.viewAs("view_1", "getitem_1", { 1, L, H, Hd }, viewSize);
    e.transpose("transpose_1", "view_1", 1, 2); // k
    e.viewAs("view_2", "getitem_2", { 1, L, H, Hd }, viewSize);
    e.transpose("transpose_2", "view_2", 1, 2); // v

    // self.k_cache[:, :, input_pos] = k: the reference writes the cache rows the positions name.
    auto writeCache = [&](const std::string& cache, const std::string& s0, const std::string& s1,
                          const std::string& put, const std::string& values) {
        e.at("attn", "", "self." + cache.substr(7) + "[:, :, input_pos] = " + (values == "transpose_1" ? "k" : "v"));
        e.fullSlice(s0, cache, 0);
        e.fullSlice(s1, s0, 1);
        tr::Tensor updated = e.val.at(cache);
        const auto& src = e.val.at(values);
        const auto& pos = e.val.at("input_pos").v;
        for (std::int64_t h = 0; h < H; ++h)
            for (std::int64_t t = 0; t < L; ++t)
                for (std::int64_t d = 0; d < Hd; ++d)
                    updated.v[std::size_t((h * S + std::int64_t(pos[std::size_t(t)])) * Hd + d)] =
                        src.v[std::size_t((h * L + t) * Hd + d)];
        e.node(put, "index_put_.default",
            { { "self", T(s1) }, { "indices", OptionalTensors({ "", "", "input_pos" }) }, { "values", T(values) },
                { "accumulate", B(false), true } },
            updated);
        e.val[cache] = e.val[s0] = e.val[s1] = updated;
    };
    writeCache("b_attn_k_cache", "slice_1", "slice_2", "index_put_", "transpose_1");
    writeCache("b_attn_v_cache", "slice_3", "slice_4", "index_put__1", "transpose_2");
    e.at("attn", "", "mask = self.mask[input_pos]");
    {
        tr::Tensor rows = tr::zeros({ L, S });
        const auto& pos = e.val.at("input_pos").v;
        for (std::int64_t t = 0; t < L; ++t)
            for (std::int64_t j = 0; j < S; ++j)
                rows.v[std::size_t(t * S + j)] =
                    e.val.at("b_attn_mask").v[std::size_t(std::int64_t(pos[std::size_t(t)]) * S + j)];
        e.node("index", "index.Tensor",
            { { "self", T("b_attn_mask") }, { "indices", OptionalTensors({ "input_pos" }) } }, rows, kBool);
    }
    e.at("attn", "builtin_function_or_method.scaled_dot_product_attention",
        "y = F.scaled_dot_product_attention(q, self.k_cache, self.v_cache, attn_mask=mask)");
    e.sdpa("scaled_dot_product_attention", "transpose", "b_attn_k_cache", "b_attn_v_cache", "index");
    e.at("attn", "", "y = y.transpose(1, 2).contiguous().view(B, T, C)");
    e.transpose("transpose_3", "scaled_dot_product_attention", 1, 2);
    e.contiguous("contiguous", "transpose_3");
    e.viewAs("view_3", "contiguous", { 1, L, C }, outSize);
    e.at("attn.c_proj", kFnLinear, "return self.c_proj(y)");
    e.linear("linear_1", "view_3", "p_attn_c_proj_weight", "p_attn_c_proj_bias");
    e.at("", "", "x = x + self.attn(self.ln_1(x), input_pos)");
    e.add("add", "x", "linear_1");
    e.at("ln_2", kFnLayerNorm, "x = x + self.mlp(self.ln_2(x))");
    e.layerNorm("layer_norm_1", "add", "p_ln_2_weight", "p_ln_2_bias");
    e.at("mlp.c_fc", kFnLinear, "x = self.c_fc(x)");
    e.linear("linear_2", "layer_norm_1", "p_mlp_c_fc_weight", "p_mlp_c_fc_bias");
    e.at("mlp.gelu", kFnGelu, "x = self.gelu(x)");
    e.gelu("gelu", "linear_2", true);
    e.at("mlp.c_proj", kFnLinear, "x = self.c_proj(x)");
    e.linear("linear_3", "gelu", "p_mlp_c_proj_weight", "p_mlp_c_proj_bias");
    e.at("", "", "x = x + self.mlp(self.ln_2(x))");
    e.add("add_1", "add", "linear_3");
    e.output("add_1");
    e.c.runs = 2;

    if (dynamic) {
        // T is s27 wherever it appears (dimension 1 of [1, T, *], 2 of the heads [1, H, T, Hd], 0 of input_pos
        // and of the mask rows).
        for (const char* n : { "x", "layer_norm", "linear", "getitem", "getitem_1", "getitem_2", "view", "view_1",
                 "view_2", "view_3", "contiguous", "transpose_3", "linear_1", "add", "layer_norm_1", "linear_2", "gelu",
                 "linear_3", "add_1" })
            e.c.dump.dynamic(n, 1, "s27", L);
        for (const char* n : { "transpose", "transpose_1", "transpose_2", "scaled_dot_product_attention" })
            e.c.dump.dynamic(n, 2, "s27", L);
        for (const char* n : { "input_pos", "index" })
            e.c.dump.dynamic(n, 0, "s27", L);
    }
    return e;
}

/**
 * The LSTM part-of-speech tagger of PyTorch's tutorial ("Sequence Models and Long Short-Term Memory Networks"):
 * Embedding(20, 16), LSTM(16, 16) over a sentence of 6 words (view(len, 1, -1), no initial state: torch.zeros for
 * h0/c0), Linear(16, 8), log_softmax(dim=1).
 */
Export lstmTagger()
{
    constexpr std::int64_t V = 20, E = 16, Hh = 16, Tags = 8, L = 6;
    Export e("zoo.tutorial.LSTMTagger");
    e.module("word_embeddings", "torch.nn.modules.sparse.Embedding");
    e.module("lstm", "torch.nn.modules.rnn.LSTM");
    e.module("hidden2tag", kLinear);
    e.param("word_embeddings.weight", { V, E }, 1.0, 91);
    e.param("lstm.weight_ih_l0", { 4 * Hh, E }, bound(Hh), 92);
    e.param("lstm.weight_hh_l0", { 4 * Hh, Hh }, bound(Hh), 93);
    e.param("lstm.bias_ih_l0", { 4 * Hh }, bound(Hh), 94);
    e.param("lstm.bias_hh_l0", { 4 * Hh }, bound(Hh), 95);
    e.param("hidden2tag.weight", { Tags, Hh }, bound(Hh), 96);
    e.param("hidden2tag.bias", { Tags }, bound(Hh), 97);
    e.input("sentence", { L }, tokens(L, 98, V), kLong);

    e.at("word_embeddings", "function.embedding", "embeds = self.word_embeddings(sentence)");
    e.embedding("embedding", "p_word_embeddings_weight", "sentence");
    const std::string call = "lstm_out, _ = self.lstm(embeds.view(len(sentence), 1, -1))";
    e.at("", "", call);
    e.viewAs("view", "embedding", { L, 1, -1 });
    e.at("lstm", "builtin_function_or_method.zeros", call);
    for (const char* z : { "zeros", "zeros_1" })
        e.node(z, "zeros.default",
            { { "size", Ints({ 1, 1, Hh }) }, { "dtype", Dtype(kFloat), false, true },
                { "device", Device(), false, true }, { "pin_memory", B(false), false, true } },
            tr::zeros({ 1, 1, Hh }));
    e.at("lstm", "builtin_function_or_method.lstm", call);
    const auto r =
        tr::lstm(e.val.at("view"), tr::zeros({ 1, Hh }), tr::zeros({ 1, Hh }), e.val.at("p_lstm_weight_ih_l0"),
            e.val.at("p_lstm_weight_hh_l0"), e.val.at("p_lstm_bias_ih_l0"), e.val.at("p_lstm_bias_hh_l0"));
    e.c.dump.tupleNode("lstm", "lstm.input",
        argsOf({ { "input", T("view") }, { "hx", Tensors({ "zeros", "zeros_1" }) },
            { "params",
                Tensors({ "p_lstm_weight_ih_l0", "p_lstm_weight_hh_l0", "p_lstm_bias_ih_l0", "p_lstm_bias_hh_l0" }) },
            { "has_biases", B(true) }, { "num_layers", I(1) }, { "dropout", F(0.0) }, { "train", B(false) },
            { "bidirectional", B(false) }, { "batch_first", B(false) } }),
        { { "getitem", { L, 1, Hh } }, { "getitem_1", { 1, 1, Hh } }, { "getitem_2", { 1, 1, Hh } } });
    e.val["getitem"] = r.output;
    e.at("", "", "tag_space = self.hidden2tag(lstm_out.view(len(sentence), -1))");
    e.viewAs("view_1", "getitem", { L, -1 });
    e.at("hidden2tag", kFnLinear, "tag_space = self.hidden2tag(lstm_out.view(len(sentence), -1))");
    e.linear("linear", "view_1", "p_hidden2tag_weight", "p_hidden2tag_bias");
    e.at("", "function.log_softmax", "tag_scores = F.log_softmax(tag_space, dim=1)");
    e.logSoftmax("log_softmax", "linear", 1);
    e.output("log_softmax");
    return e;
}

/**
 * One decoding step of the GRU decoder of PyTorch's seq2seq tutorial ("Translation with a Sequence to Sequence
 * Network": DecoderRNN.forward_step) for a batch of 2: Embedding(24, 32), ReLU, GRU(32, 32, batch_first=True)
 * from the previous hidden state [1, 2, 32], Linear(32, 24), log_softmax; returns the log-probabilities and the
 * new hidden state.
 */
Export gruDecoderStep()
{
    constexpr std::int64_t V = 24, Hh = 32, Bt = 2;
    Export e("zoo.tutorial.DecoderStep");
    e.module("embedding", "torch.nn.modules.sparse.Embedding");
    e.module("gru", "torch.nn.modules.rnn.GRU");
    e.module("out", kLinear);
    e.param("embedding.weight", { V, Hh }, 1.0, 101);
    e.param("gru.weight_ih_l0", { 3 * Hh, Hh }, bound(Hh), 102);
    e.param("gru.weight_hh_l0", { 3 * Hh, Hh }, bound(Hh), 103);
    e.param("gru.bias_ih_l0", { 3 * Hh }, bound(Hh), 104);
    e.param("gru.bias_hh_l0", { 3 * Hh }, bound(Hh), 105);
    e.param("out.weight", { V, Hh }, bound(Hh), 106);
    e.param("out.bias", { V }, bound(Hh), 107);
    e.input("input", { Bt, 1 }, tokens(Bt, 108, V), kLong);
    e.input("hidden", { 1, Bt, Hh }, values(Bt * Hh, 109, 0.9));

    e.at("embedding", "function.embedding", "output = self.embedding(input)");
    e.embedding("embedding", "p_embedding_weight", "input");
    e.at("", kFnRelu, "output = F.relu(output)");
    e.unary("relu", "relu.default", "embedding", tr::relu);
    e.at("gru", "builtin_function_or_method.gru", "output, hidden = self.gru(output, hidden)");
    // batch_first: the time-first reference runs on the [1, B, H] transpose of [B, 1, H].
    const auto r = tr::gru(tr::transpose(e.val.at("relu"), 0, 1), tr::reshape(e.val.at("hidden"), { Bt, Hh }),
        e.val.at("p_gru_weight_ih_l0"), e.val.at("p_gru_weight_hh_l0"), e.val.at("p_gru_bias_ih_l0"),
        e.val.at("p_gru_bias_hh_l0"));
    e.c.dump.tupleNode("gru", "gru.input",
        argsOf({ { "input", T("relu") }, { "hx", T("hidden") },
            { "params",
                Tensors({ "p_gru_weight_ih_l0", "p_gru_weight_hh_l0", "p_gru_bias_ih_l0", "p_gru_bias_hh_l0" }) },
            { "has_biases", B(true) }, { "num_layers", I(1) }, { "dropout", F(0.0) }, { "train", B(false) },
            { "bidirectional", B(false) }, { "batch_first", B(true) } }),
        { { "getitem", { Bt, 1, Hh } }, { "getitem_1", { 1, Bt, Hh } } });
    e.val["getitem"] = tr::transpose(r.output, 0, 1);
    e.val["getitem_1"] = tr::reshape(r.h, { 1, Bt, Hh });
    e.at("out", kFnLinear, "output = self.out(output)");
    e.linear("linear", "getitem", "p_out_weight", "p_out_bias");
    e.at("", "function.log_softmax", "return F.log_softmax(output, dim=-1), hidden");
    e.logSoftmax("log_softmax", "linear", -1);
    e.output("log_softmax");
    e.output("getitem_1");
    return e;
}

/** DoubleConv of milesial/Pytorch-UNet at `path`: (Conv2d 3x3 no bias, BatchNorm2d, ReLU(inplace=True)) x 2. */
void doubleConvParams(Export& e, const std::string& path, std::int64_t in, std::int64_t out, std::uint32_t seed)
{
    e.module(path, "zoo.unet.DoubleConv");
    e.module(path + ".double_conv", kSequential);
    e.module(path + ".double_conv.0", kConv2d);
    e.module(path + ".double_conv.1", kBatchNorm2d);
    e.module(path + ".double_conv.2", kReLU);
    e.module(path + ".double_conv.3", kConv2d);
    e.module(path + ".double_conv.4", kBatchNorm2d);
    e.module(path + ".double_conv.5", kReLU);
    e.param(path + ".double_conv.0.weight", { out, in, 3, 3 }, bound(in * 9), seed);
    e.batchNormParams(path + ".double_conv.1", out, seed + 1);
    e.param(path + ".double_conv.3.weight", { out, out, 3, 3 }, bound(out * 9), seed + 2);
    e.batchNormParams(path + ".double_conv.4", out, seed + 3);
}

/** Its nodes, numbered from `k` (conv2d_<k>, batch_norm_<k>, relu__<k>...); returns the last. */
std::string doubleConv(Export& e, const std::string& path, const std::string& x, int& k)
{
    auto numbered = [](const std::string& base, int n) { return n == 0 ? base : base + "_" + std::to_string(n); };
    std::string h = x;
    for (const int layer : { 0, 3 }) {
        const std::string p = path + ".double_conv." + std::to_string(layer);
        std::string pp = "p_" + p;
        std::replace(pp.begin(), pp.end(), '.', '_');
        e.at(p, kFnConv2d, "return self.double_conv(x)");
        const std::string conv = e.conv2d(numbered("conv2d", k), h, pp + "_weight", "", { 1, 1 }, { 1, 1 });
        e.at(path + ".double_conv." + std::to_string(layer + 1), kFnBatchNorm, "return self.double_conv(x)");
        const std::string bn =
            e.batchNorm(numbered("batch_norm", k), conv, path + ".double_conv." + std::to_string(layer + 1));
        e.at(path + ".double_conv." + std::to_string(layer + 2), kFnRelu, "return self.double_conv(x)");
        h = e.unary(numbered("relu_", k), "relu_.default", bn, tr::relu);
        ++k;
    }
    return h;
}

/**
 * One level of milesial/Pytorch-UNet (bilinear=False) on [1, 8, 16, 16]: inc = DoubleConv(8, 16), down =
 * Down(16, 32) (MaxPool2d(2), DoubleConv), up = Up(32, 16): ConvTranspose2d(32, 16, 2, stride=2), F.pad to the
 * skip's size (here by 0), torch.cat([skip, up], dim=1), DoubleConv(32, 16).
 */
Export unetLevel()
{
    Export e("zoo.unet.UNetLevel");
    doubleConvParams(e, "inc", 8, 16, 111);
    e.module("down", "zoo.unet.Down");
    e.module("down.maxpool_conv", kSequential);
    e.module("down.maxpool_conv.0", "torch.nn.modules.pooling.MaxPool2d");
    doubleConvParams(e, "down.maxpool_conv.1", 16, 32, 121);
    e.module("up", "zoo.unet.Up");
    e.module("up.up", "torch.nn.modules.conv.ConvTranspose2d");
    e.param("up.up.weight", { 32, 16, 2, 2 }, bound(16 * 4), 131);
    e.param("up.up.bias", { 16 }, bound(16 * 4), 132);
    doubleConvParams(e, "up.conv", 32, 16, 141);
    std::uint32_t seed = 150;
    for (const char* p : { "inc", "down.maxpool_conv.1", "up.conv" }) {
        const std::int64_t ch = std::string(p) == "down.maxpool_conv.1" ? 32 : 16;
        e.batchNormBuffers(std::string(p) + ".double_conv.1", ch, seed++);
        e.batchNormBuffers(std::string(p) + ".double_conv.4", ch, seed++);
    }
    e.input("x", { 1, 8, 16, 16 }, values(8 * 16 * 16, 170, 2.0));

    int k = 0;
    const std::string x1 = doubleConv(e, "inc", "x", k);
    e.at("down.maxpool_conv.0", "builtin_function_or_method.max_pool2d", "return self.maxpool_conv(x)");
    e.maxPool2d("max_pool2d", x1, { 2, 2 });
    const std::string x2 = doubleConv(e, "down.maxpool_conv.1", "max_pool2d", k);
    e.at("up.up", "builtin_function_or_method.conv_transpose2d", "x1 = self.up(x1)");
    e.convTranspose2d("conv_transpose2d", x2, "p_up_up_weight", "p_up_up_bias", { 2, 2 });
    e.at("up", "function.pad", "x1 = F.pad(x1, [diffX // 2, diffX - diffX // 2, diffY // 2, diffY - diffY // 2])");
    e.pad("pad", "conv_transpose2d", { 0, 0, 0, 0 });
    e.at("up", "builtin_function_or_method.cat", "x = torch.cat([x2, x1], dim=1)");
    e.cat("cat", { x1, "pad" }, 1);
    const std::string y = doubleConv(e, "up.conv", "cat", k);
    e.output(y);
    return e;
}

/**
 * The convolutional feature encoder and feature projection of wav2vec 2.0 (transformers' Wav2Vec2FeatureEncoder
 * with feat_extract_norm="group", then Wav2Vec2FeatureProjection) on 2 waveforms of 400 samples, 16 channels:
 * input_values[:, None] (slice + unsqueeze), Conv1d(1, 16, 10, stride 5, no bias) + GroupNorm(16, 16) + GELU,
 * Conv1d(16, 16, 3, stride 2) + GELU twice, Conv1d(16, 16, 2, stride 2) + GELU, transpose(1, 2), LayerNorm(16),
 * Linear(16, 32), dropout; returns the projected features and the normalized ones.
 */
Export wav2vecFeatureExtractor()
{
    constexpr std::int64_t Bt = 2, Len = 400, Ch = 16, Dm = 32;
    Export e("zoo.wav2vec2.FeatureExtractor");
    e.module("feature_extractor", "transformers.models.wav2vec2.modeling_wav2vec2.Wav2Vec2FeatureEncoder");
    e.module("feature_extractor.conv_layers", "torch.nn.modules.container.ModuleList");
    const struct
    {
        std::int64_t kernel, stride;
    } layers[] = { { 10, 5 }, { 3, 2 }, { 3, 2 }, { 2, 2 } };
    for (int l = 0; l < 4; ++l) {
        const std::string p = "feature_extractor.conv_layers." + std::to_string(l);
        e.module(p,
            l == 0 ? "transformers.models.wav2vec2.modeling_wav2vec2.Wav2Vec2GroupNormConvLayer"
                   : "transformers.models.wav2vec2.modeling_wav2vec2.Wav2Vec2NoLayerNormConvLayer");
        e.module(p + ".conv", kConv1d);
        if (l == 0)
            e.module(p + ".layer_norm", "torch.nn.modules.normalization.GroupNorm");
        e.module(p + ".activation", "transformers.activations.GELUActivation");
    }
    e.module("feature_projection", "transformers.models.wav2vec2.modeling_wav2vec2.Wav2Vec2FeatureProjection");
    e.module("feature_projection.layer_norm", kLayerNorm);
    e.module("feature_projection.projection", kLinear);
    e.module("feature_projection.dropout", kDropout);
    for (int l = 0; l < 4; ++l) {
        const std::int64_t in = l == 0 ? 1 : Ch;
        const std::string p = "feature_extractor.conv_layers." + std::to_string(l);
        e.param(p + ".conv.weight", { Ch, in, layers[l].kernel }, bound(in * layers[l].kernel), 181 + l);
        if (l == 0) {
            e.paramValues(
                p + ".layer_norm.weight", { Ch }, map(values(Ch, 186), [](double u) { return 1.0 + 0.2 * u; }));
            e.param(p + ".layer_norm.bias", { Ch }, 0.1, 187);
        }
    }
    e.paramValues(
        "feature_projection.layer_norm.weight", { Ch }, map(values(Ch, 188), [](double u) { return 1.0 + 0.2 * u; }));
    e.param("feature_projection.layer_norm.bias", { Ch }, 0.1, 189);
    e.param("feature_projection.projection.weight", { Dm, Ch }, bound(Ch), 190);
    e.param("feature_projection.projection.bias", { Dm }, bound(Ch), 191);
    e.input("input_values", { Bt, Len }, values(Bt * Len, 192));

    e.at("feature_extractor", "", "hidden_states = input_values[:, None]");
    e.fullSlice("slice_1", "input_values", 0);
    e.unsqueeze("unsqueeze", "slice_1", 1);
    std::string h = "unsqueeze";
    for (int l = 0; l < 4; ++l) {
        const std::string p = "feature_extractor.conv_layers." + std::to_string(l);
        std::string pp = "p_" + p;
        std::replace(pp.begin(), pp.end(), '.', '_');
        const std::string suffix = l == 0 ? "" : "_" + std::to_string(l);
        e.at(p + ".conv", kFnConv1d, "hidden_states = self.conv(hidden_states)");
        h = e.conv1d("conv1d" + suffix, h, pp + "_conv_weight", "", layers[l].stride);
        if (l == 0) {
            e.at(p + ".layer_norm", "function.group_norm", "hidden_states = self.layer_norm(hidden_states)");
            h = e.groupNorm("group_norm", h, Ch, pp + "_layer_norm_weight", pp + "_layer_norm_bias");
        }
        e.at(p + ".activation", kFnGelu, "hidden_states = self.activation(hidden_states)");
        h = e.gelu("gelu" + suffix, h);
    }
    e.at("", "", "extract_features = hidden_states.transpose(1, 2)");
    e.transpose("transpose", h, 1, 2);
    e.at("feature_projection.layer_norm", kFnLayerNorm, "norm_hidden_states = self.layer_norm(hidden_states)");
    e.layerNorm(
        "layer_norm", "transpose", "p_feature_projection_layer_norm_weight", "p_feature_projection_layer_norm_bias");
    e.at("feature_projection.projection", kFnLinear, "hidden_states = self.projection(norm_hidden_states)");
    e.linear("linear", "layer_norm", "p_feature_projection_projection_weight", "p_feature_projection_projection_bias");
    e.at("feature_projection.dropout", kFnDropout, "hidden_states = self.dropout(hidden_states)");
    e.dropout("dropout", "linear", 0.0);
    e.output("dropout");
    e.output("layer_norm");
    return e;
}

/**
 * The convolution module of a Conformer layer (torchaudio.models.conformer._ConvolutionModule(input_dim=16,
 * num_channels=16, depthwise_kernel_size=7), bias=False, BatchNorm1d) on [2, 12, 16]: LayerNorm, transpose(1, 2),
 * pointwise Conv1d(16, 32, 1), GLU(dim=1), depthwise Conv1d(16, 16, 7, padding=3, groups=16), BatchNorm1d, SiLU,
 * pointwise Conv1d(16, 16, 1), dropout, transpose(1, 2).
 */
Export conformerConvolutionModule()
{
    constexpr std::int64_t Bt = 2, Tt = 12, Dm = 16, Ch = 16, K = 7;
    Export e("torchaudio.models.conformer._ConvolutionModule");
    e.module("layer_norm", kLayerNorm);
    e.module("sequential", kSequential);
    e.module("sequential.0", kConv1d);
    e.module("sequential.1", "torch.nn.modules.activation.GLU");
    e.module("sequential.2", kConv1d);
    e.module("sequential.3", "torch.nn.modules.batchnorm.BatchNorm1d");
    e.module("sequential.4", "torch.nn.modules.activation.SiLU");
    e.module("sequential.5", kConv1d);
    e.module("sequential.6", kDropout);
    e.paramValues("layer_norm.weight", { Dm }, map(values(Dm, 201), [](double u) { return 1.0 + 0.2 * u; }));
    e.param("layer_norm.bias", { Dm }, 0.1, 202);
    e.param("sequential.0.weight", { 2 * Ch, Dm, 1 }, bound(Dm), 203);
    e.param("sequential.2.weight", { Ch, 1, K }, bound(K), 204);
    e.batchNormParams("sequential.3", Ch, 205);
    e.param("sequential.5.weight", { Dm, Ch, 1 }, bound(Ch), 206);
    e.batchNormBuffers("sequential.3", Ch, 207);
    e.input("input", { Bt, Tt, Dm }, values(Bt * Tt * Dm, 208, 2.0));

    e.at("layer_norm", kFnLayerNorm, "x = self.layer_norm(input)");
    e.layerNorm("layer_norm", "input", "p_layer_norm_weight", "p_layer_norm_bias");
    e.at("", "", "x = x.transpose(1, 2)");
    e.transpose("transpose", "layer_norm", 1, 2);
    e.at("sequential.0", kFnConv1d, "x = self.sequential(x)");
    e.conv1d("conv1d", "transpose", "p_sequential_0_weight", "");
    e.at("sequential.1", "function.glu", "x = self.sequential(x)");
    e.glu("glu", "conv1d", 1);
    e.at("sequential.2", kFnConv1d, "x = self.sequential(x)");
    e.conv1d("conv1d_1", "glu", "p_sequential_2_weight", "", 1, (K - 1) / 2, 1, Ch);
    e.at("sequential.3", kFnBatchNorm, "x = self.sequential(x)");
    e.batchNorm("batch_norm", "conv1d_1", "sequential.3");
    e.at("sequential.4", "function.silu", "x = self.sequential(x)");
    e.unary("silu", "silu.default", "batch_norm", tr::silu);
    e.at("sequential.5", kFnConv1d, "x = self.sequential(x)");
    e.conv1d("conv1d_2", "silu", "p_sequential_5_weight", "");
    e.at("sequential.6", kFnDropout, "x = self.sequential(x)");
    e.dropout("dropout", "conv1d_2", 0.0);
    e.at("", "", "return x.transpose(1, 2)");
    e.transpose("transpose_1", "dropout", 1, 2);
    e.output("transpose_1");
    return e;
}

} // namespace

namespace {

/**
 * The blocks whose dump is in tests/data/zoo (PTELENS_WRITE_ZOO writes these): tests/runtime/tst_runtime_programs
 * emits every JSON there and runs it on ExecuTorch's runtime and on ptelens' reference interpreter, so a block
 * joins once both run all its kernels.
 */
bool inTestsData(const std::string& block)
{
    static const std::set<std::string> blocks = { "resnet_basic_block", "mobilenetv3_inverted_residual" };
    return blocks.count(block) != 0;
}

/** Whether `ep` has a node with this metadata key. */
bool someNodeHas(const ExportedProgram& ep, const std::string& key)
{
    return std::any_of(
        ep.graph.nodes.begin(), ep.graph.nodes.end(), [&](const Node& n) { return n.metadata.count(key) != 0; });
}

} // namespace

class TestModelZoo : public QObject
{
    Q_OBJECT

    /**
     * Writes `e` as a .pt2 archive (and as tests/data/zoo/<name>.json under PTELENS_WRITE_ZOO), reads it back
     * through readDump, checks what the archive carries, then emits it, runs it twice on ExecuTorch's runtime and
     * compares the outputs with PyTorch's values. An emission refused for one of the ops `waitingFor`
     * ("aten::lstm.input": a decomposition family not merged yet) skips the test with the emitter's message instead of
     * failing it.
     */
    static void verifyBlock(Export& e, const std::string& name, const std::vector<std::string>& waitingFor = {})
    {
        const json doc = e.c.dump.document();
        if (const QString dir = qEnvironmentVariable("PTELENS_WRITE_ZOO"); !dir.isEmpty() && inTestsData(name)) {
            QDir().mkpath(dir);
            QFile f(dir + QLatin1Char('/') + QString::fromStdString(name) + QStringLiteral(".json"));
            QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
            f.write(QByteArray::fromStdString(doc.dump(1) + "\n"));
        }
        QString archives = qEnvironmentVariable("PTELENS_ZOO_ARCHIVES");
        if (archives.isEmpty())
            archives = tempDir();
        QDir().mkpath(archives);
        const std::string path = (archives + QLatin1Char('/')).toStdString() + name + ".pt2";
        QVERIFY_RESULT(writePt2(e.c.dump, path));
        auto set = readDump(path);
        QVERIFY_RESULT(set);
        const DumpSet& dumps = **set;
        QCOMPARE(int(dumps.container), int(DumpSet::Container::Pt2Archive));
        QCOMPARE(dumps.methods.size(), std::size_t(1));
        QCOMPARE(dumps.methods[0].first, std::string("model"));
        const std::shared_ptr<const ExportedProgram> ep = dumps.methods[0].second;
        for (const auto& d : dumps.diagnostics)
            QVERIFY2(d.severity != Severity::Error, d.message.c_str());
        QCOMPARE(ep->verifiers, std::vector<std::string>({ "TRAINING" }));
        QVERIFY2(ep->missingWeights.empty(), ep->missingWeights.empty() ? "" : ep->missingWeights[0].c_str());
        QCOMPARE(ep->weights.size(), e.c.dump.weights().size());
        for (const auto& w : e.c.dump.weights()) {
            const auto it = ep->weights.find(w.fqn);
            QVERIFY2(it != ep->weights.end(), w.fqn.c_str());
            QCOMPARE(it->second.isParameter, w.parameter);
            QCOMPARE(it->second.data.size(), encode(w.data, w.dtype).size());
        }
        QVERIFY(someNodeHas(*ep, "nn_module_stack"));
        QVERIFY(someNodeHas(*ep, "stack_trace"));
        QVERIFY(!ep->moduleCallGraph.empty());
        QVERIFY(ep->moduleCallGraph[0].inSpec.has_value());

        for (const auto& t : e.c.expected) // NaN equals NaN in the comparison: the reference must give numbers
            QVERIFY(std::all_of(t.values.begin(), t.values.end(), [](double v) { return std::isfinite(v); }));

        PTE_REQUIRE_ET_RUNNER();
        e.c.program = [ep]() -> Result<std::shared_ptr<const ExportedProgram>> { return ep; };
        const auto problem = emitAndRunOnRuntime(e.c, "zoo_" + name);
        if (!problem)
            return;
        // An op whose decomposition family has not landed yet: skipped, naming it, until it does.
        for (const auto& op : waitingFor)
            if (problem->find(op + " is neither a core ATen operator") != std::string::npos)
                QSKIP(("waits for the lowering of " + op + ": " + *problem).c_str());
        QFAIL(problem->c_str());
    }

private Q_SLOTS:
    void resnetBasicBlock()
    {
        auto e = ::resnetBasicBlock();
        verifyBlock(e, "resnet_basic_block");
    }
    void mobileNetV3InvertedResidual()
    {
        auto e = ::mobileNetV3InvertedResidual();
        verifyBlock(e, "mobilenetv3_inverted_residual");
    }
    void vitEncoderBlock()
    {
        auto e = ::vitEncoderBlock(false);
        verifyBlock(e, "vit_encoder_block", { "aten::unflatten.int", "aten::scaled_dot_product_attention" });
    }
    void vitEncoderBlockDynamicBatch()
    {
        auto e = ::vitEncoderBlock(true);
        verifyBlock(
            e, "vit_encoder_block_dynamic_batch", { "aten::unflatten.int", "aten::scaled_dot_product_attention" });
    }
    void gpt2BlockWithKvCache()
    {
        auto e = ::gpt2BlockWithKvCache(false);
        verifyBlock(e, "gpt2_block_kv_cache", { "aten::scaled_dot_product_attention" });
    }
    void gpt2BlockDynamicSequence()
    {
        auto e = ::gpt2BlockWithKvCache(true);
        verifyBlock(e, "gpt2_block_kv_cache_dynamic", { "aten::scaled_dot_product_attention" });
    }
    void lstmTagger()
    {
        auto e = ::lstmTagger();
        verifyBlock(e, "lstm_tagger", { "aten::lstm.input" });
    }
    void gruDecoderStep()
    {
        auto e = ::gruDecoderStep();
        verifyBlock(e, "gru_seq2seq_step", { "aten::gru.input" });
    }
    void unetLevel()
    {
        auto e = ::unetLevel();
        verifyBlock(e, "unet_level", { "aten::conv_transpose2d.input", "aten::pad" });
    }
    void wav2vecFeatureExtractor()
    {
        auto e = ::wav2vecFeatureExtractor();
        verifyBlock(e, "wav2vec2_feature_extractor", { "aten::group_norm" });
    }
    void conformerConvolutionModule()
    {
        auto e = ::conformerConvolutionModule();
        verifyBlock(e, "conformer_convolution_module");
    }
};

QTEST_GUILESS_MAIN(TestModelZoo)
#include "tst_model_zoo.moc"
