// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// The one rule for bytes shown to people (pte/bytetext.h): printable-or-hex and compile specs, as the Delegates
// view, Inside Delegate, `ptelens-cli delegates` and the program diff all show them.
#include "pte/bytetext.h"

#include <QTest>

#include <string>

using namespace pte;

namespace {
std::span<const std::uint8_t> bytesOf(const QByteArray& b)
{
    return { reinterpret_cast<const std::uint8_t*>(b.constData()), std::size_t(b.size()) };
}
} // namespace

class TestByteText : public QObject
{
    Q_OBJECT
private slots:
    void printableOrHex_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<int>("maxBytes");
        QTest::addColumn<QString>("text");
        QTest::newRow("empty") << QByteArray() << 64 << QString();
        QTest::newRow("ascii") << QByteArray("vela") << 64 << QStringLiteral("vela");
        QTest::newRow("tab, newline, return") << QByteArray("a\tb\nc\r") << 64 << QStringLiteral("a\tb\nc\r");
        // Valid UTF-8 is text (the diff used to show it as hex) ...
        QTest::newRow("utf-8") << QByteArray("gr\xc3\xb6\xc3\x9f"
                                             "e")
                               << 64 << QString::fromUtf8("größe");
        // ... invalid UTF-8 is hex (the GUI used to show replacement characters).
        QTest::newRow("invalid utf-8") << QByteArray("a\xc3", 2) << 64 << QStringLiteral("61 c3");
        QTest::newRow("overlong utf-8") << QByteArray("\xc0\xaf", 2) << 64 << QStringLiteral("c0 af");
        QTest::newRow("control") << QByteArray("a\x01", 2) << 64 << QStringLiteral("61 01");
        QTest::newRow("nul") << QByteArray("\x00\x01\xff", 3) << 64 << QStringLiteral("00 01 ff");
        QTest::newRow("del") << QByteArray("a\x7f", 2) << 64 << QStringLiteral("61 7f");
        QTest::newRow("long text") << QByteArray("abcdef") << 4 << QStringLiteral("abcd ... (6 bytes)");
        QTest::newRow("long hex") << QByteArray("\x00\x01\x02\x03\x04", 5) << 2
                                  << QStringLiteral("00 01 ... (5 bytes)");
        // A cut never splits a character.
        QTest::newRow("cut at a character") << QByteArray("a\xc3\xb6z") << 2 << QStringLiteral("a ... (4 bytes)");
    }
    void printableOrHex()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(int, maxBytes);
        QFETCH(QString, text);
        QCOMPARE(QString::fromStdString(pte::printableOrHex(bytesOf(bytes), std::size_t(maxBytes))), text);
    }

    void compileSpecText_data()
    {
        QTest::addColumn<QString>("key");
        QTest::addColumn<QByteArray>("value");
        QTest::addColumn<QString>("text");
        // XNNPACK and Vulkan write these with struct.pack("<i") and bytes([b]).
        QTest::newRow("int32") << QStringLiteral("num_threads") << QByteArray("\x01\x00\x00\x00", 4)
                               << QStringLiteral("1");
        QTest::newRow("negative int32") << QStringLiteral("storage_type_override") << QByteArray("\xff\xff\xff\xff", 4)
                                        << QStringLiteral("-1");
        QTest::newRow("bool") << QStringLiteral("use_fp16") << QByteArray("\x01", 1) << QStringLiteral("true");
        QTest::newRow("int32 list") << QStringLiteral("texture_limits")
                                    << QByteArray("\x00\x08\x00\x00\x00\x08\x00\x00\x40\x00\x00\x00", 12)
                                    << QStringLiteral("[2048, 2048, 64]");
        QTest::newRow("text") << QStringLiteral("compute_units") << QByteArray("cpu_and_ne")
                              << QStringLiteral("cpu_and_ne");
        QTest::newRow("unknown bytes") << QStringLiteral("qnn_compile_spec") << QByteArray("\x00\x01\xff", 3)
                                       << QStringLiteral("00 01 ff");
        QTest::newRow("known key, wrong size")
            << QStringLiteral("num_threads") << QByteArray("\x01\x00\x00", 3) << QStringLiteral("01 00 00");
        // Values of unknown keys are not guessed from their size (the CLI used to read 1, 4 and 8 bytes as integers).
        QTest::newRow("unknown key, four bytes")
            << QStringLiteral("threads") << QByteArray("\x04\x00\x00\x00", 4) << QStringLiteral("04 00 00 00");
        QTest::newRow("empty") << QStringLiteral("ouput_reorder_workaround") << QByteArray()
                               << QStringLiteral("(empty)");
        // Long values are cut after 1,024 bytes (Ethos-U's compile_flags, some 200 characters, are shown whole).
        QTest::newRow("long text") << QStringLiteral("compile_flags") << QByteArray(1000, 'x')
                                   << QString(QByteArray(1000, 'x'));
        QTest::newRow("long hex") << QStringLiteral("blob") << QByteArray(1030, '\0')
                                  << QString(
                                         QStringLiteral("00 ").repeated(1023) + QStringLiteral("00 ... (1030 bytes)"));
    }
    void compileSpecText()
    {
        QFETCH(QString, key);
        QFETCH(QByteArray, value);
        QFETCH(QString, text);
        QCOMPARE(QString::fromStdString(pte::compileSpecText(key.toStdString(), bytesOf(value))), text);
    }
};

QTEST_GUILESS_MAIN(TestByteText)
#include "tst_bytetext.moc"
