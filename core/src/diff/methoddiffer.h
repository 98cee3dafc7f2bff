// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include "diff/methodview.h"
#include "pte/programdiff.h"

#include <map>
#include <set>
#include <string>
#include <tuple>

namespace pte::diff {

/** What the comparisons of all method pairs of two programs share: options, output, and content caches. */
class DiffContext
{
public:
    DiffContext(const DiffOptions& options, ProgramDiff& out)
        : options(options)
        , out(out)
    { }

    /** Whether two payloads hold the same bytes (each pair read once). */
    [[nodiscard]] Result<bool> sameBytes(const Bytes& a, const Bytes& b);
    /** SHA-256 of a payload (each view hashed once). */
    [[nodiscard]] Result<std::string> sha256(const Bytes& bytes);
    /** Marks a constant pair as listed; false when it was already. */
    bool firstConstantRow(bool mutableState, std::uint32_t bufferA, std::uint32_t bufferB)
    {
        return m_constantRows.insert({ mutableState, bufferA, bufferB }).second;
    }
    [[nodiscard]] bool cancelled() const noexcept { return options.cancel && options.cancel->load(); }

    const DiffOptions& options;
    ProgramDiff& out;

private:
    std::map<std::tuple<const void*, std::size_t, const void*, std::size_t>, bool> m_same;
    std::map<std::pair<const void*, std::size_t>, std::string> m_sha;
    std::set<std::tuple<bool, std::uint32_t, std::uint32_t>> m_constantRows;
};

/**
 * Compares method `a` with method `b` (either may be absent: the method was added or removed): aligns the instruction
 * sequences, matches values and delegates, and appends the differences, constants and delegates to the context's
 * output. Fills `result` (rows, changes, value correspondence, counts, status).
 * @returns Io when a payload cannot be read, Cancelled when the options' cancel flag is set.
 */
[[nodiscard]] Result<void> diffMethod(
    const MethodView* a, const MethodView* b, DiffContext& context, MethodDiff& result);

/** A difference; `methodA`/`methodB` empty for one of the whole program. */
[[nodiscard]] Difference makeDifference(DiffCategory category, DiffStatus status, std::string methodA,
    std::string methodB, std::string subject, std::string field, std::string a, std::string b, std::int64_t indexA,
    std::int64_t indexB, bool strictOnly);

/** A hash of what a method does (its instruction keys and signature types): equal for a method renamed as is. */
[[nodiscard]] std::uint64_t methodFingerprint(const MethodView& view);

} // namespace pte::diff
