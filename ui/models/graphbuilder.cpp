// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "models/graphbuilder.h"

#include "models/text.h"
#include "pte/delegatecall.h"
#include "pte/graphtext.h"
#include "pte/kernelarguments.h"
#include "pte/methoddataflow.h"
#include "pte/operatorname.h"

#include <QHash>

#include <algorithm>
#include <set>
#include <unordered_map>

namespace pte::ui {

namespace {

void collectNames(const pte::Argument& arg, std::vector<const std::string*>& out)
{
    for (const auto& n : arg.names)
        if (!n.empty())
            out.push_back(&n);
    for (const auto& c : arg.children)
        collectNames(c, out);
}

QString argumentSummary(const pte::Argument& arg) { return toQString(pte::argumentText(arg)); }

QString tensorText(const pte::Graph& g, const std::string& name)
{
    const auto it = g.tensorValues.find(name);
    if (it == g.tensorValues.end())
        return toQString(name);
    return QStringLiteral("%1: %2%3").arg(toQString(name), dtypeName(it->second.dtype), formatShape(it->second.sizes));
}

/** What emission made of a dump's nodes: instructions per node, and the debug handles it numbered. */
struct EmittedNodes
{
    std::unordered_map<std::string, std::vector<std::int64_t>> handles;
    std::unordered_map<std::string, std::vector<std::int32_t>> instructions;
};

EmittedNodes emittedNodes(const MethodEntry* entry)
{
    EmittedNodes out;
    if (!entry || !entry->emitInfo)
        return out;
    for (const auto& [id, names] : entry->emitInfo->instructionNodes) {
        for (const auto& name : names)
            out.instructions[name].push_back(id);
        // A kernel call comes from one node: its handles are that node's (a delegate call's are its nodes').
        if (names.size() == 1 && entry->debugHandles) {
            const auto it = entry->debugHandles->find(std::int64_t(id));
            if (it != entry->debugHandles->end()) {
                auto& hs = out.handles[names.front()];
                for (const auto h : it->second)
                    if (std::find(hs.begin(), hs.end(), h) == hs.end())
                        hs.push_back(h);
            }
        }
    }
    return out;
}

QString nodeDetails(const pte::Graph& g, const pte::Node& n, const QStringList& modules, const EmittedNodes& emitted)
{
    QString d;
    d += QStringLiteral("Node: %1\nTarget: %2\n").arg(toQString(n.name), toQString(n.target));
    if (n.targetKind == pte::TargetKind::OpOverload)
        d += QStringLiteral("Operator: %1\n").arg(toQString(n.qualifiedOp()));
    if (!n.debugHandles.empty()) {
        d += QStringLiteral("Debug handle: %1\n").arg(formatIntList(n.debugHandles));
    } else if (const auto it = emitted.handles.find(n.name); it != emitted.handles.end()) {
        d += QStringLiteral("Debug handle: %1 (numbered by emission: the dump has none)\n")
                 .arg(formatIntList(it->second));
    }
    if (const auto it = emitted.instructions.find(n.name); it != emitted.instructions.end()) {
        QStringList ids;
        for (const auto id : it->second)
            ids << QString::number(id);
        d += QStringLiteral("Instructions: %1\n").arg(ids.join(QStringLiteral(", ")));
    }
    if (!modules.isEmpty())
        d += QStringLiteral("Module path: %1\n").arg(modules.join(QStringLiteral(" › ")));
    else if (n.metadata.count("nn_module_stack"))
        d += QStringLiteral("Module path: (top level)\n");
    d += QStringLiteral("\nArguments:\n");
    for (const auto& in : n.inputs)
        d += QStringLiteral("  %1 = %2\n")
                 .arg(in.name.empty() ? QStringLiteral("_") : toQString(in.name), argumentSummary(in.arg));
    d += QStringLiteral("\nOutputs:\n");
    for (const auto& out : n.outputs) {
        std::vector<const std::string*> names;
        collectNames(out, names);
        if (names.empty())
            d += QStringLiteral("  %1\n").arg(argumentSummary(out));
        for (const auto* name : names)
            d += QStringLiteral("  %1\n").arg(tensorText(g, *name));
    }
    for (const auto& [key, value] : n.metadata) {
        // The module stack reads as the module path above, not as its raw "L__self__,,Net;…" form.
        if (key == "debug_handle" || key == "nn_module_stack")
            continue;
        d += QStringLiteral("\n%1:\n%2\n").arg(toQString(key), toQString(value));
    }
    return d;
}

QString shortOp(const pte::Node& n)
{
    if (!n.op.empty())
        return pte::isDefaultOverload(n.overload) ? toQString(n.op)
                                                  : toQString(n.op) + QLatin1Char('.') + toQString(n.overload);
    QString t = toQString(n.target);
    const auto dot = t.lastIndexOf(QLatin1Char('.'));
    return dot >= 0 ? t.mid(dot + 1) : t;
}

void addEdge(GraphData& g, std::set<std::pair<int, int>>& seen, int from, int to, bool throughMemory = false)
{
    if (from == to || from < 0 || to < 0)
        return;
    if (seen.insert({ from, to }).second)
        g.edges.push_back(GraphEdge { from, to, throughMemory });
}

/** Groups nodes by `key` (empty key = keep the node); edges are merged. */
GraphData collapse(const GraphData& in, const std::vector<QString>& keys, const QString& clusterSuffix)
{
    GraphData out;
    out.method = in.method;
    out.instructionGraph = in.instructionGraph;
    out.collapsed = true;
    out.originalNodeCount = in.originalNodeCount;
    std::vector<int> map(in.nodes.size(), -1);
    QHash<QString, int> clusters;
    for (std::size_t i = 0; i < in.nodes.size(); ++i) {
        const QString& key = keys[i];
        if (key.isEmpty()) {
            map[i] = int(out.nodes.size());
            out.nodes.push_back(in.nodes[i]);
            continue;
        }
        auto it = clusters.find(key);
        if (it == clusters.end()) {
            GraphNode c;
            c.kind = GraphNode::Kind::Cluster;
            c.label = key;
            c.modulePath = key;
            it = clusters.insert(key, int(out.nodes.size()));
            out.nodes.push_back(std::move(c));
        }
        GraphNode& c = out.nodes[std::size_t(*it)];
        const GraphNode& n = in.nodes[i];
        c.members += n.members;
        c.debugHandles.insert(c.debugHandles.end(), n.debugHandles.begin(), n.debugHandles.end());
        const int first = n.instruction >= 0 ? n.instruction : n.firstInstruction;
        const int last = n.instruction >= 0 ? n.instruction : n.lastInstruction;
        if (first >= 0 && (c.firstInstruction < 0 || first < c.firstInstruction))
            c.firstInstruction = first;
        if (last >= 0 && last > c.lastInstruction)
            c.lastInstruction = last;
        map[i] = *it;
    }
    for (auto& n : out.nodes)
        if (n.kind == GraphNode::Kind::Cluster) {
            n.subtitle = counted(n.members.size(), clusterSuffix.chopped(1)); // "nodes" -> "1 node", "12 nodes"
            n.details = QStringLiteral("Collapsed group %1\n%2:\n%3")
                            .arg(n.label)
                            .arg(counted(n.members.size(), QStringLiteral("node")))
                            .arg(n.members.mid(0, 200).join(QStringLiteral("\n")));
        }
    std::set<std::pair<int, int>> seen;
    for (const auto& e : in.edges)
        addEdge(out, seen, map[std::size_t(e.from)], map[std::size_t(e.to)], e.throughMemory);
    return out;
}

/**
 * The graph of a dump: the method's own (`emitted` gives what emission made of its nodes, or nullptr), or a
 * lowered module's original program (`loweredModule` names it).
 */
GraphData buildDumpGraph(const pte::ExportedProgram& ep, const QString& method, const MethodEntry* emitted,
    const QString& loweredModule, int threshold, const std::atomic<bool>* cancel, const QSet<QString>& expanded,
    bool groupByModule)
{
    const pte::Graph& g = ep.graph;
    GraphData out;
    out.method = method;
    out.loweredModule = loweredModule;
    const EmittedNodes emittedInfo = emittedNodes(emitted);
    std::unordered_map<std::string, int> producer;
    std::unordered_map<std::string, const pte::InputSpec*> specs;
    for (const auto& s : ep.signature.inputSpecs)
        if (!s.arg.names.empty())
            specs[s.arg.names[0]] = &s;
    std::vector<QStringList> modules;
    for (const auto& in : g.inputs) {
        std::vector<const std::string*> names;
        collectNames(in, names);
        for (const auto* name : names) {
            GraphNode n;
            const auto it = specs.find(*name);
            const bool user = it == specs.end() || it->second->kind == pte::InputKind::UserInput;
            n.kind = user ? GraphNode::Kind::Input : GraphNode::Kind::Constant;
            n.label = toQString(*name);
            n.subtitle = user ? QStringLiteral("input") : QLatin1String(pte::inputKindName(it->second->kind));
            n.members << n.label;
            n.details = QStringLiteral("Placeholder %1\n%2\n").arg(n.label, tensorText(g, *name));
            if (it != specs.end())
                n.details +=
                    QStringLiteral("Kind: %1\nTarget: %2\n")
                        .arg(QLatin1String(pte::inputKindName(it->second->kind)), toQString(it->second->target));
            producer[*name] = int(out.nodes.size());
            out.nodes.push_back(std::move(n));
            modules.emplace_back();
        }
    }
    for (std::size_t i = 0; i < g.nodes.size(); ++i) {
        if (cancel && (i & 1023) == 0 && cancel->load())
            return {};
        const pte::Node& node = g.nodes[i];
        GraphNode n;
        const bool delegate = node.op == "executorch_call_delegate";
        n.kind = delegate ? GraphNode::Kind::Delegate : GraphNode::Kind::Operator;
        n.label = shortOp(node);
        n.subtitle = toQString(node.name);
        n.members << toQString(node.name);
        n.debugHandles = node.debugHandles;
        if (n.debugHandles.empty())
            if (const auto it = emittedInfo.handles.find(node.name); it != emittedInfo.handles.end())
                n.debugHandles = it->second;
        QStringList mods;
        const auto stack = node.metadata.find("nn_module_stack");
        if (stack != node.metadata.end())
            mods = modulePaths(stack->second);
        n.modulePath = mods.isEmpty() ? QString() : mods.back();
        n.details = nodeDetails(g, node, mods, emittedInfo);
        if (delegate)
            if (const auto lowered = pte::loweredModuleFor(ep, node)) {
                for (const auto& [key, module] : ep.loweredModules)
                    if (module == lowered)
                        n.loweredModule = toQString(key);
                if (lowered->originalModule)
                    for (const auto& inner : lowered->originalModule->graph.nodes)
                        n.absorbed << n.loweredModule + QLatin1Char('/') + toQString(inner.name);
                n.details += QStringLiteral("\nLowered module %1 (%2): %3 nodes of its original program run inside "
                                            "the backend%4\n")
                                 .arg(n.loweredModule, toQString(lowered->backendId))
                                 .arg(n.absorbed.size())
                                 .arg(lowered->originalModule
                                         ? QStringLiteral("; double-click or press Enter to open that program")
                                         : QString());
                if (!n.absorbed.isEmpty())
                    n.details += QStringLiteral("  %1\n").arg(n.absorbed.join(QStringLiteral("\n  ")));
            }
        const int index = int(out.nodes.size());
        out.nodes.push_back(std::move(n));
        modules.push_back(mods);
        std::vector<const std::string*> ins;
        for (const auto& a : node.inputs)
            collectNames(a.arg, ins);
        std::set<std::pair<int, int>> dummy;
        for (const auto* name : ins) {
            const auto it = producer.find(*name);
            if (it != producer.end())
                out.edges.push_back(GraphEdge { it->second, index });
        }
        producer[node.name] = index;
        std::vector<const std::string*> outs;
        for (const auto& o : node.outputs)
            collectNames(o, outs);
        for (const auto* name : outs)
            producer[*name] = index;
    }
    {
        GraphNode n;
        n.kind = GraphNode::Kind::Output;
        n.label = QStringLiteral("output");
        n.members << QStringLiteral("output");
        n.details = QStringLiteral("Graph outputs:\n");
        const int index = int(out.nodes.size());
        std::vector<const std::string*> outs;
        for (const auto& o : g.outputs)
            collectNames(o, outs);
        for (std::size_t k = 0; k < outs.size(); ++k) {
            QString kind;
            if (k < ep.signature.outputSpecs.size())
                kind = QLatin1String(pte::outputKindName(ep.signature.outputSpecs[k].kind));
            n.details += QStringLiteral("  %1 %2\n").arg(tensorText(g, *outs[k]), kind);
            const auto it = producer.find(*outs[k]);
            if (it != producer.end())
                out.edges.push_back(GraphEdge { it->second, index });
        }
        n.subtitle = counted(qint64(outs.size()), QStringLiteral("value"));
        out.nodes.push_back(std::move(n));
        modules.emplace_back();
    }
    // Deduplicate edges.
    std::sort(out.edges.begin(), out.edges.end(),
        [](const GraphEdge& a, const GraphEdge& b) { return std::pair(a.from, a.to) < std::pair(b.from, b.to); });
    out.edges.erase(std::unique(out.edges.begin(), out.edges.end(),
                        [](const GraphEdge& a, const GraphEdge& b) { return a.from == b.from && a.to == b.to; }),
        out.edges.end());
    out.originalNodeCount = int(out.nodes.size());
    if (groupByModule) {
        // The module hierarchy at every size, as Model Explorer shows it: each node in its outermost module not
        // expanded (an expanded module shows its submodules, then its own nodes); parameters and buffers together.
        const QString constants = QStringLiteral("parameters and buffers");
        std::vector<QString> keys(out.nodes.size());
        QHash<QString, int> members;
        for (std::size_t i = 0; i < out.nodes.size(); ++i) {
            if (out.nodes[i].kind == GraphNode::Kind::Constant) {
                if (!expanded.contains(constants))
                    keys[i] = constants;
            } else {
                for (const auto& m : modules[i])
                    if (!expanded.contains(m)) {
                        keys[i] = m;
                        break;
                    }
            }
            if (!keys[i].isEmpty())
                ++members[keys[i]];
        }
        bool grouped = false;
        for (auto& k : keys) {
            if (!k.isEmpty() && members.value(k) < 2)
                k.clear(); // a group of one node is that node
            grouped = grouped || !k.isEmpty();
        }
        return grouped ? collapse(out, keys, QStringLiteral("nodes")) : out;
    }
    if (int(out.nodes.size()) <= threshold)
        return out;
    // Collapse by module path: the deepest level that fits under the threshold.
    int maxDepth = 0;
    for (const auto& m : modules)
        maxDepth = std::max(maxDepth, int(m.size()));
    auto keysAt = [&](int depth) {
        std::vector<QString> keys(out.nodes.size());
        for (std::size_t i = 0; i < out.nodes.size(); ++i) {
            if (out.nodes[i].kind == GraphNode::Kind::Constant)
                keys[i] = QStringLiteral("parameters and buffers");
            else if (!modules[i].isEmpty())
                keys[i] = modules[i][std::min<qsizetype>(depth, modules[i].size()) - 1];
            if (keys[i].isEmpty() && out.nodes[i].kind == GraphNode::Kind::Operator)
                keys[i] = QStringLiteral("(top level)");
        }
        return keys;
    };
    GraphData best;
    int bestDepth = 0;
    for (int depth = maxDepth; depth >= 1; --depth) {
        best = collapse(out, keysAt(depth), QStringLiteral("nodes"));
        bestDepth = depth;
        if (int(best.nodes.size()) <= threshold)
            break;
    }
    if (best.nodes.empty())
        return out;
    if (!expanded.isEmpty()) {
        // Expanded groups show their own nodes; the depth stays the one chosen without expansions.
        std::vector<QString> keys = keysAt(bestDepth);
        for (auto& k : keys)
            if (expanded.contains(k))
                k.clear();
        best = collapse(out, keys, QStringLiteral("nodes"));
    }
    return best;
}

GraphData buildInstructionGraph(
    const MethodEntry& entry, int threshold, const std::atomic<bool>* cancel, const QSet<QString>& expanded)
{
    const pte::ExecutionPlan& plan = *entry.plan;
    GraphData out;
    out.method = toQString(entry.name);
    out.instructionGraph = true;
    // Which node writes and reads which value, through planned memory where values share bytes (core).
    auto flow = pte::methodDataFlow(plan, cancel);
    if (!flow)
        return {};
    for (const auto v : plan.inputs) {
        GraphNode n;
        n.kind = GraphNode::Kind::Input;
        n.label = QStringLiteral("input ") + valueRef(v);
        if (v >= 0 && std::size_t(v) < plan.values.size())
            n.subtitle = describeValue(plan.values[std::size_t(v)]);
        n.members << n.label;
        n.details = QStringLiteral("Method input value %1\n%2").arg(v).arg(n.subtitle);
        out.nodes.push_back(std::move(n));
    }
    QStringList opNames;
    std::vector<std::vector<pte::KernelArgumentInfo>> opArgs;
    for (const auto& op : plan.operators) {
        opNames << toQString(op.qualifiedName());
        opArgs.push_back(pte::kernelArguments(op.name, op.overload));
    }
    const auto& instructions = plan.chains.empty() ? std::vector<pte::Instruction> {} : plan.chains[0].instructions;
    for (std::size_t i = 0; i < instructions.size(); ++i) {
        if (cancel && (i & 4095) == 0 && cancel->load())
            return {};
        const auto& ins = instructions[i];
        GraphNode n;
        n.kind = GraphNode::Kind::Instruction;
        n.instruction = int(i);
        n.subtitle = QStringLiteral("#%1").arg(i);
        std::vector<std::int32_t> args;
        const std::vector<pte::KernelArgumentInfo>* schema = nullptr; ///< the arguments' names
        if (const auto* k = std::get_if<pte::KernelCall>(&ins.args)) {
            n.label = k->opIndex >= 0 && k->opIndex < opNames.size() ? opNames[k->opIndex] : QStringLiteral("?");
            args = k->args;
            if (k->opIndex >= 0 && std::size_t(k->opIndex) < opArgs.size()
                && opArgs[std::size_t(k->opIndex)].size() == args.size())
                schema = &opArgs[std::size_t(k->opIndex)];
        } else if (const auto* d = std::get_if<pte::DelegateCall>(&ins.args)) {
            n.kind = GraphNode::Kind::Delegate;
            n.label = d->delegateIndex >= 0 && std::size_t(d->delegateIndex) < plan.delegates.size()
                ? toQString(plan.delegates[std::size_t(d->delegateIndex)].id)
                : QStringLiteral("delegate");
            args = d->args;
        } else if (const auto* m = std::get_if<pte::MoveCall>(&ins.args)) {
            n.label = QStringLiteral("move");
            args = { m->moveFrom, m->moveTo };
        } else if (const auto* j = std::get_if<pte::JumpFalseCall>(&ins.args)) {
            n.label = QStringLiteral("jump_false → %1").arg(j->destinationInstruction);
            args = { j->condValueIndex };
        } else if (const auto* f = std::get_if<pte::FreeCall>(&ins.args)) {
            n.label = QStringLiteral("free");
            args = { f->valueIndex };
        } else {
            n.label = QStringLiteral("NONE");
        }
        n.members << QStringLiteral("#%1").arg(i);
        if (entry.debugHandles) {
            const auto it = entry.debugHandles->find(std::int64_t(i));
            if (it != entry.debugHandles->end())
                n.debugHandles = it->second;
        }
        if (entry.emitInfo) {
            const auto it = entry.emitInfo->instructionNodes.find(std::int32_t(i));
            if (it != entry.emitInfo->instructionNodes.end())
                for (const auto& name : it->second)
                    n.members << toQString(name);
        }
        n.details = QStringLiteral("Instruction %1: %2\n%3\n\nArguments:\n")
                        .arg(i)
                        .arg(QLatin1String(pte::instructionKindName(ins.kind())), n.label);
        for (std::size_t k = 0; k < args.size(); ++k) {
            const auto a = args[k];
            const QString name = schema ? toQString((*schema)[k].name) + QStringLiteral(": ") : QString();
            n.details +=
                QStringLiteral("  %1%2 %3\n")
                    .arg(name, valueRef(a),
                        a >= 0 && std::size_t(a) < plan.values.size() ? describeValue(plan.values[std::size_t(a)])
                                                                      : QStringLiteral("(None)"));
        }
        if (!n.debugHandles.empty())
            n.details += QStringLiteral("\nDebug handles: %1\n").arg(formatIntList(n.debugHandles));
        if (n.members.size() > 1)
            n.details += QStringLiteral("Graph nodes: %1\n").arg(n.members.mid(1).join(QStringLiteral(", ")));
        out.nodes.push_back(std::move(n));
    }
    GraphNode output;
    output.kind = GraphNode::Kind::Output;
    output.label = QStringLiteral("output");
    output.subtitle = counted(qint64(plan.outputs.size()), QStringLiteral("value"));
    output.members << QStringLiteral("output");
    output.details = QStringLiteral("Method outputs:\n");
    for (const auto v : plan.outputs) {
        if (v < 0 || std::size_t(v) >= plan.values.size())
            continue;
        output.details += QStringLiteral("  %1 %2\n").arg(valueRef(v), describeValue(plan.values[std::size_t(v)]));
    }
    out.nodes.push_back(std::move(output));
    // The flow's nodes are these nodes: the inputs, the instructions, the outputs.
    for (const auto& e : flow->edges)
        out.edges.push_back(GraphEdge { e.from, e.to, e.throughMemory });
    out.originalNodeCount = int(out.nodes.size());
    if (int(out.nodes.size()) <= threshold)
        return out;
    // Collapse consecutive instruction ranges.
    const int chunk = int((instructions.size() + std::size_t(threshold) - 1) / std::size_t(std::max(1, threshold / 2)));
    std::vector<QString> keys(out.nodes.size());
    for (std::size_t i = 0; i < out.nodes.size(); ++i) {
        const int ins = out.nodes[i].instruction;
        if (ins >= 0) {
            const int first = ins / chunk * chunk;
            keys[i] = QStringLiteral("instructions %1–%2")
                          .arg(first)
                          .arg(std::min<int>(first + chunk, int(instructions.size())) - 1);
            if (expanded.contains(keys[i]))
                keys[i].clear(); // an expanded range shows its instructions
        }
    }
    return collapse(out, keys, QStringLiteral("instructions"));
}

} // namespace

QStringList modulePaths(const std::string& nnModuleStack)
{
    QStringList out;
    for (const auto& path : pte::nnModulePaths(nnModuleStack))
        out << toQString(path);
    return out;
}

GraphData buildGraph(const Snapshot& snapshot, const QString& method, int collapseThreshold,
    const std::atomic<bool>* cancel, const QSet<QString>& expanded, const QString& loweredModule, bool groupByModule)
{
    const MethodEntry* entry = snapshot.method(method.toStdString());
    if (!entry)
        return {};
    if (entry->exported && !loweredModule.isEmpty()) {
        const auto it = entry->exported->loweredModules.find(loweredModule.toStdString());
        if (it == entry->exported->loweredModules.end() || !it->second || !it->second->originalModule)
            return {};
        return buildDumpGraph(*it->second->originalModule, method, nullptr, loweredModule, collapseThreshold, cancel,
            expanded, groupByModule);
    }
    if (entry->exported)
        return buildDumpGraph(*entry->exported, method, entry, {}, collapseThreshold, cancel, expanded, groupByModule);
    if (entry->plan)
        return buildInstructionGraph(*entry, collapseThreshold, cancel, expanded);
    return {};
}

} // namespace pte::ui
