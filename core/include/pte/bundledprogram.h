// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include "pte/bytes.h"
#include "pte/diagnostic.h"
#include "pte/jsondump.h"
#include "pte/program.h"
#include "pte/result.h"

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

/**
 * @file
 * BundledProgram (`.bpte`, identifier BP08): an ExecuTorch program stored as a byte vector, with test cases per
 * method: the inputs to set and the outputs they should give. readPteFile() opens such a file like a `.pte` (the
 * program inside, with PteFile::bundled holding the test cases); this header is the wrapper itself.
 */

namespace pte {

/** A test input or expected output. */
struct BundledValue
{
    /** Which member of the schema's ValueUnion the value holds (NONE for an unset or unknown type code). */
    enum class Kind : std::uint8_t
    {
        None, ///< union type NONE (or an unknown code)
        Tensor,
        Int,
        Bool,
        Double,
    };
    Kind kind = Kind::None;
    ScalarType scalarType = ScalarType::Byte; ///< Tensor
    std::vector<std::int32_t> sizes; ///< Tensor
    std::vector<std::uint8_t> dimOrder; ///< Tensor
    Bytes data; ///< Tensor: the element bytes (a view into the file), in dim order
    std::int64_t intValue = 0;
    bool boolValue = false;
    double doubleValue = 0;
};
[[nodiscard]] const char* bundledValueKindName(BundledValue::Kind kind) noexcept; ///< "Tensor", "NONE"

/** A bundled tensor's elements in logical order (its data is in its dim order), as doubles. */
[[nodiscard]] Result<std::vector<double>> bundledTensorValues(
    const BundledValue& value, std::size_t maxElements = std::size_t(1) << 26);

/** One BundledMethodTestCase: the inputs to set and the outputs the method should give for them. */
struct BundledTestCase
{
    std::vector<BundledValue> inputs;
    std::vector<BundledValue> expectedOutputs;
};

/** One BundledMethodTestSuite: the test cases of the method `methodName`. */
struct BundledTestSuite
{
    std::string methodName;
    std::vector<BundledTestCase> testCases;
};

/** The BP08 wrapper: the test suites and where the program bytes lie. */
struct BundledProgram
{
    std::uint32_t version = 0;
    std::vector<BundledTestSuite> testSuites;
    std::uint64_t programOffset = 0; ///< byte offset of the program in the bundled file
    std::uint64_t programSize = 0;
    Bytes file; ///< the whole bundled file

    /** The embedded program's bytes (a view of `file`). */
    [[nodiscard]] Bytes program() const { return file.slice(std::size_t(programOffset), std::size_t(programSize)); }
    [[nodiscard]] const BundledTestSuite* suite(std::string_view method) const noexcept;
};

/** True when bytes 4..7 are BP08. */
[[nodiscard]] bool isBundledProgram(std::span<const std::uint8_t> head) noexcept;

/**
 * Decodes the wrapper (flatbuffers verifier first); tensor data are views of `bytes`.
 * @returns NotAPteFile without BP08; VerificationFailed for a corrupt buffer; InvalidInput when it holds no program.
 */
[[nodiscard]] Result<BundledProgram> readBundledProgram(Bytes bytes, const std::string& name);

/**
 * Checks the test cases against the program: each suite names a method, each case has as many inputs and expected
 * outputs as the method, tensor dtypes and sizes agree with the method's static values, tensor data has
 * numel x element-size bytes. Findings are warnings (the runtime's bundled-input loader would refuse such a case).
 */
[[nodiscard]] Diagnostics checkBundledProgram(
    const BundledProgram& bundled, const Program& program, const std::string& file);

/**
 * A bundled program around `program` (the bytes of a serialized .pte) with `bundled`'s version and test suites,
 * as ExecuTorch writes it (the program vector 32-byte aligned, tensor data 16-byte aligned).
 * @returns Unsupported above the flatbuffers 2 GiB limit.
 */
[[nodiscard]] Result<std::vector<std::uint8_t>> serializeBundledProgram(
    const BundledProgram& bundled, std::span<const std::uint8_t> program);

/** The first difference between two bundled programs' test suites ("method_test_suites[0].test_cases[1]...: ..."), or
 *  nullopt when they hold the same version, methods, values and bytes (the programs are not compared). */
[[nodiscard]] std::optional<std::string> bundledTestSuitesDifference(const BundledProgram& a, const BundledProgram& b);

/**
 * JSON in the shape `flatc --json --defaults-json` prints a BP08 file with, except that `program` is the decoded
 * program (programToJson) instead of a byte array and tensor `data` is {"size", "sha256"}.
 */
[[nodiscard]] std::string bundledProgramToJson(
    const BundledProgram& bundled, const Program& program, const JsonDumpOptions& options = {});

} // namespace pte
