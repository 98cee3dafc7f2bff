// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "etrunner.h"

#include "testutils.h"

#include <QFile>
#include <QFileInfo>
#include <QProcess>

#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>

namespace pte::test {

namespace {

using nlohmann::json;

bool isFloating(ScalarType t)
{
    return t == ScalarType::Float || t == ScalarType::Double || t == ScalarType::Half || t == ScalarType::BFloat16;
}

/** A runner number: a JSON number, or "nan" / "inf" / "-inf" (and "-nan"). */
double number(const json& v)
{
    if (v.is_number())
        return v.get<double>();
    if (v.is_boolean())
        return v.get<bool>() ? 1.0 : 0.0;
    if (v.is_string()) {
        const auto s = v.get<std::string>();
        if (s.find("nan") != std::string::npos)
            return std::numeric_limits<double>::quiet_NaN();
        if (s == "inf" || s == "+inf")
            return std::numeric_limits<double>::infinity();
        if (s == "-inf")
            return -std::numeric_limits<double>::infinity();
    }
    return std::numeric_limits<double>::quiet_NaN();
}

RunnerValue parseValue(const json& j)
{
    RunnerValue v;
    v.tag = j.value("tag", std::string());
    if (v.tag == "Tensor") {
        v.dtype = j.value("dtype", std::string());
        for (const auto& s : j.value("sizes", json::array()))
            v.sizes.push_back(s.get<std::int64_t>());
        for (const auto& d : j.value("dim_order", json::array()))
            v.dimOrder.push_back(d.get<std::int64_t>());
        // --json lists the elements in row-major order over the sizes, whatever the dim order (measured: a
        // channels-last tensor's values come back as they were given in --inputs).
        if (const auto it = j.find("values"); it != j.end() && it->is_array())
            for (const auto& x : *it)
                v.values.push_back(number(x));
    } else if (const auto it = j.find("value"); it != j.end()) {
        if (it->is_string())
            v.text = it->get<std::string>();
        else
            v.values = { number(*it) };
    }
    return v;
}

json inputJson(const HostTensor& t)
{
    json values = json::array();
    for (const double x : t.values) {
        if (t.dtype == ScalarType::Bool)
            values.push_back(x != 0);
        else if (!isFloating(t.dtype))
            values.push_back(std::int64_t(x));
        else if (std::isnan(x))
            values.push_back("nan");
        else if (std::isinf(x))
            values.push_back(x > 0 ? "inf" : "-inf");
        else
            values.push_back(x);
    }
    return values;
}

} // namespace

namespace {

QString executableFromEnvironment(const char* variable)
{
    const QString path = qEnvironmentVariable(variable);
    if (path.isEmpty())
        return {};
    const QFileInfo info(path);
    return info.isFile() && info.isExecutable() ? info.absoluteFilePath() : QString();
}

} // namespace

QString etRunnerPath() { return executableFromEnvironment("PTELENS_ET_RUNNER"); }

QString etRunnerXnnpackPath() { return executableFromEnvironment("PTELENS_ET_RUNNER_XNNPACK"); }

std::string RunnerRun::message() const
{
    std::string m = runner + " exit " + std::to_string(exitCode) + ": " + detail;
    std::size_t from = 0;
    while (from < log.size()) {
        auto end = log.find('\n', from);
        if (end == std::string::npos)
            end = log.size();
        const std::string line = log.substr(from, end - from);
        if (line.find("Check failed") != std::string::npos || line.rfind("E ", 0) == 0) {
            m += "; " + line;
            break;
        }
        from = end + 1;
    }
    return m;
}

Result<RunnerRun> runEtRunner(const std::string& ptePath, const RunnerOptions& options)
{
    const char* name = options.xnnpack ? "etrt_runner_xnnpack" : "etrt_runner";
    const QString runner = options.xnnpack ? etRunnerXnnpackPath() : etRunnerPath();
    if (runner.isEmpty())
        return fail(ErrorCode::Internal,
            std::string(name) + " not found (" + (options.xnnpack ? "PTELENS_ET_RUNNER_XNNPACK" : "PTELENS_ET_RUNNER")
                + ")");
    static int counter = 0;
    const QString stem = tempDir() + QStringLiteral("/etrt_%1").arg(++counter);
    const QString jsonPath = stem + QStringLiteral(".json");
    QStringList args { QStringLiteral("--json"), jsonPath, QStringLiteral("--print"), QStringLiteral("all") };
    for (const auto& m : options.methods)
        args << QStringLiteral("--method") << QString::fromStdString(m);
    if (options.plannedFill)
        args << QStringLiteral("--planned-fill") << QString::number(*options.plannedFill);
    if (!options.data.empty())
        args << QStringLiteral("--data") << QString::fromStdString(options.data);
    if (options.runs != 1)
        args << QStringLiteral("--runs") << QString::number(options.runs);
    if (!options.inputs.empty()) {
        json in = json::object();
        for (const auto& [method, tensors] : options.inputs) {
            json list = json::array();
            for (const auto& t : tensors)
                list.push_back(t ? inputJson(*t) : json(nullptr));
            in[method] = std::move(list);
        }
        const QString inPath = stem + QStringLiteral("_inputs.json");
        QFile f(inPath);
        if (!f.open(QIODevice::WriteOnly))
            return fail(ErrorCode::Internal, "cannot write " + inPath.toStdString());
        f.write(QByteArray::fromStdString(in.dump()));
        f.close();
        args << QStringLiteral("--inputs") << inPath;
    }
    args << QString::fromStdString(ptePath);
    QProcess p;
    p.start(runner, args);
    if (!p.waitForStarted(10000))
        return fail(ErrorCode::Internal, "cannot start " + runner.toStdString());
    p.closeWriteChannel();
    if (!p.waitForFinished(120000)) {
        p.kill();
        p.waitForFinished();
        return fail(ErrorCode::Internal, std::string(name) + " did not finish within 120 s on " + ptePath);
    }
    RunnerRun run;
    run.runner = name;
    run.report = p.readAllStandardOutput().toStdString();
    run.log = p.readAllStandardError().toStdString();
    run.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    QFile f(jsonPath);
    if (!f.open(QIODevice::ReadOnly)) {
        // Usage errors end before the JSON is written: the report's last line says why.
        const auto at = run.report.rfind("result: ");
        run.detail = at == std::string::npos ? run.report : run.report.substr(at + 8);
        return run;
    }
    const QByteArray text = f.readAll();
    const json j = json::parse(text.constData(), text.constData() + text.size(), nullptr, false);
    if (j.is_discarded() || !j.is_object())
        return fail(ErrorCode::Internal,
            std::string(name) + " wrote unreadable JSON for " + ptePath + " (exit " + std::to_string(run.exitCode)
                + "): " + run.log.substr(run.log.size() > 400 ? run.log.size() - 400 : 0));
    run.detail = j.value("detail", std::string());
    if (const auto ms = j.find("methods"); ms != j.end() && ms->is_object()) {
        for (const auto& [name, m] : ms->items()) {
            RunnerMethod rm;
            rm.load = m.value("load", std::string());
            rm.execute = m.value("execute", std::string());
            for (const auto& v : m.value("inputs", json::array()))
                rm.inputs.push_back(parseValue(v));
            for (const auto& v : m.value("outputs", json::array()))
                rm.outputs.push_back(parseValue(v));
            run.methods[name] = std::move(rm);
        }
    }
    return run;
}

std::vector<HostTensor> sampleInputs(const ExecutionPlan& plan)
{
    std::vector<HostTensor> inputs;
    for (std::size_t k = 0; k < plan.inputs.size(); ++k) {
        const auto id = std::size_t(plan.inputs[k]);
        HostTensor h;
        if (id >= plan.values.size()) {
            inputs.push_back(std::move(h));
            continue;
        }
        const EValue& v = plan.values[id];
        if (const Tensor* t = v.tensor()) {
            h.dtype = t->scalarType;
            h.sizes.assign(t->sizes.begin(), t->sizes.end());
            const std::uint64_t n = t->numel().value_or(0);
            std::uint32_t seed = 2654435761u * std::uint32_t(k + 1);
            for (std::uint64_t e = 0; e < n; ++e) {
                if (isFloating(t->scalarType)) {
                    seed = seed * 1664525u + 1013904223u;
                    // Three decimals in [-2, 2], rounded to float: representable in every floating dtype's
                    // comparison tolerance and of both signs.
                    h.values.push_back(double(float(double(int((seed >> 8) % 4001) - 2000) / 1000.0)));
                } else if (t->scalarType == ScalarType::Bool) {
                    h.values.push_back(double((e + k) % 2));
                } else {
                    h.values.push_back(double((e + k) % 5));
                }
            }
        } else {
            h.dtype = ScalarType::Long;
            std::visit(
                [&](const auto& x) {
                    using T = std::decay_t<decltype(x)>;
                    if constexpr (std::is_same_v<T, Int>)
                        h.values = { double(x.intVal) };
                    else if constexpr (std::is_same_v<T, Double>) {
                        h.dtype = ScalarType::Double;
                        h.values = { x.doubleVal };
                    } else if constexpr (std::is_same_v<T, Bool>) {
                        h.dtype = ScalarType::Bool;
                        h.values = { x.boolVal ? 1.0 : 0.0 };
                    }
                },
                v.val);
        }
        inputs.push_back(std::move(h));
    }
    return inputs;
}

std::vector<std::optional<HostTensor>> runnerInputs(const ExecutionPlan& plan, const std::vector<HostTensor>& inputs)
{
    std::vector<std::optional<HostTensor>> out;
    for (std::size_t k = 0; k < plan.inputs.size() && k < inputs.size(); ++k) {
        const auto id = std::size_t(plan.inputs[k]);
        if (id < plan.values.size() && plan.values[id].tensor())
            out.emplace_back(inputs[k]);
        else
            out.emplace_back(std::nullopt);
    }
    return out;
}

std::optional<std::string> compareOutputs(const std::vector<RunnerValue>& runner,
    const std::vector<HostTensor>& reference, double rtol, const std::string& other)
{
    if (runner.size() != reference.size())
        return "the runner returned " + std::to_string(runner.size()) + " outputs, the " + other + " "
            + std::to_string(reference.size());
    for (std::size_t k = 0; k < runner.size(); ++k) {
        const RunnerValue& r = runner[k];
        const HostTensor& h = reference[k];
        const std::string what = "output " + std::to_string(k);
        if (r.tag == "String") {
            if (r.text != h.text)
                return what + ": String \"" + r.text + "\" from the runner, \"" + h.text + "\" from the " + other;
            continue;
        }
        if (r.tag == "Tensor" && r.sizes != h.sizes)
            return what + ": sizes differ";
        if (r.values.size() != h.values.size())
            return what + ": " + std::to_string(r.values.size()) + " values from the runner, "
                + std::to_string(h.values.size()) + " from the " + other;
        const bool exact = r.tag != "Double" && r.dtype != "Float" && r.dtype != "Double" && r.dtype != "Half"
            && r.dtype != "BFloat16";
        for (std::size_t e = 0; e < r.values.size(); ++e) {
            const double a = r.values[e];
            const double b = h.values[e];
            if (std::isnan(a) && std::isnan(b))
                continue;
            const bool same = exact ? a == b : (a == b || std::fabs(a - b) <= rtol * std::max(1.0, std::fabs(b)));
            if (!same)
                return what + " (" + r.tag + (r.dtype.empty() ? "" : " " + r.dtype) + ") element " + std::to_string(e)
                    + ": runner " + std::to_string(a) + ", " + other + " " + std::to_string(b);
        }
    }
    return std::nullopt;
}

std::optional<std::string> runXnnpackWithEtdump(
    const QString& program, const QString& etdump, int runs, const QString& debugBuffer)
{
    QStringList args { QStringLiteral("--runs"), QString::number(runs), QStringLiteral("--etdump"), etdump };
    if (!debugBuffer.isEmpty())
        args << QStringLiteral("--debug-buffer") << debugBuffer << QStringLiteral("--debug-level")
             << QStringLiteral("intermediates");
    QProcess p;
    p.start(etRunnerXnnpackPath(), args << program);
    const bool finished = p.waitForFinished(240000);
    const QByteArray report = p.readAllStandardOutput();
    if (!finished || p.exitStatus() != QProcess::NormalExit || p.exitCode() != 0 || !report.contains("etdump: "))
        return "etrt_runner_xnnpack failed on " + program.toStdString() + " (exit " + std::to_string(p.exitCode())
            + "):\n" + report.toStdString() + "\n" + p.readAllStandardError().toStdString();
    if (QFileInfo(etdump).size() == 0)
        return "etrt_runner_xnnpack wrote an empty ETDump for " + program.toStdString();
    return std::nullopt;
}

QString CorpusXnnpackEtdumps::of(const QString& relative)
{
    if (const auto it = m_paths.find(relative); it != m_paths.end())
        return it->second;
    if (!m_dir.isValid()) {
        qWarning("no temporary directory: %s", qPrintable(m_dir.errorString()));
        return {};
    }
    const QString out = m_dir.filePath(QFileInfo(relative).completeBaseName() + QStringLiteral(".etdp"));
    if (const auto problem = runXnnpackWithEtdump(corpusPath(relative), out, m_runs)) {
        qWarning("%s", problem->c_str());
        return {};
    }
    m_paths[relative] = out;
    return out;
}

} // namespace pte::test
