// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <QTableView>

namespace pte::ui {

/**
 * A QTableView that says why it is empty (a short text centred in the viewport) instead of showing nothing, and
 * shows cut-off text in full as a tooltip: a cell or column header whose text is elided, and the empty text.
 * Tooltips the model gives come first.
 */
class TableView : public QTableView
{
    Q_OBJECT
public:
    explicit TableView(QWidget* parent = nullptr);

    /** Shown while the model has no rows; empty for none. */
    void setEmptyText(const QString& text);
    QString emptyText() const { return m_emptyText; }

    /** After a model reset the scroll range follows the new rows at once (see the definition). */
    void reset() override;

protected:
    void paintEvent(QPaintEvent* event) override;
    bool viewportEvent(QEvent* event) override;
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    QString m_emptyText;
};

} // namespace pte::ui
