// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// Inner nodes of a delegate to source-graph nodes, through debug handles.
#include "pte/delegatelink.h"

#include <algorithm>
#include <set>

namespace pte {

namespace {

constexpr int kMaxGraphDepth = 16;

/** Names of the graph values an argument refers to (tensors only; empty strings are None). */
void valueNames(const Argument& a, std::vector<std::string>& out)
{
    switch (a.kind) {
    case ArgKind::Tensor:
    case ArgKind::Tensors:
    case ArgKind::OptionalTensor:
    case ArgKind::OptionalTensors:
    case ArgKind::NestedTensors:
        for (const auto& n : a.names)
            if (!n.empty())
                out.push_back(n);
        break;
    default:
        break;
    }
}

std::string metadataOf(const Node& n, const char* key)
{
    const auto it = n.metadata.find(key);
    return it == n.metadata.end() ? std::string() : it->second;
}

} // namespace

void SourceGraphIndex::add(const std::string& name, const ExportedProgram& program)
{
    addGraph(name, program.graph, 0);
    for (const auto& [moduleName, module] : program.loweredModules)
        if (module && module->originalModule)
            add(name + "/" + moduleName, *module->originalModule);
}

void SourceGraphIndex::addGraph(const std::string& name, const Graph& graph, int depth)
{
    if (depth > kMaxGraphDepth)
        return;
    auto edges = std::make_unique<GraphEdges>();
    for (const auto& node : graph.nodes) {
        m_graphOf[&node] = edges.get();
        std::vector<std::string> names;
        for (const auto& o : node.outputs)
            valueNames(o, names);
        for (const auto& v : names)
            edges->producer.emplace(v, &node);
        names.clear();
        for (const auto& in : node.inputs) {
            valueNames(in.arg, names);
            if (in.arg.kind == ArgKind::Graph && in.arg.graph)
                addGraph(name + "/" + (in.arg.strings.empty() ? in.name : in.arg.strings[0]), *in.arg.graph, depth + 1);
        }
        for (const auto& v : names)
            edges->consumers[v].push_back(&node);
        // A delegate call node carries its partition's handles; the nodes it stands for are in the lowered module.
        const bool delegateCall = node.targetKind == TargetKind::HigherOrder && node.op == "executorch_call_delegate";
        for (const auto h : node.debugHandles) {
            if (h == kBackendInsertedHandle || delegateCall)
                continue;
            SourceNodeRef ref;
            ref.handle = h;
            ref.graph = name;
            ref.name = node.name;
            ref.target = node.qualifiedOp();
            ref.stackTrace = metadataOf(node, "stack_trace");
            ref.moduleStack = metadataOf(node, "nn_module_stack");
            ref.node = &node;
            m_byHandle[h].push_back(std::move(ref));
        }
    }
    m_graphs.push_back(std::move(edges));
}

std::span<const SourceNodeRef> SourceGraphIndex::find(std::int64_t handle) const noexcept
{
    const auto it = m_byHandle.find(handle);
    if (it == m_byHandle.end())
        return {};
    return it->second;
}

std::vector<const Node*> SourceGraphIndex::producers(const Node& node) const
{
    std::vector<const Node*> out;
    const auto g = m_graphOf.find(&node);
    if (g == m_graphOf.end())
        return out;
    std::vector<std::string> names;
    for (const auto& in : node.inputs)
        valueNames(in.arg, names);
    for (const auto& v : names)
        if (const auto p = g->second->producer.find(v); p != g->second->producer.end())
            out.push_back(p->second);
    return out;
}

std::vector<const Node*> SourceGraphIndex::consumers(const Node& node) const
{
    std::vector<const Node*> out;
    const auto g = m_graphOf.find(&node);
    if (g == m_graphOf.end())
        return out;
    std::vector<std::string> names;
    for (const auto& o : node.outputs)
        valueNames(o, names);
    for (const auto& v : names)
        if (const auto c = g->second->consumers.find(v); c != g->second->consumers.end())
            out.insert(out.end(), c->second.begin(), c->second.end());
    return out;
}

std::vector<std::int64_t> innerNodeHandles(
    const InnerNode& node, const std::map<std::string, std::vector<std::int64_t>>* delegateIdentifierMap)
{
    if (!node.debugHandles.empty() || !delegateIdentifierMap || node.delegateDebugId.empty())
        return node.debugHandles;
    const auto it = delegateIdentifierMap->find(node.delegateDebugId);
    return it == delegateIdentifierMap->end() ? std::vector<std::int64_t> {} : it->second;
}

DelegateLinks linkDelegate(const DelegatePayload& payload, std::span<const std::int64_t> partitionHandles,
    const std::map<std::string, std::vector<std::int64_t>>* delegateIdentifierMap, const SourceGraphIndex* index)
{
    DelegateLinks links;
    links.partitionHandles.assign(partitionHandles.begin(), partitionHandles.end());
    std::sort(links.partitionHandles.begin(), links.partitionHandles.end());
    links.partitionHandles.erase(
        std::unique(links.partitionHandles.begin(), links.partitionHandles.end()), links.partitionHandles.end());
    const std::set<std::int64_t> partition(links.partitionHandles.begin(), links.partitionHandles.end());

    // handle -> inner nodes carrying it, in node order
    std::map<std::int64_t, std::vector<std::uint32_t>> carriers;
    links.nodeSources.resize(payload.nodes.size());
    std::set<std::int64_t> unexpected;
    for (std::size_t i = 0; i < payload.nodes.size(); ++i) {
        const auto handles = innerNodeHandles(payload.nodes[i], delegateIdentifierMap);
        if (payload.nodes[i].backendInserted())
            ++links.backendInsertedNodes;
        for (const auto h : handles) {
            if (h == kBackendInsertedHandle)
                continue;
            carriers[h].push_back(std::uint32_t(i));
            if (!partition.empty() && !partition.count(h))
                unexpected.insert(h);
            if (index)
                for (const auto& ref : index->find(h))
                    links.nodeSources[i].push_back(ref);
        }
    }
    links.unexpectedHandles.assign(unexpected.begin(), unexpected.end());

    // Handles fused away: in the partition list but on no inner node. Without a list, a single missing handle between
    // two carried ones stands in for it (handles are numbered in graph order, and a fused activation leaves exactly
    // such a hole), marked as inferred; longer runs are more likely nodes that ran outside the delegate.
    std::vector<std::pair<std::int64_t, bool>> missing;
    if (!partition.empty()) {
        for (const auto h : partition)
            if (h != kBackendInsertedHandle && !carriers.count(h))
                missing.emplace_back(h, false);
    } else if (carriers.size() > 1) {
        for (auto it = carriers.begin(); std::next(it) != carriers.end(); ++it)
            if (std::next(it)->first - it->first == 2)
                missing.emplace_back(it->first + 1, true);
    }
    auto carrierOf = [&](const Node* n, bool last) -> std::optional<std::uint32_t> {
        for (const auto h : n->debugHandles)
            if (const auto c = carriers.find(h); c != carriers.end() && !c->second.empty())
                return last ? c->second.back() : c->second.front();
        return std::nullopt;
    };
    for (const auto& [h, inferred] : missing) {
        AbsorbedHandle a;
        a.handle = h;
        a.inferred = inferred;
        if (index) {
            const auto refs = index->find(h);
            a.sources.assign(refs.begin(), refs.end());
            for (const auto& ref : refs) {
                for (const Node* p : index->producers(*ref.node))
                    if (!a.intoNode)
                        if ((a.intoNode = carrierOf(p, true)))
                            a.how = "producer";
                for (const Node* c : index->consumers(*ref.node))
                    if (!a.intoNode)
                        if ((a.intoNode = carrierOf(c, false)))
                            a.how = "consumer";
            }
        }
        if (!a.intoNode && !carriers.empty()) {
            auto above = carriers.upper_bound(h);
            if (above != carriers.begin()) {
                a.intoNode = std::prev(above)->second.back();
                a.how = "handle order";
            } else {
                a.intoNode = above->second.front();
                a.how = "handle order";
            }
        }
        links.absorbed.push_back(std::move(a));
    }
    return links;
}

DebugMapsView debugMapsView(const EtRecordMaps& maps) { return { &maps.debugHandleMap, &maps.delegateMap }; }

void addMethodGraphs(
    SourceGraphIndex& index, const std::vector<std::pair<std::string, std::shared_ptr<const ExportedProgram>>>& methods)
{
    for (const auto& [name, program] : methods)
        if (program)
            index.add(name, *program);
}

DelegateLinks linkProgramDelegate(
    const ProgramDelegate& delegate, const DebugMapsView& maps, const SourceGraphIndex* index)
{
    static const std::vector<std::int64_t> none;
    std::span<const std::int64_t> partition = none;
    const std::map<std::string, std::vector<std::int64_t>>* identifiers = nullptr;
    if (!delegate.payload)
        return {};
    if (!delegate.calls.empty()) {
        const std::int64_t instruction = delegate.calls.front().second;
        if (maps.debugHandleMap)
            if (const auto m = maps.debugHandleMap->find(delegate.methodName); m != maps.debugHandleMap->end())
                if (const auto i = m->second.find(instruction); i != m->second.end())
                    partition = i->second;
        if (maps.delegateMap)
            if (const auto m = maps.delegateMap->find(delegate.methodName); m != maps.delegateMap->end())
                if (const auto i = m->second.find(instruction); i != m->second.end())
                    identifiers = &i->second.delegateMap;
    }
    return linkDelegate(*delegate.payload, partition, identifiers, index);
}

} // namespace pte
