// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include "pte/bytes.h"
#include "pte/program.h"

#include <cstdint>

/**
 * @file
 * Synthetic delegate payloads for benchmarks (`ptelens-cli bench`), written with the same flatbuffers schema the
 * decoder reads.
 */

namespace pte {

/**
 * An XNNPACK payload (XH00 header + XN01 flatbuffer + constant section) holding a chain of `nodes` xnodes that
 * cycles through FullyConnected (with 64-byte filter and 16-byte bias constants in the header's section), Add, Clamp,
 * Conv2d, StaticTranspose (handle 65535) and a quantizing Convert, the others with handle = position + 1. About two
 * values per node.
 */
[[nodiscard]] Bytes makeSyntheticXnnpackPayload(std::uint32_t nodes);

/**
 * A one-method program ("forward") whose only instruction is a DelegateCall of an XnnpackBackend delegate holding
 * `payload` inline, with the two tensors its externals bind to. For writing with writePte().
 */
[[nodiscard]] Program makeSingleDelegateProgram(const Bytes& payload);

} // namespace pte
