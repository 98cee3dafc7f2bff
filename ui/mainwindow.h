// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include "document/document.h"

#include <QMainWindow>
#include <QPointer>

#include <optional>
#include <vector>

class QAction;
class QDockWidget;
class QLabel;
class QMenu;
class QProgressBar;
class QToolBar;
class QToolButton;
class QAbstractItemView;

namespace pte::process {
struct RunnerOutcome;
}

namespace pte::ui {

class DeviceRun;
class DeviceRunDialog;
class RunDialog;

class DelegatePayloadView;
class DelegatesView;
class DiffWindow;
class DiagnosticsView;
class DockView;
class GraphPanel;
class InstructionsView;
class MethodsView;
class OperatorsView;
class ProfileView;
class SignatureView;
class SizesView;
class ValuesView;

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
    /** An emitted program that has not been saved since (Document::hasUnsavedProgram): opening, adding or quitting
     *  asks first, and the title carries a "*". */
    [[nodiscard]] bool hasUnsavedProgram() const { return m_document->hasUnsavedProgram(); }
    /** Shows a method in every view. */
    void setCurrentMethod(const QString& method);
    /** The texts the program views show while empty: not emitted yet, or nothing matches. */
    void updateEmptyTexts();
    /** Emits with the given settings (no dialog). */
    void emitWith(const EmitSettings& settings);
    /** Runs a method on the reference interpreter with the given settings (no dialog; Program > Run… asks). */
    void runWith(const RunSettings& settings);
    /** Saves to path (no dialog); the result arrives through the document's signals. */
    void saveTo(const QString& path);
    /** Exports the debug maps (no dialog). */
    bool exportDebugMapsTo(const QString& path, QString* error = nullptr);
    /** Selects an instruction row (source row of the instruction model) and follows it in the other views. */
    void selectInstruction(int sourceRow);
    /** Copies the selected rows of the focused (or given) view as text or as JSON. */
    QString selectedRowsText(QAbstractItemView* view, bool json) const;
    enum class MessageLevel
    {
        Info,
        Warning,
        Error,
    };
    /** Shows the message bar (errors of loading, emitting, saving; what the document's files say). */
    void showMessage(const QString& text, MessageLevel level);
    /** Hides the message bar. */
    void clearMessage();
    void fitMessageBar();
    /**
     * Program > Run on Device: runs the open program on the run target of the preferences (asked for first when
     * there is none) in the Run window, then opens the ETDump it left over the program, as File > Open ETDump does.
     * False when it could not start (no program, a busy document, a refused template: the message bar says why).
     */
    bool runOnDevice();
    /** Opens ETDump files (and a debug buffer) over the open program (File > Open ETDump without the dialog). */
    void openEtdumpFiles(const QStringList& paths);
    /** Edit > Preferences; true when accepted. */
    bool preferencesDialog();
    /** The Run window (nullptr before the first run) and its run. */
    [[nodiscard]] DeviceRunDialog* deviceRunDialog() const { return m_deviceRunDialog; }
    [[nodiscard]] DeviceRun* deviceRun() const { return m_deviceRun; }
    /** The message bar's text while it is shown, else empty. */
    [[nodiscard]] QString messageText() const;
    /**
     * Goes to what diagnostic `row` (of the diagnostics model) names: its method, and the instruction, value or
     * graph nodes. False when the diagnostic names none. Double-click or Enter in the Diagnostics view.
     */
    bool activateDiagnostic(int row);
    /**
     * Compares the open program with the one at `path` (a .pte or a graph dump) in the Diff window (File > Compare
     * with…), which opens beside this one; a new comparison reuses it.
     */
    DiffWindow* compareWith(const QString& path);
    /** The Diff window, or nullptr when none is open. */
    [[nodiscard]] DiffWindow* diffWindow() const;
    /** The version of the saved dock layouts (saveState/restoreState): 2 since the graph is the central widget. */
    static constexpr int kLayoutVersion = 2;
    /**
     * Restores a saved dock layout (QMainWindow::saveState with kLayoutVersion) unless it would hide a view (another
     * version's, or an open dock left without room for a row); false when refused, the layout then unchanged.
     */
    bool restoreLayout(const QByteArray& state);
    /** Every open dock has room for a row of text, and the graph its minimum size. */
    [[nodiscard]] bool layoutShowsEveryView() const;

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;
    void closeEvent(QCloseEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void showEvent(QShowEvent* event) override;
    bool focusNextPrevChild(bool next) override;
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

private:
    void createViews();
    /** Cross-selection of the Inside Delegate dock with the Delegates dock and the Graph view. */
    void connectDelegatePayloadView();
    void createActions();
    void createDocks();
    void onSnapshotChanged();
    void onInstructionSelectionChanged();
    void onGraphSelectionChanged();
    void onDelegateIdSelectionChanged();
    void onProfileSelectionChanged();
    /** Selects in the Profile view the events of these Instructions rows (source rows; chain 0 only). */
    void selectProfileEvents(const std::vector<int>& instructionRows);
    void openEtdumpDialog();
    void deviceRunFinished(const pte::process::RunnerOutcome& outcome);
    void raiseDock(const char* name);
    void updateActions();
    void addRecentFiles(const QStringList& paths);
    /** The message bar for the document as it is now (after a load or an emission): what its files say that the
     *  user must know (a program the runtime refuses, an ETDump of another program), else nothing. */
    void showDocumentMessages();
    /** The window title: the open files, "*" while the emitted program is unsaved, the saved file once saved. */
    void updateTitle();
    /** The docks' tab bars show whole titles (scrolling when they do not fit) rather than cutting them short. */
    void keepTabTitles();
    void rebuildRecentMenu();
    void openDialog(bool append);
    void compareDialog();
    /** Asks for a file and saves there; true once the program is on disk. */
    bool saveDialog();
    /** Before the emitted program is thrown away: Save / Discard / Cancel. True to go on. */
    bool confirmDiscard();
    [[nodiscard]] QStringList inputPaths() const;
    void exportDebugMapsDialog();
    void emitDialog();
    void runDialog();
    /** After a run: where and why it stopped (message bar), the Values dock to the front. */
    void onRunFinished();
    void copySelection(bool json);
    QDockWidget* addDock(DockView* view);

    Document* m_document = nullptr;
    QString m_method;
    bool m_syncing = false; ///< a selection is being mirrored into the other views (set by QScopedValueRollback)
    bool m_openingNew = false; ///< openFiles() (not addFiles()) is loading
    bool m_showProfile = false; ///< an ETDump alone is loading: the Profile view comes to the front
    bool m_checkLayoutOnShow = false; ///< a saved layout was restored before the window had sizes
    QStringList m_pendingRecent; ///< the files openFiles() is loading: Open Recent once they opened
    std::optional<EmitSettings> m_lastEmitSettings;

    /** Every dock panel, in dock order (View menu, Ctrl+<n>). */
    std::vector<DockView*> m_views;
    MethodsView* m_methodsView = nullptr;
    SignatureView* m_signatureView = nullptr;
    GraphPanel* m_graphPanel = nullptr;
    InstructionsView* m_instructionsView = nullptr;
    ValuesView* m_valuesView = nullptr;
    DelegatesView* m_delegatesView = nullptr;
    DelegatePayloadView* m_delegatePayloadView = nullptr;
    SizesView* m_sizesView = nullptr;
    OperatorsView* m_operatorsView = nullptr;
    DiagnosticsView* m_diagnosticsView = nullptr;
    ProfileView* m_profileView = nullptr;

    QToolBar* m_messageToolBar = nullptr;
    QWidget* m_messageBar = nullptr;
    QLabel* m_messageText = nullptr;
    QProgressBar* m_progress = nullptr;
    QToolButton* m_cancelButton = nullptr;
    QLabel* m_statusLabel = nullptr;

    QAction* m_openAction = nullptr;
    QAction* m_addAction = nullptr;
    QAction* m_saveAction = nullptr;
    QAction* m_exportMapsAction = nullptr;
    QAction* m_compareAction = nullptr;
    QAction* m_deviceRunAction = nullptr;
    DeviceRun* m_deviceRun = nullptr;
    DeviceRunDialog* m_deviceRunDialog = nullptr;
    QPointer<DiffWindow> m_diffWindow; ///< a top-level window of its own (deleted on close or with this one)
    QAction* m_emitAction = nullptr;
    QAction* m_runAction = nullptr;
    std::optional<RunSettings> m_lastRunSettings;
    /** The stale run the message bar last spoke of (said once per run). */
    const RunResult* m_staleRunShown = nullptr;
    QAction* m_cancelAction = nullptr;
    QAction* m_copyTextAction = nullptr;
    QAction* m_copyJsonAction = nullptr;
    QMenu* m_recentMenu = nullptr;
    QMenu* m_viewMenu = nullptr;
    QByteArray m_defaultState;
};

} // namespace pte::ui
