// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// ExecuTorch's own runtime as a test oracle: runs `etrt_runner` (../shared/tools, README beside it) on a .pte
// and reads its --json result. Tests that need it use PTE_REQUIRE_ET_RUNNER() and carry the label `runtime`.
// Programs with XNNPACK delegates run on `etrt_runner_xnnpack` (RunnerOptions::xnnpack): the same runtime, kernels,
// options and report with ExecuTorch's XNNPACK backend linked; etrt_runner has no delegate backend.

#include "pte/program.h"
#include "pte/referenceinterpreter.h"
#include "pte/result.h"
#include "testutils.h"

#include <QString>
#include <QTemporaryDir>
#include <QTest>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace pte::test {

/** $PTELENS_ET_RUNNER when it names an executable file, else empty. */
QString etRunnerPath();
/** $PTELENS_ET_RUNNER_XNNPACK (etrt_runner_xnnpack) when it names an executable file, else empty. */
QString etRunnerXnnpackPath();

/** One input or output value as the runner reports it. */
struct RunnerValue
{
    std::string tag; ///< "Tensor", "Int", "Double", "Bool", "None", "String", ...
    std::string dtype; ///< tensors: ExecuTorch's name ("Float", "Long", ...)
    std::vector<std::int64_t> sizes;
    std::vector<std::int64_t> dimOrder;
    /** Tensor elements in row-major order over `sizes` (as --json lists them, whatever the dim order), NaN and
     *  infinities included; or the one value of an Int/Double/Bool. */
    std::vector<double> values;
    std::string text; ///< String values
};

struct RunnerMethod
{
    std::string load; ///< "Ok" or the error name
    std::string execute; ///< "Ok", an error name, or empty when not executed
    std::vector<RunnerValue> inputs;
    std::vector<RunnerValue> outputs;
};

/** What one run of the runner reported. */
struct RunnerRun
{
    std::string runner; ///< "etrt_runner" or "etrt_runner_xnnpack"
    int exitCode = -1; ///< the runner's exit code (0 ok, 1 usage/open, 3 load refused, 4 execute failed...)
    std::string detail; ///< the `result:` line's detail ("ok (1 method(s) executed)", ...)
    std::map<std::string, RunnerMethod> methods;
    std::string report; ///< stdout
    std::string log; ///< stderr (ExecuTorch's own log lines)

    /** The result line and ExecuTorch's first error log line ("Check failed ..."): the runner's message. */
    [[nodiscard]] std::string message() const;
};

struct RunnerOptions
{
    std::vector<std::string> methods; ///< --method (empty: every method)
    std::optional<int> plannedFill; ///< --planned-fill BYTE
    /** --inputs: values per method, one entry per method input (tensors row-major); nullopt keeps the default
     *  (non-tensor inputs must: ExecuTorch accepts only the value stored in the program). */
    std::map<std::string, std::vector<std::optional<HostTensor>>> inputs;
    std::string data; ///< --data FILE.ptd
    int runs = 1; ///< --runs N: the outputs are those of the last execution
    bool xnnpack = false; ///< run etrt_runner_xnnpack ($PTELENS_ET_RUNNER_XNNPACK) instead of etrt_runner
};

/** Runs the runner on `ptePath`. Fails (Internal) only when the runner cannot be started or its JSON not read;
 *  a program the runner refuses is a successful RunnerRun with a non-zero exitCode. */
Result<RunnerRun> runEtRunner(const std::string& ptePath, const RunnerOptions& options = {});

/** The tensor values the runner would give a method's inputs by default, here for `--inputs`: a deterministic
 *  mix of signs and magnitudes (floating), small integers, alternating bools, per input `k`. Non-tensor inputs
 *  keep the program's value (a one-element HostTensor holding it). */
std::vector<HostTensor> sampleInputs(const ExecutionPlan& plan);
/** `inputs` of `plan` as --inputs entries: tensors by value, the rest nullopt. */
std::vector<std::optional<HostTensor>> runnerInputs(const ExecutionPlan& plan, const std::vector<HostTensor>& inputs);

/** Compares outputs element-wise: integers and bools exactly, floating values within `rtol` (relative, absolute
 *  below 1). NaN equals NaN. On a mismatch, returns a message naming the output, the index and both values (the
 *  expected side called `other`). */
std::optional<std::string> compareOutputs(const std::vector<RunnerValue>& runner,
    const std::vector<HostTensor>& reference, double rtol = 1e-5, const std::string& other = "reference interpreter");

/** Runs `program` `runs` times on etrt_runner_xnnpack with --etdump `etdump` (and, when given, every intermediate
 *  value logged into `debugBuffer`); the runner's report when it fails or writes no ETDump. */
std::optional<std::string> runXnnpackWithEtdump(
    const QString& program, const QString& etdump, int runs, const QString& debugBuffer = {});

/**
 * ETDumps of corpus programs, each run `runs` times on etrt_runner_xnnpack with --etdump into a temporary folder, once
 * per program however often it is asked for. of() is empty (after a warning with the runner's output) when the
 * runner fails or writes no ETDump.
 */
/** The corpus programs with XNNPACK delegates the XNNPACK tests run (relative to $PTELENS_CORPUS). */
namespace xnnpackfixtures {
inline const QString kYolox = QStringLiteral("pte/kadu-v_yolox-executorch-ios__engine__models__yolox_nano_xnnpack.pte");
inline const QString kStressMlp =
    QStringLiteral("pte/corey-cole_djl-executorch-engine__src__test__resources__models__stress__stress_mlp.pte");
inline const QString kSimpleConv = QStringLiteral("pte/balthazarneveu_executorch_smoothly__xnnpack_simpleconv.pte");
inline const QString kSimpleModel = QStringLiteral("pte/corey-cole_simple-torch-model__model.pte");
} // namespace xnnpackfixtures

class CorpusXnnpackEtdumps
{
public:
    explicit CorpusXnnpackEtdumps(int runs)
        : m_runs(runs)
    { }
    QString of(const QString& corpusRelativePath);

private:
    QTemporaryDir m_dir;
    int m_runs;
    std::map<QString, QString> m_paths;
};

} // namespace pte::test

/** Skips the test when ExecuTorch's runner is not available (PTELENS_ET_RUNNER unset or not executable); in CI
 *  (CI=true) it fails instead, as a missing corpus does. */
#define PTE_REQUIRE_ET_RUNNER()                                                                                        \
    do {                                                                                                               \
        if (::pte::test::etRunnerPath().isEmpty()) {                                                                   \
            if (::pte::test::inCi())                                                                                   \
                QFAIL("ExecuTorch's runtime (etrt_runner) not found: PTELENS_ET_RUNNER is not set or not executable"); \
            QSKIP("ExecuTorch's runtime (etrt_runner) not found: set PTELENS_ET_RUNNER (default "                      \
                  "../shared/tools/etrt_runner beside the repository); the runtime tests are skipped");                \
        }                                                                                                              \
    } while (false)

/** Skips the test when ExecuTorch's runner with the XNNPACK backend is not available (PTELENS_ET_RUNNER_XNNPACK). */
#define PTE_REQUIRE_ET_RUNNER_XNNPACK()                                                                                \
    do {                                                                                                               \
        if (::pte::test::etRunnerXnnpackPath().isEmpty())                                                              \
            QSKIP("ExecuTorch's runtime with XNNPACK (etrt_runner_xnnpack) not found: set PTELENS_ET_RUNNER_XNNPACK "  \
                  "(default ../shared/tools/etrt_runner_xnnpack beside the repository)");                              \
    } while (false)
