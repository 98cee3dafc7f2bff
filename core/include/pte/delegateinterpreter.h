// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include "pte/program.h"
#include "pte/ptereader.h"
#include "pte/referenceinterpreter.h"

#include <cstdint>
#include <functional>
#include <string>

/**
 * @file
 * What the reference interpreter computes for a method's delegates: the graphs inside XNNPACK payloads are
 * interpreted node by node (docs/delegate-payloads.md, XNNPACK; the operators it knows are listed in
 * core/src/interp/xnnpacknodes.cpp); every other backend's DelegateCall stops the run, naming the backend.
 */

namespace pte {

/**
 * A ReferenceInterpreter::DelegateHandler for `method` of `program`: decodes the method's delegate payloads once
 * (constants from the program's named data or `external`, a .ptd) and, at each DelegateCall, runs an XNNPACK graph.
 * Its errors: Unsupported "CoreMLBackend: the reference interpreter runs XNNPACK graphs only, ..." for other backends,
 * Unsupported naming the inner node index and kind for a node it cannot run, Unsupported for a payload that did not
 * decode, InvalidInput for arguments that do not fit the graph. `program` and `external` must outlive the handler.
 */
/** Called after each inner node a delegate runs: the delegate's index in the method, the node's index in its payload,
 *  the node's (first) output as a float tensor (quantized values dequantized). */
using InnerNodeObserver = std::function<void(std::size_t delegateIndex, std::uint32_t node, const HostTensor& output)>;

[[nodiscard]] ReferenceInterpreter::DelegateHandler referenceDelegateHandler(const Program& program,
    const std::string& method, const ExternalData* external = nullptr, InnerNodeObserver observer = {});

} // namespace pte
