// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// The method comparison's values: the fields of matched values, constant data, and the constants table.
#include "diff/contentcompare.h"
#include "diff/methoddiffer_p.h"
#include "diff/valuecompare.h"

#include <cstdio>

namespace pte::diff {

namespace {

/** The initial bytes of a tensor (constant, or planned with initial state), trimmed to its size; empty if none. */
Bytes tensorBytes(const Program& program, const Tensor& t)
{
    if (t.dataBufferIdx == 0 || (t.extraTensorInfo && t.extraTensorInfo->location == TensorDataLocation::External))
        return {};
    const auto nbytes = t.nbytes();
    if (t.allocationInfo)
        return mutableData(program, t.dataBufferIdx, nbytes.value_or(0));
    Bytes data = constantData(program, t.dataBufferIdx);
    if (nbytes && data.size() > *nbytes)
        data = data.slice(0, std::size_t(*nbytes));
    return data;
}

bool hasStoredBytes(const Tensor& t)
{
    return t.dataBufferIdx != 0 && !(t.extraTensorInfo && t.extraTensorInfo->location == TensorDataLocation::External);
}

std::string numericText(const NumericDifference& n)
{
    char buf[160];
    std::snprintf(buf, sizeof buf, "max |a-b| %s, mean %s, %llu of %llu elements differ", numberText(n.maxAbs).c_str(),
        numberText(n.meanAbs).c_str(), static_cast<unsigned long long>(n.differing),
        static_cast<unsigned long long>(n.elements));
    std::string s = buf;
    if (!n.firstIndices.empty()) {
        s += ", first at ";
        for (std::size_t i = 0; i < n.firstIndices.size(); ++i)
            s += (i ? " " : "") + listText(n.firstIndices[i]);
    }
    return s;
}

} // namespace

Result<void> MethodDiffer::compareValues()
{
    m_valueDiffersA.assign(m_a.valueCount(), 0);
    std::vector<FieldDifference> fields;
    for (std::size_t x = 0; x < m_a.valueCount(); ++x) {
        if ((x & 0xfff) == 0 && m_ctx.cancelled())
            return fail(ErrorCode::Cancelled, "the comparison was cancelled");
        const std::int32_t y = m_values.aToB[x];
        if (y < 0)
            continue;
        fields.clear();
        compareValueFields(m_a, std::int64_t(x), m_b, y, m_values, m_strict, fields);
        for (auto& f : fields) {
            const std::size_t d = add(f.category, DiffStatus::Changed, valueSubject(std::int64_t(x), y), f.field,
                std::move(f.a), std::move(f.b), std::int64_t(x), y, f.strictOnly);
            m_useTargets.emplace_back(d, std::int64_t(x), y);
            m_valueDiffersA[x] = 1;
        }
        const Tensor* ta = m_a.value(std::int64_t(x))->tensor();
        const Tensor* tb = m_b.value(y)->tensor();
        if (ta && tb)
            PTE_CHECK(compareTensorData(std::int64_t(x), *ta, y, *tb));
    }
    for (std::size_t x = 0; x < m_a.valueCount(); ++x)
        if (m_values.aToB[x] < 0)
            if (const Tensor* t = m_a.plan().values[x].tensor(); t && hasStoredBytes(*t))
                listConstant(std::int64_t(x), t, -1, nullptr, DiffStatus::Removed, {});
    for (std::size_t y = 0; y < m_b.valueCount(); ++y)
        if (m_values.bToA[y] < 0)
            if (const Tensor* t = m_b.plan().values[y].tensor(); t && hasStoredBytes(*t))
                listConstant(-1, nullptr, std::int64_t(y), t, DiffStatus::Added, {});
    return {};
}

void MethodDiffer::listConstant(std::int64_t x, const Tensor* ta, std::int64_t y, const Tensor* tb, DiffStatus status,
    std::optional<NumericDifference> numeric)
{
    const Tensor* any = ta ? ta : tb;
    const bool mutableState = any->allocationInfo.has_value();
    if (!m_ctx.firstConstantRow(mutableState, ta ? ta->dataBufferIdx : 0, tb ? tb->dataBufferIdx : 0))
        return;
    ConstantRow row;
    row.methodA = x >= 0 ? m_a.plan().name : std::string();
    row.methodB = y >= 0 ? m_b.plan().name : std::string();
    row.valueA = std::int32_t(x);
    row.valueB = std::int32_t(y);
    row.bufferA = ta ? ta->dataBufferIdx : 0;
    row.bufferB = tb ? tb->dataBufferIdx : 0;
    if (any->extraTensorInfo && any->extraTensorInfo->fullyQualifiedName)
        row.fqn = *any->extraTensorInfo->fullyQualifiedName;
    if (ta) {
        row.typeA = tensorType(*ta);
        row.bytesA = tensorBytes(m_a.program(), *ta).size();
    }
    if (tb) {
        row.typeB = tensorType(*tb);
        row.bytesB = tensorBytes(m_b.program(), *tb).size();
    }
    row.mutableInitialState = mutableState;
    row.status = status;
    row.numeric = std::move(numeric);
    m_ctx.out.constants.push_back(std::move(row));
}

Result<void> MethodDiffer::compareTensorData(std::int64_t x, const Tensor& ta, std::int64_t y, const Tensor& tb)
{
    if (!hasStoredBytes(ta) && !hasStoredBytes(tb))
        return {};
    if (!hasStoredBytes(ta) || !hasStoredBytes(tb) || storageKind(ta) != storageKind(tb)) {
        // The storage field already says so; list both in the constants table.
        listConstant(x, &ta, y, &tb, DiffStatus::Changed, {});
        m_valueDiffersA[std::size_t(x)] = 1;
        return {};
    }
    const Bytes da = tensorBytes(m_a.program(), ta);
    const Bytes db = tensorBytes(m_b.program(), tb);
    PTE_TRY(const bool same, m_ctx.sameBytes(da, db));
    if (same) {
        listConstant(x, &ta, y, &tb, DiffStatus::Same, {});
        return {};
    }
    std::optional<NumericDifference> numeric;
    if (ta.scalarType == tb.scalarType && ta.sizes == tb.sizes && ta.dimOrder == tb.dimOrder
        && da.size() == db.size()) {
        auto n = compareElements(
            da, db, ta.scalarType, ta.sizes, ta.dimOrder, m_ctx.options.maxDifferingIndices, m_ctx.options.cancel);
        if (!n && n.error().code == ErrorCode::Cancelled)
            return Unexpected { std::move(n).error() };
        if (n)
            numeric = std::move(*n);
    }
    const bool initialState = ta.allocationInfo.has_value();
    const std::size_t d = add(DiffCategory::Constant, DiffStatus::Changed,
        pairSubject(initialState ? "initial state of" : "constant", "%", x, y), "data", bytesCount(da.size()),
        bytesCount(db.size()), x, y);
    m_diffs[d].detail = numeric ? numericText(*numeric) : std::string("the bytes differ");
    m_useTargets.emplace_back(d, x, y);
    m_valueDiffersA[std::size_t(x)] = 1;
    listConstant(x, &ta, y, &tb, DiffStatus::Changed, std::move(numeric));
    return {};
}

Result<bool> MethodDiffer::sameConstant(std::int64_t x, std::int64_t y)
{
    const EValue* va = m_a.value(x);
    const EValue* vb = m_b.value(y);
    const Tensor* ta = va ? va->tensor() : nullptr;
    const Tensor* tb = vb ? vb->tensor() : nullptr;
    if (!ta || !tb || ta->allocationInfo || tb->allocationInfo || !hasStoredBytes(*ta) || !hasStoredBytes(*tb)
        || ta->scalarType != tb->scalarType || ta->sizes != tb->sizes || ta->dimOrder != tb->dimOrder)
        return false;
    return m_ctx.sameBytes(tensorBytes(m_a.program(), *ta), tensorBytes(m_b.program(), *tb));
}

} // namespace pte::diff
