// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// The reader on real ExecuTorch files ($PTELENS_CORPUS/pte): every program decodes to JSON equal, value for
// value, to flatc's decode in pte-json/, verifies without errors, and foreign files fail clearly.
// The same behaviours on committed inputs, without the corpus: tst_cli_flatc (flatc's decode of programs the
// project writes), tst_ptereader (every field, headers, foreign files, external data) and tst_ptewriter (segments).
#include "errorcheck.h"
#include "flatcjson.h"
#include "pte/jsondump.h"
#include "pte/ptereader.h"
#include "testutils.h"

#include <QDir>
#include <QFile>
#include <QTest>

#include <nlohmann/json.hpp>

using namespace pte;
using Json = nlohmann::json;

namespace {

const char* kAdd = "pytorch_executorch__add.pte";
const char* kStress = "corey-cole_djl-executorch-engine__src__test__resources__models__stress__stress_mlp.pte";
const char* kDataMap = "barakugav_executorch-rs__examples__data_map__model__model.pte";
const char* kPtd = "barakugav_executorch-rs__examples__data_map__model___default_external_constant.ptd";

QStringList corpusPrograms()
{
    const QString dir = test::corpusDir();
    if (dir.isEmpty())
        return {};
    QStringList out;
    for (const QString& name :
        QDir(dir + QStringLiteral("/pte")).entryList({ QStringLiteral("*.pte") }, QDir::Files, QDir::Name)) {
        const QString json =
            dir + QStringLiteral("/pte-json/") + QFileInfo(name).completeBaseName() + QStringLiteral(".json");
        if (QFileInfo::exists(json))
            out << name;
    }
    return out;
}

std::shared_ptr<const PteFile> open(const char* name)
{
    auto r = readPteFile(test::corpusPath(QStringLiteral("pte/") + QLatin1String(name)).toStdString());
    if (!r)
        qFatal("cannot read %s: %s", name, r.error().toString().c_str());
    return r.value();
}

} // namespace

class TestCorpusPte : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void decodesLikeFlatc_data()
    {
        QTest::addColumn<QString>("name");
        const auto programs = corpusPrograms();
        if (programs.isEmpty())
            QTest::newRow("no-corpus") << QString();
        for (const auto& p : programs)
            QTest::newRow(qPrintable(p)) << p;
    }

    void decodesLikeFlatc()
    {
        PTE_REQUIRE_CORPUS();
        QFETCH(QString, name);
        QVERIFY(!name.isEmpty());
        QFile refFile(test::corpusPath(
            QStringLiteral("pte-json/") + QFileInfo(name).completeBaseName() + QStringLiteral(".json")));
        QVERIFY(refFile.open(QIODevice::ReadOnly));
        const Json ref = Json::parse(test::quoteBareNonFinite(refFile.readAll().toStdString()), nullptr, false);
        QVERIFY(!ref.is_discarded());
        auto r = readPteFile(test::corpusPath(QStringLiteral("pte/") + name).toStdString());
        QVERIFY_RESULT(r);
        const Json ours = Json::parse(programToJson(*r.value()->program), nullptr, false);
        QVERIFY(!ours.is_discarded());
        const std::string diff = test::compareWithFlatc(ref, ours, "$");
        QVERIFY2(diff.empty(), diff.c_str());
    }

    void verifiesWithoutErrors_data() { decodesLikeFlatc_data(); }

    void verifiesWithoutErrors()
    {
        PTE_REQUIRE_CORPUS();
        QFETCH(QString, name);
        auto r = readPteFile(test::corpusPath(QStringLiteral("pte/") + name).toStdString());
        QVERIFY_RESULT(r);
        std::string errors;
        for (const auto& d : r.value()->diagnostics)
            if (d.severity == Severity::Error)
                errors += d.toString() + "\n";
        QVERIFY2(errors.empty(), errors.c_str());
        QVERIFY(r.value()->runtimeWouldAccept());
        // checkProgram over the model alone agrees.
        QVERIFY(!hasErrors(checkProgram(*r.value()->program, r.value()->externalData)));
    }

    void rejectsForeignFiles_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<int>("code");
        QTest::addColumn<QString>("needle");
        QTest::newRow("corrupt") << "corey-cole_djl-executorch-engine__src__test__resources__models__corrupt.pte"
                                 << int(ErrorCode::NotAPteFile) << "'A_PT' instead of the file identifier 'ET12'";
        QTest::newRow("etdump") << "pytorch_executorch__docs__source__tutorials_source__etdump.etdp"
                                << int(ErrorCode::NotAPteFile) << "ETDump";
        QTest::newRow("ptd") << QString::fromLatin1(kPtd) << int(ErrorCode::NotAPteFile) << "FlatTensor";
    }

    void rejectsForeignFiles()
    {
        PTE_REQUIRE_CORPUS();
        QFETCH(QString, name);
        QFETCH(int, code);
        QFETCH(QString, needle);
        const std::string path = test::corpusPath(QStringLiteral("pte/") + name).toStdString();
        auto r = readPteFile(path);
        QVERIFY_ERROR(r, ErrorCode(code), path, needle.toStdString());
        QVERIFY(r.error().offset.has_value());
    }

    void addFacts()
    {
        PTE_REQUIRE_CORPUS();
        const auto f = open(kAdd);
        const Program& p = *f->program;
        QVERIFY(!f->header);
        QCOMPARE(f->flatbufferSize, std::uint64_t(1072));
        QCOMPARE(p.executionPlan.size(), std::size_t(1));
        const auto& m = p.executionPlan[0];
        QCOMPARE(m.name, std::string("forward"));
        QCOMPARE(m.values.size(), std::size_t(4));
        QCOMPARE(m.operators.size(), std::size_t(1));
        QCOMPARE(m.operators[0].qualifiedName(), std::string("aten::add.out"));
        QCOMPARE(m.nonConstBufferSizes, std::vector<std::int64_t>({ 0, 48 }));
        QCOMPARE(m.inputs, std::vector<std::int32_t>({ 0, 1 }));
        QCOMPARE(m.outputs, std::vector<std::int32_t>({ 2 }));
        QCOMPARE(
            std::get<KernelCall>(m.chains[0].instructions[0].args).args, std::vector<std::int32_t>({ 0, 1, 3, 2, 2 }));
        QCOMPARE(std::get<Int>(m.values[3].val).intVal, std::int64_t(1));
        QCOMPARE(m.values[0].tensor()->allocationInfo->memoryOffsetLow, 32u);
        QVERIFY(f->diagnostics.empty());
    }

    void stressMlpFacts()
    {
        PTE_REQUIRE_CORPUS();
        const auto f = open(kStress);
        const Program& p = *f->program;
        QVERIFY(f->header);
        QCOMPARE(f->header->length, 32u);
        QCOMPARE(f->header->programSize, std::uint64_t(6024));
        QCOMPARE(f->header->segmentBaseOffset, std::uint64_t(6144));
        QCOMPARE(f->header->segmentDataSize, std::uint64_t(2702976));
        QCOMPARE(p.segments.size(), std::size_t(23));
        const auto& m = p.executionPlan[0];
        std::vector<std::size_t> sizes;
        int delegateCalls = 0, kernelCalls = 0;
        for (const auto& in : m.chains[0].instructions) {
            if (const auto* dc = std::get_if<DelegateCall>(&in.args)) {
                ++delegateCalls;
                const auto& d = m.delegates[std::size_t(dc->delegateIndex)];
                QCOMPARE(d.id, std::string("XnnpackBackend"));
                QCOMPARE(d.processed.location, DataLocation::Segment);
                sizes.push_back(delegateData(p, d).size());
            }
            kernelCalls += in.kind() == InstructionKind::KernelCall;
        }
        QCOMPARE(delegateCalls, 2);
        QCOMPARE(kernelCalls, 12);
        QCOMPARE(sizes, std::vector<std::size_t>({ 640, 4976 }));
        // Zero copy: segment payloads point into the mapped file.
        QCOMPARE(p.segments[1].data.data(), f->file.data() + 6144 + 65664);
        QCOMPARE(p.segments[0].size, std::uint64_t(65544));
        QCOMPARE(constantData(p, 1).data(), f->file.data() + 6144 + p.constantSegment->offsets[1]);
        QCOMPARE(p.namedData->size(), std::size_t(20));
    }

    void resolvesExternalDataNextToFile()
    {
        PTE_REQUIRE_CORPUS();
        const auto f = open(kDataMap);
        QVERIFY(f->externalData);
        QVERIFY(f->externalData->path.find(kPtd) != std::string::npos);
        QCOMPARE(f->externalData->tensors.size(), std::size_t(2));
        for (const char* key : { "a", "b" }) {
            const auto& t = f->externalData->tensors.at(key);
            QCOMPARE(t.data.size(), std::size_t(16));
            QCOMPARE(t.scalarType, ScalarType::Float);
            QCOMPARE(t.sizes, std::vector<std::int32_t>({ 2, 2 }));
            QCOMPARE(t.dimOrder, std::vector<std::uint8_t>({ 0, 1 }));
        }
        QVERIFY(f->diagnostics.empty());
        // The EXTERNAL tensors of the program are exactly those keys.
        std::vector<std::string> fqns;
        for (const auto& v : f->program->executionPlan[0].values)
            if (const auto* t = v.tensor();
                t && t->extraTensorInfo && t->extraTensorInfo->location == TensorDataLocation::External)
                fqns.push_back(*t->extraTensorInfo->fullyQualifiedName);
        QCOMPARE(fqns, std::vector<std::string>({ "a", "b" }));

        // Alone in a folder, the .pte still opens; the missing data is a warning.
        const QString lone = test::tempDir() + QStringLiteral("/lone.pte");
        QFile::remove(lone);
        QVERIFY(QFile::copy(test::corpusPath(QStringLiteral("pte/") + QLatin1String(kDataMap)), lone));
        auto r = readPteFile(lone.toStdString());
        QVERIFY_RESULT(r);
        QVERIFY(!r.value()->externalData);
        QCOMPARE(r.value()->diagnostics.size(), std::size_t(1));
        QCOMPARE(r.value()->diagnostics[0].severity, Severity::Warning);

        // The .ptd reader directly.
        auto ptd = readPtdFile(test::corpusPath(QStringLiteral("pte/") + QLatin1String(kPtd)).toStdString());
        QVERIFY_RESULT(ptd);
        QCOMPARE(ptd->tensors.size(), std::size_t(2));
    }
};

QTEST_GUILESS_MAIN(TestCorpusPte)
#include "tst_corpus_pte.moc"
