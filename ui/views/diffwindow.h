// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include "document/comparison.h"

#include <QMainWindow>

#include <memory>
#include <vector>

class QCheckBox;
class QComboBox;
class QLabel;
class QPlainTextEdit;
class QProgressBar;
class QTabWidget;
class QTableView;
class QToolButton;

namespace pte::ui {

class DiffConstantModel;
class DiffDelegateModel;
class DiffInstructionModel;
class DifferenceModel;
class GraphPanel;

/**
 * The Diff window (File > Compare with…, `ptelens --compare A B`): a summary pane, the two instruction tables of a
 * method aligned row by row (inserted, removed and changed rows coloured, changed cells marked, scrolling together),
 * the differences, constants and delegates tables, and both graphs coloured by change. Selecting a row selects the
 * matching row and graph nodes on both sides; selecting graph nodes selects their rows; activating a difference goes
 * to its method and instruction. The comparison runs in the background (Comparison) with progress and cancel.
 */
class DiffWindow : public QMainWindow
{
    Q_OBJECT
public:
    explicit DiffWindow(QWidget* parent = nullptr);
    ~DiffWindow() override;

    /** Compares a workspace with the program at `pathB`. */
    void compareWith(std::shared_ptr<const Snapshot> current, const QString& pathB);
    /** Compares two files. */
    void compareFiles(const QString& pathA, const QString& pathB);

    [[nodiscard]] Comparison* comparison() const { return m_comparison; }
    [[nodiscard]] bool isIdle() const;
    /** Shows method comparison `index` (of ProgramDiff::methods). */
    void setMethodIndex(int index);
    [[nodiscard]] int methodIndex() const { return m_methodIndex; }
    /** Selects an aligned row in both tables and the matching graph nodes. */
    void selectRow(int row);
    /** Goes to what difference `row` (of the differences table) names; false when it names no instruction. */
    bool activateDifference(int row);
    /** The summary pane's text. */
    [[nodiscard]] QString summaryText() const;

    [[nodiscard]] QTableView* tableA() const { return m_tableA; }
    [[nodiscard]] QTableView* tableB() const { return m_tableB; }
    [[nodiscard]] GraphPanel* graphA() const { return m_graphA; }
    [[nodiscard]] GraphPanel* graphB() const { return m_graphB; }
    [[nodiscard]] DiffInstructionModel* modelA() const { return m_modelA; }
    [[nodiscard]] DiffInstructionModel* modelB() const { return m_modelB; }
    [[nodiscard]] DifferenceModel* differenceModel() const { return m_differences; }
    [[nodiscard]] DiffConstantModel* constantModel() const { return m_constants; }
    [[nodiscard]] DiffDelegateModel* delegateModel() const { return m_delegates; }
    [[nodiscard]] QTabWidget* tabs() const { return m_tabs; }

Q_SIGNALS:
    /** A comparison finished and every view shows it (graphs are laid out in the background after). */
    void comparisonShown();

private:
    void onFinished();
    void onRowsSelected(bool fromA);
    void onGraphSelection(bool fromA);
    void colourGraph(bool sideA);
    void showSummary();
    void updateHeader();
    [[nodiscard]] QString methodName(bool sideA) const;

    Comparison* m_comparison = nullptr;
    std::shared_ptr<const ComparisonResult> m_result;
    int m_methodIndex = -1;
    bool m_syncing = false;

    QLabel* m_labelA = nullptr;
    QLabel* m_labelB = nullptr;
    QComboBox* m_methods = nullptr;
    QCheckBox* m_strict = nullptr;
    QProgressBar* m_progress = nullptr;
    QToolButton* m_cancel = nullptr;
    QPlainTextEdit* m_summary = nullptr;
    QTableView* m_tableA = nullptr;
    QTableView* m_tableB = nullptr;
    QTabWidget* m_tabs = nullptr;
    GraphPanel* m_graphA = nullptr;
    GraphPanel* m_graphB = nullptr;
    DiffInstructionModel* m_modelA = nullptr;
    DiffInstructionModel* m_modelB = nullptr;
    DifferenceModel* m_differences = nullptr;
    DiffConstantModel* m_constants = nullptr;
    DiffDelegateModel* m_delegates = nullptr;
    QTableView* m_differencesView = nullptr;
    QTableView* m_constantsView = nullptr;
    QTableView* m_delegatesView = nullptr;
};

} // namespace pte::ui
