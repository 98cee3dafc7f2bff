// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "models/profilesummarymodel.h"

#include "models/roles.h"
#include "models/text.h"

#include <QColor>

#include <algorithm>

namespace pte::ui {

void ProfileSummaryModel::setSnapshot(std::shared_ptr<const Snapshot> snapshot)
{
    beginResetModel();
    m_profile = snapshot ? snapshot->profile : nullptr;
    updateRest();
    endResetModel();
}

void ProfileSummaryModel::updateRest()
{
    m_rest.reset();
    const auto* e = entries();
    if (!e || m_profile->summary.executeTotal <= 0)
        return;
    double total = 0;
    double share = 0;
    for (const auto& entry : *e) {
        total += entry.total;
        share += entry.share;
    }
    if (share >= 0.995)
        return;
    pte::ProfileSummaryEntry rest;
    rest.key = m_grouping == Grouping::Operator ? "(rest: delegate-call overhead, framework)"
        : m_grouping == Grouping::Backend       ? "(rest: framework between instructions)"
                                                : "(rest: no module path, framework)";
    rest.total = std::max(m_profile->summary.executeTotal - total, 0.0);
    rest.share = 1.0 - share;
    m_rest = rest;
}

void ProfileSummaryModel::setGrouping(Grouping grouping)
{
    if (grouping == m_grouping)
        return;
    beginResetModel();
    m_grouping = grouping;
    updateRest();
    endResetModel();
}

const std::vector<pte::ProfileSummaryEntry>* ProfileSummaryModel::entries() const
{
    if (!m_profile)
        return nullptr;
    switch (m_grouping) {
    case Grouping::Operator:
        return &m_profile->summary.byOperator;
    case Grouping::Backend:
        return &m_profile->summary.byBackend;
    case Grouping::Module:
        return &m_profile->summary.byModule;
    }
    return nullptr;
}

int ProfileSummaryModel::rows() const
{
    const auto* e = entries();
    return e ? int(e->size()) + (m_rest ? 1 : 0) : 0;
}

QVariant ProfileSummaryModel::cell(int row, int column, int role) const
{
    const bool rest = row == restRow();
    const auto& e = rest ? *m_rest : (*entries())[std::size_t(row)];
    if (rest && role == Qt::ToolTipRole)
        return QStringLiteral("Execution time (Method::execute) no row above accounts for: a delegate call's time "
                              "outside its backend's own events, and the runtime between and around instructions");
    if (rest && role == Qt::ForegroundRole)
        return QColor(0x60, 0x60, 0x60);
    if (rest && role == SortRole && column == KeyColumn)
        return QStringLiteral("~"); // after the names
    if (role == SortRole) {
        switch (column) {
        case TotalColumn:
            return e.total;
        case ShareColumn:
            return e.share;
        case RowsColumn:
            return qulonglong(e.count);
        default:
            return toQString(e.key).toLower();
        }
    }
    if (role == Qt::TextAlignmentRole && column != KeyColumn)
        return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
    if (role != Qt::DisplayRole)
        return {};
    switch (column) {
    case KeyColumn:
        return toQString(e.key);
    case TotalColumn:
        return QString::number(e.total, 'f', 6);
    case ShareColumn:
        return m_profile->summary.executeTotal > 0 ? QString(QString::number(e.share * 100, 'f', 1) + QLatin1Char('%'))
                                                   : QString();
    case RowsColumn:
        return rest ? QString() : QString::number(e.count);
    default:
        return {};
    }
}

QVariant ProfileSummaryModel::headerCell(int column, int role) const
{
    if (role != Qt::DisplayRole)
        return {};
    const QString unit = QLatin1String(m_profile ? pte::timeScaleName(m_profile->table.options.target) : "ms");
    switch (column) {
    case KeyColumn:
        return m_grouping == Grouping::Operator ? QStringLiteral("Operator")
            : m_grouping == Grouping::Backend   ? QStringLiteral("Backend")
                                                : QStringLiteral("Module");
    case TotalColumn:
        return QStringLiteral("Median total (%1)").arg(unit);
    case ShareColumn:
        return QStringLiteral("Share of execution");
    case RowsColumn:
        return QStringLiteral("Rows");
    default:
        return {};
    }
}

} // namespace pte::ui
