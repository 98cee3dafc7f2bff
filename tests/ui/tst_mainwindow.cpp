// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "mainwindow.h"
#include "models/instructionmodel.h"
#include "testutils.h"
#include "widgets/graphpanel.h"
#include "widgets/graphview.h"

#include <QDockWidget>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableView>
#include <QTest>

using namespace pte::ui;

namespace {
bool waitEither(QSignalSpy& a, QSignalSpy& b, int timeoutMs = 60000)
{
    QElapsedTimer t;
    t.start();
    while (a.isEmpty() && b.isEmpty() && t.elapsed() < timeoutMs)
        QTest::qWait(20);
    return !a.isEmpty() || !b.isEmpty();
}
QString ptePath(const char* name) { return pte::test::corpusPath(QStringLiteral("pte/") + QLatin1String(name)); }
} // namespace

class TestMainWindow : public QObject
{
    Q_OBJECT
private:
    /** Opens files and waits for the document and the graph; false (with a skip reason) when the reader is a stub. */
    bool open(MainWindow& w, const QStringList& files, QString* skip)
    {
        QSignalSpy finished(w.document(), &Document::loadFinished);
        QSignalSpy failed(w.document(), &Document::loadFailed);
        w.openFiles(files);
        if (!waitEither(finished, failed))
            return false;
        if (!failed.isEmpty()) {
            *skip = failed.first().first().toString();
            return false;
        }
        auto* graph = w.findChild<GraphPanel*>(QStringLiteral("graphPanel"));
        QElapsedTimer t;
        t.start();
        while (graph->isBusy() && t.elapsed() < 60000)
            QTest::qWait(20);
        return true;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QTest::failOnWarning(QRegularExpression(QStringLiteral(".*")));
    }

    void hasEveryDock()
    {
        MainWindow w;
        for (const char* name : { "methodsDock", "signatureDock", "graphDock", "instructionsDock", "valuesDock",
                 "delegatesDock", "sizesDock", "operatorsDock", "diagnosticsDock" })
            QVERIFY2(w.findChild<QDockWidget*>(QLatin1String(name)), name);
        const QByteArray state = w.saveState();
        QVERIFY(!state.isEmpty());
        QVERIFY(w.restoreState(state));
        QVERIFY(!w.windowIcon().isNull());
    }

    void opensPteAndCrossSelects()
    {
        PTE_REQUIRE_CORPUS();
        MainWindow w;
        QString skip;
        if (!open(w,
                { ptePath("corey-cole_djl-executorch-engine__src__test__resources__models__stress__stress_mlp.pte") },
                &skip)) {
            if (skip.contains(QStringLiteral("not implemented")))
                QFAIL("readPteFile failed");
            QFAIL(qPrintable(skip));
        }
        auto* methods = w.findChild<QTableView*>(QStringLiteral("methodsView"));
        auto* instructions = w.findChild<QTableView*>(QStringLiteral("instructionsView"));
        auto* values = w.findChild<QTableView*>(QStringLiteral("valuesView"));
        QCOMPARE(methods->model()->rowCount(), 1);
        QCOMPARE(instructions->model()->rowCount(), 14);
        QCOMPARE(w.currentMethod(), QStringLiteral("forward"));

        // Filter bar.
        auto* filter = w.findChild<QLineEdit*>(QStringLiteral("instructionFilter"));
        filter->setText(QStringLiteral("xnnpack"));
        QTRY_COMPARE(instructions->model()->rowCount(), 2);
        QCOMPARE(
            w.findChild<QLabel*>(QStringLiteral("instructionCount"))->text(), QStringLiteral("2 of 14 instructions"));
        filter->clear();
        QTRY_COMPARE(instructions->model()->rowCount(), 14);

        // Instruction -> graph node and values.
        auto* graph = w.findChild<GraphPanel*>(QStringLiteral("graphPanel"));
        QVERIFY(graph->view()->nodeCount() > 14);
        w.selectInstruction(6);
        const auto nodes = graph->selectedNodes();
        QCOMPARE(nodes.size(), std::size_t(1));
        QCOMPARE(graph->graph().nodes[std::size_t(nodes.front())].instruction, 6);
        QVERIFY(!values->selectionModel()->selectedRows().isEmpty());

        // Node -> instruction (through Find, as a user would).
        auto* find = graph->findChild<QLineEdit*>(QStringLiteral("graphFind"));
        find->setText(QStringLiteral("clamp"));
        QVERIFY(graph->findNext());
        const auto rows = instructions->selectionModel()->selectedRows();
        QCOMPARE(rows.size(), 1);
        QCOMPARE(rows.front().siblingAtColumn(InstructionModel::OperatorColumn).data().toString(),
            QStringLiteral("aten::clamp.out"));

        // Copy as JSON.
        const QString json = w.selectedRowsText(instructions, true);
        const auto doc = QJsonDocument::fromJson(json.toUtf8());
        QVERIFY(doc.isArray());
        QCOMPARE(doc.array().size(), 1);
        QCOMPARE(doc.array().first().toObject().value(QStringLiteral("Kind")).toString(), QStringLiteral("KernelCall"));
        QVERIFY(w.selectedRowsText(instructions, false).startsWith(QStringLiteral("Id\tKind\tOperator")));

        // Sizes and operators are filled.
        QVERIFY(w.findChild<QTableView*>(QStringLiteral("sizesView"))->model()->rowCount() > 3);
        QCOMPARE(w.findChild<QTableView*>(QStringLiteral("operatorsView"))->model()->rowCount(), 4);
        QCOMPARE(w.findChild<QTableView*>(QStringLiteral("delegatesView"))->model()->rowCount(), 2);
    }

    void corruptFileShowsMessageBar()
    {
        PTE_REQUIRE_CORPUS();
        MainWindow w;
        QString error;
        QVERIFY(!open(
            w, { ptePath("corey-cole_djl-executorch-engine__src__test__resources__models__corrupt.pte") }, &error));
        if (error.contains(QStringLiteral("not implemented")))
            QFAIL("readPteFile failed");
        auto* bar = w.findChild<QWidget*>(QStringLiteral("messageBar"));
        QVERIFY(bar->isVisibleTo(&w));
        QVERIFY(w.findChild<QLabel*>(QStringLiteral("messageText"))->text().contains(QStringLiteral("corrupt.pte")));
        QCOMPARE(w.findChild<QTableView*>(QStringLiteral("diagnosticsView"))->model()->rowCount(), 1);
    }

    void emitsAndSavesDump()
    {
        PTE_REQUIRE_CORPUS();
        MainWindow w;
        QString error;
        if (!open(w, { pte::test::corpusPath(QStringLiteral("dumps/et_sample_etrecord_2023.bin")) }, &error)) {
            if (error.contains(QStringLiteral("not implemented")))
                QFAIL("readDump failed");
            QFAIL(qPrintable(error));
        }
        auto* graph = w.findChild<GraphPanel*>(QStringLiteral("graphPanel"));
        QVERIFY(graph->view()->nodeCount() > 0);
        QVERIFY(!graph->graph().instructionGraph);
        QSignalSpy emitted(w.document(), &Document::emitFinished);
        QSignalSpy emitFailed(w.document(), &Document::emitFailed);
        w.emitWith({});
        QVERIFY(waitEither(emitted, emitFailed, 120000));
        if (!emitFailed.isEmpty())
            QFAIL(qPrintable(emitFailed.first().first().toString()));
        auto* instructions = w.findChild<QTableView*>(QStringLiteral("instructionsView"));
        QVERIFY(instructions->model()->rowCount() > 0);
        // The emitted instruction maps back to its graph node.
        w.selectInstruction(0);
        QTRY_VERIFY(!graph->isBusy());
        QTRY_VERIFY(!graph->selectedNodes().empty());

        const QString out = pte::test::tempDir() + QStringLiteral("/window-emitted.pte");
        QSignalSpy saved(w.document(), &Document::saveFinished);
        QSignalSpy saveFailed(w.document(), &Document::saveFailed);
        w.saveTo(out);
        QVERIFY(waitEither(saved, saveFailed));
        QVERIFY2(
            saveFailed.isEmpty(), qPrintable(saveFailed.isEmpty() ? QString() : saveFailed.first().first().toString()));
        QByteArray stdOut, stdErr;
        QCOMPARE(pte::test::runCli({ QStringLiteral("verify"), out }, &stdOut, &stdErr), 0);
    }
};

QTEST_MAIN(TestMainWindow)
#include "tst_mainwindow.moc"
