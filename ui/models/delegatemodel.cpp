// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "models/delegatemodel.h"

#include "models/delegateblobs.h"
#include "models/roles.h"
#include "models/text.h"
#include "pte/bytetext.h"

namespace pte::ui {

void DelegateModel::setMethod(std::shared_ptr<const Snapshot> snapshot, const QString& method)
{
    beginResetModel();
    m_snapshot = std::move(snapshot);
    const MethodEntry* entry = m_snapshot ? m_snapshot->method(method.toStdString()) : nullptr;
    m_plan = entry ? entry->plan : nullptr;
    m_calls.clear();
    m_users.clear();
    if (m_plan) {
        const auto users = delegateBlobUsers(*m_snapshot->program);
        for (const auto& d : m_plan->delegates) {
            const auto it = users.find(blobKey(d));
            m_users.push_back(it != users.end() ? it->second : QStringList {});
        }
        m_calls.assign(m_plan->delegates.size(), 0);
        for (const auto& chain : m_plan->chains)
            for (const auto& ins : chain.instructions)
                if (const auto* d = std::get_if<pte::DelegateCall>(&ins.args))
                    if (d->delegateIndex >= 0 && std::size_t(d->delegateIndex) < m_calls.size())
                        ++m_calls[std::size_t(d->delegateIndex)];
    }
    endResetModel();
}

int DelegateModel::rows() const { return m_plan ? int(m_plan->delegates.size()) : 0; }

QVariant DelegateModel::cell(int row, int column, int role) const
{
    const pte::BackendDelegate& d = m_plan->delegates[std::size_t(row)];
    const bool sort = role == SortRole;
    if (role != Qt::DisplayRole && !sort && role != Qt::ToolTipRole)
        return {};
    switch (column) {
    case IndexColumn:
        return sort ? QVariant(row) : QVariant(QString::number(row));
    case BackendColumn:
        return toQString(d.id);
    case LocationColumn: {
        const QStringList& users = m_users[std::size_t(row)];
        const QString where = blobLocationText(blobKey(d));
        if (users.size() < 2)
            return where;
        if (role == Qt::ToolTipRole)
            return QStringLiteral("%1, stored once and shared by %2 methods:\n%3")
                .arg(where)
                .arg(users.size())
                .arg(users.join(QLatin1Char('\n')));
        return QStringLiteral("%1, shared by %2 methods").arg(where).arg(users.size());
    }
    case SizeColumn: {
        const auto size = pte::delegateData(*m_snapshot->program, d).size();
        return sort ? QVariant(qulonglong(size)) : QVariant(formatBytes(size));
    }
    case CallsColumn:
        return sort ? QVariant(m_calls[std::size_t(row)]) : QVariant(QString::number(m_calls[std::size_t(row)]));
    case CompileSpecsColumn: {
        QStringList parts;
        for (const auto& spec : d.compileSpecs)
            parts << QStringLiteral("%1=%2").arg(
                toQString(spec.key), toQString(pte::compileSpecText(spec.key, spec.value.span())));
        return parts.join(role == Qt::ToolTipRole ? QStringLiteral("\n") : QStringLiteral("; "));
    }
    default:
        return {};
    }
}

QVariant DelegateModel::headerCell(int column, int role) const
{
    if (role != Qt::DisplayRole)
        return {};
    static const char* const names[] = { "#", "Backend", "Data", "Size", "Calls", "Compile specs" };
    return QLatin1String(names[column]);
}

void DelegateDebugIdModel::setMethod(std::shared_ptr<const Snapshot> snapshot, const QString& method)
{
    beginResetModel();
    m_snapshot = std::move(snapshot);
    m_rows.clear();
    const MethodEntry* entry = m_snapshot ? m_snapshot->method(method.toStdString()) : nullptr;
    if (entry && entry->delegateMap) {
        for (const auto& [instruction, e] : *entry->delegateMap) {
            if (e.delegateMap.empty()) {
                m_rows.push_back(Row { instruction, &e, nullptr, nullptr });
                continue;
            }
            for (const auto& [id, handles] : e.delegateMap)
                m_rows.push_back(Row { instruction, &e, &id, &handles });
        }
    }
    m_nodes.build(entry);
    endResetModel();
}

std::vector<std::int64_t> DelegateDebugIdModel::handlesOf(int row) const
{
    const Row& r = m_rows[std::size_t(row)];
    return r.handles ? *r.handles : std::vector<std::int64_t> {};
}

QStringList DelegateDebugIdModel::edgeNodesOf(int row) const
{
    const Row& r = m_rows[std::size_t(row)];
    return r.handles ? m_nodes.edgeNodes(*r.handles) : QStringList {};
}

QStringList DelegateDebugIdModel::nodesOf(int row) const
{
    const Row& r = m_rows[std::size_t(row)];
    return r.handles ? m_nodes.nodes(*r.handles) : QStringList {};
}

QVariant DelegateDebugIdModel::cell(int row, int column, int role) const
{
    const Row& r = m_rows[std::size_t(row)];
    const bool sort = role == SortRole;
    if (role == DebugHandlesRole) {
        QList<qlonglong> hs;
        if (r.handles)
            for (const auto h : *r.handles)
                hs << h;
        return QVariant::fromValue(hs);
    }
    if (role == NodeNamesRole)
        return nodesOf(row);
    if (role == Qt::ToolTipRole && column == NodesColumn && r.handles) {
        const QStringList edge = m_nodes.edgeNodes(*r.handles);
        const QStringList lowered = m_nodes.loweredNodes(*r.handles);
        QString tip = QStringLiteral("Edge program: %1")
                          .arg(edge.isEmpty() ? QStringLiteral("(none)") : edge.join(QStringLiteral(", ")));
        if (!lowered.isEmpty())
            tip += QStringLiteral("\nLowered module (original program): %1").arg(lowered.join(QStringLiteral(", ")));
        return QString(tip + QStringLiteral("\nSelect the row to select these nodes in the graph."));
    }
    if (role != Qt::DisplayRole && !sort)
        return {};
    switch (column) {
    case InstructionColumn:
        return sort ? QVariant(qlonglong(r.instruction)) : QVariant(QString::number(r.instruction));
    case BackendColumn:
        return toQString(r.entry->name);
    case IdentifierColumn:
        return r.identifier ? toQString(*r.identifier) : QString();
    case HandlesColumn:
        return r.handles ? formatIntList(*r.handles) : QString();
    case NodesColumn:
        return nodesOf(row).join(QStringLiteral(", "));
    default:
        return {};
    }
}

QVariant DelegateDebugIdModel::headerCell(int column, int role) const
{
    if (role != Qt::DisplayRole)
        return {};
    static const char* const names[] = { "Instruction", "Backend", "Delegate debug id", "Debug handles",
        "Graph nodes" };
    return QLatin1String(names[column]);
}

} // namespace pte::ui
