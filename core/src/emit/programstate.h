// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include "pte/program.h"

#include <algorithm>
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

/**
 * @file
 * The program-wide tables the methods of one emission share: constant buffers, mutable data, delegate blobs and
 * named data, each deduplicated by content.
 */

namespace pte::emitcore {

// Program-wide state shared by all methods (ExecuTorch's _ProgramState).
class ProgramState
{
public:
    ProgramState()
    {
        constants.push_back(Buffer {}); // entry 0: the empty placeholder
        mutableData.push_back(Bytes {});
    }

    /** Constant bytes -> constant_buffer index, deduplicated by content (byte compare behind a cheap key). */
    std::uint32_t addConstant(const Bytes& b) { return add(b, constants, m_constIndex); }
    std::uint32_t addMutable(const Bytes& b)
    {
        std::vector<Buffer> dummy;
        const auto before = mutableData.size();
        for (auto it = m_mutIndex.equal_range(cheapKey(b)); it.first != it.second; ++it.first)
            if (mutableData[it.first->second].contentEquals(b))
                return it.first->second;
        mutableData.push_back(b);
        m_mutIndex.emplace(cheapKey(b), std::uint32_t(before));
        return std::uint32_t(before);
    }
    std::uint32_t addDelegateBlob(const Bytes& b)
    {
        const auto key = sha256Hex(b.span());
        const auto it = m_blobIndex.find(key);
        if (it != m_blobIndex.end())
            return it->second;
        const auto idx = std::uint32_t(delegateBlobs.size());
        delegateBlobs.push_back(Buffer { b });
        m_blobIndex.emplace(key, idx);
        return idx;
    }
    void addNamedData(const std::string& key, const Bytes& b)
    {
        if (m_namedKeys.insert(key).second)
            namedData.emplace_back(key, b);
    }

    std::vector<Buffer> constants;
    std::vector<Bytes> mutableData;
    std::vector<Buffer> delegateBlobs;
    std::vector<std::pair<std::string, Bytes>> namedData;

private:
    static std::uint64_t cheapKey(const Bytes& b)
    {
        // FNV-1a over the size and up to 64 bytes at each end: distinct weights almost never collide, and a
        // collision only costs a full compare.
        std::uint64_t h = 1469598103934665603ull;
        auto mix = [&](std::uint8_t c) {
            h ^= c;
            h *= 1099511628211ull;
        };
        const auto n = b.size();
        for (int i = 0; i < 8; ++i)
            mix(std::uint8_t(n >> (8 * i)));
        const auto head = std::min<std::size_t>(n, 64);
        for (std::size_t i = 0; i < head; ++i)
            mix(b.data()[i]);
        for (std::size_t i = n > 64 ? n - std::min<std::size_t>(n - 64, 64) : n; i < n; ++i)
            mix(b.data()[i]);
        return h;
    }
    static std::uint32_t add(
        const Bytes& b, std::vector<Buffer>& list, std::unordered_multimap<std::uint64_t, std::uint32_t>& index)
    {
        const auto key = cheapKey(b);
        for (auto it = index.equal_range(key); it.first != it.second; ++it.first)
            if (list[it.first->second].storage.contentEquals(b))
                return it.first->second;
        const auto idx = std::uint32_t(list.size());
        list.push_back(Buffer { b });
        index.emplace(key, idx);
        return idx;
    }

    std::unordered_multimap<std::uint64_t, std::uint32_t> m_constIndex;
    std::unordered_multimap<std::uint64_t, std::uint32_t> m_mutIndex;
    std::map<std::string, std::uint32_t> m_blobIndex;
    std::set<std::string> m_namedKeys;
};

} // namespace pte::emitcore
