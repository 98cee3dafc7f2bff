// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "pte/ptewriter.h"

#include "base/fieldpath.h"
#include "pte/mappedfile.h"
#include "pte/schema/program_generated.h"
#include "serialize/segmentlayout.h"

#include <algorithm>
#include <cstring>
#include <map>
#include <numeric>
#include <set>

namespace pte {

namespace {

namespace fb = executorch_flatbuffer;
using flatbuffers::FlatBufferBuilder;
using flatbuffers::Offset;

/// flatbuffers uses signed 32-bit offsets: a buffer must stay below 2 GiB.
constexpr std::uint64_t kFlatbufferLimit = 0x7fffffffULL;
/// Leave room for the estimate below being a little optimistic.
constexpr std::uint64_t kFlatbufferBudget = kFlatbufferLimit - (std::uint64_t(1) << 24);
constexpr std::uint32_t kExtendedHeaderLength = 32;
constexpr std::uint64_t kMaxForceAlign = 1024; // FLATBUFFERS_MAX_ALIGNMENT of pte_schema

using base::indexPath;

/** A generous upper bound of the flatbuffer size, so the builder never exceeds its 2 GiB limit. */
std::uint64_t estimateFlatbufferSize(const Program& p, std::uint64_t forceAlign)
{
    constexpr std::uint64_t table = 48; // table + vtable offset + fields + the offset pointing at it
    constexpr std::uint64_t vec = 16;
    auto str = [](const std::string& s) { return std::uint64_t(s.size()) + 16; };
    std::uint64_t n = 1024;
    for (const auto& plan : p.executionPlan) {
        n += table * 4 + str(plan.name);
        if (plan.containerMetaType)
            n += table + str(plan.containerMetaType->encodedInpStr) + str(plan.containerMetaType->encodedOutStr);
        for (const auto& v : plan.values) {
            n += table * 2;
            if (const auto* t = v.tensor()) {
                n += table * 3 + 2 * vec + 4 * t->sizes.size() + t->dimOrder.size();
                if (t->extraTensorInfo && t->extraTensorInfo->fullyQualifiedName)
                    n += str(*t->extraTensorInfo->fullyQualifiedName);
            } else if (const auto* s = std::get_if<String>(&v.val)) {
                n += str(s->stringVal);
            } else if (const auto* il = std::get_if<IntList>(&v.val)) {
                n += vec + 8 * il->items.size();
            } else if (const auto* dl = std::get_if<DoubleList>(&v.val)) {
                n += vec + 8 * dl->items.size();
            } else if (const auto* bl = std::get_if<BoolList>(&v.val)) {
                n += vec + bl->items.size();
            } else if (const auto* tl = std::get_if<TensorList>(&v.val)) {
                n += vec + 4 * tl->items.size();
            } else if (const auto* ol = std::get_if<OptionalTensorList>(&v.val)) {
                n += vec + 4 * ol->items.size();
            }
        }
        n += 4 * vec + 4 * (plan.inputs.size() + plan.outputs.size()) + 8 * plan.nonConstBufferSizes.size();
        if (plan.nonConstBufferDevice)
            n += vec + table * plan.nonConstBufferDevice->size();
        for (const auto& c : plan.chains) {
            n += table + 3 * vec + 4 * (c.inputs.size() + c.outputs.size());
            for (const auto& ins : c.instructions) {
                n += table * 2 + vec;
                if (const auto* k = std::get_if<KernelCall>(&ins.args))
                    n += 4 * k->args.size();
                else if (const auto* d = std::get_if<DelegateCall>(&ins.args))
                    n += 4 * d->args.size();
            }
            if (c.stacktrace)
                for (const auto& fl : *c.stacktrace) {
                    n += table + vec;
                    for (const auto& f : fl.items)
                        n += table + str(f.filename.value_or("")) + str(f.name.value_or(""))
                            + str(f.context.value_or(""));
                }
        }
        for (const auto& op : plan.operators)
            n += table + str(op.name) + str(op.overload);
        for (const auto& d : plan.delegates) {
            n += table * 2 + vec + str(d.id);
            for (const auto& cs : d.compileSpecs)
                n += table + str(cs.key) + vec + cs.value.size();
        }
    }
    for (const auto& b : p.constantBuffer)
        n += table + vec + forceAlign + b.storage.size();
    for (const auto& b : p.backendDelegateData)
        n += table + vec + forceAlign + b.storage.size();
    n += vec + table * p.segments.size();
    if (p.constantSegment)
        n += table + vec + 8 * p.constantSegment->offsets.size();
    if (p.mutableDataSegments)
        for (const auto& m : *p.mutableDataSegments)
            n += table + vec + 8 * m.offsets.size();
    if (p.namedData)
        for (const auto& nd : *p.namedData)
            n += table + str(nd.key);
    return n;
}

/** Builds the flatbuffer of a Program with the generated builders. */
class FlatbufferWriter
{
public:
    FlatbufferWriter(std::uint64_t bufferAlign, std::uint64_t delegateAlign)
        : m_bufferAlign(bufferAlign)
        , m_delegateAlign(delegateAlign)
    { }

    Result<flatbuffers::DetachedBuffer> write(const Program& p, const std::vector<DataSegment>& segments)
    {
        PTE_TRY(const auto root, program(p, segments));
        fb::FinishProgramBuffer(m_b, root);
        return m_b.Release();
    }

private:
    FlatBufferBuilder m_b { 1 << 16 };
    std::uint64_t m_bufferAlign;
    std::uint64_t m_delegateAlign;

    Offset<flatbuffers::String> string(const std::string& s) { return m_b.CreateString(s.data(), s.size()); }
    Offset<flatbuffers::String> optString(const std::optional<std::string>& s)
    {
        return s ? string(*s) : Offset<flatbuffers::String>();
    }
    Offset<flatbuffers::Vector<std::uint8_t>> bytes(const Bytes& data, std::uint64_t align)
    {
        m_b.ForceVectorAlignment(data.size(), 1, align);
        return m_b.CreateVector(data.data(), data.size());
    }

    Offset<fb::Tensor> tensor(const Tensor& t)
    {
        const auto sizes = m_b.CreateVector(t.sizes);
        const auto dimOrder = m_b.CreateVector(t.dimOrder);
        Offset<fb::AllocationDetails> alloc;
        if (t.allocationInfo)
            alloc = fb::CreateAllocationDetails(
                m_b, t.allocationInfo->memoryId, t.allocationInfo->memoryOffsetLow, t.allocationInfo->memoryOffsetHigh);
        Offset<fb::ExtraTensorInfo> extra;
        if (t.extraTensorInfo) {
            const auto& e = *t.extraTensorInfo;
            const auto fqn = optString(e.fullyQualifiedName);
            extra = fb::CreateExtraTensorInfo(m_b, e.mutableDataSegmentsIdx, fqn,
                static_cast<fb::TensorDataLocation>(e.location), static_cast<fb::DeviceType>(e.deviceType),
                e.deviceIndex);
        }
        return fb::CreateTensor(m_b, static_cast<fb::ScalarType>(t.scalarType), t.storageOffset, sizes, dimOrder,
            t.requiresGrad, t.dataBufferIdx, alloc, t.layout, static_cast<fb::TensorShapeDynamism>(t.shapeDynamism),
            extra);
    }

    /** values[i] of the list at `listPath` (the path is built only for an error). */
    Result<Offset<fb::EValue>> value(const EValue& v, const std::string& listPath, std::size_t i)
    {
        struct Visitor
        {
            FlatbufferWriter& w;
            Offset<void> operator()(const std::monostate&) { return 0; }
            Offset<void> operator()(const Null&) { return fb::CreateNull(w.m_b).Union(); }
            Offset<void> operator()(const Int& x) { return fb::CreateInt(w.m_b, x.intVal).Union(); }
            Offset<void> operator()(const Bool& x) { return fb::CreateBool(w.m_b, x.boolVal).Union(); }
            Offset<void> operator()(const Double& x) { return fb::CreateDouble(w.m_b, x.doubleVal).Union(); }
            Offset<void> operator()(const Tensor& x) { return w.tensor(x).Union(); }
            Offset<void> operator()(const String& x)
            {
                const auto s = w.string(x.stringVal);
                return fb::CreateString(w.m_b, s).Union();
            }
            Offset<void> operator()(const IntList& x)
            {
                const auto items = w.m_b.CreateVector(x.items);
                return fb::CreateIntList(w.m_b, items).Union();
            }
            Offset<void> operator()(const DoubleList& x)
            {
                const auto items = w.m_b.CreateVector(x.items);
                return fb::CreateDoubleList(w.m_b, items).Union();
            }
            Offset<void> operator()(const BoolList& x)
            {
                const auto items = w.m_b.CreateVector(x.items);
                return fb::CreateBoolList(w.m_b, items).Union();
            }
            Offset<void> operator()(const TensorList& x)
            {
                const auto items = w.m_b.CreateVector(x.items);
                return fb::CreateTensorList(w.m_b, items).Union();
            }
            Offset<void> operator()(const OptionalTensorList& x)
            {
                const auto items = w.m_b.CreateVector(x.items);
                return fb::CreateOptionalTensorList(w.m_b, items).Union();
            }
        };
        if (v.val.index() == 0 && v.rawType != 0)
            return fail(ErrorCode::Unsupported,
                "cannot write EValue with unknown union type " + std::to_string(v.rawType), std::nullopt,
                indexPath(listPath, i));
        const auto payload = std::visit(Visitor { *this }, v.val);
        return fb::CreateEValue(m_b, static_cast<fb::KernelTypes>(v.val.index()), payload);
    }

    Result<Offset<fb::Instruction>> instruction(const Instruction& ins, const std::string& listPath, std::size_t i)
    {
        struct Visitor
        {
            FlatBufferBuilder& b;
            Offset<void> operator()(const std::monostate&) { return 0; }
            Offset<void> operator()(const KernelCall& k)
            {
                const auto args = b.CreateVector(k.args);
                return fb::CreateKernelCall(b, k.opIndex, args).Union();
            }
            Offset<void> operator()(const DelegateCall& d)
            {
                const auto args = b.CreateVector(d.args);
                return fb::CreateDelegateCall(b, d.delegateIndex, args).Union();
            }
            Offset<void> operator()(const MoveCall& m) { return fb::CreateMoveCall(b, m.moveFrom, m.moveTo).Union(); }
            Offset<void> operator()(const JumpFalseCall& j)
            {
                return fb::CreateJumpFalseCall(b, j.condValueIndex, j.destinationInstruction).Union();
            }
            Offset<void> operator()(const FreeCall& f) { return fb::CreateFreeCall(b, f.valueIndex).Union(); }
        };
        if (ins.args.index() == 0 && ins.rawType != 0)
            return fail(ErrorCode::Unsupported,
                "cannot write instruction with unknown union type " + std::to_string(ins.rawType), std::nullopt,
                indexPath(listPath, i));
        const auto payload = std::visit(Visitor { m_b }, ins.args);
        return fb::CreateInstruction(m_b, static_cast<fb::InstructionArguments>(ins.args.index()), payload);
    }

    Result<Offset<fb::Chain>> chain(const Chain& c, const std::string& path)
    {
        const auto inputs = m_b.CreateVector(c.inputs);
        const auto outputs = m_b.CreateVector(c.outputs);
        std::vector<Offset<fb::Instruction>> instrs;
        instrs.reserve(c.instructions.size());
        const std::string listPath = path + ".instructions";
        for (std::size_t i = 0; i < c.instructions.size(); ++i) {
            PTE_TRY(const auto ins, instruction(c.instructions[i], listPath, i));
            instrs.push_back(ins);
        }
        const auto instructions = m_b.CreateVector(instrs);
        Offset<flatbuffers::Vector<Offset<fb::FrameList>>> stacktrace;
        if (c.stacktrace) {
            std::vector<Offset<fb::FrameList>> lists;
            lists.reserve(c.stacktrace->size());
            for (const auto& fl : *c.stacktrace) {
                std::vector<Offset<fb::Frame>> frames;
                frames.reserve(fl.items.size());
                for (const auto& f : fl.items) {
                    const auto filename = optString(f.filename);
                    const auto name = optString(f.name);
                    const auto context = optString(f.context);
                    frames.push_back(fb::CreateFrame(m_b, filename, f.lineno, name, context));
                }
                const auto items = m_b.CreateVector(frames);
                lists.push_back(fb::CreateFrameList(m_b, items));
            }
            stacktrace = m_b.CreateVector(lists);
        }
        return fb::CreateChain(m_b, inputs, outputs, instructions, stacktrace);
    }

    Offset<fb::BackendDelegate> delegate(const BackendDelegate& d)
    {
        const auto id = string(d.id);
        const auto processed = fb::CreateBackendDelegateDataReference(
            m_b, static_cast<fb::DataLocation>(d.processed.location), d.processed.index);
        std::vector<Offset<fb::CompileSpec>> specs;
        specs.reserve(d.compileSpecs.size());
        for (const auto& cs : d.compileSpecs) {
            const auto key = string(cs.key);
            const auto value = m_b.CreateVector(cs.value.data(), cs.value.size());
            specs.push_back(fb::CreateCompileSpec(m_b, key, value));
        }
        const auto compileSpecs = m_b.CreateVector(specs);
        return fb::CreateBackendDelegate(m_b, id, processed, compileSpecs);
    }

    Result<Offset<fb::ExecutionPlan>> plan(const ExecutionPlan& plan, const std::string& path)
    {
        const auto name = string(plan.name);
        Offset<fb::ContainerMetadata> meta;
        if (plan.containerMetaType) {
            const auto inp = string(plan.containerMetaType->encodedInpStr);
            const auto out = string(plan.containerMetaType->encodedOutStr);
            meta = fb::CreateContainerMetadata(m_b, inp, out);
        }
        std::vector<Offset<fb::EValue>> vals;
        vals.reserve(plan.values.size());
        const std::string listPath = path + ".values";
        for (std::size_t i = 0; i < plan.values.size(); ++i) {
            PTE_TRY(const auto v, value(plan.values[i], listPath, i));
            vals.push_back(v);
        }
        const auto values = m_b.CreateVector(vals);
        const auto inputs = m_b.CreateVector(plan.inputs);
        const auto outputs = m_b.CreateVector(plan.outputs);
        std::vector<Offset<fb::Chain>> chainOffsets;
        for (std::size_t i = 0; i < plan.chains.size(); ++i) {
            PTE_TRY(const auto c, chain(plan.chains[i], indexPath(path + ".chains", i)));
            chainOffsets.push_back(c);
        }
        const auto chains = m_b.CreateVector(chainOffsets);
        std::vector<Offset<fb::Operator>> ops;
        ops.reserve(plan.operators.size());
        for (const auto& op : plan.operators) {
            const auto opName = string(op.name);
            const auto overload = string(op.overload);
            ops.push_back(fb::CreateOperator(m_b, opName, overload));
        }
        const auto operators = m_b.CreateVector(ops);
        std::vector<Offset<fb::BackendDelegate>> dels;
        dels.reserve(plan.delegates.size());
        for (const auto& d : plan.delegates)
            dels.push_back(delegate(d));
        const auto delegates = m_b.CreateVector(dels);
        const auto sizes = m_b.CreateVector(plan.nonConstBufferSizes);
        Offset<flatbuffers::Vector<Offset<fb::NonConstBufferDevice>>> devices;
        if (plan.nonConstBufferDevice) {
            std::vector<Offset<fb::NonConstBufferDevice>> devs;
            for (const auto& d : *plan.nonConstBufferDevice)
                devs.push_back(fb::CreateNonConstBufferDevice(
                    m_b, d.bufferIdx, static_cast<fb::DeviceType>(d.deviceType), d.deviceIndex));
            devices = m_b.CreateVector(devs);
        }
        return fb::CreateExecutionPlan(
            m_b, name, meta, values, inputs, outputs, chains, operators, delegates, sizes, devices);
    }

    Offset<fb::SubsegmentOffsets> subsegment(const SubsegmentOffsets& s)
    {
        const auto offsets = m_b.CreateVector(s.offsets);
        return fb::CreateSubsegmentOffsets(m_b, s.segmentIndex, offsets);
    }

    Result<Offset<fb::Program>> program(const Program& p, const std::vector<DataSegment>& segments)
    {
        std::vector<Offset<fb::ExecutionPlan>> planOffsets;
        planOffsets.reserve(p.executionPlan.size());
        for (std::size_t i = 0; i < p.executionPlan.size(); ++i) {
            PTE_TRY(const auto plan_, plan(p.executionPlan[i], indexPath("execution_plan", i)));
            planOffsets.push_back(plan_);
        }
        const auto plans = m_b.CreateVector(planOffsets);
        std::vector<Offset<fb::Buffer>> buffers;
        for (const auto& b : p.constantBuffer) {
            const auto storage = bytes(b.storage, m_bufferAlign);
            buffers.push_back(fb::CreateBuffer(m_b, storage));
        }
        const auto constantBuffer = m_b.CreateVector(buffers);
        std::vector<Offset<fb::BackendDelegateInlineData>> inlines;
        for (const auto& b : p.backendDelegateData) {
            const auto data = bytes(b.storage, m_delegateAlign);
            inlines.push_back(fb::CreateBackendDelegateInlineData(m_b, data));
        }
        const auto delegateData = m_b.CreateVector(inlines);
        std::vector<Offset<fb::DataSegment>> segs;
        for (const auto& s : segments)
            segs.push_back(fb::CreateDataSegment(m_b, s.offset, s.size));
        const auto segmentsOffset = m_b.CreateVector(segs);
        Offset<fb::SubsegmentOffsets> constantSegment;
        if (p.constantSegment)
            constantSegment = subsegment(*p.constantSegment);
        Offset<flatbuffers::Vector<Offset<fb::SubsegmentOffsets>>> mutableSegments;
        if (p.mutableDataSegments) {
            std::vector<Offset<fb::SubsegmentOffsets>> ms;
            for (const auto& m : *p.mutableDataSegments)
                ms.push_back(subsegment(m));
            mutableSegments = m_b.CreateVector(ms);
        }
        Offset<flatbuffers::Vector<Offset<fb::NamedData>>> namedData;
        if (p.namedData) {
            std::vector<Offset<fb::NamedData>> nds;
            for (const auto& nd : *p.namedData) {
                const auto key = string(nd.key);
                nds.push_back(fb::CreateNamedData(m_b, key, nd.segmentIndex));
            }
            namedData = m_b.CreateVector(nds);
        }
        return fb::CreateProgram(m_b, p.version, plans, constantBuffer, delegateData, segmentsOffset, constantSegment,
            mutableSegments, namedData);
    }
};

Result<void> checkAlignment(std::uint64_t value, const char* name, std::uint64_t max)
{
    if (value == 0 || (value & (value - 1)) != 0 || value > max)
        return fail(ErrorCode::InvalidInput,
            std::string(name) + " must be a power of two between 1 and " + std::to_string(max) + ", not "
                + std::to_string(value));
    return {};
}

Result<void> checkOptions(const WriteOptions& o)
{
    PTE_CHECK(checkAlignment(o.segmentAlignment, "segment alignment", std::uint64_t(1) << 30));
    PTE_CHECK(checkAlignment(o.constantTensorAlignment, "constant tensor alignment", kMaxForceAlign));
    PTE_CHECK(checkAlignment(o.delegateAlignment, "delegate alignment", kMaxForceAlign));
    return {};
}

void putU32(std::uint8_t* p, std::uint32_t v)
{
    for (int i = 0; i < 4; ++i)
        p[i] = std::uint8_t(v >> (8 * i));
}
void putU64(std::uint8_t* p, std::uint64_t v)
{
    for (int i = 0; i < 8; ++i)
        p[i] = std::uint8_t(v >> (8 * i));
}

} // namespace

namespace serialize {

Result<std::uint64_t> layoutSegments(std::vector<DataSegment>& segments, std::uint64_t segmentAlignment)
{
    std::uint64_t end = 0;
    for (std::size_t i = 0; i < segments.size(); ++i) {
        auto& s = segments[i];
        const std::uint64_t content = s.contentSize();
        if (s.size != 0 && s.size != content)
            return fail(ErrorCode::InvalidProgram,
                "segment " + std::to_string(i) + " declares " + std::to_string(s.size) + " bytes but holds "
                    + std::to_string(content),
                std::nullopt, indexPath("segments", i));
        const std::uint64_t own = s.alignment == 0 ? 1 : s.alignment;
        if (own > (std::uint64_t(1) << 30))
            return fail(ErrorCode::InvalidProgram,
                "segment " + std::to_string(i) + " asks for an alignment of " + std::to_string(own)
                    + " bytes, more than ptelens supports (1 GiB)",
                std::nullopt, indexPath("segments", i));
        const std::uint64_t align = std::lcm(segmentAlignment, own);
        s.offset = base::roundUp(end, align);
        s.size = content;
        end = s.offset + s.size;
    }
    return end;
}

} // namespace serialize

Result<SerializedPte> serializePte(const Program& program, const WriteOptions& options)
{
    PTE_CHECK(checkOptions(options));
    // Buffer.storage must satisfy both the constant tensor alignment (what EXIR patches it to) and the
    // delegate alignment option; both are powers of two, so the larger one does.
    const std::uint64_t bufferAlign =
        std::max<std::uint64_t>(options.constantTensorAlignment, options.delegateAlignment);
    const std::uint64_t maxAlign = std::max<std::uint64_t>(bufferAlign, 16);

    std::vector<DataSegment> segments = program.segments;
    PTE_TRY(const std::uint64_t segmentDataSize, serialize::layoutSegments(segments, options.segmentAlignment));

    const std::uint64_t estimate = estimateFlatbufferSize(program, maxAlign);
    if (estimate > kFlatbufferBudget)
        return fail(ErrorCode::Unsupported,
            "the program needs about " + std::to_string(estimate >> 20)
                + " MiB of flatbuffer (inline constants, inline delegate blobs, instructions), more than the 2 GiB "
                  "a flatbuffer can hold; move large data to segments");

    FlatbufferWriter writer(bufferAlign, options.delegateAlignment);
    PTE_TRY(auto detached, writer.write(program, segments));
    if (detached.size() < 8 || detached.size() > kFlatbufferLimit)
        return fail(
            ErrorCode::Internal, "the flatbuffer builder produced " + std::to_string(detached.size()) + " bytes");
    auto owner = std::make_shared<flatbuffers::DetachedBuffer>(std::move(detached));
    const Bytes fbBytes(owner, std::span<const std::uint8_t>(owner->data(), owner->size()));

    SerializedPte out;
    if (segmentDataSize == 0) {
        out.parts.push_back(fbBytes);
        out.programSize = fbBytes.size();
        out.segmentBaseOffset = 0;
        out.totalSize = fbBytes.size();
        return out;
    }

    const std::uint64_t paddedHeader = base::roundUp(kExtendedHeaderLength, maxAlign);
    out.programSize = paddedHeader + fbBytes.size();
    out.segmentBaseOffset = base::roundUp(out.programSize, options.segmentAlignment);
    out.totalSize = out.segmentBaseOffset + segmentDataSize;

    std::vector<std::uint8_t> head(8 + paddedHeader, 0);
    std::uint32_t root = 0;
    std::memcpy(&root, fbBytes.data(), 4); // little-endian host (flatbuffers requires it here too)
    putU32(head.data(), root + std::uint32_t(paddedHeader));
    std::memcpy(head.data() + 4, fbBytes.data() + 4, 4); // "ET12"
    std::memcpy(head.data() + 8, "eh00", 4);
    putU32(head.data() + 12, kExtendedHeaderLength);
    putU64(head.data() + 16, out.programSize);
    putU64(head.data() + 24, out.segmentBaseOffset);
    putU64(head.data() + 32, segmentDataSize);

    // One zero buffer serves every gap: the largest is below the largest segment alignment.
    std::uint64_t maxGap = out.segmentBaseOffset - out.programSize;
    {
        std::uint64_t end = 0;
        for (const auto& s : segments) {
            maxGap = std::max(maxGap, s.offset - end);
            end = s.offset + s.size;
        }
    }
    const Bytes zeros = Bytes::fromVector(std::vector<std::uint8_t>(maxGap, 0));
    auto pad = [&](std::uint64_t n) {
        if (n > 0)
            out.parts.push_back(zeros.slice(0, n));
    };

    out.parts.push_back(Bytes::fromVector(std::move(head)));
    out.parts.push_back(fbBytes.slice(8, fbBytes.size() - 8));
    pad(out.segmentBaseOffset - out.programSize);
    std::uint64_t end = 0;
    for (const auto& s : segments) {
        pad(s.offset - end);
        if (!s.data.empty())
            out.parts.push_back(s.data);
        for (const auto& piece : s.pieces)
            if (!piece.empty())
                out.parts.push_back(piece);
        end = s.offset + s.size;
    }
    return out;
}

Result<void> writeSerializedPte(const SerializedPte& serialized, const std::string& path, SyncPolicy sync)
{
    std::vector<std::span<const std::uint8_t>> spans;
    spans.reserve(serialized.parts.size());
    for (const auto& p : serialized.parts)
        spans.push_back(p.span());
    return writeFileAtomically(path, spans, sync);
}

Result<void> writePte(const Program& program, const std::string& path, const WriteOptions& options)
{
    auto serialized = serializePte(program, options);
    if (!serialized) {
        auto e = std::move(serialized).error();
        e.message = "cannot write " + path + ": " + e.message;
        return fail(std::move(e));
    }
    return writeSerializedPte(*serialized, path, options.sync);
}

std::vector<std::uint8_t> concatenate(const SerializedPte& serialized)
{
    std::vector<std::uint8_t> out;
    out.reserve(serialized.totalSize);
    for (const auto& p : serialized.parts)
        out.insert(out.end(), p.data(), p.data() + p.size());
    return out;
}

// ---------------------------------------------------------------------------------------------------------------
// EXIR's serialize step.

Result<Program> layoutForSerialization(Program p, const std::vector<Bytes>& mutableData,
    const std::vector<std::pair<std::string, Bytes>>& namedData, const SerializeOptions& options)
{
    PTE_CHECK(checkOptions(options.write));
    if (!p.segments.empty())
        return fail(ErrorCode::InvalidInput,
            "the program already has " + std::to_string(p.segments.size())
                + " segments; layoutForSerialization expects an emitted program (constants in constant_buffer, "
                  "delegate blobs inline)",
            std::nullopt, "segments");
    if (p.constantSegment)
        return fail(
            ErrorCode::InvalidInput, "the program already has a constant segment", std::nullopt, "constant_segment");
    if (p.mutableDataSegments)
        return fail(ErrorCode::InvalidInput, "the program already has mutable data segments", std::nullopt,
            "mutable_data_segments");
    if (p.namedData)
        return fail(ErrorCode::InvalidInput, "the program already has named data", std::nullopt, "named_data");

    std::vector<DataSegment> segments;

    // 1. Constant segment (always segment 0): tensors in index order, each but the last padded.
    {
        SubsegmentOffsets cs;
        cs.segmentIndex = 0;
        std::uint64_t total = 0;
        const std::size_t n = p.constantBuffer.size();
        for (std::size_t i = 0; i < n; ++i) {
            const std::uint64_t len = p.constantBuffer[i].storage.size();
            cs.offsets.push_back(total);
            total += len;
            if (i + 1 < n)
                total = base::roundUp(total, options.write.constantTensorAlignment);
        }
        if (cs.offsets.empty())
            cs.offsets.push_back(0);
        // The segment is a list of views (the tensors, usually mapped from the input, and shared zero padding):
        // weights are written straight from their mapping, never copied into one buffer.
        static const Bytes kZeros = Bytes::fromVector(std::vector<std::uint8_t>(4096, 0));
        DataSegment seg;
        std::uint64_t at = 0;
        for (std::size_t i = 0; i < n; ++i) {
            for (std::uint64_t gap = cs.offsets[i] - at; gap > 0;) {
                const auto chunk = std::min<std::uint64_t>(gap, kZeros.size());
                seg.pieces.push_back(kZeros.slice(0, chunk));
                gap -= chunk;
            }
            const auto& s = p.constantBuffer[i].storage;
            if (!s.empty())
                seg.pieces.push_back(s);
            at = cs.offsets[i] + s.size();
        }
        seg.size = total;
        segments.push_back(std::move(seg));
        p.constantSegment = std::move(cs);
        p.constantBuffer.clear();
    }

    // 2. Mutable data: placeholder entry 0, packed without padding; a segment only when non-empty.
    if (!mutableData.empty()) {
        if (!mutableData.front().empty())
            return fail(ErrorCode::InvalidInput,
                "mutable data entry 0 must be the empty placeholder, not " + std::to_string(mutableData.front().size())
                    + " bytes",
                std::nullopt, "mutable_data[0]");
        SubsegmentOffsets ms;
        std::uint64_t total = 0;
        for (const auto& m : mutableData) {
            ms.offsets.push_back(total);
            total += m.size();
        }
        if (total > 0) {
            std::vector<std::uint8_t> data;
            data.reserve(total);
            for (const auto& m : mutableData)
                data.insert(data.end(), m.data(), m.data() + m.size());
            ms.segmentIndex = std::uint32_t(segments.size());
            DataSegment seg;
            seg.data = Bytes::fromVector(std::move(data));
            seg.size = seg.data.size();
            segments.push_back(std::move(seg));
            p.mutableDataSegments = std::vector<SubsegmentOffsets> { std::move(ms) };
        }
    }

    // 3. Delegate blobs: non-empty inline blobs move to segments (deduplicated by content).
    {
        const std::size_t inlineCount = p.backendDelegateData.size();
        std::vector<bool> referenced(inlineCount, false);
        std::vector<Buffer> remaining;
        std::map<std::string, std::uint32_t> segmentByHash;
        for (std::size_t pi = 0; pi < p.executionPlan.size(); ++pi) {
            auto& plan = p.executionPlan[pi];
            for (std::size_t di = 0; di < plan.delegates.size(); ++di) {
                auto& ref = plan.delegates[di].processed;
                const std::string path =
                    "execution_plan[" + std::to_string(pi) + "].delegates[" + std::to_string(di) + "].processed";
                if (ref.location != DataLocation::Inline)
                    return fail(ErrorCode::InvalidInput,
                        "delegate '" + plan.delegates[di].id
                            + "' refers to a segment, but an emitted program keeps delegate blobs inline",
                        std::nullopt, path);
                if (ref.index >= inlineCount)
                    return fail(ErrorCode::OutOfRange,
                        "delegate '" + plan.delegates[di].id + "' refers to inline blob " + std::to_string(ref.index)
                            + " but backend_delegate_data has " + std::to_string(inlineCount) + " entries",
                        std::nullopt, path + ".index");
                referenced[ref.index] = true;
                if (!options.extractDelegateSegments)
                    continue;
                const Bytes& blob = p.backendDelegateData[ref.index].storage;
                if (blob.empty()) {
                    // Empty blobs stay inline, one entry per delegate, re-indexed.
                    ref.index = std::uint32_t(remaining.size());
                    remaining.push_back(Buffer { blob });
                    continue;
                }
                const std::string hash = sha256Hex(blob.span());
                auto it = segmentByHash.find(hash);
                if (it == segmentByHash.end()) {
                    it = segmentByHash.emplace(hash, std::uint32_t(segments.size())).first;
                    DataSegment seg;
                    seg.data = blob;
                    seg.size = blob.size();
                    segments.push_back(std::move(seg));
                }
                ref.location = DataLocation::Segment;
                ref.index = it->second;
            }
        }
        for (std::size_t i = 0; i < inlineCount; ++i)
            if (!referenced[i])
                return fail(ErrorCode::InvalidProgram,
                    "backend_delegate_data[" + std::to_string(i) + "] is not referenced by any delegate", std::nullopt,
                    indexPath("backend_delegate_data", i));
        if (options.extractDelegateSegments)
            p.backendDelegateData = std::move(remaining);
    }

    // 4. Named data: one segment per distinct buffer, in insertion order.
    if (!namedData.empty()) {
        std::vector<NamedData> entries;
        std::set<std::string> keys;
        std::map<std::string, std::uint32_t> segmentByHash;
        for (std::size_t i = 0; i < namedData.size(); ++i) {
            const auto& [key, data] = namedData[i];
            if (!keys.insert(key).second)
                return fail(ErrorCode::InvalidInput, "named data key '" + key + "' appears more than once",
                    std::nullopt, indexPath("named_data", i));
            const std::string hash = sha256Hex(data.span());
            auto it = segmentByHash.find(hash);
            if (it == segmentByHash.end()) {
                it = segmentByHash.emplace(hash, std::uint32_t(segments.size())).first;
                DataSegment seg;
                seg.data = data;
                seg.size = data.size();
                segments.push_back(std::move(seg));
            }
            entries.push_back(NamedData { key, it->second });
        }
        p.namedData = std::move(entries);
    }

    PTE_TRY(const std::uint64_t total, serialize::layoutSegments(segments, options.write.segmentAlignment));
    (void)total;
    p.segments = std::move(segments);
    return p;
}

} // namespace pte
