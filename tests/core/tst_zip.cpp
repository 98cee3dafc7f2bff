// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "dump/zip/ziparchive.h"
#include "dumptestutils.h"
#include "errorcheck.h"
#include "pte/dumpreader.h"
#include "pte/mappedfile.h"
#include "testutils.h"

#include <QFileInfo>
#include <QTest>

using namespace pte;
using namespace pte::dump;
using namespace pte::test;

namespace {
Bytes toBytes(const QByteArray& a) { return Bytes::copyOf(std::string_view(a.constData(), std::size_t(a.size()))); }
} // namespace

class TestZip : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void readsStoredAndDeflatedEntries_data()
    {
        QTest::addColumn<bool>("zip64");
        QTest::addRow("plain") << false;
        QTest::addRow("zip64-extra-fields") << true;
    }

    void readsStoredAndDeflatedEntries()
    {
        QFETCH(bool, zip64);
        const QByteArray big(100000, 'z');
        const QByteArray zip =
            makeZip({ { "model/archive_format", "pt2" }, { "model/data/weights/weight_0", "ABCDEFGH" },
                        { "model/models/model.json", big, true } },
                zip64);
        QVERIFY(!zip.isEmpty());
        const Bytes data = toBytes(zip);
        auto archive = ZipArchive::open(data, "a.pt2");
        QVERIFY_RESULT(archive);
        QCOMPARE(archive->entries().size(), std::size_t(3));
        QCOMPARE(archive->rootFolder(), std::string("model"));
        const ZipEntry* w = archive->findInRoot("data/weights/weight_0");
        QVERIFY(w);
        QCOMPARE(w->method, 0u);
        auto stored = archive->read(*w);
        QVERIFY_RESULT(stored);
        QCOMPARE(std::string(stored->asStringView()), std::string("ABCDEFGH"));
        // Stored entries are views into the archive bytes, not copies.
        QCOMPARE(stored->data(), data.data() + w->dataOffset);
        QCOMPARE(stored->owner(), data.owner());
        const ZipEntry* m = archive->findInRoot("models/model.json");
        QVERIFY(m);
        QCOMPARE(m->method, 8u);
        QVERIFY(m->compressedSize < 1000);
        auto inflated = archive->read(*m);
        QVERIFY_RESULT(inflated);
        QCOMPARE(inflated->size(), std::size_t(100000));
        QVERIFY(inflated->asStringView() == big.toStdString());
        QCOMPARE(archive->rootPath("x"), std::string("model/x"));
    }

    void detectsNoRootFolder()
    {
        const QByteArray zip = makeZip({ { "ETRECORD_V0", "" }, { "edge_dialect_exported_program/forward", "{}" } });
        auto archive = ZipArchive::open(toBytes(zip), "e.bin");
        QVERIFY_RESULT(archive);
        QCOMPARE(archive->rootFolder(), std::string());
        QVERIFY(archive->findInRoot("ETRECORD_V0"));
        QCOMPARE(archive->findInRoot("ETRECORD_V0")->uncompressedSize, std::uint64_t(0));
    }

    void refusesBadArchives_data()
    {
        QTest::addColumn<QByteArray>("zip");
        QTest::addColumn<quint64>("cap");
        QTest::addColumn<int>("code");
        QTest::addColumn<QString>("needle");
        const QByteArray good = makeZip({ { "a/x.json", "{\"k\": 1}" }, { "a/y", "0123456789" } });
        QTest::addRow("dotdot") << makeZip({ { "../evil", "x" } }) << quint64(1 << 20) << int(ErrorCode::InvalidInput)
                                << "'../evil'";
        QTest::addRow("dotdot-inside") << makeZip({ { "a/../../evil", "x" } }) << quint64(1 << 20)
                                       << int(ErrorCode::InvalidInput) << "'a/../../evil'";
        QTest::addRow("absolute") << makeZip({ { "/etc/passwd", "x" } }) << quint64(1 << 20)
                                  << int(ErrorCode::InvalidInput) << "'/etc/passwd'";
        QTest::addRow("over-cap") << good << quint64(9) << int(ErrorCode::InvalidInput) << "'a/y' declares 10 bytes";
        QTest::addRow("truncated") << good.left(good.size() - 30) << quint64(1 << 20) << int(ErrorCode::InvalidInput)
                                   << "not a readable zip";
        QTest::addRow("not-zip") << QByteArray("hello world, not a zip at all") << quint64(1 << 20)
                                 << int(ErrorCode::InvalidInput) << "not a readable zip";
        // A deflated entry whose (local and central) sizes claim 2 GB from a few compressed bytes.
        QByteArray bomb = makeZip({ { "a/z", QByteArray(64, 'z'), true } });
        const auto patch = [&bomb](qsizetype at) {
            bomb[at] = char(0xff);
            bomb[at + 1] = char(0xff);
            bomb[at + 2] = char(0xff);
            bomb[at + 3] = char(0x7f);
        };
        patch(22); // local header: uncompressed size
        patch(bomb.indexOf(QByteArray("PK\x01\x02", 4)) + 24); // central directory: uncompressed size
        QTest::addRow("deflate-bomb") << bomb << quint64(std::uint64_t(64) << 30) << int(ErrorCode::InvalidInput)
                                      << "which is impossible";
        QByteArray cut = good;
        cut.remove(10, 20); // damage the first local header: offsets in the central directory no longer match
        QTest::addRow("shifted") << cut << quint64(1 << 20) << int(ErrorCode::InvalidInput) << "e.zip";
    }

    void refusesBadArchives()
    {
        QFETCH(QByteArray, zip);
        QFETCH(quint64, cap);
        QFETCH(int, code);
        QFETCH(QString, needle);
        const auto r = ZipArchive::open(toBytes(zip), "e.zip", cap);
        QVERIFY_ERROR(r, ErrorCode(code), needle.toStdString(), "e.zip");
    }

    void detectsCorruptPayloads()
    {
        QByteArray zip = makeZip({ { "a/y", "0123456789" }, { "a/z", QByteArray(5000, 'q'), true } });
        auto archive = ZipArchive::open(toBytes(zip), "c.zip");
        QVERIFY_RESULT(archive);
        const std::uint64_t yOff = archive->find("a/y")->dataOffset;
        const std::uint64_t zOff = archive->find("a/z")->dataOffset;
        zip[qsizetype(yOff + 3)] = 'X';
        zip[qsizetype(zOff + 1)] = char(zip[qsizetype(zOff + 1)] ^ 0x55);
        auto damaged = ZipArchive::open(toBytes(zip), "c.zip");
        QVERIFY_RESULT(damaged);
        const auto y = damaged->read(*damaged->find("a/y"));
        QVERIFY_ERROR(y, ErrorCode::InvalidInput, "c.zip:a/y: CRC-32 mismatch");
        const auto z = damaged->read(*damaged->find("a/z"));
        QVERIFY_ERROR(z, ErrorCode::InvalidInput, "c.zip:a/z");
    }

    void readDumpNamesArchiveProblems_data()
    {
        QTest::addColumn<QByteArray>("zip");
        QTest::addColumn<int>("code");
        QTest::addColumn<QString>("needle");
        QTest::addRow("unknown-layout") << makeZip({ { "foo.txt", "x" } }) << int(ErrorCode::InvalidInput)
                                        << "not a graph dump";
        QTest::addRow("torch-save-checkpoint")
            << makeZip({ { "archive/data.pkl", "x" }, { "archive/byteorder", "little" } })
            << int(ErrorCode::Unsupported) << "torch.save checkpoint";
        QTest::addRow("aoti-package") << makeZip(
            { { "m/archive_format", "pt2" }, { "m/data/aotinductor/model/x.so", "" } })
                                      << int(ErrorCode::Unsupported) << "AOTInductor";
        QTest::addRow("dotdot-entry") << makeZip({ { "serialized_exported_program.json", "{}" }, { "x/../../y", "" } })
                                      << int(ErrorCode::InvalidInput) << "'x/../../y'";
    }

    void readDumpNamesArchiveProblems()
    {
        QFETCH(QByteArray, zip);
        QFETCH(int, code);
        QFETCH(QString, needle);
        const QString path = tempDir() + QStringLiteral("/bad.pt2");
        QVERIFY(writeFile(path, zip));
        const auto r = readDump(path.toStdString());
        QVERIFY_ERROR(r, ErrorCode(code), needle.toStdString(), "bad.pt2");
    }

    void capAppliesThroughReadDump()
    {
        const QString path = tempDir() + QStringLiteral("/cap.pt2");
        QVERIFY(writeFile(
            path, makeZip({ { "serialized_exported_program.json", readDumpData("counter_single_key.json") } })));
        DumpReadOptions opts;
        opts.maxEntrySize = 100;
        const auto r = readDump(path.toStdString(), opts);
        QVERIFY_ERROR(r, ErrorCode::InvalidInput, "'serialized_exported_program.json' declares");
        QVERIFY_RESULT(readDump(path.toStdString()));
    }

    void readsZip64Archives_data()
    {
        QTest::addColumn<quint64>("hole"); // zero bytes after the first entry's data
        QTest::addRow("small, ZIP64 extras forced") << quint64(0);
        // Past 4 GiB: the later local header offsets and the directory live only in ZIP64 fields.
        QTest::addRow("4.4 GB, sparse") << quint64(4400000000ull);
    }

    /** Archives as Python's zipfile writes them past the 32-bit limits (sizes and offsets in ZIP64 extra fields). */
    void readsZip64Archives()
    {
        QFETCH(quint64, hole);
        const QString path = tempDir() + QStringLiteral("/zip64-%1.zip").arg(hole);
        const QByteArray json(3000, 'j');
        QVERIFY(writeSparseZip(path,
            { { "a/big", "ABCD", hole }, { "a/after.json", json },
                { "a/deflated", QByteArray(70000, 'd'), 0, true, true } }));
        auto data = mapFile(path.toStdString());
        QVERIFY_RESULT(data);
        auto archive = ZipArchive::open(*data, "z.zip");
        QVERIFY_RESULT(archive);
        const ZipEntry* big = archive->find("a/big");
        const ZipEntry* after = archive->find("a/after.json");
        const ZipEntry* deflated = archive->find("a/deflated");
        QVERIFY(big && after && deflated);
        QCOMPARE(big->uncompressedSize, 4 + hole);
        QVERIFY(after->dataOffset > hole);
        auto bigBytes = archive->read(*big, false);
        QVERIFY_RESULT(bigBytes);
        QCOMPARE(std::uint64_t(bigBytes->size()), 4 + hole);
        QCOMPARE(std::string(bigBytes->asStringView().substr(0, 4)), std::string("ABCD"));
        auto afterBytes = archive->read(*after);
        QVERIFY_RESULT(afterBytes);
        QVERIFY(afterBytes->asStringView() == json.toStdString());
        // Both sizes of the deflated entry come from its ZIP64 extra field, not the saturated 0xffffffff.
        QCOMPARE(deflated->uncompressedSize, std::uint64_t(70000));
        QVERIFY(deflated->compressedSize < 1000);
        auto inflated = archive->read(*deflated);
        QVERIFY_RESULT(inflated);
        QCOMPARE(inflated->size(), std::size_t(70000));
    }

    /** A 4.4 GB PT2 archive: a 4.1 GiB stored weight, then the exported program past 4 GiB, like torch writes it. */
    void readsDumpsPast4GiB()
    {
        const QString path = tempDir() + QStringLiteral("/big.pt2");
        const QByteArray config = pt2WeightsConfig(false);
        const std::int64_t steps = 3;
        const std::uint64_t weightBytes = 4402341472ull; // 4.1 GiB
        QVERIFY(writeSparseZip(path,
            { { "archive/archive_format", "pt2" }, { "archive/data/weights/model_weights_config.json", config },
                { "archive/data/weights/weight_0", floatBytes({ 1.f, 2.f, 3.f, 4.f }), weightBytes - 16 },
                { "archive/data/weights/weight_1", QByteArray(reinterpret_cast<const char*>(&steps), 8) },
                { "archive/models/model.json", readDumpData("counter_single_key.json") } }));
        QVERIFY(QFileInfo(path).size() > 4400000000ll);
        const auto r = readDump(path.toStdString());
        QVERIFY_RESULT(r);
        QCOMPARE((*r)->container, DumpSet::Container::Pt2Archive);
        const ExportedProgram& ep = *(*r)->methods.at(0).second;
        QVERIFY(ep.missingWeights.empty());
        const WeightTensor& w = ep.weights.at("weight");
        QCOMPARE(std::uint64_t(w.data.size()), weightBytes);
        QCOMPARE(*tensorElements(w, 8), (std::vector<double> { 1, 2, 3, 4 }));
        QCOMPARE(*tensorElements(ep.weights.at("steps"), 1), (std::vector<double> { 3 }));
    }
};

QTEST_GUILESS_MAIN(TestZip)
#include "tst_zip.moc"
