// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include "pte/bytes.h"
#include "pte/diagnostic.h"
#include "pte/program.h"

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

/**
 * @file
 * The graph-dump model: torch.export's serialized ExportedProgram (all schema generations and
 * ExecuTorch's serde fork), normalized. Readers (dumpreader.h) fill it; the emitter, the CLI `graph`
 * command and the GUI read it. Immutable once loaded; shared as std::shared_ptr<const ...>.
 * Weights are Bytes views into the memory-mapped archive.
 */

namespace pte {

struct Graph;

/** A symbolic or concrete integer (SymInt/SymBool/SymFloat payloads, TensorMeta sizes and strides). */
struct SymInt
{
    std::optional<std::int64_t> value; ///< set for {"as_int": n}
    std::string expr; ///< set for {"as_expr"/"as_name": ...}: the expression or symbol text
    std::optional<std::int64_t> hint; ///< hint of a symbolic expression, when given
    [[nodiscard]] bool isConcrete() const noexcept { return value.has_value(); }
};

/** A tensor value's metadata (serde TensorMeta, Graph::tensorValues): dtype, sizes and strides, device and layout. */
struct TensorMeta
{
    ScalarType dtype = ScalarType::Float; ///< converted to ExecuTorch numbering
    std::int32_t rawDtype = 0; ///< the code as written in the dump
    std::vector<SymInt> sizes;
    std::vector<SymInt> strides;
    SymInt storageOffset;
    bool requiresGrad = false;
    std::string deviceType = "cpu";
    std::optional<std::int64_t> deviceIndex;
    std::int32_t layout = 7; ///< torch serde Layout; 7 = strided
};

/** Which alternative of the serde Argument union (and a few of its relatives) an Argument holds. */
enum class ArgKind : std::uint8_t
{
    None,
    Tensor,
    Tensors,
    Int,
    Ints,
    Float,
    Floats,
    String,
    Strings,
    Bool,
    Bools,
    SymInt,
    SymInts,
    SymBool,
    SymBools,
    SymFloat,
    SymFloats,
    ScalarType,
    MemoryFormat,
    Layout,
    Device,
    OptionalTensor,
    OptionalTensors,
    Graph,
    CustomObj,
    Operator,
    Complex,
    IntLists,
    FloatLists,
    NestedTensors,
    StringToArgument,
};
/** The serde key ("as_tensor", "as_ints", ...). */
[[nodiscard]] const char* argKindName(ArgKind k) noexcept;

/**
 * One argument value. Which members are used depends on `kind`:
 * - Tensor/Tensors/OptionalTensor(s)/NestedTensors(flattened): `names` (empty string = None)
 * - Int/Ints/ScalarType/MemoryFormat/Layout: `ints` (ScalarType holds the raw serde code; see `scalarType`)
 * - SymInt(s)/SymBool(s)/SymFloat(s): `syms` (concrete value or symbol name)
 * - Float(s)/Complex (real, imag): `floats`; Bool(s): `bools`; String(s)/Operator: `strings`
 * - Device: `strings[0]` type, `ints` index (empty when none)
 * - Graph: `strings[0]` submodule name, `graph`
 * - CustomObj: `names[0]` value name, `strings[0]` class fqn
 * - IntLists/FloatLists: `ints`/`floats` flattened with `listSizes`
 * - StringToArgument: `strings` keys, `children` values
 */
struct Argument
{
    ArgKind kind = ArgKind::None;
    std::vector<std::string> names;
    std::vector<std::int64_t> ints;
    std::vector<double> floats;
    std::vector<bool> bools;
    std::vector<std::string> strings;
    std::vector<SymInt> syms;
    std::vector<std::int64_t> listSizes;
    std::vector<Argument> children;
    std::shared_ptr<const Graph> graph;
    std::optional<ScalarType> scalarType; ///< for ArgKind::ScalarType, converted to ExecuTorch numbering

    /** A single-tensor argument naming the graph value `name`. */
    [[nodiscard]] static Argument tensor(std::string name);
};

/**
 * One input of a node (serde NamedArgument): the schema argument name, the value, and whether it was passed
 * positionally or by keyword.
 */
struct NamedArgument
{
    std::string name; ///< schema argument name; empty for positional higher-order-op arguments
    Argument arg;
    std::int32_t kind = 0; ///< 1 positional, 2 keyword, 0 unknown/absent
};

/** How a node's target string was classified. */
enum class TargetKind : std::uint8_t
{
    OpOverload, ///< torch.ops.<ns>.<op>.<overload>, or an edge/backend-dialect op
    HigherOrder, ///< torch.ops.higher_order.<name> (cond, map_impl, while_loop, executorch_call_delegate, ...)
    SymOp, ///< _operator.add, math.trunc, torch.sym_max, ...
    MemoryAlloc, ///< memory.alloc (ExecuTorch)
    MemoryView, ///< executorch.exir.memory.view
    Other,
};

/**
 * One node of a graph (serde Node): its target, classified, its named inputs, its outputs and its string metadata.
 * Output names are the graph values the node defines.
 */
struct Node
{
    std::string name; ///< Node.name when written, else the first output's name
    std::string target; ///< as written
    TargetKind targetKind = TargetKind::Other;
    std::string ns; ///< "aten", "quantized_decomposed", "higher_order", ... (OpOverload/HigherOrder)
    std::string op; ///< "add"
    std::string overload; ///< "Tensor", "default"
    std::vector<NamedArgument> inputs;
    std::vector<Argument> outputs;
    std::map<std::string, std::string> metadata; ///< stack_trace, nn_module_stack, debug_handle, ...
    std::optional<bool> isHopSingleTensorReturn;
    std::vector<std::int64_t> debugHandles; ///< parsed metadata["debug_handle"] (one, or several for delegates)
    std::string jsonPath; ///< e.g. "graph_module.graph.nodes[3]" for error messages

    /** Sets `target` as written and classifies it: targetKind, and ns/op/overload for operator and higher-order
     *  targets ("torch.ops.aten.add.Tensor" -> aten, add, Tensor; edge and backend dialects alike). */
    void setTarget(std::string target);
    /** "aten::add.Tensor" for OpOverload targets; the raw target otherwise. */
    [[nodiscard]] std::string qualifiedOp() const;
    [[nodiscard]] const NamedArgument* input(std::string_view argName) const noexcept;
};

/** A custom (script) object value of a graph (Graph::customObjValues): its name and class. */
struct CustomObjValue
{
    std::string name;
    std::string classFqn;
};

/**
 * A serde Graph: its inputs, outputs and nodes in order, and the metadata of each named value (tensors, symbolic ints,
 * bools and floats, custom objects), keyed by value name.
 */
struct Graph
{
    std::vector<Argument> inputs;
    std::vector<Argument> outputs;
    std::vector<Node> nodes;
    std::map<std::string, TensorMeta> tensorValues;
    std::map<std::string, SymInt> symIntValues;
    std::map<std::string, SymInt> symBoolValues; ///< value 0/1 or expr
    std::map<std::string, SymInt> symFloatValues;
    std::map<std::string, CustomObjValue> customObjValues;
    bool isSingleTensorReturn = false;
};

/**
 * What a graph input is (the member of the serde InputSpec union): a user input or a lifted parameter, buffer,
 * constant, custom object or effect token.
 */
enum class InputKind : std::uint8_t
{
    UserInput,
    Parameter,
    Buffer,
    TensorConstant,
    CustomObj,
    Token,
    ConstantInput
};
/**
 * What a graph output is (the member of the serde OutputSpec union): a user output, or a mutation, gradient, loss or
 * effect token.
 */
enum class OutputKind : std::uint8_t
{
    UserOutput,
    LossOutput,
    BufferMutation,
    GradientToParameter,
    GradientToUserInput,
    UserInputMutation,
    Token,
    ParameterMutation,
};
[[nodiscard]] const char* inputKindName(InputKind k) noexcept; ///< serde key: "user_input", "parameter", ...
[[nodiscard]] const char* outputKindName(OutputKind k) noexcept; ///< serde key: "user_output", "buffer_mutation", ...

/** One entry of the graph signature's input_specs: what a graph input is and which state it binds. */
struct InputSpec
{
    InputKind kind = InputKind::UserInput;
    Argument arg; ///< the placeholder (tensor name for lifted inputs; any Argument for user inputs)
    std::string target; ///< parameter_name / buffer_name / tensor_constant_name / custom_obj_name / constant name
    std::optional<bool> persistent; ///< buffers; absent in torch 2.2 files
    Argument constantValue; ///< ConstantInput only
};

/** One entry of the graph signature's output_specs: what a graph output is and which state it updates. */
struct OutputSpec
{
    OutputKind kind = OutputKind::UserOutput;
    Argument arg;
    std::string target; ///< buffer_name / parameter_name / user_input_name
};

/** The graph signature: what each graph input and output is (user value, parameter, buffer, mutation, ...). */
struct GraphSignature
{
    std::vector<InputSpec> inputSpecs;
    std::vector<OutputSpec> outputSpecs;
};

/**
 * One entry of module_call_graph: a module's fully qualified name ("" for the top level) with its pytree specs and
 * argument names. The top level's specs become ExecutionPlan.container_meta_type.
 */
struct ModuleCallEntry
{
    std::string fqn;
    std::optional<std::string> inSpec; ///< pytree TreeSpec JSON
    std::optional<std::string> outSpec;
    std::vector<std::string> forwardArgNames;
};

/** A symbol's value range (range_constraints, by symbol name); the emitter plans dynamic tensors at its maximum. */
struct RangeConstraint
{
    std::optional<std::int64_t> minVal; ///< nullopt = unbounded
    std::optional<std::int64_t> maxVal;
};

/** A weight, buffer or tensor constant: metadata plus a view of its bytes (starting at the storage offset). */
struct WeightTensor
{
    TensorMeta meta;
    Bytes data; ///< the whole storage from storage_offset on; may be longer than the tensor
    std::string source; ///< "archive.pt2:data/weights/weight_0" for messages
    bool isParameter = false;
    /**
     * Metadata only: the dump pickled a FakeTensor (`_reconstruct_fake_tensor`), so there are no bytes.
     * `data` is empty and `source` ends with "(fake tensor: no data)"; the reader adds a warning naming the FQN.
     */
    bool fake = false;
};

/**
 * The elements of a tensor in logical (row-major) order, following its sizes, strides and dtype, as doubles.
 * nullopt when the tensor has more than `maxElements` elements, symbolic sizes or strides, too few bytes
 * (fake tensors), or a dtype without a plain numeric reading (complex, quantized, float8, bit types).
 */
[[nodiscard]] std::optional<std::vector<double>> tensorElements(const WeightTensor& t, std::size_t maxElements);

/** A node's first debug handle: Node::debugHandles, else its "debug_handle" metadata; nullopt when it has none. */
[[nodiscard]] std::optional<std::int64_t> firstDebugHandle(const Node& n);

/**
 * tensorElements() of raw tensor data: `strides` empty for a contiguous tensor. Unsupported, with a message naming
 * `what`, where tensorElements() gives nullopt.
 */
[[nodiscard]] Result<std::vector<double>> tensorValues(ScalarType dtype, const std::vector<std::int64_t>& sizes,
    const std::vector<std::int64_t>& strides, Bytes data, std::size_t maxElements, const std::string& what);

/** One leaf of a program's flattened sample inputs `(args, kwargs)`. */
struct SampleInput
{
    /** What the leaf is, and so which member holds its value. */
    enum class Kind : std::uint8_t
    {
        Tensor, ///< `tensor` (bytes are a view into the mapped archive; empty for a fake tensor)
        None,
        Bool, ///< `boolValue`
        Int, ///< `intValue`
        Float, ///< `floatValue`
        String, ///< `text`
        Unsupported, ///< a value the reader does not interpret; `text` says what it is (a warning is reported)
    };
    std::string path; ///< "args[0]", "args[1][2]", "kwargs['mask']"
    Kind kind = Kind::None;
    WeightTensor tensor;
    bool boolValue = false;
    std::int64_t intValue = 0;
    double floatValue = 0;
    std::string text;
};

/** The example inputs torch.export kept with the program (a torch.save of `(args_tuple, kwargs_dict)`). */
struct SampleInputs
{
    std::string source; ///< "file.pt2:linear_3/data/sample_inputs/model.pt"
    std::vector<SampleInput> leaves; ///< depth-first, args before kwargs
};

struct LoweredModule;

/** One exported program (becomes one method when emitted). */
struct ExportedProgram
{
    Graph graph;
    GraphSignature signature;
    std::vector<ModuleCallEntry> moduleCallGraph;
    std::map<std::string, std::string> graphModuleMetadata;
    std::map<std::string, std::int64_t> opsetVersion;
    std::map<std::string, RangeConstraint> rangeConstraints;
    std::int32_t schemaMajor = 0;
    std::int32_t schemaMinor = 0;
    std::vector<std::string> verifiers; ///< "ATEN", "TRAINING", "EDGE"; from `dialect` in older files
    std::string torchVersion;
    bool executorchSerde = false; ///< written by ExecuTorch's serde fork (edge dialect)
    /** Weights by FQN (parameters, buffers, tensor constants). Missing FQNs are listed in `missingWeights`. */
    std::map<std::string, WeightTensor> weights;
    std::vector<std::string> missingWeights;
    /** Lowered delegate modules by the name used in executorch_call_delegate's first argument. */
    std::map<std::string, std::shared_ptr<const LoweredModule>> loweredModules;
    std::string source; ///< "file.pt2:models/model.json"
    /** The dump's sample/example inputs; nullopt when it has none (no entry, or a 0-byte entry). */
    std::optional<SampleInputs> sampleInputs;
    /** Non-fatal findings while decoding (unknown schema minor, ...); readDump also copies them into the DumpSet. */
    Diagnostics diagnostics;
};

/**
 * A lowered backend module (the target of executorch_call_delegate): backend id, processed payload and compile specs,
 * plus, when the dump has them, the original subgraph, named data and debug-identifier map. The emitter makes a
 * BackendDelegate of it.
 */
struct LoweredModule
{
    std::string name;
    std::string backendId;
    Bytes processedBytes;
    std::vector<CompileSpec> compileSpecs;
    std::shared_ptr<const ExportedProgram> originalModule; ///< the delegated subgraph before lowering, when present
    std::map<std::string, Bytes> namedData; ///< named_data_store.pte_data: key -> bytes (stored in the .pte)
    /** One DataEntry of named_data_store (pte_data or external_data). */
    struct NamedDataEntry
    {
        Bytes data; ///< a view of the decoded buffer (entries naming the same buffer share it)
        std::int64_t bufferIndex = 0;
        std::uint32_t alignment = 0; ///< 0 when the dump does not give one
    };
    /** named_data_store.pte_data with alignments (same keys and bytes as `namedData`). */
    std::map<std::string, NamedDataEntry> pteDataEntries;
    /** named_data_store.external_data: file name (a .ptd) -> key -> entry. */
    std::map<std::string, std::map<std::string, NamedDataEntry>> externalData;
    /** The backend's debug-identifier map when the dump carries one: identifier -> debug handles. */
    std::optional<std::map<std::string, std::vector<std::int64_t>>> delegateDebugIdentifierMap;
};

/** ETRecord debug maps, keyed by method name then instruction id. */
struct DelegateMapEntry
{
    std::string name; ///< backend id
    std::map<std::string, std::vector<std::int64_t>> delegateMap; ///< delegate debug identifier -> debug handles
};
/**
 * The three maps of an ETRecord (debug_handle_map, delegate_map, instruction_id_to_num_outs_map), keyed by method name
 * then instruction id (docs/dump-formats.md, ETRecord).
 */
struct EtRecordMaps
{
    std::map<std::string, std::map<std::int64_t, std::vector<std::int64_t>>> debugHandleMap;
    std::map<std::string, std::map<std::int64_t, DelegateMapEntry>> delegateMap;
    std::map<std::string, std::map<std::int64_t, std::int64_t>> instructionIdToNumOutsMap;
};

/** What a dump file held: one or more programs (methods) plus, for ETRecords, the maps. */
struct DumpSet
{
    /** The kind of file the dump was read from (docs/dump-formats.md). */
    enum class Container : std::uint8_t
    {
        Pt2Archive,
        LegacyZip,
        BareJson,
        EtRecord
    };
    Container container = Container::BareJson;
    std::string path;
    /** Programs in file order; names are method names ("forward", "model", ...). */
    std::vector<std::pair<std::string, std::shared_ptr<const ExportedProgram>>> methods;
    /** ETRecord only: the other recorded programs ("exported_program", "aten_dialect_output/forward"). */
    std::vector<std::pair<std::string, std::shared_ptr<const ExportedProgram>>> otherPrograms;
    std::optional<EtRecordMaps> etrecordMaps;
    Diagnostics diagnostics;
};

} // namespace pte
