// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// Program > Run… (docs/gui-run.md): the Run dialog, the run in the background (Cancel drops it), the values in the
// Values view, the instruction's values, the graph's colours, a run that stops, and a stale run after re-emission.
// The program is tests/data/emit/add_mul.json, (x + y) * 0.5 over 2x3 floats, run on the runner's pattern fill:
// x[i] = 0.1 * (i % 7) + 0.5 and y[i] = 0.1 * ((i + 1) % 7) + 0.5 (input k counts from k), so by hand
// x + y = 1.1, 1.3, 1.5, 1.7, 1.9, 2.1 and (x + y) * 0.5 = 0.55, 0.65, 0.75, 0.85, 0.95, 1.05 (mean 0.8).
#include "mainwindow.h"
#include "modalanswers.h"
#include "models/innernodemodel.h"
#include "models/instructionmodel.h"
#include "models/runstepmodel.h"
#include "models/valuemodel.h"
#include "pte/bundledprogram.h"
#include "testutils.h"
#include "uifixtures.h"
#include "views/delegatepayloadview.h"
#include "views/graphpanel.h"
#include "views/instructionsview.h"
#include "views/valuesview.h"
#include "widgets/rundialog.h"
#include "widgets/tableview.h"

#include <QDialogButtonBox>
#include <QFile>
#include <QHeaderView>
#include <QPushButton>
#include <QRadioButton>
#include <QStandardPaths>
#include <QTest>

#include <cstring>

using namespace pte::ui;
using fixtures::cell;
using fixtures::ModalAnswers;

namespace {

QString addMulPath() { return pte::test::testDataDir() + QStringLiteral("/emit/add_mul.json"); }

/** The value ids the method's first two instructions wrote, by the plan: add (instruction 0), the output. */
std::int32_t addValue(const pte::ExecutionPlan& plan)
{
    return pte::kernelLoggedValues(plan, std::get<pte::KernelCall>(plan.chains[0].instructions[0].args)).front();
}

/** Raw little-endian float files, one per input. */
QString writeFloats(const QString& name, const std::vector<float>& values)
{
    const QString path = pte::test::tempDir() + QLatin1Char('/') + name;
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly))
        return {};
    f.write(reinterpret_cast<const char*>(values.data()), qint64(values.size() * sizeof(float)));
    return path;
}

pte::BundledValue floatTensor(const std::vector<float>& values)
{
    pte::BundledValue v;
    v.kind = pte::BundledValue::Kind::Tensor;
    v.scalarType = pte::ScalarType::Float;
    v.sizes = { 2, 3 };
    v.dimOrder = { 0, 1 };
    std::vector<std::uint8_t> bytes(values.size() * sizeof(float));
    std::memcpy(bytes.data(), values.data(), bytes.size());
    v.data = pte::Bytes::fromVector(std::move(bytes));
    return v;
}

} // namespace

class TestGuiRun : public QObject
{
    Q_OBJECT
private:
    /** Opens add_mul.json in a shown window and emits it. */
    bool openAndEmit(MainWindow& w, QString* why)
    {
        w.resize(1400, 900);
        w.show();
        if (!QTest::qWaitForWindowExposed(&w)) {
            *why = QStringLiteral("the window was not exposed");
            return false;
        }
        *why = fixtures::finishes(
            *w.document(), &Document::loadFinished, &Document::loadFailed, [&] { w.openFiles({ addMulPath() }); });
        if (!why->isEmpty())
            return false;
        *why =
            fixtures::finishes(*w.document(), &Document::emitFinished, &Document::emitFailed, [&] { w.emitWith({}); });
        if (!why->isEmpty())
            return false;
        auto* graph = w.findChild<GraphPanel*>(QStringLiteral("graphPanel"));
        return QTest::qWaitFor([graph] { return !graph->isBusy(); }, 60000);
    }

private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
    void init() { fixtures::failOnQtWarnings(); }

    /** Ctrl+R, the dialog's proposed inputs (the pattern fill: the dump kept no sample inputs), Run. */
    void runFromTheMenuFillsValuesInstructionsAndGraph()
    {
        MainWindow w;
        QString why;
        QVERIFY2(openAndEmit(w, &why), qPrintable(why));
        auto* values = w.findChild<ValuesView*>();
        auto* instructions = w.findChild<InstructionsView*>();
        fixtures::attachModelTester(values->model());
        fixtures::attachModelTester(instructions->runStepModel());
        QVERIFY(!values->model()->hasRun());
        for (int c = ValueModel::RunShapeColumn; c < ValueModel::ColumnCount; ++c)
            QVERIFY(values->table()->isColumnHidden(c));

        QSignalSpy finished(w.document(), &Document::runFinished);
        QString proposed;
        bool sampleEnabled = true;
        {
            ModalAnswers answers;
            answers.then<RunDialog>([&](RunDialog* dialog) {
                proposed = dialog->inputsText();
                sampleEnabled = dialog->findChild<QRadioButton*>(QStringLiteral("runSample"))->isEnabled();
                QVERIFY(dialog->isValid());
                QCOMPARE(dialog->settings().inputs, RunSettings::Inputs::Fill);
                QCOMPARE(dialog->settings().fill, pte::RunnerFill::Pattern);
                dialog->accept();
            });
            QTest::keyClick(&w, Qt::Key_R, Qt::ControlModifier);
            QCOMPARE(answers.problems(), QString());
        }
        QVERIFY(!sampleEnabled);
        QCOMPARE(proposed, QStringLiteral("Inputs: runner pattern fill (2 values)"));
        QVERIFY(finished.wait(60000) || !finished.isEmpty());
        QVERIFY(!w.document()->isBusy());

        // Values: the run columns, with the numbers worked out by hand.
        const auto snap = w.document()->snapshot();
        const RunResult* run = currentRun(*snap);
        QVERIFY(run);
        const auto& plan = snap->program->executionPlan[0];
        auto* model = values->model();
        QTRY_VERIFY(model->hasRun());
        QVERIFY(!values->table()->isColumnHidden(ValueModel::RunShapeColumn));
        QVERIFY(values->table()->isColumnHidden(ValueModel::RunGapColumn)); // no bundled case
        const int out = plan.outputs[0];
        QCOMPARE(cell(*model, out, ValueModel::RunShapeColumn), QStringLiteral("f32[2, 3] (by #1, output 0)"));
        QCOMPARE(cell(*model, out, ValueModel::RunFirstColumn), QStringLiteral("[0.55, 0.65, 0.75, 0.85, 0.95, 1.05]"));
        QCOMPARE(cell(*model, out, ValueModel::RunStatsColumn), QStringLiteral("0.55 … 1.05, mean 0.8"));
        const int add = addValue(plan);
        QCOMPARE(cell(*model, add, ValueModel::RunFirstColumn), QStringLiteral("[1.1, 1.3, 1.5, 1.7, 1.9, 2.1]"));
        QCOMPARE(cell(*model, plan.inputs[1], ValueModel::RunShapeColumn), QStringLiteral("f32[2, 3] (input 1)"));
        QCOMPARE(
            cell(*model, plan.inputs[1], ValueModel::RunFirstColumn), QStringLiteral("[0.6, 0.7, 0.8, 0.9, 1, 1.1]"));
        // Next to the planned shape.
        const auto* header = values->table()->horizontalHeader();
        QCOMPARE(header->visualIndex(ValueModel::RunShapeColumn), header->visualIndex(ValueModel::ShapeColumn) + 1);

        // Selecting instruction 1 (the mul): what it read (the add, as instruction 0 left it; the scalar 0.5) and
        // wrote (the output).
        w.selectInstruction(1);
        auto* step = instructions->runStepModel();
        QTRY_VERIFY(step->rowCount() > 0);
        QVERIFY(instructions->runStepTable()->isVisibleTo(instructions));
        int addRow = -1, outRow = -1, halfRow = -1;
        for (int r = 0; r < step->rowCount(); ++r) {
            const auto* f = step->facts(r);
            if (f->value == add)
                addRow = r;
            else if (f->value == out)
                outRow = r;
            else if (f->kind == pte::ValueKind::Double)
                halfRow = r;
        }
        QVERIFY(addRow >= 0 && outRow >= 0 && halfRow >= 0);
        QCOMPARE(cell(*step, addRow, RunStepModel::AccessColumn), QStringLiteral("read"));
        QCOMPARE(cell(*step, addRow, RunStepModel::FromColumn), QStringLiteral("as instruction 0 wrote it"));
        QCOMPARE(cell(*step, addRow, RunStepModel::FirstColumn), QStringLiteral("[1.1, 1.3, 1.5, 1.7, 1.9, 2.1]"));
        QCOMPARE(cell(*step, halfRow, RunStepModel::FirstColumn), QStringLiteral("[0.5]"));
        QCOMPARE(cell(*step, outRow, RunStepModel::AccessColumn), QStringLiteral("wrote"));
        QCOMPARE(
            cell(*step, outRow, RunStepModel::FirstColumn), QStringLiteral("[0.55, 0.65, 0.75, 0.85, 0.95, 1.05]"));

        // The graph, coloured by the run's values: the add (|x| up to 2.1) is the hottest, the mul at 1.05 / 2.1.
        auto* graph = w.findChild<GraphPanel*>(QStringLiteral("graphPanel"));
        QTRY_VERIFY(!graph->isBusy());
        QCOMPARE(graph->colouring(), GraphPanel::Colouring::RunValue);
        const auto& nodes = graph->graph().nodes;
        int addNode = -1, mulNode = -1;
        for (int i = 0; i < int(nodes.size()); ++i) {
            if (nodes[std::size_t(i)].members.contains(QStringLiteral("add")))
                addNode = i;
            if (nodes[std::size_t(i)].members.contains(QStringLiteral("mul")))
                mulNode = i;
        }
        QVERIFY(addNode >= 0 && mulNode >= 0);
        QCOMPARE(graph->heat().size(), nodes.size());
        QCOMPARE(graph->heat()[std::size_t(addNode)], 1.0);
        QVERIFY(std::abs(graph->heat()[std::size_t(mulNode)] - 1.05 / 2.1) < 1e-6);
        // No bundled case: nothing to colour by gap.
        graph->setColouring(GraphPanel::Colouring::RunGap);
        QVERIFY(graph->heat().empty());
        graph->setColouring(GraphPanel::Colouring::RunValue);

        // The results survive switching methods' views back and forth.
        w.setCurrentMethod(QString());
        w.setCurrentMethod(QStringLiteral("forward"));
        QTRY_VERIFY(values->model()->hasRun());

        // Re-emitting makes the run stale: the columns go, the message bar says so.
        QVERIFY(fixtures::finishes(*w.document(), &Document::emitFinished, &Document::emitFailed, [&] {
            w.emitWith({});
        }).isEmpty());
        QVERIFY(w.document()->snapshot()->run);
        QVERIFY(hasStaleRun(*w.document()->snapshot()));
        QVERIFY(!values->model()->hasRun());
        QVERIFY(values->table()->isColumnHidden(ValueModel::RunShapeColumn));
        QVERIFY(w.messageText().contains(QStringLiteral("stale")));
        QCOMPARE(graph->colouring(), GraphPanel::Colouring::Kind);
    }

    /**
     * A bundled program of (x + y) * 0.5 with x = 1..6, y = 10..60: case 0 expects 5.5, 11, ..., 33 (right), case 1
     * 34 in the last element (MSE 1/6, L1 1). The gap column and the graph's gap colours.
     */
    void bundledCaseGapInValuesAndGraph()
    {
        QString pte;
        {
            Document doc;
            QCOMPARE(fixtures::openAndWait(doc, { addMulPath() }), QString());
            QCOMPARE(fixtures::emitAndWait(doc, {}), QString());
            pte = pte::test::tempDir() + QStringLiteral("/add_mul_run.pte");
            QCOMPARE(fixtures::saveAndWait(doc, pte), QString());
        }
        QFile in(pte);
        QVERIFY(in.open(QIODevice::ReadOnly));
        const QByteArray bytes = in.readAll();
        pte::BundledProgram bundled;
        pte::BundledTestSuite suite;
        suite.methodName = "forward";
        const std::vector<float> x { 1, 2, 3, 4, 5, 6 }, y { 10, 20, 30, 40, 50, 60 };
        suite.testCases.push_back(
            { { floatTensor(x), floatTensor(y) }, { floatTensor({ 5.5, 11, 16.5, 22, 27.5, 33 }) } });
        suite.testCases.push_back(
            { { floatTensor(x), floatTensor(y) }, { floatTensor({ 5.5, 11, 16.5, 22, 27.5, 34 }) } });
        bundled.testSuites.push_back(suite);
        auto bp = pte::serializeBundledProgram(
            bundled, std::span(reinterpret_cast<const std::uint8_t*>(bytes.data()), std::size_t(bytes.size())));
        QVERIFY_RESULT(bp);
        const QString path = pte::test::tempDir() + QStringLiteral("/add_mul_run.bpte");
        QFile out(path);
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(reinterpret_cast<const char*>(bp->data()), qint64(bp->size()));
        out.close();

        MainWindow w;
        w.resize(1400, 900);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QCOMPARE(fixtures::finishes(
                     *w.document(), &Document::loadFinished, &Document::loadFailed, [&] { w.openFiles({ path }); }),
            QString());
        // The dialog proposes the bundled case.
        {
            RunDialog dialog(w.document()->snapshot(), QStringLiteral("forward"));
            QCOMPARE(dialog.settings().inputs, RunSettings::Inputs::Bundled);
            QCOMPARE(dialog.inputsText(), QStringLiteral("Inputs: bundled test case 0 (2 values)"));
        }
        auto* values = w.findChild<ValuesView*>();
        auto* graph = w.findChild<GraphPanel*>(QStringLiteral("graphPanel"));
        const auto& plan = w.document()->snapshot()->program->executionPlan[0];
        const int outValue = plan.outputs[0];
        for (const int c : { 0, 1 }) {
            RunSettings s;
            s.method = "forward";
            s.inputs = RunSettings::Inputs::Bundled;
            s.testCase = std::size_t(c);
            QCOMPARE(
                fixtures::finishes(*w.document(), &Document::runFinished, &Document::runFailed, [&] { w.runWith(s); }),
                QString());
            QTRY_VERIFY(values->model()->hasRun());
            QVERIFY(!values->table()->isColumnHidden(ValueModel::RunGapColumn));
            QCOMPARE(cell(*values->model(), outValue, ValueModel::RunGapColumn),
                c == 0 ? QStringLiteral("pass: MSE 0, L1 0") : QStringLiteral("FAIL: MSE 0.167, L1 1"));
            QTRY_VERIFY(!graph->isBusy());
            graph->setColouring(GraphPanel::Colouring::RunGap);
            // The instruction graph: the mul (instruction 1) wrote the output; the add has no expected value.
            const auto& nodes = graph->graph().nodes;
            int mulNode = -1, addNode = -1;
            for (int i = 0; i < int(nodes.size()); ++i) {
                if (nodes[std::size_t(i)].instruction == 1)
                    mulNode = i;
                if (nodes[std::size_t(i)].instruction == 0)
                    addNode = i;
            }
            QVERIFY(mulNode >= 0 && addNode >= 0);
            QCOMPARE(graph->nodeRunMetric(mulNode, true), c == 0 ? 0.0 : 1.0 / 6);
            QCOMPARE(graph->nodeRunMetric(addNode, true), -1.0);
            if (c == 1) {
                QCOMPARE(graph->heat()[std::size_t(mulNode)], 1.0);
                QVERIFY(w.messageText().contains(QStringLiteral("DIFFER from the bundled test case")));
            }
        }
    }

    /** The dialog checks the inputs as they are chosen: raw files of the right size run, a wrong size does not. */
    void dialogChecksInputs()
    {
        Document doc;
        QCOMPARE(fixtures::openAndWait(doc, { addMulPath() }), QString());
        QCOMPARE(fixtures::emitAndWait(doc, {}), QString());
        RunDialog dialog(doc.snapshot(), QStringLiteral("forward"));
        auto* raw = dialog.findChild<QLineEdit*>(QStringLiteral("runRawPaths"));
        const QString x = writeFloats(QStringLiteral("x.bin"), { 1, 2, 3, 4, 5, 6 });
        const QString y = writeFloats(QStringLiteral("y.bin"), { 10, 20, 30, 40, 50, 60 });
        const QString shortFile = writeFloats(QStringLiteral("short.bin"), { 1, 2 });
        raw->setText(x + QLatin1Char(',') + shortFile);
        QVERIFY(!dialog.isValid());
        QVERIFY(dialog.inputsText().startsWith(QStringLiteral("Cannot run: ")));
        QVERIFY(dialog.inputsText().contains(QStringLiteral("short.bin")));
        raw->setText(x + QLatin1Char(',') + y);
        QVERIFY(dialog.isValid());
        QCOMPARE(dialog.settings().inputs, RunSettings::Inputs::RawFiles);
        // Run them: (x + y) * 0.5 = 5.5, 11, ..., 33.
        QCOMPARE(fixtures::finishes(
                     doc, &Document::runFinished, &Document::runFailed, [&] { doc.runMethod(dialog.settings()); }),
            QString());
        const RunResult* run = currentRun(*doc.snapshot());
        QVERIFY(run);
        const auto& plan = doc.snapshot()->program->executionPlan[0];
        QCOMPARE(run->summary.values.at(plan.outputs[0]).stats->first,
            (std::vector<double> { 5.5, 11, 16.5, 22, 27.5, 33 }));
        // A JSON file that does not exist.
        dialog.findChild<QLineEdit*>(QStringLiteral("runJsonPath"))->setText(QStringLiteral("/nonexistent.json"));
        QVERIFY(!dialog.isValid());
        QCOMPARE(dialog.settings().inputs, RunSettings::Inputs::JsonFile);
    }

    /** Cancel drops the run: no result, not busy, cancelled() (the core stops between instructions: tst_runvalues). */
    void cancelDropsTheRun()
    {
        Document doc;
        QCOMPARE(fixtures::openAndWait(doc, { addMulPath() }), QString());
        QCOMPARE(fixtures::emitAndWait(doc, {}), QString());
        QSignalSpy finished(&doc, &Document::runFinished);
        QSignalSpy cancelled(&doc, &Document::cancelled);
        RunSettings s;
        s.method = "forward";
        doc.runMethod(s);
        QVERIFY(doc.isBusy());
        doc.cancel(); // before the job's result can reach the GUI thread
        QVERIFY(!doc.isBusy());
        QCOMPARE(cancelled.count(), 1);
        doc.waitForIdle();
        fixtures::runQueuedEvents();
        QVERIFY(finished.isEmpty());
        QVERIFY(!doc.snapshot()->run);
    }

    /**
     * A run through an XNNPACK delegate (delegate_edge.json: an XNNPACK Add of the two inputs, then aten::mul): Inside
     * Delegate shows each inner node's output as the interpreter computed it. The runner's pattern fill gives
     * x = [0.5, 0.6, 0.7, 0.8] and y = [0.6, 0.7, 0.8, 0.9], so the Add wrote [1.1, 1.3, 1.5, 1.7]. Re-emitting makes
     * the run stale and the column goes.
     */
    void innerNodeValuesInInsideDelegate()
    {
        MainWindow w;
        w.resize(1400, 900);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        const QString dump = pte::test::testDataDir() + QStringLiteral("/dumps/delegate_edge.json");
        QCOMPARE(fixtures::finishes(
                     *w.document(), &Document::loadFinished, &Document::loadFailed, [&] { w.openFiles({ dump }); }),
            QString());
        QCOMPARE(
            fixtures::finishes(*w.document(), &Document::emitFinished, &Document::emitFailed, [&] { w.emitWith({}); }),
            QString());
        auto* inside = w.findChild<DelegatePayloadView*>();
        QVERIFY(inside);
        inside->showDelegate(0);
        const auto* table = inside->nodesTable();
        fixtures::attachModelTester(table->model());
        QVERIFY(table->isColumnHidden(InnerNodeModel::RunValueColumn));

        RunSettings s;
        s.method = "forward";
        QCOMPARE(fixtures::finishes(*w.document(), &Document::runFinished, &Document::runFailed, [&] { w.runWith(s); }),
            QString());
        QVERIFY(currentRun(*w.document()->snapshot())->run.ok());
        QTRY_VERIFY(!table->isColumnHidden(InnerNodeModel::RunValueColumn));
        QCOMPARE(cell(*table->model(), 0, InnerNodeModel::KindColumn), QStringLiteral("Add"));
        QCOMPARE(
            cell(*table->model(), 0, InnerNodeModel::RunValueColumn), QStringLiteral("[2, 2]  1.1 … 1.7, mean 1.4"));
        QVERIFY(cell(*table->model(), 0, InnerNodeModel::RunValueColumn, Qt::ToolTipRole)
                    .contains(QStringLiteral("first elements [1.1, 1.3, 1.5, 1.7]")));

        QCOMPARE(
            fixtures::finishes(*w.document(), &Document::emitFinished, &Document::emitFailed, [&] { w.emitWith({}); }),
            QString());
        inside->showDelegate(0);
        QTRY_VERIFY(inside->nodesTable()->isColumnHidden(InnerNodeModel::RunValueColumn));
    }

    /** A run that stops: where and why, in the message bar; the stopping instruction selected. */
    void stoppedRunSaysWhereAndWhy()
    {
        MainWindow w;
        w.resize(1400, 900);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        // delegate_edge.json's delegate under a backend the reference interpreter does not run (it interprets
        // XNNPACK graphs, so the dump as it is runs to the end).
        QFile source(pte::test::testDataDir() + QStringLiteral("/dumps/delegate_edge.json"));
        QVERIFY(source.open(QIODevice::ReadOnly));
        QByteArray json = source.readAll();
        QVERIFY(json.contains("XnnpackBackend"));
        json.replace("XnnpackBackend", "VulkanBackend");
        const QString dump = pte::test::tempDir() + QStringLiteral("/delegate_edge_vulkan.json");
        QFile copy(dump);
        QVERIFY(copy.open(QIODevice::WriteOnly) && copy.write(json) == json.size());
        copy.close();
        QCOMPARE(fixtures::finishes(
                     *w.document(), &Document::loadFinished, &Document::loadFailed, [&] { w.openFiles({ dump }); }),
            QString());
        QCOMPARE(
            fixtures::finishes(*w.document(), &Document::emitFinished, &Document::emitFailed, [&] { w.emitWith({}); }),
            QString());
        RunSettings s;
        s.method = "forward";
        QCOMPARE(fixtures::finishes(*w.document(), &Document::runFinished, &Document::runFailed, [&] { w.runWith(s); }),
            QString());
        const RunResult* run = currentRun(*w.document()->snapshot());
        QVERIFY(run);
        QCOMPARE(run->summary.stop, pte::RunStop::Unsupported);
        QCOMPARE(run->summary.stoppedAt, std::optional<std::uint32_t>(0));
        QVERIFY(w.messageText().contains(QStringLiteral("stopped (unsupported) at instruction 0 DelegateCall")));
        QCOMPARE(w.findChild<InstructionsView*>()->selectedSourceRows(), std::vector<int> { 0 });
        // What it read: the two inputs.
        auto* step = w.findChild<InstructionsView*>()->runStepModel();
        QTRY_VERIFY(step->rowCount() >= 2);
        QVERIFY(step->note().contains(QStringLiteral("stopped at instruction 0")));
        QCOMPARE(cell(*step, 0, RunStepModel::FromColumn), QStringLiteral("method input 0"));
    }
};

QTEST_MAIN(TestGuiRun)
#include "tst_guirun.moc"
