// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// An ETRecord over a program that ran on a real XNNPACK backend: the bundled example (an ETRecord whose forward
// delegates relu(x * x) to XNNPACK) is emitted, run three times on etrt_runner_xnnpack with --etdump, and profiled with
// its ETRecord. XNNPACK names its events by label ("Square (NC) #1"), which no delegate map holds, so ExecuTorch's
// Inspector leaves their op types and module hierarchy empty; ptelens aligns the events with the inner nodes (the
// runtime runs the one Multiply of x by itself as a Square followed by the Clamp of its output range) and ties each to
// the node's debug handles and, through the ETRecord, to the source nodes: aten.mul.Tensor and the relu fused into it.
// Checked through the core API, `ptelens-cli profile --json` and `ptelens-cli delegates --etdump`. Skipped when the
// XNNPACK runner is missing.
#include "etrunner.h"
#include "pte/alignedsources.h"
#include "pte/delegateetdump.h"
#include "pte/delegatelink.h"
#include "pte/dumpreader.h"
#include "pte/etdump.h"
#include "pte/etdumpjoin.h"
#include "pte/profiletable.h"
#include "pte/ptereader.h"
#include "testutils.h"

#include <QTemporaryDir>
#include <QTest>

#include <nlohmann/json.hpp>

using namespace pte;
using Json = nlohmann::json;

namespace {

constexpr int kRuns = 3;

QString builtExample()
{
    return qEnvironmentVariable("PTELENS_BUILD_DIR") + QStringLiteral("/examples/example.etrecord");
}

const std::vector<std::int64_t> kMulAndRelu { 2, 3 }; // the handles of aten_mul_tensor and of the relu fused into it
const std::vector<std::string> kOpTypes { "aten.mul.Tensor", "aten.relu.default" };

} // namespace

class TestXnnpackEtrecordProfile : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_pte;
    QString m_etdump;

private Q_SLOTS:
    void initTestCase()
    {
        PTE_REQUIRE_ET_RUNNER_XNNPACK();
        QVERIFY(m_dir.isValid());
        m_pte = m_dir.filePath(QStringLiteral("example.pte"));
        m_etdump = m_dir.filePath(QStringLiteral("example.etdp"));
        QByteArray err;
        QCOMPARE(
            test::runCli({ QStringLiteral("emit"), builtExample(), QStringLiteral("-o"), m_pte }, nullptr, &err), 0);
        const auto problem = test::runXnnpackWithEtdump(m_pte, m_etdump, kRuns);
        QVERIFY2(!problem, problem ? problem->c_str() : "");
    }

    // The core API: the rows of XNNPACK's events take the handles, op types and module hierarchy of the source nodes.
    void rowsTakeTheAlignedNodesSources()
    {
        auto file = readPteFile(m_pte.toStdString());
        QVERIFY_RESULT(file);
        auto etrecord = readDump(builtExample().toStdString());
        QVERIFY_RESULT(etrecord);
        QVERIFY((*etrecord)->etrecordMaps);
        auto dump = readEtdumpFile(m_etdump.toStdString());
        QVERIFY_RESULT(dump);
        auto join =
            joinEtdump(*dump, makeEtdumpSources((*file)->program, &*(*etrecord)->etrecordMaps, (*etrecord)->methods));
        QVERIFY_RESULT(join);
        auto table = buildProfileTable(**dump, join->get());
        QVERIFY_RESULT(table);

        // What the Inspector has: the identifier is the label, which the call's delegate map does not hold.
        std::vector<std::string> labels;
        for (const auto& row : table->rows)
            if (row.isDelegatedOp) {
                labels.push_back(row.eventName);
                QCOMPARE(row.mapping, DelegateMapping::Unmapped);
                QVERIFY(row.opTypes.empty() && row.debugHandles.empty() && row.moduleHierarchy.empty());
            }
        QCOMPARE(labels, (std::vector<std::string> { "Square (NC) #1", "Clamp (NC) #1" }));

        const PayloadDataSources sources { (*file)->program.get(), nullptr, nullptr };
        const auto delegates = decodeProgramDelegates(*(*file)->program, sources, m_pte.toStdString());
        QCOMPARE(delegates.size(), std::size_t(1));
        SourceGraphIndex index;
        addMethodGraphs(index, (*etrecord)->methods);
        const std::vector<DelegateLinks> links { linkProgramDelegate(
            delegates[0], debugMapsView(*(*etrecord)->etrecordMaps), &index) };
        const auto placed = alignEtdumpDelegates(**dump, join->get(), delegates);
        QVERIFY(placed.problem.empty());
        QCOMPARE(placed.calls.size(), std::size_t(kRuns));
        for (const auto& call : placed.calls) {
            QCOMPARE(call.alignment.quality, AlignmentQuality::Exact);
            QCOMPARE(call.alignment.eventNode, (std::vector<std::int32_t> { 0, 0 }));
        }

        QCOMPARE(attachAlignedSources(*table, placed, delegates, links), std::size_t(2));
        for (const auto& row : table->rows) {
            if (!row.isDelegatedOp)
                continue;
            QCOMPARE(row.mapping, DelegateMapping::Aligned);
            QCOMPARE(row.debugHandles, kMulAndRelu);
            QCOMPARE(row.opTypes, kOpTypes);
            QCOMPARE(row.moduleHierarchy.size(), std::size_t(2));
            for (const auto& [node, stack] : row.moduleHierarchy)
                QVERIFY2(stack.find("example.CountingScaler") != std::string::npos, stack.c_str());
            QCOMPARE(row.raw.size(), std::size_t(kRuns));
        }
        // The rows of the other events are the Inspector's, untouched.
        for (const auto& row : table->rows)
            if (row.eventName == "DELEGATE_CALL")
                QCOMPARE(row.debugHandles, kMulAndRelu);
    }

    // ptelens-cli profile: with the ETRecord, the Inspector columns of XNNPACK's rows filled; without it, the inner
    // node's own handle (the payload carries it) and no source nodes.
    void cliProfile()
    {
        QByteArray out;
        QByteArray err;
        QCOMPARE(test::runCli({ QStringLiteral("profile"), m_etdump, QStringLiteral("--program"), m_pte,
                                  QStringLiteral("--etrecord"), builtExample(), QStringLiteral("--json") },
                     &out, &err),
            0);
        const Json withEtrecord = Json::parse(out.toStdString());
        std::size_t delegated = 0;
        for (const auto& r : withEtrecord["rows"]) {
            if (!r["is_delegated_op"].get<bool>())
                continue;
            ++delegated;
            QCOMPARE(r["delegate_mapping"].get<std::string>(), std::string("aligned"));
            QCOMPARE(r["delegate_backend_name"].get<std::string>(), std::string("XnnpackBackend"));
            QCOMPARE(r["debug_handles"].get<std::vector<std::int64_t>>(), kMulAndRelu);
            QCOMPARE(r["op_types"].get<std::vector<std::string>>(), kOpTypes);
            QCOMPARE(r["module_hierarchy"].size(), std::size_t(2));
        }
        QCOMPARE(delegated, std::size_t(2));

        QCOMPARE(test::runCli({ QStringLiteral("profile"), m_etdump, QStringLiteral("--program"), m_pte,
                                  QStringLiteral("--json") },
                     &out, &err),
            0);
        const Json withoutEtrecord = Json::parse(out.toStdString());
        delegated = 0;
        for (const auto& r : withoutEtrecord["rows"]) {
            if (!r["is_delegated_op"].get<bool>())
                continue;
            ++delegated;
            QCOMPARE(r["delegate_mapping"].get<std::string>(), std::string("aligned"));
            QCOMPARE(r["debug_handles"].get<std::vector<std::int64_t>>(), std::vector<std::int64_t> { 2 });
            QVERIFY(r["op_types"].empty() && r["module_hierarchy"].empty());
        }
        QCOMPARE(delegated, std::size_t(2));
    }

    // With every intermediate logged, the delegate call's logged outputs are compared with the reference
    // interpreter, which runs the XNNPACK graph: relu(x * x) of the runner's pattern input.
    void delegateOutputsHaveAReferenceGap()
    {
        const QString etdump = m_dir.filePath(QStringLiteral("logged.etdp"));
        const QString buffer = m_dir.filePath(QStringLiteral("logged.bin"));
        const auto problem = test::runXnnpackWithEtdump(m_pte, etdump, 1, buffer);
        QVERIFY2(!problem, problem ? problem->c_str() : "");
        QByteArray out;
        QByteArray err;
        QCOMPARE(test::runCli({ QStringLiteral("profile"), etdump, QStringLiteral("--program"), m_pte,
                                  QStringLiteral("--debug-buffer"), buffer, QStringLiteral("--reference-inputs"),
                                  QStringLiteral("pattern"), QStringLiteral("--json") },
                     &out, &err),
            0);
        const Json j = Json::parse(out.toStdString());
        const Json* forward = nullptr;
        for (const auto& gap : j["reference"]) // the runner ran both methods: forward and scale
            if (gap["method"] == "forward")
                forward = &gap;
        QVERIFY(forward);
        std::size_t delegateRows = 0;
        for (const auto& row : (*forward)["values"]) {
            if (row["operator"] != "delegate XnnpackBackend")
                continue;
            ++delegateRows;
            QVERIFY2(row["reason"].is_null(), row.dump().c_str());
            QVERIFY2(row["mse"].get<double>() < 1e-12, row.dump().c_str());
        }
        QVERIFY(delegateRows >= 1);
    }

    // ptelens-cli delegates: both events on the one Multiply, exactly, in each of the three calls.
    void cliDelegates()
    {
        QByteArray out;
        QByteArray err;
        QCOMPARE(test::runCli({ QStringLiteral("delegates"), m_pte, QStringLiteral("--etrecord"), builtExample(),
                                  QStringLiteral("--etdump"), m_etdump },
                     &out, &err),
            0);
        const QString text = QString::fromUtf8(out);
        QCOMPARE(text.count(QStringLiteral("alignment exact")), kRuns);
        QCOMPARE(text.count(QStringLiteral("\"Square (NC) #1\"")), kRuns);
        QCOMPARE(text.count(QStringLiteral("-> node 0 Multiply handle 2")), 2 * kRuns);
        QVERIFY2(!text.contains(QStringLiteral("unplaced")), out.constData());
    }
};

QTEST_GUILESS_MAIN(TestXnnpackEtrecordProfile)
#include "tst_xnnpack_etrecord_profile.moc"
