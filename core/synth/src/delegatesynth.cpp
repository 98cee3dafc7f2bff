// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// Synthetic delegate payloads and programs for the benchmarks.
#include "pte/delegatesynth.h"

#include "pte/schema/xnnpack_generated.h"

#include <cstring>
#include <limits>

namespace pte {

namespace {

namespace xf = ptelens_xnnpack;

constexpr std::uint32_t kNoValue = std::numeric_limits<std::uint32_t>::max();

void putLe(std::vector<std::uint8_t>& b, std::size_t at, std::uint64_t v, int bytes)
{
    for (int i = 0; i < bytes; ++i)
        b[at + std::size_t(i)] = std::uint8_t(v >> (8 * i));
}

} // namespace

Bytes makeSyntheticXnnpackPayload(std::uint32_t nodes)
{
    flatbuffers::FlatBufferBuilder fbb(std::size_t(nodes) * 256 + 1024);
    std::vector<flatbuffers::Offset<xf::XValue>> values;
    std::vector<flatbuffers::Offset<xf::XNode>> xnodes;
    std::vector<flatbuffers::Offset<xf::ConstantDataOffset>> constants;
    std::vector<std::uint8_t> section;
    constants.push_back(xf::CreateConstantDataOffsetDirect(fbb, 0, 0, ""));
    std::uint32_t nextId = 0;
    auto tensor = [&](std::vector<std::uint32_t> dims, std::uint32_t constant, std::uint32_t external,
                      std::uint32_t flags, bool quantized) {
        const std::uint32_t id = nextId++;
        const auto t = xf::CreateXNNTensorValueDirect(fbb, quantized ? xf::XNNDatatype::qint8 : xf::XNNDatatype::fp32,
            std::uint32_t(dims.size()), &dims, constant, external, flags, id);
        if (quantized) {
            const auto q = xf::CreateXNNQuantizedTensorValue(
                fbb, t, xf::XNNQuantParams::PerTensorQuant, xf::CreatePerTensorQuant(fbb, 0.05f, 3).Union());
            values.push_back(xf::CreateXValue(fbb, xf::XValueUnion::XNNQuantizedTensorValue, q.Union()));
        } else {
            values.push_back(xf::CreateXValue(fbb, xf::XValueUnion::XNNTensorValue, t.Union()));
        }
        return id;
    };
    auto constant = [&](std::size_t bytes) {
        const std::size_t at = section.size();
        section.resize(at + (bytes + 15) / 16 * 16, 0x3c);
        constants.push_back(xf::CreateConstantDataOffsetDirect(fbb, at, bytes, ""));
        return std::uint32_t(constants.size() - 1);
    };
    const std::uint32_t input = tensor({ 1, 4, 4, 4 }, 0, 0, 1, false);
    std::uint32_t current = input;
    const std::vector<std::uint32_t> perm { 0, 1, 2, 3 };
    for (std::uint32_t i = 0; i < nodes; ++i) {
        const bool last = i + 1 == nodes;
        const std::uint32_t out = tensor({ 1, 4, 4, 4 }, 0, last ? 1 : kNoValue, last ? 2 : 0, i % 6 == 5 && !last);
        const std::uint32_t handle = i + 1;
        flatbuffers::Offset<xf::OutputMinMax> minMax;
        switch (i % 6) {
        case 0: {
            const auto w = tensor({ 4, 4 }, constant(64), kNoValue, 0, false);
            const auto b = tensor({ 4 }, constant(16), kNoValue, 0, false);
            minMax = xf::CreateOutputMinMax(fbb, 0.0f, std::numeric_limits<float>::infinity());
            xnodes.push_back(xf::CreateXNode(fbb, xf::XNodeUnion::XNNFullyConnected,
                xf::CreateXNNFullyConnected(fbb, current, w, b, out, 0).Union(), handle, minMax));
            break;
        }
        case 1:
            xnodes.push_back(xf::CreateXNode(
                fbb, xf::XNodeUnion::XNNAdd, xf::Create_XNNNode2x1(fbb, current, input, out, 0).Union(), handle));
            break;
        case 2:
            minMax = xf::CreateOutputMinMax(fbb, 0.0f, 6.0f);
            xnodes.push_back(xf::CreateXNode(
                fbb, xf::XNodeUnion::XNNClamp, xf::Create_XNNNode1x1(fbb, current, out, 0).Union(), handle, minMax));
            break;
        case 3: {
            const auto w = tensor({ 4, 1, 1, 4 }, constant(64), kNoValue, 0, false);
            xnodes.push_back(xf::CreateXNode(fbb, xf::XNodeUnion::XNNConv2d,
                xf::Create_XNNNodeConv(fbb, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 4, 4, 1, 0, 0, current, w, kNoValue, out, 0)
                    .Union(),
                handle));
            break;
        }
        case 4:
            xnodes.push_back(xf::CreateXNode(fbb, xf::XNodeUnion::XNNStaticTranspose,
                xf::CreateXNNStaticTransposeDirect(fbb, 4, &perm, current, out, 0).Union(), 65535));
            break;
        default: // a quantizing Convert: its output is a per-tensor qint8 value
            xnodes.push_back(xf::CreateXNode(
                fbb, xf::XNodeUnion::XNNConvert, xf::Create_XNNNode1x1(fbb, current, out, 0).Union(), handle));
            break;
        }
        current = out;
    }
    const std::vector<std::uint32_t> inputs { input };
    const std::vector<std::uint32_t> outputs { current };
    fbb.Finish(xf::CreateXNNGraphDirect(fbb, "0", &xnodes, &values, 2, &inputs, &outputs, nullptr, nullptr, &constants),
        "XN01");

    const std::size_t fbOffset = 32;
    const std::size_t constOffset = (fbOffset + fbb.GetSize() + 15) / 16 * 16;
    std::vector<std::uint8_t> out(constOffset + section.size(), 0);
    std::memcpy(out.data() + 4, "XH00", 4);
    putLe(out, 8, 30, 2);
    putLe(out, 10, fbOffset, 4);
    putLe(out, 14, fbb.GetSize(), 4);
    putLe(out, 18, constOffset, 4);
    putLe(out, 22, section.size(), 8);
    std::memcpy(out.data() + fbOffset, fbb.GetBufferPointer(), fbb.GetSize());
    if (!section.empty())
        std::memcpy(out.data() + constOffset, section.data(), section.size());
    return Bytes::fromVector(std::move(out));
}

Program makeSingleDelegateProgram(const Bytes& payload)
{
    Program p;
    p.version = 0;
    p.backendDelegateData.push_back({ payload });
    ExecutionPlan plan;
    plan.name = "forward";
    for (int i = 0; i < 2; ++i) {
        Tensor t;
        t.scalarType = ScalarType::Float;
        t.sizes = { 1, 4, 4, 4 };
        t.dimOrder = { 0, 1, 2, 3 };
        t.allocationInfo = AllocationDetails { 1, std::uint32_t(256 * i), 0 };
        EValue v;
        v.val = t;
        v.rawType = std::uint8_t(ValueKind::Tensor);
        plan.values.push_back(v);
    }
    plan.inputs = { 0 };
    plan.outputs = { 1 };
    BackendDelegate d;
    d.id = "XnnpackBackend";
    d.processed = { DataLocation::Inline, 0 };
    plan.delegates.push_back(d);
    Chain chain;
    chain.inputs = { 0 };
    chain.outputs = { 1 };
    Instruction call;
    call.args = DelegateCall { 0, { 0, 1 } };
    call.rawType = std::uint8_t(InstructionKind::DelegateCall);
    chain.instructions.push_back(call);
    plan.chains.push_back(chain);
    plan.nonConstBufferSizes = { 0, 512 };
    p.executionPlan.push_back(plan);
    return p;
}

} // namespace pte
