// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "pte/idmap.h"

#include <QTest>

#include <string>

using pte::IdMap;

class TestIdMap : public QObject
{
    Q_OBJECT
private slots:
    void appendsIncreasingIdsAndFindsThem()
    {
        IdMap<std::string> m;
        for (std::int32_t id = 0; id < 1000; id += 3)
            m.insert_or_assign(id, "v" + std::to_string(id));
        QCOMPARE(m.size(), std::size_t(334));
        QCOMPARE(m.at(999), std::string("v999"));
        QVERIFY(m.find(998) == m.end());
        QVERIFY(!m.contains(-1));
        QCOMPARE(m.count(3), std::size_t(1));
        std::int32_t previous = -1;
        for (const auto& [id, value] : m) {
            QVERIFY(id > previous);
            previous = id;
        }
        QVERIFY_THROWS_EXCEPTION(std::out_of_range, (void)m.at(1));
    }

    void insertsOutOfOrderAndReplaces()
    {
        IdMap<int> m;
        m[5] = 50;
        m[1] = 10;
        m[3] = 30;
        m.insert_or_assign(3, 33);
        m[7] = 70;
        QCOMPARE(m.size(), std::size_t(4));
        std::vector<std::int32_t> ids;
        for (const auto& e : m)
            ids.push_back(e.first);
        QCOMPARE(ids, (std::vector<std::int32_t> { 1, 3, 5, 7 }));
        QCOMPARE(m.at(3), 33);
        QCOMPARE(m[1], 10);
        QCOMPARE(m.size(), std::size_t(4)); // operator[] on a present id adds nothing
    }

    void initializerListSortsAndKeepsTheFirstOfEqualIds()
    {
        const IdMap<std::string> m = { { 4, "four" }, { 0, "zero" }, { 4, "again" }, { 2, "two" } };
        QCOMPARE(m.size(), std::size_t(3));
        QCOMPARE(m.begin()->first, 0);
        QCOMPARE(m.at(4), std::string("four"));
        QVERIFY(m == (IdMap<std::string> { { 0, "zero" }, { 2, "two" }, { 4, "four" } }));
    }
};

QTEST_GUILESS_MAIN(TestIdMap)
#include "tst_idmap.moc"
