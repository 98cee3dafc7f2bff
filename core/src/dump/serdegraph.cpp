// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// The exported-program decoder's graphs: nodes (target, arguments, metadata, debug handles) and graphs.
#include "dump/exportedprogramdecoder.h"

#include <cctype>
#include <cstdlib>

namespace pte::dump {

std::vector<std::int64_t> ExportedProgramDecoder::parseHandles(const std::string& s)
{
    std::vector<std::int64_t> out;
    std::size_t i = 0;
    while (i < s.size()) {
        if (std::isdigit(static_cast<unsigned char>(s[i]))
            || (s[i] == '-' && i + 1 < s.size() && std::isdigit(static_cast<unsigned char>(s[i + 1])))) {
            char* end = nullptr;
            out.push_back(std::strtoll(s.c_str() + i, &end, 10));
            i = static_cast<std::size_t>(end - s.c_str());
        } else {
            ++i;
        }
    }
    return out;
}

Result<Node> ExportedProgramDecoder::node(const json& j, const std::string& path, int depth)
{
    if (!j.is_object())
        return bad(path, "expected a node object, found " + describe(j));
    Node n;
    n.jsonPath = path;
    PTE_TRY(auto target, toString(field(j, "target"), joinPath(path, "target")));
    n.setTarget(std::move(target));
    const json& inputs = field(j, "inputs");
    if (!inputs.is_null() && !inputs.is_array())
        return bad(joinPath(path, "inputs"), "expected an array, found " + describe(inputs));
    const bool isDelegate = n.targetKind == TargetKind::HigherOrder && n.op == "executorch_call_delegate";
    for (std::size_t i = 0; inputs.is_array() && i < inputs.size(); ++i) {
        const std::string ip = indexPath(joinPath(path, "inputs"), i);
        const json& in = inputs[i];
        NamedArgument na;
        const json& name = field(in, "name");
        if (name.is_string())
            na.name = name.get<std::string>();
        PTE_TRY(na.arg, argument(field(in, "arg"), joinPath(ip, "arg"), depth));
        const json& kind = field(in, "kind");
        if (!kind.is_null()) {
            PTE_TRY(const auto kv, toInt(kind, joinPath(ip, "kind")));
            na.kind = static_cast<std::int32_t>(kv);
        }
        if (isDelegate && i == 0 && na.arg.kind == ArgKind::String) {
            PTE_TRY(auto lm, loweredModule(na.arg.strings[0], na.name, joinPath(ip, "arg.as_string"), depth));
            m_lowered.emplace(na.name, std::move(lm));
        }
        n.inputs.push_back(std::move(na));
    }
    const json& outputs = field(j, "outputs");
    for (std::size_t i = 0; outputs.is_array() && i < outputs.size(); ++i) {
        PTE_TRY(auto a, argument(outputs[i], indexPath(joinPath(path, "outputs"), i), depth));
        n.outputs.push_back(std::move(a));
    }
    const json& md = field(j, "metadata");
    if (md.is_object())
        for (auto it = md.begin(); it != md.end(); ++it)
            n.metadata.emplace(it.key(), it->is_string() ? it->get<std::string>() : it->dump());
    const auto dh = n.metadata.find("debug_handle");
    if (dh != n.metadata.end())
        n.debugHandles = parseHandles(dh->second);
    const json& hop = field(j, "is_hop_single_tensor_return");
    if (hop.is_boolean())
        n.isHopSingleTensorReturn = hop.get<bool>();
    const json& name = field(j, "name");
    if (name.is_string()) {
        n.name = name.get<std::string>();
    } else if (!n.outputs.empty()) {
        const Argument& o = n.outputs.front();
        if (!o.names.empty())
            n.name = o.names.front();
        else if (!o.syms.empty())
            n.name = o.syms.front().expr;
    }
    return n;
}

Result<Graph> ExportedProgramDecoder::graph(const json& j, const std::string& path, int depth)
{
    if (depth > 32)
        return bad(path, "subgraphs nest too deeply");
    if (!j.is_object())
        return bad(path, "expected a Graph object, found " + describe(j));
    Graph g;
    const json& inputs = field(j, "inputs");
    for (std::size_t i = 0; inputs.is_array() && i < inputs.size(); ++i) {
        PTE_TRY(auto a, argument(inputs[i], indexPath(joinPath(path, "inputs"), i), depth));
        g.inputs.push_back(std::move(a));
    }
    const json& outputs = field(j, "outputs");
    for (std::size_t i = 0; outputs.is_array() && i < outputs.size(); ++i) {
        PTE_TRY(auto a, argument(outputs[i], indexPath(joinPath(path, "outputs"), i), depth));
        g.outputs.push_back(std::move(a));
    }
    const json& nodes = field(j, "nodes");
    if (!nodes.is_array())
        return bad(joinPath(path, "nodes"), "expected an array, found " + describe(nodes));
    g.nodes.reserve(nodes.size());
    for (std::size_t i = 0; i < nodes.size(); ++i) {
        PTE_TRY(auto n, node(nodes[i], indexPath(joinPath(path, "nodes"), i), depth));
        g.nodes.push_back(std::move(n));
    }
    const json& tv = field(j, "tensor_values");
    if (tv.is_object())
        for (auto it = tv.begin(); it != tv.end(); ++it) {
            PTE_TRY(auto m, tensorMeta(it.value(), joinPath(joinPath(path, "tensor_values"), it.key())));
            g.tensorValues.emplace_hint(g.tensorValues.end(), it.key(), std::move(m));
        }
    auto syms = [&](const char* key, std::map<std::string, SymInt>& into) -> Result<void> {
        const json& m = field(j, key);
        if (m.is_object())
            for (auto it = m.begin(); it != m.end(); ++it) {
                PTE_TRY(auto s, symInt(it.value(), joinPath(joinPath(path, key), it.key())));
                into.emplace(it.key(), std::move(s));
            }
        return {};
    };
    PTE_CHECK(syms("sym_int_values", g.symIntValues));
    PTE_CHECK(syms("sym_bool_values", g.symBoolValues));
    PTE_CHECK(syms("sym_float_values", g.symFloatValues));
    const json& co = field(j, "custom_obj_values");
    if (co.is_object())
        for (auto it = co.begin(); it != co.end(); ++it) {
            CustomObjValue c;
            c.name = field(it.value(), "name").is_string() ? it.value()["name"].get<std::string>() : it.key();
            if (field(it.value(), "class_fqn").is_string())
                c.classFqn = it.value()["class_fqn"].get<std::string>();
            g.customObjValues.emplace(it.key(), std::move(c));
        }
    const json& st = field(j, "is_single_tensor_return");
    if (st.is_boolean())
        g.isSingleTensorReturn = st.get<bool>();
    return g;
}

} // namespace pte::dump
