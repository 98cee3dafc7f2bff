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
 * Resolves a diagnostic's location from its fields (pte::Diagnostic::location, set by the code that reported it;
 * the message text is never read): a method's chain, instruction or value in the snapshot's program; else the
 * node (or placeholder) in the dump method whose source is the diagnostic's file, preferring the method the
 * location names; else just the named method. Locations that name what the snapshot lacks resolve to nothing.
 */
[[nodiscard]] DiagnosticTarget resolveDiagnostic(const Snapshot& snapshot, const pte::Diagnostic& diagnostic);

} // namespace pte::ui
