// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "pte/program.h"

#include <algorithm>

namespace pte {

namespace {
struct ScalarTypeInfo
{
    const char* schemaName;
    const char* shortName;
    std::size_t size;
};
// Indexed by code 0..29. Empty schema names are codes program.fbs leaves unnamed.
constexpr ScalarTypeInfo kScalarTypes[] = {
    { "BYTE", "u8", 1 },
    { "CHAR", "i8", 1 },
    { "SHORT", "i16", 2 },
    { "INT", "i32", 4 },
    { "LONG", "i64", 8 },
    { "HALF", "f16", 2 },
    { "FLOAT", "f32", 4 },
    { "DOUBLE", "f64", 8 },
    { "", "c32", 4 },
    { "", "c64", 8 },
    { "", "c128", 16 },
    { "BOOL", "bool", 1 },
    { "QINT8", "qi8", 1 },
    { "QUINT8", "qu8", 1 },
    { "QINT32", "qi32", 4 },
    { "BFLOAT16", "bf16", 2 },
    { "QUINT4X2", "qu4x2", 1 },
    { "QUINT2X4", "qu2x4", 1 },
    { "", "bits1x8", 1 },
    { "", "bits2x4", 1 },
    { "", "bits4x2", 1 },
    { "", "bits8", 1 },
    { "BITS16", "bits16", 2 },
    { "FLOAT8E5M2", "f8e5m2", 1 },
    { "FLOAT8E4M3FN", "f8e4m3fn", 1 },
    { "FLOAT8E5M2FNUZ", "f8e5m2fnuz", 1 },
    { "FLOAT8E4M3FNUZ", "f8e4m3fnuz", 1 },
    { "UINT16", "u16", 2 },
    { "UINT32", "u32", 4 },
    { "UINT64", "u64", 8 },
};
} // namespace

bool isValidScalarType(std::int8_t code) noexcept { return code >= 0 && code <= 29; }

const char* scalarTypeSchemaName(ScalarType t) noexcept
{
    const auto c = static_cast<std::int8_t>(t);
    return isValidScalarType(c) ? kScalarTypes[c].schemaName : "";
}

const char* scalarTypeShortName(ScalarType t) noexcept
{
    const auto c = static_cast<std::int8_t>(t);
    return isValidScalarType(c) ? kScalarTypes[c].shortName : "?";
}

std::size_t elementSize(ScalarType t) noexcept
{
    const auto c = static_cast<std::int8_t>(t);
    return isValidScalarType(c) ? kScalarTypes[c].size : 0;
}

std::optional<std::uint64_t> Tensor::numel() const noexcept
{
    std::uint64_t n = 1;
    for (const auto s : sizes) {
        if (s < 0)
            return std::nullopt;
        if (s != 0 && n > UINT64_MAX / std::uint64_t(s))
            return std::nullopt;
        n *= std::uint64_t(s);
    }
    return n;
}

std::optional<std::uint64_t> Tensor::nbytes() const noexcept
{
    const auto n = numel();
    const auto es = elementSize(scalarType);
    if (!n || es == 0 || (*n != 0 && *n > UINT64_MAX / es))
        return std::nullopt;
    return *n * es;
}

const char* valueKindName(ValueKind k) noexcept
{
    static const char* names[] = { "NONE", "Null", "Int", "Bool", "Double", "Tensor", "String", "IntList", "DoubleList",
        "BoolList", "TensorList", "OptionalTensorList" };
    const auto i = static_cast<std::size_t>(k);
    return i < std::size(names) ? names[i] : "NONE";
}

const char* instructionKindName(InstructionKind k) noexcept
{
    static const char* names[] = { "NONE", "KernelCall", "DelegateCall", "MoveCall", "JumpFalseCall", "FreeCall" };
    const auto i = static_cast<std::size_t>(k);
    return i < std::size(names) ? names[i] : "NONE";
}

std::string Operator::qualifiedName() const { return overload.empty() ? name : name + "." + overload; }

const ExecutionPlan* Program::method(std::string_view name) const noexcept
{
    for (const auto& plan : executionPlan)
        if (plan.name == name)
            return &plan;
    return nullptr;
}

Bytes constantData(const Program& program, std::uint32_t idx)
{
    if (idx == 0)
        return {};
    if (program.constantSegment && program.constantSegment->offsets.size() > 1) {
        const auto& cs = *program.constantSegment;
        if (idx >= cs.offsets.size() || cs.segmentIndex >= program.segments.size())
            return {};
        const DataSegment& seg = program.segments[cs.segmentIndex];
        const std::uint64_t size = seg.contentSize();
        const std::uint64_t begin = cs.offsets[idx];
        const std::uint64_t end = idx + 1 < cs.offsets.size() ? cs.offsets[idx + 1] : size;
        if (begin > end || end > size)
            return {};
        return seg.range(begin, end - begin);
    }
    if (idx < program.constantBuffer.size())
        return program.constantBuffer[idx].storage;
    return {};
}

Bytes mutableData(const Program& program, std::uint32_t idx, std::uint64_t nbytes)
{
    if (idx == 0 || !program.mutableDataSegments || program.mutableDataSegments->empty())
        return {};
    const SubsegmentOffsets& ms = program.mutableDataSegments->front();
    if (idx >= ms.offsets.size() || ms.segmentIndex >= program.segments.size())
        return {};
    const DataSegment& seg = program.segments[ms.segmentIndex];
    const std::uint64_t begin = ms.offsets[idx];
    if (begin > seg.contentSize() || nbytes > seg.contentSize() - begin)
        return {};
    return seg.range(begin, nbytes);
}

Bytes delegateData(const Program& program, const BackendDelegate& delegate)
{
    const auto i = delegate.processed.index;
    if (delegate.processed.location == DataLocation::Inline)
        return i < program.backendDelegateData.size() ? program.backendDelegateData[i].storage : Bytes {};
    if (i >= program.segments.size())
        return {};
    const auto& seg = program.segments[i];
    return seg.range(0, seg.contentSize());
}

std::uint64_t DataSegment::contentSize() const noexcept
{
    if (pieces.empty())
        return data.size();
    std::uint64_t n = 0;
    for (const auto& p : pieces)
        n += p.size();
    return n;
}

Bytes DataSegment::range(std::uint64_t offset, std::uint64_t length) const
{
    if (pieces.empty()) {
        if (offset > data.size() || length > data.size() - offset)
            return {};
        return data.slice(offset, length);
    }
    if (offset + length < offset || offset + length > contentSize())
        return {};
    std::uint64_t at = 0;
    for (const auto& p : pieces) {
        if (offset >= at && offset + length <= at + p.size())
            return p.slice(offset - at, length);
        at += p.size();
    }
    // The range spans pieces: copy just that range.
    std::vector<std::uint8_t> out;
    out.reserve(length);
    at = 0;
    for (const auto& p : pieces) {
        const std::uint64_t lo = std::max(offset, at);
        const std::uint64_t hi = std::min(offset + length, at + p.size());
        if (lo < hi)
            out.insert(out.end(), p.data() + (lo - at), p.data() + (hi - at));
        at += p.size();
    }
    return Bytes::fromVector(std::move(out));
}

bool isIntegralType(ScalarType t) noexcept
{
    switch (t) {
    case ScalarType::Byte:
    case ScalarType::Char:
    case ScalarType::Short:
    case ScalarType::Int:
    case ScalarType::Long:
    case ScalarType::UInt16:
    case ScalarType::UInt32:
    case ScalarType::UInt64:
        return true;
    default:
        return false;
    }
}

bool isFloatingType(ScalarType t) noexcept
{
    switch (t) {
    case ScalarType::Half:
    case ScalarType::BFloat16:
    case ScalarType::Float:
    case ScalarType::Double:
    case ScalarType::Float8e5m2:
    case ScalarType::Float8e4m3fn:
    case ScalarType::Float8e5m2fnuz:
    case ScalarType::Float8e4m3fnuz:
        return true;
    default:
        return false;
    }
}

} // namespace pte
