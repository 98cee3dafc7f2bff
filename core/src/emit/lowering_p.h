// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include "emit/argmap.h"
#include "emit/edgelayout.h"
#include "emit/lowering.h"
#include "emit/nameindex.h"
#include "emit/where.h"

#include <array>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

/**
 * @file
 * The lowering of one method (internal): one class whose members are defined by stage, one file each:
 * lowering.cpp (driver, values, operator calls), argumentbinding.cpp, edgelayout.cpp, symbolicints.cpp,
 * controlflow.cpp, delegates.cpp, decompositions.cpp, placeholders.cpp, outputs.cpp, lifetimes.cpp.
 */

namespace pte::emitcore {

class OpBuilder;

class Lowering
{
public:
    Lowering(const ExportedProgram& ep, const std::string& method, const LoweringOptions& options)
        : m_ep(ep)
        , m_method(method)
        , m_options(options)
        , m_reg(SchemaRegistry::instance())
    { }

    Result<LoweredMethod> run();

private:
    friend class Decomposer; ///< the decompositions (decompositions.cpp) are lowering code
    friend class OpBuilder; ///< emits the kernels of decompositions (opbuilder.cpp)

    // ---- values
    Result<int> newTensor(const std::string& name, const TensorMeta& meta, const Where& where);
    Result<int> newTensorFromName(const std::string& name, const Where& where);
    int newTemp(const std::string& name, ScalarType dtype, std::vector<std::int32_t> sizes,
        std::vector<std::uint8_t> dimOrder = {});
    int newSym(const std::string& name);
    Result<int> lookup(const std::string& name, const Where& where) const;
    /** An output of a decomposed node its decomposition leaves uncomputed (embedding_bag's bag sizes): a later use
     *  is refused naming the node, instead of reading a value nothing wrote. */
    void markUncomputed(const std::string& name, std::string why) { m_uncomputed[name] = std::move(why); }
    const TensorMeta* findMeta(const std::string& name) const;
    void define(const std::string& name, int ref)
    {
        if (m_scopes.size() == 1) {
            if (TopSlot* slot = m_top.find(name)) {
                slot->ref = ref;
                return;
            }
        }
        m_scopes.back()[name] = ref;
    }

    // ---- arguments
    Result<LArg> convertArg(const Argument& a, const ArgType& t, const Where& where);
    Result<LArg> convertUntyped(const Argument& a, const Where& where);
    Result<LArg> defaultArg(const SchemaArg& a, const Where& where);
    Result<LArg> parseDefault(const SchemaArg& a, const Where& where);
    Result<IntElem> intElem(const Argument& a, std::size_t i, const Where& where);
    /** Binds a node's inputs to a schema: every argument, given or default, by name. */
    Result<ArgMap> bindArgs(const OpSchema& schema, const Node& n);
    Result<std::vector<int>> nodeOutputs(const Node& n);

    // ---- instructions
    Result<void> lowerNode(const Node& n);
    /** An operator target resolved to its schemas (cached per target: see resolve()). */
    struct ResolvedTarget
    {
        TargetName t;
        std::string q; ///< "aten::add"
        bool fromParts = false; ///< t came from Node::ns/op/overload rather than parsing the target
        const OpSchema* schema = nullptr; ///< the target's own schema (null: unknown operator)
        bool isView = false; ///< a view op, emitted as its *_copy form
        const OpSchema* viewSchema = nullptr;
    };
    /** The node's operator target, resolved; null when the target is not an operator name. */
    const ResolvedTarget* resolve(const Node& n);
    Result<void> lowerOp(const ResolvedTarget& r, const Node& n);
    Result<void> emitKernel(const OpSchema& schema, ArgMap given, const std::vector<int>& outs, const Node& n,
        const std::string& origin = {});
    /** Gives the out tensors of a kernel call the dim order ExecuTorch derives (LayoutRule) and, for pointwise ops,
     *  the broadcast shape of their inputs, reporting graph values whose dump metadata says otherwise. */
    void deriveLayouts(const LInstr& in, const Node& n);
    void info(const Node& n, const std::string& msg);
    /** The dim_order argument ExecuTorch's MemoryFormatOpsPass makes of the node's memory_format (torch serde codes):
     *  absent or contiguous_format -> contiguous, channels_last(_3d) -> [0, 2, 3, (4,) 1], preserve_format -> None. */
    Result<LArg> memoryFormatDimOrder(const Node& n, std::size_t rank) const;
    /** A view's size must keep the input's number of elements (torch refuses the view otherwise, and the runtime's
     *  view_copy then cannot size its output): checked exactly for static shapes, at the upper bounds otherwise. */
    Result<void> checkViewSize(const Node& n, int src, int out, const LArg& size);
    Result<void> emitFunctionalAsIs(const OpSchema& schema, const Node& n);
    Result<void> emitUnknown(const TargetName& t, const Node& n);
    Result<void> lowerSymOp(const Node& n);
    Result<void> lowerDelegate(const Node& n);
    Result<void> lowerCond(const Node& n);
    Result<void> lowerMap(const Node& n);
    Result<void> lowerScan(const Node& n);
    Result<void> lowerWithEffects(const Node& n);
    void closeLoop(const Node& n, int iter, int count, int loop);
    Result<void> lowerMemoryView(const Node& n);
    /**
     * Inlines a control-flow sub-graph: its placeholders bound to `operands`, its nodes lowered with debug
     * recording off. With `bindings`, each output differing from its binding is moved into it (MoveCall).
     * @returns the values of the sub-graph's outputs
     */
    Result<std::vector<int>> lowerSubgraph(
        const Graph& g, const std::vector<int>& operands, const std::vector<int>* bindings, const Where& where);
    /** The tensor values named by a tensor-list argument of a control-flow node. */
    Result<std::vector<int>> tensorRefs(const Node& n, const Argument& a);
    /** A control-flow scalar, not bound to any graph name (see LValue::symCounter). */
    int newCounter(const std::string& name, bool isBool = false);
    /** A new tensor value for a sub-graph placeholder that has no parent value (map/scan slices). */
    Result<int> newPlaceholderTensor(const Graph& g, std::size_t input, const Node& n);
    /** An argument referring to an existing value (Tensor or symbolic). */
    LArg ref(int r) const
    {
        LArg a;
        a.kind = m_out.values[std::size_t(r)].isSym ? LArg::Kind::ValueRef : LArg::Kind::Tensor;
        a.ref = r;
        return a;
    }
    /** A kernel call the emitter synthesises (control-flow plumbing): no debug handle, arguments as given. */
    void pushSynthetic(const Node& n, const char* op, const char* overload, std::vector<LArg> args);
    Result<bool> decompose(const TargetName& t, const Node& n);
    /** Whether the decomposition table has aten op `op`. */
    static bool decomposes(std::string_view op);

    // ---- in-place ops (functionalization.cpp)
    /** Records which names are views of which (view ops), where each name is last used, and which placeholders
     *  in-place ops update (through views or not). */
    void scanMutations();
    /** An aten in-place op (relu_, add_, index_put_...) whose functional form the lowering knows. */
    bool isInPlace(const TargetName& t) const;
    Result<void> lowerInPlace(const TargetName& t, const Node& n);
    /** `name` now holds `value`: so do the bases it is a view of (scattered back), and stale views are made again. */
    Result<void> assignMutated(const std::string& name, int value, const Node& at);
    Result<int> scatterIntoBase(OpBuilder& b, int base, int src, const Node& view, std::size_t index);
    Result<void> writeBackInPlaceMutations();
    /** An aten kernel the runtime has no kernel for is refused (to_edge's verifier refuses what is not core ATen,
     *  and ExecuTorch's runtime would refuse the program with OperatorMissing). */
    Result<void> checkKernel(const std::string& key, const Node& n);

    void alias(const Node& n, int ref);
    const OpSchema* schema(const char* qualified, const char* overload) const
    {
        return m_reg.find(qualified, overload);
    }
    Result<void> placeholders();
    Result<void> writeBacksAndOutputs();
    /// One warning naming the mutable buffers planned without their initial state (count, first few, the option).
    void warnPlannedWithoutState(const std::vector<std::string>& fqns, const std::string& firstNode);
    void computeLifetimes();
    Error nodeError(const Node& n, ErrorCode code, const std::string& what) const
    {
        Error e = makeError(code, "method '" + m_method + "': " + this->where(n) + ": " + what, {}, n.jsonPath);
        e.location.method = m_method;
        e.location.node = n.name;
        return e;
    }
    /** Where messages about `n` point: the node is described only when a message is built. */
    static Where where(const Node& n) { return Where(n); }
    static Error withPath(const Node& n, Error e)
    {
        if (e.fieldPath.empty())
            e.fieldPath = n.jsonPath;
        if (e.location.node.empty())
            e.location.node = n.name;
        return e;
    }
    std::size_t m_layoutNotes = 0; ///< info diagnostics about re-derived dim orders so far
    struct OutputRule
    {
        LayoutRule layout;
        bool pointwise;
        DtypeRule dtype;
        std::array<int, 2> operands; ///< argument indices of self and other (-1: none), for the dtype
    };
    std::unordered_map<const OpSchema*, OutputRule> m_outputRules; ///< by schema
    /** A warning about the method, or about `node` (a graph node, or the placeholder of an input). */
    void warn(const std::string& msg, const std::string& path = {}, const std::string& node = {})
    {
        Diagnostic d;
        d.severity = Severity::Warning;
        d.code = ErrorCode::Unsupported;
        d.message = "method '" + m_method + "': " + msg;
        d.fieldPath = path;
        d.file = m_ep.source;
        d.location.method = m_method;
        d.location.node = node;
        m_out.warnings.push_back(std::move(d));
    }

    const ExportedProgram& m_ep;
    std::string m_method;
    LoweringOptions m_options;
    const SchemaRegistry& m_reg;
    LoweredMethod m_out;
    std::vector<std::unordered_map<std::string, int>> m_scopes;
    std::vector<const Graph*> m_graphs;
    int m_labels = 0;
    int m_temps = 0;
    bool m_recordDebug = true;
    std::set<std::string> m_trainable; ///< parameter FQNs with gradients (joint graphs)
    /** Every top-level tensor name: one lookup finds a tensor's metadata and, later, its value (a std::map, then
     *  node-based hash maps, were the hot spots of big graphs). Names that are not tensors (symbols, sub-graph
     *  names) live in m_scopes. */
    NameIndex m_top;
    std::unordered_map<const SchemaArg*, LArg> m_defaults; ///< defaultArg() results (schemas are static)
    std::unordered_map<std::string_view, ResolvedTarget> m_resolved; ///< by Node::target (nodes outlive this)
    struct ViewStep
    {
        const Node* node; ///< the view op that made the name
        std::size_t index; ///< which of its outputs (split, unbind, chunk)
    };
    std::unordered_map<std::string, ViewStep> m_viewOf; ///< top-level names made by view ops
    std::unordered_map<std::string, std::size_t> m_lastUse; ///< top-level name -> index of the last node using it
    std::unordered_map<std::string, std::string> m_uncomputed; ///< markUncomputed: name -> which output of which node
    std::set<std::string> m_inPlaceRoots; ///< placeholders (or other tensors) in-place ops update
    std::unordered_map<std::string, int> m_placeholderRef; ///< placeholder name -> its value (its own storage)
    std::size_t m_nodeIndex = 0; ///< the top-level node being lowered
    std::unordered_map<std::string, bool> m_kernelChecked; ///< checkKernel results by kernel key
    /** Upper bounds of the symbolic sizes decompositions create (OpBuilder), by value id. */
    std::unordered_map<int, std::int64_t> m_symBounds;
    /** aten::sym_size.int results already emitted, by (value id, dimension). */
    std::map<std::pair<int, int>, int> m_symSizes;
};

} // namespace pte::emitcore
