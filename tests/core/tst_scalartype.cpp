// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// The dtype classes (pte/program.h): the one integral and one floating rule that element text, the lowering's type
// promotion and the run's input checks share, checked over every ScalarType code against torch's definitions
// (torch.is_floating_point; integers are the signed and unsigned integer types, not bool, quantized or bit types).
#include "pte/graphtext.h"
#include "pte/program.h"

#include <QTest>

#include <set>

using namespace pte;

class TestScalarType : public QObject
{
    Q_OBJECT
private slots:
    void everyCodeIsClassifiedOnce()
    {
        const std::set<ScalarType> integral = { ScalarType::Byte, ScalarType::Char, ScalarType::Short, ScalarType::Int,
            ScalarType::Long, ScalarType::UInt16, ScalarType::UInt32, ScalarType::UInt64 };
        const std::set<ScalarType> floating = { ScalarType::Half, ScalarType::Float, ScalarType::Double,
            ScalarType::BFloat16, ScalarType::Float8e5m2, ScalarType::Float8e4m3fn, ScalarType::Float8e5m2fnuz,
            ScalarType::Float8e4m3fnuz };
        for (int code = 0; code <= 29; ++code) {
            const auto t = ScalarType(code);
            const std::string name = scalarTypeShortName(t);
            QVERIFY2(isIntegralType(t) == (integral.count(t) == 1), name.c_str());
            QVERIFY2(isFloatingType(t) == (floating.count(t) == 1), name.c_str());
            QVERIFY2(!(isIntegralType(t) && isFloatingType(t)), name.c_str());
        }
        QVERIFY(!isIntegralType(ScalarType::Bool));
        QVERIFY(!isIntegralType(ScalarType::QInt8));
        QVERIFY(!isFloatingType(ScalarType::ComplexFloat));
    }

    void elementTextFollowsTheRule()
    {
        // Integral elements print without a fraction, floating ones as the shortest text that reads back.
        QCOMPARE(elementText(3.0, ScalarType::UInt32), std::string("3"));
        QCOMPARE(elementText(-7.0, ScalarType::Char), std::string("-7"));
        QCOMPARE(elementText(0.5, ScalarType::Float), std::string("0.5"));
        QCOMPARE(elementText(1.0, ScalarType::Bool), std::string("True"));
    }
};

QTEST_GUILESS_MAIN(TestScalarType)
#include "tst_scalartype.moc"
