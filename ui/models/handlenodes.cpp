// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "models/handlenodes.h"

#include "models/text.h"

namespace pte::ui {

void HandleNodeIndex::clear()
{
    m_edge.clear();
    m_lowered.clear();
}

void HandleNodeIndex::build(const MethodEntry* entry)
{
    clear();
    if (!entry || !entry->exported)
        return;
    const pte::ExportedProgram& ep = *entry->exported;
    for (const auto& node : ep.graph.nodes)
        for (const auto h : node.debugHandles)
            m_edge[h] << toQString(node.name);
    for (const auto& [name, module] : ep.loweredModules) {
        if (!module || !module->originalModule)
            continue;
        const QString prefix = toQString(name) + QLatin1Char('/');
        for (const auto& node : module->originalModule->graph.nodes)
            for (const auto h : node.debugHandles)
                m_lowered[h] << prefix + toQString(node.name);
    }
}

QStringList HandleNodeIndex::lookup(
    const std::map<std::int64_t, QStringList>& index, std::span<const std::int64_t> handles)
{
    QStringList out;
    for (const auto h : handles) {
        const auto it = index.find(h);
        if (it == index.end())
            continue;
        for (const auto& n : it->second)
            if (!out.contains(n))
                out << n;
    }
    return out;
}

QStringList HandleNodeIndex::edgeNodes(std::span<const std::int64_t> handles) const { return lookup(m_edge, handles); }

QStringList HandleNodeIndex::loweredNodes(std::span<const std::int64_t> handles) const
{
    return lookup(m_lowered, handles);
}

QStringList HandleNodeIndex::nodes(std::span<const std::int64_t> handles) const
{
    return edgeNodes(handles) + loweredNodes(handles);
}

} // namespace pte::ui
