// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include "document/backgroundjobs.h"
#include "document/snapshot.h"
#include "pte/programdiff.h"

#include <QString>

#include <memory>

namespace pte::ui {

/** Two programs and how they compare: the sides, a Snapshot of each for the views, and the comparison. */
struct ComparisonResult
{
    pte::DiffSide a;
    pte::DiffSide b;
    std::shared_ptr<const Snapshot> snapshotA;
    std::shared_ptr<const Snapshot> snapshotB;
    std::shared_ptr<const pte::ProgramDiff> diff;
};

/** The comparison side of a workspace snapshot: its program (loaded or emitted) and debug maps. */
[[nodiscard]] pte::DiffSide sideFromSnapshot(const Snapshot& snapshot);
/** A snapshot of a comparison side, for the views: the program, the file or the dumps and emission it came from. */
[[nodiscard]] std::shared_ptr<const Snapshot> snapshotFromSide(const pte::DiffSide& side);

/**
 * Runs comparisons in QtConcurrent with progress and cancel: opening the other program (a .pte, or a graph dump
 * emitted with the default options) and pte::diffPrograms. One job at a time; a new one supersedes (cancels) the
 * running one, whose result is dropped. The destructor cancels and waits. Lives on the GUI thread.
 */
class Comparison : public BackgroundJobs
{
    Q_OBJECT
public:
    explicit Comparison(QObject* parent = nullptr);
    ~Comparison() override;

    /**
     * Compares a workspace (side A: its program, or when it holds only graph dumps, its first input emitted) with the
     * program at `pathB`.
     */
    void compare(std::shared_ptr<const Snapshot> current, const QString& pathB, const pte::DiffOptions& options = {});
    /** Compares two files (.pte or graph dumps). */
    void compareFiles(const QString& pathA, const QString& pathB, const pte::DiffOptions& options = {});
    /** Compares the current result's sides again with other options (strict mode, one method). */
    void recompare(const pte::DiffOptions& options);

    [[nodiscard]] std::shared_ptr<const ComparisonResult> result() const { return m_result; }

Q_SIGNALS:
    void finished();
    void failed(const QString& message);

private:
    struct Request
    {
        std::optional<pte::DiffSide> a; ///< given, or opened from pathA
        QString pathA;
        std::optional<pte::DiffSide> b;
        QString pathB;
        pte::DiffOptions options;
    };
    void start(Request request);

    std::shared_ptr<const ComparisonResult> m_result;
};

} // namespace pte::ui
