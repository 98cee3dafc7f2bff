// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include "pte/bundledprogram.h"
#include "pte/numericgap.h"
#include "pte/program.h"
#include "pte/referenceinterpreter.h"
#include "pte/result.h"

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

/**
 * @file
 * A recorded run of a method on the ReferenceInterpreter, as ExecuTorch's runtime with an event tracer records one:
 * each instruction's time and the values each KernelCall wrote (what ExecuTorch's generated kernel wrappers log as
 * intermediate outputs), the outputs, or where and why the run stopped. From the records: the ETDump
 * (`ptelens-cli run --etdump`, laid out as etrt_runner's ETDumpGen writes it, so `profile` and the GUI open it like a
 * device run), and the check of a bundled test case's outputs as ExecuTorch's `verify_method_outputs` makes it.
 */

namespace pte {

/** ExecuTorch's name of a dtype, as its runtime (and etrt_runner) prints it: "Float", "Long", "BFloat16", "Bits16". */
[[nodiscard]] const char* runtimeScalarTypeName(ScalarType t) noexcept;

/** A value an instruction wrote, read right after it ran (before memory planning lets a later one reuse it). */
struct RunValue
{
    std::int32_t value = -1; ///< the EValue index in the method's plan
    ValueKind kind = ValueKind::Tensor; ///< Tensor, TensorList, Int, Double or Bool
    /** Tensor: one; TensorList: its items; Int/Double/Bool: one 0-D tensor holding the value. */
    std::vector<HostTensor> tensors;
};

/** The output of one inner node of a delegate, as the reference interpreter computed it (its expected value). */
struct RunInnerNode
{
    std::uint32_t node = 0; ///< the node's index in the delegate's payload
    /** Float (a quantized output dequantized); its values empty (sizes kept) above RunOptions::maxInnerNodeElements. */
    HostTensor value;
    TensorStats stats; ///< of every element, whether or not `value` keeps them
};

/** One instruction executed. */
struct RunInstruction
{
    std::uint32_t instruction = 0; ///< index in chain 0
    std::uint64_t start = 0; ///< nanoseconds since RunOptions::origin
    std::uint64_t end = 0;
    /** With RunOptions::intermediates: a KernelCall's values ExecuTorch's wrapper logs (kernelLoggedValues); a
     *  DelegateCall's outputs (the arguments the delegate wrote, its last ones), which the ETDump does not log. */
    std::vector<RunValue> outputs;
    /** A DelegateCall, with RunOptions::delegateNodes: each inner node's output, in the order they ran. */
    std::vector<RunInnerNode> innerNodes;
};

/** Why an execution stopped before its last instruction. */
enum class RunStop : std::uint8_t
{
    None, ///< it finished
    MissingOperator, ///< a KernelCall the interpreter has no kernel for (or not for these arguments)
    Unsupported, ///< something else the interpreter does not run: a delegate call, several chains, a dtype
    Failed, ///< the program or the inputs are invalid (what the runtime would refuse too)
    Cancelled, ///< RunOptions::progress asked to stop (before the instruction it names)
};
[[nodiscard]] const char* runStopName(RunStop stop) noexcept; ///< "none", "missing_operator", ...

/** One execution of a method. */
struct RunExecution
{
    std::uint64_t start = 0; ///< nanoseconds since RunOptions::origin
    std::uint64_t end = 0;
    /** The instructions in the order they ran (a loop repeats some); empty for an execution whose records were
     *  dropped (RunOptions::recordEveryExecution). */
    std::vector<RunInstruction> instructions;
    std::vector<HostTensor> outputs; ///< after the last instruction; empty when it stopped
    RunStop stop = RunStop::None;
    std::optional<Error> error; ///< why it stopped; its location names the instruction
    std::optional<std::uint32_t> stoppedAt; ///< the instruction it stopped at (none: it failed setting the inputs)
    /** That instruction's operator for a KernelCall ("aten::acos.out"), its backend for a DelegateCall
     *  ("DelegateCall XnnpackBackend"). */
    std::string stoppedOperator;

    [[nodiscard]] bool ok() const noexcept { return stop == RunStop::None; }
};

/** The run of one method: its load, then one execution per RunOptions::runs (stopping after a failed one). */
struct MethodRun
{
    std::string method;
    std::vector<HostTensor> inputs; ///< as given, one per method input
    std::int32_t bundledCase = -1; ///< the bundled test case the inputs are (the ETDump blocks' bundled_input_index)
    std::uint64_t loadStart = 0; ///< nanoseconds since RunOptions::origin
    std::uint64_t loadEnd = 0;
    std::optional<Error> loadError; ///< the interpreter refused the method (no executions then)
    RunStop loadStop = RunStop::None; ///< Unsupported or Failed with loadError
    std::vector<RunExecution> executions;

    /** Loaded, and every execution finished. */
    [[nodiscard]] bool ok() const noexcept;
    /** Why the run stopped (RunStop::None when ok()). */
    [[nodiscard]] RunStop stop() const noexcept;
};

/** What runMethod records and how it runs: executions, intermediates, delegate inner nodes, progress and cancel. */
struct RunOptions
{
    std::uint32_t runs = 1; ///< executions, each from the same inputs (arenas persist, as in a loaded Method)
    bool intermediates = false; ///< record the values each KernelCall wrote
    /** With intermediates: keep the instruction records of every execution (the ETDump needs them); false keeps only
     *  the last execution's. */
    bool recordEveryExecution = true;
    const ExternalData* external = nullptr; ///< EXTERNAL constants (a .ptd); must outlive the call
    std::chrono::steady_clock::time_point origin = std::chrono::steady_clock::now(); ///< time 0 of the records
    /** With intermediates: also record every inner node an XNNPACK delegate runs (RunInstruction::innerNodes). Off by
     *  default: a convolutional network's inner values are many times its program values. */
    bool delegateNodes = false;
    /** Elements above which an inner node's value keeps only its statistics (0: statistics only, as the GUI runs). */
    std::size_t maxInnerNodeElements = std::size_t(1) << 24;
    /** Elements above which an intermediate tensor is not recorded (its RunValue keeps no tensors). */
    std::size_t maxRecordedElements = std::size_t(1) << 24;
    /**
     * Asked before every instruction with the instructions executed so far over all executions and an estimate of
     * the total (runs x the chain's length; loops run more, jumps fewer): returning false cancels the run there.
     * The execution then stops as RunStop::Cancelled at that instruction ("cancelled before instruction N"), keeping
     * the values the instructions before it wrote, and no further execution runs. Called on the thread running
     * runMethod (a GUI polls a cancel flag here; docs/gui-run.md).
     */
    std::function<bool(std::uint64_t done, std::uint64_t total)> progress;
};

/**
 * The program values a KernelCall logs, as ExecuTorch's generated wrappers (and so etrt_runner's `--debug-level
 * intermediates`) log them: each out argument of an out variant in order (two for max_pool2d_with_indices.out, the
 * TensorList of split_copy.Tensor_out), else the returned value; nothing for the prim ops (executorch_prim::*,
 * aten::sym_size.int, aten::sym_numel, aten::_local_scalar_dense). An operator without a known schema logs its last
 * argument.
 */
[[nodiscard]] std::vector<std::int32_t> kernelLoggedValues(const ExecutionPlan& plan, const KernelCall& call);
/** The prim ops, which run without a `native_call_*` scope and log nothing. */
[[nodiscard]] bool isPrimOperator(const Operator& op);

/**
 * Runs `method` of `program` on the ReferenceInterpreter with `inputs` (one per method input, as
 * ReferenceInterpreter::run takes them). Never fails: a method the interpreter refuses, an input it rejects or an
 * instruction it cannot run is recorded in the result (loadError, or the execution's stop, error and stoppedAt,
 * with the values the instructions before it wrote).
 */
[[nodiscard]] MethodRun runMethod(const Program& program, const std::string& method,
    const std::vector<HostTensor>& inputs, const RunOptions& options = {});

/** What an ETDump logs besides profiling events (ExecuTorch's EventTracerDebugLogLevel). */
enum class RunDebugLevel : std::uint8_t
{
    None,
    Outputs, ///< each execution's method outputs
    Intermediates, ///< and every KernelCall's logged values (needs RunOptions::intermediates)
};

/** An ETDump of recorded runs and its debug buffer. */
struct RunEtdump
{
    std::vector<std::uint8_t> etdump; ///< size-prefixed, as ETDumpGen writes it
    std::vector<std::uint8_t> debugBuffer; ///< the logged tensors' bytes, one after the other (FileDataSink)
    std::size_t loggedValues = 0; ///< debug events
};

/**
 * The ETDump etrt_runner (ExecuTorch's ETDumpGen) writes for the same runs: per method a Default block
 * (Method::init, Program::load_method), then an Execute block per execution with, per instruction executed,
 * the KernelCall's logged values (Intermediates), `native_call_<op>` (not for prim ops) and OPERATOR_CALL, or
 * DELEGATE_CALL / MOVE_CALL / JF_CALL / FREE_CALL, then Method::execute (absent when the execution stopped) and the
 * outputs (Outputs and Intermediates; tensors marked `output`). Times are the recorded nanoseconds. Tensors are
 * stored with contiguous strides, their bytes in row-major order; the Execute blocks of a bundled case carry its
 * index. @returns InvalidInput for a run of a method `program` does not have; Unsupported above 2 GiB.
 */
[[nodiscard]] Result<RunEtdump> runEtdump(const Program& program, std::span<const MethodRun> runs, RunDebugLevel level);

/** ExecuTorch's default tolerances of verify_method_outputs (bundled programs store none). */
inline constexpr double kBundledRtol = 1e-5;
inline constexpr double kBundledAtol = 1e-8;

/** The comparison of one output with its expected value. */
struct OutputCheck
{
    std::size_t output = 0;
    bool ok = false;
    std::string problem; ///< a kind, dtype, size or count mismatch (then no element is compared)
    std::size_t elements = 0;
    std::size_t mismatched = 0; ///< elements outside the tolerance
    double maxAbsError = 0; ///< over every element compared (NaN/infinity pairs that match count 0)
    /** The element furthest outside its allowed error (or, when all pass, with the largest error). */
    std::optional<std::size_t> worst;
    std::vector<std::int64_t> worstIndex; ///< its coordinates
    double worstExpected = 0;
    double worstActual = 0;
    double worstError = 0; ///< |actual - expected|
    double worstAllowed = 0; ///< atol + |rtol * actual|
};

/** A bundled test case checked. */
struct CaseCheck
{
    std::size_t testCase = 0;
    bool ok = false;
    std::string problem; ///< why outputs could not be compared (no expected outputs, a count mismatch)
    std::vector<OutputCheck> outputs;
};

/**
 * Checks `outputs` against test case `testCase` of `plan`'s suite in `bundled`, as ExecuTorch's
 * verify_method_outputs does: each expected Tensor must have the output's dtype and sizes; Float, Double and Half
 * elements are close when both are NaN, both the same infinity, or |expected - actual| <= atol + |rtol * actual|
 * (Float in float arithmetic); other dtypes (BFloat16 included) must be equal. Expected Int, Bool and Double values
 * (which ExecuTorch refuses to verify) are compared exactly here (a Double within the tolerance).
 * @returns InvalidInput when there is no such suite or case.
 */
[[nodiscard]] Result<CaseCheck> checkBundledCase(const BundledProgram& bundled, const ExecutionPlan& plan,
    std::size_t testCase, std::span<const HostTensor> outputs, double rtol = kBundledRtol, double atol = kBundledAtol);

} // namespace pte
