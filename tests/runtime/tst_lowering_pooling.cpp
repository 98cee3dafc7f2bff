// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// Pooling over three dimensions (max_pool3d with and without indices, adaptive_avg_pool3d, _adaptive_avg_pool3d,
// adaptive_max_pool3d), sliding windows (im2col for nn.Unfold, col2im for nn.Fold) and embedding bags
// (nn.EmbeddingBag: embedding_bag, _embedding_bag in sum, mean and max modes), each written as torch.export writes
// the node, emitted by ptelens and run on ExecuTorch's runtime. The expected values are computed here from each op's
// documented definition (windows and bags enumerated, in double), never from the decomposition.
#include "dumpbuilder.h"
#include "errorcheck.h"
#include "etrunner.h"
#include "runtimecase.h"
#include "tensorindex.h"
#include "testutils.h"

#include <QTest>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

using namespace pte;
using namespace pte::test;
using nlohmann::json;

namespace {

using Ints3 = std::vector<std::int64_t>;

json self() { return arg("self", T("x")); }

/** The output size of one pooled dimension: floor (or ceil) of (in + 2p - dil(k-1) - 1) / s + 1, the last window
 *  starting inside the input or its left padding (PyTorch's MaxPool3d documentation). */
std::int64_t pooled(std::int64_t in, std::int64_t k, std::int64_t s, std::int64_t p, std::int64_t dil, bool ceil)
{
    const double span = double(in + 2 * p - dil * (k - 1) - 1) / double(s);
    std::int64_t out = std::int64_t(ceil ? std::ceil(span) : std::floor(span)) + 1;
    if (ceil && (out - 1) * s >= in + p)
        --out;
    return out;
}

struct Pool3dCase
{
    Shape shape; ///< (N, C, D, H, W) or (C, D, H, W)
    Ints3 k, s, p, dil;
    bool ceil = false;
};

/** Max over each (kD, kH, kW) window (dilated, padding excluded) and the flat d*H*W + h*W + w index of its first
 *  maximum in (d, h, w) order. */
Values maxPool3dReference(const Values& x, const Pool3dCase& c, Shape& outShape, Values& indices)
{
    const std::size_t r = c.shape.size();
    const std::int64_t D = c.shape[r - 3], H = c.shape[r - 2], W = c.shape[r - 1];
    std::int64_t planes = 1;
    for (std::size_t i = 0; i + 3 < r; ++i)
        planes *= c.shape[i];
    const std::int64_t od = pooled(D, c.k[0], c.s[0], c.p[0], c.dil[0], c.ceil);
    const std::int64_t oh = pooled(H, c.k[1], c.s[1], c.p[1], c.dil[1], c.ceil);
    const std::int64_t ow = pooled(W, c.k[2], c.s[2], c.p[2], c.dil[2], c.ceil);
    outShape = Shape(c.shape.begin(), c.shape.end() - 3);
    outShape.insert(outShape.end(), { od, oh, ow });
    Values out;
    for (std::int64_t q = 0; q < planes; ++q)
        for (std::int64_t a = 0; a < od; ++a)
            for (std::int64_t b = 0; b < oh; ++b)
                for (std::int64_t e = 0; e < ow; ++e) {
                    double best = -std::numeric_limits<double>::infinity();
                    std::int64_t at = -1;
                    for (std::int64_t i = 0; i < c.k[0]; ++i)
                        for (std::int64_t j = 0; j < c.k[1]; ++j)
                            for (std::int64_t l = 0; l < c.k[2]; ++l) {
                                const std::int64_t d = a * c.s[0] - c.p[0] + i * c.dil[0];
                                const std::int64_t h = b * c.s[1] - c.p[1] + j * c.dil[1];
                                const std::int64_t w = e * c.s[2] - c.p[2] + l * c.dil[2];
                                if (d < 0 || d >= D || h < 0 || h >= H || w < 0 || w >= W)
                                    continue;
                                const double v = x[std::size_t(((q * D + d) * H + h) * W + w)];
                                if (at < 0 || v > best) {
                                    best = v;
                                    at = (d * H + h) * W + w;
                                }
                            }
                    out.push_back(best);
                    indices.push_back(double(at));
                }
    return out;
}

/** Adaptive window i of `out` over `in`: [floor(i*in/out), ceil((i+1)*in/out)). */
std::pair<std::int64_t, std::int64_t> adaptiveWindow(std::int64_t i, std::int64_t in, std::int64_t out)
{
    return { (i * in) / out, ((i + 1) * in + out - 1) / out };
}

/** The mean (or the max and its first index) of each adaptive (D, H, W) window. */
Values adaptive3dReference(
    const Values& x, const Shape& shape, const Ints3& o, bool max, Shape& outShape, Values* indices = nullptr)
{
    const std::size_t r = shape.size();
    const std::int64_t D = shape[r - 3], H = shape[r - 2], W = shape[r - 1];
    std::int64_t planes = 1;
    for (std::size_t i = 0; i + 3 < r; ++i)
        planes *= shape[i];
    outShape = Shape(shape.begin(), shape.end() - 3);
    outShape.insert(outShape.end(), o.begin(), o.end());
    Values out;
    for (std::int64_t q = 0; q < planes; ++q)
        for (std::int64_t a = 0; a < o[0]; ++a)
            for (std::int64_t b = 0; b < o[1]; ++b)
                for (std::int64_t e = 0; e < o[2]; ++e) {
                    const auto [d0, d1] = adaptiveWindow(a, D, o[0]);
                    const auto [h0, h1] = adaptiveWindow(b, H, o[1]);
                    const auto [w0, w1] = adaptiveWindow(e, W, o[2]);
                    double sum = 0, best = -std::numeric_limits<double>::infinity();
                    std::int64_t at = -1;
                    for (std::int64_t d = d0; d < d1; ++d)
                        for (std::int64_t h = h0; h < h1; ++h)
                            for (std::int64_t w = w0; w < w1; ++w) {
                                const double v = x[std::size_t(((q * D + d) * H + h) * W + w)];
                                sum += v;
                                if (at < 0 || v > best) {
                                    best = v;
                                    at = (d * H + h) * W + w;
                                }
                            }
                    out.push_back(max ? best : sum / double((d1 - d0) * (h1 - h0) * (w1 - w0)));
                    if (indices)
                        indices->push_back(double(at));
                }
    return out;
}

struct Sliding
{
    Ints3 k, dil, p, s;
};

/** nn.Unfold's definition: column r*cols + c of channel c*kh*kw + ki*kw + kj holds the padded image's element at
 *  (r*s0 - p0 + ki*d0, c*s1 - p1 + kj*d1), 0 in the padding. */
Values im2colReference(const Values& x, const Shape& shape, const Sliding& w, Shape& outShape)
{
    const std::size_t r = shape.size();
    const std::int64_t C = shape[r - 3], H = shape[r - 2], W = shape[r - 1];
    const std::int64_t N = r == 4 ? shape[0] : 1;
    const std::int64_t rows = (H + 2 * w.p[0] - w.dil[0] * (w.k[0] - 1) - 1) / w.s[0] + 1;
    const std::int64_t cols = (W + 2 * w.p[1] - w.dil[1] * (w.k[1] - 1) - 1) / w.s[1] + 1;
    outShape = r == 4 ? Shape { N, C * w.k[0] * w.k[1], rows * cols } : Shape { C * w.k[0] * w.k[1], rows * cols };
    Values out;
    for (std::int64_t n = 0; n < N; ++n)
        for (std::int64_t c = 0; c < C; ++c)
            for (std::int64_t ki = 0; ki < w.k[0]; ++ki)
                for (std::int64_t kj = 0; kj < w.k[1]; ++kj)
                    for (std::int64_t a = 0; a < rows; ++a)
                        for (std::int64_t b = 0; b < cols; ++b) {
                            const std::int64_t h = a * w.s[0] - w.p[0] + ki * w.dil[0];
                            const std::int64_t v = b * w.s[1] - w.p[1] + kj * w.dil[1];
                            out.push_back(h < 0 || h >= H || v < 0 || v >= W
                                    ? 0.0
                                    : x[std::size_t(((n * C + c) * H + h) * W + v)]);
                        }
    return out;
}

/** nn.Fold's definition: every column element added into the output pixel im2col would read it from. */
Values col2imReference(const Values& x, std::int64_t N, std::int64_t C, std::int64_t H, std::int64_t W,
    const Sliding& w, std::int64_t& columns)
{
    const std::int64_t rows = (H + 2 * w.p[0] - w.dil[0] * (w.k[0] - 1) - 1) / w.s[0] + 1;
    const std::int64_t cols = (W + 2 * w.p[1] - w.dil[1] * (w.k[1] - 1) - 1) / w.s[1] + 1;
    columns = rows * cols;
    Values out(std::size_t(N * C * H * W), 0.0);
    std::size_t in = 0;
    for (std::int64_t n = 0; n < N; ++n)
        for (std::int64_t c = 0; c < C; ++c)
            for (std::int64_t ki = 0; ki < w.k[0]; ++ki)
                for (std::int64_t kj = 0; kj < w.k[1]; ++kj)
                    for (std::int64_t a = 0; a < rows; ++a)
                        for (std::int64_t b = 0; b < cols; ++b, ++in) {
                            const std::int64_t h = a * w.s[0] - w.p[0] + ki * w.dil[0];
                            const std::int64_t v = b * w.s[1] - w.p[1] + kj * w.dil[1];
                            if (h >= 0 && h < H && v >= 0 && v < W)
                                out[std::size_t(((n * C + c) * H + h) * W + v)] += x[in];
                        }
    return out;
}

/** nn.EmbeddingBag's definition: bag b holds the indices at positions [offsets[b], offsets[b+1]) (the last to the
 *  end, or to the last offset with include_last_offset), those equal to padding_idx left out; sum (each row times
 *  its per-sample weight), mean or max of the rows; an empty bag is zeros. */
Values embeddingBagReference(const Values& weight, std::int64_t dim, const Values& indices, const Values& offsets,
    int mode, const Values& perSample, bool includeLast, std::int64_t padding)
{
    const std::size_t bags = includeLast ? offsets.size() - 1 : offsets.size();
    Values out;
    for (std::size_t b = 0; b < bags; ++b) {
        const std::size_t from = std::size_t(offsets[b]);
        const std::size_t to = b + 1 < offsets.size() ? std::size_t(offsets[b + 1]) : indices.size();
        for (std::int64_t j = 0; j < dim; ++j) {
            double sum = 0, best = -std::numeric_limits<double>::infinity();
            int count = 0;
            for (std::size_t i = from; i < to; ++i) {
                if (std::int64_t(indices[i]) == padding)
                    continue;
                const double v = weight[std::size_t(std::int64_t(indices[i]) * dim + j)];
                sum += v * (perSample.empty() ? 1.0 : perSample[i]);
                best = std::max(best, v);
                ++count;
            }
            out.push_back(count == 0 ? 0.0 : mode == 0 ? sum : mode == 1 ? sum / count : best);
        }
    }
    return out;
}

} // namespace

class TestLoweringPooling : public QObject
{
    Q_OBJECT

private slots:
    void maxPool3d_data()
    {
        QTest::addColumn<QList<qint64>>("shape");
        QTest::addColumn<QList<qint64>>("kernel");
        QTest::addColumn<QList<qint64>>("stride");
        QTest::addColumn<QList<qint64>>("padding");
        QTest::addColumn<QList<qint64>>("dilation");
        QTest::addColumn<bool>("ceil");
        QTest::addColumn<bool>("withIndices");
        QTest::newRow("k3 s2 p1 on [2, 3, 5, 6, 7]")
            << QList<qint64> { 2, 3, 5, 6, 7 } << QList<qint64> { 3, 3, 3 } << QList<qint64> { 2, 2, 2 }
            << QList<qint64> { 1, 1, 1 } << QList<qint64> { 1, 1, 1 } << false << false;
        QTest::newRow("k(2,3,2) s(1,2,2) p(0,1,1) dil(2,1,1) ceil, indices")
            << QList<qint64> { 1, 2, 6, 7, 5 } << QList<qint64> { 2, 3, 2 } << QList<qint64> { 1, 2, 2 }
            << QList<qint64> { 0, 1, 1 } << QList<qint64> { 2, 1, 1 } << true << true;
        QTest::newRow("unbatched [3, 4, 5, 6] k2, indices")
            << QList<qint64> { 3, 4, 5, 6 } << QList<qint64> { 2, 2, 2 } << QList<qint64> { 2, 2, 2 }
            << QList<qint64> { 0, 0, 0 } << QList<qint64> { 1, 1, 1 } << false << true;
    }

    void maxPool3d()
    {
        QFETCH(QList<qint64>, shape);
        QFETCH(QList<qint64>, kernel);
        QFETCH(QList<qint64>, stride);
        QFETCH(QList<qint64>, padding);
        QFETCH(QList<qint64>, dilation);
        QFETCH(bool, ceil);
        QFETCH(bool, withIndices);
        Pool3dCase k { Shape(shape.begin(), shape.end()), Ints3(kernel.begin(), kernel.end()),
            Ints3(stride.begin(), stride.end()), Ints3(padding.begin(), padding.end()),
            Ints3(dilation.begin(), dilation.end()), ceil };
        Case c;
        c.in("x", k.shape, values(numel(k.shape), 61));
        Shape out;
        Values indices;
        const Values want = maxPool3dReference(c.inputs[0].values, k, out, indices);
        json args = json::array({ self(), arg("kernel_size", Ints(k.k)), arg("stride", Ints(k.s)),
            arg("padding", Ints(k.p)), arg("dilation", Ints(k.dil)), arg("ceil_mode", B(k.ceil)) });
        if (withIndices) {
            c.dump.tupleNode("pool", "max_pool3d_with_indices.default", args,
                { { "getitem", out }, { "getitem_1", out } }, kFloat, { kFloat, kLong });
            c.dump.output("getitem");
            c.dump.output("getitem_1");
            c.expect(out, want).expect(out, indices, kLong);
        } else {
            c.op("pool", "max_pool3d.default", args, out, want);
        }
        QVERIFY_RUNS_ON_RUNTIME(c, "pooling max_pool3d");
    }

    void maxPool3dDynamicBatch()
    {
        // nn.MaxPool3d(2) over a batch exported as dynamic: the views of the decomposition carry the runtime batch.
        const Shape s { 2, 2, 4, 4, 4 };
        Pool3dCase k { s, { 2, 2, 2 }, { 2, 2, 2 }, { 0, 0, 0 }, { 1, 1, 1 }, false };
        Case c;
        c.in("x", s, values(numel(s), 62));
        Shape out;
        Values indices;
        const Values want = maxPool3dReference(c.inputs[0].values, k, out, indices);
        c.op("pool", "max_pool3d.default", json::array({ self(), arg("kernel_size", Ints({ 2, 2, 2 })) }), out, want);
        c.dump.dynamic("x", 0, "s0", 2);
        c.dump.dynamic("pool", 0, "s0", 2);
        QVERIFY_RUNS_ON_RUNTIME(c, "pooling max_pool3d dynamic batch");
    }

    void adaptiveAvgPool3d_data()
    {
        QTest::addColumn<QString>("target");
        QTest::addColumn<QList<qint64>>("shape");
        QTest::addColumn<QList<qint64>>("output");
        QTest::newRow("adaptive_avg_pool3d [2, 3, 5, 7, 6] -> (2, 3, 4)")
            << "adaptive_avg_pool3d.default" << QList<qint64> { 2, 3, 5, 7, 6 } << QList<qint64> { 2, 3, 4 };
        QTest::newRow("adaptive_avg_pool3d to (1, 1, 1) (mean)")
            << "adaptive_avg_pool3d.default" << QList<qint64> { 1, 2, 4, 3, 5 } << QList<qint64> { 1, 1, 1 };
        QTest::newRow("_adaptive_avg_pool3d unbatched [2, 3, 5, 4] -> (3, 2, 3)")
            << "_adaptive_avg_pool3d.default" << QList<qint64> { 2, 3, 5, 4 } << QList<qint64> { 3, 2, 3 };
    }

    void adaptiveAvgPool3d()
    {
        QFETCH(QString, target);
        QFETCH(QList<qint64>, shape);
        QFETCH(QList<qint64>, output);
        const Shape s(shape.begin(), shape.end());
        const Ints3 o(output.begin(), output.end());
        Case c;
        c.in("x", s, values(numel(s), 63));
        Shape out;
        const Values want = adaptive3dReference(c.inputs[0].values, s, o, false, out);
        c.op("pool", target.toStdString(), json::array({ self(), arg("output_size", Ints(o)) }), out, want);
        QVERIFY_RUNS_ON_RUNTIME(c, "pooling adaptive_avg_pool3d");
    }

    void adaptiveMaxPool3d()
    {
        // nn.AdaptiveMaxPool3d((2, 3, 2), return_indices=True) over an input the output size divides.
        const Shape s { 2, 2, 4, 6, 4 };
        const Ints3 o { 2, 3, 2 };
        Case c;
        c.in("x", s, values(numel(s), 64));
        Shape out;
        Values indices;
        const Values want = adaptive3dReference(c.inputs[0].values, s, o, true, out, &indices);
        c.dump.tupleNode("pool", "adaptive_max_pool3d.default", json::array({ self(), arg("output_size", Ints(o)) }),
            { { "getitem", out }, { "getitem_1", out } }, kFloat, { kFloat, kLong });
        c.dump.output("getitem");
        c.dump.output("getitem_1");
        c.expect(out, want).expect(out, indices, kLong);
        QVERIFY_RUNS_ON_RUNTIME(c, "pooling adaptive_max_pool3d");
    }

    void adaptiveMaxPool3dRefusesUnevenWindows()
    {
        // Windows of different sizes have no 2-D pooling equivalent on the runtime: refused, naming the sizes.
        Case c;
        c.in("x", { 1, 1, 5, 4, 4 }, values(80, 65));
        c.dump.tupleNode("pool", "adaptive_max_pool3d.default",
            json::array({ self(), arg("output_size", Ints({ 2, 2, 2 })) }),
            { { "getitem", { 1, 1, 2, 2, 2 } }, { "getitem_1", { 1, 1, 2, 2, 2 } } }, kFloat, { kFloat, kLong });
        c.dump.output("getitem");
        QVERIFY_ERROR(emitOnly(c, "pooling adaptive_max_pool3d uneven"), ErrorCode::Unsupported, "adaptive_max_pool3d",
            "2x2x2", "only output sizes that divide the input");
    }

    void im2col_data()
    {
        QTest::addColumn<QList<qint64>>("shape");
        QTest::addColumn<QList<qint64>>("kernel");
        QTest::addColumn<QList<qint64>>("dilation");
        QTest::addColumn<QList<qint64>>("padding");
        QTest::addColumn<QList<qint64>>("stride");
        QTest::newRow("[2, 3, 5, 6] k(2,3) dil(1,2) p1 s(2,1)")
            << QList<qint64> { 2, 3, 5, 6 } << QList<qint64> { 2, 3 } << QList<qint64> { 1, 2 }
            << QList<qint64> { 1, 1 } << QList<qint64> { 2, 1 };
        QTest::newRow("unbatched [3, 4, 4] k2 s2")
            << QList<qint64> { 3, 4, 4 } << QList<qint64> { 2, 2 } << QList<qint64> { 1, 1 } << QList<qint64> { 0, 0 }
            << QList<qint64> { 2, 2 };
    }

    void im2col()
    {
        QFETCH(QList<qint64>, shape);
        QFETCH(QList<qint64>, kernel);
        QFETCH(QList<qint64>, dilation);
        QFETCH(QList<qint64>, padding);
        QFETCH(QList<qint64>, stride);
        const Shape s(shape.begin(), shape.end());
        const Sliding w { Ints3(kernel.begin(), kernel.end()), Ints3(dilation.begin(), dilation.end()),
            Ints3(padding.begin(), padding.end()), Ints3(stride.begin(), stride.end()) };
        Case c;
        c.in("x", s, values(numel(s), 66));
        Shape out;
        const Values want = im2colReference(c.inputs[0].values, s, w, out);
        c.op("unfold", "im2col.default",
            json::array({ self(), arg("kernel_size", Ints(w.k)), arg("dilation", Ints(w.dil)),
                arg("padding", Ints(w.p)), arg("stride", Ints(w.s)) }),
            out, want);
        QVERIFY_RUNS_ON_RUNTIME(c, "pooling im2col");
    }

    void col2im_data()
    {
        QTest::addColumn<bool>("batched");
        QTest::addColumn<QList<qint64>>("kernel");
        QTest::addColumn<QList<qint64>>("dilation");
        QTest::addColumn<QList<qint64>>("padding");
        QTest::addColumn<QList<qint64>>("stride");
        QTest::newRow("(2, 3) channels, 5x6, k(2,3) dil(1,2) p1 s(2,1): overlapping windows")
            << true << QList<qint64> { 2, 3 } << QList<qint64> { 1, 2 } << QList<qint64> { 1, 1 }
            << QList<qint64> { 2, 1 };
        QTest::newRow("unbatched 4x4, k2 s2: disjoint windows")
            << false << QList<qint64> { 2, 2 } << QList<qint64> { 1, 1 } << QList<qint64> { 0, 0 }
            << QList<qint64> { 2, 2 };
    }

    void col2im()
    {
        QFETCH(bool, batched);
        QFETCH(QList<qint64>, kernel);
        QFETCH(QList<qint64>, dilation);
        QFETCH(QList<qint64>, padding);
        QFETCH(QList<qint64>, stride);
        const Sliding w { Ints3(kernel.begin(), kernel.end()), Ints3(dilation.begin(), dilation.end()),
            Ints3(padding.begin(), padding.end()), Ints3(stride.begin(), stride.end()) };
        const std::int64_t N = batched ? 2 : 1, C = 3, H = batched ? 5 : 4, W = batched ? 6 : 4;
        std::int64_t columns = 0;
        col2imReference({}, 0, C, H, W, w, columns); // N = 0: the number of columns only
        const std::int64_t rows = C * w.k[0] * w.k[1];
        const Shape in = batched ? Shape { N, rows, columns } : Shape { rows, columns };
        Case c;
        c.in("x", in, values(numel(in), 67));
        const Values want = col2imReference(c.inputs[0].values, N, C, H, W, w, columns);
        const Shape out = batched ? Shape { N, C, H, W } : Shape { C, H, W };
        c.op("fold", "col2im.default",
            json::array({ self(), arg("output_size", Ints({ H, W })), arg("kernel_size", Ints(w.k)),
                arg("dilation", Ints(w.dil)), arg("padding", Ints(w.p)), arg("stride", Ints(w.s)) }),
            out, want);
        QVERIFY_RUNS_ON_RUNTIME(c, "pooling col2im");
    }

    void embeddingBag_data()
    {
        QTest::addColumn<QString>("target");
        QTest::addColumn<int>("mode");
        QTest::addColumn<bool>("perSample");
        QTest::addColumn<bool>("includeLast");
        QTest::addColumn<qint64>("padding"); // -1: None
        QTest::addColumn<QList<qint64>>("offsets");
        QTest::addColumn<bool>("dynamic");
        QTest::newRow("sum, per_sample_weights, an empty bag (embedding_bag.padding_idx)")
            << "embedding_bag.padding_idx" << 0 << true << false << qint64(-1) << QList<qint64> { 0, 4, 4 } << false;
        QTest::newRow("mean, padding_idx 2")
            << "embedding_bag.padding_idx" << 1 << false << false << qint64(2) << QList<qint64> { 0, 3, 5 } << false;
        QTest::newRow("max, include_last_offset, an empty bag")
            << "embedding_bag.padding_idx" << 2 << false << true << qint64(-1) << QList<qint64> { 0, 3, 3, 9 } << false;
        QTest::newRow("sum (embedding_bag.default)")
            << "embedding_bag.default" << 0 << false << false << qint64(-1) << QList<qint64> { 0, 2, 6 } << false;
        QTest::newRow("mean, padding_idx 7 (_embedding_bag)")
            << "_embedding_bag.default" << 1 << false << false << qint64(7) << QList<qint64> { 0, 1, 5, 8 } << false;
        QTest::newRow("mean, dynamic number of indices")
            << "embedding_bag.padding_idx" << 1 << false << false << qint64(-1) << QList<qint64> { 0, 5 } << true;
    }

    void embeddingBag()
    {
        QFETCH(QString, target);
        QFETCH(int, mode);
        QFETCH(bool, perSample);
        QFETCH(bool, includeLast);
        QFETCH(qint64, padding);
        QFETCH(QList<qint64>, offsets);
        QFETCH(bool, dynamic);
        const std::int64_t rows = 10, dim = 4, n = 9;
        const Values idx { 3, 7, 2, 9, 0, 2, 7, 7, 5 };
        const Values off(offsets.begin(), offsets.end());
        const Values table = values(rows * dim, 68);
        Case c;
        c.dump.weight("p_bag_weight", "bag.weight", { rows, dim }, table);
        c.in("indices", { n }, idx, kLong).in("offsets", { std::int64_t(off.size()) }, off, kLong);
        Values weights;
        if (perSample)
            c.in("weights", { n }, weights = values(n, 69));
        const std::int64_t bags = std::int64_t(off.size()) - (includeLast ? 1 : 0);
        const Values want = embeddingBagReference(table, dim, idx, off, mode, weights, includeLast,
            target.startsWith(QLatin1String("_")) || padding >= 0 ? padding : -1);
        json args = json::array(
            { arg("weight", T("p_bag_weight")), arg("indices", T("indices")), arg("offsets", T("offsets")) });
        if (target != QLatin1String("embedding_bag.default") || mode != 0 || perSample || includeLast) {
            args.push_back(arg("scale_grad_by_freq", B(false)));
            args.push_back(arg("mode", I(mode)));
            args.push_back(arg("sparse", B(false)));
            args.push_back(arg("per_sample_weights", perSample ? T("weights") : None()));
            args.push_back(arg("include_last_offset", B(includeLast)));
            if (target == QLatin1String("embedding_bag.padding_idx"))
                args.push_back(arg("padding_idx", padding >= 0 ? I(padding) : None()));
            else if (target == QLatin1String("_embedding_bag.default"))
                args.push_back(arg("padding_idx", I(padding)));
        }
        c.dump.tupleNode("bag", target.toStdString(), args,
            { { "getitem", { bags, dim } }, { "getitem_1", { n } }, { "getitem_2", { bags } },
                { "getitem_3", { bags } } },
            kFloat, { kFloat, kLong, kLong, kLong });
        c.dump.output("getitem");
        if (dynamic) {
            c.dump.dynamic("indices", 0, "s0", n);
            c.dump.dynamic("getitem_1", 0, "s0", n);
        }
        c.expect({ bags, dim }, want);
        QVERIFY_RUNS_ON_RUNTIME(c, "pooling embedding_bag");
    }

    void embeddingBagRefusesReadingItsOtherOutputs()
    {
        // Only the pooled rows are computed: a graph that returns bag_size gets an error naming the node, not a
        // program reading a value nothing wrote.
        Case c;
        c.dump.weight("p_bag_weight", "bag.weight", { 6, 2 }, values(12, 70));
        c.in("indices", { 4 }, { 1, 2, 3, 4 }, kLong).in("offsets", { 2 }, { 0, 2 }, kLong);
        c.dump.tupleNode("bag", "embedding_bag.default",
            json::array(
                { arg("weight", T("p_bag_weight")), arg("indices", T("indices")), arg("offsets", T("offsets")) }),
            { { "getitem", { 2, 2 } }, { "getitem_1", { 4 } }, { "getitem_2", { 2 } }, { "getitem_3", { 2 } } }, kFloat,
            { kFloat, kLong, kLong, kLong });
        c.dump.output("getitem");
        c.dump.output("getitem_2");
        QVERIFY_ERROR(emitOnly(c, "pooling embedding_bag bag_size"), ErrorCode::Unsupported, "getitem_2",
            "output 2 of node 'bag' (embedding_bag)", "does not compute");
    }
};

QTEST_GUILESS_MAIN(TestLoweringPooling)
#include "tst_lowering_pooling.moc"
