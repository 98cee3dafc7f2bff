// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// In-place ops of the training IR (torch.export's default IR is not functionalized): relu_, add_, hardtanh_ on
// activations, and buffers updated in place (a counter, a KV cache written with index_put_ or through a slice)
// without a buffer_mutation output. Each dump is emitted and run on ExecuTorch's runtime, and the outputs compared
// with what PyTorch computes: later uses of the updated tensor, of its base and of views made before the update all
// read the new value, and buffers keep their state from one execution to the next.
#include "dumpbuilder.h"
#include "errorcheck.h"
#include "etrunner.h"
#include "runtimecase.h"
#include "testutils.h"

#include <QTest>

#include <algorithm>

using namespace pte;
using namespace pte::test;
using nlohmann::json;

class TestLoweringInPlace : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void activationsUpdatedInPlace()
    {
        // out = relu(x); out += y; hardtanh_(out, 0, 6): a ResNet/MobileNet tail as torch.export writes it.
        const auto x = values(12, 1, 4.0);
        const auto y = values(12, 2, 4.0);
        Case c;
        c.in("x", { 3, 4 }, x).in("y", { 3, 4 }, y);
        c.dump.node("relu_", "relu_.default", json::array({ arg("self", T("x")) }), { 3, 4 });
        c.dump.node("add_", "add_.Tensor", json::array({ arg("self", T("relu_")), arg("other", T("y")) }), { 3, 4 });
        c.dump.node("hardtanh_", "hardtanh_.default",
            json::array({ arg("self", T("add_")), arg("min_val", F(0.0)), arg("max_val", F(6.0)) }), { 3, 4 });
        c.dump.output("hardtanh_");
        std::vector<double> want(12);
        for (std::size_t k = 0; k < 12; ++k)
            want[k] = f32(std::clamp(f32(std::max(x[k], 0.0) + y[k]), 0.0, 6.0));
        c.expect({ 3, 4 }, want);
        QVERIFY_RUNS_ON_RUNTIME(c, "inplace_activations");
    }

    void laterUsesOfTheUpdatedNameReadTheNewValue()
    {
        // t = x * 2; t.add_(1); return t, t * 3: the graph names `t` after its update, not the add_ node.
        const auto x = values(6, 3);
        Case c;
        c.in("x", { 6 }, x);
        c.dump.node("t", "mul.Tensor", json::array({ arg("self", T("x")), arg("other", I(2)) }), { 6 });
        c.dump.node("add_", "add_.Tensor", json::array({ arg("self", T("t")), arg("other", I(1)) }), { 6 });
        c.dump.node("mul_1", "mul.Tensor", json::array({ arg("self", T("t")), arg("other", I(3)) }), { 6 });
        c.dump.output("t");
        c.dump.output("mul_1");
        std::vector<double> t(6), t3(6);
        for (std::size_t k = 0; k < 6; ++k) {
            t[k] = f32(f32(x[k] * 2) + 1);
            t3[k] = f32(t[k] * 3);
        }
        c.expect({ 6 }, t).expect({ 6 }, t3);
        QVERIFY_RUNS_ON_RUNTIME(c, "inplace_rename");
    }

    void counterBufferKeepsItsState()
    {
        // self.count.add_(1); return self.count * x. No buffer_mutation output: the training IR has none.
        Case c;
        c.dump.weight("b_count", "count", { 1 }, { 5.0 }, false);
        c.in("x", { 3 }, { 1.0, 2.0, -1.0 });
        c.dump.node("add_", "add_.Tensor", json::array({ arg("self", T("b_count")), arg("other", I(1)) }), { 1 });
        c.dump.node("mul", "mul.Tensor", json::array({ arg("self", T("b_count")), arg("other", T("x")) }), { 3 });
        c.dump.output("mul");
        c.runs = 3; // 5 + 3 after the third execution
        c.expect({ 3 }, { 8.0, 16.0, -8.0 });
        QVERIFY_RUNS_ON_RUNTIME(c, "inplace_counter");
    }

    void kvCacheWrittenWithIndexPut()
    {
        // cache[pos] = k (index_put_ on a [4, 3] buffer), then the whole cache is returned through a clone.
        Case c;
        c.dump.weight("b_cache", "cache", { 4, 3 }, std::vector<double>(12, 0.0), false);
        c.in("pos", { 1 }, { 2.0 }, kLong).in("k", { 1, 3 }, { 1.5, -2.0, 3.0 });
        c.dump.node("index_put_", "index_put_.default",
            json::array(
                { arg("self", T("b_cache")), arg("indices", OptionalTensors({ "pos" })), arg("values", T("k")) }),
            { 4, 3 });
        c.dump.node("clone", "clone.default", json::array({ arg("self", T("b_cache")) }), { 4, 3 });
        c.dump.output("clone");
        c.runs = 2;
        c.expect({ 4, 3 }, { 0, 0, 0, 0, 0, 0, 1.5, -2.0, 3.0, 0, 0, 0 });
        QVERIFY_RUNS_ON_RUNTIME(c, "inplace_index_put");
    }

    void kvCacheWrittenThroughASlice()
    {
        // cache[:, 1:3] = k as the training IR writes it: slice (a view) then copy_ into the view; the cache is
        // read afterwards by its own name, and a view of it made before the update is read after it.
        Case c;
        c.dump.weight("b_cache", "cache", { 2, 4 }, { 1, 2, 3, 4, 5, 6, 7, 8 }, false);
        c.in("k", { 2, 2 }, { -1.0, -2.0, -3.0, -4.0 });
        c.dump.node("select", "select.int",
            json::array({ arg("self", T("b_cache")), arg("dim", I(0)), arg("index", I(1)) }), { 4 });
        c.dump.node("slice_1", "slice.Tensor",
            json::array({ arg("self", T("b_cache")), arg("dim", I(1)), arg("start", I(1)), arg("end", I(3)) }),
            { 2, 2 });
        c.dump.node("copy_", "copy_.default", json::array({ arg("self", T("slice_1")), arg("src", T("k")) }), { 2, 2 });
        c.dump.node("mul", "mul.Tensor", json::array({ arg("self", T("b_cache")), arg("other", I(10)) }), { 2, 4 });
        c.dump.node("neg", "neg.default", json::array({ arg("self", T("select")) }), { 4 });
        c.dump.output("mul");
        c.dump.output("neg");
        c.expect({ 2, 4 }, { 10, -10, -20, 40, 50, -30, -40, 80 }).expect({ 4 }, { -5, 3, 4, -8 });
        QVERIFY_RUNS_ON_RUNTIME(c, "inplace_slice_copy");
    }
};

QTEST_GUILESS_MAIN(TestLoweringInPlace)
#include "tst_lowering_inplace.moc"
