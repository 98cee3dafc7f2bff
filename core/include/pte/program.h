// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include "pte/boxed.h"
#include "pte/bytes.h"
#include "pte/diagnostic.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

/**
 * @file
 * The program model: a plain C++ mirror of ExecuTorch's `.pte` flatbuffer (schema/program.fbs), one
 * struct per table, one member per field, in schema order. The reader fills it from a file, the
 * emitter builds it from graph dumps, the writer serializes it, the GUI and CLI show it.
 *
 * Optional members (std::optional) are fields the format allows to be absent and that ExecuTorch
 * omits; vectors that the runtime requires are plain vectors (always written, possibly empty).
 * Byte payloads (segments, inline blobs, legacy constant buffers) are `Bytes` views, usually into
 * the memory-mapped input: nothing proportional to the weights is copied.
 *
 * A `Program` is a value type. Shared between threads it is held as `std::shared_ptr<const Program>`
 * (an immutable snapshot); the Bytes inside keep their mappings alive.
 */

namespace pte {

/** ExecuTorch ScalarType codes (c10 numbering). Codes not named here are still valid values. */
enum class ScalarType : std::int8_t
{
    Byte = 0,
    Char = 1,
    Short = 2,
    Int = 3,
    Long = 4,
    Half = 5,
    Float = 6,
    Double = 7,
    ComplexHalf = 8,
    ComplexFloat = 9,
    ComplexDouble = 10,
    Bool = 11,
    QInt8 = 12,
    QUInt8 = 13,
    QInt32 = 14,
    BFloat16 = 15,
    QUInt4x2 = 16,
    QUInt2x4 = 17,
    Bits1x8 = 18,
    Bits2x4 = 19,
    Bits4x2 = 20,
    Bits8 = 21,
    Bits16 = 22,
    Float8e5m2 = 23,
    Float8e4m3fn = 24,
    Float8e5m2fnuz = 25,
    Float8e4m3fnuz = 26,
    UInt16 = 27,
    UInt32 = 28,
    UInt64 = 29,
};

/** Schema name ("FLOAT", "BFLOAT16"), or empty for codes the schema does not name (flatc prints numbers). */
[[nodiscard]] const char* scalarTypeSchemaName(ScalarType t) noexcept;
/** Short display name ("f32", "bf16", "i64"...), "?" for invalid codes. */
[[nodiscard]] const char* scalarTypeShortName(ScalarType t) noexcept;
/** Element size in bytes; 0 for codes outside 0..29. */
[[nodiscard]] std::size_t elementSize(ScalarType t) noexcept;
/** Whether the runtime's isValid() accepts the code (0..29). */
[[nodiscard]] bool isValidScalarType(std::int8_t code) noexcept;
/** The integer dtypes, as torch.is_floating_point's complement among real numbers: u8, i8, i16, i32, i64, u16, u32,
 *  u64; not bool, not the quantized or bit-packed types. The one rule for "elements are integers" (element text,
 *  type promotion, input checks). */
[[nodiscard]] bool isIntegralType(ScalarType t) noexcept;
/** The floating dtypes (torch.is_floating_point): f16, bf16, f32, f64 and the four float8 types. */
[[nodiscard]] bool isFloatingType(ScalarType t) noexcept;

/** TensorShapeDynamism: sizes fixed (Static) or upper bounds (DynamicBound); the runtime refuses DynamicUnbound. */
enum class ShapeDynamism : std::int8_t
{
    Static = 0,
    DynamicBound = 1,
    DynamicUnbound = 2
};
/**
 * ExtraTensorInfo.location: a tensor's data is in the program (Segment), or External: found by its fully qualified
 * name in a .ptd or the named data (docs/pte-format.md, Where tensor data lives).
 */
enum class TensorDataLocation : std::int8_t
{
    Segment = 0,
    External = 1
};
/** The device a tensor or a planned arena is meant for (ExtraTensorInfo, NonConstBufferDevice); CPU by default. */
enum class DeviceType : std::int8_t
{
    Cpu = 0,
    Cuda = 1
};
/** BackendDelegateDataReference.location: Inline = Program.backend_delegate_data, Segment = Program.segments. */
enum class DataLocation : std::int8_t
{
    Inline = 0,
    Segment = 1
};

/** ExecutionPlan.container_meta_type: pytree specs (JSON) that flatten the inputs and unflatten the outputs. */
struct ContainerMetadata
{
    std::string encodedInpStr;
    std::string encodedOutStr;
};

/**
 * Tensor.allocation_info of a planned tensor: arena `memoryId` (an index into non_const_buffer_sizes, from 1) and the
 * byte offset in it, split into two u32 halves.
 */
struct AllocationDetails
{
    std::uint32_t memoryId = 0;
    std::uint32_t memoryOffsetLow = 0;
    std::uint32_t memoryOffsetHigh = 0;
    [[nodiscard]] std::uint64_t offset() const noexcept
    {
        return (std::uint64_t(memoryOffsetHigh) << 32) | memoryOffsetLow;
    }
};

/**
 * Tensor.extra_tensor_info, for tensors that need more than the common fields: external data found by fully qualified
 * name, a mutable data segment, a device.
 */
struct ExtraTensorInfo
{
    std::uint64_t mutableDataSegmentsIdx = 0;
    std::optional<std::string> fullyQualifiedName;
    TensorDataLocation location = TensorDataLocation::Segment;
    DeviceType deviceType = DeviceType::Cpu;
    std::int8_t deviceIndex = 0;
};

/**
 * A Tensor EValue: dtype, sizes and dim order, and where its data is (data_buffer_idx, allocation_info,
 * extra_tensor_info; docs/pte-format.md, Where tensor data lives).
 */
struct Tensor
{
    ScalarType scalarType = ScalarType::Byte;
    std::int32_t storageOffset = 0;
    std::vector<std::int32_t> sizes;
    std::vector<std::uint8_t> dimOrder;
    bool requiresGrad = false;
    std::uint32_t dataBufferIdx = 0;
    std::optional<AllocationDetails> allocationInfo;
    std::int8_t layout = 0;
    ShapeDynamism shapeDynamism = ShapeDynamism::Static;
    Boxed<ExtraTensorInfo> extraTensorInfo; ///< rare: boxed to keep the many other tensors small

    /** prod(sizes) (1 for rank 0); nullopt on overflow or a negative size. */
    [[nodiscard]] std::optional<std::uint64_t> numel() const noexcept;
    /** numel * element size; nullopt on overflow or invalid dtype. */
    [[nodiscard]] std::optional<std::uint64_t> nbytes() const noexcept;
};

/** A Null EValue (None). */
struct Null
{ };
/** An Int EValue: a 64-bit integer. */
struct Int
{
    std::int64_t intVal = 0;
};
/** A Bool EValue. */
struct Bool
{
    bool boolVal = false;
};
/** A Double EValue. */
struct Double
{
    double doubleVal = 0.0;
};
/** A String EValue. */
struct String
{
    std::string stringVal;
};
/** Items are value indices of Int EValues, not literal integers. */
struct IntList
{
    std::vector<std::int64_t> items;
};
/** A DoubleList EValue: literal doubles (unlike IntList, whose items are value indices). */
struct DoubleList
{
    std::vector<double> items;
};
/** A BoolList EValue: literal bools. */
struct BoolList
{
    std::vector<bool> items;
};
/** Value indices of Tensor EValues. */
struct TensorList
{
    std::vector<std::int32_t> items;
};
/** Value indices of Tensor EValues, or -1 for None. */
struct OptionalTensorList
{
    std::vector<std::int32_t> items;
};

/**
 * The KernelTypes union. The variant index equals the union type code stored in the file:
 * 0 = NONE (invalid; also used for unknown codes, see EValue::rawType), 1 = Null, ... 11 = OptionalTensorList.
 */
using KernelValue = std::variant<std::monostate, Null, Int, Bool, Double, Tensor, String, IntList, DoubleList, BoolList,
    TensorList, OptionalTensorList>;

/** Which KernelTypes member an EValue holds: the variant index, None (0) for an unset or unknown type. */
enum class ValueKind : std::uint8_t
{
    None = 0,
    Null,
    Int,
    Bool,
    Double,
    Tensor,
    String,
    IntList,
    DoubleList,
    BoolList,
    TensorList,
    OptionalTensorList,
};
[[nodiscard]] const char* valueKindName(ValueKind k) noexcept; ///< schema name ("Tensor", "NONE")

/** One entry of ExecutionPlan.values: a KernelTypes member. Instructions, inputs and outputs name values by index. */
struct EValue
{
    KernelValue val;
    /** The union type byte as read; differs from val.index() only for unknown codes (val is monostate). */
    std::uint8_t rawType = 0;

    [[nodiscard]] ValueKind kind() const noexcept { return ValueKind(val.index()); }
    [[nodiscard]] const Tensor* tensor() const noexcept { return std::get_if<Tensor>(&val); }
};

/** One entry of ExecutionPlan.operators, named by KernelCall.op_index; the runtime's kernel key is qualifiedName(). */
struct Operator
{
    std::string name; ///< "aten::add"
    std::string overload; ///< "out"; may be empty
    /** "aten::add.out", or just the name when the overload is empty (the runtime's lookup key). */
    [[nodiscard]] std::string qualifiedName() const;
};

/** Runs operator `opIndex` (into ExecutionPlan.operators) on the values `args` (value indices, outputs included). */
struct KernelCall
{
    std::int32_t opIndex = 0;
    std::vector<std::int32_t> args;
};
/** Runs delegate `delegateIndex` (into ExecutionPlan.delegates) on the values `args`: its inputs, then its outputs. */
struct DelegateCall
{
    std::int32_t delegateIndex = 0;
    std::vector<std::int32_t> args;
};
/** Copies value `moveFrom` into value `moveTo` (tensors share their storage). */
struct MoveCall
{
    std::int32_t moveFrom = 0;
    std::int32_t moveTo = 0;
};
/**
 * Jumps to instruction `destinationInstruction` (absolute, in the chain) when value `condValueIndex` is false: a Bool,
 * or a Bool tensor that is false when any element is.
 */
struct JumpFalseCall
{
    std::int32_t condValueIndex = 0;
    std::int32_t destinationInstruction = 0;
};
/** Frees the storage of tensor value `valueIndex`. */
struct FreeCall
{
    std::int32_t valueIndex = 0;
};

/** InstructionArguments union; index = type code (0 = NONE). */
using InstructionArgs = std::variant<std::monostate, KernelCall, DelegateCall, MoveCall, JumpFalseCall, FreeCall>;

/** Which InstructionArguments member an Instruction holds: the variant index, None (0) for an unset or unknown type. */
enum class InstructionKind : std::uint8_t
{
    None = 0,
    KernelCall,
    DelegateCall,
    MoveCall,
    JumpFalseCall,
    FreeCall
};
[[nodiscard]] const char* instructionKindName(InstructionKind k) noexcept; ///< schema name ("KernelCall")

/** One instruction of a chain: an InstructionArguments member, and the union type byte as read (`rawType`). */
struct Instruction
{
    InstructionArgs args;
    std::uint8_t rawType = 0;
    [[nodiscard]] InstructionKind kind() const noexcept { return InstructionKind(args.index()); }
};

/** One frame of a Python stack trace (Chain.stacktrace), as the emitter parses it from a node's stack_trace. */
struct Frame
{
    std::optional<std::string> filename;
    std::int32_t lineno = 0;
    std::optional<std::string> name;
    std::optional<std::string> context;
};
/** The stack trace of one instruction: its frames. */
struct FrameList
{
    std::vector<Frame> items;
};

/** BackendDelegate.processed: where the delegate's blob is (docs/pte-format.md, Delegate blobs). */
struct BackendDelegateDataReference
{
    DataLocation location = DataLocation::Inline;
    std::uint32_t index = 0;
};
/** A key and backend-defined bytes the delegate was compiled with (BackendDelegate.compile_specs). */
struct CompileSpec
{
    std::string key;
    Bytes value;
};
/**
 * One entry of ExecutionPlan.delegates: the backend id the runtime looks up, its processed blob and its compile specs.
 * A DelegateCall names it by index.
 */
struct BackendDelegate
{
    std::string id;
    BackendDelegateDataReference processed;
    std::vector<CompileSpec> compileSpecs;
};

/**
 * One entry of ExecutionPlan.chains: its instructions, the value indices it reads and writes and, when emitted with
 * stack traces, one FrameList per instruction.
 */
struct Chain
{
    std::vector<std::int32_t> inputs;
    std::vector<std::int32_t> outputs;
    std::vector<Instruction> instructions;
    std::optional<std::vector<FrameList>> stacktrace;
};

/** One entry of ExecutionPlan.non_const_buffer_device: the device of planned arena `bufferIdx`. */
struct NonConstBufferDevice
{
    std::int32_t bufferIdx = 0;
    DeviceType deviceType = DeviceType::Cpu;
    std::int8_t deviceIndex = 0;
};

/** One method. */
struct ExecutionPlan
{
    std::string name;
    std::optional<ContainerMetadata> containerMetaType;
    std::vector<EValue> values;
    std::vector<std::int32_t> inputs;
    std::vector<std::int32_t> outputs;
    std::vector<Chain> chains;
    std::vector<Operator> operators;
    std::vector<BackendDelegate> delegates;
    std::vector<std::int64_t> nonConstBufferSizes;
    std::optional<std::vector<NonConstBufferDevice>> nonConstBufferDevice;
};

/** A legacy constant buffer entry (Program.constant_buffer) or an inline delegate blob. */
struct Buffer
{
    Bytes storage;
};

/**
 * A segment: where it sits (offset relative to segment_base_offset, size) as read from or last
 * written to a file, and its bytes. The writer recomputes offsets from the layout rules; `alignment`
 * (1 = none beyond the segment alignment) lets named data ask for more.
 */
struct DataSegment
{
    std::uint64_t offset = 0;
    std::uint64_t size = 0;
    Bytes data;
    std::uint64_t alignment = 1;
    /**
     * Alternative to `data` for a segment assembled from several views without copying them (the writer's
     * constant segment: each tensor's mapped bytes, then zero padding). When non-empty, the segment's bytes are
     * the concatenation of the pieces and `data` is empty.
     */
    std::vector<Bytes> pieces;

    /** Number of content bytes (of `data`, or of all `pieces`). */
    [[nodiscard]] std::uint64_t contentSize() const noexcept;
    /**
     * Bytes [offset, offset + length) of the content: a view when they lie in `data` or in one piece, else a copy
     * of just that range. Empty Bytes when the range is out of bounds.
     */
    [[nodiscard]] Bytes range(std::uint64_t offset, std::uint64_t length) const;
};

/**
 * Program.constant_segment, or an entry of mutable_data_segments: a segment and the offsets of the tensors packed in it
 * (entry 0 is a placeholder, as data_buffer_idx 0 means no data).
 */
struct SubsegmentOffsets
{
    std::uint32_t segmentIndex = 0;
    std::vector<std::uint64_t> offsets;
};

/** One entry of Program.named_data: a key backends read data by, and its segment (keys may share a segment). */
struct NamedData
{
    std::string key;
    std::uint32_t segmentIndex = 0;
};

/** The `eh00` extended header as found in a file (absent for plain flatbuffers). */
struct ExtendedHeader
{
    std::uint32_t length = 0; ///< 24 (pre-1.0) or 32
    std::uint64_t programSize = 0;
    std::uint64_t segmentBaseOffset = 0;
    std::uint64_t segmentDataSize = 0; ///< 0 when length < 32
};

/** The root table. */
struct Program
{
    std::uint32_t version = 0;
    std::vector<ExecutionPlan> executionPlan;
    std::vector<Buffer> constantBuffer;
    std::vector<Buffer> backendDelegateData;
    std::vector<DataSegment> segments;
    std::optional<SubsegmentOffsets> constantSegment;
    std::optional<std::vector<SubsegmentOffsets>> mutableDataSegments;
    std::optional<std::vector<NamedData>> namedData;

    /** Method by name, or nullptr. */
    [[nodiscard]] const ExecutionPlan* method(std::string_view name) const noexcept;
};

/**
 * Bytes of constant tensor `dataBufferIdx` (from the constant segment, or the legacy constant_buffer),
 * running to the next offset (so padding is attached) or to the end of the segment. Empty Bytes when
 * the index is 0 or out of range.
 */
[[nodiscard]] Bytes constantData(const Program& program, std::uint32_t dataBufferIdx);

/**
 * The initial state of planned tensor `dataBufferIdx` (a mutable buffer's initial value): the `nbytes` bytes from
 * its offset in mutable_data_segments[0], the entry the runtime reads; as the runtime copies them into planned
 * memory, the next offset does not end them. Empty Bytes when the index is 0, there is no such entry, or the bytes
 * run past the segment.
 */
[[nodiscard]] Bytes mutableData(const Program& program, std::uint32_t dataBufferIdx, std::uint64_t nbytes);

/** Bytes of a delegate's processed blob (inline or segment); empty when the reference is out of range. */
[[nodiscard]] Bytes delegateData(const Program& program, const BackendDelegate& delegate);

} // namespace pte
