// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include "views/dockview.h"

class QComboBox;
class QLabel;
class QSplitter;

namespace pte::ui {

class SampleInputModel;
class SignatureModel;
class TableView;

/**
 * The Signature dock: the method's inputs, outputs and the dump's sample inputs (with a note on their source).
 * "Compare with" puts another method's inputs and outputs beside them. The panes are split by what each needs
 * until the user drags a splitter; then the user's sizes stay (across methods, emissions and sessions).
 */
class SignatureView : public DockView
{
    Q_OBJECT
public:
    explicit SignatureView(QWidget* parent = nullptr);

    [[nodiscard]] QWidget* focusTarget() const override;
    void setSnapshot(std::shared_ptr<const Snapshot> snapshot) override;
    void setMethod(std::shared_ptr<const Snapshot> snapshot, const QString& method) override;

    [[nodiscard]] TableView* inputsTable() const { return m_inputsView; }
    [[nodiscard]] TableView* outputsTable() const { return m_outputsView; }
    /** Shows `method`'s inputs and outputs beside the current method's; empty to stop comparing. */
    void compareWith(const QString& method);
    [[nodiscard]] QString comparedMethod() const { return m_compared; }

private:
    /** Splits the dock by what each pane needs; hides the sample table when there are no samples. */
    void fitPanes();
    void updateCaptions();
    void updateComparison();

    std::shared_ptr<const Snapshot> m_snapshot;
    QString m_method;
    QString m_compared;
    SignatureModel* m_inputModel = nullptr;
    SignatureModel* m_outputModel = nullptr;
    SignatureModel* m_otherInputModel = nullptr;
    SignatureModel* m_otherOutputModel = nullptr;
    SampleInputModel* m_sampleInputModel = nullptr;
    TableView* m_inputsView = nullptr;
    TableView* m_outputsView = nullptr;
    TableView* m_otherInputsView = nullptr;
    TableView* m_otherOutputsView = nullptr;
    TableView* m_sampleInputsView = nullptr;
    QLabel* m_sampleInputsNote = nullptr;
    QLabel* m_inputsCaption = nullptr;
    QLabel* m_outputsCaption = nullptr;
    QLabel* m_otherInputsCaption = nullptr;
    QLabel* m_otherOutputsCaption = nullptr;
    QComboBox* m_compare = nullptr;
    QSplitter* m_split = nullptr; ///< inputs, outputs, samples
    QSplitter* m_inputsSplit = nullptr; ///< this method's inputs | the compared method's
    QSplitter* m_outputsSplit = nullptr;
    bool m_userSizes = false; ///< the user dragged the splitter: keep the sizes
    bool m_fitting = false;
};

} // namespace pte::ui
