// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "models/diagnostictarget.h"
#include "uifixtures.h"

#include <QRegularExpression>
#include <QTest>

using namespace pte::ui;

class TestDiagnosticTarget : public QObject
{
    Q_OBJECT
private:
    static pte::Diagnostic diag(const std::string& path, const std::string& message = {}, const std::string& file = {})
    {
        pte::Diagnostic d;
        d.fieldPath = path;
        d.message = message;
        d.file = file;
        return d;
    }

private Q_SLOTS:
    // Every Qt warning fails the test (in init(): Qt 6.4 forgets the patterns after each test function), except
    // the offscreen platform's note that it cannot propagate size hints.
    void init() { fixtures::failOnQtWarnings(); }

    void resolvesProgramPaths()
    {
        const auto snap = fixtures::makeSnapshot();
        auto t = resolveDiagnostic(*snap, diag("execution_plan[0].chains[0].instructions[2].instr_args.args[1]"));
        QCOMPARE(t.method, QStringLiteral("forward"));
        QCOMPARE(t.chain, 0);
        QCOMPARE(t.instruction, 2);
        QCOMPARE(t.value, -1);

        t = resolveDiagnostic(*snap, diag("execution_plan[0].values[3]"));
        QCOMPARE(t.method, QStringLiteral("forward"));
        QCOMPARE(t.value, 3);
        QCOMPARE(t.instruction, -1);

        t = resolveDiagnostic(*snap, diag("execution_plan[1].values[0].val"));
        QCOMPARE(t.method, QStringLiteral("get_answer"));
        QCOMPARE(t.value, 0);

        t = resolveDiagnostic(*snap, diag("execution_plan[0].outputs[0]"));
        QCOMPARE(t.value, 5);
        t = resolveDiagnostic(*snap, diag("execution_plan[0].inputs[0]"));
        QCOMPARE(t.value, 0);

        t = resolveDiagnostic(*snap, diag("execution_plan[0].chains[0]"));
        QCOMPARE(t.chain, 0);
        QCOMPARE(t.instruction, -1);

        t = resolveDiagnostic(*snap, diag("execution_plan[0].operators[1]"));
        QCOMPARE(t.method, QStringLiteral("forward"));
        QCOMPARE(t.value, -1);
        QCOMPARE(t.instruction, -1);

        QVERIFY(!resolveDiagnostic(*snap, diag("execution_plan[9].values[0]")).isValid());
        QVERIFY(!resolveDiagnostic(*snap, diag("constant_segment.offsets[2]")).isValid());
        QVERIFY(!resolveDiagnostic(*snap, diag("")).isValid());
    }

    void resolvesDumpNodes()
    {
        auto snap = fixtures::makeSnapshot();
        auto ep = std::make_shared<pte::ExportedProgram>(*snap->dumpMethods.front().program);
        for (std::size_t i = 0; i < ep->graph.nodes.size(); ++i)
            ep->graph.nodes[i].jsonPath = "graph_module.graph.nodes[" + std::to_string(i) + "]";
        snap->dumpMethods.front().program = ep;
        snap->finalize();
        const std::string file = ep->source;

        // By JSON path (longest prefix at a boundary).
        auto t = resolveDiagnostic(*snap, diag("graph_module.graph.nodes[1].inputs[0].arg", "odd argument", file));
        QCOMPARE(t.method, QStringLiteral("forward"));
        QCOMPARE(t.nodes, QStringList { QStringLiteral("mul") });
        t = resolveDiagnostic(*snap, diag("graph_module.graph.nodes[2]", "x", file));
        QCOMPARE(t.nodes, QStringList { QStringLiteral("copy") });
        // "nodes[1" is not "nodes[10]".
        t = resolveDiagnostic(*snap, diag("graph_module.graph.nodes[10]", "x", file));
        QCOMPARE(t.method, QStringLiteral("forward"));
        QVERIFY(t.nodes.isEmpty());
        // By the node the message names.
        t = resolveDiagnostic(*snap,
            diag("", "method 'forward': node 'add' (torch.ops.aten.add.Tensor): unknown operator", "somewhere-else"));
        QCOMPARE(t.method, QStringLiteral("forward"));
        QCOMPARE(t.nodes, QStringList { QStringLiteral("add") });
        // By the input the message names: its placeholder.
        t = resolveDiagnostic(*snap, diag("", "method 'forward': mutable buffer 'running' is memory planned", file));
        QCOMPARE(t.nodes, QStringList { QStringLiteral("buf") });
        t = resolveDiagnostic(*snap, diag("", "parameter 'lin.weight' is odd", file));
        QCOMPARE(t.nodes, QStringList { QStringLiteral("w") });
        // Neither file nor method matches.
        QVERIFY(!resolveDiagnostic(*snap, diag("graph_module.graph.nodes[0]", "x", "other.pt2")).isValid());
    }
};

QTEST_MAIN(TestDiagnosticTarget)
#include "tst_diagnostictarget.moc"
