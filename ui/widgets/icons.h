// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <QIcon>

namespace pte::ui {

enum class IconKind
{
    App,
    Open,
    Save,
    Emit,
    Cancel,
    Close, ///< dock close button
    Float, ///< dock float (detach) button
};

/**
 * The theme icon `themeName` when the desktop has one, else ptelens' own icon, drawn with QPainter at the
 * requested size and device pixel ratio (sharp at any scale; no SVG image plugin needed).
 */
[[nodiscard]] QIcon themedIcon(const QString& themeName, IconKind fallback);
/** ptelens' own icon. */
[[nodiscard]] QIcon drawnIcon(IconKind kind);

/**
 * Installs a proxy of the current application style whose dock-widget title buttons use drawn icons (the
 * stock ones are tiny bitmaps that blur on high-DPI screens). Call once after creating the QApplication.
 */
void installWorkbenchStyle();

} // namespace pte::ui
