// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "emit/lowering.h"
#include "emit/memoryplanner.h"
#include "emit/opschema.h"
#include "pte/kernelcoverage.h"
#include "testutils.h"

#include <QTest>

using namespace pte;
using namespace pte::emitcore;

class TestOpSchema : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void registryParsesEverything()
    {
        const auto& reg = SchemaRegistry::instance();
        for (const auto& e : reg.parseErrors())
            qWarning("%s", e.c_str());
        QCOMPARE(reg.parseErrors().size(), std::size_t(0));
        QVERIFY(reg.size() > 250);
    }

    void parsesAddOut()
    {
        const auto s =
            parseSchema("aten::add.out(Tensor self, Tensor other, *, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!)");
        QVERIFY_RESULT(s);
        QCOMPARE(s->ns, std::string("aten"));
        QCOMPARE(s->name, std::string("add"));
        QCOMPARE(s->overload, std::string("out"));
        QCOMPARE(s->key(), std::string("aten::add.out"));
        QCOMPARE(s->args.size(), std::size_t(4));
        QCOMPARE(s->args[0].name, std::string("self"));
        QVERIFY(!s->args[0].kwargOnly);
        QCOMPARE(s->args[2].name, std::string("alpha"));
        QVERIFY(s->args[2].kwargOnly);
        QCOMPARE(s->args[2].type.base, BaseType::Scalar);
        QCOMPARE(*s->args[2].defaultValue, std::string("1"));
        QVERIFY(s->args[3].type.mutates);
        QVERIFY(s->isOutFn());
        QCOMPARE(s->outArgs(), std::vector<std::size_t>({ 3 }));
        QCOMPARE(s->returns.size(), std::size_t(1));
        QVERIFY(s->returns[0].type.mutates);
    }

    void parsesTypes_data()
    {
        QTest::addColumn<QString>("schema");
        QTest::addColumn<int>("arg");
        QTest::addColumn<int>("base");
        QTest::addColumn<bool>("optional");
        QTest::addColumn<bool>("list");
        QTest::addColumn<int>("fixed");
        QTest::addColumn<QString>("def");
        QTest::addRow("int2-stride")
            << "aten::conv2d(Tensor input, Tensor weight, Tensor? bias=None, SymInt[2] "
               "stride=1, SymInt[2] padding=0, SymInt[2] dilation=1, SymInt groups=1) -> Tensor"
            << 3 << int(BaseType::SymInt) << false << true << 2 << "1";
        QTest::addRow("optional-tensor")
            << "aten::clamp.Tensor(Tensor self, Tensor? min=None, Tensor? max=None) -> Tensor" << 1
            << int(BaseType::Tensor) << true << false << 0 << "None";
        QTest::addRow("optional-int-list") << "aten::mean.dim(Tensor self, int[1]? dim, bool keepdim=False, *, "
                                              "ScalarType? dtype=None) -> Tensor"
                                           << 1 << int(BaseType::Int) << true << true << 1 << "";
        QTest::addRow("optional-tensor-list") << "aten::index.Tensor(Tensor self, Tensor?[] indices) -> Tensor" << 1
                                              << int(BaseType::Tensor) << false << true << 0 << "";
        QTest::addRow("string-default") << "aten::gelu(Tensor self, *, str approximate=\"none\") -> Tensor" << 1
                                        << int(BaseType::Str) << false << false << 0 << "\"none\"";
        QTest::addRow("memory-format") << "aten::contiguous(Tensor(a) self, *, MemoryFormat "
                                          "memory_format=contiguous_format) -> Tensor(a)"
                                       << 1 << int(BaseType::MemoryFormat) << false << false << 0
                                       << "contiguous_format";
    }
    void parsesTypes()
    {
        QFETCH(QString, schema);
        QFETCH(int, arg);
        QFETCH(int, base);
        QFETCH(bool, optional);
        QFETCH(bool, list);
        QFETCH(int, fixed);
        QFETCH(QString, def);
        const auto s = parseSchema(schema.toStdString());
        QVERIFY_RESULT(s);
        const auto& a = s->args.at(std::size_t(arg));
        QCOMPARE(int(a.type.base), base);
        QCOMPARE(a.type.optional, optional);
        QCOMPARE(a.type.isList, list);
        QCOMPARE(a.type.fixedSize, fixed);
        QCOMPARE(QString::fromStdString(a.defaultValue.value_or("")), def);
    }

    void multipleReturns()
    {
        const auto* s = SchemaRegistry::instance().find("aten::max_pool2d_with_indices", "out");
        QVERIFY(s);
        QCOMPARE(s->outArgs(), std::vector<std::size_t>({ 6, 7 }));
        QCOMPARE(s->returns.size(), std::size_t(2));
        const auto* split = SchemaRegistry::instance().find("aten::split_with_sizes_copy", "out");
        QVERIFY(split);
        QVERIFY(split->args.back().type.isList);
        QVERIFY(split->returns.empty());
    }

    void rejectsMalformed()
    {
        QVERIFY(!parseSchema("add(Tensor self) -> Tensor"));
        QVERIFY(!parseSchema("aten::add(Tensor self"));
        QVERIFY(!parseSchema("aten::view(Tensor self, SymInt[x] size) -> Tensor"));
    }

    void outVariants_data()
    {
        QTest::addColumn<QString>("op");
        QTest::addColumn<QString>("overload");
        QTest::addColumn<QString>("expected");
        QTest::addRow("add.Tensor") << "aten::add"
                                    << "Tensor"
                                    << "aten::add.out";
        QTest::addRow("add.Scalar") << "aten::add"
                                    << "Scalar"
                                    << "aten::add.Scalar_out";
        QTest::addRow("mean") << "aten::mean"
                              << ""
                              << "aten::mean.dtype_out";
        QTest::addRow("mean.dim") << "aten::mean"
                                  << "dim"
                                  << "aten::mean.out";
        QTest::addRow("sum.dim_IntList") << "aten::sum"
                                         << "dim_IntList"
                                         << "aten::sum.IntList_out";
        QTest::addRow("pow.Tensor_Scalar") << "aten::pow"
                                           << "Tensor_Scalar"
                                           << "aten::pow.Tensor_Scalar_out";
        QTest::addRow("full") << "aten::full"
                              << ""
                              << "aten::full.out";
        QTest::addRow("max.dim") << "aten::max"
                                 << "dim"
                                 << "aten::max.dim_max";
        QTest::addRow("to_dim_order") << "dim_order_ops::_to_dim_order_copy"
                                      << ""
                                      << "dim_order_ops::_to_dim_order_copy.out";
        QTest::addRow("bn") << "aten::_native_batch_norm_legit_no_training"
                            << ""
                            << "aten::_native_batch_norm_legit_no_training.out";
    }
    void outVariants()
    {
        QFETCH(QString, op);
        QFETCH(QString, overload);
        QFETCH(QString, expected);
        const auto& reg = SchemaRegistry::instance();
        const auto* f = reg.find(op.toStdString(), overload.toStdString());
        QVERIFY(f);
        const auto* o = reg.outVariant(*f);
        QVERIFY(o);
        QCOMPARE(QString::fromStdString(o->key()), expected);
    }

    void symOps()
    {
        const auto& reg = SchemaRegistry::instance();
        QVERIFY(reg.find("aten::sym_size", "int")->isSymOp());
        QVERIFY(reg.find("executorch_prim::add", "Scalar")->isSymOp());
        QVERIFY(!reg.find("aten::add", "out")->isSymOp());
    }

    void kernelCoverage_data()
    {
        QTest::addColumn<QString>("key");
        QTest::addColumn<bool>("implemented");
        QTest::addRow("add.out") << "aten::add.out" << true;
        QTest::addRow("addmm.out") << "aten::addmm.out" << true;
        QTest::addRow("copy_") << "aten::copy_" << true;
        QTest::addRow("to_dim_order") << "dim_order_ops::_to_dim_order_copy.out" << true;
        QTest::addRow("functional add") << "aten::add.Tensor" << false;
        QTest::addRow("linear") << "aten::linear" << false;
        QTest::addRow("custom") << "mylib::frobnicate" << false;
        QTest::addRow("empty") << "" << false;
    }
    void kernelCoverage()
    {
        QFETCH(QString, key);
        QFETCH(bool, implemented);
        QCOMPARE(portableKernelImplements(key.toStdString()), implemented);
    }

    void targets_data()
    {
        QTest::addColumn<QString>("target");
        QTest::addColumn<QString>("expected");
        QTest::addRow("torch") << "torch.ops.aten.add.Tensor"
                               << "aten|add|Tensor";
        QTest::addRow("edge") << "executorch.exir.dialects.edge.ops.aten.mul.Tensor"
                              << "aten|mul|Tensor";
        QTest::addRow("default") << "torch.ops.aten.linear.default"
                                 << "aten|linear|";
        QTest::addRow("dim-order") << "executorch.exir.dialects.edge.ops.dim_order_ops._to_dim_order_copy.default"
                                   << "dim_order_ops|_to_dim_order_copy|";
        QTest::addRow("qualified") << "aten::view_copy.out"
                                   << "aten|view_copy|out";
    }
    void targets()
    {
        QFETCH(QString, target);
        QFETCH(QString, expected);
        const auto t = parseTarget(target.toStdString());
        QVERIFY(t);
        QCOMPARE(QString::fromStdString(t->ns + "|" + t->op + "|" + t->overload), expected);
    }

    void dimOrders()
    {
        QCOMPARE(dimOrderFromStrides({ 12, 4, 1 }), std::vector<std::uint8_t>({ 0, 1, 2 }));
        QCOMPARE(dimOrderFromStrides({ 48, 1, 12, 3 }), std::vector<std::uint8_t>({ 0, 2, 3, 1 }));
        QCOMPARE(dimOrderFromStrides({ 3, 1, 1, 1 }), std::vector<std::uint8_t>({ 0, 1, 2, 3 }));
        QCOMPARE(dimOrderFromStrides({}), std::vector<std::uint8_t>());
    }

    void symBounds()
    {
        std::map<std::string, RangeConstraint> r { { "s0", { 2, 64 } }, { "s1", { 1, std::nullopt } } };
        QCOMPARE(*symUpperBound(SymInt { std::nullopt, "s0", std::nullopt }, r), std::int64_t(64));
        QCOMPARE(*symUpperBound(SymInt { std::nullopt, "2*s0 + 1", std::nullopt }, r), std::int64_t(129));
        QCOMPARE(
            *symUpperBound(
                SymInt { std::nullopt, "Mul(Integer(2), Symbol('s0', integer=True, positive=True))", std::nullopt }, r),
            std::int64_t(128));
        QVERIFY(!symUpperBound(SymInt { std::nullopt, "s1", std::nullopt }, r));
        QCOMPARE(*symUpperBound(SymInt { 5, "", std::nullopt }, r), std::int64_t(5));
    }

    void greedyPlanner()
    {
        // add.pte: x, y, out all alive together -> out 0, y 16, x 32 (ties processed newest first).
        auto p = planGreedy({ { 4, 0, 1 }, { 4, 0, 1 }, { 4, 0, 1 } });
        QCOMPARE(p.offsets, std::vector<std::uint64_t>({ 32, 16, 0 }));
        QCOMPARE(p.totalSize, std::uint64_t(48));
        // A chain reuses memory: a[0,1] b[1,2] c[2,3] -> c and a share object 0.
        p = planGreedy({ { 64, 0, 1 }, { 64, 1, 2 }, { 64, 2, 3 } });
        QCOMPARE(p.offsets, std::vector<std::uint64_t>({ 0, 64, 0 }));
        QCOMPARE(p.totalSize, std::uint64_t(128));
        // A small tensor goes above a live one inside a bigger object: big[0,2] small1[3,4] small2[3,4].
        p = planGreedy({ { 96, 0, 2 }, { 16, 3, 4 }, { 32, 3, 4 } });
        QCOMPARE(p.offsets, std::vector<std::uint64_t>({ 0, 32, 0 }));
        QCOMPARE(p.totalSize, std::uint64_t(96));
        QCOMPARE(planGreedy({}).totalSize, std::uint64_t(0));
    }
};

QTEST_GUILESS_MAIN(TestOpSchema)
#include "tst_opschema.moc"
