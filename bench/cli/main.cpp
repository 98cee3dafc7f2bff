// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// `ptelens-bench [--quick] [--json] [--list] [--check] [--dir DIR] [NAME...]`: runs the registered benchmark cases,
// which measure the ptelens-cli beside it and the core library. Argument parsing and output are ptelens-cli's
// (app/cli/command.h, library pte_cli_command).
#include "bench.h"
#include "command.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QTemporaryDir>

#include <algorithm>
#include <cstdio>
#include <nlohmann/json.hpp>

namespace ptelens::bench {

using cli::ExitInternal;
using cli::ExitInvalidInput;
using cli::ExitOk;
using cli::ExitUsage;
using cli::printOut;

ProcessMeasurement runMeasuredDirect(const std::vector<std::string>& argv); // bench.cpp

namespace {

std::string formatValue(double v)
{
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.2f", v);
    return buf;
}

void printTable(const std::vector<std::pair<const Benchmark*, std::vector<BenchMeasurement>>>& results)
{
    std::size_t wName = 11;
    std::size_t wValue = 5;
    std::size_t wUnit = 4;
    std::size_t wTarget = 6;
    for (const auto& [b, ms] : results)
        for (const auto& m : ms) {
            wName = std::max(wName, m.name.size());
            wValue = std::max(wValue, formatValue(m.value).size());
            wUnit = std::max(wUnit, m.unit.size());
            wTarget = std::max(wTarget, m.target.size());
        }
    std::string text;
    char line[1024];
    std::snprintf(line, sizeof line, "%-*s  %*s  %-*s  %-*s  %s\n", int(wName), "measurement", int(wValue), "value",
        int(wUnit), "unit", int(wTarget), "target", "met");
    text += line;
    for (const auto& [b, ms] : results)
        for (const auto& m : ms) {
            std::snprintf(line, sizeof line, "%-*s  %*s  %-*s  %-*s  %s\n", int(wName), m.name.c_str(), int(wValue),
                formatValue(m.value).c_str(), int(wUnit), m.unit.c_str(), int(wTarget), m.target.c_str(),
                m.target.empty() ? "-" : (m.met ? "yes" : "NO"));
            text += line;
        }
    printOut(text);
}

int runBench(const QStringList& args)
{
    // Internal helper of runMeasured(): run ARGV from this fresh process and print "exit wall_ms peak_rss_mb".
    if (args.size() >= 2 && args.at(1) == QLatin1String("--exec-measured")) {
        std::vector<std::string> argv;
        for (qsizetype i = 2; i < args.size(); ++i)
            argv.push_back(args.at(i).toStdString());
        if (argv.empty())
            return ExitUsage;
        const ProcessMeasurement m = runMeasuredDirect(argv);
        std::printf("%d %.3f %.3f\n", m.exitCode, m.wallMs, m.peakRssMb);
        return ExitOk;
    }
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Runs the performance benchmarks and prints each measurement with its target. Without NAME, runs all."));
    parser.addHelpOption();
    parser.addPositionalArgument(
        QStringLiteral("NAME"), QStringLiteral("Benchmarks to run."), QStringLiteral("[NAME...]"));
    const QCommandLineOption quickOpt(QStringLiteral("quick"), QStringLiteral("Small sizes (smoke test)."));
    const QCommandLineOption jsonOpt(QStringLiteral("json"), QStringLiteral("Print the measurements as JSON."));
    const QCommandLineOption listOpt(QStringLiteral("list"), QStringLiteral("List the benchmarks and exit."));
    const QCommandLineOption checkOpt(QStringLiteral("check"), QStringLiteral("Exit with 1 when a target is not met."));
    const QCommandLineOption dirOpt(QStringLiteral("dir"),
        QStringLiteral("Scratch folder for the benchmark files (default: the system temp folder)."),
        QStringLiteral("DIR"));
    parser.addOptions({ quickOpt, jsonOpt, listOpt, checkOpt, dirOpt });
    if (const auto done = cli::parseArguments(parser, args, nullptr))
        return *done;
    auto all = benchmarkRegistry();
    std::sort(all.begin(), all.end(),
        [](const Benchmark& a, const Benchmark& b) { return std::string_view(a.name) < std::string_view(b.name); });
    if (parser.isSet(listOpt)) {
        std::string text;
        for (const auto& b : all)
            text += std::string(b.name) + "\t" + b.summary + "\n";
        printOut(text);
        return ExitOk;
    }
    std::vector<const Benchmark*> selected;
    for (const QString& name : parser.positionalArguments()) {
        const auto it =
            std::find_if(all.begin(), all.end(), [&](const Benchmark& b) { return name == QLatin1String(b.name); });
        if (it == all.end()) {
            std::fprintf(stderr, "ptelens-bench: unknown benchmark '%s' (see --list)\n", qPrintable(name));
            return ExitUsage;
        }
        if (std::find(selected.begin(), selected.end(), &*it) == selected.end())
            selected.push_back(&*it);
    }
    if (parser.positionalArguments().isEmpty())
        for (const auto& b : all)
            selected.push_back(&b);

    const QString base =
        parser.isSet(dirOpt) ? parser.value(dirOpt) + QStringLiteral("/ptelens-bench-XXXXXX") : QString();
    QTemporaryDir scratch = base.isEmpty() ? QTemporaryDir() : QTemporaryDir(base);
    if (!scratch.isValid()) {
        std::fprintf(stderr, "ptelens-bench: cannot create a scratch folder: %s\n", qPrintable(scratch.errorString()));
        return ExitInternal;
    }
    const QString cli = QCoreApplication::applicationDirPath() + QStringLiteral("/ptelens-cli");
    if (!QFileInfo(cli).isExecutable()) {
        std::fprintf(stderr, "ptelens-bench: %s not found (it is built beside ptelens-bench)\n", qPrintable(cli));
        return ExitInternal;
    }
    std::vector<std::pair<const Benchmark*, std::vector<BenchMeasurement>>> results;
    for (const Benchmark* b : selected) {
        const QString dir = scratch.path() + QLatin1Char('/') + QLatin1String(b->name);
        QDir().mkpath(dir);
        BenchContext ctx;
        ctx.workDir = dir.toStdString();
        ctx.cliPath = cli.toStdString();
        ctx.quick = parser.isSet(quickOpt);
        if (!parser.isSet(jsonOpt))
            std::fprintf(stderr, "running %s...\n", b->name);
        results.emplace_back(b, b->run(ctx));
        QDir(dir).removeRecursively();
    }

    bool allMet = true;
    for (const auto& [b, ms] : results)
        for (const auto& m : ms)
            allMet = allMet && m.met;
    if (parser.isSet(jsonOpt)) {
        nlohmann::ordered_json j;
        j["quick"] = parser.isSet(quickOpt);
        j["all_met"] = allMet;
        auto list = nlohmann::ordered_json::array();
        for (const auto& [b, ms] : results) {
            nlohmann::ordered_json bj;
            bj["name"] = b->name;
            bj["summary"] = b->summary;
            auto mlist = nlohmann::ordered_json::array();
            for (const auto& m : ms) {
                nlohmann::ordered_json mj;
                mj["name"] = m.name;
                mj["value"] = m.value;
                mj["unit"] = m.unit;
                mj["target"] = m.target;
                mj["met"] = m.met;
                mlist.push_back(std::move(mj));
            }
            bj["measurements"] = std::move(mlist);
            list.push_back(std::move(bj));
        }
        j["benchmarks"] = std::move(list);
        printOut(j.dump(2) + "\n");
    } else {
        printTable(results);
    }
    return parser.isSet(checkOpt) && !allMet ? ExitInvalidInput : ExitOk;
}

} // namespace
} // namespace ptelens::bench

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("ptelens-bench"));
    return ptelens::bench::runBench(QCoreApplication::arguments());
}
