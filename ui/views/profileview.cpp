// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "views/profileview.h"

#include "document/snapshot.h"
#include "models/profilefilterproxy.h"
#include "models/profilemodel.h"
#include "models/profilesummarymodel.h"
#include "models/text.h"
#include "views/viewparts.h"
#include "widgets/tableview.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QSaveFile>
#include <QSplitter>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>

namespace pte::ui {

ProfileView::ProfileView(QWidget* parent)
    : DockView(QStringLiteral("Profile"), QStringLiteral("profileDock"), Qt::BottomDockWidgetArea, parent)
    , m_model(new ProfileModel(this))
    , m_proxy(new ProfileFilterProxy(this))
    , m_summaryModel(new ProfileSummaryModel(this))
{
    m_proxy->setProfileModel(m_model);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    m_status = new QLabel(this);
    m_status->setObjectName(QStringLiteral("profileStatus"));
    m_status->setWordWrap(true);
    m_status->setContentsMargins(4, 2, 4, 0);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_status);

    auto* bar = new QHBoxLayout;
    bar->setContentsMargins(4, 2, 4, 0);
    m_textFilter = filterEdit(this, QStringLiteral("profileFilter"),
        QStringLiteral("Filter: event, op type, delegate id, backend, node (words must all match)"));
    m_blockFilter = new QComboBox(this);
    m_blockFilter->setObjectName(QStringLiteral("profileBlockFilter"));
    m_blockFilter->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_delegatedOnly = new QCheckBox(QStringLiteral("Delegated only"), this);
    m_delegatedOnly->setObjectName(QStringLiteral("profileDelegatedOnly"));
    m_count = new QLabel(this);
    m_count->setObjectName(QStringLiteral("profileCount"));
    m_export = new QToolButton(this);
    m_export->setObjectName(QStringLiteral("profileExport"));
    m_export->setText(QStringLiteral("Export"));
    m_export->setToolTip(QStringLiteral("Save the rows shown as TSV or CSV (the Inspector's columns)"));
    m_export->setPopupMode(QToolButton::InstantPopup);
    auto* menu = new QMenu(m_export);
    menu->addAction(QStringLiteral("Export as TSV…"), this, [this] { exportDialog('\t'); });
    menu->addAction(QStringLiteral("Export as CSV…"), this, [this] { exportDialog(','); });
    m_export->setMenu(menu);
    m_reference = new QComboBox(this);
    m_reference->setObjectName(QStringLiteral("profileReference"));
    m_reference->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_reference->setToolTip(QStringLiteral(
        "The inputs the run used: ptelens' reference interpreter runs the method on them and each logged value is "
        "compared with its result (MSE, L1, SNR in the Values view)"));
    bar->addWidget(m_textFilter, 3);
    bar->addWidget(m_blockFilter);
    bar->addWidget(m_delegatedOnly);
    bar->addWidget(m_count);
    bar->addWidget(m_reference);
    bar->addWidget(m_export);
    layout->addLayout(bar);

    auto* split = new QSplitter(Qt::Horizontal, this);
    split->setObjectName(QStringLiteral("profileSplit"));
    m_table = makeTable(split, QStringLiteral("profileView"), m_proxy, QString());
    auto* side = new QWidget(split);
    auto* sideLayout = new QVBoxLayout(side);
    sideLayout->setContentsMargins(0, 0, 0, 0);
    sideLayout->setSpacing(2);
    m_grouping = new QComboBox(side);
    m_grouping->setObjectName(QStringLiteral("profileGrouping"));
    m_grouping->addItem(QStringLiteral("Time by operator"), int(ProfileSummaryModel::Grouping::Operator));
    m_grouping->addItem(QStringLiteral("Time by backend"), int(ProfileSummaryModel::Grouping::Backend));
    m_grouping->addItem(QStringLiteral("Time by module"), int(ProfileSummaryModel::Grouping::Module));
    sideLayout->addWidget(m_grouping);
    m_summary = makeTable(side, QStringLiteral("profileSummaryView"), m_summaryModel, QString());
    sideLayout->addWidget(m_summary, 1);
    split->addWidget(m_table);
    split->addWidget(side);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 1);
    // Where the time went is always in view beside the table (a wide table does not push it out of the dock).
    side->setMinimumWidth(fontMetrics().averageCharWidth() * 34);
    split->setCollapsible(0, false);
    split->setCollapsible(1, false);
    const int unit = fontMetrics().averageCharWidth();
    split->setSizes({ unit * 120, unit * 50 });
    layout->addWidget(split, 1);

    m_filterTimer = new QTimer(this);
    m_filterTimer->setSingleShot(true);
    m_filterTimer->setInterval(120);
    connect(m_filterTimer, &QTimer::timeout, this, [this] {
        m_proxy->setText(m_textFilter->text());
        updateCount();
    });
    connect(m_textFilter, &QLineEdit::textChanged, m_filterTimer, qOverload<>(&QTimer::start));
    connect(m_blockFilter, &QComboBox::currentIndexChanged, this, [this] {
        m_proxy->setBlock(m_blockFilter->currentIndex() > 0 ? m_blockFilter->currentText() : QString());
        updateCount();
    });
    connect(m_delegatedOnly, &QCheckBox::toggled, this, [this](bool on) {
        m_proxy->setDelegatedOnly(on);
        updateCount();
    });
    connect(m_reference, &QComboBox::activated, this, &ProfileView::referenceChoiceActivated);
    connect(m_grouping, &QComboBox::currentIndexChanged, this, [this] {
        m_summaryModel->setGrouping(ProfileSummaryModel::Grouping(m_grouping->currentData().toInt()));
        autoSize(m_summary);
    });
    connect(m_table->selectionModel(), &QItemSelectionModel::selectionChanged, this, [this] {
        if (!m_selecting)
            Q_EMIT selectionChanged();
    });
    updateStatus();
}

QWidget* ProfileView::focusTarget() const { return m_table; }

void ProfileView::setSnapshot(std::shared_ptr<const Snapshot> snapshot)
{
    m_snapshot = snapshot;
    m_model->setSnapshot(snapshot);
    m_summaryModel->setSnapshot(snapshot);
    {
        const QSignalBlocker blocker(m_blockFilter);
        const QString current = m_blockFilter->currentText();
        m_blockFilter->clear();
        m_blockFilter->addItem(QStringLiteral("Any block"));
        m_blockFilter->addItems(m_model->blockNames());
        const int keep = m_blockFilter->findText(current);
        m_blockFilter->setCurrentIndex(keep > 0 ? keep : 0);
        m_proxy->setBlock(m_blockFilter->currentIndex() > 0 ? m_blockFilter->currentText() : QString());
    }
    autoSize(m_table);
    autoSize(m_summary);
    updateReferenceChoice();
    updateStatus();
    updateCount();
}

void ProfileView::updateReferenceChoice()
{
    const QSignalBlocker blocker(m_reference);
    m_reference->clear();
    const ProfileData* p = m_model->profile();
    const bool computable = p && p->join && p->join->sources->program;
    m_reference->setEnabled(computable);
    if (!computable)
        return;
    using Kind = pte::ReferenceInputSpec::Kind;
    const pte::BundledProgram* bundled =
        m_snapshot && m_snapshot->pteFile ? m_snapshot->pteFile->bundled.get() : nullptr;
    if (bundled && !bundled->testSuites.empty()) {
        std::size_t cases = 0;
        for (const auto& s : bundled->testSuites)
            cases = std::max(cases, s.testCases.size());
        for (std::size_t k = 0; k < cases; ++k)
            m_reference->addItem(
                QStringLiteral("Expected: bundled test case %1").arg(k), QStringLiteral("bundled:%1").arg(k));
    }
    for (const auto fill : { pte::RunnerFill::Pattern, pte::RunnerFill::Ones, pte::RunnerFill::Zeros })
        m_reference->addItem(QStringLiteral("Expected: runner %1 fill").arg(QLatin1String(pte::runnerFillName(fill))),
            QLatin1String(pte::runnerFillName(fill)));
    const auto& spec = p->reference;
    if (spec.kind == Kind::JsonFile)
        m_reference->addItem(
            QStringLiteral("Expected: %1").arg(QFileInfo(toQString(spec.path)).fileName()), toQString(spec.path));
    m_reference->addItem(QStringLiteral("Expected: inputs JSON…"), QString());
    QString current;
    if (spec.kind == Kind::Fill)
        current = QLatin1String(pte::runnerFillName(spec.fill));
    else if (spec.kind == Kind::JsonFile)
        current = toQString(spec.path);
    else if (bundled) {
        std::size_t last = 0;
        if (const auto* suite = bundled->testSuites.empty() ? nullptr : &bundled->testSuites.front())
            last = suite->testCases.empty() ? 0 : suite->testCases.size() - 1;
        current = QStringLiteral("bundled:%1").arg(spec.testCase.value_or(last));
    }
    const int at = current.isEmpty() ? -1 : m_reference->findData(current);
    m_reference->setCurrentIndex(at >= 0 ? at : 0);
}

void ProfileView::referenceChoiceActivated(int index)
{
    QString text = m_reference->itemData(index).toString();
    if (text.isEmpty()) {
        text = QFileDialog::getOpenFileName(this, QStringLiteral("Inputs the run used (etrt_runner --inputs)"),
            QString(), QStringLiteral("JSON (*.json);;All files (*)"));
        if (text.isEmpty()) {
            updateReferenceChoice();
            return;
        }
    }
    auto spec = pte::ReferenceInputSpec::parse(text.toStdString());
    if (spec)
        Q_EMIT referenceInputsChosen(*spec);
}

void ProfileView::setContentState(ContentState)
{
    m_table->setEmptyText(m_model->profile()
            ? QStringLiteral("No event matches the filters")
            : QStringLiteral("No ETDump: open one with File > Open ETDump, or drop an .etdp on the window"));
    m_summary->setEmptyText(m_model->profile() ? QStringLiteral("Nothing to sum up") : QString());
}

void ProfileView::updateStatus()
{
    const ProfileData* p = m_model->profile();
    if (!p) {
        m_status->setText(QStringLiteral("No ETDump is open."));
        m_status->setStyleSheet(QString());
        setContentState(ContentState::Nothing);
        return;
    }
    const auto& d = *p->dump;
    const auto debugEvents = qint64(d.count(pte::EtdumpEventKind::Debug));
    QString text = QStringLiteral("<b>%1</b>: %2 in %3, %4 and %5")
                       .arg(QFileInfo(toQString(d.path)).fileName().toHtmlEscaped(),
                           counted(qint64(d.runs.size()), QStringLiteral("run")),
                           counted(qint64(p->table.blocks.size()), QStringLiteral("block")),
                           counted(qint64(d.count(pte::EtdumpEventKind::Profile)), QStringLiteral("profile event")),
                           counted(debugEvents, QStringLiteral("debug event")));
    if (!d.debugBufferPath.empty())
        text +=
            QStringLiteral("; debug buffer %1").arg(QFileInfo(toQString(d.debugBufferPath)).fileName().toHtmlEscaped());
    else if (d.count(pte::EtdumpEventKind::Debug) > 0)
        text += QStringLiteral("; no debug buffer (logged values unknown)");
    if (!p->join) {
        text += QStringLiteral(". Not joined: open the program to tie events to instructions.");
        m_status->setStyleSheet(QString());
    } else if (!p->matches()) {
        QString problem;
        for (const auto& r : p->join->runs)
            if (!r.problem.empty()) {
                problem = toQString(r.problem);
                break;
            }
        text += QStringLiteral(". <span style='color:#b00020'><b>It does not match the program:</b> %1</span>")
                    .arg(problem.toHtmlEscaped());
    } else {
        QStringList methods;
        for (const auto& [name, t] : p->timings)
            methods << QStringLiteral("%1 (%2, median %3 %4)")
                           .arg(toQString(name).toHtmlEscaped(), counted(qint64(t.runs), QStringLiteral("run")))
                           .arg(t.executeMedian, 0, 'f', 3)
                           .arg(m_model->unit());
        text += QStringLiteral(". Joined with the program: ")
            + (methods.isEmpty() ? QStringLiteral("no execution") : methods.join(QStringLiteral(", ")));
        if (!p->referenceSource.empty())
            text += QStringLiteral(". Expected values: reference interpreter on %1")
                        .arg(toQString(p->referenceSource).toHtmlEscaped());
        else if (!p->referenceProblem.empty())
            text += QStringLiteral(". No expected values: %1").arg(toQString(p->referenceProblem).toHtmlEscaped());
    }
    m_status->setText(text);
    setContentState(ContentState::Program);
}

void ProfileView::updateCount()
{
    m_count->setText(QStringLiteral("%1 of %2").arg(m_proxy->rowCount()).arg(m_model->rowCount()));
}

std::vector<int> ProfileView::selectedSourceRows() const
{
    std::vector<int> rows;
    for (const auto& index : m_table->selectionModel()->selectedRows())
        rows.push_back(m_proxy->mapToSource(index).row());
    return rows;
}

void ProfileView::selectSourceRows(const std::vector<int>& rows)
{
    m_selecting = true;
    QItemSelection selection;
    QModelIndex first;
    for (const int r : rows) {
        const QModelIndex index = m_proxy->mapFromSource(m_model->index(r, 0));
        if (!index.isValid())
            continue;
        if (!first.isValid())
            first = index;
        selection.select(index, index.siblingAtColumn(m_proxy->columnCount() - 1));
    }
    m_table->selectionModel()->select(selection, QItemSelectionModel::ClearAndSelect);
    if (first.isValid())
        m_table->scrollTo(first);
    m_selecting = false;
}

void ProfileView::setFilterText(const QString& text)
{
    m_textFilter->setText(text);
    m_filterTimer->stop();
    m_proxy->setText(text);
    updateCount();
}

bool ProfileView::exportTo(const QString& path, char separator, QString* error) const
{
    const ProfileData* p = m_model->profile();
    if (!p) {
        if (error)
            *error = QStringLiteral("There is no ETDump to export.");
        return false;
    }
    std::vector<std::uint32_t> rows;
    rows.reserve(std::size_t(m_proxy->rowCount()));
    for (int r = 0; r < m_proxy->rowCount(); ++r)
        rows.push_back(std::uint32_t(m_proxy->mapToSource(m_proxy->index(r, 0)).row()));
    const std::string text = pte::profileTableText(*p->dump, p->table, separator, &rows);
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(text.data(), qint64(text.size())) != qint64(text.size())
        || !file.commit()) {
        if (error)
            *error = QStringLiteral("Cannot write %1: %2").arg(path, file.errorString());
        return false;
    }
    return true;
}

void ProfileView::exportDialog(char separator)
{
    const bool csv = separator == ',';
    const QString path =
        QFileDialog::getSaveFileName(this, csv ? QStringLiteral("Export as CSV") : QStringLiteral("Export as TSV"),
            QString(), csv ? QStringLiteral("CSV (*.csv)") : QStringLiteral("TSV (*.tsv)"));
    if (path.isEmpty())
        return;
    QString error;
    if (!exportTo(path, separator, &error))
        m_status->setText(error.toHtmlEscaped());
}

} // namespace pte::ui
