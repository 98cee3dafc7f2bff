// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// The workbench tells the truth in every state (issue 24): an emitted program stays unsaved (and asks before it goes)
// through everything added to the document, the title says so and names the saved file; the message bar belongs to
// the open document; severities are counted apart; a failed open leaves the document as it was and out of Open
// Recent; an ETDump of another program is said to be one; an ETDump opened first is joined with the program opened
// after it, a second one replaces it; the Diff window closes with the application.
#include "../core/dumptestutils.h"
#include "chaindump.h"
#include "mainwindow.h"
#include "models/diagnosticmodel.h"
#include "models/innernodemodel.h"
#include "models/instructionmodel.h"
#include "models/profilesummarymodel.h"
#include "models/roles.h"
#include "models/signaturemodel.h"
#include "models/text.h"
#include "pte/dumpreader.h"
#include "pte/emittedoutput.h"
#include "pte/emitter.h"
#include "pte/mappedfile.h"
#include "pte/ptereader.h"
#include "pte/ptewriter.h"
#include "pte/syntheticetdump.h"
#include "testutils.h"
#include "uifixtures.h"
#include "views/delegatepayloadview.h"
#include "views/diagnosticsview.h"
#include "views/diffwindow.h"
#include "views/graphpanel.h"
#include "views/instructionsview.h"
#include "views/profileview.h"
#include "widgets/graphview.h"
#include "widgets/tableview.h"

#include <QAbstractButton>
#include <QAction>
#include <QApplication>
#include <QColor>
#include <QComboBox>
#include <QDockWidget>
#include <QFileInfo>
#include <QGraphicsItem>
#include <QHeaderView>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPointer>
#include <QPushButton>
#include <QScrollBar>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTabBar>
#include <QTableView>
#include <QTest>
#include <QTimer>
#include <QWindow>

using namespace pte::ui;

namespace {

QString examplePath()
{
    return qEnvironmentVariable("PTELENS_BUILD_DIR") + QStringLiteral("/examples/example.etrecord");
}
QString tmp(const QString& name) { return pte::test::tempDir() + QLatin1Char('/') + name; }

/** The program emitted from a dump (the project's emitter), or nullptr. */
std::shared_ptr<const pte::Program> emitted(const QString& dumpPath)
{
    auto set = pte::readDump(dumpPath.toStdString());
    if (!set)
        return nullptr;
    auto out = pte::emitProgram((*set)->methods);
    if (!out)
        return nullptr;
    auto laid = pte::layoutEmitted(std::move(out->program), *out);
    return laid ? std::make_shared<const pte::Program>(std::move(*laid)) : nullptr;
}

bool writeProgram(const pte::Program& program, const QString& path)
{
    return bool(pte::writePte(program, path.toStdString()));
}

/** What the runtime would record for `runs` executions of the program's first method, written to `path`. */
bool writeEtdump(const pte::Program& program, const QString& path, std::uint32_t runs = 1)
{
    auto trace = pte::makeSyntheticEtdump(program, pte::SyntheticEtdumpOptions { {}, runs, true, 1000 });
    if (!trace)
        return false;
    auto bytes = pte::serializeEtdump(*trace);
    return bytes && pte::writeFileAtomically(path.toStdString(), *bytes);
}

std::size_t instructionCount(const pte::Program& program)
{
    return program.executionPlan.front().chains.front().instructions.size();
}

/** The timers of onNextModal still waiting (a failed test leaves one): cleanup() stops them. */
QList<QPointer<QTimer>> g_modalTimers;

/** Runs `act` once on the next modal widget of type T (a dialog opened by the code under test). */
template <typename T, typename F> void onNextModal(F act)
{
    auto* timer = new QTimer;
    g_modalTimers << timer;
    timer->setInterval(20);
    QObject::connect(timer, &QTimer::timeout, [timer, act] {
        if (auto* w = qobject_cast<T*>(QApplication::activeModalWidget())) {
            timer->stop();
            timer->deleteLater();
            act(w);
        }
    });
    timer->start();
}

/** Answers the next "not saved" prompt with `button` and records that it was asked. */
void answerPrompt(QMessageBox::StandardButton button, bool* asked)
{
    *asked = false;
    onNextModal<QMessageBox>([button, asked](QMessageBox* box) {
        *asked = box->text() == QStringLiteral("The emitted program has not been saved.");
        box->button(button)->click();
    });
}

/** The title as the window system shows it ("[*]" replaced). */
QString shownTitle(const QWidget& w) { return w.windowHandle() ? w.windowHandle()->title() : w.windowTitle(); }

QStringList recentFiles() { return QSettings().value(QStringLiteral("recentFiles")).toStringList(); }

} // namespace

class TestWorkbenchState : public QObject
{
    Q_OBJECT
private:
    QString m_addMul; ///< tests/data/emit/add_mul.json emitted and saved
    QString m_examplePte; ///< the bundled example emitted and saved
    QString m_exampleEtdump; ///< a run of m_examplePte
    QString m_exampleEtdump2; ///< three runs of m_examplePte
    QString m_corrupt; ///< not a program
    std::size_t m_addMulInstructions = 0;
    std::size_t m_exampleInstructions = 0;

    /** Shows the window (once) and opens files; empty when they loaded, else why not. */
    static QString open(MainWindow& w, const QStringList& files, bool append = false)
    {
        if (!w.isVisible()) {
            if (!w.testAttribute(Qt::WA_Resized))
                w.resize(1400, 900);
            w.show();
            if (!QTest::qWaitForWindowExposed(&w))
                return QStringLiteral("the window was not exposed");
        }
        QString why = fixtures::finishes(*w.document(), &Document::loadFinished, &Document::loadFailed,
            [&] { append ? w.addFiles(files) : w.openFiles(files); });
        auto* graph = w.findChild<GraphPanel*>(QStringLiteral("graphPanel"));
        fixtures::waitFor([graph] { return !graph->isBusy(); });
        return why;
    }
    static QString emitIn(MainWindow& w, const EmitSettings& settings = {})
    {
        return fixtures::finishes(
            *w.document(), &Document::emitFinished, &Document::emitFailed, [&] { w.emitWith(settings); });
    }

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("ptelens-tests"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_workbenchstate"));
        QSettings().clear();
        QVERIFY2(QFileInfo::exists(examplePath()), qPrintable(examplePath()));
        const auto addMul = emitted(pte::test::testDataDir() + QStringLiteral("/emit/add_mul.json"));
        const auto example = emitted(examplePath());
        QVERIFY(addMul && example);
        m_addMul = tmp(QStringLiteral("add_mul.pte"));
        m_examplePte = tmp(QStringLiteral("example.pte"));
        m_exampleEtdump = tmp(QStringLiteral("example.etdp"));
        m_exampleEtdump2 = tmp(QStringLiteral("example-3-runs.etdp"));
        QVERIFY(writeProgram(*addMul, m_addMul));
        QVERIFY(writeProgram(*example, m_examplePte));
        QVERIFY(writeEtdump(*example, m_exampleEtdump));
        QVERIFY(writeEtdump(*example, m_exampleEtdump2, 3));
        m_addMulInstructions = instructionCount(*addMul);
        m_exampleInstructions = instructionCount(*example);
        QVERIFY(m_exampleInstructions > m_addMulInstructions);
        m_corrupt = tmp(QStringLiteral("corrupt.pte"));
        QVERIFY(pte::test::writeFile(m_corrupt, QByteArray("\x1c\0\0\0A_PT", 8) + QByteArray(64, 'x')));
    }
    void init()
    {
        fixtures::failOnQtWarnings();
        QSettings().remove(QStringLiteral("window")); // each test starts from the default layout
    }
    void cleanup()
    {
        for (const auto& timer : std::exchange(g_modalTimers, {}))
            delete timer.data();
    }

    /** Point 1: an emitted program stays unsaved through an ETDump joined and a failed open; every action that would
     *  replace it asks first; the title carries the "*" and, once saved, names the saved file. */
    void unsavedProgramSurvivesWhatIsAddedToIt()
    {
        MainWindow w;
        QCOMPARE(open(w, { examplePath() }), QString());
        QVERIFY(!w.hasUnsavedProgram());
        QVERIFY(!w.isWindowModified());
        QCOMPARE(shownTitle(w), QStringLiteral("example.etrecord — ptelens"));
        QCOMPARE(emitIn(w), QString());
        QVERIFY(w.hasUnsavedProgram());
        QVERIFY(w.isWindowModified());
        QCOMPARE(shownTitle(w), QStringLiteral("example.etrecord* (emitted, not saved) — ptelens"));

        // An ETDump of it joins it: still unsaved, both in the title.
        const QString etdump = tmp(QStringLiteral("emitted-example.etdp"));
        QVERIFY(writeEtdump(*w.document()->snapshot()->program, etdump));
        QCOMPARE(open(w, { etdump }), QString());
        QVERIFY(w.document()->snapshot()->profile && w.document()->snapshot()->profile->matches());
        QVERIFY(w.hasUnsavedProgram());
        QCOMPARE(
            shownTitle(w), QStringLiteral("example.etrecord* (emitted, not saved), emitted-example.etdp — ptelens"));

        // Opening another file asks; Cancel keeps everything.
        bool asked = false;
        answerPrompt(QMessageBox::Cancel, &asked);
        w.openFiles({ m_addMul });
        QVERIFY(asked);
        QVERIFY(!w.document()->isBusy());
        QVERIFY(w.hasUnsavedProgram());
        // Adding a graph dump asks.
        answerPrompt(QMessageBox::Cancel, &asked);
        w.addFiles({ pte::test::testDataDir() + QStringLiteral("/emit/add_mul.json") });
        QVERIFY(asked);
        QVERIFY(!w.document()->isBusy());
        // Discard, but the file does not open: the program is still there, and still unsaved.
        answerPrompt(QMessageBox::Discard, &asked);
        QVERIFY(!open(w, { m_corrupt }).isEmpty());
        QVERIFY(asked);
        QVERIFY(w.document()->snapshot()->emitted);
        QVERIFY(w.hasUnsavedProgram());
        QVERIFY(w.isWindowModified());
        // Closing asks, and so does Ctrl+Q.
        answerPrompt(QMessageBox::Cancel, &asked);
        QVERIFY(!w.close());
        QVERIFY(asked);
        w.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&w));
        answerPrompt(QMessageBox::Cancel, &asked);
        QTest::keyClick(&w, Qt::Key_Q, Qt::ControlModifier);
        QVERIFY(asked);
        QVERIFY(w.isVisible());

        // Saved: the title names the saved file, without "*"; it closes without asking.
        const QString out = tmp(QStringLiteral("saved-example.pte"));
        QCOMPARE(
            fixtures::finishes(*w.document(), &Document::saveFinished, &Document::saveFailed, [&] { w.saveTo(out); }),
            QString());
        QVERIFY(!w.hasUnsavedProgram());
        QVERIFY(!w.isWindowModified());
        QCOMPARE(shownTitle(w),
            QStringLiteral("saved-example.pte (emitted from example.etrecord), emitted-example.etdp — ptelens"));
        // Another ETDump joined to the saved program: still saved.
        QCOMPARE(open(w, { etdump }), QString());
        QVERIFY(!w.hasUnsavedProgram());
        QVERIFY(w.close());
    }

    /** Point 2: an ETDump of another program is said to be one, about the ETDump; the program (which verify accepts)
     *  is not said to be refused. */
    void etdumpOfAnotherProgramIsSaidSo()
    {
        QByteArray out, err;
        QCOMPARE(pte::test::runCli({ QStringLiteral("verify"), m_addMul }, &out, &err), 0);
        MainWindow w;
        QCOMPARE(open(w, { m_addMul, m_exampleEtdump }), QString());
        QVERIFY(!w.document()->snapshot()->profile->matches());
        const QString message = w.messageText();
        QVERIFY2(message.startsWith(QStringLiteral("This ETDump was recorded from another program: %1 instructions "
                                                   "expected, %2 found (example.etdp). Its events are not joined.")
                                        .arg(m_addMulInstructions)
                                        .arg(m_exampleInstructions)),
            qPrintable(message));
        QVERIFY2(!message.contains(QStringLiteral("runtime would refuse")), qPrintable(message));
        // Opened on its own over the program: the same.
        QCOMPARE(open(w, { m_addMul }), QString());
        QCOMPARE(w.messageText(), QString());
        QCOMPARE(open(w, { m_exampleEtdump }), QString());
        QVERIFY2(w.messageText().startsWith(QStringLiteral("This ETDump was recorded from another program")),
            qPrintable(w.messageText()));
    }

    /** Point 3: every load resets the message bar; it says only what concerns the open document. */
    void messageBarBelongsToTheDocument()
    {
        MainWindow w;
        QCOMPARE(open(w, { examplePath() }), QString());
        EmitSettings unnamed;
        unnamed.methodNames = { std::string() };
        QVERIFY(!emitIn(w, unnamed).isEmpty());
        QVERIFY2(w.messageText().startsWith(QStringLiteral("Emission failed")), qPrintable(w.messageText()));
        QCOMPARE(open(w, { m_addMul }), QString());
        QCOMPARE(w.messageText(), QString());

        // The example's emission warns (message bar); the next file opened clears it.
        QCOMPARE(open(w, { examplePath() }), QString());
        QCOMPARE(emitIn(w), QString());
        QVERIFY2(w.messageText().startsWith(QStringLiteral("Emitted 2 methods with ")), qPrintable(w.messageText()));
        bool asked = false;
        answerPrompt(QMessageBox::Discard, &asked);
        QCOMPARE(open(w, { examplePath() }), QString());
        QVERIFY(asked);
        QCOMPARE(w.messageText(), QString());
        QVERIFY(!w.findChild<QWidget*>(QStringLiteral("messageBar"))->isVisibleTo(&w));
    }

    /** Point 4: each severity counted apart, in the Diagnostics tab and in the emission's message. */
    void severitiesAreCountedApart()
    {
        pte::Diagnostics diagnostics;
        diagnostics.push_back(pte::Diagnostic { pte::Severity::Warning, pte::ErrorCode::InvalidInput, "w" });
        for (int i = 0; i < 10; ++i)
            diagnostics.push_back(pte::Diagnostic { pte::Severity::Info, pte::ErrorCode::InvalidInput, "i" });
        QCOMPARE(severityCounts(diagnostics), QStringLiteral("1 warning, 10 info"));
        diagnostics.push_back(pte::Diagnostic { pte::Severity::Error, pte::ErrorCode::InvalidInput, "e" });
        diagnostics.push_back(pte::Diagnostic { pte::Severity::Error, pte::ErrorCode::InvalidInput, "e" });
        QCOMPARE(severityCounts(diagnostics), QStringLiteral("2 errors, 1 warning, 10 info"));
        QCOMPARE(severityCounts({}), QString());

        DiagnosticsView view;
        auto snap = std::make_shared<Snapshot>();
        snap->diagnostics = diagnostics;
        view.setSnapshot(snap);
        QCOMPARE(view.currentTitle(), QStringLiteral("Diagnostics (2 errors, 1 warning, 10 info)"));
        view.setSnapshot(std::make_shared<Snapshot>());
        QCOMPARE(view.currentTitle(), QStringLiteral("Diagnostics"));

        // The emission's message counts what it found the same way.
        MainWindow w;
        QCOMPARE(open(w, { examplePath() }), QString());
        QCOMPARE(emitIn(w), QString());
        const QString counts = severityCounts(w.document()->snapshot()->emitted->warnings);
        QVERIFY(!counts.isEmpty());
        QVERIFY2(w.messageText().startsWith(QStringLiteral("Emitted 2 methods with %1:").arg(counts)),
            qPrintable(w.messageText()));
        bool asked = false;
        answerPrompt(QMessageBox::Discard, &asked);
        QVERIFY(w.close());
        QVERIFY(asked);
    }

    /** Point 5: a file that fails to open leaves the open document as it was (diagnostics, title, content) and does
     *  not enter Open Recent; the bar says what failed. Also for an ETDump and a graph dump added to it. */
    void failedOpenLeavesTheDocumentAsItWas()
    {
        MainWindow w;
        QCOMPARE(open(w, { m_addMul }), QString());
        const auto before = w.document()->snapshot();
        const QString title = shownTitle(w);
        auto* diagnostics = w.findChild<DiagnosticsView*>();
        const int rows = diagnostics->model()->rowCount();
        const QString tab = diagnostics->currentTitle();
        QVERIFY(recentFiles().value(0).endsWith(QStringLiteral("/add_mul.pte")));

        QVERIFY(!open(w, { m_corrupt }).isEmpty());
        QVERIFY2(w.messageText().contains(QStringLiteral("corrupt.pte")), qPrintable(w.messageText()));
        QVERIFY(w.document()->snapshot() == before);
        QCOMPARE(diagnostics->model()->rowCount(), rows);
        QCOMPARE(diagnostics->currentTitle(), tab);
        QCOMPARE(shownTitle(w), title);
        for (const auto& entry : recentFiles())
            QVERIFY2(!entry.contains(QStringLiteral("corrupt.pte")), qPrintable(entry));

        // An ETDump that cannot be read, opened over the program.
        const QString badEtdump = tmp(QStringLiteral("bad.etdp"));
        QVERIFY(pte::test::writeFile(badEtdump, QByteArray(64, '\x07')));
        QVERIFY(!open(w, { badEtdump }).isEmpty());
        QVERIFY(w.document()->snapshot() == before);
        QCOMPARE(diagnostics->model()->rowCount(), rows);
        // A graph dump that cannot be read, added.
        const QString badDump = tmp(QStringLiteral("bad.json"));
        QVERIFY(pte::test::writeFile(badDump, QByteArray("{ not json")));
        QVERIFY(!open(w, { badDump }, true).isEmpty());
        QVERIFY(w.document()->snapshot() == before);
        QCOMPARE(diagnostics->model()->rowCount(), rows);
        QCOMPARE(shownTitle(w), title);
    }

    /** Point 6: before emission, the outputs emission will drop say what emission will do, in a neutral style; after
     *  it, that emission dropped them. */
    void droppedOutputsBeforeEmissionAreNeutral()
    {
        MainWindow w;
        QCOMPARE(open(w, { examplePath() }), QString());
        auto snap = w.document()->snapshot();
        const QString method = w.currentMethod();
        SignatureModel outputs(SignatureModel::Side::Outputs);
        outputs.setMethod(snap, method);
        int mutation = -1;
        for (int r = 0; r < outputs.rowCount(); ++r)
            if (outputs.index(r, 0).data(DroppedRole).toBool())
                mutation = r;
        QVERIFY(mutation >= 0);
        const auto tip = outputs.index(mutation, SignatureModel::NameColumn).data(Qt::ToolTipRole).toString();
        QVERIFY2(tip.startsWith(QStringLiteral("Emission will drop this output")), qPrintable(tip));
        const auto colour = outputs.index(mutation, SignatureModel::NameColumn).data(Qt::ForegroundRole);
        QVERIFY(!colour.isValid() || colour.value<QColor>().red() <= colour.value<QColor>().green() + 0x20);
        QVERIFY(!outputs.index(mutation, SignatureModel::KindColumn).data(Qt::DecorationRole).isValid());

        QCOMPARE(emitIn(w), QString());
        outputs.setMethod(w.document()->snapshot(), method);
        QVERIFY(outputs.index(mutation, SignatureModel::NameColumn)
                    .data(Qt::ToolTipRole)
                    .toString()
                    .startsWith(QStringLiteral("Dropped by emission")));
        bool asked = false;
        answerPrompt(QMessageBox::Discard, &asked);
        QVERIFY(w.close());
        QVERIFY(asked);
    }

    /** Point 7: an ETDump opened alone is joined with the program opened after it; a second ETDump replaces it. */
    void etdumpOpenedFirstIsJoinedWithTheProgram()
    {
        MainWindow w;
        QCOMPARE(open(w, { m_exampleEtdump }), QString());
        QVERIFY(!w.document()->snapshot()->program);
        QCOMPARE(shownTitle(w), QStringLiteral("example.etdp — ptelens"));
        // The empty graph says what to do.
        GraphView* view = w.findChild<GraphPanel*>(QStringLiteral("graphPanel"))->view();
        QCOMPARE(view->nodeCount(), 0);
        QVERIFY2(view->emptyText().contains(QStringLiteral("Open its program")), qPrintable(view->emptyText()));
        QCOMPARE(open(w, { m_examplePte }), QString());
        auto snap = w.document()->snapshot();
        QVERIFY(snap->program);
        QVERIFY(snap->profile && snap->profile->join && snap->profile->matches());
        QCOMPARE(shownTitle(w), QStringLiteral("example.pte, example.etdp — ptelens"));
        QCOMPARE(w.messageText(), QString());

        // A second ETDump replaces the first.
        QCOMPARE(open(w, { m_exampleEtdump2 }), QString());
        snap = w.document()->snapshot();
        QCOMPARE(QString::fromStdString(snap->profile->dump->path), m_exampleEtdump2);
        QCOMPARE(shownTitle(w), QStringLiteral("example.pte, example-3-runs.etdp — ptelens"));
        QCOMPARE(std::count(snap->inputPaths.begin(), snap->inputPaths.end(), m_exampleEtdump.toStdString()), 0);
        // The same one again: listed once.
        QCOMPARE(open(w, { m_exampleEtdump2 }), QString());
        snap = w.document()->snapshot();
        QCOMPARE(std::count(snap->inputPaths.begin(), snap->inputPaths.end(), m_exampleEtdump2.toStdString()), 1);
        QCOMPARE(shownTitle(w), QStringLiteral("example.pte, example-3-runs.etdp — ptelens"));
    }

    /** Point 8: on a .pte alone, Inside Delegate says why its Source nodes column is empty, with the menu's own name
     *  for the action that fills it; once the ETRecord is added, the column has the source nodes. */
    void insideDelegateSaysWhySourcesAreMissing()
    {
        MainWindow w;
        QCOMPARE(open(w, { m_examplePte }), QString());
        auto* inside = w.findChild<DelegatePayloadView*>();
        QVERIFY(inside && inside->currentDelegate() >= 0);
        auto* nodes = inside->nodesTable()->model();
        QVERIFY(nodes->rowCount() > 0);
        const QString why = nodes->index(0, InnerNodeModel::SourcesColumn).data().toString();
        QCOMPARE(why, QStringLiteral("no source graph: add the ETRecord (File > Add Graph Dump…)"));
        QString addText;
        for (auto* a : w.findChildren<QAction*>())
            if (a->objectName() == QLatin1String("addAction"))
                addText = a->text().remove(QLatin1Char('&'));
        QVERIFY2(why.contains(addText), qPrintable(addText));
        QCOMPARE(open(w, { examplePath() }, true), QString());
        QVERIFY(!inside->nodesTable()
                     ->model()
                     ->index(0, InnerNodeModel::SourcesColumn)
                     .data()
                     .toString()
                     .startsWith(QStringLiteral("no source graph")));
    }

    /** Point 9: a delegate opened in the Graph view ("Open in Graph") shows its nodes, not empty space; so does any
     *  graph too big to fit legibly. */
    void delegateOpensOnItsNodes()
    {
        PTE_REQUIRE_CORPUS();
        MainWindow w;
        w.resize(1024, 700);
        QCOMPARE(open(w,
                     { pte::test::corpusPath(
                         QStringLiteral("pte/kadu-v_yolox-executorch-ios__engine__models__yolox_nano_xnnpack.pte")) }),
            QString());
        auto* inside = w.findChild<DelegatePayloadView*>();
        auto* graph = w.findChild<GraphPanel*>(QStringLiteral("graphPanel"));
        QVERIFY(inside->currentDelegate() >= 0);
        QSignalSpy laidOut(graph, &GraphPanel::layoutFinished);
        w.findChild<QPushButton*>(QStringLiteral("openDelegateInGraph"))->click();
        QTRY_VERIFY_WITH_TIMEOUT(!laidOut.isEmpty(), 60000);
        QCOMPARE(graph->openedDelegate(), inside->currentDelegate());
        GraphView* view = graph->view();
        QVERIFY(view->nodeCount() > 10);
        const QRectF visible = view->mapToScene(view->viewport()->rect()).boundingRect();
        int shown = 0; // nodes (not edge paths) wholly in view
        for (auto* item : view->scene()->items(visible, Qt::ContainsItemBoundingRect))
            shown += dynamic_cast<QGraphicsPathItem*>(item) ? 0 : 1;
        QVERIFY2(shown > 0, "no node is in view");
    }

    /** Point 10: the graph has the central area with a minimum size at every window size, a one-method program's
     *  Methods dock is no taller than its rows, and a saved layout that would hide a view is refused. */
    void graphKeepsTheCentralArea()
    {
        MainWindow w;
        QCOMPARE(open(w, { m_examplePte }), QString());
        auto* graph = w.findChild<GraphPanel*>(QStringLiteral("graphPanel"));
        QCOMPARE(w.centralWidget(), graph);
        for (const QSize size : { QSize(1600, 1000), QSize(1024, 700), QSize(1200, 700), QSize(1600, 1000) }) {
            w.resize(size);
            QTRY_COMPARE(w.size(), size);
            QTRY_VERIFY2(graph->height() >= graph->minimumHeight() && graph->width() >= graph->minimumWidth(),
                qPrintable(QStringLiteral("%1x%2: graph %3x%4")
                               .arg(size.width())
                               .arg(size.height())
                               .arg(graph->width())
                               .arg(graph->height())));
            QVERIFY(graph->height() > 200);
            QVERIFY(w.layoutShowsEveryView());
        }
        w.showMaximized();
        QTRY_VERIFY(graph->height() >= graph->minimumHeight());
        w.showNormal();
        QTRY_VERIFY(graph->height() >= graph->minimumHeight());
        // Two methods: their dock is as tall as their rows, the Signature dock below has the rest.
        auto* methods = w.findChild<QDockWidget*>(QStringLiteral("methodsDock"));
        auto* signature = w.findChild<QDockWidget*>(QStringLiteral("signatureDock"));
        auto* methodsTable = w.findChild<QTableView*>(QStringLiteral("methodsView"));
        QCOMPARE(methodsTable->model()->rowCount(), 2);
        QTRY_VERIFY(methodsTable->rowViewportPosition(1) + methodsTable->rowHeight(1)
            <= methodsTable->viewport()->height()); // every row shows
        QTRY_VERIFY2(methods->height() < signature->height() / 2,
            qPrintable(QStringLiteral("%1 vs %2").arg(methods->height()).arg(signature->height())));
        // A layout of the arrangement before (the graph was a dock) is refused; the current one restores.
        QVERIFY(!w.restoreLayout(w.saveState(1)));
        QVERIFY(w.restoreLayout(w.saveState(MainWindow::kLayoutVersion)));
        QVERIFY(w.layoutShowsEveryView());
    }

    /** Point 10: through the window states a window manager sets (maximised, restored) and at 1024x700, the graph
     *  keeps at least its minimum size and a one-method program's Methods dock is no taller than its row needs. */
    void layoutSurvivesMaximiseAndRestore()
    {
        MainWindow w;
        w.resize(1600, 1000);
        QCOMPARE(open(w, { m_addMul }), QString());
        auto* graph = w.findChild<GraphPanel*>(QStringLiteral("graphPanel"));
        auto* methodsTable = w.findChild<QTableView*>(QStringLiteral("methodsView"));
        QCOMPARE(methodsTable->model()->rowCount(), 1);
        // What is wrong with the layout, empty when nothing is.
        const auto wrong = [&]() -> QString {
            QStringList why;
            if (graph->width() < graph->minimumWidth() || graph->height() < graph->minimumHeight())
                why << QStringLiteral("graph %1x%2 under its minimum %3x%4")
                           .arg(graph->width())
                           .arg(graph->height())
                           .arg(graph->minimumWidth())
                           .arg(graph->minimumHeight());
            const int last = methodsTable->model()->rowCount() - 1;
            const int rowsEnd = methodsTable->rowViewportPosition(last) + methodsTable->rowHeight(last);
            const int spare = methodsTable->viewport()->height() - rowsEnd;
            if (spare < 0)
                why << QStringLiteral("the Methods row is cut (%1 px)").arg(spare);
            if (spare > methodsTable->rowHeight(last) + methodsTable->horizontalScrollBar()->sizeHint().height())
                why << QStringLiteral("the Methods dock is %1 px taller than its row").arg(spare);
            if (!w.layoutShowsEveryView())
                why << QStringLiteral("a view is hidden");
            return why.join(QStringLiteral("; "));
        };
        const auto state = [&](const QString& step) {
            return QStringLiteral("%1 (window %2x%3): %4").arg(step).arg(w.width()).arg(w.height()).arg(wrong());
        };
        QTRY_VERIFY2(wrong().isEmpty(), qPrintable(state(QStringLiteral("opened"))));
        const QSize normal = w.size();
        for (int round = 0; round < 2; ++round) {
            w.setWindowState(Qt::WindowMaximized);
            QTRY_VERIFY(w.isMaximized());
            QTRY_VERIFY2(wrong().isEmpty(), qPrintable(state(QStringLiteral("maximised"))));
            w.setWindowState(Qt::WindowNoState);
            QTRY_VERIFY(!w.isMaximized());
            QTRY_COMPARE(w.size(), normal);
            QTRY_VERIFY2(wrong().isEmpty(), qPrintable(state(QStringLiteral("restored"))));
        }
        w.resize(1024, 700);
        QTRY_COMPARE(w.size(), QSize(1024, 700));
        QTRY_VERIFY2(wrong().isEmpty(), qPrintable(state(QStringLiteral("1024x700"))));
        w.setWindowState(Qt::WindowMaximized);
        QTRY_VERIFY(w.isMaximized());
        QTRY_VERIFY2(wrong().isEmpty(), qPrintable(state(QStringLiteral("maximised from 1024x700"))));
        w.setWindowState(Qt::WindowNoState);
        QTRY_COMPARE(w.size(), QSize(1024, 700));
        QTRY_VERIFY2(wrong().isEmpty(), qPrintable(state(QStringLiteral("restored to 1024x700"))));
        // A delegate call selected and shown inside: its format line wraps rather than widening the window (the
        // bottom docks' tabbed area is as wide as the widest of them).
        bool asked = false;
        answerPrompt(QMessageBox::Discard, &asked); // closing the window below
        QCOMPARE(open(w, { examplePath() }), QString());
        QCOMPARE(emitIn(w), QString());
        auto* instructions = w.findChild<InstructionsView*>()->table();
        for (int r = 0; r < instructions->model()->rowCount(); ++r)
            if (instructions->model()->index(r, InstructionModel::KindColumn).data().toString()
                == QLatin1String("DelegateCall"))
                instructions->selectRow(r);
        auto* inside = w.findChild<DelegatePayloadView*>();
        QTRY_VERIFY(inside->currentDelegate() >= 0);
        QVERIFY(!w.findChild<QLabel*>(QStringLiteral("delegateFormat"))->text().isEmpty());
        w.findChild<QDockWidget*>(QStringLiteral("delegatePayloadDock"))->raise();
        QTRY_VERIFY(inside->isVisible());
        fixtures::runQueuedEvents();
        QCOMPARE(w.size(), QSize(1024, 700));
        QVERIFY(w.minimumSizeHint().width() <= 1024);
        QTRY_VERIFY2(wrong().isEmpty(), qPrintable(state(QStringLiteral("Inside Delegate at 1024x700"))));
        QVERIFY(w.close());
    }

    /** Point 11: "Compare with" marks the cells that differ, and keeps the Shape column in view. */
    void comparedSignaturesMarkTheirDifferences()
    {
        MainWindow w;
        w.resize(1200, 700);
        QCOMPARE(open(w, { examplePath() }), QString());
        auto* compare = w.findChild<QComboBox*>(QStringLiteral("signatureCompare"));
        compare->setCurrentIndex(compare->findText(QStringLiteral("scale")));
        auto* mine = w.findChild<QTableView*>(QStringLiteral("inputsView"));
        auto* other = w.findChild<QTableView*>(QStringLiteral("comparedInputsView"));
        QVERIFY(other->isVisibleTo(&w));
        int marked = 0;
        for (auto* table : { mine, other })
            for (int r = 0; r < table->model()->rowCount(); ++r)
                for (int c = 0; c < table->model()->columnCount(); ++c)
                    marked += table->model()->index(r, c).data(Qt::BackgroundRole).isValid() ? 1 : 0;
        QVERIFY(marked > 0);
        // Unmarked where both sides agree.
        auto* model = qobject_cast<SignatureModel*>(mine->model());
        for (int r = 0; r < std::min(mine->model()->rowCount(), other->model()->rowCount()); ++r)
            for (const int c : { int(SignatureModel::DTypeColumn), int(SignatureModel::ShapeColumn) })
                QCOMPARE(model->differsFromCounterpart(r, c),
                    mine->model()->index(r, c).data().toString() != other->model()->index(r, c).data().toString());
        // The Shape column is in view in both halves.
        QTRY_VERIFY(mine->viewport()->width() > 0);
        for (auto* table : { mine, other }) {
            QVERIFY(!table->isColumnHidden(SignatureModel::ShapeColumn));
            QTRY_VERIFY2(table->columnViewportPosition(SignatureModel::ShapeColumn) < table->viewport()->width(),
                qPrintable(QStringLiteral("%1: shape at %2 of %3, name at %4, kind at %5 width %6, dtype at %7")
                               .arg(table->objectName())
                               .arg(table->columnViewportPosition(SignatureModel::ShapeColumn))
                               .arg(table->viewport()->width())
                               .arg(table->columnViewportPosition(SignatureModel::NameColumn))
                               .arg(table->columnViewportPosition(SignatureModel::KindColumn))
                               .arg(table->columnWidth(SignatureModel::KindColumn))
                               .arg(table->columnViewportPosition(SignatureModel::DTypeColumn))));
        }
        compare->setCurrentIndex(0);
        QVERIFY(!mine->model()->index(0, SignatureModel::ShapeColumn).data(Qt::BackgroundRole).isValid());
        QVERIFY(!mine->isColumnHidden(SignatureModel::TargetColumn));
    }

    /** Point 12: an ETDump opened on its own brings the Profile view to the front, with where the time went in view;
     *  the summary's shares add up to 100%. */
    void etdumpAloneShowsProfileFirst()
    {
        MainWindow w;
        w.resize(1024, 700);
        QCOMPARE(open(w, { m_examplePte }), QString());
        auto* profile = w.findChild<ProfileView*>();
        w.findChild<QDockWidget*>(QStringLiteral("instructionsDock"))->raise();
        QTRY_VERIFY(profile->focusTarget()->visibleRegion().isEmpty()); // behind the Instructions tab
        QCOMPARE(open(w, { m_exampleEtdump }), QString());
        QTRY_VERIFY(!profile->focusTarget()->visibleRegion().isEmpty());
        auto* summary = w.findChild<QTableView*>(QStringLiteral("profileSummaryView"));
        QTRY_VERIFY(!summary->visibleRegion().isEmpty());
        QVERIFY(summary->width() >= summary->fontMetrics().averageCharWidth() * 30);
        double shares = 0;
        for (int r = 0; r < summary->model()->rowCount(); ++r)
            shares += summary->model()->index(r, ProfileSummaryModel::ShareColumn).data(SortRole).toDouble();
        QVERIFY2(std::abs(shares - 1.0) < 1e-6, qPrintable(QString::number(shares)));
    }

    /** Points 13, 14, 16, 17: the Diagnostics message first; node details wrap; Open Recent tells equal names
     *  apart; counts agree with their noun; dock tabs keep their titles; Copy as JSON has numbers and only the
     *  columns shown; labels stay readable on the hottest colour. */
    void readingPolish()
    {
        // 16: Open Recent.
        QSettings().setValue(QStringLiteral("recentFiles"),
            QStringList { QStringLiteral("/one/place/model.pte"), QStringLiteral("/another/place/model.pte"),
                QStringLiteral("/x/a.pte\n/x/b.etdp"), QStringLiteral("/data/v1/net.pte"),
                QStringLiteral("/data/v2/net.pte"), QStringLiteral("/data/v3/other.pte") });
        MainWindow w;
        auto* recent = w.findChild<QMenu*>(QStringLiteral("recentMenu"));
        QVERIFY(recent->toolTipsVisible());
        const auto actions = recent->actions();
        QCOMPARE(actions.size(), 6);
        // Equal names are told apart by as much of their folders as differs: the parent folder, or more.
        QCOMPARE(actions[0]->text(), QStringLiteral("model.pte — one/place"));
        QCOMPARE(actions[1]->text(), QStringLiteral("model.pte — another/place"));
        QCOMPARE(actions[0]->toolTip(), QStringLiteral("/one/place/model.pte"));
        QCOMPARE(actions[2]->text(), QStringLiteral("a.pte + b.etdp"));
        QCOMPARE(actions[2]->toolTip(), QStringLiteral("/x/a.pte\n/x/b.etdp"));
        QCOMPARE(actions[3]->text(), QStringLiteral("net.pte — v1"));
        QCOMPARE(actions[4]->text(), QStringLiteral("net.pte — v2"));
        QCOMPARE(actions[5]->text(), QStringLiteral("other.pte")); // a name of its own: no folder
        QCOMPARE(actions[5]->toolTip(), QStringLiteral("/data/v3/other.pte"));
        QSettings().remove(QStringLiteral("recentFiles"));

        w.resize(1024, 700);
        QCOMPARE(open(w, { examplePath() }), QString());
        QCOMPARE(emitIn(w), QString());
        // 13: the message right after the severity, taking the room left.
        auto* diagnostics = w.findChild<DiagnosticsView*>();
        auto* header = diagnostics->table()->horizontalHeader();
        QCOMPARE(header->visualIndex(DiagnosticModel::MessageColumn), 1);
        QCOMPARE(header->sectionResizeMode(DiagnosticModel::MessageColumn), QHeaderView::Stretch);
        // 17: the dock tabs keep their whole titles.
        bool sawTabs = false;
        for (auto* bar : w.findChildren<QTabBar*>())
            if (bar->parent() == &w && bar->count() > 1) {
                sawTabs = true;
                QCOMPARE(bar->elideMode(), Qt::ElideNone);
            }
        QVERIFY(sawTabs);
        // 14: node details wrap.
        auto* details = w.findChild<QPlainTextEdit*>(QStringLiteral("nodeDetails"));
        QCOMPARE(details->lineWrapMode(), QPlainTextEdit::WidgetWidth);
        details->setPlainText(QString(400, QLatin1Char('x')));
        QTRY_COMPARE(details->horizontalScrollBar()->maximum(), 0);
        // 17: "1 value", not "1 values".
        QCOMPARE(counted(1, QStringLiteral("value")), QStringLiteral("1 value"));
        QCOMPARE(counted(3, QStringLiteral("value")), QStringLiteral("3 values"));
        QCOMPARE(counted(2, QStringLiteral("entry"), QStringLiteral("entries")), QStringLiteral("2 entries"));
        // 17: Copy as JSON: numbers as numbers, the hidden columns left out.
        auto* instructions = w.findChild<InstructionsView*>();
        QTableView* table = instructions->table();
        QVERIFY(table->isColumnHidden(InstructionModel::TimeColumn)); // no ETDump: no times
        table->selectRow(0);
        const auto json = QJsonDocument::fromJson(w.selectedRowsText(table, true).toUtf8());
        const QJsonObject row = json.array().first().toObject();
        const QString timeHeader = table->model()->headerData(InstructionModel::TimeColumn, Qt::Horizontal).toString();
        QVERIFY(!row.contains(timeHeader));
        const QString idHeader = table->model()->headerData(InstructionModel::IdColumn, Qt::Horizontal).toString();
        QVERIFY2(row.value(idHeader).isDouble(), qPrintable(w.selectedRowsText(table, true)));
        QVERIFY(!w.selectedRowsText(table, false).contains(timeHeader));
        // 17: labels on the hottest node are white, on cool ones dark.
        QCOMPARE(readableTextOn(heatColor(1.0)), QColor(Qt::white));
        QCOMPARE(readableTextOn(heatColor(0.0)), QColor(0x20, 0x20, 0x20));
        bool asked = false;
        answerPrompt(QMessageBox::Discard, &asked);
        QVERIFY(w.close());
    }

    /** Point 18: the graph exports as SVG and PNG, whole or the part in view. */
    void graphExportsAsImages()
    {
        MainWindow w;
        QCOMPARE(open(w, { examplePath() }), QString());
        GraphView* view = w.findChild<GraphPanel*>(QStringLiteral("graphPanel"))->view();
        QVERIFY(view->nodeCount() > 0);
        const QString svgPath = tmp(QStringLiteral("graph.svg"));
        const QString pngPath = tmp(QStringLiteral("graph.png"));
        QString error;
        QVERIFY2(view->exportImage(svgPath, false, &error), qPrintable(error));
        QVERIFY2(view->exportImage(pngPath, true, &error), qPrintable(error));
        QFile svg(svgPath);
        QVERIFY(svg.open(QIODevice::ReadOnly));
        const QByteArray text = svg.readAll();
        QVERIFY(text.contains("<svg xmlns=\"http://www.w3.org/2000/svg\""));
        QCOMPARE(text.count("<rect "), view->nodeCount() + 1); // the nodes and the background
        QVERIFY(text.contains(">executorch_call_delegate<") || text.contains("lowered_module_0"));
        QVERIFY(text.contains("<path d=\"M"));
        const QImage png(pngPath);
        QVERIFY(!png.isNull());
        QVERIFY(png.width() > 100 && png.height() > 100);
        bool exportAction = false;
        for (auto* a : w.findChildren<QAction*>())
            exportAction = exportAction || a->objectName() == QLatin1String("exportGraphAction");
        QVERIFY(exportAction);
    }

    /** Point 19: a small dump graph groups by module when asked (not only above the collapse threshold); a module
     *  expands in place (its first node in view) and collapses again. */
    void groupsByModuleAtEverySize()
    {
        auto snap = std::make_shared<Snapshot>();
        snap->dumpMethods.push_back(
            DumpMethod { "forward", "forward", "chain.pt2", pte::test::makeChainDump(40, 4), {} });
        snap->finalize();
        auto clusters = [](const GraphData& g) {
            QStringList out;
            for (const auto& n : g.nodes)
                if (n.kind == GraphNode::Kind::Cluster)
                    out << n.modulePath;
            out.sort();
            return out;
        };
        QCOMPARE(buildGraph(*snap, QStringLiteral("forward"), 600).nodes.size(), std::size_t(42)); // flat
        const GraphData grouped = buildGraph(*snap, QStringLiteral("forward"), 600, nullptr, {}, {}, true);
        QCOMPARE(clusters(grouped),
            (QStringList { QStringLiteral("layers.0"), QStringLiteral("layers.1"), QStringLiteral("layers.2"),
                QStringLiteral("layers.3") }));
        QCOMPARE(grouped.nodes.size(), std::size_t(1 + 4 + 1)); // x, the four blocks, output
        const GraphData one =
            buildGraph(*snap, QStringLiteral("forward"), 600, nullptr, { QStringLiteral("layers.1") }, {}, true);
        QCOMPARE(clusters(one).size(), 3);
        QCOMPARE(one.nodes.size(), std::size_t(1 + 3 + 10 + 1));

        GraphPanel panel;
        panel.resize(1000, 700);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        QSignalSpy laidOut(&panel, &GraphPanel::layoutFinished);
        panel.setMethod(snap, QStringLiteral("forward"));
        QTRY_COMPARE_WITH_TIMEOUT(laidOut.size(), 1, 60000);
        QCOMPARE(panel.graph().nodes.size(), std::size_t(42));
        panel.setGroupByModule(true);
        QTRY_COMPARE_WITH_TIMEOUT(laidOut.size(), 2, 60000);
        QCOMPARE(clusters(panel.graph()).size(), 4);
        // Double-click (Enter) on a group expands it in place: its first node is shown and selected.
        int group = -1;
        for (std::size_t i = 0; i < panel.graph().nodes.size(); ++i)
            if (panel.graph().nodes[i].modulePath == QLatin1String("layers.2"))
                group = int(i);
        QVERIFY(group >= 0);
        Q_EMIT panel.view()->nodeActivated(group);
        QTRY_COMPARE_WITH_TIMEOUT(laidOut.size(), 3, 60000);
        QVERIFY(panel.expandedGroups().contains(QStringLiteral("layers.2")));
        const auto selected = panel.selectedNodes();
        QCOMPARE(selected.size(), std::size_t(1));
        QCOMPARE(panel.graph().nodes[std::size_t(selected.front())].members, QStringList { QStringLiteral("n20") });
        panel.collapseGroup(QStringLiteral("layers.2"));
        QTRY_COMPARE_WITH_TIMEOUT(laidOut.size(), 4, 60000);
        QCOMPARE(clusters(panel.graph()).size(), 4);
        QVERIFY(panel.expandedGroups().isEmpty());
    }

    /** Point 20: Find says how many nodes match, which one is shown and which graph it searched. */
    void findCountsItsMatches()
    {
        MainWindow w;
        QCOMPARE(open(w, { examplePath() }), QString());
        auto* graph = w.findChild<GraphPanel*>(QStringLiteral("graphPanel"));
        auto* find = w.findChild<QLineEdit*>(QStringLiteral("graphFind"));
        int matches = 0;
        for (const auto& n : graph->graph().nodes)
            matches += n.label.contains(QStringLiteral("aten"), Qt::CaseInsensitive)
                    || n.subtitle.contains(QStringLiteral("aten"), Qt::CaseInsensitive)
                    || n.modulePath.contains(QStringLiteral("aten"), Qt::CaseInsensitive)
                    || !n.members.filter(QStringLiteral("aten"), Qt::CaseInsensitive).isEmpty()
                    || !n.absorbed.filter(QStringLiteral("aten"), Qt::CaseInsensitive).isEmpty()
                ? 1
                : 0;
        QVERIFY(matches > 1);
        find->setText(QStringLiteral("aten"));
        QVERIFY(graph->findNext());
        QVERIFY2(graph->statusText().startsWith(
                     QStringLiteral("“aten”: 1 of %1 in the graph of %2").arg(matches).arg(w.currentMethod())),
            qPrintable(graph->statusText()));
        QVERIFY(graph->findNext());
        QVERIFY(graph->statusText().startsWith(QStringLiteral("“aten”: 2 of %1").arg(matches)));
        find->setText(QStringLiteral("no such node"));
        QVERIFY(!graph->findNext());
        QCOMPARE(
            graph->statusText(), QStringLiteral("“no such node” not found in the graph of %1").arg(w.currentMethod()));
    }

    /** Point 15: quitting closes the Diff window too (the application ends), from either window. */
    void diffWindowClosesWithTheApplication()
    {
        // No window of ours left open: the application ends (it quits when its last window closes).
        auto noWindowLeft = [] {
            const auto windows = QApplication::topLevelWidgets();
            return std::none_of(windows.begin(), windows.end(), [](QWidget* w) {
                return w->isVisible() && (qobject_cast<MainWindow*>(w) || qobject_cast<DiffWindow*>(w));
            });
        };
        {
            MainWindow w;
            QCOMPARE(open(w, { m_addMul }), QString());
            QPointer<DiffWindow> diff = w.compareWith(m_examplePte);
            QVERIFY(QTest::qWaitForWindowExposed(diff));
            QVERIFY(w.close());
            QTRY_VERIFY(diff.isNull() || !diff->isVisible());
            QTRY_VERIFY(noWindowLeft());
        }
        {
            MainWindow w;
            QCOMPARE(open(w, { m_addMul }), QString());
            QPointer<DiffWindow> diff = w.compareWith(m_examplePte);
            QVERIFY(QTest::qWaitForWindowExposed(diff));
            diff->activateWindow();
            QVERIFY(QTest::qWaitForWindowActive(diff));
            QTest::keyClick(diff, Qt::Key_Q, Qt::ControlModifier);
            QTRY_VERIFY(!w.isVisible());
            QTRY_VERIFY(diff.isNull() || !diff->isVisible());
            QTRY_VERIFY(noWindowLeft());
        }
    }
};

QTEST_MAIN(TestWorkbenchState)
#include "tst_workbenchstate.moc"
