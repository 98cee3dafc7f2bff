// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// XNNPACK's operators as the reference interpreter evaluates them, written from XNNPACK's documented semantics
// (xnnpack.h's xnn_define_* comments) and ExecuTorch's serialization of them (docs/delegate-payloads.md):
// tensors are row-major in the graph's own layout (NHWC inside convolutions and pooling, the backend's transposes
// are nodes), convolution filters are [output channels, kernel h, kernel w, group input channels] and depthwise ones
// [1, kernel h, kernel w, channels], fully connected filters [output, input] ([input, output] with
// XNN_FLAG_TRANSPOSE_WEIGHTS), and every node's optional output_min_max clamps its output.
//
// Float operators compute in double and round each output to fp32 (the exact result rounded once; XNNPACK sums in
// fp32 in its own order, which the comparison tolerates). Quantized operators (static qint8 per tensor, qint8
// filters per tensor or per channel, qint32 biases) accumulate in int32 and requantize as XNNPACK's fp32
// requantization does: the accumulator times (input scale x filter scale / output scale) in fp32, clamped, rounded to
// nearest even, plus the output zero point. Parameter combinations whose meaning is not settled by the documentation
// (average pooling with padding, flags not listed here, dynamic quantization) are refused, naming the node, rather
// than guessed.
#include "interp/xnnpackgraph.h"
#include "pte/tensorshape.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <string_view>

namespace pte::interp {

namespace {

constexpr std::uint32_t kTransposeWeights = 0x1; // XNN_FLAG_TRANSPOSE_WEIGHTS (fully connected)
constexpr std::uint32_t kAlignCorners = 0x8; // XNN_FLAG_ALIGN_CORNERS (resize bilinear)
constexpr std::uint32_t kKeepDims = 0x40; // XNN_FLAG_KEEP_DIMS (pooling, reductions)

const std::string* param(const InnerNode& n, std::string_view name)
{
    for (const auto& p : n.params)
        if (p.name == name)
            return &p.value;
    return nullptr;
}

/** The unsigned integers of a parameter's text, in order: "3x3" -> 3, 3; "top 1, right 2, ..." -> 1, 2, ... */
std::vector<std::size_t> integers(const InnerNode& n, std::string_view name)
{
    std::vector<std::size_t> out;
    const std::string* text = param(n, name);
    if (!text)
        return out;
    const char* p = text->c_str();
    while (*p) {
        if (*p >= '0' && *p <= '9') {
            char* end = nullptr;
            out.push_back(std::size_t(std::strtoull(p, &end, 10)));
            p = end;
        } else {
            ++p;
        }
    }
    return out;
}

/** The floats of a parameter's text: "(0, +inf)" -> 0, inf (the decoder writes them in round-trip form). */
std::vector<float> floats(const InnerNode& n, std::string_view name)
{
    std::vector<float> out;
    const std::string* text = param(n, name);
    if (!text)
        return out;
    const char* p = text->c_str();
    while (*p) {
        if (*p == '(' || *p == ')' || *p == ',' || *p == ' ') {
            ++p;
            continue;
        }
        char* end = nullptr;
        const float v = std::strtof(p, &end);
        if (end == p)
            return {};
        out.push_back(v);
        p = end;
    }
    return out;
}

float firstFloat(const InnerNode& n, std::string_view name, float fallback)
{
    const auto v = floats(n, name);
    return v.empty() ? fallback : v.front();
}

std::uint32_t flags(const InnerNode& n)
{
    const std::string* text = param(n, "flags");
    return text ? std::uint32_t(std::strtoul(text->c_str(), nullptr, 16)) : 0;
}

const InnerOperand* operand(const InnerNode& n, std::string_view role)
{
    for (const auto& o : n.inputs)
        if (o.role == role)
            return &o;
    for (const auto& o : n.outputs)
        if (o.role == role)
            return &o;
    return nullptr;
}

enum class Family : std::uint8_t
{
    Binary,
    Unary,
    Convert,
    Conv,
    FullyConnected,
    Pool,
    GlobalPool,
    Concatenate,
    Transpose,
    Reshape,
    Slice,
    Pad,
    Resize,
    Softmax,
    None,
};

Family familyOf(const std::string& kind)
{
    static const std::pair<std::string_view, Family> kFamilies[] = {
        { "Add", Family::Binary },
        { "Subtract", Family::Binary },
        { "Multiply", Family::Binary },
        { "Div", Family::Binary },
        { "Minimum", Family::Binary },
        { "Maximum", Family::Binary },
        { "Clamp", Family::Unary },
        { "Sigmoid", Family::Unary },
        { "Hardswish", Family::Unary },
        { "Abs", Family::Unary },
        { "Negate", Family::Unary },
        { "Square", Family::Unary },
        { "SquareRoot", Family::Unary },
        { "ReciprocalSquareRoot", Family::Unary },
        { "Floor", Family::Unary },
        { "Ceiling", Family::Unary },
        { "Tanh", Family::Unary },
        { "Exp", Family::Unary },
        { "Log", Family::Unary },
        { "Sin", Family::Unary },
        { "Cos", Family::Unary },
        { "Gelu", Family::Unary },
        { "Copy", Family::Unary },
        { "LeakyReLU", Family::Unary },
        { "ELU", Family::Unary },
        { "Convert", Family::Convert },
        { "Conv2d", Family::Conv },
        { "DepthwiseConv2d", Family::Conv },
        { "FullyConnected", Family::FullyConnected },
        { "MaxPooling2d", Family::Pool },
        { "AvgPooling2d", Family::Pool },
        { "GlobalAvgPooling2d", Family::GlobalPool },
        { "Concatenate2", Family::Concatenate },
        { "Concatenate3", Family::Concatenate },
        { "Concatenate4", Family::Concatenate },
        { "Concatenate5", Family::Concatenate },
        { "StaticTranspose", Family::Transpose },
        { "StaticReshape", Family::Reshape },
        { "StaticSlice", Family::Slice },
        { "StaticConstantPad", Family::Pad },
        { "StaticResizeBilinear2D", Family::Resize },
        { "Softmax", Family::Softmax },
    };
    for (const auto& [name, family] : kFamilies)
        if (name == kind)
            return family;
    return Family::None;
}

bool isStaticInt8(const InnerValue* v)
{
    return v && v->quant && v->quant->kind == QuantParams::Kind::PerTensor && (v->dtype == "qint8");
}

} // namespace

std::optional<std::string> unsupportedXnnpackNode(const DelegatePayload& payload, const InnerNode& node)
{
    const Family family = familyOf(node.kind);
    if (family == Family::None)
        return "no reference kernel for this node kind";
    std::uint32_t allowed = 0;
    if (family == Family::FullyConnected)
        allowed = kTransposeWeights;
    else if (family == Family::Pool || family == Family::GlobalPool)
        allowed = kKeepDims;
    else if (family == Family::Resize)
        allowed = kAlignCorners;
    if (const auto f = flags(node); f & ~allowed)
        return "flags " + *param(node, "flags") + " are not supported for " + node.kind;
    const auto valueOf = [&](const InnerOperand& o) { return payload.value(o.valueId); };
    bool anyQuantized = false;
    for (const auto* list : { &node.inputs, &node.outputs })
        for (const auto& o : *list) {
            const InnerValue* v = valueOf(o);
            if (!v)
                return "operand '" + o.role + "' names no value";
            if (v->quant || v->dtype != "fp32")
                anyQuantized = true;
            if (v->dtype == "qdint8" || (v->quant && v->quant->kind == QuantParams::Kind::PerTokenDynamic))
                return "dynamically quantized operands (" + v->dtype + ") are not supported";
            if (v->quant && v->quant->kind == QuantParams::Kind::PerChannelGroup)
                return "per-group quantized operands (" + v->dtype + ") are not supported";
        }
    if (node.outputs.size() != 1)
        return "nodes with " + std::to_string(node.outputs.size()) + " outputs are not supported";
    if (anyQuantized) {
        const InnerValue* in = node.inputs.empty() ? nullptr : valueOf(node.inputs.front());
        const InnerValue* out = valueOf(node.outputs.front());
        if (family == Family::Convert) {
            const bool quantize = in && in->dtype == "fp32" && !in->quant && isStaticInt8(out);
            const bool dequantize = isStaticInt8(in) && out->dtype == "fp32" && !out->quant;
            if (!quantize && !dequantize)
                return "Convert from " + (in ? in->dtype : std::string("?")) + " to " + out->dtype
                    + " is not supported (fp32 <-> qint8 per tensor only)";
            return std::nullopt;
        }
        if (family == Family::Conv || family == Family::FullyConnected) {
            const InnerOperand* f = operand(node, "filter");
            const InnerValue* filter = f ? valueOf(*f) : nullptr;
            const InnerOperand* b = operand(node, "bias");
            const InnerValue* bias = b ? valueOf(*b) : nullptr;
            const bool filterOk = filter && filter->quant && filter->constant
                && (filter->dtype == "qint8" || filter->dtype == "qcint8")
                && (filter->quant->kind == QuantParams::Kind::PerTensor
                    || filter->quant->kind == QuantParams::Kind::PerChannel);
            const bool biasOk = !bias || (bias->quant && (bias->dtype == "qint32" || bias->dtype == "qcint32"));
            if (!isStaticInt8(in) || !isStaticInt8(out) || !filterOk || !biasOk)
                return "quantized " + node.kind
                    + " is supported with qint8 per-tensor input and output, qint8 filters and qint32 biases only";
            return std::nullopt;
        }
        return "quantized " + node.kind + " is not supported";
    }
    if (family == Family::Pool && node.kind == "AvgPooling2d") {
        const auto pad = integers(node, "padding");
        if (std::any_of(pad.begin(), pad.end(), [](std::size_t p) { return p != 0; }))
            return "average pooling with padding is not supported (whether padding counts is not settled)";
    }
    return std::nullopt;
}

namespace {

using Dims = std::vector<std::size_t>;

std::string dimsText(const Dims& d)
{
    std::string s = "[";
    for (std::size_t i = 0; i < d.size(); ++i)
        s += (i ? ", " : "") + std::to_string(d[i]);
    return s + "]";
}

/** Elements the interpreter allocates for one value at most (the payload is untrusted: its dims and parameters may
 *  describe more than memory holds). */
constexpr std::size_t kMaxElements = std::size_t(1) << 31;

/** Refuses dims whose element count overflows or exceeds kMaxElements. */
Result<void> fits(const std::vector<std::size_t>& dims)
{
    std::size_t n = 1;
    for (const auto d : dims) {
        if (d != 0 && n > kMaxElements / d)
            return fail(ErrorCode::InvalidInput, "an output of more than 2^31 elements");
        n *= d;
    }
    return {};
}

class NodeEval
{
public:
    NodeEval(const DelegatePayload& payload, const InnerNode& node, XnnValues& values)
        : m_node(node)
        , m_values(values)
        , m_out(*payload.value(node.outputs.front().valueId))
    {
        const auto mm = floats(node, "output_min_max");
        if (mm.size() == 2) {
            m_min = mm[0];
            m_max = mm[1];
        }
    }

    Result<void> run()
    {
        switch (familyOf(m_node.kind)) {
        case Family::Binary:
            return binary();
        case Family::Unary:
            return unary();
        case Family::Convert:
            return convert();
        case Family::Conv:
            return conv();
        case Family::FullyConnected:
            return fullyConnected();
        case Family::Pool:
            return pool();
        case Family::GlobalPool:
            return globalPool();
        case Family::Concatenate:
            return concatenate();
        case Family::Transpose:
            return transpose();
        case Family::Reshape:
            return reshape();
        case Family::Slice:
            return slice();
        case Family::Pad:
            return pad();
        case Family::Resize:
            return resize();
        case Family::Softmax:
            return softmax();
        case Family::None:
            break;
        }
        return fail(ErrorCode::Unsupported, "no reference kernel for this node kind");
    }

private:
    Result<const XnnTensor*> in(std::string_view role)
    {
        const InnerOperand* o = operand(m_node, role);
        if (!o)
            return fail(ErrorCode::InvalidInput, "no '" + std::string(role) + "' operand");
        const auto found = m_values.find(o->valueId);
        if (found == m_values.end())
            return fail(ErrorCode::InvalidInput,
                "'" + std::string(role) + "' (value " + std::to_string(o->valueId) + ") has no value yet");
        return &found->second;
    }
    /** The optional bias, or nullptr. */
    const XnnTensor* bias()
    {
        const InnerOperand* o = operand(m_node, "bias");
        if (!o)
            return nullptr;
        const auto found = m_values.find(o->valueId);
        return found == m_values.end() ? nullptr : &found->second;
    }
    float clampOut(double v) const
    {
        const float f = float(v);
        return std::min(std::max(f, m_min), m_max); // NaN stays NaN
    }
    /** Stores the output, checking its dims against the value's declared rank. */
    Result<void> emit(XnnTensor t)
    {
        if (t.quantized)
            t.quant = &*m_out.quant;
        if (t.dims.size() != m_out.dims.size() && !(t.numel() == 1 && m_out.dims.size() <= 1))
            return fail(ErrorCode::InvalidInput,
                "computed output dims " + dimsText(t.dims) + " do not have the rank of value "
                    + std::to_string(m_out.id) + "'s " + dimsText(Dims(m_out.dims.begin(), m_out.dims.end())));
        m_values[m_out.id] = std::move(t);
        return {};
    }

    Result<void> binary()
    {
        PTE_TRY(const XnnTensor* a, in("input1"));
        PTE_TRY(const XnnTensor* b, in("input2"));
        // NumPy broadcasting (pte::broadcastShapes); the inputs' dims padded on the left with 1s to the result's rank.
        const auto broadcast = broadcastShapes(a->dims, b->dims);
        if (!broadcast)
            return fail(ErrorCode::InvalidInput,
                "inputs " + dimsText(a->dims) + " and " + dimsText(b->dims) + " do not broadcast");
        const Dims& dout = *broadcast;
        const std::size_t rank = dout.size();
        Dims da(rank, 1), db(rank, 1);
        std::copy(a->dims.begin(), a->dims.end(), da.begin() + std::ptrdiff_t(rank - a->dims.size()));
        std::copy(b->dims.begin(), b->dims.end(), db.begin() + std::ptrdiff_t(rank - b->dims.size()));
        const Dims sa = contiguousStrides<std::size_t>(da), sb = contiguousStrides<std::size_t>(db);
        XnnTensor out;
        out.dims = dout;
        PTE_CHECK(fits(out.dims));
        const std::size_t n = out.numel();
        out.f.resize(n);
        const std::string& kind = m_node.kind;
        for (std::size_t i = 0; i < n; ++i) {
            std::size_t rest = i, ia = 0, ib = 0;
            for (std::size_t k = rank; k-- > 0;) {
                const std::size_t c = rest % dout[k];
                rest /= dout[k];
                ia += (da[k] == 1 ? 0 : c) * sa[k];
                ib += (db[k] == 1 ? 0 : c) * sb[k];
            }
            const float x = a->f[ia], y = b->f[ib];
            float r = 0;
            if (kind == "Add")
                r = x + y;
            else if (kind == "Subtract")
                r = x - y;
            else if (kind == "Multiply")
                r = x * y;
            else if (kind == "Div")
                r = x / y;
            else if (kind == "Minimum")
                r = std::isnan(x) || std::isnan(y) ? std::nanf("") : std::min(x, y);
            else
                r = std::isnan(x) || std::isnan(y) ? std::nanf("") : std::max(x, y);
            out.f[i] = clampOut(r);
        }
        return emit(std::move(out));
    }

    Result<void> unary()
    {
        PTE_TRY(const XnnTensor* a, in("input"));
        XnnTensor out;
        out.dims = a->dims;
        out.f.resize(a->f.size());
        const std::string& kind = m_node.kind;
        const float slope = kind == "LeakyReLU" ? firstFloat(m_node, "negative_slope", 0.01f) : 0.f;
        const float alpha = kind == "ELU" ? firstFloat(m_node, "alpha", 1.f) : 0.f;
        for (std::size_t i = 0; i < a->f.size(); ++i) {
            const double x = a->f[i];
            double r = x;
            if (kind == "Sigmoid")
                r = 1.0 / (1.0 + std::exp(-x));
            else if (kind == "Hardswish")
                r = x * std::min(std::max(x + 3.0, 0.0), 6.0) / 6.0;
            else if (kind == "Abs")
                r = std::fabs(x);
            else if (kind == "Negate")
                r = -x;
            else if (kind == "Square")
                r = x * x;
            else if (kind == "SquareRoot")
                r = std::sqrt(x);
            else if (kind == "ReciprocalSquareRoot")
                r = 1.0 / std::sqrt(x);
            else if (kind == "Floor")
                r = std::floor(x);
            else if (kind == "Ceiling")
                r = std::ceil(x);
            else if (kind == "Tanh")
                r = std::tanh(x);
            else if (kind == "Exp")
                r = std::exp(x);
            else if (kind == "Log")
                r = std::log(x);
            else if (kind == "Sin")
                r = std::sin(x);
            else if (kind == "Cos")
                r = std::cos(x);
            else if (kind == "Gelu")
                r = 0.5 * x * (1.0 + std::erf(x / std::sqrt(2.0)));
            else if (kind == "LeakyReLU")
                r = x < 0 ? x * double(slope) : x;
            else if (kind == "ELU")
                r = x < 0 ? double(alpha) * std::expm1(x) : x;
            // Clamp and Copy: the value itself, clamped below.
            out.f[i] = clampOut(r);
        }
        return emit(std::move(out));
    }

    /** Quantizes as XNNPACK's f32 -> qs8 conversion: x times 1/scale in fp32, rounded to nearest even. */
    static std::int32_t quantize(float x, const QuantParams& q)
    {
        const float inv = 1.0f / q.scale;
        float v = x * inv;
        v = std::min(std::max(v, float(-128 - q.zeroPoint)), float(127 - q.zeroPoint));
        return std::int32_t(std::nearbyintf(v)) + q.zeroPoint;
    }

    Result<void> convert()
    {
        PTE_TRY(const XnnTensor* a, in("input"));
        XnnTensor out;
        out.dims = a->dims;
        if (m_out.quant) {
            out.quantized = true;
            out.q.resize(a->f.size());
            for (std::size_t i = 0; i < a->f.size(); ++i)
                out.q[i] = quantize(a->f[i], *m_out.quant);
        } else {
            out.f.resize(a->q.size());
            for (std::size_t i = 0; i < a->q.size(); ++i)
                out.f[i] = float(a->q[i] - a->quant->zeroPoint) * a->quant->scale;
        }
        return emit(std::move(out));
    }

    /** The filter scale of output channel `oc` (per tensor or per channel). */
    static float filterScale(const XnnTensor& w, std::size_t oc)
    {
        if (w.quant->kind == QuantParams::Kind::PerChannel)
            return oc < w.quant->scales.size() ? w.quant->scales[oc] : std::nanf("");
        return w.quant->scale;
    }

    /** XNNPACK's fp32 requantization of an int32 accumulator of output channel `oc` to the output's qint8. */
    std::int32_t requantize(std::int64_t acc, float inScale, const XnnTensor& w, std::size_t oc) const
    {
        const QuantParams& q = *m_out.quant;
        const float scale = inScale * filterScale(w, oc) / q.scale;
        // output_min_max in the output's integers, within qint8's range (an infinite bound is no bound).
        auto bound = [&](float v, std::int32_t fallback) {
            const float x = std::nearbyintf(v / q.scale) + float(q.zeroPoint);
            return std::isfinite(x) ? std::int32_t(std::clamp(x, -128.f, 127.f)) : fallback;
        };
        const std::int32_t qmin = bound(m_min, -128);
        const std::int32_t qmax = bound(m_max, 127);
        float v = float(acc) * scale;
        v = std::min(std::max(v, float(qmin - q.zeroPoint)), float(qmax - q.zeroPoint));
        return std::int32_t(std::nearbyintf(v)) + q.zeroPoint;
    }

    Result<void> conv()
    {
        PTE_TRY(const XnnTensor* x, in("input"));
        PTE_TRY(const XnnTensor* w, in("filter"));
        const XnnTensor* b = bias();
        const auto kernel = integers(m_node, "kernel");
        const auto stride = integers(m_node, "stride");
        const auto dilation = integers(m_node, "dilation");
        const auto padding = integers(m_node, "padding"); // top, right, bottom, left
        const auto groupsV = integers(m_node, "groups");
        const auto gicV = integers(m_node, "group_input_channels");
        const auto gocV = integers(m_node, "group_output_channels");
        if (kernel.size() != 2 || stride.size() != 2 || dilation.size() != 2 || padding.size() != 4
            || groupsV.size() != 1 || gicV.size() != 1 || gocV.size() != 1)
            return fail(ErrorCode::InvalidInput, "convolution parameters missing");
        if (x->dims.size() != 4)
            return fail(ErrorCode::InvalidInput, "input " + dimsText(x->dims) + " is not NHWC");
        const bool depthwise = m_node.kind == "DepthwiseConv2d";
        const std::size_t N = x->dims[0], H = x->dims[1], W = x->dims[2], C = x->dims[3];
        const std::size_t KH = kernel[0], KW = kernel[1], SH = stride[0], SW = stride[1], DH = dilation[0],
                          DW = dilation[1], PT = padding[0], PR = padding[1], PB = padding[2], PL = padding[3];
        const std::size_t G = groupsV[0], GIC = gicV[0], GOC = gocV[0], OC = G * GOC;
        if (C != G * GIC)
            return fail(ErrorCode::InvalidInput,
                "input channels " + std::to_string(C) + " are not groups x group input channels");
        const std::size_t wantFilter = depthwise ? KH * KW * OC : OC * KH * KW * GIC;
        if (w->numel() != wantFilter || (b && b->numel() != OC) || SH == 0 || SW == 0)
            return fail(ErrorCode::InvalidInput, "filter or bias does not match the convolution's parameters");
        const std::size_t EH = DH * (KH - 1) + 1, EW = DW * (KW - 1) + 1;
        if (H + PT + PB < EH || W + PL + PR < EW)
            return fail(ErrorCode::InvalidInput, "the kernel is larger than the padded input");
        const std::size_t OH = (H + PT + PB - EH) / SH + 1, OW = (W + PL + PR - EW) / SW + 1;
        const bool quant = x->quantized;
        XnnTensor out;
        out.dims = { N, OH, OW, OC };
        PTE_CHECK(fits(out.dims));
        out.quantized = quant;
        if (quant)
            out.q.resize(out.numel());
        else
            out.f.resize(out.numel());
        const std::int32_t xzp = quant ? x->quant->zeroPoint : 0;
        const std::int32_t wzp = quant && w->quant->kind == QuantParams::Kind::PerTensor ? w->quant->zeroPoint : 0;
        std::size_t o = 0;
        for (std::size_t n = 0; n < N; ++n)
            for (std::size_t oh = 0; oh < OH; ++oh)
                for (std::size_t ow = 0; ow < OW; ++ow)
                    for (std::size_t oc = 0; oc < OC; ++oc, ++o) {
                        const std::size_t g = oc / GOC;
                        double acc = 0;
                        std::int64_t iacc = 0;
                        for (std::size_t kh = 0; kh < KH; ++kh) {
                            const std::ptrdiff_t ih = std::ptrdiff_t(oh * SH + kh * DH) - std::ptrdiff_t(PT);
                            if (ih < 0 || std::size_t(ih) >= H)
                                continue;
                            for (std::size_t kw = 0; kw < KW; ++kw) {
                                const std::ptrdiff_t iw = std::ptrdiff_t(ow * SW + kw * DW) - std::ptrdiff_t(PL);
                                if (iw < 0 || std::size_t(iw) >= W)
                                    continue;
                                const std::size_t xBase =
                                    ((n * H + std::size_t(ih)) * W + std::size_t(iw)) * C + g * GIC;
                                for (std::size_t ic = 0; ic < GIC; ++ic) {
                                    const std::size_t wi =
                                        depthwise ? (kh * KW + kw) * OC + oc : ((oc * KH + kh) * KW + kw) * GIC + ic;
                                    if (quant)
                                        iacc += std::int64_t(x->q[xBase + ic] - xzp) * (w->q[wi] - wzp);
                                    else
                                        acc += double(x->f[xBase + ic]) * double(w->f[wi]);
                                }
                            }
                        }
                        if (quant) {
                            if (b)
                                iacc += b->q[oc];
                            out.q[o] = requantize(iacc, x->quant->scale, *w, oc);
                        } else {
                            if (b)
                                acc += double(b->f[oc]);
                            out.f[o] = clampOut(acc);
                        }
                    }
        return emit(std::move(out));
    }

    Result<void> fullyConnected()
    {
        PTE_TRY(const XnnTensor* x, in("input"));
        PTE_TRY(const XnnTensor* w, in("filter"));
        const XnnTensor* b = bias();
        if (w->dims.size() != 2 || x->dims.empty())
            return fail(ErrorCode::InvalidInput, "filter " + dimsText(w->dims) + " is not 2-D");
        const bool transposed = (flags(m_node) & kTransposeWeights) != 0;
        const std::size_t IC = transposed ? w->dims[0] : w->dims[1];
        const std::size_t OC = transposed ? w->dims[1] : w->dims[0];
        if (IC == 0 || x->numel() % IC != 0 || (b && b->numel() != OC))
            return fail(
                ErrorCode::InvalidInput, "input " + dimsText(x->dims) + " does not fit filter " + dimsText(w->dims));
        const std::size_t rows = x->numel() / IC;
        XnnTensor out;
        // The input's leading dims are kept (its last one becomes the output channels), unless the output value
        // says 2-D (the input flattened to rows).
        if (m_out.dims.size() == x->dims.size()) {
            if (x->dims.back() != IC)
                return fail(
                    ErrorCode::InvalidInput, "input " + dimsText(x->dims) + " does not end in " + std::to_string(IC));
            out.dims = x->dims;
            out.dims.back() = OC;
        } else {
            out.dims = { rows, OC };
        }
        const bool quant = x->quantized;
        out.quantized = quant;
        if (quant)
            out.q.resize(rows * OC);
        else
            out.f.resize(rows * OC);
        const std::int32_t xzp = quant ? x->quant->zeroPoint : 0;
        const std::int32_t wzp = quant && w->quant->kind == QuantParams::Kind::PerTensor ? w->quant->zeroPoint : 0;
        for (std::size_t r = 0; r < rows; ++r)
            for (std::size_t oc = 0; oc < OC; ++oc) {
                double acc = 0;
                std::int64_t iacc = 0;
                for (std::size_t ic = 0; ic < IC; ++ic) {
                    const std::size_t wi = transposed ? ic * OC + oc : oc * IC + ic;
                    if (quant)
                        iacc += std::int64_t(x->q[r * IC + ic] - xzp) * (w->q[wi] - wzp);
                    else
                        acc += double(x->f[r * IC + ic]) * double(w->f[wi]);
                }
                if (quant) {
                    if (b)
                        iacc += b->q[oc];
                    out.q[r * OC + oc] = requantize(iacc, x->quant->scale, *w, oc);
                } else {
                    if (b)
                        acc += double(b->f[oc]);
                    out.f[r * OC + oc] = clampOut(acc);
                }
            }
        return emit(std::move(out));
    }

    Result<void> pool()
    {
        PTE_TRY(const XnnTensor* x, in("input"));
        const auto pooling = integers(m_node, "pooling");
        const auto stride = integers(m_node, "stride");
        const auto dilation = integers(m_node, "dilation");
        const auto padding = integers(m_node, "padding");
        if (pooling.size() != 2 || stride.size() != 2 || dilation.size() != 2 || padding.size() != 4)
            return fail(ErrorCode::InvalidInput, "pooling parameters missing");
        if (x->dims.size() != 4)
            return fail(ErrorCode::InvalidInput, "input " + dimsText(x->dims) + " is not NHWC");
        const bool isMax = m_node.kind == "MaxPooling2d";
        const std::size_t N = x->dims[0], H = x->dims[1], W = x->dims[2], C = x->dims[3];
        const std::size_t KH = pooling[0], KW = pooling[1], SH = stride[0], SW = stride[1], DH = dilation[0],
                          DW = dilation[1], PT = padding[0], PR = padding[1], PB = padding[2], PL = padding[3];
        const std::size_t EH = DH * (KH - 1) + 1, EW = DW * (KW - 1) + 1;
        if (SH == 0 || SW == 0 || H + PT + PB < EH || W + PL + PR < EW)
            return fail(ErrorCode::InvalidInput, "the pooling window is larger than the padded input");
        const std::size_t OH = (H + PT + PB - EH) / SH + 1, OW = (W + PL + PR - EW) / SW + 1;
        XnnTensor out;
        out.dims = { N, OH, OW, C };
        PTE_CHECK(fits(out.dims));
        out.f.resize(out.numel());
        std::size_t o = 0;
        for (std::size_t n = 0; n < N; ++n)
            for (std::size_t oh = 0; oh < OH; ++oh)
                for (std::size_t ow = 0; ow < OW; ++ow)
                    for (std::size_t c = 0; c < C; ++c, ++o) {
                        double acc = isMax ? -std::numeric_limits<double>::infinity() : 0.0;
                        std::size_t count = 0;
                        for (std::size_t kh = 0; kh < KH; ++kh) {
                            const std::ptrdiff_t ih = std::ptrdiff_t(oh * SH + kh * DH) - std::ptrdiff_t(PT);
                            if (ih < 0 || std::size_t(ih) >= H)
                                continue;
                            for (std::size_t kw = 0; kw < KW; ++kw) {
                                const std::ptrdiff_t iw = std::ptrdiff_t(ow * SW + kw * DW) - std::ptrdiff_t(PL);
                                if (iw < 0 || std::size_t(iw) >= W)
                                    continue;
                                const double v = x->f[((n * H + std::size_t(ih)) * W + std::size_t(iw)) * C + c];
                                acc = isMax ? (std::isnan(v) || v > acc ? v : acc) : acc + v;
                                ++count;
                            }
                        }
                        out.f[o] = clampOut(isMax ? acc : acc / double(std::max<std::size_t>(count, 1)));
                    }
        return emit(std::move(out));
    }

    Result<void> globalPool()
    {
        PTE_TRY(const XnnTensor* x, in("input"));
        if (x->dims.size() < 3)
            return fail(ErrorCode::InvalidInput, "input " + dimsText(x->dims) + " has no spatial dims");
        // NHWC (or N, W, C): the mean over every dim between the batch and the channels.
        const std::size_t N = x->dims.front(), C = x->dims.back(), S = x->numel() / std::max<std::size_t>(N * C, 1);
        XnnTensor out;
        if ((flags(m_node) & kKeepDims) || m_out.dims.size() == x->dims.size()) {
            out.dims.assign(x->dims.size(), 1);
            out.dims.front() = N;
            out.dims.back() = C;
        } else {
            out.dims = { N, C };
        }
        out.f.resize(N * C);
        for (std::size_t n = 0; n < N; ++n)
            for (std::size_t c = 0; c < C; ++c) {
                double acc = 0;
                for (std::size_t s = 0; s < S; ++s)
                    acc += x->f[(n * S + s) * C + c];
                out.f[n * C + c] = clampOut(acc / double(S));
            }
        return emit(std::move(out));
    }

    Result<void> concatenate()
    {
        const auto axisV = integers(m_node, "axis");
        if (axisV.size() != 1)
            return fail(ErrorCode::InvalidInput, "no axis");
        const std::size_t axis = axisV[0];
        std::vector<const XnnTensor*> parts;
        for (const auto& o : m_node.inputs) {
            PTE_TRY(const XnnTensor* t, in(o.role));
            parts.push_back(t);
        }
        XnnTensor out;
        out.dims = parts.front()->dims;
        if (axis >= out.dims.size())
            return fail(ErrorCode::InvalidInput, "axis " + std::to_string(axis) + " beyond rank");
        out.dims[axis] = 0;
        for (const auto* p : parts) {
            for (std::size_t k = 0; k < out.dims.size(); ++k)
                if (p->dims.size() != out.dims.size() || (k != axis && p->dims[k] != out.dims[k]))
                    return fail(ErrorCode::InvalidInput, "inputs " + dimsText(p->dims) + " do not concatenate");
            out.dims[axis] += p->dims[axis];
        }
        std::size_t outer = 1;
        for (std::size_t k = 0; k < axis; ++k)
            outer *= out.dims[k];
        out.f.reserve(out.numel());
        for (std::size_t r = 0; r < outer; ++r)
            for (const auto* p : parts) {
                const std::size_t chunk = outer ? p->numel() / outer : 0;
                for (std::size_t i = 0; i < chunk; ++i)
                    out.f.push_back(clampOut(p->f[r * chunk + i]));
            }
        return emit(std::move(out));
    }

    Result<void> transpose()
    {
        PTE_TRY(const XnnTensor* x, in("input"));
        const auto perm = integers(m_node, "perm");
        if (perm.size() != x->dims.size())
            return fail(ErrorCode::InvalidInput, "perm does not have the input's rank");
        XnnTensor out;
        std::vector<bool> seen(perm.size(), false);
        for (const auto p : perm) {
            if (p >= x->dims.size() || seen[p])
                return fail(ErrorCode::InvalidInput, "perm is not a permutation of the input's dims");
            seen[p] = true;
            out.dims.push_back(x->dims[p]);
        }
        const Dims sIn = contiguousStrides<std::size_t>(x->dims);
        const std::size_t n = out.numel(), rank = perm.size();
        out.f.resize(n);
        for (std::size_t i = 0; i < n; ++i) {
            std::size_t rest = i, src = 0;
            for (std::size_t k = rank; k-- > 0;) {
                src += (rest % out.dims[k]) * sIn[perm[k]];
                rest /= out.dims[k];
            }
            out.f[i] = x->f[src];
        }
        return emit(std::move(out));
    }

    Result<void> reshape()
    {
        PTE_TRY(const XnnTensor* x, in("input"));
        const auto shape = integers(m_node, "new_shape");
        // A 0 in new_shape is the one dim inferred from the element count.
        std::size_t known = 1, zeros = 0;
        for (const auto d : shape) {
            if (d == 0)
                ++zeros;
            else
                known *= d;
        }
        XnnTensor out = *x;
        out.dims = shape;
        if (zeros > 1 || (zeros == 0 && known != x->numel()) || (zeros == 1 && (known == 0 || x->numel() % known)))
            return fail(ErrorCode::InvalidInput, "new_shape " + dimsText(shape) + " does not fit " + dimsText(x->dims));
        for (auto& d : out.dims)
            if (d == 0)
                d = x->numel() / known;
        for (auto& v : out.f)
            v = clampOut(v);
        return emit(std::move(out));
    }

    Result<void> slice()
    {
        PTE_TRY(const XnnTensor* x, in("input"));
        const auto offsets = integers(m_node, "offsets");
        auto sizes = integers(m_node, "sizes");
        if (offsets.size() != x->dims.size() || sizes.size() != x->dims.size())
            return fail(ErrorCode::InvalidInput, "offsets or sizes do not have the input's rank");
        for (std::size_t k = 0; k < sizes.size(); ++k) {
            if (offsets[k] > x->dims[k])
                return fail(ErrorCode::InvalidInput, "offset beyond the input");
            if (sizes[k] == 0) // to the end of the dim
                sizes[k] = x->dims[k] - offsets[k];
            if (offsets[k] + sizes[k] > x->dims[k])
                return fail(ErrorCode::InvalidInput, "slice beyond the input");
        }
        XnnTensor out;
        out.dims = sizes;
        const Dims sIn = contiguousStrides<std::size_t>(x->dims);
        const std::size_t n = out.numel();
        out.f.resize(n);
        for (std::size_t i = 0; i < n; ++i) {
            std::size_t rest = i, src = 0;
            for (std::size_t k = sizes.size(); k-- > 0;) {
                src += (rest % sizes[k] + offsets[k]) * sIn[k];
                rest /= sizes[k];
            }
            out.f[i] = clampOut(x->f[src]);
        }
        return emit(std::move(out));
    }

    Result<void> pad()
    {
        PTE_TRY(const XnnTensor* x, in("input"));
        const auto pre = integers(m_node, "pre_paddings");
        const auto post = integers(m_node, "post_paddings");
        const auto value = floats(m_node, "padding_value");
        if (pre.size() < x->dims.size() || post.size() < x->dims.size() || value.size() != 1)
            return fail(ErrorCode::InvalidInput, "paddings do not cover the input's rank");
        XnnTensor out;
        for (std::size_t k = 0; k < x->dims.size(); ++k)
            out.dims.push_back(pre[k] + x->dims[k] + post[k]);
        PTE_CHECK(fits(out.dims));
        const std::size_t n = out.numel(), rank = x->dims.size();
        const Dims sIn = contiguousStrides<std::size_t>(x->dims);
        out.f.assign(n, clampOut(value[0]));
        for (std::size_t i = 0; i < n; ++i) {
            std::size_t rest = i, src = 0;
            bool inside = true;
            for (std::size_t k = rank; k-- > 0;) {
                const std::size_t c = rest % out.dims[k];
                rest /= out.dims[k];
                if (c < pre[k] || c >= pre[k] + x->dims[k])
                    inside = false;
                else
                    src += (c - pre[k]) * sIn[k];
            }
            if (inside)
                out.f[i] = clampOut(x->f[src]);
        }
        return emit(std::move(out));
    }

    Result<void> resize()
    {
        PTE_TRY(const XnnTensor* x, in("input"));
        const auto size = integers(m_node, "new_size");
        if (size.size() != 2 || x->dims.size() != 4)
            return fail(ErrorCode::InvalidInput, "resize needs an NHWC input and a new size");
        const bool alignCorners = (flags(m_node) & kAlignCorners) != 0;
        const std::size_t N = x->dims[0], H = x->dims[1], W = x->dims[2], C = x->dims[3], OH = size[0], OW = size[1];
        if (H == 0 || W == 0)
            return fail(ErrorCode::InvalidInput, "resize of an empty image");
        // Source coordinate of an output pixel: corners aligned, or half-pixel centres clamped at 0 (PyTorch's
        // align_corners=False, which ExecuTorch lowers to XNNPACK without flags).
        auto source = [&](std::size_t o, std::size_t in, std::size_t outSize) {
            if (alignCorners)
                return outSize > 1 ? double(o) * double(in - 1) / double(outSize - 1) : 0.0;
            return std::max((double(o) + 0.5) * double(in) / double(outSize) - 0.5, 0.0);
        };
        XnnTensor out;
        out.dims = { N, OH, OW, C };
        PTE_CHECK(fits(out.dims));
        out.f.resize(out.numel());
        std::size_t o = 0;
        for (std::size_t n = 0; n < N; ++n)
            for (std::size_t oh = 0; oh < OH; ++oh) {
                const double sy = source(oh, H, OH);
                const std::size_t y0 = std::min(std::size_t(sy), H - 1), y1 = std::min(y0 + 1, H - 1);
                const double ay = sy - double(y0);
                for (std::size_t ow = 0; ow < OW; ++ow) {
                    const double sx = source(ow, W, OW);
                    const std::size_t x0 = std::min(std::size_t(sx), W - 1), x1 = std::min(x0 + 1, W - 1);
                    const double ax = sx - double(x0);
                    for (std::size_t c = 0; c < C; ++c, ++o) {
                        auto at = [&](std::size_t yy, std::size_t xx) {
                            return double(x->f[((n * H + yy) * W + xx) * C + c]);
                        };
                        const double top = at(y0, x0) + (at(y0, x1) - at(y0, x0)) * ax;
                        const double bottom = at(y1, x0) + (at(y1, x1) - at(y1, x0)) * ax;
                        out.f[o] = clampOut(top + (bottom - top) * ay);
                    }
                }
            }
        return emit(std::move(out));
    }

    Result<void> softmax()
    {
        PTE_TRY(const XnnTensor* x, in("input"));
        XnnTensor out;
        out.dims = x->dims;
        out.f.resize(x->f.size());
        const std::size_t C = x->dims.empty() ? 1 : x->dims.back();
        for (std::size_t r = 0; C && r < x->f.size() / C; ++r) {
            const float* row = x->f.data() + r * C;
            const double m = *std::max_element(row, row + C);
            double sum = 0;
            for (std::size_t c = 0; c < C; ++c)
                sum += std::exp(double(row[c]) - m);
            for (std::size_t c = 0; c < C; ++c)
                out.f[r * C + c] = clampOut(std::exp(double(row[c]) - m) / sum);
        }
        return emit(std::move(out));
    }

    const InnerNode& m_node;
    XnnValues& m_values;
    const InnerValue& m_out;
    float m_min = -std::numeric_limits<float>::infinity();
    float m_max = std::numeric_limits<float>::infinity();
};

} // namespace

Result<void> evalXnnpackNode(const DelegatePayload& payload, const InnerNode& node, XnnValues& values)
{
    if (node.outputs.size() != 1 || !payload.value(node.outputs.front().valueId))
        return fail(ErrorCode::InvalidInput, "the node does not have one output value");
    return NodeEval(payload, node, values).run();
}

} // namespace pte::interp
