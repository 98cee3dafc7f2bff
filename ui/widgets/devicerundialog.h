// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include "process/runnerjob.h"

#include <QDialog>

class QLabel;
class QPlainTextEdit;
class QPushButton;

namespace pte::ui {

class DeviceRun;

/**
 * The window of Program > Run on Device (not modal): the command, its output as it comes (stderr in red), a Cancel
 * that ends its whole process group, then how it ended. A failed command shows its exit status and its last output
 * lines; one that exited 0 without an ETDump says where the ETDump was expected. Follows a DeviceRun it does not own.
 */
class DeviceRunDialog : public QDialog
{
    Q_OBJECT
public:
    explicit DeviceRunDialog(DeviceRun* run, QWidget* parent = nullptr);

    /** Clears the output for a new run of `command` in `folder`. */
    void beginRun(const QString& command, const QString& folder);
    [[nodiscard]] QString outputText() const;
    [[nodiscard]] QString statusText() const;

Q_SIGNALS:
    /** "Run Again": the window's owner starts a new run (with the template as it is now). */
    void runAgainRequested();

private:
    void appendOutput(const QString& text, bool isStderr);
    void runFinished(const pte::process::RunnerOutcome& outcome);

    DeviceRun* m_run = nullptr;
    QLabel* m_command = nullptr;
    QLabel* m_folder = nullptr;
    QPlainTextEdit* m_output = nullptr;
    QLabel* m_status = nullptr;
    QLabel* m_tail = nullptr;
    QPushButton* m_cancel = nullptr;
    QPushButton* m_again = nullptr;
};

} // namespace pte::ui
