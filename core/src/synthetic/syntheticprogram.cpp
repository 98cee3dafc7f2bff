// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// Synthetic programs for `ptelens-cli synth` and the benchmarks.
#include "pte/syntheticprogram.h"

#include "base/alignment.h"

#include <cerrno>
#include <cstring>
#include <sys/mman.h>

namespace pte {

namespace {

/** Largest u8 constant tensor: keeps sizes far from the int32 limit. */
constexpr std::uint64_t kChunkBytes = std::uint64_t(256) << 20;

struct AnonymousMapping
{
    void* addr = nullptr;
    std::size_t size = 0;
    ~AnonymousMapping()
    {
        if (addr)
            ::munmap(addr, size);
    }
};

Tensor f32Tensor(std::int32_t elements)
{
    Tensor t;
    t.scalarType = ScalarType::Float;
    t.sizes = { elements };
    t.dimOrder = { 0 };
    return t;
}

Tensor planned(std::int32_t elements, std::uint32_t offset)
{
    Tensor t = f32Tensor(elements);
    t.allocationInfo = AllocationDetails { 1, offset, 0 };
    return t;
}

} // namespace

Result<Program> makeSyntheticProgram(const SyntheticOptions& options)
{
    if (options.methods == 0)
        return fail(ErrorCode::InvalidInput, "a synthetic program needs at least one method");
    if (options.instructions < options.methods)
        return fail(ErrorCode::InvalidInput,
            "a synthetic program needs at least one instruction per method (" + std::to_string(options.methods)
                + " methods, " + std::to_string(options.instructions) + " instructions)");
    if (options.instructions > 50'000'000)
        return fail(ErrorCode::InvalidInput,
            "at most 50000000 instructions fit in a flatbuffer, not " + std::to_string(options.instructions));
    if (options.activationElements == 0 || options.activationElements > (1u << 24))
        return fail(ErrorCode::InvalidInput, "activation elements must be between 1 and 16777216");
    if (options.constantBytes > (std::uint64_t(1) << 46))
        return fail(ErrorCode::InvalidInput,
            "constant bytes must be at most 64 TiB, not " + std::to_string(options.constantBytes));

    const auto elements = std::int32_t(options.activationElements);
    const std::uint64_t actBytes = base::roundUp(std::uint64_t(elements) * 4, 16);
    const std::uint64_t weightBytes = std::uint64_t(elements) * 4;

    // Constant segment: [weight, padded to 16][chunk 0][chunk 1]...; every chunk but the last is a multiple of 16.
    SubsegmentOffsets constants;
    constants.segmentIndex = 0;
    constants.offsets = { 0, 0 };
    std::vector<std::uint64_t> chunkSizes;
    const std::uint64_t bulkStart = base::roundUp(weightBytes, 16);
    for (std::uint64_t left = options.constantBytes; left > 0;) {
        const std::uint64_t n = std::min(left, kChunkBytes);
        constants.offsets.push_back(bulkStart + kChunkBytes * chunkSizes.size());
        chunkSizes.push_back(n);
        left -= n;
    }
    const std::uint64_t segmentSize = chunkSizes.empty() ? weightBytes : bulkStart + options.constantBytes;

    auto mapping = std::make_shared<AnonymousMapping>();
    void* addr =
        ::mmap(nullptr, segmentSize, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (addr == MAP_FAILED)
        return fail(ErrorCode::Io,
            "cannot reserve " + std::to_string(segmentSize) + " bytes of address space: " + std::strerror(errno));
    mapping->addr = addr;
    mapping->size = segmentSize;
    auto* base = static_cast<std::uint8_t*>(addr);
    // Only the pages written here cost memory; the rest read as the shared zero page.
    for (std::int32_t i = 0; i < elements; ++i) {
        const float w = 0.5f + float(i % 8) * 0.125f;
        std::memcpy(base + 4 * std::size_t(i), &w, 4);
    }
    for (std::size_t c = 0; c < chunkSizes.size(); ++c) {
        std::uint8_t* chunk = base + constants.offsets[c + 2];
        const std::size_t marker = std::min<std::size_t>(16, chunkSizes[c]);
        for (std::size_t i = 0; i < marker; ++i)
            chunk[i] = std::uint8_t(c * 16 + i + 1);
    }
    ::mprotect(addr, segmentSize, PROT_READ);

    Program program;
    program.version = 0;
    DataSegment segment;
    segment.data = Bytes(mapping, std::span<const std::uint8_t>(base, segmentSize));
    segment.size = segmentSize;
    program.segments.push_back(std::move(segment));
    program.constantSegment = std::move(constants);

    for (std::uint32_t m = 0; m < options.methods; ++m) {
        ExecutionPlan plan;
        plan.name = m == 0 ? std::string("forward") : "forward_" + std::to_string(m);
        // 0: input, 1 and 2: activations (ping-pong), 3: constant weight, 4: alpha, then this method's chunks.
        plan.values.push_back(EValue { planned(elements, 0), 5 });
        plan.values.push_back(EValue { planned(elements, std::uint32_t(actBytes)), 5 });
        plan.values.push_back(EValue { planned(elements, std::uint32_t(2 * actBytes)), 5 });
        Tensor weight = f32Tensor(elements);
        weight.dataBufferIdx = 1;
        plan.values.push_back(EValue { weight, 5 });
        plan.values.push_back(EValue { Int { 1 }, 2 });
        for (std::size_t c = m; c < chunkSizes.size(); c += options.methods) {
            Tensor t;
            t.scalarType = ScalarType::Byte;
            t.sizes = { std::int32_t(chunkSizes[c]) };
            t.dimOrder = { 0 };
            t.dataBufferIdx = std::uint32_t(c + 2);
            plan.values.push_back(EValue { t, 5 });
        }
        plan.operators = { Operator { "aten::add", "out" }, Operator { "aten::mul", "out" } };
        const std::uint64_t count =
            options.instructions / options.methods + (m < options.instructions % options.methods ? 1 : 0);
        Chain chain;
        chain.instructions.reserve(count);
        std::int32_t src = 0;
        std::int32_t dst = 1;
        for (std::uint64_t i = 0; i < count; ++i) {
            dst = (i % 2 == 0) ? 1 : 2;
            Instruction ins;
            if (i % 2 == 0)
                ins.args = KernelCall { 0, { src, 3, 4, dst, dst } };
            else
                ins.args = KernelCall { 1, { src, 3, dst, dst } };
            ins.rawType = 1;
            chain.instructions.push_back(std::move(ins));
            src = dst;
        }
        plan.chains.push_back(std::move(chain));
        plan.inputs = { 0 };
        plan.outputs = { dst };
        plan.nonConstBufferSizes = { 0, std::int64_t(3 * actBytes) };
        program.executionPlan.push_back(std::move(plan));
    }
    return program;
}

} // namespace pte
