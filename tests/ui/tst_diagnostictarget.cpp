// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "models/diagnostictarget.h"
#include "uifixtures.h"

#include <QTest>

using namespace pte::ui;

Q_DECLARE_METATYPE(pte::Location)

class TestDiagnosticTarget : public QObject
{
    Q_OBJECT
private:
    /** A diagnostic about `file` at `at`; its message says nothing useful, so only the fields can resolve it. */
    static pte::Diagnostic diag(const pte::Location& at, const std::string& file = {})
    {
        pte::Diagnostic d;
        d.message = "something is wrong";
        d.file = file;
        d.location = at;
        return d;
    }
    static pte::Location place(const std::string& method, std::int64_t chain, std::int64_t instruction,
        std::int64_t value, const std::string& node = {})
    {
        return pte::Location { method, node, chain, instruction, value };
    }

private Q_SLOTS:
    // Every Qt warning fails the test (in init(): Qt 6.4 forgets the patterns after each test function), except
    // the offscreen platform's note that it cannot propagate size hints.
    void init() { fixtures::failOnQtWarnings(); }

    void resolvesProgramPlaces_data()
    {
        QTest::addColumn<pte::Location>("at");
        QTest::addColumn<QString>("method");
        QTest::addColumn<int>("chain");
        QTest::addColumn<int>("instruction");
        QTest::addColumn<int>("value");
        QTest::addRow("instruction") << place("forward", 0, 2, -1) << "forward" << 0 << 2 << -1;
        QTest::addRow("value") << place("forward", -1, -1, 3) << "forward" << -1 << -1 << 3;
        QTest::addRow("constant method's value") << place("get_answer", -1, -1, 0) << "get_answer" << -1 << -1 << 0;
        QTest::addRow("chain only") << place("forward", 0, -1, -1) << "forward" << 0 << -1 << -1;
        // A value index the plan does not have (an out-of-range output): the method, no value.
        QTest::addRow("value out of range") << place("forward", -1, -1, 4000) << "forward" << -1 << -1 << -1;
        QTest::addRow("unknown method") << place("nope", 0, 1, -1) << "" << -1 << -1 << -1;
        QTest::addRow("method only") << place("forward", -1, -1, -1) << "forward" << -1 << -1 << -1;
        QTest::addRow("nothing") << pte::Location {} << "" << -1 << -1 << -1;
    }
    void resolvesProgramPlaces()
    {
        QFETCH(pte::Location, at);
        QFETCH(QString, method);
        QFETCH(int, chain);
        QFETCH(int, instruction);
        QFETCH(int, value);
        const auto snap = fixtures::makeSnapshot();
        const auto t = resolveDiagnostic(*snap, diag(at, "model.pte"));
        QCOMPARE(t.method, method);
        QCOMPARE(t.chain, chain);
        QCOMPARE(t.instruction, instruction);
        QCOMPARE(t.value, value);
        QVERIFY(t.nodes.isEmpty());
    }

    void resolvesDumpNodes()
    {
        auto snap = fixtures::makeSnapshot();
        const std::string file = snap->dumpMethods.front().program->source;
        auto node = [&](const std::string& method, const std::string& name, const std::string& in) {
            return resolveDiagnostic(*snap, diag(place(method, -1, -1, -1, name), in));
        };
        // A node of the dump method whose source is the diagnostic's file.
        auto t = node("", "mul", file);
        QCOMPARE(t.method, QStringLiteral("forward"));
        QCOMPARE(t.nodes, QStringList { QStringLiteral("mul") });
        // A placeholder (the buffer input "buf").
        t = node("forward", "buf", file);
        QCOMPARE(t.nodes, QStringList { QStringLiteral("buf") });
        // The method named by the location when the file is another (the emitter's).
        t = node("forward", "add", "emitter");
        QCOMPARE(t.method, QStringLiteral("forward"));
        QCOMPARE(t.nodes, QStringList { QStringLiteral("add") });
        // A node the graph lacks: the method only.
        t = node("forward", "nope", file);
        QCOMPARE(t.method, QStringLiteral("forward"));
        QVERIFY(t.nodes.isEmpty());
        // Neither file nor method matches.
        QVERIFY(!node("other", "mul", "other.pt2").isValid());
        // The message is never read: naming a node there resolves nothing.
        pte::Diagnostic d;
        d.message = "method 'forward': node 'add' (torch.ops.aten.add.Tensor): unknown operator";
        d.file = "somewhere-else";
        QVERIFY(!resolveDiagnostic(*snap, d).isValid());
    }
};

QTEST_MAIN(TestDiagnosticTarget)
#include "tst_diagnostictarget.moc"
