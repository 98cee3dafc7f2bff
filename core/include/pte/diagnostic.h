// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include "pte/result.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace pte {

/** How serious a Diagnostic is (severityName); hasErrors() tells whether any finding of a list is an Error. */
enum class Severity
{
    Info,
    Warning,
    Error, ///< the ExecuTorch runtime would refuse this program
};

[[nodiscard]] const char* severityName(Severity s) noexcept;

/**
 * A non-fatal finding: the input loaded, but something is wrong or noteworthy. Same location fields
 * as Error. `file` names the input (path, or "archive.pt2:models/model.json" for archive entries).
 */
struct Diagnostic
{
    Severity severity = Severity::Warning;
    ErrorCode code = ErrorCode::InvalidProgram;
    std::string message;
    std::optional<std::uint64_t> offset;
    std::string fieldPath;
    std::string file;
    Location location; ///< the method, node, instruction or value it is about

    [[nodiscard]] std::string toString() const;
};

/** The non-fatal findings of a read, an emission or a check, in the order they were found. */
using Diagnostics = std::vector<Diagnostic>;

/** A fatal error as an Error-severity diagnostic about `file`: code, message, offset, field path and location kept. */
[[nodiscard]] Diagnostic diagnosticOf(const Error& error, std::string file = {});

/** True when any diagnostic has Severity::Error. */
[[nodiscard]] bool hasErrors(const Diagnostics& diags) noexcept;

} // namespace pte
