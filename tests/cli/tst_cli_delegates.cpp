// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// `ptelens-cli delegates`: text and JSON output, linking through an ETRecord, XNNPACK events of an ETDump aligned
// to inner nodes, malformed payloads, exit codes.
#include "../core/delegatetestutils.h"
#include "../core/dumptestutils.h"
#include "etdumptestutils.h"
#include "pte/delegatesynth.h"
#include "pte/etdump.h"
#include "pte/etdumpwriter.h"
#include "pte/ptewriter.h"
#include "testutils.h"

#include <QTest>

#include <nlohmann/json.hpp>

using namespace pte::test;

namespace {

nlohmann::json parseJson(const QByteArray& out)
{
    return nlohmann::json::parse(out.constData(), out.constData() + out.size(), nullptr, false);
}

/** delegate_edge.json with its lowered module's payload (a real XNNPACK Add) replaced by `payload`, written to a temp
 *  file. */
QString dumpWithPayload(const std::vector<std::uint8_t>& payload, const QString& name)
{
    const QByteArray json = withPayload(readDumpData("delegate_edge.json"), payload);
    const QString path = tempDir() + "/" + name + ".json";
    return !json.isEmpty() && writeFile(path, json) ? path : QString();
}

/** delegate_edge.json: its lowered module's payload is one XNNPACK Add (handle 1), as its original module adds x
 *  and y. */
QString addDump() { return testDataDir() + "/dumps/delegate_edge.json"; }

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
        const QString dump = addDump();
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

    // FILE may be a graph dump: it is emitted first (as `diff` opens its sides), and the emission's debug maps and
    // the dump's graphs link the inner node to the lowered module's node, without an ETRecord. An ETRecord as FILE
    // is emitted the same way; given again as --etrecord its maps (handle 5 in the partition) are used instead.
    void emitsDumpsFirst_data()
    {
        QTest::addColumn<bool>("asEtrecord");
        QTest::addColumn<bool>("withEtrecordMaps");
        QTest::addRow("exported-program JSON") << false << false;
        QTest::addRow("ETRecord") << true << false;
        QTest::addRow("ETRecord, its maps by --etrecord") << true << true;
    }

    void emitsDumpsFirst()
    {
        QFETCH(bool, asEtrecord);
        QFETCH(bool, withEtrecordMaps);
        QString file = addDump();
        if (asEtrecord) {
            QFile f(file);
            QVERIFY(f.open(QIODevice::ReadOnly));
            file = tempDir() + "/xnn_add_dump.etrecord";
            QVERIFY(writeZip(file,
                { { "ETRECORD_V0", "" }, { "edge_dialect_exported_program", f.readAll() },
                    { "debug_handle_map", R"({"forward": {"0": [1, 5]}})" },
                    { "delegate_map", R"({"forward": {"0": {"name": "XnnpackBackend", "delegate_map": {}}}})" } }));
        }
        QStringList args { "delegates", file, "--json" };
        if (withEtrecordMaps)
            args << "--etrecord" << file;
        QByteArray out;
        QByteArray err;
        QCOMPARE(runCli(args, &out, &err), 0);
        const auto j = parseJson(out);
        QVERIFY2(!j.is_discarded(), out.constData());
        QVERIFY(j["emitted"].get<bool>());
        QCOMPARE(j["delegates"].size(), std::size_t(1));
        const auto& d = j["delegates"][0];
        QCOMPARE(d["backend"].get<std::string>(), std::string("XnnpackBackend"));
        QVERIFY(d["graph_decoded"].get<bool>());
        QCOMPARE(d["nodes"].size(), std::size_t(1));
        QCOMPARE(d["nodes"][0]["kind"].get<std::string>(), std::string("Add"));
        const auto& sources = d["nodes"][0]["sources"];
        QCOMPARE(sources.size(), std::size_t(1));
        QCOMPARE(sources[0]["name"].get<std::string>(), std::string("aten_add_tensor"));
        QCOMPARE(sources[0]["target"].get<std::string>(), std::string("aten::add.Tensor"));
        QCOMPARE(d["absorbed"].size(), std::size_t(withEtrecordMaps ? 1 : 0));

        QByteArray text;
        QCOMPARE(runCli({ "delegates", file }, &text), 0);
        QVERIFY2(text.contains(" (emitted): 1 delegate(s)\n"), text.constData());
        QVERIFY2(text.contains(":aten_add_tensor aten::add.Tensor\n"), text.constData());
    }

    // "XN01" and four bytes (the identifier in the wrong place), as delegate_edge.json once carried: a finding.
    void malformedPayloadIsReported()
    {
        const QString dump = dumpWithPayload({ 'X', 'N', '0', '1', 0, 1, 2, 3 }, "xnn_malformed");
        QVERIFY(!dump.isEmpty());
        const QString pte = tempDir() + "/broken.pte";
        QCOMPARE(runCli({ "emit", dump, "-o", pte }), 0);
        QByteArray out;
        QCOMPARE(runCli({ "delegates", pte, "--json" }, &out), 0);
        const auto j = parseJson(out);
        const auto& d = j["delegates"][0];
        QVERIFY(!d["graph_decoded"].get<bool>());
        QCOMPARE(d["diagnostics"][0]["severity"].get<std::string>(), std::string("error"));
        QCOMPARE(d["diagnostics"][0]["code"].get<std::string>(), std::string("not-a-pte-file"));
        QVERIFY(d["diagnostics"][0]["message"].get<std::string>().find("is 0x00010203, not XN00 or XN01")
            != std::string::npos);
        // An unknown key is not guessed from its size (pte::compileSpecText): four bytes stay hex.
        QCOMPARE(d["summary"]["compile spec threads"].get<std::string>(), std::string("04 00 00 00"));
    }

    // --etdump: the delegate call's XNNPACK events aligned to the inner nodes of a program built here (the
    // synthetic 7-node payload), from ETDumps written with the project's writer: every node has its event (exact),
    // the ReLU6 clamp fused away (approximate, node 2 skipped), an event of an operator the graph lacks (failed).
    void alignsEtdumpEvents_data()
    {
        QTest::addColumn<QStringList>("labels");
        QTest::addColumn<QString>("quality");
        QTest::addColumn<std::vector<int>>("nodes"); // per event; -1 = unplaced
        QTest::addColumn<std::vector<int>>("skipped");
        const QStringList all { "Fully Connected (NC, F32) GEMM #1", "Add (ND) #1", "Clamp (NC, F32) #1",
            "Convolution (NHWC, F32) IGEMM #1", "Transpose (ND, X32) #1", "Convert (NC, F32, QS8) #1",
            "Fully Connected (NC, F32) GEMM #2" };
        QTest::addRow("exact") << all << "exact" << std::vector<int> { 0, 1, 2, 3, 4, 5, 6 } << std::vector<int> {};
        QStringList fused = all;
        fused.removeAt(2);
        QTest::addRow("clamp fused") << fused << "approximate" << std::vector<int> { 0, 1, 3, 4, 5, 6 }
                                     << std::vector<int> { 2 };
        QStringList foreign = all;
        foreign[3] = "Softmax (NC, F32) #1";
        // The events before the Softmax pair as in "exact"; the Softmax has no node. What the aligner does with
        // the rest after a failure (skips, 1x1-conv GEMMs) is not fixed here.
        QTest::addRow("foreign operator")
            << foreign << "failed" << std::vector<int> { 0, 1, 2, -1 } << std::vector<int> {};
    }

    void alignsEtdumpEvents()
    {
        QFETCH(QStringList, labels);
        QFETCH(QString, quality);
        QFETCH(std::vector<int>, nodes);
        QFETCH(std::vector<int>, skipped);
        const QString program = tempDir() + "/synthetic7.pte";
        QVERIFY_RESULT(
            pte::writePte(pte::makeSingleDelegateProgram(pte::makeSyntheticXnnpackPayload(7)), program.toStdString()));
        EtdumpBuilder dump;
        dump.block("Execute");
        std::uint64_t tick = 1000;
        for (qsizetype k = 0; k < labels.size(); ++k) {
            const std::uint64_t end = tick + 10 * std::uint64_t(k + 1); // 10, 20, 30, ... ticks
            dump.delegateStr(labels[k].toStdString(), 0, 0, tick, end);
            tick = end;
        }
        // The delegate call's own event, after its operators: not a delegate event.
        dump.profile("DELEGATE_CALL", 0, 0, 1000, tick);
        const auto bytes = dump.bytes();
        QVERIFY(!bytes.empty());
        const QString etdump = tempDir() + "/synthetic7-" + QTest::currentDataTag() + ".etdp";
        QVERIFY(writeFile(etdump, QByteArray(reinterpret_cast<const char*>(bytes.data()), qsizetype(bytes.size()))));

        QByteArray out;
        QByteArray err;
        QCOMPARE(runCli({ "delegates", program, "--etdump", etdump, "--json" }, &out, &err), 0);
        const auto j = parseJson(out);
        QVERIFY2(!j.is_discarded(), out.constData());
        QCOMPARE(j["delegates"].size(), std::size_t(1));
        const auto& profiles = j["delegates"][0]["profile"];
        QCOMPARE(profiles.size(), std::size_t(1));
        const auto& p = profiles[0];
        QCOMPARE(p["block_name"].get<std::string>(), std::string("Execute"));
        QCOMPARE(p["instruction"].get<int>(), 0);
        QCOMPARE(QString::fromStdString(p["quality"].get<std::string>()), quality);
        QCOMPARE(p["events"].size(), std::size_t(labels.size()));
        for (std::size_t k = 0; k < nodes.size(); ++k) {
            const auto& e = p["events"][k];
            QCOMPARE(e["label"].get<std::string>(), labels[qsizetype(k)].toStdString());
            QCOMPARE(e["duration"].get<int>(), 10 * int(k + 1));
            QCOMPARE(e["node"].is_null() ? -1 : e["node"].get<int>(), nodes[k]);
        }
        if (quality == QLatin1String("failed")) {
            QVERIFY(!p["notes"].empty());
            QVERIFY2(p["notes"][0].get<std::string>().starts_with("event 3 'Softmax (NC, F32) #1' matches no"),
                p["notes"].dump().c_str());
        } else {
            QCOMPARE(p["skipped_nodes"].get<std::vector<int>>(), skipped);
        }

        // The text form says the same.
        QCOMPARE(runCli({ "delegates", program, "--etdump", etdump }, &out, &err), 0);
        QVERIFY2(
            out.contains(
                QStringLiteral("instruction 0: %1 event(s), alignment %2\n").arg(labels.size()).arg(quality).toUtf8()),
            out.constData());
    }

    void exitCodes()
    {
        QCOMPARE(runCli({ "delegates" }), 2);
        QCOMPARE(runCli({ "delegates", tempDir() + "/missing.pte" }), 1);
        const QString garbage = tempDir() + "/garbage.json";
        QVERIFY(writeFile(garbage, "{ not json"));
        QCOMPARE(runCli({ "delegates", garbage }), 1);
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
