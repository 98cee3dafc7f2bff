// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <QAbstractItemModel>
#include <QAbstractItemView>

#include <benchmark/benchmark.h>
#include <functional>
#include <memory>
#include <string>
#include <vector>

class QApplication;
class QTableView;

namespace pte::bench {

/**
 * The setup the Google Benchmark GUI programs share: the offscreen platform unless QT_QPA_PLATFORM is set, a
 * QApplication named `program` in test mode (the user's settings and recent files stay out of it), Google
 * Benchmark's own arguments, and the load average as context (before and after the run).
 */
class OffscreenBench
{
public:
    OffscreenBench(int& argc, char** argv, const char* program);
    ~OffscreenBench();
    OffscreenBench(const OffscreenBench&) = delete;
    OffscreenBench& operator=(const OffscreenBench&) = delete;

    /** False (after Google Benchmark has said so) when an argument was not recognized. */
    bool argumentsOk() const { return m_argumentsOk; }
    /** Runs the registered benchmarks; returns main's exit code. */
    int run();

private:
    std::unique_ptr<QApplication> m_app;
    const char* m_program;
    bool m_argumentsOk = false;
};

/** A new top-level 1600x700 table view on `model`, rows 4/3 of a text line high (as the workbench's tables), shown. */
QTableView* showTableView(QAbstractItemModel* model);

/** /proc/loadavg's first fields, "unknown" when it cannot be read. */
std::string loadAverage();

/** A filter benchmark: its name and the filter change it times. */
struct FilterCase
{
    const char* name;
    std::function<void()> set;
};

/**
 * Registers one benchmark (milliseconds) per case: each iteration undoes every filter untimed (`reset`), then times
 * `set` until `proxy` has its rows and `view` is repainted. Counters "rows": the proxy's rows after the change, "of":
 * its source model's. `proxy` and `view` are looked up when the benchmark runs (they are made after registration).
 */
void registerFilterBenchmarks(const std::vector<FilterCase>& cases, std::function<void()> reset,
    std::function<QAbstractItemModel*()> proxy, std::function<QAbstractItemView*()> view);

} // namespace pte::bench
