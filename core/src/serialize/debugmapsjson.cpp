// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "pte/emittedoutput.h"
#include "pte/emitter.h"

#include <nlohmann/json.hpp>

namespace pte {

namespace {

using DebugHandleMap = std::map<std::string, std::map<std::int64_t, std::vector<std::int64_t>>>;
using DelegateMap = std::map<std::string, std::map<std::int64_t, DelegateMapEntry>>;
using NumOutsMap = std::map<std::string, std::map<std::int64_t, std::int64_t>>;

std::string mapsJson(const DebugHandleMap& handles, const DelegateMap& delegates, const NumOutsMap& numOuts)
{
    using nlohmann::ordered_json;
    ordered_json root;
    ordered_json dh = ordered_json::object();
    ordered_json dm = ordered_json::object();
    ordered_json no = ordered_json::object();
    for (const auto& [method, m] : handles) {
        ordered_json j = ordered_json::object();
        const auto calls = numOuts.find(method);
        for (const auto& [id, list] : m) {
            const bool isDelegate = calls != numOuts.end() && calls->second.count(id);
            if (!isDelegate && list.size() == 1)
                j[std::to_string(id)] = list[0];
            else
                j[std::to_string(id)] = list;
        }
        dh[method] = std::move(j);
    }
    for (const auto& [method, m] : delegates) {
        ordered_json j = ordered_json::object();
        for (const auto& [id, entry] : m) {
            ordered_json e;
            e["name"] = entry.name;
            ordered_json map = ordered_json::object();
            for (const auto& [k, v] : entry.delegateMap)
                map[k] = v;
            e["delegate_map"] = std::move(map);
            j[std::to_string(id)] = std::move(e);
        }
        dm[method] = std::move(j);
    }
    for (const auto& [method, m] : numOuts) {
        ordered_json j = ordered_json::object();
        for (const auto& [id, n] : m)
            j[std::to_string(id)] = n;
        no[method] = std::move(j);
    }
    root["debug_handle_map"] = std::move(dh);
    root["delegate_map"] = std::move(dm);
    root["instruction_id_to_num_outs_map"] = std::move(no);
    return root.dump(2, ' ', false, ordered_json::error_handler_t::replace);
}

} // namespace

std::string debugMapsJson(const EmitterOutput& output)
{
    return mapsJson(output.debugHandleMap, output.methodToDelegateDebugIdMap, output.instructionIdToNumOutsMap);
}

std::string debugMapsJson(const EtRecordMaps& maps)
{
    return mapsJson(maps.debugHandleMap, maps.delegateMap, maps.instructionIdToNumOutsMap);
}

} // namespace pte
