// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "pte/emittedoutput.h"
#include "pte/emitter.h"
#include "pte/ptewriter.h"

namespace pte {

Result<Program> layoutEmitted(Program program, const EmitterOutput& output)
{
    return layoutForSerialization(std::move(program), output.mutableData, output.namedData, output.serialize);
}

} // namespace pte
