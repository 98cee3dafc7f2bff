// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <QDialog>

class QDialogButtonBox;
class QLabel;
class QPlainTextEdit;

namespace pte::ui {

/**
 * Edit > Preferences: the run target of Program > Run on Device, a shell command template with placeholders
 * (pte/runnertemplate.h). The placeholders are listed with their meaning; under the field, the command the template
 * expands to (with example paths) or the error naming the placeholder and its offset, which disables OK. Saved with
 * QSettings (DeviceRun::setSavedTemplate) on OK.
 */
class PreferencesDialog : public QDialog
{
    Q_OBJECT
public:
    explicit PreferencesDialog(QWidget* parent = nullptr);

    [[nodiscard]] QString runnerTemplate() const;
    void setRunnerTemplate(const QString& templ);
    /** True when the template is empty (no run target) or expands. */
    [[nodiscard]] bool isValid() const { return m_valid; }

    void accept() override;

private:
    void validate();

    QPlainTextEdit* m_template = nullptr;
    QLabel* m_check = nullptr;
    QDialogButtonBox* m_buttons = nullptr;
    bool m_valid = true;
};

} // namespace pte::ui
