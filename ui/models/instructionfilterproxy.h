// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include "pte/program.h"

#include <QSortFilterProxyModel>

#include <optional>
#include <vector>

namespace pte::ui {

class InstructionModel;

/**
 * Filters an InstructionModel by free text, kind, operator, backend and debug handle. Works on the
 * model's precomputed RowInfo: a text change is turned into per-operator / per-delegate match tables
 * once, so each row test is a few integer lookups (no strings are built per row).
 */
class InstructionFilterProxy : public QSortFilterProxyModel
{
    Q_OBJECT
public:
    explicit InstructionFilterProxy(QObject* parent = nullptr);

    void setSourceModel(QAbstractItemModel* model) override;

    /**
     * Case-insensitive substring of operator, kind, backend, delegate debug id or graph node name; a number
     * matches the instruction id or a debug handle.
     */
    void setFilterText(const QString& text);
    void setKindFilter(std::optional<pte::InstructionKind> kind);
    /** Exact qualified operator name ("aten::add.out"); empty = any. */
    void setOperatorFilter(const QString& op);
    /** Exact backend id; empty = any. */
    void setBackendFilter(const QString& backend);
    void setDebugHandleFilter(std::optional<qint64> handle);
    /** Recomputes the match tables (call after the source model was reset). */
    void refresh();

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const override;

private:
    void rebuildTables();

    InstructionModel* m_model = nullptr;
    QString m_text;
    std::optional<qint64> m_textNumber;
    std::optional<pte::InstructionKind> m_kind;
    QString m_operator;
    QString m_backend;
    std::optional<qint64> m_handle;
    std::vector<char> m_opText; ///< operator index -> matches m_text
    std::vector<char> m_opExact; ///< operator index -> equals m_operator
    std::vector<char> m_delegateText; ///< delegate index -> backend matches m_text
    std::vector<char> m_delegateExact; ///< delegate index -> backend equals m_backend
    std::vector<char> m_kindText; ///< kind code -> kind name matches m_text
    std::vector<char> m_nodeText; ///< chain-0 instruction id -> one of its graph node names matches m_text
};

} // namespace pte::ui
