// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <QDialog>
#include <QList>
#include <QString>

class QMenuBar;

namespace pte::ui {

/** One keyboard shortcut: where it works, what it does, the keys. */
struct ShortcutEntry
{
    QString context; ///< "File", "Graph", …
    QString action;
    QString keys; ///< as shown (native text)
};

/** The shortcuts of the menu bar's actions (menu title as context), in menu order. */
[[nodiscard]] QList<ShortcutEntry> menuShortcuts(const QMenuBar* menuBar);
/** Keys the views handle themselves (graph zoom and fit, Enter to follow, Tab between views). */
[[nodiscard]] QList<ShortcutEntry> viewShortcuts();

/** Help > Keyboard Shortcuts: every shortcut of the window in one table. */
class ShortcutsDialog : public QDialog
{
    Q_OBJECT
public:
    ShortcutsDialog(const QList<ShortcutEntry>& entries, QWidget* parent = nullptr);
};

} // namespace pte::ui
