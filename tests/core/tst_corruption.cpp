// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// Damaged .pte bytes (truncated, bit-flipped, bad header fields, segments and indices out of range) must
// give an error Result or diagnostics, never a crash or a hang. Also run under ASan/UBSan.
#include "errorcheck.h"
#include "pte/jsondump.h"
#include "pte/ptereader.h"
#include "ptefbbuilder.h"
#include "ptefile/ptereader_p.h"
#include "testutils.h"

#include <QTest>

#include <random>

using namespace pte;
using namespace pte::readertest;

namespace {

struct Outcome
{
    bool ok = false;
    bool errorsOrDiagnostics = false;
};

/** Reads the bytes and exercises everything downstream; checks the failure contract. */
Outcome readAndUse(const std::vector<std::uint8_t>& bytes, const std::string& name, bool dump)
{
    Outcome o;
    auto r = readPteBytes(Bytes::fromVector(bytes), name);
    if (!r) {
        // A fatal error names the file and says where.
        if (r.error().message.find(name) == std::string::npos)
            qFatal("error without file name: %s", r.error().toString().c_str());
        if (!r.error().offset && r.error().fieldPath.empty())
            qFatal("error without location: %s", r.error().toString().c_str());
        o.errorsOrDiagnostics = true;
        return o;
    }
    o.ok = true;
    const auto& f = *r.value();
    o.errorsOrDiagnostics = !f.diagnostics.empty();
    for (const auto& d : f.diagnostics)
        if (d.message.empty())
            qFatal("empty diagnostic message");
    const Program& p = *f.program;
    // Accessors over possibly inconsistent data stay in bounds.
    for (std::uint32_t i = 0; i < 8; ++i)
        (void)constantData(p, i);
    for (const auto& plan : p.executionPlan)
        for (const auto& d : plan.delegates)
            (void)delegateData(p, d);
    (void)checkProgram(p, f.externalData);
    if (dump)
        (void)programToJson(p);
    return o;
}

std::vector<std::uint8_t> validFile() { return encodeFullFile(makeFullProgram()); }

void put(std::vector<std::uint8_t>& b, std::size_t at, std::uint64_t v, int width)
{
    for (int i = 0; i < width; ++i)
        b[at + std::size_t(i)] = std::uint8_t(v >> (8 * i));
}

/**
 * A vector of 8-byte scalars whose elements start at 4 mod 8. Valid for the flatbuffers verifier, which only
 * checks the alignment of the length prefix; the builder would never write it this way.
 */
template <typename T>
flatbuffers::Offset<flatbuffers::Vector<T>> misalignedVector(flatbuffers::FlatBufferBuilder& b, const std::vector<T>& v)
{
    static_assert(sizeof(T) == 8);
    b.StartVector(v.size(), sizeof(T)); // the end of the elements is now 8-aligned
    b.PushElement<std::uint32_t>(0); // 4 bytes after the elements shift them to 4 mod 8
    b.PushBytes(reinterpret_cast<const std::uint8_t*>(v.data()), v.size() * sizeof(T));
    return flatbuffers::Offset<flatbuffers::Vector<T>>(b.EndVector(v.size()));
}

} // namespace

class TestCorruption : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void validInputsAreClean()
    {
        QVERIFY(!readAndUse(validFile(), "valid.pte", true).errorsOrDiagnostics);
        QVERIFY(readAndUse(encodeFlatbuffer(makeFullProgram()), "plain.pte", true).ok);
    }

    void truncationAtEveryOffset_data()
    {
        QTest::addColumn<bool>("withHeader");
        QTest::newRow("eh00-with-segments") << true;
        QTest::newRow("plain-flatbuffer") << false;
    }

    void truncationAtEveryOffset()
    {
        QFETCH(bool, withHeader);
        const auto full = withHeader ? validFile() : encodeFlatbuffer(makeFullProgram());
        int failures = 0;
        for (std::size_t n = 0; n < full.size(); ++n) {
            const std::vector<std::uint8_t> cut(full.begin(), full.begin() + std::ptrdiff_t(n));
            const auto o = readAndUse(cut, "cut.pte", n % 16 == 0);
            // Every strict prefix is damaged: either refused or reported.
            QVERIFY2(o.errorsOrDiagnostics, qPrintable(QStringLiteral("prefix of %1 bytes accepted silently").arg(n)));
            failures += !o.ok;
        }
        QVERIFY(failures > 0);
    }

    void randomByteFlips_data()
    {
        QTest::addColumn<bool>("withHeader");
        QTest::addColumn<int>("iterations");
        QTest::newRow("eh00-with-segments") << true << 2500;
        QTest::newRow("plain-flatbuffer") << false << 1500;
    }

    void randomByteFlips()
    {
        QFETCH(bool, withHeader);
        QFETCH(int, iterations);
        const auto original = withHeader ? validFile() : encodeFlatbuffer(makeFullProgram());
        std::mt19937 rng(20260101u + unsigned(withHeader));
        std::uniform_int_distribution<std::size_t> pos(0, original.size() - 1);
        std::uniform_int_distribution<int> count(1, 4);
        std::uniform_int_distribution<int> byte(0, 255);
        int opened = 0;
        for (int it = 0; it < iterations; ++it) {
            auto bytes = original;
            const int k = count(rng);
            for (int j = 0; j < k; ++j)
                bytes[pos(rng)] = std::uint8_t(byte(rng));
            opened += readAndUse(bytes, "flip.pte", it % 8 == 0).ok;
        }
        QVERIFY(opened > 0); // many flips land in payloads or padding
    }

    void headerFields_data()
    {
        QTest::addColumn<int>("at");
        QTest::addColumn<quint64>("value");
        QTest::addColumn<int>("width");
        QTest::addColumn<bool>("opens");
        QTest::addColumn<int>("code"); // the error's, when it does not open
        QTest::newRow("length-0") << 12 << quint64(0) << 4 << false << int(ErrorCode::BadExtendedHeader);
        QTest::newRow("length-23") << 12 << quint64(23) << 4 << false << int(ErrorCode::BadExtendedHeader);
        QTest::newRow("length-huge") << 12 << quint64(0xffffffffu) << 4 << true << -1;
        QTest::newRow("program-size-0") << 16 << quint64(0) << 8 << false << int(ErrorCode::BadExtendedHeader);
        QTest::newRow("program-size-huge") << 16 << quint64(~0ull) << 8 << false << int(ErrorCode::Truncated);
        QTest::newRow("segment-base-past-eof") << 24 << quint64(1) << 8 << true << -1; // patched to EOF below
        QTest::newRow("segment-base-huge") << 24 << quint64(~0ull - 5) << 8 << true << -1;
        QTest::newRow("segment-base-zero") << 24 << quint64(0) << 8 << true << -1;
        QTest::newRow("segment-data-size-huge") << 32 << quint64(~0ull) << 8 << true << -1;
        QTest::newRow("root-offset-0") << 0 << quint64(0) << 4 << false << int(ErrorCode::VerificationFailed);
        QTest::newRow("root-offset-huge")
            << 0 << quint64(0xfffffff0u) << 4 << false << int(ErrorCode::VerificationFailed);
    }

    void headerFields()
    {
        QFETCH(int, at);
        QFETCH(quint64, value);
        QFETCH(int, width);
        QFETCH(bool, opens);
        QFETCH(int, code);
        auto bytes = validFile();
        if (QByteArray(QTest::currentDataTag()) == "segment-base-past-eof")
            value = bytes.size() + 128;
        put(bytes, std::size_t(at), value, width);
        auto r = readPteBytes(Bytes::fromVector(bytes), "hdr.pte");
        QCOMPARE(bool(r), opens);
        if (r) {
            QVERIFY(!r.value()->diagnostics.empty());
            if (QByteArray(QTest::currentDataTag()) != "length-huge")
                QVERIFY(!r.value()->runtimeWouldAccept());
        } else {
            QVERIFY_ERROR(r, ErrorCode(code), "hdr.pte");
        }
    }

    void segmentsOutOfRange_data()
    {
        QTest::addColumn<quint64>("offset");
        QTest::addColumn<quint64>("size");
        QTest::newRow("past-end") << quint64(4096) << quint64(100);
        QTest::newRow("size-huge") << quint64(128) << quint64(~0ull);
        QTest::newRow("offset-huge") << quint64(~0ull - 10) << quint64(100);
        QTest::newRow("both-huge") << quint64(~0ull) << quint64(~0ull);
    }

    void segmentsOutOfRange()
    {
        QFETCH(quint64, offset);
        QFETCH(quint64, size);
        const Program p = makeFullProgram();
        Program bad = p;
        bad.segments[1].offset = offset;
        bad.segments[1].size = size;
        // The bad segment table, with the payload laid out from the valid one.
        const auto spliced = withExtendedHeader(encodeFlatbuffer(bad), p);
        const auto f = readPteBytes(Bytes::fromVector(spliced), "seg.pte");
        QVERIFY_RESULT(f);
        QVERIFY(!f.value()->runtimeWouldAccept());
        QVERIFY(f.value()->program->segments[1].data.empty());
        QVERIFY(delegateData(*f.value()->program, f.value()->program->executionPlan[0].delegates[1]).empty());
        bool found = false;
        for (const auto& d : f.value()->diagnostics)
            found = found || (d.severity == Severity::Error && d.fieldPath == "segments[1]");
        QVERIFY(found);
    }

    void randomIndicesNeverCrash()
    {
        std::mt19937 rng(7);
        std::uniform_int_distribution<int> pick(-3, 40);
        for (int it = 0; it < 300; ++it) {
            Program p = makeFullProgram();
            auto& m = p.executionPlan[0];
            std::get<KernelCall>(m.chains[0].instructions[0].args).opIndex = pick(rng);
            std::get<KernelCall>(m.chains[0].instructions[0].args).args = { pick(rng), pick(rng) };
            std::get<DelegateCall>(m.chains[0].instructions[1].args).delegateIndex = pick(rng);
            std::get<MoveCall>(m.chains[0].instructions[3].args).moveFrom = pick(rng);
            std::get<JumpFalseCall>(m.chains[0].instructions[4].args).condValueIndex = pick(rng);
            std::get<JumpFalseCall>(m.chains[0].instructions[4].args).destinationInstruction = pick(rng);
            std::get<FreeCall>(m.chains[0].instructions[5].args).valueIndex = pick(rng);
            std::get<TensorList>(m.values[11].val).items = { pick(rng), pick(rng) };
            std::get<OptionalTensorList>(m.values[12].val).items = { pick(rng) };
            std::get<IntList>(m.values[8].val).items = { pick(rng) };
            m.inputs = { pick(rng) };
            m.outputs = { pick(rng) };
            m.delegates[0].processed.index = std::uint32_t(pick(rng));
            m.delegates[1].processed.index = std::uint32_t(pick(rng));
            std::get<Tensor>(m.values[1].val).dataBufferIdx = std::uint32_t(pick(rng));
            std::get<Tensor>(m.values[0].val).allocationInfo->memoryId = std::uint32_t(pick(rng));
            p.constantSegment->segmentIndex = std::uint32_t(pick(rng));
            (*p.mutableDataSegments)[0].segmentIndex = std::uint32_t(pick(rng));
            (*p.namedData)[0].segmentIndex = std::uint32_t(pick(rng));
            (void)checkProgram(p);
            const auto o = readAndUse(encodeFullFile(p), "idx.pte", it % 10 == 0);
            QVERIFY(o.ok);
        }
    }
    void misalignedEightByteVectors()
    {
        // Found by fuzz/fuzz_pte: decoding such a vector with Vector::Get was a misaligned 8-byte load (UBSan).
        namespace fb = executorch_flatbuffer;
        flatbuffers::FlatBufferBuilder b;
        const std::vector<std::uint64_t> offsets { 0, 0x1122334455667788u, 3 };
        const std::vector<std::int64_t> ints { -5, 1ll << 40 };
        const std::vector<double> doubles { 0.25, -3.5 };
        const auto intList = fb::CreateIntList(b, misalignedVector(b, ints));
        const auto doubleList = fb::CreateDoubleList(b, misalignedVector(b, doubles));
        const std::vector<flatbuffers::Offset<fb::EValue>> values { fb::CreateEValue(
                                                                        b, fb::KernelTypes::IntList, intList.Union()),
            fb::CreateEValue(b, fb::KernelTypes::DoubleList, doubleList.Union()) };
        const auto plan = fb::CreateExecutionPlan(b, b.CreateString("forward"), 0, b.CreateVector(values));
        const auto plans = b.CreateVector(std::vector<flatbuffers::Offset<fb::ExecutionPlan>> { plan });
        const auto subsegment = fb::CreateSubsegmentOffsets(b, 0, misalignedVector(b, offsets));
        const auto mutableData = b.CreateVector(std::vector<flatbuffers::Offset<fb::SubsegmentOffsets>> { subsegment });
        fb::FinishProgramBuffer(b, fb::CreateProgram(b, 0, plans, 0, 0, 0, 0, mutableData));
        const std::vector<std::uint8_t> bytes(b.GetBufferPointer(), b.GetBufferPointer() + b.GetSize());

        // The setup really is misaligned (relative to the 8-aligned start of the file).
        const auto* root = fb::GetProgram(bytes.data());
        const auto misalignment = [&](const void* p) {
            return std::size_t(static_cast<const std::uint8_t*>(p) - bytes.data()) % 8;
        };
        QCOMPARE(misalignment(root->mutable_data_segments()->Get(0)->offsets()->Data()), std::size_t(4));
        QCOMPARE(misalignment(root->execution_plan()->Get(0)->values()->Get(0)->val_as_IntList()->items()->Data()),
            std::size_t(4));

        auto r = readPteBytes(Bytes::fromVector(bytes), "misaligned.pte");
        QVERIFY_RESULT(r);
        const Program& p = *r.value()->program;
        QVERIFY(p.mutableDataSegments.has_value());
        QCOMPARE(p.mutableDataSegments->size(), std::size_t(1));
        QCOMPARE((*p.mutableDataSegments)[0].offsets, offsets);
        QCOMPARE(p.executionPlan.size(), std::size_t(1));
        QCOMPARE(p.executionPlan[0].values.size(), std::size_t(2));
        QCOMPARE(std::get<IntList>(p.executionPlan[0].values[0].val).items, ints);
        QCOMPARE(std::get<DoubleList>(p.executionPlan[0].values[1].val).items, doubles);
        (void)programToJson(p);
    }
    void damagedPtdFiles()
    {
        const auto ptd = encodePtd({ { "a", ScalarType::Float, { 2, 2 }, { 0, 1 }, std::vector<std::uint8_t>(16, 7) },
            { "b", ScalarType::Long, { 3 }, { 0 }, std::vector<std::uint8_t>(24, 9) } });
        auto whole = pte::ptefile::readPtdBytes(Bytes::fromVector(ptd), "w.ptd");
        QVERIFY_RESULT(whole);
        QCOMPARE(whole->tensors.size(), std::size_t(2));
        QCOMPARE(whole->tensors.at("b").data.size(), std::size_t(24));
        QCOMPARE(whole->tensors.at("b").sizes, std::vector<std::int32_t>({ 3 }));
        for (std::size_t n = 0; n < ptd.size(); ++n) {
            const std::vector<std::uint8_t> cut(ptd.begin(), ptd.begin() + std::ptrdiff_t(n));
            auto r = pte::ptefile::readPtdBytes(Bytes::fromVector(cut), "cut.ptd");
            QVERIFY2(!r, qPrintable(QStringLiteral("a %1-byte prefix of a .ptd was accepted").arg(n)));
            QVERIFY(r.error().message.find("cut.ptd") != std::string::npos);
        }
        std::mt19937 rng(99);
        std::uniform_int_distribution<std::size_t> pos(0, ptd.size() - 1);
        std::uniform_int_distribution<int> byte(0, 255);
        for (int it = 0; it < 1500; ++it) {
            auto bytes = ptd;
            bytes[pos(rng)] = std::uint8_t(byte(rng));
            bytes[pos(rng)] = std::uint8_t(byte(rng));
            auto r = pte::ptefile::readPtdBytes(Bytes::fromVector(bytes), "flip.ptd");
            if (r)
                for (const auto& [k, t] : r->tensors)
                    QVERIFY(t.data.size() <= bytes.size());
        }
    }
};

QTEST_GUILESS_MAIN(TestCorruption)
#include "tst_corruption.moc"
