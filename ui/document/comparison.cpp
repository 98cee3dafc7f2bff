// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "document/comparison.h"

#include "models/text.h"
#include "pte/emitter.h"
#include "pte/ptereader.h"

#include <QPromise>

namespace pte::ui {

pte::DiffSide sideFromSnapshot(const Snapshot& snapshot)
{
    pte::DiffSide side;
    for (const auto& p : snapshot.inputPaths)
        side.label += (side.label.empty() ? "" : ", ") + p;
    side.program = snapshot.program;
    side.file = snapshot.pteFile;
    side.emitted = snapshot.emitted;
    if (snapshot.emitted) {
        auto maps = std::make_shared<pte::EtRecordMaps>();
        maps->debugHandleMap = snapshot.emitted->debugHandleMap;
        maps->delegateMap = snapshot.emitted->methodToDelegateDebugIdMap;
        maps->instructionIdToNumOutsMap = snapshot.emitted->instructionIdToNumOutsMap;
        side.debugMaps = std::move(maps);
        for (const auto& dm : snapshot.dumpMethods)
            side.emittedFrom.emplace_back(dm.name, dm.program);
    } else {
        side.debugMaps = snapshot.etrecordMaps;
    }
    return side;
}

std::shared_ptr<const Snapshot> snapshotFromSide(const pte::DiffSide& side)
{
    auto snap = std::make_shared<Snapshot>();
    snap->inputPaths = { side.label };
    snap->program = side.program;
    snap->pteFile = side.file;
    snap->emitted = side.emitted;
    if (!side.emitted)
        snap->etrecordMaps = side.debugMaps;
    for (const auto& [name, program] : side.emittedFrom)
        snap->dumpMethods.push_back(DumpMethod { name, name, side.label, program, {} });
    snap->finalize();
    return snap;
}

Comparison::Comparison(QObject* parent)
    : BackgroundJobs(parent)
{ }

Comparison::~Comparison()
{
    cancelAndWait(); // before m_result, which the jobs' callbacks set, is gone
}

void Comparison::compare(std::shared_ptr<const Snapshot> current, const QString& pathB, const pte::DiffOptions& options)
{
    Request r;
    if (current && current->program)
        r.a = sideFromSnapshot(*current);
    else if (current && !current->inputPaths.empty())
        r.pathA = toQString(current->inputPaths.front());
    r.pathB = pathB;
    r.options = options;
    start(std::move(r));
}

void Comparison::compareFiles(const QString& pathA, const QString& pathB, const pte::DiffOptions& options)
{
    Request r;
    r.pathA = pathA;
    r.pathB = pathB;
    r.options = options;
    start(std::move(r));
}

void Comparison::recompare(const pte::DiffOptions& options)
{
    if (!m_result)
        return;
    Request r;
    r.a = m_result->a;
    r.b = m_result->b;
    r.options = options;
    start(std::move(r));
}

namespace {

struct Outcome
{
    std::shared_ptr<const ComparisonResult> result;
    QString error;
};

} // namespace

void Comparison::start(Request request)
{
    if (isBusy())
        cancel();
    if (!request.a && request.pathA.isEmpty()) {
        Q_EMIT failed(QStringLiteral("There is no program to compare: open one first."));
        return;
    }
    auto work = [request](QPromise<Outcome>& promise, const std::atomic<bool>& cancelFlag) {
        promise.setProgressRange(0, 1000);
        auto open = [&](const std::optional<pte::DiffSide>& given, const QString& path,
                        int step) -> std::optional<pte::DiffSide> {
            if (given)
                return given;
            promise.setProgressValueAndText(step * 100, QStringLiteral("opening %1").arg(path));
            auto side = pte::openDiffSide(path.toStdString());
            if (!side) {
                promise.addResult(Outcome { nullptr, toQString(side.error().toString()) });
                return std::nullopt;
            }
            return std::move(side).value();
        };
        auto result = std::make_shared<ComparisonResult>();
        auto a = open(request.a, request.pathA, 0);
        if (!a || cancelFlag.load())
            return;
        auto b = open(request.b, request.pathB, 1);
        if (!b || cancelFlag.load())
            return;
        result->a = std::move(*a);
        result->b = std::move(*b);
        pte::DiffOptions options = request.options;
        options.cancel = &cancelFlag;
        options.progress = [&promise](std::uint64_t done, std::uint64_t total) {
            if (total > 0)
                promise.setProgressValueAndText(200 + int(done * 800 / total), QStringLiteral("methods"));
        };
        auto diff = pte::diffPrograms(result->a, result->b, options);
        if (!diff) {
            if (diff.error().code != pte::ErrorCode::Cancelled)
                promise.addResult(Outcome { nullptr, toQString(diff.error().toString()) });
            return;
        }
        result->diff = std::make_shared<const pte::ProgramDiff>(std::move(diff).value());
        result->snapshotA = snapshotFromSide(result->a);
        result->snapshotB = snapshotFromSide(result->b);
        promise.addResult(Outcome { std::move(result), {} });
    };
    runJob<Outcome>(QStringLiteral("Comparing"), std::move(work), [this](const Outcome& outcome) {
        if (!outcome.result) {
            Q_EMIT failed(outcome.error);
            return;
        }
        m_result = outcome.result;
        Q_EMIT finished();
    });
}

} // namespace pte::ui
