// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "views/diffwindow.h"

#include "models/diffconstantmodel.h"
#include "models/diffdelegatemodel.h"
#include "models/differencemodel.h"
#include "models/diffinstructionmodel.h"
#include "models/diffstatus.h"
#include "models/text.h"
#include "models/textfilterproxy.h"
#include "views/graphpanel.h"
#include "views/viewparts.h"
#include "widgets/graphview.h"
#include "widgets/tableview.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QKeySequence>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QScopedValueRollback>
#include <QScrollBar>
#include <QShortcut>
#include <QSplitter>
#include <QStatusBar>
#include <QStyle>
#include <QTabWidget>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>
#include <unordered_map>

namespace pte::ui {

namespace {

/** The strongest status of several (changed over inserted/removed over same, as the row colours go). */
pte::DiffStatus combine(pte::DiffStatus a, pte::DiffStatus b) { return a == pte::DiffStatus::Same ? b : a; }

/** Narrows an instruction table's Arguments column (not below 24 characters) so that its Status column is in view. */
void keepStatusInView(QTableView* view)
{
    const int available = view->viewport()->width();
    if (available <= 0)
        return;
    int total = 0;
    for (int c = 0; c < DiffInstructionModel::ColumnCount; ++c)
        total += view->columnWidth(c);
    const int excess = total - available;
    const int arguments = view->columnWidth(DiffInstructionModel::ArgumentsColumn);
    const int least = view->fontMetrics().averageCharWidth() * 24;
    if (excess > 0 && arguments > least)
        view->setColumnWidth(DiffInstructionModel::ArgumentsColumn, std::max(least, arguments - excess));
}

} // namespace

DiffWindow::DiffWindow(QWidget* parent)
    : QMainWindow(parent)
{
    setObjectName(QStringLiteral("diffWindow"));
    setWindowTitle(QStringLiteral("Compare — ptelens"));
    m_comparison = new Comparison(this);
    m_modelA = new DiffInstructionModel(DiffInstructionModel::Side::A, this);
    m_modelB = new DiffInstructionModel(DiffInstructionModel::Side::B, this);
    m_differences = new DifferenceModel(this);
    m_constants = new DiffConstantModel(this);
    m_delegates = new DiffDelegateModel(this);

    auto* central = new QWidget(this);
    auto* layout = new QVBoxLayout(central);
    layout->setContentsMargins(4, 4, 4, 4);

    auto* bar = new QHBoxLayout;
    auto* sides = new QVBoxLayout;
    m_labelA = new QLabel(central);
    m_labelA->setObjectName(QStringLiteral("diffLabelA"));
    m_labelB = new QLabel(central);
    m_labelB->setObjectName(QStringLiteral("diffLabelB"));
    for (auto* l : { m_labelA, m_labelB }) {
        l->setTextInteractionFlags(Qt::TextSelectableByMouse);
        sides->addWidget(l);
    }
    bar->addLayout(sides, 1);
    bar->addWidget(new QLabel(QStringLiteral("Method:"), central));
    m_methods = new QComboBox(central);
    m_methods->setObjectName(QStringLiteral("diffMethod"));
    m_methods->setMinimumContentsLength(24);
    bar->addWidget(m_methods);
    m_strict = new QCheckBox(QStringLiteral("Strict"), central);
    m_strict->setObjectName(QStringLiteral("diffStrict"));
    m_strict->setToolTip(QStringLiteral(
        "Also report value, constant, operator and delegate numbering, segment layout and fields the runtime does "
        "not read"));
    bar->addWidget(m_strict);
    m_progress = new QProgressBar(central);
    m_progress->setMaximumWidth(160);
    m_progress->hide();
    bar->addWidget(m_progress);
    m_cancel = new QToolButton(central);
    m_cancel->setText(QStringLiteral("Cancel"));
    m_cancel->hide();
    bar->addWidget(m_cancel);
    layout->addLayout(bar);

    auto* vertical = new QSplitter(Qt::Vertical, central);
    m_summary = new QPlainTextEdit(vertical);
    m_summary->setObjectName(QStringLiteral("diffSummary"));
    m_summary->setReadOnly(true);
    m_summary->setMaximumBlockCount(200);
    m_summary->setMaximumHeight(m_summary->fontMetrics().lineSpacing() * 7);
    vertical->addWidget(captioned(vertical, QStringLiteral("Summary"), m_summary));

    auto* horizontal = new QSplitter(Qt::Horizontal, vertical);
    m_tableA = makeTable(horizontal, QStringLiteral("diffTableA"), m_modelA, QStringLiteral("No instructions"), false);
    m_tableB = makeTable(horizontal, QStringLiteral("diffTableB"), m_modelB, QStringLiteral("No instructions"), false);
    for (auto* t : { m_tableA, m_tableB }) {
        t->setAlternatingRowColors(false);
        t->horizontalHeader()->setSectionsMovable(false);
    }
    horizontal->addWidget(captioned(horizontal, QStringLiteral("A"), m_tableA));
    horizontal->addWidget(captioned(horizontal, QStringLiteral("B"), m_tableB));
    vertical->addWidget(horizontal);

    m_tabs = new QTabWidget(vertical);
    m_tabs->setObjectName(QStringLiteral("diffTabs"));
    auto* differencesPage = new QWidget(m_tabs);
    auto* dl = new QVBoxLayout(differencesPage);
    dl->setContentsMargins(0, 2, 0, 0);
    auto* filter = filterEdit(differencesPage, QStringLiteral("diffFilter"), QStringLiteral("Filter differences"));
    dl->addWidget(filter);
    auto* proxy = new TextFilterProxy(this);
    proxy->setSourceModel(m_differences);
    connect(filter, &QLineEdit::textChanged, proxy, &TextFilterProxy::setFilterText);
    m_differencesView =
        makeTable(differencesPage, QStringLiteral("diffDifferences"), proxy, QStringLiteral("No differences"));
    dl->addWidget(m_differencesView);
    m_tabs->addTab(differencesPage, QStringLiteral("Differences"));
    auto addTable = [this](const QString& name, QAbstractItemModel* model, const QString& title, const QString& empty) {
        auto* p = new TextFilterProxy(this);
        p->setSourceModel(model);
        auto* view = makeTable(m_tabs, name, p, empty);
        m_tabs->addTab(view, title);
        return view;
    };
    m_constantsView = addTable(
        QStringLiteral("diffConstants"), m_constants, QStringLiteral("Constants"), QStringLiteral("No constants"));
    m_delegatesView = addTable(
        QStringLiteral("diffDelegates"), m_delegates, QStringLiteral("Delegates"), QStringLiteral("No delegates"));
    auto* graphs = new QSplitter(Qt::Horizontal, m_tabs);
    m_graphA = new GraphPanel(graphs);
    m_graphA->setObjectName(QStringLiteral("diffGraphA"));
    m_graphB = new GraphPanel(graphs);
    m_graphB->setObjectName(QStringLiteral("diffGraphB"));
    graphs->addWidget(captioned(graphs, QStringLiteral("A"), m_graphA));
    graphs->addWidget(captioned(graphs, QStringLiteral("B"), m_graphB));
    m_tabs->addTab(graphs, QStringLiteral("Graphs"));
    vertical->addWidget(m_tabs);
    vertical->setStretchFactor(0, 1);
    vertical->setStretchFactor(1, 5);
    vertical->setStretchFactor(2, 3);
    layout->addWidget(vertical, 1);
    setCentralWidget(central);
    resize(1500, 950);

    // The two tables scroll together, row for row.
    connect(
        m_tableA->verticalScrollBar(), &QScrollBar::valueChanged, m_tableB->verticalScrollBar(), &QScrollBar::setValue);
    connect(
        m_tableB->verticalScrollBar(), &QScrollBar::valueChanged, m_tableA->verticalScrollBar(), &QScrollBar::setValue);
    connect(m_tableA->selectionModel(), &QItemSelectionModel::selectionChanged, this, [this] { onRowsSelected(true); });
    connect(
        m_tableB->selectionModel(), &QItemSelectionModel::selectionChanged, this, [this] { onRowsSelected(false); });
    connect(m_graphA, &GraphPanel::nodesSelected, this, [this] { onGraphSelection(true); });
    connect(m_graphB, &GraphPanel::nodesSelected, this, [this] { onGraphSelection(false); });
    connect(m_graphA, &GraphPanel::layoutFinished, this, [this] { colourGraph(true); });
    connect(m_graphB, &GraphPanel::layoutFinished, this, [this] { colourGraph(false); });
    connect(m_differencesView, &QAbstractItemView::activated, this,
        [this, proxy](const QModelIndex& index) { activateDifference(proxy->mapToSource(index).row()); });
    connect(m_methods, &QComboBox::activated, this, &DiffWindow::setMethodIndex);
    connect(m_strict, &QCheckBox::toggled, this, [this](bool strict) {
        pte::DiffOptions options;
        options.strict = strict;
        m_comparison->recompare(options);
    });
    connect(m_cancel, &QToolButton::clicked, m_comparison, &Comparison::cancel);
    auto* close = new QShortcut(QKeySequence::Close, this);
    connect(close, &QShortcut::activated, this, &QWidget::close);

    connect(m_comparison, &Comparison::busyChanged, this, [this](bool busy) {
        m_progress->setVisible(busy);
        m_cancel->setVisible(busy);
        m_strict->setEnabled(!busy);
    });
    connect(m_comparison, &Comparison::progressChanged, this, [this](int percent, const QString& text) {
        m_progress->setRange(0, percent < 0 ? 0 : 100);
        if (percent >= 0)
            m_progress->setValue(percent);
        statusBar()->showMessage(text);
    });
    connect(m_comparison, &Comparison::finished, this, &DiffWindow::onFinished);
    connect(m_comparison, &Comparison::failed, this, [this](const QString& message) {
        statusBar()->showMessage(QStringLiteral("Comparison failed"));
        m_summary->setPlainText(QStringLiteral("The comparison failed: ") + message);
    });
    connect(m_comparison, &Comparison::cancelled, this,
        [this] { statusBar()->showMessage(QStringLiteral("Cancelled"), 3000); });
}

DiffWindow::~DiffWindow() = default;

void DiffWindow::compareWith(std::shared_ptr<const Snapshot> current, const QString& pathB)
{
    pte::DiffOptions options;
    options.strict = m_strict->isChecked();
    m_comparison->compare(std::move(current), pathB, options);
}

void DiffWindow::compareFiles(const QString& pathA, const QString& pathB)
{
    pte::DiffOptions options;
    options.strict = m_strict->isChecked();
    m_comparison->compareFiles(pathA, pathB, options);
}

bool DiffWindow::isIdle() const { return !m_comparison->isBusy() && !m_graphA->isBusy() && !m_graphB->isBusy(); }

QString DiffWindow::summaryText() const { return m_summary->toPlainText(); }

void DiffWindow::onFinished()
{
    m_result = m_comparison->result();
    const int previous = m_methodIndex;
    m_methods->clear();
    for (const auto& m : m_result->diff->methods) {
        QString name = m.nameA.empty() ? toQString(m.nameB)
            : m.nameB.empty() || m.nameA == m.nameB
            ? toQString(m.nameA)
            : toQString(m.nameA) + QStringLiteral(" \u2194 ") + toQString(m.nameB);
        if (m.status != pte::DiffStatus::Same)
            name += QStringLiteral(" (") + QLatin1String(pte::diffStatusName(m.status)) + QLatin1Char(')');
        m_methods->addItem(name);
    }
    m_differences->setResult(m_result);
    m_constants->setResult(m_result);
    m_delegates->setResult(m_result);
    for (auto* t : { m_differencesView, m_constantsView, m_delegatesView })
        autoSize(t);
    updateHeader();
    showSummary();
    const int count = int(m_result->diff->methods.size());
    setMethodIndex(previous >= 0 && previous < count ? previous : (count > 0 ? 0 : -1));
    statusBar()->showMessage(m_result->diff->equal() ? QStringLiteral("Equal") : QStringLiteral("Different"));
    Q_EMIT comparisonShown();
}

void DiffWindow::updateHeader()
{
    auto name = [](const std::string& label) {
        return QFileInfo(toQString(label)).fileName().isEmpty() ? toQString(label)
                                                                : QFileInfo(toQString(label)).fileName();
    };
    m_labelA->setText(QStringLiteral("<b>A</b> ") + name(m_result->a.label).toHtmlEscaped());
    m_labelA->setToolTip(toQString(m_result->a.label));
    m_labelB->setText(QStringLiteral("<b>B</b> ") + name(m_result->b.label).toHtmlEscaped());
    m_labelB->setToolTip(toQString(m_result->b.label));
    setWindowTitle(QStringLiteral("%1 \u2194 %2 — ptelens").arg(name(m_result->a.label), name(m_result->b.label)));
}

void DiffWindow::showSummary()
{
    const pte::ProgramDiff& d = *m_result->diff;
    QStringList lines;
    const QString mode = d.strict ? QStringLiteral("strict") : QStringLiteral("semantic");
    if (d.equal()) {
        lines << QStringLiteral("Equal (%1 comparison)").arg(mode);
    } else {
        // Counted as a user counts them: instructions one by one (an inserted run of 10,000 is one difference of the
        // diff, but 10,000 instructions), everything else by difference.
        static const char* const nouns[][2] = { { "program field", "program fields" }, { "method", "methods" },
            { "signature difference", "signature differences" }, { "instruction", "instructions" },
            { "value", "values" }, { "memory-plan difference", "memory-plan differences" }, { "constant", "constants" },
            { "operator", "operators" }, { "delegate", "delegates" }, { "named-data entry", "named-data entries" },
            { "debug-info difference", "debug-info differences" } };
        std::size_t instructions = 0;
        for (const auto& m : d.methods)
            instructions += m.changed + m.inserted + m.removed;
        QStringList parts;
        const auto counts = d.countByCategory();
        for (std::size_t c = 0; c < counts.size() && c < std::size(nouns); ++c) {
            if (!counts[c])
                continue;
            const std::size_t n =
                pte::DiffCategory(c) == pte::DiffCategory::Instruction ? std::max(counts[c], instructions) : counts[c];
            parts << counted(qint64(n), QLatin1String(nouns[c][0]), QLatin1String(nouns[c][1]));
        }
        lines << QStringLiteral("Different (%1 comparison): %2").arg(mode, parts.join(QStringLiteral(", ")));
    }
    for (const auto& m : d.methods) {
        const QString name = toQString(m.nameA.empty() ? m.nameB : m.nameA);
        lines << QStringLiteral("%1: %2 \u2192 %3 instructions, %4 same, %5 changed, %6 inserted, %7 removed")
                     .arg(name)
                     .arg(m.instructionsA)
                     .arg(m.instructionsB)
                     .arg(m.same)
                     .arg(m.changed)
                     .arg(m.inserted)
                     .arg(m.removed);
    }
    std::size_t changedConstants = 0;
    for (const auto& c : d.constants)
        changedConstants += c.status == pte::DiffStatus::Same ? 0 : 1;
    lines << QStringLiteral("Rows: yellow changed (the cells that differ darker), green inserted in B, red removed "
                            "from A, grey: nothing on this side. Graph nodes are coloured the same way.");
    lines << QStringLiteral("Constants: %1 compared by content, %2 differ. Delegates: %3.")
                 .arg(d.constants.size())
                 .arg(changedConstants)
                 .arg(d.delegates.size());
    m_summary->setPlainText(lines.join(QLatin1Char('\n')));
}

QString DiffWindow::methodName(bool sideA) const
{
    if (!m_result || m_methodIndex < 0)
        return {};
    const auto& m = m_result->diff->methods[std::size_t(m_methodIndex)];
    return toQString(sideA ? m.nameA : m.nameB);
}

void DiffWindow::setMethodIndex(int index)
{
    if (!m_result || index >= int(m_result->diff->methods.size()))
        index = -1;
    m_methodIndex = index;
    if (index >= 0 && m_methods->currentIndex() != index)
        m_methods->setCurrentIndex(index);
    m_modelA->setMethod(m_result, index);
    m_modelB->setMethod(m_result, index);
    for (auto* t : { m_tableA, m_tableB }) {
        autoSize(t);
        // The ids of the last rows are the longest, and the sizing looks only at the first ones: room for them.
        const int digits = int(QString::number(std::max(t->model()->rowCount(), 1)).size());
        const int idWidth = t->fontMetrics().horizontalAdvance(QString(digits, QLatin1Char('0')))
            + 2 * t->fontMetrics().averageCharWidth() + 2 * t->style()->pixelMetric(QStyle::PM_FocusFrameHMargin);
        t->setColumnWidth(
            DiffInstructionModel::IdColumn, std::max(t->columnWidth(DiffInstructionModel::IdColumn), idWidth));
        keepStatusInView(t);
    }
    if (m_result) {
        m_graphA->setMethod(m_result->snapshotA, methodName(true));
        m_graphB->setMethod(m_result->snapshotB, methodName(false));
    }
    // Start at the first row that differs.
    if (const pte::MethodDiff* md = m_modelA->methodDiff())
        for (std::size_t r = 0; r < md->rows.size(); ++r)
            if (md->rows[r].status != pte::DiffStatus::Same) {
                selectRow(int(r));
                break;
            }
}

void DiffWindow::selectRow(int row)
{
    if (row < 0 || row >= m_modelA->rowCount())
        return;
    m_tableA->selectRow(row);
    m_tableA->scrollTo(m_modelA->index(row, 0), QAbstractItemView::PositionAtCenter);
}

void DiffWindow::onRowsSelected(bool fromA)
{
    if (m_syncing)
        return;
    const QScopedValueRollback syncing(m_syncing, true);
    QTableView* from = fromA ? m_tableA : m_tableB;
    QTableView* to = fromA ? m_tableB : m_tableA;
    QItemSelection selection;
    const QModelIndexList rows = from->selectionModel()->selectedRows();
    const int lastColumn = to->model()->columnCount() - 1;
    for (const auto& index : rows)
        selection.select(to->model()->index(index.row(), 0), to->model()->index(index.row(), lastColumn));
    to->selectionModel()->select(selection, QItemSelectionModel::ClearAndSelect);
    if (!rows.isEmpty()) {
        to->selectionModel()->setCurrentIndex(to->model()->index(rows.front().row(), 0), QItemSelectionModel::NoUpdate);
        const int row = rows.front().row();
        for (const bool sideA : { true, false }) {
            const DiffInstructionModel* model = sideA ? m_modelA : m_modelB;
            GraphPanel* graph = sideA ? m_graphA : m_graphB;
            const auto& snapshot = sideA ? m_result->snapshotA : m_result->snapshotB;
            const int instruction = model->instructionAt(row);
            QStringList names;
            std::vector<std::int64_t> handles;
            if (const MethodEntry* entry = snapshot->method(methodName(sideA).toStdString());
                entry && instruction >= 0) {
                if (entry->emitInfo)
                    if (const auto it = entry->emitInfo->instructionNodes.find(instruction);
                        it != entry->emitInfo->instructionNodes.end())
                        for (const auto& n : it->second)
                            names << toQString(n);
                if (entry->debugHandles)
                    if (const auto it = entry->debugHandles->find(instruction); it != entry->debugHandles->end())
                        handles = it->second;
            }
            graph->selectFor(instruction, names, handles);
        }
        const QStringList lines = (fromA ? m_modelA : m_modelB)->rowDifferences(row);
        if (!lines.isEmpty())
            statusBar()->showMessage(lines.front());
    }
}

void DiffWindow::onGraphSelection(bool fromA)
{
    if (m_syncing || !m_result)
        return;
    GraphPanel* graph = fromA ? m_graphA : m_graphB;
    const DiffInstructionModel* model = fromA ? m_modelA : m_modelB;
    const MethodEntry* entry =
        (fromA ? m_result->snapshotA : m_result->snapshotB)->method(methodName(fromA).toStdString());
    std::vector<int> rows;
    for (const int n : graph->selectedNodes()) {
        const GraphNode& node = graph->graph().nodes[std::size_t(n)];
        if (node.instruction >= 0)
            rows.push_back(model->rowOfInstruction(node.instruction));
        if (!entry)
            continue;
        if (entry->emitInfo)
            for (const auto& [instruction, names] : entry->emitInfo->instructionNodes)
                for (const auto& name : names)
                    if (node.members.contains(toQString(name)))
                        rows.push_back(model->rowOfInstruction(instruction));
        if (entry->debugHandles)
            for (const auto& [instruction, handles] : *entry->debugHandles)
                for (const auto h : handles)
                    if (std::find(node.debugHandles.begin(), node.debugHandles.end(), h) != node.debugHandles.end())
                        rows.push_back(model->rowOfInstruction(int(instruction)));
    }
    std::erase(rows, -1);
    if (rows.empty())
        return;
    QTableView* table = fromA ? m_tableA : m_tableB;
    QItemSelection selection;
    for (const int r : rows)
        selection.select(table->model()->index(r, 0), table->model()->index(r, table->model()->columnCount() - 1));
    table->selectionModel()->select(selection, QItemSelectionModel::ClearAndSelect);
    table->scrollTo(table->model()->index(rows.front(), 0), QAbstractItemView::PositionAtCenter);
}

void DiffWindow::colourGraph(bool sideA)
{
    if (!m_result || m_methodIndex < 0)
        return;
    GraphPanel* panel = sideA ? m_graphA : m_graphB;
    const DiffInstructionModel* model = sideA ? m_modelA : m_modelB;
    const pte::MethodDiff* md = model->methodDiff();
    if (!md)
        return;
    auto statusOf = [&](std::int64_t instruction) {
        const int row = model->rowOfInstruction(int(instruction));
        return row < 0 ? pte::DiffStatus::Same : md->rows[std::size_t(row)].status;
    };
    const MethodEntry* entry =
        (sideA ? m_result->snapshotA : m_result->snapshotB)->method(methodName(sideA).toStdString());
    std::unordered_map<std::string, pte::DiffStatus> byName;
    std::unordered_map<std::int64_t, pte::DiffStatus> byHandle;
    if (entry && entry->emitInfo)
        for (const auto& [instruction, names] : entry->emitInfo->instructionNodes)
            for (const auto& name : names)
                byName[name] = combine(byName[name], statusOf(instruction));
    if (entry && entry->debugHandles)
        for (const auto& [instruction, handles] : *entry->debugHandles)
            for (const auto h : handles)
                byHandle[h] = combine(byHandle[h], statusOf(instruction));
    const GraphData& graph = panel->graph();
    std::vector<QColor> fills(graph.nodes.size());
    for (std::size_t i = 0; i < graph.nodes.size(); ++i) {
        const GraphNode& node = graph.nodes[i];
        pte::DiffStatus status = pte::DiffStatus::Same;
        if (node.instruction >= 0)
            status = statusOf(node.instruction);
        for (int k = node.firstInstruction; k >= 0 && k <= node.lastInstruction; ++k)
            status = combine(
                status, statusOf(k) == pte::DiffStatus::Same ? pte::DiffStatus::Same : pte::DiffStatus::Changed);
        for (const auto& member : node.members)
            if (const auto it = byName.find(member.toStdString()); it != byName.end())
                status = combine(status, it->second);
        for (const auto h : node.debugHandles)
            if (const auto it = byHandle.find(h); it != byHandle.end())
                status = combine(status, it->second);
        fills[i] = diffStatusColor(status);
    }
    panel->view()->setNodeFills(fills);
}

bool DiffWindow::activateDifference(int row)
{
    const pte::Difference* d = m_differences->difference(row);
    if (!d || !m_result)
        return false;
    const auto& methods = m_result->diff->methods;
    for (std::size_t m = 0; m < methods.size(); ++m)
        if (!d->methodA.empty() || !d->methodB.empty())
            if (methods[m].nameA == d->methodA && methods[m].nameB == d->methodB && int(m) != m_methodIndex)
                setMethodIndex(int(m));
    int target = -1;
    if (d->category == pte::DiffCategory::Instruction || d->category == pte::DiffCategory::DebugInfo) {
        target = m_modelA->rowOfInstruction(int(d->indexA));
        if (target < 0)
            target = m_modelB->rowOfInstruction(int(d->indexB));
    }
    for (const auto& use : d->usesA)
        if (target < 0)
            target = m_modelA->rowOfInstruction(use.instruction);
    for (const auto& use : d->usesB)
        if (target < 0)
            target = m_modelB->rowOfInstruction(use.instruction);
    if (target < 0)
        return false;
    selectRow(target);
    return true;
}

} // namespace pte::ui
