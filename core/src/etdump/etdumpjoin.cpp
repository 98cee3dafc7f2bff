// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "pte/etdumpjoin.h"

#include "base/fieldpath.h"

#include <algorithm>
#include <unordered_set>

namespace pte {

namespace {

/** The instruction-scope event names the executor opens, by the instruction kind they belong to. */
InstructionKind scopeKind(std::string_view name) noexcept
{
    if (name == "OPERATOR_CALL")
        return InstructionKind::KernelCall;
    if (name == "DELEGATE_CALL")
        return InstructionKind::DelegateCall;
    if (name == "MOVE_CALL")
        return InstructionKind::MoveCall;
    if (name == "JF_CALL")
        return InstructionKind::JumpFalseCall;
    if (name == "FREE_CALL")
        return InstructionKind::FreeCall;
    return InstructionKind::None;
}

std::string describeInstruction(const ExecutionPlan& plan, const Instruction& in)
{
    if (const auto* k = std::get_if<KernelCall>(&in.args)) {
        if (k->opIndex >= 0 && std::size_t(k->opIndex) < plan.operators.size())
            return "KernelCall " + plan.operators[std::size_t(k->opIndex)].qualifiedName();
        return "KernelCall of operator " + std::to_string(k->opIndex);
    }
    if (const auto* d = std::get_if<DelegateCall>(&in.args)) {
        if (d->delegateIndex >= 0 && std::size_t(d->delegateIndex) < plan.delegates.size())
            return "DelegateCall " + plan.delegates[std::size_t(d->delegateIndex)].id;
        return "DelegateCall of delegate " + std::to_string(d->delegateIndex);
    }
    return instructionKindName(in.kind());
}

/** Checks one block's events against one method; counts disagreements and keeps the first. */
struct BlockCheck
{
    std::size_t disagreements = 0;
    std::size_t checked = 0;
    std::string first;
    std::size_t reached = 0; ///< chain 0's instructions the block's events reach (highest id + 1)
};

/** What each interned string of a dump is, decided once: an instruction scope, a kernel event, or other. */
struct StringClasses
{
    std::vector<InstructionKind> scope; ///< by string id
    std::vector<bool> kernel; ///< "native_call_*"

    explicit StringClasses(const EtDump& dump)
        : scope(dump.strings.size(), InstructionKind::None)
        , kernel(dump.strings.size(), false)
    {
        for (std::size_t i = 0; i < dump.strings.size(); ++i) {
            scope[i] = scopeKind(dump.strings[i]);
            kernel[i] = dump.strings[i].rfind("native_call_", 0) == 0;
        }
    }
    [[nodiscard]] InstructionKind scopeOf(std::uint32_t id) const
    {
        return id < scope.size() ? scope[id] : InstructionKind::None;
    }
    [[nodiscard]] bool isKernel(std::uint32_t id) const { return id < kernel.size() && kernel[id]; }
};

/** A method's kernel event names by operator index (kernelEventName), computed once per join. */
std::vector<std::string> kernelNames(const EtdumpMethodSource& m)
{
    std::vector<std::string> out;
    if (m.plan)
        for (const auto& op : m.plan->operators)
            out.push_back(kernelEventName(op));
    return out;
}

BlockCheck checkBlock(const EtDump& dump, const EtdumpRun& run, const EtdumpMethodSource& m,
    const StringClasses& classes, const std::vector<std::string>& kernels)
{
    BlockCheck out;
    if (!m.plan)
        return out; // nothing to check against (maps without a program)
    const ExecutionPlan& plan = *m.plan;
    // Messages are built only for disagreements (a block of a million events must check fast).
    auto label = [&](const EtdumpEvent& e) {
        return e.kind == EtdumpEventKind::Debug ? std::string("a debug event")
            : e.isDelegateEvent()               ? "delegate event '" + dump.delegateIdentifier(e) + "'"
                                                : "event '" + std::string(dump.eventName(e)) + "'";
    };
    auto disagree = [&](const EtdumpEvent& e, const Instruction* in, std::string what) {
        if (out.disagreements++)
            return;
        if (in)
            what = " at instruction " + std::to_string(e.instructionId) + ", which is a "
                + describeInstruction(plan, *in) + " in method '" + m.name + "'";
        out.first = label(e) + what;
    };
    for (const auto& e : dump.runEvents(run)) {
        if (e.kind != EtdumpEventKind::Profile && e.kind != EtdumpEventKind::Debug)
            continue;
        if (!e.inInstruction())
            continue;
        ++out.checked;
        if (e.chainIndex == 0)
            out.reached = std::max(out.reached, std::size_t(e.instructionId) + 1);
        if (std::uint64_t(e.chainIndex) >= plan.chains.size()) {
            disagree(e, nullptr,
                " is in chain " + std::to_string(e.chainIndex) + ", but method '" + m.name + "' has "
                    + std::to_string(plan.chains.size()) + " chain(s)");
            continue;
        }
        const auto& chain = plan.chains[std::size_t(e.chainIndex)];
        if (std::size_t(e.instructionId) >= chain.instructions.size()) {
            disagree(e, nullptr,
                " is at instruction " + std::to_string(e.instructionId) + ", but method '" + m.name + "' has "
                    + std::to_string(chain.instructions.size()) + " instruction(s)");
            continue;
        }
        const Instruction& in = chain.instructions[std::size_t(e.instructionId)];
        if (e.isDelegateEvent()) {
            if (in.kind() != InstructionKind::DelegateCall)
                disagree(e, &in, {});
            continue;
        }
        if (e.kind == EtdumpEventKind::Debug) {
            if (in.kind() != InstructionKind::KernelCall && in.kind() != InstructionKind::DelegateCall)
                disagree(e, &in, {});
            continue;
        }
        const auto kind = classes.scopeOf(e.name);
        if (kind != InstructionKind::None) {
            if (kind != in.kind())
                disagree(e, &in, {});
            continue;
        }
        if (classes.isKernel(e.name)) {
            const auto* k = std::get_if<KernelCall>(&in.args);
            if (!k || k->opIndex < 0 || std::size_t(k->opIndex) >= kernels.size()
                || kernels[std::size_t(k->opIndex)] != dump.eventName(e))
                disagree(e, &in, {});
        }
        // Other names (kernels registered by name, Method::step) say nothing about the instruction.
    }
    return out;
}

/**
 * Maps a block's logged values to program values: per instruction run, the last k arguments (the out arguments), or
 * the items of a returned TensorList of k out arguments.
 */
class ValueMapper
{
public:
    ValueMapper(const EtDump& dump, const ExecutionPlan& plan, std::vector<EtdumpEventJoin>& joins,
        const StringClasses& classes)
        : m_dump(dump)
        , m_plan(plan)
        , m_joins(joins)
        , m_classes(classes)
    { }

    void add(std::uint32_t index)
    {
        const auto& e = m_dump.events[index];
        if (e.kind == EtdumpEventKind::Debug && !e.isDelegateEvent()) {
            if (e.inInstruction()) {
                m_pending[key(e)].push_back(index);
                ++m_pendingCount;
            } else if (e.chainIndex < 0) {
                // Program outputs, logged after the last instruction, in output order.
                auto& j = m_joins[index];
                if (m_outputs < m_plan.outputs.size()) {
                    j.outputIndex = std::int32_t(m_outputs);
                    j.value = m_plan.outputs[m_outputs];
                    j.valueMismatch = !matches(e, j.value);
                }
                ++m_outputs;
            }
            return;
        }
        if (m_pendingCount && e.kind == EtdumpEventKind::Profile && e.inInstruction() && !e.isDelegateEvent()
            && m_classes.scopeOf(e.name) != InstructionKind::None)
            flush(key(e));
    }

    void finish()
    {
        std::vector<std::uint64_t> keys;
        for (const auto& [k, v] : m_pending)
            if (!v.empty())
                keys.push_back(k);
        for (const auto k : keys)
            flush(k);
    }

private:
    static std::uint64_t key(const EtdumpEvent& e)
    {
        return (std::uint64_t(std::uint32_t(e.chainIndex)) << 32) | std::uint32_t(e.instructionId);
    }

    void flush(std::uint64_t k)
    {
        auto it = m_pending.find(k);
        if (it == m_pending.end() || it->second.empty())
            return;
        const auto chain = std::size_t(k >> 32);
        const auto instr = std::size_t(k & 0xffffffffu);
        const std::vector<std::int32_t>* args = nullptr;
        if (chain < m_plan.chains.size() && instr < m_plan.chains[chain].instructions.size()) {
            const auto& in = m_plan.chains[chain].instructions[instr];
            if (const auto* kc = std::get_if<KernelCall>(&in.args))
                args = &kc->args;
            else if (const auto* dc = std::get_if<DelegateCall>(&in.args))
                args = &dc->args;
        }
        const auto& events = it->second;
        m_pendingCount -= events.size();
        if (args && !args->empty() && events.size() > 1) {
            // A kernel with several outputs ends its arguments with the returned TensorList of its out arguments:
            // the logged values are those items.
            const auto last = std::size_t(args->back());
            const auto* list =
                last < m_plan.values.size() ? std::get_if<TensorList>(&m_plan.values[last].val) : nullptr;
            if (list && list->items.size() == events.size())
                args = &list->items;
        }
        if (args && events.size() <= args->size()) {
            const std::size_t first = args->size() - events.size();
            for (std::size_t i = 0; i < events.size(); ++i) {
                auto& j = m_joins[events[i]];
                j.value = (*args)[first + i];
                j.valueMismatch = !matches(m_dump.events[events[i]], j.value);
            }
        }
        it->second.clear();
    }

    /** Whether a logged value can be the program value (kind; tensor dtype and rank; static sizes). */
    bool matches(const EtdumpEvent& e, std::int32_t valueIndex) const
    {
        const auto* logged = m_dump.value(e);
        if (!logged || valueIndex < 0 || std::size_t(valueIndex) >= m_plan.values.size())
            return false;
        const auto& v = m_plan.values[std::size_t(valueIndex)];
        switch (logged->type) {
        case EtdumpValueType::Tensor: {
            const auto* t = v.tensor();
            if (!t || logged->tensors.size() != 1)
                return false;
            const auto& lt = logged->tensors.front();
            if (lt.scalarType != t->scalarType || lt.sizes.size() != t->sizes.size())
                return false;
            if (t->shapeDynamism != ShapeDynamism::Static)
                return true;
            for (std::size_t d = 0; d < lt.sizes.size(); ++d)
                if (lt.sizes[d] != t->sizes[d])
                    return false;
            return true;
        }
        case EtdumpValueType::TensorList:
            return v.kind() == ValueKind::TensorList;
        case EtdumpValueType::Int:
            return v.kind() == ValueKind::Int;
        case EtdumpValueType::Bool:
            return v.kind() == ValueKind::Bool;
        case EtdumpValueType::Double:
        case EtdumpValueType::Float:
            return v.kind() == ValueKind::Double;
        default:
            return true;
        }
    }

    const EtDump& m_dump;
    const ExecutionPlan& m_plan;
    std::vector<EtdumpEventJoin>& m_joins;
    const StringClasses& m_classes;
    std::unordered_map<std::uint64_t, std::vector<std::uint32_t>> m_pending;
    std::size_t m_pendingCount = 0;
    std::size_t m_outputs = 0;
};

std::string runLabel(const EtDump& dump, std::size_t r)
{
    return "block " + std::to_string(r) + " '" + dump.runs[r].name + "' (run_data[" + std::to_string(r) + "])";
}

} // namespace

int EtdumpSources::methodIndex(std::string_view name) const noexcept
{
    for (std::size_t i = 0; i < methods.size(); ++i)
        if (methods[i].name == name)
            return int(i);
    return -1;
}

std::string kernelEventName(const Operator& op)
{
    const auto sep = op.name.rfind("::");
    std::string s = "native_call_" + (sep == std::string::npos ? op.name : op.name.substr(sep + 2));
    if (!op.overload.empty())
        s += "." + op.overload;
    return s;
}

std::string nodeOpType(const Node& node)
{
    if (!node.ns.empty() && !node.op.empty())
        return node.ns + "." + node.op + "." + (node.overload.empty() ? std::string("default") : node.overload);
    const auto dot = node.target.rfind('.');
    return dot == std::string::npos ? node.target : node.target.substr(dot + 1);
}

std::shared_ptr<const EtdumpSources> makeEtdumpSources(std::shared_ptr<const Program> program, const EtRecordMaps* maps,
    const std::vector<std::pair<std::string, std::shared_ptr<const ExportedProgram>>>& graphs)
{
    auto out = std::make_shared<EtdumpSources>();
    out->program = program;
    // Without a program, the methods are those the maps and graphs name (the Inspector's situation).
    std::vector<std::pair<std::string, const ExecutionPlan*>> methods;
    if (program) {
        for (const auto& plan : program->executionPlan)
            methods.emplace_back(plan.name, &plan);
    } else {
        auto addName = [&](const std::string& name) {
            if (std::none_of(methods.begin(), methods.end(), [&](const auto& m) { return m.first == name; }))
                methods.emplace_back(name, nullptr);
        };
        if (maps) {
            for (const auto& [name, handles] : maps->debugHandleMap)
                addName(name);
            for (const auto& [name, entries] : maps->delegateMap)
                addName(name);
        }
        for (const auto& [name, graph] : graphs)
            addName(name);
        // "forward" first: the Inspector joins every block to it.
        std::stable_partition(methods.begin(), methods.end(), [](const auto& m) { return m.first == "forward"; });
    }
    for (const auto& [name, planPtr] : methods) {
        EtdumpMethodSource m;
        m.name = name;
        m.plan = planPtr;
        if (maps) {
            if (const auto it = maps->debugHandleMap.find(name); it != maps->debugHandleMap.end())
                m.debugHandles = it->second;
            if (const auto it = maps->delegateMap.find(name); it != maps->delegateMap.end())
                m.delegateMap = it->second;
        }
        for (const auto& [graphName, graph] : graphs)
            if (graphName == name)
                m.graph = graph;
        out->methods.push_back(std::move(m));
    }
    return out;
}

std::shared_ptr<const EtdumpSources> makeEtdumpSources(std::shared_ptr<const Program> program,
    const EmitterOutput& emitted,
    const std::vector<std::pair<std::string, std::shared_ptr<const ExportedProgram>>>& graphs)
{
    EtRecordMaps maps;
    maps.debugHandleMap = emitted.debugHandleMap;
    maps.delegateMap = emitted.methodToDelegateDebugIdMap;
    auto sources = makeEtdumpSources(std::move(program), &maps, graphs);
    auto out = std::make_shared<EtdumpSources>(*sources);
    for (auto& m : out->methods)
        if (const auto it = emitted.methods.find(m.name); it != emitted.methods.end())
            for (const auto& [instruction, nodes] : it->second.instructionNodes)
                m.instructionNodes.emplace(instruction, nodes);
    return out;
}

std::vector<std::uint32_t> EtdumpJoin::nodes(int method, std::span<const std::int64_t> hs) const
{
    std::vector<std::uint32_t> out;
    if (method < 0 || std::size_t(method) >= handleNodes.size())
        return out;
    const auto& index = handleNodes[std::size_t(method)];
    for (const auto h : hs)
        if (const auto it = index.find(h); it != index.end())
            for (const auto n : it->second)
                if (std::find(out.begin(), out.end(), n) == out.end())
                    out.push_back(n);
    return out;
}

bool EtdumpJoin::hasMismatch() const noexcept
{
    return std::any_of(runs.begin(), runs.end(), [](const EtdumpRunJoin& r) { return !r.problem.empty(); });
}

std::string EtdumpJoin::mismatchSummary() const
{
    const auto run = std::find_if(runs.begin(), runs.end(), [](const EtdumpRunJoin& r) { return !r.problem.empty(); });
    if (run == runs.end())
        return {};
    std::string text = "this ETDump was recorded from another program: ";
    const std::string method = sources && run->checkedMethod >= 0
            && std::size_t(run->checkedMethod) < sources->methods.size() && sources->methods.size() > 1
        ? " of method '" + sources->methods[std::size_t(run->checkedMethod)].name + "'"
        : std::string();
    if (run->instructionsReached > run->instructionsExpected)
        return text + std::to_string(run->instructionsExpected) + " instructions expected" + method + ", "
            + std::to_string(run->instructionsReached) + " found";
    return text + run->disagreement;
}

const Instruction* EtdumpJoin::instruction(const EtdumpEventJoin& e) const noexcept
{
    if (!sources || e.method < 0 || std::size_t(e.method) >= sources->methods.size() || e.instruction < 0)
        return nullptr;
    const auto* plan = sources->methods[std::size_t(e.method)].plan;
    if (!plan || e.chain < 0 || std::size_t(e.chain) >= plan->chains.size())
        return nullptr;
    const auto& chain = plan->chains[std::size_t(e.chain)];
    return std::size_t(e.instruction) < chain.instructions.size() ? &chain.instructions[std::size_t(e.instruction)]
                                                                  : nullptr;
}

Result<std::shared_ptr<const EtdumpJoin>> joinEtdump(std::shared_ptr<const EtDump> dumpPtr,
    std::shared_ptr<const EtdumpSources> sourcesPtr, const EtdumpJoinOptions& options)
{
    auto join = std::make_shared<EtdumpJoin>();
    join->dump = dumpPtr;
    join->sources = sourcesPtr ? sourcesPtr : std::make_shared<const EtdumpSources>();
    const EtDump& dump = *dumpPtr;
    const EtdumpSources& sources = *join->sources;
    int forced = -1;
    if (!options.method.empty()) {
        forced = sources.methodIndex(options.method);
        if (forced < 0)
            return fail(
                ErrorCode::InvalidInput, "the program has no method '" + options.method + "' to join the ETDump to");
    }
    join->events.resize(dump.events.size());
    join->runs.resize(dump.runs.size());
    auto diag = [&](Severity s, std::string msg, const EtdumpRun& run, std::size_t r) {
        join->diagnostics.push_back(Diagnostic {
            s, ErrorCode::InvalidInput, std::move(msg), run.fileOffset, base::indexPath("run_data", r), dump.path });
    };

    // Graph index: debug handle -> nodes, per method. From the nodes' handles (parsed, or their "debug_handle"
    // metadata), then from the emitter's instruction nodes for handles the emitter numbered itself.
    join->handleNodes.resize(sources.methods.size());
    for (std::size_t m = 0; m < sources.methods.size(); ++m) {
        const auto& src = sources.methods[m];
        if (!src.graph)
            continue;
        auto& index = join->handleNodes[m];
        const auto& nodes = src.graph->graph.nodes;
        for (std::size_t n = 0; n < nodes.size(); ++n) {
            if (!nodes[n].debugHandles.empty()) {
                for (const auto h : nodes[n].debugHandles)
                    index[h].push_back(std::uint32_t(n));
            } else if (const auto h = firstDebugHandle(nodes[n])) {
                index[*h].push_back(std::uint32_t(n));
            }
        }
        if (src.instructionNodes.empty())
            continue;
        std::unordered_map<std::string_view, std::uint32_t> byName;
        for (std::size_t n = 0; n < nodes.size(); ++n)
            byName.emplace(nodes[n].name, std::uint32_t(n));
        for (const auto& [instruction, names] : src.instructionNodes) {
            const auto handles = src.debugHandles.find(instruction);
            if (handles == src.debugHandles.end())
                continue;
            const auto& hs = handles->second;
            for (std::size_t k = 0; k < hs.size(); ++k) {
                if (index.count(hs[k]))
                    continue;
                // Handles and nodes pair up by position; a single node takes every handle.
                const std::size_t which = names.size() == hs.size() ? k : names.size() == 1 ? 0 : names.size();
                if (which >= names.size())
                    continue;
                if (const auto it = byName.find(names[which]); it != byName.end())
                    index[hs[k]].push_back(it->second);
            }
        }
    }

    // Attribute blocks to methods.
    const StringClasses classes(dump);
    std::vector<std::vector<std::string>> kernels;
    for (const auto& m : sources.methods)
        kernels.push_back(kernelNames(m));
    int previous = -1;
    std::size_t loads = 0;
    for (std::size_t r = 0; r < dump.runs.size(); ++r) {
        const auto& run = dump.runs[r];
        auto& rj = join->runs[r];
        rj.kind = run.name == "Default" ? EtdumpRunKind::Load
            : run.name == "Execute"     ? EtdumpRunKind::Execute
                                        : EtdumpRunKind::Other;
        if (rj.kind == EtdumpRunKind::Load) {
            ++loads;
            previous = -1;
            continue;
        }
        if (sources.methods.empty())
            continue;
        std::vector<int> candidates;
        std::vector<BlockCheck> checks(sources.methods.size());
        bool anyInstructionEvent = false;
        for (std::size_t m = 0; m < sources.methods.size(); ++m) {
            if (forced >= 0 && int(m) != forced)
                continue;
            checks[m] = checkBlock(dump, run, sources.methods[m], classes, kernels[m]);
            anyInstructionEvent = anyInstructionEvent || checks[m].checked > 0;
            if (checks[m].disagreements == 0)
                candidates.push_back(int(m));
        }
        if (candidates.empty()) {
            // Report against the method that disagrees least.
            std::size_t best = 0;
            for (std::size_t m = 0; m < checks.size(); ++m)
                if ((forced < 0 || int(m) == forced) && checks[m].disagreements > 0
                    && (checks[best].disagreements == 0 || checks[m].disagreements < checks[best].disagreements))
                    best = m;
            const auto& c = checks[best];
            rj.problem = "the ETDump does not match the program: in " + runLabel(dump, r) + ", " + c.first
                + (c.disagreements > 1 ? " (and " + std::to_string(c.disagreements - 1) + " more of its "
                            + std::to_string(c.checked) + " instruction events disagree)"
                                       : std::string())
                + (sources.methods.size() > 1 && forced < 0 ? "; no other method matches either" : "")
                + ". Its events are not joined.";
            rj.disagreement = c.first;
            rj.checkedMethod = std::int32_t(best);
            rj.instructionsReached = c.reached;
            if (const auto* plan = sources.methods[best].plan; plan && !plan->chains.empty())
                rj.instructionsExpected = plan->chains.front().instructions.size();
            diag(Severity::Error, rj.problem, run, r);
            continue;
        }
        int chosen = candidates.front();
        if (candidates.size() > 1) {
            const auto has = [&](int m) {
                return std::find(candidates.begin(), candidates.end(), m) != candidates.end();
            };
            if (previous >= 0 && has(previous))
                chosen = previous;
            else if (loads > 0 && loads <= sources.methods.size() && has(int(loads - 1)))
                chosen = int(loads - 1);
            if (anyInstructionEvent) {
                std::string names;
                for (const int m : candidates)
                    names += (names.empty() ? "'" : ", '") + sources.methods[std::size_t(m)].name + "'";
                diag(Severity::Info,
                    runLabel(dump, r) + " agrees with methods " + names + "; it was attributed to '"
                        + sources.methods[std::size_t(chosen)].name + "' by the order of the blocks",
                    run, r);
            }
        }
        rj.method = chosen;
        rj.joined = true;
        previous = chosen;
    }
    // A load block belongs to the method of the executions that follow it (else: program order).
    {
        std::size_t loadIndex = 0;
        for (std::size_t r = 0; r < dump.runs.size(); ++r) {
            if (join->runs[r].kind != EtdumpRunKind::Load)
                continue;
            int method = -1;
            for (std::size_t k = r + 1; k < dump.runs.size() && join->runs[k].kind != EtdumpRunKind::Load; ++k)
                if (join->runs[k].method >= 0) {
                    method = join->runs[k].method;
                    break;
                }
            if (method < 0 && loadIndex < sources.methods.size())
                method = int(loadIndex);
            join->runs[r].method = method;
            ++loadIndex;
        }
    }

    // Join the events of attributed blocks.
    std::size_t valueMismatches = 0;
    std::uint32_t firstMismatch = 0;
    for (std::size_t r = 0; r < dump.runs.size(); ++r) {
        const auto& run = dump.runs[r];
        const auto& rj = join->runs[r];
        if (rj.method < 0)
            continue;
        const auto& m = sources.methods[std::size_t(rj.method)];
        std::optional<ValueMapper> mapper;
        if (rj.joined && m.plan)
            mapper.emplace(dump, *m.plan, join->events, classes);
        for (std::uint32_t i = run.firstEvent; i < run.firstEvent + run.eventCount; ++i) {
            const auto& e = dump.events[i];
            auto& j = join->events[i];
            j.method = rj.method;
            if (!rj.joined || !e.inInstruction())
                continue;
            j.chain = std::int32_t(e.chainIndex);
            j.instruction = e.instructionId;
            const std::vector<std::int64_t>* hs = nullptr;
            if (e.isDelegateEvent()) {
                const auto entry = m.delegateMap.find(e.instructionId);
                if (entry == m.delegateMap.end()) {
                    j.mapping = DelegateMapping::NoMap;
                } else {
                    const auto id = dump.delegateIdentifier(e);
                    const auto found = entry->second.delegateMap.find(id);
                    j.mapping =
                        found == entry->second.delegateMap.end() ? DelegateMapping::Unmapped : DelegateMapping::Mapped;
                    if (found != entry->second.delegateMap.end())
                        hs = &found->second;
                }
            } else if (const auto it = m.debugHandles.find(e.instructionId); it != m.debugHandles.end()) {
                hs = &it->second;
            }
            if (hs && !hs->empty()) {
                j.handlesBegin = std::uint32_t(join->handles.size());
                j.handlesCount = std::uint32_t(hs->size());
                join->handles.insert(join->handles.end(), hs->begin(), hs->end());
            }
        }
        if (mapper) {
            for (std::uint32_t i = run.firstEvent; i < run.firstEvent + run.eventCount; ++i)
                mapper->add(i);
            mapper->finish();
        }
        for (std::uint32_t i = run.firstEvent; i < run.firstEvent + run.eventCount; ++i)
            if (join->events[i].valueMismatch && !valueMismatches++)
                firstMismatch = i;
    }
    if (valueMismatches) {
        const auto& e = dump.events[firstMismatch];
        const auto& j = join->events[firstMismatch];
        join->diagnostics.push_back(Diagnostic { Severity::Warning, ErrorCode::InvalidInput,
            std::to_string(valueMismatches)
                + " logged value(s) differ in kind, dtype or static shape from the program value they should be "
                  "(first: "
                + (j.outputIndex >= 0 ? "output " + std::to_string(j.outputIndex)
                                      : "instruction " + std::to_string(e.instructionId))
                + ", value " + std::to_string(j.value) + ")",
            e.fileOffset, {}, dump.path });
    }
    return std::shared_ptr<const EtdumpJoin>(std::move(join));
}

} // namespace pte
