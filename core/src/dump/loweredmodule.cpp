// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// The exported-program decoder's lowered modules (delegates): backend, payload, compile specs, original program,
// named data.
#include "dump/base64.h"
#include "dump/exportedprogramdecoder.h"

namespace pte::dump {

Result<std::shared_ptr<const LoweredModule>> ExportedProgramDecoder::loweredModule(
    const std::string& text, const std::string& name, const std::string& path, int depth)
{
    const std::string label = m_source + " (" + path + ")";
    PTE_TRY(const json j, parseJsonText(text, label));
    auto lm = std::make_shared<LoweredModule>();
    lm->name = name;
    PTE_TRY(lm->backendId, toString(field(j, "backend_id"), joinPath(path, "backend_id")));
    const json& pb = field(j, "processed_bytes");
    if (pb.is_string()) {
        auto bytes = decodeBase64(pb.get_ref<const std::string&>());
        if (!bytes)
            return bad(joinPath(path, "processed_bytes"), "invalid base64");
        lm->processedBytes = Bytes::fromVector(std::move(*bytes));
    }
    const json& cs = field(j, "compile_specs");
    for (std::size_t i = 0; cs.is_array() && i < cs.size(); ++i) {
        const std::string cp = indexPath(joinPath(path, "compile_specs"), i);
        CompileSpec spec;
        PTE_TRY(spec.key, toString(field(cs[i], "key"), joinPath(cp, "key")));
        const json& value = field(cs[i], "value");
        if (value.is_string()) {
            auto bytes = decodeBase64(value.get_ref<const std::string&>());
            if (!bytes)
                return bad(joinPath(cp, "value"), "invalid base64");
            spec.value = Bytes::fromVector(std::move(*bytes));
        }
        lm->compileSpecs.push_back(std::move(spec));
    }
    const json& om = field(j, "original_module");
    if (om.is_object()) {
        ExportedProgramDecoder nested(m_source + " (" + joinPath(path, "original_module") + ")", m_diags);
        nested.maxEntrySize = maxEntrySize;
        PTE_TRY(auto ep, nested.program(om, depth + 1));
        const json& osd = field(j, "original_state_dict");
        if (osd.is_string() && !osd.get_ref<const std::string&>().empty()) {
            auto bytes = decodeBase64(osd.get_ref<const std::string&>());
            if (!bytes)
                return bad(joinPath(path, "original_state_dict"), "invalid base64");
            if (!bytes->empty()) {
                auto saved = readTorchSave(Bytes::fromVector(std::move(*bytes)),
                    m_source + " (" + joinPath(path, "original_state_dict") + ")", maxEntrySize);
                if (saved) {
                    for (auto& s : *saved) {
                        if (s.tensor.fake) {
                            auto meta = nested.fakeTensorMeta(s, joinPath(path, "original_state_dict"), "weight");
                            if (!meta)
                                continue; // reported as a warning
                            s.tensor.meta = std::move(meta).value();
                        }
                        ep->weights.emplace(s.key, std::move(s.tensor));
                    }
                } else {
                    warn(joinPath(path, "original_state_dict"), saved.error().message);
                }
            }
        }
        lm->originalModule = std::move(ep);
    }
    const json& nds = field(j, "named_data_store");
    if (nds.is_string() || nds.is_object()) {
        json parsed;
        if (nds.is_string()) {
            PTE_TRY(parsed,
                parseJsonText(
                    nds.get_ref<const std::string&>(), m_source + " (" + joinPath(path, "named_data_store") + ")"));
        } else {
            parsed = nds;
        }
        const std::string ndsPath = joinPath(path, "named_data_store");
        const json& buffers = field(parsed, "buffers");
        std::map<std::int64_t, Bytes> decoded; // each buffer decoded once, shared by the entries naming it
        auto entry = [&](const json& e, const std::string& dp) -> Result<LoweredModule::NamedDataEntry> {
            LoweredModule::NamedDataEntry out;
            PTE_TRY(out.bufferIndex, toInt(field(e, "buffer_index"), joinPath(dp, "buffer_index")));
            const std::int64_t idx = out.bufferIndex;
            if (!buffers.is_array() || idx < 0 || static_cast<std::size_t>(idx) >= buffers.size()
                || !buffers[static_cast<std::size_t>(idx)].is_string())
                return bad(dp, "buffer_index " + std::to_string(idx) + " is out of range");
            const json& al = field(e, "alignment");
            if (!al.is_null()) {
                PTE_TRY(const auto a, toInt(al, joinPath(dp, "alignment")));
                if (a < 0 || a > (std::int64_t(1) << 30))
                    return bad(joinPath(dp, "alignment"), "alignment " + std::to_string(a) + " is out of range");
                out.alignment = static_cast<std::uint32_t>(a);
            }
            auto it = decoded.find(idx);
            if (it == decoded.end()) {
                auto bytes = decodeBase64(buffers[static_cast<std::size_t>(idx)].get_ref<const std::string&>());
                if (!bytes)
                    return bad(dp, "invalid base64 in the referenced buffer");
                it = decoded.emplace(idx, Bytes::fromVector(std::move(*bytes))).first;
            }
            out.data = it->second;
            return out;
        };
        const json& pteData = field(parsed, "pte_data");
        if (pteData.is_object())
            for (auto it = pteData.begin(); it != pteData.end(); ++it) {
                const std::string dp = joinPath(joinPath(ndsPath, "pte_data"), it.key());
                PTE_TRY(auto e, entry(it.value(), dp));
                lm->namedData.emplace(it.key(), e.data);
                lm->pteDataEntries.emplace(it.key(), std::move(e));
            }
        const json& external = field(parsed, "external_data");
        if (!external.is_null() && !external.is_object())
            return bad(joinPath(ndsPath, "external_data"), "expected an object, found " + describe(external));
        if (external.is_object())
            for (auto f = external.begin(); f != external.end(); ++f) {
                const std::string fp = joinPath(joinPath(ndsPath, "external_data"), f.key());
                if (!f->is_object())
                    return bad(fp, "expected an object of data entries, found " + describe(*f));
                auto& perFile = lm->externalData[f.key()];
                for (auto it = f->begin(); it != f->end(); ++it) {
                    PTE_TRY(auto e, entry(it.value(), joinPath(fp, it.key())));
                    perFile.emplace(it.key(), std::move(e));
                }
            }
    }
    const json& dim = field(j, "delegate_debug_identifier_map");
    if (dim.is_object()) {
        std::map<std::string, std::vector<std::int64_t>> m;
        for (auto it = dim.begin(); it != dim.end(); ++it) {
            std::vector<std::int64_t> handles;
            if (it->is_array()) {
                for (const auto& h : *it)
                    if (h.is_number_integer())
                        handles.push_back(h.get<std::int64_t>());
            } else if (it->is_number_integer()) {
                handles.push_back(it->get<std::int64_t>());
            }
            m.emplace(it.key(), std::move(handles));
        }
        lm->delegateDebugIdentifierMap = std::move(m);
    }
    return std::shared_ptr<const LoweredModule>(std::move(lm));
}

} // namespace pte::dump
