// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "views/instructionsview.h"

#include "models/instructioneventsproxy.h"
#include "models/instructionfilterproxy.h"
#include "models/instructionmodel.h"
#include "models/profilemodel.h"
#include "models/runstepmodel.h"
#include "models/text.h"
#include "views/viewparts.h"
#include "widgets/tableview.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QIntValidator>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QSplitter>
#include <QTimer>
#include <QVBoxLayout>

#include <limits>

namespace pte::ui {

InstructionsView::InstructionsView(QWidget* parent)
    : DockView(QStringLiteral("Instructions"), QStringLiteral("instructionsDock"), Qt::BottomDockWidgetArea, parent)
    , m_model(new InstructionModel(this))
    , m_proxy(new InstructionFilterProxy(this))
{
    m_proxy->setSourceModel(m_model);
    auto* il = new QVBoxLayout(this);
    il->setContentsMargins(0, 0, 0, 0);
    il->setSpacing(2);
    auto* bar = new QHBoxLayout;
    bar->setContentsMargins(4, 2, 4, 0);
    m_textFilter =
        filterEdit(this, QStringLiteral("instructionFilter"), QStringLiteral("Filter instructions (Ctrl+L)"));
    m_textFilter->setToolTip(QStringLiteral("Shows the instructions whose operator, kind, backend, delegate debug id "
                                            "or graph node name contains the text; a number also matches the "
                                            "instruction id and debug handles"));
    m_kindFilter = new QComboBox(this);
    m_kindFilter->setObjectName(QStringLiteral("kindFilter"));
    m_kindFilter->addItem(QStringLiteral("Any kind"), -1);
    for (int k = 1; k <= 5; ++k)
        m_kindFilter->addItem(QLatin1String(pte::instructionKindName(pte::InstructionKind(k))), k);
    m_operatorFilter = new QComboBox(this);
    m_operatorFilter->setObjectName(QStringLiteral("operatorFilter"));
    // The combos give way to the text filter in a narrow window (their lists still show whole names).
    m_operatorFilter->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_operatorFilter->setMinimumContentsLength(10);
    m_backendFilter = new QComboBox(this);
    m_backendFilter->setObjectName(QStringLiteral("backendFilter"));
    m_backendFilter->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_backendFilter->setMinimumContentsLength(8);
    m_kindFilter->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_textFilter->setMinimumWidth(m_textFilter->fontMetrics().averageCharWidth() * 18);
    m_handleFilter = filterEdit(this, QStringLiteral("handleFilter"), QStringLiteral("Debug handle"));
    m_handleFilter->setValidator(new QIntValidator(0, std::numeric_limits<int>::max(), m_handleFilter));
    m_handleFilter->setMaximumWidth(m_handleFilter->fontMetrics().averageCharWidth() * 16);
    m_count = new QLabel(this);
    m_count->setObjectName(QStringLiteral("instructionCount"));
    bar->addWidget(m_textFilter, 3);
    bar->addWidget(m_kindFilter);
    bar->addWidget(m_operatorFilter);
    bar->addWidget(m_backendFilter);
    bar->addWidget(m_handleFilter);
    bar->addWidget(m_count);
    il->addLayout(bar);
    auto* split = new QSplitter(Qt::Vertical, this);
    m_table = makeTable(split, QStringLiteral("instructionsView"), m_proxy, QString() /* setContentState() */);
    m_eventsModel = new ProfileModel(this);
    m_eventsProxy = new InstructionEventsProxy(this);
    m_eventsProxy->setProfileModel(m_eventsModel);
    m_events = makeTable(split, QStringLiteral("delegateEventsView"), m_eventsProxy, QString());
    for (int c = 0; c < ProfileModel::ColumnCount; ++c)
        m_events->setColumnHidden(c,
            c != ProfileModel::EventColumn && c != ProfileModel::RunsColumn && c != ProfileModel::P50Column
                && c != ProfileModel::P10Column && c != ProfileModel::P90Column && c != ProfileModel::OpTypesColumn
                && c != ProfileModel::NodesColumn);
    m_eventsPane = captioned(split, QStringLiteral("Delegate events of the selected call"), m_events);
    m_runStep = new RunStepModel(this);
    m_runStepTable = makeTable(split, QStringLiteral("runStepView"), m_runStep, QString());
    m_runStepPane = captioned(split, QStringLiteral("Run values"), m_runStepTable, &m_runStepCaption);
    split->addWidget(m_table);
    split->addWidget(m_eventsPane);
    split->addWidget(m_runStepPane);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 1);
    split->setStretchFactor(2, 1);
    m_eventsPane->hide();
    m_runStepPane->hide();
    il->addWidget(split, 1);
    m_filterTimer = new QTimer(this);
    m_filterTimer->setSingleShot(true);
    m_filterTimer->setInterval(120);
    connect(m_filterTimer, &QTimer::timeout, this,
        [this] { applyFilter([this] { m_proxy->setFilterText(m_textFilter->text()); }); });
    connect(m_textFilter, &QLineEdit::textChanged, m_filterTimer, qOverload<>(&QTimer::start));
    connect(m_kindFilter, &QComboBox::currentIndexChanged, this, [this] {
        const int k = m_kindFilter->currentData().toInt();
        applyFilter(
            [this, k] { m_proxy->setKindFilter(k < 0 ? std::nullopt : std::optional(pte::InstructionKind(k))); });
    });
    connect(m_operatorFilter, &QComboBox::currentIndexChanged, this, [this] {
        applyFilter([this] {
            m_proxy->setOperatorFilter(
                m_operatorFilter->currentIndex() > 0 ? m_operatorFilter->currentText() : QString());
        });
    });
    connect(m_backendFilter, &QComboBox::currentIndexChanged, this, [this] {
        applyFilter([this] {
            m_proxy->setBackendFilter(m_backendFilter->currentIndex() > 0 ? m_backendFilter->currentText() : QString());
        });
    });
    connect(m_handleFilter, &QLineEdit::textChanged, this, [this](const QString& text) {
        bool ok = false;
        const qint64 h = text.toLongLong(&ok);
        applyFilter([this, ok, h] { m_proxy->setDebugHandleFilter(ok ? std::optional<qint64>(h) : std::nullopt); });
    });
    connect(
        m_table->selectionModel(), &QItemSelectionModel::selectionChanged, this, &InstructionsView::selectionChanged);
    connect(m_table->selectionModel(), &QItemSelectionModel::selectionChanged, this, &InstructionsView::updateEvents);
    connect(m_table->selectionModel(), &QItemSelectionModel::selectionChanged, this, &InstructionsView::updateRunStep);
    connect(m_table, &QAbstractItemView::activated, this, [this](const QModelIndex& index) {
        if (index.isValid())
            Q_EMIT instructionActivated();
    });
}

QWidget* InstructionsView::focusTarget() const { return m_table; }

void InstructionsView::setMethod(std::shared_ptr<const Snapshot> snapshot, const QString& method)
{
    m_method = method;
    m_snapshot = snapshot;
    m_eventsModel->setSnapshot(snapshot);
    m_model->setMethod(std::move(snapshot), method);
    showTimes();
    updateEvents();
    updateRunStep();
    updateFilterChoices();
    autoSize(m_table);
    // Sizing sampled the first rows; the ids further down are longer.
    const QString widestId(QString::number(m_model->rowCount()).size() + 1, QLatin1Char('0'));
    const int idWidth =
        m_table->fontMetrics().horizontalAdvance(widestId) + 2 * m_table->fontMetrics().averageCharWidth();
    if (m_table->columnWidth(InstructionModel::IdColumn) < idWidth)
        m_table->setColumnWidth(InstructionModel::IdColumn, idWidth);
    // Named arguments are the longest text of a row: room for about 90 characters (the tooltip has them all).
    m_table->resizeColumnToContents(InstructionModel::ArgumentsColumn);
    const int argsWidth = m_table->fontMetrics().averageCharWidth() * 90;
    if (m_table->columnWidth(InstructionModel::ArgumentsColumn) > argsWidth)
        m_table->setColumnWidth(InstructionModel::ArgumentsColumn, argsWidth);
    updateCount();
}

void InstructionsView::showTimes()
{
    const bool times = m_model->hasTimes();
    auto* header = m_table->horizontalHeader();
    for (int c = InstructionModel::TimeColumn; c <= InstructionModel::ShareColumn; ++c) {
        m_table->setColumnHidden(c, !times);
        // Measured times sit next to the operator.
        const int target =
            header->visualIndex(InstructionModel::OperatorColumn) + 1 + (c - InstructionModel::TimeColumn);
        if (times && header->visualIndex(c) != target)
            header->moveSection(header->visualIndex(c), target);
    }
}

void InstructionsView::updateEvents()
{
    const auto rows = selectedSourceRows();
    int chain = 0;
    int instruction = -1;
    if (rows.size() == 1 && m_model->rowInfo(rows.front()).kind == pte::InstructionKind::DelegateCall
        && m_model->hasTimes()) {
        chain = int(m_model->rowInfo(rows.front()).chain);
        instruction = int(m_model->rowInfo(rows.front()).index);
    }
    m_eventsProxy->setInstruction(m_method, chain, instruction);
    const bool show = m_eventsProxy->rowCount() > 0;
    if (show)
        autoSize(m_events);
    m_eventsPane->setVisible(show);
}

void InstructionsView::updateRunStep()
{
    const auto rows = selectedSourceRows();
    const int instruction =
        rows.size() == 1 && m_model->rowInfo(rows.front()).chain == 0 ? int(m_model->rowInfo(rows.front()).index) : -1;
    m_runStep->setStep(m_snapshot, m_method, instruction);
    m_runStepPane->setVisible(m_runStep->hasRun());
    if (m_runStepCaption)
        m_runStepCaption->setText(QStringLiteral("Run values: ") + m_runStep->note());
    if (m_runStep->rowCount() > 0)
        autoSize(m_runStepTable);
}

void InstructionsView::setContentState(ContentState state)
{
    m_table->setEmptyText(emptyTextFor(state, QStringLiteral("No instruction matches the filters")));
}

void InstructionsView::updateFilterChoices()
{
    const QSignalBlocker b1(m_operatorFilter);
    const QSignalBlocker b2(m_backendFilter);
    m_operatorFilter->clear();
    m_operatorFilter->addItem(QStringLiteral("Any operator"));
    QStringList ops = m_model->operatorNames();
    ops.removeDuplicates();
    ops.sort();
    m_operatorFilter->addItems(ops);
    m_backendFilter->clear();
    m_backendFilter->addItem(QStringLiteral("Any backend"));
    m_backendFilter->addItems(m_model->backends());
    m_proxy->setOperatorFilter({});
    m_proxy->setBackendFilter({});
}

void InstructionsView::applyFilter(const std::function<void()>& change)
{
    // Filter changes reset the proxy; keep the current instruction selected when it stays visible.
    const QModelIndex current = m_proxy->mapToSource(m_table->currentIndex());
    change();
    if (current.isValid()) {
        const QModelIndex again = m_proxy->mapFromSource(m_model->index(current.row(), 0));
        if (again.isValid()) {
            m_table->selectionModel()->setCurrentIndex(
                again, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
            m_table->scrollTo(again, QAbstractItemView::PositionAtCenter);
        }
    }
    updateCount();
}

void InstructionsView::updateCount()
{
    const int total = m_model->rowCount();
    const int shown = m_proxy->rowCount();
    m_count->setText(shown == total ? counted(total, QStringLiteral("instruction"))
                                    : QStringLiteral("%1 of %2 instructions").arg(shown).arg(total));
}

std::vector<int> InstructionsView::selectedSourceRows() const
{
    std::vector<int> rows;
    for (const auto& r : m_table->selectionModel()->selectedRows())
        rows.push_back(m_proxy->mapToSource(r).row());
    return rows;
}

void InstructionsView::selectSourceRow(int sourceRow)
{
    const QModelIndex proxyIndex = m_proxy->mapFromSource(m_model->index(sourceRow, 0));
    if (!proxyIndex.isValid())
        return;
    m_table->selectionModel()->setCurrentIndex(
        proxyIndex, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    m_table->scrollTo(proxyIndex);
}

void InstructionsView::selectSourceRows(const std::vector<int>& sourceRows)
{
    QItemSelection selection;
    for (const int row : sourceRows) {
        const QModelIndex idx = m_proxy->mapFromSource(m_model->index(row, 0));
        if (idx.isValid())
            selection.select(idx, idx);
    }
    m_table->selectionModel()->select(selection, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    if (!selection.isEmpty())
        m_table->scrollTo(selection.indexes().front());
}

bool InstructionsView::isShown(int sourceRow) const
{
    return m_proxy->mapFromSource(m_model->index(sourceRow, 0)).isValid();
}

void InstructionsView::focusFilter()
{
    m_textFilter->setFocus(Qt::ShortcutFocusReason);
    m_textFilter->selectAll();
}

void InstructionsView::clearFilters()
{
    const QSignalBlocker b1(m_textFilter);
    const QSignalBlocker b2(m_kindFilter);
    const QSignalBlocker b3(m_operatorFilter);
    const QSignalBlocker b4(m_backendFilter);
    const QSignalBlocker b5(m_handleFilter);
    m_filterTimer->stop();
    m_textFilter->clear();
    m_kindFilter->setCurrentIndex(0);
    m_operatorFilter->setCurrentIndex(0);
    m_backendFilter->setCurrentIndex(0);
    m_handleFilter->clear();
    m_proxy->setFilterText({});
    m_proxy->setKindFilter(std::nullopt);
    m_proxy->setOperatorFilter({});
    m_proxy->setBackendFilter({});
    m_proxy->setDebugHandleFilter(std::nullopt);
    updateCount();
}

} // namespace pte::ui
