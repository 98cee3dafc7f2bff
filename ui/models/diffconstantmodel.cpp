// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "models/diffconstantmodel.h"

#include "models/diffstatus.h"
#include "models/roles.h"
#include "models/text.h"

#include <QBrush>

namespace pte::ui {

QVariant DiffConstantModel::cell(const pte::ConstantRow& c, int column, int role) const
{
    if (role == Qt::BackgroundRole)
        return c.status == pte::DiffStatus::Same ? QVariant() : QVariant(QBrush(diffStatusColor(c.status)));
    const bool sort = role == SortRole;
    if (role != Qt::DisplayRole && !sort)
        return {};
    const auto* n = c.numeric ? &*c.numeric : nullptr;
    switch (column) {
    case StatusColumn:
        return sort ? QVariant(int(c.status)) : QVariant(QLatin1String(pte::diffStatusName(c.status)));
    case MethodColumn:
        return toQString(c.methodA.empty() ? c.methodB : c.methodA);
    case ValueColumn: {
        if (sort)
            return c.valueA >= 0 ? c.valueA : c.valueB;
        QStringList parts;
        if (c.valueA >= 0)
            parts << QStringLiteral("A ") + valueRef(c.valueA);
        if (c.valueB >= 0)
            parts << QStringLiteral("B ") + valueRef(c.valueB);
        return QString(parts.join(QStringLiteral(", "))
            + (c.mutableInitialState ? QStringLiteral(" (initial state)") : QString()));
    }
    case NameColumn:
        return toQString(c.fqn);
    case TypeAColumn:
        return toQString(c.typeA);
    case TypeBColumn:
        return toQString(c.typeB);
    case BytesAColumn:
        return sort ? QVariant(qulonglong(c.bytesA)) : QVariant(c.valueA >= 0 ? formatBytes(c.bytesA) : QString());
    case BytesBColumn:
        return sort ? QVariant(qulonglong(c.bytesB)) : QVariant(c.valueB >= 0 ? formatBytes(c.bytesB) : QString());
    case MaxAbsColumn:
        return !n ? QVariant() : sort ? QVariant(n->maxAbs) : QVariant(QString::number(n->maxAbs, 'g', 6));
    case MeanAbsColumn:
        return !n ? QVariant() : sort ? QVariant(n->meanAbs) : QVariant(QString::number(n->meanAbs, 'g', 6));
    case DifferingColumn:
        if (!n)
            return {};
        return sort ? QVariant(qulonglong(n->differing))
                    : QVariant(QStringLiteral("%1 of %2").arg(n->differing).arg(n->elements));
    case FirstIndicesColumn: {
        if (!n)
            return {};
        QStringList parts;
        for (const auto& index : n->firstIndices)
            parts << QLatin1Char('[') + formatIntList(index) + QLatin1Char(']');
        return parts.join(QLatin1Char(' '));
    }
    default:
        return {};
    }
}

QVariant DiffConstantModel::headerCell(int column, int role) const
{
    if (role != Qt::DisplayRole)
        return {};
    static const char* const names[] = { "Status", "Method", "Value", "Name", "Type A", "Type B", "Bytes A", "Bytes B",
        "Max |a-b|", "Mean |a-b|", "Differing", "First differing at" };
    return QLatin1String(names[column]);
}

} // namespace pte::ui
