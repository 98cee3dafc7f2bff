// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// complex64 tensors in the reference interpreter: a method holding them loads (it was refused at load, "value 0:
// dtype not supported", so the two portable kernels that read them could not be checked), the kernels registered for
// them (view_as_real_copy, _conj_physical) give PyTorch's values, and any other kernel handed one stops the run naming
// itself, instead of computing on bytes it cannot read.
#include "dumpbuilder.h"
#include "executiontestutils.h"
#include "operatorcases.h"
#include "pte/interpreterrun.h"
#include "testutils.h"

#include <QTest>

using namespace pte;
using namespace pte::test;

class TestInterpComplex : public QObject
{
    Q_OBJECT

private slots:
    void complexKernels_data()
    {
        QTest::addColumn<QString>("kernel");
        QTest::newRow("view_as_real_copy") << QStringLiteral("aten::view_as_real_copy.out");
        QTest::newRow("_conj_physical") << QStringLiteral("aten::_conj_physical.out");
    }

    // The operator table's cases (operatorcases.cpp: the expected values written from PyTorch's definitions).
    void complexKernels()
    {
        QFETCH(QString, kernel);
        std::size_t found = 0;
        for (const auto& oc : operatorCases()) {
            if (oc.kernel != kernel.toStdString())
                continue;
            ++found;
            Case c = oc.make();
            auto run = emitAndRunForward(c.dump, c.inputs, "complex_op");
            QVERIFY_RESULT(run);
            QVERIFY2(!run->loadError, run->loadError ? run->loadError->message.c_str() : "");
            const auto& x = run->executions.back();
            QVERIFY2(x.ok(), x.error ? x.error->message.c_str() : "stopped");
            QCOMPARE(x.outputs.size(), c.expected.size());
            QCOMPARE(x.outputs[0].sizes, c.expected[0].sizes);
            QCOMPARE(x.outputs[0].values, c.expected[0].values);
        }
        QCOMPARE(found, std::size_t(1));
    }

    // abs of a complex64 weight: the interpreter's abs kernel reads real elements only, so the run stops at it, named.
    void otherKernelsRefuseComplexByName()
    {
        Dump dump;
        dump.weight("p_z", "z", { 2 }, { 3, 4, -1, 0 }, true, kComplexFloat);
        dump.node("a", "abs.default", nlohmann::json::array({ arg("self", T("p_z")) }), { 2 }, kComplexFloat);
        dump.output("a");
        auto run = emitAndRunForward(dump, {}, "complex_op");
        QVERIFY_RESULT(run);
        QVERIFY2(!run->loadError, run->loadError ? run->loadError->message.c_str() : "");
        const auto& x = run->executions.back();
        QCOMPARE(x.stop, RunStop::MissingOperator);
        QCOMPARE(x.stoppedOperator, std::string("aten::abs.out"));
        QVERIFY(x.error);
        QVERIFY2(
            x.error->message.find("aten::abs.out: the reference kernel computes no c64 tensors") != std::string::npos,
            x.error->message.c_str());
    }
};

QTEST_GUILESS_MAIN(TestInterpComplex)
#include "tst_interp_complex.moc"
