// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "models/text.h"

#include "pte/graphtext.h"
#include "pte/tensortext.h"

#include <QLocale>
#include <QStringList>

namespace pte::ui {

QString formatShape(const std::vector<std::int32_t>& sizes) { return toQString(pte::sizesText(sizes)); }

QString formatShape(const std::vector<std::int64_t>& sizes) { return toQString(pte::sizesText(sizes)); }

QString formatShape(const std::vector<pte::SymInt>& sizes) { return toQString(pte::shapeText(sizes)); }

QString formatDimOrder(const std::vector<std::uint8_t>& dimOrder)
{
    QString out;
    for (std::size_t i = 0; i < dimOrder.size(); ++i) {
        if (i)
            out += QLatin1Char(',');
        out += QString::number(dimOrder[i]);
    }
    return out;
}

QString formatBytes(std::uint64_t bytes)
{
    static const char* const units[] = { "B", "KiB", "MiB", "GiB", "TiB" };
    if (bytes < 1024)
        return QStringLiteral("%1 B").arg(bytes);
    double v = double(bytes);
    int unit = 0;
    while (v >= 1024.0 && unit < 4) {
        v /= 1024.0;
        ++unit;
    }
    return QStringLiteral("%1 %2").arg(v, 0, 'f', v < 10 ? 2 : 1).arg(QLatin1String(units[unit]));
}

QString formatIntList(const std::vector<std::int64_t>& values)
{
    QString out;
    for (std::size_t i = 0; i < values.size(); ++i) {
        if (i)
            out += QStringLiteral(", ");
        out += QString::number(values[i]);
    }
    return out;
}

QString dtypeName(pte::ScalarType t) { return QLatin1String(pte::scalarTypeShortName(t)); }

QString describeValue(const pte::EValue& value)
{
    return std::visit(
        [](const auto& v) -> QString {
            using T = std::decay_t<decltype(v)>;
            if constexpr (std::is_same_v<T, std::monostate>)
                return QStringLiteral("NONE");
            else if constexpr (std::is_same_v<T, pte::Null>)
                return QStringLiteral("Null");
            else if constexpr (std::is_same_v<T, pte::Int>)
                return QStringLiteral("Int %1").arg(v.intVal);
            else if constexpr (std::is_same_v<T, pte::Bool>)
                return v.boolVal ? QStringLiteral("Bool true") : QStringLiteral("Bool false");
            else if constexpr (std::is_same_v<T, pte::Double>)
                return QStringLiteral("Double %1").arg(v.doubleVal);
            else if constexpr (std::is_same_v<T, pte::Tensor>)
                return QStringLiteral("Tensor %1 %2").arg(dtypeName(v.scalarType), formatShape(v.sizes));
            else if constexpr (std::is_same_v<T, pte::String>)
                return QStringLiteral("String \"%1\"").arg(toQString(v.stringVal));
            else if constexpr (std::is_same_v<T, pte::IntList>)
                return QStringLiteral("IntList [%1]").arg(formatIntList(v.items));
            else if constexpr (std::is_same_v<T, pte::DoubleList>)
                return QStringLiteral("DoubleList (%1)").arg(v.items.size());
            else if constexpr (std::is_same_v<T, pte::BoolList>)
                return QStringLiteral("BoolList (%1)").arg(v.items.size());
            else if constexpr (std::is_same_v<T, pte::TensorList>)
                return QStringLiteral("TensorList [%1]")
                    .arg(formatIntList(std::vector<std::int64_t>(v.items.begin(), v.items.end())));
            else
                return QStringLiteral("OptionalTensorList [%1]")
                    .arg(formatIntList(std::vector<std::int64_t>(v.items.begin(), v.items.end())));
        },
        value.val);
}

} // namespace pte::ui
