// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include "document/document.h"

#include <QDialog>

class QCheckBox;
class QLabel;
class QPlainTextEdit;
class QSpinBox;
class QTableWidget;

namespace pte::ui {

/**
 * Emission options: which dump methods to emit under which names, prim getters (constant methods, one
 * `name=value` per line; invalid lines are listed under the field and disable Emit), stack traces, alignments.
 */
class EmitDialog : public QDialog
{
    Q_OBJECT
public:
    explicit EmitDialog(const Snapshot& snapshot, QWidget* parent = nullptr);

    [[nodiscard]] EmitSettings settings() const;
    /** Pre-fills from earlier settings (same method count). */
    void setSettings(const EmitSettings& settings);
    /** True when every method name and prim-getter line is valid (the Emit button is enabled). */
    [[nodiscard]] bool isValid() const { return m_valid; }

private:
    void validate();

    QTableWidget* m_methods = nullptr;
    QPlainTextEdit* m_primGetters = nullptr;
    QLabel* m_primGettersError = nullptr;
    bool m_valid = true;
    QCheckBox* m_stacktrace = nullptr;
    QCheckBox* m_initBuffers = nullptr;
    QCheckBox* m_extractDelegates = nullptr;
    QSpinBox* m_segmentAlignment = nullptr;
    QSpinBox* m_constantAlignment = nullptr;
    QSpinBox* m_delegateAlignment = nullptr;
};

} // namespace pte::ui
