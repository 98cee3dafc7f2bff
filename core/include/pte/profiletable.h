// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include "pte/etdump.h"
#include "pte/etdumpjoin.h"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

/**
 * @file
 * ExecuTorch's Inspector table, computed in C++: one row per event signature of each event block, identical runs
 * merged into one block with one sample per run, durations scaled exactly as the Inspector does (integer tick
 * difference then division for operator events; each endpoint converted apart for delegate events), p10/p50/p90
 * with numpy's linear interpolation and the mean with numpy's pairwise sum. With a join (etdumpjoin.h) rows also
 * carry their method, instruction, debug handles and graph nodes, and the op types, stack traces and module
 * hierarchy the Inspector takes from an ETRecord. Then summaries of where the time went.
 */

namespace pte {

/** Time units of ticks and of the table (the Inspector's TimeScale). */
enum class TimeScale : std::uint8_t
{
    Ns,
    Us,
    Ms,
    S,
    Cycles,
};
[[nodiscard]] const char* timeScaleName(TimeScale scale) noexcept; ///< "ns", "us", "ms", "s", "cycles"
[[nodiscard]] std::optional<TimeScale> parseTimeScale(std::string_view text) noexcept;

/** The time units of buildProfileTable: what the ticks are, and what the table shows. */
struct ProfileOptions
{
    TimeScale source = TimeScale::Ns; ///< what the runtime's ticks are (nanoseconds on POSIX)
    TimeScale target = TimeScale::Ms;
};

/** One Inspector row (an Event of an EventBlock). */
struct ProfileRow
{
    std::uint32_t block = 0; ///< index in ProfileTable::blocks
    std::string eventName;
    std::vector<double> raw; ///< one duration per merged run, in the target unit (empty: no profile event)
    double p10 = 0, p50 = 0, p90 = 0, avg = 0, min = 0, max = 0; ///< NaN when `raw` is empty
    std::vector<std::string> opTypes; ///< graph nodes' op types ("aten.convolution.default")
    /** Delegate debug identifier: the int id (0 is valid) or the string id; unset for operator events. */
    std::optional<std::int32_t> delegateIdInt;
    std::optional<std::string> delegateIdStr;
    std::vector<std::pair<std::string, std::string>> stackTraces; ///< node name -> stack trace
    std::vector<std::pair<std::string, std::string>> moduleHierarchy; ///< node name -> nn_module_stack
    bool isDelegatedOp = false;
    std::string delegateBackendName;
    std::vector<std::uint32_t> debugEvents; ///< the first run's logged values (indices in EtDump::events)
    std::vector<std::uint64_t> startTimes; ///< raw start ticks, one per run
    std::vector<std::uint32_t> profileEvents; ///< the profile event of each run (indices in EtDump::events)
    // From the join (-1 / empty without one):
    std::int32_t method = -1;
    std::int32_t chain = -1;
    std::int32_t instruction = -1;
    std::vector<std::int64_t> debugHandles;
    std::vector<std::uint32_t> nodes; ///< indices into the method's graph nodes
    DelegateMapping mapping = DelegateMapping::NotDelegate;

    [[nodiscard]] bool hasTimes() const noexcept { return !raw.empty(); }
    /** "Conv #1" for a string id, "7" for an int id, "" for none. */
    [[nodiscard]] std::string delegateIdentifier() const;
};

/** An EventBlock: runs with identical signatures. Its rows are rows[firstRow, firstRow + rowCount). */
struct ProfileBlock
{
    std::string name;
    std::int32_t bundledInputIndex = -1;
    std::vector<std::uint32_t> runs; ///< EtDump::runs indices, in order
    std::uint32_t firstRow = 0;
    std::uint32_t rowCount = 0;
    std::vector<std::uint32_t> outputEvents; ///< the first run's program outputs (indices in EtDump::events)
};

/** The Inspector's table of one ETDump: its event blocks, their rows, and what could not be computed. */
struct ProfileTable
{
    std::vector<ProfileBlock> blocks;
    std::vector<ProfileRow> rows;
    ProfileOptions options;
    Diagnostics diagnostics; ///< durations that cannot be computed (end before start), ...
};

/**
 * Builds the Inspector's rows from `dump` (and, when given, the join with the program: op types, backend names,
 * handles and nodes). Allocation-only events are skipped (they make the Inspector fail).
 * @returns InvalidInput when exactly one of the scales is cycles (the Inspector refuses that too).
 */
[[nodiscard]] Result<ProfileTable> buildProfileTable(
    const EtDump& dump, const EtdumpJoin* join = nullptr, const ProfileOptions& options = {});

/**
 * A profile event's duration as the Inspector computes it: (end - start) / factor for operator events, and each
 * endpoint divided apart for delegate events; an end before the start is read as a wrapped 32-bit counter when both
 * fit in 32 bits. nullopt when it cannot be computed (or for a non-profile event).
 */
[[nodiscard]] std::optional<double> eventDuration(const EtdumpEvent& e, const ProfileOptions& options);

/** numpy.percentile(samples, q) with linear interpolation (q in [0, 100]); NaN when empty. */
[[nodiscard]] double numpyPercentile(std::vector<double> samples, double q);
/** numpy.mean: pairwise summation in blocks of 128, 8 accumulators; NaN when empty. */
[[nodiscard]] double numpyMean(const std::vector<double>& samples);

/** Python's repr() of a float (shortest round trip, "14.0", "1e-05", "inf", "nan"). */
[[nodiscard]] std::string pythonFloatRepr(double value);

/** The columns of Inspector.to_dataframe(), in order. */
[[nodiscard]] std::vector<std::string> profileColumns(const ProfileTable& table);
/**
 * One row's cells, formatted as pandas writes them with to_csv: floats in Python repr, lists in Python repr
 * (op_types of 5 or more as "['a', 'b' ... 'z'] (N total)"), booleans True/False, None as an empty cell.
 */
[[nodiscard]] std::vector<std::string> profileCells(
    const EtDump& dump, const ProfileTable& table, const ProfileRow& row);
/**
 * The table with a header line, cells separated by `separator` (',' quotes cells as CSV does; '\t' replaces tabs and
 * line breaks in cells by spaces). `rows` picks rows and their order (e.g. what a filtered view shows); all when null.
 */
[[nodiscard]] std::string profileTableText(
    const EtDump& dump, const ProfileTable& table, char separator, const std::vector<std::uint32_t>* rows = nullptr);

/** Where the time went, summed over the rows' medians. */
struct ProfileSummaryEntry
{
    std::string key;
    std::size_t count = 0; ///< rows
    double total = 0; ///< sum of p50, target unit
    double share = 0; ///< of the execution time (Method::execute medians), 0..1; 0 when unknown
};
/** Where the time of a profile went (summarizeProfile). */
struct ProfileSummary
{
    double executeTotal = 0; ///< sum of Method::execute p50 over execution blocks
    /**
     * Operator rows: each OPERATOR_CALL by its operator (the program's, else its kernel event's name) and each
     * delegate event by backend and name without its " #k" suffix; DELEGATE_CALL rows are not operators.
     */
    std::vector<ProfileSummaryEntry> byOperator;
    /** DELEGATE_CALL rows by backend, OPERATOR_CALL rows as "portable kernels" (ptelens' name for the rest). */
    std::vector<ProfileSummaryEntry> byBackend;
    /** OPERATOR_CALL and DELEGATE_CALL rows by the outermost module of their nodes' nn_module_stack. */
    std::vector<ProfileSummaryEntry> byModule;
};
/** Summaries of the table; entries sorted by total time, largest first. */
[[nodiscard]] ProfileSummary summarizeProfile(const EtDump& dump, const ProfileTable& table, const EtdumpJoin* join);

} // namespace pte
