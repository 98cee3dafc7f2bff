// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// Program comparison on real files: two real pairs (checked against flatc's decodes in pte-json/), every corpus
// program against its own rewrite, and a real dump against its emission.
#include "pte/programdiff.h"
#include "pte/ptereader.h"
#include "pte/ptewriter.h"
#include "testutils.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTest>

#include <nlohmann/json.hpp>
#include <set>

using namespace pte;
using Json = nlohmann::json;

namespace {

Json flatcJson(const QString& pteName)
{
    QFile f(test::corpusPath(
        QStringLiteral("pte-json/") + QFileInfo(pteName).completeBaseName() + QStringLiteral(".json")));
    if (!f.open(QIODevice::ReadOnly))
        return {};
    // flatc prints inf/nan bare; these files have none, so a plain parse is enough.
    return Json::parse(f.readAll().toStdString(), nullptr, false);
}

DiffSide open(const QString& path)
{
    auto side = openDiffSide(path.toStdString());
    if (!side)
        qFatal("%s", side.error().toString().c_str());
    return std::move(side).value();
}

/** Value indices whose fields differ in flatc's decodes, leaving out the fields semantic mode does not compare. */
std::set<std::int64_t> differingValues(const Json& a, const Json& b)
{
    std::set<std::int64_t> out;
    const auto& va = a["values"];
    const auto& vb = b["values"];
    for (std::size_t i = 0; i < va.size() && i < vb.size(); ++i) {
        Json x = va[i];
        Json y = vb[i];
        for (Json* v : { &x, &y })
            if ((*v)["val"].is_object()) {
                (*v)["val"].erase("requires_grad");
                (*v)["val"].erase("data_buffer_idx");
            }
        if (x != y)
            out.insert(std::int64_t(i));
    }
    return out;
}

} // namespace

class TestCorpusDiff : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void realPairs_data()
    {
        PTE_REQUIRE_CORPUS();
        QTest::addColumn<QString>("a");
        QTest::addColumn<QString>("b");
        QTest::newRow("conv2d exported twice")
            << "pytorch_executorch__operator_and_model_testing__conv2d__pte__conv2d_layer0_conv1.pte"
            << "pytorch_executorch__operator_and_model_testing__conv2d__pte1__conv2d_layer0_conv1.pte";
        QTest::newRow("dnf filter exported twice") << "berndporr_dnf_executorch__dnf.pte"
                                                   << "berndporr_dnf_executorch__test__dnf_executorch.pte";
    }
    void realPairs()
    {
        QFETCH(QString, a);
        QFETCH(QString, b);
        const Json ja = flatcJson(a);
        const Json jb = flatcJson(b);
        QVERIFY(!ja.is_discarded() && !jb.is_discarded());
        const auto sa = open(test::corpusPath(QStringLiteral("pte/") + a));
        const auto sb = open(test::corpusPath(QStringLiteral("pte/") + b));
        auto d = diffPrograms(sa, sb);
        QVERIFY_RESULT(d);
        qInfo("%s", diffReportText(*d).c_str());
        QVERIFY(!d->equal());
        QCOMPARE(d->methods.size(), ja["execution_plan"].size());
        for (std::size_t m = 0; m < d->methods.size(); ++m) {
            const MethodDiff& md = d->methods[m];
            const Json& pa = ja["execution_plan"][m];
            const Json& pb = jb["execution_plan"][m];
            QCOMPARE(md.nameA, pa["name"].get<std::string>());
            QCOMPARE(md.nameB, pb["name"].get<std::string>());
            // Both exports run the same instructions on the same value numbers (flatc shows equal argument lists):
            // every row is two-sided and every value matched to its own index.
            QCOMPARE(md.instructionsA, pa["chains"][0]["instructions"].size());
            QCOMPARE(md.inserted + md.removed, std::size_t(0));
            for (std::size_t v = 0; v < md.valueAtoB.size(); ++v)
                QCOMPARE(md.valueAtoB[v], std::int32_t(v));
            // The values reported changed are exactly those whose fields differ in flatc's decodes.
            std::set<std::int64_t> reported;
            for (const auto& x : d->differences)
                if (x.methodA == md.nameA
                    && (x.category == DiffCategory::Value || x.category == DiffCategory::MemoryPlan) && x.indexA >= 0)
                    reported.insert(x.indexA);
            QCOMPARE(reported, differingValues(pa, pb));
            const bool arenasDiffer = pa["non_const_buffer_sizes"] != pb["non_const_buffer_sizes"];
            const bool arenasReported = std::any_of(d->differences.begin(), d->differences.end(),
                [&](const Difference& x) { return x.methodA == md.nameA && x.subject == "non_const_buffer_sizes"; });
            QCOMPARE(arenasReported, arenasDiffer);
            QCOMPARE(md.status == DiffStatus::Same, reported.empty() && !arenasDiffer);
        }
    }

    void programAgainstItsRewrite_data()
    {
        PTE_REQUIRE_CORPUS();
        QTest::addColumn<QString>("path");
        const QDir dir(test::corpusPath(QStringLiteral("pte")));
        for (const QString& name : dir.entryList({ QStringLiteral("*.pte") }, QDir::Files, QDir::Name))
            if (!name.contains(QStringLiteral("corrupt")))
                QTest::newRow(qPrintable(name)) << dir.filePath(name);
    }
    void programAgainstItsRewrite()
    {
        QFETCH(QString, path);
        const auto original = open(path);
        const QString out = test::tempDir() + QStringLiteral("/rewrite-") + QFileInfo(path).fileName();
        QVERIFY_RESULT(writePte(*original.program, out.toStdString()));
        const auto rewritten = open(out);
        auto d = diffPrograms(original, rewritten);
        QVERIFY_RESULT(d);
        QVERIFY2(d->equal(), diffReportText(*d).c_str());
        for (const auto& m : d->methods)
            QCOMPARE(m.same, m.instructionsA);
        // With other alignments the layout moves: still equal in semantic mode, only layout in strict mode.
        WriteOptions wide;
        wide.segmentAlignment = 4096;
        wide.constantTensorAlignment = 64;
        wide.delegateAlignment = 64;
        const QString moved = out + QStringLiteral(".aligned.pte");
        QVERIFY_RESULT(writePte(*original.program, moved.toStdString(), wide));
        const auto aligned = open(moved);
        d = diffPrograms(original, aligned);
        QVERIFY_RESULT(d);
        QVERIFY2(d->equal(), diffReportText(*d).c_str());
        DiffOptions strict;
        strict.strict = true;
        d = diffPrograms(original, aligned, strict);
        QVERIFY_RESULT(d);
        for (const auto& x : d->differences) {
            QVERIFY2(x.strictOnly, x.toString().c_str());
            QCOMPARE(x.category, DiffCategory::Program);
        }
        QFile::remove(out);
        QFile::remove(moved);
    }

    void dumpAgainstItsEmission()
    {
        PTE_REQUIRE_CORPUS();
        // "My emission against the file": a dump is emitted on the way in, so a dump and the .pte emitted from it
        // compare equal; the emission's debug handles are on one side only and not compared.
        const QString dump = test::corpusPath(QStringLiteral("dumps/et_pt2_archive_linear.pt2"));
        const QString emitted = test::tempDir() + QStringLiteral("/linear.pte");
        QCOMPARE(test::runCli({ QStringLiteral("emit"), dump, QStringLiteral("-o"), emitted }), 0);
        const auto a = open(dump);
        const auto b = open(emitted);
        QVERIFY(a.debugMaps);
        QVERIFY(!b.debugMaps);
        auto d = diffPrograms(a, b);
        QVERIFY_RESULT(d);
        QVERIFY2(d->equal(), diffReportText(*d).c_str());
        QCOMPARE(d->methods.at(0).nameA, std::string("forward"));
    }
};

QTEST_GUILESS_MAIN(TestCorpusDiff)
#include "tst_corpus_diff.moc"
