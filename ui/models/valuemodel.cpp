// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "models/valuemodel.h"

#include "models/roles.h"
#include "models/statstext.h"
#include "models/text.h"

#include <QColor>

#include <cmath>
#include <limits>

namespace pte::ui {

void ValueModel::setMethod(std::shared_ptr<const Snapshot> snapshot, const QString& method)
{
    beginResetModel();
    m_snapshot = std::move(snapshot);
    m_entry = m_snapshot ? m_snapshot->method(method.toStdString()) : nullptr;
    m_plan = m_entry ? m_entry->plan : nullptr;
    m_logged = nullptr;
    m_run = nullptr;
    if (m_snapshot)
        if (const RunResult* r = currentRun(*m_snapshot, method.toStdString()))
            m_run = &r->summary;
    if (m_snapshot && m_snapshot->profile) {
        const auto it = m_snapshot->profile->loggedValues.find(method.toStdString());
        if (it != m_snapshot->profile->loggedValues.end() && !it->second.empty())
            m_logged = &it->second;
    }
    endResetModel();
}

const LoggedValue* ValueModel::logged(int row) const
{
    if (!m_logged)
        return nullptr;
    const auto it = m_logged->find(row);
    return it == m_logged->end() ? nullptr : &it->second;
}

const pte::RunValueFacts* ValueModel::runValue(int row) const
{
    if (!m_run)
        return nullptr;
    const auto it = m_run->values.find(row);
    return it == m_run->values.end() ? nullptr : &it->second;
}

int ValueModel::rows() const { return m_plan ? int(m_plan->values.size()) : 0; }

QVariant ValueModel::cell(int row, int column, int role) const
{
    const pte::EValue& v = m_plan->values[std::size_t(row)];
    const pte::Tensor* t = v.tensor();
    const bool sort = role == SortRole;
    if (role == Qt::TextAlignmentRole) {
        if (column == IndexColumn || column == GapColumn || column == RunGapColumn || column == OffsetColumn
            || column == SizeColumn || column == MemoryIdColumn || column == ConstantColumn)
            return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    }
    if (role == RawValueRole && column == IndexColumn)
        return row;
    if (column >= RunShapeColumn)
        return runCell(row, column, role);
    if (column >= LoggedColumn)
        return loggedCell(row, column, role);
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

QVariant ValueModel::loggedCell(int row, int column, int role) const
{
    const LoggedValue* lv = logged(row);
    if (role == Qt::ForegroundRole && column == GapColumn && lv && lv->gap && lv->gap->snr < 20)
        return QColor(0xb0, 0x00, 0x20); // a wide gap: the delegate (or kernel) computes something else
    if (role == Qt::ForegroundRole && column == ExpectedColumn && lv && !lv->gap)
        return QColor(0x70, 0x70, 0x70); // a reason, not a source
    if (role == Qt::ToolTipRole) {
        if (!lv)
            return {};
        if (!lv->problem.empty())
            return toQString(lv->problem);
        if ((column == GapColumn || column == ExpectedColumn) && !lv->gap)
            return toQString(lv->gapReason);
        if (column == GapColumn && lv->gap)
            return QStringLiteral("Against the %1: MSE %2, L1 %3 (a sum), SNR %4 dB over %5 elements")
                .arg(toQString(lv->expectedFrom))
                .arg(lv->gap->mse, 0, 'g', 6)
                .arg(lv->gap->l1, 0, 'g', 6)
                .arg(lv->gap->snr, 0, 'g', 6)
                .arg(lv->gap->count);
        if (column == FirstColumn && lv->stats)
            return QStringLiteral("%1 elements, %2 NaN, %3 infinite")
                .arg(lv->stats->count)
                .arg(lv->stats->nanCount)
                .arg(lv->stats->infCount);
        return {};
    }
    if (role == SortRole) {
        if (column == GapColumn)
            return lv && lv->gap ? lv->gap->snr : std::numeric_limits<double>::infinity();
        if (column == StatsColumn)
            return lv && lv->stats ? lv->stats->max : -std::numeric_limits<double>::infinity();
    }
    if (role != Qt::DisplayRole && role != SortRole)
        return {};
    if (!lv)
        return QString();
    switch (column) {
    case LoggedColumn:
        return QString(toQString(lv->description) + (lv->output ? QStringLiteral(" (output)") : QString()));
    case StatsColumn:
        if (!lv->stats)
            return lv->problem.empty() ? QString() : QStringLiteral("(no values)");
        return statsRangeText(*lv->stats);
    case FirstColumn: {
        if (!lv->stats)
            return QString();
        return firstElementsText(*lv->stats);
    }
    case GapColumn:
        if (!lv->gap)
            return QString();
        return QStringLiteral("SNR %1 dB, MSE %2, L1 %3")
            .arg(std::isinf(lv->gap->snr) ? QStringLiteral("∞") : QString::number(lv->gap->snr, 'f', 1))
            .arg(lv->gap->mse, 0, 'g', 3)
            .arg(lv->gap->l1, 0, 'g', 3);
    case ExpectedColumn:
        if (lv->gap)
            return toQString(lv->expectedFrom);
        return lv->gapReason.empty() ? QString() : QStringLiteral("none: %1").arg(toQString(lv->gapReason));
    default:
        return {};
    }
}

QVariant ValueModel::runCell(int row, int column, int role) const
{
    const pte::RunValueFacts* f = runValue(row);
    const bool failed = f && f->check && !f->check->ok;
    if (role == Qt::ForegroundRole && column == RunGapColumn && failed)
        return QColor(0xb0, 0x00, 0x20); // outside verify_method_outputs' tolerance
    if (role == Qt::ForegroundRole && f && !f->stats)
        return QColor(0x70, 0x70, 0x70); // a reason, not numbers
    if (role == Qt::ToolTipRole) {
        if (!f)
            return m_run ? QStringLiteral("The run left nothing recorded in this value") : QVariant();
        if (!f->problem.empty())
            return toQString(f->problem);
        if (column == RunGapColumn && f->gap)
            return QStringLiteral("Against the %1: MSE %2, L1 %3 (a sum), SNR %4 dB over %5 elements")
                .arg(toQString(f->expectedFrom))
                .arg(f->gap->mse, 0, 'g', 6)
                .arg(f->gap->l1, 0, 'g', 6)
                .arg(f->gap->snr, 0, 'g', 6)
                .arg(f->gap->count);
        if (column == RunFirstColumn && f->stats)
            return QStringLiteral("%1 elements, %2 NaN, %3 infinite")
                .arg(f->stats->count)
                .arg(f->stats->nanCount)
                .arg(f->stats->infCount);
        return {};
    }
    if (role == SortRole) {
        if (column == RunGapColumn)
            return f && f->gap ? f->gap->mse : -1.0;
        if (column == RunStatsColumn)
            return f && f->stats ? f->stats->max : -std::numeric_limits<double>::infinity();
    }
    if (role != Qt::DisplayRole && role != SortRole)
        return {};
    if (!f)
        return QString();
    switch (column) {
    case RunShapeColumn: {
        QString where = f->input >= 0 ? QStringLiteral("input %1").arg(f->input)
            : f->instruction >= 0     ? QStringLiteral("by #%1").arg(f->instruction)
                                      : QString();
        if (f->output >= 0)
            where += (where.isEmpty() ? QString() : QStringLiteral(", ")) + QStringLiteral("output %1").arg(f->output);
        QString shape = f->kind == pte::ValueKind::TensorList ? QStringLiteral("TensorList of %1").arg(f->tensors)
            : f->kind == pte::ValueKind::Tensor
            ? QString(QLatin1String(pte::scalarTypeShortName(f->dtype)) + formatShape(f->sizes))
            : QLatin1String(pte::valueKindName(f->kind));
        return where.isEmpty() ? shape : QStringLiteral("%1 (%2)").arg(shape, where);
    }
    case RunStatsColumn:
        if (!f->stats)
            return toQString(f->problem);
        return QStringLiteral("%1 … %2, mean %3")
            .arg(f->stats->min, 0, 'g', 5)
            .arg(f->stats->max, 0, 'g', 5)
            .arg(f->stats->mean, 0, 'g', 5);
    case RunFirstColumn: {
        if (!f->stats)
            return QString();
        QStringList first;
        for (const double x : f->stats->first)
            first << QString::number(x, 'g', 5);
        return QString(QLatin1Char('[') + first.join(QStringLiteral(", "))
            + (f->stats->count > f->stats->first.size() ? QStringLiteral(", …]") : QStringLiteral("]")));
    }
    case RunGapColumn:
        if (!f->gap)
            return QString();
        return QStringLiteral("%1: MSE %2, L1 %3")
            .arg(f->check ? (f->check->ok ? QStringLiteral("pass") : QStringLiteral("FAIL")) : QStringLiteral("gap"))
            .arg(f->gap->mse, 0, 'g', 3)
            .arg(f->gap->l1, 0, 'g', 3);
    default:
        return {};
    }
}

QVariant ValueModel::headerCell(int column, int role) const
{
    if (role != Qt::DisplayRole)
        return {};
    static const char* const names[] = { "Value", "Name", "Type", "DType", "Shape", "Dim order", "Mem id", "Offset",
        "Constant", "Size", "Details", "Logged", "Logged values", "First elements", "Gap to expected", "Expected from",
        "Run value", "Run statistics", "Run first elements", "Run gap to bundled output" };
    return QLatin1String(names[column]);
}

} // namespace pte::ui
