// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include "command.h"

namespace pte::cli {

/**
 * Whether `r` holds an error, printed (printError) when it does: `if (printedError(opened)) return ExitInvalidInput;`
 * is each command's "read this input or stop" step.
 */
template <typename T> bool printedError(const pte::Result<T>& r)
{
    if (r)
        return false;
    printError(r.error());
    return true;
}

} // namespace pte::cli
