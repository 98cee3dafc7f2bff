// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// STUB: replaced by the emitter implementation.
#include "pte/emitter.h"

#include "pte/kernelcoverage.h"

namespace pte {
Result<EmitterOutput> emitProgram(
    const std::vector<std::pair<std::string, std::shared_ptr<const ExportedProgram>>>&, const EmitOptions&)
{
    return fail(ErrorCode::Unsupported, "emission is not implemented yet");
}
std::string debugMapsJson(const EmitterOutput&) { return "{}"; }
const char* emissionDropReason(OutputKind) noexcept { return nullptr; }
bool portableKernelImplements(std::string_view) noexcept { return false; }
} // namespace pte
