// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include "pte/bundledprogram.h"
#include "pte/interpreterrun.h"
#include "pte/numericgap.h"
#include "pte/program.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

/**
 * @file
 * What a recorded run (pte/interpreterrun.h) produced, value by value, for display: each program value's last
 * contents (a method input, what an instruction wrote, a method output), its statistics and, for a bundled test case,
 * its gap to the expected output; and per instruction the values it read and wrote. The GUI's Run (docs/gui-run.md)
 * shows these facts; nothing here formats text for a particular view.
 */

namespace pte {

/** One program value as a run left it. */
struct RunValueFacts
{
    std::int32_t value = -1; ///< the EValue index
    ValueKind kind = ValueKind::Tensor;
    std::int32_t instruction = -1; ///< the instruction that last wrote it (-1: a method input, a constant, unwritten)
    std::int32_t input = -1; ///< which method input it is (-1: none)
    std::int32_t output = -1; ///< which method output it is (-1: none)
    ScalarType dtype = ScalarType::Float; ///< its (first) tensor's dtype
    std::vector<std::int64_t> sizes; ///< its (first) tensor's sizes as the run left them
    std::size_t tensors = 0; ///< a TensorList's items (1 otherwise)
    /** The elements (a TensorList's items one after the other), logical order; nullopt when not recorded. */
    std::optional<TensorStats> stats;
    /** Against the bundled test case's expected output (program outputs of a bundled case only). */
    std::optional<GapMetrics> gap;
    std::optional<OutputCheck> check; ///< verify_method_outputs' verdict on that output
    std::string expectedFrom; ///< "bundled test case 1" with a gap
    std::string problem; ///< why there are no numbers ("constant", "not recorded: more than N elements", ...)
};

/** What one inner node of a delegate computed (RunOptions::delegateNodes): its expected value. */
struct RunInnerNodeFacts
{
    std::uint32_t node = 0; ///< the node's index in the delegate's payload
    std::vector<std::int64_t> sizes;
    TensorStats stats;
};

/** A run of one method, value by value. */
struct RunSummary
{
    std::map<std::int32_t, RunValueFacts> values; ///< by value index: every value the run gave contents
    /** By DelegateCall instruction: the inner nodes its delegate ran, by node index (the last call wins). */
    std::map<std::uint32_t, std::map<std::uint32_t, RunInnerNodeFacts>> innerNodes;
    std::optional<CaseCheck> check; ///< the bundled case's check (a finished run of a bundled case)
    RunStop stop = RunStop::None;
    std::optional<std::uint32_t> stoppedAt; ///< the instruction it stopped at
    std::string stoppedOperator;
    std::string stopReason; ///< the error message ("" when it finished)
    std::size_t instructionsRun = 0; ///< instruction records of the last execution
};

/**
 * Summarises the last execution of `run` (a run of `plan`, recorded with RunOptions::intermediates): its inputs, each
 * value the instructions wrote (the last write wins, so a loop shows its last iteration) and its outputs; with
 * `bundled` and run.bundledCase >= 0, the outputs' gap to the case's expected outputs (numericGap) and
 * checkBundledCase's verdict. A run that stopped keeps the values the instructions before the stop wrote.
 */
[[nodiscard]] RunSummary summarizeRun(const ExecutionPlan& plan, const MethodRun& run,
    const BundledProgram* bundled = nullptr, double rtol = kBundledRtol, double atol = kBundledAtol);

/** What one executed instruction read and wrote. */
struct StepValues
{
    std::uint32_t instruction = 0;
    std::size_t step = 0; ///< its place among the last execution's instruction records
    std::vector<RunValueFacts> reads; ///< its arguments that are not written, as they were when it ran
    std::vector<RunValueFacts> writes; ///< the values it wrote (what a KernelCall logs), right after it ran
    bool stopped = false; ///< the run stopped at this instruction (it wrote nothing)
};

/**
 * The values instruction `instruction` read and wrote in the last execution of `run` (its last occurrence, for a
 * loop): each argument's contents as the instruction before it left them (the last earlier write, else the method
 * input; constants and scalars stored in the program have no recorded numbers, a `problem` says so). nullopt when the
 * instruction did not run (and the run did not stop at it).
 */
[[nodiscard]] std::optional<StepValues> stepValues(
    const ExecutionPlan& plan, const MethodRun& run, std::uint32_t instruction);

} // namespace pte
