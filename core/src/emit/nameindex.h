// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include "pte/graph.h"

#include <cstdint>
#include <cstring>
#include <functional>
#include <string_view>
#include <utility>
#include <vector>

/**
 * @file
 * The lowering's index of top-level tensor names (internal to the lowering).
 */

namespace pte::emitcore {

struct TopSlot
{
    const TensorMeta* meta = nullptr;
    int ref = -1;
};

/**
 * Tensor names to TopSlots: open addressing over one array of cache-line entries that hold the hash and, for
 * names up to 28 bytes (nearly all), the name itself, so a lookup usually touches one line. Keys view strings
 * the dump owns. A node-based map touched three (bucket, node, key) for each of the graph's few hundred
 * thousand lookups.
 */
class NameIndex
{
public:
    /** Room for `n` keys at most half full (a longer run of probes costs more than the memory). */
    void reserve(std::size_t n)
    {
        std::size_t capacity = 16;
        while (capacity < 2 * n)
            capacity *= 2;
        if (capacity <= m_entries.size())
            return;
        std::vector<Entry> old = std::exchange(m_entries, std::vector<Entry>(capacity));
        m_mask = capacity - 1;
        m_count = 0;
        for (const Entry& e : old)
            if (e.key)
                insert(std::string_view(e.key, e.size), e.slot);
    }
    /** Adds `key` unless present. The key's bytes must outlive the index. */
    void insert(std::string_view key, TopSlot slot)
    {
        if (2 * (m_count + 1) > m_entries.size())
            reserve(m_count + 1);
        const std::uint64_t h = hash(key);
        for (std::size_t i = h & m_mask;; i = (i + 1) & m_mask) {
            Entry& e = m_entries[i];
            if (!e.key) {
                e.hash = h;
                e.key = key.data();
                e.size = std::uint32_t(key.size());
                if (key.size() <= sizeof e.inlineKey)
                    std::memcpy(e.inlineKey, key.data(), key.size());
                e.slot = slot;
                ++m_count;
                return;
            }
            if (matches(e, h, key))
                return;
        }
    }
    TopSlot* find(std::string_view key)
    {
        const std::size_t i = locate(key);
        return i == kNone ? nullptr : &m_entries[i].slot;
    }
    const TopSlot* find(std::string_view key) const
    {
        const std::size_t i = locate(key);
        return i == kNone ? nullptr : &m_entries[i].slot;
    }

private:
    struct alignas(64) Entry
    {
        std::uint64_t hash = 0;
        TopSlot slot;
        const char* key = nullptr; ///< null: free
        std::uint32_t size = 0;
        char inlineKey[28] = {};
    };
    static constexpr std::size_t kNone = ~std::size_t(0);
    std::size_t locate(std::string_view key) const noexcept
    {
        if (m_entries.empty())
            return kNone;
        const std::uint64_t h = hash(key);
        for (std::size_t i = h & m_mask;; i = (i + 1) & m_mask) {
            const Entry& e = m_entries[i];
            if (!e.key)
                return kNone;
            if (matches(e, h, key))
                return i;
        }
    }
    static std::uint64_t hash(std::string_view key) noexcept { return std::hash<std::string_view> {}(key); }
    static bool matches(const Entry& e, std::uint64_t h, std::string_view key) noexcept
    {
        if (e.hash != h || e.size != key.size())
            return false;
        const char* stored = key.size() <= sizeof e.inlineKey ? e.inlineKey : e.key;
        return std::memcmp(stored, key.data(), key.size()) == 0;
    }
    std::vector<Entry> m_entries;
    std::size_t m_mask = 0;
    std::size_t m_count = 0;
};

} // namespace pte::emitcore
