// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include "views/dockview.h"

class QLabel;
class QSplitter;

namespace pte::ui {

class SampleInputModel;
class SignatureModel;
class TableView;

/** The Signature dock: the method's inputs, outputs and the dump's sample inputs (with a note on their source). */
class SignatureView : public DockView
{
    Q_OBJECT
public:
    explicit SignatureView(QWidget* parent = nullptr);

    [[nodiscard]] QWidget* focusTarget() const override;
    void setMethod(std::shared_ptr<const Snapshot> snapshot, const QString& method) override;

    [[nodiscard]] TableView* inputsTable() const { return m_inputsView; }
    [[nodiscard]] TableView* outputsTable() const { return m_outputsView; }

private:
    /** Splits the dock by what each pane needs; hides the sample table when there are no samples. */
    void fitPanes();

    SignatureModel* m_inputModel = nullptr;
    SignatureModel* m_outputModel = nullptr;
    SampleInputModel* m_sampleInputModel = nullptr;
    TableView* m_inputsView = nullptr;
    TableView* m_outputsView = nullptr;
    TableView* m_sampleInputsView = nullptr;
    QLabel* m_sampleInputsNote = nullptr;
    QSplitter* m_split = nullptr;
};

} // namespace pte::ui
