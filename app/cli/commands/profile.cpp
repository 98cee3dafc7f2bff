// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// `ptelens-cli profile ETDUMP [--program P.pte] [--etrecord E] [--debug-buffer B] [--reference-inputs SPEC]
// [--json|--tsv|--csv]`: ExecuTorch's Inspector table for an ETDump (same columns, same values: times scaled the way
// the Inspector does), joined with the program and ETRecord when given, then where the time went by operator, backend
// and module; with --reference-inputs, each logged value against ptelens' reference interpreter (MSE, L1, SNR); with
// a bundled program (.bpte), each logged program output against the expected output of its test case.
// Exit codes: 0 ok; 1 unreadable input, or an ETDump that does not match the program (the rows are still printed,
// unjoined); 2 usage.
#include "command.h"
#include "jsonoutput.h"
#include "printederror.h"
#include "pte/alignedsources.h"
#include "pte/bundledgap.h"
#include "pte/delegateetdump.h"
#include "pte/delegatelink.h"
#include "pte/delegatepayload.h"
#include "pte/dumpreader.h"
#include "pte/etdump.h"
#include "pte/etdumpjoin.h"
#include "pte/numericgap.h"
#include "pte/profiletable.h"
#include "pte/ptereader.h"
#include "pte/referencegap.h"

#include <QCommandLineParser>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <optional>

namespace pte::cli {

namespace {

using Json = nlohmann::ordered_json;

Json number(double v)
{
    if (std::isnan(v))
        return nullptr;
    if (std::isinf(v))
        return v > 0 ? "inf" : "-inf";
    return v;
}

Json valueJson(const pte::EtDump& dump, const pte::EtdumpValue& v)
{
    Json j;
    j["type"] = pte::etdumpValueTypeName(v.type);
    if (v.output)
        j["output"] = true;
    switch (v.type) {
    case pte::EtdumpValueType::Int:
        j["value"] = v.intValue;
        break;
    case pte::EtdumpValueType::Bool:
        j["value"] = v.boolValue;
        break;
    case pte::EtdumpValueType::Float:
    case pte::EtdumpValueType::Double:
        j["value"] = number(v.doubleValue);
        break;
    default:
        break;
    }
    if (!v.tensors.empty()) {
        Json tensors = Json::array();
        for (const auto& t : v.tensors) {
            Json tj;
            tj["dtype"] = pte::scalarTypeShortName(t.scalarType);
            tj["sizes"] = t.sizes;
            tj["strides"] = t.strides;
            tj["offset"] = t.offset;
            if (auto values = pte::loggedTensorValues(dump, t, 1u << 24)) {
                const auto stats = pte::tensorStats(*values);
                Json first = Json::array();
                for (const double x : stats.first)
                    first.push_back(number(x));
                tj["first"] = std::move(first);
                tj["min"] = number(stats.min);
                tj["max"] = number(stats.max);
                tj["mean"] = number(stats.mean);
                tj["nan"] = stats.nanCount;
                tj["inf"] = stats.infCount;
            }
            tensors.push_back(std::move(tj));
        }
        j["tensors"] = std::move(tensors);
    }
    return j;
}

const char* mappingName(pte::DelegateMapping m)
{
    switch (m) {
    case pte::DelegateMapping::NotDelegate:
        return "not_delegate";
    case pte::DelegateMapping::Mapped:
        return "mapped";
    case pte::DelegateMapping::Unmapped:
        return "unmapped";
    case pte::DelegateMapping::NoMap:
        return "no_map";
    case pte::DelegateMapping::Aligned:
        return "aligned";
    }
    return "?";
}

/**
 * XNNPACK's operator rows, which no delegate map resolves, tied to the inner nodes their events align with and through
 * them to the ETRecord's source nodes (pte/alignedsources.h).
 */
void attachDelegateSources(pte::ProfileTable& table, const pte::EtDump& dump, const pte::EtdumpJoin* join,
    const pte::PteFile& file, const pte::DumpSet* etrecord)
{
    const pte::PayloadDataSources sources { file.program.get(), file.externalData ? &*file.externalData : nullptr,
        nullptr };
    const auto delegates = pte::decodeProgramDelegates(*file.program, sources, file.path);
    if (delegates.empty())
        return;
    pte::SourceGraphIndex index;
    pte::DebugMapsView maps;
    if (etrecord) {
        pte::addMethodGraphs(index, etrecord->methods);
        if (etrecord->etrecordMaps)
            maps = pte::debugMapsView(*etrecord->etrecordMaps);
    }
    std::vector<pte::DelegateLinks> links;
    links.reserve(delegates.size());
    for (const auto& d : delegates)
        links.push_back(pte::linkProgramDelegate(d, maps, index.empty() ? nullptr : &index));
    pte::attachAlignedSources(table, pte::alignEtdumpDelegates(dump, join, delegates), delegates, links);
}

Json summaryJson(const std::vector<pte::ProfileSummaryEntry>& entries)
{
    Json list = Json::array();
    for (const auto& e : entries)
        list.push_back(
            Json { { "key", e.key }, { "rows", e.count }, { "total", number(e.total) }, { "share", number(e.share) } });
    return list;
}

std::string fixed(double v, int decimals = 6)
{
    if (std::isnan(v))
        return "-";
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
    return buf;
}

std::string pad(std::string s, std::size_t width)
{
    if (s.size() < width)
        s.append(width - s.size(), ' ');
    return s;
}

/**
 * The MSE, L1 and SNR cells of a gap (fixed widths; magnitudes of a million or more in scientific notation, so a gap
 * over garbage memory does not run into the next column), or dashes and the reason.
 */
std::string gapCells(const std::optional<pte::GapMetrics>& gap, const std::string& reason)
{
    if (!gap)
        return pad("-", 14) + pad("-", 14) + pad("-", 10) + reason;
    auto number = [](double v, int decimals) {
        if (std::isfinite(v) && std::fabs(v) >= 1e6) {
            char buf[32];
            std::snprintf(buf, sizeof buf, "%.4e", v);
            return std::string(buf);
        }
        return fixed(v, decimals);
    };
    const double snr = gap->snr;
    return pad(number(gap->mse, 9), 14) + pad(number(gap->l1, 6), 14)
        + pad(std::isinf(snr) ? std::string(snr > 0 ? "inf" : "-inf") : number(snr, 2), 10);
}

std::string summaryText(const char* title, const std::vector<pte::ProfileSummaryEntry>& entries, const char* unit)
{
    if (entries.empty())
        return {};
    std::string t = std::string("\n") + title + "\n";
    for (const auto& e : entries)
        t += "  " + pad(fixed(e.total), 14) + unit + "  " + pad(fixed(e.share * 100, 1) + "%", 7) + "  "
            + std::to_string(e.count) + (e.count == 1 ? " row   " : " rows  ") + e.key + "\n";
    return t;
}

/** The gap of one logged value as JSON: SNR "inf" for identical values, null for NaN. */
Json referenceRowJson(const pte::ReferenceGapRow& row)
{
    Json j { { "event", row.event }, { "instruction", row.instruction >= 0 ? Json(row.instruction) : Json(nullptr) },
        { "value", row.value }, { "operator", row.op.empty() ? Json(nullptr) : Json(row.op) },
        { "output", row.outputIndex >= 0 ? Json(row.outputIndex) : Json(nullptr) } };
    j["mse"] = row.gap ? number(row.gap->mse) : Json(nullptr);
    j["l1"] = row.gap ? number(row.gap->l1) : Json(nullptr);
    j["snr"] = row.gap ? number(row.gap->snr) : Json(nullptr);
    j["reason"] = row.gap ? Json(nullptr) : Json(row.reason);
    return j;
}

std::string referenceText(const std::vector<pte::ReferenceGap>& gaps)
{
    std::string t;
    for (const auto& g : gaps) {
        t += "\nReference gap of '" + g.method + "' (inputs: " + g.inputSource + (g.inputsAssumed ? ", assumed" : "")
            + "):\n" + pad("instr", 7) + pad("value", 7) + pad("operator", 34) + pad("MSE", 14) + pad("L1", 14)
            + pad("SNR dB", 10) + "reason\n";
        for (const auto& row : g.rows) {
            const std::string where = row.outputIndex >= 0 ? "out" + std::to_string(row.outputIndex)
                : row.instruction >= 0                     ? std::to_string(row.instruction)
                                                           : "-";
            t += pad(where, 7) + pad(std::to_string(row.value), 7) + pad(row.op.empty() ? "-" : row.op, 34)
                + gapCells(row.gap, row.reason) + "\n";
        }
    }
    return t;
}

/** A logged program output against the bundled program's expected output, as JSON (SNR "inf", NaN null). */
Json bundledRowJson(const pte::BundledOutputGapRow& row)
{
    Json j { { "event", row.event }, { "value", row.value }, { "output", row.outputIndex } };
    j["mse"] = row.gap ? number(row.gap->mse) : Json(nullptr);
    j["l1"] = row.gap ? number(row.gap->l1) : Json(nullptr);
    j["snr"] = row.gap ? number(row.gap->snr) : Json(nullptr);
    j["reason"] = row.gap ? Json(nullptr) : Json(row.reason);
    return j;
}

std::string bundledText(const std::vector<pte::BundledOutputGap>& gaps)
{
    std::string t;
    for (const auto& g : gaps) {
        t += "\nBundled expected outputs of '" + g.method + "' (block " + std::to_string(g.run) + " against test case "
            + std::to_string(g.testCase) + (g.fromBlock ? ", the block's bundled input" : ", the last") + "):\n";
        if (g.rows.empty()) {
            t += "  no program output logged in the block (the run kept no output tensors)\n";
            continue;
        }
        t += pad("output", 8) + pad("value", 7) + pad("MSE", 14) + pad("L1", 14) + pad("SNR dB", 10) + "reason\n";
        for (const auto& row : g.rows) {
            t += pad("out" + std::to_string(row.outputIndex), 8) + pad(std::to_string(row.value), 7)
                + gapCells(row.gap, row.reason) + "\n";
        }
    }
    return t;
}

int runProfile(const QStringList& args)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Prints ExecuTorch's Inspector table for an ETDump: one row per event (per event block, identical runs merged, "
        "with p10/p50/p90/avg/min/max over the runs), joined with the program (instructions, operators, backends) and "
        "the ETRecord (debug handles, op types, stack traces, module hierarchy) when given; then the time by operator, "
        "by backend and by module; with a bundled program, the logged program outputs against its test case's expected "
        "outputs (MSE, L1, SNR). --tsv and --csv print the table only (the Inspector's to_dataframe() columns)."));
    parser.addHelpOption();
    parser.addPositionalArgument(QStringLiteral("ETDUMP"), QStringLiteral("The .etdp / .etdump file."));
    const QCommandLineOption programOpt(QStringLiteral("program"),
        QStringLiteral("The program (.pte or .bpte) that ran, to join events to its instructions."),
        QStringLiteral("P.pte"));
    const QCommandLineOption etrecordOpt(QStringLiteral("etrecord"),
        QStringLiteral("The ETRecord of the program: debug handles, delegate maps and graph nodes."),
        QStringLiteral("E"));
    const QCommandLineOption bufferOpt(QStringLiteral("debug-buffer"),
        QStringLiteral("The debug buffer with logged tensor bytes (default: one found next to ETDUMP)."),
        QStringLiteral("B"));
    const QCommandLineOption methodOpt(QStringLiteral("method"),
        QStringLiteral("Join every execution block to this method (default: decided from each block's events)."),
        QStringLiteral("NAME"));
    const QCommandLineOption sourceOpt(QStringLiteral("source-time-scale"),
        QStringLiteral("Unit of the runtime's ticks: ns (default), us, ms, s or cycles."), QStringLiteral("UNIT"));
    const QCommandLineOption targetOpt(QStringLiteral("target-time-scale"),
        QStringLiteral("Unit of the table: ms (default), ns, us, s or cycles."), QStringLiteral("UNIT"));
    const QCommandLineOption layoutOpt(QStringLiteral("layout"),
        QStringLiteral("Event-block layout: auto (default), current or v0.1.0."), QStringLiteral("LAYOUT"));
    const QCommandLineOption referenceOpt(QStringLiteral("reference-inputs"),
        QStringLiteral("Run each executed method again on ptelens' reference interpreter and give each logged value's "
                       "gap to it (MSE, L1, SNR, as ExecuTorch's Inspector computes them), or why there is none. SPEC "
                       "is the inputs the run used: pattern, ones or zeros (etrt_runner's --fill), bundled[:N] (the "
                       "bundled program's test case N, default the last), or FILE.json (etrt_runner's --inputs "
                       "file). Needs --program."),
        QStringLiteral("SPEC"));
    const QCommandLineOption jsonOpt(
        QStringLiteral("json"), QStringLiteral("Print rows, summaries and the join as JSON."));
    const QCommandLineOption tsvOpt(QStringLiteral("tsv"), QStringLiteral("Print the table as tab-separated values."));
    const QCommandLineOption csvOpt(QStringLiteral("csv"), QStringLiteral("Print the table as CSV (pandas to_csv)."));
    parser.addOptions({ programOpt, etrecordOpt, bufferOpt, methodOpt, sourceOpt, targetOpt, layoutOpt, referenceOpt,
        jsonOpt, tsvOpt, csvOpt });
    if (const auto done = parseArguments(parser, args, "profile", 1, "exactly one ETDump"))
        return *done;
    if (int(parser.isSet(jsonOpt)) + int(parser.isSet(tsvOpt)) + int(parser.isSet(csvOpt)) > 1) {
        std::fprintf(stderr, "ptelens-cli profile: --json, --tsv and --csv exclude each other\n");
        return ExitUsage;
    }
    std::optional<pte::ReferenceInputSpec> referenceSpec;
    if (parser.isSet(referenceOpt)) {
        auto spec = pte::ReferenceInputSpec::parse(parser.value(referenceOpt).toStdString());
        if (!spec || !parser.isSet(programOpt)) {
            std::fprintf(stderr, "ptelens-cli profile: %s\n",
                spec ? "--reference-inputs needs --program" : spec.error().message.c_str());
            return ExitUsage;
        }
        referenceSpec = *spec;
    }
    pte::ProfileOptions profileOptions;
    for (const auto& [opt, target] :
        { std::pair { &sourceOpt, &profileOptions.source }, std::pair { &targetOpt, &profileOptions.target } }) {
        if (!parser.isSet(*opt))
            continue;
        const auto scale = pte::parseTimeScale(parser.value(*opt).toStdString());
        if (!scale) {
            std::fprintf(stderr, "ptelens-cli profile: unknown time scale '%s' (ns, us, ms, s, cycles)\n",
                qPrintable(parser.value(*opt)));
            return ExitUsage;
        }
        *target = *scale;
    }
    pte::EtdumpReadOptions readOptions;
    if (parser.isSet(bufferOpt))
        readOptions.debugBufferPath = parser.value(bufferOpt).toStdString();
    if (parser.isSet(layoutOpt)) {
        const auto l = parser.value(layoutOpt);
        if (l == QStringLiteral("current"))
            readOptions.layout = pte::EtdumpLayout::Current;
        else if (l == QStringLiteral("v0.1.0"))
            readOptions.layout = pte::EtdumpLayout::V010;
        else if (l != QStringLiteral("auto")) {
            std::fprintf(stderr, "ptelens-cli profile: unknown layout '%s' (auto, current, v0.1.0)\n", qPrintable(l));
            return ExitUsage;
        }
    }

    const std::string path = parser.positionalArguments().front().toStdString();
    auto dump = pte::readEtdumpFile(path, readOptions);
    if (printedError(dump))
        return ExitInvalidInput;
    pte::Diagnostics diagnostics = (*dump)->diagnostics;

    std::shared_ptr<const pte::PteFile> pte;
    if (parser.isSet(programOpt)) {
        auto opened = pte::readPteFile(parser.value(programOpt).toStdString());
        if (printedError(opened))
            return ExitInvalidInput;
        pte = *opened;
    }
    std::shared_ptr<const pte::DumpSet> etrecord;
    if (parser.isSet(etrecordOpt)) {
        auto loaded = pte::readDump(parser.value(etrecordOpt).toStdString());
        if (printedError(loaded))
            return ExitInvalidInput;
        etrecord = *loaded;
        if (!etrecord->etrecordMaps)
            diagnostics.push_back(pte::Diagnostic { pte::Severity::Warning, pte::ErrorCode::InvalidInput,
                "the file is a graph dump without ETRecord debug maps; only its graphs are used", std::nullopt, {},
                etrecord->path });
    }
    std::shared_ptr<const pte::EtdumpJoin> join;
    if (pte || etrecord) {
        const auto sources = pte::makeEtdumpSources(pte ? pte->program : nullptr,
            etrecord && etrecord->etrecordMaps ? &*etrecord->etrecordMaps : nullptr,
            etrecord ? etrecord->methods
                     : std::vector<std::pair<std::string, std::shared_ptr<const pte::ExportedProgram>>> {});
        pte::EtdumpJoinOptions joinOptions;
        if (parser.isSet(methodOpt))
            joinOptions.method = parser.value(methodOpt).toStdString();
        auto joined = pte::joinEtdump(*dump, sources, joinOptions);
        if (printedError(joined))
            return ExitUsage;
        join = *joined;
        diagnostics.insert(diagnostics.end(), join->diagnostics.begin(), join->diagnostics.end());
    }
    auto table = pte::buildProfileTable(**dump, join.get(), profileOptions);
    if (printedError(table))
        return ExitUsage;
    diagnostics.insert(diagnostics.end(), table->diagnostics.begin(), table->diagnostics.end());
    if (pte && join)
        attachDelegateSources(*table, **dump, join.get(), *pte, etrecord.get());
    const auto summary = pte::summarizeProfile(**dump, *table, join.get());
    const bool mismatch = join && join->hasMismatch();
    const int exitCode = mismatch ? ExitInvalidInput : ExitOk;
    std::vector<pte::ReferenceGap> gaps;
    if (referenceSpec && join && pte) {
        pte::ReferenceGapOptions gapOptions;
        gapOptions.external = pte->externalData ? &*pte->externalData : nullptr;
        for (std::size_t i = 0; i < join->sources->methods.size(); ++i) {
            const auto& m = join->sources->methods[i];
            if (std::none_of(join->runs.begin(), join->runs.end(), [&](const pte::EtdumpRunJoin& r) {
                    return r.joined && r.kind != pte::EtdumpRunKind::Load && r.method == int(i);
                }))
                continue; // the method did not run
            auto inputs = pte::resolveReferenceInputs(*referenceSpec, *pte->program, pte->bundled.get(), m.name);
            if (!inputs) {
                printError(inputs.error());
                return ExitInvalidInput;
            }
            auto gap = pte::referenceGap(*join, m.name, *inputs, gapOptions);
            if (!gap) {
                printError(gap.error());
                return ExitInvalidInput;
            }
            gaps.push_back(std::move(gap).value());
        }
    }
    // A bundled program: the logged program outputs against its test cases' expected outputs.
    const std::vector<pte::BundledOutputGap> bundledGaps = join && pte && pte->bundled
        ? pte::bundledOutputGaps(*join, *pte->bundled)
        : std::vector<pte::BundledOutputGap> {};
    const auto& d = **dump;
    const std::string unit = std::string(" ") + pte::timeScaleName(profileOptions.target);

    if (parser.isSet(tsvOpt) || parser.isSet(csvOpt)) {
        printOut(pte::profileTableText(d, *table, parser.isSet(csvOpt) ? ',' : '\t'));
        for (const auto& diag : diagnostics)
            if (diag.severity != pte::Severity::Info)
                printDiagnostic(diag);
        return exitCode;
    }
    if (parser.isSet(jsonOpt)) {
        Json j;
        j["etdump"] = path;
        j["size_prefixed"] = d.sizePrefixed;
        j["layout"] = pte::etdumpLayoutName(d.layout);
        j["version"] = d.version;
        j["debug_buffer"] = d.debugBufferPath.empty() ? Json(nullptr) : Json(d.debugBufferPath);
        j["program"] = pte ? Json(pte->path) : Json(nullptr);
        j["etrecord"] = etrecord ? Json(etrecord->path) : Json(nullptr);
        j["time_scale"] = Json { { "source", pte::timeScaleName(profileOptions.source) },
            { "target", pte::timeScaleName(profileOptions.target) } };
        j["events"] = Json { { "profile", d.count(pte::EtdumpEventKind::Profile) },
            { "debug", d.count(pte::EtdumpEventKind::Debug) },
            { "allocation", d.count(pte::EtdumpEventKind::Allocation) },
            { "empty", d.count(pte::EtdumpEventKind::Empty) } };
        Json runs = Json::array();
        for (std::size_t r = 0; r < d.runs.size(); ++r) {
            Json rj { { "name", d.runs[r].name }, { "events", d.runs[r].eventCount },
                { "bundled_input_index", d.runs[r].bundledInputIndex } };
            if (join) {
                const auto& jr = join->runs[r];
                rj["method"] =
                    jr.method >= 0 ? Json(join->sources->methods[std::size_t(jr.method)].name) : Json(nullptr);
                rj["joined"] = jr.joined;
                if (!jr.problem.empty())
                    rj["problem"] = jr.problem;
            }
            runs.push_back(std::move(rj));
        }
        j["runs"] = std::move(runs);
        Json blocks = Json::array();
        for (const auto& b : table->blocks)
            blocks.push_back(Json { { "name", b.name }, { "runs", b.runs },
                { "bundled_input_index", b.bundledInputIndex }, { "first_row", b.firstRow }, { "rows", b.rowCount } });
        j["blocks"] = std::move(blocks);
        const auto columns = pte::profileColumns(*table);
        Json rows = Json::array();
        for (const auto& row : table->rows) {
            Json rj;
            rj[columns[0]] = table->blocks[row.block].name;
            rj[columns[1]] = row.eventName;
            Json raw = Json::array();
            for (const double v : row.raw)
                raw.push_back(number(v));
            rj[columns[2]] = std::move(raw);
            const double stats[] = { row.p10, row.p50, row.p90, row.avg, row.min, row.max };
            for (std::size_t i = 0; i < 6; ++i)
                rj[columns[3 + i]] = number(stats[i]);
            rj[columns[9]] = row.opTypes;
            rj[columns[10]] = row.delegateIdInt ? Json(*row.delegateIdInt)
                : row.delegateIdStr             ? Json(*row.delegateIdStr)
                                                : Json(nullptr);
            Json traces = Json::object();
            for (const auto& [k, v] : row.stackTraces)
                traces[k] = v;
            rj[columns[11]] = std::move(traces);
            Json modules = Json::object();
            for (const auto& [k, v] : row.moduleHierarchy)
                modules[k] = v;
            rj[columns[12]] = std::move(modules);
            rj[columns[13]] = row.isDelegatedOp;
            rj[columns[14]] = row.delegateBackendName.empty() ? Json(nullptr) : Json(row.delegateBackendName);
            Json debug = Json::array();
            for (const auto e : row.debugEvents)
                if (const auto* v = d.value(d.events[e]))
                    debug.push_back(valueJson(d, *v));
            rj[columns[15]] = std::move(debug);
            rj[columns[16]] = row.startTimes;
            rj["method"] =
                join && row.method >= 0 ? Json(join->sources->methods[std::size_t(row.method)].name) : Json(nullptr);
            rj["chain"] = row.chain;
            rj["instruction"] = row.instruction;
            rj["debug_handles"] = row.debugHandles;
            Json nodes = Json::array();
            if (join && row.method >= 0)
                if (const auto& g = join->sources->methods[std::size_t(row.method)].graph)
                    for (const auto n : row.nodes)
                        nodes.push_back(g->graph.nodes[n].name);
            rj["nodes"] = std::move(nodes);
            if (row.isDelegatedOp)
                rj["delegate_mapping"] = mappingName(row.mapping);
            rows.push_back(std::move(rj));
        }
        j["rows"] = std::move(rows);
        Json outputs = Json::array();
        for (const auto& b : table->blocks)
            for (const auto e : b.outputEvents)
                if (const auto* v = d.value(d.events[e]))
                    outputs.push_back(valueJson(d, *v));
        j["run_outputs"] = std::move(outputs);
        j["summary"] = Json { { "execute_total", number(summary.executeTotal) },
            { "by_operator", summaryJson(summary.byOperator) }, { "by_backend", summaryJson(summary.byBackend) },
            { "by_module", summaryJson(summary.byModule) } };
        j["join"] = Json { { "joined", join != nullptr }, { "mismatch", mismatch } };
        if (referenceSpec) {
            Json methods = Json::array();
            for (const auto& g : gaps) {
                Json values = Json::array();
                for (const auto& row : g.rows)
                    values.push_back(referenceRowJson(row));
                methods.push_back(Json { { "method", g.method }, { "run", g.run }, { "inputs", g.inputSource },
                    { "inputs_assumed", g.inputsAssumed },
                    { "interpreter_problem",
                        g.interpreterProblem.empty() ? Json(nullptr) : Json(g.interpreterProblem) },
                    { "values", std::move(values) } });
            }
            j["reference"] = std::move(methods);
        }
        if (join && pte && pte->bundled) {
            Json methods = Json::array();
            for (const auto& g : bundledGaps) {
                Json rowsJson = Json::array();
                for (const auto& row : g.rows)
                    rowsJson.push_back(bundledRowJson(row));
                methods.push_back(Json { { "method", g.method }, { "run", g.run }, { "test_case", g.testCase },
                    { "test_case_from_block", g.fromBlock }, { "outputs", std::move(rowsJson) } });
            }
            j["bundled"] = std::move(methods);
        }
        Json diags = Json::array();
        for (const auto& diag : diagnostics) {
            Json dj = diagnosticJson(diag);
            dj["file"] = diag.file;
            diags.push_back(std::move(dj));
        }
        j["diagnostics"] = std::move(diags);
        printJson(j);
        return exitCode;
    }

    std::string t;
    t += "ETDump:      " + path + " (" + std::to_string(d.file.size()) + " bytes, "
        + (d.sizePrefixed ? "size-prefixed" : "no size prefix") + ", " + pte::etdumpLayoutName(d.layout) + " layout)\n";
    t += "Blocks:      " + std::to_string(d.runs.size()) + " run(s) in " + std::to_string(table->blocks.size())
        + " block(s); events: " + std::to_string(d.count(pte::EtdumpEventKind::Profile)) + " profile, "
        + std::to_string(d.count(pte::EtdumpEventKind::Debug)) + " debug, "
        + std::to_string(d.count(pte::EtdumpEventKind::Allocation)) + " allocation\n";
    if (!d.debugBufferPath.empty())
        t += "Debug buffer: " + d.debugBufferPath + " (" + std::to_string(d.debugBuffer.size()) + " bytes)\n";
    if (pte)
        t += "Program:     " + pte->path + "\n";
    if (etrecord)
        t += "ETRecord:    " + etrecord->path + "\n";
    t += "\n" + pad("block", 10) + pad("event", 44) + pad("runs", 6) + pad("p50" + unit, 14) + pad("p10" + unit, 14)
        + pad("p90" + unit, 14) + pad("instr", 7) + "backend / op types\n";
    for (const auto& row : table->rows) {
        std::string where = row.instruction >= 0 ? std::to_string(row.instruction) : "-";
        std::string extra = row.delegateBackendName;
        if (!row.opTypes.empty()) {
            std::string ops;
            for (std::size_t i = 0; i < row.opTypes.size() && i < 3; ++i)
                ops += (i ? ", " : "") + row.opTypes[i];
            if (row.opTypes.size() > 3)
                ops += " ... (" + std::to_string(row.opTypes.size()) + ")";
            extra += (extra.empty() ? "" : "  ") + ops;
        }
        t += pad(table->blocks[row.block].name, 10) + pad(row.eventName, 44) + pad(std::to_string(row.raw.size()), 6)
            + pad(fixed(row.p50), 14) + pad(fixed(row.p10), 14) + pad(fixed(row.p90), 14) + pad(where, 7) + extra
            + "\n";
    }
    if (summary.executeTotal > 0)
        t += "\nExecution (Method::execute, median per block, summed): " + fixed(summary.executeTotal) + unit + "\n";
    t += summaryText("By operator:", summary.byOperator, unit.c_str());
    t += summaryText("By backend:", summary.byBackend, unit.c_str());
    t += summaryText("By module:", summary.byModule, unit.c_str());
    t += referenceText(gaps);
    t += bundledText(bundledGaps);
    printOut(t);
    for (const auto& diag : diagnostics)
        if (diag.severity != pte::Severity::Info)
            printDiagnostic(diag);
    return exitCode;
}

} // namespace

PTELENS_REGISTER_COMMAND(
    profile, "profile", "ExecuTorch's Inspector table for an ETDump, joined with the program and ETRecord", runProfile);

} // namespace pte::cli
