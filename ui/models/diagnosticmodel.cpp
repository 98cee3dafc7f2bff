// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "models/diagnosticmodel.h"

#include "models/roles.h"
#include "models/text.h"

#include <QColor>
#include <QFileInfo>

namespace pte::ui {

QString severityCounts(const pte::Diagnostics& diagnostics)
{
    int errors = 0, warnings = 0, infos = 0;
    for (const auto& d : diagnostics)
        (d.severity == pte::Severity::Error ? errors : d.severity == pte::Severity::Warning ? warnings : infos) += 1;
    QStringList parts;
    if (errors > 0)
        parts << (errors == 1 ? QStringLiteral("1 error") : QStringLiteral("%1 errors").arg(errors));
    if (warnings > 0)
        parts << (warnings == 1 ? QStringLiteral("1 warning") : QStringLiteral("%1 warnings").arg(warnings));
    if (infos > 0)
        parts << QStringLiteral("%1 info").arg(infos);
    return parts.join(QStringLiteral(", "));
}

void DiagnosticModel::setDiagnostics(pte::Diagnostics diagnostics)
{
    beginResetModel();
    m_diagnostics = std::move(diagnostics);
    endResetModel();
}

void DiagnosticModel::append(pte::Diagnostic diagnostic)
{
    const int row = int(m_diagnostics.size());
    beginInsertRows({}, row, row);
    m_diagnostics.push_back(std::move(diagnostic));
    endInsertRows();
}

QVariant DiagnosticModel::cell(int row, int column, int role) const
{
    const pte::Diagnostic& d = m_diagnostics[std::size_t(row)];
    switch (role) {
    case SeverityRole:
        return int(d.severity);
    case OffsetRole:
        return d.offset ? QVariant(qulonglong(*d.offset)) : QVariant();
    case FieldPathRole:
        return toQString(d.fieldPath);
    case Qt::DecorationRole:
        if (column != SeverityColumn)
            return {};
        switch (d.severity) {
        case pte::Severity::Error:
            return QColor(0xd3, 0x2f, 0x2f);
        case pte::Severity::Warning:
            return QColor(0xf5, 0xa6, 0x23);
        case pte::Severity::Info:
            return QColor(0x42, 0x85, 0xf4);
        }
        return {};
    case Qt::ToolTipRole:
        if (column == OffsetColumn && d.offset)
            return QStringLiteral("Byte %1 (0x%2) of the file").arg(*d.offset).arg(*d.offset, 0, 16);
        return toQString(d.toString());
    case SortRole:
        if (column == SeverityColumn)
            return int(d.severity);
        if (column == OffsetColumn)
            return d.offset ? qlonglong(*d.offset) : qlonglong(-1);
        return cell(row, column, Qt::DisplayRole);
    case Qt::DisplayRole:
        switch (column) {
        case SeverityColumn:
            return QLatin1String(pte::severityName(d.severity));
        case MessageColumn:
            return toQString(d.message);
        case FileColumn:
            return QFileInfo(toQString(d.file)).fileName();
        case OffsetColumn:
            // Decimal, as the messages say "at byte N" (the tooltip adds hex for hex editors).
            return d.offset ? QString::number(*d.offset) : QString();
        case FieldPathColumn:
            return toQString(d.fieldPath);
        default:
            return {};
        }
    default:
        return {};
    }
}

QVariant DiagnosticModel::headerCell(int column, int role) const
{
    if (role != Qt::DisplayRole)
        return {};
    static const char* const names[] = { "Severity", "Message", "File", "Offset", "Field path" };
    return QLatin1String(names[column]);
}

} // namespace pte::ui
