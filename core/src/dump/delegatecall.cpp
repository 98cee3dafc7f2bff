// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "pte/delegatecall.h"

namespace pte {

std::shared_ptr<const LoweredModule> loweredModuleFor(const ExportedProgram& program, const Node& node)
{
    if (node.op != "executorch_call_delegate" || node.inputs.empty())
        return nullptr;
    const NamedArgument& first = node.inputs[0];
    for (const std::string* key : { &first.name, first.arg.strings.empty() ? nullptr : &first.arg.strings[0],
             first.arg.names.empty() ? nullptr : &first.arg.names[0] }) {
        if (!key)
            continue;
        const auto it = program.loweredModules.find(*key);
        if (it != program.loweredModules.end())
            return it->second;
    }
    if (program.loweredModules.size() == 1 && first.name.empty())
        return program.loweredModules.begin()->second;
    return nullptr;
}

} // namespace pte
