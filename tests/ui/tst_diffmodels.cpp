// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// The Diff window's models on a hand-built pair of programs: QAbstractItemModelTester, aligned rows, marks.
#include "document/comparison.h"
#include "models/diffconstantmodel.h"
#include "models/diffdelegatemodel.h"
#include "models/differencemodel.h"
#include "models/diffinstructionmodel.h"
#include "models/diffstatus.h"
#include "uifixtures.h"

#include <QBrush>
#include <QTest>

using namespace pte::ui;
using fixtures::cell;

namespace {

/** fixtures::makeProgram() with an add inserted at 1, %4 made f16, one weight element changed, a compile spec
 *  changed. */
std::shared_ptr<pte::Program> editedProgram()
{
    auto p = std::make_shared<pte::Program>(*fixtures::makeProgram());
    auto& forward = p->executionPlan.front();
    auto& ins = forward.chains.front().instructions;
    ins.insert(ins.begin() + 1, fixtures::kernel(0, { 0, 1, 3, 2, 2 }));
    std::get<pte::Tensor>(forward.values[4].val).scalarType = pte::ScalarType::Half;
    std::vector<std::uint8_t> weight(24, 1);
    weight[5] = 9;
    p->constantBuffer[1].storage = pte::Bytes::fromVector(weight);
    forward.delegates[0].compileSpecs[0].value = pte::Bytes::copyOf("slow");
    return p;
}

std::shared_ptr<const ComparisonResult> compare(
    std::shared_ptr<const pte::Program> a, std::shared_ptr<const pte::Program> b)
{
    auto r = std::make_shared<ComparisonResult>();
    r->a.label = "a.pte";
    r->a.program = std::move(a);
    r->b.label = "b.pte";
    r->b.program = std::move(b);
    auto d = pte::diffPrograms(r->a, r->b);
    if (!d)
        qFatal("%s", d.error().toString().c_str());
    r->diff = std::make_shared<const pte::ProgramDiff>(std::move(d).value());
    r->snapshotA = snapshotFromSide(r->a);
    r->snapshotB = snapshotFromSide(r->b);
    return r;
}

QColor background(const QAbstractItemModel& m, int row, int column)
{
    return m.index(row, column).data(Qt::BackgroundRole).value<QBrush>().color();
}

} // namespace

class TestDiffModels : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void init() { fixtures::failOnQtWarnings(); }

    void modelsPassTheTester()
    {
        const auto result = compare(fixtures::makeProgram(), editedProgram());
        DiffInstructionModel a(DiffInstructionModel::Side::A);
        DiffInstructionModel b(DiffInstructionModel::Side::B);
        DifferenceModel differences;
        DiffConstantModel constants;
        DiffDelegateModel delegates;
        for (QAbstractItemModel* m :
            std::initializer_list<QAbstractItemModel*> { &a, &b, &differences, &constants, &delegates })
            fixtures::attachModelTester(m);
        a.setMethod(result, 0);
        b.setMethod(result, 0);
        differences.setResult(result);
        constants.setResult(result);
        delegates.setResult(result);
        // Both sides have a row per aligned row: 4 instructions in A, 5 in B, one inserted.
        QCOMPARE(a.rowCount(), 5);
        QCOMPARE(b.rowCount(), 5);
        QCOMPARE(differences.rowCount(), int(result->diff->differences.size()));
        QCOMPARE(constants.rowCount(), 1);
        QCOMPARE(delegates.rowCount(), 1);
        // Another method, then nothing.
        a.setMethod(result, 1);
        QCOMPARE(a.rowCount(), 0); // get_answer has no instructions
        a.setMethod(nullptr, -1);
        differences.setResult(nullptr);
        constants.setResult(nullptr);
        delegates.setResult(nullptr);
        QCOMPARE(a.rowCount(), 0);
        QCOMPARE(differences.rowCount(), 0);
        QCOMPARE(constants.rowCount(), 0);
        QCOMPARE(delegates.rowCount(), 0);
    }

    void rowsAreAlignedAndMarked()
    {
        const auto result = compare(fixtures::makeProgram(), editedProgram());
        DiffInstructionModel a(DiffInstructionModel::Side::A);
        DiffInstructionModel b(DiffInstructionModel::Side::B);
        a.setMethod(result, 0);
        b.setMethod(result, 0);
        using M = DiffInstructionModel;
        // Row 1: the inserted add, shown in B, a grey gap in A.
        QCOMPARE(cell(b, 1, M::IdColumn), QStringLiteral("1"));
        QCOMPARE(cell(b, 1, M::OperatorColumn), QStringLiteral("aten::add.out"));
        QCOMPARE(cell(b, 1, M::StatusColumn), QStringLiteral("inserted"));
        QCOMPARE(cell(a, 1, M::IdColumn), QString());
        QCOMPARE(a.instructionAt(1), -1);
        QCOMPARE(background(a, 1, M::OperatorColumn), diffGapColor());
        QCOMPARE(background(b, 1, M::OperatorColumn), diffStatusColor(pte::DiffStatus::Added));
        // Rows 2 and 3 use %4, now f16: changed, their argument cells marked, the operator cells not.
        QCOMPARE(a.instructionAt(2), 1);
        QCOMPARE(b.instructionAt(2), 2);
        QCOMPARE(cell(a, 2, M::StatusColumn), QStringLiteral("changed"));
        QCOMPARE(background(a, 2, M::ArgumentsColumn), diffChangedCellColor());
        QCOMPARE(background(a, 2, M::OperatorColumn), diffStatusColor(pte::DiffStatus::Changed));
        QVERIFY(cell(a, 2, M::ArgumentsColumn).contains(QStringLiteral("%4 f32[2, 3]")));
        QVERIFY(cell(b, 2, M::ArgumentsColumn).contains(QStringLiteral("%4 f16[2, 3]")));
        QVERIFY(cell(a, 2, M::ArgumentsColumn, Qt::ToolTipRole).contains(QStringLiteral("scalar_type: f32 -> f16")));
        // Row 0 reads the weight whose bytes changed: changed, its arguments marked.
        QCOMPARE(cell(a, 0, M::StatusColumn), QStringLiteral("changed"));
        QCOMPARE(background(a, 0, M::ArgumentsColumn), diffChangedCellColor());
        // Row 4 (free %2) is the same on both sides: no mark.
        QCOMPARE(cell(a, 4, M::StatusColumn), QStringLiteral("same"));
        QCOMPARE(cell(b, 4, M::KindColumn), QStringLiteral("FreeCall"));
        QVERIFY(!a.index(4, M::OperatorColumn).data(Qt::BackgroundRole).isValid());
        QCOMPARE(a.rowOfInstruction(3), 4);
        QCOMPARE(b.rowOfInstruction(4), 4);
        QCOMPARE(a.rowOfInstruction(9), -1);
    }

    void tablesNameTheDifferences()
    {
        const auto result = compare(fixtures::makeProgram(), editedProgram());
        DifferenceModel differences;
        differences.setResult(result);
        QStringList subjects;
        for (int r = 0; r < differences.rowCount(); ++r)
            subjects << cell(differences, r, DifferenceModel::SubjectColumn) + QLatin1Char('/')
                    + cell(differences, r, DifferenceModel::FieldColumn);
        QCOMPARE(subjects,
            (QStringList { "instruction 1/", "value %4/scalar_type", "constant %1/data",
                "delegate 0 (XnnpackBackend)/compile_spec 'mode'" }));
        QCOMPARE(cell(differences, 1, DifferenceModel::AColumn), QStringLiteral("f32"));
        QCOMPARE(cell(differences, 1, DifferenceModel::BColumn), QStringLiteral("f16"));
        QCOMPARE(cell(differences, 1, DifferenceModel::UsesColumn),
            QStringLiteral("A: #1 arg 1, #2 arg 0, #2 arg 1; "
                           "B: #2 arg 1, #3 arg 0, #3 arg 1"));

        DiffConstantModel constants;
        constants.setResult(result);
        QCOMPARE(cell(constants, 0, DiffConstantModel::StatusColumn), QStringLiteral("changed"));
        QCOMPARE(cell(constants, 0, DiffConstantModel::DifferingColumn), QStringLiteral("1 of 6"));
        QCOMPARE(cell(constants, 0, DiffConstantModel::FirstIndicesColumn), QStringLiteral("[0, 1]"));

        DiffDelegateModel delegates;
        delegates.setResult(result);
        QCOMPARE(cell(delegates, 0, DiffDelegateModel::BackendColumn), QStringLiteral("XnnpackBackend"));
        QCOMPARE(cell(delegates, 0, DiffDelegateModel::CompileSpecsColumn), QStringLiteral("2 / 2, differ"));
        QCOMPARE(
            cell(delegates, 0, DiffDelegateModel::HashAColumn), cell(delegates, 0, DiffDelegateModel::HashBColumn));
    }
};

QTEST_MAIN(TestDiffModels)
#include "tst_diffmodels.moc"
