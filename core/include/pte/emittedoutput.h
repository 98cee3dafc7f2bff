// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include "pte/emitter.h"
#include "pte/program.h"
#include "pte/result.h"

#include <string>

/**
 * @file
 * What the serialize stage does with an emission (core/src/serialize): the program laid out for saving with the
 * emission's data and options, and the debug maps written as an ETRecord does.
 */

namespace pte {

/**
 * layoutForSerialization of an emission's program (`program`: output.program, moved or copied) with the output's
 * mutable data, named data and the serialize options it was emitted with (output.serialize): what every save of an
 * emitted program goes through, so the options chosen for the emission reach the file.
 */
[[nodiscard]] Result<Program> layoutEmitted(Program program, const EmitterOutput& output);

/**
 * The ETRecord-layout JSON of the three debug maps ({"debug_handle_map": {method: {"0": ...}}, "delegate_map": ...,
 * "instruction_id_to_num_outs_map": ...}), the one writer of that layout: a kernel instruction's single debug handle
 * is a number, a delegate call's handles (instructions in instruction_id_to_num_outs_map) a list.
 */
[[nodiscard]] std::string debugMapsJson(const EmitterOutput& output);
/** The same for maps read from an ETRecord. */
[[nodiscard]] std::string debugMapsJson(const EtRecordMaps& maps);

} // namespace pte
