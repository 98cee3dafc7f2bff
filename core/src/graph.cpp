// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// STUB: replaced by the graph model implementation.
#include "pte/graph.h"

namespace pte {
const char* argKindName(ArgKind) noexcept { return "?"; }
const char* inputKindName(InputKind) noexcept { return "?"; }
const char* outputKindName(OutputKind) noexcept { return "?"; }
std::string Node::qualifiedOp() const { return target; }
const NamedArgument* Node::input(std::string_view argName) const noexcept
{
    for (const auto& a : inputs)
        if (a.name == argName)
            return &a;
    return nullptr;
}
} // namespace pte
