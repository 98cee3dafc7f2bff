// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// Real XNNPACK profiles, end to end: the corpus programs with XNNPACK delegates run on ExecuTorch's runtime with its
// XNNPACK backend (etrt_runner_xnnpack, three runs, --etdump), and the ETDump it writes is opened over the program.
// Every XNNPACK operator event lands on exactly one inner node (exact alignment: per call, as many events as the
// partition has inner nodes, each node once) through the core API and `ptelens-cli delegates --etdump`; the profile
// rows of those events carry the backend name and the delegate debug identifier (core table and `ptelens-cli
// profile --json`); an ETDump of another program is said not to align, in one sentence, and nothing is joined; one
// whose delegate call ran another payload (fused differently) aligns as failed, with notes.
// Skipped when the corpus or the runner is missing.
#include "etrunner.h"
#include "pte/delegateetdump.h"
#include "pte/delegatepayload.h"
#include "pte/etdump.h"
#include "pte/etdumpjoin.h"
#include "pte/profiletable.h"
#include "pte/ptereader.h"
#include "testutils.h"

#include <QFileInfo>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <map>
#include <nlohmann/json.hpp>
#include <numeric>
#include <set>

using namespace pte;
using Json = nlohmann::json;

Q_DECLARE_METATYPE(std::vector<std::size_t>)

namespace {

using namespace pte::test::xnnpackfixtures;
const QString kQuantized = QStringLiteral("pte/corey-cole_executorch-numpy-runtime__tests__models__quantized.pte");
const QString kDynamic = QStringLiteral("pte/corey-cole_executorch-numpy-runtime__tests__models__dynamic.pte");
const QString kAdd2023 = QStringLiteral("pte/pytorch_executorch__xnnpack_add.pte");

constexpr int kRuns = 3;

/** A program opened with its delegates decoded. */
struct Opened
{
    std::shared_ptr<const PteFile> file;
    std::vector<ProgramDelegate> delegates;
};

Result<Opened> openProgram(const QString& path)
{
    Opened out;
    PTE_TRY(out.file, readPteFile(path.toStdString()));
    const PayloadDataSources sources { out.file->program.get(),
        out.file->externalData ? &*out.file->externalData : nullptr, nullptr };
    out.delegates = decodeProgramDelegates(*out.file->program, sources, path.toStdString());
    return out;
}

/** Rows for the fixtures: the program and the XNNPACK events of each delegate's call (its inner nodes). */
void addFixtures()
{
    QTest::addColumn<QString>("program");
    QTest::addColumn<std::vector<std::size_t>>("events");
    if (!test::corpusRowsAvailable())
        return;
    // Counted by hand from `ptelens-cli delegates` (nodes per payload) and the runner's ETDump (events per call).
    QTest::newRow("corpus yolox_nano_xnnpack") << kYolox << std::vector<std::size_t> { 168, 29, 177, 2 };
    QTest::newRow("corpus stress_mlp") << kStressMlp << std::vector<std::size_t> { 2, 13 };
    QTest::newRow("corpus xnnpack_simpleconv") << kSimpleConv << std::vector<std::size_t> { 7 };
    QTest::newRow("corpus simple-torch-model") << kSimpleModel << std::vector<std::size_t> { 5, 1 };
    QTest::newRow("corpus quantized") << kQuantized << std::vector<std::size_t> { 3 };
    QTest::newRow("corpus dynamic") << kDynamic << std::vector<std::size_t> { 1 };
    QTest::newRow("corpus xnnpack_add (2023)") << kAdd2023 << std::vector<std::size_t> { 1 };
}

} // namespace

class TestXnnpackProfile : public QObject
{
    Q_OBJECT

    test::CorpusXnnpackEtdumps m_etdumps { kRuns };

    QString etdumpOf(const QString& relative) { return m_etdumps.of(relative); }

private Q_SLOTS:
    void initTestCase() { qRegisterMetaType<std::vector<std::size_t>>(); }

    // Each XNNPACK event of each run maps to exactly one inner node of the partition its DelegateCall ran: per call
    // as many events as inner nodes, every node once, none skipped or runtime-inserted; the CLI says the same.
    void everyXnnpackEventLandsOnOneInnerNode_data() { addFixtures(); }
    void everyXnnpackEventLandsOnOneInnerNode()
    {
        PTE_REQUIRE_CORPUS_ROW();
        PTE_REQUIRE_ET_RUNNER_XNNPACK();
        QFETCH(QString, program);
        QFETCH(std::vector<std::size_t>, events);
        auto opened = openProgram(test::corpusPath(program));
        QVERIFY_RESULT(opened);
        const auto& delegates = opened->delegates;
        QCOMPARE(delegates.size(), events.size());
        for (std::size_t d = 0; d < delegates.size(); ++d) {
            QCOMPARE(QString::fromStdString(delegates[d].payload->backendId), QStringLiteral("XnnpackBackend"));
            QVERIFY(delegates[d].payload->graphDecoded);
            QCOMPARE(delegates[d].payload->nodes.size(), events[d]);
            QCOMPARE(delegates[d].calls.size(), std::size_t(1));
        }
        const QString etdump = etdumpOf(program);
        QVERIFY(!etdump.isEmpty());
        auto dump = readEtdumpFile(etdump.toStdString());
        QVERIFY_RESULT(dump);
        auto join = joinEtdump(*dump, makeEtdumpSources(opened->file->program));
        QVERIFY_RESULT(join);
        QVERIFY2(!(*join)->hasMismatch(), (*join)->mismatchSummary().c_str());

        const auto placed = alignEtdumpDelegates(**dump, join->get(), delegates);
        QVERIFY2(placed.problem.empty(), placed.problem.c_str());
        QCOMPARE(placed.unjoinedGroups, std::size_t(0));
        QCOMPARE(placed.strayGroups, std::size_t(0));
        QCOMPARE(placed.groups.size(), kRuns * delegates.size()); // one group per run and delegate call
        QCOMPARE(placed.calls.size(), placed.groups.size());
        std::map<std::size_t, int> callsPerDelegate;
        std::size_t delegatedEvents = 0;
        for (const auto& call : placed.calls) {
            const auto& g = placed.groups[call.group];
            const auto& d = delegates[call.delegate];
            ++callsPerDelegate[call.delegate];
            QCOMPARE((*dump)->runs[g.run].name, std::string("Execute"));
            QCOMPARE(std::uint32_t(g.group.chainIndex), d.calls.front().first);
            QCOMPARE(std::uint32_t(g.group.instructionId), d.calls.front().second);
            const auto& a = call.alignment;
            const std::string where = "delegate " + std::to_string(call.delegate) + ", block " + std::to_string(g.run)
                + ": " + (a.notes.empty() ? std::string() : a.notes.front());
            QVERIFY2(a.quality == AlignmentQuality::Exact, where.c_str());
            QCOMPARE(g.group.events.size(), events[call.delegate]); // per partition: one event per inner node
            QCOMPARE(a.eventNode.size(), g.group.events.size());
            QVERIFY(a.skippedNodes.empty());
            QVERIFY(a.unmatchedNodes.empty());
            std::vector<int> hits(d.payload->nodes.size(), 0);
            for (std::size_t k = 0; k < a.eventNode.size(); ++k) {
                const std::int32_t n = a.eventNode[k];
                QVERIFY2(n >= 0 && std::size_t(n) < hits.size(),
                    ("event " + std::to_string(k) + " '" + g.group.events[k].label + "' has no inner node").c_str());
                ++hits[std::size_t(n)];
                // The ETDump event behind it is a delegate event of this call.
                const auto& e = (*dump)->events[g.events[k]];
                QVERIFY(e.isDelegateEvent());
                QCOMPARE((*dump)->delegateIdentifier(e), g.group.events[k].label);
            }
            QVERIFY(std::all_of(hits.begin(), hits.end(), [](int h) { return h == 1; }));
            delegatedEvents += g.group.events.size();
        }
        for (std::size_t d = 0; d < delegates.size(); ++d)
            QCOMPARE(callsPerDelegate[d], kRuns);
        QCOMPARE(delegatedEvents, kRuns * std::accumulate(events.begin(), events.end(), std::size_t(0)));
        qInfo("%s: XNNPACK events per partition and run %s, %zu in all", qPrintable(program),
            Json(events).dump().c_str(), delegatedEvents);

        // The CLI over the same files: every call exact, every event on its own node.
        QByteArray out;
        QByteArray err;
        QCOMPARE(test::runCli({ QStringLiteral("delegates"), test::corpusPath(program), QStringLiteral("--etdump"),
                                  etdump, QStringLiteral("--json") },
                     &out, &err),
            0);
        const Json j = Json::parse(out.toStdString());
        QVERIFY(j["etdump_problem"].is_null());
        QCOMPARE(j["delegates"].size(), events.size());
        for (std::size_t d = 0; d < events.size(); ++d) {
            const auto& profiles = j["delegates"][d]["profile"];
            QCOMPARE(profiles.size(), std::size_t(kRuns));
            for (const auto& p : profiles) {
                QCOMPARE(p["quality"].get<std::string>(), std::string("exact"));
                QCOMPARE(p["events"].size(), events[d]);
                std::set<int> nodes;
                for (const auto& e : p["events"]) {
                    QVERIFY(e["node"].is_number_integer());
                    QVERIFY(!e["runtime_inserted"].get<bool>());
                    nodes.insert(e["node"].get<int>());
                }
                QCOMPARE(nodes.size(), events[d]);
                QVERIFY(p["skipped_nodes"].empty());
                QVERIFY(p["unmatched_nodes"].empty());
            }
        }
    }

    // The Inspector's columns of the delegated rows: is_delegated_op, delegate_debug_identifier (XNNPACK's operator
    // label, also the event name) and delegate_backend_name (the DelegateCall's backend), in the core table and in
    // `ptelens-cli profile --json`; the DELEGATE_CALL rows name the backend but are no delegated op.
    void profileRowsCarryTheDelegateColumns_data() { addFixtures(); }
    void profileRowsCarryTheDelegateColumns()
    {
        PTE_REQUIRE_CORPUS_ROW();
        PTE_REQUIRE_ET_RUNNER_XNNPACK();
        QFETCH(QString, program);
        QFETCH(std::vector<std::size_t>, events);
        auto opened = openProgram(test::corpusPath(program));
        QVERIFY_RESULT(opened);
        const QString etdump = etdumpOf(program);
        QVERIFY(!etdump.isEmpty());
        auto dump = readEtdumpFile(etdump.toStdString());
        QVERIFY_RESULT(dump);
        auto join = joinEtdump(*dump, makeEtdumpSources(opened->file->program));
        QVERIFY_RESULT(join);
        auto table = buildProfileTable(**dump, join->get());
        QVERIFY_RESULT(table);
        const auto& plan = opened->file->program->executionPlan.at(0);
        std::size_t delegated = 0;
        std::size_t delegateCalls = 0;
        for (const auto& row : table->rows) {
            if (row.eventName == "DELEGATE_CALL") {
                QVERIFY(!row.isDelegatedOp);
                QCOMPARE(row.delegateBackendName, std::string("XnnpackBackend"));
                ++delegateCalls;
                continue;
            }
            if (!row.isDelegatedOp) {
                QVERIFY(row.delegateBackendName.empty());
                QVERIFY(!row.delegateIdStr && !row.delegateIdInt);
                continue;
            }
            ++delegated;
            QCOMPARE(table->blocks[row.block].name, std::string("Execute"));
            QVERIFY(row.delegateIdStr);
            QVERIFY(!row.delegateIdInt);
            QCOMPARE(*row.delegateIdStr, row.eventName);
            QCOMPARE(row.delegateIdentifier(), row.eventName);
            QCOMPARE(row.delegateBackendName, std::string("XnnpackBackend"));
            QCOMPARE(row.raw.size(), std::size_t(kRuns));
            QVERIFY(row.instruction >= 0);
            const auto& in = plan.chains.at(std::size_t(row.chain)).instructions.at(std::size_t(row.instruction));
            QCOMPARE(in.kind(), InstructionKind::DelegateCall);
            QCOMPARE(row.mapping, DelegateMapping::NoMap); // no ETRecord: no delegate map to resolve it through
        }
        // One row per event of a call (the runs merged), one DELEGATE_CALL row per partition.
        QCOMPARE(delegated, std::accumulate(events.begin(), events.end(), std::size_t(0)));
        QCOMPARE(delegateCalls, events.size());

        QByteArray out;
        QByteArray err;
        QCOMPARE(test::runCli({ QStringLiteral("profile"), etdump, QStringLiteral("--program"),
                                  test::corpusPath(program), QStringLiteral("--json") },
                     &out, &err),
            0);
        const Json j = Json::parse(out.toStdString());
        std::size_t cliDelegated = 0;
        std::size_t aligned = 0;
        for (const auto& r : j["rows"]) {
            if (!r["is_delegated_op"].get<bool>()) {
                if (r["event_name"] != "DELEGATE_CALL")
                    QVERIFY(r["delegate_backend_name"].is_null());
                continue;
            }
            ++cliDelegated;
            QCOMPARE(r["delegate_backend_name"].get<std::string>(), std::string("XnnpackBackend"));
            QVERIFY(r["delegate_debug_identifier"].is_string());
            QVERIFY(r["delegate_debug_identifier"] == r["event_name"]);
            // Without an ETRecord the CLI still ties each event to the debug handle of the inner node it aligns with
            // (pte/alignedsources.h); events of transposes the backend inserted (handle 65535) keep no handle.
            const auto mapping = r["delegate_mapping"].get<std::string>();
            if (mapping == "aligned") {
                ++aligned;
                const auto handles = r["debug_handles"].get<std::vector<std::int64_t>>();
                QVERIFY(!handles.empty());
                QVERIFY(std::find(handles.begin(), handles.end(), kBackendInsertedHandle) == handles.end());
                QVERIFY(r["op_types"].empty()); // no source graph to name them
            } else {
                QCOMPARE(mapping, std::string("no_map"));
                QVERIFY(r["debug_handles"].empty());
            }
        }
        QCOMPARE(cliDelegated, delegated);
        QVERIFY(aligned > 0);
    }

    // An ETDump of one corpus program over another: the join refuses its blocks, so no event is aligned to the
    // other program's inner nodes, and the reason is one sentence (core, and `delegates` exits 1 printing it).
    void anotherProgramsEtdumpIsNotAligned_data()
    {
        QTest::addColumn<QString>("recorded");
        QTest::addColumn<QString>("program");
        QTest::addColumn<QString>("reason");
        if (!test::corpusRowsAvailable())
            return;
        QTest::newRow("corpus simpleconv's over stress_mlp")
            << kSimpleConv << kStressMlp
            << "this ETDump was recorded from another program: delegate event 'Transpose (ND, X32) #1' at instruction "
               "0, which is a KernelCall dim_order_ops::_to_dim_order_copy.out in method 'forward'";
        QTest::newRow("corpus stress_mlp's over yolox") << kStressMlp << kYolox
                                                        << "this ETDump was recorded from another program: event "
                                                           "'native_call__to_dim_order_copy.out' at instruction 0, "
                                                           "which is a KernelCall aten::arange.start_out in method "
                                                           "'forward'";
        QTest::newRow("corpus yolox's over simpleconv")
            << kYolox << kSimpleConv
            << "this ETDump was recorded from another program: 1 instructions expected, 27 found";
        QTest::newRow("corpus simple-torch-model's over simpleconv")
            << kSimpleModel << kSimpleConv
            << "this ETDump was recorded from another program: 1 instructions expected, 2 found";
    }
    void anotherProgramsEtdumpIsNotAligned()
    {
        PTE_REQUIRE_CORPUS_ROW();
        PTE_REQUIRE_ET_RUNNER_XNNPACK();
        QFETCH(QString, recorded);
        QFETCH(QString, program);
        QFETCH(QString, reason);
        auto opened = openProgram(test::corpusPath(program));
        QVERIFY_RESULT(opened);
        const QString etdump = etdumpOf(recorded);
        QVERIFY(!etdump.isEmpty());
        auto dump = readEtdumpFile(etdump.toStdString());
        QVERIFY_RESULT(dump);
        auto join = joinEtdump(*dump, makeEtdumpSources(opened->file->program));
        QVERIFY_RESULT(join);
        QVERIFY((*join)->hasMismatch());
        const auto placed = alignEtdumpDelegates(**dump, join->get(), opened->delegates);
        QVERIFY(!placed.groups.empty());
        QVERIFY(placed.calls.empty()); // no silent join
        QCOMPARE(placed.unjoinedGroups, placed.groups.size());
        QCOMPARE(QString::fromStdString(placed.problem), reason);
        QVERIFY(!placed.problem.empty() && placed.problem.find('\n') == std::string::npos);

        QByteArray out;
        QByteArray err;
        QCOMPARE(
            test::runCli({ QStringLiteral("delegates"), test::corpusPath(program), QStringLiteral("--etdump"), etdump },
                &out, &err),
            1);
        QVERIFY2(out.contains(QStringLiteral(": not aligned: %1\n").arg(reason).toUtf8()), out.constData());
        QVERIFY(!out.contains("  profile: "));
        QCOMPARE(test::runCli({ QStringLiteral("delegates"), test::corpusPath(program), QStringLiteral("--etdump"),
                                  etdump, QStringLiteral("--json") },
                     &out, &err),
            1);
        const Json j = Json::parse(out.toStdString());
        QCOMPARE(QString::fromStdString(j["etdump_problem"].get<std::string>()), reason);
        for (const auto& d : j["delegates"])
            QVERIFY(d["profile"].empty());
    }

    // An ETDump the join accepts but whose delegate call ran another partition (simpleconv's seven events on the
    // first partition of simple-torch-model, both at instruction 0): the calls align as failed, with the note that
    // says which event matched no node; the CLI prints it and exits 0 (the events were placed, not aligned).
    void aPartitionThatFusedDifferentlyFailsWithNotes()
    {
        PTE_REQUIRE_CORPUS();
        PTE_REQUIRE_ET_RUNNER_XNNPACK();
        auto opened = openProgram(test::corpusPath(kSimpleModel));
        QVERIFY_RESULT(opened);
        const QString etdump = etdumpOf(kSimpleConv);
        QVERIFY(!etdump.isEmpty());
        auto dump = readEtdumpFile(etdump.toStdString());
        QVERIFY_RESULT(dump);
        auto join = joinEtdump(*dump, makeEtdumpSources(opened->file->program));
        QVERIFY_RESULT(join);
        QVERIFY(!(*join)->hasMismatch());
        const auto placed = alignEtdumpDelegates(**dump, join->get(), opened->delegates);
        QVERIFY(placed.problem.empty());
        QCOMPARE(placed.calls.size(), std::size_t(kRuns));
        for (const auto& call : placed.calls) {
            QCOMPARE(call.delegate, std::size_t(0));
            QCOMPARE(call.alignment.quality, AlignmentQuality::Failed);
            QVERIFY(!call.alignment.notes.empty());
            QVERIFY(std::count(call.alignment.eventNode.begin(), call.alignment.eventNode.end(), kUnplacedEvent) > 0);
        }
        QByteArray out;
        QByteArray err;
        QCOMPARE(test::runCli({ QStringLiteral("delegates"), test::corpusPath(kSimpleModel), QStringLiteral("--etdump"),
                                  etdump },
                     &out, &err),
            0);
        QVERIFY2(out.contains("7 event(s), alignment failed\n"), out.constData());
        QVERIFY2(out.contains("    note: event "), out.constData());
    }
};

QTEST_GUILESS_MAIN(TestXnnpackProfile)
#include "tst_corpus_xnnpack_profile.moc"
