// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "pte/kernelarguments.h"

#include "emit/opschema.h"

namespace pte {

std::vector<KernelArgumentInfo> kernelArguments(std::string_view name, std::string_view overload)
{
    const auto* schema = emitcore::SchemaRegistry::instance().find(name, overload);
    if (!schema)
        return {};
    std::vector<KernelArgumentInfo> out;
    out.reserve(schema->args.size() + schema->returns.size());
    for (const auto& a : schema->args)
        out.push_back(KernelArgumentInfo { a.name, a.type.mutates, false });
    const std::size_t returnSlots = schema->isOutFn() || schema->isSymOp() ? 1 : schema->returns.size();
    for (std::size_t i = 0; i < returnSlots; ++i) {
        const std::string& returnName = i < schema->returns.size() ? schema->returns[i].name : std::string();
        out.push_back(KernelArgumentInfo { returnName.empty() ? "return" : returnName, true, true });
    }
    return out;
}

} // namespace pte
