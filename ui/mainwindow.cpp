// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "mainwindow.h"

#include "document/delegateinspection.h"
#include "document/devicerun.h"
#include "models/delegatemodel.h"
#include "models/diagnosticmodel.h"
#include "models/diagnostictarget.h"
#include "models/instructionmodel.h"
#include "models/profilemodel.h"
#include "models/text.h"
#include "views/delegatepayloadview.h"
#include "views/delegatesview.h"
#include "views/diagnosticsview.h"
#include "views/diffwindow.h"
#include "views/graphpanel.h"
#include "views/instructionsview.h"
#include "views/methodsview.h"
#include "views/operatorsview.h"
#include "views/profileview.h"
#include "views/signatureview.h"
#include "views/sizesview.h"
#include "views/valuesview.h"
#include "widgets/devicerundialog.h"
#include "widgets/emitdialog.h"
#include "widgets/graphview.h"
#include "widgets/icons.h"
#include "widgets/preferencesdialog.h"
#include "widgets/rundialog.h"
#include "widgets/savepath.h"
#include "widgets/shortcutsdialog.h"
#include "widgets/tableview.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QCloseEvent>
#include <QDir>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QEventLoop>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QRegularExpression>
#include <QResizeEvent>
#include <QScopedValueRollback>
#include <QSettings>
#include <QShortcut>
#include <QStatusBar>
#include <QTabBar>
#include <QTableView>
#include <QTextEdit>
#include <QToolBar>
#include <QToolButton>

#include <algorithm>
#include <utility>

namespace pte::ui {

namespace {
constexpr int kMaxRecent = 10;

/** Quit's keys: the platform's, and Ctrl+Q everywhere (some platform themes bind none). */
QList<QKeySequence> quitKeys()
{
    QList<QKeySequence> keys = QKeySequence::keyBindings(QKeySequence::Quit);
    if (!keys.contains(QKeySequence(Qt::CTRL | Qt::Key_Q)))
        keys << QKeySequence(Qt::CTRL | Qt::Key_Q);
    return keys;
}
const QString kFileFilter = QStringLiteral(
    "ExecuTorch and graph dumps (*.pte *.bpte *.ptd *.pt2 *.ep *.json *.bin *.etrecord *.etdp *.etdump);;"
    "ExecuTorch programs (*.pte *.bpte);;Graph dumps (*.pt2 *.ep *.json);;ETRecords (*.etrecord *.bin);;"
    "ETDumps (*.etdp *.etdump);;All files (*)");

} // namespace

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent)
    , m_document(new Document(this))
{
    setObjectName(QStringLiteral("mainWindow"));
    setWindowTitle(QStringLiteral("ptelens"));
    // The SVG is used where Qt's SVG plugin is installed; the PNG (rendered from it) everywhere else.
    QIcon icon(QStringLiteral(":/ptelens/icons/ptelens-256.png"));
    icon.addFile(QStringLiteral(":/ptelens/icons/ptelens.svg"));
    setWindowIcon(icon);
    setAcceptDrops(true);
    setDockNestingEnabled(true);
    setDockOptions(AnimatedDocks | AllowNestedDocks | AllowTabbedDocks);
    // The left column (Methods, Signature) runs the window's full height: signatures of many inputs and programs
    // of many methods need the rows; the bottom tabs share the width with the graph instead.
    setCorner(Qt::BottomLeftCorner, Qt::LeftDockWidgetArea);

    createViews();
    createActions();
    createDocks();

    connect(m_document, &Document::snapshotChanged, this, &MainWindow::onSnapshotChanged);
    connect(m_document, &Document::busyChanged, this, [this](bool busy) {
        m_progress->setVisible(busy);
        m_cancelButton->setVisible(busy);
        if (!busy)
            m_statusLabel->clear();
        updateActions();
    });
    connect(m_document, &Document::progressChanged, this, [this](int percent, const QString& text) {
        if (percent < 0) {
            m_progress->setRange(0, 0);
        } else {
            m_progress->setRange(0, 100);
            m_progress->setValue(percent);
        }
        m_statusLabel->setText(text);
    });
    connect(m_document, &Document::loadFinished, this, [this] {
        if (std::exchange(m_openingNew, false))
            for (auto* view : m_views)
                view->clearFilters(); // the previous file's find and filter texts mean nothing here
        addRecentFiles(std::exchange(m_pendingRecent, {}));
        // An ETDump opened on its own: its table first.
        if (std::exchange(m_showProfile, false))
            raiseDock("profileDock");
        // The message bar belongs to the document: what it said about the previous one goes.
        showDocumentMessages();
        const auto snap = m_document->snapshot();
        QStringList names;
        for (const auto& p : snap->inputPaths)
            names << QFileInfo(toQString(p)).fileName();
        updateTitle();
        statusBar()->showMessage(QStringLiteral("Loaded %1").arg(names.join(QStringLiteral(", "))), 5000);
    });
    connect(m_document, &Document::loadFailed, this, [this](const pte::Error& error) {
        // The document stays as it was (its diagnostics too); the failed files do not enter Open Recent.
        m_openingNew = false;
        m_showProfile = false;
        m_pendingRecent.clear();
        showMessage(QStringLiteral("Could not open: %1").arg(toQString(error.toString())), MessageLevel::Error);
    });
    connect(m_document, &Document::emitFinished, this, [this] {
        showDocumentMessages();
        updateTitle();
        const auto snap = m_document->snapshot();
        const auto count = snap->program->executionPlan.size();
        QString text =
            count == 1 ? QStringLiteral("Emitted 1 method") : QStringLiteral("Emitted %1 methods").arg(count);
        const pte::Diagnostics findings = snap->emitted ? snap->emitted->warnings : pte::Diagnostics {};
        const bool serious = std::any_of(findings.begin(), findings.end(),
            [](const pte::Diagnostic& d) { return d.severity != pte::Severity::Info; });
        if (!findings.empty())
            text += QStringLiteral(" with %1").arg(severityCounts(findings));
        if (serious) {
            // A warning changes what the program does (e.g. a buffer without its initial state): say so where it is
            // seen, not only in the Diagnostics tab.
            showMessage(QStringLiteral("%1: see Diagnostics (Ctrl+9).").arg(text), MessageLevel::Warning);
            for (const auto& d : findings)
                if (d.severity != pte::Severity::Info) {
                    m_messageText->setToolTip(toQString(d.message));
                    break;
                }
        }
        statusBar()->showMessage(text, serious ? 15000 : 5000);
    });
    connect(m_document, &Document::emitFailed, this, [this](const pte::Error& error) {
        showMessage(QStringLiteral("Emission failed: %1").arg(toQString(error.toString())), MessageLevel::Error);
        // The error's location stays: activating the diagnostic goes to the method and node it failed on.
        m_diagnosticsView->append(pte::diagnosticOf(error, "emitter"));
    });
    connect(m_document, &Document::saveFinished, this, [this](const QString& path) {
        updateTitle();
        statusBar()->showMessage(QStringLiteral("Saved %1").arg(QDir::toNativeSeparators(path)), 8000);
    });
    connect(m_document, &Document::saveFailed, this, [this](const pte::Error& error) {
        showMessage(QStringLiteral("Save failed: %1").arg(toQString(error.toString())), MessageLevel::Error);
    });
    connect(m_document, &Document::runFinished, this, &MainWindow::onRunFinished);
    connect(m_document, &Document::runFailed, this, [this](const pte::Error& error) {
        showMessage(QStringLiteral("Run failed: %1").arg(toQString(error.toString())), MessageLevel::Error);
    });
    connect(m_document, &Document::cancelled, this,
        [this] { statusBar()->showMessage(QStringLiteral("Cancelled"), 3000); });

    m_defaultState = saveState(kLayoutVersion);
    QSettings settings;
    restoreGeometry(settings.value(QStringLiteral("window/geometry")).toByteArray());
    restoreLayout(settings.value(QStringLiteral("window/state")).toByteArray());
    rebuildRecentMenu();
    updateActions();
    // Application shortcuts work while a text box has the focus (see eventFilter).
    qApp->installEventFilter(this);
}

MainWindow::~MainWindow() { delete m_diffWindow; }

bool MainWindow::eventFilter(QObject* watched, QEvent* event)
{
    // Qt makes the docks' tab bars as docks are tabified (and again when a layout is restored).
    if (watched == this && event->type() == QEvent::ChildPolished
        && qobject_cast<QTabBar*>(static_cast<QChildEvent*>(event)->child()))
        keepTabTitles();
    // A focused QLineEdit claims Ctrl+E (end of line), Ctrl+F and others through ShortcutOverride, so the
    // window's actions would do nothing while a filter or the Find box has the focus. Not handing the
    // override to the widget lets the shortcut run. Copy is ours too: it follows the focus (copySelection).
    if (event->type() == QEvent::ShortcutOverride && watched->isWidgetType()
        && static_cast<QWidget*>(watched)->window() == this) {
        const auto* key = static_cast<QKeyEvent*>(event);
        // Plain typing never matches a shortcut of ours (all take Ctrl, or are Esc or F1).
        const bool candidate = (key->modifiers() & (Qt::ControlModifier | Qt::AltModifier | Qt::MetaModifier))
            || key->key() == Qt::Key_Escape || (key->key() >= Qt::Key_F1 && key->key() <= Qt::Key_F35);
        if (!candidate)
            return QMainWindow::eventFilter(watched, event);
        const QKeySequence pressed(key->keyCombination());
        for (const QAction* action : findChildren<QAction*>())
            if (action->isEnabled() && !action->shortcut().isEmpty() && action->shortcut() == pressed)
                return true;
    }
    return QMainWindow::eventFilter(watched, event);
}

void MainWindow::createViews()
{
    m_methodsView = new MethodsView(this);
    m_signatureView = new SignatureView(this);
    m_graphPanel = new GraphPanel(this);
    m_instructionsView = new InstructionsView(this);
    m_valuesView = new ValuesView(this);
    m_delegatesView = new DelegatesView(this);
    m_delegatePayloadView = new DelegatePayloadView(this);
    m_sizesView = new SizesView(this);
    m_operatorsView = new OperatorsView(this);
    m_diagnosticsView = new DiagnosticsView(this);
    m_profileView = new ProfileView(this);
    m_views = { m_methodsView, m_signatureView, m_graphPanel, m_instructionsView, m_valuesView, m_delegatesView,
        m_sizesView, m_operatorsView, m_diagnosticsView, m_profileView, m_delegatePayloadView };

    connect(m_methodsView, &MethodsView::methodSelected, this, [this](const QString& name) {
        if (!m_syncing && name != m_method)
            setCurrentMethod(name);
    });
    connect(m_instructionsView, &InstructionsView::selectionChanged, this, &MainWindow::onInstructionSelectionChanged);
    // Enter (or double-click) on an instruction: show its graph nodes and move the focus there.
    connect(m_instructionsView, &InstructionsView::instructionActivated, this, [this] {
        raiseDock("graphDock");
        onInstructionSelectionChanged();
        m_graphPanel->view()->setFocus(Qt::OtherFocusReason);
    });
    connect(m_delegatesView, &DelegatesView::debugIdSelectionChanged, this, &MainWindow::onDelegateIdSelectionChanged);
    connectDelegatePayloadView();
    connect(m_diagnosticsView, &DiagnosticsView::diagnosticActivated, this, &MainWindow::activateDiagnostic);
    connect(m_graphPanel, &GraphPanel::nodesSelected, this, &MainWindow::onGraphSelectionChanged);
    connect(m_profileView, &ProfileView::selectionChanged, this, &MainWindow::onProfileSelectionChanged);
    connect(m_profileView, &ProfileView::referenceInputsChosen, m_document, &Document::setReferenceInputs);
    // A new layout arrives after the selection was made: show the selected instruction in it.
    connect(m_graphPanel, &GraphPanel::layoutFinished, this, &MainWindow::onInstructionSelectionChanged);
}

void MainWindow::connectDelegatePayloadView()
{
    // A delegate picked in the Delegates dock is the one shown inside; opening one in the Graph view too.
    connect(m_delegatesView->delegatesTable()->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
        [this](const QModelIndex& current) {
            if (current.isValid())
                m_delegatePayloadView->showDelegate(current.row());
        });
    connect(m_graphPanel, &GraphPanel::delegateOpened, this, [this](int delegate) {
        const auto snap = m_document->snapshot();
        if (delegate >= 0 && snap && snap->delegates)
            m_delegatePayloadView->showDelegate(int(snap->delegates->delegates[std::size_t(delegate)].delegateIndex));
    });
    connect(m_delegatePayloadView, &DelegatePayloadView::openInGraphRequested, this, [this](int delegate) {
        raiseDock("graphDock");
        m_graphPanel->openDelegate(delegate);
    });
    // Inner nodes selected in the table: the same nodes in the opened inner graph, else their source nodes.
    connect(m_delegatePayloadView, &DelegatePayloadView::innerNodesSelected, this,
        [this](const QStringList& names, const std::vector<std::int64_t>& handles,
            const std::vector<std::uint32_t>& nodes) {
            if (m_syncing)
                return;
            const QScopedValueRollback syncing(m_syncing, true);
            if (m_graphPanel->openedDelegate() >= 0
                && m_graphPanel->openedDelegate() == m_delegatePayloadView->currentDelegate())
                m_graphPanel->selectInnerNodes(nodes);
            else
                m_graphPanel->selectFor(-1, names, handles);
            // The events aligned to these nodes in the Profile view.
            const auto snap = m_document->snapshot();
            if (snap && snap->profile)
                if (const auto* t = snap->profile->delegateTimes.of(
                        snap->delegates.get(), m_delegatePayloadView->currentDelegate())) {
                    std::vector<int> rows;
                    for (const auto n : nodes)
                        if (n < t->nodes.size())
                            rows.insert(rows.end(), t->nodes[n].rows.begin(), t->nodes[n].rows.end());
                    m_profileView->selectSourceRows(rows);
                }
        });
}

void MainWindow::createActions()
{
    auto* file = menuBar()->addMenu(QStringLiteral("&File"));
    m_openAction = file->addAction(themedIcon(QStringLiteral("document-open"), IconKind::Open),
        QStringLiteral("&Open…"), this, [this] { openDialog(false); });
    m_openAction->setShortcut(QKeySequence::Open);
    m_openAction->setObjectName(QStringLiteral("openAction"));
    m_addAction = file->addAction(QStringLiteral("&Add Graph Dump…"), this, [this] { openDialog(true); });
    m_addAction->setObjectName(QStringLiteral("addAction"));
    m_addAction->setToolTip(QStringLiteral("Add graph dumps (an ETRecord, .pt2 archives, exported-program JSON) to the "
                                           "open program or dumps"));
    auto* openEtdump = file->addAction(QStringLiteral("Open &ETDump…"), this, &MainWindow::openEtdumpDialog);
    openEtdump->setObjectName(QStringLiteral("openEtdumpAction"));
    openEtdump->setToolTip(QStringLiteral("Join an ETDump (and its debug buffer) with the open program"));
    m_recentMenu = file->addMenu(QStringLiteral("Open &Recent"));
    m_recentMenu->setObjectName(QStringLiteral("recentMenu"));
    file->addSeparator();
    m_saveAction = file->addAction(themedIcon(QStringLiteral("document-save"), IconKind::Save),
        QStringLiteral("&Save .pte…"), this, &MainWindow::saveDialog);
    m_saveAction->setShortcut(QKeySequence::Save);
    m_saveAction->setObjectName(QStringLiteral("saveAction"));
    m_exportMapsAction =
        file->addAction(QStringLiteral("E&xport Debug Maps…"), this, &MainWindow::exportDebugMapsDialog);
    m_exportMapsAction->setObjectName(QStringLiteral("exportMapsAction"));
    auto* exportGraph =
        file->addAction(QStringLiteral("Export &Graph Image…"), this, [this] { m_graphPanel->exportDialog(false); });
    exportGraph->setObjectName(QStringLiteral("exportGraphAction"));
    exportGraph->setToolTip(QStringLiteral("Save the graph shown as PNG or SVG (the graph's context menu also exports "
                                           "the part in view)"));
    file->addSeparator();
    m_compareAction = file->addAction(QStringLiteral("Co&mpare with…"), this, &MainWindow::compareDialog);
    m_compareAction->setObjectName(QStringLiteral("compareAction"));
    m_compareAction->setShortcut(QKeySequence(QStringLiteral("Ctrl+Shift+D")));
    m_compareAction->setToolTip(QStringLiteral("Compare the open program with another .pte or graph dump"));
    file->addSeparator();
    auto* quit = file->addAction(QStringLiteral("&Quit"), this, &QWidget::close);
    quit->setShortcuts(quitKeys());
    quit->setObjectName(QStringLiteral("quitAction"));

    auto* edit = menuBar()->addMenu(QStringLiteral("&Edit"));
    m_copyTextAction = edit->addAction(QStringLiteral("&Copy"), this, [this] { copySelection(false); });
    m_copyTextAction->setToolTip(
        QStringLiteral("Copy what has the focus: a table's selected rows (tab-separated), the selected text, or the "
                       "selected graph nodes"));
    m_copyTextAction->setShortcut(QKeySequence::Copy);
    m_copyTextAction->setObjectName(QStringLiteral("copyTextAction"));
    m_copyJsonAction = edit->addAction(QStringLiteral("Copy as &JSON"), this, [this] { copySelection(true); });
    m_copyJsonAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_C));
    m_copyJsonAction->setObjectName(QStringLiteral("copyJsonAction"));
    edit->addSeparator();
    auto* find = edit->addAction(QStringLiteral("&Find in Graph"), this, [this] {
        if (auto* dock = findChild<QDockWidget*>(QStringLiteral("graphDock"))) {
            dock->show();
            dock->raise();
        }
        m_graphPanel->focusFind();
    });
    find->setShortcut(QKeySequence::Find);
    auto* filter = edit->addAction(QStringLiteral("Filter &Instructions"), this, [this] {
        if (auto* dock = findChild<QDockWidget*>(QStringLiteral("instructionsDock"))) {
            dock->show();
            dock->raise();
        }
        m_instructionsView->focusFilter();
    });
    filter->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_L));
    edit->addSeparator();
    auto* preferences = edit->addAction(QStringLiteral("&Preferences…"), this, [this] { preferencesDialog(); });
    preferences->setObjectName(QStringLiteral("preferencesAction"));
    preferences->setMenuRole(QAction::PreferencesRole);
    preferences->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Comma));
    preferences->setToolTip(QStringLiteral("The run target of Run on Device: a command template"));

    auto* program = menuBar()->addMenu(QStringLiteral("&Program"));
    m_emitAction = program->addAction(themedIcon(QStringLiteral("system-run"), IconKind::Emit),
        QStringLiteral("&Emit…"), this, &MainWindow::emitDialog);
    m_emitAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_E));
    m_emitAction->setObjectName(QStringLiteral("emitAction"));
    m_emitAction->setToolTip(QStringLiteral("Emit the graph-dump methods into an ExecuTorch program (Ctrl+E)"));
    m_runAction = program->addAction(QStringLiteral("&Run…"), this, &MainWindow::runDialog);
    m_runAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_R));
    m_runAction->setObjectName(QStringLiteral("runAction"));
    m_runAction->setToolTip(QStringLiteral("Run a method on ptelens' reference interpreter and see every value it "
                                           "computed (Ctrl+R)"));
    m_cancelAction = program->addAction(themedIcon(QStringLiteral("process-stop"), IconKind::Cancel),
        QStringLiteral("&Cancel"), m_document, &Document::cancel);
    m_cancelAction->setShortcut(QKeySequence(Qt::Key_Escape));
    m_cancelAction->setObjectName(QStringLiteral("cancelAction"));
    program->addSeparator();
    m_deviceRunAction = program->addAction(QStringLiteral("&Run on Device…"), this, [this] { runOnDevice(); });
    m_deviceRunAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_R));
    m_deviceRunAction->setObjectName(QStringLiteral("runOnDeviceAction"));
    m_deviceRunAction->setToolTip(
        QStringLiteral("Run the program with the command set in Edit > Preferences and open the "
                       "ETDump it writes over the program (Ctrl+Shift+R)"));
    m_deviceRun = new DeviceRun(this);
    connect(m_deviceRun, &DeviceRun::finished, this, &MainWindow::deviceRunFinished);
    connect(m_deviceRun, &DeviceRun::finished, this, [this] { updateActions(); });

    m_viewMenu = menuBar()->addMenu(QStringLiteral("&View"));

    auto* help = menuBar()->addMenu(QStringLiteral("&Help"));
    auto* keys = help->addAction(QStringLiteral("&Keyboard Shortcuts"), this, [this] {
        ShortcutsDialog dialog(menuShortcuts(menuBar()) + viewShortcuts(), this);
        dialog.exec();
    });
    keys->setShortcut(QKeySequence::HelpContents);
    keys->setObjectName(QStringLiteral("shortcutsAction"));
    help->addAction(QStringLiteral("&About ptelens"), this, [this] {
        QMessageBox::about(this, QStringLiteral("About ptelens"),
            QStringLiteral("<b>ptelens %1</b><p>A workbench for ExecuTorch programs: read .pte files and "
                           "torch.export graph dumps, emit and save programs.</p>")
                .arg(QApplication::applicationVersion()));
    });

    auto* tools = addToolBar(QStringLiteral("Main"));
    tools->setObjectName(QStringLiteral("mainToolBar"));
    tools->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    tools->addAction(m_openAction);
    tools->addAction(m_saveAction);
    tools->addSeparator();
    tools->addAction(m_emitAction);
    tools->addAction(m_runAction);
    tools->addAction(m_cancelAction);

    // Message bar: non-modal errors above the views.
    auto* messageTools = new QToolBar(QStringLiteral("Messages"), this);
    m_messageToolBar = messageTools;
    messageTools->setObjectName(QStringLiteral("messageToolBar"));
    messageTools->setMovable(false);
    messageTools->setFloatable(false);
    messageTools->toggleViewAction()->setVisible(false);
    m_messageBar = new QWidget(messageTools);
    m_messageBar->setObjectName(QStringLiteral("messageBar"));
    m_messageBar->setAutoFillBackground(true);
    auto* ml = new QHBoxLayout(m_messageBar);
    ml->setContentsMargins(6, 3, 6, 3);
    m_messageText = new QLabel(m_messageBar);
    m_messageText->setObjectName(QStringLiteral("messageText"));
    m_messageText->setWordWrap(true);
    m_messageText->setTextInteractionFlags(Qt::TextSelectableByMouse);
    ml->addWidget(m_messageText, 1);
    auto* close = new QToolButton(m_messageBar);
    close->setText(QStringLiteral("✕"));
    close->setAutoRaise(true);
    close->setToolTip(QStringLiteral("Dismiss"));
    ml->addWidget(close);
    messageTools->addWidget(m_messageBar);
    addToolBarBreak();
    addToolBar(messageTools);
    connect(close, &QToolButton::clicked, this, &MainWindow::clearMessage);
    messageTools->hide();

    m_progress = new QProgressBar(this);
    m_progress->setObjectName(QStringLiteral("progressBar"));
    m_progress->setMaximumWidth(m_progress->fontMetrics().averageCharWidth() * 30);
    m_progress->hide();
    m_cancelButton = new QToolButton(this);
    m_cancelButton->setDefaultAction(m_cancelAction);
    m_cancelButton->hide();
    m_statusLabel = new QLabel(this);
    statusBar()->addPermanentWidget(m_statusLabel);
    statusBar()->addPermanentWidget(m_progress);
    statusBar()->addPermanentWidget(m_cancelButton);
}

QDockWidget* MainWindow::addDock(DockView* view)
{
    auto* dock = new QDockWidget(view->currentTitle(), this);
    dock->setObjectName(view->dockName());
    connect(view, &DockView::currentTitleChanged, dock, &QDockWidget::setWindowTitle);
    dock->setWidget(view);
    addDockWidget(view->area(), dock);
    m_viewMenu->addAction(dock->toggleViewAction());
    return dock;
}

void MainWindow::createDocks()
{
    // The graph takes the central area (it keeps its minimum size whatever the window does); the other views are
    // docks around it.
    std::vector<QDockWidget*> docks;
    for (auto* view : m_views) {
        if (view->area() == Qt::NoDockWidgetArea) {
            setCentralWidget(view);
            docks.push_back(nullptr);
        } else {
            docks.push_back(addDock(view));
        }
    }
    // Left-area docks stack top to bottom, bottom-area docks share one tabbed area (the first in front).
    QDockWidget* left = nullptr;
    QDockWidget* bottom = nullptr;
    QDockWidget* firstBottom = nullptr;
    for (std::size_t i = 0; i < docks.size(); ++i) {
        if (m_views[i]->area() == Qt::LeftDockWidgetArea) {
            if (left)
                splitDockWidget(left, docks[i], Qt::Vertical);
            left = docks[i];
        } else if (m_views[i]->area() == Qt::BottomDockWidgetArea) {
            if (bottom)
                tabifyDockWidget(bottom, docks[i]);
            else
                firstBottom = docks[i];
            bottom = docks[i];
        }
    }
    if (firstBottom)
        firstBottom->raise();
    auto* methods = findChild<QDockWidget*>(QStringLiteral("methodsDock"));
    auto* instructions = findChild<QDockWidget*>(QStringLiteral("instructionsDock"));
    const auto fm = fontMetrics();
    resizeDocks({ methods }, { fm.averageCharWidth() * 55 }, Qt::Horizontal);
    resizeDocks({ instructions }, { fm.lineSpacing() * 14 }, Qt::Vertical);
    // The Methods dock shows several methods at once (an LLM program has dozens); the Signature dock the rest.
    if (auto* signature = findChild<QDockWidget*>(QStringLiteral("signatureDock")))
        resizeDocks({ methods, signature }, { fm.lineSpacing() * 10, fm.lineSpacing() * 30 }, Qt::Vertical);
    resize(fm.averageCharWidth() * 200, fm.lineSpacing() * 50);

    // Ctrl+1..9 bring a dock to the front and focus its main view. (Not focus proxies: a container proxying
    // to its own descendant reorders the focus chain, and Tab then cycles inside the dock.)
    m_viewMenu->addSeparator();
    for (std::size_t i = 0; i < docks.size(); ++i) {
        QDockWidget* dock = docks[i];
        QWidget* target = m_views[i]->focusTarget();
        auto* a = m_viewMenu->addAction(QStringLiteral("Go to %1").arg(m_views[i]->title()), this, [dock, target] {
            if (dock) {
                dock->show();
                dock->raise();
            }
            target->setFocus(Qt::ShortcutFocusReason);
        });
        if (i < 10) // Ctrl+1 .. Ctrl+9, then Ctrl+0 (the tenth, Profile)
            a->setShortcut(QKeySequence(Qt::CTRL | Qt::Key(i < 9 ? Qt::Key_1 + int(i) : Qt::Key_0)));
    }
    m_viewMenu->addSeparator();
    m_viewMenu->addAction(QStringLiteral("&Reset Layout"), this, [this] {
        restoreState(m_defaultState, kLayoutVersion);
        keepTabTitles();
    });
}

bool MainWindow::restoreLayout(const QByteArray& state)
{
    // A layout is refused (the default one stays) when it would hide a view: one of an earlier arrangement (the
    // graph was a dock then), or one where an open dock has no room for a row of text. Before the window is shown
    // the docks have no sizes yet: the first show checks.
    const QByteArray before = saveState(kLayoutVersion);
    if (state.isEmpty() || !restoreState(state, kLayoutVersion))
        return false;
    if (!isVisible()) {
        m_checkLayoutOnShow = true;
        return true;
    }
    layout()->activate();
    keepTabTitles();
    if (!layoutShowsEveryView()) {
        restoreState(before, kLayoutVersion);
        keepTabTitles();
        return false;
    }
    return true;
}

void MainWindow::keepTabTitles()
{
    // The tabs of the tabbed docks keep their whole titles ("Signature", "Diagnostics (1 warning)"): on a narrow
    // window the bar scrolls rather than cutting them to "Si…".
    for (auto* bar : findChildren<QTabBar*>(Qt::FindDirectChildrenOnly)) {
        bar->setElideMode(Qt::ElideNone);
        bar->setUsesScrollButtons(true);
    }
}

void MainWindow::showEvent(QShowEvent* event)
{
    QMainWindow::showEvent(event);
    keepTabTitles();
    if (!std::exchange(m_checkLayoutOnShow, false))
        return;
    layout()->activate();
    if (!layoutShowsEveryView())
        restoreState(m_defaultState, kLayoutVersion);
    keepTabTitles();
}

bool MainWindow::layoutShowsEveryView() const
{
    const int row = fontMetrics().lineSpacing() * 2;
    for (auto* dock : findChildren<QDockWidget*>()) {
        if (dock->isFloating() || !dock->toggleViewAction()->isChecked())
            continue; // floating: a window of its own; closed: the user closed it (View menu brings it back)
        if (!dock->isHidden() && (dock->width() < row || dock->height() < row))
            return false;
    }
    if (auto* central = centralWidget(); central && !central->isHidden()
        && (central->width() < central->minimumWidth() || central->height() < central->minimumHeight()))
        return false;
    return true;
}

bool MainWindow::confirmDiscard()
{
    if (!hasUnsavedProgram() || !m_document->canSave())
        return true;
    QMessageBox box(QMessageBox::Warning, QStringLiteral("ptelens"),
        QStringLiteral("The emitted program has not been saved."),
        QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, this);
    box.setObjectName(QStringLiteral("unsavedPrompt"));
    box.setInformativeText(QStringLiteral("Save it as a .pte first, or discard the emission?"));
    box.setDefaultButton(QMessageBox::Save);
    switch (box.exec()) {
    case QMessageBox::Save:
        return saveDialog() && !hasUnsavedProgram();
    case QMessageBox::Discard:
        return true; // the program goes once the action replaces it (it stays when that action fails)
    default:
        return false;
    }
}

void MainWindow::openFiles(const QStringList& paths)
{
    // An ETDump alone joins the open program (emitted or not), which stays: nothing to discard, filters kept.
    const bool joinsOpenProgram = isEtdumpOnly(paths) && m_document->snapshot();
    if (!joinsOpenProgram && !confirmDiscard())
        return;
    QStringList existing;
    for (const auto& p : paths)
        existing << QFileInfo(p).absoluteFilePath();
    if (existing.isEmpty())
        return;
    m_openingNew = !joinsOpenProgram;
    m_showProfile = isEtdumpOnly(existing);
    m_pendingRecent = existing; // Open Recent once they opened
    m_document->open(existing, false);
}

void MainWindow::addFiles(const QStringList& paths)
{
    // Adding dumps drops the emitted program (a new emission is needed).
    if (!confirmDiscard())
        return;
    QStringList existing;
    for (const auto& p : paths)
        existing << QFileInfo(p).absoluteFilePath();
    if (existing.isEmpty())
        return;
    m_pendingRecent.clear();
    m_document->open(existing, true);
}

void MainWindow::openDialog(bool append)
{
    QSettings settings;
    const QString dir = settings.value(QStringLiteral("lastDirectory")).toString();
    const QStringList files = QFileDialog::getOpenFileNames(
        this, append ? QStringLiteral("Add graph dumps") : QStringLiteral("Open"), dir, kFileFilter);
    if (files.isEmpty())
        return;
    settings.setValue(QStringLiteral("lastDirectory"), QFileInfo(files.front()).absolutePath());
    if (append)
        addFiles(files);
    else
        openFiles(files);
}

void MainWindow::openEtdumpDialog()
{
    QSettings settings;
    const QString dir = settings.value(QStringLiteral("lastDirectory")).toString();
    const QStringList files = QFileDialog::getOpenFileNames(this, QStringLiteral("Open ETDump (and its debug buffer)"),
        dir, QStringLiteral("ETDumps and debug buffers (*.etdp *.etdump *.bin);;All files (*)"));
    if (files.isEmpty())
        return;
    settings.setValue(QStringLiteral("lastDirectory"), QFileInfo(files.front()).absolutePath());
    openEtdumpFiles(files);
}

void MainWindow::openEtdumpFiles(const QStringList& paths)
{
    QStringList existing;
    for (const auto& p : paths)
        existing << QFileInfo(p).absoluteFilePath();
    m_pendingRecent.clear();
    m_showProfile = true;
    m_document->open(existing, false); // joins the open program
}

bool MainWindow::preferencesDialog()
{
    PreferencesDialog dialog(this);
    return dialog.exec() == QDialog::Accepted;
}

bool MainWindow::runOnDevice()
{
    const auto snap = m_document->snapshot();
    if (!snap || !snap->program || m_document->isBusy()) {
        showMessage(
            QStringLiteral("Run on Device needs a program: open a .pte or emit one first."), MessageLevel::Warning);
        return false;
    }
    if (m_deviceRun->isRunning()) {
        if (m_deviceRunDialog) {
            m_deviceRunDialog->show();
            m_deviceRunDialog->raise();
        }
        return false;
    }
    QString templ = DeviceRun::savedTemplate();
    if (templ.isEmpty()) {
        // No run target yet: the preferences first.
        if (!preferencesDialog())
            return false;
        templ = DeviceRun::savedTemplate();
        if (templ.isEmpty())
            return false;
    }
    QString error;
    if (!m_deviceRun->start(snap, templ, &error)) {
        showMessage(QStringLiteral("Run on Device: %1").arg(error), MessageLevel::Error);
        return false;
    }
    if (!m_deviceRunDialog) {
        m_deviceRunDialog = new DeviceRunDialog(m_deviceRun, this);
        connect(m_deviceRunDialog, &DeviceRunDialog::runAgainRequested, this, [this] { runOnDevice(); });
    }
    m_deviceRunDialog->beginRun(m_deviceRun->command(), m_deviceRun->folder());
    m_deviceRunDialog->show();
    updateActions();
    return true;
}

void MainWindow::deviceRunFinished(const pte::process::RunnerOutcome& outcome)
{
    if (outcome.result != pte::process::RunnerOutcome::Result::Ok) {
        if (outcome.result != pte::process::RunnerOutcome::Result::Cancelled)
            showMessage(QStringLiteral("Run on Device: %1").arg(outcome.message), MessageLevel::Error);
        return;
    }
    QStringList files { outcome.etdumpPath };
    if (!outcome.debugBufferPath.isEmpty())
        files << outcome.debugBufferPath;
    openEtdumpFiles(files);
}

void MainWindow::compareDialog()
{
    QSettings settings;
    const QString dir = settings.value(QStringLiteral("lastDirectory")).toString();
    const QString file = QFileDialog::getOpenFileName(this, QStringLiteral("Compare with"), dir, kFileFilter);
    if (file.isEmpty())
        return;
    settings.setValue(QStringLiteral("lastDirectory"), QFileInfo(file).absolutePath());
    compareWith(file);
}

DiffWindow* MainWindow::diffWindow() const { return m_diffWindow; }

DiffWindow* MainWindow::compareWith(const QString& path)
{
    if (!m_diffWindow) {
        m_diffWindow = new DiffWindow(nullptr);
        m_diffWindow->setAttribute(Qt::WA_DeleteOnClose);
        // Quit from the Diff window quits the application, as from this one (which closes the Diff window).
        for (const auto& keys : quitKeys()) {
            auto* quit = new QShortcut(keys, m_diffWindow);
            connect(quit, &QShortcut::activated, this, &QWidget::close);
        }
    }
    m_diffWindow->compareWith(m_document->snapshot(), path);
    m_diffWindow->show();
    m_diffWindow->activateWindow();
    return m_diffWindow;
}

void MainWindow::addRecentFiles(const QStringList& paths)
{
    if (paths.isEmpty())
        return;
    QSettings settings;
    QStringList recent = settings.value(QStringLiteral("recentFiles")).toStringList();
    const QString entry = paths.join(QLatin1Char('\n'));
    recent.removeAll(entry);
    recent.prepend(entry);
    while (recent.size() > kMaxRecent)
        recent.removeLast();
    settings.setValue(QStringLiteral("recentFiles"), recent);
    rebuildRecentMenu();
}

void MainWindow::rebuildRecentMenu()
{
    m_recentMenu->clear();
    const QStringList recent = QSettings().value(QStringLiteral("recentFiles")).toStringList();
    // Entries by file name; entries of the same names also name their folder, by as many of its last components as
    // tell them apart ("model.pte — a", "model.pte — b"; "model.pte — one/place"). The tooltip has the paths.
    std::vector<QStringList> entries;
    std::vector<QStringList> folders; // the first file's folder, component by component
    QStringList labels;
    for (const QString& entry : recent) {
        entries.push_back(entry.split(QLatin1Char('\n')));
        QStringList names;
        for (const auto& f : entries.back())
            names << QFileInfo(f).fileName();
        labels << names.join(QStringLiteral(" + "));
        folders.push_back(QFileInfo(entries.back().front()).absolutePath().split(QLatin1Char('/'), Qt::SkipEmptyParts));
    }
    const auto tail = [&folders](std::size_t entry, qsizetype n) {
        return folders[entry].mid(std::max<qsizetype>(0, folders[entry].size() - n)).join(QDir::separator());
    };
    for (std::size_t i = 0; i < entries.size(); ++i) {
        const QStringList& files = entries[i];
        QString label = labels[int(i)];
        if (labels.count(label) > 1) {
            qsizetype n = 1;
            const auto tellsApart = [&] {
                for (std::size_t j = 0; j < entries.size(); ++j)
                    if (j != i && labels[int(j)] == label && tail(j, n) == tail(i, n))
                        return false;
                return true;
            };
            while (n < folders[i].size() && !tellsApart())
                ++n;
            label += QStringLiteral(" — %1").arg(
                tellsApart() ? tail(i, n) : QDir::toNativeSeparators(QFileInfo(files.front()).absolutePath()));
        }
        label.replace(QLatin1Char('&'), QStringLiteral("&&"));
        auto* a = m_recentMenu->addAction(label, this, [this, files] { openFiles(files); });
        a->setToolTip(QDir::toNativeSeparators(files.join(QLatin1Char('\n'))));
    }
    m_recentMenu->setToolTipsVisible(true);
    m_recentMenu->setEnabled(!recent.isEmpty());
}

namespace {

QString staleRunText(const Snapshot& snap)
{
    return QStringLiteral("The program changed since the run of %1: its values are stale and no longer shown. "
                          "Program > Run… (Ctrl+R) runs it again.")
        .arg(toQString(snap.run->run.method));
}

} // namespace

void MainWindow::onSnapshotChanged()
{
    const auto snap = m_document->snapshot();
    {
        const QScopedValueRollback syncing(m_syncing, true);
        for (auto* view : m_views)
            view->setSnapshot(snap);
    }
    QString method = m_method;
    if (!snap || !snap->method(method.toStdString())) {
        method.clear();
        if (snap) {
            // Prefer a method that does something over constants and training metadata.
            for (const auto& m : snap->methods)
                if (!m.isConstant && !m.isTrainingMetadata) {
                    method = toQString(m.name);
                    break;
                }
            if (method.isEmpty() && !snap->methods.empty())
                method = toQString(snap->methods.front().name);
        }
    }
    m_method.clear();
    setCurrentMethod(method);
    updateTitle();
    updateActions();
    if (snap && hasStaleRun(*snap) && snap->run.get() != m_staleRunShown) {
        m_staleRunShown = snap->run.get();
        showMessage(staleRunText(*snap), MessageLevel::Info);
    }
}

void MainWindow::showDocumentMessages()
{
    clearMessage();
    const auto snap = m_document->snapshot();
    if (!snap)
        return;
    // Errors of the program (its readers' runtime checks) and of an ETDump are different statements: a program the
    // runtime would refuse, or an ETDump that belongs to another program.
    const std::string etdump = snap->profile ? snap->profile->dump->path : std::string();
    int errors = 0;
    for (const auto& d : snap->diagnostics)
        errors += d.severity == pte::Severity::Error && (etdump.empty() || d.file != etdump) ? 1 : 0;
    QStringList texts;
    if (errors > 0)
        texts << (errors == 1
                ? QStringLiteral("1 error: the ExecuTorch runtime would refuse this program.")
                : QStringLiteral("%1 errors: the ExecuTorch runtime would refuse this program.").arg(errors));
    if (snap->profile && snap->profile->join) {
        const QString mismatch = toQString(snap->profile->join->mismatchSummary());
        if (!mismatch.isEmpty()) {
            QString sentence = mismatch;
            sentence[0] = sentence[0].toUpper();
            texts << QStringLiteral("%1 (%2). Its events are not joined.")
                         .arg(sentence, QFileInfo(toQString(etdump)).fileName());
        }
    }
    const QString stale = hasStaleRun(*snap) ? staleRunText(*snap) : QString();
    if (texts.isEmpty()) {
        if (!stale.isEmpty())
            showMessage(stale, MessageLevel::Info);
        return;
    }
    showMessage(texts.join(QLatin1Char(' ')) + QStringLiteral(" See Diagnostics (Ctrl+9).")
            + (stale.isEmpty() ? QString() : QLatin1Char(' ') + stale),
        errors > 0 ? MessageLevel::Error : MessageLevel::Warning);
}

void MainWindow::updateTitle()
{
    const auto snap = m_document->snapshot();
    if (!snap || snap->inputPaths.empty()) {
        setWindowModified(false);
        setWindowTitle(QStringLiteral("ptelens"));
        return;
    }
    // The program's files, then the ETDump's (its debug buffer is not named: it goes with the ETDump).
    const std::string etdump = snap->profile ? snap->profile->dump->path : std::string();
    const std::string buffer = snap->profile ? snap->profile->dump->debugBufferPath : std::string();
    QStringList sources;
    for (const auto& p : snap->inputPaths)
        if (p != etdump && p != buffer)
            sources << QFileInfo(toQString(p)).fileName();
    QString program = sources.join(QStringLiteral(", "));
    const QString saved = m_document->savedPath();
    if (!saved.isEmpty())
        program = snap->emitted ? QStringLiteral("%1 (emitted from %2)").arg(QFileInfo(saved).fileName(), program)
                                : QStringLiteral("%1 (saved from %2)").arg(QFileInfo(saved).fileName(), program);
    else if (snap->emitted)
        program += QStringLiteral("[*] (emitted, not saved)"); // Qt writes the [*] as "*" while modified
    QStringList parts;
    if (!program.isEmpty())
        parts << program;
    if (!etdump.empty())
        parts << QFileInfo(toQString(etdump)).fileName();
    setWindowTitle(QStringLiteral("%1 — ptelens").arg(parts.join(QStringLiteral(", "))));
    setWindowModified(m_document->hasUnsavedProgram());
}

void MainWindow::updateEmptyTexts()
{
    // The program views are empty for three reasons, and each gets its own words.
    const auto snap = m_document->snapshot();
    const ContentState state = snap && snap->program ? ContentState::Program
        : snap && !snap->dumpMethods.empty()         ? ContentState::NotEmitted
                                                     : ContentState::Nothing;
    for (auto* view : m_views)
        view->setContentState(state);
}

void MainWindow::setCurrentMethod(const QString& method)
{
    const auto snap = m_document->snapshot();
    m_method = method;
    const QScopedValueRollback syncing(m_syncing, true);
    for (auto* view : m_views)
        view->setMethod(snap, method);
    updateEmptyTexts();
}

void MainWindow::selectInstruction(int sourceRow) { m_instructionsView->selectSourceRow(sourceRow); }

void MainWindow::onInstructionSelectionChanged()
{
    if (m_syncing)
        return;
    const auto rows = m_instructionsView->selectedSourceRows();
    if (rows.empty())
        return;
    const QScopedValueRollback syncing(m_syncing, true);
    const InstructionModel& model = *m_instructionsView->model();
    std::vector<std::int64_t> handles;
    QStringList names;
    std::vector<std::int32_t> values;
    int instruction = -1;
    for (const int src : rows) {
        const auto& info = model.rowInfo(src);
        if (instruction < 0 && info.chain == 0)
            instruction = int(info.index);
        if (info.handles)
            handles.insert(handles.end(), info.handles->begin(), info.handles->end());
        if (info.delegateEntry)
            for (const auto& [id, hs] : info.delegateEntry->delegateMap)
                handles.insert(handles.end(), hs.begin(), hs.end());
        names << model.nodeNames(src);
        const auto ids = model.valueIds(src);
        values.insert(values.end(), ids.begin(), ids.end());
    }
    m_graphPanel->selectFor(rows.size() == 1 ? instruction : -1, names, handles);
    // Values the instruction uses.
    m_valuesView->selectValues(values);
    // Its events in the Profile view.
    selectProfileEvents(rows);
}

void MainWindow::selectProfileEvents(const std::vector<int>& instructionRows)
{
    const InstructionModel& model = *m_instructionsView->model();
    std::vector<int> instructions;
    for (const int row : instructionRows)
        if (model.rowInfo(row).chain == 0)
            instructions.push_back(int(model.rowInfo(row).index));
    m_profileView->selectSourceRows(m_profileView->model()->rowsFor(m_method, instructions));
}

void MainWindow::onProfileSelectionChanged()
{
    if (m_syncing)
        return;
    const auto rows = m_profileView->selectedSourceRows();
    if (rows.empty())
        return;
    const ProfileModel& profile = *m_profileView->model();
    // An event of another method: show that method first.
    const QString method = toQString(profile.profile()->methodName(profile.row(rows.front()).method));
    if (!method.isEmpty() && method != m_method && m_document->snapshot()->method(method.toStdString()))
        setCurrentMethod(method);
    const QScopedValueRollback syncing(m_syncing, true);
    const InstructionModel& model = *m_instructionsView->model();
    std::vector<int> instructionRows;
    QStringList names;
    std::vector<std::int64_t> handles;
    int instruction = -1;
    for (const int r : rows) {
        const auto& row = profile.row(r);
        if (toQString(profile.profile()->methodName(row.method)) != m_method)
            continue;
        if (const int ir = model.rowOf(row.chain, row.instruction); ir >= 0) {
            instructionRows.push_back(ir);
            if (instruction < 0 && row.chain == 0)
                instruction = row.instruction;
        }
        names << profile.nodeNames(r);
        handles.insert(handles.end(), row.debugHandles.begin(), row.debugHandles.end());
    }
    m_instructionsView->selectSourceRows(instructionRows);
    // A delegate event shows the nodes its identifier maps to; an operator event its instruction's.
    const bool delegated = rows.size() == 1 && profile.row(rows.front()).isDelegatedOp;
    // An XNNPACK event aligned to an inner node: that node inside the delegate, and its source nodes.
    const auto inner = delegated ? profile.profile()->delegateTimes.nodeOfRow(profile.row(rows.front())) : std::nullopt;
    if (inner && m_delegatePayloadView->showInnerNode(inner->first, inner->second)) {
        if (m_graphPanel->openedDelegate() == inner->first) {
            m_graphPanel->selectInnerNodes({ inner->second });
            return;
        }
        names.clear();
        handles.clear();
        m_delegatePayloadView->innerNodeSources({ inner->second }, &names, &handles);
    }
    m_graphPanel->selectFor(delegated || rows.size() != 1 ? -1 : instruction, names, handles);
}

void MainWindow::onGraphSelectionChanged()
{
    if (m_syncing)
        return;
    const auto nodes = m_graphPanel->selectedNodes();
    if (nodes.empty())
        return;
    const GraphData& g = m_graphPanel->graph();
    const InstructionModel& model = *m_instructionsView->model();
    std::vector<int> rows;
    QStringList names;
    std::vector<std::int64_t> handles;
    for (const int n : nodes) {
        const GraphNode& node = g.nodes[std::size_t(n)];
        if (node.instruction >= 0) {
            const int row = model.rowOfInstruction(node.instruction);
            if (row >= 0)
                rows.push_back(row);
        } else if (node.firstInstruction >= 0) {
            for (int i = node.firstInstruction; i <= node.lastInstruction; ++i)
                if (const int row = model.rowOfInstruction(i); row >= 0)
                    rows.push_back(row);
        }
        if (!g.instructionGraph) {
            names << node.members;
            handles.insert(handles.end(), node.debugHandles.begin(), node.debugHandles.end());
        }
    }
    if (!g.instructionGraph) {
        const auto more = model.rowsFor(names, handles);
        rows.insert(rows.end(), more.begin(), more.end());
    }
    const QScopedValueRollback syncing(m_syncing, true);
    if (m_graphPanel->openedDelegate() >= 0
        && m_graphPanel->openedDelegate() == m_delegatePayloadView->currentDelegate()) {
        std::vector<std::uint32_t> inner;
        for (const int n : nodes)
            if (g.nodes[std::size_t(n)].innerNode >= 0)
                inner.push_back(std::uint32_t(g.nodes[std::size_t(n)].innerNode));
        m_delegatePayloadView->selectInnerNodes(inner);
    }
    m_instructionsView->selectSourceRows(rows);
    // A hot node's events in the Profile view.
    selectProfileEvents(rows);
}

void MainWindow::onDelegateIdSelectionChanged()
{
    if (m_syncing)
        return;
    const auto rows = m_delegatesView->debugIdsTable()->selectionModel()->selectedRows();
    if (rows.isEmpty())
        return;
    const DelegateDebugIdModel& ids = *m_delegatesView->debugIdModel();
    QStringList names;
    std::vector<std::int64_t> handles;
    for (const auto& r : rows) {
        names << ids.edgeNodesOf(r.row());
        const auto hs = ids.handlesOf(r.row());
        handles.insert(handles.end(), hs.begin(), hs.end());
    }
    // Instruction graphs (a .pte without its dump) show the delegate call itself.
    const int instruction =
        rows.size() == 1 && m_graphPanel->graph().instructionGraph ? int(ids.instructionOf(rows.front().row())) : -1;
    const QScopedValueRollback syncing(m_syncing, true);
    m_graphPanel->selectFor(instruction, names, handles);
}

void MainWindow::raiseDock(const char* name)
{
    if (auto* dock = findChild<QDockWidget*>(QLatin1String(name))) {
        dock->show();
        dock->raise();
    }
}

bool MainWindow::activateDiagnostic(int row)
{
    const auto snap = m_document->snapshot();
    const auto& diagnostics = m_diagnosticsView->model()->diagnostics();
    if (!snap || row < 0 || row >= int(diagnostics.size()))
        return false;
    const DiagnosticTarget target = resolveDiagnostic(*snap, diagnostics[std::size_t(row)]);
    if (!target.isValid() || !snap->method(target.method.toStdString()))
        return false;
    if (target.method != m_method)
        setCurrentMethod(target.method);
    if (target.instruction >= 0) {
        const int source = m_instructionsView->model()->rowOf(target.chain, target.instruction);
        if (source < 0)
            return false;
        if (!m_instructionsView->isShown(source))
            m_instructionsView->clearFilters();
        raiseDock("instructionsDock");
        selectInstruction(source);
        m_instructionsView->table()->setFocus(Qt::OtherFocusReason);
    } else if (target.value >= 0) {
        if (!m_valuesView->revealValue(target.value))
            return false;
        raiseDock("valuesDock");
        m_valuesView->table()->setFocus(Qt::OtherFocusReason);
    } else if (!target.nodes.isEmpty()) {
        raiseDock("graphDock");
        const QScopedValueRollback syncing(m_syncing, true);
        m_graphPanel->selectFor(-1, target.nodes, {});
    }
    statusBar()->showMessage(QStringLiteral("Diagnostic %1 → %2").arg(row + 1).arg(target.method), 4000);
    return true;
}

void MainWindow::updateActions()
{
    const bool busy = m_document->isBusy();
    m_emitAction->setEnabled(m_document->canEmit());
    m_runAction->setEnabled(m_document->canRun());
    m_saveAction->setEnabled(m_document->canSave());
    m_exportMapsAction->setEnabled(!busy && m_document->hasDebugMaps());
    m_cancelAction->setEnabled(busy);
    m_addAction->setEnabled(!busy);
    m_compareAction->setEnabled(!busy && m_document->snapshot() && !m_document->snapshot()->isEmpty());
    m_deviceRunAction->setEnabled(
        !busy && !m_deviceRun->isRunning() && m_document->snapshot() && m_document->snapshot()->program);
}

void MainWindow::showMessage(const QString& text, MessageLevel level)
{
    QPalette pal = m_messageBar->palette();
    pal.setColor(QPalette::Window,
        level == MessageLevel::Error         ? QColor(0xfd, 0xe4, 0xe4)
            : level == MessageLevel::Warning ? QColor(0xfd, 0xf3, 0xd8)
                                             : QColor(0xe4, 0xf0, 0xfd));
    pal.setColor(QPalette::WindowText, QColor(0x30, 0x20, 0x20));
    m_messageBar->setPalette(pal);
    m_messageText->setText(text);
    m_messageText->setToolTip(QString());
    m_messageBar->show();
    m_messageToolBar->show();
    fitMessageBar();
}

void MainWindow::fitMessageBar()
{
    // A word-wrapped QLabel's size hint assumes a narrow width, several lines tall, and the tool bar gives it that
    // height: the label takes the height its text needs at the width the window gives it.
    const int width = std::max(200, this->width() - 60);
    m_messageText->setFixedHeight(m_messageText->heightForWidth(width));
}

void MainWindow::resizeEvent(QResizeEvent* event)
{
    QMainWindow::resizeEvent(event);
    if (m_messageToolBar && m_messageToolBar->isVisible())
        fitMessageBar();
}

void MainWindow::clearMessage()
{
    // The whole tool bar goes: hiding only the widget inside leaves it to the tool bar's layout, which shows it again.
    m_messageToolBar->hide();
    m_messageText->clear();
    m_messageText->setToolTip(QString());
}

QString MainWindow::messageText() const
{
    return m_messageToolBar->isVisibleTo(this) ? m_messageText->text() : QString();
}

void MainWindow::emitWith(const EmitSettings& settings)
{
    m_lastEmitSettings = settings;
    m_document->emitProgram(settings);
}

void MainWindow::emitDialog()
{
    const auto snap = m_document->snapshot();
    if (!snap || snap->dumpMethods.empty())
        return;
    EmitDialog dialog(*snap, this);
    if (m_lastEmitSettings)
        dialog.setSettings(*m_lastEmitSettings);
    if (dialog.exec() != QDialog::Accepted)
        return;
    emitWith(dialog.settings());
}

void MainWindow::runDialog()
{
    const auto snap = m_document->snapshot();
    if (!m_document->canRun())
        return;
    RunDialog dialog(snap, m_method, this);
    if (m_lastRunSettings && m_lastRunSettings->method == m_method.toStdString())
        dialog.setSettings(*m_lastRunSettings);
    if (dialog.exec() != QDialog::Accepted)
        return;
    runWith(dialog.settings());
}

void MainWindow::runWith(const RunSettings& settings)
{
    m_lastRunSettings = settings;
    clearMessage();
    m_document->runMethod(settings);
}

void MainWindow::onRunFinished()
{
    const auto snap = m_document->snapshot();
    const RunResult* run = snap ? currentRun(*snap) : nullptr;
    if (!run)
        return;
    const QString method = toQString(run->run.method);
    if (method != m_method)
        setCurrentMethod(method);
    const QString text = toQString(run->statusText());
    const bool stopped = run->summary.stop != pte::RunStop::None;
    const bool differs = run->summary.check && !run->summary.check->ok;
    if (stopped || differs) {
        showMessage(text + (stopped ? QStringLiteral(". The values computed before it are in Values.") : QString()),
            stopped && run->summary.stop != pte::RunStop::MissingOperator
                    && run->summary.stop != pte::RunStop::Unsupported
                ? MessageLevel::Error
                : MessageLevel::Warning);
        // Where it stopped: that instruction, with what it read.
        if (run->summary.stoppedAt) {
            const auto& model = *m_instructionsView->model();
            for (int row = 0; row < model.rowCount(); ++row)
                if (model.rowInfo(row).chain == 0 && model.rowInfo(row).index == *run->summary.stoppedAt) {
                    selectInstruction(row);
                    break;
                }
        }
    }
    statusBar()->showMessage(text, 8000);
    raiseDock("valuesDock");
}

void MainWindow::saveTo(const QString& path)
{
    pte::WriteOptions options;
    if (m_lastEmitSettings)
        options = m_lastEmitSettings->serialize.write;
    m_document->save(path, options);
}

bool MainWindow::saveDialog()
{
    if (!m_document->canSave())
        return false;
    const QString path =
        askSavePath(this, QStringLiteral("Save ExecuTorch program"), QStringLiteral("ExecuTorch programs (*.pte)"),
            QStringLiteral("pte"), proposedSavePath(inputPaths(), QStringLiteral(".pte")),
            [this](const QString& p) { return m_document->isInputFile(p); });
    if (path.isEmpty())
        return false;
    // Wait for the save (it runs in the background with progress and cancel): callers go on only once it is on disk.
    QEventLoop loop;
    bool ok = false;
    const auto done = connect(m_document, &Document::saveFinished, &loop, [&] {
        ok = true;
        loop.quit();
    });
    const auto failed = connect(m_document, &Document::saveFailed, &loop, &QEventLoop::quit);
    const auto cancelled = connect(m_document, &Document::cancelled, &loop, &QEventLoop::quit);
    saveTo(path);
    if (m_document->isBusy())
        loop.exec();
    disconnect(done);
    disconnect(failed);
    disconnect(cancelled);
    return ok;
}

QStringList MainWindow::inputPaths() const
{
    QStringList paths;
    if (const auto snap = m_document->snapshot())
        for (const auto& p : snap->inputPaths)
            paths << toQString(p);
    return paths;
}

bool MainWindow::exportDebugMapsTo(const QString& path, QString* error)
{
    return m_document->exportDebugMaps(path, error);
}

void MainWindow::exportDebugMapsDialog()
{
    const QString path = askSavePath(this, QStringLiteral("Export debug maps"), QStringLiteral("JSON (*.json)"),
        QStringLiteral("json"), proposedSavePath(inputPaths(), QStringLiteral(".debug_maps.json")),
        [this](const QString& p) { return m_document->isInputFile(p); });
    if (path.isEmpty())
        return;
    QString error;
    if (!exportDebugMapsTo(path, &error))
        showMessage(error, MessageLevel::Error);
    else
        statusBar()->showMessage(QStringLiteral("Exported debug maps to %1").arg(path), 5000);
}

QString MainWindow::selectedRowsText(QAbstractItemView* view, bool json) const
{
    if (!view || !view->selectionModel() || !view->model())
        return {};
    const auto* model = view->model();
    QModelIndexList rows = view->selectionModel()->selectedRows();
    std::sort(rows.begin(), rows.end(), [](const QModelIndex& a, const QModelIndex& b) { return a.row() < b.row(); });
    // The columns as the table shows them: in their on-screen order, hidden ones left out.
    std::vector<int> columns;
    auto* table = qobject_cast<QTableView*>(view);
    const QHeaderView* header = table ? table->horizontalHeader() : nullptr;
    for (int v = 0; v < model->columnCount(); ++v) {
        const int c = header ? header->logicalIndex(v) : v;
        if (!header || !header->isSectionHidden(c))
            columns.push_back(c);
    }
    QStringList headers;
    for (const int c : columns)
        headers << model->headerData(c, Qt::Horizontal).toString();
    if (json) {
        // A cell showing a plain number is a JSON number; anything else (ids such as "%3", shapes, names) a string.
        static const QRegularExpression number(QStringLiteral("^-?(0|[1-9][0-9]*)(\\.[0-9]+)?([eE][-+]?[0-9]+)?$"));
        QJsonArray array;
        for (const auto& r : rows) {
            QJsonObject obj;
            for (std::size_t k = 0; k < columns.size(); ++k) {
                const QString text = model->index(r.row(), columns[k]).data(Qt::DisplayRole).toString();
                obj.insert(
                    headers[int(k)], number.match(text).hasMatch() ? QJsonValue(text.toDouble()) : QJsonValue(text));
            }
            array.append(obj);
        }
        return QString::fromUtf8(QJsonDocument(array).toJson(QJsonDocument::Indented));
    }
    QString text = headers.join(QLatin1Char('\t')) + QLatin1Char('\n');
    for (const auto& r : rows) {
        QStringList cells;
        for (const int c : columns)
            cells << model->index(r.row(), c).data().toString();
        text += cells.join(QLatin1Char('\t')) + QLatin1Char('\n');
    }
    return text;
}

void MainWindow::copySelection(bool json)
{
    // Copy follows the focus: the focused table's rows, the focused text's selection, the graph's selected nodes.
    QWidget* focus = QApplication::focusWidget();
    QString text;
    if (auto* view = qobject_cast<QAbstractItemView*>(focus)) {
        text = selectedRowsText(view, json);
    } else if (auto* line = qobject_cast<QLineEdit*>(focus)) {
        text = line->selectedText();
    } else if (auto* plain = qobject_cast<QPlainTextEdit*>(focus)) {
        text = plain->textCursor().selectedText().replace(QChar::ParagraphSeparator, QLatin1Char('\n'));
    } else if (auto* rich = qobject_cast<QTextEdit*>(focus)) {
        text = rich->textCursor().selectedText().replace(QChar::ParagraphSeparator, QLatin1Char('\n'));
    } else if (auto* label = qobject_cast<QLabel*>(focus)) {
        text = label->selectedText();
    } else if (focus && focus == m_graphPanel->view()) {
        text = m_graphPanel->selectedNodesText(json);
    }
    if (text.isEmpty()) {
        statusBar()->showMessage(QStringLiteral("Nothing selected to copy"), 3000);
        return;
    }
    QApplication::clipboard()->setText(text);
}

void MainWindow::closeEvent(QCloseEvent* event)
{
    if (!confirmDiscard()) {
        event->ignore();
        return;
    }
    QSettings settings;
    settings.setValue(QStringLiteral("window/geometry"), saveGeometry());
    settings.setValue(QStringLiteral("window/state"), saveState(kLayoutVersion));
    m_document->cancel();
    m_deviceRun->cancel(); // its process group ends with the window (the run's folder with the object)
    // The Diff window compares with this window's program: it closes with it (else it would keep the application
    // running with no main window).
    if (m_diffWindow)
        m_diffWindow->close();
    QMainWindow::closeEvent(event);
}

bool MainWindow::focusNextPrevChild(bool next)
{
    // Tab skips the widgets of docks hidden behind another tab (they keep their place in the focus chain).
    QWidget* start = QApplication::focusWidget();
    for (int i = 0; i < 256; ++i) {
        if (!QMainWindow::focusNextPrevChild(next))
            return false;
        QWidget* now = QApplication::focusWidget();
        if (!now || now == start || !now->visibleRegion().isEmpty())
            return true;
    }
    return true;
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event)
{
    if (event->mimeData()->hasUrls())
        event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event)
{
    QStringList files;
    for (const QUrl& url : event->mimeData()->urls())
        if (url.isLocalFile())
            files << url.toLocalFile();
    if (files.isEmpty())
        return;
    event->acceptProposedAction();
    // Holding Shift adds dumps to the current methods.
    if (event->modifiers() & Qt::ShiftModifier)
        addFiles(files);
    else
        openFiles(files);
}

} // namespace pte::ui
