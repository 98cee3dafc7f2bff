// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "pte/delegatecall.h"

#include <string_view>

namespace pte {

std::shared_ptr<const LoweredModule> loweredModuleFor(const ExportedProgram& program, const Node& node)
{
    // The op is Node::op, or the last component of the target when a dump gives only the target.
    const std::string_view op =
        node.op.empty() ? std::string_view(node.target).substr(node.target.rfind('.') + 1) : std::string_view(node.op);
    if (op != "executorch_call_delegate" || node.inputs.empty())
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
