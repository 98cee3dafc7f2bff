// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// Vulkan payloads (docs/delegate-payloads.md, Vulkan): the VH00 header, the VkGraph flatbuffer (operator chain, values,
// tensors with storage type and memory layout), and constants in the bytes section or in named data.
#include "flatbufferpayload.h"
#include "pte/schema/vulkan_generated.h"

#include <limits>

namespace pte::delegate {

namespace {

namespace vk = ptelens_vulkan;

std::string dataTypeText(vk::VkDataType t)
{
    switch (t) {
    case vk::VkDataType::BOOL:
        return "bool";
    case vk::VkDataType::UINT8:
        return "uint8";
    case vk::VkDataType::INT8:
        return "int8";
    case vk::VkDataType::INT32:
        return "int32";
    case vk::VkDataType::FLOAT16:
        return "fp16";
    case vk::VkDataType::FLOAT32:
        return "fp32";
    case vk::VkDataType::FLOAT64:
        return "fp64";
    case vk::VkDataType::INT64:
        return "int64";
    case vk::VkDataType::UNSET:
        return "unset";
    }
    return "datatype " + std::to_string(int(t));
}

std::string storageText(vk::VkStorageType t)
{
    switch (t) {
    case vk::VkStorageType::BUFFER:
        return "buffer";
    case vk::VkStorageType::TEXTURE_3D:
        return "texture_3d";
    case vk::VkStorageType::TEXTURE_2D:
        return "texture_2d";
    case vk::VkStorageType::DEFAULT_STORAGE:
        return "default";
    }
    return "storage " + std::to_string(int(t));
}

std::string layoutText(vk::VkMemoryLayout l)
{
    switch (l) {
    case vk::VkMemoryLayout::TENSOR_WIDTH_PACKED:
        return "width_packed";
    case vk::VkMemoryLayout::TENSOR_HEIGHT_PACKED:
        return "height_packed";
    case vk::VkMemoryLayout::TENSOR_CHANNELS_PACKED:
        return "channels_packed";
    case vk::VkMemoryLayout::PACKED_INT8_4W4C:
        return "packed_int8_4w4c";
    case vk::VkMemoryLayout::PACKED_INT8_4H4W:
        return "packed_int8_4h4w";
    case vk::VkMemoryLayout::PACKED_INT8_4W:
        return "packed_int8_4w";
    case vk::VkMemoryLayout::PACKED_INT8_4C:
        return "packed_int8_4c";
    case vk::VkMemoryLayout::PACKED_INT8_4C1W:
        return "packed_int8_4c1w";
    case vk::VkMemoryLayout::PACKED_INT8_CONV2D:
        return "packed_int8_conv2d";
    case vk::VkMemoryLayout::DEFAULT_LAYOUT:
        return "default";
    }
    return "layout " + std::to_string(int(l));
}

constexpr std::string_view kIdentifiers[] = { "VK00" };
constexpr FlatbufferPayloadRules kPayloadRules {
    .header = { .magic = "VH00",
        .lengthPath = "header_size",
        .dataName = "constant bytes",
        .dataField = "bytes",
        .dataPath = "bytes_offset",
        .zeroSizeMeansRest = true },
    .root = "VkGraph",
    .identifiers = kIdentifiers,
    .expected = "VK00",
    .bareFormat = "bare VK00 flatbuffer (before the VH00 header)",
    .notPayloadFormat = "not a Vulkan payload",
};

class VulkanDecoder : FlatbufferPayloadDecoder
{
public:
    VulkanDecoder(DelegatePayload& out, const DecodeContext& ctx)
        : FlatbufferPayloadDecoder(out, ctx, kPayloadRules)
    { }

    void run()
    {
        if (!locate())
            return;
        if (hasHeader())
            m_out.format = "VH00 header + VK00 flatbuffer";
        m_graph = verifiedGraph<vk::VkGraph>();
        if (!m_graph)
            return;
        readVersion(m_graph->version());
        addField(m_out, "storage type override", storageText(m_graph->storage_type_override()));
        addField(m_out, "memory layout override", layoutText(m_graph->memory_layout_override()));
        if (const auto* in = m_graph->input_ids())
            m_out.inputIds.assign(in->begin(), in->end());
        if (const auto* o = m_graph->output_ids())
            m_out.outputIds.assign(o->begin(), o->end());
        decodeValues();
        indexValues(m_out, m_ctx);
        for (const auto id : m_out.inputIds)
            if (auto* v = mutableValue(id))
                v->graphInput = true;
            else
                warn("graph input " + std::to_string(id) + " names no value", "input_ids");
        for (const auto id : m_out.outputIds)
            if (auto* v = mutableValue(id))
                v->graphOutput = true;
            else
                warn("graph output " + std::to_string(id) + " names no value", "output_ids");
        decodeChain();
        m_out.graphDecoded = true;
        addField(m_out, "operator calls", std::to_string(m_out.nodes.size()));
        addField(m_out, "values", std::to_string(m_out.values.size()));
        addField(m_out, "constants", std::to_string(m_graph->constants() ? m_graph->constants()->size() : 0));
        addField(m_out, "shaders", std::to_string(m_graph->shaders() ? m_graph->shaders()->size() : 0));
    }

private:
    InnerValue* mutableValue(std::uint32_t id)
    {
        const auto* v = m_out.value(id);
        return v ? &m_out.values[std::size_t(v - m_out.values.data())] : nullptr;
    }

    std::optional<ConstantRef> resolveConstant(std::int32_t cid, const std::string& path)
    {
        if (cid < 0)
            return std::nullopt;
        ConstantRef ref;
        ref.index = std::uint32_t(cid);
        const auto* constants = m_graph->constants();
        if (!constants || std::uint32_t(cid) >= constants->size()) {
            warn("constant " + std::to_string(cid) + " is out of range ("
                    + std::to_string(constants ? constants->size() : 0) + " constants)",
                path);
            return ref;
        }
        const auto* c = constants->Get(flatbuffers::uoffset_t(cid));
        ref.size = c->length();
        if (c->offset() == std::numeric_limits<std::uint64_t>::max()
            || (c->named_key() && c->named_key()->size() > 0)) {
            ref.key = c->named_key() ? c->named_key()->str() : std::string();
            if (auto bytes = findNamedData(m_ctx.sources, ref.key, ref.source))
                ref.data = *bytes;
            else
                warn("constant " + std::to_string(cid) + " names key '" + ref.key
                        + "', which is neither in the program's named data nor in an external .ptd",
                    path);
            return ref;
        }
        if (!hasHeader() || !inBounds(c->offset(), c->length(), dataSize())) {
            warn("constant " + std::to_string(cid) + " at [" + std::to_string(c->offset()) + ", +"
                    + std::to_string(c->length()) + ") is outside the constant bytes (" + std::to_string(dataSize())
                    + " bytes)",
                path);
            return ref;
        }
        ref.source = ConstantSource::PayloadSection;
        ref.offset = dataOffset() + c->offset();
        ref.data = m_out.bytes.slice(std::size_t(ref.offset), std::size_t(ref.size));
        return ref;
    }

    void decodeValues()
    {
        const auto* values = m_graph->values();
        if (!values)
            return;
        m_out.values.reserve(values->size());
        for (flatbuffers::uoffset_t i = 0; i < values->size(); ++i) {
            const std::string path = "values[" + std::to_string(i) + "]";
            const auto* vv = values->Get(i);
            InnerValue v;
            v.id = i;
            switch (vv->value_type()) {
            case vk::GraphTypes::Null:
                v.kind = "null";
                v.text = "None";
                break;
            case vk::GraphTypes::Int:
                v.kind = "int";
                v.text = std::to_string(vv->value_as_Int()->int_val());
                break;
            case vk::GraphTypes::Double:
                v.kind = "double";
                v.text = formatFloat(vv->value_as_Double()->double_val());
                break;
            case vk::GraphTypes::Bool:
                v.kind = "bool";
                v.text = vv->value_as_Bool()->bool_val() ? "true" : "false";
                break;
            case vk::GraphTypes::IntList: {
                v.kind = "int list";
                std::vector<std::int64_t> items;
                if (const auto* l = vv->value_as_IntList()->items())
                    items.assign(l->begin(), l->end());
                v.text = formatList(items);
                break;
            }
            case vk::GraphTypes::DoubleList: {
                v.kind = "double list";
                std::vector<double> items;
                if (const auto* l = vv->value_as_DoubleList()->items())
                    items.assign(l->begin(), l->end());
                v.text = formatList(items);
                break;
            }
            case vk::GraphTypes::BoolList: {
                v.kind = "bool list";
                std::vector<int> items;
                if (const auto* l = vv->value_as_BoolList()->items())
                    for (const auto x : *l)
                        items.push_back(x ? 1 : 0);
                v.text = formatList(items);
                break;
            }
            case vk::GraphTypes::ValueList: {
                v.kind = "value list";
                std::vector<std::int32_t> items;
                if (const auto* l = vv->value_as_ValueList()->items())
                    items.assign(l->begin(), l->end());
                v.text = formatList(items);
                break;
            }
            case vk::GraphTypes::String:
                v.kind = "string";
                v.text = vv->value_as_String()->string_val() ? vv->value_as_String()->string_val()->str() : "";
                break;
            case vk::GraphTypes::SymInt:
                v.kind = "symint";
                v.text = std::to_string(vv->value_as_SymInt()->value());
                break;
            case vk::GraphTypes::VkTensor: {
                const auto* t = vv->value_as_VkTensor();
                v.kind = "tensor";
                v.dtype = dataTypeText(t->datatype());
                if (const auto* d = t->dims())
                    v.dims.assign(d->begin(), d->end());
                v.attributes.push_back({ "storage", storageText(t->storage_type()) });
                v.attributes.push_back({ "memory layout", layoutText(t->memory_layout()) });
                if (t->mem_obj_id() >= 0)
                    v.attributes.push_back({ "mem_obj_id", std::to_string(t->mem_obj_id()) });
                if (t->staging_datatype() != vk::VkDataType::UNSET)
                    v.attributes.push_back({ "staging datatype", dataTypeText(t->staging_datatype()) });
                v.constant = resolveConstant(t->constant_id(), path + ".constant_id");
                break;
            }
            default:
                v.kind = "value kind " + std::to_string(int(vv->value_type()));
                warn("value " + std::to_string(i) + " has the unknown kind " + std::to_string(int(vv->value_type())),
                    path + ".value_type");
                break;
            }
            m_out.values.push_back(std::move(v));
        }
    }

    void decodeChain()
    {
        const auto* chain = m_graph->chain();
        if (!chain)
            return;
        m_out.nodes.reserve(chain->size());
        for (flatbuffers::uoffset_t i = 0; i < chain->size(); ++i) {
            const auto* call = chain->Get(i);
            InnerNode n;
            n.index = i;
            n.kind = call->name() ? call->name()->str() : std::string("(unnamed)");
            n.delegateDebugId = std::to_string(call->node_id());
            n.params.push_back({ "node_id", n.delegateDebugId });
            if (const auto* args = call->args()) {
                for (flatbuffers::uoffset_t a = 0; a < args->size(); ++a) {
                    const std::int32_t id = args->Get(a);
                    const bool last = a + 1 == args->size();
                    if (id < 0 || !m_out.value(std::uint32_t(id))) {
                        warn("operator call " + std::to_string(i) + " (" + n.kind + ") argument " + std::to_string(a)
                                + " names value " + std::to_string(id) + ", which does not exist",
                            "chain[" + std::to_string(i) + "].args[" + std::to_string(a) + "]");
                        continue;
                    }
                    // The schema arguments come first, in schema order; the output value is the last argument.
                    (last ? n.outputs : n.inputs)
                        .push_back({ last ? "output" : "arg " + std::to_string(a), std::uint32_t(id) });
                }
            }
            m_out.nodes.push_back(std::move(n));
        }
    }

    const vk::VkGraph* m_graph = nullptr;
};

} // namespace

void decodeVulkan(DelegatePayload& out, const DecodeContext& ctx) { VulkanDecoder(out, ctx).run(); }

} // namespace pte::delegate
