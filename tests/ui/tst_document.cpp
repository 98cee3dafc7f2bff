// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "../core/dumptestutils.h"
#include "document/document.h"
#include "errorcheck.h"
#include "pte/ptereader.h"
#include "pte/ptewriter.h"
#include "pte/syntheticprogram.h"
#include "testutils.h"
#include "uifixtures.h"

#include <QCoreApplication>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTest>

using namespace pte::ui;

namespace {

/** A file of the test's temporary folder with these bytes. */
QString inputFile(const char* name, const QByteArray& bytes)
{
    const QString path = pte::test::tempDir() + QLatin1Char('/') + QLatin1String(name);
    pte::test::writeFile(path, bytes);
    return path;
}

/** A synthetic program (the project's writer) of `instructions` kernel calls, with a little constant data. */
QString syntheticPte(const char* name, std::uint64_t instructions)
{
    const QString path = pte::test::tempDir() + QLatin1Char('/') + QLatin1String(name);
    if (QFileInfo::exists(path))
        return path;
    pte::SyntheticOptions options;
    options.instructions = instructions;
    options.constantBytes = 4096;
    auto program = pte::makeSyntheticProgram(options);
    if (!program || !pte::writePte(*program, path.toStdString()))
        qFatal("cannot write %s", qPrintable(path));
    return path;
}

/** Data rows of programs to open: a synthetic one, and the corpus' add.pte and stress_mlp.pte when available. */
void programs()
{
    QTest::addColumn<QString>("path");
    QTest::addRow("synthetic") << syntheticPte("synthetic.pte", 40);
    if (!pte::test::corpusRowsAvailable())
        return;
    QTest::addRow("corpus add") << pte::test::corpusPath(QStringLiteral("pte/pytorch_executorch__add.pte"));
    QTest::addRow("corpus stress_mlp") << pte::test::corpusPath(
        QStringLiteral("pte/corey-cole_djl-executorch-engine__src__test__resources__models__stress__stress_mlp.pte"));
}

} // namespace

class TestDocument : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
    void init() { fixtures::failOnQtWarnings(); }

    void classifiesInputs_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addColumn<int>("kind");
        // By the first bytes, whatever the name says.
        QTest::addRow("program") << inputFile("program.bin", QByteArray("\x10\0\0\0ET12", 8) + QByteArray(8, 0))
                                 << int(InputKind::Pte);
        QTest::addRow("external data") << inputFile("data.bin", QByteArray("\x10\0\0\0FT01", 8) + QByteArray(8, 0))
                                       << int(InputKind::Ptd);
        QTest::addRow("zip") << inputFile("record.bin", pte::test::makeZip({ { "ETRECORD_V0", "" } }))
                             << int(InputKind::Dump);
        QTest::addRow("json") << inputFile("ep.txt", "  {\"graph_module\": {}}") << int(InputKind::Dump);
        // By the name when the file cannot be read.
        QTest::addRow("missing .pte") << "/nonexistent/x.pte" << int(InputKind::Pte);
        QTest::addRow("missing .etrecord") << "/nonexistent/x.etrecord" << int(InputKind::Dump);
        QTest::addRow("missing .txt") << "/nonexistent/x.txt" << int(InputKind::Unknown);
        if (!pte::test::corpusRowsAvailable())
            return;
        QTest::addRow("corpus .pte") << pte::test::corpusPath(QStringLiteral("pte/pytorch_executorch__add.pte"))
                                     << int(InputKind::Pte);
        QTest::addRow("corpus .ptd") << pte::test::corpusPath(
            QStringLiteral("pte/barakugav_executorch-rs__examples__data_map__model___default_external_constant.ptd"))
                                     << int(InputKind::Ptd);
        QTest::addRow("corpus ETRecord") << pte::test::corpusPath(QStringLiteral("dumps/et_sample_etrecord_2023.bin"))
                                         << int(InputKind::Dump);
        QTest::addRow("corpus .ep") << pte::test::corpusPath(QStringLiteral("dumps/tensorrt_trt_v7.3.ep"))
                                    << int(InputKind::Dump);
    }
    void classifiesInputs()
    {
        PTE_REQUIRE_CORPUS_ROW();
        QFETCH(QString, path);
        QFETCH(int, kind);
        QCOMPARE(int(classifyInput(path)), kind);
    }

    void opensPteInBackground_data() { programs(); }
    void opensPteInBackground()
    {
        PTE_REQUIRE_CORPUS_ROW();
        QFETCH(QString, path);
        Document doc;
        QSignalSpy finished(&doc, &Document::loadFinished);
        QSignalSpy failed(&doc, &Document::loadFailed);
        QSignalSpy busy(&doc, &Document::busyChanged);
        doc.open({ path });
        QVERIFY(doc.isBusy());
        QVERIFY(fixtures::waitEither(finished, failed));
        QVERIFY2(failed.isEmpty(), qPrintable(fixtures::failureText(failed)));
        QVERIFY(!doc.isBusy());
        QCOMPARE(busy.count(), 2);
        const auto snap = doc.snapshot();
        QVERIFY(snap && snap->program && snap->pteFile);
        QCOMPARE(snap->methods.size(), std::size_t(1));
        QCOMPARE(snap->methods.front().name, std::string("forward"));
        QVERIFY(doc.canSave());
        QVERIFY(!doc.canEmit());
        QVERIFY(doc.isInputFile(path));
    }

    void reportsUnreadableFiles_data()
    {
        QTest::addColumn<QString>("path");
        // Bytes 4..7 are not the program identifier.
        QTest::addRow("corrupt") << inputFile("corrupt.pte", QByteArray("\x1c\0\0\0A_PT", 8) + QByteArray(64, 'x'));
        if (pte::test::corpusRowsAvailable())
            QTest::addRow("corpus corrupt") << pte::test::corpusPath(
                QStringLiteral("pte/corey-cole_djl-executorch-engine__src__test__resources__models__corrupt.pte"));
    }
    void reportsUnreadableFiles()
    {
        PTE_REQUIRE_CORPUS_ROW();
        QFETCH(QString, path);
        Document doc;
        QSignalSpy finished(&doc, &Document::loadFinished);
        QSignalSpy failed(&doc, &Document::loadFailed);
        doc.open({ path });
        QVERIFY(fixtures::waitEither(finished, failed));
        QCOMPARE(finished.count(), 0);
        const pte::Error error = failed.first().first().value<pte::Error>();
        QVERIFY_ERROR(error, pte::ErrorCode::NotAPteFile, "corrupt.pte");
        QVERIFY(!doc.snapshot());
    }

    void newerLoadSupersedesOlder()
    {
        // A large program (slow to read), then a small one: only the second is shown.
        Document doc;
        QSignalSpy finished(&doc, &Document::loadFinished);
        QSignalSpy failed(&doc, &Document::loadFailed);
        doc.open({ syntheticPte("large.pte", 100000) });
        doc.open({ syntheticPte("small.pte", 10) });
        QVERIFY(fixtures::waitEither(finished, failed));
        doc.waitForIdle();
        // Both jobs have ended and queued their end for the GUI thread: deliver it (the older one must drop it).
        QCoreApplication::sendPostedEvents();
        QCOMPARE(finished.count() + failed.count(), 1);
        QVERIFY(QString::fromStdString(doc.snapshot()->inputPaths.back()).endsWith(QStringLiteral("small.pte")));
    }

    void destructorCancelsAndWaits()
    {
        auto* doc = new Document;
        doc->open({ syntheticPte("large.pte", 100000) });
        delete doc; // must not crash or leave a worker writing into it
        Document idle;
        idle.cancel(); // no job: nothing happens
        QVERIFY(!idle.isBusy());
    }

    void neverOverwritesInputs()
    {
        Document doc;
        const QString input = syntheticPte("input.pte", 10);
        const QString opened = fixtures::openAndWait(doc, { input });
        QVERIFY2(opened.isEmpty(), qPrintable(opened));
        QSignalSpy saveFailed(&doc, &Document::saveFailed);
        doc.save(input);
        QCOMPARE(saveFailed.count(), 1);
        QVERIFY(fixtures::failureText(saveFailed).contains(QStringLiteral("input")));
        QString error;
        QVERIFY(!doc.exportDebugMaps(input, &error));
        QVERIFY(!error.isEmpty());
    }

    void resavesLoadedPte_data() { programs(); }
    void resavesLoadedPte()
    {
        PTE_REQUIRE_CORPUS_ROW();
        QFETCH(QString, path);
        Document doc;
        const QString opened = fixtures::openAndWait(doc, { path });
        QVERIFY2(opened.isEmpty(), qPrintable(opened));
        const QString out = pte::test::tempDir() + QStringLiteral("/resaved-%1.pte").arg(QTest::currentDataTag());
        const QString saved = fixtures::saveAndWait(doc, out);
        QVERIFY2(saved.isEmpty(), qPrintable(saved));
        QVERIFY(QFileInfo::exists(out));
        QByteArray stdOut, stdErr;
        const int rc = pte::test::runCli({ QStringLiteral("verify"), out }, &stdOut, &stdErr);
        QVERIFY2(rc == 0, stdErr.constData());
    }

    void emitsEditsAndSavesDumps_data()
    {
        QTest::addColumn<QString>("path");
        // An ETRecord assembled from the committed dumps: two programs and the maps.
        const QString etrecord = pte::test::tempDir() + QStringLiteral("/record.etrecord");
        QVERIFY(pte::test::writeZip(etrecord,
            { { "ETRECORD_V0", "" },
                { "edge_dialect_exported_program/forward", pte::test::readDumpData("../emit/add_mul.json") },
                { "edge_dialect_exported_program/step", pte::test::readDumpData("../emit/view.json") },
                { "debug_handle_map", R"({"forward": {"0": 1, "1": 2}})" } }));
        QTest::addRow("etrecord") << etrecord;
        if (pte::test::corpusRowsAvailable())
            QTest::addRow("corpus etrecord")
                << pte::test::corpusPath(QStringLiteral("dumps/et_sample_etrecord_2023.bin"));
    }
    void emitsEditsAndSavesDumps()
    {
        PTE_REQUIRE_CORPUS_ROW();
        QFETCH(QString, path);
        Document doc;
        const QString opened = fixtures::openAndWait(doc, { path });
        QVERIFY2(opened.isEmpty(), qPrintable(opened));
        auto snap = doc.snapshot();
        QVERIFY(!snap->dumpMethods.empty());
        QVERIFY(doc.canEmit());
        QVERIFY(!doc.renameMethod(0, QString()));
        QVERIFY(doc.renameMethod(0, QStringLiteral("run")));
        QCOMPARE(doc.snapshot()->dumpMethods.front().name, std::string("run"));
        QVERIFY(doc.snapshot()->method("run"));

        EmitSettings settings;
        settings.methodNames.assign(doc.snapshot()->dumpMethods.size(), std::nullopt);
        settings.methodNames[0] = "forward";
        const QString emitted = fixtures::emitAndWait(doc, settings, 120000);
        QVERIFY2(emitted.isEmpty(), qPrintable(emitted));
        snap = doc.snapshot();
        QVERIFY(snap->emitted);
        const MethodEntry* forward = snap->method("forward");
        QVERIFY(forward && forward->plan && forward->exported && forward->emitInfo);
        QVERIFY(!forward->plan->chains.empty());
        QVERIFY(doc.hasDebugMaps());

        const QString maps = pte::test::tempDir() + QStringLiteral("/maps-%1.json").arg(QTest::currentDataTag());
        QString error;
        QVERIFY2(doc.exportDebugMaps(maps, &error), qPrintable(error));
        QFile mf(maps);
        QVERIFY(mf.open(QIODevice::ReadOnly));
        QVERIFY(mf.readAll().contains("debug_handle_map"));

        const QString out = pte::test::tempDir() + QStringLiteral("/emitted-%1.pte").arg(QTest::currentDataTag());
        const QString saved = fixtures::saveAndWait(doc, out);
        QVERIFY2(saved.isEmpty(), qPrintable(saved));
        QByteArray stdOut, stdErr;
        const int rc = pte::test::runCli({ QStringLiteral("verify"), out }, &stdOut, &stdErr);
        QVERIFY2(rc == 0, stdErr.constData());
    }

    void emitFailureCarriesTheErrorAndItsLocation()
    {
        // A bare JSON dump without its weights: emission fails on the weight's placeholder, and says so in fields.
        Document doc;
        const QString opened =
            fixtures::openAndWait(doc, { pte::test::testDataDir() + QStringLiteral("/dumps/counter_single_key.json") });
        QVERIFY2(opened.isEmpty(), qPrintable(opened));
        QSignalSpy emitted(&doc, &Document::emitFinished);
        QSignalSpy emitFailed(&doc, &Document::emitFailed);
        EmitSettings settings;
        settings.methodNames = { std::string("forward") };
        doc.emitProgram(settings);
        QVERIFY(fixtures::waitEither(emitted, emitFailed));
        QCOMPARE(emitFailed.count(), 1);
        const pte::Error error = emitFailed.first().first().value<pte::Error>();
        QCOMPARE(error.code, pte::ErrorCode::InvalidInput);
        QCOMPARE(error.location.method, std::string("forward"));
        QCOMPARE(error.location.node, std::string("p_weight"));
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
        const QString opened = fixtures::openAndWait(doc, inputs);
        QVERIFY2(opened.isEmpty(), qPrintable(opened));
        QCOMPARE(doc.snapshot()->dumpMethods.size(), std::size_t(3));

        EmitSettings settings;
        for (const auto& dm : doc.snapshot()->dumpMethods)
            settings.methodNames.push_back(dm.name);
        settings.serialize.extractDelegateSegments = extractDelegates;
        settings.serialize.write.segmentAlignment = std::uint64_t(segmentAlignment);
        settings.serialize.write.constantTensorAlignment = std::uint32_t(constantAlignment);
        settings.serialize.write.delegateAlignment = std::uint32_t(delegateAlignment);
        const QString emitted = fixtures::emitAndWait(doc, settings);
        QVERIFY2(emitted.isEmpty(), qPrintable(emitted));

        const QString out = tempDir() + QStringLiteral("/options-%1.pte").arg(QLatin1String(QTest::currentDataTag()));
        const QString saved = fixtures::saveAndWait(doc, out); // no options here: the emission's own travel with it
        QVERIFY2(saved.isEmpty(), qPrintable(saved));

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
        QCOMPARE(
            delegate->processed.location, extractDelegates ? pte::DataLocation::Segment : pte::DataLocation::Inline);
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
