// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include "emit/decompositions.h"
#include "emit/lowering_p.h"
#include "emit/opbuilder.h"

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

/**
 * @file
 * The decomposition of training-IR composites into the core ATen ops ExecuTorch's portable kernels implement
 * (internal to the lowering): the Decomposer each decomposition works with, and the table of decompositions,
 * assembled from one list per family of operators. docs/lowering.md explains the approach.
 */

namespace pte::emitcore {

class Decomposer;

/** A decomposition: returns false for overloads it leaves alone (the op is then lowered as it is). */
using DecompositionFn = Result<bool> (*)(Decomposer&);

/** One entry of the decomposition table: the aten op (all overloads), its function, and what it becomes, in words
 *  (docs/decompositions.md is generated from these). */
struct DecompositionRule
{
    std::string_view op;
    DecompositionFn fn;
    std::string_view becomes;
};

// The families, one file each (<family>decompositions.cpp); decompositions.cpp assembles the table from them.
std::span<const DecompositionRule> coreRules();
std::span<const DecompositionRule> attentionRules();
std::span<const DecompositionRule> recurrentRules();
std::span<const DecompositionRule> normalizationRules();
std::span<const DecompositionRule> shapeRules();
std::span<const DecompositionRule> activationRules();
std::span<const DecompositionRule> mathRules();
std::span<const DecompositionRule> convolutionRules();
std::span<const DecompositionRule> resamplingRules();
std::span<const DecompositionRule> poolingRules();
std::span<const DecompositionRule> embeddingBagRules();
std::span<const DecompositionRule> backwardRules();

/**
 * One composite node being decomposed. A decomposition binds the node's arguments to the composite's schema
 * (args()), computes its result with the builder `b` (OpBuilder: the core ops, each with the shape and dtype PyTorch
 * derives) and binds the node's outputs to the values it computed (finish()), which checks them against the dump's
 * metadata. The older decompositions are member functions that emit kernels directly; they read `t` (the target),
 * `q` ("aten::<op>"), `n` (the node) and `where`.
 */
class Decomposer
{
public:
    /** aten op name -> its rule. */
    static const std::unordered_map<std::string_view, const DecompositionRule*>& table();

    Decomposer(Lowering& lowering, const TargetName& target, const Node& node);

    OpBuilder b;

    [[nodiscard]] const Node& node() const { return n; }
    [[nodiscard]] const TargetName& target() const { return t; }
    /** The node's arguments bound to the composite's own schema (its target), every default filled in. */
    Result<ArgMap> args();
    /** The node's arguments bound to schema `name`.`overload`, every default filled in. */
    Result<ArgMap> args(const char* name, const char* overload);
    /** A tensor argument's value, -1 when absent or None. */
    static int tensor(const ArgMap& a, std::string_view name);
    /** The values of a tensor-list argument (-1 for a None element). */
    static std::vector<int> tensorList(const ArgMap& a, std::string_view name);
    /** A number argument (int, float or bool), nullopt when absent or None. */
    static std::optional<double> number(const ArgMap& a, std::string_view name);
    static std::int64_t integer(const ArgMap& a, std::string_view name, std::int64_t fallback = 0);
    static bool flag(const ArgMap& a, std::string_view name, bool fallback = false);
    /** An int-list argument's literal values (symbolic elements: nullopt). */
    static std::optional<std::vector<std::int64_t>> intList(const ArgMap& a, std::string_view name);
    /** An int-list argument as sizes, symbolic elements kept. */
    static Dims sizes(const ArgMap& a, std::string_view name);
    static std::optional<std::string> string(const ArgMap& a, std::string_view name);
    /** True when the argument is absent or None. */
    static bool isNone(const ArgMap& a, std::string_view name);
    /** Binds the node's outputs (flattened in order: tensors, then the elements of tensor lists) to `values` and
     *  returns true: a value this decomposition made takes the output's name, and must have the dump's shape; one of
     *  another dtype than the dump's is converted to it. -1 leaves an output unbound. Builder errors come first. */
    Result<bool> finish(const std::vector<int>& values);
    /** Refuses the node: an Unsupported error naming it and `why`. */
    Result<bool> refuse(const std::string& why);
    /** An InvalidInput error naming the node. */
    Result<bool> invalid(const std::string& why);

    Result<bool> convolution();
    Result<bool> batchNorm();
    Result<bool> layerNorm();
    Result<bool> dropout();
    Result<bool> maxPool2dWithIndicesBackward();
    Result<bool> reshape();
    Result<bool> transpose();
    Result<bool> squeeze();
    Result<bool> to();
    Result<bool> cloneOrEmpty();
    Result<bool> sum();
    Result<bool> fill();
    Result<bool> maxPool2d();
    Result<bool> adaptiveAvgPool2d();
    Result<bool> mseLoss();
    Result<bool> activationBackward();
    Result<bool> thresholdBackward();
    Result<bool> logSoftmaxBackwardData();
    Result<bool> silu();
    Result<bool> hardswishOrHardsigmoid();

private:
    Result<const OpSchema*> need(const char* name, const char* ovl)
    {
        const OpSchema* s = m_reg.find(name, ovl);
        if (!s)
            return fail(
                nodeError(n, ErrorCode::Internal, std::string("schema ") + name + " missing from the registry"));
        return s;
    }
    Result<ArgMap> bound(const char* name, const char* ovl)
    {
        PTE_TRY(const OpSchema* s, need(name, ovl));
        PTE_TRY(auto a, m_l.bindArgs(*s, n));
        // torch.export omits arguments left at their default (conv2d(x, w, b) has no stride, padding, dilation
        // or groups): the composite's own defaults apply, since the op it becomes may have none.
        for (const auto& sa : s->args) {
            if (a.count(sa.name) || !sa.defaultValue)
                continue;
            PTE_TRY(auto d, m_l.defaultArg(sa, where));
            a[sa.name] = std::move(d);
        }
        return a;
    }
    static int tensorRef(const ArgMap& a, const char* name)
    {
        const auto it = a.find(name);
        return it == a.end() || it->second.kind != LArg::Kind::Tensor ? -1 : it->second.ref;
    }
    const LValue& val(int ref) const { return m_out.values[std::size_t(ref)]; }
    bool isStatic(int ref) const { return val(ref).dynamism == ShapeDynamism::Static; }
    /** A temporary with the sizes (upper bounds), dim order and dynamism of `like`. */
    int tempLike(int like)
    {
        const int tmp = newTemp(n.name, val(like).dtype, val(like).sizes, val(like).dimOrder);
        m_out.values[std::size_t(tmp)].dynamism = val(like).dynamism;
        return tmp;
    }
    Result<int> viewTo(int src, std::vector<std::int32_t> sizes, int dst = -1)
    {
        if (dst < 0)
            dst = newTemp(n.name, val(src).dtype, sizes);
        PTE_TRY(const OpSchema* vc, need("aten::view_copy", "out"));
        std::vector<std::int64_t> sz(sizes.begin(), sizes.end());
        PTE_CHECK(emitKernel(*vc, { { "self", LArg::tensor(src) }, { "size", LArg::intList(sz) } }, { dst }, n));
        return dst;
    }

    // The Lowering members the decompositions call.
    int newTemp(const std::string& name, ScalarType dtype, std::vector<std::int32_t> sizes,
        std::vector<std::uint8_t> dimOrder = {})
    {
        return m_l.newTemp(name, dtype, std::move(sizes), std::move(dimOrder));
    }
    Result<int> lookup(const std::string& name, const Where& at) const { return m_l.lookup(name, at); }
    void define(const std::string& name, int ref) { m_l.define(name, ref); }
    Result<LArg> convertArg(const Argument& a, const ArgType& type, const Where& at)
    {
        return m_l.convertArg(a, type, at);
    }
    Result<std::vector<int>> nodeOutputs(const Node& node) { return m_l.nodeOutputs(node); }
    Result<void> emitKernel(const OpSchema& schema, ArgMap given, const std::vector<int>& outs, const Node& node,
        const std::string& origin = {})
    {
        return m_l.emitKernel(schema, std::move(given), outs, node, origin);
    }
    Result<LArg> memoryFormatDimOrder(const Node& node, std::size_t rank) const
    {
        return m_l.memoryFormatDimOrder(node, rank);
    }
    Result<void> checkViewSize(const Node& node, int src, int out, const LArg& size)
    {
        return m_l.checkViewSize(node, src, out, size);
    }
    void alias(const Node& node, int ref) { m_l.alias(node, ref); }
    Error nodeError(const Node& node, ErrorCode code, const std::string& what) const
    {
        return m_l.nodeError(node, code, what);
    }
    static Error withPath(const Node& node, Error e) { return Lowering::withPath(node, std::move(e)); }
    void warn(const std::string& msg, const std::string& path = {}, const std::string& node = {})
    {
        m_l.warn(msg, path, node);
    }

    Lowering& m_l;
    int m_firstValue; ///< values from this id on were made by this decomposition
    LoweredMethod& m_out;
    const SchemaRegistry& m_reg;
    const bool& m_recordDebug;
    const TargetName& t;
    const Node& n;
    const std::string q;
    const Where where;
};

} // namespace pte::emitcore
