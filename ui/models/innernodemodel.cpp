// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "models/innernodemodel.h"

#include "document/delegateinspection.h"
#include "models/roles.h"
#include "models/text.h"

#include <QColor>

namespace pte::ui {

namespace {

QString operandsText(const std::vector<pte::InnerOperand>& ops)
{
    QStringList parts;
    for (const auto& o : ops)
        parts << QStringLiteral("%1 %2").arg(toQString(o.role), valueRef(o.valueId));
    return parts.join(QStringLiteral(", "));
}

QString handlesText(const std::vector<std::int64_t>& handles)
{
    QStringList parts;
    for (const auto h : handles)
        parts << QString::number(h);
    return parts.join(QStringLiteral(", "));
}

QString sourceText(const pte::SourceNodeRef& s)
{
    return QStringLiteral("%1 (%2)").arg(toQString(s.name), toQString(s.target));
}

} // namespace

void InnerNodeModel::setDelegate(std::shared_ptr<const Snapshot> snapshot, int delegate)
{
    beginResetModel();
    m_snapshot = std::move(snapshot);
    m_inspection = m_snapshot ? m_snapshot->delegates.get() : nullptr;
    m_delegate =
        m_inspection && delegate >= 0 && std::size_t(delegate) < m_inspection->delegates.size() ? delegate : -1;
    m_absorbed.clear();
    if (m_delegate >= 0) {
        const auto& payload = *m_inspection->delegates[std::size_t(m_delegate)].payload;
        const auto& links = m_inspection->links[std::size_t(m_delegate)];
        m_absorbed.resize(payload.nodes.size());
        for (std::size_t a = 0; a < links.absorbed.size(); ++a)
            if (links.absorbed[a].intoNode && *links.absorbed[a].intoNode < m_absorbed.size())
                m_absorbed[*links.absorbed[a].intoNode].push_back(a);
    }
    endResetModel();
}

int InnerNodeModel::rows() const
{
    return m_delegate < 0 ? 0 : int(m_inspection->delegates[std::size_t(m_delegate)].payload->nodes.size());
}

int InnerNodeModel::rowOfNode(std::uint32_t node) const { return node < std::uint32_t(rows()) ? int(node) : -1; }

QVariant InnerNodeModel::cell(int row, int column, int role) const
{
    const auto& payload = *m_inspection->delegates[std::size_t(m_delegate)].payload;
    const auto& links = m_inspection->links[std::size_t(m_delegate)];
    const pte::InnerNode& n = payload.nodes[std::size_t(row)];
    const auto& sources = links.nodeSources[std::size_t(row)];
    const auto& absorbed = m_absorbed[std::size_t(row)];
    const bool inserted = n.backendInserted();
    switch (role) {
    case Qt::ForegroundRole:
        return inserted ? QVariant(QColor(0x80, 0x80, 0x80)) : QVariant();
    case DebugHandlesRole: {
        QList<qlonglong> handles;
        for (const auto h : n.debugHandles)
            if (h != pte::kBackendInsertedHandle)
                handles << h;
        for (const auto a : absorbed)
            handles << links.absorbed[a].handle;
        return QVariant::fromValue(handles);
    }
    case NodeNamesRole: {
        QStringList names;
        for (const auto& s : sources)
            names << toQString(s.name);
        for (const auto a : absorbed)
            for (const auto& s : links.absorbed[a].sources)
                names << toQString(s.name);
        return names;
    }
    case ValueIdsRole: {
        QList<int> ids;
        for (const auto& o : n.inputs)
            ids << int(o.valueId);
        for (const auto& o : n.outputs)
            ids << int(o.valueId);
        return QVariant::fromValue(ids);
    }
    default:
        break;
    }
    const bool sort = role == SortRole;
    const bool tip = role == Qt::ToolTipRole;
    if (role != Qt::DisplayRole && !sort && !tip)
        return {};
    switch (column) {
    case IndexColumn:
        return sort ? QVariant(row) : QVariant(QString::number(n.index));
    case KindColumn:
        if (tip && !n.delegateDebugId.empty())
            return QStringLiteral("Delegate debug identifier %1").arg(toQString(n.delegateDebugId));
        return toQString(n.kind);
    case HandlesColumn:
        if (sort)
            return n.debugHandles.empty() ? QVariant(-1) : QVariant(qlonglong(n.debugHandles.front()));
        return handlesText(n.debugHandles);
    case MarkColumn: {
        QStringList marks;
        if (inserted)
            marks << QStringLiteral("inserted by the backend");
        for (const auto a : absorbed) {
            const auto& ab = links.absorbed[a];
            QString names;
            for (const auto& s : ab.sources)
                names += (names.isEmpty() ? QString() : QStringLiteral(", ")) + toQString(s.name);
            marks << QStringLiteral("absorbed %1%2%3")
                         .arg(ab.handle)
                         .arg(names.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(names))
                         .arg(ab.inferred ? QStringLiteral(", likely") : QString());
        }
        if (tip) {
            QStringList lines;
            if (inserted)
                lines << QStringLiteral("Debug handle 65535: a node the backend added itself (a layout change "
                                        "such as NCHW↔NHWC), with no source node");
            for (const auto a : absorbed) {
                const auto& ab = links.absorbed[a];
                lines << QStringLiteral("Handle %1 has no node of its own: fused into this one (found by %2)%3")
                             .arg(ab.handle)
                             .arg(toQString(ab.how))
                             .arg(ab.inferred ? QStringLiteral("; inferred from a gap in the handles, no "
                                                               "partition list was loaded")
                                              : QString());
            }
            return lines.join(QLatin1Char('\n'));
        }
        return marks.join(QStringLiteral("; "));
    }
    case InputsColumn:
        return operandsText(n.inputs);
    case OutputsColumn:
        return operandsText(n.outputs);
    case ParamsColumn: {
        QStringList parts;
        for (const auto& p : n.params)
            parts << QStringLiteral("%1 %2").arg(toQString(p.name), toQString(p.value));
        return parts.join(tip ? QStringLiteral("\n") : QStringLiteral("; "));
    }
    case SourcesColumn: {
        if (tip) {
            QStringList lines;
            for (const auto& s : sources) {
                lines << QStringLiteral("%1 in %2 (handle %3)").arg(sourceText(s), toQString(s.graph)).arg(s.handle);
                if (!s.stackTrace.empty())
                    lines << toQString(s.stackTrace);
            }
            return lines.join(QLatin1Char('\n'));
        }
        QStringList parts;
        for (const auto& s : sources)
            parts << sourceText(s);
        return parts.join(QStringLiteral(", "));
    }
    default:
        return {};
    }
}

QVariant InnerNodeModel::headerCell(int column, int role) const
{
    if (role == Qt::ToolTipRole && column == SourcesColumn)
        return QStringLiteral("Source-graph nodes with the same debug handle (ETRecord edge program or the emitted "
                              "dump)");
    if (role != Qt::DisplayRole)
        return {};
    static const char* const names[] = { "#", "Kind", "Handles", "Mark", "Inputs", "Outputs", "Parameters",
        "Source nodes" };
    return QLatin1String(names[column]);
}

} // namespace pte::ui
