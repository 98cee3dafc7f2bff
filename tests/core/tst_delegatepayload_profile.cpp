// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// XNNPACK profiling events aligned with xnodes by order (docs/delegate-payloads.md, Matching events to nodes): exact
// pairings, skips of nodes XNNPACK fuses away (approximate), labels that cannot be placed and nodes left without an
// event (failed), and the Converts the runtime inserts itself. The real MobileNetV2 trace is in tst_corpus_delegates.
#include "delegatetestutils.h"
#include "pte/delegateprofile.h"
#include "testutils.h"

#include <QTest>

#include <limits>

using namespace pte;
using namespace pte::test;

namespace {

using T = XnnGraphBuilder::Tag;

std::vector<DelegateProfileEvent> events(std::initializer_list<const char*> labels)
{
    std::vector<DelegateProfileEvent> out;
    std::uint64_t t = 0;
    for (const char* l : labels) {
        out.push_back({ l, t, t + 1000 });
        t += 1000;
    }
    return out;
}

DelegatePayload decode(XnnGraphBuilder& b)
{
    return decodeDelegatePayload("XnnpackBackend", toBytes(b.finish()), {}, {}, "test");
}

/** input -> FC (handle 1) -> [Clamp (2)] -> FC (3) -> output. */
DelegatePayload fcChain(bool clamp)
{
    XnnGraphBuilder b;
    const auto x = b.input({ 1, 4 });
    const auto w = b.tensor({ 4, 4 });
    const auto h = b.tensor({ 1, 4 });
    const auto c = b.tensor({ 1, 4 });
    const auto y = b.output({ 1, 4 });
    b.fullyConnected(x, w, kNone, h, 1);
    if (clamp)
        b.unary(T::XNNClamp, h, c, 2);
    b.fullyConnected(clamp ? c : h, w, kNone, y, 3);
    return decode(b);
}

} // namespace

class TestDelegatePayloadProfile : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void labelFamily_data()
    {
        QTest::addColumn<QString>("label");
        QTest::addColumn<QString>("family");
        QTest::addRow("gemm") << "Fully Connected (NC, F32) GEMM #12"
                              << "Fully Connected";
        QTest::addRow("add") << "Add (ND) #1"
                             << "Add";
        QTest::addRow("no-counter") << "Transpose (ND, X32)"
                                    << "Transpose";
        QTest::addRow("no-parens") << "Custom #3"
                                   << "Custom";
        QTest::addRow("hash-not-counter") << "Odd #x"
                                          << "Odd #x";
    }

    void labelFamily()
    {
        QFETCH(QString, label);
        QFETCH(QString, family);
        QCOMPARE(xnnpackLabelFamily(label.toStdString()), family.toStdString());
    }

    // The worked example of docs/delegate-payloads.md, Worked example: five events pairing 1:1 with xnodes 0-4.
    void exact()
    {
        XnnGraphBuilder b;
        addWorkedExample(b);
        const auto p = decode(b);
        const auto ev = events({ "Transpose (ND, X32) #1", "Convolution (NHWC, F32) DWConv #1",
            "Convolution (NHWC, F32) IGEMM #1", "Mean (ND) Reduce2 #1", "Transpose (ND, X32) #2" });
        const auto a = alignXnnpackEvents(p, ev);
        QCOMPARE(a.quality, AlignmentQuality::Exact);
        QCOMPARE(a.eventNode, (std::vector<std::int32_t> { 0, 1, 2, 3, 4 }));
        QVERIFY(a.skippedNodes.empty() && a.unmatchedNodes.empty());
        QCOMPARE(std::string(alignmentQualityName(a.quality)), std::string("exact"));
        // A depthwise label cannot land on a dense 3x3 convolution: swapping the two convolution events fails.
        const auto swapped = events({ "Transpose (ND, X32) #1", "Convolution (NHWC, F32) IGEMM #1",
            "Convolution (NHWC, F32) DWConv #1", "Mean (ND) Reduce2 #1", "Transpose (ND, X32) #2" });
        QCOMPARE(alignXnnpackEvents(p, swapped).quality, AlignmentQuality::Failed);
    }

    // What ExecuTorch's runtime (XNNPACK 92a7ad501b95) logs for the bundled example's delegate, one Multiply(x, x)
    // with output_min_max (0, +inf): XNNPACK runs a multiply by itself as Square, and its binary operators take no
    // output range, so the range becomes a Clamp of its own. Both events belong to the one node.
    void squareAndSplitClampOfOneNode()
    {
        auto multiplyByItself = [](std::optional<std::pair<float, float>> range) {
            XnnGraphBuilder b;
            const auto x = b.input({ 1, 4 });
            const auto y = b.output({ 1, 4 });
            b.node(T::XNNMultiply, ptelens_xnnpack::Create_XNNNode2x1(b.fbb(), x, x, y, 0).Union(), 2, range);
            return decode(b);
        };
        const auto relu = multiplyByItself(std::pair { 0.0f, std::numeric_limits<float>::infinity() });
        const auto a = alignXnnpackEvents(relu, events({ "Square (NC) #1", "Clamp (NC) #1" }));
        QCOMPARE(a.quality, AlignmentQuality::Exact);
        QCOMPARE(a.eventNode, (std::vector<std::int32_t> { 0, 0 }));
        // An XNNPACK that fuses the range into the multiply logs one event: still exact, and a Multiply label fits.
        QCOMPARE(alignXnnpackEvents(relu, events({ "Multiply (ND) #1" })).quality, AlignmentQuality::Exact);
        // Without an output range there is no clamp to place.
        const auto plain = multiplyByItself(std::nullopt);
        QCOMPARE(
            alignXnnpackEvents(plain, events({ "Square (NC) #1", "Clamp (NC) #1" })).quality, AlignmentQuality::Failed);
        // Square is a multiply's label only when both operands are the same value.
        XnnGraphBuilder b;
        const auto x = b.input({ 1, 4 });
        const auto z = b.input({ 1, 4 });
        const auto y = b.output({ 1, 4 });
        b.binary(T::XNNMultiply, x, z, y, 2);
        QCOMPARE(alignXnnpackEvents(decode(b), events({ "Square (NC) #1" })).quality, AlignmentQuality::Failed);
    }

    void fusedClampIsSkipped()
    {
        const auto p = fcChain(true);
        const auto a =
            alignXnnpackEvents(p, events({ "Fully Connected (NC, F32) GEMM #1", "Fully Connected (NC, F32) GEMM #2" }));
        QCOMPARE(a.quality, AlignmentQuality::Approximate);
        QCOMPARE(a.eventNode, (std::vector<std::int32_t> { 0, 2 }));
        QCOMPARE(a.skippedNodes, std::vector<std::uint32_t> { 1 });
        // With the clamp's own event the pairing is exact again.
        const auto b = alignXnnpackEvents(
            p, events({ "Fully Connected (NC, F32) GEMM #1", "Clamp (NC) #1", "Fully Connected (NC, F32) GEMM #2" }));
        QCOMPARE(b.quality, AlignmentQuality::Exact);
        // A trailing fusable node without an event is a skip too.
        XnnGraphBuilder t;
        const auto x = t.input({ 4 });
        const auto m = t.tensor({ 4 });
        const auto y = t.output({ 4 });
        t.unary(T::XNNSigmoid, x, m, 1);
        t.unary(T::XNNCopy, m, y, 2);
        const auto tail = alignXnnpackEvents(decode(t), events({ "Sigmoid (NC, F32) #1" }));
        QCOMPARE(tail.quality, AlignmentQuality::Approximate);
        QCOMPARE(tail.skippedNodes, std::vector<std::uint32_t> { 1 });
    }

    void unplaceableLabelFails()
    {
        const auto p = fcChain(false);
        const auto a = alignXnnpackEvents(p, events({ "Fully Connected (NC, F32) GEMM #1", "Softmax (NC, F32) #1" }));
        QCOMPARE(a.quality, AlignmentQuality::Failed);
        QCOMPARE(a.eventNode, (std::vector<std::int32_t> { 0, kUnplacedEvent }));
        QCOMPARE(a.unmatchedNodes, std::vector<std::uint32_t> { 1 });
        QVERIFY(!a.notes.empty());
        QVERIFY(a.notes[0].find("'Softmax (NC, F32) #1' matches no remaining node") != std::string::npos);
    }

    void nodeWithoutEventFails()
    {
        const auto p = fcChain(false);
        const auto a = alignXnnpackEvents(p, events({ "Fully Connected (NC, F32) GEMM #1" }));
        QCOMPARE(a.quality, AlignmentQuality::Failed);
        QCOMPARE(a.unmatchedNodes, std::vector<std::uint32_t> { 1 });
    }

    void irregularCountersAreApproximate()
    {
        const auto p = fcChain(false);
        const auto a =
            alignXnnpackEvents(p, events({ "Fully Connected (NC, F32) GEMM #2", "Fully Connected (NC, F32) GEMM #3" }));
        QCOMPARE(a.quality, AlignmentQuality::Approximate);
        QCOMPARE(a.eventNode, (std::vector<std::int32_t> { 0, 1 }));
        QVERIFY(a.notes[0].find("should be #1") != std::string::npos);
    }

    // A 1x1 stride-1 convolution runs as a fully connected GEMM; a 3x3 one cannot.
    void pointwiseConvolutionAsGemm()
    {
        for (const std::uint32_t kernel : { 1u, 3u }) {
            XnnGraphBuilder b;
            const auto x = b.input({ 1, 4, 4, 8 });
            const auto w = b.tensor({ 16, kernel, kernel, 8 });
            const auto y = b.output({ 1, 4, 4, 16 });
            b.conv(T::XNNConv2d, x, w, kNone, y, kernel, 1, 1, 8, 16, 5);
            const auto a = alignXnnpackEvents(decode(b), events({ "Fully Connected (NC, F32) GEMM #1" }));
            QCOMPARE(a.quality, kernel == 1 ? AlignmentQuality::Exact : AlignmentQuality::Failed);
        }
    }

    // The runtime's own Converts: before node 0 for each dq_datatype input, after a bf16 FullyConnected.
    void runtimeInsertedConverts()
    {
        XnnGraphBuilder b;
        const auto x = b.tensor({ 1, 4 }, xf::XNNDatatype::fp32, 0, 0, 1, xf::XNNDatatype::qdint8);
        const auto w = b.tensor({ 4, 4 }, xf::XNNDatatype::qcint8);
        const auto y = b.tensor({ 1, 4 }, xf::XNNDatatype::bf16, 0, 1, 2);
        b.fullyConnected(x, w, kNone, y, 4);
        const auto p = decode(b);
        const auto a = alignXnnpackEvents(p,
            events({ "Convert (NC, F32, QD8) #1", "Fully Connected (NC, QD8, F32, QC8W) GEMM #1",
                "Convert (NC, F32, BF16) #1" }));
        QCOMPARE(a.quality, AlignmentQuality::Exact);
        QCOMPARE(a.eventNode, (std::vector<std::int32_t> { kRuntimeInsertedNode, 0, kRuntimeInsertedNode }));
    }

    void notAnXnnpackGraph()
    {
        const auto p = decodeDelegatePayload("VulkanBackend", Bytes::copyOf("junk"), {}, {}, "test");
        const auto a = alignXnnpackEvents(p, events({ "Add (ND) #1" }));
        QCOMPARE(a.quality, AlignmentQuality::Failed);
        QCOMPARE(a.eventNode, std::vector<std::int32_t> { kUnplacedEvent });
        QVERIFY(a.notes[0].find("whole delegate call") != std::string::npos);
    }
};

QTEST_APPLESS_MAIN(TestDelegatePayloadProfile)
#include "tst_delegatepayload_profile.moc"
