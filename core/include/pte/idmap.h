// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <stdexcept>
#include <utility>
#include <vector>

namespace pte {

/**
 * A map from ids (instruction ids, value indices) to T, held as a vector sorted by id. The emitter hands ids out
 * in increasing order, so adding an entry is an append and a lookup a binary search. The interface is the part of
 * std::map its users need; a std::map allocated a node for each of the hundreds of thousands of entries a large
 * program has.
 */
template <class T> class IdMap
{
public:
    /** Ids are int32: instruction ids and value indices. */
    using key_type = std::int32_t;
    /** The value stored per id. */
    using mapped_type = T;
    /** An entry: (id, value), like std::map's value_type except that the id is not const. */
    using value_type = std::pair<std::int32_t, T>;
    /** Iterates the entries in id order. */
    using iterator = typename std::vector<value_type>::iterator;
    /** Iterates the entries in id order, read-only. */
    using const_iterator = typename std::vector<value_type>::const_iterator;

    IdMap() = default;
    /** Like std::map: sorted by id, the first of equal ids kept. */
    IdMap(std::initializer_list<value_type> items)
        : m_items(items)
    {
        std::stable_sort(m_items.begin(), m_items.end(), byId);
        m_items.erase(std::unique(m_items.begin(), m_items.end(),
                          [](const value_type& a, const value_type& b) { return a.first == b.first; }),
            m_items.end());
    }

    [[nodiscard]] iterator begin() noexcept { return m_items.begin(); }
    [[nodiscard]] iterator end() noexcept { return m_items.end(); }
    [[nodiscard]] const_iterator begin() const noexcept { return m_items.begin(); }
    [[nodiscard]] const_iterator end() const noexcept { return m_items.end(); }
    [[nodiscard]] std::size_t size() const noexcept { return m_items.size(); }
    [[nodiscard]] bool empty() const noexcept { return m_items.empty(); }
    void reserve(std::size_t n) { m_items.reserve(n); }
    void clear() noexcept { m_items.clear(); }

    [[nodiscard]] iterator find(std::int32_t id)
    {
        const auto it = lowerBound(id);
        return it != m_items.end() && it->first == id ? it : m_items.end();
    }
    [[nodiscard]] const_iterator find(std::int32_t id) const
    {
        const auto it = std::lower_bound(m_items.begin(), m_items.end(), id, idLess);
        return it != m_items.end() && it->first == id ? it : m_items.end();
    }
    [[nodiscard]] bool contains(std::int32_t id) const { return find(id) != end(); }
    [[nodiscard]] std::size_t count(std::int32_t id) const { return contains(id) ? 1 : 0; }
    /** @throws std::out_of_range when `id` has no entry, like std::map::at */
    [[nodiscard]] const T& at(std::int32_t id) const
    {
        const auto it = find(id);
        if (it == end())
            throw std::out_of_range("IdMap::at: no entry for this id");
        return it->second;
    }
    /** The entry of `id`, added (default-constructed) when missing. */
    T& operator[](std::int32_t id) { return slot(id)->second; }
    /** Sets the entry of `id`; an append when `id` is larger than every id present. */
    void insert_or_assign(std::int32_t id, T value) { slot(id)->second = std::move(value); }

    friend bool operator==(const IdMap& a, const IdMap& b) { return a.m_items == b.m_items; }

private:
    static bool byId(const value_type& a, const value_type& b) noexcept { return a.first < b.first; }
    static bool idLess(const value_type& a, std::int32_t id) noexcept { return a.first < id; }
    iterator lowerBound(std::int32_t id) { return std::lower_bound(m_items.begin(), m_items.end(), id, idLess); }
    iterator slot(std::int32_t id)
    {
        if (m_items.empty() || m_items.back().first < id) {
            m_items.emplace_back(id, T {});
            return std::prev(m_items.end());
        }
        const auto it = lowerBound(id);
        if (it != m_items.end() && it->first == id)
            return it;
        return m_items.insert(it, value_type { id, T {} });
    }

    std::vector<value_type> m_items;
};

} // namespace pte
