// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// Real ETDumps from ExecuTorch's own runtime and ETDump writer (../shared/tools/etrt_runner, or $PTELENS_ET_RUNNER),
// for programs ptelens emits and for corpus programs: the program opened with its ETDump and debug buffer joins with
// no mismatch, every OPERATOR_CALL sits on a KernelCall, every logged intermediate output equals the reference
// interpreter's value for that instruction, program outputs equal the runner's (and a bundled program's expected
// outputs), several runs aggregate into one block. Skipped, with a message, when the runner is absent.
#include "etrunner.h"
#include "executiontestutils.h"
#include "pte/bundledprogram.h"
#include "pte/dumpreader.h"
#include "pte/etdump.h"
#include "pte/etdumpjoin.h"
#include "pte/etdumptiming.h"
#include "pte/mappedfile.h"
#include "pte/numericgap.h"
#include "pte/profiletable.h"
#include "pte/ptereader.h"
#include "pte/referencegap.h"
#include "pte/referenceinterpreter.h"
#include "testutils.h"

#include <QFileInfo>
#include <QProcess>
#include <QTest>

#include <map>
#include <nlohmann/json.hpp>

using namespace pte;

namespace {

struct RunnerOutput
{
    std::string etdump;
    std::string buffer;
    nlohmann::json report;
};

/** Runs the program on the runner with an ETDump (and, unless `level` is empty, a debug buffer). */
std::optional<RunnerOutput> runOnRunner(const std::string& program, const std::string& name, int runs,
    const nlohmann::json& inputs, const char* level = "intermediates", const QStringList& extra = {})
{
    const QString dir = test::tempDir();
    RunnerOutput out;
    out.etdump = (dir + QLatin1Char('/') + QString::fromStdString(name) + QStringLiteral(".etdp")).toStdString();
    out.buffer = (dir + QLatin1Char('/') + QString::fromStdString(name) + QStringLiteral(".bin")).toStdString();
    const QString json = dir + QLatin1Char('/') + QString::fromStdString(name) + QStringLiteral(".out.json");
    QStringList args { QStringLiteral("--runs"), QString::number(runs), QStringLiteral("--etdump"),
        QString::fromStdString(out.etdump), QStringLiteral("--json"), json };
    if (*level)
        args << QStringLiteral("--debug-buffer") << QString::fromStdString(out.buffer)
             << QStringLiteral("--debug-level") << QString::fromLatin1(level);
    if (!inputs.is_null()) {
        const QString in = dir + QLatin1Char('/') + QString::fromStdString(name) + QStringLiteral(".in.json");
        QFile f(in);
        if (!f.open(QIODevice::WriteOnly))
            return std::nullopt;
        f.write(QByteArray::fromStdString(inputs.dump()));
        f.close();
        args << QStringLiteral("--inputs") << in;
    }
    args << extra << QString::fromStdString(program);
    QProcess p;
    p.start(test::etRunnerPath(), args);
    if (!p.waitForFinished(120000) || p.exitCode() != 0) {
        qWarning("etrt_runner failed (exit %d): %s\n%s", p.exitCode(), p.readAllStandardOutput().constData(),
            p.readAllStandardError().constData());
        return std::nullopt;
    }
    QFile f(json);
    if (!f.open(QIODevice::ReadOnly))
        return std::nullopt;
    out.report = nlohmann::json::parse(f.readAll().toStdString(), nullptr, false);
    return out;
}

/** Values of instruction arguments after each KernelCall of one reference run: (instruction, value) -> elements. */
using Recorded = std::map<std::pair<std::size_t, std::int32_t>, std::vector<double>>;

Result<Recorded> referenceValues(const Program& program, const std::string& method, const std::vector<HostTensor>& in)
{
    PTE_TRY(auto rt, ReferenceInterpreter::load(program, method));
    const auto& chain = program.method(method)->chains[0];
    Recorded recorded;
    auto* runtime = rt.get();
    rt->setKernelObserver([&](std::size_t instruction) {
        const auto& k = std::get<KernelCall>(chain.instructions[instruction].args);
        for (const auto arg : k.args)
            if (auto v = runtime->value(arg))
                recorded[{ instruction, arg }] = v->values;
    });
    PTE_CHECK(rt->run(in));
    return recorded;
}

/**
 * The checks every runtime ETDump must pass against its program: joined, each OPERATOR_CALL on a KernelCall, each
 * logged intermediate equal to the reference run's value (`recorded`), `runs` executions in one block.
 */
void checkJoined(
    const EtDump& dump, const EtdumpJoin& join, const Recorded* recorded, int runs, std::size_t* comparedOut = nullptr)
{
    QVERIFY2(!join.hasMismatch(), join.diagnostics.empty() ? "" : join.diagnostics.front().toString().c_str());
    std::size_t operatorCalls = 0;
    std::size_t compared = 0;
    const std::uint32_t firstExecute = [&] {
        for (std::size_t r = 0; r < dump.runs.size(); ++r)
            if (dump.runs[r].name == "Execute")
                return std::uint32_t(r);
        return std::uint32_t(0);
    }();
    for (std::size_t r = 0; r < dump.runs.size(); ++r) {
        const auto& run = dump.runs[r];
        for (std::uint32_t i = run.firstEvent; i < run.firstEvent + run.eventCount; ++i) {
            const auto& e = dump.events[i];
            const auto& j = join.events[i];
            if (dump.eventName(e) == "OPERATOR_CALL") {
                const auto* in = join.instruction(j);
                QVERIFY(in);
                QCOMPARE(in->kind(), InstructionKind::KernelCall);
                ++operatorCalls;
            }
            if (e.kind != EtdumpEventKind::Debug || !e.inInstruction() || !recorded || r != firstExecute)
                continue;
            QVERIFY2(j.value >= 0, "a logged value was not tied to a program value");
            QVERIFY(!j.valueMismatch);
            const auto it = recorded->find({ std::size_t(e.instructionId), j.value });
            QVERIFY2(it != recorded->end(),
                ("no reference value for instruction " + std::to_string(e.instructionId)).c_str());
            const auto* v = dump.value(e);
            QVERIFY(v && v->tensors.size() == 1);
            auto logged = loggedTensorValues(dump, v->tensors.front());
            QVERIFY_RESULT(logged);
            if (!test::nearlyEqual(*logged, it->second, 1e-5))
                QFAIL(("instruction " + std::to_string(e.instructionId) + ", value " + std::to_string(j.value)
                    + ": logged " + test::showValues(*logged) + ", reference " + test::showValues(it->second))
                          .c_str());
            ++compared;
        }
    }
    QVERIFY(operatorCalls > 0);
    if (recorded)
        QVERIFY(compared > 0);
    if (comparedOut)
        *comparedOut = compared;
    auto table = buildProfileTable(dump, &join);
    QVERIFY_RESULT(table);
    const auto execute = std::find_if(
        table->blocks.begin(), table->blocks.end(), [](const ProfileBlock& b) { return b.name == "Execute"; });
    QVERIFY(execute != table->blocks.end());
    QCOMPARE(int(execute->runs.size()), runs);
    for (std::uint32_t k = execute->firstRow; k < execute->firstRow + execute->rowCount; ++k)
        QCOMPARE(int(table->rows[k].raw.size()), runs);
    const auto timings = methodTimings(join);
    QVERIFY(!timings.empty());
    QCOMPARE(int(timings[0].runs), runs);
    QVERIFY(timings[0].executeMedian > 0);
}

std::vector<double> runnerOutput(const nlohmann::json& report, const std::string& method, std::size_t k)
{
    std::vector<double> out;
    for (const auto& v : report["methods"][method]["outputs"][k]["values"])
        out.push_back(v.is_number() ? v.get<double>() : std::nan(""));
    return out;
}

} // namespace

class TestEtdumpRuntime : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void emittedProgramsJoinTheirRealEtdump_data()
    {
        QTest::addColumn<QString>("dump");
        QTest::newRow("add_mul") << "emit/add_mul.json";
        QTest::newRow("view") << "emit/view.json";
        QTest::newRow("counter") << "emit/counter.json";
    }

    void emittedProgramsJoinTheirRealEtdump()
    {
        PTE_REQUIRE_ET_RUNNER();
        QFETCH(QString, dump);
        auto loaded = readDump((test::testDataDir() + QLatin1Char('/') + dump).toStdString());
        QVERIFY_RESULT(loaded);
        const std::string name = QFileInfo(dump).completeBaseName().toStdString();
        EmitOptions options;
        options.initialiseMutableBuffers = true; // counter reads its buffer: start both runtimes from the same state
        options.zeroFillMissingWeights = true;
        auto e = test::emitAndReload((*loaded)->methods, name, options);
        QVERIFY_RESULT(e);
        const auto& program = *e->file->program;
        const auto& plan = program.executionPlan.at(0);
        // Inputs: distinct values per element, so a swapped argument shows.
        std::vector<HostTensor> inputs;
        nlohmann::json json = nlohmann::json::array();
        for (std::size_t k = 0; k < plan.inputs.size(); ++k) {
            const auto* t = plan.values[std::size_t(plan.inputs[k])].tensor();
            QVERIFY(t);
            HostTensor h;
            h.dtype = t->scalarType;
            h.sizes.assign(t->sizes.begin(), t->sizes.end());
            for (std::uint64_t i = 0; i < *t->numel(); ++i)
                h.values.push_back(
                    t->scalarType == ScalarType::Float ? 0.25 * double(i + 1) - double(k) : double(i % 3));
            json.push_back(h.values);
            inputs.push_back(std::move(h));
        }
        const int runs = 3;
        nlohmann::json all;
        all[plan.name] = json;
        auto out = runOnRunner(e->file->path, name, runs, all);
        QVERIFY(out);
        auto etdump = readEtdumpFile(out->etdump); // the debug buffer is found next to it
        QVERIFY_RESULT(etdump);
        QCOMPARE((*etdump)->debugBufferPath, out->buffer);
        const auto sources = makeEtdumpSources(e->file->program, e->output, (*loaded)->methods);
        auto join = joinEtdump(*etdump, sources);
        QVERIFY_RESULT(join);
        auto recorded = referenceValues(program, plan.name, inputs);
        QVERIFY_RESULT(recorded);
        checkJoined(**etdump, **join, &*recorded, runs);
        // Program outputs logged in the ETDump equal the runner's printed outputs.
        std::size_t outputs = 0;
        for (std::size_t i = 0; i < (*etdump)->events.size(); ++i) {
            const auto& j = (*join)->events[i];
            if (j.outputIndex < 0 || i >= (*etdump)->runs[2].firstEvent)
                continue; // first execution only
            const auto* v = (*etdump)->value((*etdump)->events[i]);
            auto logged = loggedTensorValues(**etdump, v->tensors.front());
            QVERIFY_RESULT(logged);
            QVERIFY(test::nearlyEqual(*logged, runnerOutput(out->report, plan.name, std::size_t(j.outputIndex))));
            ++outputs;
        }
        QCOMPARE(outputs, plan.outputs.size());
        // Rows of instructions with debug handles name the graph nodes the emitter recorded (a buffer write-back has
        // no handle, as in ExecuTorch).
        auto table = buildProfileTable(**etdump, join->get());
        QVERIFY_RESULT(table);
        const auto& info = e->output.methods.at(plan.name);
        const auto& handles = e->output.debugHandleMap.at(plan.name);
        std::size_t named = 0;
        for (const auto& row : table->rows) {
            if (row.eventName != "OPERATOR_CALL" || !handles.count(row.instruction))
                continue;
            QVERIFY(info.instructionNodes.contains(row.instruction));
            std::vector<std::string> names;
            for (const auto n : row.nodes)
                names.push_back((*loaded)->methods.at(0).second->graph.nodes[n].name);
            QCOMPARE(names, info.instructionNodes.at(row.instruction));
            ++named;
        }
        QVERIFY(named > 0);
    }

    void corpusProgramsJoinTheirRealEtdump_data()
    {
        QTest::addColumn<QString>("file");
        QTest::newRow("add") << "pytorch_executorch__add.pte";
        QTest::newRow("linear") << "pytorch_executorch__test__models__deprecated__ModuleLinear-no-constant-segment.pte";
        QTest::newRow("softmax") << "pytorch_executorch__operator_and_model_testing__softmax__pte__softmax.pte";
    }

    void corpusProgramsJoinTheirRealEtdump()
    {
        PTE_REQUIRE_ET_RUNNER();
        PTE_REQUIRE_CORPUS();
        QFETCH(QString, file);
        const std::string path = test::corpusPath(QStringLiteral("pte/") + file).toStdString();
        auto pte = readPteFile(path);
        QVERIFY_RESULT(pte);
        const auto& plan = (*pte)->program->executionPlan.at(0);
        // The runner's default fill (documented in its README): 0.1 * ((i + k) % 7) + 0.5.
        std::vector<HostTensor> inputs;
        for (std::size_t k = 0; k < plan.inputs.size(); ++k) {
            const auto* t = plan.values[std::size_t(plan.inputs[k])].tensor();
            QVERIFY(t && t->scalarType == ScalarType::Float);
            HostTensor h;
            h.sizes.assign(t->sizes.begin(), t->sizes.end());
            for (std::uint64_t i = 0; i < *t->numel(); ++i)
                h.values.push_back(double(float(0.1 * double((i + k) % 7) + 0.5)));
            inputs.push_back(std::move(h));
        }
        auto out = runOnRunner(path, QFileInfo(file).completeBaseName().toStdString(), 2, nullptr);
        QVERIFY(out);
        EtdumpReadOptions o;
        o.debugBufferPath = out->buffer;
        auto etdump = readEtdumpFile(out->etdump, o);
        QVERIFY_RESULT(etdump);
        auto join = joinEtdump(*etdump, makeEtdumpSources((*pte)->program));
        QVERIFY_RESULT(join);
        auto recorded = referenceValues(*(*pte)->program, plan.name, inputs);
        QVERIFY_RESULT(recorded);
        checkJoined(**etdump, **join, &*recorded, 2);
    }

    void bundledProgramRunsAgainstItsExpectedOutputs()
    {
        // The tutorial's bundled ConvNet, run on its first test case: the logged program output meets the expected
        // output (numeric gap), and every intermediate the reference interpreter.
        PTE_REQUIRE_ET_RUNNER();
        PTE_REQUIRE_CORPUS();
        auto pte = readPteFile(test::corpusPath(
            QStringLiteral("pte/pytorch_executorch__docs__source__tutorials_source__bundled_program.bp"))
                                   .toStdString());
        QVERIFY_RESULT(pte);
        const auto& bundled = *(*pte)->bundled;
        const std::string inner = (test::tempDir() + QStringLiteral("/tutorial.pte")).toStdString();
        const auto bytes = bundled.program();
        QVERIFY_RESULT(writeFileAtomically(inner, bytes.span()));
        const auto& tc = bundled.testSuites.at(0).testCases.at(0);
        auto input = bundledTensorValues(tc.inputs.at(0));
        QVERIFY_RESULT(input);
        nlohmann::json inputs;
        inputs["forward"] = nlohmann::json::array({ nlohmann::json(*input) });
        auto out = runOnRunner(inner, "tutorial", 1, inputs);
        QVERIFY(out);
        auto etdump = readEtdumpFile(out->etdump);
        QVERIFY_RESULT(etdump);
        auto join = joinEtdump(*etdump, makeEtdumpSources((*pte)->program));
        QVERIFY_RESULT(join);
        const auto& v = tc.inputs[0];
        auto recorded = referenceValues(*(*pte)->program, "forward",
            { HostTensor { v.scalarType, std::vector<std::int64_t>(v.sizes.begin(), v.sizes.end()), *input } });
        QVERIFY_RESULT(recorded);
        std::size_t compared = 0;
        checkJoined(**etdump, **join, &*recorded, 1, &compared);
        QCOMPARE(compared, std::size_t(14 + 2)); // 14 kernels, max_pool2d_with_indices logs two outputs each
        auto expected = bundledTensorValues(tc.expectedOutputs.at(0));
        QVERIFY_RESULT(expected);
        bool found = false;
        for (std::size_t i = 0; i < (*etdump)->events.size(); ++i)
            if ((*join)->events[i].outputIndex == 0) {
                auto logged = loggedTensorValues(**etdump, (*etdump)->value((*etdump)->events[i])->tensors.front());
                QVERIFY_RESULT(logged);
                auto gap = numericGap(*expected, *logged);
                QVERIFY_RESULT(gap);
                QVERIFY2(gap->snr > 60, std::to_string(gap->snr).c_str());
                found = true;
            }
        QVERIFY(found);
    }

    void severalMethodsAreAttributedByTheirEvents()
    {
        // Two methods with different kernels, run in the reverse of program order: the attribution comes from the
        // events, not from the order.
        PTE_REQUIRE_ET_RUNNER();
        auto addMul = readDump((test::testDataDir() + QStringLiteral("/emit/add_mul.json")).toStdString());
        auto view = readDump((test::testDataDir() + QStringLiteral("/emit/view.json")).toStdString());
        QVERIFY_RESULT(addMul);
        QVERIFY_RESULT(view);
        auto e = test::emitAndReload(
            { { "a", (*addMul)->methods.at(0).second }, { "b", (*view)->methods.at(0).second } }, "two_methods");
        QVERIFY_RESULT(e);
        const auto& program = *e->file->program;
        QCOMPARE(program.executionPlan.at(0).name, std::string("a"));
        auto out = runOnRunner(e->file->path, "two_methods", 2, nullptr, "",
            { QStringLiteral("--method"), QStringLiteral("b"), QStringLiteral("--method"), QStringLiteral("a") });
        QVERIFY(out);
        auto etdump = readEtdumpFile(out->etdump);
        QVERIFY_RESULT(etdump);
        QCOMPARE((*etdump)->runs.size(), std::size_t(6)); // (Default, Execute, Execute) per method
        auto join = joinEtdump(*etdump, makeEtdumpSources(e->file->program));
        QVERIFY_RESULT(join);
        QVERIFY(!(*join)->hasMismatch());
        const std::vector<int> expected { 1, 1, 1, 0, 0, 0 };
        for (std::size_t r = 0; r < 6; ++r)
            QCOMPARE((*join)->runs[r].method, expected[r]);
        const auto timings = methodTimings(**join);
        QCOMPARE(timings.size(), std::size_t(2));
        QCOMPARE(timings[0].runs, 2u);
        QCOMPARE(timings[1].runs, 2u);
    }

    void identicalMethodsFollowTheLoadOrder()
    {
        // multi.pte's two methods run the same kernels: only the order of the blocks can tell them apart, and the
        // join says so.
        PTE_REQUIRE_ET_RUNNER();
        PTE_REQUIRE_CORPUS();
        const std::string path =
            test::corpusPath(QStringLiteral("pte/corey-cole_executorch-numpy-runtime__tests__models__multi.pte"))
                .toStdString();
        auto pte = readPteFile(path);
        QVERIFY_RESULT(pte);
        auto out = runOnRunner(path, "multi", 1, nullptr, "");
        QVERIFY(out);
        auto etdump = readEtdumpFile(out->etdump);
        QVERIFY_RESULT(etdump);
        auto join = joinEtdump(*etdump, makeEtdumpSources((*pte)->program));
        QVERIFY_RESULT(join);
        QVERIFY(!(*join)->hasMismatch());
        const std::vector<int> expected { 0, 0, 1, 1 };
        for (std::size_t r = 0; r < 4; ++r)
            QCOMPARE((*join)->runs[r].method, expected[r]);
        QVERIFY(std::any_of((*join)->diagnostics.begin(), (*join)->diagnostics.end(),
            [](const Diagnostic& d) { return d.message.find("by the order of the blocks") != std::string::npos; }));
    }

    void aDumpOfAnotherProgramIsAMismatch()
    {
        PTE_REQUIRE_ET_RUNNER();
        PTE_REQUIRE_CORPUS();
        const std::string add = test::corpusPath(QStringLiteral("pte/pytorch_executorch__add.pte")).toStdString();
        const std::string linear = test::corpusPath(
            QStringLiteral("pte/pytorch_executorch__test__models__deprecated__ModuleLinear-no-constant-segment.pte"))
                                       .toStdString();
        auto out = runOnRunner(linear, "linear-for-add", 1, nullptr, "");
        QVERIFY(out);
        auto etdump = readEtdumpFile(out->etdump);
        QVERIFY_RESULT(etdump);
        auto pte = readPteFile(add);
        QVERIFY_RESULT(pte);
        auto join = joinEtdump(*etdump, makeEtdumpSources((*pte)->program));
        QVERIFY_RESULT(join);
        QVERIFY((*join)->hasMismatch());
    }
    void referenceGapsOfARunnerRun_data()
    {
        QTest::addColumn<bool>("givenInputs");
        QTest::newRow("runner pattern fill") << false;
        QTest::newRow("runner --inputs") << true;
    }

    void referenceGapsOfARunnerRun()
    {
        // (x + y) * 0.5 run by ExecuTorch with every kernel output logged, then compared with the reference
        // interpreter on the same inputs: the fill the runner documents, or the --inputs file it was given.
        PTE_REQUIRE_ET_RUNNER();
        QFETCH(bool, givenInputs);
        auto loaded = readDump((test::testDataDir() + QStringLiteral("/emit/add_mul.json")).toStdString());
        QVERIFY_RESULT(loaded);
        auto e = test::emitAndReload((*loaded)->methods, "add_mul_reference");
        QVERIFY_RESULT(e);
        const auto& plan = *e->file->program->method("forward");
        const nlohmann::json inputs = givenInputs
            ? nlohmann::json { { "forward", { { { -1.5, 2, 0.25 }, { 3, -4, 8 } }, { 1, 2, 3, 4, 5, 6 } } } }
            : nlohmann::json();
        auto out = runOnRunner(e->file->path, givenInputs ? "reference_inputs" : "reference_fill", 1, inputs);
        QVERIFY(out);
        auto reference = givenInputs ? runnerJsonInputs(*e->file->program, "forward", inputs.dump(), "inputs.json")
                                     : Result<ReferenceInputs>(runnerFillInputs(plan, RunnerFill::Pattern));
        QVERIFY_RESULT(reference);
        // The inputs are those the runner reports it set (floats printed with %.9g: exact after rounding to float).
        const auto& reported = out->report["methods"]["forward"]["inputs"];
        QCOMPARE(reported.size(), plan.inputs.size());
        for (std::size_t k = 0; k < plan.inputs.size(); ++k) {
            const auto& want = reference->values[k].values;
            QCOMPARE(reported[k]["values"].size(), want.size());
            for (std::size_t i = 0; i < want.size(); ++i)
                QCOMPARE(double(float(reported[k]["values"][i].get<double>())), want[i]);
        }
        auto etdump = readEtdumpFile(out->etdump);
        QVERIFY_RESULT(etdump);
        auto join = joinEtdump(*etdump, makeEtdumpSources(e->file->program));
        QVERIFY_RESULT(join);
        auto gap = referenceGap(**join, "forward", *reference);
        QVERIFY_RESULT(gap);
        QCOMPARE(gap->rows.size(), std::size_t(3)); // add, mul, the output
        for (const auto& row : gap->rows) {
            QVERIFY2(row.gap, row.reason.c_str());
            QCOMPARE(row.gap->mse, 0.0);
            QCOMPARE(row.gap->l1, 0.0);
            QVERIFY(std::isinf(row.gap->snr) && row.gap->snr > 0);
        }

        // A wrong expectation: the program's 0.5 changed after the run. The add is still right; the mul and the
        // output, which depend on it, are not.
        auto changed = std::make_shared<Program>(*e->file->program);
        auto& values = changed->executionPlan.at(0).values;
        const auto half = std::find_if(values.begin(), values.end(), [](const EValue& v) {
            const auto* d = std::get_if<Double>(&v.val);
            return d && d->doubleVal == 0.5;
        });
        QVERIFY2(half != values.end(), "the emitted program keeps mul's 0.5 as a Double value");
        std::get<Double>(half->val).doubleVal = 0.25;
        auto wrongJoin = joinEtdump(*etdump, makeEtdumpSources(changed));
        QVERIFY_RESULT(wrongJoin);
        auto wrong = referenceGap(**wrongJoin, "forward", *reference);
        QVERIFY_RESULT(wrong);
        QCOMPARE(wrong->rows.size(), std::size_t(3));
        QCOMPARE(wrong->rows[0].op, std::string("aten::add.out"));
        QCOMPARE(wrong->rows[0].gap->mse, 0.0);
        for (std::size_t r = 1; r < 3; ++r) {
            QVERIFY2(wrong->rows[r].gap, wrong->rows[r].reason.c_str());
            QVERIFY(wrong->rows[r].gap->mse > 0);
            QVERIFY(std::isfinite(wrong->rows[r].gap->snr));
        }
        // Each expected element is the logged one halved: (x + y) * 0.25 against (x + y) * 0.5.
        auto logged =
            loggedTensorValues(**etdump, (*etdump)->value((*etdump)->events[wrong->rows[1].event])->tensors[0]);
        QVERIFY_RESULT(logged);
        for (std::size_t i = 0; i < logged->size(); ++i)
            QCOMPARE(wrong->rows[1].expected[i], (*logged)[i] * 0.5);
    }
};

QTEST_GUILESS_MAIN(TestEtdumpRuntime)
#include "tst_etdump_runtime.moc"
