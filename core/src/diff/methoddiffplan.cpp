// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// The method comparison's memory plan (buffer sizes and devices) and method fields (name, container types,
// chain count).
#include "diff/methoddiffer_p.h"

namespace pte::diff {

void MethodDiffer::compareMemoryPlan()
{
    const auto& sa = m_a.plan().nonConstBufferSizes;
    const auto& sb = m_b.plan().nonConstBufferSizes;
    if (sa != sb)
        add(DiffCategory::MemoryPlan, DiffStatus::Changed, "non_const_buffer_sizes", "", listText(sa), listText(sb), -1,
            -1);
    const auto da = m_a.plan().nonConstBufferDevice.value_or(std::vector<NonConstBufferDevice> {});
    const auto db = m_b.plan().nonConstBufferDevice.value_or(std::vector<NonConstBufferDevice> {});
    auto text = [](const std::vector<NonConstBufferDevice>& d) {
        std::string s;
        for (const auto& e : d)
            s += (s.empty() ? "" : ", ") + std::to_string(e.bufferIdx)
                + (e.deviceType == DeviceType::Cuda ? ":cuda" : ":cpu") + std::to_string(e.deviceIndex);
        return "[" + s + "]";
    };
    if (text(da) != text(db))
        add(DiffCategory::MemoryPlan, DiffStatus::Changed, "non_const_buffer_device", "", text(da), text(db), -1, -1);
}

void MethodDiffer::compareMethodMeta()
{
    const auto& pa = m_a.plan();
    const auto& pb = m_b.plan();
    if (pa.name != pb.name)
        add(DiffCategory::Method, DiffStatus::Changed, "method", "name", pa.name, pb.name, -1, -1);
    const ContainerMetadata none;
    const auto& ca = pa.containerMetaType ? *pa.containerMetaType : none;
    const auto& cb = pb.containerMetaType ? *pb.containerMetaType : none;
    if (ca.encodedInpStr != cb.encodedInpStr)
        add(DiffCategory::Signature, DiffStatus::Changed, "container_meta_type", "encoded_inp_str", ca.encodedInpStr,
            cb.encodedInpStr, -1, -1);
    if (ca.encodedOutStr != cb.encodedOutStr)
        add(DiffCategory::Signature, DiffStatus::Changed, "container_meta_type", "encoded_out_str", ca.encodedOutStr,
            cb.encodedOutStr, -1, -1);
    if (pa.chains.size() != pb.chains.size())
        add(DiffCategory::Method, DiffStatus::Changed, "chains", "count", std::to_string(pa.chains.size()),
            std::to_string(pb.chains.size()), -1, -1);
}

} // namespace pte::diff
