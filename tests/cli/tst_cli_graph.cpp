// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "../core/delegatetestutils.h"
#include "../core/dumptestutils.h"
#include "pte/emitter.h"
#include "testutils.h"

#include <QTest>

#include <nlohmann/json.hpp>

using namespace pte::test;

namespace {
QString dumpPath(const char* name) { return testDataDir() + QStringLiteral("/dumps/") + QLatin1String(name); }

/** The core's reason for dropping an output of the kind named `kind` (serde name), empty when it is kept. */
std::string dropReasonOf(const std::string& kind)
{
    for (int k = 0; k <= int(pte::OutputKind::ParameterMutation); ++k)
        if (kind == pte::outputKindName(pte::OutputKind(k))) {
            const char* reason = pte::emissionDropReason(pte::OutputKind(k));
            return reason ? reason : "";
        }
    return "unknown kind " + kind;
}
} // namespace

class TestCliGraph : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void printsSpecsAndNodes()
    {
        QByteArray out;
        QByteArray err;
        QCOMPARE(runCli({ "graph", dumpPath("counter_single_key.json") }, &out, &err), 0);
        const std::string text = out.toStdString();
        QVERIFY2(text.find("counter_single_key.json: bare-json, 1 method(s)\n") != std::string::npos, text.c_str());
        QVERIFY(text.find("method forward (schema 8.12, ATEN, torch 2.9.0)\n") != std::string::npos);
        QVERIFY(text.find("    parameter p_weight <- weight  f32[4]\n") != std::string::npos);
        QVERIFY(text.find("    buffer b_steps <- steps  i64[]\n") != std::string::npos);
        QVERIFY2(text.find("    buffer_mutation add -> steps  i64[]  [not returned: "
                     + std::string(pte::emissionDropReason(pte::OutputKind::BufferMutation)) + "]\n")
                != std::string::npos,
            text.c_str());
        QVERIFY(text.find("    user_output mul  f32[4]\n") != std::string::npos);
        QVERIFY(text.find("    add = aten::add.Tensor(self=b_steps, other=1) : i64[]\n") != std::string::npos);
        QVERIFY(text.find("  weights: 0 loaded, missing: weight steps\n") != std::string::npos);
        // The bare-JSON note goes to stderr.
        QVERIFY(err.contains("weight(s) are not included"));
    }

    void printsJsonWithDroppedOutputs_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("kinds"); // output kinds, '!' marking the ones not returned
        // A joint graph's forward returns the loss and the gradients (as ExecuTorch emits it).
        QTest::addRow("training") << "training.json"
                                  << "loss_output,gradient_to_parameter,gradient_to_user_input";
        // Buffer and parameter mutations are written back instead of returned; user input mutations stay outputs.
        QTest::addRow("spec-kinds") << "spec_kinds.json"
                                    << "!token,!buffer_mutation,user_input_mutation,!parameter_mutation,user_output";
        QTest::addRow("counter") << "counter_single_key.json"
                                 << "!buffer_mutation,user_output";
    }

    void printsJsonWithDroppedOutputs()
    {
        QFETCH(QString, file);
        QFETCH(QString, kinds);
        QByteArray out;
        QCOMPARE(runCli({ "graph", "--json", dumpPath(file.toLatin1().constData()) }, &out), 0);
        const auto j = nlohmann::json::parse(out.constData(), out.constData() + out.size(), nullptr, false);
        QVERIFY(!j.is_discarded());
        QCOMPARE(j.begin().key(), std::string("container")); // nlohmann::json sorts keys on parse
        QCOMPARE(j["container"].get<std::string>(), std::string("bare-json"));
        const auto& m = j["methods"][0];
        QString got;
        for (const auto& o : m["output_specs"]) {
            if (!got.isEmpty())
                got += QLatin1Char(',');
            if (!o["returned"].get<bool>()) {
                got += QLatin1Char('!');
                QCOMPARE(o["dropped_reason"].get<std::string>(), dropReasonOf(o["kind"].get<std::string>()));
            }
            got += QString::fromStdString(o["kind"].get<std::string>());
        }
        QCOMPARE(got, kinds);
        QCOMPARE(m["node_count"].get<int>(), int(m["nodes"].size()));
        // Stable key order in the printed text.
        const std::string text = out.toStdString();
        QVERIFY(text.find("\"file\"") < text.find("\"container\""));
        QVERIFY(text.find("\"container\"") < text.find("\"methods\""));
    }

    void selectsMethodsInArchives()
    {
        const QString path = tempDir() + QStringLiteral("/cli.etrecord");
        QVERIFY(writeZip(path,
            { { "ETRECORD_V0", "" }, { "edge_dialect_exported_program/forward", readDumpData("delegate_edge.json") },
                { "edge_dialect_exported_program/step", readDumpData("counter_single_key.json") },
                { "debug_handle_map", R"({"forward": {"0": [1]}})" } }));
        QByteArray out;
        QCOMPARE(runCli({ "graph", path, "--method", "step" }, &out), 0);
        QVERIFY(out.contains("method step "));
        QVERIFY(!out.contains("method forward "));
        QCOMPARE(runCli({ "graph", path, "--method", "forward" }, &out), 0);
        QVERIFY2(
            out.contains("getitem = torch.ops.higher_order.executorch_call_delegate(lowered_module_0=lowered module "
                         "lowered_module_0 (XnnpackBackend), delegate_arg_0=x, delegate_arg_1=y) : f32[2, 2]  #1\n"),
            out.constData());
        const QByteArray payloadSize = QByteArray::number(qsizetype(delegateEdgePayload().size()));
        QVERIFY(out.contains("  delegate lowered_module_0: XnnpackBackend, " + payloadSize
            + " processed bytes, 1 compile spec(s), original graph 1 nodes\n"));
        QCOMPARE(runCli({ "graph", path, "--json", "--method", "forward" }, &out), 0);
        const auto j = nlohmann::json::parse(out.constData(), out.constData() + out.size(), nullptr, false);
        QVERIFY(!j.is_discarded());
        QCOMPARE(j["container"].get<std::string>(), std::string("etrecord"));
        QCOMPARE(j["methods"].size(), std::size_t(1));
        const auto& lm = j["methods"][0]["lowered_modules"][0];
        QCOMPARE(lm["backend_id"].get<std::string>(), std::string("XnnpackBackend"));
        QCOMPARE(lm["processed_bytes"].get<std::size_t>(), delegateEdgePayload().size());
        QCOMPARE(lm["original_nodes"].get<int>(), 1);
        QCOMPARE(j["methods"][0]["nodes"][0]["debug_handles"][0].get<int>(), 1);
        // ETRecord's layout: a kernel instruction's single debug handle is a number.
        QCOMPARE(j["etrecord"]["debug_handle_map"]["forward"]["0"].get<int>(), 1);
        QByteArray err;
        QCOMPARE(runCli({ "graph", path, "--method", "nope" }, &out, &err), 2);
        QVERIFY2(err.contains("has no method 'nope' (methods: forward, step)"), err.constData());
    }

    void failsCleanly_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QString>("needle");
        const QString junk = tempDir() + QStringLiteral("/junk.pt2");
        writeFile(junk, QByteArray("PK\x03\x04 this is not really a zip", 30));
        const QString cut = tempDir() + QStringLiteral("/cut.json");
        writeFile(cut, readDumpData("counter_single_key.json").left(500));
        QTest::addRow("corrupt-zip") << QStringList { "graph", junk } << 1 << "junk.pt2 is not a readable zip";
        QTest::addRow("truncated-json") << QStringList { "graph", cut } << 1 << "cut.json: the JSON text ends early";
        QTest::addRow("missing-file") << QStringList { "graph", tempDir() + "/none.pt2" } << 1 << "none.pt2";
        QTest::addRow("no-file") << QStringList { "graph" } << 2 << "expected exactly one FILE";
        QTest::addRow("bad-option") << QStringList { "graph", "--frobnicate", junk } << 2 << "frobnicate";
    }

    void failsCleanly()
    {
        QFETCH(QStringList, args);
        QFETCH(int, exitCode);
        QFETCH(QString, needle);
        QByteArray out;
        QByteArray err;
        QCOMPARE(runCli(args, &out, &err), exitCode);
        QVERIFY2(err.contains(needle.toUtf8()), err.constData());
        QVERIFY(out.isEmpty());
    }

    void listsDelegateNamedData()
    {
        QByteArray out;
        QCOMPARE(runCli({ "graph", dumpPath("delegate_named_data.json") }, &out), 0);
        const QByteArray payloadSize = QByteArray::number(qsizetype(delegateEdgePayload().size()));
        QVERIFY2(out.contains("  delegate lowered_module_0: XnnpackBackend, " + payloadSize
                     + " processed bytes, 1 compile spec(s), original graph 1 nodes\n"
                       "    named data (pte) weights_0: 4 bytes, align 16\n"
                       "    named data (external model.ptd) fc.bias: 3 bytes, align 64\n"
                       "    named data (external model.ptd) fc.weight: 8 bytes, align 64\n"
                       "    named data (external shared.ptd) weights_0_copy: 4 bytes, align 32\n"),
            out.constData());
        QCOMPARE(runCli({ "graph", "--json", dumpPath("delegate_named_data.json") }, &out), 0);
        const auto j = nlohmann::json::parse(out.constData(), out.constData() + out.size(), nullptr, false);
        QVERIFY(!j.is_discarded());
        const auto& lm = j["methods"][0]["lowered_modules"][0];
        QCOMPARE(lm["pte_data"].size(), std::size_t(1));
        QCOMPARE(lm["pte_data"][0]["key"].get<std::string>(), std::string("weights_0"));
        QCOMPARE(lm["pte_data"][0]["bytes"].get<int>(), 4);
        QCOMPARE(lm["pte_data"][0]["alignment"].get<int>(), 16);
        QVERIFY(!lm["pte_data"][0].contains("file"));
        QCOMPARE(lm["external_data"].size(), std::size_t(3));
        QCOMPARE(lm["external_data"][1]["file"].get<std::string>(), std::string("model.ptd"));
        QCOMPARE(lm["external_data"][1]["key"].get<std::string>(), std::string("fc.weight"));
        QCOMPARE(lm["external_data"][1]["bytes"].get<int>(), 8);
        QCOMPARE(lm["external_data"][1]["buffer_index"].get<int>(), 1);
        QCOMPARE(lm["external_data"][2]["file"].get<std::string>(), std::string("shared.ptd"));
        QCOMPARE(lm["external_data"][2]["alignment"].get<int>(), 32);
        // A bare JSON program has no sample inputs.
        QVERIFY(j["methods"][0]["sample_inputs"].empty());
        QVERIFY(j["methods"][0]["sample_inputs_source"].is_null());
    }

    void printsSampleInputs()
    {
        // ((i64[2] tensor, 3), {"flag": True, "name": "x"}) in a legacy zip.
        using namespace pk;
        const std::vector<std::int64_t> ids { 11, -4 };
        const std::string pickle = "\x80\x02(" + tensorPickle({ "", "LongStorage", "0", 2, { 2 }, { 1 }, 0, false })
            + "K\x03t}(" + str("flag") + "\x88" + str("name") + str("x") + "u\x86.";
        const QByteArray samples =
            torchSaveZip(pickle, { { "0", QByteArray(reinterpret_cast<const char*>(ids.data()), 16) } });
        const QString path = tempDir() + QStringLiteral("/samples.pt2");
        QVERIFY(writeZip(path,
            { { "serialized_exported_program.json", readDumpData("all_alternatives.json") },
                { "serialized_example_inputs.pt", samples } }));
        QByteArray out;
        QCOMPARE(runCli({ "graph", path }, &out), 0);
        QVERIFY2(out.contains("  sample inputs (4): " + path.toUtf8()
                     + ":serialized_example_inputs.pt\n"
                       "    args[0]  i64[2] = [11, -4]\n"
                       "    args[1]  3\n"
                       "    kwargs['flag']  True\n"
                       "    kwargs['name']  \"x\"\n"),
            out.constData());
        QCOMPARE(runCli({ "graph", "--json", path }, &out), 0);
        const auto j = nlohmann::json::parse(out.constData(), out.constData() + out.size(), nullptr, false);
        QVERIFY(!j.is_discarded());
        const auto& si = j["methods"][0]["sample_inputs"];
        QCOMPARE(si.size(), std::size_t(4));
        QCOMPARE(si[0]["path"].get<std::string>(), std::string("args[0]"));
        QCOMPARE(si[0]["kind"].get<std::string>(), std::string("tensor"));
        QCOMPARE(si[0]["dtype"].get<std::string>(), std::string("i64"));
        QVERIFY(si[0]["shape"] == nlohmann::json::array({ 2 }));
        QVERIFY(si[0]["values"] == nlohmann::json::array({ 11, -4 }));
        QCOMPARE(si[1]["kind"].get<std::string>(), std::string("int"));
        QCOMPARE(si[1]["value"].get<int>(), 3);
        QCOMPARE(si[2]["path"].get<std::string>(), std::string("kwargs['flag']"));
        QCOMPARE(si[2]["value"].get<bool>(), true);
        QCOMPARE(si[3]["value"].get<std::string>(), std::string("x"));
    }

    void marksFakeWeights()
    {
        using namespace pk;
        const std::string pickle = "\x80\x02" + global("collections", "OrderedDict") + ")R(" + str("weight")
            + fakeTensor(R"({"dtype": 7, "sizes": [{"as_int": 4}], "requires_grad": true, )"
                         R"("device": {"type": "cpu", "index": null}, "strides": [{"as_int": 1}], "layout": 7})",
                true)
            + "u.";
        const QString path = tempDir() + QStringLiteral("/fake-weight.pt2");
        QVERIFY(writeZip(path,
            { { "serialized_exported_program.json", readDumpData("counter_single_key.json") },
                { "serialized_state_dict.pt", torchSaveZip(pickle, {}) } }));
        QByteArray out;
        QByteArray err;
        QCOMPARE(runCli({ "graph", path }, &out, &err), 0);
        QVERIFY2(out.contains("  weights: 1 loaded, missing: steps\n    weight  f32[4]  (fake: no data)\n"),
            out.constData());
        QVERIFY2(err.contains("weight 'weight' is a fake tensor (f32[4])"), err.constData());
        QCOMPARE(runCli({ "graph", "--json", path }, &out), 0);
        const auto j = nlohmann::json::parse(out.constData(), out.constData() + out.size(), nullptr, false);
        QVERIFY(!j.is_discarded());
        const auto& w = j["methods"][0]["weights"][0];
        QCOMPARE(w["fqn"].get<std::string>(), std::string("weight"));
        QCOMPARE(w["fake"].get<bool>(), true);
        QCOMPARE(w["bytes"].get<int>(), 0);
    }

    void showsCorpusSampleInputs()
    {
        PTE_REQUIRE_CORPUS();
        QByteArray out;
        const QString path = corpusPath("dumps/et_pt2_archive_linear.pt2");
        QCOMPARE(runCli({ "graph", path }, &out), 0);
        QVERIFY2(out.contains("  sample inputs (1): " + path.toUtf8()
                     + ":linear_3/data/sample_inputs/model.pt\n"
                       "    args[0]  f32[3] = [0.2309668, 0.6930773, -0.26686057]\n"), // shortest f32 text
            out.constData());
        QCOMPARE(runCli({ "graph", "--json", path }, &out), 0);
        const auto j = nlohmann::json::parse(out.constData(), out.constData() + out.size(), nullptr, false);
        QVERIFY(!j.is_discarded());
        const auto& x = j["methods"][0]["sample_inputs"][0];
        QCOMPARE(x["dtype"].get<std::string>(), std::string("f32"));
        QVERIFY(x["shape"] == nlohmann::json::array({ 3 }));
        QCOMPARE(x["values"].size(), std::size_t(3));
        QCOMPARE(x["values"][0].get<float>(), 0.23096681f);
        QCOMPARE(x["values"][0].get<float>(), 0.2309668f); // the text above names the same f32
        QCOMPARE(x["values"][1].get<float>(), 0.6930773f);
        QCOMPARE(x["values"][2].get<float>(), -0.26686057f);
    }

    void showsCorpusBufferMutations()
    {
        PTE_REQUIRE_CORPUS();
        QByteArray out;
        QCOMPARE(runCli({ "graph", "--json", corpusPath("dumps/hades-pid_exported_program.pt2") }, &out), 0);
        const auto j = nlohmann::json::parse(out.constData(), out.constData() + out.size(), nullptr, false);
        QVERIFY(!j.is_discarded());
        const auto& m = j["methods"][0];
        int returned = 0;
        for (const auto& o : m["output_specs"])
            returned += o["returned"].get<bool>() ? 1 : 0;
        QCOMPARE(returned, 2);
        QCOMPARE(m["output_specs"].size(), std::size_t(8));
        QCOMPARE(m["weights"].size(), std::size_t(30));
        QCOMPARE(m["node_count"].get<int>(), 34);
    }

    /** A program's instruction graph: the edges the GUI draws, those through planned memory, in text and JSON. */
    void showsProgramDataFlow()
    {
        PTE_REQUIRE_CORPUS();
        QByteArray out;
        QByteArray err;
        QCOMPARE(runCli({ "graph", corpusPath("pte/pytorch_executorch__add.pte") }, &out, &err), 0);
        QCOMPARE(out.toStdString(),
            corpusPath("pte/pytorch_executorch__add.pte").toStdString()
                + ": program, 1 method(s)\n"
                  "method forward: 2 input(s), 1 instruction(s), 1 output(s); 3 edge(s), 0 through planned memory\n"
                  "  input 0 %0; writes %0\n"
                  "  input 1 %1; writes %1\n"
                  "  #0 aten::add.out; reads %0 <- input 0, %1 <- input 1; writes %2\n"
                  "  output; reads %2 <- #0\n"
                  "  planned %0: memory 1 [32, 36), used #0..#0\n"
                  "  planned %1: memory 1 [16, 20), used #0..#0\n"
                  "  planned %2: memory 1 [0, 4), used #0..#0\n");
        // stress_mlp: index_select reads the clamp's output through an elided view (issue #16).
        const QString mlp =
            corpusPath("pte/corey-cole_djl-executorch-engine__src__test__resources__models__stress__stress_mlp.pte");
        QCOMPARE(runCli({ "graph", mlp }, &out, &err), 0);
        QVERIFY2(out.contains("19 edge(s), 2 through planned memory\n"), out.constData());
        QVERIFY2(
            out.contains("  #11 aten::index_select.out; reads %37 <- #9 (through %31's planned memory); writes %39\n"),
            out.constData());
        QCOMPARE(runCli({ "graph", "--json", "--method", "forward", mlp }, &out, &err), 0);
        const auto j = nlohmann::json::parse(out.constData(), out.constData() + out.size(), nullptr, false);
        QVERIFY(!j.is_discarded());
        QCOMPARE(j["container"].get<std::string>(), std::string("program"));
        const auto& m = j["methods"][0];
        QCOMPARE(m["name"].get<std::string>(), std::string("forward"));
        QCOMPARE(m["nodes"].size(), std::size_t(2 + 14 + 1));
        QCOMPARE(m["nodes"][13]["kind"].get<std::string>(), std::string("instruction"));
        QCOMPARE(m["nodes"][13]["index"].get<int>(), 11);
        QCOMPARE(m["nodes"][13]["label"].get<std::string>(), std::string("aten::index_select.out"));
        QVERIFY(m["nodes"][13]["reads"][0]["through_memory"].get<bool>());
        QCOMPARE(m["nodes"][13]["reads"][0]["from"].get<int>(), 11);
        QCOMPARE(m["edges"].size(), std::size_t(19));
        int through = 0;
        for (const auto& e : m["edges"])
            through += e["through_memory"].get<bool>() ? 1 : 0;
        QCOMPARE(through, 2);
        QVERIFY(m["memory_aliases"] == nlohmann::json::parse(R"([{"value": 37, "written_value": 31},
            {"value": 38, "written_value": 34}])"));
        // The planned values with their lifetimes: the clamp's output %31 is referenced by the clamp only; its view
        // %37, on the same bytes, by the index_select: what the edge through memory joins.
        int found = 0;
        for (const auto& v : m["planned_values"])
            if (v["value"].get<int>() == 31 || v["value"].get<int>() == 37) {
                ++found;
                QCOMPARE(v["memory_id"].get<int>(), 1);
                QCOMPARE(v["offset"].get<int>(), 98304);
                QCOMPARE(v["first"].get<int>(), v["value"].get<int>() == 31 ? 9 : 11);
                QVERIFY(v["last"] == v["first"]);
            }
        QCOMPARE(found, 2);
        // A bundled program shows the program inside; an unknown method is a usage error.
        const QString bpte =
            corpusPath("pte/pytorch_executorch__extension__module__test__resources__bundled_program.bpte");
        QCOMPARE(runCli({ "graph", "--json", bpte }, &out, &err), 0);
        QCOMPARE(
            nlohmann::json::parse(out.toStdString())["container"].get<std::string>(), std::string("bundled-program"));
        QCOMPARE(runCli({ "graph", "--method", "nope", mlp }, &out, &err), 2);
        QVERIFY2(err.contains("has no method 'nope' (methods: forward)"), err.constData());
    }
};

QTEST_GUILESS_MAIN(TestCliGraph)
#include "tst_cli_graph.moc"
