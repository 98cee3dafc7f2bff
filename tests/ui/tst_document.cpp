// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "document/document.h"
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
};

QTEST_MAIN(TestDocument)
#include "tst_document.moc"
