// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// `ptelens-cli dump --json` agrees, value for value, with flatc's decode (`flatc --json --strict-json
// --defaults-json` with schema/program.fbs) of programs the project's own writer made: a synthetic program with
// constants and two methods, and programs emitted from the committed dumps (control flow, delegates with named
// data, mutable buffers with their initial state). Each also passes every runtime check. The corpus decodes
// (tst_corpus_pte) are the same comparison on real ExecuTorch files.
#include "flatcjson.h"
#include "pte/dumpreader.h"
#include "pte/emittedoutput.h"
#include "pte/emitter.h"
#include "pte/ptereader.h"
#include "pte/ptewriter.h"
#include "pte/syntheticprogram.h"
#include "testutils.h"

#include <QDir>
#include <QFileInfo>
#include <QProcess>
#include <QTest>

using namespace pte;
using namespace pte::test;
using Json = nlohmann::json;

namespace {

/** Writes the program emitted from a committed dump (tests/data/<relative>); empty on failure (with a warning). */
QString emitted(const QString& relative, bool initialiseMutableBuffers)
{
    auto set = readDump((testDataDir() + QLatin1Char('/') + relative).toStdString());
    if (!set) {
        qWarning("%s", set.error().toString().c_str());
        return {};
    }
    EmitOptions options;
    options.zeroFillMissingWeights = true;
    options.initialiseMutableBuffers = initialiseMutableBuffers;
    auto out = emitProgram((*set)->methods, options);
    if (!out) {
        qWarning("%s", out.error().toString().c_str());
        return {};
    }
    auto laid = layoutEmitted(std::move(out->program), *out);
    const QString path = tempDir() + QLatin1Char('/') + QFileInfo(relative).completeBaseName() + QStringLiteral(".pte");
    if (!laid || !writePte(*laid, path.toStdString())) {
        qWarning("cannot lay out or write %s", qPrintable(path));
        return {};
    }
    return path;
}

QString synthetic()
{
    SyntheticOptions options;
    options.instructions = 60;
    options.methods = 2;
    options.constantBytes = 5000;
    auto program = makeSyntheticProgram(options);
    const QString path = tempDir() + QStringLiteral("/synthetic.pte");
    return program && writePte(*program, path.toStdString()) ? path : QString();
}

} // namespace

class TestCliFlatc : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void dumpJsonMatchesFlatc_data()
    {
        QTest::addColumn<QString>("source"); // "synthetic" or a dump under tests/data
        QTest::addColumn<bool>("initialiseMutableBuffers");
        QTest::addRow("synthetic, 2 methods, constants") << "synthetic" << false;
        QTest::addRow("add_mul") << "emit/add_mul.json" << false;
        QTest::addRow("map loop") << "emit/map.json" << false;
        QTest::addRow("scan loop") << "emit/scan.json" << false;
        QTest::addRow("view") << "emit/view.json" << false;
        QTest::addRow("cond") << "dumps/cond.json" << false;
        QTest::addRow("delegate with named data") << "dumps/delegate_named_data.json" << false;
        QTest::addRow("mutable buffer with its state") << "emit/counter.json" << true;
        QTest::addRow("joint graph") << "dumps/training.json" << false;
    }
    void dumpJsonMatchesFlatc()
    {
        QFETCH(QString, source);
        QFETCH(bool, initialiseMutableBuffers);
        const QString pte =
            source == QLatin1String("synthetic") ? synthetic() : emitted(source, initialiseMutableBuffers);
        QVERIFY(!pte.isEmpty());

        auto file = readPteFile(pte.toStdString());
        QVERIFY_RESULT(file);
        std::string errors;
        for (const auto& d : (*file)->diagnostics)
            if (d.severity == Severity::Error)
                errors += d.toString() + "\n";
        QVERIFY2(errors.empty(), errors.c_str());

        QByteArray ours;
        QByteArray err;
        QCOMPARE(runCli({ QStringLiteral("dump"), QStringLiteral("--json"), pte }, &ours, &err), 0);
        const QString schema = testDataDir() + QStringLiteral("/../../schema/program.fbs");
        const QString outDir = tempDir() + QStringLiteral("/flatc-") + QFileInfo(pte).completeBaseName();
        QProcess flatc;
        flatc.start(QStringLiteral("flatc"),
            { QStringLiteral("--json"), QStringLiteral("--strict-json"), QStringLiteral("--defaults-json"),
                QStringLiteral("-o"), outDir, schema, QStringLiteral("--"), pte });
        QVERIFY2(flatc.waitForFinished(60000), "flatc did not finish");
        QVERIFY2(flatc.exitCode() == 0, flatc.readAllStandardError().constData());
        QFile refFile(outDir + QLatin1Char('/') + QFileInfo(pte).completeBaseName() + QStringLiteral(".json"));
        QVERIFY(refFile.open(QIODevice::ReadOnly));
        const Json ref = Json::parse(quoteBareNonFinite(refFile.readAll().toStdString()), nullptr, false);
        QVERIFY(!ref.is_discarded());
        const Json mine = Json::parse(ours.constData(), ours.constData() + ours.size(), nullptr, false);
        QVERIFY(!mine.is_discarded());
        const std::string diff = compareWithFlatc(ref, mine, "$");
        QVERIFY2(diff.empty(), diff.c_str());
    }
};

QTEST_GUILESS_MAIN(TestCliFlatc)
#include "tst_cli_flatc.moc"
