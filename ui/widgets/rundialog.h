// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include "document/runresult.h"
#include "document/snapshot.h"

#include <QDialog>

#include <memory>

class QComboBox;
class QDialogButtonBox;
class QLabel;
class QLineEdit;
class QRadioButton;
class QSpinBox;

namespace pte::ui {

/**
 * Program > Run…: which method to run on the reference interpreter and with which inputs: the runner's fill rule
 * (pattern, ones, zeros), the graph dump's sample inputs, a bundled test case, a JSON inputs file (as `ptelens-cli run
 * --inputs`) or raw little-endian files (as `--inputs-raw`). Choices the document cannot give are disabled; the
 * inputs are checked as they are chosen (a line under the choices says where they come from, or why they cannot be
 * had, and Run is disabled then). docs/gui-run.md.
 */
class RunDialog : public QDialog
{
    Q_OBJECT
public:
    RunDialog(std::shared_ptr<const Snapshot> snapshot, const QString& method, QWidget* parent = nullptr);

    [[nodiscard]] RunSettings settings() const;
    /** Pre-fills from earlier settings (a method the program still has). */
    void setSettings(const RunSettings& settings);
    /** True when the chosen inputs can be had (Run is enabled). */
    [[nodiscard]] bool isValid() const { return m_valid; }
    [[nodiscard]] QString inputsText() const;

private:
    void updateChoices();
    void validate();

    std::shared_ptr<const Snapshot> m_snapshot;
    QComboBox* m_method = nullptr;
    QRadioButton* m_fill = nullptr;
    QComboBox* m_fillRule = nullptr;
    QRadioButton* m_sample = nullptr;
    QRadioButton* m_bundled = nullptr;
    QSpinBox* m_testCase = nullptr;
    QRadioButton* m_json = nullptr;
    QLineEdit* m_jsonPath = nullptr;
    QRadioButton* m_raw = nullptr;
    QLineEdit* m_rawPaths = nullptr;
    QLabel* m_inputs = nullptr;
    QDialogButtonBox* m_buttons = nullptr;
    bool m_valid = false;
};

} // namespace pte::ui
