// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// The real ETDumps and bundled programs of the corpus ($PTELENS_CORPUS/pte). Expected values are those the ETDump
// reference derives from the files with ExecuTorch's Inspector (docs/etdump-format.md, Real files): event counts per
// block and kind, the 73 MobileNet rows (values of rows 1-10 and 66-73 in the Inspector's float repr), the tutorial's
// 31 rows; the tutorial ETDump joined with the tutorial's bundled program (the same ConvNet); and the bundled programs'
// test cases, checked by running their inputs on the reference interpreter.
#include "pte/bundledprogram.h"
#include "pte/etdump.h"
#include "pte/etdumpjoin.h"
#include "pte/numericgap.h"
#include "pte/profiletable.h"
#include "pte/programequality.h"
#include "pte/ptereader.h"
#include "pte/ptewriter.h"
#include "pte/referenceinterpreter.h"
#include "pte/tensortext.h"
#include "testutils.h"

#include <QTest>

#include <map>

using namespace pte;

namespace {

constexpr auto kMobilenet = "pte/taemin6697_Executorch-Tutorials__Profiling__mobilenet__etdump.etdp";
constexpr auto kTutorial = "pte/pytorch_executorch__docs__source__tutorials_source__etdump.etdp";
constexpr auto kTutorialProgram = "pte/pytorch_executorch__docs__source__tutorials_source__bundled_program.bp";
constexpr auto kBpte = "pte/pytorch_executorch__extension__module__test__resources__bundled_program.bpte";

std::shared_ptr<const EtDump> open(const char* name)
{
    auto r = readEtdumpFile(test::corpusPath(QString::fromLatin1(name)).toStdString());
    if (!r)
        qWarning("%s", r.error().toString().c_str());
    return r ? *r : nullptr;
}

std::string withoutOrdinal(std::string_view s)
{
    const auto hash = s.rfind(" #");
    return std::string(hash == std::string_view::npos ? s : s.substr(0, hash));
}

} // namespace

class TestCorpusEtdump : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void mobilenetEvents()
    {
        PTE_REQUIRE_CORPUS();
        const auto d = open(kMobilenet);
        QVERIFY(d);
        QCOMPARE(d->file.size(), std::size_t(6432));
        QVERIFY(d->sizePrefixed);
        QCOMPARE(d->version, 0u);
        QCOMPARE(d->layout, EtdumpLayout::Current);
        QCOMPARE(d->runs.size(), std::size_t(2));
        QCOMPARE(d->runs[0].name, std::string("Default"));
        QCOMPARE(d->runs[0].eventCount, 2u);
        QCOMPARE(d->runs[1].name, std::string("Execute"));
        QCOMPARE(d->runs[1].eventCount, 71u);
        for (const auto& r : d->runs) {
            QCOMPARE(r.bundledInputIndex, -1);
            QVERIFY(r.allocators.empty());
        }
        QCOMPARE(d->count(EtdumpEventKind::Profile), std::size_t(73));
        QCOMPARE(d->count(EtdumpEventKind::Debug), std::size_t(0));
        QCOMPARE(d->count(EtdumpEventKind::Allocation), std::size_t(0));
        const auto load = d->runEvents(d->runs[0]);
        QCOMPARE(d->eventName(load[0]), std::string_view("Method::init"));
        QCOMPARE(d->eventName(load[1]), std::string_view("Program::load_method"));
        QCOMPARE(load[0].chainIndex, std::int64_t(-1));
        QCOMPARE(load[0].instructionId, 0);
        // The 66 XNNPACK events by instruction and operator name (the reference's table).
        std::map<std::pair<int, std::string>, int> xnn;
        std::map<std::string, std::vector<int>> named;
        for (const auto& e : d->runEvents(d->runs[1])) {
            if (e.isDelegateEvent()) {
                QVERIFY(e.hasMetadata);
                QCOMPARE(d->delegateMetadata(e).size(), std::size_t(0));
                QCOMPARE(e.delegateDebugIdInt, -1);
                QCOMPARE(d->eventName(e), std::string_view());
                // Synthetic times: whole microseconds from the profiler's start (in the first call, ...192 ns).
                QCOMPARE((e.endTime - e.startTime) % 1000, std::uint64_t(0));
                if (e.instructionId == 0)
                    QCOMPARE(e.startTime % 1000, std::uint64_t(192));
                ++xnn[{ e.instructionId, withoutOrdinal(d->string(e.delegateDebugIdStr)) }];
            } else {
                named[std::string(d->eventName(e))].push_back(e.instructionId);
            }
        }
        const std::map<std::pair<int, std::string>, int> expected {
            { { 0, "Fully Connected (NC, F32) GEMM" }, 34 },
            { { 0, "Convolution (NHWC, F32) DWConv" }, 17 },
            { { 0, "Add (ND)" }, 10 },
            { { 0, "Transpose (ND, X32)" }, 2 },
            { { 0, "Convolution (NHWC, F32) IGEMM" }, 1 },
            { { 0, "Mean (ND) Reduce2" }, 1 },
            { { 2, "Fully Connected (NC, F32) GEMM" }, 1 },
        };
        QCOMPARE(xnn, expected);
        QCOMPARE(named["DELEGATE_CALL"], (std::vector<int> { 0, 2 }));
        QCOMPARE(named["native_call__clone_dim_order.out"], std::vector<int> { 1 });
        QCOMPARE(named["OPERATOR_CALL"], std::vector<int> { 1 });
        QCOMPARE(named["Method::execute"], std::vector<int> { 0 });
        QCOMPARE(named.size(), std::size_t(4));
        QVERIFY(d->diagnostics.empty());
    }

    void mobilenetRows()
    {
        PTE_REQUIRE_CORPUS();
        const auto d = open(kMobilenet);
        QVERIFY(d);
        auto t = buildProfileTable(*d);
        QVERIFY_RESULT(t);
        QCOMPARE(t->rows.size(), std::size_t(73));
        QCOMPARE(t->blocks.size(), std::size_t(2));
        std::size_t operatorCalls = 0;
        for (const auto& r : t->rows) {
            QCOMPARE(r.raw.size(), std::size_t(1)); // one run: all six statistics equal the sample
            QCOMPARE(r.p10, r.raw[0]);
            QCOMPARE(r.max, r.raw[0]);
            QVERIFY(r.opTypes.empty());
            operatorCalls += r.eventName.find("OPERATOR_CALL") != std::string::npos;
        }
        QCOMPARE(t->rows.size() - operatorCalls, std::size_t(72)); // print_data_tabular's count
        struct Expected
        {
            std::size_t row; // 1-based, as in the reference's CSV
            bool delegated;
            const char* block;
            const char* name;
            const char* value;
            std::uint64_t start;
        };
        const Expected rows[] = {
            { 1, false, "Default", "Method::init", "14.009576", 787303 },
            { 2, false, "Default", "Program::load_method", "14.013592", 786741 },
            { 3, true, "Execute", "Transpose (ND, X32) #1", "0.272000000000002", 17504192 },
            { 4, true, "Execute", "Convolution (NHWC, F32) IGEMM #1", "0.26799999999999713", 17776192 },
            { 5, true, "Execute", "Convolution (NHWC, F32) DWConv #1", "0.277000000000001", 18044192 },
            { 6, true, "Execute", "Fully Connected (NC, F32) GEMM #1", "0.19900000000000162", 18321192 },
            { 7, true, "Execute", "Fully Connected (NC, F32) GEMM #2", "0.23799999999999955", 18520192 },
            { 8, true, "Execute", "Convolution (NHWC, F32) DWConv #2", "0.22100000000000009", 18758192 },
            { 9, true, "Execute", "Fully Connected (NC, F32) GEMM #3", "0.16499999999999915", 18979192 },
            { 10, true, "Execute", "Fully Connected (NC, F32) GEMM #4", "0.18599999999999994", 19144192 },
            { 66, true, "Execute", "Mean (ND) Reduce2 #1", "0.006000000000000227", 0 },
            { 67, true, "Execute", "Transpose (ND, X32) #2", "0.0009999999999976694", 0 },
            { 68, false, "Execute", "DELEGATE_CALL", "12.633942", 0 },
            { 69, false, "Execute", "native_call__clone_dim_order.out", "0.011921", 0 },
            { 70, false, "Execute", "OPERATOR_CALL", "0.01259", 0 },
            { 71, true, "Execute", "Fully Connected (NC, F32) GEMM #1", "0.2539999999999978", 0 },
            { 72, false, "Execute", "DELEGATE_CALL", "0.2672", 0 },
            { 73, false, "Execute", "Method::execute", "12.917418", 0 },
        };
        for (const auto& e : rows) {
            const auto& r = t->rows[e.row - 1];
            const QByteArray where = "row " + QByteArray::number(qulonglong(e.row));
            QVERIFY2(r.isDelegatedOp == e.delegated, where);
            QVERIFY2(t->blocks[r.block].name == e.block, where);
            QVERIFY2(r.eventName == e.name, where + " " + r.eventName.c_str());
            QVERIFY2(pythonFloatRepr(r.p50) == e.value, where + " " + pythonFloatRepr(r.p50).c_str());
            if (e.start)
                QVERIFY2(r.startTimes == std::vector<std::uint64_t> { e.start }, where);
            if (e.delegated)
                QVERIFY2(r.delegateIdentifier() == e.name, where);
        }
        QCOMPARE(t->rows[67].instruction, 0);
        QCOMPARE(t->rows[70].instruction, 2);
        // Timing notes: the XNNPACK operators of the first call cover 9.941 ms, 2.617 ms after the call starts.
        double covered = 0;
        std::uint64_t firstStart = UINT64_MAX;
        for (const auto& e : d->runEvents(d->runs[1]))
            if (e.isDelegateEvent() && e.instructionId == 0) {
                covered += double(e.endTime - e.startTime);
                firstStart = std::min(firstStart, e.startTime);
            }
        QCOMPARE(std::llround(covered / 1e3), 9941ll);
        QCOMPARE(std::llround(double(firstStart - t->rows[67].startTimes[0]) / 1e3), 2617ll);
    }

    void tutorialEventsAndRows()
    {
        PTE_REQUIRE_CORPUS();
        const auto d = open(kTutorial);
        QVERIFY(d);
        QCOMPARE(d->file.size(), std::size_t(2320));
        QCOMPARE(d->runs.size(), std::size_t(2));
        QCOMPARE(d->runs[0].eventCount, 2u);
        QCOMPARE(d->runs[1].eventCount, 29u);
        QCOMPARE(d->count(EtdumpEventKind::Debug) + d->count(EtdumpEventKind::Allocation), std::size_t(0));
        std::map<std::string, int> kernels;
        std::vector<int> operatorCalls;
        const auto ev = d->runEvents(d->runs[1]);
        for (std::size_t i = 0; i < ev.size(); ++i) {
            QVERIFY(!ev[i].isDelegateEvent());
            const std::string name(d->eventName(ev[i]));
            if (name == "OPERATOR_CALL") {
                operatorCalls.push_back(ev[i].instructionId);
                QCOMPARE(ev[i].chainIndex, std::int64_t(0));
                // Each is preceded by its kernel event, on the same instruction.
                QVERIFY(i > 0 && d->eventName(ev[i - 1]).substr(0, 12) == "native_call_");
                QCOMPARE(ev[i - 1].instructionId, ev[i].instructionId);
            } else if (name.rfind("native_call_", 0) == 0) {
                ++kernels[name];
            }
        }
        QCOMPARE(operatorCalls, (std::vector<int> { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13 }));
        const std::map<std::string, int> expected { { "native_call_convolution.out", 2 }, { "native_call_relu.out", 4 },
            { "native_call_max_pool2d_with_indices.out", 2 }, { "native_call_permute_copy.out", 3 },
            { "native_call_addmm.out", 3 } };
        QCOMPARE(kernels, expected);
        QCOMPARE(d->eventName(ev.back()), std::string_view("Method::execute"));

        auto t = buildProfileTable(*d);
        QVERIFY_RESULT(t);
        QCOMPARE(t->rows.size(), std::size_t(31));
        QCOMPARE(t->rows.size() - operatorCalls.size(), std::size_t(17));
        QCOMPARE(pythonFloatRepr(t->rows[0].p50), std::string("0.022484"));
        QCOMPARE(pythonFloatRepr(t->rows[1].p50), std::string("0.024857"));
        QCOMPARE(t->rows[2].eventName, std::string("native_call_convolution.out"));
        QCOMPARE(pythonFloatRepr(t->rows[2].p50), std::string("0.544783"));
        QCOMPARE(t->rows[3].eventName, std::string("OPERATOR_CALL"));
        QCOMPARE(pythonFloatRepr(t->rows[3].p50), std::string("0.546816"));
        QCOMPARE(t->rows[3].instruction, 0);
    }

    void tutorialJoinsTheTutorialProgram()
    {
        // The tutorial's bundled program holds the same ConvNet the tutorial ETDump profiled.
        PTE_REQUIRE_CORPUS();
        const auto d = open(kTutorial);
        QVERIFY(d);
        auto pte = readPteFile(test::corpusPath(QString::fromLatin1(kTutorialProgram)).toStdString());
        QVERIFY_RESULT(pte);
        auto j = joinEtdump(d, makeEtdumpSources((*pte)->program));
        QVERIFY_RESULT(j);
        QVERIFY(!(*j)->hasMismatch());
        QCOMPARE((*j)->runs[1].method, 0);
        const auto& plan = (*pte)->program->executionPlan[0];
        std::size_t kernelsChecked = 0;
        for (std::uint32_t i = d->runs[1].firstEvent; i < d->runs[1].firstEvent + d->runs[1].eventCount; ++i) {
            const auto name = d->eventName(d->events[i]);
            if (name.substr(0, 12) != "native_call_")
                continue;
            const auto* in = (*j)->instruction((*j)->events[i]);
            QVERIFY(in);
            const auto& k = std::get<KernelCall>(in->args);
            QCOMPARE(kernelEventName(plan.operators[std::size_t(k.opIndex)]), std::string(name));
            ++kernelsChecked;
        }
        QCOMPARE(kernelsChecked, std::size_t(14));
        auto t = buildProfileTable(*d, j->get());
        QVERIFY_RESULT(t);
        const auto s = summarizeProfile(*d, *t, j->get());
        QCOMPARE(s.byOperator.front().key, std::string("aten::convolution.out"));
        QCOMPARE(s.byOperator.size(), std::size_t(5));
    }

    void mobilenetDoesNotMatchTheTutorialProgram()
    {
        PTE_REQUIRE_CORPUS();
        const auto d = open(kMobilenet);
        auto pte = readPteFile(test::corpusPath(QString::fromLatin1(kTutorialProgram)).toStdString());
        QVERIFY(d);
        QVERIFY_RESULT(pte);
        auto j = joinEtdump(d, makeEtdumpSources((*pte)->program));
        QVERIFY_RESULT(j);
        QVERIFY((*j)->hasMismatch());
        QVERIFY(!(*j)->runs[1].joined);
        QVERIFY2((*j)->runs[1].problem.find("delegate event") != std::string::npos, (*j)->runs[1].problem.c_str());
    }

    void bundledProgramsOpenWithTheirTestCases_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<int>("cases");
        QTest::addColumn<int>("inputs");
        QTest::addColumn<QString>("input");
        QTest::addColumn<QString>("output");
        QTest::addColumn<qulonglong>("programSize");
        QTest::newRow("bpte") << kBpte << 10 << 2 << "i32[2, 2]"
                              << "i32[2, 2]" << qulonglong(1696);
        QTest::newRow("tutorial") << kTutorialProgram << 2 << 1 << "f32[1, 1, 32, 32]"
                                  << "f32[1, 10]" << qulonglong(252600);
    }

    void bundledProgramsOpenWithTheirTestCases()
    {
        PTE_REQUIRE_CORPUS();
        QFETCH(QString, name);
        QFETCH(int, cases);
        QFETCH(int, inputs);
        QFETCH(QString, input);
        QFETCH(QString, output);
        QFETCH(qulonglong, programSize);
        auto pte = readPteFile(test::corpusPath(name).toStdString());
        QVERIFY_RESULT(pte);
        const auto& f = **pte;
        QVERIFY(f.bundled);
        QVERIFY(f.runtimeWouldAccept());
        QCOMPARE(f.bundled->version, 2u);
        QCOMPARE(f.bundled->programSize, std::uint64_t(programSize));
        QCOMPARE(f.file.size(), std::size_t(programSize));
        QCOMPARE(f.file.data(), f.bundled->file.data() + f.bundled->programOffset); // a view, not a copy
        for (const auto& diag : f.diagnostics)
            QVERIFY2(diag.severity == Severity::Info, diag.toString().c_str());
        QCOMPARE(f.bundled->testSuites.size(), std::size_t(1));
        const auto& suite = f.bundled->testSuites[0];
        QCOMPARE(suite.methodName, std::string("forward"));
        QCOMPARE(int(suite.testCases.size()), cases);
        auto describe = [](const BundledValue& v) {
            return QString::fromStdString(tensorTypeText(v.scalarType, v.sizes));
        };
        for (const auto& tc : suite.testCases) {
            QCOMPARE(int(tc.inputs.size()), inputs);
            QCOMPARE(describe(tc.inputs[0]), input);
            QCOMPARE(tc.expectedOutputs.size(), std::size_t(1));
            QCOMPARE(describe(tc.expectedOutputs[0]), output);
        }
    }

    void bundledTestCasesHoldWhatTheProgramComputes_data()
    {
        QTest::addColumn<QString>("name");
        QTest::newRow("bpte") << kBpte;
        QTest::newRow("tutorial") << kTutorialProgram;
    }

    void bundledTestCasesHoldWhatTheProgramComputes()
    {
        // Each case's inputs, run on the reference interpreter, give its expected outputs: the test cases are decoded
        // right (dtype, sizes, dim order, bytes).
        PTE_REQUIRE_CORPUS();
        QFETCH(QString, name);
        auto pte = readPteFile(test::corpusPath(name).toStdString());
        QVERIFY_RESULT(pte);
        const auto& f = **pte;
        auto rt = ReferenceInterpreter::load(*f.program, "forward");
        QVERIFY_RESULT(rt);
        for (const auto& tc : f.bundled->testSuites[0].testCases) {
            std::vector<HostTensor> in;
            for (const auto& v : tc.inputs) {
                auto values = bundledTensorValues(v);
                QVERIFY_RESULT(values);
                in.push_back(
                    HostTensor { v.scalarType, std::vector<std::int64_t>(v.sizes.begin(), v.sizes.end()), *values });
            }
            auto out = (*rt)->run(in);
            QVERIFY_RESULT(out);
            auto expected = bundledTensorValues(tc.expectedOutputs[0]);
            QVERIFY_RESULT(expected);
            auto gap = numericGap(*expected, out->at(0).values);
            QVERIFY_RESULT(gap);
            QVERIFY2(gap->mse < 1e-8, std::to_string(gap->mse).c_str());
        }
    }

    void bundledProgramsRewriteWithTheirTestCases()
    {
        PTE_REQUIRE_CORPUS();
        for (const auto* name : { kBpte, kTutorialProgram }) {
            auto pte = readPteFile(test::corpusPath(QString::fromLatin1(name)).toStdString());
            QVERIFY_RESULT(pte);
            auto serialized = serializePte(*(*pte)->program);
            QVERIFY_RESULT(serialized);
            auto wrapped = serializeBundledProgram(*(*pte)->bundled, concatenate(*serialized));
            QVERIFY_RESULT(wrapped);
            auto again = readPteBytes(Bytes::fromVector(std::move(wrapped).value()), "again.bpte");
            QVERIFY_RESULT(again);
            QVERIFY((*again)->bundled);
            const auto diff = bundledTestSuitesDifference(*(*pte)->bundled, *(*again)->bundled);
            QVERIFY2(!diff, diff ? diff->c_str() : "");
            const auto pdiff = programDifference(*(*pte)->program, *(*again)->program, false);
            QVERIFY2(!pdiff, pdiff ? pdiff->c_str() : "");
            QCOMPARE(reinterpret_cast<std::uintptr_t>((*again)->file.data()) % 32, std::uintptr_t(0));
        }
    }
};

QTEST_GUILESS_MAIN(TestCorpusEtdump)
#include "tst_corpus_etdump.moc"
