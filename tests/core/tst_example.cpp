// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// The bundled example (resources/examples, assembled into <build>/examples/example.etrecord) loads and
// shows every view: two methods, a buffer mutation, a delegate with its original graph, weights, maps.
#include "dumptestutils.h"
#include "pte/dumpreader.h"
#include "testutils.h"

#include <QDir>
#include <QFileInfo>
#include <QTest>

#include <cstring>

using namespace pte;
using namespace pte::test;

namespace {

QString resourcesDir() { return QDir(testDataDir() + QStringLiteral("/../../resources/examples")).absolutePath(); }

QByteArray readFile(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

/** The example as the build assembles it; rebuilt here with minizip when the build has not made it yet. */
QString examplePath()
{
    const QString built = qEnvironmentVariable("PTELENS_BUILD_DIR") + QStringLiteral("/examples/example.etrecord");
    if (QFileInfo::exists(built))
        return built;
    const QString src = resourcesDir() + QStringLiteral("/example/");
    const QString sd = resourcesDir() + QStringLiteral("/example_state_dict/");
    std::vector<ZipItem> inner;
    for (const char* name :
        { "archive/data.pkl", "archive/byteorder", "archive/version", "archive/data/0", "archive/data/1" })
        inner.push_back({ name, readFile(sd + QLatin1String(name)) });
    const QByteArray stateDict = makeZip(inner);
    std::vector<ZipItem> items;
    for (const char* name :
        { "ETRECORD_V0", "edge_dialect_exported_program/forward", "edge_dialect_exported_program/scale",
            "debug_handle_map", "delegate_map", "instruction_id_to_num_outs_map" })
        items.push_back({ name, readFile(src + QLatin1String(name)), true });
    items.push_back({ "edge_dialect_exported_program/forward_state_dict", stateDict });
    items.push_back({ "edge_dialect_exported_program/scale_state_dict", stateDict });
    const QString out = tempDir() + QStringLiteral("/example.etrecord");
    return writeZip(out, items) ? out : QString();
}

} // namespace

class TestExample : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void loadsEveryView()
    {
        const QString path = examplePath();
        QVERIFY(!path.isEmpty());
        const auto r = readDump(path.toStdString());
        QVERIFY_RESULT(r);
        const DumpSet& set = **r;
        QCOMPARE(set.container, DumpSet::Container::EtRecord);
        QVERIFY(set.diagnostics.empty());
        QCOMPARE(set.methods.size(), std::size_t(2));
        QCOMPARE(set.methods[0].first, std::string("forward"));
        QCOMPARE(set.methods[1].first, std::string("scale"));

        const ExportedProgram& fwd = *set.methods[0].second;
        QVERIFY(fwd.executorchSerde);
        QCOMPARE(fwd.verifiers, std::vector<std::string> { "EDGE" });
        QCOMPARE(fwd.signature.inputSpecs.size(), std::size_t(3));
        QCOMPARE(fwd.signature.inputSpecs[0].kind, InputKind::Parameter);
        QCOMPARE(fwd.signature.inputSpecs[0].target, std::string("scale"));
        QCOMPARE(fwd.signature.inputSpecs[1].kind, InputKind::Buffer);
        QCOMPARE(fwd.signature.inputSpecs[1].target, std::string("num_calls"));
        QCOMPARE(fwd.signature.inputSpecs[2].kind, InputKind::UserInput);
        QCOMPARE(fwd.signature.outputSpecs.size(), std::size_t(2));
        QCOMPARE(fwd.signature.outputSpecs[0].kind, OutputKind::BufferMutation);
        QCOMPARE(fwd.signature.outputSpecs[0].target, std::string("num_calls"));
        QCOMPARE(fwd.signature.outputSpecs[0].arg.names[0], std::string("aten_add_tensor"));
        QCOMPARE(fwd.signature.outputSpecs[1].kind, OutputKind::UserOutput);

        QCOMPARE(fwd.graph.nodes.size(), std::size_t(3));
        QCOMPARE(fwd.graph.nodes[0].qualifiedOp(), std::string("aten::add.Tensor"));
        QCOMPARE(fwd.graph.nodes[0].debugHandles, std::vector<std::int64_t> { 1 });
        const Node& call = fwd.graph.nodes[1];
        QCOMPARE(call.op, std::string("executorch_call_delegate"));
        QCOMPARE(call.debugHandles, (std::vector<std::int64_t> { 2, 3 }));
        QCOMPARE(fwd.graph.nodes[2].debugHandles, std::vector<std::int64_t> { 4 });

        const LoweredModule& lm = *fwd.loweredModules.at("lowered_module_0");
        QCOMPARE(lm.backendId, std::string("XnnpackBackend"));
        QVERIFY(lm.processedBytes.size() > 8);
        QCOMPARE(std::memcmp(lm.processedBytes.data() + 4, "XN01", 4), 0);
        QCOMPARE(lm.compileSpecs.size(), std::size_t(1));
        QCOMPARE(lm.compileSpecs[0].key, std::string("num_threads"));
        QVERIFY(lm.originalModule);
        QCOMPARE(lm.originalModule->graph.nodes.size(), std::size_t(2));
        QCOMPARE(lm.originalModule->graph.nodes[0].debugHandles, std::vector<std::int64_t> { 2 });
        QCOMPARE(lm.originalModule->graph.nodes[1].qualifiedOp(), std::string("aten::relu.default"));

        QVERIFY(fwd.missingWeights.empty());
        const WeightTensor& scale = fwd.weights.at("scale");
        QCOMPARE(scale.meta.dtype, ScalarType::Float);
        float f[4] = {};
        std::memcpy(f, scale.data.data(), 16);
        QCOMPARE(f[0], 0.5f);
        QCOMPARE(f[3], 2.0f);
        QCOMPARE(fwd.weights.at("num_calls").meta.dtype, ScalarType::Long);

        const ExportedProgram& sc = *set.methods[1].second;
        QCOMPARE(sc.graph.nodes.size(), std::size_t(1));
        QCOMPARE(sc.signature.outputSpecs[0].kind, OutputKind::UserOutput);

        QVERIFY(set.etrecordMaps);
        QCOMPARE(set.etrecordMaps->debugHandleMap.at("forward").at(1), (std::vector<std::int64_t> { 2, 3 }));
        QCOMPARE(set.etrecordMaps->delegateMap.at("forward").at(1).name, std::string("XnnpackBackend"));
        QCOMPARE(
            set.etrecordMaps->delegateMap.at("forward").at(1).delegateMap.at("1"), std::vector<std::int64_t> { 3 });
        QCOMPARE(set.etrecordMaps->instructionIdToNumOutsMap.at("scale").at(0), std::int64_t(1));
    }

    void committedPickleIsRegenerable()
    {
        // resources/examples/example_state_dict/archive/data.pkl is generated by stateDictPickle().
        const std::string expected = stateDictPickle({ { "scale", "FloatStorage", "0", 4, { 4 }, { 1 }, 0, true },
            { "num_calls", "LongStorage", "1", 1, {}, {}, 0, false } });
        const QByteArray committed = readFile(resourcesDir() + QStringLiteral("/example_state_dict/archive/data.pkl"));
        QCOMPARE(committed.toStdString(), expected);
        QCOMPARE(readFile(resourcesDir() + QStringLiteral("/example_state_dict/archive/data/0")),
            floatBytes({ 0.5f, 1.f, 1.5f, 2.f }));
    }
};

QTEST_GUILESS_MAIN(TestExample)
#include "tst_example.moc"
