// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include "views/dockview.h"

namespace pte::ui {

class DiagnosticModel;
class TableView;
class TextFilterProxy;

/** The Diagnostics dock: findings of the readers, the runtime checks and the emitter, plus failed jobs. */
class DiagnosticsView : public DockView
{
    Q_OBJECT
public:
    explicit DiagnosticsView(QWidget* parent = nullptr);

    [[nodiscard]] QWidget* focusTarget() const override;
    void setSnapshot(std::shared_ptr<const Snapshot> snapshot) override;

    [[nodiscard]] TableView* table() const { return m_table; }
    [[nodiscard]] DiagnosticModel* model() const { return m_model; }
    /** Adds one (a failed load or emission, which leaves no snapshot behind). */
    void append(const pte::Diagnostic& diagnostic);

Q_SIGNALS:
    /** Enter or double-click on a diagnostic: its row in model(). */
    void diagnosticActivated(int row);

private:
    void updateTitle();

    DiagnosticModel* m_model = nullptr;
    TextFilterProxy* m_proxy = nullptr;
    TableView* m_table = nullptr;
};

} // namespace pte::ui
