// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "models/nameddatamodel.h"

#include "models/roles.h"
#include "models/text.h"

namespace pte::ui {

void NamedDataModel::setMethod(std::shared_ptr<const Snapshot> snapshot, const QString& method)
{
    beginResetModel();
    m_snapshot = std::move(snapshot);
    m_rows.clear();
    const MethodEntry* m = m_snapshot ? m_snapshot->method(method.toStdString()) : nullptr;
    if (m && m->exported) {
        for (const auto& [name, module] : m->exported->loweredModules) {
            if (!module)
                continue;
            if (!module->pteDataEntries.empty()) {
                for (const auto& [key, e] : module->pteDataEntries)
                    m_rows.push_back(Row { module.get(), nullptr, &key, e.data.size(), e.bufferIndex, e.alignment });
            } else {
                for (const auto& [key, bytes] : module->namedData)
                    m_rows.push_back(Row { module.get(), nullptr, &key, bytes.size(), std::nullopt, 0 });
            }
            for (const auto& [file, entries] : module->externalData)
                for (const auto& [key, e] : entries)
                    m_rows.push_back(Row { module.get(), &file, &key, e.data.size(), e.bufferIndex, e.alignment });
        }
    } else if (m && m->plan && m_snapshot->program) {
        // A loaded program: its named data belongs to the program (any method's delegates may read a key).
        const pte::Program& program = *m_snapshot->program;
        if (program.namedData)
            for (const auto& nd : *program.namedData) {
                const std::uint64_t size =
                    nd.segmentIndex < program.segments.size() ? program.segments[nd.segmentIndex].size : 0;
                m_rows.push_back(Row { nullptr, nullptr, &nd.key, size, std::int64_t(nd.segmentIndex), 0, true });
            }
        if (const auto* file = m_snapshot->pteFile.get(); file && file->externalData)
            for (const auto& [key, t] : file->externalData->tensors)
                m_rows.push_back(Row { nullptr, &file->externalData->path, &key, t.data.size(), std::nullopt, 0 });
    }
    endResetModel();
}

QVariant NamedDataModel::cell(int row, int column, int role) const
{
    const Row& r = m_rows[std::size_t(row)];
    const bool sort = role == SortRole;
    if (role == Qt::ToolTipRole && column == StoreColumn)
        return r.file ? QStringLiteral("External data file %1 (loaded next to the program)").arg(toQString(*r.file))
                      : QStringLiteral("Stored in the .pte's named data");
    if (role == Qt::ToolTipRole && (column == ModuleColumn || column == BackendColumn) && !r.module)
        return QStringLiteral("The program's named data: shared by all methods, read by the delegates' backends");
    if (role == Qt::ToolTipRole && column == BufferColumn && r.segment)
        return QStringLiteral("Segment %1 of the .pte").arg(*r.bufferIndex);
    if (role == Qt::ToolTipRole && column == SizeColumn)
        return counted(qint64(r.size), QStringLiteral("byte"));
    if (role == Qt::TextAlignmentRole && (column == SizeColumn || column == BufferColumn))
        return QVariant(Qt::AlignRight | Qt::AlignVCenter);
    if (role != Qt::DisplayRole && !sort)
        return {};
    switch (column) {
    case ModuleColumn:
        return r.module ? toQString(r.module->name) : QStringLiteral("(program)");
    case BackendColumn:
        return r.module ? toQString(r.module->backendId) : QString();
    case StoreColumn:
        return r.file ? toQString(*r.file) : QStringLiteral("pte");
    case KeyColumn:
        return toQString(*r.key);
    case SizeColumn:
        return sort ? QVariant(qulonglong(r.size)) : QVariant(formatBytes(r.size));
    case BufferColumn:
        if (!r.bufferIndex)
            return sort ? QVariant(-1) : QVariant(QString());
        if (sort)
            return QVariant(qlonglong(*r.bufferIndex));
        return r.segment ? QStringLiteral("segment %1").arg(*r.bufferIndex) : QString::number(*r.bufferIndex);
    case AlignmentColumn:
        if (r.alignment == 0)
            return sort ? QVariant(0) : QVariant(QStringLiteral("—"));
        return sort ? QVariant(r.alignment) : QVariant(QString::number(r.alignment));
    default:
        return {};
    }
}

QVariant NamedDataModel::headerCell(int column, int role) const
{
    if (role != Qt::DisplayRole)
        return {};
    static const char* const names[] = { "Module", "Backend", "Stored in", "Key", "Size", "Buffer", "Alignment" };
    return QLatin1String(names[column]);
}

} // namespace pte::ui
