// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include "models/profileproxy.h"

namespace pte::ui {

/**
 * The Profile view's filter: text (every word must occur in the row's search text), event block, delegated events
 * only. Sorts on SortRole. Reads ProfileModel's precomputed search text, never display text.
 */
class ProfileFilterProxy : public ProfileProxy
{
    Q_OBJECT
public:
    explicit ProfileFilterProxy(QObject* parent = nullptr);
    void setText(const QString& text);
    void setBlock(const QString& block); ///< empty: every block
    void setDelegatedOnly(bool on);

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const override;

private:
    QStringList m_words;
    QString m_block;
    bool m_delegatedOnly = false;
};

} // namespace pte::ui
