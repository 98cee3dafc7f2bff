// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "ptefile/programdecoder.h"

#include "base/fieldpath.h"
#include "pte/schema/program_generated.h"

namespace pte {

namespace fb = executorch_flatbuffer;

namespace {

using base::indexPath;

/** Decodes the verified flatbuffer into the model; structural problems become diagnostics. */
class ProgramDecoder
{
public:
    ProgramDecoder(const Bytes& fbBytes, Diagnostics& diags, ptefile::FileFacts& facts)
        : m_fb(fbBytes)
        , m_base(fbBytes.data())
        , m_diags(diags)
        , m_facts(facts)
    { }

    Program decode(const fb::Program* p)
    {
        Program out;
        out.version = p->version();
        if (const auto* plans = p->execution_plan()) {
            out.executionPlan.reserve(plans->size());
            for (flatbuffers::uoffset_t i = 0; i < plans->size(); ++i)
                out.executionPlan.push_back(decodePlan(plans->Get(i), indexPath("execution_plan", i)));
        } else {
            missing(p, "execution_plan", "the program has no execution_plan vector");
        }
        if (const auto* bufs = p->constant_buffer()) {
            for (flatbuffers::uoffset_t i = 0; i < bufs->size(); ++i) {
                const auto* b = bufs->Get(i);
                record(b, indexPath("constant_buffer", i));
                out.constantBuffer.push_back(Buffer { bytesOf(b->storage()) });
            }
        }
        if (const auto* bufs = p->backend_delegate_data()) {
            for (flatbuffers::uoffset_t i = 0; i < bufs->size(); ++i) {
                const auto* b = bufs->Get(i);
                record(b, indexPath("backend_delegate_data", i));
                out.backendDelegateData.push_back(Buffer { bytesOf(b->data()) });
            }
        }
        m_segmentsPresent = p->segments() != nullptr;
        if (const auto* segs = p->segments()) {
            for (flatbuffers::uoffset_t i = 0; i < segs->size(); ++i) {
                const auto* s = segs->Get(i);
                record(s, indexPath("segments", i));
                DataSegment seg;
                seg.offset = s->offset();
                seg.size = s->size();
                out.segments.push_back(seg);
            }
        }
        if (const auto* cs = p->constant_segment()) {
            record(cs, "constant_segment");
            out.constantSegment = decodeSubsegment(cs);
        }
        if (const auto* ms = p->mutable_data_segments()) {
            out.mutableDataSegments.emplace();
            for (flatbuffers::uoffset_t i = 0; i < ms->size(); ++i) {
                record(ms->Get(i), indexPath("mutable_data_segments", i));
                out.mutableDataSegments->push_back(decodeSubsegment(ms->Get(i)));
            }
        }
        if (const auto* nd = p->named_data()) {
            out.namedData.emplace();
            for (flatbuffers::uoffset_t i = 0; i < nd->size(); ++i) {
                const auto* n = nd->Get(i);
                const std::string path = indexPath("named_data", i);
                record(n, path);
                if (!n->key())
                    missing(n, path + ".key", "a named_data entry has no key");
                out.namedData->push_back(NamedData { str(n->key()), n->segment_index() });
            }
            if (!p->segments())
                missing(p, "segments", "named_data is present but the segments vector is missing");
        }
        return out;
    }

    [[nodiscard]] bool segmentsPresent() const { return m_segmentsPresent; }

private:
    std::uint64_t offsetOf(const void* p) const { return std::uint64_t(static_cast<const std::uint8_t*>(p) - m_base); }
    void record(const void* table, const std::string& path) { m_facts.offsets.emplace(path, offsetOf(table)); }

    void missing(const void* table, const std::string& path, const std::string& what)
    {
        m_diags.push_back(Diagnostic { Severity::Error, ErrorCode::InvalidProgram, what + "; the runtime requires it",
            offsetOf(table), path, m_facts.name });
    }

    Bytes bytesOf(const flatbuffers::Vector<std::uint8_t>* v) const
    {
        if (!v)
            return {};
        return m_fb.slice(std::size_t(v->data() - m_base), v->size());
    }
    static std::string str(const flatbuffers::String* s) { return s ? s->str() : std::string(); }
    static std::optional<std::string> optStr(const flatbuffers::String* s)
    {
        return s ? std::optional<std::string>(s->str()) : std::nullopt;
    }
    /**
     * A scalar vector's elements. Read byte-wise: the verifier only checks the 4-byte alignment of the
     * length prefix, so the elements of a [long]/[double]/[uint64] vector may sit at 4 mod 8 in a crafted
     * file, where Vector::Get would be a misaligned load.
     */
    template <typename T, typename V> static std::vector<T> vec(const flatbuffers::Vector<V>* v)
    {
        std::vector<T> out;
        if (v) {
            out.reserve(v->size());
            const auto* raw = reinterpret_cast<const std::uint8_t*>(v->Data());
            for (flatbuffers::uoffset_t i = 0; i < v->size(); ++i) {
                V value;
                std::memcpy(&value, raw + std::size_t(i) * sizeof(V), sizeof(V));
                out.push_back(static_cast<T>(flatbuffers::EndianScalar(value)));
            }
        }
        return out;
    }

    static SubsegmentOffsets decodeSubsegment(const fb::SubsegmentOffsets* s)
    {
        SubsegmentOffsets out;
        out.segmentIndex = s->segment_index();
        out.offsets = vec<std::uint64_t>(s->offsets());
        return out;
    }

    template <typename P> Tensor decodeTensor(const fb::Tensor* t, const P& path)
    {
        Tensor out;
        out.scalarType = static_cast<ScalarType>(static_cast<std::int8_t>(t->scalar_type()));
        out.storageOffset = t->storage_offset();
        if (!t->sizes())
            missing(t, path() + ".sizes", "a Tensor has no sizes vector");
        out.sizes = vec<std::int32_t>(t->sizes());
        if (!t->dim_order())
            missing(t, path() + ".dim_order", "a Tensor has no dim_order vector");
        out.dimOrder = vec<std::uint8_t>(t->dim_order());
        out.requiresGrad = t->requires_grad();
        out.dataBufferIdx = t->data_buffer_idx();
        if (const auto* a = t->allocation_info())
            out.allocationInfo = AllocationDetails { a->memory_id(), a->memory_offset_low(), a->memory_offset_high() };
        out.layout = t->layout();
        out.shapeDynamism = static_cast<ShapeDynamism>(static_cast<std::int8_t>(t->shape_dynamism()));
        if (const auto* e = t->extra_tensor_info()) {
            ExtraTensorInfo x;
            x.mutableDataSegmentsIdx = e->mutable_data_segments_idx();
            x.fullyQualifiedName = optStr(e->fully_qualified_name());
            x.location = static_cast<TensorDataLocation>(static_cast<std::int8_t>(e->location()));
            x.deviceType = static_cast<DeviceType>(static_cast<std::int8_t>(e->device_type()));
            x.deviceIndex = e->device_index();
            out.extraTensorInfo = std::move(x);
        }
        return out;
    }

    template <typename P> EValue decodeValue(const fb::EValue* e, const P& path)
    {
        EValue out;
        out.rawType = static_cast<std::uint8_t>(e->val_type());
        auto vpath = [&] { return path() + ".val"; };
        auto listMissing = [&](const void* table) { missing(table, vpath() + ".items", "a list value has no items"); };
        switch (e->val_type()) {
        case fb::KernelTypes::Null:
            out.val = Null {};
            break;
        case fb::KernelTypes::Int:
            if (const auto* v = e->val_as_Int())
                out.val = Int { v->int_val() };
            break;
        case fb::KernelTypes::Bool:
            if (const auto* v = e->val_as_Bool())
                out.val = Bool { v->bool_val() };
            break;
        case fb::KernelTypes::Double:
            if (const auto* v = e->val_as_Double())
                out.val = Double { v->double_val() };
            break;
        case fb::KernelTypes::Tensor:
            if (const auto* v = e->val_as_Tensor())
                out.val = decodeTensor(v, vpath);
            break;
        case fb::KernelTypes::String:
            if (const auto* v = e->val_as_String()) {
                if (!v->string_val())
                    missing(v, vpath() + ".string_val", "a String value has no string_val");
                out.val = String { str(v->string_val()) };
            }
            break;
        case fb::KernelTypes::IntList:
            if (const auto* v = e->val_as_IntList()) {
                if (!v->items())
                    listMissing(v);
                out.val = IntList { vec<std::int64_t>(v->items()) };
            }
            break;
        case fb::KernelTypes::DoubleList:
            if (const auto* v = e->val_as_DoubleList()) {
                if (!v->items())
                    listMissing(v);
                out.val = DoubleList { vec<double>(v->items()) };
            }
            break;
        case fb::KernelTypes::BoolList:
            if (const auto* v = e->val_as_BoolList()) {
                if (!v->items())
                    listMissing(v);
                BoolList l;
                if (const auto* items = v->items())
                    for (flatbuffers::uoffset_t i = 0; i < items->size(); ++i)
                        l.items.push_back(items->Get(i) != 0);
                out.val = std::move(l);
            }
            break;
        case fb::KernelTypes::TensorList:
            if (const auto* v = e->val_as_TensorList()) {
                if (!v->items())
                    listMissing(v);
                out.val = TensorList { vec<std::int32_t>(v->items()) };
            }
            break;
        case fb::KernelTypes::OptionalTensorList:
            if (const auto* v = e->val_as_OptionalTensorList()) {
                if (!v->items())
                    listMissing(v);
                out.val = OptionalTensorList { vec<std::int32_t>(v->items()) };
            }
            break;
        default:
            break; // NONE or an unknown code: kept as monostate + rawType, reported by the checks
        }
        return out;
    }

    template <typename P> Instruction decodeInstruction(const fb::Instruction* in, const P& path)
    {
        Instruction out;
        out.rawType = static_cast<std::uint8_t>(in->instr_args_type());
        auto apath = [&] { return path() + ".instr_args"; };
        switch (in->instr_args_type()) {
        case fb::InstructionArguments::KernelCall:
            if (const auto* k = in->instr_args_as_KernelCall()) {
                if (!k->args())
                    missing(k, apath() + ".args", "a KernelCall has no args vector");
                out.args = KernelCall { k->op_index(), vec<std::int32_t>(k->args()) };
            }
            break;
        case fb::InstructionArguments::DelegateCall:
            if (const auto* d = in->instr_args_as_DelegateCall()) {
                if (!d->args())
                    missing(d, apath() + ".args", "a DelegateCall has no args vector");
                out.args = DelegateCall { d->delegate_index(), vec<std::int32_t>(d->args()) };
            }
            break;
        case fb::InstructionArguments::MoveCall:
            if (const auto* m = in->instr_args_as_MoveCall())
                out.args = MoveCall { m->move_from(), m->move_to() };
            break;
        case fb::InstructionArguments::JumpFalseCall:
            if (const auto* j = in->instr_args_as_JumpFalseCall())
                out.args = JumpFalseCall { j->cond_value_index(), j->destination_instruction() };
            break;
        case fb::InstructionArguments::FreeCall:
            if (const auto* f = in->instr_args_as_FreeCall())
                out.args = FreeCall { f->value_index() };
            break;
        default:
            break;
        }
        return out;
    }

    ExecutionPlan decodePlan(const fb::ExecutionPlan* p, const std::string& path)
    {
        ExecutionPlan out;
        auto& po = m_facts.plans.emplace_back();
        po.plan = offsetOf(p);
        if (!p->name())
            missing(p, path + ".name", "a method has no name");
        out.name = str(p->name());
        if (const auto* c = p->container_meta_type())
            out.containerMetaType = ContainerMetadata { str(c->encoded_inp_str()), str(c->encoded_out_str()) };
        if (const auto* values = p->values()) {
            out.values.reserve(values->size());
            for (flatbuffers::uoffset_t i = 0; i < values->size(); ++i) {
                po.values.push_back(offsetOf(values->Get(i)));
                out.values.push_back(decodeValue(values->Get(i), [&] { return indexPath(path + ".values", i); }));
            }
        } else {
            missing(p, path + ".values", "a method has no values vector");
        }
        if (!p->inputs())
            missing(p, path + ".inputs", "a method has no inputs vector");
        out.inputs = vec<std::int32_t>(p->inputs());
        if (!p->outputs())
            missing(p, path + ".outputs", "a method has no outputs vector");
        out.outputs = vec<std::int32_t>(p->outputs());
        bool hasKernelCalls = false;
        if (const auto* chains = p->chains()) {
            for (flatbuffers::uoffset_t c = 0; c < chains->size(); ++c) {
                const auto* ch = chains->Get(c);
                const std::string cp = indexPath(path + ".chains", c);
                po.chains.push_back(offsetOf(ch));
                auto& instrOffsets = po.instructions.emplace_back();
                Chain chain;
                chain.inputs = vec<std::int32_t>(ch->inputs());
                chain.outputs = vec<std::int32_t>(ch->outputs());
                if (const auto* instrs = ch->instructions()) {
                    chain.instructions.reserve(instrs->size());
                    for (flatbuffers::uoffset_t i = 0; i < instrs->size(); ++i) {
                        instrOffsets.push_back(offsetOf(instrs->Get(i)));
                        chain.instructions.push_back(
                            decodeInstruction(instrs->Get(i), [&] { return indexPath(cp + ".instructions", i); }));
                        hasKernelCalls =
                            hasKernelCalls || chain.instructions.back().kind() == InstructionKind::KernelCall;
                    }
                } else {
                    missing(ch, cp + ".instructions", "a chain has no instructions vector");
                }
                if (const auto* st = ch->stacktrace()) {
                    chain.stacktrace.emplace();
                    for (flatbuffers::uoffset_t i = 0; i < st->size(); ++i) {
                        FrameList fl;
                        if (const auto* items = st->Get(i)->items()) {
                            for (flatbuffers::uoffset_t k = 0; k < items->size(); ++k) {
                                const auto* f = items->Get(k);
                                fl.items.push_back(Frame {
                                    optStr(f->filename()), f->lineno(), optStr(f->name()), optStr(f->context()) });
                            }
                        }
                        chain.stacktrace->push_back(std::move(fl));
                    }
                }
                out.chains.push_back(std::move(chain));
            }
        } else {
            missing(p, path + ".chains", "a method has no chains vector");
        }
        if (const auto* ops = p->operators()) {
            for (flatbuffers::uoffset_t i = 0; i < ops->size(); ++i) {
                const auto* op = ops->Get(i);
                const std::string opath = indexPath(path + ".operators", i);
                po.operators.push_back(offsetOf(op));
                if (!op->name())
                    missing(op, opath + ".name", "an operator has no name");
                if (!op->overload())
                    missing(op, opath + ".overload", "an operator has no overload string (an empty string is fine)");
                out.operators.push_back(Operator { str(op->name()), str(op->overload()) });
            }
        } else if (hasKernelCalls) {
            missing(p, path + ".operators", "a method with kernel calls has no operators vector");
        }
        if (const auto* dels = p->delegates()) {
            for (flatbuffers::uoffset_t i = 0; i < dels->size(); ++i) {
                const auto* d = dels->Get(i);
                const std::string dp = indexPath(path + ".delegates", i);
                po.delegates.push_back(offsetOf(d));
                BackendDelegate bd;
                if (!d->id())
                    missing(d, dp + ".id", "a delegate has no backend id");
                bd.id = str(d->id());
                if (const auto* r = d->processed())
                    bd.processed = BackendDelegateDataReference {
                        static_cast<DataLocation>(static_cast<std::int8_t>(r->location())), r->index()
                    };
                else
                    missing(d, dp + ".processed", "a delegate has no processed data reference");
                if (const auto* specs = d->compile_specs()) {
                    for (flatbuffers::uoffset_t k = 0; k < specs->size(); ++k) {
                        const auto* s = specs->Get(k);
                        const std::string sp = indexPath(dp + ".compile_specs", k);
                        if (!s->key())
                            missing(s, sp + ".key", "a compile spec has no key");
                        if (!s->value())
                            missing(s, sp + ".value", "a compile spec has no value");
                        bd.compileSpecs.push_back(CompileSpec { str(s->key()), bytesOf(s->value()) });
                    }
                }
                out.delegates.push_back(std::move(bd));
            }
        } else {
            missing(p, path + ".delegates", "a method has no delegates vector (it must be present even when empty)");
        }
        if (!p->non_const_buffer_sizes())
            missing(p, path + ".non_const_buffer_sizes", "a method has no non_const_buffer_sizes vector");
        out.nonConstBufferSizes = vec<std::int64_t>(p->non_const_buffer_sizes());
        if (const auto* dev = p->non_const_buffer_device()) {
            out.nonConstBufferDevice.emplace();
            for (flatbuffers::uoffset_t i = 0; i < dev->size(); ++i) {
                const auto* d = dev->Get(i);
                out.nonConstBufferDevice->push_back(NonConstBufferDevice { d->buffer_idx(),
                    static_cast<DeviceType>(static_cast<std::int8_t>(d->device_type())), d->device_index() });
            }
        }
        return out;
    }

    Bytes m_fb;
    const std::uint8_t* m_base;
    Diagnostics& m_diags;
    ptefile::FileFacts& m_facts;
    bool m_segmentsPresent = false;
};

} // namespace

Program ptefile::decodeProgramFlatbuffer(const Bytes& fbBytes, Diagnostics& diags, FileFacts& facts)
{
    ProgramDecoder decoder(fbBytes, diags, facts);
    return decoder.decode(fb::GetProgram(fbBytes.data()));
}

} // namespace pte
