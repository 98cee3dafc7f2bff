// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "mainwindow.h"

#include "models/delegatemodel.h"
#include "models/diagnosticmodel.h"
#include "models/diagnostictarget.h"
#include "models/instructionfilterproxy.h"
#include "models/instructionmodel.h"
#include "models/memoryplan.h"
#include "models/methodmodel.h"
#include "models/nameddatamodel.h"
#include "models/operatormodel.h"
#include "models/roles.h"
#include "models/sampleinputmodel.h"
#include "models/signaturemodel.h"
#include "models/sizemodel.h"
#include "models/text.h"
#include "models/textfilterproxy.h"
#include "models/valuemodel.h"
#include "widgets/emitdialog.h"
#include "widgets/graphpanel.h"
#include "widgets/graphview.h"
#include "widgets/icons.h"
#include "widgets/memoryplanwidget.h"
#include "widgets/sizechart.h"
#include "widgets/tableview.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QCloseEvent>
#include <QComboBox>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QIntValidator>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QProgressBar>
#include <QScrollBar>
#include <QSettings>
#include <QSplitter>
#include <QStatusBar>
#include <QTableView>
#include <QTimer>
#include <QToolBar>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>

namespace pte::ui {

namespace {
constexpr int kMaxRecent = 10;
const QString kFileFilter = QStringLiteral(
    "ExecuTorch and graph dumps (*.pte *.ptd *.pt2 *.ep *.json *.bin *.etrecord);;ExecuTorch programs (*.pte);;"
    "Graph dumps (*.pt2 *.ep *.json);;ETRecords (*.etrecord *.bin);;All files (*)");

TableView* makeTable(
    QWidget* parent, const QString& name, QAbstractItemModel* model, const QString& emptyText, bool sortable = true)
{
    auto* view = new TableView(parent);
    view->setObjectName(name);
    view->setEmptyText(emptyText);
    view->setModel(model);
    view->setSelectionBehavior(QAbstractItemView::SelectRows);
    view->setSelectionMode(QAbstractItemView::ExtendedSelection);
    view->setAlternatingRowColors(true);
    view->setWordWrap(false);
    view->setTextElideMode(Qt::ElideRight);
    view->setHorizontalScrollMode(QAbstractItemView::ScrollPerPixel);
    view->setTabKeyNavigation(false);
    // Uniform row heights from the font: a million rows scroll without measuring any.
    auto* vh = view->verticalHeader();
    vh->setSectionResizeMode(QHeaderView::Fixed);
    vh->setDefaultSectionSize(view->fontMetrics().height() + view->fontMetrics().height() / 3);
    // Column sizing looks at a bounded number of rows (QTableView asks the vertical header).
    vh->setResizeContentsPrecision(100);
    vh->hide();
    auto* hh = view->horizontalHeader();
    hh->setStretchLastSection(true);
    hh->setSectionsMovable(true);
    hh->setResizeContentsPrecision(200);
    hh->setDefaultSectionSize(view->fontMetrics().averageCharWidth() * 14);
    if (sortable) {
        hh->setSortIndicator(-1, Qt::AscendingOrder);
        view->setSortingEnabled(true);
    }
    return view;
}

void autoSize(QTableView* view)
{
    view->resizeColumnsToContents();
    const int maxWidth = view->fontMetrics().averageCharWidth() * 50;
    for (int c = 0; c < view->model()->columnCount(); ++c)
        if (view->columnWidth(c) > maxWidth)
            view->setColumnWidth(c, maxWidth);
}

QWidget* captioned(QWidget* parent, const QString& caption, QWidget* content)
{
    auto* w = new QWidget(parent);
    auto* l = new QVBoxLayout(w);
    l->setContentsMargins(0, 0, 0, 0);
    l->setSpacing(2);
    auto* label = new QLabel(caption, w);
    QFont f = label->font();
    f.setBold(true);
    label->setFont(f);
    label->setContentsMargins(4, 2, 4, 0);
    l->addWidget(label);
    l->addWidget(content, 1);
    return w;
}

QLineEdit* filterEdit(QWidget* parent, const QString& name, const QString& placeholder)
{
    auto* e = new QLineEdit(parent);
    e->setObjectName(name);
    e->setPlaceholderText(placeholder);
    e->setClearButtonEnabled(true);
    return e;
}
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

    createModelsAndViews();
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
        m_messageBar->hide();
        const auto snap = m_document->snapshot();
        QStringList names;
        for (const auto& p : snap->inputPaths)
            names << QFileInfo(toQString(p)).fileName();
        setWindowTitle(QStringLiteral("%1 — ptelens").arg(names.join(QStringLiteral(", "))));
        statusBar()->showMessage(QStringLiteral("Loaded %1").arg(names.join(QStringLiteral(", "))), 5000);
    });
    connect(m_document, &Document::loadFailed, this, [this](const pte::Error& error) {
        showMessage(toQString(error.toString()), true);
        m_diagnosticModel->append(pte::diagnosticOf(error));
    });
    connect(m_document, &Document::emitFinished, this, [this] {
        m_messageBar->hide();
        const auto count = m_document->snapshot()->program->executionPlan.size();
        statusBar()->showMessage(
            count == 1 ? QStringLiteral("Emitted 1 method") : QStringLiteral("Emitted %1 methods").arg(count), 5000);
    });
    connect(m_document, &Document::emitFailed, this, [this](const pte::Error& error) {
        showMessage(QStringLiteral("Emission failed: %1").arg(toQString(error.toString())), true);
        // The error's location stays: activating the diagnostic goes to the method and node it failed on.
        m_diagnosticModel->append(pte::diagnosticOf(error, "emitter"));
    });
    connect(m_document, &Document::saveFinished, this,
        [this](const QString& path) { statusBar()->showMessage(QStringLiteral("Saved %1").arg(path), 8000); });
    connect(m_document, &Document::saveFailed, this, [this](const pte::Error& error) {
        showMessage(QStringLiteral("Save failed: %1").arg(toQString(error.toString())), true);
    });
    connect(m_document, &Document::cancelled, this,
        [this] { statusBar()->showMessage(QStringLiteral("Cancelled"), 3000); });

    m_defaultState = saveState();
    QSettings settings;
    restoreGeometry(settings.value(QStringLiteral("window/geometry")).toByteArray());
    restoreState(settings.value(QStringLiteral("window/state")).toByteArray());
    rebuildRecentMenu();
    updateActions();
}

MainWindow::~MainWindow() = default;

void MainWindow::createModelsAndViews()
{
    m_methodModel = new MethodModel(this);
    m_inputModel = new SignatureModel(SignatureModel::Side::Inputs, this);
    m_outputModel = new SignatureModel(SignatureModel::Side::Outputs, this);
    m_instructionModel = new InstructionModel(this);
    m_instructionProxy = new InstructionFilterProxy(this);
    m_instructionProxy->setSourceModel(m_instructionModel);
    m_valueModel = new ValueModel(this);
    m_valueProxy = new TextFilterProxy(this);
    m_valueProxy->setSourceModel(m_valueModel);
    m_delegateModel = new DelegateModel(this);
    m_delegateIdModel = new DelegateDebugIdModel(this);
    m_namedDataModel = new NamedDataModel(this);
    m_sampleInputModel = new SampleInputModel(this);
    m_sizeModel = new SizeModel(this);
    m_sizeProxy = new TextFilterProxy(this);
    m_sizeProxy->setSourceModel(m_sizeModel);
    m_operatorModel = new OperatorModel(this);
    m_operatorProxy = new TextFilterProxy(this);
    m_operatorProxy->setSourceModel(m_operatorModel);
    m_diagnosticModel = new DiagnosticModel(this);
    m_diagnosticProxy = new TextFilterProxy(this);
    m_diagnosticProxy->setSourceModel(m_diagnosticModel);

    auto* methodProxy = new TextFilterProxy(this);
    methodProxy->setSourceModel(m_methodModel);
    m_methodsView = makeTable(this, QStringLiteral("methodsView"), methodProxy,
        QStringLiteral("No program open: open a .pte, a .pt2 archive, an exported-program JSON or an ETRecord "
                       "(Ctrl+O), or drop one on the window"));
    m_methodsView->setSelectionMode(QAbstractItemView::SingleSelection);
    connect(m_methodsView->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
        [this, methodProxy](const QModelIndex& current) {
            if (!current.isValid() || m_syncing)
                return;
            const QString name = m_methodModel->methodName(methodProxy->mapToSource(current).row());
            if (name != m_method)
                setCurrentMethod(name);
        });

    m_inputsView = makeTable(this, QStringLiteral("inputsView"), m_inputModel, QStringLiteral("No inputs"), false);
    m_outputsView = makeTable(this, QStringLiteral("outputsView"), m_outputModel, QStringLiteral("No outputs"), false);
    m_signaturePanel = new QSplitter(Qt::Vertical, this);
    static_cast<QSplitter*>(m_signaturePanel)
        ->addWidget(captioned(m_signaturePanel, QStringLiteral("Inputs"), m_inputsView));
    static_cast<QSplitter*>(m_signaturePanel)
        ->addWidget(captioned(m_signaturePanel, QStringLiteral("Outputs"), m_outputsView));
    // Sample inputs: a note (source, or why there are none) above the table.
    m_sampleInputsView = makeTable(
        this, QStringLiteral("sampleInputsView"), m_sampleInputModel, QStringLiteral("No sample inputs"), false);
    m_sampleInputsNote = new QLabel(this);
    m_sampleInputsNote->setObjectName(QStringLiteral("sampleInputsNote"));
    m_sampleInputsNote->setWordWrap(true);
    m_sampleInputsNote->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_sampleInputsNote->setContentsMargins(4, 0, 4, 0);
    connect(m_sampleInputModel, &SampleInputModel::noteChanged, m_sampleInputsNote, &QLabel::setText);
    auto* samples = new QWidget(this);
    auto* samplesLayout = new QVBoxLayout(samples);
    samplesLayout->setContentsMargins(0, 0, 0, 0);
    samplesLayout->setSpacing(2);
    samplesLayout->addWidget(m_sampleInputsNote);
    samplesLayout->addWidget(m_sampleInputsView, 1);
    static_cast<QSplitter*>(m_signaturePanel)
        ->addWidget(captioned(m_signaturePanel, QStringLiteral("Sample inputs"), samples));

    // Instructions: filter bar + table.
    m_instructionsPanel = new QWidget(this);
    auto* il = new QVBoxLayout(m_instructionsPanel);
    il->setContentsMargins(0, 0, 0, 0);
    il->setSpacing(2);
    auto* bar = new QHBoxLayout;
    bar->setContentsMargins(4, 2, 4, 0);
    m_instructionFilter = filterEdit(m_instructionsPanel, QStringLiteral("instructionFilter"),
        QStringLiteral("Filter: operator, kind, backend, id or debug handle (Ctrl+L)"));
    m_kindFilter = new QComboBox(m_instructionsPanel);
    m_kindFilter->setObjectName(QStringLiteral("kindFilter"));
    m_kindFilter->addItem(QStringLiteral("Any kind"), -1);
    for (int k = 1; k <= 5; ++k)
        m_kindFilter->addItem(QLatin1String(pte::instructionKindName(pte::InstructionKind(k))), k);
    m_operatorFilter = new QComboBox(m_instructionsPanel);
    m_operatorFilter->setObjectName(QStringLiteral("operatorFilter"));
    m_operatorFilter->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_backendFilter = new QComboBox(m_instructionsPanel);
    m_backendFilter->setObjectName(QStringLiteral("backendFilter"));
    m_backendFilter->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_kindFilter->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_handleFilter = filterEdit(m_instructionsPanel, QStringLiteral("handleFilter"), QStringLiteral("Debug handle"));
    m_handleFilter->setValidator(new QIntValidator(0, std::numeric_limits<int>::max(), m_handleFilter));
    m_handleFilter->setMaximumWidth(m_handleFilter->fontMetrics().averageCharWidth() * 16);
    m_instructionCount = new QLabel(m_instructionsPanel);
    m_instructionCount->setObjectName(QStringLiteral("instructionCount"));
    bar->addWidget(m_instructionFilter, 3);
    bar->addWidget(m_kindFilter);
    bar->addWidget(m_operatorFilter);
    bar->addWidget(m_backendFilter);
    bar->addWidget(m_handleFilter);
    bar->addWidget(m_instructionCount);
    il->addLayout(bar);
    m_instructionsView = makeTable(m_instructionsPanel, QStringLiteral("instructionsView"), m_instructionProxy,
        QString() /* updateEmptyTexts() */);
    il->addWidget(m_instructionsView, 1);
    m_filterTimer = new QTimer(this);
    m_filterTimer->setSingleShot(true);
    m_filterTimer->setInterval(120);
    connect(m_filterTimer, &QTimer::timeout, this,
        [this] { applyInstructionFilter([this] { m_instructionProxy->setFilterText(m_instructionFilter->text()); }); });
    connect(m_instructionFilter, &QLineEdit::textChanged, m_filterTimer, qOverload<>(&QTimer::start));
    connect(m_kindFilter, &QComboBox::currentIndexChanged, this, [this] {
        const int k = m_kindFilter->currentData().toInt();
        applyInstructionFilter([this, k] {
            m_instructionProxy->setKindFilter(k < 0 ? std::nullopt : std::optional(pte::InstructionKind(k)));
        });
    });
    connect(m_operatorFilter, &QComboBox::currentIndexChanged, this, [this] {
        applyInstructionFilter([this] {
            m_instructionProxy->setOperatorFilter(
                m_operatorFilter->currentIndex() > 0 ? m_operatorFilter->currentText() : QString());
        });
    });
    connect(m_backendFilter, &QComboBox::currentIndexChanged, this, [this] {
        applyInstructionFilter([this] {
            m_instructionProxy->setBackendFilter(
                m_backendFilter->currentIndex() > 0 ? m_backendFilter->currentText() : QString());
        });
    });
    connect(m_handleFilter, &QLineEdit::textChanged, this, [this](const QString& text) {
        bool ok = false;
        const qint64 h = text.toLongLong(&ok);
        applyInstructionFilter(
            [this, ok, h] { m_instructionProxy->setDebugHandleFilter(ok ? std::optional<qint64>(h) : std::nullopt); });
    });
    connect(m_instructionsView->selectionModel(), &QItemSelectionModel::selectionChanged, this,
        &MainWindow::onInstructionSelectionChanged);
    // Enter (or double-click) on an instruction: show its graph nodes and move the focus there.
    connect(m_instructionsView, &QAbstractItemView::activated, this, [this](const QModelIndex& index) {
        if (!index.isValid())
            return;
        raiseDock("graphDock");
        onInstructionSelectionChanged();
        m_graphPanel->view()->setFocus(Qt::OtherFocusReason);
    });

    // Values: filter + table + memory plan.
    auto* valuesSplit = new QSplitter(Qt::Vertical, this);
    auto* valuesTop = new QWidget(valuesSplit);
    auto* vl = new QVBoxLayout(valuesTop);
    vl->setContentsMargins(0, 0, 0, 0);
    vl->setSpacing(2);
    auto* valueFilter = filterEdit(valuesTop, QStringLiteral("valueFilter"), QStringLiteral("Filter values"));
    connect(valueFilter, &QLineEdit::textChanged, m_valueProxy, &TextFilterProxy::setFilterText);
    vl->addWidget(valueFilter);
    m_valuesView = makeTable(valuesTop, QStringLiteral("valuesView"), m_valueProxy, QString() /* updateEmptyTexts() */);
    vl->addWidget(m_valuesView, 1);
    m_memoryPlan = new MemoryPlanWidget(valuesSplit);
    m_memoryPlan->setObjectName(QStringLiteral("memoryPlan"));
    valuesSplit->addWidget(valuesTop);
    valuesSplit->addWidget(captioned(valuesSplit, QStringLiteral("Memory plan"), m_memoryPlan));
    m_valuesPanel = valuesSplit;

    // Delegates.
    m_delegatesView = makeTable(this, QStringLiteral("delegatesView"), m_delegateModel, QString(), false);
    m_delegateIdsView = makeTable(this, QStringLiteral("delegateIdsView"), m_delegateIdModel,
        QStringLiteral("No delegate debug identifiers in this method"), false);
    auto* delegatesSplit = new QSplitter(Qt::Vertical, this);
    delegatesSplit->addWidget(captioned(delegatesSplit, QStringLiteral("Delegates"), m_delegatesView));
    delegatesSplit->addWidget(
        captioned(delegatesSplit, QStringLiteral("Delegate debug identifiers"), m_delegateIdsView));
    m_namedDataView = makeTable(this, QStringLiteral("namedDataView"), m_namedDataModel,
        QStringLiteral("No named data: this method's lowered modules keep none"));
    m_namedDataView->setToolTip(QStringLiteral("Named data of the dump's lowered modules: stored in the .pte or "
                                               "in external .ptd files"));
    delegatesSplit->addWidget(captioned(delegatesSplit, QStringLiteral("Named data"), m_namedDataView));
    m_delegatesPanel = delegatesSplit;
    m_delegateIdsView->setToolTip(QStringLiteral("Select an identifier to select its graph nodes"));
    connect(m_delegateIdsView->selectionModel(), &QItemSelectionModel::selectionChanged, this,
        &MainWindow::onDelegateIdSelectionChanged);

    // Sizes.
    auto* sizesSplit = new QSplitter(Qt::Horizontal, this);
    m_sizeChart = new SizeChart(sizesSplit);
    m_sizeChart->setObjectName(QStringLiteral("sizeChart"));
    m_sizeChart->setModel(m_sizeModel);
    m_sizesView = makeTable(sizesSplit, QStringLiteral("sizesView"), m_sizeProxy, QString() /* updateEmptyTexts() */);
    sizesSplit->addWidget(m_sizeChart);
    sizesSplit->addWidget(m_sizesView);
    m_sizesPanel = sizesSplit;

    // Operators.
    m_operatorsPanel = new QWidget(this);
    auto* ol = new QVBoxLayout(m_operatorsPanel);
    ol->setContentsMargins(0, 0, 0, 0);
    ol->setSpacing(2);
    auto* opFilter =
        filterEdit(m_operatorsPanel, QStringLiteral("operatorTextFilter"), QStringLiteral("Filter operators"));
    connect(opFilter, &QLineEdit::textChanged, m_operatorProxy, &TextFilterProxy::setFilterText);
    ol->addWidget(opFilter);
    m_operatorsView = makeTable(
        m_operatorsPanel, QStringLiteral("operatorsView"), m_operatorProxy, QString() /* updateEmptyTexts() */);
    ol->addWidget(m_operatorsView, 1);

    m_diagnosticsView =
        makeTable(this, QStringLiteral("diagnosticsView"), m_diagnosticProxy, QStringLiteral("No problems found"));
    // The message (long) shows last, where the stretched column gives it the remaining width.
    m_diagnosticsView->horizontalHeader()->moveSection(
        DiagnosticModel::MessageColumn, DiagnosticModel::ColumnCount - 1);
    m_diagnosticsView->setToolTip(
        QStringLiteral("Double-click or press Enter to go to the instruction, value or node"));
    connect(m_diagnosticsView, &QAbstractItemView::activated, this, [this](const QModelIndex& index) {
        if (index.isValid())
            activateDiagnostic(m_diagnosticProxy->mapToSource(index).row());
    });

    m_graphPanel = new GraphPanel(this);
    m_graphPanel->setObjectName(QStringLiteral("graphPanel"));
    connect(m_graphPanel, &GraphPanel::nodesSelected, this, &MainWindow::onGraphSelectionChanged);
    // A new layout arrives after the selection was made: show the selected instruction in it.
    connect(m_graphPanel, &GraphPanel::layoutFinished, this, &MainWindow::onInstructionSelectionChanged);
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
    file->addSeparator();
    auto* quit = file->addAction(QStringLiteral("&Quit"), this, &QWidget::close);
    quit->setShortcut(QKeySequence::Quit);

    auto* edit = menuBar()->addMenu(QStringLiteral("&Edit"));
    m_copyTextAction = edit->addAction(QStringLiteral("&Copy Rows as Text"), this, [this] { copySelection(false); });
    m_copyTextAction->setShortcut(QKeySequence::Copy);
    m_copyTextAction->setObjectName(QStringLiteral("copyTextAction"));
    m_copyJsonAction = edit->addAction(QStringLiteral("Copy Rows as &JSON"), this, [this] { copySelection(true); });
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
        m_instructionFilter->setFocus(Qt::ShortcutFocusReason);
        m_instructionFilter->selectAll();
    });
    filter->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_L));

    auto* program = menuBar()->addMenu(QStringLiteral("&Program"));
    m_emitAction = program->addAction(themedIcon(QStringLiteral("system-run"), IconKind::Emit),
        QStringLiteral("&Emit…"), this, &MainWindow::emitDialog);
    m_emitAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_E));
    m_emitAction->setObjectName(QStringLiteral("emitAction"));
    m_emitAction->setToolTip(QStringLiteral("Emit the graph-dump methods into an ExecuTorch program (Ctrl+E)"));
    m_cancelAction = program->addAction(themedIcon(QStringLiteral("process-stop"), IconKind::Cancel),
        QStringLiteral("&Cancel"), m_document, &Document::cancel);
    m_cancelAction->setShortcut(QKeySequence(Qt::Key_Escape));
    m_cancelAction->setObjectName(QStringLiteral("cancelAction"));

    m_viewMenu = menuBar()->addMenu(QStringLiteral("&View"));

    auto* help = menuBar()->addMenu(QStringLiteral("&Help"));
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
    tools->addAction(m_cancelAction);

    // Message bar: non-modal errors above the views.
    auto* messageTools = new QToolBar(QStringLiteral("Messages"), this);
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
    connect(close, &QToolButton::clicked, messageTools, &QWidget::hide);
    m_messageBar->hide();
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

QDockWidget* MainWindow::addDock(QWidget* widget, const QString& title, const QString& name, Qt::DockWidgetArea area)
{
    auto* dock = new QDockWidget(title, this);
    dock->setObjectName(name);
    dock->setWidget(widget);
    addDockWidget(area, dock);
    m_viewMenu->addAction(dock->toggleViewAction());
    return dock;
}

void MainWindow::createDocks()
{
    auto* methods =
        addDock(m_methodsView, QStringLiteral("Methods"), QStringLiteral("methodsDock"), Qt::LeftDockWidgetArea);
    auto* signature =
        addDock(m_signaturePanel, QStringLiteral("Signature"), QStringLiteral("signatureDock"), Qt::LeftDockWidgetArea);
    auto* graph = addDock(m_graphPanel, QStringLiteral("Graph"), QStringLiteral("graphDock"), Qt::RightDockWidgetArea);
    auto* instructions = addDock(m_instructionsPanel, QStringLiteral("Instructions"),
        QStringLiteral("instructionsDock"), Qt::BottomDockWidgetArea);
    auto* values =
        addDock(m_valuesPanel, QStringLiteral("Values"), QStringLiteral("valuesDock"), Qt::BottomDockWidgetArea);
    auto* delegates = addDock(
        m_delegatesPanel, QStringLiteral("Delegates"), QStringLiteral("delegatesDock"), Qt::BottomDockWidgetArea);
    auto* sizes = addDock(m_sizesPanel, QStringLiteral("Sizes"), QStringLiteral("sizesDock"), Qt::BottomDockWidgetArea);
    auto* operators = addDock(
        m_operatorsPanel, QStringLiteral("Operators"), QStringLiteral("operatorsDock"), Qt::BottomDockWidgetArea);
    auto* diagnostics = addDock(
        m_diagnosticsView, QStringLiteral("Diagnostics"), QStringLiteral("diagnosticsDock"), Qt::BottomDockWidgetArea);
    splitDockWidget(methods, signature, Qt::Vertical);
    tabifyDockWidget(instructions, values);
    tabifyDockWidget(values, delegates);
    tabifyDockWidget(delegates, sizes);
    tabifyDockWidget(sizes, operators);
    tabifyDockWidget(operators, diagnostics);
    instructions->raise();
    const auto fm = fontMetrics();
    resizeDocks({ methods, graph }, { fm.averageCharWidth() * 55, fm.averageCharWidth() * 140 }, Qt::Horizontal);
    resizeDocks({ graph, instructions }, { fm.lineSpacing() * 26, fm.lineSpacing() * 18 }, Qt::Vertical);
    resize(fm.averageCharWidth() * 200, fm.lineSpacing() * 50);

    // Ctrl+1..9 bring a dock to the front and focus its main view. (Not focus proxies: a container proxying
    // to its own descendant reorders the focus chain, and Tab then cycles inside the dock.)
    const QList<std::pair<QDockWidget*, QWidget*>> docks { { methods, m_methodsView }, { signature, m_outputsView },
        { graph, m_graphPanel->view() }, { instructions, m_instructionsView }, { values, m_valuesView },
        { delegates, m_delegatesView }, { sizes, m_sizesView }, { operators, m_operatorsView },
        { diagnostics, m_diagnosticsView } };
    m_viewMenu->addSeparator();
    for (int i = 0; i < docks.size(); ++i) {
        auto [dock, target] = docks[i];
        auto* a = m_viewMenu->addAction(QStringLiteral("Go to %1").arg(dock->windowTitle()), this, [dock, target] {
            dock->show();
            dock->raise();
            target->setFocus(Qt::ShortcutFocusReason);
        });
        a->setShortcut(QKeySequence(Qt::CTRL | Qt::Key(Qt::Key_1 + i)));
    }
    m_viewMenu->addSeparator();
    m_viewMenu->addAction(QStringLiteral("&Reset Layout"), this, [this] { restoreState(m_defaultState); });
}

void MainWindow::openFiles(const QStringList& paths)
{
    QStringList existing;
    for (const auto& p : paths)
        existing << QFileInfo(p).absoluteFilePath();
    if (existing.isEmpty())
        return;
    addRecentFiles(existing);
    m_document->open(existing, false);
}

void MainWindow::addFiles(const QStringList& paths)
{
    QStringList existing;
    for (const auto& p : paths)
        existing << QFileInfo(p).absoluteFilePath();
    if (!existing.isEmpty())
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

void MainWindow::addRecentFiles(const QStringList& paths)
{
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
    for (const QString& entry : recent) {
        const QStringList files = entry.split(QLatin1Char('\n'));
        QStringList names;
        for (const auto& f : files)
            names << QFileInfo(f).fileName();
        auto* a = m_recentMenu->addAction(names.join(QStringLiteral(" + ")), this, [this, files] { openFiles(files); });
        a->setToolTip(files.join(QLatin1Char('\n')));
    }
    m_recentMenu->setEnabled(!recent.isEmpty());
}

void MainWindow::onSnapshotChanged()
{
    const auto snap = m_document->snapshot();
    m_syncing = true;
    m_methodModel->setSnapshot(snap);
    m_sizeModel->setSnapshot(snap);
    m_operatorModel->setSnapshot(snap);
    m_diagnosticModel->setDiagnostics(snap ? snap->diagnostics : pte::Diagnostics {});
    m_syncing = false;
    autoSize(m_methodsView);
    autoSize(m_sizesView);
    autoSize(m_operatorsView);
    autoSize(m_diagnosticsView);
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
    if (snap && hasErrors(snap->diagnostics)) {
        int errors = 0;
        for (const auto& d : snap->diagnostics)
            errors += d.severity == pte::Severity::Error ? 1 : 0;
        showMessage(QStringLiteral("%1 error(s): the ExecuTorch runtime would refuse this program. See Diagnostics.")
                        .arg(errors),
            true);
    }
    updateActions();
}

void MainWindow::updateEmptyTexts()
{
    // The program views are empty for three reasons, and each gets its own words.
    const auto snap = m_document->snapshot();
    const bool program = snap && snap->program;
    const bool dumpOnly = snap && !snap->program && !snap->dumpMethods.empty();
    const QString notEmitted = QStringLiteral("Not emitted yet: emit the graph dump (Ctrl+E)");
    auto text = [&](QTableView* view, const QString& withProgram) {
        if (auto* t = qobject_cast<TableView*>(view))
            t->setEmptyText(program ? withProgram : dumpOnly ? notEmitted : QString());
    };
    text(m_instructionsView, QStringLiteral("No instruction matches the filters"));
    text(m_valuesView, QStringLiteral("No value matches the filter"));
    text(m_delegatesView, QStringLiteral("No delegate calls in this method"));
    text(m_sizesView, QStringLiteral("Nothing to measure"));
    text(m_operatorsView, QStringLiteral("No operator matches the filter"));
}

void MainWindow::setCurrentMethod(const QString& method)
{
    const auto snap = m_document->snapshot();
    m_method = method;
    m_syncing = true;
    m_inputModel->setMethod(snap, method);
    m_outputModel->setMethod(snap, method);
    m_instructionModel->setMethod(snap, method);
    m_valueModel->setMethod(snap, method);
    m_delegateModel->setMethod(snap, method);
    m_delegateIdModel->setMethod(snap, method);
    m_namedDataModel->setMethod(snap, method);
    m_sampleInputModel->setMethod(snap, method);
    const MethodEntry* entry = snap ? snap->method(method.toStdString()) : nullptr;
    m_memoryPlan->setPlan(entry ? memoryPlanFor(*entry) : std::vector<pte::PlannedTensor> {},
        entry && entry->plan ? entry->plan->nonConstBufferSizes : std::vector<std::int64_t> {});
    m_graphPanel->setMethod(snap, method);
    updateEmptyTexts();
    const int row = m_methodModel->rowOf(method);
    auto* proxy = static_cast<QSortFilterProxyModel*>(m_methodsView->model());
    if (row >= 0)
        m_methodsView->setCurrentIndex(proxy->mapFromSource(m_methodModel->index(row, 0)));
    m_syncing = false;
    updateInstructionFilters();
    for (auto* v : { m_inputsView, m_outputsView, m_sampleInputsView, m_instructionsView, m_valuesView, m_delegatesView,
             m_delegateIdsView, m_namedDataView })
        autoSize(v);
    // Sizing sampled the first rows; the ids further down are longer.
    const QString widestId(QString::number(m_instructionModel->rowCount()).size() + 1, QLatin1Char('0'));
    const int idWidth = m_instructionsView->fontMetrics().horizontalAdvance(widestId)
        + 2 * m_instructionsView->fontMetrics().averageCharWidth();
    if (m_instructionsView->columnWidth(InstructionModel::IdColumn) < idWidth)
        m_instructionsView->setColumnWidth(InstructionModel::IdColumn, idWidth);
    updateInstructionCount();
    fitSignaturePanes();
    // Again once the docks have their final size (the first snapshot arrives before the first layout).
    QTimer::singleShot(0, this, &MainWindow::fitSignaturePanes);
}

void MainWindow::fitSignaturePanes()
{
    // The sample table only shows when there are samples; the note says why otherwise.
    m_sampleInputsView->setVisible(m_sampleInputModel->rowCount() > 0);
    // Split the Signature and Delegates docks by what each pane needs (rows, header, caption), so short
    // tables do not leave empty space while a longer one scrolls. QSplitter scales the sizes to the space
    // there is.
    const int row = m_inputsView->verticalHeader()->defaultSectionSize();
    const int caption = fontMetrics().lineSpacing() + 4;
    auto tableHeight = [&](QTableView* v) {
        return v->horizontalHeader()->sizeHint().height() + std::max(1, v->model()->rowCount()) * row
            + 2 * v->frameWidth() + row / 2;
    };
    for (auto* v :
        { m_inputsView, m_outputsView, m_sampleInputsView, m_delegatesView, m_delegateIdsView, m_namedDataView })
        v->setMinimumHeight(v->horizontalHeader()->sizeHint().height() + row + 2 * v->frameWidth());
    auto* split = static_cast<QSplitter*>(m_signaturePanel);
    const int noteHeight = m_sampleInputsNote->text().isEmpty()
        ? 0
        : m_sampleInputsNote->heightForWidth(std::max(split->width(), fontMetrics().averageCharWidth() * 40));
    int samples = caption + noteHeight;
    if (m_sampleInputModel->rowCount() > 0)
        samples += tableHeight(m_sampleInputsView);
    split->setSizes({ caption + tableHeight(m_inputsView), caption + tableHeight(m_outputsView), samples });
    static_cast<QSplitter*>(m_delegatesPanel)
        ->setSizes({ caption + tableHeight(m_delegatesView), caption + tableHeight(m_delegateIdsView),
            caption + tableHeight(m_namedDataView) });
}

void MainWindow::updateInstructionFilters()
{
    const QSignalBlocker b1(m_operatorFilter);
    const QSignalBlocker b2(m_backendFilter);
    m_operatorFilter->clear();
    m_operatorFilter->addItem(QStringLiteral("Any operator"));
    QStringList ops = m_instructionModel->operatorNames();
    ops.removeDuplicates();
    ops.sort();
    m_operatorFilter->addItems(ops);
    m_backendFilter->clear();
    m_backendFilter->addItem(QStringLiteral("Any backend"));
    m_backendFilter->addItems(m_instructionModel->backends());
    m_instructionProxy->setOperatorFilter({});
    m_instructionProxy->setBackendFilter({});
}

void MainWindow::applyInstructionFilter(const std::function<void()>& change)
{
    // Filter changes reset the proxy; keep the current instruction selected when it stays visible.
    const QModelIndex current = m_instructionProxy->mapToSource(m_instructionsView->currentIndex());
    change();
    if (current.isValid()) {
        const QModelIndex again = m_instructionProxy->mapFromSource(m_instructionModel->index(current.row(), 0));
        if (again.isValid()) {
            m_instructionsView->selectionModel()->setCurrentIndex(
                again, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
            m_instructionsView->scrollTo(again, QAbstractItemView::PositionAtCenter);
        }
    }
    updateInstructionCount();
}

void MainWindow::updateInstructionCount()
{
    const int total = m_instructionModel->rowCount();
    const int shown = m_instructionProxy->rowCount();
    m_instructionCount->setText(shown == total ? QStringLiteral("%1 instructions").arg(total)
                                               : QStringLiteral("%1 of %2 instructions").arg(shown).arg(total));
}

void MainWindow::selectInstruction(int sourceRow)
{
    const QModelIndex proxyIndex = m_instructionProxy->mapFromSource(m_instructionModel->index(sourceRow, 0));
    if (!proxyIndex.isValid())
        return;
    m_instructionsView->selectionModel()->setCurrentIndex(
        proxyIndex, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    m_instructionsView->scrollTo(proxyIndex);
}

void MainWindow::onInstructionSelectionChanged()
{
    if (m_syncing)
        return;
    const auto rows = m_instructionsView->selectionModel()->selectedRows();
    if (rows.isEmpty())
        return;
    m_syncing = true;
    std::vector<std::int64_t> handles;
    QStringList names;
    std::vector<std::int32_t> values;
    int instruction = -1;
    for (const auto& r : rows) {
        const int src = m_instructionProxy->mapToSource(r).row();
        const auto& info = m_instructionModel->rowInfo(src);
        if (instruction < 0 && info.chain == 0)
            instruction = int(info.index);
        if (info.handles)
            handles.insert(handles.end(), info.handles->begin(), info.handles->end());
        if (info.delegateEntry)
            for (const auto& [id, hs] : info.delegateEntry->delegateMap)
                handles.insert(handles.end(), hs.begin(), hs.end());
        names << m_instructionModel->nodeNames(src);
        const auto ids = m_instructionModel->valueIds(src);
        values.insert(values.end(), ids.begin(), ids.end());
    }
    m_graphPanel->selectFor(rows.size() == 1 ? instruction : -1, names, handles);
    // Values the instruction uses.
    QItemSelection selection;
    for (const auto v : values) {
        if (v < 0 || v >= m_valueModel->rowCount())
            continue;
        const QModelIndex idx = m_valueProxy->mapFromSource(m_valueModel->index(v, 0));
        if (idx.isValid())
            selection.select(idx, idx);
    }
    m_valuesView->selectionModel()->select(selection, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    if (!selection.isEmpty())
        m_valuesView->scrollTo(selection.indexes().front());
    m_memoryPlan->setHighlightedValues(values);
    m_syncing = false;
}

void MainWindow::onGraphSelectionChanged()
{
    if (m_syncing)
        return;
    const auto nodes = m_graphPanel->selectedNodes();
    if (nodes.empty())
        return;
    const GraphData& g = m_graphPanel->graph();
    std::vector<int> rows;
    QStringList names;
    std::vector<std::int64_t> handles;
    for (const int n : nodes) {
        const GraphNode& node = g.nodes[std::size_t(n)];
        if (node.instruction >= 0) {
            const int row = m_instructionModel->rowOfInstruction(node.instruction);
            if (row >= 0)
                rows.push_back(row);
        } else if (node.firstInstruction >= 0) {
            for (int i = node.firstInstruction; i <= node.lastInstruction; ++i)
                if (const int row = m_instructionModel->rowOfInstruction(i); row >= 0)
                    rows.push_back(row);
        }
        if (!g.instructionGraph) {
            names << node.members;
            handles.insert(handles.end(), node.debugHandles.begin(), node.debugHandles.end());
        }
    }
    if (!g.instructionGraph) {
        const auto more = m_instructionModel->rowsFor(names, handles);
        rows.insert(rows.end(), more.begin(), more.end());
    }
    m_syncing = true;
    QItemSelection selection;
    for (const int row : rows) {
        const QModelIndex idx = m_instructionProxy->mapFromSource(m_instructionModel->index(row, 0));
        if (idx.isValid())
            selection.select(idx, idx);
    }
    m_instructionsView->selectionModel()->select(
        selection, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    if (!selection.isEmpty())
        m_instructionsView->scrollTo(selection.indexes().front());
    m_syncing = false;
}

void MainWindow::onDelegateIdSelectionChanged()
{
    if (m_syncing)
        return;
    const auto rows = m_delegateIdsView->selectionModel()->selectedRows();
    if (rows.isEmpty())
        return;
    QStringList names;
    std::vector<std::int64_t> handles;
    for (const auto& r : rows) {
        names << m_delegateIdModel->edgeNodesOf(r.row());
        const auto hs = m_delegateIdModel->handlesOf(r.row());
        handles.insert(handles.end(), hs.begin(), hs.end());
    }
    // Instruction graphs (a .pte without its dump) show the delegate call itself.
    const int instruction = rows.size() == 1 && m_graphPanel->graph().instructionGraph
        ? int(m_delegateIdModel->instructionOf(rows.front().row()))
        : -1;
    m_syncing = true;
    m_graphPanel->selectFor(instruction, names, handles);
    m_syncing = false;
}

void MainWindow::raiseDock(const char* name)
{
    if (auto* dock = findChild<QDockWidget*>(QLatin1String(name))) {
        dock->show();
        dock->raise();
    }
}

void MainWindow::clearInstructionFilters()
{
    const QSignalBlocker b1(m_instructionFilter);
    const QSignalBlocker b2(m_kindFilter);
    const QSignalBlocker b3(m_operatorFilter);
    const QSignalBlocker b4(m_backendFilter);
    const QSignalBlocker b5(m_handleFilter);
    m_filterTimer->stop();
    m_instructionFilter->clear();
    m_kindFilter->setCurrentIndex(0);
    m_operatorFilter->setCurrentIndex(0);
    m_backendFilter->setCurrentIndex(0);
    m_handleFilter->clear();
    m_instructionProxy->setFilterText({});
    m_instructionProxy->setKindFilter(std::nullopt);
    m_instructionProxy->setOperatorFilter({});
    m_instructionProxy->setBackendFilter({});
    m_instructionProxy->setDebugHandleFilter(std::nullopt);
    updateInstructionCount();
}

bool MainWindow::activateDiagnostic(int row)
{
    const auto snap = m_document->snapshot();
    const auto& diagnostics = m_diagnosticModel->diagnostics();
    if (!snap || row < 0 || row >= int(diagnostics.size()))
        return false;
    const DiagnosticTarget target = resolveDiagnostic(*snap, diagnostics[std::size_t(row)]);
    if (!target.isValid() || !snap->method(target.method.toStdString()))
        return false;
    if (target.method != m_method)
        setCurrentMethod(target.method);
    if (target.instruction >= 0) {
        const int source = m_instructionModel->rowOf(target.chain, target.instruction);
        if (source < 0)
            return false;
        if (!m_instructionProxy->mapFromSource(m_instructionModel->index(source, 0)).isValid())
            clearInstructionFilters();
        raiseDock("instructionsDock");
        selectInstruction(source);
        m_instructionsView->setFocus(Qt::OtherFocusReason);
    } else if (target.value >= 0) {
        if (target.value >= m_valueModel->rowCount())
            return false;
        QModelIndex idx = m_valueProxy->mapFromSource(m_valueModel->index(target.value, 0));
        if (!idx.isValid()) {
            if (auto* edit = findChild<QLineEdit*>(QStringLiteral("valueFilter")))
                edit->clear();
            idx = m_valueProxy->mapFromSource(m_valueModel->index(target.value, 0));
        }
        raiseDock("valuesDock");
        m_valuesView->selectionModel()->setCurrentIndex(
            idx, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
        m_valuesView->scrollTo(idx, QAbstractItemView::PositionAtCenter);
        m_valuesView->setFocus(Qt::OtherFocusReason);
    } else if (!target.nodes.isEmpty()) {
        raiseDock("graphDock");
        m_syncing = true;
        m_graphPanel->selectFor(-1, target.nodes, {});
        m_syncing = false;
    }
    statusBar()->showMessage(QStringLiteral("Diagnostic %1 → %2").arg(row + 1).arg(target.method), 4000);
    return true;
}

void MainWindow::updateActions()
{
    const bool busy = m_document->isBusy();
    m_emitAction->setEnabled(m_document->canEmit());
    m_saveAction->setEnabled(m_document->canSave());
    m_exportMapsAction->setEnabled(!busy && m_document->hasDebugMaps());
    m_cancelAction->setEnabled(busy);
    m_addAction->setEnabled(!busy);
}

void MainWindow::showMessage(const QString& text, bool error)
{
    QPalette pal = m_messageBar->palette();
    pal.setColor(QPalette::Window, error ? QColor(0xfd, 0xe4, 0xe4) : QColor(0xe4, 0xf0, 0xfd));
    pal.setColor(QPalette::WindowText, QColor(0x30, 0x20, 0x20));
    m_messageBar->setPalette(pal);
    m_messageText->setText(text);
    m_messageBar->show();
    if (auto* bar = findChild<QToolBar*>(QStringLiteral("messageToolBar")))
        bar->show();
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

void MainWindow::saveTo(const QString& path)
{
    pte::WriteOptions options;
    if (m_lastEmitSettings)
        options = m_lastEmitSettings->serialize.write;
    m_document->save(path, options);
}

void MainWindow::saveDialog()
{
    if (!m_document->canSave())
        return;
    QSettings settings;
    QString suggestion = settings.value(QStringLiteral("lastDirectory")).toString();
    const QString path = QFileDialog::getSaveFileName(
        this, QStringLiteral("Save ExecuTorch program"), suggestion, QStringLiteral("ExecuTorch programs (*.pte)"));
    if (path.isEmpty())
        return;
    if (m_document->isInputFile(path)) {
        QMessageBox::warning(this, QStringLiteral("Save"),
            QStringLiteral("%1 is one of the opened files. ptelens never overwrites its inputs; choose another name.")
                .arg(path));
        return;
    }
    // QFileDialog already asked before overwriting an existing file.
    saveTo(path);
}

bool MainWindow::exportDebugMapsTo(const QString& path, QString* error)
{
    return m_document->exportDebugMaps(path, error);
}

void MainWindow::exportDebugMapsDialog()
{
    const QString path = QFileDialog::getSaveFileName(
        this, QStringLiteral("Export debug maps"), QString(), QStringLiteral("JSON (*.json)"));
    if (path.isEmpty())
        return;
    QString error;
    if (!exportDebugMapsTo(path, &error))
        showMessage(error, true);
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
    const int columns = model->columnCount();
    QStringList headers;
    for (int c = 0; c < columns; ++c)
        headers << model->headerData(c, Qt::Horizontal).toString();
    if (json) {
        QJsonArray array;
        for (const auto& r : rows) {
            QJsonObject obj;
            for (int c = 0; c < columns; ++c) {
                const QModelIndex idx = model->index(r.row(), c);
                obj.insert(headers[c], QJsonValue::fromVariant(idx.data(Qt::DisplayRole)));
            }
            array.append(obj);
        }
        return QString::fromUtf8(QJsonDocument(array).toJson(QJsonDocument::Indented));
    }
    QString text = headers.join(QLatin1Char('\t')) + QLatin1Char('\n');
    for (const auto& r : rows) {
        QStringList cells;
        for (int c = 0; c < columns; ++c)
            cells << model->index(r.row(), c).data().toString();
        text += cells.join(QLatin1Char('\t')) + QLatin1Char('\n');
    }
    return text;
}

void MainWindow::copySelection(bool json)
{
    QWidget* focus = QApplication::focusWidget();
    auto* view = qobject_cast<QAbstractItemView*>(focus);
    if (!view) {
        if (auto* edit = qobject_cast<QLineEdit*>(focus); edit && !json) {
            edit->copy();
            return;
        }
        view = m_instructionsView;
    }
    const QString text = selectedRowsText(view, json);
    if (!text.isEmpty())
        QApplication::clipboard()->setText(text);
}

void MainWindow::closeEvent(QCloseEvent* event)
{
    QSettings settings;
    settings.setValue(QStringLiteral("window/geometry"), saveGeometry());
    settings.setValue(QStringLiteral("window/state"), saveState());
    m_document->cancel();
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
