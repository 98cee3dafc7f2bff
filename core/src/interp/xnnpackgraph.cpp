// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// Running a decoded XNNPACK graph for one DelegateCall: constants loaded from their resolved bytes, the call's
// arguments bound to the external values by external id (as the runtime binds them), nodes in payload order, the
// external outputs handed back. The operators themselves are in xnnpacknodes.cpp.
#include "interp/xnnpackgraph.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace pte::interp {

namespace {

std::string nodeName(const InnerNode& n) { return "XNNPACK node " + std::to_string(n.index) + " (" + n.kind + ")"; }

/** Reads `count` little-endian elements of `width` bytes. */
template <typename T> std::vector<T> readLe(const Bytes& bytes, std::size_t count)
{
    std::vector<T> out(count);
    if (count)
        std::memcpy(out.data(), bytes.data(), count * sizeof(T)); // x86-64 and ARM64 are little-endian
    return out;
}

Result<XnnTensor> loadConstant(const InnerValue& v)
{
    XnnTensor t;
    t.dims.assign(v.dims.begin(), v.dims.end());
    const Bytes& data = v.constant->data;
    const std::string what = "constant value " + std::to_string(v.id) + " (" + v.dtype + ")";
    // The element count, without overflow: dims beyond the bytes present are refused before anything is read.
    std::size_t n = 1;
    for (const auto d : t.dims) {
        if (d != 0 && n > data.size() / d)
            return fail(
                ErrorCode::InvalidInput, what + ": dims larger than its " + std::to_string(data.size()) + " bytes");
        n *= d;
    }
    auto need = [&](std::size_t width) -> Result<void> {
        if (n > data.size() / width)
            return fail(ErrorCode::InvalidInput,
                what + " holds " + std::to_string(data.size()) + " bytes, " + std::to_string(n) + " elements of "
                    + std::to_string(width) + " needed");
        return {};
    };
    if (v.dtype == "fp32") {
        PTE_CHECK(need(4));
        t.f = readLe<float>(data, n);
    } else if (v.quant && (v.dtype == "qint8" || v.dtype == "qcint8")) {
        PTE_CHECK(need(1));
        t.quantized = true;
        t.q.resize(n);
        for (std::size_t i = 0; i < n; ++i)
            t.q[i] = std::int8_t(data.data()[i]);
    } else if (v.quant && (v.dtype == "quint8")) {
        PTE_CHECK(need(1));
        t.quantized = true;
        t.q.assign(data.data(), data.data() + n);
    } else if (v.quant && (v.dtype == "qint32" || v.dtype == "qcint32")) {
        PTE_CHECK(need(4));
        t.quantized = true;
        t.q = readLe<std::int32_t>(data, n);
    } else {
        return fail(ErrorCode::Unsupported, what + ": the reference interpreter does not read this dtype");
    }
    if (t.quantized)
        t.quant = &*v.quant;
    return t;
}

} // namespace

double XnnTensor::real(std::size_t i) const
{
    if (!quantized)
        return f[i];
    if (!quant || quant->kind != QuantParams::Kind::PerTensor)
        return std::nan("");
    return double(float(q[i] - quant->zeroPoint) * quant->scale);
}

Result<std::vector<HostTensor>> runXnnpackGraph(
    const DelegatePayload& payload, const std::vector<HostTensor>& args, const XnnpackNodeObserver& observer)
{
    if (!payload.graphDecoded)
        return fail(ErrorCode::InvalidInput, "the XNNPACK payload was not decoded");
    for (const auto& n : payload.nodes)
        if (auto why = unsupportedXnnpackNode(payload, n))
            return fail(
                ErrorCode::Unsupported, nodeName(n) + " is not supported by the reference interpreter: " + *why);

    // The call's outputs are its last arguments: the graph's external outputs, by external id.
    const std::size_t outputs = payload.outputIds.size();
    if (outputs > args.size())
        return fail(ErrorCode::InvalidInput,
            "the XNNPACK graph has " + std::to_string(outputs) + " outputs but the call only "
                + std::to_string(args.size()) + " arguments");
    const std::size_t firstOutput = args.size() - outputs;

    XnnValues values;
    for (const auto& v : payload.values) {
        if (v.constant) {
            auto t = loadConstant(v);
            if (!t)
                return fail(t.error().code, t.error().message);
            values.emplace(v.id, std::move(t).value());
        }
    }
    for (const auto id : payload.inputIds) {
        const InnerValue* v = payload.value(id);
        if (!v || !v->externalId)
            return fail(ErrorCode::InvalidInput, "graph input " + std::to_string(id) + " has no external id");
        const auto ext = std::size_t(*v->externalId);
        if (ext >= firstOutput)
            return fail(ErrorCode::InvalidInput,
                "graph input " + std::to_string(id) + " is bound to argument " + std::to_string(ext)
                    + ", which is not among the call's " + std::to_string(firstOutput) + " inputs");
        if (v->dtype != "fp32" || v->quant)
            return fail(ErrorCode::Unsupported,
                "graph input " + std::to_string(id) + " is " + v->dtype
                    + ": the reference interpreter binds fp32 inputs only");
        const HostTensor& h = args[ext];
        XnnTensor t;
        for (const auto s : h.sizes)
            t.dims.push_back(std::size_t(std::max<std::int64_t>(s, 0)));
        if (h.sizes.empty() && h.values.size() == 1)
            t.dims = { 1 };
        if (t.numel() != h.values.size())
            return fail(ErrorCode::InvalidInput, "argument " + std::to_string(ext) + " has the wrong element count");
        if (t.dims.size() != v->dims.size() && !(t.numel() == 1 && v->dims.size() <= 1))
            return fail(ErrorCode::InvalidInput,
                "argument " + std::to_string(ext) + " has rank " + std::to_string(t.dims.size()) + ", graph input "
                    + std::to_string(id) + " rank " + std::to_string(v->dims.size()));
        if (t.dims.size() != v->dims.size())
            t.dims.assign(v->dims.begin(), v->dims.end());
        t.f.reserve(h.values.size());
        for (const double x : h.values)
            t.f.push_back(float(x));
        values[id] = std::move(t);
    }

    for (const auto& n : payload.nodes) {
        auto done = evalXnnpackNode(payload, n, values);
        if (!done)
            return fail(done.error().code, nodeName(n) + ": " + done.error().message);
        if (observer && !n.outputs.empty())
            observer(n.index, values.at(n.outputs.front().valueId));
    }

    std::vector<HostTensor> out(outputs);
    std::vector<bool> filled(outputs, false);
    for (const auto id : payload.outputIds) {
        const InnerValue* v = payload.value(id);
        if (!v || !v->externalId || *v->externalId < firstOutput || *v->externalId >= args.size())
            return fail(ErrorCode::InvalidInput,
                "graph output " + std::to_string(id) + " is not bound to one of the call's last "
                    + std::to_string(outputs) + " arguments");
        const auto k = std::size_t(*v->externalId) - firstOutput;
        const auto found = values.find(id);
        if (found == values.end())
            return fail(ErrorCode::InvalidInput, "no node writes graph output " + std::to_string(id));
        const XnnTensor& t = found->second;
        HostTensor& h = out[k];
        h.dtype = ScalarType::Float;
        // An output the runtime keeps with the rank of its argument (the graph may show a 0-D value as [1]).
        if (args[*v->externalId].sizes.size() != t.dims.size() && t.numel() == 1)
            h.sizes = args[*v->externalId].sizes;
        else
            h.sizes.assign(t.dims.begin(), t.dims.end());
        h.values.reserve(t.numel());
        for (std::size_t i = 0; i < t.numel(); ++i)
            h.values.push_back(t.real(i));
        filled[k] = true;
    }
    if (std::find(filled.begin(), filled.end(), false) != filled.end())
        return fail(ErrorCode::InvalidInput, "two graph outputs are bound to the same argument");
    return out;
}

} // namespace pte::interp
