// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// makeSyntheticVariant(): a synthetic program with deliberate edits, for the diff benchmark.
#include "pte/programdiff.h"

#include <cstdint>

namespace pte {

Result<SyntheticVariant> makeSyntheticVariant(const Program& base, std::uint64_t every)
{
    if (every < 4)
        return fail(ErrorCode::InvalidInput,
            "a synthetic variant edits one instruction in at least 4, not " + std::to_string(every));
    SyntheticVariant out;
    out.program.version = base.version;
    out.program.segments = base.segments;
    out.program.constantSegment = base.constantSegment;
    out.program.constantBuffer = base.constantBuffer;
    for (const auto& plan : base.executionPlan) {
        if (plan.chains.size() != 1 || plan.operators.empty() || plan.operators[0].qualifiedName() != "aten::add.out")
            return fail(ErrorCode::InvalidInput, "method " + plan.name + " is not shaped like a synthetic program");
        ExecutionPlan edited;
        edited.name = plan.name;
        edited.containerMetaType = plan.containerMetaType;
        edited.values = plan.values;
        edited.inputs = plan.inputs;
        edited.outputs = plan.outputs;
        edited.operators = plan.operators;
        edited.delegates = plan.delegates;
        edited.nonConstBufferSizes = plan.nonConstBufferSizes;
        const auto alpha = std::int32_t(edited.values.size());
        edited.values.push_back(EValue { Int { 2 }, 2 });
        const auto& source = plan.chains[0].instructions;
        Chain chain;
        chain.instructions.reserve(source.size() + source.size() / every + 1);
        std::uint64_t edit = 0;
        std::uint64_t editedBlock = UINT64_MAX;
        for (std::uint64_t i = 0; i < source.size(); ++i) {
            const Instruction& in = source[i];
            const auto* call = std::get_if<KernelCall>(&in.args);
            // The first add (op 0, five arguments) from the middle of each whole stretch of `every` instructions.
            const std::uint64_t block = i / every;
            const bool target = block != editedBlock && i % every >= every / 2 && (block + 1) * every <= source.size()
                && call && call->opIndex == 0 && call->args.size() == 5;
            if (!target) {
                chain.instructions.push_back(in);
                continue;
            }
            editedBlock = block;
            switch (edit++ % 3) {
            case 0: {
                Instruction changed = in;
                std::get<KernelCall>(changed.args).args[2] = alpha;
                chain.instructions.push_back(std::move(changed));
                ++out.changed;
                break;
            }
            case 1:
                chain.instructions.push_back(in);
                chain.instructions.push_back(in);
                ++out.inserted;
                break;
            default:
                ++out.removed;
                break;
            }
        }
        edited.chains.push_back(std::move(chain));
        out.program.executionPlan.push_back(std::move(edited));
    }
    return out;
}

} // namespace pte
