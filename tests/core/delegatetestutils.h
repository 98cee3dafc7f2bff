// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

// Builds delegate payloads in the tests with the flatbuffers builder and the generated XNNPACK and Vulkan types,
// laid out as docs/delegate-payloads.md describes (XH00 / VH00 headers written byte by byte here), so the decoders are
// checked against bytes they did not produce.

#include "pte/bytes.h"
#include "pte/schema/vulkan_generated.h"
#include "pte/schema/xnnpack_generated.h"

#include <QByteArray>

#include <cstdint>
#include <cstring>
#include <limits>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace pte::test {

namespace xf = ptelens_xnnpack;
namespace vkf = ptelens_vulkan;

inline constexpr std::uint32_t kNone = std::numeric_limits<std::uint32_t>::max();

inline void putU16(std::vector<std::uint8_t>& b, std::size_t at, std::uint16_t v)
{
    b[at] = std::uint8_t(v);
    b[at + 1] = std::uint8_t(v >> 8);
}
inline void putU32(std::vector<std::uint8_t>& b, std::size_t at, std::uint32_t v)
{
    for (int i = 0; i < 4; ++i)
        b[at + std::size_t(i)] = std::uint8_t(v >> (8 * i));
}
inline void putU64(std::vector<std::uint8_t>& b, std::size_t at, std::uint64_t v)
{
    for (int i = 0; i < 8; ++i)
        b[at + std::size_t(i)] = std::uint8_t(v >> (8 * i));
}

/** The 30-byte XH00 / VH00 header (padded to 32), then the flatbuffer, then the constant bytes, each 16-aligned. */
inline std::vector<std::uint8_t> withHeader(
    const char* magic, const std::uint8_t* fb, std::size_t fbSize, const std::vector<std::uint8_t>& constants)
{
    const std::size_t fbOffset = 32;
    const std::size_t constOffset = (fbOffset + fbSize + 15) / 16 * 16;
    std::vector<std::uint8_t> out(constOffset + constants.size(), 0);
    std::memcpy(out.data() + 4, magic, 4);
    putU16(out, 8, 30);
    putU32(out, 10, std::uint32_t(fbOffset));
    putU32(out, 14, std::uint32_t(fbSize));
    putU32(out, 18, std::uint32_t(constOffset));
    putU64(out, 22, constants.size());
    std::memcpy(out.data() + fbOffset, fb, fbSize);
    if (!constants.empty())
        std::memcpy(out.data() + constOffset, constants.data(), constants.size());
    return out;
}

inline Bytes toBytes(std::vector<std::uint8_t> v) { return Bytes::fromVector(std::move(v)); }

/** An XNNGraph under construction. */
class XnnGraphBuilder
{
public:
    using Tag = xf::XNodeUnion;

    XnnGraphBuilder() { m_constants.push_back(xf::CreateConstantDataOffsetDirect(m_fbb, 0, 0, "")); }

    flatbuffers::FlatBufferBuilder& fbb() { return m_fbb; }

    /** A plain tensor value; returns its id. */
    std::uint32_t tensor(std::vector<std::uint32_t> dims, xf::XNNDatatype dtype = xf::XNNDatatype::fp32,
        std::uint32_t constantIdx = 0, std::uint32_t externalId = kNone, std::uint32_t flags = 0,
        xf::XNNDatatype dq = xf::XNNDatatype::invalid)
    {
        const std::uint32_t id = m_nextId++;
        const auto t = tensorTable(dims, dtype, constantIdx, externalId, flags, id, dq);
        m_values.push_back(xf::CreateXValue(m_fbb, xf::XValueUnion::XNNTensorValue, t.Union()));
        return id;
    }
    /** A quantized tensor with the given XNNQuantParams member. */
    std::uint32_t quantTensor(std::vector<std::uint32_t> dims, xf::XNNDatatype dtype, xf::XNNQuantParams kind,
        flatbuffers::Offset<void> params, std::uint32_t constantIdx = 0, std::uint32_t externalId = kNone,
        std::uint32_t flags = 0)
    {
        const std::uint32_t id = m_nextId++;
        const auto t = tensorTable(dims, dtype, constantIdx, externalId, flags, id, xf::XNNDatatype::invalid);
        const auto q = xf::CreateXNNQuantizedTensorValue(m_fbb, t, kind, params);
        m_values.push_back(xf::CreateXValue(m_fbb, xf::XValueUnion::XNNQuantizedTensorValue, q.Union()));
        return id;
    }
    std::uint32_t input(std::vector<std::uint32_t> dims)
    {
        const auto id = tensor(std::move(dims), xf::XNNDatatype::fp32, 0, m_externs++, 1);
        m_inputs.push_back(id);
        return id;
    }
    std::uint32_t output(std::vector<std::uint32_t> dims)
    {
        const auto id = tensor(std::move(dims), xf::XNNDatatype::fp32, 0, m_externs++, 2);
        m_outputs.push_back(id);
        return id;
    }

    /** A constant in the header's constant section (16-aligned); returns its constant_data index. */
    std::uint32_t sectionConstant(const std::vector<std::uint8_t>& bytes)
    {
        const std::size_t at = m_section.size();
        m_section.insert(m_section.end(), bytes.begin(), bytes.end());
        m_section.resize((m_section.size() + 15) / 16 * 16, 0);
        m_constants.push_back(xf::CreateConstantDataOffsetDirect(m_fbb, at, bytes.size(), ""));
        return std::uint32_t(m_constants.size() - 1);
    }
    /** A constant named by key (program named data or a .ptd). */
    std::uint32_t namedConstant(const std::string& key, std::uint64_t size)
    {
        m_constants.push_back(
            xf::CreateConstantDataOffsetDirect(m_fbb, std::numeric_limits<std::uint64_t>::max(), size, key.c_str()));
        return std::uint32_t(m_constants.size() - 1);
    }
    /** A constant inline in constant_buffer (the 2023 layout); entry 0 is added as the empty placeholder. */
    std::uint32_t inlineConstant(const std::vector<std::uint8_t>& bytes)
    {
        if (m_buffers.empty())
            m_buffers.push_back(xf::CreateBufferDirect(m_fbb, nullptr));
        m_buffers.push_back(xf::CreateBufferDirect(m_fbb, &bytes));
        return std::uint32_t(m_buffers.size() - 1);
    }

    void node(Tag tag, flatbuffers::Offset<void> table, std::uint32_t handle,
        std::optional<std::pair<float, float>> minMax = std::nullopt)
    {
        flatbuffers::Offset<xf::OutputMinMax> mm;
        if (minMax)
            mm = xf::CreateOutputMinMax(m_fbb, minMax->first, minMax->second);
        m_nodes.push_back(xf::CreateXNode(m_fbb, tag, table, handle, mm));
    }
    void unary(Tag tag, std::uint32_t in, std::uint32_t out, std::uint32_t handle, std::uint32_t flags = 0)
    {
        node(tag, xf::Create_XNNNode1x1(m_fbb, in, out, flags).Union(), handle);
    }
    void binary(Tag tag, std::uint32_t a, std::uint32_t b, std::uint32_t out, std::uint32_t handle)
    {
        node(tag, xf::Create_XNNNode2x1(m_fbb, a, b, out, 0).Union(), handle);
    }
    void conv(Tag tag, std::uint32_t in, std::uint32_t filter, std::uint32_t bias, std::uint32_t out,
        std::uint32_t kernel, std::uint32_t stride, std::uint32_t groups, std::uint32_t groupIn, std::uint32_t groupOut,
        std::uint32_t handle, std::optional<std::pair<float, float>> minMax = std::nullopt)
    {
        const auto t = xf::Create_XNNNodeConv(m_fbb, kernel / 2, kernel / 2, kernel / 2, kernel / 2, kernel, kernel,
            stride, stride, 1, 1, groupIn, groupOut, groups, 0, 0, in, filter, bias, out, 0);
        node(tag, t.Union(), handle, minMax);
    }
    void fullyConnected(std::uint32_t in, std::uint32_t filter, std::uint32_t bias, std::uint32_t out,
        std::uint32_t handle, std::optional<std::pair<float, float>> minMax = std::nullopt)
    {
        node(Tag::XNNFullyConnected, xf::CreateXNNFullyConnected(m_fbb, in, filter, bias, out, 0).Union(), handle,
            minMax);
    }

    /** Finishes the flatbuffer and lays out the payload: XH00 header + flatbuffer + section, or bare. */
    std::vector<std::uint8_t> finish(bool header = true, const char* identifier = "XN01")
    {
        std::vector<std::uint32_t> in = m_inputs;
        std::vector<std::uint32_t> out = m_outputs;
        const auto graph = xf::CreateXNNGraphDirect(m_fbb, "0", &m_nodes, &m_values, m_externs, &in, &out,
            m_buffers.empty() ? nullptr : &m_buffers, nullptr, m_buffers.empty() ? &m_constants : nullptr);
        m_fbb.Finish(graph, identifier);
        if (!header)
            return { m_fbb.GetBufferPointer(), m_fbb.GetBufferPointer() + m_fbb.GetSize() };
        return withHeader("XH00", m_fbb.GetBufferPointer(), m_fbb.GetSize(), m_section);
    }

private:
    flatbuffers::Offset<xf::XNNTensorValue> tensorTable(const std::vector<std::uint32_t>& dims, xf::XNNDatatype dtype,
        std::uint32_t constantIdx, std::uint32_t externalId, std::uint32_t flags, std::uint32_t id, xf::XNNDatatype dq)
    {
        return xf::CreateXNNTensorValueDirect(
            m_fbb, dtype, std::uint32_t(dims.size()), &dims, constantIdx, externalId, flags, id, dq);
    }

    flatbuffers::FlatBufferBuilder m_fbb;
    std::vector<flatbuffers::Offset<xf::XValue>> m_values;
    std::vector<flatbuffers::Offset<xf::XNode>> m_nodes;
    std::vector<flatbuffers::Offset<xf::ConstantDataOffset>> m_constants;
    std::vector<flatbuffers::Offset<xf::Buffer>> m_buffers;
    std::vector<std::uint8_t> m_section;
    std::vector<std::uint32_t> m_inputs;
    std::vector<std::uint32_t> m_outputs;
    std::uint32_t m_nextId = 0;
    std::uint32_t m_externs = 0;
};

/** The worked example of docs/delegate-payloads.md built into `b`: a [1, 1, 8, 8] input, a transpose to NHWC (handle
 *  65535), a depthwise 3x3 convolution (8), a 3x3 convolution to 16 channels (10), a global average pool (12) and a
 *  transpose back to NCHW (65535); `convMinMax` is the two convolutions' fused output range. */
inline void addWorkedExample(XnnGraphBuilder& b, std::optional<std::pair<float, float>> convMinMax = std::nullopt)
{
    using T = XnnGraphBuilder::Tag;
    const auto x = b.input({ 1, 1, 8, 8 });
    const auto t0 = b.tensor({ 1, 8, 8, 1 });
    const auto w1 = b.tensor({ 1, 3, 3, 8 });
    const auto c1 = b.tensor({ 1, 6, 6, 8 });
    const auto w2 = b.tensor({ 16, 3, 3, 8 });
    const auto c2 = b.tensor({ 1, 4, 4, 16 });
    const auto g = b.tensor({ 1, 1, 1, 16 });
    const auto y = b.output({ 1, 16, 1, 1 });
    const std::vector<std::uint32_t> toNhwc { 0, 2, 3, 1 };
    const std::vector<std::uint32_t> toNchw { 0, 3, 1, 2 };
    b.node(T::XNNStaticTranspose, xf::CreateXNNStaticTransposeDirect(b.fbb(), 4, &toNhwc, x, t0, 0).Union(), 65535);
    b.conv(T::XNNDepthwiseConv2d, t0, w1, kNone, c1, 3, 1, 1, 1, 8, 8, convMinMax);
    b.conv(T::XNNConv2d, c1, w2, kNone, c2, 3, 1, 1, 8, 16, 10, convMinMax);
    b.unary(T::XNNGlobalAvgPooling2d, c2, g, 12, 0x40);
    b.node(T::XNNStaticTranspose, xf::CreateXNNStaticTransposeDirect(b.fbb(), 4, &toNchw, g, y, 0).Union(), 65535);
}

/**
 * The XNNPACK payload of tests/data/dumps/delegate_edge.json and delegate_named_data.json, which `make test-data`
 * (tests/tools/gentestpayloads.cpp) writes there: what their lowered module's original program computes, x + y for
 * two float32 [2, 2] inputs, as one Add node carrying the original add node's debug handle 1; XH00 header + XN01
 * flatbuffer, no constants. ExecuTorch's XNNPACK backend runs it.
 */
inline std::vector<std::uint8_t> delegateEdgePayload()
{
    XnnGraphBuilder b;
    const auto x = b.input({ 2, 2 });
    const auto y = b.input({ 2, 2 });
    const auto z = b.output({ 2, 2 });
    b.binary(XnnGraphBuilder::Tag::XNNAdd, x, y, z, 1);
    return b.finish();
}

/** `bytes` in base64, as dumps carry a payload (`processed_bytes`). */
inline QByteArray base64Of(const std::vector<std::uint8_t>& bytes)
{
    return QByteArray(reinterpret_cast<const char*>(bytes.data()), qsizetype(bytes.size())).toBase64();
}

/** The text of delegate_edge.json or delegate_named_data.json with `payload` in place of delegateEdgePayload();
 *  empty when the text does not carry that payload. */
inline QByteArray withPayload(QByteArray dumpJson, const std::vector<std::uint8_t>& payload)
{
    const QByteArray stock = base64Of(delegateEdgePayload());
    if (dumpJson.count(stock) != 1)
        return {};
    return dumpJson.replace(stock, base64Of(payload));
}

/** A float as 4 little-endian bytes. */
inline std::vector<std::uint8_t> floatBytes(std::initializer_list<float> values)
{
    std::vector<std::uint8_t> out;
    for (const float f : values) {
        std::uint32_t bits = 0;
        std::memcpy(&bits, &f, 4);
        for (int i = 0; i < 4; ++i)
            out.push_back(std::uint8_t(bits >> (8 * i)));
    }
    return out;
}

} // namespace pte::test
