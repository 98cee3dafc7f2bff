// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "models/sizemodel.h"

#include "models/delegateblobs.h"
#include "models/roles.h"
#include "models/text.h"

#include <map>
#include <set>

namespace pte::ui {

QString SizeModel::categoryName(Category c)
{
    switch (c) {
    case Category::Program:
        return QStringLiteral("Program");
    case Category::Constant:
        return QStringLiteral("Constant");
    case Category::DelegateBlob:
        return QStringLiteral("Delegate blob");
    case Category::MutableData:
        return QStringLiteral("Mutable data");
    case Category::NamedData:
        return QStringLiteral("Named data");
    case Category::External:
        return QStringLiteral("External (.ptd)");
    case Category::Padding:
        return QStringLiteral("Padding / other");
    case Category::Method:
        return QStringLiteral("Method");
    }
    return {};
}

QColor SizeModel::categoryColor(Category c)
{
    switch (c) {
    case Category::Program:
        return QColor(0x5b, 0x7d, 0xb1);
    case Category::Constant:
        return QColor(0x59, 0xa1, 0x4f);
    case Category::DelegateBlob:
        return QColor(0xe1, 0x57, 0x59);
    case Category::MutableData:
        return QColor(0xf2, 0x8e, 0x2b);
    case Category::NamedData:
        return QColor(0xb0, 0x7a, 0xa1);
    case Category::External:
        return QColor(0x76, 0xb7, 0xb2);
    case Category::Padding:
        return QColor(0xba, 0xb0, 0xac);
    case Category::Method:
        return QColor(0x9c, 0x75, 0x5f);
    }
    return {};
}

void SizeModel::setSnapshot(std::shared_ptr<const Snapshot> snapshot)
{
    beginResetModel();
    m_snapshot = std::move(snapshot);
    m_entries.clear();
    m_total = 0;
    const pte::Program* program = m_snapshot ? m_snapshot->program.get() : nullptr;
    if (program) {
        const auto* file = m_snapshot->pteFile.get();
        std::uint64_t parts = 0;
        auto add = [&](Category c, QString name, std::uint64_t size, QString details = {}) {
            if (c != Category::Method)
                parts += size;
            m_entries.push_back(Entry { c, std::move(name), size, std::move(details) });
        };
        if (file)
            add(Category::Program, QStringLiteral("flatbuffer"), file->flatbufferSize,
                file->header ? QStringLiteral("with eh00 header") : QStringLiteral("no extended header"));
        // Which value uses which constant, for names.
        std::map<std::uint32_t, QString> constantUsers;
        for (const auto& plan : program->executionPlan)
            for (std::size_t v = 0; v < plan.values.size(); ++v)
                if (const auto* t = plan.values[v].tensor();
                    t && t->dataBufferIdx > 0 && !constantUsers.contains(t->dataBufferIdx))
                    constantUsers[t->dataBufferIdx] = toQString(plan.name) + QLatin1Char(' ') + valueRef(qint64(v))
                        + QLatin1Char(' ') + dtypeName(t->scalarType) + formatShape(t->sizes);
        const std::size_t constants =
            program->constantSegment ? program->constantSegment->offsets.size() : program->constantBuffer.size();
        std::vector<std::uint64_t> constantSizes(constants, 0);
        for (std::size_t i = 1; i < constants; ++i) {
            constantSizes[i] = pte::constantData(*program, std::uint32_t(i)).size();
            const auto it = constantUsers.find(std::uint32_t(i));
            add(Category::Constant, QStringLiteral("constant #%1").arg(i), constantSizes[i],
                it != constantUsers.end() ? it->second : QStringLiteral("unused"));
        }
        // Each blob once, however many delegates (of however many methods) use it.
        const auto blobUsers = delegateBlobUsers(*program);
        std::set<DelegateBlobKey> blobsSeen;
        for (const auto& plan : program->executionPlan)
            for (std::size_t d = 0; d < plan.delegates.size(); ++d) {
                const auto& del = plan.delegates[d];
                if (!blobsSeen.insert(blobKey(del)).second)
                    continue;
                const QStringList& users = blobUsers.at(blobKey(del));
                if (users.size() > 1)
                    add(Category::DelegateBlob, QStringLiteral("%1 blob (shared)").arg(blobLocationText(blobKey(del))),
                        pte::delegateData(*program, del).size(),
                        QStringLiteral("%1, shared by %2 methods: %3")
                            .arg(toQString(del.id))
                            .arg(users.size())
                            .arg(users.join(QStringLiteral(", "))));
                else
                    add(Category::DelegateBlob, QStringLiteral("%1 delegate #%2").arg(toQString(plan.name)).arg(d),
                        pte::delegateData(*program, del).size(), toQString(del.id));
            }
        if (program->mutableDataSegments)
            for (const auto& m : *program->mutableDataSegments)
                if (m.segmentIndex < program->segments.size())
                    add(Category::MutableData, QStringLiteral("segment #%1").arg(m.segmentIndex),
                        program->segments[m.segmentIndex].size,
                        counted(qint64(m.offsets.size()), QStringLiteral("buffer")));
        if (program->namedData)
            for (const auto& nd : *program->namedData)
                if (nd.segmentIndex < program->segments.size())
                    add(Category::NamedData, toQString(nd.key), program->segments[nd.segmentIndex].size,
                        QStringLiteral("segment #%1").arg(nd.segmentIndex));
        if (m_snapshot->emitted)
            for (const auto& [key, bytes] : m_snapshot->emitted->namedData)
                add(Category::NamedData, toQString(key), bytes.size(), QStringLiteral("emitted"));
        if (file && file->externalData)
            for (const auto& [key, t] : file->externalData->tensors)
                add(Category::External, toQString(key), t.data.size(), toQString(file->externalData->path));
        m_total = file ? std::uint64_t(file->file.size()) : parts;
        if (file && m_total > parts)
            add(Category::Padding, QStringLiteral("alignment padding and headers"), m_total - parts);
        for (const auto& plan : program->executionPlan) {
            std::set<std::uint32_t> used;
            std::uint64_t bytes = 0;
            for (const auto& v : plan.values)
                if (const auto* t = v.tensor(); t && t->dataBufferIdx > 0 && t->dataBufferIdx < constantSizes.size()
                    && used.insert(t->dataBufferIdx).second)
                    bytes += constantSizes[t->dataBufferIdx];
            // A blob counts once per method; one that other methods use too is marked shared.
            std::uint64_t blobs = 0;
            std::uint64_t shared = 0;
            std::set<DelegateBlobKey> methodBlobs;
            for (const auto& del : plan.delegates) {
                if (!methodBlobs.insert(blobKey(del)).second)
                    continue;
                const auto size = pte::delegateData(*program, del).size();
                blobs += size;
                if (blobUsers.at(blobKey(del)).size() > 1)
                    shared += size;
            }
            QString details = QStringLiteral("%1 constants (%2), delegate blobs %3")
                                  .arg(used.size())
                                  .arg(formatBytes(bytes), formatBytes(blobs));
            if (shared > 0)
                details += QStringLiteral(" (%1 shared with other methods)").arg(formatBytes(shared));
            add(Category::Method, toQString(plan.name), bytes + blobs, details);
        }
    }
    endResetModel();
}

QVariant SizeModel::cell(int row, int column, int role) const
{
    const Entry& e = m_entries[std::size_t(row)];
    const bool sort = role == SortRole;
    if (role == Qt::DecorationRole && column == CategoryColumn)
        return categoryColor(e.category);
    if (role == Qt::TextAlignmentRole && (column == SizeColumn || column == ShareColumn))
        return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
    if (role == RawValueRole && column == SizeColumn)
        return qulonglong(e.size);
    if (role != Qt::DisplayRole && !sort)
        return {};
    switch (column) {
    case CategoryColumn:
        return sort ? QVariant(int(e.category)) : QVariant(categoryName(e.category));
    case NameColumn:
        return e.name;
    case SizeColumn:
        return sort ? QVariant(qulonglong(e.size)) : QVariant(formatBytes(e.size));
    case ShareColumn: {
        const double share = m_total ? 100.0 * double(e.size) / double(m_total) : 0.0;
        return sort ? QVariant(share) : QVariant(QStringLiteral("%1 %").arg(share, 0, 'f', 1));
    }
    case DetailsColumn:
        return e.details;
    default:
        return {};
    }
}

QVariant SizeModel::headerCell(int column, int role) const
{
    if (role != Qt::DisplayRole)
        return {};
    static const char* const names[] = { "Category", "Name", "Size", "Share", "Details" };
    return QLatin1String(names[column]);
}

} // namespace pte::ui
