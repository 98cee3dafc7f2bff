// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// `ptelens-bench [--quick] [--json] [--markdown FILE] [--list] [--check] [--dir DIR] [NAME...]`: runs the registered
// benchmark cases, which measure the ptelens-cli beside it and the core library. --markdown writes the measured table
// into FILE between its ptelens-bench markers (docs/benchmarks.md), so the published numbers come from this program.
// Argument parsing and output are ptelens-cli's (app/cli/command.h, library pte_cli_command).
#include "bench.h"
#include "command.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSaveFile>
#include <QSysInfo>
#include <QTemporaryDir>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <thread>

namespace pte::bench {

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

using Results = std::vector<std::pair<const Benchmark*, std::vector<BenchMeasurement>>>;

constexpr std::string_view MarkdownBegin = "<!-- ptelens-bench: begin (written by ptelens-bench --markdown) -->";
constexpr std::string_view MarkdownEnd = "<!-- ptelens-bench: end -->";

/** The first line of `path` that starts with `key`, after the key and any ": " (empty when absent). */
std::string procField(const char* path, std::string_view key)
{
    std::ifstream in(path);
    std::string line;
    while (std::getline(in, line))
        if (line.rfind(key, 0) == 0) {
            std::string v = line.substr(key.size());
            const auto start = v.find_first_not_of(" \t:");
            return start == std::string::npos ? std::string() : v.substr(start);
        }
    return {};
}

/** Where and when the measurements were taken: date, cores, CPU, load average at the start, kernel. */
std::string machineLine(const std::string& loadAtStart, bool quick)
{
    std::string cpu = procField("/proc/cpuinfo", "model name");
    if (cpu.empty())
        cpu = QSysInfo::currentCpuArchitecture().toStdString();
    return "Measured " + QDateTime::currentDateTimeUtc().toString(Qt::ISODate).toStdString() + " on "
        + std::to_string(std::thread::hardware_concurrency()) + " cores (" + cpu + "), "
        + QSysInfo::prettyProductName().toStdString() + ", kernel " + QSysInfo::kernelVersion().toStdString()
        + "; load average at the start " + (loadAtStart.empty() ? std::string("unknown") : loadAtStart)
        + (quick ? "; --quick sizes (a smoke test, not the published sizes)" : "") + ".";
}

/** `text` with the pipes escaped, for a Markdown table cell. */
std::string cell(const std::string& text)
{
    std::string out;
    for (const char c : text)
        out += c == '|' ? std::string("\\|") : std::string(1, c);
    return out;
}

std::string markdownTable(const Results& results, const std::string& machine)
{
    std::string md = std::string(MarkdownBegin) + "\n\n" + machine + "\n\n";
    md += "| benchmark | measurement | value | unit | target | met |\n|---|---|--:|---|---|---|\n";
    for (const auto& [b, ms] : results)
        for (const auto& m : ms)
            md += "| `" + std::string(b->name) + "` | `" + m.name + "` | " + formatValue(m.value) + " | " + m.unit
                + " | " + cell(m.target) + " | " + (m.target.empty() ? "-" : (m.met ? "yes" : "**no**")) + " |\n";
    md += "\n" + std::string(MarkdownEnd) + "\n";
    return md;
}

/** Puts `table` between FILE's markers (the rest of FILE kept), or at its end when it has none. */
bool writeMarkdown(const QString& path, const std::string& table)
{
    std::string text;
    if (QFile in(path); in.open(QIODevice::ReadOnly))
        text = in.readAll().toStdString();
    const auto begin = text.find(MarkdownBegin);
    const auto end = begin == std::string::npos ? std::string::npos : text.find(MarkdownEnd, begin);
    if (end != std::string::npos) {
        auto stop = end + MarkdownEnd.size();
        if (stop < text.size() && text[stop] == '\n')
            ++stop;
        text.replace(begin, stop - begin, table);
    } else {
        if (!text.empty() && text.back() != '\n')
            text += '\n';
        text += (text.empty() ? "" : "\n") + table;
    }
    QSaveFile out(path);
    if (!out.open(QIODevice::WriteOnly) || out.write(text.data(), qint64(text.size())) != qint64(text.size()))
        return false;
    return out.commit();
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
    const QCommandLineOption markdownOpt(QStringLiteral("markdown"),
        QStringLiteral("Also write the measurements as a Markdown table into FILE, between its ptelens-bench markers "
                       "(the rest of FILE is kept; without markers the table is appended)."),
        QStringLiteral("FILE"));
    const QCommandLineOption listOpt(QStringLiteral("list"), QStringLiteral("List the benchmarks and exit."));
    const QCommandLineOption checkOpt(QStringLiteral("check"), QStringLiteral("Exit with 1 when a target is not met."));
    const QCommandLineOption dirOpt(QStringLiteral("dir"),
        QStringLiteral("Scratch folder for the benchmark files (default: the system temp folder)."),
        QStringLiteral("DIR"));
    parser.addOptions({ quickOpt, jsonOpt, markdownOpt, listOpt, checkOpt, dirOpt });
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
    const std::string loadAtStart = [] {
        std::ifstream in("/proc/loadavg");
        double one = -1;
        in >> one;
        return one < 0 ? std::string() : formatValue(one);
    }();
    Results results;
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
    if (parser.isSet(markdownOpt)) {
        const QString path = parser.value(markdownOpt);
        if (!writeMarkdown(path, markdownTable(results, machineLine(loadAtStart, parser.isSet(quickOpt))))) {
            std::fprintf(stderr, "ptelens-bench: cannot write %s\n", qPrintable(path));
            return ExitInternal;
        }
        if (!parser.isSet(jsonOpt))
            std::fprintf(stderr, "wrote the table into %s\n", qPrintable(path));
    }
    return parser.isSet(checkOpt) && !allMet ? ExitInvalidInput : ExitOk;
}

} // namespace
} // namespace pte::bench

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("ptelens-bench"));
    return pte::bench::runBench(QCoreApplication::arguments());
}
