// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include "pte/etdump.h"
#include "pte/result.h"

#include <cstdint>
#include <vector>

/**
 * @file
 * Writing ETDumps: the model of etdump.h back to the flatbuffer, laid out as the runtime's ETDumpGen writes it
 * (scalars equal to their default omitted, events in order). `ptelens-cli run --etdump` writes the ETDump of a run on
 * the reference interpreter with it (pte/interpreterrun.h); the tests, benchmarks and fuzz seeds build their ETDumps
 * with it (synthetic traces: pte/syntheticetdump.h in pte_synth).
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

} // namespace pte
