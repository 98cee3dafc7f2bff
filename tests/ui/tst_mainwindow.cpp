// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "../core/dumptestutils.h"
#include "mainwindow.h"
#include "modalanswers.h"
#include "models/delegatemodel.h"
#include "models/diagnosticmodel.h"
#include "models/instructionmodel.h"
#include "pte/dumpreader.h"
#include "pte/emittedoutput.h"
#include "pte/emitter.h"
#include "pte/ptewriter.h"
#include "pte/syntheticprogram.h"
#include "testutils.h"
#include "uifixtures.h"
#include "views/graphpanel.h"
#include "widgets/emitdialog.h"
#include "widgets/graphview.h"
#include "widgets/savepath.h"
#include "widgets/tableview.h"

#include <QAbstractProxyModel>
#include <QApplication>
#include <QClipboard>
#include <QComboBox>
#include <QDir>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QSplitter>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTableView>
#include <QTest>
#include <QToolButton>

#include <cmath>

using namespace pte::ui;

namespace {
// Every Qt warning (or worse) of a test fails it in cleanup(); the previous handler (QtTest's) still logs it.
QStringList g_warnings;
QtMessageHandler g_previousHandler = nullptr;
void recordWarnings(QtMsgType type, const QMessageLogContext& context, const QString& message)
{
    // The offscreen platform plugin says it cannot propagate size hints whenever a window is shown.
    if ((type == QtWarningMsg || type == QtCriticalMsg || type == QtFatalMsg)
        && message != QLatin1String("This plugin does not support propagateSizeHints()"))
        g_warnings << message;
    if (g_previousHandler)
        g_previousHandler(type, context, message);
}

QString examplePath()
{
    return qEnvironmentVariable("PTELENS_BUILD_DIR") + QStringLiteral("/examples/example.etrecord");
}

using fixtures::chooseFile;
using fixtures::ModalAnswers;
using fixtures::waitEither;
QString ptePath(const char* name) { return pte::test::corpusPath(QStringLiteral("pte/") + QLatin1String(name)); }

/** The program emitted from tests/data/<relative> and saved (the project's emitter and writer); empty on failure. */
QString emittedPte(const QString& relative)
{
    auto set = pte::readDump(QString(pte::test::testDataDir() + QLatin1Char('/') + relative).toStdString());
    if (!set)
        return {};
    auto out = pte::emitProgram((*set)->methods);
    if (!out)
        return {};
    auto laid = pte::layoutEmitted(std::move(out->program), *out);
    const QString path =
        pte::test::tempDir() + QLatin1Char('/') + QFileInfo(relative).completeBaseName() + QStringLiteral(".pte");
    return laid && pte::writePte(*laid, path.toStdString()) ? path : QString();
}

} // namespace

class TestMainWindow : public QObject
{
    Q_OBJECT
private:
    /** Opens files and waits for the document and the graph; false (with a skip reason) when the reader is a stub. */
    bool open(MainWindow& w, const QStringList& files, QString* skip)
    {
        if (!w.isVisible()) {
            w.resize(1400, 900);
            w.show();
            if (!QTest::qWaitForWindowExposed(&w)) {
                *skip = QStringLiteral("the window was not exposed");
                return false;
            }
        }
        QSignalSpy finished(w.document(), &Document::loadFinished);
        QSignalSpy failed(w.document(), &Document::loadFailed);
        w.openFiles(files);
        if (!waitEither(finished, failed))
            return false;
        if (!failed.isEmpty()) {
            *skip = fixtures::failureText(failed);
            return false;
        }
        auto* graph = w.findChild<GraphPanel*>(QStringLiteral("graphPanel"));
        if (!QTest::qWaitFor([graph] { return !graph->isBusy(); }, 60000)) {
            *skip = QStringLiteral("the graph layout did not finish");
            return false;
        }
        return true;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        g_previousHandler = qInstallMessageHandler(recordWarnings);
    }
    void cleanupTestCase() { qInstallMessageHandler(g_previousHandler); }
    void init()
    {
        g_warnings.clear();
        fixtures::failOnQtWarnings();
    }
    void cleanup() { QVERIFY2(g_warnings.isEmpty(), qPrintable(g_warnings.join(QLatin1Char('\n')))); }

    /** The main scenario on the bundled example: shown, emitted, driven by the keyboard. */
    void showsWindowAndNavigatesByKeyboard()
    {
        QVERIFY2(QFileInfo::exists(examplePath()), qPrintable(examplePath()));
        MainWindow w;
        QString error;
        QVERIFY2(open(w, { examplePath() }, &error), qPrintable(error));
        QVERIFY(w.isVisible());
        const QString emitted =
            fixtures::finishes(*w.document(), &Document::emitFinished, &Document::emitFailed, [&] { w.emitWith({}); });
        QVERIFY2(emitted.isEmpty(), qPrintable(emitted));
        auto* graph = w.findChild<GraphPanel*>(QStringLiteral("graphPanel"));
        QTRY_VERIFY(!graph->isBusy());
        w.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&w));

        auto* instructions = w.findChild<QTableView*>(QStringLiteral("instructionsView"));
        auto* filter = w.findChild<QLineEdit*>(QStringLiteral("instructionFilter"));
        auto* find = w.findChild<QLineEdit*>(QStringLiteral("graphFind"));
        auto* graphView = graph->view();
        QCOMPARE(w.currentMethod(), QStringLiteral("forward"));
        QCOMPARE(instructions->model()->rowCount(), 4);

        // Ctrl+F: find in the graph; Ctrl+L: the instruction filter.
        instructions->setFocus();
        QTest::keyClick(&w, Qt::Key_F, Qt::ControlModifier);
        QTRY_COMPARE(QApplication::focusWidget(), find);
        QTest::keyClick(&w, Qt::Key_L, Qt::ControlModifier);
        QTRY_COMPARE(QApplication::focusWidget(), filter);

        // Tab moves from view to view (the tables do not keep Tab for themselves).
        auto* methods = w.findChild<QTableView*>(QStringLiteral("methodsView"));
        methods->setFocus();
        QTRY_COMPARE(QApplication::focusWidget(), methods);
        QSet<QWidget*> reached;
        for (int i = 0; i < 60 && !(reached.contains(instructions) && reached.contains(graphView)); ++i) {
            QTest::keyClick(QApplication::focusWidget(), Qt::Key_Tab);
            reached.insert(QApplication::focusWidget());
        }
        QVERIFY(reached.contains(instructions));
        QVERIFY(reached.contains(graphView));
        QVERIFY(reached.contains(w.findChild<QTableView*>(QStringLiteral("outputsView"))));
        // Docks behind another tab are skipped.
        QVERIFY(!reached.contains(w.findChild<QTableView*>(QStringLiteral("valuesView"))));
        QVERIFY(!reached.contains(w.findChild<QTableView*>(QStringLiteral("diagnosticsView"))));

        // Enter on an instruction row: its graph node is selected and the graph gets the focus.
        instructions->setFocus();
        QTest::keyClick(instructions, Qt::Key_Home, Qt::ControlModifier);
        QTest::keyClick(instructions, Qt::Key_Down);
        QTest::keyClick(instructions, Qt::Key_Down);
        QCOMPARE(instructions->currentIndex().row(), 2);
        QCOMPARE(instructions->currentIndex().siblingAtColumn(InstructionModel::OperatorColumn).data().toString(),
            QStringLiteral("aten::mul.out"));
        graphView->selectNodes({});
        QTest::keyClick(instructions, Qt::Key_Return);
        QTRY_COMPARE(QApplication::focusWidget(), graphView);
        auto nodes = graph->selectedNodes();
        QCOMPARE(nodes.size(), std::size_t(1));
        QCOMPARE(graph->graph().nodes[std::size_t(nodes.front())].members,
            QStringList { QStringLiteral("aten_mul_tensor_1") });

        // Selecting a delegate debug identifier selects the graph nodes carrying its handles.
        auto* ids = w.findChild<QTableView*>(QStringLiteral("delegateIdsView"));
        QCOMPARE(ids->model()->rowCount(), 2);
        ids->selectRow(1);
        nodes = graph->selectedNodes();
        QCOMPARE(nodes.size(), std::size_t(1));
        QCOMPARE(graph->graph().nodes[std::size_t(nodes.front())].members,
            QStringList { QStringLiteral("executorch_call_delegate") });
        QCOMPARE(ids->model()->index(1, DelegateDebugIdModel::NodesColumn).data().toString(),
            QStringLiteral("executorch_call_delegate, lowered_module_0/aten_relu_default"));

        // Enter on the emitter's warning about the mutable buffer selects the buffer's placeholder in the graph.
        auto* diagnostics = w.findChild<QTableView*>(QStringLiteral("diagnosticsView"));
        int warning = -1;
        for (int r = 0; r < diagnostics->model()->rowCount(); ++r)
            if (diagnostics->model()
                    ->index(r, DiagnosticModel::MessageColumn)
                    .data()
                    .toString()
                    .contains(QStringLiteral("mutable buffer 'num_calls'")))
                warning = r;
        QVERIFY(warning >= 0);
        w.findChild<QDockWidget*>(QStringLiteral("diagnosticsDock"))->raise();
        diagnostics->setFocus();
        diagnostics->setCurrentIndex(diagnostics->model()->index(warning, 0));
        QTest::keyClick(diagnostics, Qt::Key_Return);
        nodes = graph->selectedNodes();
        QCOMPARE(nodes.size(), std::size_t(1));
        QCOMPARE(
            graph->graph().nodes[std::size_t(nodes.front())].members, QStringList { QStringLiteral("b_num_calls") });
    }

    /** An emitted, unsaved program is not thrown away without asking (issue #16): Save / Discard / Cancel. */
    void asksBeforeDiscardingEmittedProgram()
    {
        MainWindow w;
        QString error;
        QVERIFY2(open(w, { examplePath() }, &error), qPrintable(error));
        QVERIFY(!w.hasUnsavedProgram());
        QSignalSpy emitted(w.document(), &Document::emitFinished);
        w.emitWith({});
        QTRY_COMPARE_WITH_TIMEOUT(emitted.size(), 1, 60000);
        QVERIFY(w.hasUnsavedProgram());

        // Cancel: opening another file does nothing.
        QSignalSpy loaded(w.document(), &Document::loadFinished);
        QString prompt;
        {
            ModalAnswers answers;
            answers.then<QMessageBox>([&](QMessageBox* box) {
                prompt = box->text();
                box->button(QMessageBox::Cancel)->click();
            });
            w.openFiles({ examplePath() });
            QCOMPARE(answers.problems(), QString());
        }
        QCOMPARE(prompt, QStringLiteral("The emitted program has not been saved."));
        QVERIFY(!w.document()->isBusy());
        QVERIFY(loaded.isEmpty());
        QVERIFY(w.hasUnsavedProgram());
        // Cancel: the window stays open.
        {
            ModalAnswers answers;
            answers.then<QMessageBox>([](QMessageBox* box) { box->button(QMessageBox::Cancel)->click(); });
            QVERIFY(!w.close());
            QCOMPARE(answers.problems(), QString());
        }
        QVERIFY(w.isVisible());

        // Save: the file dialog proposes <input>.pte beside the input, refuses the input itself before asking
        // anything else, then saves; the window closes once the program is on disk.
        const QString out = pte::test::tempDir() + QStringLiteral("/unsaved-example.pte");
        QFile::remove(out);
        QString proposed;
        QString refusal;
        bool askedToReplace = false;
        {
            ModalAnswers answers;
            answers.then<QMessageBox>([](QMessageBox* box) { box->button(QMessageBox::Save)->click(); })
                .then<QFileDialog>([&](QFileDialog* dialog) {
                    proposed = dialog->selectedFiles().value(0);
                    chooseFile(dialog, examplePath());
                })
                .then<QMessageBox>([&](QMessageBox* warning) {
                    refusal = warning->text();
                    askedToReplace = warning->standardButtons().testFlag(QMessageBox::Yes);
                    warning->accept();
                })
                // The same dialog again, the input still selected in its list (see chooseFile).
                .then<QFileDialog>([&](QFileDialog* again) { chooseFile(again, out); });
            QVERIFY(w.close());
            QCOMPARE(answers.problems(), QString());
        }
        QCOMPARE(proposed, QFileInfo(examplePath()).absolutePath() + QStringLiteral("/example.pte"));
        QVERIFY2(refusal.contains(QStringLiteral("never overwrites its inputs")), qPrintable(refusal));
        QVERIFY(!askedToReplace);
        QVERIFY2(QFileInfo::exists(out), qPrintable(w.statusBar()->currentMessage()));
        QVERIFY(!w.hasUnsavedProgram());
        QByteArray stdOut, stdErr;
        QCOMPARE(pte::test::runCli({ QStringLiteral("verify"), out }, &stdOut, &stdErr), 0);

        // Discard: the next file opens.
        w.show();
        w.emitWith({});
        QTRY_COMPARE_WITH_TIMEOUT(emitted.size(), 2, 60000);
        {
            ModalAnswers answers;
            answers.then<QMessageBox>([](QMessageBox* box) { box->button(QMessageBox::Discard)->click(); });
            w.openFiles({ examplePath() });
            QCOMPARE(answers.problems(), QString());
        }
        QTRY_COMPARE_WITH_TIMEOUT(loaded.size(), 1, 60000);
        QVERIFY(!w.hasUnsavedProgram());
    }

    /**
     * The save dialog shown again after refusing an input saves the name then typed, wherever the focus is. With
     * the name box unfocused, QFileDialog answers the file still selected in its list (the refused input), and a
     * test typing the name without clearing that selection saw the refusal a second time, which nothing answered:
     * the hang of asksBeforeDiscardingEmittedProgram under load, where the dialog's window was not yet active
     * (so its name box had no focus) when the answer ran. Here the focus is taken from the name box on purpose.
     */
    void saveDialogTakesTheTypedNameWhateverHasTheFocus_data()
    {
        QTest::addColumn<bool>("nameBoxFocused");
        QTest::newRow("name box focused") << true;
        QTest::newRow("name box not focused") << false;
    }
    void saveDialogTakesTheTypedNameWhateverHasTheFocus()
    {
        QFETCH(bool, nameBoxFocused);
        const QString dir = pte::test::tempDir() + QStringLiteral("/savedialog");
        QVERIFY(QDir().mkpath(dir));
        const QString input = dir + QStringLiteral("/input.pte");
        QFile in(input);
        QVERIFY(in.open(QIODevice::WriteOnly));
        in.close();
        const QString chosen = dir + QStringLiteral("/chosen.pte");
        bool focusedAsAsked = false;
        ModalAnswers answers;
        answers.then<QFileDialog>([&](QFileDialog* dialog) { chooseFile(dialog, input); })
            .then<QMessageBox>([](QMessageBox* warning) { warning->accept(); })
            .then<QFileDialog>([&](QFileDialog* again) {
                auto* nameBox = again->findChild<QLineEdit*>(QStringLiteral("fileNameEdit"));
                if (nameBoxFocused) {
                    again->activateWindow();
                    focusedAsAsked = QTest::qWaitForWindowActive(again, 60000);
                    nameBox->setFocus();
                    focusedAsAsked = focusedAsAsked && nameBox->hasFocus();
                } else {
                    again->findChild<QWidget*>(QStringLiteral("listView"))->setFocus();
                    focusedAsAsked = !nameBox->hasFocus();
                }
                chooseFile(again, chosen);
            });
        const QString path = askSavePath(nullptr, QStringLiteral("Save"), QStringLiteral("ExecuTorch programs (*.pte)"),
            QStringLiteral("pte"), input, [&](const QString& p) { return QFileInfo(p) == QFileInfo(input); });
        QCOMPARE(answers.problems(), QString());
        QVERIFY(focusedAsAsked);
        QCOMPARE(path, chosen);
    }

    /** The window's shortcuts work while a text box has the focus, and Copy copies what has the focus. */
    void shortcutsAndCopyFollowFocus()
    {
        MainWindow w;
        QString error;
        QVERIFY2(open(w, { examplePath() }, &error), qPrintable(error));
        w.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&w));
        auto* graph = w.findChild<GraphPanel*>(QStringLiteral("graphPanel"));
        auto* find = w.findChild<QLineEdit*>(QStringLiteral("graphFind"));
        auto* filter = w.findChild<QLineEdit*>(QStringLiteral("instructionFilter"));
        auto* methods = w.findChild<QTableView*>(QStringLiteral("methodsView"));

        // Ctrl+E (which a line edit takes for "end of line" on X11) opens the Emit dialog from the Find box.
        find->setFocus();
        QTRY_COMPARE(QApplication::focusWidget(), find);
        bool emitDialogShown = false;
        {
            ModalAnswers answers;
            answers.then<EmitDialog>([&](EmitDialog* dialog) {
                emitDialogShown = true;
                dialog->reject();
            });
            QTest::keyClick(find, Qt::Key_E, Qt::ControlModifier);
            QCOMPARE(answers.problems(), QString());
        }
        QVERIFY(emitDialogShown);
        // A shortcut override sent to a focused line edit is left to the window's action.
        QKeyEvent override(QEvent::ShortcutOverride, Qt::Key_E, Qt::ControlModifier);
        QApplication::sendEvent(find, &override);
        QVERIFY(!override.isAccepted());
        // Ctrl+1 from the instruction filter goes to the Methods view.
        w.activateWindow(); // the closed dialog took the activation with it
        QVERIFY(QTest::qWaitForWindowActive(&w));
        filter->setFocus();
        QTRY_COMPARE(QApplication::focusWidget(), filter);
        QTest::keyClick(filter, Qt::Key_1, Qt::ControlModifier);
        QTRY_COMPARE(QApplication::focusWidget(), methods);

        // Emit, select an instruction: its node's details fill the details pane.
        QSignalSpy emitted(w.document(), &Document::emitFinished);
        w.emitWith({});
        QTRY_COMPARE_WITH_TIMEOUT(emitted.size(), 1, 60000);
        QTRY_VERIFY(!graph->isBusy());
        auto* instructions = w.findChild<QTableView*>(QStringLiteral("instructionsView"));
        w.selectInstruction(2);
        auto* details = w.findChild<QPlainTextEdit*>(QStringLiteral("nodeDetails"));
        QTRY_VERIFY(!details->toPlainText().isEmpty());
        // Text selected in the details: Ctrl+C copies that text, not the instruction rows.
        details->setFocus();
        QTRY_COMPARE(QApplication::focusWidget(), details);
        details->selectAll();
        QApplication::clipboard()->clear();
        QTest::keyClick(details, Qt::Key_C, Qt::ControlModifier);
        QCOMPARE(QApplication::clipboard()->text(), details->toPlainText());
        // The instruction table: its selected rows.
        instructions->setFocus();
        QTRY_COMPARE(QApplication::focusWidget(), instructions);
        QTest::keyClick(instructions, Qt::Key_C, Qt::ControlModifier);
        QVERIFY(QApplication::clipboard()->text().startsWith(QStringLiteral("Id\tKind\tOperator")));
        // The graph: the selected nodes' details. The focused canvas and details show a frame in the highlight
        // colour (Tab reaches them; the canvas has no cursor to show the focus otherwise).
        graph->view()->setFocus();
        QTRY_COMPARE(QApplication::focusWidget(), graph->view());
        const QColor highlight = graph->view()->palette().color(QPalette::Highlight);
        const QImage canvas = graph->view()->viewport()->grab().toImage();
        QCOMPARE(canvas.pixelColor(1, canvas.height() / 2), highlight);
        QCOMPARE(canvas.pixelColor(canvas.width() - 2, canvas.height() / 2), highlight);
        QTest::keyClick(graph->view(), Qt::Key_C, Qt::ControlModifier);
        QCOMPARE(QApplication::clipboard()->text(), details->toPlainText());
    }

    /**
     * Nodes a delegate absorbed are found at the delegate call, and Enter on the call opens the lowered module's
     * original program, whose nodes Find then finds (issue #16).
     */
    void reachesAbsorbedDelegateNodes()
    {
        MainWindow w;
        QString error;
        QVERIFY2(open(w, { examplePath() }, &error), qPrintable(error));
        auto* graph = w.findChild<GraphPanel*>(QStringLiteral("graphPanel"));
        auto* find = w.findChild<QLineEdit*>(QStringLiteral("graphFind"));
        find->setText(QStringLiteral("aten_relu_default"));
        QVERIFY(graph->findNext());
        auto nodes = graph->selectedNodes();
        QCOMPARE(nodes.size(), std::size_t(1));
        const GraphNode& call = graph->graph().nodes[std::size_t(nodes.front())];
        QCOMPARE(call.members, QStringList { QStringLiteral("executorch_call_delegate") });
        QCOMPARE(call.loweredModule, QStringLiteral("lowered_module_0"));
        QVERIFY(
            w.findChild<QLabel*>(QStringLiteral("graphStatus"))->text().contains(QStringLiteral("lowered_module_0")));

        QSignalSpy laidOut(graph, &GraphPanel::layoutFinished);
        graph->view()->setFocus();
        QTest::keyClick(graph->view(), Qt::Key_Return);
        QTRY_COMPARE(laidOut.size(), 1);
        QCOMPARE(graph->loweredModule(), QStringLiteral("lowered_module_0"));
        QCOMPARE(graph->graph().loweredModule, QStringLiteral("lowered_module_0"));
        QVERIFY(graph->findNext()); // the same Find text, now a node of this program
        nodes = graph->selectedNodes();
        QCOMPARE(nodes.size(), std::size_t(1));
        QCOMPARE(graph->graph().nodes[std::size_t(nodes.front())].members,
            QStringList { QStringLiteral("aten_relu_default") });
        auto* back = w.findChild<QToolButton*>(QStringLiteral("graphBack"));
        QVERIFY(back->isVisibleTo(&w));
        back->click();
        QTRY_COMPARE(laidOut.size(), 2);
        QVERIFY(graph->loweredModule().isEmpty());
        QVERIFY(!back->isVisibleTo(&w));
    }

    /** "Compare with" shows a second method's signature beside the current one's (issue #16). */
    void comparesTwoSignatures()
    {
        MainWindow w;
        QString error;
        QVERIFY2(open(w, { examplePath() }, &error), qPrintable(error));
        QCOMPARE(w.currentMethod(), QStringLiteral("forward"));
        auto* compare = w.findChild<QComboBox*>(QStringLiteral("signatureCompare"));
        auto* other = w.findChild<QTableView*>(QStringLiteral("comparedInputsView"));
        QVERIFY(compare && other);
        QVERIFY(!other->isVisibleTo(&w));
        compare->setCurrentIndex(compare->findText(QStringLiteral("scale")));
        QVERIFY(other->isVisibleTo(&w));
        const auto* snap = w.document()->snapshot().get();
        const auto* scale = snap->method("scale");
        QVERIFY(scale && scale->exported);
        QCOMPARE(other->model()->rowCount(), int(scale->exported->signature.inputSpecs.size()));
        QCOMPARE(w.findChild<QTableView*>(QStringLiteral("inputsView"))->model()->rowCount(),
            int(snap->method("forward")->exported->signature.inputSpecs.size()));
        // Another method in the Methods view keeps the comparison; "(none)" ends it.
        w.setCurrentMethod(QStringLiteral("scale"));
        QCOMPARE(compare->currentText(), QStringLiteral("scale"));
        compare->setCurrentIndex(0);
        QVERIFY(!other->isVisibleTo(&w));
    }

    /** Save proposals: the input's name beside it, never the input itself. */
    void proposesSaveNames_data()
    {
        QTest::addColumn<QStringList>("inputs");
        QTest::addColumn<QString>("suffix");
        QTest::addColumn<QString>("proposal");
        QTest::newRow("dump") << QStringList { QStringLiteral("/m/hades.pt2") } << QStringLiteral(".pte")
                              << QStringLiteral("/m/hades.pte");
        QTest::newRow("maps") << QStringList { QStringLiteral("/m/example.etrecord") }
                              << QStringLiteral(".debug_maps.json") << QStringLiteral("/m/example.debug_maps.json");
        QTest::newRow("a .pte saved again") << QStringList { QStringLiteral("/m/model.pte") } << QStringLiteral(".pte")
                                            << QStringLiteral("/m/model.rewritten.pte");
        QTest::newRow("first of several") << QStringList { QStringLiteral("/a/x.pt2"), QStringLiteral("/b/y.pt2") }
                                          << QStringLiteral(".pte") << QStringLiteral("/a/x.pte");
        QTest::newRow("nothing open") << QStringList {} << QStringLiteral(".pte") << QString();
    }
    void proposesSaveNames()
    {
        QFETCH(QStringList, inputs);
        QFETCH(QString, suffix);
        QFETCH(QString, proposal);
        QCOMPARE(proposedSavePath(inputs, suffix), proposal);
    }

    /** A splitter the user dragged keeps its sizes when the method changes or the program is emitted again. */
    void keepsSignatureSizesTheUserSet()
    {
        QSettings().remove(QStringLiteral("views/signatureSplit"));
        MainWindow w;
        QString error;
        QVERIFY2(open(w, { examplePath() }, &error), qPrintable(error));
        auto* split = w.findChild<QSplitter*>(QStringLiteral("signatureSplit"));
        QVERIFY(split);
        fixtures::runQueuedEvents(); // the fit after the first layout (queued by the view)
        const QList<int> fitted = split->sizes();
        QList<int> mine = fitted;
        mine[0] = fitted[0] + fitted[1] - 40; // a tall Inputs pane, a short Outputs pane
        mine[1] = 40;
        split->setSizes(mine);
        mine = split->sizes();
        Q_EMIT split->splitterMoved(mine[0], 1); // as a drag does
        w.setCurrentMethod(QStringLiteral("scale"));
        QSignalSpy emitted(w.document(), &Document::emitFinished);
        w.emitWith({});
        QTRY_COMPARE_WITH_TIMEOUT(emitted.size(), 1, 60000);
        fixtures::runQueuedEvents(); // the view's second fit, queued when the emitted program arrived
        // The same split (the emission's message bar takes some height: QSplitter scales the panes alike), not the
        // one fitted to the rows.
        const QList<int> now = split->sizes();
        auto share = [](const QList<int>& sizes) { return double(sizes[0]) / double(sizes[0] + sizes[1]); };
        QVERIFY2(std::abs(share(now) - share(mine)) < 0.02,
            qPrintable(QStringLiteral("%1 %2 -> %3 %4").arg(mine[0]).arg(mine[1]).arg(now[0]).arg(now[1])));
        QVERIFY(std::abs(share(now) - share(fitted)) > 0.05);
        QVERIFY(!QSettings().value(QStringLiteral("views/signatureSplit")).toByteArray().isEmpty());
        QSettings().remove(QStringLiteral("views/signatureSplit"));
    }

    /** The previous file's Find and filter texts do not stay when another file opens. */
    void newFileClearsFindAndFilters()
    {
        MainWindow w;
        QString error;
        QVERIFY2(open(w, { examplePath() }, &error), qPrintable(error));
        auto* find = w.findChild<QLineEdit*>(QStringLiteral("graphFind"));
        auto* filter = w.findChild<QLineEdit*>(QStringLiteral("instructionFilter"));
        find->setText(QStringLiteral("relu"));
        filter->setText(QStringLiteral("mul"));
        QVERIFY2(open(w, { examplePath() }, &error), qPrintable(error));
        QCOMPARE(find->text(), QString());
        QCOMPARE(filter->text(), QString());
    }

    /** Enter on a diagnostic goes to the instruction or value its field path names. */
    void activatesDiagnostics()
    {
        pte::SyntheticOptions options;
        options.instructions = 20;
        auto program = pte::makeSyntheticProgram(options);
        QVERIFY(program.has_value());
        auto& plan = program->executionPlan.front();
        std::get<pte::KernelCall>(plan.chains.front().instructions[12].args).args[0] = 99999;
        int tensorValue = -1;
        for (std::size_t i = 0; i < plan.values.size() && tensorValue < 0; ++i)
            if (auto* t = std::get_if<pte::Tensor>(&plan.values[i].val); t && !t->sizes.empty() && i > 2) {
                t->dimOrder.clear();
                tensorValue = int(i);
            }
        QVERIFY(tensorValue > 0);
        const QString path = pte::test::tempDir() + QStringLiteral("/bad-instruction.pte");
        QVERIFY(pte::writePte(*program, path.toStdString()).has_value());

        MainWindow w;
        QString error;
        QVERIFY2(open(w, { path }, &error), qPrintable(error));
        auto* diagnostics = w.findChild<QTableView*>(QStringLiteral("diagnosticsView"));
        auto* model = diagnostics->model();
        const QString instrPath = QStringLiteral("execution_plan[0].chains[0].instructions[12]");
        const QString valuePath = QStringLiteral("execution_plan[0].values[%1]").arg(tensorValue);
        int instrRow = -1, valueRow = -1;
        for (int r = 0; r < model->rowCount(); ++r) {
            const QString p = model->index(r, DiagnosticModel::FieldPathColumn).data().toString();
            if (instrRow < 0 && p.startsWith(instrPath))
                instrRow = r;
            if (valueRow < 0 && p.startsWith(valuePath))
                valueRow = r;
        }
        QVERIFY2(instrRow >= 0, "no diagnostic names instruction 12");
        QVERIFY2(valueRow >= 0, "no diagnostic names the broken value");

        w.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&w));
        auto* instructions = w.findChild<QTableView*>(QStringLiteral("instructionsView"));
        // A filter that hides instruction 12 is cleared on the way.
        w.findChild<QLineEdit*>(QStringLiteral("instructionFilter"))->setText(QStringLiteral("no such op"));
        QTRY_COMPARE(instructions->model()->rowCount(), 0);
        w.findChild<QDockWidget*>(QStringLiteral("diagnosticsDock"))->raise();
        diagnostics->setFocus();
        diagnostics->setCurrentIndex(model->index(instrRow, 0));
        QTest::keyClick(diagnostics, Qt::Key_Return);
        QCOMPARE(instructions->currentIndex().siblingAtColumn(InstructionModel::IdColumn).data().toString(),
            QStringLiteral("12"));
        QCOMPARE(QApplication::focusWidget(), instructions);
        QCOMPARE(instructions->model()->rowCount(), 20);

        auto* values = w.findChild<QTableView*>(QStringLiteral("valuesView"));
        w.findChild<QDockWidget*>(QStringLiteral("diagnosticsDock"))->raise();
        diagnostics->setFocus();
        diagnostics->setCurrentIndex(model->index(valueRow, 0));
        QTest::keyClick(diagnostics, Qt::Key_Return);
        const auto* proxy = qobject_cast<const QAbstractProxyModel*>(values->model());
        QVERIFY(proxy);
        QCOMPARE(proxy->mapToSource(values->currentIndex()).row(), tensorValue);
        QCOMPARE(QApplication::focusWidget(), values);
    }

    void hasEveryDock()
    {
        MainWindow w;
        for (const char* name : { "methodsDock", "signatureDock", "instructionsDock", "valuesDock", "delegatesDock",
                 "sizesDock", "operatorsDock", "diagnosticsDock" })
            QVERIFY2(w.findChild<QDockWidget*>(QLatin1String(name)), name);
        QCOMPARE(w.centralWidget(), w.findChild<GraphPanel*>(QStringLiteral("graphPanel"))); // the graph is central
        const QByteArray state = w.saveState(MainWindow::kLayoutVersion);
        QVERIFY(!state.isEmpty());
        QVERIFY(w.restoreLayout(state));
        QVERIFY(!w.windowIcon().isNull());
    }

    void showsSampleInputs()
    {
        PTE_REQUIRE_CORPUS();
        MainWindow w;
        QString error;
        QVERIFY2(open(w, { pte::test::corpusPath(QStringLiteral("dumps/et_pt2_archive_linear.pt2")) }, &error),
            qPrintable(error));
        auto* samples = w.findChild<QTableView*>(QStringLiteral("sampleInputsView"));
        QVERIFY(samples);
        QCOMPARE(samples->model()->rowCount(), 1);
        QCOMPARE(samples->model()->index(0, 1).data().toString(), QStringLiteral("args[0]"));
        QCOMPARE(samples->model()->index(0, 5).data().toString(), QStringLiteral("0.2309668, 0.6930773, -0.26686057"));
        auto* note = w.findChild<QLabel*>(QStringLiteral("sampleInputsNote"));
        QCOMPARE(note->text(),
            QStringLiteral("Sample inputs from et_pt2_archive_linear.pt2:linear_3/data/sample_inputs/model.pt"));
        QVERIFY(samples->isVisibleTo(&w));
    }

    // The behaviours of the corpus functions above, on committed inputs (the corpus adds rows where it is set).

    /** Filter, cross-select, find, copy, and the delegate and operator views, on a program with delegate and
     *  kernel calls: one emitted from tests/data and saved by the project, and the corpus' stress_mlp.pte. */
    void opensProgramAndCrossSelects_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addColumn<int>("instructionCount");
        QTest::addColumn<int>("delegateCalls"); // rows the filter "xnnpack" keeps
        QTest::addColumn<int>("select"); // an instruction to select
        QTest::addColumn<QString>("find"); // a node to find, run by a kernel
        QTest::addColumn<QString>("foundOperator");
        QTest::addColumn<int>("operators");
        QTest::addColumn<int>("delegates");
        QTest::addRow("emitted delegate_edge")
            << emittedPte(QStringLiteral("dumps/delegate_edge.json")) << 2 << 1 << 1 << "mul"
            << "aten::mul.out" << 1 << 1;
        if (pte::test::corpusRowsAvailable())
            QTest::addRow("corpus stress_mlp")
                << ptePath("corey-cole_djl-executorch-engine__src__test__resources__models__stress__stress_mlp.pte")
                << 14 << 2 << 6 << "clamp"
                << "aten::clamp.out" << 4 << 2;
    }
    void opensProgramAndCrossSelects()
    {
        PTE_REQUIRE_CORPUS_ROW();
        QFETCH(QString, path);
        QFETCH(int, instructionCount);
        QFETCH(int, delegateCalls);
        QFETCH(int, select);
        QFETCH(QString, find);
        QFETCH(QString, foundOperator);
        QFETCH(int, operators);
        QFETCH(int, delegates);
        QVERIFY(!path.isEmpty());
        MainWindow w;
        QString error;
        QVERIFY2(open(w, { path }, &error), qPrintable(error));
        auto* methods = w.findChild<QTableView*>(QStringLiteral("methodsView"));
        auto* instructions = w.findChild<QTableView*>(QStringLiteral("instructionsView"));
        auto* values = w.findChild<QTableView*>(QStringLiteral("valuesView"));
        QCOMPARE(methods->model()->rowCount(), 1);
        QCOMPARE(instructions->model()->rowCount(), instructionCount);
        QCOMPARE(w.currentMethod(), QStringLiteral("forward"));

        // Filter bar.
        auto* filter = w.findChild<QLineEdit*>(QStringLiteral("instructionFilter"));
        filter->setText(QStringLiteral("xnnpack"));
        QTRY_COMPARE(instructions->model()->rowCount(), delegateCalls);
        QCOMPARE(w.findChild<QLabel*>(QStringLiteral("instructionCount"))->text(),
            QStringLiteral("%1 of %2 instructions").arg(delegateCalls).arg(instructionCount));
        filter->clear();
        QTRY_COMPARE(instructions->model()->rowCount(), instructionCount);

        // Instruction -> graph node and values.
        auto* graph = w.findChild<GraphPanel*>(QStringLiteral("graphPanel"));
        QVERIFY(graph->view()->nodeCount() >= instructionCount);
        w.selectInstruction(select);
        const auto nodes = graph->selectedNodes();
        QCOMPARE(nodes.size(), std::size_t(1));
        QCOMPARE(graph->graph().nodes[std::size_t(nodes.front())].instruction, select);
        QVERIFY(!values->selectionModel()->selectedRows().isEmpty());

        // Node -> instruction (through Find, as a user would).
        auto* findEdit = graph->findChild<QLineEdit*>(QStringLiteral("graphFind"));
        findEdit->setText(find);
        QVERIFY(graph->findNext());
        const auto rows = instructions->selectionModel()->selectedRows();
        QCOMPARE(rows.size(), 1);
        QCOMPARE(rows.front().siblingAtColumn(InstructionModel::OperatorColumn).data().toString(), foundOperator);

        // Copy as JSON and as text.
        const auto doc = QJsonDocument::fromJson(w.selectedRowsText(instructions, true).toUtf8());
        QVERIFY(doc.isArray());
        QCOMPARE(doc.array().size(), 1);
        QCOMPARE(doc.array().first().toObject().value(QStringLiteral("Kind")).toString(), QStringLiteral("KernelCall"));
        QVERIFY(w.selectedRowsText(instructions, false).startsWith(QStringLiteral("Id\tKind\tOperator")));

        // Sizes, operators and delegates are filled.
        QCOMPARE(w.findChild<QTableView*>(QStringLiteral("operatorsView"))->model()->rowCount(), operators);
        QCOMPARE(w.findChild<QTableView*>(QStringLiteral("delegatesView"))->model()->rowCount(), delegates);
        QVERIFY(w.findChild<QTableView*>(QStringLiteral("sizesView"))->model()->rowCount() > 1);
    }

    /** Sample inputs of a legacy torch.export zip assembled in the test (an i64 tensor, an int, kwargs), then a
     *  dump with named data and no sample inputs. */
    void showsCommittedSampleInputs()
    {
        using namespace pte::test;
        using namespace pte::test::pk;
        const std::vector<std::int64_t> ids { 11, -4 };
        const std::string pickle = "\x80\x02(" + tensorPickle({ "", "LongStorage", "0", 2, { 2 }, { 1 }, 0, false })
            + "K\x03t}(" + str("flag") + "\x88" + str("name") + str("x") + "u\x86.";
        const QString path = tempDir() + QStringLiteral("/samples.pt2");
        QVERIFY(writeZip(path,
            { { "serialized_exported_program.json", readDumpData("all_alternatives.json") },
                { "serialized_example_inputs.pt",
                    torchSaveZip(pickle, { { "0", QByteArray(reinterpret_cast<const char*>(ids.data()), 16) } }) } }));
        MainWindow w;
        QString error;
        QVERIFY2(open(w, { path }, &error), qPrintable(error));
        auto* samples = w.findChild<QTableView*>(QStringLiteral("sampleInputsView"));
        QVERIFY(samples);
        QVERIFY(samples->model()->rowCount() >= 4);
        QStringList values;
        for (int r = 0; r < samples->model()->rowCount(); ++r)
            values << samples->model()->index(r, 5).data().toString();
        QVERIFY2(values.contains(QStringLiteral("11, -4")), qPrintable(values.join(QLatin1Char('|'))));
        QVERIFY(values.contains(QStringLiteral("True")));
        auto* note = w.findChild<QLabel*>(QStringLiteral("sampleInputsNote"));
        QVERIFY(note->text().startsWith(QStringLiteral("Sample inputs from samples.pt2:serialized_example_inputs.pt")));
        QVERIFY(samples->isVisibleTo(&w));

        // A dump without sample inputs, with named data.
        QVERIFY2(
            open(w, { testDataDir() + QStringLiteral("/dumps/delegate_named_data.json") }, &error), qPrintable(error));
        QCOMPARE(note->text(), QStringLiteral("The dump has no sample inputs."));
        QCOMPARE(samples->model()->rowCount(), 0);
        QVERIFY(!samples->isVisibleTo(&w)); // the note alone says there are none
        QVERIFY(note->isVisibleTo(&w));
        auto* named = w.findChild<QTableView*>(QStringLiteral("namedDataView"));
        QVERIFY(named);
        QCOMPARE(named->model()->rowCount(), 4);
        QStringList keys;
        for (int r = 0; r < 4; ++r)
            keys << named->model()->index(r, 3).data().toString();
        QCOMPARE(keys,
            QStringList({ QStringLiteral("weights_0"), QStringLiteral("fc.bias"), QStringLiteral("fc.weight"),
                QStringLiteral("weights_0_copy") }));
    }

    /** A file that is not a program: one built here ('A_PT' where 'ET12' belongs), and the corpus' corrupt.pte. */
    void corruptProgramShowsMessageBar_data()
    {
        QTest::addColumn<QString>("path");
        const QString built = pte::test::tempDir() + QStringLiteral("/corrupt.pte");
        QTest::addRow("built") << (pte::test::writeFile(built, QByteArray("\x1c\0\0\0A_PT", 8) + QByteArray(64, 'x'))
                ? built
                : QString());
        if (pte::test::corpusRowsAvailable())
            QTest::addRow("corpus") << ptePath(
                "corey-cole_djl-executorch-engine__src__test__resources__models__corrupt.pte");
    }
    void corruptProgramShowsMessageBar()
    {
        PTE_REQUIRE_CORPUS_ROW();
        QFETCH(QString, path);
        QVERIFY(!path.isEmpty());
        MainWindow w;
        QString error;
        QVERIFY(!open(w, { path }, &error));
        QVERIFY2(error.contains(QStringLiteral("corrupt.pte")), qPrintable(error));
        QVERIFY(w.findChild<QWidget*>(QStringLiteral("messageBar"))->isVisibleTo(&w));
        QVERIFY(w.findChild<QLabel*>(QStringLiteral("messageText"))->text().contains(QStringLiteral("corrupt.pte")));
        // A failed open leaves the document as it was (here: nothing open); the bar says why.
        QCOMPARE(w.findChild<QTableView*>(QStringLiteral("diagnosticsView"))->model()->rowCount(), 0);
    }

    /** An ETRecord emitted, mapped back to the graph, saved and verified: one assembled from the committed dumps,
     *  and the corpus' 2023 ETRecord. */
    void emitsAndSavesDump_data()
    {
        using namespace pte::test;
        QTest::addColumn<QString>("path");
        QTest::addColumn<int>("instructionCount"); // -1: some
        const QString built = tempDir() + QStringLiteral("/window.etrecord");
        QTest::addRow("committed add_mul")
            << (writeZip(built,
                    { { "ETRECORD_V0", "" },
                        { "edge_dialect_exported_program/forward", readDumpData("../emit/add_mul.json") },
                        { "debug_handle_map", R"({"forward": {"0": 1, "1": 2}})" } })
                       ? built
                       : QString())
            << 2;
        if (corpusRowsAvailable())
            QTest::addRow("corpus etrecord 2023")
                << corpusPath(QStringLiteral("dumps/et_sample_etrecord_2023.bin")) << -1;
    }
    void emitsAndSavesDump()
    {
        using namespace pte::test;
        PTE_REQUIRE_CORPUS_ROW();
        QFETCH(QString, path);
        QFETCH(int, instructionCount);
        QVERIFY(!path.isEmpty());
        MainWindow w;
        QString error;
        QVERIFY2(open(w, { path }, &error), qPrintable(error));
        auto* graph = w.findChild<GraphPanel*>(QStringLiteral("graphPanel"));
        QVERIFY(graph->view()->nodeCount() > 0);
        QVERIFY(!graph->graph().instructionGraph);
        // Before emission the program views say so rather than showing nothing.
        auto* instructionTable = w.findChild<TableView*>(QStringLiteral("instructionsView"));
        QVERIFY(instructionTable);
        QCOMPARE(instructionTable->model()->rowCount(), 0);
        QVERIFY(instructionTable->emptyText().startsWith(QStringLiteral("Not emitted yet")));
        QVERIFY(w.findChild<TableView*>(QStringLiteral("delegatesView"))
                    ->emptyText()
                    .startsWith(QStringLiteral("Not emitted yet")));
        const QString emitted = fixtures::finishes(
            *w.document(), &Document::emitFinished, &Document::emitFailed, [&] { w.emitWith({}); }, 120000);
        QVERIFY2(emitted.isEmpty(), qPrintable(emitted));
        if (instructionCount >= 0)
            QCOMPARE(instructionTable->model()->rowCount(), instructionCount);
        else
            QVERIFY(instructionTable->model()->rowCount() > 0);
        QCOMPARE(instructionTable->emptyText(), QStringLiteral("No instruction matches the filters"));
        // The emitted instruction maps back to its graph node.
        w.selectInstruction(0);
        QTRY_VERIFY(!graph->isBusy());
        QTRY_VERIFY(!graph->selectedNodes().empty());

        const QString out = tempDir() + QStringLiteral("/window-emitted.pte");
        QFile::remove(out);
        const QString saved =
            fixtures::finishes(*w.document(), &Document::saveFinished, &Document::saveFailed, [&] { w.saveTo(out); });
        QVERIFY2(saved.isEmpty(), qPrintable(saved));
        QByteArray stdOut, stdErr;
        QCOMPARE(runCli({ QStringLiteral("verify"), out }, &stdOut, &stdErr), 0);
    }
};

QTEST_MAIN(TestMainWindow)
#include "tst_mainwindow.moc"
