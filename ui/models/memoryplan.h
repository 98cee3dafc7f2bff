// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include "document/snapshot.h"
#include "pte/emitter.h"

#include <vector>

namespace pte::ui {

/**
 * The planned tensors of a method: the emitter's memory plan when the method was emitted, else
 * derived from the program (tensors with allocation info, lifetimes from pte::valueLifetimes: first to last
 * instruction referencing the value, inputs from 0, outputs to the end).
 */
[[nodiscard]] std::vector<pte::PlannedTensor> memoryPlanFor(const MethodEntry& method);

} // namespace pte::ui
