// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include "document/delegatetimes.h"
#include "pte/etdump.h"
#include "pte/etdumpjoin.h"
#include "pte/etdumptiming.h"
#include "pte/numericgap.h"
#include "pte/profiletable.h"
#include "pte/referenceinputs.h"

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace pte::ui {

struct Snapshot;

/** A program value as the first joined execution of its method logged it (intermediate or program output). */
struct LoggedValue
{
    std::uint32_t event = 0; ///< the debug event (EtDump::events index)
    std::string description; ///< "f32[1, 10]", "Int 3", "TensorList of 2"
    bool output = false; ///< logged as a program output
    std::optional<pte::TensorStats> stats; ///< a tensor's numbers (needs the debug buffer)
    std::optional<pte::GapMetrics> gap; ///< against the expected value, when one is known
    /** What `gap` compares with: "bundled test case 1" (expected outputs), or the reference interpreter's run on
     *  "runner pattern fill (assumed)", "inputs.json", ... */
    std::string expectedFrom;
    std::string problem; ///< why there are no numbers (no debug buffer, dtype, ...)
    std::int32_t instruction = -1; ///< the instruction that logged it (-1: a program output after the last one)
    std::string op; ///< its operator ("aten::add.out"), when a KernelCall logged it
    std::string gapReason; ///< why there is no gap (no kernel in the reference interpreter, a delegate, ...)
};

/**
 * An ETDump opened in the workbench, joined with the snapshot's program (when there is one): the Inspector table
 * and its summaries, and per method the instruction and graph-node timings the views show. Immutable; rebuilt when
 * the program changes (a new emission). Built off the GUI thread.
 */
struct ProfileData
{
    std::shared_ptr<const pte::EtDump> dump;
    std::shared_ptr<const pte::EtdumpJoin> join; ///< null without a program or ETRecord maps
    pte::ProfileTable table;
    pte::ProfileSummary summary;
    std::map<std::string, pte::MethodTiming> timings; ///< by method name
    /** By method name, then graph node name (the nodes of the method's graph dump). */
    std::map<std::string, std::map<std::string, pte::NodeTiming>> nodeTimings;
    /**
     * By method name, then value index: what the first joined execution logged. Program outputs are compared with a
     * bundled program's expected outputs (the block's bundled input index, else the last test case, as the
     * Inspector does).
     */
    std::map<std::string, std::map<std::int32_t, LoggedValue>> loggedValues;
    /** The XNNPACK events aligned with the inner nodes of the snapshot's delegates (empty without them). */
    DelegateTimes delegateTimes;
    /** The inputs the reference interpreter ran with, to give every logged value an expected value. */
    pte::ReferenceInputSpec reference;
    /** Those inputs for display ("bundled test case 0", "runner pattern fill (assumed)"); empty when none. */
    std::string referenceSource;
    std::string referenceProblem; ///< why the inputs could not be had (a JSON file that does not fit, ...)
    pte::Diagnostics diagnostics; ///< the reader's, the join's and the table's

    [[nodiscard]] const pte::MethodTiming* timing(const std::string& method) const;
    [[nodiscard]] const LoggedValue* logged(const std::string& method, std::int32_t value) const;
    /** The method name a join index stands for ("" when none). */
    [[nodiscard]] std::string methodName(int index) const;
    /** Whether the ETDump matched the program (false: blocks were left unjoined). */
    [[nodiscard]] bool matches() const { return !join || !join->hasMismatch(); }
};

/**
 * Joins `dump` with what `snapshot` holds: the program (loaded or emitted), the emission's maps or the ETRecord's,
 * and the graph dumps as graphs. `snapshot` may hold no program: the table is then the ETDump's alone. With the
 * snapshot's delegates decoded (set them first), their events are aligned with the inner nodes. With a program,
 * each logged value gets an expected value from the reference interpreter run on `reference` (default:
 * defaultReferenceInputs).
 */
[[nodiscard]] std::shared_ptr<const ProfileData> buildProfileData(std::shared_ptr<const pte::EtDump> dump,
    const Snapshot& snapshot, const std::optional<pte::ReferenceInputSpec>& reference = std::nullopt);

/** The bundled program's test case when the snapshot's program has one (the last, as the Inspector picks), otherwise
 *  the runner's pattern fill (an assumption about the run). */
[[nodiscard]] pte::ReferenceInputSpec defaultReferenceInputs(const Snapshot& snapshot);

} // namespace pte::ui
