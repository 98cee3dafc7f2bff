// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "offscreenbench.h"

#include <QAbstractProxyModel>
#include <QApplication>
#include <QFile>
#include <QHeaderView>
#include <QStandardPaths>
#include <QTableView>

#include <cstdio>

namespace pte::bench {

OffscreenBench::OffscreenBench(int& argc, char** argv, const char* program)
    : m_program(program)
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    m_app = std::make_unique<QApplication>(argc, argv);
    QStandardPaths::setTestModeEnabled(true);
    QApplication::setApplicationName(QString::fromLatin1(program));
    QApplication::setOrganizationName(QStringLiteral("ptelens"));
    benchmark::Initialize(&argc, argv);
    m_argumentsOk = !benchmark::ReportUnrecognizedArguments(argc, argv);
}

OffscreenBench::~OffscreenBench() = default;

int OffscreenBench::run()
{
    benchmark::AddCustomContext("loadavg", loadAverage());
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    std::fprintf(stderr, "%s: load average after the run: %s\n", m_program, loadAverage().c_str());
    return 0;
}

QTableView* showTableView(QAbstractItemModel* model)
{
    auto* view = new QTableView;
    view->setModel(model);
    view->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    view->verticalHeader()->setDefaultSectionSize(view->fontMetrics().height() * 4 / 3);
    view->resize(1600, 700);
    view->show();
    return view;
}

std::string loadAverage()
{
    QFile f(QStringLiteral("/proc/loadavg"));
    if (!f.open(QIODevice::ReadOnly))
        return "unknown";
    return f.readAll().trimmed().toStdString();
}

void registerFilterBenchmarks(const std::vector<FilterCase>& cases, std::function<void()> reset,
    std::function<QAbstractItemModel*()> proxy, std::function<QAbstractItemView*()> view)
{
    for (const FilterCase& c : cases) {
        benchmark::RegisterBenchmark(c.name, [set = c.set, reset, proxy, view](benchmark::State& state) {
            int rows = 0;
            for (auto _ : state) {
                state.PauseTiming();
                reset();
                state.ResumeTiming();
                set();
                rows = proxy()->rowCount();
                view()->viewport()->repaint();
            }
            state.counters["rows"] = rows;
            if (const auto* p = qobject_cast<const QAbstractProxyModel*>(proxy()); p && p->sourceModel())
                state.counters["of"] = p->sourceModel()->rowCount();
            reset(); // after the timed loop
        })->Unit(benchmark::kMillisecond);
    }
}

} // namespace pte::bench
