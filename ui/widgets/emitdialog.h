// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include "document/document.h"

#include <QDialog>

class QCheckBox;
class QSpinBox;
class QTableWidget;

namespace pte::ui {

/** Emission options: which dump methods to emit under which names, stack traces, alignments. */
class EmitDialog : public QDialog
{
    Q_OBJECT
public:
    explicit EmitDialog(const Snapshot& snapshot, QWidget* parent = nullptr);

    [[nodiscard]] EmitSettings settings() const;
    /** Pre-fills from earlier settings (same method count). */
    void setSettings(const EmitSettings& settings);

private:
    void validate();

    QTableWidget* m_methods = nullptr;
    QCheckBox* m_stacktrace = nullptr;
    QCheckBox* m_extractDelegates = nullptr;
    QSpinBox* m_segmentAlignment = nullptr;
    QSpinBox* m_constantAlignment = nullptr;
    QSpinBox* m_delegateAlignment = nullptr;
};

} // namespace pte::ui
