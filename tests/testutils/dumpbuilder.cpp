// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "dumpbuilder.h"

#include "executiontestutils.h"
#include "pte/dumpreader.h"

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
json SymArg(const std::string& name) { return { { "as_sym_int", { { "as_name", name } } } }; }
json MemoryFormat(int code) { return { { "as_memory_format", code } }; }
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
    m_inputs.push_back(tensorArgJson(placeholder));
    m_tv[placeholder] = tensorMetaJson(std::move(shape), dtype);
    if (parameter)
        m_inputSpecs.push_back(
            { { "parameter", { { "arg", { { "name", placeholder } } }, { "parameter_name", fqn } } } });
    else
        m_inputSpecs.push_back({ { "buffer",
            { { "arg", { { "name", placeholder } } }, { "buffer_name", fqn }, { "persistent", true } } } });
    m_weights.push_back({ placeholder, fqn, parameter, dtype, std::move(data) });
}

void Dump::constant(const std::string& placeholder, const std::string& fqn, std::vector<std::int64_t> shape,
    std::vector<double> data, int dtype)
{
    m_inputs.push_back(tensorArgJson(placeholder));
    m_tv[placeholder] = tensorMetaJson(std::move(shape), dtype);
    m_inputSpecs.push_back(
        { { "tensor_constant", { { "arg", { { "name", placeholder } } }, { "tensor_constant_name", fqn } } } });
    m_weights.push_back({ placeholder, fqn, false, dtype, std::move(data) });
}

void Dump::node(const std::string& name, const std::string& t, json args, std::vector<std::int64_t> shape, int dtype)
{
    m_tv[name] = tensorMetaJson(std::move(shape), dtype);
    m_nodes.push_back({ { "name", name }, { "target", target(t) }, { "inputs", std::move(args) },
        { "outputs", json::array({ tensorArgJson(name) }) }, { "metadata", json::object() } });
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
    m_nodes.push_back({ { "name", name }, { "target", target(t) }, { "inputs", std::move(args) }, { "outputs", o },
        { "metadata", json::object() } });
}

void Dump::listNode(const std::string& name, const std::string& t, json args,
    const std::vector<std::pair<std::string, std::vector<std::int64_t>>>& outs, int dtype)
{
    std::vector<std::string> names;
    for (const auto& [n, shape] : outs) {
        m_tv[n] = tensorMetaJson(shape, dtype);
        names.push_back(n);
    }
    m_nodes.push_back({ { "name", name }, { "target", target(t) }, { "inputs", std::move(args) },
        { "outputs", json::array({ Tensors(names) }) }, { "metadata", json::object() } });
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
    m_nodes.push_back({ { "name", name }, { "target", target(t) }, { "inputs", std::move(args) },
        { "outputs", json::array({ { { "as_sym_" + kind, { { "as_name", name } } } } }) },
        { "metadata", json::object() } });
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

void Dump::dynamic(const std::string& name, std::size_t dim, const std::string& symbol, std::int64_t max)
{
    m_tv[name]["sizes"][dim] = { { "as_expr", { { "expr_str", symbol }, { "hint", { { "as_int", max } } } } } };
    m_ranges[symbol] = { { "min_val", 2 }, { "max_val", max } };
}

Result<std::shared_ptr<ExportedProgram>> Dump::build(const std::string& label) const
{
    const json doc = { { "graph_module",
                           { { "graph",
                                 { { "inputs", m_inputs }, { "outputs", m_outputs }, { "nodes", m_nodes },
                                     { "tensor_values", m_tv }, { "sym_int_values", m_symInts },
                                     { "sym_bool_values", m_symBools }, { "sym_float_values", m_symFloats },
                                     { "custom_obj_values", json::object() }, { "is_single_tensor_return", false } } },
                               { "signature", { { "input_specs", m_inputSpecs }, { "output_specs", m_outputSpecs } } },
                               { "module_call_graph", json::array() }, { "metadata", json::object() } } },
        { "opset_version", { { "aten", 10 } } }, { "range_constraints", m_ranges },
        { "schema_version", { { "major", 8 }, { "minor", 12 } } }, { "verifiers", json::array({ "ATEN" }) },
        { "torch_version", "2.9.0" } };
    PTE_TRY(auto ep, parseExportedProgramJson(doc.dump(), label + ".json"));
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
