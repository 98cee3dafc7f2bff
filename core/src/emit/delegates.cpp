// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "emit/lowering_p.h"
#include "pte/delegatecall.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <cstring>
#include <functional>
#include <limits>
#include <numeric>
#include <set>
#include <span>
#include <unordered_map>
#include <unordered_set>
#include <utility>

namespace pte::emitcore {

Result<void> Lowering::lowerDelegate(const Node& n)
{
    if (n.inputs.empty())
        return fail(nodeError(n, ErrorCode::InvalidInput, "delegate call without a lowered module argument"));
    const std::shared_ptr<const LoweredModule> lowered = loweredModuleFor(m_ep, n);
    if (!lowered)
        return fail(
            nodeError(n, ErrorCode::InvalidInput, "lowered module '" + n.inputs[0].name + "' is not in the dump"));
    LInstr in;
    in.kind = LInstr::Kind::Delegate;
    in.lowered = lowered;
    in.node = &n;
    in.origin = n.name;
    in.recordDebug = m_recordDebug;
    for (std::size_t i = 1; i < n.inputs.size(); ++i) {
        auto arg = convertUntyped(n.inputs[i].arg, this->where(n));
        if (!arg)
            return fail(withPath(n, arg.error()));
        in.args.push_back(std::move(*arg));
    }
    PTE_TRY(in.delegateOuts, nodeOutputs(n));
    m_out.instrs.push_back(std::move(in));
    return {};
}

} // namespace pte::emitcore
