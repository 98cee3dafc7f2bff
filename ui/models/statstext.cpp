// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "models/statstext.h"

#include <QStringList>

namespace pte::ui {

QString statsRangeText(const TensorStats& s)
{
    return QStringLiteral("%1 … %2, mean %3").arg(s.min, 0, 'g', 5).arg(s.max, 0, 'g', 5).arg(s.mean, 0, 'g', 5);
}

QString firstElementsText(const TensorStats& s)
{
    QStringList first;
    for (const double x : s.first)
        first << QString::number(x, 'g', 5);
    return QString(QLatin1Char('[') + first.join(QStringLiteral(", "))
        + (s.count > s.first.size() ? QStringLiteral(", …]") : QStringLiteral("]")));
}

} // namespace pte::ui
