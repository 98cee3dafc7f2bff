// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <QString>
#include <QStringList>

#include <functional>

class QWidget;

namespace pte::ui {

/**
 * The file a save proposes, next to the first input: "<dir>/<input base name><suffix>" (suffix ".pte" or
 * ".debug_maps.json"). When that is one of the inputs (saving a loaded .pte again), ".rewritten" goes before
 * the suffix. Empty when there are no inputs.
 */
[[nodiscard]] QString proposedSavePath(const QStringList& inputs, const QString& suffix);

/**
 * Asks where to save, starting at `proposal`: the dialog adds `defaultSuffix` ("pte", "json") to a name typed
 * without it. An input file is refused first (a warning, then the dialog again); an existing file is replaced
 * only after the user agrees. Empty when the user cancels.
 */
[[nodiscard]] QString askSavePath(QWidget* parent, const QString& title, const QString& nameFilter,
    const QString& defaultSuffix, const QString& proposal, const std::function<bool(const QString&)>& isInput);

} // namespace pte::ui
