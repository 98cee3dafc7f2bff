// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// Programs near the limits of the format as ExecuTorch's runtime checks it: a graph of 150k nodes emits more
// flatbuffer tables than the verifier's default of 1M when every scalar argument has its own value; the emitter then
// shares equal scalars, so the runtime loads the program with InternalConsistency verification and runs it.
#include "etrunner.h"
#include "executiontestutils.h"
#include "pte/emitter.h"
#include "pte/ptewriter.h"
#include "testutils.h"

#include <QTest>

using namespace pte;
using namespace pte::test;

namespace {

/** x -> n0 = x + x -> n1 = n0 + x -> ...: the output is x * (nodes + 1). */
std::shared_ptr<ExportedProgram> chain(int nodes)
{
    auto ep = std::make_shared<ExportedProgram>();
    ep->source = "chain.json";
    auto& g = ep->graph;
    TensorMeta meta;
    meta.dtype = ScalarType::Float;
    meta.sizes = { SymInt { 4, {}, {} } };
    meta.strides = { SymInt { 1, {}, {} } };
    g.inputs = { Argument::tensor("x") };
    g.tensorValues["x"] = meta;
    g.nodes.reserve(std::size_t(nodes));
    for (int i = 0; i < nodes; ++i) {
        Node n;
        n.name = "n" + std::to_string(i);
        n.setTarget("torch.ops.aten.add.Tensor");
        n.inputs.push_back(NamedArgument { "self", Argument::tensor(i ? "n" + std::to_string(i - 1) : "x"), 1 });
        n.inputs.push_back(NamedArgument { "other", Argument::tensor("x"), 1 });
        n.outputs.push_back(Argument::tensor(n.name));
        g.tensorValues[n.name] = meta;
        g.nodes.push_back(std::move(n));
    }
    const std::string last = "n" + std::to_string(nodes - 1);
    g.outputs = { Argument::tensor(last) };
    ep->signature.inputSpecs = { InputSpec { InputKind::UserInput, Argument::tensor("x"), "", {}, {} } };
    ep->signature.outputSpecs = { OutputSpec { OutputKind::UserOutput, Argument::tensor(last), "" } };
    return ep;
}

} // namespace

class TestEmissionLimits : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void sharesScalarsOnlyWhenTheProgramWouldBeTooBig()
    {
        // A small program keeps one value per scalar argument, as ExecuTorch emits it.
        auto small = emitProgram({ { "forward", chain(10) } });
        QVERIFY_RESULT(small);
        std::size_t ints = 0;
        for (const auto& v : small->program.executionPlan[0].values)
            ints += v.kind() == ValueKind::Int ? 1 : 0;
        QCOMPARE(ints, std::size_t(10)); // one alpha per add
        EmitOptions shared;
        shared.shareScalarValues = true;
        auto sharedSmall = emitProgram({ { "forward", chain(10) } }, shared);
        QVERIFY_RESULT(sharedSmall);
        QCOMPARE(
            sharedSmall->program.executionPlan[0].values.size(), small->program.executionPlan[0].values.size() - 9);
    }

    void aChainOf150kNodesLoadsWithFullVerification()
    {
        auto ep = chain(150000);
        auto emitted = emitAndReload({ { "forward", ep } }, "chain150k");
        QVERIFY_RESULT(emitted);
        const auto tables = flatbufferTableCount(*emitted->file->program);
        QVERIFY2(tables <= kMaxVerifierTables, std::to_string(tables).c_str());
        // Without sharing it would not fit: 7 tables per node (instruction, its arguments, alpha, the out tensor).
        QVERIFY(150000ull * 7 > kMaxVerifierTables);
        PTE_REQUIRE_ET_RUNNER();
        RunnerOptions ro;
        ro.inputs["forward"] = { HostTensor::floats({ 4 }, { 1.0, -2.0, 0.5, 0.0 }) };
        auto run = runEtRunner(emitted->file->path, ro);
        QVERIFY_RESULT(run);
        QVERIFY2(run->exitCode == 0, run->message().c_str());
        QVERIFY(run->report.find("program_load[InternalConsistency]: Ok") != std::string::npos);
        const auto diff = compareOutputs(run->methods["forward"].outputs,
            { HostTensor::floats({ 4 }, { 150001.0, -300002.0, 75000.5, 0.0 }) }, 0.0, "x * 150001");
        QVERIFY2(!diff, diff ? diff->c_str() : "");
    }
};

QTEST_GUILESS_MAIN(TestEmissionLimits)
#include "tst_emission_limits.moc"
