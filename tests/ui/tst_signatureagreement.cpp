// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// The Signature view and the emitted program agree on what each method returns, for every dump under tests/data
// and, when $PTELENS_CORPUS is set, every dump of the corpus: the outputs the view marks as dropped are the ones
// emission dropped (same names, same reasons), and the ones it keeps are the emitted plan's outputs, in order.
#include "errorcheck.h"
#include "models/roles.h"
#include "models/signaturemodel.h"
#include "pte/dumpreader.h"
#include "pte/emitter.h"
#include "testutils.h"
#include "uifixtures.h"

#include <QDir>
#include <QTest>

using namespace pte::ui;
using namespace pte::ui::fixtures;

namespace {

/** A dump ptelens refuses to emit (nothing to compare there): a part of the file name, the refusal's code and a part
 *  of its message. */
struct Refusal
{
    const char* file;
    pte::ErrorCode code;
    const char* why;
};

const Refusal kRefused[] = {
    { "tensorrt_trt_v7.3.ep", pte::ErrorCode::Unsupported, "cuda" }, // CUDA tensors
};

const Refusal* expectedRefusal(const QString& path)
{
    for (const auto& r : kRefused)
        if (path.endsWith(QLatin1String(r.file)))
            return &r;
    return nullptr;
}

} // namespace

class TestSignatureAgreement : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init() { failOnQtWarnings(); }

    void outputsAgreeWithEmission_data()
    {
        QTest::addColumn<QString>("path");
        const QString data = pte::test::testDataDir();
        for (const char* folder : { "/dumps", "/emit" }) {
            const QDir dir(data + QLatin1String(folder));
            for (const QString& f : dir.entryList({ QStringLiteral("*.json") }, QDir::Files, QDir::Name))
                QTest::addRow("%s", qPrintable(QLatin1String(folder + 1) + QLatin1Char('/') + f)) << dir.filePath(f);
        }
        if (!pte::test::corpusRowsAvailable())
            return;
        const QDir dumps(pte::test::corpusPath(QStringLiteral("dumps")));
        for (const QString& f : dumps.entryList(QDir::Files, QDir::Name))
            if (!f.endsWith(QStringLiteral(".md")))
                QTest::addRow("corpus/%s", qPrintable(f)) << dumps.filePath(f);
    }

    void outputsAgreeWithEmission()
    {
        PTE_REQUIRE_CORPUS_ROW();
        QFETCH(QString, path);
        auto set = pte::readDump(path.toStdString());
        QVERIFY_RESULT(set);
        pte::EmitOptions options;
        options.zeroFillMissingWeights = true; // bare JSON dumps carry no weights
        if ((*set)->etrecordMaps)
            options.etrecordDelegateMap = (*set)->etrecordMaps->delegateMap;
        auto emitted = pte::emitProgram((*set)->methods, options);
        if (const Refusal* refusal = expectedRefusal(path)) {
            QVERIFY_ERROR(emitted, refusal->code, refusal->why);
            return;
        }
        QVERIFY_RESULT(emitted);

        auto snap = std::make_shared<Snapshot>();
        for (const auto& [name, ep] : (*set)->methods)
            snap->dumpMethods.push_back(DumpMethod { name, name, path.toStdString(), ep, {} });
        auto out = std::make_shared<const pte::EmitterOutput>(std::move(emitted).value());
        snap->emitted = out;
        snap->program = std::shared_ptr<const pte::Program>(out, &out->program);
        snap->finalize();

        SignatureModel outputs(SignatureModel::Side::Outputs);
        attachModelTester(&outputs);
        for (const auto& [name, ep] : (*set)->methods) {
            const MethodEntry* m = snap->method(name);
            QVERIFY(m && m->plan && m->emitInfo);
            outputs.setMethod(snap, QString::fromStdString(name));
            QVERIFY(outputs.rowCount() >= int(ep->signature.outputSpecs.size()));
            std::vector<std::int32_t> kept;
            std::vector<std::pair<std::string, std::string>> dropped;
            for (int r = 0; r < outputs.rowCount(); ++r) {
                if (outputs.index(r, 0).data(DroppedRole).toBool()) {
                    QVERIFY(outputs.index(r, SignatureModel::ValueColumn).data(RawValueRole).toInt() < 0);
                    dropped.emplace_back(cell(outputs, r, SignatureModel::NameColumn).toStdString(),
                        cell(outputs, r, SignatureModel::ReasonColumn).toStdString());
                } else {
                    kept.push_back(outputs.index(r, SignatureModel::ValueColumn).data(RawValueRole).toInt());
                }
            }
            QCOMPARE(kept, m->plan->outputs);
            QCOMPARE(dropped, m->emitInfo->droppedOutputs);
        }
    }
};

QTEST_MAIN(TestSignatureAgreement)
#include "tst_signatureagreement.moc"
