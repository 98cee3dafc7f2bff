// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// `ptelens-cli delegates`: text and JSON output, linking through an ETRecord, malformed payloads, exit codes.
#include "../core/delegatetestutils.h"
#include "../core/dumptestutils.h"
#include "testutils.h"

#include <QTest>

#include <nlohmann/json.hpp>

using namespace pte::test;

namespace {

nlohmann::json parseJson(const QByteArray& out)
{
    return nlohmann::json::parse(out.constData(), out.constData() + out.size(), nullptr, false);
}

/** delegate_edge.json with its lowered module's payload replaced by `payload` (base64), written to a temp file. */
QString dumpWithPayload(const std::vector<std::uint8_t>& payload, const QString& name)
{
    QByteArray json = readDumpData("delegate_edge.json");
    json.replace("WE4wMQABAgM=",
        QByteArray(reinterpret_cast<const char*>(payload.data()), qsizetype(payload.size())).toBase64());
    const QString path = tempDir() + "/" + name + ".json";
    return writeFile(path, json) ? path : QString();
}

/** One XNNPACK Add (handle 1), as the original module of delegate_edge.json adds x and y. */
std::vector<std::uint8_t> addPayload()
{
    XnnGraphBuilder b;
    const auto x = b.input({ 2, 2 });
    const auto y = b.input({ 2, 2 });
    const auto z = b.output({ 2, 2 });
    b.binary(XnnGraphBuilder::Tag::XNNAdd, x, y, z, 1);
    return b.finish();
}

} // namespace

class TestCliDelegates : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void corpusText()
    {
        PTE_REQUIRE_CORPUS();
        QByteArray out;
        QByteArray err;
        QCOMPARE(runCli({ "delegates", corpusPath("pte/corey-cole_simple-torch-model__model.pte") }, &out, &err), 0);
        const std::string text = out.toStdString();
        QVERIFY2(text.find(": 2 delegate(s)\n") != std::string::npos, text.c_str());
        QVERIFY(text.find("forward: delegate 0 XnnpackBackend, instruction 0\n") != std::string::npos);
        QVERIFY(text.find("  payload: XH00 header + XN01 flatbuffer, 1760 bytes\n") != std::string::npos);
        QVERIFY(
            text.find("  node 0 StaticTranspose handle 65535 (inserted by the backend): 0 -> 1; perm [0, 2, 3, 1]\n")
            != std::string::npos);
        QVERIFY(text.find("  node 1 DepthwiseConv2d handle 8: 1 2 4 -> 3; kernel 3x3;") != std::string::npos);
        QVERIFY(text.find("  handle 9 (a gap, likely) absorbed into node 1 (by handle order)\n") != std::string::npos);
        QVERIFY(text.find("forward: delegate 1 XnnpackBackend, instruction 1\n") != std::string::npos);
        QVERIFY(text.find("  node 0 FullyConnected handle 14: 0 1 2 -> 3\n") != std::string::npos);
        QVERIFY(err.isEmpty());
    }

    void corpusJson()
    {
        PTE_REQUIRE_CORPUS();
        QByteArray out;
        QCOMPARE(runCli({ "delegates", "--json",
                            corpusPath("pte/pytorch_executorch__examples__qualcomm__oss_scripts__llama__artifacts__"
                                       "stories260k_hybrid_llama_qnn.pte") },
                     &out),
            0);
        const auto j = parseJson(out);
        QVERIFY(!j.is_discarded());
        QCOMPARE(j["delegates"].size(), std::size_t(2));
        const auto& d = j["delegates"][0];
        QCOMPARE(d["kind"].get<std::string>(), std::string("qnn_context"));
        QCOMPARE(d["summary"]["SoC"].get<std::string>(), std::string("SM8650"));
        QVERIFY(!d["shared"].get<bool>());
        QVERIFY(j["delegates"][1]["shared"].get<bool>()); // the two methods share one blob
        QVERIFY(j["etrecord"].is_null());
    }

    // A program emitted by ptelens from a dump whose lowered module holds a real XNNPACK payload, linked through an
    // ETRecord holding the same edge program: the inner node reaches the original module's node and its handle.
    void linksThroughEtRecord()
    {
        const QString dump = dumpWithPayload(addPayload(), "xnn_add");
        QVERIFY(!dump.isEmpty());
        const QString pte = tempDir() + "/xnn_add.pte";
        QByteArray err;
        QCOMPARE(runCli({ "emit", dump, "-o", pte }, nullptr, &err), 0);
        const QString etrecord = tempDir() + "/xnn_add.etrecord";
        QFile f(dump);
        QVERIFY(f.open(QIODevice::ReadOnly));
        // Handle 5 is in the partition but on no inner node: absorbed.
        QVERIFY(writeZip(etrecord,
            { { "ETRECORD_V0", "" }, { "edge_dialect_exported_program", f.readAll() },
                { "debug_handle_map", R"({"forward": {"0": [1, 5]}})" },
                { "delegate_map", R"({"forward": {"0": {"name": "XnnpackBackend", "delegate_map": {}}}})" } }));
        QByteArray out;
        QCOMPARE(runCli({ "delegates", pte, "--etrecord", etrecord, "--json" }, &out, &err), 0);
        const auto j = parseJson(out);
        QVERIFY2(!j.is_discarded(), out.constData());
        const auto& d = j["delegates"][0];
        QVERIFY(d["graph_decoded"].get<bool>());
        QVERIFY(d["partition_handles"] == nlohmann::json::parse("[1, 5]"));
        const auto& sources = d["nodes"][0]["sources"];
        QCOMPARE(sources.size(), std::size_t(1));
        QCOMPARE(sources[0]["name"].get<std::string>(), std::string("aten_add_tensor"));
        QCOMPARE(sources[0]["graph"].get<std::string>(), std::string("forward/lowered_module_0"));
        QCOMPARE(sources[0]["target"].get<std::string>(), std::string("aten::add.Tensor"));
        QCOMPARE(d["absorbed"].size(), std::size_t(1));
        QCOMPARE(d["absorbed"][0]["handle"].get<int>(), 5);
        QCOMPARE(d["absorbed"][0]["into_node"].get<int>(), 0);
        QVERIFY(!d["absorbed"][0]["inferred"].get<bool>());

        QByteArray text;
        QCOMPARE(runCli({ "delegates", pte, "--etrecord", etrecord }, &text), 0);
        QVERIFY2(
            text.contains("      <- forward/lowered_module_0:aten_add_tensor aten::add.Tensor\n"), text.constData());
        QVERIFY(text.contains("  partition handles: 1,5\n"));
    }

    // The stock delegate_edge.json carries "XN01" and four bytes (the identifier in the wrong place): a finding.
    void malformedPayloadIsReported()
    {
        const QString pte = tempDir() + "/broken.pte";
        QCOMPARE(runCli({ "emit", testDataDir() + "/dumps/delegate_edge.json", "-o", pte }), 0);
        QByteArray out;
        QCOMPARE(runCli({ "delegates", pte, "--json" }, &out), 0);
        const auto j = parseJson(out);
        const auto& d = j["delegates"][0];
        QVERIFY(!d["graph_decoded"].get<bool>());
        QCOMPARE(d["diagnostics"][0]["severity"].get<std::string>(), std::string("error"));
        QCOMPARE(d["diagnostics"][0]["code"].get<std::string>(), std::string("not-a-pte-file"));
        QVERIFY(d["diagnostics"][0]["message"].get<std::string>().find("is 0x00010203, not XN00 or XN01")
            != std::string::npos);
        QCOMPARE(d["summary"]["compile spec threads"].get<std::string>(), std::string("4"));
    }

    void exitCodes()
    {
        QCOMPARE(runCli({ "delegates" }), 2);
        QCOMPARE(runCli({ "delegates", tempDir() + "/missing.pte" }), 1);
        QCOMPARE(runCli({ "delegates", testDataDir() + "/dumps/delegate_edge.json" }), 1);
        const QString pte = tempDir() + "/plain.pte";
        QCOMPARE(runCli({ "emit", testDataDir() + "/dumps/counter_single_key.json", "-o", pte,
                     "--zero-fill-missing-weights" }),
            0);
        QCOMPARE(runCli({ "delegates", pte, "--etrecord", tempDir() + "/missing.etrecord" }), 1);
        QByteArray out;
        QCOMPARE(runCli({ "delegates", pte }, &out), 0);
        QVERIFY2(out.contains(": 0 delegate(s)\n"), out.constData());
    }
};

QTEST_APPLESS_MAIN(TestCliDelegates)
#include "tst_cli_delegates.moc"
