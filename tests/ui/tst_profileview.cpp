// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// An ETDump in the workbench: the Profile models (rows, filter, summaries), the Instructions time columns and
// delegate events, the Values view's logged values and gaps, the Signature view's bundled test cases, all under
// QAbstractItemModelTester; then the window: an ETDump joined with an emitted program, the graph coloured by time,
// selection going both ways, export, and a mismatching ETDump said so.
#include "document/profiledata.h"
#include "etdumptestutils.h"
#include "executiontestutils.h"
#include "mainwindow.h"
#include "models/bundledcasemodel.h"
#include "models/instructioneventsproxy.h"
#include "models/instructionmodel.h"
#include "models/profilefilterproxy.h"
#include "models/profilemodel.h"
#include "models/profilesummarymodel.h"
#include "models/roles.h"
#include "models/valuemodel.h"
#include "pte/bundledprogram.h"
#include "pte/dumpreader.h"
#include "pte/mappedfile.h"
#include "pte/syntheticetdump.h"
#include "testutils.h"
#include "uifixtures.h"
#include "views/graphpanel.h"
#include "views/instructionsview.h"
#include "views/profileview.h"
#include "widgets/graphview.h"
#include "widgets/tableview.h"

#include <QAction>
#include <QComboBox>
#include <QFile>
#include <QLabel>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTest>

using namespace pte::ui;
using pte::test::EtdumpBuilder;

namespace {

/**
 * Three runs of fixtures::makeSnapshot()'s "forward": add (instruction 0, logging value 2), the delegate call
 * (instruction 1) with events "fused_mul_0", "copy_1" (both in its delegate map) and "other #1" (not), mul, free;
 * the output logged after the last instruction.
 */
EtdumpBuilder forwardRuns()
{
    EtdumpBuilder b;
    b.loadBlock();
    for (std::uint64_t run = 0; run < 3; ++run) {
        const std::uint64_t t = 1000000 * (run + 1);
        const std::uint64_t k = run + 1; // the second run is the median
        b.block("Execute");
        b.debugTensor(0, 0, pte::ScalarType::Float, { 2, 3 }, 0);
        b.profile("native_call_add.out", 0, 0, t + 1, t + 100 * k - 1).profile("OPERATOR_CALL", 0, 0, t, t + 100 * k);
        b.delegateStr("fused_mul_0", 0, 1, t + 1000, t + 1000 + 300 * k);
        b.delegateStr("copy_1", 0, 1, t + 1000 + 300 * k, t + 1000 + 400 * k);
        b.delegateStr("other #1", 0, 1, t + 1000 + 400 * k, t + 1000 + 450 * k);
        b.profile("DELEGATE_CALL", 0, 1, t + 900, t + 1000 + 500 * k);
        b.profile("native_call_mul.out", 0, 2, t + 5001, t + 5000 + 50 * k - 1);
        b.profile("OPERATOR_CALL", 0, 2, t + 5000, t + 5000 + 50 * k);
        b.profile("FREE_CALL", 0, 3, t + 6000, t + 6010);
        b.profile("Method::execute", -1, 0, t - 10, t + 7000 * k);
        b.debugTensor(-1, 0, pte::ScalarType::Float, { 2, 3 }, 24, true);
    }
    return b;
}

std::vector<float> loggedFloats() { return { 1, 2, 3, 4, 5, 6, 0.5f, 1, 1.5f, 2, 2.5f, 3 }; }

/** A .bpte-like file for the snapshot: one test case whose expected output is close to the logged output. */
std::shared_ptr<pte::PteFile> bundledFile()
{
    auto file = std::make_shared<pte::PteFile>();
    auto bundled = std::make_shared<pte::BundledProgram>();
    bundled->version = 2;
    pte::BundledTestSuite suite;
    suite.methodName = "forward";
    pte::BundledValue in;
    in.kind = pte::BundledValue::Kind::Tensor;
    in.scalarType = pte::ScalarType::Float;
    in.sizes = { 2, 3 };
    in.dimOrder = { 0, 1 };
    in.data = pte::Bytes::fromVector(pte::test::floatBuffer({ 1, 1, 1, 1, 1, 1 }));
    pte::BundledValue out = in;
    out.data = pte::Bytes::fromVector(pte::test::floatBuffer({ 0.5f, 1, 1.5f, 2, 2.5f, 3.1f }));
    suite.testCases.push_back(pte::BundledTestCase { { in }, { out } });
    bundled->testSuites.push_back(suite);
    file->bundled = bundled;
    return file;
}

std::shared_ptr<Snapshot> profiledSnapshot()
{
    auto snap = fixtures::makeSnapshot();
    snap->pteFile = bundledFile();
    auto dump = forwardRuns().read(pte::Bytes::fromVector(pte::test::floatBuffer(loggedFloats())));
    if (!dump)
        return nullptr;
    snap->profile = buildProfileData(*dump, *snap);
    snap->finalize();
    return snap;
}

int rowNamed(const QAbstractItemModel& m, int column, const QString& text, int nth = 0)
{
    for (int r = 0; r < m.rowCount(); ++r)
        if (m.index(r, column).data().toString() == text && nth-- == 0)
            return r;
    return -1;
}

/**
 * (x + y) * 0.5 emitted from tests/data/emit/add_mul.json, opened as a .pte, with one execution logged as the runtime
 * would on etrt_runner's pattern fill (x[i] = 0.1 * (i % 7) + 0.5, y[i] = 0.1 * ((i + 1) % 7) + 0.5), add's element 1
 * off by 1.
 */
std::shared_ptr<Snapshot> addMulRunSnapshot()
{
    auto dump = pte::readDump(QString(pte::test::testDataDir() + QStringLiteral("/emit/add_mul.json")).toStdString());
    if (!dump)
        return nullptr;
    auto e = pte::test::emitAndReload((*dump)->methods, "add_mul_values");
    if (!e)
        return nullptr;
    auto snap = std::make_shared<Snapshot>();
    snap->pteFile = std::const_pointer_cast<pte::PteFile>(e->file);
    snap->program = e->file->program;
    const auto& plan = *e->file->program->method("forward");
    std::vector<float> logged(12);
    for (std::size_t i = 0; i < 6; ++i) {
        const auto x = float(0.1 * double(i % 7) + 0.5);
        const auto y = float(0.1 * double((i + 1) % 7) + 0.5);
        logged[i] = x + y;
        logged[6 + i] = (x + y) * 0.5f;
    }
    logged[1] += 1.0f;
    EtdumpBuilder b;
    b.loadBlock();
    b.block("Execute");
    for (std::int32_t ins = 0; ins < 2; ++ins) {
        const auto& k = std::get<pte::KernelCall>(plan.chains[0].instructions[std::size_t(ins)].args);
        b.debugTensor(0, ins, pte::ScalarType::Float, { 2, 3 }, 24 * ins);
        b.profile(pte::kernelEventName(plan.operators[std::size_t(k.opIndex)]), 0, ins, 100 * ins + 1, 100 * ins + 9);
        b.profile("OPERATOR_CALL", 0, ins, 100 * ins, 100 * ins + 10);
    }
    auto etdump = b.read(pte::Bytes::fromVector(pte::test::floatBuffer(logged)));
    if (!etdump)
        return nullptr;
    snap->finalize();
    snap->profile = buildProfileData(*etdump, *snap);
    return snap;
}

} // namespace

class TestProfileView : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
    void init() { fixtures::failOnQtWarnings(); }

    void profileModelAndFilter()
    {
        const auto snap = profiledSnapshot();
        QVERIFY(snap && snap->profile);
        QVERIFY(snap->profile->matches());
        ProfileModel model;
        fixtures::attachModelTester(&model);
        ProfileFilterProxy proxy;
        proxy.setProfileModel(&model);
        fixtures::attachModelTester(&proxy);
        model.setSnapshot(snap);
        // Default: 2 rows; Execute (3 runs merged): add 2, delegate events 3, DELEGATE_CALL, mul 2, FREE_CALL,
        // Method::execute = 10 rows (the outputs are the block's run outputs, not rows).
        QCOMPARE(model.rowCount(), 2 + 10);
        QCOMPARE(model.columnCount(), int(ProfileModel::ColumnCount));
        QCOMPARE(model.blockNames(), (QStringList { QStringLiteral("Default"), QStringLiteral("Execute") }));
        const int fused = rowNamed(model, ProfileModel::EventColumn, QStringLiteral("fused_mul_0"));
        QVERIFY(fused >= 0);
        QCOMPARE(fixtures::cell(model, fused, ProfileModel::RunsColumn), QStringLiteral("3"));
        QCOMPARE(fixtures::cell(model, fused, ProfileModel::P50Column), QStringLiteral("0.000600")); // 600 ns
        QCOMPARE(fixtures::cell(model, fused, ProfileModel::DelegatedColumn), QStringLiteral("yes"));
        QCOMPARE(fixtures::cell(model, fused, ProfileModel::BackendColumn), QStringLiteral("XnnpackBackend"));
        QCOMPARE(fixtures::cell(model, fused, ProfileModel::NodesColumn), QStringLiteral("mul"));
        QCOMPARE(fixtures::cell(model, fused, ProfileModel::OpTypesColumn), QStringLiteral("aten.mul.Tensor"));
        const int other = rowNamed(model, ProfileModel::EventColumn, QStringLiteral("other #1"));
        QCOMPARE(fixtures::cell(model, other, ProfileModel::NodesColumn), QString()); // not in the map: no guess
        QVERIFY(fixtures::cell(model, other, ProfileModel::DelegateIdColumn, Qt::ToolTipRole)
                    .contains(QStringLiteral("no such identifier")));
        const int add = rowNamed(model, ProfileModel::EventColumn, QStringLiteral("OPERATOR_CALL"));
        QCOMPARE(fixtures::cell(model, add, ProfileModel::InstructionColumn), QStringLiteral("0"));
        // The module stack reads as a module path (the root module has none), not as the raw nn_module_stack.
        QCOMPARE(fixtures::cell(model, add, ProfileModel::ModuleColumn), QStringLiteral("add: lin"));
        QCOMPARE(model.headerData(ProfileModel::P50Column, Qt::Horizontal).toString(), QStringLiteral("p50 (ms)"));

        // Words match anywhere: "copy" is also a graph node of the DELEGATE_CALL, "copy_1" only the event's id.
        proxy.setText(QStringLiteral("xnnpack copy"));
        QCOMPARE(proxy.rowCount(), 2);
        proxy.setText(QStringLiteral("xnnpack copy_1"));
        QCOMPARE(proxy.rowCount(), 1);
        proxy.setText(QString());
        proxy.setDelegatedOnly(true);
        QCOMPARE(proxy.rowCount(), 3);
        proxy.setDelegatedOnly(false);
        proxy.setBlock(QStringLiteral("Default"));
        QCOMPARE(proxy.rowCount(), 2);
        proxy.setBlock(QString());
        // Numeric sort on the median: Method::execute (14.01 µs), then DELEGATE_CALL (1.1 µs).
        proxy.sort(ProfileModel::P50Column, Qt::DescendingOrder);
        QCOMPARE(proxy.index(0, ProfileModel::EventColumn).data().toString(), QStringLiteral("Method::execute"));
        QCOMPARE(proxy.index(1, ProfileModel::EventColumn).data().toString(), QStringLiteral("DELEGATE_CALL"));
        // Rows of instructions, for the selection from other views.
        const auto rows = model.rowsFor(QStringLiteral("forward"), { 1 });
        QCOMPARE(rows.size(), std::size_t(4)); // three delegate events and DELEGATE_CALL
    }

    void summaryModel()
    {
        const auto snap = profiledSnapshot();
        ProfileSummaryModel model;
        fixtures::attachModelTester(&model);
        model.setSnapshot(snap);
        QCOMPARE(
            fixtures::cell(model, 0, ProfileSummaryModel::KeyColumn), QStringLiteral("XnnpackBackend: fused_mul_0"));
        model.setGrouping(ProfileSummaryModel::Grouping::Backend);
        QCOMPARE(model.rowCount(), 2 + 1); // the two backends, then the rest
        QCOMPARE(fixtures::cell(model, 0, ProfileSummaryModel::KeyColumn), QStringLiteral("XnnpackBackend"));
        QCOMPARE(fixtures::cell(model, 0, ProfileSummaryModel::TotalColumn), QStringLiteral("0.001100"));
        // The shares add up to 100%: the last row is the execution time no backend accounts for.
        QCOMPARE(model.restRow(), 2);
        QVERIFY(fixtures::cell(model, 2, ProfileSummaryModel::KeyColumn).startsWith(QStringLiteral("(rest: ")));
        double shares = 0;
        for (int r = 0; r < model.rowCount(); ++r)
            shares += model.index(r, ProfileSummaryModel::ShareColumn).data(SortRole).toDouble();
        QVERIFY2(std::abs(shares - 1.0) < 1e-9, qPrintable(QString::number(shares)));
        model.setGrouping(ProfileSummaryModel::Grouping::Module);
        QVERIFY(model.rowCount() >= 2);
        QCOMPARE(model.headerData(0, Qt::Horizontal).toString(), QStringLiteral("Module"));
    }

    void instructionTimesAndDelegateEvents()
    {
        const auto snap = profiledSnapshot();
        InstructionModel model;
        fixtures::attachModelTester(&model);
        model.setMethod(snap, QStringLiteral("forward"));
        QVERIFY(model.hasTimes());
        QCOMPARE(
            fixtures::cell(model, 0, InstructionModel::TimeColumn), QStringLiteral("0.000200")); // runs 100/200/300
        QCOMPARE(fixtures::cell(model, 1, InstructionModel::TimeColumn), QStringLiteral("0.001100"));
        QCOMPARE(model.index(1, InstructionModel::TimeColumn).data(SortRole).toDouble(), 1100 / 1e6);
        QCOMPARE(fixtures::cell(model, 3, InstructionModel::TimeColumn), QStringLiteral("0.000010"));
        QVERIFY(fixtures::cell(model, 1, InstructionModel::ShareColumn).endsWith(QLatin1Char('%')));
        QVERIFY(fixtures::cell(model, 1, InstructionModel::TimeColumn, Qt::ToolTipRole)
                    .contains(QStringLiteral("9 delegate events")));

        ProfileModel events;
        InstructionEventsProxy proxy;
        proxy.setProfileModel(&events);
        fixtures::attachModelTester(&proxy);
        events.setSnapshot(snap);
        proxy.setInstruction(QStringLiteral("forward"), 0, 1);
        QCOMPARE(proxy.rowCount(), 3);
        proxy.setInstruction(QStringLiteral("forward"), 0, 0);
        QCOMPARE(proxy.rowCount(), 0);
        // No ETDump: no times.
        model.setMethod(fixtures::makeSnapshot(), QStringLiteral("forward"));
        QVERIFY(!model.hasTimes());
        QCOMPARE(fixtures::cell(model, 0, InstructionModel::TimeColumn), QString());
    }

    void loggedValuesAndGaps()
    {
        const auto snap = profiledSnapshot();
        ValueModel model;
        fixtures::attachModelTester(&model);
        model.setMethod(snap, QStringLiteral("forward"));
        QVERIFY(model.hasLoggedValues());
        // Value 2 (add's output): the first run's bytes 0..24 of the buffer.
        QCOMPARE(fixtures::cell(model, 2, ValueModel::LoggedColumn), QStringLiteral("f32[2, 3]"));
        QCOMPARE(fixtures::cell(model, 2, ValueModel::StatsColumn), QStringLiteral("1 … 6, mean 3.5"));
        QCOMPARE(fixtures::cell(model, 2, ValueModel::FirstColumn), QStringLiteral("[1, 2, 3, 4, 5, 6]"));
        // The intermediate against the reference interpreter on the bundled input (ones): add(x, constant) with the
        // fixture's constant bytes 0x01 (floats of 2.4e-38) expects 1 everywhere; the run logged 1..6: L1 = 0 + 1 + ...
        // + 5 = 15, MSE = (0 + 1 + 4 + 9 + 16 + 25) / 6.
        const auto* add = model.logged(2);
        QVERIFY(add && add->gap);
        QVERIFY(std::abs(add->gap->l1 - 15) < 1e-6);
        QVERIFY(std::abs(add->gap->mse - 55.0 / 6) < 1e-6);
        QCOMPARE(fixtures::cell(model, 2, ValueModel::ExpectedColumn),
            QStringLiteral("reference interpreter on bundled test case 0"));
        // Value 5, the output, against the bundled expected output: one element differs by 0.1.
        QCOMPARE(fixtures::cell(model, 5, ValueModel::LoggedColumn), QStringLiteral("f32[2, 3] (output)"));
        const auto* lv = model.logged(5);
        QVERIFY(lv && lv->gap);
        QVERIFY(std::abs(lv->gap->mse - 0.01 / 6) < 1e-6);
        QVERIFY(std::abs(lv->gap->l1 - 0.1) < 1e-5);
        QVERIFY(fixtures::cell(model, 5, ValueModel::GapColumn).startsWith(QStringLiteral("SNR ")));
        QVERIFY(fixtures::cell(model, 5, ValueModel::GapColumn, Qt::ToolTipRole)
                    .contains(QStringLiteral("bundled test case 0")));
        QCOMPARE(fixtures::cell(model, 0, ValueModel::LoggedColumn), QString());
    }

    void intermediatesAgainstTheReferenceInterpreter()
    {
        const auto snap = addMulRunSnapshot();
        QVERIFY(snap && snap->profile && snap->profile->matches());
        QCOMPARE(snap->profile->referenceSource, std::string("runner pattern fill (assumed)")); // no bundled case
        ValueModel model;
        fixtures::attachModelTester(&model);
        model.setMethod(snap, QStringLiteral("forward"));
        QCOMPARE(model.columnCount(), int(ValueModel::ColumnCount));
        QCOMPARE(
            model.headerData(ValueModel::ExpectedColumn, Qt::Horizontal).toString(), QStringLiteral("Expected from"));
        int add = -1;
        int mul = -1;
        for (int r = 0; r < model.rowCount(); ++r)
            if (const auto* lv = model.logged(r))
                (lv->instruction == 0 ? add : mul) = r;
        QVERIFY(add >= 0 && mul >= 0);
        // add: one element off by 1 of 6: MSE 1/6, L1 1; red below 20 dB.
        const auto* lv = model.logged(add);
        QCOMPARE(lv->op, std::string("aten::add.out"));
        QVERIFY(lv->gap && std::abs(lv->gap->mse - 1.0 / 6) < 1e-6 && std::abs(lv->gap->l1 - 1.0) < 1e-6);
        QVERIFY(fixtures::cell(model, add, ValueModel::GapColumn).startsWith(QStringLiteral("SNR ")));
        QCOMPARE(fixtures::cell(model, add, ValueModel::ExpectedColumn),
            QStringLiteral("reference interpreter on runner pattern fill (assumed)"));
        QVERIFY(fixtures::cell(model, add, ValueModel::GapColumn, Qt::ToolTipRole)
                    .contains(QStringLiteral("reference interpreter on runner pattern fill")));
        // mul is right.
        QCOMPARE(fixtures::cell(model, mul, ValueModel::GapColumn), QStringLiteral("SNR ∞ dB, MSE 0, L1 0"));

        // Other reference inputs: recomputed, the source says which.
        pte::ReferenceInputSpec ones;
        ones.fill = pte::RunnerFill::Ones;
        auto other = std::make_shared<Snapshot>(*snap);
        other->profile = buildProfileData(snap->profile->dump, *snap, ones);
        model.setMethod(other, QStringLiteral("forward"));
        QCOMPARE(fixtures::cell(model, mul, ValueModel::ExpectedColumn),
            QStringLiteral("reference interpreter on runner ones fill (assumed)"));
        QVERIFY(model.logged(mul)->gap->mse > 0);

        // The Profile view offers the choice and says what the expected values come from.
        ProfileView view;
        view.setSnapshot(snap);
        QVERIFY(view.statusLabel()->text().contains(
            QStringLiteral("Expected values: reference interpreter on runner pattern fill (assumed)")));
        auto* choice = view.referenceChoice();
        QVERIFY(choice->isEnabled());
        QCOMPARE(choice->count(), 4); // pattern, ones, zeros, a JSON file
        QCOMPARE(choice->currentText(), QStringLiteral("Expected: runner pattern fill"));
        std::vector<pte::ReferenceInputSpec> chosen;
        connect(&view, &ProfileView::referenceInputsChosen, this,
            [&chosen](const pte::ReferenceInputSpec& spec) { chosen.push_back(spec); });
        Q_EMIT choice->activated(1);
        QCOMPARE(chosen.size(), std::size_t(1));
        QCOMPARE(int(chosen[0].kind), int(pte::ReferenceInputSpec::Kind::Fill));
        QCOMPARE(int(chosen[0].fill), int(pte::RunnerFill::Ones));
    }

    void bundledTestCases()
    {
        const auto snap = profiledSnapshot();
        BundledCaseModel model;
        fixtures::attachModelTester(&model);
        model.setMethod(snap, QStringLiteral("forward"));
        QCOMPARE(model.caseCount(), 1);
        QCOMPARE(model.rowCount(), 2);
        QCOMPARE(fixtures::cell(model, 0, BundledCaseModel::RoleColumn), QStringLiteral("input 0"));
        QCOMPARE(fixtures::cell(model, 1, BundledCaseModel::RoleColumn), QStringLiteral("expected output 0"));
        QCOMPARE(fixtures::cell(model, 1, BundledCaseModel::TypeColumn), QStringLiteral("f32[2, 3]"));
        QVERIFY(fixtures::cell(model, 1, BundledCaseModel::ValuesColumn)
                    .startsWith(QStringLiteral("[0.5, 1, 1.5, 2, 2.5, 3.1]")));
        model.setMethod(snap, QStringLiteral("get_answer"));
        QCOMPARE(model.rowCount(), 0);
    }

    void windowJoinsAnEtdumpWithAnEmittedProgram()
    {
        MainWindow w;
        w.resize(1400, 900);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QSignalSpy loaded(w.document(), &Document::loadFinished);
        w.openFiles({ pte::test::testDataDir() + QStringLiteral("/emit/add_mul.json") });
        QTRY_VERIFY_WITH_TIMEOUT(!loaded.isEmpty(), 60000);
        QSignalSpy emitted(w.document(), &Document::emitFinished);
        w.emitWith({});
        QTRY_VERIFY_WITH_TIMEOUT(!emitted.isEmpty(), 60000);
        // The trace the runtime would write for this program, three runs.
        const auto program = w.document()->snapshot()->program;
        auto trace = pte::makeSyntheticEtdump(*program, pte::SyntheticEtdumpOptions { {}, 3, true, 1000 });
        QVERIFY_RESULT(trace);
        auto bytes = pte::serializeEtdump(*trace);
        QVERIFY_RESULT(bytes);
        const QString etdump = pte::test::tempDir() + QStringLiteral("/add_mul.etdp");
        QVERIFY_RESULT(pte::writeFileAtomically(etdump.toStdString(), *bytes));
        // Opened on its own, it joins the open program (which stays).
        loaded.clear();
        w.openFiles({ etdump });
        QTRY_VERIFY_WITH_TIMEOUT(!loaded.isEmpty(), 60000);
        const auto snap = w.document()->snapshot();
        QVERIFY(snap->program == program);
        QVERIFY(snap->profile && snap->profile->matches());
        auto* profile = w.findChild<ProfileView*>();
        QVERIFY(profile);
        QVERIFY(profile->statusLabel()->text().contains(QStringLiteral("Joined with the program")));
        QCOMPARE(profile->model()->rowCount(), 2 + 2 * 2 + 1); // load block; kernel + operator per instruction
        auto* instructions = w.findChild<InstructionsView*>();
        QVERIFY(!instructions->table()->isColumnHidden(InstructionModel::TimeColumn));
        QVERIFY(!fixtures::cell(*instructions->model(), 0, InstructionModel::TimeColumn).isEmpty());
        // Graph coloured by time; the hottest node selects its instruction and its events.
        auto* graph = w.findChild<GraphPanel*>(QStringLiteral("graphPanel"));
        QTRY_VERIFY_WITH_TIMEOUT(!graph->isBusy(), 60000);
        QCOMPARE(graph->colouring(), GraphPanel::Colouring::Time);
        const auto& heat = graph->heat();
        QVERIFY(!heat.empty());
        const auto hottest = std::max_element(heat.begin(), heat.end()) - heat.begin();
        QCOMPARE(heat[std::size_t(hottest)], 1.0);
        graph->view()->selectNodes({ int(hottest) });
        Q_EMIT graph->nodesSelected();
        QVERIFY(!instructions->selectedSourceRows().empty());
        const int instruction = instructions->selectedSourceRows().front();
        const auto selected = profile->selectedSourceRows();
        QCOMPARE(selected.size(), std::size_t(2)); // its kernel event and OPERATOR_CALL
        for (const int r : selected)
            QCOMPARE(profile->model()->row(r).instruction, instruction);
        graph->setColouring(GraphPanel::Colouring::Share);
        QVERIFY(*std::max_element(graph->heat().begin(), graph->heat().end()) < 1.0);
        // Selecting events selects their instruction.
        const int other = instruction == 0 ? 1 : 0;
        profile->selectSourceRows(profile->model()->rowsFor(QStringLiteral("forward"), { other }));
        Q_EMIT profile->selectionChanged();
        QCOMPARE(instructions->selectedSourceRows(), std::vector<int> { other });
        // Export what the filter shows.
        profile->setFilterText(QStringLiteral("operator_call"));
        const QString tsv = pte::test::tempDir() + QStringLiteral("/profile.tsv");
        QString error;
        QVERIFY2(profile->exportTo(tsv, '\t', &error), qPrintable(error));
        QFile f(tsv);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const auto lines = f.readAll().trimmed().split('\n');
        QCOMPARE(lines.size(), 1 + 2);
        QVERIFY(lines[0].startsWith("event_block_name\tevent_name"));
        QVERIFY(lines[1].startsWith("Execute\tOPERATOR_CALL\t["));
        // Ctrl+0 brings the Profile view (the tenth dock) to the front with its table focused.
        QAction* goToProfile = nullptr;
        for (auto* a : w.findChildren<QAction*>())
            if (a->text() == QStringLiteral("Go to Profile"))
                goToProfile = a;
        QVERIFY(goToProfile);
        QCOMPARE(goToProfile->shortcut(), QKeySequence(Qt::CTRL | Qt::Key_0));
        instructions->table()->setFocus();
        QTest::keyClick(&w, Qt::Key_0, Qt::ControlModifier);
        QTRY_VERIFY(profile->focusTarget()->hasFocus());
    }

    void mismatchingEtdumpIsSaidSo()
    {
        PTE_REQUIRE_CORPUS();
        MainWindow w;
        w.resize(1200, 800);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QSignalSpy loaded(w.document(), &Document::loadFinished);
        w.openFiles({ pte::test::corpusPath(QStringLiteral("pte/pytorch_executorch__add.pte")),
            pte::test::corpusPath(
                QStringLiteral("pte/taemin6697_Executorch-Tutorials__Profiling__mobilenet__etdump.etdp")) });
        QTRY_VERIFY_WITH_TIMEOUT(!loaded.isEmpty(), 60000);
        auto* profile = w.findChild<ProfileView*>();
        QVERIFY(!w.document()->snapshot()->profile->matches());
        QVERIFY(profile->statusLabel()->text().contains(QStringLiteral("does not match the program")));
        QCOMPARE(profile->model()->rowCount(), 73); // the rows, unjoined
        // Not joined: no times in the Instructions view.
        auto* instructions = w.findChild<InstructionsView*>();
        QVERIFY(instructions->table()->isColumnHidden(InstructionModel::TimeColumn));
    }
};

QTEST_MAIN(TestProfileView)
#include "tst_profileview.moc"
