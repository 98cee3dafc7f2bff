// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// The exported-program decoder's node arguments: every alternative of the serde's Argument union.
#include "dump/exportedprogramdecoder.h"

namespace pte::dump {

Result<std::string> ExportedProgramDecoder::tensorName(const json& j, const std::string& path) const
{
    if (j.is_string())
        return j.get<std::string>(); // 2.1 OptionalTensorArgument.as_tensor
    return toString(field(j, "name"), joinPath(path, "name"));
}

Result<Argument> ExportedProgramDecoder::argument(const json& j, const std::string& path, int depth)
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

Result<Argument> ExportedProgramDecoder::tensorArg(const json& j, const std::string& path) const
{
    PTE_TRY(auto n, tensorName(j, path));
    return Argument::tensor(std::move(n));
}

} // namespace pte::dump
