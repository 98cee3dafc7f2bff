// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// `ptelens-cli run PROGRAM [--method M]... [--inputs FILE.json | --inputs-raw A.bin,B.bin | --fill RULE |
// --bundled N|all] [--json OUT] [--runs N] [--etdump OUT.etdp [--debug-buffer OUT.bin]] [--print N|all]`: runs methods
// of a program (a .pte, a bundled program, or a graph dump emitted first) on ptelens' reference interpreter and
// reports them as ExecuTorch's etrt_runner does: the same lines, the same --json result, and with --etdump the ETDump
// its ETDumpGen writes with every intermediate value. A bundled program's test cases are checked as ExecuTorch's
// verify_method_outputs checks them.
// Exit codes: 0 every method ran (and every bundled case passed); 1 invalid input (an unreadable or invalid file, a
// method the interpreter refuses as the runtime would, a failed bundled case); 2 usage; 3 internal error or an output
// that could not be written; 4 the interpreter lacks an operator (delegate, dtype) the program needs.
#include "command.h"
#include "jsonoutput.h"
#include "printederror.h"
#include "pte/bundledprogram.h"
#include "pte/interpreterrun.h"
#include "pte/mappedfile.h"
#include "pte/programdiff.h"
#include "pte/ptereader.h"
#include "pte/referenceinputs.h"

#include <QCommandLineParser>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <nlohmann/json.hpp>
#include <optional>

namespace pte::cli {

namespace {

using Json = nlohmann::ordered_json;

constexpr const char* kCommand = "run";

std::string g9(double v)
{
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.9g", v);
    return buf;
}

std::string g17(double v)
{
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.17g", v);
    return buf;
}

template <typename T> std::string listText(const std::vector<T>& v)
{
    std::string s = "[";
    for (std::size_t i = 0; i < v.size(); ++i)
        s += (i ? ", " : "") + std::to_string(v[i]);
    return s + "]";
}

std::string elementText(double v, pte::ScalarType t)
{
    if (pte::isFloatingType(t) || !std::isfinite(v))
        return g9(v);
    return std::to_string(static_cast<long long>(v));
}

/** The tensor's elements in memory (dim) order, as the runner lists them on its lines. */
std::vector<double> memoryOrder(const pte::HostTensor& h, const std::vector<std::uint8_t>& dimOrder)
{
    bool contiguous = true;
    if (dimOrder.size() == h.sizes.size())
        for (std::size_t k = 0; k < dimOrder.size(); ++k)
            contiguous = contiguous && dimOrder[k] == k;
    if (contiguous || std::any_of(dimOrder.begin(), dimOrder.end(), [&](auto d) { return d >= h.sizes.size(); }))
        return h.values;
    // Memory strides from the dim order, then each element's place.
    std::vector<std::size_t> stride(h.sizes.size(), 1);
    std::size_t st = 1;
    for (std::size_t k = dimOrder.size(); k-- > 0;) {
        stride[dimOrder[k]] = st;
        st *= std::size_t(std::max<std::int64_t>(h.sizes[dimOrder[k]], 1));
    }
    std::vector<double> out(h.values.size());
    for (std::size_t e = 0; e < h.values.size(); ++e) {
        std::size_t i = e;
        std::size_t at = 0;
        for (std::size_t k = h.sizes.size(); k-- > 0;) {
            const auto n = std::size_t(std::max<std::int64_t>(h.sizes[k], 1));
            at += (i % n) * stride[k];
            i /= n;
        }
        if (at < out.size())
            out[at] = h.values[e];
    }
    return out;
}

/** A value's kind and dim order in the method: what the lines and JSON need beyond the HostTensor. */
struct ValueInfo
{
    pte::ValueKind kind = pte::ValueKind::Tensor;
    std::vector<std::uint8_t> dimOrder;
};

ValueInfo valueInfo(const pte::ExecutionPlan& plan, std::int32_t id)
{
    ValueInfo info;
    if (id < 0 || std::size_t(id) >= plan.values.size())
        return info;
    const auto& v = plan.values[std::size_t(id)];
    info.kind = v.kind();
    if (const auto* t = v.tensor())
        info.dimOrder = t->dimOrder;
    return info;
}

/** "Tensor dtype=Float sizes=[3] numel=3 values=[...] sum=... abssum=...", "Int value=2", as etrt_runner prints. */
std::string valueText(const pte::HostTensor& h, const ValueInfo& info, std::size_t print)
{
    switch (info.kind) {
    case pte::ValueKind::Int:
        return "Int value=" + (h.values.empty() ? std::string("?") : elementText(h.values.front(), h.dtype));
    case pte::ValueKind::Double:
        return "Double value=" + (h.values.empty() ? std::string("?") : g17(h.values.front()));
    case pte::ValueKind::Bool:
        return std::string("Bool value=") + (!h.values.empty() && h.values.front() != 0 ? "true" : "false");
    case pte::ValueKind::Null:
    case pte::ValueKind::None:
        return "None";
    case pte::ValueKind::String:
        return "String value=" + Json(h.text).dump(-1, ' ', false, Json::error_handler_t::replace);
    case pte::ValueKind::Tensor:
        break;
    default:
        return pte::valueKindName(info.kind);
    }
    std::string s = std::string("Tensor dtype=") + pte::runtimeScalarTypeName(h.dtype) + " sizes=" + listText(h.sizes)
        + " numel=" + std::to_string(h.values.size()) + " values=[";
    const auto memory = memoryOrder(h, info.dimOrder);
    double sum = 0;
    double abssum = 0;
    for (std::size_t i = 0; i < memory.size(); ++i) {
        sum += memory[i];
        abssum += std::fabs(memory[i]);
        if (i < print)
            s += (i ? ", " : "") + elementText(memory[i], h.dtype);
    }
    if (memory.size() > print)
        s += print ? ", ..." : "...";
    return s + "] sum=" + g9(sum) + " abssum=" + g9(abssum);
}

Json numberJson(double v, pte::ScalarType t)
{
    if (std::isnan(v))
        return "nan";
    if (std::isinf(v))
        return v > 0 ? "inf" : "-inf";
    if (!pte::isFloatingType(t))
        return static_cast<std::int64_t>(v);
    return v;
}

/** The runner's JSON of a value: {"tag": "Tensor", "dtype", "sizes", "dim_order", "values"} or {"tag", "value"}. */
Json valueJson(const pte::HostTensor& h, const ValueInfo& info)
{
    switch (info.kind) {
    case pte::ValueKind::Int:
        return Json { { "tag", "Int" },
            { "value", h.values.empty() ? Json(nullptr) : Json(static_cast<std::int64_t>(h.values.front())) } };
    case pte::ValueKind::Double:
        return Json { { "tag", "Double" },
            { "value", h.values.empty() ? Json(nullptr) : numberJson(h.values.front(), pte::ScalarType::Double) } };
    case pte::ValueKind::Bool:
        return Json { { "tag", "Bool" }, { "value", !h.values.empty() && h.values.front() != 0 } };
    case pte::ValueKind::Null:
    case pte::ValueKind::None:
        return Json { { "tag", "None" } };
    case pte::ValueKind::String:
        return Json { { "tag", "String" }, { "value", h.text } };
    case pte::ValueKind::Tensor:
        break;
    default:
        return Json { { "tag", pte::valueKindName(info.kind) } };
    }
    Json j;
    j["tag"] = "Tensor";
    j["dtype"] = pte::runtimeScalarTypeName(h.dtype);
    j["sizes"] = h.sizes;
    std::vector<int> order;
    for (std::size_t k = 0; k < h.sizes.size(); ++k)
        order.push_back(k < info.dimOrder.size() ? int(info.dimOrder[k]) : int(k));
    j["dim_order"] = order;
    Json values = Json::array();
    for (const double v : h.values)
        values.push_back(numberJson(v, h.dtype));
    j["values"] = std::move(values);
    return j;
}

/** The runner's name of why an execution or a load stopped. */
std::string stopErrorName(pte::RunStop stop, bool atInstruction)
{
    switch (stop) {
    case pte::RunStop::MissingOperator:
        return "Error::OperatorMissing";
    case pte::RunStop::Unsupported:
        return "Error::NotSupported";
    case pte::RunStop::Failed:
        return atInstruction ? "Error::InvalidProgram" : "Error::InvalidArgument";
    case pte::RunStop::Cancelled: // the CLI never cancels a run
        return "Error::Cancelled";
    case pte::RunStop::None:
        break;
    }
    return "Ok";
}

struct Settings
{
    std::vector<std::string> methods; ///< in run order
    enum class Inputs : std::uint8_t
    {
        Fill,
        Json,
        Raw,
        Bundled,
    } inputs = Inputs::Fill;
    pte::RunnerFill fill = pte::RunnerFill::Pattern;
    std::string inputsPath; ///< Json
    std::vector<std::string> rawPaths; ///< Raw
    std::optional<std::size_t> bundledCase; ///< Bundled: nullopt = all
    std::uint32_t runs = 1;
    std::size_t print = 10;
    std::string jsonPath;
    std::string etdumpPath;
    std::string debugBufferPath;
    pte::RunDebugLevel debugLevel = pte::RunDebugLevel::Intermediates;
    double rtol = pte::kBundledRtol;
    double atol = pte::kBundledAtol;
};

/** One method run (one bundled case with --bundled) and what the report says about it. */
struct Entry
{
    const pte::ExecutionPlan* plan = nullptr;
    pte::MethodRun run;
    std::optional<pte::CaseCheck> check;
};

std::string verifyText(const pte::CaseCheck& c, const Settings& s)
{
    const std::string tolerance = "rtol=" + g9(s.rtol) + " atol=" + g9(s.atol);
    if (!c.problem.empty())
        return "FAIL (" + c.problem + ")";
    if (c.ok) {
        double maxError = 0;
        for (const auto& o : c.outputs)
            maxError = std::max(maxError, o.maxAbsError);
        return "pass (" + std::to_string(c.outputs.size()) + " output(s), " + tolerance
            + ", max_abs_error=" + g9(maxError) + ")";
    }
    std::string t = "FAIL (" + tolerance + ")";
    for (const auto& o : c.outputs) {
        if (o.ok)
            continue;
        t += "; output[" + std::to_string(o.output) + "]: ";
        if (!o.problem.empty()) {
            t += o.problem;
            continue;
        }
        t += std::to_string(o.mismatched) + " of " + std::to_string(o.elements) + " element(s) outside the tolerance";
        if (o.worst)
            t += ", worst element " + std::to_string(*o.worst) + " " + listText(o.worstIndex) + ": expected "
                + g9(o.worstExpected) + ", got " + g9(o.worstActual) + ", |error| " + g9(o.worstError) + " > allowed "
                + g9(o.worstAllowed);
    }
    return t;
}

Json checkJson(const pte::CaseCheck& c)
{
    Json outputs = Json::array();
    for (const auto& o : c.outputs) {
        Json oj { { "output", o.output }, { "ok", o.ok } };
        if (!o.problem.empty())
            oj["problem"] = o.problem;
        oj["elements"] = o.elements;
        oj["mismatched"] = o.mismatched;
        oj["max_abs_error"] = numberJson(o.maxAbsError, pte::ScalarType::Float);
        if (o.worst)
            oj["worst"] = Json { { "element", *o.worst }, { "index", o.worstIndex },
                { "expected", numberJson(o.worstExpected, pte::ScalarType::Float) },
                { "actual", numberJson(o.worstActual, pte::ScalarType::Float) },
                { "error", numberJson(o.worstError, pte::ScalarType::Float) },
                { "allowed", numberJson(o.worstAllowed, pte::ScalarType::Float) } };
        outputs.push_back(std::move(oj));
    }
    Json j { { "case", c.testCase }, { "verify", c.ok ? "pass" : "fail" } };
    if (!c.problem.empty())
        j["problem"] = c.problem;
    j["outputs"] = std::move(outputs);
    return j;
}

/** The method's metadata lines, as etrt_runner prints MethodMeta. */
std::string metaText(const pte::ExecutionPlan& plan)
{
    std::string planned = "[";
    for (std::size_t i = 1; i < plan.nonConstBufferSizes.size(); ++i)
        planned += (i > 1 ? ", " : "") + std::to_string(plan.nonConstBufferSizes[i]);
    planned += "]";
    std::string backends = "[";
    for (std::size_t i = 0; i < plan.delegates.size(); ++i)
        backends += (i ? ", " : "") + plan.delegates[i].id;
    backends += "]";
    std::size_t instructions = 0;
    for (const auto& c : plan.chains)
        instructions += c.instructions.size();
    std::string t = "meta: name=" + plan.name + " num_inputs=" + std::to_string(plan.inputs.size())
        + " num_outputs=" + std::to_string(plan.outputs.size()) + " num_instructions=" + std::to_string(instructions)
        + " planned_buffers=" + planned + " backends=" + backends + "\n";
    auto line = [&](const char* what, std::size_t k, std::int32_t id) {
        t += std::string("meta.") + what + "[" + std::to_string(k) + "]: ";
        if (id < 0 || std::size_t(id) >= plan.values.size()) {
            t += "?\n";
            return;
        }
        const auto& v = plan.values[std::size_t(id)];
        const auto* tensor = v.tensor();
        if (!tensor) {
            t += std::string(pte::valueKindName(v.kind())) + "\n";
            return;
        }
        std::vector<int> order(tensor->dimOrder.begin(), tensor->dimOrder.end());
        t += std::string("Tensor dtype=") + pte::runtimeScalarTypeName(tensor->scalarType)
            + " sizes=" + listText(tensor->sizes) + " dim_order=" + listText(order)
            + " nbytes=" + std::to_string(tensor->nbytes().value_or(0))
            + " memory_planned=" + (tensor->allocationInfo ? "1" : "0") + "\n";
    };
    for (std::size_t k = 0; k < plan.inputs.size(); ++k)
        line("input", k, plan.inputs[k]);
    for (std::size_t k = 0; k < plan.outputs.size(); ++k)
        line("output", k, plan.outputs[k]);
    return t;
}

/** The operator of KernelCall `instruction` ("" otherwise). */
std::string operatorAt(const pte::ExecutionPlan& plan, std::uint32_t instruction)
{
    const auto& ins = plan.chains.front().instructions;
    if (instruction >= ins.size())
        return {};
    const auto* k = std::get_if<pte::KernelCall>(&ins[instruction].args);
    if (!k || k->opIndex < 0 || std::size_t(k->opIndex) >= plan.operators.size())
        return pte::instructionKindName(ins[instruction].kind());
    return plan.operators[std::size_t(k->opIndex)].qualifiedName();
}

/** The lines of one entry; its JSON goes to `method`. */
std::string entryText(const Entry& e, const Settings& s, Json& method)
{
    const auto& plan = *e.plan;
    const auto& run = e.run;
    std::string t = "== method: " + plan.name;
    if (run.bundledCase >= 0)
        t += " bundled_case=" + std::to_string(run.bundledCase);
    t += "\n" + metaText(plan);
    if (run.loadError) {
        t += "load_method: " + stopErrorName(run.loadStop, true) + " (" + run.loadError->message + ")\n";
        method["load"] = stopErrorName(run.loadStop, true);
        method["error"] = run.loadError->message;
        return t;
    }
    t += "load_method: Ok\n";
    method["load"] = "Ok";
    Json inputs = Json::array();
    for (std::size_t k = 0; k < run.inputs.size(); ++k) {
        const auto info = valueInfo(plan, k < plan.inputs.size() ? plan.inputs[k] : -1);
        t += "input[" + std::to_string(k) + "]: " + valueText(run.inputs[k], info, s.print)
            + (info.kind == pte::ValueKind::Tensor ? "" : " (from program)") + "\n";
        inputs.push_back(valueJson(run.inputs[k], info));
    }
    method["inputs"] = std::move(inputs);
    const pte::RunExecution* failed = nullptr;
    for (const auto& x : run.executions)
        if (!x.ok())
            failed = &x;
    if (!failed) {
        t += "execute: Ok\n";
        method["execute"] = "Ok";
        Json outputs = Json::array();
        const auto& last = run.executions.back();
        for (std::size_t k = 0; k < last.outputs.size(); ++k) {
            const auto info = valueInfo(plan, k < plan.outputs.size() ? plan.outputs[k] : -1);
            t += "output[" + std::to_string(k) + "]: " + valueText(last.outputs[k], info, s.print) + "\n";
            outputs.push_back(valueJson(last.outputs[k], info));
        }
        method["outputs"] = std::move(outputs);
        return t;
    }
    // Stopped: where, why, and the values the instructions before it wrote.
    const std::string name = stopErrorName(failed->stop, failed->stoppedAt.has_value());
    t += "execute: " + name + "\n";
    method["execute"] = name;
    method["error"] = failed->error ? failed->error->message : std::string();
    if (failed->stoppedAt) {
        t += "stopped: instruction " + std::to_string(*failed->stoppedAt)
            + (failed->stoppedOperator.empty() ? "" : " (" + failed->stoppedOperator + ")") + ": "
            + (failed->error ? failed->error->message : std::string()) + "\n";
        method["stopped_at"] = Json { { "instruction", *failed->stoppedAt },
            { "operator", failed->stoppedOperator.empty() ? Json(nullptr) : Json(failed->stoppedOperator) },
            { "reason", pte::runStopName(failed->stop) } };
    } else {
        t += "stopped: " + (failed->error ? failed->error->message : std::string()) + "\n";
    }
    if (run.executions.size() > 1)
        method["run"] = run.executions.size();
    Json computed = Json::array();
    for (const auto& ri : failed->instructions)
        for (const auto& v : ri.outputs) {
            const auto info = valueInfo(plan, v.value);
            const std::string op = operatorAt(plan, ri.instruction);
            for (std::size_t i = 0; i < v.tensors.size(); ++i) {
                ValueInfo item = info;
                if (info.kind == pte::ValueKind::TensorList) {
                    const auto* list = std::get_if<pte::TensorList>(&plan.values[std::size_t(v.value)].val);
                    item = valueInfo(plan, list && i < list->items.size() ? list->items[i] : -1);
                }
                const std::string label = "instruction[" + std::to_string(ri.instruction) + "] " + op + " value["
                    + std::to_string(v.value) + "]" + (v.tensors.size() > 1 ? "[" + std::to_string(i) + "]" : "");
                t += "computed: " + label + ": " + valueText(v.tensors[i], item, s.print) + "\n";
                Json cj = valueJson(v.tensors[i], item);
                cj["instruction"] = ri.instruction;
                cj["operator"] = op;
                cj["value"] = v.value;
                computed.push_back(std::move(cj));
            }
        }
    method["computed"] = std::move(computed);
    return t;
}

std::optional<std::size_t> parseCount(const QString& text, std::size_t max)
{
    bool ok = false;
    const qulonglong n = text.toULongLong(&ok);
    if (!ok || n > max)
        return std::nullopt;
    return std::size_t(n);
}

int usage(const std::string& message)
{
    std::fprintf(stderr, "%s: %s\n", invocation(kCommand).c_str(), message.c_str());
    return ExitUsage;
}

int runRun(const QStringList& args)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Runs methods of a program on ptelens' reference interpreter and reports them as ExecuTorch's etrt_runner "
        "does: each input and output on a line (the first --print values in memory order, sum and abssum), and with "
        "--json the same JSON result etrt_runner --json writes (keys, %.9g floats, \"nan\"/\"inf\" strings, "
        "exit_code), so one script reads both. PROGRAM is a .pte, a bundled program (.bpte/.bp) or a graph dump "
        "(.pt2, JSON, ETRecord) emitted first. Inputs default to etrt_runner's --fill pattern. An instruction the "
        "interpreter cannot run (an operator it has no kernel for, a delegate of another backend than XNNPACK, an "
        "XNNPACK node kind it does not know) stops the method there: the "
        "report names the instruction and its operator and lists the values the instructions before it wrote.\n"
        "Exit codes: 0 every method ran (and every bundled case passed); 1 invalid input (an unreadable or invalid "
        "file or inputs, a method the interpreter refuses as the runtime would, a bundled case that failed); 2 "
        "usage; 3 internal error or an output that could not be written; 4 the interpreter lacks an operator, "
        "delegate or dtype the program needs (1 wins over 4)."));
    parser.addHelpOption();
    parser.addPositionalArgument(QStringLiteral("PROGRAM"),
        QStringLiteral("The .pte, bundled program, or graph dump (.pt2, JSON, ETRecord) emitted first."));
    const QCommandLineOption methodOpt(QStringLiteral("method"),
        QStringLiteral("Run this method (repeatable, run in the order given; default: every method, in program "
                       "order; with --bundled, every method with test cases)."),
        QStringLiteral("NAME"));
    const QCommandLineOption inputsOpt(QStringLiteral("inputs"),
        QStringLiteral("Input values from etrt_runner's JSON ({\"method\": [values of input 0, null, ...]}); "
                       "inputs it does not give keep the --fill rule."),
        QStringLiteral("FILE.json"));
    const QCommandLineOption rawOpt(QStringLiteral("inputs-raw"),
        QStringLiteral("Input tensors from raw files, as ExecuTorch's executor_runner --inputs takes them: one file "
                       "per tensor input, comma separated, each numel x element size little-endian bytes in the "
                       "input's memory order (non-tensor inputs keep the program's value)."),
        QStringLiteral("A.bin,B.bin"));
    const QCommandLineOption fillOpt(QStringLiteral("fill"),
        QStringLiteral("etrt_runner's fill for tensor inputs given no values: pattern (default: element i of input "
                       "k is 0.1*((i+k)%7)+0.5 if floating, (i+k)%5 if integer, (i+k)%2 if Bool), ones or zeros."),
        QStringLiteral("RULE"));
    const QCommandLineOption bundledOpt(QStringLiteral("bundled"),
        QStringLiteral("Run a bundled program's test case N (or all of them) and check the outputs against the "
                       "expected ones as ExecuTorch's verify_method_outputs does (|expected - actual| <= atol + "
                       "|rtol * actual| for Float, Double, Half; other dtypes equal); exit 1 when a case fails."),
        QStringLiteral("N|all"));
    const QCommandLineOption rtolOpt(QStringLiteral("rtol"),
        QStringLiteral("Relative tolerance of --bundled (default 1e-5, ExecuTorch's; bundled programs store none)."),
        QStringLiteral("R"));
    const QCommandLineOption atolOpt(QStringLiteral("atol"),
        QStringLiteral("Absolute tolerance of --bundled (default 1e-8, ExecuTorch's)."), QStringLiteral("A"));
    const QCommandLineOption jsonOpt(QStringLiteral("json"),
        QStringLiteral("Also write etrt_runner's JSON result (every input and output value) to OUT."),
        QStringLiteral("OUT.json"));
    const QCommandLineOption runsOpt(QStringLiteral("runs"),
        QStringLiteral("Execute each method N times from the same inputs (1 to 1000000); the outputs are the last "
                       "execution's."),
        QStringLiteral("N"));
    const QCommandLineOption etdumpOpt(QStringLiteral("etdump"),
        QStringLiteral("Write the ETDump of the run as etrt_runner --etdump writes it (blocks, events and times per "
                       "instruction), with every value each kernel wrote and the outputs (as --debug-level "
                       "intermediates); `profile` and the GUI open it."),
        QStringLiteral("OUT.etdp"));
    const QCommandLineOption bufferOpt(QStringLiteral("debug-buffer"),
        QStringLiteral("Where the logged tensors' bytes go (default: OUT.bin beside the ETDump)."),
        QStringLiteral("OUT.bin"));
    const QCommandLineOption levelOpt(QStringLiteral("debug-level"),
        QStringLiteral("What the ETDump logs: intermediates (default), outputs or none."), QStringLiteral("LEVEL"));
    const QCommandLineOption printOpt(QStringLiteral("print"),
        QStringLiteral("How many values each line shows (default 10; all)."), QStringLiteral("N|all"));
    const QCommandLineOption ptdOpt(QStringLiteral("ptd"),
        QStringLiteral("External data (.ptd) for named constants (default: a .ptd next to PROGRAM)."),
        QStringLiteral("DATA"));
    parser.addOptions({ methodOpt, inputsOpt, rawOpt, fillOpt, bundledOpt, rtolOpt, atolOpt, jsonOpt, runsOpt,
        etdumpOpt, bufferOpt, levelOpt, printOpt, ptdOpt });
    if (const auto done = parseArguments(parser, args, kCommand, 1, "exactly one program"))
        return *done;

    Settings s;
    for (const auto& m : parser.values(methodOpt))
        s.methods.push_back(m.toStdString());
    const int sources = int(parser.isSet(inputsOpt)) + int(parser.isSet(rawOpt)) + int(parser.isSet(bundledOpt));
    if (sources > 1)
        return usage("--inputs, --inputs-raw and --bundled exclude each other");
    if (parser.isSet(fillOpt)) {
        const auto f = parser.value(fillOpt);
        bool found = false;
        for (const auto fill : { pte::RunnerFill::Pattern, pte::RunnerFill::Ones, pte::RunnerFill::Zeros })
            if (f == QLatin1String(pte::runnerFillName(fill))) {
                s.fill = fill;
                found = true;
            }
        if (!found)
            return usage("--fill takes pattern, ones or zeros, not '" + f.toStdString() + "'");
        if (parser.isSet(rawOpt) || parser.isSet(bundledOpt))
            return usage("--fill goes with --inputs or alone, not with --inputs-raw or --bundled");
    }
    if (parser.isSet(inputsOpt)) {
        s.inputs = Settings::Inputs::Json;
        s.inputsPath = parser.value(inputsOpt).toStdString();
    } else if (parser.isSet(rawOpt)) {
        s.inputs = Settings::Inputs::Raw;
        const auto value = parser.value(rawOpt);
        if (!value.isEmpty())
            for (const auto& p : value.split(QLatin1Char(',')))
                s.rawPaths.push_back(p.toStdString());
    } else if (parser.isSet(bundledOpt)) {
        s.inputs = Settings::Inputs::Bundled;
        const auto v = parser.value(bundledOpt);
        if (v != QLatin1String("all")) {
            s.bundledCase = parseCount(v, std::numeric_limits<std::uint32_t>::max());
            if (!s.bundledCase)
                return usage("--bundled takes a test case number or 'all', not '" + v.toStdString() + "'");
        }
    }
    for (const auto& [opt, target] : { std::pair { &rtolOpt, &s.rtol }, std::pair { &atolOpt, &s.atol } }) {
        if (!parser.isSet(*opt))
            continue;
        bool ok = false;
        *target = parser.value(*opt).toDouble(&ok);
        if (!ok || !(*target >= 0) || !std::isfinite(*target))
            return usage("--" + opt->names().front().toStdString() + " takes a number >= 0");
        if (!parser.isSet(bundledOpt))
            return usage("--rtol and --atol go with --bundled");
    }
    if (parser.isSet(runsOpt)) {
        const auto n = parseCount(parser.value(runsOpt), 1000000);
        if (!n || *n == 0)
            return usage("--runs takes a number from 1 to 1000000");
        s.runs = std::uint32_t(*n);
    }
    if (parser.isSet(printOpt)) {
        if (parser.value(printOpt) == QLatin1String("all")) {
            s.print = std::numeric_limits<std::size_t>::max();
        } else {
            const auto n = parseCount(parser.value(printOpt), std::numeric_limits<std::uint32_t>::max());
            if (!n)
                return usage("--print takes a number or 'all'");
            s.print = *n;
        }
    }
    if (parser.isSet(jsonOpt))
        s.jsonPath = parser.value(jsonOpt).toStdString();
    if (parser.isSet(etdumpOpt)) {
        s.etdumpPath = parser.value(etdumpOpt).toStdString();
        if (parser.isSet(levelOpt)) {
            const auto l = parser.value(levelOpt);
            if (l == QLatin1String("none"))
                s.debugLevel = pte::RunDebugLevel::None;
            else if (l == QLatin1String("outputs"))
                s.debugLevel = pte::RunDebugLevel::Outputs;
            else if (l != QLatin1String("intermediates"))
                return usage("--debug-level takes intermediates, outputs or none");
        }
        if (parser.isSet(bufferOpt)) {
            s.debugBufferPath = parser.value(bufferOpt).toStdString();
        } else if (s.debugLevel != pte::RunDebugLevel::None) {
            const auto slash = s.etdumpPath.find_last_of('/');
            const auto dot = s.etdumpPath.find_last_of('.');
            s.debugBufferPath =
                (dot != std::string::npos && (slash == std::string::npos || dot > slash) ? s.etdumpPath.substr(0, dot)
                                                                                         : s.etdumpPath)
                + ".bin";
        }
        if (s.debugLevel == pte::RunDebugLevel::None && parser.isSet(bufferOpt))
            return usage("--debug-buffer needs a --debug-level other than none");
    } else if (parser.isSet(bufferOpt) || parser.isSet(levelOpt)) {
        return usage("--debug-buffer and --debug-level go with --etdump");
    }

    const std::string path = parser.positionalArguments().front().toStdString();
    Json report;
    report["file"] = path;
    report["runtime"] = "ptelens reference interpreter";
    report["executorch_commit"] = nullptr;
    report["planned_fill"] = 0xA5; // the interpreter's planned memory starts as 0xA5 bytes, never zeros
    if (s.runs != 1)
        report["runs"] = s.runs;
    report["methods"] = Json::object();
    std::string text = "file: " + path
        + "\nruntime: ptelens reference interpreter (ExecuTorch program semantics; "
          "portable kernels in C++, XNNPACK delegates interpreted)\n";
    // Ends the run: the result line, the JSON (when asked) and the exit code.
    auto finish = [&](int exitCode, const std::string& result, const std::string& detail) -> int {
        text += "result: " + detail + "\n";
        printOut(text);
        text.clear();
        report["result"] = result;
        report["detail"] = detail;
        report["exit_code"] = exitCode;
        if (!s.jsonPath.empty()) {
            const std::string body = runnerJsonText(report);
            const std::span<const std::uint8_t> bytes(reinterpret_cast<const std::uint8_t*>(body.data()), body.size());
            if (auto w = pte::writeFileAtomically(s.jsonPath, bytes); !w) {
                printError(w.error());
                return ExitInternal;
            }
        }
        return exitCode;
    };
    auto inputError = [&](const pte::Error& e, const char* result) {
        printError(e);
        return finish(e.code == pte::ErrorCode::Internal ? ExitInternal : ExitInvalidInput, result,
            std::string(result) + " (" + e.message + ")");
    };

    std::optional<pte::Bytes> inputsText;
    if (s.inputs == Settings::Inputs::Json) {
        auto bytes = pte::mapFile(s.inputsPath);
        if (!bytes)
            return inputError(bytes.error(), "open_failed");
        inputsText = *bytes;
    }
    // A --ptd that cannot be read ends the run before the program is opened, as the runner's --data does (the
    // reader would only note it, and every method would then fail to load for want of its constants).
    if (parser.isSet(ptdOpt))
        if (auto ptd = pte::readPtdFile(parser.value(ptdOpt).toStdString()); !ptd)
            return inputError(ptd.error(), "open_failed");
    // A .pte or bundled program as read, or a graph dump emitted first (as `diff` opens its sides).
    std::shared_ptr<const pte::PteFile> file;
    std::shared_ptr<const pte::Program> programHolder;
    bool emitted = false;
    {
        pte::DiffSideOptions sideOptions;
        if (parser.isSet(ptdOpt))
            sideOptions.externalDataPath = parser.value(ptdOpt).toStdString();
        auto opened = pte::openDiffSide(path, sideOptions);
        if (!opened)
            return inputError(opened.error(), "open_failed");
        file = opened->file;
        programHolder = opened->program;
        emitted = opened->emitted != nullptr;
    }
    const pte::Program& program = *programHolder;
    const pte::BundledProgram* bundled = file ? file->bundled.get() : nullptr;
    const pte::ExternalData* external = file && file->externalData ? &*file->externalData : nullptr;
    if (emitted)
        text += "emitted: " + path + " (a graph dump, emitted with the default options)\n";
    std::string names;
    for (std::size_t i = 0; i < program.executionPlan.size(); ++i)
        names += (i ? ", " : "") + program.executionPlan[i].name;
    text += "methods: num=" + std::to_string(program.executionPlan.size()) + " names=[" + names + "]\n";

    if (s.inputs == Settings::Inputs::Bundled && !bundled)
        return inputError(pte::makeError(pte::ErrorCode::InvalidInput,
                              path + ": --bundled needs a bundled program (.bpte, .bp); this is not one"),
            "usage_error");
    if (s.methods.empty()) {
        for (const auto& plan : program.executionPlan)
            if (s.inputs != Settings::Inputs::Bundled || bundled->suite(plan.name))
                s.methods.push_back(plan.name);
        if (s.methods.empty())
            return inputError(pte::makeError(pte::ErrorCode::InvalidInput,
                                  path + ": "
                                      + (program.executionPlan.empty() ? "the program has no method"
                                                                       : "no method has bundled test cases")),
                "usage_error");
    }
    for (const auto& m : s.methods)
        if (!program.method(m))
            return inputError(pte::makeError(pte::ErrorCode::InvalidInput,
                                  path + ": the program has no method '" + m + "' (it has " + names + ")"),
                "method_load_failed");

    // Every method's inputs, before any method runs (as the runner checks its --inputs file).
    struct Planned
    {
        const pte::ExecutionPlan* plan = nullptr;
        std::vector<pte::HostTensor> inputs;
        std::int32_t bundledCase = -1;
    };
    std::vector<Planned> planned;
    std::vector<std::string> jsonMethods;
    for (const auto& m : s.methods) {
        const pte::ExecutionPlan& plan = *program.method(m);
        switch (s.inputs) {
        case Settings::Inputs::Fill:
            planned.push_back({ &plan, pte::runnerFillInputs(plan, s.fill).values, -1 });
            break;
        case Settings::Inputs::Json: {
            const std::string_view body(reinterpret_cast<const char*>(inputsText->data()), inputsText->size());
            auto in = pte::runnerJsonInputs(program, m, body, s.inputsPath, s.fill);
            if (!in)
                return inputError(in.error(), "usage_error");
            planned.push_back({ &plan, std::move(in->values), -1 });
            break;
        }
        case Settings::Inputs::Raw: {
            auto in = pte::rawFileInputs(plan, s.rawPaths);
            if (!in)
                return inputError(in.error(), in.error().code == pte::ErrorCode::Io ? "open_failed" : "usage_error");
            planned.push_back({ &plan, std::move(in->values), -1 });
            break;
        }
        case Settings::Inputs::Bundled: {
            const auto* suite = bundled->suite(m);
            const std::size_t cases = suite ? suite->testCases.size() : 0;
            if (cases == 0 || (s.bundledCase && *s.bundledCase >= cases))
                return inputError(
                    pte::makeError(pte::ErrorCode::InvalidInput,
                        path + ": method '" + m + "' has " + std::to_string(cases) + " bundled test case(s)"
                            + (s.bundledCase ? "; there is no case " + std::to_string(*s.bundledCase) : std::string())),
                    "usage_error");
            for (std::size_t c = s.bundledCase.value_or(0); c < (s.bundledCase ? *s.bundledCase + 1 : cases); ++c) {
                auto in = pte::bundledInputs(*bundled, plan, c);
                if (!in)
                    return inputError(pte::makeError(in.error().code, path + ": " + in.error().message), "usage_error");
                planned.push_back({ &plan, std::move(in->values), std::int32_t(c) });
            }
            break;
        }
        }
    }
    if (s.inputs == Settings::Inputs::Json) {
        const auto doc = Json::parse(
            std::string_view(reinterpret_cast<const char*>(inputsText->data()), inputsText->size()), nullptr, false);
        std::string given;
        if (doc.is_object())
            for (const auto& [key, value] : doc.items())
                given += (given.empty() ? "" : ", ") + key;
        text += "inputs: " + s.inputsPath + " Ok methods=[" + given + "]\n";
    }

    // Run them.
    pte::RunOptions options;
    options.runs = s.runs;
    options.intermediates = true; // the values computed so far, when an instruction stops the run
    options.recordEveryExecution = !s.etdumpPath.empty();
    options.external = external;
    std::vector<Entry> entries;
    for (auto& p : planned) {
        Entry e;
        e.plan = p.plan;
        e.run = pte::runMethod(program, p.plan->name, p.inputs, options);
        e.run.bundledCase = p.bundledCase;
        if (p.bundledCase >= 0 && e.run.ok()) {
            auto check = pte::checkBundledCase(
                *bundled, *p.plan, std::size_t(p.bundledCase), e.run.executions.back().outputs, s.rtol, s.atol);
            if (!check)
                return inputError(check.error(), "usage_error");
            e.check = std::move(check).value();
        }
        entries.push_back(std::move(e));
    }

    // The report, method by method; bundled cases of one method share its JSON entry.
    bool invalid = false;
    bool unsupported = false;
    std::vector<std::string> loadFailures, executeFailures, verifyFailures;
    std::size_t executed = 0;
    for (std::size_t i = 0; i < entries.size(); ++i) {
        const Entry& e = entries[i];
        Json method;
        text += entryText(e, s, method);
        const auto stop = e.run.stop();
        invalid = invalid || stop == pte::RunStop::Failed;
        unsupported = unsupported || stop == pte::RunStop::MissingOperator || stop == pte::RunStop::Unsupported;
        if (e.run.loadError) {
            loadFailures.push_back(e.plan->name + ": " + stopErrorName(e.run.loadStop, true));
        } else if (!e.run.ok()) {
            const auto& x = e.run.executions.back();
            std::string entry = e.plan->name + ": " + stopErrorName(x.stop, x.stoppedAt.has_value());
            if (x.stoppedAt)
                entry += " at instruction " + std::to_string(*x.stoppedAt)
                    + (x.stoppedOperator.empty() ? "" : " " + x.stoppedOperator);
            if (s.runs > 1)
                entry += " (run " + std::to_string(e.run.executions.size()) + " of " + std::to_string(s.runs) + ")";
            executeFailures.push_back(entry);
        } else {
            ++executed;
        }
        if (e.check) {
            text += "verify: " + verifyText(*e.check, s) + "\n";
            if (!e.check->ok) {
                invalid = true;
                verifyFailures.push_back(e.plan->name + " case " + std::to_string(e.check->testCase));
            }
        }
        if (e.run.bundledCase >= 0) {
            // One entry per method: the last case's values, and every case's result.
            Json caseJson { { "case", e.run.bundledCase } };
            for (const auto& [k, v] : method.items())
                if (k != "load")
                    caseJson[k] = v;
            if (e.check) {
                const Json check = checkJson(*e.check);
                for (const auto& [k, v] : check.items())
                    if (k != "case")
                        caseJson[k] = v;
            }
            Json& m = report["methods"][e.plan->name];
            Json cases = m.is_object() && m.contains("bundled_cases") ? m["bundled_cases"] : Json::array();
            cases.push_back(std::move(caseJson));
            method["bundled_cases"] = std::move(cases);
            m = std::move(method);
        } else {
            report["methods"][e.plan->name] = std::move(method);
        }
    }

    // The ETDump.
    if (!s.etdumpPath.empty()) {
        std::vector<pte::MethodRun> runs;
        for (const auto& e : entries)
            runs.push_back(e.run);
        auto dump = pte::runEtdump(program, runs, s.debugLevel);
        if (!dump) {
            printError(dump.error());
            return finish(ExitInternal, "etdump_failed", "etdump_failed (" + dump.error().message + ")");
        }
        if (auto w = pte::writeFileAtomically(s.etdumpPath, dump->etdump); !w) {
            printError(w.error());
            return finish(ExitInternal, "open_failed", "open_failed (--etdump " + s.etdumpPath + ")");
        }
        Json ej { { "path", s.etdumpPath }, { "bytes", dump->etdump.size() } };
        text += "etdump: " + s.etdumpPath + " bytes=" + std::to_string(dump->etdump.size());
        if (s.debugLevel != pte::RunDebugLevel::None) {
            if (auto w = pte::writeFileAtomically(s.debugBufferPath, dump->debugBuffer); !w) {
                printError(w.error());
                return finish(ExitInternal, "open_failed", "open_failed (--debug-buffer " + s.debugBufferPath + ")");
            }
            const char* level = s.debugLevel == pte::RunDebugLevel::Outputs ? "outputs" : "intermediates";
            text += " debug_buffer=" + s.debugBufferPath + " debug_bytes=" + std::to_string(dump->debugBuffer.size())
                + " debug_level=" + level;
            ej["debug_buffer"] = s.debugBufferPath;
            ej["debug_bytes"] = dump->debugBuffer.size();
            ej["debug_level"] = level;
        }
        text += "\n";
        report["etdump"] = std::move(ej);
    }

    auto joined = [](const std::vector<std::string>& v) {
        std::string all;
        for (const auto& x : v)
            all += (all.empty() ? "" : ", ") + x;
        return all;
    };
    const int exitCode = invalid ? ExitInvalidInput : unsupported ? ExitUnsupported : ExitOk;
    if (!loadFailures.empty()) {
        std::string detail = "method_load_failed (" + joined(loadFailures) + ")";
        if (!executeFailures.empty())
            detail += "; execute_failed: " + joined(executeFailures);
        return finish(exitCode, "method_load_failed", detail);
    }
    if (!executeFailures.empty())
        return finish(exitCode, "execute_failed", "execute_failed (" + joined(executeFailures) + ")");
    if (!verifyFailures.empty())
        return finish(exitCode, "verify_failed", "verify_failed (" + joined(verifyFailures) + ")");
    std::size_t cases = 0;
    for (const auto& e : entries)
        cases += e.check ? 1 : 0;
    return finish(exitCode, "ok",
        "ok (" + std::to_string(executed) + " method(s) executed"
            + (cases ? ", " + std::to_string(cases) + " bundled test case(s) passed" : std::string()) + ")");
}

} // namespace

PTELENS_REGISTER_COMMAND(
    run, "run", "Run methods on ptelens' reference interpreter, as ExecuTorch's runner reports them", runRun);

} // namespace pte::cli
