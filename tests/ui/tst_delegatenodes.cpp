// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// Delegate debug identifiers -> debug handles -> graph nodes, on the bundled example (build/examples/example.etrecord:
// "forward" has an XnnpackBackend delegate call whose identifiers 0 and 1 carry handles 2 and 3; its lowered module's
// original program holds aten_mul_tensor (2) and aten_relu_default (3)).
#include "document/document.h"
#include "models/delegatemodel.h"
#include "models/instructionmodel.h"
#include "models/roles.h"
#include "uifixtures.h"

#include <QAbstractItemModelTester>
#include <QFileInfo>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QTest>

using namespace pte::ui;
using pte::ui::fixtures::cell;

class TestDelegateNodes : public QObject
{
    Q_OBJECT
private:
    static QString examplePath()
    {
        return qEnvironmentVariable("PTELENS_BUILD_DIR") + QStringLiteral("/examples/example.etrecord");
    }
    void checkIdentifierModel(const std::shared_ptr<const Snapshot>& snap)
    {
        DelegateDebugIdModel model;
        new QAbstractItemModelTester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest, &model);
        model.setMethod(snap, QStringLiteral("forward"));
        QCOMPARE(model.rowCount(), 2);
        QCOMPARE(cell(model, 0, DelegateDebugIdModel::InstructionColumn), QStringLiteral("1"));
        QCOMPARE(cell(model, 0, DelegateDebugIdModel::BackendColumn), QStringLiteral("XnnpackBackend"));
        QCOMPARE(cell(model, 0, DelegateDebugIdModel::IdentifierColumn), QStringLiteral("0"));
        QCOMPARE(cell(model, 0, DelegateDebugIdModel::HandlesColumn), QStringLiteral("2"));
        QCOMPARE(cell(model, 0, DelegateDebugIdModel::NodesColumn),
            QStringLiteral("executorch_call_delegate, lowered_module_0/aten_mul_tensor"));
        QCOMPARE(cell(model, 1, DelegateDebugIdModel::IdentifierColumn), QStringLiteral("1"));
        QCOMPARE(cell(model, 1, DelegateDebugIdModel::HandlesColumn), QStringLiteral("3"));
        QCOMPARE(cell(model, 1, DelegateDebugIdModel::NodesColumn),
            QStringLiteral("executorch_call_delegate, lowered_module_0/aten_relu_default"));
        QCOMPARE(model.index(1, 0).data(NodeNamesRole).toStringList(),
            QStringList(
                { QStringLiteral("executorch_call_delegate"), QStringLiteral("lowered_module_0/aten_relu_default") }));
        QCOMPARE(model.edgeNodesOf(0), QStringList { QStringLiteral("executorch_call_delegate") });
        QCOMPARE(model.handlesOf(1), std::vector<std::int64_t> { 3 });
        QCOMPARE(model.instructionOf(1), std::int64_t(1));
        QVERIFY(cell(model, 0, DelegateDebugIdModel::NodesColumn, Qt::ToolTipRole)
                    .contains(QStringLiteral("Lowered module (original program): lowered_module_0/aten_mul_tensor")));
        // "scale" has no delegate.
        model.setMethod(snap, QStringLiteral("scale"));
        QCOMPARE(model.rowCount(), 0);
    }

private Q_SLOTS:
    void init() { fixtures::failOnQtWarnings(); }
    void initTestCase()
    {
        QVERIFY2(QFileInfo::exists(examplePath()), qPrintable(examplePath() + QStringLiteral(" is not built")));
    }

    void identifiersListHandlesAndNodes()
    {
        Document doc;
        QSignalSpy loaded(&doc, &Document::loadFinished);
        doc.open({ examplePath() });
        QTRY_COMPARE_WITH_TIMEOUT(loaded.size(), 1, 30000);
        // Before emission: the ETRecord's delegate_map.
        checkIdentifierModel(doc.snapshot());

        // After emission: the emitter's map, and the instruction details.
        QSignalSpy emitted(&doc, &Document::emitFinished);
        QSignalSpy failed(&doc, &Document::emitFailed);
        doc.emitProgram({});
        QTRY_COMPARE_WITH_TIMEOUT(emitted.size() + failed.size(), 1, 60000);
        QVERIFY2(failed.isEmpty(), qPrintable(fixtures::failureText(failed)));
        checkIdentifierModel(doc.snapshot());

        InstructionModel instructions;
        instructions.setMethod(doc.snapshot(), QStringLiteral("forward"));
        int delegateRow = -1;
        for (int r = 0; r < instructions.rowCount(); ++r)
            if (instructions.rowInfo(r).kind == pte::InstructionKind::DelegateCall)
                delegateRow = r;
        QCOMPARE(delegateRow, 1);
        QCOMPARE(instructions.delegateIdDetails(delegateRow),
            QStringList({ QStringLiteral(
                              "0 → handles [2] → executorch_call_delegate, lowered_module_0/aten_mul_tensor"),
                QStringLiteral("1 → handles [3] → executorch_call_delegate, lowered_module_0/aten_relu_default") }));
        QCOMPARE(cell(instructions, delegateRow, InstructionModel::DelegateIdsColumn, Qt::ToolTipRole),
            instructions.delegateIdDetails(delegateRow).join(QLatin1Char('\n')));
        QVERIFY(instructions.delegateIdDetails(0).isEmpty());
    }
};

QTEST_MAIN(TestDelegateNodes)
#include "tst_delegatenodes.moc"
