// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include "emit/lowering.h"
#include "emit/programstate.h"
#include "pte/emitter.h"

#include <optional>
#include <string>
#include <vector>

/**
 * @file
 * Methods that only return constants (ExecuTorch's getter plans): the user's prim getters, methods of a dump whose
 * outputs are all literals, and the training metadata of joint graphs.
 */

namespace pte::emitcore {

/** The getter plan of prim getter `name` (EmitOptions::primGetters). A Tensor's bytes come from
 *  EmitOptions::primGetterTensorData (zeros when absent) into the constant buffer. Errors: InvalidInput (the
 *  tensor's size overflows or its bytes have another size), Unsupported (a value kind getters cannot return). */
[[nodiscard]] Result<ExecutionPlan> primGetter(
    const std::string& name, const EValue& value, ProgramState& ps, const EmitOptions& options);

/** The getter plan of a method without inputs or nodes whose outputs are all literals, or nullopt. */
[[nodiscard]] std::optional<ExecutionPlan> constantMethod(const std::string& name, const ExportedProgram& ep);

/** The training metadata getters of joint method `name` (__et_training_gradients_index_, __et_training_fqn_,
 *  __et_training_parameters_index_), appended to `plans`. */
void appendTrainingPlans(const std::string& name, const LoweredMethod& lm, std::vector<ExecutionPlan>& plans);

} // namespace pte::emitcore
