// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include "pte/bundledprogram.h"
#include "pte/etdumpjoin.h"
#include "pte/numericgap.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

/**
 * @file
 * How far the program outputs a run logged are from a bundled program's expected outputs: per method, its first
 * joined execution block against one test case of the method's test suite (the block's bundled input index, else the
 * last test case, as ExecuTorch's Inspector picks), each logged output compared element by element (numericGap: MSE,
 * L1, SNR). What the GUI's Values view shows as "bundled test case N", and `ptelens-cli profile` prints.
 */

namespace pte {

/** One logged program output against its expected value. */
struct BundledOutputGapRow
{
    std::uint32_t event = 0; ///< the debug event (EtDump::events index)
    std::int32_t value = -1; ///< the program value it logged
    std::int32_t outputIndex = -1; ///< which method output (an index into the test case's expected outputs)
    std::optional<GapMetrics> gap; ///< set when both sides have numbers
    std::string reason; ///< why there is no gap (empty when there is one)
};

/** The comparison of one method's first joined execution with one bundled test case. */
struct BundledOutputGap
{
    std::string method;
    std::uint32_t run = 0; ///< the EtDump::runs index compared
    std::size_t testCase = 0; ///< the index in the method's BundledTestSuite::testCases
    /** Whether `testCase` is the block's bundled input index (false: the last test case, the block naming none). */
    bool fromBlock = false;
    std::vector<BundledOutputGapRow> rows; ///< one per logged program output, in event order
};

/** Limits of bundledOutputGaps. */
struct BundledGapOptions
{
    /** Logged or expected tensors with more elements get a reason instead of numbers. */
    std::size_t maxElements = std::size_t(1) << 24;
};

/**
 * Compares each joined method that has a test suite with test cases in `bundled`: the first joined execution block
 * of the method (load blocks excluded). A value is taken at its first logged event in the block, as the GUI shows it:
 * a value logged as an intermediate before it is logged as an output is not an output row. Methods in program order;
 * methods without a suite, or that did not run, are left out.
 */
[[nodiscard]] std::vector<BundledOutputGap> bundledOutputGaps(
    const EtdumpJoin& join, const BundledProgram& bundled, const BundledGapOptions& options = {});

} // namespace pte
