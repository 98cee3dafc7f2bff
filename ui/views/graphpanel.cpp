// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "views/graphpanel.h"

#include "document/delegateinspection.h"
#include "models/delegategraph.h"
#include "models/text.h"
#include "widgets/graphlayouter.h"
#include "widgets/graphview.h"

#include <QCheckBox>
#include <QFontMetricsF>
#include <QFutureWatcher>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QSplitter>
#include <QToolButton>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

namespace pte::ui {

namespace {
struct LayoutResult
{
    GraphData graph;
    GraphLayout layout;
};
constexpr int kCollapseThreshold = 600;
} // namespace

GraphPanel::GraphPanel(QWidget* parent)
    : DockView(QStringLiteral("Graph"), QStringLiteral("graphDock"), Qt::RightDockWidgetArea, parent)
{
    setObjectName(QStringLiteral("graphPanel"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    auto* bar = new QHBoxLayout;
    bar->setContentsMargins(4, 2, 4, 2);
    m_find = new QLineEdit(this);
    m_find->setObjectName(QStringLiteral("graphFind"));
    m_find->setPlaceholderText(QStringLiteral("Find node (Ctrl+F), Enter for next"));
    m_find->setClearButtonEnabled(true);
    connect(m_find, &QLineEdit::returnPressed, this, [this] { findNext(); });
    connect(m_find, &QLineEdit::textChanged, this, [this] { m_findPos = -1; });
    m_back = new QToolButton(this);
    m_back->setObjectName(QStringLiteral("graphBack"));
    m_back->setText(QStringLiteral("◀ Back"));
    m_back->setToolTip(QStringLiteral("Back to the method's graph"));
    m_back->setAutoRaise(true);
    m_back->hide();
    connect(m_back, &QToolButton::clicked, this, &GraphPanel::closeDelegate);
    bar->addWidget(m_back);
    bar->addWidget(m_find, 2);
    auto addButton = [&](const QString& text, const QString& tip, auto slot) {
        auto* b = new QToolButton(this);
        b->setText(text);
        b->setToolTip(tip);
        b->setAutoRaise(true);
        connect(b, &QToolButton::clicked, this, slot);
        bar->addWidget(b);
    };
    addButton(QStringLiteral("−"), QStringLiteral("Zoom out (-)"), [this] { m_view->zoomBy(0.8); });
    addButton(QStringLiteral("+"), QStringLiteral("Zoom in (+, Ctrl+wheel)"), [this] { m_view->zoomBy(1.25); });
    addButton(QStringLiteral("Fit"), QStringLiteral("Fit the graph (F)"), [this] { m_view->fitAll(); });
    m_collapse = new QCheckBox(QStringLiteral("Collapse large graphs"), this);
    m_collapse->setObjectName(QStringLiteral("graphCollapse"));
    m_collapse->setChecked(true);
    m_collapse->setToolTip(
        QStringLiteral("Group nodes by module path (nn_module_stack), or instructions by range, above %1 nodes")
            .arg(kCollapseThreshold));
    connect(m_collapse, &QCheckBox::toggled, this, [this] {
        m_expanded.clear();
        startLayout();
    });
    bar->addWidget(m_collapse);
    m_status = new QLabel(this);
    m_status->setObjectName(QStringLiteral("graphStatus"));
    bar->addWidget(m_status, 1);
    layout->addLayout(bar);

    auto* split = new QSplitter(Qt::Horizontal, this);
    m_view = new GraphView(split);
    m_view->setObjectName(QStringLiteral("graphView"));
    m_details = new QPlainTextEdit(split);
    m_details->setObjectName(QStringLiteral("nodeDetails"));
    m_details->setReadOnly(true);
    m_details->setPlaceholderText(QStringLiteral("Select a node to see its target, arguments, tensors, stack trace, "
                                                 "module path and debug handle."));
    m_details->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_details->setTabChangesFocus(true);
    split->addWidget(m_view);
    split->addWidget(m_details);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 1);
    const int unit = fontMetrics().averageCharWidth();
    split->setSizes({ unit * 110, unit * 40 });
    layout->addWidget(split, 1);
    connect(m_view, &GraphView::nodeActivated, this, [this](int node) {
        if (node < 0 || std::size_t(node) >= m_graph.nodes.size())
            return;
        const GraphNode& n = m_graph.nodes[std::size_t(node)];
        if (n.kind == GraphNode::Kind::Cluster && !n.modulePath.isEmpty())
            expandGroup(n.modulePath);
        if (n.kind == GraphNode::Kind::Delegate && m_snapshot)
            if (const auto d = delegateOfNode(*m_snapshot, m_method, n))
                openDelegate(*d);
    });
    connect(m_view, &GraphView::nodeSelectionChanged, this, [this] {
        showDetails();
        Q_EMIT nodesSelected();
    });
}

GraphPanel::~GraphPanel()
{
    disconnect(m_view, nullptr, this, nullptr);
    if (m_cancel)
        m_cancel->store(true);
    for (auto& job : m_jobs)
        job.waitForFinished();
}

QWidget* GraphPanel::focusTarget() const { return m_view; }

void GraphPanel::setMethod(std::shared_ptr<const Snapshot> snapshot, const QString& method)
{
    if (method != m_method)
        m_expanded.clear();
    if (method != m_method || snapshot != m_snapshot)
        m_delegate = -1; // delegate indices belong to one snapshot and method
    m_snapshot = std::move(snapshot);
    m_method = method;
    startLayout();
}

void GraphPanel::startLayout()
{
    if (m_cancel)
        m_cancel->store(true);
    m_jobs.removeIf([](const QFuture<void>& f) { return f.isFinished(); });
    const quint64 generation = ++m_generation;
    m_pending.reset();
    m_graph = {};
    m_view->clearGraph();
    m_details->clear();
    if (!m_snapshot || m_method.isEmpty()) {
        m_status->clear();
        m_busy = false;
        return;
    }
    m_busy = true;
    m_status->setText(QStringLiteral("Laying out…"));
    auto cancel = std::make_shared<std::atomic<bool>>(false);
    m_cancel = cancel;
    const QFontMetricsF fm(m_view->font());
    LayoutMetrics metrics;
    metrics.charWidth = fm.averageCharWidth() * 1.25; // labels are bold
    metrics.lineHeight = fm.lineSpacing();
    const int threshold = m_collapse->isChecked() ? kCollapseThreshold : 1 << 30;
    auto snapshot = m_snapshot;
    const QString method = m_method;
    const QSet<QString> expanded = m_expanded;
    const int delegate = m_snapshot->delegates ? m_delegate : -1;
    m_back->setVisible(delegate >= 0);
    auto* watcher = new QFutureWatcher<LayoutResult>(this);
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, generation] {
        watcher->deleteLater();
        if (generation != m_generation || watcher->future().resultCount() == 0)
            return;
        LayoutResult result = watcher->future().result();
        m_graph = std::move(result.graph);
        m_view->setGraph(m_graph, result.layout);
        m_busy = false;
        QString status = QStringLiteral("%1 nodes, %2 edges").arg(m_graph.nodes.size()).arg(m_graph.edges.size());
        if (m_graph.collapsed)
            status += QStringLiteral(" (collapsed from %1%2)")
                          .arg(m_graph.originalNodeCount)
                          .arg(m_expanded.isEmpty() ? QStringLiteral("; double-click a group to expand it")
                                                    : QStringLiteral("; %1 expanded").arg(m_expanded.size()));
        if (m_graph.instructionGraph)
            status += QStringLiteral(" · instruction graph");
        if (m_delegate >= 0 && m_snapshot && m_snapshot->delegates) {
            const auto& d = m_snapshot->delegates->delegates[std::size_t(m_delegate)];
            status = QStringLiteral("Inside delegate %1 (%2) of %3: %4")
                         .arg(d.delegateIndex)
                         .arg(toQString(d.payload->backendId), m_method, status);
            if (m_graph.nodes.empty())
                status += QStringLiteral(" · the payload has no decoded graph");
        }
        status += QStringLiteral(" · %1").arg(result.layout.engine);
        m_status->setText(status);
        if (m_pending) {
            const PendingSelection pending = std::move(*m_pending);
            m_pending.reset();
            selectFor(pending.instruction, pending.names, pending.handles);
        }
        Q_EMIT layoutFinished();
    });
    QFuture<LayoutResult> future =
        QtConcurrent::run([snapshot, method, threshold, metrics, cancel, expanded, delegate]() {
            LayoutResult r;
            r.graph = delegate >= 0 ? buildDelegateGraph(*snapshot->delegates, delegate)
                                    : buildGraph(*snapshot, method, threshold, cancel.get(), expanded);
            if (!cancel->load())
                r.layout = layoutGraph(r.graph, metrics, 2500, cancel.get());
            return r;
        });
    watcher->setFuture(future);
    m_jobs.append(QFuture<void>(future));
}

void GraphPanel::selectFor(int instruction, const QStringList& nodeNames, const std::vector<std::int64_t>& handles)
{
    if (m_busy) {
        m_pending = PendingSelection { instruction, nodeNames, handles };
        return;
    }
    std::vector<int> hits;
    for (std::size_t i = 0; i < m_graph.nodes.size(); ++i) {
        const GraphNode& n = m_graph.nodes[i];
        bool match = instruction >= 0
            && (n.instruction == instruction
                || (n.firstInstruction >= 0 && instruction >= n.firstInstruction && instruction <= n.lastInstruction));
        if (m_graph.instructionGraph && instruction >= 0) {
            if (match)
                hits.push_back(int(i));
            continue;
        }
        for (const auto& name : nodeNames)
            match = match || n.members.contains(name);
        for (const auto h : handles)
            match = match || std::find(n.debugHandles.begin(), n.debugHandles.end(), h) != n.debugHandles.end();
        if (match)
            hits.push_back(int(i));
    }
    m_view->selectNodes(hits);
    showDetails();
}

void GraphPanel::expandGroup(const QString& modulePath)
{
    if (m_expanded.contains(modulePath))
        return;
    m_expanded.insert(modulePath);
    startLayout();
}

void GraphPanel::collapseAllGroups()
{
    if (m_expanded.isEmpty())
        return;
    m_expanded.clear();
    startLayout();
}

std::vector<int> GraphPanel::selectedNodes() const { return m_view->selectedNodes(); }

void GraphPanel::openDelegate(int delegate)
{
    if (!m_snapshot || !m_snapshot->delegates || delegate < 0
        || std::size_t(delegate) >= m_snapshot->delegates->delegates.size() || delegate == m_delegate)
        return;
    m_delegate = delegate;
    startLayout();
    Q_EMIT delegateOpened(delegate);
}

void GraphPanel::closeDelegate()
{
    if (m_delegate < 0)
        return;
    m_delegate = -1;
    startLayout();
    Q_EMIT delegateOpened(-1);
}

void GraphPanel::selectInnerNodes(const std::vector<std::uint32_t>& nodes)
{
    if (m_delegate < 0 || m_busy)
        return;
    std::vector<int> hits;
    for (std::size_t i = 0; i < m_graph.nodes.size(); ++i)
        if (m_graph.nodes[i].innerNode >= 0
            && std::find(nodes.begin(), nodes.end(), std::uint32_t(m_graph.nodes[i].innerNode)) != nodes.end())
            hits.push_back(int(i));
    m_view->selectNodes(hits);
    showDetails();
}

void GraphPanel::focusFind()
{
    m_find->setFocus(Qt::ShortcutFocusReason);
    m_find->selectAll();
}

bool GraphPanel::findNext()
{
    const QString text = m_find->text().trimmed();
    if (text.isEmpty() || m_graph.nodes.empty())
        return false;
    const int n = int(m_graph.nodes.size());
    for (int step = 1; step <= n; ++step) {
        const int i = (m_findPos + step) % n;
        const GraphNode& node = m_graph.nodes[std::size_t(i)];
        if (node.label.contains(text, Qt::CaseInsensitive) || node.subtitle.contains(text, Qt::CaseInsensitive)
            || node.modulePath.contains(text, Qt::CaseInsensitive)) {
            m_findPos = i;
            m_view->selectNodes({ i });
            showDetails();
            Q_EMIT nodesSelected();
            return true;
        }
    }
    m_status->setText(QStringLiteral("“%1” not found").arg(text));
    return false;
}

void GraphPanel::showDetails()
{
    const auto nodes = m_view->selectedNodes();
    if (nodes.empty()) {
        m_details->clear();
        return;
    }
    QString text;
    for (std::size_t k = 0; k < nodes.size() && k < 20; ++k) {
        if (k)
            text += QStringLiteral("\n────────\n");
        text += m_graph.nodes[std::size_t(nodes[k])].details;
    }
    if (nodes.size() > 20)
        text += QStringLiteral("\n… and %1 more selected nodes").arg(nodes.size() - 20);
    m_details->setPlainText(text);
}

} // namespace pte::ui
