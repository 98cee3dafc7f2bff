// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// The one text of a tensor's sizes and type (pte/tensortext.h): what the views, the CLI, the program diff, the
// bundled-program and ETDump reports all print, so the same tensor reads the same everywhere.
#include "pte/graphtext.h"
#include "pte/tensortext.h"

#include <QTest>

#include <vector>

using namespace pte;

class TestTensorText : public QObject
{
    Q_OBJECT
private slots:
    void sizesAreBracketedAndCommaSpaced()
    {
        QCOMPARE(sizesText(std::vector<std::int32_t> { 2, 3 }), std::string("[2, 3]"));
        QCOMPARE(sizesText(std::vector<std::int64_t> { 1, 1, 32, 32 }), std::string("[1, 1, 32, 32]"));
        QCOMPARE(sizesText(std::vector<std::int32_t> {}), std::string("[]"));
        QCOMPARE(sizesText(std::vector<std::int64_t> { 0 }), std::string("[0]"));
        QCOMPARE(sizesText(std::vector<std::int64_t> { 5000000000 }), std::string("[5000000000]"));
    }

    void typeIsTheShortDtypeNameThenTheSizes()
    {
        QCOMPARE(tensorTypeText(ScalarType::Float, std::vector<std::int32_t> { 2, 3 }), std::string("f32[2, 3]"));
        QCOMPARE(tensorTypeText(ScalarType::Long, std::vector<std::int64_t> { 4 }), std::string("i64[4]"));
        QCOMPARE(tensorTypeText(ScalarType::Bool, std::vector<std::int32_t> {}), std::string("bool[]"));
    }

    void graphDumpShapesUseTheSameSeparators()
    {
        // Symbolic sizes (graph dumps) follow the same rule: a dynamic dimension prints as its symbol.
        std::vector<SymInt> sizes(2);
        sizes[0].expr = "s0";
        sizes[1].value = 3;
        QCOMPARE(shapeText(sizes), std::string("[s0, 3]"));
        QCOMPARE(
            shapeText({ SymInt { .value = 2 }, SymInt { .value = 3 } }), sizesText(std::vector<std::int64_t> { 2, 3 }));
    }
};

QTEST_GUILESS_MAIN(TestTensorText)
#include "tst_tensortext.moc"
