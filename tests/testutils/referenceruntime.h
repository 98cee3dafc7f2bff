// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include "pte/program.h"
#include "pte/ptereader.h"
#include "pte/result.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace pte::test {

/** A dense, contiguous tensor held by the test (inputs and outputs of a run). */
struct HostTensor
{
    ScalarType dtype = ScalarType::Float;
    std::vector<std::int64_t> sizes;
    std::vector<double> values; ///< element values, whatever the dtype (exact for the small ints tests use)
    std::string text; ///< a String output's value (then no values)

    static HostTensor floats(std::vector<std::int64_t> sizes, std::vector<double> values)
    {
        return { ScalarType::Float, std::move(sizes), std::move(values) };
    }
};

/**
 * A small interpreter of `.pte` methods, written for the tests from the runtime's documented semantics
 * (runtime-checks.md, emitter-semantics.md): planned memory arenas sized by non_const_buffer_sizes with
 * tensors placed at their planned offsets, constants from the constant segment, mutable-data initial state
 * copied in at load, inputs copied into their planned tensors, instructions run with a program counter
 * (KernelCall, MoveCall aliasing, JumpFalseCall on Bool or all-true Bool tensors), a few dozen portable
 * kernels on float/int/bool elements, outputs read back after the last instruction.
 *
 * It exists to catch what a structural check cannot: wrong argument order, a memory plan that lets two
 * live tensors overlap, a missing buffer write-back, a wrong jump target. Arenas persist across run()
 * calls like a loaded Method's planned memory, so mutable buffers carry state from one call to the next.
 * Unknown operators, delegates and unsupported layouts are errors naming the instruction.
 */
class ReferenceRuntime
{
public:
    /** Prepares `method` of `program` (which must outlive the runtime); EXTERNAL constants come from `external`
     *  (a .ptd, as the runtime's named data map), which must outlive the runtime too. */
    static Result<std::unique_ptr<ReferenceRuntime>> load(
        const Program& program, const std::string& method, const ExternalData* external = nullptr);

    ~ReferenceRuntime();
    ReferenceRuntime(const ReferenceRuntime&) = delete;
    ReferenceRuntime& operator=(const ReferenceRuntime&) = delete;

    /** Sets the inputs (tensors by value; Int/Double/Bool inputs from a one-element HostTensor), runs the
     *  chain and returns every output (non-tensor outputs as 0-D tensors of their value). */
    Result<std::vector<HostTensor>> run(const std::vector<HostTensor>& inputs);

    /** The bytes of planned memory `memoryId` at `offset` read as `count` elements of `dtype`. */
    Result<std::vector<double>> readPlanned(
        std::uint32_t memoryId, std::uint64_t offset, ScalarType dtype, std::size_t count) const;

    /** Instructions executed by the last run (jumps make this differ from the chain length). */
    [[nodiscard]] std::size_t executedInstructions() const;

    class Impl;

private:
    explicit ReferenceRuntime(std::unique_ptr<Impl> impl);
    std::unique_ptr<Impl> m_impl;
};

} // namespace pte::test
