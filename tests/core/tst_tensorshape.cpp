// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// The shape rules every stage shares (pte/tensorshape.h): contiguous strides and numpy broadcasting, for the int32
// sizes the lowering works in and the int64 sizes of the reference interpreter, with the stride types each uses.
#include "pte/tensorshape.h"

#include <QTest>

#include <cstdint>
#include <optional>
#include <vector>

using namespace pte;

using I32 = std::vector<std::int32_t>;
using I64 = std::vector<std::int64_t>;
using Sz = std::vector<std::size_t>;

class TestTensorShape : public QObject
{
    Q_OBJECT
private slots:
    void contiguousStridesAreRowMajor()
    {
        QCOMPARE(contiguousStrides(I32 { 2, 3, 4 }), (I64 { 12, 4, 1 }));
        QCOMPARE(contiguousStrides(I64 { 5 }), (I64 { 1 }));
        QCOMPARE(contiguousStrides(I32 {}), I64 {});
        QCOMPARE(contiguousStrides<std::size_t>(I64 { 1, 3, 224, 224 }), (Sz { 150528, 50176, 224, 1 }));
        QCOMPARE(contiguousStrides<std::size_t>(Sz { 2, 3 }), (Sz { 3, 1 }));
        // int32 sizes whose product does not fit an int32: the strides are int64.
        QCOMPARE(contiguousStrides(I32 { 65536, 65536, 2 }), (I64 { 131072, 2, 1 }));
        QCOMPARE(contiguousStrides(I32 { 3, 65536, 65536 }).front(), std::int64_t(1) << 32);
    }

    void aSizeZeroCountsAsOne()
    {
        // As torch: an empty tensor's strides are those of the same tensor with its 0 sizes as 1, so it keeps the
        // dim order of a non-empty one.
        QCOMPARE(contiguousStrides(I32 { 2, 0, 3 }), (I64 { 3, 3, 1 }));
        QCOMPARE(contiguousStrides(I64 { 0, 0 }), (I64 { 1, 1 }));
        QCOMPARE(contiguousStrides<std::size_t>(I64 { 4, 0 }), (Sz { 1, 1 }));
        QCOMPARE(contiguousStrides<std::size_t>(Sz { 0, 5 }), (Sz { 5, 1 }));
    }

    void broadcastingAlignsOnTheRight()
    {
        QCOMPARE(broadcastShapes(I32 { 2, 3 }, I32 { 3 }), std::optional(I32 { 2, 3 }));
        QCOMPARE(broadcastShapes(I32 { 3 }, I32 { 2, 3 }), std::optional(I32 { 2, 3 }));
        QCOMPARE(broadcastShapes(I64 { 4, 1, 5 }, I64 { 3, 1 }), std::optional(I64 { 4, 3, 5 }));
        QCOMPARE(broadcastShapes(I64 { 1 }, I64 { 1, 1, 1 }), std::optional(I64 { 1, 1, 1 }));
        QCOMPARE(broadcastShapes(Sz { 8, 1 }, Sz { 1, 6 }), std::optional(Sz { 8, 6 }));
        // Scalars broadcast to anything; two scalars to a scalar (not a failure).
        QCOMPARE(broadcastShapes(I32 {}, I32 { 7 }), std::optional(I32 { 7 }));
        QCOMPARE(broadcastShapes(I64 {}, I64 {}), std::optional(I64 {}));
    }

    void sizesMatchWhenEqualOrOne()
    {
        QCOMPARE(broadcastShapes(I32 { 2, 3 }, I32 { 4, 3 }), std::nullopt);
        QCOMPARE(broadcastShapes(I64 { 3 }, I64 { 2 }), std::nullopt);
        // A size 0 is a size like any other: it meets 1 and 0, nothing else.
        QCOMPARE(broadcastShapes(I64 { 0, 3 }, I64 { 1, 3 }), std::optional(I64 { 0, 3 }));
        QCOMPARE(broadcastShapes(I32 { 0 }, I32 { 0 }), std::optional(I32 { 0 }));
        QCOMPARE(broadcastShapes(I32 { 0 }, I32 { 2 }), std::nullopt);
    }

    // torch's channels_last and channels_last_3d, as the .pte stores dim orders (uint8) and as the lowering writes
    // them.
    void channelsLastOrdersOfRankFourAndFive()
    {
        using U8 = std::vector<std::uint8_t>;
        QVERIFY(isChannelsLastDimOrder(U8 { 0, 2, 3, 1 }));
        QVERIFY(isChannelsLastDimOrder(U8 { 0, 2, 3, 4, 1 }));
        QVERIFY(isChannelsLastDimOrder(I64 { 0, 2, 3, 1 }));
        QVERIFY(!isChannelsLastDimOrder(U8 { 0, 1, 2, 3 })); // contiguous
        QVERIFY(!isChannelsLastDimOrder(U8 { 0, 3, 2, 1 })); // spatial dimensions swapped
        QVERIFY(!isChannelsLastDimOrder(U8 { 1, 2, 3, 0 })); // batch not first
        QVERIFY(!isChannelsLastDimOrder(U8 { 0, 2, 1 })); // rank 3 has no channels-last format
        QVERIFY(!isChannelsLastDimOrder(U8 { 0, 2, 3, 4, 5, 1 }));
    }
};

QTEST_GUILESS_MAIN(TestTensorShape)
#include "tst_tensorshape.moc"
