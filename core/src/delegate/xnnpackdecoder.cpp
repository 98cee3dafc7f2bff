// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// XNNPACK payloads (docs/delegate-payloads.md, XNNPACK): the optional XH00 header, the XNNGraph flatbuffer (bare XN00
// from 2023, XN00 or XN01 behind the header), every node and value kind, quantization parameters, and constants
// resolved as the runtime resolves them (inline buffers, the header's constant section, named data, a .ptd).
#include "flatbufferpayload.h"
#include "pte/schema/xnnpack_generated.h"

#include <array>
#include <cstring>
#include <iterator>
#include <limits>
#include <span>

namespace pte::delegate {

namespace {

namespace xf = ptelens_xnnpack;

constexpr std::uint32_t kNoValue = std::numeric_limits<std::uint32_t>::max();

enum class Layout : std::uint8_t
{
    Unary, ///< _XNNNode1x1
    Binary, ///< _XNNNode2x1
    Cat,
    Conv,
    Pool,
    FullyConnected,
    Transpose,
    Resize,
    Pad,
    Reshape,
    ArgMaxPool,
    LeakyReLU,
    ELU,
    Slice,
    Sdpa,
};

struct KindInfo
{
    const char* name;
    Layout layout;
};

/** XNodeUnion members by tag - 1. */
constexpr std::array<KindInfo, 47> kKinds { {
    { "Add", Layout::Binary },
    { "FullyConnected", Layout::FullyConnected },
    { "Softmax", Layout::Unary },
    { "Sigmoid", Layout::Unary },
    { "StaticTranspose", Layout::Transpose },
    { "Clamp", Layout::Unary },
    { "Conv2d", Layout::Conv },
    { "Div", Layout::Binary },
    { "StaticResizeBilinear2D", Layout::Resize },
    { "StaticConstantPad", Layout::Pad },
    { "AvgPooling2d", Layout::Pool },
    { "Minimum", Layout::Binary },
    { "DepthwiseConv2d", Layout::Conv },
    { "MaxPooling2d", Layout::Pool },
    { "Multiply", Layout::Binary },
    { "Subtract", Layout::Binary },
    { "Floor", Layout::Unary },
    { "Convert", Layout::Unary },
    { "GlobalAvgPooling2d", Layout::Unary },
    { "StaticReshape", Layout::Reshape },
    { "ArgMaxPooling2d", Layout::ArgMaxPool },
    { "SquareRoot", Layout::Unary },
    { "Ceiling", Layout::Unary },
    { "Hardswish", Layout::Unary },
    { "LeakyReLU", Layout::LeakyReLU },
    { "Maximum", Layout::Binary },
    { "Negate", Layout::Unary },
    { "Square", Layout::Unary },
    { "ELU", Layout::ELU },
    { "Abs", Layout::Unary },
    { "PReLU", Layout::Binary },
    { "Concatenate2", Layout::Cat },
    { "Concatenate3", Layout::Cat },
    { "Concatenate4", Layout::Cat },
    { "StaticSlice", Layout::Slice },
    { "ScaledDotProductAttention", Layout::Sdpa },
    { "BatchMatrixMultiply", Layout::Binary },
    { "Concatenate5", Layout::Cat },
    { "ConvTranspose2d", Layout::Conv },
    { "ReciprocalSquareRoot", Layout::Unary },
    { "Log", Layout::Unary },
    { "Gelu", Layout::Unary },
    { "Tanh", Layout::Unary },
    { "Exp", Layout::Unary },
    { "Sin", Layout::Unary },
    { "Copy", Layout::Unary },
    { "Cos", Layout::Unary },
} };

const char* datatypeName(xf::XNNDatatype t) noexcept
{
    static constexpr std::array<const char*, 15> names { "invalid", "fp32", "fp16", "qint8", "quint8", "qint32",
        "qcint8", "qcint32", "qcint4", "qdint8", "qbint4", "qpint8", "int32", "pfp32", "bf16" };
    const auto i = std::size_t(std::uint16_t(t));
    return i < names.size() ? names[i] : nullptr;
}

std::string datatypeText(xf::XNNDatatype t)
{
    const char* n = datatypeName(t);
    return n ? std::string(n) : "datatype " + std::to_string(int(t));
}

template <typename T> std::vector<std::uint32_t> toVector(const flatbuffers::Vector<T>* v)
{
    std::vector<std::uint32_t> out;
    if (v)
        out.assign(v->begin(), v->end());
    return out;
}

std::string toHex(std::uint32_t v)
{
    static const char* digits = "0123456789abcdef";
    std::string s;
    do {
        s.insert(s.begin(), digits[v & 15]);
        v >>= 4;
    } while (v);
    return s;
}

/** One operand of a node table: its role, whether the node writes it, and the table's accessor of its value id. */
template <typename T> struct OperandField
{
    const char* role;
    bool output;
    std::uint32_t (T::*id)() const;
};

/** The operand lists of the node tables, in the order the nodes show them. */
template <typename T>
constexpr OperandField<T> kInOut[] = { { "input", false, &T::input_id }, { "output", true, &T::output_id } };
template <typename T>
constexpr OperandField<T> kFilterBiasOperands[] = { { "input", false, &T::input1_id },
    { "filter", false, &T::filter_id }, { "bias", false, &T::bias_id }, { "output", true, &T::output_id } };
constexpr OperandField<xf::_XNNNode2x1> kBinaryOperands[] = { { "input1", false, &xf::_XNNNode2x1::input1_id },
    { "input2", false, &xf::_XNNNode2x1::input2_id }, { "output", true, &xf::_XNNNode2x1::output_id } };
constexpr OperandField<xf::_XNNCat> kCatOperands[] = { { "input1", false, &xf::_XNNCat::input1_id },
    { "input2", false, &xf::_XNNCat::input2_id }, { "input3", false, &xf::_XNNCat::input3_id },
    { "input4", false, &xf::_XNNCat::input4_id }, { "input5", false, &xf::_XNNCat::input5_id },
    { "output", true, &xf::_XNNCat::output_id } };
constexpr OperandField<xf::XNNArgMaxPooling2d> kArgMaxOperands[] = {
    { "input", false, &xf::XNNArgMaxPooling2d::input_id },
    { "output value", true, &xf::XNNArgMaxPooling2d::output_value_id },
    { "output index", true, &xf::XNNArgMaxPooling2d::output_index_id },
};
using Sdpa = xf::XNNScaledDotProductAttention;
constexpr OperandField<Sdpa> kSdpaOperands[] = { { "query", false, &Sdpa::query_id }, { "key", false, &Sdpa::key_id },
    { "value", false, &Sdpa::value_id }, { "scale", false, &Sdpa::scale_id }, { "mask", false, &Sdpa::mask_id },
    { "output", true, &Sdpa::output_id } };

constexpr std::string_view kIdentifiers[] = { "XN00", "XN01" };
constexpr FlatbufferPayloadRules kPayloadRules {
    .header = { .magic = "XH00",
        .lengthPath = "header_length",
        .dataName = "constant data",
        .dataField = "constant data",
        .dataPath = "constant_data_offset",
        .dataAfterFlatbuffer = true },
    .root = "XNNGraph",
    .identifiers = kIdentifiers,
    .expected = "XN00 or XN01 (the runtime refuses it)",
    .bareFormat = nullptr,
    .notPayloadFormat = "not an XNNPACK payload",
};

class XnnpackDecoder : FlatbufferPayloadDecoder
{
public:
    XnnpackDecoder(DelegatePayload& out, const DecodeContext& ctx)
        : FlatbufferPayloadDecoder(out, ctx, kPayloadRules)
    { }

    void run()
    {
        if (!locate())
            return;
        m_out.format = hasHeader() ? "XH00 header + " + identifier() + " flatbuffer"
                                   : "bare " + identifier() + " flatbuffer (no header, constants inline)";
        addField(m_out, "flatbuffer identifier", identifier());
        const auto* graph = verifiedGraph<xf::XNNGraph>();
        if (!graph)
            return;
        m_graph = graph;
        readVersion(graph->version());
        addField(m_out, "num_externs", std::to_string(graph->num_externs()));
        m_out.inputIds = toVector(graph->input_ids());
        m_out.outputIds = toVector(graph->output_ids());
        decodeValues();
        indexValues(m_out, m_ctx);
        decodeNodes();
        checkGraphIo();
        m_out.graphDecoded = true;
        addField(m_out, "nodes", std::to_string(m_out.nodes.size()));
        addField(m_out, "values", std::to_string(m_out.values.size()));
        addField(m_out, "constants", std::to_string(m_constantCount) + " (" + constantStorageText() + ")");
    }

private:
    std::string constantStorageText() const
    {
        if (m_usesConstantBuffer)
            return "inline constant_buffer";
        std::string s = "constant_data";
        if (m_namedConstants)
            s += ", " + std::to_string(m_namedConstants) + " named";
        if (m_sectionConstants)
            s += ", " + std::to_string(m_sectionConstants) + " in the header's section";
        return s;
    }

    /** Resolves constant `idx` (constant_buffer_idx or scale_buffer_idx). */
    std::optional<ConstantRef> resolveConstant(std::uint32_t idx, const std::string& path)
    {
        if (idx == 0)
            return std::nullopt;
        ConstantRef ref;
        ref.index = idx;
        const auto* cd = m_graph->constant_data();
        const auto* cb = m_graph->constant_buffer();
        if (cd && cd->size() > 0) {
            if (idx >= cd->size()) {
                warn("constant " + std::to_string(idx) + " is out of range (constant_data has "
                        + std::to_string(cd->size()) + " entries)",
                    path);
                return ref;
            }
            const auto* entry = cd->Get(idx);
            ref.size = entry->size();
            const bool named = entry->named_key() && entry->named_key()->size() > 0;
            if (named) {
                ref.key = entry->named_key()->str();
                ++m_namedConstants;
                if (auto bytes = findNamedData(m_ctx.sources, ref.key, ref.source)) {
                    if (bytes->size() < ref.size)
                        warn("constant " + std::to_string(idx) + " declares " + std::to_string(ref.size)
                                + " bytes but named data '" + ref.key + "' holds " + std::to_string(bytes->size()),
                            path);
                    ref.data = *bytes;
                } else {
                    warn("constant " + std::to_string(idx) + " names key '" + ref.key
                            + "', which is neither in the program's named data nor in an external .ptd",
                        path);
                }
                return ref;
            }
            ++m_sectionConstants;
            if (!hasHeader()) {
                warn("constant " + std::to_string(idx)
                        + " is an offset into the header's constant section but the payload has no XH00 header",
                    path);
                return ref;
            }
            if (!inBounds(entry->offset(), entry->size(), dataSize())) {
                warn("constant " + std::to_string(idx) + " at [" + std::to_string(entry->offset()) + ", +"
                        + std::to_string(entry->size()) + ") runs past the constant section ("
                        + std::to_string(dataSize()) + " bytes)",
                    path);
                return ref;
            }
            ref.source = ConstantSource::PayloadSection;
            ref.offset = dataOffset() + entry->offset();
            ref.data = m_out.bytes.slice(std::size_t(ref.offset), std::size_t(ref.size));
            return ref;
        }
        m_usesConstantBuffer = true;
        if (!cb || idx >= cb->size()) {
            warn("constant " + std::to_string(idx) + " is out of range (constant_buffer has "
                    + std::to_string(cb ? cb->size() : 0) + " entries)",
                path);
            return ref;
        }
        const auto* storage = cb->Get(idx)->storage();
        ref.source = ConstantSource::InlineBuffer;
        if (storage) {
            ref.size = storage->size();
            const std::uint64_t inFb = std::uint64_t(storage->data() - m_fb.data());
            ref.offset = flatbufferOffset() + inFb;
            ref.data = m_fb.slice(std::size_t(inFb), storage->size());
        }
        return ref;
    }

    void decodeQuant(InnerValue& v, const xf::XNNQuantizedTensorValue* q, const std::string& path)
    {
        QuantParams p;
        p.rawTag = std::uint8_t(q->quant_params_type());
        switch (q->quant_params_type()) {
        case xf::XNNQuantParams::PerTensorQuant:
            if (const auto* t = q->quant_params_as_PerTensorQuant()) {
                p.kind = QuantParams::Kind::PerTensor;
                p.scale = t->scale();
                p.zeroPoint = t->zero_point();
            }
            break;
        case xf::XNNQuantParams::PerChannelQuant:
            if (const auto* c = q->quant_params_as_PerChannelQuant()) {
                p.kind = QuantParams::Kind::PerChannel;
                channelScales(p, *c, false, path);
                p.zeroPoint = (v.dtype == "qcint4" || v.dtype == "qbint4") ? 8 : 0;
            }
            break;
        case xf::XNNQuantParams::PerTokenDynamicQuant:
            if (const auto* t = q->quant_params_as_PerTokenDynamicQuant()) {
                p.kind = QuantParams::Kind::PerTokenDynamic;
                p.numNonbatchDims = t->num_nonbatch_dims();
            }
            break;
        case xf::XNNQuantParams::PerChannelGroupQuant:
            if (const auto* g = q->quant_params_as_PerChannelGroupQuant()) {
                p.kind = QuantParams::Kind::PerChannelGroup;
                p.groupSize = g->group_size();
                channelScales(p, *g, true, path);
                p.zeroPoint = 8;
            }
            break;
        default:
            p.kind = QuantParams::Kind::Unknown;
            warn("quantization parameters of unknown kind " + std::to_string(int(p.rawTag)), path + ".quant_params");
            break;
        }
        v.quant = std::move(p);
    }

    /** The channel dimension and scales of a per-channel or per-group table: inline, or in a constant. */
    template <typename Table> void channelScales(QuantParams& p, const Table& t, bool bf16, const std::string& path)
    {
        p.channelDim = t.channel_dim();
        p.scaleBufferIdx = t.scale_buffer_idx();
        p.numScales = t.num_scales();
        if (t.scale())
            p.scales.assign(t.scale()->begin(), t.scale()->end());
        readScales(p, bf16, path);
    }

    /** Scales stored as a constant: fp32 per channel, bf16 per group, `numScales` of them. */
    void readScales(QuantParams& p, bool bf16, const std::string& path)
    {
        if (p.scaleBufferIdx == 0)
            return;
        const auto ref = resolveConstant(p.scaleBufferIdx, path + ".quant_params.scale_buffer_idx");
        if (!ref || ref->data.empty())
            return;
        const std::size_t width = bf16 ? 2 : 4;
        const std::size_t n = std::min<std::size_t>(p.numScales, ref->data.size() / width);
        if (n < p.numScales)
            warn("the scale constant holds " + std::to_string(ref->data.size() / width) + " scales, "
                    + std::to_string(p.numScales) + " declared",
                path + ".quant_params.num_scales");
        p.scales.clear();
        p.scales.reserve(n);
        const auto* d = ref->data.data();
        for (std::size_t i = 0; i < n; ++i) {
            std::uint32_t bits = 0;
            if (bf16)
                bits = std::uint32_t(d[2 * i] | (d[2 * i + 1] << 8)) << 16;
            else
                bits = std::uint32_t(d[4 * i]) | (std::uint32_t(d[4 * i + 1]) << 8)
                    | (std::uint32_t(d[4 * i + 2]) << 16) | (std::uint32_t(d[4 * i + 3]) << 24);
            float f;
            std::memcpy(&f, &bits, 4);
            p.scales.push_back(f);
        }
    }

    void decodeValues()
    {
        const auto* xvalues = m_graph->xvalues();
        if (!xvalues)
            return;
        m_out.values.reserve(xvalues->size());
        for (flatbuffers::uoffset_t i = 0; i < xvalues->size(); ++i) {
            const std::string path = "xvalues[" + std::to_string(i) + "]";
            const auto* xv = xvalues->Get(i);
            InnerValue v;
            const xf::XNNTensorValue* t = nullptr;
            const xf::XNNQuantizedTensorValue* q = nullptr;
            switch (xv->xvalue_union_type()) {
            case xf::XValueUnion::XNNTensorValue:
                t = xv->xvalue_union_as_XNNTensorValue();
                v.kind = "tensor";
                break;
            case xf::XValueUnion::XNNQuantizedTensorValue:
                q = xv->xvalue_union_as_XNNQuantizedTensorValue();
                t = q ? q->tensor_value() : nullptr;
                v.kind = "quantized tensor";
                break;
            default:
                v.kind = "value kind " + std::to_string(int(xv->xvalue_union_type()));
                break;
            }
            if (!t) {
                error(ErrorCode::InvalidProgram,
                    "value " + std::to_string(i) + " is not a tensor (" + v.kind + "); the runtime refuses it",
                    std::nullopt, path);
                v.id = kNoValue - i; // keep it visible without colliding with real ids
                m_out.values.push_back(std::move(v));
                continue;
            }
            v.id = t->id_out();
            v.dtype = datatypeText(t->datatype());
            if (!datatypeName(t->datatype()) || t->datatype() == xf::XNNDatatype::invalid)
                warn("value " + std::to_string(i) + " has the invalid datatype " + std::to_string(int(t->datatype())),
                    path + ".datatype");
            v.dims = toVector(t->dims());
            if (t->num_dims() != v.dims.size())
                warn("value " + std::to_string(i) + " says num_dims " + std::to_string(t->num_dims()) + " but has "
                        + std::to_string(v.dims.size()) + " dims",
                    path + ".num_dims");
            v.flags = t->flags();
            v.graphInput = (v.flags & 1) != 0;
            v.graphOutput = (v.flags & 2) != 0;
            if (v.flags & ~3u)
                warn("value " + std::to_string(i) + " has flags 0x" + toHex(v.flags)
                        + " beyond external input/output (the runtime refuses them)",
                    path + ".flags");
            if (t->external_id() != kNoValue)
                v.externalId = t->external_id();
            if (t->dq_datatype() != xf::XNNDatatype::invalid)
                v.attributes.push_back({ "dq_datatype", datatypeText(t->dq_datatype()) });
            if (q)
                decodeQuant(v, q, path);
            if (t->constant_buffer_idx() != 0) {
                ++m_constantCount;
                v.constant = resolveConstant(t->constant_buffer_idx(), path + ".constant_buffer_idx");
            }
            m_out.values.push_back(std::move(v));
        }
    }

    void operand(InnerNode& n, bool output, const char* role, std::uint32_t id, const std::string& path)
    {
        if (id == kNoValue)
            return;
        if (!m_out.value(id))
            warn("node " + std::to_string(n.index) + " (" + n.kind + ") " + role + " names value " + std::to_string(id)
                    + ", which does not exist",
                path);
        (output ? n.outputs : n.inputs).push_back({ role, id });
    }

    void param(InnerNode& n, std::string name, std::string value)
    {
        n.params.push_back({ std::move(name), std::move(value) });
    }
    static std::string pair(std::uint32_t a, std::uint32_t b) { return std::to_string(a) + "x" + std::to_string(b); }
    static std::string padding(std::uint32_t t, std::uint32_t r, std::uint32_t b, std::uint32_t l)
    {
        return "top " + std::to_string(t) + ", right " + std::to_string(r) + ", bottom " + std::to_string(b) + ", left "
            + std::to_string(l);
    }

    /** The kind-specific parameters of a node table, in display order (none for the plain operand tables). */
    template <typename T> void params(InnerNode&, const T&) { }
    void params(InnerNode& n, const xf::_XNNCat& t) { param(n, "axis", std::to_string(t.axis())); }
    void params(InnerNode& n, const xf::_XNNNodeConv& t)
    {
        param(n, "kernel", pair(t.kernel_height(), t.kernel_width()));
        param(n, "stride", pair(t.subsampling_height(), t.subsampling_width()));
        param(n, "dilation", pair(t.dilation_height(), t.dilation_width()));
        param(n, "padding", padding(t.padding_top(), t.padding_right(), t.padding_bottom(), t.padding_left()));
        param(n, "groups", std::to_string(t.groups()));
        param(n, "group_input_channels", std::to_string(t.group_input_channels()));
        param(n, "group_output_channels", std::to_string(t.group_output_channels()));
        if (t.adjustment_height() || t.adjustment_width() || n.kind == "ConvTranspose2d")
            param(n, "adjustment", pair(t.adjustment_height(), t.adjustment_width()));
    }
    void params(InnerNode& n, const xf::_XNNPooling2D& t)
    {
        param(n, "pooling", pair(t.pooling_height(), t.pooling_width()));
        param(n, "stride", pair(t.stride_height(), t.stride_width()));
        param(n, "dilation", pair(t.dilation_height(), t.dilation_width()));
        param(n, "padding", padding(t.padding_top(), t.padding_right(), t.padding_bottom(), t.padding_left()));
    }
    void params(InnerNode& n, const xf::XNNStaticTranspose& t) { param(n, "perm", formatList(toVector(t.perm()))); }
    void params(InnerNode& n, const xf::XNNStaticResizeBilinear2D& t)
    {
        param(n, "new_size", pair(t.new_height(), t.new_width()));
    }
    void params(InnerNode& n, const xf::XNNStaticConstantPad& t)
    {
        param(n, "pre_paddings", formatList(toVector(t.pre_paddings())));
        param(n, "post_paddings", formatList(toVector(t.post_paddings())));
        param(n, "padding_value", formatFloat(t.padding_value()));
    }
    void params(InnerNode& n, const xf::XNNStaticReshape& t)
    {
        param(n, "new_shape", formatList(toVector(t.new_shape())));
    }
    void params(InnerNode& n, const xf::XNNArgMaxPooling2d& t)
    {
        param(n, "pooling", pair(t.pooling_height(), t.pooling_width()));
        param(n, "padding", padding(t.padding_top(), t.padding_right(), t.padding_bottom(), t.padding_left()));
    }
    void params(InnerNode& n, const xf::XNNLeakyReLU& t)
    {
        param(n, "negative_slope", formatFloat(t.negative_slope()));
    }
    void params(InnerNode& n, const xf::XNNELU& t) { param(n, "alpha", formatFloat(t.alpha())); }
    void params(InnerNode& n, const xf::XNNStaticSlice& t)
    {
        param(n, "offsets", formatList(toVector(t.offsets())));
        param(n, "sizes", formatList(toVector(t.sizes())));
    }

    /** A node table of type T: its parameters, then its operands in the order given, then its flags when set. */
    template <typename T>
    void node(InnerNode& n, const void* table, std::span<const OperandField<T>> operands, const std::string& path)
    {
        const auto& t = *static_cast<const T*>(table);
        params(n, t);
        for (const auto& o : operands)
            operand(n, o.output, o.role, (t.*o.id)(), path);
        if (t.flags())
            param(n, "flags", "0x" + toHex(t.flags()));
    }
    template <typename T, std::size_t N>
    void node(InnerNode& n, const void* table, const OperandField<T> (&operands)[N], const std::string& path)
    {
        node<T>(n, table, std::span<const OperandField<T>>(operands), path);
    }

    void decodeNode(InnerNode& n, Layout layout, const void* table, const std::string& path)
    {
        switch (layout) {
        case Layout::Unary:
            return node(n, table, kInOut<xf::_XNNNode1x1>, path);
        case Layout::Binary:
            return node(n, table, kBinaryOperands, path);
        case Layout::Cat: {
            // ConcatenateK reads input1..inputK; the unused inputs of the shared table are not operands.
            const auto count = std::size_t(n.kind.back() - '0');
            std::vector<OperandField<xf::_XNNCat>> operands(kCatOperands, kCatOperands + count);
            operands.push_back(kCatOperands[std::size(kCatOperands) - 1]);
            return node<xf::_XNNCat>(n, table, operands, path);
        }
        case Layout::Conv:
            return node(n, table, kFilterBiasOperands<xf::_XNNNodeConv>, path);
        case Layout::Pool:
            return node(n, table, kInOut<xf::_XNNPooling2D>, path);
        case Layout::FullyConnected:
            return node(n, table, kFilterBiasOperands<xf::XNNFullyConnected>, path);
        case Layout::Transpose:
            return node(n, table, kInOut<xf::XNNStaticTranspose>, path);
        case Layout::Resize:
            return node(n, table, kInOut<xf::XNNStaticResizeBilinear2D>, path);
        case Layout::Pad:
            return node(n, table, kInOut<xf::XNNStaticConstantPad>, path);
        case Layout::Reshape:
            return node(n, table, kInOut<xf::XNNStaticReshape>, path);
        case Layout::ArgMaxPool:
            return node(n, table, kArgMaxOperands, path);
        case Layout::LeakyReLU:
            return node(n, table, kInOut<xf::XNNLeakyReLU>, path);
        case Layout::ELU:
            return node(n, table, kInOut<xf::XNNELU>, path);
        case Layout::Slice:
            return node(n, table, kInOut<xf::XNNStaticSlice>, path);
        case Layout::Sdpa:
            return node(n, table, kSdpaOperands, path);
        }
    }

    void decodeNodes()
    {
        const auto* xnodes = m_graph->xnodes();
        if (!xnodes)
            return;
        m_out.nodes.reserve(xnodes->size());
        for (flatbuffers::uoffset_t i = 0; i < xnodes->size(); ++i) {
            const std::string path = "xnodes[" + std::to_string(i) + "]";
            const auto* xn = xnodes->Get(i);
            InnerNode n;
            n.index = i;
            n.rawKind = std::uint32_t(xn->xnode_union_type());
            n.debugHandles.push_back(xn->debug_handle());
            const void* table = xn->xnode_union();
            if (n.rawKind == 0 || n.rawKind > kKinds.size() || !table) {
                n.kind = n.rawKind == 0 ? "NONE" : "node kind " + std::to_string(n.rawKind);
                error(ErrorCode::Unsupported,
                    "node " + std::to_string(i) + " has "
                        + (n.rawKind == 0 ? "no operator" : "the unknown kind " + std::to_string(n.rawKind))
                        + " (a newer or modified XNNPACK schema?)",
                    std::nullopt, path + ".xnode_union_type");
            } else {
                const KindInfo& info = kKinds[n.rawKind - 1];
                n.kind = info.name;
                decodeNode(n, info.layout, table, path + ".xnode_union");
            }
            if (const auto* mm = xn->output_min_max())
                param(n, "output_min_max",
                    "(" + formatFloat(mm->output_min()) + ", " + formatFloat(mm->output_max()) + ")");
            m_out.nodes.push_back(std::move(n));
        }
    }

    void checkGraphIo()
    {
        for (const auto id : m_out.inputIds)
            if (!m_out.value(id))
                warn("graph input " + std::to_string(id) + " names no value", "input_ids");
        for (const auto id : m_out.outputIds)
            if (!m_out.value(id))
                warn("graph output " + std::to_string(id) + " names no value", "output_ids");
    }

    const xf::XNNGraph* m_graph = nullptr;
    std::size_t m_constantCount = 0;
    std::size_t m_namedConstants = 0;
    std::size_t m_sectionConstants = 0;
    bool m_usesConstantBuffer = false;
};

} // namespace

void decodeXnnpack(DelegatePayload& out, const DecodeContext& ctx) { XnnpackDecoder(out, ctx).run(); }

} // namespace pte::delegate
