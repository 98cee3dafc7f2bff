// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

// Private to the ETDump reader: the verified flatbuffer -> the runs and events of the EtDump model.

#include "pte/etdump.h"

#include <cstdint>

namespace pte::etdump {

/**
 * Decodes the verified ETDump whose root table is at `root` into `dump`'s runs and events, with the block layout
 * `dump.layout`; offsets count from `fileStart`. Findings go to the dump's diagnostics.
 */
void decodeEtdump(EtDump& dump, const std::uint8_t* fileStart, const std::uint8_t* root);

} // namespace pte::etdump
