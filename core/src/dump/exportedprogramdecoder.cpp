// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "dump/exportedprogramdecoder.h"

#include "dump/dumpreader_p.h"
#include "pte/graphtext.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <exception>
#include <limits>

namespace pte {

namespace dump {

std::optional<ScalarType> convertDtype(DtypeTable table, std::int64_t code)
{
    switch (code) {
    case 1:
        return ScalarType::Byte;
    case 2:
        return ScalarType::Char;
    case 3:
        return ScalarType::Short;
    case 4:
        return ScalarType::Int;
    case 5:
        return ScalarType::Long;
    case 6:
        return ScalarType::Half;
    case 7:
        return ScalarType::Float;
    case 8:
        return ScalarType::Double;
    case 9:
        return ScalarType::ComplexHalf;
    case 10:
        return ScalarType::ComplexFloat;
    case 11:
        return ScalarType::ComplexDouble;
    case 12:
        return ScalarType::Bool;
    case 13:
        return ScalarType::BFloat16;
    default:
        break;
    }
    switch (table) {
    case DtypeTable::TorchUpTo7:
        switch (code) {
        case 23:
            return ScalarType::Float8e5m2;
        case 24:
            return ScalarType::Float8e4m3fn;
        case 25:
            return ScalarType::Float8e5m2fnuz;
        case 26:
            return ScalarType::Float8e4m3fnuz;
        default:
            return std::nullopt;
        }
    case DtypeTable::Torch8Early:
        switch (code) {
        case 14:
            return ScalarType::Float8e4m3fn;
        case 15:
            return ScalarType::Float8e5m2;
        case 28:
            return ScalarType::UInt16;
        default:
            return std::nullopt;
        }
    case DtypeTable::Torch8Current:
        switch (code) {
        case 28:
            return ScalarType::UInt16;
        case 29:
            return ScalarType::Float8e4m3fn;
        case 30:
            return ScalarType::Float8e5m2;
        case 31:
            return ScalarType::Float8e4m3fnuz;
        case 32:
            return ScalarType::Float8e5m2fnuz;
        case 34:
            return ScalarType::UInt32;
        case 35:
            return ScalarType::UInt64;
        default:
            return std::nullopt; // 33 float8_e8m0fnu has no ExecuTorch type
        }
    case DtypeTable::ExecuTorch:
        switch (code) {
        case 14:
            return ScalarType::UInt16;
        case 15:
            return ScalarType::Float8e5m2;
        case 16:
            return ScalarType::Float8e4m3fn;
        default:
            return std::nullopt;
        }
    }
    return std::nullopt;
}

int base64Value(char c)
{
    if (c >= 'A' && c <= 'Z')
        return c - 'A';
    if (c >= 'a' && c <= 'z')
        return c - 'a' + 26;
    if (c >= '0' && c <= '9')
        return c - '0' + 52;
    if (c == '+' || c == '-')
        return 62;
    if (c == '/' || c == '_')
        return 63;
    return -1;
}

std::optional<std::vector<std::uint8_t>> decodeBase64(std::string_view s)
{
    std::vector<std::uint8_t> out;
    out.reserve(s.size() / 4 * 3);
    std::uint32_t acc = 0;
    int bits = 0;
    for (char c : s) {
        if (c == '=' || c == '\n' || c == '\r' || c == ' ')
            continue;
        const int v = base64Value(c);
        if (v < 0)
            return std::nullopt;
        acc = (acc << 6) | static_cast<std::uint32_t>(v);
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            out.push_back(static_cast<std::uint8_t>((acc >> bits) & 0xff));
        }
    }
    return out;
}

void Decoder::onStreamedNode(json&& item, std::size_t index)
{
    if (streamError)
        return;
    auto n = node(item, "graph_module.graph.nodes[" + std::to_string(index) + "]", 0);
    if (!n)
        streamError = std::move(n).error();
    else
        streamedNodes.push_back(std::move(n).value());
}

void Decoder::onStreamedTensorValue(json&& item, const std::string& key)
{
    if (streamError)
        return;
    auto m = tensorMeta(item, "graph_module.graph.tensor_values." + key);
    if (!m)
        streamError = std::move(m).error();
    else
        streamedTensorValues.insert_or_assign(key, std::move(m).value());
}

Result<void> Decoder::fixArgument(Argument& a, const std::string& path)
{
    if (a.kind == ArgKind::ScalarType && !a.ints.empty()) {
        a.scalarType = convertDtype(table, a.ints[0]);
        if (!a.scalarType)
            warn(joinPath(path, "as_scalar_type"), "unknown scalar type code " + std::to_string(a.ints[0]));
    }
    if (a.kind == ArgKind::Graph && a.graph)
        PTE_CHECK(fixDtypes(const_cast<Graph&>(*a.graph), joinPath(path, "as_graph.graph"))); // owned by us
    for (std::size_t i = 0; i < a.children.size(); ++i)
        PTE_CHECK(fixArgument(a.children[i], joinPath(path, "as_string_to_argument." + a.strings[i])));
    return {};
}

Result<void> Decoder::fixDtypes(Graph& g, const std::string& path)
{
    for (auto& [name, m] : g.tensorValues) {
        const auto t = convertDtype(table, m.rawDtype);
        if (!t)
            return bad(joinPath(joinPath(joinPath(path, "tensor_values"), name), "dtype"),
                "unknown or unsupported dtype code " + std::to_string(m.rawDtype) + " for this writer ("
                    + (executorchSerde ? "ExecuTorch serde" : "torch serde") + ")");
        m.dtype = *t;
    }
    const auto needsFix = [](const Argument& a) {
        return a.kind == ArgKind::ScalarType || a.kind == ArgKind::Graph || !a.children.empty();
    };
    for (auto& n : g.nodes) {
        for (std::size_t i = 0; i < n.inputs.size(); ++i)
            if (needsFix(n.inputs[i].arg))
                PTE_CHECK(fixArgument(n.inputs[i].arg, indexPath(joinPath(n.jsonPath, "inputs"), i) + ".arg"));
        for (std::size_t i = 0; i < n.outputs.size(); ++i)
            if (needsFix(n.outputs[i]))
                PTE_CHECK(fixArgument(n.outputs[i], indexPath(joinPath(n.jsonPath, "outputs"), i)));
    }
    return {};
}

Unexpected Decoder::bad(const std::string& path, const std::string& what, ErrorCode code) const
{
    return fail(code, m_source + ": " + what + " at " + (path.empty() ? std::string("the top level") : path), {}, path);
}

void Decoder::warn(const std::string& path, const std::string& what, Severity sev)
{
    Diagnostic d;
    d.severity = sev;
    d.code = ErrorCode::InvalidInput;
    d.message = what;
    d.fieldPath = path;
    d.file = m_source;
    m_diags.push_back(std::move(d));
}

Result<std::int64_t> Decoder::toInt(const json& j, const std::string& path) const
{
    if (j.is_number_integer() && !j.is_number_unsigned())
        return j.get<std::int64_t>();
    if (j.is_number_unsigned()) {
        const auto u = j.get<std::uint64_t>();
        if (u > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
            return bad(path, "integer " + std::to_string(u) + " does not fit in 64 bits");
        return static_cast<std::int64_t>(u);
    }
    if (j.is_boolean())
        return j.get<bool>() ? 1 : 0;
    return bad(path, "expected an integer, found " + describe(j));
}

Result<double> Decoder::toFloat(const json& j, const std::string& path) const
{
    if (j.is_number())
        return j.get<double>();
    if (j.is_string()) {
        const auto& s = j.get_ref<const std::string&>();
        if (s == "Infinity" || s == "inf")
            return std::numeric_limits<double>::infinity();
        if (s == "-Infinity" || s == "-inf")
            return -std::numeric_limits<double>::infinity();
        if (s == "NaN" || s == "nan")
            return std::numeric_limits<double>::quiet_NaN();
    }
    return bad(path, "expected a float, found " + describe(j));
}

Result<std::string> Decoder::toString(const json& j, const std::string& path) const
{
    if (!j.is_string())
        return bad(path, "expected a string, found " + describe(j));
    return j.get<std::string>();
}

Result<bool> Decoder::toBool(const json& j, const std::string& path) const
{
    if (j.is_boolean())
        return j.get<bool>();
    if (j.is_number_integer())
        return j.get<std::int64_t>() != 0;
    return bad(path, "expected a boolean, found " + describe(j));
}

Result<std::pair<std::string, const json*>> Decoder::unionAlt(const json& j, const std::string& path) const
{
    if (!j.is_object())
        return bad(path, "expected a union object, found " + describe(j));
    // Form 2 (early 2024 nightlies): {"$type": alt, "$value": payload}.
    const auto t = j.find("$type");
    if (t != j.end()) {
        if (!t->is_string())
            return bad(path, "'$type' is not a string");
        return std::pair<std::string, const json*> { t->get<std::string>(), &field(j, "$value") };
    }
    // Form 3 (torch >= 2.3): exactly one key.
    if (j.size() == 1)
        return std::pair<std::string, const json*> { j.begin().key(), &j.begin().value() };
    // Form 1 (<= 2.2): every alternative present, the chosen one is the only non-null.
    const std::pair<std::string, const json*>* chosen = nullptr;
    std::pair<std::string, const json*> found;
    for (auto it = j.begin(); it != j.end(); ++it) {
        if (it->is_null())
            continue;
        if (chosen)
            return bad(path, "union has several non-null alternatives ('" + found.first + "', '" + it.key() + "')");
        found = { it.key(), &it.value() };
        chosen = &found;
    }
    if (chosen)
        return found;
    if (j.contains("as_none"))
        return std::pair<std::string, const json*> { "as_none", &nullJson() };
    return bad(path, "union object has no alternative set");
}

Result<SymInt> Decoder::symInt(const json& j, const std::string& path) const
{
    if (j.is_number_integer())
        return SymInt { *toInt(j, path), {}, {} }; // bare int (storage_offset in <= 2.2)
    PTE_TRY(const auto alt, unionAlt(j, path));
    const std::string p = joinPath(path, alt.first);
    const json& v = *alt.second;
    SymInt s;
    if (alt.first == "as_int") {
        PTE_TRY(s.value, toInt(v, p));
    } else if (alt.first == "as_bool") {
        PTE_TRY(const bool b, toBool(v, p));
        s.value = b ? 1 : 0;
    } else if (alt.first == "as_float") {
        PTE_TRY(const double d, toFloat(v, p));
        s.expr = std::to_string(d);
    } else if (alt.first == "as_name") {
        PTE_TRY(s.expr, toString(v, p));
    } else if (alt.first == "as_expr") {
        if (v.is_string()) {
            s.expr = v.get<std::string>();
        } else {
            PTE_TRY(s.expr, toString(field(v, "expr_str"), joinPath(p, "expr_str")));
            const json& hint = field(v, "hint");
            if (!hint.is_null()) {
                if (hint.is_number_integer()) {
                    PTE_TRY(s.hint, toInt(hint, joinPath(p, "hint")));
                } else {
                    PTE_TRY(const auto h, unionAlt(hint, joinPath(p, "hint")));
                    if (h.first == "as_int") {
                        PTE_TRY(s.hint, toInt(*h.second, joinPath(p, "hint.as_int")));
                    }
                }
            }
        }
    } else {
        return bad(p, "unknown symbolic value kind '" + alt.first + "'");
    }
    return s;
}

Result<ScalarType> Decoder::dtype(const json& j, const std::string& path, std::int32_t* raw) const
{
    PTE_TRY(const auto code, toInt(j, path));
    if (raw)
        *raw = static_cast<std::int32_t>(code);
    if (deferDtypes && raw)
        return ScalarType::Byte; // converted by fixDtypes() once the schema version is known
    const auto t = convertDtype(table, code);
    if (!t)
        return bad(path,
            "unknown or unsupported dtype code " + std::to_string(code) + " for this writer ("
                + (executorchSerde ? "ExecuTorch serde" : "torch serde") + ")");
    return *t;
}

Result<TensorMeta> Decoder::tensorMeta(const json& jIn, const std::string& pathIn) const
{
    // <= 2.2 wraps it: {"meta": TensorMeta}.
    const bool wrapped = jIn.is_object() && jIn.size() == 1 && jIn.contains("meta");
    const json& j = wrapped ? jIn["meta"] : jIn;
    const std::string path = wrapped ? joinPath(pathIn, "meta") : pathIn;
    if (!j.is_object())
        return bad(path, "expected a TensorMeta object, found " + describe(j));
    TensorMeta m;
    PTE_TRY(m.dtype, dtype(field(j, "dtype"), joinPath(path, "dtype"), &m.rawDtype));
    const json& sizes = field(j, "sizes");
    if (!sizes.is_array())
        return bad(joinPath(path, "sizes"), "expected an array, found " + describe(sizes));
    for (std::size_t i = 0; i < sizes.size(); ++i) {
        PTE_TRY(auto s, symInt(sizes[i], indexPath(joinPath(path, "sizes"), i)));
        m.sizes.push_back(std::move(s));
    }
    const json& strides = field(j, "strides");
    if (strides.is_array())
        for (std::size_t i = 0; i < strides.size(); ++i) {
            PTE_TRY(auto s, symInt(strides[i], indexPath(joinPath(path, "strides"), i)));
            m.strides.push_back(std::move(s));
        }
    const json& so = field(j, "storage_offset");
    if (!so.is_null()) {
        PTE_TRY(m.storageOffset, symInt(so, joinPath(path, "storage_offset")));
    } else {
        m.storageOffset.value = 0;
    }
    const json& rg = field(j, "requires_grad");
    if (!rg.is_null()) {
        PTE_TRY(m.requiresGrad, toBool(rg, joinPath(path, "requires_grad")));
    }
    const json& dev = field(j, "device");
    if (dev.is_object()) {
        if (field(dev, "type").is_string())
            m.deviceType = dev["type"].get<std::string>();
        if (!field(dev, "index").is_null()) {
            PTE_TRY(m.deviceIndex, toInt(dev["index"], joinPath(path, "device.index")));
        }
    }
    const json& layout = field(j, "layout");
    if (!layout.is_null()) {
        PTE_TRY(const auto l, toInt(layout, joinPath(path, "layout")));
        m.layout = static_cast<std::int32_t>(l);
    }
    return m;
}

Result<TensorMeta> Decoder::fakeTensorMeta(const SavedTensor& s, const std::string& where, const char* what)
{
    auto parsed = parseJsonText(s.fakeMetaJson, s.tensor.source);
    Result<TensorMeta> meta = parsed ? tensorMeta(*parsed, "") : Result<TensorMeta>(std::move(parsed).error());
    if (!meta) {
        warn(where,
            std::string(what) + " '" + s.key
                + "' is a fake tensor whose embedded TensorMeta cannot be read: " + meta.error().message);
        return meta;
    }
    warn(where,
        std::string(what) + " '" + s.key + "' is a fake tensor (" + tensorMetaText(*meta)
            + "): the dump has its metadata but no data"
            + (std::string_view(what) == "weight" ? "; emitting it fails" : ""));
    return meta;
}

Result<std::string> Decoder::tensorName(const json& j, const std::string& path) const
{
    if (j.is_string())
        return j.get<std::string>(); // 2.1 OptionalTensorArgument.as_tensor
    return toString(field(j, "name"), joinPath(path, "name"));
}

Result<Argument> Decoder::argument(const json& j, const std::string& path, int depth)
{
    if (depth > 64)
        return bad(path, "arguments nest too deeply");
    PTE_TRY(const auto alt, unionAlt(j, path));
    const std::string& k = alt.first;
    const json& v = *alt.second;
    const std::string p = joinPath(path, k);
    Argument a;
    auto needArray = [&]() -> Result<void> {
        if (!v.is_array())
            return bad(p, "expected an array, found " + describe(v));
        return {};
    };
    if (k == "as_none") {
        a.kind = ArgKind::None;
    } else if (k == "as_tensor") {
        a.kind = ArgKind::Tensor;
        PTE_TRY(auto n, tensorName(v, p));
        a.names.push_back(std::move(n));
    } else if (k == "as_tensors") {
        a.kind = ArgKind::Tensors;
        PTE_CHECK(needArray());
        for (std::size_t i = 0; i < v.size(); ++i) {
            PTE_TRY(auto n, tensorName(v[i], indexPath(p, i)));
            a.names.push_back(std::move(n));
        }
    } else if (k == "as_int" || k == "as_memory_format" || k == "as_layout") {
        a.kind = k == "as_int" ? ArgKind::Int : k == "as_layout" ? ArgKind::Layout : ArgKind::MemoryFormat;
        PTE_TRY(auto i, toInt(v, p));
        a.ints.push_back(i);
    } else if (k == "as_scalar_type") {
        a.kind = ArgKind::ScalarType;
        PTE_TRY(auto i, toInt(v, p));
        a.ints.push_back(i);
        if (!deferDtypes) {
            a.scalarType = convertDtype(table, i);
            if (!a.scalarType)
                warn(p, "unknown scalar type code " + std::to_string(i));
        }
    } else if (k == "as_ints") {
        a.kind = ArgKind::Ints;
        PTE_CHECK(needArray());
        for (std::size_t i = 0; i < v.size(); ++i) {
            PTE_TRY(auto x, toInt(v[i], indexPath(p, i)));
            a.ints.push_back(x);
        }
    } else if (k == "as_float") {
        a.kind = ArgKind::Float;
        PTE_TRY(auto f, toFloat(v, p));
        a.floats.push_back(f);
    } else if (k == "as_floats") {
        a.kind = ArgKind::Floats;
        PTE_CHECK(needArray());
        for (std::size_t i = 0; i < v.size(); ++i) {
            PTE_TRY(auto x, toFloat(v[i], indexPath(p, i)));
            a.floats.push_back(x);
        }
    } else if (k == "as_string" || k == "as_operator") {
        a.kind = k == "as_string" ? ArgKind::String : ArgKind::Operator;
        PTE_TRY(auto s, toString(v, p));
        a.strings.push_back(std::move(s));
    } else if (k == "as_strings") {
        a.kind = ArgKind::Strings;
        PTE_CHECK(needArray());
        for (std::size_t i = 0; i < v.size(); ++i) {
            PTE_TRY(auto s, toString(v[i], indexPath(p, i)));
            a.strings.push_back(std::move(s));
        }
    } else if (k == "as_bool") {
        a.kind = ArgKind::Bool;
        PTE_TRY(auto b, toBool(v, p));
        a.bools.push_back(b);
    } else if (k == "as_bools") {
        a.kind = ArgKind::Bools;
        PTE_CHECK(needArray());
        for (std::size_t i = 0; i < v.size(); ++i) {
            PTE_TRY(auto b, toBool(v[i], indexPath(p, i)));
            a.bools.push_back(b);
        }
    } else if (k == "as_sym_int" || k == "as_sym_bool" || k == "as_sym_float") {
        a.kind = k == "as_sym_int" ? ArgKind::SymInt : k == "as_sym_bool" ? ArgKind::SymBool : ArgKind::SymFloat;
        PTE_TRY(auto s, symInt(v, p));
        a.syms.push_back(std::move(s));
    } else if (k == "as_sym_ints" || k == "as_sym_bools" || k == "as_sym_floats") {
        a.kind = k == "as_sym_ints" ? ArgKind::SymInts : k == "as_sym_bools" ? ArgKind::SymBools : ArgKind::SymFloats;
        PTE_CHECK(needArray());
        for (std::size_t i = 0; i < v.size(); ++i) {
            PTE_TRY(auto s, symInt(v[i], indexPath(p, i)));
            a.syms.push_back(std::move(s));
        }
    } else if (k == "as_device") {
        a.kind = ArgKind::Device;
        PTE_TRY(auto t, toString(field(v, "type"), joinPath(p, "type")));
        a.strings.push_back(std::move(t));
        if (!field(v, "index").is_null()) {
            PTE_TRY(auto i, toInt(v["index"], joinPath(p, "index")));
            a.ints.push_back(i);
        }
    } else if (k == "as_optional_tensor" || k == "as_optional_tensors") {
        a.kind = k == "as_optional_tensor" ? ArgKind::OptionalTensor : ArgKind::OptionalTensors;
        auto one = [&](const json& o, const std::string& op) -> Result<void> {
            PTE_TRY(const auto oa, unionAlt(o, op));
            if (oa.first == "as_none") {
                a.names.emplace_back();
            } else if (oa.first == "as_tensor") {
                PTE_TRY(auto n, tensorName(*oa.second, joinPath(op, "as_tensor")));
                a.names.push_back(std::move(n));
            } else {
                return bad(op, "unknown optional tensor kind '" + oa.first + "'");
            }
            return {};
        };
        if (a.kind == ArgKind::OptionalTensor) {
            PTE_CHECK(one(v, p));
        } else {
            PTE_CHECK(needArray());
            for (std::size_t i = 0; i < v.size(); ++i)
                PTE_CHECK(one(v[i], indexPath(p, i)));
        }
    } else if (k == "as_graph") {
        a.kind = ArgKind::Graph;
        PTE_TRY(auto n, toString(field(v, "name"), joinPath(p, "name")));
        a.strings.push_back(std::move(n));
        PTE_TRY(auto g, graph(field(v, "graph"), joinPath(p, "graph"), depth + 1));
        a.graph = std::make_shared<const Graph>(std::move(g));
    } else if (k == "as_custom_obj") {
        a.kind = ArgKind::CustomObj;
        PTE_TRY(auto n, toString(field(v, "name"), joinPath(p, "name")));
        a.names.push_back(std::move(n));
        const json& fqn = field(v, "class_fqn");
        a.strings.push_back(fqn.is_string() ? fqn.get<std::string>() : std::string());
    } else if (k == "as_complex") {
        a.kind = ArgKind::Complex;
        PTE_TRY(auto re, toFloat(field(v, "real"), joinPath(p, "real")));
        PTE_TRY(auto im, toFloat(field(v, "imag"), joinPath(p, "imag")));
        a.floats = { re, im };
    } else if (k == "as_int_lists" || k == "as_float_lists" || k == "as_nested_tensors") {
        a.kind = k == "as_int_lists" ? ArgKind::IntLists
            : k == "as_float_lists"  ? ArgKind::FloatLists
                                     : ArgKind::NestedTensors;
        PTE_CHECK(needArray());
        for (std::size_t i = 0; i < v.size(); ++i) {
            const json& inner = v[i];
            const std::string ip = indexPath(p, i);
            if (!inner.is_array())
                return bad(ip, "expected an array, found " + describe(inner));
            a.listSizes.push_back(static_cast<std::int64_t>(inner.size()));
            for (std::size_t e = 0; e < inner.size(); ++e) {
                const std::string ep = indexPath(ip, e);
                if (a.kind == ArgKind::IntLists) {
                    PTE_TRY(auto x, toInt(inner[e], ep));
                    a.ints.push_back(x);
                } else if (a.kind == ArgKind::FloatLists) {
                    PTE_TRY(auto x, toFloat(inner[e], ep));
                    a.floats.push_back(x);
                } else {
                    PTE_TRY(auto n, tensorName(inner[e], ep));
                    a.names.push_back(std::move(n));
                }
            }
        }
    } else if (k == "as_string_to_argument") {
        a.kind = ArgKind::StringToArgument;
        if (!v.is_object())
            return bad(p, "expected an object, found " + describe(v));
        for (auto it = v.begin(); it != v.end(); ++it) {
            a.strings.push_back(it.key());
            PTE_TRY(auto child, argument(it.value(), joinPath(p, it.key()), depth + 1));
            a.children.push_back(std::move(child));
        }
    } else {
        return bad(path, "unknown argument kind '" + k + "'");
    }
    return a;
}

std::vector<std::int64_t> Decoder::parseHandles(const std::string& s)
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

Result<Node> Decoder::node(const json& j, const std::string& path, int depth)
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

Result<Graph> Decoder::graph(const json& j, const std::string& path, int depth)
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

Result<Argument> Decoder::tensorArg(const json& j, const std::string& path) const
{
    PTE_TRY(auto n, tensorName(j, path));
    return Argument::tensor(std::move(n));
}

Result<GraphSignature> Decoder::signature(const json& j, const std::string& path, const Graph& g)
{
    GraphSignature sig;
    if (!j.is_object())
        return bad(path, "expected a GraphSignature object, found " + describe(j));
    if (!j.contains("input_specs") && (j.contains("inputs_to_parameters") || j.contains("user_inputs")))
        return legacySignature(j, path, g);
    const json& ins = field(j, "input_specs");
    for (std::size_t i = 0; ins.is_array() && i < ins.size(); ++i) {
        const std::string ip = indexPath(joinPath(path, "input_specs"), i);
        PTE_TRY(const auto alt, unionAlt(ins[i], ip));
        const json& v = *alt.second;
        const std::string p = joinPath(ip, alt.first);
        InputSpec s;
        auto target = [&](const char* key) -> Result<void> {
            PTE_TRY(s.target, toString(field(v, key), joinPath(p, key)));
            return {};
        };
        if (alt.first == "user_input") {
            s.kind = InputKind::UserInput;
            PTE_TRY(s.arg, argument(field(v, "arg"), joinPath(p, "arg"), 0));
        } else if (alt.first == "parameter") {
            s.kind = InputKind::Parameter;
            PTE_TRY(s.arg, tensorArg(field(v, "arg"), joinPath(p, "arg")));
            PTE_CHECK(target("parameter_name"));
        } else if (alt.first == "buffer") {
            s.kind = InputKind::Buffer;
            PTE_TRY(s.arg, tensorArg(field(v, "arg"), joinPath(p, "arg")));
            PTE_CHECK(target("buffer_name"));
            if (field(v, "persistent").is_boolean())
                s.persistent = v["persistent"].get<bool>();
        } else if (alt.first == "tensor_constant") {
            s.kind = InputKind::TensorConstant;
            PTE_TRY(s.arg, tensorArg(field(v, "arg"), joinPath(p, "arg")));
            PTE_CHECK(target("tensor_constant_name"));
        } else if (alt.first == "custom_obj") {
            s.kind = InputKind::CustomObj;
            s.arg.kind = ArgKind::CustomObj;
            PTE_TRY(auto n, toString(field(field(v, "arg"), "name"), joinPath(p, "arg.name")));
            s.arg.names.push_back(std::move(n));
            const json& fqn = field(field(v, "arg"), "class_fqn");
            s.arg.strings.push_back(fqn.is_string() ? fqn.get<std::string>() : std::string());
            PTE_CHECK(target("custom_obj_name"));
        } else if (alt.first == "token") {
            s.kind = InputKind::Token;
            PTE_TRY(s.arg, tensorArg(field(v, "arg"), joinPath(p, "arg")));
        } else if (alt.first == "constant_input") {
            s.kind = InputKind::ConstantInput;
            PTE_CHECK(target("name"));
            PTE_TRY(s.constantValue, argument(field(v, "value"), joinPath(p, "value"), 0));
        } else {
            return bad(ip, "unknown input spec kind '" + alt.first + "'");
        }
        sig.inputSpecs.push_back(std::move(s));
    }
    const json& outs = field(j, "output_specs");
    for (std::size_t i = 0; outs.is_array() && i < outs.size(); ++i) {
        const std::string op = indexPath(joinPath(path, "output_specs"), i);
        PTE_TRY(const auto alt, unionAlt(outs[i], op));
        const json& v = *alt.second;
        const std::string p = joinPath(op, alt.first);
        OutputSpec s;
        const char* targetKey = nullptr;
        if (alt.first == "user_output") {
            s.kind = OutputKind::UserOutput;
            PTE_TRY(s.arg, argument(field(v, "arg"), joinPath(p, "arg"), 0));
        } else {
            if (alt.first == "loss_output") {
                s.kind = OutputKind::LossOutput;
            } else if (alt.first == "buffer_mutation") {
                s.kind = OutputKind::BufferMutation;
                targetKey = "buffer_name";
            } else if (alt.first == "gradient_to_parameter") {
                s.kind = OutputKind::GradientToParameter;
                targetKey = "parameter_name";
            } else if (alt.first == "gradient_to_user_input") {
                s.kind = OutputKind::GradientToUserInput;
                targetKey = "user_input_name";
            } else if (alt.first == "user_input_mutation") {
                s.kind = OutputKind::UserInputMutation;
                targetKey = "user_input_name";
            } else if (alt.first == "token") {
                s.kind = OutputKind::Token;
            } else if (alt.first == "parameter_mutation") {
                s.kind = OutputKind::ParameterMutation;
                targetKey = "parameter_name";
            } else {
                return bad(op, "unknown output spec kind '" + alt.first + "'");
            }
            PTE_TRY(s.arg, tensorArg(field(v, "arg"), joinPath(p, "arg")));
            if (targetKey) {
                PTE_TRY(s.target, toString(field(v, targetKey), joinPath(p, targetKey)));
            }
        }
        sig.outputSpecs.push_back(std::move(s));
    }
    return sig;
}

Result<GraphSignature> Decoder::legacySignature(const json& j, const std::string& path, const Graph& g)
{
    warn(path, "torch 2.1 dict-style graph signature: converted for display", Severity::Info);
    GraphSignature sig;
    auto lookup = [&](const char* key, const std::string& name) -> std::optional<std::string> {
        const json& m = field(j, key);
        const json& v = field(m, name.c_str());
        if (v.is_string())
            return v.get<std::string>();
        return std::nullopt;
    };
    for (const auto& in : g.inputs) {
        InputSpec s;
        s.arg = in;
        const std::string name = in.names.empty() ? std::string() : in.names.front();
        if (auto p = lookup("inputs_to_parameters", name)) {
            s.kind = InputKind::Parameter;
            s.target = *p;
        } else if (auto b = lookup("inputs_to_buffers", name)) {
            s.kind = InputKind::Buffer;
            s.target = *b;
        }
        sig.inputSpecs.push_back(std::move(s));
    }
    const json& bw = field(j, "backward_signature");
    for (const auto& out : g.outputs) {
        OutputSpec s;
        s.arg = out;
        const std::string name = out.names.empty() ? std::string() : out.names.front();
        if (auto b = lookup("buffers_to_mutate", name)) {
            s.kind = OutputKind::BufferMutation;
            s.target = *b;
        } else if (field(field(bw, "gradients_to_parameters"), name.c_str()).is_string()) {
            s.kind = OutputKind::GradientToParameter;
            s.target = bw["gradients_to_parameters"][name].get<std::string>();
        } else if (field(field(bw, "gradients_to_user_inputs"), name.c_str()).is_string()) {
            s.kind = OutputKind::GradientToUserInput;
            s.target = bw["gradients_to_user_inputs"][name].get<std::string>();
        } else if (field(bw, "loss_output").is_string() && bw["loss_output"].get<std::string>() == name) {
            s.kind = OutputKind::LossOutput;
        }
        sig.outputSpecs.push_back(std::move(s));
    }
    return sig;
}

Result<std::shared_ptr<const LoweredModule>> Decoder::loweredModule(
    const std::string& text, const std::string& name, const std::string& path, int depth)
{
    const std::string label = m_source + " (" + path + ")";
    PTE_TRY(const json j, parseJsonText(text, label));
    auto lm = std::make_shared<LoweredModule>();
    lm->name = name;
    PTE_TRY(lm->backendId, toString(field(j, "backend_id"), joinPath(path, "backend_id")));
    const json& pb = field(j, "processed_bytes");
    if (pb.is_string()) {
        auto bytes = decodeBase64(pb.get_ref<const std::string&>());
        if (!bytes)
            return bad(joinPath(path, "processed_bytes"), "invalid base64");
        lm->processedBytes = Bytes::fromVector(std::move(*bytes));
    }
    const json& cs = field(j, "compile_specs");
    for (std::size_t i = 0; cs.is_array() && i < cs.size(); ++i) {
        const std::string cp = indexPath(joinPath(path, "compile_specs"), i);
        CompileSpec spec;
        PTE_TRY(spec.key, toString(field(cs[i], "key"), joinPath(cp, "key")));
        const json& value = field(cs[i], "value");
        if (value.is_string()) {
            auto bytes = decodeBase64(value.get_ref<const std::string&>());
            if (!bytes)
                return bad(joinPath(cp, "value"), "invalid base64");
            spec.value = Bytes::fromVector(std::move(*bytes));
        }
        lm->compileSpecs.push_back(std::move(spec));
    }
    const json& om = field(j, "original_module");
    if (om.is_object()) {
        Decoder nested(m_source + " (" + joinPath(path, "original_module") + ")", m_diags);
        nested.maxEntrySize = maxEntrySize;
        PTE_TRY(auto ep, nested.program(om, depth + 1));
        const json& osd = field(j, "original_state_dict");
        if (osd.is_string() && !osd.get_ref<const std::string&>().empty()) {
            auto bytes = decodeBase64(osd.get_ref<const std::string&>());
            if (!bytes)
                return bad(joinPath(path, "original_state_dict"), "invalid base64");
            if (!bytes->empty()) {
                auto saved = readTorchSave(Bytes::fromVector(std::move(*bytes)),
                    m_source + " (" + joinPath(path, "original_state_dict") + ")", maxEntrySize);
                if (saved) {
                    for (auto& s : *saved) {
                        if (s.tensor.fake) {
                            auto meta = nested.fakeTensorMeta(s, joinPath(path, "original_state_dict"), "weight");
                            if (!meta)
                                continue; // reported as a warning
                            s.tensor.meta = std::move(meta).value();
                        }
                        ep->weights.emplace(s.key, std::move(s.tensor));
                    }
                } else {
                    warn(joinPath(path, "original_state_dict"), saved.error().message);
                }
            }
        }
        lm->originalModule = std::move(ep);
    }
    const json& nds = field(j, "named_data_store");
    if (nds.is_string() || nds.is_object()) {
        json parsed;
        if (nds.is_string()) {
            PTE_TRY(parsed,
                parseJsonText(
                    nds.get_ref<const std::string&>(), m_source + " (" + joinPath(path, "named_data_store") + ")"));
        } else {
            parsed = nds;
        }
        const std::string ndsPath = joinPath(path, "named_data_store");
        const json& buffers = field(parsed, "buffers");
        std::map<std::int64_t, Bytes> decoded; // each buffer decoded once, shared by the entries naming it
        auto entry = [&](const json& e, const std::string& dp) -> Result<LoweredModule::NamedDataEntry> {
            LoweredModule::NamedDataEntry out;
            PTE_TRY(out.bufferIndex, toInt(field(e, "buffer_index"), joinPath(dp, "buffer_index")));
            const std::int64_t idx = out.bufferIndex;
            if (!buffers.is_array() || idx < 0 || static_cast<std::size_t>(idx) >= buffers.size()
                || !buffers[static_cast<std::size_t>(idx)].is_string())
                return bad(dp, "buffer_index " + std::to_string(idx) + " is out of range");
            const json& al = field(e, "alignment");
            if (!al.is_null()) {
                PTE_TRY(const auto a, toInt(al, joinPath(dp, "alignment")));
                if (a < 0 || a > (std::int64_t(1) << 30))
                    return bad(joinPath(dp, "alignment"), "alignment " + std::to_string(a) + " is out of range");
                out.alignment = static_cast<std::uint32_t>(a);
            }
            auto it = decoded.find(idx);
            if (it == decoded.end()) {
                auto bytes = decodeBase64(buffers[static_cast<std::size_t>(idx)].get_ref<const std::string&>());
                if (!bytes)
                    return bad(dp, "invalid base64 in the referenced buffer");
                it = decoded.emplace(idx, Bytes::fromVector(std::move(*bytes))).first;
            }
            out.data = it->second;
            return out;
        };
        const json& pteData = field(parsed, "pte_data");
        if (pteData.is_object())
            for (auto it = pteData.begin(); it != pteData.end(); ++it) {
                const std::string dp = joinPath(joinPath(ndsPath, "pte_data"), it.key());
                PTE_TRY(auto e, entry(it.value(), dp));
                lm->namedData.emplace(it.key(), e.data);
                lm->pteDataEntries.emplace(it.key(), std::move(e));
            }
        const json& external = field(parsed, "external_data");
        if (!external.is_null() && !external.is_object())
            return bad(joinPath(ndsPath, "external_data"), "expected an object, found " + describe(external));
        if (external.is_object())
            for (auto f = external.begin(); f != external.end(); ++f) {
                const std::string fp = joinPath(joinPath(ndsPath, "external_data"), f.key());
                if (!f->is_object())
                    return bad(fp, "expected an object of data entries, found " + describe(*f));
                auto& perFile = lm->externalData[f.key()];
                for (auto it = f->begin(); it != f->end(); ++it) {
                    PTE_TRY(auto e, entry(it.value(), joinPath(fp, it.key())));
                    perFile.emplace(it.key(), std::move(e));
                }
            }
    }
    const json& dim = field(j, "delegate_debug_identifier_map");
    if (dim.is_object()) {
        std::map<std::string, std::vector<std::int64_t>> m;
        for (auto it = dim.begin(); it != dim.end(); ++it) {
            std::vector<std::int64_t> handles;
            if (it->is_array()) {
                for (const auto& h : *it)
                    if (h.is_number_integer())
                        handles.push_back(h.get<std::int64_t>());
            } else if (it->is_number_integer()) {
                handles.push_back(it->get<std::int64_t>());
            }
            m.emplace(it.key(), std::move(handles));
        }
        lm->delegateDebugIdentifierMap = std::move(m);
    }
    return std::shared_ptr<const LoweredModule>(std::move(lm));
}

Result<void> Decoder::version(const json& j, ExportedProgram& ep)
{
    const json& sv = field(j, "schema_version");
    if (sv.is_number_integer()) {
        PTE_TRY(const auto v, toInt(sv, "schema_version"));
        ep.schemaMajor = static_cast<std::int32_t>(v);
    } else if (sv.is_object()) {
        PTE_TRY(const auto ma, toInt(field(sv, "major"), "schema_version.major"));
        PTE_TRY(const auto mi, toInt(field(sv, "minor"), "schema_version.minor"));
        ep.schemaMajor = static_cast<std::int32_t>(ma);
        ep.schemaMinor = static_cast<std::int32_t>(mi);
    } else if (sv.is_null()) {
        warn("schema_version", "no schema_version; assuming the current torch schema");
        ep.schemaMajor = 8;
    } else {
        return bad("schema_version", "expected an integer or {major, minor}, found " + describe(sv));
    }
    // Verifiers: a list, or the older "dialect" string.
    const json& verifiers = field(j, "verifiers");
    if (verifiers.is_array()) {
        for (const auto& v : verifiers)
            if (v.is_string())
                ep.verifiers.push_back(v.get<std::string>());
    }
    const json& dialect = field(j, "dialect");
    if (ep.verifiers.empty() && dialect.is_string() && !dialect.get_ref<const std::string&>().empty())
        ep.verifiers.push_back(dialect.get<std::string>());
    if (field(j, "torch_version").is_string())
        ep.torchVersion = j["torch_version"].get<std::string>();

    // ExecuTorch's serde fork: EDGE verifier, or both "dialect" and "verifiers" present.
    const bool edge = std::find(ep.verifiers.begin(), ep.verifiers.end(), "EDGE") != ep.verifiers.end();
    if (edge || (j.contains("dialect") && j.contains("verifiers") && ep.schemaMajor == 5))
        executorchSerde = true;
    ep.executorchSerde = executorchSerde;

    const int major = ep.schemaMajor;
    const int minor = ep.schemaMinor;
    if (executorchSerde) {
        table = DtypeTable::ExecuTorch;
        if (major != 5 && major != 1)
            return bad("schema_version",
                "unsupported ExecuTorch serde schema major version " + std::to_string(major) + " (supported: 1, 5.x)",
                ErrorCode::UnsupportedVersion);
        if (major == 5 && minor > 4)
            warn("schema_version",
                "ExecuTorch serde schema 5." + std::to_string(minor) + " is newer than 5.4; reading it anyway");
        return {};
    }
    if (major < 1 || major > 8)
        return bad("schema_version",
            "unsupported export schema major version " + std::to_string(major) + " (supported: 1 to 8)",
            ErrorCode::UnsupportedVersion);
    if (major == 8 && minor > 20)
        warn("schema_version", "export schema 8." + std::to_string(minor) + " is newer than 8.20; reading it anyway");
    table = major <= 7 ? DtypeTable::TorchUpTo7 : minor < 7 ? DtypeTable::Torch8Early : DtypeTable::Torch8Current;
    return {};
}

Result<std::shared_ptr<ExportedProgram>> Decoder::program(const json& j, int depth)
{
    if (!j.is_object())
        return bad("", "expected an ExportedProgram object, found " + describe(j));
    const json& gm = field(j, "graph_module");
    if (!gm.is_object())
        return bad("graph_module", "missing or not an object (this is not a serialized ExportedProgram)");
    auto ep = std::make_shared<ExportedProgram>();
    ep->source = m_source;
    PTE_CHECK(version(j, *ep));
    const bool streamed = deferDtypes;
    if (streamed) {
        if (streamError)
            return *streamError;
        deferDtypes = false;
    }
    PTE_TRY(ep->graph, graph(field(gm, "graph"), "graph_module.graph", depth));
    if (streamed) {
        ep->graph.nodes = std::move(streamedNodes);
        ep->graph.tensorValues = std::move(streamedTensorValues);
        PTE_CHECK(fixDtypes(ep->graph, "graph_module.graph"));
    }
    PTE_TRY(ep->signature, signature(field(gm, "signature"), "graph_module.signature", ep->graph));
    const json& mcg = field(gm, "module_call_graph");
    for (std::size_t i = 0; mcg.is_array() && i < mcg.size(); ++i) {
        const json& e = mcg[i];
        ModuleCallEntry entry;
        if (field(e, "fqn").is_string())
            entry.fqn = e["fqn"].get<std::string>();
        const json& sig = field(e, "signature");
        if (sig.is_object()) {
            if (field(sig, "in_spec").is_string())
                entry.inSpec = sig["in_spec"].get<std::string>();
            if (field(sig, "out_spec").is_string())
                entry.outSpec = sig["out_spec"].get<std::string>();
            const json& fan = field(sig, "forward_arg_names");
            for (std::size_t k = 0; fan.is_array() && k < fan.size(); ++k)
                if (fan[k].is_string())
                    entry.forwardArgNames.push_back(fan[k].get<std::string>());
        }
        ep->moduleCallGraph.push_back(std::move(entry));
    }
    const json& callSpec = field(gm, "call_spec"); // 2.1
    if (callSpec.is_object() && ep->moduleCallGraph.empty()) {
        ModuleCallEntry entry;
        if (field(callSpec, "in_spec").is_string())
            entry.inSpec = callSpec["in_spec"].get<std::string>();
        if (field(callSpec, "out_spec").is_string())
            entry.outSpec = callSpec["out_spec"].get<std::string>();
        ep->moduleCallGraph.push_back(std::move(entry));
    }
    const json& md = field(gm, "metadata");
    if (md.is_object())
        for (auto it = md.begin(); it != md.end(); ++it)
            ep->graphModuleMetadata.emplace(it.key(), it->is_string() ? it->get<std::string>() : it->dump());
    const json& ov = field(j, "opset_version");
    if (ov.is_object())
        for (auto it = ov.begin(); it != ov.end(); ++it) {
            PTE_TRY(const auto v, toInt(it.value(), joinPath("opset_version", it.key())));
            ep->opsetVersion.emplace(it.key(), v);
        }
    const json& rc = field(j, "range_constraints");
    if (rc.is_object())
        for (auto it = rc.begin(); it != rc.end(); ++it) {
            const std::string rp = joinPath("range_constraints", it.key());
            RangeConstraint r;
            auto bound = [&](const char* key, std::optional<std::int64_t>& into) -> Result<void> {
                const json& b = field(it.value(), key);
                if (b.is_null())
                    return {};
                if (b.is_number_unsigned() && b.get<std::uint64_t>() > std::uint64_t(INT64_MAX))
                    return {}; // beyond int64: unbounded
                if (b.is_number_integer()) {
                    PTE_TRY(into, toInt(b, joinPath(rp, key)));
                    return {};
                }
                PTE_TRY(const double d, toFloat(b, joinPath(rp, key)));
                if (std::isfinite(d))
                    into = static_cast<std::int64_t>(d);
                return {};
            };
            PTE_CHECK(bound("min_val", r.minVal));
            PTE_CHECK(bound("max_val", r.maxVal));
            ep->rangeConstraints.emplace(it.key(), r);
        }
    ep->loweredModules = std::move(m_lowered);
    m_lowered.clear();
    return ep;
}

namespace {

/** The node whose JSON path is the longest prefix of `path` (ending at a '.' or '[' boundary), or nullptr. */
const Node* nodeAtPath(const Graph& graph, std::string_view path)
{
    const Node* best = nullptr;
    for (const auto& n : graph.nodes) {
        if (n.jsonPath.empty() || !path.starts_with(n.jsonPath))
            continue;
        if (path.size() > n.jsonPath.size() && path[n.jsonPath.size()] != '.' && path[n.jsonPath.size()] != '[')
            continue;
        if (!best || n.jsonPath.size() > best->jsonPath.size())
            best = &n;
    }
    return best;
}

} // namespace

Result<std::shared_ptr<ExportedProgram>> decodeProgram(
    std::string_view text, const std::string& source, Diagnostics& diags, std::uint64_t maxEntrySize)
{
    Diagnostics local;
    Decoder d(source, local);
    d.maxEntrySize = static_cast<std::int64_t>(std::min<std::uint64_t>(maxEntrySize, INT64_MAX));
    d.deferDtypes = true;
    std::shared_ptr<ExportedProgram> ep;
    try {
        json root;
        PTE_CHECK(parseJsonStreamed(
            text, source, root,
            [&](json&& item, std::size_t index, const std::string&) { d.onStreamedNode(std::move(item), index); },
            [&](json&& item, std::size_t, const std::string& key) { d.onStreamedTensorValue(std::move(item), key); }));
        auto r = d.program(root);
        if (!r)
            return std::move(r).error();
        ep = std::move(r).value();
    } catch (const std::exception& e) {
        // The decoder checks types before every access; this is a safety net at the library boundary.
        return fail(ErrorCode::InvalidInput, source + ": malformed exported program: " + e.what());
    }
    // Findings inside a node say which node (Diagnostic::location), for tools that navigate to it.
    for (auto& diag : local)
        if (diag.location.node.empty() && !diag.fieldPath.empty())
            if (const Node* at = nodeAtPath(ep->graph, diag.fieldPath))
                diag.location.node = at->name;
    // The program keeps its own findings; the caller collects them for the whole dump.
    ep->diagnostics = local;
    diags.insert(diags.end(), local.begin(), local.end());
    return ep;
}

DtypeTable dtypeTableFor(const ExportedProgram& ep)
{
    if (ep.executorchSerde)
        return DtypeTable::ExecuTorch;
    return ep.schemaMajor <= 7 ? DtypeTable::TorchUpTo7
        : ep.schemaMinor < 7   ? DtypeTable::Torch8Early
                               : DtypeTable::Torch8Current;
}

/** A decoder for TensorMeta JSON embedded in `ep`'s pickles (fake tensors), with the program's dtype table. */
Decoder metaDecoder(const ExportedProgram& ep, const std::string& label, Diagnostics& diags)
{
    Decoder dec(label, diags);
    dec.table = dtypeTableFor(ep);
    dec.executorchSerde = ep.executorchSerde;
    return dec;
}

} // namespace dump

Result<std::shared_ptr<ExportedProgram>> parseExportedProgramJson(std::string_view json, const std::string& sourceName)
{
    Diagnostics diags;
    PTE_TRY(auto ep, dump::decodeProgram(json, sourceName, diags, std::uint64_t(64) << 30));
    dump::computeMissingWeights(*ep);
    return ep;
}

} // namespace pte
