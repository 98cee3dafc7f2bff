// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "models/diffinstructionmodel.h"

#include "models/diffstatus.h"
#include "models/roles.h"
#include "models/text.h"

#include <QBrush>
#include <QFont>

namespace pte::ui {

DiffInstructionModel::DiffInstructionModel(Side side, QObject* parent)
    : TableModelBase(parent)
    , m_side(side)
{ }

void DiffInstructionModel::setMethod(std::shared_ptr<const ComparisonResult> result, int method)
{
    beginResetModel();
    m_result = std::move(result);
    m_method = nullptr;
    m_plan = nullptr;
    m_handles = nullptr;
    m_instructions.clear();
    m_rowOfInstruction.clear();
    m_rowDifferences.clear();
    if (m_result && m_result->diff && method >= 0 && std::size_t(method) < m_result->diff->methods.size()) {
        m_method = &m_result->diff->methods[std::size_t(method)];
        const bool a = m_side == Side::A;
        const pte::DiffSide& side = a ? m_result->a : m_result->b;
        const std::string& name = a ? m_method->nameA : m_method->nameB;
        m_plan = name.empty() || !side.program ? nullptr : side.program->method(name);
        if (m_plan) {
            for (const auto& chain : m_plan->chains)
                for (const auto& ins : chain.instructions)
                    m_instructions.push_back(&ins);
            if (side.debugMaps) {
                const auto it = side.debugMaps->debugHandleMap.find(name);
                if (it != side.debugMaps->debugHandleMap.end())
                    m_handles = &it->second;
            }
        }
        m_rowOfInstruction.assign(m_instructions.size(), -1);
        for (std::size_t r = 0; r < m_method->rows.size(); ++r) {
            const std::int32_t i = a ? m_method->rows[r].a : m_method->rows[r].b;
            if (i >= 0 && std::size_t(i) < m_rowOfInstruction.size())
                m_rowOfInstruction[std::size_t(i)] = std::int32_t(r);
        }
        // The differences that name an instruction of this side, directly or through a value it uses.
        for (const auto& d : m_result->diff->differences) {
            if (d.methodA != m_method->nameA || d.methodB != m_method->nameB)
                continue;
            const QString line = toQString(d.toString());
            const bool instructionSubject =
                d.category == pte::DiffCategory::Instruction || d.category == pte::DiffCategory::DebugInfo;
            if (instructionSubject) {
                const int row = rowOfInstruction(int(a ? d.indexA : d.indexB));
                if (row >= 0)
                    m_rowDifferences[row] << line;
                continue;
            }
            for (const auto& use : a ? d.usesA : d.usesB) {
                const int row = rowOfInstruction(use.instruction);
                if (row >= 0 && !m_rowDifferences[row].contains(line))
                    m_rowDifferences[row] << line;
            }
        }
    }
    endResetModel();
}

int DiffInstructionModel::instructionAt(int row) const
{
    if (!m_method || row < 0 || std::size_t(row) >= m_method->rows.size())
        return -1;
    const auto& r = m_method->rows[std::size_t(row)];
    return m_side == Side::A ? r.a : r.b;
}

int DiffInstructionModel::rowOfInstruction(int instruction) const
{
    return instruction >= 0 && std::size_t(instruction) < m_rowOfInstruction.size()
        ? m_rowOfInstruction[std::size_t(instruction)]
        : -1;
}

QStringList DiffInstructionModel::rowDifferences(int row) const
{
    const auto it = m_rowDifferences.find(row);
    return it == m_rowDifferences.end() ? QStringList() : it->second;
}

bool DiffInstructionModel::cellChanged(int row, int column) const
{
    const pte::InstructionChange* c = m_method->change(std::size_t(row));
    if (!c)
        return false;
    switch (column) {
    case KindColumn:
        return c->kind;
    case OperatorColumn:
        return c->target;
    case ArgumentsColumn:
        return c->argumentCount || !c->arguments.empty();
    case DebugHandlesColumn:
        return c->debugHandles;
    default:
        return false;
    }
}

QString DiffInstructionModel::text(int row, int column) const
{
    const int id = instructionAt(row);
    if (column == StatusColumn)
        return diffStatusLabel(m_method->rows[std::size_t(row)].status);
    if (id < 0 || std::size_t(id) >= m_instructions.size())
        return {};
    const pte::Instruction& ins = *m_instructions[std::size_t(id)];
    switch (column) {
    case IdColumn:
        return QString::number(id);
    case KindColumn:
        return QLatin1String(pte::instructionKindName(ins.kind()));
    case OperatorColumn:
        if (const auto* k = std::get_if<pte::KernelCall>(&ins.args))
            return k->opIndex >= 0 && std::size_t(k->opIndex) < m_plan->operators.size()
                ? toQString(m_plan->operators[std::size_t(k->opIndex)].qualifiedName())
                : QStringLiteral("?");
        if (const auto* d = std::get_if<pte::DelegateCall>(&ins.args))
            return d->delegateIndex >= 0 && std::size_t(d->delegateIndex) < m_plan->delegates.size()
                ? toQString(m_plan->delegates[std::size_t(d->delegateIndex)].id)
                : QStringLiteral("?");
        return {};
    case ArgumentsColumn: {
        std::vector<std::int32_t> args;
        if (const auto* k = std::get_if<pte::KernelCall>(&ins.args))
            args = k->args;
        else if (const auto* d = std::get_if<pte::DelegateCall>(&ins.args))
            args = d->args;
        else if (const auto* m = std::get_if<pte::MoveCall>(&ins.args))
            args = { m->moveFrom, m->moveTo };
        else if (const auto* j = std::get_if<pte::JumpFalseCall>(&ins.args))
            args = { j->condValueIndex };
        else if (const auto* f = std::get_if<pte::FreeCall>(&ins.args))
            args = { f->valueIndex };
        QStringList parts;
        for (const auto v : args) {
            QString part = valueRef(v);
            if (v >= 0 && std::size_t(v) < m_plan->values.size()) {
                const pte::EValue& value = m_plan->values[std::size_t(v)];
                if (const auto* t = value.tensor())
                    part += QLatin1Char(' ') + dtypeName(t->scalarType) + formatShape(t->sizes);
                else if (const auto* i = std::get_if<pte::Int>(&value.val))
                    part += QLatin1Char('=') + QString::number(i->intVal);
            }
            parts << part;
        }
        return parts.join(QStringLiteral(", "));
    }
    case DebugHandlesColumn: {
        if (!m_handles)
            return {};
        const auto it = m_handles->find(id);
        return it == m_handles->end() ? QString() : formatIntList(it->second);
    }
    default:
        return {};
    }
}

QVariant DiffInstructionModel::cell(int row, int column, int role) const
{
    const pte::DiffStatus status = m_method->rows[std::size_t(row)].status;
    const bool gap = instructionAt(row) < 0;
    switch (role) {
    case Qt::DisplayRole:
        return text(row, column);
    case SortRole:
        return row;
    case Qt::BackgroundRole:
        if (gap)
            return QBrush(diffGapColor());
        if (cellChanged(row, column))
            return QBrush(diffChangedCellColor());
        if (status != pte::DiffStatus::Same)
            return QBrush(diffStatusColor(status));
        return {};
    case Qt::ToolTipRole: {
        const QStringList lines = rowDifferences(row);
        return lines.isEmpty() ? QVariant() : QVariant(lines.join(QLatin1Char('\n')));
    }
    case Qt::FontRole:
        if (column == StatusColumn && status != pte::DiffStatus::Same) {
            QFont bold;
            bold.setBold(true);
            return bold;
        }
        return {};
    default:
        return {};
    }
}

QVariant DiffInstructionModel::headerCell(int column, int role) const
{
    if (role != Qt::DisplayRole)
        return {};
    static const char* const names[] = { "#", "Kind", "Operator", "Arguments", "Debug handles", "Status" };
    return QLatin1String(names[column]);
}

} // namespace pte::ui
