// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "emit/lowering_p.h"
#include "pte/emitter.h"

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

Result<void> Lowering::writeBacksAndOutputs()
{
    const auto& g = m_ep.graph;
    const auto& specs = m_ep.signature.outputSpecs;
    if (specs.size() != g.outputs.size())
        return fail(ErrorCode::InvalidInput,
            "method '" + m_method + "': the graph has " + std::to_string(g.outputs.size())
                + " outputs but the signature lists " + std::to_string(specs.size()));
    // Write-backs (InsertWriteBackForBuffersPass): copy_ into the buffer / input, in output order.
    std::map<std::string, int> inputsByTarget;
    for (std::size_t i = 0; i < m_ep.signature.inputSpecs.size(); ++i) {
        const auto& is = m_ep.signature.inputSpecs[i];
        const auto& arg = g.inputs[i];
        if (arg.names.empty())
            continue;
        // The placeholder's own storage: its name may since name the result of an in-place update.
        const auto ph = m_placeholderRef.find(arg.names[0]);
        if (ph == m_placeholderRef.end())
            continue;
        inputsByTarget[is.kind == InputKind::UserInput ? arg.names[0] : is.target] = ph->second;
    }
    const OpSchema* copy = m_reg.find("aten::copy_", "");
    for (std::size_t i = 0; i < specs.size(); ++i) {
        const auto& os = specs[i];
        if (os.kind != OutputKind::BufferMutation && os.kind != OutputKind::UserInputMutation
            && os.kind != OutputKind::ParameterMutation)
            continue;
        const auto& arg = g.outputs[i];
        const std::string srcName = arg.names.empty() ? std::string() : arg.names[0];
        PTE_TRY(const int src, lookup(srcName, "output " + std::to_string(i)));
        const auto dst = inputsByTarget.find(os.target);
        if (dst == inputsByTarget.end())
            return fail(ErrorCode::InvalidInput,
                "method '" + m_method + "': output " + std::to_string(i) + " mutates '" + os.target
                    + "', which is not an input of the graph");
        if (dst->second == src)
            continue; // already updated in place
        LInstr in;
        in.kind = LInstr::Kind::Kernel;
        in.name = LInstr::OperatorName { "aten::copy_", "" };
        in.args = { LArg::tensor(dst->second), LArg::tensor(src), LArg::boolean(false) };
        in.retSlots = { LArg::tensor(dst->second) };
        in.origin = srcName;
        in.recordDebug = false;
        (void)copy;
        m_out.instrs.push_back(std::move(in));
    }
    // Outputs: drop what emission removes, keep the rest.
    std::int64_t index = 0;
    for (std::size_t i = 0; i < specs.size(); ++i) {
        const auto& os = specs[i];
        const auto& arg = g.outputs[i];
        if (const char* reason = emissionDropReason(os.kind)) {
            m_out.dropped.emplace_back(arg.names.empty() ? os.target : arg.names[0], reason);
            continue;
        }
        if (arg.kind == ArgKind::String)
            return fail(ErrorCode::Unsupported,
                "method '" + m_method + "': Returning " + (arg.strings.empty() ? std::string() : arg.strings[0])
                    + " is not yet supported in the emitter");
        PTE_TRY(auto out, convertUntyped(arg, "output " + std::to_string(i)));
        if (os.kind == OutputKind::GradientToParameter) {
            if (m_out.gradientsIndex < 0)
                m_out.gradientsIndex = index;
            m_out.gradientFqns.push_back(os.target);
        }
        m_out.outputs.push_back(std::move(out));
        ++index;
    }
    // Joint graphs: ExecuTorch's weights_to_outputs_pass returns the trained parameters too.
    if (!m_trainable.empty()) {
        m_out.joint = true;
        for (std::size_t i = 0; i < m_ep.signature.inputSpecs.size(); ++i) {
            const auto& is = m_ep.signature.inputSpecs[i];
            if (is.kind != InputKind::Parameter || !m_trainable.count(is.target) || g.inputs[i].names.empty())
                continue;
            PTE_TRY(const int r, lookup(g.inputs[i].names[0], "parameter"));
            if (m_out.parametersIndex < 0)
                m_out.parametersIndex = index;
            m_out.outputs.push_back(LArg::tensor(r));
            ++index;
        }
    }
    return {};
}

} // namespace pte::emitcore
