// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// Inside a delegate: the inner-node, value and payload models over a synthetic XNNPACK payload linked to a
// hand-built source graph (QAbstractItemModelTester, exact cells), the inner-graph diagram, and the main window on
// real corpus programs: the Inside Delegate dock follows the Delegates dock, the Graph view drills into a delegate
// and back, and selections cross between them. Any Qt warning fails a test.
#include "document/delegateinspection.h"
#include "document/document.h"
#include "mainwindow.h"
#include "models/delegategraph.h"
#include "models/innernodemodel.h"
#include "models/innervaluemodel.h"
#include "models/payloadfieldmodel.h"
#include "models/roles.h"
#include "pte/delegatesynth.h"
#include "testutils.h"
#include "uifixtures.h"
#include "views/delegatepayloadview.h"
#include "views/delegatesview.h"
#include "views/graphpanel.h"
#include "widgets/graphview.h"
#include "widgets/tableview.h"

#include <QComboBox>
#include <QFileInfo>
#include <QLabel>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTest>
#include <QToolButton>

using namespace pte::ui;
using pte::ui::fixtures::cell;
using pte::ui::fixtures::waitFor;

namespace {

pte::Node sourceNode(const std::string& name, const std::string& target, const std::string& input, std::int64_t handle)
{
    pte::Node n;
    n.name = name;
    n.setTarget("torch.ops.aten." + target);
    n.inputs.push_back({ "self", pte::Argument::tensor(input), 1 });
    n.outputs.push_back(pte::Argument::tensor(name));
    n.debugHandles = { handle };
    n.metadata["stack_trace"] = "File \"net.py\", line " + std::to_string(10 + handle) + ", in forward";
    return n;
}

/**
 * A program with one XnnpackBackend delegate holding the synthetic payload of 7 nodes (pte/delegatesynth.h: FC 1,
 * Add 2, Clamp 3, Conv2d 4, StaticTranspose 65535, Convert 6, FC 7), a source graph whose nodes carry handles 1-4,
 * 6-8 (8 is a relu after the last FC, fused away), and an ETRecord-style partition list 1-8.
 */
std::shared_ptr<Snapshot> snapshotWithDelegate()
{
    auto snap = std::make_shared<Snapshot>();
    const auto program =
        std::make_shared<pte::Program>(pte::makeSingleDelegateProgram(pte::makeSyntheticXnnpackPayload(7)));
    snap->program = program;
    auto ep = std::make_shared<pte::ExportedProgram>();
    auto& nodes = ep->graph.nodes;
    nodes.push_back(sourceNode("linear", "linear.default", "x", 1));
    nodes.push_back(sourceNode("add", "add.Tensor", "linear", 2));
    nodes.push_back(sourceNode("hardtanh", "hardtanh.default", "add", 3));
    nodes.push_back(sourceNode("conv", "convolution.default", "hardtanh", 4));
    nodes.push_back(sourceNode("quantize", "quantize_per_tensor.default", "conv", 6));
    nodes.push_back(sourceNode("linear_1", "linear.default", "quantize", 7));
    nodes.push_back(sourceNode("relu", "relu.default", "linear_1", 8));
    DumpMethod m;
    m.name = "forward";
    m.program = ep;
    snap->dumpMethods.push_back(m);
    auto maps = std::make_shared<pte::EtRecordMaps>();
    maps->debugHandleMap["forward"][0] = { 1, 2, 3, 4, 6, 7, 8 };
    snap->etrecordMaps = maps;
    snap->finalize();
    snap->delegates = inspectDelegates(delegateInputsOf(*snap));
    return snap;
}

} // namespace

class TestDelegatePayloadView : public QObject
{
    Q_OBJECT
private:
    bool openFiles(MainWindow& w, const QStringList& files)
    {
        if (!w.isVisible()) {
            w.resize(1500, 950);
            w.show();
            if (!QTest::qWaitForWindowExposed(&w))
                return false;
        }
        if (!pte::ui::fixtures::finishes(*w.document(), &Document::loadFinished, &Document::loadFailed, [&] {
                w.openFiles(files);
            }).isEmpty())
            return false;
        auto* graph = w.findChild<GraphPanel*>(QStringLiteral("graphPanel"));
        return waitFor([graph] { return !graph->isBusy(); });
    }

private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
    void init() { fixtures::failOnQtWarnings(); }

    void inspectionLinksTheSyntheticPayload()
    {
        const auto snap = snapshotWithDelegate();
        QVERIFY(snap->delegates);
        const auto& inspection = *snap->delegates;
        QCOMPARE(inspection.delegates.size(), std::size_t(1));
        QVERIFY(inspection.haveDebugMaps);
        QCOMPARE(inspection.ofMethod("forward"), std::vector<int> { 0 });
        QCOMPARE(inspection.find("forward", 0), 0);
        QCOMPARE(inspection.find("forward", 1), -1);
        const auto& links = inspection.links[0];
        QCOMPARE(links.backendInsertedNodes, std::size_t(1));
        QCOMPARE(links.absorbed.size(), std::size_t(1));
        QCOMPARE(links.absorbed[0].handle, std::int64_t(8));
        QCOMPARE(links.absorbed[0].intoNode, std::optional<std::uint32_t>(6)); // the FC producing relu's input
        QCOMPARE(links.absorbed[0].how, std::string("producer"));
    }

    void innerNodeModel()
    {
        const auto snap = snapshotWithDelegate();
        InnerNodeModel model;
        fixtures::attachModelTester(&model);
        model.setDelegate(snap, 0);
        QCOMPARE(model.rowCount(), 7);
        QCOMPARE(model.columnCount(), int(InnerNodeModel::ColumnCount));
        const QStringList kinds { "FullyConnected", "Add", "Clamp", "Conv2d", "StaticTranspose", "Convert",
            "FullyConnected" };
        for (int r = 0; r < 7; ++r)
            QCOMPARE(cell(model, r, InnerNodeModel::KindColumn), kinds[r]);
        QCOMPARE(cell(model, 0, InnerNodeModel::HandlesColumn), QStringLiteral("1"));
        QCOMPARE(cell(model, 4, InnerNodeModel::HandlesColumn), QStringLiteral("65535"));
        QCOMPARE(cell(model, 4, InnerNodeModel::MarkColumn), QStringLiteral("inserted by the backend"));
        QVERIFY(model.index(4, 0).data(Qt::ForegroundRole).isValid());
        QVERIFY(!model.index(3, 0).data(Qt::ForegroundRole).isValid());
        QCOMPARE(cell(model, 6, InnerNodeModel::MarkColumn), QStringLiteral("absorbed 8 (relu)"));
        QVERIFY(
            cell(model, 6, InnerNodeModel::MarkColumn, Qt::ToolTipRole).contains(QStringLiteral("found by producer")));
        QCOMPARE(cell(model, 3, InnerNodeModel::SourcesColumn), QStringLiteral("conv (aten::convolution.default)"));
        QVERIFY(cell(model, 3, InnerNodeModel::SourcesColumn, Qt::ToolTipRole).contains(QStringLiteral("line 14")));
        QCOMPARE(cell(model, 0, InnerNodeModel::InputsColumn), QStringLiteral("input %0, filter %2, bias %3"));
        QCOMPARE(cell(model, 0, InnerNodeModel::OutputsColumn), QStringLiteral("output %1"));
        QVERIFY(cell(model, 0, InnerNodeModel::ParamsColumn).contains(QStringLiteral("output_min_max (0, +inf)")));
        QCOMPARE(model.index(6, 0).data(NodeNamesRole).toStringList(),
            (QStringList { QStringLiteral("linear_1"), QStringLiteral("relu") }));
        QCOMPARE(model.index(6, 0).data(DebugHandlesRole).value<QList<qlonglong>>(), (QList<qlonglong> { 7, 8 }));
        QVERIFY(model.index(4, 0).data(DebugHandlesRole).value<QList<qlonglong>>().isEmpty());
        QCOMPARE(model.rowOfNode(6), 6);
        QCOMPARE(model.rowOfNode(7), -1);
        model.setDelegate(snap, -1);
        QCOMPARE(model.rowCount(), 0);
        model.setDelegate(snap, 5);
        QCOMPARE(model.rowCount(), 0);
    }

    void innerValueAndPayloadModels()
    {
        const auto snap = snapshotWithDelegate();
        InnerValueModel values;
        fixtures::attachModelTester(&values);
        values.setDelegate(snap, 0);
        const auto& payload = *snap->delegates->delegates[0].payload;
        QCOMPARE(values.rowCount(), int(payload.values.size()));
        QCOMPARE(cell(values, 0, InnerValueModel::IdColumn), QStringLiteral("%0"));
        QCOMPARE(cell(values, 0, InnerValueModel::RoleColumn), QStringLiteral("input, external 0"));
        QCOMPARE(cell(values, 0, InnerValueModel::ShapeColumn), QStringLiteral("[1, 4, 4, 4]"));
        const int filterRow = values.rowOfValue(2);
        QVERIFY(filterRow >= 0);
        QVERIFY(
            cell(values, filterRow, InnerValueModel::ConstantColumn).startsWith(QStringLiteral("#1 payload, 64 B")));
        // The Convert (node 5) quantizes into a per-tensor qint8 value.
        const std::uint32_t quantized = payload.nodes[5].outputs[0].valueId;
        QCOMPARE(cell(values, values.rowOfValue(quantized), InnerValueModel::QuantColumn),
            QStringLiteral("per tensor: scale 0.05, zero point 3"));

        PayloadFieldModel fields;
        fixtures::attachModelTester(&fields);
        fields.setDelegate(snap, 0);
        QStringList rows;
        for (int r = 0; r < fields.rowCount(); ++r)
            rows << cell(fields, r, 0) + QLatin1Char('/') + cell(fields, r, 1) + QLatin1Char('=') + cell(fields, r, 2);
        QVERIFY(rows.contains(QStringLiteral("payload/format=XH00 header + XN01 flatbuffer")));
        QVERIFY(rows.contains(QStringLiteral("summary/nodes=7")));
        QVERIFY(rows.contains(QStringLiteral("debug map/partition handles=1, 2, 3, 4, 6, 7, 8")));
        QVERIFY(rows.filter(QStringLiteral("region/constant data=bytes ")).size() == 1);
        fields.setDelegate(snap, -1);
        QCOMPARE(fields.rowCount(), 0);
    }

    void innerGraphDiagram()
    {
        const auto snap = snapshotWithDelegate();
        const GraphData g = buildDelegateGraph(*snap->delegates, 0);
        const auto& payload = *snap->delegates->delegates[0].payload;
        std::size_t constants = 0;
        for (const auto& v : payload.values)
            constants += v.constant ? 1 : 0;
        // input + constants + 7 operators + output
        QCOMPARE(g.nodes.size(), 1 + constants + 7 + 1);
        int operators = 0;
        for (const auto& n : g.nodes)
            if (n.kind == GraphNode::Kind::Operator) {
                QCOMPARE(n.innerNode, operators);
                ++operators;
            }
        QCOMPARE(operators, 7);
        const GraphNode& transpose = g.nodes[1 + constants + 4];
        QCOMPARE(transpose.label, QStringLiteral("StaticTranspose"));
        QVERIFY(transpose.subtitle.contains(QStringLiteral("inserted by the backend")));
        const GraphNode& lastFc = g.nodes[1 + constants + 6];
        QVERIFY(lastFc.subtitle.endsWith(QStringLiteral(" + 8")));
        QCOMPARE(lastFc.members, (QStringList { QStringLiteral("linear_1"), QStringLiteral("relu") }));
        QVERIFY(lastFc.details.contains(QStringLiteral("Absorbed handle 8")));
        // Every operator but the first consumes the previous one's output: a chain of 6 edges, plus the
        // input and constants feeding in and the output fed.
        int chain = 0;
        for (const auto& e : g.edges)
            chain += g.nodes[std::size_t(e.from)].innerNode >= 0
                && g.nodes[std::size_t(e.to)].innerNode == g.nodes[std::size_t(e.from)].innerNode + 1;
        QCOMPARE(chain, 6);
        QCOMPARE(g.nodes.back().kind, GraphNode::Kind::Output);

        // The delegate call of the program's instruction graph is this delegate.
        GraphNode call;
        call.kind = GraphNode::Kind::Delegate;
        call.instruction = 0;
        QCOMPARE(delegateOfNode(*snap, QStringLiteral("forward"), call), std::optional<int>(0));
        call.instruction = 3;
        QCOMPARE(delegateOfNode(*snap, QStringLiteral("forward"), call), std::nullopt);
        call.kind = GraphNode::Kind::Operator;
        call.instruction = 0;
        QCOMPARE(delegateOfNode(*snap, QStringLiteral("forward"), call), std::nullopt);
    }

    // The main window on stress_mlp (two XNNPACK delegates): the dock follows the Delegates table, the Graph view
    // drills into the 13-node stack and back, and selections cross.
    void mainWindowDrillDown()
    {
        PTE_REQUIRE_CORPUS();
        MainWindow w;
        QVERIFY(openFiles(w,
            { pte::test::corpusPath(QStringLiteral(
                "pte/corey-cole_djl-executorch-engine__src__test__resources__models__stress__stress_mlp.pte")) }));
        auto* inside = w.findChild<DelegatePayloadView*>();
        auto* delegates = w.findChild<DelegatesView*>();
        auto* graph = w.findChild<GraphPanel*>(QStringLiteral("graphPanel"));
        QVERIFY(inside);
        QVERIFY(delegates);
        QVERIFY(graph);
        QCOMPARE(inside->delegateChooser()->count(), 2);
        QCOMPARE(inside->nodesTable()->model()->rowCount(), 2); // delegate 0: two Multiply nodes
        delegates->delegatesTable()->selectRow(1);
        QTRY_COMPARE(inside->nodesTable()->model()->rowCount(), 13);
        QCOMPARE(inside->delegateChooser()->currentIndex(), 1);
        QVERIFY(w.findChild<QLabel*>(QStringLiteral("delegateFormat"))->text().contains(QStringLiteral("13 nodes")));

        auto* open = w.findChild<QPushButton*>(QStringLiteral("openDelegateInGraph"));
        QSignalSpy opened(graph, &GraphPanel::delegateOpened);
        open->click();
        QCOMPARE(opened.size(), 1);
        QVERIFY(waitFor([graph] { return !graph->isBusy(); }));
        QCOMPARE(graph->openedDelegate(), inside->currentDelegate());
        int operators = 0;
        for (const auto& n : graph->graph().nodes)
            operators += n.innerNode >= 0;
        QCOMPARE(operators, 13);
        QVERIFY(w.findChild<QToolButton*>(QStringLiteral("graphBack"))->isVisible());
        QVERIFY(w.findChild<QLabel*>(QStringLiteral("graphStatus"))
                    ->text()
                    .startsWith(QStringLiteral("Inside delegate 1")));

        // Table -> graph: selecting inner node 3 selects its diagram node.
        inside->nodesTable()->selectRow(3);
        const auto selected = graph->selectedNodes();
        QCOMPARE(selected.size(), std::size_t(1));
        QCOMPARE(graph->graph().nodes[std::size_t(selected.front())].innerNode, 3);
        // Graph -> table.
        int fifth = -1;
        for (std::size_t i = 0; i < graph->graph().nodes.size(); ++i)
            if (graph->graph().nodes[i].innerNode == 5)
                fifth = int(i);
        graph->view()->selectNodes({ fifth });
        Q_EMIT graph->nodesSelected();
        const auto rows = inside->nodesTable()->selectionModel()->selectedRows();
        QCOMPARE(rows.size(), 1);
        QCOMPARE(rows.front().row(), 5);

        // Back to the method's graph.
        w.findChild<QToolButton*>(QStringLiteral("graphBack"))->click();
        QVERIFY(waitFor([graph] { return !graph->isBusy(); }));
        QCOMPARE(graph->openedDelegate(), -1);
        QVERIFY(graph->graph().instructionGraph);
        QVERIFY(!w.findChild<QToolButton*>(QStringLiteral("graphBack"))->isVisible());

        // Double-clicking the delegate call in the instruction graph opens it too.
        int call = -1;
        for (std::size_t i = 0; i < graph->graph().nodes.size(); ++i)
            if (graph->graph().nodes[i].kind == GraphNode::Kind::Delegate && call < 0)
                call = int(i);
        QVERIFY(call >= 0);
        Q_EMIT graph->view()->nodeActivated(call);
        QVERIFY(waitFor([graph] { return !graph->isBusy(); }));
        QVERIFY(graph->openedDelegate() >= 0);
        QCOMPARE(inside->currentDelegate(), graph->openedDelegate());
    }

    // The bundled example after emission: its delegate call has both an original program (the ETRecord's lowered
    // module: mul, relu) and a decoded payload (one Multiply with the ReLU fused as (0, +inf)). Activating the call
    // opens the original program; the switch button goes to the payload's graph and back; Back leaves both.
    void switchesBetweenOriginalProgramAndPayload()
    {
        const QString example =
            qEnvironmentVariable("PTELENS_BUILD_DIR") + QStringLiteral("/examples/example.etrecord");
        QVERIFY2(QFileInfo::exists(example), qPrintable(example + QStringLiteral(" is not built")));
        MainWindow w;
        QVERIFY(openFiles(w, { example }));
        QSignalSpy emitted(w.document(), &Document::emitFinished);
        w.emitWith({});
        QVERIFY(waitFor([&] { return !emitted.isEmpty() && !w.document()->isBusy(); }));
        auto* graph = w.findChild<GraphPanel*>(QStringLiteral("graphPanel"));
        QVERIFY(waitFor([graph] { return !graph->isBusy() && !graph->graph().nodes.empty(); }));
        const auto snap = w.document()->snapshot();
        QVERIFY(snap->delegates);
        QCOMPARE(snap->delegates->delegates.size(), std::size_t(1));
        QVERIFY(snap->delegates->delegates[0].payload->graphDecoded);

        int call = -1;
        for (std::size_t i = 0; i < graph->graph().nodes.size(); ++i)
            if (graph->graph().nodes[i].loweredModule == QLatin1String("lowered_module_0"))
                call = int(i);
        QVERIFY(call >= 0);
        auto* back = w.findChild<QToolButton*>(QStringLiteral("graphBack"));
        auto* toggle = w.findChild<QToolButton*>(QStringLiteral("graphSwitch"));
        QVERIFY(!toggle->isVisibleTo(&w));

        Q_EMIT graph->view()->nodeActivated(call);
        QVERIFY(waitFor([graph] { return !graph->isBusy(); }));
        QCOMPARE(graph->loweredModule(), QStringLiteral("lowered_module_0"));
        QCOMPARE(graph->openedDelegate(), -1);
        QVERIFY(toggle->isVisibleTo(&w));
        QCOMPARE(toggle->text(), QStringLiteral("Inside the payload"));

        toggle->click();
        QVERIFY(waitFor([graph] { return !graph->isBusy(); }));
        QCOMPARE(graph->openedDelegate(), 0);
        QVERIFY(graph->loweredModule().isEmpty());
        std::vector<const GraphNode*> inner;
        for (const auto& n : graph->graph().nodes)
            if (n.innerNode >= 0)
                inner.push_back(&n);
        QCOMPARE(inner.size(), std::size_t(1));
        // Its own handle (the mul) and the ReLU's, absorbed into it by its output_min_max.
        QCOMPARE(inner.front()->debugHandles, std::vector<std::int64_t>({ 2, 3 }));
        QVERIFY(toggle->isVisibleTo(&w));
        QCOMPARE(toggle->text(), QStringLiteral("Original program"));

        toggle->click();
        QVERIFY(waitFor([graph] { return !graph->isBusy(); }));
        QCOMPARE(graph->loweredModule(), QStringLiteral("lowered_module_0"));
        QCOMPARE(graph->openedDelegate(), -1);
        QVERIFY(toggle->isVisibleTo(&w));

        back->click();
        QVERIFY(waitFor([graph] { return !graph->isBusy(); }));
        QVERIFY(graph->loweredModule().isEmpty());
        QCOMPARE(graph->openedDelegate(), -1);
        QVERIFY(!back->isVisibleTo(&w));
        QVERIFY(!toggle->isVisibleTo(&w));
    }

    // Summarised payloads: a Core ML file tree lists its operations; nothing to draw is said, not an error.
    void summarisedPayload()
    {
        PTE_REQUIRE_CORPUS();
        MainWindow w;
        QVERIFY(openFiles(w,
            { pte::test::corpusPath(QStringLiteral(
                "pte/Arm-Examples_CMSIS-Executorch__ai_layer__engine__model__ethos_u_minimal_example.pte")) }));
        auto* inside = w.findChild<DelegatePayloadView*>();
        QCOMPARE(inside->delegateChooser()->count(), 1);
        QCOMPARE(inside->nodesTable()->model()->rowCount(), 0);
        QCOMPARE(inside->nodesTable()->emptyText(),
            QStringLiteral("This payload is summarised, not decoded into nodes: see Payload"));
        QCOMPARE(inside->valuesTable()->model()->rowCount(), 3); // the Vela I/O records
        QVERIFY(!w.findChild<QPushButton*>(QStringLiteral("openDelegateInGraph"))->isEnabled());
        QVERIFY(inside->payloadTable()->model()->rowCount() > 8);
    }
};

QTEST_MAIN(TestDelegatePayloadView)
#include "tst_delegatepayloadview.moc"
