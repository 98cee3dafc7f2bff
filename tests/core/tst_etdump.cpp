// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// The ETDump reader (pte/etdump.h): every event kind and field, both envelopes (size prefix or not), both block
// layouts (v0.1.0 and later), the debug buffer (views into the mapping, found next to the file, too small), and
// corrupt or foreign input (clear errors with offset and field path). Then the numbers of logged tensors and the
// numeric-gap metrics (pte/numericgap.h).
#include "errorcheck.h"
#include "etdumptestutils.h"
#include "pte/etdump.h"
#include "pte/mappedfile.h"
#include "pte/numericgap.h"
#include "pte/schema/etdump_generated.h"
#include "testutils.h"

#include <QDir>
#include <QFile>
#include <QTest>

#include <cmath>
#include <cstring>
#include <limits>

using namespace pte;
using pte::test::EtdumpBuilder;
using pte::test::floatBuffer;

namespace {

/** A dump with every kind of event and value. */
EtdumpBuilder everything()
{
    EtdumpBuilder b;
    b.loadBlock(1000);
    b.block("Execute").allocator("method").allocator("temp");
    b.allocation(1, 256).allocation(2, 64);
    b.debugTensor(0, 0, ScalarType::Float, { 2, 3 }, 0);
    b.profile("native_call_add.out", 0, 0, 2010, 2090);
    b.profile("OPERATOR_CALL", 0, 0, 2000, 2100);
    b.delegateStr("Conv #1", 0, 1, 2200, 2300);
    b.delegateInt(0, 0, 1, 2300, 2350);
    b.profile("DELEGATE_CALL", 0, 1, 2150, 2400);
    EtdumpValue list;
    list.type = EtdumpValueType::TensorList;
    list.tensors.push_back(EtdumpTensor { ScalarType::Long, { 2 }, { 1 }, 24 });
    list.tensors.push_back(EtdumpTensor { ScalarType::Bool, {}, {}, 40 });
    b.debug(0, 2, list);
    EtdumpValue i;
    i.type = EtdumpValueType::Int;
    i.intValue = -7;
    b.debug(0, 3, i, 5);
    EtdumpValue d;
    d.type = EtdumpValueType::Double;
    d.doubleValue = 2.5;
    b.debug(0, 3, d, -1, "layer.1");
    EtdumpValue t;
    t.type = EtdumpValueType::Bool;
    t.boolValue = true;
    b.debug(0, 3, t);
    b.profile("Method::execute", -1, 0, 1900, 2500);
    b.debugTensor(-1, 0, ScalarType::Float, { 2, 3 }, 48, true);
    b.emptyBlock("Execute");
    return b;
}

QByteArray toQ(const std::vector<std::uint8_t>& v)
{
    return QByteArray(reinterpret_cast<const char*>(v.data()), qsizetype(v.size()));
}

Bytes bytesOf(const QByteArray& q) { return Bytes::fromVector(std::vector<std::uint8_t>(q.begin(), q.end())); }

QString writeTemp(const QString& name, const QByteArray& data)
{
    const QString path = test::tempDir() + QLatin1Char('/') + name;
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly))
        return {};
    f.write(data);
    return path;
}

} // namespace

class TestEtdump : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void readsEveryEventKindAndField()
    {
        auto r = everything().read();
        QVERIFY_RESULT(r);
        const EtDump& d = **r;
        QVERIFY(d.sizePrefixed);
        QCOMPARE(d.layout, EtdumpLayout::Current);
        QCOMPARE(d.runs.size(), std::size_t(3));
        QCOMPARE(d.runs[0].name, std::string("Default"));
        QCOMPARE(d.runs[0].eventCount, 2u);
        QCOMPARE(d.runs[1].allocators, (std::vector<std::string> { "method", "temp" }));
        QCOMPARE(d.runs[1].eventCount, 14u);
        QVERIFY(!d.runs[2].hasEvents);
        QCOMPARE(d.runs[2].eventCount, 0u);
        QCOMPARE(d.count(EtdumpEventKind::Profile), std::size_t(8));
        QCOMPARE(d.count(EtdumpEventKind::Debug), std::size_t(6));
        QCOMPARE(d.count(EtdumpEventKind::Allocation), std::size_t(2));

        const auto ev = d.runEvents(d.runs[1]);
        // Allocations are 1-based into the block's allocators.
        QCOMPARE(d.allocations[ev[1].payload].allocatorId, 2);
        QCOMPARE(d.allocations[ev[1].payload].size, std::uint64_t(64));
        // Operator events: name, chain, instruction, no delegate id, no metadata.
        QCOMPARE(d.eventName(ev[4]), std::string_view("OPERATOR_CALL"));
        QCOMPARE(ev[4].startTime, std::uint64_t(2000));
        QCOMPARE(ev[4].endTime, std::uint64_t(2100));
        QVERIFY(!ev[4].isDelegateEvent());
        QVERIFY(!ev[4].hasMetadata);
        // Delegate events: no name, an identifier, metadata present and empty.
        QCOMPARE(d.eventName(ev[5]), std::string_view());
        QCOMPARE(d.delegateIdentifier(ev[5]), std::string("Conv #1"));
        QVERIFY(ev[5].hasMetadata);
        QCOMPARE(d.delegateMetadata(ev[5]).size(), std::size_t(0));
        QCOMPARE(ev[6].delegateDebugIdInt, 0); // 0 is a valid int identifier
        QVERIFY(ev[6].isDelegateEvent());
        QCOMPARE(d.delegateIdentifier(ev[6]), std::string("0"));
        // Logged values.
        const auto* t = d.value(ev[2]);
        QVERIFY(t);
        QCOMPARE(t->type, EtdumpValueType::Tensor);
        QCOMPARE(t->tensors.front().sizes, (std::vector<std::int64_t> { 2, 3 }));
        QCOMPARE(t->tensors.front().strides, (std::vector<std::int64_t> { 3, 1 }));
        QCOMPARE(t->tensors.front().nbytes(), std::optional<std::uint64_t>(24));
        const auto* list = d.value(ev[8]);
        QCOMPARE(list->type, EtdumpValueType::TensorList);
        QCOMPARE(list->tensors.size(), std::size_t(2));
        QCOMPARE(list->tensors[0].scalarType, ScalarType::Long);
        QCOMPARE(list->tensors[1].numel(), std::optional<std::uint64_t>(1)); // rank 0
        QCOMPARE(d.value(ev[9])->intValue, std::int64_t(-7));
        QCOMPARE(ev[9].delegateDebugIdInt, 5);
        QCOMPARE(d.value(ev[10])->doubleValue, 2.5);
        QCOMPARE(d.delegateIdentifier(ev[10]), std::string("layer.1"));
        QCOMPARE(d.value(ev[11])->boolValue, true);
        // The program output: chain -1 (stored as 2^64-1), output flag.
        QCOMPARE(ev[13].chainIndex, std::int64_t(-1));
        QVERIFY(!ev[13].inInstruction());
        QVERIFY(d.value(ev[13])->output);
        QCOMPARE(ev[12].chainIndex, std::int64_t(-1));
        QCOMPARE(d.eventName(ev[12]), std::string_view("Method::execute"));
        QVERIFY(!d.value(ev[2])->output);
        // Framework events are outside instructions.
        QVERIFY(!d.runEvents(d.runs[0])[0].inInstruction());
        QVERIFY(ev[4].inInstruction());
    }

    void appliesTheDefaultsTheWriterOmits()
    {
        // flatbuffers omits scalars equal to their default (as flatcc does): instruction_id -1, int id -1.
        flatbuffers::FlatBufferBuilder fbb;
        const auto pe = etdump::CreateProfileEvent(fbb, fbb.CreateString("x"));
        const auto de = etdump::CreateDebugEvent(fbb);
        std::vector<flatbuffers::Offset<etdump::Event>> events { etdump::CreateEvent(fbb, pe),
            etdump::CreateEvent(fbb, 0, 0, de) };
        const auto run = etdump::CreateRunData(fbb, fbb.CreateString("Execute"), -1, 0, fbb.CreateVector(events));
        fbb.FinishSizePrefixed(etdump::CreateETDump(fbb, 0, fbb.CreateVector(std::vector { run })), "ED00");
        auto r = readEtdumpBytes(Bytes::fromVector(std::vector<std::uint8_t>(
                                     fbb.GetBufferPointer(), fbb.GetBufferPointer() + fbb.GetSize())),
            "defaults.etdp");
        QVERIFY_RESULT(r);
        const auto& e = (*r)->events;
        QCOMPARE(e.size(), std::size_t(2));
        QCOMPARE(e[0].instructionId, -1);
        QCOMPARE(e[0].delegateDebugIdInt, -1);
        QCOMPARE(e[0].chainIndex, std::int64_t(0));
        QCOMPARE((*r)->runs[0].bundledInputIndex, -1);
        QCOMPARE(e[1].kind, EtdumpEventKind::Debug);
        QCOMPARE(e[1].instructionId, -1);
        QCOMPARE((*r)->value(e[1])->type, EtdumpValueType::Null); // no debug_entry
    }

    void readsBothEnvelopesAndLayouts_data()
    {
        QTest::addColumn<bool>("prefixed");
        QTest::addColumn<int>("layout");
        QTest::newRow("prefixed current") << true << int(EtdumpLayout::Current);
        QTest::newRow("unprefixed current") << false << int(EtdumpLayout::Current);
        QTest::newRow("prefixed v0.1.0") << true << int(EtdumpLayout::V010);
        QTest::newRow("unprefixed v0.1.0") << false << int(EtdumpLayout::V010);
    }

    void readsBothEnvelopesAndLayouts()
    {
        QFETCH(bool, prefixed);
        QFETCH(int, layout);
        EtdumpBuilder b;
        b.loadBlock();
        b.block("Execute").allocator("a");
        b.profile("OPERATOR_CALL", 0, 3, 10, 20).allocation(1, 8).profile("Method::execute", -1, 0, 5, 30);
        const auto bytes = b.bytes(prefixed, EtdumpLayout(layout));
        QVERIFY(!bytes.empty());
        QCOMPARE(std::memcmp(bytes.data() + (prefixed ? 8 : 4), "ED00", 4), 0);
        auto r = readEtdumpBytes(Bytes::fromVector(bytes), "x.etdp");
        QVERIFY_RESULT(r);
        QCOMPARE((*r)->sizePrefixed, prefixed);
        QCOMPARE(int((*r)->layout), layout);
        QCOMPARE((*r)->runs.size(), std::size_t(2));
        QCOMPARE((*r)->runs[1].allocators, std::vector<std::string> { "a" });
        QCOMPARE((*r)->runs[1].eventCount, 3u);
        const auto& op = (*r)->events[2];
        QCOMPARE((*r)->eventName(op), std::string_view("OPERATOR_CALL"));
        QCOMPARE(op.instructionId, 3);
        QCOMPARE((*r)->allocations.at(0).size, std::uint64_t(8));
        if (layout == int(EtdumpLayout::V010))
            QVERIFY(std::any_of((*r)->diagnostics.begin(), (*r)->diagnostics.end(),
                [](const Diagnostic& d) { return d.message.find("v0.1.0") != std::string::npos; }));
    }

    void layoutCanBeForced()
    {
        EtdumpBuilder b;
        b.block("Execute").profile("OPERATOR_CALL", 0, 0, 1, 2);
        const auto v010 = Bytes::fromVector(b.bytes(true, EtdumpLayout::V010));
        EtdumpReadOptions current;
        current.layout = EtdumpLayout::Current;
        // Read as the current layout, the v0.1.0 events vector sits in the allocators slot: not the same events.
        auto forced = readEtdumpBytes(v010, "old.etdp", {}, current);
        QVERIFY(!forced || (*forced)->events.empty());
        EtdumpReadOptions old;
        old.layout = EtdumpLayout::V010;
        auto r = readEtdumpBytes(v010, "old.etdp", {}, old);
        QVERIFY_RESULT(r);
        QCOMPARE((*r)->events.size(), std::size_t(1));
    }

    void v010DebugEventsAreReportedNotDecoded()
    {
        EtdumpBuilder b;
        b.block("Execute").debugTensor(0, 0, ScalarType::Float, { 1 }, 0).profile("OPERATOR_CALL", 0, 0, 1, 2);
        auto r = readEtdumpBytes(Bytes::fromVector(b.bytes(true, EtdumpLayout::V010)), "old.etdp");
        QVERIFY_RESULT(r);
        QCOMPARE((*r)->events[0].kind, EtdumpEventKind::Empty);
        QVERIFY(std::any_of((*r)->diagnostics.begin(), (*r)->diagnostics.end(), [](const Diagnostic& d) {
            return d.severity == Severity::Warning && d.message.find("not decoded") != std::string::npos
                && d.fieldPath == "run_data[0].events[0].debug_event";
        }));
    }

    void debugBufferTensorsAreViewsOfTheMapping()
    {
        const QDir dir(test::tempDir());
        QVERIFY(dir.mkpath(QStringLiteral("views")));
        const QString base = test::tempDir() + QStringLiteral("/views/run");
        EtdumpBuilder b;
        b.block("Execute").debugTensor(0, 0, ScalarType::Float, { 2 }, 4).profile("OPERATOR_CALL", 0, 0, 1, 2);
        QVERIFY(!writeTemp(QStringLiteral("views/run.etdp"), toQ(b.bytes())).isEmpty());
        QVERIFY(!writeTemp(QStringLiteral("views/run.bin"), toQ(floatBuffer({ 9.f, 1.5f, -2.f }))).isEmpty());
        auto r = readEtdumpFile((base + QStringLiteral(".etdp")).toStdString());
        QVERIFY_RESULT(r);
        const auto& d = **r;
        QCOMPARE(d.debugBufferPath, (base + QStringLiteral(".bin")).toStdString()); // found next to the file
        const auto& tensor = d.value(d.events[0])->tensors.front();
        auto data = d.tensorData(tensor);
        QVERIFY_RESULT(data);
        QCOMPARE(data->size(), std::size_t(8));
        QCOMPARE(data->data(), d.debugBuffer.data() + 4); // a view, not a copy
        auto values = loggedTensorValues(d, tensor);
        QVERIFY_RESULT(values);
        QCOMPARE(*values, (std::vector<double> { 1.5, -2.0 }));
    }

    void debugBufferProblems()
    {
        EtdumpBuilder b;
        b.block("Execute")
            .debugTensor(0, 0, ScalarType::Float, { 4 }, 8)
            .debugTensor(0, 1, ScalarType::Float, { 0 }, -1);
        // No buffer: an info, and values are unknown.
        auto none = b.read();
        QVERIFY_RESULT(none);
        QVERIFY(std::any_of((*none)->diagnostics.begin(), (*none)->diagnostics.end(), [](const Diagnostic& d) {
            return d.severity == Severity::Info && d.message.find("not given") != std::string::npos;
        }));
        const auto& t0 = (*none)->value((*none)->events[0])->tensors.front();
        QCOMPARE((*none)->tensorData(t0).error().code, ErrorCode::OutOfRange);
        // An empty tensor (offset -1) has no bytes and is fine.
        const auto& t1 = (*none)->value((*none)->events[1])->tensors.front();
        QVERIFY_RESULT((*none)->tensorData(t1));
        // Too small a buffer: a warning naming the event, and an error for that tensor.
        auto small = b.read(Bytes::fromVector(std::vector<std::uint8_t>(20)));
        QVERIFY_RESULT(small);
        const auto warning = std::find_if((*small)->diagnostics.begin(), (*small)->diagnostics.end(),
            [](const Diagnostic& d) { return d.severity == Severity::Warning; });
        QVERIFY(warning != (*small)->diagnostics.end());
        QVERIFY(warning->message.find("[8, 24)") != std::string::npos);
        QCOMPARE(warning->fieldPath, std::string("run_data[0].events[0].debug_event.debug_entry"));
        auto err = (*small)->tensorData((*small)->value((*small)->events[0])->tensors.front());
        QVERIFY(!err);
        QCOMPARE(err.error().offset, std::optional<std::uint64_t>(8));
    }

    void debugBufferNextToFileMustHoldEveryTensor()
    {
        const QDir dir(test::tempDir());
        QVERIFY(dir.mkpath(QStringLiteral("small")));
        EtdumpBuilder b;
        b.block("Execute").debugTensor(0, 0, ScalarType::Float, { 4 }, 0);
        QVERIFY(!writeTemp(QStringLiteral("small/t.etdp"), toQ(b.bytes())).isEmpty());
        QVERIFY(!writeTemp(QStringLiteral("small/t.bin"), QByteArray(8, '\0')).isEmpty());
        auto r = readEtdumpFile((test::tempDir() + QStringLiteral("/small/t.etdp")).toStdString());
        QVERIFY_RESULT(r);
        QVERIFY((*r)->debugBufferPath.empty());
        QVERIFY(std::any_of((*r)->diagnostics.begin(), (*r)->diagnostics.end(),
            [](const Diagnostic& d) { return d.message.find("too small") != std::string::npos; }));
        // Given explicitly, a missing buffer is an error.
        EtdumpReadOptions o;
        o.debugBufferPath = (test::tempDir() + QStringLiteral("/small/missing.bin")).toStdString();
        auto missing = readEtdumpFile((test::tempDir() + QStringLiteral("/small/t.etdp")).toStdString(), o);
        QVERIFY_ERROR(missing, ErrorCode::Io, "missing.bin");
    }

    void badInputGetsClearErrors_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<int>("code");
        QTest::addColumn<QString>("needle");
        QTest::addColumn<qint64>("offset");
        QTest::addColumn<QString>("fieldPath");
        EtdumpBuilder b;
        b.loadBlock();
        b.block("Execute").profile("OPERATOR_CALL", 0, 0, 1, 2).profile("Method::execute", -1, 0, 0, 3);
        const QByteArray good = toQ(b.bytes());
        QTest::newRow("empty") << QByteArray() << int(ErrorCode::Truncated) << "too short" << qint64(0) << "";
        QByteArray cut = good.left(good.size() - 16);
        QTest::newRow("truncated") << cut << int(ErrorCode::Truncated) << "size prefix says" << qint64(0) << "";
        QByteArray pte(64, '\0');
        pte.replace(4, 4, "ET12");
        QTest::newRow("pte") << pte << int(ErrorCode::NotAPteFile) << "ExecuTorch program" << qint64(4) << "";
        QByteArray bpte(64, '\0');
        bpte.replace(4, 4, "BP08");
        QTest::newRow("bundled") << bpte << int(ErrorCode::NotAPteFile) << "bundled program" << qint64(4) << "";
        QTest::newRow("zip") << QByteArray("PK\x03\x04garbage-garbage") << int(ErrorCode::NotAPteFile) << "ZIP"
                             << qint64(0) << "";
        QTest::newRow("garbage") << QByteArray(32, 'x') << int(ErrorCode::NotAPteFile) << "'ED00'" << qint64(8) << "";
        // A string whose length runs past the end: the verifier refuses it, the walk says which field.
        QByteArray badString = good;
        const auto at = badString.indexOf("OPERATOR_CALL");
        QVERIFY(at > 4);
        const std::uint32_t huge = 0x7fff0000u;
        std::memcpy(badString.data() + at - 4, &huge, 4);
        QTest::newRow("string") << badString << int(ErrorCode::VerificationFailed) << "run past the end"
                                << qint64(at - 4) << "run_data[1].events[0].profile_event.name";
        // The root offset pointing past the end.
        QByteArray badRoot = good;
        const std::uint32_t far = 0x40000000u;
        std::memcpy(badRoot.data() + 4, &far, 4);
        QTest::newRow("root") << badRoot << int(ErrorCode::VerificationFailed) << "outside the buffer"
                              << qint64(4 + 0x40000000ll) << "";
    }

    void badInputGetsClearErrors()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(int, code);
        QFETCH(QString, needle);
        QFETCH(qint64, offset);
        QFETCH(QString, fieldPath);
        auto r = readEtdumpBytes(bytesOf(bytes), "bad.etdp");
        QVERIFY_ERROR(r, ErrorCode(code), "bad.etdp", needle.toStdString());
        QCOMPARE(r.error().offset, std::optional<std::uint64_t>(std::uint64_t(offset)));
        QCOMPARE(QString::fromStdString(r.error().fieldPath), fieldPath);
    }

    void trailingBytesAreAWarning()
    {
        EtdumpBuilder b;
        b.block("Execute").profile("OPERATOR_CALL", 0, 0, 1, 2);
        auto bytes = b.bytes();
        const std::size_t length = bytes.size();
        bytes.resize(length + 5, 0xee);
        auto r = readEtdumpBytes(Bytes::fromVector(bytes), "t.etdp");
        QVERIFY_RESULT(r);
        QCOMPARE((*r)->events.size(), std::size_t(1));
        QVERIFY(std::any_of((*r)->diagnostics.begin(), (*r)->diagnostics.end(), [&](const Diagnostic& d) {
            return d.severity == Severity::Warning && d.offset == std::optional<std::uint64_t>(length);
        }));
    }

    void allocationsNamingNoAllocatorAreReported()
    {
        EtdumpBuilder b;
        b.block("Execute").allocator("only").allocation(1, 8).allocation(2, 8).allocation(0, 8);
        auto r = b.read();
        QVERIFY_RESULT(r);
        const auto it = std::find_if((*r)->diagnostics.begin(), (*r)->diagnostics.end(),
            [](const Diagnostic& d) { return d.code == ErrorCode::OutOfRange; });
        QVERIFY(it != (*r)->diagnostics.end());
        QVERIFY(it->message.find("2 allocation event(s)") != std::string::npos);
        QCOMPARE(it->fieldPath, std::string("run_data[0].events[1].allocation_event.allocator_id"));
    }

    void eventsWithSeveralMembersAreReported()
    {
        flatbuffers::FlatBufferBuilder fbb;
        const auto pe = etdump::CreateProfileEvent(fbb, fbb.CreateString("OPERATOR_CALL"), 0, 0);
        const auto ae = etdump::CreateAllocationEvent(fbb, 1, 4);
        std::vector events { etdump::CreateEvent(fbb, pe, ae) };
        const auto run = etdump::CreateRunData(fbb, fbb.CreateString("Execute"), -1, 0, fbb.CreateVector(events));
        fbb.Finish(etdump::CreateETDump(fbb, 0, fbb.CreateVector(std::vector { run })), "ED00");
        auto r = readEtdumpBytes(Bytes::fromVector(std::vector<std::uint8_t>(
                                     fbb.GetBufferPointer(), fbb.GetBufferPointer() + fbb.GetSize())),
            "two.etdp");
        QVERIFY_RESULT(r);
        QCOMPARE((*r)->events[0].kind, EtdumpEventKind::Profile);
        QVERIFY(std::any_of((*r)->diagnostics.begin(), (*r)->diagnostics.end(),
            [](const Diagnostic& d) { return d.message.find("more than one") != std::string::npos; }));
    }

    void emptyDelegateIdentifierIsNone()
    {
        EtdumpBuilder b;
        b.block("Execute").delegateStr("", 0, 0, 1, 2);
        auto r = b.read();
        QVERIFY_RESULT(r);
        QVERIFY(!(*r)->events[0].isDelegateEvent());
    }

    // ---- numbers and gaps ----

    void tensorValuesFollowStridesAndDtypes()
    {
        // A 2x3 float tensor stored transposed (strides 1, 2): logical order differs from memory order.
        EtdumpBuilder b;
        b.block("Execute").debugTensor(0, 0, ScalarType::Float, { 2, 3 }, 0, false, { 1, 2 });
        const std::vector<std::int64_t> longs { 5, -6 };
        b.debugTensor(0, 1, ScalarType::Long, { 2 }, 24);
        std::vector<std::uint8_t> buffer = floatBuffer({ 0, 3, 1, 4, 2, 5 });
        const auto* lb = reinterpret_cast<const std::uint8_t*>(longs.data());
        buffer.insert(buffer.end(), lb, lb + 16);
        auto r = b.read(Bytes::fromVector(buffer));
        QVERIFY_RESULT(r);
        auto floats = loggedTensorValues(**r, (*r)->value((*r)->events[0])->tensors.front());
        QVERIFY_RESULT(floats);
        QCOMPARE(*floats, (std::vector<double> { 0, 1, 2, 3, 4, 5 }));
        auto ints = loggedTensorValues(**r, (*r)->value((*r)->events[1])->tensors.front());
        QVERIFY_RESULT(ints);
        QCOMPARE(*ints, (std::vector<double> { 5, -6 }));
    }

    void bundledTensorValuesFollowDimOrder()
    {
        // sizes [1, 2, 2] stored channels-last (dim order 0, 2, 1): memory holds [a00 a10 a01 a11].
        BundledValue v;
        v.kind = BundledValue::Kind::Tensor;
        v.scalarType = ScalarType::Float;
        v.sizes = { 1, 2, 2 };
        v.dimOrder = { 0, 2, 1 };
        v.data = Bytes::fromVector(floatBuffer({ 1, 3, 2, 4 }));
        auto values = bundledTensorValues(v);
        QVERIFY_RESULT(values);
        QCOMPARE(*values, (std::vector<double> { 1, 2, 3, 4 }));
        v.dimOrder = { 0, 0, 1 };
        QVERIFY(!bundledTensorValues(v));
    }

    void numericGapMetrics_data()
    {
        QTest::addColumn<std::vector<double>>("expected");
        QTest::addColumn<std::vector<double>>("actual");
        QTest::addColumn<double>("mse");
        QTest::addColumn<double>("l1");
        QTest::addColumn<double>("snr");
        // Worked by hand: differences (0, 1, -2): MSE 5/3, L1 3 (a sum), signal mean(1, 4, 9) = 14/3, SNR 10
        // log10(14/5).
        QTest::newRow("small") << std::vector<double> { 1, 2, 3 } << std::vector<double> { 1, 1, 5 } << 5.0 / 3 << 3.0
                               << 10 * std::log10(14.0 / 5.0);
        QTest::newRow("identical") << std::vector<double> { 0.5, -1 } << std::vector<double> { 0.5, -1 } << 0.0 << 0.0
                                   << std::numeric_limits<double>::infinity();
        // NaN counts as 0 on both sides (as the Inspector's comparator does).
        QTest::newRow("nan") << std::vector<double> { NAN, 2 } << std::vector<double> { 0, NAN } << 2.0 << 2.0
                             << 10 * std::log10(2.0 / 2.0);
    }

    void numericGapMetrics()
    {
        QFETCH(std::vector<double>, expected);
        QFETCH(std::vector<double>, actual);
        QFETCH(double, mse);
        QFETCH(double, l1);
        QFETCH(double, snr);
        auto g = numericGap(expected, actual);
        QVERIFY_RESULT(g);
        QCOMPARE(g->mse, mse);
        QCOMPARE(g->l1, l1);
        QCOMPARE(g->snr, snr);
        QCOMPARE(g->count, expected.size());
    }

    void numericGapNeedsEqualSizes() { QVERIFY(!numericGap(std::vector<double> { 1 }, std::vector<double> { 1, 2 })); }

    void tensorStatistics()
    {
        const std::vector<double> v { 3, NAN, -1, INFINITY, 4, 0 };
        const auto s = tensorStats(v, 2);
        QCOMPARE(s.count, std::size_t(6));
        QCOMPARE(s.nanCount, std::size_t(1));
        QCOMPARE(s.infCount, std::size_t(1));
        QCOMPARE(s.min, -1.0);
        QCOMPARE(s.max, 4.0);
        QCOMPARE(s.mean, 1.5);
        QCOMPARE(s.first.size(), std::size_t(2));
        QCOMPARE(s.first[0], 3.0);
    }
};

QTEST_GUILESS_MAIN(TestEtdump)
#include "tst_etdump.moc"
