// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include "views/dockview.h"

#include <cstdint>
#include <vector>

class QComboBox;
class QLabel;
class QPushButton;
class QTabWidget;

namespace pte::ui {

class InnerNodeModel;
class InnerValueModel;
class PayloadFieldModel;
class TableView;

/**
 * The "Inside delegate" dock: one delegate of the method at a time (picked here, in the Delegates dock or by
 * opening a delegate in the Graph view), as its inner nodes (kind, handles, backend-inserted and absorbed marks,
 * operands, parameters, source nodes), its values (types, quantization, constants and where they live) and its
 * payload (format, header fields, regions, files, partition handles, findings).
 */
class DelegatePayloadView : public DockView
{
    Q_OBJECT
public:
    explicit DelegatePayloadView(QWidget* parent = nullptr);

    [[nodiscard]] QWidget* focusTarget() const override;
    void setMethod(std::shared_ptr<const Snapshot> snapshot, const QString& method) override;
    void setContentState(ContentState state) override;

    /** Shows delegate `delegateIndex` of the current method (its index in the method's delegate table). */
    void showDelegate(int delegateIndex);
    /** The shown delegate as an index into snapshot->delegates->delegates, or -1. */
    [[nodiscard]] int currentDelegate() const { return m_current; }
    /** Selects the rows of these inner nodes (from the Graph view's drill-down). */
    void selectInnerNodes(const std::vector<std::uint32_t>& nodes);
    /**
     * Shows delegate `delegate` (an index into snapshot->delegates->delegates) with inner node `node` selected, as a
     * profile event aligned to it asks; emits nothing. False when the delegate is not one of the method's.
     */
    bool showInnerNode(int delegate, std::uint32_t node);
    /** The source-graph node names and debug handles (absorbed ones included) of these inner nodes of the shown
     *  delegate. */
    void innerNodeSources(
        const std::vector<std::uint32_t>& nodes, QStringList* names, std::vector<std::int64_t>* handles) const;

    [[nodiscard]] TableView* nodesTable() const { return m_nodesView; }
    [[nodiscard]] TableView* valuesTable() const { return m_valuesView; }
    [[nodiscard]] TableView* payloadTable() const { return m_payloadView; }
    [[nodiscard]] QComboBox* delegateChooser() const { return m_chooser; }

Q_SIGNALS:
    /** Inner nodes were selected: their source-graph node names and debug handles (absorbed ones included). */
    void innerNodesSelected(const QStringList& sourceNodes, const std::vector<std::int64_t>& handles,
        const std::vector<std::uint32_t>& innerNodes);
    /** The user asked to see the shown delegate's inner graph in the Graph view. */
    void openInGraphRequested(int delegate);

private:
    void showCurrent();
    void updateEmptyTexts();

    std::shared_ptr<const Snapshot> m_snapshot;
    QString m_method;
    std::vector<int> m_delegates; ///< the method's delegates, as indices into snapshot->delegates->delegates
    int m_current = -1;
    bool m_selecting = false;
    ContentState m_state = ContentState::Nothing;
    QComboBox* m_chooser = nullptr;
    QLabel* m_format = nullptr;
    QPushButton* m_openInGraph = nullptr;
    QTabWidget* m_tabs = nullptr;
    InnerNodeModel* m_nodeModel = nullptr;
    InnerValueModel* m_valueModel = nullptr;
    PayloadFieldModel* m_payloadModel = nullptr;
    TableView* m_nodesView = nullptr;
    TableView* m_valuesView = nullptr;
    TableView* m_payloadView = nullptr;
};

} // namespace pte::ui
