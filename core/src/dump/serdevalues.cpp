// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// The exported-program decoder's leaves: errors and findings at a JSON path, scalars, unions, SymInts, dtypes,
// TensorMetas.
#include "dump/exportedprogramdecoder.h"
#include "pte/graphtext.h"

#include <limits>

namespace pte::dump {

Unexpected ExportedProgramDecoder::bad(const std::string& path, const std::string& what, ErrorCode code) const
{
    return fail(code, m_source + ": " + what + " at " + (path.empty() ? std::string("the top level") : path), {}, path);
}

void ExportedProgramDecoder::warn(const std::string& path, const std::string& what, Severity sev)
{
    Diagnostic d;
    d.severity = sev;
    d.code = ErrorCode::InvalidInput;
    d.message = what;
    d.fieldPath = path;
    d.file = m_source;
    m_diags.push_back(std::move(d));
}

Result<std::int64_t> ExportedProgramDecoder::toInt(const json& j, const std::string& path) const
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

Result<double> ExportedProgramDecoder::toFloat(const json& j, const std::string& path) const
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

Result<std::string> ExportedProgramDecoder::toString(const json& j, const std::string& path) const
{
    if (!j.is_string())
        return bad(path, "expected a string, found " + describe(j));
    return j.get<std::string>();
}

Result<bool> ExportedProgramDecoder::toBool(const json& j, const std::string& path) const
{
    if (j.is_boolean())
        return j.get<bool>();
    if (j.is_number_integer())
        return j.get<std::int64_t>() != 0;
    return bad(path, "expected a boolean, found " + describe(j));
}

Result<std::pair<std::string, const json*>> ExportedProgramDecoder::unionAlt(
    const json& j, const std::string& path) const
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

Result<SymInt> ExportedProgramDecoder::symInt(const json& j, const std::string& path) const
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

Result<ScalarType> ExportedProgramDecoder::dtype(const json& j, const std::string& path, std::int32_t* raw) const
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

Result<TensorMeta> ExportedProgramDecoder::tensorMeta(const json& jIn, const std::string& pathIn) const
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

Result<TensorMeta> ExportedProgramDecoder::fakeTensorMeta(
    const SavedTensor& s, const std::string& where, const char* what)
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

} // namespace pte::dump
