// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// `ptelens-cli emit` end to end on the hand-written dumps in tests/data/emit.
#include "pte/ptereader.h"
#include "pte/referenceinterpreter.h"
#include "testutils.h"

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

using namespace pte;

class TestCliEmit : public QObject
{
    Q_OBJECT
private:
    static QString data(const char* name)
    {
        return test::testDataDir() + QStringLiteral("/emit/") + QLatin1String(name);
    }
    static QString out(const char* name) { return test::tempDir() + QLatin1Char('/') + QLatin1String(name); }

private Q_SLOTS:
    void emitsWithMapsAndCoverage()
    {
        QByteArray stdOut, stdErr;
        const int rc = test::runCli({ QStringLiteral("emit"), data("add_mul.json"), QStringLiteral("-o"), out("am.pte"),
                                        QStringLiteral("--debug-maps"), out("am.json"), QStringLiteral("--coverage"),
                                        QStringLiteral("--emit-stacktrace") },
            &stdOut, &stdErr);
        QCOMPARE(rc, 0);
        QVERIFY(stdOut.contains("aten::add.out  portable\n"));
        QVERIFY(stdOut.contains("aten::mul.Scalar_out  portable\n"));
        QVERIFY(stdOut.contains("every operator is in the portable library"));
        QVERIFY(stdOut.contains("1 plan(s), 2 instruction(s)"));
        auto file = readPteFile(out("am.pte").toStdString());
        QVERIFY_RESULT(file);
        QVERIFY((*file)->runtimeWouldAccept());
        const auto& plan = (*file)->program->executionPlan.at(0);
        QCOMPARE(plan.name, std::string("forward"));
        QCOMPARE(plan.nonConstBufferSizes, std::vector<std::int64_t>({ 0, 96 }));
        QCOMPARE(plan.chains.at(0).stacktrace->size(), std::size_t(2));
        QCOMPARE(*plan.chains[0].stacktrace->at(0).items.at(0).filename, std::string("/src/m.py"));
        QFile maps(out("am.json"));
        QVERIFY(maps.open(QIODevice::ReadOnly));
        const auto doc = QJsonDocument::fromJson(maps.readAll()).object();
        QCOMPARE(doc[QStringLiteral("debug_handle_map")][QStringLiteral("forward")][QStringLiteral("0")].toInt(), 1);
        QCOMPARE(doc[QStringLiteral("debug_handle_map")][QStringLiteral("forward")][QStringLiteral("1")].toInt(), 2);
        QVERIFY(doc[QStringLiteral("delegate_map")][QStringLiteral("forward")].toObject().isEmpty());
        QVERIFY(doc.contains(QStringLiteral("instruction_id_to_num_outs_map")));
    }

    void emitsTwoNamedMethods()
    {
        QByteArray stdOut, stdErr;
        const int rc =
            test::runCli({ QStringLiteral("emit"), QStringLiteral("--method"),
                             QStringLiteral("step=") + data("counter.json"), QStringLiteral("--method"),
                             QStringLiteral("add=") + data("add_mul.json"), QStringLiteral("-o"), out("two.pte") },
                &stdOut, &stdErr);
        QCOMPARE(rc, 0);
        auto file = readPteFile(out("two.pte").toStdString());
        QVERIFY_RESULT(file);
        QVERIFY((*file)->runtimeWouldAccept());
        const auto& p = *(*file)->program;
        QCOMPARE(p.executionPlan.size(), std::size_t(2));
        QCOMPARE(p.executionPlan[0].name, std::string("add"));
        QCOMPARE(p.executionPlan[1].name, std::string("step"));
        // The counter's buffer is written back with aten::copy_ and its mutation is not an output.
        const auto& step = p.executionPlan[1];
        QCOMPARE(step.operators.back().qualifiedName(), std::string("aten::copy_"));
        QCOMPARE(step.outputs.size(), std::size_t(1));
        QCOMPARE(step.inputs.size(), std::size_t(1));
    }

    void initialisesMutableBuffersOnRequest()
    {
        // counter.json is bare JSON: no bytes for `steps`. --init-mutable-buffers alone warns and leaves the
        // buffer uninitialised; with --zero-fill-missing-weights its initial state (0) goes to the mutable data
        // segment, and the first call of the program counts from it.
        QByteArray stdOut, stdErr;
        QCOMPARE(test::runCli({ QStringLiteral("emit"), data("counter.json"), QStringLiteral("-o"), out("c0.pte"),
                                  QStringLiteral("--init-mutable-buffers") },
                     &stdOut, &stdErr),
            0);
        QVERIFY2(stdErr.contains("mutable buffer 'steps' has no bytes in the dump"), stdErr.constData());
        auto plain = readPteFile(out("c0.pte").toStdString());
        QVERIFY_RESULT(plain);
        QVERIFY(!(*plain)->program->mutableDataSegments || (*plain)->program->mutableDataSegments->empty());

        QCOMPARE(
            test::runCli({ QStringLiteral("emit"), data("counter.json"), QStringLiteral("-o"), out("c1.pte"),
                             QStringLiteral("--init-mutable-buffers"), QStringLiteral("--zero-fill-missing-weights") },
                &stdOut, &stdErr),
            0);
        auto file = readPteFile(out("c1.pte").toStdString());
        QVERIFY_RESULT(file);
        QVERIFY((*file)->runtimeWouldAccept());
        const auto& program = *(*file)->program;
        QVERIFY(program.mutableDataSegments && program.mutableDataSegments->size() == 1);
        const auto& plan = program.executionPlan.at(0);
        const Tensor* steps = nullptr; // the one planned tensor with an initial state
        for (const auto& v : plan.values)
            if (const auto* t = v.tensor(); t && t->allocationInfo && t->dataBufferIdx > 0) {
                QVERIFY(!steps);
                steps = t;
            }
        QVERIFY(steps);
        QCOMPARE(int(steps->scalarType), int(ScalarType::Long));
        QCOMPARE(steps->dataBufferIdx, std::uint32_t(1));
        auto rt = ReferenceInterpreter::load(program, "forward");
        QVERIFY_RESULT(rt);
        QVERIFY_RESULT((*rt)->run({ HostTensor::floats({ 4 }, { 1, 2, 3, 4 }) }));
        auto now =
            (*rt)->readPlanned(steps->allocationInfo->memoryId, steps->allocationInfo->offset(), ScalarType::Long, 1);
        QVERIFY_RESULT(now);
        QCOMPARE(now->at(0), 1.0);
    }

    void failsWithStableExitCodes_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QString>("message");
        QTest::addRow("no-arguments") << QStringList { QStringLiteral("emit") } << 2 << "expected at least one DUMP";
        QTest::addRow("no-output") << QStringList { QStringLiteral("emit"), data("add_mul.json") } << 2 << "-o OUT.pte";
        QTest::addRow("missing-dump") << QStringList { QStringLiteral("emit"), out("nope.json"), QStringLiteral("-o"),
            out("x.pte") } << 1 << "nope.json";
        QTest::addRow("overwrite-input") << QStringList { QStringLiteral("emit"), data("add_mul.json"),
            QStringLiteral("-o"), data("add_mul.json") }
                                         << 2 << "refusing to overwrite";
        QTest::addRow("bad-method") << QStringList { QStringLiteral("emit"), QStringLiteral("--method"),
            QStringLiteral("x"), QStringLiteral("-o"), out("x.pte") }
                                    << 2 << "NAME=DUMP";
        QTest::addRow("duplicate-method") << QStringList { QStringLiteral("emit"), data("add_mul.json"),
            data("counter.json"), QStringLiteral("-o"), out("x.pte") }
                                          << 2 << "comes from both";
    }
    void failsWithStableExitCodes()
    {
        QFETCH(QStringList, args);
        QFETCH(int, exitCode);
        QFETCH(QString, message);
        QByteArray stdOut, stdErr;
        QCOMPARE(test::runCli(args, &stdOut, &stdErr), exitCode);
        QVERIFY2(stdErr.contains(message.toUtf8()), stdErr.constData());
        QVERIFY(!QFile::exists(out("x.pte")));
    }
};

QTEST_GUILESS_MAIN(TestCliEmit)
#include "tst_cli_emit.moc"
