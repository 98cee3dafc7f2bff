// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// The checks of docs/runtime-rules.md over a decoded Program. Severity::Error = the ExecuTorch runtime
// refuses the program (at load, method init or execute); Warning = a deviation from what EXIR writes.
#include "base/fieldpath.h"
#include "ptefile/ptereader_p.h"

#include <algorithm>
#include <optional>
#include <set>
#include <string_view>

namespace pte::ptefile {

namespace {

constexpr std::size_t kMaxRank = 16;
constexpr std::uint64_t kConstantAlignment = 16;
constexpr std::size_t kMaxOperatorNameLength = 100; // "name.overload" must be shorter

std::string listText(const auto& v)
{
    std::string s = "[";
    for (std::size_t i = 0; i < v.size(); ++i)
        s += (i ? ", " : "") + std::to_string(v[i]);
    return s + "]";
}

std::string layoutText(ScalarType t, const std::vector<std::int32_t>& sizes, const std::vector<std::uint8_t>& dimOrder)
{
    return std::string(scalarTypeShortName(t)) + "(" + std::to_string(int(t)) + ") sizes " + listText(sizes)
        + " dim_order " + listText(dimOrder);
}

/**
 * A diagnostic's field path and the file offset of the innermost decoded table on it, known where the path is made:
 * a field or item inside a table keeps the table's offset.
 */
struct At
{
    std::string path;
    std::optional<std::uint64_t> offset;

    [[nodiscard]] At operator+(std::string_view field) const { return At { path + std::string(field), offset }; }
};

using base::indexPath;

/** "list[i]" inside the same table as `list`. */
[[nodiscard]] At indexPath(const At& list, std::size_t i) { return At { indexPath(list.path, i), list.offset }; }

/** Sets a field for the lifetime of the scope, then restores it. */
template <typename T> class Scoped
{
public:
    Scoped(T& field, T value)
        : m_field(field)
        , m_old(std::move(field))
    {
        m_field = std::move(value);
    }
    ~Scoped() { m_field = std::move(m_old); }
    Scoped(const Scoped&) = delete;
    Scoped& operator=(const Scoped&) = delete;

private:
    T& m_field;
    T m_old;
};

class Checker
{
public:
    Checker(const Program& program, const std::optional<ExternalData>& external, const FileFacts* facts)
        : m_p(program)
        , m_ext(external)
        , m_facts(facts)
    { }

    Diagnostics run()
    {
        checkProgramLevel();
        std::set<std::string> names;
        for (std::size_t p = 0; p < m_p.executionPlan.size(); ++p) {
            const auto& plan = m_p.executionPlan[p];
            const Scoped method(m_at.method, plan.name);
            const Scoped offsets(m_po, m_facts && p < m_facts->plans.size() ? &m_facts->plans[p] : nullptr);
            const At path { indexPath("execution_plan", p), m_po ? std::optional(m_po->plan) : std::nullopt };
            if (!names.insert(plan.name).second)
                warn(ErrorCode::InvalidProgram,
                    "method name '" + plan.name
                        + "' is used by more than one execution plan; the runtime finds only the first",
                    path + ".name");
            checkPlan(plan, path);
        }
        return std::move(m_diags);
    }

private:
    void add(Severity s, ErrorCode c, std::string msg, At at)
    {
        m_diags.push_back(Diagnostic {
            s, c, std::move(msg), at.offset, std::move(at.path), m_facts ? m_facts->name : std::string(), m_at });
    }
    void error(ErrorCode c, std::string msg, At at) { add(Severity::Error, c, std::move(msg), std::move(at)); }
    void warn(ErrorCode c, std::string msg, At at) { add(Severity::Warning, c, std::move(msg), std::move(at)); }

    /** A program-level table ("constant_segment", "segments[2]"), with its offset when the reader recorded one. */
    [[nodiscard]] At programTable(std::string path) const
    {
        std::optional<std::uint64_t> offset;
        if (m_facts)
            if (const auto it = m_facts->offsets.find(path); it != m_facts->offsets.end())
                offset = it->second;
        return At { std::move(path), offset };
    }

    /** Item `i` of one of the method's tables (`list` after the method's path); the method's offset if unknown. */
    [[nodiscard]] At planItem(const At& plan, const char* list, std::size_t i,
        std::vector<std::uint64_t> FileFacts::PlanOffsets::*offsets) const
    {
        std::optional<std::uint64_t> offset;
        if (m_po)
            offset = i < (m_po->*offsets).size() ? (m_po->*offsets)[i] : m_po->plan;
        return At { indexPath(plan.path + list, i), offset };
    }

    /** Instruction `k` of chain `c`; the chain's offset if unknown. */
    [[nodiscard]] At instructionAt(const At& chain, std::size_t c, std::size_t k) const
    {
        std::optional<std::uint64_t> offset = chain.offset;
        if (m_po && c < m_po->instructions.size() && k < m_po->instructions[c].size())
            offset = m_po->instructions[c][k];
        return At { indexPath(chain.path + ".instructions", k), offset };
    }

    bool segmentUsable(std::uint32_t index, const std::string& what, const At& path)
    {
        if (index >= m_p.segments.size()) {
            error(ErrorCode::OutOfRange,
                what + " refers to segment " + std::to_string(index) + " but the program has "
                    + std::to_string(m_p.segments.size()) + " segment(s)",
                path);
            return false;
        }
        return true;
    }

    bool needsHeader(const std::string& what, const At& path)
    {
        if (m_facts && !m_facts->hasHeader) {
            error(ErrorCode::BadExtendedHeader,
                what + " lives in a segment, but the file has no eh00 extended header with a segment_base_offset",
                path);
            return false;
        }
        return true;
    }

    void checkProgramLevel()
    {
        if (m_p.executionPlan.empty())
            warn(ErrorCode::InvalidProgram, "the program has no methods", programTable("execution_plan"));
        const auto& cs = m_p.constantSegment;
        if (cs && cs->offsets.size() > 1) {
            if (!m_p.constantBuffer.empty())
                error(ErrorCode::InvalidProgram,
                    "both constant_segment (" + std::to_string(cs->offsets.size())
                        + " offsets) and the legacy constant_buffer are used; the runtime refuses this",
                    programTable("constant_buffer"));
            if (segmentUsable(
                    cs->segmentIndex, "constant_segment", programTable("constant_segment") + ".segment_index"))
                needsHeader("the constant segment", programTable("constant_segment"));
            for (std::size_t i = 1; i + 1 < cs->offsets.size(); ++i)
                if (cs->offsets[i] % kConstantAlignment != 0) {
                    warn(ErrorCode::Misaligned,
                        "constant offset " + std::to_string(cs->offsets[i])
                            + " is not a multiple of 16 (EXIR aligns every constant tensor)",
                        indexPath(programTable("constant_segment") + ".offsets", i));
                    break;
                }
            if (cs->offsets[0] != 0)
                warn(ErrorCode::InvalidProgram,
                    "constant_segment.offsets[0] is " + std::to_string(cs->offsets[0])
                        + "; EXIR writes the reserved placeholder 0",
                    programTable("constant_segment") + ".offsets[0]");
        } else if (!m_p.constantBuffer.empty() && m_p.constantBuffer.size() > 1) {
            warn(ErrorCode::Unsupported,
                "constants are stored in the deprecated constant_buffer (the runtime logs !!DEPRECATED!! and refuses "
                "it "
                "when built with ET_ENABLE_DEPRECATED_CONSTANT_BUFFER=0)",
                programTable("constant_buffer"));
        }
        if (m_p.mutableDataSegments) {
            if (m_p.mutableDataSegments->size() > 1)
                warn(ErrorCode::InvalidProgram,
                    "mutable_data_segments has " + std::to_string(m_p.mutableDataSegments->size())
                        + " entries; the runtime only ever reads entry 0",
                    programTable("mutable_data_segments"));
            for (std::size_t i = 0; i < m_p.mutableDataSegments->size(); ++i)
                segmentUsable((*m_p.mutableDataSegments)[i].segmentIndex, "mutable_data_segments entry",
                    programTable(indexPath("mutable_data_segments", i)) + ".segment_index");
        }
        if (m_p.namedData) {
            std::set<std::string> keys;
            for (std::size_t i = 0; i < m_p.namedData->size(); ++i) {
                const auto& nd = (*m_p.namedData)[i];
                const At path = programTable(indexPath("named_data", i));
                if (!keys.insert(nd.key).second)
                    warn(ErrorCode::InvalidProgram, "named data key '" + nd.key + "' appears more than once",
                        path + ".key");
                if (segmentUsable(nd.segmentIndex, "named data '" + nd.key + "'", path + ".segment_index")
                    && m_p.segments[nd.segmentIndex].size > 0)
                    needsHeader("named data '" + nd.key + "'", path);
            }
        }
    }

    template <typename P> void checkIndex(std::int64_t idx, std::size_t n, const char* what, const P& path)
    {
        if (idx < 0 || std::uint64_t(idx) >= n)
            error(ErrorCode::OutOfRange,
                std::string(what) + " " + std::to_string(idx) + " is out of range (the method has " + std::to_string(n)
                    + " values)",
                path());
    }

    void checkPlan(const ExecutionPlan& plan, const At& path)
    {
        const std::size_t nValues = plan.values.size();
        const auto& sizes = plan.nonConstBufferSizes;
        if (sizes.empty()) {
            error(ErrorCode::InvalidProgram, "non_const_buffer_sizes is empty; entry 0 is reserved and must exist",
                path + ".non_const_buffer_sizes");
        } else {
            if (sizes[0] != 0)
                warn(ErrorCode::InvalidProgram,
                    "non_const_buffer_sizes[0] is " + std::to_string(sizes[0]) + "; EXIR writes the reserved 0",
                    path + ".non_const_buffer_sizes[0]");
            for (std::size_t i = 1; i < sizes.size(); ++i)
                if (sizes[i] < 0)
                    error(ErrorCode::InvalidProgram,
                        "planned arena " + std::to_string(i) + " has negative size " + std::to_string(sizes[i]),
                        indexPath(path + ".non_const_buffer_sizes", i));
        }
        for (std::size_t i = 0; i < plan.inputs.size(); ++i) {
            const Scoped value(m_at.value, std::int64_t(plan.inputs[i]));
            checkIndex(plan.inputs[i], nValues, "input value index", [&] { return indexPath(path + ".inputs", i); });
        }
        for (std::size_t i = 0; i < plan.outputs.size(); ++i) {
            const Scoped value(m_at.value, std::int64_t(plan.outputs[i]));
            checkIndex(plan.outputs[i], nValues, "output value index", [&] { return indexPath(path + ".outputs", i); });
        }

        for (std::size_t i = 0; i < nValues; ++i) {
            const Scoped value(m_at.value, std::int64_t(i));
            checkValue(plan, i, [&] { return planItem(path, ".values", i, &FileFacts::PlanOffsets::values); });
        }

        for (std::size_t i = 0; i < plan.operators.size(); ++i) {
            const auto qn = plan.operators[i].qualifiedName();
            if (qn.size() >= kMaxOperatorNameLength)
                error(ErrorCode::InvalidProgram,
                    "operator '" + qn + "' is " + std::to_string(qn.size())
                        + " characters; the runtime's kernel lookup key must be shorter than 100",
                    planItem(path, ".operators", i, &FileFacts::PlanOffsets::operators));
        }
        for (std::size_t i = 0; i < plan.delegates.size(); ++i)
            checkDelegate(plan.delegates[i], planItem(path, ".delegates", i, &FileFacts::PlanOffsets::delegates));

        if (plan.chains.empty())
            error(ErrorCode::InvalidProgram, "the method has no chains (the runtime needs at least one)",
                path + ".chains");
        for (std::size_t c = 0; c < plan.chains.size(); ++c) {
            const Scoped chain(m_at.chain, std::int64_t(c));
            checkChain(plan, plan.chains[c], c, planItem(path, ".chains", c, &FileFacts::PlanOffsets::chains));
        }

        if (plan.nonConstBufferDevice) {
            const std::int64_t arenas = sizes.empty() ? 0 : std::int64_t(sizes.size()) - 1;
            for (std::size_t i = 0; i < plan.nonConstBufferDevice->size(); ++i) {
                const auto b = (*plan.nonConstBufferDevice)[i].bufferIdx;
                if (b < 1 || b > arenas)
                    warn(ErrorCode::OutOfRange,
                        "buffer_idx " + std::to_string(b) + " does not name a planned arena (1.."
                            + std::to_string(arenas) + ")",
                        indexPath(path + ".non_const_buffer_device", i) + ".buffer_idx");
            }
        }
    }

    void checkDelegate(const BackendDelegate& d, const At& path)
    {
        if (d.id.empty())
            warn(ErrorCode::InvalidProgram, "a delegate has an empty backend id", path + ".id");
        const auto idx = d.processed.index;
        if (d.processed.location == DataLocation::Inline) {
            if (idx >= m_p.backendDelegateData.size())
                error(ErrorCode::OutOfRange,
                    "delegate '" + d.id + "' refers to inline blob " + std::to_string(idx)
                        + " but backend_delegate_data has " + std::to_string(m_p.backendDelegateData.size())
                        + " entries",
                    path + ".processed.index");
        } else if (d.processed.location == DataLocation::Segment) {
            if (segmentUsable(idx, "delegate '" + d.id + "'", path + ".processed.index"))
                needsHeader("the blob of delegate '" + d.id + "'", path + ".processed");
        } else {
            error(ErrorCode::InvalidProgram,
                "delegate '" + d.id + "' has unknown data location " + std::to_string(int(d.processed.location)),
                path + ".processed.location");
        }
    }

    void checkChain(const ExecutionPlan& plan, const Chain& chain, std::size_t c, const At& path)
    {
        const std::size_t n = plan.values.size();
        const std::size_t nInstr = chain.instructions.size();
        if (chain.stacktrace && chain.stacktrace->size() != nInstr)
            warn(ErrorCode::InvalidProgram,
                "stacktrace has " + std::to_string(chain.stacktrace->size()) + " entries for " + std::to_string(nInstr)
                    + " instructions",
                path + ".stacktrace");
        for (std::size_t k = 0; k < nInstr; ++k) {
            const Scoped instruction(m_at.instruction, std::int64_t(k));
            const auto& in = chain.instructions[k];
            auto ip = [&] { return instructionAt(path, c, k); };
            auto ap = [&] { return ip() + ".instr_args"; };
            auto args = [&](const std::vector<std::int32_t>& a) {
                for (std::size_t j = 0; j < a.size(); ++j)
                    checkIndex(a[j], n, "argument value index", [&] { return indexPath(ap() + ".args", j); });
            };
            switch (in.kind()) {
            case InstructionKind::None:
                if (in.rawType == 0)
                    error(ErrorCode::InvalidProgram, "instruction has union type NONE", ip() + ".instr_args_type");
                else if (in.rawType <= 5)
                    error(ErrorCode::InvalidProgram,
                        std::string("instruction of type ") + instructionKindName(InstructionKind(in.rawType))
                            + " has no arguments table",
                        ap());
                else
                    error(ErrorCode::InvalidProgram,
                        "instruction has unknown union type code " + std::to_string(in.rawType),
                        ip() + ".instr_args_type");
                break;
            case InstructionKind::KernelCall: {
                const auto& kc = std::get<KernelCall>(in.args);
                if (kc.opIndex < 0 || std::size_t(kc.opIndex) >= plan.operators.size())
                    error(ErrorCode::OutOfRange,
                        "op_index " + std::to_string(kc.opIndex) + " is out of range (the method has "
                            + std::to_string(plan.operators.size()) + " operators)",
                        ap() + ".op_index");
                args(kc.args);
                break;
            }
            case InstructionKind::DelegateCall: {
                const auto& dc = std::get<DelegateCall>(in.args);
                if (dc.delegateIndex < 0 || std::size_t(dc.delegateIndex) >= plan.delegates.size())
                    error(ErrorCode::OutOfRange,
                        "delegate_index " + std::to_string(dc.delegateIndex) + " is out of range (the method has "
                            + std::to_string(plan.delegates.size()) + " delegates)",
                        ap() + ".delegate_index");
                args(dc.args);
                break;
            }
            case InstructionKind::MoveCall: {
                const auto& mc = std::get<MoveCall>(in.args);
                checkIndex(mc.moveFrom, n, "move_from value index", [&] { return ap() + ".move_from"; });
                checkIndex(mc.moveTo, n, "move_to value index", [&] { return ap() + ".move_to"; });
                break;
            }
            case InstructionKind::JumpFalseCall: {
                const auto& jf = std::get<JumpFalseCall>(in.args);
                checkIndex(jf.condValueIndex, n, "cond_value_index", [&] { return ap() + ".cond_value_index"; });
                if (jf.condValueIndex >= 0 && std::size_t(jf.condValueIndex) < n) {
                    const auto kind = plan.values[std::size_t(jf.condValueIndex)].kind();
                    if (kind != ValueKind::Bool && kind != ValueKind::Tensor)
                        error(ErrorCode::InvalidProgram,
                            std::string("the JumpFalseCall condition is a ") + valueKindName(kind)
                                + " value; the runtime needs a Bool or a bool Tensor",
                            ap() + ".cond_value_index");
                }
                if (jf.destinationInstruction < 0 || std::size_t(jf.destinationInstruction) > nInstr)
                    error(ErrorCode::OutOfRange,
                        "destination_instruction " + std::to_string(jf.destinationInstruction)
                            + " is outside the chain (" + std::to_string(nInstr) + " instructions)",
                        ap() + ".destination_instruction");
                break;
            }
            case InstructionKind::FreeCall: {
                const auto& fc = std::get<FreeCall>(in.args);
                checkIndex(fc.valueIndex, n, "value_index", [&] { return ap() + ".value_index"; });
                if (fc.valueIndex >= 0 && std::size_t(fc.valueIndex) < n
                    && plan.values[std::size_t(fc.valueIndex)].kind() != ValueKind::Tensor)
                    error(ErrorCode::InvalidProgram, "FreeCall target is not a Tensor value", ap() + ".value_index");
                break;
            }
            }
        }
    }

    template <typename P> void checkValue(const ExecutionPlan& plan, std::size_t i, const P& path)
    {
        const auto& v = plan.values[i];
        const std::size_t n = plan.values.size();
        auto vp = [&] { return path() + ".val"; };
        switch (v.kind()) {
        case ValueKind::None:
            if (v.rawType == 0)
                error(ErrorCode::InvalidProgram, "value has union type NONE", path() + ".val_type");
            else if (v.rawType <= 11)
                error(ErrorCode::InvalidProgram,
                    std::string("value of type ") + valueKindName(ValueKind(v.rawType)) + " has no table", vp());
            else
                error(ErrorCode::InvalidProgram, "value has unknown union type code " + std::to_string(v.rawType),
                    path() + ".val_type");
            break;
        case ValueKind::Tensor:
            checkTensor(plan, i, *v.tensor(), vp);
            break;
        case ValueKind::IntList: {
            const auto& items = std::get<IntList>(v.val).items;
            for (std::size_t k = 0; k < items.size(); ++k) {
                if (items[k] < 0 || std::uint64_t(items[k]) >= n)
                    error(ErrorCode::OutOfRange,
                        "IntList item " + std::to_string(items[k]) + " is not a value index (the method has "
                            + std::to_string(n) + " values)",
                        indexPath(vp() + ".items", k));
                else if (plan.values[std::size_t(items[k])].kind() != ValueKind::Int)
                    warn(ErrorCode::InvalidProgram,
                        std::string("IntList item points at a ")
                            + valueKindName(plan.values[std::size_t(items[k])].kind()) + " value instead of an Int",
                        indexPath(vp() + ".items", k));
            }
            break;
        }
        case ValueKind::TensorList: {
            const auto& items = std::get<TensorList>(v.val).items;
            for (std::size_t k = 0; k < items.size(); ++k) {
                const auto it = items[k];
                if (it < 0 || std::size_t(it) >= n)
                    error(ErrorCode::OutOfRange,
                        "TensorList item " + std::to_string(it) + " is out of range (the method has "
                            + std::to_string(n) + " values)",
                        indexPath(vp() + ".items", k));
                else if (std::size_t(it) >= i)
                    error(ErrorCode::InvalidProgram,
                        "TensorList item " + std::to_string(it) + " is not an earlier value (this list is value "
                            + std::to_string(i) + "); the runtime parses values in order",
                        indexPath(vp() + ".items", k));
                else if (plan.values[std::size_t(it)].kind() != ValueKind::Tensor)
                    error(ErrorCode::InvalidProgram, "TensorList item " + std::to_string(it) + " is not a Tensor value",
                        indexPath(vp() + ".items", k));
            }
            break;
        }
        case ValueKind::OptionalTensorList: {
            const auto& items = std::get<OptionalTensorList>(v.val).items;
            for (std::size_t k = 0; k < items.size(); ++k) {
                const auto it = items[k];
                if (it == -1)
                    continue;
                if (it < 0 || std::size_t(it) >= n)
                    error(ErrorCode::OutOfRange,
                        "OptionalTensorList item " + std::to_string(it) + " is out of range (the method has "
                            + std::to_string(n) + " values)",
                        indexPath(vp() + ".items", k));
                else if (std::size_t(it) >= i)
                    error(ErrorCode::InvalidProgram,
                        "OptionalTensorList item " + std::to_string(it)
                            + " is not an earlier value (this list is value " + std::to_string(i) + ")",
                        indexPath(vp() + ".items", k));
                else {
                    const auto kind = plan.values[std::size_t(it)].kind();
                    if (kind != ValueKind::Tensor && kind != ValueKind::Null)
                        error(ErrorCode::InvalidProgram,
                            "OptionalTensorList item " + std::to_string(it) + " is neither a Tensor nor None",
                            indexPath(vp() + ".items", k));
                }
            }
            break;
        }
        default:
            break;
        }
    }

    template <typename P> void checkTensor(const ExecutionPlan& plan, std::size_t index, const Tensor& t, const P& vp)
    {
        const auto code = static_cast<std::int8_t>(t.scalarType);
        if (t.storageOffset != 0)
            error(ErrorCode::Unsupported,
                "storage_offset is " + std::to_string(t.storageOffset) + "; the runtime only supports 0",
                vp() + ".storage_offset");
        if (!isValidScalarType(code))
            error(ErrorCode::InvalidProgram, "invalid scalar type " + std::to_string(code), vp() + ".scalar_type");
        if (t.shapeDynamism == ShapeDynamism::DynamicUnbound)
            error(ErrorCode::Unsupported, "DYNAMIC_UNBOUND tensors are rejected by the portable runtime",
                vp() + ".shape_dynamism");
        else if (t.shapeDynamism != ShapeDynamism::Static && t.shapeDynamism != ShapeDynamism::DynamicBound)
            warn(ErrorCode::InvalidProgram, "unknown shape_dynamism " + std::to_string(int(t.shapeDynamism)),
                vp() + ".shape_dynamism");
        const std::size_t rank = t.sizes.size();
        if (rank > kMaxRank)
            error(ErrorCode::Unsupported,
                "rank " + std::to_string(rank) + " exceeds the runtime limit of " + std::to_string(kMaxRank),
                vp() + ".sizes");
        bool sizesOk = true;
        for (std::size_t k = 0; k < rank; ++k) {
            if (t.sizes[k] < 0) {
                error(ErrorCode::InvalidProgram, "size " + std::to_string(t.sizes[k]) + " is negative",
                    indexPath(vp() + ".sizes", k));
                sizesOk = false;
            }
        }
        if (t.dimOrder.size() != rank) {
            error(ErrorCode::InvalidProgram,
                "dim_order has " + std::to_string(t.dimOrder.size()) + " entries but the tensor has rank "
                    + std::to_string(rank),
                vp() + ".dim_order");
        } else {
            std::vector<bool> seen(rank, false);
            bool perm = true;
            for (const auto d : t.dimOrder) {
                if (d >= rank || seen[d])
                    perm = false;
                else
                    seen[d] = true;
            }
            if (!perm)
                error(ErrorCode::InvalidProgram,
                    "dim_order " + listText(t.dimOrder) + " is not a permutation of 0.." + std::to_string(rank) + "-1",
                    vp() + ".dim_order");
        }
        const auto nbytes = t.nbytes();
        const bool isInput =
            std::find(plan.inputs.begin(), plan.inputs.end(), std::int32_t(index)) != plan.inputs.end();
        if (!nbytes && sizesOk && isValidScalarType(code) && (t.shapeDynamism == ShapeDynamism::Static || !isInput))
            error(
                ErrorCode::InvalidProgram, "the tensor's byte size (numel * element size) overflows", vp() + ".sizes");

        const auto& x = t.extraTensorInfo;
        const bool external = x && x->location == TensorDataLocation::External;
        if (x) {
            if (x->location != TensorDataLocation::Segment && x->location != TensorDataLocation::External)
                error(ErrorCode::InvalidProgram, "unknown data location " + std::to_string(int(x->location)),
                    vp() + ".extra_tensor_info.location");
            if (x->mutableDataSegmentsIdx != 0)
                warn(ErrorCode::InvalidProgram,
                    "mutable_data_segments_idx is " + std::to_string(x->mutableDataSegmentsIdx)
                        + " but the runtime always reads mutable_data_segments[0]",
                    vp() + ".extra_tensor_info.mutable_data_segments_idx");
        }
        if (external) {
            checkExternal(t, vp);
        } else if (t.dataBufferIdx > 0 && !t.allocationInfo) {
            checkConstant(t, nbytes, vp);
        }
        if (t.allocationInfo) {
            const auto& a = *t.allocationInfo;
            auto ap = [&] { return vp() + ".allocation_info"; };
            const std::size_t arenas = plan.nonConstBufferSizes.empty() ? 0 : plan.nonConstBufferSizes.size() - 1;
            if (a.memoryId == 0) {
                error(ErrorCode::InvalidProgram, "memory_id 0 is reserved; planned arenas are numbered from 1",
                    ap() + ".memory_id");
            } else if (a.memoryId - 1 >= arenas) {
                error(ErrorCode::OutOfRange,
                    "memory_id " + std::to_string(a.memoryId) + " but the method has " + std::to_string(arenas)
                        + " planned arena(s)",
                    ap() + ".memory_id");
            } else if (nbytes) {
                const auto arenaSize = plan.nonConstBufferSizes[a.memoryId];
                const std::uint64_t off = a.offset();
                if (arenaSize < 0 || off > std::uint64_t(arenaSize) || *nbytes > std::uint64_t(arenaSize) - off)
                    error(ErrorCode::OutOfRange,
                        "the tensor's bytes [" + std::to_string(off) + ", " + std::to_string(off) + " + "
                            + std::to_string(*nbytes) + ") do not fit in arena " + std::to_string(a.memoryId) + " ("
                            + std::to_string(arenaSize) + " bytes)",
                        ap());
            }
            if (a.memoryOffsetHigh != 0)
                warn(ErrorCode::Unsupported, "memory_offset_high is not 0; 32-bit runtimes refuse this tensor",
                    ap() + ".memory_offset_high");
            if (t.dataBufferIdx > 0 && !external)
                checkMutable(t, nbytes, vp);
        }
    }

    template <typename P> void checkExternal(const Tensor& t, const P& vp)
    {
        const auto& fqn = t.extraTensorInfo->fullyQualifiedName;
        if (!fqn || fqn->empty()) {
            error(ErrorCode::InvalidProgram, "an EXTERNAL tensor has no fully_qualified_name",
                vp() + ".extra_tensor_info.fully_qualified_name");
            return;
        }
        if (!m_ext)
            return; // the reader reports once that no .ptd was found
        const auto it = m_ext->tensors.find(*fqn);
        if (it == m_ext->tensors.end()) {
            error(ErrorCode::OutOfRange, "EXTERNAL tensor '" + *fqn + "' is not in " + m_ext->path,
                vp() + ".extra_tensor_info.fully_qualified_name");
            return;
        }
        if (auto loads = checkExternalTensor(t, *fqn, it->second, m_ext->path); !loads)
            error(loads.error().code, loads.error().message, vp());
    }

    template <typename P> void checkConstant(const Tensor& t, const std::optional<std::uint64_t>& nbytes, const P& vp)
    {
        const auto idx = t.dataBufferIdx;
        auto ip = [&] { return vp() + ".data_buffer_idx"; };
        const auto& cs = m_p.constantSegment;
        if (cs && cs->offsets.size() > 1) {
            if (idx >= cs->offsets.size()) {
                error(ErrorCode::OutOfRange,
                    "data_buffer_idx " + std::to_string(idx) + " is out of range of constant_segment.offsets ("
                        + std::to_string(cs->offsets.size()) + " entries)",
                    ip());
                return;
            }
            if (cs->segmentIndex >= m_p.segments.size() || !nbytes)
                return; // reported at program level
            const std::uint64_t segSize = m_p.segments[cs->segmentIndex].size;
            const std::uint64_t off = cs->offsets[idx];
            if (off > segSize || *nbytes > segSize - off)
                error(ErrorCode::OutOfRange,
                    "constant data at offset " + std::to_string(off) + " (" + std::to_string(*nbytes)
                        + " bytes) runs past the end of the constant segment (" + std::to_string(segSize) + " bytes)",
                    ip());
        } else if (!m_p.constantBuffer.empty()) {
            if (idx >= m_p.constantBuffer.size())
                error(ErrorCode::OutOfRange,
                    "data_buffer_idx " + std::to_string(idx) + " is out of range of constant_buffer ("
                        + std::to_string(m_p.constantBuffer.size()) + " entries)",
                    ip());
            else if (nbytes && m_p.constantBuffer[idx].storage.size() < *nbytes)
                error(ErrorCode::Truncated,
                    "constant_buffer[" + std::to_string(idx) + "] has "
                        + std::to_string(m_p.constantBuffer[idx].storage.size()) + " bytes but the tensor needs "
                        + std::to_string(*nbytes),
                    ip());
        } else {
            error(ErrorCode::OutOfRange,
                "data_buffer_idx " + std::to_string(idx) + " refers to constant data but the program has none", ip());
        }
    }

    template <typename P> void checkMutable(const Tensor& t, const std::optional<std::uint64_t>& nbytes, const P& vp)
    {
        const auto idx = t.dataBufferIdx;
        auto ip = [&] { return vp() + ".data_buffer_idx"; };
        if (!m_p.mutableDataSegments || m_p.mutableDataSegments->empty()) {
            error(ErrorCode::OutOfRange,
                "a planned tensor has data_buffer_idx " + std::to_string(idx)
                    + " (initial state) but the program has no mutable_data_segments",
                ip());
            return;
        }
        const auto& m = (*m_p.mutableDataSegments)[0];
        if (m.segmentIndex >= m_p.segments.size())
            return; // reported at program level
        if (!needsHeader("the initial state of a planned tensor", ip()))
            return;
        if (idx >= m.offsets.size()) {
            error(ErrorCode::OutOfRange,
                "data_buffer_idx " + std::to_string(idx) + " is out of range of mutable_data_segments[0].offsets ("
                    + std::to_string(m.offsets.size()) + " entries)",
                ip());
            return;
        }
        const std::uint64_t segSize = m_p.segments[m.segmentIndex].size;
        const std::uint64_t off = m.offsets[idx];
        if (nbytes && (off > segSize || *nbytes > segSize - off))
            error(ErrorCode::OutOfRange,
                "initial state at offset " + std::to_string(off) + " (" + std::to_string(*nbytes)
                    + " bytes) runs past the end of the mutable data segment (" + std::to_string(segSize) + " bytes)",
                ip());
    }

    const Program& m_p;
    const std::optional<ExternalData>& m_ext;
    const FileFacts* m_facts;
    Diagnostics m_diags;
    Location m_at; ///< what the check under way is about; stamped on each diagnostic
    const FileFacts::PlanOffsets* m_po = nullptr; ///< the decoded tables' offsets of the method under way, if known
};

} // namespace

Diagnostics checkProgramImpl(
    const Program& program, const std::optional<ExternalData>& external, const FileFacts* facts)
{
    return Checker(program, external, facts).run();
}

} // namespace pte::ptefile

namespace pte {

Result<void> checkExternalTensor(
    const Tensor& t, const std::string& fqn, const ExternalTensor& stored, const std::string& source)
{
    using ptefile::layoutText;
    if (stored.scalarType != t.scalarType || stored.sizes != t.sizes || stored.dimOrder != t.dimOrder)
        return fail(ErrorCode::InvalidProgram,
            "EXTERNAL tensor '" + fqn + "' has layout " + layoutText(t.scalarType, t.sizes, t.dimOrder) + " but "
                + source + " stores " + layoutText(stored.scalarType, stored.sizes, stored.dimOrder));
    if (const auto nbytes = t.nbytes(); nbytes && stored.data.size() < *nbytes)
        return fail(ErrorCode::Truncated,
            "EXTERNAL tensor '" + fqn + "' needs " + std::to_string(*nbytes) + " bytes but " + source + " has "
                + std::to_string(stored.data.size()));
    return {};
}

} // namespace pte
