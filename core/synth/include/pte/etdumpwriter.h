// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include "pte/etdump.h"
#include "pte/program.h"
#include "pte/result.h"

#include <cstdint>
#include <vector>

/**
 * @file
 * Writing ETDumps: the model of etdump.h back to the flatbuffer, laid out as the runtime's ETDumpGen writes it
 * (scalars equal to their default omitted, events in order), and synthetic traces for benchmarks and tests.
 * ptelens never writes over a user's ETDump; these are for tests, benchmarks and fixtures.
 */

namespace pte {

/**
 * Serializes `dump`'s runs, events, values, allocations and strings (EtDump::file is read only for the delegate
 * metadata the events point to). With EtdumpLayout::V010 the blocks have no bundled_input_index and debug events
 * are written as empty tables (that layout's debug events are not modelled).
 * @returns InvalidInput when an event points to a value, allocation or string that does not exist; Unsupported
 *   above the flatbuffers 2 GiB limit.
 */
[[nodiscard]] Result<std::vector<std::uint8_t>> serializeEtdump(
    const EtDump& dump, bool sizePrefixed = true, EtdumpLayout layout = EtdumpLayout::Current);

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
