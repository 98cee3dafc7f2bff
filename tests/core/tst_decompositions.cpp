// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// The decomposition table (core/src/emit/decompositions.cpp): its keys are the only record of which composites
// the lowering decomposes, so they must name real aten operators, and emitting an operator must decompose it
// exactly when it is a key.
#include "dumpbuilder.h"
#include "emit/decompositions.h"
#include "emit/opschema.h"
#include "errorcheck.h"
#include "pte/emitter.h"
#include "testutils.h"

#include <QTest>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <string>

using namespace pte;
using namespace pte::test;
using nlohmann::json;

class TestDecompositions : public QObject
{
    Q_OBJECT

private slots:
    void keysAreSortedAndDistinct()
    {
        const auto ops = emitcore::decomposedOperators();
        QVERIFY(!ops.empty());
        QVERIFY(std::is_sorted(ops.begin(), ops.end()));
        QVERIFY(std::adjacent_find(ops.begin(), ops.end()) == ops.end());
    }

    void everyKeyIsAnAtenOperator_data()
    {
        QTest::addColumn<QString>("op");
        for (const auto op : emitcore::decomposedOperators())
            QTest::newRow(std::string(op).c_str()) << QString::fromUtf8(op.data(), qsizetype(op.size()));
    }

    /** A key without a schema would be a misspelling that never matches a node: decompositions bind the
     *  composite's own schema, except feature_dropout, alpha_dropout and feature_alpha_dropout, bound with dropout's
     *  (same arguments). */
    void everyKeyIsAnAtenOperator()
    {
        QFETCH(QString, op);
        const std::string name = op.toStdString();
        const std::string bound =
            name == "feature_dropout" || name == "alpha_dropout" || name == "feature_alpha_dropout" ? "dropout" : name;
        QVERIFY2(!emitcore::SchemaRegistry::instance().overloads("aten::" + bound).empty(),
            qPrintable(QString::fromStdString("aten::" + bound + " is not in the schema registry")));
    }

    void tableDecidesWhatIsDecomposed_data()
    {
        QTest::addColumn<QString>("op");
        QTest::addColumn<QString>("target");
        QTest::addColumn<QList<int>>("outShape");
        QTest::addColumn<bool>("decomposed");
        // Decomposed: no portable kernel (silu, hardswish, hardsigmoid), or a composite of the edge dialect
        // (t, clone -> permute_copy, _clone_dim_order). Kept: ops with portable out variants.
        QTest::newRow("silu") << "silu"
                              << "silu.default" << QList<int> { 2, 3 } << true;
        QTest::newRow("hardswish") << "hardswish"
                                   << "hardswish.default" << QList<int> { 2, 3 } << true;
        QTest::newRow("hardsigmoid") << "hardsigmoid"
                                     << "hardsigmoid.default" << QList<int> { 2, 3 } << true;
        QTest::newRow("t") << "t"
                           << "t.default" << QList<int> { 3, 2 } << true;
        QTest::newRow("clone") << "clone"
                               << "clone.default" << QList<int> { 2, 3 } << true;
        QTest::newRow("relu") << "relu"
                              << "relu.default" << QList<int> { 2, 3 } << false;
        QTest::newRow("sigmoid") << "sigmoid"
                                 << "sigmoid.default" << QList<int> { 2, 3 } << false;
        QTest::newRow("neg") << "neg"
                             << "neg.default" << QList<int> { 2, 3 } << false;
    }

    /** The table's verdict, and what emission does: the composite's own kernel is called exactly when it is kept. */
    void tableDecidesWhatIsDecomposed()
    {
        QFETCH(QString, op);
        QFETCH(QString, target);
        QFETCH(QList<int>, outShape);
        QFETCH(bool, decomposed);
        const auto ops = emitcore::decomposedOperators();
        QCOMPARE(std::binary_search(ops.begin(), ops.end(), op.toStdString()), decomposed);

        Dump d;
        d.input("x", { 2, 3 });
        d.node("y", target.toStdString(), json::array({ arg("self", T("x")) }),
            std::vector<std::int64_t>(outShape.begin(), outShape.end()));
        d.output("y");
        auto ep = d.build(op.toStdString());
        QVERIFY_RESULT(ep);
        auto out = emitProgram({ { "forward", *ep } }, EmitOptions {});
        QVERIFY_RESULT(out);
        QCOMPARE(out->program.executionPlan.size(), std::size_t(1));
        const auto& operators = out->program.executionPlan[0].operators;
        QVERIFY(!operators.empty());
        const bool kept = std::any_of(operators.begin(), operators.end(),
            [&](const Operator& o) { return o.name == "aten::" + op.toStdString(); });
        QCOMPARE(kept, !decomposed);
    }

    void channelDropoutsInTraining_data()
    {
        QTest::addColumn<QString>("op");
        QTest::addColumn<bool>("train");
        QTest::addColumn<bool>("emitted");
        for (const char* op : { "feature_dropout", "alpha_dropout" }) {
            QTest::newRow((std::string(op) + " eval").c_str()) << op << false << true;
            QTest::newRow((std::string(op) + " training").c_str()) << op << true << false;
        }
        QTest::newRow("dropout training") << "dropout" << true << true;
    }

    /** feature_dropout and alpha_dropout are identities in eval mode; in training they are not plain dropout, so
     *  emission refuses them instead of computing something else. */
    void channelDropoutsInTraining()
    {
        QFETCH(QString, op);
        QFETCH(bool, train);
        QFETCH(bool, emitted);
        Dump d;
        d.input("x", { 2, 3 });
        d.node("y", op.toStdString() + ".default",
            json::array({ arg("input", T("x")), arg("p", F(0.5)), arg("train", B(train)) }), { 2, 3 });
        d.output("y");
        auto ep = d.build(op.toStdString());
        QVERIFY_RESULT(ep);
        auto out = emitProgram({ { "forward", *ep } }, EmitOptions {});
        if (emitted) {
            QVERIFY_RESULT(out);
        } else {
            QVERIFY_ERROR(out, ErrorCode::Unsupported, "aten::" + op.toStdString() + " in training mode");
        }
    }
};

QTEST_GUILESS_MAIN(TestDecompositions)
#include "tst_decompositions.moc"
