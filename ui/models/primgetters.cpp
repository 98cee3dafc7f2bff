// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "models/primgetters.h"

#include "models/text.h"

#include <QRegularExpression>

#include <cmath>

namespace pte::ui {

namespace {

pte::EValue make(pte::KernelValue v)
{
    pte::EValue e;
    e.rawType = std::uint8_t(v.index());
    e.val = std::move(v);
    return e;
}

/** The value of one line, or an error message. */
std::variant<pte::EValue, QString> parseValue(const QString& raw)
{
    const QString v = raw.trimmed();
    if (v.isEmpty())
        return QStringLiteral("the value is empty (use \"\" for an empty string)");
    if (v.size() >= 2 && (v.front() == QLatin1Char('"') || v.front() == QLatin1Char('\''))) {
        if (v.back() != v.front())
            return QStringLiteral("the string has no closing %1").arg(v.front());
        return make(pte::String { v.mid(1, v.size() - 2).toStdString() });
    }
    if (v.compare(QLatin1String("true"), Qt::CaseInsensitive) == 0)
        return make(pte::Bool { true });
    if (v.compare(QLatin1String("false"), Qt::CaseInsensitive) == 0)
        return make(pte::Bool { false });
    static const QRegularExpression intRe(QStringLiteral("^[+-]?\\d+$"));
    if (intRe.match(v).hasMatch()) {
        bool ok = false;
        const qlonglong i = v.toLongLong(&ok);
        if (!ok)
            return QStringLiteral("%1 does not fit a 64-bit integer").arg(v);
        return make(pte::Int { i });
    }
    static const QRegularExpression floatRe(
        QStringLiteral("^[+-]?((\\d+\\.?\\d*|\\.\\d+)([eE][+-]?\\d+)?|inf|infinity|nan)$"),
        QRegularExpression::CaseInsensitiveOption);
    if (floatRe.match(v).hasMatch()) {
        const QString lower = v.toLower();
        double d = 0;
        if (lower.contains(QLatin1String("nan")))
            d = std::nan("");
        else if (lower.contains(QLatin1String("inf")))
            d = lower.startsWith(QLatin1Char('-')) ? -HUGE_VAL : HUGE_VAL;
        else {
            bool ok = false;
            d = v.toDouble(&ok);
            if (!ok || !std::isfinite(d))
                return QStringLiteral("%1 is out of the range of a double").arg(v);
        }
        return make(pte::Double { d });
    }
    return make(pte::String { v.toStdString() });
}

} // namespace

PrimGetterList parsePrimGetters(const QString& text)
{
    PrimGetterList out;
    static const QRegularExpression nameRe(QStringLiteral("^[A-Za-z_][A-Za-z0-9_]*$"));
    const QStringList lines = text.split(QLatin1Char('\n'));
    for (qsizetype i = 0; i < lines.size(); ++i) {
        const QString line = lines[i].trimmed();
        if (line.isEmpty() || line.startsWith(QLatin1Char('#')))
            continue;
        const QString where = QStringLiteral("Line %1: ").arg(i + 1);
        const qsizetype eq = line.indexOf(QLatin1Char('='));
        if (eq < 0) {
            out.errors << where + QStringLiteral("expected name=value");
            continue;
        }
        const QString name = line.left(eq).trimmed();
        if (!nameRe.match(name).hasMatch()) {
            out.errors << where
                    + (name.isEmpty() ? QStringLiteral("the name is empty")
                                      : QStringLiteral("\"%1\" is not a valid method name").arg(name));
            continue;
        }
        const auto value = parseValue(line.mid(eq + 1));
        if (const auto* error = std::get_if<QString>(&value)) {
            out.errors << where + *error;
            continue;
        }
        if (!out.getters.emplace(name.toStdString(), std::get<pte::EValue>(value)).second)
            out.errors << where + QStringLiteral("\"%1\" is defined twice").arg(name);
    }
    return out;
}

QString formatPrimGetters(const std::map<std::string, pte::EValue>& getters)
{
    QStringList lines;
    for (const auto& [name, v] : getters) {
        QString value;
        if (const auto* i = std::get_if<pte::Int>(&v.val))
            value = QString::number(i->intVal);
        else if (const auto* d = std::get_if<pte::Double>(&v.val)) {
            value = QString::number(d->doubleVal, 'g', 17);
            if (std::isfinite(d->doubleVal) && !value.contains(QLatin1Char('.')) && !value.contains(QLatin1Char('e')))
                value += QStringLiteral(".0");
        } else if (const auto* b = std::get_if<pte::Bool>(&v.val))
            value = b->boolVal ? QStringLiteral("true") : QStringLiteral("false");
        else if (const auto* s = std::get_if<pte::String>(&v.val))
            value = QLatin1Char('"') + toQString(s->stringVal) + QLatin1Char('"');
        else
            continue;
        lines << toQString(name) + QLatin1Char('=') + value;
    }
    return lines.join(QLatin1Char('\n'));
}

} // namespace pte::ui
