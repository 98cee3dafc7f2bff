// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "pte/ptereader.h"

#include "base/fieldpath.h"
#include "pte/bundledprogram.h"
#include "pte/mappedfile.h"
#include "pte/schema/program_generated.h"
#include "ptefile/ptereader_p.h"

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <set>
#include <system_error>

namespace pte {

namespace fb = executorch_flatbuffer;

namespace {

constexpr std::uint64_t kSegmentAlignment = 128;
constexpr std::size_t kRuntimeHeadBytes = 64;

using detail::indexPath;

bool magicIs(const std::uint8_t* p, const char* m) { return std::memcmp(p, m, 4) == 0; }

bool isDigit(std::uint8_t c) { return c >= '0' && c <= '9'; }

/** Decodes the verified flatbuffer into the model; structural problems become diagnostics. */
class Decoder
{
public:
    Decoder(const Bytes& fbBytes, Diagnostics& diags, detail::FileFacts& facts)
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
    detail::FileFacts& m_facts;
    bool m_segmentsPresent = false;
};

Error notAPte(const std::string& name, const std::string& what, std::uint64_t offset = 4)
{
    return makeError(ErrorCode::NotAPteFile, name + " is not an ExecuTorch program (.pte): " + what, offset);
}

/** Explains what a file that is not ET12 looks like. */
Error identifyForeign(const std::uint8_t* d, std::size_t n, const std::string& name)
{
    const std::uint8_t* id = d + 4;
    if (n >= 4 && magicIs(d, "PK\x03\x04"))
        return notAPte(name,
            "it is a ZIP archive (for example a torch.export .pt2 or an ETRecord; open it with 'ptelens-cli graph')",
            0);
    if (n >= 4
        && magicIs(d,
            "\x7f"
            "ELF"))
        return notAPte(name, "it is an ELF executable or shared library", 0);
    if (n >= 12 && id[4] == 'E' && id[5] == 'D' && isDigit(id[6]) && isDigit(id[7]))
        return notAPte(name,
            "it looks like an ETDump profiling/debug trace (size-prefixed flatbuffer with identifier "
                + detail::describeMagic(id + 4, 4) + " at byte 8)",
            8);
    if (id[0] == 'E' && id[1] == 'D' && isDigit(id[2]) && isDigit(id[3]))
        return notAPte(name, "it looks like an ETDump (identifier " + detail::describeMagic(id, 4) + ")");
    if (magicIs(id, "BP08") || (id[0] == 'B' && id[1] == 'P' && isDigit(id[2]) && isDigit(id[3])))
        return notAPte(name,
            "it is a BundledProgram (.bpte, identifier " + detail::describeMagic(id, 4)
                + "), which wraps a program together with test inputs and expected outputs");
    if (magicIs(id, "FT01"))
        return notAPte(name, "it is a .ptd external tensor data file (FlatTensor, identifier FT01)");
    if (id[0] == 'E' && id[1] == 'T')
        return makeError(ErrorCode::UnsupportedVersion,
            name + " is an ExecuTorch program with identifier " + detail::describeMagic(id, 4)
                + ", but only ET12 programs are supported (the runtime refuses other versions)",
            4);
    const auto first = std::find_if(d, d + n, [](std::uint8_t c) { return c != ' ' && c != '\n' && c != '\t'; });
    if (first != d + n && (*first == '{' || *first == '['))
        return notAPte(name, "it looks like a JSON text file", 0);
    return notAPte(name,
        "bytes 4..7 are " + detail::describeMagic(id, 4)
            + " instead of the file identifier 'ET12' (the file is not a flatbuffer program, or it is corrupt)");
}

std::set<std::string> externalNames(const Program& program)
{
    std::set<std::string> names;
    for (const auto& plan : program.executionPlan)
        for (const auto& v : plan.values)
            if (const auto* t = v.tensor())
                if (t->extraTensorInfo && t->extraTensorInfo->location == TensorDataLocation::External
                    && t->extraTensorInfo->fullyQualifiedName)
                    names.insert(*t->extraTensorInfo->fullyQualifiedName);
    return names;
}

void resolveExternal(PteFile& file, const ReadOptions& options, bool fromDisk)
{
    const auto names = externalNames(*file.program);
    auto diag = [&](Severity s, ErrorCode c, std::string msg) {
        file.diagnostics.push_back(Diagnostic { s, c, std::move(msg), std::nullopt, {}, file.path });
    };
    if (!options.externalDataPath.empty()) {
        auto ext = readPtdFile(options.externalDataPath);
        if (ext)
            file.externalData = std::move(ext).value();
        else
            diag(Severity::Error, ext.error().code, "cannot read the external data file: " + ext.error().toString());
        return;
    }
    if (names.empty() || !fromDisk || !options.findExternalDataNextToFile)
        return;
    std::error_code ec;
    const auto dir = std::filesystem::path(file.path).parent_path();
    std::vector<std::filesystem::path> candidates;
    for (std::filesystem::directory_iterator it(dir.empty() ? std::filesystem::path(".") : dir, ec), end;
         !ec && it != end; it.increment(ec)) {
        if (it->path().extension() == ".ptd")
            candidates.push_back(dir.empty() ? it->path().filename() : it->path());
    }
    std::sort(candidates.begin(), candidates.end());
    std::optional<ExternalData> best;
    std::size_t bestCovered = 0;
    for (const auto& c : candidates) {
        auto ext = readPtdFile(c.string());
        if (!ext)
            continue;
        std::size_t covered = 0;
        for (const auto& n : names)
            covered += ext->tensors.count(n);
        // A .ptd that provides none of the program's names belongs to another program in the same folder.
        if (covered > bestCovered) {
            bestCovered = covered;
            best = std::move(ext).value();
        }
        if (covered == names.size())
            break;
    }
    if (best)
        file.externalData = std::move(best);
    else
        diag(Severity::Warning, ErrorCode::OutOfRange,
            "the program has " + std::to_string(names.size())
                + " EXTERNAL tensor(s) but no .ptd file next to it provides them; the runtime needs the data "
                  "map at load time");
}

Result<std::shared_ptr<const PteFile>> readBundled(
    Bytes bytes, const std::string& name, const ReadOptions& options, bool fromDisk);

Result<std::shared_ptr<const PteFile>> readImpl(
    Bytes bytes, const std::string& name, const ReadOptions& options, bool fromDisk)
{
    const std::uint8_t* d = bytes.data();
    const std::size_t n = bytes.size();
    if (n < 8)
        return fail(ErrorCode::Truncated,
            name + " is too short to be a .pte: " + std::to_string(n)
                + " bytes, but a program starts with an 8-byte flatbuffer prefix (root offset + identifier ET12)",
            n);
    if (isBundledProgram(bytes.span()))
        return readBundled(std::move(bytes), name, options, fromDisk);
    if (!magicIs(d + 4, "ET12"))
        return fail(identifyForeign(d, n, name));

    auto file = std::make_shared<PteFile>();
    file->path = name;
    file->file = bytes;
    detail::FileFacts facts;
    facts.name = name;
    auto diag = [&](Severity s, ErrorCode c, std::string msg, std::optional<std::uint64_t> off, std::string path = {}) {
        file->diagnostics.push_back(Diagnostic { s, c, std::move(msg), off, std::move(path), name });
    };
    if (n < kRuntimeHeadBytes)
        diag(Severity::Error, ErrorCode::Truncated,
            "the file is " + std::to_string(n)
                + " bytes; the runtime reads the first 64 bytes and refuses shorter files",
            n);

    std::uint64_t programSize = n;
    if (n >= 12 && magicIs(d + 8, "eh00")) {
        if (n < 16)
            return fail(ErrorCode::Truncated, name + ": the file ends inside the eh00 extended header", n);
        ExtendedHeader h;
        h.length = detail::loadU32(d + 12);
        if (h.length < 24)
            return fail(ErrorCode::BadExtendedHeader,
                name + ": the eh00 extended header length is " + std::to_string(h.length)
                    + ", smaller than the minimum 24 (the runtime refuses the file)",
                12);
        const std::size_t needed = 8 + std::min<std::uint32_t>(h.length, 32);
        if (n < needed)
            return fail(ErrorCode::Truncated,
                name + ": the file (" + std::to_string(n) + " bytes) ends inside the eh00 extended header, which needs "
                    + std::to_string(needed) + " bytes",
                n);
        h.programSize = detail::loadU64(d + 16);
        h.segmentBaseOffset = detail::loadU64(d + 24);
        h.segmentDataSize = h.length >= 32 ? detail::loadU64(d + 32) : 0;
        if (h.programSize > n)
            return fail(ErrorCode::Truncated,
                name + ": the extended header's program_size " + std::to_string(h.programSize)
                    + " is larger than the file (" + std::to_string(n) + " bytes); the file is truncated",
                16);
        if (h.programSize < needed)
            return fail(ErrorCode::BadExtendedHeader,
                name + ": the extended header's program_size " + std::to_string(h.programSize)
                    + " is smaller than the header itself",
                16);
        if (h.length != 24 && h.length != 32)
            diag(Severity::Warning, ErrorCode::BadExtendedHeader,
                "unusual eh00 header length " + std::to_string(h.length) + " (ExecuTorch writes 32, pre-1.0 files 24)",
                12);
        if (h.length == 24)
            diag(Severity::Info, ErrorCode::BadExtendedHeader,
                "pre-1.0 24-byte extended header (no segment_data_size field)", 12);
        // The runtime's file-size check.
        if ((h.segmentDataSize == 0 && h.segmentBaseOffset == 0) || h.segmentDataSize > 0) {
            const bool overflow = h.segmentBaseOffset > UINT64_MAX - h.segmentDataSize;
            const std::uint64_t expected =
                h.segmentBaseOffset == 0 ? h.programSize : h.segmentBaseOffset + h.segmentDataSize;
            if (overflow || expected > n)
                diag(Severity::Error, ErrorCode::Truncated,
                    "the extended header says the file has at least "
                        + (overflow ? std::string("2^64") : std::to_string(expected)) + " bytes (segment_base_offset "
                        + std::to_string(h.segmentBaseOffset) + " + segment_data_size "
                        + std::to_string(h.segmentDataSize) + ") but it has " + std::to_string(n)
                        + "; the runtime refuses truncated files",
                    24);
            else if (h.segmentDataSize > 0 && expected != n)
                diag(Severity::Warning, ErrorCode::BadExtendedHeader,
                    std::to_string(n - expected) + " bytes follow the last segment (EXIR writes none)", expected);
        }
        if (h.segmentBaseOffset != 0 && h.segmentBaseOffset < h.programSize)
            diag(Severity::Warning, ErrorCode::BadExtendedHeader,
                "segment_base_offset " + std::to_string(h.segmentBaseOffset) + " lies inside the program (program_size "
                    + std::to_string(h.programSize) + ")",
                24);
        if (h.segmentBaseOffset % kSegmentAlignment != 0)
            diag(Severity::Warning, ErrorCode::Misaligned,
                "segment_base_offset " + std::to_string(h.segmentBaseOffset) + " is not a multiple of 128", 24);
        programSize = h.programSize;
        file->header = h;
        // The runtime treats segment_base_offset 0 as "no segments".
        facts.hasHeader = h.segmentBaseOffset != 0;
        facts.segmentBaseOffset = h.segmentBaseOffset;
    }
    file->flatbufferSize = programSize;

    const std::uint32_t root = detail::loadU32(d);
    if (root < 8 || std::uint64_t(root) + 4 > programSize)
        return fail(ErrorCode::VerificationFailed,
            name + ": the flatbuffer root offset " + std::to_string(root) + " lies outside the program bytes [8, "
                + std::to_string(programSize) + "); the file is corrupt",
            0);
    if (programSize >= FLATBUFFERS_MAX_BUFFER_SIZE)
        return fail(ErrorCode::Unsupported,
            name + ": the program flatbuffer is " + std::to_string(programSize)
                + " bytes, above the flatbuffers limit of 2 GiB",
            16);

    // The program bytes must be aligned for the flatbuffer accessors; a mapping always is. Only an
    // unaligned in-memory buffer is copied (the flatbuffer part only, never the segments).
    Bytes fbBytes = bytes.slice(0, std::size_t(programSize));
    if (reinterpret_cast<std::uintptr_t>(d) % alignof(std::max_align_t) != 0) {
        auto owner = std::make_shared<std::vector<std::max_align_t>>(
            (std::size_t(programSize) + sizeof(std::max_align_t) - 1) / sizeof(std::max_align_t));
        std::memcpy(owner->data(), d, std::size_t(programSize));
        fbBytes = Bytes(owner,
            std::span<const std::uint8_t>(
                reinterpret_cast<const std::uint8_t*>(owner->data()), std::size_t(programSize)));
    }

    if (options.verify) {
        flatbuffers::Verifier::Options vo;
        vo.max_depth = options.maxDepth;
        vo.max_tables = options.maxTables;
        vo.check_alignment = true;
        flatbuffers::Verifier verifier(fbBytes.data(), fbBytes.size(), vo);
        if (!verifier.VerifyBuffer<fb::Program>("ET12"))
            return fail(ErrorCode::VerificationFailed,
                name + ": the flatbuffers verifier rejected the program (bytes 0.." + std::to_string(programSize)
                    + "): an offset, vector or string points outside the program, a string is not NUL-terminated, "
                      "a scalar is misaligned, or tables nest deeper than "
                    + std::to_string(options.maxDepth) + " / number more than " + std::to_string(options.maxTables)
                    + ". The file is corrupt or truncated; the runtime would refuse it.",
                0);
    }

    Decoder decoder(fbBytes, file->diagnostics, facts);
    Program program = decoder.decode(fb::GetProgram(fbBytes.data()));

    // Segment payloads: slices of the file (zero copy).
    std::uint64_t prevOffset = 0;
    for (std::size_t i = 0; i < program.segments.size(); ++i) {
        auto& seg = program.segments[i];
        const std::string path = indexPath("segments", i);
        if (i > 0 && seg.offset < prevOffset)
            diag(Severity::Warning, ErrorCode::InvalidProgram,
                "segments are not sorted by offset (" + std::to_string(seg.offset) + " after "
                    + std::to_string(prevOffset) + ")",
                std::nullopt, path);
        prevOffset = seg.offset;
        if (seg.offset % kSegmentAlignment != 0)
            diag(Severity::Warning, ErrorCode::Misaligned,
                "segment offset " + std::to_string(seg.offset) + " is not a multiple of 128", std::nullopt,
                path + ".offset");
        if (seg.size == 0)
            continue;
        if (!facts.hasHeader) {
            diag(Severity::Warning, ErrorCode::BadExtendedHeader,
                "segment " + std::to_string(i) + " has " + std::to_string(seg.size)
                    + " bytes but the file has no extended header (or its segment_base_offset is 0), so its data "
                      "cannot be located",
                std::nullopt, path);
            continue;
        }
        const std::uint64_t base = facts.segmentBaseOffset;
        const bool overflow = seg.offset > UINT64_MAX - base || base + seg.offset > UINT64_MAX - seg.size;
        if (overflow || base + seg.offset + seg.size > n) {
            diag(Severity::Error, ErrorCode::Truncated,
                "segment " + std::to_string(i) + " (offset " + std::to_string(seg.offset) + ", size "
                    + std::to_string(seg.size) + ", at file offset "
                    + (overflow ? std::string("beyond 2^64") : std::to_string(base + seg.offset))
                    + ") runs past the end of the file (" + std::to_string(n) + " bytes)",
                overflow ? std::nullopt : std::optional<std::uint64_t>(base + seg.offset), path);
            continue;
        }
        seg.data = bytes.slice(std::size_t(base + seg.offset), std::size_t(seg.size));
        if (base + seg.offset < programSize)
            diag(Severity::Warning, ErrorCode::InvalidProgram,
                "segment " + std::to_string(i) + " overlaps the program flatbuffer", base + seg.offset, path);
    }

    // Layout invariant: the padding before the first segment and the gaps between segments are zeros.
    if (facts.hasHeader && facts.segmentBaseOffset <= n) {
        std::vector<std::pair<std::uint64_t, std::uint64_t>> ranges; // [begin, end) of data in the file
        for (const auto& seg : program.segments)
            if (!seg.data.empty())
                ranges.emplace_back(
                    facts.segmentBaseOffset + seg.offset, facts.segmentBaseOffset + seg.offset + seg.size);
        std::sort(ranges.begin(), ranges.end());
        std::uint64_t pos = programSize;
        auto checkGap = [&](std::uint64_t begin, std::uint64_t end) {
            constexpr std::uint64_t kMaxScan = 1 << 20;
            if (begin >= end || end - begin > kMaxScan)
                return;
            for (std::uint64_t i = begin; i < end; ++i)
                if (d[i] != 0) {
                    diag(Severity::Warning, ErrorCode::InvalidProgram,
                        "non-zero byte in the padding between the program and segment data (EXIR writes zeros)", i);
                    return;
                }
        };
        for (const auto& [b, e] : ranges) {
            checkGap(pos, std::min<std::uint64_t>(b, n));
            pos = std::max(pos, e);
        }
    }

    file->program = std::make_shared<const Program>(std::move(program));
    resolveExternal(*file, options, fromDisk);
    auto checks = detail::checkProgramImpl(*file->program, file->externalData, &facts);
    for (auto& c : checks)
        file->diagnostics.push_back(std::move(c));
    return std::shared_ptr<const PteFile>(std::move(file));
}

/** A .bpte: the program inside, read as a .pte, plus the test cases (bundledprogram.h). */
Result<std::shared_ptr<const PteFile>> readBundled(
    Bytes bytes, const std::string& name, const ReadOptions& options, bool fromDisk)
{
    PTE_TRY(auto bundled, readBundledProgram(std::move(bytes), name));
    const std::string where = "the program inside the bundled program (bytes " + std::to_string(bundled.programOffset)
        + ".." + std::to_string(bundled.programOffset + bundled.programSize) + ")";
    if (isBundledProgram(bundled.program().span()))
        return fail(
            ErrorCode::InvalidInput, name + ": " + where + " is another bundled program", bundled.programOffset);
    auto inner = readImpl(bundled.program(), name, options, fromDisk);
    if (!inner) {
        auto e = std::move(inner).error();
        e.message = name + ": " + where + ": " + e.message;
        return e;
    }
    auto file = std::make_shared<PteFile>(**inner);
    for (auto& diag : file->diagnostics)
        if (diag.file == name)
            diag.file = name + ":program";
    file->diagnostics.push_back(Diagnostic { Severity::Info, ErrorCode::InvalidInput,
        "a bundled program (BP08, version " + std::to_string(bundled.version) + ") with "
            + std::to_string(bundled.testSuites.size()) + " test suite(s); the program is bytes "
            + std::to_string(bundled.programOffset) + ".." + std::to_string(bundled.programOffset + bundled.programSize)
            + " of the file, and its diagnostics count offsets from byte " + std::to_string(bundled.programOffset),
        bundled.programOffset, "program", name });
    for (auto& diag : checkBundledProgram(bundled, *file->program, name))
        file->diagnostics.push_back(std::move(diag));
    file->bundled = std::make_shared<const BundledProgram>(std::move(bundled));
    return std::shared_ptr<const PteFile>(std::move(file));
}

} // namespace

Result<std::shared_ptr<const PteFile>> readPteFile(const std::string& path, const ReadOptions& options)
{
    PTE_TRY(Bytes bytes, mapFile(path));
    return readImpl(std::move(bytes), path, options, true);
}

Result<std::shared_ptr<const PteFile>> readPteBytes(Bytes bytes, const std::string& name, const ReadOptions& options)
{
    return readImpl(std::move(bytes), name, options, false);
}

Diagnostics checkProgram(const Program& program, const std::optional<ExternalData>& external)
{
    return detail::checkProgramImpl(program, external, nullptr);
}

} // namespace pte
