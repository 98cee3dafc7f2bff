// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "views/graphpanel.h"

#include "document/delegateinspection.h"
#include "models/delegategraph.h"
#include "models/text.h"
#include "widgets/graphlayouter.h"
#include "widgets/graphview.h"
#include "widgets/savepath.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFileInfo>
#include <QFontMetricsF>
#include <QFutureWatcher>
#include <QHBoxLayout>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QLinearGradient>
#include <QMenu>
#include <QPainter>
#include <QPixmap>
#include <QPlainTextEdit>
#include <QSplitter>
#include <QTextOption>
#include <QToolButton>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>
#include <cmath>
#include <set>

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
    : DockView(QStringLiteral("Graph"), QStringLiteral("graphDock"), Qt::NoDockWidgetArea, parent)
{
    setObjectName(QStringLiteral("graphPanel"));
    // The window's central area: it keeps a useful size whatever the window's size and the docks' sizes.
    setMinimumSize(fontMetrics().averageCharWidth() * 50, fontMetrics().lineSpacing() * 18);
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
    m_find->setMinimumWidth(fontMetrics().averageCharWidth() * 18);
    bar->addWidget(m_find, 2);
    // Back from a lowered module's original program or a delegate's inner graph to the method's graph.
    m_back = new QToolButton(this);
    m_back->setObjectName(QStringLiteral("graphBack"));
    m_back->setAutoRaise(true);
    m_back->setToolButtonStyle(Qt::ToolButtonTextOnly);
    m_back->hide();
    connect(m_back, &QToolButton::clicked, this, [this] {
        closeLoweredModule();
        closeDelegate();
    });
    bar->addWidget(m_back);
    // A delegate seen both ways: the payload's inner graph and the lowered module's original program.
    m_switch = new QToolButton(this);
    m_switch->setObjectName(QStringLiteral("graphSwitch"));
    m_switch->setAutoRaise(true);
    m_switch->setToolButtonStyle(Qt::ToolButtonTextOnly);
    m_switch->hide();
    connect(m_switch, &QToolButton::clicked, this, [this] {
        if (m_delegate >= 0 && !m_counterpartModule.isEmpty())
            openLoweredModule(m_counterpartModule);
        else if (!m_loweredModule.isEmpty() && m_counterpartDelegate >= 0)
            openDelegate(m_counterpartDelegate);
    });
    bar->addWidget(m_switch);
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
    m_groupModules = new QCheckBox(QStringLiteral("Group by module"), this);
    m_groupModules->setObjectName(QStringLiteral("graphGroupModules"));
    m_groupModules->setToolTip(QStringLiteral(
        "Group a graph dump's nodes by module (nn_module_stack) at every size: double-click a group to expand it in "
        "place, right-click a node to collapse its module again"));
    connect(m_groupModules, &QCheckBox::toggled, this, [this] {
        m_expanded.clear();
        startLayout();
    });
    bar->addWidget(m_groupModules);
    m_colourBy = new QComboBox(this);
    m_colourBy->setObjectName(QStringLiteral("graphColourBy"));
    m_colourBy->addItem(QStringLiteral("Colour by kind"), int(Colouring::Kind));
    m_colourBy->addItem(QStringLiteral("Colour by time"), int(Colouring::Time));
    m_colourBy->addItem(QStringLiteral("Colour by share"), int(Colouring::Share));
    m_colourBy->addItem(QStringLiteral("Colour by run value"), int(Colouring::RunValue));
    m_colourBy->addItem(QStringLiteral("Colour by run gap"), int(Colouring::RunGap));
    m_colourBy->setToolTip(QStringLiteral("With an ETDump open: measured self time (relative to the hottest node) or "
                                          "share of the method's execution. After Program > Run…: the largest "
                                          "|element| each node wrote, or a bundled case's gap (MSE) to its expected "
                                          "outputs"));
    m_colourBy->setEnabled(false);
    connect(m_colourBy, &QComboBox::currentIndexChanged, this, [this] { applyHeat(); });
    bar->addWidget(m_colourBy);
    m_legend = new QLabel(this);
    m_legend->setObjectName(QStringLiteral("graphLegend"));
    m_legend->hide();
    bar->addWidget(m_legend);
    m_status = new QLabel(this);
    m_status->setObjectName(QStringLiteral("graphStatus"));
    // Long status texts are cut (the tooltip has them whole) rather than squeezing the Find box.
    m_status->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_status->setMinimumWidth(0);
    bar->addWidget(m_status, 1);
    layout->addLayout(bar);

    auto* split = new QSplitter(Qt::Horizontal, this);
    m_view = new GraphView(split);
    m_view->setObjectName(QStringLiteral("graphView"));
    m_view->setEmptyText(QStringLiteral(
        "No graph: open a .pte, a .pt2 archive, an exported-program JSON or an ETRecord (Ctrl+O), or drop one on the "
        "window"));
    m_details = new QPlainTextEdit(split);
    m_details->setObjectName(QStringLiteral("nodeDetails"));
    m_details->setReadOnly(true);
    m_details->setPlaceholderText(QStringLiteral("Select a node to see its target, arguments, tensors, stack trace, "
                                                 "module path and debug handle."));
    // Wrapped: targets, module paths and the nodes a delegate absorbed are read whole, not cut at the edge (a long
    // name without spaces breaks anywhere).
    m_details->setLineWrapMode(QPlainTextEdit::WidgetWidth);
    m_details->setWordWrapMode(QTextOption::WrapAtWordBoundaryOrAnywhere);
    m_details->setTabChangesFocus(true);
    // Keyboard focus is visible here as in the diagram (a read-only text shows no cursor).
    m_details->setStyleSheet(QStringLiteral("QPlainTextEdit:focus { border: 2px solid palette(highlight); }"));
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
        else if (!n.loweredModule.isEmpty())
            openLoweredModule(n.loweredModule);
        else if (n.kind == GraphNode::Kind::Delegate && m_snapshot)
            if (const auto d = delegateOfNode(*m_snapshot, m_method, n))
                openDelegate(*d);
    });
    connect(m_view, &GraphView::exportRequested, this, &GraphPanel::exportDialog);
    // Right-click on a node of an expanded module: collapse that module (or one around it) in place.
    connect(m_view, &GraphView::contextMenuRequested, this, [this](int node, QMenu* menu) {
        if (node < 0 || std::size_t(node) >= m_graph.nodes.size())
            return;
        const GraphNode& n = m_graph.nodes[std::size_t(node)];
        QStringList around;
        for (const QString& m : m_expanded)
            if (n.kind != GraphNode::Kind::Cluster ? (n.modulePath == m || n.modulePath.startsWith(m + QLatin1Char('.'))
                    || (n.kind == GraphNode::Kind::Constant && m == QLatin1String("parameters and buffers")))
                                                   : n.modulePath.startsWith(m + QLatin1Char('.')))
                around << m;
        std::sort(around.begin(), around.end(), [](const QString& a, const QString& b) { return a.size() > b.size(); });
        if (n.kind == GraphNode::Kind::Cluster && !n.modulePath.isEmpty())
            menu->addAction(QStringLiteral("Expand %1").arg(n.modulePath), this,
                [this, path = n.modulePath] { expandGroup(path); });
        for (const QString& m : around)
            menu->addAction(QStringLiteral("Collapse %1").arg(m), this, [this, m] { collapseGroup(m); });
        if (!m_expanded.isEmpty())
            menu->addAction(QStringLiteral("Collapse All Groups"), this, &GraphPanel::collapseAllGroups);
        menu->addSeparator();
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
    const bool hadProfile = m_snapshot && m_snapshot->profile;
    const bool hadRun = m_snapshot && currentRun(*m_snapshot, m_method.toStdString());
    m_loweredModule.clear();
    m_delegate = -1; // delegate indices belong to one snapshot and method
    m_counterpartModule.clear();
    m_counterpartDelegate = -1;
    m_snapshot = std::move(snapshot);
    m_method = method;
    const bool hasProfile = m_snapshot && m_snapshot->profile;
    m_view->setEmptyText(m_snapshot && !m_snapshot->methods.empty() ? QString()
            : hasProfile ? QStringLiteral("No graph: this ETDump is open on its own. Open its program (.pte, or the "
                                          "graph dumps it was emitted from) to join them and see where the time went.")
                         : QStringLiteral("No graph: open a .pte, a .pt2 archive, an exported-program JSON or an "
                                          "ETRecord (Ctrl+O), or drop one on the window"));
    const bool hasRun = m_snapshot && currentRun(*m_snapshot, m_method.toStdString());
    m_colourBy->setEnabled(hasProfile || hasRun);
    if (hasProfile != hadProfile || hasRun != hadRun) {
        const QSignalBlocker blocker(m_colourBy);
        const auto mode = colouring();
        const bool runMode = mode == Colouring::RunValue || mode == Colouring::RunGap;
        if (hasRun && !hadRun)
            m_colourBy->setCurrentIndex(int(Colouring::RunValue)); // a new run: show it
        else if ((!hasRun && runMode) || (hasProfile != hadProfile && !runMode))
            m_colourBy->setCurrentIndex(hasProfile ? int(Colouring::Time) : int(Colouring::Kind));
    }
    startLayout();
}

void GraphPanel::setColouring(Colouring colouring) { m_colourBy->setCurrentIndex(int(colouring)); }

GraphPanel::Colouring GraphPanel::colouring() const { return Colouring(m_colourBy->currentData().toInt()); }

double GraphPanel::nodeTime(int node) const
{
    if (!m_snapshot || !m_snapshot->profile || node < 0 || std::size_t(node) >= m_graph.nodes.size())
        return -1;
    const auto& profile = *m_snapshot->profile;
    const GraphNode& n = m_graph.nodes[std::size_t(node)];
    const std::string method = m_method.toStdString();
    if (m_delegate >= 0) { // a delegate's inner graph: its nodes' aligned events
        const auto* t = profile.delegateTimes.of(m_snapshot->delegates.get(), m_delegate);
        if (!t || n.innerNode < 0 || std::size_t(n.innerNode) >= t->nodes.size())
            return -1;
        const auto& inner = t->nodes[std::size_t(n.innerNode)];
        return inner.hasTimes() && !std::isnan(inner.p50) ? inner.p50 : -1;
    }
    if (m_graph.instructionGraph) {
        const auto* t = profile.timing(method);
        if (!t)
            return -1;
        double sum = 0;
        bool any = false;
        const int first = n.instruction >= 0 ? n.instruction : n.firstInstruction;
        const int last = n.instruction >= 0 ? n.instruction : n.lastInstruction;
        for (int i = first; i >= 0 && i <= last; ++i)
            if (const auto* it = t->find(0, i)) {
                sum += it->median;
                any = true;
            }
        return any ? sum : -1;
    }
    const auto byName = profile.nodeTimings.find(method);
    if (byName == profile.nodeTimings.end())
        return -1;
    double sum = 0;
    bool any = false;
    for (const auto& member : n.members)
        if (const auto it = byName->second.find(member.toStdString()); it != byName->second.end()) {
            sum += it->second.time;
            any = true;
        }
    return any ? sum : -1;
}

std::set<std::int32_t> GraphPanel::nodeInstructions(int node) const
{
    std::set<std::int32_t> instructions;
    if (!m_snapshot || m_delegate >= 0 || !m_loweredModule.isEmpty() || node < 0
        || std::size_t(node) >= m_graph.nodes.size())
        return instructions;
    const GraphNode& n = m_graph.nodes[std::size_t(node)];
    // Its own (instruction graphs), or those whose debug handles it carries (dump graphs).
    if (m_graph.instructionGraph) {
        const int first = n.instruction >= 0 ? n.instruction : n.firstInstruction;
        const int last = n.instruction >= 0 ? n.instruction : n.lastInstruction;
        for (int i = first; i >= 0 && i <= last; ++i)
            instructions.insert(i);
    } else if (const MethodEntry* m = m_snapshot->method(m_method.toStdString()); m && m->debugHandles) {
        for (const auto& [instruction, handles] : *m->debugHandles)
            for (const auto h : handles)
                if (std::find(n.debugHandles.begin(), n.debugHandles.end(), h) != n.debugHandles.end())
                    instructions.insert(std::int32_t(instruction));
    }
    return instructions;
}

double GraphPanel::nodeRunMetric(int node, bool gap) const
{
    const RunResult* run = m_snapshot ? currentRun(*m_snapshot, m_method.toStdString()) : nullptr;
    if (!run)
        return -1;
    const auto instructions = nodeInstructions(node);
    // Floating values speak for the node when it wrote any (max_pool2d's indices are not activations).
    double metric = -1;
    double floating = -1;
    for (const auto& [id, f] : run->summary.values) {
        if (f.instruction < 0 || !instructions.count(f.instruction))
            continue;
        if (gap && f.gap) {
            metric = std::max(metric, f.gap->mse);
        } else if (!gap && f.stats && f.stats->count > f.stats->nanCount + f.stats->infCount) {
            const double m = std::max(std::fabs(f.stats->min), std::fabs(f.stats->max));
            metric = std::max(metric, m);
            if (f.dtype == pte::ScalarType::Float || f.dtype == pte::ScalarType::Double
                || f.dtype == pte::ScalarType::Half || f.dtype == pte::ScalarType::BFloat16)
                floating = std::max(floating, m);
        }
    }
    return floating >= 0 ? floating : metric;
}

void GraphPanel::showLegend(const QString& low, const QString& high, const QString& tooltip)
{
    const int w = 90;
    const int h = fontMetrics().height() - 4;
    QPixmap ramp(w, h);
    QPainter p(&ramp);
    QLinearGradient g(0, 0, w, 0);
    for (int k = 0; k <= 4; ++k)
        g.setColorAt(k / 4.0, heatColor(k / 4.0));
    p.fillRect(ramp.rect(), g);
    p.end();
    const int x0 = fontMetrics().horizontalAdvance(low + QLatin1Char(' '));
    QPixmap withText(x0 + w + fontMetrics().horizontalAdvance(high) + 8, h + 4);
    withText.fill(Qt::transparent);
    QPainter q(&withText);
    q.setPen(palette().color(QPalette::WindowText));
    q.drawText(QRect(0, 0, x0, h + 4), Qt::AlignVCenter, low);
    q.drawPixmap(x0, 2, ramp);
    q.drawText(QRect(x0 + w + 4, 0, withText.width() - x0 - w - 4, h + 4), Qt::AlignVCenter, high);
    q.end();
    m_legend->setPixmap(withText);
    m_legend->setToolTip(tooltip);
    m_legend->show();
}

void GraphPanel::applyHeat()
{
    m_heat.clear();
    const auto mode = colouring();
    if (mode == Colouring::RunValue || mode == Colouring::RunGap) {
        const bool gap = mode == Colouring::RunGap;
        std::vector<double> metric(m_graph.nodes.size());
        double top = 0;
        bool any = false;
        for (std::size_t i = 0; i < metric.size(); ++i) {
            metric[i] = nodeRunMetric(int(i), gap);
            any = any || metric[i] >= 0;
            top = std::max(top, metric[i]);
        }
        m_heat.assign(metric.size(), -1.0);
        for (std::size_t i = 0; i < metric.size(); ++i)
            if (metric[i] >= 0)
                m_heat[i] = top > 0 ? metric[i] / top : 0.0;
        m_view->setHeat(any ? m_heat : std::vector<double> {});
        if (!any) {
            m_heat.clear();
            m_legend->setPixmap({});
            m_legend->setText(
                gap ? QStringLiteral("no gap: run a bundled test case") : QStringLiteral("no run values"));
            m_legend->setToolTip({});
            m_legend->show();
            return;
        }
        m_legend->setText({});
        showLegend(QStringLiteral("0"),
            gap ? QStringLiteral("MSE %1").arg(top, 0, 'g', 3) : QStringLiteral("|x| %1").arg(top, 0, 'g', 3),
            gap ? QStringLiteral("The gap (MSE) of the outputs each node wrote to the bundled case's expected outputs; "
                                 "grey: none")
                : QStringLiteral("The largest |element| each node wrote in the run, relative to the largest in the "
                                 "graph; grey: nothing recorded"));
        return;
    }
    m_legend->setText({});
    const auto* timing =
        m_snapshot && m_snapshot->profile ? m_snapshot->profile->timing(m_method.toStdString()) : nullptr;
    if (mode == Colouring::Kind || !timing || m_graph.nodes.empty()) {
        m_view->setHeat({});
        m_legend->hide();
        return;
    }
    std::vector<double> times(m_graph.nodes.size());
    double hottest = 0;
    for (std::size_t i = 0; i < times.size(); ++i) {
        times[i] = nodeTime(int(i));
        hottest = std::max(hottest, times[i]);
    }
    const double scale = mode == Colouring::Time ? hottest : timing->executeMedian;
    m_heat.resize(times.size(), -1.0);
    for (std::size_t i = 0; i < times.size(); ++i)
        if (times[i] >= 0)
            m_heat[i] = scale > 0 ? times[i] / scale : 0.0;
    m_view->setHeat(m_heat);
    const QString unit = QLatin1String(pte::timeScaleName(m_snapshot->profile->table.options.target));
    const QString high = mode == Colouring::Time ? QStringLiteral("%1 %2").arg(hottest, 0, 'g', 3).arg(unit)
                                                 : QStringLiteral("100% of %1 %2").arg(scale, 0, 'g', 3).arg(unit);
    showLegend(QStringLiteral("0"), high,
        mode == Colouring::Time ? QStringLiteral("Measured self time per node (median over runs); grey: not measured")
                                : QStringLiteral("Share of the method's median execution time; grey: not measured"));
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
    const int delegate = m_snapshot && m_snapshot->delegates ? m_delegate : -1;
    m_back->setVisible(!m_loweredModule.isEmpty() || delegate >= 0);
    m_switch->setVisible((delegate >= 0 && !m_counterpartModule.isEmpty())
        || (!m_loweredModule.isEmpty() && m_counterpartDelegate >= 0));
    m_switch->setText(delegate >= 0 ? QStringLiteral("Original program") : QStringLiteral("Inside the payload"));
    m_switch->setToolTip(delegate >= 0
            ? QStringLiteral("The nodes this delegate call stands for, as the dump recorded them before lowering")
            : QStringLiteral("The graph the backend compiled, decoded from the delegate's payload"));
    m_back->setText(QStringLiteral("‹ %1").arg(m_method));
    m_back->setToolTip(QStringLiteral("Back to the graph of %1").arg(m_method));
    if (!m_snapshot || m_method.isEmpty()) {
        setStatus({});
        m_busy = false;
        return;
    }
    m_busy = true;
    setStatus(QStringLiteral("Laying out…"));
    auto cancel = std::make_shared<std::atomic<bool>>(false);
    m_cancel = cancel;
    const QFontMetricsF fm(m_view->font());
    LayoutMetrics metrics;
    metrics.charWidth = fm.averageCharWidth() * 1.25; // labels are bold
    metrics.lineHeight = fm.lineSpacing();
    const int threshold = m_collapse->isChecked() ? kCollapseThreshold : 1 << 30;
    auto snapshot = m_snapshot;
    const QString method = m_method;
    const QString lowered = m_loweredModule;
    const QSet<QString> expanded = m_expanded;
    const bool groupByModule = m_groupModules->isChecked();
    auto* watcher = new QFutureWatcher<LayoutResult>(this);
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, generation] {
        watcher->deleteLater();
        if (generation != m_generation || watcher->future().resultCount() == 0)
            return;
        LayoutResult result = watcher->future().result();
        m_graph = std::move(result.graph);
        m_view->setGraph(m_graph, result.layout);
        m_busy = false;
        applyHeat();
        QString status = QStringLiteral("%1, %2").arg(counted(qint64(m_graph.nodes.size()), QStringLiteral("node")),
            counted(qint64(m_graph.edges.size()), QStringLiteral("edge")));
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
        if (!m_graph.loweredModule.isEmpty())
            status = QStringLiteral("%1: original program · %2").arg(m_graph.loweredModule, status);
        status += QStringLiteral(" · %1").arg(result.layout.engine);
        setStatus(status);
        // A group expanded or collapsed: show where it was (its first node), not the top of the graph.
        if (const QString member = std::exchange(m_focusMember, QString()); !member.isEmpty() && !m_pending)
            for (std::size_t i = 0; i < m_graph.nodes.size(); ++i)
                if (m_graph.nodes[i].members.contains(member)) {
                    m_view->selectNodes({ int(i) });
                    showDetails();
                    break;
                }
        if (m_pending) {
            const PendingSelection pending = std::move(*m_pending);
            m_pending.reset();
            selectFor(pending.instruction, pending.names, pending.handles);
        }
        Q_EMIT layoutFinished();
    });
    QFuture<LayoutResult> future =
        QtConcurrent::run([snapshot, method, lowered, threshold, metrics, cancel, expanded, delegate, groupByModule]() {
            LayoutResult r;
            r.graph = delegate >= 0
                ? buildDelegateGraph(*snapshot->delegates, delegate)
                : buildGraph(*snapshot, method, threshold, cancel.get(), expanded, lowered, groupByModule);
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
    // The view comes back to the group's first node once laid out, as if it opened in place.
    m_focusMember.clear();
    for (const auto& n : m_graph.nodes)
        if (n.kind == GraphNode::Kind::Cluster && n.modulePath == modulePath && !n.members.isEmpty())
            m_focusMember = n.members.front();
    m_expanded.insert(modulePath);
    startLayout();
}

void GraphPanel::collapseGroup(const QString& modulePath)
{
    const auto before = m_expanded.size();
    m_expanded.removeIf(
        [&](const QString& m) { return m == modulePath || m.startsWith(modulePath + QLatin1Char('.')); });
    if (m_expanded.size() == before)
        return;
    m_focusMember.clear();
    for (const auto& n : m_graph.nodes)
        if (n.kind != GraphNode::Kind::Cluster
            && (n.modulePath == modulePath || n.modulePath.startsWith(modulePath + QLatin1Char('.')))
            && !n.members.isEmpty()) {
            m_focusMember = n.members.front();
            break;
        }
    startLayout();
}

void GraphPanel::setGroupByModule(bool on) { m_groupModules->setChecked(on); }

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
    findCounterpart({}, delegate);
    m_delegate = delegate;
    m_loweredModule.clear();
    startLayout();
    Q_EMIT delegateOpened(delegate);
}

void GraphPanel::closeDelegate()
{
    if (m_delegate < 0)
        return;
    m_delegate = -1;
    m_counterpartModule.clear();
    m_counterpartDelegate = -1;
    startLayout();
    Q_EMIT delegateOpened(-1);
}

void GraphPanel::findCounterpart(const QString& loweredModule, int delegate)
{
    const bool methodGraph = m_delegate < 0 && m_loweredModule.isEmpty() && !m_busy;
    if (!methodGraph) {
        // Switching between the two views of one delegate keeps the pair; anything else forgets it.
        const bool samePair = (delegate >= 0 && delegate == m_counterpartDelegate)
            || (!loweredModule.isEmpty() && loweredModule == m_counterpartModule);
        if (samePair) {
            m_counterpartModule = delegate >= 0 ? m_loweredModule : QString();
            m_counterpartDelegate = delegate >= 0 ? -1 : m_delegate;
        } else {
            m_counterpartModule.clear();
            m_counterpartDelegate = -1;
        }
        return;
    }
    m_counterpartModule.clear();
    m_counterpartDelegate = -1;
    if (!m_snapshot)
        return;
    for (const GraphNode& n : m_graph.nodes) {
        if (n.kind != GraphNode::Kind::Delegate)
            continue;
        if (delegate >= 0 && !n.loweredModule.isEmpty() && delegateOfNode(*m_snapshot, m_method, n) == delegate) {
            m_counterpartModule = n.loweredModule;
            return;
        }
        if (!loweredModule.isEmpty() && n.loweredModule == loweredModule) {
            if (const auto d = delegateOfNode(*m_snapshot, m_method, n);
                d && m_snapshot->delegates && m_snapshot->delegates->delegates[std::size_t(*d)].payload->graphDecoded)
                m_counterpartDelegate = *d;
            return;
        }
    }
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

QString GraphPanel::statusText() const { return m_status->text(); }

void GraphPanel::exportDialog(bool visibleOnly)
{
    if (m_view->nodeCount() == 0)
        return;
    QStringList inputs;
    if (m_snapshot)
        for (const auto& p : m_snapshot->inputPaths)
            inputs << toQString(p);
    QString what = m_method;
    if (m_delegate >= 0)
        what += QStringLiteral(".delegate%1").arg(m_delegate);
    else if (!m_loweredModule.isEmpty())
        what += QLatin1Char('.') + m_loweredModule;
    const QString path = askSavePath(this,
        visibleOnly ? QStringLiteral("Export the visible part of the graph") : QStringLiteral("Export the graph"),
        QStringLiteral("PNG image (*.png);;SVG image (*.svg)"), QStringLiteral("png"),
        proposedSavePath(inputs, QStringLiteral(".%1.png").arg(what)), [inputs](const QString& p) {
            return std::any_of(inputs.begin(), inputs.end(), [&p](const QString& in) {
                return QFileInfo(in).absoluteFilePath() == QFileInfo(p).absoluteFilePath();
            });
        });
    if (path.isEmpty())
        return;
    QString error;
    if (!m_view->exportImage(path, visibleOnly, &error))
        setStatus(error);
    else
        setStatus(QStringLiteral("Exported %1").arg(QFileInfo(path).fileName()));
}

void GraphPanel::setStatus(const QString& text)
{
    m_status->setText(text);
    m_status->setToolTip(text);
}

void GraphPanel::openLoweredModule(const QString& moduleName)
{
    const QString name = moduleName; // a copy: the caller may pass m_counterpartModule, which findCounterpart resets
    if (name.isEmpty() || name == m_loweredModule)
        return;
    findCounterpart(name, -1);
    const bool leftDelegate = m_delegate >= 0;
    m_delegate = -1;
    m_loweredModule = name;
    m_expanded.clear();
    startLayout();
    if (leftDelegate)
        Q_EMIT delegateOpened(-1);
}

void GraphPanel::closeLoweredModule()
{
    if (m_loweredModule.isEmpty())
        return;
    m_loweredModule.clear();
    m_counterpartModule.clear();
    m_counterpartDelegate = -1;
    m_expanded.clear();
    startLayout();
}

void GraphPanel::clearFilters()
{
    m_find->clear();
    m_findPos = -1;
}

QString GraphPanel::selectedNodesText(bool json) const
{
    const auto nodes = m_view->selectedNodes();
    if (json) {
        QJsonArray array;
        for (const int i : nodes) {
            const GraphNode& n = m_graph.nodes[std::size_t(i)];
            QJsonObject o;
            o.insert(QStringLiteral("label"), n.label);
            o.insert(QStringLiteral("name"), n.subtitle);
            o.insert(QStringLiteral("members"), QJsonArray::fromStringList(n.members));
            QJsonArray handles;
            for (const auto h : n.debugHandles)
                handles.append(qint64(h));
            o.insert(QStringLiteral("debugHandles"), handles);
            array.append(o);
        }
        return nodes.empty() ? QString() : QString::fromUtf8(QJsonDocument(array).toJson(QJsonDocument::Indented));
    }
    QStringList parts;
    for (const int i : nodes)
        parts << m_graph.nodes[std::size_t(i)].details;
    return parts.join(QStringLiteral("\n"));
}

QString GraphPanel::graphName() const
{
    if (m_delegate >= 0 && m_snapshot && m_snapshot->delegates) {
        const auto& d = m_snapshot->delegates->delegates[std::size_t(m_delegate)];
        return QStringLiteral("inside delegate %1 (%2) of %3")
            .arg(d.delegateIndex)
            .arg(toQString(d.payload->backendId), m_method);
    }
    if (!m_loweredModule.isEmpty())
        return QStringLiteral("in %1 (original program of a delegate of %2)").arg(m_loweredModule, m_method);
    return QStringLiteral("in the graph of %1").arg(m_method);
}

bool GraphPanel::findNext()
{
    const QString text = m_find->text().trimmed();
    if (text.isEmpty() || m_graph.nodes.empty())
        return false;
    auto contains = [&text](const QStringList& list) {
        return std::any_of(
            list.begin(), list.end(), [&text](const QString& s) { return s.contains(text, Qt::CaseInsensitive); });
    };
    // Every match, in node order: the status counts them ("2 of 4") and says which graph was searched.
    std::vector<int> matches;
    std::vector<bool> absorbedOnly;
    for (std::size_t i = 0; i < m_graph.nodes.size(); ++i) {
        const GraphNode& node = m_graph.nodes[i];
        const bool direct = node.label.contains(text, Qt::CaseInsensitive)
            || node.subtitle.contains(text, Qt::CaseInsensitive) || node.modulePath.contains(text, Qt::CaseInsensitive)
            || contains(node.members);
        // Nodes a delegate absorbed are found at the delegate call.
        if (direct || contains(node.absorbed)) {
            matches.push_back(int(i));
            absorbedOnly.push_back(!direct);
        }
    }
    if (matches.empty()) {
        setStatus(QStringLiteral("“%1” not found %2").arg(text, graphName()));
        return false;
    }
    const auto next = std::upper_bound(matches.begin(), matches.end(), m_findPos);
    const std::size_t k = next == matches.end() ? 0 : std::size_t(next - matches.begin());
    const int i = matches[k];
    const GraphNode& node = m_graph.nodes[std::size_t(i)];
    m_findPos = i;
    m_view->selectNodes({ i });
    showDetails();
    Q_EMIT nodesSelected();
    QString status = QStringLiteral("“%1”: %2 of %3 %4").arg(text).arg(k + 1).arg(matches.size()).arg(graphName());
    if (absorbedOnly[k])
        status += QStringLiteral("; it runs inside %1: press Enter or double-click the call to open it")
                      .arg(node.loweredModule);
    setStatus(status);
    return true;
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
        if (const double t = nodeTime(nodes[k]); t >= 0)
            text += QStringLiteral("\nMeasured time: %1 %2 (median over the ETDump's runs)")
                        .arg(t, 0, 'f', 6)
                        .arg(QLatin1String(pte::timeScaleName(m_snapshot->profile->table.options.target)));
        // What its instructions wrote in the run (Program > Run…).
        if (const RunResult* run = m_snapshot ? currentRun(*m_snapshot, m_method.toStdString()) : nullptr) {
            const auto instructions = nodeInstructions(nodes[k]);
            QString lines;
            for (const auto& [id, f] : run->summary.values) {
                if (f.instruction < 0 || !instructions.count(f.instruction))
                    continue;
                lines += QStringLiteral("\n  %1 by #%2: ").arg(valueRef(id)).arg(f.instruction);
                if (!f.stats) {
                    lines += toQString(f.problem);
                    continue;
                }
                lines += QStringLiteral("%1%2 %3 … %4, mean %5")
                             .arg(QLatin1String(pte::scalarTypeShortName(f.dtype)), formatShape(f.sizes))
                             .arg(f.stats->min, 0, 'g', 5)
                             .arg(f.stats->max, 0, 'g', 5)
                             .arg(f.stats->mean, 0, 'g', 5);
                if (f.gap)
                    lines += QStringLiteral("; %1 %2 (MSE %3)")
                                 .arg(f.check && !f.check->ok ? QStringLiteral("FAILS") : QStringLiteral("matches"))
                                 .arg(toQString(f.expectedFrom))
                                 .arg(f.gap->mse, 0, 'g', 3);
            }
            if (!lines.isEmpty())
                text += QStringLiteral("%1Run on %2:")
                            .arg(text.endsWith(QLatin1Char('\n')) ? QStringLiteral("\n") : QStringLiteral("\n\n"))
                            .arg(toQString(run->inputSource))
                    + lines;
        }
    }
    if (nodes.size() > 20)
        text += QStringLiteral("\n… and %1 more selected nodes").arg(nodes.size() - 20);
    m_details->setPlainText(text);
}

} // namespace pte::ui
