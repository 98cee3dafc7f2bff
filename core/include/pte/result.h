// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <variant>

namespace pte {

/**
 * What went wrong, for program logic and tests. Messages are for people; codes are stable.
 * Used both by fatal errors (Result) and non-fatal findings (Diagnostic).
 */
enum class ErrorCode
{
    Io, ///< the file could not be opened, mapped, read or written
    NotAPteFile, ///< wrong identifier / magic: not the kind of file expected
    UnsupportedVersion, ///< a known format in a version we cannot read (e.g. "ET11", unknown schema major)
    Truncated, ///< the data ends before a structure it declares
    Misaligned, ///< an alignment rule of the format is broken
    BadExtendedHeader, ///< the eh00 header is inconsistent
    VerificationFailed, ///< the flatbuffers verifier rejected the program bytes
    InvalidProgram, ///< a rule the ExecuTorch runtime checks is broken
    OutOfRange, ///< an index or offset points outside its table or buffer
    Unsupported, ///< valid input that ptelens (or ExecuTorch) does not handle
    InvalidInput, ///< a malformed graph dump, archive or argument
    Cancelled, ///< the user cancelled the operation
    Internal, ///< a bug in ptelens
};

/** Stable lower-case name of an error code, used in JSON output. */
[[nodiscard]] const char* errorCodeName(ErrorCode code) noexcept;

/**
 * What a message is about inside a program or a graph dump, for tools that navigate to it: set by the code that
 * finds the problem, never recovered from the message text (rewording a message changes nothing here). Fields
 * that do not apply are empty / -1.
 */
struct Location
{
    /** The method: an execution plan's name, or a dump method's (the emitted name for emitter messages, the
     *  dump's own name for reader messages). */
    std::string method;
    /** A graph node, by name; for a parameter, buffer or constant input, its placeholder's name. */
    std::string node;
    std::int64_t chain = -1;
    std::int64_t instruction = -1; ///< index within `chain`
    std::int64_t value = -1; ///< EValue index of the method's plan

    [[nodiscard]] bool empty() const noexcept
    {
        return method.empty() && node.empty() && chain < 0 && instruction < 0 && value < 0;
    }
};

/**
 * A fatal error: code, a full-sentence message (naming the file where relevant), and where it
 * happened: a byte offset in the file and/or a field path ("execution_plan[0].values[12]" or a JSON
 * path "graph_module.graph.nodes[3].inputs[1]"), and the method, node, instruction or value it is about.
 */
struct Error
{
    ErrorCode code = ErrorCode::Internal;
    std::string message;
    std::optional<std::uint64_t> offset;
    std::string fieldPath;
    Location location;

    /** "message (at byte N, field path)" for printing. */
    [[nodiscard]] std::string toString() const;
};

[[nodiscard]] inline Error makeError(
    ErrorCode code, std::string message, std::optional<std::uint64_t> offset = {}, std::string fieldPath = {})
{
    return Error { code, std::move(message), offset, std::move(fieldPath) };
}

/** Tag type to construct a failed Result. */
struct Unexpected
{
    Error error;
};

[[nodiscard]] inline Unexpected fail(Error e) { return Unexpected { std::move(e) }; }
[[nodiscard]] inline Unexpected fail(
    ErrorCode code, std::string message, std::optional<std::uint64_t> offset = {}, std::string fieldPath = {})
{
    return Unexpected { makeError(code, std::move(message), offset, std::move(fieldPath)) };
}

/**
 * A value or an Error, shaped like std::expected (which g++ 12 only has in C++23 mode), so a later
 * switch is an alias. No exceptions cross module boundaries in ptelens.
 */
template <typename T> class [[nodiscard]] Result
{
public:
    Result(T value)
        : m_data(std::in_place_index<0>, std::move(value))
    { }
    Result(Unexpected u)
        : m_data(std::in_place_index<1>, std::move(u.error))
    { }
    Result(Error e)
        : m_data(std::in_place_index<1>, std::move(e))
    { }

    [[nodiscard]] bool has_value() const noexcept { return m_data.index() == 0; }
    explicit operator bool() const noexcept { return has_value(); }

    [[nodiscard]] T& value() & { return std::get<0>(m_data); }
    [[nodiscard]] const T& value() const& { return std::get<0>(m_data); }
    [[nodiscard]] T&& value() && { return std::get<0>(std::move(m_data)); }
    [[nodiscard]] const Error& error() const& { return std::get<1>(m_data); }
    [[nodiscard]] Error&& error() && { return std::get<1>(std::move(m_data)); }

    T& operator*() & { return value(); }
    const T& operator*() const& { return value(); }
    T* operator->() { return &value(); }
    const T* operator->() const { return &value(); }

private:
    std::variant<T, Error> m_data;
};

/** Result of an operation that has no value. */
template <> class [[nodiscard]] Result<void>
{
public:
    Result() = default;
    Result(Unexpected u)
        : m_error(std::move(u.error))
    { }
    Result(Error e)
        : m_error(std::move(e))
    { }
    [[nodiscard]] bool has_value() const noexcept { return !m_error.has_value(); }
    explicit operator bool() const noexcept { return has_value(); }
    [[nodiscard]] const Error& error() const& { return *m_error; }
    [[nodiscard]] Error&& error() && { return std::move(*m_error); }

private:
    std::optional<Error> m_error;
};

} // namespace pte

#define PTE_CONCAT_IMPL(a, b) a##b
#define PTE_CONCAT(a, b) PTE_CONCAT_IMPL(a, b)

/** PTE_TRY(auto x, expr): evaluate expr (a Result); on error return it from the enclosing function. */
#define PTE_TRY(decl, expr) PTE_TRY_IMPL(decl, expr, PTE_CONCAT(pteTryResult_, __LINE__))
#define PTE_TRY_IMPL(decl, expr, tmp)                                                                                  \
    auto tmp = (expr);                                                                                                 \
    if (!tmp)                                                                                                          \
        return ::pte::Unexpected { std::move(tmp).error() };                                                           \
    decl = std::move(tmp).value()

/** PTE_CHECK(expr): expr is a Result<void> (or any Result); on error return it. */
#define PTE_CHECK(expr) PTE_CHECK_IMPL(expr, PTE_CONCAT(pteCheckResult_, __LINE__))
#define PTE_CHECK_IMPL(expr, tmp)                                                                                      \
    do {                                                                                                               \
        auto tmp = (expr);                                                                                             \
        if (!tmp)                                                                                                      \
            return ::pte::Unexpected { std::move(tmp).error() };                                                       \
    } while (false)
