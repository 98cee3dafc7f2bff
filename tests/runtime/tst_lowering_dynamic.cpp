// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// Dumps exported with dynamic_shapes (a symbolic batch or sequence size with range constraints): the composites that
// fold or reshape dimensions (linear, matmul) take the dynamic sizes at run time (aten::sym_size.int and
// executorch_prim arithmetic feeding view_copy), memory is planned at the upper bounds, and the program runs on
// ExecuTorch's runtime at the upper bound with PyTorch's numbers.
#include "dumpbuilder.h"
#include "errorcheck.h"
#include "etrunner.h"
#include "pte/emitter.h"
#include "runtimecase.h"
#include "testutils.h"

#include <QTest>

#include <algorithm>

using namespace pte;
using namespace pte::test;
using nlohmann::json;

namespace {

/** y = x W^T (+ b) over rows of `in` features. */
std::vector<double> affine(const std::vector<double>& x, const std::vector<double>& w, const std::vector<double>& b,
    std::size_t rows, std::size_t in, std::size_t out)
{
    std::vector<double> y(rows * out);
    for (std::size_t r = 0; r < rows; ++r)
        for (std::size_t o = 0; o < out; ++o) {
            double acc = b.empty() ? 0.0 : b[o];
            for (std::size_t k = 0; k < in; ++k)
                acc += x[r * in + k] * w[o * in + k];
            y[r * out + o] = f32(acc);
        }
    return y;
}

} // namespace

class TestLoweringDynamic : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void linearOverADynamicBatch_data()
    {
        QTest::addColumn<bool>("threeD");
        QTest::addColumn<bool>("bias");
        QTest::newRow("[s0, 8] with bias") << false << true;
        QTest::newRow("[s0, 5, 8] with bias") << true << true;
        QTest::newRow("[s0, 5, 8] without bias") << true << false;
    }

    void linearOverADynamicBatch()
    {
        QFETCH(bool, threeD);
        QFETCH(bool, bias);
        const std::int64_t maxBatch = 6;
        const std::vector<std::int64_t> inShape =
            threeD ? std::vector<std::int64_t> { maxBatch, 5, 8 } : std::vector<std::int64_t> { maxBatch, 8 };
        const std::size_t rows = std::size_t(threeD ? maxBatch * 5 : maxBatch);
        const auto w = values(4 * 8, 51, 0.5);
        const auto b = bias ? values(4, 52, 0.5) : std::vector<double> {};
        const auto x = values(rows * 8, 53);
        Case c;
        c.dump.weight("p_fc_weight", "fc.weight", { 4, 8 }, w);
        if (bias)
            c.dump.weight("p_fc_bias", "fc.bias", { 4 }, b);
        c.in("x", inShape, x);
        c.dump.dynamic("x", 0, "s0", maxBatch);
        auto outShape = inShape;
        outShape.back() = 4;
        json args = json::array({ arg("input", T("x")), arg("weight", T("p_fc_weight")) });
        if (bias)
            args.push_back(arg("bias", T("p_fc_bias")));
        c.dump.node("linear", "linear.default", args, outShape);
        c.dump.dynamic("linear", 0, "s0", maxBatch);
        c.dump.node("relu", "relu.default", json::array({ arg("self", T("linear")) }), outShape);
        c.dump.dynamic("relu", 0, "s0", maxBatch);
        c.dump.output("relu");
        auto y = affine(x, w, b, rows, 8, 4);
        for (auto& v : y)
            v = std::max(v, 0.0);
        c.expect(outShape, y);
        QVERIFY_RUNS_ON_RUNTIME(c, threeD ? (bias ? "dyn_linear3d" : "dyn_linear3d_nobias") : "dyn_linear2d");
    }

    void batchedMatmulOverADynamicBatch()
    {
        // [s0, 4, 8] @ [8, 3] (folded into one mm) and [s0, 4, 8] @ [s0, 8, 2] (bmm), s0 <= 3.
        const std::int64_t n = 3;
        const auto a = values(std::size_t(n * 4 * 8), 61);
        const auto w = values(8 * 3, 62);
        const auto bm = values(std::size_t(n * 8 * 2), 63);
        Case c;
        c.in("a", { n, 4, 8 }, a).in("b", { n, 8, 2 }, bm);
        c.dump.dynamic("a", 0, "s0", n);
        c.dump.dynamic("b", 0, "s0", n);
        c.dump.constant("c_w", "w", { 8, 3 }, w);
        c.dump.node(
            "matmul", "matmul.default", json::array({ arg("self", T("a")), arg("other", T("c_w")) }), { n, 4, 3 });
        c.dump.dynamic("matmul", 0, "s0", n);
        c.dump.node(
            "matmul_1", "matmul.default", json::array({ arg("self", T("a")), arg("other", T("b")) }), { n, 4, 2 });
        c.dump.dynamic("matmul_1", 0, "s0", n);
        c.dump.output("matmul");
        c.dump.output("matmul_1");
        std::vector<double> m1(std::size_t(n * 4 * 3)), m2(std::size_t(n * 4 * 2));
        for (std::int64_t p = 0; p < n; ++p)
            for (std::size_t i = 0; i < 4; ++i) {
                for (std::size_t j = 0; j < 3; ++j) {
                    double acc = 0;
                    for (std::size_t k = 0; k < 8; ++k)
                        acc += a[std::size_t(p) * 32 + i * 8 + k] * w[k * 3 + j];
                    m1[std::size_t(p) * 12 + i * 3 + j] = f32(acc);
                }
                for (std::size_t j = 0; j < 2; ++j) {
                    double acc = 0;
                    for (std::size_t k = 0; k < 8; ++k)
                        acc += a[std::size_t(p) * 32 + i * 8 + k] * bm[std::size_t(p) * 16 + k * 2 + j];
                    m2[std::size_t(p) * 8 + i * 2 + j] = f32(acc);
                }
            }
        c.expect({ n, 4, 3 }, m1).expect({ n, 4, 2 }, m2);
        QVERIFY_RUNS_ON_RUNTIME(c, "dyn_matmul");
    }

    void runtimeAssertionsAreRemoved()
    {
        // What torch.export adds to a graph with dynamic shapes and dtype conversions: _assert_scalar over symbolic
        // comparisons (a range the code implies), sym_constrain_range_for_size, and _assert_tensor_metadata before
        // a .to() that changes nothing. ExecuTorch removes them (RemoveGraphAssertsPass); the symbolic and_ feeding
        // only an assertion has no prim op and is not needed.
        const std::int64_t maxBatch = 5;
        const auto x = values(std::size_t(maxBatch * 3), 71);
        Case c;
        c.in("x", { maxBatch, 3 }, x);
        c.dump.dynamic("x", 0, "s0", maxBatch);
        c.dump.symNode(
            "sym_size_int", "sym_size.int", json::array({ arg("self", T("x")), arg("dim", I(0)) }), "s0", maxBatch);
        auto symBool = [](const std::string& name) { return json { { "as_sym_bool", { { "as_name", name } } } }; };
        c.dump.symNode("ge", "_operator.ge", json::array({ arg("", SymArg("sym_size_int")), arg("", I(1)) }), "s0 >= 1",
            1, "bool");
        c.dump.symNode("le", "_operator.le", json::array({ arg("", SymArg("sym_size_int")), arg("", I(maxBatch)) }),
            "s0 <= 5", 1, "bool");
        c.dump.symNode("and_", "_operator.and_", json::array({ arg("", symBool("ge")), arg("", symBool("le")) }),
            "(s0 >= 1) & (s0 <= 5)", 1, "bool");
        c.dump.call("_assert_scalar_default", "_assert_scalar.default",
            json::array({ arg("self", symBool("and_")),
                arg("assert_msg", S("Runtime assertion failed for expression 1 <= s0 <= 5 on node 'and_'")) }));
        c.dump.call("sym_constrain_range_for_size_default", "sym_constrain_range_for_size.default",
            json::array({ arg("size", SymArg("sym_size_int")), kwarg("min", I(1)), kwarg("max", I(maxBatch)) }));
        c.dump.call("_assert_tensor_metadata_default", "_assert_tensor_metadata.default",
            json::array({ arg("a", T("x")), kwarg("dtype", Dtype(kFloat)), kwarg("device", Device()),
                kwarg("layout", json { { "as_layout", 7 } }) }));
        c.dump.node(
            "to", "to.dtype", json::array({ arg("self", T("x")), arg("dtype", Dtype(kFloat)) }), { maxBatch, 3 });
        c.dump.dynamic("to", 0, "s0", maxBatch);
        c.dump.node("relu", "relu.default", json::array({ arg("self", T("to")) }), { maxBatch, 3 });
        c.dump.dynamic("relu", 0, "s0", maxBatch);
        c.dump.output("relu");
        c.expect({ maxBatch, 3 }, map(x, [](double v) { return std::max(v, 0.0); }));
        QVERIFY_RUNS_ON_RUNTIME(c, "dyn_assertions");

        // A node that reads the and_ result itself is refused, naming the node that made it.
        c.dump.symOutput("and_", "bool");
        auto ep = c.dump.build("assertions read");
        QVERIFY_RESULT(ep);
        QVERIFY_ERROR(emitProgram({ { "forward", *ep } }), ErrorCode::Unsupported, "'and_'",
            "the result of node 'and_' (and_ on symbols", "prim ops do not have");
    }
};

QTEST_GUILESS_MAIN(TestLoweringDynamic)
#include "tst_lowering_dynamic.moc"
