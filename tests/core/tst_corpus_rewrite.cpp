// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// Every valid .pte of the corpus, rewritten by ptelens' writer, decodes to the same program.
#include "pte/jsondump.h"
#include "pte/programequality.h"
#include "pte/ptereader.h"
#include "pte/ptewriter.h"
#include "testutils.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QStandardPaths>
#include <QTest>

using namespace pte;

namespace {

std::shared_ptr<const PteFile> read(const QString& path)
{
    ReadOptions o;
    o.findExternalDataNextToFile = false;
    auto r = readPteFile(path.toStdString(), o);
    return r ? *r : nullptr;
}

/** flatc's JSON decode of a .pte, or an empty array when flatc fails. */
QByteArray flatcJson(const QString& flatc, const QString& schema, const QString& pte, const QString& outDir)
{
    QDir().mkpath(outDir);
    QProcess proc;
    proc.start(flatc,
        { QStringLiteral("--json"), QStringLiteral("--strict-json"), QStringLiteral("--defaults-json"),
            QStringLiteral("--raw-binary"), QStringLiteral("-o"), outDir, schema, QStringLiteral("--"), pte });
    if (!proc.waitForFinished(60000) || proc.exitCode() != 0)
        return {};
    QFile f(outDir + QLatin1Char('/') + QFileInfo(pte).completeBaseName() + QStringLiteral(".json"));
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

} // namespace

class TestCorpusRewrite : public QObject
{
    Q_OBJECT

private:
    static void addFiles()
    {
        QTest::addColumn<QString>("path");
        const QDir dir(test::corpusPath(QStringLiteral("pte")));
        for (const QString& name : dir.entryList({ QStringLiteral("*.pte") }, QDir::Files, QDir::Name))
            QTest::newRow(qPrintable(name)) << dir.filePath(name);
    }

private Q_SLOTS:
    void rewriteKeepsTheDecode_data()
    {
        PTE_REQUIRE_CORPUS();
        addFiles();
    }
    void rewriteKeepsTheDecode()
    {
        QFETCH(QString, path);
        const auto original = read(path);
        if (!original) {
            // Only the deliberately corrupt corpus file is expected to be refused.
            QVERIFY2(path.contains(QStringLiteral("corrupt")), qPrintable(QStringLiteral("reader refused ") + path));
            QSKIP("not a valid .pte (the reader refuses it)");
        }
        const QString out = test::tempDir() + QStringLiteral("/rewritten-") + QFileInfo(path).fileName();
        QVERIFY_RESULT(writePte(*original->program, out.toStdString()));
        const auto again = read(out);
        QVERIFY(again);
        const Program& a = *original->program;
        const Program& b = *again->program;
        const auto diff = programDifference(a, b);
        QVERIFY2(!diff, diff ? diff->c_str() : "");
        QCOMPARE(programToJson(b), programToJson(a));
        QCOMPARE(again->header.has_value(), original->header.has_value());
        QCOMPARE(again->runtimeWouldAccept(), original->runtimeWouldAccept());
        // Constant, delegate and named-data bytes are identical.
        for (const auto& plan : a.executionPlan) {
            for (const auto& v : plan.values)
                if (const auto* t = v.tensor(); t && t->dataBufferIdx != 0)
                    QVERIFY(constantData(a, t->dataBufferIdx).contentEquals(constantData(b, t->dataBufferIdx)));
            const auto* planB = b.method(plan.name);
            QVERIFY(planB);
            for (std::size_t i = 0; i < plan.delegates.size(); ++i) {
                const Bytes blob = delegateData(a, plan.delegates[i]);
                QVERIFY(blob.contentEquals(delegateData(b, planB->delegates[i])));
            }
        }
        if (a.namedData)
            for (const auto& nd : *a.namedData)
                QVERIFY(a.segments.at(nd.segmentIndex).data.contentEquals(b.segments.at(nd.segmentIndex).data));
        // A second rewrite is byte-identical to the first (the writer is deterministic and stable).
        const QString out2 = out + QStringLiteral(".2.pte");
        QVERIFY_RESULT(writePte(b, out2.toStdString()));
        QFile f1(out);
        QFile f2(out2);
        QVERIFY(f1.open(QIODevice::ReadOnly) && f2.open(QIODevice::ReadOnly));
        QVERIFY(f1.readAll() == f2.readAll());
        QFile::remove(out2);

        // flatc, the reference decoder, prints the same JSON for the original and the rewrite.
        const QString flatc = QStandardPaths::findExecutable(QStringLiteral("flatc"));
        const QString schema =
            QFileInfo(test::testDataDir() + QStringLiteral("/../../schema/program.fbs")).absoluteFilePath();
        if (!flatc.isEmpty() && QFileInfo::exists(schema)) {
            const QByteArray ja = flatcJson(flatc, schema, path, test::tempDir() + QStringLiteral("/flatc-a"));
            const QByteArray jb = flatcJson(flatc, schema, out, test::tempDir() + QStringLiteral("/flatc-b"));
            QVERIFY(!ja.isEmpty());
            QVERIFY(ja == jb);
        }
        QFile::remove(out);
    }

    void rewriteWithOtherAlignments_data()
    {
        PTE_REQUIRE_CORPUS();
        addFiles();
    }
    void rewriteWithOtherAlignments()
    {
        QFETCH(QString, path);
        const auto original = read(path);
        if (!original) {
            // Only the deliberately corrupt corpus file is expected to be refused.
            QVERIFY2(path.contains(QStringLiteral("corrupt")), qPrintable(QStringLiteral("reader refused ") + path));
            QSKIP("not a valid .pte (the reader refuses it)");
        }
        WriteOptions o;
        o.segmentAlignment = 4096;
        o.delegateAlignment = 64;
        o.constantTensorAlignment = 32;
        auto s = serializePte(*original->program, o);
        QVERIFY_RESULT(s);
        const QString out = test::tempDir() + QStringLiteral("/aligned-") + QFileInfo(path).fileName();
        QVERIFY_RESULT(writeSerializedPte(*s, out.toStdString()));
        const auto again = read(out);
        QVERIFY(again);
        const auto diff = programDifference(*original->program, *again->program, false);
        QVERIFY2(!diff, diff ? diff->c_str() : "");
        QCOMPARE(s->segmentBaseOffset % 4096, 0ull);
        for (const auto& seg : again->program->segments)
            QCOMPARE(seg.offset % 4096, 0ull);
        QCOMPARE(std::uint64_t(QFileInfo(out).size()), s->totalSize);
        QFile::remove(out);
    }
};

QTEST_GUILESS_MAIN(TestCorpusRewrite)
#include "tst_corpus_rewrite.moc"
