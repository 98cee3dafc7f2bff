// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include "emit/opschema.h"
#include "pte/boxed.h"
#include "pte/diagnostic.h"
#include "pte/graph.h"
#include "pte/program.h"

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

/**
 * @file
 * The lowering ExecuTorch runs before emission (to_edge + to_executorch), as one step from a graph dump to
 * an execution-dialect instruction list: decompositions of training-IR composites, views to *_copy ops,
 * functional -> out variants with allocated outputs, write-back of mutated buffers, control flow as jumps,
 * delegate calls, and tensor specs with lifetimes for the memory planner.
 */

namespace pte::emitcore {

/** A graph value after lowering: a tensor (with its spec) or a symbolic scalar. */
struct LValue
{
    enum class Storage : std::uint8_t
    {
        Planned, ///< memory-planned (activations, user inputs, outputs, mutable buffers)
        Constant, ///< bytes in the constant buffer
        Unplanned, ///< no storage (placeholder for a None tensor argument)
    };
    bool isSym = false; ///< symbolic scalar (Int EValue produced by a sym op)
    bool symIsNull = false; ///< a SymInt user input: emitted as Null like ExecuTorch
    /** A control-flow scalar (map/scan counter, trip count, loop-exit flag): emitted as Int(0) (or Bool(False)
     * with symBool) where first referenced; kernels overwrite it at run time. */
    bool symCounter = false;
    bool symBool = false;
    std::string name;
    // Tensor spec
    ScalarType dtype = ScalarType::Float;
    std::vector<std::int32_t> sizes; ///< upper bounds for dynamic dims
    std::vector<std::uint8_t> dimOrder;
    ShapeDynamism dynamism = ShapeDynamism::Static;
    /** Bit d: dimension d is dynamic (a symbol of the dump or derived from one); `sizes` holds its upper bound. */
    std::uint32_t dynamicDims = 0;
    bool requiresGrad = false;
    Storage storage = Storage::Planned;
    Bytes data; ///< Constant bytes, or the initial state of an initialised planned tensor
    bool initialised = false; ///< planned with initial state (trainable parameters)
    bool mutableBuffer = false; ///< lives across executions: planned for the whole method
    /** Created from the dump's metadata for a graph value (not a temporary of a decomposition): a dim order
     *  derived differently from the dump's is reported. */
    bool fromDump = false;
    /** memory.view result: shares the storage of value `aliasOf` (its planned offset or constant bytes); the
     * base's lifetime is extended over the view's uses and the view itself is not planned. -1 = own storage. */
    int aliasOf = -1;
    std::optional<std::string> fqn;
    // Lifetime (instruction ids; -1 = not referenced) and plan
    std::int64_t first = -1;
    std::int64_t last = -1;
    std::uint64_t offset = 0;
    bool planned = false;

    [[nodiscard]] std::uint64_t nbytes() const noexcept;
};

struct IntElem
{
    std::int64_t literal = 0;
    int ref = -1; ///< LValue id of a symbolic element; -1 = literal
};

/** An instruction argument before emission. */
struct LArg
{
    enum class Kind : std::uint8_t
    {
        Null,
        Tensor, ///< ref
        TensorList, ///< refs
        OptionalTensorList, ///< refs (-1 = None)
        Int,
        Double,
        Bool,
        String,
        IntList, ///< ints (boxed into Int values)
        DoubleList,
        BoolList,
        ValueRef, ///< an existing symbolic value (ref)
        PlaceholderTensor, ///< None for a non-optional Tensor: a fresh BYTE [0] tensor
        SymResult, ///< return slot of a sym op: a fresh Int(0) that becomes LValue ref
    };
    Kind kind = Kind::Null;
    int ref = -1;
    std::int64_t i = 0;
    double d = 0;
    bool b = false;
    std::vector<int> refs;
    std::vector<IntElem> ints;
    /** The payload of String, DoubleList and BoolList arguments: rare, and as large as the rest together, so on
     *  the heap (an argument is moved several times on its way into an instruction). */
    struct Rare
    {
        std::string s;
        std::vector<double> ds;
        std::vector<bool> bs;
    };
    Boxed<Rare> rare;

    static LArg tensor(int r)
    {
        LArg a;
        a.kind = Kind::Tensor;
        a.ref = r;
        return a;
    }
    static LArg integer(std::int64_t v)
    {
        LArg a;
        a.kind = Kind::Int;
        a.i = v;
        return a;
    }
    static LArg boolean(bool v)
    {
        LArg a;
        a.kind = Kind::Bool;
        a.b = v;
        return a;
    }
    static LArg intList(const std::vector<std::int64_t>& v)
    {
        LArg a;
        a.kind = Kind::IntList;
        for (const auto x : v)
            a.ints.push_back({ x, -1 });
        return a;
    }
};

struct LInstr
{
    enum class Kind : std::uint8_t
    {
        Kernel,
        Delegate,
        JumpFalse,
        Move,
        Alloc, ///< pseudo: creates values (memory.alloc, control-flow binding outputs)
        Label, ///< pseudo: a jump target
        CondFalse, ///< pseudo: emits the Bool(False) of the preceding unconditional jump (after the false branch)
    };
    Kind kind = Kind::Kernel;
    // Kernel
    /** The operator's schema; null for an operator the registry does not know (then `name`). */
    const OpSchema* schema = nullptr;
    struct OperatorName
    {
        std::string name; ///< "aten::add"
        std::string overload; ///< "out" ("" for default)
    };
    Boxed<OperatorName> name; ///< when schema is null (unknown and synthesised operators)
    std::vector<int> allocs; ///< out tensors created right before the arguments (memory.alloc)
    std::vector<LArg> args;
    enum class Ret : std::uint8_t
    {
        OutArgs, ///< the out arguments again (one id, or a TensorList of several)
        Slots, ///< retSlots
    };
    Ret ret = Ret::Slots;
    std::vector<std::size_t> outArgIndices; ///< for Ret::OutArgs
    std::vector<LArg> retSlots;
    // Delegate
    std::shared_ptr<const LoweredModule> lowered;
    std::vector<int> delegateOuts;
    // JumpFalse
    Boxed<LArg> cond; ///< absent when unconditional
    int label = -1; ///< target label (JumpFalse) or this label (Label)
    bool unconditional = false; ///< condition is a Bool(False) emitted at the matching CondFalse
    // Move
    int moveFrom = -1;
    int moveTo = -1;
    // Provenance
    const Node* node = nullptr;
    /** The node's first debug handle, read while lowering, when the node is in cache (kernel calls);
     *  debugHandleRead false: not read, the emitter reads the node. */
    std::optional<std::int64_t> debugHandle;
    bool debugHandleRead = false;
    std::string origin; ///< node name (or output name for write-backs)
    bool recordDebug = true; ///< false inside control-flow sub-graphs (ExecuTorch drops those maps)
};

/** A placeholder of the method, in graph order. */
struct LPlaceholder
{
    enum class Kind : std::uint8_t
    {
        Value, ///< ref
        Literal, ///< a constant user input
    };
    Kind kind = Kind::Value;
    int ref = -1;
    LArg literal;
    bool userInput = false;
};

struct LoweredMethod
{
    std::vector<LValue> values;
    std::vector<LPlaceholder> placeholders;
    std::vector<LArg> outputs;
    std::vector<LInstr> instrs;
    std::vector<std::pair<std::string, std::string>> dropped;
    Diagnostics warnings;
    std::optional<ContainerMetadata> containerMeta;
    // Training metadata (joint graphs)
    bool joint = false;
    std::int64_t gradientsIndex = -1;
    std::int64_t parametersIndex = -1;
    std::vector<std::string> gradientFqns;
    std::int64_t instructionCount = 0;
    /// Nodes the lowering made (the operator call inside a with_effects): LInstr::node may point into them.
    std::vector<std::shared_ptr<const Node>> madeNodes;
};

struct LoweringOptions
{
    bool zeroFillMissingWeights = false;
    bool initialiseMutableBuffers = false;
    const std::atomic<bool>* cancel = nullptr;
};

/** Lowers one exported program (one method). Errors name the node and its target. */
[[nodiscard]] Result<LoweredMethod> lowerMethod(
    const ExportedProgram& ep, const std::string& methodName, const LoweringOptions& options);

/** Upper bound of a symbolic size from range_constraints (plain symbols and simple +,-,* expressions). */
[[nodiscard]] std::optional<std::int64_t> symUpperBound(
    const SymInt& s, const std::map<std::string, RangeConstraint>& ranges);

/** ExecuTorch's dim order from strides: dims by stride descending, ties in order. */
[[nodiscard]] std::vector<std::uint8_t> dimOrderFromStrides(const std::vector<std::int64_t>& strides);

/** The *_copy operator the edge dialect makes of a view op ("aten::permute" -> {"aten::permute_copy", ""}, with
 *  the overload), or nullopt when `qualifiedName` is no view op. */
[[nodiscard]] std::optional<std::pair<std::string, std::string>> viewCopyOf(std::string_view qualifiedName);

/** "torch.ops.aten.add.Tensor" / "executorch.exir.dialects.edge.ops.aten.add.Tensor" -> {"aten", "add", "Tensor"}. */
struct TargetName
{
    std::string ns;
    std::string op;
    std::string overload;
};
[[nodiscard]] std::optional<TargetName> parseTarget(const std::string& target);

} // namespace pte::emitcore
