// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "etdump/profilegrouping.h"

#include <algorithm>
#include <string>
#include <unordered_map>

namespace pte::etdump {

namespace {

/** An InstructionEvent key: raw values as the Inspector groups by them. */
struct GroupKey
{
    std::int32_t instruction = -1;
    std::int64_t chain = 0;
    bool unsignedChain = false; ///< a debug event's chain >= 2^63 (never equal to a profile event's int32 chain)
    std::int32_t idInt = -1;
    std::uint32_t idStr = kEtdumpNoString;
    bool operator==(const GroupKey&) const = default;
};
struct GroupKeyHash
{
    std::size_t operator()(const GroupKey& k) const noexcept
    {
        std::uint64_t h = std::uint64_t(std::uint32_t(k.instruction)) * 0x9E3779B97F4A7C15ull;
        h ^= std::uint64_t(k.chain) + 0x632BE59BD9B4E019ull + (h << 6) + (h >> 2);
        h ^= std::uint64_t(std::uint32_t(k.idInt)) * 0xC2B2AE3D27D4EB4Full + (h << 6) + (h >> 2);
        h ^= std::uint64_t(k.idStr) + (k.unsignedChain ? 0x165667B19E3779F9ull : 0) + (h << 6) + (h >> 2);
        return std::size_t(h);
    }
};

struct EventSignatureHash
{
    std::size_t operator()(const EventSignature& s) const noexcept
    {
        std::uint64_t h = std::uint64_t(std::uint32_t(s.instruction)) * 0x9E3779B97F4A7C15ull;
        auto mix = [&](std::uint64_t v) { h ^= v + 0x9E3779B97F4A7C15ull + (h << 6) + (h >> 2); };
        for (const auto* p : { &s.profile, &s.debug }) {
            mix(p->present);
            mix(p->name);
            mix(std::uint32_t(p->instruction));
            mix(std::uint32_t(p->idInt));
            mix(p->idStr);
        }
        return std::size_t(h);
    }
};

/**
 * Counts keys: a dense table for the common key (an instruction of chain 0 without delegate identifiers), a hash map
 * for the rest. Maps a key to a small integer.
 */
template <typename Key, typename Hash> class KeyIndex
{
public:
    static constexpr std::uint32_t kNone = 0xffffffffu;
    /** The slot of `key` (`denseIndex` >= 0 when the key is a common one), created with `next` when new. */
    std::uint32_t& slot(const Key& key, std::int64_t denseIndex)
    {
        if (denseIndex >= 0 && denseIndex < (std::int64_t(1) << 26)) {
            if (std::size_t(denseIndex) >= m_dense.size())
                m_dense.resize(std::max<std::size_t>(std::size_t(denseIndex) + 1, m_dense.size() * 2), kNone);
            return m_dense[std::size_t(denseIndex)];
        }
        return m_sparse.try_emplace(key, kNone).first->second;
    }

private:
    std::vector<std::uint32_t> m_dense;
    std::unordered_map<Key, std::uint32_t, Hash> m_sparse;
};

/** (instruction, int id, str id): what a signature is made of besides names and the chain. */
struct Triple
{
    std::int32_t instruction;
    std::int32_t idInt;
    std::uint32_t idStr;
    bool operator==(const Triple&) const = default;
};
struct TripleHash
{
    std::size_t operator()(const Triple& t) const noexcept
    {
        return std::size_t((std::uint64_t(std::uint32_t(t.instruction)) * 0x9E3779B97F4A7C15ull)
            ^ (std::uint64_t(std::uint32_t(t.idInt)) * 0xC2B2AE3D27D4EB4Full) ^ (std::uint64_t(t.idStr) << 1));
    }
};

} // namespace

RunSignatures signaturesOf(
    const EtDump& dump, const EtdumpRun& run, const Canonical& canon, std::vector<EventSignature>&& spare)
{
    constexpr std::uint32_t kNone = 0xffffffffu;
    RunSignatures out;
    out.signatures = std::move(spare);
    out.signatures.clear();
    // 1. The InstructionEvent group of each event, groups in first-seen order.
    std::vector<GroupKey> keys;
    std::vector<std::uint32_t> groupOf(run.eventCount, kNone);
    KeyIndex<GroupKey, GroupKeyHash> groupIndex;
    for (std::uint32_t k = 0; k < run.eventCount; ++k) {
        const std::uint32_t i = run.firstEvent + k;
        const auto& e = dump.events[i];
        if (e.kind != EtdumpEventKind::Profile && e.kind != EtdumpEventKind::Debug)
            continue; // allocation-only events make the Inspector fail; skipped here
        const GroupKey key { e.instructionId, e.chainIndex, e.kind == EtdumpEventKind::Debug && e.chainIndex < 0,
            e.delegateDebugIdInt, e.delegateDebugIdStr };
        const bool common = key.chain == 0 && !key.unsignedChain && key.idInt == -1 && key.idStr == kEtdumpNoString;
        auto& g = groupIndex.slot(key, common ? std::int64_t(key.instruction) : -1);
        if (g == kNone) {
            g = std::uint32_t(keys.size());
            keys.push_back(key);
        }
        if (e.kind == EtdumpEventKind::Debug)
            if (const auto* v = dump.value(e); v && v->output) {
                out.outputs.push_back(i); // a run output, not part of its group
                continue;
            }
        groupOf[k] = g;
    }
    // 2. Each group's profile and debug events, in order (flat arrays).
    const std::size_t n = keys.size();
    std::vector<std::uint32_t> profileStart(n + 1, 0);
    auto& debugStart = out.debugStart;
    debugStart.assign(n + 1, 0);
    for (std::uint32_t k = 0; k < run.eventCount; ++k)
        if (groupOf[k] != kNone)
            ++(dump.events[run.firstEvent + k].kind == EtdumpEventKind::Profile ? profileStart
                                                                                : debugStart)[groupOf[k] + 1];
    for (std::size_t g = 0; g < n; ++g) {
        profileStart[g + 1] += profileStart[g];
        debugStart[g + 1] += debugStart[g];
    }
    std::vector<std::uint32_t> profiles(profileStart[n]);
    auto& debugs = out.debug;
    debugs.resize(debugStart[n]);
    {
        auto pFill = profileStart;
        auto dFill = debugStart;
        for (std::uint32_t k = 0; k < run.eventCount; ++k) {
            const auto g = groupOf[k];
            if (g == kNone)
                continue;
            if (dump.events[run.firstEvent + k].kind == EtdumpEventKind::Profile)
                profiles[pFill[g]++] = run.firstEvent + k;
            else
                debugs[dFill[g]++] = run.firstEvent + k;
        }
    }
    // 3. Groups whose signatures can equal another group's: those sharing (instruction, ids), e.g. over chains.
    std::vector<bool> shared(n, false);
    {
        KeyIndex<Triple, TripleHash> tripleIndex;
        std::vector<std::uint32_t> first(n);
        for (std::size_t g = 0; g < n; ++g) {
            const Triple t { keys[g].instruction, keys[g].idInt, keys[g].idStr };
            const bool common = t.idInt == -1 && t.idStr == kEtdumpNoString;
            auto& slot = tripleIndex.slot(t, common ? std::int64_t(t.instruction) : -1);
            if (slot == kNone) {
                slot = std::uint32_t(g);
            } else {
                shared[g] = true;
                shared[slot] = true;
            }
        }
    }
    // 4. Signatures in group order; a repeated one keeps its first position and takes the last events.
    std::unordered_map<EventSignature, std::size_t, EventSignatureHash> sharedPosition;
    out.signatures.reserve(profiles.size() + n);
    out.events.reserve(profiles.size() + n);
    for (std::size_t g = 0; g < n; ++g) {
        const bool hasDebug = debugStart[g] != debugStart[g + 1];
        if (profileStart[g] == profileStart[g + 1] && !hasDebug)
            continue;
        SubSignature debugSig;
        if (hasDebug)
            debugSig = canon.of(dump.events[debugs[debugStart[g]]]);
        const std::size_t groupFirst = out.signatures.size();
        auto add = [&](const EventSignature& sig, std::uint32_t profile) {
            std::size_t at = kNone;
            if (shared[g]) {
                const auto [it, inserted] = sharedPosition.try_emplace(sig, out.signatures.size());
                if (!inserted)
                    at = it->second;
            } else {
                for (std::size_t s = groupFirst; s < out.signatures.size(); ++s)
                    if (out.signatures[s] == sig) {
                        at = s;
                        break;
                    }
            }
            if (at == kNone) {
                out.signatures.push_back(sig);
                out.events.push_back(SignatureEvents { profile, std::uint32_t(g) });
            } else {
                out.events[at] = SignatureEvents { profile, std::uint32_t(g) }; // the last occurrence wins
            }
        };
        if (profileStart[g] == profileStart[g + 1]) {
            add(EventSignature { keys[g].instruction, {}, debugSig }, kEtdumpNoString);
            continue;
        }
        for (std::uint32_t p = profileStart[g]; p < profileStart[g + 1]; ++p)
            add(EventSignature { keys[g].instruction, canon.of(dump.events[profiles[p]]), debugSig }, profiles[p]);
    }
    EventSignatureHash hasher;
    std::uint64_t h = std::hash<std::string>()(run.name) ^ std::uint64_t(std::uint32_t(run.bundledInputIndex));
    for (const auto& s : out.signatures)
        h = h * 0x100000001B3ull ^ hasher(s);
    out.hash = h;
    return out;
}

} // namespace pte::etdump
