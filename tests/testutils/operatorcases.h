// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// The operator cases of tst_runtime_operators: for each kernel ExecuTorch's runtime registers, a tiny exported
// program with the ATen node(s) torch.export writes for it, its inputs, and the outputs PyTorch's definition of the
// op gives (computed here, not taken from any runtime); and the kernels no exported graph reaches, with the reason.

#include "dumpbuilder.h"
#include "etrunner.h"
#include "pte/referenceinterpreter.h"

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace pte::test {

/** ScalarType of a torch serde dtype code. */
ScalarType scalarTypeOfSerde(int code);

struct Case
{
    Dump dump;
    std::vector<HostTensor> inputs; ///< user inputs in order
    std::vector<HostTensor> expected; ///< outputs in order
    double rtol = 1e-5;
    int runs = 1; ///< executions (outputs of the last one): mutable state
    /** Replaces the comparison with `expected` (random or uninitialised outputs). */
    std::function<std::optional<std::string>(const std::vector<RunnerValue>&)> check;
    /** Replaces `dump` (a program read from tests/data). */
    std::function<Result<std::shared_ptr<const ExportedProgram>>()> program;

    /** A user input with its values. */
    Case& in(const std::string& name, std::vector<std::int64_t> shape, std::vector<double> v, int dtype = kFloat);
    /** An expected output (values rounded to `dtype`). */
    Case& expect(std::vector<std::int64_t> shape, std::vector<double> v, int dtype = kFloat);
    /** Node `name` = target(args) with one tensor output, returned and expected to hold `v`. */
    Case& op(const std::string& name, const std::string& target, nlohmann::json args, std::vector<std::int64_t> shape,
        std::vector<double> v, int dtype = kFloat);
};

struct OpCase
{
    std::string kernel; ///< the runtime kernel this case reaches ("aten::add.out")
    std::string aten; ///< the ATen node(s) of the exported graph, as the table shows them
    std::function<Case()> make;
    std::string variant; ///< distinguishes several cases of one kernel
    std::string note; ///< shown in the table (e.g. what is checked for random outputs)

    [[nodiscard]] std::string label() const { return variant.empty() ? kernel : kernel + " [" + variant + "]"; }
};

const std::vector<OpCase>& operatorCases();
/** Kernels no exported graph reaches, with the reason. */
const std::map<std::string, std::string>& unreachableKernels();

} // namespace pte::test
