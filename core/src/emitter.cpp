// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "pte/emitter.h"

#include "emit/lowering.h"
#include "emit/memoryplanner.h"
#include "pte/kernelcoverage.h"

#include <algorithm>
#include <charconv>
#include <cstring>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <system_error>
#include <thread>
#include <unordered_map>

namespace pte {

namespace {

using namespace emitcore;

// Program-wide state shared by all methods (ExecuTorch's _ProgramState).
class ProgramState
{
public:
    ProgramState()
    {
        constants.push_back(Buffer {}); // entry 0: the empty placeholder
        mutableData.push_back(Bytes {});
    }

    /** Constant bytes -> constant_buffer index, deduplicated by content (byte compare behind a cheap key). */
    std::uint32_t addConstant(const Bytes& b) { return add(b, constants, m_constIndex); }
    std::uint32_t addMutable(const Bytes& b)
    {
        std::vector<Buffer> dummy;
        const auto before = mutableData.size();
        for (auto it = m_mutIndex.equal_range(cheapKey(b)); it.first != it.second; ++it.first)
            if (mutableData[it.first->second].contentEquals(b))
                return it.first->second;
        mutableData.push_back(b);
        m_mutIndex.emplace(cheapKey(b), std::uint32_t(before));
        return std::uint32_t(before);
    }
    std::uint32_t addDelegateBlob(const Bytes& b)
    {
        const auto key = sha256Hex(b.span());
        const auto it = m_blobIndex.find(key);
        if (it != m_blobIndex.end())
            return it->second;
        const auto idx = std::uint32_t(delegateBlobs.size());
        delegateBlobs.push_back(Buffer { b });
        m_blobIndex.emplace(key, idx);
        return idx;
    }
    void addNamedData(const std::string& key, const Bytes& b)
    {
        if (m_namedKeys.insert(key).second)
            namedData.emplace_back(key, b);
    }

    std::vector<Buffer> constants;
    std::vector<Bytes> mutableData;
    std::vector<Buffer> delegateBlobs;
    std::vector<std::pair<std::string, Bytes>> namedData;

private:
    static std::uint64_t cheapKey(const Bytes& b)
    {
        // FNV-1a over the size and up to 64 bytes at each end: distinct weights almost never collide, and a
        // collision only costs a full compare.
        std::uint64_t h = 1469598103934665603ull;
        auto mix = [&](std::uint8_t c) {
            h ^= c;
            h *= 1099511628211ull;
        };
        const auto n = b.size();
        for (int i = 0; i < 8; ++i)
            mix(std::uint8_t(n >> (8 * i)));
        const auto head = std::min<std::size_t>(n, 64);
        for (std::size_t i = 0; i < head; ++i)
            mix(b.data()[i]);
        for (std::size_t i = n > 64 ? n - std::min<std::size_t>(n - 64, 64) : n; i < n; ++i)
            mix(b.data()[i]);
        return h;
    }
    static std::uint32_t add(
        const Bytes& b, std::vector<Buffer>& list, std::unordered_multimap<std::uint64_t, std::uint32_t>& index)
    {
        const auto key = cheapKey(b);
        for (auto it = index.equal_range(key); it.first != it.second; ++it.first)
            if (list[it.first->second].storage.contentEquals(b))
                return it.first->second;
        const auto idx = std::uint32_t(list.size());
        list.push_back(Buffer { b });
        index.emplace(key, idx);
        return idx;
    }

    std::unordered_multimap<std::uint64_t, std::uint32_t> m_constIndex;
    std::unordered_multimap<std::uint64_t, std::uint32_t> m_mutIndex;
    std::map<std::string, std::uint32_t> m_blobIndex;
    std::set<std::string> m_namedKeys;
};

EValue makeValue(KernelValue v)
{
    EValue e;
    e.rawType = std::uint8_t(v.index());
    e.val = std::move(v);
    return e;
}

std::vector<std::int64_t> nodeDebugHandles(const Node& n)
{
    if (!n.debugHandles.empty())
        return n.debugHandles;
    if (const auto h = firstDebugHandle(n)) // the "debug_handle" metadata
        return { *h };
    return {};
}

// Parses Python traceback text: 'File "<f>", line <n>, in <name>' followed by the source line.
FrameList parseStackTrace(const std::string& text)
{
    FrameList frames;
    std::size_t pos = 0;
    while ((pos = text.find("File \"", pos)) != std::string::npos) {
        pos += 6;
        const auto q = text.find('"', pos);
        if (q == std::string::npos)
            break;
        Frame f;
        f.filename = text.substr(pos, q - pos);
        auto p = text.find(", line ", q);
        if (p == std::string::npos)
            break;
        p += 7;
        std::int32_t line = 0;
        const auto r = std::from_chars(text.data() + p, text.data() + text.size(), line);
        f.lineno = line;
        p = std::size_t(r.ptr - text.data());
        const auto eol = text.find('\n', p);
        const auto in = text.find(", in ", p);
        if (in != std::string::npos && in < eol)
            f.name = text.substr(in + 5, (eol == std::string::npos ? text.size() : eol) - in - 5);
        if (eol != std::string::npos) {
            const auto eol2 = text.find('\n', eol + 1);
            auto ctx = text.substr(eol + 1, (eol2 == std::string::npos ? text.size() : eol2) - eol - 1);
            const auto b = ctx.find_first_not_of(" \t");
            ctx = b == std::string::npos ? std::string() : ctx.substr(b);
            if (ctx.rfind("File \"", 0) != 0)
                f.context = ctx;
        }
        frames.items.push_back(std::move(f));
        pos = q;
    }
    return frames;
}

class MethodEmitter
{
public:
    MethodEmitter(ProgramState& ps, LoweredMethod& lm, const std::string& name, const EmitOptions& options,
        const ExportedProgram& ep)
        : m_ps(ps)
        , m_lm(lm)
        , m_name(name)
        , m_options(options)
        , m_ep(ep)
        , m_valueOf(lm.values.size(), -1)
    {
        generateDebugHandles();
    }

    Result<void> run(EmitterOutput& out);

private:
    std::int32_t addValue(KernelValue v)
    {
        m_plan.values.push_back(makeValue(std::move(v)));
        return std::int32_t(m_plan.values.size() - 1);
    }
    Result<std::int32_t> valueFor(int ref);
    Result<std::int32_t> emitArg(const LArg& a);
    std::int32_t operatorIndex(const std::string& name, const std::string& overload);
    /** The operator of a kernel instruction, found by its schema when it has one. */
    Result<std::int32_t> operatorIndex(const emitcore::LInstr& in);
    void plan();
    void generateDebugHandles();
    std::optional<std::int64_t> firstHandleOf(const Node& n) const;

    ProgramState& m_ps;
    LoweredMethod& m_lm;
    std::string m_name;
    const EmitOptions& m_options;
    const ExportedProgram& m_ep;
    ExecutionPlan m_plan;
    MethodEmitInfo m_info;
    std::map<const Node*, std::int64_t> m_generatedHandles;
    std::vector<std::int32_t> m_valueOf;
    std::map<std::pair<std::string, std::string>, std::int32_t> m_opCache;
    std::unordered_map<const emitcore::OpSchema*, std::int32_t> m_opBySchema;
    std::uint64_t m_total = 0;
    bool m_anyPlanned = false;
};

void MethodEmitter::plan()
{
    std::vector<PlanRequest> requests;
    std::vector<int> refs;
    requests.reserve(m_lm.values.size());
    refs.reserve(m_lm.values.size());
    m_info.memoryPlan.reserve(m_lm.values.size());
    for (std::size_t i = 0; i < m_lm.values.size(); ++i) {
        const auto& v = m_lm.values[i];
        if (v.isSym || v.storage != LValue::Storage::Planned || v.first < 0 || v.aliasOf >= 0)
            continue;
        requests.push_back({ v.nbytes(), v.first, v.last });
        refs.push_back(int(i));
    }
    const auto result = planGreedy(requests, m_options.memoryAlignment);
    for (std::size_t k = 0; k < refs.size(); ++k) {
        auto& v = m_lm.values[std::size_t(refs[k])];
        v.offset = result.offsets[k];
        v.planned = true;
    }
    // Views share their base's memory (the base's lifetime already covers theirs).
    for (auto& v : m_lm.values) {
        if (v.aliasOf < 0 || v.storage != LValue::Storage::Planned)
            continue;
        const auto& base = m_lm.values[std::size_t(v.aliasOf)];
        v.offset = base.offset;
        v.planned = base.planned;
    }
    m_total = result.totalSize;
    m_anyPlanned = !refs.empty();
}

Result<std::int32_t> MethodEmitter::valueFor(int ref)
{
    if (ref < 0 || std::size_t(ref) >= m_lm.values.size())
        return fail(ErrorCode::Internal, "method '" + m_name + "': dangling value reference");
    if (m_valueOf[std::size_t(ref)] >= 0)
        return m_valueOf[std::size_t(ref)];
    auto& v = m_lm.values[std::size_t(ref)];
    if (v.isSym) {
        if (v.symCounter) {
            m_valueOf[std::size_t(ref)] = v.symBool ? addValue(Bool { false }) : addValue(Int { 0 });
            m_info.valueNames.insert_or_assign(m_valueOf[std::size_t(ref)], v.name);
            return m_valueOf[std::size_t(ref)];
        }
        if (!v.symIsNull)
            return fail(ErrorCode::InvalidInput,
                "method '" + m_name + "': symbolic value '" + v.name + "' is used before the node computing it");
        m_valueOf[std::size_t(ref)] = addValue(Null {});
        return m_valueOf[std::size_t(ref)];
    }
    // Each value is emitted once (m_valueOf): its sizes and dim order move into the program.
    const std::uint64_t nbytes = v.nbytes();
    Tensor t;
    t.scalarType = v.dtype;
    t.sizes = std::move(v.sizes);
    t.dimOrder = std::move(v.dimOrder);
    t.requiresGrad = v.requiresGrad;
    t.shapeDynamism = v.dynamism;
    if (v.storage == LValue::Storage::Planned) {
        if (!v.planned)
            return fail(ErrorCode::Internal, "method '" + m_name + "': tensor '" + v.name + "' was not memory planned");
        t.allocationInfo =
            AllocationDetails { 1, std::uint32_t(v.offset & 0xffffffffu), std::uint32_t(v.offset >> 32) };
        if (v.initialised)
            t.dataBufferIdx = m_ps.addMutable(v.data);
        PlannedTensor pt;
        pt.valueIndex = std::int32_t(m_plan.values.size());
        pt.name = v.name;
        pt.memoryId = 1;
        pt.offset = v.offset;
        pt.size = nbytes;
        pt.firstInstruction = std::int32_t(std::min(v.first, std::max<std::int64_t>(m_lm.instructionCount - 1, 0)));
        pt.lastInstruction = std::int32_t(std::min(v.last, std::max<std::int64_t>(m_lm.instructionCount - 1, 0)));
        pt.view = v.aliasOf >= 0;
        m_info.memoryPlan.push_back(std::move(pt));
    } else if (v.storage == LValue::Storage::Constant) {
        if (v.data.size() != nbytes)
            return fail(ErrorCode::Internal,
                "method '" + m_name + "': Tensor spec has buffer of size " + std::to_string(v.data.size())
                    + ", but expected nbytes of " + std::to_string(nbytes));
        t.dataBufferIdx = m_ps.addConstant(v.data);
    }
    const auto idx = addValue(std::move(t));
    m_valueOf[std::size_t(ref)] = idx;
    m_info.valueNames.insert_or_assign(idx, v.name); // ids grow: O(1) at the end
    return idx;
}

Result<std::int32_t> MethodEmitter::emitArg(const LArg& a)
{
    switch (a.kind) {
    case LArg::Kind::Null:
        return addValue(Null {});
    case LArg::Kind::Tensor:
    case LArg::Kind::ValueRef:
        return valueFor(a.ref);
    case LArg::Kind::TensorList:
    case LArg::Kind::OptionalTensorList: {
        std::vector<std::int32_t> items;
        for (const int r : a.refs) {
            if (r < 0) {
                items.push_back(-1);
                continue;
            }
            PTE_TRY(const auto id, valueFor(r));
            items.push_back(id);
        }
        if (a.kind == LArg::Kind::TensorList)
            return addValue(TensorList { std::move(items) });
        return addValue(OptionalTensorList { std::move(items) });
    }
    case LArg::Kind::Int:
        return addValue(Int { a.i });
    case LArg::Kind::Double:
        return addValue(Double { a.d });
    case LArg::Kind::Bool:
        return addValue(Bool { a.b });
    case LArg::Kind::String:
        return addValue(String { a.rare ? a.rare->s : std::string() });
    case LArg::Kind::IntList: {
        std::vector<std::int64_t> items;
        for (const auto& e : a.ints) {
            if (e.ref >= 0) {
                PTE_TRY(const auto id, valueFor(e.ref));
                items.push_back(id);
            } else {
                items.push_back(addValue(Int { e.literal }));
            }
        }
        return addValue(IntList { std::move(items) });
    }
    case LArg::Kind::DoubleList:
        return addValue(DoubleList { a.rare ? a.rare->ds : std::vector<double>() });
    case LArg::Kind::BoolList:
        return addValue(BoolList { a.rare ? a.rare->bs : std::vector<bool>() });
    case LArg::Kind::PlaceholderTensor: {
        Tensor t;
        t.scalarType = ScalarType::Byte;
        t.sizes = { 0 };
        t.dimOrder = { 0 };
        return addValue(std::move(t));
    }
    case LArg::Kind::SymResult: {
        const auto idx = addValue(Int { 0 });
        if (a.ref >= 0)
            m_valueOf[std::size_t(a.ref)] = idx;
        return idx;
    }
    }
    return fail(ErrorCode::Internal, "unknown argument kind");
}

std::int32_t MethodEmitter::operatorIndex(const std::string& name, const std::string& overload)
{
    const auto key = std::make_pair(name, overload);
    const auto it = m_opCache.find(key);
    if (it != m_opCache.end())
        return it->second;
    m_plan.operators.push_back(Operator { name, overload });
    const auto idx = std::int32_t(m_plan.operators.size() - 1);
    m_opCache.emplace(key, idx);
    return idx;
}

Result<std::int32_t> MethodEmitter::operatorIndex(const emitcore::LInstr& in)
{
    if (!in.schema) {
        if (!in.name)
            return fail(ErrorCode::Internal,
                "method '" + m_name + "': kernel call '" + in.origin + "' has neither a schema nor an operator name");
        return operatorIndex(in.name->name, in.name->overload);
    }
    if (const auto it = m_opBySchema.find(in.schema); it != m_opBySchema.end())
        return it->second;
    const auto idx = operatorIndex(in.schema->qualifiedName(), in.schema->overload);
    m_opBySchema.emplace(in.schema, idx);
    return idx;
}

Result<void> MethodEmitter::run(EmitterOutput& out)
{
    plan();
    m_plan.name = m_name;
    m_plan.containerMetaType = m_lm.containerMeta;
    // Placeholders first, in graph order.
    for (const auto& p : m_lm.placeholders) {
        std::int32_t id = -1;
        if (p.kind == LPlaceholder::Kind::Literal) {
            PTE_TRY(id, emitArg(p.literal));
        } else {
            PTE_TRY(id, valueFor(p.ref));
        }
        if (p.userInput)
            m_plan.inputs.push_back(id);
    }
    // Jump targets.
    std::map<int, std::int32_t> labels;
    {
        std::int32_t pc = 0;
        for (const auto& in : m_lm.instrs) {
            if (in.kind == LInstr::Kind::Label)
                labels[in.label] = pc;
            else if (in.kind != LInstr::Kind::Alloc && in.kind != LInstr::Kind::CondFalse)
                ++pc;
        }
    }
    Chain chain;
    chain.instructions.reserve(std::size_t(m_lm.instructionCount));
    m_plan.values.reserve(m_lm.values.size() + 4 * std::size_t(m_lm.instructionCount) + 16);
    m_info.valueNames.reserve(m_lm.values.size());
    m_info.instructionNodes.reserve(std::size_t(m_lm.instructionCount));
    std::vector<FrameList> frames;
    std::vector<std::size_t> pendingFalse;
    auto& dbg = out.debugHandleMap[m_name];
    auto& delegateMap = out.methodToDelegateDebugIdMap[m_name];
    auto& numOuts = out.instructionIdToNumOutsMap[m_name];
    std::size_t done = 0;
    for (const auto& in : m_lm.instrs) {
        if (m_options.cancel && m_options.cancel->load(std::memory_order_relaxed))
            return fail(ErrorCode::Cancelled, "emission cancelled");
        if (m_options.progress && (++done % 4096) == 0)
            m_options.progress(done, m_lm.instrs.size());
        const auto instrId = std::int32_t(chain.instructions.size());
        switch (in.kind) {
        case LInstr::Kind::Label:
            break;
        case LInstr::Kind::Alloc:
            for (const int r : in.allocs)
                PTE_CHECK(valueFor(r));
            break;
        case LInstr::Kind::CondFalse: {
            if (pendingFalse.empty())
                return fail(ErrorCode::Internal, "unbalanced control flow");
            const auto id = addValue(Bool { false });
            std::get<JumpFalseCall>(chain.instructions[pendingFalse.back()].args).condValueIndex = id;
            pendingFalse.pop_back();
            break;
        }
        case LInstr::Kind::Kernel: {
            for (const int r : in.allocs)
                PTE_CHECK(valueFor(r));
            KernelCall kc;
            kc.args.reserve(in.args.size() + 1);
            for (const auto& a : in.args) {
                PTE_TRY(const auto id, emitArg(a));
                kc.args.push_back(id);
            }
            if (in.ret == LInstr::Ret::OutArgs) {
                if (in.outArgIndices.size() == 1) {
                    kc.args.push_back(kc.args[in.outArgIndices[0]]);
                } else {
                    std::vector<std::int32_t> items;
                    for (const auto i : in.outArgIndices)
                        items.push_back(kc.args[i]);
                    kc.args.push_back(addValue(TensorList { std::move(items) }));
                }
            } else {
                for (const auto& a : in.retSlots) {
                    PTE_TRY(const auto id, emitArg(a));
                    kc.args.push_back(id);
                }
            }
            PTE_TRY(kc.opIndex, operatorIndex(in));
            Instruction i;
            i.args = std::move(kc);
            i.rawType = std::uint8_t(InstructionKind::KernelCall);
            chain.instructions.push_back(std::move(i));
            if (in.node && in.recordDebug) {
                // A kernel call records its node's first handle.
                const auto h =
                    !m_generatedHandles.empty() || !in.debugHandleRead ? firstHandleOf(*in.node) : in.debugHandle;
                if (h)
                    dbg.insert_or_assign(dbg.end(), instrId, std::vector<std::int64_t> { *h });
            }
            m_info.instructionNodes.insert_or_assign(instrId, std::vector<std::string> { in.origin });
            if (m_options.emitStacktrace) {
                const auto st = in.node ? in.node->metadata.find("stack_trace")
                                        : std::map<std::string, std::string>::const_iterator {};
                frames.push_back(in.node && st != in.node->metadata.end() ? parseStackTrace(st->second) : FrameList {});
            }
            break;
        }
        case LInstr::Kind::Delegate: {
            DelegateCall dc;
            std::vector<std::int32_t> outs;
            for (const int r : in.delegateOuts) {
                if (m_lm.values[std::size_t(r)].isSym) {
                    const auto id = addValue(Int { 0 });
                    m_valueOf[std::size_t(r)] = id;
                    outs.push_back(id);
                } else {
                    PTE_TRY(const auto id, valueFor(r));
                    outs.push_back(id);
                }
            }
            for (const auto& a : in.args) {
                PTE_TRY(const auto id, emitArg(a));
                dc.args.push_back(id);
            }
            dc.args.insert(dc.args.end(), outs.begin(), outs.end());
            const auto& lowered = *in.lowered;
            BackendDelegate bd;
            bd.id = lowered.backendId;
            bd.processed =
                BackendDelegateDataReference { DataLocation::Inline, m_ps.addDelegateBlob(lowered.processedBytes) };
            bd.compileSpecs = lowered.compileSpecs;
            m_plan.delegates.push_back(std::move(bd));
            dc.delegateIndex = std::int32_t(m_plan.delegates.size() - 1);
            for (const auto& [key, bytes] : lowered.namedData)
                m_ps.addNamedData(key, bytes);
            Instruction i;
            i.args = std::move(dc);
            i.rawType = std::uint8_t(InstructionKind::DelegateCall);
            chain.instructions.push_back(std::move(i));
            std::vector<std::string> names;
            if (in.recordDebug) {
                std::vector<std::int64_t> handles;
                std::int64_t nOuts = std::int64_t(in.delegateOuts.size());
                if (lowered.originalModule) {
                    for (const auto& n : lowered.originalModule->graph.nodes) {
                        const auto h = nodeDebugHandles(n);
                        handles.insert(handles.end(), h.begin(), h.end());
                        names.push_back(n.name);
                    }
                    nOuts = 0;
                    for (const auto& o : lowered.originalModule->graph.outputs)
                        nOuts += o.kind == ArgKind::Tensors ? std::int64_t(o.names.size()) : 1;
                } else if (in.node) {
                    handles = nodeDebugHandles(*in.node);
                }
                dbg[instrId] = handles;
                numOuts[instrId] = nOuts;
                DelegateMapEntry entry;
                entry.name = lowered.backendId;
                if (lowered.delegateDebugIdentifierMap) {
                    entry.delegateMap = *lowered.delegateDebugIdentifierMap;
                } else {
                    // The ETRecord keys its entries by the instruction ids of the emission that wrote it. Pair
                    // delegate calls by their order (robust to lowering that shifts instruction ids), checking
                    // the backend; fall back to the same instruction id.
                    const auto m = m_options.etrecordDelegateMap.find(m_name);
                    if (m != m_options.etrecordDelegateMap.end()) {
                        const std::size_t ordinal = delegateMap.size();
                        auto e = m->second.begin();
                        if (ordinal < m->second.size())
                            std::advance(e, std::ptrdiff_t(ordinal));
                        else
                            e = m->second.end();
                        if (e == m->second.end() || e->second.name != lowered.backendId)
                            e = m->second.find(instrId);
                        if (e != m->second.end() && e->second.name == lowered.backendId)
                            entry.delegateMap = e->second.delegateMap;
                    }
                }
                delegateMap[instrId] = std::move(entry);
            }
            if (names.empty())
                names.push_back(in.origin);
            m_info.instructionNodes[instrId] = std::move(names);
            if (m_options.emitStacktrace)
                frames.push_back(FrameList {});
            break;
        }
        case LInstr::Kind::JumpFalse: {
            JumpFalseCall jf;
            const auto label = labels.find(in.label);
            if (label == labels.end())
                return fail(ErrorCode::Internal, "method '" + m_name + "': jump to an unknown label");
            jf.destinationInstruction = label->second;
            if (in.unconditional) {
                pendingFalse.push_back(chain.instructions.size());
            } else {
                if (!in.cond)
                    return fail(ErrorCode::Internal, "method '" + m_name + "': conditional jump without a condition");
                PTE_TRY(jf.condValueIndex, emitArg(*in.cond));
            }
            Instruction i;
            i.args = jf;
            i.rawType = std::uint8_t(InstructionKind::JumpFalseCall);
            chain.instructions.push_back(std::move(i));
            m_info.instructionNodes.insert_or_assign(instrId, std::vector<std::string> { in.origin });
            if (m_options.emitStacktrace)
                frames.push_back(FrameList {});
            break;
        }
        case LInstr::Kind::Move: {
            MoveCall mc;
            PTE_TRY(mc.moveFrom, valueFor(in.moveFrom));
            PTE_TRY(mc.moveTo, valueFor(in.moveTo));
            Instruction i;
            i.args = mc;
            i.rawType = std::uint8_t(InstructionKind::MoveCall);
            chain.instructions.push_back(std::move(i));
            m_info.instructionNodes.insert_or_assign(instrId, std::vector<std::string> { in.origin });
            if (m_options.emitStacktrace)
                frames.push_back(FrameList {});
            break;
        }
        }
    }
    if (!pendingFalse.empty())
        return fail(ErrorCode::Internal, "unbalanced control flow");
    for (const auto& o : m_lm.outputs) {
        PTE_TRY(const auto id, emitArg(o));
        m_plan.outputs.push_back(id);
    }
    if (m_options.emitStacktrace)
        chain.stacktrace = std::move(frames);
    m_plan.chains.push_back(std::move(chain));
    m_plan.nonConstBufferSizes = { 0, std::int64_t(m_total) };
    m_info.droppedOutputs = m_lm.dropped;
    for (const auto& op : m_plan.operators) {
        const auto key = op.qualifiedName();
        m_info.kernelCoverage.emplace_back(key, portableKernelImplements(key));
    }
    m_info.trainingGradientsIndex = m_lm.gradientsIndex;
    m_info.trainingParametersIndex = m_lm.parametersIndex;
    out.methods[m_name] = std::move(m_info);
    out.program.executionPlan.push_back(std::move(m_plan));
    return {};
}

const char* kLeafSpec = R"([1, {"type": null, "context": null, "children_spec": []}])";

ExecutionPlan getterPlan(const std::string& name, std::vector<EValue> values, std::string outSpec)
{
    ExecutionPlan p;
    p.name = name;
    p.containerMetaType = ContainerMetadata { "", std::move(outSpec) };
    for (std::size_t i = 0; i < values.size(); ++i)
        p.outputs.push_back(std::int32_t(i));
    p.values = std::move(values);
    p.chains.push_back(Chain {});
    p.nonConstBufferSizes = { 0 };
    return p;
}

std::string listSpec(std::size_t n)
{
    std::string s = R"([1, {"type": "builtins.list", "context": "null", "children_spec": [)";
    for (std::size_t i = 0; i < n; ++i)
        s += std::string(i ? ", " : "") + R"({"type": null, "context": null, "children_spec": []})";
    return s + "]}]";
}

Result<ExecutionPlan> primGetter(
    const std::string& name, const EValue& value, ProgramState& ps, const EmitOptions& options)
{
    std::vector<EValue> values;
    std::string spec = kLeafSpec;
    switch (value.kind()) {
    case ValueKind::Int:
    case ValueKind::Double:
    case ValueKind::Bool:
    case ValueKind::String:
        values.push_back(makeValue(value.val));
        break;
    case ValueKind::Tensor: {
        Tensor t = *value.tensor();
        const auto nbytes = t.nbytes();
        if (!nbytes)
            return fail(ErrorCode::InvalidInput, "prim getter '" + name + "': the tensor's size overflows");
        if (t.dimOrder.size() != t.sizes.size()) {
            t.dimOrder.resize(t.sizes.size());
            for (std::size_t i = 0; i < t.dimOrder.size(); ++i)
                t.dimOrder[i] = std::uint8_t(i);
        }
        Bytes data;
        const auto it = options.primGetterTensorData.find(name);
        if (it != options.primGetterTensorData.end()) {
            if (it->second.size() != *nbytes)
                return fail(ErrorCode::InvalidInput,
                    "prim getter '" + name + "': Tensor spec has buffer of size " + std::to_string(it->second.size())
                        + ", but expected nbytes of " + std::to_string(*nbytes));
            data = it->second;
        } else {
            data = Bytes::fromVector(std::vector<std::uint8_t>(*nbytes, 0));
        }
        t.allocationInfo.reset();
        t.extraTensorInfo.reset();
        t.storageOffset = 0;
        t.dataBufferIdx = ps.addConstant(data);
        values.push_back(makeValue(std::move(t)));
        break;
    }
    case ValueKind::DoubleList:
        for (const auto d : std::get<DoubleList>(value.val).items)
            values.push_back(makeValue(Double { d }));
        spec = listSpec(values.size());
        break;
    case ValueKind::BoolList:
        for (const bool b : std::get<BoolList>(value.val).items)
            values.push_back(makeValue(Bool { b }));
        spec = listSpec(values.size());
        break;
    case ValueKind::IntList:
        // Getter lists hold literal ints (there is no value table to index into).
        for (const auto v : std::get<IntList>(value.val).items)
            values.push_back(makeValue(Int { v }));
        spec = listSpec(values.size());
        break;
    default:
        return fail(ErrorCode::Unsupported,
            "Error emitting " + name + " which returns a value of type " + valueKindName(value.kind())
                + ". which is not a supported primitive");
    }
    return getterPlan(name, std::move(values), std::move(spec));
}

/** The getter plan of a method without inputs or nodes whose outputs are all literals, or nullopt. */
// A plain torch.export dump has no debug handles: ExecuTorch's to_edge would give each operator node one
// (1-based, in graph order; nodes decomposed from it share it). Emitting such a dump, we do the same, so
// instructions always map back to graph nodes through handles. Dumps that carry handles keep theirs.
void MethodEmitter::generateDebugHandles()
{
    if (!m_options.generateDebugHandles)
        return;
    const auto& nodes = m_ep.graph.nodes;
    const bool anyHandle =
        std::any_of(nodes.begin(), nodes.end(), [](const Node& n) { return !nodeDebugHandles(n).empty(); });
    if (anyHandle)
        return;
    std::int64_t next = 1;
    for (const auto& n : nodes)
        if (n.targetKind == TargetKind::OpOverload || n.targetKind == TargetKind::HigherOrder)
            m_generatedHandles[&n] = next++;
}

std::optional<std::int64_t> MethodEmitter::firstHandleOf(const Node& n) const
{
    if (const auto it = m_generatedHandles.find(&n); it != m_generatedHandles.end())
        return it->second;
    return firstDebugHandle(n);
}

/** Destroys `garbage` on a new thread; the returned handle joins it when released. Inline if no thread starts. */
std::shared_ptr<void> releaseInBackground(std::vector<LoweredMethod> garbage)
{
    if (garbage.empty())
        return {};
    try {
        return std::make_shared<std::jthread>([dying = std::move(garbage)]() mutable { dying.clear(); });
    } catch (const std::system_error&) {
        return {}; // no thread: `garbage` was freed while unwinding, on this thread
    }
}

std::optional<ExecutionPlan> constantMethod(const std::string& name, const ExportedProgram& ep)
{
    if (!ep.graph.nodes.empty() || !ep.graph.inputs.empty() || ep.graph.outputs.empty())
        return std::nullopt;
    std::vector<EValue> values;
    for (const auto& o : ep.graph.outputs) {
        switch (o.kind) {
        case ArgKind::Int:
            values.push_back(makeValue(Int { o.ints.empty() ? 0 : o.ints[0] }));
            break;
        case ArgKind::Float:
            values.push_back(makeValue(Double { o.floats.empty() ? 0.0 : o.floats[0] }));
            break;
        case ArgKind::Bool:
            values.push_back(makeValue(Bool { !o.bools.empty() && o.bools[0] }));
            break;
        case ArgKind::String:
            values.push_back(makeValue(String { o.strings.empty() ? std::string() : o.strings[0] }));
            break;
        default:
            return std::nullopt;
        }
    }
    std::string spec = values.size() == 1 ? std::string(kLeafSpec) : listSpec(values.size());
    for (const auto& e : ep.moduleCallGraph)
        if (e.fqn.empty() && e.outSpec)
            spec = *e.outSpec;
    return getterPlan(name, std::move(values), std::move(spec));
}

} // namespace

Result<EmitterOutput> emitProgram(
    const std::vector<std::pair<std::string, std::shared_ptr<const ExportedProgram>>>& methods,
    const EmitOptions& options)
{
    if (methods.empty())
        return fail(
            ErrorCode::InvalidInput, "Did not receive ExportedProgram for the following methods []: nothing to emit");
    std::vector<std::string> bad;
    std::set<std::string> seen;
    for (const auto& [name, ep] : methods) {
        if (!ep || name.empty() || !seen.insert(name).second)
            bad.push_back(name.empty() ? "<unnamed>" : name);
    }
    for (const auto& [name, v] : options.primGetters)
        if (seen.count(name))
            bad.push_back(name + " (also a prim getter)");
    if (!bad.empty()) {
        std::string list;
        for (const auto& b : bad)
            list += (list.empty() ? "" : ", ") + b;
        return fail(ErrorCode::InvalidInput,
            "Did not receive ExportedProgram for the following methods [" + list
                + "] (missing, unnamed or duplicated)");
    }
    auto sorted = methods;
    std::sort(sorted.begin(), sorted.end(), [](const auto& a, const auto& b) { return a.first < b.first; });

    EmitterOutput out;
    out.serialize = options.serialize;
    ProgramState ps;
    std::vector<std::pair<std::string, LoweredMethod>> trainingMethods;
    std::vector<LoweredMethod> finished; // freed in the background once every method is emitted
    for (const auto& [name, ep] : sorted) {
        if (auto getter = constantMethod(name, *ep)) {
            // A method that only returns constants is emitted like a prim getter.
            out.program.executionPlan.push_back(std::move(*getter));
            out.methods[name] = MethodEmitInfo {};
            continue;
        }
        LoweringOptions lo;
        lo.zeroFillMissingWeights = options.zeroFillMissingWeights;
        lo.initialiseMutableBuffers = options.initialiseMutableBuffers;
        lo.cancel = options.cancel;
        // Errors say which method they are about (Error::location), whichever stage found them.
        auto inMethod = [&name](Error e) {
            if (e.location.method.empty())
                e.location.method = name;
            return fail(std::move(e));
        };
        auto loweredOr = lowerMethod(*ep, name, lo);
        if (!loweredOr)
            return inMethod(std::move(loweredOr).error());
        auto lowered = std::move(loweredOr).value();
        out.warnings.insert(out.warnings.end(), lowered.warnings.begin(), lowered.warnings.end());
        MethodEmitter me(ps, lowered, name, options, *ep);
        if (auto done = me.run(out); !done)
            return inMethod(std::move(done).error());
        if (lowered.joint)
            trainingMethods.emplace_back(name, std::move(lowered));
        else
            finished.push_back(std::move(lowered));
    }
    // Training metadata plans, then the user's prim getters.
    for (const auto& [name, lm] : trainingMethods) {
        if (lm.gradientsIndex >= 0)
            out.program.executionPlan.push_back(getterPlan(
                "__et_training_gradients_index_" + name, { makeValue(Int { lm.gradientsIndex }) }, kLeafSpec));
        std::vector<EValue> fqns;
        for (const auto& f : lm.gradientFqns)
            fqns.push_back(makeValue(String { f }));
        const auto n = fqns.size();
        out.program.executionPlan.push_back(getterPlan("__et_training_fqn_" + name, std::move(fqns), listSpec(n)));
        if (lm.parametersIndex >= 0)
            out.program.executionPlan.push_back(getterPlan(
                "__et_training_parameters_index_" + name, { makeValue(Int { lm.parametersIndex }) }, kLeafSpec));
    }
    for (const auto& [name, value] : options.primGetters) {
        PTE_TRY(auto plan, primGetter(name, value, ps, options));
        out.program.executionPlan.push_back(std::move(plan));
    }
    out.program.version = 0;
    out.program.constantBuffer = std::move(ps.constants);
    out.program.backendDelegateData = std::move(ps.delegateBlobs);
    // ExecuTorch sets constant_segment = {0, []} here; layoutForSerialization creates it from constant_buffer.
    if (ps.mutableData.size() > 1)
        out.mutableData = std::move(ps.mutableData);
    out.namedData = std::move(ps.namedData);
    for (auto& [name, lm] : trainingMethods)
        finished.push_back(std::move(lm));
    out.pendingRelease = releaseInBackground(std::move(finished));
    if (options.progress)
        options.progress(1, 1);
    return out;
}

} // namespace pte
