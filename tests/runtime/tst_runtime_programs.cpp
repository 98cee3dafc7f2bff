// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// Programs ptelens emits and rewrites, run on ExecuTorch's own runtime (etrt_runner, $PTELENS_ET_RUNNER): every
// dump under tests/data, every dump of the corpus that can be emitted, the bundled example's delegate-free method,
// and every corpus .pte rewritten by ptelens' writer. Each runs twice, with planned memory filled with 0 and with
// 255 (a program that reads memory it never wrote gives different results), and its outputs must equal those of
// the tests' reference interpreter for the same inputs (rewritten programs: also those of the original file).
// A program the runtime refuses fails with the runner's message.
#include "etrunner.h"
#include "executiontestutils.h"
#include "pte/dumpreader.h"
#include "pte/emitter.h"
#include "pte/kernelcoverage.h"
#include "pte/ptereader.h"
#include "pte/ptewriter.h"
#include "referenceruntime.h"
#include "testutils.h"

#include <QDir>
#include <QDirIterator>
#include <QFileInfo>
#include <QTest>

#include <cmath>
#include <set>

using namespace pte;
using namespace pte::test;

namespace {

/** Dumps whose emission is refused on purpose, with the reason the error must give. */
const std::map<QString, std::string>& refusedDumps()
{
    static const std::map<QString, std::string> refused {
        // A custom class input: ExecuTorch's emitter refuses it ("Custom class ... is not supported in EXIR").
        { QStringLiteral("spec_kinds.json"), "Custom class" },
        // A TensorRT export: CUDA tensors, not a program for ExecuTorch's CPU runtime.
        { QStringLiteral("tensorrt_trt_v7.3.ep"), "is on device cuda" },
    };
    return refused;
}

bool hasDelegates(const ExecutionPlan& plan) { return !plan.delegates.empty(); }

/** An operator of `plan` the runtime has no kernel for (custom-op libraries are not linked into the runner). */
std::optional<std::string> missingOperator(const ExecutionPlan& plan)
{
    for (const auto& op : plan.operators)
        if (!portableKernelImplements(op.qualifiedName()))
            return op.qualifiedName();
    return std::nullopt;
}

/** Runs the delegate-free methods of `file` on the reference interpreter and on the runner (planned memory filled
 *  with 0, then 255) with the same inputs, and compares. Methods with delegates must be refused by the runner with
 *  a missing backend (no backend is linked into it). Returns an error message, or nullopt. */
std::optional<std::string> runBoth(
    const PteFile& file, const std::string& dataPath = {}, const std::set<std::string>* only = nullptr)
{
    const Program& program = *file.program;
    RunnerOptions options;
    options.data = dataPath;
    std::map<std::string, std::vector<HostTensor>> expected;
    for (const auto& plan : program.executionPlan) {
        if (only && !only->count(plan.name))
            continue;
        const auto missing = missingOperator(plan);
        if (hasDelegates(plan) || missing) {
            RunnerOptions one;
            one.methods = { plan.name };
            one.data = dataPath;
            auto run = runEtRunner(file.path, one);
            if (!run)
                return run.error().toString();
            const char* why = missing ? "OperatorMissing" : "is not registered";
            if (run->exitCode != 3 || (run->log + run->detail).find(why) == std::string::npos)
                return "method '" + plan.name + "' " + (missing ? "calls " + *missing : std::string("has a delegate"))
                    + ", which the runner does not link: it should refuse the method, but: " + run->message();
            continue;
        }
        const auto inputs = sampleInputs(plan);
        auto rt = ReferenceRuntime::load(program, plan.name, file.externalData ? &*file.externalData : nullptr);
        if (!rt)
            return "method '" + plan.name + "': the reference interpreter refuses it: " + rt.error().toString();
        auto out = (*rt)->run(inputs);
        if (!out)
            return "method '" + plan.name + "': the reference interpreter fails: " + out.error().toString();
        expected[plan.name] = std::move(*out);
        options.methods.push_back(plan.name);
        options.inputs[plan.name] = runnerInputs(plan, inputs);
    }
    if (options.methods.empty())
        return std::nullopt;
    for (const int fill : { 0, 255 }) {
        options.plannedFill = fill;
        auto run = runEtRunner(file.path, options);
        if (!run)
            return run.error().toString();
        const std::string tag = " (planned memory filled with " + std::to_string(fill) + ")";
        if (run->exitCode != 0)
            return "the runtime refuses the program" + tag + ": " + run->message();
        for (const auto& [name, outputs] : expected) {
            const auto m = run->methods.find(name);
            if (m == run->methods.end() || m->second.execute != "Ok")
                return "method '" + name + "' was not executed" + tag + ": " + run->message();
            if (const auto diff = compareOutputs(m->second.outputs, outputs, 1e-5))
                return "method '" + name + "'" + tag + ": " + *diff;
        }
    }
    return std::nullopt;
}

QString builtExample()
{
    return qEnvironmentVariable("PTELENS_BUILD_DIR") + QStringLiteral("/examples/example.etrecord");
}

} // namespace

class TestRuntimePrograms : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void emittedDumpsRunOnExecuTorch_data()
    {
        QTest::addColumn<QString>("path");
        QDirIterator it(testDataDir(), { QStringLiteral("*.json") }, QDir::Files, QDirIterator::Subdirectories);
        QStringList files;
        while (it.hasNext())
            files << it.next();
        files.sort();
        for (const QString& f : files)
            QTest::newRow(qPrintable(QStringLiteral("tests/data/") + QDir(testDataDir()).relativeFilePath(f))) << f;
        if (!corpusDir().isEmpty()) {
            const QDir dumps(corpusPath(QStringLiteral("dumps")));
            for (const QString& name : dumps.entryList(QDir::Files, QDir::Name))
                if (!name.endsWith(QStringLiteral(".md")))
                    QTest::newRow(qPrintable(QStringLiteral("corpus/") + name)) << dumps.filePath(name);
        }
        QTest::newRow("example.etrecord") << builtExample();
    }

    void emittedDumpsRunOnExecuTorch()
    {
        PTE_REQUIRE_ET_RUNNER();
        QFETCH(QString, path);
        QVERIFY2(QFileInfo::exists(path), qPrintable(path + QStringLiteral(" is missing")));
        auto dump = readDump(path.toStdString());
        QVERIFY_RESULT(dump);
        EmitOptions options;
        options.zeroFillMissingWeights = true; // bare JSON dumps carry no weights
        options.initialiseMutableBuffers = true; // buffers start from the dump's state, not from planned memory
        const QString name = QFileInfo(path).fileName();
        auto emitted = emitAndReload((*dump)->methods, "emitted-" + name.toStdString(), options);
        if (const auto r = refusedDumps().find(name); r != refusedDumps().end()) {
            QVERIFY2(!emitted, "emission should be refused");
            QVERIFY2(emitted.error().message.find(r->second) != std::string::npos, emitted.error().message.c_str());
            return;
        }
        QVERIFY_RESULT(emitted);
        const auto failure = runBoth(*emitted->file);
        QVERIFY2(!failure, failure ? failure->c_str() : "");
    }

    void rewrittenCorpusProgramsRunAsTheOriginal_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addColumn<QString>("data");
        if (corpusDir().isEmpty())
            return;
        const QDir dir(corpusPath(QStringLiteral("pte")));
        for (const QString& name : dir.entryList({ QStringLiteral("*.pte") }, QDir::Files, QDir::Name)) {
            // The data-map example keeps its weights in a .ptd beside it.
            QString data;
            if (name.contains(QStringLiteral("data_map__model__model")))
                data = dir.filePath(QStringLiteral(
                    "barakugav_executorch-rs__examples__data_map__model___default_external_constant.ptd"));
            QTest::newRow(qPrintable(name)) << dir.filePath(name) << data;
        }
    }

    void rewrittenCorpusProgramsRunAsTheOriginal()
    {
        PTE_REQUIRE_CORPUS();
        PTE_REQUIRE_ET_RUNNER();
        QFETCH(QString, path);
        QFETCH(QString, data);
        ReadOptions ro;
        ro.findExternalDataNextToFile = false;
        auto original = readPteFile(path.toStdString(), ro);
        if (!original) {
            QVERIFY2(path.contains(QStringLiteral("corrupt")), original.error().message.c_str());
            QSKIP("not a valid .pte (ptelens and the runtime refuse it)");
        }
        const QString out = tempDir() + QStringLiteral("/rewritten-") + QFileInfo(path).fileName();
        QVERIFY_RESULT(writePte(*(*original)->program, out.toStdString()));
        // The rewrite behaves on the runtime exactly as the original: same result, same output bits.
        std::set<std::string> executed;
        for (const auto& p : (*original)->program->executionPlan) {
            RunnerOptions options;
            options.methods = { p.name };
            options.data = data.toStdString();
            options.inputs[p.name] = runnerInputs(p, sampleInputs(p));
            auto a = runEtRunner(path.toStdString(), options);
            auto b = runEtRunner(out.toStdString(), options);
            QVERIFY_RESULT(a);
            QVERIFY_RESULT(b);
            QCOMPARE(b->exitCode, a->exitCode);
            QCOMPARE(b->detail, a->detail);
            if (a->methods[p.name].execute == "Ok")
                executed.insert(p.name);
            const auto& oa = a->methods[p.name].outputs;
            const auto& ob = b->methods[p.name].outputs;
            QCOMPARE(ob.size(), oa.size());
            for (std::size_t k = 0; k < oa.size(); ++k) {
                QCOMPARE(ob[k].tag, oa[k].tag);
                QCOMPARE(ob[k].dtype, oa[k].dtype);
                QCOMPARE(ob[k].sizes, oa[k].sizes);
                QCOMPARE(ob[k].text, oa[k].text);
                QCOMPARE(ob[k].values.size(), oa[k].values.size());
                for (std::size_t e = 0; e < oa[k].values.size(); ++e)
                    QVERIFY(ob[k].values[e] == oa[k].values[e]
                        || (std::isnan(ob[k].values[e]) && std::isnan(oa[k].values[e])));
            }
        }
        // And the rewrite's results are the reference interpreter's, for every method the runtime executes (the
        // others were refused alike above: delegates and custom operators not linked, external data not published).
        ro.externalDataPath = data.toStdString();
        auto rewritten = readPteFile(out.toStdString(), ro);
        QVERIFY_RESULT(rewritten);
        const auto failure = runBoth(**rewritten, data.toStdString(), &executed);
        QVERIFY2(!failure, failure ? failure->c_str() : "");
    }
};

QTEST_GUILESS_MAIN(TestRuntimePrograms)
#include "tst_runtime_programs.moc"
