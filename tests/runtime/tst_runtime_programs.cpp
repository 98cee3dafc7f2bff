// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// Programs ptelens emits and rewrites, run on ExecuTorch's own runtime (etrt_runner, $PTELENS_ET_RUNNER; programs with
// XNNPACK delegates on etrt_runner_xnnpack, $PTELENS_ET_RUNNER_XNNPACK, the same runtime with the XNNPACK backend):
// every dump under tests/data, every dump of the corpus that can be emitted, the bundled example, and every corpus
// .pte rewritten by ptelens' writer. Each runs twice, with planned memory filled with 0 and with 255 (a program that
// reads memory it never wrote gives different results), and its outputs must equal those of the tests' reference
// interpreter for the same inputs (a delegate computing what its lowered module's original program computes;
// rewritten programs: also those of the original file). A program the runtime refuses fails with the runner's
// message; delegates of other backends must be refused for want of the backend.
#include "../core/delegatetestutils.h"
#include "../core/dumptestutils.h"
#include "dumpbuilder.h"
#include "errorcheck.h"
#include "etrunner.h"
#include "executiontestutils.h"
#include "pte/dumpreader.h"
#include "pte/emitter.h"
#include "pte/kernelcoverage.h"
#include "pte/ptereader.h"
#include "pte/ptewriter.h"
#include "pte/referenceinterpreter.h"
#include "ptefbbuilder.h"
#include "testutils.h"

#include <QDir>
#include <QDirIterator>
#include <QFileInfo>
#include <QTest>

#include <algorithm>
#include <cmath>
#include <functional>
#include <optional>
#include <set>

using namespace pte;
using namespace pte::test;
using nlohmann::json;

namespace {

/** Dumps whose emission is refused on purpose, with the reason the error must give. */
const std::map<QString, std::pair<ErrorCode, std::string>>& refusedDumps()
{
    static const std::map<QString, std::pair<ErrorCode, std::string>> refused {
        // A TensorRT export: CUDA tensors, not a program for ExecuTorch's CPU runtime.
        { QStringLiteral("tensorrt_trt_v7.3.ep"), { ErrorCode::Unsupported, "is on device cuda" } },
    };
    return refused;
}

bool hasDelegates(const ExecutionPlan& plan) { return !plan.delegates.empty(); }

bool isXnnpack(const BackendDelegate& d) { return d.id == "XnnpackBackend"; }

/** Every delegate of `plan` is an XNNPACK one (and there is one). */
bool xnnpackOnly(const ExecutionPlan& plan)
{
    return hasDelegates(plan) && std::all_of(plan.delegates.begin(), plan.delegates.end(), isXnnpack);
}

/** An operator of `plan` the runtime has no kernel for (custom-op libraries are not linked into the runner). */
std::optional<std::string> missingOperator(const ExecutionPlan& plan)
{
    for (const auto& op : plan.operators)
        if (!portableKernelImplements(op.qualifiedName()))
            return op.qualifiedName();
    return std::nullopt;
}

/** What each method's delegates compute (ReferenceInterpreter::setDelegateHandler), by method name. */
using DelegateHandlers = std::map<std::string, ReferenceInterpreter::DelegateHandler>;

/** The delegate handlers of methods emitted from `methods`: their lowered modules' original programs. */
DelegateHandlers originalModules(
    const std::vector<std::pair<std::string, std::shared_ptr<const ExportedProgram>>>& methods)
{
    DelegateHandlers handlers;
    for (const auto& [name, program] : methods)
        if (!program->loweredModules.empty())
            handlers[name] = originalModuleDelegates(program);
    return handlers;
}

/**
 * Runs the methods of `file` on the reference interpreter and on the runtime (planned memory filled with 0, then 255)
 * with the same inputs, and compares: delegate-free methods on etrt_runner, methods whose delegates are all XNNPACK
 * ones on etrt_runner_xnnpack when `delegates` says what they compute (their expected values). Other methods with
 * delegates must be refused by etrt_runner for want of the backend (it links none), methods calling an operator it
 * lacks for want of the kernel. Returns an error message, or nullopt.
 */
std::optional<std::string> runBoth(const PteFile& file, const std::string& dataPath = {},
    const std::set<std::string>* only = nullptr, const DelegateHandlers& delegates = {})
{
    const Program& program = *file.program;
    RunnerOptions portable;
    portable.data = dataPath;
    RunnerOptions xnnpack = portable;
    xnnpack.xnnpack = true;
    const bool haveXnnpack = !etRunnerXnnpackPath().isEmpty();
    std::map<std::string, std::vector<HostTensor>> expected;
    for (const auto& plan : program.executionPlan) {
        if (only && !only->count(plan.name))
            continue;
        const auto missing = missingOperator(plan);
        const auto handler = delegates.find(plan.name);
        const bool onXnnpack = !missing && xnnpackOnly(plan) && handler != delegates.end() && haveXnnpack;
        if (missing || (hasDelegates(plan) && !onXnnpack)) {
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
        auto rt = ReferenceInterpreter::load(program, plan.name, file.externalData ? &*file.externalData : nullptr);
        if (!rt)
            return "method '" + plan.name + "': the reference interpreter refuses it: " + rt.error().toString();
        if (onXnnpack)
            (*rt)->setDelegateHandler(handler->second);
        auto out = (*rt)->run(inputs);
        if (!out)
            return "method '" + plan.name + "': the reference interpreter fails: " + out.error().toString();
        expected[plan.name] = std::move(*out);
        RunnerOptions& options = onXnnpack ? xnnpack : portable;
        options.methods.push_back(plan.name);
        options.inputs[plan.name] = runnerInputs(plan, inputs);
    }
    for (RunnerOptions* options : { &portable, &xnnpack }) {
        if (options->methods.empty())
            continue;
        for (const int fill : { 0, 255 }) {
            options->plannedFill = fill;
            auto run = runEtRunner(file.path, *options);
            if (!run)
                return run.error().toString();
            const std::string tag = " (" + run->runner + ", planned memory filled with " + std::to_string(fill) + ")";
            if (run->exitCode != 0)
                return "the runtime refuses the program" + tag + ": " + run->message();
            for (const auto& name : options->methods) {
                const auto m = run->methods.find(name);
                if (m == run->methods.end() || m->second.execute != "Ok")
                    return "method '" + name + "' was not executed" + tag + ": " + run->message();
                if (const auto diff = compareOutputs(m->second.outputs, expected.at(name), 1e-5))
                    return "method '" + name + "'" + tag + ": " + *diff;
            }
        }
    }
    return std::nullopt;
}

const QString kXor = QStringLiteral(
    "pte/pytorch_executorch__extension__android__executorch_android__src__androidTest__resources__xor.pte");

/**
 * Writes a .ptd `name` for the corpus xor.pte's EXTERNAL weights into the test's temporary folder, each in the layout
 * the program declares, with values of our own (with `intWeight`, net.linear.weight as Int of the same byte size),
 * and opens xor.pte with it (the .ptd's path is then the file's externalData->path).
 */
Result<std::shared_ptr<const PteFile>> openXorWithPtd(const QString& name, bool intWeight)
{
    ReadOptions ro;
    ro.findExternalDataNextToFile = false;
    PTE_TRY(const auto bare, readPteFile(corpusPath(kXor).toStdString(), ro));
    if (!bare->program->method("forward"))
        return fail(ErrorCode::InvalidInput, "xor.pte has no method 'forward'");
    std::vector<readertest::PtdTensor> tensors;
    std::size_t plannedWithIndex = 0;
    for (const auto& v : bare->program->method("forward")->values) {
        const Tensor* t = v.tensor();
        if (!t || !t->extraTensorInfo || t->extraTensorInfo->location != TensorDataLocation::External)
            continue;
        plannedWithIndex += t->allocationInfo && t->dataBufferIdx > 0;
        std::vector<float> data(std::size_t(t->numel().value_or(0)));
        for (std::size_t k = 0; k < data.size(); ++k)
            data[k] = float(int((tensors.size() * 7 + k * 3) % 11) - 5) / 8.0f;
        const std::string& fqn = *t->extraTensorInfo->fullyQualifiedName;
        const ScalarType type = intWeight && fqn == "net.linear.weight" ? ScalarType::Int : t->scalarType;
        readertest::PtdTensor pt { fqn, type, t->sizes, t->dimOrder, {} };
        pt.data.resize(data.size() * sizeof(float));
        std::memcpy(pt.data.data(), data.data(), pt.data.size());
        tensors.push_back(std::move(pt));
    }
    // net.linear{,2}.{weight,bias}, planned with a data_buffer_idx (the case the interpreter once read from the
    // mutable data segment, which this program does not have)
    if (tensors.size() != 4 || plannedWithIndex < 3)
        return fail(ErrorCode::InvalidInput,
            "xor.pte's forward has " + std::to_string(tensors.size()) + " EXTERNAL weights, "
                + std::to_string(plannedWithIndex) + " planned with a data_buffer_idx; expected 4 and at least 3");
    const QString path = tempDir() + QLatin1Char('/') + name;
    const auto bytes = readertest::encodePtd(tensors);
    if (!writeFile(path, QByteArray(reinterpret_cast<const char*>(bytes.data()), qsizetype(bytes.size()))))
        return fail(ErrorCode::Io, "cannot write " + path.toStdString());
    ro.externalDataPath = path.toStdString();
    PTE_TRY(auto opened, readPteFile(corpusPath(kXor).toStdString(), ro));
    if (!opened->externalData)
        return fail(ErrorCode::InvalidInput, "xor.pte opened without the .ptd just written, " + path.toStdString());
    return opened;
}

/** The first KernelCall of `plan` calling `op`, or null. */
KernelCall* findCall(ExecutionPlan& plan, const std::string& op)
{
    for (auto& in : plan.chains.at(0).instructions)
        if (auto* k = std::get_if<KernelCall>(&in.args);
            k && plan.operators.at(std::size_t(k->opIndex)).qualifiedName() == op)
            return k;
    return nullptr;
}

/** A program the runtime must refuse: emitted from a sound dump, then broken the way an emitter could get it wrong. */
struct Broken
{
    Dump dump;
    std::vector<HostTensor> inputs;
    std::function<bool(ExecutionPlan&)> breakIt; ///< false when the program does not have what it breaks
};

/** Runs `file`'s forward on etrt_runner_xnnpack (planned memory filled with 0, then 255) with `inputs` and compares
 *  its one output with `expected`, values computed from the ops' definitions. Returns an error message, or nullopt. */
std::optional<std::string> runsOnXnnpack(
    const PteFile& file, const std::vector<HostTensor>& inputs, const HostTensor& expected)
{
    RunnerOptions options;
    options.xnnpack = true;
    options.methods = { "forward" };
    options.inputs["forward"] = runnerInputs(*file.program->method("forward"), inputs);
    for (const int fill : { 0, 255 }) {
        options.plannedFill = fill;
        auto run = runEtRunner(file.path, options);
        if (!run)
            return run.error().toString();
        const std::string tag = " (planned memory filled with " + std::to_string(fill) + ")";
        if (run->exitCode != 0 || run->methods["forward"].execute != "Ok")
            return "forward did not run" + tag + ": " + run->message();
        if (const auto diff = compareOutputs(run->methods["forward"].outputs, { expected }, 1e-6, "op definitions"))
            return *diff + tag;
    }
    return std::nullopt;
}

QString builtExample()
{
    return qEnvironmentVariable("PTELENS_BUILD_DIR") + QStringLiteral("/examples/example.etrecord");
}

/** Emits `dump` as the runtime tests do (bare JSON dumps carry no weights; buffers start from the dump's state),
 *  delegate payloads in segments of their own (ExecuTorch's default) or inline in the flatbuffer. */
Result<Emitted> emitDump(const DumpSet& dump, const std::string& name, bool inlineDelegates = false)
{
    EmitOptions options;
    options.zeroFillMissingWeights = true;
    options.initialiseMutableBuffers = true;
    options.serialize.extractDelegateSegments = !inlineDelegates;
    return emitAndReload(dump.methods, name, options);
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
        if (corpusRowsAvailable()) {
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
        PTE_REQUIRE_CORPUS_ROW();
        QFETCH(QString, path);
        QVERIFY2(QFileInfo::exists(path), qPrintable(path + QStringLiteral(" is missing")));
        auto dump = readDump(path.toStdString());
        QVERIFY_RESULT(dump);
        const QString name = QFileInfo(path).fileName();
        auto emitted = emitDump(**dump, "emitted-" + name.toStdString());
        if (const auto r = refusedDumps().find(name); r != refusedDumps().end()) {
            QVERIFY_ERROR(emitted, r->second.first, r->second.second);
            return;
        }
        QVERIFY_RESULT(emitted);
        const auto failure = runBoth(*emitted->file, {}, nullptr, originalModules((*dump)->methods));
        QVERIFY2(!failure, failure ? failure->c_str() : "");
    }

    // The delegated programs of tests/data and the bundled example on etrt_runner_xnnpack, against values computed
    // here from the ops' definitions (not by the reference interpreter): the delegate dumps return (x + y) * y (an
    // XNNPACK add, then aten::mul), the example's forward relu(x * x) * scale (an XNNPACK multiply with the relu fused,
    // then aten::mul by the parameter), each element rounded to float32 after every op as torch computes it.
    // Each with the payload in a segment of its own and inline in the flatbuffer.
    void delegatedProgramsComputeTheirOps_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addColumn<bool>("inlineDelegates");
        const QString dumps = testDataDir() + QStringLiteral("/dumps/");
        for (const bool inlined : { false, true }) {
            const char* layout = inlined ? ", payload inline" : ", payload in a segment";
            QTest::addRow("delegate_edge.json%s", layout) << dumps + QStringLiteral("delegate_edge.json") << inlined;
            QTest::addRow("delegate_named_data.json%s", layout)
                << dumps + QStringLiteral("delegate_named_data.json") << inlined;
            QTest::addRow("example.etrecord%s", layout) << builtExample() << inlined;
        }
        // An ETRecord whose edge program is delegate_edge.json: its lowered module as ETRecords carry them.
        const QString etrecord = tempDir() + QStringLiteral("/delegate_edge.etrecord");
        if (writeZip(etrecord,
                { { "ETRECORD_V0", "" }, { "edge_dialect_exported_program", readDumpData("delegate_edge.json") },
                    { "debug_handle_map", R"({"forward": {"0": [1], "1": [2]}})" },
                    { "delegate_map", R"({"forward": {"0": {"name": "XnnpackBackend", "delegate_map": {}}}})" } }))
            QTest::addRow("delegate_edge.json in an ETRecord") << etrecord << false;
    }

    void delegatedProgramsComputeTheirOps()
    {
        PTE_REQUIRE_ET_RUNNER_XNNPACK();
        QFETCH(QString, path);
        QFETCH(bool, inlineDelegates);
        auto dump = readDump(path.toStdString());
        QVERIFY_RESULT(dump);
        auto emitted = emitDump(**dump,
            "ops-" + QFileInfo(path).completeBaseName().toStdString() + (inlineDelegates ? "-inline" : "-segment"),
            inlineDelegates);
        QVERIFY_RESULT(emitted);
        const ExecutionPlan& plan = *emitted->file->program->method("forward");
        QVERIFY(xnnpackOnly(plan));
        QCOMPARE(plan.delegates[0].processed.location, inlineDelegates ? DataLocation::Inline : DataLocation::Segment);
        const auto inputs = sampleInputs(plan);
        HostTensor expected = inputs.at(0);
        if (plan.inputs.size() == 2) { // (x + y) * y
            const auto& y = inputs.at(1).values;
            for (std::size_t e = 0; e < expected.values.size(); ++e)
                expected.values[e] = double(float(float(expected.values[e]) + float(y.at(e))) * float(y.at(e)));
        } else { // relu(x * x) * scale, scale broadcast over the last dimension
            const auto& weights = (*dump)->methods.at(0).second->weights;
            const auto scale = tensorElements(weights.at("scale"), 1024);
            QVERIFY(scale && !scale->empty());
            for (std::size_t e = 0; e < expected.values.size(); ++e) {
                const float x = float(expected.values[e]);
                expected.values[e] = double(std::max(x * x, 0.0f) * float((*scale)[e % scale->size()]));
            }
        }
        const auto failure = runsOnXnnpack(*emitted->file, inputs, expected);
        QVERIFY2(!failure, failure ? failure->c_str() : "");
    }

    // A lowered module's named data reaches the backend: delegate_edge.json with a payload that adds a float32 [2, 2]
    // constant held in named data under the key weights_0 (1, 2, 3, 4 in place of the module's 4-byte weights_0)
    // and multiplies by y; the program then multiplies by y again: ((x + c) * y) * y.
    void namedDataReachesTheBackend()
    {
        PTE_REQUIRE_ET_RUNNER_XNNPACK();
        XnnGraphBuilder b;
        const auto x = b.input({ 2, 2 });
        const auto y = b.input({ 2, 2 });
        const auto z = b.output({ 2, 2 });
        const auto c = b.tensor({ 2, 2 }, xf::XNNDatatype::fp32, b.namedConstant("weights_0", 16));
        const auto t = b.tensor({ 2, 2 });
        b.binary(XnnGraphBuilder::Tag::XNNAdd, x, c, t, 1);
        b.binary(XnnGraphBuilder::Tag::XNNMultiply, t, y, z, 1);
        const std::vector<float> constant { 1, 2, 3, 4 };
        QByteArray json = withPayload(readDumpData(QStringLiteral("delegate_edge.json")), b.finish());
        QCOMPARE(json.count("AQIDBA=="), qsizetype(1)); // weights_0's 4 bytes
        json.replace("AQIDBA==", QByteArray(reinterpret_cast<const char*>(constant.data()), 16).toBase64());
        const QString path = tempDir() + QStringLiteral("/delegate_named_constant.json");
        QVERIFY(writeFile(path, json));
        auto dump = readDump(path.toStdString());
        QVERIFY_RESULT(dump);
        auto emitted = emitDump(**dump, "delegate_named_constant");
        QVERIFY_RESULT(emitted);
        const ExecutionPlan& plan = *emitted->file->program->method("forward");
        const auto inputs = sampleInputs(plan);
        HostTensor expected = inputs.at(0);
        for (std::size_t e = 0; e < expected.values.size(); ++e) {
            const float yv = float(inputs.at(1).values.at(e));
            expected.values[e] = double(float(float(float(expected.values[e]) + constant.at(e)) * yv) * yv);
        }
        const auto failure = runsOnXnnpack(*emitted->file, inputs, expected);
        QVERIFY2(!failure, failure ? failure->c_str() : "");
    }

    // A delegate the runtime rejects fails the test with the runtime's message: delegate_edge.json with the bytes it
    // once carried ("XN01" and four bytes, no XNNPACK graph) in place of its payload.
    void rejectedDelegateFailsWithTheRuntimesMessage()
    {
        PTE_REQUIRE_ET_RUNNER();
        PTE_REQUIRE_ET_RUNNER_XNNPACK();
        const QByteArray json =
            withPayload(readDumpData(QStringLiteral("delegate_edge.json")), { 'X', 'N', '0', '1', 0, 1, 2, 3 });
        const QString path = tempDir() + QStringLiteral("/delegate_malformed.json");
        QVERIFY(!json.isEmpty() && writeFile(path, json));
        auto dump = readDump(path.toStdString());
        QVERIFY_RESULT(dump);
        auto emitted = emitDump(**dump, "delegate_malformed");
        QVERIFY_RESULT(emitted);
        const auto failure = runBoth(*emitted->file, {}, nullptr, originalModules((*dump)->methods));
        QVERIFY2(failure, "the runtime ran a delegate that is no XNNPACK graph");
        QVERIFY2(failure->find("the runtime refuses the program (etrt_runner_xnnpack") != std::string::npos
                && failure->find("XNNHeader may be corrupt") != std::string::npos,
            failure->c_str());
    }

    void referenceRefusesWhatTheRuntimeRefuses_data()
    {
        // Each row: a program the runtime refuses, the runtime's message and the reference interpreter's. The
        // interpreter applies the portable kernels' own checks, so it must refuse it too.
        QTest::addColumn<int>("row");
        QTest::addColumn<QString>("runtimeSays");
        QTest::addColumn<QString>("referenceSays");
        QTest::addColumn<int>("code");
        QTest::newRow("permute_copy writing a transposed dim order")
            << 0 << "different dim orders"
            << "different dim orders" << int(ErrorCode::InvalidInput);
        QTest::newRow("batch norm in training mode") << 1 << "only support inference mode"
                                                     << "only support inference mode" << int(ErrorCode::InvalidInput);
        QTest::newRow("view_copy to another number of elements") << 2 << "resize"
                                                                 << "resize" << int(ErrorCode::InvalidInput);
        QTest::newRow("mm writing another dtype") << 3 << "dtype"
                                                  << "dtype" << int(ErrorCode::InvalidInput);
    }

    void referenceRefusesWhatTheRuntimeRefuses()
    {
        PTE_REQUIRE_ET_RUNNER();
        QFETCH(int, row);
        QFETCH(QString, runtimeSays);
        QFETCH(QString, referenceSays);
        QFETCH(int, code);
        Broken b;
        switch (row) {
        case 0: // t(w) + x: the permute_copy's out keeps the view's dim order [1, 0], as ptelens once emitted it
            b.dump.weight("p_w", "w", { 2, 3 }, values(6, 1));
            b.dump.input("x", { 3, 2 });
            b.dump.node("t", "t.default", json::array({ arg("self", T("p_w")) }), { 3, 2 });
            b.dump.node("y", "add.Tensor", json::array({ arg("self", T("t")), arg("other", T("x")) }), { 3, 2 });
            b.dump.output("y");
            b.inputs = { HostTensor::floats({ 3, 2 }, values(6, 2)) };
            b.breakIt = [](ExecutionPlan& p) {
                auto* k = findCall(p, "aten::permute_copy.out");
                if (!k)
                    return false;
                std::get<Tensor>(p.values.at(std::size_t(k->args.at(2))).val).dimOrder = { 1, 0 };
                return true;
            };
            break;
        case 1: // _native_batch_norm_legit(training=False), its training flag then set
            b.dump.weight("b_rm", "rm", { 3 }, { 0, 0.5, 1 }, false);
            b.dump.weight("b_rv", "rv", { 3 }, { 1, 2, 0.5 }, false);
            b.dump.input("x", { 2, 3 });
            b.dump.tupleNode("bn", "_native_batch_norm_legit.default",
                json::array({ arg("input", T("x")), arg("weight", None()), arg("bias", None()),
                    arg("running_mean", T("b_rm")), arg("running_var", T("b_rv")), arg("training", B(false)),
                    arg("momentum", F(0.1)), arg("eps", F(1e-5)) }),
                { { "out", { 2, 3 } }, { "save_mean", { 0 } }, { "save_rstd", { 0 } } });
            b.dump.output("out");
            b.inputs = { HostTensor::floats({ 2, 3 }, values(6, 3)) };
            b.breakIt = [](ExecutionPlan& p) {
                auto* k = findCall(p, "aten::_native_batch_norm_legit.out");
                if (!k)
                    return false;
                std::get<Bool>(p.values.at(std::size_t(k->args.at(5))).val).boolVal = true;
                return true;
            };
            break;
        case 2: // view(x, [3, 2]) asking for [3, 3]
            b.dump.input("x", { 2, 3 });
            b.dump.node(
                "y", "view.default", json::array({ arg("self", T("x")), arg("size", Ints({ 3, 2 })) }), { 3, 2 });
            b.dump.output("y");
            b.inputs = { HostTensor::floats({ 2, 3 }, values(6, 4)) };
            b.breakIt = [](ExecutionPlan& p) {
                auto* k = findCall(p, "aten::view_copy.out");
                if (!k)
                    return false;
                const auto& size = std::get<IntList>(p.values.at(std::size_t(k->args.at(1))).val).items;
                std::get<Int>(p.values.at(std::size_t(size.at(1))).val).intVal = 3;
                return true;
            };
            break;
        default: // mm of floats into an Int tensor (same size)
            b.dump.input("a", { 2, 2 });
            b.dump.input("c", { 2, 2 });
            b.dump.node("y", "mm.default", json::array({ arg("self", T("a")), arg("mat2", T("c")) }), { 2, 2 });
            b.dump.output("y");
            b.inputs = { HostTensor::floats({ 2, 2 }, values(4, 5)), HostTensor::floats({ 2, 2 }, values(4, 6)) };
            b.breakIt = [](ExecutionPlan& p) {
                auto* k = findCall(p, "aten::mm.out");
                if (!k)
                    return false;
                std::get<Tensor>(p.values.at(std::size_t(k->args.at(2))).val).scalarType = ScalarType::Int;
                return true;
            };
            break;
        }
        auto ep = b.dump.build("broken");
        QVERIFY_RESULT(ep);
        auto emitted = emitAndReload({ { "forward", *ep } }, "broken" + std::to_string(row));
        QVERIFY_RESULT(emitted);
        // The sound program runs on both.
        {
            auto sound = ReferenceInterpreter::load(*emitted->file->program, "forward");
            QVERIFY_RESULT(sound);
            QVERIFY_RESULT((*sound)->run(b.inputs));
        }
        Program broken = *emitted->file->program;
        QVERIFY(b.breakIt(broken.executionPlan.at(0)));
        const std::string path = (tempDir() + QStringLiteral("/broken%1.pte").arg(row)).toStdString();
        QVERIFY_RESULT(writePte(broken, path));
        RunnerOptions options;
        options.inputs["forward"] = runnerInputs(broken.executionPlan[0], b.inputs);
        auto run = runEtRunner(path, options);
        QVERIFY_RESULT(run);
        QVERIFY2(run->exitCode != 0, "the runtime accepted the broken program");
        QVERIFY2(QString::fromStdString(run->log).contains(runtimeSays), run->message().c_str());
        auto rt = ReferenceInterpreter::load(broken, "forward");
        std::optional<Error> refused;
        if (!rt) {
            refused = rt.error();
        } else if (auto out = (*rt)->run(b.inputs); !out) {
            refused = out.error();
        }
        QVERIFY2(refused, "the reference interpreter accepted a program the runtime refuses");
        QVERIFY_ERROR(*refused, ErrorCode(code), referenceSays.toStdString());
    }

    void layoutsAreExecuTorchs()
    {
        // Dim orders as the edge dialect derives them: t(w) is a permute_copy writing a contiguous tensor (the dump
        // says [1, 0], its view strides: an info diagnostic names the node); relu keeps a channels-last input's
        // layout; _to_copy without a memory format writes a contiguous tensor. The program runs on the runtime
        // and on the reference interpreter alike.
        PTE_REQUIRE_ET_RUNNER();
        Dump d;
        d.weight("p_w", "w", { 2, 3 }, values(6, 7));
        d.input("x", { 3, 2 });
        d.input("img", { 1, 2, 2, 3 });
        d.strides("img", { 12, 1, 6, 2 }); // channels-last
        d.node("t", "t.default", json::array({ arg("self", T("p_w")) }), { 3, 2 });
        d.strides("t", { 1, 3 }); // a view of w, as torch.export records it
        d.node("y", "add.Tensor", json::array({ arg("self", T("t")), arg("other", T("x")) }), { 3, 2 });
        d.node("r", "relu.default", json::array({ arg("self", T("img")) }), { 1, 2, 2, 3 });
        d.strides("r", { 12, 1, 6, 2 });
        d.node("l", "_to_copy.default", json::array({ arg("self", T("img")), kwarg("dtype", Dtype(kLong)) }),
            { 1, 2, 2, 3 }, kLong);
        for (const char* o : { "y", "r", "l" })
            d.output(o);
        auto ep = d.build("layouts");
        QVERIFY_RESULT(ep);
        auto emitted = emitAndReload({ { "forward", *ep } }, "layouts");
        QVERIFY_RESULT(emitted);
        const ExecutionPlan& plan = *emitted->file->program->method("forward");
        auto orderOf = [&](std::size_t output) {
            return plan.values.at(std::size_t(plan.outputs.at(output))).tensor()->dimOrder;
        };
        QCOMPARE(orderOf(0), (std::vector<std::uint8_t> { 0, 1 }));
        QCOMPARE(orderOf(1), (std::vector<std::uint8_t> { 0, 2, 3, 1 }));
        QCOMPARE(orderOf(2), (std::vector<std::uint8_t> { 0, 1, 2, 3 }));
        const auto& permute = *findCall(const_cast<ExecutionPlan&>(plan), "aten::permute_copy.out");
        QCOMPARE(
            plan.values.at(std::size_t(permute.args.at(2))).tensor()->dimOrder, (std::vector<std::uint8_t> { 0, 1 }));
        std::size_t notes = 0;
        for (const auto& w : emitted->output.warnings)
            if (w.severity == Severity::Info && w.message.find("node 't'") != std::string::npos
                && w.message.find("[1, 0]") != std::string::npos)
                ++notes;
        QCOMPARE(notes, std::size_t(1));
        const auto failure = runBoth(*emitted->file);
        QVERIFY2(!failure, failure ? failure->c_str() : "");
    }

    void plannedExternalWeightsStartFromThePtd()
    {
        // ExecuTorch's training example (xor) keeps its weights in a .ptd and plans them in the arena, where the
        // optimizer updates them: EXTERNAL tensors with allocation_info and a data_buffer_idx > 0. The runtime copies
        // each one's bytes from the .ptd into its planned place at load; the data_buffer_idx is not read (there is no
        // mutable data segment to read it from). The .ptd is written here, with values of our own.
        PTE_REQUIRE_CORPUS();
        PTE_REQUIRE_ET_RUNNER();
        auto file = openXorWithPtd(QStringLiteral("xor.ptd"), false);
        QVERIFY_RESULT(file);
        const std::set<std::string> only { "forward" };
        const auto failure = runBoth(**file, (*file)->externalData->path, &only);
        QVERIFY2(!failure, failure ? failure->c_str() : "");
    }

    void externalWeightsOfAnotherLayoutAreRefused()
    {
        // A .ptd whose net.linear.weight has the program's byte size but another dtype (Int instead of Float): the
        // runtime refuses to load the method, and so must the interpreter, rather than read the ints as floats.
        PTE_REQUIRE_CORPUS();
        PTE_REQUIRE_ET_RUNNER();
        auto file = openXorWithPtd(QStringLiteral("xor-int.ptd"), true);
        QVERIFY_RESULT(file);
        auto rt = ReferenceInterpreter::load(*(*file)->program, "forward", &*(*file)->externalData);
        QVERIFY(!rt);
        const std::string message = rt.error().message;
        QVERIFY2(message.find("'net.linear.weight' has layout f32(6)") != std::string::npos
                && message.find("stores i32(3)") != std::string::npos,
            message.c_str());
        RunnerOptions options;
        options.methods = { "forward" };
        options.data = (*file)->externalData->path;
        auto run = runEtRunner(corpusPath(kXor).toStdString(), options);
        QVERIFY_RESULT(run);
        QVERIFY2(run->exitCode != 0 && run->methods["forward"].load != "Ok", run->message().c_str());
    }

    void rewrittenCorpusProgramsRunAsTheOriginal_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addColumn<QString>("data");
        if (!corpusRowsAvailable())
            return; // one row: the test says the corpus is missing
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
        // The rewrite behaves on the runtime exactly as the original: same result, same output bits. Methods with
        // XNNPACK delegates run on etrt_runner_xnnpack, and must run there when their other operators are portable
        // ones; the rest on etrt_runner.
        std::set<std::string> executed;
        for (const auto& p : (*original)->program->executionPlan) {
            RunnerOptions options;
            options.methods = { p.name };
            options.data = data.toStdString();
            options.inputs[p.name] = runnerInputs(p, sampleInputs(p));
            options.xnnpack =
                std::any_of(p.delegates.begin(), p.delegates.end(), isXnnpack) && !etRunnerXnnpackPath().isEmpty();
            auto a = runEtRunner(path.toStdString(), options);
            auto b = runEtRunner(out.toStdString(), options);
            QVERIFY_RESULT(a);
            QVERIFY_RESULT(b);
            if (options.xnnpack && xnnpackOnly(p) && !missingOperator(p) && data.isEmpty())
                QVERIFY2(a->methods[p.name].execute == "Ok", (p.name + ": " + a->message()).c_str());
            QCOMPARE(b->exitCode, a->exitCode);
            QCOMPARE(b->detail, a->detail);
            if (a->methods[p.name].execute == "Ok" && !hasDelegates(p))
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
        // And the rewrite's results are the reference interpreter's, for every delegate-free method the runtime
        // executes (the others were refused alike above: custom operators not linked, external data not published;
        // what a delegate computes is not known here, so delegated methods are compared only with the original).
        ro.externalDataPath = data.toStdString();
        auto rewritten = readPteFile(out.toStdString(), ro);
        QVERIFY_RESULT(rewritten);
        const auto failure = runBoth(**rewritten, data.toStdString(), &executed);
        QVERIFY2(!failure, failure ? failure->c_str() : "");
    }
};

QTEST_GUILESS_MAIN(TestRuntimePrograms)
#include "tst_runtime_programs.moc"
