// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include "pte/etdump.h"
#include "pte/etdumpjoin.h"
#include "pte/numericgap.h"
#include "pte/referenceinputs.h"
#include "pte/result.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

/**
 * @file
 * Expected values for what a run logged: the method run again on the ReferenceInterpreter with the inputs the run
 * used, every KernelCall observed, and each logged value of the first joined execution compared with the value the
 * interpreter computed at the same instruction (numericGap: MSE, L1, SNR as ExecuTorch's Inspector computes them).
 * Program outputs and intermediate outputs both. A delegated op, an operator the interpreter has no kernel for, or
 * an interpreter failure leaves a reason on the rows it affects, never a number.
 */

namespace pte {

/** One logged value of the compared execution and how far it is from the interpreter's. */
struct ReferenceGapRow
{
    std::uint32_t event = 0; ///< the debug event (EtDump::events index)
    std::int32_t instruction = -1; ///< -1 for a program output logged after the last instruction
    std::int32_t value = -1; ///< the program value (-1: not tied to one)
    std::int32_t outputIndex = -1; ///< which method output (-1: an intermediate)
    /** The KernelCall's operator ("aten::add.out"), or "delegate XnnpackBackend" for a DelegateCall; "" otherwise. */
    std::string op;
    std::optional<GapMetrics> gap; ///< set when both sides have numbers
    std::vector<double> expected; ///< the interpreter's elements (logical order), empty without a gap
    std::string reason; ///< why there is no gap (empty when there is one)
};

/** The comparison of one method's first joined execution. */
struct ReferenceGap
{
    std::string method;
    std::uint32_t run = 0; ///< the EtDump::runs index compared
    std::string inputSource; ///< ReferenceInputs::source
    bool inputsAssumed = false; ///< ReferenceInputs::assumed
    std::vector<ReferenceGapRow> rows; ///< one per debug event of the run, in event order
    /** Why the interpreter could not load or finish the method (also the reason on the rows it affects). */
    std::string interpreterProblem;
};

/** Limits and external data of referenceGap. */
struct ReferenceGapOptions
{
    /** Logged or expected tensors with more elements get a reason instead of numbers. */
    std::size_t maxElements = std::size_t(1) << 24;
    /** EXTERNAL constants (a .ptd), or null. Must outlive the call. */
    const ExternalData* external = nullptr;
};

/**
 * Compares the first joined execution block of `method` in `join` with a ReferenceInterpreter run of the method
 * on `inputs`. Repeated instructions (loops) are paired by occurrence: the n-th time an instruction logged a value
 * with the n-th time the interpreter ran it.
 * @returns InvalidInput when the join has no program or the method no joined execution block. Everything else
 *   (the interpreter refusing the method, a delegate, a missing debug buffer) is a reason on the rows.
 */
[[nodiscard]] Result<ReferenceGap> referenceGap(const EtdumpJoin& join, const std::string& method,
    const ReferenceInputs& inputs, const ReferenceGapOptions& options = {});

} // namespace pte
