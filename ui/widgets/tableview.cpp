// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "widgets/tableview.h"

#include <QHeaderView>
#include <QHelpEvent>
#include <QPaintEvent>
#include <QPainter>
#include <QToolTip>

namespace pte::ui {

TableView::TableView(QWidget* parent)
    : QTableView(parent)
{
    horizontalHeader()->viewport()->installEventFilter(this);
}

void TableView::reset()
{
    QTableView::reset();
    // A reset (a filter proxy's new rows) leaves the scroll position and the headers' offsets where they were
    // until the view's delayed layout runs; a paint before it, under a position past the new last row (scrolled
    // down 150k rows, then filtered to 100k), finds no section there, and QHeaderView then paints every section:
    // 130-200 ms for 100k rows. Laid out now, the range and the offsets fit the new rows before anything paints.
    executeDelayedItemsLayout();
}

bool TableView::viewportEvent(QEvent* event)
{
    if (event->type() != QEvent::ToolTip || !model())
        return QTableView::viewportEvent(event);
    const auto* help = static_cast<QHelpEvent*>(event);
    if (model()->rowCount(rootIndex()) == 0) {
        if (m_emptyText.isEmpty())
            QToolTip::hideText();
        else
            QToolTip::showText(help->globalPos(), m_emptyText, viewport());
        return true;
    }
    const QModelIndex index = indexAt(help->pos());
    if (!index.isValid() || !index.data(Qt::ToolTipRole).toString().isEmpty())
        return QTableView::viewportEvent(event);
    const QString text = index.data(Qt::DisplayRole).toString();
    const int room = visualRect(index).width() - 2 * style()->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, this)
        - fontMetrics().averageCharWidth();
    if (!text.isEmpty() && fontMetrics().horizontalAdvance(text) > room)
        QToolTip::showText(help->globalPos(), text, viewport(), visualRect(index));
    else
        QToolTip::hideText();
    return true;
}

bool TableView::eventFilter(QObject* watched, QEvent* event)
{
    if (event->type() == QEvent::ToolTip && watched == horizontalHeader()->viewport() && model()) {
        const auto* help = static_cast<QHelpEvent*>(event);
        const int section = horizontalHeader()->logicalIndexAt(help->pos());
        if (section >= 0 && model()->headerData(section, Qt::Horizontal, Qt::ToolTipRole).toString().isEmpty()) {
            const QString text = model()->headerData(section, Qt::Horizontal, Qt::DisplayRole).toString();
            // The header draws a sort arrow and margins beside the text.
            const int room = horizontalHeader()->sectionSize(section) - 3 * fontMetrics().averageCharWidth();
            if (!text.isEmpty() && fontMetrics().horizontalAdvance(text) > room) {
                QToolTip::showText(help->globalPos(), text, horizontalHeader()->viewport());
                return true;
            }
        }
    }
    return QTableView::eventFilter(watched, event);
}

void TableView::setEmptyText(const QString& text)
{
    if (text == m_emptyText)
        return;
    m_emptyText = text;
    viewport()->update();
}

void TableView::paintEvent(QPaintEvent* event)
{
    QTableView::paintEvent(event);
    if (m_emptyText.isEmpty() || !model() || model()->rowCount(rootIndex()) > 0)
        return;
    QPainter p(viewport());
    p.setPen(palette().color(QPalette::PlaceholderText));
    const int margin = fontMetrics().averageCharWidth() * 2;
    p.drawText(viewport()->rect().adjusted(margin, margin, -margin, -margin),
        Qt::AlignHCenter | Qt::AlignTop | Qt::TextWordWrap, m_emptyText);
}

} // namespace pte::ui
