// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "models/bundledcasemodel.h"

#include "models/roles.h"
#include "models/text.h"
#include "pte/bundledprogram.h"
#include "pte/numericgap.h"

namespace pte::ui {

namespace {

constexpr std::size_t kFirstValues = 8;

QString firstValues(const pte::BundledValue& v)
{
    switch (v.kind) {
    case pte::BundledValue::Kind::Tensor: {
        auto values = pte::bundledTensorValues(v);
        if (!values)
            return toQString(values.error().message);
        const auto stats = pte::tensorStats(*values, kFirstValues);
        QStringList parts;
        for (const double x : stats.first)
            parts << QString::number(x, 'g', 5);
        return QString(QLatin1Char('[') + parts.join(QStringLiteral(", "))
            + (stats.count > stats.first.size() ? QStringLiteral(", …]") : QStringLiteral("]"))
            + QStringLiteral("  min %1, max %2").arg(stats.min, 0, 'g', 5).arg(stats.max, 0, 'g', 5));
    }
    case pte::BundledValue::Kind::Int:
        return QString::number(v.intValue);
    case pte::BundledValue::Kind::Bool:
        return v.boolValue ? QStringLiteral("true") : QStringLiteral("false");
    case pte::BundledValue::Kind::Double:
        return QString::number(v.doubleValue, 'g', 17);
    case pte::BundledValue::Kind::None:
        break;
    }
    return {};
}

} // namespace

void BundledCaseModel::setMethod(std::shared_ptr<const Snapshot> snapshot, const QString& method)
{
    beginResetModel();
    m_snapshot = std::move(snapshot);
    m_suite = nullptr;
    m_rows.clear();
    if (m_snapshot && m_snapshot->pteFile && m_snapshot->pteFile->bundled)
        m_suite = m_snapshot->pteFile->bundled->suite(method.toStdString());
    if (m_suite) {
        for (std::size_t c = 0; c < m_suite->testCases.size(); ++c) {
            const auto& tc = m_suite->testCases[c];
            for (std::size_t i = 0; i < tc.inputs.size(); ++i)
                m_rows.push_back(Row { int(c), false, int(i), &tc.inputs[i], firstValues(tc.inputs[i]) });
            for (std::size_t i = 0; i < tc.expectedOutputs.size(); ++i)
                m_rows.push_back(
                    Row { int(c), true, int(i), &tc.expectedOutputs[i], firstValues(tc.expectedOutputs[i]) });
        }
    }
    endResetModel();
}

int BundledCaseModel::caseCount() const { return m_suite ? int(m_suite->testCases.size()) : 0; }

QVariant BundledCaseModel::cell(int row, int column, int role) const
{
    const Row& r = m_rows[std::size_t(row)];
    if (role == Qt::TextAlignmentRole && column == CaseColumn)
        return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::ToolTipRole && column == ValuesColumn)
        return r.values;
    if (role != Qt::DisplayRole)
        return {};
    switch (column) {
    case CaseColumn:
        return QString::number(r.testCase);
    case RoleColumn:
        return (r.expected ? QStringLiteral("expected output %1") : QStringLiteral("input %1")).arg(r.position);
    case TypeColumn:
        if (r.value->kind == pte::BundledValue::Kind::Tensor)
            return QString(dtypeName(r.value->scalarType) + formatShape(r.value->sizes));
        return QLatin1String(pte::bundledValueKindName(r.value->kind));
    case ValuesColumn:
        return r.values;
    default:
        return {};
    }
}

QVariant BundledCaseModel::headerCell(int column, int role) const
{
    if (role != Qt::DisplayRole)
        return {};
    static const char* const names[] = { "Case", "Role", "Type", "Values" };
    return QLatin1String(names[column]);
}

} // namespace pte::ui
