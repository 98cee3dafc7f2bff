// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Builds ETDumps for the tests: an EtDump model assembled event by event (as the runtime records them), then
// written with serializeEtdump (pte/etdumpwriter.h) and read back with the reader under test.

#include "pte/etdump.h"
#include "pte/etdumpwriter.h"

#include <cstring>
#include <string>
#include <unordered_map>
#include <vector>

namespace pte::test {

class EtdumpBuilder
{
public:
    /** Starts a block (RunData). */
    EtdumpBuilder& block(std::string name, std::int32_t bundledInputIndex = -1)
    {
        EtdumpRun run;
        run.name = std::move(name);
        run.bundledInputIndex = bundledInputIndex;
        run.hasEvents = true;
        run.firstEvent = std::uint32_t(m_dump.events.size());
        m_dump.runs.push_back(std::move(run));
        return *this;
    }
    /** A block without an events vector (what the runtime writes for an empty block). */
    EtdumpBuilder& emptyBlock(std::string name)
    {
        block(std::move(name));
        m_dump.runs.back().hasEvents = false;
        return *this;
    }
    EtdumpBuilder& allocator(std::string name)
    {
        m_dump.runs.back().allocators.push_back(std::move(name));
        return *this;
    }
    EtdumpBuilder& profile(
        const std::string& name, std::int64_t chain, std::int32_t instr, std::uint64_t start, std::uint64_t end)
    {
        EtdumpEvent e = profileEvent(chain, instr, start, end);
        e.name = intern(name);
        return push(e);
    }
    /** A delegate event with an int identifier (no name, empty metadata, as backends log them). */
    EtdumpBuilder& delegateInt(
        std::int32_t id, std::int64_t chain, std::int32_t instr, std::uint64_t start, std::uint64_t end)
    {
        EtdumpEvent e = profileEvent(chain, instr, start, end);
        e.delegateDebugIdInt = id;
        e.hasMetadata = true;
        return push(e);
    }
    /** A delegate event with a string identifier (no name, empty metadata). */
    EtdumpBuilder& delegateStr(
        const std::string& id, std::int64_t chain, std::int32_t instr, std::uint64_t start, std::uint64_t end)
    {
        EtdumpEvent e = profileEvent(chain, instr, start, end);
        e.delegateDebugIdStr = intern(id);
        e.hasMetadata = true;
        return push(e);
    }
    /** A logged tensor; chain -1 is stored as 2^64-1 (program outputs). Strides default to contiguous. */
    EtdumpBuilder& debugTensor(std::int64_t chain, std::int32_t instr, ScalarType dtype,
        std::vector<std::int64_t> sizes, std::int64_t offset, bool output = false,
        std::vector<std::int64_t> strides = {})
    {
        EtdumpTensor t;
        t.scalarType = dtype;
        if (strides.empty() && !sizes.empty()) {
            strides.assign(sizes.size(), 1);
            for (std::size_t d = sizes.size() - 1; d > 0; --d)
                strides[d - 1] = strides[d] * std::max<std::int64_t>(sizes[d], 1);
        }
        t.sizes = std::move(sizes);
        t.strides = std::move(strides);
        t.offset = offset;
        EtdumpValue v;
        v.type = EtdumpValueType::Tensor;
        v.tensors.push_back(std::move(t));
        v.output = output;
        return debug(chain, instr, std::move(v));
    }
    EtdumpBuilder& debug(std::int64_t chain, std::int32_t instr, EtdumpValue value, std::int32_t idInt = -1,
        const std::string& idStr = {})
    {
        EtdumpEvent e;
        e.kind = EtdumpEventKind::Debug;
        e.chainIndex = chain;
        e.instructionId = instr;
        e.delegateDebugIdInt = idInt;
        e.delegateDebugIdStr = idStr.empty() ? kEtdumpNoString : intern(idStr);
        e.payload = std::uint32_t(m_dump.values.size());
        m_dump.values.push_back(std::move(value));
        return push(e);
    }
    EtdumpBuilder& allocation(std::int32_t allocatorId, std::uint64_t size)
    {
        EtdumpEvent e;
        e.kind = EtdumpEventKind::Allocation;
        e.payload = std::uint32_t(m_dump.allocations.size());
        m_dump.allocations.push_back(EtdumpAllocation { allocatorId, size });
        return push(e);
    }
    /** The runtime's load block: Method::init inside Program::load_method (stored in end order). */
    EtdumpBuilder& loadBlock(std::uint64_t start = 100)
    {
        block("Default");
        profile("Method::init", -1, 0, start + 10, start + 500);
        return profile("Program::load_method", -1, 0, start, start + 600);
    }

    [[nodiscard]] const EtDump& model() const { return m_dump; }
    [[nodiscard]] EtDump& model() { return m_dump; }

    /** The serialized bytes (fails the calling test's QVERIFY through an empty vector on error). */
    [[nodiscard]] std::vector<std::uint8_t> bytes(
        bool sizePrefixed = true, EtdumpLayout layout = EtdumpLayout::Current) const
    {
        auto r = serializeEtdump(m_dump, sizePrefixed, layout);
        return r ? std::move(r).value() : std::vector<std::uint8_t> {};
    }

    /** Serialized, then read back in memory. */
    [[nodiscard]] Result<std::shared_ptr<const EtDump>> read(
        Bytes debugBuffer = {}, bool sizePrefixed = true, EtdumpLayout layout = EtdumpLayout::Current) const
    {
        return readEtdumpBytes(Bytes::fromVector(bytes(sizePrefixed, layout)), "test.etdp", std::move(debugBuffer));
    }

private:
    static EtdumpEvent profileEvent(std::int64_t chain, std::int32_t instr, std::uint64_t start, std::uint64_t end)
    {
        EtdumpEvent e;
        e.kind = EtdumpEventKind::Profile;
        e.chainIndex = chain;
        e.instructionId = instr;
        e.startTime = start;
        e.endTime = end;
        return e;
    }
    EtdumpBuilder& push(const EtdumpEvent& e)
    {
        m_dump.events.push_back(e);
        m_dump.runs.back().eventCount++;
        return *this;
    }
    std::uint32_t intern(const std::string& s)
    {
        const auto [it, inserted] = m_ids.try_emplace(s, std::uint32_t(m_dump.strings.size()));
        if (inserted)
            m_dump.strings.push_back(s);
        return it->second;
    }

    EtDump m_dump;
    std::unordered_map<std::string, std::uint32_t> m_ids;
};

/** Little-endian bytes of float32 values (a debug buffer). */
inline std::vector<std::uint8_t> floatBuffer(const std::vector<float>& values)
{
    std::vector<std::uint8_t> out(values.size() * 4);
    if (!values.empty())
        std::memcpy(out.data(), values.data(), out.size());
    return out;
}

} // namespace pte::test
