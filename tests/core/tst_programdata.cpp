// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// Where a tensor's stored bytes are (pte/program.h): constantData runs to the next offset (the padding is attached,
// the diff compares it), mutableData is the runtime's read of a planned tensor's initial state, nbytes from its
// offset in mutable_data_segments[0] whatever the next offset says. The reference interpreter and the program diff
// both read initial state through mutableData.
#include "pte/program.h"

#include <QTest>

#include <vector>

using namespace pte;

namespace {

Bytes pattern(std::size_t n)
{
    std::vector<std::uint8_t> v(n);
    for (std::size_t i = 0; i < n; ++i)
        v[i] = std::uint8_t(10 + i);
    return Bytes::fromVector(std::move(v));
}

/** Segment 0: constants; segment 1: mutable initial state; 24 bytes each. */
Program program()
{
    Program p;
    p.segments.push_back(DataSegment { 0, 24, pattern(24), 1, {} });
    p.segments.push_back(DataSegment { 32, 24, pattern(24), 1, {} });
    p.constantSegment = SubsegmentOffsets { 0, { 0, 0, 8 } };
    p.mutableDataSegments = std::vector<SubsegmentOffsets> { SubsegmentOffsets { 1, { 0, 0, 8 } } };
    return p;
}

} // namespace

class TestProgramData : public QObject
{
    Q_OBJECT
private slots:
    void mutableDataIsNbytesFromItsOffset()
    {
        const Program p = program();
        // Tensor 1 starts at 0 and holds 16 bytes: they run past the next offset (8), as the runtime reads them.
        const Bytes first = mutableData(p, 1, 16);
        QCOMPARE(first.size(), std::size_t(16));
        QCOMPARE(int(first.data()[0]), 10);
        QCOMPARE(int(first.data()[15]), 25);
        const Bytes second = mutableData(p, 2, 16);
        QCOMPARE(second.size(), std::size_t(16));
        QCOMPARE(int(second.data()[0]), 18);
    }

    void mutableDataOutOfRangeIsEmpty()
    {
        const Program p = program();
        QCOMPARE(mutableData(p, 0, 4).size(), std::size_t(0)); // index 0: no initial state
        QCOMPARE(mutableData(p, 3, 4).size(), std::size_t(0)); // no such offset
        QCOMPARE(mutableData(p, 2, 17).size(), std::size_t(0)); // 8 + 17 runs past the 24-byte segment
        Program none = p;
        none.mutableDataSegments.reset();
        QCOMPARE(mutableData(none, 1, 4).size(), std::size_t(0));
    }

    void constantDataRunsToTheNextOffset()
    {
        const Program p = program();
        QCOMPARE(constantData(p, 1).size(), std::size_t(8));
        QCOMPARE(constantData(p, 2).size(), std::size_t(16));
        QCOMPARE(constantData(p, 0).size(), std::size_t(0));
    }
};

QTEST_GUILESS_MAIN(TestProgramData)
#include "tst_programdata.moc"
