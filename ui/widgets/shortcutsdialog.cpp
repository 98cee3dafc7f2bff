// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "widgets/shortcutsdialog.h"

#include <QAction>
#include <QDialogButtonBox>
#include <QHeaderView>
#include <QMenu>
#include <QMenuBar>
#include <QStandardItemModel>
#include <QTableView>
#include <QVBoxLayout>

namespace pte::ui {

namespace {
void collect(const QMenu* menu, const QString& context, QList<ShortcutEntry>& out)
{
    for (const QAction* a : menu->actions()) {
        if (a->menu()) {
            collect(a->menu(), context, out);
            continue;
        }
        if (a->shortcut().isEmpty())
            continue;
        QString text = a->text();
        text.remove(QLatin1Char('&'));
        text.remove(QStringLiteral("…"));
        out.push_back(ShortcutEntry { context, text.trimmed(), a->shortcut().toString(QKeySequence::NativeText) });
    }
}
} // namespace

QList<ShortcutEntry> menuShortcuts(const QMenuBar* menuBar)
{
    QList<ShortcutEntry> out;
    for (const QAction* a : menuBar->actions())
        if (a->menu()) {
            QString title = a->text();
            title.remove(QLatin1Char('&'));
            collect(a->menu(), title, out);
        }
    return out;
}

QList<ShortcutEntry> viewShortcuts()
{
    const QString graph = QStringLiteral("Graph");
    const QString tables = QStringLiteral("Tables");
    const QString views = QStringLiteral("Views");
    return {
        { graph, QStringLiteral("Zoom in / out"), QStringLiteral("+ / −, Ctrl+wheel") },
        { graph, QStringLiteral("Fit the whole graph"), QStringLiteral("F") },
        { graph, QStringLiteral("Open a group or a delegate's lowered module"), QStringLiteral("Enter, double-click") },
        { graph, QStringLiteral("Next match of the Find box"), QStringLiteral("Enter (in Find)") },
        { tables, QStringLiteral("Show an instruction's graph nodes"), QStringLiteral("Enter (Instructions)") },
        { tables, QStringLiteral("Go to what a diagnostic names"), QStringLiteral("Enter (Diagnostics)") },
        { views, QStringLiteral("Next / previous view"), QStringLiteral("Tab / Shift+Tab") },
    };
}

ShortcutsDialog::ShortcutsDialog(const QList<ShortcutEntry>& entries, QWidget* parent)
    : QDialog(parent)
{
    setObjectName(QStringLiteral("shortcutsDialog"));
    setWindowTitle(QStringLiteral("Keyboard Shortcuts"));
    auto* model = new QStandardItemModel(int(entries.size()), 3, this);
    model->setHorizontalHeaderLabels({ QStringLiteral("Where"), QStringLiteral("Action"), QStringLiteral("Keys") });
    for (int r = 0; r < entries.size(); ++r) {
        model->setItem(r, 0, new QStandardItem(entries[r].context));
        model->setItem(r, 1, new QStandardItem(entries[r].action));
        model->setItem(r, 2, new QStandardItem(entries[r].keys));
    }
    auto* table = new QTableView(this);
    table->setObjectName(QStringLiteral("shortcutsTable"));
    table->setModel(model);
    table->verticalHeader()->hide();
    table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table->setSelectionBehavior(QAbstractItemView::SelectRows);
    table->setAlternatingRowColors(true);
    table->setWordWrap(false);
    table->horizontalHeader()->setStretchLastSection(true);
    table->resizeColumnsToContents();
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(table, 1);
    layout->addWidget(buttons);
    const int rowHeight = table->verticalHeader()->defaultSectionSize();
    int width = 0;
    for (int c = 0; c < 3; ++c)
        width += table->columnWidth(c);
    resize(width + fontMetrics().averageCharWidth() * 8,
        std::min(int(entries.size()) + 4, 32) * rowHeight + buttons->sizeHint().height());
}

} // namespace pte::ui
