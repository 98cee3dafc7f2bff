// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// Program comparison: the sequence alignment, and deliberate edits of a program written and read back with the
// project's own writer and reader, each found and named with nothing else reported.
#include "diff/sequencealignment.h"
#include "errorcheck.h"
#include "pte/programdiff.h"
#include "pte/ptereader.h"
#include "pte/ptewriter.h"
#include "pte/syntheticprogram.h"
#include "pte/syntheticvariant.h"
#include "testutils.h"

#include <QTest>

#include <algorithm>
#include <cstring>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <random>

using namespace pte;
using pte::diff::AlignedPair;

namespace {

/** Builds the test programs in emitted form (constants in constant_buffer, the delegate blob inline). */
struct Builder
{
    Program program;
    ExecutionPlan& plan() { return program.executionPlan.front(); }

    static EValue value(KernelValue v)
    {
        EValue e;
        e.rawType = std::uint8_t(v.index());
        e.val = std::move(v);
        return e;
    }
    static Tensor f32(std::vector<std::int32_t> sizes)
    {
        Tensor t;
        t.scalarType = ScalarType::Float;
        for (std::size_t i = 0; i < sizes.size(); ++i)
            t.dimOrder.push_back(std::uint8_t(i));
        t.sizes = std::move(sizes);
        return t;
    }
    static Tensor planned(std::uint32_t offset)
    {
        Tensor t = f32({ 2, 3 });
        t.allocationInfo = AllocationDetails { 1, offset, 0 };
        return t;
    }
    static Instruction kernel(std::int32_t op, std::vector<std::int32_t> args)
    {
        Instruction i;
        i.args = KernelCall { op, std::move(args) };
        i.rawType = 1;
        return i;
    }
};

std::vector<std::uint8_t> floats(std::initializer_list<float> values)
{
    std::vector<std::uint8_t> bytes(values.size() * 4);
    std::size_t i = 0;
    for (const float v : values)
        std::memcpy(bytes.data() + 4 * i++, &v, 4);
    return bytes;
}

/**
 * forward(x) -> (y, t): t = x + w (alpha 1); u = delegate(t); y = u * w; z = y + b; with constants w and b, a
 * delegate with two compile specs, and a planned arena of 256 bytes (room for one more activation).
 */
Program baseProgram()
{
    Builder b;
    b.program.executionPlan.emplace_back();
    ExecutionPlan& p = b.plan();
    p.name = "forward";
    p.containerMetaType = ContainerMetadata { "inputs", "outputs" };
    Tensor w = Builder::f32({ 2, 3 });
    w.dataBufferIdx = 1;
    Tensor bias = Builder::f32({ 2, 3 });
    bias.dataBufferIdx = 2;
    p.values = {
        Builder::value(Builder::planned(0)), // %0 x
        Builder::value(w), // %1 w
        Builder::value(Int { 1 }), // %2 alpha
        Builder::value(Builder::planned(32)), // %3 t
        Builder::value(Builder::planned(64)), // %4 u
        Builder::value(Builder::planned(96)), // %5 y
        Builder::value(bias), // %6 b
        Builder::value(Builder::planned(128)), // %7 z
    };
    p.inputs = { 0 };
    p.outputs = { 7, 3 };
    p.operators = { Operator { "aten::add", "out" }, Operator { "aten::mul", "out" } };
    BackendDelegate d;
    d.id = "XnnpackBackend";
    d.processed = BackendDelegateDataReference { DataLocation::Inline, 0 };
    d.compileSpecs = { CompileSpec { "threads", Bytes::copyOf("4") }, CompileSpec { "mode", Bytes::copyOf("fast") } };
    p.delegates = { d };
    Instruction call;
    call.args = DelegateCall { 0, { 3, 4 } };
    call.rawType = 2;
    Chain chain;
    chain.instructions = { Builder::kernel(0, { 0, 1, 2, 3, 3 }), call, Builder::kernel(1, { 4, 1, 5, 5 }),
        Builder::kernel(0, { 5, 6, 2, 7, 7 }) };
    p.chains = { chain };
    p.nonConstBufferSizes = { 0, 256 };
    b.program.constantBuffer = { Buffer {}, Buffer { Bytes::fromVector(floats({ 1, 2, 3, 4, 5, 6 })) },
        Buffer { Bytes::fromVector(floats({ 0.5f, 0.5f, 0.5f, 0.5f, 0.5f, 0.5f })) } };
    b.program.backendDelegateData = { Buffer { Bytes::copyOf("XN00 delegate payload of the test") } };
    return b.program;
}

/** The program as a file would hold it: laid out, serialized with our writer, read back with our reader. */
DiffSide sideOf(const Program& emitted, const std::string& label, const WriteOptions& write = {},
    const std::vector<std::pair<std::string, Bytes>>& namedData = {})
{
    SerializeOptions options;
    options.write = write;
    auto laid = layoutForSerialization(emitted, {}, namedData, options);
    if (!laid)
        qFatal("layout failed: %s", laid.error().toString().c_str());
    auto serialized = serializePte(*laid, write);
    if (!serialized)
        qFatal("serialize failed: %s", serialized.error().toString().c_str());
    auto file = readPteBytes(Bytes::fromVector(concatenate(*serialized)), label);
    if (!file)
        qFatal("read failed: %s", file.error().toString().c_str());
    DiffSide side;
    side.label = label;
    side.program = (*file)->program;
    side.file = *file;
    return side;
}

/** Swaps values %x and %y everywhere (an edit that only renumbers). */
void swapValues(Program& p, std::int32_t x, std::int32_t y)
{
    ExecutionPlan& plan = p.executionPlan.front();
    std::swap(plan.values[std::size_t(x)], plan.values[std::size_t(y)]);
    auto fix = [&](std::int32_t& v) { v = v == x ? y : v == y ? x : v; };
    for (auto& v : plan.inputs)
        fix(v);
    for (auto& v : plan.outputs)
        fix(v);
    for (auto& c : plan.chains)
        for (auto& in : c.instructions) {
            if (auto* k = std::get_if<KernelCall>(&in.args))
                for (auto& a : k->args)
                    fix(a);
            if (auto* d = std::get_if<DelegateCall>(&in.args))
                for (auto& a : d->args)
                    fix(a);
        }
}

using Edit = std::function<void(Program&)>;

const std::map<std::string, Edit>& edits()
{
    static const std::map<std::string, Edit> all = {
        { "op inserted",
            [](Program& p) {
                auto& plan = p.executionPlan.front();
                plan.values.push_back(Builder::value(Builder::planned(160))); // %8, in the arena's free space
                auto& ins = plan.chains[0].instructions;
                ins.insert(ins.begin() + 1, Builder::kernel(1, { 3, 1, 8, 8 }));
            } },
        { "two ops inserted",
            [](Program& p) {
                auto& plan = p.executionPlan.front();
                plan.values.push_back(Builder::value(Builder::planned(160))); // %8 and %9, in the arena's free space
                plan.values.push_back(Builder::value(Builder::planned(192)));
                auto& ins = plan.chains[0].instructions;
                ins.insert(
                    ins.begin() + 1, { Builder::kernel(1, { 3, 1, 8, 8 }), Builder::kernel(0, { 8, 6, 2, 9, 9 }) });
            } },
        { "op removed",
            [](Program& p) {
                auto& ins = p.executionPlan.front().chains[0].instructions;
                ins.erase(ins.begin() + 3);
            } },
        { "operator replaced",
            [](Program& p) {
                auto& plan = p.executionPlan.front();
                plan.operators.push_back(Operator { "aten::sub", "out" });
                std::get<KernelCall>(plan.chains[0].instructions[3].args).opIndex = 2;
            } },
        { "dtype changed",
            [](Program& p) { std::get<Tensor>(p.executionPlan.front().values[4].val).scalarType = ScalarType::Half; } },
        { "memory offset changed",
            [](Program& p) {
                std::get<Tensor>(p.executionPlan.front().values[5].val).allocationInfo->memoryOffsetLow = 192;
            } },
        { "arena size changed",
            [](Program& p) {
                p.executionPlan.front().nonConstBufferSizes = { 0, 512 };
            } },
        { "constant perturbed",
            [](Program& p) {
                p.constantBuffer[1].storage = Bytes::fromVector(floats({ 1, 2, 3, 4.25f, 5, 6 }));
            } },
        { "alpha changed", [](Program& p) { std::get<Int>(p.executionPlan.front().values[2].val).intVal = 2; } },
        { "argument rewired",
            [](Program& p) {
                std::get<KernelCall>(p.executionPlan.front().chains[0].instructions[2].args).args[0] = 3;
            } },
        { "compile spec changed",
            [](Program& p) { p.executionPlan.front().delegates[0].compileSpecs[1].value = Bytes::copyOf("small"); } },
        { "delegate payload changed",
            [](Program& p) { p.backendDelegateData[0].storage = Bytes::copyOf("XN00 another delegate payload"); } },
        { "outputs reordered",
            [](Program& p) {
                p.executionPlan.front().outputs = { 3, 7 };
            } },
        { "input dropped", [](Program& p) { p.executionPlan.front().inputs.clear(); } },
        { "container meta changed",
            [](Program& p) { p.executionPlan.front().containerMetaType->encodedOutStr = "other outputs"; } },
        { "method renamed", [](Program& p) { p.executionPlan.front().name = "predict"; } },
        { "value renumbered", [](Program& p) { swapValues(p, 3, 4); } },
        { "constants reordered",
            [](Program& p) {
                std::swap(p.constantBuffer[1], p.constantBuffer[2]);
                for (auto& v : p.executionPlan.front().values)
                    if (auto* t = std::get_if<Tensor>(&v.val); t && t->dataBufferIdx)
                        t->dataBufferIdx = 3 - t->dataBufferIdx;
            } },
        { "operator table reordered",
            [](Program& p) {
                auto& plan = p.executionPlan.front();
                std::swap(plan.operators[0], plan.operators[1]);
                for (auto& in : plan.chains[0].instructions)
                    if (auto* k = std::get_if<KernelCall>(&in.args))
                        k->opIndex = 1 - k->opIndex;
            } },
        { "requires_grad set",
            [](Program& p) { std::get<Tensor>(p.executionPlan.front().values[1].val).requiresGrad = true; } },
    };
    return all;
}

/** "category/status/subject/field" of each difference, for exact comparison. */
QStringList keysOf(const ProgramDiff& d)
{
    QStringList keys;
    for (const auto& x : d.differences)
        keys << QString::fromStdString(std::string(diffCategoryName(x.category)) + "/" + diffStatusName(x.status) + "/"
            + x.subject + "/" + x.field);
    return keys;
}

QString report(const ProgramDiff& d) { return QString::fromStdString(diffReportText(d)); }

std::vector<std::uint64_t> keysFrom(const std::string& s)
{
    std::vector<std::uint64_t> v;
    for (const char c : s)
        v.push_back(std::uint64_t(c));
    return v;
}

/** Checks an alignment: every element once, in order, two-sided rows have equal keys. Returns the one-sided rows. */
std::size_t checkAlignment(const std::vector<AlignedPair>& rows, const std::vector<std::uint64_t>& a,
    const std::vector<std::uint64_t>& b, bool equalKeys = true)
{
    std::int64_t lastA = -1;
    std::int64_t lastB = -1;
    std::size_t oneSided = 0;
    for (const auto& r : rows) {
        if (r.a >= 0) {
            if (r.a != lastA + 1)
                qFatal("A element %d out of order", r.a);
            lastA = r.a;
        }
        if (r.b >= 0) {
            if (r.b != lastB + 1)
                qFatal("B element %d out of order", r.b);
            lastB = r.b;
        }
        if (r.a < 0 || r.b < 0)
            ++oneSided;
        else if (equalKeys && a[std::size_t(r.a)] != b[std::size_t(r.b)])
            qFatal("row %d/%d pairs different keys", r.a, r.b);
    }
    if (lastA + 1 != std::int64_t(a.size()) || lastB + 1 != std::int64_t(b.size()))
        qFatal("not every element is in the alignment");
    return oneSided;
}

} // namespace

class TestProgramDiff : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // ------------------------------------------------------------ sequence alignment

    void alignmentOfSmallSequences_data()
    {
        QTest::addColumn<QString>("a");
        QTest::addColumn<QString>("b");
        QTest::addColumn<int>("oneSided"); // the least number of inserted + removed elements
        QTest::addColumn<bool>("localOnly"); // the fallback alone (no exact search) finds the same here
        for (const bool local : { false, true })
            addSmallSequences(local);
    }
    static void addSmallSequences(bool local)
    {
        auto row = [local](const char* name) -> QTestData& {
            return QTest::newRow(qPrintable(QString::fromLatin1(name) + (local ? " (local)" : "")));
        };
        row("equal") << "abcabc"
                     << "abcabc" << 0 << local;
        row("both empty") << ""
                          << "" << 0 << local;
        row("a empty") << ""
                       << "abc" << 3 << local;
        row("b empty") << "abc"
                       << "" << 3 << local;
        row("one inserted in a periodic sequence") << "abababababababab"
                                                   << "ababababXabababab" << 1 << local;
        row("one removed at the start") << "xabcdefgh"
                                        << "abcdefgh" << 1 << local;
        row("one removed at the end") << "abcdefghx"
                                      << "abcdefgh" << 1 << local;
        row("one substituted") << "abcdefghij"
                               << "abcdXfghij" << 2 << local;
        row("two far apart") << "abcdefghijklmnopqrstuvwxyz"
                             << "abcdeXfghijklmnopqrstYuvwxyz" << 2 << local;
        row("nothing in common") << "aaaa"
                                 << "bbbbbb" << 10 << local;
        row("a block moved back") << "abcdefghijklmnop"
                                  << "abcdijklefghmnop" << 8 << local;
    }
    void alignmentOfSmallSequences()
    {
        QFETCH(QString, a);
        QFETCH(QString, b);
        QFETCH(int, oneSided);
        QFETCH(bool, localOnly);
        const auto ka = keysFrom(a.toStdString());
        const auto kb = keysFrom(b.toStdString());
        diff::AlignmentOptions options;
        if (localOnly)
            options.maxExactCost = 0;
        const auto rows = diff::alignSequences(ka, kb, options);
        QCOMPARE(int(checkAlignment(rows, ka, kb)), oneSided);
    }

    void exactAlignmentIsOptimal()
    {
        // Against the textbook LCS table on random sequences over a small alphabet.
        std::mt19937 rng(11);
        for (int round = 0; round < 300; ++round) {
            std::vector<std::uint64_t> a(rng() % 40);
            std::vector<std::uint64_t> b(rng() % 40);
            const std::uint64_t letters = 1 + rng() % 4;
            for (auto& x : a)
                x = rng() % letters;
            for (auto& x : b)
                x = rng() % letters;
            std::vector<std::vector<int>> lcs(a.size() + 1, std::vector<int>(b.size() + 1, 0));
            for (std::size_t i = a.size(); i-- > 0;)
                for (std::size_t j = b.size(); j-- > 0;)
                    lcs[i][j] = a[i] == b[j] ? lcs[i + 1][j + 1] + 1 : std::max(lcs[i + 1][j], lcs[i][j + 1]);
            const auto rows = diff::alignSequences(a, b);
            QCOMPARE(int(checkAlignment(rows, a, b)), int(a.size() + b.size()) - 2 * lcs[0][0]);
            diff::AlignmentOptions local;
            local.maxExactCost = 0;
            const auto approx = diff::alignSequences(a, b, local);
            QVERIFY(int(checkAlignment(approx, a, b)) >= int(a.size() + b.size()) - 2 * lcs[0][0]);
        }
    }

    void oneInsertedElementIsOneRow()
    {
        // A long repetitive sequence (like a transformer's layers) with one element inserted in the middle: one
        // inserted row, at the insertion, not a shifted tail.
        std::vector<std::uint64_t> a;
        for (int i = 0; i < 100000; ++i)
            a.push_back(std::uint64_t(i % 7));
        auto b = a;
        b.insert(b.begin() + 50000, 99);
        const auto rows = diff::alignSequences(a, b);
        QCOMPARE(checkAlignment(rows, a, b), std::size_t(1));
        const auto it = std::find_if(rows.begin(), rows.end(), [](const AlignedPair& r) { return r.a < 0; });
        QCOMPARE(it->b, 50000);
    }

    void scatteredEditsCostNoMoreThanMade()
    {
        std::mt19937 rng(7);
        std::vector<std::uint64_t> a;
        for (int i = 0; i < 50000; ++i)
            a.push_back(std::uint64_t(i % 13 == 0 ? rng() % 5 : i % 4));
        auto b = a;
        std::size_t made = 0;
        for (std::size_t pos = 200; pos + 10 < b.size(); pos += 300 + rng() % 200) {
            switch (rng() % 3) {
            case 0:
                b[pos] = 1000 + made;
                made += 2; // one removed, one inserted
                break;
            case 1:
                b.insert(b.begin() + std::ptrdiff_t(pos), 2000 + made);
                made += 1;
                break;
            default:
                b.erase(b.begin() + std::ptrdiff_t(pos));
                made += 1;
                break;
            }
        }
        const auto rows = diff::alignSequences(a, b);
        QVERIFY(checkAlignment(rows, a, b) <= made);
    }

    void aLargeInsertedBlockIsFoundByAnchors()
    {
        // 3000 inserted elements cost more than the local search tries; K-gram anchors find where A resumes (the
        // exact search finds it too).
        std::vector<std::uint64_t> a;
        for (int i = 0; i < 20000; ++i)
            a.push_back(std::uint64_t(i));
        auto b = a;
        std::vector<std::uint64_t> block;
        for (int i = 0; i < 3000; ++i)
            block.push_back(std::uint64_t(100000 + i));
        b.insert(b.begin() + 10000, block.begin(), block.end());
        diff::AlignmentOptions local;
        local.maxExactCost = 0;
        const auto rows = diff::alignSequences(a, b, local);
        QCOMPARE(checkAlignment(rows, a, b), std::size_t(3000));
        QCOMPARE(checkAlignment(diff::alignSequences(a, b), a, b), std::size_t(3000));
    }

    void hunksArePairedByScore()
    {
        // Removed x y, inserted y' z: y and y' are similar (same operator), paired; x and z by position.
        std::vector<AlignedPair> rows = { { 0, 0 }, { 1, -1 }, { 2, -1 }, { -1, 1 }, { -1, 2 }, { 3, 3 } };
        const std::vector<std::uint64_t> primaryA = { 1, 10, 20, 3 };
        const std::vector<std::uint64_t> primaryB = { 1, 21, 30, 3 };
        const std::vector<std::uint64_t> similarA = { 1, 10, 20, 3 };
        const std::vector<std::uint64_t> similarB = { 1, 20, 30, 3 };
        diff::refineHunks(rows, primaryA, primaryB, similarA, similarB);
        QCOMPARE(rows, (std::vector<AlignedPair> { { 0, 0 }, { 1, -1 }, { 2, 1 }, { -1, 2 }, { 3, 3 } }));
        // Nothing similar: paired by position.
        std::vector<AlignedPair> replace = { { 0, -1 }, { -1, 0 } };
        const std::vector<std::uint64_t> one = { 1 };
        const std::vector<std::uint64_t> two = { 2 };
        diff::refineHunks(replace, one, two, one, two);
        QCOMPARE(replace, (std::vector<AlignedPair> { { 0, 0 } }));
        // An isolated exact match inside an edited stretch joins the hunk when pairing around it scores more:
        // A = D M, B = M* D' M' (M* an inserted copy of M; D' and M' are D and M edited).
        std::vector<AlignedPair> isolated = { { 0, -1 }, { 1, 0 }, { -1, 1 }, { -1, 2 } };
        const std::vector<std::uint64_t> pa = { 5, 6 };
        const std::vector<std::uint64_t> pb = { 6, 7, 8 };
        const std::vector<std::uint64_t> sa = { 50, 60 };
        const std::vector<std::uint64_t> sb = { 60, 50, 60 };
        diff::refineHunks(isolated, pa, pb, sa, sb);
        QCOMPARE(isolated, (std::vector<AlignedPair> { { -1, 0 }, { 0, 1 }, { 1, 2 } }));
    }

    // ------------------------------------------------------------ programs

    void programEqualsItself()
    {
        const auto a = sideOf(baseProgram(), "a.pte");
        const auto b = sideOf(baseProgram(), "b.pte");
        for (const bool strict : { false, true }) {
            DiffOptions o;
            o.strict = strict;
            auto d = diffPrograms(a, b, o);
            QVERIFY_RESULT(d);
            QVERIFY2(d->equal(), qPrintable(report(*d)));
            QCOMPARE(d->methods.size(), std::size_t(1));
            QCOMPARE(d->methods[0].same, std::size_t(4));
            QCOMPARE(d->constants.size(), std::size_t(2));
            QCOMPARE(d->delegates.size(), std::size_t(1));
            QCOMPARE(d->delegates[0].status, DiffStatus::Same);
            QCOMPARE(d->delegates[0].payloadSha256A.size(), std::size_t(64));
        }
    }

    void deliberateEdits_data()
    {
        QTest::addColumn<QString>("edit");
        QTest::addColumn<bool>("strict");
        QTest::addColumn<QStringList>("expected"); // category/status/subject/field of every difference, in order
        auto row = [](const char* edit, bool strict, QStringList expected) {
            QTest::newRow(qPrintable(QString::fromLatin1(edit) + (strict ? " (strict)" : "")))
                << edit << strict << expected;
        };
        row("op inserted", false, { "instruction/added/instruction 1/" });
        row("two ops inserted", false, { "instruction/added/instructions 1\u20132/" });
        row("op removed", false, { "instruction/removed/instruction 3/" });
        row("operator replaced", false, { "instruction/changed/instruction 3/operator" });
        row("dtype changed", false, { "value/changed/value %4/scalar_type" });
        row("memory offset changed", false, { "memory_plan/changed/value %5/memory_offset" });
        row("arena size changed", false, { "memory_plan/changed/non_const_buffer_sizes/" });
        row("constant perturbed", false, { "constant/changed/constant %1/data" });
        row("alpha changed", false, { "value/changed/value %2/value" });
        row("argument rewired", false, { "instruction/changed/instruction 2/arg 0" });
        row("compile spec changed", false, { "delegate/changed/delegate 0 (XnnpackBackend)/compile_spec 'mode'" });
        row("delegate payload changed", false, { "delegate/changed/delegate 0 (XnnpackBackend)/payload" });
        row("outputs reordered", false, { "signature/changed/outputs/order" });
        row("input dropped", false, { "signature/changed/inputs/count", "signature/removed/inputs[0]/" });
        row("container meta changed", false, { "signature/changed/container_meta_type/encoded_out_str" });
        row("method renamed", false, { "method/changed/method/name" });
        // Renumbering, constant order, operator table order and requires_grad do not change what runs.
        row("value renumbered", false, {});
        row("constants reordered", false, {});
        row("operator table reordered", false, {});
        row("requires_grad set", false, {});
        // Strict mode names them.
        row("value renumbered", true, { "value/changed/value/index", "value/changed/value/index" });
        row("constants reordered", true,
            { "constant/changed/value %1/data_buffer_idx", "constant/changed/value %6/data_buffer_idx" });
        row("operator table reordered", true, { "operator/changed/operators/table" });
        row("requires_grad set", true, { "value/changed/value %1/requires_grad" });
        row("dtype changed", true, { "value/changed/value %4/scalar_type" });
    }
    void deliberateEdits()
    {
        QFETCH(QString, edit);
        QFETCH(bool, strict);
        QFETCH(QStringList, expected);
        Program edited = baseProgram();
        edits().at(edit.toStdString())(edited);
        const auto a = sideOf(baseProgram(), "a.pte");
        const auto b = sideOf(edited, "b.pte");
        DiffOptions o;
        o.strict = strict;
        auto d = diffPrograms(a, b, o);
        QVERIFY_RESULT(d);
        const QStringList keys = keysOf(*d);
        if (keys != expected) {
            qWarning("%s", qPrintable(report(*d)));
            QCOMPARE(keys, expected);
        }
        QCOMPARE(d->equal(), expected.isEmpty());
        for (const auto& x : d->differences)
            QCOMPARE(x.strictOnly, strict && edit != QLatin1String("dtype changed"));
        // Swapped the other way round, the same differences are found (added and removed trade places).
        auto back = diffPrograms(b, a, o);
        QVERIFY_RESULT(back);
        QCOMPARE(back->differences.size(), d->differences.size());
    }

    void differencesNameWhatChanged()
    {
        auto diffWith = [](const char* edit) {
            Program edited = baseProgram();
            edits().at(edit)(edited);
            auto d = diffPrograms(sideOf(baseProgram(), "a.pte"), sideOf(edited, "b.pte"));
            if (!d)
                qFatal("%s", d.error().toString().c_str());
            return std::move(d).value();
        };
        {
            // The dtype change names both sides and every use of the value.
            const auto d = diffWith("dtype changed");
            const Difference& x = d.differences.at(0);
            QCOMPARE(x.a, std::string("f32"));
            QCOMPARE(x.b, std::string("f16"));
            QCOMPARE(x.useCountA, std::size_t(2));
            QCOMPARE(x.usesA, (std::vector<DiffUse> { { 1, 1 }, { 2, 0 } }));
            QCOMPARE(x.usesB, x.usesA);
            QVERIFY(x.toString().find("instruction 1 arg 1, instruction 2 arg 0") != std::string::npos);
            // Both rows that use it are changed, the cells marked; the others are the same.
            const MethodDiff& m = d.methods.at(0);
            QCOMPARE(m.changed, std::size_t(2));
            QCOMPARE(m.same, std::size_t(2));
            QCOMPARE(m.change(1)->arguments, (std::vector<std::uint32_t> { 1 }));
            QCOMPARE(m.change(2)->arguments, (std::vector<std::uint32_t> { 0 }));
            QVERIFY(!m.change(0));
        }
        {
            // The perturbed constant: element [1, 0] differs by 0.25.
            const auto d = diffWith("constant perturbed");
            QCOMPARE(d.constants.size(), std::size_t(2));
            const auto it = std::find_if(d.constants.begin(), d.constants.end(),
                [](const ConstantRow& c) { return c.status == DiffStatus::Changed; });
            QVERIFY(it != d.constants.end());
            QVERIFY(it->numeric);
            QCOMPARE(it->numeric->elements, std::uint64_t(6));
            QCOMPARE(it->numeric->differing, std::uint64_t(1));
            QCOMPARE(it->numeric->maxAbs, 0.25);
            QCOMPARE(it->numeric->meanAbs, 0.25 / 6);
            QCOMPARE(it->numeric->firstIndices, (std::vector<std::vector<std::int64_t>> { { 1, 0 } }));
            QVERIFY(d.differences.at(0).detail.find("first at [1, 0]") != std::string::npos);
        }
        {
            // The inserted instruction: one inserted row between same rows; its new value is not reported apart.
            const auto d = diffWith("op inserted");
            const MethodDiff& m = d.methods.at(0);
            QCOMPARE(m.rows.size(), std::size_t(5));
            QCOMPARE(m.inserted, std::size_t(1));
            QCOMPARE(m.same, std::size_t(4));
            QCOMPARE(m.rows[1].a, -1);
            QCOMPARE(m.rows[1].b, 1);
            QCOMPARE(m.rows[1].status, DiffStatus::Added);
            QCOMPARE(m.rows[2].a, 1);
            QCOMPARE(m.rows[2].b, 2);
            QCOMPARE(d.differences.at(0).b,
                std::string("aten::mul.out(%3 f32[2, 3], %1 f32[2, 3], %8 f32[2, 3], %8 f32[2, 3])"));
            QCOMPARE(m.operatorCounts.at("aten::mul.out"), (std::pair<std::size_t, std::size_t>(1, 2)));
        }
        {
            // A run of inserted instructions is one difference: the first instruction, and the count once.
            const auto d = diffWith("two ops inserted");
            QCOMPARE(d.differences.size(), std::size_t(1));
            QCOMPARE(d.methods.at(0).inserted, std::size_t(2));
            QCOMPARE(d.differences.at(0).toString(),
                std::string(
                    "+ instructions 1\u20132: aten::mul.out(%3 f32[2, 3], %1 f32[2, 3], %8 f32[2, 3], %8 f32[2, 3]) "
                    "... (2 instructions)"));
        }
        {
            // The rewired argument names the value on each side.
            const auto d = diffWith("argument rewired");
            QCOMPARE(d.differences.at(0).a, std::string("%4 f32[2, 3] planned 1@64"));
            QCOMPARE(d.differences.at(0).b, std::string("%3 f32[2, 3] planned 1@32"));
        }
        {
            const auto d = diffWith("compile spec changed");
            QCOMPARE(d.differences.at(0).a, std::string("fast"));
            QCOMPARE(d.differences.at(0).b, std::string("small"));
            QVERIFY(d.delegates.at(0).compileSpecsDiffer);
            QCOMPARE(d.delegates.at(0).payloadSha256A, d.delegates.at(0).payloadSha256B);
        }
        {
            const auto d = diffWith("outputs reordered");
            QCOMPARE(d.differences.at(0).detail,
                std::string("reordered: outputs[0] is now outputs[1], outputs[1] is now outputs[0]"));
        }
    }

    void layoutDoesNotCount()
    {
        // Other alignments move every segment and pad constants differently: equal in semantic mode; strict mode
        // reports only layout (segments, constant offsets), nothing about the methods.
        WriteOptions wide;
        wide.segmentAlignment = 4096;
        wide.constantTensorAlignment = 64;
        const auto a = sideOf(baseProgram(), "a.pte");
        const auto b = sideOf(baseProgram(), "b.pte", wide);
        auto semantic = diffPrograms(a, b);
        QVERIFY_RESULT(semantic);
        QVERIFY2(semantic->equal(), qPrintable(report(*semantic)));
        DiffOptions o;
        o.strict = true;
        auto strict = diffPrograms(a, b, o);
        QVERIFY_RESULT(strict);
        QCOMPARE(keysOf(*strict),
            (QStringList { "program/changed/extended header/segment_base_offset",
                "program/changed/segments/offset+size", "program/changed/constant_segment/offsets" }));
        // The emitted form (legacy constant buffers, inline blob) against its laid-out file: the same program.
        DiffSide emitted;
        emitted.label = "emitted";
        emitted.program = std::make_shared<const Program>(baseProgram());
        auto d = diffPrograms(emitted, a);
        QVERIFY_RESULT(d);
        QVERIFY2(d->equal(), qPrintable(report(*d)));
    }

    void methodsPairByNameThenContent()
    {
        Program two = baseProgram();
        two.executionPlan.push_back(two.executionPlan.front());
        two.executionPlan.back().name = "second";
        Program renamed = two;
        renamed.executionPlan.back().name = "third";
        auto d = diffPrograms(sideOf(two, "a.pte"), sideOf(renamed, "b.pte"));
        QVERIFY_RESULT(d);
        QCOMPARE(keysOf(*d), QStringList { "method/changed/method/name" });
        QCOMPARE(d->methods.size(), std::size_t(2));
        QCOMPARE(d->methods[1].nameA, std::string("second"));
        QCOMPARE(d->methods[1].nameB, std::string("third"));
        // A method that differs in content too is removed and added.
        std::get<Tensor>(renamed.executionPlan.back().values[4].val).scalarType = ScalarType::Half;
        d = diffPrograms(sideOf(two, "a.pte"), sideOf(renamed, "b.pte"));
        QVERIFY_RESULT(d);
        QCOMPARE(keysOf(*d), (QStringList { "method/removed/method 'second'/", "method/added/method 'third'/" }));
        QCOMPARE(d->methods[1].status, DiffStatus::Removed);
        QCOMPARE(d->methods[2].status, DiffStatus::Added);
        QCOMPARE(d->methods[2].inserted, std::size_t(4));
        // --method compares one method; a method missing on one side is an error naming it.
        DiffOptions only;
        only.method = "forward";
        d = diffPrograms(sideOf(two, "a.pte"), sideOf(renamed, "b.pte"), only);
        QVERIFY_RESULT(d);
        QVERIFY(d->equal());
        QCOMPARE(d->methods.size(), std::size_t(1));
        only.method = "second";
        d = diffPrograms(sideOf(two, "a.pte"), sideOf(renamed, "b.pte"), only);
        QVERIFY_ERROR(d, ErrorCode::InvalidInput, "b.pte has no method 'second'");
    }

    void debugHandlesDisambiguateAndAreCompared()
    {
        // Two identical adds; B drops the first. Without debug handles the alignment would keep the first and drop
        // the second; with handles (both sides have them) it keeps the one whose handle survives.
        Program a = baseProgram();
        auto& ins = a.executionPlan.front().chains[0].instructions;
        ins.insert(ins.begin(), ins[0]);
        Program b = baseProgram();
        auto mapsA = std::make_shared<EtRecordMaps>();
        mapsA->debugHandleMap["forward"] = { { 0, { 10 } }, { 1, { 11 } }, { 2, { 12 } }, { 3, { 13 } },
            { 4, { 14 } } };
        auto mapsB = std::make_shared<EtRecordMaps>();
        mapsB->debugHandleMap["forward"] = { { 0, { 11 } }, { 1, { 12 } }, { 2, { 13 } }, { 3, { 14 } } };
        DiffSide sa = sideOf(a, "a.pte");
        DiffSide sb = sideOf(b, "b.pte");
        sa.debugMaps = mapsA;
        sb.debugMaps = mapsB;
        auto d = diffPrograms(sa, sb);
        QVERIFY_RESULT(d);
        QCOMPARE(keysOf(*d), QStringList { "instruction/removed/instruction 0/" });
        QVERIFY(d->methods[0].alignedWithDebugHandles);
        auto plain = diffPrograms(sideOf(a, "a.pte"), sideOf(b, "b.pte"));
        QVERIFY_RESULT(plain);
        QCOMPARE(keysOf(*plain), QStringList { "instruction/removed/instruction 1/" });
        // A handle that differs on a matched row is reported.
        mapsB->debugHandleMap["forward"][3] = { 99 };
        d = diffPrograms(sa, sb);
        QVERIFY_RESULT(d);
        QCOMPARE(keysOf(*d),
            (QStringList {
                "instruction/removed/instruction 0/", "debug_info/changed/instruction 4 \u2194 3/debug_handles" }));
    }

    void namedDataByKey()
    {
        // Named data is compared by key and content; the segment a key lives in (its order) only in strict mode.
        using Named = std::vector<std::pair<std::string, Bytes>>;
        const Named base = { { "encoder.weight", Bytes::copyOf("weights of the encoder") },
            { "decoder.weight", Bytes::copyOf("weights of the decoder") } };
        const auto a = sideOf(baseProgram(), "a.pte", {}, base);
        QVERIFY(a.program->namedData && a.program->namedData->size() == 2);
        auto diffWith = [&](const Named& named, bool strict) {
            DiffOptions o;
            o.strict = strict;
            auto d = diffPrograms(a, sideOf(baseProgram(), "b.pte", {}, named), o);
            if (!d)
                qFatal("%s", d.error().toString().c_str());
            return std::move(d).value();
        };
        const Named reordered = { base[1], base[0] };
        auto d = diffWith(reordered, false);
        QVERIFY2(d.equal(), qPrintable(report(d)));
        d = diffWith(reordered, true);
        QCOMPARE(keysOf(d),
            (QStringList { "named_data/changed/named data 'decoder.weight'/segment_index",
                "named_data/changed/named data 'encoder.weight'/segment_index" }));
        for (const auto& x : d.differences)
            QVERIFY(x.strictOnly);
        const Named changed = { base[0], { "decoder.weight", Bytes::copyOf("other weights, longer") } };
        d = diffWith(changed, false);
        QCOMPARE(keysOf(d), QStringList { "named_data/changed/named data 'decoder.weight'/data" });
        QCOMPARE(d.differences.at(0).a, std::string("22 bytes"));
        QCOMPARE(d.differences.at(0).b, std::string("21 bytes"));
        const Named renamed = { base[0], { "head.weight", base[1].second } };
        d = diffWith(renamed, false);
        QCOMPARE(keysOf(d),
            (QStringList {
                "named_data/removed/named data 'decoder.weight'/", "named_data/added/named data 'head.weight'/" }));
        QCOMPARE(d.countByCategory()[std::size_t(DiffCategory::NamedData)], std::size_t(2));
    }

    void delegateDebugIdentifiersAreCompared()
    {
        // When both sides carry delegate maps (an ETRecord or an emission), the delegate call's identifiers are
        // compared; a map on one side only is not a difference.
        auto mapsWith = [](std::vector<std::int64_t> handles) {
            auto maps = std::make_shared<EtRecordMaps>();
            maps->delegateMap["forward"][1] = DelegateMapEntry { "XnnpackBackend", { { "0", std::move(handles) } } };
            return maps;
        };
        DiffSide a = sideOf(baseProgram(), "a.pte");
        DiffSide b = sideOf(baseProgram(), "b.pte");
        a.debugMaps = mapsWith({ 1, 2 });
        auto d = diffPrograms(a, b);
        QVERIFY_RESULT(d);
        QVERIFY2(d->equal(), qPrintable(report(*d)));
        b.debugMaps = mapsWith({ 1, 2 });
        d = diffPrograms(a, b);
        QVERIFY_RESULT(d);
        QVERIFY2(d->equal(), qPrintable(report(*d)));
        b.debugMaps = mapsWith({ 1, 3 });
        d = diffPrograms(a, b);
        QVERIFY_RESULT(d);
        QCOMPARE(keysOf(*d), QStringList { "debug_info/changed/instruction 1/delegate_debug_identifiers" });
        QCOMPARE(d->methods.at(0).changed, std::size_t(1));
        QVERIFY(d->methods.at(0).change(1));
        QVERIFY(d->methods.at(0).change(1)->debugHandles);
    }

    void reportsAreReadableAndJson()
    {
        Program edited = baseProgram();
        edits().at("dtype changed")(edited);
        edits().at("op inserted")(edited);
        auto d = diffPrograms(sideOf(baseProgram(), "a.pte"), sideOf(edited, "b.pte"));
        QVERIFY_RESULT(d);
        const std::string text = diffReportText(*d);
        QVERIFY(
            text.find("different (semantic comparison): 2 difference(s): 1 instruction, 1 value") != std::string::npos);
        QVERIFY(text.find("method forward: 4 -> 5 instructions (2 same, 2 changed, 1 inserted, 0 removed)")
            != std::string::npos);
        QVERIFY(text.find("+ instruction 1: aten::mul.out(") != std::string::npos);
        const auto j = nlohmann::json::parse(diffReportJson(*d), nullptr, false);
        QVERIFY(!j.is_discarded());
        QCOMPARE(j["equal"].get<bool>(), false);
        QCOMPARE(j["summary"]["differences"].get<int>(), 2);
        QCOMPARE(j["differences"][1]["field"].get<std::string>(), std::string("scalar_type"));
        QCOMPARE(j["differences"][1]["uses_b"][0][0].get<int>(), 2); // instruction 2 in B (after the insertion)
        QCOMPARE(j["methods"][0]["rows"].size(), std::size_t(3)); // non-same rows only
        QCOMPARE(j["methods"][0]["operators"]["aten::mul.out"][1].get<int>(), 2);
        auto same = diffPrograms(sideOf(baseProgram(), "a.pte"), sideOf(baseProgram(), "b.pte"));
        QVERIFY_RESULT(same);
        QCOMPARE(diffReportText(*same),
            std::string("A: a.pte\nB: b.pte\nequal (semantic comparison): 1 method(s), 4 "
                        "instruction(s)\n"));
    }

    void cancelStops()
    {
        std::atomic<bool> cancel { true };
        DiffOptions o;
        o.cancel = &cancel;
        auto d = diffPrograms(sideOf(baseProgram(), "a.pte"), sideOf(baseProgram(), "b.pte"), o);
        QVERIFY(!d);
        QCOMPARE(d.error().code, ErrorCode::Cancelled);
    }

    void syntheticVariantIsFoundExactly()
    {
        SyntheticOptions s;
        s.instructions = 3000;
        s.constantBytes = 4096;
        auto base = makeSyntheticProgram(s);
        QVERIFY_RESULT(base);
        auto variant = makeSyntheticVariant(*base, 100);
        QVERIFY_RESULT(variant);
        QCOMPARE(variant->changed + variant->inserted + variant->removed, std::uint64_t(30));
        DiffSide a;
        a.label = "a";
        a.program = std::make_shared<const Program>(std::move(*base));
        DiffSide b;
        b.label = "b";
        b.program = std::make_shared<const Program>(std::move(variant->program));
        auto d = diffPrograms(a, b);
        QVERIFY_RESULT(d);
        const MethodDiff& m = d->methods.at(0);
        if (m.inserted != variant->inserted)
            qWarning("%s", diffReportText(*d).c_str());
        QCOMPARE(m.changed, std::size_t(variant->changed));
        QCOMPARE(m.inserted, std::size_t(variant->inserted));
        QCOMPARE(m.removed, std::size_t(variant->removed));
        // One difference per edit: the changed alpha (the new value is not reported apart), the row inserted or
        // removed.
        QCOMPARE(d->differences.size(), std::size_t(30));
        for (const auto& x : d->differences)
            QCOMPARE(x.category, DiffCategory::Instruction);
    }
};

QTEST_GUILESS_MAIN(TestProgramDiff)
#include "tst_programdiff.moc"
