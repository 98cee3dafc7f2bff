// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// The emitter's driver (ExecuTorch's emit_program): for each method, in name order, lower (lowering.cpp and the
// passes beside it), plan memory (memoryplanner.cpp), emit (methodemitter.cpp); then the constant methods
// (constantmethods.cpp) and the program-wide tables (programstate.h).
#include "emit/constantmethods.h"
#include "emit/lowering.h"
#include "emit/memoryplanner.h"
#include "emit/methodemitter.h"
#include "emit/programstate.h"
#include "pte/emitter.h"
#include "pte/tablecount.h"

#include <algorithm>
#include <set>
#include <system_error>
#include <thread>

namespace pte {

namespace {

using namespace emitcore;

/** Destroys `garbage` on a new thread; the returned handle joins it when released. Inline if no thread starts. */
std::shared_ptr<void> releaseInBackground(std::vector<LoweredMethod> garbage)
{
    if (garbage.empty())
        return {};
    try {
        return std::make_shared<std::jthread>([dying = std::move(garbage)]() mutable { dying.clear(); });
    } catch (const std::system_error&) {
        return {}; // no thread: `garbage` was freed while unwinding, on this thread
    }
}

/** Every method has a program and a name of its own, not also a prim getter's. Errors: InvalidInput, naming them. */
Result<void> checkMethods(const std::vector<std::pair<std::string, std::shared_ptr<const ExportedProgram>>>& methods,
    const EmitOptions& options)
{
    if (methods.empty())
        return fail(
            ErrorCode::InvalidInput, "Did not receive ExportedProgram for the following methods []: nothing to emit");
    std::vector<std::string> bad;
    std::set<std::string> seen;
    for (const auto& [name, ep] : methods) {
        if (!ep || name.empty() || !seen.insert(name).second)
            bad.push_back(name.empty() ? "<unnamed>" : name);
    }
    for (const auto& [name, v] : options.primGetters)
        if (seen.count(name))
            bad.push_back(name + " (also a prim getter)");
    if (!bad.empty()) {
        std::string list;
        for (const auto& b : bad)
            list += (list.empty() ? "" : ", ") + b;
        return fail(ErrorCode::InvalidInput,
            "Did not receive ExportedProgram for the following methods [" + list
                + "] (missing, unnamed or duplicated)");
    }
    return {};
}

} // namespace

Result<EmitterOutput> emitProgram(
    const std::vector<std::pair<std::string, std::shared_ptr<const ExportedProgram>>>& methods,
    const EmitOptions& options)
{
    PTE_CHECK(checkMethods(methods, options));
    auto sorted = methods;
    std::sort(sorted.begin(), sorted.end(), [](const auto& a, const auto& b) { return a.first < b.first; });

    EmitterOutput out;
    out.serialize = options.serialize;
    ProgramState ps;
    std::vector<std::pair<std::string, LoweredMethod>> trainingMethods;
    std::vector<LoweredMethod> finished; // freed in the background once every method is emitted
    for (const auto& [name, ep] : sorted) {
        if (auto getter = constantMethod(name, *ep)) {
            // A method that only returns constants is emitted like a prim getter.
            out.program.executionPlan.push_back(std::move(*getter));
            out.methods[name] = MethodEmitInfo {};
            continue;
        }
        LoweringOptions lo;
        lo.zeroFillMissingWeights = options.zeroFillMissingWeights;
        lo.initialiseMutableBuffers = options.initialiseMutableBuffers;
        lo.cancel = options.cancel;
        // Errors say which method they are about (Error::location), whichever stage found them. The name is
        // captured through an init-capture: C++20 lets a lambda capture a structured binding, clang 14 does not.
        auto inMethod = [&method = name](Error e) {
            if (e.location.method.empty())
                e.location.method = method;
            return fail(std::move(e));
        };
        auto loweredOr = lowerMethod(*ep, name, lo);
        if (!loweredOr)
            return inMethod(std::move(loweredOr).error());
        auto lowered = std::move(loweredOr).value();
        out.warnings.insert(out.warnings.end(), lowered.warnings.begin(), lowered.warnings.end());
        const std::uint64_t plannedBytes = planMethodMemory(lowered, options.memoryAlignment);
        MethodEmitter me(ps, lowered, name, options, *ep, plannedBytes);
        if (auto done = me.run(out); !done)
            return inMethod(std::move(done).error());
        if (lowered.joint)
            trainingMethods.emplace_back(name, std::move(lowered));
        else
            finished.push_back(std::move(lowered));
    }
    // Training metadata plans, then the user's prim getters.
    for (const auto& [name, lm] : trainingMethods)
        appendTrainingPlans(name, lm, out.program.executionPlan);
    for (const auto& [name, value] : options.primGetters) {
        PTE_TRY(auto plan, primGetter(name, value, ps, options));
        out.program.executionPlan.push_back(std::move(plan));
    }
    out.program.version = 0;
    out.program.constantBuffer = std::move(ps.constants);
    out.program.backendDelegateData = std::move(ps.delegateBlobs);
    // ExecuTorch sets constant_segment = {0, []} here; layoutForSerialization creates it from constant_buffer.
    if (ps.mutableData.size() > 1)
        out.mutableData = std::move(ps.mutableData);
    out.namedData = std::move(ps.namedData);
    for (auto& [name, lm] : trainingMethods)
        finished.push_back(std::move(lm));
    out.pendingRelease = releaseInBackground(std::move(finished));
    // ExecuTorch's verifier (Program::load with InternalConsistency) accepts at most kMaxVerifierTables tables: over
    // it, equal scalar arguments share their values, and if that is not enough the user is told.
    if (const auto tables = flatbufferTableCount(out.program); tables > kMaxVerifierTables) {
        if (!options.shareScalarValues) {
            EmitOptions shared = options;
            shared.shareScalarValues = true;
            return emitProgram(methods, shared);
        }
        Diagnostic d;
        d.severity = Severity::Warning;
        d.code = ErrorCode::Unsupported;
        d.message = "the program has " + std::to_string(tables)
            + " flatbuffer tables (scalar arguments already shared), " + "more than the "
            + std::to_string(kMaxVerifierTables)
            + " ExecuTorch's program verifier accepts: the runtime loads it with Program::Verification::Minimal (its "
              "default) but refuses it with InternalConsistency ('ptelens-cli verify' reports it). Split the model "
              "into several methods or programs to stay under the limit.";
        out.warnings.push_back(std::move(d));
    }
    if (options.progress)
        options.progress(1, 1);
    return out;
}

} // namespace pte
