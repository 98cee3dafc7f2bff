// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include "document/snapshot.h"

#include <QString>
#include <QStringList>

namespace pte::ui {

/** Where a diagnostic points: a method and an instruction, a value or graph nodes in it. */
struct DiagnosticTarget
{
    QString method;
    int chain = -1;
    int instruction = -1; ///< instruction index within `chain`
    int value = -1; ///< value index
    QStringList nodes; ///< graph node names (dump diagnostics)
    [[nodiscard]] bool isValid() const { return !method.isEmpty(); }
};

/**
 * Resolves a diagnostic's location. Program paths ("execution_plan[1].chains[0].instructions[12]...",
 * "execution_plan[0].values[5]...", "execution_plan[0].inputs[2]" / ".outputs[0]" for the value they name)
 * name the method by its plan index. Dump diagnostics name the node by JSON path (the node whose jsonPath
 * starts the field path, e.g. "graph_module.graph.nodes[3].inputs[0]"), by "node 'name'" in the message, or by
 * "buffer 'fqn'" / "parameter 'fqn'" / "constant 'fqn'" (the placeholder of that input), in the dump method whose
 * source is the diagnostic's file (or named by "method 'name'" in the message).
 */
[[nodiscard]] DiagnosticTarget resolveDiagnostic(const Snapshot& snapshot, const pte::Diagnostic& diagnostic);

} // namespace pte::ui
