// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

// Test support for the .pte reader (header-only, used by tst_ptereader, tst_corruption and tst_cli_reader; the
// tests link the schema, pte_testutils does not): encodes a pte::Program with the generated FlatBufferBuilder API,
// independently of the production writer, and splices an eh00 header and the segments in by hand. Options can omit
// fields the model cannot express as absent, to produce files the runtime refuses.

#include "programbuilders.h"
#include "pte/program.h"
#include "pte/schema/flat_tensor_generated.h"
#include "pte/schema/program_generated.h"

#include <cstdint>
#include <cstring>
#include <limits>
#include <optional>
#include <vector>

namespace pte::readertest {

struct EncodeOptions
{
    bool omitExecutionPlan = false;
    bool omitDelegates = false; ///< every plan's delegates vector
    bool omitValues = false;
    bool omitNonConstBufferSizes = false;
    bool omitInstructions = false;
    bool omitSegments = false;
    bool omitOperatorOverload = false;
    bool omitTensorSizes = false;
};

namespace detail {
namespace fbs = executorch_flatbuffer;
using flatbuffers::FlatBufferBuilder;
using flatbuffers::Offset;

template <typename T> flatbuffers::Offset<flatbuffers::Vector<T>> vec(FlatBufferBuilder& b, const std::vector<T>& v)
{
    return b.CreateVector(v);
}

inline flatbuffers::Offset<flatbuffers::Vector<std::uint8_t>> alignedBytes(FlatBufferBuilder& b, const Bytes& bytes)
{
    b.ForceVectorAlignment(bytes.size(), 1, 16);
    return b.CreateVector(bytes.data(), bytes.size());
}

inline Offset<fbs::Tensor> tensor(FlatBufferBuilder& b, const Tensor& t, const EncodeOptions& o)
{
    const auto sizes = o.omitTensorSizes ? 0 : vec(b, t.sizes);
    const auto dims = vec(b, t.dimOrder);
    Offset<fbs::AllocationDetails> alloc = 0;
    if (t.allocationInfo)
        alloc = fbs::CreateAllocationDetails(
            b, t.allocationInfo->memoryId, t.allocationInfo->memoryOffsetLow, t.allocationInfo->memoryOffsetHigh);
    Offset<fbs::ExtraTensorInfo> extra = 0;
    if (t.extraTensorInfo) {
        const auto& x = *t.extraTensorInfo;
        const auto fqn = x.fullyQualifiedName ? b.CreateString(*x.fullyQualifiedName) : 0;
        extra = fbs::CreateExtraTensorInfo(b, x.mutableDataSegmentsIdx, fqn, fbs::TensorDataLocation(x.location),
            fbs::DeviceType(x.deviceType), x.deviceIndex);
    }
    return fbs::CreateTensor(b, fbs::ScalarType(t.scalarType), t.storageOffset, sizes, dims, t.requiresGrad,
        t.dataBufferIdx, alloc, t.layout, fbs::TensorShapeDynamism(t.shapeDynamism), extra);
}

inline Offset<fbs::EValue> value(FlatBufferBuilder& b, const EValue& v, const EncodeOptions& o)
{
    Offset<void> val = 0;
    std::visit(
        [&](const auto& x) {
            using T = std::decay_t<decltype(x)>;
            if constexpr (std::is_same_v<T, Null>)
                val = fbs::CreateNull(b).Union();
            else if constexpr (std::is_same_v<T, Int>)
                val = fbs::CreateInt(b, x.intVal).Union();
            else if constexpr (std::is_same_v<T, Bool>)
                val = fbs::CreateBool(b, x.boolVal).Union();
            else if constexpr (std::is_same_v<T, Double>)
                val = fbs::CreateDouble(b, x.doubleVal).Union();
            else if constexpr (std::is_same_v<T, Tensor>)
                val = tensor(b, x, o).Union();
            else if constexpr (std::is_same_v<T, String>)
                val = fbs::CreateString(b, b.CreateString(x.stringVal)).Union();
            else if constexpr (std::is_same_v<T, IntList>)
                val = fbs::CreateIntList(b, vec(b, x.items)).Union();
            else if constexpr (std::is_same_v<T, DoubleList>)
                val = fbs::CreateDoubleList(b, vec(b, x.items)).Union();
            else if constexpr (std::is_same_v<T, BoolList>) {
                std::vector<std::uint8_t> items(x.items.begin(), x.items.end());
                val = fbs::CreateBoolList(b, vec(b, items)).Union();
            } else if constexpr (std::is_same_v<T, TensorList>)
                val = fbs::CreateTensorList(b, vec(b, x.items)).Union();
            else if constexpr (std::is_same_v<T, OptionalTensorList>)
                val = fbs::CreateOptionalTensorList(b, vec(b, x.items)).Union();
        },
        v.val);
    const std::uint8_t type = v.kind() == ValueKind::None ? v.rawType : std::uint8_t(v.kind());
    return fbs::CreateEValue(b, fbs::KernelTypes(type), val);
}

inline Offset<fbs::Instruction> instruction(FlatBufferBuilder& b, const Instruction& in)
{
    Offset<void> args = 0;
    std::visit(
        [&](const auto& x) {
            using T = std::decay_t<decltype(x)>;
            if constexpr (std::is_same_v<T, KernelCall>)
                args = fbs::CreateKernelCall(b, x.opIndex, vec(b, x.args)).Union();
            else if constexpr (std::is_same_v<T, DelegateCall>)
                args = fbs::CreateDelegateCall(b, x.delegateIndex, vec(b, x.args)).Union();
            else if constexpr (std::is_same_v<T, MoveCall>)
                args = fbs::CreateMoveCall(b, x.moveFrom, x.moveTo).Union();
            else if constexpr (std::is_same_v<T, JumpFalseCall>)
                args = fbs::CreateJumpFalseCall(b, x.condValueIndex, x.destinationInstruction).Union();
            else if constexpr (std::is_same_v<T, FreeCall>)
                args = fbs::CreateFreeCall(b, x.valueIndex).Union();
        },
        in.args);
    const std::uint8_t type = in.kind() == InstructionKind::None ? in.rawType : std::uint8_t(in.kind());
    return fbs::CreateInstruction(b, fbs::InstructionArguments(type), args);
}

inline Offset<fbs::ExecutionPlan> plan(FlatBufferBuilder& b, const ExecutionPlan& p, const EncodeOptions& o)
{
    const auto name = b.CreateString(p.name);
    Offset<fbs::ContainerMetadata> meta = 0;
    if (p.containerMetaType)
        meta = fbs::CreateContainerMetadata(
            b, b.CreateString(p.containerMetaType->encodedInpStr), b.CreateString(p.containerMetaType->encodedOutStr));
    std::vector<Offset<fbs::EValue>> values;
    for (const auto& v : p.values)
        values.push_back(value(b, v, o));
    const auto valuesVec = o.omitValues ? 0 : b.CreateVector(values);
    std::vector<Offset<fbs::Chain>> chains;
    for (const auto& c : p.chains) {
        std::vector<Offset<fbs::Instruction>> instrs;
        for (const auto& in : c.instructions)
            instrs.push_back(instruction(b, in));
        Offset<flatbuffers::Vector<Offset<fbs::FrameList>>> st = 0;
        if (c.stacktrace) {
            std::vector<Offset<fbs::FrameList>> lists;
            for (const auto& fl : *c.stacktrace) {
                std::vector<Offset<fbs::Frame>> frames;
                for (const auto& f : fl.items)
                    frames.push_back(fbs::CreateFrame(b, f.filename ? b.CreateString(*f.filename) : 0, f.lineno,
                        f.name ? b.CreateString(*f.name) : 0, f.context ? b.CreateString(*f.context) : 0));
                lists.push_back(fbs::CreateFrameList(b, b.CreateVector(frames)));
            }
            st = b.CreateVector(lists);
        }
        chains.push_back(fbs::CreateChain(
            b, vec(b, c.inputs), vec(b, c.outputs), o.omitInstructions ? 0 : b.CreateVector(instrs), st));
    }
    std::vector<Offset<fbs::Operator>> ops;
    for (const auto& op : p.operators)
        ops.push_back(
            fbs::CreateOperator(b, b.CreateString(op.name), o.omitOperatorOverload ? 0 : b.CreateString(op.overload)));
    std::vector<Offset<fbs::BackendDelegate>> dels;
    for (const auto& d : p.delegates) {
        std::vector<Offset<fbs::CompileSpec>> specs;
        for (const auto& s : d.compileSpecs)
            specs.push_back(
                fbs::CreateCompileSpec(b, b.CreateString(s.key), b.CreateVector(s.value.data(), s.value.size())));
        const auto ref =
            fbs::CreateBackendDelegateDataReference(b, fbs::DataLocation(d.processed.location), d.processed.index);
        dels.push_back(fbs::CreateBackendDelegate(b, b.CreateString(d.id), ref, b.CreateVector(specs)));
    }
    Offset<flatbuffers::Vector<Offset<fbs::NonConstBufferDevice>>> devs = 0;
    if (p.nonConstBufferDevice) {
        std::vector<Offset<fbs::NonConstBufferDevice>> list;
        for (const auto& d : *p.nonConstBufferDevice)
            list.push_back(
                fbs::CreateNonConstBufferDevice(b, d.bufferIdx, fbs::DeviceType(d.deviceType), d.deviceIndex));
        devs = b.CreateVector(list);
    }
    return fbs::CreateExecutionPlan(b, name, meta, valuesVec, vec(b, p.inputs), vec(b, p.outputs),
        b.CreateVector(chains), b.CreateVector(ops), o.omitDelegates ? 0 : b.CreateVector(dels),
        o.omitNonConstBufferSizes ? 0 : vec(b, p.nonConstBufferSizes), devs);
}

inline Offset<fbs::SubsegmentOffsets> subsegment(FlatBufferBuilder& b, const SubsegmentOffsets& s)
{
    return fbs::CreateSubsegmentOffsets(b, s.segmentIndex, vec(b, s.offsets));
}

} // namespace detail

/** The program as a plain flatbuffer with identifier ET12 (no extended header, segments not included). */
inline std::vector<std::uint8_t> encodeFlatbuffer(const Program& p, const EncodeOptions& o = {})
{
    namespace fbs = executorch_flatbuffer;
    using namespace detail;
    FlatBufferBuilder b;
    std::vector<Offset<fbs::ExecutionPlan>> plans;
    for (const auto& pl : p.executionPlan)
        plans.push_back(plan(b, pl, o));
    const auto plansVec = o.omitExecutionPlan ? 0 : b.CreateVector(plans);
    std::vector<Offset<fbs::Buffer>> cb;
    for (const auto& buf : p.constantBuffer)
        cb.push_back(fbs::CreateBuffer(b, alignedBytes(b, buf.storage)));
    std::vector<Offset<fbs::BackendDelegateInlineData>> bdd;
    for (const auto& buf : p.backendDelegateData)
        bdd.push_back(fbs::CreateBackendDelegateInlineData(b, alignedBytes(b, buf.storage)));
    std::vector<Offset<fbs::DataSegment>> segs;
    for (const auto& s : p.segments)
        segs.push_back(fbs::CreateDataSegment(b, s.offset, s.size));
    const auto cs = p.constantSegment ? subsegment(b, *p.constantSegment) : 0;
    Offset<flatbuffers::Vector<Offset<fbs::SubsegmentOffsets>>> mds = 0;
    if (p.mutableDataSegments) {
        std::vector<Offset<fbs::SubsegmentOffsets>> list;
        for (const auto& s : *p.mutableDataSegments)
            list.push_back(subsegment(b, s));
        mds = b.CreateVector(list);
    }
    Offset<flatbuffers::Vector<Offset<fbs::NamedData>>> nd = 0;
    if (p.namedData) {
        std::vector<Offset<fbs::NamedData>> list;
        for (const auto& n : *p.namedData)
            list.push_back(fbs::CreateNamedData(b, b.CreateString(n.key), n.segmentIndex));
        nd = b.CreateVector(list);
    }
    const auto root = fbs::CreateProgram(b, p.version, plansVec, b.CreateVector(cb), b.CreateVector(bdd),
        o.omitSegments ? 0 : b.CreateVector(segs), cs, mds, nd);
    b.Finish(root, "ET12");
    return std::vector<std::uint8_t>(b.GetBufferPointer(), b.GetBufferPointer() + b.GetSize());
}

/**
 * Splices a 32-byte eh00 header into `flatbuffer` after byte 8 (fixing the root offset) and appends the
 * program's segments at segment_base_offset + DataSegment.offset (base = program_size rounded up to 128).
 */
inline std::vector<std::uint8_t> withExtendedHeader(const std::vector<std::uint8_t>& flatbuffer, const Program& p)
{
    auto put32 = [](std::uint8_t* d, std::uint32_t v) {
        for (int i = 0; i < 4; ++i)
            d[i] = std::uint8_t(v >> (8 * i));
    };
    auto put64 = [](std::uint8_t* d, std::uint64_t v) {
        for (int i = 0; i < 8; ++i)
            d[i] = std::uint8_t(v >> (8 * i));
    };
    constexpr std::size_t kHeader = 32;
    std::vector<std::uint8_t> out(flatbuffer.begin(), flatbuffer.begin() + 8);
    out.resize(8 + kHeader, 0);
    out.insert(out.end(), flatbuffer.begin() + 8, flatbuffer.end());
    std::uint32_t root = 0;
    for (int i = 0; i < 4; ++i)
        root |= std::uint32_t(flatbuffer[std::size_t(i)]) << (8 * i);
    put32(out.data(), root + kHeader);
    std::memcpy(out.data() + 8, "eh00", 4);
    put32(out.data() + 12, 32);
    const std::uint64_t programSize = out.size();
    const std::uint64_t base = (programSize + 127) / 128 * 128;
    std::uint64_t end = 0;
    for (const auto& s : p.segments)
        end = std::max<std::uint64_t>(end, s.offset + s.data.size());
    put64(out.data() + 16, programSize);
    put64(out.data() + 24, base);
    put64(out.data() + 32, end);
    out.resize(std::size_t(base + end), 0);
    for (const auto& s : p.segments)
        if (!s.data.empty())
            std::memcpy(out.data() + base + s.offset, s.data.data(), s.data.size());
    return out;
}

/** Bytes 0, 1, 2, ... (n of them), owned. */
inline Bytes patternBytes(std::size_t n, std::uint8_t seed)
{
    std::vector<std::uint8_t> v(n);
    for (std::size_t i = 0; i < n; ++i)
        v[i] = std::uint8_t(seed + i);
    return Bytes::fromVector(std::move(v));
}

using test::ev;
using test::instr;
using test::makeTensor;

/**
 * A valid program using every EValue kind, all five instruction kinds, an inline and a segment delegate,
 * constant, mutable and named-data segments, two methods. Value indices of method "forward":
 * 0 input f32[2,3] (arena 1 @0), 1 constant f32[2,3] (constant segment), 2 planned f32[2,3] with initial
 * state (arena 1 @32, mutable segment), 3 Null, 4 Int 7, 5 Bool true, 6 Double 2.5, 7 String "hello",
 * 8 IntList [4], 9 DoubleList [1.5, -inf], 10 BoolList [true, false], 11 TensorList [0, 1],
 * 12 OptionalTensorList [0, -1], 13 output f32[2,3] (arena 1 @64), 14 EXTERNAL f32[2,2] "w" (CUDA:1).
 * Instructions: KernelCall, DelegateCall x2, MoveCall, JumpFalseCall, FreeCall.
 */
inline Program makeFullProgram()
{
    Program p;
    ExecutionPlan m;
    m.name = "forward";
    m.containerMetaType = ContainerMetadata { "inp-spec", "out-spec" };
    m.values.push_back(ev(makeTensor({ 2, 3 }, AllocationDetails { 1, 0, 0 })));
    m.values.push_back(ev(makeTensor({ 2, 3 }, std::nullopt, 1)));
    m.values.push_back(ev(makeTensor({ 2, 3 }, AllocationDetails { 1, 32, 0 }, 1)));
    m.values.push_back(ev(Null {}));
    m.values.push_back(ev(Int { 7 }));
    m.values.push_back(ev(Bool { true }));
    m.values.push_back(ev(Double { 2.5 }));
    m.values.push_back(ev(String { "hello" }));
    m.values.push_back(ev(IntList { { 4 } }));
    m.values.push_back(ev(DoubleList { { 1.5, -std::numeric_limits<double>::infinity() } }));
    m.values.push_back(ev(BoolList { { true, false } }));
    m.values.push_back(ev(TensorList { { 0, 1 } }));
    m.values.push_back(ev(OptionalTensorList { { 0, -1 } }));
    m.values.push_back(ev(makeTensor({ 2, 3 }, AllocationDetails { 1, 64, 0 })));
    Tensor ext = makeTensor({ 2, 2 });
    ext.extraTensorInfo = ExtraTensorInfo { 0, std::string("w"), TensorDataLocation::External, DeviceType::Cuda, 1 };
    m.values.push_back(ev(std::move(ext)));
    m.inputs = { 0 };
    m.outputs = { 13 };
    Chain c;
    c.instructions.push_back(instr(KernelCall { 0, { 0, 1, 13 } }));
    c.instructions.push_back(instr(DelegateCall { 0, { 0, 13 } }));
    c.instructions.push_back(instr(DelegateCall { 1, { 0, 13 } }));
    c.instructions.push_back(instr(MoveCall { 13, 0 }));
    c.instructions.push_back(instr(JumpFalseCall { 5, 6 }));
    c.instructions.push_back(instr(FreeCall { 0 }));
    c.stacktrace = std::vector<FrameList>(6);
    (*c.stacktrace)[0].items.push_back(Frame { std::string("model.py"), 3, std::string("forward"), std::nullopt });
    m.chains.push_back(std::move(c));
    m.operators.push_back(Operator { "aten::add", "out" });
    BackendDelegate inl;
    inl.id = "XnnpackBackend";
    inl.processed = BackendDelegateDataReference { DataLocation::Inline, 0 };
    inl.compileSpecs.push_back(CompileSpec { "key", Bytes::copyOf("v1") });
    m.delegates.push_back(std::move(inl));
    BackendDelegate seg;
    seg.id = "QnnBackend";
    seg.processed = BackendDelegateDataReference { DataLocation::Segment, 1 };
    m.delegates.push_back(std::move(seg));
    m.nonConstBufferSizes = { 0, 96 };
    m.nonConstBufferDevice = std::vector<NonConstBufferDevice> { NonConstBufferDevice { 1, DeviceType::Cpu, 0 } };
    p.executionPlan.push_back(std::move(m));

    ExecutionPlan second;
    second.name = "second";
    second.values.push_back(ev(Int { 1 }));
    second.outputs = { 0 };
    second.chains.push_back(Chain {});
    second.nonConstBufferSizes = { 0 };
    p.executionPlan.push_back(std::move(second));

    p.backendDelegateData.push_back(Buffer { patternBytes(16, 0xA0) });
    p.segments.push_back(DataSegment { 0, 24, patternBytes(24, 1), 1 });
    p.segments.push_back(DataSegment { 128, 100, patternBytes(100, 50), 1 });
    p.segments.push_back(DataSegment { 256, 24, patternBytes(24, 200), 1 });
    p.constantSegment = SubsegmentOffsets { 0, { 0, 0 } };
    p.mutableDataSegments = std::vector<SubsegmentOffsets> { SubsegmentOffsets { 2, { 0, 0 } } };
    p.namedData = std::vector<NamedData> { NamedData { "shared", 1 } };
    return p;
}

/** makeFullProgram() encoded with an eh00 header and its segments. */
inline std::vector<std::uint8_t> encodeFullFile(const Program& p, const EncodeOptions& o = {})
{
    return withExtendedHeader(encodeFlatbuffer(p, o), p);
}

struct PtdTensor
{
    std::string key;
    ScalarType type;
    std::vector<std::int32_t> sizes;
    std::vector<std::uint8_t> dims;
    std::vector<std::uint8_t> data;
};

/** A .ptd (FlatTensor + FH01 header + segments), one segment per tensor. */
inline std::vector<std::uint8_t> encodePtd(const std::vector<PtdTensor>& tensors)
{
    namespace ft = flat_tensor_flatbuffer;
    flatbuffers::FlatBufferBuilder b;
    std::vector<flatbuffers::Offset<ft::DataSegment>> segs;
    std::vector<flatbuffers::Offset<ft::NamedData>> named;
    std::uint64_t offset = 0;
    for (std::size_t i = 0; i < tensors.size(); ++i) {
        const auto& t = tensors[i];
        segs.push_back(ft::CreateDataSegment(b, offset, t.data.size()));
        offset += (t.data.size() + 15) / 16 * 16;
        const auto layout = ft::CreateTensorLayout(
            b, executorch_flatbuffer::ScalarType(t.type), b.CreateVector(t.sizes), b.CreateVector(t.dims));
        named.push_back(ft::CreateNamedData(b, b.CreateString(t.key), std::uint32_t(i), layout));
    }
    const auto root = ft::CreateFlatTensor(b, 0, b.CreateVector(segs), b.CreateVector(named));
    b.Finish(root, "FT01");
    const std::vector<std::uint8_t> fb(b.GetBufferPointer(), b.GetBufferPointer() + b.GetSize());
    constexpr std::size_t kHeader = 40;
    std::vector<std::uint8_t> out(fb.begin(), fb.begin() + 8);
    out.resize(8 + kHeader, 0);
    out.insert(out.end(), fb.begin() + 8, fb.end());
    auto put = [&](std::size_t at, std::uint64_t v, int n) {
        for (int i = 0; i < n; ++i)
            out[at + std::size_t(i)] = std::uint8_t(v >> (8 * i));
    };
    std::uint32_t root0 =
        std::uint32_t(fb[0]) | std::uint32_t(fb[1]) << 8 | std::uint32_t(fb[2]) << 16 | std::uint32_t(fb[3]) << 24;
    put(0, root0 + kHeader, 4);
    std::memcpy(out.data() + 8, "FH01", 4);
    put(12, kHeader, 4);
    const std::uint64_t fbSize = out.size() - 48;
    const std::uint64_t base = (out.size() + 15) / 16 * 16;
    put(16, 48, 8);
    put(24, fbSize, 8);
    put(32, base, 8);
    put(40, offset, 8);
    out.resize(std::size_t(base + offset), 0);
    std::uint64_t at = base;
    for (const auto& t : tensors) {
        std::memcpy(out.data() + at, t.data.data(), t.data.size());
        at += (t.data.size() + 15) / 16 * 16;
    }
    return out;
}

} // namespace pte::readertest
