// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "models/instructionfilterproxy.h"

#include "models/instructionmodel.h"
#include "models/roles.h"
#include "models/text.h"

namespace pte::ui {

InstructionFilterProxy::InstructionFilterProxy(QObject* parent)
    : QSortFilterProxyModel(parent)
{
    setSortRole(SortRole);
}

void InstructionFilterProxy::setSourceModel(QAbstractItemModel* model)
{
    if (m_model)
        disconnect(m_model, nullptr, this, nullptr);
    m_model = qobject_cast<InstructionModel*>(model);
    // Connected before the base class connects, so the tables are current when the proxy refilters.
    if (m_model)
        connect(m_model, &QAbstractItemModel::modelReset, this, [this] { rebuildTables(); });
    QSortFilterProxyModel::setSourceModel(model);
    refresh();
}

void InstructionFilterProxy::setFilterText(const QString& text)
{
    m_text = text.trimmed();
    bool ok = false;
    const qint64 n = m_text.toLongLong(&ok);
    m_textNumber = ok ? std::optional<qint64>(n) : std::nullopt;
    refresh();
}

void InstructionFilterProxy::setKindFilter(std::optional<pte::InstructionKind> kind)
{
    m_kind = kind;
    refresh();
}

void InstructionFilterProxy::setOperatorFilter(const QString& op)
{
    m_operator = op;
    refresh();
}

void InstructionFilterProxy::setBackendFilter(const QString& backend)
{
    m_backend = backend;
    refresh();
}

void InstructionFilterProxy::setDebugHandleFilter(std::optional<qint64> handle)
{
    m_handle = handle;
    refresh();
}

void InstructionFilterProxy::refresh()
{
    // A reset, not invalidateFilter(): removing 150k scattered rows range by range is quadratic,
    // while a reset rebuilds the mapping in one pass the next time a view asks.
    beginResetModel();
    rebuildTables();
    endResetModel();
}

void InstructionFilterProxy::rebuildTables()
{
    m_opText.clear();
    m_opExact.clear();
    m_delegateText.clear();
    m_delegateExact.clear();
    m_kindText.assign(6, 0);
    m_nodeText.clear();
    if (!m_model)
        return;
    // Graph node names (the Graph nodes column): one pass over the emitter's instruction -> nodes map.
    if (const auto* entry = m_model->methodEntry(); entry && entry->emitInfo && !m_text.isEmpty()) {
        const QByteArray needle = m_text.toUtf8().toLower();
        for (const auto& [id, names] : entry->emitInfo->instructionNodes) {
            for (const auto& name : names) {
                if (QByteArray::fromRawData(name.data(), qsizetype(name.size())).toLower().contains(needle)) {
                    if (std::size_t(id) >= m_nodeText.size())
                        m_nodeText.resize(std::size_t(id) + 1, 0);
                    m_nodeText[std::size_t(id)] = 1;
                    break;
                }
            }
        }
    }
    const QStringList& ops = m_model->operatorNames();
    for (const QString& op : ops) {
        m_opText.push_back(!m_text.isEmpty() && op.contains(m_text, Qt::CaseInsensitive));
        m_opExact.push_back(op == m_operator);
    }
    if (const auto* plan = m_model->plan()) {
        for (const auto& d : plan->delegates) {
            const QString id = toQString(d.id);
            m_delegateText.push_back(!m_text.isEmpty() && id.contains(m_text, Qt::CaseInsensitive));
            m_delegateExact.push_back(id == m_backend);
        }
    }
    for (int k = 0; k < 6; ++k)
        m_kindText[std::size_t(k)] = !m_text.isEmpty()
            && QLatin1String(pte::instructionKindName(pte::InstructionKind(k))).contains(m_text, Qt::CaseInsensitive);
}

bool InstructionFilterProxy::filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const
{
    if (!m_model || sourceParent.isValid())
        return true;
    const auto& r = m_model->rowInfo(sourceRow);
    if (m_kind && r.kind != *m_kind)
        return false;
    if (!m_operator.isEmpty() && (r.op < 0 || std::size_t(r.op) >= m_opExact.size() || !m_opExact[std::size_t(r.op)]))
        return false;
    if (!m_backend.isEmpty()) {
        const bool byIndex = r.delegate >= 0 && std::size_t(r.delegate) < m_delegateExact.size()
            && m_delegateExact[std::size_t(r.delegate)];
        const bool byMap = r.delegateEntry && QLatin1String(r.delegateEntry->name.c_str()) == m_backend;
        if (!byIndex && !byMap)
            return false;
    }
    auto hasHandle = [&r](qint64 h) {
        if (r.handles)
            for (const auto v : *r.handles)
                if (v == h)
                    return true;
        if (r.delegateEntry)
            for (const auto& [id, hs] : r.delegateEntry->delegateMap)
                for (const auto v : hs)
                    if (v == h)
                        return true;
        return false;
    };
    if (m_handle && !hasHandle(*m_handle))
        return false;
    if (m_text.isEmpty())
        return true;
    if (m_textNumber && (qint64(r.index) == *m_textNumber || hasHandle(*m_textNumber)))
        return true;
    if (r.op >= 0 && std::size_t(r.op) < m_opText.size() && m_opText[std::size_t(r.op)])
        return true;
    if (r.delegate >= 0 && std::size_t(r.delegate) < m_delegateText.size() && m_delegateText[std::size_t(r.delegate)])
        return true;
    if (std::size_t(r.kind) < m_kindText.size() && m_kindText[std::size_t(r.kind)])
        return true;
    if (r.chain == 0 && r.index < m_nodeText.size() && m_nodeText[r.index])
        return true;
    if (r.delegateEntry) {
        for (const auto& [id, hs] : r.delegateEntry->delegateMap)
            if (toQString(id).contains(m_text, Qt::CaseInsensitive))
                return true;
    }
    return false;
}

} // namespace pte::ui
