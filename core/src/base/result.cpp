// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "pte/result.h"

#include "pte/diagnostic.h"

#include <algorithm>

namespace pte {

const char* errorCodeName(ErrorCode code) noexcept
{
    switch (code) {
    case ErrorCode::Io:
        return "io";
    case ErrorCode::NotAPteFile:
        return "not-a-pte-file";
    case ErrorCode::UnsupportedVersion:
        return "unsupported-version";
    case ErrorCode::Truncated:
        return "truncated";
    case ErrorCode::Misaligned:
        return "misaligned";
    case ErrorCode::BadExtendedHeader:
        return "bad-extended-header";
    case ErrorCode::VerificationFailed:
        return "verification-failed";
    case ErrorCode::InvalidProgram:
        return "invalid-program";
    case ErrorCode::OutOfRange:
        return "out-of-range";
    case ErrorCode::Unsupported:
        return "unsupported";
    case ErrorCode::InvalidInput:
        return "invalid-input";
    case ErrorCode::Cancelled:
        return "cancelled";
    case ErrorCode::Internal:
        return "internal";
    }
    return "unknown";
}

namespace {
std::string withLocation(
    const std::string& message, const std::optional<std::uint64_t>& offset, const std::string& fieldPath)
{
    std::string s = message;
    if (offset || !fieldPath.empty()) {
        s += " (";
        if (offset)
            s += "at byte " + std::to_string(*offset);
        if (offset && !fieldPath.empty())
            s += ", ";
        s += fieldPath;
        s += ")";
    }
    return s;
}
} // namespace

std::string Error::toString() const { return withLocation(message, offset, fieldPath); }

const char* severityName(Severity s) noexcept
{
    switch (s) {
    case Severity::Info:
        return "info";
    case Severity::Warning:
        return "warning";
    case Severity::Error:
        return "error";
    }
    return "unknown";
}

std::string Diagnostic::toString() const
{
    std::string s = file.empty() ? std::string() : file + ": ";
    s += severityName(severity);
    s += ": ";
    return s + withLocation(message, offset, fieldPath);
}

Diagnostic diagnosticOf(const Error& error, std::string file)
{
    return Diagnostic { Severity::Error, error.code, error.message, error.offset, error.fieldPath, std::move(file),
        error.location };
}

bool hasErrors(const Diagnostics& diags) noexcept
{
    return std::any_of(diags.begin(), diags.end(), [](const Diagnostic& d) { return d.severity == Severity::Error; });
}

} // namespace pte
