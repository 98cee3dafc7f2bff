// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// The lowering of torch.export composites (core/src/emit/lowering.cpp, decompose()) checked by execution: each test
// builds a tiny exported-program dump the way torch.export writes the op (aten schema argument names, arguments at
// their default omitted), emits it, writes and reads the .pte back, runs it on the reference runtime of the tests
// and compares with values computed here from the op's PyTorch definition (rounded to float at each op's output).
#include "dumpbuilder.h"
#include "errorcheck.h"
#include "executiontestutils.h"
#include "pte/dumpreader.h"
#include "pte/emitter.h"
#include "pte/ptereader.h"
#include "pte/referenceinterpreter.h"
#include "testutils.h"

#include <QTest>

#include <cmath>
#include <cstring>
#include <functional>
#include <limits>
#include <nlohmann/json.hpp>
#include <set>

using namespace pte;
using nlohmann::json;
using pte::test::emitAndReload;
using pte::test::Emitted;
using pte::test::showValues;
using pte::test::tensorArgJson;
using pte::test::tensorMetaJson;
using namespace pte::test;

namespace {

/** Compares one output: sizes, dtype and values. */
#define COMPARE_OUTPUT(out, dt, shape, expected)                                                                       \
    do {                                                                                                               \
        QCOMPARE((out).sizes, (std::vector<std::int64_t> shape));                                                      \
        QCOMPARE(int((out).dtype), int(dt));                                                                           \
        COMPARE_VALUES((out).values, expected);                                                                        \
    } while (false)

/** An emitted program, its runtime (which keeps planned memory across calls) and the outputs of one call. */
struct Ran
{
    Emitted emitted;
    std::unique_ptr<ReferenceInterpreter> rt;
    std::vector<HostTensor> out;
};

/** Emits `d`, runs it once. Every operator must be a kernel of ExecuTorch's portable library, except `notPortable`. */
Result<Ran> emitRun(const Dump& d, const std::string& label, const std::vector<HostTensor>& inputs,
    const EmitOptions& options = {}, const std::set<std::string>& notPortable = {})
{
    PTE_TRY(auto ep, d.build(label));
    PTE_TRY(auto e, emitAndReload({ { "forward", ep } }, label, options));
    for (const auto& [op, portable] : e.output.methods.at("forward").kernelCoverage)
        if (!portable && !notPortable.count(op))
            return fail(ErrorCode::Unsupported, label + ": " + op + " is not a portable kernel");
    PTE_TRY(auto rt, ReferenceInterpreter::load(*e.file->program, "forward"));
    PTE_TRY(auto out, rt->run(inputs));
    return Ran { std::move(e), std::move(rt), std::move(out) };
}

/** The names of the operators the emitted `forward` calls, in operator-table order. */
std::vector<std::string> operatorsOf(const Ran& r)
{
    std::vector<std::string> names;
    for (const auto& op : r.emitted.file->program->method("forward")->operators)
        names.push_back(op.qualifiedName());
    return names;
}

/** C = A @ B for A [batchA, n, k] and B [batchB, k, m] (a batch of 1 broadcasts), float-rounded. */
std::vector<double> batchedMatmul(const std::vector<double>& a, const std::vector<double>& b, std::size_t batchA,
    std::size_t batchB, std::size_t n, std::size_t k, std::size_t m)
{
    const std::size_t batch = std::max(batchA, batchB);
    std::vector<double> c(batch * n * m);
    for (std::size_t p = 0; p < batch; ++p)
        for (std::size_t i = 0; i < n; ++i)
            for (std::size_t j = 0; j < m; ++j) {
                double acc = 0;
                for (std::size_t q = 0; q < k; ++q)
                    acc += a[(batchA == 1 ? 0 : p) * n * k + i * k + q] * b[(batchB == 1 ? 0 : p) * k * m + q * m + j];
                c[(p * n + i) * m + j] = f32(acc);
            }
    return c;
}

/** x permuted: out[idx] = x[idx permuted by dims]. */
std::vector<double> permuted(
    const std::vector<double>& x, const std::vector<std::int64_t>& sizes, const std::vector<std::size_t>& dims)
{
    std::vector<std::size_t> stride(sizes.size(), 1);
    for (std::size_t k = sizes.size(); k-- > 1;)
        stride[k - 1] = stride[k] * std::size_t(sizes[k]);
    std::vector<double> out(x.size());
    for (std::size_t e = 0; e < x.size(); ++e) {
        std::size_t rest = e;
        std::size_t index = 0;
        for (std::size_t k = dims.size(); k-- > 0;) {
            const auto len = std::size_t(sizes[dims[k]]);
            index += (rest % len) * stride[dims[k]];
            rest /= len;
        }
        out[e] = x[index];
    }
    return out;
}

/** adaptive_avg_pool2d as PyTorch defines it: window [floor(i*h/oh), ceil((i+1)*h/oh)) per output row (likewise
 * for columns), averaged; `in` is `planes` planes of h x w. */
std::vector<double> adaptivePool(const std::vector<double>& in, int planes, int h, int w, int oh, int ow)
{
    std::vector<double> y;
    for (int p = 0; p < planes; ++p)
        for (int i = 0; i < oh; ++i)
            for (int j = 0; j < ow; ++j) {
                const int y0 = i * h / oh, y1 = ((i + 1) * h + oh - 1) / oh;
                const int x0 = j * w / ow, x1 = ((j + 1) * w + ow - 1) / ow;
                double acc = 0;
                for (int a = y0; a < y1; ++a)
                    for (int b = x0; b < x1; ++b)
                        acc += in[std::size_t((p * h + a) * w + b)];
                y.push_back(f32(acc / double((y1 - y0) * (x1 - x0))));
            }
    return y;
}

/** The inputs of elementwiseOps: x, y and a condition, each [2, 3]. */
std::vector<double> elementwiseX() { return values(6, 131, 3.0); }
std::vector<double> elementwiseY() { return values(6, 132, 2.0); }
std::vector<double> elementwiseCond() { return { 1, 0, 0, 1, 1, 0 }; }

} // namespace

class TestLoweringExecution : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void linearOnThreeDimensionalInput()
    {
        // linear(x [2, 3, 4], W [5, 4], b [5]) = x W^T + b, and linear without bias (the mm path) on [2, 2, 4].
        const auto x = values(24, 1);
        const auto w = values(20, 2, 0.5);
        const auto b = values(5, 3, 0.25);
        Dump d;
        d.weight("p_fc_weight", "fc.weight", { 5, 4 }, w);
        d.weight("p_fc_bias", "fc.bias", { 5 }, b);
        d.input("x", { 2, 3, 4 });
        d.input("z", { 2, 2, 4 });
        d.node("linear", "linear.default",
            json::array({ arg("input", T("x")), arg("weight", T("p_fc_weight")), arg("bias", T("p_fc_bias")) }),
            { 2, 3, 5 });
        d.node("linear_1", "linear.default", json::array({ arg("input", T("z")), arg("weight", T("p_fc_weight")) }),
            { 2, 2, 5 });
        d.output("linear");
        d.output("linear_1");
        const auto z = values(16, 4);
        auto r = emitRun(d, "linear3d", { HostTensor::floats({ 2, 3, 4 }, x), HostTensor::floats({ 2, 2, 4 }, z) });
        QVERIFY_RESULT(r);
        auto affine = [&](const std::vector<double>& in, std::size_t rows, bool bias) {
            std::vector<double> y(rows * 5);
            for (std::size_t i = 0; i < rows; ++i)
                for (std::size_t j = 0; j < 5; ++j) {
                    double acc = bias ? b[j] : 0.0;
                    for (std::size_t k = 0; k < 4; ++k)
                        acc += in[i * 4 + k] * w[j * 4 + k];
                    y[i * 5 + j] = f32(acc);
                }
            return y;
        };
        QCOMPARE(r->out.size(), std::size_t(2));
        COMPARE_OUTPUT(r->out[0], ScalarType::Float, ({ 2, 3, 5 }), affine(x, 6, true));
        COMPARE_OUTPUT(r->out[1], ScalarType::Float, ({ 2, 2, 5 }), affine(z, 4, false));
    }

    void matmulOfSupportedRanks_data()
    {
        QTest::addColumn<QList<qint64>>("a");
        QTest::addColumn<QList<qint64>>("b");
        QTest::addColumn<QList<qint64>>("out");
        QTest::newRow("2-D x 2-D") << QList<qint64> { 3, 4 } << QList<qint64> { 4, 2 } << QList<qint64> { 3, 2 };
        QTest::newRow("3-D x 2-D") << QList<qint64> { 2, 3, 4 } << QList<qint64> { 4, 5 } << QList<qint64> { 2, 3, 5 };
        QTest::newRow("3-D x 3-D") << QList<qint64> { 2, 3, 4 } << QList<qint64> { 2, 4, 2 }
                                   << QList<qint64> { 2, 3, 2 };
        QTest::newRow("2-D x 1-D") << QList<qint64> { 3, 4 } << QList<qint64> { 4 } << QList<qint64> { 3 };
        QTest::newRow("1-D x 2-D") << QList<qint64> { 4 } << QList<qint64> { 4, 3 } << QList<qint64> { 3 };
        QTest::newRow("1-D x 1-D") << QList<qint64> { 4 } << QList<qint64> { 4 } << QList<qint64> {};
        QTest::newRow("3-D x 1-D") << QList<qint64> { 2, 3, 4 } << QList<qint64> { 4 } << QList<qint64> { 2, 3 };
        QTest::newRow("4-D x 2-D") << QList<qint64> { 2, 2, 3, 4 } << QList<qint64> { 4, 2 }
                                   << QList<qint64> { 2, 2, 3, 2 };
        // The batch dimensions broadcast (torch.matmul): a batch of 1 against 2, and attention-style 4-D.
        QTest::newRow("3-D x 3-D broadcast")
            << QList<qint64> { 1, 3, 4 } << QList<qint64> { 2, 4, 2 } << QList<qint64> { 2, 3, 2 };
        QTest::newRow("4-D x 4-D") << QList<qint64> { 2, 2, 3, 4 } << QList<qint64> { 2, 2, 4, 3 }
                                   << QList<qint64> { 2, 2, 3, 3 };
        QTest::newRow("2-D x 3-D") << QList<qint64> { 3, 4 } << QList<qint64> { 2, 4, 2 } << QList<qint64> { 2, 3, 2 };
        QTest::newRow("1-D x 3-D") << QList<qint64> { 4 } << QList<qint64> { 2, 4, 2 } << QList<qint64> { 2, 2 };
        QTest::newRow("4-D x 3-D broadcast")
            << QList<qint64> { 2, 1, 3, 4 } << QList<qint64> { 2, 4, 2 } << QList<qint64> { 2, 2, 3, 2 };
    }

    void matmulOfSupportedRanks()
    {
        QFETCH(QList<qint64>, a);
        QFETCH(QList<qint64>, b);
        QFETCH(QList<qint64>, out);
        const std::vector<std::int64_t> as(a.begin(), a.end());
        const std::vector<std::int64_t> bs(b.begin(), b.end());
        const std::vector<std::int64_t> os(out.begin(), out.end());
        auto numel = [](const std::vector<std::int64_t>& s) {
            std::size_t n = 1;
            for (const auto v : s)
                n *= std::size_t(v);
            return n;
        };
        const auto x = values(numel(as), 11);
        const auto y = values(numel(bs), 12);
        Dump d;
        d.input("x", as);
        d.input("y", bs);
        d.node("matmul", "matmul.default", json::array({ arg("self", T("x")), arg("other", T("y")) }), os);
        d.output("matmul");
        auto r = emitRun(d, "matmul", { HostTensor::floats(as, x), HostTensor::floats(bs, y) });
        QVERIFY_RESULT(r);
        // torch.matmul: a 1-D x is a [1, k] row, a 1-D y a [k, 1] column (their dimension dropped from the
        // result); the batch dimensions broadcast.
        std::vector<std::int64_t> xm = as;
        std::vector<std::int64_t> ym = bs;
        if (xm.size() == 1)
            xm.insert(xm.begin(), 1);
        if (ym.size() == 1)
            ym.push_back(1);
        const std::size_t n = std::size_t(xm[xm.size() - 2]);
        const std::size_t k = std::size_t(xm.back());
        const std::size_t m = std::size_t(ym.back());
        const std::vector<std::int64_t> xb(xm.begin(), xm.end() - 2);
        const std::vector<std::int64_t> yb(ym.begin(), ym.end() - 2);
        const std::size_t nb = std::max(xb.size(), yb.size());
        std::vector<std::int64_t> batch(nb);
        for (std::size_t i = 0; i < nb; ++i) {
            const auto p = i + xb.size() < nb ? 1 : xb[i + xb.size() - nb];
            const auto q = i + yb.size() < nb ? 1 : yb[i + yb.size() - nb];
            batch[i] = std::max(p, q);
        }
        std::size_t batchSize = 1;
        for (const auto v : batch)
            batchSize *= std::size_t(v);
        auto batchIndex = [&](const std::vector<std::int64_t>& own, std::size_t flat) {
            std::size_t index = 0, stride = 1;
            for (std::size_t i = nb; i-- > 0;) {
                const auto coord = flat % std::size_t(batch[i]);
                flat /= std::size_t(batch[i]);
                if (i + own.size() < nb)
                    continue;
                const auto size = std::size_t(own[i + own.size() - nb]);
                index += (size == 1 ? 0 : coord) * stride;
                stride *= size;
            }
            return index;
        };
        std::vector<double> expected;
        for (std::size_t p = 0; p < batchSize; ++p) {
            const std::vector<double> xa(x.begin() + std::ptrdiff_t(batchIndex(xb, p) * n * k),
                x.begin() + std::ptrdiff_t((batchIndex(xb, p) + 1) * n * k));
            const std::vector<double> ya(y.begin() + std::ptrdiff_t(batchIndex(yb, p) * k * m),
                y.begin() + std::ptrdiff_t((batchIndex(yb, p) + 1) * k * m));
            const auto c = batchedMatmul(xa, ya, 1, 1, n, k, m);
            expected.insert(expected.end(), c.begin(), c.end());
        }
        QCOMPARE(r->out.at(0).sizes, os);
        COMPARE_VALUES(r->out.at(0).values, expected);
    }

    void flattenViewAndReshapeInferMinusOne()
    {
        const auto x = values(24, 21);
        Dump d;
        d.input("x", { 2, 3, 4 });
        d.node(
            "flatten", "flatten.using_ints", json::array({ arg("self", T("x")), arg("start_dim", I(1)) }), { 2, 12 });
        d.node("view", "view.default", json::array({ arg("self", T("x")), arg("size", Ints({ -1, 4 })) }), { 6, 4 });
        d.node("reshape", "reshape.default", json::array({ arg("self", T("x")), arg("shape", Ints({ 4, -1 })) }),
            { 4, 6 });
        d.node("_unsafe_view", "_unsafe_view.default", json::array({ arg("self", T("x")), arg("size", Ints({ 24 })) }),
            { 24 });
        for (const char* o : { "flatten", "view", "reshape", "_unsafe_view" })
            d.output(o);
        auto r = emitRun(d, "views", { HostTensor::floats({ 2, 3, 4 }, x) });
        QVERIFY_RESULT(r);
        QCOMPARE(r->out.size(), std::size_t(4));
        COMPARE_OUTPUT(r->out[0], ScalarType::Float, ({ 2, 12 }), x);
        COMPARE_OUTPUT(r->out[1], ScalarType::Float, ({ 6, 4 }), x);
        COMPARE_OUTPUT(r->out[2], ScalarType::Float, ({ 4, 6 }), x);
        COMPARE_OUTPUT(r->out[3], ScalarType::Float, ({ 24 }), x);
    }

    void transposesAndContiguous()
    {
        const auto m = values(12, 31);
        const auto x = values(24, 32);
        Dump d;
        d.input("m", { 3, 4 });
        d.input("x", { 2, 3, 4 });
        d.node("t", "t.default", json::array({ arg("self", T("m")) }), { 4, 3 });
        d.node("transpose", "transpose.int",
            json::array({ arg("self", T("x")), arg("dim0", I(-1)), arg("dim1", I(0)) }), { 4, 3, 2 });
        d.node("transpose_1", "transpose.int",
            json::array({ arg("self", T("x")), arg("dim0", I(1)), arg("dim1", I(2)) }), { 2, 4, 3 });
        d.node("contiguous", "contiguous.default", json::array({ arg("self", T("transpose_1")) }), { 2, 4, 3 });
        for (const char* o : { "t", "transpose", "contiguous" })
            d.output(o);
        auto r = emitRun(d, "transposes", { HostTensor::floats({ 3, 4 }, m), HostTensor::floats({ 2, 3, 4 }, x) });
        QVERIFY_RESULT(r);
        COMPARE_OUTPUT(r->out.at(0), ScalarType::Float, ({ 4, 3 }), permuted(m, { 3, 4 }, { 1, 0 }));
        COMPARE_OUTPUT(r->out.at(1), ScalarType::Float, ({ 4, 3, 2 }), permuted(x, { 2, 3, 4 }, { 2, 1, 0 }));
        COMPARE_OUTPUT(r->out.at(2), ScalarType::Float, ({ 2, 4, 3 }), permuted(x, { 2, 3, 4 }, { 0, 2, 1 }));
    }

    void squeezeAndUnsqueeze()
    {
        const auto x = values(6, 41);
        Dump d;
        d.input("x", { 2, 1, 3, 1 });
        d.node("squeeze", "squeeze.default", json::array({ arg("self", T("x")) }), { 2, 3 });
        d.node("squeeze_1", "squeeze.dim", json::array({ arg("self", T("x")), arg("dim", I(1)) }), { 2, 3, 1 });
        d.node("squeeze_2", "squeeze.dims", json::array({ arg("self", T("x")), arg("dim", Ints({ -1, 0 })) }),
            { 2, 1, 3 });
        d.node("unsqueeze", "unsqueeze.default", json::array({ arg("self", T("squeeze")), arg("dim", I(-1)) }),
            { 2, 3, 1 });
        d.node("unsqueeze_1", "unsqueeze.default", json::array({ arg("self", T("squeeze")), arg("dim", I(0)) }),
            { 1, 2, 3 });
        for (const char* o : { "squeeze", "squeeze_1", "squeeze_2", "unsqueeze", "unsqueeze_1" })
            d.output(o);
        auto r = emitRun(d, "squeeze", { HostTensor::floats({ 2, 1, 3, 1 }, x) });
        QVERIFY_RESULT(r);
        QCOMPARE(r->out.size(), std::size_t(5));
        COMPARE_OUTPUT(r->out[0], ScalarType::Float, ({ 2, 3 }), x);
        COMPARE_OUTPUT(r->out[1], ScalarType::Float, ({ 2, 3, 1 }), x);
        COMPARE_OUTPUT(r->out[2], ScalarType::Float, ({ 2, 1, 3 }), x);
        COMPARE_OUTPUT(r->out[3], ScalarType::Float, ({ 2, 3, 1 }), x);
        COMPARE_OUTPUT(r->out[4], ScalarType::Float, ({ 1, 2, 3 }), x);
    }

    void dtypeConversions()
    {
        // to.dtype(x, torch.long) truncates toward zero; _to_copy(i, dtype=torch.float) converts back.
        Dump d;
        d.input("x", { 5 });
        d.input("i", { 4 }, kLong);
        d.node("to", "to.dtype", json::array({ arg("self", T("x")), arg("dtype", Dtype(kLong)) }), { 5 }, kLong);
        d.node(
            "_to_copy", "_to_copy.default", json::array({ arg("self", T("i")), kwarg("dtype", Dtype(kFloat)) }), { 4 });
        d.node("to_1", "to.dtype", json::array({ arg("self", T("x")), arg("dtype", Dtype(kInt)) }), { 5 }, kInt);
        for (const char* o : { "to", "_to_copy", "to_1" })
            d.output(o);
        auto r = emitRun(d, "dtypes",
            { HostTensor::floats({ 5 }, { 1.75, -1.75, 2.5, -0.25, 3 }),
                HostTensor { ScalarType::Long, { 4 }, { 7, -2, 0, 40 } } });
        QVERIFY_RESULT(r);
        COMPARE_OUTPUT(r->out.at(0), ScalarType::Long, ({ 5 }), (std::vector<double> { 1, -1, 2, 0, 3 }));
        COMPARE_OUTPUT(r->out.at(1), ScalarType::Float, ({ 4 }), (std::vector<double> { 7, -2, 0, 40 }));
        COMPARE_OUTPUT(r->out.at(2), ScalarType::Int, ({ 5 }), (std::vector<double> { 1, -1, 2, 0, 3 }));
    }

    void softmaxOnNonLastDim()
    {
        const auto x = values(24, 51, 2.0);
        Dump d;
        d.input("x", { 2, 3, 4 });
        d.node("softmax", "softmax.int", json::array({ arg("self", T("x")), arg("dim", I(0)) }), { 2, 3, 4 });
        d.node("log_softmax", "log_softmax.int", json::array({ arg("self", T("x")), arg("dim", I(1)) }), { 2, 3, 4 });
        d.output("softmax");
        d.output("log_softmax");
        auto r = emitRun(d, "softmax", { HostTensor::floats({ 2, 3, 4 }, x) });
        QVERIFY_RESULT(r);
        std::vector<double> sm(24);
        std::vector<double> lsm(24);
        for (std::size_t i = 0; i < 12; ++i) { // over dim 0: pairs (i, 12 + i)
            const double s = std::exp(x[i]) + std::exp(x[12 + i]);
            sm[i] = f32(std::exp(x[i]) / s);
            sm[12 + i] = f32(std::exp(x[12 + i]) / s);
        }
        for (std::size_t o = 0; o < 2; ++o)
            for (std::size_t i = 0; i < 4; ++i) { // over dim 1: (o, 0..2, i)
                double s = 0;
                for (std::size_t k = 0; k < 3; ++k)
                    s += std::exp(x[(o * 3 + k) * 4 + i]);
                for (std::size_t k = 0; k < 3; ++k)
                    lsm[(o * 3 + k) * 4 + i] = f32(x[(o * 3 + k) * 4 + i] - std::log(s));
            }
        COMPARE_OUTPUT(r->out.at(0), ScalarType::Float, ({ 2, 3, 4 }), sm);
        COMPARE_OUTPUT(r->out.at(1), ScalarType::Float, ({ 2, 3, 4 }), lsm);
    }

    void sumOverDims()
    {
        const auto x = values(24, 61);
        Dump d;
        d.input("x", { 2, 3, 4 });
        d.node("sum_1", "sum.dim_IntList",
            json::array({ arg("self", T("x")), arg("dim", Ints({ 0, 2 })), arg("keepdim", B(true)) }), { 1, 3, 1 });
        d.node("sum_2", "sum.dim_IntList", json::array({ arg("self", T("x")), arg("dim", Ints({ -1 })) }), { 2, 3 });
        d.node("sum_3", "sum.default", json::array({ arg("self", T("x")) }), {});
        for (const char* o : { "sum_1", "sum_2", "sum_3" })
            d.output(o);
        auto r = emitRun(d, "sum", { HostTensor::floats({ 2, 3, 4 }, x) });
        QVERIFY_RESULT(r);
        std::vector<double> s02(3, 0.0);
        std::vector<double> sLast(6, 0.0);
        double all = 0;
        for (std::size_t e = 0; e < 24; ++e) {
            s02[(e / 4) % 3] += x[e];
            sLast[e / 4] += x[e];
            all += x[e];
        }
        COMPARE_OUTPUT(r->out.at(0), ScalarType::Float, ({ 1, 3, 1 }), map(s02, [](double v) { return v; }));
        COMPARE_OUTPUT(r->out.at(1), ScalarType::Float, ({ 2, 3 }), map(sLast, [](double v) { return v; }));
        COMPARE_OUTPUT(r->out.at(2), ScalarType::Float, ({}), (std::vector<double> { f32(all) }));
    }

    void factoryFunctions()
    {
        Dump d;
        d.input("x", { 2, 3 });
        d.node("zeros", "zeros.default",
            json::array({ arg("size", Ints({ 2, 2 })), kwarg("device", json { { "as_device", { { "type", "cpu" } } } }),
                kwarg("pin_memory", B(false)) }),
            { 2, 2 });
        d.node("ones", "ones.default", json::array({ arg("size", Ints({ 3 })), kwarg("dtype", Dtype(kLong)) }), { 3 },
            kLong);
        d.node(
            "full", "full.default", json::array({ arg("size", Ints({ 2, 1 })), arg("fill_value", F(2.5)) }), { 2, 1 });
        d.node("zeros_like", "zeros_like.default", json::array({ arg("self", T("x")) }), { 2, 3 });
        d.node("ones_like", "ones_like.default", json::array({ arg("self", T("x")), kwarg("dtype", Dtype(kInt)) }),
            { 2, 3 }, kInt);
        d.node("full_like", "full_like.default", json::array({ arg("self", T("x")), arg("fill_value", F(-3.25)) }),
            { 2, 3 });
        for (const char* o : { "zeros", "ones", "full", "zeros_like", "ones_like", "full_like" })
            d.output(o);
        auto r = emitRun(d, "factories", { HostTensor::floats({ 2, 3 }, values(6, 71)) });
        QVERIFY_RESULT(r);
        QCOMPARE(r->out.size(), std::size_t(6));
        COMPARE_OUTPUT(r->out[0], ScalarType::Float, ({ 2, 2 }), (std::vector<double>(4, 0.0)));
        COMPARE_OUTPUT(r->out[1], ScalarType::Long, ({ 3 }), (std::vector<double>(3, 1.0)));
        COMPARE_OUTPUT(r->out[2], ScalarType::Float, ({ 2, 1 }), (std::vector<double>(2, 2.5)));
        COMPARE_OUTPUT(r->out[3], ScalarType::Float, ({ 2, 3 }), (std::vector<double>(6, 0.0)));
        COMPARE_OUTPUT(r->out[4], ScalarType::Int, ({ 2, 3 }), (std::vector<double>(6, 1.0)));
        COMPARE_OUTPUT(r->out[5], ScalarType::Float, ({ 2, 3 }), (std::vector<double>(6, -3.25)));
    }

    void maxPool2d()
    {
        // x [1, 2, 5, 5]: kernel 2 (stride defaults to the kernel), kernel 3 stride 2 padding 1, kernel 2 ceil_mode.
        const auto x = values(50, 81);
        Dump d;
        d.input("x", { 1, 2, 5, 5 });
        d.node("max_pool2d", "max_pool2d.default",
            json::array({ arg("self", T("x")), arg("kernel_size", Ints({ 2, 2 })) }), { 1, 2, 2, 2 });
        d.node("max_pool2d_1", "max_pool2d.default",
            json::array({ arg("self", T("x")), arg("kernel_size", Ints({ 3, 3 })), arg("stride", Ints({ 2, 2 })),
                arg("padding", Ints({ 1, 1 })) }),
            { 1, 2, 3, 3 });
        d.node("max_pool2d_2", "max_pool2d.default",
            json::array({ arg("self", T("x")), arg("kernel_size", Ints({ 2, 2 })), arg("stride", Ints({ 2, 2 })),
                arg("padding", Ints({ 0, 0 })), arg("dilation", Ints({ 1, 1 })), arg("ceil_mode", B(true)) }),
            { 1, 2, 3, 3 });
        for (const char* o : { "max_pool2d", "max_pool2d_1", "max_pool2d_2" })
            d.output(o);
        auto r = emitRun(d, "maxpool", { HostTensor::floats({ 1, 2, 5, 5 }, x) });
        QVERIFY_RESULT(r);
        auto pool = [&](int k, int s, int p, int oh) {
            std::vector<double> y;
            for (int c = 0; c < 2; ++c)
                for (int i = 0; i < oh; ++i)
                    for (int j = 0; j < oh; ++j) {
                        double m = -INFINITY;
                        for (int a = 0; a < k; ++a)
                            for (int b = 0; b < k; ++b) {
                                const int yy = i * s - p + a;
                                const int xx = j * s - p + b;
                                if (yy >= 0 && yy < 5 && xx >= 0 && xx < 5)
                                    m = std::max(m, x[std::size_t((c * 5 + yy) * 5 + xx)]);
                            }
                        y.push_back(m);
                    }
            return y;
        };
        COMPARE_OUTPUT(r->out.at(0), ScalarType::Float, ({ 1, 2, 2, 2 }), pool(2, 2, 0, 2));
        COMPARE_OUTPUT(r->out.at(1), ScalarType::Float, ({ 1, 2, 3, 3 }), pool(3, 2, 1, 3));
        COMPARE_OUTPUT(r->out.at(2), ScalarType::Float, ({ 1, 2, 3, 3 }), pool(2, 2, 0, 3));
    }

    void adaptiveAvgPool2d()
    {
        // [1, 2, 4, 6] -> [2, 3] and [1, 1, 6, 4] -> [3, 1]: the sizes divide, so each window is the same block
        // (kernel = stride = [2, 2] and [2, 4]): avg_pool2d.out. [1, 1] is the mean over the last two dimensions.
        const auto x = values(48, 91);
        const auto z = values(24, 92);
        Dump d;
        d.input("x", { 1, 2, 4, 6 });
        d.input("z", { 1, 1, 6, 4 });
        d.node("adaptive_avg_pool2d", "adaptive_avg_pool2d.default",
            json::array({ arg("self", T("x")), arg("output_size", Ints({ 2, 3 })) }), { 1, 2, 2, 3 });
        d.node("adaptive_avg_pool2d_1", "adaptive_avg_pool2d.default",
            json::array({ arg("self", T("z")), arg("output_size", Ints({ 3, 1 })) }), { 1, 1, 3, 1 });
        d.node("adaptive_avg_pool2d_2", "adaptive_avg_pool2d.default",
            json::array({ arg("self", T("x")), arg("output_size", Ints({ 1, 1 })) }), { 1, 2, 1, 1 });
        d.output("adaptive_avg_pool2d");
        d.output("adaptive_avg_pool2d_1");
        d.output("adaptive_avg_pool2d_2");
        auto r =
            emitRun(d, "adaptive", { HostTensor::floats({ 1, 2, 4, 6 }, x), HostTensor::floats({ 1, 1, 6, 4 }, z) });
        QVERIFY_RESULT(r);
        QVERIFY(r->emitted.output.warnings.empty());
        COMPARE_OUTPUT(r->out.at(0), ScalarType::Float, ({ 1, 2, 2, 3 }), adaptivePool(x, 2, 4, 6, 2, 3));
        COMPARE_OUTPUT(r->out.at(1), ScalarType::Float, ({ 1, 1, 3, 1 }), adaptivePool(z, 1, 6, 4, 3, 1));
        COMPARE_OUTPUT(r->out.at(2), ScalarType::Float, ({ 1, 2, 1, 1 }), adaptivePool(x, 2, 4, 6, 1, 1));
        QCOMPARE(operatorsOf(*r), (std::vector<std::string> { "aten::avg_pool2d.out", "aten::mean.out" }));
        const auto& code = r->emitted.file->program->method("forward")->chains.at(0).instructions;
        QCOMPARE(code.size(), std::size_t(3));
    }

    void adaptiveAvgPool2dOfIndivisibleSizes()
    {
        // [1, 1, 5, 7] -> [3, 3]: overlapping windows of different sizes. This stays _adaptive_avg_pool2d.out (as
        // in ATen), which ExecuTorch's portable kernels implement.
        const auto z = values(35, 93);
        Dump d;
        d.input("z", { 1, 1, 5, 7 });
        d.node("adaptive_avg_pool2d", "adaptive_avg_pool2d.default",
            json::array({ arg("self", T("z")), arg("output_size", Ints({ 3, 3 })) }), { 1, 1, 3, 3 });
        d.output("adaptive_avg_pool2d");
        auto r = emitRun(d, "adaptive_odd", { HostTensor::floats({ 1, 1, 5, 7 }, z) });
        QVERIFY_RESULT(r);
        COMPARE_OUTPUT(r->out.at(0), ScalarType::Float, ({ 1, 1, 3, 3 }), adaptivePool(z, 1, 5, 7, 3, 3));
        QCOMPARE(operatorsOf(*r), (std::vector<std::string> { "aten::_adaptive_avg_pool2d.out" }));
        const auto& coverage = r->emitted.output.methods.at("forward").kernelCoverage;
        QCOMPARE(coverage.size(), std::size_t(1));
        QCOMPARE(coverage[0].first, std::string("aten::_adaptive_avg_pool2d.out"));
        QCOMPARE(coverage[0].second, true);
        QVERIFY(r->emitted.output.warnings.empty());
    }

    void dropoutInEvalIsIdentity()
    {
        const auto x = values(6, 101);
        Dump d;
        d.input("x", { 2, 3 });
        d.node("dropout", "dropout.default",
            json::array({ arg("input", T("x")), arg("p", F(0.5)), arg("train", B(false)) }), { 2, 3 });
        d.node("relu", "relu.default", json::array({ arg("self", T("dropout")) }), { 2, 3 });
        d.output("relu");
        d.output("dropout"); // the input itself
        auto r = emitRun(d, "dropout", { HostTensor::floats({ 2, 3 }, x) });
        QVERIFY_RESULT(r);
        COMPARE_OUTPUT(r->out.at(0), ScalarType::Float, ({ 2, 3 }), map(x, [](double v) { return std::max(v, 0.0); }));
        COMPARE_OUTPUT(r->out.at(1), ScalarType::Float, ({ 2, 3 }), x);
        QCOMPARE(operatorsOf(*r), (std::vector<std::string> { "aten::relu.out" }));
    }

    void batchNormTrainingUsesBatchStatisticsAndUpdatesRunningStats_data()
    {
        QTest::addColumn<bool>("functional");
        // _native_batch_norm_legit_functional as torch.export writes training-mode BatchNorm: the new running
        // statistics are outputs 3 and 4, listed as buffer mutations.
        QTest::newRow("_native_batch_norm_legit_functional") << true;
        // batch_norm(training=True), which updates its running statistics in place without mutation outputs.
        QTest::newRow("batch_norm") << false;
    }

    void batchNormTrainingUsesBatchStatisticsAndUpdatesRunningStats()
    {
        QFETCH(bool, functional);
        const auto gamma = values(3, 111, 1.0);
        const auto beta = values(3, 112, 0.5);
        const std::vector<double> runMean0 { 0.25, -0.5, 0.125 };
        const std::vector<double> runVar0 { 1.5, 0.75, 2 };
        Dump d;
        d.weight("p_bn_weight", "bn.weight", { 3 }, gamma);
        d.weight("p_bn_bias", "bn.bias", { 3 }, beta);
        d.weight("b_bn_running_mean", "bn.running_mean", { 3 }, runMean0, false);
        d.weight("b_bn_running_var", "bn.running_var", { 3 }, runVar0, false);
        d.weight("b_bn_num_batches_tracked", "bn.num_batches_tracked", {}, { 0 }, false, kLong);
        d.input("x", { 2, 3, 2, 2 });
        const json common =
            json::array({ arg("input", T("x")), arg("weight", T("p_bn_weight")), arg("bias", T("p_bn_bias")),
                arg("running_mean", T("b_bn_running_mean")), arg("running_var", T("b_bn_running_var")),
                arg("training", B(true)), arg("momentum", F(0.1)), arg("eps", F(1e-5)) });
        d.node("add", "add.Tensor", json::array({ arg("self", T("b_bn_num_batches_tracked")), arg("other", I(1)) }), {},
            kLong);
        std::string y = "getitem";
        if (functional) {
            d.tupleNode("_native_batch_norm_legit_functional", "_native_batch_norm_legit_functional.default", common,
                { { "getitem", { 2, 3, 2, 2 } }, { "getitem_1", { 3 } }, { "getitem_2", { 3 } }, { "getitem_3", { 3 } },
                    { "getitem_4", { 3 } } });
            d.mutation("getitem_3", "bn.running_mean");
            d.mutation("getitem_4", "bn.running_var");
        } else {
            json args = common;
            args.push_back(arg("cudnn_enabled", B(true)));
            d.node("batch_norm", "batch_norm.default", args, { 2, 3, 2, 2 });
            y = "batch_norm";
        }
        d.mutation("add", "bn.num_batches_tracked");
        d.output(y);

        const auto x1 = values(24, 113, 2.0);
        const auto x2 = values(24, 114, 1.0);
        // The running statistics start from the dump's values: buffer mutations are initialised from the dump
        // (et_init_buffer); batch_norm's in-place statistics always are.
        EmitOptions options;
        options.initialiseMutableBuffers = true;
        auto r =
            emitRun(d, functional ? "bn_functional" : "bn_train", { HostTensor::floats({ 2, 3, 2, 2 }, x1) }, options);
        QVERIFY_RESULT(r);
        // Expected: normalised with the batch's biased variance; running stats with momentum 0.1 and the
        // unbiased variance (n = 8 per channel).
        std::vector<double> rm = runMean0;
        std::vector<double> rv = runVar0;
        auto step = [&](const std::vector<double>& x) {
            std::vector<double> out(24);
            for (std::size_t c = 0; c < 3; ++c) {
                double mean = 0, var = 0;
                for (std::size_t e = 0; e < 24; ++e)
                    if ((e / 4) % 3 == c)
                        mean += x[e] / 8;
                for (std::size_t e = 0; e < 24; ++e)
                    if ((e / 4) % 3 == c)
                        var += (x[e] - mean) * (x[e] - mean) / 8;
                for (std::size_t e = 0; e < 24; ++e)
                    if ((e / 4) % 3 == c)
                        out[e] = f32((x[e] - mean) / std::sqrt(var + 1e-5) * gamma[c] + beta[c]);
                rm[c] = f32(0.9 * rm[c] + 0.1 * mean);
                rv[c] = f32(0.9 * rv[c] + 0.1 * var * 8 / 7);
            }
            return out;
        };
        QCOMPARE(r->out.size(), std::size_t(1));
        COMPARE_OUTPUT(r->out[0], ScalarType::Float, ({ 2, 3, 2, 2 }), step(x1));
        const auto& plan = r->emitted.output.methods.at("forward").memoryPlan;
        auto planned = [&](const char* name, ScalarType dt, std::size_t n) -> Result<std::vector<double>> {
            for (const auto& t : plan)
                if (t.name == name)
                    return r->rt->readPlanned(t.memoryId, t.offset, dt, n);
            return fail(ErrorCode::InvalidInput, std::string(name) + " is not memory planned");
        };
        for (int call = 1; call <= 2; ++call) {
            if (call == 2) {
                auto out = r->rt->run({ HostTensor::floats({ 2, 3, 2, 2 }, x2) });
                QVERIFY_RESULT(out);
                COMPARE_VALUES(out->at(0).values, step(x2));
            }
            auto mean = planned("b_bn_running_mean", ScalarType::Float, 3);
            QVERIFY_RESULT(mean);
            auto var = planned("b_bn_running_var", ScalarType::Float, 3);
            QVERIFY_RESULT(var);
            COMPARE_VALUES(*mean, rm);
            COMPARE_VALUES(*var, rv);
        }
    }

    void viewOpsBecomeCopies()
    {
        // split / split_with_sizes / unbind (Tensor[] results), select, slice (x[1::2] as torch.export writes it,
        // end = INT64_MAX), expand and permute: each becomes its *_copy out variant.
        const auto x = values(15, 121); // [5, 3]
        const auto c = values(3, 122); // [3, 1]
        Dump d;
        d.input("x", { 5, 3 });
        d.input("c", { 3, 1 });
        d.listNode("split", "split.Tensor", json::array({ arg("self", T("x")), arg("split_size", I(2)) }),
            { { "getitem", { 2, 3 } }, { "getitem_1", { 2, 3 } }, { "getitem_2", { 1, 3 } } });
        d.listNode("split_with_sizes", "split_with_sizes.default",
            json::array({ arg("self", T("x")), arg("split_sizes", Ints({ 1, 2 })), arg("dim", I(1)) }),
            { { "getitem_3", { 5, 1 } }, { "getitem_4", { 5, 2 } } });
        d.listNode("unbind", "unbind.int", json::array({ arg("self", T("getitem")), arg("dim", I(1)) }),
            { { "getitem_5", { 2 } }, { "getitem_6", { 2 } }, { "getitem_7", { 2 } } });
        d.node(
            "select", "select.int", json::array({ arg("self", T("x")), arg("dim", I(0)), arg("index", I(-1)) }), { 3 });
        d.node("slice_1", "slice.Tensor",
            json::array({ arg("self", T("x")), arg("dim", I(0)), arg("start", I(1)),
                arg("end", I(std::numeric_limits<std::int64_t>::max())), arg("step", I(2)) }),
            { 2, 3 });
        d.node("slice_2", "slice.Tensor", json::array({ arg("self", T("x")), arg("dim", I(1)), arg("start", I(-2)) }),
            { 5, 2 });
        d.node("expand", "expand.default", json::array({ arg("self", T("c")), arg("size", Ints({ 2, -1, 4 })) }),
            { 2, 3, 4 });
        d.node("permute", "permute.default", json::array({ arg("self", T("expand")), arg("dims", Ints({ 2, 0, 1 })) }),
            { 4, 2, 3 });
        const std::vector<const char*> outs { "getitem", "getitem_1", "getitem_2", "getitem_3", "getitem_4",
            "getitem_5", "getitem_7", "select", "slice_1", "slice_2", "permute" };
        for (const char* o : outs)
            d.output(o);
        auto r = emitRun(d, "viewcopies", { HostTensor::floats({ 5, 3 }, x), HostTensor::floats({ 3, 1 }, c) });
        QVERIFY_RESULT(r);
        QCOMPARE(r->out.size(), outs.size());
        auto rows = [&](std::size_t from, std::size_t to) {
            return std::vector<double>(x.begin() + std::ptrdiff_t(from * 3), x.begin() + std::ptrdiff_t(to * 3));
        };
        auto cols = [&](std::size_t from, std::size_t to) {
            std::vector<double> v;
            for (std::size_t i = 0; i < 5; ++i)
                for (std::size_t j = from; j < to; ++j)
                    v.push_back(x[i * 3 + j]);
            return v;
        };
        COMPARE_OUTPUT(r->out[0], ScalarType::Float, ({ 2, 3 }), rows(0, 2));
        COMPARE_OUTPUT(r->out[1], ScalarType::Float, ({ 2, 3 }), rows(2, 4));
        COMPARE_OUTPUT(r->out[2], ScalarType::Float, ({ 1, 3 }), rows(4, 5));
        COMPARE_OUTPUT(r->out[3], ScalarType::Float, ({ 5, 1 }), cols(0, 1));
        COMPARE_OUTPUT(r->out[4], ScalarType::Float, ({ 5, 2 }), cols(1, 3));
        COMPARE_OUTPUT(r->out[5], ScalarType::Float, ({ 2 }), (std::vector<double> { x[0], x[3] }));
        COMPARE_OUTPUT(r->out[6], ScalarType::Float, ({ 2 }), (std::vector<double> { x[2], x[5] }));
        COMPARE_OUTPUT(r->out[7], ScalarType::Float, ({ 3 }), rows(4, 5));
        std::vector<double> odd = rows(1, 2);
        const auto third = rows(3, 4);
        odd.insert(odd.end(), third.begin(), third.end());
        COMPARE_OUTPUT(r->out[8], ScalarType::Float, ({ 2, 3 }), odd);
        COMPARE_OUTPUT(r->out[9], ScalarType::Float, ({ 5, 2 }), cols(1, 3));
        std::vector<double> expanded; // [2, 3, 4]: c[i] everywhere along dims 0 and 2
        for (std::size_t a = 0; a < 2; ++a)
            for (std::size_t i = 0; i < 3; ++i)
                for (std::size_t k = 0; k < 4; ++k)
                    expanded.push_back(c[i]);
        COMPARE_OUTPUT(r->out[10], ScalarType::Float, ({ 4, 2, 3 }), permuted(expanded, { 2, 3, 4 }, { 2, 0, 1 }));
    }

    void elementwiseOps_data()
    {
        // Each row: one node reading the inputs x, y, p (= |x| + 0.5) and cond, and its output computed here.
        QTest::addColumn<QString>("target");
        QTest::addColumn<QString>("args");
        QTest::addColumn<QList<qint64>>("sizes");
        QTest::addColumn<QList<double>>("expected");
        const auto x = elementwiseX();
        const auto y = elementwiseY();
        const auto p = map(x, [](double v) { return std::fabs(v) + 0.5; });
        const auto cond = elementwiseCond();
        const double pi = std::acos(-1.0);
        const QList<qint64> s23 { 2, 3 };
        auto row = [](const char* name, const char* target, const json& args, const QList<qint64>& sizes,
                       const std::vector<double>& expected) {
            QTest::addRow("%s", name) << QString::fromLatin1(target) << QString::fromStdString(args.dump()) << sizes
                                      << QList<double>(expected.begin(), expected.end());
        };
        row("relu", "relu.default", json::array({ arg("self", T("x")) }), s23,
            map(x, [](double v) { return std::max(v, 0.0); }));
        row("gelu", "gelu.default", json::array({ arg("self", T("x")) }), s23,
            map(x, [](double v) { return 0.5 * v * (1 + std::erf(v / std::sqrt(2.0))); }));
        row("gelu tanh", "gelu.default", json::array({ arg("self", T("x")), kwarg("approximate", S("tanh")) }), s23,
            map(x,
                [&](double v) { return 0.5 * v * (1 + std::tanh(std::sqrt(2 / pi) * (v + 0.044715 * v * v * v))); }));
        row("tanh", "tanh.default", json::array({ arg("self", T("x")) }), s23,
            map(x, [](double v) { return std::tanh(v); }));
        row("sigmoid", "sigmoid.default", json::array({ arg("self", T("x")) }), s23,
            map(x, [](double v) { return 1 / (1 + std::exp(-v)); }));
        row("hardtanh", "hardtanh.default", json::array({ arg("self", T("x")) }), s23,
            map(x, [](double v) { return std::clamp(v, -1.0, 1.0); }));
        row("hardtanh 0..2", "hardtanh.default",
            json::array({ arg("self", T("x")), arg("min_val", F(0.0)), arg("max_val", F(2.0)) }), s23,
            map(x, [](double v) { return std::clamp(v, 0.0, 2.0); }));
        row("clamp min", "clamp.default", json::array({ arg("self", T("x")), arg("min", F(-0.5)) }), s23,
            map(x, [](double v) { return std::max(v, -0.5); }));
        row("clamp max", "clamp.default", json::array({ arg("self", T("x")), arg("min", None()), arg("max", F(0.5)) }),
            s23, map(x, [](double v) { return std::min(v, 0.5); }));
        std::vector<double> catCols;
        for (std::size_t i = 0; i < 2; ++i) {
            catCols.insert(catCols.end(), x.begin() + std::ptrdiff_t(i * 3), x.begin() + std::ptrdiff_t(i * 3 + 3));
            catCols.insert(catCols.end(), y.begin() + std::ptrdiff_t(i * 3), y.begin() + std::ptrdiff_t(i * 3 + 3));
        }
        row("cat dim 1", "cat.default", json::array({ arg("tensors", Tensors({ "x", "y" })), arg("dim", I(1)) }),
            { 2, 6 }, catCols);
        std::vector<double> catRows = x;
        catRows.insert(catRows.end(), y.begin(), y.end());
        row("cat", "cat.default", json::array({ arg("tensors", Tensors({ "x", "y" })) }), { 4, 3 }, catRows);
        std::vector<double> picked(6);
        std::vector<double> powTT(6);
        for (std::size_t e = 0; e < 6; ++e) {
            picked[e] = cond[e] != 0 ? x[e] : y[e];
            powTT[e] = f32(std::pow(p[e], y[e]));
        }
        row("where", "where.self",
            json::array({ arg("condition", T("cond")), arg("self", T("x")), arg("other", T("y")) }), s23, picked);
        row("pow int", "pow.Tensor_Scalar", json::array({ arg("self", T("x")), arg("exponent", I(2)) }), s23,
            map(x, [](double v) { return v * v; }));
        row("pow float", "pow.Tensor_Scalar", json::array({ arg("self", T("p")), arg("exponent", F(0.5)) }), s23,
            map(p, [](double v) { return std::sqrt(v); }));
        row("pow tensor", "pow.Tensor_Tensor", json::array({ arg("self", T("p")), arg("exponent", T("y")) }), s23,
            powTT);
    }

    void elementwiseOps()
    {
        QFETCH(QString, target);
        QFETCH(QString, args);
        QFETCH(QList<qint64>, sizes);
        QFETCH(QList<double>, expected);
        const auto x = elementwiseX();
        const auto y = elementwiseY();
        const auto p = map(x, [](double v) { return std::fabs(v) + 0.5; });
        Dump d;
        d.input("x", { 2, 3 });
        d.input("y", { 2, 3 });
        d.input("p", { 2, 3 });
        d.input("cond", { 2, 3 }, kBool);
        d.node("out", target.toStdString(), json::parse(args.toStdString()),
            std::vector<std::int64_t>(sizes.begin(), sizes.end()));
        d.output("out");
        auto r = emitRun(d, "elementwise",
            { HostTensor::floats({ 2, 3 }, x), HostTensor::floats({ 2, 3 }, y), HostTensor::floats({ 2, 3 }, p),
                HostTensor { ScalarType::Bool, { 2, 3 }, elementwiseCond() } });
        QVERIFY_RESULT(r);
        QCOMPARE(r->out.size(), std::size_t(1));
        QCOMPARE(r->out[0].sizes, std::vector<std::int64_t>(sizes.begin(), sizes.end()));
        QCOMPARE(int(r->out[0].dtype), int(ScalarType::Float));
        COMPARE_VALUES(r->out[0].values, std::vector<double>(expected.begin(), expected.end()));
    }

    void mutableBufferInitialState_data()
    {
        QTest::addColumn<bool>("initialise");
        QTest::newRow("default (ExecuTorch's): uninitialised") << false;
        QTest::newRow("initialiseMutableBuffers (et_init_buffer)") << true;
    }

    void mutableBufferInitialState()
    {
        // counter.json with bytes: steps (int64, 0-D, initially 5 in the dump's weights) += 1 per call;
        // forward returns x * x. Only with the option does the first call start from the dump's 5.
        QFETCH(bool, initialise);
        Dump d;
        d.weight("b_steps", "steps", {}, { 5 }, false, kLong);
        d.input("x", { 4 });
        d.node("add", "add.Tensor", json::array({ arg("self", T("b_steps")), arg("other", I(1)) }), {}, kLong);
        d.node("mul", "mul.Tensor", json::array({ arg("self", T("x")), arg("other", T("x")) }), { 4 });
        d.mutation("add", "steps");
        d.output("mul");
        EmitOptions options;
        options.initialiseMutableBuffers = initialise;
        auto r = emitRun(d, initialise ? "counter_init" : "counter_plain",
            { HostTensor::floats({ 4 }, { 1, -2, 3, 0.5 }) }, options);
        QVERIFY_RESULT(r);
        COMPARE_OUTPUT(r->out.at(0), ScalarType::Float, ({ 4 }), (std::vector<double> { 1, 4, 9, 0.25 }));
        const auto& program = *r->emitted.file->program;
        const PlannedTensor* steps = nullptr;
        for (const auto& t : r->emitted.output.methods.at("forward").memoryPlan)
            if (t.name == "b_steps")
                steps = &t;
        QVERIFY2(steps, "the mutable buffer is memory planned either way");
        const Tensor* tensor = program.method("forward")->values.at(std::size_t(steps->valueIndex)).tensor();
        QVERIFY(tensor && tensor->allocationInfo);
        bool warned = false;
        for (const auto& w : r->emitted.output.warnings)
            warned = warned || w.message.find("initial state is not stored") != std::string::npos;
        if (!initialise) {
            QVERIFY(!program.mutableDataSegments || program.mutableDataSegments->empty());
            QCOMPARE(tensor->dataBufferIdx, std::uint32_t(0));
            QVERIFY(warned);
            return;
        }
        QVERIFY(!warned);
        QVERIFY(program.mutableDataSegments && program.mutableDataSegments->size() == 1);
        QCOMPARE(tensor->dataBufferIdx, std::uint32_t(1));
        for (int call = 1; call <= 3; ++call) {
            if (call > 1)
                QVERIFY_RESULT(r->rt->run({ HostTensor::floats({ 4 }, { 0, 0, 0, 0 }) }));
            auto now = r->rt->readPlanned(steps->memoryId, steps->offset, ScalarType::Long, 1);
            QVERIFY_RESULT(now);
            QCOMPARE(now->at(0), 5.0 + call);
        }
        // A fresh load starts from the stored 5 again.
        auto again = ReferenceInterpreter::load(program, "forward");
        QVERIFY_RESULT(again);
        QVERIFY_RESULT((*again)->run({ HostTensor::floats({ 4 }, { 0, 0, 0, 0 }) }));
        auto first = (*again)->readPlanned(steps->memoryId, steps->offset, ScalarType::Long, 1);
        QVERIFY_RESULT(first);
        QCOMPARE(first->at(0), 6.0);
    }

    void mutableBuffersWithoutStateNamed_data()
    {
        QTest::addColumn<int>("buffers");
        QTest::addColumn<QString>("named");
        QTest::newRow("one") << 1 << QStringLiteral("mutable buffer 'buf0' is memory planned");
        QTest::newRow("three") << 3
                               << QStringLiteral(
                                      "3 mutable buffers (buffer 'buf0', 'buf1', 'buf2') are memory planned");
        QTest::newRow("six: the first four and a count")
            << 6
            << QStringLiteral(
                   "6 mutable buffers (buffer 'buf0', 'buf1', 'buf2', 'buf3' and 2 more) are memory planned");
    }

    void mutableBuffersWithoutStateNamed()
    {
        // Several mutated buffers emitted without their initial state: one warning names them all (or the count and
        // the first four) and the option as the Emit dialog and the CLI call it.
        QFETCH(int, buffers);
        QFETCH(QString, named);
        Dump d;
        d.input("x", { 2 });
        for (int b = 0; b < buffers; ++b) {
            const auto n = std::to_string(b);
            d.weight("b_buf" + n, "buf" + n, { 2 }, { 1, 2 }, false);
            d.node("upd" + n, "add.Tensor", json::array({ arg("self", T("b_buf" + n)), arg("other", T("x")) }), { 2 });
            d.mutation("upd" + n, "buf" + n);
        }
        d.node("y", "mul.Tensor", json::array({ arg("self", T("x")), arg("other", T("x")) }), { 2 });
        d.output("y");
        auto ep = d.build("buffers" + std::to_string(buffers));
        QVERIFY_RESULT(ep);
        auto e = emitAndReload({ { "forward", *ep } }, "buffers" + std::to_string(buffers), EmitOptions {});
        QVERIFY_RESULT(e);
        std::vector<std::string> about;
        for (const auto& w : e->output.warnings)
            if (w.message.find("mutable buffer") != std::string::npos)
                about.push_back(w.message);
        QCOMPARE(about.size(), std::size_t(1));
        const QString msg = QString::fromStdString(about[0]);
        QVERIFY2(msg.contains(named), qPrintable(msg));
        QVERIFY2(msg.contains(QStringLiteral("\"Store mutable buffers' initial state\" in the Emit dialog")),
            qPrintable(msg));
        QVERIFY2(msg.contains(QStringLiteral("--init-mutable-buffers")), qPrintable(msg));
        QVERIFY2(!msg.contains(QStringLiteral("initialiseMutableBuffers")), qPrintable(msg));
    }

    void plainOpsWithOmittedDefaults()
    {
        // Out variants whose omitted arguments take their schema defaults: avg_pool2d's stride (= the kernel)
        // and count_include_pad, mean/amax/argmax's keepdim, leaky_relu's slope, constant_pad_nd's value; and
        // factory functions with the device=cpu / pin_memory keywords torch.export writes.
        const auto img = values(32, 141); // [1, 2, 4, 4]
        const auto x3 = values(24, 142); // [2, 3, 4]
        const auto m = values(6, 143); // [2, 3]
        const auto m2 = values(6, 144);
        const json cpu { { "as_device", { { "type", "cpu" }, { "index", nullptr } } } };
        Dump d;
        d.input("img", { 1, 2, 4, 4 });
        d.input("x3", { 2, 3, 4 });
        d.input("m", { 2, 3 });
        d.input("m2", { 2, 3 });
        d.node("avg_pool2d", "avg_pool2d.default",
            json::array({ arg("self", T("img")), arg("kernel_size", Ints({ 3, 3 })), arg("stride", Ints({})),
                arg("padding", Ints({ 1, 1 })) }),
            { 1, 2, 2, 2 });
        d.node("avg_pool2d_1", "avg_pool2d.default",
            json::array({ arg("self", T("img")), arg("kernel_size", Ints({ 2, 2 })), arg("stride", Ints({ 2, 2 })),
                arg("padding", Ints({ 1, 1 })), arg("ceil_mode", B(false)), arg("count_include_pad", B(false)) }),
            { 1, 2, 3, 3 });
        d.node("mean", "mean.dim", json::array({ arg("self", T("x3")), arg("dim", Ints({ 1 })) }), { 2, 4 });
        d.node("amax", "amax.default", json::array({ arg("self", T("x3")), arg("dim", Ints({ 0, 2 })) }), { 3 });
        d.node("argmax", "argmax.default", json::array({ arg("self", T("x3")), arg("dim", I(2)) }), { 2, 3 }, kLong);
        d.node("argmax_1", "argmax.default", json::array({ arg("self", T("x3")) }), {}, kLong);
        d.node("leaky_relu", "leaky_relu.default", json::array({ arg("self", T("m")) }), { 2, 3 });
        d.node("leaky_relu_1", "leaky_relu.default",
            json::array({ arg("self", T("m")), arg("negative_slope", F(0.25)) }), { 2, 3 });
        d.node("constant_pad_nd", "constant_pad_nd.default",
            json::array({ arg("self", T("m")), arg("pad", Ints({ 1, 2 })) }), { 2, 6 });
        d.node("constant_pad_nd_1", "constant_pad_nd.default",
            json::array({ arg("self", T("m")), arg("pad", Ints({ 0, 0, 1, 0 })), arg("value", F(1.5)) }), { 3, 3 });
        d.node("arange", "arange.default",
            json::array({ arg("end", I(5)), kwarg("device", cpu), kwarg("pin_memory", B(false)) }), { 5 }, kLong);
        d.node("arange_1", "arange.start_step",
            json::array({ arg("start", I(1)), arg("end", I(2)), arg("step", F(0.25)), kwarg("dtype", Dtype(kFloat)),
                kwarg("device", cpu), kwarg("pin_memory", B(false)) }),
            { 4 });
        d.node("full", "full.default",
            json::array({ arg("size", Ints({ 2 })), arg("fill_value", F(0.5)), kwarg("device", cpu),
                kwarg("pin_memory", B(false)) }),
            { 2 });
        d.node("stack", "stack.default", json::array({ arg("tensors", Tensors({ "m", "m2" })), arg("dim", I(1)) }),
            { 2, 2, 3 });
        d.node("silu", "silu.default", json::array({ arg("self", T("m")) }), { 2, 3 });
        d.node("hardswish", "hardswish.default", json::array({ arg("self", T("x3")) }), { 2, 3, 4 });
        d.node("hardsigmoid", "hardsigmoid.default", json::array({ arg("self", T("x3")) }), { 2, 3, 4 });
        const std::vector<const char*> outs { "avg_pool2d", "avg_pool2d_1", "mean", "amax", "argmax", "argmax_1",
            "leaky_relu", "leaky_relu_1", "constant_pad_nd", "constant_pad_nd_1", "arange", "arange_1", "full", "stack",
            "silu", "hardswish", "hardsigmoid" };
        for (const char* o : outs)
            d.output(o);
        // hardswish and hardsigmoid have no portable kernel: they become add.Scalar_out, clamp.out, (mul.out,)
        // div.Scalar_out, as PyTorch's decompositions define them.
        auto r = emitRun(d, "plainops",
            { HostTensor::floats({ 1, 2, 4, 4 }, img), HostTensor::floats({ 2, 3, 4 }, x3),
                HostTensor::floats({ 2, 3 }, m), HostTensor::floats({ 2, 3 }, m2) });
        QVERIFY_RESULT(r);
        QCOMPARE(r->out.size(), outs.size());

        // avg_pool2d as PyTorch defines it: windows clipped to the padded input; the divisor is the clipped
        // window (count_include_pad) or the number of real elements in it.
        auto avg = [&](int k, int s, int p, int o, bool includePad) {
            std::vector<double> y;
            for (int c = 0; c < 2; ++c)
                for (int i = 0; i < o; ++i)
                    for (int j = 0; j < o; ++j) {
                        int y0 = i * s - p, x0 = j * s - p;
                        int y1 = std::min(y0 + k, 4 + p), x1 = std::min(x0 + k, 4 + p);
                        const int padded = (y1 - y0) * (x1 - x0);
                        y0 = std::max(y0, 0), x0 = std::max(x0, 0), y1 = std::min(y1, 4), x1 = std::min(x1, 4);
                        double acc = 0;
                        for (int a = y0; a < y1; ++a)
                            for (int b = x0; b < x1; ++b)
                                acc += img[std::size_t((c * 4 + a) * 4 + b)];
                        y.push_back(f32(acc / (includePad ? padded : (y1 - y0) * (x1 - x0))));
                    }
            return y;
        };
        COMPARE_OUTPUT(r->out[0], ScalarType::Float, ({ 1, 2, 2, 2 }), avg(3, 3, 1, 2, true));
        COMPARE_OUTPUT(r->out[1], ScalarType::Float, ({ 1, 2, 3, 3 }), avg(2, 2, 1, 3, false));
        std::vector<double> mean(8, 0.0);
        std::vector<double> amax(3, -INFINITY);
        std::vector<double> argmax(6, 0.0);
        double best = -INFINITY;
        double bestAt = 0;
        for (std::size_t e = 0; e < 24; ++e) {
            mean[(e / 12) * 4 + e % 4] += x3[e] / 3;
            amax[(e / 4) % 3] = std::max(amax[(e / 4) % 3], x3[e]);
            if (x3[e] > x3[(e / 4) * 4 + std::size_t(argmax[e / 4])])
                argmax[e / 4] = double(e % 4);
            if (x3[e] > best) {
                best = x3[e];
                bestAt = double(e);
            }
        }
        COMPARE_OUTPUT(r->out[2], ScalarType::Float, ({ 2, 4 }), map(mean, [](double v) { return v; }));
        COMPARE_OUTPUT(r->out[3], ScalarType::Float, ({ 3 }), amax);
        COMPARE_OUTPUT(r->out[4], ScalarType::Long, ({ 2, 3 }), argmax);
        COMPARE_OUTPUT(r->out[5], ScalarType::Long, ({}), (std::vector<double> { bestAt }));
        COMPARE_OUTPUT(r->out[6], ScalarType::Float, ({ 2, 3 }), map(m, [](double v) { return v > 0 ? v : v * 0.01; }));
        COMPARE_OUTPUT(r->out[7], ScalarType::Float, ({ 2, 3 }), map(m, [](double v) { return v > 0 ? v : v * 0.25; }));
        COMPARE_OUTPUT(r->out[8], ScalarType::Float, ({ 2, 6 }),
            (std::vector<double> { 0, m[0], m[1], m[2], 0, 0, 0, m[3], m[4], m[5], 0, 0 }));
        COMPARE_OUTPUT(r->out[9], ScalarType::Float, ({ 3, 3 }),
            (std::vector<double> { 1.5, 1.5, 1.5, m[0], m[1], m[2], m[3], m[4], m[5] }));
        COMPARE_OUTPUT(r->out[10], ScalarType::Long, ({ 5 }), (std::vector<double> { 0, 1, 2, 3, 4 }));
        COMPARE_OUTPUT(r->out[11], ScalarType::Float, ({ 4 }), (std::vector<double> { 1, 1.25, 1.5, 1.75 }));
        COMPARE_OUTPUT(r->out[12], ScalarType::Float, ({ 2 }), (std::vector<double> { 0.5, 0.5 }));
        COMPARE_OUTPUT(r->out[13], ScalarType::Float, ({ 2, 2, 3 }),
            (std::vector<double> { m[0], m[1], m[2], m2[0], m2[1], m2[2], m[3], m[4], m[5], m2[3], m2[4], m2[5] }));
        COMPARE_OUTPUT(
            r->out[14], ScalarType::Float, ({ 2, 3 }), map(m, [](double v) { return v / (1 + std::exp(-v)); }));
        // PyTorch's definitions on float tensors, rounded to float after each step: hardswish(x) =
        // x * clamp(x + 3, 0, 6) / 6, hardsigmoid(x) = clamp(x + 3, 0, 6) / 6.
        COMPARE_OUTPUT(r->out[15], ScalarType::Float, ({ 2, 3, 4 }),
            map(x3, [](double v) { return f32(v * std::clamp(f32(v + 3), 0.0, 6.0)) / 6; }));
        COMPARE_OUTPUT(r->out[16], ScalarType::Float, ({ 2, 3, 4 }),
            map(x3, [](double v) { return std::clamp(f32(v + 3), 0.0, 6.0) / 6; }));
        const auto ops = operatorsOf(*r);
        for (const char* op : { "aten::add.Scalar_out", "aten::clamp.out", "aten::mul.out", "aten::div.Scalar_out" })
            QVERIFY2(std::find(ops.begin(), ops.end(), op) != ops.end(), op);
        QVERIFY(std::none_of(
            ops.begin(), ops.end(), [](const std::string& op) { return op.find("hard") != std::string::npos; }));
    }

    void mseLossReductions()
    {
        // mse_loss(x, y) (reduction omitted: mean), reduction=0 (none) and reduction=2 (sum): (x - y) ** 2 and
        // its mean or sum, with sub.out, pow.Tensor_Scalar_out, mean.dtype_out and sum.IntList_out.
        const auto x = values(6, 171);
        const auto y = values(6, 172);
        Dump d;
        d.input("x", { 2, 3 });
        d.input("y", { 2, 3 });
        d.node("mse_loss", "mse_loss.default", json::array({ arg("self", T("x")), arg("target", T("y")) }), {});
        d.node("mse_loss_1", "mse_loss.default",
            json::array({ arg("self", T("x")), arg("target", T("y")), arg("reduction", I(0)) }), { 2, 3 });
        d.node("mse_loss_2", "mse_loss.default",
            json::array({ arg("self", T("x")), arg("target", T("y")), arg("reduction", I(2)) }), {});
        d.output("mse_loss");
        d.output("mse_loss_1");
        d.output("mse_loss_2");
        auto r = emitRun(d, "mse", { HostTensor::floats({ 2, 3 }, x), HostTensor::floats({ 2, 3 }, y) });
        QVERIFY_RESULT(r);
        std::vector<double> squared(6);
        double sum = 0;
        for (std::size_t k = 0; k < 6; ++k) {
            const double diff = f32(x[k] - y[k]);
            squared[k] = f32(diff * diff);
            sum += squared[k];
        }
        COMPARE_OUTPUT(r->out.at(0), ScalarType::Float, ({}), (std::vector<double> { f32(sum / 6) }));
        COMPARE_OUTPUT(r->out.at(1), ScalarType::Float, ({ 2, 3 }), squared);
        COMPARE_OUTPUT(r->out.at(2), ScalarType::Float, ({}), (std::vector<double> { f32(sum) }));
        QCOMPARE(operatorsOf(*r),
            (std::vector<std::string> {
                "aten::sub.out", "aten::pow.Tensor_Scalar_out", "aten::mean.dtype_out", "aten::sum.IntList_out" }));
    }

    void backwardOpsOfTrainingGraphs()
    {
        // sigmoid_backward, tanh_backward, threshold_backward and _log_softmax_backward_data (in joint graphs)
        // have no portable kernels: they become the element-wise chains of PyTorch's decompositions.
        const auto g = values(6, 181); // [2, 3]
        const auto y = values(6, 182, 0.9);
        const auto x = values(6, 183);
        Dump d;
        d.input("g", { 2, 3 });
        d.input("y", { 2, 3 });
        d.input("x", { 2, 3 });
        d.node("sigmoid_backward", "sigmoid_backward.default",
            json::array({ arg("grad_output", T("g")), arg("output", T("y")) }), { 2, 3 });
        d.node("tanh_backward", "tanh_backward.default",
            json::array({ arg("grad_output", T("g")), arg("output", T("y")) }), { 2, 3 });
        d.node("threshold_backward", "threshold_backward.default",
            json::array({ arg("grad_output", T("g")), arg("self", T("x")), arg("threshold", F(0.25)) }), { 2, 3 });
        d.node("_log_softmax_backward_data", "_log_softmax_backward_data.default",
            json::array({ arg("grad_output", T("g")), arg("output", T("y")), arg("dim", I(1)),
                arg("input_dtype", Dtype(kFloat)) }),
            { 2, 3 });
        for (const char* o :
            { "sigmoid_backward", "tanh_backward", "threshold_backward", "_log_softmax_backward_data" })
            d.output(o);
        auto r = emitRun(d, "backward",
            { HostTensor::floats({ 2, 3 }, g), HostTensor::floats({ 2, 3 }, y), HostTensor::floats({ 2, 3 }, x) });
        QVERIFY_RESULT(r);
        std::vector<double> sig(6), tanh(6), thr(6), lsm(6);
        for (std::size_t k = 0; k < 6; ++k) {
            sig[k] = f32(g[k] * f32(y[k] * f32(1 - y[k])));
            tanh[k] = f32(g[k] * f32(1 - f32(y[k] * y[k])));
            thr[k] = x[k] <= 0.25 ? 0.0 : g[k];
            const std::size_t row = k / 3 * 3;
            const double total = f32(g[row] + g[row + 1] + g[row + 2]);
            lsm[k] = f32(g[k] - f32(f32(std::exp(y[k])) * total));
        }
        COMPARE_OUTPUT(r->out.at(0), ScalarType::Float, ({ 2, 3 }), sig);
        COMPARE_OUTPUT(r->out.at(1), ScalarType::Float, ({ 2, 3 }), tanh);
        COMPARE_OUTPUT(r->out.at(2), ScalarType::Float, ({ 2, 3 }), thr);
        COMPARE_OUTPUT(r->out.at(3), ScalarType::Float, ({ 2, 3 }), lsm);
        QCOMPARE(operatorsOf(*r),
            (std::vector<std::string> { "aten::rsub.Scalar_out", "aten::mul.out", "aten::le.Scalar_out",
                "aten::masked_fill.Scalar_out", "aten::sum.IntList_out", "aten::exp.out", "aten::sub.out" }));
    }

    void convolutionsWithOmittedDefaults()
    {
        // conv2d(x, w) (bias, stride, padding, dilation, groups omitted), conv2d with every argument (stride 2,
        // dilation 2, groups 2) and conv1d(x, w, b, padding=[1]) -> convolution.out.
        const auto x = values(4 * 5 * 5, 151); // [1, 4, 5, 5]
        const auto w = values(4 * 4 * 3 * 3, 152, 0.5); // [4, 4, 3, 3]
        const auto wg = values(4 * 2 * 3 * 3, 153, 0.5); // [4, 2, 3, 3], groups 2
        const auto bg = values(4, 154);
        const auto s = values(2 * 6, 155); // [1, 2, 6]
        const auto w1 = values(3 * 2 * 3, 156); // [3, 2, 3]
        const auto b1 = values(3, 157);
        Dump d;
        d.weight("p_w", "conv.weight", { 4, 4, 3, 3 }, w);
        d.weight("p_wg", "convg.weight", { 4, 2, 3, 3 }, wg);
        d.weight("p_bg", "convg.bias", { 4 }, bg);
        d.weight("p_w1", "conv1.weight", { 3, 2, 3 }, w1);
        d.weight("p_b1", "conv1.bias", { 3 }, b1);
        d.input("x", { 1, 4, 5, 5 });
        d.input("s", { 1, 2, 6 });
        d.node(
            "conv2d", "conv2d.default", json::array({ arg("input", T("x")), arg("weight", T("p_w")) }), { 1, 4, 3, 3 });
        d.node("conv2d_1", "conv2d.default",
            json::array(
                { arg("input", T("x")), arg("weight", T("p_wg")), arg("bias", T("p_bg")), arg("stride", Ints({ 2, 2 })),
                    arg("padding", Ints({ 1, 1 })), arg("dilation", Ints({ 2, 2 })), arg("groups", I(2)) }),
            { 1, 4, 2, 2 });
        d.node("conv1d", "conv1d.default",
            json::array({ arg("input", T("s")), arg("weight", T("p_w1")), arg("bias", T("p_b1")),
                arg("stride", Ints({ 1 })), arg("padding", Ints({ 1 })) }),
            { 1, 3, 6 });
        for (const char* o : { "conv2d", "conv2d_1", "conv1d" })
            d.output(o);
        auto r = emitRun(d, "convs", { HostTensor::floats({ 1, 4, 5, 5 }, x), HostTensor::floats({ 1, 2, 6 }, s) });
        QVERIFY_RESULT(r);
        // out[o, y, x] = b[o] + sum over the group's channels and the kernel of in * w (zero padding).
        auto conv = [](const std::vector<double>& in, int C, int H, int W, const std::vector<double>& wt, int O, int KH,
                        int KW, const std::vector<double>* bias, int stride, int pad, int dil, int groups, int OH,
                        int OW) {
            std::vector<double> y;
            const int cg = C / groups;
            for (int o = 0; o < O; ++o)
                for (int i = 0; i < OH; ++i)
                    for (int j = 0; j < OW; ++j) {
                        double acc = bias ? (*bias)[std::size_t(o)] : 0.0;
                        const int g = o / (O / groups);
                        for (int c = 0; c < cg; ++c)
                            for (int a = 0; a < KH; ++a)
                                for (int b = 0; b < KW; ++b) {
                                    const int yy = H == 1 ? 0 : i * stride - pad + a * dil;
                                    const int xx = j * stride - pad + b * dil;
                                    if (yy >= 0 && yy < H && xx >= 0 && xx < W)
                                        acc += in[std::size_t(((g * cg + c) * H + yy) * W + xx)]
                                            * wt[std::size_t(((o * cg + c) * KH + a) * KW + b)];
                                }
                        y.push_back(f32(acc));
                    }
            return y;
        };
        COMPARE_OUTPUT(
            r->out.at(0), ScalarType::Float, ({ 1, 4, 3, 3 }), conv(x, 4, 5, 5, w, 4, 3, 3, nullptr, 1, 0, 1, 1, 3, 3));
        COMPARE_OUTPUT(
            r->out.at(1), ScalarType::Float, ({ 1, 4, 2, 2 }), conv(x, 4, 5, 5, wg, 4, 3, 3, &bg, 2, 1, 2, 2, 2, 2));
        COMPARE_OUTPUT(
            r->out.at(2), ScalarType::Float, ({ 1, 3, 6 }), conv(s, 2, 1, 6, w1, 3, 1, 3, &b1, 1, 1, 1, 1, 1, 6));
    }

    void layerNormAndBatchNormWithoutAffineOrStats()
    {
        // layer_norm(x, [3, 4]) with weight, bias and eps omitted (eps 1e-5); batch_norm in training mode
        // without running statistics (track_running_stats=False), decomposed into var/mean/rsqrt... as torch does
        // (the portable _native_batch_norm_legit.no_stats_out refuses every call); and batch_norm in eval mode
        // without weight and bias.
        const auto x = values(24, 161, 2.0); // [2, 3, 4]
        Dump d;
        d.weight("b_rm", "bn.running_mean", { 3 }, { 0.5, -0.25, 0 }, false);
        d.weight("b_rv", "bn.running_var", { 3 }, { 2, 0.5, 1 }, false);
        d.input("x", { 2, 3, 4 });
        d.node("layer_norm", "layer_norm.default",
            json::array({ arg("input", T("x")), arg("normalized_shape", Ints({ 3, 4 })) }), { 2, 3, 4 });
        d.node("batch_norm", "batch_norm.default",
            json::array({ arg("input", T("x")), arg("weight", None()), arg("bias", None()), arg("running_mean", None()),
                arg("running_var", None()), arg("training", B(true)), arg("momentum", F(0.1)), arg("eps", F(1e-5)),
                arg("cudnn_enabled", B(true)) }),
            { 2, 3, 4 });
        d.node("batch_norm_1", "batch_norm.default",
            json::array({ arg("input", T("x")), arg("weight", None()), arg("bias", None()),
                arg("running_mean", T("b_rm")), arg("running_var", T("b_rv")), arg("training", B(false)),
                arg("momentum", F(0.1)), arg("eps", F(1e-5)), arg("cudnn_enabled", B(true)) }),
            { 2, 3, 4 });
        for (const char* o : { "layer_norm", "batch_norm", "batch_norm_1" })
            d.output(o);
        auto r = emitRun(d, "norms", { HostTensor::floats({ 2, 3, 4 }, x) });
        QVERIFY_RESULT(r);
        const std::vector<double> ln = layerNormRows(x, 12);
        std::vector<double> bn(24);
        std::vector<double> bnEval(24);
        const std::vector<double> rm { 0.5, -0.25, 0 };
        const std::vector<double> rv { 2, 0.5, 1 };
        for (std::size_t c = 0; c < 3; ++c) {
            double m = 0, v = 0;
            for (std::size_t e = 0; e < 24; ++e)
                if ((e / 4) % 3 == c)
                    m += x[e] / 8;
            for (std::size_t e = 0; e < 24; ++e)
                if ((e / 4) % 3 == c)
                    v += (x[e] - m) * (x[e] - m) / 8;
            for (std::size_t e = 0; e < 24; ++e)
                if ((e / 4) % 3 == c) {
                    bn[e] = f32((x[e] - m) / std::sqrt(v + 1e-5));
                    bnEval[e] = f32((x[e] - rm[c]) / std::sqrt(rv[c] + 1e-5));
                }
        }
        COMPARE_OUTPUT(r->out.at(0), ScalarType::Float, ({ 2, 3, 4 }), ln);
        COMPARE_OUTPUT(r->out.at(1), ScalarType::Float, ({ 2, 3, 4 }), bn);
        COMPARE_OUTPUT(r->out.at(2), ScalarType::Float, ({ 2, 3, 4 }), bnEval);
        const auto ops = operatorsOf(*r);
        QVERIFY(std::find(ops.begin(), ops.end(), "aten::_native_batch_norm_legit.no_stats_out") == ops.end());
        QVERIFY(std::find(ops.begin(), ops.end(), "aten::var.correction_out") != ops.end());
        QVERIFY(std::find(ops.begin(), ops.end(), "aten::_native_batch_norm_legit_no_training.out") != ops.end());
    }

    void factoryOnAnotherDeviceIsRefused()
    {
        // device=cpu keywords are dropped (no out form takes a device); any other device is an error.
        Dump d;
        d.input("x", { 2 });
        d.node("zeros", "zeros.default",
            json::array({ arg("size", Ints({ 2 })),
                kwarg("device", json { { "as_device", { { "type", "cuda" }, { "index", 0 } } } }) }),
            { 2 });
        d.node("full", "full.default",
            json::array({ arg("size", Ints({ 2 })), arg("fill_value", F(1)),
                kwarg("device", json { { "as_device", { { "type", "cuda" }, { "index", 0 } } } }) }),
            { 2 });
        d.output("zeros");
        auto ep = d.build("cuda");
        QVERIFY_RESULT(ep);
        auto out = emitProgram({ { "forward", *ep } });
        QVERIFY_ERROR(out, ErrorCode::Unsupported, "'device' is device 'cuda'", "zeros");
    }

    void pointwiseSizesAreDerivedFromTheInputs()
    {
        // add(a [2, 3], b [3]) whose dump metadata says [3, 2]: emitted as the broadcast [2, 3] ExecuTorch derives,
        // with an info diagnostic naming the node.
        const auto a = values(6, 181);
        const auto b = values(3, 182);
        Dump d;
        d.input("a", { 2, 3 });
        d.input("b", { 3 });
        d.node("add", "add.Tensor", json::array({ arg("self", T("a")), arg("other", T("b")) }), { 3, 2 });
        d.output("add");
        auto r = emitRun(d, "pointwise_sizes", { HostTensor::floats({ 2, 3 }, a), HostTensor::floats({ 3 }, b) });
        QVERIFY_RESULT(r);
        std::vector<double> sum(6);
        for (std::size_t e = 0; e < 6; ++e)
            sum[e] = f32(a[e] + b[e % 3]);
        COMPARE_OUTPUT(r->out.at(0), ScalarType::Float, ({ 2, 3 }), sum);
        const auto& warnings = r->emitted.output.warnings;
        QCOMPARE(warnings.size(), std::size_t(1));
        QCOMPARE(int(warnings[0].severity), int(Severity::Info));
        QVERIFY2(warnings[0].message.find("node 'add'") != std::string::npos
                && warnings[0].message.find("[3, 2]") != std::string::npos
                && warnings[0].message.find("[2, 3]") != std::string::npos,
            warnings[0].message.c_str());
    }

    void pointwiseDtypesAreDerivedFromTheOperands_data()
    {
        // Each row: the node (target, `other` a tensor of `otherDtype` or a Python float), the dtype the dump gives
        // its output, the dtype torch's type promotion gives it (what is emitted) and whether an info says so.
        QTest::addColumn<QString>("target");
        QTest::addColumn<int>("selfDtype");
        QTest::addColumn<int>("otherDtype"); // -1: other is the Python float 2.5
        QTest::addColumn<int>("dumpDtype");
        QTest::addColumn<int>("emitted");
        QTest::addColumn<bool>("noted");
        const int f = int(ScalarType::Float), l = int(ScalarType::Long), b = int(ScalarType::Bool);
        QTest::newRow("eq of floats is bool") << "eq.Tensor" << kFloat << kFloat << kFloat << b << true;
        QTest::newRow("long + 2.5 is float") << "add.Tensor" << kLong << -1 << kLong << f << true;
        QTest::newRow("long / long is float (true division)") << "div.Tensor" << kLong << kLong << kLong << f << true;
        QTest::newRow("long * long stays long") << "mul.Tensor" << kLong << kLong << kLong << l << false;
        // Operands of different dtypes are not modelled: the dump's dtype stays.
        QTest::newRow("int * long: the dump's") << "mul.Tensor" << kInt << kLong << kLong << l << false;
    }

    void pointwiseDtypesAreDerivedFromTheOperands()
    {
        QFETCH(QString, target);
        QFETCH(int, selfDtype);
        QFETCH(int, otherDtype);
        QFETCH(int, dumpDtype);
        QFETCH(int, emitted);
        QFETCH(bool, noted);
        const std::vector<double> a { 3, -4, 5, 8 }, c { 2, 2, -5, 3 };
        Dump d;
        d.input("a", { 4 }, selfDtype);
        if (otherDtype >= 0)
            d.input("c", { 4 }, otherDtype);
        d.node("y", target.toStdString(),
            json::array({ arg("self", T("a")), otherDtype >= 0 ? arg("other", T("c")) : arg("other", F(2.5)) }), { 4 },
            dumpDtype);
        d.output("y");
        auto host = [](int dtype, const std::vector<double>& v) {
            HostTensor t = HostTensor::floats({ 4 }, v);
            t.dtype = dtype == kLong ? ScalarType::Long : dtype == kInt ? ScalarType::Int : ScalarType::Float;
            return t;
        };
        std::vector<HostTensor> inputs { host(selfDtype, a) };
        if (otherDtype >= 0)
            inputs.push_back(host(otherDtype, c));
        auto r = emitRun(d, "pointwise_dtype", inputs);
        QVERIFY_RESULT(r);
        std::vector<double> want(4);
        for (std::size_t e = 0; e < 4; ++e) {
            const double o = otherDtype >= 0 ? c[e] : 2.5;
            want[e] = target.startsWith("eq") ? double(a[e] == o)
                : target.startsWith("add")    ? a[e] + o
                : target.startsWith("div")    ? f32(a[e] / o)
                                              : a[e] * o;
        }
        COMPARE_OUTPUT(r->out.at(0), ScalarType(emitted), ({ 4 }), want);
        bool said = false;
        for (const auto& w : r->emitted.output.warnings)
            said = said
                || (w.severity == Severity::Info && w.message.find("node 'y'") != std::string::npos
                    && w.message.find("from its operands") != std::string::npos);
        QCOMPARE(said, noted);
    }

    void dropoutInTrainingIsDecomposed()
    {
        // dropout(x, 0.5, train=True) as torch decomposes native_dropout: rand > p is the mask, times x, times
        // 1 / (1 - p) = 2 (the portable native_dropout.out does not scale): every element is either dropped (0) or
        // kept and scaled; p = 1 drops everything.
        const auto x = values(64, 171);
        Dump d;
        d.input("x", { 8, 8 });
        d.node("dropout", "dropout.default",
            json::array({ arg("input", T("x")), arg("p", F(0.5)), arg("train", B(true)) }), { 8, 8 });
        d.node("dropout_1", "dropout.default",
            json::array({ arg("input", T("x")), arg("p", F(1.0)), arg("train", B(true)) }), { 8, 8 });
        d.output("dropout");
        d.output("dropout_1");
        auto r = emitRun(d, "dropout_train", { HostTensor::floats({ 8, 8 }, x) });
        QVERIFY_RESULT(r);
        QCOMPARE(operatorsOf(*r),
            (std::vector<std::string> { "aten::rand.out", "aten::gt.Scalar_out", "aten::mul.out",
                "aten::mul.Scalar_out", "aten::full_like.out" }));
        const auto& y = r->out.at(0).values;
        QCOMPARE(y.size(), x.size());
        std::size_t kept = 0;
        for (std::size_t e = 0; e < x.size(); ++e) {
            QVERIFY2(y[e] == 0 || y[e] == f32(x[e] * 2), std::to_string(e).c_str());
            kept += y[e] != 0 ? 1 : 0;
        }
        QVERIFY(kept > 8 && kept < 56); // some kept, some dropped
        COMPARE_OUTPUT(r->out.at(1), ScalarType::Float, ({ 8, 8 }), (std::vector<double>(64, 0.0)));
    }

private:
};

QTEST_GUILESS_MAIN(TestLoweringExecution)
#include "tst_lowering_execution.moc"
