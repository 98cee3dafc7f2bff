// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "widgets/tableview.h"

#include <QPaintEvent>
#include <QPainter>

namespace pte::ui {

TableView::TableView(QWidget* parent)
    : QTableView(parent)
{ }

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
