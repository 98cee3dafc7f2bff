// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// The one reading of a tensor element as a number (pte/elementvalue.h), over every ScalarType code: what the graph
// dumps' weights, logged ETDump tensors, the reference interpreter and the program diff read from tensor bytes.
#include "diff/contentcompare.h"
#include "pte/elementvalue.h"
#include "pte/graph.h"

#include <QTest>

#include <array>
#include <cmath>
#include <cstring>
#include <limits>
#include <optional>
#include <set>

using namespace pte;

namespace {

/** The little-endian bytes of `v`, padded to 8. */
template <typename T> std::array<std::uint8_t, 8> bytesOf(T v)
{
    std::array<std::uint8_t, 8> b {};
    std::memcpy(b.data(), &v, sizeof v);
    return b;
}

template <typename T> std::optional<double> read(ScalarType t, T v, ElementReading r = ElementReading::Stored)
{
    const auto b = bytesOf(v);
    return elementValue(t, b.data(), r);
}

bool isNan(std::optional<double> v) { return v && std::isnan(*v); }

} // namespace

class TestElementValue : public QObject
{
    Q_OBJECT
private slots:
    void integersReadExactly()
    {
        QCOMPARE(read(ScalarType::Byte, std::uint8_t(200)), 200.0);
        QCOMPARE(read(ScalarType::Char, std::int8_t(-1)), -1.0);
        QCOMPARE(read(ScalarType::Short, std::int16_t(-32768)), -32768.0);
        QCOMPARE(read(ScalarType::Int, std::int32_t(-2000000000)), -2000000000.0);
        QCOMPARE(read(ScalarType::Long, std::int64_t(-(std::int64_t(1) << 40))), -1099511627776.0);
        QCOMPARE(read(ScalarType::UInt16, std::uint16_t(65535)), 65535.0);
        QCOMPARE(read(ScalarType::UInt32, std::uint32_t(4000000000u)), 4000000000.0);
        // Beyond 2^53 a double rounds: to nearest, as the C++ conversion does.
        QCOMPARE(read(ScalarType::Long, (std::int64_t(1) << 53) + 1), 9007199254740992.0);
        QCOMPARE(read(ScalarType::UInt64, std::numeric_limits<std::uint64_t>::max()), 18446744073709551616.0);
        // Only elementSize bytes count: the byte after a Char does not.
        const std::array<std::uint8_t, 2> charThenJunk = { 0x80, 0xFF };
        QCOMPARE(elementValue(ScalarType::Char, charThenJunk.data()), -128.0);
    }

    void floatsReadAsTheyAre()
    {
        QCOMPARE(read(ScalarType::Float, 0.1f), double(0.1f));
        QCOMPARE(read(ScalarType::Double, -2.5e300), -2.5e300);
        QCOMPARE(
            read(ScalarType::Float, std::numeric_limits<float>::infinity()), std::numeric_limits<double>::infinity());
        QVERIFY(isNan(read(ScalarType::Float, std::numeric_limits<float>::quiet_NaN())));
    }

    void halfWidensExactly()
    {
        QCOMPARE(read(ScalarType::Half, std::uint16_t(0x3C00)), 1.0);
        QCOMPARE(read(ScalarType::Half, std::uint16_t(0xC000)), -2.0);
        QCOMPARE(read(ScalarType::Half, std::uint16_t(0x7BFF)), 65504.0); // the largest half
        QCOMPARE(read(ScalarType::Half, std::uint16_t(0x0001)), std::ldexp(1.0, -24)); // the smallest subnormal
        QCOMPARE(read(ScalarType::Half, std::uint16_t(0x8000)), -0.0);
        QVERIFY(std::signbit(*read(ScalarType::Half, std::uint16_t(0x8000))));
        QCOMPARE(read(ScalarType::Half, std::uint16_t(0xFC00)), -std::numeric_limits<double>::infinity());
        QVERIFY(isNan(read(ScalarType::Half, std::uint16_t(0x7E00))));
    }

    void bfloat16WidensExactly()
    {
        QCOMPARE(read(ScalarType::BFloat16, std::uint16_t(0x3F80)), 1.0);
        QCOMPARE(read(ScalarType::BFloat16, std::uint16_t(0x4049)), 3.140625);
        QCOMPARE(read(ScalarType::BFloat16, std::uint16_t(0x0001)), double(std::ldexp(1.0f, -133)));
        QCOMPARE(read(ScalarType::BFloat16, std::uint16_t(0xFF80)), -std::numeric_limits<double>::infinity());
        QVERIFY(isNan(read(ScalarType::BFloat16, std::uint16_t(0x7FC0))));
    }

    void boolIsItsByteOrTrueFalse()
    {
        for (const auto r : { ElementReading::Stored, ElementReading::Meaning }) {
            QCOMPARE(read(ScalarType::Bool, std::uint8_t(0), r), 0.0);
            QCOMPARE(read(ScalarType::Bool, std::uint8_t(1), r), 1.0);
        }
        // A byte other than 0 and 1: stored, itself; meant, true.
        QCOMPARE(read(ScalarType::Bool, std::uint8_t(2)), 2.0);
        QCOMPARE(read(ScalarType::Bool, std::uint8_t(0xFF), ElementReading::Meaning), 1.0);
    }

    void quantizedIsItsIntegerOrNothing()
    {
        QCOMPARE(read(ScalarType::QInt8, std::int8_t(-5)), -5.0);
        QCOMPARE(read(ScalarType::QUInt8, std::uint8_t(250)), 250.0);
        QCOMPARE(read(ScalarType::QInt32, std::int32_t(-70000)), -70000.0);
        for (const auto t : { ScalarType::QInt8, ScalarType::QUInt8, ScalarType::QInt32 })
            QVERIFY2(!read(t, std::int32_t(1), ElementReading::Meaning), scalarTypeShortName(t));
    }

    void everyCodeHasItsReading()
    {
        // The dtypes without a plain numeric reading, in either reading: complex, the sub-byte quantized and
        // bit-packed types, float8; and codes outside 0..29.
        const std::set<ScalarType> none = { ScalarType::ComplexHalf, ScalarType::ComplexFloat,
            ScalarType::ComplexDouble, ScalarType::QUInt4x2, ScalarType::QUInt2x4, ScalarType::Bits1x8,
            ScalarType::Bits2x4, ScalarType::Bits4x2, ScalarType::Bits8, ScalarType::Bits16, ScalarType::Float8e5m2,
            ScalarType::Float8e4m3fn, ScalarType::Float8e5m2fnuz, ScalarType::Float8e4m3fnuz };
        const std::set<ScalarType> storedOnly = { ScalarType::QInt8, ScalarType::QUInt8, ScalarType::QInt32 };
        const std::array<std::uint8_t, 16> zeros {};
        for (int code = -1; code <= 30; ++code) {
            const auto t = ScalarType(code);
            const bool valid = code >= 0 && code <= 29;
            const std::string name = std::to_string(code) + " " + scalarTypeShortName(t);
            const auto stored = elementValue(t, zeros.data(), ElementReading::Stored);
            const auto meaning = elementValue(t, zeros.data(), ElementReading::Meaning);
            const bool hasStored = valid && none.count(t) == 0;
            QVERIFY2(stored.has_value() == hasStored, name.c_str());
            QVERIFY2(meaning.has_value() == (hasStored && storedOnly.count(t) == 0), name.c_str());
            if (stored)
                QVERIFY2(*stored == 0.0, name.c_str()); // all-zero bytes are zero in every numeric dtype
        }
    }

    void weightsReadTheMeaning()
    {
        // pte::tensorElements (graph-dump weights, logged ETDump tensors, bundled values): a Bool as true/false,
        // quantized weights not at all.
        WeightTensor t;
        t.meta.dtype = ScalarType::Bool;
        t.meta.sizes = { SymInt { .value = 3 } };
        t.data = Bytes::fromVector({ 0, 1, 2 });
        QCOMPARE(tensorElements(t, 10), std::optional(std::vector<double> { 0, 1, 1 }));
        t.meta.dtype = ScalarType::QInt8;
        QVERIFY(!tensorElements(t, 10));
        t.meta.dtype = ScalarType::ComplexHalf;
        t.meta.sizes = { SymInt { .value = 1 } };
        t.data = Bytes::fromVector({ 0, 0, 0, 0 });
        QVERIFY(!tensorElements(t, 10));
    }

    void diffReadsTheStoredNumber()
    {
        // The program diff's element-wise difference: quantized elements and Bool bytes as stored.
        const auto q = diff::compareElements(
            Bytes::fromVector({ 0xFB, 3 }), Bytes::fromVector({ 2, 3 }), ScalarType::QInt8, { 2 }, { 0 }, 4);
        QVERIFY(q);
        QCOMPARE(q->differing, std::uint64_t(1));
        QCOMPARE(q->maxAbs, 7.0); // -5 against 2
        const auto b = diff::compareElements(
            Bytes::fromVector({ 1 }), Bytes::fromVector({ 2 }), ScalarType::Bool, { 1 }, { 0 }, 4);
        QVERIFY(b);
        QCOMPARE(b->maxAbs, 1.0);
        const auto c = diff::compareElements(Bytes::fromVector({ 0, 0, 0, 0 }), Bytes::fromVector({ 0, 0x3C, 0, 0 }),
            ScalarType::ComplexHalf, { 1 }, { 0 }, 4);
        QVERIFY(c);
        QCOMPARE(c->differing, std::uint64_t(1));
        QCOMPARE(c->maxAbs, 0.0); // compared as bytes only
    }
};

QTEST_GUILESS_MAIN(TestElementValue)
#include "tst_elementvalue.moc"
