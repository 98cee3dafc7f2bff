// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "emit/lowering_p.h"

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

// The lifetimes of the lowered graph's values, which the memory planner packs. Not pte::valueLifetimes (the
// lifetimes a serialized ExecutionPlan shows, core/src/ptefile/valuelifetimes.cpp): this one counts on what
// serialization drops (labels and backward jumps of loops, views kept alive with their base, mutable buffers), so the
// two share no code, only the rule "first to last instruction that references the value".
void Lowering::computeLifetimes()
{
    std::int64_t pc = 0;
    auto touch = [&](int ref) {
        if (ref < 0)
            return;
        auto& v = m_out.values[std::size_t(ref)];
        if (v.first < 0 || pc < v.first)
            v.first = pc;
        v.last = std::max(v.last, pc);
    };
    auto touchArg = [&](const LArg& a) {
        touch(a.ref);
        for (const int r : a.refs)
            touch(r);
        for (const auto& e : a.ints)
            touch(e.ref);
    };
    for (const auto& p : m_out.placeholders)
        touch(p.ref);
    std::map<int, std::int64_t> labelPc;
    std::vector<std::pair<std::int64_t, std::int64_t>> loops; ///< [head, backward jump] of each map/scan loop
    for (const auto& in : m_out.instrs) {
        const bool real = in.kind == LInstr::Kind::Kernel || in.kind == LInstr::Kind::Delegate
            || in.kind == LInstr::Kind::JumpFalse || in.kind == LInstr::Kind::Move;
        if (in.kind == LInstr::Kind::Label)
            labelPc[in.label] = pc;
        if (in.kind == LInstr::Kind::JumpFalse) {
            const auto l = labelPc.find(in.label);
            if (l != labelPc.end()) // a backward jump closes a loop
                loops.emplace_back(l->second, pc);
        }
        for (const int r : in.allocs)
            touch(r);
        for (const auto& a : in.args)
            touchArg(a);
        for (const auto& a : in.retSlots)
            touchArg(a);
        for (const int r : in.delegateOuts)
            touch(r);
        if (in.cond)
            touchArg(*in.cond);
        touch(in.moveFrom);
        touch(in.moveTo);
        if (real)
            ++pc;
    }
    m_out.instructionCount = pc;
    for (const auto& o : m_out.outputs) {
        touch(o.ref);
        for (const int r : o.refs)
            touch(r);
    }
    // A view's uses keep its base alive (ExecuTorch merges the lifetimes of a _ViewSpec and its base).
    for (auto& v : m_out.values) {
        if (v.aliasOf < 0 || v.first < 0)
            continue;
        auto& b = m_out.values[std::size_t(v.aliasOf)];
        b.first = b.first < 0 ? v.first : std::min(b.first, v.first);
        b.last = std::max(b.last, v.last);
    }
    // Inside a loop, a value that is live on entry (defined before the head, used at or after it) is read
    // again by later iterations: it must stay allocated until the backward jump, so nothing defined inside the
    // loop may share its memory. Nested loops need no fixed point: an outer loop's range contains the inner's.
    for (const auto& [head, jump] : loops) {
        for (auto& v : m_out.values) {
            if (v.first >= 0 && v.first < head && v.last >= head)
                v.last = std::max(v.last, jump);
        }
    }
    for (auto& v : m_out.values) {
        if (v.mutableBuffer) {
            v.first = 0;
            v.last = pc;
        }
    }
}

} // namespace pte::emitcore
