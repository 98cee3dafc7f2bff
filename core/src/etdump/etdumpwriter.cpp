// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "pte/etdumpwriter.h"

#include "pte/schema/etdump_generated.h"
#include "pte/schema/etdump_v010_generated.h"

#include <unordered_map>

namespace pte {

namespace {

namespace fbe = ::etdump;
namespace fbv = ::etdump_v010;

class Writer
{
public:
    explicit Writer(const EtDump& dump)
        : m_dump(dump)
        , m_b(1024 + dump.events.size() * 96)
    { }

    Result<std::vector<std::uint8_t>> write(bool sizePrefixed, EtdumpLayout layout)
    {
        for (const auto& e : m_dump.events) {
            if (e.kind == EtdumpEventKind::Debug && e.payload >= m_dump.values.size())
                return fail(ErrorCode::InvalidInput,
                    "a debug event names value " + std::to_string(e.payload) + " of "
                        + std::to_string(m_dump.values.size()));
            if (e.kind == EtdumpEventKind::Allocation && e.payload >= m_dump.allocations.size())
                return fail(ErrorCode::InvalidInput,
                    "an allocation event names allocation " + std::to_string(e.payload) + " of "
                        + std::to_string(m_dump.allocations.size()));
            for (const auto s : { e.name, e.delegateDebugIdStr })
                if (s != kEtdumpNoString && s >= m_dump.strings.size())
                    return fail(ErrorCode::InvalidInput,
                        "an event names string " + std::to_string(s) + " of " + std::to_string(m_dump.strings.size()));
        }
        for (const auto& run : m_dump.runs)
            if (std::uint64_t(run.firstEvent) + run.eventCount > m_dump.events.size())
                return fail(ErrorCode::InvalidInput, "block '" + run.name + "' names events past the end");
        if (layout == EtdumpLayout::V010)
            finish(buildV010(), sizePrefixed);
        else
            finish(buildCurrent(), sizePrefixed);
        if (m_b.GetSize() >= FLATBUFFERS_MAX_BUFFER_SIZE)
            return fail(ErrorCode::Unsupported, "the ETDump would exceed the flatbuffers limit of 2 GiB");
        return std::vector<std::uint8_t>(m_b.GetBufferPointer(), m_b.GetBufferPointer() + m_b.GetSize());
    }

private:
    template <typename T> void finish(flatbuffers::Offset<T> root, bool sizePrefixed)
    {
        if (sizePrefixed)
            m_b.FinishSizePrefixed(root, "ED00");
        else
            m_b.Finish(root, "ED00");
    }

    flatbuffers::Offset<flatbuffers::String> string(std::uint32_t id)
    {
        if (id == kEtdumpNoString)
            return 0;
        if (const auto it = m_strings.find(id); it != m_strings.end())
            return it->second;
        const auto o = m_b.CreateString(m_dump.strings[id]);
        m_strings.emplace(id, o);
        return o;
    }

    flatbuffers::Offset<fbe::Tensor> tensor(const EtdumpTensor& t)
    {
        const auto sizes = m_b.CreateVector(t.sizes);
        const auto strides = m_b.CreateVector(t.strides);
        return fbe::CreateTensor(m_b,
            static_cast<executorch_flatbuffer::ScalarType>(static_cast<std::int8_t>(t.scalarType)), sizes, strides,
            t.offset);
    }

    flatbuffers::Offset<fbe::Value> value(const EtdumpValue& v)
    {
        flatbuffers::Offset<fbe::Tensor> t = 0;
        flatbuffers::Offset<fbe::TensorList> list = 0;
        flatbuffers::Offset<fbe::Int> i = 0;
        flatbuffers::Offset<fbe::Double> d = 0;
        flatbuffers::Offset<fbe::Float> f = 0;
        flatbuffers::Offset<fbe::Bool> b = 0;
        flatbuffers::Offset<fbe::Bool> output = 0;
        switch (v.type) {
        case EtdumpValueType::Tensor:
            if (!v.tensors.empty())
                t = tensor(v.tensors.front());
            break;
        case EtdumpValueType::TensorList: {
            std::vector<flatbuffers::Offset<fbe::Tensor>> ts;
            for (const auto& x : v.tensors)
                ts.push_back(tensor(x));
            list = fbe::CreateTensorList(m_b, m_b.CreateVector(ts));
            break;
        }
        case EtdumpValueType::Int:
            i = fbe::CreateInt(m_b, v.intValue);
            break;
        case EtdumpValueType::Double:
            d = fbe::CreateDouble(m_b, v.doubleValue);
            break;
        case EtdumpValueType::Float:
            f = fbe::CreateFloat(m_b, float(v.doubleValue));
            break;
        case EtdumpValueType::Bool:
            b = fbe::CreateBool(m_b, v.boolValue);
            break;
        default:
            break;
        }
        if (v.output)
            output = fbe::CreateBool(m_b, true);
        return fbe::CreateValue(
            m_b, static_cast<fbe::ValueType>(static_cast<std::int8_t>(v.type)), t, list, i, f, d, b, output);
    }

    flatbuffers::Offset<fbe::ProfileEvent> profile(const EtdumpEvent& e)
    {
        const auto name = string(e.name);
        const auto idStr = string(e.delegateDebugIdStr);
        flatbuffers::Offset<flatbuffers::Vector<std::uint8_t>> metadata = 0;
        if (e.hasMetadata) {
            const auto bytes = m_dump.delegateMetadata(e);
            metadata = m_b.CreateVector(bytes.data(), bytes.size());
        }
        return fbe::CreateProfileEvent(m_b, name, std::int32_t(e.chainIndex), e.instructionId, e.delegateDebugIdInt,
            idStr, metadata, e.startTime, e.endTime);
    }

    flatbuffers::Offset<fbe::DebugEvent> debug(const EtdumpEvent& e)
    {
        const auto v = value(m_dump.values[e.payload]);
        const auto idStr = string(e.delegateDebugIdStr);
        const auto name = string(e.name);
        return fbe::CreateDebugEvent(
            m_b, std::uint64_t(e.chainIndex), e.instructionId, v, e.delegateDebugIdInt, idStr, name);
    }

    flatbuffers::Offset<fbe::AllocationEvent> allocation(const EtdumpEvent& e)
    {
        const auto& a = m_dump.allocations[e.payload];
        return fbe::CreateAllocationEvent(m_b, a.allocatorId, a.size);
    }

    flatbuffers::Offset<flatbuffers::Vector<flatbuffers::Offset<fbe::Allocator>>> allocators(const EtdumpRun& run)
    {
        if (run.allocators.empty())
            return 0;
        std::vector<flatbuffers::Offset<fbe::Allocator>> out;
        for (const auto& a : run.allocators)
            out.push_back(fbe::CreateAllocator(m_b, m_b.CreateString(a)));
        return m_b.CreateVector(out);
    }

    flatbuffers::Offset<fbe::ETDump> buildCurrent()
    {
        std::vector<flatbuffers::Offset<fbe::RunData>> runs;
        for (const auto& run : m_dump.runs) {
            flatbuffers::Offset<flatbuffers::Vector<flatbuffers::Offset<fbe::Event>>> events = 0;
            if (run.hasEvents || run.eventCount > 0) {
                std::vector<flatbuffers::Offset<fbe::Event>> es;
                es.reserve(run.eventCount);
                for (const auto& e : m_dump.runEvents(run)) {
                    switch (e.kind) {
                    case EtdumpEventKind::Profile:
                        es.push_back(fbe::CreateEvent(m_b, profile(e)));
                        break;
                    case EtdumpEventKind::Debug:
                        es.push_back(fbe::CreateEvent(m_b, 0, 0, debug(e)));
                        break;
                    case EtdumpEventKind::Allocation:
                        es.push_back(fbe::CreateEvent(m_b, 0, allocation(e)));
                        break;
                    case EtdumpEventKind::Empty:
                        es.push_back(fbe::CreateEvent(m_b));
                        break;
                    }
                }
                events = m_b.CreateVector(es);
            }
            const auto name = m_b.CreateString(run.name);
            const auto allocs = allocators(run);
            runs.push_back(fbe::CreateRunData(m_b, name, run.bundledInputIndex, allocs, events));
        }
        const auto runVector = m_b.CreateVector(runs);
        return fbe::CreateETDump(m_b, m_dump.version, runVector);
    }

    flatbuffers::Offset<fbv::ETDump> buildV010()
    {
        std::vector<flatbuffers::Offset<fbv::RunData>> runs;
        for (const auto& run : m_dump.runs) {
            flatbuffers::Offset<flatbuffers::Vector<flatbuffers::Offset<fbv::Event>>> events = 0;
            if (run.hasEvents || run.eventCount > 0) {
                std::vector<flatbuffers::Offset<fbv::Event>> es;
                for (const auto& e : m_dump.runEvents(run)) {
                    switch (e.kind) {
                    case EtdumpEventKind::Profile:
                        es.push_back(fbv::CreateEvent(m_b, profile(e)));
                        break;
                    case EtdumpEventKind::Debug:
                        es.push_back(fbv::CreateEvent(m_b, 0, 0, fbv::CreateOpaqueDebugEvent(m_b)));
                        break;
                    case EtdumpEventKind::Allocation:
                        es.push_back(fbv::CreateEvent(m_b, 0, allocation(e)));
                        break;
                    case EtdumpEventKind::Empty:
                        es.push_back(fbv::CreateEvent(m_b));
                        break;
                    }
                }
                events = m_b.CreateVector(es);
            }
            const auto name = m_b.CreateString(run.name);
            const auto allocs = allocators(run);
            runs.push_back(fbv::CreateRunData(m_b, name, allocs, events));
        }
        const auto runVector = m_b.CreateVector(runs);
        return fbv::CreateETDump(m_b, m_dump.version, runVector);
    }

    const EtDump& m_dump;
    flatbuffers::FlatBufferBuilder m_b;
    std::unordered_map<std::uint32_t, flatbuffers::Offset<flatbuffers::String>> m_strings;
};

} // namespace

Result<std::vector<std::uint8_t>> serializeEtdump(const EtDump& dump, bool sizePrefixed, EtdumpLayout layout)
{
    return Writer(dump).write(sizePrefixed, layout);
}

} // namespace pte
