// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include "emit/lowering.h"

#include <algorithm>
#include <initializer_list>
#include <string_view>
#include <utility>
#include <vector>

/**
 * @file
 * The arguments of one call, bound by name (internal to the lowering).
 */

namespace pte::emitcore {

/**
 * Arguments bound by name. A call has a handful, so a vector searched linearly beats a std::map, which
 * allocated a node per argument of each of 100k calls. The interface is the part of std::map the lowering uses.
 */
class ArgMap
{
public:
    /** Names are schema argument names or literals: both outlive the map. */
    using value_type = std::pair<std::string_view, LArg>;
    using iterator = std::vector<value_type>::iterator;
    using const_iterator = std::vector<value_type>::const_iterator;

    ArgMap() = default;
    ArgMap(std::initializer_list<value_type> items)
        : m_items(items)
    { }

    iterator begin() { return m_items.begin(); }
    iterator end() { return m_items.end(); }
    const_iterator begin() const { return m_items.begin(); }
    const_iterator end() const { return m_items.end(); }
    iterator find(std::string_view name)
    {
        return std::find_if(m_items.begin(), m_items.end(), [&](const value_type& v) { return v.first == name; });
    }
    const_iterator find(std::string_view name) const
    {
        return std::find_if(m_items.begin(), m_items.end(), [&](const value_type& v) { return v.first == name; });
    }
    std::size_t count(std::string_view name) const { return find(name) == end() ? 0 : 1; }
    LArg& operator[](std::string_view name)
    {
        if (const auto it = find(name); it != end())
            return it->second;
        return m_items.emplace_back(name, LArg {}).second;
    }
    void reserve(std::size_t n) { m_items.reserve(n); }
    iterator erase(iterator it) { return m_items.erase(it); }
    std::size_t erase(std::string_view name)
    {
        const auto it = find(name);
        if (it == end())
            return 0;
        m_items.erase(it);
        return 1;
    }

private:
    std::vector<value_type> m_items;
};

} // namespace pte::emitcore
