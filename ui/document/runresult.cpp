// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "document/runresult.h"

#include "document/snapshot.h"
#include "pte/mappedfile.h"

namespace pte::ui {

std::string RunResult::statusText() const
{
    std::string t = "Ran " + run.method + " on " + inputSource + ": ";
    if (run.loadError)
        return t + "the interpreter refused the method: " + run.loadError->message;
    const auto n = summary.instructionsRun;
    t += std::to_string(n) + (n == 1 ? " instruction" : " instructions");
    if (summary.stop == pte::RunStop::None) {
        t += ", finished";
        if (summary.check)
            t += summary.check->ok ? "; outputs match the bundled test case"
                                   : "; outputs DIFFER from the bundled test case";
        return t;
    }
    t += std::string(", stopped (") + pte::runStopName(summary.stop) + ")";
    if (summary.stoppedAt)
        t += " at instruction " + std::to_string(*summary.stoppedAt)
            + (summary.stoppedOperator.empty() ? "" : " " + summary.stoppedOperator);
    if (!summary.stopReason.empty())
        t += ": " + summary.stopReason;
    return t;
}

const RunResult* currentRun(const Snapshot& snapshot, const std::string& method)
{
    const RunResult* r = snapshot.run.get();
    if (!r || !snapshot.program || r->program != snapshot.program)
        return nullptr;
    return method.empty() || r->run.method == method ? r : nullptr;
}

bool hasStaleRun(const Snapshot& snapshot) { return snapshot.run && !currentRun(snapshot); }

pte::Result<pte::ReferenceInputs> runInputs(const Snapshot& snapshot, const RunSettings& settings)
{
    if (!snapshot.program)
        return pte::fail(pte::ErrorCode::InvalidInput, "there is no program to run: open a .pte or emit first");
    const pte::Program& program = *snapshot.program;
    const pte::ExecutionPlan* plan = program.method(settings.method);
    if (!plan)
        return pte::fail(pte::ErrorCode::InvalidInput, "the program has no method '" + settings.method + "'");
    switch (settings.inputs) {
    case RunSettings::Inputs::Fill:
        return pte::runnerFillInputs(*plan, settings.fill);
    case RunSettings::Inputs::Sample: {
        const MethodEntry* m = snapshot.method(settings.method);
        if (!m || !m->exported)
            return pte::fail(pte::ErrorCode::InvalidInput, "method '" + settings.method + "' has no graph dump");
        return pte::sampleReferenceInputs(*m->exported, *plan);
    }
    case RunSettings::Inputs::Bundled: {
        const auto* bundled = snapshot.pteFile ? snapshot.pteFile->bundled.get() : nullptr;
        if (!bundled)
            return pte::fail(pte::ErrorCode::InvalidInput, "the program is not a bundled program");
        return pte::bundledInputs(*bundled, *plan, settings.testCase);
    }
    case RunSettings::Inputs::JsonFile: {
        auto bytes = pte::mapFile(settings.jsonPath);
        if (!bytes)
            return pte::Unexpected { bytes.error() };
        const std::string_view body(reinterpret_cast<const char*>(bytes->data()), bytes->size());
        return pte::runnerJsonInputs(program, settings.method, body, settings.jsonPath, settings.fill);
    }
    case RunSettings::Inputs::RawFiles:
        return pte::rawFileInputs(*plan, settings.rawPaths);
    }
    return pte::fail(pte::ErrorCode::Internal, "unknown input choice");
}

pte::Result<std::shared_ptr<const RunResult>> runProgram(
    const Snapshot& snapshot, const RunSettings& settings, std::function<bool(std::uint64_t, std::uint64_t)> progress)
{
    PTE_TRY(auto inputs, runInputs(snapshot, settings));
    auto out = std::make_shared<RunResult>();
    out->settings = settings;
    out->program = snapshot.program;
    out->inputSource = inputs.source;
    pte::RunOptions options;
    options.intermediates = true;
    options.recordEveryExecution = false;
    options.delegateNodes = true; // Inside Delegate shows each inner node's expected value: its statistics
    options.maxInnerNodeElements = 0;
    options.progress = std::move(progress);
    if (snapshot.pteFile && snapshot.pteFile->externalData && snapshot.pteFile->program == snapshot.program)
        options.external = &*snapshot.pteFile->externalData;
    out->run = pte::runMethod(*snapshot.program, settings.method, inputs.values, options);
    const auto* bundled = snapshot.pteFile ? snapshot.pteFile->bundled.get() : nullptr;
    if (settings.inputs == RunSettings::Inputs::Bundled)
        out->run.bundledCase = std::int32_t(settings.testCase);
    out->summary = pte::summarizeRun(*snapshot.program->method(settings.method), out->run, bundled);
    return std::shared_ptr<const RunResult>(std::move(out));
}

} // namespace pte::ui
