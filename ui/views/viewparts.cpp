// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "views/viewparts.h"

#include "widgets/tableview.h"

#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QVBoxLayout>

#include <algorithm>

namespace pte::ui {

TableView* makeTable(
    QWidget* parent, const QString& name, QAbstractItemModel* model, const QString& emptyText, bool sortable)
{
    auto* view = new TableView(parent);
    view->setObjectName(name);
    view->setEmptyText(emptyText);
    view->setModel(model);
    view->setSelectionBehavior(QAbstractItemView::SelectRows);
    view->setSelectionMode(QAbstractItemView::ExtendedSelection);
    view->setAlternatingRowColors(true);
    view->setWordWrap(false);
    view->setTextElideMode(Qt::ElideRight);
    view->setHorizontalScrollMode(QAbstractItemView::ScrollPerPixel);
    view->setTabKeyNavigation(false);
    // Uniform row heights from the font: a million rows scroll without measuring any.
    auto* vh = view->verticalHeader();
    vh->setSectionResizeMode(QHeaderView::Fixed);
    vh->setDefaultSectionSize(view->fontMetrics().height() + view->fontMetrics().height() / 3);
    // Column sizing looks at a bounded number of rows (QTableView asks the vertical header).
    vh->setResizeContentsPrecision(100);
    vh->hide();
    auto* hh = view->horizontalHeader();
    hh->setStretchLastSection(true);
    hh->setSectionsMovable(true);
    hh->setResizeContentsPrecision(200);
    hh->setDefaultSectionSize(view->fontMetrics().averageCharWidth() * 14);
    if (sortable) {
        hh->setSortIndicator(-1, Qt::AscendingOrder);
        view->setSortingEnabled(true);
    }
    return view;
}

void autoSize(QTableView* view)
{
    view->resizeColumnsToContents();
    const int maxWidth = view->fontMetrics().averageCharWidth() * 50;
    for (int c = 0; c < view->model()->columnCount(); ++c)
        if (view->columnWidth(c) > maxWidth)
            view->setColumnWidth(c, maxWidth);
}

QWidget* captioned(QWidget* parent, const QString& caption, QWidget* content, QLabel** labelOut)
{
    auto* w = new QWidget(parent);
    auto* l = new QVBoxLayout(w);
    l->setContentsMargins(0, 0, 0, 0);
    l->setSpacing(2);
    auto* label = new QLabel(caption, w);
    QFont f = label->font();
    f.setBold(true);
    label->setFont(f);
    label->setContentsMargins(4, 2, 4, 0);
    l->addWidget(label);
    l->addWidget(content, 1);
    if (labelOut)
        *labelOut = label;
    return w;
}

QLineEdit* filterEdit(QWidget* parent, const QString& name, const QString& placeholder)
{
    auto* e = new QLineEdit(parent);
    e->setObjectName(name);
    e->setPlaceholderText(placeholder);
    e->setClearButtonEnabled(true);
    return e;
}

int captionHeight(const QWidget* widget) { return widget->fontMetrics().lineSpacing() + 4; }

int tableHeight(const QTableView* view)
{
    const int row = view->verticalHeader()->defaultSectionSize();
    return view->horizontalHeader()->sizeHint().height() + std::max(1, view->model()->rowCount()) * row
        + 2 * view->frameWidth() + row / 2;
}

void keepOneRowVisible(QTableView* view)
{
    view->setMinimumHeight(view->horizontalHeader()->sizeHint().height() + view->verticalHeader()->defaultSectionSize()
        + 2 * view->frameWidth());
}

} // namespace pte::ui
