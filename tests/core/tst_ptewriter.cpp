// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "errorcheck.h"
#include "programbuilders.h"
#include "pte/mappedfile.h"
#include "pte/program.h"
#include "pte/programequality.h"
#include "pte/ptereader.h"
#include "pte/ptewriter.h"
#include "pte/schema/program_generated.h"
#include "pte/syntheticprogram.h"
#include "testutils.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QStandardPaths>
#include <QTest>

#include <cstring>
#include <nlohmann/json.hpp>
#include <unistd.h>

using namespace pte;
using pte::test::ev;
using pte::test::instr;
namespace fb = executorch_flatbuffer;

namespace {

Bytes pattern(std::size_t n, std::uint8_t seed)
{
    std::vector<std::uint8_t> v(n);
    for (std::size_t i = 0; i < n; ++i)
        v[i] = std::uint8_t(seed + i * 7);
    return Bytes::fromVector(std::move(v));
}

Tensor tensor(ScalarType t, std::vector<std::int32_t> sizes)
{
    Tensor x;
    x.scalarType = t;
    x.sizes = std::move(sizes);
    for (std::size_t i = 0; i < x.sizes.size(); ++i)
        x.dimOrder.push_back(std::uint8_t(i));
    return x;
}

/** An emitted program (constants in constant_buffer, delegate blobs inline) using every kind of value. */
Program emittedProgram()
{
    Program p;
    ExecutionPlan fwd;
    fwd.name = "forward";
    fwd.containerMetaType = ContainerMetadata { "inp-spec", "out-spec" };
    Tensor planned = tensor(ScalarType::Float, { 2, 3 });
    planned.allocationInfo = AllocationDetails { 1, 0, 0 };
    planned.extraTensorInfo = ExtraTensorInfo { 0, std::string("x"), TensorDataLocation::Segment, DeviceType::Cpu, 0 };
    Tensor weight = tensor(ScalarType::Float, { 4 });
    weight.dataBufferIdx = 1;
    Tensor bias = tensor(ScalarType::Float, { 2 });
    bias.dataBufferIdx = 2;
    Tensor state = tensor(ScalarType::Float, { 100 });
    state.allocationInfo = AllocationDetails { 1, 32, 0 };
    state.dataBufferIdx = 1; // initial value from mutable entry 1
    state.requiresGrad = true;
    state.shapeDynamism = ShapeDynamism::DynamicBound;
    fwd.values = {
        ev(Null {}), // 0
        ev(Int { -7 }), // 1
        ev(Bool { true }), // 2
        ev(Double { 2.5 }), // 3
        ev(planned), // 4
        ev(String { "hello" }), // 5
        ev(IntList { { 1 } }), // 6
        ev(DoubleList { { 1.5, -2.0 } }), // 7
        ev(BoolList { { true, false, true } }), // 8
        ev(TensorList { { 4 } }), // 9
        ev(OptionalTensorList { { 4, -1 } }), // 10
        ev(weight), // 11
        ev(bias), // 12
        ev(state), // 13
    };
    fwd.inputs = { 4 };
    fwd.outputs = { 4 };
    Chain c;
    c.instructions = {
        instr(KernelCall { 0, { 4, 11, 1, 4, 4 } }),
        instr(DelegateCall { 0, { 4, 4 } }),
        instr(MoveCall { 4, 4 }),
        instr(JumpFalseCall { 2, 4 }),
        instr(FreeCall { 4 }),
        instr(DelegateCall { 1, { 4 } }),
    };
    c.stacktrace = std::vector<FrameList>(6,
        FrameList { { Frame { std::string("model.py"), 12, std::string("forward"), std::string("return x + w") } } });
    fwd.chains = { c };
    fwd.operators = { Operator { "aten::add", "out" } };
    BackendDelegate xnn;
    xnn.id = "XnnpackBackend";
    xnn.processed = { DataLocation::Inline, 0 };
    xnn.compileSpecs = { CompileSpec { "key", Bytes::copyOf("value") } };
    BackendDelegate empty;
    empty.id = "EmptyBackend";
    empty.processed = { DataLocation::Inline, 1 };
    fwd.delegates = { xnn, empty };
    fwd.nonConstBufferSizes = { 0, 464 };
    fwd.nonConstBufferDevice = std::vector<NonConstBufferDevice> { { 1, DeviceType::Cuda, 1 } };

    ExecutionPlan second;
    second.name = "second";
    second.values = { ev(Int { 3 }), ev(tensor(ScalarType::Long, {})) };
    second.inputs = {};
    second.outputs = { 0 };
    Chain c2;
    c2.instructions = { instr(MoveCall { 0, 0 }), instr(DelegateCall { 0, { 1 } }) };
    second.chains = { c2 };
    BackendDelegate again;
    again.id = "XnnpackBackend";
    again.processed = { DataLocation::Inline, 2 };
    second.delegates = { again };
    second.nonConstBufferSizes = { 0 };

    p.executionPlan = { fwd, second };
    p.constantBuffer = { Buffer {}, Buffer { pattern(12, 1) }, Buffer { pattern(8, 100) } };
    p.backendDelegateData = { Buffer { pattern(40, 9) }, Buffer {}, Buffer { pattern(40, 9) } };
    return p;
}

std::vector<Bytes> mutableData() { return { Bytes(), pattern(400, 50), pattern(4, 200) }; }

std::vector<std::pair<std::string, Bytes>> namedData()
{
    return { { "shared", pattern(100, 3) }, { "alias", pattern(100, 3) }, { "other", pattern(7, 77) } };
}

Program laidOut(const SerializeOptions& options = {})
{
    auto r = layoutForSerialization(emittedProgram(), mutableData(), namedData(), options);
    if (!r)
        qFatal("layoutForSerialization failed: %s", r.error().toString().c_str());
    return std::move(r).value();
}

std::uint32_t u32(const std::vector<std::uint8_t>& b, std::size_t at)
{
    std::uint32_t v = 0;
    std::memcpy(&v, b.data() + at, 4);
    return v;
}
std::uint64_t u64(const std::vector<std::uint8_t>& b, std::size_t at)
{
    std::uint64_t v = 0;
    std::memcpy(&v, b.data() + at, 8);
    return v;
}

std::vector<std::uint8_t> serialized(const Program& p, const WriteOptions& o = {})
{
    auto s = serializePte(p, o);
    if (!s)
        qFatal("serializePte failed: %s", s.error().toString().c_str());
    auto bytes = concatenate(*s);
    if (bytes.size() != s->totalSize)
        qFatal("totalSize mismatch");
    return bytes;
}

const fb::Program* verified(const std::vector<std::uint8_t>& bytes, std::uint64_t programSize)
{
    flatbuffers::Verifier v(bytes.data(), programSize);
    if (!fb::VerifyProgramBuffer(v))
        return nullptr;
    return fb::GetProgram(bytes.data());
}

QString writeTemp(const std::vector<std::uint8_t>& bytes, const QString& name)
{
    const QString path = test::tempDir() + QLatin1Char('/') + name;
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly))
        qFatal("cannot write %s", qPrintable(path));
    f.write(reinterpret_cast<const char*>(bytes.data()), qint64(bytes.size()));
    return path;
}

QStringList dirEntries(const QString& dir)
{
    return QDir(dir).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot, QDir::Name);
}

} // namespace

/** Compares JSON values by their canonical dump (QCOMPARE cannot print nlohmann types). */
#define JSON_EQ(actual, expected) QCOMPARE((actual).dump(), nlohmann::json(expected).dump())

class TestPteWriter : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // ---- layoutForSerialization -------------------------------------------------------------------------------

    void layoutMatchesExirExample()
    {
        // docs/pte-format.md, Mutable data segments: constant offsets [0,0,16], mutable [{1,[0,0,400]}], segments
        // [{0,24},{128,404}].
        Program emitted;
        emitted.executionPlan.resize(1);
        emitted.executionPlan[0].name = "forward";
        emitted.constantBuffer = { Buffer {}, Buffer { pattern(12, 1) }, Buffer { pattern(8, 100) } };
        auto r = layoutForSerialization(emitted, mutableData(), {});
        QVERIFY_RESULT(r);
        const Program& p = *r;
        QVERIFY(p.constantBuffer.empty());
        QVERIFY(p.constantSegment.has_value());
        QCOMPARE(p.constantSegment->segmentIndex, 0u);
        QCOMPARE(p.constantSegment->offsets, (std::vector<std::uint64_t> { 0, 0, 16 }));
        QVERIFY(p.mutableDataSegments.has_value());
        QCOMPARE(p.mutableDataSegments->size(), std::size_t(1));
        QCOMPARE(p.mutableDataSegments->at(0).segmentIndex, 1u);
        QCOMPARE(p.mutableDataSegments->at(0).offsets, (std::vector<std::uint64_t> { 0, 0, 400 }));
        QCOMPARE(p.segments.size(), std::size_t(2));
        QCOMPARE(p.segments[0].offset, 0ull);
        QCOMPARE(p.segments[0].size, 24ull);
        QCOMPARE(p.segments[1].offset, 128ull);
        QCOMPARE(p.segments[1].size, 404ull);
        QVERIFY(!p.namedData.has_value());
        // Constant 1 is padded with zeros to 16, constant 2 is not padded.
        const auto c = p.segments[0].range(0, p.segments[0].contentSize());
        QCOMPARE(c.size(), std::size_t(24));
        QVERIFY(c.slice(0, 12).contentEquals(pattern(12, 1)));
        QCOMPARE(std::vector<std::uint8_t>(c.data() + 12, c.data() + 16), std::vector<std::uint8_t>(4, 0));
        QVERIFY(c.slice(16, 8).contentEquals(pattern(8, 100)));
        QVERIFY(p.segments[1].data.slice(0, 400).contentEquals(pattern(400, 50)));
        QVERIFY(p.segments[1].data.slice(400, 4).contentEquals(pattern(4, 200)));
        // The constant segment is made of views of the constants themselves (never copied) and zero padding.
        QVERIFY(p.segments[0].data.empty());
        QCOMPARE(p.segments[0].pieces.size(), std::size_t(3));
        QCOMPARE(p.segments[0].pieces[0].data(), emitted.constantBuffer[1].storage.data());
        QCOMPARE(p.segments[0].pieces[2].data(), emitted.constantBuffer[2].storage.data());
        QVERIFY(constantData(p, 2).contentEquals(pattern(8, 100)));
        QCOMPARE(constantData(p, 2).data(), emitted.constantBuffer[2].storage.data());
    }

    void layoutWithoutConstantsKeepsPlaceholder()
    {
        Program emitted;
        emitted.executionPlan.resize(1);
        auto r = layoutForSerialization(emitted, {}, {});
        QVERIFY_RESULT(r);
        QCOMPARE(r->constantSegment->offsets, std::vector<std::uint64_t> { 0 });
        QCOMPARE(r->segments.size(), std::size_t(1));
        QCOMPARE(r->segments[0].size, 0ull);
        QVERIFY(!r->mutableDataSegments.has_value());
        // Only empty segments: a plain flatbuffer without eh00, but segments = [{0,0}] is still listed.
        auto s = serializePte(*r);
        QVERIFY_RESULT(s);
        QCOMPARE(s->segmentBaseOffset, 0ull);
        QCOMPARE(s->parts.size(), std::size_t(1));
        const auto bytes = concatenate(*s);
        QVERIFY(std::memcmp(bytes.data() + 4, "ET12", 4) == 0);
        QVERIFY(std::memcmp(bytes.data() + 8, "eh00", 4) != 0);
        const auto* p = verified(bytes, bytes.size());
        QVERIFY(p);
        QCOMPARE(p->segments()->size(), 1u);
        QCOMPARE(p->segments()->Get(0)->offset(), 0ull);
        QCOMPARE(p->segments()->Get(0)->size(), 0ull);
    }

    void layoutExtractsDelegatesAndNamedData()
    {
        const Program p = laidOut();
        QCOMPARE(p.segments.size(), std::size_t(5));
        const std::uint64_t offsets[] = { 0, 128, 640, 768, 896 };
        const std::uint64_t sizes[] = { 24, 404, 40, 100, 7 };
        for (std::size_t i = 0; i < 5; ++i) {
            QCOMPARE(p.segments[i].offset, offsets[i]);
            QCOMPARE(p.segments[i].size, sizes[i]);
        }
        // Both copies of the 40-byte blob share segment 2; the empty blob stays inline, re-indexed.
        const auto& d0 = p.executionPlan[0].delegates;
        QCOMPARE(d0[0].processed.location, DataLocation::Segment);
        QCOMPARE(d0[0].processed.index, 2u);
        QCOMPARE(d0[1].processed.location, DataLocation::Inline);
        QCOMPARE(d0[1].processed.index, 0u);
        QCOMPARE(p.executionPlan[1].delegates[0].processed.location, DataLocation::Segment);
        QCOMPARE(p.executionPlan[1].delegates[0].processed.index, 2u);
        QCOMPARE(p.backendDelegateData.size(), std::size_t(1));
        QVERIFY(p.backendDelegateData[0].storage.empty());
        QVERIFY(p.segments[2].data.contentEquals(pattern(40, 9)));
        // Named data: the two keys with equal bytes share one segment.
        QVERIFY(p.namedData.has_value());
        QCOMPARE(p.namedData->size(), std::size_t(3));
        QCOMPARE(p.namedData->at(0).key, std::string("shared"));
        QCOMPARE(p.namedData->at(0).segmentIndex, 3u);
        QCOMPARE(p.namedData->at(1).key, std::string("alias"));
        QCOMPARE(p.namedData->at(1).segmentIndex, 3u);
        QCOMPARE(p.namedData->at(2).key, std::string("other"));
        QCOMPARE(p.namedData->at(2).segmentIndex, 4u);
    }

    void layoutKeepsDelegatesInlineWhenAsked()
    {
        SerializeOptions o;
        o.extractDelegateSegments = false;
        const Program p = laidOut(o);
        QCOMPARE(p.segments.size(), std::size_t(4)); // constant, mutable, 2 named
        QCOMPARE(p.backendDelegateData.size(), std::size_t(3));
        QCOMPARE(p.executionPlan[0].delegates[0].processed.location, DataLocation::Inline);
        QCOMPARE(p.executionPlan[0].delegates[0].processed.index, 0u);
        QCOMPARE(p.executionPlan[1].delegates[0].processed.index, 2u);
        QCOMPARE(p.namedData->at(0).segmentIndex, 2u);
        QCOMPARE(p.namedData->at(2).segmentIndex, 3u);
    }

    void layoutRejectsInconsistentInput_data()
    {
        QTest::addColumn<int>("kind");
        QTest::addColumn<int>("code");
        QTest::addColumn<QString>("message");
        QTest::addColumn<QString>("path");
        QTest::newRow("unreferenced inline blob")
            << 0 << int(ErrorCode::InvalidProgram) << "backend_delegate_data[3] is not referenced by any delegate"
            << "backend_delegate_data[3]";
        QTest::newRow("inline index out of range")
            << 1 << int(ErrorCode::OutOfRange) << "refers to inline blob 9 but backend_delegate_data has 3 entries"
            << "execution_plan[0].delegates[1].processed.index";
        QTest::newRow("segment reference") << 2 << int(ErrorCode::InvalidInput) << "refers to a segment"
                                           << "execution_plan[1].delegates[0].processed";
        QTest::newRow("mutable placeholder not empty")
            << 3 << int(ErrorCode::InvalidInput) << "mutable data entry 0 must be the empty placeholder, not 4 bytes"
            << "mutable_data[0]";
        QTest::newRow("duplicate named key")
            << 4 << int(ErrorCode::InvalidInput) << "named data key 'shared' appears more than once"
            << "named_data[1]";
        QTest::newRow("already laid out") << 5 << int(ErrorCode::InvalidInput) << "already has 5 segments"
                                          << "segments";
        QTest::newRow("bad alignment") << 6 << int(ErrorCode::InvalidInput)
                                       << "constant tensor alignment must be a power of two"
                                       << "";
    }
    void layoutRejectsInconsistentInput()
    {
        QFETCH(int, kind);
        QFETCH(int, code);
        QFETCH(QString, message);
        QFETCH(QString, path);
        Program p = emittedProgram();
        auto mutables = mutableData();
        auto named = namedData();
        SerializeOptions o;
        switch (kind) {
        case 0:
            p.backendDelegateData.push_back(Buffer { pattern(3, 1) });
            break;
        case 1:
            p.executionPlan[0].delegates[1].processed.index = 9;
            break;
        case 2:
            p.executionPlan[1].delegates[0].processed.location = DataLocation::Segment;
            break;
        case 3:
            mutables[0] = pattern(4, 0);
            break;
        case 4:
            named[1].first = "shared";
            break;
        case 5:
            p = laidOut();
            break;
        case 6:
            o.write.constantTensorAlignment = 24;
            break;
        }
        const auto r = layoutForSerialization(p, mutables, named, o);
        QVERIFY_ERROR(r, ErrorCode(code), message.toStdString());
        QCOMPARE(QString::fromStdString(r.error().fieldPath), path);
    }

    // ---- serializePte ------------------------------------------------------------------------------------------

    void serializesExactLayout()
    {
        const Program p = laidOut();
        auto s = serializePte(p);
        QVERIFY_RESULT(s);
        const auto bytes = concatenate(*s);
        QCOMPARE(std::uint64_t(bytes.size()), s->totalSize);
        // Header: root offset, ET12, eh00, length 32, program_size, segment_base_offset, segment_data_size.
        QVERIFY(std::memcmp(bytes.data() + 4, "ET12", 4) == 0);
        QVERIFY(std::memcmp(bytes.data() + 8, "eh00", 4) == 0);
        QCOMPARE(u32(bytes, 12), 32u);
        QCOMPARE(u64(bytes, 16), s->programSize);
        QCOMPARE(u64(bytes, 24), s->segmentBaseOffset);
        QCOMPARE(s->segmentBaseOffset % 128, 0ull);
        QVERIFY(s->segmentBaseOffset >= s->programSize);
        QVERIFY(s->segmentBaseOffset - s->programSize < 128);
        QCOMPARE(u64(bytes, 32), 903ull); // 896 + 7: end of the last segment
        QCOMPARE(s->totalSize, s->segmentBaseOffset + 903); // nothing after the last segment
        QVERIFY(u32(bytes, 0) >= 40);
        // Zero padding between the program and the segments, and between segments.
        for (std::uint64_t i = s->programSize; i < s->segmentBaseOffset; ++i)
            QCOMPARE(bytes[i], std::uint8_t(0));
        for (const auto& seg : p.segments) {
            QCOMPARE(seg.offset % 128, 0ull);
            QVERIFY(
                std::memcmp(bytes.data() + s->segmentBaseOffset + seg.offset, seg.range(0, seg.size).data(), seg.size)
                == 0);
        }
        for (std::uint64_t i = 24; i < 128; ++i)
            QCOMPARE(bytes[s->segmentBaseOffset + i], std::uint8_t(0));

        // The flatbuffer verifies and holds what was written.
        const auto* fp = verified(bytes, s->programSize);
        QVERIFY(fp);
        QCOMPARE(fp->version(), 0u);
        QCOMPARE(fp->execution_plan()->size(), 2u);
        QVERIFY(fp->constant_buffer() != nullptr);
        QCOMPARE(fp->constant_buffer()->size(), 0u);
        QCOMPARE(fp->constant_segment()->segment_index(), 0u);
        QCOMPARE(fp->constant_segment()->offsets()->size(), 3u);
        QCOMPARE(fp->constant_segment()->offsets()->Get(2), 16ull);
        QCOMPARE(fp->mutable_data_segments()->size(), 1u);
        QCOMPARE(fp->mutable_data_segments()->Get(0)->segment_index(), 1u);
        QCOMPARE(fp->mutable_data_segments()->Get(0)->offsets()->Get(2), 400ull);
        QCOMPARE(fp->segments()->size(), 5u);
        QCOMPARE(fp->segments()->Get(4)->offset(), 896ull);
        QCOMPARE(fp->segments()->Get(4)->size(), 7ull);
        QCOMPARE(fp->named_data()->Get(1)->key()->str(), std::string("alias"));
        QCOMPARE(fp->named_data()->Get(1)->segment_index(), 3u);
        const auto* plan = fp->execution_plan()->Get(0);
        QCOMPARE(plan->name()->str(), std::string("forward"));
        QCOMPARE(plan->values()->size(), 14u);
        const fb::KernelTypes kinds[] = { fb::KernelTypes::Null, fb::KernelTypes::Int, fb::KernelTypes::Bool,
            fb::KernelTypes::Double, fb::KernelTypes::Tensor, fb::KernelTypes::String, fb::KernelTypes::IntList,
            fb::KernelTypes::DoubleList, fb::KernelTypes::BoolList, fb::KernelTypes::TensorList,
            fb::KernelTypes::OptionalTensorList };
        for (std::size_t i = 0; i < std::size(kinds); ++i)
            QCOMPARE(plan->values()->Get(flatbuffers::uoffset_t(i))->val_type(), kinds[i]);
        QCOMPARE(plan->values()->Get(1)->val_as_Int()->int_val(), -7ll);
        QCOMPARE(plan->values()->Get(3)->val_as_Double()->double_val(), 2.5);
        QCOMPARE(plan->values()->Get(5)->val_as_String()->string_val()->str(), std::string("hello"));
        QCOMPARE(plan->values()->Get(10)->val_as_OptionalTensorList()->items()->Get(1), -1);
        const auto* t = plan->values()->Get(4)->val_as_Tensor();
        QCOMPARE(t->scalar_type(), fb::ScalarType::FLOAT);
        QCOMPARE(t->sizes()->Get(1), 3);
        QCOMPARE(t->allocation_info()->memory_id(), 1u);
        QCOMPARE(t->extra_tensor_info()->fully_qualified_name()->str(), std::string("x"));
        QVERIFY(plan->values()->Get(11)->val_as_Tensor()->allocation_info() == nullptr);
        QVERIFY(plan->values()->Get(11)->val_as_Tensor()->extra_tensor_info() == nullptr);
        const auto* chain = plan->chains()->Get(0);
        QVERIFY(chain->inputs() != nullptr && chain->outputs() != nullptr);
        const fb::InstructionArguments instrKinds[] = { fb::InstructionArguments::KernelCall,
            fb::InstructionArguments::DelegateCall, fb::InstructionArguments::MoveCall,
            fb::InstructionArguments::JumpFalseCall, fb::InstructionArguments::FreeCall };
        for (std::size_t i = 0; i < std::size(instrKinds); ++i)
            QCOMPARE(chain->instructions()->Get(flatbuffers::uoffset_t(i))->instr_args_type(), instrKinds[i]);
        QCOMPARE(chain->instructions()->Get(3)->instr_args_as_JumpFalseCall()->destination_instruction(), 4);
        QCOMPARE(chain->stacktrace()->Get(5)->items()->Get(0)->context()->str(), std::string("return x + w"));
        QCOMPARE(plan->delegates()->Get(0)->processed()->location(), fb::DataLocation::SEGMENT);
        QCOMPARE(plan->delegates()->Get(0)->compile_specs()->Get(0)->value()->size(), 5u);
        QCOMPARE(plan->non_const_buffer_device()->Get(0)->device_type(), fb::DeviceType::CUDA);
        // Required-but-empty vectors are present, optional fields absent.
        const auto* second = fp->execution_plan()->Get(1);
        QVERIFY(second->inputs() != nullptr);
        QCOMPARE(second->inputs()->size(), 0u);
        QVERIFY(second->operators() != nullptr);
        QVERIFY(second->container_meta_type() == nullptr);
        QVERIFY(second->non_const_buffer_device() == nullptr);
        QVERIFY(second->chains()->Get(0)->stacktrace() == nullptr);
        QCOMPARE(second->values()->Get(1)->val_as_Tensor()->sizes()->size(), 0u);
        QCOMPARE(second->values()->Get(1)->val_as_Tensor()->dim_order()->size(), 0u);
    }

    void decodesBackEqual_data()
    {
        QTest::addColumn<bool>("extract");
        QTest::addColumn<int>("delegateAlignment");
        QTest::newRow("delegates in segments") << true << 16;
        QTest::newRow("delegates inline") << false << 16;
        QTest::newRow("delegates inline, align 64") << false << 64;
    }
    void decodesBackEqual()
    {
        QFETCH(bool, extract);
        QFETCH(int, delegateAlignment);
        SerializeOptions o;
        o.extractDelegateSegments = extract;
        o.write.delegateAlignment = std::uint32_t(delegateAlignment);
        const Program p = laidOut(o);
        auto s = serializePte(p, o.write);
        QVERIFY_RESULT(s);
        const auto bytes = concatenate(*s);
        const auto* fp = verified(bytes, s->programSize);
        QVERIFY(fp);
        // The header region grows to the largest force_align; inline blobs start aligned in the file.
        const std::uint32_t padded = std::max(32, delegateAlignment);
        QCOMPARE(s->parts.front().size(), std::size_t(8 + padded));
        QCOMPARE(u32(bytes, 12), 32u);
        for (const auto* d : *fp->backend_delegate_data()) {
            if (d->data()->size() == 0)
                continue; // flatbuffers does not align empty vectors (there is no data)
            const auto offset = std::uintptr_t(d->data()->data()) - std::uintptr_t(bytes.data());
            QCOMPARE(offset % std::uintptr_t(delegateAlignment), std::uintptr_t(0));
        }
        QCOMPARE(fp->backend_delegate_data()->size(), extract ? 1u : 3u);
        if (!extract)
            QCOMPARE(fp->backend_delegate_data()->Get(2)->data()->size(), 40u);
        // Our reader gives back the same program, field by field and byte by byte.
        auto file = readPteBytes(Bytes::fromVector(bytes), "decodes.pte");
        QVERIFY_RESULT(file);
        QVERIFY((*file)->header.has_value());
        QCOMPARE((*file)->header->programSize, s->programSize);
        QCOMPARE((*file)->header->segmentBaseOffset, s->segmentBaseOffset);
        const auto diff = programDifference(p, *(*file)->program);
        QVERIFY2(!diff, diff ? diff->c_str() : "");
    }

    void headerPaddingFollowsMaxAlignment_data()
    {
        QTest::addColumn<int>("constantAlignment");
        QTest::addColumn<int>("delegateAlignment");
        QTest::addColumn<int>("segmentAlignment");
        QTest::addColumn<int>("paddedHeader");
        QTest::newRow("defaults") << 16 << 16 << 128 << 32;
        QTest::newRow("delegate 64") << 16 << 64 << 128 << 64;
        QTest::newRow("constant 128") << 128 << 16 << 128 << 128;
        QTest::newRow("segments 4096") << 16 << 16 << 4096 << 32;
        QTest::newRow("small segments") << 16 << 16 << 16 << 32;
    }
    void headerPaddingFollowsMaxAlignment()
    {
        QFETCH(int, constantAlignment);
        QFETCH(int, delegateAlignment);
        QFETCH(int, segmentAlignment);
        QFETCH(int, paddedHeader);
        Program p = laidOut();
        // A legacy constant buffer entry too, so Buffer.storage alignment is exercised.
        p.constantBuffer = { Buffer {}, Buffer { pattern(5, 1) } };
        WriteOptions o;
        o.constantTensorAlignment = std::uint32_t(constantAlignment);
        o.delegateAlignment = std::uint32_t(delegateAlignment);
        o.segmentAlignment = std::uint64_t(segmentAlignment);
        auto s = serializePte(p, o);
        QVERIFY_RESULT(s);
        const auto bytes = concatenate(*s);
        QCOMPARE(s->parts.front().size(), std::size_t(8 + paddedHeader));
        for (int i = 40; i < 8 + paddedHeader; ++i)
            QCOMPARE(bytes[std::size_t(i)], std::uint8_t(0));
        QCOMPARE(s->segmentBaseOffset % std::uint64_t(segmentAlignment), 0ull);
        const auto* fp = verified(bytes, s->programSize);
        QVERIFY(fp);
        const auto storage =
            std::uintptr_t(fp->constant_buffer()->Get(1)->storage()->data()) - std::uintptr_t(bytes.data());
        QCOMPARE(storage % std::uintptr_t(std::max(constantAlignment, delegateAlignment)), std::uintptr_t(0));
        std::uint64_t end = 0;
        for (const auto* seg : *fp->segments()) {
            QCOMPARE(seg->offset() % std::uint64_t(segmentAlignment), 0ull);
            QVERIFY(seg->offset() >= end);
            QVERIFY(seg->offset() - end < std::uint64_t(segmentAlignment));
            end = seg->offset() + seg->size();
        }
        QCOMPARE(s->totalSize, s->segmentBaseOffset + end);
    }

    void namedDataAlignmentUsesLcm()
    {
        Program p;
        p.executionPlan.resize(1);
        DataSegment a;
        a.data = pattern(10, 1);
        DataSegment b;
        b.data = pattern(10, 2);
        b.alignment = 384; // lcm(128, 384) = 384
        p.segments = { a, b };
        auto s = serializePte(p);
        QVERIFY_RESULT(s);
        const auto bytes = concatenate(*s);
        const auto* fp = verified(bytes, s->programSize);
        QVERIFY(fp);
        QCOMPARE(fp->segments()->Get(1)->offset(), 384ull);
        QCOMPARE(s->totalSize, s->segmentBaseOffset + 394);
    }

    void serializationIsDeterministic()
    {
        const auto a = serialized(laidOut());
        const auto b = serialized(laidOut());
        QCOMPARE(a.size(), b.size());
        QVERIFY(a == b);
    }

    void segmentsAreNotCopied()
    {
        const Program p = laidOut();
        auto s = serializePte(p);
        QVERIFY_RESULT(s);
        std::size_t views = 0;
        for (const auto& seg : p.segments) {
            for (const auto& view : seg.pieces.empty() ? std::vector<Bytes> { seg.data } : seg.pieces) {
                if (view.empty())
                    continue;
                const bool viewed = std::any_of(s->parts.begin(), s->parts.end(),
                    [&](const Bytes& part) { return part.data() == view.data() && part.size() == view.size(); });
                QVERIFY(viewed);
                ++views;
            }
        }
        QVERIFY(views > 0);
    }

    void rejectsBadPrograms_data()
    {
        QTest::addColumn<int>("kind");
        QTest::addColumn<int>("code");
        QTest::addColumn<QString>("path");
        QTest::newRow("segment size mismatch") << 0 << int(ErrorCode::InvalidProgram) << "segments[1]";
        QTest::newRow("unknown value type") << 1 << int(ErrorCode::Unsupported) << "execution_plan[0].values[2]";
        QTest::newRow("unknown instruction type")
            << 2 << int(ErrorCode::Unsupported) << "execution_plan[1].chains[0].instructions[1]";
        QTest::newRow("segment alignment 0") << 3 << int(ErrorCode::InvalidInput) << "";
    }
    void rejectsBadPrograms()
    {
        QFETCH(int, kind);
        QFETCH(int, code);
        QFETCH(QString, path);
        Program p = laidOut();
        WriteOptions o;
        switch (kind) {
        case 0:
            p.segments[1].size = 5;
            break;
        case 1:
            p.executionPlan[0].values[2] = EValue { std::monostate {}, 42 };
            break;
        case 2:
            p.executionPlan[1].chains[0].instructions[1] = Instruction { std::monostate {}, 9 };
            break;
        case 3:
            o.segmentAlignment = 0;
            break;
        }
        const auto r = serializePte(p, o);
        QVERIFY(!r);
        QCOMPARE(int(r.error().code), code);
        QCOMPARE(QString::fromStdString(r.error().fieldPath), path);
    }

    void writesNoneUnionsAsIs()
    {
        Program p = laidOut();
        p.executionPlan[0].values[0] = EValue {};
        auto s = serializePte(p);
        QVERIFY_RESULT(s);
        const auto bytes = concatenate(*s);
        const auto* fp = verified(bytes, s->programSize);
        QVERIFY(fp);
        QCOMPARE(fp->execution_plan()->Get(0)->values()->Get(0)->val_type(), fb::KernelTypes::NONE);
    }

    // ---- flatc cross-check -----------------------------------------------------------------------------------

    void flatcDecodesOutput()
    {
        const QString flatc = QStandardPaths::findExecutable(QStringLiteral("flatc"));
        if (flatc.isEmpty())
            QSKIP("flatc is not installed");
        const QString schema =
            QFileInfo(test::testDataDir() + QStringLiteral("/../../schema/program.fbs")).absoluteFilePath();
        if (!QFileInfo::exists(schema))
            QSKIP("schema/program.fbs not found next to tests/data");
        const Program p = laidOut();
        const auto bytes = serialized(p);
        const QString dir = test::tempDir() + QStringLiteral("/flatc");
        QDir().mkpath(dir);
        const QString pte = writeTemp(bytes, QStringLiteral("flatc/cross.pte"));
        QProcess proc;
        proc.start(flatc,
            { QStringLiteral("--json"), QStringLiteral("--strict-json"), QStringLiteral("--defaults-json"),
                QStringLiteral("--raw-binary"), QStringLiteral("-o"), dir, schema, QStringLiteral("--"), pte });
        QVERIFY(proc.waitForFinished(30000));
        QCOMPARE(proc.exitCode(), 0);
        QFile jf(dir + QStringLiteral("/cross.json"));
        QVERIFY(jf.open(QIODevice::ReadOnly));
        auto j = nlohmann::json::parse(jf.readAll().toStdString(), nullptr, false);
        QVERIFY(!j.is_discarded());
        QCOMPARE(j["version"].get<int>(), 0);
        JSON_EQ(j["constant_segment"]["offsets"], nlohmann::json::parse("[0,0,16]"));
        JSON_EQ(j["mutable_data_segments"], nlohmann::json::parse(R"([{"segment_index":1,"offsets":[0,0,400]}])"));
        JSON_EQ(j["segments"],
            nlohmann::json::parse(R"([{"offset":0,"size":24},{"offset":128,"size":404},{"offset":640,"size":40},
                {"offset":768,"size":100},{"offset":896,"size":7}])"));
        JSON_EQ(j["named_data"],
            nlohmann::json::parse(R"([{"key":"shared","segment_index":3},{"key":"alias","segment_index":3},
                {"key":"other","segment_index":4}])"));
        JSON_EQ(j["constant_buffer"], nlohmann::json::array());
        auto& plan = j["execution_plan"][0];
        QCOMPARE(plan["name"].get<std::string>(), std::string("forward"));
        const char* kinds[] = { "Null", "Int", "Bool", "Double", "Tensor", "String", "IntList", "DoubleList",
            "BoolList", "TensorList", "OptionalTensorList", "Tensor", "Tensor", "Tensor" };
        QCOMPARE(plan["values"].size(), std::size(kinds));
        for (std::size_t i = 0; i < std::size(kinds); ++i)
            QCOMPARE(plan["values"][i]["val_type"].get<std::string>(), std::string(kinds[i]));
        QCOMPARE(plan["values"][1]["val"]["int_val"].get<int>(), -7);
        JSON_EQ(plan["values"][7]["val"]["items"], nlohmann::json::parse("[1.5,-2.0]"));
        JSON_EQ(plan["values"][8]["val"]["items"], nlohmann::json::parse("[true,false,true]"));
        QCOMPARE(plan["values"][13]["val"]["shape_dynamism"].get<std::string>(), std::string("DYNAMIC_BOUND"));
        JSON_EQ(plan["values"][13]["val"]["allocation_info"],
            nlohmann::json::parse(R"({"memory_id":1,"memory_offset_low":32,"memory_offset_high":0})"));
        const char* instrs[] = { "KernelCall", "DelegateCall", "MoveCall", "JumpFalseCall", "FreeCall",
            "DelegateCall" };
        auto& chain = plan["chains"][0];
        for (std::size_t i = 0; i < std::size(instrs); ++i)
            QCOMPARE(chain["instructions"][i]["instr_args_type"].get<std::string>(), std::string(instrs[i]));
        JSON_EQ(chain["instructions"][0]["instr_args"]["args"], nlohmann::json::parse("[4,11,1,4,4]"));
        JSON_EQ(chain["inputs"], nlohmann::json::array());
        JSON_EQ(plan["delegates"][0]["processed"], nlohmann::json::parse(R"({"location":"SEGMENT","index":2})"));
        JSON_EQ(plan["delegates"][1]["processed"], nlohmann::json::parse(R"({"location":"INLINE","index":0})"));
        JSON_EQ(plan["delegates"][0]["compile_specs"][0]["value"], nlohmann::json::parse("[118,97,108,117,101]"));
        JSON_EQ(plan["non_const_buffer_sizes"], nlohmann::json::parse("[0,464]"));
        JSON_EQ(plan["operators"][0], nlohmann::json::parse(R"({"name":"aten::add","overload":"out"})"));
        JSON_EQ(j["execution_plan"][1]["operators"], nlohmann::json::array());
        QVERIFY(!j["execution_plan"][1].contains("container_meta_type"));
    }

    // ---- writePte ----------------------------------------------------------------------------------------------

    void writesFileAtomically()
    {
        const QString dir = test::tempDir() + QStringLiteral("/atomic");
        QDir().mkpath(dir);
        const std::string path = (dir + QStringLiteral("/out.pte")).toStdString();
        const Program p = laidOut();
        QVERIFY_RESULT(writePte(p, path));
        auto mapped = mapFile(path);
        QVERIFY_RESULT(mapped);
        const auto expected = serialized(p);
        QCOMPARE(mapped->size(), expected.size());
        QVERIFY(std::memcmp(mapped->data(), expected.data(), expected.size()) == 0);
        QCOMPARE(dirEntries(dir), QStringList { QStringLiteral("out.pte") });

        // Overwriting an existing file replaces it completely.
        Program small;
        small.executionPlan.resize(1);
        small.executionPlan[0].name = "tiny";
        QVERIFY_RESULT(writePte(small, path));
        auto file = readPteFile(path);
        QVERIFY_RESULT(file);
        QCOMPARE((*file)->program->executionPlan[0].name, std::string("tiny"));
        QVERIFY(!(*file)->header.has_value());
        QCOMPARE(dirEntries(dir), QStringList { QStringLiteral("out.pte") });
    }

    void failedWriteLeavesTargetUntouched_data()
    {
        QTest::addColumn<int>("kind");
        QTest::addColumn<int>("code");
        QTest::newRow("invalid program") << 0 << int(ErrorCode::InvalidProgram);
        QTest::newRow("target is a folder") << 1 << int(ErrorCode::Io);
        QTest::newRow("missing folder") << 2 << int(ErrorCode::Io);
        QTest::newRow("read-only folder") << 3 << int(ErrorCode::Io);
    }
    void failedWriteLeavesTargetUntouched()
    {
        QFETCH(int, kind);
        QFETCH(int, code);
        const QString dir = test::tempDir() + QStringLiteral("/fail-%1").arg(kind);
        QDir().mkpath(dir);
        QString target = dir + QStringLiteral("/keep.pte");
        {
            QFile f(target);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("original contents");
        }
        Program p = laidOut();
        switch (kind) {
        case 0:
            p.segments[0].size = 1;
            break;
        case 1:
            QVERIFY(QDir().mkpath(dir + QStringLiteral("/sub/child")));
            target = dir + QStringLiteral("/sub");
            break;
        case 2:
            target = dir + QStringLiteral("/missing/keep.pte");
            break;
        case 3:
            if (::geteuid() == 0)
                QSKIP("running as root: permissions do not stop writes");
            QFile::setPermissions(dir, QFileDevice::ReadOwner | QFileDevice::ExeOwner);
            break;
        }
        const auto r = writePte(p, target.toStdString());
        QFile::setPermissions(dir, QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
        QVERIFY_ERROR(r, ErrorCode(code), target.toStdString());
        QFile f(dir + QStringLiteral("/keep.pte"));
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(f.readAll(), QByteArray("original contents"));
        const QStringList expected = kind == 1 ? QStringList { QStringLiteral("keep.pte"), QStringLiteral("sub") }
                                               : QStringList { QStringLiteral("keep.pte") };
        QCOMPARE(dirEntries(dir), expected); // no temporary file left behind
        if (kind == 1)
            QCOMPARE(dirEntries(dir + QStringLiteral("/sub")), QStringList { QStringLiteral("child") });
    }

    // ---- synthetic programs ----------------------------------------------------------------------------------

    void synthesizesValidPrograms_data()
    {
        QTest::addColumn<qulonglong>("instructions");
        QTest::addColumn<qulonglong>("constantBytes");
        QTest::addColumn<uint>("methods");
        QTest::newRow("tiny") << 1ull << 0ull << 1u;
        QTest::newRow("odd sizes") << 7ull << 1001ull << 2u;
        QTest::newRow("multi-chunk") << 2000ull << ((300ull << 20) + 3) << 3u;
    }
    void synthesizesValidPrograms()
    {
        QFETCH(qulonglong, instructions);
        QFETCH(qulonglong, constantBytes);
        QFETCH(uint, methods);
        SyntheticOptions o;
        o.instructions = instructions;
        o.constantBytes = constantBytes;
        o.methods = methods;
        auto p = makeSyntheticProgram(o);
        QVERIFY_RESULT(p);
        QCOMPARE(p->executionPlan.size(), std::size_t(methods));
        std::uint64_t total = 0;
        for (const auto& plan : p->executionPlan)
            total += plan.chains[0].instructions.size();
        QCOMPARE(total, std::uint64_t(instructions));
        QCOMPARE(p->segments.size(), std::size_t(1));
        QCOMPARE(p->segments[0].size, constantBytes == 0 ? 64ull : 64ull + constantBytes);
        QCOMPARE(p->constantSegment->offsets[0], 0ull);
        QCOMPARE(p->constantSegment->offsets[1], 0ull);
        for (std::size_t i = 2; i < p->constantSegment->offsets.size(); ++i)
            QCOMPARE(p->constantSegment->offsets[i], 64ull + (256ull << 20) * (i - 2));
        // The runtime checks accept it: planned activations, constants in range, known ops.
        const auto diags = checkProgram(*p);
        for (const auto& d : diags)
            QVERIFY2(d.severity != Severity::Error, d.toString().c_str());
        if (constantBytes < (1ull << 20)) {
            auto s = serializePte(*p);
            QVERIFY_RESULT(s);
            auto file = readPteBytes(Bytes::fromVector(concatenate(*s)), "synth.pte");
            QVERIFY_RESULT(file);
            QVERIFY((*file)->runtimeWouldAccept());
            const auto diff = programDifference(*p, *(*file)->program);
            QVERIFY2(!diff, diff ? diff->c_str() : "");
        }
    }

    void synthRejectsBadOptions()
    {
        SyntheticOptions o;
        o.methods = 3;
        o.instructions = 2;
        const auto r = makeSyntheticProgram(o);
        QVERIFY(!r);
        QCOMPARE(r.error().code, ErrorCode::InvalidInput);
        o.methods = 0;
        QVERIFY(!makeSyntheticProgram(o));
    }

    void programDifferenceNamesTheField()
    {
        const Program a = laidOut();
        Program b = a;
        QVERIFY(!programDifference(a, b));
        std::get<Tensor>(b.executionPlan[0].values[4].val).sizes[1] = 5;
        QCOMPARE(programDifference(a, b).value_or(""), std::string("execution_plan[0].values[4].val.sizes[1]: 3 != 5"));
        b = a;
        b.segments[4].data = pattern(7, 78);
        QCOMPARE(programDifference(a, b).value_or(""), std::string("segments[4].data: 7 bytes differ from 7 bytes"));
        b = a;
        b.segments[1].offset = 256;
        QVERIFY(programDifference(a, b).has_value());
        QVERIFY(!programDifference(a, b, false).has_value());
    }
};

QTEST_GUILESS_MAIN(TestPteWriter)
#include "tst_ptewriter.moc"
