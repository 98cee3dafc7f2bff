// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include "pte/program.h"
#include "pte/result.h"

#include <atomic>
#include <cstdint>
#include <utility>
#include <vector>

/**
 * @file
 * The data flow of a serialized method (an ExecutionPlan): which instruction writes and reads which value, and where
 * a value is read after another value was written to its planned memory (an elided view, a MoveCall's destination, or
 * bytes the memory plan shares), so the data flows through memory rather than through a value id. What the GUI's
 * instruction graph draws and `ptelens-cli graph` prints for a program. Which arguments a KernelCall writes comes
 * from the operator schemas (pte/kernelarguments.h), which is why this lives in the emit stage beside them.
 */

namespace pte {

/** One read of a value by a node, and where what it reads was written. */
struct DataFlowRead
{
    std::int32_t value = -1; ///< the value read
    std::int32_t from = -1; ///< the node that wrote what is read (-1: nothing before it did)
    /** The value `from` wrote: `value` itself, or another value written later to (part of) its planned bytes. */
    std::int32_t writtenValue = -1;
    /** Whether the read goes through planned memory: `from` wrote another value over this one's bytes. */
    [[nodiscard]] bool throughMemory() const noexcept { return from >= 0 && writtenValue != value; }
};

/** A method input, an instruction of chain 0, or the method's outputs, with the values it reads and writes. */
struct DataFlowNode
{
    /** What the node stands for. */
    enum class Kind : std::uint8_t
    {
        Input, ///< a method input: writes its value
        Instruction, ///< an instruction of chain 0
        Output, ///< the method's outputs: reads each of them
    };
    Kind kind = Kind::Instruction;
    /** Input: the position in ExecutionPlan::inputs; Instruction: the instruction id in chain 0; Output: 0. */
    std::int32_t index = 0;
    /** In the order read; a TensorList argument stands for its items. Only tensors that are not constants. */
    std::vector<DataFlowRead> reads;
    std::vector<std::int32_t> writes; ///< the values written, each once, in order (same rule)
};

/** An edge of the data-flow graph: `to` reads something `from` wrote. */
struct DataFlowEdge
{
    std::int32_t from = -1; ///< node index
    std::int32_t to = -1; ///< node index
    bool throughMemory = false; ///< the read that made the edge went through planned memory (DataFlowRead)
    std::int32_t value = -1; ///< the value read by that read
    std::int32_t writtenValue = -1; ///< the value `from` wrote
};

/** A value read after another value was written to its planned bytes. */
struct MemoryAlias
{
    std::int32_t value = -1; ///< the value read
    std::int32_t writtenValue = -1; ///< the value written over (part of) its planned bytes
    friend bool operator==(const MemoryAlias&, const MemoryAlias&) = default;
};

/** The data flow of one method. */
struct MethodDataFlow
{
    /** The method inputs (in ExecutionPlan::inputs order), then chain 0's instructions, then one Output node. */
    std::vector<DataFlowNode> nodes;
    /** Each (from, to) pair once, in the order first read; no self edges. */
    std::vector<DataFlowEdge> edges;
    /** Node index of instruction `id` of chain 0. */
    [[nodiscard]] std::int32_t instructionNode(std::int32_t id) const noexcept { return inputCount + id; }
    std::int32_t inputCount = 0; ///< the number of Input nodes
    /** The distinct (value, writtenValue) pairs of the reads through memory, in the order first read. */
    [[nodiscard]] std::vector<MemoryAlias> aliases() const;
};

/**
 * The data flow of `plan`: method inputs write their values; each instruction reads, then writes, in argument order:
 * a KernelCall of an operator the schemas know (with as many arguments as its schema has slots) reads the arguments it
 * does not write and writes the mutable and return slots (an argument written in place is read too when something
 * wrote it before); a MoveCall reads its source and writes its destination; other instructions (delegates, custom
 * operators) take the first instruction that references a value as its writer and later ones as readers. Only
 * tensors that are not constants take part (a TensorList argument stands for its items); out-of-range value indices
 * are skipped. A read comes from the last writer of the value, or from a later writer of another value to any of its
 * planned bytes (memory id, offset, nbytes).
 * @returns Cancelled when `cancel` becomes true (checked every 4096 instructions).
 */
[[nodiscard]] Result<MethodDataFlow> methodDataFlow(
    const ExecutionPlan& plan, const std::atomic<bool>* cancel = nullptr);

} // namespace pte
