// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// `ptelens-cli run` against ExecuTorch's own runtime (etrt_runner) on every program of the corpus ($PTELENS_CORPUS:
// pte/ and all-ops/, .pte and .bpte): both run every method with `--fill pattern` (the inputs both generate, which
// must be identical) and write their --json result; every output must agree: same tag, dtype and shape, integers
// and bools equal, floats within 1e-5 relative (see kAbsoluteFloor), NaN matching NaN. A bundled program's inner
// program goes to the runtime (which reads no BP08 wrapper); a program with its external data (.ptd) next to it gets
// that .ptd on both sides. A method the runtime does not run (a delegate backend it lacks, a missing operator, a
// corrupt file, missing external data) is not compared: the test records the runtime's reason and checks that
// ptelens-cli does not report a success for it either, and that it stops for the same reason where one can be named
// (the same missing operator; at or before the first DelegateCall for a missing backend). XNNPACK delegates, which
// etrt_runner lacks, are the exception: ptelens interprets their graphs (tst_xnnpack_interpreter compares those
// outputs with etrt_runner_xnnpack's), so it may run such a method or stop naming the kernel or node it lacks.
// A --ptd / --data that cannot be read ends the run on both sides before any method.
#include "etrunner.h"
#include "pte/bundledprogram.h"
#include "pte/ptereader.h"
#include "testutils.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

using namespace pte;
using Json = nlohmann::json;

namespace {

constexpr double kRelative = 1e-5; // issue 22's "floats within 1e-5 relative"
/**
 * The absolute floor below which a float difference always passes. The fill pattern's inputs lie in [0.5, 1.1], so the
 * corpus programs' values are O(1); an output near 0 comes from the cancellation of O(1) terms (a normalisation, a
 * difference), where float32 rounding (one ulp at 1.0 is 1.19e-7) leaves an absolute error of a few ulps that a purely
 * relative test would reject however small it is. 1e-6 is about 8 ulps at 1.0: room for a few differently ordered
 * float32 roundings, and still 10x tighter than 1e-5 relative at magnitude 1. (Measured on the corpus: the largest
 * difference is 1.1e-6 on an output of magnitude 0.45, native_layer_norm, which the relative bound already allows.)
 */
constexpr double kAbsoluteFloor = 1e-6;

/** What the whole run compared, for the summary printed at the end. */
struct Totals
{
    std::size_t programs = 0; ///< programs with at least one method compared
    std::size_t methods = 0;
    std::size_t outputs = 0;
    std::size_t elements = 0;
    std::vector<std::string> notRun; ///< "program method: runtime's reason | ptelens: its report"
};

Totals& totals()
{
    static Totals t;
    return t;
}

Json readJson(const QString& path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return Json();
    const QByteArray text = f.readAll();
    return Json::parse(text.constData(), text.constData() + text.size(), nullptr, false);
}

/** A --json element: a number, a bool (0/1), or "nan" / "-nan" / "inf" / "-inf". */
double number(const Json& v)
{
    if (v.is_number())
        return v.get<double>();
    if (v.is_boolean())
        return v.get<bool>() ? 1 : 0;
    if (v.is_string()) {
        const auto s = v.get<std::string>();
        if (s == "inf")
            return std::numeric_limits<double>::infinity();
        if (s == "-inf")
            return -std::numeric_limits<double>::infinity();
    }
    return std::numeric_limits<double>::quiet_NaN();
}

bool isFloating(const std::string& dtype)
{
    return dtype == "Float" || dtype == "Double" || dtype == "Half" || dtype == "BFloat16";
}

bool sameElement(double a, double b, bool floating)
{
    if (std::isnan(a) || std::isnan(b))
        return std::isnan(a) && std::isnan(b);
    if (a == b)
        return true;
    if (!floating || std::isinf(a) || std::isinf(b))
        return false;
    return std::fabs(a - b) <= kRelative * std::max(std::fabs(a), std::fabs(b)) + kAbsoluteFloor;
}

/** The first difference between two values of the --json format (runtime `a`, ptelens `b`), or nullopt. `exact`
 *  compares floats exactly (the inputs both generate). Counts the tensor elements compared. */
std::optional<std::string> valueDifference(const Json& a, const Json& b, bool exact, std::size_t* elements = nullptr)
{
    const std::string tag = a.value("tag", std::string());
    if (tag != b.value("tag", std::string()))
        return "tag " + b.value("tag", std::string()) + ", runtime's " + tag;
    if (tag != "Tensor") {
        if (!a.contains("value") && !a.contains("values"))
            return std::nullopt; // None
        const Json& va = a.contains("value") ? a["value"] : a["values"];
        const Json& vb = b.contains("value") ? b["value"] : b["values"];
        if (va.is_array() || vb.is_array())
            return va == vb ? std::nullopt
                            : std::optional<std::string>(tag + " " + vb.dump() + ", runtime's " + va.dump());
        if (va.is_string() && tag == "String")
            return va == vb ? std::nullopt
                            : std::optional<std::string>("String " + vb.dump() + ", runtime's " + va.dump());
        if (!sameElement(number(va), number(vb), tag == "Double" && !exact))
            return tag + " " + vb.dump() + ", runtime's " + va.dump();
        return std::nullopt;
    }
    const std::string dtype = a.value("dtype", std::string());
    if (dtype != b.value("dtype", std::string()))
        return "dtype " + b.value("dtype", std::string()) + ", runtime's " + dtype;
    if (a.value("sizes", Json()) != b.value("sizes", Json()))
        return "sizes " + b.value("sizes", Json()).dump() + ", runtime's " + a.value("sizes", Json()).dump();
    const Json va = a.value("values", Json());
    const Json vb = b.value("values", Json());
    if (!va.is_array() || !vb.is_array())
        return va.is_array() || vb.is_array() ? std::optional<std::string>(
                   "values " + vb.dump(-1).substr(0, 80) + ", runtime's " + va.dump(-1).substr(0, 80))
                                              : std::nullopt;
    if (va.size() != vb.size())
        return std::to_string(vb.size()) + " values, runtime's " + std::to_string(va.size());
    const bool floating = isFloating(dtype) && !exact;
    for (std::size_t i = 0; i < va.size(); ++i) {
        const double x = number(va[i]);
        const double y = number(vb[i]);
        if (!sameElement(x, y, floating)) {
            char buf[160];
            std::snprintf(
                buf, sizeof buf, "element %zu of %zu (%s): %.9g, runtime's %.9g", i, va.size(), dtype.c_str(), y, x);
            return std::string(buf);
        }
    }
    if (elements)
        *elements += va.size();
    return std::nullopt;
}

/** ExecuTorch's first error log line (stderr "E 00:00:00.000345 executorch:...] message"), without its prefix. */
std::string runtimeLogError(const QByteArray& log)
{
    for (const auto& line : log.split('\n')) {
        if (!line.startsWith("E ") || line.contains("!!DEPRECATED!!"))
            continue;
        const auto bracket = line.indexOf("] ");
        return (bracket >= 0 ? line.mid(bracket + 2) : line).trimmed().toStdString();
    }
    return {};
}

/** Between `before` and `after` in `text` ("kernel 'X' not found" -> X), or empty. */
std::string between(const std::string& text, const std::string& before, const std::string& after)
{
    const auto from = text.find(before);
    if (from == std::string::npos)
        return {};
    const auto start = from + before.size();
    const auto end = text.find(after, start);
    return end == std::string::npos ? std::string() : text.substr(start, end - start);
}

/** Whether every delegate of `method` is an XNNPACK one (which the reference interpreter runs). */
bool onlyXnnpackDelegates(const Program* program, const std::string& method)
{
    const ExecutionPlan* plan = program ? program->method(method) : nullptr;
    return plan && !plan->delegates.empty()
        && std::all_of(plan->delegates.begin(), plan->delegates.end(),
            [](const BackendDelegate& d) { return d.id == "XnnpackBackend"; });
}

/** The index of the first DelegateCall in `method`'s first chain. */
std::optional<std::size_t> firstDelegateCall(const Program* program, const std::string& method)
{
    const ExecutionPlan* plan = program ? program->method(method) : nullptr;
    if (!plan || plan->chains.empty())
        return std::nullopt;
    const auto& ins = plan->chains.front().instructions;
    for (std::size_t i = 0; i < ins.size(); ++i)
        if (std::holds_alternative<DelegateCall>(ins[i].args))
            return i;
    return std::nullopt;
}

std::string ptelensReport(const Json& method)
{
    std::string r = "load " + method.value("load", std::string("?"));
    if (method.contains("execute"))
        r += ", execute " + method.value("execute", std::string());
    if (method.contains("stopped_at") && method["stopped_at"].is_object()) {
        const Json& s = method["stopped_at"];
        r += " at instruction " + std::to_string(s.value("instruction", -1));
        if (s.contains("operator") && s["operator"].is_string())
            r += " (" + s["operator"].get<std::string>() + ")";
    }
    if (method.contains("error") && method["error"].is_string())
        r += ": " + method["error"].get<std::string>();
    return r;
}

} // namespace

class TestRunVsRuntime : public QObject
{
    Q_OBJECT

private slots:
    void cleanupTestCase();
    void programMatchesRuntime_data();
    void programMatchesRuntime();
    void unreadablePtdEndsTheRunOnBothSides();
};

void TestRunVsRuntime::cleanupTestCase()
{
    const Totals& t = totals();
    if (t.programs == 0 && t.notRun.empty())
        return;
    qInfo("ptelens-cli run vs etrt_runner (--fill pattern): %zu programs compared, %zu methods, %zu outputs (%zu "
          "elements); %zu methods not run by the runtime:",
        t.programs, t.methods, t.outputs, t.elements, t.notRun.size());
    for (const auto& n : t.notRun)
        qInfo("  not run: %s", n.c_str());
}

void TestRunVsRuntime::programMatchesRuntime_data()
{
    QTest::addColumn<QString>("program");
    if (!test::corpusRowsAvailable())
        return;
    QStringList programs;
    for (const auto& folder : { QStringLiteral("pte"), QStringLiteral("all-ops") }) {
        QDirIterator it(test::corpusPath(folder), { QStringLiteral("*.pte"), QStringLiteral("*.bpte") }, QDir::Files,
            QDirIterator::Subdirectories);
        while (it.hasNext())
            programs << it.next();
    }
    programs.sort();
    // The guard row: a corpus without programs is a broken corpus, not a passing test.
    if (programs.isEmpty())
        QTest::newRow("corpus (no .pte or .bpte under pte/ and all-ops/)") << QString();
    const QString root = test::corpusDir() + QLatin1Char('/');
    for (const auto& p : programs)
        QTest::newRow(("corpus/" + QString(p).remove(0, root.size())).toUtf8().constData()) << p;
}

void TestRunVsRuntime::programMatchesRuntime()
{
    PTE_REQUIRE_CORPUS_ROW();
    PTE_REQUIRE_ET_RUNNER();
    QFETCH(QString, program);
    QVERIFY2(!program.isEmpty(), "the corpus holds no program under pte/ or all-ops/");
    const std::string name = QFileInfo(program).fileName().toStdString();

    // What ptelens reads: the .ptd it takes from next to the program (given to both sides), a bundled program's
    // inner program (for the runtime).
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const auto file = readPteFile(program.toStdString());
    const Program* parsed = file ? (*file)->program.get() : nullptr;
    QString runtimeProgram = program;
    QStringList runnerData, cliData;
    if (file && (*file)->externalData) {
        runnerData << QStringLiteral("--data") << QString::fromStdString((*file)->externalData->path);
        cliData << QStringLiteral("--ptd") << QString::fromStdString((*file)->externalData->path);
    }
    if (file && (*file)->bundled) {
        const Bytes inner = (*file)->bundled->program();
        runtimeProgram = dir.filePath(QStringLiteral("inner.pte"));
        QFile f(runtimeProgram);
        QVERIFY(f.open(QIODevice::WriteOnly));
        QCOMPARE(f.write(reinterpret_cast<const char*>(inner.data()), qint64(inner.size())), qint64(inner.size()));
    }

    const QString a = dir.filePath(QStringLiteral("runtime.json"));
    const QString b = dir.filePath(QStringLiteral("ptelens.json"));
    QByteArray runnerOut, runnerErr, cliOut, cliErr;
    const int runnerCode = test::runProgram(test::etRunnerPath(),
        QStringList { QStringLiteral("--fill"), QStringLiteral("pattern"), QStringLiteral("--print"),
            QStringLiteral("0"), QStringLiteral("--json"), a }
            + runnerData + QStringList { runtimeProgram },
        &runnerOut, &runnerErr);
    const int cliCode =
        test::runCli(QStringList { QStringLiteral("run"), QStringLiteral("--fill"), QStringLiteral("pattern"),
                         QStringLiteral("--print"), QStringLiteral("0"), QStringLiteral("--json"), b }
                + cliData + QStringList { program },
            &cliOut, &cliErr);
    const Json runtime = readJson(a);
    const Json ptelens = readJson(b);
    QVERIFY2(runtime.is_object() && runtime.contains("methods"),
        ("etrt_runner wrote no JSON (exit " + std::to_string(runnerCode) + "): " + runnerErr.toStdString()).c_str());
    QVERIFY2(ptelens.is_object() && ptelens.contains("methods"),
        ("ptelens-cli run wrote no JSON (exit " + std::to_string(cliCode) + "): " + cliErr.toStdString()).c_str());
    QCOMPARE(ptelens.value("exit_code", -1), cliCode);
    const std::string runtimeError = runtimeLogError(runnerErr);
    const std::string runtimeWhy =
        runtime.value("detail", std::string()) + (runtimeError.empty() ? "" : "; ") + runtimeError;

    // A program the runtime cannot load at all (a corrupt file): ptelens must fail it too, with no method run.
    if (runtime["methods"].empty()) {
        QVERIFY2(runnerCode != 0, runtimeWhy.c_str());
        totals().notRun.push_back(name + ": " + runtimeWhy + " | ptelens: exit " + std::to_string(cliCode) + ", "
            + ptelens.value("detail", std::string()));
        QVERIFY2(cliCode != 0,
            ("the runtime does not load the program (" + runtimeWhy
                + ") but ptelens-cli run succeeds: " + ptelens.value("detail", std::string()))
                .c_str());
        for (const auto& [m, pm] : ptelens["methods"].items())
            QVERIFY2(pm.value("execute", std::string()) != "Ok",
                ("the runtime does not load the program but ptelens runs method " + m).c_str());
        return;
    }

    bool compared = false;
    for (const auto& [method, rm] : runtime["methods"].items()) {
        const std::string where = name + " method " + method;
        QVERIFY2(ptelens["methods"].contains(method), (where + ": ptelens-cli run does not report the method").c_str());
        const Json& pm = ptelens["methods"][method];
        const bool runtimeRan = rm.value("load", std::string()) == "Ok" && rm.value("execute", std::string()) == "Ok";
        const bool ptelensRan = pm.value("load", std::string()) == "Ok" && pm.value("execute", std::string()) == "Ok";
        if (!runtimeRan) {
            // Not compared. ptelens must not invent outputs, and must stop for the runtime's reason where it has one.
            const std::string why = "load " + rm.value("load", std::string()) + ", execute "
                + rm.value("execute", std::string("not reached")) + (runtimeError.empty() ? "" : ": " + runtimeError);
            totals().notRun.push_back(where + ": " + why + " | ptelens: " + ptelensReport(pm));
            const std::string missingKernel = between(runtimeError, "kernel '", "' not found");
            const bool missingBackend = runtimeError.find("is not registered") != std::string::npos;
            const Json stopped = pm.value("stopped_at", Json());
            if (missingBackend && onlyXnnpackDelegates(parsed, method)) {
                // The runtime here lacks XNNPACK; ptelens interprets XNNPACK graphs (its outputs are compared with
                // etrt_runner_xnnpack's in tst_xnnpack_interpreter). It runs the method, or stops naming a kernel it
                // lacks or the XNNPACK node it cannot run.
                if (!ptelensRan)
                    QVERIFY2(pm.value("execute", std::string()) == "Error::OperatorMissing"
                            || pm.value("error", std::string()).find("XNNPACK node") != std::string::npos,
                        (where + ": ptelens stops in an XNNPACK program without naming why: " + ptelensReport(pm))
                            .c_str());
                continue;
            }
            QVERIFY2(!ptelensRan,
                (where + ": the runtime does not run it (" + why + ") but ptelens-cli run reports outputs").c_str());
            QVERIFY2(cliCode != 0, (where + ": ptelens-cli run exits 0 for a method it did not run").c_str());
            if (!missingKernel.empty()) {
                // The same operator, reported as missing (the interpreter lacks what the runtime lacks).
                QVERIFY2(stopped.is_object() && stopped.value("operator", Json()) == Json(missingKernel)
                        && pm.value("execute", std::string()) == "Error::OperatorMissing",
                    (where + ": the runtime lacks " + missingKernel + "; ptelens: " + ptelensReport(pm)).c_str());
            } else if (missingBackend && stopped.is_object()) {
                // A delegate the interpreter does not run either: it stops at the first DelegateCall, or before it at
                // an operator it lacks; never after it.
                const auto delegate = firstDelegateCall(parsed, method);
                QVERIFY2(delegate, (where + ": the runtime lacks a backend but ptelens finds no DelegateCall").c_str());
                const auto at = stopped.value("instruction", std::size_t(0));
                QVERIFY2(at <= *delegate,
                    (where + ": ptelens stops after the first DelegateCall (" + std::to_string(*delegate)
                        + "): " + ptelensReport(pm))
                        .c_str());
                if (at == *delegate)
                    QVERIFY2(pm.value("error", std::string()).find("delegate") != std::string::npos,
                        (where + ": ptelens stops at the DelegateCall without saying so: " + ptelensReport(pm))
                            .c_str());
                else
                    QVERIFY2(pm.value("execute", std::string()) == "Error::OperatorMissing",
                        (where + ": ptelens stops before the DelegateCall for another reason: " + ptelensReport(pm))
                            .c_str());
            }
            continue;
        }
        QVERIFY2(ptelensRan, (where + ": the runtime runs it, ptelens-cli run does not: " + ptelensReport(pm)).c_str());

        // The same inputs: the fill pattern, generated on both sides.
        const Json& ri = rm.at("inputs");
        const Json& pi = pm.at("inputs");
        QVERIFY2(ri.size() == pi.size(),
            (where + ": " + std::to_string(pi.size()) + " inputs, runtime's " + std::to_string(ri.size())).c_str());
        for (std::size_t k = 0; k < ri.size(); ++k)
            if (const auto d = valueDifference(ri[k], pi[k], true))
                QFAIL((where + " input " + std::to_string(k) + " (the fill pattern): " + *d).c_str());

        const Json& ro = rm.at("outputs");
        const Json& po = pm.at("outputs");
        QVERIFY2(ro.size() == po.size(),
            (where + ": " + std::to_string(po.size()) + " outputs, runtime's " + std::to_string(ro.size())).c_str());
        for (std::size_t k = 0; k < ro.size(); ++k)
            if (const auto d = valueDifference(ro[k], po[k], false, &totals().elements))
                QFAIL((where + " output " + std::to_string(k) + ": " + *d).c_str());
        totals().outputs += ro.size();
        ++totals().methods;
        compared = true;
    }
    // ptelens runs no method the runtime does not list.
    for (const auto& [method, pm] : ptelens["methods"].items())
        QVERIFY2(runtime["methods"].contains(method),
            (name + ": ptelens reports method " + method + ", which the runtime does not").c_str());
    if (compared)
        ++totals().programs;
}

void TestRunVsRuntime::unreadablePtdEndsTheRunOnBothSides()
{
    // The data-map example with a --data / --ptd that does not exist: the runner stops before any method
    // (open_failed); ptelens-cli run must too, naming the file, not go on and fail every method's load.
    PTE_REQUIRE_CORPUS();
    PTE_REQUIRE_ET_RUNNER();
    const QString program =
        test::corpusPath(QStringLiteral("pte/barakugav_executorch-rs__examples__data_map__model__model.pte"));
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString missing = dir.filePath(QStringLiteral("missing.ptd"));
    const QString a = dir.filePath(QStringLiteral("runtime.json"));
    const QString b = dir.filePath(QStringLiteral("ptelens.json"));
    QByteArray out, err;
    const int runnerCode = test::runProgram(
        test::etRunnerPath(), { QStringLiteral("--data"), missing, QStringLiteral("--json"), a, program }, &out, &err);
    const int cliCode = test::runCli(
        { QStringLiteral("run"), QStringLiteral("--ptd"), missing, QStringLiteral("--json"), b, program }, &out, &err);
    const Json runtime = readJson(a);
    const Json ptelens = readJson(b);
    QVERIFY(runnerCode != 0);
    QCOMPARE(runtime.value("result", std::string()), std::string("open_failed"));
    QCOMPARE(cliCode, 1);
    QCOMPARE(ptelens.value("result", std::string()), std::string("open_failed"));
    QVERIFY(ptelens["methods"].empty());
    QVERIFY2(err.contains(missing.toUtf8()), err.constData());
}

QTEST_GUILESS_MAIN(TestRunVsRuntime)
#include "tst_run_vs_runtime.moc"
