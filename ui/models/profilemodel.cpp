// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "models/profilemodel.h"

#include "models/graphbuilder.h"
#include "models/roles.h"
#include "models/text.h"

#include <QColor>

#include <algorithm>
#include <cmath>

namespace pte::ui {

namespace {

QString joinPairs(const std::vector<std::pair<std::string, std::string>>& items, const char* separator)
{
    QStringList parts;
    for (const auto& [node, text] : items)
        parts << toQString(node) + QStringLiteral(": ") + toQString(text);
    return parts.join(QLatin1String(separator));
}

QString time(double v) { return std::isnan(v) ? QString() : QString::number(v, 'f', 6); }

/** Each node's nn_module_stack as the module path it reads as ("conv: layer1 › layer1.0"), not the raw stack. */
QString modulesText(const std::vector<std::pair<std::string, std::string>>& items, const char* separator)
{
    QStringList parts;
    for (const auto& [node, stack] : items) {
        const QStringList paths = modulePaths(stack);
        parts << toQString(node) + QStringLiteral(": ")
                + (paths.isEmpty() ? QStringLiteral("(top level)") : paths.join(QStringLiteral(" › ")));
    }
    return parts.join(QLatin1String(separator));
}

} // namespace

void ProfileModel::setSnapshot(std::shared_ptr<const Snapshot> snapshot)
{
    beginResetModel();
    m_snapshot = std::move(snapshot);
    m_profile = m_snapshot ? m_snapshot->profile : nullptr;
    m_search.clear();
    if (m_profile) {
        const auto& t = m_profile->table;
        m_search.reserve(t.rows.size());
        // Block and method names repeat: convert each once.
        std::vector<QString> blocks;
        for (const auto& b : t.blocks)
            blocks.push_back(toQString(b.name).toLower());
        for (std::size_t r = 0; r < t.rows.size(); ++r) {
            const auto& row = t.rows[r];
            QString s = toQString(row.eventName).toLower();
            s += QLatin1Char('\n') + blocks[row.block];
            for (const auto& op : row.opTypes)
                s += QLatin1Char('\n') + toQString(op).toLower();
            if (row.isDelegatedOp)
                s += QLatin1Char('\n') + toQString(row.delegateIdentifier()).toLower();
            if (!row.delegateBackendName.empty())
                s += QLatin1Char('\n') + toQString(row.delegateBackendName).toLower();
            if (row.method >= 0)
                s += QLatin1Char('\n') + toQString(m_profile->methodName(row.method)).toLower();
            for (const auto& n : nodeNames(int(r)))
                s += QLatin1Char('\n') + n.toLower();
            m_search.push_back(std::move(s));
        }
    }
    endResetModel();
}

int ProfileModel::rows() const { return m_profile ? int(m_profile->table.rows.size()) : 0; }

QStringList ProfileModel::nodeNames(int r) const
{
    QStringList out;
    const auto& pr = row(r);
    if (!m_profile->join || pr.method < 0)
        return out;
    const auto& g = m_profile->join->sources->methods[std::size_t(pr.method)].graph;
    if (g)
        for (const auto n : pr.nodes)
            out << toQString(g->graph.nodes[n].name);
    return out;
}

std::vector<int> ProfileModel::rowsFor(const QString& method, const std::vector<int>& instructions) const
{
    std::vector<int> out;
    if (!m_profile || !m_profile->join || instructions.empty())
        return out;
    const int index = m_profile->join->sources->methodIndex(method.toStdString());
    if (index < 0)
        return out;
    std::vector<int> sorted = instructions;
    std::sort(sorted.begin(), sorted.end());
    for (int r = 0; r < rows(); ++r) {
        const auto& pr = row(r);
        if (pr.method == index && pr.chain == 0 && std::binary_search(sorted.begin(), sorted.end(), pr.instruction))
            out.push_back(r);
    }
    return out;
}

QStringList ProfileModel::blockNames() const
{
    QStringList out;
    if (m_profile)
        for (const auto& b : m_profile->table.blocks)
            if (!out.contains(toQString(b.name)))
                out << toQString(b.name);
    return out;
}

QString ProfileModel::unit() const
{
    return QLatin1String(pte::timeScaleName(m_profile ? m_profile->table.options.target : pte::TimeScale::Ms));
}

QVariant ProfileModel::cell(int r, int column, int role) const
{
    const auto& pr = row(r);
    const double stats[] = { pr.p50, pr.p10, pr.p90, pr.avg, pr.min, pr.max };
    switch (role) {
    case SortRole:
        if (column >= P50Column && column <= MaxColumn)
            return std::isnan(stats[column - P50Column]) ? -1.0 : stats[column - P50Column];
        if (column == RunsColumn)
            return int(pr.raw.size());
        if (column == InstructionColumn)
            return pr.instruction;
        if (column == BlockColumn)
            return int(pr.block);
        return cell(r, column, Qt::DisplayRole).toString().toLower();
    case NodeNamesRole:
        return nodeNames(r);
    case Qt::TextAlignmentRole:
        if ((column >= RunsColumn && column <= MaxColumn) || column == InstructionColumn)
            return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    case Qt::ForegroundRole:
        if (column == EventColumn && pr.isDelegatedOp)
            return QColor(0x1f, 0x6f, 0xb0);
        if (column == DelegateIdColumn && pr.mapping == pte::DelegateMapping::Unmapped)
            return QColor(0x90, 0x60, 0x00);
        return {};
    case Qt::ToolTipRole:
        if (column == StackTraceColumn)
            return joinPairs(pr.stackTraces, "\n\n");
        if (column == OpTypesColumn || column == NodesColumn || column == ModuleColumn)
            return cell(r, column, Qt::DisplayRole);
        if (column == DelegateIdColumn && pr.isDelegatedOp)
            switch (pr.mapping) {
            case pte::DelegateMapping::Mapped:
                return QStringLiteral("The delegate map maps this identifier to debug handles %1")
                    .arg(formatIntList(pr.debugHandles));
            case pte::DelegateMapping::Unmapped:
                return QStringLiteral(
                    "The delegate map of this call has no such identifier (not mapped to graph nodes)");
            case pte::DelegateMapping::NoMap:
                return QStringLiteral("No delegate map for this call (no ETRecord or emission maps)");
            case pte::DelegateMapping::Aligned:
                return QStringLiteral("Tied to inner node handles %1 by aligning the delegate's events with its "
                                      "inner nodes (no delegate map names this identifier)")
                    .arg(formatIntList(pr.debugHandles));
            case pte::DelegateMapping::NotDelegate:
                break;
            }
        return {};
    case Qt::DisplayRole:
        break;
    default:
        return {};
    }
    switch (column) {
    case BlockColumn:
        return toQString(m_profile->table.blocks[pr.block].name);
    case EventColumn:
        return toQString(pr.eventName);
    case RunsColumn:
        return QString::number(pr.raw.size());
    case P50Column:
    case P10Column:
    case P90Column:
    case AvgColumn:
    case MinColumn:
    case MaxColumn:
        return time(stats[column - P50Column]);
    case OpTypesColumn: {
        QStringList ops;
        for (const auto& op : pr.opTypes)
            ops << toQString(op);
        return ops.join(QStringLiteral(", "));
    }
    case DelegateIdColumn:
        return toQString(pr.delegateIdentifier());
    case DelegatedColumn:
        return pr.isDelegatedOp ? QStringLiteral("yes") : QString();
    case BackendColumn:
        return toQString(pr.delegateBackendName);
    case InstructionColumn:
        return pr.instruction >= 0 ? (pr.chain == 0 ? QString::number(pr.instruction)
                                                    : QStringLiteral("%1:%2").arg(pr.chain).arg(pr.instruction))
                                   : QString();
    case NodesColumn:
        return nodeNames(r).join(QStringLiteral(", "));
    case StackTraceColumn: {
        // The last line of the first node's trace: where in the model the op was called.
        if (pr.stackTraces.empty())
            return QString();
        const QString trace = toQString(pr.stackTraces.front().second).trimmed();
        return trace.section(QLatin1Char('\n'), -1).trimmed();
    }
    case ModuleColumn:
        return modulesText(pr.moduleHierarchy, "; ");
    case MethodColumn:
        return toQString(m_profile->methodName(pr.method));
    default:
        return {};
    }
}

QVariant ProfileModel::headerCell(int column, int role) const
{
    if (role != Qt::DisplayRole)
        return {};
    const QString u = QStringLiteral(" (%1)").arg(unit());
    switch (column) {
    case BlockColumn:
        return QStringLiteral("Block");
    case EventColumn:
        return QStringLiteral("Event");
    case RunsColumn:
        return QStringLiteral("Runs");
    case P50Column:
        return QString(QStringLiteral("p50") + u);
    case P10Column:
        return QString(QStringLiteral("p10") + u);
    case P90Column:
        return QString(QStringLiteral("p90") + u);
    case AvgColumn:
        return QString(QStringLiteral("avg") + u);
    case MinColumn:
        return QString(QStringLiteral("min") + u);
    case MaxColumn:
        return QString(QStringLiteral("max") + u);
    case OpTypesColumn:
        return QStringLiteral("Op types");
    case DelegateIdColumn:
        return QStringLiteral("Delegate id");
    case DelegatedColumn:
        return QStringLiteral("Delegated");
    case BackendColumn:
        return QStringLiteral("Backend");
    case InstructionColumn:
        return QStringLiteral("Instr");
    case NodesColumn:
        return QStringLiteral("Graph nodes");
    case StackTraceColumn:
        return QStringLiteral("Stack trace");
    case ModuleColumn:
        return QStringLiteral("Module hierarchy");
    case MethodColumn:
        return QStringLiteral("Method");
    default:
        return {};
    }
}

} // namespace pte::ui
