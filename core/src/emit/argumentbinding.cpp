// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "emit/lowering_p.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <cstring>
#include <functional>
#include <limits>
#include <numeric>
#include <set>
#include <span>
#include <unordered_map>
#include <unordered_set>
#include <utility>

namespace pte::emitcore {

Result<IntElem> Lowering::intElem(const Argument& a, std::size_t i, const Where& where)
{
    if (i < a.syms.size()) {
        const auto& s = a.syms[i];
        if (s.value)
            return IntElem { *s.value, -1 };
        PTE_TRY(const int r, lookup(s.expr, where));
        return IntElem { 0, r };
    }
    if (i < a.ints.size())
        return IntElem { a.ints[i], -1 };
    if (i < a.names.size() && !a.names[i].empty()) {
        PTE_TRY(const int r, lookup(a.names[i], where));
        return IntElem { 0, r };
    }
    return fail(ErrorCode::InvalidInput, "method '" + m_method + "': " + where + ": malformed integer list");
}

Result<LArg> Lowering::convertUntyped(const Argument& a, const Where& where)
{
    LArg r;
    switch (a.kind) {
    case ArgKind::None:
        return r;
    case ArgKind::Tensor:
    case ArgKind::OptionalTensor: {
        if (a.names.empty() || a.names[0].empty())
            return r;
        PTE_TRY(r.ref, lookup(a.names[0], where));
        r.kind = m_out.values[std::size_t(r.ref)].isSym ? LArg::Kind::ValueRef : LArg::Kind::Tensor;
        return r;
    }
    case ArgKind::Tensors:
    case ArgKind::OptionalTensors: {
        r.kind = a.kind == ArgKind::Tensors ? LArg::Kind::TensorList : LArg::Kind::OptionalTensorList;
        for (const auto& nm : a.names) {
            if (nm.empty()) {
                r.kind = LArg::Kind::OptionalTensorList;
                r.refs.push_back(-1);
                continue;
            }
            PTE_TRY(const int ref, lookup(nm, where));
            r.refs.push_back(ref);
        }
        return r;
    }
    case ArgKind::Int:
    case ArgKind::ScalarType:
    case ArgKind::MemoryFormat:
    case ArgKind::Layout:
        r.kind = LArg::Kind::Int;
        r.i = a.kind == ArgKind::ScalarType && a.scalarType ? std::int64_t(*a.scalarType)
                                                            : (a.ints.empty() ? 0 : a.ints[0]);
        return r;
    case ArgKind::SymInt:
    case ArgKind::SymBool:
    case ArgKind::SymFloat: {
        if (a.kind == ArgKind::SymFloat && a.syms.empty() && a.names.empty()) {
            r.kind = LArg::Kind::Double;
            r.d = a.floats.empty() ? 0.0 : a.floats[0];
            return r;
        }
        PTE_TRY(const auto e, intElem(a, 0, where));
        if (e.ref < 0) {
            r.kind = a.kind == ArgKind::SymBool ? LArg::Kind::Bool : LArg::Kind::Int;
            r.i = e.literal;
            r.b = e.literal != 0;
        } else {
            r.kind = LArg::Kind::ValueRef;
            r.ref = e.ref;
        }
        return r;
    }
    case ArgKind::Ints:
    case ArgKind::SymInts: {
        r.kind = LArg::Kind::IntList;
        const std::size_t n = std::max({ a.ints.size(), a.syms.size(), a.names.size() });
        for (std::size_t i = 0; i < n; ++i) {
            PTE_TRY(const auto e, intElem(a, i, where));
            r.ints.push_back(e);
        }
        return r;
    }
    case ArgKind::Float:
        r.kind = LArg::Kind::Double;
        r.d = a.floats.empty() ? 0.0 : a.floats[0];
        return r;
    case ArgKind::Floats:
        r.kind = LArg::Kind::DoubleList;
        r.rare.emplace().ds = a.floats;
        return r;
    case ArgKind::Bool:
        r.kind = LArg::Kind::Bool;
        r.b = !a.bools.empty() && a.bools[0];
        return r;
    case ArgKind::Bools:
        // Python infers int lists for bools when no schema type is known (bool is an int).
        r.kind = LArg::Kind::IntList;
        for (const bool b : a.bools)
            r.ints.push_back({ b ? 1 : 0, -1 });
        return r;
    case ArgKind::String:
        r.kind = LArg::Kind::String;
        r.rare.emplace().s = a.strings.empty() ? std::string() : a.strings[0];
        return r;
    default:
        break;
    }
    return fail(ErrorCode::Unsupported,
        "method '" + m_method + "': " + where + ": unsupported constant type " + argKindName(a.kind));
}

Result<LArg> Lowering::convertArg(const Argument& a, const ArgType& t, const Where& where)
{
    LArg r;
    if (a.kind == ArgKind::None) {
        if (t.base == BaseType::Tensor && !t.optional && !t.isList)
            r.kind = LArg::Kind::PlaceholderTensor;
        return r;
    }
    if (t.isList) {
        switch (t.base) {
        case BaseType::Tensor: {
            PTE_TRY(r, convertUntyped(a, where));
            if (r.kind == LArg::Kind::Tensor) {
                r.refs = { r.ref };
                r.kind = LArg::Kind::TensorList;
            }
            if (t.elemOptional && r.kind == LArg::Kind::TensorList)
                r.kind = LArg::Kind::OptionalTensorList;
            if (r.kind != LArg::Kind::TensorList && r.kind != LArg::Kind::OptionalTensorList)
                return fail(
                    ErrorCode::InvalidInput, "method '" + m_method + "': " + where + ": expected a tensor list");
            for (const int ref : r.refs)
                if (ref >= 0 && m_out.values[std::size_t(ref)].isSym)
                    return fail(ErrorCode::InvalidInput,
                        "method '" + m_method + "': " + where
                            + ": AbstractValue corresponding to tensor type doesn't contain tensor value");
            return r;
        }
        case BaseType::Int:
        case BaseType::SymInt: {
            r.kind = LArg::Kind::IntList;
            if (a.kind == ArgKind::Int || a.kind == ArgKind::SymInt) {
                PTE_TRY(const auto e, intElem(a, 0, where));
                for (int k = 0; k < std::max(1, t.fixedSize); ++k)
                    r.ints.push_back(e);
                return r;
            }
            if (a.kind != ArgKind::Ints && a.kind != ArgKind::SymInts)
                return fail(ErrorCode::InvalidInput,
                    "method '" + m_method + "': " + where + ": expected an int list, got " + argKindName(a.kind));
            return convertUntyped(a, where);
        }
        case BaseType::Float: {
            r.kind = LArg::Kind::DoubleList;
            auto& ds = r.rare.emplace().ds;
            ds = a.floats;
            for (const auto v : a.ints)
                ds.push_back(double(v));
            return r;
        }
        case BaseType::Bool:
            r.kind = LArg::Kind::BoolList;
            r.rare.emplace().bs = a.bools;
            return r;
        default:
            return fail(
                ErrorCode::Unsupported, "method '" + m_method + "': " + where + ": Unknown list type: " + t.text);
        }
    }
    switch (t.base) {
    case BaseType::Tensor: {
        PTE_TRY(r, convertUntyped(a, where));
        if (r.kind != LArg::Kind::Tensor && r.kind != LArg::Kind::Null)
            return fail(ErrorCode::InvalidInput,
                "method '" + m_method + "': " + where + ": expected a tensor, got " + argKindName(a.kind));
        return r;
    }
    case BaseType::Float:
        if (a.kind == ArgKind::Int) {
            r.kind = LArg::Kind::Double;
            r.d = a.ints.empty() ? 0.0 : double(a.ints[0]);
            return r;
        }
        return convertUntyped(a, where);
    case BaseType::Bool:
        if (a.kind == ArgKind::Int) {
            r.kind = LArg::Kind::Bool;
            r.b = !a.ints.empty() && a.ints[0] != 0;
            return r;
        }
        return convertUntyped(a, where);
    case BaseType::MemoryFormat: {
        // torch serde: 1 contiguous, 2 channels_last, 3 channels_last_3d, 4 preserve; ExecuTorch: 0 contiguous, 1
        // preserve.
        const auto code = a.ints.empty() ? 0 : a.ints[0];
        if (code == 1 || code == 4) {
            r.kind = LArg::Kind::Int;
            r.i = code == 1 ? 0 : 1;
            return r;
        }
        return fail(ErrorCode::Unsupported,
            "method '" + m_method + "': " + where
                + ": Tensor has a memory_format that is unsupported in ExecuTorch (serde code " + std::to_string(code)
                + ")");
    }
    case BaseType::Layout: {
        const auto code = a.ints.empty() ? 7 : a.ints[0];
        if (code == 7 || code == 1) {
            r.kind = LArg::Kind::Int;
            r.i = code == 7 ? 0 : 1;
            return r;
        }
        return fail(ErrorCode::Unsupported,
            "method '" + m_method + "': " + where + ": layout code " + std::to_string(code) + " is not supported");
    }
    case BaseType::Device:
        return fail(ErrorCode::Unsupported,
            "method '" + m_method + "': " + where + ": Unsupported constant type: torch.device");
    default:
        return convertUntyped(a, where);
    }
}

Result<LArg> Lowering::defaultArg(const SchemaArg& a, const Where& where)
{
    // A default depends on the schema argument alone: parsed once per argument, copied for each call.
    if (const auto it = m_defaults.find(&a); it != m_defaults.end())
        return it->second;
    PTE_TRY(auto r, parseDefault(a, where));
    m_defaults.emplace(&a, r);
    return r;
}

Result<LArg> Lowering::parseDefault(const SchemaArg& a, const Where& where)
{
    LArg r;
    if (!a.defaultValue) {
        if (a.type.optional)
            return r;
        return fail(ErrorCode::InvalidInput,
            "method '" + m_method + "': " + where + ": required argument '" + a.name + "' is missing");
    }
    const std::string& d = *a.defaultValue;
    if (d == "None")
        return convertArg(Argument {}, a.type, where);
    auto parseInt = [](std::string_view s, std::int64_t& v) {
        const auto res = std::from_chars(s.data(), s.data() + s.size(), v);
        return res.ec == std::errc() && res.ptr == s.data() + s.size();
    };
    if (a.type.isList) {
        std::vector<std::string_view> items;
        std::string_view body = d;
        if (!body.empty() && body.front() == '[') {
            body = body.substr(1, body.size() - 2);
            std::size_t p = 0;
            while (p < body.size()) {
                auto c = body.find(',', p);
                if (c == std::string_view::npos)
                    c = body.size();
                auto item = body.substr(p, c - p);
                while (!item.empty() && item.front() == ' ')
                    item.remove_prefix(1);
                while (!item.empty() && item.back() == ' ')
                    item.remove_suffix(1);
                if (!item.empty())
                    items.push_back(item);
                p = c + 1;
            }
        } else {
            for (int k = 0; k < std::max(1, a.type.fixedSize); ++k)
                items.push_back(body);
        }
        if (a.type.base == BaseType::Int || a.type.base == BaseType::SymInt) {
            r.kind = LArg::Kind::IntList;
            for (const auto it : items) {
                std::int64_t v = 0;
                if (!parseInt(it, v))
                    return fail(ErrorCode::Internal, "bad default '" + d + "' for '" + a.name + "'");
                r.ints.push_back({ v, -1 });
            }
            return r;
        }
        if (a.type.base == BaseType::Bool) {
            r.kind = LArg::Kind::BoolList;
            auto& bs = r.rare.emplace().bs;
            for (const auto it : items)
                bs.push_back(it == "True");
            return r;
        }
        if (a.type.base == BaseType::Float) {
            r.kind = LArg::Kind::DoubleList;
            auto& ds = r.rare.emplace().ds;
            for (const auto it : items)
                ds.push_back(std::strtod(std::string(it).c_str(), nullptr));
            return r;
        }
        return fail(ErrorCode::Internal, "unsupported list default for '" + a.name + "'");
    }
    if (d == "True" || d == "False") {
        r.kind = LArg::Kind::Bool;
        r.b = d == "True";
        return r;
    }
    if (!d.empty() && (d.front() == '"' || d.front() == '\'')) {
        r.kind = LArg::Kind::String;
        r.rare.emplace().s = d.substr(1, d.size() - 2);
        return r;
    }
    if (d == "contiguous_format" || d == "preserve_format") {
        r.kind = LArg::Kind::Int;
        r.i = d == "contiguous_format" ? 0 : 1;
        return r;
    }
    if (d == "Mean" || d == "Sum" || d == "None_") {
        r.kind = LArg::Kind::Int;
        r.i = d == "None_" ? 0 : d == "Mean" ? 1 : 2; // at::Reduction
        return r;
    }
    if (d == "long") {
        r.kind = LArg::Kind::Int;
        r.i = std::int64_t(ScalarType::Long);
        return r;
    }
    std::int64_t iv = 0;
    if (parseInt(d, iv) && a.type.base != BaseType::Float) {
        r.kind = LArg::Kind::Int;
        r.i = iv;
        return r;
    }
    r.kind = LArg::Kind::Double;
    r.d = std::strtod(d.c_str(), nullptr);
    return r;
}

Result<ArgMap> Lowering::bindArgs(const OpSchema& s, const Node& n)
{
    ArgMap out;
    out.reserve(n.inputs.size());
    const Where where = this->where(n);
    std::size_t positional = 0;
    for (const auto& in : n.inputs) {
        int idx = in.name.empty() ? -1 : s.argIndex(in.name);
        if (idx < 0 && in.name.empty()) {
            // unnamed: by position among the non-kwarg-only arguments
            while (positional < s.args.size() && s.args[positional].kwargOnly)
                ++positional;
            if (positional < s.args.size())
                idx = int(positional++);
        }
        if (idx < 0) {
            warn(where + ": argument '" + in.name + "' is not in the schema " + s.key() + "; ignored", n.jsonPath,
                n.name);
            continue;
        }
        const auto& sa = s.args[std::size_t(idx)];
        if (sa.type.base == BaseType::Device && in.arg.kind == ArgKind::Device) {
            // torch.export writes device=cpu on factory functions (zeros, ones, full, arange...). No out form
            // takes a device (ExecuTorch's edge dialect drops it), so a CPU device is no argument at all.
            const std::string device = in.arg.strings.empty() ? std::string("cpu") : in.arg.strings[0];
            if (device != "cpu")
                return fail(nodeError(n, ErrorCode::Unsupported,
                    "argument '" + sa.name + "' is device '" + device + "': ExecuTorch programs run on the CPU"));
            continue;
        }
        if (in.arg.kind == ArgKind::Tensor && sa.type.base == BaseType::Tensor && !sa.type.isList
            && !in.arg.names.empty() && !in.arg.names[0].empty()) {
            // A tensor for a Tensor parameter (most arguments of most nodes): bound in place, as convertArg
            // would bind it. Anything unusual (unknown name, a symbolic value) takes the general path below.
            const auto ref = lookup(in.arg.names[0], where);
            if (ref && !m_out.values[std::size_t(*ref)].isSym) {
                LArg& slot = out[sa.name];
                slot = LArg {};
                slot.kind = LArg::Kind::Tensor;
                slot.ref = *ref;
                continue;
            }
        }
        auto arg = convertArg(in.arg, sa.type, where);
        if (!arg) {
            auto e = withPath(n, arg.error());
            e.message += " (argument '" + sa.name + "')";
            return fail(std::move(e));
        }
        out[sa.name] = std::move(*arg);
    }
    return out;
}

} // namespace pte::emitcore
