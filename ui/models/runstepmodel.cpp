// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "models/runstepmodel.h"

#include "models/roles.h"
#include "models/statstext.h"
#include "models/text.h"

#include <QColor>
#include <QStringList>

namespace pte::ui {

void RunStepModel::setStep(std::shared_ptr<const Snapshot> snapshot, const QString& method, int instruction)
{
    beginResetModel();
    m_snapshot = std::move(snapshot);
    m_step.reset();
    m_note.clear();
    const RunResult* run = m_snapshot ? currentRun(*m_snapshot, method.toStdString()) : nullptr;
    m_hasRun = run != nullptr;
    const pte::ExecutionPlan* plan = run ? run->program->method(method.toStdString()) : nullptr;
    if (plan && instruction >= 0) {
        m_step = pte::stepValues(*plan, run->run, std::uint32_t(instruction));
        if (!m_step)
            m_note = QStringLiteral("The run did not reach instruction %1.").arg(instruction);
        else if (m_step->stopped)
            m_note = QStringLiteral("The run stopped at instruction %1 (%2): what it read; it wrote nothing.")
                         .arg(instruction)
                         .arg(toQString(run->summary.stopReason));
        else
            m_note = QStringLiteral("Instruction %1 in the run on %2: what it read and wrote.")
                         .arg(instruction)
                         .arg(toQString(run->inputSource));
    } else if (plan) {
        m_note = QStringLiteral("Select an instruction to see the values it read and wrote in the run.");
    }
    endResetModel();
}

int RunStepModel::rows() const { return m_step ? int(m_step->reads.size() + m_step->writes.size()) : 0; }

const pte::RunValueFacts* RunStepModel::facts(int row) const
{
    if (!m_step || row < 0)
        return nullptr;
    const auto r = std::size_t(row);
    if (r < m_step->reads.size())
        return &m_step->reads[r];
    return r - m_step->reads.size() < m_step->writes.size() ? &m_step->writes[r - m_step->reads.size()] : nullptr;
}

QVariant RunStepModel::cell(int row, int column, int role) const
{
    const pte::RunValueFacts* f = facts(row);
    if (!f)
        return {};
    const bool read = std::size_t(row) < m_step->reads.size();
    if (role == Qt::ForegroundRole && column >= StatsColumn && !f->stats)
        return QColor(0x70, 0x70, 0x70);
    if (role == RawValueRole && column == ValueColumn)
        return f->value;
    if (role == Qt::ToolTipRole && column == FirstColumn && f->stats)
        return QStringLiteral("%1 elements, %2 NaN, %3 infinite")
            .arg(f->stats->count)
            .arg(f->stats->nanCount)
            .arg(f->stats->infCount);
    if (role != Qt::DisplayRole && role != SortRole && role != Qt::ToolTipRole)
        return {};
    switch (column) {
    case AccessColumn:
        return read ? QStringLiteral("read") : QStringLiteral("wrote");
    case ValueColumn:
        return role == SortRole ? QVariant(f->value) : QVariant(valueRef(f->value));
    case ShapeColumn:
        if (f->kind == pte::ValueKind::TensorList)
            return QStringLiteral("TensorList of %1").arg(f->tensors);
        if (f->kind == pte::ValueKind::Tensor)
            return QString(QLatin1String(pte::scalarTypeShortName(f->dtype)) + formatShape(f->sizes));
        return QLatin1String(pte::valueKindName(f->kind));
    case StatsColumn:
        if (!f->stats)
            return QString();
        return statsRangeText(*f->stats);
    case FirstColumn: {
        if (!f->stats)
            return QString();
        return firstElementsText(*f->stats);
    }
    case FromColumn:
        if (!f->problem.empty())
            return toQString(f->problem);
        if (!read)
            return QStringLiteral("right after it ran");
        if (f->input >= 0)
            return QStringLiteral("method input %1").arg(f->input);
        if (f->instruction >= 0)
            return QStringLiteral("as instruction %1 wrote it").arg(f->instruction);
        return QStringLiteral("stored in the program");
    default:
        return {};
    }
}

QVariant RunStepModel::headerCell(int column, int role) const
{
    if (role != Qt::DisplayRole)
        return {};
    static const char* const names[] = { "Access", "Value", "Run value", "Statistics", "First elements", "Contents" };
    return QLatin1String(names[column]);
}

} // namespace pte::ui
