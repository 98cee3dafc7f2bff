// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// A test case (operatorcases.h: a dump as torch.export writes it, its inputs and the outputs PyTorch's definitions
// give) emitted by ptelens and run on ExecuTorch's own runtime: the check of every lowering test.

#include "operatorcases.h"
#include "pte/emitter.h"

#include <optional>
#include <string>

namespace pte::test {

/**
 * Emits `c` as method `forward`, runs it on ExecuTorch's runtime twice (planned memory filled with 0, then with 255:
 * results must not depend on it) with `c.inputs`, `c.runs` executions each, and compares the outputs of the last with
 * `c.expected` (or `c.check`). @returns nullopt when the program emits, loads, runs and computes the expected values;
 * otherwise what failed: the emitter's error, the runtime's refusal or the first differing element.
 */
std::optional<std::string> emitAndRunOnRuntime(const Case& c, const std::string& label, EmitOptions options = {});

/** Emits `c` as method `forward` without running it: the emitter's error, for the cases it must refuse. */
Result<void> emitOnly(const Case& c, const std::string& label);

} // namespace pte::test

/** Fails the test with emitAndRunOnRuntime's message (skips without the runtime). */
#define QVERIFY_RUNS_ON_RUNTIME(c, label)                                                                              \
    do {                                                                                                               \
        PTE_REQUIRE_ET_RUNNER();                                                                                       \
        const auto problem_ = ::pte::test::emitAndRunOnRuntime((c), (label));                                          \
        if (problem_)                                                                                                  \
            QFAIL(problem_->c_str());                                                                                  \
    } while (false)
