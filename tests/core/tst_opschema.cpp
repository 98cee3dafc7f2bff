// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "emit/lowering.h"
#include "emit/memoryplanner.h"
#include "emit/opschema.h"
#include "pte/kernelcoverage.h"
#include "testutils.h"

#include <QTest>

#include <algorithm>
#include <numeric>

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

    void greedyPlannerPlacesAsTheScanOfEveryAllocation()
    {
        // The planner finds where the allocations overlapping a request end with a segment tree over steps. The
        // algorithm it implements scans every allocation of each shared object: both must place every request alike,
        // on lifetimes short and long, nested and chained, sizes equal and mixed.
        std::uint32_t seed = 12345;
        auto next = [&seed](std::uint32_t n) {
            seed = seed * 1664525u + 1013904223u;
            return (seed >> 8) % n;
        };
        for (int round = 0; round < 200; ++round) {
            std::vector<PlanRequest> requests(std::size_t(1 + next(120)));
            const std::uint32_t steps = 1 + next(200);
            for (auto& r : requests) {
                r.size = 1 + next(round % 3 == 0 ? 4 : 300);
                r.first = next(steps);
                r.last = r.first + (next(4) == 0 ? next(steps) : next(6));
            }
            const auto plan = planGreedy(requests);
            // The documented algorithm, with a plain scan: sizes aligned to 16, largest first (ties: later first);
            // first fit among the shared objects in creation order.
            std::vector<std::uint64_t> sizes;
            for (const auto& r : requests)
                sizes.push_back((r.size + 15) / 16 * 16);
            std::vector<std::size_t> order(requests.size());
            std::iota(order.begin(), order.end(), 0);
            std::stable_sort(order.begin(), order.end(), [&](auto a, auto b) { return sizes[a] < sizes[b]; });
            std::reverse(order.begin(), order.end());
            struct Object
            {
                std::uint64_t size;
                std::vector<std::pair<std::size_t, std::uint64_t>> held;
            };
            std::vector<Object> objects;
            std::vector<std::pair<std::size_t, std::uint64_t>> at(requests.size());
            for (const auto r : order) {
                bool placed = false;
                for (std::size_t o = 0; o < objects.size() && !placed; ++o) {
                    std::uint64_t top = 0;
                    bool overlaps = false;
                    for (const auto& [other, offset] : objects[o].held)
                        if (requests[other].first <= requests[r].last && requests[other].last >= requests[r].first) {
                            overlaps = true;
                            top = std::max(top, offset + sizes[other]);
                        }
                    if (overlaps && top + sizes[r] > objects[o].size)
                        continue;
                    objects[o].held.push_back({ r, top });
                    at[r] = { o, top };
                    placed = true;
                }
                if (!placed) {
                    at[r] = { objects.size(), 0 };
                    objects.push_back({ sizes[r], { { r, 0 } } });
                }
            }
            std::vector<std::uint64_t> base;
            std::uint64_t total = 0;
            for (const auto& o : objects) {
                base.push_back(total);
                total += o.size;
            }
            for (std::size_t r = 0; r < requests.size(); ++r)
                QCOMPARE(plan.offsets[r], base[at[r].first] + at[r].second);
            QCOMPARE(plan.totalSize, total);
        }
    }
};

QTEST_GUILESS_MAIN(TestOpSchema)
#include "tst_opschema.moc"
