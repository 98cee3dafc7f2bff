// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "document/devicerun.h"
#include "document/document.h"
#include "mainwindow.h"
#include "models/instructionmodel.h"
#include "views/delegatepayloadview.h"
#include "views/diffwindow.h"
#include "views/graphpanel.h"
#include "widgets/devicerundialog.h"
#include "widgets/emitdialog.h"
#include "widgets/icons.h"
#include "widgets/preferencesdialog.h"
#include "widgets/rundialog.h"

#include <QAbstractItemModel>
#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QPixmap>
#include <QTabWidget>
#include <QTableView>
#include <QThread>

#include <cstdio>

namespace {

/** Spins the event loop until pred() holds or the timeout passes. */
template <typename Pred> bool waitFor(Pred pred, int timeoutMs)
{
    QElapsedTimer t;
    t.start();
    while (!pred()) {
        if (t.elapsed() > timeoutMs)
            return false;
        QCoreApplication::processEvents(QEventLoop::AllEvents, 50);
        QThread::msleep(10);
    }
    QCoreApplication::processEvents();
    return true;
}

bool idle(pte::ui::MainWindow& window)
{
    auto* graph = window.findChild<pte::ui::GraphPanel*>(QStringLiteral("graphPanel"));
    return !window.document()->isBusy() && (!graph || !graph->isBusy());
}

/**
 * The dock's picture without the empty rows under a lone table's last row (the Instructions, Operators and
 * Diagnostics docks of a small program are mostly empty space otherwise).
 */
QPixmap grabDock(QDockWidget* dock)
{
    QPixmap pixmap = dock->grab();
    static const QStringList croppable { QStringLiteral("instructionsDock"), QStringLiteral("operatorsDock"),
        QStringLiteral("diagnosticsDock") };
    if (!croppable.contains(dock->objectName()))
        return pixmap; // the other docks have more than a table (charts, several tables, the graph)
    QList<QTableView*> tables;
    for (auto* t : dock->findChildren<QTableView*>())
        if (t->isVisibleTo(dock))
            tables << t;
    if (tables.size() != 1 || tables.front()->model()->rowCount() == 0)
        return pixmap;
    QTableView* table = tables.front();
    const int last = table->model()->rowCount() - 1;
    const int rowBottom = table->rowViewportPosition(last) + table->rowHeight(last);
    if (table->rowViewportPosition(last) < 0 || rowBottom + table->rowHeight(last) >= table->viewport()->height())
        return pixmap; // the rows fill the table
    const int bottom = table->viewport()->mapTo(dock, QPoint(0, rowBottom + table->rowHeight(last))).y();
    const qreal dpr = pixmap.devicePixelRatio();
    return pixmap.copy(0, 0, pixmap.width(), int(bottom * dpr));
}

/**
 * Opens the files, optionally emits, selects an instruction and saves PNGs of the window, each dock, the
 * memory plan (memoryplan.png) and, for graph dumps, the Emit dialog (emitdialog.png); with --run, the Run dialog
 * (rundialog.png) and the views after that run.
 */
/**
 * With --runner: the preferences with that run target (preferences.png), then Program > Run on Device with it, the
 * Run window while the command runs (rundialog-running.png, at its first output) and once it ended (rundialog.png).
 * The saved run target is left as it was.
 */
void takeRunScreenshots(pte::ui::MainWindow& window, const QString& templ, const QString& dir)
{
    const QString saved = pte::ui::DeviceRun::savedTemplate();
    pte::ui::DeviceRun::setSavedTemplate(templ);
    {
        pte::ui::PreferencesDialog preferences(&window);
        preferences.show();
        waitFor([] { return false; }, 200);
        preferences.grab().save(dir + QStringLiteral("/preferences.png"));
    }
    if (window.runOnDevice()) {
        auto* dialog = window.deviceRunDialog();
        waitFor([&] { return !dialog->outputText().isEmpty() || !window.deviceRun()->isRunning(); }, 120000);
        dialog->grab().save(dir + QStringLiteral("/rundialog-running.png"));
        waitFor([&] { return !window.deviceRun()->isRunning(); }, 600000);
        waitFor([&] { return idle(window); }, 120000);
        waitFor([] { return false; }, 200);
        dialog->grab().save(dir + QStringLiteral("/rundialog.png"));
        dialog->hide();
    }
    pte::ui::DeviceRun::setSavedTemplate(saved);
}

int takeScreenshots(pte::ui::MainWindow& window, const QStringList& files, const QString& dir, bool emitFirst,
    const QString& method, const QSize& size, int delegate, const QString& runner, bool run)
{
    QDir().mkpath(dir);
    window.resize(size);
    window.show();
    window.openFiles(files);
    waitFor([&] { return idle(window); }, 120000);
    if (emitFirst && window.document()->canEmit()) {
        window.emitWith({});
        waitFor([&] { return !window.document()->isBusy(); }, 120000);
        waitFor([&] { return idle(window); }, 120000);
    }
    if (!runner.isEmpty())
        takeRunScreenshots(window, runner, dir);
    if (!method.isEmpty()) {
        window.setCurrentMethod(method);
        waitFor([&] { return idle(window); }, 120000);
    }
    // --run: the Run dialog with the inputs it proposes (rundialog.png), then that run.
    if (run && window.document()->canRun()) {
        pte::ui::RunDialog dialog(window.document()->snapshot(), window.currentMethod(), &window);
        dialog.show();
        waitFor([] { return false; }, 200);
        dialog.grab().save(dir + QStringLiteral("/rundialog.png"));
        dialog.hide();
        window.runWith(dialog.settings());
        waitFor([&] { return !window.document()->isBusy(); }, 120000);
        waitFor([&] { return idle(window); }, 120000);
    }
    // Select something interesting: a delegate call, else the last kernel call.
    if (auto* view = window.findChild<QTableView*>(QStringLiteral("instructionsView"))) {
        auto* model = view->model();
        int pick = -1;
        for (int r = 0; r < model->rowCount(); ++r) {
            const QString kind = model->index(r, pte::ui::InstructionModel::KindColumn).data().toString();
            if (kind == QLatin1String("DelegateCall")) {
                pick = r;
                break;
            }
            if (kind == QLatin1String("KernelCall"))
                pick = r;
        }
        if (pick >= 0) {
            view->setFocus();
            view->selectRow(pick);
        }
    }
    // --delegate N: the method's delegate N, shown inside (Inside Delegate dock) and drilled into (Graph view).
    if (delegate >= 0) {
        if (auto* inside = window.findChild<pte::ui::DelegatePayloadView*>()) {
            inside->showDelegate(delegate);
            if (auto* graph = window.findChild<pte::ui::GraphPanel*>(QStringLiteral("graphPanel")))
                graph->openDelegate(inside->currentDelegate());
            waitFor([&] { return idle(window); }, 120000);
        }
    }
    waitFor([] { return false; }, 300);
    window.grab().save(dir + QStringLiteral("/window.png"));
    for (auto* dock : window.findChildren<QDockWidget*>()) {
        dock->show();
        dock->raise();
        waitFor([] { return false; }, 150);
        grabDock(dock).save(
            dir + QLatin1Char('/') + dock->objectName().remove(QStringLiteral("Dock")) + QStringLiteral(".png"));
        // The memory plan shares the Values dock: saved on its own too, with its caption.
        if (dock->objectName() == QLatin1String("valuesDock"))
            if (auto* plan = window.findChild<QWidget*>(QStringLiteral("memoryPlan")))
                plan->parentWidget()->grab().save(dir + QStringLiteral("/memoryplan.png"));
    }
    // The graph is the central area, not a dock.
    if (auto* graph = window.findChild<pte::ui::GraphPanel*>(QStringLiteral("graphPanel")))
        graph->grab().save(dir + QStringLiteral("/graph.png"));
    const auto snapshot = window.document()->snapshot();
    if (snapshot && !snapshot->dumpMethods.empty()) {
        pte::ui::EmitDialog dialog(*snapshot, &window);
        dialog.show();
        waitFor([] { return false; }, 200);
        dialog.grab().save(dir + QStringLiteral("/emitdialog.png"));
    }
    return 0;
}

/**
 * Opens A, compares it with B in the Diff window, selects the first differing row and saves diff.png (the window),
 * then diff-graphs.png, diff-constants.png and diff-delegates.png (the bottom tabs).
 */
int takeCompareScreenshots(pte::ui::MainWindow& window, const QString& a, const QString& b, const QString& dir)
{
    QDir().mkpath(dir);
    window.openFiles({ a });
    waitFor([&] { return idle(window); }, 120000);
    pte::ui::DiffWindow* diff = window.compareWith(b);
    diff->resize(1600, 1000);
    waitFor([&] { return diff->comparison()->result() && diff->isIdle(); }, 120000);
    waitFor([] { return false; }, 300);
    if (!diff->comparison()->result()) {
        std::fprintf(stderr, "ptelens: the comparison failed\n");
        return 1;
    }
    diff->grab().save(dir + QStringLiteral("/diff.png"));
    const char* const tabs[] = { "differences", "constants", "delegates", "graphs" };
    for (int t = 0; t < diff->tabs()->count() && t < 4; ++t) {
        diff->tabs()->setCurrentIndex(t);
        waitFor([] { return false; }, 200);
        diff->tabs()->grab().save(dir + QStringLiteral("/diff-%1.png").arg(QLatin1String(tabs[t])));
    }
    return 0;
}

} // namespace

int main(int argc, char** argv)
{
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("ptelens"));
    QApplication::setOrganizationName(QStringLiteral("ptelens"));
    QApplication::setApplicationVersion(QStringLiteral("0.1.0"));
    QApplication::setDesktopFileName(QStringLiteral("ptelens"));
    pte::ui::installWorkbenchStyle();

    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("ExecuTorch program workbench"));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument(QStringLiteral("files"),
        QStringLiteral(".pte, .bpte, .pt2, exported-program JSON, ETRecord or ETDump (.etdp) files"));
    QCommandLineOption screenshot(
        QStringLiteral("screenshot"), QStringLiteral("Save screenshots to DIR and exit."), QStringLiteral("DIR"));
    screenshot.setFlags(QCommandLineOption::HiddenFromHelp);
    QCommandLineOption emitOption(QStringLiteral("emit"), QStringLiteral("Emit the graph dumps after loading."));
    QCommandLineOption methodOption(
        QStringLiteral("method"), QStringLiteral("Show this method (with --screenshot)."), QStringLiteral("NAME"));
    methodOption.setFlags(QCommandLineOption::HiddenFromHelp);
    QCommandLineOption etdumpOption(QStringLiteral("etdump"),
        QStringLiteral("An ETDump (.etdp) of a run of the program, joined with it."), QStringLiteral("FILE"));
    QCommandLineOption debugBufferOption(QStringLiteral("debug-buffer"),
        QStringLiteral("The ETDump's debug buffer (logged tensor bytes; default: one found next to it)."),
        QStringLiteral("FILE"));
    QCommandLineOption compareOption(QStringLiteral("compare"),
        QStringLiteral("Compare the two files given (A B) in the Diff window, A opened in the main window."));
    parser.addOption(compareOption);
    QCommandLineOption sizeOption(QStringLiteral("size"), QStringLiteral("Window size for --screenshot (1600x1000)."),
        QStringLiteral("WxH"), QStringLiteral("1600x1000"));
    sizeOption.setFlags(QCommandLineOption::HiddenFromHelp);
    parser.addOption(sizeOption);
    QCommandLineOption delegateOption(QStringLiteral("delegate"),
        QStringLiteral("Open this delegate of the method in the Graph view (with --screenshot)."), QStringLiteral("N"));
    delegateOption.setFlags(QCommandLineOption::HiddenFromHelp);
    parser.addOption(delegateOption);
    QCommandLineOption runnerOption(QStringLiteral("runner"),
        QStringLiteral("Run on Device with this command template (with --screenshot)."), QStringLiteral("TEMPLATE"));
    runnerOption.setFlags(QCommandLineOption::HiddenFromHelp);
    parser.addOption(runnerOption);
    QCommandLineOption runOption(QStringLiteral("run"),
        QStringLiteral("With --screenshot: run the method on the reference interpreter (the Run dialog's proposed "
                       "inputs) first; also saves rundialog.png."));
    parser.addOption(runOption);
    parser.addOption(screenshot);
    parser.addOption(emitOption);
    parser.addOption(methodOption);
    parser.addOption(etdumpOption);
    parser.addOption(debugBufferOption);
    parser.process(app);

    QStringList files = parser.positionalArguments();
    if (parser.isSet(etdumpOption))
        files << parser.value(etdumpOption);
    if (parser.isSet(debugBufferOption))
        files << parser.value(debugBufferOption);
    pte::ui::MainWindow window;
    const bool compare = parser.isSet(compareOption);
    if (compare && parser.positionalArguments().size() != 2) {
        std::fprintf(stderr, "ptelens: --compare expects two files, A and B\n");
        return 2;
    }
    if (compare && parser.isSet(screenshot))
        return takeCompareScreenshots(
            window, parser.positionalArguments().at(0), parser.positionalArguments().at(1), parser.value(screenshot));
    if (parser.isSet(screenshot)) {
        const QStringList wh = parser.value(sizeOption).split(QLatin1Char('x'));
        const QSize size(wh.value(0).toInt(), wh.value(1).toInt());
        return takeScreenshots(window, files, parser.value(screenshot), parser.isSet(emitOption),
            parser.value(methodOption), size.isValid() && !size.isEmpty() ? size : QSize(1600, 1000),
            parser.isSet(delegateOption) ? parser.value(delegateOption).toInt() : -1, parser.value(runnerOption),
            parser.isSet(runOption));
    }
    window.show();
    if (compare) {
        const QString other = parser.positionalArguments().at(1);
        QObject::connect(
            window.document(), &pte::ui::Document::loadFinished, &window,
            [&window, other] { window.compareWith(other); }, Qt::SingleShotConnection);
        window.openFiles({ parser.positionalArguments().at(0) });
    } else if (!files.isEmpty()) {
        window.openFiles(files);
    }
    if (parser.isSet(emitOption))
        QObject::connect(window.document(), &pte::ui::Document::loadFinished, &window, [&window] {
            if (window.document()->canEmit())
                window.emitWith({});
        });
    return app.exec();
}
