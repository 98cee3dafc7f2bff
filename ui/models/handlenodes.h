// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include "document/snapshot.h"

#include <QStringList>

#include <cstdint>
#include <map>
#include <span>

namespace pte::ui {

/**
 * Which graph nodes carry which debug handles in a method: the nodes of its edge program (the graph the
 * Graph view draws) and, for delegate calls, the nodes of each lowered module's original program, named
 * "lowered_module_0/aten_mul_tensor". Built once per method; lookups return names in graph order.
 */
class HandleNodeIndex
{
public:
    void build(const MethodEntry* entry);
    void clear();

    /** Edge-program nodes carrying any of the handles (no duplicates). */
    [[nodiscard]] QStringList edgeNodes(std::span<const std::int64_t> handles) const;
    /** Nodes of lowered modules' original programs carrying any of the handles ("module/node"). */
    [[nodiscard]] QStringList loweredNodes(std::span<const std::int64_t> handles) const;
    /** Both: edge-program nodes first. */
    [[nodiscard]] QStringList nodes(std::span<const std::int64_t> handles) const;
    [[nodiscard]] bool isEmpty() const { return m_edge.empty() && m_lowered.empty(); }

private:
    static QStringList lookup(const std::map<std::int64_t, QStringList>& index, std::span<const std::int64_t> handles);
    std::map<std::int64_t, QStringList> m_edge;
    std::map<std::int64_t, QStringList> m_lowered;
};

} // namespace pte::ui
