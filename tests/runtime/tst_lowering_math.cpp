// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// Masks, factories, reductions and math of the training IR (triu/tril, masked_fill, where with scalars, arange, full
// and the *_like / new_* factories, one_hot, eye, linspace, logsumexp, std/var, cumsum/cumprod, clamp_min/max,
// cosine_similarity, pairwise_distance, cdist, addcmul, the BLAS-1/2 family, lerp, logaddexp, xlogy, small pointwise
// composites, all/any, the min/max family, sort/topk, count_nonzero), written as torch.export writes them, emitted by
// ptelens and run on ExecuTorch's runtime. Expected values come from each op's documented definition, computed here.
#include "dumpbuilder.h"
#include "errorcheck.h"
#include "etrunner.h"
#include "pte/emitter.h"
#include "runtimecase.h"
#include "tensorindex.h"
#include "testutils.h"

#include <QTest>

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <numeric>

using namespace pte;
using namespace pte::test;
using nlohmann::json;

namespace {

/** A reduction of x (shape xs) over `dims`: for each output element, the reduced elements in order. */
struct Reduced
{
    Shape shape; ///< keepdim = false
    Shape kept; ///< keepdim = true
    std::vector<Values> groups;
};

Reduced reduce(const Values& x, const Shape& xs, std::vector<std::int64_t> dims)
{
    if (dims.empty())
        for (std::size_t d = 0; d < xs.size(); ++d)
            dims.push_back(std::int64_t(d));
    auto reduced = [&](std::size_t d) { return std::find(dims.begin(), dims.end(), std::int64_t(d)) != dims.end(); };
    Reduced r;
    for (std::size_t d = 0; d < xs.size(); ++d) {
        r.kept.push_back(reduced(d) ? 1 : xs[d]);
        if (!reduced(d))
            r.shape.push_back(xs[d]);
    }
    r.groups.resize(numel(r.kept));
    tabulate(xs, [&](const Shape& i) {
        Shape o = i;
        for (std::size_t d = 0; d < xs.size(); ++d)
            if (reduced(d))
                o[d] = 0;
        r.groups[rowMajorOffset(r.kept, o)].push_back(x[rowMajorOffset(xs, i)]);
        return 0.0;
    });
    return r;
}

Values each(const Reduced& r, const std::function<double(const Values&)>& f)
{
    Values v;
    for (const auto& g : r.groups)
        v.push_back(f(g));
    return v;
}

double sumOf(const Values& v) { return std::accumulate(v.begin(), v.end(), 0.0); }
double meanOf(const Values& v) { return sumOf(v) / double(v.size()); }
double varOf(const Values& v, double correction)
{
    const double m = meanOf(v);
    double s = 0;
    for (const double e : v)
        s += (e - m) * (e - m);
    return s / std::max(0.0, double(v.size()) - correction);
}

json self() { return arg("self", T("x")); }

} // namespace

class TestLoweringMath : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // ---- masks and factories

    void triuAndTril_data()
    {
        QTest::addColumn<int>("diagonal");
        QTest::newRow("0") << 0;
        QTest::newRow("1") << 1;
        QTest::newRow("-1") << -1;
    }

    void triuAndTril()
    {
        QFETCH(int, diagonal);
        // Batched [2, 3, 4]: triu keeps j - i >= diagonal, tril j - i <= diagonal.
        const Shape s { 2, 3, 4 };
        Case c;
        c.in("x", s, values(24, 1));
        const auto x = c.inputs[0].values;
        json args = json::array({ self() });
        if (diagonal != 0)
            args.push_back(arg("diagonal", I(diagonal)));
        c.op("u", "triu.default", args, s,
            tabulate(s, [&](const Shape& i) { return i[2] - i[1] >= diagonal ? x[rowMajorOffset(s, i)] : 0.0; }));
        c.op("l", "tril.default", args, s,
            tabulate(s, [&](const Shape& i) { return i[2] - i[1] <= diagonal ? x[rowMajorOffset(s, i)] : 0.0; }));
        QVERIFY_RUNS_ON_RUNTIME(c, "math_triu");
    }

    void triuOfABoolMaskAndOfADynamicSize()
    {
        // The causal mask of a decoder: triu(ones(L, L, bool), 1), then scores masked with it.
        Case c;
        c.in("m", { 3, 3 }, std::vector<double>(9, 1), kBool);
        c.op("u", "triu.default", json::array({ arg("self", T("m")), arg("diagonal", I(1)) }), { 3, 3 },
            { 0, 1, 1, 0, 0, 1, 0, 0, 0 }, kBool);
        QVERIFY_RUNS_ON_RUNTIME(c, "math_triu_bool");

        // triu of a [s0, 4] activation, run at s0 = 3.
        Case d;
        d.in("x", { 3, 4 }, values(12, 2));
        d.dump.dynamic("x", 0, "s0", 3);
        const auto x = d.inputs[0].values;
        d.op("u", "triu.default", json::array({ self(), arg("diagonal", I(1)) }), { 3, 4 },
            tabulate(
                { 3, 4 }, [&](const Shape& i) { return i[1] - i[0] >= 1 ? x[std::size_t(i[0] * 4 + i[1])] : 0.0; }));
        d.dump.dynamic("u", 0, "s0", 3);
        QVERIFY_RUNS_ON_RUNTIME(d, "math_triu_dynamic");
    }

    void maskedFillAndWhere()
    {
        Case c;
        c.in("x", { 2, 3 }, values(6, 3)).in("m", { 2, 3 }, { 1, 0, 0, 1, 1, 0 }, kBool).in("v", {}, { 2.5 });
        c.in("i", { 2, 3 }, { 1, -2, 3, -4, 5, -6 }, kLong);
        const auto x = c.inputs[0].values;
        const Values m { 1, 0, 0, 1, 1, 0 };
        auto pick = [&](double a, const Values& b) {
            Values r;
            for (std::size_t k = 0; k < 6; ++k)
                r.push_back(m[k] != 0 ? a : b[k]);
            return r;
        };
        c.op("a", "masked_fill.Scalar", json::array({ self(), arg("mask", T("m")), arg("value", F(-1e9)) }), { 2, 3 },
            pick(-1e9, x));
        c.op("b", "masked_fill.Tensor", json::array({ self(), arg("mask", T("m")), arg("value", T("v")) }), { 2, 3 },
            pick(2.5, x));
        c.op("c", "where.ScalarOther",
            json::array({ arg("condition", T("m")), arg("self", T("x")), arg("other", F(0.5)) }), { 2, 3 },
            tabulate({ 2, 3 }, [&](const Shape& i) {
                const auto k = std::size_t(i[0] * 3 + i[1]);
                return m[k] != 0 ? x[k] : 0.5;
            }));
        c.op("d", "where.ScalarSelf",
            json::array({ arg("condition", T("m")), arg("self", F(0.0)), arg("other", T("x")) }), { 2, 3 },
            pick(0.0, x));
        c.op("e", "where.Scalar", json::array({ arg("condition", T("m")), arg("self", F(1.0)), arg("other", F(-1.0)) }),
            { 2, 3 }, pick(1.0, Values(6, -1.0)));
        // An int tensor with a float scalar: float result.
        const Values iv { 1, -2, 3, -4, 5, -6 };
        c.op("f", "where.ScalarOther",
            json::array({ arg("condition", T("m")), arg("self", T("i")), arg("other", F(0.5)) }), { 2, 3 },
            tabulate({ 2, 3 }, [&](const Shape& i) {
                const auto k = std::size_t(i[0] * 3 + i[1]);
                return m[k] != 0 ? iv[k] : 0.5;
            }));
        QVERIFY_RUNS_ON_RUNTIME(c, "math_masked_fill_where");
    }

    void maskedFillInPlaceOnACausalMaskBuffer()
    {
        // self.mask.masked_fill_(upper, -1e9) on a registered buffer, then scores + mask.
        Case c;
        c.dump.weight("b_mask", "mask", { 3, 3 }, std::vector<double>(9, 0.0), false);
        c.in("u", { 3, 3 }, { 0, 1, 1, 0, 0, 1, 0, 0, 0 }, kBool).in("x", { 3, 3 }, values(9, 4));
        c.dump.node("masked_fill_", "masked_fill_.Scalar",
            json::array({ arg("self", T("b_mask")), arg("mask", T("u")), arg("value", F(-1e9)) }), { 3, 3 });
        c.dump.node("add", "add.Tensor", json::array({ self(), arg("other", T("b_mask")) }), { 3, 3 });
        c.dump.output("add");
        const auto x = c.inputs[1].values;
        const Values u { 0, 1, 1, 0, 0, 1, 0, 0, 0 };
        Values want;
        for (std::size_t k = 0; k < 9; ++k)
            want.push_back(f32(x[k] + (u[k] != 0 ? -1e9 : 0.0)));
        c.expect({ 3, 3 }, want);
        QVERIFY_RUNS_ON_RUNTIME(c, "math_masked_fill_buffer");
    }

    void whereWithOneArgumentIsRefused()
    {
        Case c;
        c.in("m", { 4 }, { 1, 0, 1, 0 }, kBool);
        c.dump.listNode("w", "where.default", json::array({ arg("condition", T("m")) }), { { "idx", { 2 } } }, kLong);
        c.dump.output("idx");
        QVERIFY_ERROR(emitOnly(c, "math_where_refused"), ErrorCode::Unsupported, "w", "where(condition)", "nonzero");
    }

    void arangeOverloads()
    {
        Case c;
        c.in("x", { 2 }, { 0, 0 });
        c.op("a", "arange.default", json::array({ arg("end", I(5)) }), { 5 }, { 0, 1, 2, 3, 4 }, kLong);
        c.op("b", "arange.start", json::array({ arg("start", I(2)), arg("end", I(7)) }), { 5 }, { 2, 3, 4, 5, 6 },
            kLong);
        c.op("c", "arange.start_step", json::array({ arg("start", F(0.0)), arg("end", F(1.0)), arg("step", F(0.25)) }),
            { 4 }, { 0, 0.25, 0.5, 0.75 });
        c.op("d", "arange.default", json::array({ arg("end", I(3)), kwarg("dtype", Dtype(kFloat)) }), { 3 },
            { 0, 1, 2 });
        c.op("e", "arange.start_step", json::array({ arg("start", I(10)), arg("end", I(0)), arg("step", I(-3)) }),
            { 4 }, { 10, 7, 4, 1 }, kLong);
        QVERIFY_RUNS_ON_RUNTIME(c, "math_arange");
    }

    void arangeOfADynamicLengthForACausalMask()
    {
        // positions = arange(x.size(0)); mask = positions[None, :] <= positions[:, None] (s0 = 4 at run time).
        Case c;
        c.in("x", { 4, 2 }, values(8, 5));
        c.dump.dynamic("x", 0, "s0", 4);
        c.dump.symNode("sym_size", "sym_size.int", json::array({ self(), arg("dim", I(0)) }), "s0", 4);
        c.dump.node("arange", "arange.default", json::array({ arg("end", SymArg("sym_size")) }), { 4 }, kLong);
        c.dump.dynamic("arange", 0, "s0", 4);
        c.dump.node(
            "r", "unsqueeze.default", json::array({ arg("self", T("arange")), arg("dim", I(0)) }), { 1, 4 }, kLong);
        c.dump.dynamic("r", 1, "s0", 4);
        c.dump.node(
            "col", "unsqueeze.default", json::array({ arg("self", T("arange")), arg("dim", I(1)) }), { 4, 1 }, kLong);
        c.dump.dynamic("col", 0, "s0", 4);
        c.dump.node("mask", "le.Tensor", json::array({ arg("self", T("r")), arg("other", T("col")) }), { 4, 4 }, kBool);
        c.dump.dynamic("mask", 0, "s0", 4);
        c.dump.dynamic("mask", 1, "s0", 4);
        c.dump.output("arange");
        c.dump.output("mask");
        c.expect({ 4 }, { 0, 1, 2, 3 }, kLong);
        c.expect({ 4, 4 }, tabulate({ 4, 4 }, [](const Shape& i) { return i[1] <= i[0] ? 1.0 : 0.0; }), kBool);
        QVERIFY_RUNS_ON_RUNTIME(c, "math_arange_dynamic");
    }

    void factories()
    {
        Case c;
        c.in("x", { 2, 3 }, values(6, 6));
        c.op("a", "full.default", json::array({ arg("size", Ints({ 2, 3 })), arg("fill_value", F(1.5)) }), { 2, 3 },
            Values(6, 1.5));
        c.op("b", "ones.default", json::array({ arg("size", Ints({ 2 })), kwarg("dtype", Dtype(kLong)) }), { 2 },
            { 1, 1 }, kLong);
        c.op("z", "zeros.default", json::array({ arg("size", Ints({ 3 })) }), { 3 }, { 0, 0, 0 });
        c.op("ol", "ones_like.default", json::array({ self() }), { 2, 3 }, Values(6, 1.0));
        c.op("zl", "zeros_like.default", json::array({ self(), kwarg("dtype", Dtype(kLong)) }), { 2, 3 },
            Values(6, 0.0), kLong);
        c.op("fl", "full_like.default", json::array({ self(), arg("fill_value", I(7)) }), { 2, 3 }, Values(6, 7.0));
        c.op("no", "new_ones.default", json::array({ self(), arg("size", Ints({ 2, 2 })) }), { 2, 2 }, Values(4, 1.0));
        c.op("nz", "new_zeros.default", json::array({ self(), arg("size", Ints({ 3 })), kwarg("dtype", Dtype(kLong)) }),
            { 3 }, Values(3, 0.0), kLong);
        c.op("nf", "new_full.default", json::array({ self(), arg("size", Ints({ 2 })), arg("fill_value", F(3.5)) }),
            { 2 }, { 3.5, 3.5 });
        c.op("st", "scalar_tensor.default", json::array({ arg("s", F(2.5)) }), {}, { 2.5 });
        c.op("sl", "scalar_tensor.default", json::array({ arg("s", I(3)), kwarg("dtype", Dtype(kLong)) }), {}, { 3 },
            kLong);
        QVERIFY_RUNS_ON_RUNTIME(c, "math_factories");
    }

    void emptyFactoriesHaveTheirShapes()
    {
        // empty_like / new_empty: uninitialised values; their shapes (and that they run) are what can be checked.
        Case c;
        c.in("x", { 2, 3 }, values(6, 7));
        c.dump.node("e", "empty_like.default", json::array({ self() }), { 2, 3 });
        c.dump.node("ne", "new_empty.default", json::array({ self(), arg("size", Ints({ 4 })) }), { 4 });
        c.dump.output("e");
        c.dump.output("ne");
        c.check = [](const std::vector<RunnerValue>& out) -> std::optional<std::string> {
            if (out.size() != 2 || out[0].sizes != std::vector<std::int64_t> { 2, 3 }
                || out[1].sizes != std::vector<std::int64_t> { 4 })
                return std::string("empty_like / new_empty returned other shapes");
            return std::nullopt;
        };
        QVERIFY_RUNS_ON_RUNTIME(c, "math_empty");
    }

    void fillAndZeroInPlace()
    {
        // y = x.clone(); y.fill_(2.0); z = x.clone(); z.zero_()
        Case c;
        c.in("x", { 3 }, { 1, 2, 3 });
        c.dump.node("clone", "clone.default", json::array({ self() }), { 3 });
        c.dump.node("fill_", "fill_.Scalar", json::array({ arg("self", T("clone")), arg("value", F(2.0)) }), { 3 });
        c.dump.node("clone_1", "clone.default", json::array({ self() }), { 3 });
        c.dump.node("zero_", "zero_.default", json::array({ arg("self", T("clone_1")) }), { 3 });
        c.dump.output("fill_");
        c.dump.output("zero_");
        c.expect({ 3 }, { 2, 2, 2 }).expect({ 3 }, { 0, 0, 0 });
        QVERIFY_RUNS_ON_RUNTIME(c, "math_fill_zero");
    }

    void oneHotEyeLinspace()
    {
        Case c;
        c.in("x", { 4 }, { 0, 2, 1, 2 }, kLong);
        c.op("oh", "one_hot.default", json::array({ self(), arg("num_classes", I(3)) }), { 4, 3 },
            { 1, 0, 0, 0, 0, 1, 0, 1, 0, 0, 0, 1 }, kLong);
        c.op("e", "eye.default", json::array({ arg("n", I(3)) }), { 3, 3 }, { 1, 0, 0, 0, 1, 0, 0, 0, 1 });
        c.op("em", "eye.m", json::array({ arg("n", I(2)), arg("m", I(3)), kwarg("dtype", Dtype(kLong)) }), { 2, 3 },
            { 1, 0, 0, 0, 1, 0 }, kLong);
        // linspace(-1, 2, 7): start + step * i for the first half, end - step * (steps - 1 - i) for the rest.
        const double step = 3.0 / 6.0;
        Values lin;
        for (int i = 0; i < 7; ++i)
            lin.push_back(
                i < 3.5 ? f32(-1.0 + f32(f32(double(i)) * f32(step))) : f32(2.0 - f32(f32(double(6 - i)) * f32(step))));
        c.op("l", "linspace.default", json::array({ arg("start", I(-1)), arg("end", I(2)), arg("steps", I(7)) }), { 7 },
            lin);
        c.op("l1", "linspace.default", json::array({ arg("start", F(0.5)), arg("end", F(3.0)), arg("steps", I(1)) }),
            { 1 }, { 0.5 });
        QVERIFY_RUNS_ON_RUNTIME(c, "math_one_hot_eye_linspace");
    }

    void oneHotWithoutNumClassesIsRefused()
    {
        Case c;
        c.in("x", { 4 }, { 0, 2, 1, 2 }, kLong);
        c.dump.node("oh", "one_hot.default", json::array({ self() }), { 4, 3 }, kLong);
        c.dump.output("oh");
        QVERIFY_ERROR(emitOnly(c, "math_one_hot_refused"), ErrorCode::Unsupported, "oh", "num_classes=-1");
    }

    // ---- reductions

    void logsumexp_data()
    {
        QTest::addColumn<QString>("dims");
        QTest::addColumn<bool>("keepdim");
        QTest::newRow("last") << "2" << false;
        QTest::newRow("1,2 keepdim") << "1,2" << true;
    }

    void logsumexp()
    {
        QFETCH(QString, dims);
        QFETCH(bool, keepdim);
        std::vector<std::int64_t> d;
        for (const auto& s : dims.split(','))
            d.push_back(s.toLongLong());
        const Shape s { 2, 3, 4 };
        Case c;
        c.in("x", s, values(24, 8, 4.0));
        const auto r = reduce(c.inputs[0].values, s, d);
        json args = json::array({ self(), arg("dim", Ints(d)) });
        if (keepdim)
            args.push_back(arg("keepdim", B(true)));
        c.op("y", "logsumexp.default", args, keepdim ? r.kept : r.shape, each(r, [](const Values& g) {
            const double m = *std::max_element(g.begin(), g.end());
            double t = 0;
            for (const double e : g)
                t += std::exp(e - m);
            return std::log(t) + m;
        }));
        QVERIFY_RUNS_ON_RUNTIME(c, "math_logsumexp");
    }

    void stdAndVar()
    {
        const Shape s { 2, 3, 4 };
        Case c;
        c.in("x", s, values(24, 9, 2.0));
        const auto x = c.inputs[0].values;
        const auto all = reduce(x, s, {});
        const auto d1 = reduce(x, s, { 1 });
        const auto d02 = reduce(x, s, { 0, 2 });
        c.op("v0", "var.default", json::array({ self() }), {}, each(all, [](const Values& g) { return varOf(g, 1); }));
        c.op("v1", "var.dim", json::array({ self(), arg("dim", Ints({ 1 })), arg("unbiased", B(false)) }), d1.shape,
            each(d1, [](const Values& g) { return varOf(g, 0); }));
        c.op("v2", "var.correction",
            json::array({ self(), arg("dim", Ints({ 0, 2 })), kwarg("correction", I(2)), kwarg("keepdim", B(true)) }),
            d02.kept, each(d02, [](const Values& g) { return varOf(g, 2); }));
        c.op("s0", "std.default", json::array({ self() }), {},
            each(all, [](const Values& g) { return std::sqrt(varOf(g, 1)); }));
        c.op("s1", "std.dim",
            json::array({ self(), arg("dim", Ints({ 1 })), arg("unbiased", B(false)), arg("keepdim", B(true)) }),
            d1.kept, each(d1, [](const Values& g) { return std::sqrt(varOf(g, 0)); }));
        c.op("s2", "std.correction", json::array({ self(), kwarg("correction", I(0)) }), {},
            each(all, [](const Values& g) { return std::sqrt(varOf(g, 0)); }));
        QVERIFY_RUNS_ON_RUNTIME(c, "math_std_var");
    }

    void stdMeanAndVarMean()
    {
        const Shape s { 3, 4 };
        Case c;
        c.in("x", s, values(12, 10, 2.0));
        const auto x = c.inputs[0].values;
        const auto d1 = reduce(x, s, { 1 });
        const auto all = reduce(x, s, {});
        c.dump.tupleNode("sm", "std_mean.correction", json::array({ self(), arg("dim", Ints({ 1 })) }),
            { { "std", d1.shape }, { "mean", d1.shape } });
        c.dump.tupleNode("vm", "var_mean.default", json::array({ self(), arg("unbiased", B(false)) }),
            { { "var", {} }, { "mean2", {} } });
        c.dump.tupleNode("vd", "var_mean.dim",
            json::array({ self(), arg("dim", Ints({ 1 })), arg("keepdim", B(true)) }),
            { { "var3", d1.kept }, { "mean3", d1.kept } });
        for (const char* o : { "std", "mean", "var", "mean2", "var3", "mean3" })
            c.dump.output(o);
        c.expect(d1.shape, each(d1, [](const Values& g) { return std::sqrt(varOf(g, 1)); }));
        c.expect(d1.shape, each(d1, meanOf));
        c.expect({}, each(all, [](const Values& g) { return varOf(g, 0); }));
        c.expect({}, each(all, meanOf));
        c.expect(d1.kept, each(d1, [](const Values& g) { return varOf(g, 1); }));
        c.expect(d1.kept, each(d1, meanOf));
        QVERIFY_RUNS_ON_RUNTIME(c, "math_std_mean");
    }

    void moreReductionOverloads()
    {
        // std_mean() / std_mean(dim, unbiased), clamp_max with a tensor bound.
        const Shape s { 3, 4 };
        Case c;
        c.in("x", s, values(12, 43, 2.0)).in("hi", { 4 }, { 0, 0.5, -1, 2 });
        const auto x = c.inputs[0].values;
        const auto d0 = reduce(x, s, { 0 });
        const auto all = reduce(x, s, {});
        c.dump.tupleNode("sa", "std_mean.default", json::array({ self() }), { { "sa0", {} }, { "sa1", {} } });
        c.dump.tupleNode("sd", "std_mean.dim",
            json::array({ self(), arg("dim", Ints({ 0 })), arg("unbiased", B(false)), arg("keepdim", B(true)) }),
            { { "sd0", d0.kept }, { "sd1", d0.kept } });
        for (const char* o : { "sa0", "sa1", "sd0", "sd1" })
            c.dump.output(o);
        c.expect({}, each(all, [](const Values& g) { return std::sqrt(varOf(g, 1)); })).expect({}, each(all, meanOf));
        c.expect(d0.kept, each(d0, [](const Values& g) { return std::sqrt(varOf(g, 0)); }));
        c.expect(d0.kept, each(d0, meanOf));
        const Values hi { 0, 0.5, -1, 2 };
        c.op("cm", "clamp_max.Tensor", json::array({ self(), arg("max", T("hi")) }), s,
            tabulate(s, [&](const Shape& i) { return std::min(x[rowMajorOffset(s, i)], hi[std::size_t(i[1])]); }));
        QVERIFY_RUNS_ON_RUNTIME(c, "math_more_reductions");
    }

    void sumAndMeanWithDtypeAndEmptyDims()
    {
        const Shape s { 2, 3 };
        Case c;
        c.in("x", s, values(6, 11)).in("i", s, { 1, 2, 3, 4, 5, 6 }, kLong);
        const auto x = c.inputs[0].values;
        const auto d1 = reduce(x, s, { 1 });
        c.op("a", "sum.dim_IntList",
            json::array({ arg("self", T("i")), arg("dim", Ints({ 0 })), kwarg("dtype", Dtype(kFloat)) }), { 3 },
            { 5, 7, 9 });
        c.op("b", "sum.default", json::array({ arg("self", T("i")) }), {}, { 21 }, kLong);
        c.op("e", "sum.dim_IntList", json::array({ self(), arg("dim", Ints({})) }), {}, { sumOf(x) });
        c.op("m", "mean.dim", json::array({ self(), arg("dim", Ints({ 1 })), kwarg("dtype", Dtype(kDouble)) }), { 2 },
            each(d1, meanOf), kDouble);
        c.op("me", "mean.dim", json::array({ self(), arg("dim", Ints({})), arg("keepdim", B(true)) }), { 1, 1 },
            { meanOf(x) });
        c.op("md", "mean.default", json::array({ self() }), {}, { meanOf(x) });
        QVERIFY_RUNS_ON_RUNTIME(c, "math_sum_mean");
    }

    void cumsumAndCumprod()
    {
        // cumprod with zeros and negatives (exact, not exp(cumsum(log))), along a length that is no power of two.
        const Shape s { 2, 7 };
        Case c;
        c.in("x", s, { 1.5, -2, 0.5, 0, 3, -1, 2, -0.5, 1.25, -2, 1.5, 0.75, -1, 2 });
        c.in("i", { 5 }, { 2, -3, 1, 4, -1 }, kLong);
        const auto x = c.inputs[0].values;
        auto scan = [&](bool product) {
            return tabulate(s, [&](const Shape& i) {
                double acc = product ? 1 : 0;
                for (std::int64_t k = 0; k <= i[1]; ++k)
                    acc = product ? acc * x[std::size_t(i[0] * 7 + k)] : acc + x[std::size_t(i[0] * 7 + k)];
                return acc;
            });
        };
        c.op("cs", "cumsum.default", json::array({ self(), arg("dim", I(1)) }), s, scan(false));
        c.op("cp", "cumprod.default", json::array({ self(), arg("dim", I(-1)) }), s, scan(true));
        c.op("ci", "cumprod.default", json::array({ arg("self", T("i")), arg("dim", I(0)) }), { 5 },
            { 2, -6, -6, -24, 24 }, kLong);
        c.op("cf", "cumprod.default",
            json::array({ arg("self", T("i")), arg("dim", I(0)), kwarg("dtype", Dtype(kFloat)) }), { 5 },
            { 2, -6, -6, -24, 24 });
        c.op("csi", "cumsum.default", json::array({ arg("self", T("i")), arg("dim", I(0)) }), { 5 }, { 2, -1, 0, 4, 3 },
            kLong);
        QVERIFY_RUNS_ON_RUNTIME(c, "math_cumsum_cumprod");
    }

    void clampFamily()
    {
        Case c;
        c.in("x", { 6 }, { -2, -0.5, 0, 0.25, 1, 3 }).in("lo", { 6 }, { 0, 0, -1, 1, 0, 0 });
        c.in("hi", { 6 }, { 1, 1, 1, 2, 0.5, 2 }).in("i", { 4 }, { -3, 0, 2, 5 }, kLong);
        const Values x { -2, -0.5, 0, 0.25, 1, 3 };
        const Values lo { 0, 0, -1, 1, 0, 0 };
        const Values hi { 1, 1, 1, 2, 0.5, 2 };
        c.op("a", "clamp_min.default", json::array({ self(), arg("min", F(0.1)) }), { 6 },
            map(x, [](double v) { return std::max(v, f32(0.1)); }));
        c.op("b", "clamp_max.default", json::array({ self(), arg("max", F(-0.1)) }), { 6 },
            map(x, [](double v) { return std::min(v, f32(-0.1)); }));
        Values cm;
        Values ct;
        for (std::size_t k = 0; k < 6; ++k) {
            cm.push_back(std::max(x[k], lo[k]));
            ct.push_back(std::min(std::max(x[k], lo[k]), hi[k]));
        }
        c.op("c", "clamp_min.Tensor", json::array({ self(), arg("min", T("lo")) }), { 6 }, cm);
        c.op("d", "clamp.Tensor", json::array({ self(), arg("min", T("lo")), arg("max", T("hi")) }), { 6 }, ct);
        c.op("e", "clamp.default", json::array({ arg("self", T("i")), arg("min", I(-1)), arg("max", I(3)) }), { 4 },
            { -1, 0, 2, 3 }, kLong);
        QVERIFY_RUNS_ON_RUNTIME(c, "math_clamp");
    }

    void cosineSimilarity()
    {
        // Rows of [4, 8] against rows of [4, 8] (dim 1), one of them zero (the eps clamp), and a broadcast [1, 8].
        Case c;
        auto a = values(32, 12);
        for (std::size_t k = 8; k < 16; ++k)
            a[k] = 0;
        c.in("x", { 4, 8 }, a).in("y", { 4, 8 }, values(32, 13)).in("z", { 1, 8 }, values(8, 14));
        const auto x = c.inputs[0].values;
        const auto y = c.inputs[1].values;
        const auto z = c.inputs[2].values;
        auto cosine = [](const double* p, const double* q, double eps) {
            double pp = 0, qq = 0, pq = 0;
            for (int k = 0; k < 8; ++k) {
                pp += p[k] * p[k];
                qq += q[k] * q[k];
            }
            const double np = std::max(std::sqrt(pp), eps);
            const double nq = std::max(std::sqrt(qq), eps);
            for (int k = 0; k < 8; ++k)
                pq += (p[k] / np) * (q[k] / nq);
            return pq;
        };
        Values w1, w2;
        for (int r = 0; r < 4; ++r) {
            w1.push_back(cosine(&x[std::size_t(8 * r)], &y[std::size_t(8 * r)], 1e-8));
            w2.push_back(cosine(&y[std::size_t(8 * r)], &z[0], 1e-3));
        }
        c.op("c", "cosine_similarity.default", json::array({ arg("x1", T("x")), arg("x2", T("y")) }), { 4 }, w1);
        c.op("d", "cosine_similarity.default",
            json::array({ arg("x1", T("y")), arg("x2", T("z")), arg("dim", I(-1)), arg("eps", F(1e-3)) }), { 4 }, w2);
        QVERIFY_RUNS_ON_RUNTIME(c, "math_cosine_similarity");
    }

    void pairwiseDistance()
    {
        Case c;
        c.in("x", { 3, 5 }, values(15, 15)).in("y", { 3, 5 }, values(15, 16));
        const auto x = c.inputs[0].values;
        const auto y = c.inputs[1].values;
        Values p2, p1;
        for (int r = 0; r < 3; ++r) {
            double s2 = 0, s1 = 0;
            for (int k = 0; k < 5; ++k) {
                const double dd = x[std::size_t(5 * r + k)] - y[std::size_t(5 * r + k)] + 1e-6;
                s2 += dd * dd;
                s1 += std::fabs(dd);
            }
            p2.push_back(std::sqrt(s2));
            p1.push_back(s1);
        }
        c.op("a", "pairwise_distance.default", json::array({ arg("x1", T("x")), arg("x2", T("y")) }), { 3 }, p2);
        c.op("b", "pairwise_distance.default",
            json::array({ arg("x1", T("x")), arg("x2", T("y")), arg("p", F(1.0)), arg("keepdim", B(true)) }), { 3, 1 },
            p1);
        QVERIFY_RUNS_ON_RUNTIME(c, "math_pairwise_distance");
    }

    void cdist_data()
    {
        QTest::addColumn<int>("rows");
        QTest::addColumn<double>("p");
        QTest::addColumn<int>("mode");
        QTest::addColumn<int>("batch");
        QTest::newRow("few rows, p=2: _cdist_forward") << 5 << 2.0 << -1 << 0;
        QTest::newRow("p=1: _cdist_forward") << 30 << 1.0 << -1 << 0;
        QTest::newRow("30 rows, p=2: euclidean") << 30 << 2.0 << -1 << 0;
        QTest::newRow("mode 1: euclidean") << 5 << 2.0 << 1 << 0;
        QTest::newRow("mode 2: _cdist_forward") << 30 << 2.0 << 2 << 0;
        QTest::newRow("batched, euclidean") << 30 << 2.0 << -1 << 2;
    }

    void cdist()
    {
        QFETCH(int, rows);
        QFETCH(double, p);
        QFETCH(int, mode);
        QFETCH(int, batch);
        const std::int64_t b = batch == 0 ? 1 : batch;
        const Shape xs = batch ? Shape { b, rows, 4 } : Shape { rows, 4 };
        const Shape ys = batch ? Shape { 1, 3, 4 } : Shape { 3, 4 };
        const Shape os = batch ? Shape { b, rows, 3 } : Shape { rows, 3 };
        Case c;
        // The mm form (|x|^2 + |y|^2 - 2 x.y) rounds differently from the direct sum in float32.
        c.rtol = 1e-4;
        c.in("x", xs, values(numel(xs), 17)).in("y", ys, values(numel(ys), 18));
        const auto x = c.inputs[0].values;
        const auto y = c.inputs[1].values;
        json args = json::array({ arg("x1", T("x")), arg("x2", T("y")) });
        if (p != 2.0)
            args.push_back(arg("p", F(p)));
        if (mode >= 0)
            args.push_back(arg("compute_mode", I(mode)));
        c.op("d", "cdist.default", args, os, tabulate(os, [&](const Shape& i) {
            const std::size_t bi = batch ? std::size_t(i[0]) : 0;
            const std::size_t r = std::size_t(i[i.size() - 2]);
            const std::size_t q = std::size_t(i.back());
            double acc = 0;
            for (std::size_t k = 0; k < 4; ++k)
                acc += std::pow(std::fabs(x[(bi * std::size_t(rows) + r) * 4 + k] - y[q * 4 + k]), p);
            return std::pow(acc, 1.0 / p);
        }));
        QVERIFY_RUNS_ON_RUNTIME(c, "math_cdist");
    }

    // ---- pointwise and linear algebra

    void addcmulAndAddcdiv()
    {
        Case c;
        c.in("x", { 4 }, values(4, 19)).in("a", { 4 }, values(4, 20)).in("b", { 4 }, { 0.5, -2, 4, 1.25 });
        const auto x = c.inputs[0].values;
        const auto a = c.inputs[1].values;
        const auto b = c.inputs[2].values;
        Values m, dv;
        for (std::size_t k = 0; k < 4; ++k) {
            m.push_back(f32(x[k] + f32(f32(0.5 * a[k]) * b[k])));
            dv.push_back(f32(x[k] + f32(a[k] / b[k])));
        }
        c.op("m", "addcmul.default",
            json::array({ self(), arg("tensor1", T("a")), arg("tensor2", T("b")), kwarg("value", F(0.5)) }), { 4 }, m);
        c.op(
            "d", "addcdiv.default", json::array({ self(), arg("tensor1", T("a")), arg("tensor2", T("b")) }), { 4 }, dv);
        QVERIFY_RUNS_ON_RUNTIME(c, "math_addcmul");
    }

    void blasFamily()
    {
        Case c;
        c.in("M", { 3, 4 }, values(12, 21)).in("v", { 4 }, values(4, 22)).in("b", { 3 }, values(3, 23));
        c.in("u", { 3 }, values(3, 24)).in("N", { 4, 2 }, values(8, 25)).in("C", { 3, 2 }, values(6, 26));
        c.in("S", { 3, 4 }, values(12, 27));
        const auto M = c.inputs[0].values;
        const auto v = c.inputs[1].values;
        const auto b = c.inputs[2].values;
        const auto u = c.inputs[3].values;
        const auto N = c.inputs[4].values;
        const auto C = c.inputs[5].values;
        const auto S = c.inputs[6].values;
        Values mv, addmv;
        for (std::size_t r = 0; r < 3; ++r) {
            double s = 0;
            for (std::size_t k = 0; k < 4; ++k)
                s += M[r * 4 + k] * v[k];
            mv.push_back(s);
            addmv.push_back(0.5 * b[r] + 2 * s);
        }
        double dot = 0;
        for (std::size_t k = 0; k < 4; ++k)
            dot += v[k] * v[k];
        const auto outer =
            tabulate({ 3, 4 }, [&](const Shape& i) { return u[std::size_t(i[0])] * v[std::size_t(i[1])]; });
        const auto addr = tabulate({ 3, 4 }, [&](const Shape& i) {
            const auto k = std::size_t(i[0] * 4 + i[1]);
            return S[k] + 3 * u[std::size_t(i[0])] * v[std::size_t(i[1])];
        });
        const auto addmm = tabulate({ 3, 2 }, [&](const Shape& i) {
            double s = 0;
            for (std::size_t k = 0; k < 4; ++k)
                s += M[std::size_t(i[0]) * 4 + k] * N[k * 2 + std::size_t(i[1])];
            return 0.5 * C[std::size_t(i[0] * 2 + i[1])] + 2 * s;
        });
        c.op("mv", "mv.default", json::array({ arg("self", T("M")), arg("vec", T("v")) }), { 3 }, mv);
        c.op("amv", "addmv.default",
            json::array({ arg("self", T("b")), arg("mat", T("M")), arg("vec", T("v")), kwarg("beta", F(0.5)),
                kwarg("alpha", I(2)) }),
            { 3 }, addmv);
        c.op("dot", "dot.default", json::array({ arg("self", T("v")), arg("tensor", T("v")) }), {}, { dot });
        c.op("vdot", "vdot.default", json::array({ arg("self", T("v")), arg("other", T("v")) }), {}, { dot });
        c.op("out", "outer.default", json::array({ arg("self", T("u")), arg("vec2", T("v")) }), { 3, 4 }, outer);
        c.op("ger", "ger.default", json::array({ arg("self", T("u")), arg("vec2", T("v")) }), { 3, 4 }, outer);
        c.op("addr", "addr.default",
            json::array({ arg("self", T("S")), arg("vec1", T("u")), arg("vec2", T("v")), kwarg("alpha", I(3)) }),
            { 3, 4 }, addr);
        c.op("addmm", "addmm.default",
            json::array({ arg("self", T("C")), arg("mat1", T("M")), arg("mat2", T("N")), kwarg("beta", F(0.5)),
                kwarg("alpha", I(2)) }),
            { 3, 2 }, addmm);
        QVERIFY_RUNS_ON_RUNTIME(c, "math_blas");
    }

    void lerpLogaddexpXlogy()
    {
        Case c;
        c.in("a", { 5 }, { -1, 0, 0.5, 2, 3 })
            .in("b", { 5 }, { 1, 4, -0.5, 2, 0 })
            .in("w", { 5 }, { 0, 0.3, 0.5, 0.9, 1 });
        c.in("z", { 4 }, { 0, 1.5, 0, 2 }).in("q", { 4 }, { 0, 2, 3, 0.5 });
        const Values a { -1, 0, 0.5, 2, 3 };
        const Values b { 1, 4, -0.5, 2, 0 };
        const Values w { 0, 0.3, 0.5, 0.9, 1 };
        auto lerp = [](double s, double e, double wt) { return wt < 0.5 ? s + wt * (e - s) : e - (e - s) * (1 - wt); };
        Values ls, lt, la;
        for (std::size_t k = 0; k < 5; ++k) {
            ls.push_back(lerp(a[k], b[k], 0.25));
            lt.push_back(lerp(a[k], b[k], w[k]));
            la.push_back(std::log(std::exp(a[k]) + std::exp(b[k])));
        }
        c.op("ls", "lerp.Scalar", json::array({ arg("self", T("a")), arg("end", T("b")), arg("weight", F(0.25)) }),
            { 5 }, ls);
        c.op("lt", "lerp.Tensor", json::array({ arg("self", T("a")), arg("end", T("b")), arg("weight", T("w")) }),
            { 5 }, lt);
        c.op("la", "logaddexp.default", json::array({ arg("self", T("a")), arg("other", T("b")) }), { 5 }, la);
        const Values z { 0, 1.5, 0, 2 };
        const Values q { 0, 2, 3, 0.5 };
        Values xl, xs, xo;
        for (std::size_t k = 0; k < 4; ++k) {
            xl.push_back(z[k] == 0 ? 0.0 : z[k] * std::log(q[k]));
            xs.push_back(3 * std::log(q[k]));
            xo.push_back(z[k] == 0 ? 0.0 : z[k] * std::log(2.0));
        }
        c.op("xl", "xlogy.Tensor", json::array({ arg("self", T("z")), arg("other", T("q")) }), { 4 }, xl);
        c.op("xs", "xlogy.Scalar_Self", json::array({ arg("self", I(3)), arg("other", T("q")) }), { 4 }, xs);
        c.op("xo", "xlogy.Scalar_Other", json::array({ arg("self", T("z")), arg("other", F(2.0)) }), { 4 }, xo);
        QVERIFY_RUNS_ON_RUNTIME(c, "math_lerp_logaddexp_xlogy");
    }

    void smallPointwiseComposites()
    {
        Case c;
        const Values x { -2.5, -1.25, 0, 0.75, 3.5 };
        c.in("x", { 5 }, x).in("y", { 5 }, { 2, -0.5, 1, 4, -3 }).in("i", { 5 }, { -7, -1, 0, 5, 9 }, kLong);
        const Values y { 2, -0.5, 1, 4, -3 };
        const Values iv { -7, -1, 0, 5, 9 };
        Values rs, fd, td, ts;
        for (std::size_t k = 0; k < 5; ++k) {
            rs.push_back(y[k] - 2 * x[k]);
            fd.push_back(std::floor(x[k] / 2));
            td.push_back(x[k] / y[k]);
            ts.push_back(x[k] / 4);
        }
        auto sign = [](double v) { return double((v > 0) - (v < 0)); };
        c.op("sq", "square.default", json::array({ self() }), { 5 }, map(x, [](double v) { return v * v; }));
        c.op("rs", "rsub.Tensor", json::array({ self(), arg("other", T("y")), kwarg("alpha", I(2)) }), { 5 }, rs);
        c.op("rsc", "rsub.Scalar", json::array({ self(), arg("other", F(1.0)) }), { 5 },
            map(x, [](double v) { return 1 - v; }));
        c.op("fd", "floor_divide.Scalar", json::array({ self(), arg("other", F(2.0)) }), { 5 }, fd);
        c.op("fdi", "floor_divide.Scalar", json::array({ arg("self", T("i")), arg("other", I(3)) }), { 5 },
            map(iv, [](double v) { return std::floor(v / 3); }), kLong);
        c.op("fdt", "floor_divide.default", json::array({ self(), arg("other", T("y")) }), { 5 },
            tabulate({ 5 }, [&](const Shape& i) { return std::floor(x[std::size_t(i[0])] / y[std::size_t(i[0])]); }));
        c.op("td", "true_divide.Tensor", json::array({ self(), arg("other", T("y")) }), { 5 }, td);
        c.op("ts", "true_divide.Scalar", json::array({ self(), arg("other", I(4)) }), { 5 }, ts);
        c.op("sg", "sign.default", json::array({ self() }), { 5 }, map(x, sign));
        c.op("sgn", "sgn.default", json::array({ self() }), { 5 }, map(x, sign));
        c.op("fr", "frac.default", json::array({ self() }), { 5 }, map(x, [](double v) { return v - std::trunc(v); }));
        c.op("dr", "deg2rad.default", json::array({ self() }), { 5 },
            map(x, [](double v) { return f32(v) * f32(M_PI / 180.0); }));
        c.op("rd", "rad2deg.default", json::array({ self() }), { 5 },
            map(x, [](double v) { return f32(v) * f32(180.0 / M_PI); }));
        QVERIFY_RUNS_ON_RUNTIME(c, "math_pointwise");
    }

    void nanToNum()
    {
        const double nan = std::numeric_limits<double>::quiet_NaN();
        const double inf = std::numeric_limits<double>::infinity();
        const double big = std::numeric_limits<float>::max();
        Case c;
        c.in("x", { 5 }, { nan, -inf, 1.5, inf, -2 });
        c.op("a", "nan_to_num.default", json::array({ self() }), { 5 }, { 0, -big, 1.5, big, -2 });
        c.op("b", "nan_to_num.default",
            json::array({ self(), arg("nan", F(0.5)), arg("posinf", F(100.0)), arg("neginf", F(-100.0)) }), { 5 },
            { 0.5, -100, 1.5, 100, -2 });
        QVERIFY_RUNS_ON_RUNTIME(c, "math_nan_to_num");
    }

    void allAndAny()
    {
        const Shape s { 2, 3 };
        Case c;
        c.in("x", s, { 1, 1, 0, 1, 1, 1 }, kBool);
        c.op("a", "all.default", json::array({ self() }), {}, { 0 }, kBool);
        c.op("b", "all.dim", json::array({ self(), arg("dim", I(1)), arg("keepdim", B(true)) }), { 2, 1 }, { 0, 1 },
            kBool);
        c.op("d", "all.dims", json::array({ self(), arg("dim", Ints({ 0 })) }), { 3 }, { 1, 1, 0 }, kBool);
        c.op("e", "any.dim", json::array({ self(), arg("dim", I(0)) }), { 3 }, { 1, 1, 1 }, kBool);
        QVERIFY_RUNS_ON_RUNTIME(c, "math_all_any");
    }

    void minMaxFamilyAndProd()
    {
        const Shape s { 2, 3, 2 };
        Case c;
        c.in("x", s, { 3, -1, 2, 5, -4, 0.5, 1, 7, -2, 2.5, 6, -3 });
        const auto x = c.inputs[0].values;
        const auto d1 = reduce(x, s, { 1 });
        const auto d02 = reduce(x, s, { 0, 2 });
        const auto d0 = reduce(x, s, { 0 });
        const auto all = reduce(x, s, {});
        auto mx = [](const Values& g) { return *std::max_element(g.begin(), g.end()); };
        auto mn = [](const Values& g) { return *std::min_element(g.begin(), g.end()); };
        auto amx = [](const Values& g) { return double(std::max_element(g.begin(), g.end()) - g.begin()); };
        auto amn = [](const Values& g) { return double(std::min_element(g.begin(), g.end()) - g.begin()); };
        auto prod = [](const Values& g) { return std::accumulate(g.begin(), g.end(), 1.0, std::multiplies<>()); };
        c.op("a", "amax.default", json::array({ self(), arg("dim", Ints({ 1 })) }), d1.shape, each(d1, mx));
        c.op("b", "amin.default", json::array({ self(), arg("dim", Ints({ 0, 2 })), arg("keepdim", B(true)) }),
            d02.kept, each(d02, mn));
        c.dump.tupleNode("mx", "max.dim", json::array({ self(), arg("dim", I(1)) }),
            { { "mxv", d1.shape }, { "mxi", d1.shape } }, kFloat, { kFloat, kLong });
        c.dump.output("mxv");
        c.dump.output("mxi");
        c.expect(d1.shape, each(d1, mx)).expect(d1.shape, each(d1, amx), kLong);
        c.dump.tupleNode("mn", "min.dim", json::array({ self(), arg("dim", I(0)), arg("keepdim", B(true)) }),
            { { "mnv", d0.kept }, { "mni", d0.kept } }, kFloat, { kFloat, kLong });
        c.dump.output("mnv");
        c.dump.output("mni");
        c.expect(d0.kept, each(d0, mn)).expect(d0.kept, each(d0, amn), kLong);
        c.op("am", "argmax.default", json::array({ self(), arg("dim", I(1)) }), d1.shape, each(d1, amx), kLong);
        c.op("an", "argmin.default", json::array({ self() }), {}, each(all, amn), kLong);
        c.op("p", "prod.default", json::array({ self() }), {}, each(all, prod));
        c.op("pd", "prod.dim_int", json::array({ self(), arg("dim", I(1)) }), d1.shape, each(d1, prod));
        QVERIFY_RUNS_ON_RUNTIME(c, "math_min_max");
    }

    void sortArgsortTopk()
    {
        // Distinct values: the order of equal elements is unspecified in torch's (unstable) sort.
        const Shape s { 2, 4 };
        Case c;
        c.in("x", s, { 3, -1, 2, 0.5, -4, 7, 1, 6 });
        const auto x = c.inputs[0].values;
        auto sorted = [&](bool desc, bool idx) {
            Values out;
            for (std::size_t r = 0; r < 2; ++r) {
                std::vector<std::size_t> o { 0, 1, 2, 3 };
                std::sort(o.begin(), o.end(), [&](std::size_t a, std::size_t b) {
                    return desc ? x[r * 4 + a] > x[r * 4 + b] : x[r * 4 + a] < x[r * 4 + b];
                });
                for (const auto k : o)
                    out.push_back(idx ? double(k) : x[r * 4 + k]);
            }
            return out;
        };
        c.dump.tupleNode(
            "srt", "sort.default", json::array({ self() }), { { "sv", s }, { "si", s } }, kFloat, { kFloat, kLong });
        c.dump.tupleNode("srd", "sort.stable",
            json::array({ self(), kwarg("stable", B(false)), kwarg("dim", I(1)), kwarg("descending", B(true)) }),
            { { "dv", s }, { "di", s } }, kFloat, { kFloat, kLong });
        for (const char* o : { "sv", "si", "dv", "di" })
            c.dump.output(o);
        c.expect(s, sorted(false, false)).expect(s, sorted(false, true), kLong);
        c.expect(s, sorted(true, false)).expect(s, sorted(true, true), kLong);
        c.op(
            "as", "argsort.default", json::array({ self(), arg("descending", B(true)) }), s, sorted(true, true), kLong);
        c.dump.tupleNode("tk", "topk.default", json::array({ self(), arg("k", I(2)) }),
            { { "tv", { 2, 2 } }, { "ti", { 2, 2 } } }, kFloat, { kFloat, kLong });
        c.dump.output("tv");
        c.dump.output("ti");
        const auto d = sorted(true, false);
        const auto di = sorted(true, true);
        c.expect({ 2, 2 }, { d[0], d[1], d[4], d[5] }).expect({ 2, 2 }, { di[0], di[1], di[4], di[5] }, kLong);
        QVERIFY_RUNS_ON_RUNTIME(c, "math_sort");
    }

    void stableSort()
    {
        // torch.sort(stable=True): equal elements keep their order, NaN sorts as the largest value (last ascending,
        // first descending). The expected order is std::stable_sort's under that comparison.
        const double nan = std::numeric_limits<double>::quiet_NaN();
        const Shape s { 3, 5 };
        Case c;
        c.in("x", s, { 2, 1, 2, nan, 1, 0, 0, 0, -1, 0, nan, 3, nan, 3, -2 });
        const auto x = c.inputs[0].values;
        auto before = [](double a, double b, bool desc) {
            if (std::isnan(a) || std::isnan(b))
                return desc ? std::isnan(a) && !std::isnan(b) : !std::isnan(a) && std::isnan(b);
            return desc ? a > b : a < b;
        };
        // Along dim 1 (rows of 5), or along dim 0 (columns of 3).
        auto sorted = [&](bool desc, bool idx, int dim) {
            Values out(x.size());
            const std::size_t lines = dim == 1 ? 3 : 5, n = dim == 1 ? 5 : 3;
            auto at = [&](std::size_t line, std::size_t k) { return dim == 1 ? line * 5 + k : k * 5 + line; };
            for (std::size_t line = 0; line < lines; ++line) {
                std::vector<std::size_t> o(n);
                std::iota(o.begin(), o.end(), std::size_t(0));
                std::stable_sort(o.begin(), o.end(),
                    [&](std::size_t a, std::size_t b) { return before(x[at(line, a)], x[at(line, b)], desc); });
                for (std::size_t k = 0; k < n; ++k)
                    out[at(line, k)] = idx ? double(o[k]) : x[at(line, o[k])];
            }
            return out;
        };
        c.dump.tupleNode("asc", "sort.stable", json::array({ self(), kwarg("stable", B(true)) }),
            { { "av", s }, { "ai", s } }, kFloat, { kFloat, kLong });
        c.dump.tupleNode("desc", "sort.stable",
            json::array({ self(), kwarg("stable", B(true)), kwarg("dim", I(0)), kwarg("descending", B(true)) }),
            { { "dv", s }, { "di", s } }, kFloat, { kFloat, kLong });
        for (const char* o : { "av", "ai", "dv", "di" })
            c.dump.output(o);
        c.expect(s, sorted(false, false, 1)).expect(s, sorted(false, true, 1), kLong);
        c.expect(s, sorted(true, false, 0)).expect(s, sorted(true, true, 0), kLong);
        c.op("as", "argsort.stable", json::array({ self(), kwarg("stable", B(true)), kwarg("descending", B(true)) }), s,
            sorted(true, true, 1), kLong);
        QVERIFY_RUNS_ON_RUNTIME(c, "math_stable_sort");
    }

    void reductionsOfDynamicScores()
    {
        // Attention-like scores x [s0, 4] (s0 = 3 at run time): logsumexp over keys, a padding mask applied with
        // where, cosine similarity of rows, a cumulative product and a standard deviation per row.
        const Shape s { 3, 4 };
        Case c;
        c.in("x", s, values(12, 40, 2.0))
            .in("y", s, values(12, 41))
            .in("m", s, { 1, 1, 0, 1, 0, 1, 1, 1, 1, 0, 0, 1 }, kBool);
        for (const char* n : { "x", "y", "m" })
            c.dump.dynamic(n, 0, "s0", 3);
        const auto x = c.inputs[0].values;
        const auto y = c.inputs[1].values;
        const auto m = c.inputs[2].values;
        const auto rows = reduce(x, s, { 1 });
        auto dyn = [&](const std::string& name) { c.dump.dynamic(name, 0, "s0", 3); };
        c.op("lse", "logsumexp.default", json::array({ self(), arg("dim", Ints({ -1 })) }), { 3 },
            each(rows, [](const Values& g) {
                const double mx = *std::max_element(g.begin(), g.end());
                double t = 0;
                for (const double e : g)
                    t += std::exp(e - mx);
                return std::log(t) + mx;
            }));
        dyn("lse");
        c.op("w", "where.ScalarOther", json::array({ arg("condition", T("m")), self(), arg("other", F(-1e9)) }), s,
            tabulate(s, [&](const Shape& i) {
                const auto k = rowMajorOffset(s, i);
                return m[k] != 0 ? x[k] : -1e9;
            }));
        dyn("w");
        Values cs;
        for (std::size_t r = 0; r < 3; ++r) {
            double xx = 0, yy = 0, xy = 0;
            for (std::size_t k = 0; k < 4; ++k) {
                xx += x[r * 4 + k] * x[r * 4 + k];
                yy += y[r * 4 + k] * y[r * 4 + k];
            }
            for (std::size_t k = 0; k < 4; ++k)
                xy += (x[r * 4 + k] / std::sqrt(xx)) * (y[r * 4 + k] / std::sqrt(yy));
            cs.push_back(xy);
        }
        c.op("cs", "cosine_similarity.default",
            json::array({ arg("x1", T("x")), arg("x2", T("y")), arg("dim", I(-1)) }), { 3 }, cs);
        dyn("cs");
        c.op("cp", "cumprod.default", json::array({ self(), arg("dim", I(1)) }), s, tabulate(s, [&](const Shape& i) {
            double p = 1;
            for (std::int64_t k = 0; k <= i[1]; ++k)
                p *= x[std::size_t(i[0] * 4 + k)];
            return p;
        }));
        dyn("cp");
        c.op("sd", "std.correction", json::array({ self(), arg("dim", Ints({ 1 })) }), { 3 },
            each(rows, [](const Values& g) { return std::sqrt(varOf(g, 1)); }));
        dyn("sd");
        QVERIFY_RUNS_ON_RUNTIME(c, "math_dynamic_scores");
    }

    void cumprodAlongADynamicDimensionIsRefused()
    {
        Case c;
        c.in("x", { 4 }, values(4, 42));
        c.dump.dynamic("x", 0, "s0", 4);
        c.dump.node("cp", "cumprod.default", json::array({ self(), arg("dim", I(0)) }), { 4 });
        c.dump.dynamic("cp", 0, "s0", 4);
        c.dump.output("cp");
        QVERIFY_ERROR(
            emitOnly(c, "math_cumprod_refused"), ErrorCode::Unsupported, "cp", "cumprod along a dynamic dimension");
    }

    void countNonzero()
    {
        Case c;
        c.in("x", { 2, 3 }, { 0, 1.5, 0, -2, 0, 3 });
        c.op("a", "count_nonzero.default", json::array({ self() }), {}, { 3 }, kLong);
        c.op(
            "b", "count_nonzero.dim_IntList", json::array({ self(), arg("dim", Ints({ 1 })) }), { 2 }, { 1, 2 }, kLong);
        c.op("d", "count_nonzero.default", json::array({ self(), arg("dim", I(0)) }), { 3 }, { 1, 1, 1 }, kLong);
        QVERIFY_RUNS_ON_RUNTIME(c, "math_count_nonzero");
    }
};

QTEST_GUILESS_MAIN(TestLoweringMath)
#include "tst_lowering_math.moc"
