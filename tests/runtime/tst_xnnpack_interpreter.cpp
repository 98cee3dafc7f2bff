// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// The reference interpreter's XNNPACK graphs against ExecuTorch's XNNPACK backend: every corpus program with XNNPACK
// delegates runs on etrt_runner_xnnpack and on pte::runMethod (which interprets the delegates' inner graphs) from the
// same inputs (test::sampleInputs, given to the runner with --inputs), and every output must agree within the
// tolerance of the operator families the program's graphs use (kTolerances below). A program that still holds a node
// the interpreter cannot run must be listed in kExpectedUnsupported with the node kind and why; one listed there
// that runs fails too, so the list cannot go stale. Also: `ptelens-cli run` goes through the delegates.
// Skipped without the corpus or the runner; fails in CI (CI=true) instead.
#include "etrunner.h"
#include "pte/delegatepayload.h"
#include "pte/interpreterrun.h"
#include "pte/ptereader.h"
#include "testutils.h"

#include <QFile>
#include <QTest>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <set>

using namespace pte;
using Json = nlohmann::json;

namespace {

using namespace pte::test::xnnpackfixtures;

/**
 * Tolerances per operator family, from what the program's XNNPACK graphs hold (graphFacts): an element passes when
 * |runtime - reference| <= rtol * |reference| + atol, with eps = 2^-24 (fp32's unit roundoff) and
 *
 *   rtol = 8 eps (1 + D)                      D: the reduction nodes (convolutions, fully connected, averages)
 *   atol = 16 sqrt(D) sqrt(K) eps max|output| + step
 *                                             K: the longest reduction (kernel h x kernel w x group input channels,
 *                                                input channels, pooled elements); step: a qint8 quantization step
 *
 * Why: the reference computes each float operator exactly (in double) and rounds its output to fp32 once.
 * Elementwise operators (add, multiply, copy, transpose, concatenate, max pooling, quantize/dequantize) are one
 * rounding of the same exact value in XNNPACK too, so graphs of those only agree bit for bit (D = 0: rtol 8 eps,
 * atol 0; its sigmoid is a polynomial within a few ulp: the 8 eps per node). Reductions are where XNNPACK differs:
 * its GEMM/IGEMM/DWCONV and pooling microkernels sum K terms in fp32, in blocked order and with FMA, an error of
 * about sqrt(K) eps times the terms' magnitude in practice (K eps at worst), relative to the output's scale since
 * terms cancel (an output near 0 gets the floor, not a relative bound). Errors of D reductions in sequence add up
 * like a random walk (sqrt(D)), and the 16 covers terms larger than the result and the steepness of sigmoid and
 * products in between (YOLOX: D = 113, K = 512, observed 2.7e-4 at max|output| 3.45, a third of the tolerance). A real
 * bug (an index, padding, stride or parameter wrong) moves outputs by 1e-2 relative or more, far above these. Static
 * qint8 graphs round to an integer grid: where XNNPACK's fp32 requantization and the reference's land on the two
 * sides of a rounding boundary the output differs by one quantization step of the dequantized output.
 */
struct GraphFacts
{
    std::size_t reductions = 0; ///< D
    std::size_t longest = 0; ///< K
    double step = 0; ///< the largest quantization step of a value dequantized into a graph output
    std::set<std::string> kinds;
};

std::string number(double v)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.9g", v);
    return buf;
}

/** The unsigned integers of a node parameter's text ("3x3" -> 3, 3). */
std::vector<std::size_t> integers(const InnerNode& n, const std::string& name)
{
    std::vector<std::size_t> out;
    for (const auto& p : n.params) {
        if (p.name != name)
            continue;
        std::size_t v = 0;
        bool in = false;
        for (const char c : p.value + " ") {
            if (c >= '0' && c <= '9') {
                v = v * 10 + std::size_t(c - '0');
                in = true;
            } else if (in) {
                out.push_back(v);
                v = 0;
                in = false;
            }
        }
    }
    return out;
}

std::size_t product(const std::vector<std::uint32_t>& dims)
{
    std::size_t n = 1;
    for (const auto d : dims)
        n *= d;
    return n;
}

GraphFacts graphFacts(const PteFile& file)
{
    GraphFacts f;
    const PayloadDataSources sources { file.program.get(), file.externalData ? &*file.externalData : nullptr, nullptr };
    for (const auto& d : decodeProgramDelegates(*file.program, sources, "")) {
        const DelegatePayload& p = *d.payload;
        for (const auto& n : p.nodes) {
            f.kinds.insert(n.kind);
            const InnerValue* out = n.outputs.empty() ? nullptr : p.value(n.outputs.front().valueId);
            const InnerValue* in = n.inputs.empty() ? nullptr : p.value(n.inputs.front().valueId);
            std::size_t k = 0;
            if (n.kind == "Conv2d" || n.kind == "DepthwiseConv2d") {
                const auto kernel = integers(n, "kernel");
                const auto gic = integers(n, "group_input_channels");
                if (kernel.size() == 2 && gic.size() == 1)
                    k = kernel[0] * kernel[1] * gic[0];
            } else if (n.kind == "FullyConnected" && n.inputs.size() >= 2 && out && !out->dims.empty()) {
                if (const InnerValue* w = p.value(n.inputs[1].valueId))
                    k = product(w->dims) / std::max<std::size_t>(out->dims.back(), 1);
            } else if ((n.kind == "GlobalAvgPooling2d" || n.kind == "Softmax") && in && in->dims.size() >= 2) {
                k = n.kind == "Softmax"
                    ? in->dims.back()
                    : product(in->dims) / std::max<std::size_t>(in->dims.front() * in->dims.back(), 1);
            } else if (n.kind == "AvgPooling2d") {
                const auto pooling = integers(n, "pooling");
                if (pooling.size() == 2)
                    k = pooling[0] * pooling[1];
            }
            if (k) {
                ++f.reductions;
                f.longest = std::max(f.longest, k);
            }
            if (n.kind == "Convert" && in && in->quant && out && out->graphOutput)
                f.step = std::max(f.step, double(in->quant->scale));
        }
    }
    return f;
}

struct Fixture
{
    const QString* program;
    const char* name;
};

const QString kQuantized = QStringLiteral("pte/corey-cole_executorch-numpy-runtime__tests__models__quantized.pte");
const QString kDynamic = QStringLiteral("pte/corey-cole_executorch-numpy-runtime__tests__models__dynamic.pte");
const QString kAdd2023 = QStringLiteral("pte/pytorch_executorch__xnnpack_add.pte");

/** Every corpus program with XNNPACK delegates. */
const Fixture kFixtures[] = {
    { &kYolox, "yolox_nano_xnnpack" },
    { &kStressMlp, "stress_mlp" },
    { &kSimpleConv, "xnnpack_simpleconv" },
    { &kSimpleModel, "simple-torch-model" },
    { &kQuantized, "quantized" },
    { &kDynamic, "dynamic" },
    { &kAdd2023, "xnnpack_add (2023)" },
};

/** Programs with a node the interpreter cannot run yet: fixture name -> node kind and why. Empty: all run. */
const std::map<std::string, std::string> kExpectedUnsupported = {};

void requireXnnpackRunner()
{
    if (test::etRunnerXnnpackPath().isEmpty()) {
        if (test::inCi())
            QFAIL("ExecuTorch's runtime with XNNPACK (etrt_runner_xnnpack) not found: PTELENS_ET_RUNNER_XNNPACK");
        QSKIP("ExecuTorch's runtime with XNNPACK (etrt_runner_xnnpack) not found: set PTELENS_ET_RUNNER_XNNPACK "
              "(default ../shared/tools/etrt_runner_xnnpack beside the repository)");
    }
}

} // namespace

class TestXnnpackInterpreter : public QObject
{
    Q_OBJECT

private slots:
    void matchesRuntime_data()
    {
        QTest::addColumn<int>("fixture");
        if (!test::corpusRowsAvailable())
            return;
        for (int i = 0; i < int(std::size(kFixtures)); ++i)
            QTest::newRow(("corpus " + std::string(kFixtures[i].name)).c_str()) << i;
    }

    void matchesRuntime()
    {
        PTE_REQUIRE_CORPUS_ROW();
        requireXnnpackRunner();
        QFETCH(int, fixture);
        const Fixture& f = kFixtures[fixture];
        const QString path = test::corpusPath(*f.program);
        auto file = readPteFile(path.toStdString());
        QVERIFY2(file, file ? "" : file.error().toString().c_str());
        const Program& program = *(*file)->program;
        const auto unsupported = kExpectedUnsupported.find(f.name);
        const GraphFacts facts = graphFacts(**file);
        constexpr double eps = 1.0 / (1 << 24);
        const double D = double(facts.reductions);
        const double rtol = 8 * eps * (1 + D);
        const double floor = 16 * std::sqrt(D) * std::sqrt(double(facts.longest)) * eps;
        std::string kinds;
        for (const auto& k : facts.kinds)
            kinds += (kinds.empty() ? "" : ", ") + k;
        qInfo("%s: %zu reductions (D), longest K = %zu, quantization step %g; node kinds: %s", f.name, facts.reductions,
            facts.longest, facts.step, kinds.c_str());

        for (const auto& plan : program.executionPlan) {
            const std::string where = std::string(f.name) + " method " + plan.name;
            const auto inputs = test::sampleInputs(plan);
            test::RunnerOptions options;
            options.xnnpack = true;
            options.methods = std::vector<std::string> { plan.name };
            options.inputs[plan.name] = test::runnerInputs(plan, inputs);
            auto runtime = test::runEtRunner(path.toStdString(), options);
            QVERIFY2(runtime, runtime ? "" : runtime.error().message.c_str());
            const auto rm = runtime->methods.find(plan.name);
            QVERIFY2(runtime->exitCode == 0 && rm != runtime->methods.end() && rm->second.execute == "Ok",
                (where + ": the runtime does not run it: " + runtime->message()).c_str());

            RunOptions runOptions;
            runOptions.external = (*file)->externalData ? &*(*file)->externalData : nullptr;
            const MethodRun run = runMethod(program, plan.name, inputs, runOptions);
            if (unsupported != kExpectedUnsupported.end()) {
                QVERIFY2(
                    !run.ok(), (where + ": listed as unsupported (" + unsupported->second + ") but it runs").c_str());
                const auto& e = run.executions.back();
                const std::string message = e.error ? e.error->message : std::string();
                QVERIFY2(e.stop == RunStop::Unsupported && message.find("XNNPACK node") != std::string::npos,
                    (where + ": expected to stop at an unsupported XNNPACK node, got: " + message).c_str());
                qInfo("%s: unsupported as expected: %s", where.c_str(), message.c_str());
                continue;
            }
            QVERIFY2(run.ok(),
                (where + ": the reference interpreter stops: "
                    + (run.loadError ? run.loadError->message
                                     : (run.executions.back().error ? run.executions.back().error->message : "?")))
                    .c_str());
            const auto& reference = run.executions.back().outputs;
            const auto& outputs = rm->second.outputs;
            QCOMPARE(reference.size(), outputs.size());
            for (std::size_t k = 0; k < outputs.size(); ++k) {
                const auto& r = outputs[k];
                const auto& h = reference[k];
                const std::string what = where + " output " + std::to_string(k);
                QVERIFY2(r.sizes == h.sizes, (what + ": sizes differ").c_str());
                QCOMPARE(r.values.size(), h.values.size());
                double scale = 0;
                for (const double v : h.values)
                    if (std::isfinite(v))
                        scale = std::max(scale, std::fabs(v));
                const double atol = floor * scale + facts.step;
                double maxError = 0, maxShare = 0; // the largest error, the largest error / allowed
                for (std::size_t e = 0; e < r.values.size(); ++e) {
                    // The runner prints floats with 9 significant digits, which round-trip through fp32.
                    const double a = double(float(r.values[e]));
                    const double b = double(float(h.values[e]));
                    if ((std::isnan(a) && std::isnan(b)) || a == b)
                        continue;
                    const double error = std::fabs(a - b);
                    const double allowed = rtol * std::fabs(b) + atol;
                    maxError = std::max(maxError, error);
                    maxShare = std::max(maxShare, allowed > 0 ? error / allowed : 1.0);
                    if (!(error <= allowed * (1 + 1e-12)))
                        QFAIL((what + " element " + std::to_string(e) + ": runtime " + number(a) + ", reference "
                            + number(b) + ", error " + number(error) + " above " + number(allowed))
                                  .c_str());
                }
                qInfo("%s: %zu elements, max |error| %.3g (max|value| %.3g), at most %.2f of the tolerance",
                    what.c_str(), r.values.size(), maxError, scale, maxShare);
            }
        }
    }

    /** `ptelens-cli run` no longer stops at an XNNPACK DelegateCall: it reports the outputs. */
    void cliRunsThroughDelegates()
    {
        PTE_REQUIRE_CORPUS();
        QByteArray out, err;
        const QString json = test::tempDir() + QStringLiteral("/xnnpack_simpleconv_run.json");
        const int code = test::runCli(
            { QStringLiteral("run"), test::corpusPath(kSimpleConv), QStringLiteral("--json"), json }, &out, &err);
        QVERIFY2(code == 0, ("exit " + std::to_string(code) + ": " + (out + err).toStdString()).c_str());
        QFile file(json);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const Json j = Json::parse(file.readAll().toStdString());
        const Json& m = j.at("methods").at("forward");
        QCOMPARE(m.value("execute", std::string()), std::string("Ok"));
        QVERIFY(!m.at("outputs").empty());
    }
};

QTEST_GUILESS_MAIN(TestXnnpackInterpreter)
#include "tst_xnnpack_interpreter.moc"
