// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "models/innernodemodel.h"

#include "document/delegateinspection.h"
#include "document/delegatetimes.h"
#include "document/runresult.h"
#include "document/snapshot.h"
#include "models/roles.h"
#include "models/statstext.h"
#include "models/text.h"
#include "pte/tensortext.h"

#include <QColor>
#include <QFont>

#include <limits>

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

void InnerNodeModel::delegateChanged()
{
    m_absorbed.clear();
    m_timing = nullptr;
    if (delegate() < 0)
        return;
    const auto& links = inspection()->links[std::size_t(delegate())];
    m_absorbed.resize(payload()->nodes.size());
    for (std::size_t a = 0; a < links.absorbed.size(); ++a)
        if (links.absorbed[a].intoNode && *links.absorbed[a].intoNode < m_absorbed.size())
            m_absorbed[*links.absorbed[a].intoNode].push_back(a);
    if (snapshot()->profile)
        m_timing = snapshot()->profile->delegateTimes.of(inspection(), delegate());
    m_runValues = nullptr;
    const auto& d = inspection()->delegates[std::size_t(delegate())];
    if (const RunResult* run = currentRun(*snapshot(), d.methodName); run && !d.calls.empty()) {
        const auto& byCall = run->summary.innerNodes;
        if (const auto it = byCall.find(d.calls.front().second); it != byCall.end())
            m_runValues = &it->second;
    }
}

int InnerNodeModel::rows() const { return payload() ? int(payload()->nodes.size()) : 0; }

int InnerNodeModel::rowOfNode(std::uint32_t node) const { return node < std::uint32_t(rows()) ? int(node) : -1; }

QVariant InnerNodeModel::cell(int row, int column, int role) const
{
    const auto& links = inspection()->links[std::size_t(delegate())];
    const pte::InnerNode& n = payload()->nodes[std::size_t(row)];
    const auto& sources = links.nodeSources[std::size_t(row)];
    const auto& absorbed = m_absorbed[std::size_t(row)];
    const bool inserted = n.backendInserted();
    // No source node can be named without a source graph and a debug map: the cell says which is missing.
    const QString noSources = sources.empty() && !inserted ? missingSources() : QString();
    switch (role) {
    case Qt::ForegroundRole:
        return inserted || (column == SourcesColumn && !noSources.isEmpty()) ? QVariant(QColor(0x80, 0x80, 0x80))
                                                                             : QVariant();
    case Qt::FontRole:
        if (column == SourcesColumn && !noSources.isEmpty()) {
            QFont italic;
            italic.setItalic(true);
            return italic;
        }
        return {};
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
    case TimeColumn:
    case P10Column:
    case P90Column:
    case EventColumn:
    case AlignmentColumn:
        return timeCell(row, column, role);
    case RunValueColumn:
        return runValueCell(row, role);
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
        if (!noSources.isEmpty())
            return sort ? QVariant(QString()) : QVariant(noSources);
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

QVariant InnerNodeModel::timeCell(int row, int column, int role) const
{
    if (!m_timing || std::size_t(row) >= m_timing->nodes.size())
        return role == SortRole ? QVariant(-1.0) : QVariant();
    const InnerNodeTiming& t = m_timing->nodes[std::size_t(row)];
    const bool sort = role == SortRole;
    const bool tip = role == Qt::ToolTipRole;
    switch (column) {
    case TimeColumn:
    case P10Column:
    case P90Column: {
        const double v = column == TimeColumn ? t.p50 : column == P10Column ? t.p10 : t.p90;
        if (!t.hasTimes())
            return sort ? QVariant(-1.0) : QVariant();
        if (sort)
            return v;
        if (tip)
            return QStringLiteral("%1 over %2 of the delegate")
                .arg(counted(qint64(t.durations.size()), QStringLiteral("event")),
                    counted(qint64(m_timing->calls), QStringLiteral("call")));
        return QString::number(v, 'f', 6);
    }
    case EventColumn:
        return toQString(t.label);
    case AlignmentColumn: {
        if (!t.quality)
            return {};
        if (!tip)
            return QLatin1String(pte::alignmentQualityName(*t.quality));
        QStringList lines;
        switch (*t.quality) {
        case pte::AlignmentQuality::Exact:
            lines << QStringLiteral("Exact: one event per inner node in every call, each compatible with its node");
            break;
        case pte::AlignmentQuality::Approximate:
            lines << QStringLiteral("Approximate: every event placed, but XNNPACK fused some nodes away (or its "
                                    "label counters were irregular), so the pairing rests on order");
            break;
        case pte::AlignmentQuality::Failed:
            lines << QStringLiteral("Failed: an event matched no node, or a node that cannot be fused got no event; "
                                    "times after that point are unreliable");
            break;
        }
        if (t.skippedCalls)
            lines << QStringLiteral("No event in %1: fused away by XNNPACK, as far as the labels tell")
                         .arg(counted(qint64(t.skippedCalls), QStringLiteral("call")));
        if (t.unmatchedCalls)
            lines << QStringLiteral("No event in %1, though XNNPACK cannot fuse this node away")
                         .arg(counted(qint64(t.unmatchedCalls), QStringLiteral("call")));
        for (const auto& note : m_timing->notes)
            lines << toQString(note);
        return lines.join(QLatin1Char('\n'));
    }
    default:
        return {};
    }
}

QVariant InnerNodeModel::runValueCell(int row, int role) const
{
    const pte::RunInnerNodeFacts* f = nullptr;
    if (m_runValues)
        if (const auto it = m_runValues->find(std::uint32_t(row)); it != m_runValues->end())
            f = &it->second;
    if (!f)
        return role == SortRole ? QVariant(-std::numeric_limits<double>::infinity()) : QVariant();
    if (role == SortRole)
        return f->stats.max;
    if (role == Qt::ToolTipRole)
        return QStringLiteral("%1 as the reference interpreter computed it (the delegate's expected value)\n"
                              "first elements %2\n%3 elements, %4 NaN, %5 infinite")
            .arg(toQString(pte::sizesText(f->sizes)), firstElementsText(f->stats))
            .arg(f->stats.count)
            .arg(f->stats.nanCount)
            .arg(f->stats.infCount);
    return QStringLiteral("%1  %2").arg(toQString(pte::sizesText(f->sizes)), statsRangeText(f->stats));
}

QString InnerNodeModel::missingSources() const
{
    if (!inspection())
        return {};
    if (inspection()->inputs.graphs.empty())
        return QStringLiteral("no source graph: add the ETRecord (File > Add Graph Dump…)");
    if (!inspection()->haveDebugMaps)
        return QStringLiteral("no debug map: add the ETRecord (File > Add Graph Dump…), or emit");
    return {};
}

QVariant InnerNodeModel::headerCell(int column, int role) const
{
    if (role == Qt::ToolTipRole && column == SourcesColumn)
        return QStringLiteral("Source-graph nodes with the same debug handle (ETRecord edge program or the emitted "
                              "dump)");
    if (role == Qt::ToolTipRole && (column == TimeColumn || column == P10Column || column == P90Column))
        return QStringLiteral("The XNNPACK operator events aligned to the node, over every run of the ETDump");
    if (role == Qt::ToolTipRole && column == RunValueColumn)
        return QStringLiteral("After Program > Run…: each node's output as ptelens' reference interpreter computed "
                              "it (shape; min … max, mean)");
    if (role == Qt::ToolTipRole && column == AlignmentColumn)
        return QStringLiteral("How the delegate's events were paired with its nodes: by order, as XNNPACK runs "
                              "them (its events carry no node index)");
    if (role != Qt::DisplayRole)
        return {};
    const QString unit = snapshot() && snapshot()->profile
        ? QStringLiteral(" (%1)").arg(QLatin1String(pte::timeScaleName(snapshot()->profile->table.options.target)))
        : QString();
    switch (column) {
    case TimeColumn:
        return QString(QStringLiteral("Median") + unit);
    case P10Column:
        return QString(QStringLiteral("p10") + unit);
    case P90Column:
        return QString(QStringLiteral("p90") + unit);
    default:
        break;
    }
    static const char* const names[] = { "#", "Kind", "", "", "", "Event", "Alignment", "Run value", "Handles", "Mark",
        "Inputs", "Outputs", "Parameters", "Source nodes" };
    return QLatin1String(names[column]);
}

} // namespace pte::ui
