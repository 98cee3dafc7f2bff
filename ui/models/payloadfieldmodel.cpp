// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "models/payloadfieldmodel.h"

#include "document/delegateinspection.h"
#include "models/roles.h"
#include "models/text.h"

#include <QColor>

namespace pte::ui {

void PayloadFieldModel::setDelegate(std::shared_ptr<const Snapshot> snapshot, int delegate)
{
    beginResetModel();
    m_snapshot = std::move(snapshot);
    m_rows.clear();
    const DelegateInspection* inspection = m_snapshot ? m_snapshot->delegates.get() : nullptr;
    if (inspection && delegate >= 0 && std::size_t(delegate) < inspection->delegates.size()) {
        const auto& d = inspection->delegates[std::size_t(delegate)];
        const auto& p = *d.payload;
        const auto& links = inspection->links[std::size_t(delegate)];
        const QString payload = QStringLiteral("payload");
        m_rows.push_back({ payload, QStringLiteral("backend"), toQString(p.backendId) });
        m_rows.push_back({ payload, QStringLiteral("format"), toQString(p.format) });
        m_rows.push_back({ payload, QStringLiteral("kind"), QLatin1String(pte::payloadKindName(p.kind)) });
        for (const auto& f : p.summary)
            m_rows.push_back({ QStringLiteral("summary"), toQString(f.name), toQString(f.value) });
        for (const auto& r : p.regions)
            m_rows.push_back({ QStringLiteral("region"), toQString(r.name),
                QStringLiteral("bytes %1–%2 (%3)").arg(r.offset).arg(r.offset + r.size).arg(formatBytes(r.size)) });
        for (const auto& f : p.files)
            m_rows.push_back({ QStringLiteral("file"), toQString(f.path),
                f.directory ? QStringLiteral("folder")
                            : QStringLiteral("%1 at %2").arg(formatBytes(f.size)).arg(f.offset) });
        QStringList handles;
        for (const auto h : links.partitionHandles)
            handles << QString::number(h);
        m_rows.push_back({ QStringLiteral("debug map"), QStringLiteral("partition handles"),
            handles.isEmpty()
                ? (inspection->haveDebugMaps ? QStringLiteral("none for this call")
                                             : QStringLiteral("no debug map loaded (add the ETRecord: File > "
                                                              "Add Graph Dump…, or emit)"))
                : handles.join(QStringLiteral(", ")) });
        if (!links.unexpectedHandles.empty()) {
            QStringList extra;
            for (const auto h : links.unexpectedHandles)
                extra << QString::number(h);
            m_rows.push_back({ QStringLiteral("debug map"), QStringLiteral("handles not in the partition"),
                extra.join(QStringLiteral(", ")) });
        }
        for (const auto& diag : p.diagnostics)
            m_rows.push_back({ QStringLiteral("finding"), QLatin1String(pte::severityName(diag.severity)),
                toQString(diag.message), int(diag.severity) });
    }
    endResetModel();
}

QVariant PayloadFieldModel::cell(int row, int column, int role) const
{
    const Row& r = m_rows[std::size_t(row)];
    if (role == SeverityRole)
        return r.severity < 0 ? QVariant() : QVariant(r.severity);
    if (role == Qt::ForegroundRole && r.severity == int(pte::Severity::Error))
        return QColor(0xb0, 0x30, 0x30);
    if (role != Qt::DisplayRole && role != SortRole && role != Qt::ToolTipRole)
        return {};
    switch (column) {
    case SectionColumn:
        return role == SortRole ? QVariant(row) : QVariant(r.section);
    case NameColumn:
        return r.name;
    case ValueColumn:
        return r.value;
    default:
        return {};
    }
}

QVariant PayloadFieldModel::headerCell(int column, int role) const
{
    if (role != Qt::DisplayRole)
        return {};
    static const char* const names[] = { "Section", "Name", "Value" };
    return QLatin1String(names[column]);
}

} // namespace pte::ui
