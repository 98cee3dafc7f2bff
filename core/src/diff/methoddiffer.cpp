// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// Comparing one method with another: aligned instructions, matched values, their fields, constants, delegates.
#include "diff/methoddiffer.h"

#include "diff/contentcompare.h"
#include "diff/hashing.h"
#include "diff/instructionkeys.h"
#include "diff/matching.h"
#include "diff/sequencealignment.h"
#include "diff/valuecompare.h"
#include "pte/bytetext.h"

#include <algorithm>
#include <cstdio>
#include <unordered_map>

namespace pte::diff {

Result<bool> DiffContext::sameBytes(const Bytes& a, const Bytes& b)
{
    const auto key =
        std::make_tuple(static_cast<const void*>(a.data()), a.size(), static_cast<const void*>(b.data()), b.size());
    if (const auto it = m_same.find(key); it != m_same.end())
        return it->second;
    PTE_TRY(const bool same, diff::sameBytes(a, b, options.cancel));
    m_same.emplace(key, same);
    return same;
}

Result<std::string> DiffContext::sha256(const Bytes& bytes)
{
    const auto key = std::make_pair(static_cast<const void*>(bytes.data()), bytes.size());
    if (const auto it = m_sha.find(key); it != m_sha.end())
        return it->second;
    PTE_TRY(std::string hex, sha256OfBytes(bytes, options.cancel));
    m_sha.emplace(key, hex);
    return hex;
}

Difference makeDifference(DiffCategory category, DiffStatus status, std::string methodA, std::string methodB,
    std::string subject, std::string field, std::string a, std::string b, std::int64_t indexA, std::int64_t indexB,
    bool strictOnly)
{
    Difference d;
    d.category = category;
    d.status = status;
    d.methodA = std::move(methodA);
    d.methodB = std::move(methodB);
    d.subject = std::move(subject);
    d.field = std::move(field);
    d.a = std::move(a);
    d.b = std::move(b);
    d.indexA = indexA;
    d.indexB = indexB;
    d.strictOnly = strictOnly;
    return d;
}

std::uint64_t methodFingerprint(const MethodView& view)
{
    const InstructionKeys keys = instructionKeys(view);
    std::uint64_t h = hashCombine(0xf1, keys.primary.size());
    for (const auto k : keys.primary)
        h = hashCombine(h, k);
    for (const auto* list : { &view.plan().inputs, &view.plan().outputs }) {
        h = hashCombine(h, list->size());
        for (const auto v : *list) {
            const EValue* ev = view.value(v);
            h = hashCombine(h, ev ? std::uint64_t(ev->kind()) : 99);
            if (const Tensor* t = ev ? ev->tensor() : nullptr)
                h = hashCombine(h, hashString(tensorType(*t)));
        }
    }
    return h;
}

namespace {

std::string pairSubject(const char* what, const char* prefix, std::int64_t x, std::int64_t y)
{
    std::string s = what;
    if (x >= 0)
        s += std::string(" ") + prefix + std::to_string(x);
    if (y >= 0 && y != x)
        s += (x >= 0 ? std::string(" \u2194 ") : std::string(" ")) + prefix + std::to_string(y);
    return s;
}

std::string valueSubject(std::int64_t x, std::int64_t y) { return pairSubject("value", "%", x, y); }
std::string instructionSubject(std::int64_t x, std::int64_t y) { return pairSubject("instruction", "", x, y); }

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

std::string bytesCount(std::uint64_t n) { return std::to_string(n) + " bytes"; }

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

std::string specsText(const std::vector<CompileSpec>& specs)
{
    std::string s;
    for (const auto& c : specs)
        s += (s.empty() ? "" : ", ") + c.key;
    return "[" + s + "]";
}

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

    Result<void> run()
    {
        align();
        m_values = matchValues(m_a, m_b, m_rows, m_keysA.similar, m_keysB.similar);
        m_delegates = matchDelegates(m_a, m_b, m_rows);
        PTE_CHECK(compareValues());
        PTE_CHECK(compareRows());
        compareSignature();
        reportUnmatchedValues();
        compareMemoryPlan();
        PTE_CHECK(compareDelegates());
        compareMethodMeta();
        if (m_strict)
            strictChecks();
        attachUses();
        finish();
        return {};
    }

private:
    std::size_t add(DiffCategory category, DiffStatus status, std::string subject, std::string field, std::string a,
        std::string b, std::int64_t ia, std::int64_t ib, bool strictOnly = false)
    {
        m_diffs.push_back(makeDifference(category, status, m_a.plan().name, m_b.plan().name, std::move(subject),
            std::move(field), std::move(a), std::move(b), ia, ib, strictOnly));
        return m_diffs.size() - 1;
    }

    bool mapped(std::int64_t x, std::int64_t y) const
    {
        return x >= 0 && std::size_t(x) < m_values.aToB.size() && m_values.aToB[std::size_t(x)] == y;
    }

    // ---------------------------------------------------------------- alignment

    void align()
    {
        m_keysA = instructionKeys(m_a);
        m_keysB = instructionKeys(m_b);
        m_rows = alignSequences(m_keysA.primary, m_keysB.primary);
        refineHunks(m_rows, m_keysA.primary, m_keysB.primary, m_keysA.similar, m_keysB.similar);
        if (!m_keysA.withHandles.empty() && !m_keysB.withHandles.empty()) {
            // Handles tell repeated instructions apart; but when one side's handles are shifted (a node inserted
            // upstream renumbers the rest) they break the alignment: keep them only when they do no worse.
            auto withHandles = alignSequences(m_keysA.withHandles, m_keysB.withHandles);
            refineHunks(withHandles, m_keysA.withHandles, m_keysB.withHandles, m_keysA.similar, m_keysB.similar);
            if (oneSided(withHandles) <= oneSided(m_rows)) {
                m_rows = std::move(withHandles);
                m_md.alignedWithDebugHandles = true;
            }
        }
        m_rowOfA.assign(m_a.instructionCount(), -1);
        m_rowOfB.assign(m_b.instructionCount(), -1);
        for (std::size_t r = 0; r < m_rows.size(); ++r) {
            if (m_rows[r].a >= 0)
                m_rowOfA[std::size_t(m_rows[r].a)] = std::int32_t(r);
            if (m_rows[r].b >= 0)
                m_rowOfB[std::size_t(m_rows[r].b)] = std::int32_t(r);
        }
    }

    static std::size_t oneSided(const std::vector<AlignedPair>& rows)
    {
        return std::size_t(
            std::count_if(rows.begin(), rows.end(), [](const AlignedPair& r) { return r.a < 0 || r.b < 0; }));
    }

    // ---------------------------------------------------------------- values

    Result<void> compareValues()
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

    void listConstant(std::int64_t x, const Tensor* ta, std::int64_t y, const Tensor* tb, DiffStatus status,
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

    Result<void> compareTensorData(std::int64_t x, const Tensor& ta, std::int64_t y, const Tensor& tb)
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

    /** Two different values that hold the same constant (a program may deduplicate constants, or not). */
    Result<bool> sameConstant(std::int64_t x, std::int64_t y)
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

    // ---------------------------------------------------------------- instructions

    Result<void> compareRows()
    {
        m_instrAtoB.assign(m_a.instructionCount(), -1);
        for (const auto& r : m_rows)
            if (r.a >= 0 && r.b >= 0)
                m_instrAtoB[std::size_t(r.a)] = r.b;
        m_status.assign(m_rows.size(), DiffStatus::Same);
        std::array<std::int32_t, 2> sa {};
        std::array<std::int32_t, 2> sb {};
        const bool handles = m_a.hasDebugHandles() && m_b.hasDebugHandles();
        const bool delegateMaps = m_a.hasDelegateMap() && m_b.hasDelegateMap();
        for (std::size_t r = 0; r < m_rows.size(); ++r) {
            if ((r & 0xfff) == 0 && m_ctx.cancelled())
                return fail(ErrorCode::Cancelled, "the comparison was cancelled");
            const AlignedPair row = m_rows[r];
            if (row.a < 0 || row.b < 0) {
                r = reportOneSidedRun(r) - 1;
                continue;
            }
            const auto i = std::size_t(row.a);
            const auto j = std::size_t(row.b);
            const std::string subject = instructionSubject(row.a, row.b);
            InstructionChange change;
            change.row = std::uint32_t(r);
            const Instruction& ia = m_a.instruction(i);
            const Instruction& ib = m_b.instruction(j);
            if (ia.kind() != ib.kind()) {
                change.kind = true;
                add(DiffCategory::Instruction, DiffStatus::Changed, subject, "kind", instructionKindName(ia.kind()),
                    instructionKindName(ib.kind()), row.a, row.b);
            } else if (m_a.target(i) != m_b.target(j)) {
                change.target = true;
                add(DiffCategory::Instruction, DiffStatus::Changed, subject,
                    ia.kind() == InstructionKind::DelegateCall ? "backend" : "operator", m_a.target(i), m_b.target(j),
                    row.a, row.b);
            } else if (ia.kind() == InstructionKind::DelegateCall) {
                const std::int32_t da = m_a.delegateIndex(i);
                const std::int32_t db = m_b.delegateIndex(j);
                const bool same =
                    da >= 0 && std::size_t(da) < m_delegates.aToB.size() && m_delegates.aToB[std::size_t(da)] == db;
                if (!same) {
                    change.target = true;
                    add(DiffCategory::Instruction, DiffStatus::Changed, subject, "delegate",
                        "delegate " + std::to_string(da), "delegate " + std::to_string(db), row.a, row.b);
                }
            }
            const auto argsA = m_a.arguments(i, sa);
            const auto argsB = m_b.arguments(j, sb);
            if (argsA.size() != argsB.size()) {
                change.argumentCount = true;
                add(DiffCategory::Instruction, DiffStatus::Changed, subject, "arguments",
                    std::to_string(argsA.size()) + ": " + m_a.describeInstruction(i),
                    std::to_string(argsB.size()) + ": " + m_b.describeInstruction(j), row.a, row.b);
            }
            for (std::size_t p = 0; p < argsA.size() && p < argsB.size(); ++p) {
                const std::int64_t x = argsA[p];
                const std::int64_t y = argsB[p];
                if (mapped(x, y)) {
                    if (m_valueDiffersA[std::size_t(x)])
                        change.arguments.push_back(std::uint32_t(p));
                    continue;
                }
                if (sameLiteral(m_a, x, m_b, y))
                    continue;
                PTE_TRY(const bool sameConst, sameConstant(x, y));
                if (sameConst)
                    continue;
                change.arguments.push_back(std::uint32_t(p));
                const std::size_t d = add(DiffCategory::Instruction, DiffStatus::Changed, subject,
                    "arg " + std::to_string(p), m_a.describeValue(x), m_b.describeValue(y), row.a, row.b);
                m_diffs[d].detail = "the argument is not the same value on both sides";
                m_explainedA.insert({ std::int32_t(i), std::int32_t(p) });
                m_explainedB.insert({ std::int32_t(j), std::int32_t(p) });
            }
            if (const auto* ja = std::get_if<JumpFalseCall>(&ia.args)) {
                if (const auto* jb = std::get_if<JumpFalseCall>(&ib.args)) {
                    const std::int64_t mappedDest =
                        ja->destinationInstruction >= 0 && std::size_t(ja->destinationInstruction) < m_instrAtoB.size()
                        ? m_instrAtoB[std::size_t(ja->destinationInstruction)]
                        : -1;
                    if (mappedDest != jb->destinationInstruction) {
                        change.target = true;
                        add(DiffCategory::Instruction, DiffStatus::Changed, subject, "destination",
                            std::to_string(ja->destinationInstruction), std::to_string(jb->destinationInstruction),
                            row.a, row.b);
                    }
                }
            }
            if (handles) {
                static const std::vector<std::int64_t> none;
                const auto* ha = m_a.debugHandles(i);
                const auto* hb = m_b.debugHandles(j);
                if ((ha ? *ha : none) != (hb ? *hb : none)) {
                    change.debugHandles = true;
                    add(DiffCategory::DebugInfo, DiffStatus::Changed, subject, "debug_handles",
                        listText(ha ? *ha : none), listText(hb ? *hb : none), row.a, row.b);
                }
            }
            if (delegateMaps && ia.kind() == InstructionKind::DelegateCall) {
                const DelegateMapEntry* ea = m_a.delegateMapEntry(i);
                const DelegateMapEntry* eb = m_b.delegateMapEntry(j);
                const bool same =
                    (!ea && !eb) || (ea && eb && ea->name == eb->name && ea->delegateMap == eb->delegateMap);
                if (!same) {
                    change.debugHandles = true;
                    add(DiffCategory::DebugInfo, DiffStatus::Changed, subject, "delegate_debug_identifiers",
                        ea ? delegateMapText(*ea) : std::string("none"),
                        eb ? delegateMapText(*eb) : std::string("none"), row.a, row.b);
                }
            }
            const bool changed = change.kind || change.target || change.argumentCount || change.debugHandles
                || !change.arguments.empty() || m_keysA.primary[i] != m_keysB.primary[j];
            if (changed) {
                m_status[r] = DiffStatus::Changed;
                m_md.changes.push_back(std::move(change));
            }
        }
        return {};
    }

    static std::string delegateMapText(const DelegateMapEntry& e)
    {
        std::string s = e.name + " {";
        std::size_t n = 0;
        for (const auto& [id, handles] : e.delegateMap) {
            if (n++ == 8) {
                s += ", ... (" + std::to_string(e.delegateMap.size()) + " identifiers)";
                break;
            }
            s += (n > 1 ? ", " : "") + id + ": " + listText(handles);
        }
        return s + "}";
    }

    /** Reports the run of one-sided rows starting at `r` (removed rows, then inserted ones); returns its end. */
    std::size_t reportOneSidedRun(std::size_t r)
    {
        std::size_t end = r;
        while (end < m_rows.size() && (m_rows[end].a < 0 || m_rows[end].b < 0))
            ++end;
        for (const bool removed : { true, false }) {
            std::vector<std::int32_t> indices;
            for (std::size_t t = r; t < end; ++t) {
                const std::int32_t idx = removed ? m_rows[t].a : m_rows[t].b;
                if (idx >= 0) {
                    indices.push_back(idx);
                    m_status[t] = removed ? DiffStatus::Removed : DiffStatus::Added;
                }
            }
            // One difference per run of consecutive instructions.
            for (std::size_t s = 0; s < indices.size();) {
                std::size_t e = s + 1;
                while (e < indices.size() && indices[e] == indices[e - 1] + 1)
                    ++e;
                const MethodView& view = removed ? m_a : m_b;
                std::string subject = e - s == 1
                    ? "instruction " + std::to_string(indices[s])
                    : "instructions " + std::to_string(indices[s]) + "\u2013" + std::to_string(indices[e - 1]);
                std::string text = view.describeInstruction(std::size_t(indices[s]));
                if (e - s > 1)
                    text += " ..."; // the count is the difference's detail
                const std::size_t d = add(DiffCategory::Instruction, removed ? DiffStatus::Removed : DiffStatus::Added,
                    std::move(subject), "", removed ? text : std::string(), removed ? std::string() : text,
                    removed ? indices[s] : -1, removed ? -1 : indices[s]);
                if (e - s > 1)
                    m_diffs[d].detail = std::to_string(e - s) + " instructions";
                s = e;
            }
        }
        return end;
    }

    // ---------------------------------------------------------------- signature

    void compareSignature()
    {
        compareIoList(m_a.plan().inputs, m_b.plan().inputs, "inputs");
        compareIoList(m_a.plan().outputs, m_b.plan().outputs, "outputs");
    }

    void compareIoList(const std::vector<std::int32_t>& la, const std::vector<std::int32_t>& lb, const char* what)
    {
        auto same = [&](std::int64_t x, std::int64_t y) { return mapped(x, y) || sameLiteral(m_a, x, m_b, y); };
        const std::size_t n = std::min(la.size(), lb.size());
        std::vector<std::size_t> mismatched;
        for (std::size_t i = 0; i < n; ++i)
            if (!same(la[i], lb[i]))
                mismatched.push_back(i);
        const std::string name = what;
        if (la.size() != lb.size()) {
            add(DiffCategory::Signature, DiffStatus::Changed, name, "count", std::to_string(la.size()),
                std::to_string(lb.size()), -1, -1);
            for (std::size_t i = n; i < la.size(); ++i) {
                add(DiffCategory::Signature, DiffStatus::Removed, name + "[" + std::to_string(i) + "]", "",
                    m_a.describeValue(la[i]), "", la[i], -1);
                m_signatureExplainedA.insert(la[i]);
            }
            for (std::size_t i = n; i < lb.size(); ++i) {
                add(DiffCategory::Signature, DiffStatus::Added, name + "[" + std::to_string(i) + "]", "", "",
                    m_b.describeValue(lb[i]), -1, lb[i]);
                m_signatureExplainedB.insert(lb[i]);
            }
        }
        if (mismatched.empty())
            return;
        // The same values in another order?
        std::vector<std::int64_t> positionInB;
        for (const std::size_t i : mismatched) {
            std::int64_t found = -1;
            for (const std::size_t k : mismatched)
                if (same(la[i], lb[k])
                    && std::find(positionInB.begin(), positionInB.end(), std::int64_t(k)) == positionInB.end()) {
                    found = std::int64_t(k);
                    break;
                }
            if (found < 0)
                break;
            positionInB.push_back(found);
        }
        if (positionInB.size() == mismatched.size()) {
            std::vector<std::int32_t> orderA;
            std::vector<std::int32_t> orderB;
            for (const auto v : la)
                orderA.push_back(v);
            for (const auto v : lb)
                orderB.push_back(v);
            std::string detail;
            for (std::size_t t = 0; t < mismatched.size(); ++t)
                detail += (t ? ", " : "") + name + "[" + std::to_string(mismatched[t]) + "] is now " + name + "["
                    + std::to_string(positionInB[t]) + "]";
            const std::size_t d = add(DiffCategory::Signature, DiffStatus::Changed, name, "order",
                "%" + listText(orderA), "%" + listText(orderB), -1, -1);
            m_diffs[d].detail = "reordered: " + detail;
            for (const std::size_t i : mismatched) {
                m_signatureExplainedA.insert(la[i]);
                m_signatureExplainedB.insert(lb[i]);
            }
            return;
        }
        for (const std::size_t i : mismatched) {
            add(DiffCategory::Signature, DiffStatus::Changed, name + "[" + std::to_string(i) + "]", "",
                m_a.describeValue(la[i]), m_b.describeValue(lb[i]), la[i], lb[i]);
            m_signatureExplainedA.insert(la[i]);
            m_signatureExplainedB.insert(lb[i]);
        }
    }

    // ---------------------------------------------------------------- unmatched values and uses

    /** Calls f(value, use) for every use of a value: instruction arguments (and list items), inputs, outputs. */
    template <typename F> static void forEachUse(const MethodView& view, F&& f)
    {
        std::array<std::int32_t, 2> scratch {};
        for (std::size_t i = 0; i < view.instructionCount(); ++i) {
            const auto args = view.arguments(i, scratch);
            for (std::size_t p = 0; p < args.size(); ++p) {
                const DiffUse use { std::int32_t(i), std::int32_t(p) };
                f(std::int64_t(args[p]), use, false);
                const EValue* v = view.value(args[p]);
                if (!v)
                    continue;
                if (const auto* l = std::get_if<IntList>(&v->val))
                    for (const auto item : l->items)
                        f(item, use, true);
                else if (const auto* tl = std::get_if<TensorList>(&v->val))
                    for (const auto item : tl->items)
                        f(std::int64_t(item), use, true);
                else if (const auto* ol = std::get_if<OptionalTensorList>(&v->val))
                    for (const auto item : ol->items)
                        if (item >= 0)
                            f(std::int64_t(item), use, true);
            }
        }
        const auto& plan = view.plan();
        for (std::size_t i = 0; i < plan.inputs.size(); ++i)
            f(std::int64_t(plan.inputs[i]), DiffUse { -1, std::int32_t(i) }, false);
        for (std::size_t i = 0; i < plan.outputs.size(); ++i)
            f(std::int64_t(plan.outputs[i]), DiffUse { -2, std::int32_t(i) }, false);
    }

    void reportUnmatchedValues()
    {
        for (const bool sideA : { true, false }) {
            const MethodView& view = sideA ? m_a : m_b;
            const auto& match = sideA ? m_values.aToB : m_values.bToA;
            const auto& rowOf = sideA ? m_rowOfA : m_rowOfB;
            const auto& explained = sideA ? m_explainedA : m_explainedB;
            const auto& signatureExplained = sideA ? m_signatureExplainedA : m_signatureExplainedB;
            const DiffStatus oneSided = sideA ? DiffStatus::Removed : DiffStatus::Added;
            // 0 = unused, 1 = used only where a reported difference covers it, 2 = used elsewhere
            std::vector<std::uint8_t> state(view.valueCount(), 0);
            forEachUse(view, [&](std::int64_t v, const DiffUse& use, bool /*item*/) {
                if (v < 0 || std::size_t(v) >= state.size() || match[std::size_t(v)] >= 0)
                    return;
                bool covered = false;
                if (use.instruction >= 0) {
                    const std::int32_t r = rowOf[std::size_t(use.instruction)];
                    covered = (r >= 0 && m_status[std::size_t(r)] == oneSided)
                        || explained.count({ use.instruction, use.argument }) > 0;
                    if (!covered && r >= 0 && m_status[std::size_t(r)] == DiffStatus::Changed) {
                        // A list argument whose items differ is reported as the list's difference.
                        std::array<std::int32_t, 2> scratch {};
                        const auto args = view.arguments(std::size_t(use.instruction), scratch);
                        const std::int64_t list = args[std::size_t(use.argument)];
                        if (list != v) {
                            const std::int64_t listA =
                                sideA ? list : (list >= 0 ? m_values.bToA[std::size_t(list)] : -1);
                            covered = listA >= 0 && m_valueDiffersA[std::size_t(listA)];
                        }
                    }
                } else {
                    covered = signatureExplained.count(v) > 0;
                }
                std::uint8_t& s = state[std::size_t(v)];
                s = std::max<std::uint8_t>(s, covered ? 1 : 2);
            });
            for (std::size_t v = 0; v < view.valueCount(); ++v) {
                if (match[v] >= 0 || state[v] == 1)
                    continue;
                const std::int64_t x = sideA ? std::int64_t(v) : -1;
                const std::int64_t y = sideA ? -1 : std::int64_t(v);
                const std::size_t d = add(DiffCategory::Value, oneSided, valueSubject(x, y), "",
                    sideA ? view.describeValue(std::int64_t(v)) : std::string(),
                    sideA ? std::string() : view.describeValue(std::int64_t(v)), x, y);
                if (state[v] == 0)
                    m_diffs[d].detail = "not used by any instruction";
                m_useTargets.emplace_back(d, x, y);
            }
        }
    }

    void attachUses()
    {
        if (m_useTargets.empty())
            return;
        const std::size_t maxUses = m_ctx.options.maxUsesPerValue;
        for (const bool sideA : { true, false }) {
            const MethodView& view = sideA ? m_a : m_b;
            std::unordered_map<std::int64_t, std::pair<std::vector<DiffUse>, std::size_t>> uses;
            for (const auto& [d, x, y] : m_useTargets)
                if ((sideA ? x : y) >= 0)
                    uses[sideA ? x : y];
            forEachUse(view, [&](std::int64_t v, const DiffUse& use, bool) {
                const auto it = uses.find(v);
                if (it == uses.end())
                    return;
                auto& [list, count] = it->second;
                if (!list.empty() && list.back() == use)
                    return; // a list holding the value twice
                ++count;
                if (list.size() < maxUses)
                    list.push_back(use);
            });
            for (const auto& [d, x, y] : m_useTargets) {
                const std::int64_t v = sideA ? x : y;
                if (v < 0)
                    continue;
                const auto& [list, count] = uses[v];
                (sideA ? m_diffs[d].usesA : m_diffs[d].usesB) = list;
                (sideA ? m_diffs[d].useCountA : m_diffs[d].useCountB) = count;
            }
        }
    }

    // ---------------------------------------------------------------- memory plan, delegates, method

    void compareMemoryPlan()
    {
        const auto& sa = m_a.plan().nonConstBufferSizes;
        const auto& sb = m_b.plan().nonConstBufferSizes;
        if (sa != sb)
            add(DiffCategory::MemoryPlan, DiffStatus::Changed, "non_const_buffer_sizes", "", listText(sa), listText(sb),
                -1, -1);
        const auto da = m_a.plan().nonConstBufferDevice.value_or(std::vector<NonConstBufferDevice> {});
        const auto db = m_b.plan().nonConstBufferDevice.value_or(std::vector<NonConstBufferDevice> {});
        auto text = [](const std::vector<NonConstBufferDevice>& d) {
            std::string s;
            for (const auto& e : d)
                s += (s.empty() ? "" : ", ") + std::to_string(e.bufferIdx)
                    + (e.deviceType == DeviceType::Cuda ? ":cuda" : ":cpu") + std::to_string(e.deviceIndex);
            return "[" + s + "]";
        };
        if (text(da) != text(db))
            add(DiffCategory::MemoryPlan, DiffStatus::Changed, "non_const_buffer_device", "", text(da), text(db), -1,
                -1);
    }

    /** Whether every delegate call of delegate `index` is on a one-sided row (the difference is the row's). */
    bool delegateCallsOneSided(const MethodView& view, const std::vector<std::int32_t>& rowOf, std::int32_t index) const
    {
        for (std::size_t i = 0; i < view.instructionCount(); ++i)
            if (view.delegateIndex(i) == index) {
                const std::int32_t r = rowOf[i];
                if (r < 0 || m_status[std::size_t(r)] == DiffStatus::Same
                    || m_status[std::size_t(r)] == DiffStatus::Changed)
                    return false;
            }
        return true;
    }

    Result<void> compareDelegates()
    {
        const auto& da = m_a.plan().delegates;
        const auto& db = m_b.plan().delegates;
        auto rowFor = [&](std::int32_t x, std::int32_t y) -> Result<DelegateRow> {
            DelegateRow row;
            row.methodA = x >= 0 ? m_a.plan().name : std::string();
            row.methodB = y >= 0 ? m_b.plan().name : std::string();
            row.indexA = x;
            row.indexB = y;
            if (x >= 0) {
                const auto& d = da[std::size_t(x)];
                const Bytes payload = delegateData(m_a.program(), d);
                row.backendA = d.id;
                row.payloadBytesA = payload.size();
                PTE_TRY(row.payloadSha256A, m_ctx.sha256(payload));
                row.compileSpecsA = d.compileSpecs.size();
            }
            if (y >= 0) {
                const auto& d = db[std::size_t(y)];
                const Bytes payload = delegateData(m_b.program(), d);
                row.backendB = d.id;
                row.payloadBytesB = payload.size();
                PTE_TRY(row.payloadSha256B, m_ctx.sha256(payload));
                row.compileSpecsB = d.compileSpecs.size();
            }
            return row;
        };
        for (std::size_t x = 0; x < da.size(); ++x) {
            const std::int32_t y = m_delegates.aToB[x];
            PTE_TRY(DelegateRow row, rowFor(std::int32_t(x), y));
            const std::string subject = pairSubject("delegate", "", std::int64_t(x), y) + " (" + da[x].id + ")";
            if (y < 0) {
                row.status = DiffStatus::Removed;
                if (!delegateCallsOneSided(m_a, m_rowOfA, std::int32_t(x)))
                    add(DiffCategory::Delegate, DiffStatus::Removed, subject, "", da[x].id, "", std::int64_t(x), -1);
                m_ctx.out.delegates.push_back(std::move(row));
                continue;
            }
            const std::size_t before = m_diffs.size();
            const auto& a = da[x];
            const auto& b = db[std::size_t(y)];
            if (a.id != b.id)
                add(DiffCategory::Delegate, DiffStatus::Changed, subject, "id", a.id, b.id, std::int64_t(x), y);
            compareCompileSpecs(a, b, subject, std::int64_t(x), y, row);
            if (row.payloadBytesA != row.payloadBytesB || row.payloadSha256A != row.payloadSha256B)
                add(DiffCategory::Delegate, DiffStatus::Changed, subject, "payload",
                    bytesCount(row.payloadBytesA) + " sha256 " + row.payloadSha256A.substr(0, 16),
                    bytesCount(row.payloadBytesB) + " sha256 " + row.payloadSha256B.substr(0, 16), std::int64_t(x), y);
            const bool semanticChange = m_diffs.size() != before;
            if (m_strict) {
                if (std::int64_t(x) != y)
                    add(DiffCategory::Delegate, DiffStatus::Changed, subject, "index", std::to_string(x),
                        std::to_string(y), std::int64_t(x), y, true);
                if (a.processed.location != b.processed.location || a.processed.index != b.processed.index) {
                    auto where = [](const BackendDelegateDataReference& r) {
                        return std::string(r.location == DataLocation::Inline ? "inline " : "segment ")
                            + std::to_string(r.index);
                    };
                    add(DiffCategory::Delegate, DiffStatus::Changed, subject, "processed", where(a.processed),
                        where(b.processed), std::int64_t(x), y, true);
                }
            }
            row.status = m_diffs.size() != before || semanticChange ? DiffStatus::Changed : DiffStatus::Same;
            m_ctx.out.delegates.push_back(std::move(row));
        }
        for (std::size_t y = 0; y < db.size(); ++y) {
            if (m_delegates.bToA[y] >= 0)
                continue;
            PTE_TRY(DelegateRow row, rowFor(-1, std::int32_t(y)));
            row.status = DiffStatus::Added;
            if (!delegateCallsOneSided(m_b, m_rowOfB, std::int32_t(y)))
                add(DiffCategory::Delegate, DiffStatus::Added, "delegate " + std::to_string(y) + " (" + db[y].id + ")",
                    "", "", db[y].id, -1, std::int64_t(y));
            m_ctx.out.delegates.push_back(std::move(row));
        }
        return {};
    }

    void compareCompileSpecs(const BackendDelegate& a, const BackendDelegate& b, const std::string& subject,
        std::int64_t x, std::int64_t y, DelegateRow& row)
    {
        const std::size_t before = m_diffs.size();
        // By key, in A's order, then keys only B has; a key given twice is compared occurrence by occurrence.
        std::vector<bool> usedB(b.compileSpecs.size(), false);
        for (const auto& ca : a.compileSpecs) {
            std::size_t k = 0;
            while (k < b.compileSpecs.size() && (usedB[k] || b.compileSpecs[k].key != ca.key))
                ++k;
            const std::string field = "compile_spec '" + ca.key + "'";
            if (k == b.compileSpecs.size()) {
                add(DiffCategory::Delegate, DiffStatus::Removed, subject, field,
                    compileSpecText(ca.key, ca.value.span()), "", x, y);
                continue;
            }
            usedB[k] = true;
            if (!ca.value.contentEquals(b.compileSpecs[k].value))
                add(DiffCategory::Delegate, DiffStatus::Changed, subject, field,
                    compileSpecText(ca.key, ca.value.span()),
                    compileSpecText(b.compileSpecs[k].key, b.compileSpecs[k].value.span()), x, y);
        }
        for (std::size_t k = 0; k < b.compileSpecs.size(); ++k)
            if (!usedB[k])
                add(DiffCategory::Delegate, DiffStatus::Added, subject, "compile_spec '" + b.compileSpecs[k].key + "'",
                    "", compileSpecText(b.compileSpecs[k].key, b.compileSpecs[k].value.span()), x, y);
        if (m_diffs.size() == before && m_strict) {
            std::vector<std::string> ka;
            std::vector<std::string> kb;
            for (const auto& c : a.compileSpecs)
                ka.push_back(c.key);
            for (const auto& c : b.compileSpecs)
                kb.push_back(c.key);
            if (ka != kb)
                add(DiffCategory::Delegate, DiffStatus::Changed, subject, "compile_spec order",
                    specsText(a.compileSpecs), specsText(b.compileSpecs), x, y, true);
        }
        row.compileSpecsDiffer = m_diffs.size() != before;
    }

    void compareMethodMeta()
    {
        const auto& pa = m_a.plan();
        const auto& pb = m_b.plan();
        if (pa.name != pb.name)
            add(DiffCategory::Method, DiffStatus::Changed, "method", "name", pa.name, pb.name, -1, -1);
        const ContainerMetadata none;
        const auto& ca = pa.containerMetaType ? *pa.containerMetaType : none;
        const auto& cb = pb.containerMetaType ? *pb.containerMetaType : none;
        if (ca.encodedInpStr != cb.encodedInpStr)
            add(DiffCategory::Signature, DiffStatus::Changed, "container_meta_type", "encoded_inp_str",
                ca.encodedInpStr, cb.encodedInpStr, -1, -1);
        if (ca.encodedOutStr != cb.encodedOutStr)
            add(DiffCategory::Signature, DiffStatus::Changed, "container_meta_type", "encoded_out_str",
                ca.encodedOutStr, cb.encodedOutStr, -1, -1);
        if (pa.chains.size() != pb.chains.size())
            add(DiffCategory::Method, DiffStatus::Changed, "chains", "count", std::to_string(pa.chains.size()),
                std::to_string(pb.chains.size()), -1, -1);
    }

    void strictChecks()
    {
        // Values renumbered, in runs of equal shift.
        const auto& aToB = m_values.aToB;
        for (std::size_t x = 0; x < aToB.size();) {
            if (aToB[x] < 0 || aToB[x] == std::int32_t(x)) {
                ++x;
                continue;
            }
            const std::int64_t shift = std::int64_t(aToB[x]) - std::int64_t(x);
            std::size_t e = x + 1;
            while (e < aToB.size() && aToB[e] >= 0 && std::int64_t(aToB[e]) - std::int64_t(e) == shift)
                ++e;
            const bool one = e - x == 1;
            const std::string ra =
                one ? "%" + std::to_string(x) : "%" + std::to_string(x) + "\u2013%" + std::to_string(e - 1);
            const std::string rb = one ? "%" + std::to_string(aToB[x])
                                       : "%" + std::to_string(aToB[x]) + "\u2013%" + std::to_string(aToB[e - 1]);
            const std::size_t d = add(DiffCategory::Value, DiffStatus::Changed, one ? "value" : "values", "index", ra,
                rb, std::int64_t(x), aToB[x], true);
            if (!one)
                m_diffs[d].detail = std::to_string(e - x) + " values renumbered";
            x = e;
        }
        std::vector<std::string> opsA;
        std::vector<std::string> opsB;
        for (const auto& o : m_a.plan().operators)
            opsA.push_back(o.qualifiedName());
        for (const auto& o : m_b.plan().operators)
            opsB.push_back(o.qualifiedName());
        if (opsA != opsB) {
            auto text = [](const std::vector<std::string>& v) {
                std::string s;
                for (std::size_t i = 0; i < v.size(); ++i)
                    s += (i ? ", " : "") + std::to_string(i) + ":" + v[i];
                return "[" + s + "]";
            };
            add(DiffCategory::Operator, DiffStatus::Changed, "operators", "table", text(opsA), text(opsB), -1, -1,
                true);
        }
        const auto& ca = m_a.plan().chains;
        const auto& cb = m_b.plan().chains;
        for (std::size_t c = 0; c < ca.size() && c < cb.size(); ++c) {
            const std::string subject = "chain " + std::to_string(c);
            if (ca[c].inputs != cb[c].inputs)
                add(DiffCategory::Method, DiffStatus::Changed, subject, "inputs", listText(ca[c].inputs),
                    listText(cb[c].inputs), -1, -1, true);
            if (ca[c].outputs != cb[c].outputs)
                add(DiffCategory::Method, DiffStatus::Changed, subject, "outputs", listText(ca[c].outputs),
                    listText(cb[c].outputs), -1, -1, true);
            if (ca[c].stacktrace.has_value() != cb[c].stacktrace.has_value())
                add(DiffCategory::Method, DiffStatus::Changed, subject, "stacktrace",
                    ca[c].stacktrace ? "present" : "absent", cb[c].stacktrace ? "present" : "absent", -1, -1, true);
        }
    }

    void finish()
    {
        std::stable_sort(m_diffs.begin(), m_diffs.end(),
            [](const Difference& x, const Difference& y) { return int(x.category) < int(y.category); });
        m_md.nameA = m_a.plan().name;
        m_md.nameB = m_b.plan().name;
        m_md.status = m_diffs.empty() ? DiffStatus::Same : DiffStatus::Changed;
        m_md.instructionsA = m_a.instructionCount();
        m_md.instructionsB = m_b.instructionCount();
        m_md.valuesA = m_a.valueCount();
        m_md.valuesB = m_b.valueCount();
        m_md.rows.resize(m_rows.size());
        for (std::size_t r = 0; r < m_rows.size(); ++r) {
            m_md.rows[r] = InstructionRow { m_rows[r].a, m_rows[r].b, m_status[r] };
            switch (m_status[r]) {
            case DiffStatus::Same:
                ++m_md.same;
                break;
            case DiffStatus::Changed:
                ++m_md.changed;
                break;
            case DiffStatus::Added:
                ++m_md.inserted;
                break;
            case DiffStatus::Removed:
                ++m_md.removed;
                break;
            }
        }
        m_md.valueAtoB = std::move(m_values.aToB);
        m_md.valueBtoA = std::move(m_values.bToA);
        countOperators(m_a, true);
        countOperators(m_b, false);
        for (auto& d : m_diffs)
            m_ctx.out.differences.push_back(std::move(d));
    }

    void countOperators(const MethodView& view, bool sideA)
    {
        const auto& ops = view.plan().operators;
        std::vector<std::size_t> counts(ops.size() + 1, 0);
        for (std::size_t i = 0; i < view.instructionCount(); ++i)
            if (const auto* k = std::get_if<KernelCall>(&view.instruction(i).args))
                ++counts[k->opIndex >= 0 && std::size_t(k->opIndex) < ops.size() ? std::size_t(k->opIndex)
                                                                                 : ops.size()];
        for (std::size_t o = 0; o <= ops.size(); ++o) {
            if (counts[o] == 0)
                continue;
            auto& entry = m_md.operatorCounts[o < ops.size() ? ops[o].qualifiedName() : std::string("?")];
            (sideA ? entry.first : entry.second) += counts[o];
        }
    }

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

/** A method on one side only: every instruction inserted or removed, one difference for the method. */
void oneSidedMethod(const MethodView& view, bool sideA, DiffContext& ctx, MethodDiff& md)
{
    Difference d;
    d.category = DiffCategory::Method;
    d.status = sideA ? DiffStatus::Removed : DiffStatus::Added;
    (sideA ? d.methodA : d.methodB) = view.plan().name;
    d.subject = "method '" + view.plan().name + "'";
    (sideA ? d.a : d.b) =
        std::to_string(view.instructionCount()) + " instructions, " + std::to_string(view.valueCount()) + " values";
    ctx.out.differences.push_back(std::move(d));
    (sideA ? md.nameA : md.nameB) = view.plan().name;
    md.status = sideA ? DiffStatus::Removed : DiffStatus::Added;
    (sideA ? md.instructionsA : md.instructionsB) = view.instructionCount();
    (sideA ? md.valuesA : md.valuesB) = view.valueCount();
    md.rows.reserve(view.instructionCount());
    for (std::size_t i = 0; i < view.instructionCount(); ++i)
        md.rows.push_back(InstructionRow { sideA ? std::int32_t(i) : -1, sideA ? -1 : std::int32_t(i), md.status });
    (sideA ? md.removed : md.inserted) = view.instructionCount();
    (sideA ? md.valueAtoB : md.valueBtoA).assign(view.valueCount(), -1);
    for (std::size_t i = 0; i < view.instructionCount(); ++i)
        if (std::holds_alternative<KernelCall>(view.instruction(i).args)) {
            auto& entry = md.operatorCounts[view.target(i)];
            ++(sideA ? entry.first : entry.second);
        }
}

} // namespace

Result<void> diffMethod(const MethodView* a, const MethodView* b, DiffContext& context, MethodDiff& result)
{
    if (a && b)
        return MethodDiffer(*a, *b, context, result).run();
    if (a || b)
        oneSidedMethod(a ? *a : *b, a != nullptr, context, result);
    return {};
}

} // namespace pte::diff
