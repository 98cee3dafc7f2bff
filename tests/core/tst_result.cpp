// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
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
        QVERIFY(!missing);
        QCOMPARE(missing.error().code, ErrorCode::Io);
        QVERIFY(missing.error().message.find("atomic.bin.does-not-exist") != std::string::npos);
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
