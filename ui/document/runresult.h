// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include "pte/interpreterrun.h"
#include "pte/referenceinputs.h"
#include "pte/result.h"
#include "pte/runvalues.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace pte::ui {

struct Snapshot;

/** What the Run dialog asks for (Program > Run…; docs/gui-run.md). */
struct RunSettings
{
    std::string method;
    enum class Inputs : std::uint8_t
    {
        Fill, ///< the runner's --fill rule
        Sample, ///< the method's graph dump's sample inputs
        Bundled, ///< a bundled program's test case
        JsonFile, ///< the runner's --inputs JSON (inputs it does not give keep `fill`)
        RawFiles, ///< executor_runner's raw little-endian files, one per tensor input
    } inputs = Inputs::Fill;
    pte::RunnerFill fill = pte::RunnerFill::Pattern;
    std::size_t testCase = 0; ///< Bundled
    std::string jsonPath; ///< JsonFile
    std::vector<std::string> rawPaths; ///< RawFiles
};

/**
 * A run of one method on the reference interpreter, kept in the Snapshot until the program it ran changes: then it is
 * stale (Snapshot::run stays, currentRun() no longer returns it).
 */
struct RunResult
{
    RunSettings settings;
    std::shared_ptr<const pte::Program> program; ///< the program it ran
    std::string inputSource; ///< "runner pattern fill", "bundled test case 0", "sample inputs of …"
    pte::MethodRun run;
    pte::RunSummary summary; ///< the last execution, value by value

    /** One line: "ran forward on bundled test case 0: 12 instructions, finished" or where and why it stopped. */
    [[nodiscard]] std::string statusText() const;
};

/** The snapshot's run when it ran the snapshot's program (and, with a method, that method); null otherwise. */
[[nodiscard]] const RunResult* currentRun(const Snapshot& snapshot, const std::string& method = {});
/** True when the snapshot keeps a run of another program (re-emitted since). */
[[nodiscard]] bool hasStaleRun(const Snapshot& snapshot);

/** The inputs `settings` describe for the snapshot's program. InvalidInput/Io/Unsupported as the core says. */
[[nodiscard]] pte::Result<pte::ReferenceInputs> runInputs(const Snapshot& snapshot, const RunSettings& settings);

/**
 * Runs `settings.method` of the snapshot's program with the inputs `settings` describe, recording every value each
 * KernelCall wrote (off the GUI thread). `progress` is RunOptions::progress (false cancels). Fails only when the
 * inputs cannot be had or there is no such method; a run that stops is a result with the stop recorded.
 */
[[nodiscard]] pte::Result<std::shared_ptr<const RunResult>> runProgram(const Snapshot& snapshot,
    const RunSettings& settings, std::function<bool(std::uint64_t, std::uint64_t)> progress = {});

} // namespace pte::ui
