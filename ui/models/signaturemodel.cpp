// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "models/signaturemodel.h"

#include "models/roles.h"
#include "models/text.h"

#include <QColor>

namespace pte::ui {

QString dropReasonText(pte::OutputKind kind)
{
    const char* reason = pte::emissionDropReason(kind);
    return reason ? QLatin1String(reason) : QString();
}

namespace {
QString argumentName(const pte::Argument& arg)
{
    if (!arg.names.empty())
        return toQString(arg.names.front());
    if (!arg.syms.empty())
        return arg.syms.front().value ? QString::number(*arg.syms.front().value) : toQString(arg.syms.front().expr);
    if (!arg.ints.empty())
        return QString::number(arg.ints.front());
    if (!arg.floats.empty())
        return QString::number(arg.floats.front());
    if (!arg.strings.empty())
        return toQString(arg.strings.front());
    if (!arg.bools.empty())
        return arg.bools.front() ? QStringLiteral("true") : QStringLiteral("false");
    return QLatin1String(pte::argKindName(arg.kind));
}
} // namespace

SignatureModel::SignatureModel(Side side, QObject* parent)
    : TableModelBase(parent)
    , m_side(side)
{ }

void SignatureModel::setMethod(std::shared_ptr<const Snapshot> snapshot, const QString& method)
{
    beginResetModel();
    m_snapshot = std::move(snapshot);
    m_rows.clear();
    const MethodEntry* m = m_snapshot ? m_snapshot->method(method.toStdString()) : nullptr;
    m_emitted = m && m->plan;
    if (m && m->exported) {
        const auto& g = m->exported->graph;
        auto fillTensor = [&](Row& row) {
            const auto it = g.tensorValues.find(row.name.toStdString());
            if (it != g.tensorValues.end()) {
                row.dtype = dtypeName(it->second.dtype);
                row.shape = formatShape(it->second.sizes);
            }
        };
        // An input or output spec's row: its kind, argument, target and the tensor's dtype and shape.
        auto specRow = [&](const char* kind, const auto& spec) {
            Row row;
            row.kind = QLatin1String(kind);
            row.name = argumentName(spec.arg);
            row.target = toQString(spec.target);
            fillTensor(row);
            return row;
        };
        if (m_side == Side::Inputs) {
            int userIndex = 0;
            for (const auto& spec : m->exported->signature.inputSpecs) {
                Row row = specRow(pte::inputKindName(spec.kind), spec);
                if (spec.kind == pte::InputKind::UserInput && m->plan && userIndex < int(m->plan->inputs.size()))
                    row.value = m->plan->inputs[std::size_t(userIndex++)];
                m_rows.push_back(std::move(row));
            }
        } else {
            int kept = 0;
            for (const auto& spec : m->exported->signature.outputSpecs) {
                Row row = specRow(pte::outputKindName(spec.kind), spec);
                row.dropReason = dropReasonText(spec.kind);
                if (row.dropReason.isEmpty() && m->plan && kept < int(m->plan->outputs.size()))
                    row.value = m->plan->outputs[std::size_t(kept++)];
                m_rows.push_back(std::move(row));
            }
            // Outputs emission adds after the signature's: a joint graph's trained parameters
            // (ExecuTorch's weights_to_outputs_pass).
            for (; m->plan && kept < int(m->plan->outputs.size()); ++kept) {
                Row row;
                row.kind = QStringLiteral("trained_parameter");
                row.value = m->plan->outputs[std::size_t(kept)];
                row.name = valueRef(row.value);
                if (m->emitInfo) {
                    const auto it = m->emitInfo->valueNames.find(row.value);
                    if (it != m->emitInfo->valueNames.end())
                        row.name = toQString(it->second);
                }
                for (const auto& spec : m->exported->signature.inputSpecs)
                    if (!spec.arg.names.empty() && toQString(spec.arg.names.front()) == row.name)
                        row.target = toQString(spec.target);
                fillTensor(row);
                m_rows.push_back(std::move(row));
            }
        }
    } else if (m && m->plan) {
        const auto& ids = m_side == Side::Inputs ? m->plan->inputs : m->plan->outputs;
        for (const std::int32_t id : ids) {
            Row row;
            row.kind = m_side == Side::Inputs ? QStringLiteral("input") : QStringLiteral("output");
            row.value = id;
            row.name = valueRef(id);
            if (m->emitInfo) {
                const auto it = m->emitInfo->valueNames.find(id);
                if (it != m->emitInfo->valueNames.end())
                    row.name = toQString(it->second);
            }
            if (id >= 0 && std::size_t(id) < m->plan->values.size()) {
                const auto& v = m->plan->values[std::size_t(id)];
                if (const auto* t = v.tensor()) {
                    row.dtype = dtypeName(t->scalarType);
                    row.shape = formatShape(t->sizes);
                    row.target = t->allocationInfo ? QStringLiteral("planned") : QStringLiteral("unplanned");
                    if (t->dataBufferIdx > 0)
                        row.target = QStringLiteral("constant #%1").arg(t->dataBufferIdx);
                } else {
                    row.contents = describeValue(v);
                    row.dtype = QLatin1String(pte::valueKindName(v.kind()));
                }
            }
            m_rows.push_back(std::move(row));
        }
    }
    endResetModel();
}

int SignatureModel::rows() const { return int(m_rows.size()); }

void SignatureModel::setCounterpart(const SignatureModel* other)
{
    m_counterpart = other;
    if (!m_rows.empty())
        Q_EMIT dataChanged(index(0, 0), index(rows() - 1, ColumnCount - 1), { Qt::BackgroundRole });
}

bool SignatureModel::differsFromCounterpart(int row, int column) const
{
    if (!m_counterpart || row < 0 || row >= rows()
        || (column != KindColumn && column != DTypeColumn && column != ShapeColumn))
        return false;
    if (row >= m_counterpart->rows())
        return true;
    return data(index(row, column)).toString() != m_counterpart->data(m_counterpart->index(row, column)).toString();
}

QVariant SignatureModel::cell(int row, int column, int role) const
{
    const Row& r = m_rows[std::size_t(row)];
    const bool dropped = !r.dropReason.isEmpty();
    if (role == DroppedRole)
        return dropped;
    // Dropping these outputs is what emission does (not an error): before it, the rows say what it will do, in grey;
    // after it, that it did, marked.
    if (dropped && role == Qt::ToolTipRole)
        return m_emitted ? QStringLiteral("Dropped by emission — %1").arg(r.dropReason)
                         : QStringLiteral("Emission will drop this output — %1").arg(r.dropReason);
    if (dropped && role == Qt::ForegroundRole)
        return m_emitted ? QColor(0xb0, 0x30, 0x30) : QColor(0x70, 0x70, 0x70);
    if (dropped && m_emitted && role == Qt::DecorationRole && column == KindColumn)
        return QColor(0xd0, 0x40, 0x40);
    if (role == RawValueRole && column == ValueColumn)
        return r.value;
    if (role == Qt::BackgroundRole)
        return differsFromCounterpart(row, column) ? QVariant(QColor(0xff, 0xe2, 0x8a)) : QVariant();
    if (role != Qt::DisplayRole && role != SortRole)
        return {};
    switch (column) {
    case IndexColumn:
        return role == SortRole ? QVariant(row) : QVariant(QString::number(row));
    case KindColumn:
        return r.kind;
    case NameColumn:
        return r.name;
    case TargetColumn:
        return r.target;
    case DTypeColumn:
        return r.dtype;
    case ShapeColumn:
        return r.shape;
    case ValueColumn:
        if (role == SortRole)
            return r.value;
        if (r.value < 0)
            return QString();
        return r.contents.isEmpty() ? valueRef(r.value) : valueRef(r.value) + QStringLiteral(" = ") + r.contents;
    case ReasonColumn:
        return dropped ? r.dropReason : QString();
    default:
        return {};
    }
}

QVariant SignatureModel::headerCell(int column, int role) const
{
    if (role != Qt::DisplayRole)
        return {};
    static const char* const names[] = { "#", "Kind", "Name", "Target", "DType", "Shape", "Value", "Reason" };
    return QLatin1String(names[column]);
}

} // namespace pte::ui
