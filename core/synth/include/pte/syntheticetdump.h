// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include "pte/etdump.h"
#include "pte/etdumpwriter.h"
#include "pte/program.h"
#include "pte/result.h"

#include <cstdint>
#include <string>

/**
 * @file
 * Synthetic ETDumps for benchmarks, tests and fuzz seeds: the events the runtime records for runs of a method, with
 * made-up times (serialize them with serializeEtdump, pte/etdumpwriter.h).
 */

namespace pte {

/** Shape of a synthetic ETDump (`ptelens-cli bench`). */
struct SyntheticEtdumpOptions
{
    std::string method; ///< empty: the first method
    std::uint32_t runs = 1; ///< Execute blocks (after one Default block)
    bool kernelEvents = true; ///< a native_call_* event inside each OPERATOR_CALL
    std::uint64_t startTick = 1000;
};

/**
 * What the runtime records for `runs` executions of a method: a Default block (Method::init, Program::load_method),
 * then per run an Execute block with, per instruction in order, native_call_<op> and OPERATOR_CALL (KernelCall),
 * DELEGATE_CALL, MOVE_CALL, JF_CALL or FREE_CALL, then Method::execute; ticks advance deterministically.
 * Jumps are not followed: every instruction runs once per run. @returns InvalidInput without such a method.
 */
[[nodiscard]] Result<EtDump> makeSyntheticEtdump(const Program& program, const SyntheticEtdumpOptions& options = {});

} // namespace pte
