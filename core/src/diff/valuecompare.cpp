// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// Field-by-field comparison of two matched values.
#include "diff/valuecompare.h"

#include <cstring>

namespace pte::diff {

namespace {

bool sameDouble(double x, double y) { return std::memcmp(&x, &y, sizeof x) == 0 || x == y; }

const std::vector<std::int32_t>* indexList(const EValue& v)
{
    if (const auto* l = std::get_if<TensorList>(&v.val))
        return &l->items;
    if (const auto* l = std::get_if<OptionalTensorList>(&v.val))
        return &l->items;
    return nullptr;
}

const char* dynamismName(ShapeDynamism d)
{
    switch (d) {
    case ShapeDynamism::Static:
        return "static";
    case ShapeDynamism::DynamicBound:
        return "dynamic (bound)";
    case ShapeDynamism::DynamicUnbound:
        return "dynamic (unbound)";
    }
    return "?";
}

class FieldComparer
{
public:
    FieldComparer(std::vector<FieldDifference>& out)
        : m_out(out)
    { }

    template <typename T>
    void field(const T& x, const T& y, const char* name, std::string a, std::string b,
        DiffCategory category = DiffCategory::Value, bool strictOnly = false)
    {
        if (!(x == y))
            m_out.push_back(FieldDifference { category, name, std::move(a), std::move(b), strictOnly });
    }
    void add(const char* name, std::string a, std::string b, DiffCategory category = DiffCategory::Value)
    {
        m_out.push_back(FieldDifference { category, name, std::move(a), std::move(b), false });
    }

private:
    std::vector<FieldDifference>& m_out;
};

void compareTensors(const Tensor& ta, const Tensor& tb, bool strict, FieldComparer& f)
{
    f.field(ta.scalarType, tb.scalarType, "scalar_type", scalarTypeShortName(ta.scalarType),
        scalarTypeShortName(tb.scalarType));
    f.field(ta.sizes, tb.sizes, "sizes", listText(ta.sizes), listText(tb.sizes));
    f.field(ta.dimOrder, tb.dimOrder, "dim_order", listText(ta.dimOrder), listText(tb.dimOrder));
    f.field(ta.storageOffset, tb.storageOffset, "storage_offset", std::to_string(ta.storageOffset),
        std::to_string(tb.storageOffset));
    f.field(ta.layout, tb.layout, "layout", std::to_string(ta.layout), std::to_string(tb.layout));
    f.field(ta.shapeDynamism, tb.shapeDynamism, "shape_dynamism", dynamismName(ta.shapeDynamism),
        dynamismName(tb.shapeDynamism));
    const std::string sa = storageKind(ta);
    const std::string sb = storageKind(tb);
    f.field(sa, sb, "storage", sa, sb);
    if (ta.allocationInfo && tb.allocationInfo) {
        const auto& x = *ta.allocationInfo;
        const auto& y = *tb.allocationInfo;
        f.field(x.memoryId, y.memoryId, "memory_id", std::to_string(x.memoryId), std::to_string(y.memoryId),
            DiffCategory::MemoryPlan);
        f.field(x.offset(), y.offset(), "memory_offset", std::to_string(x.offset()), std::to_string(y.offset()),
            DiffCategory::MemoryPlan);
    }
    const auto* ea = ta.extraTensorInfo ? &*ta.extraTensorInfo : nullptr;
    const auto* eb = tb.extraTensorInfo ? &*tb.extraTensorInfo : nullptr;
    const std::string fqnA = ea && ea->fullyQualifiedName ? *ea->fullyQualifiedName : std::string();
    const std::string fqnB = eb && eb->fullyQualifiedName ? *eb->fullyQualifiedName : std::string();
    f.field(fqnA, fqnB, "fully_qualified_name", fqnA, fqnB);
    const int devA = ea ? int(ea->deviceType) : 0;
    const int devB = eb ? int(eb->deviceType) : 0;
    f.field(devA, devB, "device_type", devA ? "cuda" : "cpu", devB ? "cuda" : "cpu");
    const int idxA = ea ? ea->deviceIndex : 0;
    const int idxB = eb ? eb->deviceIndex : 0;
    f.field(idxA, idxB, "device_index", std::to_string(idxA), std::to_string(idxB));
    if (strict) {
        f.field(ta.requiresGrad, tb.requiresGrad, "requires_grad", ta.requiresGrad ? "true" : "false",
            tb.requiresGrad ? "true" : "false", DiffCategory::Value, true);
        f.field(ta.dataBufferIdx, tb.dataBufferIdx, "data_buffer_idx", std::to_string(ta.dataBufferIdx),
            std::to_string(tb.dataBufferIdx), DiffCategory::Constant, true);
        const std::uint64_t ma = ea ? ea->mutableDataSegmentsIdx : 0;
        const std::uint64_t mb = eb ? eb->mutableDataSegmentsIdx : 0;
        f.field(ma, mb, "mutable_data_segments_idx", std::to_string(ma), std::to_string(mb), DiffCategory::Value, true);
    }
}

} // namespace

std::string storageKind(const Tensor& t)
{
    if (t.extraTensorInfo && t.extraTensorInfo->location == TensorDataLocation::External)
        return t.allocationInfo ? "planned, initialised from external data" : "external";
    if (t.allocationInfo)
        return t.dataBufferIdx != 0 ? "planned with initial state" : "planned";
    return t.dataBufferIdx != 0 ? "constant" : "none";
}

bool sameLiteral(const MethodView& a, std::int64_t x, const MethodView& b, std::int64_t y)
{
    const EValue* va = a.value(x);
    const EValue* vb = b.value(y);
    if (!va || !vb || va->kind() != vb->kind())
        return false;
    switch (va->kind()) {
    case ValueKind::Null:
        return true;
    case ValueKind::Int:
        return std::get<Int>(va->val).intVal == std::get<Int>(vb->val).intVal;
    case ValueKind::Bool:
        return std::get<Bool>(va->val).boolVal == std::get<Bool>(vb->val).boolVal;
    case ValueKind::Double:
        return sameDouble(std::get<Double>(va->val).doubleVal, std::get<Double>(vb->val).doubleVal);
    case ValueKind::String:
        return std::get<String>(va->val).stringVal == std::get<String>(vb->val).stringVal;
    case ValueKind::DoubleList: {
        const auto& p = std::get<DoubleList>(va->val).items;
        const auto& q = std::get<DoubleList>(vb->val).items;
        if (p.size() != q.size())
            return false;
        for (std::size_t i = 0; i < p.size(); ++i)
            if (!sameDouble(p[i], q[i]))
                return false;
        return true;
    }
    case ValueKind::BoolList:
        return std::get<BoolList>(va->val).items == std::get<BoolList>(vb->val).items;
    case ValueKind::IntList: {
        const auto& p = std::get<IntList>(va->val).items;
        const auto& q = std::get<IntList>(vb->val).items;
        if (p.size() != q.size())
            return false;
        for (std::size_t i = 0; i < p.size(); ++i) {
            const EValue* ia = a.value(p[i]);
            const EValue* ib = b.value(q[i]);
            if (!ia || !ib || ia->kind() != ValueKind::Int || ib->kind() != ValueKind::Int
                || std::get<Int>(ia->val).intVal != std::get<Int>(ib->val).intVal)
                return false;
        }
        return true;
    }
    default:
        return false;
    }
}

void compareValueFields(const MethodView& a, std::int64_t x, const MethodView& b, std::int64_t y,
    const Matching& values, bool strict, std::vector<FieldDifference>& out)
{
    const EValue* va = a.value(x);
    const EValue* vb = b.value(y);
    if (!va || !vb)
        return;
    FieldComparer f(out);
    if (va->kind() != vb->kind()) {
        f.add("kind", a.describeValue(x), b.describeValue(y));
        return;
    }
    switch (va->kind()) {
    case ValueKind::Tensor:
        compareTensors(*va->tensor(), *vb->tensor(), strict, f);
        return;
    case ValueKind::Int:
    case ValueKind::Bool:
    case ValueKind::Double:
    case ValueKind::String:
    case ValueKind::DoubleList:
    case ValueKind::BoolList:
        if (!sameLiteral(a, x, b, y))
            f.add("value", a.describeValue(x), b.describeValue(y));
        return;
    case ValueKind::IntList: {
        const auto& p = std::get<IntList>(va->val).items;
        const auto& q = std::get<IntList>(vb->val).items;
        if (p.size() != q.size()) {
            f.add("items", a.describeValue(x), b.describeValue(y));
            return;
        }
        for (std::size_t i = 0; i < p.size(); ++i) {
            const bool matched =
                p[i] >= 0 && std::size_t(p[i]) < values.aToB.size() && values.aToB[std::size_t(p[i])] == q[i];
            if (!matched && !sameLiteral(a, p[i], b, q[i])) {
                f.add("items", a.describeValue(x), b.describeValue(y));
                return;
            }
        }
        return;
    }
    case ValueKind::TensorList:
    case ValueKind::OptionalTensorList: {
        const auto& p = *indexList(*va);
        const auto& q = *indexList(*vb);
        bool same = p.size() == q.size();
        for (std::size_t i = 0; same && i < p.size(); ++i) {
            if (p[i] < 0 || q[i] < 0)
                same = p[i] < 0 && q[i] < 0;
            else
                same = std::size_t(p[i]) < values.aToB.size() && values.aToB[std::size_t(p[i])] == q[i];
        }
        if (!same)
            f.add("items", a.describeValue(x), b.describeValue(y));
        return;
    }
    case ValueKind::Null:
    case ValueKind::None:
        return;
    }
}

} // namespace pte::diff
