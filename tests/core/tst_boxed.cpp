// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "pte/boxed.h"
#include "pte/program.h"

#include <QTest>

#include <string>

using pte::Boxed;

class TestBoxed : public QObject
{
    Q_OBJECT
private slots:
    void behavesLikeAnOptional()
    {
        Boxed<std::string> b;
        QVERIFY(!b);
        QVERIFY(!b.has_value());
        QVERIFY(b == std::nullopt);
        QVERIFY_THROWS_EXCEPTION(std::bad_optional_access, (void)b.value());
        b = std::string("weights");
        QVERIFY(b.has_value());
        QCOMPARE(*b, std::string("weights"));
        QCOMPARE(b->size(), std::size_t(7));
        b.emplace(3, 'x');
        QCOMPARE(b.value(), std::string("xxx"));
        b = std::nullopt;
        QVERIFY(!b);
    }

    void copiesAreDeepAndMovesTransfer()
    {
        Boxed<std::string> a = std::string("a");
        Boxed<std::string> copy = a;
        *copy += "b";
        QCOMPARE(*a, std::string("a")); // the copy has its own value
        QCOMPARE(*copy, std::string("ab"));
        QVERIFY(!(a == copy));
        copy = a;
        QVERIFY(a == copy);
        Boxed<std::string> moved = std::move(copy);
        QCOMPARE(*moved, std::string("a"));
        Boxed<std::string> empty;
        moved = empty;
        QVERIFY(!moved);
        QVERIFY(moved == empty);
    }

    void keepsTensorsSmall()
    {
        // The reason for Boxed: a Tensor EValue holds a pointer instead of the rarely set ExtraTensorInfo.
        QVERIFY(sizeof(pte::Tensor) < sizeof(pte::ExtraTensorInfo) + 64);
        pte::Tensor t;
        QVERIFY(!t.extraTensorInfo);
        t.extraTensorInfo = pte::ExtraTensorInfo {};
        t.extraTensorInfo->fullyQualifiedName = "layer.weight";
        const pte::Tensor copy = t;
        t.extraTensorInfo->fullyQualifiedName = "other";
        QCOMPARE(copy.extraTensorInfo->fullyQualifiedName.value(), std::string("layer.weight"));
    }
};

QTEST_GUILESS_MAIN(TestBoxed)
#include "tst_boxed.moc"
