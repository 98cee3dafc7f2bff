// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

// The comparison of two methods present on both sides, one class whose members share the alignment, the value and
// delegate matchings and the differences found so far; its members are defined by concern in methoddiff*.cpp.

#include "diff/instructionkeys.h"
#include "diff/matching.h"
#include "diff/methoddiffer.h"
#include "diff/sequencealignment.h"

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace pte::diff {

inline std::string pairSubject(const char* what, const char* prefix, std::int64_t x, std::int64_t y)
{
    std::string s = what;
    if (x >= 0)
        s += std::string(" ") + prefix + std::to_string(x);
    if (y >= 0 && y != x)
        s += (x >= 0 ? std::string(" \u2194 ") : std::string(" ")) + prefix + std::to_string(y);
    return s;
}

inline std::string valueSubject(std::int64_t x, std::int64_t y) { return pairSubject("value", "%", x, y); }
inline std::string instructionSubject(std::int64_t x, std::int64_t y) { return pairSubject("instruction", "", x, y); }
inline std::string bytesCount(std::uint64_t n) { return std::to_string(n) + " bytes"; }

/**
 * Compares method `a` with method `b`: aligns the instruction sequences, matches values and delegates, compares
 * them, and appends the differences, constants and delegates to the context's output (see diffMethod).
 */
class MethodDiffer
{
public:
    MethodDiffer(const MethodView& a, const MethodView& b, DiffContext& context, MethodDiff& result)
        : m_a(a)
        , m_b(b)
        , m_ctx(context)
        , m_md(result)
        , m_strict(context.options.strict)
    { }

    Result<void> run();

private:
    std::size_t add(DiffCategory category, DiffStatus status, std::string subject, std::string field, std::string a,
        std::string b, std::int64_t ia, std::int64_t ib, bool strictOnly = false);
    bool mapped(std::int64_t x, std::int64_t y) const;

    // ---------------------------------------------------------------- alignment (methoddiffalignment.cpp)

    void align();
    static std::size_t oneSided(const std::vector<AlignedPair>& rows);

    // ---------------------------------------------------------------- values and constants (methoddiffvalues.cpp)

    Result<void> compareValues();
    void listConstant(std::int64_t x, const Tensor* ta, std::int64_t y, const Tensor* tb, DiffStatus status,
        std::optional<NumericDifference> numeric);
    Result<void> compareTensorData(std::int64_t x, const Tensor& ta, std::int64_t y, const Tensor& tb);
    /** Two different values that hold the same constant (a program may deduplicate constants, or not). */
    Result<bool> sameConstant(std::int64_t x, std::int64_t y);

    // ---------------------------------------------------------------- instructions (methoddiffinstructions.cpp)

    Result<void> compareRows();
    static std::string delegateMapText(const DelegateMapEntry& e);
    /** Reports the run of one-sided rows starting at `r` (removed rows, then inserted ones); returns its end. */
    std::size_t reportOneSidedRun(std::size_t r);

    // ---------------------------------------------------------------- signature (methoddiffsignature.cpp)

    void compareSignature();
    void compareIoList(const std::vector<std::int32_t>& la, const std::vector<std::int32_t>& lb, const char* what);

    // ---------------------------------------------------------------- unmatched values and uses (methoddiffuses.cpp)

    /** Calls f(value, use) for every use of a value: instruction arguments (and list items), inputs, outputs. */
    template <typename F> static void forEachUse(const MethodView& view, F&& f);
    void reportUnmatchedValues();
    void attachUses();

    // ---------------------------------------------------------------- memory plan and method fields
    // (methoddiffplan.cpp)

    void compareMemoryPlan();
    void compareMethodMeta();

    // ---------------------------------------------------------------- delegates (methoddiffdelegates.cpp)

    /** Whether every delegate call of delegate `index` is on a one-sided row (the difference is the row's). */
    bool delegateCallsOneSided(
        const MethodView& view, const std::vector<std::int32_t>& rowOf, std::int32_t index) const;
    Result<void> compareDelegates();
    void compareCompileSpecs(const BackendDelegate& a, const BackendDelegate& b, const std::string& subject,
        std::int64_t x, std::int64_t y, DelegateRow& row);

    // ---------------------------------------------------------------- strict-only checks (methoddiffstrict.cpp)

    void strictChecks();

    // ---------------------------------------------------------------- results (methoddiffer.cpp)

    void finish();
    void countOperators(const MethodView& view, bool sideA);

    const MethodView& m_a;
    const MethodView& m_b;
    DiffContext& m_ctx;
    MethodDiff& m_md;
    bool m_strict;
    InstructionKeys m_keysA;
    InstructionKeys m_keysB;
    std::vector<AlignedPair> m_rows;
    std::vector<DiffStatus> m_status;
    std::vector<std::int32_t> m_rowOfA;
    std::vector<std::int32_t> m_rowOfB;
    std::vector<std::int32_t> m_instrAtoB;
    Matching m_values;
    Matching m_delegates;
    std::vector<std::uint8_t> m_valueDiffersA;
    std::set<std::pair<std::int32_t, std::int32_t>> m_explainedA;
    std::set<std::pair<std::int32_t, std::int32_t>> m_explainedB;
    std::set<std::int64_t> m_signatureExplainedA;
    std::set<std::int64_t> m_signatureExplainedB;
    std::vector<Difference> m_diffs;
    std::vector<std::tuple<std::size_t, std::int64_t, std::int64_t>> m_useTargets;
};

} // namespace pte::diff
