// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "etdump/etdumpdecoder.h"

#include "base/fieldpath.h"
#include "base/flatbuffervectors.h"
#include "pte/schema/etdump_generated.h"
#include "pte/schema/etdump_v010_generated.h"

#include <unordered_map>

namespace pte {

namespace {

namespace fbe = ::etdump;
namespace fbv = ::etdump_v010;

class EtdumpDecoder
{
public:
    EtdumpDecoder(EtDump& dump, const std::uint8_t* base)
        : m_dump(dump)
        , m_base(base)
    { }

    template <typename Root> void decode(const Root* root)
    {
        m_dump.version = root->version();
        const auto* runs = root->run_data();
        if (!runs)
            return;
        std::size_t total = 0;
        for (flatbuffers::uoffset_t r = 0; r < runs->size(); ++r)
            if (const auto* ev = runs->Get(r)->events())
                total += ev->size();
        m_dump.events.reserve(total);
        m_dump.runs.reserve(runs->size());
        for (flatbuffers::uoffset_t r = 0; r < runs->size(); ++r)
            decodeRun(runs->Get(r), r);
        if (m_undecodedDebug)
            diag(Severity::Warning, ErrorCode::Unsupported,
                std::to_string(m_undecodedDebug)
                    + " debug event(s) of the v0.1.0 layout were not decoded (that release logged values in a layout "
                      "ptelens does not read); they are shown as empty events",
                m_firstUndecoded, m_firstUndecodedPath);
        if (m_multiMember)
            diag(Severity::Warning, ErrorCode::InvalidInput,
                std::to_string(m_multiMember)
                    + " event(s) set more than one of profile_event, allocation_event and debug_event (the schema "
                      "allows exactly one); the first set member was used",
                m_firstMulti, m_firstMultiPath);
        if (m_badAllocator)
            diag(Severity::Warning, ErrorCode::OutOfRange,
                std::to_string(m_badAllocator)
                    + " allocation event(s) name an allocator the block does not have (ids are 1-based)",
                m_firstBadAllocator, m_firstBadAllocatorPath);
    }

private:
    std::uint32_t offsetOf(const void* p) const { return std::uint32_t(static_cast<const std::uint8_t*>(p) - m_base); }

    void diag(Severity s, ErrorCode c, std::string msg, std::optional<std::uint64_t> off, std::string path)
    {
        m_dump.diagnostics.push_back(Diagnostic { s, c, std::move(msg), off, std::move(path), m_dump.path });
    }

    std::uint32_t intern(const flatbuffers::String* s)
    {
        if (!s)
            return kEtdumpNoString;
        const std::string_view v(s->c_str(), s->size());
        if (const auto it = m_interned.find(v); it != m_interned.end())
            return it->second;
        const auto id = std::uint32_t(m_dump.strings.size());
        m_dump.strings.emplace_back(v);
        m_interned.emplace(v, id); // the view points into the mapped file, which outlives the decoder
        return id;
    }

    /** A delegate identifier: an empty string is no identifier (the Inspector reads "" as none). */
    std::uint32_t internIdentifier(const flatbuffers::String* s)
    {
        return s && s->size() > 0 ? intern(s) : kEtdumpNoString;
    }

    static EtdumpTensor tensor(const fbe::Tensor* t)
    {
        EtdumpTensor out;
        out.scalarType = static_cast<ScalarType>(static_cast<std::int8_t>(t->scalar_type()));
        out.sizes = base::scalarVector(t->sizes());
        out.strides = base::scalarVector(t->strides());
        out.offset = t->offset();
        return out;
    }

    EtdumpValue value(const fbe::Value* v)
    {
        EtdumpValue out;
        if (!v)
            return out;
        out.type = static_cast<EtdumpValueType>(static_cast<std::int8_t>(v->val()));
        if (const auto* t = v->tensor())
            out.tensors.push_back(tensor(t));
        if (const auto* l = v->tensor_list(); l && l->tensors())
            for (flatbuffers::uoffset_t i = 0; i < l->tensors()->size(); ++i)
                out.tensors.push_back(tensor(l->tensors()->Get(i)));
        if (const auto* i = v->int_value())
            out.intValue = i->int_val();
        if (const auto* f = v->float_value())
            out.doubleValue = double(f->float_val());
        if (const auto* d = v->double_value())
            out.doubleValue = d->double_val();
        if (const auto* b = v->bool_value())
            out.boolValue = b->bool_val();
        if (const auto* o = v->output())
            out.output = o->bool_val();
        return out;
    }

    void profile(EtdumpEvent& e, const fbe::ProfileEvent* p)
    {
        e.kind = EtdumpEventKind::Profile;
        e.name = intern(p->name());
        e.chainIndex = p->chain_index();
        e.instructionId = p->instruction_id();
        e.delegateDebugIdInt = p->delegate_debug_id_int();
        e.delegateDebugIdStr = internIdentifier(p->delegate_debug_id_str());
        if (const auto* m = p->delegate_debug_metadata()) {
            e.hasMetadata = true;
            e.metadataOffset = offsetOf(m->data());
            e.metadataSize = m->size();
        }
        e.startTime = p->start_time();
        e.endTime = p->end_time();
    }

    void allocation(EtdumpEvent& e, const fbe::AllocationEvent* a, const EtdumpRun& run, const std::string& path)
    {
        e.kind = EtdumpEventKind::Allocation;
        e.payload = std::uint32_t(m_dump.allocations.size());
        m_dump.allocations.push_back(EtdumpAllocation { a->allocator_id(), a->allocation_size() });
        if (a->allocator_id() < 1 || std::size_t(a->allocator_id()) > run.allocators.size()) {
            if (!m_badAllocator++) {
                m_firstBadAllocator = offsetOf(a);
                m_firstBadAllocatorPath = path + ".allocation_event.allocator_id";
            }
        }
    }

    void debug(EtdumpEvent& e, const fbe::DebugEvent* d)
    {
        e.kind = EtdumpEventKind::Debug;
        e.chainIndex = static_cast<std::int64_t>(d->chain_index()); // 2^64-1 -> -1
        e.instructionId = d->instruction_id();
        e.delegateDebugIdInt = d->delegate_debug_id_int();
        e.delegateDebugIdStr = internIdentifier(d->delegate_debug_id_str());
        e.name = intern(d->name());
        e.payload = std::uint32_t(m_dump.values.size());
        m_dump.values.push_back(value(d->debug_entry()));
    }

    void multi(const void* table, const std::string& path)
    {
        if (!m_multiMember++) {
            m_firstMulti = offsetOf(table);
            m_firstMultiPath = path;
        }
    }

    /** An Event: its profile event, else its other member (member()); an event with several members is noted. */
    template <typename EventTable> void event(const EventTable* ev, const EtdumpRun& run, const std::string& path)
    {
        EtdumpEvent e;
        e.fileOffset = offsetOf(ev);
        const int members = int(ev->profile_event() != nullptr) + int(ev->allocation_event() != nullptr)
            + int(ev->debug_event() != nullptr);
        if (members > 1)
            multi(ev, path);
        if (const auto* p = ev->profile_event())
            profile(e, p);
        else
            member(e, ev, run, path);
        m_dump.events.push_back(e);
    }

    /** The current layout: a debug event, else an allocation event. */
    void member(EtdumpEvent& e, const fbe::Event* ev, const EtdumpRun& run, const std::string& path)
    {
        if (const auto* d = ev->debug_event())
            debug(e, d);
        else if (const auto* a = ev->allocation_event())
            allocation(e, a, run, path);
    }

    /** v0.1.0: an allocation event, else a debug event, which is counted but not decoded. */
    void member(EtdumpEvent& e, const fbv::Event* ev, const EtdumpRun& run, const std::string& path)
    {
        if (const auto* a = ev->allocation_event())
            allocation(e, a, run, path);
        else if (const auto* d = ev->debug_event()) {
            if (!m_undecodedDebug++) {
                m_firstUndecoded = offsetOf(d);
                m_firstUndecodedPath = path + ".debug_event";
            }
        }
    }

    static std::int32_t bundledInputIndex(const fbe::RunData* r) { return r->bundled_input_index(); }
    static std::int32_t bundledInputIndex(const fbv::RunData*) { return -1; }

    template <typename RunTable> void decodeRun(const RunTable* r, std::size_t index)
    {
        const std::string path = base::indexPath("run_data", index);
        EtdumpRun run;
        run.fileOffset = offsetOf(r);
        run.name = r->name() ? r->name()->str() : std::string();
        run.bundledInputIndex = bundledInputIndex(r);
        if (const auto* allocs = r->allocators())
            for (flatbuffers::uoffset_t i = 0; i < allocs->size(); ++i) {
                const auto* n = allocs->Get(i)->name();
                run.allocators.push_back(n ? n->str() : std::string());
            }
        run.firstEvent = std::uint32_t(m_dump.events.size());
        if (const auto* events = r->events()) {
            run.hasEvents = true;
            for (flatbuffers::uoffset_t i = 0; i < events->size(); ++i)
                event(events->Get(i), run, path + base::indexPath(".events", i));
        }
        run.eventCount = std::uint32_t(m_dump.events.size() - run.firstEvent);
        m_dump.runs.push_back(std::move(run));
    }

    EtDump& m_dump;
    const std::uint8_t* m_base;
    std::unordered_map<std::string_view, std::uint32_t> m_interned;
    std::size_t m_undecodedDebug = 0;
    std::uint64_t m_firstUndecoded = 0;
    std::string m_firstUndecodedPath;
    std::size_t m_multiMember = 0;
    std::uint64_t m_firstMulti = 0;
    std::string m_firstMultiPath;
    std::size_t m_badAllocator = 0;
    std::uint64_t m_firstBadAllocator = 0;
    std::string m_firstBadAllocatorPath;
};

} // namespace

void etdump::decodeEtdump(EtDump& dump, const std::uint8_t* fileStart, const std::uint8_t* root)
{
    EtdumpDecoder decoder(dump, fileStart);
    if (dump.layout == EtdumpLayout::V010)
        decoder.decode(flatbuffers::GetRoot<fbv::ETDump>(root));
    else
        decoder.decode(flatbuffers::GetRoot<fbe::ETDump>(root));
}

} // namespace pte
