// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// A device run the CLI tests read: (x + y) * 0.5 emitted from tests/data/emit/add_mul.json and the ETDump of one
// execution of it as the runtime logs it, with one logged element off so a reference gap has something to show.

#include <QString>

namespace pte::test {

struct AddMulRun
{
    QString program; ///< the emitted .pte ("" on failure)
    QString etdump; ///< <tempDir>/<name>.etdp
    QString buffer; ///< <tempDir>/<name>.bin, its debug buffer (beside it, where `profile` looks by default)
};

/**
 * Emits add_mul.json as `name` and writes one execution of it on the runner's pattern fill (x[i] = 0.1 * (i % 7) +
 * 0.5, y[i] = 0.1 * ((i + 1) % 7) + 0.5): each KernelCall's profile and OPERATOR_CALL events and its logged output,
 * add's element 4 off by 0.5. `methodEvent` adds the Method::execute event the runtime writes around the execution.
 */
AddMulRun writeAddMulRun(const QString& name, bool methodEvent);

} // namespace pte::test
