// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "views/delegatepayloadview.h"

#include "document/delegateinspection.h"
#include "document/delegatetimes.h"
#include "document/profiledata.h"
#include "models/innernodemodel.h"
#include "models/innervaluemodel.h"
#include "models/payloadfieldmodel.h"
#include "models/roles.h"
#include "models/text.h"
#include "views/viewparts.h"
#include "widgets/tableview.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QItemSelectionModel>
#include <QLabel>
#include <QPushButton>
#include <QTabWidget>
#include <QVBoxLayout>

namespace pte::ui {

DelegatePayloadView::DelegatePayloadView(QWidget* parent)
    : DockView(
        QStringLiteral("Inside Delegate"), QStringLiteral("delegatePayloadDock"), Qt::BottomDockWidgetArea, parent)
    , m_nodeModel(new InnerNodeModel(this))
    , m_valueModel(new InnerValueModel(this))
    , m_payloadModel(new PayloadFieldModel(this))
{
    auto* content = new QWidget(this);
    auto* layout = new QVBoxLayout(content);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    auto* bar = new QHBoxLayout;
    bar->setContentsMargins(4, 2, 4, 2);
    m_chooser = new QComboBox(content);
    m_chooser->setObjectName(QStringLiteral("delegateChooser"));
    // Neither the chooser nor the format line may widen the window: the bottom docks share one tabbed area, whose
    // minimum width is the widest of them (at 1024 px a delegate's format line pushed the window to 1069 px).
    m_chooser->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_chooser->setMinimumContentsLength(28);
    m_chooser->setToolTip(QStringLiteral("The method's delegate whose payload is shown"));
    connect(m_chooser, &QComboBox::currentIndexChanged, this, [this](int i) {
        m_current = i >= 0 && std::size_t(i) < m_delegates.size() ? m_delegates[std::size_t(i)] : -1;
        showCurrent();
    });
    bar->addWidget(m_chooser);
    m_format = new QLabel(content);
    m_format->setObjectName(QStringLiteral("delegateFormat"));
    m_format->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_format->setWordWrap(true);
    bar->addWidget(m_format, 1);
    m_openInGraph = new QPushButton(QStringLiteral("Open in Graph"), content);
    m_openInGraph->setObjectName(QStringLiteral("openDelegateInGraph"));
    m_openInGraph->setToolTip(QStringLiteral("Show this delegate's inner graph in the Graph view (or double-click "
                                             "the delegate call there)"));
    connect(m_openInGraph, &QPushButton::clicked, this, [this] {
        if (m_current >= 0)
            Q_EMIT openInGraphRequested(m_current);
    });
    bar->addWidget(m_openInGraph);
    layout->addLayout(bar);

    m_tabs = new QTabWidget(content);
    m_tabs->setObjectName(QStringLiteral("delegateTabs"));
    m_tabs->setDocumentMode(true);
    m_nodesView = makeTable(m_tabs, QStringLiteral("innerNodesView"), m_nodeModel, QString(), false);
    m_nodesView->setToolTip(QStringLiteral("Select inner nodes to select their source nodes in the Graph view"));
    m_valuesView = makeTable(m_tabs, QStringLiteral("innerValuesView"), m_valueModel, QString(), false);
    m_payloadView = makeTable(m_tabs, QStringLiteral("payloadFieldsView"), m_payloadModel, QString(), false);
    m_tabs->addTab(m_nodesView, QStringLiteral("Nodes"));
    m_tabs->addTab(m_valuesView, QStringLiteral("Values"));
    m_tabs->addTab(m_payloadView, QStringLiteral("Payload"));
    layout->addWidget(m_tabs, 1);
    connect(m_nodesView->selectionModel(), &QItemSelectionModel::selectionChanged, this, [this] {
        if (m_selecting)
            return;
        std::vector<std::uint32_t> nodes;
        for (const auto& row : m_nodesView->selectionModel()->selectedRows())
            nodes.push_back(std::uint32_t(row.row()));
        QStringList names;
        std::vector<std::int64_t> handles;
        innerNodeSources(nodes, &names, &handles);
        if (!nodes.empty())
            Q_EMIT innerNodesSelected(names, handles, nodes);
    });
    setContent(content);
    setContentState(ContentState::Nothing);
}

QWidget* DelegatePayloadView::focusTarget() const { return m_nodesView; }

void DelegatePayloadView::setMethod(std::shared_ptr<const Snapshot> snapshot, const QString& method)
{
    m_snapshot = std::move(snapshot);
    m_method = method;
    m_delegates.clear();
    const DelegateInspection* inspection = m_snapshot ? m_snapshot->delegates.get() : nullptr;
    if (inspection)
        m_delegates = inspection->ofMethod(method.toStdString());
    const QSignalBlocker block(m_chooser);
    m_chooser->clear();
    for (const int i : m_delegates) {
        const auto& d = inspection->delegates[std::size_t(i)];
        const auto& p = *d.payload;
        QString text = QStringLiteral("Delegate %1 · %2").arg(d.delegateIndex).arg(toQString(p.backendId));
        if (!d.calls.empty())
            text += QStringLiteral(" · instruction %1").arg(d.calls.front().second);
        text += p.graphDecoded ? QStringLiteral(" · ") + counted(qint64(p.nodes.size()), QStringLiteral("node"))
                               : QStringLiteral(" · %1").arg(formatBytes(p.bytes.size()));
        m_chooser->addItem(text);
    }
    m_current = m_delegates.empty() ? -1 : m_delegates.front();
    m_chooser->setCurrentIndex(m_delegates.empty() ? -1 : 0);
    m_chooser->setEnabled(m_delegates.size() > 1);
    showCurrent();
}

void DelegatePayloadView::setContentState(ContentState state)
{
    m_state = state;
    updateEmptyTexts();
}

void DelegatePayloadView::updateEmptyTexts()
{
    const QString text = emptyTextFor(m_state, QStringLiteral("No delegate calls in this method"));
    m_nodesView->setEmptyText(m_current >= 0 ? QStringLiteral("This payload is summarised, not decoded into nodes: "
                                                              "see Payload")
                                             : text);
    m_valuesView->setEmptyText(m_current >= 0 ? QStringLiteral("No values decoded from this payload") : text);
    m_payloadView->setEmptyText(text);
}

void DelegatePayloadView::showDelegate(int delegateIndex)
{
    const DelegateInspection* inspection = m_snapshot ? m_snapshot->delegates.get() : nullptr;
    if (!inspection)
        return;
    const int found = inspection->find(m_method.toStdString(), std::uint32_t(std::max(delegateIndex, 0)));
    const auto it = std::find(m_delegates.begin(), m_delegates.end(), found);
    if (delegateIndex < 0 || it == m_delegates.end())
        return;
    m_chooser->setCurrentIndex(int(it - m_delegates.begin()));
}

void DelegatePayloadView::selectInnerNodes(const std::vector<std::uint32_t>& nodes)
{
    m_selecting = true;
    auto* selection = m_nodesView->selectionModel();
    selection->clearSelection();
    QItemSelection rows;
    for (const auto n : nodes)
        if (const int row = m_nodeModel->rowOfNode(n); row >= 0)
            rows.select(m_nodeModel->index(row, 0), m_nodeModel->index(row, m_nodeModel->columnCount() - 1));
    selection->select(rows, QItemSelectionModel::Select);
    if (!rows.isEmpty())
        m_nodesView->scrollTo(rows.indexes().front());
    m_selecting = false;
}

bool DelegatePayloadView::showInnerNode(int delegate, std::uint32_t node)
{
    const auto it = std::find(m_delegates.begin(), m_delegates.end(), delegate);
    if (it == m_delegates.end())
        return false;
    if (delegate != m_current) {
        m_selecting = true;
        m_chooser->setCurrentIndex(int(it - m_delegates.begin()));
        m_selecting = false;
    }
    selectInnerNodes({ node });
    return true;
}

void DelegatePayloadView::innerNodeSources(
    const std::vector<std::uint32_t>& nodes, QStringList* names, std::vector<std::int64_t>* handles) const
{
    for (const auto n : nodes) {
        const int row = m_nodeModel->rowOfNode(n);
        if (row < 0)
            continue;
        const QModelIndex index = m_nodeModel->index(row, 0);
        *names << index.data(NodeNamesRole).toStringList();
        for (const auto h : index.data(DebugHandlesRole).value<QList<qlonglong>>())
            handles->push_back(h);
    }
}

void DelegatePayloadView::showCurrent()
{
    m_nodeModel->setDelegate(m_snapshot, m_current);
    m_valueModel->setDelegate(m_snapshot, m_current);
    m_payloadModel->setDelegate(m_snapshot, m_current);
    const DelegateInspection* inspection = m_snapshot ? m_snapshot->delegates.get() : nullptr;
    if (inspection && m_current >= 0) {
        const auto& p = *inspection->delegates[std::size_t(m_current)].payload;
        const auto& links = inspection->links[std::size_t(m_current)];
        QString text = toQString(p.format);
        if (p.graphDecoded)
            text += QStringLiteral(" · %1, %2")
                        .arg(counted(qint64(p.nodes.size()), QStringLiteral("node")),
                            counted(qint64(p.values.size()), QStringLiteral("value")));
        if (links.backendInsertedNodes)
            text += QStringLiteral(" · %1 inserted by the backend").arg(links.backendInsertedNodes);
        if (!links.absorbed.empty())
            text +=
                QStringLiteral(" · %1 absorbed").arg(counted(qint64(links.absorbed.size()), QStringLiteral("handle")));
        if (pte::hasErrors(p.diagnostics))
            text += QStringLiteral(" · malformed (see Payload)");
        QString tip;
        if (const auto* t = m_nodeModel->timing()) {
            text += QStringLiteral(" · profile: %1, alignment %2")
                        .arg(counted(qint64(t->calls), QStringLiteral("call")))
                        .arg(QLatin1String(pte::alignmentQualityName(t->quality)));
        } else if (const auto& profile = m_snapshot->profile; profile
                   && profile->delegateTimes.inspection == m_snapshot->delegates
                   && !profile->delegateTimes.problem.empty()) {
            // Events the ETDump has but that could not be aligned here: say so rather than show no profile at all.
            text += QStringLiteral(" · profile not aligned: %1").arg(toQString(profile->delegateTimes.problem));
            tip = QStringLiteral("The ETDump's delegate events are not aligned with these inner nodes: %1.")
                      .arg(toQString(profile->delegateTimes.problem));
        }
        m_format->setText(text);
        m_format->setToolTip(tip);
        m_openInGraph->setEnabled(p.graphDecoded);
    } else {
        m_format->clear();
        m_format->setToolTip(QString());
        m_openInGraph->setEnabled(false);
    }
    const bool timed = m_nodeModel->timing() != nullptr;
    for (const int c : { InnerNodeModel::TimeColumn, InnerNodeModel::P10Column, InnerNodeModel::P90Column,
             InnerNodeModel::EventColumn, InnerNodeModel::AlignmentColumn })
        m_nodesView->setColumnHidden(c, !timed);
    m_nodesView->setColumnHidden(InnerNodeModel::RunValueColumn, m_nodeModel->runValues() == nullptr);
    updateEmptyTexts();
    for (auto* v : { m_nodesView, m_valuesView, m_payloadView })
        autoSize(v);
}

} // namespace pte::ui
