// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include "pte/emitter.h"
#include "pte/graph.h"
#include "pte/program.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

/**
 * @file
 * What the emitter records to map instructions back to the graph: nodes' debug handles (the dump's, or generated),
 * stack traces, and the delegate maps an ETRecord recorded.
 */

namespace pte::emitcore {

/** A node's debug handles: Node::debugHandles, else its "debug_handle" metadata; empty when it has none. */
[[nodiscard]] std::vector<std::int64_t> nodeDebugHandles(const Node& n);

/** Parses Python traceback text: 'File "<f>", line <n>, in <name>' followed by the source line. */
[[nodiscard]] FrameList parseStackTrace(const std::string& text);

/**
 * The debug handles of a method's nodes. A plain torch.export dump has none: ExecuTorch's to_edge would give each
 * operator node one (1-based, in graph order; nodes decomposed from it share it). Emitting such a dump with
 * EmitOptions::generateDebugHandles, we do the same, so instructions always map back to graph nodes through
 * handles. Dumps that carry handles keep theirs.
 */
class DebugHandles
{
public:
    DebugHandles(const ExportedProgram& ep, bool generate);
    /** True when the handles are generated (then the dump's are not read). */
    [[nodiscard]] bool generated() const noexcept { return !m_generated.empty(); }
    /** The node's first handle (generated, or firstDebugHandle()). */
    [[nodiscard]] std::optional<std::int64_t> firstOf(const Node& n) const;

private:
    std::map<const Node*, std::int64_t> m_generated;
};

/**
 * The entry the input ETRecord recorded for a delegate call (EmitOptions::etrecordDelegateMap), for a call whose
 * lowered module carries no delegate map of its own. The ETRecord keys its entries by the instruction ids of the
 * emission that wrote it: calls are paired by their order among the method's delegate calls (`ordinal`, robust to
 * lowering that shifts instruction ids), else by the same instruction id; the backend must match. nullptr if none.
 */
[[nodiscard]] const DelegateMapEntry* recordedDelegateEntry(const EmitOptions& options, const std::string& method,
    std::size_t ordinal, std::int64_t instrId, const std::string& backendId);

} // namespace pte::emitcore
