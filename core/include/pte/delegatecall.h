// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include "pte/graph.h"

#include <memory>

/**
 * @file
 * Which lowered module a graph dump's `executorch_call_delegate` node calls.
 */

namespace pte {

/**
 * The lowered module a delegate-call node calls: its first argument names it (by argument name, string value or
 * graph-module name); in a program with a single lowered module an unnamed first argument means that one.
 * nullptr when the node is no `executorch_call_delegate` (its op, or its target's last component when the op is
 * empty) or names no module of `program`. No errors.
 */
[[nodiscard]] std::shared_ptr<const LoweredModule> loweredModuleFor(const ExportedProgram& program, const Node& node);

} // namespace pte
