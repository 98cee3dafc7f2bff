// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// makeSyntheticVariant(): a synthetic program with deliberate edits, for the diff benchmark.
#include "pte/syntheticvariant.h"

#include "pte/syntheticprogram.h"

#include <cstdint>

namespace pte {

Result<Program> makeSyntheticLayers(std::uint64_t instructions, std::uint32_t layerLength, std::uint64_t constantBytes)
{
    if (instructions == 0 || layerLength < 4 || layerLength > 4096)
        return fail(ErrorCode::InvalidInput,
            "a layered synthetic program needs at least one instruction and layers of 4 to 4096, not "
                + std::to_string(layerLength));
    SyntheticOptions base;
    base.instructions = 1;
    base.constantBytes = constantBytes;
    PTE_TRY(Program program, makeSyntheticProgram(base));
    ExecutionPlan& plan = program.executionPlan.front();
    plan.operators = { Operator { "aten::add", "out" }, Operator { "aten::mul", "out" },
        Operator { "aten::sub", "out" }, Operator { "aten::div", "out" } };
    // Per layer position: two activations (alternate layers write one or the other) and a weight, planned one after
    // the other behind the tensors makeSyntheticProgram planned.
    std::uint64_t offset = std::uint64_t(plan.nonConstBufferSizes.at(1));
    struct Position
    {
        std::int32_t out[2];
        std::int32_t weight;
    };
    std::vector<Position> positions(layerLength);
    for (std::uint32_t p = 0; p < layerLength; ++p) {
        const auto elements = std::int32_t(16 + p);
        for (std::int32_t* slot : { &positions[p].out[0], &positions[p].out[1], &positions[p].weight }) {
            Tensor t;
            t.scalarType = ScalarType::Float;
            t.sizes = { elements };
            t.dimOrder = { 0 };
            t.allocationInfo = AllocationDetails { 1, std::uint32_t(offset), 0 };
            offset += (std::uint64_t(elements) * 4 + 15) / 16 * 16;
            *slot = std::int32_t(plan.values.size());
            plan.values.push_back(EValue { std::move(t), 5 });
        }
    }
    plan.nonConstBufferSizes = { 0, std::int64_t(offset) };
    Chain chain;
    chain.instructions.reserve(instructions);
    std::int32_t source = plan.inputs.at(0);
    const std::int32_t alpha = 4; // makeSyntheticProgram's Int 1
    for (std::uint64_t i = 0; i < instructions; ++i) {
        const Position& at = positions[i % layerLength];
        const std::int32_t out = at.out[(i / layerLength) % 2];
        const auto op = std::int32_t(i % layerLength % 4);
        Instruction in;
        in.args = op % 2 == 0 ? KernelCall { op, { source, at.weight, alpha, out, out } }
                              : KernelCall { op, { source, at.weight, out, out } };
        in.rawType = 1;
        chain.instructions.push_back(std::move(in));
        source = out;
    }
    plan.chains = { std::move(chain) };
    plan.outputs = { source };
    return program;
}

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
