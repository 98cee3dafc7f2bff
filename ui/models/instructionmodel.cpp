// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "models/instructionmodel.h"

#include "models/roles.h"
#include "models/text.h"

#include <QColor>

#include <algorithm>

namespace pte::ui {

namespace {
const pte::Instruction& emptyInstruction()
{
    static const pte::Instruction none;
    return none;
}
constexpr int kMaxArgsShown = 24;
} // namespace

void InstructionModel::setMethod(std::shared_ptr<const Snapshot> snapshot, const QString& method)
{
    beginResetModel();
    m_snapshot = std::move(snapshot);
    m_rows.clear();
    m_operatorNames.clear();
    m_operatorArgs.clear();
    m_entry = m_snapshot ? m_snapshot->method(method.toStdString()) : nullptr;
    m_plan = m_entry ? m_entry->plan : nullptr;
    m_handleNodes.build(m_entry);
    m_timing = m_snapshot && m_snapshot->profile ? m_snapshot->profile->timing(method.toStdString()) : nullptr;
    m_unit = m_snapshot && m_snapshot->profile
        ? QLatin1String(pte::timeScaleName(m_snapshot->profile->table.options.target))
        : QStringLiteral("ms");
    if (m_plan) {
        for (const auto& op : m_plan->operators) {
            m_operatorNames << toQString(op.qualifiedName());
            m_operatorArgs.push_back(pte::kernelArguments(op.name, op.overload));
        }
        std::size_t total = 0;
        for (const auto& c : m_plan->chains)
            total += c.instructions.size();
        m_rows.reserve(total);
        for (std::size_t ci = 0; ci < m_plan->chains.size(); ++ci) {
            const auto& chain = m_plan->chains[ci];
            for (std::size_t ii = 0; ii < chain.instructions.size(); ++ii) {
                const auto& ins = chain.instructions[ii];
                RowInfo info;
                info.chain = std::uint32_t(ci);
                info.index = std::uint32_t(ii);
                info.kind = ins.kind();
                if (const auto* k = std::get_if<pte::KernelCall>(&ins.args))
                    info.op = k->opIndex;
                else if (const auto* d = std::get_if<pte::DelegateCall>(&ins.args))
                    info.delegate = d->delegateIndex;
                if (ci == 0 && m_entry->debugHandles) {
                    const auto it = m_entry->debugHandles->find(std::int64_t(ii));
                    if (it != m_entry->debugHandles->end())
                        info.handles = &it->second;
                }
                if (m_timing)
                    info.timing = m_timing->find(std::int32_t(ci), std::int32_t(ii));
                if (ci == 0 && m_entry->delegateMap) {
                    const auto it = m_entry->delegateMap->find(std::int64_t(ii));
                    if (it != m_entry->delegateMap->end())
                        info.delegateEntry = &it->second;
                }
                m_rows.push_back(info);
            }
        }
    }
    endResetModel();
}

const pte::Instruction& InstructionModel::instruction(int row) const
{
    if (!m_plan || row < 0 || row >= int(m_rows.size()))
        return emptyInstruction();
    const RowInfo& r = m_rows[std::size_t(row)];
    return m_plan->chains[r.chain].instructions[r.index];
}

std::vector<std::int32_t> InstructionModel::valueIds(int row) const
{
    const auto& ins = instruction(row);
    return std::visit(
        [](const auto& a) -> std::vector<std::int32_t> {
            using T = std::decay_t<decltype(a)>;
            if constexpr (std::is_same_v<T, pte::KernelCall> || std::is_same_v<T, pte::DelegateCall>)
                return a.args;
            else if constexpr (std::is_same_v<T, pte::MoveCall>)
                return { a.moveFrom, a.moveTo };
            else if constexpr (std::is_same_v<T, pte::JumpFalseCall>)
                return { a.condValueIndex };
            else if constexpr (std::is_same_v<T, pte::FreeCall>)
                return { a.valueIndex };
            else
                return {};
        },
        ins.args);
}

QStringList InstructionModel::nodeNames(int row) const
{
    QStringList names;
    if (!m_entry || !m_entry->emitInfo || row < 0 || row >= int(m_rows.size()) || m_rows[std::size_t(row)].chain != 0)
        return names;
    const auto it = m_entry->emitInfo->instructionNodes.find(std::int32_t(m_rows[std::size_t(row)].index));
    if (it != m_entry->emitInfo->instructionNodes.end())
        for (const auto& n : it->second)
            names << toQString(n);
    return names;
}

QStringList InstructionModel::delegateIdDetails(int row) const
{
    QStringList lines;
    if (row < 0 || row >= int(m_rows.size()) || !m_rows[std::size_t(row)].delegateEntry)
        return lines;
    for (const auto& [id, hs] : m_rows[std::size_t(row)].delegateEntry->delegateMap) {
        const QStringList nodes = m_handleNodes.nodes(hs);
        lines << QStringLiteral("%1 → handles [%2] → %3")
                     .arg(toQString(id), formatIntList(hs),
                         nodes.isEmpty() ? QStringLiteral("(no graph node)") : nodes.join(QStringLiteral(", ")));
    }
    return lines;
}

int InstructionModel::rowOf(int chain, int index) const
{
    if (chain < 0 || index < 0)
        return -1;
    if (chain == 0)
        return rowOfInstruction(index);
    // Later chains follow chain 0; find the first row of the chain, then step.
    const auto it =
        std::lower_bound(m_rows.begin(), m_rows.end(), std::pair(std::uint32_t(chain), std::uint32_t(index)),
            [](const RowInfo& r, const std::pair<std::uint32_t, std::uint32_t>& key) {
                return std::pair(r.chain, r.index) < key;
            });
    if (it != m_rows.end() && int(it->chain) == chain && int(it->index) == index)
        return int(it - m_rows.begin());
    return -1;
}

std::vector<int> InstructionModel::rowsFor(const QStringList& names, std::span<const std::int64_t> handles) const
{
    std::vector<int> out;
    for (int row = 0; row < int(m_rows.size()); ++row) {
        const RowInfo& r = m_rows[std::size_t(row)];
        bool match = false;
        if (r.handles)
            for (const auto h : *r.handles)
                match = match || std::find(handles.begin(), handles.end(), h) != handles.end();
        if (!match && r.delegateEntry)
            for (const auto& [id, hs] : r.delegateEntry->delegateMap)
                for (const auto h : hs)
                    match = match || std::find(handles.begin(), handles.end(), h) != handles.end();
        if (!match && !names.isEmpty())
            for (const auto& n : nodeNames(row))
                match = match || names.contains(n);
        if (match)
            out.push_back(row);
    }
    return out;
}

int InstructionModel::rowOfInstruction(int id) const
{
    if (id < 0)
        return -1;
    if (id < int(m_rows.size()) && m_rows[std::size_t(id)].chain == 0 && int(m_rows[std::size_t(id)].index) == id)
        return id;
    return -1;
}

QStringList InstructionModel::backends() const
{
    QStringList out;
    if (m_plan)
        for (const auto& d : m_plan->delegates)
            if (!out.contains(toQString(d.id)))
                out << toQString(d.id);
    return out;
}

QString InstructionModel::valueText(std::int32_t id) const
{
    QString text = valueRef(id);
    if (!m_plan || id < 0 || std::size_t(id) >= m_plan->values.size())
        return id == -1 ? QStringLiteral("None") : text + QStringLiteral("?");
    const auto& v = m_plan->values[std::size_t(id)];
    if (const auto* t = v.tensor()) {
        text += QLatin1Char(' ') + dtypeName(t->scalarType) + formatShape(t->sizes);
        if (t->dataBufferIdx > 0)
            text += QStringLiteral(" const");
    } else if (const auto* i = std::get_if<pte::Int>(&v.val)) {
        text += QStringLiteral("=%1").arg(i->intVal);
    } else if (const auto* d = std::get_if<pte::Double>(&v.val)) {
        text += QStringLiteral("=%1").arg(d->doubleVal);
    } else if (const auto* b = std::get_if<pte::Bool>(&v.val)) {
        text += b->boolVal ? QStringLiteral("=true") : QStringLiteral("=false");
    } else if (v.kind() == pte::ValueKind::Null) {
        text += QStringLiteral("=None");
    } else {
        text += QLatin1Char(' ') + QLatin1String(pte::valueKindName(v.kind()));
    }
    return text;
}

QString InstructionModel::argumentsText(const pte::Instruction& ins, bool multiline) const
{
    return std::visit(
        [this, multiline](const auto& a) -> QString {
            using T = std::decay_t<decltype(a)>;
            if constexpr (std::is_same_v<T, pte::KernelCall> || std::is_same_v<T, pte::DelegateCall>) {
                // Schema names when the operator is known and the slots line up ("self: %1 f32[2, 3]"); the
                // return slot, which repeats the out argument, shows as "→ %5".
                const std::vector<pte::KernelArgumentInfo>* names = nullptr;
                if constexpr (std::is_same_v<T, pte::KernelCall>)
                    if (a.opIndex >= 0 && std::size_t(a.opIndex) < m_operatorArgs.size()
                        && m_operatorArgs[std::size_t(a.opIndex)].size() == a.args.size())
                        names = &m_operatorArgs[std::size_t(a.opIndex)];
                QString out;
                const int n = int(a.args.size());
                const int shown = multiline ? n : std::min(n, kMaxArgsShown);
                for (int i = 0; i < shown; ++i) {
                    const QString value = valueText(a.args[std::size_t(i)]);
                    const pte::KernelArgumentInfo* info = names ? &(*names)[std::size_t(i)] : nullptr;
                    if (multiline) {
                        if (i)
                            out += QLatin1Char('\n');
                        out += info ? QStringLiteral("%1: %2").arg(toQString(info->name), value) : value;
                    } else if (info && info->isReturn) {
                        out += QStringLiteral(" → ") + value;
                    } else {
                        if (i)
                            out += QStringLiteral(", ");
                        out += info ? toQString(info->name) + QStringLiteral(": ") + value : value;
                    }
                }
                if (n > shown)
                    out += QStringLiteral(", … (%1 arguments)").arg(n);
                return out;
            } else if constexpr (std::is_same_v<T, pte::MoveCall>) {
                return valueText(a.moveFrom) + QStringLiteral(" → ") + valueText(a.moveTo);
            } else if constexpr (std::is_same_v<T, pte::JumpFalseCall>) {
                return QStringLiteral("if not %1 goto %2")
                    .arg(valueText(a.condValueIndex))
                    .arg(a.destinationInstruction);
            } else if constexpr (std::is_same_v<T, pte::FreeCall>) {
                return valueText(a.valueIndex);
            } else {
                return {};
            }
        },
        ins.args);
}

QVariant InstructionModel::cell(int row, int column, int role) const
{
    const RowInfo& r = m_rows[std::size_t(row)];
    switch (role) {
    case SortRole:
        switch (column) {
        case IdColumn:
            return qint64(r.chain) << 32 | r.index;
        case KindColumn:
            return int(r.kind);
        case DebugHandlesColumn:
            return r.handles && !r.handles->empty() ? QVariant(qlonglong(r.handles->front())) : QVariant(qlonglong(-1));
        case TimeColumn:
            return r.timing ? r.timing->median : -1.0;
        case P10Column:
            return r.timing ? r.timing->p10 : -1.0;
        case P90Column:
            return r.timing ? r.timing->p90 : -1.0;
        case ShareColumn:
            return r.timing ? r.timing->share : -1.0;
        default:
            return cell(row, column, Qt::DisplayRole).toString().toLower();
        }
    case DebugHandlesRole: {
        QList<qlonglong> hs;
        if (r.handles)
            for (const auto h : *r.handles)
                hs << h;
        return QVariant::fromValue(hs);
    }
    case ValueIdsRole: {
        QList<int> ids;
        for (const auto v : valueIds(row))
            ids << v;
        return QVariant::fromValue(ids);
    }
    case NodeNamesRole:
        return nodeNames(row);
    case Qt::TextAlignmentRole:
        if (column == IdColumn || column >= TimeColumn)
            return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    case Qt::ForegroundRole:
        if (column == KindColumn && r.kind == pte::InstructionKind::DelegateCall)
            return QColor(0x1f, 0x6f, 0xb0);
        if (column == KindColumn && r.kind != pte::InstructionKind::KernelCall)
            return QColor(0x70, 0x70, 0x70);
        return {};
    case Qt::ToolTipRole:
        if (column == ArgumentsColumn)
            return argumentsText(instruction(row), true);
        if (column == DelegateIdsColumn && r.delegateEntry)
            return delegateIdDetails(row).join(QLatin1Char('\n'));
        if (column >= TimeColumn && r.timing)
            return QStringLiteral("%1, %2%3")
                .arg(counted(qint64(r.timing->samples.size()), QStringLiteral("run")),
                    counted(qint64(r.timing->executions), QStringLiteral("execution")),
                    r.timing->delegateEvents ? QStringLiteral(", %1").arg(
                        counted(qint64(r.timing->delegateEvents), QStringLiteral("delegate event")))
                                             : QString());
        return {};
    case Qt::DisplayRole:
        break;
    default:
        return {};
    }
    switch (column) {
    case IdColumn:
        return r.chain == 0 ? QString::number(r.index) : QStringLiteral("%1:%2").arg(r.chain).arg(r.index);
    case KindColumn:
        return QLatin1String(pte::instructionKindName(r.kind));
    case OperatorColumn:
        if (r.op >= 0)
            return r.op < m_operatorNames.size() ? m_operatorNames[r.op] : QStringLiteral("operator #%1?").arg(r.op);
        if (r.delegate >= 0) {
            if (std::size_t(r.delegate) < m_plan->delegates.size())
                return QStringLiteral("delegate #%1").arg(r.delegate);
            return QStringLiteral("delegate #%1?").arg(r.delegate);
        }
        return {};
    case ArgumentsColumn:
        return argumentsText(instruction(row));
    case DebugHandlesColumn: {
        QString out;
        if (r.handles)
            out = formatIntList(*r.handles);
        return out;
    }
    case BackendColumn:
        if (r.delegate >= 0 && std::size_t(r.delegate) < m_plan->delegates.size())
            return toQString(m_plan->delegates[std::size_t(r.delegate)].id);
        if (r.delegateEntry)
            return toQString(r.delegateEntry->name);
        return {};
    case DelegateIdsColumn: {
        if (!r.delegateEntry)
            return {};
        QStringList parts;
        for (const auto& [id, hs] : r.delegateEntry->delegateMap)
            parts << QStringLiteral("%1→[%2]").arg(toQString(id), formatIntList(hs));
        return parts.join(QStringLiteral("; "));
    }
    case NodesColumn:
        return nodeNames(row).join(QStringLiteral(", "));
    case TimeColumn:
        return r.timing ? QString::number(r.timing->median, 'f', 6) : QString();
    case P10Column:
        return r.timing ? QString::number(r.timing->p10, 'f', 6) : QString();
    case P90Column:
        return r.timing ? QString::number(r.timing->p90, 'f', 6) : QString();
    case ShareColumn:
        return r.timing && m_timing->executeMedian > 0
            ? QString(QString::number(r.timing->share * 100, 'f', 1) + QLatin1Char('%'))
            : QString();
    default:
        return {};
    }
}

QVariant InstructionModel::headerCell(int column, int role) const
{
    if (role != Qt::DisplayRole)
        return {};
    static const char* const names[] = { "Id", "Kind", "Operator", "Arguments", "Debug handles", "Backend",
        "Delegate debug ids", "Graph nodes" };
    switch (column) {
    case TimeColumn:
        return QStringLiteral("Time (%1)").arg(m_unit);
    case P10Column:
        return QStringLiteral("p10 (%1)").arg(m_unit);
    case P90Column:
        return QStringLiteral("p90 (%1)").arg(m_unit);
    case ShareColumn:
        return QStringLiteral("Share");
    default:
        return QLatin1String(names[column]);
    }
}

} // namespace pte::ui
