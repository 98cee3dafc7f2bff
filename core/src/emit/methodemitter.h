// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include "emit/debugmaps.h"
#include "emit/lowering.h"
#include "emit/makevalue.h"
#include "emit/programstate.h"
#include "pte/emitter.h"

#include <cstdint>
#include <map>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

/**
 * @file
 * The emission of one lowered method into the program (ExecuTorch's _Emitter): values, instructions, operators
 * and delegates, with the method's debug maps.
 */

namespace pte::emitcore {

/** Emits one method. One use: construct, run(). */
class MethodEmitter
{
public:
    /** `lm` is lowered and memory planned (planMethodMemory: `plannedBytes`); `ep` is the program it came from. */
    MethodEmitter(ProgramState& ps, LoweredMethod& lm, const std::string& name, const EmitOptions& options,
        const ExportedProgram& ep, std::uint64_t plannedBytes)
        : m_ps(ps)
        , m_lm(lm)
        , m_name(name)
        , m_options(options)
        , m_handles(ep, options.generateDebugHandles)
        , m_valueOf(lm.values.size(), -1)
        , m_total(plannedBytes)
    { }

    /** Appends the method's execution plan to out.program and its maps to `out`. Errors: Cancelled, InvalidInput
     *  (a symbolic value used before the node computing it), Internal (inconsistent lowering). */
    Result<void> run(EmitterOutput& out);

private:
    std::int32_t addValue(KernelValue v)
    {
        m_plan.values.push_back(makeValue(std::move(v)));
        return std::int32_t(m_plan.values.size() - 1);
    }
    /** A scalar argument: a new value, or with EmitOptions::shareScalarValues the one already made for it. */
    std::int32_t scalarValue(KernelValue v);
    Result<std::int32_t> valueFor(int ref);
    Result<std::int32_t> emitArg(const LArg& a);
    std::int32_t operatorIndex(const std::string& name, const std::string& overload);
    /** The operator of a kernel instruction, found by its schema when it has one. */
    Result<std::int32_t> operatorIndex(const LInstr& in);

    ProgramState& m_ps;
    LoweredMethod& m_lm;
    std::string m_name;
    const EmitOptions& m_options;
    ExecutionPlan m_plan;
    MethodEmitInfo m_info;
    DebugHandles m_handles;
    std::vector<std::int32_t> m_valueOf;
    std::map<std::pair<std::string, std::string>, std::int32_t> m_opCache;
    std::unordered_map<const OpSchema*, std::int32_t> m_opBySchema;
    std::uint64_t m_total = 0; ///< planned bytes (memory id 1)
    std::map<std::pair<int, std::uint64_t>, std::int32_t> m_scalars; ///< shared scalars by (kind, bits)
};

} // namespace pte::emitcore
