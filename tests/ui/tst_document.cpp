// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "../core/dumptestutils.h"
#include "document/document.h"
#include "pte/ptereader.h"
#include "testutils.h"
#include "uifixtures.h"

#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTest>

using namespace pte::ui;

namespace {
bool notImplemented(const QString& message) { return message.contains(QStringLiteral("not implemented")); }

/** Waits until one of the spies fired. */
bool waitEither(QSignalSpy& a, QSignalSpy& b, int timeoutMs = 60000)
{
    QElapsedTimer t;
    t.start();
    while (a.isEmpty() && b.isEmpty() && t.elapsed() < timeoutMs)
        QTest::qWait(20);
    return !a.isEmpty() || !b.isEmpty();
}
} // namespace

class TestDocument : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
    void init() { fixtures::failOnQtWarnings(); }

    void classifiesInputs()
    {
        const QString json = pte::test::tempDir() + QStringLiteral("/ep.json");
        QFile f(json);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("  {\"graph_module\": {}}");
        f.close();
        QCOMPARE(classifyInput(json), InputKind::Dump);
        QCOMPARE(classifyInput(QStringLiteral("/nonexistent/x.pte")), InputKind::Pte);
        QCOMPARE(classifyInput(QStringLiteral("/nonexistent/x.etrecord")), InputKind::Dump);
        QCOMPARE(classifyInput(QStringLiteral("/nonexistent/x.txt")), InputKind::Unknown);
        PTE_REQUIRE_CORPUS();
        QCOMPARE(
            classifyInput(pte::test::corpusPath(QStringLiteral("pte/pytorch_executorch__add.pte"))), InputKind::Pte);
        QCOMPARE(classifyInput(pte::test::corpusPath(QStringLiteral(
                     "pte/barakugav_executorch-rs__examples__data_map__model___default_external_constant.ptd"))),
            InputKind::Ptd);
        QCOMPARE(
            classifyInput(pte::test::corpusPath(QStringLiteral("dumps/et_sample_etrecord_2023.bin"))), InputKind::Dump);
        QCOMPARE(classifyInput(pte::test::corpusPath(QStringLiteral("dumps/tensorrt_trt_v7.3.ep"))), InputKind::Dump);
    }

    void opensPteInBackground()
    {
        PTE_REQUIRE_CORPUS();
        Document doc;
        QSignalSpy finished(&doc, &Document::loadFinished);
        QSignalSpy failed(&doc, &Document::loadFailed);
        QSignalSpy busy(&doc, &Document::busyChanged);
        doc.open({ pte::test::corpusPath(QStringLiteral("pte/pytorch_executorch__add.pte")) });
        QVERIFY(doc.isBusy());
        QVERIFY(waitEither(finished, failed));
        if (!failed.isEmpty() && notImplemented(failed.first().first().toString()))
            QFAIL("readPteFile failed");
        QCOMPARE(failed.count(), 0);
        QVERIFY(!doc.isBusy());
        QCOMPARE(busy.count(), 2);
        const auto snap = doc.snapshot();
        QVERIFY(snap && snap->program && snap->pteFile);
        QCOMPARE(snap->methods.size(), std::size_t(1));
        QCOMPARE(snap->methods.front().name, std::string("forward"));
        QVERIFY(doc.canSave());
        QVERIFY(!doc.canEmit());
        QVERIFY(doc.isInputFile(pte::test::corpusPath(QStringLiteral("pte/pytorch_executorch__add.pte"))));
    }

    void reportsUnreadableFiles()
    {
        PTE_REQUIRE_CORPUS();
        Document doc;
        QSignalSpy finished(&doc, &Document::loadFinished);
        QSignalSpy failed(&doc, &Document::loadFailed);
        doc.open({ pte::test::corpusPath(
            QStringLiteral("pte/corey-cole_djl-executorch-engine__src__test__resources__models__corrupt.pte")) });
        QVERIFY(waitEither(finished, failed));
        QCOMPARE(finished.count(), 0);
        const QString message = failed.first().first().toString();
        if (notImplemented(message))
            QFAIL("readPteFile failed");
        QVERIFY2(message.contains(QStringLiteral("corrupt.pte")), qPrintable(message));
        QVERIFY(!doc.snapshot());
    }

    void newerLoadSupersedesOlder()
    {
        PTE_REQUIRE_CORPUS();
        Document doc;
        QSignalSpy finished(&doc, &Document::loadFinished);
        QSignalSpy failed(&doc, &Document::loadFailed);
        doc.open({ pte::test::corpusPath(QStringLiteral(
            "pte/corey-cole_djl-executorch-engine__src__test__resources__models__stress__stress_mlp.pte")) });
        doc.open({ pte::test::corpusPath(QStringLiteral("pte/pytorch_executorch__add.pte")) });
        QVERIFY(waitEither(finished, failed));
        doc.waitForIdle();
        QTest::qWait(50);
        if (!failed.isEmpty() && notImplemented(failed.first().first().toString()))
            QFAIL("readPteFile failed");
        QCOMPARE(finished.count() + failed.count(), 1);
        QVERIFY(QString::fromStdString(doc.snapshot()->inputPaths.back()).endsWith(QStringLiteral("add.pte")));
    }

    void destructorCancelsAndWaits()
    {
        PTE_REQUIRE_CORPUS();
        auto* doc = new Document;
        doc->open({ pte::test::corpusPath(QStringLiteral(
            "pte/corey-cole_djl-executorch-engine__src__test__resources__models__stress__stress_mlp.pte")) });
        delete doc; // must not crash or leave a worker writing into it
        Document idle;
        idle.cancel(); // no job: nothing happens
        QVERIFY(!idle.isBusy());
    }

    void neverOverwritesInputs()
    {
        PTE_REQUIRE_CORPUS();
        Document doc;
        QSignalSpy finished(&doc, &Document::loadFinished);
        QSignalSpy failed(&doc, &Document::loadFailed);
        const QString input = pte::test::corpusPath(QStringLiteral("pte/pytorch_executorch__add.pte"));
        doc.open({ input });
        QVERIFY(waitEither(finished, failed));
        if (!failed.isEmpty())
            QFAIL("readPteFile failed");
        QSignalSpy saveFailed(&doc, &Document::saveFailed);
        doc.save(input);
        QCOMPARE(saveFailed.count(), 1);
        QVERIFY(saveFailed.first().first().toString().contains(QStringLiteral("input")));
        QString error;
        QVERIFY(!doc.exportDebugMaps(input, &error));
        QVERIFY(!error.isEmpty());
    }

    void resavesLoadedPte()
    {
        PTE_REQUIRE_CORPUS();
        Document doc;
        QSignalSpy finished(&doc, &Document::loadFinished);
        QSignalSpy failed(&doc, &Document::loadFailed);
        doc.open({ pte::test::corpusPath(QStringLiteral(
            "pte/corey-cole_djl-executorch-engine__src__test__resources__models__stress__stress_mlp.pte")) });
        QVERIFY(waitEither(finished, failed));
        if (!failed.isEmpty())
            QFAIL("readPteFile failed");
        const QString out = pte::test::tempDir() + QStringLiteral("/resaved.pte");
        QSignalSpy saved(&doc, &Document::saveFinished);
        QSignalSpy saveFailed(&doc, &Document::saveFailed);
        doc.save(out);
        QVERIFY(waitEither(saved, saveFailed));
        if (!saveFailed.isEmpty() && notImplemented(saveFailed.first().first().toString()))
            QFAIL("writePte failed");
        QVERIFY2(
            saveFailed.isEmpty(), qPrintable(saveFailed.isEmpty() ? QString() : saveFailed.first().first().toString()));
        QVERIFY(QFileInfo::exists(out));
        QByteArray stdOut, stdErr;
        const int rc = pte::test::runCli({ QStringLiteral("verify"), out }, &stdOut, &stdErr);
        QVERIFY2(rc == 0, stdErr.constData());
    }

    void emitsEditsAndSavesDumps()
    {
        PTE_REQUIRE_CORPUS();
        Document doc;
        QSignalSpy finished(&doc, &Document::loadFinished);
        QSignalSpy failed(&doc, &Document::loadFailed);
        doc.open({ pte::test::corpusPath(QStringLiteral("dumps/et_sample_etrecord_2023.bin")) });
        QVERIFY(waitEither(finished, failed));
        if (!failed.isEmpty()) {
            const QString message = failed.first().first().toString();
            if (notImplemented(message))
                QFAIL("readDump failed");
            QFAIL(qPrintable(message));
        }
        auto snap = doc.snapshot();
        QVERIFY(!snap->dumpMethods.empty());
        QVERIFY(doc.canEmit());
        QVERIFY(!doc.renameMethod(0, QString()));
        QVERIFY(doc.renameMethod(0, QStringLiteral("run")));
        QCOMPARE(doc.snapshot()->dumpMethods.front().name, std::string("run"));
        QVERIFY(doc.snapshot()->method("run"));

        QSignalSpy emitted(&doc, &Document::emitFinished);
        QSignalSpy emitFailed(&doc, &Document::emitFailed);
        EmitSettings settings;
        settings.methodNames.assign(doc.snapshot()->dumpMethods.size(), std::nullopt);
        settings.methodNames[0] = "forward";
        doc.emitProgram(settings);
        QVERIFY(waitEither(emitted, emitFailed, 120000));
        if (!emitFailed.isEmpty()) {
            const QString message = emitFailed.first().first().toString();
            if (notImplemented(message))
                QFAIL("emitProgram failed");
            QFAIL(qPrintable(message));
        }
        snap = doc.snapshot();
        QVERIFY(snap->emitted);
        const MethodEntry* forward = snap->method("forward");
        QVERIFY(forward && forward->plan && forward->exported && forward->emitInfo);
        QVERIFY(!forward->plan->chains.empty());
        QVERIFY(doc.hasDebugMaps());

        const QString maps = pte::test::tempDir() + QStringLiteral("/maps.json");
        QString error;
        QVERIFY2(doc.exportDebugMaps(maps, &error), qPrintable(error));
        QFile mf(maps);
        QVERIFY(mf.open(QIODevice::ReadOnly));
        QVERIFY(mf.readAll().contains("debug_handle_map"));

        const QString out = pte::test::tempDir() + QStringLiteral("/emitted.pte");
        QSignalSpy saved(&doc, &Document::saveFinished);
        QSignalSpy saveFailed(&doc, &Document::saveFailed);
        doc.save(out);
        QVERIFY(waitEither(saved, saveFailed));
        if (!saveFailed.isEmpty()) {
            const QString message = saveFailed.first().first().toString();
            if (notImplemented(message))
                QFAIL("writePte failed");
            QFAIL(qPrintable(message));
        }
        QByteArray stdOut, stdErr;
        const int rc = pte::test::runCli({ QStringLiteral("verify"), out }, &stdOut, &stdErr);
        QVERIFY2(rc == 0, stdErr.constData());
    }

    void savesWithTheEmitOptions_data()
    {
        QTest::addColumn<bool>("extractDelegates");
        QTest::addColumn<int>("segmentAlignment");
        QTest::addColumn<int>("constantAlignment");
        QTest::addColumn<int>("delegateAlignment");
        QTest::addRow("defaults") << true << 128 << 16 << 16;
        QTest::addRow("delegates inline") << false << 128 << 16 << 16;
        QTest::addRow("segments at 4096") << true << 4096 << 16 << 16;
        QTest::addRow("constants at 64") << true << 128 << 64 << 16;
        QTest::addRow("inline delegates at 256") << false << 128 << 16 << 256;
    }

    /** The Emit dialog's serialization options (EmitSettings::serialize) reach the saved file. */
    void savesWithTheEmitOptions()
    {
        QFETCH(bool, extractDelegates);
        QFETCH(int, segmentAlignment);
        QFETCH(int, constantAlignment);
        QFETCH(int, delegateAlignment);
        // Two counters whose weights differ (two constants: f32[4] each) and a delegate call.
        using namespace pte::test;
        QStringList inputs;
        for (const float first : { 1.f, 5.f }) {
            const std::int64_t steps = 0;
            const QString path = tempDir() + QStringLiteral("/counter-%1.pt2").arg(first);
            if (!QFileInfo::exists(path))
                QVERIFY(writeZip(path,
                    { { "serialized_exported_program.json", readDumpData("counter_single_key.json") },
                        { "serialized_state_dict.pt",
                            torchSaveZip(stateDictPickle({ { "weight", "FloatStorage", "0", 4, { 4 }, { 1 }, 0, true },
                                             { "steps", "LongStorage", "1", 1, {}, {}, 0, false } }),
                                { { "0", floatBytes({ first, 2.f, 3.f, 4.f }) },
                                    { "1", QByteArray(reinterpret_cast<const char*>(&steps), 8) } }) } }));
            inputs << path;
        }
        inputs << testDataDir() + QStringLiteral("/dumps/delegate_edge.json");
        Document doc;
        QSignalSpy loaded(&doc, &Document::loadFinished);
        QSignalSpy loadFailed(&doc, &Document::loadFailed);
        doc.open(inputs);
        QVERIFY(waitEither(loaded, loadFailed));
        QVERIFY2(loadFailed.isEmpty(), qPrintable(loadFailed.value(0).value(0).toString()));
        QCOMPARE(doc.snapshot()->dumpMethods.size(), std::size_t(3));

        EmitSettings settings;
        for (const auto& dm : doc.snapshot()->dumpMethods)
            settings.methodNames.push_back(dm.name);
        settings.serialize.extractDelegateSegments = extractDelegates;
        settings.serialize.write.segmentAlignment = std::uint64_t(segmentAlignment);
        settings.serialize.write.constantTensorAlignment = std::uint32_t(constantAlignment);
        settings.serialize.write.delegateAlignment = std::uint32_t(delegateAlignment);
        QSignalSpy emitted(&doc, &Document::emitFinished);
        QSignalSpy emitFailed(&doc, &Document::emitFailed);
        doc.emitProgram(settings);
        QVERIFY(waitEither(emitted, emitFailed));
        QVERIFY2(emitFailed.isEmpty(), qPrintable(emitFailed.value(0).value(0).toString()));

        const QString out = tempDir() + QStringLiteral("/options-%1.pte").arg(QLatin1String(QTest::currentDataTag()));
        QSignalSpy saved(&doc, &Document::saveFinished);
        QSignalSpy saveFailed(&doc, &Document::saveFailed);
        doc.save(out); // no options here: the emission's own travel with it
        QVERIFY(waitEither(saved, saveFailed));
        QVERIFY2(saveFailed.isEmpty(), qPrintable(saveFailed.value(0).value(0).toString()));

        auto file = pte::readPteFile(out.toStdString());
        QVERIFY_RESULT(file);
        const pte::PteFile& f = **file;
        QVERIFY(f.runtimeWouldAccept());
        const pte::Program& p = *f.program;
        // Delegate blobs: a segment of their own, or inline in the flatbuffer at the asked alignment.
        const pte::BackendDelegate* delegate = nullptr;
        for (const auto& plan : p.executionPlan)
            if (!plan.delegates.empty())
                delegate = &plan.delegates.front();
        QVERIFY(delegate);
        QCOMPARE(delegate->processed.location, extractDelegates ? pte::DataLocation::Segment : pte::DataLocation::Inline);
        if (!extractDelegates) {
            const pte::Bytes& blob = p.backendDelegateData.at(delegate->processed.index).storage;
            QVERIFY(!blob.empty());
            const auto offset = std::uintptr_t(blob.data()) - std::uintptr_t(f.file.data());
            QCOMPARE(offset % std::uintptr_t(delegateAlignment), std::uintptr_t(0));
        }
        // Segments start at multiples of the segment alignment, the header's segment base included.
        QVERIFY(f.header);
        QCOMPARE(f.header->segmentBaseOffset % std::uint64_t(segmentAlignment), std::uint64_t(0));
        QVERIFY(p.segments.size() >= 2);
        for (const auto& seg : p.segments)
            QCOMPARE(seg.offset % std::uint64_t(segmentAlignment), std::uint64_t(0));
        // The second 16-byte constant starts at the constant alignment.
        QVERIFY(p.constantSegment);
        QCOMPARE(p.constantSegment->offsets.size(), std::size_t(3));
        QCOMPARE(p.constantSegment->offsets[2], std::uint64_t(std::max(16, constantAlignment)));
    }
};

QTEST_MAIN(TestDocument)
#include "tst_document.moc"
