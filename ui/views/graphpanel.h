// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include "document/snapshot.h"
#include "models/graphbuilder.h"
#include "views/dockview.h"

#include <QFuture>
#include <QSet>

#include <atomic>
#include <memory>
#include <optional>
#include <set>
#include <vector>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QToolButton;

namespace pte::ui {

class GraphView;

/**
 * The Graph dock: find bar, zoom buttons, the diagram and a node-details pane. The diagram is built
 * and laid out in the background; a newer request supersedes an older one (generation id) and the
 * destructor cancels and waits. With an ETDump open, nodes are coloured by measured time (self time relative to
 * the hottest node, or share of the method's execution) with a legend; after Program > Run…, by the values the run
 * wrote (largest magnitude) or by their gap to a bundled case's expected outputs (docs/gui-run.md).
 */
class GraphPanel : public DockView
{
    Q_OBJECT
public:
    explicit GraphPanel(QWidget* parent = nullptr);
    ~GraphPanel() override;

    [[nodiscard]] QWidget* focusTarget() const override;
    void setMethod(std::shared_ptr<const Snapshot> snapshot, const QString& method) override;
    /**
     * Selects the nodes an instruction maps to (by instruction id, node names or debug handles). While a
     * layout runs, the request is kept and applied to the new diagram.
     */
    void selectFor(int instruction, const QStringList& nodeNames, const std::vector<std::int64_t>& handles);
    [[nodiscard]] std::vector<int> selectedNodes() const;
    [[nodiscard]] const GraphData& graph() const { return m_graph; }
    [[nodiscard]] bool isBusy() const { return m_busy; }
    [[nodiscard]] GraphView* view() const { return m_view; }
    void focusFind();
    /** Empties the Find box. */
    void clearFilters() override;
    /** The selected nodes for the clipboard: their details, or a JSON array of name, label, kind and handles. */
    [[nodiscard]] QString selectedNodesText(bool json) const;
    /** Shows the nodes of a collapsed group (module path, or instruction range); re-lays out in the background. */
    void expandGroup(const QString& modulePath);
    /** Collapses every expanded group again. */
    void collapseAllGroups();
    /**
     * Shows the original program of one of the method's lowered modules (the nodes its delegate call stands for):
     * double-click or Enter on a delegate call. Re-lays out in the background.
     */
    void openLoweredModule(const QString& name);
    /** Back to the method's graph (from a lowered module's program or a delegate's inner graph). */
    void closeLoweredModule();
    /** The lowered module shown, or empty for the method's own graph. */
    [[nodiscard]] const QString& loweredModule() const { return m_loweredModule; }
    [[nodiscard]] const QSet<QString>& expandedGroups() const { return m_expanded; }
    /** Collapses an expanded module (and the modules inside it) back into its group. */
    void collapseGroup(const QString& modulePath);
    /** Groups dump graphs by their module hierarchy at every size (the "Group by module" box). */
    void setGroupByModule(bool on);
    /** Selects the next node matching the find text; false when none. */
    bool findNext();
    /** Asks where to save the graph (whole, or the part in view) as PNG or SVG, and saves it (File > Export Graph
     *  Image…, the graph's context menu). */
    void exportDialog(bool visibleOnly);
    /** Which graph is shown, for messages: "in the graph of forward", "inside delegate 0 (XnnpackBackend) of …". */
    [[nodiscard]] QString graphName() const;
    /** The status line's text (node and edge counts, what Find found). */
    [[nodiscard]] QString statusText() const;
    /**
     * Drills down into a delegate's inner graph, as decoded from its payload (`delegate` indexes
     * snapshot->delegates->delegates), laid out in the background; the method's graph comes back with closeDelegate()
     * (the Back button). Double-clicking a delegate call does the same when its dump has no original program for it
     * (a .pte); otherwise the original program opens and a button switches between the two.
     */
    void openDelegate(int delegate);
    void closeDelegate();
    /** The delegate whose inner graph is shown, or -1 for the method's graph. */
    [[nodiscard]] int openedDelegate() const { return m_delegate; }
    /** Selects inner nodes of the opened delegate by index. */
    void selectInnerNodes(const std::vector<std::uint32_t>& nodes);

    enum class Colouring
    {
        Kind, ///< by node kind (no measurement)
        Time, ///< measured self time, relative to the hottest node
        Share, ///< share of the method's median execution time, 0..100%
        RunValue, ///< Program > Run…: the largest |element| the node's instructions wrote, relative to the graph's
        RunGap, ///< Program > Run… of a bundled case: the MSE of the node's outputs to the expected ones
    };
    void setColouring(Colouring colouring);
    [[nodiscard]] Colouring colouring() const;
    /** Per diagram node: the colour fraction shown (negative: not measured); empty when colouring by kind. */
    [[nodiscard]] const std::vector<double>& heat() const { return m_heat; }
    /** Measured time of a diagram node (sum over its members), or a negative value. */
    [[nodiscard]] double nodeTime(int node) const;
    /** From the current run: the largest |element| of the values the node's instructions wrote (of the floating ones
     *  when there are any), or with `gap` the largest MSE to a bundled output; negative when the run recorded none. */
    [[nodiscard]] double nodeRunMetric(int node, bool gap) const;

Q_SIGNALS:
    /** The user selected nodes in the diagram. */
    void nodesSelected();
    void layoutFinished();
    /** A delegate's inner graph was opened (-1: back to the method's graph). */
    void delegateOpened(int delegate);

private:
    void startLayout();
    void showDetails();
    void applyHeat();
    /** The instructions (chain 0) a diagram node stands for. */
    [[nodiscard]] std::set<std::int32_t> nodeInstructions(int node) const;
    void showLegend(const QString& low, const QString& high, const QString& tooltip);
    void setStatus(const QString& text);
    /** Finds the other drill-down of what is being opened in the method's graph shown now. */
    void findCounterpart(const QString& loweredModule, int delegate);

    GraphView* m_view = nullptr;
    QPlainTextEdit* m_details = nullptr;
    QLineEdit* m_find = nullptr;
    QLabel* m_status = nullptr;
    QCheckBox* m_collapse = nullptr;
    QCheckBox* m_groupModules = nullptr; ///< group dump graphs by module at every size
    QString m_focusMember; ///< after a group expands or collapses: the node to show, where it was
    QComboBox* m_colourBy = nullptr;
    QLabel* m_legend = nullptr;
    std::vector<double> m_heat;
    QToolButton* m_back = nullptr;
    QToolButton* m_switch = nullptr; ///< between a delegate's inner graph and its lowered module's original program
    QString m_loweredModule;
    int m_delegate = -1;
    /** The other drill-down of the delegate shown (its inner graph, or its original program), when known. */
    QString m_counterpartModule;
    int m_counterpartDelegate = -1;
    std::shared_ptr<const Snapshot> m_snapshot;
    QString m_method;
    QSet<QString> m_expanded;
    GraphData m_graph;
    quint64 m_generation = 0;
    bool m_busy = false;
    int m_findPos = -1;
    std::shared_ptr<std::atomic<bool>> m_cancel;
    struct PendingSelection
    {
        int instruction = -1;
        QStringList names;
        std::vector<std::int64_t> handles;
    };
    std::optional<PendingSelection> m_pending;
    QList<QFuture<void>> m_jobs;
};

} // namespace pte::ui
