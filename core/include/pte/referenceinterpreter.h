// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include "pte/program.h"
#include "pte/ptereader.h"
#include "pte/result.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

/**
 * @file
 * ptelens' own interpreter of `.pte` methods: the expected values of a run (program outputs and every kernel's
 * outputs), to compare with what a runtime logged in an ETDump, and the tests' oracle for emitted programs.
 */

namespace pte {

/** A dense, contiguous tensor held by the caller (inputs and outputs of a run), elements in row-major order. */
struct HostTensor
{
    ScalarType dtype = ScalarType::Float;
    std::vector<std::int64_t> sizes;
    std::vector<double> values; ///< element values, whatever the dtype (integers beyond 2^53 are rounded)
    std::string text; ///< a String output's value (then no values)

    static HostTensor floats(std::vector<std::int64_t> sizes, std::vector<double> values)
    {
        return { ScalarType::Float, std::move(sizes), std::move(values) };
    }
};

/**
 * A small interpreter of `.pte` methods, written from the runtime's documented semantics
 * (docs/runtime-rules.md, docs/emission.md): planned memory arenas sized by non_const_buffer_sizes with
 * tensors placed at their planned offsets, constants from the constant segment, mutable-data initial state
 * copied in at load, inputs copied into their planned tensors, instructions run with a program counter
 * (KernelCall, MoveCall aliasing, JumpFalseCall on Bool or all-true Bool tensors), a few dozen portable
 * kernels on float/int/bool elements, outputs read back after the last instruction.
 *
 * It exists to catch what a structural check cannot: wrong argument order, a memory plan that lets two
 * live tensors overlap, a missing buffer write-back, a wrong jump target. Arenas persist across run()
 * calls like a loaded Method's planned memory, so mutable buffers carry state from one call to the next.
 * Errors: load() fails with InvalidInput for an unknown method or a tensor that does not fit its memory, Unsupported
 * for several chains or a dtype it cannot hold; run() fails with Unsupported for an operator it has no kernel for or
 * a delegate call without a delegate handler, InvalidInput for bad arguments: each naming the instruction
 * ("instruction 3: ...").
 */
class ReferenceInterpreter
{
public:
    /** Prepares `method` of `program` (which must outlive the runtime); EXTERNAL constants come from `external`
     *  (a .ptd, as the runtime's named data map), which must outlive the runtime too. */
    static Result<std::unique_ptr<ReferenceInterpreter>> load(
        const Program& program, const std::string& method, const ExternalData* external = nullptr);

    ~ReferenceInterpreter();
    ReferenceInterpreter(const ReferenceInterpreter&) = delete;
    ReferenceInterpreter& operator=(const ReferenceInterpreter&) = delete;

    /** Sets the inputs (tensors by value; Int/Double/Bool inputs from a one-element HostTensor), runs the
     *  chain and returns every output (non-tensor outputs as 0-D tensors of their value). */
    Result<std::vector<HostTensor>> run(const std::vector<HostTensor>& inputs);

    /** The bytes of planned memory `memoryId` at `offset` read as `count` elements of `dtype`. */
    Result<std::vector<double>> readPlanned(
        std::uint32_t memoryId, std::uint64_t offset, ScalarType dtype, std::size_t count) const;

    /**
     * Called after each KernelCall with its instruction index, e.g. to read the values it wrote with value() before a
     * later instruction reuses their memory.
     */
    void setKernelObserver(std::function<void(std::size_t instruction)> observer);
    /**
     * Called before (`done` false) and after (`done` true) every instruction run() executes, KernelCalls included
     * (after the kernel observer), e.g. to time each one. An instruction that fails gets no `done` call.
     */
    void setInstructionObserver(std::function<void(std::size_t instruction, bool done)> observer);
    /**
     * Asked before every instruction run() executes (before the instruction observer): returning true stops the run
     * there with ErrorCode::Cancelled ("cancelled before instruction N"), as if that instruction had failed; the
     * values the instructions before it wrote stay readable. For a caller that cancels a long run from another
     * thread (the check runs on the thread calling run()).
     */
    void setInterruptCheck(std::function<bool(std::size_t instruction)> check);
    /** The instruction the last run() stopped at when an instruction failed (nullopt when it finished, or failed
     *  before the first instruction: its inputs). */
    [[nodiscard]] std::optional<std::size_t> failedInstruction() const;
    /**
     * What a delegate computes, for the caller to supply (the interpreter does not look inside payloads): called at
     * each DelegateCall with the delegate's index in the method's `delegates` and the current values of all its
     * arguments (its inputs, then its outputs, as the call lists them); returns the values of its outputs, which are
     * written into the last arguments in order (tensors resized as the runtime resizes them). An error fails the run,
     * naming the instruction.
     */
    using DelegateHandler =
        std::function<Result<std::vector<HostTensor>>(std::size_t delegateIndex, const std::vector<HostTensor>& args)>;
    void setDelegateHandler(DelegateHandler handler);
    /** The current contents of tensor (or scalar, as a 0-D tensor) value `index`. */
    Result<HostTensor> value(std::int32_t index) const;

    /** Instructions executed by the last run (jumps make this differ from the chain length). */
    [[nodiscard]] std::size_t executedInstructions() const;

    class Impl;

private:
    explicit ReferenceInterpreter(std::unique_ptr<Impl> impl);
    std::unique_ptr<Impl> m_impl;
};

} // namespace pte
