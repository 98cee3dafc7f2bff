// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// Emitted programs are written, read back and *run* by the reference interpreter (pte/referenceinterpreter.h),
// and their results compared with values computed here by hand. This catches
// what structural checks cannot: argument order, overlapping memory plans, lost buffer write-backs, wrong jumps.
// The runtime itself is first checked on programs written by the real ExecuTorch (corpus).
#include "executiontestutils.h"
#include "pte/dumpreader.h"
#include "pte/emitter.h"
#include "pte/ptereader.h"
#include "pte/referenceinterpreter.h"
#include "testutils.h"

#include <QTest>

#include <cmath>
#include <cstring>
#include <nlohmann/json.hpp>

using namespace pte;
using pte::test::emitAndReload;
using pte::test::Emitted;
using pte::test::showValues;
using pte::test::tensorArgJson;
using pte::test::tensorMetaJson;

namespace {

Result<Emitted> emitDumpFile(const QString& path, const std::string& name)
{
    PTE_TRY(auto dump, readDump(path.toStdString()));
    return emitAndReload(dump->methods, name);
}

} // namespace

class TestExecution : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // ---- the reference runtime on programs the real ExecuTorch wrote ----

    void runsRealAddProgram()
    {
        PTE_REQUIRE_CORPUS();
        auto file = readPteFile(test::corpusPath(QStringLiteral("pte/pytorch_executorch__add.pte")).toStdString());
        QVERIFY_RESULT(file);
        const auto* plan = (*file)->program->method("forward");
        QVERIFY(plan);
        auto rt = ReferenceInterpreter::load(*(*file)->program, "forward");
        QVERIFY_RESULT(rt);
        std::vector<HostTensor> inputs;
        std::vector<std::vector<double>> given;
        for (std::size_t k = 0; k < plan->inputs.size(); ++k) {
            const auto* t = plan->values[std::size_t(plan->inputs[k])].tensor();
            QVERIFY(t);
            HostTensor h;
            h.dtype = t->scalarType;
            h.sizes.assign(t->sizes.begin(), t->sizes.end());
            for (std::uint64_t e = 0; e < t->numel().value_or(0); ++e)
                h.values.push_back(double(e + 1) * double(k + 2));
            given.push_back(h.values);
            inputs.push_back(std::move(h));
        }
        QCOMPARE(inputs.size(), std::size_t(2));
        auto out = (*rt)->run(inputs);
        QVERIFY_RESULT(out);
        QCOMPARE(out->size(), std::size_t(1));
        std::vector<double> sum(given[0].size());
        for (std::size_t e = 0; e < sum.size(); ++e)
            sum[e] = given[0][e] + given[1][e];
        COMPARE_VALUES(out->at(0).values, sum);
    }

    void runsRealProgramWithLegacyConstants()
    {
        // ExecuTorch's ModuleLinear test model: forward(x) = a * x + b with a = 3 and b = 2 (2x2 constants kept
        // in the legacy constant_buffer). Expected values follow from the model, not from the file.
        PTE_REQUIRE_CORPUS();
        auto file = readPteFile(test::corpusPath(
            QStringLiteral("pte/pytorch_executorch__test__models__deprecated__ModuleLinear-no-constant-segment.pte"))
                                    .toStdString());
        QVERIFY_RESULT(file);
        auto rt = ReferenceInterpreter::load(*(*file)->program, "forward");
        QVERIFY_RESULT(rt);
        auto out = (*rt)->run({ HostTensor::floats({ 2, 2 }, { 1, 2, 3, 4 }) });
        QVERIFY_RESULT(out);
        QCOMPARE(out->size(), std::size_t(1));
        COMPARE_VALUES(out->at(0).values, (std::vector<double> { 5, 8, 11, 14 }));
    }

    // ---- programs emitted by ptelens ----

    void runsAddMul()
    {
        auto e = emitDumpFile(test::testDataDir() + "/emit/add_mul.json", "add_mul");
        QVERIFY_RESULT(e);
        auto rt = ReferenceInterpreter::load(*e->file->program, "forward");
        QVERIFY_RESULT(rt);
        auto out = (*rt)->run({ HostTensor::floats({ 2, 3 }, { 1, 2, 3, 4, 5, 6 }),
            HostTensor::floats({ 2, 3 }, { 10, 20, 30, 40, 50, 60 }) });
        QVERIFY_RESULT(out);
        QCOMPARE(out->size(), std::size_t(1));
        QCOMPARE(out->at(0).sizes, (std::vector<std::int64_t> { 2, 3 }));
        COMPARE_VALUES(out->at(0).values, (std::vector<double> { 5.5, 11, 16.5, 22, 27.5, 33 }));
    }

    void bufferMutationSurvivesBetweenCalls()
    {
        // counter.json: steps += 1 (a buffer mutation, written back with copy_), returns x * x.
        auto e = emitDumpFile(test::testDataDir() + "/emit/counter.json", "counter");
        QVERIFY_RESULT(e);
        const auto& info = e->output.methods.at("forward");
        const PlannedTensor* steps = nullptr;
        for (const auto& t : info.memoryPlan)
            if (t.name == "b_steps")
                steps = &t;
        QVERIFY2(steps, "the mutable buffer is planned");
        auto rt = ReferenceInterpreter::load(*e->file->program, "forward");
        QVERIFY_RESULT(rt);
        auto out = (*rt)->run({ HostTensor::floats({ 4 }, { 1, -2, 3, 0.5 }) });
        QVERIFY_RESULT(out);
        QCOMPARE(out->size(), std::size_t(1)); // the buffer mutation output is dropped
        COMPARE_VALUES(out->at(0).values, (std::vector<double> { 1, 4, 9, 0.25 }));
        auto first = (*rt)->readPlanned(steps->memoryId, steps->offset, ScalarType::Long, 1);
        QVERIFY_RESULT(first);
        for (int call = 1; call <= 3; ++call) {
            QVERIFY_RESULT((*rt)->run({ HostTensor::floats({ 4 }, { 0, 0, 0, 0 }) }));
            auto now = (*rt)->readPlanned(steps->memoryId, steps->offset, ScalarType::Long, 1);
            QVERIFY_RESULT(now);
            QCOMPARE(now->at(0), first->at(0) + call);
        }
    }

    void runsCondBothWays()
    {
        // cond.json: pred ? x + 1 : x - 1.
        auto e = emitDumpFile(test::testDataDir() + "/dumps/cond.json", "cond");
        QVERIFY_RESULT(e);
        auto rt = ReferenceInterpreter::load(*e->file->program, "forward");
        QVERIFY_RESULT(rt);
        HostTensor yes { ScalarType::Bool, {}, { 1 } };
        HostTensor no { ScalarType::Bool, {}, { 0 } };
        const auto x = HostTensor::floats({ 4 }, { 1, 2, 3, 4 });
        auto a = (*rt)->run({ yes, x });
        QVERIFY_RESULT(a);
        COMPARE_VALUES(a->at(0).values, (std::vector<double> { 2, 3, 4, 5 }));
        auto b = (*rt)->run({ no, x });
        QVERIFY_RESULT(b);
        COMPARE_VALUES(b->at(0).values, (std::vector<double> { 0, 1, 2, 3 }));
    }

    void runsLinearFromCorpusArchiveWithItsWeights()
    {
        // et_pt2_archive_linear.pt2: linear(x, W, b) with a 3x3 weight; expected y = W x + b from the archive's
        // own weights, on the archive's own sample input when it has one.
        PTE_REQUIRE_CORPUS();
        auto dump = readDump(test::corpusPath(QStringLiteral("dumps/et_pt2_archive_linear.pt2")).toStdString());
        QVERIFY_RESULT(dump);
        const auto& ep = *(*dump)->methods.at(0).second;
        const auto w = tensorElements(ep.weights.at("linear.weight"), 64);
        const auto b = tensorElements(ep.weights.at("linear.bias"), 64);
        QVERIFY(w && b);
        QCOMPARE(w->size(), std::size_t(9));
        auto e = emitAndReload((*dump)->methods, "linear");
        QVERIFY_RESULT(e);
        const std::string method = e->file->program->executionPlan.at(0).name;
        auto rt = ReferenceInterpreter::load(*e->file->program, method);
        QVERIFY_RESULT(rt);
        const std::vector<double> x { 0.5, -1.25, 2 };
        auto out = (*rt)->run({ HostTensor::floats({ 3 }, x) });
        QVERIFY_RESULT(out);
        std::vector<double> y(3);
        for (std::size_t i = 0; i < 3; ++i)
            y[i] = (*w)[i * 3] * x[0] + (*w)[i * 3 + 1] * x[1] + (*w)[i * 3 + 2] * x[2] + (*b)[i];
        QCOMPARE(out->at(0).sizes, (std::vector<std::int64_t> { 3 }));
        COMPARE_VALUES(out->at(0).values, y);
    }

    void generatedDagMatchesDirectComputation()
    {
        // A 60-node DAG of adds and muls over one input, each node reading two random earlier values, with
        // several outputs: many tensors alive at once, so an overlapping memory plan changes the results.
        using nlohmann::json;
        std::uint32_t seed = 12345;
        auto rnd = [&](std::uint32_t n) {
            seed = seed * 1664525u + 1013904223u;
            return (seed >> 8) % n;
        };
        const std::vector<std::int64_t> shape { 2, 3 };
        json nodes = json::array();
        json tensorValues;
        tensorValues["x"] = tensorMetaJson(shape);
        std::vector<std::string> names { "x" };
        std::vector<std::vector<double>> values { { 0.5, -1, 1.5, 2, -0.25, 1 } };
        for (int i = 0; i < 60; ++i) {
            const std::size_t a = names.size() - 1 - rnd(std::min<std::uint32_t>(std::uint32_t(names.size()), 6));
            const std::size_t b = rnd(std::uint32_t(names.size()));
            const bool mul = rnd(3) == 0;
            const std::string name = (mul ? "mul_" : "add_") + std::to_string(i);
            nodes.push_back(
                { { "name", name }, { "target", mul ? "torch.ops.aten.mul.Tensor" : "torch.ops.aten.add.Tensor" },
                    { "inputs",
                        json::array({ { { "name", "self" }, { "arg", tensorArgJson(names[a]) }, { "kind", 1 } },
                            { { "name", "other" }, { "arg", tensorArgJson(names[b]) }, { "kind", 1 } } }) },
                    { "outputs", json::array({ tensorArgJson(name) }) }, { "metadata", json::object() } });
            tensorValues[name] = tensorMetaJson(shape);
            std::vector<double> v(6);
            for (std::size_t k = 0; k < 6; ++k) // rounded to float at each step, as the program stores it
                v[k] = double(float(mul ? values[a][k] * values[b][k] : values[a][k] + values[b][k]));
            names.push_back(name);
            values.push_back(v);
        }
        const std::vector<std::size_t> outputs { names.size() - 1, names.size() - 7, 20, 33 };
        json graphOutputs = json::array();
        json outputSpecs = json::array();
        for (const auto o : outputs) {
            graphOutputs.push_back(tensorArgJson(names[o]));
            outputSpecs.push_back({ { "user_output", { { "arg", tensorArgJson(names[o]) } } } });
        }
        json doc = {
            { "graph_module",
                { { "graph",
                      { { "inputs", json::array({ tensorArgJson("x") }) }, { "outputs", graphOutputs },
                          { "nodes", nodes }, { "tensor_values", tensorValues }, { "sym_int_values", json::object() },
                          { "sym_bool_values", json::object() }, { "sym_float_values", json::object() },
                          { "custom_obj_values", json::object() }, { "is_single_tensor_return", false } } },
                    { "signature",
                        { { "input_specs", json::array({ { { "user_input", { { "arg", tensorArgJson("x") } } } } }) },
                            { "output_specs", outputSpecs } } },
                    { "module_call_graph", json::array() }, { "metadata", json::object() } } },
            { "opset_version", { { "aten", 10 } } }, { "range_constraints", json::object() },
            { "schema_version", { { "major", 8 }, { "minor", 12 } } }, { "verifiers", json::array({ "ATEN" }) },
            { "torch_version", "2.9.0" }
        };
        auto ep = parseExportedProgramJson(doc.dump(), "generated.json");
        QVERIFY_RESULT(ep);
        auto e = emitAndReload({ { "forward", *ep } }, "dag");
        QVERIFY_RESULT(e);
        // The plan really reuses memory (otherwise this test would not exercise overlap).
        const auto sizes = e->file->program->method("forward")->nonConstBufferSizes;
        QVERIFY(sizes.size() == 2 && sizes[1] < 61 * 32);
        auto rt = ReferenceInterpreter::load(*e->file->program, "forward");
        QVERIFY_RESULT(rt);
        auto out = (*rt)->run({ HostTensor::floats(shape, values[0]) });
        QVERIFY_RESULT(out);
        QCOMPARE(out->size(), outputs.size());
        for (std::size_t k = 0; k < outputs.size(); ++k)
            COMPARE_VALUES(out->at(k).values, values[outputs[k]]);
    }

    void decomposedCompositesComputeLikeAten()
    {
        // conv2d -> batch_norm (eval) -> layer_norm -> softmax -> linear, as torch.export writes them (training-IR
        // composites with their schema argument names). The lowering rewrites each into portable out-variant
        // kernels (convolution.out, _native_batch_norm_legit_no_training.out, native_layer_norm.out, _softmax.out,
        // permute_copy + view_copy + addmm); the expected values are computed here from the aten definitions.
        using nlohmann::json;
        std::uint32_t seed = 7;
        auto rnd = [&](std::size_t n, double scale) {
            std::vector<double> v(n);
            for (auto& x : v) {
                seed = seed * 1664525u + 1013904223u;
                x = double(float((double((seed >> 9) % 2001) / 1000.0 - 1.0) * scale));
            }
            return v;
        };
        const auto x = rnd(2 * 4 * 4, 1.0);
        const auto convW = rnd(3 * 2 * 3 * 3, 0.5);
        const auto convB = rnd(3, 0.2);
        const auto gamma = rnd(3, 1.0);
        const auto beta = rnd(3, 0.5);
        const auto runMean = rnd(3, 0.3);
        auto runVar = rnd(3, 0.5);
        for (auto& v : runVar)
            v = double(float(std::fabs(v) + 0.5));
        const auto lnW = rnd(4, 1.0);
        const auto lnB = rnd(4, 0.5);
        const auto linW = rnd(2 * 4, 1.0);
        const auto linB = rnd(2, 0.5);

        // Expected, straight from the aten definitions (float rounding at each op's output).
        std::vector<double> conv(3 * 4 * 4);
        for (int o = 0; o < 3; ++o)
            for (int yy = 0; yy < 4; ++yy)
                for (int xx = 0; xx < 4; ++xx) {
                    double acc = convB[std::size_t(o)];
                    for (int c = 0; c < 2; ++c)
                        for (int ky = 0; ky < 3; ++ky)
                            for (int kx = 0; kx < 3; ++kx) {
                                const int iy = yy + ky - 1;
                                const int ix = xx + kx - 1;
                                if (iy >= 0 && iy < 4 && ix >= 0 && ix < 4)
                                    acc += x[std::size_t((c * 4 + iy) * 4 + ix)]
                                        * convW[std::size_t(((o * 2 + c) * 3 + ky) * 3 + kx)];
                            }
                    conv[std::size_t((o * 4 + yy) * 4 + xx)] = double(float(acc));
                }
        std::vector<double> bn(conv.size());
        for (std::size_t e = 0; e < bn.size(); ++e) {
            const std::size_t c = e / 16;
            bn[e] = double(float((conv[e] - runMean[c]) / std::sqrt(runVar[c] + 1e-5) * gamma[c] + beta[c]));
        }
        const std::vector<double> ln = pte::test::layerNormRows(bn, 4, lnW, lnB);
        std::vector<double> sm(ln.size());
        for (std::size_t row = 0; row < 12; ++row) {
            double sum = 0;
            for (std::size_t k = 0; k < 4; ++k)
                sum += std::exp(ln[row * 4 + k]);
            for (std::size_t k = 0; k < 4; ++k)
                sm[row * 4 + k] = double(float(std::exp(ln[row * 4 + k]) / sum));
        }
        std::vector<double> lin(12 * 2);
        for (std::size_t row = 0; row < 12; ++row)
            for (std::size_t j = 0; j < 2; ++j) {
                double acc = linB[j];
                for (std::size_t k = 0; k < 4; ++k)
                    acc += sm[row * 4 + k] * linW[j * 4 + k];
                lin[row * 2 + j] = double(float(acc));
            }

        // The dump.
        json tv;
        auto arg = [](const char* name, json a) {
            return json { { "name", name }, { "arg", std::move(a) }, { "kind", 1 } };
        };
        auto ints = [](std::vector<std::int64_t> v) { return json { { "as_ints", v } }; };
        auto node = [&](const std::string& name, const std::string& target, json inputs,
                        std::vector<std::int64_t> shape) {
            tv[name] = tensorMetaJson(shape);
            return json { { "name", name }, { "target", target }, { "inputs", std::move(inputs) },
                { "outputs", json::array({ tensorArgJson(name) }) }, { "metadata", json::object() } };
        };
        struct Param
        {
            const char* placeholder;
            const char* fqn;
            const char* kind;
            std::vector<std::int64_t> shape;
            const std::vector<double>* values;
        };
        const std::vector<Param> params { { "p_conv_weight", "conv.weight", "parameter", { 3, 2, 3, 3 }, &convW },
            { "p_conv_bias", "conv.bias", "parameter", { 3 }, &convB },
            { "p_bn_weight", "bn.weight", "parameter", { 3 }, &gamma },
            { "p_bn_bias", "bn.bias", "parameter", { 3 }, &beta },
            { "p_ln_weight", "ln.weight", "parameter", { 4 }, &lnW },
            { "p_ln_bias", "ln.bias", "parameter", { 4 }, &lnB },
            { "p_fc_weight", "fc.weight", "parameter", { 2, 4 }, &linW },
            { "p_fc_bias", "fc.bias", "parameter", { 2 }, &linB },
            { "b_bn_running_mean", "bn.running_mean", "buffer", { 3 }, &runMean },
            { "b_bn_running_var", "bn.running_var", "buffer", { 3 }, &runVar } };
        json inputs = json::array();
        json inputSpecs = json::array();
        for (const auto& p : params) {
            inputs.push_back(tensorArgJson(p.placeholder));
            tv[p.placeholder] = tensorMetaJson(p.shape);
            if (std::string(p.kind) == "parameter")
                inputSpecs.push_back(
                    { { "parameter", { { "arg", { { "name", p.placeholder } } }, { "parameter_name", p.fqn } } } });
            else
                inputSpecs.push_back({ { "buffer",
                    { { "arg", { { "name", p.placeholder } } }, { "buffer_name", p.fqn }, { "persistent", true } } } });
        }
        inputs.push_back(tensorArgJson("x"));
        tv["x"] = tensorMetaJson({ 1, 2, 4, 4 });
        inputSpecs.push_back({ { "user_input", { { "arg", tensorArgJson("x") } } } });
        json nodes = json::array();
        nodes.push_back(node("conv2d", "torch.ops.aten.conv2d.default",
            json::array({ arg("input", tensorArgJson("x")), arg("weight", tensorArgJson("p_conv_weight")),
                arg("bias", tensorArgJson("p_conv_bias")), arg("stride", ints({ 1, 1 })),
                arg("padding", ints({ 1, 1 })) }),
            { 1, 3, 4, 4 }));
        nodes.push_back(node("batch_norm", "torch.ops.aten.batch_norm.default",
            json::array({ arg("input", tensorArgJson("conv2d")), arg("weight", tensorArgJson("p_bn_weight")),
                arg("bias", tensorArgJson("p_bn_bias")), arg("running_mean", tensorArgJson("b_bn_running_mean")),
                arg("running_var", tensorArgJson("b_bn_running_var")), arg("training", { { "as_bool", false } }),
                arg("momentum", { { "as_float", 0.1 } }), arg("eps", { { "as_float", 1e-5 } }),
                arg("cudnn_enabled", { { "as_bool", true } }) }),
            { 1, 3, 4, 4 }));
        nodes.push_back(node("layer_norm", "torch.ops.aten.layer_norm.default",
            json::array({ arg("input", tensorArgJson("batch_norm")), arg("normalized_shape", ints({ 4 })),
                arg("weight", tensorArgJson("p_ln_weight")), arg("bias", tensorArgJson("p_ln_bias")),
                arg("eps", { { "as_float", 1e-5 } }) }),
            { 1, 3, 4, 4 }));
        nodes.push_back(node("softmax", "torch.ops.aten.softmax.int",
            json::array({ arg("self", tensorArgJson("layer_norm")), arg("dim", { { "as_int", -1 } }) }),
            { 1, 3, 4, 4 }));
        nodes.push_back(node("linear", "torch.ops.aten.linear.default",
            json::array({ arg("input", tensorArgJson("softmax")), arg("weight", tensorArgJson("p_fc_weight")),
                arg("bias", tensorArgJson("p_fc_bias")) }),
            { 1, 3, 4, 2 }));
        json doc = {
            { "graph_module",
                { { "graph",
                      { { "inputs", inputs }, { "outputs", json::array({ tensorArgJson("linear") }) },
                          { "nodes", nodes }, { "tensor_values", tv }, { "sym_int_values", json::object() },
                          { "sym_bool_values", json::object() }, { "sym_float_values", json::object() },
                          { "custom_obj_values", json::object() }, { "is_single_tensor_return", false } } },
                    { "signature",
                        { { "input_specs", inputSpecs },
                            { "output_specs",
                                json::array({ { { "user_output", { { "arg", tensorArgJson("linear") } } } } }) } } },
                    { "module_call_graph", json::array() }, { "metadata", json::object() } } },
            { "opset_version", { { "aten", 10 } } }, { "range_constraints", json::object() },
            { "schema_version", { { "major", 8 }, { "minor", 12 } } }, { "verifiers", json::array({ "ATEN" }) },
            { "torch_version", "2.9.0" }
        };
        auto ep = parseExportedProgramJson(doc.dump(), "composites.json");
        QVERIFY_RESULT(ep);
        for (const auto& p : params) {
            WeightTensor w;
            w.meta = (*ep)->graph.tensorValues.at(p.placeholder);
            std::vector<std::uint8_t> bytes(p.values->size() * 4);
            for (std::size_t k = 0; k < p.values->size(); ++k) {
                const float f = float((*p.values)[k]);
                std::memcpy(bytes.data() + 4 * k, &f, 4);
            }
            w.data = Bytes::fromVector(std::move(bytes));
            w.source = std::string("test:") + p.fqn;
            w.isParameter = std::string(p.kind) == "parameter";
            (*ep)->weights[p.fqn] = std::move(w);
        }
        auto e = emitAndReload({ { "forward", *ep } }, "composites");
        QVERIFY_RESULT(e);
        auto rt = ReferenceInterpreter::load(*e->file->program, "forward");
        QVERIFY_RESULT(rt);
        auto out = (*rt)->run({ HostTensor::floats({ 1, 2, 4, 4 }, x) });
        QVERIFY_RESULT(out);
        QCOMPARE(out->size(), std::size_t(1));
        QCOMPARE(out->at(0).sizes, (std::vector<std::int64_t> { 1, 3, 4, 2 }));
        COMPARE_VALUES(out->at(0).values, lin);
    }

    void runsMapAsLoop()
    {
        // map.json: neg(map(lambda row: row * y + row, neg(x))) = x * y + x row by row; x [3, 2], y [2].
        auto out = runDump("map.json", {});
        QVERIFY_RESULT(out);
        QCOMPARE(out->outputs.size(), std::size_t(1));
        QCOMPARE(out->outputs[0].sizes, (std::vector<std::int64_t> { 3, 2 }));
        COMPARE_VALUES(out->outputs[0].values, (std::vector<double> { 2, 6, 6, 12, 10, 18 }));
        QVERIFY(out->executed > out->chainLength); // the loop body ran more than once
    }

    void runsScanAsLoop()
    {
        // scan.json: running sums of the rows of xs [4, 2] from init [2]; outputs (last carry, stacked sums).
        auto out = runDump("scan.json", {});
        QVERIFY_RESULT(out);
        QCOMPARE(out->outputs.size(), std::size_t(2));
        COMPARE_VALUES(out->outputs[0].values, (std::vector<double> { 17, 22 }));
        QCOMPARE(out->outputs[1].sizes, (std::vector<std::int64_t> { 4, 2 }));
        COMPARE_VALUES(out->outputs[1].values, (std::vector<double> { 2, 4, 5, 8, 10, 14, 17, 22 }));
    }

    void runsElidedView()
    {
        // view.json: neg(memory.view(x * x, [6])).
        auto out = runDump("view.json", {});
        QVERIFY_RESULT(out);
        QCOMPARE(out->outputs.size(), std::size_t(1));
        QCOMPARE(out->outputs[0].sizes, (std::vector<std::int64_t> { 6 }));
        COMPARE_VALUES(out->outputs[0].values, (std::vector<double> { -1, -4, -9, -16, -25, -36 }));
    }

private:
    struct Run
    {
        std::vector<HostTensor> outputs;
        std::size_t executed = 0;
        std::size_t chainLength = 0;
    };

    /** Emits tests/data/emit/<name>, and runs `forward` with each input filled with 1, 2, 3... */
    static Result<Run> runDump(const char* name, std::vector<HostTensor> inputs)
    {
        PTE_TRY(auto e, emitDumpFile(test::testDataDir() + "/emit/" + QLatin1String(name), name));
        const auto* plan = e.file->program->method("forward");
        if (!plan)
            return fail(ErrorCode::InvalidInput, "no forward method");
        if (inputs.empty()) {
            for (const auto id : plan->inputs) {
                const auto* t = plan->values[std::size_t(id)].tensor();
                if (!t)
                    return fail(ErrorCode::InvalidInput, "a non-tensor input");
                HostTensor h;
                h.dtype = t->scalarType;
                h.sizes.assign(t->sizes.begin(), t->sizes.end());
                for (std::uint64_t k = 0; k < t->numel().value_or(0); ++k)
                    h.values.push_back(double(k) + 1);
                inputs.push_back(std::move(h));
            }
        }
        PTE_TRY(auto rt, ReferenceInterpreter::load(*e.file->program, "forward"));
        PTE_TRY(auto outputs, rt->run(inputs));
        return Run { std::move(outputs), rt->executedInstructions(), plan->chains.at(0).instructions.size() };
    }
};

QTEST_GUILESS_MAIN(TestExecution)
#include "tst_execution.moc"
