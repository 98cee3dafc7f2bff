// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// The PyTorch reference of the whole-model tests (tests/testutils/torchreference.h) checked where an independent
// implementation exists: ExecuTorch's portable kernels of the core ATen ops (convolution in every form,
// native_group_norm, native_layer_norm, batch norm, pooling, softmax, glu, gelu...), each called through a
// one-node program as an ATen-IR dump writes it and run on ExecuTorch's runtime. A model-zoo block that disagrees
// with the reference then points at the lowering, not at the reference.
#include "dumpbuilder.h"
#include "runtimecase.h"
#include "torchreference.h"

#include <QTest>

using namespace pte;
using namespace pte::test;
namespace tr = pte::test::torchref;
using nlohmann::json;
using Shape = std::vector<std::int64_t>;

namespace {

/** A user input of `c` with values in +-scale, and the same as a reference tensor. */
tr::Tensor input(Case& c, const std::string& name, Shape shape, std::uint32_t seed, double scale = 1.0)
{
    c.in(name, shape, values(std::size_t(tr::zeros(shape).numel()), seed, scale));
    return tr::tensor(std::move(shape), c.inputs.back().values);
}

/** A parameter of `c` (p_<name>), and the same as a reference tensor. */
tr::Tensor param(Case& c, const std::string& name, Shape shape, std::uint32_t seed, double scale = 0.5)
{
    auto v = values(std::size_t(tr::zeros(shape).numel()), seed, scale);
    c.dump.weight("p_" + name, name, shape, v);
    return tr::tensor(std::move(shape), std::move(v));
}

void expect(Case& c, const std::string& name, const tr::Tensor& t)
{
    c.dump.output(name);
    c.expect(t.shape, t.v);
}

json convolutionArgs(const Shape& stride, const Shape& padding, const Shape& dilation, bool transposed,
    const Shape& outputPadding, std::int64_t groups)
{
    return json::array({ arg("input", T("x")), arg("weight", T("p_w")), arg("bias", T("p_b")),
        arg("stride", Ints(stride)), arg("padding", Ints(padding)), arg("dilation", Ints(dilation)),
        arg("transposed", B(transposed)), arg("output_padding", Ints(outputPadding)), arg("groups", I(groups)) });
}

} // namespace

class TestTorchReference : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void conv2dWithGroupsStridePaddingDilation()
    {
        Case c;
        const auto w = param(c, "w", { 6, 2, 3, 3 }, 1);
        const auto b = param(c, "b", { 6 }, 2);
        const auto x = input(c, "x", { 1, 4, 9, 9 }, 3);
        const auto y = tr::conv2d(x, w, b, { 2, 1 }, { 1, 2 }, { 2, 1 }, 2);
        c.dump.node(
            "y", "convolution.default", convolutionArgs({ 2, 1 }, { 1, 2 }, { 2, 1 }, false, { 0, 0 }, 2), y.shape);
        expect(c, "y", y);
        QVERIFY_RUNS_ON_RUNTIME(c, "torchref_conv2d");
    }

    void conv1dDepthwiseStrided()
    {
        Case c;
        const auto w = param(c, "w", { 4, 1, 5 }, 4);
        const auto b = param(c, "b", { 4 }, 5);
        const auto x = input(c, "x", { 2, 4, 20 }, 6);
        const auto y = tr::conv1d(x, w, b, 2, 2, 1, 4);
        c.dump.node("y", "convolution.default", convolutionArgs({ 2 }, { 2 }, { 1 }, false, { 0 }, 4), y.shape);
        expect(c, "y", y);
        QVERIFY_RUNS_ON_RUNTIME(c, "torchref_conv1d");
    }

    void convTranspose2d_data()
    {
        QTest::addColumn<int>("groups");
        QTest::newRow("groups 1, stride 2, padding 1, output padding 1") << 1;
        QTest::newRow("groups 2, kernel 2, stride 2 (U-Net up-sampling)") << 2;
    }
    void convTranspose2d()
    {
        QFETCH(int, groups);
        Case c;
        const bool one = groups == 1;
        const auto w = param(c, "w", one ? Shape { 4, 3, 3, 3 } : Shape { 4, 2, 2, 2 }, 7);
        const auto b = param(c, "b", { one ? 3 : 4 }, 8);
        const auto x = input(c, "x", { 1, 4, 5, 5 }, 9);
        const Shape stride { 2, 2 }, padding = one ? Shape { 1, 1 } : Shape { 0, 0 };
        const Shape outputPadding = one ? Shape { 1, 1 } : Shape { 0, 0 };
        const auto y = tr::convTranspose2d(x, w, b, stride, padding, outputPadding, groups);
        c.dump.node("y", "convolution.default", convolutionArgs(stride, padding, { 1, 1 }, true, outputPadding, groups),
            y.shape);
        expect(c, "y", y);
        QVERIFY_RUNS_ON_RUNTIME(c, "torchref_conv_transpose2d");
    }

    void groupNorm()
    {
        Case c;
        const auto w = param(c, "w", { 8 }, 10);
        const auto b = param(c, "b", { 8 }, 11);
        const auto x = input(c, "x", { 2, 8, 5 }, 12, 2.0);
        const auto y = tr::groupNorm(x, 4, w, b, 1e-5);
        c.dump.tupleNode("r", "native_group_norm.default",
            json::array({ arg("input", T("x")), arg("weight", T("p_w")), arg("bias", T("p_b")), arg("N", I(2)),
                arg("C", I(8)), arg("HxW", I(5)), arg("group", I(4)), arg("eps", F(1e-5)) }),
            { { "out", { 2, 8, 5 } }, { "mean", { 2, 4 } }, { "rstd", { 2, 4 } } });
        expect(c, "out", y);
        QVERIFY_RUNS_ON_RUNTIME(c, "torchref_group_norm");
    }

    void layerNorm()
    {
        Case c;
        const auto w = param(c, "w", { 10 }, 13);
        const auto b = param(c, "b", { 10 }, 14);
        const auto x = input(c, "x", { 3, 10 }, 15, 3.0);
        const auto y = tr::layerNorm(x, 1, w, b, 1e-6);
        c.dump.tupleNode("r", "native_layer_norm.default",
            json::array({ arg("input", T("x")), arg("normalized_shape", Ints({ 10 })), arg("weight", T("p_w")),
                arg("bias", T("p_b")), arg("eps", F(1e-6)) }),
            { { "out", { 3, 10 } }, { "mean", { 3, 1 } }, { "rstd", { 3, 1 } } });
        expect(c, "out", y);
        QVERIFY_RUNS_ON_RUNTIME(c, "torchref_layer_norm");
    }

    void batchNormEval()
    {
        Case c;
        const auto w = param(c, "w", { 3 }, 16);
        const auto b = param(c, "b", { 3 }, 17);
        const std::vector<double> mean { 0.1, -0.2, 0.3 }, var { 0.5, 1.5, 0.8 };
        c.dump.weight("b_rm", "rm", { 3 }, mean, false);
        c.dump.weight("b_rv", "rv", { 3 }, var, false);
        const auto x = input(c, "x", { 2, 3, 4 }, 18, 2.0);
        const auto y = tr::batchNormEval(x, tr::tensor({ 3 }, mean), tr::tensor({ 3 }, var), w, b, 1e-3);
        c.dump.tupleNode("r", "_native_batch_norm_legit_no_training.default",
            json::array(
                { arg("input", T("x")), arg("weight", T("p_w")), arg("bias", T("p_b")), arg("running_mean", T("b_rm")),
                    arg("running_var", T("b_rv")), arg("momentum", F(0.01)), arg("eps", F(1e-3)) }),
            { { "out", { 2, 3, 4 } }, { "save_mean", { 0 } }, { "save_rstd", { 0 } } });
        expect(c, "out", y);
        QVERIFY_RUNS_ON_RUNTIME(c, "torchref_batch_norm");
    }

    void maxPool2d()
    {
        Case c;
        const auto x = input(c, "x", { 1, 2, 6, 6 }, 19, 2.0);
        const auto y = tr::maxPool2d(x, { 3, 3 }, { 2, 2 }, { 1, 1 });
        c.dump.tupleNode("r", "max_pool2d_with_indices.default",
            json::array({ arg("self", T("x")), arg("kernel_size", Ints({ 3, 3 })), arg("stride", Ints({ 2, 2 })),
                arg("padding", Ints({ 1, 1 })) }),
            { { "values", y.shape }, { "indices", y.shape } }, kFloat, { kFloat, kLong });
        expect(c, "values", y);
        QVERIFY_RUNS_ON_RUNTIME(c, "torchref_max_pool2d");
    }

    void adaptiveAvgPool2d()
    {
        Case c;
        const auto x = input(c, "x", { 1, 2, 7, 5 }, 20, 2.0);
        const auto y = tr::adaptiveAvgPool2d(x, 3, 2);
        c.dump.node("y", "_adaptive_avg_pool2d.default",
            json::array({ arg("self", T("x")), arg("output_size", Ints({ 3, 2 })) }), y.shape);
        expect(c, "y", y);
        QVERIFY_RUNS_ON_RUNTIME(c, "torchref_adaptive_avg_pool2d");
    }

    void softmaxAndLogSoftmax()
    {
        Case c;
        const auto x = input(c, "x", { 3, 5, 2 }, 21, 4.0);
        c.dump.node("s", "_softmax.default",
            json::array({ arg("self", T("x")), arg("dim", I(1)), arg("half_to_float", B(false)) }), { 3, 5, 2 });
        c.dump.node("l", "_log_softmax.default",
            json::array({ arg("self", T("x")), arg("dim", I(1)), arg("half_to_float", B(false)) }), { 3, 5, 2 });
        expect(c, "s", tr::softmax(x, 1));
        expect(c, "l", tr::logSoftmax(x, 1));
        QVERIFY_RUNS_ON_RUNTIME(c, "torchref_softmax");
    }

    void activations()
    {
        Case c;
        const auto x = input(c, "x", { 4, 6 }, 22, 5.0);
        const std::vector<std::pair<const char*, tr::Tensor>> outs = { { "gelu", tr::gelu(x) },
            { "gelu_tanh", tr::gelu(x, true) }, { "hardswish", tr::hardswish(x) },
            { "hardsigmoid", tr::hardsigmoid(x) }, { "sigmoid", tr::sigmoid(x) }, { "tanh", tr::tanh(x) },
            { "relu", tr::relu(x) }, { "glu", tr::glu(x, 1) } };
        c.dump.node("gelu", "gelu.default", json::array({ arg("self", T("x")) }), { 4, 6 });
        c.dump.node("gelu_tanh", "gelu.default", json::array({ arg("self", T("x")), kwarg("approximate", S("tanh")) }),
            { 4, 6 });
        for (const char* op : { "hardswish", "hardsigmoid", "sigmoid", "tanh", "relu" })
            c.dump.node(op, std::string(op) + ".default", json::array({ arg("self", T("x")) }), { 4, 6 });
        c.dump.node("glu", "glu.default", json::array({ arg("self", T("x")), arg("dim", I(1)) }), { 4, 3 });
        for (const auto& [name, t] : outs)
            expect(c, name, t);
        QVERIFY_RUNS_ON_RUNTIME(c, "torchref_activations");
    }

    void embeddingAndLinear()
    {
        Case c;
        const auto table = param(c, "table", { 10, 4 }, 23, 1.0);
        const auto w = param(c, "w", { 3, 4 }, 24);
        const auto b = param(c, "b", { 3 }, 25);
        c.in("ids", { 2, 3 }, { 9, 0, 4, 4, 7, 1 }, kLong);
        const auto e = tr::embedding(table, tr::tensor({ 2, 3 }, { 9, 0, 4, 4, 7, 1 }));
        c.dump.node("e", "embedding.default", json::array({ arg("weight", T("p_table")), arg("indices", T("ids")) }),
            { 2, 3, 4 });
        c.dump.node("y", "linear.default",
            json::array({ arg("input", T("e")), arg("weight", T("p_w")), arg("bias", T("p_b")) }), { 2, 3, 3 });
        expect(c, "e", e);
        expect(c, "y", tr::linear(e, w, b));
        QVERIFY_RUNS_ON_RUNTIME(c, "torchref_embedding_linear");
    }
};

QTEST_GUILESS_MAIN(TestTorchReference)
#include "tst_torch_reference.moc"
