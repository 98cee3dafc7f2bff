// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "pte/emitter.h"

namespace pte {

const char* emissionDropReason(OutputKind kind) noexcept
{
    switch (kind) {
    case OutputKind::BufferMutation:
        return "buffer mutation: written back into the buffer with aten::copy_, not returned";
    case OutputKind::Token:
        return "effect token: stripped before emission";
    case OutputKind::ParameterMutation:
        return "parameter mutation: written back into the parameter with aten::copy_, not returned";
    case OutputKind::UserInputMutation: // kept, like ExecuTorch (only buffer mutations are removed)
    case OutputKind::UserOutput:
    case OutputKind::LossOutput:
    case OutputKind::GradientToParameter:
    case OutputKind::GradientToUserInput:
        return nullptr;
    }
    return nullptr;
}

} // namespace pte
