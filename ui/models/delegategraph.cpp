// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "models/delegategraph.h"

#include "document/delegateinspection.h"
#include "models/innervaluemodel.h"
#include "models/text.h"

#include <algorithm>
#include <map>

namespace pte::ui {

namespace {

QString valueText(const pte::DelegatePayload& p, std::uint32_t id)
{
    const auto* v = p.value(id);
    if (!v)
        return QStringLiteral("%1 (missing)").arg(valueRef(id));
    QString s = QStringLiteral("%1 %2 %3").arg(valueRef(id), toQString(v->dtype), dimsText(v->dims));
    if (!v->text.empty())
        s = QStringLiteral("%1 %2 = %3").arg(valueRef(id), toQString(v->kind), toQString(v->text));
    if (v->constant)
        s += QStringLiteral(" constant #%1 (%2)")
                 .arg(v->constant->index)
                 .arg(QLatin1String(pte::constantSourceName(v->constant->source)));
    if (v->quant)
        s += QStringLiteral(" · ") + quantText(*v);
    return s;
}

} // namespace

GraphData buildDelegateGraph(const DelegateInspection& inspection, int delegate)
{
    GraphData out;
    if (delegate < 0 || std::size_t(delegate) >= inspection.delegates.size())
        return out;
    const auto& d = inspection.delegates[std::size_t(delegate)];
    const auto& p = *d.payload;
    const auto& links = inspection.links[std::size_t(delegate)];
    out.method = toQString(d.methodName);
    if (!p.graphDecoded)
        return out;
    std::map<std::uint32_t, int> producer;
    auto addValueNode = [&](const pte::InnerValue& v, GraphNode::Kind kind, const QString& label) {
        GraphNode n;
        n.kind = kind;
        n.label = label;
        n.subtitle = QStringLiteral("%1 %2").arg(valueRef(v.id), dimsText(v.dims));
        n.details = QStringLiteral("%1\n%2\n").arg(label, valueText(p, v.id));
        producer[v.id] = int(out.nodes.size());
        out.nodes.push_back(std::move(n));
    };
    for (const auto& v : p.values) {
        if (v.graphInput)
            addValueNode(v, GraphNode::Kind::Input,
                v.externalId ? QStringLiteral("input (arg %1)").arg(*v.externalId) : QStringLiteral("input"));
        else if (v.constant)
            addValueNode(v, GraphNode::Kind::Constant, QStringLiteral("constant #%1").arg(v.constant->index));
    }
    std::map<std::uint32_t, std::vector<std::size_t>> absorbedInto;
    for (std::size_t a = 0; a < links.absorbed.size(); ++a)
        if (links.absorbed[a].intoNode)
            absorbedInto[*links.absorbed[a].intoNode].push_back(a);
    for (std::size_t i = 0; i < p.nodes.size(); ++i) {
        const auto& inner = p.nodes[i];
        GraphNode n;
        n.kind = GraphNode::Kind::Operator;
        n.innerNode = int(i);
        n.label = toQString(inner.kind);
        QStringList handles;
        for (const auto h : inner.debugHandles)
            handles << QString::number(h);
        n.subtitle = inner.backendInserted()
            ? QStringLiteral("#%1 · inserted by the backend").arg(inner.index)
            : QStringLiteral("#%1 · handle %2").arg(inner.index).arg(handles.join(QStringLiteral(",")));
        for (const auto h : inner.debugHandles)
            if (h != pte::kBackendInsertedHandle)
                n.debugHandles.push_back(h);
        n.details = QStringLiteral("%1 (inner node %2 of delegate %3, %4)\n")
                        .arg(n.label)
                        .arg(inner.index)
                        .arg(d.delegateIndex)
                        .arg(toQString(p.backendId));
        n.details += QStringLiteral("Debug handles: %1%2\n")
                         .arg(handles.join(QStringLiteral(", ")),
                             inner.backendInserted() ? QStringLiteral(" (65535: inserted by the backend)") : QString());
        if (!inner.delegateDebugId.empty())
            n.details += QStringLiteral("Delegate debug identifier: %1\n").arg(toQString(inner.delegateDebugId));
        for (const auto& o : inner.inputs)
            n.details += QStringLiteral("  in  %1: %2\n").arg(toQString(o.role), valueText(p, o.valueId));
        for (const auto& o : inner.outputs)
            n.details += QStringLiteral("  out %1: %2\n").arg(toQString(o.role), valueText(p, o.valueId));
        for (const auto& prm : inner.params)
            n.details += QStringLiteral("  %1: %2\n").arg(toQString(prm.name), toQString(prm.value));
        for (const auto& s : links.nodeSources[i]) {
            n.members << toQString(s.name);
            n.details += QStringLiteral("Source: %1 %2 in %3 (handle %4)\n")
                             .arg(toQString(s.name), toQString(s.target), toQString(s.graph))
                             .arg(s.handle);
            if (!s.stackTrace.empty())
                n.details += toQString(s.stackTrace) + QLatin1Char('\n');
        }
        if (const auto it = absorbedInto.find(std::uint32_t(i)); it != absorbedInto.end()) {
            QStringList absorbed;
            for (const auto a : it->second) {
                const auto& ab = links.absorbed[a];
                absorbed << QString::number(ab.handle);
                n.debugHandles.push_back(ab.handle);
                n.details += QStringLiteral("Absorbed handle %1 (fused away; found by %2%3)\n")
                                 .arg(ab.handle)
                                 .arg(toQString(ab.how), ab.inferred ? QStringLiteral(", a gap: likely") : QString());
                for (const auto& s : ab.sources) {
                    n.members << toQString(s.name);
                    n.details += QStringLiteral("  %1 %2\n").arg(toQString(s.name), toQString(s.target));
                }
            }
            n.subtitle += QStringLiteral(" + %1").arg(absorbed.join(QStringLiteral(",")));
        }
        const int index = int(out.nodes.size());
        for (const auto& o : inner.inputs)
            if (const auto it = producer.find(o.valueId); it != producer.end())
                out.edges.push_back(GraphEdge { it->second, index });
        for (const auto& o : inner.outputs)
            producer[o.valueId] = index;
        out.nodes.push_back(std::move(n));
    }
    for (const auto id : p.outputIds) {
        const auto* v = p.value(id);
        if (!v)
            continue;
        GraphNode n;
        n.kind = GraphNode::Kind::Output;
        n.label = v->externalId ? QStringLiteral("output (arg %1)").arg(*v->externalId) : QStringLiteral("output");
        n.subtitle = QStringLiteral("%1 %2").arg(valueRef(id), dimsText(v->dims));
        n.details = QStringLiteral("Graph output\n%1\n").arg(valueText(p, id));
        const int index = int(out.nodes.size());
        if (const auto it = producer.find(id); it != producer.end())
            out.edges.push_back(GraphEdge { it->second, index });
        out.nodes.push_back(std::move(n));
    }
    out.originalNodeCount = int(out.nodes.size());
    return out;
}

std::optional<int> delegateOfNode(const Snapshot& snapshot, const QString& method, const GraphNode& node)
{
    if (node.kind != GraphNode::Kind::Delegate || !snapshot.delegates)
        return std::nullopt;
    const MethodEntry* entry = snapshot.method(method.toStdString());
    if (!entry || !entry->plan || entry->plan->chains.empty())
        return std::nullopt;
    const auto& instructions = entry->plan->chains[0].instructions;
    auto delegateAt = [&](std::int64_t instruction) -> std::optional<int> {
        if (instruction < 0 || std::size_t(instruction) >= instructions.size())
            return std::nullopt;
        const auto* call = std::get_if<pte::DelegateCall>(&instructions[std::size_t(instruction)].args);
        if (!call || call->delegateIndex < 0)
            return std::nullopt;
        const int found = snapshot.delegates->find(entry->name, std::uint32_t(call->delegateIndex));
        return found < 0 ? std::nullopt : std::optional<int>(found);
    };
    if (node.instruction >= 0)
        return delegateAt(node.instruction);
    if (!entry->emitInfo || node.members.isEmpty())
        return std::nullopt;
    // The emitter names a delegate call's instruction after the nodes of the lowered module's original program
    // (the call node's `absorbed`, without the "lowered_module_0/" prefix), or after the call node itself when it
    // has no original program.
    std::vector<std::string> inner;
    for (const QString& a : node.absorbed)
        inner.push_back(a.mid(node.loweredModule.size() + 1).toStdString());
    const std::string name = node.members.front().toStdString();
    for (const auto& [instruction, names] : entry->emitInfo->instructionNodes) {
        const bool match = inner.empty() ? std::find(names.begin(), names.end(), name) != names.end() : names == inner;
        if (match)
            if (const auto d = delegateAt(instruction))
                return d;
    }
    return std::nullopt;
}

} // namespace pte::ui
