// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include "pte/graph.h"
#include "pte/program.h"

#include <array>
#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

namespace pte::diff {

/**
 * One side of a method comparison: the plan with its chains flattened into one instruction list (debug maps index
 * instructions the same way: EXIR writes one chain), and the debug maps of the method when the side has them.
 */
class MethodView
{
public:
    MethodView(const Program& program, const ExecutionPlan& plan, const EtRecordMaps* maps);

    [[nodiscard]] const Program& program() const noexcept { return *m_program; }
    [[nodiscard]] const ExecutionPlan& plan() const noexcept { return *m_plan; }
    [[nodiscard]] std::size_t instructionCount() const noexcept { return m_instructions.size(); }
    [[nodiscard]] const Instruction& instruction(std::size_t i) const noexcept { return *m_instructions[i]; }
    [[nodiscard]] std::size_t valueCount() const noexcept { return m_plan->values.size(); }
    /** The value at `index`, or nullptr when out of range. */
    [[nodiscard]] const EValue* value(std::int64_t index) const noexcept;
    /** Debug handles of instruction i, or nullptr when the side has no debug handle map (or no entry). */
    [[nodiscard]] const std::vector<std::int64_t>* debugHandles(std::size_t i) const;
    [[nodiscard]] bool hasDebugHandles() const noexcept { return m_handles != nullptr; }
    /** Delegate debug identifiers of delegate call i, or nullptr. */
    [[nodiscard]] const DelegateMapEntry* delegateMapEntry(std::size_t i) const;
    [[nodiscard]] bool hasDelegateMap() const noexcept { return m_delegateMap != nullptr; }

    /**
     * The value indices an instruction reads or writes, by position: KernelCall/DelegateCall args, MoveCall
     * {from, to}, JumpFalseCall {condition}, FreeCall {value}. `scratch` holds the short lists.
     */
    [[nodiscard]] std::span<const std::int32_t> arguments(std::size_t i, std::array<std::int32_t, 2>& scratch) const;
    /** "aten::add.out" for a kernel call, the backend id for a delegate call, "" otherwise ("?" when out of range). */
    [[nodiscard]] std::string target(std::size_t i) const;
    /** The delegate a delegate call uses, or -1. */
    [[nodiscard]] std::int32_t delegateIndex(std::size_t i) const;

    /** "%5 f32[1, 3] planned 1@4096", "%2 Int 1", "%9 IntList [1, 1]": a value in one line. */
    [[nodiscard]] std::string describeValue(std::int64_t index) const;
    /** "aten::add.out(%0, %3, %4, %1)" */
    [[nodiscard]] std::string describeInstruction(std::size_t i) const;

private:
    const Program* m_program;
    const ExecutionPlan* m_plan;
    std::vector<const Instruction*> m_instructions;
    const std::map<std::int64_t, std::vector<std::int64_t>>* m_handles = nullptr;
    const std::map<std::int64_t, DelegateMapEntry>* m_delegateMap = nullptr;
};

/** A double as the shortest text that reads back the same ("0.5", "1e-05", "nan"). */
[[nodiscard]] std::string numberText(double v);
/** "f32[1, 3, 224, 224]" */
[[nodiscard]] std::string tensorType(const Tensor& t);
/** "[1, 3]", "[1, 2, ... (40 items)]" past `max` items. */
template <typename T> [[nodiscard]] std::string listText(const std::vector<T>& items, std::size_t max = 16)
{
    std::string s = "[";
    for (std::size_t i = 0; i < items.size() && i < max; ++i) {
        if (i)
            s += ", ";
        if constexpr (std::is_floating_point_v<T>)
            s += numberText(double(items[i]));
        else if constexpr (std::is_same_v<T, bool>)
            s += items[i] ? "true" : "false";
        else
            s += std::to_string(+items[i]);
    }
    if (items.size() > max)
        s += ", ... (" + std::to_string(items.size()) + " items)";
    return s + "]";
}

} // namespace pte::diff
