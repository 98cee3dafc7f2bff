// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "emit/methodemitter.h"

#include "pte/kernelcoverage.h"

#include <algorithm>
#include <cstring>

namespace pte::emitcore {

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

std::int32_t MethodEmitter::scalarValue(KernelValue v)
{
    if (!m_options.shareScalarValues)
        return addValue(std::move(v));
    std::uint64_t bits = 0;
    if (const auto* i = std::get_if<Int>(&v))
        bits = std::uint64_t(i->intVal);
    else if (const auto* d = std::get_if<Double>(&v))
        std::memcpy(&bits, &d->doubleVal, sizeof bits);
    else if (const auto* b = std::get_if<Bool>(&v))
        bits = b->boolVal ? 1 : 0;
    const auto key = std::make_pair(int(v.index()), bits);
    if (const auto it = m_scalars.find(key); it != m_scalars.end())
        return it->second;
    const auto id = addValue(std::move(v));
    m_scalars.emplace(key, id);
    return id;
}

Result<std::int32_t> MethodEmitter::emitArg(const LArg& a)
{
    switch (a.kind) {
    case LArg::Kind::Null:
        return scalarValue(Null {});
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
        return scalarValue(Int { a.i });
    case LArg::Kind::Double:
        return scalarValue(Double { a.d });
    case LArg::Kind::Bool:
        return scalarValue(Bool { a.b });
    case LArg::Kind::String:
        return addValue(String { a.rare ? a.rare->s : std::string() });
    case LArg::Kind::IntList: {
        std::vector<std::int64_t> items;
        for (const auto& e : a.ints) {
            if (e.ref >= 0) {
                PTE_TRY(const auto id, valueFor(e.ref));
                items.push_back(id);
            } else {
                items.push_back(scalarValue(Int { e.literal }));
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

Result<std::int32_t> MethodEmitter::operatorIndex(const LInstr& in)
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
    m_info.memoryPlan.reserve(m_lm.values.size());
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
                    m_handles.generated() || !in.debugHandleRead ? m_handles.firstOf(*in.node) : in.debugHandle;
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
                } else if (const auto* recorded = recordedDelegateEntry(
                               m_options, m_name, delegateMap.size(), instrId, lowered.backendId)) {
                    entry.delegateMap = recorded->delegateMap;
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

} // namespace pte::emitcore
