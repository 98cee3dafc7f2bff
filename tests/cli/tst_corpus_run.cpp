// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// `ptelens-cli run` on ExecuTorch 1.3.1's all-ops programs ($PTELENS_CORPUS/all-ops): one program per operator, with
// the inputs PyTorch was given and the outputs PyTorch computed (io/manifest.json: dtypes, shapes, atol, rtol). Each
// program runs on the reference interpreter from its raw input files (--inputs-raw) and must reproduce PyTorch's
// outputs within the manifest's tolerances, or stop at an operator the interpreter lacks, named in the report. The
// operators allowed to be missing are listed below (the Cortex-M backend's, which ExecuTorch's portable runtime does
// not have either); any other missing operator, any mismatch and any other failure fails the test.
#include "testutils.h"

#include <QDir>
#include <QFile>
#include <QTest>

#include <cmath>
#include <cstring>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

using namespace pte;
using Json = nlohmann::json;

namespace {

/** The operators the interpreter is allowed to lack, and why. */
const std::map<std::string, std::string> kExpectedMissing = {
    { "cortex_m::quantize_per_tensor.out",
        "Arm's Cortex-M (CMSIS-NN) backend operator: not a portable kernel (etrt_runner refuses it too)" },
};

QByteArray readAll(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

/** The raw little-endian elements of a manifest entry's file, as doubles. */
std::optional<std::vector<double>> rawValues(const QByteArray& bytes, const std::string& dtype)
{
    std::size_t size = dtype == "float32" || dtype == "int32" ? 4 : dtype == "int64" ? 8 : dtype == "bool" ? 1 : 0;
    if (size == 0 || bytes.size() % qsizetype(size) != 0)
        return std::nullopt;
    std::vector<double> out;
    for (qsizetype i = 0; i < bytes.size(); i += qsizetype(size)) {
        const char* p = bytes.constData() + i;
        if (dtype == "float32") {
            float v;
            std::memcpy(&v, p, 4);
            out.push_back(v);
        } else if (dtype == "int32") {
            std::int32_t v;
            std::memcpy(&v, p, 4);
            out.push_back(double(v));
        } else if (dtype == "int64") {
            std::int64_t v;
            std::memcpy(&v, p, 8);
            out.push_back(double(v));
        } else {
            out.push_back(*p != 0 ? 1.0 : 0.0);
        }
    }
    return out;
}

const char* runtimeDtype(const std::string& dtype)
{
    return dtype == "float32" ? "Float" : dtype == "int32" ? "Int" : dtype == "int64" ? "Long" : "Bool";
}

double jsonNumber(const Json& v)
{
    if (v.is_string()) {
        const auto s = v.get<std::string>();
        return s == "nan" ? NAN : s == "inf" ? INFINITY : s == "-inf" ? -INFINITY : NAN;
    }
    if (v.is_boolean())
        return v.get<bool>() ? 1 : 0;
    return v.get<double>();
}

} // namespace

class TestCorpusRun : public QObject
{
    Q_OBJECT

private slots:
    void allOpsMatchPyTorch();
};

void TestCorpusRun::allOpsMatchPyTorch()
{
    PTE_REQUIRE_CORPUS();
    const QString dir = test::corpusPath(QStringLiteral("all-ops"));
    if (!QFile::exists(dir + QStringLiteral("/io/manifest.json")))
        QSKIP("the corpus has no all-ops/io/manifest.json");
    const Json manifest = Json::parse(readAll(dir + QStringLiteral("/io/manifest.json")).toStdString(), nullptr, false);
    QVERIFY2(manifest.is_array() && !manifest.empty(), "all-ops/io/manifest.json is not a list of programs");

    // The programs by manifest directory ("portable/add" -> "...__models__portable__add__model.pte").
    std::map<std::string, QString> programs;
    for (const auto& name : QDir(dir).entryList({ QStringLiteral("*__model.pte") }, QDir::Files)) {
        const auto models = name.indexOf(QStringLiteral("__models__"));
        if (models >= 0)
            programs[name.mid(models + 10).chopped(11).toStdString()] = dir + QLatin1Char('/') + name; // "__model.pte"
    }

    std::vector<std::string> reproduced, failures, withoutProgram;
    std::map<std::string, std::vector<std::string>> missing; // operator -> programs
    std::set<std::string> usedPrograms;
    for (const auto& entry : manifest) {
        const std::string key = QString::fromStdString(entry.at("dir").get<std::string>())
                                    .replace(QLatin1Char('/'), QStringLiteral("__"))
                                    .toStdString();
        const auto program = programs.find(key);
        if (program == programs.end()) {
            withoutProgram.push_back(key);
            continue;
        }
        usedPrograms.insert(key);
        const double atol = entry.at("atol").get<double>();
        const double rtol = entry.at("rtol").get<double>();
        QStringList raw;
        for (const auto& in : entry.at("inputs"))
            raw << dir + QStringLiteral("/io/") + QString::fromStdString(key + "__" + in.at("file").get<std::string>());
        const QString json =
            test::tempDir() + QStringLiteral("/") + QString::fromStdString(key) + QStringLiteral(".json");
        QByteArray out, err;
        const int code = test::runCli({ QStringLiteral("run"), program->second, QStringLiteral("--inputs-raw"),
                                          raw.join(QLatin1Char(',')), QStringLiteral("--json"), json },
            &out, &err);
        const Json result = Json::parse(readAll(json).toStdString(), nullptr, false);
        if (!result.is_object() || !result.contains("methods") || !result["methods"].contains("forward")) {
            failures.push_back(key + ": no JSON result (exit " + std::to_string(code) + "): " + err.toStdString());
            continue;
        }
        QCOMPARE(result.at("exit_code").get<int>(), code);
        const Json& method = result["methods"]["forward"];
        if (code == 4) {
            const std::string op = method.contains("stopped_at") && method["stopped_at"]["operator"].is_string()
                ? method["stopped_at"]["operator"].get<std::string>()
                : std::string("?");
            // The report names the operator and its instruction.
            if (!out.contains(QByteArray("stopped: instruction ")) || !out.contains(QByteArray::fromStdString(op)))
                failures.push_back(key + ": the report does not name the missing operator: " + out.toStdString());
            missing[op].push_back(key);
            continue;
        }
        if (code != 0) {
            failures.push_back(key + ": exit " + std::to_string(code) + ": " + result.value("detail", std::string()));
            continue;
        }
        const Json& outputs = method.at("outputs");
        if (outputs.size() != entry.at("outputs").size()) {
            failures.push_back(key + ": " + std::to_string(outputs.size()) + " outputs, PyTorch gave "
                + std::to_string(entry.at("outputs").size()));
            continue;
        }
        std::string problem;
        for (std::size_t k = 0; k < outputs.size() && problem.empty(); ++k) {
            const Json& expected = entry.at("outputs")[k];
            const Json& actual = outputs[k];
            const std::string dtype = expected.at("dtype").get<std::string>();
            const std::string where = "output " + std::to_string(k);
            if (actual.value("dtype", std::string()) != runtimeDtype(dtype)) {
                problem = where + ": dtype " + actual.value("dtype", std::string()) + ", PyTorch's " + dtype;
                break;
            }
            if (actual.at("sizes") != expected.at("shape")) {
                problem = where + ": sizes " + actual.at("sizes").dump() + ", PyTorch's " + expected.at("shape").dump();
                break;
            }
            const auto values =
                rawValues(readAll(dir + QStringLiteral("/io/")
                              + QString::fromStdString(key + "__" + expected.at("file").get<std::string>())),
                    dtype);
            if (!values || values->size() != actual.at("values").size()) {
                problem = where + ": PyTorch's file does not hold the output's elements";
                break;
            }
            for (std::size_t i = 0; i < values->size(); ++i) {
                const double e = (*values)[i];
                const double a = jsonNumber(actual.at("values")[i]);
                const bool same =
                    (std::isnan(a) && std::isnan(e)) || a == e || std::fabs(a - e) <= atol + rtol * std::fabs(e);
                if (!same) {
                    problem = where + " element " + std::to_string(i) + ": " + std::to_string(a) + ", PyTorch's "
                        + std::to_string(e) + " (atol " + std::to_string(atol) + ", rtol " + std::to_string(rtol) + ")";
                    break;
                }
            }
        }
        if (problem.empty())
            reproduced.push_back(key);
        else
            failures.push_back(key + ": " + problem);
    }

    // The report: every program is either reproduced or missing an operator, by name.
    std::size_t missingPrograms = 0;
    for (const auto& [op, keys] : missing)
        missingPrograms += keys.size();
    qInfo("all-ops: %zu programs run: %zu reproduce PyTorch's outputs, %zu stop at an operator the interpreter "
          "lacks, %zu fail",
        usedPrograms.size(), reproduced.size(), missingPrograms, failures.size());
    for (const auto& [op, keys] : missing) {
        std::string list;
        for (const auto& k : keys)
            list += (list.empty() ? "" : ", ") + k;
        qInfo("  missing operator %s (%zu programs): %s", op.c_str(), keys.size(), list.c_str());
    }
    for (const auto& k : withoutProgram)
        qInfo("  manifest entry %s has no program in the corpus (nothing to run)", k.c_str());
    for (const auto& f : failures)
        qWarning("  FAIL %s", f.c_str());
    for (const auto& [key, path] : programs)
        if (!usedPrograms.count(key))
            qWarning("  program %s has no manifest entry", key.c_str());

    QVERIFY2(failures.empty(), (std::to_string(failures.size()) + " all-ops program(s) fail (listed above)").c_str());
    for (const auto& [op, keys] : missing)
        QVERIFY2(kExpectedMissing.count(op),
            ("the interpreter lacks " + op + ", which " + std::to_string(keys.size())
                + " all-ops program(s) use and ExecuTorch's portable runtime has")
                .c_str());
    for (const auto& [op, why] : kExpectedMissing)
        QVERIFY2(
            missing.count(op), (op + " is listed as missing but no program stopped at it: update the list").c_str());
    QVERIFY2(reproduced.size() + missingPrograms == usedPrograms.size(), "a program is neither reproduced nor missing");
    QVERIFY2(usedPrograms.size() >= 145, "fewer all-ops programs than the corpus holds (145 portable + 15 Cortex-M)");
}

QTEST_GUILESS_MAIN(TestCorpusRun)
#include "tst_corpus_run.moc"
