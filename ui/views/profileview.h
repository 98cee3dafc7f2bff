// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include "pte/referenceinputs.h"
#include "views/dockview.h"

#include <memory>
#include <vector>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QTimer;
class QToolButton;

namespace pte::ui {

class ProfileFilterProxy;
class ProfileModel;
class ProfileSummaryModel;
class TableView;

/**
 * The Profile dock: the open ETDump as ExecuTorch's Inspector tables it (event block, event, p10/p50/p90/avg/min/max,
 * op types, delegate identifier, backend, stack trace, module hierarchy), filterable by text, block and delegated
 * events, sortable, exportable as TSV or CSV (the rows shown, in the order shown); beside it, where the time went by
 * operator, backend or module. A line above says which ETDump this is and whether it matches the program.
 */
class ProfileView : public DockView
{
    Q_OBJECT
public:
    explicit ProfileView(QWidget* parent = nullptr);

    [[nodiscard]] QWidget* focusTarget() const override;
    void setSnapshot(std::shared_ptr<const Snapshot> snapshot) override;
    void setContentState(ContentState state) override;

    [[nodiscard]] TableView* table() const { return m_table; }
    [[nodiscard]] TableView* summaryTable() const { return m_summary; }
    [[nodiscard]] ProfileModel* model() const { return m_model; }
    [[nodiscard]] ProfileFilterProxy* proxy() const { return m_proxy; }
    [[nodiscard]] ProfileSummaryModel* summaryModel() const { return m_summaryModel; }
    [[nodiscard]] QLabel* statusLabel() const { return m_status; }
    /** Where the expected values of logged values come from (the reference interpreter's inputs). */
    [[nodiscard]] QComboBox* referenceChoice() const { return m_reference; }

    /** Source rows of the selected events. */
    [[nodiscard]] std::vector<int> selectedSourceRows() const;
    /** Selects these source rows (those the filters show) and scrolls to the first; emits nothing. */
    void selectSourceRows(const std::vector<int>& rows);
    /** Sets the text filter now (no delay). */
    void setFilterText(const QString& text);
    /** Writes the rows shown, in the order shown, as TSV ('\t') or CSV (','); false and *error on failure. */
    bool exportTo(const QString& path, char separator, QString* error = nullptr) const;

Q_SIGNALS:
    /** The user selected events. */
    void selectionChanged();
    /** The user chose other inputs for the reference interpreter (Document::setReferenceInputs). */
    void referenceInputsChosen(const pte::ReferenceInputSpec& spec);

private:
    void updateStatus();
    void updateCount();
    void exportDialog(char separator);
    void updateReferenceChoice();
    void referenceChoiceActivated(int index);

    ProfileModel* m_model = nullptr;
    ProfileFilterProxy* m_proxy = nullptr;
    ProfileSummaryModel* m_summaryModel = nullptr;
    TableView* m_table = nullptr;
    TableView* m_summary = nullptr;
    QLabel* m_status = nullptr;
    QLineEdit* m_textFilter = nullptr;
    QComboBox* m_blockFilter = nullptr;
    QCheckBox* m_delegatedOnly = nullptr;
    QComboBox* m_grouping = nullptr;
    QComboBox* m_reference = nullptr;
    std::shared_ptr<const Snapshot> m_snapshot;
    QLabel* m_count = nullptr;
    QToolButton* m_export = nullptr;
    QTimer* m_filterTimer = nullptr;
    bool m_selecting = false;
};

} // namespace pte::ui
