// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "errorcheck.h"
#include "pte/bytes.h"
#include "pte/mappedfile.h"
#include "pte/program.h"
#include "pte/result.h"
#include "testutils.h"

#include <QDir>
#include <QFile>
#include <QTest>

using namespace pte;

class TestResult : public QObject
{
    Q_OBJECT
private:
    static Result<int> half(int v)
    {
        if (v % 2)
            return fail(ErrorCode::InvalidInput, "odd value", 12, "a.b[3]");
        return v / 2;
    }
    static Result<int> quarter(int v)
    {
        PTE_TRY(const int h, half(v));
        PTE_TRY(const int q, half(h));
        return q;
    }

private Q_SLOTS:
    void propagatesErrors()
    {
        QCOMPARE(*quarter(8), 2);
        const auto r = quarter(6);
        QVERIFY(!r);
        QCOMPARE(r.error().code, ErrorCode::InvalidInput);
        QCOMPARE(r.error().toString(), std::string("odd value (at byte 12, a.b[3])"));
    }

    void hashesKnownVector()
    {
        const auto b = Bytes::copyOf("abc");
        QCOMPARE(sha256Hex(b.span()), std::string("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"));
    }

    void writesAtomicallyAndMaps()
    {
        const QString path = test::tempDir() + QStringLiteral("/atomic.bin");
        const std::string p = path.toStdString();
        const auto data = Bytes::copyOf("hello world");
        QVERIFY_RESULT(writeFileAtomically(p, data.span()));
        auto mapped = mapFile(p);
        QVERIFY_RESULT(mapped);
        QVERIFY(mapped->contentEquals(data));
        // No temporary files are left behind.
        QCOMPARE(QDir(test::tempDir()).entryList(QDir::Files | QDir::Hidden).size(), 1);
        const auto missing = mapFile(p + ".does-not-exist");
        QVERIFY_ERROR(missing, ErrorCode::Io, "atomic.bin.does-not-exist");
    }

    // Large parts that view a mapped file are copied by the kernel from that file; small parts and parts
    // from memory are written. Mixed, at unaligned offsets, the result must be byte for byte the concatenation.
    void writesPartsOfMappedFiles()
    {
        const std::string source = (test::tempDir() + QStringLiteral("/source.bin")).toStdString();
        std::vector<std::uint8_t> pattern(std::size_t(3) << 20);
        for (std::size_t i = 0; i < pattern.size(); ++i)
            pattern[i] = std::uint8_t((i * 2654435761u) >> 13);
        QVERIFY_RESULT(writeFileAtomically(source, pattern));
        auto mapped = mapFile(source);
        QVERIFY_RESULT(mapped);
        const auto head = Bytes::copyOf("header");
        const auto big = mapped->slice(7, (std::size_t(2) << 20) + 3); // over the kernel-copy threshold
        const auto small = mapped->slice(100, 50); // under it
        const std::span<const std::uint8_t> parts[] = { head.span(), big.span(), small.span(), head.span() };
        const std::string target = (test::tempDir() + QStringLiteral("/mixed.bin")).toStdString();
        QVERIFY_RESULT(writeFileAtomically(target, parts));

        std::vector<std::uint8_t> expected;
        for (const auto& p : parts)
            expected.insert(expected.end(), p.begin(), p.end());
        auto written = mapFile(target);
        QVERIFY_RESULT(written);
        QCOMPARE(written->size(), expected.size());
        QVERIFY(std::equal(expected.begin(), expected.end(), written->span().begin()));

        // Rewriting a file from its own mapping: the mapping keeps viewing the old contents.
        const std::span<const std::uint8_t> swapped[] = {
            mapped->slice(std::size_t(2) << 20, std::size_t(1) << 20).span(),
            mapped->slice(0, std::size_t(2) << 20).span()
        };
        QVERIFY_RESULT(writeFileAtomically(source, swapped));
        auto again = mapFile(source);
        QVERIFY_RESULT(again);
        QCOMPARE(again->size(), pattern.size());
        QVERIFY(std::equal(pattern.begin() + (std::ptrdiff_t(2) << 20), pattern.end(), again->span().begin()));
        QVERIFY(std::equal(
            pattern.begin(), pattern.begin() + (std::ptrdiff_t(2) << 20), again->span().begin() + (1 << 20)));
    }

    // Both policies create a new file and replace an existing one (the replacing path fsyncs first); each save
    // leaves exactly the target, with the last content, and no temporary file.
    void savesNewAndExistingFilesUnderEitherPolicy()
    {
        const QString dir = test::tempDir() + QStringLiteral("/policies");
        QVERIFY(QDir().mkpath(dir));
        for (const auto policy : { SyncPolicy::WhenReplacing, SyncPolicy::Always }) {
            const std::string p = (dir + QStringLiteral("/out.bin")).toStdString();
            QFile::remove(QString::fromStdString(p));
            const auto first = Bytes::copyOf("first version, longer than the second");
            const auto second = Bytes::copyOf("second");
            QVERIFY_RESULT(writeFileAtomically(p, first.span(), policy));
            auto a = mapFile(p);
            QVERIFY_RESULT(a);
            QVERIFY(a->contentEquals(first));
            QVERIFY_RESULT(writeFileAtomically(p, second.span(), policy));
            auto b = mapFile(p);
            QVERIFY_RESULT(b);
            QVERIFY(b->contentEquals(second));
            QVERIFY(a->contentEquals(first)); // the old mapping still views the replaced file's bytes
            QCOMPARE(QDir(dir).entryList(QDir::Files | QDir::Hidden), QStringList { QStringLiteral("out.bin") });
        }
    }

    void failedWriteLeavesTargetUntouched()
    {
        const auto data = Bytes::copyOf("x");
        const auto r = writeFileAtomically("/nonexistent-dir/out.pte", data.span());
        QVERIFY(!r);
        QCOMPARE(r.error().code, ErrorCode::Io);
    }

    void tensorSizes()
    {
        Tensor t;
        t.scalarType = ScalarType::Float;
        t.sizes = { 2, 3 };
        QCOMPARE(*t.nbytes(), std::uint64_t(24));
        t.sizes = { -1 };
        QVERIFY(!t.nbytes());
        t.sizes = { 65536, 65536, 65536, 65536, 65536 };
        QVERIFY(!t.numel());
    }
};

QTEST_GUILESS_MAIN(TestResult)
#include "tst_result.moc"
