// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "emit/debugmaps.h"

#include "emit/lowering.h"

#include <algorithm>
#include <charconv>
#include <iterator>

namespace pte::emitcore {

std::vector<std::int64_t> nodeDebugHandles(const Node& n)
{
    if (!n.debugHandles.empty())
        return n.debugHandles;
    if (const auto h = firstDebugHandle(n)) // the "debug_handle" metadata
        return { *h };
    return {};
}

FrameList parseStackTrace(const std::string& text)
{
    FrameList frames;
    std::size_t pos = 0;
    while ((pos = text.find("File \"", pos)) != std::string::npos) {
        pos += 6;
        const auto q = text.find('"', pos);
        if (q == std::string::npos)
            break;
        Frame f;
        f.filename = text.substr(pos, q - pos);
        auto p = text.find(", line ", q);
        if (p == std::string::npos)
            break;
        p += 7;
        std::int32_t line = 0;
        const auto r = std::from_chars(text.data() + p, text.data() + text.size(), line);
        f.lineno = line;
        p = std::size_t(r.ptr - text.data());
        const auto eol = text.find('\n', p);
        const auto in = text.find(", in ", p);
        if (in != std::string::npos && in < eol)
            f.name = text.substr(in + 5, (eol == std::string::npos ? text.size() : eol) - in - 5);
        if (eol != std::string::npos) {
            const auto eol2 = text.find('\n', eol + 1);
            auto ctx = text.substr(eol + 1, (eol2 == std::string::npos ? text.size() : eol2) - eol - 1);
            const auto b = ctx.find_first_not_of(" \t");
            ctx = b == std::string::npos ? std::string() : ctx.substr(b);
            if (ctx.rfind("File \"", 0) != 0)
                f.context = ctx;
        }
        frames.items.push_back(std::move(f));
        pos = q;
    }
    return frames;
}

DebugHandles::DebugHandles(const ExportedProgram& ep, bool generate)
{
    if (!generate)
        return;
    const auto& nodes = ep.graph.nodes;
    const bool anyHandle =
        std::any_of(nodes.begin(), nodes.end(), [](const Node& n) { return !nodeDebugHandles(n).empty(); });
    if (anyHandle)
        return;
    std::int64_t next = 1;
    for (const auto& n : nodes)
        if (n.targetKind == TargetKind::OpOverload || n.targetKind == TargetKind::HigherOrder)
            m_generated[&n] = next++;
}

std::optional<std::int64_t> DebugHandles::firstOf(const Node& n) const
{
    if (const auto it = m_generated.find(&n); it != m_generated.end())
        return it->second;
    return firstDebugHandle(n);
}

const DelegateMapEntry* recordedDelegateEntry(const EmitOptions& options, const std::string& method,
    std::size_t ordinal, std::int64_t instrId, const std::string& backendId)
{
    const auto m = options.etrecordDelegateMap.find(method);
    if (m == options.etrecordDelegateMap.end())
        return nullptr;
    auto e = m->second.begin();
    if (ordinal < m->second.size())
        std::advance(e, std::ptrdiff_t(ordinal));
    else
        e = m->second.end();
    if (e == m->second.end() || e->second.name != backendId)
        e = m->second.find(instrId);
    if (e != m->second.end() && e->second.name == backendId)
        return &e->second;
    return nullptr;
}

} // namespace pte::emitcore
