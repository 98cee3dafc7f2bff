// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include "views/dockview.h"

#include <functional>
#include <vector>

class QComboBox;
class QLabel;
class QLineEdit;
class QTimer;

namespace pte::ui {

class InstructionEventsProxy;
class InstructionFilterProxy;
class InstructionModel;
class ProfileModel;
class RunStepModel;
class TableView;

/**
 * The Instructions dock: a filter bar (text, kind, operator, backend, debug handle, count) over the method's
 * instructions. Rows are addressed by their source row in model(). With an ETDump open, the time columns are shown
 * after the operator, and a selected DelegateCall expands, below the table, into its delegate events (identifier,
 * times, the debug handles and graph nodes the identifier maps to). After Program > Run…, a pane below the table shows
 * the values the selected instruction read and wrote in the run (docs/gui-run.md).
 */
class InstructionsView : public DockView
{
    Q_OBJECT
public:
    explicit InstructionsView(QWidget* parent = nullptr);

    [[nodiscard]] QWidget* focusTarget() const override;
    void setMethod(std::shared_ptr<const Snapshot> snapshot, const QString& method) override;
    void setContentState(ContentState state) override;

    [[nodiscard]] TableView* table() const { return m_table; }
    [[nodiscard]] InstructionModel* model() const { return m_model; }
    [[nodiscard]] InstructionFilterProxy* proxy() const { return m_proxy; }
    [[nodiscard]] TableView* eventsTable() const { return m_events; }
    [[nodiscard]] TableView* runStepTable() const { return m_runStepTable; }
    [[nodiscard]] RunStepModel* runStepModel() const { return m_runStep; }

    /** Source rows of the selected instructions, in selection order. */
    [[nodiscard]] std::vector<int> selectedSourceRows() const;
    /** Makes a source row current and selected (nothing when the filters hide it). */
    void selectSourceRow(int sourceRow);
    /** Selects the visible ones of these source rows and scrolls to the first. */
    void selectSourceRows(const std::vector<int>& sourceRows);
    /** True when the filters let the source row through. */
    [[nodiscard]] bool isShown(int sourceRow) const;
    /** Focuses the text filter and selects its text (Ctrl+L). */
    void focusFilter();
    /** Clears every filter. */
    void clearFilters() override;

Q_SIGNALS:
    /** The selected rows changed (by the user or by select*()). */
    void selectionChanged();
    /** Enter or double-click on a row. */
    void instructionActivated();

private:
    void updateFilterChoices();
    void showTimes();
    void updateEvents();
    void updateRunStep();
    void updateCount();
    void applyFilter(const std::function<void()>& change);

    InstructionModel* m_model = nullptr;
    InstructionFilterProxy* m_proxy = nullptr;
    TableView* m_table = nullptr;
    QLineEdit* m_textFilter = nullptr;
    QComboBox* m_kindFilter = nullptr;
    QComboBox* m_operatorFilter = nullptr;
    QComboBox* m_backendFilter = nullptr;
    QLineEdit* m_handleFilter = nullptr;
    QLabel* m_count = nullptr;
    QTimer* m_filterTimer = nullptr;
    ProfileModel* m_eventsModel = nullptr;
    InstructionEventsProxy* m_eventsProxy = nullptr;
    TableView* m_events = nullptr;
    QWidget* m_eventsPane = nullptr;
    RunStepModel* m_runStep = nullptr;
    TableView* m_runStepTable = nullptr;
    QWidget* m_runStepPane = nullptr;
    QLabel* m_runStepCaption = nullptr;
    std::shared_ptr<const Snapshot> m_snapshot;
    QString m_method;
};

} // namespace pte::ui
