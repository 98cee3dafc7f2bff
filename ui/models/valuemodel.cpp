// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "models/valuemodel.h"

#include "models/roles.h"
#include "models/text.h"

namespace pte::ui {

void ValueModel::setMethod(std::shared_ptr<const Snapshot> snapshot, const QString& method)
{
    beginResetModel();
    m_snapshot = std::move(snapshot);
    m_entry = m_snapshot ? m_snapshot->method(method.toStdString()) : nullptr;
    m_plan = m_entry ? m_entry->plan : nullptr;
    endResetModel();
}

int ValueModel::rows() const { return m_plan ? int(m_plan->values.size()) : 0; }

QVariant ValueModel::cell(int row, int column, int role) const
{
    const pte::EValue& v = m_plan->values[std::size_t(row)];
    const pte::Tensor* t = v.tensor();
    const bool sort = role == SortRole;
    if (role == Qt::TextAlignmentRole) {
        if (column == IndexColumn || column == OffsetColumn || column == SizeColumn || column == MemoryIdColumn
            || column == ConstantColumn)
            return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    }
    if (role == RawValueRole && column == IndexColumn)
        return row;
    if (role != Qt::DisplayRole && !sort && role != Qt::ToolTipRole)
        return {};
    switch (column) {
    case IndexColumn:
        return sort ? QVariant(row) : QVariant(QString::number(row));
    case NameColumn:
        if (m_entry && m_entry->emitInfo) {
            const auto it = m_entry->emitInfo->valueNames.find(row);
            if (it != m_entry->emitInfo->valueNames.end())
                return toQString(it->second);
        }
        if (t && t->extraTensorInfo && t->extraTensorInfo->fullyQualifiedName)
            return toQString(*t->extraTensorInfo->fullyQualifiedName);
        return QString();
    case TypeColumn:
        return QLatin1String(pte::valueKindName(v.kind()));
    case DTypeColumn:
        return t ? dtypeName(t->scalarType) : QString();
    case ShapeColumn:
        if (!t)
            return QString();
        if (sort)
            return qlonglong(t->numel().value_or(0));
        return formatShape(t->sizes);
    case DimOrderColumn:
        return t ? formatDimOrder(t->dimOrder) : QString();
    case MemoryIdColumn:
        if (!t || !t->allocationInfo)
            return sort ? QVariant(-1) : QVariant(QString());
        return sort ? QVariant(int(t->allocationInfo->memoryId))
                    : QVariant(QString::number(t->allocationInfo->memoryId));
    case OffsetColumn:
        if (!t || !t->allocationInfo)
            return sort ? QVariant(qlonglong(-1)) : QVariant(QString());
        return sort ? QVariant(qulonglong(t->allocationInfo->offset()))
                    : QVariant(QString::number(t->allocationInfo->offset()));
    case ConstantColumn:
        if (!t || t->dataBufferIdx == 0)
            return sort ? QVariant(0) : QVariant(QString());
        return sort ? QVariant(uint(t->dataBufferIdx)) : QVariant(QString::number(t->dataBufferIdx));
    case SizeColumn: {
        const auto n = t ? t->nbytes() : std::nullopt;
        if (sort)
            return qulonglong(n.value_or(0));
        return n ? formatBytes(*n) : QString();
    }
    case DetailsColumn:
        if (t) {
            QStringList parts;
            if (t->extraTensorInfo)
                parts << (t->extraTensorInfo->location == pte::TensorDataLocation::External
                        ? QStringLiteral("external")
                        : QStringLiteral("segment"));
            if (t->shapeDynamism != pte::ShapeDynamism::Static)
                parts << (t->shapeDynamism == pte::ShapeDynamism::DynamicBound ? QStringLiteral("dynamic (bound)")
                                                                               : QStringLiteral("dynamic (unbound)"));
            if (t->requiresGrad)
                parts << QStringLiteral("requires grad");
            if (t->allocationInfo && t->dataBufferIdx > 0)
                parts << QStringLiteral("mutable buffer");
            return parts.join(QStringLiteral(", "));
        }
        return describeValue(v);
    default:
        return {};
    }
}

QVariant ValueModel::headerCell(int column, int role) const
{
    if (role != Qt::DisplayRole)
        return {};
    static const char* const names[] = { "Value", "Name", "Type", "DType", "Shape", "Dim order", "Mem id", "Offset",
        "Constant", "Size", "Details" };
    return QLatin1String(names[column]);
}

} // namespace pte::ui
