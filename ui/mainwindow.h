// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include "document/document.h"

#include <QMainWindow>

#include <functional>
#include <optional>

class QAction;
class QComboBox;
class QDockWidget;
class QLabel;
class QLineEdit;
class QMenu;
class QProgressBar;
class QTableView;
class QTimer;
class QToolButton;
class QAbstractItemView;

namespace pte::ui {

class DelegateDebugIdModel;
class DelegateModel;
class DiagnosticModel;
class GraphPanel;
class InstructionFilterProxy;
class InstructionModel;
class MemoryPlanWidget;
class MethodModel;
class NamedDataModel;
class OperatorModel;
class SampleInputModel;
class SignatureModel;
class SizeChart;
class SizeModel;
class TextFilterProxy;
class ValueModel;

/** The ptelens workbench window. */
class MainWindow : public QMainWindow
{
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    /** Opens a .pte, a graph dump or an ETRecord (asynchronously). */
    void openFiles(const QStringList& paths);
    /** Adds graph dumps to the current set of methods. */
    void addFiles(const QStringList& paths);

    [[nodiscard]] Document* document() const { return m_document; }
    [[nodiscard]] QString currentMethod() const { return m_method; }
    /** Shows a method in every view. */
    void setCurrentMethod(const QString& method);
    /** The texts the program views show while empty: not emitted yet, or nothing matches. */
    void updateEmptyTexts();
    /** Emits with the given settings (no dialog). */
    void emitWith(const EmitSettings& settings);
    /** Saves to path (no dialog); the result arrives through the document's signals. */
    void saveTo(const QString& path);
    /** Exports the debug maps (no dialog). */
    bool exportDebugMapsTo(const QString& path, QString* error = nullptr);
    /** Selects an instruction row (source row of the instruction model) and follows it in the other views. */
    void selectInstruction(int sourceRow);
    /** Copies the selected rows of the focused (or given) view as text or as JSON. */
    QString selectedRowsText(QAbstractItemView* view, bool json) const;
    /** Shows the message bar (errors of loading, emitting, saving). */
    void showMessage(const QString& text, bool error);
    /**
     * Goes to what diagnostic `row` (of the diagnostics model) names: its method, and the instruction, value or
     * graph nodes. False when the diagnostic names none. Double-click or Enter in the Diagnostics view.
     */
    bool activateDiagnostic(int row);

protected:
    void closeEvent(QCloseEvent* event) override;
    bool focusNextPrevChild(bool next) override;
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

private:
    void createModelsAndViews();
    void createActions();
    void createDocks();
    void onSnapshotChanged();
    void onInstructionSelectionChanged();
    void onGraphSelectionChanged();
    void onDelegateIdSelectionChanged();
    void clearInstructionFilters();
    void raiseDock(const char* name);
    void updateInstructionFilters();
    void fitSignaturePanes();
    void updateInstructionCount();
    void applyInstructionFilter(const std::function<void()>& change);
    void updateActions();
    void addRecentFiles(const QStringList& paths);
    void rebuildRecentMenu();
    void openDialog(bool append);
    void saveDialog();
    void exportDebugMapsDialog();
    void emitDialog();
    void copySelection(bool json);
    QDockWidget* addDock(QWidget* widget, const QString& title, const QString& name, Qt::DockWidgetArea area);

    Document* m_document = nullptr;
    QString m_method;
    bool m_syncing = false;
    std::optional<EmitSettings> m_lastEmitSettings;

    MethodModel* m_methodModel = nullptr;
    SignatureModel* m_inputModel = nullptr;
    SignatureModel* m_outputModel = nullptr;
    InstructionModel* m_instructionModel = nullptr;
    InstructionFilterProxy* m_instructionProxy = nullptr;
    ValueModel* m_valueModel = nullptr;
    TextFilterProxy* m_valueProxy = nullptr;
    DelegateModel* m_delegateModel = nullptr;
    DelegateDebugIdModel* m_delegateIdModel = nullptr;
    NamedDataModel* m_namedDataModel = nullptr;
    SampleInputModel* m_sampleInputModel = nullptr;
    SizeModel* m_sizeModel = nullptr;
    TextFilterProxy* m_sizeProxy = nullptr;
    OperatorModel* m_operatorModel = nullptr;
    TextFilterProxy* m_operatorProxy = nullptr;
    DiagnosticModel* m_diagnosticModel = nullptr;
    TextFilterProxy* m_diagnosticProxy = nullptr;

    QTableView* m_methodsView = nullptr;
    QTableView* m_inputsView = nullptr;
    QTableView* m_outputsView = nullptr;
    QTableView* m_instructionsView = nullptr;
    QTableView* m_valuesView = nullptr;
    QTableView* m_delegatesView = nullptr;
    QTableView* m_delegateIdsView = nullptr;
    QTableView* m_namedDataView = nullptr;
    QTableView* m_sampleInputsView = nullptr;
    QLabel* m_sampleInputsNote = nullptr;
    QTableView* m_sizesView = nullptr;
    QTableView* m_operatorsView = nullptr;
    QTableView* m_diagnosticsView = nullptr;
    GraphPanel* m_graphPanel = nullptr;
    MemoryPlanWidget* m_memoryPlan = nullptr;
    SizeChart* m_sizeChart = nullptr;
    QWidget* m_instructionsPanel = nullptr;
    QWidget* m_valuesPanel = nullptr;
    QWidget* m_signaturePanel = nullptr;
    QWidget* m_delegatesPanel = nullptr;
    QWidget* m_sizesPanel = nullptr;
    QWidget* m_operatorsPanel = nullptr;

    QLineEdit* m_instructionFilter = nullptr;
    QComboBox* m_kindFilter = nullptr;
    QComboBox* m_operatorFilter = nullptr;
    QComboBox* m_backendFilter = nullptr;
    QLineEdit* m_handleFilter = nullptr;
    QLabel* m_instructionCount = nullptr;
    QTimer* m_filterTimer = nullptr;

    QWidget* m_messageBar = nullptr;
    QLabel* m_messageText = nullptr;
    QProgressBar* m_progress = nullptr;
    QToolButton* m_cancelButton = nullptr;
    QLabel* m_statusLabel = nullptr;

    QAction* m_openAction = nullptr;
    QAction* m_addAction = nullptr;
    QAction* m_saveAction = nullptr;
    QAction* m_exportMapsAction = nullptr;
    QAction* m_emitAction = nullptr;
    QAction* m_cancelAction = nullptr;
    QAction* m_copyTextAction = nullptr;
    QAction* m_copyJsonAction = nullptr;
    QMenu* m_recentMenu = nullptr;
    QMenu* m_viewMenu = nullptr;
    QByteArray m_defaultState;
};

} // namespace pte::ui
