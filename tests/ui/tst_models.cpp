// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "models/delegatemodel.h"
#include "models/diagnosticmodel.h"
#include "models/memoryplan.h"
#include "models/methodmodel.h"
#include "models/nameddatamodel.h"
#include "models/operatormodel.h"
#include "models/roles.h"
#include "models/signaturemodel.h"
#include "models/sizemodel.h"
#include "models/textfilterproxy.h"
#include "models/valuemodel.h"
#include "testutils.h"
#include "uifixtures.h"

#include <QAbstractItemModelTester>
#include <QRegularExpression>
#include <QTest>

using namespace pte::ui;
using pte::ui::fixtures::cell;

class TestModels : public QObject
{
    Q_OBJECT
private:
private Q_SLOTS:
    void init() { fixtures::failOnQtWarnings(); }

    void methodModelMarksConstantAndTrainingMethods()
    {
        MethodModel model;
        fixtures::attachModelTester(&model);
        QCOMPARE(model.rowCount(), 0);
        model.setSnapshot(fixtures::makeSnapshot());
        QCOMPARE(model.rowCount(), 3);
        QCOMPARE(model.columnCount(), int(MethodModel::ColumnCount));
        QCOMPARE(cell(model, 0, MethodModel::NameColumn), QStringLiteral("forward"));
        QCOMPARE(cell(model, 0, MethodModel::InputsColumn), QStringLiteral("1"));
        QCOMPARE(cell(model, 0, MethodModel::OutputsColumn), QStringLiteral("1"));
        QCOMPARE(cell(model, 0, MethodModel::InstructionsColumn), QStringLiteral("4"));
        QCOMPARE(model.index(0, MethodModel::InstructionsColumn).data(SortRole).toInt(), 4);
        QCOMPARE(cell(model, 1, MethodModel::KindColumn), QStringLiteral("constant"));
        QCOMPARE(cell(model, 2, MethodModel::KindColumn), QStringLiteral("training metadata"));
        QVERIFY(model.index(2, MethodModel::KindColumn)
                    .data(Qt::ToolTipRole)
                    .toString()
                    .contains(QStringLiteral("__et_training_")));
        QVERIFY(cell(model, 0, MethodModel::SourceColumn).contains(QStringLiteral("emitted")));
        QCOMPARE(model.rowOf(QStringLiteral("get_answer")), 1);
        QCOMPARE(model.methodName(2), QStringLiteral("__et_training_fqn_forward"));
        model.setSnapshot(nullptr);
        QCOMPARE(model.rowCount(), 0);
    }

    void dumpOnlyMethodsAreListed()
    {
        auto snap = std::make_shared<Snapshot>();
        snap->dumpMethods.push_back(DumpMethod { "forward", "forward", "m.pt2", fixtures::makeExportedProgram() });
        snap->finalize();
        MethodModel model;
        fixtures::attachModelTester(&model);
        model.setSnapshot(snap);
        QCOMPARE(model.rowCount(), 1);
        // One rule for inputs and outputs (issue #16): what the caller passes (the user input x; the parameter and
        // the buffer are stored) and what the method returns (the user output; the buffer mutation is written
        // back), as the emitted program would count them. The header tooltips state it.
        QCOMPARE(cell(model, 0, MethodModel::InputsColumn), QStringLiteral("1"));
        QCOMPARE(cell(model, 0, MethodModel::OutputsColumn), QStringLiteral("1"));
        QVERIFY(model.headerData(MethodModel::InputsColumn, Qt::Horizontal, Qt::ToolTipRole)
                    .toString()
                    .contains(QStringLiteral("caller")));
        QVERIFY(model.headerData(MethodModel::OutputsColumn, Qt::Horizontal, Qt::ToolTipRole)
                    .toString()
                    .contains(QStringLiteral("not returned")));
        QCOMPARE(cell(model, 0, MethodModel::InstructionsColumn), QStringLiteral("—"));
        QCOMPARE(cell(model, 0, MethodModel::KindColumn), QStringLiteral("graph dump (not emitted)"));
    }

    void signatureMarksDroppedOutputs()
    {
        const auto snap = fixtures::makeSnapshot();
        SignatureModel outputs(SignatureModel::Side::Outputs);
        SignatureModel inputs(SignatureModel::Side::Inputs);
        fixtures::attachModelTester(&outputs);
        fixtures::attachModelTester(&inputs);
        outputs.setMethod(snap, QStringLiteral("forward"));
        inputs.setMethod(snap, QStringLiteral("forward"));
        QCOMPARE(inputs.rowCount(), 3);
        QCOMPARE(cell(inputs, 0, SignatureModel::KindColumn), QStringLiteral("parameter"));
        QCOMPARE(cell(inputs, 0, SignatureModel::TargetColumn), QStringLiteral("lin.weight"));
        QCOMPARE(cell(inputs, 2, SignatureModel::KindColumn), QStringLiteral("user_input"));
        QCOMPARE(cell(inputs, 2, SignatureModel::ValueColumn), QStringLiteral("%0"));
        QCOMPARE(cell(inputs, 2, SignatureModel::ShapeColumn), QStringLiteral("[2, 3]"));
        QCOMPARE(cell(inputs, 2, SignatureModel::DTypeColumn), QStringLiteral("f32"));

        QCOMPARE(outputs.rowCount(), 2);
        QCOMPARE(cell(outputs, 0, SignatureModel::KindColumn), QStringLiteral("buffer_mutation"));
        QVERIFY(outputs.index(0, 0).data(DroppedRole).toBool());
        QVERIFY(!cell(outputs, 0, SignatureModel::ReasonColumn).isEmpty());
        QVERIFY(outputs.index(0, SignatureModel::NameColumn)
                    .data(Qt::ToolTipRole)
                    .toString()
                    .startsWith(QStringLiteral("Dropped")));
        QVERIFY(outputs.index(0, SignatureModel::KindColumn).data(Qt::DecorationRole).isValid());
        QVERIFY(!outputs.index(1, 0).data(DroppedRole).toBool());
        QVERIFY(cell(outputs, 1, SignatureModel::ReasonColumn).isEmpty());
        QCOMPARE(cell(outputs, 1, SignatureModel::ValueColumn), QStringLiteral("%5"));

        outputs.setMethod(snap, QStringLiteral("no such method"));
        QCOMPARE(outputs.rowCount(), 0);
    }

    void signatureFromProgramOnly()
    {
        auto snap = std::make_shared<Snapshot>();
        snap->program = fixtures::makeProgram();
        snap->finalize();
        SignatureModel outputs(SignatureModel::Side::Outputs);
        fixtures::attachModelTester(&outputs);
        outputs.setMethod(snap, QStringLiteral("get_answer"));
        QCOMPARE(outputs.rowCount(), 1);
        // A constant method's value shows in the Value column, not as a target (issue #16).
        QCOMPARE(cell(outputs, 0, SignatureModel::TargetColumn), QString());
        QCOMPARE(cell(outputs, 0, SignatureModel::ValueColumn), QStringLiteral("%0 = Int 42"));
        outputs.setMethod(snap, QStringLiteral("forward"));
        QCOMPARE(cell(outputs, 0, SignatureModel::DTypeColumn), QStringLiteral("f32"));
        QCOMPARE(cell(outputs, 0, SignatureModel::TargetColumn), QStringLiteral("planned"));
    }

    void dropReasonsFollowEmission_data()
    {
        QTest::addColumn<int>("kind");
        QTest::addColumn<bool>("dropped");
        // ExecuTorch's emitter removes buffer mutations from the outputs (written back instead); a joint graph's
        // forward returns the loss and the gradients; user input mutations stay outputs (only buffer mutations are
        // removed by _remove_non_user_outputs); effect tokens are gone before emission.
        QTest::addRow("user_output") << int(pte::OutputKind::UserOutput) << false;
        QTest::addRow("loss_output") << int(pte::OutputKind::LossOutput) << false;
        QTest::addRow("gradient_to_parameter") << int(pte::OutputKind::GradientToParameter) << false;
        QTest::addRow("gradient_to_user_input") << int(pte::OutputKind::GradientToUserInput) << false;
        QTest::addRow("user_input_mutation") << int(pte::OutputKind::UserInputMutation) << false;
        QTest::addRow("buffer_mutation") << int(pte::OutputKind::BufferMutation) << true;
        QTest::addRow("token") << int(pte::OutputKind::Token) << true;
    }

    void dropReasonsFollowEmission()
    {
        QFETCH(int, kind);
        QFETCH(bool, dropped);
        const auto k = pte::OutputKind(kind);
        QCOMPARE(!dropReasonText(k).isEmpty(), dropped);
        // The view shows the core's reason, not a text of its own.
        QCOMPARE(dropReasonText(k), dropped ? QLatin1String(pte::emissionDropReason(k)) : QString());
    }

    void valueModelShowsTensorFacts()
    {
        ValueModel model;
        fixtures::attachModelTester(&model);
        model.setMethod(fixtures::makeSnapshot(), QStringLiteral("forward"));
        QCOMPARE(model.rowCount(), 6);
        QCOMPARE(cell(model, 0, ValueModel::NameColumn), QStringLiteral("x"));
        QCOMPARE(cell(model, 1, ValueModel::ConstantColumn), QStringLiteral("1"));
        QCOMPARE(cell(model, 2, ValueModel::OffsetColumn), QStringLiteral("32"));
        QCOMPARE(cell(model, 2, ValueModel::MemoryIdColumn), QStringLiteral("1"));
        QCOMPARE(cell(model, 2, ValueModel::DimOrderColumn), QStringLiteral("0,1"));
        QCOMPARE(cell(model, 2, ValueModel::SizeColumn), QStringLiteral("24 B"));
        QCOMPARE(model.index(2, ValueModel::SizeColumn).data(SortRole).toULongLong(), 24ull);
        QCOMPARE(cell(model, 3, ValueModel::TypeColumn), QStringLiteral("Int"));
        QCOMPARE(cell(model, 3, ValueModel::DetailsColumn), QStringLiteral("Int 1"));
    }

    void textFilterProxySortsNumerically()
    {
        ValueModel model;
        TextFilterProxy proxy;
        proxy.setSourceModel(&model);
        fixtures::attachModelTester(&proxy);
        model.setMethod(fixtures::makeSnapshot(), QStringLiteral("forward"));
        proxy.sort(ValueModel::OffsetColumn, Qt::DescendingOrder);
        QCOMPARE(proxy.index(0, ValueModel::OffsetColumn).data().toString(), QStringLiteral("64"));
        proxy.setFilterText(QStringLiteral("Int"));
        QCOMPARE(proxy.rowCount(), 1);
        proxy.setFilterText(QString());
        QCOMPARE(proxy.rowCount(), 6);
    }

    void delegateModels()
    {
        const auto snap = fixtures::makeSnapshot();
        DelegateModel delegates;
        DelegateDebugIdModel ids;
        fixtures::attachModelTester(&delegates);
        fixtures::attachModelTester(&ids);
        delegates.setMethod(snap, QStringLiteral("forward"));
        QCOMPARE(delegates.rowCount(), 1);
        QCOMPARE(cell(delegates, 0, DelegateModel::BackendColumn), QStringLiteral("XnnpackBackend"));
        QCOMPARE(cell(delegates, 0, DelegateModel::LocationColumn), QStringLiteral("inline #0"));
        QCOMPARE(cell(delegates, 0, DelegateModel::SizeColumn), QStringLiteral("100 B"));
        QCOMPARE(cell(delegates, 0, DelegateModel::CallsColumn), QStringLiteral("1"));
        const QString specs = cell(delegates, 0, DelegateModel::CompileSpecsColumn);
        QVERIFY2(specs.contains(QStringLiteral("mode=fast")), qPrintable(specs));
        QVERIFY2(specs.contains(QStringLiteral("blob=00 01 ff")), qPrintable(specs));

        ids.setMethod(snap, QStringLiteral("forward"));
        QCOMPARE(ids.rowCount(), 2);
        QCOMPARE(cell(ids, 0, DelegateDebugIdModel::InstructionColumn), QStringLiteral("1"));
        QCOMPARE(cell(ids, 0, DelegateDebugIdModel::IdentifierColumn), QStringLiteral("copy_1"));
        QCOMPARE(cell(ids, 0, DelegateDebugIdModel::NodesColumn), QStringLiteral("copy"));
        QCOMPARE(cell(ids, 1, DelegateDebugIdModel::IdentifierColumn), QStringLiteral("fused_mul_0"));
        QCOMPARE(cell(ids, 1, DelegateDebugIdModel::HandlesColumn), QStringLiteral("2"));
        QCOMPARE(cell(ids, 1, DelegateDebugIdModel::NodesColumn), QStringLiteral("mul"));
    }

    /** A loaded .pte keeps its backends' constants as program named data: the Delegates view lists them. */
    void namedDataOfALoadedProgram()
    {
        auto program = fixtures::makeProgram();
        for (const std::size_t size : { 16u, 40u }) {
            pte::DataSegment segment;
            segment.size = size;
            segment.data = pte::Bytes::fromVector(std::vector<std::uint8_t>(size, 3));
            program->segments.push_back(segment);
        }
        program->namedData = std::vector<pte::NamedData> { { "weights_0", 1 }, { "bias_0", 0 } };
        auto snap = std::make_shared<Snapshot>();
        snap->program = program;
        snap->finalize();
        NamedDataModel model;
        fixtures::attachModelTester(&model);
        model.setMethod(snap, QStringLiteral("forward"));
        QCOMPARE(model.rowCount(), 2);
        QCOMPARE(cell(model, 0, NamedDataModel::KeyColumn), QStringLiteral("weights_0"));
        QCOMPARE(model.index(0, NamedDataModel::SizeColumn).data(SortRole).toULongLong(), 40ull);
        QCOMPARE(cell(model, 0, NamedDataModel::BufferColumn), QStringLiteral("segment 1"));
        QCOMPARE(cell(model, 0, NamedDataModel::StoreColumn), QStringLiteral("pte"));
        QCOMPARE(cell(model, 0, NamedDataModel::ModuleColumn), QStringLiteral("(program)"));
        QCOMPARE(cell(model, 1, NamedDataModel::KeyColumn), QStringLiteral("bias_0"));
        QCOMPARE(model.index(1, NamedDataModel::SizeColumn).data(SortRole).toULongLong(), 16ull);
        // Program-wide: every method shows them.
        model.setMethod(snap, QStringLiteral("get_answer"));
        QCOMPARE(model.rowCount(), 2);
    }

    /** One blob used by two methods' delegates (as a QNN LLM's context) is marked shared, and counted once. */
    void sharedDelegateBlob()
    {
        auto program = fixtures::makeProgram();
        pte::ExecutionPlan second = program->executionPlan.front();
        second.name = "kv_forward";
        program->executionPlan.push_back(second);
        auto snap = std::make_shared<Snapshot>();
        snap->program = program;
        snap->finalize();
        DelegateModel delegates;
        fixtures::attachModelTester(&delegates);
        delegates.setMethod(snap, QStringLiteral("kv_forward"));
        QCOMPARE(cell(delegates, 0, DelegateModel::LocationColumn), QStringLiteral("inline #0, shared by 2 methods"));
        QCOMPARE(cell(delegates, 0, DelegateModel::LocationColumn, Qt::ToolTipRole),
            QStringLiteral("inline #0, stored once and shared by 2 methods:\nforward\nkv_forward"));

        SizeModel sizes;
        fixtures::attachModelTester(&sizes);
        sizes.setSnapshot(snap);
        QStringList blobs;
        QStringList methods;
        for (int r = 0; r < sizes.rowCount(); ++r) {
            const QString cat = cell(sizes, r, SizeModel::CategoryColumn);
            if (cat == QLatin1String("Delegate blob"))
                blobs << cell(sizes, r, SizeModel::NameColumn) + QLatin1Char('|')
                        + cell(sizes, r, SizeModel::DetailsColumn);
            if (cat == QLatin1String("Method") && cell(sizes, r, SizeModel::NameColumn) != QLatin1String("get_answer")
                && !cell(sizes, r, SizeModel::NameColumn).startsWith(QStringLiteral("__")))
                methods << cell(sizes, r, SizeModel::DetailsColumn);
        }
        QCOMPARE(blobs,
            QStringList {
                QStringLiteral("inline #0 blob (shared)|XnnpackBackend, shared by 2 methods: forward, kv_forward") });
        QCOMPARE(methods.size(), 2);
        for (const auto& details : methods)
            QVERIFY2(details.endsWith(QStringLiteral("(100 B shared with other methods)")), qPrintable(details));
    }

    void sizeModelAttributesBytes()
    {
        SizeModel model;
        fixtures::attachModelTester(&model);
        model.setSnapshot(fixtures::makeSnapshot());
        bool constant = false, blob = false, method = false;
        for (int r = 0; r < model.rowCount(); ++r) {
            const QString cat = cell(model, r, SizeModel::CategoryColumn);
            if (cat == QLatin1String("Constant")) {
                constant = true;
                QCOMPARE(model.index(r, SizeModel::SizeColumn).data(SortRole).toULongLong(), 24ull);
                QVERIFY(cell(model, r, SizeModel::DetailsColumn).contains(QStringLiteral("forward %1 f32[2, 3]")));
            }
            if (cat == QLatin1String("Delegate blob")) {
                blob = true;
                QCOMPARE(model.index(r, SizeModel::SizeColumn).data(SortRole).toULongLong(), 100ull);
            }
            if (cat == QLatin1String("Method") && cell(model, r, SizeModel::NameColumn) == QLatin1String("forward")) {
                method = true;
                QCOMPARE(model.index(r, SizeModel::SizeColumn).data(SortRole).toULongLong(), 124ull);
            }
        }
        QVERIFY(constant && blob && method);
        QCOMPARE(model.total(), 124ull);
    }

    void operatorModelCountsUses()
    {
        OperatorModel model;
        fixtures::attachModelTester(&model);
        model.setSnapshot(fixtures::makeSnapshot());
        QCOMPARE(model.rowCount(), 2);
        QCOMPARE(cell(model, 0, OperatorModel::NameColumn), QStringLiteral("aten::add.out"));
        QCOMPARE(cell(model, 0, OperatorModel::UsesColumn), QStringLiteral("1"));
        QCOMPARE(cell(model, 0, OperatorModel::MethodsColumn), QStringLiteral("forward"));
        const QString portable = cell(model, 0, OperatorModel::PortableColumn);
        QVERIFY(portable == QLatin1String("yes") || portable == QLatin1String("no"));
    }

    void diagnosticModelShowsLocation()
    {
        DiagnosticModel model;
        fixtures::attachModelTester(&model);
        model.setDiagnostics(fixtures::makeSnapshot()->diagnostics);
        QCOMPARE(model.rowCount(), 2);
        QCOMPARE(cell(model, 0, DiagnosticModel::SeverityColumn), QStringLiteral("warning"));
        // Decimal like the "at byte N" of the messages; hex in the tooltip.
        QCOMPARE(cell(model, 0, DiagnosticModel::OffsetColumn), QStringLiteral("128"));
        QCOMPARE(cell(model, 0, DiagnosticModel::OffsetColumn, Qt::ToolTipRole),
            QStringLiteral("Byte 128 (0x80) of the file"));
        QCOMPARE(cell(model, 0, DiagnosticModel::FieldPathColumn), QStringLiteral("execution_plan[0].values[3]"));
        QCOMPARE(model.index(1, 0).data(SeverityRole).toInt(), int(pte::Severity::Error));
        pte::Diagnostic d;
        d.message = "appended";
        model.append(d);
        QCOMPARE(model.rowCount(), 3);
        QCOMPARE(cell(model, 2, DiagnosticModel::MessageColumn), QStringLiteral("appended"));
    }

    void memoryPlanDerivedFromProgram()
    {
        auto snap = std::make_shared<Snapshot>();
        snap->program = fixtures::makeProgram();
        snap->finalize();
        const auto plan = memoryPlanFor(*snap->method("forward"));
        QCOMPARE(plan.size(), std::size_t(4)); // %0 %2 %4 %5 are planned
        QCOMPARE(plan[1].valueIndex, 2);
        QCOMPARE(plan[1].offset, 32ull);
        QCOMPARE(plan[1].firstInstruction, 0);
        QCOMPARE(plan[1].lastInstruction, 3); // freed by instruction 3
        QCOMPARE(plan[3].lastInstruction, 3); // an output lives to the end
        // The emitter's plan wins when there is one.
        QCOMPARE(memoryPlanFor(*fixtures::makeSnapshot()->method("forward")).size(), std::size_t(3));
    }
};

QTEST_MAIN(TestModels)
#include "tst_models.moc"
