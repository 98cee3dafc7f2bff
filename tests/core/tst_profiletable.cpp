// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// ExecuTorch's Inspector table in C++ (pte/profiletable.h): how rows are grouped, merged over runs and named, how
// durations are scaled, numpy's percentile and mean, Python's float repr, the CSV/TSV text and the summaries.
// Expected values come from the Inspector's rules as the ETDump reference states them (docs/etdump-format.md, How the
// Inspector builds its table) and from numpy's documented algorithms, worked by hand here.
#include "etdumptestutils.h"
#include "pte/profiletable.h"
#include "testutils.h"

#include <QTest>

#include <cmath>
#include <limits>

using namespace pte;
using pte::test::EtdumpBuilder;

namespace {

ProfileTable table(const EtdumpBuilder& b, const ProfileOptions& options = {})
{
    auto dump = b.read();
    if (!dump)
        return {};
    auto t = buildProfileTable(**dump, nullptr, options);
    return t ? std::move(t).value() : ProfileTable {};
}

/** Three identical executions of two kernels, the first run slower. */
EtdumpBuilder threeRuns()
{
    EtdumpBuilder b;
    b.loadBlock();
    const std::uint64_t durations[3][2] = { { 4000000, 1000000 }, { 2000000, 1500000 }, { 3000000, 500000 } };
    std::uint64_t t = 10000000;
    for (const auto& run : durations) {
        b.block("Execute");
        b.profile("native_call_add.out", 0, 0, t + 1, t + run[0] - 1).profile("OPERATOR_CALL", 0, 0, t, t + run[0]);
        b.profile("OPERATOR_CALL", 0, 1, t + run[0], t + run[0] + run[1]);
        b.profile("Method::execute", -1, 0, t - 10, t + run[0] + run[1] + 10);
        t += 100000000;
    }
    return b;
}

} // namespace

class TestProfileTable : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void numpyPercentile_data()
    {
        QTest::addColumn<std::vector<double>>("samples");
        QTest::addColumn<double>("q");
        QTest::addColumn<double>("expected");
        // h = (n - 1) * q / 100, then a + (b - a) * t (t < 0.5) or b - (b - a) * (1 - t) (t >= 0.5).
        QTest::newRow("one sample") << std::vector<double> { 5 } << 90.0 << 5.0;
        QTest::newRow("p10 of 4") << std::vector<double> { 4, 1, 3, 2 } << 10.0 << 1.0 + 1.0 * 0.30000000000000004;
        QTest::newRow("p50 of 4") << std::vector<double> { 4, 1, 3, 2 } << 50.0 << 2.5;
        QTest::newRow("p90 of 4") << std::vector<double> { 4, 1, 3, 2 } << 90.0 << 4.0 - 1.0 * (1 - 0.7000000000000002);
        QTest::newRow("p50 of 3") << std::vector<double> { 3, 1, 2 } << 50.0 << 2.0;
        QTest::newRow("p100") << std::vector<double> { 3, 1, 2 } << 100.0 << 3.0;
    }

    void numpyPercentile()
    {
        QFETCH(std::vector<double>, samples);
        QFETCH(double, q);
        QFETCH(double, expected);
        QCOMPARE(pte::numpyPercentile(samples, q), expected);
    }

    void numpyMeanSumsPairwise()
    {
        QVERIFY(std::isnan(numpyMean({})));
        QCOMPARE(numpyMean({ 1, 2, 6 }), 3.0);
        // Nine values: numpy adds the first eight in eight accumulators ((1e16 + 1) + (1 + 1)) + ... = 1e16 + 6,
        // then the ninth: 1e16 + 7 rounds to 1e16 + 8. A left-to-right sum loses every 1 (1e16 + 1 rounds to 1e16).
        std::vector<double> v(9, 1.0);
        v[0] = 1e16;
        double naive = 0;
        for (const double x : v)
            naive += x;
        QCOMPARE(naive, 1e16);
        QCOMPARE(numpyMean(v), 1.0000000000000008e16 / 9);
    }

    void pythonFloatRepr_data()
    {
        QTest::addColumn<double>("value");
        QTest::addColumn<QString>("repr");
        QTest::newRow("ms") << 14.009576 << "14.009576";
        QTest::newRow("noise") << (17776192 / 1e6 - 17504192 / 1e6) << "0.272000000000002";
        QTest::newRow("integral") << 14.0 << "14.0";
        QTest::newRow("small fixed") << 0.0001 << "0.0001";
        QTest::newRow("small exp") << 1e-05 << "1e-05";
        QTest::newRow("mantissa exp") << 1.5e-07 << "1.5e-07";
        QTest::newRow("big fixed") << 123456789012345.0 << "123456789012345.0";
        QTest::newRow("big exp") << 1e16 << "1e+16";
        QTest::newRow("negative") << -0.5 << "-0.5";
        QTest::newRow("zero") << 0.0 << "0.0";
        QTest::newRow("nan") << std::numeric_limits<double>::quiet_NaN() << "nan";
        QTest::newRow("inf") << std::numeric_limits<double>::infinity() << "inf";
    }

    void pythonFloatRepr()
    {
        QFETCH(double, value);
        QFETCH(QString, repr);
        QCOMPARE(QString::fromStdString(pte::pythonFloatRepr(value)), repr);
    }

    void identicalRunsMergeIntoOneBlock()
    {
        const auto t = table(threeRuns());
        QCOMPARE(t.blocks.size(), std::size_t(2));
        QCOMPARE(t.blocks[0].name, std::string("Default"));
        QCOMPARE(t.blocks[1].runs, (std::vector<std::uint32_t> { 1, 2, 3 }));
        QCOMPARE(t.blocks[1].rowCount, 4u);
        const auto& op0 = t.rows[t.blocks[1].firstRow + 1];
        QCOMPARE(op0.eventName, std::string("OPERATOR_CALL"));
        QCOMPARE(op0.instruction, 0);
        QCOMPARE(op0.raw, (std::vector<double> { 4.0, 2.0, 3.0 }));
        QCOMPARE(op0.p50, 3.0);
        QCOMPARE(op0.p10, 2.0 + 1.0 * 0.2); // sorted 2, 3, 4: h = 0.2
        QCOMPARE(op0.p90, 4.0 - 1.0 * (1 - 0.8)); // h = 1.8
        QCOMPARE(op0.avg, 3.0);
        QCOMPARE(op0.min, 2.0);
        QCOMPARE(op0.max, 4.0);
        QCOMPARE(op0.startTimes.size(), std::size_t(3));
        QVERIFY(!op0.isDelegatedOp);
        // Kernel and operator events of one instruction are two rows of one group, in file order.
        QCOMPARE(t.rows[t.blocks[1].firstRow].eventName, std::string("native_call_add.out"));
    }

    void differingRunsStaySeparateBlocks()
    {
        auto b = threeRuns();
        b.block("Execute").profile("OPERATOR_CALL", 0, 0, 1, 2).profile("Method::execute", -1, 0, 0, 3);
        const auto t = table(b);
        QCOMPARE(t.blocks.size(), std::size_t(3));
        QCOMPARE(t.blocks[2].name, std::string("Execute")); // same name, another block
        QCOMPARE(t.blocks[2].runs, std::vector<std::uint32_t> { 4 });
        QCOMPARE(t.rows.size(), std::size_t(2 + 4 + 2));
    }

    void aRepeatedSignatureKeepsItsPlaceAndTheLastValue()
    {
        // An instruction run twice in one execution (a loop): one row, the second duration, at the first position.
        EtdumpBuilder b;
        b.block("Execute");
        b.profile("OPERATOR_CALL", 0, 2, 0, 1000000);
        b.profile("OPERATOR_CALL", 0, 3, 1000000, 1100000);
        b.profile("OPERATOR_CALL", 0, 2, 2000000, 2500000);
        const auto t = table(b);
        QCOMPARE(t.rows.size(), std::size_t(2));
        QCOMPARE(t.rows[0].instruction, 2);
        QCOMPARE(t.rows[0].raw, std::vector<double> { 0.5 });
        QCOMPARE(t.rows[1].instruction, 3);
    }

    void delegateEventsAreNamedByIdentifierAndScaledPerEndpoint()
    {
        EtdumpBuilder b;
        b.block("Execute");
        b.delegateStr("Transpose (ND, X32) #1", 0, 0, 17504192, 17776192);
        b.delegateInt(0, 0, 0, 17776192, 18044192);
        b.profile("DELEGATE_CALL", 0, 0, 14886907, 27520849);
        const auto t = table(b);
        QCOMPARE(t.rows.size(), std::size_t(3));
        QCOMPARE(t.rows[0].eventName, std::string("Transpose (ND, X32) #1"));
        QVERIFY(t.rows[0].isDelegatedOp);
        QCOMPARE(t.rows[0].delegateIdStr, std::optional<std::string>("Transpose (ND, X32) #1"));
        // Endpoints converted apart: 17776192/1e6 - 17504192/1e6, not 272000/1e6.
        QCOMPARE(t.rows[0].p50, 17776192 / 1e6 - 17504192 / 1e6);
        QVERIFY(t.rows[0].p50 != 0.272);
        QCOMPARE(t.rows[1].eventName, std::string("0"));
        QCOMPARE(t.rows[1].delegateIdInt, std::optional<std::int32_t>(0));
        QVERIFY(!t.rows[2].isDelegatedOp);
        QCOMPARE(t.rows[2].p50, 12.633942); // (27520849 - 14886907) / 1e6, integer difference first
    }

    void loggedValuesAndOutputs()
    {
        EtdumpBuilder b;
        b.block("Execute");
        b.debugTensor(0, 0, ScalarType::Float, { 3 }, 0).profile("native_call_relu.out", 0, 0, 1, 2);
        b.profile("OPERATOR_CALL", 0, 0, 0, 3);
        b.debugTensor(0, 1, ScalarType::Float, { 3 }, 12); // no profile event: a row with no times and no name
        b.profile("Method::execute", -1, 0, 0, 5);
        b.debugTensor(-1, 0, ScalarType::Float, { 3 }, 24, true);
        const auto t = table(b);
        QCOMPARE(t.rows.size(), std::size_t(4));
        // Both rows of instruction 0 carry its logged value.
        QCOMPARE(t.rows[0].debugEvents, std::vector<std::uint32_t> { 0 });
        QCOMPARE(t.rows[1].debugEvents, std::vector<std::uint32_t> { 0 });
        QCOMPARE(t.rows[2].eventName, std::string());
        QVERIFY(!t.rows[2].hasTimes());
        QVERIFY(std::isnan(t.rows[2].p50));
        QCOMPARE(t.rows[2].instruction, 1);
        QCOMPARE(t.rows[3].eventName, std::string("Method::execute"));
        // The output is the block's run output, not a row.
        QCOMPARE(t.blocks[0].outputEvents, std::vector<std::uint32_t> { 5 });
    }

    void allocationEventsAreSkipped()
    {
        EtdumpBuilder b;
        b.block("Execute").allocator("a").allocation(1, 16).profile("OPERATOR_CALL", 0, 0, 0, 1000000);
        const auto t = table(b);
        QCOMPARE(t.rows.size(), std::size_t(1));
    }

    void timeScalesAndWrappedCounters()
    {
        EtdumpBuilder b;
        b.block("Execute");
        b.profile("OPERATOR_CALL", 0, 0, 4294967290ull, 5); // a wrapped 32-bit counter: (2^32 - 1 - s) + e = 10
        b.profile("OPERATOR_CALL", 0, 1, 1ull << 40, 1); // end before start, not a 32-bit wrap
        ProfileOptions us;
        us.source = TimeScale::Ns;
        us.target = TimeScale::Us;
        auto dump = b.read();
        QVERIFY_RESULT(dump);
        auto t = buildProfileTable(**dump, nullptr, us);
        QVERIFY_RESULT(t);
        QCOMPARE(t->rows[0].p50, 10 / 1e3);
        QVERIFY(std::isnan(t->rows[1].p50));
        QCOMPARE(t->diagnostics.size(), std::size_t(1));
        QCOMPARE(profileColumns(*t)[4], std::string("p50 (us)"));
        ProfileOptions cycles;
        cycles.source = TimeScale::Cycles;
        QVERIFY(!buildProfileTable(**dump, nullptr, cycles)); // cycles to ms: refused, as the Inspector does
        cycles.target = TimeScale::Cycles;
        auto c = buildProfileTable(**dump, nullptr, cycles);
        QVERIFY_RESULT(c);
        QCOMPARE(c->rows[0].p50, 10.0);
    }

    void csvAndTsvText()
    {
        EtdumpBuilder b;
        b.block("Execute");
        b.delegateStr("Conv (NHWC, F32) #1", 0, 0, 0, 2000000);
        b.profile("DELEGATE_CALL", 0, 0, 0, 2500000);
        auto dump = b.read();
        QVERIFY_RESULT(dump);
        auto t = buildProfileTable(**dump);
        QVERIFY_RESULT(t);
        const auto csv = profileTableText(**dump, *t, ',');
        const auto lines = QString::fromStdString(csv).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 3);
        QCOMPARE(lines[0],
            QStringLiteral("event_block_name,event_name,raw,p10 (ms),p50 (ms),p90 (ms),avg (ms),min (ms),max (ms),"
                           "op_types,delegate_debug_identifier,stack_traces,module_hierarchy,is_delegated_op,"
                           "delegate_backend_name,debug_data,start_time"));
        QCOMPARE(lines[1],
            QStringLiteral("Execute,\"Conv (NHWC, F32) #1\",[2.0],2.0,2.0,2.0,2.0,2.0,2.0,[],\"Conv (NHWC, F32) #1\","
                           "{},{},True,,,[0]"));
        QCOMPARE(lines[2], QStringLiteral("Execute,DELEGATE_CALL,[2.5],2.5,2.5,2.5,2.5,2.5,2.5,[],,{},{},False,,,[0]"));
        const auto tsv = QString::fromStdString(profileTableText(**dump, *t, '\t')).split(QLatin1Char('\n'));
        QCOMPARE(tsv[1].split(QLatin1Char('\t')).size(), 17);
        QCOMPARE(tsv[1].split(QLatin1Char('\t'))[1], QStringLiteral("Conv (NHWC, F32) #1"));
    }

    void summaryWithoutAProgram()
    {
        const auto b = threeRuns();
        auto dump = b.read();
        QVERIFY_RESULT(dump);
        auto t = buildProfileTable(**dump);
        QVERIFY_RESULT(t);
        const auto s = summarizeProfile(**dump, *t, nullptr);
        // Method::execute medians: runs of 5, 3.5, 3.5 ms (+ 20 ns) -> 3.50002.
        QCOMPARE(s.executeTotal, 3.50002);
        QCOMPARE(s.byOperator.size(), std::size_t(2));
        // Instruction 0 is named by its kernel event; instruction 1 has none.
        QCOMPARE(s.byOperator[0].key, std::string("add.out"));
        QCOMPARE(s.byOperator[0].total, 3.0);
        QCOMPARE(s.byOperator[1].key, std::string("(kernel without a name)"));
        QCOMPARE(s.byOperator[1].total, 1.0);
        QCOMPARE(s.byBackend.size(), std::size_t(1));
        QCOMPARE(s.byBackend[0].total, 4.0);
        QCOMPARE(s.byBackend[0].share, 4.0 / 3.50002);
        QVERIFY(s.byModule.empty());
    }
};

QTEST_GUILESS_MAIN(TestProfileTable)
#include "tst_profiletable.moc"
