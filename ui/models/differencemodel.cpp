// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "models/differencemodel.h"

#include "models/diffstatus.h"
#include "models/roles.h"
#include "models/text.h"

#include <QBrush>

namespace pte::ui {

namespace {

QString usesText(const std::vector<pte::DiffUse>& uses, std::size_t count)
{
    QStringList parts;
    for (const auto& u : uses)
        parts << (u.instruction == -1 ? QStringLiteral("input %1").arg(u.argument)
                : u.instruction == -2 ? QStringLiteral("output %1").arg(u.argument)
                                      : QStringLiteral("#%1 arg %2").arg(u.instruction).arg(u.argument));
    if (count > uses.size())
        parts << QStringLiteral("+%1").arg(count - uses.size());
    return parts.join(QStringLiteral(", "));
}

} // namespace

QVariant DifferenceModel::cell(const pte::Difference& d, int column, int role) const
{
    if (role == Qt::BackgroundRole && column == StatusColumn)
        return QBrush(diffStatusColor(d.status));
    if (role == Qt::ToolTipRole)
        return toQString(d.toString());
    if (role == SortRole && column != StatusColumn && column != CategoryColumn)
        return cell(d, column, Qt::DisplayRole).toString().toLower();
    if (role != Qt::DisplayRole && role != SortRole)
        return {};
    switch (column) {
    case CategoryColumn:
        return role == SortRole ? QVariant(int(d.category))
                                : QVariant(QLatin1String(pte::diffCategoryName(d.category)));
    case StatusColumn:
        return role == SortRole ? QVariant(int(d.status)) : QVariant(QLatin1String(pte::diffStatusName(d.status)));
    case MethodColumn:
        if (d.methodA == d.methodB || d.methodB.empty())
            return toQString(d.methodA);
        return d.methodA.empty() ? toQString(d.methodB) : toQString(d.methodA + " \u2194 " + d.methodB);
    case SubjectColumn:
        return toQString(d.subject);
    case FieldColumn:
        return toQString(d.field);
    case AColumn:
        return toQString(d.a);
    case BColumn:
        return toQString(d.b);
    case DetailColumn:
        return QString(toQString(d.detail) + (d.strictOnly ? QStringLiteral(" (strict)") : QString()));
    case UsesColumn: {
        if (d.usesA == d.usesB && d.useCountA == d.useCountB)
            return usesText(d.usesA, d.useCountA);
        QStringList sides;
        if (d.useCountA)
            sides << QStringLiteral("A: ") + usesText(d.usesA, d.useCountA);
        if (d.useCountB)
            sides << QStringLiteral("B: ") + usesText(d.usesB, d.useCountB);
        return sides.join(QStringLiteral("; "));
    }
    default:
        return {};
    }
}

QVariant DifferenceModel::headerCell(int column, int role) const
{
    if (role != Qt::DisplayRole)
        return {};
    static const char* const names[] = { "Category", "Status", "Method", "Subject", "Field", "A", "B", "Detail",
        "Used by" };
    return QLatin1String(names[column]);
}

} // namespace pte::ui
