// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include "pte/bundledprogram.h"
#include "pte/graph.h"
#include "pte/program.h"
#include "pte/referenceinterpreter.h"
#include "pte/result.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

/**
 * @file
 * The inputs a run of a method used, to run it again on the ReferenceInterpreter and compare: a bundled program's
 * test case, the `--inputs FILE.json` file of ExecuTorch's runner (etrt_runner), or the runner's default fill
 * (`--fill pattern|ones|zeros`, reproduced exactly). A non-tensor input (Int, Double, Bool) always keeps the value
 * stored in the program, as the runtime does; it is given as a one-element HostTensor.
 */

namespace pte {

/** The runner's `--fill` rule for tensor inputs it is given no values for. */
enum class RunnerFill : std::uint8_t
{
    Pattern, ///< element i (memory order) of input k: floating 0.1*((i+k)%7)+0.5, integer (i+k)%5, Bool (i+k)%2
    Ones,
    Zeros,
};
/** A one-element HostTensor holding a non-tensor value the program stores (Int as Long, Double, Bool); an empty one
 *  (no values) for other kinds. */
[[nodiscard]] HostTensor storedScalar(const EValue& v);

[[nodiscard]] const char* runnerFillName(RunnerFill fill) noexcept; ///< "pattern", "ones", "zeros"

/** What the user asked the inputs to be (the CLI's --reference-inputs, the GUI's choice). */
struct ReferenceInputSpec
{
    /** Where the inputs come from. */
    enum class Kind : std::uint8_t
    {
        Fill, ///< the runner's fill rule
        Bundled, ///< a bundled program's test case
        JsonFile, ///< the runner's --inputs file (inputs it does not give keep the pattern fill)
    };
    Kind kind = Kind::Fill;
    RunnerFill fill = RunnerFill::Pattern;
    std::optional<std::size_t> testCase; ///< Bundled: which case; nullopt = the last one, as the Inspector picks
    std::string path; ///< JsonFile

    /**
     * "pattern", "ones", "zeros", "bundled", "bundled:N", or a path to a JSON file.
     * @returns InvalidInput for "bundled:" followed by anything but a number.
     */
    [[nodiscard]] static Result<ReferenceInputSpec> parse(std::string_view text);
};

/** The inputs of one method, one per method input, and where they came from. */
struct ReferenceInputs
{
    std::vector<HostTensor> values;
    /** For display: "bundled test case 0", "runner pattern fill", "inputs.json". */
    std::string source;
    /** True when nothing says the run used these inputs (the default guess of a fill rule). */
    bool assumed = false;
};

/**
 * The runner's fill for every tensor input of `plan`: values computed as doubles, converted to the input's dtype
 * (Float/Half/BFloat16 rounded to nearest) and given in row-major order, the pattern counting `i` in the input's
 * memory (dim) order. Tensors of other dtypes (complex, bits, float8) are zeros, as the runner leaves them.
 */
[[nodiscard]] ReferenceInputs runnerFillInputs(const ExecutionPlan& plan, RunnerFill fill);

/**
 * The inputs of `method`'s bundled test case `testCase` (nullopt: the last one).
 * @returns InvalidInput when there is no suite for the method, the case does not exist, or its inputs do not match
 *   the method's (count, kind, element count); Unsupported for a dtype without a numeric reading.
 */
[[nodiscard]] Result<ReferenceInputs> bundledInputs(
    const BundledProgram& bundled, const ExecutionPlan& plan, std::optional<std::size_t> testCase);

/**
 * The runner's `--inputs` JSON (`{"method": [values of input 0, null, ...]}`) for `plan`: nested lists flattened
 * in row-major order, "nan"/"inf"/"-inf", true/false; inputs not given keep `fill`. `name` is used in messages and
 * as the source.
 * @returns InvalidInput naming `name` and the JSON path ("inputs.json: forward[0][5]: ...") for invalid JSON, a
 *   method the program lacks, more entries than inputs, a wrong element count, a value that does not convert to
 *   the input's dtype (a fraction or an out-of-range value for an integer dtype), or a scalar other than the one
 *   the program stores (the runtime refuses it).
 */
[[nodiscard]] Result<ReferenceInputs> runnerJsonInputs(const Program& program, const std::string& method,
    std::string_view json, const std::string& name, RunnerFill fill = RunnerFill::Pattern);

/**
 * Inputs from raw files, as ExecuTorch's executor_runner `--inputs A.bin,B.bin` takes them: one file per tensor input
 * of `plan`, in input order (non-tensor inputs keep the value stored in the program), each exactly numel x element
 * size bytes: the elements little-endian, in the input's memory (dim) order.
 * @returns Io naming the file when it cannot be read; InvalidInput naming the file for a wrong number of files
 *   ("3 files for the 2 tensor inputs of method 'forward'"), a wrong size ("a.bin: 20 bytes; input 0 (Float [2, 3])
 *   takes 24"), or a dtype the interpreter cannot hold.
 */
[[nodiscard]] Result<ReferenceInputs> rawFileInputs(const ExecutionPlan& plan, const std::vector<std::string>& paths);

/**
 * Which leaf of `dump`'s sample inputs (ExportedProgram::sampleInputs) each user input of its signature takes, one
 * entry per user input in signature order: the `kwargs['name']` leaf of the input's name, else the next `args` leaf
 * (nullopt: none left). Empty without sample inputs.
 */
[[nodiscard]] std::vector<std::optional<std::size_t>> sampleInputLeaves(const ExportedProgram& dump);

/**
 * The sample inputs a graph dump kept, as the inputs of `plan` (the method emitted from `dump`, whose inputs are the
 * dump's user inputs in order): tensors in row-major order converted to the input's dtype; non-tensor inputs keep the
 * value the program stores, as the runtime does. The source is "sample inputs of <dump source>".
 * @returns InvalidInput when the dump has no sample inputs, a tensor input has no tensor leaf, or a leaf's element
 *   count differs from the input's; Unsupported for a leaf without a numeric reading (fake tensor, complex dtype).
 */
[[nodiscard]] Result<ReferenceInputs> sampleReferenceInputs(const ExportedProgram& dump, const ExecutionPlan& plan);

/**
 * The inputs `spec` describes for `method` of `program` (`bundled`: the bundled wrapper, or null).
 * @returns what the functions above return; InvalidInput for Bundled without a bundled program; Io when the JSON
 *   file cannot be read.
 */
[[nodiscard]] Result<ReferenceInputs> resolveReferenceInputs(
    const ReferenceInputSpec& spec, const Program& program, const BundledProgram* bundled, const std::string& method);

/**
 * etrt_runner's `--inputs` JSON (`{"method": [values of input 0, null, ...]}`) that makes the runner run on the inputs
 * `spec` describes, so that a device run and the reference interpreter use the same ones: "{}" for the pattern fill
 * (the runner's default); otherwise every method's inputs (resolveReferenceInputs) with tensor values in row-major
 * order (integers as integers, bools as true/false, NaN and infinities as "nan", "inf", "-inf") and non-tensor inputs
 * null (they keep the program's value, the only one the runtime accepts). Methods `spec` gives no inputs for (a method
 * without bundled test cases) are left out and keep the runner's fill. nullopt for a JSON file spec: copy the file.
 */
[[nodiscard]] std::optional<std::string> runnerInputsJson(
    const ReferenceInputSpec& spec, const Program& program, const BundledProgram* bundled);

} // namespace pte
