// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "runtimecase.h"

#include "executiontestutils.h"

#include <algorithm>
#include <cctype>

namespace pte::test {

std::optional<std::string> emitAndRunOnRuntime(const Case& c, const std::string& label, EmitOptions options)
{
    Result<std::shared_ptr<const ExportedProgram>> ep = fail(ErrorCode::Internal, "no program");
    if (c.program) {
        ep = c.program();
    } else if (auto built = c.dump.build(label)) {
        ep = std::shared_ptr<const ExportedProgram>(std::move(*built));
    } else {
        ep = fail(built.error());
    }
    if (!ep)
        return "the dump does not read: " + ep.error().message;
    options.initialiseMutableBuffers = true;
    std::string file = label;
    std::replace_if(
        file.begin(), file.end(), [](char ch) { return !std::isalnum(static_cast<unsigned char>(ch)); }, '_');
    auto emitted = emitAndReload({ { "forward", *ep } }, "rt_" + file, options);
    if (!emitted)
        return "emission failed: " + emitted.error().message;
    const ExecutionPlan* plan = emitted->file->program->method("forward");
    if (!plan)
        return std::string("the emitted program has no forward method");
    RunnerOptions ro;
    ro.runs = c.runs;
    ro.inputs["forward"] = runnerInputs(*plan, c.inputs);
    for (const int fill : { 0, 255 }) {
        ro.plannedFill = fill;
        auto run = runEtRunner(emitted->file->path, ro);
        if (!run)
            return "the runtime did not run: " + run.error().message;
        if (run->exitCode != 0)
            return "ExecuTorch's runtime refused the program (planned memory " + std::to_string(fill)
                + "): " + run->message();
        const auto& outputs = run->methods["forward"].outputs;
        const auto diff =
            c.check ? c.check(outputs) : compareOutputs(outputs, c.expected, c.rtol, "PyTorch definition");
        if (diff)
            return "planned memory filled with " + std::to_string(fill) + ": " + *diff;
    }
    return std::nullopt;
}

Result<void> emitOnly(const Case& c, const std::string& label)
{
    auto ep = c.dump.build(label);
    if (!ep)
        return fail(ep.error());
    std::shared_ptr<const ExportedProgram> p(std::move(*ep));
    auto r = emitProgram({ { "forward", p } }, EmitOptions {});
    if (!r)
        return fail(r.error());
    return {};
}

} // namespace pte::test
