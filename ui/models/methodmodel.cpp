// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "models/methodmodel.h"

#include "models/roles.h"
#include "models/text.h"

#include <QColor>
#include <QFileInfo>

namespace pte::ui {

namespace {
int instructionCount(const pte::ExecutionPlan& plan)
{
    int n = 0;
    for (const auto& c : plan.chains)
        n += int(c.instructions.size());
    return n;
}
} // namespace

int callerInputCount(const MethodEntry& entry)
{
    if (entry.plan)
        return int(entry.plan->inputs.size());
    if (!entry.exported)
        return -1;
    int n = 0;
    for (const auto& s : entry.exported->signature.inputSpecs)
        n += s.kind == pte::InputKind::UserInput ? 1 : 0;
    return n;
}

int returnedOutputCount(const MethodEntry& entry)
{
    if (entry.plan)
        return int(entry.plan->outputs.size());
    if (!entry.exported)
        return -1;
    int n = 0;
    for (const auto& s : entry.exported->signature.outputSpecs)
        n += pte::emissionDropReason(s.kind) == nullptr ? 1 : 0;
    return n;
}

QString methodKindText(const MethodEntry& entry)
{
    if (entry.isTrainingMetadata)
        return QStringLiteral("training metadata");
    if (entry.isConstant)
        return QStringLiteral("constant");
    if (!entry.plan)
        return QStringLiteral("graph dump (not emitted)");
    return QStringLiteral("method");
}

void MethodModel::setSnapshot(std::shared_ptr<const Snapshot> snapshot)
{
    beginResetModel();
    m_snapshot = std::move(snapshot);
    endResetModel();
}

QString MethodModel::methodName(int row) const
{
    if (!m_snapshot || row < 0 || row >= int(m_snapshot->methods.size()))
        return {};
    return toQString(m_snapshot->methods[std::size_t(row)].name);
}

int MethodModel::rowOf(const QString& name) const
{
    return m_snapshot ? m_snapshot->methodIndex(name.toStdString()) : -1;
}

int MethodModel::rows() const { return m_snapshot ? int(m_snapshot->methods.size()) : 0; }

QVariant MethodModel::cell(int row, int column, int role) const
{
    const MethodEntry& m = m_snapshot->methods[std::size_t(row)];
    auto number = [&](int n) -> QVariant {
        if (role == Qt::DisplayRole)
            return n < 0 ? QStringLiteral("—") : QString::number(n);
        if (role == SortRole || role == RawValueRole)
            return n;
        if (role == Qt::TextAlignmentRole)
            return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    };
    if (role == Qt::ForegroundRole && (m.isTrainingMetadata || m.isConstant))
        return QColor(m.isTrainingMetadata ? QColor(0x8a, 0x5a, 0x00) : QColor(0x2a, 0x6f, 0x97));
    if (role == Qt::ToolTipRole && column == KindColumn) {
        if (m.isTrainingMetadata)
            return QStringLiteral("ExecuTorch on-device training metadata (__et_training_*), not a model entry point");
        if (m.isConstant)
            return QStringLiteral("Constant method (prim getter): no instructions, returns a constant value");
    }
    switch (column) {
    case NameColumn:
        if (role == Qt::DisplayRole || role == SortRole)
            return toQString(m.name);
        if (role == Qt::DecorationRole && (m.isTrainingMetadata || m.isConstant))
            return m.isTrainingMetadata ? QColor(0xe0, 0xa0, 0x20) : QColor(0x40, 0x90, 0xd0);
        return {};
    case InputsColumn:
        return number(callerInputCount(m));
    case OutputsColumn:
        return number(returnedOutputCount(m));
    case InstructionsColumn:
        return number(m.plan ? instructionCount(*m.plan) : -1);
    case ValuesColumn:
        return number(m.plan ? int(m.plan->values.size()) : -1);
    case KindColumn:
        if (role == Qt::DisplayRole || role == SortRole)
            return methodKindText(m);
        return {};
    case SourceColumn:
        if (role == Qt::DisplayRole || role == SortRole) {
            QStringList parts;
            if (m.plan)
                parts << (m.emitInfo ? QStringLiteral("emitted") : QStringLiteral(".pte"));
            if (m.exported)
                parts << QFileInfo(toQString(m.exported->source)).fileName();
            return parts.join(QStringLiteral(" + "));
        }
        return {};
    default:
        return {};
    }
}

QVariant MethodModel::headerCell(int column, int role) const
{
    if (role == Qt::ToolTipRole) {
        if (column == InputsColumn)
            return QStringLiteral("Values the caller passes (user inputs). Parameters, buffers and constants are "
                                  "stored in the program; the Signature view lists them too.");
        if (column == OutputsColumn)
            return QStringLiteral("Values the method returns. Buffer and parameter mutations are written back "
                                  "into their buffers, not returned; the Signature view lists them too.");
        return {};
    }
    if (role != Qt::DisplayRole)
        return {};
    static const char* const names[] = { "Method", "Inputs", "Outputs", "Instructions", "Values", "Kind", "Source" };
    return QLatin1String(names[column]);
}

} // namespace pte::ui
