// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// diffPrograms(): methods paired by name (then by content), each compared; program-level tables compared.
#include "pte/programdiff.h"

#include "diff/methoddiffer.h"
#include "diff/methodview.h"
#include "pte/ptereader.h"

#include <algorithm>
#include <map>

namespace pte {

const char* diffStatusName(DiffStatus s) noexcept
{
    switch (s) {
    case DiffStatus::Same:
        return "same";
    case DiffStatus::Changed:
        return "changed";
    case DiffStatus::Added:
        return "added";
    case DiffStatus::Removed:
        return "removed";
    }
    return "?";
}

const char* diffCategoryName(DiffCategory c) noexcept
{
    switch (c) {
    case DiffCategory::Program:
        return "program";
    case DiffCategory::Method:
        return "method";
    case DiffCategory::Signature:
        return "signature";
    case DiffCategory::Instruction:
        return "instruction";
    case DiffCategory::Value:
        return "value";
    case DiffCategory::MemoryPlan:
        return "memory_plan";
    case DiffCategory::Constant:
        return "constant";
    case DiffCategory::Operator:
        return "operator";
    case DiffCategory::Delegate:
        return "delegate";
    case DiffCategory::NamedData:
        return "named_data";
    case DiffCategory::DebugInfo:
        return "debug_info";
    }
    return "?";
}

std::vector<std::size_t> ProgramDiff::countByCategory() const
{
    std::vector<std::size_t> counts(std::size_t(DiffCategory::DebugInfo) + 1, 0);
    for (const auto& d : differences)
        ++counts[std::size_t(d.category)];
    return counts;
}

const InstructionChange* MethodDiff::change(std::size_t row) const noexcept
{
    const auto it = std::lower_bound(
        changes.begin(), changes.end(), row, [](const InstructionChange& c, std::size_t r) { return c.row < r; });
    return it != changes.end() && it->row == row ? &*it : nullptr;
}

namespace {

using diff::DiffContext;
using diff::MethodView;

class ProgramDiffer
{
public:
    ProgramDiffer(const DiffSide& a, const DiffSide& b, DiffContext& ctx)
        : m_a(a)
        , m_b(b)
        , m_pa(*a.program)
        , m_pb(*b.program)
        , m_ctx(ctx)
    { }

    Result<void> run()
    {
        PTE_TRY(const auto pairs, pairMethods());
        std::size_t done = 0;
        for (const auto& [x, y] : pairs) {
            if (m_ctx.cancelled())
                return fail(ErrorCode::Cancelled, "the comparison was cancelled");
            std::optional<MethodView> va;
            std::optional<MethodView> vb;
            if (x >= 0)
                va.emplace(m_pa, m_pa.executionPlan[std::size_t(x)], m_a.debugMaps.get());
            if (y >= 0)
                vb.emplace(m_pb, m_pb.executionPlan[std::size_t(y)], m_b.debugMaps.get());
            MethodDiff md;
            PTE_CHECK(diff::diffMethod(va ? &*va : nullptr, vb ? &*vb : nullptr, m_ctx, md));
            m_ctx.out.methods.push_back(std::move(md));
            if (m_ctx.options.progress)
                m_ctx.options.progress(++done, pairs.size());
        }
        if (m_ctx.options.method.empty()) {
            std::vector<Difference> programLevel;
            PTE_CHECK(compareProgram(programLevel));
            auto& all = m_ctx.out.differences;
            all.insert(all.begin(), std::make_move_iterator(programLevel.begin()),
                std::make_move_iterator(programLevel.end()));
        }
        return {};
    }

private:
    /** Method pairs (A index, B index; -1 = absent): by name, then the unpaired by content, then the rest. */
    Result<std::vector<std::pair<std::int64_t, std::int64_t>>> pairMethods() const
    {
        const auto& plansA = m_pa.executionPlan;
        const auto& plansB = m_pb.executionPlan;
        std::vector<std::pair<std::int64_t, std::int64_t>> pairs;
        const std::string& only = m_ctx.options.method;
        if (!only.empty()) {
            const auto find = [&](const Program& p) -> std::int64_t {
                for (std::size_t i = 0; i < p.executionPlan.size(); ++i)
                    if (p.executionPlan[i].name == only)
                        return std::int64_t(i);
                return -1;
            };
            const std::int64_t x = find(m_pa);
            const std::int64_t y = find(m_pb);
            if (x < 0 || y < 0) {
                const DiffSide& missing = x < 0 ? m_a : m_b;
                std::string names;
                for (const auto& plan : missing.program->executionPlan)
                    names += (names.empty() ? "" : ", ") + plan.name;
                return fail(ErrorCode::InvalidInput,
                    missing.label + " has no method '" + only + "' (its methods: " + names + ")");
            }
            pairs.emplace_back(x, y);
            return pairs;
        }
        std::vector<std::int64_t> bOfA(plansA.size(), -1);
        std::vector<bool> bTaken(plansB.size(), false);
        for (std::size_t x = 0; x < plansA.size(); ++x)
            for (std::size_t y = 0; y < plansB.size(); ++y)
                if (!bTaken[y] && plansA[x].name == plansB[y].name) {
                    bOfA[x] = std::int64_t(y);
                    bTaken[y] = true;
                    break;
                }
        // Renamed: an unpaired A method whose content equals an unpaired B method's.
        std::map<std::uint64_t, std::vector<std::size_t>> unpairedB;
        for (std::size_t y = 0; y < plansB.size(); ++y)
            if (!bTaken[y])
                unpairedB[diff::methodFingerprint(MethodView(m_pb, plansB[y], nullptr))].push_back(y);
        for (std::size_t x = 0; x < plansA.size() && !unpairedB.empty(); ++x) {
            if (bOfA[x] >= 0)
                continue;
            const auto it = unpairedB.find(diff::methodFingerprint(MethodView(m_pa, plansA[x], nullptr)));
            if (it == unpairedB.end() || it->second.empty())
                continue;
            bOfA[x] = std::int64_t(it->second.front());
            bTaken[it->second.front()] = true;
            it->second.erase(it->second.begin());
        }
        for (std::size_t x = 0; x < plansA.size(); ++x)
            pairs.emplace_back(std::int64_t(x), bOfA[x]);
        for (std::size_t y = 0; y < plansB.size(); ++y)
            if (!bTaken[y])
                pairs.emplace_back(-1, std::int64_t(y));
        return pairs;
    }

    void add(std::vector<Difference>& out, DiffCategory category, DiffStatus status, std::string subject,
        std::string field, std::string a, std::string b, bool strictOnly, std::int64_t ia = -1, std::int64_t ib = -1)
    {
        out.push_back(diff::makeDifference(category, status, {}, {}, std::move(subject), std::move(field), std::move(a),
            std::move(b), ia, ib, strictOnly));
    }

    static Bytes segmentBytes(const Program& p, std::uint32_t index)
    {
        if (index >= p.segments.size())
            return {};
        const DataSegment& s = p.segments[index];
        return s.range(0, s.contentSize());
    }

    static std::string constantStorage(const Program& p)
    {
        if (p.constantSegment && p.constantSegment->offsets.size() > 1)
            return "constant_segment";
        if (p.constantBuffer.size() > 1)
            return "constant_buffer (legacy)";
        return "none";
    }

    Result<void> compareProgram(std::vector<Difference>& out)
    {
        // Named data: by key (both modes); the segment it lives in only in strict mode.
        std::map<std::string, std::uint32_t> keysA;
        std::map<std::string, std::uint32_t> keysB;
        if (m_pa.namedData)
            for (const auto& n : *m_pa.namedData)
                keysA.emplace(n.key, n.segmentIndex);
        if (m_pb.namedData)
            for (const auto& n : *m_pb.namedData)
                keysB.emplace(n.key, n.segmentIndex);
        for (const auto& [key, segA] : keysA) {
            const Bytes da = segmentBytes(m_pa, segA);
            const auto it = keysB.find(key);
            if (it == keysB.end()) {
                add(out, DiffCategory::NamedData, DiffStatus::Removed, "named data '" + key + "'", "",
                    std::to_string(da.size()) + " bytes", "", false);
                continue;
            }
            const Bytes db = segmentBytes(m_pb, it->second);
            PTE_TRY(const bool same, m_ctx.sameBytes(da, db));
            if (!same)
                add(out, DiffCategory::NamedData, DiffStatus::Changed, "named data '" + key + "'", "data",
                    std::to_string(da.size()) + " bytes", std::to_string(db.size()) + " bytes", false);
            if (m_ctx.options.strict && segA != it->second)
                add(out, DiffCategory::NamedData, DiffStatus::Changed, "named data '" + key + "'", "segment_index",
                    std::to_string(segA), std::to_string(it->second), true);
        }
        for (const auto& [key, segB] : keysB)
            if (!keysA.count(key))
                add(out, DiffCategory::NamedData, DiffStatus::Added, "named data '" + key + "'", "", "",
                    std::to_string(segmentBytes(m_pb, segB).size()) + " bytes", false);
        if (!m_ctx.options.strict)
            return {};

        if (m_a.file && m_b.file) {
            const auto& ha = m_a.file->header;
            const auto& hb = m_b.file->header;
            const auto base = [](const std::optional<ExtendedHeader>& h) { return h ? h->segmentBaseOffset : 0; };
            const auto length = [](const std::optional<ExtendedHeader>& h) { return h ? h->length : 0; };
            if (ha.has_value() != hb.has_value() || length(ha) != length(hb))
                add(out, DiffCategory::Program, DiffStatus::Changed, "extended header", "length",
                    ha ? std::to_string(length(ha)) : "absent", hb ? std::to_string(length(hb)) : "absent", true);
            if (base(ha) != base(hb))
                add(out, DiffCategory::Program, DiffStatus::Changed, "extended header", "segment_base_offset",
                    std::to_string(base(ha)), std::to_string(base(hb)), true);
        }
        if (m_pa.version != m_pb.version)
            add(out, DiffCategory::Program, DiffStatus::Changed, "program", "version", std::to_string(m_pa.version),
                std::to_string(m_pb.version), true);
        const std::string sa = constantStorage(m_pa);
        const std::string sb = constantStorage(m_pb);
        if (sa != sb)
            add(out, DiffCategory::Program, DiffStatus::Changed, "constants", "storage", sa, sb, true);
        auto segmentsText = [](const Program& p) {
            std::string s;
            for (std::size_t i = 0; i < p.segments.size() && i < 32; ++i)
                s += (i ? ", " : "") + std::to_string(p.segments[i].offset) + "+" + std::to_string(p.segments[i].size);
            if (p.segments.size() > 32)
                s += ", ... (" + std::to_string(p.segments.size()) + " segments)";
            return "[" + s + "]";
        };
        bool segmentsDiffer = m_pa.segments.size() != m_pb.segments.size();
        for (std::size_t i = 0; !segmentsDiffer && i < m_pa.segments.size(); ++i)
            segmentsDiffer =
                m_pa.segments[i].offset != m_pb.segments[i].offset || m_pa.segments[i].size != m_pb.segments[i].size;
        if (segmentsDiffer)
            add(out, DiffCategory::Program, DiffStatus::Changed, "segments", "offset+size", segmentsText(m_pa),
                segmentsText(m_pb), true);
        const auto offsetsA = m_pa.constantSegment ? m_pa.constantSegment->offsets : std::vector<std::uint64_t> {};
        const auto offsetsB = m_pb.constantSegment ? m_pb.constantSegment->offsets : std::vector<std::uint64_t> {};
        if (offsetsA != offsetsB)
            add(out, DiffCategory::Program, DiffStatus::Changed, "constant_segment", "offsets",
                diff::listText(offsetsA), diff::listText(offsetsB), true);
        auto mutableText = [](const Program& p) {
            if (!p.mutableDataSegments)
                return std::string("absent");
            std::string s;
            for (const auto& m : *p.mutableDataSegments)
                s += (s.empty() ? "" : ", ") + std::to_string(m.segmentIndex) + ":" + diff::listText(m.offsets);
            return "[" + s + "]";
        };
        if (mutableText(m_pa) != mutableText(m_pb))
            add(out, DiffCategory::Program, DiffStatus::Changed, "mutable_data_segments", "", mutableText(m_pa),
                mutableText(m_pb), true);
        if (m_pa.backendDelegateData.size() != m_pb.backendDelegateData.size())
            add(out, DiffCategory::Program, DiffStatus::Changed, "backend_delegate_data", "count",
                std::to_string(m_pa.backendDelegateData.size()), std::to_string(m_pb.backendDelegateData.size()), true);
        return {};
    }

    const DiffSide& m_a;
    const DiffSide& m_b;
    const Program& m_pa;
    const Program& m_pb;
    DiffContext& m_ctx;
};

} // namespace

Result<ProgramDiff> diffPrograms(const DiffSide& a, const DiffSide& b, const DiffOptions& options)
{
    if (!a.program || !b.program)
        return fail(ErrorCode::InvalidInput, "a comparison needs a program on both sides");
    ProgramDiff out;
    out.labelA = a.label;
    out.labelB = b.label;
    out.strict = options.strict;
    DiffContext ctx(options, out);
    PTE_CHECK(ProgramDiffer(a, b, ctx).run());
    return out;
}

} // namespace pte
