// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "dumpbuilder.h"

#include "executiontestutils.h"
#include "pte/dumpreader.h"

#include <algorithm>
#include <cstring>

namespace pte::test {

using nlohmann::json;

json T(const std::string& name) { return tensorArgJson(name); }
json I(std::int64_t v) { return { { "as_int", v } }; }
json F(double v) { return { { "as_float", v } }; }
json B(bool v) { return { { "as_bool", v } }; }
json S(const std::string& v) { return { { "as_string", v } }; }
json None() { return { { "as_none", true } }; }
json Dtype(int code) { return { { "as_scalar_type", code } }; }
json Ints(std::vector<std::int64_t> v) { return { { "as_ints", v } }; }
json Floats(std::vector<double> v) { return { { "as_floats", v } }; }
json Bools(std::vector<bool> v) { return { { "as_bools", v } }; }
json Tensors(const std::vector<std::string>& names)
{
    json a = json::array();
    for (const auto& n : names)
        a.push_back({ { "name", n } });
    return { { "as_tensors", a } };
}
json OptionalTensors(const std::vector<std::string>& names)
{
    json a = json::array();
    for (const auto& n : names)
        a.push_back(n.empty() ? json { { "as_none", true } } : json { { "as_tensor", { { "name", n } } } });
    return { { "as_optional_tensors", a } };
}
json SymInts(const std::vector<std::string>& names)
{
    json a = json::array();
    for (const auto& n : names)
        a.push_back({ { "as_name", n } });
    return { { "as_sym_ints", a } };
}
json SymSizes(const std::vector<std::variant<std::int64_t, std::string>>& items)
{
    json a = json::array();
    for (const auto& item : items) {
        if (const auto* n = std::get_if<std::int64_t>(&item))
            a.push_back({ { "as_int", *n } });
        else
            a.push_back({ { "as_name", std::get<std::string>(item) } });
    }
    return { { "as_sym_ints", a } };
}
json SymArg(const std::string& name) { return { { "as_sym_int", { { "as_name", name } } } }; }
json MemoryFormat(int code) { return { { "as_memory_format", code } }; }
json Device(const std::string& type) { return { { "as_device", { { "type", type }, { "index", nullptr } } } }; }
json arg(const char* name, json value, int kind)
{
    return { { "name", name }, { "arg", std::move(value) }, { "kind", kind } };
}
json kwarg(const char* name, json value) { return arg(name, std::move(value), 2); }

double f32(double v) { return double(float(v)); }

std::vector<double> values(std::size_t n, std::uint32_t seed, double scale)
{
    std::vector<double> v(n);
    for (auto& x : v) {
        seed = seed * 1664525u + 1013904223u;
        x = f32((double((seed >> 9) % 2001) / 1000.0 - 1.0) * scale);
    }
    return v;
}

std::vector<double> map(const std::vector<double>& v, const std::function<double(double)>& f)
{
    std::vector<double> r(v.size());
    for (std::size_t k = 0; k < v.size(); ++k)
        r[k] = f32(f(v[k]));
    return r;
}

std::vector<std::uint8_t> encode(const std::vector<double>& values, int dtype)
{
    std::vector<std::uint8_t> bytes;
    auto put = [&](const auto x) {
        const auto* p = reinterpret_cast<const std::uint8_t*>(&x);
        bytes.insert(bytes.end(), p, p + sizeof x);
    };
    for (const double v : values) {
        switch (dtype) {
        case kByte:
            put(std::uint8_t(v));
            break;
        case kChar:
            put(std::int8_t(v));
            break;
        case kShort:
            put(std::int16_t(v));
            break;
        case kInt:
            put(std::int32_t(v));
            break;
        case kLong:
            put(std::int64_t(v));
            break;
        case kDouble:
            put(v);
            break;
        case kBool:
            put(std::uint8_t(v != 0));
            break;
        default: // float
            put(float(v));
            break;
        }
    }
    return bytes;
}

std::string Dump::target(const std::string& t)
{
    for (const char* prefix : { "torch.", "executorch.", "_operator.", "math.", "builtins." })
        if (t.rfind(prefix, 0) == 0)
            return t;
    return "torch.ops.aten." + t;
}

void Dump::input(const std::string& name, std::vector<std::int64_t> shape, int dtype)
{
    m_inputs.push_back(tensorArgJson(name));
    m_tv[name] = tensorMetaJson(std::move(shape), dtype);
    m_inputSpecs.push_back({ { "user_input", { { "arg", tensorArgJson(name) } } } });
}

void Dump::weight(const std::string& placeholder, const std::string& fqn, std::vector<std::int64_t> shape,
    std::vector<double> data, bool parameter, int dtype)
{
    if (!parameter) {
        buffer(placeholder, fqn, std::move(shape), std::move(data), dtype);
        return;
    }
    m_inputs.push_back(tensorArgJson(placeholder));
    m_tv[placeholder] = tensorMetaJson(std::move(shape), dtype);
    if (m_training)
        m_tv[placeholder]["requires_grad"] = true;
    m_inputSpecs.push_back({ { "parameter", { { "arg", { { "name", placeholder } } }, { "parameter_name", fqn } } } });
    m_weights.push_back({ placeholder, fqn, true, dtype, std::move(data) });
}

void Dump::buffer(const std::string& placeholder, const std::string& fqn, std::vector<std::int64_t> shape,
    std::vector<double> data, int dtype, bool persistent)
{
    m_inputs.push_back(tensorArgJson(placeholder));
    m_tv[placeholder] = tensorMetaJson(std::move(shape), dtype);
    m_inputSpecs.push_back({ { "buffer",
        { { "arg", { { "name", placeholder } } }, { "buffer_name", fqn }, { "persistent", persistent } } } });
    m_weights.push_back({ placeholder, fqn, false, dtype, std::move(data), false, persistent });
}

void Dump::constant(const std::string& placeholder, const std::string& fqn, std::vector<std::int64_t> shape,
    std::vector<double> data, int dtype)
{
    m_inputs.push_back(tensorArgJson(placeholder));
    m_tv[placeholder] = tensorMetaJson(std::move(shape), dtype);
    m_inputSpecs.push_back(
        { { "tensor_constant", { { "arg", { { "name", placeholder } } }, { "tensor_constant_name", fqn } } } });
    m_weights.push_back({ placeholder, fqn, false, dtype, std::move(data), true });
}

void Dump::node(const std::string& name, const std::string& t, json args, std::vector<std::int64_t> shape, int dtype)
{
    m_tv[name] = tensorMetaJson(std::move(shape), dtype);
    addNode({ { "name", name }, { "target", target(t) }, { "inputs", std::move(args) },
        { "outputs", json::array({ tensorArgJson(name) }) } });
}

void Dump::tupleNode(const std::string& name, const std::string& t, json args,
    const std::vector<std::pair<std::string, std::vector<std::int64_t>>>& outs, int dtype,
    const std::vector<int>& dtypes)
{
    json o = json::array();
    for (std::size_t k = 0; k < outs.size(); ++k) {
        m_tv[outs[k].first] = tensorMetaJson(outs[k].second, k < dtypes.size() ? dtypes[k] : dtype);
        o.push_back(tensorArgJson(outs[k].first));
    }
    addNode({ { "name", name }, { "target", target(t) }, { "inputs", std::move(args) }, { "outputs", o } });
}

void Dump::listNode(const std::string& name, const std::string& t, json args,
    const std::vector<std::pair<std::string, std::vector<std::int64_t>>>& outs, int dtype)
{
    std::vector<std::string> names;
    for (const auto& [n, shape] : outs) {
        m_tv[n] = tensorMetaJson(shape, dtype);
        names.push_back(n);
    }
    addNode({ { "name", name }, { "target", target(t) }, { "inputs", std::move(args) },
        { "outputs", json::array({ Tensors(names) }) } });
}

void Dump::symNode(const std::string& name, const std::string& t, json args, const std::string& expr, std::int64_t hint,
    const std::string& kind)
{
    const json value = { { "as_expr", { { "expr_str", expr }, { "hint", { { "as_int", hint } } } } } };
    if (kind == "int")
        m_symInts[name] = value;
    else if (kind == "bool")
        m_symBools[name] = value;
    else
        m_symFloats[name] = value;
    addNode({ { "name", name }, { "target", target(t) }, { "inputs", std::move(args) },
        { "outputs", json::array({ { { "as_sym_" + kind, { { "as_name", name } } } } }) } });
}

void Dump::call(const std::string& name, const std::string& t, json args)
{
    addNode({ { "name", name }, { "target", target(t) }, { "inputs", std::move(args) }, { "outputs", json::array() } });
}

void Dump::output(const std::string& name)
{
    m_outputs.push_back(tensorArgJson(name));
    m_outputSpecs.push_back({ { "user_output", { { "arg", tensorArgJson(name) } } } });
}

void Dump::symOutput(const std::string& name, const std::string& kind)
{
    const json a = { { "as_sym_" + kind, { { "as_name", name } } } };
    m_outputs.push_back(a);
    m_outputSpecs.push_back({ { "user_output", { { "arg", a } } } });
}

void Dump::mutation(const std::string& name, const std::string& fqn)
{
    m_outputs.push_back(tensorArgJson(name));
    m_outputSpecs.push_back({ { "buffer_mutation", { { "arg", { { "name", name } } }, { "buffer_name", fqn } } } });
}

void Dump::strides(const std::string& name, const std::vector<std::int64_t>& strides)
{
    json st = json::array();
    for (const auto s : strides)
        st.push_back({ { "as_int", s } });
    m_tv[name]["strides"] = st;
}

std::vector<std::int64_t> Dump::strides(const std::string& name) const
{
    std::vector<std::int64_t> st;
    for (const auto& s : m_tv.at(name).at("strides"))
        st.push_back(s.contains("as_int") ? s["as_int"].get<std::int64_t>()
                                          : s["as_expr"]["hint"]["as_int"].get<std::int64_t>());
    return st;
}

void Dump::dynamic(
    const std::string& name, std::size_t dim, const std::string& symbol, std::int64_t max, std::int64_t coefficient)
{
    auto expr = [&](std::int64_t k, std::int64_t hint) {
        const std::string e = k == 1 ? symbol : std::to_string(k) + "*" + symbol;
        return json { { "as_expr", { { "expr_str", e }, { "hint", { { "as_int", hint } } } } } };
    };
    m_tv[name]["sizes"][dim] = expr(coefficient, coefficient * max);
    m_ranges[symbol] = { { "min_val", 2 }, { "max_val", max } };
    if (!m_training)
        return;
    // A stride larger than the dimension's own steps over all of it: it is a multiple of the symbol.
    const auto st = strides(name);
    const std::int64_t size = coefficient * max;
    for (std::size_t j = 0; j < st.size(); ++j)
        if (j != dim && st[j] > st[dim] && st[j] % size == 0)
            m_tv[name]["strides"][j] = expr(st[j] / size * coefficient, st[j]);
}

namespace {

/** Tensor names an argument (or a list of them) refers to. */
void tensorNames(const json& a, std::vector<std::string>& names)
{
    if (a.is_array()) {
        for (const auto& e : a)
            tensorNames(e, names);
    } else if (a.is_object()) {
        if (a.contains("as_tensor"))
            names.push_back(a["as_tensor"].value("name", ""));
        else if (a.contains("name") && a.size() == 1 && a["name"].is_string())
            names.push_back(a["name"]);
        else
            for (const char* k : { "as_tensors", "as_optional_tensors", "arg" })
                if (a.contains(k))
                    tensorNames(a[k], names);
    }
}

/** Python's json.dumps of `j` (", " and ": " separators), as torch's treespec_dumps writes pytree specs. */
std::string pythonJson(const json& j)
{
    if (j.is_array()) {
        std::string s = "[";
        for (std::size_t k = 0; k < j.size(); ++k)
            s += (k ? ", " : "") + pythonJson(j[k]);
        return s + "]";
    }
    if (j.is_object()) {
        std::string s = "{";
        bool first = true;
        for (const auto& key : { "type", "context", "children_spec" }) { // torch's field order
            if (!j.contains(key))
                continue;
            s += (first ? "\"" : ", \"") + std::string(key) + "\": " + pythonJson(j[key]);
            first = false;
        }
        return s + "}";
    }
    return j.dump();
}

json leafSpec() { return { { "type", nullptr }, { "context", nullptr }, { "children_spec", json::array() } }; }

json tupleSpec(std::size_t n)
{
    return { { "type", "builtins.tuple" }, { "context", "null" }, { "children_spec", json::array_t(n, leafSpec()) } };
}

} // namespace

void Dump::trainingIr(const std::string& torchVersion)
{
    m_training = true;
    m_torchVersion = torchVersion;
}

void Dump::module(const std::string& path, const std::string& type) { m_modules.emplace_back(path, type); }

void Dump::at(const std::string& path, const std::string& fn, const std::string& code)
{
    auto key = [](const std::string& p) {
        std::string k = "L__self__" + p;
        std::replace(k.begin(), k.end(), '.', '_');
        return k;
    };
    std::string stack;
    std::string leafType;
    for (const auto& [p, type] : m_modules) {
        const bool encloses = p.empty() || p == path || path.rfind(p + ".", 0) == 0;
        if (!encloses)
            continue;
        stack += (stack.empty() ? "" : ";") + key(p) + "," + p + "," + type;
        if (p == path)
            leafType = type;
    }
    m_meta = json::object();
    if (!stack.empty())
        m_meta["nn_module_stack"] = stack;
    if (!path.empty() && !leafType.empty()) {
        std::string name = "l__self___" + path;
        std::replace(name.begin(), name.end(), '.', '_');
        m_meta["source_fn_stack"] = name + "," + leafType;
    }
    if (!fn.empty()) {
        const std::string name = fn.substr(fn.rfind('.') + 1);
        m_meta["torch_fn"] = name + "_" + std::to_string(++m_torchFnCounts[fn]) + ";" + fn;
    }
    m_meta["stack_trace"] =
        "File \"/home/user/zoo/model.py\", line " + std::to_string(++m_line) + ", in forward\n    " + code;
}

void Dump::addNode(json node)
{
    node["metadata"] = m_meta;
    if (m_training) {
        node["is_hop_single_tensor_return"] = nullptr;
        std::vector<std::string> ins;
        tensorNames(node["inputs"], ins);
        const bool grad = std::any_of(ins.begin(), ins.end(),
            [&](const std::string& n) { return m_tv.contains(n) && m_tv[n].value("requires_grad", false); });
        std::vector<std::string> outs;
        tensorNames(node["outputs"], outs);
        for (const auto& n : outs) {
            const int dtype = m_tv.contains(n) ? m_tv[n].value("dtype", 0) : 0;
            if (grad && (dtype == kFloat || dtype == kHalf || dtype == kDouble || dtype == kBFloat16))
                m_tv[n]["requires_grad"] = true;
        }
    }
    m_nodes.push_back(std::move(node));
}

json Dump::moduleCallGraph() const
{
    std::vector<std::string> argNames;
    for (const auto& s : m_inputSpecs)
        if (s.contains("user_input"))
            argNames.push_back(s["user_input"]["arg"]["as_tensor"]["name"]);
    std::size_t userOutputs = 0;
    for (const auto& s : m_outputSpecs)
        userOutputs += s.contains("user_output") ? 1 : 0;
    const json inSpec = { { "type", "builtins.tuple" }, { "context", "null" },
        { "children_spec",
            json::array({ tupleSpec(argNames.size()),
                { { "type", "builtins.dict" }, { "context", "[]" }, { "children_spec", json::array() } } }) } };
    const json outSpec = userOutputs == 1 ? leafSpec() : tupleSpec(userOutputs);
    json graph = json::array();
    graph.push_back({ { "fqn", "" },
        { "signature",
            { { "inputs", json::array() }, { "outputs", json::array() },
                { "in_spec", pythonJson(json::array({ 1, inSpec })) },
                { "out_spec", pythonJson(json::array({ 1, outSpec })) }, { "forward_arg_names", argNames } } } });
    for (const auto& [path, type] : m_modules)
        if (!path.empty())
            graph.push_back({ { "fqn", path }, { "signature", nullptr } });
    return graph;
}

json Dump::document() const
{
    json gm = { { "graph",
                    { { "inputs", m_inputs }, { "outputs", m_outputs }, { "nodes", m_nodes }, { "tensor_values", m_tv },
                        { "sym_int_values", m_symInts }, { "sym_bool_values", m_symBools },
                        { "sym_float_values", m_symFloats }, { "custom_obj_values", json::object() },
                        { "is_single_tensor_return", false } } },
        { "signature", { { "input_specs", m_inputSpecs }, { "output_specs", m_outputSpecs } } },
        { "module_call_graph", m_training ? moduleCallGraph() : json::array() }, { "metadata", json::object() } };
    if (m_training)
        gm["treespec_namedtuple_fields"] = json::object();
    return { { "graph_module", std::move(gm) }, { "opset_version", { { "aten", 10 } } },
        { "range_constraints", m_ranges }, { "schema_version", { { "major", 8 }, { "minor", 12 } } },
        { "verifiers", json::array({ m_training ? "TRAINING" : "ATEN" }) }, { "torch_version", m_torchVersion } };
}

Result<std::shared_ptr<ExportedProgram>> Dump::build(const std::string& label) const
{
    PTE_TRY(auto ep, parseExportedProgramJson(document().dump(), label + ".json"));
    for (const auto& w : m_weights) {
        WeightTensor t;
        t.meta = ep->graph.tensorValues.at(w.placeholder);
        t.data = Bytes::fromVector(encode(w.data, w.dtype));
        t.source = "test:" + w.fqn;
        t.isParameter = w.parameter;
        ep->weights[w.fqn] = std::move(t);
    }
    return ep;
}

} // namespace pte::test
