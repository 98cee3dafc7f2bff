// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// The .pte reader on programs built in the test with the generated FlatBufferBuilder API: exact decoding
// of every field, the eh00 header forms, zero-copy payloads, and one expected diagnostic per runtime rule.
#include "errorcheck.h"
#include "pte/jsondump.h"
#include "pte/programequality.h"
#include "pte/ptereader.h"
#include "pte/ptewriter.h"
#include "ptefbbuilder.h"
#include "testutils.h"

#include <QDir>
#include <QFile>
#include <QTest>

#include <cmath>
#include <functional>
#include <map>

using namespace pte;
using namespace pte::readertest;

namespace {

std::shared_ptr<const PteFile> mustRead(const std::vector<std::uint8_t>& bytes, const std::string& name = "test.pte")
{
    auto r = readPteBytes(Bytes::fromVector(bytes), name);
    if (!r)
        qFatal("unexpected read error: %s", r.error().toString().c_str());
    return r.value();
}

std::string dumpDiagnostics(const Diagnostics& diags)
{
    std::string s;
    for (const auto& d : diags)
        s += "  " + d.toString() + " [" + d.fieldPath + "]\n";
    return s;
}

void writeFile(const QString& path, const std::vector<std::uint8_t>& bytes)
{
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
    QCOMPARE(f.write(reinterpret_cast<const char*>(bytes.data()), qint64(bytes.size())), qint64(bytes.size()));
}

/** A program whose only data is an EXTERNAL f32[2,2] tensor "w" used by one kernel. */
Program externalProgram()
{
    Program p;
    ExecutionPlan m;
    m.name = "forward";
    Tensor w = makeTensor({ 2, 2 });
    w.extraTensorInfo = ExtraTensorInfo { 0, std::string("w"), TensorDataLocation::External, DeviceType::Cpu, 0 };
    m.values.push_back(ev(std::move(w)));
    m.values.push_back(ev(makeTensor({ 2, 2 }, AllocationDetails { 1, 0, 0 })));
    m.inputs = { 1 };
    m.outputs = { 1 };
    Chain c;
    c.instructions.push_back(instr(KernelCall { 0, { 0, 1, 1 } }));
    m.chains.push_back(std::move(c));
    m.operators.push_back(Operator { "aten::add", "out" });
    m.nonConstBufferSizes = { 0, 16 };
    p.executionPlan.push_back(std::move(m));
    p.segments.push_back(DataSegment {});
    p.constantSegment = SubsegmentOffsets { 0, { 0 } };
    return p;
}

using Mutation = std::function<void(Program&, EncodeOptions&)>;

ExecutionPlan& fwd(Program& p) { return p.executionPlan[0]; }
Tensor& tensorAt(Program& p, std::size_t i) { return std::get<Tensor>(fwd(p).values[i].val); }
Instruction& instrAt(Program& p, std::size_t i) { return fwd(p).chains[0].instructions[i]; }

const std::map<std::string, Mutation>& mutations()
{
    static const std::map<std::string, Mutation> m = {
        { "storage_offset", [](Program& p, EncodeOptions&) { tensorAt(p, 0).storageOffset = 4; } },
        { "dynamic_unbound",
            [](Program& p, EncodeOptions&) { tensorAt(p, 0).shapeDynamism = ShapeDynamism::DynamicUnbound; } },
        { "dim_order_not_permutation",
            [](Program& p, EncodeOptions&) {
                tensorAt(p, 0).dimOrder = { 0, 0 };
            } },
        { "dim_order_wrong_length", [](Program& p, EncodeOptions&) { tensorAt(p, 0).dimOrder = { 0 }; } },
        { "rank_17",
            [](Program& p, EncodeOptions&) {
                auto& t = tensorAt(p, 13);
                t.sizes.assign(17, 1);
                t.dimOrder.resize(17);
                for (std::uint8_t i = 0; i < 17; ++i)
                    t.dimOrder[i] = i;
            } },
        { "negative_size",
            [](Program& p, EncodeOptions&) {
                tensorAt(p, 0).sizes = { -2, 3 };
            } },
        { "invalid_scalar_type", [](Program& p, EncodeOptions&) { tensorAt(p, 0).scalarType = ScalarType(40); } },
        { "memory_id_0", [](Program& p, EncodeOptions&) { tensorAt(p, 0).allocationInfo->memoryId = 0; } },
        { "memory_id_past_arenas", [](Program& p, EncodeOptions&) { tensorAt(p, 0).allocationInfo->memoryId = 2; } },
        { "arena_overflow", [](Program& p, EncodeOptions&) { tensorAt(p, 13).allocationInfo->memoryOffsetLow = 80; } },
        { "memory_offset_high",
            [](Program& p, EncodeOptions&) { tensorAt(p, 13).allocationInfo->memoryOffsetHigh = 1; } },
        { "tensorlist_later_index",
            [](Program& p, EncodeOptions&) {
                std::get<TensorList>(fwd(p).values[11].val).items = { 0, 13 };
            } },
        { "tensorlist_not_tensor",
            [](Program& p, EncodeOptions&) { std::get<TensorList>(fwd(p).values[11].val).items = { 4 }; } },
        { "optional_tensorlist_int",
            [](Program& p, EncodeOptions&) { std::get<OptionalTensorList>(fwd(p).values[12].val).items = { 4 }; } },
        { "intlist_out_of_range",
            [](Program& p, EncodeOptions&) { std::get<IntList>(fwd(p).values[8].val).items = { 99 }; } },
        { "value_none", [](Program& p, EncodeOptions&) { fwd(p).values[3] = EValue {}; } },
        { "value_unknown_type",
            [](Program& p, EncodeOptions&) {
                fwd(p).values[3] = EValue {};
                fwd(p).values[3].rawType = 42;
            } },
        { "op_index_out_of_range",
            [](Program& p, EncodeOptions&) { std::get<KernelCall>(instrAt(p, 0).args).opIndex = 3; } },
        { "kernel_arg_out_of_range",
            [](Program& p, EncodeOptions&) {
                std::get<KernelCall>(instrAt(p, 0).args).args = { 0, 15 };
            } },
        { "delegate_index_out_of_range",
            [](Program& p, EncodeOptions&) { std::get<DelegateCall>(instrAt(p, 1).args).delegateIndex = 2; } },
        { "instruction_none", [](Program& p, EncodeOptions&) { instrAt(p, 3) = Instruction {}; } },
        { "jump_out_of_chain",
            [](Program& p, EncodeOptions&) {
                std::get<JumpFalseCall>(instrAt(p, 4).args).destinationInstruction = 99;
            } },
        { "jump_condition_not_bool",
            [](Program& p, EncodeOptions&) { std::get<JumpFalseCall>(instrAt(p, 4).args).condValueIndex = 4; } },
        { "free_not_tensor",
            [](Program& p, EncodeOptions&) { std::get<FreeCall>(instrAt(p, 5).args).valueIndex = 4; } },
        { "move_out_of_range", [](Program& p, EncodeOptions&) { std::get<MoveCall>(instrAt(p, 3).args).moveTo = -1; } },
        { "long_operator_name",
            [](Program& p, EncodeOptions&) { fwd(p).operators[0].name = "aten::" + std::string(91, 'x'); } },
        { "missing_delegates", [](Program&, EncodeOptions& o) { o.omitDelegates = true; } },
        { "missing_values", [](Program&, EncodeOptions& o) { o.omitValues = true; } },
        { "missing_non_const_buffer_sizes", [](Program&, EncodeOptions& o) { o.omitNonConstBufferSizes = true; } },
        { "missing_instructions", [](Program&, EncodeOptions& o) { o.omitInstructions = true; } },
        { "missing_overload", [](Program&, EncodeOptions& o) { o.omitOperatorOverload = true; } },
        { "missing_sizes", [](Program&, EncodeOptions& o) { o.omitTensorSizes = true; } },
        { "missing_execution_plan", [](Program&, EncodeOptions& o) { o.omitExecutionPlan = true; } },
        { "named_data_without_segments", [](Program&, EncodeOptions& o) { o.omitSegments = true; } },
        { "no_chains", [](Program& p, EncodeOptions&) { fwd(p).chains.clear(); } },
        { "input_out_of_range", [](Program& p, EncodeOptions&) { fwd(p).inputs = { 99 }; } },
        { "constant_past_segment_end",
            [](Program& p, EncodeOptions&) {
                p.constantSegment->offsets = { 0, 8 };
            } },
        { "constant_index_out_of_range", [](Program& p, EncodeOptions&) { tensorAt(p, 1).dataBufferIdx = 5; } },
        { "constant_buffer_and_segment",
            [](Program& p, EncodeOptions&) {
                p.constantBuffer = { Buffer {}, Buffer { patternBytes(24, 0) } };
            } },
        { "mutable_index_out_of_range",
            [](Program& p, EncodeOptions&) { (*p.mutableDataSegments)[0].offsets = { 0 }; } },
        { "constant_offset_misaligned",
            [](Program& p, EncodeOptions&) {
                p.constantSegment->offsets = { 0, 8, 8 };
            } },
        { "inline_delegate_out_of_range", [](Program& p, EncodeOptions&) { fwd(p).delegates[0].processed.index = 5; } },
        { "segment_delegate_out_of_range",
            [](Program& p, EncodeOptions&) { fwd(p).delegates[1].processed.index = 9; } },
        { "named_data_segment_out_of_range", [](Program& p, EncodeOptions&) { (*p.namedData)[0].segmentIndex = 7; } },
        { "external_without_fqn",
            [](Program& p, EncodeOptions&) { tensorAt(p, 14).extraTensorInfo->fullyQualifiedName.reset(); } },
        { "negative_arena_size",
            [](Program& p, EncodeOptions&) {
                fwd(p).nonConstBufferSizes = { 0, -96 };
            } },
        { "empty_non_const_buffer_sizes", [](Program& p, EncodeOptions&) { fwd(p).nonConstBufferSizes.clear(); } },
    };
    return m;
}

} // namespace

class TestPteReader : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void decodesEveryField()
    {
        const Program expected = makeFullProgram();
        const auto bytes = encodeFullFile(expected);
        const auto file = mustRead(bytes);
        QVERIFY2(!hasErrors(file->diagnostics), dumpDiagnostics(file->diagnostics).c_str());
        const Program& p = *file->program;

        // Whole-model equality through the dump (every field, byte payloads by size + sha256).
        QCOMPARE(programToJson(p), programToJson(expected));

        QCOMPARE(p.executionPlan.size(), std::size_t(2));
        const auto& m = p.executionPlan[0];
        QCOMPARE(m.name, std::string("forward"));
        QCOMPARE(m.values.size(), std::size_t(15));
        for (std::size_t i = 0; i < m.values.size(); ++i)
            QCOMPARE(int(m.values[i].rawType), int(expected.executionPlan[0].values[i].rawType));
        QCOMPARE(m.values[3].kind(), ValueKind::Null);
        QCOMPARE(std::get<Int>(m.values[4].val).intVal, std::int64_t(7));
        QCOMPARE(std::get<Bool>(m.values[5].val).boolVal, true);
        QCOMPARE(std::get<Double>(m.values[6].val).doubleVal, 2.5);
        QCOMPARE(std::get<String>(m.values[7].val).stringVal, std::string("hello"));
        QCOMPARE(std::get<IntList>(m.values[8].val).items, std::vector<std::int64_t>({ 4 }));
        const auto& dl = std::get<DoubleList>(m.values[9].val).items;
        QCOMPARE(dl.size(), std::size_t(2));
        QVERIFY(std::isinf(dl[1]) && dl[1] < 0);
        QCOMPARE(std::get<BoolList>(m.values[10].val).items, std::vector<bool>({ true, false }));
        QCOMPARE(std::get<TensorList>(m.values[11].val).items, std::vector<std::int32_t>({ 0, 1 }));
        QCOMPARE(std::get<OptionalTensorList>(m.values[12].val).items, std::vector<std::int32_t>({ 0, -1 }));
        const Tensor& planned = *m.values[2].tensor();
        QCOMPARE(planned.scalarType, ScalarType::Float);
        QCOMPARE(planned.sizes, std::vector<std::int32_t>({ 2, 3 }));
        QCOMPARE(planned.dimOrder, std::vector<std::uint8_t>({ 0, 1 }));
        QCOMPARE(planned.allocationInfo->memoryId, 1u);
        QCOMPARE(planned.allocationInfo->offset(), std::uint64_t(32));
        QCOMPARE(planned.dataBufferIdx, 1u);
        const Tensor& ext = *m.values[14].tensor();
        QCOMPARE(*ext.extraTensorInfo->fullyQualifiedName, std::string("w"));
        QCOMPARE(ext.extraTensorInfo->location, TensorDataLocation::External);
        QCOMPARE(ext.extraTensorInfo->deviceType, DeviceType::Cuda);
        QCOMPARE(int(ext.extraTensorInfo->deviceIndex), 1);

        const auto& instrs = m.chains[0].instructions;
        QCOMPARE(instrs.size(), std::size_t(6));
        QCOMPARE(instrs[0].kind(), InstructionKind::KernelCall);
        QCOMPARE(std::get<KernelCall>(instrs[0].args).args, std::vector<std::int32_t>({ 0, 1, 13 }));
        QCOMPARE(std::get<DelegateCall>(instrs[2].args).delegateIndex, 1);
        QCOMPARE(std::get<MoveCall>(instrs[3].args).moveFrom, 13);
        QCOMPARE(std::get<JumpFalseCall>(instrs[4].args).destinationInstruction, 6);
        QCOMPARE(std::get<FreeCall>(instrs[5].args).valueIndex, 0);
        QCOMPARE(m.chains[0].stacktrace->size(), std::size_t(6));
        QCOMPARE(*(*m.chains[0].stacktrace)[0].items[0].filename, std::string("model.py"));
        QVERIFY(!(*m.chains[0].stacktrace)[0].items[0].context);
        QCOMPARE(m.operators[0].qualifiedName(), std::string("aten::add.out"));
        QCOMPARE(m.delegates[0].compileSpecs[0].value.asStringView(), std::string_view("v1"));
        QCOMPARE(m.nonConstBufferSizes, std::vector<std::int64_t>({ 0, 96 }));
        QCOMPARE(p.executionPlan[1].name, std::string("second"));

        // Header facts.
        QVERIFY(file->header);
        QCOMPARE(file->header->length, 32u);
        QCOMPARE(file->header->programSize, std::uint64_t(file->flatbufferSize));
        QCOMPARE(file->header->segmentBaseOffset % 128, std::uint64_t(0));
        QCOMPARE(file->header->segmentBaseOffset + file->header->segmentDataSize, std::uint64_t(bytes.size()));

        // Payloads are views of the file, not copies.
        const auto* base = file->file.data();
        for (std::size_t i = 0; i < p.segments.size(); ++i) {
            QVERIFY(p.segments[i].data.contentEquals(expected.segments[i].data));
            QCOMPARE(p.segments[i].data.data(), base + file->header->segmentBaseOffset + p.segments[i].offset);
        }
        const Bytes inlineBlob = delegateData(p, m.delegates[0]);
        QVERIFY(inlineBlob.contentEquals(expected.backendDelegateData[0].storage));
        QVERIFY(inlineBlob.data() >= base && inlineBlob.data() < base + file->flatbufferSize);
        QCOMPARE((inlineBlob.data() - base) % 16, std::ptrdiff_t(0));
        QCOMPARE(delegateData(p, m.delegates[1]).size(), std::size_t(100));
        QCOMPARE(constantData(p, 1).size(), std::size_t(24));
        QVERIFY(constantData(p, 1).contentEquals(expected.segments[0].data));
    }

    void decodesPlainFlatbufferWithoutHeader()
    {
        const Program expected = externalProgram();
        const auto file = mustRead(encodeFlatbuffer(expected));
        QVERIFY(!file->header);
        QCOMPARE(file->flatbufferSize, std::uint64_t(file->file.size()));
        QCOMPARE(programToJson(*file->program), programToJson(expected));
        QVERIFY2(!hasErrors(file->diagnostics), dumpDiagnostics(file->diagnostics).c_str());
    }

    void readsLegacy24ByteHeader()
    {
        auto bytes = encodeFullFile(makeFullProgram());
        bytes[12] = 24; // header length 24: segment_data_size is not read
        const auto file = mustRead(bytes);
        QCOMPARE(file->header->length, 24u);
        QCOMPARE(file->header->segmentDataSize, std::uint64_t(0));
        QCOMPARE(file->program->segments[1].data.size(), std::size_t(100));
        QVERIFY(!hasErrors(file->diagnostics));
        const bool noted = std::any_of(file->diagnostics.begin(), file->diagnostics.end(),
            [](const Diagnostic& d) { return d.severity == Severity::Info && d.offset == 12u; });
        QVERIFY(noted);
    }

    void unalignedInputIsHandled()
    {
        const auto bytes = encodeFullFile(makeFullProgram());
        std::vector<std::uint8_t> shifted(bytes.size() + 1);
        std::memcpy(shifted.data() + 1, bytes.data(), bytes.size());
        const Bytes all = Bytes::fromVector(std::move(shifted));
        auto r = readPteBytes(all.slice(1, bytes.size()), "shifted.pte");
        QVERIFY_RESULT(r);
        QCOMPARE(programToJson(*r.value()->program), programToJson(makeFullProgram()));
        QVERIFY(!hasErrors(r.value()->diagnostics));
    }

    void identifiesForeignFiles_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<int>("code");
        QTest::addColumn<QString>("needle");
        QByteArray head(64, '\0');
        auto with = [&](int at, const char* magic) {
            QByteArray b = head;
            b.replace(at, 4, magic);
            return b;
        };
        QTest::newRow("older-et") << with(4, "ET11") << int(ErrorCode::UnsupportedVersion) << "ET11";
        QTest::newRow("bundled-corrupt") << with(4, "BP08") << int(ErrorCode::VerificationFailed) << "bundled program";
        QTest::newRow("bundled-other") << with(4, "BP07") << int(ErrorCode::NotAPteFile) << "BundledProgram";
        QTest::newRow("etdump") << with(8, "ED00") << int(ErrorCode::NotAPteFile) << "ETDump";
        QTest::newRow("ptd") << with(4, "FT01") << int(ErrorCode::NotAPteFile) << "FT01";
        QTest::newRow("zip") << with(0, "PK\x03\x04") << int(ErrorCode::NotAPteFile) << "ZIP";
        QTest::newRow("garbage") << QByteArray("NOT_A_PTE garbage bytes") << int(ErrorCode::NotAPteFile) << "'A_PT'";
        QTest::newRow("short") << QByteArray("ET12") << int(ErrorCode::Truncated) << "too short";
        QTest::newRow("empty") << QByteArray() << int(ErrorCode::Truncated) << "0 bytes";
    }

    void identifiesForeignFiles()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(int, code);
        QFETCH(QString, needle);
        auto r = readPteBytes(Bytes::copyOf(std::string_view(bytes.constData(), std::size_t(bytes.size()))), "x.bin");
        QVERIFY_ERROR(r, ErrorCode(code), needle.toStdString(), "x.bin");
    }

    void headerErrors_data()
    {
        QTest::addColumn<int>("at");
        QTest::addColumn<quint64>("value");
        QTest::addColumn<int>("width");
        QTest::addColumn<int>("code");
        QTest::addColumn<quint64>("offset");
        QTest::newRow("length-23") << 12 << quint64(23) << 4 << int(ErrorCode::BadExtendedHeader) << quint64(12);
        QTest::newRow("program-size-past-eof") << 16 << quint64(1) << 8 << int(ErrorCode::Truncated) << quint64(16);
        QTest::newRow("program-size-tiny") << 16 << quint64(8) << 8 << int(ErrorCode::BadExtendedHeader) << quint64(16);
        QTest::newRow("root-offset-past-end")
            << 0 << quint64(0x7fffff00) << 4 << int(ErrorCode::VerificationFailed) << quint64(0);
    }

    void headerErrors()
    {
        QFETCH(int, at);
        QFETCH(quint64, value);
        QFETCH(int, width);
        QFETCH(int, code);
        QFETCH(quint64, offset);
        auto bytes = encodeFullFile(makeFullProgram());
        if (QByteArray(QTest::currentDataTag()) == "program-size-past-eof")
            value = bytes.size() + 1;
        for (int i = 0; i < width; ++i)
            bytes[std::size_t(at + i)] = std::uint8_t(value >> (8 * i));
        auto r = readPteBytes(Bytes::fromVector(bytes), "h.pte");
        QVERIFY_ERROR(r, ErrorCode(code), "h.pte");
        QCOMPARE(r.error().offset.value_or(~0ull), std::uint64_t(offset));
    }

    void truncatedSegmentsAreErrors()
    {
        auto bytes = encodeFullFile(makeFullProgram());
        bytes.resize(bytes.size() - 10); // cuts into the last (mutable) segment
        const auto file = mustRead(bytes);
        QVERIFY(!file->runtimeWouldAccept());
        bool sizeCheck = false, segment = false;
        for (const auto& d : file->diagnostics) {
            sizeCheck =
                sizeCheck || (d.severity == Severity::Error && d.offset == 24u && d.code == ErrorCode::Truncated);
            segment = segment || (d.severity == Severity::Error && d.fieldPath == "segments[2]");
        }
        QVERIFY2(sizeCheck && segment, dumpDiagnostics(file->diagnostics).c_str());
        QVERIFY(file->program->segments[2].data.empty());
        QCOMPARE(file->program->segments[1].data.size(), std::size_t(100));
    }

    void verifierFailureIsFatal()
    {
        auto bytes = encodeFlatbuffer(makeFullProgram());
        bytes.resize(bytes.size() / 2);
        auto r = readPteBytes(Bytes::fromVector(bytes), "half.pte");
        QVERIFY_ERROR(r, ErrorCode::VerificationFailed, "half.pte", "verifier");
    }

    void runtimeViolations_data()
    {
        QTest::addColumn<QString>("mutation");
        QTest::addColumn<int>("severity");
        QTest::addColumn<QString>("path");
        QTest::addColumn<QString>("needle");
        const int E = int(Severity::Error);
        const int W = int(Severity::Warning);
        const QString v = QStringLiteral("execution_plan[0].values[%1].val");
        const QString in = QStringLiteral("execution_plan[0].chains[0].instructions[%1].instr_args");
        auto row = [](const char* name, int sev, const QString& path, const char* needle) {
            QTest::newRow(name) << QString::fromLatin1(name) << sev << path << QString::fromLatin1(needle);
        };
        row("storage_offset", E, v.arg(0) + ".storage_offset", "only supports 0");
        row("dynamic_unbound", E, v.arg(0) + ".shape_dynamism", "DYNAMIC_UNBOUND");
        row("dim_order_not_permutation", E, v.arg(0) + ".dim_order", "not a permutation");
        row("dim_order_wrong_length", E, v.arg(0) + ".dim_order", "rank 2");
        row("rank_17", E, v.arg(13) + ".sizes", "rank 17");
        row("negative_size", E, v.arg(0) + ".sizes[0]", "negative");
        row("invalid_scalar_type", E, v.arg(0) + ".scalar_type", "invalid scalar type 40");
        row("memory_id_0", E, v.arg(0) + ".allocation_info.memory_id", "reserved");
        row("memory_id_past_arenas", E, v.arg(0) + ".allocation_info.memory_id", "1 planned arena");
        row("arena_overflow", E, v.arg(13) + ".allocation_info", "do not fit in arena 1 (96 bytes)");
        row("memory_offset_high", W, v.arg(13) + ".allocation_info.memory_offset_high", "32-bit");
        row("tensorlist_later_index", E, v.arg(11) + ".items[1]", "not an earlier value");
        row("tensorlist_not_tensor", E, v.arg(11) + ".items[0]", "not a Tensor");
        row("optional_tensorlist_int", E, v.arg(12) + ".items[0]", "neither a Tensor nor None");
        row("intlist_out_of_range", E, v.arg(8) + ".items[0]", "IntList item 99");
        row("value_none", E, QStringLiteral("execution_plan[0].values[3].val_type"), "NONE");
        row("value_unknown_type", E, QStringLiteral("execution_plan[0].values[3].val_type"), "code 42");
        row("op_index_out_of_range", E, in.arg(0) + ".op_index", "op_index 3");
        row("kernel_arg_out_of_range", E, in.arg(0) + ".args[1]", "15 is out of range");
        row("delegate_index_out_of_range", E, in.arg(1) + ".delegate_index", "delegate_index 2");
        row("instruction_none", E, QStringLiteral("execution_plan[0].chains[0].instructions[3].instr_args_type"),
            "NONE");
        row("jump_out_of_chain", E, in.arg(4) + ".destination_instruction", "outside the chain");
        row("jump_condition_not_bool", E, in.arg(4) + ".cond_value_index", "Int value");
        row("free_not_tensor", E, in.arg(5) + ".value_index", "not a Tensor");
        row("move_out_of_range", E, in.arg(3) + ".move_to", "-1 is out of range");
        row("long_operator_name", E, QStringLiteral("execution_plan[0].operators[0]"), "shorter than 100");
        row("missing_delegates", E, QStringLiteral("execution_plan[0].delegates"), "no delegates vector");
        row("missing_values", E, QStringLiteral("execution_plan[0].values"), "no values vector");
        row("missing_non_const_buffer_sizes", E, QStringLiteral("execution_plan[0].non_const_buffer_sizes"),
            "no non_const_buffer_sizes");
        row("missing_instructions", E, QStringLiteral("execution_plan[0].chains[0].instructions"),
            "no instructions vector");
        row("missing_overload", E, QStringLiteral("execution_plan[0].operators[0].overload"), "no overload");
        row("missing_sizes", E, v.arg(0) + ".sizes", "no sizes vector");
        row("missing_execution_plan", E, QStringLiteral("execution_plan"), "no execution_plan");
        row("named_data_without_segments", E, QStringLiteral("segments"), "named_data is present");
        row("no_chains", E, QStringLiteral("execution_plan[0].chains"), "no chains");
        row("input_out_of_range", E, QStringLiteral("execution_plan[0].inputs[0]"), "input value index 99");
        row("constant_past_segment_end", E, v.arg(1) + ".data_buffer_idx", "past the end of the constant segment");
        row("constant_index_out_of_range", E, v.arg(1) + ".data_buffer_idx", "data_buffer_idx 5");
        row("constant_buffer_and_segment", E, QStringLiteral("constant_buffer"), "refuses");
        row("mutable_index_out_of_range", E, v.arg(2) + ".data_buffer_idx", "mutable_data_segments[0].offsets");
        row("constant_offset_misaligned", W, QStringLiteral("constant_segment.offsets[1]"), "not a multiple of 16");
        row("inline_delegate_out_of_range", E, QStringLiteral("execution_plan[0].delegates[0].processed.index"),
            "inline blob 5");
        row("segment_delegate_out_of_range", E, QStringLiteral("execution_plan[0].delegates[1].processed.index"),
            "segment 9");
        row("named_data_segment_out_of_range", E, QStringLiteral("named_data[0].segment_index"), "segment 7");
        row("external_without_fqn", E, v.arg(14) + ".extra_tensor_info.fully_qualified_name",
            "no fully_qualified_name");
        row("negative_arena_size", E, QStringLiteral("execution_plan[0].non_const_buffer_sizes[1]"), "negative");
        row("empty_non_const_buffer_sizes", E, QStringLiteral("execution_plan[0].non_const_buffer_sizes"), "empty");
    }

    void runtimeViolations()
    {
        QFETCH(QString, mutation);
        QFETCH(int, severity);
        QFETCH(QString, path);
        QFETCH(QString, needle);
        Program p = makeFullProgram();
        EncodeOptions o;
        const auto it = mutations().find(mutation.toStdString());
        QVERIFY(it != mutations().end());
        it->second(p, o);
        const auto file = mustRead(encodeFullFile(p, o), "v.pte");
        const Diagnostic* found = nullptr;
        for (const auto& d : file->diagnostics)
            if (d.fieldPath == path.toStdString() && int(d.severity) == severity
                && d.message.find(needle.toStdString()) != std::string::npos)
                found = &d;
        QVERIFY2(found,
            ("expected [" + path.toStdString() + "] '" + needle.toStdString() + "' in:\n"
                + dumpDiagnostics(file->diagnostics))
                .c_str());
        QCOMPARE(found->file, std::string("v.pte"));
        if (path.startsWith(QLatin1String("execution_plan[0]")) && path != QLatin1String("execution_plan[0].values")) {
            QVERIFY2(found->offset.has_value(), "diagnostic has no byte offset");
            QVERIFY(*found->offset < file->flatbufferSize);
        }
        if (severity == int(Severity::Error))
            QVERIFY(!file->runtimeWouldAccept());
        // checkProgram on the decoded model finds the same problem; structural ones (absent vectors) are
        // only visible to the reader (the model may show a consequence at the same path).
        const bool structural = QByteArray(QTest::currentDataTag()).startsWith("missing")
            || mutation == QLatin1String("named_data_without_segments");
        const auto again = checkProgram(*file->program);
        const bool modelLevel = std::any_of(
            again.begin(), again.end(), [&](const Diagnostic& d) { return d.fieldPath == path.toStdString(); });
        QVERIFY(modelLevel || structural);
    }

    void roundTripsThroughTheWriter()
    {
        // Optional cross-check with the production writer (written independently of this reader).
        const Program original = makeFullProgram();
        auto serialized = serializePte(original);
        QVERIFY_RESULT(serialized);
        const auto file = mustRead(concatenate(*serialized), "roundtrip.pte");
        QVERIFY2(file->diagnostics.empty(), dumpDiagnostics(file->diagnostics).c_str());
        const auto diff = programDifference(*file->program, original, false);
        QVERIFY2(!diff, diff ? diff->c_str() : "");
        QCOMPARE(file->flatbufferSize, serialized->programSize);
        QCOMPARE(file->header->segmentBaseOffset, serialized->segmentBaseOffset);
    }

    void nonZeroPaddingIsAWarning()
    {
        auto bytes = encodeFullFile(makeFullProgram());
        const auto clean = mustRead(bytes);
        const std::uint64_t gap = clean->header->segmentBaseOffset + 30; // between segment 0 (24 bytes) and 1 (@128)
        bytes[gap] = 5;
        const auto file = mustRead(bytes);
        QCOMPARE(file->diagnostics.size(), std::size_t(1));
        QCOMPARE(file->diagnostics[0].severity, Severity::Warning);
        QCOMPARE(file->diagnostics[0].offset.value_or(0), gap);
        QVERIFY(file->runtimeWouldAccept());
    }

    void verifierLimitsAreOptions()
    {
        const auto bytes = encodeFullFile(makeFullProgram());
        ReadOptions o;
        o.maxTables = 10;
        auto r = readPteBytes(Bytes::fromVector(bytes), "limits.pte", o);
        QVERIFY_ERROR(r, ErrorCode::VerificationFailed, "more than 10");
        o = ReadOptions {};
        o.maxDepth = 3;
        r = readPteBytes(Bytes::fromVector(bytes), "limits.pte", o);
        QVERIFY(!r);
        QCOMPARE(r.error().code, ErrorCode::VerificationFailed);
        QVERIFY_RESULT(readPteBytes(Bytes::fromVector(bytes), "limits.pte"));
    }

    void cleanProgramHasNoDiagnostics()
    {
        const auto file = mustRead(encodeFullFile(makeFullProgram()));
        QVERIFY2(file->diagnostics.empty(), dumpDiagnostics(file->diagnostics).c_str());
        QVERIFY(checkProgram(makeFullProgram()).empty());
    }

    void resolvesExternalData_data()
    {
        QTest::addColumn<QString>("key");
        QTest::addColumn<int>("scalarType");
        QTest::addColumn<int>("dim0");
        QTest::addColumn<int>("dataBytes");
        QTest::addColumn<bool>("accepted");
        QTest::addColumn<QString>("needle");
        QTest::addColumn<bool>("foundNextToFile"); ///< a .ptd providing none of the names belongs to another program
        QTest::newRow("match") << "w" << int(ScalarType::Float) << 2 << 16 << true << "" << true;
        QTest::newRow("missing-key") << "other" << int(ScalarType::Float) << 2 << 16 << false << "is not in" << false;
        QTest::newRow("dtype-mismatch") << "w" << int(ScalarType::Int) << 2 << 16 << false << "stores i32" << true;
        QTest::newRow("sizes-mismatch") << "w" << int(ScalarType::Float) << 4 << 16 << false << "sizes [4, 2]" << true;
        QTest::newRow("too-short") << "w" << int(ScalarType::Float) << 2 << 8 << false << "needs 16 bytes" << true;
    }

    void resolvesExternalData()
    {
        QFETCH(QString, key);
        QFETCH(int, scalarType);
        QFETCH(int, dim0);
        QFETCH(int, dataBytes);
        QFETCH(bool, accepted);
        QFETCH(QString, needle);
        QFETCH(bool, foundNextToFile);
        const QString dir = test::tempDir() + QStringLiteral("/ext-") + QString::fromLatin1(QTest::currentDataTag());
        QVERIFY(QDir().mkpath(dir));
        writeFile(dir + QStringLiteral("/model.pte"), encodeFlatbuffer(externalProgram()));
        std::vector<std::uint8_t> data(static_cast<std::size_t>(dataBytes));
        for (std::size_t i = 0; i < data.size(); ++i)
            data[i] = std::uint8_t(i);
        writeFile(dir + QStringLiteral("/weights.ptd"),
            encodePtd({ { key.toStdString(), ScalarType(scalarType), { dim0, 2 }, { 0, 1 }, data } }));

        auto ptd = readPtdFile((dir + QStringLiteral("/weights.ptd")).toStdString());
        QVERIFY_RESULT(ptd);
        QCOMPARE(ptd->tensors.size(), std::size_t(1));
        QCOMPARE(ptd->tensors.begin()->second.data.size(), std::size_t(dataBytes));
        QCOMPARE(ptd->tensors.begin()->second.data.data()[dataBytes - 1], std::uint8_t(dataBytes - 1));

        auto hasError = [&](const Diagnostics& diags) {
            return std::any_of(diags.begin(), diags.end(), [&](const Diagnostic& d) {
                return d.severity == Severity::Error && d.message.find(needle.toStdString()) != std::string::npos;
            });
        };
        auto r = readPteFile((dir + QStringLiteral("/model.pte")).toStdString());
        QVERIFY_RESULT(r);
        const auto& f = *r.value();
        if (!foundNextToFile) {
            // Not taken: a warning says no .ptd next to the file provides the names; the runtime check happens
            // when the right file is given.
            QVERIFY(!f.externalData);
            QVERIFY(f.runtimeWouldAccept());
            QVERIFY2(f.diagnostics.size() == 1 && f.diagnostics[0].severity == Severity::Warning
                    && f.diagnostics[0].message.find("no .ptd file next to it") != std::string::npos,
                dumpDiagnostics(f.diagnostics).c_str());
        } else {
            QVERIFY(f.externalData || !accepted);
            QCOMPARE(f.runtimeWouldAccept(), accepted);
            if (!needle.isEmpty())
                QVERIFY2(hasError(f.diagnostics), dumpDiagnostics(f.diagnostics).c_str());
            else
                QCOMPARE(f.externalData->tensors.at("w").data.size(), std::size_t(16));
        }
        // An explicit path gives the same result; a missing explicit file is an Error diagnostic.
        ReadOptions opts;
        opts.externalDataPath = (dir + QStringLiteral("/weights.ptd")).toStdString();
        auto r2 = readPteBytes(Bytes::fromVector(encodeFlatbuffer(externalProgram())), "mem.pte", opts);
        QVERIFY_RESULT(r2);
        QCOMPARE(r2.value()->runtimeWouldAccept(), accepted);
        if (!needle.isEmpty())
            QVERIFY2(hasError(r2.value()->diagnostics), dumpDiagnostics(r2.value()->diagnostics).c_str());
        opts.externalDataPath = (dir + QStringLiteral("/nope.ptd")).toStdString();
        auto r3 = readPteBytes(Bytes::fromVector(encodeFlatbuffer(externalProgram())), "mem.pte", opts);
        QVERIFY_RESULT(r3);
        QVERIFY(!r3.value()->runtimeWouldAccept());
    }

    void missingPtdIsAWarning()
    {
        const QString dir = test::tempDir() + QStringLiteral("/no-ptd");
        QVERIFY(QDir().mkpath(dir));
        writeFile(dir + QStringLiteral("/model.pte"), encodeFlatbuffer(externalProgram()));
        auto r = readPteFile((dir + QStringLiteral("/model.pte")).toStdString());
        QVERIFY_RESULT(r);
        QVERIFY(!r.value()->externalData);
        QVERIFY(r.value()->runtimeWouldAccept());
        QCOMPARE(r.value()->diagnostics.size(), std::size_t(1));
        QCOMPARE(r.value()->diagnostics[0].severity, Severity::Warning);
        QVERIFY(r.value()->diagnostics[0].message.find("EXTERNAL") != std::string::npos);
    }
};

QTEST_GUILESS_MAIN(TestPteReader)
#include "tst_ptereader.moc"
