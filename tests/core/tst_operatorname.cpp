// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// Operator names "ns::name.overload" (pte/operatorname.h): the one split the schema registry, the lowering and the
// reference interpreter use, and the one default-overload rule.
#include "pte/operatorname.h"

#include <QTest>

using namespace pte;

class TestOperatorName : public QObject
{
    Q_OBJECT
private slots:
    void split_data()
    {
        QTest::addColumn<QString>("qualified");
        QTest::addColumn<QString>("ns");
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("overload");
        QTest::newRow("overload") << "aten::add.out"
                                  << "aten"
                                  << "add"
                                  << "out";
        QTest::newRow("no overload") << "aten::relu"
                                     << "aten"
                                     << "relu"
                                     << "";
        QTest::newRow("default kept") << "aten::relu.default"
                                      << "aten"
                                      << "relu"
                                      << "default";
        QTest::newRow("overload with a dot") << "aten::div.out_mode"
                                             << "aten"
                                             << "div"
                                             << "out_mode";
        QTest::newRow("other namespace") << "dim_order_ops::_to_dim_order_copy.out"
                                         << "dim_order_ops"
                                         << "_to_dim_order_copy"
                                         << "out";
        QTest::newRow("no namespace") << "add.Tensor"
                                      << ""
                                      << "add"
                                      << "Tensor";
    }
    void split()
    {
        QFETCH(QString, qualified);
        QFETCH(QString, ns);
        QFETCH(QString, name);
        QFETCH(QString, overload);
        const auto parts = splitOperatorName(qualified.toStdString());
        QCOMPARE(QString::fromStdString(parts.ns), ns);
        QCOMPARE(QString::fromStdString(parts.name), name);
        QCOMPARE(QString::fromStdString(parts.overload), overload);
    }

    void defaultOverload()
    {
        QVERIFY(isDefaultOverload(""));
        QVERIFY(isDefaultOverload("default"));
        QVERIFY(!isDefaultOverload("out"));
        QVERIFY(!isDefaultOverload("Default"));
    }
};

QTEST_GUILESS_MAIN(TestOperatorName)
#include "tst_operatorname.moc"
