// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "models/innervaluemodel.h"

#include "models/roles.h"
#include "models/text.h"

#include <QColor>

namespace pte::ui {

QString dimsText(const std::vector<std::uint32_t>& dims)
{
    QStringList parts;
    for (const auto d : dims)
        parts << QString::number(d);
    return QLatin1Char('[') + parts.join(QStringLiteral(", ")) + QLatin1Char(']');
}

QString quantText(const pte::InnerValue& value)
{
    if (!value.quant)
        return {};
    const auto& q = *value.quant;
    auto scales = [&] {
        QStringList parts;
        for (std::size_t i = 0; i < q.scales.size() && i < 4; ++i)
            parts << QString::number(double(q.scales[i]), 'g', 6);
        if (q.scales.size() > 4)
            parts << QStringLiteral("… (%1)").arg(q.scales.size());
        return parts.join(QStringLiteral(", "));
    };
    switch (q.kind) {
    case pte::QuantParams::Kind::PerTensor:
        return QStringLiteral("per tensor: scale %1, zero point %2").arg(double(q.scale), 0, 'g', 6).arg(q.zeroPoint);
    case pte::QuantParams::Kind::PerChannel:
        return QStringLiteral("per channel (dim %1): scales %2%3")
            .arg(q.channelDim)
            .arg(scales())
            .arg(q.scaleBufferIdx ? QStringLiteral(" from constant %1").arg(q.scaleBufferIdx) : QString());
    case pte::QuantParams::Kind::PerChannelGroup:
        return QStringLiteral("per channel group (dim %1, group %2): scales %3%4")
            .arg(q.channelDim)
            .arg(q.groupSize)
            .arg(scales())
            .arg(q.scaleBufferIdx ? QStringLiteral(" from constant %1 (bf16)").arg(q.scaleBufferIdx) : QString());
    case pte::QuantParams::Kind::PerTokenDynamic:
        return QStringLiteral("per token, dynamic (%1 non-batch dims)").arg(q.numNonbatchDims);
    case pte::QuantParams::Kind::Unknown:
        break;
    }
    return QStringLiteral("unknown kind %1").arg(q.rawTag);
}

int InnerValueModel::rows() const { return payload() ? int(payload()->values.size()) : 0; }

int InnerValueModel::rowOfValue(std::uint32_t id) const
{
    const auto* v = payload() ? payload()->value(id) : nullptr;
    return v ? int(v - payload()->values.data()) : -1;
}

QVariant InnerValueModel::cell(int row, int column, int role) const
{
    const pte::InnerValue& v = payload()->values[std::size_t(row)];
    if (role == Qt::ForegroundRole && (v.graphInput || v.graphOutput))
        return QColor(0x2a, 0x6f, 0x97);
    if (role == ValueIdsRole)
        return QVariant::fromValue(QList<int> { int(v.id) });
    const bool sort = role == SortRole;
    const bool tip = role == Qt::ToolTipRole;
    if (role != Qt::DisplayRole && !sort && !tip)
        return {};
    switch (column) {
    case IdColumn:
        return sort ? QVariant(qulonglong(v.id)) : QVariant(valueRef(v.id));
    case KindColumn:
        return toQString(v.kind);
    case DTypeColumn:
        return toQString(v.dtype);
    case ShapeColumn:
        if (!v.text.empty())
            return toQString(v.text);
        return v.kind.find("tensor") != std::string::npos ? dimsText(v.dims) : QString();
    case RoleColumn: {
        QStringList parts;
        if (v.graphInput)
            parts << QStringLiteral("input");
        if (v.graphOutput)
            parts << QStringLiteral("output");
        if (v.externalId)
            parts << QStringLiteral("external %1").arg(*v.externalId);
        if (v.constant)
            parts << QStringLiteral("constant");
        if (tip && v.externalId)
            return QStringLiteral("Bound to argument %1 of the DelegateCall").arg(*v.externalId);
        return parts.join(QStringLiteral(", "));
    }
    case QuantColumn:
        return quantText(v);
    case ConstantColumn: {
        if (!v.constant)
            return sort ? QVariant(qulonglong(0)) : QVariant();
        const auto& c = *v.constant;
        if (sort)
            return qulonglong(c.size);
        QString text = QStringLiteral("#%1 %2, %3")
                           .arg(c.index)
                           .arg(QLatin1String(pte::constantSourceName(c.source)), formatBytes(c.size));
        if (!c.key.empty())
            text += tip ? QStringLiteral("\nkey %1").arg(toQString(c.key))
                        : QStringLiteral(", key %1…").arg(toQString(c.key.substr(0, 8)));
        if (c.source == pte::ConstantSource::PayloadSection || c.source == pte::ConstantSource::InlineBuffer)
            text += QStringLiteral(", payload offset %1").arg(c.offset);
        return text;
    }
    case AttributesColumn: {
        QStringList parts;
        for (const auto& a : v.attributes)
            parts << QStringLiteral("%1 %2").arg(toQString(a.name), toQString(a.value));
        return parts.join(QStringLiteral("; "));
    }
    default:
        return {};
    }
}

QVariant InnerValueModel::headerCell(int column, int role) const
{
    if (role != Qt::DisplayRole)
        return {};
    static const char* const names[] = { "Id", "Kind", "Type", "Shape / value", "Role", "Quantization", "Constant",
        "Attributes" };
    return QLatin1String(names[column]);
}

} // namespace pte::ui
