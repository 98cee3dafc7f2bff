// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// Emission from every real dump in $PTELENS_CORPUS/dumps: the program must pass the reader's runtime checks
// and read back identical. The TensorRT dump holds CUDA tensors: ptelens refuses it (Unsupported, naming
// the device) instead of emitting a program the CPU runtime could not run.
#include "errorcheck.h"
#include "pte/dumpreader.h"
#include "pte/emitter.h"
#include "pte/programequality.h"
#include "pte/ptereader.h"
#include "pte/ptewriter.h"
#include "testutils.h"

#include <QDir>
#include <QTest>

using namespace pte;

class TestCorpusEmit : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void emitsDump_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<int>("plans");
        QTest::addColumn<int>("instructions");
        QTest::addColumn<QString>("firstOperator");
        QTest::addRow("pt2-archive-linear") << "et_pt2_archive_linear.pt2" << 1 << 4 << "aten::permute_copy.out";
        QTest::addRow("etrecord-2023") << "et_sample_etrecord_2023.bin" << 1 << 1 << "aten::mul.out";
        // hades: 10 linear layers (permute_copy + addmm), 7 leaky_relu, view, _log_softmax, squeeze, 2 counter adds =
        // 32; 2 training-mode batch norms decomposed as torch does (var, mean, add, rsqrt, sub, mul, weight mul, bias
        // add, 2 squeezes for save_mean/save_rstd, 3 for each running statistic, squeeze + unbiased scale of the
        // variance) = 2 x 18; 6 buffer write-backs: 74.
        QTest::addRow("hades-legacy-zip") << "hades-pid_exported_program.pt2" << 1 << 74 << "aten::permute_copy.out";
    }
    void emitsDump()
    {
        PTE_REQUIRE_CORPUS();
        QFETCH(QString, file);
        QFETCH(int, plans);
        QFETCH(int, instructions);
        QFETCH(QString, firstOperator);
        auto set = readDump(test::corpusPath(QStringLiteral("dumps/") + file).toStdString());
        QVERIFY_RESULT(set);
        const auto& ds = **set;
        QVERIFY(!ds.methods.empty());
        EmitOptions options;
        if (ds.etrecordMaps)
            options.etrecordDelegateMap = ds.etrecordMaps->delegateMap;
        auto out = emitProgram(ds.methods, options);
        QVERIFY_RESULT(out);
        QCOMPARE(int(out->program.executionPlan.size()), plans);
        const auto& plan = out->program.executionPlan[0];
        QCOMPARE(int(plan.chains.at(0).instructions.size()), instructions);
        QCOMPARE(QString::fromStdString(plan.operators.at(0).qualifiedName()), firstOperator);
        for (const auto& [method, info] : out->methods)
            for (const auto& [op, portable] : info.kernelCoverage)
                QVERIFY2(portable, (method + ": " + op + " is not a portable kernel").c_str());
        auto laid = layoutForSerialization(out->program, out->mutableData, out->namedData);
        QVERIFY_RESULT(laid);
        const std::string path = (test::tempDir() + QLatin1Char('/') + file + QStringLiteral(".pte")).toStdString();
        QVERIFY_RESULT(writePte(*laid, path));
        auto read = readPteFile(path);
        QVERIFY_RESULT(read);
        for (const auto& d : (*read)->diagnostics)
            QVERIFY2(d.severity != Severity::Error, d.toString().c_str());
        const auto diff = programDifference(*laid, *(*read)->program, false);
        QVERIFY2(!diff, diff ? diff->c_str() : "");
        // Deterministic: emitting again gives the same bytes.
        auto again = emitProgram(ds.methods, options);
        QVERIFY_RESULT(again);
        auto laid2 = layoutForSerialization(again->program, again->mutableData, again->namedData);
        QVERIFY_RESULT(laid2);
        auto a = serializePte(*laid);
        auto b = serializePte(*laid2);
        QVERIFY_RESULT(a);
        QVERIFY_RESULT(b);
        QVERIFY(concatenate(*a) == concatenate(*b));
    }

    void refusesCudaDump()
    {
        PTE_REQUIRE_CORPUS();
        auto set = readDump(test::corpusPath(QStringLiteral("dumps/tensorrt_trt_v7.3.ep")).toStdString());
        QVERIFY_RESULT(set);
        auto out = emitProgram((*set)->methods);
        QVERIFY_ERROR(out, ErrorCode::Unsupported, "cuda:0");
    }

    void coversEveryDump()
    {
        PTE_REQUIRE_CORPUS();
        // Every dump in the folder is covered by one of the rows above.
        const QStringList files =
            QDir(test::corpusPath(QStringLiteral("dumps")))
                .entryList({ QStringLiteral("*.pt2"), QStringLiteral("*.bin"), QStringLiteral("*.ep") }, QDir::Files,
                    QDir::Name);
        QCOMPARE(files,
            QStringList({ QStringLiteral("et_pt2_archive_linear.pt2"), QStringLiteral("et_sample_etrecord_2023.bin"),
                QStringLiteral("hades-pid_exported_program.pt2"), QStringLiteral("tensorrt_trt_v7.3.ep") }));
    }
};

QTEST_GUILESS_MAIN(TestCorpusEmit)
#include "tst_corpus_emit.moc"
