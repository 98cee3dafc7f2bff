// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// Shape utilities of the training IR (chunk, split, tensor_split, unbind, unflatten, movedim, expand_as, view_as,
// flatten, squeeze, narrow, repeat_interleave, flip, roll, meshgrid, transpose family, type conversions, stack family,
// diag_embed, tile, scatter/gather family), written as torch.export writes them, emitted by ptelens and run on
// ExecuTorch's runtime. Expected values come from each op's documented definition, computed here element by element.
#include "dumpbuilder.h"
#include "errorcheck.h"
#include "etrunner.h"
#include "pte/emitter.h"
#include "runtimecase.h"
#include "tensorindex.h"
#include "testutils.h"

#include <QTest>

#include <algorithm>
#include <functional>
#include <numeric>

using namespace pte;
using namespace pte::test;
using nlohmann::json;

namespace {

/** A list node's outputs returned, each expected to hold the pieces of x (shape xs) along dim between bounds. */
void expectPieces(Case& c, const std::string& node, const std::string& target, json args, const Shape& xs,
    std::int64_t dim, const std::vector<std::int64_t>& bounds)
{
    const auto& x = c.inputs[0].values;
    std::vector<std::pair<std::string, std::vector<std::int64_t>>> outs;
    for (std::size_t k = 0; k + 1 < bounds.size(); ++k) {
        Shape s = xs;
        s[std::size_t(dim)] = bounds[k + 1] - bounds[k];
        outs.push_back({ node + "_" + std::to_string(k), s });
    }
    c.dump.listNode(node, target, std::move(args), outs);
    for (std::size_t k = 0; k + 1 < bounds.size(); ++k) {
        c.dump.output(outs[k].first);
        const auto start = bounds[k];
        c.expect(outs[k].second, tabulate(outs[k].second, [&](Shape i) {
            i[std::size_t(dim)] += start;
            return x[rowMajorOffset(xs, i)];
        }));
    }
}

} // namespace

class TestLoweringShape : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void chunkUneven()
    {
        // q, k, v = qkv.chunk(3, dim=-1) of a [2, 7] tensor: pieces of ceil(7 / 3) = 3, the last 1.
        Case c;
        c.in("x", { 2, 7 }, values(14, 1));
        expectPieces(c, "chunk", "chunk.default",
            json::array({ arg("self", T("x")), arg("chunks", I(3)), arg("dim", I(-1)) }), { 2, 7 }, 1, { 0, 3, 6, 7 });
        QVERIFY_RUNS_ON_RUNTIME(c, "shape_chunk");
    }

    void chunkGivesFewerPieces()
    {
        // chunk(4) of 5 rows: pieces of 2, so only 3 of them.
        Case c;
        c.in("x", { 5, 2 }, values(10, 2));
        expectPieces(c, "chunk", "chunk.default", json::array({ arg("self", T("x")), arg("chunks", I(4)) }), { 5, 2 },
            0, { 0, 2, 4, 5 });
        QVERIFY_RUNS_ON_RUNTIME(c, "shape_chunk_fewer");
    }

    void splitOverloads_data()
    {
        QTest::addColumn<QString>("target");
        QTest::addColumn<bool>("sizes");
        QTest::newRow("split.Tensor") << "split.Tensor" << false;
        QTest::newRow("unsafe_split.Tensor") << "unsafe_split.Tensor" << false;
        QTest::newRow("split.sizes") << "split.sizes" << true;
        QTest::newRow("split_with_sizes") << "split_with_sizes.default" << true;
        QTest::newRow("unsafe_split_with_sizes") << "unsafe_split_with_sizes.default" << true;
    }

    void splitOverloads()
    {
        QFETCH(QString, target);
        QFETCH(bool, sizes);
        const std::string t = target.toStdString();
        Case c;
        c.in("x", { 3, 5 }, values(15, 3));
        json args = json::array({ arg("self", T("x")) });
        if (sizes)
            args.push_back(arg(t.starts_with("split.") ? "split_size" : "split_sizes", Ints({ 1, 3, 1 })));
        else
            args.push_back(arg("split_size", I(2)));
        args.push_back(arg("dim", I(1)));
        expectPieces(c, "s", t, args, { 3, 5 }, 1, sizes ? Shape { 0, 1, 4, 5 } : Shape { 0, 2, 4, 5 });
        QVERIFY_RUNS_ON_RUNTIME(c, "shape_" + t);
    }

    void tensorSplitSectionsAndIndices()
    {
        // tensor_split(8, 3): 3, 3, 2; tensor_split([1, 5]) of 7: 1, 4, 2.
        Case c;
        c.in("x", { 8, 2 }, values(16, 4));
        expectPieces(c, "ts", "tensor_split.sections", json::array({ arg("self", T("x")), arg("sections", I(3)) }),
            { 8, 2 }, 0, { 0, 3, 6, 8 });
        QVERIFY_RUNS_ON_RUNTIME(c, "shape_tensor_split_sections");

        Case d;
        d.in("x", { 2, 7 }, values(14, 5));
        expectPieces(d, "ts", "tensor_split.indices",
            json::array({ arg("self", T("x")), arg("indices", Ints({ 1, 5 })), arg("dim", I(1)) }), { 2, 7 }, 1,
            { 0, 1, 5, 7 });
        QVERIFY_RUNS_ON_RUNTIME(d, "shape_tensor_split_indices");
    }

    void tensorSplitWithATensorIsRefused()
    {
        Case c;
        c.in("x", { 4 }, values(4, 6)).in("i", { 1 }, { 2 }, kLong);
        c.dump.listNode("ts", "tensor_split.tensor_indices_or_sections",
            json::array({ arg("self", T("x")), arg("tensor_indices_or_sections", T("i")) }),
            { { "a", { 2 } }, { "b", { 2 } } });
        c.dump.output("a");
        QVERIFY_ERROR(emitOnly(c, "shape_tensor_split_refused"), ErrorCode::Unsupported, "ts", "tensor_split",
            "tensor of indices or sections");
    }

    void unbindAlongDim1()
    {
        Case c;
        c.in("x", { 2, 3 }, values(6, 7));
        const auto& x = c.inputs[0].values;
        c.dump.listNode("u", "unbind.int", json::array({ arg("self", T("x")), arg("dim", I(1)) }),
            { { "u0", { 2 } }, { "u1", { 2 } }, { "u2", { 2 } } });
        for (std::size_t k = 0; k < 3; ++k) {
            c.dump.output("u" + std::to_string(k));
            c.expect({ 2 }, { x[k], x[3 + k] });
        }
        QVERIFY_RUNS_ON_RUNTIME(c, "shape_unbind");
    }

    void unflattenResolvesMinusOne()
    {
        // x.unflatten(1, (3, -1)) of [2, 12]: [2, 3, 4], the same elements.
        Case c;
        c.in("x", { 2, 12 }, values(24, 8));
        c.op("y", "unflatten.int",
            json::array({ arg("self", T("x")), arg("dim", I(1)), arg("sizes", Ints({ 3, -1 })) }), { 2, 3, 4 },
            c.inputs[0].values);
        QVERIFY_RUNS_ON_RUNTIME(c, "shape_unflatten");
    }

    void unflattenOfADynamicBatch()
    {
        // heads split out of a [s0, 12] activation: unflatten(-1, (-1, 4)) -> [s0, 3, 4], run at s0 = 4.
        Case c;
        c.in("x", { 4, 12 }, values(48, 9));
        c.dump.dynamic("x", 0, "s0", 4);
        c.op("y", "unflatten.int",
            json::array({ arg("self", T("x")), arg("dim", I(-1)), arg("sizes", Ints({ -1, 4 })) }), { 4, 3, 4 },
            c.inputs[0].values);
        c.dump.dynamic("y", 0, "s0", 4);
        QVERIFY_RUNS_ON_RUNTIME(c, "shape_unflatten_dynamic");
    }

    void flattenDims_data()
    {
        QTest::addColumn<int>("start");
        QTest::addColumn<int>("end");
        QTest::newRow("all") << 0 << -1;
        QTest::newRow("1..2") << 1 << 2;
        QTest::newRow("-2..-1") << -2 << -1;
        QTest::newRow("one dim") << 1 << 1;
    }

    void flattenDims()
    {
        QFETCH(int, start);
        QFETCH(int, end);
        const Shape xs { 2, 3, 4 };
        Shape ys;
        const int s = start < 0 ? start + 3 : start;
        const int e = end < 0 ? end + 3 : end;
        for (int d = 0; d < 3; ++d) {
            if (d < s || d > e)
                ys.push_back(xs[std::size_t(d)]);
            else if (d == s)
                ys.push_back(std::accumulate(xs.begin() + s, xs.begin() + e + 1, std::int64_t(1), std::multiplies<>()));
        }
        Case c;
        c.in("x", xs, values(24, 10));
        json args = json::array({ arg("self", T("x")) });
        if (start != 0)
            args.push_back(arg("start_dim", I(start)));
        if (end != -1)
            args.push_back(arg("end_dim", I(end)));
        c.op("y", "flatten.using_ints", args, ys, c.inputs[0].values);
        QVERIFY_RUNS_ON_RUNTIME(c, "shape_flatten");
    }

    void flattenOfA0dTensorAndADynamicOne()
    {
        Case c;
        c.in("x", {}, { 2.5 });
        c.op("y", "flatten.using_ints", json::array({ arg("self", T("x")) }), { 1 }, { 2.5 });
        QVERIFY_RUNS_ON_RUNTIME(c, "shape_flatten_0d");

        // [s0, 3, 4].flatten(1) -> [s0, 12] at s0 = 3.
        Case d;
        d.in("x", { 3, 3, 4 }, values(36, 11));
        d.dump.dynamic("x", 0, "s0", 3);
        d.op("y", "flatten.using_ints", json::array({ arg("self", T("x")), arg("start_dim", I(1)) }), { 3, 12 },
            d.inputs[0].values);
        d.dump.dynamic("y", 0, "s0", 3);
        QVERIFY_RUNS_ON_RUNTIME(d, "shape_flatten_dynamic");
    }

    void movedim()
    {
        // movedim(x, 1, -1) of [2, 3, 4] -> [2, 4, 3]; movedim(x, [0, 1], [2, 0]) -> [3, 4, 2].
        Case c;
        c.in("x", { 2, 3, 4 }, values(24, 12));
        const auto x = c.inputs[0].values;
        const Shape xs { 2, 3, 4 };
        c.op("a", "movedim.int", json::array({ arg("self", T("x")), arg("source", I(1)), arg("destination", I(-1)) }),
            { 2, 4, 3 }, tabulate({ 2, 4, 3 }, [&](const Shape& i) {
                return x[rowMajorOffset(xs, { i[0], i[2], i[1] })];
            }));
        c.op("b", "movedim.intlist",
            json::array({ arg("self", T("x")), arg("source", Ints({ 0, 1 })), arg("destination", Ints({ 2, 0 })) }),
            { 3, 4, 2 }, tabulate({ 3, 4, 2 }, [&](const Shape& i) {
                return x[rowMajorOffset(xs, { i[2], i[0], i[1] })];
            }));
        QVERIFY_RUNS_ON_RUNTIME(c, "shape_movedim");
    }

    void expandAsViewAsReshapeAsBroadcastTo()
    {
        Case c;
        c.in("x", { 3, 1 }, values(3, 13)).in("o", { 2, 3, 4 }, values(24, 14)).in("w", { 12 }, values(12, 15));
        const auto x = c.inputs[0].values;
        const auto w = c.inputs[2].values;
        const auto expanded = tabulate({ 2, 3, 4 }, [&](const Shape& i) { return x[std::size_t(i[1])]; });
        c.op("e", "expand_as.default", json::array({ arg("self", T("x")), arg("other", T("o")) }), { 2, 3, 4 },
            expanded);
        c.dump.node(
            "o2", "select.int", json::array({ arg("self", T("o")), arg("dim", I(0)), arg("index", I(0)) }), { 3, 4 });
        c.op("v", "view_as.default", json::array({ arg("self", T("w")), arg("other", T("o2")) }), { 3, 4 }, w);
        c.op("r", "reshape_as.default", json::array({ arg("self", T("w")), arg("other", T("o2")) }), { 3, 4 }, w);
        c.op("b", "broadcast_to.default", json::array({ arg("self", T("x")), arg("size", Ints({ 2, 3, 4 })) }),
            { 2, 3, 4 }, expanded);
        c.op("ex", "expand.default", json::array({ arg("self", T("x")), arg("size", Ints({ -1, 4 })) }), { 3, 4 },
            tabulate({ 3, 4 }, [&](const Shape& i) { return x[std::size_t(i[0])]; }));
        QVERIFY_RUNS_ON_RUNTIME(c, "shape_as_other");
    }

    void squeezeAndUnsqueeze()
    {
        Case c;
        c.in("x", { 1, 3, 1, 2 }, values(6, 16));
        const auto x = c.inputs[0].values;
        c.op("a", "squeeze.default", json::array({ arg("self", T("x")) }), { 3, 2 }, x);
        c.op("b", "squeeze.dim", json::array({ arg("self", T("x")), arg("dim", I(2)) }), { 1, 3, 2 }, x);
        c.op("c", "squeeze.dims", json::array({ arg("self", T("x")), arg("dim", Ints({ 0, 1, -2 })) }), { 3, 2 }, x);
        c.op("d", "unsqueeze.default", json::array({ arg("self", T("x")), arg("dim", I(-1)) }), { 1, 3, 1, 2, 1 }, x);
        QVERIFY_RUNS_ON_RUNTIME(c, "shape_squeeze");
    }

    void narrowWithANegativeStart()
    {
        // x.narrow(1, -3, 2) of [2, 5]: columns 2 and 3.
        Case c;
        c.in("x", { 2, 5 }, values(10, 17));
        const auto x = c.inputs[0].values;
        c.op("y", "narrow.default",
            json::array({ arg("self", T("x")), arg("dim", I(1)), arg("start", I(-3)), arg("length", I(2)) }), { 2, 2 },
            { x[2], x[3], x[7], x[8] });
        QVERIFY_RUNS_ON_RUNTIME(c, "shape_narrow");
    }

    void repeatInterleaveInt()
    {
        // GQA's k.repeat_interleave(2, dim=1) of [1, 2, 3] -> [1, 4, 3]; without dim: the flattened input, each
        // element twice.
        Case c;
        c.in("x", { 1, 2, 3 }, values(6, 18));
        const auto x = c.inputs[0].values;
        c.op("a", "repeat_interleave.self_int",
            json::array({ arg("self", T("x")), arg("repeats", I(2)), arg("dim", I(1)) }), { 1, 4, 3 },
            tabulate({ 1, 4, 3 }, [&](const Shape& i) { return x[std::size_t(i[1] / 2 * 3 + i[2])]; }));
        c.op("b", "repeat_interleave.self_int", json::array({ arg("self", T("x")), arg("repeats", I(2)) }), { 12 },
            tabulate({ 12 }, [&](const Shape& i) { return x[std::size_t(i[0] / 2)]; }));
        QVERIFY_RUNS_ON_RUNTIME(c, "shape_repeat_interleave_int");
    }

    void repeatInterleaveTensor()
    {
        // x.repeat_interleave(torch.tensor([1, 0, 2]), dim=0, output_size=3) of [3, 2], and a one-element repeats
        // tensor (every row 2 times, the output length as the dump records it).
        Case c;
        c.in("x", { 3, 2 }, values(6, 19)).in("r", { 3 }, { 1, 0, 2 }, kLong).in("r1", { 1 }, { 2 }, kLong);
        const auto x = c.inputs[0].values;
        c.op("a", "repeat_interleave.self_Tensor",
            json::array({ arg("self", T("x")), arg("repeats", T("r")), arg("dim", I(0)), kwarg("output_size", I(3)) }),
            { 3, 2 }, { x[0], x[1], x[4], x[5], x[4], x[5] });
        c.op("b", "repeat_interleave.self_Tensor",
            json::array({ arg("self", T("x")), arg("repeats", T("r1")), arg("dim", I(0)) }), { 6, 2 },
            tabulate({ 6, 2 }, [&](const Shape& i) { return x[std::size_t(i[0] / 2 * 2 + i[1])]; }));
        QVERIFY_RUNS_ON_RUNTIME(c, "shape_repeat_interleave_tensor");
    }

    void flipAndRoll()
    {
        Case c;
        c.in("x", { 3, 4 }, values(12, 20));
        const auto x = c.inputs[0].values;
        const Shape xs { 3, 4 };
        auto wrap = [](std::int64_t v, std::int64_t n) { return ((v % n) + n) % n; };
        c.op("f", "flip.default", json::array({ arg("self", T("x")), arg("dims", Ints({ 0, 1 })) }), xs,
            tabulate(xs, [&](const Shape& i) {
                return x[rowMajorOffset(xs, { 2 - i[0], 3 - i[1] })];
            }));
        // roll(shifts=(1, -1), dims=(0, 1)): out[i][j] = x[i - 1][j + 1].
        c.op("r", "roll.default",
            json::array({ arg("self", T("x")), arg("shifts", Ints({ 1, -1 })), arg("dims", Ints({ 0, 1 })) }), xs,
            tabulate(xs, [&](const Shape& i) {
                return x[rowMajorOffset(xs, { wrap(i[0] - 1, 3), wrap(i[1] + 1, 4) })];
            }));
        // roll(shifts=5) without dims: the flattened tensor rolled.
        c.op("g", "roll.default", json::array({ arg("self", T("x")), arg("shifts", Ints({ 5 })) }), xs,
            tabulate(
                xs, [&](const Shape& i) { return x[std::size_t(wrap(std::int64_t(rowMajorOffset(xs, i)) - 5, 12))]; }));
        QVERIFY_RUNS_ON_RUNTIME(c, "shape_flip_roll");
    }

    void meshgrid_data()
    {
        QTest::addColumn<QString>("indexing");
        QTest::newRow("ij") << "ij";
        QTest::newRow("xy") << "xy";
        QTest::newRow("default") << "";
    }

    void meshgrid()
    {
        QFETCH(QString, indexing);
        Case c;
        c.in("a", { 2 }, { 1, 2 }).in("b", { 3 }, { 10, 20, 30 });
        const bool xy = indexing == "xy";
        const Shape s = xy ? Shape { 3, 2 } : Shape { 2, 3 };
        json args = json::array({ arg("tensors", Tensors({ "a", "b" })) });
        if (!indexing.isEmpty())
            args.push_back(kwarg("indexing", S(indexing.toStdString())));
        c.dump.listNode(
            "m", indexing.isEmpty() ? "meshgrid.default" : "meshgrid.indexing", args, { { "ga", s }, { "gb", s } });
        c.dump.output("ga");
        c.dump.output("gb");
        c.expect(s, tabulate(s, [&](const Shape& i) { return 1.0 + double(xy ? i[1] : i[0]); }));
        c.expect(s, tabulate(s, [&](const Shape& i) { return 10.0 * double(1 + (xy ? i[0] : i[1])); }));
        QVERIFY_RUNS_ON_RUNTIME(c, "shape_meshgrid");
    }

    void transposeFamily()
    {
        Case c;
        c.in("x", { 2, 3, 4 }, values(24, 21)).in("m", { 2, 3 }, values(6, 22));
        const auto x = c.inputs[0].values;
        const auto m = c.inputs[1].values;
        const Shape xs { 2, 3, 4 };
        const auto swapped = tabulate({ 4, 3, 2 }, [&](const Shape& i) {
            return x[rowMajorOffset(xs, { i[2], i[1], i[0] })];
        });
        c.op("a", "swapaxes.default", json::array({ arg("self", T("x")), arg("axis0", I(0)), arg("axis1", I(2)) }),
            { 4, 3, 2 }, swapped);
        c.op("b", "swapdims.default", json::array({ arg("self", T("x")), arg("dim0", I(-1)), arg("dim1", I(0)) }),
            { 4, 3, 2 }, swapped);
        c.op("t", "transpose.int", json::array({ arg("self", T("x")), arg("dim0", I(0)), arg("dim1", I(2)) }),
            { 4, 3, 2 }, swapped);
        c.op("mt", "t.default", json::array({ arg("self", T("m")) }), { 3, 2 }, { m[0], m[3], m[1], m[4], m[2], m[5] });
        // A permuted view made contiguous.
        c.dump.node(
            "p", "permute.default", json::array({ arg("self", T("x")), arg("dims", Ints({ 2, 1, 0 })) }), { 4, 3, 2 });
        c.dump.strides("p", { 1, 4, 12 });
        c.op("cont", "contiguous.default", json::array({ arg("self", T("p")) }), { 4, 3, 2 }, swapped);
        QVERIFY_RUNS_ON_RUNTIME(c, "shape_transpose");
    }

    void dtypeConversions()
    {
        // type_as, to(dtype=..., layout/device kwargs), to(other), to(device, dtype).
        Case c;
        c.in("x", { 4 }, { -1.5, 0.25, 2.75, 3.0 }).in("i", { 4 }, { 1, 2, 3, 4 }, kLong);
        c.op("a", "type_as.default", json::array({ arg("self", T("x")), arg("other", T("i")) }), { 4 }, { -1, 0, 2, 3 },
            kLong);
        c.op("b", "to.dtype_layout", json::array({ arg("self", T("i")), kwarg("dtype", Dtype(kFloat)) }), { 4 },
            { 1, 2, 3, 4 });
        c.op("c", "to.other", json::array({ arg("self", T("i")), arg("other", T("x")) }), { 4 }, { 1, 2, 3, 4 });
        c.op("d", "to.dtype", json::array({ arg("self", T("x")), arg("dtype", Dtype(kInt)) }), { 4 }, { -1, 0, 2, 3 },
            kInt);
        QVERIFY_RUNS_ON_RUNTIME(c, "shape_to");
    }

    void stackFamily()
    {
        Case c;
        c.in("a", { 3 }, { 1, 2, 3 }).in("b", { 3 }, { 4, 5, 6 }).in("m", { 2, 2 }, { 1, 2, 3, 4 });
        c.op("s", "stack.default", json::array({ arg("tensors", Tensors({ "a", "b" })), arg("dim", I(1)) }), { 3, 2 },
            { 1, 4, 2, 5, 3, 6 });
        c.op(
            "h", "hstack.default", json::array({ arg("tensors", Tensors({ "a", "b" })) }), { 6 }, { 1, 2, 3, 4, 5, 6 });
        c.op("hm", "hstack.default", json::array({ arg("tensors", Tensors({ "m", "m" })) }), { 2, 4 },
            { 1, 2, 1, 2, 3, 4, 3, 4 });
        c.op("v", "vstack.default", json::array({ arg("tensors", Tensors({ "a", "b" })) }), { 2, 3 },
            { 1, 2, 3, 4, 5, 6 });
        c.op("dd", "dstack.default", json::array({ arg("tensors", Tensors({ "a", "b" })) }), { 1, 3, 2 },
            { 1, 4, 2, 5, 3, 6 });
        c.op("cs", "column_stack.default", json::array({ arg("tensors", Tensors({ "a", "b" })) }), { 3, 2 },
            { 1, 4, 2, 5, 3, 6 });
        c.op("a1", "atleast_2d.default", json::array({ arg("self", T("a")) }), { 1, 3 }, { 1, 2, 3 });
        c.op("a3", "atleast_3d.default", json::array({ arg("self", T("m")) }), { 2, 2, 1 }, { 1, 2, 3, 4 });
        QVERIFY_RUNS_ON_RUNTIME(c, "shape_stack");
    }

    void atleastOf0dTensors()
    {
        Case c;
        c.in("s", {}, { 7 });
        c.op("a", "atleast_1d.default", json::array({ arg("self", T("s")) }), { 1 }, { 7 });
        c.op("b", "atleast_3d.default", json::array({ arg("self", T("s")) }), { 1, 1, 1 }, { 7 });
        QVERIFY_RUNS_ON_RUNTIME(c, "shape_atleast_0d");
    }

    void diagEmbedAndDiagonal_data()
    {
        QTest::addColumn<int>("offset");
        QTest::addColumn<int>("dim1");
        QTest::addColumn<int>("dim2");
        QTest::newRow("main") << 0 << -2 << -1;
        QTest::newRow("above") << 1 << -2 << -1;
        QTest::newRow("below, dims 0 and 2") << -1 << 0 << 2;
    }

    void diagEmbedAndDiagonal()
    {
        QFETCH(int, offset);
        QFETCH(int, dim1);
        QFETCH(int, dim2);
        // diag_embed of [2, 3]: out has n = 3 + |offset| along dim1 and dim2; out[.., i, .., j] = x[b, k] where
        // j - i = offset and k = min(i, j), 0 elsewhere.
        Case c;
        c.in("x", { 2, 3 }, values(6, 23));
        const auto x = c.inputs[0].values;
        const std::int64_t n = 3 + std::abs(offset);
        const int d1 = dim1 < 0 ? dim1 + 3 : dim1;
        const int d2 = dim2 < 0 ? dim2 + 3 : dim2;
        Shape s(3, 0);
        s[std::size_t(d1)] = n;
        s[std::size_t(d2)] = n;
        const int bd = 3 - d1 - d2; // the batch dimension
        s[std::size_t(bd)] = 2;
        json args = json::array({ arg("self", T("x")) });
        if (offset != 0)
            args.push_back(arg("offset", I(offset)));
        if (dim1 != -2)
            args.push_back(arg("dim1", I(dim1)));
        if (dim2 != -1)
            args.push_back(arg("dim2", I(dim2)));
        const auto want = tabulate(s, [&](const Shape& i) {
            const auto r = i[std::size_t(d1)];
            const auto col = i[std::size_t(d2)];
            if (col - r != offset)
                return 0.0;
            return x[std::size_t(i[std::size_t(bd)] * 3 + std::min(r, col))];
        });
        c.op("y", "diag_embed.default", args, s, want);
        // diagonal(y, offset, dim1, dim2) gives x back.
        json dargs = json::array({ arg("self", T("y")) });
        if (offset != 0)
            dargs.push_back(arg("offset", I(offset)));
        dargs.push_back(arg("dim1", I(dim1)));
        dargs.push_back(arg("dim2", I(dim2)));
        c.dump.node("dg", "diagonal.default", dargs, { 2, 3 });
        c.dump.node("z", "clone.default", json::array({ arg("self", T("dg")) }), { 2, 3 });
        c.dump.output("z");
        c.expect({ 2, 3 }, x);
        QVERIFY_RUNS_ON_RUNTIME(c, "shape_diag_embed");
    }

    void tileAndRepeat()
    {
        Case c;
        c.in("x", { 2, 3 }, values(6, 24));
        const auto x = c.inputs[0].values;
        // tile((2,)) of [2, 3] repeats the last dimension: [2, 6]; tile((2, 1, 1)): [2, 2, 3].
        c.op("a", "tile.default", json::array({ arg("self", T("x")), arg("dims", Ints({ 2 })) }), { 2, 6 },
            tabulate({ 2, 6 }, [&](const Shape& i) { return x[std::size_t(i[0] * 3 + i[1] % 3)]; }));
        c.op("b", "tile.default", json::array({ arg("self", T("x")), arg("dims", Ints({ 2, 1, 1 })) }), { 2, 2, 3 },
            tabulate({ 2, 2, 3 }, [&](const Shape& i) { return x[std::size_t(i[1] * 3 + i[2])]; }));
        QVERIFY_RUNS_ON_RUNTIME(c, "shape_tile");
    }

    void scatterAndGatherFamily()
    {
        Case c;
        c.in("x", { 3, 4 }, values(12, 25)).in("src", { 4 }, { 9, 8, 7, 6 }).in("s2", { 3, 2 }, values(6, 26));
        c.in("idx", { 2 }, { 2, 0 }, kLong).in("g", { 3, 2 }, { 3, 0, 1, 1, 0, 2 }, kLong);
        const auto x = c.inputs[0].values;
        const auto s2 = c.inputs[2].values;
        const Shape xs { 3, 4 };
        c.op("ss", "select_scatter.default",
            json::array({ arg("self", T("x")), arg("src", T("src")), arg("dim", I(0)), arg("index", I(1)) }), xs,
            tabulate(xs, [&](const Shape& i) { return i[0] == 1 ? 9.0 - double(i[1]) : x[rowMajorOffset(xs, i)]; }));
        c.op("sl", "slice_scatter.default",
            json::array({ arg("self", T("x")), arg("src", T("s2")), arg("dim", I(1)), arg("start", I(1)),
                arg("end", I(4)), arg("step", I(2)) }),
            xs, tabulate(xs, [&](const Shape& i) {
                return i[1] % 2 == 1 ? s2[std::size_t(i[0] * 2 + i[1] / 2)] : x[rowMajorOffset(xs, i)];
            }));
        c.op("is", "index_select.default",
            json::array({ arg("self", T("x")), arg("dim", I(0)), arg("index", T("idx")) }), { 2, 4 },
            tabulate({ 2, 4 }, [&](const Shape& i) {
                return x[rowMajorOffset(xs, { i[0] == 0 ? 2 : 0, i[1] })];
            }));
        const std::vector<std::int64_t> g { 3, 0, 1, 1, 0, 2 };
        const auto gathered = tabulate({ 3, 2 }, [&](const Shape& i) {
            return x[rowMajorOffset(xs, { i[0], g[std::size_t(i[0] * 2 + i[1])] })];
        });
        c.op("ga", "gather.default", json::array({ arg("self", T("x")), arg("dim", I(1)), arg("index", T("g")) }),
            { 3, 2 }, gathered);
        c.op("td", "take_along_dim.default",
            json::array({ arg("self", T("x")), arg("indices", T("g")), arg("dim", I(1)) }), { 3, 2 }, gathered);
        // No dim: indices into the flattened input.
        c.op("tf", "take_along_dim.default", json::array({ arg("self", T("x")), arg("indices", T("g")) }), { 6 },
            { x[3], x[0], x[1], x[1], x[0], x[2] });
        QVERIFY_RUNS_ON_RUNTIME(c, "shape_scatter_gather");
    }

    void repeatInterleaveOfADynamicSequence()
    {
        // GQA: k [1, 2, s0, 3] repeated per head (repeat_interleave(2, dim=1)), run at s0 = 5.
        const Shape xs { 1, 2, 5, 3 };
        Case c;
        c.in("x", xs, values(30, 28));
        c.dump.dynamic("x", 2, "s0", 5);
        const auto x = c.inputs[0].values;
        c.op("y", "repeat_interleave.self_int",
            json::array({ arg("self", T("x")), arg("repeats", I(2)), arg("dim", I(1)) }), { 1, 4, 5, 3 },
            tabulate({ 1, 4, 5, 3 }, [&](const Shape& i) {
                return x[rowMajorOffset(xs, { 0, i[1] / 2, i[2], i[3] })];
            }));
        c.dump.dynamic("y", 2, "s0", 5);
        QVERIFY_RUNS_ON_RUNTIME(c, "shape_repeat_interleave_dynamic");
    }

    void chunkMovedimExpandAsOfADynamicBatch()
    {
        // x [s0, 6]: chunk(2, -1) along the static dimension, movedim(0, 1), expand_as of a [s0, 1] column; s0 = 3.
        Case c;
        c.in("x", { 3, 6 }, values(18, 29)).in("col", { 3, 1 }, values(3, 30));
        c.dump.dynamic("x", 0, "s0", 3);
        c.dump.dynamic("col", 0, "s0", 3);
        const auto x = c.inputs[0].values;
        const auto col = c.inputs[1].values;
        c.dump.listNode("ch", "chunk.default",
            json::array({ arg("self", T("x")), arg("chunks", I(2)), arg("dim", I(-1)) }),
            { { "c0", { 3, 3 } }, { "c1", { 3, 3 } } });
        c.dump.dynamic("c0", 0, "s0", 3);
        c.dump.dynamic("c1", 0, "s0", 3);
        c.dump.output("c0");
        c.dump.output("c1");
        c.expect({ 3, 3 }, tabulate({ 3, 3 }, [&](const Shape& i) { return x[std::size_t(i[0] * 6 + i[1])]; }));
        c.expect({ 3, 3 }, tabulate({ 3, 3 }, [&](const Shape& i) { return x[std::size_t(i[0] * 6 + 3 + i[1])]; }));
        c.op("m", "movedim.int", json::array({ arg("self", T("x")), arg("source", I(0)), arg("destination", I(1)) }),
            { 6, 3 }, tabulate({ 6, 3 }, [&](const Shape& i) { return x[std::size_t(i[1] * 6 + i[0])]; }));
        c.dump.dynamic("m", 1, "s0", 3);
        c.op("e", "expand_as.default", json::array({ arg("self", T("col")), arg("other", T("x")) }), { 3, 6 },
            tabulate({ 3, 6 }, [&](const Shape& i) { return col[std::size_t(i[0])]; }));
        c.dump.dynamic("e", 0, "s0", 3);
        QVERIFY_RUNS_ON_RUNTIME(c, "shape_dynamic_batch");
    }

    void moreOverloads()
    {
        // unsafe_chunk, moveaxis, atleast_1d of a sequence, to(device, dtype).
        Case c;
        c.in("x", { 4, 2 }, values(8, 31)).in("s", {}, { 3 });
        const auto x = c.inputs[0].values;
        c.dump.listNode("uc", "unsafe_chunk.default", json::array({ arg("self", T("x")), arg("chunks", I(2)) }),
            { { "u0", { 2, 2 } }, { "u1", { 2, 2 } } });
        c.dump.output("u0");
        c.dump.output("u1");
        c.expect({ 2, 2 }, { x[0], x[1], x[2], x[3] }).expect({ 2, 2 }, { x[4], x[5], x[6], x[7] });
        c.op("ma", "moveaxis.int", json::array({ arg("self", T("x")), arg("source", I(1)), arg("destination", I(0)) }),
            { 2, 4 }, tabulate({ 2, 4 }, [&](const Shape& i) { return x[std::size_t(i[1] * 2 + i[0])]; }));
        c.dump.listNode("al", "atleast_1d.Sequence", json::array({ arg("tensors", Tensors({ "s", "x" })) }),
            { { "a0", { 1 } }, { "a1", { 4, 2 } } });
        c.dump.output("a0");
        c.dump.output("a1");
        c.expect({ 1 }, { 3 }).expect({ 4, 2 }, x);
        c.op("td", "to.device",
            json::array({ arg("self", T("x")), arg("device", json { { "as_device", { { "type", "cpu" } } } }),
                arg("dtype", Dtype(kDouble)) }),
            { 4, 2 }, x, kDouble);
        QVERIFY_RUNS_ON_RUNTIME(c, "shape_more_overloads");
    }

    void repeatInterleaveTensorWithoutDimAndSequences()
    {
        // repeat_interleave(x, tensor([2]), output_size=8) without dim: the flattened input, each element twice;
        // atleast_2d / atleast_3d of sequences.
        Case c;
        c.in("x", { 2, 2 }, values(4, 32)).in("r", { 1 }, { 2 }, kLong).in("v", { 3 }, { 1, 2, 3 });
        const auto x = c.inputs[0].values;
        c.op("ri", "repeat_interleave.self_Tensor",
            json::array({ arg("self", T("x")), arg("repeats", T("r")), kwarg("output_size", I(8)) }), { 8 },
            tabulate({ 8 }, [&](const Shape& i) { return x[std::size_t(i[0] / 2)]; }));
        c.dump.listNode("a2", "atleast_2d.Sequence", json::array({ arg("tensors", Tensors({ "v", "x" })) }),
            { { "a2v", { 1, 3 } }, { "a2x", { 2, 2 } } });
        c.dump.listNode("a3", "atleast_3d.Sequence", json::array({ arg("tensors", Tensors({ "v", "x" })) }),
            { { "a3v", { 1, 3, 1 } }, { "a3x", { 2, 2, 1 } } });
        for (const char* o : { "a2v", "a2x", "a3v", "a3x" })
            c.dump.output(o);
        c.expect({ 1, 3 }, { 1, 2, 3 }).expect({ 2, 2 }, x).expect({ 1, 3, 1 }, { 1, 2, 3 }).expect({ 2, 2, 1 }, x);
        QVERIFY_RUNS_ON_RUNTIME(c, "shape_repeat_interleave_sequences");
    }

    void narrowWithATensorStartIsRefused()
    {
        Case c;
        c.in("x", { 4 }, values(4, 33)).in("st", {}, { 1 }, kLong);
        c.dump.node("nr", "narrow.Tensor",
            json::array({ arg("self", T("x")), arg("dim", I(0)), arg("start", T("st")), arg("length", I(2)) }), { 2 });
        c.dump.output("nr");
        QVERIFY_ERROR(emitOnly(c, "shape_narrow_refused"), ErrorCode::Unsupported, "nr", "narrow with a tensor start");
    }

    void takeAlongDimBroadcasts()
    {
        // torch.take_along_dim(x [2, 3], idx [1, 2], dim=1): idx broadcast over the rows.
        Case c;
        c.in("x", { 2, 3 }, values(6, 27)).in("i", { 1, 2 }, { 2, 1 }, kLong);
        const auto x = c.inputs[0].values;
        c.op("y", "take_along_dim.default",
            json::array({ arg("self", T("x")), arg("indices", T("i")), arg("dim", I(1)) }), { 2, 2 },
            { x[2], x[1], x[5], x[4] });
        QVERIFY_RUNS_ON_RUNTIME(c, "shape_take_along_dim_broadcast");
    }
};

QTEST_GUILESS_MAIN(TestLoweringShape)
#include "tst_lowering_shape.moc"
