// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// The reference interpreter's executorch_prim scalar ops beyond the binary ones: the unary neg, sym_float and sym_not
// ([a, ret]), the float-to-int ceil, trunc, round and sym_int, sym_ite ([cond, a, b, ret]) and truediv, which it
// refused ("takes 3 arguments, got 2") or lacked until docs/operators.md's interpreter column showed it. Each runs the
// operator table's case for the op (operatorcases.h: the program torch.export writes, emitted by ptelens) and must give
// PyTorch's values.
#include "etrunner.h"
#include "executiontestutils.h"
#include "operatorcases.h"
#include "pte/interpreterrun.h"
#include "testutils.h"

#include <QTest>

using namespace pte;
using namespace pte::test;

class TestInterpPrim : public QObject
{
    Q_OBJECT

private slots:
    void primScalarOp_data()
    {
        QTest::addColumn<QString>("kernel");
        for (const char* k :
            { "executorch_prim::neg.Scalar", "executorch_prim::sym_float.Scalar", "executorch_prim::sym_not.Scalar",
                "executorch_prim::sym_ite.Scalar", "executorch_prim::truediv.Scalar", "executorch_prim::ceil.Scalar",
                "executorch_prim::trunc.Scalar", "executorch_prim::round.Scalar", "executorch_prim::sym_int.Scalar" })
            QTest::newRow(k) << QString::fromLatin1(k);
    }

    void primScalarOp()
    {
        QFETCH(QString, kernel);
        std::size_t found = 0;
        for (const auto& oc : operatorCases()) {
            if (oc.kernel != kernel.toStdString())
                continue;
            ++found;
            Case c = oc.make();
            auto run = emitAndRunForward(c.dump, c.inputs, "prim_op");
            QVERIFY_RESULT(run);
            QVERIFY2(!run->loadError, run->loadError ? run->loadError->message.c_str() : "");
            const auto& x = run->executions.back();
            QVERIFY2(x.ok(), x.error ? x.error->message.c_str() : "stopped");
            QCOMPARE(x.outputs.size(), c.expected.size());
            for (std::size_t k = 0; k < x.outputs.size(); ++k) {
                QCOMPARE(x.outputs[k].values.size(), c.expected[k].values.size());
                for (std::size_t i = 0; i < x.outputs[k].values.size(); ++i)
                    QCOMPARE(x.outputs[k].values[i], c.expected[k].values[i]);
            }
        }
        QVERIFY2(found > 0, "the operator table has no case for the op");
    }
};

QTEST_GUILESS_MAIN(TestInterpPrim)
#include "tst_interp_prim.moc"
