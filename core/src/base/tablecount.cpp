// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// The number of flatbuffer tables a program serializes to, counted from program.fbs as the verifier walks it: every
// table and every union member (an EValue and its value, an Instruction and its arguments) is one.
#include "pte/tablecount.h"

namespace pte {

std::uint64_t flatbufferTableCount(const Program& program) noexcept
{
    std::uint64_t n = 1; // Program
    for (const auto& plan : program.executionPlan) {
        n += 2; // ExecutionPlan, ContainerMetadata
        for (const auto& v : plan.values) {
            n += v.kind() == ValueKind::None ? 1 : 2; // EValue and its value
            if (const Tensor* t = v.tensor()) {
                n += t->allocationInfo ? 1 : 0;
                n += t->extraTensorInfo ? 1 : 0;
            }
        }
        for (const auto& chain : plan.chains) {
            n += 1;
            for (const auto& in : chain.instructions)
                n += in.kind() == InstructionKind::None ? 1 : 2;
            if (chain.stacktrace)
                for (const auto& frames : *chain.stacktrace)
                    n += 1 + frames.items.size();
        }
        n += plan.operators.size();
        for (const auto& d : plan.delegates)
            n += 2 + d.compileSpecs.size(); // BackendDelegate, its data reference, compile specs
        if (plan.nonConstBufferDevice)
            n += plan.nonConstBufferDevice->size();
    }
    n += program.constantBuffer.size() + program.backendDelegateData.size() + program.segments.size();
    n += program.constantSegment ? 1 : 0;
    if (program.mutableDataSegments)
        n += program.mutableDataSegments->size();
    if (program.namedData)
        n += program.namedData->size();
    return n;
}

} // namespace pte
