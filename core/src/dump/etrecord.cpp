// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "base/fieldpath.h"
#include "dump/dumpreader_p.h"
#include "dump/jsontext.h"

#include <cstdlib>
#include <functional>
#include <set>
#include <string_view>

namespace pte::dump {

namespace {

using base::indexPath;

Result<json> readJsonEntry(const ZipArchive& zip, const ZipEntry& e)
{
    PTE_TRY(const Bytes text, zip.read(e));
    return parseJsonText(text.asStringView(), zip.entryLabel(e));
}

Result<std::vector<std::int64_t>> handleList(const json& v, const std::string& label, const std::string& path)
{
    std::vector<std::int64_t> out;
    if (v.is_number_integer()) {
        out.push_back(v.get<std::int64_t>());
        return out;
    }
    if (v.is_array()) {
        for (std::size_t i = 0; i < v.size(); ++i) {
            if (!v[i].is_number_integer())
                return fail(ErrorCode::InvalidInput,
                    label + ": expected an integer debug handle at " + indexPath(path, i), {}, indexPath(path, i));
            out.push_back(v[i].get<std::int64_t>());
        }
        return out;
    }
    if (v.is_null())
        return out;
    return fail(ErrorCode::InvalidInput, label + ": expected a debug handle or a list of them at " + path, {}, path);
}

Result<std::int64_t> instructionId(const std::string& key, const std::string& label, const std::string& path)
{
    char* end = nullptr;
    const long long v = std::strtoll(key.c_str(), &end, 10);
    if (key.empty() || *end != '\0')
        return fail(ErrorCode::InvalidInput, label + ": '" + key + "' is not an instruction id at " + path, {}, path);
    return static_cast<std::int64_t>(v);
}

Result<void> readEtRecordMaps(const ZipArchive& zip, EtRecordMaps& maps)
{
    if (const ZipEntry* e = zip.find("debug_handle_map")) {
        const std::string label = zip.entryLabel(*e);
        PTE_TRY(const json j, readJsonEntry(zip, *e));
        if (!j.is_object())
            return fail(ErrorCode::InvalidInput, label + ": expected an object");
        for (auto m = j.begin(); m != j.end(); ++m) {
            auto& perMethod = maps.debugHandleMap[m.key()];
            if (!m->is_object())
                return fail(ErrorCode::InvalidInput, label + ": expected an object at " + m.key(), {}, m.key());
            for (auto it = m->begin(); it != m->end(); ++it) {
                const std::string p = m.key() + "." + it.key();
                PTE_TRY(const auto id, instructionId(it.key(), label, p));
                PTE_TRY(perMethod[id], handleList(it.value(), label, p));
            }
        }
    }
    if (const ZipEntry* e = zip.find("delegate_map")) {
        const std::string label = zip.entryLabel(*e);
        PTE_TRY(const json j, readJsonEntry(zip, *e));
        if (!j.is_object())
            return fail(ErrorCode::InvalidInput, label + ": expected an object");
        for (auto m = j.begin(); m != j.end(); ++m) {
            auto& perMethod = maps.delegateMap[m.key()];
            if (!m->is_object())
                return fail(ErrorCode::InvalidInput, label + ": expected an object at " + m.key(), {}, m.key());
            for (auto it = m->begin(); it != m->end(); ++it) {
                const std::string p = m.key() + "." + it.key();
                PTE_TRY(const auto id, instructionId(it.key(), label, p));
                DelegateMapEntry entry;
                const json& name = field(it.value(), "name");
                if (name.is_string())
                    entry.name = name.get<std::string>();
                const json& dm = field(it.value(), "delegate_map");
                if (dm.is_object())
                    for (auto d = dm.begin(); d != dm.end(); ++d) {
                        PTE_TRY(
                            entry.delegateMap[d.key()], handleList(d.value(), label, p + ".delegate_map." + d.key()));
                    }
                perMethod[id] = std::move(entry);
            }
        }
    }
    if (const ZipEntry* e = zip.find("instruction_id_to_num_outs_map")) {
        const std::string label = zip.entryLabel(*e);
        PTE_TRY(const json j, readJsonEntry(zip, *e));
        if (!j.is_object())
            return fail(ErrorCode::InvalidInput, label + ": expected an object");
        for (auto m = j.begin(); m != j.end(); ++m) {
            auto& perMethod = maps.instructionIdToNumOutsMap[m.key()];
            if (!m->is_object())
                return fail(ErrorCode::InvalidInput, label + ": expected an object at " + m.key(), {}, m.key());
            for (auto it = m->begin(); it != m->end(); ++it) {
                const std::string p = m.key() + "." + it.key();
                PTE_TRY(const auto id, instructionId(it.key(), label, p));
                if (!it->is_number_integer())
                    return fail(ErrorCode::InvalidInput, label + ": expected an integer at " + p, {}, p);
                perMethod[id] = it->get<std::int64_t>();
            }
        }
    }
    return {};
}

} // namespace

Result<void> readEtRecord(const ZipArchive& zip, DumpSet& set, const DumpReadOptions& opt)
{
    set.container = DumpSet::Container::EtRecord;
    static const std::set<std::string, std::less<>> kNotPrograms = { "ETRECORD_V0", "debug_handle_map", "delegate_map",
        "instruction_id_to_num_outs_map", "export_graph_id", "reference_outputs", "representative_inputs",
        "program_buffer" };
    auto endsWith = [](const std::string& s, std::string_view suffix) {
        return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
    };
    Diagnostics diags;
    static constexpr std::string_view kEdge = "edge_dialect_exported_program";
    for (const auto& e : zip.entries()) {
        if (kNotPrograms.count(e.name) || endsWith(e.name, "_state_dict") || endsWith(e.name, "_constants")
            || endsWith(e.name, "_example_inputs") || e.name.compare(0, 23, "et_dialect_graph_module") == 0)
            continue;
        const bool isMethod = e.name == kEdge || e.name.compare(0, kEdge.size() + 1, std::string(kEdge) + "/") == 0;
        auto parsed = readProgramEntry(zip, e, diags, opt.maxEntrySize);
        if (!parsed && !isMethod) {
            // Extra recorded programs are informative only: an unreadable one does not hide the methods.
            Diagnostic d;
            d.message = "skipped entry that is not a readable exported program: " + parsed.error().message;
            d.file = zip.entryLabel(e);
            d.fieldPath = parsed.error().fieldPath;
            diags.push_back(std::move(d));
            continue;
        }
        if (!parsed)
            return std::move(parsed).error();
        auto ep = std::move(parsed).value();
        if (const ZipEntry* sd = zip.find(e.name + "_state_dict"))
            PTE_CHECK(loadPickledWeights(zip, *sd, *ep, opt.maxEntrySize, false, diags));
        if (const ZipEntry* c = zip.find(e.name + "_constants"))
            PTE_CHECK(loadPickledWeights(zip, *c, *ep, opt.maxEntrySize, true, diags));
        if (const ZipEntry* ex = zip.find(e.name + "_example_inputs"))
            loadSampleInputs(zip, *ex, *ep, opt.maxEntrySize, diags);
        computeMissingWeights(*ep);
        if (e.name == kEdge)
            set.methods.emplace_back("forward", std::move(ep));
        else if (e.name.compare(0, kEdge.size() + 1, std::string(kEdge) + "/") == 0)
            set.methods.emplace_back(e.name.substr(kEdge.size() + 1), std::move(ep));
        else
            set.otherPrograms.emplace_back(e.name, std::move(ep));
    }
    EtRecordMaps maps;
    PTE_CHECK(readEtRecordMaps(zip, maps));
    set.etrecordMaps = std::move(maps);
    collectDiagnostics(set, diags);
    if (set.methods.empty())
        return fail(ErrorCode::InvalidInput, set.path + ": the ETRecord has no edge_dialect_exported_program entry");
    return {};
}

} // namespace pte::dump
